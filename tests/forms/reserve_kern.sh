#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: reserve_kern.sh MBDIFF WORKDIR
#
# The memblock_reserve_kern op end to end: its .mbt text survives both
# fuzzer byte forms unchanged; the v7.3 model keeps RSRV_KERN (and node)
# pieces apart as the expect lines say; a model of an older kernel
# (mainline-6.12) stops at the op with the kcompat message, which is a
# call/panic difference against v7.3 and none against another pre-v6.16
# variant (kernel:* of 6.12 when the build has one).
set -euo pipefail
mbdiff=${1:?usage: reserve_kern.sh MBDIFF WORKDIR}
work=${2:?usage: reserve_kern.sh MBDIFF WORKDIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
in=$here/data/reserve_kern.mbt
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work"

for dec in structured naive; do
	"$mbdiff" convert "$in" -o "$work/rk.$dec" --to bin --decoder "$dec" >/dev/null
	"$mbdiff" convert "$work/rk.$dec" -o "$work/rk.$dec.mbt" --decoder "$dec" >/dev/null
	diff <(grep -v '^#\|^expect' "$in" | sed 's/ memblock_alloc_range_nid+[^ ]*$//') \
		"$work/rk.$dec.mbt" >/dev/null || fail "$dec round trip changed the trace"
done
grep -qx 'memblock_reserve_kern: \[0x0000000040002000-0x0000000040002fff\] nid=0' \
	"$work/rk.structured.mbt" || fail "nid=0 not printed"

out=$("$mbdiff" replay --variants reference,reference-twin "$in" 2>&1) ||
	fail "v7.3 model does not meet the expect lines: $out"

grep -v '^memblock_reserve:\|^expect' "$in" >"$work/kern-only.mbt"
set +e
out=$("$mbdiff" replay --variants reference,mainline-6.12 "$work/kern-only.mbt" 2>&1)
rc=$?
set -e
[[ $rc -eq 1 ]] || fail "reference~mainline-6.12: exit $rc, expected 1"
grep -q 'divergence reference~mainline-6.12 call/panic at op 2 memblock_reserve_kern' <<<"$out" ||
	fail "no call/panic at the op: $out"
grep -q 'memblock_reserve_kern: no such call before v6.16 (kcompat)' <<<"$out" ||
	fail "no kcompat message: $out"

if "$mbdiff" list | grep -q '^kernel:v6-12 '; then
	out=$("$mbdiff" replay --variants mainline-6.12,kernel:v6-12 "$work/kern-only.mbt" 2>&1) ||
		fail "two pre-v6.16 variants differ on memblock_reserve_kern: $out"
fi
if ((fails)); then
	echo "0 passed, $fails failed"
	exit 1
fi
echo "reserve_kern: all checks passed"
