#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_kernel_suite_skip.sh SOURCE_DIR
#
# The real-suite checks skip (exit 77, which ctest shows as "Skipped"),
# not fail, when Debian's linux-source package cannot be had; nothing is
# downloaded here (the Debian mirror is an address nobody answers on) and
# nothing is written outside a temporary folder:
#  - test_kernel_suite_real.sh (check/kernel-tests-real) for a version
#    whose tree is not there;
#  - scripts/kernel-suite.sh with no .deb in the cache and no mirror;
#  - scripts/kernel-suite.sh with a bad test file is bad input (exit 2),
#    not a skip.
set -uo pipefail
src=${1:?usage: test_kernel_suite_skip.sh SOURCE_DIR}
work=$(mktemp -d "${TMPDIR:-/tmp}/mbd-ksuite-skip.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
export MBDIFF_DEBIAN_MIRROR=http://127.0.0.1:9/debian
test_c=$(find "$src/docs/kernel-tests" -name '*.c' | sort | head -n 1)

MBDIFF_CHECK_VERSION=0.0 bash "$src/tests/output/test_kernel_suite_real.sh" "$src" "$work/real" \
	>"$work/real.log" 2>&1
rc=$?
[[ $rc == 77 ]] && grep -q 'skipped' "$work/real.log" && ok ||
	bad "kernel-tests-real without a tree: exit $rc, expected 77: $(tail -n 3 "$work/real.log")"

mkdir -p "$work/empty-cache"
MBDIFF_DEB_CACHE=$work/empty-cache timeout 300 bash "$src/scripts/kernel-suite.sh" --version 0.0 \
	--work "$work/suite" --apt-dir "$work/apt" "$test_c" >"$work/suite.log" 2>&1
rc=$?
[[ $rc == 77 ]] && grep -q 'skipped: linux-source-0.0 cannot be had' "$work/suite.log" && ok ||
	bad "kernel-suite.sh without a package: exit $rc, expected 77: $(tail -n 3 "$work/suite.log")"

bash "$src/scripts/kernel-suite.sh" --version 0.0 --work "$work/suite" "$work/none.c" >"$work/bad.log" 2>&1
rc=$?
[[ $rc == 2 ]] && ok || bad "kernel-suite.sh with a missing test file: exit $rc, expected 2"

echo "$pass passed, $fail failed"
((fail == 0))
