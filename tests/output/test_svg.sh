#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_svg.sh [MBDIFF [SRCDIR [WORKDIR]]]
#        (defaults: $MBDIFF, $MBDIFF_SOURCE_DIR, a temp dir)
#
# `mbdiff replay --svg`: on a diverging regression (a reservation zhou-2025
# keeps after failing) the picture is well-formed XML (xmllint --noout when
# installed, scripts/setup.sh installs it), names the signature and holds
# at least one highlighted element (class "diff"); on a clean trace it holds
# none. A bad --svg path, --svg without a file and --svg with two inputs
# exit 2 with a message and write nothing.
set -u
# shellcheck disable=SC2015 # "test && ok || bad": ok() never fails
# shellcheck source=tests/lib/check_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check_lib.sh"

src=${2:-${MBDIFF_SOURCE_DIR:-}}
if [[ -z $src || ! -d $src/corpus ]]; then
	echo "test_svg: give the source tree (argument or \$MBDIFF_SOURCE_DIR)" >&2
	exit 2
fi
check_init test_svg "${1:-${MBDIFF:-}}" "${3:-}"

# Well-formed: xmllint when present, else at least the closing tag.
well_formed() {
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$1" 2>&1
	else
		tail -n 1 "$1" | grep -qx '</svg>' || echo "no closing </svg>"
	fi
}

reg=$src/corpus/regressions/zhou-2025/enomem-leaves-partial-reservation.mbt
sig=$(sed -n 's/^# signature: //p' "$reg")
"$mbdiff" replay --variants reference,zhou-2025 --svg "$work/div.svg" "$reg" >"$work/div.out" 2>&1
rc=$?
((rc == 1)) && ok || bad "diverging replay exited $rc, want 1"
[[ -s $work/div.svg ]] && ok || bad "no SVG for the diverging regression"
msg=$(well_formed "$work/div.svg")
[[ -z $msg ]] && ok || bad "diverging SVG is not well-formed: $msg"
grep -qF "$sig" "$work/div.svg" && ok || bad "SVG title lacks the signature '$sig'"
grep -q 'class="diff' "$work/div.svg" && ok || bad "no highlighted (class=\"diff\") element on a divergence"
grep -q 'class="diff extra"' "$work/div.svg" && ok || bad "the stray reservation is not marked extra"

clean=$src/corpus/real/16-x86_64-dell-r7625-genoa-32node-uefi.mbt
"$mbdiff" replay --variants reference,zhou-2025 --no-expect --svg "$work/clean.svg" "$clean" \
	>"$work/clean.out" 2>&1
rc=$?
((rc == 0)) && ok || bad "clean replay exited $rc, want 0: $(tail -n 3 "$work/clean.out")"
msg=$(well_formed "$work/clean.svg")
[[ -z $msg ]] && ok || bad "clean SVG is not well-formed: $msg"
grep -q '<rect class="mem' "$work/clean.svg" && ok || bad "clean SVG draws no memory region"
! grep -q 'class="diff' "$work/clean.svg" && ok || bad "clean SVG has highlighted elements"

expect_fail() { # NAME PATTERN OUTFILE ARGS...
	local name=$1 pat=$2 out=$3 rc
	shift 3
	"$mbdiff" replay --variants reference,zhou-2025 "$@" >"$work/fail.out" 2>"$work/fail.err"
	rc=$?
	((rc == 2)) && ok || bad "$name: exit $rc, want 2"
	grep -qE -- "$pat" "$work/fail.err" && ok || bad "$name: stderr '$(cat "$work/fail.err")' lacks /$pat/"
	[[ -z $out || ! -e $out ]] && ok || bad "$name: $out was written"
}
expect_fail bad-dir 'nodir/x\.svg: cannot write: No such file or directory' "$work/nodir/x.svg" \
	--svg "$work/nodir/x.svg" "$reg"
expect_fail no-file '--svg needs a file name' "" "$reg" --svg
expect_fail two-inputs '--svg draws one input, 2 given' "$work/two.svg" \
	--svg "$work/two.svg" "$reg" "$clean"
leftover=$(find "$work" -name '*.tmp.*' | head -n 3)
[[ -z $leftover ]] && ok || bad "temp files left: $leftover"

check_done
