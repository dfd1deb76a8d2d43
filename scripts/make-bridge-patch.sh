#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/make-bridge-patch.sh --tree DIR -o PATCH
#
# Write a patch for a v6.16+ kernel tree that undoes one known version
# change, so the file can be compared with our reference (a v6.11-v6.15
# model) on everything else: since v6.16 memblock_reserve() and
# memblock_reserve_kern() record reserved regions with NUMA_NO_NODE, and the
# allocators reserve with the requested node and MEMBLOCK_RSRV_KERN. The
# patch turns those three places back to MAX_NUMNODES and flags 0. It is
# made from the tree's own lines (nothing of the kernel is kept here):
#
#   scripts/make-bridge-patch.sh --tree ~/linux -o /tmp/bridge.patch
#   scripts/kernel-variant.sh --tree ~/linux --name next-bridged --patch /tmp/bridge.patch
#   scripts/fidelity.sh kernel:next-bridged --min-class layout
#
# (--min-class layout: v6.16 also relaxed a flags WARN_ON.) Exits 1 when
# the tree has none of the three lines (an older tree needs no bridge).
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tree="" out=""
while (($#)); do
	case $1 in
	--tree | --tree=*) mbd_optval "$@"; tree=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	-o | --out | --out=*) mbd_optval "$@"; out=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
	shift
done
[[ $tree && $out ]] || mbd_usage_error "--tree DIR and -o PATCH are required"
for f in mm/memblock.c include/linux/memblock.h; do
	[[ -f $tree/$f ]] || mbd_die "$tree/$f not found"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mbdiff-bridge.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for side in a b; do
	mkdir -p "$tmp/$side/mm" "$tmp/$side/include/linux"
	cp "$tree/mm/memblock.c" "$tmp/$side/mm/"
	cp "$tree/include/linux/memblock.h" "$tmp/$side/include/linux/"
done
sed -i -e 's/__memblock_reserve(base, size, NUMA_NO_NODE, 0)/__memblock_reserve(base, size, MAX_NUMNODES, 0)/' \
	-e 's/__memblock_reserve(base, size, NUMA_NO_NODE, MEMBLOCK_RSRV_KERN)/__memblock_reserve(base, size, MAX_NUMNODES, 0)/' \
	"$tmp/b/include/linux/memblock.h"
sed -i 's/__memblock_reserve(found, size, nid, MEMBLOCK_RSRV_KERN)/__memblock_reserve(found, size, MAX_NUMNODES, 0)/' \
	"$tmp/b/mm/memblock.c"
if (cd "$tmp" && diff -ru a b) >"$tmp/bridge.patch"; then
	mbd_die "$tree has none of the v6.16 reservation lines: no bridge needed"
fi
mv "$tmp/bridge.patch" "$out"
mbd_log "$out: $(grep -c '^-[^-]' "$out") line(s) changed"
