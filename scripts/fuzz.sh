#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/fuzz.sh [options] [-- ENGINE-ARGS...]
#
# Run a differential fuzzing campaign and summarize it: execs, execs/s and
# every crash found, with its signature (from `mbdiff replay`) and the
# command that replays it.
#
# Options:
#   --engine E       libfuzzer (default; build/fuzz/fuzz_diff) or afl
#                    (build/afl/afl_diff, plus afl_diff.cmplog when built)
#   --time S         seconds to fuzz (default 600; 0 = until interrupted)
#   --jobs N         parallel fuzzers (default 1): libFuzzer -fork=N; AFL++
#                    one -M and N-1 -S instances, one of them with CMPLOG
#   --variants A,B   variants to run in lockstep (default reference,zhou-2025)
#   --decoder D      structured (default) or naive byte decoder
#   --min-class C    ignore differences below class C (warning capacity
#                    layout return invariant coverage panic; default
#                    capacity: a WARN count alone is not reported)
#   --no-oracle      compare the variants only, without the oracle
#   --known FILE     known differences (tests/algorithms/kernel-trees/known/,
#                    docs/fidelity.md): inputs whose divergence FILE lists
#                    are no crash; the summary lists the distinct ones seen
#                    (libFuzzer only)
#   --seeds DIR      seed inputs (default corpus/seeds; .mbt files are
#                    converted with `mbdiff convert` into OUT/corpus)
#                    ("real" = corpus/real, traces of real boots; their
#                    expect lines are dropped, traces over 64 ops skipped;
#                    "boots" = corpus/boots/seeds, the first 64 calls of
#                    each boot-lab boot, docs/boot-lab.md)
#   --no-seeds       start from an empty corpus
#   --dict FILE      dictionary (default corpus/mbdiff.dict if it exists)
#   --no-dict        no dictionary
#   --out DIR        campaign directory (default out/fuzz-<engine>-<date>)
#   --binary FILE    fuzz target to run instead of the default one (e.g.
#                    build/fuzz-plain/fuzz_diff)
#   --quiet          engine output only to the log; a progress line every 10 s
#   -h, --help       this text
# Arguments after "--" go to the engine: libFuzzer flags (-max_len=256
# ...) or afl-fuzz options (-p explore ...).
#
# Campaign directory: corpus/ (inputs; AFL++ reads its seeds there),
# crashes/ (every finding; AFL++ ones copied there under readable names),
# afl/ (AFL++ output), logs/, crashes.txt (signatures and replay
# commands), summary.txt (key=value figures).
#
# Exit status: 0 no crash, 1 crashes found, 2 bad usage, 3 the engine
# failed, 128+N stopped by signal N without a crash.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

orig_args=("$@")
engine=libfuzzer
time_s=600
jobs=1
variants=$MBD_DEFAULT_VARIANTS
decoder=structured
min_class=$MBD_DEFAULT_CLASS
no_oracle=0
known=
seeds=$MBD_ROOT/corpus/seeds
seeds_explicit=0
dict=
dict_mode=default
out=
binary=
quiet=0
engine_args=()
while (($#)); do
	case $1 in
	--engine | --engine=*) mbd_optval "$@"; engine=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--time | --time=*) mbd_optval "$@"; time_s=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--jobs | --jobs=*) mbd_optval "$@"; jobs=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--variants | --variants=*) mbd_optval "$@"; variants=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--decoder | --decoder=*) mbd_optval "$@"; decoder=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--min-class | --min-class=*) mbd_optval "$@"; min_class=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--seeds | --seeds=*) mbd_optval "$@"; seeds=$MBD_OPTVAL; seeds_explicit=1; shift "$MBD_SHIFT" ;;
	--dict | --dict=*) mbd_optval "$@"; dict=$MBD_OPTVAL; dict_mode="file"; shift "$MBD_SHIFT" ;;
	--out | --out=*) mbd_optval "$@"; out=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--binary | --binary=*) mbd_optval "$@"; binary=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--known | --known=*) mbd_optval "$@"; known=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--no-oracle) no_oracle=1; shift ;;
	--no-seeds) seeds=; shift ;;
	--no-dict) dict_mode=none; shift ;;
	--quiet | -q) quiet=1; shift ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	--) shift; engine_args=("$@"); break ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
done

mbd_check_engine "$engine"
if [[ -n $binary && ! -x $binary ]]; then
	mbd_usage_error "--binary '$binary' is not an executable file"
fi
mbd_check_uint --time "$time_s" 0
mbd_check_uint --jobs "$jobs"
mbd_check_variants "$variants"
mbd_check_decoder "$decoder"
if [[ -n $min_class ]]; then mbd_check_class "$min_class"; fi
mbd_set_target_args "$variants" "$decoder" "$min_class" "$no_oracle"
if [[ -n $known ]]; then
	[[ $engine == libfuzzer ]] || mbd_usage_error "--known works with --engine libfuzzer only"
	[[ -r $known ]] || mbd_usage_error "--known: cannot read '$known'"
	known=$(mbd_abs "$known")
fi
pair=$(mbd_pair_name "$variants")

case $dict_mode in
default)
	if [[ -f $MBD_ROOT/corpus/mbdiff.dict ]]; then dict=$MBD_ROOT/corpus/mbdiff.dict; fi
	;;
file) [[ -f $dict ]] || mbd_usage_error "dictionary '$dict' not found" ;;
none) dict= ;;
esac
if [[ -n $dict ]]; then dict=$(mbd_abs "$dict"); fi
# "--seeds real": the traces imported from real boot logs (docs/real-boots.md)
if [[ $seeds == real ]]; then seeds=$MBD_ROOT/corpus/real; fi
# "--seeds boots": the first 64 calls of each boot-lab boot (docs/boot-lab.md)
if [[ $seeds == boots ]]; then seeds=$MBD_ROOT/corpus/boots/seeds; fi
if ((seeds_explicit)) && [[ ! -d $seeds ]]; then
	mbd_usage_error "seed directory '$seeds' not found"
fi

# ---------------------------------------------------------------- binaries
cmplog=
if [[ $engine == libfuzzer ]]; then
	bin=${binary:-$(mbd_prog fuzz fuzz_diff)}
	mbd_require_bin "$bin" fuzz
else
	command -v afl-fuzz >/dev/null 2>&1 || mbd_die "afl-fuzz not found; install afl++ with: bash scripts/setup.sh"
	bin=${binary:-$(mbd_prog afl afl_diff)}
	mbd_require_bin "$bin" afl
	if [[ -x $bin.cmplog ]]; then
		cmplog=$bin.cmplog
	else
		mbd_warn "$(mbd_rel "$bin").cmplog not found: fuzzing without CMPLOG"
	fi
fi
bin=$(mbd_abs "$bin")

# ---------------------------------------------------------------- campaign dir
out=${out:-$MBD_OUT/fuzz-$engine-$(mbd_timestamp)}
out=$(mbd_abs "$out")
mkdir -p "$out/corpus" "$out/crashes" "$out/logs" || mbd_die "cannot create $out"

mbd_trap_signals

if [[ -n $seeds ]] && [[ -d $seeds ]]; then
	nseeds=$(mbd_prepare_seeds "$seeds" "$out/corpus" "$decoder")
	if ((nseeds == 0)); then
		mbd_log "no seeds in $(mbd_rel "$seeds")"
	else
		mbd_log "seeds: $nseeds from $(mbd_rel "$seeds")"
	fi
elif [[ -n $seeds ]]; then
	mbd_log "no seed directory $(mbd_rel "$seeds"): starting from an empty corpus"
fi
if [[ $engine == afl ]] && [[ -z $(ls -A "$out/corpus") ]]; then
	# afl-fuzz needs one input; every byte string decodes to a valid trace.
	printf '\0\0\0\0\0\0\0\0' >"$out/corpus/empty-seed"
fi

{
	printf 'command=%s\n' "$(mbd_quote "$0" "${orig_args[@]}")"
	printf 'date=%s\n' "$(date -Is)"
	printf 'engine=%s\nvariants=%s\ndecoder=%s\ntime=%s\njobs=%s\n' \
		"$engine" "$variants" "$decoder" "$time_s" "$jobs"
	printf 'binary=%s\ndict=%s\nmin_class=%s\n' "$(mbd_rel "$bin")" "${dict:+$(mbd_rel "$dict")}" "$min_class"
} >"$out/campaign.txt"

if [[ -n $MBD_INTERRUPTED ]]; then
	mbd_die "interrupted by SIG$MBD_INTERRUPTED before the engine started"
fi

# Run "$@" with its cwd in the campaign dir (so stray files stay there),
# under a watchdog a little longer than the time box.
# shellcheck disable=SC2317 # called through mbd_spawn
in_campaign() {
	cd "$out" || exit 1
	if ((time_s > 0)); then
		exec timeout --signal=TERM --kill-after=30 "$((time_s + 120))" "$@"
	fi
	exec "$@"
}

start=$(mbd_now)
engine_rcs=()
main_log=

run_libfuzzer() {
	local cmd=("$bin" "-artifact_prefix=$out/crashes/" -print_final_stats=1 -timeout=10)
	if ((time_s > 0)); then cmd+=("-max_total_time=$time_s"); fi
	if ((jobs > 1)); then cmd+=("-fork=$jobs"); fi
	if [[ -n $dict ]]; then cmd+=("-dict=$dict"); fi
	cmd+=("${engine_args[@]}" "${MBD_TARGET_ARGS[@]}")
	if [[ -n $known ]]; then cmd+=("--known=$known"); fi
	cmd+=("$out/corpus")
	main_log=$out/logs/libfuzzer.log
	mbd_quote "${cmd[@]}" >"$out/logs/command.txt"
	mbd_log "libFuzzer $pair for ${time_s}s, $jobs job(s), decoder $decoder -> $(mbd_rel "$out")"
	mbd_spawn in_campaign "${cmd[@]}" >"$main_log" 2>&1
}

run_afl() {
	local i name cmd
	export AFL_NO_UI=${AFL_NO_UI:-1}
	export AFL_SKIP_CPUFREQ=${AFL_SKIP_CPUFREQ:-1}
	export AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=${AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES:-1}
	# Continue an existing campaign directory instead of refusing it.
	export AFL_AUTORESUME=${AFL_AUTORESUME:-1}
	# Bind to a free core when there is one, but never refuse to start
	# (containers often hide the real CPU set).
	if [[ -z ${AFL_NO_AFFINITY:-} ]]; then export AFL_TRY_AFFINITY=${AFL_TRY_AFFINITY:-1}; fi
	: >"$out/logs/command.txt"
	mbd_log "AFL++ $pair for ${time_s}s, $jobs instance(s), decoder $decoder -> $(mbd_rel "$out")"
	for ((i = 0; i < jobs; i++)); do
		cmd=(afl-fuzz -i "$out/corpus" -o "$out/afl")
		if ((time_s > 0)); then cmd+=(-V "$time_s"); fi
		if [[ -n $dict ]]; then cmd+=(-x "$dict"); fi
		if ((jobs == 1)); then
			name=default
			if [[ -n $cmplog ]]; then cmd+=(-c "$cmplog"); fi
		elif ((i == 0)); then
			name=main
			cmd+=(-M main)
		else
			name=sec$i
			cmd+=(-S "$name")
			if ((i == 1)) && [[ -n $cmplog ]]; then cmd+=(-c "$cmplog"); fi
		fi
		cmd+=("${engine_args[@]}" -- "$bin" "${MBD_TARGET_ARGS[@]}")
		mbd_quote "${cmd[@]}" >>"$out/logs/command.txt"
		mbd_spawn in_campaign "${cmd[@]}" >"$out/logs/afl-$name.log" 2>&1
		if ((i == 0)); then main_log=$out/logs/afl-$name.log; fi
	done
}

progress() {
	local execs crashes
	if [[ $engine == libfuzzer ]]; then
		execs=$(mbd_lf_execs "$main_log")
	else
		execs=$(mbd_afl_stat "$out" execs_done)
	fi
	if [[ $engine == afl ]]; then
		# fuzzer_stats is rewritten about once a minute; the files are live.
		crashes=$(mbd_afl_crash_files "$out" | wc -l)
		execs="$execs (at the last stats update)"
	else
		crashes=$(mbd_crash_files "$out/crashes" | wc -l)
	fi
	mbd_log "[$(mbd_elapsed "$start" | cut -d. -f1)/${time_s} s] execs $execs, crashes $crashes"
}

if [[ $engine == libfuzzer ]]; then run_libfuzzer; else run_afl; fi

tail_pid=
if ((!quiet)); then
	tail -n +1 -f --pid="${MBD_CHILD_PIDS[0]}" "$main_log" >&2 &
	tail_pid=$!
fi

# Wait for every instance; tick once a second so signals are handled at
# once, and print progress every 10 s when quiet.
ticks=0
for pid in "${MBD_CHILD_PIDS[@]}"; do
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1 &
		wait "$!" 2>/dev/null || true
		ticks=$((ticks + 1))
		if ((quiet && ticks % 10 == 0)); then progress; fi
	done
	mbd_wait "$pid"
	engine_rcs+=("$MBD_WAIT_RC")
done
mbd_reap_killers
if [[ -n $tail_pid ]]; then wait "$tail_pid" 2>/dev/null || true; fi
seconds=$(mbd_elapsed "$start")

# ---------------------------------------------------------------- summary
mbd_gather_crashes "$out"
if [[ $engine == libfuzzer ]]; then
	execs=$(mbd_lf_execs "$main_log")
	eps=$(mbd_lf_stat "$main_log" average_exec_per_sec)
	# Fork mode's final stats are one child's; short runs round to 0.
	if ((jobs > 1)) || [[ -z $eps || $eps == 0 ]]; then eps=$(mbd_rate "$execs" "$seconds"); fi
else
	execs=$(mbd_afl_stat "$out" execs_done)
	eps=$(mbd_afl_stat "$out" execs_per_sec)
	if [[ $eps == 0 ]]; then eps=$(mbd_rate "$execs" "$seconds"); fi
fi

echo
echo "== fuzz.sh summary: $pair ($engine, decoder $decoder) =="
printf 'time:     %s s (limit %s s)%s\n' "$seconds" "$time_s" "${MBD_INTERRUPTED:+, stopped by SIG$MBD_INTERRUPTED}"
printf 'execs:    %s (%s execs/s)\n' "$execs" "$eps"
printf 'engine:   exit %s\n' "${engine_rcs[*]}"
mbd_report_crashes "$out" >"$out/logs/crash-report.txt"
printf 'crashes:  %s in %s\n' "$MBD_CRASH_COUNT" "$(mbd_rel "$out/crashes")"
cat "$out/logs/crash-report.txt"
rm -f "$out/logs/crash-report.txt"
printf 'log:      %s\n' "$(mbd_rel "$main_log")"
n_known=0
if [[ -n $known ]]; then
	# the target prints each distinct known signature once per process
	find "$out" -name '*.log' -exec sed -n 's/^mbdiff: known difference: //p' {} + |
		sort -u >"$out/known-seen.txt"
	n_known=$(wc -l <"$out/known-seen.txt")
	printf 'known:    %s distinct known differences (%s), not crashes:\n' "$n_known" "$(mbd_rel "$known")"
	sed 's/^/  /' "$out/known-seen.txt"
	printf 'unexplained: %s crash file(s) above\n' "$MBD_CRASH_COUNT"
fi

{
	printf 'engine=%s\nengine_rc=%s\nseconds=%s\nexecs=%s\nexecs_per_sec=%s\n' \
		"$engine" "${engine_rcs[*]}" "$seconds" "$execs" "$eps"
	printf 'crashes=%s\ninterrupted=%s\nlog=%s\n' "$MBD_CRASH_COUNT" "$MBD_INTERRUPTED" "$main_log"
	printf 'known=%s\nknown_distinct=%s\n' "$known" "$n_known"
} >"$out/summary.txt"

if ((MBD_CRASH_COUNT > 0)); then
	exit 1
fi
if [[ -n $MBD_INTERRUPTED ]]; then
	exit "$((128 + $(kill -l "$MBD_INTERRUPTED")))"
fi
# libFuzzer: 0 at the time limit; anything else without a crash file is a
# failure of the engine or the target (bad option, init error).
for rc in "${engine_rcs[@]}"; do
	if ((rc != 0)); then
		mbd_warn "the engine exited with status $rc and saved no crash; last lines of $(mbd_rel "$main_log"):"
		tail -n 15 "$main_log" >&2
		exit 3
	fi
done
exit 0
