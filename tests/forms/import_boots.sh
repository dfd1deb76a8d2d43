#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: import_boots.sh MBDIFF WORKDIR
#
# Several boots in one pasted log (issue 31, item 2): a boot starts at a
# second "Linux version" line or where the timestamps restart at 0.000000.
# -o t.mbt writes the last boot to t.mbt and boot K before it to
# t-bootK.mbt, each with its own kernel and model; --boot N writes boot N
# alone; the output says how many boots there were and what went where; a
# --boot past the last is exit 2 with nothing written.
set -euo pipefail
mbdiff=${1:?usage: import_boots.sh MBDIFF WORKDIR}
work=${2:?usage: import_boots.sh MBDIFF WORKDIR}
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
rm -rf "$work" && mkdir -p "$work"
cd "$work"

cat >three.log <<'LOG'
[    0.000000] Linux version 6.1.0-9-arm64 (debian-kernel@lists.debian.org) #1 SMP
[    0.000000] memblock_add: [0x0000000040000000-0x000000007fffffff] setup_arch+0x1/0x2
[    0.000000] memblock_reserve: [0x0000000040200000-0x0000000040ffffff] setup_arch+0x3/0x4
[    2.500000] reboot: Restarting system
# second boot, same kernel, no version line pasted
[    0.000000] memblock_add: [0x0000000080000000-0x00000000bfffffff] setup_arch+0x1/0x2
[    3.000000] reboot: Restarting system
[    0.000000] Booting Linux on physical CPU 0x0000000000 [0x410fd034]
[    0.000000] Linux version 7.3.4-arm64 (debian-kernel@lists.debian.org) #1 SMP
[    0.000000] memblock_add: [0x00000000c0000000-0x00000000ffffffff] setup_arch+0x1/0x2
[    0.000000] memblock_reserve: [0x00000000c0000000-0x00000000c0000fff] setup_arch+0x3/0x4
[    0.000000] memblock_reserve: [0x00000000c0100000-0x00000000c0100fff] setup_arch+0x3/0x4
LOG
"$mbdiff" import three.log -o t.mbt 2>err || fail "import failed: $(cat err)"
[[ -f t.mbt && -f t-boot1.mbt && -f t-boot2.mbt && ! -e t-boot3.mbt ]] ||
	fail "files: $(ls)"
grep -q '^mbdiff: 3 boots in the log' err || fail "does not say 3 boots: $(cat err)"
grep -qx 'mbdiff: boot 1 of 3 (three.log:1-4) -> t-boot1.mbt' err || fail "boot 1: $(cat err)"
grep -qx 'mbdiff: boot 2 of 3 (three.log:5-7) -> t-boot2.mbt' err || fail "boot 2: $(cat err)"
grep -qx 'mbdiff: boot 3 of 3 (three.log:8-12) -> t.mbt' err || fail "boot 3: $(cat err)"
ops() { grep -c '^memblock_' "$1"; }
[[ $(ops t-boot1.mbt) == 2 && $(ops t-boot2.mbt) == 1 && $(ops t.mbt) == 3 ]] ||
	fail "ops per boot: $(ops t-boot1.mbt) $(ops t-boot2.mbt) $(ops t.mbt), want 2 1 3"
grep -q '^memblock_add: \[0x00000000c0000000' t.mbt || fail "t.mbt is not the last boot"
grep -q '^# kernel: 6.1.0-9-arm64 ' t-boot1.mbt || fail "boot 1 kernel: $(grep '^# kernel' t-boot1.mbt)"
grep -q '^# kernel: unknown ' t-boot2.mbt || fail "boot 2 takes another boot's kernel: $(grep '^# kernel' t-boot2.mbt)"
grep -q '^# kernel: 7.3.4-arm64 ' t.mbt || fail "boot 3 kernel: $(grep '^# kernel' t.mbt)"
grep -qx '# boot 3 of 3 in the log (three.log:8-12; .*' t.mbt || fail "no boot line in t.mbt"
for f in t-boot1.mbt t-boot2.mbt t.mbt; do
	"$mbdiff" replay "$f" >/dev/null 2>&1 || fail "$f does not replay clean"
done

# --boot N: that boot alone, to -o (also stdout)
"$mbdiff" import three.log --boot 2 -o two.mbt 2>err || fail "--boot 2: $(cat err)"
[[ ! -e two-boot1.mbt ]] || fail "--boot 2 wrote other boots"
[[ $(ops two.mbt) == 1 ]] || fail "--boot 2 is not boot 2"
"$mbdiff" import three.log --boot 1 -o - 2>err >one.mbt || fail "--boot 1 -o -: $(cat err)"
[[ $(ops one.mbt) == 2 ]] || fail "--boot 1 to stdout: $(ops one.mbt) ops"
"$mbdiff" import three.log -o - 2>err >last.mbt || fail "-o -: $(cat err)"
[[ $(ops last.mbt) == 3 ]] || fail "-o - is not the last boot"
grep -q 'wrote the last to stdout; --boot N writes another' err || fail "-o -: $(cat err)"

# past the last boot: exit 2, nothing written
set +e
"$mbdiff" import three.log --boot 4 -o four.mbt 2>err
rc=$?
set -e
[[ $rc -eq 2 && ! -e four.mbt ]] || fail "--boot 4: exit $rc, file $(ls four.mbt 2>&1)"
grep -qx 'three.log: error: boot 4 asked for, but the log holds 3 boots' err || fail "--boot 4: $(cat err)"
set +e
"$mbdiff" import three.log --boot 0 -o four.mbt 2>err
rc=$?
set -e
[[ $rc -eq 2 ]] || fail "--boot 0: exit $rc"

# a boot with nothing importable is named and skipped
printf '[    0.000000] Linux version 6.6.1 (a@b) #1\n[    1.000000] hello\n[    0.000000] Linux version 6.6.2 (a@b) #1\n[    0.000000] memblock_add: [0x0-0xfff] x+0x1/0x2\n' >empty1.log
"$mbdiff" import empty1.log -o e.mbt 2>err || fail "empty boot 1: $(cat err)"
grep -qx 'mbdiff: boot 1 of 2 (empty1.log:1-2): nothing importable, not written' err || fail "empty boot: $(cat err)"
[[ -f e.mbt && ! -e e-boot1.mbt ]] || fail "empty boot: files $(ls e*)"

# one boot: no boot lines at all
printf '[    0.000000] memblock_add: [0x0-0xfff] x+0x1/0x2\n[    0.100000] memblock_reserve: [0x0-0xfff] x+0x1/0x2\n' >single.log
"$mbdiff" import single.log -o s.mbt 2>err || fail "single: $(cat err)"
grep -q 'boot' err s.mbt && fail "single boot talks of boots: $(grep boot err s.mbt)"

# two boots' dumps pasted one after the other: a dump unlike the one before
# with no call between them starts a boot; the same dump twice, or a dump
# after calls, does not
dump() { # CNT REGION...
	printf 'MEMBLOCK configuration:\n memory size = 0x%x reserved size = 0x0\n memory.cnt  = 0x%x\n' "$1" "$2"
	shift 2
	local i=0
	for r; do printf ' memory[0x%x]\t[%s], 0x1000 bytes flags: 0x0\n' "$i" "$r"; i=$((i + 1)); done
}
{ dump 0x2000 2 0x0000000000001000-0x0000000000001fff 0x0000000000003000-0x0000000000003fff
  echo '# --- with mem= on the command line'
  dump 0x1000 1 0x0000000000001000-0x0000000000001fff; } >dumps.log
"$mbdiff" import dumps.log -o d.mbt 2>err || fail "two dumps: $(cat err)"
grep -q '^mbdiff: 2 boots in the log (.*at a MEMBLOCK dump unlike the one before' err ||
	fail "two boots' dumps: $(cat err)"
grep -q '^expect memory cnt=2' d-boot1.mbt && grep -q '^expect memory cnt=1' d.mbt ||
	fail "two boots' dumps: $(grep -H '^expect memory cnt' d*.mbt)"
for f in d-boot1.mbt d.mbt; do
	"$mbdiff" replay "$f" >/dev/null 2>&1 || fail "$f does not replay clean"
done
{ dump 0x1000 1 0x0000000000001000-0x0000000000001fff
  dump 0x1000 1 0x0000000000001000-0x0000000000001fff; } >same.log
"$mbdiff" import same.log -o same.mbt 2>err || fail "the same dump twice: $(cat err)"
grep -q 'boots' err && fail "the same dump twice is two boots: $(cat err)"
{ dump 0x1000 1 0x0000000000001000-0x0000000000001fff
  echo 'memblock_add: [0x0000000000003000-0x0000000000003fff] setup_arch+0x1/0x2'
  dump 0x2000 2 0x0000000000001000-0x0000000000001fff 0x0000000000003000-0x0000000000003fff; } >calls.log
"$mbdiff" import calls.log -o c.mbt 2>err || fail "dumps with a call between: $(cat err)"
grep -q 'boots' err && fail "dumps with a call between are two boots: $(cat err)"
"$mbdiff" replay c.mbt >/dev/null 2>&1 || fail "dumps with a call between: c.mbt does not replay clean"

# a boot begun by its version line: its first dump is compared with none
{ echo 'Linux version 6.1.0-9-arm64 (debian-kernel@lists.debian.org) #1 SMP'
  dump 0x1000 1 0x0000000000001000-0x0000000000001fff
  echo 'Linux version 7.3.4-arm64 (debian-kernel@lists.debian.org) #1 SMP'
  dump 0x2000 2 0x0000000000001000-0x0000000000001fff 0x0000000000003000-0x0000000000003fff; } >versions.log
"$mbdiff" import versions.log -o v.mbt 2>err || fail "two versions, two dumps: $(cat err)"
grep -q '^mbdiff: 2 boots in the log (a boot starts at a "Linux version" line or where' err ||
	fail "two versions, two dumps: $(cat err)"

# an empty log (no line at all, or one blank line): refused, nothing written
for f in '' '\n'; do
	printf "$f" >blank.log
	rm -f b.mbt
	set +e
	"$mbdiff" import blank.log -o b.mbt 2>err
	rc=$?
	set -e
	[[ $rc -eq 2 && ! -e b.mbt ]] || fail "empty log '$f': exit $rc, $(ls b.mbt 2>&1)"
	grep -q '^mbdiff: nothing importable in blank.log' err || fail "empty log '$f': $(cat err)"
done

if ((fails)); then
	echo "0 passed, $fails failed"
	exit 1
fi
echo "1 passed, 0 failed"
