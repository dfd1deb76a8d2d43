#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/bench-check.sh [options]
#
# How long `mbdiff check` takes, end to end, on this machine: one check per
# case below against the Debian base (--base), with --time S of libFuzzer
# and the kernel tests in the real tools/testing/memblock included, as a
# user runs it. Prints one line per case (verdict, bugs, wall seconds, the
# target and whether it was met) and the phases of each from meta.json.
# A benchmark, not a test: a busy machine makes it slower, never red.
#
# Cases (each patch is made here from the base tree's own lines):
#   clean     a comment above memblock_add_range()     target <= 90 s
#   findings  zhou-2025 ported with port-patch.sh      target <= 180 s
#             (a single-pass add_range: a regression)
#   fix       docs/upstream/double-array-exclusion-at-zero (base 7.3
#             only: the series is written for it)      target <= 180 s
#
# Options:
#   --base V        linux-source version (default 7.3)
#   --time S        check --time (default 60)
#   --case A,B      which cases (default clean,findings,fix)
#   --out DIR       where the checks go (default build/bench-check)
#   --deb-cache DIR .deb cache ($MBDIFF_DEB_CACHE)
#   -h, --help      this text
# Exit: 0 every check ran (whatever the figures), 2 bad option, 3 a check
# itself failed (its exit 3) or the base tree cannot be had.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

orig_args=("$@")
base=7.3 fuzz_time=60 cases=clean,findings,fix out=$MBD_BUILD/bench-check
debs=${MBDIFF_DEB_CACHE:-}
mbd_bench_check_args "$@"
for c in "${want[@]}"; do
	case $c in
	clean | findings | fix) ;;
	*) mbd_usage_error "--case '$c': expected clean, findings or fix" ;;
	esac
done
mbd_bench_check_setup

# make_patch CASE FILE: the case's series, from the tree's lines
make_patch() {
	local w=$out/$1.src
	case $1 in
	clean)
		rm -rf "$w" && mkdir -p "$w/a/mm" "$w/b/mm"
		cp "$tree/mm/memblock.c" "$w/a/mm/"
		sed '/^static int __init_memblock memblock_add_range(/i /* the benchmark'"'"'s comment */' \
			"$tree/mm/memblock.c" >"$w/b/mm/memblock.c"
		{
			printf 'Subject: [PATCH] memblock: a comment\n---\n'
			(cd "$w" && diff -u a/mm/memblock.c b/mm/memblock.c | sed '1,2s/\t.*//') || true
		} >"$2"
		;;
	findings)
		bash "$MBD_ROOT/scripts/port-patch.sh" --tree "$tree" --variant zhou-2025 -o "$2" >/dev/null
		;;
	fix)
		[[ $base == 7.3 ]] || return 1
		cat "$MBD_ROOT"/docs/upstream/double-array-exclusion-at-zero/0001-*.patch >"$2"
		;;
	esac
}

declare -A target=([clean]=90 [findings]=180 [fix]=180)
rows=()
phases=()
for c in "${want[@]}"; do
	p=$out/$c.patch
	if ! make_patch "$c" "$p"; then
		mbd_log "$c: not for base $base: skipped"
		continue
	fi
	mbd_bench_run_check "$c" "$p"
	nbugs=$(jq -r '(.bugs // []) | length' "$o.json" 2>/dev/null || echo "?")
	met=no
	awk -v w="$wall" -v t="${target[$c]}" 'BEGIN { exit !(w <= t) }' && met=yes
	rows+=("$(printf '%-9s %-18s %5s %8s %8s  %s' "$c" "$verdict" "$nbugs" "$wall" "<= ${target[$c]}" "$met")")
	phases+=("$c: $(jq -r '.timings // {} | to_entries | map("\(.key) \(.value)") | join(", ")' "$o/meta.json" 2>/dev/null)")
done

printf '# %s\n' "$(mbd_quote scripts/bench-check.sh "${orig_args[@]}")"
printf '# %s, %s\n' "$(date -u +%Y-%m-%d)" "$(mbd_machine)"
printf '# base linux-source-%s, --time %s, kernel tests included\n' "$base" "$fuzz_time"
printf '%-9s %-18s %5s %8s %8s  %s\n' case verdict bugs wall_s target met
printf '%s\n' "${rows[@]+"${rows[@]}"}"
printf '\nphases (s, meta.json timings):\n'
printf '  %s\n' "${phases[@]+"${phases[@]}"}"
