#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_upstream_proof.sh SOURCE_DIR WORKDIR
#
# The fixes in docs/upstream/ against the kernel's REAL tools/testing/memblock
# of linux-source-7.3 (scripts/upstream-proof.sh): each series' new test
# fails on 7.3 as it is and passes with the whole series, NUMA=1 and not,
# and each patch passes the tree's checkpatch.pl --strict (but for lines it
# moves). One "ok" line per series and NUMA setting and one per patch must
# come out, and nothing else; exit 77 (skipped) when the suite cannot be
# had.
set -uo pipefail
src=${1:?usage: test_upstream_proof.sh SOURCE_DIR WORKDIR}
work=${2:?usage: test_upstream_proof.sh SOURCE_DIR WORKDIR}

series=("$src"/docs/upstream/*/)
((${#series[@]})) && [[ -d ${series[0]} ]] || { echo "FAIL: no series in docs/upstream/"; exit 1; }
rc=0
out=$(bash "$src/scripts/upstream-proof.sh" --work "$work" "${series[@]}" 2>&1) || rc=$?
printf '%s\n' "$out"
((rc == 77)) && exit 77
want=$((${#series[@]} * 2))
oks=$(grep -c '^[^ ]* numa=[01] before=fail after=pass: ok$' <<<"$out")
patches=("$src"/docs/upstream/*/[0-9][0-9][0-9][0-9]-*.patch)
cps=$(grep -c '^[^ ]* checkpatch [^ ]*: 0 errors, .*: ok$' <<<"$out")
if ((rc == 0 && oks == want && cps == ${#patches[@]})); then
	echo "upstream-proof: $oks of $want suite runs ok, checkpatch ok on $cps of ${#patches[@]} patches"
	exit 0
fi
echo "FAIL: upstream-proof.sh exit $rc, $oks of $want suite lines ok, checkpatch ok on $cps of ${#patches[@]} patches"
exit 1
