#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/upstream-proof.sh [--version V] [--numa 0|1|both] [--work DIR]
#                                  [--deb-cache DIR] [--apt-dir DIR] SERIES...
#
# Prove a patch series for upstream (docs/upstream/NAME/, git format-patch
# files 0001-*.patch ...) in the kernel's REAL tools/testing/memblock, taken
# from Debian's linux-source-V (default 7.3) by scripts/kernel-suite.sh:
#
#   before  the suite with only the series' test patches (those touching
#           nothing but tools/testing/): its own ./main must FAIL (the new
#           test catches the bug in mainline as it is);
#   after   the suite with the whole series: ./main must PASS (the fix
#           holds and every existing test still passes).
#
# Both with NUMA=1 and without (--numa). Then each patch through the
# tree's own scripts/checkpatch.pl --strict --no-tree: no error and no
# warning, but for one on a line the patch moves or repeats (the same line
# removed, or kept as context, elsewhere in it: a BUG_ON() mainline has
# is not the patch's own). The
# Fixes: hashes cannot be looked up without a git clone (UNKNOWN_COMMIT_ID
# is left out). Prints one line per series and NUMA setting, and per patch:
#   NAME numa=N before=fail|pass after=fail|pass: ok|WRONG
#   NAME checkpatch PATCH: E errors, W warnings, C checks[, M on lines it moves or repeats (TYPES)]: ok|WRONG
# and, for a run that did not go as it should, the suite's last lines or
# checkpatch's. Exit 0 when every line is ok, 1 otherwise, 2 on bad input (a series
# with no test patch, or a patch that does not apply), 77 when the suite
# cannot be had. Work folders: --work (default build/upstream-proof).
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

version=7.3 numa=both work=$MBD_BUILD/upstream-proof
suite_opts=()
series=()
while (($#)); do
	case $1 in
	--version | --version=*) mbd_optval "$@"; version=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--numa | --numa=*) mbd_optval "$@"; numa=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--work | --work=*) mbd_optval "$@"; work=$(mbd_abs "$MBD_OPTVAL"); shift "$((MBD_SHIFT - 1))" ;;
	--deb-cache | --deb-cache=* | --apt-dir | --apt-dir=*)
		mbd_optval "$@"; suite_opts+=("${1%%=*}" "$MBD_OPTVAL"); shift "$((MBD_SHIFT - 1))" ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	-*) mbd_usage_error "unknown option '$1'" ;;
	*) series+=("$(mbd_abs "$1")") ;;
	esac
	shift
done
case $numa in 0) numas=(0) ;; 1) numas=(1) ;; both) numas=(1 0) ;; *) mbd_usage_error "--numa 0, 1 or both" ;; esac
((${#series[@]})) || mbd_usage_error "no SERIES folder given (e.g. docs/upstream/*/)"

# a patch is a test patch when every file it touches is under tools/testing/
is_test_patch() {
	local files
	files=$(sed -n 's#^+++ b/\([^[:space:]]*\).*#\1#p' "$1")
	[[ $files ]] && ! grep -qv '^tools/testing/' <<<"$files"
}

for s in "${series[@]}"; do
	[[ -d $s ]] || { printf '%s: error: %s: not a folder\n' "$MBD_PROG" "$s" >&2; exit 2; }
	compgen -G "$s/[0-9][0-9][0-9][0-9]-*.patch" >/dev/null ||
		{ printf '%s: error: %s: no NNNN-*.patch files\n' "$MBD_PROG" "$s" >&2; exit 2; }
done

rc=0
info=$(bash "$MBD_ROOT/scripts/kernel-suite.sh" --version "$version" --print-src \
	--work "$work/suite" "${suite_opts[@]+"${suite_opts[@]}"}") || exit $?
src=$(sed -n 's/^src=//p' <<<"$info")
cflags=$(sed -n 's/^cflags=//p' <<<"$info")

# run SIDE-DIR NUMA PATCH...: 0 when the suite's ./main passes, 1 when it fails
run_suite() {
	local d=$1 n=$2 p
	shift 2
	rm -rf "$d"
	cp -r "$src" "$d"
	for p in "$@"; do
		patch -p1 -s --batch --forward --no-backup-if-mismatch -d "$d" -i "$p" >"$d.patch.log" 2>&1 || {
			printf '%s: error: %s does not apply to linux-%s: %s\n' "$MBD_PROG" "$p" "$version" \
				"$(head -n 2 "$d.patch.log")" >&2
			exit 2
		}
	done
	CFLAGS="$cflags" nice -n 10 make -s -C "$d/tools/testing/memblock" -j2 NUMA="$n" main \
		>"$d.build.log" 2>&1 || {
		printf '%s: error: the suite does not build (%s): %s\n' "$MBD_PROG" "$d" "$d.build.log" >&2
		exit 1
	}
	# a child bash (no exec) reports a failing ASSERT's "Aborted" into the
	# run log, with the suite's own words, not on our output
	bash -c 'cd "$1" && ./main -v; exit $?' _ "$d/tools/testing/memblock" >"$d.run.log" 2>&1
}

# checkpatch NAME PATCH: its line; 1 when not ok. Run outside any git
# work tree (a relative path inside one is read otherwise)
checkpatch() {
	local out moved=0 types="" line f n e="" w c t crc=0
	out=$(cd "$work" && perl "$src/scripts/checkpatch.pl" --no-tree --strict --terse \
		--show-types --ignore UNKNOWN_COMMIT_ID "$2" 2>&1) || crc=$?
	# --terse prints nothing at all for a clean patch
	if [[ ! $out ]] && ((crc == 0)); then
		e=0 w=0 c=0
	else
		read -r e w c < <(sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings, \([0-9]*\) checks.*/\1 \2 \3/p' <<<"$out") || true
	fi
	[[ $e ]] || { printf '%s checkpatch %s: did not run: %s: WRONG\n' "$1" "$(basename "$2")" "$(tail -n 1 <<<"$out")"; return 1; }
	# a warning or check on an added line that the patch also removes or
	# keeps as context: a statement mainline has, moved or repeated
	while IFS= read -r f; do
		n=$(sed -n 's/^[^:]*:\([0-9]*\): \(WARNING\|CHECK\):.*/\1/p' <<<"$f")
		[[ $n ]] || continue
		line=$(sed -n "${n}p" "$2")
		[[ $line == +* ]] && grep -qxF -e "-${line#+}" -e " ${line#+}" "$2" || continue
		t=$(sed -n 's/^[^:]*:[0-9]*: [A-Z]*:\([A-Z_]*\):.*/\1/p' <<<"$f")
		moved=$((moved + 1))
		[[ " $types " == *" $t "* ]] || types+="${types:+ }$t"
	done <<<"$out"
	local verdict=ok
	((e == 0 && w + c == moved)) || verdict=WRONG
	printf '%s checkpatch %s: %s errors, %s warnings, %s checks%s: %s\n' "$1" "$(basename "$2")" \
		"$e" "$w" "$c" "$( ((moved)) && printf ', %s on lines it moves or repeats (%s)' "$moved" "$types")" "$verdict"
	[[ $verdict == ok ]] || { grep -E '^[^:]*:[0-9]*: ' <<<"$out" | sed 's/^/  /'; return 1; }
}
for s in "${series[@]}"; do
	name=$(basename "$s")
	all=() tests=()
	for p in "$s"/[0-9][0-9][0-9][0-9]-*.patch; do
		all+=("$p")
		is_test_patch "$p" && tests+=("$p")
	done
	((${#tests[@]})) || { printf '%s: error: %s: no patch touches only tools/testing/\n' "$MBD_PROG" "$s" >&2; exit 2; }
	((${#tests[@]} < ${#all[@]})) || { printf '%s: error: %s: no fix (every patch is a test)\n' "$MBD_PROG" "$s" >&2; exit 2; }
	for n in "${numas[@]}"; do
		d=$work/$name-numa$n
		before=pass after=pass
		run_suite "$d-before" "$n" "${tests[@]}" || before=fail
		run_suite "$d-after" "$n" "${all[@]}" || after=fail
		if [[ $before == fail && $after == pass ]]; then
			printf '%s numa=%s before=%s after=%s: ok\n' "$name" "$n" "$before" "$after"
		else
			rc=1
			printf '%s numa=%s before=%s after=%s: WRONG\n' "$name" "$n" "$before" "$after"
			[[ $before == pass ]] && printf '  before: the new test passes on linux-%s as it is\n' "$version"
			[[ $after == fail ]] && tail -n 3 "$d-after.run.log" | sed 's/^/  after: /'
		fi
	done
	for p in "${all[@]}"; do
		checkpatch "$name" "$p" || rc=1
	done
done
exit "$rc"
