#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_sidecar.sh MBDIFF SOURCE_DIR
#
# Crash files remember the variants that found them (FILE.variants):
# replay without --variants uses the sidecar's pair, says so when a crash
# file has none (and which default it uses instead), refuses sidecars that
# disagree, and a directory walk does not take .variants files as inputs.
set -uo pipefail
mbdiff=${1:?usage: test_sidecar.sh MBDIFF SOURCE_DIR}
src=${2:?}
. "$src/tests/lib/check_lib.sh"
check_init sidecar "$mbdiff"

trace=$src/corpus/regressions/deng-2022
t=$(find "$trace" -name '*.mbt' | sort | head -n 1)
[[ -n $t ]] || { echo "no deng-2022 regression" >&2; exit 2; }
mkdir -p "$work/c"
"$mbdiff" convert "$t" -o "$work/c/crash-1" >/dev/null 2>&1 || bad "convert failed"

# no sidecar: said on stderr, default pair used
"$mbdiff" replay "$work/c/crash-1" >"$work/o1" 2>"$work/e1"
grep -q 'crash file without --variants and without .*crash-1.variants' "$work/e1" && ok ||
	bad "no warning for a crash file without a sidecar: $(cat "$work/e1")"
grep -q 'reference~zhou-2025\|ok reference,zhou-2025\|ok reference~zhou-2025' "$work/o1" && ok ||
	bad "without a sidecar the default pair was not used: $(tail -n 2 "$work/o1")"

# sidecar: its pair, no warning
echo reference,deng-2022 >"$work/c/crash-1.variants"
"$mbdiff" replay "$work/c/crash-1" >"$work/o2" 2>"$work/e2"
rc=$?
grep -q 'reference~deng-2022' "$work/o2" && ok || bad "the sidecar's pair was not used: $(tail -n 2 "$work/o2")"
[[ $rc == 1 ]] && ok || bad "replay with the sidecar exited $rc, expected 1 (the deng-2022 finding)"
grep -q 'without --variants' "$work/e2" && bad "warned although a sidecar exists" || ok

# a directory: .variants is not an input
"$mbdiff" replay "$work/c" >"$work/o3" 2>&1
grep -q 'replayed 1 inputs' "$work/o3" && ok || bad "the walk took the sidecar as an input: $(tail -n 1 "$work/o3")"

# --variants wins over the sidecar
"$mbdiff" replay --variants reference,reference-twin "$work/c/crash-1" >"$work/o4" 2>&1
[[ $? == 0 ]] && ok || bad "--variants did not override the sidecar"

# disagreeing sidecars: exit 2
cp "$work/c/crash-1" "$work/c/crash-2"
echo reference,zhou-2025 >"$work/c/crash-2.variants"
"$mbdiff" replay "$work/c/crash-1" "$work/c/crash-2" >"$work/o5" 2>&1
[[ $? == 2 ]] && ok || bad "disagreeing sidecars were not refused"
# an empty sidecar is bad input
: >"$work/c/crash-2.variants"
"$mbdiff" replay "$work/c/crash-2" >"$work/o6" 2>&1
[[ $? == 2 ]] && ok || bad "an empty sidecar was accepted"
check_done
