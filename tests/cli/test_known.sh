#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_known.sh MBDIFF SRC WORK
#
# Known-differences files (harness/model/mbd_known.h) through
# `mbdiff replay --known`: a listed signature is one "known:" line and
# exit 0, an unlisted one a full report and exit 1, glob patterns match
# across blanks, and a malformed file is refused with file:line and exit 2.
# The shipped files under tests/algorithms/kernel-trees/known/ all parse.
set -u

mbdiff=${1:?usage: test_known.sh MBDIFF SRC WORK}
src=${2:?usage: test_known.sh MBDIFF SRC WORK}
work=${3:?usage: test_known.sh MBDIFF SRC WORK}
rm -rf "$work"
mkdir -p "$work"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

trace=$src/corpus/regressions/zhou-2025/enomem-leaves-half-added-memory.mbt
sig=$(sed -n 's/^#[[:space:]]*signature:[[:space:]]*//p' "$trace")
args=(replay --variants reference,zhou-2025)

# listed exactly: known, exit 0
printf '# test\nbaseline: reference\n%s | abc123 (v0.1) | because\n' "$sig" >"$work/exact.known"
out=$("$mbdiff" "${args[@]}" --known "$work/exact.known" "$trace" 2>&1)
rc=$?
((rc == 0)) && ok || bad "listed signature: exit $rc, expected 0: $out"
grep -qF "known: $trace: $sig | abc123 (v0.1)" <<<"$out" && ok || bad "no 'known:' line: $out"
grep -q "^replayed 1 inputs: 0 divergent, 1 known differences" <<<"$out" && ok || bad "summary: $out"

# a glob over the pair and the op number (and blanks)
printf 'mbdiff: divergence reference~zhou-* memory/coverage at op * | c | w\n' >"$work/glob.known"
"$mbdiff" "${args[@]}" --known "$work/glob.known" "$trace" >/dev/null 2>&1 && ok ||
	bad "a glob pattern did not match '$sig'"

# not listed: the usual report, exit 1
printf 'mbdiff: divergence reference~zhou-2025 reserved/* | c | w\n' >"$work/other.known"
out=$("$mbdiff" "${args[@]}" --known "$work/other.known" "$trace" 2>&1)
rc=$?
((rc == 1)) && ok || bad "unlisted signature: exit $rc, expected 1"
grep -qF "$sig" <<<"$out" && ok || bad "unlisted signature: no report: $out"

# malformed files: file:line, exit 2
check_bad() { # NAME CONTENT EXPECTED-MESSAGE
	printf '%b' "$2" >"$work/$1.known"
	out=$("$mbdiff" "${args[@]}" --known "$work/$1.known" "$trace" 2>&1)
	rc=$?
	((rc == 2)) && ok || bad "$1: exit $rc, expected 2"
	grep -qF "$work/$1.known:$3" <<<"$out" && ok || bad "$1: expected '$work/$1.known:$3' in: $out"
}
check_bad no-sep '# c\n\nmbdiff: divergence a~b x at op 1 y\n' '3: error: expected'
check_bad one-sep 'mbdiff: divergence a~b x at op 1 y | c\n' '1: error: expected'
check_bad no-prefix 'divergence a~b | c | w\n' "1: error: the pattern must start with 'mbdiff: '"
check_bad no-commit 'mbdiff: x |   | w\n' '1: error: empty upstream commit'
out=$("$mbdiff" "${args[@]}" --known "$work/missing.known" "$trace" 2>&1)
(($? == 2)) && grep -q "missing.known: error: cannot read" <<<"$out" && ok || bad "missing file: $out"
out=$("$mbdiff" "${args[@]}" --known 2>&1)
(($? == 2)) && ok || bad "--known without a file: $out"

# every shipped file parses (an empty input set would not read it)
for f in "$src"/tests/algorithms/kernel-trees/known/*.known; do
	out=$("$mbdiff" replay --variants reference --known "$f" "$trace" 2>&1)
	rc=$?
	((rc == 0 || rc == 1)) && ok || bad "$(basename "$f") does not parse: $out"
done

echo "$pass passed, $fail failed"
((fail == 0))
