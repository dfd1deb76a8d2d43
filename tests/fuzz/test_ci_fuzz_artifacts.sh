#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/fuzz/test_ci_fuzz_artifacts.sh
#
# scripts/ci-fuzz.sh stopped from outside (SIGTERM, or a `timeout` time
# limit) while the engine is still fuzzing must leave every crash the
# engine saved in ARTIFACTS/crashes/ and print, for each, a signature and
# a replay command naming that file; and it must exit 1.
#
# The fuzz target is a stub built here (crashes on inputs starting with
# "FU" or "QQ", as a divergence does: a message, then abort()), so the test
# does not depend on which variants diverge. libFuzzer runs in fork mode
# with -ignore_crashes=1 so it keeps fuzzing after its first crash; the
# AFL++ case (it keeps going by itself) runs when afl-clang-fast exists.
# Prints "N passed, M failed"; exits 77 (skip) without clang/libFuzzer.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
ci=$root/scripts/ci-fuzz.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/mbdiff-ci-fuzz-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0
fail=0

check() { # check DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $what" >&2
	fi
}

cat >"$work/stub.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
/* A stand-in fuzz target: "diverges" on inputs starting with FU or QQ. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	if (n >= 2 && ((d[0] == 'F' && d[1] == 'U') || (d[0] == 'Q' && d[1] == 'Q'))) {
		fprintf(stderr, "mbdiff: divergence stub~stub reserved/coverage at op 0 memblock_add\n");
		abort();
	}
	return 0;
}

#ifdef STUB_AFL
/* AFL++ persistent mode around the same function. */
#include <unistd.h>
__AFL_FUZZ_INIT();
int main(void)
{
	__AFL_INIT();
	unsigned char *buf = __AFL_FUZZ_TESTCASE_BUF;
	while (__AFL_LOOP(10000)) {
		int len = __AFL_FUZZ_TESTCASE_LEN;
		LLVMFuzzerTestOneInput(buf, (size_t)len);
	}
	return 0;
}
#endif
EOF

if ! command -v clang >/dev/null 2>&1 ||
	! clang -fsanitize=fuzzer -o "$work/stub_fuzz" "$work/stub.c" >"$work/cc.log" 2>&1; then
	echo "SKIP: cannot build a libFuzzer target with clang (see scripts/setup.sh)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 77
fi
mkdir -p "$work/seeds"
printf 'hello' >"$work/seeds/a"

# Every engine finding under ART must be in ART/crashes/ (by content), and
# each file there must be on the output with a signature and replay line.
check_artifacts() { # check_artifacts NAME ART OUTPUT_FILE RC
	local name=$1 art=$2 outf=$3 rc=$4 f n=0 sum found have
	check "$name: exit status 1 (got $rc)" test "$rc" = 1
	# What the engine wrote: libFuzzer into crashes/, AFL++ into afl/*/crashes/.
	have=$(find "$art/crashes" -maxdepth 1 -type f -exec sha1sum {} + 2>/dev/null | cut -c1-40 | sort -u)
	while IFS= read -r f; do
		[[ -n $f ]] || continue
		sum=$(sha1sum <"$f" | cut -c1-40)
		check "$name: AFL++ crash $(basename "$f") copied into crashes/" grep -qx "$sum" <<<"$have"
	done < <(find "$art/afl" -path '*/crashes/id:*' -type f 2>/dev/null)
	while IFS= read -r f; do
		n=$((n + 1))
		found=$(grep -A2 -F -- "/crashes/$(basename "$f")" "$outf" || true)
		check "$name: $(basename "$f") listed with a signature" grep -q '^  signature: ' <<<"$found"
		check "$name: $(basename "$f") has a replay command naming it" \
			grep -qE "^  replay: +.*mbdiff replay .*$(basename "$f")\$" <<<"$found"
		check "$name: $(basename "$f") in crashes.txt" grep -qF -- "/crashes/$(basename "$f")" "$art/crashes.txt"
	done < <(find "$art/crashes" -maxdepth 1 -type f ! -name 'README*' ! -name '.*' ! -name '*.variants')
	check "$name: at least one crash saved before the stop" test "$n" -gt 0
	check "$name: the FAIL line names the artifact dir" grep -q '^ci-fuzz: FAIL: ' "$outf"
}

# Wait until a file matching PATTERN (find -path) exists under DIR (the
# engine found something) or process PID has ended: no clock, so a busy
# machine only makes it wait longer (ctest's hang guard bounds it).
wait_for_crash() { # wait_for_crash DIR PATTERN PID
	while kill -0 "$3" 2>/dev/null; do
		if [[ -n $(find "$1" -path "$2" -type f ! -name 'README*' 2>/dev/null | head -n 1) ]]; then
			return 0
		fi
		sleep 0.1
	done
	return 1
}

# 1. SIGTERM to ci-fuzz.sh while libFuzzer is still running.
art=$work/term
rc=0
bash "$ci" --no-build --binary "$work/stub_fuzz" --seeds "$work/seeds" --time 3600 \
	--artifacts "$art" -- -fork=1 -ignore_crashes=1 >"$work/term.out" 2>"$work/term.err" &
pid=$!
start=$SECONDS
if wait_for_crash "$art" "*/crashes/crash-*" "$pid"; then
	sleep 1 # let it find a few more
	kill -TERM "$pid"
fi
# what the first crash took on this machine now: the time limit below
# leaves three times that (and 6 s at least), however busy it is
first=$((SECONDS - start + 1))
wait "$pid" || rc=$?
check "term: ci-fuzz.sh stopped by the signal long before its 3600 s" \
	grep -q 'interrupted=TERM' "$art/ci-result.txt"
check_artifacts term "$art" "$work/term.out" "$rc"

# 2. A time limit: `timeout` sends TERM to ci-fuzz.sh's whole process group.
art=$work/timeout
rc=0
limit=$((first * 3 > 6 ? first * 3 : 6))
timeout -s TERM "$limit" bash "$ci" --no-build --binary "$work/stub_fuzz" --seeds "$work/seeds" \
	--time 3600 --artifacts "$art" -- -fork=1 -ignore_crashes=1 \
	>"$work/timeout.out" 2>"$work/timeout.err" || rc=$?
check "timeout: timeout reports the time limit (124, got $rc)" test "$rc" = 124
# timeout's own status hides ci-fuzz's: read it from the result file.
check "timeout: ci-fuzz.sh reported a failure" grep -q '^ci-fuzz: FAIL: ' "$work/timeout.out"
check_artifacts timeout "$art" "$work/timeout.out" 1

# 3. AFL++: its crashes live in afl/*/crashes/ until the trap gathers them.
if command -v afl-clang-fast >/dev/null 2>&1 && command -v afl-fuzz >/dev/null 2>&1 &&
	AFL_QUIET=1 afl-clang-fast -DSTUB_AFL -o "$work/stub_afl" "$work/stub.c" >"$work/afl-cc.log" 2>&1; then
	art=$work/afl
	rc=0
	bash "$ci" --no-build --engine afl --binary "$work/stub_afl" --seeds "$work/seeds" \
		--time 3600 --artifacts "$art" >"$work/afl.out" 2>"$work/afl.err" &
	pid=$!
	if wait_for_crash "$art" "*/afl/*/crashes/id:*" "$pid"; then
		sleep 2
		kill -TERM "$pid"
	fi
	wait "$pid" || rc=$?
	check_artifacts afl "$art" "$work/afl.out" "$rc"
else
	echo "note: afl-clang-fast not available, AFL++ case skipped"
fi

if ((fail)); then
	for f in "$work"/*.out "$work"/*.err; do
		echo "---- $(basename "$f")" >&2
		tail -n 20 "$f" >&2
	done
fi
echo "$pass passed, $fail failed"
((fail == 0))
