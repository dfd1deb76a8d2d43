#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# mbdiff explore on tests/explore/tiny.alpha (18 calls, 2 configurations):
# a certificate for reference~reference-twin with the trace count worked
# out here, zhou-2025's known 2-call counterexample (and none at depth 1),
# --verify on honest and tampered certificates, a resumed search, -j 2 and
# the search without state merging all equal to the plain run, and bad
# alphabets rejected with file:line and exit 2.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=tests/lib/check_lib.sh
. "$here/../lib/check_lib.sh"
check_init explore "${1:-${MBDIFF:-}}" "${2:-}"
alpha=$here/tiny.alpha

# run OUT ARGS...: mbdiff explore, stdout in OUT, exit status in $rc
run() {
	local out=$1
	shift
	rc=0
	"$mbdiff" explore --quiet "$@" >"$work/$out.txt" 2>"$work/$out.err" || rc=$?
}
# the findings and counts of a run, without its time
findings() { sed -e 's/, [0-9.]* s$//' -e 's/ *->.*//' "$work/$1.txt"; }

# ---- a certificate, its numbers derived from the alphabet by hand:
# 3 lattice pairs + 3 half-page ranges = 6 ranges, x 3 calls = 18 calls;
# 2 configurations; traces of 1..3 calls: 2 * (18 + 18^2 + 18^3)
n=18
want=$((2 * (n + n * n + n * n * n)))
run twin --alphabet "$alpha" --variants reference,reference-twin --depth 3 -o "$work/twin"
[[ $rc == 0 ]] && ok || bad "twin: exit $rc, want 0"
grep -qx "claim no divergence at class >= capacity among all $want traces of <= 3 calls over alphabet tiny ([0-9]* distinct states)" \
	"$work/twin/certificate.txt" && ok || bad "twin: certificate claim: $(grep claim "$work/twin/certificate.txt")"
grep -qx "traces $want" "$work/twin/certificate.txt" && ok || bad "twin: traces line"
[[ -z $(find "$work/twin" -name '*.mbt') ]] && ok || bad "twin: wrote counterexamples"

# ---- the shortest counterexample: none with 1 call, exactly this one with 2
run z1 --alphabet "$alpha" --variants reference,zhou-2025 --depth 1
[[ $rc == 0 ]] && ok || bad "zhou depth 1: exit $rc, want 0 (no 1-call divergence)"
run z3 --alphabet "$alpha" --variants reference,zhou-2025 --depth 3 -o "$work/z3"
[[ $rc == 1 ]] && ok || bad "zhou depth 3: exit $rc, want 1"
f=$work/z3/01-memory-coverage-memblock_add.mbt
if [[ -f $f ]]; then
	ok
	grep -v '^#' "$f" >"$work/z3.ops"
	printf '%s\n' \
		'config memory.max=2 reserved.max=1 resize=1 slab=0 bottom_up=0 mirror=0 movable=0 limit=0xffffffffffffffff' \
		'memblock_add: [0x0000000000001000-0x00000000000017ff]' \
		'memblock_add: [0x0000000000000000-0x0000000000001fff]' >"$work/z3.want"
	cmp -s "$work/z3.ops" "$work/z3.want" && ok || bad "zhou: shortest trace is $(cat "$work/z3.ops")"
	rrc=0
	"$mbdiff" replay --variants reference,zhou-2025 "$f" >"$work/z3.replay" 2>&1 || rrc=$?
	[[ $rrc == 1 ]] && grep -q '^mbdiff: divergence reference~zhou-2025 memory/coverage at op 2 memblock_add$' \
		"$work/z3.replay" && ok || bad "zhou: the written trace does not replay its signature"
else
	bad "zhou: $f not written ($(ls "$work/z3"))"
fi
# a mutant: one call suffices
run iso --alphabet "$alpha" --variants reference,isolate-one-slot --depth 2 -o "$work/iso"
[[ $rc == 1 ]] && grep -q '^shortest, 1 call: mbdiff: divergence reference~isolate-one-slot call/return at op 1 memblock_remove' \
	"$work/iso.txt" && ok || bad "isolate-one-slot: no 1-call counterexample: $(cat "$work/iso.txt")"

# ---- --verify: honest passes, tampered and foreign fail with 1, garbage is 2
cert=$work/twin/certificate.txt
run v1 --alphabet "$alpha" --verify "$cert"
[[ $rc == 0 ]] && grep -q 'verified$' "$work/v1.txt" && ok || bad "verify honest: exit $rc"
sed 's/^states \([0-9]*\)$/states 1\1/' "$cert" >"$work/tampered.txt"
run v2 --alphabet "$alpha" --verify "$work/tampered.txt"
[[ $rc == 1 ]] && grep -q 'NOT verified' "$work/v2.txt" && ok || bad "verify tampered states: exit $rc"
sed 's/^depth 3$/depth 2/' "$cert" >"$work/tampered2.txt"
run v3 --alphabet "$alpha" --verify "$work/tampered2.txt"
[[ $rc == 1 ]] && ok || bad "verify tampered depth: exit $rc"
sed 's/^variants .*/variants reference,zhou-2025/' "$cert" >"$work/tampered3.txt"
run v4 --alphabet "$alpha" --verify "$work/tampered3.txt"
[[ $rc == 1 ]] && ok || bad "verify with a diverging pair: exit $rc"
grep -v '^addresses' "$alpha" >"$work/other.alpha"
echo 'addresses 0 0x1000 0x3000' >>"$work/other.alpha"
run v5 --alphabet "$work/other.alpha" --verify "$cert"
[[ $rc == 1 ]] && grep -q 'is not the alphabet' "$work/v5.txt" && ok || bad "verify other alphabet: exit $rc"
printf 'claim x\nstates many\n' >"$work/garbage.txt"
run v6 --alphabet "$alpha" --verify "$work/garbage.txt"
[[ $rc == 2 ]] && grep -q "garbage.txt:2: error:" "$work/v6.err" && ok || bad "verify garbage: exit $rc $(cat "$work/v6.err")"

# ---- resume, -j 2, no merging: the same findings as the plain run
run z3plain --alphabet "$alpha" --variants reference,zhou-2025 --depth 3 --min-class warning -o "$work/plain"
run ck --alphabet "$alpha" --variants reference,zhou-2025 --depth 2 --min-class warning --checkpoint "$work/ck.bin"
[[ $rc == 1 && -s $work/ck.bin ]] && ok || bad "checkpoint: exit $rc"
run z3res --alphabet "$alpha" --variants reference,zhou-2025 --depth 3 --min-class warning --resume "$work/ck.bin" -o "$work/res"
diff <(findings z3plain) <(findings z3res) >/dev/null && diff -r "$work/plain" "$work/res" >/dev/null &&
	ok || bad "resume differs: $(diff <(findings z3plain) <(findings z3res))"
run z3j2 --alphabet "$alpha" --variants reference,zhou-2025 --depth 3 --min-class warning -j 2 -o "$work/j2"
diff <(findings z3plain) <(findings z3j2) >/dev/null && diff -r "$work/plain" "$work/j2" >/dev/null &&
	ok || bad "-j 2 differs: $(diff <(findings z3plain) <(findings z3j2))"
run z3nm --alphabet "$alpha" --variants reference,zhou-2025 --depth 3 --min-class warning --no-merge -o "$work/nm"
diff <(grep -v '^explore: reference' "$work/z3plain.txt" | sed 's/ *->.*//') \
	<(grep -v '^explore: reference' "$work/z3nm.txt" | sed 's/ *->.*//') >/dev/null &&
	diff -r "$work/plain" "$work/nm" >/dev/null && ok || bad "--no-merge finds other traces"
run twinj2 --alphabet "$alpha" --variants reference,reference-twin --depth 3 -j 2 -o "$work/twinj2"
cmp -s "$work/twin/certificate.txt" "$work/twinj2/certificate.txt" && ok || bad "-j 2 certificate differs"
run wrongck --alphabet "$alpha" --variants reference,reference-twin --depth 3 --resume "$work/ck.bin"
[[ $rc == 2 ]] && grep -q 'checkpoint of another search' "$work/wrongck.err" && ok || bad "foreign checkpoint: exit $rc"

# ---- the state cap stops the search with a certificate of the depth completed
run cap --alphabet "$alpha" --variants reference,reference-twin --depth 3 --max-states 30 -o "$work/cap"
[[ $rc == 0 ]] && grep -q 'the cap of 30 states was reached' "$work/cap.txt" &&
	grep -q '^depth 1$' "$work/cap/certificate.txt" && ok || bad "--max-states 30: exit $rc: $(cat "$work/cap.txt")"
run cap2 --alphabet "$alpha" --variants reference,reference-twin --depth 3 --max-states 1
[[ $rc == 2 ]] && ok || bad "--max-states 1: exit $rc, want 2 (no depth completed)"

# ---- bad alphabets: file:line, exit 2, nothing written
bad_alpha() { # LINE PATTERN CONTENT...
	local line=$1 pat=$2
	shift 2
	printf '%s\n' "$@" >"$work/bad.alpha"
	rm -rf "$work/badout"
	run bad --alphabet "$work/bad.alpha" --variants reference,reference-twin --depth 1 -o "$work/badout"
	local at=":$line"
	[[ $line == 0 ]] && at= # not about one line
	if [[ $rc == 2 ]] && grep -q "bad.alpha$at: error: .*$pat" "$work/bad.err" && [[ ! -e $work/badout ]]; then
		ok
	else
		bad "bad alphabet ($pat): exit $rc: $(cat "$work/bad.err")"
	fi
}
bad_alpha 2 'unknown keyword' 'addresses 0 0x1000' 'ranges memblock_add'
bad_alpha 1 'ascending' 'addresses 0x1000 0' 'range memblock_add'
bad_alpha 1 'bad number' 'addresses 0 0x10zz' 'range memblock_add'
bad_alpha 3 'unknown call' '# c' 'addresses 0 0x1000' 'range memblock_plus'
bad_alpha 2 'takes no address range' 'addresses 0 0x1000' 'range memblock_allow_resize'
bad_alpha 2 'range before any addresses' '# c' 'range memblock_add'
bad_alpha 2 'end before start' 'addresses 0 0x1000' 'call memblock_add: [0x2000-0x0]'
bad_alpha 3 'memory.max' 'addresses 0 0x1000' 'range memblock_add' 'config memory.max=0,2'
bad_alpha 3 'fill' 'addresses 0 0x1000' 'range memblock_add' 'fill 1,200'
bad_alpha 2 'nid' 'addresses 0 0x1000' 'range memblock_add_node nid=x flags=0x0'
bad_alpha 0 'no calls' '# nothing but' 'addresses 0 0x1000'
run missing --alphabet "$work/does-not-exist.alpha" --variants reference,reference-twin
[[ $rc == 2 ]] && ok || bad "missing alphabet: exit $rc"
run nodepth --alphabet "$alpha" --depth 0
[[ $rc == 2 ]] && ok || bad "--depth 0: exit $rc"

check_done
