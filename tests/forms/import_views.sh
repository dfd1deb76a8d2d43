#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: import_views.sh MBDIFF WORKDIR
#
# debugfs memblock tables pasted without the line naming them (issue 31,
# item 3): told apart by flags only one array has, by a named table beside
# them, and, for two unnamed tables side by side, by which lies inside the
# other (else debugfs order, memory first); a lone table nothing tells is
# exit 2 with one line saying why; two tables pasted alone are both the
# starting state. Each imported trace must replay clean
# against its model, i.e. the tables really became the arrays they are.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib/check_lib.sh
. "$here/../lib/check_lib.sh"
check_init import-views "${1:-}" "${2:-}"
cd "$work" || exit 2

calls='[    0.000000] Linux version 6.1.0-9-arm64 (debian-kernel@lists.debian.org) #1 SMP
[    0.000000] memblock_add: [0x0000000040000000-0x00000000bfffffff] early_init_dt_add_memory_arch+0x1/0x2
[    0.000000] memblock_reserve: [0x0000000040200000-0x0000000040ffffff] arm64_memblock_init+0x3/0x4
[    0.000000] memblock_reserve: [0x0000000048000000-0x0000000048008fff] early_init_dt_reserve_memory+0x5/0x6'
mem='   0: 0x0000000040000000..0x00000000bfffffff'
rsv='   0: 0x0000000040200000..0x0000000040ffffff
   1: 0x0000000048000000..0x0000000048008fff'
# CASE WHAT-THE-COMMENT-SAYS, log on stdin: imports, replays clean, says how
case_ok() {
	cat >"$1.log"
	if ! "$mbdiff" import "$1.log" -o "$1.mbt" 2>"$1.err"; then
		bad "$1: import failed: $(tail -n 1 "$1.err")"
		return
	fi
	[[ $(grep -c '^expect' "$1.mbt") -ge 2 ]] && ok || bad "$1: no checkpoints: $(grep -c '^expect' "$1.mbt")"
	grep -q "^# (a debugfs table no line names: $2" "$1.mbt" && ok ||
		bad "$1: no '$2': $(grep '^# (a debugfs' "$1.mbt")"
	out=$("$mbdiff" replay "$1.mbt" 2>&1) && ok || bad "$1: replay not clean: $out"
}

# two unnamed tables, memory first: reserved lies inside memory
case_ok pair 'memblock.reserved, since it lies inside the table before it' \
	< <(printf '%s\n%s\n\n%s\n' "$calls" "$mem" "$rsv")
grep -q '^# (a debugfs table no line names: memblock.memory, since the table after it lies inside it' pair.mbt &&
	ok || bad "pair: first table not memory"
# back to back, no line between: still two tables (the index restarts)
case_ok tight 'memblock.reserved, since it lies inside' < <(printf '%s\n%s\n%s\n' "$calls" "$mem" "$rsv")
# reserved pasted first
case_ok swapped 'memblock.reserved, since it lies inside the table after it' \
	< <(printf '%s\n%s\n%s\n' "$calls" "$rsv" "$mem")
# the memory table named, the reserved one not
case_ok half 'memblock.reserved, since the table before it is the other array' \
	< <(printf '%s\n$ cat /sys/kernel/debug/memblock/memory\n%s\n%s\n' "$calls" "$mem" "$rsv")
# a lone table with a memory-only flag (the newer columns)
case_ok nomap 'memblock.memory, since its NOMAP' < <(
	printf '%s\n' "$calls" '[    0.000000] memblock_mark_nomap: [0x0000000050000000-0x00000000500fffff] x+0x1/0x2'
	printf '%s\n' '   0: 0x0000000040000000..0x000000004fffffff    0 NONE' \
		'   1: 0x0000000050000000..0x00000000500fffff    0 NOMAP' \
		'   2: 0x0000000050100000..0x00000000bfffffff    0 NONE'
)

# a lone table nothing tells: exit 2, one line naming the line and why
printf '%s\n%s\n' "$calls" "$rsv" >lone.log
"$mbdiff" import lone.log -o lone.mbt 2>lone.err
rc=$?
[[ $rc -eq 2 && ! -e lone.mbt ]] && ok || bad "lone: exit $rc (want 2), file: $(ls lone.mbt 2>&1)"
[[ $(wc -l <lone.err) -eq 1 ]] && grep -q '^lone.log:5: error: memblock debugfs table, but no line before it names memory or reserved, and nothing tells which it is (no NOMAP or RSV_ flags, no second table beside it)' lone.err &&
	ok || bad "lone: $(cat lone.err)"

# the two tables alone (no calls): both are the starting state
printf '%s\n%s\n' "$mem" "$rsv" >alone.log
"$mbdiff" import alone.log -o alone.mbt 2>alone.err || bad "alone: $(cat alone.err)"
[[ $(grep -c '^memblock_add:' alone.mbt) == 1 && $(grep -c '^memblock_reserve:' alone.mbt) == 2 ]] && ok ||
	bad "alone: not both tables as the starting state: $(grep '^memblock' alone.mbt)"
out=$("$mbdiff" replay alone.mbt 2>&1) && ok || bad "alone: replay not clean: $out"

check_done
