#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: real_replay.sh MBDIFF FILE.mbt
#
# Replays one trace of corpus/real against reference~reference-twin (so the
# two copies of the model must agree and every `expect` checkpoint is
# checked against the reference) and compares the outcome with the file's
# "# real-result:" line: "ok" (exit 0, no divergence) or the exact
# signature line of the known mismatch (explained in docs/real-boots.md).
# A "# real-variants: A[,B]" line replays with those instead (corpus/boots:
# a boot of an older kernel against the model of its era); a trace that
# names its model ("# model:", written by mbdiff import for the log's
# kernel) is replayed without --variants, i.e. with that model.
set -u
mbdiff=${1:?usage: real_replay.sh MBDIFF FILE}
file=${2:?usage: real_replay.sh MBDIFF FILE}
fail() {
	echo "real $file: $*" >&2
	echo "0 passed, 1 failed"
	exit 1
}
want=$(sed -n 's/^# real-result: //p' "$file" | head -n 1)
[[ -n $want ]] || fail "no '# real-result:' line"
variants=$(sed -n 's/^# real-variants: //p' "$file" | head -n 1)
if [[ -z $variants ]] && grep -q '^# model: ' "$file"; then
	out=$("$mbdiff" replay "$file" 2>&1)
else
	out=$("$mbdiff" replay --variants "${variants:-reference,reference-twin}" "$file" 2>&1)
fi
rc=$?
printf '%s\n' "$out"
got=$(printf '%s\n' "$out" | grep -E '^mbdiff: (expectation|divergence|oracle) ' | tail -n 1)
if [[ $want == ok ]]; then
	[[ $rc -eq 0 && -z $got ]] || fail "expected a clean replay, got exit $rc: $got"
else
	[[ $rc -eq 1 ]] || fail "expected exit 1 ($want), got $rc"
	[[ $got == "$want" ]] || fail "expected '$want', got '$got'"
fi
echo "1 passed, 0 failed"
