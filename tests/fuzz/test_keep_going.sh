#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_keep_going.sh FUZZ_DIFF MBDIFF WORK
#
# The libFuzzer target keeps going past differences: with --known=FILE a
# divergence whose signature FILE lists is no crash (printed once per
# distinct signature); with --keep-going=DIR the others are not either:
# each distinct one is reported once and its input saved in DIR, where
# `mbdiff replay` reproduces the printed signature. reference~zhou-2025
# diverges within seconds, so a short run exercises both.
set -u

fuzzer=${1:?usage: test_keep_going.sh FUZZ_DIFF MBDIFF WORK}
mbdiff=${2:?usage: test_keep_going.sh FUZZ_DIFF MBDIFF WORK}
work=${3:?usage: test_keep_going.sh FUZZ_DIFF MBDIFF WORK}
rm -rf "$work"
mkdir -p "$work/known-corpus" "$work/keep-corpus" "$work/keep" "$work/crashes"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# The mechanism is under test, not the class: every difference counts
# (--min-class=warning), and runs bound the work, not the clock.
runs=200000

printf 'baseline: reference\nmbdiff: divergence reference~zhou-2025 * | test | every difference of the pair\n' \
	>"$work/all.known"
"$fuzzer" --variants=reference,zhou-2025 "--known=$work/all.known" --min-class=warning -seed=1 -runs=$runs \
	"-artifact_prefix=$work/crashes/" "$work/known-corpus" \
	>"$work/known.log" 2>&1
rc=$?
((rc == 0)) && ok || bad "--known: exit $rc (expected 0, the whole run): $(tail -5 "$work/known.log")"
n=$(grep -c '^mbdiff: known difference: mbdiff: divergence reference~zhou-2025 .* | test$' "$work/known.log")
((n >= 1)) && ok || bad "--known: no 'known difference' line"
dups=$(sed -n 's/^mbdiff: known difference: //p' "$work/known.log" | sort | uniq -d | wc -l)
((dups == 0)) && ok || bad "--known: a signature printed twice"
[[ -z $(ls -A "$work/crashes") ]] && ok || bad "--known: crash files written"

"$fuzzer" --variants=reference,zhou-2025 "--keep-going=$work/keep" --min-class=warning -seed=1 -runs=$runs \
	"-artifact_prefix=$work/crashes/" "$work/keep-corpus" \
	>"$work/keep.log" 2>&1
rc=$?
((rc == 0)) && ok || bad "--keep-going: exit $rc (expected 0): $(tail -5 "$work/keep.log")"
mapfile -t sigs < <(sed -n 's/^mbdiff: unexplained difference: //p' "$work/keep.log")
((${#sigs[@]} >= 1)) && ok || bad "--keep-going: no 'unexplained difference' line"
[[ -f $work/keep/unexplained-1 ]] && ok || bad "--keep-going: no $work/keep/unexplained-1"
if [[ -f $work/keep/unexplained-1 ]]; then
	got=$("$mbdiff" replay --min-class warning --variants reference,zhou-2025 "$work/keep/unexplained-1" |
		grep -E '^mbdiff: (divergence|oracle) ' | tail -n 1)
	[[ $got == "${sigs[0]}" ]] && ok || bad "replay of unexplained-1: '$got', printed '${sigs[0]}'"
fi
n_files=$(ls "$work/keep" | wc -l)
((n_files == ${#sigs[@]})) && ok || bad "$n_files inputs saved for ${#sigs[@]} signatures"

echo "$pass passed, $fail failed"
((fail == 0))
