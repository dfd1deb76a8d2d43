#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/bench-real.sh [options]
#
# What the memblock calls of a real boot cost in each variant: runs
# `mbdiff bench` over corpus/real/*.mbt (warm and cold, every variant
# interleaved with the baseline) and writes
#   docs/real-boots-bench.csv  one row per trace, variant and mode
#   docs/real-boots-bench.txt  the table, with the command, date and machine
#   docs/real-boots-bench.svg  per-trace cost by variant (gnuplot)
# then prints the per-boot figures. docs/real-boots.md explains them.
#
# Options:
#   --variants A,B,...  first is the baseline (default: reference, then every
#                       reference, patch and kernel variant of the binary;
#                       mutants are left out)
#   --reps N            timed replays per trace, variant and mode (default 100)
#   --out-dir DIR       where the three files go (default docs)
#   --mbdiff FILE       the binary (default $MBDIFF, else build/default/mbdiff)
#   --no-build          do not run scripts/build.sh default first (it is
#                       run only for the default binary, and is quick when
#                       nothing changed)
#   -h, --help          this text
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

orig_args=("$@")
variants=
reps=100
out_dir=$MBD_ROOT/docs
mbdiff=
build=1
while (($#)); do
	case $1 in
	--variants | --variants=*) mbd_optval "$@"; variants=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--reps | --reps=*) mbd_optval "$@"; reps=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--out-dir | --out-dir=*) mbd_optval "$@"; out_dir=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--mbdiff | --mbdiff=*) mbd_optval "$@"; mbdiff=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--no-build) build=0; shift ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
done
if [[ -n $variants ]]; then mbd_check_variants "$variants"; fi
mbd_check_uint --reps "$reps"
[[ -d $out_dir ]] || mbd_die "--out-dir $(mbd_rel "$out_dir") is not a directory"
command -v gnuplot >/dev/null 2>&1 || mbd_die "gnuplot not installed (bash scripts/setup.sh installs gnuplot-nox)"

mbdiff=$(mbd_bench_mbdiff "$mbdiff" "$build")

if [[ -z $variants ]]; then
	variants=$("$mbdiff" list | awk 'NR > 1 && ($2 == "reference" || $2 == "patch" || $2 == "kernel") { print $1 }' |
		awk '$1 == "reference" { print; next } { rest = rest $1 "\n" } END { printf "%s", rest }' |
		paste -sd, -)
fi
[[ -n $variants ]] || mbd_die "no reference or patch variant in $(mbd_rel "$mbdiff")"

csv=$out_dir/real-boots-bench.csv
txt=$out_dir/real-boots-bench.txt
svg=$out_dir/real-boots-bench.svg
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mbd-bench-real.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT

# Relative names in what is committed: the command can be pasted in the root.
cd "$MBD_ROOT"
cmd=("$(mbd_rel "$mbdiff")" bench --reps "$reps" --variants "$variants"
	--csv "$(mbd_rel "$csv")" corpus/real)
mbd_log "running: $(mbd_quote "${cmd[@]}") (a few minutes: every cold sample sweeps the caches)"
start=$(mbd_now)
if ! "$mbdiff" bench --reps "$reps" --variants "$variants" --csv "$tmp/bench.csv" \
	corpus/real >"$tmp/table.txt"; then
	mbd_die "mbdiff bench failed"
fi
sed -i "s|^wrote $tmp/bench.csv\$|wrote $(mbd_rel "$csv")|" "$tmp/table.txt"
{
	printf '# %s\n' "$(mbd_quote "scripts/bench-real.sh" "${orig_args[@]}")"
	printf '# runs: %s\n' "$(mbd_quote "${cmd[@]}")"
	printf '# date: %s, %s s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$(mbd_elapsed "$start")"
	printf '# machine: %s\n' "$(mbd_machine)"
	printf '# binary: %s (%s)\n' "$(mbd_rel "$mbdiff")" \
		"$(git -C "$MBD_ROOT" describe --always --dirty 2>/dev/null || echo unknown)"
	cat "$tmp/table.txt"
} >"$tmp/table.out"

# ---- the plot: median ns per boot by trace, one line per variant ----
# data: one block per variant ("index" in gnuplot), x = trace number;
# a variant keeps its line type in every panel
mapfile -t names < <(tr , '\n' <<<"$variants")
awk -F, 'NR > 1 && !seen[$1]++ { n++; printf "%d %s\n", n, $1 }' "$tmp/bench.csv" >"$tmp/traces"
ntraces=$(wc -l <"$tmp/traces")
for mode in cold warm; do
	for v in "${names[@]}"; do
		awk -F, -v v="$v" -v m="$mode" 'NR > 1 && $3 == v && $5 == m { n++; print n, $9, $15 }' \
			"$tmp/bench.csv"
		printf '\n\n'
	done >"$tmp/$mode.dat"
done
xtics=$(awk '{ printf "%s\"%s\" %d", (NR > 1 ? ", " : ""), substr($2, 1, 2), $1 }' "$tmp/traces")
plots_ns() { # MODE
	local i sep=
	for i in "${!names[@]}"; do
		printf '%s"%s" index %d using 1:2 with linespoints lt %d title "%s"' \
			"$sep" "$tmp/$1.dat" "$i" "$((i + 1))" "${names[$i]}"
		sep=", "
	done
}
plots_ratio() {
	local i sep=
	for i in "${!names[@]}"; do
		((i == 0)) && continue
		printf '%s"%s" index %d using 1:3 with linespoints lt %d title "%s"' \
			"$sep" "$tmp/cold.dat" "$i" "$((i + 1))" "${names[$i]}"
		sep=", "
	done
}
gnuplot <<GP
set terminal svg size 1100,1150 dynamic font "DejaVu Sans,11" background "#ffffff"
set output "$tmp/plot.svg"
set multiplot layout 3,1 title "memblock calls of one boot, by trace (corpus/real, $reps replays each; mbdiff bench)"
set key outside right top
set grid ytics
set xrange [0.5:$ntraces + 0.5]
set xtics ($xtics) font ",9"
set xlabel "trace (corpus/real/NN-*.mbt)"
set logscale y
set ylabel "ns per boot, median"
set title "cold: caches swept before each replay"
plot $(plots_ns cold)
set title "warm: the same variant replayed just before"
plot $(plots_ns warm)
unset logscale y
set ylabel "x baseline (cold), per-round median"
set title "ratio to ${names[0]}, measured interleaved (1 = same cost)"
plot $(plots_ratio), 1 with lines lc rgb "#888888" dt 2 notitle
unset multiplot
GP

mv -f -- "$tmp/bench.csv" "$csv"
mv -f -- "$tmp/table.out" "$txt"
mv -f -- "$tmp/plot.svg" "$svg"
mbd_log "wrote $(mbd_rel "$csv"), $(mbd_rel "$txt"), $(mbd_rel "$svg")"
sed -n '/^per boot/,/^$/p' "$txt"
