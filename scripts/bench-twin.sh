#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/bench-twin.sh [options]
#
# How far `mbdiff bench` can be trusted (issue 16, item 5): runs it
# several times, each run a process of its own with its own --seed, over
# corpus/real with the reference as the baseline, reference-twin (the same
# code compiled as a second object) and every shipped patch, and prints
#   - per run and mode, the twin's ratio with its 95% confidence interval
#     (it should read 1.00: anything else is the bench's own error),
#   - per variant and mode, run 1's and run 2's ratios and their difference
#     (two runs should agree), and the largest difference over all runs,
#   - per trace (each variant but the baseline, each mode): how many
#     ratios lie on the other side of 1.00 in run 2 than in run 1, and the
#     median difference between the two runs,
#   - whether the twin is within 1.00 +- 0.02 in every run and every
#     variant's runs within 0.02 of each other ("target met").
# The ratio is `mbdiff bench`'s summary "x base": per round, the variant's
# ns summed over the traces / the reference's, median over the rounds of
# each layout (process), median over the layouts, with its interval.
# A header gives the commands, the date, the machine and its load
# (uptime) before and after: figures taken on a busy machine say so.
#
# Options:
#   --runs N            separate runs (default 2; at least 2)
#   --reps N            rounds per trace and mode in each run (default:
#                       mbdiff bench's, 2000: about 80 s a run on a busy
#                       2-core VM)
#   --layouts N         processes each run's rounds are split over (default:
#                       mbdiff bench's, one per 20 rounds, 10 to 100; 1: all
#                       in one process, whose one address-space layout and
#                       physical placement bias every cold ratio alike)
#   --evict-mib N       MiB read before each cold sample (default: mbdiff
#                       bench's, 1; the image and the trace are flushed in
#                       any case; 64 evicts the page tables and the arena
#                       too, and its runs differ by up to 0.03 even at
#                       300 rounds, 7 min a run)
#   --variants A,B,...  what to time (default: reference, reference-twin,
#                       then every patch variant of the binary); the first
#                       is the baseline, and reference-twin must be there
#   --traces DIR        the traces (default corpus/real)
#   --keep DIR          keep each run's table in DIR/run-N.txt
#   --mbdiff FILE       the binary (default $MBDIFF, else build/default/mbdiff)
#   --no-build          do not run scripts/build.sh default first (it is
#                       run only for the default binary, and is quick when
#                       nothing changed)
#   -h, --help          this text
#
# Exit status: 0 when every run finished (whether or not the target is
# met: this is a benchmark, it prints figures), 2 on bad options or a
# failed run.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

orig_args=("$@")
runs=2
reps=
layouts=
evict=
variants=
traces=corpus/real
keep=
mbdiff=
build=1
while (($#)); do
	case $1 in
	--runs | --runs=*) mbd_optval "$@"; runs=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--reps | --reps=*) mbd_optval "$@"; mbd_check_uint --reps "$MBD_OPTVAL"; reps=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--layouts | --layouts=*) mbd_optval "$@"; layouts=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--evict-mib | --evict-mib=*) mbd_optval "$@"; evict=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--variants | --variants=*) mbd_optval "$@"; variants=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--traces | --traces=*) mbd_optval "$@"; traces=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--keep | --keep=*) mbd_optval "$@"; keep=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--mbdiff | --mbdiff=*) mbd_optval "$@"; mbdiff=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--no-build) build=0; shift ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
done
mbd_check_uint --runs "$runs" 2
[[ -z $layouts ]] || mbd_check_uint --layouts "$layouts" 1
[[ -z $evict ]] || mbd_check_uint --evict-mib "$evict" 1
if [[ -n $variants ]]; then
	mbd_check_variants "$variants"
	[[ ,$variants, == *,reference-twin,* ]] || mbd_usage_error "--variants must name reference-twin"
fi
[[ -e $traces ]] || mbd_die "--traces $traces: no such file or directory"
if [[ -n $keep ]]; then
	mkdir -p -- "$keep" || mbd_die "--keep $keep: cannot make the directory"
fi

mbdiff=$(mbd_bench_mbdiff "$mbdiff" "$build")

if [[ -z $variants ]]; then
	patches=$("$mbdiff" list | awk 'NR > 1 && $2 == "patch" { print $1 }' | paste -sd, -)
	variants=reference,reference-twin${patches:+,$patches}
fi
"$mbdiff" list | awk 'NR > 1 { print $1 }' | grep -qx reference-twin ||
	mbd_die "$(mbd_rel "$mbdiff") has no reference-twin (built with MBDIFF_REFERENCE_ONLY?)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mbd-bench-twin.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT

printf '# %s\n' "$(mbd_quote scripts/bench-twin.sh "${orig_args[@]}")"
printf '# date: %s\n' "$(date -u +%Y-%m-%dT%H:%MZ)"
printf '# machine: %s\n' "$(mbd_machine)"
printf '# binary: %s (%s)\n' "$(mbd_rel "$mbdiff")" \
	"$(git -C "$MBD_ROOT" describe --always --dirty 2>/dev/null || echo unknown)"
printf '# load before: %s\n' "$(uptime)"
start=$(mbd_now)
for ((r = 1; r <= runs; r++)); do
	args=(bench ${reps:+--reps "$reps"} ${layouts:+--layouts "$layouts"} ${evict:+--evict-mib "$evict"}
		--seed "$r" --variants "$variants" "$traces")
	printf '# run %d: %s\n' "$r" "$(mbd_quote "$(mbd_rel "$mbdiff")" "${args[@]}")"
	if ! "$mbdiff" "${args[@]}" >"$tmp/run-$r.txt" 2>"$tmp/run-$r.err"; then
		cat "$tmp/run-$r.err" >&2
		mbd_die "run $r failed"
	fi
	# the summary's rows: variant mode ... ratio [lo, hi] above/below
	awk -v r="$r" '/^per boot/ { on = 1; next } /^samples taken again/ { on = 0 }
		on && $2 ~ /^(warm|cold)$/ {
			lo = $9; hi = $10; gsub(/[\[,]/, "", lo); gsub(/\]/, "", hi)
			print r, $2, $1, $8, lo, hi }' "$tmp/run-$r.txt" >>"$tmp/rows"
	sed -n 's/^\(layouts: [0-9]*\).*$/#   \1/p; s/^\(cpu: .*\)$/#   \1/p; s/^samples taken again.*: \([0-9]*\)$/#   samples retaken after a context switch: \1/p' \
		"$tmp/run-$r.txt"
	if [[ -n $keep ]]; then
		cp -- "$tmp/run-$r.txt" "$keep/run-$r.txt"
	fi
done
printf '# load after: %s\n' "$(uptime)"
printf '# %s s\n\n' "$(mbd_elapsed "$start")"
[[ -s $tmp/rows ]] || mbd_die "no summary rows in the runs' output"

awk -v runs="$runs" -v base="${variants%%,*}" '
	$3 == base { next }
	{ key = $2 SUBSEP $3; ratio[$1, key] = $4; lo[$1, key] = $5; hi[$1, key] = $6
	  if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
	function dev(x) { return x > 1 ? x - 1 : 1 - x }
	END {
		print "the twin (same code as the baseline), per run: ratio [95% CI]"
		for (m = 0; m < 2; m++) {
			mode = m ? "cold" : "warm"
			line = sprintf("  %-4s", mode)
			for (r = 1; r <= runs; r++) {
				k = mode SUBSEP "reference-twin"
				line = line sprintf("  run %d: %.3f [%.3f, %.3f]", r, ratio[r, k], lo[r, k], hi[r, k])
				if (dev(ratio[r, k]) > twin_worst[mode]) twin_worst[mode] = dev(ratio[r, k])
			}
			print line
		}
		print ""
		print "every variant against " base ", run 1 and run 2 (ratio [95% CI]), their"
		print "difference, and the largest difference between any two runs"
		printf "  %-4s  %-16s  %-22s  %-22s  %7s  %9s\n", "mode", "variant", "run 1", "run 2", "2 - 1", "max diff"
		for (i = 1; i <= n; i++) {
			split(order[i], kv, SUBSEP)
			k = order[i]; mode = kv[1]
			lo_r = hi_r = ratio[1, k]
			for (r = 2; r <= runs; r++) {
				if (ratio[r, k] < lo_r) lo_r = ratio[r, k]
				if (ratio[r, k] > hi_r) hi_r = ratio[r, k]
			}
			if (hi_r - lo_r > worst[mode]) worst[mode] = hi_r - lo_r
			printf "  %-4s  %-16s  %.3f [%.3f, %.3f]  %.3f [%.3f, %.3f]  %+7.3f  %9.3f\n",
				mode, kv[2], ratio[1, k], lo[1, k], hi[1, k],
				ratio[2, k], lo[2, k], hi[2, k], ratio[2, k] - ratio[1, k], hi_r - lo_r
		}
		print ""
		for (m = 0; m < 2; m++) {
			mode = m ? "cold" : "warm"
			printf "target %s: twin within 1.00 +- 0.02 in every run: %s (worst %.3f); every variant'"'"'s runs within 0.02: %s (worst %.3f)\n",
				mode, twin_worst[mode] <= 0.02 ? "yes" : "NO", twin_worst[mode],
				worst[mode] <= 0.02 ? "yes" : "NO", worst[mode]
		}
	}' "$tmp/rows"

# per trace: the table rows "trace variant mode ... x-base [lo, hi] faults"
echo
awk -v base="${variants%%,*}" '
	FNR == 1 { f++ }
	$3 ~ /^(warm|cold)$/ && $2 != base && $11 ~ /^\[/ {
		k = $1 SUBSEP $2 SUBSEP $3; r[f, k] = $10
		if (f == 1) mode[k] = $3
	}
	END {
		for (k in mode) {
			m = mode[k]; a = r[1, k]; b = r[2, k]
			if ((a > 1 && b < 1) || (a < 1 && b > 1)) flip[m]++
			d[m, ++n[m]] = a > b ? a - b : b - a
		}
		for (mi = 0; mi < 2; mi++) {
			m = mi ? "cold" : "warm"; c = n[m]
			for (i = 1; i <= c; i++) v[i] = d[m, i]
			for (i = 2; i <= c; i++) { x = v[i]; j = i - 1; while (j > 0 && v[j] > x) { v[j + 1] = v[j]; j-- } v[j + 1] = x }
			med = c % 2 ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
			printf "per trace, %s: %d ratios, %d on the other side of 1.00 in run 2, median |run 2 - run 1| %.3f\n",
				m, c, flip[m] + 0, med
		}
	}' "$tmp/run-1.txt" "$tmp/run-2.txt"
