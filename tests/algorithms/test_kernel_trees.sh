#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/algorithms/test_kernel_trees.sh build --src=DIR --trees=DIR --work=DIR [--cc=CC]
#        tests/algorithms/test_kernel_trees.sh check --src=DIR --trees=DIR --work=DIR --version=V [--update]
#
# The real kernel files that scripts/get-kernel-tree.sh fetched (TREES/linux-V),
# built unmodified as kernel variants and compared with the reference.
#  build: one throwaway build (WORK/build, mbdiff only) with, for every V that
#         has both a tree and a pinned list SRC/tests/algorithms/kernel-trees/V.expected,
#         kernel:real-V (the tree) and kernel:real-V-mut (the tree plus a
#         one-line patch made here: insertion counts one byte too many).
#         Exit 77 when no such tree was fetched.
#  check: for one V (exit 77 without its tree): the release the Makefile
#         names is the one staging recorded, the era detection agrees with
#         it, mbdiff list names the variant, the patch is in (real-V-mut
#         diverges from real-V), and the divergences of reference~kernel:real-V
#         over corpus/{seeds,regressions,real} plus the findings of
#         kernel:real-V alone over corpus/regressions/reference are exactly
#         those pinned in V.expected.
#         --update rewrites V.expected from what this run got instead
#         (scripts/pin-kernel-trees.sh does it for every version).
#
# V.expected: comment lines, then entries. An entry is a block of comment
# lines (why: the upstream change behind the difference) followed by the
# lines it explains, one signature a line:
#   pair FILE SIGNATURE    BASELINE~kernel:tree, --no-expect --no-oracle
#                          (BASELINE: "# baseline: NAME" in the header, else
#                          reference)
#                          (all with --min-class warning: every difference)
#   alone FILE SIGNATURE   kernel:tree alone, oracle on
# (the variant is called kernel:tree in the file, whatever its build name).
# --update keeps each still-present line under its comment, drops lines that
# went away and adds new ones under a "# NEW, not explained yet" comment.
set -uo pipefail

cmd=${1:-}
shift || true
src="" trees="" work="" cc=${CC:-cc} version="" update=0
for a in "$@"; do
	case $a in
	--src=*) src=${a#*=} ;;
	--trees=*) trees=${a#*=} ;;
	--work=*) work=${a#*=} ;;
	--cc=*) cc=${a#*=} ;;
	--version=*) version=${a#*=} ;;
	--update) update=1 ;;
	*) echo "unknown argument $a" >&2; exit 2 ;;
	esac
done
[[ $cmd == build || $cmd == check ]] || { echo "usage: $0 build|check --src --trees --work" >&2; exit 2; }
[[ $src && $trees && $work ]] || { echo "need --src --trees --work" >&2; exit 2; }

pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
finish() {
	echo "$pass passed, $fail failed"
	((fail == 0))
	exit $?
}

# kernel:real-5-10 for 5.10
vname() { printf 'real-%s' "${1//./-}"; }

# Versions with a pinned list, oldest first.
pinned() {
	local f
	for f in "$src"/tests/algorithms/kernel-trees/*.expected; do
		[[ -e $f ]] && basename "$f" .expected
	done | sort -V
}

bd=$work/build
mbdiff=$bd/mbdiff

# The model a pinned list compares with: "# baseline: NAME" in its header,
# else the reference (older files agree best with the model of their era).
baseline_of() {
	local b=""
	[[ -f $1 ]] && b=$(sed -n 's/^# baseline:[[:space:]]*\([^[:space:]]*\).*/\1/p' "$1" | head -n 1)
	printf '%s\n' "${b:-reference}"
}

if [[ $cmd == build ]]; then
	rm -rf "$work"
	mkdir -p "$work"
	entries=() built=() with=()
	for v in $(pinned); do
		tree=$trees/linux-$v
		[[ -f $tree/mm/memblock.c ]] || continue
		b=$(baseline_of "$src/tests/algorithms/kernel-trees/$v.expected")
		[[ $b == reference || " ${with[*]} " == *" $b "* ]] || with+=("$b")
		n=$(vname "$v")
		mkdir -p "$work/$n/a/mm" "$work/$n/b/mm"
		cp "$tree/mm/memblock.c" "$work/$n/a/mm/memblock.c"
		sed 's/^\(\t*\)type->total_size += size;$/\1type->total_size += size + 1;/' \
			"$tree/mm/memblock.c" >"$work/$n/b/mm/memblock.c"
		(cd "$work/$n" && diff -u --label a/mm/memblock.c --label b/mm/memblock.c \
			a/mm/memblock.c b/mm/memblock.c) >"$work/$n/mut.patch"
		if [[ -s $work/$n/mut.patch ]]; then
			ok "v$v: a one-line patch against its memblock.c"
		else
			bad "v$v: no 'type->total_size += size;' line to patch"
			continue
		fi
		entries+=("$n=$tree" "$n-mut=$tree:$work/$n/mut.patch")
		built+=("$v")
	done
	if ((${#built[@]} == 0)); then
		echo "no pinned kernel tree fetched into $trees (scripts/get-kernel-tree.sh): skipping"
		exit 77
	fi
	list=$(printf '%s;' "${entries[@]}")
	with_list=$(printf '%s;' "${with[@]}")
	start=$(date +%s)
	# The reference, the baselines and the kernel variants only: no other
	# variant is replayed here.
	if cmake -S "$src" -B "$bd" -DMBDIFF_TESTS=OFF -DCMAKE_C_COMPILER="$cc" \
		-DMBDIFF_KERNEL_VARIANTS_ONLY=ON "-DMBDIFF_KERNEL_VARIANTS_WITH=${with_list%;}" \
		"-DMBDIFF_KERNEL_VARIANTS=${list%;}" >"$work/configure.log" 2>&1 &&
		cmake --build "$bd" --target mbdiff -j "$(nproc)" >"$work/build.log" 2>&1; then
		ok "built kernel variants of ${built[*]} in $(($(date +%s) - start)) s"
		printf '%s\n' "${built[@]}" >"$work/built"
	else
		grep -E '^(kcompat|kernel-variant\.sh|CMake Error)' "$work/configure.log" "$work/build.log" | head -40
		bad "the build with the real kernel trees failed: $(tail -5 "$work/build.log")"
	fi
	finish
fi

# ---- check one version --------------------------------------------------

[[ $version =~ ^[0-9]+\.[0-9]+$ ]] || { echo "--version=V.P needed" >&2; exit 2; }
tree=$trees/linux-$version
expect=$src/tests/algorithms/kernel-trees/$version.expected
n=$(vname "$version")
if [[ ! -f $tree/mm/memblock.c ]]; then
	echo "$tree not fetched (scripts/get-kernel-tree.sh --version $version): skipping"
	exit 77
fi
if ! grep -qx "$version" "$work/built" 2>/dev/null; then
	bad "kernel:$n was not built (see the kernel-variant/real-build test)"
	finish
fi

# the release staging recorded is the Makefile's
era=$bd/variants/kernel-$n/mbd/mbd_kernel_era.h
mk=$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p' "$tree/Makefile" | paste -sd.)
[[ $mk == "$version" ]] && ok "the tree's Makefile says $mk" || bad "linux-$version's Makefile says '$mk'"
want=$(printf '0x%02x%02x00' "${mk%%.*}" "${mk#*.}")
grep -q "^#define MBD_K_RELEASE $want\$" "$era" && ok "staging recorded MBD_K_RELEASE $want" ||
	bad "era header: $(grep MBD_K_RELEASE "$era")"
older() { [[ $(printf '%s\n%s\n' "$mk" "$1" | sort -V | head -n 1) != "$1" ]]; }
want_dummy=0
older 6.11 && want_dummy=1
grep -q "MBD_K_EMPTY_DUMMY $want_dummy" "$era" && ok "empty-array convention (dummy=$want_dummy)" ||
	bad "era: $(cat "$era")"
want_flags=1
older 5.17 && want_flags=0
grep -q "MBD_K_ADD_NODE_FLAGS $want_flags" "$era" && ok "memblock_add_node() flags argument ($want_flags)" ||
	bad "era: $(cat "$era")"

"$mbdiff" list | grep -Eq "^kernel:$n[[:space:]]" && ok "mbdiff list shows kernel:$n" ||
	bad "mbdiff list: $("$mbdiff" list | grep kernel:)"

"$mbdiff" replay --quiet --min-class warning --variants "kernel:$n,kernel:$n-mut" "$src/corpus/seeds" >"$work/$n.mut.out" 2>&1
rc=$?
((rc == 1)) && ok "kernel:$n-mut diverges from kernel:$n (the patch is in)" ||
	bad "kernel:$n-mut replay rc $rc (expected 1): $(head -20 "$work/$n.mut.out")"

# every divergent input with its signature line, relative paths
sigs() {
	awk -v root="$src/" -v tag="$1" -v name="kernel:$n" '
		/^input: / { f = $2; sub(root, "", f) }
		/^mbdiff: (divergence|expectation|oracle) / {
			line = $0
			gsub(name, "kernel:tree", line)
			print tag, f, line
		}' "$2"
}
baseline=$(baseline_of "$expect")
"$mbdiff" replay --quiet --min-class warning --no-expect --no-oracle --variants "$baseline,kernel:$n" \
	"$src/corpus/seeds" "$src/corpus/regressions" "$src/corpus/real" >"$work/$n.pair.out" 2>&1
"$mbdiff" replay --quiet --min-class warning --variants "kernel:$n" "$src/corpus/regressions/reference" \
	>"$work/$n.alone.out" 2>&1
{ sigs pair "$work/$n.pair.out"; sigs alone "$work/$n.alone.out"; } | sort >"$work/$n.got"
inputs=$(find "$src/corpus/seeds" "$src/corpus/regressions" "$src/corpus/real" -name '*.mbt' | wc -l)
echo "v$version: $(grep -c '^pair ' "$work/$n.got") of $inputs corpus inputs differ from $baseline," \
	"$(grep -c '^alone ' "$work/$n.got") oracle findings alone"

if ((update)); then
	bash "$src/tests/algorithms/kernel_expect_update.sh" "$expect" "$work/$n.got" "v$version" &&
		ok "rewrote $expect" || bad "could not rewrite $expect"
	finish
fi
if [[ ! -f $expect ]]; then
	bad "no $expect (scripts/pin-kernel-trees.sh --version $version writes it)"
	finish
fi
grep -Ev '^(#|$)' "$expect" | sort >"$work/$n.want"
if diff -u "$work/$n.want" "$work/$n.got" >"$work/$n.diff"; then
	ok "divergences and findings are exactly those in $(basename "$expect") ($(wc -l <"$work/$n.got"))"
else
	bad "divergences differ from $expect (- pinned, + got; scripts/pin-kernel-trees.sh rewrites it): $(cat "$work/$n.diff")"
fi
finish
