#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Short, bounded runs of the fuzz entry points (ctest; see tests/fuzz/CMakeLists.txt).
#
#   fuzz_smoke.sh find  --fuzzer=BIN --work=DIR --variants=A,B --runs=N
#                       [--max-time=S] [--dict=F] [--replay=BIN] [--mbdiff=BIN]
#       libFuzzer must report a divergence (exit 77, "deadly signal", an
#       "mbdiff: divergence" line) within N runs, and the crash file it saved
#       must replay to the same signature with mbdiff-replay and mbdiff.
#   fuzz_smoke.sh clean --fuzzer=BIN --work=DIR --variants=A,B --runs=N [--dict=F]
#       libFuzzer must run N inputs without any divergence.
#   fuzz_smoke.sh options --replay=BIN --work=DIR
#       the double-dash options are checked: bad ones exit 2 with a message.
#   fuzz_smoke.sh replay-clean --replay=BIN --afl=BIN --work=DIR --variants=A,B --count=N
#       N fixed pseudo-random inputs must run clean through mbdiff-replay and
#       through afl_diff (file arguments, stdin, and options from MBDIFF_ARGS).
#
# Everything is written below --work (recreated each run): artifacts never
# land in the source tree or the current directory.
set -u

mode=${1:-}
shift || true
fuzzer='' work='' variants='' runs='' max_time=0 dict='' replay='' mbdiff='' afl='' count=100
for arg in "$@"; do
	case $arg in
	--fuzzer=*) fuzzer=${arg#*=} ;;
	--work=*) work=${arg#*=} ;;
	--variants=*) variants=${arg#*=} ;;
	--runs=*) runs=${arg#*=} ;;
	--max-time=*) max_time=${arg#*=} ;;
	--dict=*) dict=${arg#*=} ;;
	--replay=*) replay=${arg#*=} ;;
	--mbdiff=*) mbdiff=${arg#*=} ;;
	--afl=*) afl=${arg#*=} ;;
	--count=*) count=${arg#*=} ;;
	*) echo "fuzz_smoke: unknown argument '$arg'" >&2; exit 2 ;;
	esac
done

# Absolute paths: libFuzzer runs inside the work directory.
abs() { [[ -z $1 || $1 == /* ]] && printf '%s' "$1" || printf '%s/%s' "$PWD" "$1"; }
fuzzer=$(abs "$fuzzer") work=$(abs "$work") dict=$(abs "$dict")
replay=$(abs "$replay") mbdiff=$(abs "$mbdiff") afl=$(abs "$afl")

passed=0
failed=0
check() { # check DESCRIPTION COMMAND...: count one outcome
	local what=$1
	shift
	if "$@"; then
		echo "ok   $what"
		passed=$((passed + 1))
	else
		echo "FAIL $what" >&2
		failed=$((failed + 1))
	fi
}
finish() {
	echo "$passed passed, $failed failed"
	((failed == 0))
	exit
}
need() {
	local v
	for v in "$@"; do
		if [[ -z ${!v} ]]; then
			echo "fuzz_smoke $mode: --${v//_/-}= is required" >&2
			exit 2
		fi
	done
}
# The last signature line in a log ("" if none).
signature() { grep -E '^mbdiff: (divergence|oracle) ' "$1" | tail -n 1; }

setup_work() {
	rm -rf -- "$work"
	mkdir -p -- "$work/corpus"
}

libfuzzer() { # libfuzzer LOG extra-flags...
	local log=$1
	shift
	# The run count bounds the work, not the clock: a busy machine makes
	# the run slower, never wrong (--max-time S adds a clock bound).
	local flags=(-seed=1 -runs="$runs" -timeout=60
		-artifact_prefix="$work/" -print_final_stats=1)
	((max_time > 0)) && flags+=(-max_total_time="$max_time")
	[[ -n $dict && -f $dict ]] && flags+=(-dict="$dict")
	(cd "$work" && "$fuzzer" "--variants=$variants" "${flags[@]}" "$@" corpus) >"$log" 2>&1
}

case $mode in
find)
	need fuzzer work variants runs
	setup_work
	log=$work/fuzz.log
	libfuzzer "$log"
	rc=$?
	tail -n 80 "$log"
	sig=$(signature "$log")
	check "libFuzzer exited 77 (a finding), got $rc" test "$rc" -eq 77
	check "libFuzzer reported a deadly signal" grep -q 'ERROR: libFuzzer: deadly signal' "$log"
	# its status stream holds whole lines only (fuzz_lines.c): the ones it
	# printed on the way out must all be there (Base64: only comes for
	# inputs up to 256 bytes; the final stats come last whatever the size)
	check "libFuzzer's last lines reached the log" grep -q '^stat::peak_rss_mb: ' "$log"
	check "the report has a divergence signature line" test -n "$sig"
	# libFuzzer builds link the uncounted copies: the baseline feeds no coverage
	check "the baseline runs uncounted (--baseline-coverage=off)" grep -q ', baseline uncounted$' "$log"
	# libFuzzer reads the common counter section (the kcompat runtime) and
	# those of the variants that run counted, not those of every variant
	# linked in: one module each (harness/model/variant_cov.c)
	n_var=$(tr ',' '\n' <<<"$variants" | grep -c .)
	check "libFuzzer was given $n_var counter modules (common + $((n_var - 1)) counted)" \
		grep -qE "^INFO: Loaded $n_var modules +\(" "$log"
	crash=$(find "$work" -maxdepth 1 -name 'crash-*' -type f | head -n 1)
	check "the input was saved under the work directory" test -n "$crash"
	if [[ -n $crash && -n $sig ]]; then
		echo "signature: $sig"
		if [[ -n $replay ]]; then
			"$replay" "--variants=$variants" "$crash" >"$work/replay.log" 2>&1
			rc=$?
			check "mbdiff-replay aborts on the crash file (exit $rc)" test "$rc" -ne 0
			check "mbdiff-replay reproduces the signature" \
				test "$(signature "$work/replay.log")" = "$sig"
		fi
		if [[ -n $mbdiff ]]; then
			"$mbdiff" replay --variants "$variants" "$crash" >"$work/mbdiff.log" 2>&1
			rc=$?
			check "mbdiff replay exits 1 on the crash file (got $rc)" test "$rc" -eq 1
			check "mbdiff replay reproduces the signature" \
				test "$(signature "$work/mbdiff.log")" = "$sig"
		fi
	fi
	finish
	;;
clean)
	need fuzzer work variants runs
	setup_work
	log=$work/fuzz.log
	# Full-length inputs from the start: the default length control would
	# keep most of the runs to a few bytes (a handful of ops).
	libfuzzer "$log" -len_control=0
	rc=$?
	tail -n 30 "$log"
	check "libFuzzer exited 0 (got $rc)" test "$rc" -eq 0
	check "libFuzzer ran all $runs inputs" grep -q "Done $runs runs" "$log"
	check "no divergence was reported" test -z "$(signature "$log")"
	# a target whose code under test has no counters sees 1 to 3 features
	# and keeps nothing: it fuzzes blind (fuzz_decode and fuzz_import did)
	ft=$(sed -n 's/^#[0-9]*[[:space:]]*DONE .* ft: \([0-9]*\) .*/\1/p' "$log" | tail -n 1)
	check "libFuzzer had coverage feedback (ft: ${ft:-none}, at least 100)" test "${ft:-0}" -ge 100
	check "no artifact was written" test -z "$(find "$work" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \))"
	# fuzz_diff hands libFuzzer a stream that writes whole lines, one
	# write(2) each (harness/fuzz/fuzz_lines.c); --verbose counts them
	if [[ $(basename "$fuzzer") == fuzz_diff ]]; then
		vlog=$work/lines.log
		(cd "$work" && "$fuzzer" "--variants=$variants" --verbose=1 -seed=1 -runs=300 \
			-len_control=0 -artifact_prefix="$work/") >"$vlog" 2>&1
		counts=$(sed -n "s/^mbdiff: libFuzzer's output: \([0-9]*\) pieces in \([0-9]*\) writes$/\1 \2/p" "$vlog")
		check "libFuzzer's output went through the line stream" test -n "$counts"
		read -r pieces writes <<<"${counts:-0 0}"
		check "fewer writes ($writes) than pieces ($pieces)" test "$writes" -lt "$pieces"
		check "libFuzzer's own lines are whole" grep -q '^Done 300 runs in ' "$vlog"
		# scripts/bench-cpu-pair.sh tells same paths from different ones:
		# one build twice (exit 0), then against itself with byte mutations
		pair=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/bench-cpu-pair.sh
		cp_args=(--seeds 1 --reps 1 --runs 2000 --variants "$variants")
		out=$(bash "$pair" "${cp_args[@]}" --work "$work/pair-same" "$fuzzer" "$fuzzer" 2>&1)
		rc=$?
		check "bench-cpu-pair: one build twice, exit 0 (got $rc)" test "$rc" -eq 0
		check "bench-cpu-pair: one build twice takes the same path" \
			grep -q '^seed 1: A .* same path$' <<<"$out"
		printf '#!/bin/sh\nexec "%s" "$@" --mutator=bytes\n' "$fuzzer" >"$work/bytes.sh"
		chmod +x "$work/bytes.sh"
		out=$(bash "$pair" "${cp_args[@]}" --work "$work/pair-other" "$fuzzer" "$work/bytes.sh" 2>&1)
		rc=$?
		check "bench-cpu-pair: another mutator, exit 1 (got $rc)" test "$rc" -eq 1
		check "bench-cpu-pair: another mutator takes other paths" \
			grep -q '^seed 1: A .* different paths' <<<"$out"
	fi
	finish
	;;
replay-clean)
	need replay afl work variants count
	setup_work
	inputs=$work/inputs
	mkdir -p "$inputs"
	# Fixed LCG, so every run tests the same bytes (lengths 0..511).
	x=12345
	for ((f = 0; f < count; f++)); do
		len=$(((f * 37) % 512))
		s=''
		for ((i = 0; i < len; i++)); do
			x=$(((x * 1103515245 + 12345) & 0x7fffffff))
			printf -v oct '\\%03o' $(((x >> 16) & 255))
			s+=$oct
		done
		printf '%b' "$s" >"$(printf '%s/in-%04d' "$inputs" "$f")"
	done
	"$replay" "--variants=$variants" "$inputs" >"$work/replay.log" 2>&1
	rc=$?
	tail -n 5 "$work/replay.log"
	check "mbdiff-replay exit 0 (got $rc)" test "$rc" -eq 0
	check "mbdiff-replay tested all $count files" grep -q "^Tested $count files: Success!" "$work/replay.log"
	check "mbdiff-replay reported no divergence" test -z "$(signature "$work/replay.log")"

	some=("$inputs"/in-000[0-9])
	"$afl" "--variants=$variants" "${some[@]}" >"$work/afl-files.log" 2>&1
	check "afl_diff runs file arguments clean" test $? -eq 0
	"$afl" "--variants=$variants" <"${some[-1]}" >"$work/afl-stdin.log" 2>&1
	check "afl_diff runs stdin clean" test $? -eq 0
	MBDIFF_ARGS="--variants=$variants" "$afl" <"${some[-1]}" >"$work/afl-env.log" 2>&1
	rc=$?
	check "afl_diff takes options from MBDIFF_ARGS (exit $rc)" test "$rc" -eq 0
	pair=${variants//,/\~}
	check "afl_diff used the MBDIFF_ARGS variants" grep -q "fuzz target $pair," "$work/afl-env.log"
	finish
	;;
options)
	need replay work
	setup_work
	: >"$work/empty"
	expect() { # expect RC PATTERN ARGS...: exit status and a line of output
		local want=$1 pat=$2
		shift 2
		"$replay" "$@" >"$work/out.log" 2>&1
		local rc=$?
		check "mbdiff-replay $* exits $want (got $rc)" test "$rc" -eq "$want"
		check "mbdiff-replay $* says /$pat/" grep -qE -- "$pat" "$work/out.log"
	}
	expect 2 "variant 'reference' given twice" --variants=reference,reference "$work/empty"
	expect 2 "unknown variant 'no-such-variant'" --variants=reference,no-such-variant "$work/empty"
	expect 2 "variants in this build: reference reference-twin" --variants=bogus "$work/empty"
	expect 2 "--min-class=bad: unknown class" --min-class=bad "$work/empty"
	expect 2 "--decoder=fancy: expected structured or naive" --decoder=fancy "$work/empty"
	expect 2 "unknown option '--frobnicate'" --frobnicate "$work/empty"
	expect 2 "--mutator=bits: expected ops or bytes" --mutator=bits "$work/empty"
	expect 0 "^Tested 1 files: Success!" --variants=reference,reference-twin --mutator=bytes "$work/empty"
	expect 2 "--baseline-coverage=maybe: expected on or off" --baseline-coverage=maybe "$work/empty"
	expect 0 "min-class capacity\$" --variants=reference,reference-twin --baseline-coverage=on "$work/empty"
	# alone, a variant is the subject: its own code feeds the coverage
	expect 0 "fuzz target reference, decoder structured, oracle on, min-class capacity\$" \
		--variants=reference "$work/empty"
	expect 2 "--variants needs a value" --variants "$work/empty"
	expect 0 "^usage: " --help
	expect 2 "^usage: " --variants=reference,reference-twin
	expect 0 "^Tested 1 files: Success!" --variants=reference,reference-twin "$work/empty"
	expect 0 "fuzz target reference~reference-twin, decoder naive, oracle off, min-class coverage" \
		--variants=reference,reference-twin --decoder=naive --no-oracle --min-class=coverage "$work/empty"
	expect 2 "^Tested 0 files: Failure!" --variants=reference,reference-twin "$work/missing"
	finish
	;;
*)
	echo "usage: fuzz_smoke.sh find|clean|replay-clean|options --options... (see the header)" >&2
	exit 2
	;;
esac
