#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/bench-fuzz.sh [options]
#
# Measure the fuzzing figures and write them as markdown to
# docs/fuzz-figures.md (with the command line, date and machine):
#  1. throughput: execs/s of build/fuzz/fuzz_diff (ASan+UBSan) and
#     build/fuzz-plain/fuzz_diff (no sanitizers), from libFuzzer's
#     stat::average_exec_per_sec (-print_final_stats=1), -max_len sized
#     for traces of about --ops calls;
#  2. time to the first divergence from an empty corpus: seconds and
#     execs, median over --runs libFuzzer seeds (-seed=1..N), with the
#     structured and the naive decoder, each run capped at --cap seconds
#     ("not found in T s" when fewer than half of the runs find one).
#
# Options:
#   --variants A,B   default reference,zhou-2025
#   --min-class C    part 2 counts only divergences of class C or worse (default
#                    warning: any difference, as docs/ measured; the
#                    campaigns' default is capacity)
#                    (e.g. coverage)
#   --exec-time S    seconds per throughput measurement (default 30)
#   --cap S          time limit of each part-2 run (default 120)
#   --runs N         part-2 runs per decoder (default 5)
#   --ops N          trace length -max_len is sized for (default 32)
#   --max-len N      use this -max_len for every run instead
#   --target T       part-2 binary: asan (build/fuzz, default) or plain
#                    (build/fuzz-plain)
#   --dict FILE      use a dictionary in part 2 (default: none)
#   --only P         run only part 1 (throughput) or 2 (divergence)
#   --out FILE       markdown output (default docs/fuzz-figures.md)
#   --work DIR       logs and crash files (default out/bench-fuzz-<date>)
#   --no-build       do not run scripts/build.sh default fuzz fuzz-plain
#   -h, --help       this text
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

orig_args=("$@")
variants=$MBD_DEFAULT_VARIANTS
min_class=warning
exec_time=30
cap=120
runs=5
ops=32
max_len=
target=asan
dict=
only=
out_md=$MBD_ROOT/docs/fuzz-figures.md
work=
build=1
while (($#)); do
	case $1 in
	--variants | --variants=*) mbd_optval "$@"; variants=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--min-class | --min-class=*) mbd_optval "$@"; min_class=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--exec-time | --exec-time=*) mbd_optval "$@"; exec_time=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--cap | --cap=*) mbd_optval "$@"; cap=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--runs | --runs=*) mbd_optval "$@"; runs=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--ops | --ops=*) mbd_optval "$@"; ops=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--max-len | --max-len=*) mbd_optval "$@"; max_len=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--target | --target=*) mbd_optval "$@"; target=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--dict | --dict=*) mbd_optval "$@"; dict=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--only | --only=*) mbd_optval "$@"; only=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--out | --out=*) mbd_optval "$@"; out_md=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--work | --work=*) mbd_optval "$@"; work=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--no-build) build=0; shift ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
done
mbd_check_variants "$variants"
if [[ -n $min_class ]]; then mbd_check_class "$min_class"; fi
mbd_check_uint --exec-time "$exec_time"
mbd_check_uint --cap "$cap"
mbd_check_uint --runs "$runs"
mbd_check_uint --ops "$ops"
if [[ -n $max_len ]]; then mbd_check_uint --max-len "$max_len"; fi
case $target in asan | plain) ;; *) mbd_usage_error "--target must be asan or plain" ;; esac
case $only in '' | 1 | 2) ;; *) mbd_usage_error "--only must be 1 or 2" ;; esac
if [[ -n $dict ]]; then
	[[ -f $dict ]] || mbd_usage_error "dictionary '$dict' not found"
	dict=$(mbd_abs "$dict")
fi
pair=$(mbd_pair_name "$variants")
out_md=$(mbd_abs "$out_md")
work=$(mbd_abs "${work:-$MBD_OUT/bench-fuzz-$(mbd_timestamp)}")

if ((build)); then
	bash "$MBD_ROOT/scripts/build.sh" default fuzz fuzz-plain
fi
asan_bin=$(mbd_prog fuzz fuzz_diff)
plain_bin=$(mbd_prog fuzz-plain fuzz_diff)
mbdiff=$(mbd_mbdiff)
mbd_require_bin "$mbdiff" default
if [[ $only != 2 ]]; then
	mbd_require_bin "$asan_bin" fuzz
	mbd_require_bin "$plain_bin" fuzz-plain
fi
if [[ $target == plain ]]; then div_bin=$plain_bin; else div_bin=$asan_bin; fi
if [[ $only != 1 ]]; then
	mbd_require_bin "$div_bin" "$([[ $target == plain ]] && echo fuzz-plain || echo fuzz)"
fi
mkdir -p "$work"
mbd_trap_signals

# ---------------------------------------------------------------- -max_len
# Bytes per call of a decoder, measured: decode random inputs with
# `mbdiff convert` (binary -> .mbt) and count the calls.
bytes_per_op() {
	local dec=$1 len=256 i n total_ops=0 total_bytes=0 f
	for ((i = 0; i < 20; i++)); do
		f=$work/sample-$dec-$i
		head -c "$len" /dev/urandom >"$f.bin"
		if ! "$mbdiff" convert "--decoder=$dec" "$f.bin" -o "$f.mbt" >/dev/null 2>&1; then
			rm -f "$f.bin" "$f.mbt"
			continue
		fi
		n=$(grep -cvE '^[[:space:]]*(#|config|expect|$)' "$f.mbt" || true)
		rm -f "$f.bin" "$f.mbt"
		# 64 calls is the decoder's cap: such a sample says nothing.
		if ((n > 0 && n < 64)); then
			total_ops=$((total_ops + n))
			total_bytes=$((total_bytes + len - 3))
		fi
	done
	if ((total_ops == 0)); then
		# The documented averages (docs/binary-format.md) as a fallback.
		if [[ $dec == naive ]]; then echo 15; else echo 6; fi
		return 0
	fi
	awk -v b="$total_bytes" -v n="$total_ops" 'BEGIN { printf "%.1f\n", b / n }'
}

declare -A bpo len_for
for dec in structured naive; do
	if [[ -n $max_len ]]; then
		len_for[$dec]=$max_len
		bpo[$dec]=-
	else
		bpo[$dec]=$(bytes_per_op "$dec")
		len_for[$dec]=$(awk -v b="${bpo[$dec]}" -v n="$ops" 'BEGIN { printf "%d\n", 3 + b * n + 0.5 }')
	fi
done
mbd_log "-max_len: structured ${len_for[structured]} (${bpo[structured]} bytes/call), naive ${len_for[naive]} (${bpo[naive]} bytes/call), for ~$ops calls"

# One libFuzzer run under a watchdog. Sets run_secs, run_execs, run_eps,
# run_rc, run_crash (the crash file or "").
lf_run() {
	local name=$1 bin=$2
	shift 2
	local dir=$work/$name t0
	rm -rf -- "$dir"
	mkdir -p "$dir/corpus" "$dir/crashes"
	t0=$(mbd_now)
	mbd_spawn timeout --kill-after=10 "$((cap + exec_time + 120))" "$bin" \
		"-artifact_prefix=$dir/crashes/" -print_final_stats=1 -timeout=10 \
		"$@" "$dir/corpus" >"$dir/log" 2>&1
	mbd_wait "$MBD_LAST_PID"
	run_rc=$MBD_WAIT_RC
	run_secs=$(mbd_elapsed "$t0")
	run_execs=$(mbd_lf_execs "$dir/log")
	run_eps=$(mbd_lf_stat "$dir/log" average_exec_per_sec)
	run_crash=$(mbd_crash_files "$dir/crashes" | head -n 1)
	rm -rf -- "$dir/corpus"
	if [[ -n $MBD_INTERRUPTED ]]; then
		mbd_die "interrupted; partial logs in $(mbd_rel "$work")"
	fi
}

# ---------------------------------------------------------------- part 1
tp_rows=()
throughput() {
	local label=$1 bin=$2 san=$3 k=0 secs_sum=0 execs_sum=0 eps note
	# --min-class=crash: every call is still run, compared and checked by
	# the oracle, but no difference aborts, so the run measures the steady
	# state instead of process start-up and the first finding.
	mbd_set_target_args "$variants" structured crash 0
	while :; do
		k=$((k + 1))
		lf_run "throughput-$label-$k" "$bin" "-seed=$k" "-max_len=${len_for[structured]}" \
			-len_control=0 "-max_total_time=$exec_time" "${MBD_TARGET_ARGS[@]}"
		if [[ -z $run_crash && $run_rc != 0 ]]; then
			tail -n 5 "$work/throughput-$label-$k/log" >&2
			mbd_die "$(mbd_rel "$bin") failed (exit $run_rc); log: $(mbd_rel "$work/throughput-$label-$k/log")"
		fi
		if ((k == 1)) && { [[ -z $run_crash ]] ||
			awk -v a="$run_secs" -v t="$exec_time" 'BEGIN { exit !(a >= 0.9 * t) }'; }; then
			# A full-length run: libFuzzer's own figure.
			eps=${run_eps:-0}
			if [[ $eps == 0 ]]; then eps=$(mbd_rate "$run_execs" "$run_secs"); fi
			note="one run of $run_secs s"
			execs_sum=$run_execs
			secs_sum=$run_secs
			break
		fi
		# The run stopped at a finding: add up runs with other seeds
		# until the time is spent.
		execs_sum=$((execs_sum + run_execs))
		secs_sum=$(awk -v a="$secs_sum" -v b="$run_secs" 'BEGIN { print a + b }')
		if awk -v a="$secs_sum" -v t="$exec_time" 'BEGIN { exit !(a >= t) }' || ((k >= 50)); then
			eps=$(mbd_rate "$execs_sum" "$secs_sum")
			note="$k runs (-seed=1..$k) adding up to $secs_sum s: they stopped at findings (see the logs)"
			break
		fi
	done
	tp_rows+=("| \`$(mbd_rel "$bin")\` | $san | $eps | $execs_sum | $note |")
	mbd_log "throughput $label: $eps execs/s ($note)"
}

if [[ $only != 2 ]]; then
	throughput asan "$asan_bin" "ASan+UBSan"
	throughput plain "$plain_bin" "none"
fi

# ---------------------------------------------------------------- part 2
div_rows=()
run_rows=()
median() { # values on stdin, "inf" for not found; prints the median
	sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}
divergence() {
	local dec=$1 s found=0 times=() execs=() sig m_t m_e lo hi
	mbd_set_target_args "$variants" "$dec" "$min_class" 0
	for ((s = 1; s <= runs; s++)); do
		lf_run "diverge-$dec-$s" "$div_bin" "-seed=$s" "-max_len=${len_for[$dec]}" \
			"-max_total_time=$cap" ${dict:+"-dict=$dict"} "${MBD_TARGET_ARGS[@]}"
		sig=
		if [[ -n $run_crash ]]; then sig=$(mbd_signature "$run_crash"); fi
		if [[ $sig == "mbdiff: "* ]]; then
			found=$((found + 1))
			times+=("$run_secs")
			execs+=("$run_execs")
			run_rows+=("| $dec | $s | $run_secs | $run_execs | \`${sig//|/\\|}\` |")
		elif [[ -n $run_crash ]]; then
			# An engine finding that is not a divergence (out-of-memory,
			# timeout) ended the run: nothing found.
			times+=(inf)
			execs+=(inf)
			run_rows+=("| $dec | $s | stopped after $run_secs s by $(basename "$run_crash" | cut -d- -f1) | $run_execs | ${sig//|/\\|} |")
		else
			if ((run_rc != 0)); then
				tail -n 5 "$work/diverge-$dec-$s/log" >&2
				mbd_die "$(mbd_rel "$div_bin") failed (exit $run_rc); log: $(mbd_rel "$work/diverge-$dec-$s/log")"
			fi
			times+=(inf)
			execs+=(inf)
			run_rows+=("| $dec | $s | not found in $cap s | $run_execs | - |")
		fi
		if [[ $sig == "mbdiff: "* ]]; then
			mbd_log "$dec -seed=$s: divergence after $run_secs s, $run_execs execs"
		elif [[ -n $run_crash ]]; then
			mbd_log "$dec -seed=$s: stopped by $(basename "$run_crash") after $run_secs s, no divergence"
		else
			mbd_log "$dec -seed=$s: none in $cap s ($run_execs execs)"
		fi
	done
	m_t=$(printf '%s\n' "${times[@]}" | median)
	m_e=$(printf '%s\n' "${execs[@]}" | median)
	if [[ $m_t == inf ]]; then
		div_rows+=("| $dec | ${len_for[$dec]} | $found/$runs | not found in $cap s | - | - |")
	else
		lo=$(printf '%s\n' "${times[@]}" | grep -v inf | sort -g | head -n 1)
		hi=$(printf '%s\n' "${times[@]}" | grep -v inf | sort -g | tail -n 1)
		div_rows+=("| $dec | ${len_for[$dec]} | $found/$runs | $m_t | $m_e | $lo - $hi |")
	fi
}

if [[ $only != 1 ]]; then
	divergence structured
	divergence naive
fi

# ---------------------------------------------------------------- report
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
clang_v=$(clang --version 2>/dev/null | head -n 1)
rev=$(git -C "$MBD_ROOT" rev-parse --short HEAD 2>/dev/null || echo "no commit")
if [[ -n $(git -C "$MBD_ROOT" status --porcelain 2>/dev/null | head -n 1) ]]; then rev="$rev + local changes"; fi

dict_text="no dictionary"
if [[ -n $dict ]]; then dict_text="dictionary \`$(mbd_rel "$dict")\`"; fi
tmp_md=$out_md.tmp
{
	echo "<!-- SPDX-License-Identifier: GPL-2.0 -->"
	echo "<!-- Generated by scripts/bench-fuzz.sh; rerun it instead of editing. -->"
	echo "# Fuzzing figures: $pair"
	echo
	echo "- command: \`bash scripts/bench-fuzz.sh${orig_args[*]:+ $(mbd_quote "${orig_args[@]}")}\`"
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), tree: $rev"
	echo "- machine: ${cpu:-unknown CPU}, $(mbd_nproc) cores (nproc), ${clang_v:-clang ?}"
	echo "- -max_len: ${len_for[structured]} (structured), ${len_for[naive]} (naive): about $ops calls at the measured ${bpo[structured]} and ${bpo[naive]} bytes per call"
	if [[ $only != 2 ]]; then
		echo
		echo "## Throughput"
		echo
		echo "libFuzzer, structured decoder, empty corpus, \`-len_control=0\`, \`-max_total_time=$exec_time\`, one process, \`--min-class=crash\` (every call is run, compared and oracle-checked; no difference aborts the run)."
		echo
		echo "| target | sanitizers | execs/s | execs | measured over |"
		echo "|---|---|---|---|---|"
		printf '%s\n' "${tp_rows[@]}"
	fi
	if [[ $only != 1 ]]; then
		echo
		echo "## Time to the first divergence${min_class:+ of class $min_class or worse}"
		echo
		echo "\`$(mbd_rel "$div_bin")\`, empty corpus, $dict_text, libFuzzer \`-seed=1..$runs\`, each run capped at $cap s; wall-clock seconds (process start included). Median over the $runs runs, a run that found nothing counting as slower than all."
		echo
		echo "| decoder | -max_len | found | median s | median execs | range s (found runs) |"
		echo "|---|---|---|---|---|---|"
		printf '%s\n' "${div_rows[@]}"
		echo
		echo "Per run:"
		echo
		echo "| decoder | seed | seconds | execs | signature |"
		echo "|---|---|---|---|---|"
		printf '%s\n' "${run_rows[@]}"
	fi
	echo
	echo "Logs and crash files: \`$(mbd_rel "$work")\` (not kept in git)."
} >"$tmp_md"
mv -f -- "$tmp_md" "$out_md"
cat "$out_md"
mbd_log "written to $(mbd_rel "$out_md")"
