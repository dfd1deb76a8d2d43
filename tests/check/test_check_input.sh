#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_check_input.sh SOURCE_DIR MBDIFF
#
# scripts/check.sh before it builds anything, on stand-in kernel trees
# (our reference laid out as linux-7.3 and linux-6.12, so nothing is
# fetched): the base is the newest tree the whole series applies to; an
# mbox is split and applied in order (a cover letter skipped); a series
# that applies nowhere exits 2 naming the failing hunk and its .rej file
# (and says so in --json); a series already in a tree is never applied
# reversed (meta.json already_applied; exit 2 if no other tree takes it);
# --tree DIR REV takes the base from git; bad
# input exits 2 with a one-line reason.
set -uo pipefail
src=${1:?usage: test_check_input.sh SOURCE_DIR MBDIFF}
. "$src/tests/lib/check_lib.sh"
check_init check-input "${2:?}" "${3:-}"
check=$src/scripts/check.sh

trees=$work/trees
for v in 7.3 6.12; do
	t=$trees/linux-$v
	mkdir -p "$t/mm" "$t/include/linux"
	cp "$src/algorithms/reference/memblock.c" "$t/mm/memblock.c"
	cp "$src/algorithms/reference/memblock.h" "$t/include/linux/memblock.h"
	printf 'VERSION = stand-in\n' >"$t/Makefile"
	printf 'stand-in tree for test_check_input.sh (%s.0)\n' "$v" >"$t/SOURCE"
done
# 7.3 differs where the patches below change things: they apply to 6.12 only
sed -i 's/^static int __init_memblock memblock_add_range(/static int __init_memblock  memblock_add_range(/' \
	"$trees/linux-7.3/mm/memblock.c"

# two patches, the second needing the first
mkp() { # mkp FROM_FILE TO_FILE SUBJECT > patch
	printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
	printf 'From: Test <t@example.org>\nSubject: [PATCH] %s\n\n---\n' "$3"
	(cd "$work" && diff -u "a/$1" "b/$2" | sed -e '1s|^--- a/[^ \t]*|--- a/mm/memblock.c|' \
		-e '2s|^+++ b/[^ \t]*|+++ b/mm/memblock.c|') || true
	printf -- '-- \n2.39.2\n\n'
}
mkdir -p "$work/a" "$work/b"
c=$trees/linux-6.12/mm/memblock.c
cp "$c" "$work/a/v0"
awk '/^static int __init_memblock memblock_add_range\(/ && !d { print "/* first */"; d = 1 } { print }' "$c" >"$work/b/v1"
cp "$work/b/v1" "$work/a/v1"
awk '/^\/\* first \*\// && !d { print; print "/* second */"; d = 1; next } { print }' "$work/b/v1" >"$work/b/v2"
mkp v0 v1 "one" >"$work/p1.patch"
mkp v1 v2 "two" >"$work/p2.patch"
{
	printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
	printf 'From: Test <t@example.org>\nSubject: [PATCH 0/2] cover\n\nno diff here\n\n'
	cat "$work/p1.patch" "$work/p2.patch"
} >"$work/series.mbox"

# only the stand-in versions: nothing is fetched
run() { bash "$check" --trees "$trees" --base 7.3,6.12 -o "$work/out" "$@" >"$work/log" 2>&1; }

run --base-only "$work/series.mbox"
rc=$?
[[ $rc == 0 ]] && ok || bad "mbox series: exit $rc: $(tail -n 3 "$work/log")"
grep -q '^base: Linux 6.12.0 (Debian linux-source-6.12)' "$work/log" && ok ||
	bad "mbox series: base is not 6.12: $(grep base: "$work/log")"
[[ $(ls "$work/out/series") == $'0001.patch\n0002.patch' ]] && ok ||
	bad "the mbox was not split into two patches (cover letter skipped): $(ls "$work/out/series" | tr '\n' ' ')"

run --base-only "$work/p1.patch" "$work/p2.patch"
[[ $? == 0 ]] && ok || bad "two patch files in order did not apply"

# the wrong order applies nowhere: exit 2, hunk and .rej named, JSON says so
bash "$check" --trees "$trees" --base 7.3,6.12 -o "$work/out" --json "$work/j.json" "$work/p2.patch" "$work/p1.patch" >"$work/log" 2>&1
rc=$?
[[ $rc == 2 ]] && ok || bad "a series that applies nowhere exited $rc, expected 2"
grep -q 'PATCH DOES NOT APPLY' "$work/log" && ok || bad "no DOES NOT APPLY verdict: $(head -n 3 "$work/log")"
grep -q 'FAILED' "$work/log" && ok || bad "the failing hunk is not named"
rej=$(sed -n 's/^failing hunks: //p' "$work/log" | head -n 1)
[[ -n $rej && -f $work/out/$rej ]] && ok || bad "the .rej path is not printed or does not exist: '$rej'"
[[ $(jq -r .verdict "$work/j.json" 2>/dev/null) == does-not-apply && $(jq -r .exit "$work/j.json") == 2 ]] && ok ||
	bad "--json does not say does-not-apply"
awk 'length($0) > 72 && !/^[-+ @]/ && $0 !~ "^  /" { bad = 1 } END { exit bad }' "$work/out/report.txt" && ok ||
	bad "report lines over 72 columns"

# --tree DIR REV: the base is the tree at REV^
g=$work/git
mkdir -p "$g/mm" "$g/include/linux"
cp "$c" "$g/mm/memblock.c"
cp "$trees/linux-6.12/include/linux/memblock.h" "$g/include/linux/"
git -C "$g" init -q && git -C "$g" add -A &&
	git -C "$g" -c user.name=t -c user.email=t@e commit -qm base &&
	cp "$work/b/v1" "$g/mm/memblock.c" &&
	git -C "$g" -c user.name=t -c user.email=t@e commit -qam "memblock: a comment"
run --base-only --tree "$g" HEAD
rc=$?
[[ $rc == 0 ]] && ok || bad "--tree: exit $rc: $(tail -n 2 "$work/log")"
grep -q "^base: .* of $g" "$work/log" && ok || bad "--tree: base not from the git tree: $(grep base: "$work/log")"

# a series already in a tree is never applied backwards: 7.3 has p1, so
# the base is 6.12 and meta.json records 7.3; with 7.3 alone, exit 2 naming it
trees2=$work/trees2
cp -r "$trees" "$trees2"
cp "$work/b/v1" "$trees2/linux-7.3/mm/memblock.c"
bash "$check" --trees "$trees2" --base 7.3,6.12 -o "$work/out" --base-only "$work/p1.patch" >"$work/log" 2>&1
rc=$?
[[ $rc == 0 ]] && grep -q '^base: Linux 6.12.0' "$work/log" && ok ||
	bad "p1 already in 7.3: exit $rc, $(grep base: "$work/log" || tail -n 1 "$work/log")"
[[ $(jq -c .already_applied "$work/out/meta.json" 2>/dev/null) == '["7.3"]' ]] && ok ||
	bad "meta.json already_applied is not [\"7.3\"]: $(jq -c .already_applied "$work/out/meta.json" 2>&1)"
bash "$check" --trees "$trees2" --base 7.3 -o "$work/out" --base-only "$work/p1.patch" >"$work/log" 2>&1
rc=$?
[[ $rc == 2 ]] && ok || bad "series only already applied: exit $rc, expected 2"
[[ $(grep -c error: "$work/log") == 1 ]] && grep -q 'error: .*already applied in linux-source 7.3' "$work/log" && ok ||
	bad "no one line naming 7.3 as already applied: $(cat "$work/log")"

# bad input: exit 2, one line naming the problem
expect2() { # expect2 WHAT PATTERN ARGS...
	local what=$1 pat=$2
	shift 2
	run "$@"
	local rc=$?
	[[ $rc == 2 ]] && ok || bad "$what: exit $rc, expected 2"
	grep -q -- "$pat" "$work/log" && ok || bad "$what: no '$pat' in: $(tail -n 2 "$work/log")"
}
expect2 "missing file" "no such file" "$work/nope.patch"
printf 'just text\n' >"$work/text.patch"
expect2 "no hunk" "no diff hunk" "$work/text.patch"
printf -- '--- a/mm/page_alloc.c\n+++ b/mm/page_alloc.c\n@@ -1 +1 @@\n-a\n+b\n' >"$work/other.patch"
expect2 "not memblock" "nothing for mbdiff to check" "$work/other.patch"
expect2 "bad --base" "not a version" --base 7 "$work/p1.patch"
export GIT_CEILING_DIRECTORIES=$work # $work may lie inside a checkout
expect2 "--tree not git" "not a git tree" --tree "$work/a" HEAD
unset GIT_CEILING_DIRECTORIES
expect2 "--tree bad rev" "not a revision range" --tree "$g" nosuchrev
expect2 "no input" "no PATCH given"
check_done
