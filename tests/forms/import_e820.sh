#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: import_e820.sh MBDIFF WORKDIR
#
# x86 e820 updates and removals (issue 31, item 5): the memory a log's
# e820 map stands for is the table after the "e820: update ... usable ==>
# reserved" and "e820: remove [mem ...] usable" lines printed before
# e820__memblock_setup() (before the first traced call), not those after.
# data/e820-updates-6.1.log has both kinds and the kernel's dump; the trace
# must replay clean against it, and a log without the early updates must
# not (so the dump really checks them). data/e820-user-6.1.log: with
# memmap= the "user: [mem ...]" table the kernel prints again is the one
# e820__memblock_setup() adds, not the firmware's.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib/check_lib.sh
. "$here/../lib/check_lib.sh"
check_init import-e820 "${1:-}" "${2:-}"
cd "$work" || exit 2
log=$here/data/e820-updates-6.1.log

"$mbdiff" import "$log" -o t.mbt 2>err && ok || bad "import failed: $(cat err)"
for r in '0x0000000000000000-0x0000000000000fff' '0x00000000000a0000-0x00000000000fffff' \
	'0x000000007f000000-0x00000000ffffffff'; do
	grep -qx "memblock_remove: \[$r\]" t.mbt && ok || bad "no memblock_remove [$r]"
done
grep -q '^memblock_remove: \[0x0000000010000000' t.mbt && bad "the update after the setup was applied" || ok
grep '(after e820__memblock_setup: the e820 table changes, memblock does not)' t.mbt | grep -q 'update \[mem 0x10000000' && ok ||
	bad "the late update is not said to be left alone"
grep -q '^# inferred from .*memory added before memblock=debug' t.mbt && bad "memory inferred from the dump" || ok
out=$("$mbdiff" replay t.mbt 2>&1) && ok || bad "replay not clean: $out"

# without the early updates the dump does not match: the check is real
grep -v 'e820: update \[mem 0x0000\|e820: remove\|e820: update \[mem 0x7f' "$log" >plain.log
"$mbdiff" import plain.log -o plain.mbt 2>/dev/null
"$mbdiff" replay plain.mbt >plain.out 2>&1
rc=$?
[[ $rc -eq 1 ]] && grep -q '^mbdiff: expectation mainline-6.12 memory/layout' plain.out && ok ||
	bad "without the updates: exit $rc, $(tail -n 2 plain.out)"

# memmap=: the user-defined map, not the firmware's, is what is added
user=$here/data/e820-user-6.1.log
"$mbdiff" import "$user" -o user.mbt 2>err && ok || bad "user: import failed: $(cat err)"
grep -q '^memblock_add: \[0x0000000100000000' user.mbt && bad "user: the firmware's map was added" || ok
grep -q "(the firmware's map: the user-defined one below is what is added)" user.mbt && ok ||
	bad "user: the firmware's lines are not said to be left out"
out=$("$mbdiff" replay user.mbt 2>&1) && ok || bad "user: replay not clean: $out"
grep -v '^\[ *[0-9.]*\] user: ' "$user" >nouser.log
"$mbdiff" import nouser.log -o nouser.mbt 2>/dev/null
"$mbdiff" replay nouser.mbt >nouser.out 2>&1
[[ $? -eq 1 ]] && ok || bad "without the user map the dump still matches: $(tail -n 2 nouser.out)"

check_done
