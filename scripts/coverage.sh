#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/coverage.sh [options]
#
# Source coverage of a corpus: build mbdiff with clang
# -fprofile-instr-generate -fcoverage-mapping in a throwaway build
# directory, replay the corpus with `mbdiff replay` on reference paired
# with each variant, merge the profiles (llvm-profdata) and write an
# llvm-cov HTML report plus one summary line per variant source and
# function: line and branch coverage of memblock_add_range,
# memblock_double_array, memblock_isolate_range and memblock_merge_regions,
# and the list of branch directions never taken in them.
#
# Options:
#   --corpus DIR      replay DIR (repeatable; .mbt traces and fuzzer
#                     files, e.g. a campaign's corpus/). Default:
#                     corpus/seeds and corpus/regressions
#   --variants LIST   variants to pair with reference, comma-separated
#                     (default reference-twin and every patch; mutants
#                     only when named)
#   --pair A,B        replay the corpus on A,B alone (e.g.
#                     kernel:base,kernel:patched) instead of reference
#                     paired with each of --variants; with --no-expect
#   --kernel-variants FILE
#                     build only the reference and the kernel variants of
#                     FILE (kernel-variants.txt lines name=tree[:patch...],
#                     docs/kernel-variants.md), as scripts/check.sh does
#   --functions LIST  the functions summarized, comma-separated (default
#                     memblock_add_range, memblock_double_array,
#                     memblock_isolate_range, memblock_merge_regions)
#   --no-html         no HTML report (faster)
#   --out DIR         report directory (default out/coverage)
#   --build-dir DIR   instrumented build (default out/coverage-build)
#   -h, --help        this text
#
# Output in OUT: html/index.html, summary.txt (the per-function lines),
# unreached.txt (branches of those functions with a direction never
# taken, with their source lines), report.txt (llvm-cov report).

set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

corpora=() variants='' out='' bdir='' pair='' kvfile='' html=1
funcs=(memblock_add_range memblock_double_array memblock_isolate_range memblock_merge_regions)
while (($#)); do
	case $1 in
	-h | --help) mbd_help "${BASH_SOURCE[0]}"; exit 0 ;;
	--corpus | --corpus=*) mbd_optval "$@"; corpora+=("$MBD_OPTVAL"); shift "$MBD_SHIFT" ;;
	--variants | --variants=*) mbd_optval "$@"; variants=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--out | --out=*) mbd_optval "$@"; out=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--build-dir | --build-dir=*) mbd_optval "$@"; bdir=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--pair | --pair=*) mbd_optval "$@"; pair=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--kernel-variants | --kernel-variants=*) mbd_optval "$@"; kvfile=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--functions | --functions=*) mbd_optval "$@"; IFS=, read -r -a funcs <<<"$MBD_OPTVAL"; shift "$MBD_SHIFT" ;;
	--no-html) html=0; shift ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
done
((${#corpora[@]})) || corpora=("$MBD_ROOT/corpus/seeds" "$MBD_ROOT/corpus/regressions")
out=$(mbd_abs "${out:-$MBD_OUT/coverage}")
bdir=$(mbd_abs "${bdir:-$MBD_OUT/coverage-build}")
for c in "${corpora[@]}"; do [[ -d $c ]] || mbd_die "corpus $c is not a directory"; done
[[ -z $pair ]] || mbd_check_variants "$pair"
[[ -z $kvfile || -f $kvfile ]] || mbd_die "--kernel-variants $kvfile: no such file"

tool() { # llvm-cov-14 or llvm-cov, matching clang-14 when both exist
	local t
	for t in "$1-14" "$1"; do
		if command -v "$t" >/dev/null; then printf '%s\n' "$t"; return 0; fi
	done
	mbd_die "$1 not found (package llvm; scripts/setup.sh installs it)"
}
command -v clang >/dev/null || mbd_die "clang not found (scripts/setup.sh)"
cov=$(tool llvm-cov)
profdata=$(tool llvm-profdata)

flags="-fprofile-instr-generate -fcoverage-mapping"
mkdir -p "$bdir"
# Every variant is algorithms/glue.c including its own memblock.c, so the
# static functions of all variants get the same profile name
# ("glue.c:memblock_add_range") and the linker keeps one coverage record
# for all of them. This launcher gives each variant object its own main
# file name, hence its own names and records.
launcher=$bdir/cc-variant-name
cat >"$launcher" <<'SH'
#!/usr/bin/env bash
# Added by scripts/coverage.sh: -main-file-name <variant>/glue.c.
extra=()
for a in "$@"; do
	case $a in
	-DMBD_VARIANT_NAME=*)
		n=${a#-DMBD_VARIANT_NAME=}; n=${n//\"/}; n=${n//\\/}
		extra=(-Xclang -main-file-name -Xclang "$n/glue.c") ;;
	esac
done
exec "$@" "${extra[@]}"
SH
chmod +x "$launcher"
mbd_log "instrumented build in $(mbd_rel "$bdir")"
kvonly=OFF
if [[ $kvfile ]]; then
	# rewritten only on change: an unchanged list rebuilds nothing
	cmp -s "$kvfile" "$bdir/kernel-variants.txt" || cp "$kvfile" "$bdir/kernel-variants.txt"
	kvonly=ON
fi
cmake -S "$MBD_ROOT" -B "$bdir" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang \
	-DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" \
	-DCMAKE_C_COMPILER_LAUNCHER="$launcher" -DMBDIFF_KERNEL_VARIANTS_ONLY=$kvonly \
	-DMBDIFF_TESTS=OFF -DMBDIFF_FUZZ=OFF >"$bdir/configure.log" 2>&1 ||
	{ tail -20 "$bdir/configure.log"; mbd_die "cmake configure failed"; }
cmake --build "$bdir" -j "$(mbd_nproc)" --target mbdiff >"$bdir/build.log" 2>&1 ||
	{ tail -20 "$bdir/build.log"; mbd_die "build failed"; }
bin=$bdir/mbdiff

if [[ $pair ]]; then
	variants=$pair
elif [[ -z $variants ]]; then
	variants=$("$bin" list | awk '$2 == "reference" && $1 != "reference" || $2 == "patch" { print $1 }' | paste -sd, -)
fi
[[ -n $variants ]] || mbd_die "no variants to pair with reference ($bin list)"

rm -rf "$out" && mkdir -p "$out/profiles"
IFS=, read -r -a vlist <<<"$variants"
runs=()
if [[ $pair ]]; then
	runs=("$pair")
else
	for v in "${vlist[@]}"; do runs+=("reference,$v"); done
fi
for r in "${runs[@]}"; do
	# Divergences make replay exit 1: expected, the profile is what counts.
	rc=0
	v=${r//:/-}
	xargs=()
	[[ $pair ]] && xargs=(--no-expect)
	LLVM_PROFILE_FILE="$out/profiles/$v-%p.profraw" \
		"$bin" replay --quiet "${xargs[@]}" --variants "$r" "${corpora[@]}" \
		>"$out/replay-$v.log" 2>&1 || rc=$?
	# A fuzzer's corpus holds mutated text that replay refuses (rc 2, one
	# "FILE:LINE: error" each, then the closing "replayed N inputs" line)
	# and the fuzz target skips: with --pair, so are they here.
	if [[ $pair && $rc == 2 ]] && tail -n 1 "$out/replay-$v.log" | grep -q '^replayed [0-9]* inputs'; then
		rc=0
	fi
	((rc <= 1)) || mbd_die "mbdiff replay --variants $r failed (rc $rc, $out/replay-$v.log)"
	mbd_log "replayed $r: $(grep -c -E '^mbdiff: (divergence|oracle)' "$out/replay-$v.log" || true) diverging input(s)"
done
"$profdata" merge -sparse "$out"/profiles/*.profraw -o "$out/mbdiff.profdata"

srcs=()
base_list=(reference)
[[ $pair ]] && base_list=()
for v in "${base_list[@]}" "${vlist[@]}"; do
	s=$bdir/variants/${v//:/-}/mm/memblock.c
	[[ -f $s ]] && srcs+=("$s")
done
if ((html)); then
	"$cov" show "$bin" -instr-profile="$out/mbdiff.profdata" -format=html \
		-show-branches=count -output-dir="$out/html" >/dev/null
fi
"$cov" report "$bin" -instr-profile="$out/mbdiff.profdata" >"$out/report.txt"

: >"$out/summary.txt"
: >"$out/unreached.txt"
for s in "${srcs[@]}"; do
	v=${s#"$bdir"/variants/}
	v=${v%%/*}
	# -show-functions: Name Regions Miss Cover Lines Miss Cover Branches Miss Cover
	"$cov" report "$bin" -instr-profile="$out/mbdiff.profdata" -show-functions "$s" |
		awk -v v="$v" -v want="${funcs[*]}" '
			BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) ok[w[i]] = 1 }
			{ name = $1; sub(/^.*:/, "", name) }
			ok[name] && NF >= 10 {
				printf "%-16s %-24s lines %5s (%s/%s)  branches %7s (%s/%s)\n", v, name,
					$7, $5 - $6, $5, $10, $8 - $9, $8
			}' >>"$out/summary.txt"
	# Every branch of the four functions, macro expansions included (the
	# WARN_ON()s and min()s of kcompat.h), with a direction never taken.
	"$cov" export -format=text -instr-profile="$out/mbdiff.profdata" "$bin" "$s" |
		python3 -c '
import json, sys
v, src, want = sys.argv[1], sys.argv[2], sys.argv[3].split()
lines = {}
def text(path, n):
    if path not in lines:
        with open(path, errors="replace") as fh:
            lines[path] = fh.read().split("\n")
    return lines[path][n - 1].strip()
for fn in json.load(sys.stdin)["data"][0]["functions"]:
    name = fn["name"].rsplit(":", 1)[-1]
    if name not in want or fn["filenames"][0] != src:
        continue
    # expansion region: its ExpandedFileID -> (FileID, line) of the use
    site = {r[6]: (r[5], r[0]) for r in fn["regions"] if r[7] == 1}
    for b in fn["branches"]:
        line, col, t, f, fid = b[0], b[1], b[4], b[5], b[6]
        if t and f:
            continue
        macro = ""
        if fid:
            macro = " in %s:%d" % (fn["filenames"][fid].rsplit("/", 1)[-1], line)
            while fid in site:
                fid, line = site[fid]
        print("%s %s: memblock.c:%d True %d False %d%s  <- %s" %
              (v, name, line, t, f, macro, text(src, line)))
' "$v" "$s" "${funcs[*]}" >>"$out/unreached.txt"
done
cat "$out/summary.txt"
printf '%s: %d branch direction(s) never taken in these functions: %s\n' "$MBD_PROG" \
	"$(wc -l <"$out/unreached.txt")" "$(mbd_rel "$out/unreached.txt")" >&2
((html == 0)) || printf '%s: HTML report: %s\n' "$MBD_PROG" "$(mbd_rel "$out/html/index.html")" >&2
