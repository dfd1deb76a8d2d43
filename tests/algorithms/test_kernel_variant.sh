#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/algorithms/test_kernel_variant.sh --mode=fixture|tree --src=DIR --work=DIR [--cc=CC]
#                                     [--tree=DIR]
#
# The whole kernel-variant path (scripts/kernel-variant.sh, staging, kcompat,
# glue.c's snapshot reset) in a throwaway build directory.
#  fixture: a tree made from algorithms/reference (tests/algorithms/kernel_fixture/),
#           built as kernel:fixture and, with a mutant patch, kernel:fixmut.
#  tree:    a real kernel tree (--tree, else $MBDIFF_KERNEL_TREE) built as
#           kernel:tree and, with a patch made here, kernel:treemut; exit 77
#           when there is no tree. To pin its exact divergences from the
#           reference, see tests/algorithms/test_kernel_trees.sh.
set -uo pipefail

mode="" src="" work="" cc=${CC:-cc} tree_arg=""
for a in "$@"; do
	case $a in
	--tree=*) tree_arg=${a#*=} ;;
	--mode=*) mode=${a#*=} ;;
	--src=*) src=${a#*=} ;;
	--work=*) work=${a#*=} ;;
	--cc=*) cc=${a#*=} ;;
	*) echo "unknown argument $a" >&2; exit 2 ;;
	esac
done
[[ $mode && $src && $work ]] || { echo "need --mode --src --work" >&2; exit 2; }

pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
finish() {
	echo "$pass passed, $fail failed"
	((fail == 0))
	exit $?
}

kv=$src/scripts/kernel-variant.sh
rm -rf "$work"
mkdir -p "$work"

if [[ $mode == tree ]]; then
	tree=${tree_arg:-${MBDIFF_KERNEL_TREE:-}}
	if [[ -z $tree ]]; then
		echo "MBDIFF_KERNEL_TREE is not set: skipping"
		exit 77
	fi
	if [[ ! -f $tree/mm/memblock.c ]]; then
		echo "$tree/mm/memblock.c not there (scripts/get-kernel-tree.sh fetches one): skipping"
		exit 77
	fi
	vname=tree
else
	# the fixture tree: the reference laid out as a kernel tree
	tree=$work/tree
	mkdir -p "$tree/mm" "$tree/include/linux"
	cp "$src/algorithms/reference/memblock.c" "$tree/mm/memblock.c"
	cp "$src/algorithms/reference/memblock.h" "$tree/include/linux/memblock.h"
	vname=fixture
fi

# ---- staging alone: copy, era, static-state list ----
st=$work/stage
if bash "$kv" --stage --name "$vname" --tree "$tree" --out "$st" \
	--stamp "$work/stage.stamp" --cc "$cc" --nm nm --src "$src" 2>"$work/stage.err"; then
	ok "staging $tree"
else
	bad "staging $tree: $(cat "$work/stage.err")"
	finish
fi
cmp -s "$tree/mm/memblock.c" "$st/mm/memblock.c" && ok "mm/memblock.c copied unchanged" ||
	bad "staged mm/memblock.c differs from the tree"
for sym in memblock memblock_memory_init_regions memblock_reserved_init_regions memblock_can_resize; do
	grep -q "^MBD_KSTATE($sym)\$" "$st/mbd/mbd_kstate.h" && ok "state list has $sym" ||
		bad "mbd_kstate.h lacks $sym"
done
if grep -q 'MBD_KSTATE(mbd_' "$st/mbd/mbd_kstate.h"; then
	bad "kcompat's own statics leaked into the state list"
else
	ok "kcompat statics left out of the state list"
fi

if [[ $mode == fixture ]]; then
	# era detection on the fixture (the reference is a v6.11+ model)
	grep -q 'MBD_K_EMPTY_DUMMY 0' "$st/mbd/mbd_kernel_era.h" && ok "cnt 0 era detected" ||
		bad "era: $(cat "$st/mbd/mbd_kernel_era.h")"
	grep -q 'MBD_K_ADD_NODE_FLAGS 1' "$st/mbd/mbd_kernel_era.h" && ok "add_node flags detected" ||
		bad "era: add_node flags not detected"

	# a patch that does not apply: fails, names the hunk, leaves no tree
	cat >"$work/bad.patch" <<-'EOF'
	Subject: [PATCH] does not apply
	diff --git a/mm/memblock.c b/mm/memblock.c
	--- a/mm/memblock.c
	+++ b/mm/memblock.c
	@@ -1,3 +1,3 @@
	-this line is not in the file
	+nor is this one
	 nor this
	EOF
	if bash "$kv" --stage --name bad --tree "$tree" --out "$work/badtree" \
		--stamp "$work/bad.stamp" --cc "$cc" --nm nm --src "$src" \
		--patch "$work/bad.patch" 2>"$work/bad.err"; then
		bad "a non-applying patch was accepted"
	else
		grep -q 'Hunk #1 FAILED' "$work/bad.err" && grep -q 'bad.patch does not apply' "$work/bad.err" &&
			ok "non-applying patch: error names the patch and the hunk" ||
			bad "non-applying patch message: $(cat "$work/bad.err")"
		[[ ! -e $work/badtree/mm/memblock.c ]] && ok "nothing staged for a failed patch" ||
			bad "a failed patch left a staged tree"
	fi

	# A fixture tree NAME: the fixture's files, TEXT appended to memblock.c
	# and, if given, a Makefile of release V.P. Its path is printed.
	variant_tree() {
		local name=$1 text=$2 rel=${3:-} t=$work/$1
		mkdir -p "$t/mm" "$t/include/linux"
		cp "$tree/include/linux/memblock.h" "$t/include/linux/"
		{ cat "$tree/mm/memblock.c"; printf '%s\n' "$text"; } >"$t/mm/memblock.c"
		[[ -z $rel ]] || printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 0\n' "${rel%.*}" "${rel#*.}" >"$t/Makefile"
		printf '%s\n' "$t"
	}
	n=$(($(wc -l <"$tree/mm/memblock.c") + 1)) # the first appended line
	# staging must fail with exactly this line (one per missing symbol)
	stage_fails() {
		local what=$1 name=$2 want=$3 t
		t=$work/$name
		if bash "$kv" --stage --name "$name" --tree "$t" --out "$work/$name.out" \
			--stamp "$work/$name.stamp" --cc "$cc" --nm nm --src "$src" 2>"$work/$name.err"; then
			bad "$what: staging accepted it"
		elif grep -qxF -- "$want" "$work/$name.err"; then
			ok "$what: '$want'"
		else
			bad "$what: no line '$want' in: $(cat "$work/$name.err")"
		fi
	}
	variant_tree needs 'int mbdtest_f(void) { return no_such_kernel_symbol(1); }' >/dev/null
	stage_fails "unknown function" needs \
		"kcompat: no stand-in for \`no_such_kernel_symbol\` (needed by needs/mm/memblock.c:$n)"
	variant_tree needs3 'int mbdtest_h(void) { return NO_SUCH_KERNEL_CONSTANT; }' >/dev/null
	stage_fails "unknown identifier" needs3 \
		"kcompat: no stand-in for \`NO_SUCH_KERNEL_CONSTANT\` (needed by needs3/mm/memblock.c:$n)"
	variant_tree needs4 'struct mbdtest_unknown *mbdtest_p;'$'\n''int mbdtest_i(void) { return mbdtest_p->x; }' >/dev/null
	stage_fails "incomplete type" needs4 \
		"kcompat: no complete stand-in for \`struct mbdtest_unknown\` (needed by needs4/mm/memblock.c:$((n + 1)))"
	variant_tree needs2 'extern int no_such_extern(int);'$'\n''int mbdtest_g(void) { return no_such_extern(1); }' >/dev/null
	stage_fails "undefined extern" needs2 \
		"kcompat: no definition for \`no_such_extern\` (needed by needs2/mm/memblock.c:$((n + 1)))"
	# a kcompat macro of a name the file defines itself
	variant_tree clash 'void page_init_poison(void *p, size_t s) { }' >/dev/null
	stage_fails "stand-in clash" clash \
		"kcompat: its macro \`page_init_poison\` clashes with the kernel file (clash/mm/memblock.c:$n), which defines page_init_poison itself: guard the stand-in with MBD_K_DEFINES_page_init_poison (algorithms/kcompat/mbd_kc_kernel.h)"
	# ... unless the stand-in is guarded: the file's own definition is used
	t=$(variant_tree own 'unsigned long free_reserved_area(void *start, void *end, int poison, const char *s)'$'\n''{ return 0; }' 7.3)
	if bash "$kv" --stage --name own --tree "$t" --out "$work/own.out" --stamp "$work/own.stamp" \
		--cc "$cc" --nm nm --src "$src" 2>"$work/own.err" &&
		grep -qx '#define MBD_K_DEFINES_free_reserved_area 1' "$work/own.out/mbd/mbd_kernel_era.h" &&
		grep -qx '#define MBD_K_RELEASE 0x070300' "$work/own.out/mbd/mbd_kernel_era.h"; then
		ok "a file's own free_reserved_area() is compiled; release 7.3 recorded"
	else
		bad "own free_reserved_area: $(cat "$work/own.err" "$work/own.out/mbd/mbd_kernel_era.h" 2>&1)"
	fi
	# a release older than the lowest supported: one line, nothing recorded
	t=$(variant_tree old '' 4.19)
	want="kernel-variant.sh: error: kernel:old: $t is Linux 4.19; the lowest release supported is 5.4:"
	if bash "$kv" --build-dir "$work/oldbuild" --tree "$t" --name old --no-configure 2>"$work/old.err"; then
		bad "a v4.19 tree was accepted"
	elif [[ $(wc -l <"$work/old.err") == 1 ]] && grep -qF -- "$want" "$work/old.err" &&
		! grep -qs '^old=' "$work/oldbuild/kernel-variants.txt"; then
		ok "v4.19 refused in one line: $(cat "$work/old.err")"
	else
		bad "v4.19: $(cat "$work/old.err")"
	fi
	# the same line when the build stages it
	stage_fails "v4.19 at staging" old "$(cat "$work/old.err")"
fi

if [[ $mode == tree && -f $tree/Makefile ]]; then
	# era detection against the release the tree's Makefile names
	kver=$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p' "$tree/Makefile" | paste -sd.)
	echo "tree: $tree is v$kver"
	want_dummy=0
	[[ $(printf '%s\n6.11\n' "$kver" | sort -V | head -n 1) == 6.11 ]] || want_dummy=1
	grep -q "MBD_K_EMPTY_DUMMY $want_dummy" "$st/mbd/mbd_kernel_era.h" &&
		ok "v$kver: empty-array convention detected (dummy=$want_dummy)" ||
		bad "v$kver era: $(cat "$st/mbd/mbd_kernel_era.h")"
fi

# a patch against the real file, made here: insertion counts one byte too
# many, so kernel:treemut must differ from kernel:tree on the seeds
if [[ $mode == tree ]]; then
	mkdir -p "$work/pa/mm" "$work/pb/mm"
	cp "$tree/mm/memblock.c" "$work/pa/mm/memblock.c"
	sed 's/^\(\t*\)type->total_size += size;$/\1type->total_size += size + 1;/' \
		"$tree/mm/memblock.c" >"$work/pb/mm/memblock.c"
	(cd "$work" && diff -u --label a/mm/memblock.c --label b/mm/memblock.c \
		pa/mm/memblock.c pb/mm/memblock.c) >"$work/treemut.patch"
	[[ -s $work/treemut.patch ]] && ok "made a one-line patch against the tree's file" ||
		bad "the tree's file has no 'type->total_size += size;' line to patch"
fi

# ---- a throwaway build with the variants ----
# The reference and the kernel variants only (MBDIFF_KERNEL_VARIANTS_ONLY,
# as scripts/check.sh builds): nothing below replays another variant, and
# the patches, mutants and twin were most of this build's compiling.
bd=$work/build
entries="$vname=$tree"
[[ $mode == fixture ]] && entries+=";fixmut=$tree:$src/algorithms/mutants/shortcut-lt.patch"
[[ $mode == tree ]] && entries+=";treemut=$tree:$work/treemut.patch"
if cmake -S "$src" -B "$bd" -DMBDIFF_TESTS=OFF -DCMAKE_C_COMPILER="$cc" -DMBDIFF_KERNEL_VARIANTS_ONLY=ON \
	"-DMBDIFF_KERNEL_VARIANTS=$entries" >"$work/configure.log" 2>&1 &&
	cmake --build "$bd" --target mbdiff -j "$(nproc)" >"$work/build.log" 2>&1; then
	ok "configured and built with kernel:$vname"
else
	bad "build failed: $(tail -30 "$work/configure.log" "$work/build.log")"
	finish
fi
mbdiff=$bd/mbdiff
list=$("$mbdiff" list)
grep -Eq "^kernel:$vname[[:space:]]+kernel" <<<"$list" && ok "mbdiff list shows kernel:$vname" ||
	bad "mbdiff list: $list"
[[ ! -e $src/variants && -z $(find "$src/algorithms" -name 'kernel-*' -print -quit) ]] &&
	ok "nothing written into the source tree" || bad "kernel files appeared in the source tree"
[[ -f $bd/variants/kernel-$vname/mm/memblock.c ]] && ok "mini tree at variants/kernel-$vname" ||
	bad "no $bd/variants/kernel-$vname/mm/memblock.c"

"$mbdiff" replay --quiet --min-class warning --variants "reference,kernel:$vname" "$src/corpus/seeds" >"$work/seeds.out" 2>&1
rc=$?
if [[ $mode == fixture ]]; then
	((rc == 0)) && ok "reference~kernel:fixture agree on corpus/seeds" ||
		bad "reference~kernel:fixture (rc $rc): $(head -30 "$work/seeds.out")"
	# the regressions, one process: every input starts from a restored boot image
	"$mbdiff" replay --quiet --min-class warning --no-oracle --no-skip-baseline-faults --variants "reference,kernel:fixture" \
		"$src/corpus/regressions" >"$work/regr.out" 2>&1
	rc=$?
	((rc == 0)) && ok "reference~kernel:fixture agree on corpus/regressions" ||
		bad "regressions (rc $rc): $(head -30 "$work/regr.out")"
	# the patch was applied: the mutant must differ somewhere in the corpus
	grep -Eq "^kernel:fixmut[[:space:]]+kernel" <<<"$list" && ok "kernel:fixmut (patched) listed" ||
		bad "kernel:fixmut not listed"
	"$mbdiff" replay --quiet --min-class warning --variants "reference,kernel:fixmut" "$src/corpus/seeds" \
		"$src/corpus/regressions" >"$work/mut.out" 2>&1
	rc=$?
	((rc == 1)) && ok "kernel:fixmut diverges from reference (the patch is in)" ||
		bad "kernel:fixmut replay rc $rc (expected 1): $(head -20 "$work/mut.out")"

	# the user-facing script records an entry and the build picks it up
	if bash "$kv" --build-dir "$bd" --tree "$tree" --name viascript >"$work/kv.out" 2>&1 &&
		grep -q "^viascript=$tree\$" "$bd/kernel-variants.txt" &&
		cmake --build "$bd" --target mbdiff -j "$(nproc)" >>"$work/kv.out" 2>&1 &&
		"$mbdiff" list | grep -q '^kernel:viascript'; then
		ok "kernel-variant.sh --tree adds kernel:viascript"
	else
		bad "kernel-variant.sh path: $(tail -20 "$work/kv.out")"
	fi
else
	((rc == 0 || rc == 1)) && ok "reference~kernel:tree replays corpus/seeds (rc $rc)" ||
		bad "replay on kernel:tree failed (rc $rc): $(head -30 "$work/seeds.out")"
	((rc == 0)) || echo "note: divergences: see $work/seeds.out and scripts/fidelity.sh"
	"$mbdiff" replay --quiet --min-class warning --variants "kernel:tree,kernel:treemut" "$src/corpus/seeds" \
		>"$work/mut.out" 2>&1
	rc=$?
	((rc == 1)) && ok "kernel:treemut diverges from kernel:tree (the patch is in)" ||
		bad "kernel:treemut replay rc $rc (expected 1): $(head -20 "$work/mut.out")"
fi
finish
