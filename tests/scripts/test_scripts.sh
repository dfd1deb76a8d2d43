#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_scripts.sh SOURCE_DIR [MBDIFF]
#
# The scripts and the command lines that README.md and docs/*.md show run
# as written:
#  - every scripts/*.sh is executable (on disk, and in git when this is a
#    checkout) and `scripts/NAME.sh --help` exits 0 with a Usage: line;
#  - every code-block line that runs a script (`bash scripts/X.sh ...` or
#    `scripts/X.sh ...`) names a script that exists, is executable when run
#    directly, answers --help the same way, and lists each --option the
#    line uses in that help;
#  - every `build/PRESET/mbdiff SUB ...` line names a subcommand and options
#    the usage text lists, and is run exactly as written when the binary is
#    there, it writes nothing (no -o/--csv/--svg), its operands exist and its
#    variants are built:
#    exit 0 or 1 (a divergence), never 2 or worse;
#  - scripts/lib.sh and the harness have the same default --min-class.
# Ends with "N passed, N failed".
set -uo pipefail

src=${1:?usage: test_scripts.sh SOURCE_DIR [MBDIFF]}
mbdiff=${2:-${MBDIFF:-}}
cd "$src" || exit 2
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

in_git=0
git rev-parse --is-inside-work-tree >/dev/null 2>&1 && in_git=1

# --help of one invocation prefix ("bash scripts/x.sh" or "scripts/x.sh"):
# exit 0 and a Usage line; the text in $help.
help=
run_help() {
	local rc
	help=$(timeout 60 "$@" --help </dev/null 2>&1)
	rc=$?
	if ((rc != 0)); then
		bad "'$* --help' exited $rc: $(head -3 <<<"$help")"
		return 1
	fi
	if ! grep -q 'Usage:' <<<"$help"; then
		bad "'$* --help' printed no Usage: line"
		return 1
	fi
	ok
}

for s in scripts/*.sh; do
	[[ $s == scripts/lib.sh ]] && continue
	[[ -x $s ]] && ok || bad "$s is not executable on disk"
	if ((in_git)) && git ls-files --error-unmatch "$s" >/dev/null 2>&1; then
		mode=$(git ls-files -s "$s" | cut -d' ' -f1)
		[[ $mode == 100755 ]] && ok || bad "$s is $mode in git, not 100755 (git update-index --chmod=+x $s)"
	fi
	[[ -x $s ]] && run_help "$s"
done

# One default minimum class: the scripts' and the C entry points'.
c_default=$(sed -n 's/^#define MBD_CLASS_DEFAULT_MIN MBD_CLASS_\([A-Z]*\).*/\1/p' harness/model/mbd_verdict.h |
	tr 'A-Z' 'a-z')
sh_default=$(sed -n 's/^MBD_DEFAULT_CLASS=//p' scripts/lib.sh)
[[ -n $c_default && $c_default == "$sh_default" ]] && ok ||
	bad "default class: harness says '$c_default', scripts/lib.sh says '$sh_default'"

# Code-block lines of README.md and docs/*.md, comments cut off.
commands() {
	local f
	for f in README.md docs/*.md; do
		awk -v f="$f" '/^[[:space:]]*```/ { inb = !inb; next }
			inb { sub(/[[:space:]]+#.*$/, ""); print f "\t" $0 }' "$f"
	done
}

usage= built=
if [[ -n $mbdiff && -x $mbdiff ]]; then
	usage=$("$mbdiff" --help 2>&1)
	# variants of this build: a line naming another one (kernel:mine) is
	# checked but not run
	built=$("$mbdiff" list 2>/dev/null | awk 'NR > 1 { print $1 }')
fi

while IFS=$'\t' read -r file line; do
	read -r -a w <<<"$line"
	((${#w[@]})) || continue
	prefix=()
	if [[ ${w[0]} == bash && ${w[1]:-} == scripts/*.sh ]]; then
		prefix=(bash "${w[1]}")
		rest=("${w[@]:2}")
	elif [[ ${w[0]} == scripts/*.sh || ${w[0]} == ./scripts/*.sh ]]; then
		prefix=("${w[0]}")
		rest=("${w[@]:1}")
	elif [[ ${w[0]} =~ ^build/[a-z-]+/mbdiff$ ]]; then
		sub=${w[1]:-}
		if [[ -z $usage ]]; then
			continue
		fi
		grep -Eq "^ +mbdiff $sub( |$)" <<<"$usage" && ok ||
			bad "$file: '$line': mbdiff has no subcommand '$sub'"
		writes=0 missing=0 prev=
		for a in "${w[@]:2}"; do
			if [[ $prev == --variants ]]; then
				IFS=, read -r -a vs <<<"$a"
				for v in "${vs[@]}"; do
					grep -qx -- "$v" <<<"$built" || missing=1
				done
			fi
			prev=$a
			case $a in
			-o | --csv | --svg | -o=* | --csv=* | --svg=*) writes=1 ;;
			--*) o=${a%%=*}
				grep -q -- "$o" <<<"$usage" && ok ||
					bad "$file: '$line': option $o is not in mbdiff's usage" ;;
			-*) ;;
			*) [[ -e $a || $a == *,* || $a =~ ^[0-9]+$ || $a =~ ^[a-z]+$ ]] || missing=1 ;;
			esac
		done
		if ((!writes && !missing)) && [[ -x ${w[0]} && $line != *...* ]]; then
			timeout 300 "${w[@]}" >/dev/null 2>&1 </dev/null
			rc=$?
			((rc <= 1)) && ok || bad "$file: '$line' exited $rc"
		fi
		continue
	else
		continue
	fi
	s=${prefix[-1]}
	if [[ ! -f $s ]]; then
		bad "$file: '$line': no script $s"
		continue
	fi
	if [[ ${prefix[0]} != bash && ! -x $s ]]; then
		bad "$file: '$line': $s is run directly but is not executable"
		continue
	fi
	run_help "${prefix[@]}" || continue
	for a in "${rest[@]}"; do
		[[ $a == --* ]] || continue
		o=${a%%=*}
		grep -q -- "$o" <<<"$help" && ok ||
			bad "$file: '$line': option $o is not in '${prefix[*]} --help'"
	done
done < <(commands)

echo "$pass passed, $fail failed"
((fail == 0))
