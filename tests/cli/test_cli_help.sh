#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_cli_help.sh MBDIFF VERSION WORK
#
# The one entry point: `mbdiff --version` is the project's VERSION and a
# git revision; `mbdiff help CMD` and `mbdiff CMD --help` print CMD's help
# alone (built-in and script commands); a bad option is one line
# "mbdiff CMD: ..." and "try 'mbdiff CMD --help'", exit 2; `mbdiff CMD`
# for a script command runs DATA/scripts/CMD.sh with its arguments as
# given and MBDIFF/MBDIFF_DATA set; `mbdiff explore` without --alphabet
# takes the data dir's default alphabet, from any directory.
# Ends with "N passed, N failed".
set -euo pipefail

mbdiff=$(realpath "${1:?usage: test_cli_help.sh MBDIFF VERSION WORK}")
version=${2:?usage: test_cli_help.sh MBDIFF VERSION WORK}
work=${3:?usage: test_cli_help.sh MBDIFF VERSION WORK}
rm -rf "$work"
mkdir -p "$work"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# run EXPECTED_RC ARGS...: stdout in $out, stderr in $err
run() {
	local want=$1 rc=0
	shift
	"$mbdiff" "$@" >"$work/out" 2>"$work/err" || rc=$?
	out=$(cat "$work/out") err=$(cat "$work/err")
	if ((rc == want)); then ok; else bad "mbdiff $* exited $rc, not $want: $err"; fi
}

# ---- --version
run 0 --version
[[ $out =~ ^mbdiff\ ${version//./\\.}\ \(git\ [^\ ]+\)$ ]] && ok ||
	bad "--version printed '$out', not 'mbdiff $version (git REV)'"

# ---- per-command help, built-in commands
builtins=(list replay convert minimize emit-test import bench explore judge)
for c in "${builtins[@]}"; do
	run 0 help "$c"
	help=$out
	grep -Eq "^  mbdiff $c( |$)" <<<"$help" && ok || bad "help $c: no '  mbdiff $c' synopsis"
	others=$(grep -E '^  mbdiff [a-z-]+' <<<"$help" | grep -Ev "^  mbdiff $c( |$)" || true)
	[[ -z $others ]] && ok || bad "help $c also shows: $others"
	run 0 "$c" --help
	[[ $out == "$help" ]] && ok || bad "'$c --help' differs from 'help $c'"
done
# the whole text still lists every command and the script table
run 0 help
for c in "${builtins[@]}" check fuzz; do
	grep -Eq "^  (mbdiff )?$c( |$)" <<<"$out" && ok || bad "'mbdiff help' does not list $c"
done

# ---- script commands: their own help, under their mbdiff name
run 0 help check
grep -q '^Usage: mbdiff check ' <<<"$out" && ok || bad "help check: no 'Usage: mbdiff check' line"
grep -q '^  mbdiff replay' <<<"$out" && bad "help check shows replay's help" || ok
run 0 check --help
grep -q -- '--no-coverage' <<<"$out" && ok || bad "check --help: not check.sh's help"

# ---- one-line usage errors, exit 2
# one_line CMD_WORD ARGS...: exactly two lines of stderr, the message and the hint
one_line() {
	local c=$1
	shift
	run 2 "$@"
	[[ $(wc -l <<<"$err") -eq 2 ]] && ok || bad "mbdiff $*: $(wc -l <<<"$err") lines: $err"
	[[ $(sed -n 1p <<<"$err") == "mbdiff $c: "* ]] && ok || bad "mbdiff $*: first line '$(sed -n 1p <<<"$err")'"
	[[ $(sed -n 2p <<<"$err") == "try 'mbdiff $c --help'" ]] && ok || bad "mbdiff $*: hint '$(sed -n 2p <<<"$err")'"
	[[ -z $out ]] && ok || bad "mbdiff $*: wrote to stdout: $out"
}
one_line explore explore --depth x
one_line replay replay --min-class nonsense x.mbt
one_line replay replay --variants
one_line list list extra
one_line convert convert --bogus
one_line check check --no-such-option
one_line check check --time
grep -q "^mbdiff explore: --depth needs a number" <<<"$(
	"$mbdiff" explore --depth x 2>&1 || true)" && ok || bad "explore: the name is repeated or lost"
run 2 nonsense-command
[[ $err == *'unknown command "nonsense-command"'* ]] && ok || bad "unknown command: $err"
run 2 help nonsense-command
run 2

# ---- dispatch of a script command, from a data dir of stubs
data=$work/data
mkdir -p "$data/scripts"
cat >"$data/scripts/fuzz.sh" <<'EOF'
#!/usr/bin/env bash
printf 'MBDIFF=%s\nMBDIFF_DATA=%s\n' "$MBDIFF" "$MBDIFF_DATA"
printf 'arg=%s\n' "$@"
exit 7
EOF
chmod +x "$data/scripts/fuzz.sh"
rc=0
got=$(cd "$work" && MBDIFF_DATA=$data "$mbdiff" fuzz "two words" --time 5 '*' 2>&1) || rc=$?
((rc == 7)) && ok || bad "dispatch: exit $rc, not the script's 7"
want=$(printf 'MBDIFF=%s\nMBDIFF_DATA=%s\narg=two words\narg=--time\narg=5\narg=*' "$mbdiff" "$data")
[[ $got == "$want" ]] && ok || bad "dispatch: got '$got', wanted '$want'"
# not executable: one line naming the file, exit 2
cp "$data/scripts/fuzz.sh" "$data/scripts/cmin.sh"
chmod -x "$data/scripts/cmin.sh"
rc=0
got=$(MBDIFF_DATA=$data "$mbdiff" cmin 2>&1) || rc=$?
((rc == 2)) && [[ $got == *"$data/scripts/cmin.sh: cannot run it"* ]] && ok ||
	bad "non-executable script: exit $rc, '$got'"

# ---- explore's default alphabet comes from the data dir
mkdir -p "$work/elsewhere"
rc=0
(cd "$work/elsewhere" && "$mbdiff" explore --depth 1 --quiet -o x) >"$work/explore.log" 2>&1 || rc=$?
((rc == 0 || rc == 1)) && ok || bad "explore without --alphabet exited $rc: $(tail -n 2 "$work/explore.log")"
grep -q 'over alphabet default ' "$work/explore.log" && ok || bad "explore: not the default alphabet"
rc=0
(cd "$work/elsewhere" && MBDIFF_DATA=$data "$mbdiff" explore --depth 1 --quiet) >"$work/explore2.log" 2>&1 || rc=$?
((rc == 2)) && grep -q "$data/corpus/alphabets/default.alpha" "$work/explore2.log" && ok ||
	bad "explore with a data dir lacking the alphabet: exit $rc: $(cat "$work/explore2.log")"

echo "$pass passed, $fail failed"
((fail == 0))
