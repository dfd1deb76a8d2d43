#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: import_nomap.sh MBDIFF WORKDIR
#
# reserved-memory no-map regions (issue 31, item 4). Since v5.12 (and in
# stable trees before) drivers/of/fdt.c marks them with memblock_mark_nomap(),
# which memblock=debug does not log, so the kernel's dump shows memory split
# around a NOMAP region that no logged call made; before, it called
# memblock_remove(), which is logged. The trace must get the split either
# from the "OF: reserved mem: ... nomap" line or, without it, from the
# dump itself, replay clean against its model, and never mark twice where
# the log shows the remove. data/nomap-6.12.log: one bank, one no-map
# region, the dump with 3 memory regions (the failing shape: 1 replayed).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib/check_lib.sh
. "$here/../lib/check_lib.sh"
check_init import-nomap "${1:-}" "${2:-}"
cd "$work" || exit 2
log=$here/data/nomap-6.12.log
mark='memblock_mark_nomap: [0x0000000050000000-0x00000000500fffff]'

# CASE LOG MARKS: imports, has MARKS mark_nomap calls, replays clean
case_ok() {
	if ! "$mbdiff" import "$2" -o "$1.mbt" 2>"$1.err"; then
		bad "$1: import failed: $(tail -n 1 "$1.err")"
		return
	fi
	[[ $(grep -c '^memblock_mark_nomap' "$1.mbt") == "$3" ]] && ok ||
		bad "$1: $(grep -c '^memblock_mark_nomap' "$1.mbt") mark_nomap calls, want $3"
	grep -q '^expect memory cnt=3 total=0x80000000$' "$1.mbt" && ok || bad "$1: no memory cnt=3 checkpoint"
	out=$("$mbdiff" replay "$1.mbt" 2>&1) && ok || bad "$1: replay not clean: $out"
}

case_ok of "$log" 1
grep -qxF "$mark" of.mbt && ok || bad "of: not marked at the OF line's range"
grep -B1 -xF "$mark" of.mbt | grep 'memblock_mark_nomap, which memblock=debug does not log' | grep -q 'OF: reserved mem: ' &&
	ok || bad "of: the mark does not follow the OF line"

grep -v 'OF: reserved mem' "$log" >dump-only.log
case_ok dump-only dump-only.log 1
grep -B1 -xF "$mark" dump-only.mbt | grep -q '^# NOMAP memory as the checkpoint shows it' &&
	ok || bad "dump-only: the mark is not said to come from the dump"

# the v5.4 form: no-map removed (logged), dump with the hole; an OF line
# for the same range must not mark what is no longer memory
sed -e 's/^\(.*\)OF: reserved mem.*$/\1memblock_remove: [0x0000000050000000-0x00000000500fffff] early_init_dt_reserve_memory_arch+0x1c\/0x2c\n&/' \
	-e 's/memory size = 0x0000000080000000/memory size = 0x000000007ff00000/' \
	-e 's/memory.cnt  = 0x3/memory.cnt  = 0x2/' \
	-e '/memory\[0x1\]/d' -e 's/memory\[0x2\]/memory[0x1]/' "$log" >removed.log
"$mbdiff" import removed.log -o removed.mbt 2>removed.err || bad "removed: $(cat removed.err)"
[[ $(grep -c '^memblock_mark_nomap' removed.mbt) == 0 ]] && ok || bad "removed: marked after the logged remove"
grep -q '^memblock_remove: \[0x0000000050000000-0x00000000500fffff\]' removed.mbt && ok || bad "removed: no remove"
out=$("$mbdiff" replay removed.mbt 2>&1) && ok || bad "removed: replay not clean: $out"

check_done
