#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Short check of scripts/detect.sh (ctest label fuzz-smoke): two mutants
# must be reported as detected, with a signature that names them, and the
# clean pair reference~reference-twin must be reported as not detected.
#
#   test_detect_smoke.sh --fuzzer=BIN --mbdiff=BIN --work=DIR [--budget=S]
#
# Everything is written below --work (recreated each run).
set -u

fuzzer='' mbdiff='' work='' budget=900
for arg in "$@"; do
	case $arg in
	--fuzzer=*) fuzzer=${arg#*=} ;;
	--mbdiff=*) mbdiff=${arg#*=} ;;
	--work=*) work=${arg#*=} ;;
	--budget=*) budget=${arg#*=} ;;
	*) echo "test_detect_smoke: unknown argument '$arg'" >&2; exit 2 ;;
	esac
done
if [[ -z $fuzzer || -z $mbdiff || -z $work ]]; then
	echo "test_detect_smoke: --fuzzer, --mbdiff and --work are required" >&2
	exit 2
fi
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
passed=0 failed=0
check() { # check DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL: $what" >&2
	fi
}

rm -rf -- "$work"
mkdir -p "$work"
for m in merge-ignores-nid no-cap-size; do
	if ! "$mbdiff" list | awk '{ print $1 }' | grep -qx "$m"; then
		echo "test_detect_smoke: mutant $m is not built; skipped" >&2
		exit 77
	fi
done

# A generous clock budget: each mutant stops its run at the first finding
# (seconds on an idle machine), so the budget only matters on a busy one.
# Run from another directory: the script must not depend on the cwd.
md=$work/detection.md
(cd "$work" && MBDIFF=$mbdiff MBD_FUZZ_DIFF=$fuzzer bash "$src/scripts/detect.sh" --no-build \
	--budget "$budget" --seeds 1 --decoders structured --corpora empty \
	--variants merge-ignores-nid,no-cap-size --strict --out "$md" --work "$work/runs" \
	>"$work/log" 2>&1)
rc=$?
check "detect.sh exits 0 when every mutant is found (got $rc; see $work/log)" test "$rc" = 0
check "detection.md was written" test -s "$md"
for m in merge-ignores-nid no-cap-size; do
	check "$m is detected" grep -qE "^\| $m \| mutant \| yes \|" "$md"
	check "$m row has a signature naming it" grep -qE "^\| $m \| mutant \| structured \| empty \| 1/1 \| [a-z]+ \|.*\`mbdiff: [a-z]+ [^ ]*$m" "$md"
done

# A clean pair: nothing may be reported. 3 s is enough to prove the
# script does not invent findings (the twin never diverges).
md2=$work/clean.md
(cd / && MBDIFF=$mbdiff MBD_FUZZ_DIFF=$fuzzer bash "$src/scripts/detect.sh" --no-build \
	--budget 3 --seeds 1 --decoders structured --corpora empty \
	--variants reference-twin --strict --out "$md2" --work "$work/clean" \
	>"$work/clean.log" 2>&1)
rc=$?
check "detect.sh exits 0 on the clean pair (got $rc; see $work/clean.log)" test "$rc" = 0
check "reference-twin is not detected" grep -qE '^\| reference-twin \| reference \| \*\*no\*\* \|' "$md2"
check "reference-twin row says not found" grep -qE '^\| reference-twin \| reference \| structured \| empty \| 0/1 \|' "$md2"

# Bad options are refused with exit 2.
bash "$src/scripts/detect.sh" --no-build --budget 0 >/dev/null 2>&1
rc=$?
check "--budget 0 is refused with exit 2 (got $rc)" test "$rc" = 2
bash "$src/scripts/detect.sh" --no-build --corpora bogus >/dev/null 2>&1
rc=$?
check "--corpora bogus is refused with exit 2 (got $rc)" test "$rc" = 2

echo "$passed passed, $failed failed"
((failed == 0))
