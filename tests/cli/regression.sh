#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: regression.sh MBDIFF FILE.mbt
#
# Replays one saved regression with `mbdiff replay` and checks that it still
# diverges with exactly the signature recorded in the file's header:
#     # signature: mbdiff: divergence reference~zhou-2025 reserved/coverage at op 17 memblock_reserve
# (or, failing that, the "# mbdiff: divergence ..." line `mbdiff minimize`
# writes). The variants come from an optional "# variants: a,b" header line, else
# from the signature itself ("divergence A~B ..." or "oracle A ...").
# An optional "# options: --min-class coverage" line adds replay options (for
# reproducers that were minimized while lower classes were ignored).
# `mbdiff replay` exits 1 on a divergence; anything else fails the test.
set -u

mbdiff=${1:?usage: regression.sh MBDIFF FILE}
file=${2:?usage: regression.sh MBDIFF FILE}

fail() {
	echo "regression $file: $*" >&2
	echo "0 passed, 1 failed"
	exit 1
}

[[ -r $file ]] || fail "cannot read the file"
want=$(sed -n 's/^#[[:space:]]*signature:[[:space:]]*//p' "$file" | head -n 1)
if [[ -z $want ]]; then
	# the header `mbdiff minimize` writes: "# mbdiff: divergence ..."
	want=$(sed -n 's/^#[[:space:]]*\(mbdiff: \(divergence\|oracle\) .*\)/\1/p' "$file" | head -n 1)
fi
want=${want%"${want##*[![:space:]]}"}
[[ -n $want ]] || fail "no '# signature: mbdiff: ...' header line"

variants=$(sed -n 's/^#[[:space:]]*variants:[[:space:]]*\([^[:space:]]*\).*/\1/p' "$file" | head -n 1)
if [[ -z $variants ]]; then
	read -r -a words <<<"$want"
	case "${words[1]:-}" in
	divergence) variants=${words[2]//\~/,} ;;
	oracle) variants=${words[2]} ;;
	*) fail "cannot tell the variants from the signature '$want' (add '# variants: a,b')" ;;
	esac
fi

opts=$(sed -n 's/^#[[:space:]]*options:[[:space:]]*//p' "$file" | head -n 1)
read -r -a extra <<<"$opts"
out=$("$mbdiff" replay --variants "$variants" "${extra[@]}" "$file" 2>&1)
rc=$?
printf '%s\n' "$out"
got=$(printf '%s\n' "$out" | grep -E '^mbdiff: (divergence|oracle) ' | tail -n 1)
got=${got%"${got##*[![:space:]]}"}

[[ $rc -eq 1 ]] || fail "mbdiff replay --variants $variants exited $rc, expected 1 (a divergence)"
[[ -n $got ]] || fail "mbdiff replay printed no signature line"
if [[ $got != "$want" ]]; then
	echo "expected: $want" >&2
	echo "got:      $got" >&2
	fail "the signature changed"
fi
echo "reproduced: $got"
echo "1 passed, 0 failed"
