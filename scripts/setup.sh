#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/setup.sh [--no-afl] [--verbose] [--check]
#
# Install the Debian packages mbdiff needs, and only those missing:
#   cmake make gcc clang libclang-rt-<clang major>-dev (libFuzzer) llvm
#   (llvm-cov, llvm-profdata) lld zip unzip patch binutils (objcopy, nm)
#   gnuplot-nox (afl-plot, bench-real.sh; any installed gnuplot will do)
#   libxml2-utils (xmllint: the SVG test) jq (mbdiff check's JSON) afl++
# When everything is present it prints nothing and takes well under a
# second. apt-get update runs only when something has to be installed.
# As root it installs; otherwise it names the missing packages and the
# sudo command to install them, and exits 1.
#
# Options:
#   --no-afl    do not require afl++ (libFuzzer campaigns only)
#   --check     only report what is missing (exit 1 if anything is)
#   --verbose   say so when everything is present
#   -h, --help  this text
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

want_afl=1
check_only=0
verbose=0
while (($#)); do
	case $1 in
	--no-afl) want_afl=0 ;;
	--check) check_only=1 ;;
	--verbose | -v) verbose=1 ;;
	-h | --help)
		mbd_help "$0"
		exit 0
		;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
	shift
done

# libFuzzer's runtime must match the installed clang; Debian's default
# clang (bookworm: 14) decides the version when clang is not there yet.
clang_major() {
	local v
	if command -v clang >/dev/null 2>&1 && v=$(clang -dumpversion 2>/dev/null); then
		printf '%s\n' "${v%%.*}"
	else
		printf '14\n'
	fi
}

wanted_packages() {
	local p=(cmake make gcc clang "libclang-rt-$(clang_major)-dev" llvm lld
		zip unzip patch binutils gnuplot-nox libxml2-utils jq)
	if ((want_afl)); then
		p+=(afl++)
	fi
	printf '%s\n' "${p[@]}"
}

# Prints the packages of "$@" that are not installed (one dpkg-query call).
missing_packages() {
	local -A ok=()
	local name status p
	while IFS=$'\t' read -r name status; do
		# "ii " = installed; "hi " = installed and held.
		if [[ $status == [ih]i* ]]; then
			ok[$name]=1
		fi
	done < <(dpkg-query -W -f='${Package}\t${db:Status-Abbrev}\n' "$@" 2>/dev/null || true)
	for p in "$@"; do
		if [[ -n ${ok[$p]:-} ]]; then
			continue
		fi
		# gnuplot-nox conflicts with gnuplot-qt/-x11: any gnuplot is enough.
		if [[ $p == gnuplot-nox ]] && command -v gnuplot >/dev/null 2>&1; then
			continue
		fi
		printf '%s\n' "$p"
	done
}

# Without dpkg (not Debian) we can only look for the commands.
if ! command -v dpkg-query >/dev/null 2>&1; then
	cmds=(cmake make gcc clang llvm-cov llvm-profdata ld.lld zip unzip patch objcopy nm gnuplot xmllint)
	if ((want_afl)); then
		cmds+=(afl-fuzz afl-clang-fast)
	fi
	absent=()
	for c in "${cmds[@]}"; do
		command -v "$c" >/dev/null 2>&1 || absent+=("$c")
	done
	if ((${#absent[@]})); then
		mbd_die "not a Debian system (no dpkg-query) and these commands are missing: ${absent[*]}; install them with your package manager"
	fi
	if ((verbose)); then
		mbd_log "all required commands are present"
	fi
	exit 0
fi

mapfile -t wanted < <(wanted_packages)
mapfile -t missing < <(missing_packages "${wanted[@]}")

if ((${#missing[@]} == 0)); then
	if ((verbose)); then
		mbd_log "all required packages are installed"
	fi
	exit 0
fi

install_cmd=(apt-get install -y --no-install-recommends "${missing[@]}")
if ((check_only)); then
	mbd_log "missing packages: ${missing[*]}"
	exit 1
fi
if ((EUID != 0)); then
	mbd_log "missing packages: ${missing[*]}"
	mbd_log "install them with:"
	printf '  sudo apt-get update && sudo %s\n' "$(mbd_quote "${install_cmd[@]}")" >&2
	exit 1
fi

mbd_log "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get update -qq; then
	mbd_die "apt-get update failed"
fi
if ! "${install_cmd[@]}" -qq; then
	mbd_die "apt-get install failed for: ${missing[*]}"
fi

# clang may just have been installed: make sure its own libFuzzer runtime
# is there too (its version was only a guess before).
mapfile -t still < <(missing_packages "${wanted[@]}" "libclang-rt-$(clang_major)-dev")
if ((${#still[@]})); then
	if ! apt-get install -y -qq --no-install-recommends "${still[@]}"; then
		mbd_die "apt-get install failed for: ${still[*]}"
	fi
fi
mbd_log "done"
