#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_determinism.sh [MBDIFF [SOURCE_DIR [WORKDIR]]]
#        (defaults: $MBDIFF, $MBDIFF_SOURCE_DIR, a temp dir)
#
# Verdicts do not depend on what ran before: the whole corpus
# (corpus/seeds, corpus/regressions) plus a few hundred pseudo-random byte
# inputs are replayed in one `mbdiff replay` process, every input twice in a
# row, once forwards and once backwards. For every input, all four reports
# (verdict, signature, the whole report text) must be identical. Done for
# several option sets, including the reference~reference-twin self-check,
# which must also report no divergence at all.
set -u

mbdiff=${1:-${MBDIFF:-}}
src=${2:-${MBDIFF_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd -P)}}
work=${3:-}
n_random=${MBD_DETERMINISM_RANDOM:-300}
if [[ -z $mbdiff || ! -x $mbdiff ]]; then
	echo "test_determinism: give the mbdiff binary (argument or \$MBDIFF)" >&2
	exit 2
fi
if [[ -z $work ]]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/mbd-determinism.XXXXXX")
	trap 'rm -rf -- "$work"' EXIT
fi
rm -rf -- "$work"
mkdir -p -- "$work/random"

passed=0 failed=0
check() { # check DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@"; then
		passed=$((passed + 1))
	else
		echo "FAIL $what" >&2
		failed=$((failed + 1))
	fi
}

# ---- inputs ----
inputs=()
while IFS= read -r f; do inputs+=("$f"); done < <(
	find "$src/corpus/seeds" "$src/corpus/regressions" -name '*.mbt' -type f | LC_ALL=C sort)
n_corpus=${#inputs[@]}
# Fixed LCG: the same bytes every run (lengths 0..599, some long enough to
# hit the 64-op cap).
x=20250101
for ((f = 0; f < n_random; f++)); do
	len=$(((f * 53) % 600))
	s=''
	for ((i = 0; i < len; i++)); do
		x=$(((x * 1103515245 + 12345) & 0x7fffffff))
		printf -v oct '\\%03o' $(((x >> 16) & 255))
		s+=$oct
	done
	name=$(printf '%s/random/r%04d' "$work" "$f")
	printf '%b' "$s" >"$name"
	inputs+=("$name")
done
echo "inputs: $n_corpus corpus files, $n_random random byte files"
check "the corpus has files" test "$n_corpus" -gt 0

# One record per replayed input, one line each: "PATH<TAB>report text with
# newlines as \x01". A divergence is "input: PATH" up to the blank line; a
# clean input is one "PATH: mbdiff: ok ..." line.
records() {
	LC_ALL=C awk '
		in_rep && $0 == "" { print path "\t" rec; in_rep = 0; next }
		in_rep { rec = rec "\001" $0; next }
		/^input: / { path = substr($0, 8); rec = ""; in_rep = 1; next }
		/: mbdiff: ok / { i = index($0, ": mbdiff: ok "); print substr($0, 1, i - 1) "\t" substr($0, i + 2); next }
	' "$1"
}

# run NAME OPTIONS...: replay forwards and backwards, each input twice.
run() {
	local name=$1
	shift
	local fwd=() bwd=() f
	for f in "${inputs[@]}"; do fwd+=("$f" "$f"); done
	for ((i = ${#inputs[@]} - 1; i >= 0; i--)); do bwd+=("${inputs[i]}" "${inputs[i]}"); done
	"$mbdiff" replay "$@" -- "${fwd[@]}" >"$work/$name.fwd" 2>"$work/$name.fwd.err"
	local rc_f=$?
	"$mbdiff" replay "$@" -- "${bwd[@]}" >"$work/$name.bwd" 2>"$work/$name.bwd.err"
	local rc_b=$?
	check "$name: replay exit status is a verdict (0 or 1), got $rc_f and $rc_b" \
		test "$rc_f" -le 1 -a "$rc_b" -le 1 -a "$rc_f" -eq "$rc_b"
	records "$work/$name.fwd" >"$work/$name.fwd.rec"
	records "$work/$name.bwd" >"$work/$name.bwd.rec"
	local want=$((2 * ${#inputs[@]}))
	check "$name: forwards, one report per run ($(wc -l <"$work/$name.fwd.rec") of $want)" \
		test "$(wc -l <"$work/$name.fwd.rec")" -eq "$want"
	check "$name: backwards, one report per run ($(wc -l <"$work/$name.bwd.rec") of $want)" \
		test "$(wc -l <"$work/$name.bwd.rec")" -eq "$want"
	# Twice in a row: the two reports of each input are the same line.
	local twice
	twice=$(LC_ALL=C uniq -c "$work/$name.fwd.rec" | awk '$1 != 2' | head -n 3)
	check "$name: each input twice in a row gives the same report${twice:+: $twice}" test -z "$twice"
	twice=$(LC_ALL=C uniq -c "$work/$name.bwd.rec" | awk '$1 != 2' | head -n 3)
	check "$name: (backwards) each input twice gives the same report${twice:+: $twice}" test -z "$twice"
	# Forwards and backwards: the same report for every input.
	LC_ALL=C sort "$work/$name.fwd.rec" >"$work/$name.fwd.sorted"
	LC_ALL=C sort "$work/$name.bwd.rec" >"$work/$name.bwd.sorted"
	check "$name: forwards and backwards give the same reports" \
		cmp -s "$work/$name.fwd.sorted" "$work/$name.bwd.sorted"
	if ! cmp -s "$work/$name.fwd.sorted" "$work/$name.bwd.sorted"; then
		diff "$work/$name.fwd.sorted" "$work/$name.bwd.sorted" | tr '\001' '\n' | head -n 20 >&2
	fi
	local div sigs
	div=$(grep -c '^input: ' "$work/$name.fwd")
	sigs=$(grep -cE '^mbdiff: (divergence|oracle) ' "$work/$name.fwd")
	check "$name: every divergent report has a signature line ($sigs of $div)" test "$sigs" -eq "$div"
	echo "$name: $want runs each way, $((div / 2)) divergent inputs, $(grep -c 'baseline .* faulted' "$work/$name.fwd.rec" | awk '{print $1 / 2}') baseline faults"
	DIVERGENT=$div
}

DIVERGENT=0
run zhou --variants reference,zhou-2025
check "reference~zhou-2025 finds divergences to compare ($DIVERGENT reports)" test "$DIVERGENT" -gt 0
run zhou-coverage-naive --variants reference,zhou-2025 --min-class coverage --decoder naive
run twin --variants reference,reference-twin
check "reference~reference-twin: no divergence at all ($DIVERGENT reports)" test "$DIVERGENT" -eq 0
run twin-no-oracle --variants reference,reference-twin --no-oracle
check "reference~reference-twin --no-oracle: no divergence ($DIVERGENT reports)" test "$DIVERGENT" -eq 0

echo "$passed passed, $failed failed"
((failed == 0))
