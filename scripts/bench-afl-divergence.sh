#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/bench-afl-divergence.sh [options]
#
# Does the op mutator pay in AFL++? Time to the first boot-relevant
# divergence, per patch and per afl-fuzz setup, on one AFL++ target
# (build/afl/afl_diff, the afl preset) from one seed (a single 0x00 byte:
# no calls, as libFuzzer's empty start in scripts/bench-divergence.sh).
# Each run is afl-fuzz -s 1..N, bounded by -E (executions, never the
# clock), with AFL_BENCH_UNTIL_CRASH=1 and --min-class invariant, so it
# stops soon after its first divergence of class invariant, coverage or
# panic. Executions to it are exact: fuzzer_stats' execs_done minus
# execs_since_crash (afl-fuzz's execution count when it saved the crash).
# CPU seconds are afl-fuzz's and its target's, user + system, to the
# end of the run (a few hundred executions past the crash at most).
# For each patch and setup it prints the median executions and CPU
# seconds (a run that found none counts as slower than all), how many
# runs found one, and the ratio to the first setup, as a markdown table
# (also in WORK/table.md).
#
# Setups (--setups, comma-separated; the first is the baseline of the
# ratios):
#   havoc     afl-fuzz's own mutations only (no custom mutator)
#   ops       AFL_CUSTOM_MUTATOR_LIBRARY=the op mutator, before AFL++'s
#             own havoc (how harness/fuzz/README.md shows it)
#   ops-only  the same with AFL_CUSTOM_MUTATOR_ONLY=1
#   any of them with -notrim (havoc-notrim, ...): AFL_DISABLE_TRIM=1, no
#             byte trimming of new queue entries
# Results go to WORK/results.tsv one run a line; --resume skips the runs
# already there.
#
# Options:
#   --patches LIST   default: every patch in algorithms/patches
#   --mutants        add every mutant of algorithms/mutants
#   --setups LIST    default: havoc,ops,ops-only
#   --seeds N        runs per patch and setup, afl-fuzz -s 1..N (default 5)
#   --execs N        afl-fuzz -E bound of each run (default 200000)
#   --min-class C    default invariant
#   --target FILE    default build/afl/afl_diff
#   --mutator FILE   default build/default/libmbdiff-afl-mutator.so
#   --work DIR       default out/bench-afl-divergence
#   --resume         keep WORK/results.tsv and run only what is missing
#   --no-build       do not build the target and the mutator first
#   -h, --help       this text
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

orig_args=("$@")
patches=
mutants=0
setups=havoc,ops,ops-only
seeds=5
execs=200000
min_class=invariant
target=$(mbd_prog afl afl_diff)
mutator=$MBD_BUILD/default/libmbdiff-afl-mutator.so
work=
resume=0
build=1
while (($#)); do
	case $1 in
	--patches | --patches=*) mbd_optval "$@"; patches=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--mutants) mutants=1; shift ;;
	--setups | --setups=*) mbd_optval "$@"; setups=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--seeds | --seeds=*) mbd_optval "$@"; seeds=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--execs | --execs=*) mbd_optval "$@"; execs=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--min-class | --min-class=*) mbd_optval "$@"; min_class=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--target | --target=*) mbd_optval "$@"; target=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--mutator | --mutator=*) mbd_optval "$@"; mutator=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--work | --work=*) mbd_optval "$@"; work=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--resume) resume=1; shift ;;
	--no-build) build=0; shift ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
done
mbd_check_uint --seeds "$seeds"
mbd_check_uint --execs "$execs"
mbd_check_class "$min_class"
IFS=, read -r -a setup_list <<<"$setups"
for s in "${setup_list[@]}"; do
	case ${s%-notrim} in
	havoc | ops | ops-only) ;;
	*) mbd_usage_error "unknown setup '$s' (havoc, ops or ops-only, each optionally with -notrim)" ;;
	esac
done
command -v afl-fuzz >/dev/null 2>&1 || mbd_die "afl-fuzz not installed (bash scripts/setup.sh installs afl++)"
[[ -x /usr/bin/time ]] || mbd_die "/usr/bin/time not found (Debian package 'time'): it measures the CPU seconds"
work=$(mbd_abs "${work:-$MBD_OUT/bench-afl-divergence}")
target=$(mbd_abs "$target")
mutator=$(mbd_abs "$mutator")

patches=$(mbd_bench_patches "$patches" "$mutants")
mbd_check_variants "$patches"
IFS=, read -r -a patch_list <<<"$patches"

if ((build)); then
	# only the two files this measures, not the presets' tests
	(cd "$MBD_ROOT" && cmake --preset default >/dev/null &&
		cmake --build build/default -j "$(mbd_nproc)" --target mbdiff-afl-mutator) >&2 ||
		mbd_die "cannot build the mutator library"
	(cd "$MBD_ROOT" && AFL_QUIET=1 cmake --preset afl >/dev/null &&
		AFL_QUIET=1 cmake --build build/afl -j "$(mbd_nproc)" --target afl_diff) >&2 ||
		mbd_die "cannot build build/afl/afl_diff (bash scripts/build.sh afl)"
fi
[[ -x $target ]] || mbd_die "$(mbd_rel "$target") not found (bash scripts/build.sh afl)"
if [[ ,$setups, == *,ops* ]]; then
	[[ -f $mutator ]] || mbd_die "$(mbd_rel "$mutator") not found (bash scripts/build.sh default)"
fi

mkdir -p "$work/seed"
printf '\0' >"$work/seed/empty"
results=$work/results.tsv
if ((!resume)); then
	rm -f -- "$results"
fi
touch "$results"
mbd_trap_signals
load_before=$(uptime)

# KEY from afl-fuzz's fuzzer_stats FILE ("key : value"), or empty.
afl_stat() { awk -v k="$2" '$1 == k { print $3 }' "$1" 2>/dev/null | tail -n 1; }

# One run: "patch setup seed found execs cpu signature" appended to results.
one_run() {
	local patch=$1 setup=$2 seed=$3 dir stats done since saved cpu found=0 sig=- first
	local env=(AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1 AFL_BENCH_UNTIL_CRASH=1
		AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_CRASH_README=1)
	if [[ $setup == *-notrim ]]; then env+=(AFL_DISABLE_TRIM=1); fi
	case ${setup%-notrim} in
	ops) env+=("AFL_CUSTOM_MUTATOR_LIBRARY=$mutator") ;;
	ops-only) env+=("AFL_CUSTOM_MUTATOR_LIBRARY=$mutator" AFL_CUSTOM_MUTATOR_ONLY=1) ;;
	esac
	dir=$work/runs/$patch-$setup-$seed
	rm -rf -- "$dir"
	mkdir -p "$dir"
	mbd_spawn env "${env[@]}" /usr/bin/time -o "$dir/time" -f '%U %S' nice -n 5 \
		afl-fuzz -i "$work/seed" -o "$dir/out" -s "$seed" -E "$execs" -t 5000 -- \
		"$target" "--variants=reference,$patch" "--min-class=$min_class" >"$dir/log" 2>&1
	mbd_wait "$MBD_LAST_PID"
	if [[ -n $MBD_INTERRUPTED ]]; then
		mbd_die "interrupted; the runs so far are in $(mbd_rel "$results") (--resume)"
	fi
	stats=$dir/out/default/fuzzer_stats
	done=$(afl_stat "$stats" execs_done)
	since=$(afl_stat "$stats" execs_since_crash)
	saved=$(afl_stat "$stats" saved_crashes)
	if ((MBD_WAIT_RC != 0)) || [[ -z $done || -z $since || -z $saved ]]; then
		tail -n 5 "$dir/log" >&2
		mbd_die "afl-fuzz failed (exit $MBD_WAIT_RC, or no fuzzer_stats); log: $(mbd_rel "$dir/log")"
	fi
	cpu=$(awk '{ printf "%.2f\n", $1 + $2 }' "$dir/time" | tail -n 1)
	if ((saved > 0)); then
		found=1
		done=$((done - since))
		first=$(find "$dir/out/default/crashes" -name 'id:000000,*' | head -n 1)
		sig=$("$target" "--variants=reference,$patch" "--min-class=$min_class" "$first" 2>&1 |
			grep -E '^mbdiff: (divergence|oracle) ' | tail -n 1) || true
		[[ -n $sig ]] || mbd_die "$(mbd_rel "$first") does not diverge when replayed"
	fi
	rm -rf -- "$dir/out/default/queue"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$patch" "$setup" "$seed" "$found" \
		"$done" "$cpu" "$sig" >>"$results"
	mbd_log "$patch $setup -s $seed: $( ((found)) && echo "divergence after $done execs, $cpu CPU s" || echo "none in $done execs")"
}

for setup in "${setup_list[@]}"; do
	for patch in "${patch_list[@]}"; do
		for ((s = 1; s <= seeds; s++)); do
			if mbd_bench_have "$results" "$patch" "$setup" "$s"; then
				continue
			fi
			one_run "$patch" "$setup" "$s"
		done
	done
done

# ---------------------------------------------------------------- report
rev=$(git -C "$MBD_ROOT" rev-parse --short HEAD 2>/dev/null || echo "no commit")
if [[ -n $(git -C "$MBD_ROOT" status --porcelain --untracked-files=no 2>/dev/null | head -n 1) ]]; then rev="$rev + local changes"; fi
{
	echo "- command: \`bash scripts/bench-afl-divergence.sh${orig_args[*]:+ $(mbd_quote "${orig_args[@]}")}\`"
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), tree: $rev, $(afl-fuzz -h 2>&1 | sed -n 's/\x1b\[[0-9;]*m//g; s/^\(afl-fuzz[^ ]*\).*/\1/p' | head -n 1)"
	echo "- load before: \`${load_before#*,  }\`; after: \`$(uptime | sed 's/.*,  *load/load/')\`"
	echo "- \`afl-fuzz -i (one 0x00 byte) -s 1..$seeds -E $execs -t 5000 -- $(mbd_rel "$target") --variants=reference,PATCH --min-class=$min_class\`,"
	echo "  AFL_BENCH_UNTIL_CRASH=1; execs = execs_done - execs_since_crash; CPU s = afl-fuzz and target to the end of the run"
	echo
	mbd_bench_summary_table "$results" "$seeds" "$setups" "$patches"
	echo
	mbd_bench_runs_table "$results" "$seeds"
} >"$work/table.md"
cat "$work/table.md"
mbd_log "per run: $(mbd_rel "$results"); table: $(mbd_rel "$work/table.md")"
