#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/fidelity.sh kernel:NAME [--time S] [--min-class C]
#                            [--preset P | --build-dir DIR] [--fuzz-build-dir DIR]
#                            [--baseline V] [--work DIR]
#
# Does our reference agree with a real kernel file? Replays
# BASELINE~kernel:NAME (baseline: reference) over the whole corpus
# (corpus/seeds, corpus/regressions, corpus/real if present), then runs a
# libFuzzer campaign of S seconds (default 60; 0 skips it) on the pair, and
# reports agreement or the first divergence with its reproducer.
# kernel:NAME must be registered in both builds (scripts/kernel-variant.sh
# --preset default and --preset fuzz). --min-class C ignores lower classes
# (e.g. --min-class layout hides the WARN-only differences of newer files).
# Exit 0 on agreement, 1 on a divergence, 2 on errors.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

variant="" time=60 min_class="" preset=default build_dir="" fuzz_dir="" baseline=reference work=""
while (($#)); do
	case $1 in
	--time | --time=*) mbd_optval "$@"; time=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--min-class | --min-class=*) mbd_optval "$@"; min_class=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--preset | --preset=*) mbd_optval "$@"; preset=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--build-dir | --build-dir=*) mbd_optval "$@"; build_dir=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--fuzz-build-dir | --fuzz-build-dir=*) mbd_optval "$@"; fuzz_dir=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--baseline | --baseline=*) mbd_optval "$@"; baseline=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--work | --work=*) mbd_optval "$@"; work=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	-*) mbd_usage_error "unknown option '$1'" ;;
	*) [[ -z $variant ]] || mbd_usage_error "one variant only"; variant=$1 ;;
	esac
	shift
done
[[ $variant ]] || mbd_usage_error "which variant? e.g. kernel:mainline"
[[ $variant == kernel:* ]] || mbd_warn "$variant is not a kernel variant; checking it anyway"
[[ $time =~ ^[0-9]+$ ]] || mbd_usage_error "--time must be seconds >= 0, got '$time'"
[[ -z $min_class ]] || mbd_check_class "$min_class"

[[ $build_dir ]] || build_dir=$(mbd_build_dir "$preset")
[[ $fuzz_dir ]] || fuzz_dir=$(mbd_build_dir fuzz)
[[ $work ]] || work=$MBD_ROOT/out/fidelity/${variant//:/-}-$(mbd_timestamp)
mbdiff=$build_dir/mbdiff
[[ -x $mbdiff ]] || mbd_die "$mbdiff not built: scripts/build.sh $preset"
if ! "$mbdiff" list | grep -q "^$variant[[:space:]]"; then
	mbd_die "$variant is not in $mbdiff: scripts/kernel-variant.sh --preset $preset --tree DIR --name ${variant#kernel:}, then build"
fi
mkdir -p "$work"

dirs=("$MBD_ROOT/corpus/seeds" "$MBD_ROOT/corpus/regressions")
[[ -d $MBD_ROOT/corpus/real ]] && dirs+=("$MBD_ROOT/corpus/real")
args=(--variants "$baseline,$variant")
[[ $min_class ]] && args+=(--min-class "$min_class")
# the corpus replay compares the two variants only: the real traces' expect
# checkpoints and the oracle judge the baseline, which is not the question
cargs=("${args[@]}" --no-expect --no-oracle --quiet)

status=0
mbd_log "replaying $baseline~$variant over ${dirs[*]}"
set +e
"$mbdiff" replay "${cargs[@]}" "${dirs[@]}" >"$work/corpus.out" 2>&1
rc=$?
set -e
n_in=$(find "${dirs[@]}" -type f ! -name '*.md' | wc -l)
case $rc in
0) echo "corpus: agree on all $n_in inputs" ;;
1)
	status=1
	n_div=$(grep -c '^input: ' "$work/corpus.out" || true)
	echo "corpus: $n_div of $n_in inputs diverge (all reports: $work/corpus.out); the first:"
	# the first report only (head closing the pipe is not a failure)
	awk '/^input: /{n++} /^replayed /{exit} n==1' "$work/corpus.out" | head -60 || true
	;;
*) cat "$work/corpus.out" >&2; mbd_die "replay failed (rc $rc)" ;;
esac

if ((time > 0)); then
	fuzzer=$fuzz_dir/fuzz_diff
	if [[ ! -x $fuzzer ]]; then
		mbd_warn "$fuzzer not built (scripts/build.sh fuzz): no fuzz campaign"
	elif ! "$fuzz_dir/mbdiff" list 2>/dev/null | grep -q "^$variant[[:space:]]"; then
		mbd_warn "$variant is not in the fuzz build: scripts/kernel-variant.sh --preset fuzz ..., then scripts/build.sh fuzz"
	else
		mkdir -p "$work/crashes" "$work/corpus"
		fargs=("--variants=$baseline,$variant" "-max_total_time=$time"
			"-artifact_prefix=$work/crashes/" "-print_final_stats=1")
		[[ $min_class ]] && fargs+=("--min-class=$min_class")
		mbd_log "fuzzing $baseline~$variant for ${time}s"
		set +e
		"$fuzzer" "${fargs[@]}" "$work/corpus" "$MBD_ROOT/corpus/seeds" >"$work/fuzz.log" 2>&1
		set -e
		mapfile -t crashes < <(find "$work/crashes" -type f | sort)
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log" | tail -1)
		if ((${#crashes[@]} == 0)); then
			echo "fuzz: agree over ${execs:-?} executions in ${time}s"
		else
			status=1
			echo "fuzz: ${#crashes[@]} divergence(s) in ${time}s (${execs:-?} executions); the first:"
			"$mbdiff" minimize "${crashes[0]}" -o "$work/first.mbt" "${args[@]}" >/dev/null 2>&1 || true
			if [[ -f $work/first.mbt ]]; then
				"$mbdiff" replay "${args[@]}" "$work/first.mbt" | head -60 || true
				echo "reproducer: $work/first.mbt"
			else
				"$mbdiff" replay "${args[@]}" "${crashes[0]}" | head -60 || true
			fi
		fi
	fi
fi

if ((status == 0)); then
	echo "fidelity: $baseline and $variant agree"
else
	echo "fidelity: $baseline and $variant DIFFER (see above; docs/kernel-variants.md lists the known version differences)"
fi
exit "$status"
