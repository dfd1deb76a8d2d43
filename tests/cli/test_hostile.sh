#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_hostile.sh BUILD_DIR [WORKDIR]
#
# Hostile input to every entry point of one build (mbdiff, mbdiff-replay,
# afl_diff), one block per class of failure (README "Exit codes"):
#   outputs   -o never replaces what is not a regular file: a symlink is
#             written through (the link stays), a device or FIFO is written
#             in place, a directory or a FIFO nobody reads is refused with
#             exit 2; -o naming an input is refused; every writer obeys
#             (convert, minimize, import, emit-test, replay --svg, bench).
#   fuzz text text inputs to the fuzz drivers carry no expectations and at
#             most 64 calls, like binary ones.
#   walks     symlink loops end; FIFOs and devices in a walked directory
#             are skipped with a note; an empty directory is "no inputs"
#             (exit 2), for mbdiff and both drivers.
#   readers   FIFOs, /dev/zero and /proc files are refused (exit 2) without
#             reading them, by every reader; an input over the size bound
#             too.
#   values    import range-checks every value with LOG:LINE: error; odd
#             paths (newline, UTF-8, 2000 bytes) never reach "internal
#             error" or "a bug in mbdiff", and messages print them whole.
set -u
# shellcheck source=tests/lib/check_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check_lib.sh"
# shellcheck disable=SC2015 # "test && ok || bad" is an if-then-else here

bdir=${1:?BUILD_DIR}
bdir=$(cd "$bdir" && pwd -P)
check_init hostile "$bdir/mbdiff" "${2:-}"
replay=$bdir/mbdiff-replay
afl=$bdir/afl_diff
cd "$work" || exit 2

# expect RC WHAT CMD...: run CMD, check its exit status. The 300 s guard
# only stops a hang: these take well under a second idle, and a busy
# machine must not turn slow into failed (issue 16 item 6).
expect() {
	local want=$1 what=$2
	shift 2
	timeout 300 "$@" >out.txt 2>err.txt </dev/null
	rc=$?
	[[ $rc -eq $want ]] && ok || bad "$what: exit $rc, expected $want: $(head -c 300 err.txt)"
}
said() { # said PATTERN WHAT: stderr matches
	grep -qE -- "$1" err.txt && ok || bad "$2: stderr lacks /$1/: $(head -c 300 err.txt)"
}

good=good.mbt
printf 'config memory.max=4\nmemblock_add: [0x1000-0x1fff]\nmemblock_reserve: [0x1000-0x17ff]\n' >"$good"
div=div.mbt
printf 'config memory.max=2 reserved.max=128 resize=1\nmemblock_add: [0x1000-0x17ff]\nmemblock_add: [0x0-0x1fff]\n' >"$div"
log=boot.log
printf '[    0.000000] memblock_add: [0x0000000000001000-0x0000000000001fff] setup_arch+0x1\n' >"$log"
has_zhou=0
"$mbdiff" list | grep -q '^zhou-2025 ' && has_zhou=1
# A character device of our own when we may make one (root): a writer
# that wrongly replaces devices then breaks this node, not the machine's
# /dev/null. Without root, /dev/null cannot be replaced anyway.
null=/dev/null
if mknod "$work/null" c 1 3 2>/dev/null; then null=$work/null; fi

# ---------------------------------------------------------------- outputs
# Every writer, as "CMD... -o" / "--svg" / "--csv": the output path last.
writers=(
	"convert $good -o"
	"import $log -o"
	"emit-test $good --patched none -o"
	"replay --variants reference,reference-twin $good --svg"
	"bench --reps 1 --variants reference $good --csv"
)
((has_zhou)) && writers+=("minimize --variants reference,zhou-2025 $div -o")
for w in "${writers[@]}"; do
	read -ra cmd <<<"$w"
	name=${cmd[0]}
	ok_rc=0
	[[ $name == minimize ]] && ok_rc=1
	# a symlink: written through, the link stays a link
	printf 'old\n' >target.out
	ln -sfn target.out link.out
	expect "$ok_rc" "$name -o symlink" "$mbdiff" "${cmd[@]}" link.out
	[[ -L link.out ]] && ! cmp -s target.out <(printf 'old\n') && ok ||
		bad "$name -o symlink: link replaced or target not written"
	# a character device: written in place, never replaced
	expect "$ok_rc" "$name -o a device" "$mbdiff" "${cmd[@]}" "$null"
	[[ -c $null ]] && ok || bad "$name replaced the device $null"
	ln -sfn "$null" devlink.out
	expect "$ok_rc" "$name -o symlink to a device" "$mbdiff" "${cmd[@]}" devlink.out
	[[ -L devlink.out && -c $null ]] && ok || bad "$name -o symlink to a device replaced something"
	# a FIFO nobody reads: refused at once, not a hang, not replaced
	rm -f fifo.out && mkfifo fifo.out
	expect 2 "$name -o unread FIFO" "$mbdiff" "${cmd[@]}" fifo.out
	said 'fifo.out' "$name -o unread FIFO"
	[[ -p fifo.out ]] && ok || bad "$name replaced a FIFO"
	# a FIFO with a reader gets the output
	rm -f fifo.out && mkfifo fifo.out
	cat fifo.out >fifo.got &
	reader=$!
	sleep 0.2
	expect "$ok_rc" "$name -o read FIFO" "$mbdiff" "${cmd[@]}" fifo.out
	wait "$reader"
	[[ -p fifo.out && -s fifo.got ]] && ok || bad "$name -o FIFO with a reader: nothing read"
	# a directory, a dangling link, a missing parent: exit 2, nothing made
	mkdir -p adir
	expect 2 "$name -o directory" "$mbdiff" "${cmd[@]}" adir
	[[ -d adir && -z $(ls -A adir) ]] && ok || bad "$name -o directory wrote into it"
	ln -sfn nowhere/x dangling.out
	expect 2 "$name -o dangling symlink" "$mbdiff" "${cmd[@]}" dangling.out
	[[ -L dangling.out && ! -e nowhere ]] && ok || bad "$name -o dangling symlink"
	expect 2 "$name -o in a missing directory" "$mbdiff" "${cmd[@]}" no/such/dir/x.out
	said 'no/such/dir/x.out' "$name -o in a missing directory"
	# a path 5000 bytes long is named whole in the error
	long=$(printf 'd%.0s' $(seq 5000))
	expect 2 "$name -o too long" "$mbdiff" "${cmd[@]}" "$long"
	grep -qF "$long" err.txt && ok || bad "$name: the long output path is cut in the error"
	# no temp file left anywhere
	[[ -z $(find . -name '*.tmp.*') ]] && ok || bad "$name left temp files: $(find . -name '*.tmp.*')"
	rm -rf -- target.out link.out devlink.out fifo.out fifo.got adir dangling.out
done
# -o naming an input: refused before any work, the input untouched
cp "$good" same.mbt
expect 2 "convert -o the input" "$mbdiff" convert same.mbt -o same.mbt
cmp -s same.mbt "$good" && ok || bad "convert -o the input changed it"
cp "$log" same.log
expect 2 "import -o the input" "$mbdiff" import same.log -o same.log
cmp -s same.log "$log" && ok || bad "import -o the input changed it"
ln -sfn same.log same-link.log
expect 2 "import -o a link to the input" "$mbdiff" import same.log -o same-link.log
cmp -s same.log "$log" && ok || bad "import -o a link to the input changed it"
if ((has_zhou)); then
	cp "$div" same-div.mbt
	expect 2 "minimize -o the input" "$mbdiff" minimize --variants reference,zhou-2025 same-div.mbt -o same-div.mbt
	cmp -s same-div.mbt "$div" && ok || bad "minimize -o the input changed it"
fi

# ---------------------------------------------------------------- fuzz text
# identical variants never diverge on a text input with expectations
printf 'memblock_add: [0x0-0xfff]\nexpect memory cnt=2\nexpect reserved max=7\n' >expect.txt
expect 0 "mbdiff-replay, text with expect" "$replay" --variants=reference,reference-twin expect.txt
expect 0 "afl_diff, text with expect" "$afl" --variants=reference,reference-twin expect.txt
expect 0 "mbdiff replay, crash file with expect" "$mbdiff" replay --variants reference,reference-twin expect.txt
# the same call cap as binary inputs: 64 calls, the rest not even parsed
{
	echo 'config memory.max=1 reserved.max=1 resize=1'
	for i in $(seq 0 99999); do printf 'memblock_reserve: [0x%x-0x%x]\n' $((i * 0x2000)) $((i * 0x2000 + 0xfff)); done
	echo 'this line is not a trace line'
} >many.txt
SECONDS=0
expect 0 "mbdiff-replay, 100000-call text" "$replay" --variants=reference,reference-twin many.txt
((SECONDS < 5)) && ok || bad "a 100000-call text input took ${SECONDS}s in the replay driver"
"$mbdiff" convert many.txt -o many-back.mbt 2>err.txt
grep -q '(.mbt text, 64 ops)' err.txt && ok || bad "a text crash file is not capped at 64 ops: $(cat err.txt)"

# ---------------------------------------------------------------- walks
mkdir -p loop/sub
cp "$good" loop/sub/a.mbt
ln -sfn .. loop/sub/up
ln -sfn . loop/self
ln -sfn . loop/self2
mkfifo loop/pipe
ln -sfn /dev/zero loop/zero
expect 0 "mbdiff replay of a symlink loop" "$mbdiff" replay --variants reference,reference-twin loop
said 'loop/pipe: skipped: a FIFO' "replay of a dir with a FIFO"
grep -q '^replayed 1 inputs' out.txt && ok || bad "the loop dir replayed $(tail -n 1 out.txt)"
expect 0 "mbdiff bench of a symlink loop" "$mbdiff" bench --reps 1 --variants reference loop
expect 0 "mbdiff-replay of a symlink loop" "$replay" --variants=reference,reference-twin loop
grep -q 'Tested 1 files' err.txt && ok || bad "mbdiff-replay of the loop: $(tail -n 2 err.txt)"
# directories nested deeper than the walk goes: an error, not a crash
deep=deep$(printf '/d%.0s' $(seq 40))
mkdir -p "$deep" && cp "$good" "$deep/a.mbt"
expect 2 "mbdiff replay of 40 nested directories" "$mbdiff" replay deep
said 'nested too deep' "mbdiff replay of 40 nested directories"
mkdir -p empty/.hidden
expect 2 "mbdiff replay of an empty dir" "$mbdiff" replay empty
said 'no inputs' "mbdiff replay of an empty dir"
expect 2 "mbdiff-replay of an empty dir" "$replay" empty
expect 2 "afl_diff of a dir" "$afl" empty
expect 2 "afl_diff of a missing file" "$afl" no-such-file
expect 2 "mbdiff bench of an empty dir" "$mbdiff" bench --reps 1 empty

# ---------------------------------------------------------------- readers
rm -f fifo.mbt && mkfifo fifo.mbt
for r in "$mbdiff convert fifo.mbt -o x.bin" "$mbdiff minimize fifo.mbt -o x.mbt" \
	"$mbdiff import fifo.mbt -o x.mbt" "$mbdiff emit-test fifo.mbt" "$mbdiff replay fifo.mbt" \
	"$mbdiff convert /dev/zero -o x.bin" "$mbdiff import /dev/zero -o x.mbt" \
	"$mbdiff import /proc/self/status -o x.mbt" "$mbdiff convert /proc/self/mem -o x.bin" \
	"$replay /proc/self/mem" "$replay /dev/zero" "$replay fifo.mbt" "$afl /proc/self/mem" \
	"$afl fifo.mbt" "$afl /dev/zero"; do
	read -ra cmd <<<"$r"
	expect 2 "${cmd[*]}" "${cmd[@]}"
	grep -q 'Success' err.txt && bad "${cmd[*]} said Success" || ok
	[[ ! -e x.bin && ! -e x.mbt ]] && ok || bad "${cmd[*]} wrote output"
done
# a known-differences file that is a FIFO or a device: refused, no wait
for k in fifo.mbt /dev/zero; do
	expect 2 "mbdiff replay --known $k" "$mbdiff" replay --known "$k" empty
	said "$k: error: cannot read" "mbdiff replay --known $k"
done
# over the size bound (256 MiB): a sparse file, refused before reading
truncate -s 300M huge.mbt
expect 2 "convert of a 300 MiB file" "$mbdiff" convert huge.mbt -o x.bin
said 'huge.mbt: error: .*256 MiB' "convert of a 300 MiB file"
expect 2 "mbdiff-replay of a 300 MiB file" "$replay" huge.mbt
rm -f huge.mbt
# a file the user may not read (not as root: root reads everything)
printf 'memblock_add: [0x0-0xfff]\n' >noperm.mbt
chmod 000 noperm.mbt
if ! cat noperm.mbt >/dev/null 2>&1; then
	expect 2 "replay of an unreadable file" "$mbdiff" replay noperm.mbt
	expect 2 "mbdiff-replay of an unreadable file" "$replay" noperm.mbt
	expect 2 "afl_diff of an unreadable file" "$afl" noperm.mbt
fi
chmod 644 noperm.mbt
# NUL bytes and a lone CR at the end are errors in a .mbt, with the line
printf 'memblock_add: [0x0-0xfff]\nmemblock_allow_resize\r' >lone-cr.mbt
expect 2 "a lone CR at the end" "$mbdiff" replay lone-cr.mbt
said 'lone-cr.mbt:2: error: .*0x0d' "a lone CR at the end"
printf 'memblock_add: [0x0-0xfff]\n\0\n' >nul.mbt
expect 2 "a NUL byte" "$mbdiff" replay nul.mbt
said 'nul.mbt:2: error: .*0x00' "a NUL byte"

# ---------------------------------------------------------------- values
imp() { # imp NAME LINE PATTERN CONTENT: import exits 2 with LOG:LINE: error: PATTERN
	printf '%b' "$4" >"$1.log"
	expect 2 "import $1" "$mbdiff" import "$1.log" -o "$1.mbt"
	said "^$1.log:$2: error: .*$3" "import $1"
	[[ ! -e $1.mbt ]] && ok || bad "import $1 wrote output"
	grep -q 'internal error' err.txt && bad "import $1: internal error" || ok
}
imp nid-100 1 'nid 100' 'memblock_add_node: [0x1000-0x1fff] nid=100 flags=0x0 x+0x1\n'
imp nid-neg 2 'nid -5' '# x\nmemblock_add_node: [0x1000-0x1fff] nid=-5 flags=0x0 x+0x1\n'
imp nid-u32 1 'nid 4294967295' 'memblock_add_node: [0x1000-0x1fff] nid=4294967295 flags=0x0 x\n'
imp nid-huge 1 'nid' 'memblock_add_node: [0x1000-0x1fff] nid=99999999999999999999999 flags=0x0 x\n'
imp doubled-huge 2 'does not fit|out of range' 'memblock_add: [0x1000-0x1fff] x\nmemblock: reserved is doubled to 99999999999999999999 at [0x1-0x2]\n'
imp node-77 3 'nid 77' 'memblock_add: [0x1000-0x1fff] x\nMEMBLOCK configuration:\n memory[0x0]\t[0x0000000000001000-0x0000000000001fff], 0x0000000000001000 bytes on node 77 flags: 0x0\n'
imp flags-huge 1 'flags' 'memblock_add_node: [0x1000-0x1fff] nid=1 flags=0x100000000 x\n'
# NUL bytes, a 100000-byte line and CRs in a log: imported, never parsed wrong
{
	printf 'memblock_add: [0x1000-0x1fff] a\0b\r\n'
	printf '%*s\n' 100000 '' | tr ' ' x
	printf 'memblock_reserve: [0x1000-0x17ff] x\r'
} >nul.log
expect 0 "import of NULs, a long line, CRs" "$mbdiff" import nul.log -o nul.mbt
expect 0 "replay of that import" "$mbdiff" replay --variants reference,reference-twin nul.mbt
# "nid=-" in the caller symbol does not flip the node's sign
printf 'memblock_add_node: [0x1000-0x1fff] nid=1 flags=0x0 foo_nid=-x+0x1\n' >sign.log
expect 0 "import, nid=- in the caller" "$mbdiff" import sign.log -o sign.mbt
grep -q '^memblock_add_node: .* nid=1 ' sign.mbt && ok || bad "nid=- in the caller flipped the nid: $(grep add_node sign.mbt)"
# a dump of 3000 regions keeps 3000 checks
{
	printf 'memblock_add: [0x0-0xfff] x\nMEMBLOCK configuration:\n memory.cnt  = 0xbb8\n'
	for i in $(seq 0 2999); do
		printf ' memory[0x%x]\t[0x%016x-0x%016x], 0x0000000000001000 bytes flags: 0x0\n' "$i" $((i * 0x2000)) $((i * 0x2000 + 0xfff))
	done
} >dump3000.log
expect 0 "import of a 3000-region dump" "$mbdiff" import dump3000.log -o dump3000.mbt
[[ $(grep -c '^expect memory \[' dump3000.mbt) -eq 3000 ]] && ok ||
	bad "a 3000-region dump gave $(grep -c '^expect memory \[' dump3000.mbt) checks"
# odd file names: newline, UTF-8, 2000 bytes; import and minimize work
names=("$(printf 'new\nline')" "café-ü" "$(printf 'n%.0s' $(seq 200))")
long_dir=$(printf 'p%.0s' $(seq 200))/$(printf 'q%.0s' $(seq 200))/$(printf 'r%.0s' $(seq 200))
mkdir -p "$long_dir"
names+=("$long_dir/$(printf 's%.0s' $(seq 200))")
for n in "${names[@]}"; do
	cp "$log" "$n.log"
	expect 0 "import of a log named ${n:0:20}" "$mbdiff" import "$n.log" -o "$n.mbt"
	expect 0 "replay of the import named ${n:0:20}" "$mbdiff" replay --variants reference,reference-twin "$n.mbt"
	if ((has_zhou)); then
		cp "$div" "$n.div.mbt"
		expect 1 "minimize of ${n:0:20}" "$mbdiff" minimize --variants reference,zhou-2025 "$n.div.mbt" -o "$n.min.mbt"
		grep -q 'bug in mbdiff' err.txt && bad "minimize of ${n:0:20}: a bug in mbdiff" || ok
	fi
	# the error names the path whole
	expect 2 "convert of a missing ${n:0:20}" "$mbdiff" convert "$n.missing" -o x.bin
	grep -qF -- "$n.missing" err.txt && ok || bad "the error cuts the path ${n:0:20}...: $(head -c 200 err.txt)"
done

check_done
