#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_kernel_suite_real.sh SOURCE_DIR [WORKDIR]
#
# docs/kernel-tests/*.c in the kernel's REAL tools/testing/memblock
# (Debian's linux-source-$MBDIFF_CHECK_VERSION, default 7.3: the
# reference models v7.3, so the expected values are v7.3's), through
# scripts/kernel-suite.sh, one process per test, NUMA=1 and not: every
# test passes on the real mainline file; each <variant>--*.c fails on the
# real file with that variant ported in (scripts/port-patch.sh), unless
# its header says the shift hides the difference. The base builds are
# shared by all variants. reference--*.c pin
# mainline itself and run on the base only. Then the one-build-per-test
# fallback: two copies of one test (their NAME_checks() clash) give one
# line each, as the test alone does; a test that does not compile beside
# one that does is named in the error, exit 1. Exit 77 (skipped) when the
# tree, the .deb ($MBDIFF_DEB_CACHE) or liburcu cannot be had.
set -uo pipefail
src=${1:?usage: test_kernel_suite_real.sh SOURCE_DIR [WORKDIR]}
work=${2:-$(mktemp -d "${TMPDIR:-/tmp}/mbd-ksuite.XXXXXX")}
v=${MBDIFF_CHECK_VERSION:-7.3}
mkdir -p "$work"
# nothing is downloaded here: the tree from get-kernel-tree.sh, the .deb
# from $MBDIFF_DEB_CACHE (or a suite already extracted in WORKDIR)
if ! tree=$(bash "$src/scripts/get-kernel-tree.sh" --print --version "$v" 2>"$work/get.log" | tail -n 1) ||
	[[ ! -f $tree/mm/memblock.c ]]; then
	echo "kernel-suite-real: no linux-$v tree (bash scripts/get-kernel-tree.sh --version $v): skipped"
	exit 77
fi
if [[ ! -f $work/suite/linux-$v/tools/testing/memblock/Makefile ]] &&
	! ls "${MBDIFF_DEB_CACHE:-/nonexistent}"/linux-source-"${v}"_*_all.deb >/dev/null 2>&1; then
	echo "kernel-suite-real: no linux-source-$v .deb in \$MBDIFF_DEB_CACHE: skipped"
	exit 77
fi
fail=0
variants=$(find "$src/docs/kernel-tests" -name '*--*.c' -printf '%f\n' | sed 's/--.*//' | sort -u)
for var in $variants; do
	mapfile -t tests < <(find "$src/docs/kernel-tests" -name "$var--*.c" | sort)
	args=()
	if [[ $var != reference ]]; then
		bash "$src/scripts/port-patch.sh" --tree "$tree" --variant "$var" -o "$work/$var.patch" \
			2>"$work/$var.port.log" || { echo "FAIL: $var cannot be ported: $(tail -n 1 "$work/$var.port.log")"; fail=1; continue; }
		args=(--patch "$work/$var.patch")
	fi
	bash "$src/scripts/kernel-suite.sh" --version "$v" --work "$work/suite" "${args[@]}" "${tests[@]}"
	rc=$?
	case $rc in
	0) ;;
	77) echo "kernel-suite-real: the suite cannot be built here (skipped)"; exit 77 ;;
	*) echo "FAIL: $var (exit $rc)"; fail=1 ;;
	esac
done
# the fallback: clashing names are built one by one
one=$(find "$src/docs/kernel-tests" -name 'reference--*.c' | sort | head -n 1)
mkdir -p "$work/clash/a" "$work/clash/b"
cp "$one" "$work/clash/a/t.c"
cp "$one" "$work/clash/b/t.c"
alone=$(bash "$src/scripts/kernel-suite.sh" --version "$v" --work "$work/suite" "$one" 2>/dev/null | sed 's/^[^ ]* //')
both=$(bash "$src/scripts/kernel-suite.sh" --version "$v" --work "$work/suite" \
	"$work/clash/a/t.c" "$work/clash/b/t.c" 2>/dev/null | sed 's/^[^ ]* //')
want=$(printf '%s\n' "$alone" | awk '{ print; print }')
if [[ $alone && $both == "$want" ]]; then
	echo "kernel-suite-real: clashing names: $(wc -l <<<"$both") lines, as each test alone"
else
	echo "FAIL: clashing names gave '$both', each alone '$alone'"
	fail=1
fi
# ... and a test that does not build is named
printf 'int mbdiff_broken_checks(void)\n{\n\treturn missing_symbol;\n}\n' >"$work/clash/broken.c"
err=$(bash "$src/scripts/kernel-suite.sh" --version "$v" --work "$work/suite" --numa 1 \
	"$one" "$work/clash/broken.c" 2>&1 >/dev/null)
rc=$?
if ((rc == 1)) && grep -q 'does not build with broken.c' <<<"$err"; then
	echo "kernel-suite-real: a test that does not build is named (exit 1)"
else
	echo "FAIL: a broken test gave exit $rc: $(tail -n 1 <<<"$err")"
	fail=1
fi
exit "$fail"
