#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/pin-kernel-trees.sh [--version V]... [--trees DIR] [--work DIR] [--cc CC]
#
# Rewrite the pinned differences tests/algorithms/kernel-trees/V.expected of the real
# kernel files from what they do now: fetch the trees
# (scripts/get-kernel-tree.sh), build them as kernel:real-V in one
# throwaway build and replay the corpus, exactly as the kernel-variant/real-*
# tests do, then put this run's lines into each V.expected. Explanations of
# lines that are still there are kept; lines that went away are dropped and
# new ones land under a "NEW, not explained yet" comment (both listed on
# stderr): read `git diff tests/algorithms/kernel-trees`, explain or fix each NEW line,
# and commit. Run it after any change to the reference model, the oracle
# or kcompat that moves these differences.
#
# Options:
#   --version V  pin linux-V (repeat; default: every tests/algorithms/kernel-trees/V.expected).
#                A version without a V.expected gets a new one.
#   --trees DIR  where the trees are (default: build/kernel-trees)
#   --work DIR   the throwaway build (default: build/pin-kernel-trees)
#   --cc CC      compiler (default: cc)
#   -h, --help   this text
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

versions=()
trees=$MBD_BUILD/kernel-trees
work=$MBD_BUILD/pin-kernel-trees
cc=cc
while (($#)); do
	case $1 in
	--version | --version=*) mbd_optval "$@"; versions+=("$MBD_OPTVAL"); shift "$((MBD_SHIFT - 1))" ;;
	--trees | --trees=*) mbd_optval "$@"; trees=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--work | --work=*) mbd_optval "$@"; work=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--cc | --cc=*) mbd_optval "$@"; cc=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
	shift
done
pins=$MBD_ROOT/tests/algorithms/kernel-trees
if ((${#versions[@]} == 0)); then
	mapfile -t versions < <(find "$pins" -maxdepth 1 -name '*.expected' -printf '%f\n' | sed 's/\.expected$//' | sort -V)
fi
((${#versions[@]})) || mbd_die "no version given and no $pins/*.expected"
for v in "${versions[@]}"; do
	[[ $v =~ ^[0-9]+\.[0-9]+$ ]] || mbd_usage_error "--version '$v' must look like 6.12"
	# the build takes every version that has a pinned list: a new one starts empty
	[[ -f $pins/$v.expected ]] || : >"$pins/$v.expected"
done
trees=$(mbd_abs "$trees")
work=$(mbd_abs "$work")

args=()
for v in "${versions[@]}"; do args+=(--version "$v"); done
bash "$MBD_ROOT/scripts/get-kernel-tree.sh" --dest "$trees" "${args[@]}" >/dev/null ||
	mbd_die "could not fetch every tree (above)"

t=$MBD_ROOT/tests/algorithms/test_kernel_trees.sh
if ! bash "$t" build --src="$MBD_ROOT" --trees="$trees" --work="$work" --cc="$cc" >"$work.log" 2>&1; then
	cat "$work.log" >&2
	mbd_die "the build with the real trees failed (above)"
fi
status=0
for v in "${versions[@]}"; do
	if bash "$t" check --src="$MBD_ROOT" --trees="$trees" --work="$work" --version="$v" --update; then
		mbd_log "tests/algorithms/kernel-trees/$v.expected: $(grep -Ecv '^(#|$)' "$pins/$v.expected") lines"
	else
		status=1
	fi
done
exit "$status"
