#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/bench-divergence.sh [options]
#
# Time to the first boot-relevant divergence, per patch and per fuzzer
# setup: libFuzzer from an empty corpus, -seed=1..N, each run bounded by
# -runs (never by the clock), --min-class invariant (invariant, coverage,
# panic: a WARN count, capacity, layout or return difference alone does
# not stop the run). For each patch and setup it prints the median
# executions and CPU seconds to the first such divergence (a run that
# found none counts as slower than all), and the ratio to the first setup,
# and writes the table to docs/divergence-time.md.
#
# Setups (--setups, comma-separated; the first is the baseline of the
# ratios):
#   base        BASE-BIN (the fuzz target of --base-rev) with its defaults
#   base-lc0    the same with -len_control=0 (what libFuzzer sets itself
#               when a target has a custom mutator)
#   bytes       build/fuzz-plain-hcov/fuzz_diff --mutator=bytes, built with
#               -DMBDIFF_FUZZ_HARNESS_COVERAGE=ON -DMBDIFF_FUZZ_TRACE_CMP=ON
#               (coverage feedback from the whole harness and comparison
#               tracing in the variants, as main had it before)
#   ops         the same with --mutator=ops
#   bytes-vcov, ops-vcov  the same, built in build/fuzz-plain-vcov with
#               -DMBDIFF_FUZZ_HARNESS_COVERAGE=OFF (feedback from the
#               variants only, not from oracle, compare and runner: the
#               default since this table)
#   NAME=BIN[:ARGS]  any other binary, ARGS separated by ':'
# Results go to WORK/results.tsv one run a line; --resume skips the runs
# already there, so a long table can be measured in parts. Text after the
# line "<!-- notes: written by hand, kept by scripts/bench-divergence.sh -->"
# in the output file is kept when the table is written again.
#
# Options:
#   --patches LIST   default: every patch in algorithms/patches
#   --mutants        add every mutant of algorithms/mutants
#   --setups LIST    default: base,ops
#   --seeds N        runs per patch and setup, -seed=1..N (default 5)
#   --runs N         -runs bound of each run (default 500000)
#   --max-len N      libFuzzer -max_len (default 211: ~32 calls of the
#                    structured form, as scripts/bench-fuzz.sh measured)
#   --min-class C    default invariant
#   --base-rev REV   commit whose fuzz-plain target is "base" (default
#                    baa072a, main before the op mutator); built once in
#                    a git worktree under WORK/../divergence-base-REV
#   --base-bin FILE  use this binary as "base" instead
#   --work DIR       default out/bench-divergence
#   --resume         keep WORK/results.tsv and run only what is missing
#   --out FILE       markdown output (default docs/divergence-time.md)
#   --no-build       do not build build/fuzz-plain first
#   -h, --help       this text
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

orig_args=("$@")
patches=
mutants=0
setups=base,ops
seeds=5
runs=500000
max_len=211
min_class=invariant
base_rev=baa072a
base_bin=
work=
resume=0
out_md=$MBD_ROOT/docs/divergence-time.md
build=1
while (($#)); do
	case $1 in
	--patches | --patches=*) mbd_optval "$@"; patches=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--mutants) mutants=1; shift ;;
	--setups | --setups=*) mbd_optval "$@"; setups=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--seeds | --seeds=*) mbd_optval "$@"; seeds=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--runs | --runs=*) mbd_optval "$@"; runs=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--max-len | --max-len=*) mbd_optval "$@"; max_len=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--min-class | --min-class=*) mbd_optval "$@"; min_class=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--base-rev | --base-rev=*) mbd_optval "$@"; base_rev=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--base-bin | --base-bin=*) mbd_optval "$@"; base_bin=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--work | --work=*) mbd_optval "$@"; work=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--resume) resume=1; shift ;;
	--out | --out=*) mbd_optval "$@"; out_md=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--no-build) build=0; shift ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
done
mbd_check_uint --seeds "$seeds"
mbd_check_uint --runs "$runs"
mbd_check_uint --max-len "$max_len"
mbd_check_class "$min_class"
if [[ ! $base_rev =~ ^[A-Za-z0-9._/-]+$ ]]; then
	mbd_usage_error "--base-rev must be a commit or branch name, got '$base_rev'"
fi
[[ -x /usr/bin/time ]] || mbd_die "/usr/bin/time not found (Debian package 'time'): it measures the CPU seconds"
work=$(mbd_abs "${work:-$MBD_OUT/bench-divergence}")
out_md=$(mbd_abs "$out_md")

patches=$(mbd_bench_patches "$patches" "$mutants")
mbd_check_variants "$patches"
IFS=, read -r -a patch_list <<<"$patches"
IFS=, read -r -a setup_list <<<"$setups"

# Only the fuzz target of the fuzz-plain preset (not its tests):
# build_target ROOT [BUILD_DIR CMAKE_ARGS...].
build_target() {
	local root=$1 dir=${2:-build/fuzz-plain}
	shift 2 || shift
	(cd "$root" && cmake --preset fuzz-plain -B "$dir" "$@" >/dev/null &&
		cmake --build "$dir" -j "$(mbd_nproc)" --target fuzz_diff) >&2
}
plain_bin=$MBD_BUILD/fuzz-plain-hcov/fuzz_diff
vcov_bin=$MBD_BUILD/fuzz-plain-vcov/fuzz_diff
if ((build)); then
	build_target "$MBD_ROOT" build/fuzz-plain-hcov -DMBDIFF_FUZZ_HARNESS_COVERAGE=ON \
		-DMBDIFF_FUZZ_TRACE_CMP=ON ||
		mbd_die "cannot build $(mbd_rel "$plain_bin")"
	if [[ ,$setups, == *-vcov,* ]]; then
		build_target "$MBD_ROOT" build/fuzz-plain-vcov -DMBDIFF_FUZZ_HARNESS_COVERAGE=OFF ||
			mbd_die "cannot build $(mbd_rel "$vcov_bin")"
	fi
fi

# The baseline target: --base-rev built once in a worktree of its own.
base_target() {
	local dir
	if [[ -n $base_bin ]]; then
		mbd_abs "$base_bin"
		return 0
	fi
	dir=$(dirname "$work")/divergence-base-${base_rev//\//-}
	if [[ ! -x $dir/build/fuzz-plain/fuzz_diff ]]; then
		if [[ ! -d $dir ]]; then
			git -C "$MBD_ROOT" worktree add --detach "$dir" "$base_rev" >&2 ||
				mbd_die "cannot check out --base-rev $base_rev"
		fi
		build_target "$dir" ||
			mbd_die "cannot build fuzz-plain at $base_rev (in $dir)"
	fi
	printf '%s\n' "$dir/build/fuzz-plain/fuzz_diff"
}

# Setup NAME -> SETUP_BIN and the array SETUP_ARGS.
resolve_setup() {
	local spec=$1 rest
	SETUP_ARGS=()
	case $spec in
	base) SETUP_BIN=$(base_target) ;;
	base-lc0) SETUP_BIN=$(base_target); SETUP_ARGS=(-len_control=0) ;;
	bytes | ops) SETUP_BIN=$plain_bin; SETUP_ARGS=("--mutator=$spec") ;;
	bytes-vcov | ops-vcov) SETUP_BIN=$vcov_bin; SETUP_ARGS=("--mutator=${spec%-vcov}") ;;
	*=*)
		rest=${spec#*=}
		SETUP_BIN=${rest%%:*}
		if [[ $rest == *:* ]]; then IFS=: read -r -a SETUP_ARGS <<<"${rest#*:}"; fi
		;;
	*) mbd_usage_error "unknown setup '$spec' (base, base-lc0, bytes, ops, bytes-vcov, ops-vcov or NAME=BIN[:ARGS])" ;;
	esac
	[[ -x $SETUP_BIN ]] || mbd_die "setup $spec: $(mbd_rel "$SETUP_BIN") not found (bash scripts/build.sh fuzz-plain)"
}

mkdir -p "$work"
results=$work/results.tsv
if ((!resume)); then
	rm -f -- "$results"
fi
touch "$results"
mbd_trap_signals
load_before=$(uptime)

# One run: "patch setup seed found execs cpu signature" appended to results.
one_run() {
	local patch=$1 setup=$2 seed=$3 dir log sig execs cpu found
	dir=$work/runs/$patch-${setup%%=*}-$seed
	log=$dir/log
	rm -rf -- "$dir"
	mkdir -p "$dir/corpus"
	mbd_spawn /usr/bin/time -o "$dir/time" -f '%U %S' nice -n 5 "$SETUP_BIN" \
		"--variants=reference,$patch" "--min-class=$min_class" "${SETUP_ARGS[@]}" \
		"-seed=$seed" "-runs=$runs" "-max_len=$max_len" -print_final_stats=1 \
		-timeout=30 "-artifact_prefix=$dir/" "$dir/corpus" >"$log" 2>&1
	mbd_wait "$MBD_LAST_PID"
	execs=$(mbd_lf_execs "$log")
	sig=$(grep -E '^mbdiff: (divergence|oracle) ' "$log" | tail -n 1) || true
	if [[ -n $MBD_INTERRUPTED ]]; then
		mbd_die "interrupted; the runs so far are in $(mbd_rel "$results") (--resume)"
	fi
	cpu=$(awk '{ printf "%.2f\n", $1 + $2 }' "$dir/time" 2>/dev/null | tail -n 1)
	found=0
	if [[ -n $sig ]]; then
		found=1
	elif ((MBD_WAIT_RC != 0)); then
		tail -n 5 "$log" >&2
		mbd_die "$(mbd_rel "$SETUP_BIN") failed (exit $MBD_WAIT_RC) without a divergence; log: $(mbd_rel "$log")"
	fi
	rm -rf -- "$dir/corpus"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$patch" "$setup" "$seed" "$found" \
		"$execs" "${cpu:-0}" "${sig:--}" >>"$results"
	mbd_log "$patch $setup -seed=$seed: $([[ $found == 1 ]] && echo "divergence after $execs execs, $cpu CPU s" || echo "none in $execs execs")"
}

for setup in "${setup_list[@]}"; do
	resolve_setup "$setup"
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
tmp_md=$out_md.tmp
notes_marker='<!-- notes: written by hand, kept by scripts/bench-divergence.sh -->'
{
	echo "<!-- SPDX-License-Identifier: GPL-2.0 -->"
	echo "<!-- Generated by scripts/bench-divergence.sh; rerun it instead of editing. -->"
	echo "# Time to the first boot-relevant divergence"
	echo
	echo "- command: \`bash scripts/bench-divergence.sh${orig_args[*]:+ $(mbd_quote "${orig_args[@]}")}\`"
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), tree: $rev; base: ${base_bin:-$base_rev}"
	echo "- load before: \`${load_before#*,  }\`; after: \`$(uptime | sed 's/.*,  *load/load/')\`"
	echo "- libFuzzer from an empty corpus, no dictionary, \`-seed=1..$seeds -runs=$runs -max_len=$max_len\`,"
	echo "  \`--variants=reference,PATCH --min-class=$min_class\`: a run stops at its first divergence of class"
	echo "  invariant, coverage or panic (oracle findings included); not-found runs count as slower than all."
	echo "- setups: $(for s in "${setup_list[@]}"; do resolve_setup "$s"; printf '`%s` = `%s%s`; ' "$s" "$(mbd_rel "$SETUP_BIN")" "${SETUP_ARGS[*]:+ ${SETUP_ARGS[*]}}"; done)"
	echo
	mbd_bench_summary_table "$results" "$seeds" "$setups" "$patches"
	echo
	mbd_bench_runs_table "$results" "$seeds"
	echo
	echo "Logs: \`$(mbd_rel "$work")\` (not kept in git)."
	# hand-written notes below the marker survive a rerun
	if [[ -f $out_md ]] && grep -qF "$notes_marker" "$out_md"; then
		echo
		sed -n "\\|^$notes_marker|,\$p" "$out_md"
	fi
} >"$tmp_md"
mv -f -- "$tmp_md" "$out_md"
cat "$out_md"
mbd_log "written to $(mbd_rel "$out_md")"
