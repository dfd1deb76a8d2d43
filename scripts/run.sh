#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/run.sh [--time S] [--variants A,B] [--engine E] [--jobs N]
#                       [--decoder D] [--out DIR]
#
# The first command to try: install what is missing, build, fuzz the
# reference memblock against the zhou-2025 patch for a bounded time, and
# if they diverge, minimize the first divergence to a readable .mbt trace
# and print its report, where everything is saved and how to replay it.
#
# Options:
#   --time S        seconds of fuzzing (default 60)
#   --variants A,B  default reference,zhou-2025
#   --engine E      libfuzzer (default) or afl
#   --jobs N        parallel fuzzers (default 1)
#   --decoder D     structured (default) or naive
#   --min-class C   ignore differences below class C (default capacity:
#                   every difference but a WARN count alone; warning
#                   shows those too)
#   --out DIR       default out/run-<date>
#   -h, --help      this text
#
# Exit status: 0 when the campaign ran (whether or not it found a
# divergence), 1 when setup, build or the campaign failed.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

time_s=60
variants=$MBD_DEFAULT_VARIANTS
engine=libfuzzer
jobs=1
decoder=structured
min_class=$MBD_DEFAULT_CLASS
out=
while (($#)); do
	case $1 in
	--time | --time=*) mbd_optval "$@"; time_s=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--variants | --variants=*) mbd_optval "$@"; variants=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--engine | --engine=*) mbd_optval "$@"; engine=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--jobs | --jobs=*) mbd_optval "$@"; jobs=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--decoder | --decoder=*) mbd_optval "$@"; decoder=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--min-class | --min-class=*) mbd_optval "$@"; min_class=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--out | --out=*) mbd_optval "$@"; out=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
done
mbd_check_uint --time "$time_s"
mbd_check_variants "$variants"
mbd_check_engine "$engine"
mbd_check_uint --jobs "$jobs"
mbd_check_decoder "$decoder"
mbd_check_class "$min_class"
mbd_set_target_args "$variants" "$decoder" "$min_class" 0
pair=$(mbd_pair_name "$variants")
out=$(mbd_abs "${out:-$MBD_OUT/run-$(mbd_timestamp)}")
scripts=$MBD_ROOT/scripts

mkdir -p "$out/logs" || mbd_die "cannot create $out"
echo "== 1/3 setup and build =="
presets=(default fuzz)
setup_args=(--no-afl)
if [[ $engine == afl ]]; then
	presets+=(afl)
	setup_args=()
fi
bash "$scripts/setup.sh" "${setup_args[@]}" || exit 1
echo "building presets ${presets[*]} (log: $(mbd_rel "$out/logs/build.log")) ..."
if ! bash "$scripts/build.sh" "${presets[@]}" >"$out/logs/build.log" 2>&1; then
	tail -n 30 "$out/logs/build.log" >&2
	mbd_die "the build failed; full log: $(mbd_rel "$out/logs/build.log")"
fi
mbdiff=$(mbd_mbdiff)
mbd_require_bin "$mbdiff" default

echo
echo "== 2/3 fuzzing $pair for $time_s s ($engine) =="
rc=0
bash "$scripts/fuzz.sh" --engine "$engine" --time "$time_s" --jobs "$jobs" \
	--variants "$variants" --decoder "$decoder" --min-class "$min_class" \
	--out "$out" --quiet \
	>"$out/fuzz-summary.txt" || rc=$?
if ((rc != 0 && rc != 1)); then
	cat "$out/fuzz-summary.txt"
	mbd_die "the campaign failed (scripts/fuzz.sh exit $rc); see $(mbd_rel "$out")/logs/"
fi

summary() { sed -n "s/^$1=//p" "$out/summary.txt" 2>/dev/null | head -n 1; }
log=$(summary log)
execs=$(summary execs)
seconds=$(summary seconds)
mapfile -t crashes < <(mbd_crash_files "$out/crashes")

echo
echo "== 3/3 result =="
if ((${#crashes[@]} == 0)); then
	if ((rc != 0)); then
		mbd_die "the campaign failed without saving a crash; see $(mbd_rel "$out")/logs/"
	fi
	echo "No divergence between ${variants//,/ and } in $time_s s (${execs:-?} execs in ${seconds:-?} s)."
	echo "Campaign directory: $(mbd_rel "$out") (log: $(mbd_rel "${log:-$out/logs}"))"
	echo "Fuzz longer with: bash scripts/run.sh --time 600, or bash scripts/fuzz.sh --help"
	exit 0
fi

# The first divergence (crashes are oldest first); an engine-only finding
# (out-of-memory, timeout, sanitizer report) is shown when there is none.
crash=
for f in "${crashes[@]}"; do
	sig=$(mbd_signature "$f")
	if [[ $sig == "mbdiff: "* ]]; then
		crash=$f
		break
	fi
done
if [[ -z $crash ]]; then
	crash=${crashes[0]}
	sig=$(mbd_signature "$crash")
	echo "No divergence, but the engine saved ${#crashes[@]} finding(s) after ${seconds:-?} s (${execs:-?} execs):"
	echo "  $(mbd_rel "$crash"): $sig"
	echo "This is a problem of the harness or of a variant (memory use, hang or memory error), not a difference"
	echo "between the variants. Reproduce it with the sanitized target:"
	echo "  $(mbd_quote "$(mbd_rel "$(mbd_prog fuzz fuzz_diff)")" "${MBD_TARGET_ARGS[@]}" "$(mbd_rel "$crash")")"
	echo "full log:     $(mbd_rel "${log:-$out/logs}")"
	echo "(run from the repo root: $MBD_ROOT)"
	exit 0
fi
repro=$out/repro.mbt
echo "Divergence found after ${seconds:-?} s (${execs:-?} execs): $sig"
echo "Minimizing $(mbd_rel "$crash") ..."
# mbdiff minimize: exit 1 = reproducer written, 0 = input does not diverge.
rc=0
"$mbdiff" minimize "${MBD_TARGET_ARGS[@]}" "$crash" -o "$repro" >"$out/logs/minimize.log" 2>&1 || rc=$?
if ((rc == 1)) && [[ -s $repro ]]; then
	shown=$repro
else
	if ((rc == 0)); then
		mbd_warn "$(mbd_rel "$crash") does not diverge when replayed without sanitizers (a sanitizer-only crash?)"
	fi
	mbd_warn "minimization failed (exit $rc, see $(mbd_rel "$out/logs/minimize.log")); showing the unminimized input"
	tail -n 5 "$out/logs/minimize.log" >&2
	repro=
	shown=$crash
fi

# The report: the trace up to the diverging call, both arrays side by side
# and the signature line last.
"$mbdiff" replay "${MBD_TARGET_ARGS[@]}" "$shown" >"$out/report.txt" 2>&1 || true
echo
cat "$out/report.txt"
signature=$(grep -E '^mbdiff: (divergence|oracle)' "$out/report.txt" | tail -n 1) || true
if [[ -z $signature ]]; then
	signature=$(mbd_signature "$crash")
fi

echo
echo "signature:    $signature"
echo "crash input:  $(mbd_rel "$crash")"
if [[ -n $repro ]]; then
	echo "reproducer:   $(mbd_rel "$repro") ($(grep -cvE '^[[:space:]]*(#|config|expect|$)' "$repro" || true) calls, minimized)"
fi
echo "report:       $(mbd_rel "$out/report.txt")"
echo "full log:     $(mbd_rel "${log:-$out/logs}")"
echo "all crashes:  $(mbd_rel "$out/crashes.txt")"
echo "replay with:  $(mbd_replay_cmd "$shown")"
echo "(run from the repo root: $MBD_ROOT)"
exit 0
