#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/minimize-crash.sh [options] CRASH
#
# Shrink a crash file two ways:
#   CRASH.min  smallest byte string the engine finds that still crashes
#              (libFuzzer -minimize_crash=1, or afl-tmin): any crash counts
#   CRASH.mbt  readable .mbt trace from `mbdiff minimize` of CRASH, which
#              keeps the divergence signature (variants, type, class, call)
# and print the signature and the replay command of each.
#
# Options:
#   --engine E      libfuzzer or afl (default: afl for AFL++ crash names
#                   such as id:000001,sig:06,... or afl-main-000001-sig06)
#   --runs N        libFuzzer runs per minimization step (default 10000)
#   --time S        libFuzzer time limit for the byte minimization (default 60)
#   --variants A,B  default reference,zhou-2025 (use the campaign's)
#   --decoder D     structured (default) or naive (use the campaign's)
#   --min-class C   as in the campaign (default capacity)
#   -o, --out BASE  write BASE.min and BASE.mbt (default: CRASH.min, CRASH.mbt)
#   --no-bytes      skip the engine's byte minimization
#   --no-mbt        skip `mbdiff minimize`
#   --binary FILE   target binary (default build/fuzz/fuzz_diff or
#                   build/afl/afl_diff)
#   -h, --help      this text
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

engine=
runs=10000
time_s=60
variants=$MBD_DEFAULT_VARIANTS
decoder=structured
min_class=$MBD_DEFAULT_CLASS
base=
do_bytes=1
do_mbt=1
binary=
crash=
while (($#)); do
	case $1 in
	--engine | --engine=*) mbd_optval "$@"; engine=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--runs | --runs=*) mbd_optval "$@"; runs=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--time | --time=*) mbd_optval "$@"; time_s=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--variants | --variants=*) mbd_optval "$@"; variants=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--decoder | --decoder=*) mbd_optval "$@"; decoder=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--min-class | --min-class=*) mbd_optval "$@"; min_class=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	-o | --out | --out=*) mbd_optval "$@"; base=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--binary | --binary=*) mbd_optval "$@"; binary=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--no-bytes) do_bytes=0; shift ;;
	--no-mbt) do_mbt=0; shift ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	-*) mbd_usage_error "unknown option '$1'" ;;
	*)
		[[ -z $crash ]] || mbd_usage_error "one crash file at a time (got '$crash' and '$1')"
		crash=$1
		shift
		;;
	esac
done
[[ -n $crash ]] || mbd_usage_error "no crash file given"
[[ -f $crash ]] || mbd_usage_error "crash file '$crash' not found"
if [[ -z $engine ]]; then
	case $(basename "$crash") in
	id:*,sig:* | afl-*) engine=afl ;;
	*) engine=libfuzzer ;;
	esac
fi
mbd_check_engine "$engine"
if [[ -n $binary && ! -x $binary ]]; then
	mbd_usage_error "--binary '$binary' is not an executable file"
fi
mbd_check_uint --runs "$runs"
mbd_check_uint --time "$time_s"
mbd_check_variants "$variants"
mbd_check_decoder "$decoder"
if [[ -n $min_class ]]; then mbd_check_class "$min_class"; fi
mbd_set_target_args "$variants" "$decoder" "$min_class" 0
((do_bytes || do_mbt)) || mbd_usage_error "--no-bytes and --no-mbt leave nothing to do"

crash=$(mbd_abs "$crash")
base=$(mbd_abs "${base:-$crash}")
min=$base.min
mbt=$base.mbt
mkdir -p "$(dirname "$base")"
work=$(mktemp -d "${TMPDIR:-/tmp}/mbdiff-min.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "crash:     $(mbd_rel "$crash") ($(stat -c %s "$crash") bytes)"
echo "signature: $(mbd_signature "$crash")"

if ((do_bytes)); then
	if [[ $engine == libfuzzer ]]; then
		bin=$(mbd_abs "${binary:-$(mbd_prog fuzz fuzz_diff)}")
		mbd_require_bin "$bin" fuzz
		cmd=("$bin" -minimize_crash=1 "-runs=$runs" "-max_total_time=$time_s"
			"-exact_artifact_path=$min" "${MBD_TARGET_ARGS[@]}" "$crash")
	else
		command -v afl-tmin >/dev/null 2>&1 || mbd_die "afl-tmin not found; install afl++ with: bash scripts/setup.sh"
		bin=$(mbd_abs "${binary:-$(mbd_prog afl afl_diff)}")
		mbd_require_bin "$bin" afl
		cmd=(afl-tmin -i "$crash" -o "$min" -- "$bin" "${MBD_TARGET_ARGS[@]}")
	fi
	mbd_log "byte minimization: $(mbd_quote "${cmd[@]}")"
	rc=0
	# cwd in the scratch dir: libFuzzer drops stray artifacts there.
	(cd "$work" && timeout --kill-after=10 "$((time_s + 300))" "${cmd[@]}") >"$work/bytes.log" 2>&1 || rc=$?
	if [[ -s $min ]]; then
		echo "bytes:     $(mbd_rel "$min") ($(stat -c %s "$min") bytes)"
		echo "  signature: $(mbd_signature "$min")"
		echo "  replay:    $(mbd_replay_cmd "$min")"
	else
		mbd_warn "byte minimization produced nothing (exit $rc); last lines:"
		tail -n 8 "$work/bytes.log" >&2
		if grep -q 'did not crash' "$work/bytes.log"; then
			mbd_warn "the input does not crash $(mbd_rel "$bin") with ${MBD_TARGET_ARGS[*]}: wrong --variants/--decoder?"
		fi
	fi
fi

if ((do_mbt)); then
	mbdiff=$(mbd_mbdiff)
	mbd_require_bin "$mbdiff" default
	cmd=("$mbdiff" minimize "${MBD_TARGET_ARGS[@]}" "$crash" -o "$mbt")
	mbd_log "trace minimization: $(mbd_quote "${cmd[@]}")"
	rc=0
	"${cmd[@]}" >"$work/mbt.log" 2>&1 || rc=$?
	# exit 1: a reproducer was written; 0: the input does not diverge.
	if ((rc == 1)) && [[ -s $mbt ]]; then
		echo "trace:     $(mbd_rel "$mbt") ($(grep -cvE '^[[:space:]]*(#|config|expect|$)' "$mbt" || true) calls)"
		echo "  signature: $(mbd_signature "$mbt")"
		echo "  replay:    $(mbd_replay_cmd "$mbt")"
	else
		if ((rc == 0)); then
			mbd_warn "$(mbd_rel "$crash") does not diverge in $(mbd_rel "$mbdiff") with ${MBD_TARGET_ARGS[*]}"
		fi
		mbd_warn "mbdiff minimize failed (exit $rc):"
		tail -n 8 "$work/mbt.log" >&2
		exit 1
	fi
fi
