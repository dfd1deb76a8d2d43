#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: import_era.sh MBDIFF WORKDIR
#
# The kernel era of an imported log (issue 31, item 1): the trace records
# the kernel ("# kernel:", from the "Linux version" line, else the log's
# header comment, else unknown) and its model ("# model:"); `mbdiff replay`
# without --variants replays each trace with its own model and says so in
# one line, "nearest" when no model covers the release; --variants still
# decides when given.
set -euo pipefail
mbdiff=${1:?usage: import_era.sh MBDIFF WORKDIR}
work=${2:?usage: import_era.sh MBDIFF WORKDIR}
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work"
cd "$work"

calls='[    0.000000] memblock_add: [0x0000000040000000-0x000000007fffffff] setup_arch+0x1/0x2
[    0.000000] memblock_reserve: [0x0000000040200000-0x0000000040ffffff] setup_arch+0x3/0x4'
log() { # NAME VERSION-LINE
	{ [[ -n $2 ]] && printf '[    0.000000] %s\n' "$2"; printf '%s\n' "$calls"; } >"$1.log"
	"$mbdiff" import "$1.log" -o "$1.mbt" 2>"$1.imp" || fail "$1: import failed: $(cat "$1.imp")"
}
log new 'Linux version 7.3.4-amd64 (debian-kernel@lists.debian.org) (gcc 14) #1 SMP'
log mid 'Linux version 6.12.48+deb13-arm64 (debian-kernel@lists.debian.org) #1 SMP'
log old 'Linux version 4.19.0-21-arm64 (debian-kernel@lists.debian.org) #1 SMP'
log kho 'Linux version 6.16.0-rc1 (x@y) #1'
log none ''
printf '# source: a list post, kernel ~5.10-rc, some board\n%s\n' "$calls" >hdr.log
"$mbdiff" import hdr.log -o hdr.mbt 2>/dev/null || fail "hdr: import failed"

want() { # NAME KERNEL MODEL KIND(covers|nearest)
	grep -qx "# kernel: $2 (.*)" "$1.mbt" || fail "$1: no '# kernel: $2': $(grep '^# kernel' "$1.mbt")"
	grep -q "^# model: $3 ($4" "$1.mbt" || fail "$1: no '# model: $3 ($4': $(grep '^# model' "$1.mbt")"
	out=$("$mbdiff" replay "$1.mbt" 2>&1) || fail "$1: replay failed: $out"
	grep -q "^mbdiff: $1.mbt: kernel $2: replayed with $3 ($4" <<<"$out" ||
		fail "$1: replay does not say its model: $out"
	grep -q "^$1.mbt: mbdiff: ok $3 (" <<<"$out" || fail "$1: not replayed with $3 alone: $out"
}
want new 7.3.4-amd64 reference covers
want mid 6.12.48+deb13-arm64 mainline-6.12 covers
want old 4.19.0-21-arm64 mainline-6.12 nearest
want kho 6.16.0-rc1 reference nearest
want hdr '~5.10-rc' mainline-6.12 nearest
grep -qx '# kernel: unknown (no "Linux version" line)' none.mbt || fail "none: kernel not unknown"
grep -q '^# model: reference (nearest: the kernel is unknown' none.mbt || fail "none: $(grep '^# model' none.mbt)"
grep -q 'kernel 4.19.0-21-arm64: `mbdiff replay` uses mainline-6.12, the nearest model' old.imp ||
	fail "import does not say the model: $(cat old.imp)"

# the Linux version line wins over a header comment
{ printf '# kernel 5.4.0 says the poster\n[    0.000000] Linux version 7.2.1 (a@b) #1\n'; printf '%s\n' "$calls"; } >both.log
"$mbdiff" import both.log -o both.mbt 2>/dev/null
grep -qx '# kernel: 7.2.1 (both.log:2: its Linux version line)' both.mbt || fail "both: $(grep '^# kernel' both.mbt)"

# a directory of mixed eras: each trace with its own model, in one run
mkdir mixed && cp old.mbt new.mbt mixed/
out=$("$mbdiff" replay mixed 2>&1) || fail "mixed: $out"
grep -q '^mixed/new.mbt: mbdiff: ok reference (' <<<"$out" || fail "mixed: new not on reference: $out"
grep -q '^mixed/old.mbt: mbdiff: ok mainline-6.12 (' <<<"$out" || fail "mixed: old not on mainline-6.12: $out"

# --variants decides when given, and no model line is printed then
out=$("$mbdiff" replay --variants reference,reference-twin old.mbt 2>&1) || fail "--variants: $out"
grep -q 'replayed with' <<<"$out" && fail "--variants given, yet a model line: $out"
grep -q '^old.mbt: mbdiff: ok reference~reference-twin' <<<"$out" || fail "--variants ignored: $out"

# a model this binary lacks: the defaults, and one line saying so
sed 's/^# model: mainline-6.12/# model: no-such-model/' old.mbt >gone.mbt
out=$("$mbdiff" replay gone.mbt 2>&1) || fail "gone: $out"
grep -q "^mbdiff: gone.mbt: the trace's model no-such-model is not in this binary" <<<"$out" ||
	fail "gone: no line about the missing model: $out"

if ((fails)); then
	echo "0 passed, $fails failed"
	exit 1
fi
echo "1 passed, 0 failed"
