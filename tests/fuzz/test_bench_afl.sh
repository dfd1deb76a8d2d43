#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_bench_afl.sh SOURCE_DIR AFL_DIFF WORK
#
# scripts/bench-afl-divergence.sh end to end, bounded by executions: one
# afl-fuzz run (havoc, -E 3000) on reference,deng-2023-v2 must leave one
# well-formed row in results.tsv (found 0 or 1, executions within the
# bound, a divergence of deng-2023-v2 when found) and the same row in the
# table. Whether it finds the divergence is not asserted: that is the
# benchmark's figure, not a property.
set -uo pipefail

src=${1:?usage: test_bench_afl.sh SOURCE_DIR AFL_DIFF WORK}
afl=${2:?usage: test_bench_afl.sh SOURCE_DIR AFL_DIFF WORK}
work=${3:?usage: test_bench_afl.sh SOURCE_DIR AFL_DIFF WORK}
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

rm -rf -- "$work"
mkdir -p "$(dirname "$work")"
if ! bash "$src/scripts/bench-afl-divergence.sh" --no-build --target "$afl" --setups havoc \
	--patches deng-2023-v2 --seeds 1 --execs 3000 --work "$work" >"$work.out" 2>&1; then
	bad "bench-afl-divergence.sh failed: $(tail -n 5 "$work.out")"
	echo "$pass passed, $fail failed"
	exit 1
fi
ok
rows=$(wc -l <"$work/results.tsv")
((rows == 1)) && ok || bad "results.tsv has $rows rows, 1 expected"
IFS=$'\t' read -r patch setup seed found execs cpu sig <"$work/results.tsv"
[[ $patch == deng-2023-v2 && $setup == havoc && $seed == 1 ]] && ok ||
	bad "row names '$patch $setup $seed', not 'deng-2023-v2 havoc 1'"
[[ $found == 0 || $found == 1 ]] && ok || bad "found is '$found'"
# -E stops afl-fuzz at the end of the stage that reached the bound
[[ $execs =~ ^[0-9]+$ ]] && ((execs >= 1 && execs <= 3000 + 1000)) && ok ||
	bad "execs '$execs' outside 1..4000"
[[ $cpu =~ ^[0-9]+\.[0-9]+$ ]] && ok || bad "CPU seconds '$cpu'"
if [[ $found == 1 ]]; then
	[[ $sig == "mbdiff: divergence reference~deng-2023-v2 "* ]] && ok || bad "signature '$sig'"
else
	[[ $sig == - ]] && ok || bad "no divergence but signature '$sig'"
fi
grep -q "^| deng-2023-v2 | $found/1 | " "$work/table.md" && ok ||
	bad "table.md has no row '| deng-2023-v2 | $found/1 |': $(cat "$work/table.md")"
grep -q '^- command: `bash scripts/bench-afl-divergence.sh ' "$work/table.md" && ok ||
	bad "table.md does not name its command"

echo "$pass passed, $fail failed"
((fail == 0))
