#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_bench.sh [MBDIFF [WORKDIR]]   (defaults: $MBDIFF, a temp dir)
#
# `mbdiff bench` on two tiny traces with --reps 3, every variant in the
# binary but the mutants (and none of them): the CSV has the documented header and one row per trace, variant
# and mode, every figure a positive number (no timing thresholds: only the
# structure is checked), min <= median <= max, the ratio inside its
# interval, the baseline's ratio and interval 1, and the table says whether
# instructions were counted, where it was pinned and how many processes
# (layouts) measured the rounds, by default one per 20 rounds, and that a
# cold sample sweeps 1 MiB by default. Then bad input: a
# malformed trace, a trace with no calls, an unknown variant, --reps 0 and
# a CSV in a missing directory all exit 2 with a message, and leave no CSV
# (an existing one untouched) and no temp file.
set -u
# shellcheck disable=SC2015 # "test && ok || bad": ok() never fails
# shellcheck source=tests/lib/check_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check_lib.sh"

check_init test_bench "${1:-${MBDIFF:-}}" "${2:-}"
mkdir -p -- "$work/in" "$work/out"
cd "$work" || exit 2

cat >in/a.mbt <<'EOF'
# two banks and a reservation
memblock_add: [0x0000000000001000-0x000000000009efff]
memblock_add: [0x0000000000100000-0x000000003fffffff]
memblock_reserve: [0x0000000001000000-0x0000000001ffffff]
EOF
cat >in/b.mbt <<'EOF'
config memory.max=2 reserved.max=128 resize=1
memblock_add: [0x0000000000002000-0x0000000000002fff]
memblock_add: [0x0000000000000000-0x0000000000003fff]
memblock_remove: [0x0000000000003000-0x0000000000003fff]
EOF

# what bench times by default: every variant but the mutants
mapfile -t variants < <("$mbdiff" list | awk 'NR > 1 && $2 != "mutant" { print $1 }')
nv=${#variants[@]}
((nv >= 1)) && ok || bad "mbdiff list names no variant"

# ---- a good run ----
"$mbdiff" bench --reps 3 --evict-mib 8 --csv out/bench.csv in/a.mbt in/b.mbt \
	>out/table.txt 2>out/err.txt
rc=$?
((rc == 0)) && ok || bad "bench exited $rc: $(cat out/err.txt)"
[[ -f out/bench.csv ]] && ok || bad "no CSV written"
head=trace,file,variant,kind,mode,calls,reps,trace_ns_min,trace_ns_median,trace_ns_max,call_ns_min,call_ns_median,call_ns_max,instructions_per_call,ratio_to_baseline,baseline,page_faults_per_rep,ratio_ci_low,ratio_ci_high
[[ $(head -n 1 out/bench.csv) == "$head" ]] && ok ||
	bad "CSV header is '$(head -n 1 out/bench.csv)'"
rows=$(($(wc -l <out/bench.csv) - 1))
((rows == 2 * 2 * nv)) && ok || bad "CSV has $rows rows, want $((4 * nv)) (2 traces x 2 modes x $nv variants)"

# every row: 19 fields, positive figures, ordered min/median/max and
# interval low/ratio/high
problems=$(awk -F, -v reps=3 '
	NR == 1 { next }
	NF != 19 { print "line " NR ": " NF " fields"; next }
	$5 != "warm" && $5 != "cold" { print "line " NR ": mode " $5 }
	$6 !~ /^[0-9]+$/ || $6 + 0 < 1 { print "line " NR ": calls " $6 }
	$7 != reps { print "line " NR ": reps " $7 }
	{
		for (i = 8; i <= 13; i++)
			if ($i !~ /^[0-9]+(\.[0-9]+)?$/ || $i + 0 <= 0)
				print "line " NR ": field " i " is " $i
		if ($8 + 0 > $9 + 0 || $9 + 0 > $10 + 0)
			print "line " NR ": min/median/max " $8 " " $9 " " $10
		if ($14 != "NA" && ($14 !~ /^[0-9.]+$/ || $14 + 0 <= 0))
			print "line " NR ": instructions " $14
		if ($15 !~ /^[0-9.]+$/ || $15 + 0 <= 0)
			print "line " NR ": ratio " $15
		if ($3 == $16 && $15 != "1.0000")
			print "line " NR ": baseline ratio " $15
		if ($17 !~ /^[0-9.]+$/)
			print "line " NR ": faults " $17
		if ($18 !~ /^[0-9.]+$/ || $19 !~ /^[0-9.]+$/ ||
		    $18 + 0 > $15 + 0 || $15 + 0 > $19 + 0)
			print "line " NR ": interval " $18 " " $15 " " $19
		if ($3 == $16 && ($18 != "1.0000" || $19 != "1.0000"))
			print "line " NR ": baseline interval " $18 " " $19
	}' out/bench.csv)
[[ -z $problems ]] && ok || bad "CSV rows: $problems"

# one row per trace x variant x mode, for every variant of the binary but
# the mutants, and none for a mutant
muts=$("$mbdiff" list | awk 'NR > 1 && $2 == "mutant" { print $1 }')
for v in $muts; do
	awk -F, -v v="$v" '$3 == v { f = 1 } END { exit !f }' out/bench.csv && bad "mutant $v timed by default" || ok
done
for tr in a b; do
	for v in "${variants[@]}"; do
		for m in warm cold; do
			n=$(awk -F, -v t="$tr" -v v="$v" -v m="$m" \
				'$1 == t && $3 == v && $5 == m' out/bench.csv | wc -l)
			((n == 1)) && ok || bad "$n rows for $tr $v $m"
		done
	done
done
# reference is the baseline when it is there
if printf '%s\n' "${variants[@]}" | grep -qx reference; then
	[[ $(awk -F, 'NR == 2 { print $16 }' out/bench.csv) == reference ]] && ok ||
		bad "baseline is not reference"
fi
grep -qE '^instructions: (not available \(perf_event_open: .+\)|user-space)' out/table.txt && ok ||
	bad "the table does not say whether instructions were counted"
grep -q '^per boot' out/table.txt && ok || bad "no per-boot summary in the table"
# the summary: every variant twice (warm, cold), ratio then [low, high]
rows=$(awk '/^per boot/ { on = 1; next } on && $2 ~ /^(warm|cold)$/ &&
	$9 ~ /^\[[0-9.]+,$/ && $10 ~ /^[0-9.]+\]$/ { n++ } END { print n + 0 }' out/table.txt)
((rows == 2 * nv)) && ok || bad "summary has $rows rows with an interval, want $((2 * nv))"
grep -qE '^cpu: (pinned to [0-9]+|not pinned \(sched_setaffinity: .+\))$' out/table.txt && ok ||
	bad "the table does not say where it ran"
"$mbdiff" bench --reps 1 --no-pin --evict-mib 8 in/a.mbt >out/nopin.txt 2>&1 &&
	grep -qx 'cpu: not pinned (--no-pin)' out/nopin.txt && ok || bad "--no-pin: $(head -n 5 out/nopin.txt)"
grep -q "^wrote out/bench.csv" out/table.txt && ok || bad "no 'wrote' line"
# 3 rounds: the default (one layout per 20 rounds, at least 10) becomes 3
# processes of one round each
grep -q '^layouts: 3 processes' out/table.txt && ok || bad "layouts: $(grep '^layouts' out/table.txt)"
"$mbdiff" bench --reps 2 --layouts 1 --evict-mib 8 in/b.mbt >out/one.txt 2>&1 &&
	grep -q '^layouts: 1 (every round in this process' out/one.txt && ok ||
	bad "--layouts 1: $(head -n 5 out/one.txt)"
grep -q '^image: each layout copies' out/table.txt && ok || bad "image: $(grep '^image' out/table.txt)"
grep -qE '^image: ([1-9][0-9]* KiB of code and read-only pages copied|the page cache.s pages, shared with every run \(copying them: .+\))' out/one.txt &&
	ok || bad "--layouts 1, image: $(grep '^image' out/one.txt)"
# the defaults: 240 rounds are 12 layouts (one per 20 rounds; the cap of
# 100 is not run: 100 processes take seconds); a cold sample flushes the
# image and sweeps 1 MiB
"$mbdiff" bench --reps 240 --variants "${variants[0]}" in/b.mbt >out/l240.txt 2>&1 &&
	grep -q '^layouts: 12 processes' out/l240.txt && ok ||
	bad "--reps 240: $(grep '^layouts' out/l240.txt || head -n 3 out/l240.txt)"
grep -q "cold: the program image (every variant's code and statics) and the trace flushed from the caches, then 1 MiB swept" \
	out/l240.txt && ok || bad "default cold: $(grep '^warm:' out/l240.txt)"
# two layouts of two rounds each measure the same trace as one process does
"$mbdiff" bench --reps 4 --layouts 2 --evict-mib 8 --csv out/lay.csv in/b.mbt >/dev/null 2>&1 &&
	ok || bad "--layouts 2 failed"
[[ $(awk -F, 'NR > 1 { print $1, $3, $5, $6, $7 }' out/lay.csv) == \
	"$(awk -F, 'NR > 1 && $1 == "b" { print $1, $3, $5, $6, 4 }' out/bench.csv)" ]] && ok ||
	bad "--layouts 2: other rows than one process gives"

# --variants picks and orders (first = baseline)
"$mbdiff" bench --reps 1 --variants "${variants[$((nv - 1))]},${variants[0]}" \
	--evict-mib 8 --csv out/two.csv in/a.mbt >/dev/null 2>&1 && ok || bad "bench --variants failed"
[[ $(awk -F, 'NR > 1 { print $3 }' out/two.csv | sort -u | wc -l) == "$((nv > 1 ? 2 : 1))" ]] && ok ||
	bad "--variants: $(awk -F, 'NR > 1 { print $3 }' out/two.csv | sort -u | tr '\n' ' ')"
[[ $(awk -F, 'NR == 2 { print $16 }' out/two.csv) == "${variants[$((nv - 1))]}" ]] && ok ||
	bad "--variants: the first name is not the baseline"

# ---- bad input: exit 2, a message, no CSV ----
printf 'memblock_frobnicate: [0x0-0xfff]\n' >in/bad.mbt
printf '# nothing to time\nconfig memory.max=4\n' >in/empty.mbt
expect_fail() { # NAME PATTERN ARGS...
	local name=$1 pat=$2 rc
	shift 2
	rm -f out/fail.csv
	"$mbdiff" bench --reps 1 --evict-mib 8 "$@" >out/fail.out 2>out/fail.err
	rc=$?
	((rc == 2)) && ok || bad "$name: exit $rc, want 2"
	grep -qE -- "$pat" out/fail.err && ok || bad "$name: stderr '$(cat out/fail.err)' lacks /$pat/"
	[[ ! -e out/fail.csv ]] && ok || bad "$name: a CSV was written"
}
expect_fail malformed '^in/bad\.mbt:1: error: ' --csv out/fail.csv in/a.mbt in/bad.mbt
expect_fail no-calls '^in/empty\.mbt: error: no memblock calls' --csv out/fail.csv in/empty.mbt
expect_fail missing-file 'in/nope\.mbt: ' --csv out/fail.csv in/nope.mbt
expect_fail unknown-variant 'unknown variant "no-such"' --variants no-such --csv out/fail.csv in/a.mbt
expect_fail reps-zero '--reps needs a count 1\.\.1000000' --reps 0 --csv out/fail.csv in/a.mbt
expect_fail unknown-option 'unknown option "--frob"' --frob --csv out/fail.csv in/a.mbt
expect_fail seed-zero '--seed needs a count' --seed 0 --csv out/fail.csv in/a.mbt
expect_fail cpu-bad '--cpu needs a CPU number' --cpu x --csv out/fail.csv in/a.mbt
expect_fail cpu-big '--cpu needs a CPU number' --cpu 4096 --csv out/fail.csv in/a.mbt
expect_fail cpu-absent '--cpu 4095: cannot pin to it' --cpu 4095 --csv out/fail.csv in/a.mbt
expect_fail layouts-zero '--layouts needs a count 1\.\.1000' --layouts 0 --csv out/fail.csv in/a.mbt
expect_fail layouts-big '--layouts needs a count 1\.\.1000' --layouts 1001 --csv out/fail.csv in/a.mbt
expect_fail worker-range '--layout-worker 1: there are 1 layouts' --layout-worker 1 --csv out/fail.csv in/a.mbt
expect_fail csv-dir 'out/nodir/x\.csv: cannot write' --csv out/nodir/x.csv in/a.mbt

# an existing CSV survives a failed run unchanged
cp out/bench.csv out/keep.csv
"$mbdiff" bench --reps 1 --csv out/keep.csv in/bad.mbt >/dev/null 2>&1
cmp -s out/keep.csv out/bench.csv && ok || bad "a failed run changed an existing CSV"
leftover=$(find out -name '*.tmp.*' | head -n 3)
[[ -z $leftover ]] && ok || bad "temp files left: $leftover"

check_done
