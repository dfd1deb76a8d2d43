#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_bad_input.sh [MBDIFF [WORKDIR]]   (defaults: $MBDIFF, a temp dir)
#
# Malformed .mbt files through `mbdiff replay`, `mbdiff convert -o OUT` and
# `mbdiff minimize -o OUT`. Each bad case must make every command
#   - print "FILE:LINE: error: ..." with the line of the table and a message
#     naming what was expected (the table's pattern, from docs/mbt-format.md),
#   - exit 2,
#   - leave no output file and no temp file behind.
# Decisions recorded here: an empty file (or comments only) is a valid empty
# trace: replay and convert exit 0, minimize exits 0 saying it does not
# diverge and writes nothing; CRLF line ends are accepted.
set -u
# ok() never fails, so "test && ok || bad" is an if-then-else here.
# shellcheck disable=SC2015

mbdiff=${1:-${MBDIFF:-}}
if [[ -z $mbdiff || ! -x $mbdiff ]]; then
	echo "test_bad_input: give the mbdiff binary (argument or \$MBDIFF)" >&2
	exit 2
fi
mbdiff=$(cd "$(dirname "$mbdiff")" && pwd -P)/$(basename "$mbdiff")
work=${2:-}
if [[ -z $work ]]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/mbd-bad-input.XXXXXX")
	trap 'rm -rf -- "$work"' EXIT
fi
rm -rf -- "$work"
mkdir -p -- "$work/in" "$work/out"
cd "$work" || exit 2

passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() {
	echo "FAIL $*" >&2
	failed=$((failed + 1))
}

# NAME | LINE | PATTERN (extended regex the message must match) | CONTENT
# CONTENT goes through printf '%b'. Lines are 1-based.
cases=(
	'unknown-op|1|unknown op "memblock_frobnicate": expected|memblock_frobnicate: [0x0-0xfff]\n'
	'missing-range|1|missing range: expected "memblock_add: \[0xSTART-0xEND\]"|memblock_add:\n'
	'missing-flags|1|missing flags=.*expected "memblock_add_node:|memblock_add_node: [0x0-0xfff] nid=0\n'
	'missing-nid|1|missing nid=N: expected|memblock_phys_alloc_try_nid: 4096 bytes align=0x1000\n'
	'missing-size-field|1|missing size=|memblock_add: base=0x1000\n'
	'missing-colon|1|missing .:. after memblock_add: expected|memblock_add [0x0-0xfff]\n'
	'missing-bytes|1|expected "bytes" after the size|memblock_phys_alloc_range: 4096 align=0x1000 from=0x0 max_addr=0x100000\n'
	'extra-field|1|unexpected text "0x5": expected|memblock_add: [0x0-0xfff] 0x5\n'
	'extra-arg-no-operand-op|2|unexpected text "1": expected "memblock_allow_resize"|# x\nmemblock_allow_resize: 1\n'
	'comment-at-end|1|comment must be on a line of its own|memblock_add: [0x0-0xfff] # x\n'
	'reordered-fields|1|expected nid=N, found "flags=0x0"|memblock_add_node: [0x0-0xfff] flags=0x0 nid=0\n'
	'bad-hex-digit|1|bad start number "0x12z"; expected \[0xSTART-0xEND\]|memblock_add: [0x12z-0xfff]\n'
	'empty-hex|1|empty start number; expected|memblock_add: [0x-0x10]\n'
	'bad-hex-value|1|bad number "0xzz".*expected 0xHEX or decimal|memblock_trim_memory: 0xzz\n'
	'missing-bracket|1|missing .\]..*expected \[0xSTART-0xEND\]|memblock_add: [0x1000-0xfff\n'
	'end-before-start|3|end before start|config\n\nmemblock_add: [0x2000-0x0fff]\n'
	'overflow-hex|1|does not fit in 64 bits|memblock_add: [0x10000000000000000-0x1]\n'
	'overflow-decimal|1|does not fit in 64 bits|memblock_set_current_limit: 18446744073709551616\n'
	'huge-alloc-count|1|for size does not fit in 64 bits|memblock_phys_alloc_range: 99999999999999999999999 bytes align=0x1000 from=0x0 max_addr=0x100000\n'
	'huge-max|1|memory.max=99999999999 out of range: expected 1..1024|config memory.max=99999999999\n'
	'max-zero|1|memory.max=0 out of range: expected 1..1024|config memory.max=0\n'
	'max-1025|1|reserved.max=1025 out of range: expected 1..1024|config reserved.max=1025\n'
	'negative-number|1|negative number "-1".*expected an unsigned|memblock_set_current_limit: -1\n'
	'duplicate-config|2|second config line \(the first is on line 1\)|config memory.max=4\nconfig reserved.max=4\n'
	'duplicate-config-key|1|duplicate config key "memory.max"|config memory.max=4 memory.max=5\n'
	'config-after-ops|2|config after ops.*must come before the first op|memblock_add: [0x0-0xfff]\nconfig memory.max=4\n'
	'unknown-config-key|1|unknown config key "memory_max": valid keys are memory.max|config memory_max=4\n'
	'config-bool-2|1|bottom_up=2: expected 0 or 1|config bottom_up=2\n'
	'op-bool-2|1|bad value "2": expected 0 or 1|memblock_set_bottom_up: 2\n'
	'flags-unknown-bits|1|flags=0x20 has unknown bits: expected a subset of 0x1f|memblock_add_node: [0x0-0xfff] nid=0 flags=0x20\n'
	'nid-too-big|1|nid=65 out of range: expected -1 .* to 64|memblock_add_node: [0x0-0xfff] nid=65 flags=0x0\n'
	'nid-too-small|1|nid=-2 out of range: expected -1|memblock_add_node: [0x0-0xfff] nid=-2 flags=0x0\n'
	'bad-type|1|bad type=foo: expected type=memory or type=reserved|memblock_set_node: [0x0-0xfff] type=foo nid=0\n'
	'binary-garbage|2|binary data in text trace \(byte 0x00 at column 1\): expected printable ASCII|memblock_add: [0x0-0xfff]\n\x00\x01\xff\xfe\x7f\n'
	'binary-only|1|binary data in text trace.*expected printable ASCII|\x89PNG\x0d\x0a\x1a\x0a\x00\x00'
	'utf8-in-comment|1|binary data in text trace \(byte 0xc3 at column 6\)|# caf\xc3\xa9\n'
	'lone-cr|1|byte 0x0d at column 20|memblock_add: [0x0-\r0xfff]\n'
	'dmesg-timestamp|1|unknown op "\[": expected|[    0.000000] memblock_add: [0x0-0xfff]\n'
)
# A line of 5000 bytes (limit 4096), on line 2.
long=$(printf '%*s' 4999 '' | tr ' ' a)
cases+=("overlong-line|2|line too long \\(5000 bytes\\): at most 4096 bytes per line|config\\n#${long}\\n")

# The output directory must stay empty: no OUT, no OUT.tmp.XXXXXX.
out_clean() { [[ -z $(ls -A "$work/out") ]]; }
in_clean() { [[ $(ls -A "$work/in" | wc -l) -eq $1 ]]; }

# run_bad NAME FILE LINE PATTERN CMD...: exit 2, FILE:LINE: error: PATTERN,
# no output. FILE is the path as given on the command line.
run_bad() {
	local name=$1 file=$2 line=$3 pat=$4
	shift 4
	"$mbdiff" "$@" >"$work/stdout" 2>"$work/stderr"
	local rc=$? what="$name: mbdiff $1"
	local head
	if [[ -n $line ]]; then
		head="$file:$line: error: "
	else
		head="$file: error: "
	fi
	[[ $rc -eq 2 ]] && ok || bad "$what exited $rc, expected 2"
	# fixed-string prefix, then the pattern on the same line
	if grep -F -- "$head" "$work/stderr" | grep -qE -- "$pat"; then
		ok
	else
		bad "$what: no \"$head\" line matching /$pat/ in: $(head -c 400 "$work/stderr")"
	fi
	out_clean && ok || bad "$what left files in the output dir: $(ls -A "$work/out")"
	rm -rf -- "${work:?}/out" && mkdir -p "$work/out"
}

n_in=0
for c in "${cases[@]}"; do
	IFS='|' read -r name line pat content <<<"$c"
	f=in/$name.mbt
	printf '%b' "$content" >"$f"
	n_in=$((n_in + 1))
	run_bad "$name" "$f" "$line" "$pat" replay "$f"
	run_bad "$name" "$f" "$line" "$pat" convert "$f" -o out/o.bin
	run_bad "$name" "$f" "$line" "$pat" convert "$f" -o out/o.mbt
	run_bad "$name" "$f" "$line" "$pat" minimize "$f" -o out/o.mbt
done
echo "bad .mbt cases: ${#cases[@]}"
((${#cases[@]} >= 30)) && ok || bad "fewer than 30 malformed cases"

# ---- input files that cannot be read ----
mkdir -p in/a-directory.mbt
n_in=$((n_in + 1))
run_bad input-is-directory in/a-directory.mbt '' 'cannot read: Is a directory' \
	convert in/a-directory.mbt -o out/o.bin
run_bad input-is-directory in/a-directory.mbt '' 'cannot read: Is a directory' \
	minimize in/a-directory.mbt -o out/o.mbt
run_bad missing-file in/no-such-file.mbt '' 'cannot read: No such file' \
	convert in/no-such-file.mbt -o out/o.bin
run_bad missing-file in/no-such-file.mbt '' 'cannot read: No such file' \
	minimize in/no-such-file.mbt -o out/o.mbt
# Unreadable: mode 000 works for ordinary users; root reads anything, so
# use /proc/self/mem, which opens but fails on read (offset 0 is unmapped).
printf 'memblock_add: [0x0-0xfff]\n' >in/unreadable.mbt
n_in=$((n_in + 1))
chmod 000 in/unreadable.mbt
if cat in/unreadable.mbt >/dev/null 2>&1; then
	unreadable=/proc/self/mem unreadable_pat='cannot read: Input/output error'
else
	unreadable=in/unreadable.mbt unreadable_pat='cannot read: Permission denied'
fi
run_bad unreadable "$unreadable" '' "$unreadable_pat" convert "$unreadable" -o out/o.bin
run_bad unreadable "$unreadable" '' "$unreadable_pat" minimize "$unreadable" -o out/o.mbt
chmod 644 in/unreadable.mbt
# replay walks its arguments first and reports a missing path as
# "mbdiff: PATH: strerror" (not a line error): exit 2 and the path named.
"$mbdiff" replay in/no-such-file.mbt >"$work/stdout" 2>"$work/stderr"
rc=$?
[[ $rc -eq 2 ]] && ok || bad "replay of a missing file exited $rc, expected 2"
grep -q 'in/no-such-file.mbt.*No such file' "$work/stderr" && ok ||
	bad "replay of a missing file does not name it: $(cat "$work/stderr")"
"$mbdiff" replay "$unreadable" >"$work/stdout" 2>"$work/stderr"
rc=$?
[[ $rc -eq 2 ]] && ok || bad "replay of an unreadable file exited $rc, expected 2"
grep -qF "$unreadable: error: cannot read" "$work/stderr" && ok ||
	bad "replay of an unreadable file: $(cat "$work/stderr")"

# ---- bad output paths and bad options, with a good input ----
good=in/good.mbt
printf 'config memory.max=4\nmemblock_add: [0x1000-0x1fff]\nmemblock_reserve: [0x1000-0x17ff]\n' >"$good"
n_in=$((n_in + 1))
# A diverging input, so minimize gets as far as writing.
div=in/div.mbt
printf 'config memory.max=2 reserved.max=128 resize=1\nmemblock_add: [0x1000-0x17ff]\nmemblock_add: [0x0-0x1fff]\n' >"$div"
n_in=$((n_in + 1))
"$mbdiff" replay --variants reference,zhou-2025 "$div" >/dev/null 2>&1
div_rc=$?

outdir_case() { # outdir_case CMD...: the output path is a directory
	mkdir -p out/dir
	"$mbdiff" "$@" >"$work/stdout" 2>"$work/stderr"
	local rc=$?
	[[ $rc -eq 2 ]] && ok || bad "mbdiff $* (output is a directory) exited $rc, expected 2"
	grep -q 'out/dir' "$work/stderr" && ok || bad "mbdiff $*: the error does not name out/dir: $(cat "$work/stderr")"
	[[ $(ls -A out) == dir && -z $(ls -A out/dir) ]] && ok ||
		bad "mbdiff $* left files: $(ls -AR out)"
	rm -rf -- "${work:?}/out" && mkdir -p "$work/out"
}
outdir_case convert "$good" -o out/dir
outdir_case convert "$good" -o out/dir --to mbt
if [[ $div_rc -eq 1 ]]; then
	outdir_case minimize "$div" --variants reference,zhou-2025 -o out/dir
else
	echo "skip: minimize to a directory (no reference~zhou-2025 divergence in this build)"
fi

"$mbdiff" convert "$good" -o out/no-such-dir/o.bin >"$work/stdout" 2>"$work/stderr"
rc=$?
[[ $rc -eq 2 ]] && ok || bad "convert into a missing directory exited $rc"
grep -q 'no-such-dir/o.bin: cannot write' "$work/stderr" && ok || bad "convert into a missing directory: $(cat "$work/stderr")"
out_clean && ok || bad "convert into a missing directory left $(ls -AR out)"

unknown_variant() { # unknown_variant CMD...
	"$mbdiff" "$@" >"$work/stdout" 2>"$work/stderr"
	local rc=$?
	[[ $rc -eq 2 ]] && ok || bad "mbdiff $* exited $rc, expected 2"
	grep -q 'unknown variant "no-such-variant"' "$work/stderr" && ok ||
		bad "mbdiff $*: $(cat "$work/stderr")"
	out_clean && ok || bad "mbdiff $* left $(ls -A out)"
}
unknown_variant replay --variants reference,no-such-variant "$good"
unknown_variant minimize --variants reference,no-such-variant "$div" -o out/o.mbt
unknown_variant minimize --variants no-such-variant "$div" -o out/o.mbt

# ---- valid edge cases (decisions) ----
valid() { # valid NAME CONTENT N_OPS: replay 0, convert 0 both ways, minimize 0 without output
	local name=$1 content=$2 nops=$3 f=in/$1.mbt
	printf '%b' "$content" >"$f"
	n_in=$((n_in + 1))
	"$mbdiff" replay --variants reference,reference-twin "$f" >"$work/stdout" 2>"$work/stderr"
	local rc=$?
	[[ $rc -eq 0 ]] && ok || bad "$name: replay exited $rc, expected 0: $(cat "$work/stderr")"
	grep -q '^replayed 1 inputs: 0 divergent' "$work/stdout" && ok || bad "$name: replay said $(cat "$work/stdout")"
	"$mbdiff" convert "$f" -o out/o.bin >"$work/stdout" 2>"$work/stderr"
	rc=$?
	[[ $rc -eq 0 && -f out/o.bin ]] && ok || bad "$name: convert to bin exited $rc"
	grep -qE "[(, ]$nops ops\)" "$work/stderr" && ok ||
		bad "$name: convert did not report $nops ops: $(cat "$work/stderr")"
	"$mbdiff" convert out/o.bin -o out/back.mbt >"$work/stdout" 2>"$work/stderr"
	rc=$?
	[[ $rc -eq 0 ]] && ok || bad "$name: convert back exited $rc"
	[[ $(grep -c '^memblock_' out/back.mbt) -eq $nops ]] && ok ||
		bad "$name: the converted text has $(grep -c '^memblock_' out/back.mbt) ops, expected $nops"
	rm -rf -- "${work:?}/out" && mkdir -p "$work/out"
	"$mbdiff" minimize "$f" --variants reference,reference-twin -o out/o.mbt >"$work/stdout" 2>"$work/stderr"
	rc=$?
	[[ $rc -eq 0 ]] && ok || bad "$name: minimize exited $rc, expected 0"
	cat "$work/stdout" "$work/stderr" | grep -q 'does not diverge' && ok ||
		bad "$name: minimize said $(cat "$work/stdout" "$work/stderr")"
	out_clean && ok || bad "$name: minimize of a clean trace wrote $(ls -A out)"
}
valid empty '' 0
valid comments-only '# only a comment\n\n   \t\n# another\n' 0
valid crlf 'config memory.max=4\r\nmemblock_add: [0x1000-0x1fff]\r\nmemblock_reserve: [0x1000-0x17ff]\r\n' 2
valid crlf-no-final-newline 'memblock_add: [0x1000-0x1fff]\r\nmemblock_allow_resize' 2
valid line-of-4096 "#$(printf '%*s' 4095 '' | tr ' ' b)\nmemblock_add: [0x0-0xfff]\n" 1
# The CRLF file reads as the same trace as its LF twin.
printf 'config memory.max=4\nmemblock_add: [0x1000-0x1fff]\nmemblock_reserve: [0x1000-0x17ff]\n' >in/lf.mbt
n_in=$((n_in + 1))
"$mbdiff" convert in/crlf.mbt -o out/crlf.bin >/dev/null 2>&1
"$mbdiff" convert in/lf.mbt -o out/lf.bin >/dev/null 2>&1
cmp -s out/crlf.bin out/lf.bin && ok || bad "CRLF and LF forms of one trace convert differently"
rm -rf -- "${work:?}/out" && mkdir -p "$work/out"

# Nothing was ever written next to the inputs (no temp files either).
in_clean "$n_in" && ok || bad "files appeared in the input dir: $(ls -A in)"

echo "$passed passed, $failed failed"
((failed == 0))
