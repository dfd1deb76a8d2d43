#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_lift.sh SOURCE_DIR MBDIFF
#
# `mbdiff lift` on recorded reproducers from 1-slot arrays:
#  - mainline's two memblock_double_array() faults and a zhou-2025 and a
#    deng-2022 regression are reached with 128-slot arrays: exit 0, the
#    lifted trace starts from 128-slot arrays, is judged the same bug, and
#    a second lift writes the same bytes (no randomness);
#  - a reproducer whose call doubles an array twice says so (exit 1);
#  - one whose addresses reach the top of the address space says there is
#    no room for the fillers (exit 1);
#  - --slots 128,385 (arm64's reserved array) works; bad --slots, a trace
#    without a bug and a missing --variants are exit 2.
set -uo pipefail
src=${1:?usage: test_lift.sh SOURCE_DIR MBDIFF}
. "$src/tests/lib/check_lib.sh"
check_init lift "${2:?}"
reg=$src/corpus/regressions
key() { "$mbdiff" judge --json --variants "$1" "$2" | jq -r .key; }

reached() { # PAIR TRACE
	local out=$work/$(basename "$2") line rc
	line=$("$mbdiff" lift --variants "$1" -o "$out" "$2")
	rc=$?
	[[ $rc == 0 && $line == *": reachable with 128-slot arrays: yes ("*" calls, $out)"* ]] && ok ||
		bad "$2: exit $rc, '$line'"
	grep -q '^config memory.max=128 reserved.max=128 ' "$out" && ok || bad "$out: not 128-slot arrays"
	[[ $(key "$1" "$out") == "$(key "$1" "$2")" && -n $(key "$1" "$2") ]] && ok ||
		bad "$out: judged '$(key "$1" "$out")', the reproducer '$(key "$1" "$2")'"
	"$mbdiff" lift --variants "$1" -o "$out.again" "$2" >/dev/null
	cmp -s "$out" "$out.again" && ok || bad "$2: a second lift differs"
}
reached reference,reference-twin "$reg/reference/double-array-frees-before-reserving-2ops.mbt"
reached reference,reference-twin "$reg/reference/double-array-exclusion-lost-at-address-0.mbt"
reached reference,zhou-2025 "$reg/zhou-2025/grows-array-inside-range-being-added.mbt"
reached reference,deng-2022 "$reg/deng-2022/bug-in-merge-two-calls.mbt"

line=$("$mbdiff" lift --variants reference,reference-twin "$reg/reference/double-array-overlap-via-memblock-add.mbt")
rc=$?
[[ $rc == 1 && $line == *"not by lifting: needs reserved doubled 2 times in one call"* ]] && ok ||
	bad "double doubling: exit $rc, '$line'"
line=$("$mbdiff" lift --variants reference,reference-twin "$reg/reference/trim-round-up-wraps-at-top.mbt")
rc=$?
[[ $rc == 1 && $line == *"no room for filler regions"* ]] && ok || bad "top of the space: exit $rc, '$line'"

f=$reg/reference/double-array-frees-before-reserving-2ops.mbt
"$mbdiff" lift --slots 128,385 --variants reference,reference-twin -o "$work/arm64.mbt" "$f" >/dev/null
grep -q '^config memory.max=128 reserved.max=385 ' "$work/arm64.mbt" && ok || bad "--slots 128,385"
for a in 0 999999 128,x 12,; do
	"$mbdiff" lift --slots "$a" --variants reference,reference-twin "$f" >/dev/null 2>&1
	[[ $? == 2 ]] && ok || bad "--slots $a is not exit 2"
done
printf 'memblock_add: [0x0-0xfff]\n' >"$work/clean.mbt"
err=$("$mbdiff" lift --variants reference,zhou-2025 "$work/clean.mbt" 2>&1 >/dev/null)
[[ $? == 2 && $err == *"no bug to lift"* ]] && ok || bad "a trace without a bug: '$err'"
"$mbdiff" lift "$f" >/dev/null 2>&1
[[ $? == 2 ]] && ok || bad "no --variants is not exit 2"
check_done
