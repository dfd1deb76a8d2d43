#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/bench-speed.sh [options]
#
# The fuzz target of this tree against the one of an older commit, side by
# side (docs/speed.md):
#  1. throughput: both fuzz_diff builds run interleaved, the same libFuzzer
#     seed and the same -runs each round, order alternating; execs per CPU
#     second (user + system, so other load on the machine matters less) and
#     the ratio this/base, mean and 95% confidence interval over rounds,
#     without sanitizers (fuzz-plain) and with ASan+UBSan (fuzz);
#  2. time to the first divergence: executions and CPU seconds until the
#     first divergence of class --div-class, libFuzzer -seed=1..--seeds,
#     both plain builds, median;
#  3. with --perf: where this tree's plain target spends its CPU (perf
#     record with DWARF call graphs, inclusive shares of the harness
#     stages), over -seed=1..--perf-seeds.
# The base tree is `git archive REV`, built in --work; this tree is built
# there too, so nothing in build/ changes.
#
# Options:
#   --base REV        the commit to compare with (default baa072a, main
#                     before issue 16)
#   --rounds N        throughput rounds (default 5)
#   --runs N          libFuzzer -runs per plain measurement (default 200000)
#   --asan-runs N     the same with ASan+UBSan (default 50000)
#   --targets LIST    plain,asan (default both)
#   --variants A,B    default reference,zhou-2025
#   --max-len N       -max_len (default 211: about 32 calls, as
#                     docs/fuzz-figures.md)
#   --seeds N         part 2 seeds (default 5; 0 skips part 2)
#   --div-class C     part 2 class (default warning)
#   --div-runs N      part 2 cap in executions per seed (default 2000000)
#   --perf            part 3
#   --perf-seeds N    part 3 seeds (default 3)
#   --new-cmake ARG   extra cmake argument for this tree's builds
#                     (repeatable), e.g. an instrumentation choice
#   --new-fuzz ARG    extra libFuzzer flag for this tree's runs (repeatable)
#   --label TEXT      name of this tree in the output (default "this tree")
#   --work DIR        sources, builds and logs (default out/bench-speed-<date>)
#   --no-build        reuse the builds in --work
#   -h, --help        this text
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

orig_args=("$@")
base_rev=baa072a
rounds=5
runs=200000
asan_runs=50000
targets=plain,asan
variants=$MBD_DEFAULT_VARIANTS
max_len=211
seeds=5
div_class=warning
div_runs=2000000
perf=0
perf_seeds=3
new_cmake=()
new_fuzz=()
label="this tree"
work=
build=1
while (($#)); do
	case $1 in
	--base | --base=*) mbd_optval "$@"; base_rev=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--rounds | --rounds=*) mbd_optval "$@"; rounds=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--runs | --runs=*) mbd_optval "$@"; runs=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--asan-runs | --asan-runs=*) mbd_optval "$@"; asan_runs=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--targets | --targets=*) mbd_optval "$@"; targets=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--variants | --variants=*) mbd_optval "$@"; variants=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--max-len | --max-len=*) mbd_optval "$@"; max_len=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--seeds | --seeds=*) mbd_optval "$@"; seeds=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--div-class | --div-class=*) mbd_optval "$@"; div_class=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--div-runs | --div-runs=*) mbd_optval "$@"; div_runs=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--new-cmake | --new-cmake=*) mbd_optval "$@"; new_cmake+=("$MBD_OPTVAL"); shift "$MBD_SHIFT" ;;
	--new-fuzz | --new-fuzz=*) mbd_optval "$@"; new_fuzz+=("$MBD_OPTVAL"); shift "$MBD_SHIFT" ;;
	--label | --label=*) mbd_optval "$@"; label=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--work | --work=*) mbd_optval "$@"; work=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--perf) perf=1; shift ;;
	--perf-seeds | --perf-seeds=*) mbd_optval "$@"; perf_seeds=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--no-build) build=0; shift ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
done
mbd_check_variants "$variants"
mbd_check_class "$div_class"
for o in rounds runs asan_runs max_len div_runs perf_seeds; do
	mbd_check_uint "--${o//_/-}" "${!o}"
done
mbd_check_uint --seeds "$seeds" 0
((rounds >= 2)) || mbd_usage_error "--rounds must be at least 2 (a confidence interval needs two)"
IFS=, read -r -a target_list <<<"$targets"
for t in "${target_list[@]}"; do
	case $t in plain | asan) ;; *) mbd_usage_error "--targets: '$t' is neither plain nor asan" ;; esac
done
git -C "$MBD_ROOT" rev-parse --verify --quiet "$base_rev^{commit}" >/dev/null ||
	mbd_usage_error "--base: '$base_rev' is not a commit of $MBD_ROOT"
command -v /usr/bin/time >/dev/null 2>&1 || mbd_die "/usr/bin/time not found (Debian package 'time')"
if ((perf)); then command -v perf >/dev/null 2>&1 || mbd_die "perf not found (--perf)"; fi
work=$(mbd_abs "${work:-$MBD_OUT/bench-speed-$(mbd_timestamp)}")
mkdir -p "$work"
mbd_trap_signals

declare -A preset_of=([plain]=fuzz-plain [asan]=fuzz)

# build WHICH(base|new) TARGET: fuzz_diff of that tree with that preset.
build_one() {
	local which=$1 t=$2 src dir extra=()
	dir=$work/build-$which-$t
	if [[ $which == base ]]; then src=$work/src-base; else src=$MBD_ROOT; extra=("${new_cmake[@]}"); fi
	mbd_log "building $which $t ($dir)"
	cmake -S "$src" -B "$dir" --preset "${preset_of[$t]}" -DMBDIFF_TESTS=OFF \
		"${extra[@]}" >"$dir.log" 2>&1 &&
		cmake --build "$dir" -j "$(mbd_nproc)" --target fuzz_diff >>"$dir.log" 2>&1 ||
		mbd_die "build of $which $t failed: $(mbd_rel "$dir.log")"
}

if ((build)); then
	rm -rf -- "$work/src-base"
	mkdir -p "$work/src-base"
	git -C "$MBD_ROOT" archive "$base_rev" | tar -x -C "$work/src-base"
	for t in "${target_list[@]}"; do
		build_one base "$t"
		build_one new "$t"
	done
fi
for t in "${target_list[@]}"; do
	for w in base new; do
		[[ -x $work/build-$w-$t/fuzz_diff ]] || mbd_die "no $work/build-$w-$t/fuzz_diff (drop --no-build)"
	done
done

# run NAME BIN RUNS ARGS...: one libFuzzer process, no corpus directory (so
# nothing is written); sets run_cpu (user + system s), run_execs, run_crash.
run() {
	local name=$1 bin=$2 n=$3 dir
	shift 3
	dir=$work/$name
	rm -rf -- "$dir"
	mkdir -p "$dir/crashes"
	mbd_spawn /usr/bin/time -f '%U %S' -o "$dir/time" "$bin" "-runs=$n" \
		"-max_len=$max_len" -len_control=0 -print_final_stats=1 -timeout=30 \
		"-artifact_prefix=$dir/crashes/" "$@" >"$dir/log" 2>&1
	mbd_wait "$MBD_LAST_PID"
	if [[ -n $MBD_INTERRUPTED ]]; then mbd_die "interrupted; logs in $(mbd_rel "$work")"; fi
	# the last line: time writes "Command exited with ..." before it
	run_cpu=$(tail -n 1 "$dir/time" 2>/dev/null | awk '{ print $1 + $2 }')
	run_execs=$(mbd_lf_execs "$dir/log")
	run_crash=$(mbd_crash_files "$dir/crashes" | head -n 1)
}

# mean_ci VALUES...: "mean ± half-width" of a 95% t interval.
mean_ci() {
	printf '%s\n' "$@" | awk '
		{ v[NR] = $1; s += $1 }
		END {
			n = NR; m = s / n
			for (i = 1; i <= n; i++) ss += (v[i] - m) ^ 2
			sd = n > 1 ? sqrt(ss / (n - 1)) : 0
			split("12.71 4.30 3.18 2.78 2.57 2.45 2.36 2.31 2.26 2.23", t, " ")
			q = n - 1 <= 10 ? t[n - 1] : 2.0
			printf "%.3f ± %.3f\n", m, q * sd / sqrt(n)
		}'
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

mbd_set_target_args "$variants" structured crash 0
load=$(uptime | sed 's/.*load average: //')
tp_rows=()
for t in "${target_list[@]}"; do
	n=$runs
	if [[ $t == asan ]]; then n=$asan_runs; fi
	eb=() en=() ratio=()
	for ((r = 1; r <= rounds; r++)); do
		order=(base new)
		if ((r % 2 == 0)); then order=(new base); fi
		for w in "${order[@]}"; do
			extra=()
			if [[ $w == new ]]; then extra=("${new_fuzz[@]}"); fi
			run "tp-$t-$w-$r" "$work/build-$w-$t/fuzz_diff" "$n" "-seed=$r" \
				"${MBD_TARGET_ARGS[@]}" "${extra[@]}"
			if [[ -n $run_crash ]] || ((run_execs < n)); then
				tail -n 5 "$work/tp-$t-$w-$r/log" >&2
				mbd_die "the $w $t run stopped early: $(mbd_rel "$work/tp-$t-$w-$r/log")"
			fi
			eps=$(awk -v n="$run_execs" -v c="$run_cpu" 'BEGIN { printf "%.0f\n", (c > 0 ? n / c : 0) }')
			if [[ $w == base ]]; then eb+=("$eps"); else en+=("$eps"); fi
		done
		ratio+=("$(awk -v a="${en[-1]}" -v b="${eb[-1]}" 'BEGIN { printf "%.4f\n", a / b }')")
		mbd_log "$t round $r: base ${eb[-1]}, $label ${en[-1]} execs/CPU-s, ratio ${ratio[-1]}"
	done
	tp_rows+=("| $t | $n | $(mean_ci "${eb[@]}") | $(mean_ci "${en[@]}") | $(mean_ci "${ratio[@]}") |")
done

div_rows=()
if ((seeds > 0)); then
	mbd_set_target_args "$variants" structured "$div_class" 0
	for w in base new; do
		bin=$work/build-$w-plain/fuzz_diff
		[[ -x $bin ]] || build_one "$w" plain
		ex=() cpu=() found=0
		for ((s = 1; s <= seeds; s++)); do
			extra=()
			if [[ $w == new ]]; then extra=("${new_fuzz[@]}"); fi
			run "div-$w-$s" "$bin" "$div_runs" "-seed=$s" "${MBD_TARGET_ARGS[@]}" "${extra[@]}"
			if [[ -n $run_crash && $(mbd_signature "$run_crash") == "mbdiff: "* ]]; then
				found=$((found + 1))
				ex+=("$run_execs")
				cpu+=("$run_cpu")
			else
				ex+=(inf)
				cpu+=(inf)
			fi
			mbd_log "divergence $w -seed=$s: ${ex[-1]} execs, ${cpu[-1]} CPU s"
		done
		name=base
		if [[ $w == new ]]; then name=$label; fi
		div_rows+=("| $name | $found/$seeds | $(printf '%s\n' "${ex[@]}" | median) | $(printf '%s\n' "${cpu[@]}" | median) | ${ex[*]} |")
	done
fi

perf_rows=()
if ((perf)); then
	mbd_set_target_args "$variants" structured crash 0
	dir=$work/perf
	rm -rf -- "$dir"
	mkdir -p "$dir"
	syms=(LLVMFuzzerTestOneInput mbd_glue_apply mbd_glue_snapshot mbd_glue_same_as
		mbd_glue_reset mbd_oracle_step_text mbd_compare_text mbd_decode_input)
	declare -A of_proc=() of_target=()
	# share REPORT SYMBOL: inclusive % of every symbol of that name (each
	# variant has its own copy)
	share() { awk -v s="$2" '$NF == s { gsub("%", "", $1); t += $1 } END { printf "%.1f\n", t }' "$1"; }
	for ((s = 1; s <= perf_seeds; s++)); do
		# DWARF call graphs: neither build keeps frame pointers, and
		# frame-pointer chains skip the glue's and kernel code's frames
		# (docs/speed.md, "Sixth pass")
		perf record -q --call-graph dwarf,16384 -F 1000 -o "$dir/perf-$s.data" \
			"$work/build-new-plain/fuzz_diff" "-runs=$runs" "-max_len=$max_len" \
			-len_control=0 "-seed=$s" "${MBD_TARGET_ARGS[@]}" "${new_fuzz[@]}" \
			>"$dir/log-$s" 2>&1 || mbd_die "perf record failed: $(mbd_rel "$dir/log-$s")"
		perf report -i "$dir/perf-$s.data" --children --sort sym --stdio -g none \
			2>/dev/null >"$dir/report-$s.txt"
		all=$(share "$dir/report-$s.txt" LLVMFuzzerTestOneInput)
		for sym in "${syms[@]}"; do
			p=$(share "$dir/report-$s.txt" "$sym")
			t=$(awk -v p="$p" -v a="$all" 'BEGIN { printf "%.1f", (a > 0 ? 100 * p / a : 0) }')
			of_proc[$sym]+="$p "
			of_target[$sym]+="$t "
			if [[ $sym == mbd_glue_apply ]]; then
				mbd_log "perf -seed=$s: variant calls $t% of LLVMFuzzerTestOneInput"
			fi
		done
	done
	mean() { awk '{ for (i = 1; i <= NF; i++) t += $i } END { printf "%.1f", NF ? t / NF : 0 }' <<<"$1"; }
	for sym in "${syms[@]}"; do
		perf_rows+=("| \`$sym\` | $(mean "${of_proc[$sym]}") | $(mean "${of_target[$sym]}") | ${of_target[$sym]% } |")
	done
fi

# ---------------------------------------------------------------- report
rev=$(git -C "$MBD_ROOT" rev-parse --short HEAD)
if [[ -n $(git -C "$MBD_ROOT" status --porcelain --untracked-files=no | head -n 1) ]]; then rev="$rev + local changes"; fi
echo "# bench-speed: $label ($rev) against $base_rev"
echo
echo "- command: \`bash scripts/bench-speed.sh${orig_args[*]:+ $(mbd_quote "${orig_args[@]}")}\`"
echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); load average at the start: $load; at the end: $(uptime | sed 's/.*load average: //')"
echo "- machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(mbd_nproc) cores; $(clang --version | head -n 1)"
echo "- variants $variants, structured decoder, -max_len=$max_len, -len_control=0, no corpus${new_cmake[*]:+; $label built with ${new_cmake[*]}}${new_fuzz[*]:+; $label run with ${new_fuzz[*]}}"
echo
echo "Throughput: execs per CPU second (user + system), --min-class=crash, the same -seed=1..$rounds for both, order alternating; mean ± 95% CI over $rounds rounds."
echo
echo "| target | -runs | base | $label | ratio |"
echo "|---|---|---|---|---|"
printf '%s\n' "${tp_rows[@]}"
if ((${#div_rows[@]})); then
	echo
	echo "First divergence of class $div_class or worse, plain builds, -seed=1..$seeds, at most $div_runs execs each (inf: none):"
	echo
	echo "| tree | found | median execs | median CPU s | execs per seed |"
	echo "|---|---|---|---|---|"
	printf '%s\n' "${div_rows[@]}"
fi
if ((${#perf_rows[@]})); then
	echo
	echo "CPU of $label's plain target (perf record --call-graph dwarf, $runs runs, -seed=1..$perf_seeds, inclusive; all copies of a name added; means over the seeds):"
	echo
	echo "| symbol | % of the process | % of LLVMFuzzerTestOneInput | per seed |"
	echo "|---|---|---|---|"
	printf '%s\n' "${perf_rows[@]}"
fi
echo
echo "Logs: \`$(mbd_rel "$work")\`"
