#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_keep_going.sh MBDIFF_REPLAY MBDIFF SOURCE_DIR
#
# The fuzz target's options behind `mbdiff check`, through the plain replay
# driver (the same target code as fuzz_diff):
#  - --keep-going=DIR goes on past every divergence and writes one
#    HASH.mbt + HASH.sig per distinct signature key, exactly the keys
#    `mbdiff replay` reports for the same files, each announced once;
#    --keep-traces=DIR is the same option;
#  - each HASH.mbt replays to the signature in its HASH.sig;
#  - --want=HASH stops (non-zero) at that key only, and writes only it;
#    without --keep-going it is refused;
#  - --config=boot runs the trace on 128-slot arrays after filler calls;
#  - bad values of the new options exit 2.
set -uo pipefail
drv=${1:?usage: test_keep_going.sh MBDIFF_REPLAY MBDIFF SOURCE_DIR}
mbdiff=${2:?} src=${3:?}
. "$src/tests/lib/check_lib.sh"
check_init keep-going "$mbdiff"

regs=$src/corpus/regressions/zhou-2025
pair=reference,zhou-2025
"$drv" --variants=$pair --no-expect "--keep-going=$work/k" "$regs" >"$work/k.log" 2>&1
rc=$?
[[ $rc == 0 ]] && ok || bad "--keep-going exited $rc, expected 0 (it goes on): $(tail -n 3 "$work/k.log")"
nsig=$(find "$work/k" -name '*.sig' | wc -l)
# the keys replay reports: signature lines without "at op N"
"$mbdiff" replay --no-expect --variants $pair "$regs" >"$work/r.log" 2>&1
want=$(grep -E '^mbdiff: (divergence|oracle) ' "$work/r.log" |
	sed -E 's/^mbdiff: (divergence )?//; s/ at op [0-9]+//' | sort -u | wc -l)
((nsig > 1 && nsig == want)) && ok || bad "--keep-going wrote $nsig signatures, replay finds $want distinct keys"
[[ $(grep -c '^mbdiff: unexplained difference: ' "$work/k.log") == "$nsig" ]] && ok ||
	bad "not one 'unexplained difference' line per key written"
# the alias writes the same files
"$drv" --variants=$pair --no-expect "--keep-traces=$work/k2" "$regs" >"$work/k2.log" 2>&1
[[ $(ls "$work/k2") == "$(ls "$work/k")" ]] && ok || bad "--keep-traces wrote other files than --keep-going"
for s in "$work"/k/*.sig; do
	h=$(basename "$s" .sig)
	[[ $h =~ ^[0-9a-f]{16}$ ]] && ok || bad "$s: name is not 16 hex digits"
	sig=$(sed -n 2p "$s")
	out=$("$mbdiff" replay --no-expect --variants $pair "$work/k/$h.mbt" 2>&1)
	got=$(grep -E '^mbdiff: (divergence|oracle) ' <<<"$out" | tail -n 1)
	[[ $got == "$sig" ]] && ok || bad "$h.mbt replays to '$got', its .sig says '$sig'"
	grep -q "^# variants: $pair\$" "$work/k/$h.mbt" && ok || bad "$h.mbt has no '# variants: $pair' line"
done

# --want: only that key, and the target stops there
one=$(basename "$(find "$work/k" -name '*.sig' | sort | head -n 1)" .sig)
"$drv" --variants=$pair --no-expect "--keep-traces=$work/w" "--want=$one" "$regs" >"$work/w.log" 2>&1
rc=$?
[[ $rc != 0 ]] && ok || bad "--want=$one exited 0, expected the target to stop"
[[ $(ls "$work/w") == "$one.mbt"$'\n'"$one.sig" ]] && ok || bad "--want wrote: $(ls "$work/w" | tr '\n' ' ')"

# --config=boot: 128 slots, resize, the calls after filler calls
printf 'config memory.max=1 reserved.max=1 resize=0\nmemblock_add: [0x1000-0x1fff]\n' >"$work/t.mbt"
cp "$regs"/*.mbt "$work/" 2>/dev/null
"$drv" --variants=$pair --no-expect --config=boot "--keep-traces=$work/b" "$regs" >"$work/b.log" 2>&1
for f in "$work"/b/*.mbt; do
	[[ -f $f ]] || continue
	grep -q '^config memory.max=128 reserved.max=128 resize=1 slab=0' "$f" && ok ||
		bad "$f: not on boot arrays: $(grep '^config' "$f")"
	n=$(grep -c '^memblock_reserve: \[0x00000000600[0-9a-f]0000-' "$f")
	m=$(grep -c '^memblock_add: \[0x0000000[0-9a-f]*00000000-' "$f")
	((n + m > 0)) && ok || bad "$f: no filler calls"
done
grep -q 'boot arrays' "$work/b.log" && ok || bad "the target does not say it runs on boot arrays"

for o in --config=small --want=xyz --want=0123 --keep-traces= --keep-going= --keep-going --no-expect=1; do
	"$drv" "$o" "$work/t.mbt" >"$work/o.log" 2>&1
	rc=$?
	[[ $rc == 2 ]] && ok || bad "$o exited $rc, expected 2"
done
"$drv" --want=0123456789abcdef "$work/t.mbt" >"$work/o.log" 2>&1
[[ $? == 2 ]] && grep -q 'needs --keep-going' "$work/o.log" && ok || bad "--want without --keep-going is accepted"
check_done
