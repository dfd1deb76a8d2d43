#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_judge.sh SOURCE_DIR MBDIFF
#
# `mbdiff judge` on the recorded regressions: who breaks the contract.
#  - each single-pass patch's BUG_ON traces: regression, the key naming the
#    patch and the BUG_ON; the same trace with the sides swapped: fix,
#    the key naming mainline;
#  - reference~reference-twin: none on every recorded trace but mainline's
#    own faults, which both share;
#  - --source: the BUG_ON's line quoted from the file;
#  - mainline's own double_array fault, which a mutant keeps: shared
#    ("both break"), which a different fault of the mutant makes "both";
#  - the root cause: where the two sides part inside a call at a growth
#    (mainline grows first where a single-pass patch inserts first, a patch
#    that fails to grow where mainline needs not), "the arrays grow
#    differently" and how; not a patch that differs otherwise, not mutants
#    that merge or count otherwise after the same doublings, nor one whose
#    merge spares a doubling, while the one that grows less has it; no
#    trace reference~reference-twin;
#  - the text form: one line per trace, kind first; --min-class refused
#    when unknown (exit 2).
set -uo pipefail
src=${1:?usage: test_judge.sh SOURCE_DIR MBDIFF}
. "$src/tests/lib/check_lib.sh"
check_init judge "${2:?}"
reg=$src/corpus/regressions
j() { "$mbdiff" judge --json --variants "$1" "${@:2}"; }

for f in "$reg"/deng-2022/bug-in-merge-two-calls.mbt "$reg"/zhou-2025/bug-in-merge-after-growing-inside-range.mbt; do
	v=$(basename "$(dirname "$f")")
	got=$(j "reference,$v" "$f" | jq -r '[.kind, .key] | join("|")')
	[[ $got == "regression|the patch breaks panic: "*BUG_ON* ]] && ok || bad "$v: $f judged '$got'"
	got=$(j "$v,reference" "$f" | jq -r '[.kind, .key] | join("|")')
	[[ $got == "fix|mainline breaks panic: "*BUG_ON* ]] && ok || bad "$v swapped: $f judged '$got'"
done
mapfile -t all < <(find "$reg" -name '*.mbt' | sort)
# mainline's own faults (reference/) are shared by the twin, nothing else
# differs
bad_kinds=$(j reference,reference-twin "${all[@]}" | jq -r 'select(if (.file | test("/reference/")) then
	.kind != "shared" else .kind != "none" end) | "\(.file): \(.kind)"')
[[ -z $bad_kinds ]] && ok || bad "reference~reference-twin: $bad_kinds"
f=$reg/reference/double-array-frees-before-reserving-2ops.mbt
# the site of the BUG_ON, quoted from the file given
got=$(j reference,double-no-free --source "reference=$src/algorithms/reference/memblock.c" \
	--source "double-no-free=$src/algorithms/reference/memblock.c" "$f" | jq -r .site)
[[ $got =~ ^(mm/)?memblock.c:[0-9]+:\ .*BUG_ON\(memblock_reserve ]] && ok || bad "--source: site '$got'"
got=$(j reference,double-no-exclude "$f" | jq -r '[.kind, .key] | join("|")')
[[ $got == "shared|both break contract: reserved: arrays-overlap" ]] && ok ||
	bad "a mutant that keeps mainline's fault: '$got'"
got=$(j reference,double-no-free "$f" | jq -r .kind)
[[ $got == both ]] && ok || bad "a mutant that faults otherwise where mainline faults: '$got'"
# the root cause where the arrays grow differently
got=$(j reference,deng-2023-v2 "$reg"/deng-2023-v2/bug-two-pieces-one-free-slot.mbt | jq -r '[.cause, .cause_why] | join("|")')
[[ $got == "cause: the arrays grow differently|at op 2 memblock_add: mainline grows an array where the patch "*"1 time(s) in mainline, 0 with the patch)" ]] &&
	ok || bad "deng-2023-v2 two pieces, one free slot: cause '$got'"
got=$(j reference,zhou-2025 "$reg"/zhou-2025/grows-array-inside-range-being-added.mbt | jq -r .cause_why)
[[ $got == *"mainline grows an array where the patch inserts first (memory max 2 in mainline, 4 with the patch)" ]] &&
	ok || bad "zhou-2025 grows inside the range: why '$got'"
got=$(j reference,deng-2023-v2 "$reg"/deng-2023-v2/grows-when-nothing-to-add.mbt | jq -r .cause_why)
[[ $got == *"the patch fails to grow an array where mainline has no need (memblock: cannot resize memory array)" ]] &&
	ok || bad "deng-2023-v2 grows when nothing to add: why '$got'"
# deng-2023-v1 defers the new array's reservation: both grow, then
# mainline reserves where the patch inserts first
got=$(j reference,deng-2023-v1 "$reg"/deng-2023-v1/reserves-a-freed-array.mbt | jq -r '[.kind, .cause_why] | join("|")')
[[ $got == "regression|at op 3 memblock_add: both grow an array; mainline is still at its growth "* ]] &&
	ok || bad "deng-2023-v1 reserves a freed array: '$got', expected a regression of a growth cause"
# deng-2023-v1's isolate doubles once where mainline's doubles until two
# slots are free: the patch's full array (its BUG_ON) and a split it makes
# while mainline still grows both follow from the growth
cat >"$work/once.mbt" <<'EOF2'
config memory.max=128 reserved.max=1 resize=1 slab=0 bottom_up=0 mirror=0 movable=0 limit=0xffffffffffffffff
memblock_reserve: [0x0000000000000000-0x0000000000001fff]
memblock_add: [0x0000000000000000-0x0000000000003fff]
memblock_reserved_mark_noinit: [0x0000000000000000-0x0000000000000fff]
EOF2
got=$(j reference,deng-2023-v1 "$work/once.mbt" | jq -r '[.key, .cause_why] | join("|")')
[[ $got == *"BUG_ON(type->cnt >= type->max)|at op 3 memblock_reserved_mark_noinit: mainline grows an array again where the patch stops growing it (the arrays grew (or failed to) 2 time(s) in mainline, 1 with the patch)" ]] &&
	ok || bad "deng-2023-v1 isolate doubles once, full array: '$got'"
cat >"$work/once-mirror.mbt" <<'EOF2'
config memory.max=1 reserved.max=128 resize=1 slab=0 bottom_up=0 mirror=1 movable=0 limit=0xffffffffffffffff
memblock_add_node: [0x0000000000000000-0x0000000000003fff] nid=0 flags=0x0
memblock_mark_mirror: [0x0000000000000000-0x0000000000000fff]
EOF2
got=$(j reference,deng-2023-v1 "$work/once-mirror.mbt" | jq -r '[.kind, .cause_why] | join("|")')
[[ $got == "behaviour|at op 2 memblock_mark_mirror: both grow an array; mainline is still at its growth "*"2 time(s) in mainline, 1 with the patch)" ]] &&
	ok || bad "deng-2023-v1 isolate doubles once, a split first: '$got'"
# the diverging call doubles memory twice on both sides; only the mutant
# that grows it less has the growth as its cause, not those that merge or
# count otherwise after the same growths
cat >"$work/grows.mbt" <<'EOF2'
config memory.max=1 reserved.max=128 resize=1 slab=0 bottom_up=0 mirror=0 movable=0 limit=0xffffffffffffffff
memblock_add: [0x0000000000000000-0x0000000000007fff]
memblock_mark_nomap: [0x0000000000001000-0x0000000000001fff]
memblock_clear_nomap: [0x0000000000001000-0x0000000000001fff]
EOF2
for m in merge-ignores-flags insert-no-total merge-window-off-by-one isolate-one-slot; do
	got=$(j "reference,$m" "$work/grows.mbt" | jq -r '[.kind, .cause // "none"] | join("|")')
	case $m in
	isolate-one-slot) want="regression|cause: the arrays grow differently" ;;
	merge-window-off-by-one) want="behaviour|none" ;;
	*) want="regression|none" ;;
	esac
	[[ $got == "$want" ]] && ok || bad "$m on two doublings: '$got', expected '$want'"
done
# the mutant merges the new reserved array's reservation into a noinit
# neighbour, so it needs no second doubling where mainline does: the
# merge (a memmove() that closes a slot) is the cause, not the growth
cat >"$work/merge-spares.mbt" <<'EOF2'
config memory.max=128 reserved.max=1 resize=1 slab=0 bottom_up=0 mirror=0 movable=0 limit=0xffffffffffffffff
memblock_add: [0x0000000000000000-0x0000000000002fff]
memblock_reserve: [0x0000000000002000-0x0000000000002fff]
memblock_reserved_mark_noinit: [0x0000000000002000-0x0000000000002fff]
memblock_reserve: [0x0000000000000000-0x0000000000000fff]
EOF2
got=$(j reference,merge-ignores-flags "$work/merge-spares.mbt" | jq -r '[.kind, .cause // "none"] | join("|")')
[[ $got == "regression|none" ]] && ok ||
	bad "merge-ignores-flags spares a doubling by a merge: '$got', expected no growth cause"
with_cause=$(j reference,reference-twin "${all[@]}" | jq -r 'select(.cause != null) | .file')
[[ -z $with_cause ]] && ok || bad "reference~reference-twin: a cause on $with_cause"
line=$("$mbdiff" judge --variants reference,zhou-2025 "$reg"/zhou-2025/bug-in-merge-after-growing-inside-range.mbt)
[[ $line == *": regression: "*"[the patch breaks panic: "* ]] && ok || bad "text form: '$line'"
"$mbdiff" judge --variants reference,zhou-2025 --min-class nonsense "$f" >/dev/null 2>&1
[[ $? == 2 ]] && ok || bad "--min-class nonsense is not exit 2"
check_done
