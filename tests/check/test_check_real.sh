#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_check_real.sh SOURCE_DIR MBDIFF [WORKDIR]
#
# scripts/check.sh end to end on a real kernel tree (Debian's
# linux-source-$MBDIFF_CHECK_VERSION, default 6.12, as fetched by
# scripts/get-kernel-tree.sh). Exit 77 (skipped) when it is not there. The
# patches are made from the tree's own lines here, nothing is kept:
#  - a comment above memblock_add_range() and an unused function calling
#    common kernel helpers (cpu_relax, READ_ONCE, pr_warn_once, ...):
#    CLEAN, exit 0, --json "clean",
#    the quick explore's certificate in the report and in --json, and the
#    branches taken in add_range, isolate, merge, insert and double_array
#    of both variants (a clang source-coverage build);
#  - the shortcut "cnt * 2 + 1 <= max" weakened to "cnt + 1 <= max" (the
#    walk inserts without room): REGRESSION, exit 1, the BUG_ON in
#    memblock_insert_region() one bug however many calls reach it, its
#    site quoted, each bug's reproducer judged to the bug's key, a
#    reachability line, --json bugs[] the same as the report;
#  - a call to a helper no kernel has: PATCH DOES NOT COMPILE HERE, exit
#    2, the helper and its line named in one line;
#  - every report line is at most 72 columns;
#  - --reach-time is refused, naming --reach-runs.
# Every search is bounded by runs (--runs, --reach-runs) or depth
# (--explore-depth, its clock bound set out of reach), not the clock.
# The findings' tests in the real tools/testing/memblock are left out
# (--no-kernel-tests: four builds of the suite; check/kernel-tests-real
# runs the suite).
set -uo pipefail
src=${1:?usage: test_check_real.sh SOURCE_DIR MBDIFF [WORKDIR]}
. "$src/tests/lib/check_lib.sh"
check_init check-real "${2:?}" "${3:-}"
v=${MBDIFF_CHECK_VERSION:-6.12}

# nothing is fetched here: scripts/test.sh (or get-kernel-tree.sh) does it
if ! tree=$(bash "$src/scripts/get-kernel-tree.sh" --print --version "$v" 2>"$work/get.log" | tail -n 1) ||
	[[ ! -f $tree/mm/memblock.c ]]; then
	echo "check-real: no linux-$v tree (bash scripts/get-kernel-tree.sh --version $v): skipped"
	exit 77
fi

mkpatch() { # mkpatch SED-SCRIPT SUBJECT > patch
	mkdir -p "$work/a/mm" "$work/b/mm"
	cp "$tree/mm/memblock.c" "$work/a/mm/"
	sed "$1" "$tree/mm/memblock.c" >"$work/b/mm/memblock.c"
	printf 'Subject: [PATCH] %s\n---\n' "$2"
	(cd "$work" && diff -u a/mm/memblock.c b/mm/memblock.c | sed '1,2s/\t.*//')
}
# harmless: a comment, and a helper that uses the kernel helpers mm/ code
# commonly calls (kcompat's mbd_kc_helpers.h) without changing anything
helper='static void __maybe_unused mbd_touch(struct memblock_type *type)\
{\
	unsigned long n = READ_ONCE(type->cnt);\
\
	cpu_relax();\
	might_sleep();\
	BUILD_BUG_ON(sizeof(*type->regions) == 0);\
	if (DIV_ROUND_UP(n, 2) > type->max || ilog2(n | 1) > 63)\
		pr_warn_once("memblock: %s: odd count %lu\\n", type->name, n);\
}\
'
mkpatch "/^static int __init_memblock memblock_add_range(/i /* a comment only */\\
$helper" "memblock: a comment" >"$work/harmless.patch"
grep -q '^+	cpu_relax();' "$work/harmless.patch" && ok || bad "the harmless patch has no helper calls"
# does not compile: a helper no kernel has; exit 2, named in one line
mkpatch '/^static int __init_memblock memblock_add_range(/i static void __maybe_unused mbd_touch(void) { mbd_no_such_helper(); }' \
	"memblock: call a helper nobody has" >"$work/nohelper.patch"
mkpatch 's/type->cnt \* 2 + 1 <= type->max/type->cnt + 1 <= type->max/' \
	"memblock: insert at once with one free slot" >"$work/broken.patch"
grep -q '^+.*type->cnt + 1 <= type->max' "$work/broken.patch" && ok ||
	bad "linux-$v has no 'type->cnt * 2 + 1 <= type->max' line to change"

# --explore-time: the certificate asserted below is the whole depth 2, which
# its default 20 s did not cover at load 5 with MBDIFF_RESET_CHECK on.
run() { # run NAME PATCH
	bash "$src/scripts/check.sh" --base "$v" --runs 2000 --reach-runs 300 --no-kernel-tests \
		--explore-time 1800 \
		--build-dir "$work/build" -o "$work/$1" --json "$work/$1.json" "$2" >"$work/$1.log" 2>&1
}
columns() {
	awk 'length($0) > 72 && $0 !~ "^  /" { print FILENAME ": " $0; bad = 1 } END { exit bad }' "$1" && ok ||
		bad "$1 has lines over 72 columns"
}

run harmless "$work/harmless.patch"
rc=$?
[[ $rc == 0 ]] && ok || bad "comment-only patch: exit $rc, expected 0: $(head -n 5 "$work/harmless.log")"
head -n 1 "$work/harmless/report.txt" | grep -q '^mbdiff check: CLEAN' && ok || bad "no CLEAN verdict first"
grep -q "^base:  Linux $v" "$work/harmless/report.txt" && ok || bad "the base is not said"
[[ $(jq -r .verdict "$work/harmless.json") == clean ]] && ok || bad "--json verdict is not clean"
(($(jq -r .search.fuzz_execs "$work/harmless.json") > 0)) && ok || bad "no fuzz execs counted"
columns "$work/harmless/report.txt"
# branch coverage of the five functions, both variants, from a real build
for fn in memblock_add_range memblock_isolate_range memblock_merge_regions memblock_insert_region memblock_double_array; do
	for side in kernel:base kernel:patched; do
		jq -e --arg f "$fn" --arg v "$side" '.coverage.functions[] | select(.function == $f and .variant == $v) |
			.branches[1] > 0 and .branches[0] <= .branches[1]' "$work/harmless.json" >/dev/null && ok ||
			bad "no branch coverage of $fn in $side: $(jq -c .coverage "$work/harmless.json")"
	done
	grep -q "^  $fn  *[0-9]*/[0-9]*  *[0-9]*/[0-9]*\$" "$work/harmless/report.txt" && ok || bad "no $fn line in the report"
done
cert=$(jq -r '.explore.certificate // empty' "$work/harmless.json")
[[ $cert =~ ^no\ divergence\ at\ class\ \>=\ capacity\ among\ all\ [0-9]+\ traces\ of\ \<=\ [0-9]+\ calls\ over\ alphabet\ default\ \([0-9]+\ distinct\ states\)$ ]] &&
	ok || bad "--json explore.certificate is '$cert'"
tr '\n' ' ' <"$work/harmless/report.txt" | tr -s ' ' | grep -qF "explored: $cert" && ok ||
	bad "the report does not state the explore certificate"

run nohelper "$work/nohelper.patch"
rc=$?
[[ $rc == 2 ]] && ok || bad "a patch calling an unknown helper: exit $rc, expected 2: $(tail -n 5 "$work/nohelper.log")"
head -n 1 "$work/nohelper/report.txt" | grep -q '^mbdiff check: PATCH DOES NOT COMPILE HERE$' && ok ||
	bad "no DOES NOT COMPILE verdict first: $(head -n 3 "$work/nohelper/report.txt")"
[[ $(grep -c 'mbd_no_such_helper' "$work/nohelper/report.txt") == 1 ]] &&
	grep -Eq '^kcompat lacks `mbd_no_such_helper` \(patched mm/memblock\.c:[0-9]+\)$' "$work/nohelper/report.txt" &&
	ok || bad "the missing helper is not named in one line: $(cat "$work/nohelper/report.txt")"
[[ $(jq -r .verdict "$work/nohelper.json") == does-not-compile ]] && ok || bad "--json verdict is not does-not-compile"
columns "$work/nohelper/report.txt"

run broken "$work/broken.patch"
rc=$?
[[ $rc == 1 ]] && ok || bad "broken patch: exit $rc, expected 1: $(tail -n 5 "$work/broken.log")"
head -n 1 "$work/broken/report.txt" | grep -q '^mbdiff check: REGRESSION - ' && ok || bad "no REGRESSION verdict first"
[[ $(jq -r .verdict "$work/broken.json") == regression ]] && ok || bad "--json verdict is not regression"
n=$(jq '.bugs | length' "$work/broken.json")
((n >= 1)) && ok || bad "--json lists no bugs"
[[ $(grep -c '^bug [0-9]* of' "$work/broken/report.txt") == "$n" ]] && ok ||
	bad "report and --json disagree on the number of bugs"
# one bug per root cause: the insert without room is one BUG_ON site,
# however many calls reach it
[[ $(jq '[.bugs[] | select(.kind == "regression" and .class == "panic")] | length' "$work/broken.json") == 1 ]] &&
	ok || bad "the BUG_ON is not exactly one regression bug: $(jq -c '[.bugs[] | {kind, class, key}]' "$work/broken.json")"
jq -e '.bugs[] | select(.class == "panic") | .site | test("BUG_ON\\(type->cnt >= type->max\\)")' "$work/broken.json" >/dev/null &&
	ok || bad "the panic bug does not quote the BUG_ON site"
[[ $(jq '[.bugs[].key] | (length == (unique | length))' "$work/broken.json") == true ]] &&
	ok || bad "a bug key is reported twice"
columns "$work/broken/report.txt"
grep -Eq '^explored: every trace of <= [0-9]+ calls' "$work/broken/report.txt" && ok || bad "no 'explored:' line"
for i in $(seq 0 $((n - 1))); do
	f=$(jq -r ".bugs[$i].reproducer_file" "$work/broken.json")
	key=$(jq -r ".bugs[$i].key" "$work/broken.json")
	got=$("$work/build/mbdiff" judge --json --variants kernel:base,kernel:patched "$f" | jq -r .key)
	[[ $got == "$key" ]] && ok || bad "bug $i: $f judges to '$got', not '$key'"
	jq -e ".bugs[$i].reachable_with_kernel_arrays | test(\"^(yes|not)\")" "$work/broken.json" >/dev/null &&
		ok || bad "bug $i: no reachability verdict"
done
bash "$src/scripts/check.sh" --reach-time 5 "$work/broken.patch" >"$work/rt.log" 2>&1
rc=$?
[[ $rc == 2 ]] && grep -q -- '--reach-runs' "$work/rt.log" && ok ||
	bad "--reach-time: exit $rc, expected 2 and a message naming --reach-runs: $(cat "$work/rt.log")"
check_done
