#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_keep_going.sh FUZZ_DIFF MBDIFF WORK
#
# The libFuzzer target keeps going past differences: with --known=FILE a
# divergence whose signature FILE lists is no crash (printed once per
# distinct signature); with --keep-going=DIR the others are not either:
# each new signature key is reported once and its trace written to
# DIR/HASH.mbt (+ HASH.sig), where `mbdiff replay` reproduces the printed
# signature; --keep-traces=DIR is the same option. reference~zhou-2025
# diverges within seconds, so a short run exercises both.
set -u

fuzzer=${1:?usage: test_keep_going.sh FUZZ_DIFF MBDIFF WORK}
mbdiff=${2:?usage: test_keep_going.sh FUZZ_DIFF MBDIFF WORK}
work=${3:?usage: test_keep_going.sh FUZZ_DIFF MBDIFF WORK}
rm -rf "$work"
mkdir -p "$work/known-corpus" "$work/keep-corpus" "$work/keep-corpus2" "$work/keep" "$work/crashes"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# The mechanism is under test, not the class: every difference counts
# (--min-class=warning), and runs bound the work, not the clock. With
# -seed=1 the first difference comes at about run 900 and 30000 runs see
# about 360 distinct known signatures and 11 unexplained keys (200000 runs:
# 550 and 12): every check below still has plenty to look at.
runs=30000

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
# the file of each printed signature replays to it
for sig in "${sigs[@]}"; do
	f=$(grep -lxF "$sig" "$work"/keep/*.sig 2>/dev/null | head -n 1)
	[[ -f $f && -f ${f%.sig}.mbt ]] && ok || { bad "no HASH.sig + .mbt for '$sig'"; continue; }
	got=$("$mbdiff" replay --min-class warning --variants reference,zhou-2025 "${f%.sig}.mbt" |
		grep -E '^mbdiff: (divergence|oracle) ' | tail -n 1)
	[[ $got == "$sig" ]] && ok || bad "replay of ${f%.sig}.mbt: '$got', printed '$sig'"
done
n_files=$(find "$work/keep" -name '*.mbt' | wc -l)
((n_files == ${#sigs[@]})) && ok || bad "$n_files traces saved for ${#sigs[@]} signatures"
dups=$(printf '%s\n' "${sigs[@]}" | sed -E 's/ at op [0-9]+//' | sort | uniq -d | wc -l)
((dups == 0)) && ok || bad "--keep-going: a signature key reported twice"

# --keep-traces is the same option
"$fuzzer" --variants=reference,zhou-2025 "--keep-traces=$work/keep2" --min-class=warning -seed=1 -runs=$runs \
	"-artifact_prefix=$work/crashes/" "$work/keep-corpus2" >"$work/keep2.log" 2>&1
rc=$?
((rc == 0)) && ok || bad "--keep-traces: exit $rc (expected 0): $(tail -5 "$work/keep2.log")"
(($(find "$work/keep2" -name '*.sig' | wc -l) >= 1)) && ok || bad "--keep-traces: nothing written"

echo "$pass passed, $fail failed"
((fail == 0))
