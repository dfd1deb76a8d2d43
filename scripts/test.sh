#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/test.sh [--no-setup] [--no-afl] [-j N]
#
# Everything CI checks (.ci/run calls exactly this): install what is
# missing, build the presets default and fuzz (and afl when afl-clang-fast
# is installed), then run every ctest label (unit, regression, fuzz-smoke)
# of each, with --output-on-failure. Exits non-zero on any failure and
# ends with one line "N passed, M failed" over all the runs.
#
# Options:
#   --no-setup  skip scripts/setup.sh
#   --no-afl    neither require afl++ nor build/test the afl preset
#   --no-kernel-trees  do not fetch the real kernel files (v5.10, v6.1,
#               v6.12, v7.3: scripts/get-kernel-tree.sh, which takes
#               $MBDIFF_DEB_CACHE); kernel-variant/real-* then skip
#   -j N        parallel build jobs and tests (default: number of cores)
#   -h, --help  this text
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

setup=1
afl=1
ktrees=1
jobs=$(mbd_nproc)
while (($#)); do
	case $1 in
	--no-setup) setup=0; shift ;;
	--no-afl) afl=0; shift ;;
	--no-kernel-trees) ktrees=0; shift ;;
	-j | --jobs | --jobs=*) mbd_optval "$@"; jobs=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	-j[0-9]*) jobs=${1#-j}; shift ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
done
mbd_check_uint --jobs "$jobs"
cd "$MBD_ROOT"
start=$(mbd_now)

if ((setup)); then
	if ((afl)); then
		bash scripts/setup.sh
	else
		bash scripts/setup.sh --no-afl
	fi
fi

# Real kernel files for kernel-variant/real-*: Debian's linux-source
# packages, fetched once into build/kernel-trees (about 2 min for the four
# on a fresh clone: lists 30 s, then 2 s download and 15-25 s extraction
# each). A failed fetch is loud but leaves those tests skipped rather than failing the run.
if ((ktrees)) && ! bash scripts/get-kernel-tree.sh >/dev/null; then
	echo "test.sh: warning: could not fetch the real kernel trees; kernel-variant/real-* will be skipped" >&2
fi

presets=(default fuzz)
if ((afl)) && command -v afl-clang-fast >/dev/null 2>&1; then
	presets+=(afl)
fi
if ! bash scripts/build.sh -j "$jobs" "${presets[@]}"; then
	echo "test.sh: the build failed; no tests were run" >&2
	exit 1
fi

mapfile -t test_presets < <(cmake --list-presets=test 2>/dev/null |
	sed -n 's/^[[:space:]]*"\([^"]*\)".*/\1/p')
has_test_preset() {
	local p
	for p in "${test_presets[@]}"; do
		if [[ $p == "$1" ]]; then return 0; fi
	done
	return 1
}

total_pass=0
total_fail=0
failed_runs=()
log=$(mktemp "${TMPDIR:-/tmp}/mbdiff-test.XXXXXX")
trap 'rm -f "$log"' EXIT

for p in "${presets[@]}"; do
	dir=$(mbd_build_dir "$p")
	# Presets without tests (afl builds only the target) are skipped.
	ntests=$(ctest --test-dir "$dir" -N 2>/dev/null | sed -n 's/^Total Tests: \([0-9]*\).*/\1/p')
	if [[ -z $ntests || $ntests == 0 ]]; then
		echo "== ctest $p: no tests registered, skipped =="
		continue
	fi
	if has_test_preset "$p"; then
		cmd=(ctest --preset "$p" --output-on-failure -j "$jobs")
	else
		cmd=(ctest --test-dir "$dir" --output-on-failure -j "$jobs")
	fi
	echo "== $(mbd_quote "${cmd[@]}") =="
	rc=0
	"${cmd[@]}" 2>&1 | tee "$log" || rc=$?
	# ctest's own closing line: "95% tests passed, 1 tests failed out of 20"
	line=$(grep -E '^[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n 1) || true
	if [[ -n $line ]]; then
		fail=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
		all=$(sed -E 's/.* failed out of ([0-9]+).*/\1/' <<<"$line")
		total_pass=$((total_pass + all - fail))
		total_fail=$((total_fail + fail))
	elif ((rc != 0)); then
		total_fail=$((total_fail + 1)) # ctest itself failed (bad preset ...)
	fi
	if ((rc != 0)); then
		failed_runs+=("$p")
	fi
done

echo
echo "test.sh: presets ${presets[*]} in $(mbd_elapsed "$start") s${failed_runs[*]:+; failing runs: ${failed_runs[*]}}"
if ((total_pass + total_fail == 0)); then
	echo "test.sh: no tests ran" >&2
	echo "0 passed, 0 failed"
	exit 1
fi
echo "$total_pass passed, $total_fail failed"
if ((total_fail > 0 || ${#failed_runs[@]} > 0)); then
	exit 1
fi
exit 0
