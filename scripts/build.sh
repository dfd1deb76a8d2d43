#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/build.sh [options] [PRESET...]
#
# Configure and build CMake presets into build/<preset>/:
#   cmake --preset PRESET && cmake --build --preset PRESET -j<cores>
# Default presets: default fuzz. Presets (CMakePresets.json): default
# (system cc, tests), asan (clang, ASan+UBSan), fuzz (libFuzzer target),
# fuzz-plain (libFuzzer without sanitizers), afl (AFL++ target, needs
# afl-clang-fast: scripts/setup.sh installs afl++).
#
# Options:
#   --all        every configure preset; afl is skipped (with a warning)
#                when afl-clang-fast is not installed
#   -j, --jobs N parallel build jobs (default: number of cores)
#   --clean      delete build/<preset> first
#   --werror     configure with -DMBDIFF_WERROR=ON (the default when CI=true)
#   --list       list the presets and exit
#   -h, --help   this text
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

presets=()
all=0
clean=0
werror=0
if [[ ${CI:-} == true ]]; then werror=1; fi
jobs=$(mbd_nproc)
while (($#)); do
	case $1 in
	--all) all=1 ;;
	--clean) clean=1 ;;
	--werror) werror=1 ;;
	-j | --jobs | --jobs=*)
		mbd_optval "$@"
		jobs=$MBD_OPTVAL
		shift "$((MBD_SHIFT - 1))"
		;;
	-j[0-9]*) jobs=${1#-j} ;;
	--list)
		cd "$MBD_ROOT" && cmake --list-presets
		exit 0
		;;
	-h | --help)
		mbd_help "$0"
		exit 0
		;;
	-*) mbd_usage_error "unknown option '$1'" ;;
	*) presets+=("$1") ;;
	esac
	shift
done
mbd_check_uint --jobs "$jobs"

cd "$MBD_ROOT"
if [[ ! -f CMakeLists.txt || ! -f CMakePresets.json ]]; then
	mbd_die "no CMakeLists.txt/CMakePresets.json in $MBD_ROOT"
fi
command -v cmake >/dev/null 2>&1 || mbd_die "cmake not found; run: bash scripts/setup.sh"

# Names from `cmake --list-presets[=build]`: lines like   "name"  - text
list_presets() {
	cmake "--list-presets=$1" 2>/dev/null | sed -n 's/^[[:space:]]*"\([^"]*\)".*/\1/p'
}
mapfile -t configure_presets < <(list_presets configure)
mapfile -t build_presets < <(list_presets build)

have() {
	local want=$1 p
	shift
	for p in "$@"; do
		if [[ $p == "$want" ]]; then return 0; fi
	done
	return 1
}

if ((all)); then
	presets=("${configure_presets[@]}")
elif ((${#presets[@]} == 0)); then
	presets=(default fuzz)
fi

for p in "${presets[@]}"; do
	if ! have "$p" "${configure_presets[@]}"; then
		mbd_die "unknown preset '$p'; presets: ${configure_presets[*]}"
	fi
done

configure_args=()
if ((werror)); then
	configure_args+=(-DMBDIFF_WERROR=ON)
fi

built=()
for p in "${presets[@]}"; do
	if [[ $p == afl ]] && ! command -v afl-clang-fast >/dev/null 2>&1; then
		if ((all)); then
			mbd_warn "skipping preset afl: afl-clang-fast not found (install afl++: bash scripts/setup.sh)"
			continue
		fi
		mbd_die "preset afl needs afl-clang-fast; install afl++ with: bash scripts/setup.sh"
	fi
	dir=$(mbd_build_dir "$p")
	if ((clean)) && [[ -d $dir ]]; then
		mbd_log "removing $(mbd_rel "$dir")"
		rm -rf -- "$dir"
	fi
	mbd_log "configuring preset $p"
	if ! cmake --preset "$p" "${configure_args[@]}"; then
		mbd_die "configuring preset $p failed (see above)"
	fi
	mbd_log "building preset $p (-j$jobs)"
	if have "$p" "${build_presets[@]}"; then
		build_cmd=(cmake --build --preset "$p" -j "$jobs")
	else
		build_cmd=(cmake --build "$dir" -j "$jobs")
	fi
	if ! "${build_cmd[@]}"; then
		mbd_die "building preset $p failed (see above)"
	fi
	built+=("$p")
done
mbd_log "built: ${built[*]:-nothing}"
