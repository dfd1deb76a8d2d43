#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/ci-fuzz.sh [options] [-- ENGINE-ARGS...]
#
# Time-boxed fuzzing for CI: build, run scripts/fuzz.sh into an artifact
# directory, and fail (exit 1) on any divergence or crash, printing for
# each one its signature and the exact command that replays it.
#
# The campaign runs inside the artifact directory, so every crash file is
# on disk the moment the engine saves it. On TERM/INT/HUP (a CI time limit,
# `timeout`, Ctrl-C) and on exit the crashes found so far (AFL++ ones
# included) are gathered into ARTIFACTS/crashes/ and reported before the
# script ends. libFuzzer stops at its first crash; AFL++ goes on to the end.
#
# Options:
#   --time S          seconds of fuzzing (default 600)
#   --engine E        libfuzzer (default) or afl
#   --jobs N          parallel fuzzers (default 1)
#   --variants A,B    default reference,zhou-2025
#   --decoder D       structured (default) or naive
#   --min-class C     ignore differences below class C (default capacity)
#   --artifacts DIR   default artifacts/ci-fuzz-<engine>-<date>
#   --seeds DIR       seed inputs (default corpus/seeds); --no-seeds: none
#   --binary FILE     fuzz target to run instead of the built one
#   --no-build        do not run scripts/setup.sh and scripts/build.sh first
#   --verbose         stream the engine's output (default: progress lines)
#   -h, --help        this text
# Arguments after "--" go to the engine (see scripts/fuzz.sh).
#
# Artifact directory: crashes/ (every finding), crashes.txt (signature and
# replay command of each), summary.txt, fuzz-summary.txt, logs/, corpus/,
# afl/ (AFL++ output).
#
# Exit status: 0 nothing found, 1 a divergence or crash was found or the
# campaign failed, 2 bad usage, 128+N stopped by signal N with nothing found.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

time_s=600
engine=libfuzzer
jobs=1
variants=$MBD_DEFAULT_VARIANTS
decoder=structured
min_class=$MBD_DEFAULT_CLASS
artifacts=
build=1
verbose=0
fuzz_args=()
engine_args=()
while (($#)); do
	case $1 in
	--time | --time=*) mbd_optval "$@"; time_s=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--engine | --engine=*) mbd_optval "$@"; engine=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--jobs | --jobs=*) mbd_optval "$@"; jobs=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--variants | --variants=*) mbd_optval "$@"; variants=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--decoder | --decoder=*) mbd_optval "$@"; decoder=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--min-class | --min-class=*) mbd_optval "$@"; min_class=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--artifacts | --artifacts=*) mbd_optval "$@"; artifacts=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--seeds | --seeds=*) mbd_optval "$@"; fuzz_args+=(--seeds "$MBD_OPTVAL"); shift "$MBD_SHIFT" ;;
	--binary | --binary=*) mbd_optval "$@"; fuzz_args+=(--binary "$(mbd_abs "$MBD_OPTVAL")"); shift "$MBD_SHIFT" ;;
	--no-seeds) fuzz_args+=(--no-seeds); shift ;;
	--no-build) build=0; shift ;;
	--verbose | -v) verbose=1; shift ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	--) shift; engine_args=("$@"); break ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
done
mbd_check_uint --time "$time_s"
mbd_check_engine "$engine"
mbd_check_uint --jobs "$jobs"
mbd_check_variants "$variants"
mbd_check_decoder "$decoder"
if [[ -n $min_class ]]; then mbd_check_class "$min_class"; fi
mbd_set_target_args "$variants" "$decoder" "$min_class" 0
pair=$(mbd_pair_name "$variants")

adir=$MBD_ROOT/artifacts
((MBD_INSTALLED)) && adir=$MBD_OUT/artifacts
artifacts=$(mbd_abs "${artifacts:-$adir/ci-fuzz-$engine-$(mbd_timestamp)}")

if ((build)); then
	if [[ $engine == afl ]]; then
		bash "$MBD_ROOT/scripts/setup.sh"
		bash "$MBD_ROOT/scripts/build.sh" default afl
	else
		bash "$MBD_ROOT/scripts/setup.sh" --no-afl
		bash "$MBD_ROOT/scripts/build.sh" default fuzz
	fi
fi

mkdir -p "$artifacts" || mbd_die "cannot create $artifacts"

finished=0
fuzz_rc=
# Gather and report what was found; runs once, from the main flow or the
# EXIT trap (set -e failures, an unexpected exit).
finish() {
	local rc=0
	if ((finished)); then return 0; fi
	finished=1
	trap - EXIT
	mbd_kill_children
	mbd_gather_crashes "$artifacts" || true
	echo
	echo "== ci-fuzz: $pair ($engine, ${time_s}s) artifacts in $(mbd_rel "$artifacts") =="
	mbd_report_crashes "$artifacts" || true
	{
		grep -E '^(execs|execs_per_sec|seconds)=' "$artifacts/summary.txt" 2>/dev/null || true
		printf 'crashes=%s\nfuzz_rc=%s\ninterrupted=%s\n' "$MBD_CRASH_COUNT" "$fuzz_rc" "$MBD_INTERRUPTED"
	} >"$artifacts/ci-result.txt"
	if ((MBD_CRASH_COUNT > 0)); then
		echo "ci-fuzz: FAIL: $MBD_CRASH_COUNT divergence(s)/crash(es) found; inputs in $(mbd_rel "$artifacts/crashes")," \
			"signatures and replay commands in $(mbd_rel "$artifacts/crashes.txt")"
		rc=1
	elif [[ -n $MBD_INTERRUPTED ]]; then
		echo "ci-fuzz: stopped by SIG$MBD_INTERRUPTED; nothing found so far"
		rc=$((128 + $(kill -l "$MBD_INTERRUPTED")))
	elif [[ $fuzz_rc != 0 ]]; then
		echo "ci-fuzz: FAIL: the campaign did not run properly (scripts/fuzz.sh exit ${fuzz_rc:-?}); see $(mbd_rel "$artifacts/logs")"
		rc=1
	else
		echo "ci-fuzz: OK: no divergence in ${time_s} s ($(sed -n 's/^execs=//p' "$artifacts/summary.txt" 2>/dev/null || echo '?') execs)"
	fi
	exit "$rc"
}
trap finish EXIT
mbd_trap_signals

cmd=(bash "$MBD_ROOT/scripts/fuzz.sh" --engine "$engine" --time "$time_s" --jobs "$jobs"
	--variants "$variants" --decoder "$decoder" --out "$artifacts" "${fuzz_args[@]}")
if [[ -n $min_class ]]; then cmd+=(--min-class "$min_class"); fi
if ((!verbose)); then cmd+=(--quiet); fi
cmd+=(-- "${engine_args[@]}")
mbd_log "running: $(mbd_quote "${cmd[@]}")"
# fuzz.sh's own summary goes to a file; its progress (stderr) to the CI log.
mbd_spawn "${cmd[@]}" >"$artifacts/fuzz-summary.txt"
mbd_wait "$MBD_LAST_PID"
fuzz_rc=$MBD_WAIT_RC
mbd_reap_killers
# finish decides from the crash files first: fuzz.sh exits 1 both for
# "crashes found" and for its own errors.
finish
