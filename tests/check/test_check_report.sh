#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_check_report.sh SOURCE_DIR MBDIFF
#
# scripts/check-report.sh on check output folders written here (no build,
# no kernel tree): what scripts/check.sh leaves in OUT, rendered.
#  - clean, with a quick explore certificate: CLEAN first, the certificate
#    in the text ("explored: ...") and in --json (explore.certificate),
#    branches taken per function and variant ("46/48"), exit 0;
#  - one finding found by explore: "found by: explore", the run-bounded
#    reachability line, --json found_by, exit 1; no certificate;
#  - a failed explore is said, not hidden;
#  - every line at most 72 columns.
set -uo pipefail
src=${1:?usage: test_check_report.sh SOURCE_DIR MBDIFF}
. "$src/tests/lib/check_lib.sh"
check_init check-report "${2:?}"

cert='no divergence at class >= capacity among all 91200 traces of <= 2 calls over alphabet default (736 distinct states)'
meta() { # meta DIR EXPLORE-JSON [COVERAGE-JSON]
	mkdir -p "$1/findings" "$1/keep" "$1/corpus-in"
	jq -n --argjson x "$2" --argjson c "${3:-null}" '{coverage: $c, patches: ["[PATCH] memblock: a change"], ignored_files: [],
		base: "Linux 7.3.4 (Debian linux-source-7.3)",
		search: {corpus_inputs: 85, fuzz_execs: 2000, fuzz_time: null, fuzz_runs: 2000,
			 engine_runs: 1, min_class: "capacity"},
		explore: $x, date: "2026-12-04T12:00:00Z"}' >"$1/meta.json"
}
columns() {
	awk 'length($0) > 72 { print FILENAME ": " $0; bad = 1 } END { exit bad }' "$1" && ok ||
		bad "$1 has lines over 72 columns"
}
render() { # render DIR: exit status
	bash "$src/scripts/check-report.sh" --out "$1" --json "$1.json" >"$1.log" 2>&1
}

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
head -n 1 "$c/report.txt" | grep -q '^mbdiff check: CLEAN' && ok || bad "clean: verdict not first"
tr '\n' ' ' <"$c/report.txt" | tr -s ' ' | grep -qF "explored: $cert" && ok ||
	bad "clean: the certificate is not in the report: $(cat "$c/report.txt")"
[[ $(jq -r .explore.certificate "$c.json") == "$cert" ]] && ok || bad "clean: --json explore.certificate"
grep -q -- '--runs 2000' "$c/report.txt" && ok || bad "clean: the run bound of the search is not said"
grep -q '^  memblock_add_range  *46/48  *45/48$' "$c/report.txt" && ok ||
	bad "clean: no 'memblock_add_range 46/48 45/48' line: $(cat "$c/report.txt")"
grep -q '^  memblock_insert_region  *1/2  *2/2$' "$c/report.txt" && ok || bad "clean: no insert_region line"
grep -q 'the 687 inputs' "$c/report.txt" && ok || bad "clean: the inputs replayed for coverage are not counted"
columns "$c/report.txt"

# one finding, found by explore
f=$work/finding
meta "$f" '{"alphabet": "default.alpha", "depth": 2, "time_limit": 20, "depth_done": 2,
	"seconds": 0.8, "counterexamples": 1, "certificate": null, "stopped": null, "error": null}'
d=$f/findings/06a8149c1c66ebbd
mkdir -p "$d"
printf '%s\n' 'kernel:base~kernel:patched call/panic memblock_add' \
	'mbdiff: divergence kernel:base~kernel:patched call/panic at op 2 memblock_add' >"$d/signature"
echo "explore (the shortest: every shorter trace agrees)" >"$d/found-by"
echo "not found in 300 runs" >"$d/reachable"
echo agrees >"$d/reference"
printf '%s\n' 'config memory.max=2 reserved.max=128 resize=0 slab=0 limit=0xffffffffffffffff' \
	'memblock_add: [0x1000-0x17ff]' 'memblock_add: [0x0-0x1fff]' >"$d/repro.mbt"
printf '%s\n' 'after call 2 of 2 (memblock_add):' '  kernel:base:' '    memory: 1 of 2 slots' \
	'detail: panic vs BUG' >"$d/narrow.txt"
render "$f"
rc=$?
[[ $rc == 1 ]] && ok || bad "finding: exit $rc, expected 1: $(cat "$f.log")"
grep -q '^explored: every trace of <= 2 calls over alphabet default:' "$f/report.txt" && ok ||
	bad "finding: no 'explored:' line"
grep -q '^  1 shortest counterexample(s)' "$f/report.txt" && ok || bad "finding: counterexamples not counted"
grep -q '^  found by: explore (the shortest' "$f/report.txt" && ok || bad "finding: not 'found by: explore'"
grep -q '^  reachable with kernel-sized arrays: not found in 300 runs$' "$f/report.txt" && ok ||
	bad "finding: reachability line"
grep -q 'no divergence' "$f/report.txt" && bad "finding: a certificate is claimed" || ok
[[ $(jq -r '.findings[0].found_by' "$f.json") == explore* ]] && ok || bad "finding: --json found_by"
[[ $(jq -r '.explore.certificate' "$f.json") == null ]] && ok || bad "finding: --json has a certificate"
columns "$f/report.txt"

# a failed explore is said
e=$work/error
meta "$e" '{"alphabet": "default.alpha", "depth": 2, "time_limit": 20, "depth_done": 0,
	"seconds": 0, "counterexamples": 0, "certificate": null, "stopped": null,
	"error": "mbdiff: explore: no depth completed: the time limit of 1 s was reached"}'
render "$e"
grep -q '^explored: failed: mbdiff: explore: no depth completed' "$e/report.txt" && ok ||
	bad "error: the failed explore is not said: $(cat "$e/report.txt")"
columns "$e/report.txt"
check_done
