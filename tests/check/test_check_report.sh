#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_check_report.sh SOURCE_DIR MBDIFF
#
# scripts/check-bugs.sh and scripts/check-report.sh on check output folders
# written here (no build, no kernel tree): judged findings as `mbdiff judge`
# writes them, grouped into bugs and rendered.
#  - clean, with a quick explore certificate: CLEAN first, the certificate
#    in the text and in --json, branches taken per function, exit 0;
#  - three findings of one BUG_ON site and one shared mainline fault: one
#    regression bug reached from 3 signatures and 2 calls, the shortest of
#    them as its reproducer, the shared fault named, not counted; exit 1,
#    REGRESSION first, --json bugs[] with who_is_wrong "patch";
#  - findings of other keys that share a root cause (the arrays grow
#    differently) are one bug, their keys its effects; one of the same key
#    without that cause stays a bug of its own;
#  - a fix and a behaviour change: FIXES, exit 0 (a CI job passes);
#  - a regression whose fault mainline has on other calls (a fix of the
#    same key, or the corpus's base-faults.jsonl) is "exposes": FIXES
#    beside a fix, REGRESSION alone; a fault of another key stays a
#    regression;
#  - a behaviour change alone: BEHAVIOUR CHANGE, exit 5; both wrong alone
#    is one too (mainline is wrong first, the patch otherwise);
#  - a failed explore is said, not hidden;
#  - the first screen (up to the first bug's details) fits 40 lines, with
#    30 bugs too (one line each, the first ones and a count), and every
#    line is at most 72 columns (paths excepted).
set -uo pipefail
src=${1:?usage: test_check_report.sh SOURCE_DIR MBDIFF}
. "$src/tests/lib/check_lib.sh"
check_init check-report "${2:?}"

cert='no divergence at class >= capacity among all 91200 traces of <= 2 calls over alphabet default (736 distinct states)'
noexp='{"alphabet": "default.alpha", "depth": 2, "time_limit": 20, "depth_done": 2,
	"seconds": 0.8, "counterexamples": 1, "certificate": null, "stopped": null, "error": null}'
meta() { # meta DIR EXPLORE-JSON [COVERAGE-JSON]
	mkdir -p "$1/findings" "$1/keep" "$1/corpus-in"
	jq -n --argjson x "$2" --argjson c "${3:-null}" '{coverage: $c, patches: ["[PATCH] memblock: a change"], ignored_files: [],
		base: "Linux 7.3.4 (Debian linux-source-7.3)", mbdiff: "/opt/mbdiff/build/check/mbdiff",
		search: {corpus_inputs: 85, fuzz_execs: 2000, fuzz_time: null, fuzz_runs: 2000,
			 engine_runs: 1, min_class: "capacity"},
		explore: $x, date: "2026-12-04T12:00:00Z"}' >"$1/meta.json"
}
# finding DIR ID KIND KEY CLASS CALL NCALLS [CAUSE]: a judged finding, as
# check.sh leaves it (judge.json, repro.mbt of NCALLS calls, narrow.txt)
finding() {
	local d=$1/findings/$2 i
	mkdir -p "$d"
	{
		echo 'config memory.max=2 reserved.max=128 resize=0 slab=0 limit=0xffffffffffffffff'
		for ((i = 0; i < $7; i++)); do printf 'memblock_add: [0x%x-0x%x]\n' $((i * 8192)) $((i * 8192 + 4095)); done
	} >"$d/repro.mbt"
	printf '%s\n' "after call $7 of $7 ($6):" '  kernel:base:' '    memory: 1 of 2 slots' \
		'detail: panic vs BUG' >"$d/narrow.txt"
	echo agrees >"$d/reference"
	jq -n --arg kind "$3" --arg key "$4" --arg cls "$5" --arg call "$6" --argjson n "$7" \
		--arg id "$2" --arg repro "$d/repro.mbt" --arg cause "${8:-}" '
		{file: $repro, calls: $n, divergent: ($kind != "shared"), kind: $kind,
		 signature: "mbdiff: divergence kernel:base~kernel:patched call/\($cls) at op \($n) \($call)",
		 class: $cls, where: "call", op: $n, call: $call, detail: "d", key: $key,
		 title: ($key | sub("^[a-z ]* breaks "; "")), site: "mm/memblock.c:584: BUG_ON(x);",
		 base: {fault: ($kind == "fix" or $kind == "shared"), what: "mainline fault"},
		 patched: {fault: ($kind == "regression"), class: $cls, what: "patched fault"},
		 cause: (if $cause == "" then null else $cause end),
		 cause_why: (if $cause == "" then null else "at op \($n) \($call): grew 1 vs 2 time(s)" end),
		 reproducer: $repro, finding: $id, found_by: "libfuzzer"}' >"$d/judge.json"
}
columns() {
	awk 'length($0) > 72 && $0 !~ "^  /" { print FILENAME ": " $0; bad = 1 } END { exit bad }' "$1" && ok ||
		bad "$1 has lines over 72 columns"
}
render() { # render DIR: exit status of the report
	bash "$src/scripts/check-bugs.sh" --out "$1" >"$1.bugs.log" 2>&1 || return 99
	bash "$src/scripts/check-report.sh" --out "$1" --json "$1.json" >"$1.log" 2>&1
}
first_line() { head -n 1 "$1/report.txt"; }

# clean, with a certificate
c=$work/clean
meta "$c" "$(jq -n --arg c "$cert" '{alphabet: "default.alpha", depth: 2, time_limit: 20,
	depth_done: 2, seconds: 0.8, counterexamples: 0, certificate: $c, stopped: null, error: null}')" \
	'{"inputs": 687, "seconds": 4.5, "functions": [
	  {"variant": "kernel:base", "function": "memblock_add_range", "lines": [70, 70], "branches": [46, 48]},
	  {"variant": "kernel:patched", "function": "memblock_add_range", "lines": [70, 70], "branches": [45, 48]},
	  {"variant": "kernel:base", "function": "memblock_insert_region", "lines": [11, 11], "branches": [1, 2]},
	  {"variant": "kernel:patched", "function": "memblock_insert_region", "lines": [11, 11], "branches": [2, 2]}]}'
render "$c"
rc=$?
[[ $rc == 0 ]] && ok || bad "clean: exit $rc: $(cat "$c.log")"
first_line "$c" | grep -q '^mbdiff check: CLEAN' && ok || bad "clean: verdict not first"
tr '\n' ' ' <"$c/report.txt" | tr -s ' ' | grep -qF "explored: $cert" && ok ||
	bad "clean: the certificate is not in the report: $(cat "$c/report.txt")"
[[ $(jq -r .explore.certificate "$c.json") == "$cert" && $(jq -r .verdict "$c.json") == clean ]] && ok ||
	bad "clean: --json verdict or explore.certificate"
grep -q -- '--runs 2000' "$c/report.txt" && ok || bad "clean: the run bound of the search is not said"
grep -q '^  memblock_add_range  *46/48  *45/48$' "$c/report.txt" && ok ||
	bad "clean: no 'memblock_add_range 46/48 45/48' line: $(cat "$c/report.txt")"
grep -q 'the 687 inputs' "$c/report.txt" && ok || bad "clean: the inputs replayed for coverage are not counted"
columns "$c/report.txt"

# one BUG_ON reached three ways, and a fault mainline has as well
r=$work/regression
meta "$r" "$noexp"
k='the patch breaks panic: memblock_insert_region: BUG_ON(type->cnt >= type->max)'
finding "$r" 1111111111111111 regression "$k" panic memblock_add 4
finding "$r" 2222222222222222 regression "$k" panic memblock_reserve 2
finding "$r" 3333333333333333 regression "$k" panic memblock_add 3
finding "$r" 4444444444444444 shared 'both break contract: reserved: arrays-overlap' coverage memblock_add 6
echo "yes (40 calls, 128-slot arrays: bugs/01/lifted.mbt)" >"$work/reach"
render "$r"
rc=$?
[[ $rc == 1 ]] && ok || bad "regression: exit $rc, expected 1: $(cat "$r.log" "$r.bugs.log")"
first_line "$r" | grep -q '^mbdiff check: REGRESSION - 1 bug the patch brings in$' && ok ||
	bad "regression: first line '$(first_line "$r")'"
[[ $(jq '.bugs | length' "$r.json") == 1 ]] && ok || bad "regression: --json has $(jq '.bugs | length' "$r.json") bugs, expected 1"
jq -e '.bugs[0] | .signatures == 3 and .calls == ["memblock_add", "memblock_reserve"] and
	.who_is_wrong == "patch" and .kind == "regression" and .class == "panic"' "$r.json" >/dev/null && ok ||
	bad "regression: bugs[0] is $(jq -c '.bugs[0] | {signatures, calls, who_is_wrong, kind, class}' "$r.json")"
[[ $(grep -c '^memblock_' "$r/bugs/01/repro.mbt") == 2 ]] && ok || bad "regression: the reproducer is not the shortest (2 calls)"
grep -q '^ 1 regression panic ' "$r/report.txt" && ok || bad "regression: no one-line bug entry"
grep -q 'arrays-overlap (1)' "$r/report.txt" && ok || bad "regression: the shared mainline fault is not named"
[[ $(jq .not_bugs.shared "$r.json") == 1 ]] && ok || bad "regression: --json not_bugs.shared"
grep -q "$r/bugs/01/repro.mbt" "$r/report.txt" && ok || bad "regression: no command to reproduce"
shown=$(sed -n '1,/^bug 1 of/p' "$r/report.txt" | wc -l)
((shown <= 40)) && ok || bad "regression: the first screen is $shown lines"
columns "$r/report.txt"

# one root cause, three keys (a panic, a clause, a behaviour); the same
# panic without the cause is another bug
g=$work/cause
meta "$g" "$noexp"
gc='cause: the arrays grow differently'
kp='the patch breaks panic: memblock_double_array: BUG_ON(x)'
finding "$g" 1111111111111111 regression "$kp" panic memblock_add 3 "$gc"
finding "$g" 2222222222222222 regression 'the patch breaks contract: reserved: arrays-overlap' coverage memblock_reserve 2 "$gc"
finding "$g" 3333333333333333 behaviour 'behaviour: memory/capacity' capacity memblock_add 2 "$gc"
finding "$g" 4444444444444444 regression "$kp" panic memblock_remove 4
render "$g"
rc=$?
[[ $rc == 1 ]] && ok || bad "cause: exit $rc, expected 1: $(cat "$g.log" "$g.bugs.log")"
[[ $(jq '.bugs | length' "$g.json") == 2 ]] && ok || bad "cause: $(jq '.bugs | length' "$g.json") bugs, expected 2"
jq -e --arg gc "$gc" --arg kp "$kp" '.bugs | map(select(.key == $gc)) | length == 1 and
	(.[0] | .kind == "regression" and .signatures == 3 and .class == "panic" and
	 .effects == ([$kp, "the patch breaks contract: reserved: arrays-overlap", "behaviour: memory/capacity"] | sort) and
	 (.cause | startswith("at op 2 memblock_reserve")))' "$g.json" >/dev/null && ok ||
	bad "cause: the grouped bug is $(jq -c '.bugs[] | {key, kind, signatures, effects, cause}' "$g.json")"
# the other effects' reproducers, for the lift to try where the bug's own
# does not reach 128-slot arrays
jq -e --arg gc "$gc" --arg kp "$kp" --arg d "$g/findings" '.[] | select(.key == $gc) | .alternates ==
	[{key: "behaviour: memory/capacity", reproducer: "\($d)/3333333333333333/repro.mbt"},
	 {key: $kp, reproducer: "\($d)/1111111111111111/repro.mbt"}]' "$g/bugs.json" >/dev/null && ok ||
	bad "cause: alternates $(jq -c '.[] | .alternates' "$g/bugs.json")"
jq -e --arg kp "$kp" '.bugs | map(select(.key == $kp)) | length == 1' "$g.json" >/dev/null && ok ||
	bad "cause: the panic without the cause is not a bug of its own"
grep -q 'root cause: at op 2 memblock_reserve' "$g/report.txt" && grep -q 'what follows from it (3): ' "$g/report.txt" &&
	ok || bad "cause: the report does not say the cause and what follows: $(cat "$g/report.txt")"
columns "$g/report.txt"

# many bugs: one line each on the first screen, then the first ones and a
# count; the details of every one follow
many=$work/many
meta "$many" "$noexp"
for ((j = 10; j < 40; j++)); do
	finding "$many" "${j}00000000000000" regression \
		"the patch breaks contract: reserved: a clause of a rather long name number $j" coverage memblock_add 3
done
render "$many"
rc=$?
[[ $rc == 1 ]] && ok || bad "many: exit $rc, expected 1: $(cat "$many.log")"
shown=$(sed -n '1,/^bug 1 of/p' "$many/report.txt" | wc -l)
((shown <= 40)) && ok || bad "many: the first screen is $shown lines"
grep -q '^ 1 regression coverage  ?   contract: reserved: a clause' "$many/report.txt" && ok ||
	bad "many: bug 1 is not one line: $(sed -n '/^bugs, worst/,+2p' "$many/report.txt")"
more=$(sed -n 's/^   \.\.\. and \([0-9]*\) more (bug \([0-9]*\) of 30 onwards, below)$/\1 \2/p' "$many/report.txt")
listed=$(grep -c '^[ 0-9][0-9] regression coverage ' "$many/report.txt")
[[ $more && $((listed + ${more% *})) == 30 && $((listed + 1)) == "${more#* }" ]] && ok ||
	bad "many: $listed listed, then '$more'"
[[ $(grep -c '^bug [0-9]* of 30: ' "$many/report.txt") == 30 ]] && ok || bad "many: not every bug has its details"
columns "$many/report.txt"

# a fix and a behaviour change: FIXES, exit 0
x=$work/fix
meta "$x" "$noexp"
finding "$x" 5555555555555555 fix 'mainline breaks contract: reserved: arrays-overlap' coverage memblock_add 5
finding "$x" 6666666666666666 behaviour 'behaviour: reserved/layout memblock_add' layout memblock_add 3
render "$x"
rc=$?
[[ $rc == 0 ]] && ok || bad "fix: exit $rc, expected 0: $(cat "$x.log")"
first_line "$x" | grep -q '^mbdiff check: FIXES - 1 bug of mainline, no regression' && ok ||
	bad "fix: first line '$(first_line "$x")'"
jq -e '.verdict == "fixes" and .exit == 0 and .bugs[0].who_is_wrong == "mainline"' "$x.json" >/dev/null && ok ||
	bad "fix: --json $(jq -c '{verdict, exit}' "$x.json")"
columns "$x/report.txt"

# keys: set_keys FINDING-DIR BASE-KEY PATCHED-KEY ("" leaves it out)
set_keys() {
	jq --arg b "$2" --arg p "$3" '(if $b != "" then .base.key = $b else . end)
		| (if $p != "" then .patched.key = $p | .patched.fault = true else . end)' \
		"$1/judge.json" >"$1/judge.tmp" && mv "$1/judge.tmp" "$1/judge.json"
}
# a fix, and a regression whose fault mainline has too (the fix shows it):
# the patch reaches mainline's fault in a new layout, no bug of its own
x=$work/exposes
meta "$x" "$noexp"
finding "$x" 1212121212121212 fix 'mainline breaks contract: reserved: array-unreserved' invariant memblock_phys_free 2
set_keys "$x/findings/1212121212121212" 'contract: reserved: array-unreserved' ""
finding "$x" 3434343434343434 fix 'mainline breaks contract: reserved: arrays-overlap' coverage memblock_add 4
set_keys "$x/findings/3434343434343434" 'contract: reserved: arrays-overlap' ""
finding "$x" 5656565656565656 regression 'the patch breaks contract: reserved: arrays-overlap' coverage memblock_set_node 6 \
	'cause: the arrays grow differently'
set_keys "$x/findings/5656565656565656" "" 'contract: reserved: arrays-overlap'
render "$x"
rc=$?
[[ $rc == 0 ]] && ok || bad "exposes: exit $rc, expected 0: $(cat "$x.log")"
first_line "$x" | grep -q '^mbdiff check: FIXES - 2 bugs of mainline, no regression, 1 mainline$' && ok ||
	bad "exposes: first line '$(first_line "$x")'"
jq -e --arg t "$x/findings/3434343434343434/repro.mbt" '.verdict == "fixes" and
	(.bugs[0] | .kind == "exposes" and .who_is_wrong == "patch" and .mainline_fault.trace == $t and
	 .mainline_fault.key == "contract: reserved: arrays-overlap")' "$x.json" >/dev/null && ok ||
	bad "exposes: --json $(jq -c '{verdict, b: .bugs[0] | {kind, who_is_wrong, mainline_fault}}' "$x.json")"
grep -q 'mainline breaks it the same way on other calls' "$x/report.txt" && ok ||
	bad "exposes: the report does not name where mainline has the fault"
columns "$x/report.txt"
# mainline's fault known only from the corpus (base-faults.jsonl), no fix:
# the patch makes it easier to reach, a regression; a fault of another key
# stays a regression of its own
x=$work/exposes-alone
meta "$x" "$noexp"
jq -n -c '{file: "/src/corpus/regressions/reference/t.mbt", calls: 2, kind: "shared",
	base: {fault: true, key: "contract: reserved: arrays-overlap"}}' >"$x/base-faults.jsonl"
finding "$x" 7878787878787878 regression 'the patch breaks contract: reserved: arrays-overlap' coverage memblock_add 3
set_keys "$x/findings/7878787878787878" "" 'contract: reserved: arrays-overlap'
render "$x"
rc=$?
[[ $rc == 1 ]] && ok || bad "exposes alone: exit $rc, expected 1: $(cat "$x.log")"
first_line "$x" | grep -q '^mbdiff check: REGRESSION - 1 fault of mainline the patch reaches' && ok ||
	bad "exposes alone: first line '$(first_line "$x")'"
finding "$x" 9090909090909090 regression 'the patch breaks contract: memory: attributes' coverage memblock_add 2
set_keys "$x/findings/9090909090909090" "" 'contract: memory: attributes'
render "$x"
jq -e '[.bugs[] | .kind] | sort == ["exposes", "regression"]' "$x.json" >/dev/null && ok ||
	bad "exposes alone: a fault of another key is not a regression: $(jq -c '[.bugs[] | {kind, key}]' "$x.json")"
first_line "$x" | grep -q '^mbdiff check: REGRESSION - 1 bug the patch brings in' && ok ||
	bad "exposes alone, with a regression: first line '$(first_line "$x")'"

# behaviour change alone, and both wrong alone
for kind in behaviour both; do
	b=$work/$kind
	meta "$b" "$noexp"
	finding "$b" 7777777777777777 "$kind" "behaviour: memory/layout memblock_add" layout memblock_add 3
	render "$b"
	rc=$?
	[[ $rc == 5 ]] && ok || bad "$kind: exit $rc, expected 5: $(cat "$b.log")"
	first_line "$b" | grep -q '^mbdiff check: BEHAVIOUR CHANGE' && ok || bad "$kind: first line '$(first_line "$b")'"
done

# a failed explore is said
e=$work/error
meta "$e" '{"alphabet": "default.alpha", "depth": 2, "time_limit": 20, "depth_done": 0,
	"seconds": 0, "counterexamples": 0, "certificate": null, "stopped": null,
	"error": "mbdiff: explore: no depth completed: the time limit of 1 s was reached"}'
render "$e"
grep -q '^explored: stopped: mbdiff: explore: no depth completed' "$e/report.txt" && ok ||
	bad "error: the failed explore is not said: $(cat "$e/report.txt")"
columns "$e/report.txt"
check_done
