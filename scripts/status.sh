#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/status.sh [--plot] [--plot-dir DIR] [--max N] CAMPAIGN_DIR
#
# Summary of a running or finished campaign directory of scripts/fuzz.sh
# or scripts/ci-fuzz.sh: engine and variants (campaign.txt), per-engine
# progress (AFL++: afl-whatsup -s on CAMPAIGN/afl; libFuzzer: the last
# status line of each log in CAMPAIGN/logs), and every crash found so far
# (CAMPAIGN/crashes/ and AFL++'s afl/*/crashes/) counted per signature.
# It only reads the campaign; it never stops or changes it.
#
# Options:
#   --plot          also draw progress graphs into the plot directory:
#                   AFL++: afl-plot per instance (index.html + PNGs);
#                   libFuzzer: coverage.svg (cov and ft against executions,
#                   from the log's "#N" lines) drawn with gnuplot
#   --plot-dir DIR  where the graphs go (default CAMPAIGN/plot)
#   --max N         signatures computed for at most N crash files (default
#                   50; each is one replay)
#   -h, --help      this text
#
# Exit status: 0 no crash, 1 crashes found, 2 bad usage or not a campaign.

set -uo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

plot=0 plot_dir='' max=50 dir=''
while (($#)); do
	case $1 in
	-h | --help) mbd_help "${BASH_SOURCE[0]}"; exit 0 ;;
	--plot) plot=1; shift ;;
	--plot-dir | --plot-dir=*) mbd_optval "$@"; plot_dir=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--max | --max=*) mbd_optval "$@"; max=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	-*) mbd_usage_error "unknown option '$1'" ;;
	*) [[ -z $dir ]] || mbd_usage_error "one campaign directory only"; dir=$1; shift ;;
	esac
done
[[ -n $dir ]] || mbd_usage_error "no campaign directory"
mbd_check_uint --max "$max"
[[ -d $dir ]] || { mbd_log "$dir: no such directory"; exit 2; }
[[ -n $plot_dir ]] || plot_dir=$dir/plot

# key=value from campaign.txt (written by fuzz.sh when it starts).
kv() { sed -n "s/^$1=//p" "$dir/campaign.txt" 2>/dev/null | tail -n 1; }
engine=$(kv engine)
if [[ -z $engine ]]; then
	if [[ -d $dir/afl ]]; then engine=afl
	elif compgen -G "$dir/logs/*.log" >/dev/null; then engine=libfuzzer
	else mbd_log "$dir: not a campaign directory (no campaign.txt, afl/ or logs/)"; exit 2
	fi
fi
variants=$(kv variants)
decoder=$(kv decoder)
min_class=$(kv min_class)
mbd_set_target_args "${variants:-$MBD_DEFAULT_VARIANTS}" "${decoder:-structured}" "$min_class" 0
printf 'campaign: %s\n' "$dir"
printf 'engine:   %s, variants %s, decoder %s, jobs %s, time %s s%s\n' "$engine" \
	"${variants:-?}" "${decoder:-?}" "$(kv jobs)" "$(kv time)" "${min_class:+, min-class $min_class}"
if [[ -f $dir/summary.txt ]]; then
	printf 'finished: %s\n' "$(tr '\n' ' ' <"$dir/summary.txt" | sed 's/ log=[^ ]*//')"
else
	printf 'finished: no (no summary.txt yet: running, or killed)\n'
fi

lf_status() {
	# The last "#N ..." line: NEW/REDUCE/pulse/DONE lines, or fork mode's.
	grep -a -E '^#[0-9]+' "$1" | tail -n 1
}

case $engine in
afl)
	if command -v afl-whatsup >/dev/null && [[ -d $dir/afl ]]; then
		echo "--- afl-whatsup -s (counts live instances only)"
		TERM=dumb afl-whatsup -s "$dir/afl" 2>/dev/null | grep -v -E '^(.*status check tool|$)'
	else
		echo "afl-whatsup: not installed or no $dir/afl"
	fi
	# Per instance from fuzzer_stats, dead ones included (afl-whatsup -s
	# leaves out a finished campaign's instances).
	echo "--- instances (fuzzer_stats)"
	printf '%-8s %8s %10s %9s %7s %7s %8s %7s\n' instance alive execs execs/s corpus edges bitmap crashes
	for st in "$dir"/afl/*/fuzzer_stats; do
		[[ -f $st ]] || continue
		awk -F' *: *' -v inst="$(basename "$(dirname "$st")")" '
			{ v[$1] = $2 }
			END {
				alive = (system("kill -0 " v["fuzzer_pid"] " 2>/dev/null") == 0) ? "yes" : "no"
				printf "%-8s %8s %10s %9.0f %7s %7s %8s %7s\n", inst, alive, v["execs_done"],
					v["execs_per_sec"], v["corpus_count"], v["edges_found"], v["bitmap_cvg"],
					v["saved_crashes"]
			}' "$st"
	done
	;;
libfuzzer)
	shopt -s nullglob
	for log in "$dir"/logs/*.log; do
		s=$(lf_status "$log")
		printf 'log %s: %s\n' "$(basename "$log")" "${s:-no status line yet}"
	done
	shopt -u nullglob
	;;
esac

# Crashes: libFuzzer's and those already gathered, then AFL++'s in place.
mapfile -t files < <(mbd_crash_files "$dir/crashes"; mbd_afl_crash_files "$dir")
declare -A seen=() count=()
n=0 done_sig=0
for f in "${files[@]}"; do
	[[ -f $f ]] || continue
	sum=$(sha1sum <"$f"); sum=${sum%% *}
	[[ -z ${seen[$sum]:-} ]] || continue
	seen[$sum]=1
	n=$((n + 1))
	if ((done_sig < max)); then
		sig=$(mbd_signature "$f" | sed 's/ at op [0-9]* / at op N /')
		done_sig=$((done_sig + 1))
	else
		sig="(not replayed: over --max)"
	fi
	count[$sig]=$((${count[$sig]:-0} + 1))
done
printf 'crashes:  %d distinct file(s)\n' "$n"
for sig in "${!count[@]}"; do
	printf '%7d %s\n' "${count[$sig]}" "$sig"
done | sort -rn

if ((plot)); then
	mkdir -p "$plot_dir"
	case $engine in
	afl)
		command -v afl-plot >/dev/null || mbd_die "afl-plot not installed (scripts/setup.sh)"
		for inst in "$dir"/afl/*/; do
			inst=$(basename "$inst")
			[[ -f $dir/afl/$inst/plot_data ]] || continue
			if afl-plot "$dir/afl/$inst" "$plot_dir/$inst" >"$plot_dir/$inst.log" 2>&1; then
				printf 'plot:     %s/%s/index.html\n' "$plot_dir" "$inst"
			else
				mbd_warn "afl-plot failed for $inst (see $plot_dir/$inst.log)"
			fi
		done
		;;
	libfuzzer)
		command -v gnuplot >/dev/null || mbd_die "gnuplot not installed (scripts/setup.sh)"
		data=$plot_dir/libfuzzer.dat
		# execs cov ft, from every "#N ... cov: C ft: F" line of every log.
		cat "$dir"/logs/*.log 2>/dev/null | grep -a -E '^#[0-9]+' |
			sed -n 's/^#\([0-9]*\)[^c]*cov: \([0-9]*\) ft: \([0-9]*\).*/\1 \2 \3/p' |
			sort -n -k1,1 >"$data"
		if [[ ! -s $data ]]; then
			mbd_warn "no '#N ... cov: ft:' lines in $dir/logs: nothing to plot"
		else
			gnuplot <<GP
set terminal svg size 800,480
set output '$plot_dir/coverage.svg'
set title 'libFuzzer: $(basename "$dir")'
set xlabel 'executions'
set ylabel 'count'
set key left top
plot '$data' using 1:2 with lines title 'cov (edges)', \
     '$data' using 1:3 with lines title 'ft (features)'
GP
			printf 'plot:     %s/coverage.svg (%d points)\n' "$plot_dir" "$(wc -l <"$data")"
		fi
		;;
	esac
fi
((n == 0))
