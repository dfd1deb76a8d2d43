#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/fidelity.sh kernel:NAME [--known FILE] [--baseline V]
#                            [--time S] [--runs N] [--max-len B] [--min-class C]
#                            [--preset P | --build-dir DIR] [--fuzz-build-dir DIR]
#                            [--work DIR]
#
# Does a model agree with a real kernel file? Replays BASELINE~kernel:NAME
# over the whole corpus (corpus/seeds, corpus/regressions, corpus/real if
# present), then runs a libFuzzer campaign on the pair, and reports every
# distinct divergence signature, each either explained by the known-
# differences FILE (tests/algorithms/kernel-trees/known/*.known: signature pattern,
# upstream commit, why) or unexplained.
#
# Known differences are not stop signs: the fuzz target skips inputs whose
# first divergence is known (--known) and keeps going past unexplained ones
# too (--keep-going, one saved trace per signature key), so the
# campaign measures the whole time box. Each unexplained signature is
# minimized into WORK/unexplained-N.mbt.
#
# --baseline V   the model to compare with (default: the known file's
#                "baseline:" line, else reference)
# --time S       fuzz at most S seconds (default 60; 0 skips fuzzing)
# --runs N       stop after N executions (libFuzzer -runs; default: no limit)
# --max-len B    longest input in bytes (libFuzzer -max_len; default 256,
#                about 32 calls: short traces run fast and find as much)
# --min-class C  ignore differences below class C
# kernel:NAME must be in both builds: one scripts/kernel-variant.sh
# registration serves every preset; then build default and fuzz.
#
# The last lines are machine-readable (scripts/fidelity-table.sh):
#   fidelity-corpus: inputs=N agree=A known=K unexplained=U
#   fidelity-fuzz: execs=E seconds=S known=K unexplained=U
#   fidelity-signature: known|unexplained SIGNATURE [| COMMIT]
# Exit 0 when nothing is unexplained, 1 otherwise, 2 on errors.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

variant="" time=60 runs="" max_len=256 min_class="" preset=default build_dir="" fuzz_dir=""
baseline="" work="" known=""
while (($#)); do
	case $1 in
	--time | --time=*) mbd_optval "$@"; time=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--runs | --runs=*) mbd_optval "$@"; runs=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--max-len | --max-len=*) mbd_optval "$@"; max_len=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--min-class | --min-class=*) mbd_optval "$@"; min_class=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--preset | --preset=*) mbd_optval "$@"; preset=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--build-dir | --build-dir=*) mbd_optval "$@"; build_dir=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--fuzz-build-dir | --fuzz-build-dir=*) mbd_optval "$@"; fuzz_dir=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--baseline | --baseline=*) mbd_optval "$@"; baseline=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--known | --known=*) mbd_optval "$@"; known=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
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
[[ -z $runs || $runs =~ ^[1-9][0-9]*$ ]] || mbd_usage_error "--runs must be a count >= 1, got '$runs'"
[[ $max_len =~ ^[1-9][0-9]*$ ]] || mbd_usage_error "--max-len must be bytes >= 1, got '$max_len'"
[[ -z $min_class ]] || mbd_check_class "$min_class"
if [[ $known ]]; then
	[[ -r $known ]] || mbd_usage_error "--known: cannot read '$known'"
	known=$(mbd_abs "$known")
	if [[ -z $baseline ]]; then
		baseline=$(sed -n 's/^baseline:[[:space:]]*\([^[:space:]]*\).*/\1/p' "$known" | head -n 1)
	fi
fi
[[ $baseline ]] || baseline=reference

[[ $build_dir ]] || build_dir=$(mbd_build_dir "$preset")
[[ $fuzz_dir ]] || fuzz_dir=$(mbd_build_dir fuzz)
[[ $work ]] || work=$MBD_OUT/fidelity/${variant//:/-}-$(mbd_timestamp)
mbdiff=$build_dir/mbdiff
[[ -x $mbdiff ]] || mbd_die "$mbdiff not built: scripts/build.sh $preset"
for v in "$baseline" "$variant"; do
	"$mbdiff" list | grep -q "^$v[[:space:]]" ||
		mbd_die "$v is not in $mbdiff (kernel variants: scripts/kernel-variant.sh --tree DIR --name NAME, then scripts/build.sh $preset)"
done
mkdir -p "$work"

dirs=("$MBD_ROOT/corpus/seeds" "$MBD_ROOT/corpus/regressions")
[[ -d $MBD_ROOT/corpus/real ]] && dirs+=("$MBD_ROOT/corpus/real")
args=(--variants "$baseline,$variant")
[[ $min_class ]] && args+=(--min-class "$min_class")
[[ $known ]] && args+=(--known "$known")
# the corpus replay compares the two variants only: the real traces' expect
# checkpoints and the oracle judge the baseline, which is not the question
cargs=("${args[@]}" --no-expect --no-oracle --quiet)

# signatures seen, "known SIG | COMMIT" or "unexplained SIG", one a line
sigs=$work/signatures.txt
: >"$sigs"

mbd_log "replaying $baseline~$variant over ${dirs[*]}"
set +e
"$mbdiff" replay "${cargs[@]}" "${dirs[@]}" >"$work/corpus.out" 2>&1
rc=$?
set -e
((rc <= 1)) || { cat "$work/corpus.out" >&2; mbd_die "replay failed (rc $rc)"; }
n_in=$(sed -n 's/^replayed \([0-9]*\) inputs.*/\1/p' "$work/corpus.out" | tail -n 1)
c_known=$(grep -c '^known: ' "$work/corpus.out" || true)
c_unexp=$(grep -c '^input: ' "$work/corpus.out" || true)
sed -n 's/^known: [^ ]*: \(mbdiff: .*\)/known \1/p' "$work/corpus.out" >>"$sigs"
grep -E '^mbdiff: (divergence|oracle) ' "$work/corpus.out" | sed 's/^/unexplained /' >>"$sigs" || true
echo "corpus: ${n_in:-?} inputs, $((${n_in:-0} - c_known - c_unexp)) agree, $c_known known differences, $c_unexp unexplained"
if ((c_unexp)); then
	echo "the first unexplained one:"
	awk '/^input: /{n++} /^replayed /{exit} n==1' "$work/corpus.out" | head -60 || true
fi

f_execs=0 f_secs=0
if ((time > 0)); then
	fuzzer=$fuzz_dir/fuzz_diff
	if [[ ! -x $fuzzer ]]; then
		mbd_die "$fuzzer not built (scripts/build.sh fuzz): no fuzz campaign"
	elif ! "$fuzz_dir/mbdiff" list 2>/dev/null | grep -q "^$variant[[:space:]]"; then
		mbd_die "$variant is not in the fuzz build: scripts/build.sh fuzz (registered with --preset default only? scripts/kernel-variant.sh --tree DIR --name NAME registers it for every preset)"
	fi
	mkdir -p "$work/crashes" "$work/corpus" "$work/unexplained"
	fargs=("--variants=$baseline,$variant" "-max_total_time=$time"
		"-artifact_prefix=$work/crashes/" "-print_final_stats=1"
		"--keep-going=$work/unexplained" "-max_len=$max_len")
	[[ $runs ]] && fargs+=("-runs=$runs")
	[[ $min_class ]] && fargs+=("--min-class=$min_class")
	[[ $known ]] && fargs+=("--known=$known")
	mbd_log "fuzzing $baseline~$variant for ${time}s${runs:+ or $runs runs}"
	start=$(mbd_now)
	set +e
	"$fuzzer" "${fargs[@]}" "$work/corpus" "$MBD_ROOT/corpus/seeds" >"$work/fuzz.log" 2>&1
	frc=$?
	set -e
	f_secs=$(mbd_elapsed "$start" | cut -d. -f1)
	f_execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log" | tail -n 1)
	f_execs=${f_execs:-0}
	sed -n 's/^mbdiff: known difference: //p' "$work/fuzz.log" | sed 's/^/known /' >>"$sigs"
	sed -n 's/^mbdiff: unexplained difference: //p' "$work/fuzz.log" | sed 's/^/unexplained /' >>"$sigs"
	mapfile -t crashes < <(find "$work/crashes" -type f | sort)
	if ((${#crashes[@]})); then
		# a crash the target could not keep going past (sanitizer, signal)
		for c in "${crashes[@]}"; do
			echo "unexplained crash $(mbd_rel "$c")" >>"$sigs"
		done
	elif ((frc != 0)); then
		tail -n 20 "$work/fuzz.log" >&2
		mbd_die "the fuzz target exited $frc without a crash file"
	fi
	echo "fuzz: $f_execs executions in ${f_secs} s"
	# one reproducer per unexplained signature, minimized
	n=0
	for f in "$work"/unexplained/*.mbt; do
		[[ -e $f ]] || continue
		n=$((n + 1))
		if "$mbdiff" minimize "$f" -o "$work/unexplained-$n.mbt" "${args[@]}" >/dev/null 2>&1; then
			echo "reproducer: $(mbd_rel "$work/unexplained-$n.mbt")"
		fi
	done
fi

# distinct signatures, corpus and fuzz together
sort -u "$sigs" -o "$sigs"
u_known=$(grep -c '^known ' "$sigs" || true)
u_unexp=$(grep -c '^unexplained ' "$sigs" || true)
f_known=0 f_unexp=0
if [[ -f $work/fuzz.log ]]; then
	f_known=$(sed -n 's/^mbdiff: known difference: //p' "$work/fuzz.log" | sort -u | wc -l)
	f_unexp=$(sed -n 's/^mbdiff: unexplained difference: //p' "$work/fuzz.log" | sort -u | wc -l)
fi
echo "distinct signatures: $u_known known, $u_unexp unexplained ($(mbd_rel "$sigs"))"
sed 's/^/  /' "$sigs"
echo "fidelity-corpus: inputs=${n_in:-0} agree=$((${n_in:-0} - c_known - c_unexp)) known=$c_known unexplained=$c_unexp"
echo "fidelity-fuzz: execs=$f_execs seconds=$f_secs known=$f_known unexplained=$f_unexp"
sed 's/^/fidelity-signature: /' "$sigs"
if ((u_unexp == 0)); then
	echo "fidelity: $baseline and $variant agree but for known differences ($u_known distinct)"
	exit 0
fi
echo "fidelity: $baseline and $variant: $u_unexp UNEXPLAINED difference(s) (see above; add explained ones to a known file, docs/fidelity.md)"
exit 1
