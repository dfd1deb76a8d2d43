#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/stability-probe.sh [--variants a,b] [--others K] [--warm]
#                                   [--build-dir DIR] [--no-build] [INPUT|DIR...]
#
# Which code paths depend on what ran before? Builds harness/fuzz/stability_probe.c
# (the fuzz target with clang -fsanitize-coverage=trace-pc-guard on every
# object, in its own build directory), runs each input, K other inputs,
# then the input again, and compares the two edge maps with AFL++'s
# hit-count buckets: the edges AFL++ would call unstable. Each is printed
# with its function and source line (addr2line). Inputs default to
# corpus/seeds and corpus/regressions.
#
# Options:
#   --variants a,b  fuzz target variants (default reference,reference-twin)
#   --others K      inputs run in between (default 3)
#   --warm          run every input once first (hides first-use paths)
#   --build-dir DIR (default build/probe)
#   --no-build      use the existing build
#   -h, --help      this text
# Exit status: 0 when every input's coverage repeats exactly, 1 when some
# edge is unstable, 2 on errors.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

variants=reference,reference-twin
others=3
warm=0
build=1
bdir=$(mbd_build_dir probe)
inputs=()
while (($#)); do
	case $1 in
	--variants | --variants=*) mbd_optval "$@"; variants=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--others | --others=*) mbd_optval "$@"; others=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--build-dir | --build-dir=*) mbd_optval "$@"; bdir=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--warm) warm=1 ;;
	--no-build) build=0 ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	-*) mbd_usage_error "unknown option '$1'" ;;
	*) inputs+=("$1") ;;
	esac
	shift
done
mbd_check_uint --others "$others"
((${#inputs[@]})) || inputs=("$MBD_ROOT/corpus/seeds" "$MBD_ROOT/corpus/regressions")
bdir=$(mbd_abs "$bdir")
probe=$bdir/stability_probe

if ((build)); then
	command -v clang >/dev/null || mbd_die "clang not found (scripts/setup.sh installs it)"
	# non-PIE, so addr2line takes the printed addresses as they are
	if ! { cmake -S "$MBD_ROOT" -B "$bdir" -DCMAKE_C_COMPILER=clang \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo -DMBDIFF_TESTS=OFF -DMBDIFF_STABILITY_PROBE=ON \
		-DCMAKE_POSITION_INDEPENDENT_CODE=OFF \
		"-DCMAKE_C_FLAGS=-fsanitize-coverage=trace-pc-guard -fno-pie" \
		-DCMAKE_EXE_LINKER_FLAGS=-no-pie >"$bdir.configure.log" 2>&1 &&
		cmake --build "$bdir" --target stability_probe -j "$(mbd_nproc)" >"$bdir.build.log" 2>&1; }; then
		tail -30 "$bdir.configure.log" "$bdir.build.log" >&2 || true
		mbd_die "building $probe failed"
	fi
fi
[[ -x $probe ]] || mbd_die "$probe not built (run without --no-build)"

args=("--variants=$variants" "--others=$others")
((warm)) && args+=(--warm)
set +e
"$probe" "${args[@]}" "${inputs[@]}" >"$bdir.out" 2>"$bdir.err"
rc=$?
set -e
if ((rc > 1)); then
	cat "$bdir.err" >&2
	mbd_die "stability_probe failed (rc $rc)"
fi
# edge N pc 0xADDR first/second bucket A/B input PATH
while read -r _ edge _ pc _ _ buckets _ input; do
	where=$(addr2line -f -i -p -e "$probe" "$(printf '%x' $((pc - 1)))" 2>/dev/null | head -n 1)
	printf 'unstable edge %s (buckets %s, first seen on %s): %s\n' \
		"$edge" "$buckets" "$(mbd_rel "$input")" "${where:-?}"
done < <(grep '^edge ' "$bdir.out")
tail -n 1 "$bdir.out"
exit "$rc"
