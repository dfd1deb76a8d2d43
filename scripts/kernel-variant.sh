#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/kernel-variant.sh --tree DIR --name NAME [--patch P]...
#                                  [--preset P | --build-dir DIR] [--no-configure]
#        scripts/kernel-variant.sh --remove NAME [--preset P | --build-dir DIR]
#        scripts/kernel-variant.sh --list [--preset P | --build-dir DIR]
#
# Build a kernel tree's own mm/memblock.c and include/linux/memblock.h
# (plus optional patches, applied in order) as the variant kernel:NAME.
# The entry "NAME=DIR[:P...]" is written to BUILD/kernel-variants.txt (the
# build reads it at configure time; default preset: default) and the build
# directory is reconfigured. The next build copies the two files into
# BUILD/variants/kernel-NAME/, applies the patches and compiles them
# through algorithms/kcompat and algorithms/glue.c. Nothing is copied into
# the source tree. See docs/kernel-variants.md.
#
# --stage ... is what the build runs for each kernel variant (internal).
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# ---- build-time staging -------------------------------------------------

# Copy, patch, detect the era, compile once to list the static state.
stage() {
	local name="" tree="" out="" stamp="" cc=cc nm=nm patch_exe=patch src="$MBD_ROOT"
	local patches=()
	while (($#)); do
		case $1 in
		--name) name=$2; shift ;;
		--tree) tree=$2; shift ;;
		--out) out=$2; shift ;;
		--stamp) stamp=$2; shift ;;
		--cc) cc=$2; shift ;;
		--nm) nm=$2; shift ;;
		--patch-exe) patch_exe=$2; shift ;;
		--src) src=$2; shift ;;
		--patch) patches+=("$2"); shift ;;
		*) mbd_die "--stage: unknown argument '$1'" ;;
		esac
		shift
	done
	[[ $name && $tree && $out && $stamp ]] || mbd_die "--stage needs --name --tree --out --stamp"
	name=${name#kernel:} # the build passes the variant's full name
	local f
	for f in mm/memblock.c include/linux/memblock.h; do
		[[ -f $tree/$f ]] || mbd_die "kernel:$name: $tree/$f does not exist"
	done

	local tmp=$out.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp/mm" "$tmp/include/linux" "$tmp/mbd"
	cp "$tree/mm/memblock.c" "$tmp/mm/memblock.c"
	cp "$tree/include/linux/memblock.h" "$tmp/include/linux/memblock.h"

	local p log
	for p in "${patches[@]}"; do
		# dry run first: a patch that fails leaves nothing half applied
		if ! log=$("$patch_exe" -p1 --dry-run --no-backup-if-mismatch --batch -d "$tmp" -i "$p" 2>&1); then
			printf '%s\n' "$log" >&2
			mbd_die "kernel:$name: $p does not apply to $tree (after the patches before it);" \
				"the failing hunks are named above"
		fi
		"$patch_exe" -p1 --no-backup-if-mismatch --batch -s -d "$tmp" -i "$p" >/dev/null
		if [[ $log == *fuzz* || $log == *offset* ]]; then
			mbd_warn "kernel:$name: $p applied inexactly: $log"
		fi
	done

	write_era "$tmp"

	# One plain compile of the file alone: proves kcompat covers it and
	# gives nm the file's own data and bss symbols.
	local obj=$tmp/mbd/scan.o
	if ! log=$("$cc" -std=gnu11 -c -O0 -fno-common -Werror=implicit-function-declaration \
		-I"$tmp/include" -I"$tmp/mm" -I"$src/algorithms/kcompat" -I"$src/harness/model" \
		-include "$tmp/mbd/mbd_kernel_era.h" -DMBD_KERNEL_VARIANT=1 \
		"$tmp/mm/memblock.c" -o "$obj" 2>&1); then
		printf '%s\n' "$log" | grep -E 'error|MBD_KCOMPAT' | head -40 >&2
		mbd_die "kernel:$name: mm/memblock.c from $tree does not compile through" \
			"algorithms/kcompat (the errors above name what is missing; see docs/kernel-variants.md)"
	fi
	# and a link against the kcompat runtime: a symbol the file declares
	# but nothing defines is named here, not deep inside the real link
	printf 'int main(void) { return 0; }\n' >"$tmp/mbd/main.c"
	if ! log=$("$cc" -std=gnu11 -w -o "$tmp/mbd/link-check" "$obj" "$tmp/mbd/main.c" \
		-I"$src/algorithms/kcompat" -I"$src/harness/model" "$src"/algorithms/kcompat/*.c 2>&1); then
		printf '%s\n' "$log" | grep -E 'undefined reference|multiple definition' | sort -u | head -40 >&2
		mbd_die "kernel:$name: mm/memblock.c from $tree uses symbols kcompat does not define" \
			"(named above; see docs/kernel-variants.md)"
	fi
	rm -f "$tmp/mbd/main.c" "$tmp/mbd/link-check"
	write_kstate "$name" "$nm" "$obj" "$tmp/mbd/mbd_kstate.h"
	rm -f "$obj"

	# into place, keeping timestamps of unchanged files
	local rel
	while IFS= read -r rel; do
		mkdir -p "$(dirname "$out/$rel")"
		if ! cmp -s "$tmp/$rel" "$out/$rel"; then cp "$tmp/$rel" "$out/$rel"; fi
	done < <(cd "$tmp" && find . -type f | sed 's|^\./||')
	rm -rf "$tmp"
	mkdir -p "$(dirname "$stamp")"
	touch "$stamp"
}

# Which API era the file is from: the glue calls what this file has.
write_era() {
	local t=$1 c=$1/mm/memblock.c h=$1/include/linux/memblock.h
	local flags=0 physfree=0 noinit=0 dummy=0
	# memblock_add_node(base, size, nid, flags) since v5.17
	if tr '\n' ' ' <"$h" | grep -Eq 'int memblock_add_node\([^)]*enum memblock_flags'; then flags=1; fi
	# memblock_phys_free() since v5.16 (memblock_free(phys_addr_t, ...) before)
	if grep -Eq '^int __init_memblock memblock_phys_free\(|^int memblock_phys_free\(' "$c"; then physfree=1; fi
	if grep -q 'memblock_reserved_mark_noinit' "$c"; then noinit=1; fi
	# the boot arrays hold one empty dummy entry (cnt 1) before v6.11
	if grep -Eq '\.cnt[[:space:]]*=[[:space:]]*1' "$c"; then dummy=1; fi
	cat >"$t/mbd/mbd_kernel_era.h" <<-EOF
	/* SPDX-License-Identifier: GPL-2.0 */
	/* Generated by scripts/kernel-variant.sh --stage from the staged file. */
	/* kernel headers of some versions hide their body from userspace */
	#define __KERNEL__ 1
	#define MBD_K_ADD_NODE_FLAGS $flags
	#define MBD_K_HAS_PHYS_FREE $physfree
	#define MBD_K_HAS_MARK_NOINIT $noinit
	#define MBD_K_EMPTY_DUMMY $dummy
	EOF
}

# Every data/bss symbol of the file: glue.c snapshots and restores them all.
# kcompat's own statics start with mbd_ and are reset by kcompat itself.
write_kstate() {
	local name=$1 nm=$2 obj=$3 out=$4 sym type bad=()
	{
		printf '/* SPDX-License-Identifier: GPL-2.0 */\n'
		printf '/* Generated by scripts/kernel-variant.sh --stage: nm of the file. */\n'
		while read -r _ type sym; do
			case $type in [bBdD]) ;; *) continue ;; esac
			# gcc names a function's static "mbd_ep_.N", clang "func.mbd_ep_"
			case $sym in mbd_* | *.mbd_*) continue ;; esac
			if [[ ! $sym =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]]; then
				bad+=("$sym")
				continue
			fi
			printf 'MBD_KSTATE(%s)\n' "$sym"
		done < <("$nm" --defined-only "$obj" | sort -k3)
	} >"$out"
	if ((${#bad[@]})); then
		mbd_die "kernel:$name: function-scope statics cannot be reset by name: ${bad[*]}" \
			"(glue.c restores file-scope state only; see docs/kernel-variants.md)"
	fi
	grep -q 'MBD_KSTATE(memblock)' "$out" ||
		mbd_die "kernel:$name: no 'memblock' object in the compiled file: is it mm/memblock.c?"
}

if [[ ${1:-} == --stage ]]; then
	shift
	stage "$@"
	exit 0
fi

# ---- user-facing ----------------------------------------------------------

tree="" name="" preset=default build_dir="" mode=add configure=1
patches=()
while (($#)); do
	case $1 in
	--tree | --tree=*) mbd_optval "$@"; tree=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--name | --name=*) mbd_optval "$@"; name=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--patch | --patch=*) mbd_optval "$@"; patches+=("$MBD_OPTVAL"); shift "$((MBD_SHIFT - 1))" ;;
	--preset | --preset=*) mbd_optval "$@"; preset=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--build-dir | --build-dir=*) mbd_optval "$@"; build_dir=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--remove | --remove=*) mbd_optval "$@"; name=$MBD_OPTVAL; mode=remove; shift "$((MBD_SHIFT - 1))" ;;
	--list) mode=list ;;
	--no-configure) configure=0 ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
	shift
done

[[ $build_dir ]] || build_dir=$(mbd_build_dir "$preset")
build_dir=$(mbd_abs "$build_dir")
list=$build_dir/kernel-variants.txt

if [[ $mode == list ]]; then
	[[ -f $list ]] && grep -v '^#' "$list" | sed 's/^/kernel:/'
	exit 0
fi

[[ $name ]] || mbd_usage_error "--name NAME is required"
[[ $name =~ ^[A-Za-z0-9][A-Za-z0-9_-]*$ ]] ||
	mbd_usage_error "--name '$name' must match [A-Za-z0-9][A-Za-z0-9_-]* (it becomes kernel:$name)"

entry=""
if [[ $mode == add ]]; then
	[[ $tree ]] || mbd_usage_error "--tree DIR is required"
	tree=$(mbd_abs "$tree")
	for f in mm/memblock.c include/linux/memblock.h; do
		[[ -f $tree/$f ]] || mbd_die "$tree/$f not found: --tree must be a kernel source tree"
	done
	entry="$name=$tree"
	for p in "${patches[@]}"; do
		[[ -f $p ]] || mbd_die "patch $p not found"
		p=$(mbd_abs "$p")
		[[ $p != *:* && $p != *\;* ]] || mbd_die "patch path '$p' must not contain ':' or ';'"
		entry+=":$p"
	done
	[[ $tree != *:* && $tree != *\;* ]] || mbd_die "tree path '$tree' must not contain ':' or ';'"
fi

mkdir -p "$build_dir"
[[ -f $list ]] || printf '# kernel variants: name=tree[:patch...], one a line\n' >"$list"
# replace any earlier entry of this name
tmp=$(mktemp "$list.XXXXXX")
grep -v "^$name=" "$list" >"$tmp" || true
[[ $entry ]] && printf '%s\n' "$entry" >>"$tmp"
mv "$tmp" "$list"
mbd_log "$list: $(grep -vc '^#' "$list" || true) kernel variant(s)"

if ((configure)); then
	if [[ -f $build_dir/CMakeCache.txt ]]; then
		cmake "$build_dir" >/dev/null
	else
		(cd "$MBD_ROOT" && cmake --preset "$preset" >/dev/null)
	fi
	mbd_log "configured $build_dir: build it (scripts/build.sh $preset) and use --variants reference,kernel:$name"
fi
