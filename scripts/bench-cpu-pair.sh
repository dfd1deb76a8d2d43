#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/bench-cpu-pair.sh [options] BIN_A BIN_B
#
# Two fuzz_diff builds that should do the same work, timed against each
# other (docs/speed.md): for each libFuzzer seed, both run the same
# campaign REPS times, interleaved (A, B, A, B, ...), and the lowest CPU
# time (user + system) of each is kept, since other load only ever adds
# to it. It prints one line a seed: both minima, B/A, and whether the
# two campaigns took the same path (libFuzzer's final "DONE" line, its
# coverage, features and corpus, equal). A CPU comparison means something
# only on the same path; with different paths use scripts/bench-speed.sh.
#
# Options:
#   --seeds LIST      libFuzzer -seed values, comma-separated (default 3,5,8)
#   --reps N          runs of each build per seed (default 5)
#   --runs N          libFuzzer -runs of each campaign (default 300000)
#   --variants A,B    default reference,zhou-2025
#   --max-len N       -max_len (default 211)
#   --work DIR        logs (default out/bench-cpu-pair-<date>)
#   -h, --help        this text
# Exit: 0 when every seed took the same path in both builds, 1 when one
# did not, 2 on bad arguments or a campaign that failed.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

seeds=3,5,8
reps=5
runs=300000
variants=$MBD_DEFAULT_VARIANTS
max_len=211
work=
bins=()
while (($#)); do
	case $1 in
	--seeds | --seeds=*) mbd_optval "$@"; seeds=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--reps | --reps=*) mbd_optval "$@"; reps=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--runs | --runs=*) mbd_optval "$@"; runs=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--variants | --variants=*) mbd_optval "$@"; variants=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--max-len | --max-len=*) mbd_optval "$@"; max_len=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--work | --work=*) mbd_optval "$@"; work=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	-*) mbd_usage_error "unknown option '$1'" ;;
	*) bins+=("$1"); shift ;;
	esac
done
((${#bins[@]} == 2)) || mbd_usage_error "expected two fuzz_diff binaries, got ${#bins[@]}"
for b in "${bins[@]}"; do
	[[ -f $b && -x $b ]] || mbd_usage_error "'$b' is not an executable file"
done
mbd_check_variants "$variants"
for o in reps runs max_len; do
	mbd_check_uint "--${o//_/-}" "${!o}"
done
IFS=, read -r -a seed_list <<<"$seeds"
((${#seed_list[@]})) || mbd_usage_error "--seeds: no seed given"
for s in "${seed_list[@]}"; do
	mbd_check_uint --seeds "$s" 0
done
command -v /usr/bin/time >/dev/null 2>&1 || mbd_die "/usr/bin/time not found (Debian package 'time')"
work=$(mbd_abs "${work:-$MBD_OUT/bench-cpu-pair-$(mbd_timestamp)}")
mkdir -p "$work"
mbd_trap_signals

# campaign WHICH(a|b) SEED REP: sets cpu (user + system s) and final (the
# DONE line without its timing fields).
campaign() {
	local which=$1 seed=$2 rep=$3 bin log
	if [[ $which == a ]]; then bin=${bins[0]}; else bin=${bins[1]}; fi
	log=$work/$which-seed$seed-rep$rep
	mbd_spawn /usr/bin/time -f '%U %S' -o "$log.time" "$bin" "-runs=$runs" \
		"-max_len=$max_len" -len_control=0 "-seed=$seed" -timeout=30 \
		"--variants=$variants" --decoder=structured --min-class=crash >"$log.log" 2>&1
	mbd_wait "$MBD_LAST_PID"
	if [[ -n $MBD_INTERRUPTED ]]; then mbd_die "interrupted; logs in $(mbd_rel "$work")"; fi
	((MBD_WAIT_RC == 0)) || mbd_die "$bin -seed=$seed exited $MBD_WAIT_RC: $(mbd_rel "$log.log")"
	grep -q 'DONE' "$log.log" || mbd_die "no DONE line in $(mbd_rel "$log.log")"
	cpu=$(tail -n 1 "$log.time" | awk '{ printf "%.2f", $1 + $2 }')
	final=$(grep -m 1 'DONE' "$log.log" | sed 's/exec\/s:.*//; s/^#[0-9]*[[:space:]]*//')
}

lower() { awk -v a="$1" -v b="$2" 'BEGIN { print ((a == "" || b + 0 < a + 0) ? b : a) }'; }

echo "# bench-cpu-pair: A = ${bins[0]}, B = ${bins[1]}"
echo "# -runs=$runs -max_len=$max_len --variants=$variants, lowest CPU s of $reps interleaved runs"
echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC'); load average: $(uptime | sed 's/.*load average: //')"
status=0
for s in "${seed_list[@]}"; do
	min_a= min_b= final_a= final_b=
	for ((r = 1; r <= reps; r++)); do
		campaign a "$s" "$r"
		min_a=$(lower "$min_a" "$cpu")
		final_a=$final
		campaign b "$s" "$r"
		min_b=$(lower "$min_b" "$cpu")
		final_b=$final
	done
	path="same path"
	if [[ $final_a != "$final_b" ]]; then
		path="different paths ($final_a | $final_b)"
		status=1
	fi
	ratio=$(awk -v a="$min_a" -v b="$min_b" 'BEGIN { printf "%.3f", (a > 0 ? b / a : 0) }')
	echo "seed $s: A $min_a s, B $min_b s, B/A $ratio, $path"
done
exit "$status"
