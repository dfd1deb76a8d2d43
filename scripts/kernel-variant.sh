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
# build reads it at configure time) of every preset's build (default, asan,
# fuzz, ...: one registration serves replay, fuzz.sh and fidelity.sh), or
# of the one build --preset or --build-dir names; the builds already
# configured (and default) are reconfigured. --list without either shows
# each entry once, with the presets that lack it. The next build copies
# the two files into BUILD/variants/kernel-NAME/, applies the patches and
# compiles them through algorithms/kcompat and algorithms/glue.c. Nothing
# is copied into the source tree. See docs/kernel-variants.md.
#
# --stage ... is what the build runs for each kernel variant (internal).
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# ---- kernel releases ------------------------------------------------------

# The oldest release kcompat and glue.c serve, and why nothing older: one
# line, said when a tree is added and again when it is staged.
MBD_K_LOWEST=5.4
MBD_K_LOWEST_WHY="older files include linux/bootmem.h and lack memblock_phys_alloc_range() and memblock_phys_alloc_try_nid() (v4.20), which glue.c calls; v5.4 is the oldest release checked"

# "VERSION.PATCHLEVEL" from the tree's Makefile; nothing when it has none.
tree_kver() {
	local mk=$1/Makefile v p
	[[ -f $mk ]] || return 0
	v=$(sed -n 's/^VERSION[[:space:]]*=[[:space:]]*\([0-9][0-9]*\)[[:space:]]*$/\1/p' "$mk" | head -n 1)
	p=$(sed -n 's/^PATCHLEVEL[[:space:]]*=[[:space:]]*\([0-9][0-9]*\)[[:space:]]*$/\1/p' "$mk" | head -n 1)
	[[ $v && $p ]] && printf '%s.%s\n' "$v" "$p"
	return 0
}

# Refuse a release older than MBD_K_LOWEST (exit 1, one line).
check_kver() {
	local label=$1 tree=$2 kver
	kver=$(tree_kver "$tree")
	[[ $kver ]] || return 0
	if [[ $(printf '%s\n%s\n' "$kver" "$MBD_K_LOWEST" | sort -V | head -n 1) != "$MBD_K_LOWEST" ]]; then
		mbd_die "$label: $tree is Linux $kver; the lowest release supported is $MBD_K_LOWEST: $MBD_K_LOWEST_WHY"
	fi
}

# The compiler's or linker's errors from the staged compile, one line per
# kernel symbol kcompat lacks or clashes with, located in the kernel's own
# file: "kcompat: no stand-in for `foo` (needed by linux-7.3/mm/memblock.c:12)".
# Errors it cannot read are passed on as they are. Args: LOG STAGED LABEL.
explain_errors() {
	awk -v staged="$2/" -v label="$3/" -v q="'" '
	function where(f, l) {
		if (index(f, staged) == 1)
			return label substr(f, length(staged) + 1) ":" l
		return f ":" l
	}
	# the first struct/enum/union named on a line of a staged file
	function type_on(f, l,    line, n) {
		if (index(f, staged) != 1)
			return ""
		n = 0
		while ((getline line < f) > 0)
			if (++n == l)
				break
		close(f)
		if (n == l && match(line, /(struct|enum|union)[ \t]+[A-Za-z_][A-Za-z0-9_]*/))
			return substr(line, RSTART, RLENGTH)
		return ""
	}
	function quoted(s) {
		if (match(s, q "[^" q "]+" q))
			return substr(s, RSTART + 1, RLENGTH - 2)
		return ""
	}
	function say(key, text) {
		if (!(key in said)) {
			said[key] = 1
			print text
		}
	}
	# an error line nothing explained: shown as it is, once
	function keep(line) {
		if (line != "" && !(line in seen))
			other[++nother] = seen[line] = line
	}
	function clash(sym, at) {
		say("clash " sym, "kcompat: its macro `" sym "` clashes with the kernel file (" at \
		    "), which defines " sym " itself: guard the stand-in with MBD_K_DEFINES_" sym \
		    " (algorithms/kcompat/mbd_kc_kernel.h)")
		pend = ""
	}
	# FILE:LINE[:COL]: error|note|warning: MESSAGE
	match($0, /^[^ :][^:]*:[0-9]+(:[0-9]+)?: (fatal error|error|note|warning): /) {
		split($0, part, ":")
		f = part[1]
		l = part[2] + 0
		msg = substr($0, RLENGTH + 1)
		if ($0 ~ /: warning: /)
			next
		if ($0 ~ /: note: /) {
			sym = quoted(msg)
			# gcc: the error is in kcompat, the note in the file
			if (pend_kc && msg ~ /^in expansion of macro / && index(f, staged) == 1)
				clash(sym, where(f, l))
			# clang: the error is in the file, the note in kcompat
			else if (pend_at != "" && msg ~ /^expanded from macro / && f ~ /kcompat/)
				clash(sym, pend_at)
			next
		}
		keep(pend)
		pend = pend_at = ""
		pend_kc = index(f, staged) != 1 && f ~ /kcompat/
		sym = quoted(msg)
		if (msg ~ /implicit declaration of function|call to undeclared function|undeclared|unknown type name/ && sym != "") {
			say("missing " sym, "kcompat: no stand-in for `" sym "` (needed by " where(f, l) ")")
			next
		}
		if (msg ~ /incomplete|undefined type|storage size of/) {
			t = ""
			if (match(msg, /(struct|enum|union) [A-Za-z_][A-Za-z0-9_]*/))
				t = substr(msg, RSTART, RLENGTH)
			if (t == "")
				t = type_on(f, l)
			if (t != "") {
				say("type " t, "kcompat: no complete stand-in for `" t "` (needed by " where(f, l) ")")
				next
			}
		}
		pend = $0
		if (index(f, staged) == 1)
			pend_at = where(f, l)
		next
	}
	# the linker, with -g: FILE:LINE: undefined reference to `foo`
	match($0, /:[0-9]+: undefined reference to /) {
		at = substr($0, 1, RSTART - 1)
		l = substr($0, RSTART + 1) + 0
		sym = substr($0, RSTART + RLENGTH)
		gsub(/[`'"'"']/, "", sym)
		sub(/^.*: /, "", at)
		say("undef " sym, "kcompat: no definition for `" sym "` (needed by " where(at, l) ")")
		next
	}
	/multiple definition of / {
		sym = $0
		sub(/.*multiple definition of [`'"'"']/, "", sym)
		sub(/['"'"'].*/, "", sym)
		say("multi " sym, "kcompat: `" sym "` is defined by the kernel file and by the kcompat runtime")
		next
	}
	/(error|undefined reference)/ && !/^(cc1|collect2|clang)|errors? generated/ { keep($0) }
	END {
		keep(pend)
		for (i = 1; i <= nother && i <= 20; i++)
			print other[i]
		if (nother > 20)
			print "(" nother - 20 " more errors)"
	}' "$1"
}

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

	check_kver "kernel:$name" "$tree"
	local tmp=$out.tmp kver label
	kver=$(tree_kver "$tree")
	[[ $kver ]] || mbd_warn "kernel:$name: $tree has no Makefile: release unknown, kcompat uses the newest names"
	label=$(basename "$tree")
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

	write_era "$tmp" "$kver" "$src"

	# One plain compile of the file alone: proves kcompat covers it and
	# gives nm the file's own data and bss symbols. -g: the link check
	# below can then name the file and line of an undefined reference.
	local obj=$tmp/mbd/scan.o elog=$out.log
	if ! LC_ALL=C "$cc" -std=gnu11 -c -O0 -g -fno-common -Werror=implicit-function-declaration \
		-I"$tmp/include" -I"$tmp/mm" -I"$src/algorithms/kcompat" -I"$src/harness/model" \
		-include "$tmp/mbd/mbd_kernel_era.h" -DMBD_KERNEL_VARIANT=1 \
		"$tmp/mm/memblock.c" -o "$obj" >"$elog" 2>&1; then
		explain_errors "$elog" "$tmp" "$label" >&2
		mbd_die "kernel:$name: mm/memblock.c of $tree${kver:+ (Linux $kver)} does not compile through" \
			"algorithms/kcompat: add what is named above (docs/kernel-variants.md); compiler output: $elog"
	fi
	# and a link against the kcompat runtime: a symbol the file declares
	# but nothing defines is named here, not deep inside the real link
	printf 'int main(void) { return 0; }\n' >"$tmp/mbd/main.c"
	if ! LC_ALL=C "$cc" -std=gnu11 -w -o "$tmp/mbd/link-check" "$obj" "$tmp/mbd/main.c" \
		-I"$src/algorithms/kcompat" -I"$src/harness/model" "$src"/algorithms/kcompat/*.c >"$elog" 2>&1; then
		explain_errors "$elog" "$tmp" "$label" >&2
		mbd_die "kernel:$name: mm/memblock.c of $tree${kver:+ (Linux $kver)} uses symbols kcompat" \
			"does not define (named above; docs/kernel-variants.md); linker output: $elog"
	fi
	rm -f "$elog"
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
	local t=$1 kver=$2 src=$3 c=$1/mm/memblock.c h=$1/include/linux/memblock.h
	local flags=0 physfree=0 noinit=0 rkern=0 dummy=0 kv=0 sym own=""
	if [[ $kver ]]; then kv=$(printf '0x%02x%02x00' "${kver%%.*}" "${kver#*.}"); fi
	# stand-ins that some releases define in memblock.c themselves
	while IFS= read -r sym; do
		if perl -0777 -ne 'exit(/^[A-Za-z_][^;{}()]*\b\Q'"$sym"'\E\s*\([^;{}]*\)\s*\{/m ? 0 : 1)' "$c"; then
			own+="#define MBD_K_DEFINES_$sym 1"$'\n'
		fi
	done < <(sed -n 's/^#ifndef MBD_K_DEFINES_\([A-Za-z0-9_]*\)$/\1/p' "$src"/algorithms/kcompat/*.h)
	# memblock_add_node(base, size, nid, flags) since v5.17
	if tr '\n' ' ' <"$h" | grep -Eq 'int memblock_add_node\([^)]*enum memblock_flags'; then flags=1; fi
	# memblock_phys_free() since v5.16 (memblock_free(phys_addr_t, ...) before)
	if grep -Eq '^int __init_memblock memblock_phys_free\(|^int memblock_phys_free\(' "$c"; then physfree=1; fi
	if grep -q 'memblock_reserved_mark_noinit' "$c"; then noinit=1; fi
	# memblock_reserve_kern() and MEMBLOCK_RSRV_KERN since v6.16
	if grep -q 'memblock_reserve_kern' "$h"; then rkern=1; fi
	# the boot arrays hold one empty dummy entry (cnt 1) before v6.11
	if grep -Eq '\.cnt[[:space:]]*=[[:space:]]*1' "$c"; then dummy=1; fi
	cat >"$t/mbd/mbd_kernel_era.h" <<-EOF
	/* SPDX-License-Identifier: GPL-2.0 */
	/* Generated by scripts/kernel-variant.sh --stage from the staged file. */
	/* kernel headers of some versions hide their body from userspace */
	#define __KERNEL__ 1
	/* the release, VERSION << 16 | PATCHLEVEL << 8 of the Makefile (0: unknown) */
	#define MBD_K_RELEASE $kv
	#define MBD_K_ADD_NODE_FLAGS $flags
	#define MBD_K_HAS_PHYS_FREE $physfree
	#define MBD_K_HAS_MARK_NOINIT $noinit
	#define MBD_K_HAS_RESERVE_KERN $rkern
	#define MBD_K_EMPTY_DUMMY $dummy
	EOF
	printf '%s' "$own" >>"$t/mbd/mbd_kernel_era.h"
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

tree="" name="" preset="" build_dir="" mode=add configure=1
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
[[ -z $preset || -z $build_dir ]] || mbd_usage_error "--preset and --build-dir name the same thing: give one"

# Every preset a user can configure (CMakePresets.json, hidden ones left
# out), default first; just default when the file or jq is missing.
all_presets() {
	local f=$MBD_ROOT/CMakePresets.json
	printf 'default\n'
	if [[ -f $f ]] && command -v jq >/dev/null; then
		jq -r '.configurePresets[] | select((.hidden // false) | not) | .name' "$f" |
			grep -vx default || true
	fi
}

# The builds this call works on: the one named, or every preset's, so one
# registration serves `mbdiff replay` (default), fuzz.sh and fidelity.sh
# (fuzz, fuzz-plain, afl) alike. Lines "PRESET<TAB>DIR"; PRESET is empty
# for --build-dir.
targets=()
if [[ $build_dir ]]; then
	targets+=($'\t'"$(mbd_abs "$build_dir")")
elif [[ $preset ]]; then
	targets+=("$preset"$'\t'"$(mbd_abs "$(mbd_build_dir "$preset")")")
else
	while IFS= read -r p; do
		targets+=("$p"$'\t'"$(mbd_abs "$(mbd_build_dir "$p")")")
	done < <(all_presets)
fi

if [[ $mode == list ]]; then
	if ((${#targets[@]} == 1)); then
		list=${targets[0]#*$'\t'}/kernel-variants.txt
		[[ -f $list ]] && grep -v '^#' "$list" | sed 's/^/kernel:/'
		exit 0
	fi
	# every entry once, with the presets whose builds lack it
	declare -A seen=()
	order=()
	for t in "${targets[@]}"; do
		list=${t#*$'\t'}/kernel-variants.txt
		[[ -f $list ]] || continue
		while IFS= read -r e; do
			[[ $e && $e != \#* ]] || continue
			[[ ${seen[$e]+x} ]] || order+=("$e")
			seen[$e]+=" ${t%%$'\t'*}"
		done <"$list"
	done
	for e in "${order[@]}"; do
		lack=""
		for t in "${targets[@]}"; do
			[[ " ${seen[$e]} " == *" ${t%%$'\t'*} "* ]] || lack+="${lack:+, }${t%%$'\t'*}"
		done
		printf 'kernel:%s%s\n' "$e" "${lack:+  (not in: $lack)}"
	done
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
	check_kver "kernel:$name" "$tree"
	entry="$name=$tree"
	for p in "${patches[@]}"; do
		[[ -f $p ]] || mbd_die "patch $p not found"
		p=$(mbd_abs "$p")
		[[ $p != *:* && $p != *\;* ]] || mbd_die "patch path '$p' must not contain ':' or ';'"
		entry+=":$p"
	done
	[[ $tree != *:* && $tree != *\;* ]] || mbd_die "tree path '$tree' must not contain ':' or ';'"
fi

# The entry into (or out of) one build's list, replacing any earlier
# entry of this name; the list is swapped in whole, never half written.
write_entry() {
	local dir=$1 list=$1/kernel-variants.txt tmp
	mkdir -p "$dir"
	[[ -f $list ]] || printf '# kernel variants: name=tree[:patch...], one a line\n' >"$list"
	tmp=$(mktemp "$list.XXXXXX")
	grep -v "^$name=" "$list" >"$tmp" || true
	[[ $entry ]] && printf '%s\n' "$entry" >>"$tmp"
	mv "$tmp" "$list"
	mbd_log "$list: $(grep -vc '^#' "$list" || true) kernel variant(s)"
}

# Reconfigure a build that exists. A build named by --preset or
# --build-dir (configured as default), and the default preset, are
# configured when they do not exist yet; the other presets (the fuzz ones
# need clang) read the list when they are first configured.
configure_build() {
	local p=$1 dir=$2
	if [[ -f $dir/CMakeCache.txt ]]; then
		cmake "$dir" >/dev/null
	elif ((named)) || [[ $p == default ]]; then
		(cd "$MBD_ROOT" && cmake --preset "${p:-default}" -B "$dir" >/dev/null)
	else
		return 0
	fi
	mbd_log "configured $dir"
}

named=0
[[ $preset || $build_dir ]] && named=1
for t in "${targets[@]}"; do
	write_entry "${t#*$'\t'}"
done
if ((configure)); then
	for t in "${targets[@]}"; do
		configure_build "${t%%$'\t'*}" "${t#*$'\t'}"
	done
	if [[ $mode == add ]]; then
		mbd_log "build it (scripts/build.sh ${preset:-default}) and use --variants reference,kernel:$name"
	fi
fi
