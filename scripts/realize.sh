#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/realize.sh [options] [STEP...]
#
# Realization (issue 14, docs/boot-lab.md): a finding's kernel-sized trace
# turned into an arm64 `virt` layout that makes a real kernel make the same
# calls, booted with Debian's v7.3 kernel (the model agrees with it, and
# predicts where the patched variant breaks), then with a kernel built here
# from Debian's linux-source-7.3 plus the variant ported to it: the patched
# kernel must break at the call the model names.
#
# Steps (default: dt mainline build patched):
#   dt        the trace -> WORK/debian/layouts/arm64-7.3/realize-VARIANT.{layout,dtsi}:
#             its memory adds become the memory node, its memblock_reserve
#             calls before memblock_allow_resize become DT /memreserve/
#             entries (the kernel reserves them in order in
#             early_init_fdt_scan_reserved_mem()); the kernel adds its own
#             image, initrd, DTB and allocations around them
#   mainline  boot Debian's 7.3 arm64 kernel on that layout (boot-lab.sh boot
#             check: the model agrees at every checkpoint), then replay the
#             imported trace with the variant: where it stops is the
#             prediction (WORK/debian/prediction)
#   build     Debian's linux-source-7.3 (from $MBDIFF_DEB_CACHE or the
#             archive) + the variant ported (scripts/port-patch.sh), arm64
#             tinyconfig + tools/boot-lab/realize.config, Debian's
#             gcc-aarch64-linux-gnu, nice 19, time-boxed (--build-timeout):
#             WORK/Image-VARIANT; the time goes to WORK/build-VARIANT.time
#   mainline-min  the same tree without the patch, rebuilt incrementally
#             (only mm/memblock.o and the link): WORK/Image-mainline
#   patched   a fill layout for the built kernel's own initial reserved size
#             (its config: 128, or 128 + NR_CPUS + 1 with EFI and GICv3 ITS),
#             booted with WORK/Image-VARIANT (one try, --boot-timeout); its
#             log must show "kernel BUG at", and the model, replaying the
#             calls the patched kernel logged, must stop at the last of them
#             with the variant and not with the reference. With
#             WORK/Image-mainline the unpatched kernel boots the same layout
#             first: it must not BUG, and the model replaying its calls with
#             the variant must stop at the very call the patched one broke at.
#
# Options:
#   --trace FILE         the kernel-sized trace (default
#                        corpus/realize/deng-2022-641.mbt: a fill of
#                        Debian's 641-slot reserved array, then allocations)
#   --variant NAME       algorithms/patches/NAME.patch (default deng-2022)
#   --work DIR           work folder (default build/realize)
#   --lab-out DIR        the boot lab's downloads and kernels (default
#                        build/boot-lab; `boot-lab.sh setup` fills it)
#   --mbdiff FILE        the binary (default $MBDIFF, else build/default/mbdiff)
#   --jobs N             make -j (default 2)
#   --build-timeout S    seconds the kernel build may take (default 5400)
#   --boot-timeout S     seconds a boot of Debian's kernel may take (default 120)
#   --patched-timeout S  seconds a boot of a kernel built here may take (default
#                        60: a BUG this early hangs, PSCI is not up to reboot)
#   --slack N            regions left free in a fill layout (default 8)
#   --fill N -o FILE     only write a fill trace for an N-slot reserved array
#   -h, --help           this text
#
# Exit status: 0 every step as predicted, 1 a step did not confirm the
# model, 2 bad usage, 77 QEMU or the Debian kernels cannot be had.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

trace=$MBD_ROOT/corpus/realize/deng-2022-641.mbt
variant=deng-2022
work=$MBD_BUILD/realize
lab_out=$MBD_BUILD/boot-lab
mbdiff=
jobs=2
build_timeout=5400
boot_timeout=120
patched_timeout=60
slack=8
fill=
fill_out=
steps=()
while (($#)); do
	case $1 in
	--trace | --trace=*) mbd_optval "$@"; trace=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--variant | --variant=*) mbd_optval "$@"; variant=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--work | --work=*) mbd_optval "$@"; work=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--lab-out | --lab-out=*) mbd_optval "$@"; lab_out=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--mbdiff | --mbdiff=*) mbd_optval "$@"; mbdiff=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--jobs | --jobs=*) mbd_optval "$@"; jobs=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--build-timeout | --build-timeout=*) mbd_optval "$@"; build_timeout=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--boot-timeout | --boot-timeout=*) mbd_optval "$@"; boot_timeout=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--patched-timeout | --patched-timeout=*) mbd_optval "$@"; patched_timeout=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--slack | --slack=*) mbd_optval "$@"; slack=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--fill | --fill=*) mbd_optval "$@"; fill=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	-o | --out | --out=*) mbd_optval "$@"; fill_out=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	dt | mainline | build | mainline-min | patched) steps+=("$1"); shift ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
done
mbd_check_uint --jobs "$jobs"
mbd_check_uint --build-timeout "$build_timeout"
mbd_check_uint --boot-timeout "$boot_timeout"
mbd_check_uint --patched-timeout "$patched_timeout"
mbd_check_uint --slack "$slack" 0
[[ -f $MBD_ROOT/algorithms/patches/$variant.patch ]] ||
	mbd_usage_error "no variant '$variant' (algorithms/patches/$variant.patch)"
if ((${#steps[@]} == 0)); then steps=(dt mainline build patched); fi
work=$(mbd_abs "$work")
lab_out=$(mbd_abs "$lab_out")
name=realize-$variant
RAM_BASE=$((0x40000000))
# the lab's load addresses: Image at +2M, initrd at +128M, DTB at +132M
LOAD_END=$((0x48600000))

# ------------------------------------------------------------ fill trace

# make_fill INIT FILE: reserved filled to INIT - slack with 4 KiB
# reservations 64 KiB apart, then allocations with gaps: the one that finds
# the array full grows it (where deng-2022 inserts at a stale index).
make_fill() {
	local init=$1 f=$2 i b n
	n=$((init - slack))
	((n > 0)) || mbd_die "--slack $slack leaves no room in a $init-slot array"
	{
		printf '# SPDX-License-Identifier: GPL-2.0\n'
		printf '# scripts/realize.sh --fill %s --slack %s: reserved filled to %s of %s\n' \
			"$init" "$slack" "$n" "$init"
		printf '# slots before memblock_allow_resize(), then allocations with gaps:\n'
		printf '# the one that finds the array full doubles it.\n'
		printf 'config memory.max=1024 reserved.max=%s resize=0 slab=0 bottom_up=0 ' "$init"
		printf 'mirror=0 movable=0 limit=0xffffffffffffffff\n'
		printf 'memblock_add: [0x0000000040000000-0x000000007fffffff]\n'
		for ((i = 0; i < n; i++)); do
			b=$((0x60000000 + i * 0x10000))
			printf 'memblock_reserve: [0x%016x-0x%016x]\n' "$b" $((b + 0xfff))
		done
		printf 'memblock_allow_resize\n'
		for ((i = 0; i < slack + 4; i++)); do
			printf 'memblock_phys_alloc_range: 4080 bytes align=0x1000 '
			printf 'from=0x0000000000000000 max_addr=0xffffffffffffffff\n'
		done
	} >"$f.tmp"
	mv -f "$f.tmp" "$f"
}

if [[ $fill ]]; then
	mbd_check_uint --fill "$fill"
	[[ $fill_out ]] || mbd_usage_error "--fill N needs -o FILE"
	make_fill "$fill" "$fill_out"
	mbd_log "wrote $fill_out"
	exit 0
fi

# --------------------------------------------------------------- layout

# layout_from_trace TRACE DIR: DIR/NAME.layout and DIR/NAME.dtsi (the lab's
# layout form, docs/boot-lab.md).
layout_from_trace() {
	local t=$1 dir=$2 line a b resized=0 skipped=0 top=$RAM_BASE mem_mib reg=""
	local -a rsv=()
	[[ -r $t ]] || mbd_die "cannot read trace '$t'"
	mkdir -p "$dir"
	while IFS= read -r line; do
		case $line in
		memblock_allow_resize*) resized=1 ;;
		"memblock_add: ["* | "memblock_add_node: ["* | "memblock_reserve: ["*)
			[[ $line =~ \[0x([0-9a-fA-F]+)-0x([0-9a-fA-F]+)\] ]] || continue
			a=$((16#${BASH_REMATCH[1]}))
			b=$((16#${BASH_REMATCH[2]} + 1))
			if [[ $line == memblock_add* ]]; then
				((a >= RAM_BASE)) || mbd_die "$t: memory below 0x40000000 is not arm64 virt RAM: $line"
				reg+=$(printf ' 0x%x 0x%x 0x%x 0x%x' $((a >> 32)) $((a & 0xffffffff)) \
					$(((b - a) >> 32)) $(((b - a) & 0xffffffff)))
				((b > top)) && top=$b
			elif ((!resized)); then
				# the lab loads Image, initrd and DTB there
				if ((a < LOAD_END && b > RAM_BASE)); then
					skipped=$((skipped + 1))
				else
					rsv+=("$(printf '/memreserve/ 0x%x 0x%x;' "$a" $((b - a)))")
				fi
			fi
			;;
		esac
	done <"$t"
	if [[ -z $reg ]]; then
		reg=' 0x0 0x40000000 0x0 0x40000000'
		top=$((RAM_BASE + 0x40000000))
	fi
	mem_mib=$(((top - RAM_BASE + 0xfffff) >> 20))
	{
		((${#rsv[@]} == 0)) || printf '%s\n' "${rsv[@]}"
		printf '/ {\n\t/delete-node/ memory@40000000;\n\tmemory@40000000 {\n'
		printf '\t\tdevice_type = "memory";\n\t\treg = <%s>;\n\t};\n};\n' "${reg# }"
	} >"$dir/$name.dtsi"
	{
		printf '# scripts/realize.sh from %s\n' "$(mbd_rel "$t")"
		printf 'name %s\nmem %s\n' "$name" "$mem_mib"
		printf 'summary memreserve=%s skipped=%s\n' "${#rsv[@]}" "$skipped"
	} >"$dir/$name.layout"
	mbd_log "layout $dir/$name.layout: ${mem_mib} MiB, ${#rsv[@]} /memreserve/ entries" \
		"($skipped reservations in the load window left out)"
}

# ------------------------------------------------------------ the lab

# The lab's kernels and busybox, seen from a folder of our own (its own
# initrd is built there, so a lab run at the same time is left alone).
lab_dir() {
	local d=$work/lab
	if [[ ! -d $lab_out/kernels/arm64-7.3 ]]; then
		bash "$MBD_ROOT/scripts/boot-lab.sh" --out "$lab_out" --arch arm64 --kernels 7.3 setup ||
			exit 77
	fi
	mkdir -p "$d"
	ln -sfn "$lab_out/kernels" "$d/kernels"
	ln -sfn "$lab_out/pkg" "$d/pkg"
	printf '%s\n' "$d"
}

# lab WORKDIR [boot-lab options...]: boot (and check) the layout in WORKDIR.
lab() {
	local w=$1
	shift
	bash "$MBD_ROOT/scripts/boot-lab.sh" --out "$(lab_dir)" --work "$w" --offline \
		--arch arm64 --kernels 7.3 --only "$name" --timeout "$boot_timeout" --rebuild \
		${mbdiff:+--mbdiff "$mbdiff"} "$@"
}

# ops_count TRACE: calls in a .mbt trace.
ops_count() { grep -cv '^\(#\|expect \|config \|$\)' "$1" || true; }

# nth_call TRACE N: the Nth call, and the log line it came from.
nth_call() {
	awk -v n="$2" '/^#.*kernel\.log:|^#.*boot\.log:/ { src = $0; next }
		/^(#|expect |config |$)/ { next }
		{ if (++i == n) { print $0; print src; exit } }' "$1"
}

mbdiff_bin() { if [[ $mbdiff ]]; then printf '%s\n' "$mbdiff"; else mbd_mbdiff; fi; }

# predict TRACE: the variant's verdict replaying the calls (no checkpoints).
predict() {
	"$(mbdiff_bin)" replay --no-expect --variants "reference,$variant" "$1" 2>&1 |
		grep -E '^mbdiff: (divergence|ok) ' | head -n 1 || true
}

# ------------------------------------------------------------- steps

step_dt() {
	layout_from_trace "$trace" "$work/debian/layouts/arm64-7.3"
}

step_mainline() {
	local run=$work/debian/runs/arm64-7.3/$name res sig n
	[[ -f $work/debian/layouts/arm64-7.3/$name.layout ]] || step_dt
	lab "$work/debian" boot check || true
	res=$(cat "$run/result" 2>/dev/null || echo "error no result")
	mbd_log "Debian 7.3 on $name: $res"
	[[ $res == agree* ]] || return 1
	sig=$(predict "$run/trace.mbt")
	{
		printf 'model, replaying the calls Debian 7.3 made, with %s: %s\n' "$variant" "$sig"
		if [[ $sig =~ at\ op\ ([0-9]+) ]]; then
			n=${BASH_REMATCH[1]}
			printf 'call %s of %s:\n' "$n" "$(ops_count "$run/trace.mbt")"
			nth_call "$run/trace.mbt" "$n"
		fi
	} | tee "$work/debian/prediction"
	[[ $sig == *call/panic* ]]
}

tree_dir() { printf '%s/linux-source-7.3\n' "$work"; }
out_dir() { printf '%s/out\n' "$work"; }
kmake() {
	nice -n 19 make -C "$(tree_dir)" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
		O="$(out_dir)" "$@"
}
patch_file() { printf '%s/%s-7.3.patch\n' "$work" "$variant"; }
patched_now() { patch -p1 -R --dry-run -s -d "$(tree_dir)" -i "$(patch_file)" >/dev/null 2>&1; }

prepare_tree() {
	local src deb cache=${MBDIFF_DEB_CACHE:-}
	src=$(tree_dir)
	command -v aarch64-linux-gnu-gcc >/dev/null && command -v flex >/dev/null &&
		command -v bison >/dev/null && command -v bc >/dev/null ||
		apt-get install -y --no-install-recommends gcc-aarch64-linux-gnu flex bison bc \
			libssl-dev libelf-dev >/dev/null
	if [[ ! -f $src/Makefile ]]; then
		[[ $cache ]] || cache=$work/debs
		mkdir -p "$cache"
		bash "$MBD_ROOT/scripts/get-kernel-tree.sh" --version 7.3 --deb-cache "$cache" \
			--dest "$work/trees" >/dev/null
		deb=$(ls "$cache"/linux-source-7.3_*.deb | tail -n 1)
		mbd_log "unpacking the whole tree of $deb"
		dpkg-deb --fsys-tarfile "$deb" | tar -x --wildcards '*.tar.xz' -O | (cd "$work" && tar -xJ)
	fi
	[[ -f $(patch_file) ]] || bash "$MBD_ROOT/scripts/port-patch.sh" --tree "$src" \
		--variant "$variant" -o "$(patch_file)"
	if [[ ! -f $(out_dir)/.config ]]; then
		mkdir -p "$(out_dir)"
		kmake tinyconfig >/dev/null
		"$src/scripts/kconfig/merge_config.sh" -m -O "$(out_dir)" "$(out_dir)/.config" \
			"$MBD_ROOT/tools/boot-lab/realize.config" >/dev/null
		kmake olddefconfig >/dev/null
	fi
}

# build_image WHAT: make Image into WORK/Image-WHAT, time-boxed.
build_image() {
	local what=$1 t0 rc=0
	t0=$(mbd_now)
	timeout "$build_timeout" nice -n 19 make -C "$(tree_dir)" ARCH=arm64 \
		CROSS_COMPILE=aarch64-linux-gnu- O="$(out_dir)" -j"$jobs" Image \
		>"$work/build-$what.log" 2>&1 || rc=$?
	printf 'exit %s, %s s, load %s\n' "$rc" "$(mbd_elapsed "$t0")" \
		"$(uptime | sed 's/.*load average: //')" >"$work/build-$what.time"
	mbd_log "build $what: $(cat "$work/build-$what.time")"
	((rc == 0)) || return 1
	cp -f "$(out_dir)/arch/arm64/boot/Image" "$work/Image-$what"
}

step_build() {
	prepare_tree
	patched_now || patch -p1 -s -d "$(tree_dir)" -i "$(patch_file)"
	build_image "$variant"
}

step_mainline_min() {
	prepare_tree
	if patched_now; then patch -p1 -R -s -d "$(tree_dir)" -i "$(patch_file)"; fi
	build_image mainline
}

# init_reserved: the built kernel's initial reserved array size.
init_reserved() {
	local cfg nr
	cfg=$(out_dir)/.config
	nr=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$cfg")
	if grep -q '^CONFIG_EFI=y' "$cfg" && grep -q '^CONFIG_ARM_GIC_V3_ITS=y' "$cfg" && [[ $nr ]]; then
		echo $((128 + nr + 1))
	else
		echo 128
	fi
}

# boot_built WHAT: WORK/WHAT/runs/... booted with WORK/Image-WHAT; echoes
# the imported trace.
boot_built() {
	local what=$1 w=$work/$1 run init
	run=$w/runs/arm64-7.3/$name
	init=$(init_reserved)
	make_fill "$init" "$work/fill-$init.mbt"
	layout_from_trace "$work/fill-$init.mbt" "$w/layouts/arm64-7.3" >&2
	lab "$w" --kernel-image "$work/Image-$what" --timeout "$patched_timeout" boot >&2 || true
	"$(mbdiff_bin)" import --init-max="memory=128,reserved=$init" "$run/boot.log" \
		-o "$run/trace.mbt" 2>"$run/import.err" || {
		mbd_warn "import of $run/boot.log failed: $(tail -n 1 "$run/import.err")"
		return 1
	}
	printf '%s\n' "$run/trace.mbt"
}

step_patched() {
	local tp tm run bug sig n last ok=0 want
	[[ -f $work/Image-$variant ]] || mbd_die "no $work/Image-$variant: run the build step"
	if [[ -f $work/Image-mainline ]]; then
		tm=$(boot_built mainline) || return 1
		if grep -q 'kernel BUG at' "$(dirname "$tm")/boot.log"; then
			mbd_warn "the unpatched kernel BUGs"
			ok=1
		fi
		sig=$(predict "$tm")
		mbd_log "unpatched: $(grep -c 'is doubled to' "$(dirname "$tm")/boot.log") doublings;" \
			"the model with $variant on its calls: $sig"
		[[ $sig =~ at\ op\ ([0-9]+) ]] && want=$(nth_call "$tm" "${BASH_REMATCH[1]}" | head -n 1)
	fi
	tp=$(boot_built "$variant") || return 1
	run=$(dirname "$tp")
	bug=$(grep -m1 'kernel BUG at' "$run/boot.log" || true)
	n=$(ops_count "$tp")
	last=$(nth_call "$tp" "$n" | head -n 1)
	sig=$(predict "$tp")
	{
		printf 'patched kernel: %s\n' "${bug:-no BUG}"
		printf 'its last logged call (%s of %s): %s\n' "$n" "$n" "$last"
		printf 'model on the calls it logged: %s\n' "$sig"
		[[ ${want:-} ]] && printf 'model on the unpatched kernel'"'"'s calls stops at: %s\n' "$want"
	} | tee "$work/patched.result"
	[[ $bug ]] || ok=1
	[[ $sig == *"call/panic at op $n "* ]] || ok=1
	[[ -z ${want:-} || $want == "$last" ]] || ok=1
	return "$ok"
}

rc=0
for s in "${steps[@]}"; do
	case $s in
	dt) step_dt || rc=1 ;;
	mainline) step_mainline || rc=1 ;;
	build) step_build || rc=1 ;;
	mainline-min) step_mainline_min || rc=1 ;;
	patched) step_patched || rc=1 ;;
	esac
done
exit "$rc"
