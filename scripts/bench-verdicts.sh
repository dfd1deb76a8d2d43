#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/bench-verdicts.sh [options]
#
# Does `mbdiff check` give the verdict a maintainer would? Patches of known
# ground truth, each made here from the base tree's own lines (nothing of
# the kernel is kept in the project), are checked against the Debian base
# with --time S of libFuzzer; one line per case: what it is, the verdict
# expected, the verdict given, the bugs, the wall time and whether they
# agree. A benchmark, not a test: it prints figures, a busy machine makes
# it slower, never red.
#
# Cases (the patch each makes to mm/memblock.c, and the truth):
#   refactor-unlikely  unlikely() around the empty-array test of
#                      memblock_add_range()                  CLEAN
#   refactor-min       min(rend, end) written as a ?: expression
#                                                            CLEAN
#   merge-flags        memblock_merge_regions() no longer compares
#                      flags: regions of other flags merge   REGRESSION
#   merge-count        memblock_merge_regions() forgets end_rgn-- after
#                      a merge: it walks past the inserted range
#                                                            REGRESSION
#   total-size         memblock_insert_region() no longer adds to
#                      total_size                            REGRESSION
#   double-early       memblock_add_range() doubles when the array
#                      would be exactly full (>= for >): where the
#                      array cannot grow (before memblock_allow_resize())
#                      a call that fits fails with -ENOMEM   REGRESSION
#   fix-exclusion      docs/upstream's fix of the exclusion at address 0
#                      (base 7.3 only)                       FIXES
# (a REGRESSION case also agrees when the verdict is CRASH: a sanitizer
# report is a regression the patched code dies of)
#
# Options:
#   --base V        linux-source version (default 7.3)
#   --time S        check --time (default 30)
#   --case A,B      which cases (default all)
#   --out DIR       where the checks go (default build/bench-verdicts)
#   --deb-cache DIR .deb cache ($MBDIFF_DEB_CACHE)
#   -h, --help      this text
# The checks run with --no-kernel-tests and --reach-runs 0: the verdict
# does not depend on them.
# Exit: 0 every check ran (whatever the verdicts), 2 bad option, 3 a check
# itself failed (its exit 3) or the base tree cannot be had.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

all=(refactor-unlikely refactor-min merge-flags merge-count total-size double-early fix-exclusion)
declare -A truth=([refactor-unlikely]=clean [refactor-min]=clean [merge-flags]=regression
	[merge-count]=regression [total-size]=regression [double-early]=regression
	[fix-exclusion]=fixes)

orig_args=("$@")
base=7.3 fuzz_time=30 cases=$(IFS=,; echo "${all[*]}") out=$MBD_BUILD/bench-verdicts
debs=${MBDIFF_DEB_CACHE:-}
mbd_bench_check_args "$@"
for c in "${want[@]}"; do
	[[ ${truth[$c]+x} ]] || mbd_usage_error "--case '$c': expected one of ${all[*]}"
done
mbd_bench_check_setup

# Each case's sed script (it must change the file) and subject line.
declare -A edit=(
	[refactor-unlikely]='s/^\tif (type->regions\[0\]\.size == 0) {$/\tif (unlikely(type->regions[0].size == 0)) {/'
	[refactor-min]='s/^\t\tbase = min(rend, end);$/\t\tbase = rend < end ? rend : end;/'
	[merge-flags]='/memblock_get_region_node(next) ||$/{N;s/ ||\n[[:space:]]*this->flags != next->flags) {/) {/;}'
	[merge-count]='/^\t\ttype->cnt--;$/{n;/^\t\tend_rgn--;$/d;}'
	[total-size]='/^\ttype->total_size += size;$/d'
	[double-early]='s/^\t\twhile (type->cnt + nr_new > type->max)$/\t\twhile (type->cnt + nr_new >= type->max)/')
declare -A subject=(
	[refactor-unlikely]="memblock: mark the empty array case unlikely"
	[refactor-min]="memblock: open-code min() in memblock_add_range()"
	[merge-flags]="memblock: merge adjacent regions regardless of flags"
	[merge-count]="memblock: simplify the merge loop"
	[total-size]="memblock: account total_size once"
	[double-early]="memblock: grow the region array before it is full")

# make_patch CASE FILE: the case's series, from the tree's lines
make_patch() {
	local w=$out/$1.src
	if [[ $1 == fix-exclusion ]]; then
		[[ $base == 7.3 ]] || return 1
		cat "$MBD_ROOT"/docs/upstream/double-array-exclusion-at-zero/0001-*.patch >"$2"
		return 0
	fi
	rm -rf "$w" && mkdir -p "$w/a/mm" "$w/b/mm"
	cp "$tree/mm/memblock.c" "$w/a/mm/"
	sed "${edit[$1]}" "$tree/mm/memblock.c" >"$w/b/mm/memblock.c"
	if cmp -s "$w/a/mm/memblock.c" "$w/b/mm/memblock.c"; then
		mbd_warn "$1: its edit matches nothing in linux-$base's mm/memblock.c: skipped"
		return 1
	fi
	{
		printf 'Subject: [PATCH] %s\n---\n' "${subject[$1]}"
		(cd "$w" && diff -u a/mm/memblock.c b/mm/memblock.c | sed '1,2s/\t.*//') || true
	} >"$2"
}

rows=() agree=0 ran=0
for c in "${want[@]}"; do
	p=$out/$c.patch
	make_patch "$c" "$p" || continue
	mbd_bench_run_check "$c" "$p" --no-kernel-tests --reach-runs 0
	nbugs=$(jq -r '[(.bugs // [])[] | select(.kind != "behaviour")] | length' "$o.json" 2>/dev/null || echo "?")
	nbeh=$(jq -r '[(.bugs // [])[] | select(.kind == "behaviour")] | length' "$o.json" 2>/dev/null || echo "?")
	ok=no
	if [[ $verdict == "${truth[$c]}" ]] || [[ ${truth[$c]} == regression && $verdict == crash ]]; then
		ok=yes agree=$((agree + 1))
	fi
	ran=$((ran + 1))
	rows+=("$(printf '%-18s %-16s %-16s %4s %4s %4s %7s  %s' "$c" "${truth[$c]}" "$verdict" \
		"$nbugs" "$nbeh" "$rc" "$wall" "$ok")")
done

printf '# %s\n' "$(mbd_quote scripts/bench-verdicts.sh "${orig_args[@]}")"
printf '# %s, %s\n' "$(date -u +%Y-%m-%d)" "$(mbd_machine)"
printf '# base linux-source-%s, check --time %s --no-kernel-tests --reach-runs 0\n' "$base" "$fuzz_time"
printf '# bugs: regressions, fixes and both-wrong; beh: behaviour changes\n'
printf '%-18s %-16s %-16s %4s %4s %4s %7s  %s\n' case expected verdict bugs beh exit wall_s agree
printf '%s\n' "${rows[@]+"${rows[@]}"}"
printf 'agree: %d of %d\n' "$agree" "$ran"
