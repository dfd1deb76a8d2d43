#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/get-kernel-tree.sh [--version V]... [--dest DIR] [--force] [--print]
#
# Fetch a real kernel's mm/memblock.c and include/linux/memblock.h from
# Debian's linux-source-V package and lay them out as a minimal kernel
# tree (plus the top-level Makefile, which names the exact release):
#
#   DIR/linux-V/mm/memblock.c
#   DIR/linux-V/include/linux/memblock.h
#   DIR/linux-V/Makefile
#
# For machines without a kernel checkout: the trees are what
# scripts/kernel-variant.sh --tree takes, and what scripts/test.sh uses for
# the kernel-variant/real-* tests. Nothing lands in the source tree (the
# default DIR, build/kernel-trees, is ignored by git). A tree that is
# already there is kept unless --force. The package (about 150 MB) is
# downloaded with apt-get into a temporary folder and deleted afterwards.
#
# Options:
#   --version V  Debian's linux-source-V (default: 6.12 and 6.1, the two
#                this Debian release ships); repeat for several
#   --dest DIR   where to put linux-V/ (default: build/kernel-trees)
#   --force      fetch again even if the tree is there
#   --print      only print the tree paths that exist (nothing is fetched)
#   -h, --help   this text
# Prints one tree path a line on stdout. Exits 1 if a package cannot be had.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

versions=()
dest=$MBD_ROOT/build/kernel-trees
force=0
print_only=0
while (($#)); do
	case $1 in
	--version | --version=*) mbd_optval "$@"; versions+=("$MBD_OPTVAL"); shift "$((MBD_SHIFT - 1))" ;;
	--dest | --dest=*) mbd_optval "$@"; dest=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--force) force=1 ;;
	--print) print_only=1 ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
	shift
done
((${#versions[@]})) || versions=(6.12 6.1)
for v in "${versions[@]}"; do
	[[ $v =~ ^[0-9]+\.[0-9]+$ ]] || mbd_usage_error "--version '$v' must look like 6.12"
done
dest=$(mbd_abs "$dest")

files=(mm/memblock.c include/linux/memblock.h Makefile)

have_tree() {
	local f
	for f in "${files[@]}"; do
		[[ -s $1/$f ]] || return 1
	done
}

fetch() {
	local v=$1 tree=$dest/linux-$1 tmp deb rel
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/mbdiff-ksrc.XXXXXX")
	# shellcheck disable=SC2064 # expand now: the trap must remove this folder
	trap "rm -rf '$tmp'" RETURN
	if ! apt-cache show "linux-source-$v" >/dev/null 2>&1; then
		# an old or missing package list: refresh once, as root
		if ((EUID == 0)); then apt-get update -qq >/dev/null 2>&1 || true; fi
	fi
	mbd_log "downloading Debian's linux-source-$v"
	if ! (cd "$tmp" && apt-get download -q "linux-source-$v" >"$tmp/apt.log" 2>&1); then
		sed 's/^/  /' "$tmp/apt.log" >&2
		mbd_log "error: apt-get download linux-source-$v failed (is it in this release's archive? apt-cache search linux-source)"
		return 1
	fi
	deb=$(find "$tmp" -maxdepth 1 -name "linux-source-${v}_*.deb" | head -n 1)
	[[ $deb ]] || { mbd_log "error: no linux-source-$v .deb after the download"; return 1; }
	mkdir -p "$tmp/x"
	# the .deb holds usr/src/linux-source-V.tar.xz; take three files out of it
	local members=()
	for rel in "${files[@]}"; do members+=("linux-source-$v/$rel"); done
	if ! dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/linux-source-$v.tar.xz" |
		xz -dc | tar -x -C "$tmp/x" "${members[@]}"; then
		mbd_log "error: $deb does not hold ${members[*]}"
		return 1
	fi
	# into place whole or not at all
	rm -rf "$tree.tmp"
	mkdir -p "$dest"
	mv "$tmp/x/linux-source-$v" "$tree.tmp"
	printf 'Debian package %s (%s); fetched by scripts/get-kernel-tree.sh\n' \
		"$(basename "$deb")" "$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p;s/^SUBLEVEL = //p' "$tree.tmp/Makefile" | paste -sd.)" \
		>"$tree.tmp/SOURCE"
	rm -rf "$tree"
	mv "$tree.tmp" "$tree"
}

status=0
for v in "${versions[@]}"; do
	tree=$dest/linux-$v
	if ((print_only)); then
		have_tree "$tree" && printf '%s\n' "$tree"
		continue
	fi
	if ((force)) || ! have_tree "$tree"; then
		if ! fetch "$v"; then
			status=1
			continue
		fi
		mbd_log "$tree: $(cat "$tree/SOURCE")"
	fi
	printf '%s\n' "$tree"
done
exit "$status"
