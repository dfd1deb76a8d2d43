#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_install_tree.sh SOURCE_DIR BUILD_DIR WORK
#
# The installed `mbdiff check` run from inside a kernel git tree, as a
# developer runs it in ~/linux (issue 32): `cmake --install` into
# WORK/prefix; a throwaway git tree from Debian's
# linux-source-$MBDIFF_CHECK_VERSION (default 6.12) with one commit for
# the release (branch "release") and one patch commit on a branch that
# tracks it. Exit 77 (skipped) when that tree was not fetched.
#  - `mbdiff check` with no argument: the commit on top of the upstream
#    branch, said in the report, verdict CLEAN, exit 0, the report in the
#    user's cache (the cwd is a git work tree);
#  - `mbdiff check HEAD^..HEAD` and `mbdiff check FILE.patch` (a change
#    not committed): the base is the tree itself (--base-only);
#  - the patch already committed: "already applied in HEAD", exit 2;
#  - `git status` stays clean, nothing is written into the tree, the
#    source tree or HOME outside the cache.
# Bounded by runs and depth, not the clock. Ends with "N passed, N failed".
set -euo pipefail

src=$(realpath "${1:?usage: test_install_tree.sh SOURCE_DIR BUILD_DIR WORK}")
build=$(realpath "${2:?}")
work=${3:?}
v=${MBDIFF_CHECK_VERSION:-6.12}
if ! ktree=$(bash "$src/scripts/get-kernel-tree.sh" --print --version "$v" 2>/dev/null | tail -n 1) ||
	[[ ! -f $ktree/mm/memblock.c ]]; then
	echo "installed-tree: no linux-$v tree (bash scripts/get-kernel-tree.sh --version $v): skipped"
	exit 77
fi
rm -rf "$work"
mkdir -p "$work/home"
work=$(realpath "$work")
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# shellcheck source=tests/install/untouched.sh
. "$src/tests/install/untouched.sh"

prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 ||
	{ echo "FAIL: cmake --install: $(tail -n 3 "$work/install.log")"; echo "0 passed, 1 failed"; exit 1; }
mbdiff=$prefix/bin/mbdiff

# the developer's tree: the release, then a patch on a branch tracking it
lin=$work/linux
mkdir -p "$lin/mm" "$lin/include/linux"
cp "$ktree/Makefile" "$lin/"
cp "$ktree/mm/memblock.c" "$lin/mm/"
cp "$ktree/include/linux/memblock.h" "$lin/include/linux/"
g() { git -C "$lin" -c user.name=Dev -c user.email=dev@example.org "$@"; }
g init -q -b release
g add -A
g commit -qm "Linux $v"
g checkout -q -b work --track release
sed -i '0,/^int __init_memblock memblock_add_range\|^static int __init_memblock memblock_add_range/s//\/* the regions are kept sorted and merged *\/\n&/' "$lin/mm/memblock.c"
g diff --quiet && { echo "FAIL: the sed made no patch"; echo "0 passed, 1 failed"; exit 1; }
g commit -qam "memblock: say why the regions stay sorted"
g format-patch -q -1 -o "$work/patches"
patch=$(find "$work/patches" -name '*.patch' | head -n 1)

stamp=$work/stamp
touch "$stamp"
sleep 1

# intree(CMD...): in the tree's mm/ folder, only the installed files to go by
intree() {
	(cd "$lin/mm" && env -u MBDIFF -u MBDIFF_DATA -u MBDIFF_SOURCE_DIR -u XDG_CACHE_HOME -u MBDIFF_DEB_CACHE \
		HOME="$work/home" "$@")
}

rc=0
intree "$mbdiff" check --runs 3000 --explore-depth 2 --explore-time 600 --reach-runs 0 \
	--no-coverage --no-kernel-tests >"$work/check.txt" 2>"$work/check.err" || rc=$?
((rc == 0)) && grep -q '^mbdiff check: CLEAN' "$work/check.txt" && ok ||
	bad "installed check in the tree: exit $rc: $(head -n 1 "$work/check.txt") $(tail -n 3 "$work/check.err")"
grep -q '^checked: the commits on top of release (1 in' "$work/check.txt" && ok ||
	bad "the report does not say it checked the commits on top of release: $(grep -A1 '^checked' "$work/check.txt")"
# (a long path wraps, under "base:  ")
sed ':a;N;$!ba;s/\n       //g' "$work/check.txt" | grep -q "^base:  [0-9a-f]* of $lin\$" && ok || bad "the base is not the tree: $(grep '^base' "$work/check.txt")"
rep=$(find "$work/home/.cache/mbdiff/reports" -maxdepth 2 -name report.txt 2>/dev/null | head -n 1)
[[ $rep && $(basename "$(dirname "$rep")") == linux-check-* ]] && cmp -s "$rep" "$work/check.txt" && ok ||
	bad "no report in the cache's reports/linux-check-*: '$rep'"
ls -d "$work/home/.cache/mbdiff/build"/check-tree-* >/dev/null 2>&1 && ok || bad "no per-tree build folder in the cache"

out=$(intree "$mbdiff" check --base-only HEAD^..HEAD 2>/dev/null) && [[ $out == "base: "*" of $lin" ]] && ok ||
	bad "check HEAD^..HEAD: '$out'"
# a patch not committed: applied to HEAD (made outside the tree)
mkdir -p "$work/a/mm" "$work/b/mm"
cp "$lin/mm/memblock.c" "$work/a/mm/"
sed '0,/^\(static \)\?int __init_memblock memblock_double_array/s//\/* grows the array *\/\n&/' \
	"$lin/mm/memblock.c" >"$work/b/mm/memblock.c"
(cd "$work" && diff -u a/mm/memblock.c b/mm/memblock.c >"$work/new.patch") || true
out=$(intree "$mbdiff" check --base-only "$work/new.patch" 2>/dev/null) && [[ $out == "base: "*" of $lin" ]] && ok ||
	bad "check FILE.patch on the tree's HEAD: '$out'"
rc=0
out=$(intree "$mbdiff" check --base-only "$patch" 2>&1) || rc=$?
((rc == 2)) && grep -q 'already applied in HEAD' <<<"$out" && ok || bad "a committed patch: exit $rc: $out"

[[ -z $(g status --porcelain --ignored) ]] && ok || bad "git status is not clean: $(g status --porcelain --ignored)"
new=$(find "$lin" -path "$lin/.git" -prune -o -newer "$stamp" -print | head -n 5)
[[ -z $new ]] && ok || bad "written into the kernel tree: $new"
untouched "$src" "$work/home" "$stamp"

echo "$pass passed, $fail failed"
((fail == 0))
