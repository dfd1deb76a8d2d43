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
line=$("$mbdiff" judge --variants reference,zhou-2025 "$reg"/zhou-2025/bug-in-merge-after-growing-inside-range.mbt)
[[ $line == *": regression: "*"[the patch breaks panic: "* ]] && ok || bad "text form: '$line'"
"$mbdiff" judge --variants reference,zhou-2025 --min-class nonsense "$f" >/dev/null 2>&1
[[ $? == 2 ]] && ok || bad "--min-class nonsense is not exit 2"
check_done
