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
#   --out DIR           downloads and kernels (default build/boot-lab)
#   --work DIR          layouts and runs (default: the --out directory)
#   --mbdiff FILE       the binary (default $MBDIFF, else build/default/mbdiff)
#   --timeout S         seconds one boot may take (default 180)
#   --kernel-image FILE boot this arm64 Image instead of Debian's (a kernel
#                       built here, scripts/realize.sh); one try, no retries
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
out=$MBD_BUILD/boot-lab
work=
mbdiff=
timeout_s=180
kernel_image=
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
	--work | --work=*) mbd_optval "$@"; work=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--mbdiff | --mbdiff=*) mbd_optval "$@"; mbdiff=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--timeout | --timeout=*) mbd_optval "$@"; timeout_s=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--kernel-image | --kernel-image=*) mbd_optval "$@"; kernel_image=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
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
if [[ $kernel_image ]]; then
	[[ -r $kernel_image ]] || mbd_usage_error "--kernel-image: cannot read '$kernel_image'"
	kernel_image=$(mbd_abs "$kernel_image")
fi
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
work=$(mbd_abs "${work:-$out}")
mkdir -p "$out" "$work"

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

# ---------------------------------------------------------------- gen

# reserved_init ARCH SERIES: the kernel's initial reserved array size,
# INIT_MEMBLOCK_REGIONS + NR_CPUS + 1 on arm64 (from its config).
reserved_init() {
	local cfg nr
	cfg=$(kdir "$1" "$2")/config
	nr=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$cfg" 2>/dev/null)
	if [[ $1 == arm64 && -n $nr ]]; then
		printf '%s\n' $((128 + nr + 1))
	else
		printf '128\n'
	fi
}

gen_bin=$out/bin/layout-gen
step_gen() {
	local arch series dir
	mkdir -p "$out/bin"
	if [[ ! -x $gen_bin || $MBD_ROOT/tools/boot-lab/layout-gen.c -nt $gen_bin ]]; then
		"${CC:-cc}" -std=c11 -O2 -Wall -Wextra -Werror -o "$gen_bin" \
			"$MBD_ROOT/tools/boot-lab/layout-gen.c"
	fi
	for arch in ${arches//,/ }; do
		for series in ${kernels//,/ }; do
			dir=$work/layouts/$arch-$series
			rm -rf "$dir"
			mkdir -p "$dir"
			"$gen_bin" --arch "$arch" --seed "$seed" --count "$layouts" \
				--reserved-init "$(reserved_init "$arch" "$series")" --out "$dir" >/dev/null
		done
	done
	mbd_log "layouts: $(find "$work/layouts" -name '*.layout' | wc -l) in $(mbd_rel "$work/layouts")"
}

# ---------------------------------------------------------------- boot

# The guest's /init: print the kernel log (dmesg: the serial console loses
# the lines printed between setup_log_buf() and the real console's start)
# and the final memblock arrays (arm64 keeps them after boot; x86 has none),
# each between markers, and power off.
write_init() {
	cat >"$1" <<'EOF'
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t debugfs debugfs /sys/kernel/debug
/bin/busybox dmesg -n 1
echo "mbdiff-boot-lab: begin dmesg"
/bin/busybox dmesg
echo "mbdiff-boot-lab: end dmesg"
for t in memory reserved; do
	echo "mbdiff-boot-lab: begin $t"
	/bin/busybox cat /sys/kernel/debug/memblock/$t 2>/dev/null
	echo "mbdiff-boot-lab: end $t"
done
/bin/busybox poweroff -f
EOF
	chmod +x "$1"
}

declare -A initrd_built=()
# initrd_for ARCH: the guest's initramfs into $initrd_img, built once per
# run of this script.
initrd_for() {
	local arch=$1 img=$out/initrd-$1.cpio.gz root=$out/initrd-$1
	initrd_img=$img
	if [[ -n ${initrd_built[$arch]:-} ]]; then return 0; fi
	initrd_built[$arch]=1
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/proc" "$root/sys" "$root/dev"
	if [[ $arch == arm64 ]]; then
		cp "$out/pkg/busybox-static-arm64/bin/busybox" "$root/bin/busybox"
	else
		cp /bin/busybox "$root/bin/busybox"
	fi
	write_init "$root/init"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -9n) >"$img.tmp"
	mv -f "$img.tmp" "$img"
}

# arm64 is started without QEMU's -kernel: given -kernel, QEMU replaces every
# memory node of the device tree with its own. Instead the Image, initrd and
# DTB are loaded as raw blobs and the CPU starts in this 40-byte stub, which
# does what the arm64 boot protocol asks (x0 = DTB, x1..x3 = 0, jump):
#   ldr x0, 0x18; mov x1, xzr; mov x2, xzr; mov x3, xzr; ldr x4, 0x20; br x4
#   .quad DTB; .quad KERNEL
ARM_STUB=0x40100000 ARM_KERNEL=0x40200000 ARM_INITRD=0x48000000 ARM_DTB=0x48400000
le64() { printf '%016x' "$1" | sed 's/../& /g' | awk '{ for (i = NF; i > 0; i--) printf "\\x%s", $i }'; }
write_stub() {
	# shellcheck disable=SC2059 # the format is the escaped bytes
	printf "\xc0\x00\x00\x58\xe1\x03\x1f\xaa\xe2\x03\x1f\xaa\xe3\x03\x1f\xaa\x84\x00\x00\x58\x80\x00\x1f\xd6$(le64 $ARM_DTB)$(le64 $ARM_KERNEL)" >"$1"
}

layout_val() { sed -n "s/^$2 //p" "$1" | head -n 1; }

ARM_CMDLINE="console=ttyAMA0 earlycon=pl011,0x9000000 log_buf_len=16M memblock=debug nokaslr panic=-1"
X86_CMDLINE="console=ttyS0 earlyprintk=serial log_buf_len=16M memblock=debug nokaslr panic=-1"

# boot_one LAYOUT RUN_DIR ARCH SERIES
boot_one() {
	local lay=$1 run=$2 arch=$3 series=$4 k mem extra qemu_extra initrd rc t0
	k=$(kdir "$arch" "$series")
	mem=$(layout_val "$lay" mem)
	extra=$(layout_val "$lay" append)
	qemu_extra=$(layout_val "$lay" qemu)
	initrd_for "$arch"
	initrd=$initrd_img
	rm -rf "$run"
	mkdir -p "$run"
	cp -f "$lay" "$run/layout"
	local cmd=()
	if [[ $arch == arm64 ]]; then
		local dtsi=${lay%.layout}.dtsi ie
		qemu-system-aarch64 -M "virt,dumpdtb=$run/qemu.dtb" -cpu cortex-a57 -m "${mem}M" \
			-smp 1 -nographic >/dev/null 2>&1
		printf -v ie '0x%x' $((ARM_INITRD + $(stat -c %s "$initrd")))
		{
			printf '/dts-v1/;\n'
			grep '^/memreserve/' "$dtsi" || true
			dtc -q -I dtb -O dts "$run/qemu.dtb" | grep -v '^/dts-v1/;'
			grep -v '^/memreserve/' "$dtsi"
			printf '/ {\n\tchosen {\n\t\tbootargs = "%s%s";\n' "$ARM_CMDLINE" "${extra:+ $extra}"
			printf '\t\tlinux,initrd-start = <0x0 0x%x>;\n\t\tlinux,initrd-end = <0x0 %s>;\n\t};\n};\n' \
				$ARM_INITRD "$ie"
		} >"$run/layout.dts"
		dtc -q -I dts -O dtb -o "$run/layout.dtb" "$run/layout.dts"
		write_stub "$run/stub.bin"
		cmd=(qemu-system-aarch64 -M virt -cpu cortex-a57 -m "${mem}M" -smp 1 -nographic -no-reboot
			-device "loader,file=${kernel_image:-$k/vmlinuz},addr=$ARM_KERNEL,force-raw=on"
			-device "loader,file=$initrd,addr=$ARM_INITRD,force-raw=on"
			-device "loader,file=$run/layout.dtb,addr=$ARM_DTB,force-raw=on"
			-device "loader,file=$run/stub.bin,addr=$ARM_STUB,force-raw=on"
			-device "loader,addr=$ARM_STUB,cpu-num=0")
	else
		# shellcheck disable=SC2206 # the layout's QEMU options are words
		cmd=(qemu-system-x86_64 -m "$mem" -smp 1 -nographic -no-reboot -kernel "$k/vmlinuz"
			-initrd "$initrd" -append "$X86_CMDLINE${extra:+ $extra}" $qemu_extra)
	fi
	mbd_quote "${cmd[@]}" >"$run/command"
	t0=$(mbd_now)
	rc=0
	timeout "$timeout_s" nice -n 10 "${cmd[@]}" </dev/null >"$run/boot.log.tmp" 2>&1 || rc=$?
	# the serial console ends lines in CR LF, and may send NULs
	tr -d '\r\000' <"$run/boot.log.tmp" >"$run/boot.log"
	rm -f "$run/boot.log.tmp"
	printf '%s %s\n' "$rc" "$(mbd_elapsed "$t0")" >"$run/boot.status"
}

each_layout() {
	local arch series lay
	for arch in ${arches//,/ }; do
		for series in ${kernels//,/ }; do
			for lay in "$work/layouts/$arch-$series"/*.layout; do
				[[ -f $lay ]] || continue
				# shellcheck disable=SC2053 # --only is a glob
				[[ $(basename "$lay" .layout) == $only ]] || continue
				printf '%s %s %s\n' "$arch" "$series" "$lay"
			done
		done
	done
}

need_kernels() {
	local arch series
	for arch in ${arches//,/ }; do
		for series in ${kernels//,/ }; do
			if [[ ! -f $(kdir "$arch" "$series")/vmlinuz ]]; then
				if ((offline)); then
					mbd_log "no $arch $series kernel in $(mbd_rel "$out") (--offline): skipped"
					exit 77
				fi
				mbd_die "no $arch $series kernel in $(mbd_rel "$out"): run the setup step"
			fi
		done
	done
}

# booted RUN_DIR: the guest printed its kernel log and arrays.
booted() { grep -q 'mbdiff-boot-lab: end reserved$' "$1/boot.log" 2>/dev/null; }

step_boot() {
	local arch series lay name run n=0 t0 try
	need_kernels
	while read -r arch series lay; do
		name=$(basename "$lay" .layout)
		run=$work/runs/$arch-$series/$name
		if [[ -f $run/boot.status && $rebuild == 0 ]] && cmp -s "$lay" "$run/layout" &&
			booted "$run"; then
			continue
		fi
		t0=$(mbd_now)
		# TCG on a loaded host now and then fails x86's IO-APIC timer check
		# ("IO-APIC + timer doesn't work!"): such a boot is tried again
		# (a kernel built here gets one try: its failure is the point)
		for try in 1 2 3; do
			boot_one "$lay" "$run" "$arch" "$series"
			if booted "$run" || [[ $kernel_image ]]; then break; fi
			mbd_warn "$arch $series $name: no kernel log from the guest (try $try): $(grep -m1 -E 'Kernel panic|BUG:' "$run/boot.log" || echo 'see boot.log')"
		done
		n=$((n + 1))
		mbd_log "booted $arch $series $name in $(mbd_elapsed "$t0") s (exit $(cut -d' ' -f1 "$run/boot.status"))"
	done < <(each_layout)
	mbd_log "$n boots"
}

# ---------------------------------------------------------------- check

# kernel_log BOOT_LOG: what the guest printed between its markers: the
# kernel log (dmesg) and the debugfs arrays with their marker lines, which
# name the array of each view for `mbdiff import`.
kernel_log() {
	# (unanchored: the tty may echo a control character before a marker)
	awk '/mbdiff-boot-lab: begin dmesg$/ { d = 1; next }
		/mbdiff-boot-lab: end dmesg$/ { d = 0; next }
		/mbdiff-boot-lab: begin (memory|reserved)$/ { a = 1 }
		d || a { print }
		/mbdiff-boot-lab: end (memory|reserved)$/ { a = 0 }' "$1"
}

# import_opts ARCH SERIES: the kernel's initial array sizes from its config
# (arm64 with EFI: memory 128 * 8, with GICv3 ITS reserved 128 + NR_CPUS + 1).
import_opts() {
	local cfg nr
	cfg=$(kdir "$1" "$2")/config
	[[ $1 == arm64 && -f $cfg ]] || return 0
	nr=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$cfg")
	if grep -q '^CONFIG_EFI=y' "$cfg" && grep -q '^CONFIG_ARM_GIC_V3_ITS=y' "$cfg" && [[ -n $nr ]]; then
		printf -- '--init-max=memory=1024,reserved=%s\n' $((128 + nr + 1))
	fi
}

# variants_for SERIES: what a boot of that kernel series is replayed with:
# the model of its era (mainline-6.12 for kernels before v6.16, when the
# binary has it; docs/fidelity.md), else the reference (v7.3) and its twin.
variants_for() {
	local major=${1%%.*} minor=${1#*.}
	if ((major < 6 || (major == 6 && minor < 16))) &&
		"$mbdiff" list 2>/dev/null | grep -q '^mainline-6\.12 '; then
		printf 'mainline-6.12\n'
	else
		printf 'reference,reference-twin\n'
	fi
}

# check_one RUN_DIR ARCH SERIES: import, replay; writes RUN/kernel.log,
# RUN/trace.mbt and RUN/result ("agree N" or "differ ..." or "error ...").
check_one() {
	local run=$1 arch=$2 series=$3 log=$1/kernel.log res n_exp sig detail opts
	kernel_log "$run/boot.log" >"$log"
	if ! grep -q 'memblock' "$log"; then
		printf 'error no kernel log with memblock=debug output (boot failed, see boot.log)\n' \
			>"$run/result"
		return 0
	fi
	if [[ $arch == arm64 ]] && ! grep -q 'mbdiff-boot-lab: end reserved$' "$log"; then
		printf 'error the guest printed no final arrays (boot failed, see boot.log)\n' >"$run/result"
		return 0
	fi
	opts=$(import_opts "$arch" "$series")
	# shellcheck disable=SC2086 # none or one word
	if ! "$mbdiff" import $opts "$log" -o "$run/trace.mbt" 2>"$run/import.err"; then
		printf 'error import: %s\n' "$(tail -n 1 "$run/import.err")" >"$run/result"
		return 0
	fi
	n_exp=$(grep -c '^expect [a-z]* \(cnt\|max\|total\)=' "$run/trace.mbt" || true)
	if ((n_exp == 0)); then
		printf 'error no checkpoint\n' >"$run/result"
		return 0
	fi
	res=$("$mbdiff" replay --variants "$(variants_for "$series")" "$run/trace.mbt" 2>&1 || true)
	sig=$(grep -E '^mbdiff: .*(finding|divergence|expectation)' <<<"$res" | head -n 1 || true)
	detail=$(grep -E '^detail: ' <<<"$res" | head -n 1 || true)
	printf '%s\n' "$res" >"$run/replay.txt"
	if [[ -z $sig ]] && grep -q 'divergent' <<<"$res" && ! grep -q ': 0 divergent' <<<"$res"; then
		sig=$(grep -E 'divergent' <<<"$res" | tail -n 1)
	fi
	if [[ -z $sig ]]; then
		printf 'agree %s checkpoints\n' "$n_exp" >"$run/result"
		return 0
	fi
	printf 'differ %s; %s\n' "${sig#mbdiff: }" "${detail#detail: }" >"$run/result"
}

lab_differ=0
step_check() {
	local arch series lay name run
	if [[ -z $mbdiff ]]; then
		mbdiff=$(mbd_mbdiff)
	fi
	mbd_require_bin "$mbdiff" default
	while read -r arch series lay; do
		name=$(basename "$lay" .layout)
		run=$work/runs/$arch-$series/$name
		[[ -f $run/boot.status ]] || continue
		check_one "$run" "$arch" "$series"
		grep -q '^agree' "$run/result" || lab_differ=$((lab_differ + 1))
		printf '%-8s %-5s %-26s %s\n' "$arch" "$series" "$name" "$(cat "$run/result")"
	done < <(each_layout)
}

# ---------------------------------------------------------------- report

doc=$MBD_ROOT/docs/boot-lab.md
boots_dir=$MBD_ROOT/corpus/boots

# One table row per run; also copies its trace into corpus/boots/ (as
# "# real-result:" + the trace in printed form, which tests/real_replay.sh
# checks) and its first 64 ops into corpus/boots/seeds/ for the fuzzers.
report_row() {
	local arch=$1 series=$2 run=$3 name res kver ops exp summary secs dbl cnt_r want corpus
	name=$(basename "$run")
	res=$(awk '{ printf "%s%s", (NR > 1 ? "; then " : ""), $0 }' "$run/result" 2>/dev/null)
	res=${res:-error not checked}
	kver=$(cut -d' ' -f2 "$(kdir "$arch" "$series")/package" 2>/dev/null || echo "$series")
	summary=$(layout_val "$run/layout" summary)
	secs=$(cut -d' ' -f2 "$run/boot.status")
	ops=0 exp=0
	if [[ -f $run/trace.mbt ]]; then
		ops=$(grep -c '^memblock_\|^slab_available' "$run/trace.mbt" || true)
		exp=$(grep -c '^expect [a-z]* \(cnt\|max\|total\)=' "$run/trace.mbt" || true)
	fi
	dbl=$(sed -n 's/.*memblock: \([a-z]*\) is doubled to \([0-9]*\).*/\1 \2/p' "$run/kernel.log" |
		awk '{ printf "%s%s->%s", (NR > 1 ? ", " : ""), $1, $2 }')
	cnt_r=$(awk '/mbdiff-boot-lab: begin reserved$/ { o = 1; n = 0; next }
		/mbdiff-boot-lab: end reserved$/ { o = 0; print n } o && /^ *[0-9]+:/ { n++ }' "$run/kernel.log")
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$arch" "$kver" \
		"$summary" "$secs" "$ops" "$exp" "${cnt_r:--}" "${dbl:--}" "${res//|/\\|}"
	[[ -f $run/trace.mbt ]] || return 0
	corpus=$boots_dir/$arch-$series-${name#"$arch"-}.mbt
	want=ok
	if [[ $res == differ* ]]; then
		want=$(grep -E '^mbdiff: (expectation|divergence|oracle) ' "$run/replay.txt" | tail -n 1)
	fi
	{
		printf '# real-result: %s\n' "$want"
		printf '# real-variants: %s\n' "$(variants_for "$series")"
		printf '# boot lab (scripts/boot-lab.sh, docs/boot-lab.md): %s on %s %s\n' "$name" "$arch" "$kver"
		printf '# layout: %s\n' "$summary"
		"$mbdiff" convert "$run/trace.mbt" -o "$run/trace.printed.mbt" --to mbt >/dev/null 2>&1 &&
			cat "$run/trace.printed.mbt"
	} >"$corpus.tmp"
	mv -f "$corpus.tmp" "$corpus"
	# (the fuzzer form holds array sizes up to 128 only: the first 64 calls need no more)
	awk '/^config/ { gsub(/ (memory|reserved)\.max=[0-9]+/, ""); print; next }
		/^(memblock_|slab_available)/ && n < 64 { print; n++ }' \
		"$run/trace.mbt" >"$boots_dir/seeds/$(basename "$corpus")"
}

step_report() {
	local arch series lay name run rows n=0 agree=0 t
	if [[ -z $mbdiff ]]; then
		mbdiff=$(mbd_mbdiff)
	fi
	mbd_require_bin "$mbdiff" default
	mkdir -p "$boots_dir/seeds"
	rows=$work/report-rows.md
	: >"$rows"
	while read -r arch series lay; do
		name=$(basename "$lay" .layout)
		run=$work/runs/$arch-$series/$name
		[[ -f $run/boot.status ]] || continue
		report_row "$arch" "$series" "$run" >>"$rows"
		n=$((n + 1))
		if grep -q '^agree' "$run/result" 2>/dev/null; then agree=$((agree + 1)); fi
	done < <(each_layout)
	t=$work/boot-lab-table.md
	{
		printf '<!-- boot-lab table: written by scripts/boot-lab.sh report -->\n'
		printf 'Made on %s with `bash scripts/boot-lab.sh --layouts %s --seed %s` (%s boots, %s agree).\n\n' \
			"$(date -u +%Y-%m-%d)" "$layouts" "$seed" "$n" "$agree"
		printf '| layout | arch | kernel | layout holds | boot s | ops | checkpoints | final reserved | doubled | result |\n'
		printf '|---|---|---|---|---|---|---|---|---|---|\n'
		cat "$rows"
		printf '<!-- boot-lab table end -->\n'
	} >"$t"
	if [[ -f $doc ]] && grep -q '^<!-- boot-lab table: ' "$doc"; then
		awk -v tf="$t" '
			/^<!-- boot-lab table: / { while ((getline l < tf) > 0) print l; skip = 1; next }
			/^<!-- boot-lab table end -->/ { skip = 0; next }
			!skip' "$doc" >"$doc.tmp"
		mv -f "$doc.tmp" "$doc"
		mbd_log "table of $n boots ($agree agree) written into $(mbd_rel "$doc")"
	else
		mbd_log "table of $n boots ($agree agree) in $(mbd_rel "$t")"
	fi
}

# One compound command read whole before it runs, ending in exit: editing
# this file while a long run goes on cannot change what the run does.
{
for s in "${steps[@]}"; do
	case $s in
	setup) step_setup ;;
	gen) step_gen ;;
	boot) step_boot ;;
	check) step_check ;;
	report) step_report ;;
	esac
done
if ((lab_differ)); then
	mbd_log "$lab_differ layout(s) did not agree (see RUN/result and docs/boot-lab.md)"
	exit 1
fi
exit 0
}
