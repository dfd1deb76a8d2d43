#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: realize_dt.sh MBDIFF WORKDIR
#
# scripts/realize.sh without booting or building: the fill trace it writes
# is the committed corpus/realize/deng-2022-641.mbt, the model stops
# deng-2022 at the allocation that finds that array full (and the reference
# goes on), and the dt step turns a trace into the lab's layout form: its
# memory as the memory node, its reservations before memblock_allow_resize
# as /memreserve/ entries, the ones in the load window left out.
set -euo pipefail
mbdiff=${1:?usage: realize_dt.sh MBDIFF WORKDIR}
work=${2:?usage: realize_dt.sh MBDIFF WORKDIR}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work"

bash "$root/scripts/realize.sh" --fill 641 -o "$work/fill.mbt" 2>/dev/null
cmp -s "$work/fill.mbt" "$root/corpus/realize/deng-2022-641.mbt" ||
	fail "corpus/realize/deng-2022-641.mbt is not what --fill 641 writes"
out=$("$mbdiff" replay --variants reference,deng-2022 "$root/corpus/realize/deng-2022-641.mbt" 2>&1 || true)
grep -q 'divergence reference~deng-2022 call/panic at op 644 memblock_phys_alloc_range' <<<"$out" ||
	fail "the model does not stop deng-2022 at op 644: $out"

{
	printf 'config memory.max=128 reserved.max=128\n'
	printf 'memblock_add: [0x0000000040000000-0x000000007fffffff]\n'
	printf 'memblock_add: [0x0000000100000000-0x000000010fffffff]\n'
	printf 'memblock_reserve: [0x0000000040200000-0x0000000040ffffff]\n'  # load window
	printf 'memblock_reserve: [0x0000000050000000-0x0000000050000fff]\n'
	printf 'memblock_reserve: [0x0000000050010000-0x0000000050011fff]\n'
	printf 'memblock_allow_resize\n'
	printf 'memblock_reserve: [0x0000000060000000-0x0000000060000fff]\n'  # after resize
} >"$work/t.mbt"
bash "$root/scripts/realize.sh" --trace "$work/t.mbt" --work "$work/w" dt 2>/dev/null
lay=$work/w/debian/layouts/arm64-7.3/realize-deng-2022
[[ -f $lay.layout && -f $lay.dtsi ]] || fail "no layout written"
[[ $(grep -c '^/memreserve/' "$lay.dtsi") == 2 ]] || fail "expected 2 /memreserve/ entries"
grep -qx '/memreserve/ 0x50010000 0x2000;' "$lay.dtsi" || fail "entry 2 wrong"
grep -q 'reg = <0x0 0x40000000 0x0 0x40000000 0x1 0x0 0x0 0x10000000>;' "$lay.dtsi" ||
	fail "memory node wrong: $(grep reg "$lay.dtsi")"
grep -qx 'mem 3328' "$lay.layout" || fail "RAM size wrong: $(grep '^mem' "$lay.layout")"
grep -qx 'summary memreserve=2 skipped=1' "$lay.layout" || fail "summary wrong"
if bash "$root/scripts/realize.sh" --variant no-such dt >/dev/null 2>&1; then
	fail "an unknown variant was accepted"
fi
if ((fails)); then
	echo "0 passed, $fails failed"
	exit 1
fi
echo "realize dt: all checks passed"
