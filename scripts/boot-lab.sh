#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/boot-lab.sh [options] [STEP...]
#
# The boot lab (docs/boot-lab.md): real Debian kernels booted under QEMU
# (TCG) over generated memory layouts, with memblock=debug; each log is
# imported with `mbdiff import`, replayed, and the kernel's own final
# memblock arrays are compared region by region with the model's.
#
# Steps (default: setup gen boot check):
#   setup   install qemu, dtc, busybox-static on the host (apt-get), and
#           download the Debian kernel images (amd64, arm64) and
#           busybox-static:arm64 through a private apt configuration under
#           build/boot-lab/apt (the host's apt sources are never changed,
#           no foreign architecture is added to the host's dpkg)
#   gen     write the layouts (tools/boot-lab/layout-gen.c): device trees
#           for arm64 virt, QEMU options and memmap= for x86_64
#   boot    boot every layout that has no log yet (about 10 s each)
#   check   import every log, replay it, compare the final arrays
#   report  write docs/boot-lab.md and corpus/boots/ from the checks
#
# Options:
#   --layouts N         layouts per architecture and kernel (default 16)
#   --seed S            generator seed (default 1)
#   --only PATTERN      only layouts whose name matches the glob PATTERN
#   --arch A,B          architectures (default arm64,amd64)
#   --kernels K,L       kernel series (default 6.1,7.3)
#   --out DIR           work directory (default build/boot-lab)
#   --mbdiff FILE       the binary (default $MBDIFF, else build/default/mbdiff)
#   --timeout S         seconds one boot may take (default 180)
#   --rebuild           boot again even when a layout already has a log
#   --offline           no apt-get: use what build/boot-lab already holds
#                       (exit 77, "skipped", when the kernels are missing)
#   -h, --help          this text
#
# Exit status: 0 every check agreed, 1 a difference or a failure,
# 2 bad usage, 77 the kernels or QEMU cannot be had (--offline).
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

layouts=16
seed=1
only='*'
arches=arm64,amd64
kernels=6.1,7.3
out=$MBD_ROOT/build/boot-lab
mbdiff=
timeout_s=180
rebuild=0
offline=0
steps=()
while (($#)); do
	case $1 in
	--layouts | --layouts=*) mbd_optval "$@"; layouts=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--seed | --seed=*) mbd_optval "$@"; seed=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--only | --only=*) mbd_optval "$@"; only=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--arch | --arch=*) mbd_optval "$@"; arches=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--kernels | --kernels=*) mbd_optval "$@"; kernels=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--out | --out=*) mbd_optval "$@"; out=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--mbdiff | --mbdiff=*) mbd_optval "$@"; mbdiff=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--timeout | --timeout=*) mbd_optval "$@"; timeout_s=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--rebuild) rebuild=1; shift ;;
	--offline) offline=1; shift ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	setup | gen | boot | check | report) steps+=("$1"); shift ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
done
mbd_check_uint --layouts "$layouts"
mbd_check_uint --seed "$seed" 0
mbd_check_uint --timeout "$timeout_s"
for a in ${arches//,/ }; do
	case $a in
	arm64 | amd64) ;;
	*) mbd_usage_error "--arch takes arm64 and/or amd64, got '$a'" ;;
	esac
done
for k in ${kernels//,/ }; do
	[[ $k =~ ^[0-9]+\.[0-9]+$ ]] || mbd_usage_error "--kernels takes series like 6.1,7.3, got '$k'"
done
if ((${#steps[@]} == 0)); then steps=(setup gen boot check); fi
out=$(mbd_abs "$out")
mkdir -p "$out"

# ---------------------------------------------------------------- setup

apt_dir=$out/apt
# The private apt configuration: its own sources, lists, cache and an empty
# dpkg status, both architectures listed for apt only (not for dpkg).
APT_OPTS=(
	-o "Dir::Etc::sourcelist=$apt_dir/sources.list"
	-o "Dir::Etc::sourceparts=$apt_dir/empty.d"
	-o "Dir::Etc::preferencesparts=$apt_dir/empty.d"
	-o APT::Sandbox::User=root
	-o "Dir::State::lists=$apt_dir/lists"
	-o "Dir::State::status=$apt_dir/status"
	-o "Dir::Cache=$apt_dir/cache"
	-o APT::Architectures::=amd64
	-o APT::Architectures::=arm64
	-o Debug::NoLocking=1
)

host_tools() {
	local missing=() t
	for t in qemu-system-aarch64:qemu-system-arm qemu-system-x86_64:qemu-system-x86 \
		dtc:device-tree-compiler cpio:cpio; do
		command -v "${t%%:*}" >/dev/null 2>&1 || missing+=("${t#*:}")
	done
	[[ -x /bin/busybox ]] && /bin/busybox --list 2>/dev/null | grep -x poweroff >/dev/null ||
		missing+=(busybox-static)
	if ((${#missing[@]} == 0)); then return 0; fi
	if ((offline)); then
		mbd_log "missing host packages: ${missing[*]} (--offline): skipped"
		exit 77
	fi
	mbd_log "installing ${missing[*]}"
	apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >&2
}

private_apt() {
	mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/empty.d"
	local key=/usr/share/keyrings/debian-archive-keyring.gpg s
	: >"$apt_dir/status"
	{
		for s in bookworm trixie-backports; do
			printf 'deb [arch=amd64,arm64 signed-by=%s] http://deb.debian.org/debian %s main\n' "$key" "$s"
		done
	} >"$apt_dir/sources.list.new"
	if ! cmp -s "$apt_dir/sources.list.new" "$apt_dir/sources.list" ||
		[[ -z $(find "$apt_dir/lists" -maxdepth 1 -name '*Packages*' -mmin -1440 -print -quit) ]]; then
		mv -f "$apt_dir/sources.list.new" "$apt_dir/sources.list"
		mbd_log "apt-get update (private configuration $(mbd_rel "$apt_dir"))"
		apt-get "${APT_OPTS[@]}" update -qq >&2
	else
		rm -f "$apt_dir/sources.list.new"
	fi
}

# kernel_pkg SERIES ARCH: the newest cloud image package of SERIES for ARCH.
# Up to 6.12 Debian names it linux-image-V-cloud-ARCH-unsigned; later series
# ship the image alone as linux-binary-unsigned-V-cloud-ARCH.
kernel_pkg() {
	local series=$1 arch=$2
	apt-cache "${APT_OPTS[@]}" pkgnames "linux-" 2>/dev/null |
		grep -E "^linux-(image-${series//./\\.}[.-][0-9a-z.+-]*-cloud-$arch-unsigned|binary-unsigned-${series//./\\.}[.-][0-9a-z.+]*-cloud-$arch)\$" |
		sort -V | tail -n 1
}

# fetch PKG ARCH DEST: download and unpack one package into DEST.
fetch_pkg() {
	local pkg=$1 arch=$2 dest=$3 deb
	if [[ -f $dest/.done ]]; then return 0; fi
	mkdir -p "$out/debs"
	(cd "$out/debs" && apt-get "${APT_OPTS[@]}" download -q "$pkg:$arch" >&2)
	deb=$(find "$out/debs" -maxdepth 1 -name "${pkg}_*_$arch.deb" | sort -V | tail -n 1)
	[[ -n $deb ]] || mbd_die "apt-get download $pkg:$arch left no .deb in $(mbd_rel "$out/debs")"
	rm -rf "$dest"
	mkdir -p "$dest"
	dpkg-deb -x "$deb" "$dest"
	basename "$deb" >"$dest/.done"
}

# kdir ARCH SERIES: where one kernel's vmlinuz and config are.
kdir() { printf '%s/kernels/%s-%s\n' "$out" "$1" "$2"; }

step_setup() {
	host_tools
	if ((offline)); then return 0; fi
	private_apt
	local arch series pkg dest k
	fetch_pkg busybox-static arm64 "$out/pkg/busybox-static-arm64"
	for arch in ${arches//,/ }; do
		for series in ${kernels//,/ }; do
			pkg=$(kernel_pkg "$series" "$arch")
			[[ -n $pkg ]] || mbd_die "no cloud kernel of series $series for $arch in $(mbd_rel "$apt_dir/sources.list")"
			dest=$out/pkg/$pkg-$arch
			fetch_pkg "$pkg" "$arch" "$dest"
			if [[ $pkg == linux-binary-unsigned-* ]]; then
				# the config is in the matching linux-base package
				fetch_pkg "linux-base-${pkg#linux-binary-unsigned-}" "$arch" "$dest-base"
			fi
			k=$(kdir "$arch" "$series")
			mkdir -p "$k"
			cp -f "$(find "$dest" -name 'vmlinuz*' -type f | head -n 1)" "$k/vmlinuz"
			cp -f "$(find "$dest" "$dest-base" \( -name 'config-*' -o -name config \) -type f 2>/dev/null | head -n 1)" "$k/config"
			sed -n 's/^\(.*\)_\([^_]*\)_[^_]*\.deb$/\1 \2/p' "$dest/.done" >"$k/package"
			mbd_log "kernel $arch $series: $(cat "$k/package")"
		done
	done
}

for s in "${steps[@]}"; do
	case $s in
	setup) step_setup ;;
	esac
done
