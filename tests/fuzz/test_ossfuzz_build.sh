#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs .clusterfuzzlite/build.sh as OSS-Fuzz would (without Docker) and
# checks what it installs: every target with its seed zip, dict and options,
# the variants compiled into each binary, and each seed zip replayed clean
# by its own target (-runs=0). Exit 77 (skip) without clang or zip.
set -uo pipefail
src=${MBDIFF_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
work=
for a in "$@"; do
	case $a in
	--work=*) work=${a#--work=} ;;
	*) echo "usage: $0 [--work=DIR]" >&2; exit 2 ;;
	esac
done
[[ -n $work ]] || work=$(mktemp -d)
for t in clang zip unzip cmake; do
	command -v "$t" >/dev/null || { echo "SKIP: $t not installed"; exit 77; }
done

pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

rm -rf "$work" && mkdir -p "$work/out" "$work/work"
# The flags OSS-Fuzz's compile gives an ASan libFuzzer build: base-clang's
# CFLAGS, then SANITIZER_FLAGS_address and COVERAGE_FLAGS. Line tables, not
# full -g: the same stack traces, a fifth less compiling.
cflags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
cflags+=" -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
if CC=clang CFLAGS="$cflags" \
	LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
	OUT="$work/out" WORK="$work/work" SRC="$src" \
	bash "$src/.clusterfuzzlite/build.sh" >"$work/build.log" 2>&1; then
	ok "build.sh exit 0"
else
	bad "build.sh failed; last lines of $work/build.log:"
	tail -20 "$work/build.log"
	echo "$pass passed, $fail failed"
	exit 1
fi

# The targets the issue asks for, with the variants they must run.
# mbdiff_all: the references, then every patch in name order (no mutants).
all="reference~reference-twin"
for p in $(ls "$src"/algorithms/patches/*.patch 2>/dev/null | LC_ALL=C sort); do
	all+="~$(basename "$p" .patch)"
done
declare -A want=(
	[mbdiff_reference_zhou_2025]="reference~zhou-2025"
	[mbdiff_all]="$all"
)
nseeds=$(ls "$src"/corpus/seeds/*.mbt | wc -l)
export ASAN_OPTIONS=detect_leaks=0
for t in "${!want[@]}"; do
	bin=$work/out/$t
	[[ -x $bin ]] && ok "$t installed" || { bad "$t missing"; continue; }
	for f in "$t.dict" "$t.options" "${t}_seed_corpus.zip"; do
		[[ -s $work/out/$f ]] && ok "$f present" || bad "$f missing or empty"
	done
	cmp -s "$src/corpus/mbdiff.dict" "$work/out/$t.dict" && ok "$t.dict is corpus/mbdiff.dict" ||
		bad "$t.dict differs from corpus/mbdiff.dict"
	# configparser is what the OSS-Fuzz runner reads .options with.
	python3 - "$work/out/$t.options" "$t.dict" <<'PY' && ok "$t.options parses, dict set" || bad "$t.options"
import configparser, sys
c = configparser.ConfigParser()
c.read(sys.argv[1])
sys.exit(0 if c.get("libfuzzer", "dict") == sys.argv[2] else 1)
PY
	corp=$work/corpus-$t
	rm -rf "$corp" && mkdir -p "$corp"
	unzip -q "$work/out/${t}_seed_corpus.zip" -d "$corp"
	n=$(ls "$corp" | wc -l)
	# Seeds left out must be exactly those on which the target diverges:
	# each one named in the log makes the binary crash.
	mapfile -t out < <(sed -n "s/^build.sh: $t: seed \([0-9a-f]*\) diverges, left out$/\1/p" "$work/build.log")
	((n >= 1 && n + ${#out[@]} == nseeds)) && ok "$t: $n of $nseeds seeds in the zip, ${#out[@]} left out" ||
		bad "$t: $n seeds in the zip + ${#out[@]} left out != $nseeds"
	for sum in "${out[@]}"; do
		if "$bin" -runs=0 "$work/work/mbdiff-seeds/$sum" >/dev/null 2>&1; then
			bad "$t: left-out seed $sum does not crash the target"
		else
			ok "$t: left-out seed $sum crashes the target"
		fi
	done
	for f in "$corp"/*; do
		[[ $(basename "$f") == $(sha1sum "$f" | cut -d' ' -f1) ]] || { bad "$f not named by sha1"; break; }
	done
	log=$work/replay-$t.log
	if "$bin" -runs=0 "$corp" >"$log" 2>&1; then
		ok "$t replays its seed zip clean (-runs=0)"
	else
		bad "$t -runs=0 on its seeds failed:"; tail -5 "$log"
	fi
	grep -q "fuzz target ${want[$t]}," "$log" && ok "$t runs ${want[$t]} with no options" ||
		bad "$t does not run ${want[$t]}: $(grep -m1 'fuzz target' "$log")"
	# The seed format is shared: every converted seed must be one the
	# engine reads (INITED with the whole corpus).
	grep -q "INITED" "$log" && ok "$t: libFuzzer INITED" || bad "$t: no INITED line"
done

# Baked variants are a default: --variants still overrides them.
if "$work/out/mbdiff_all" --variants=reference,reference-twin -runs=0 "$work/corpus-mbdiff_all" \
	>"$work/override.log" 2>&1 && grep -q "fuzz target reference~reference-twin," "$work/override.log"; then
	ok "--variants overrides the compiled-in list"
else
	bad "--variants override: $(tail -2 "$work/override.log")"
fi
echo "$pass passed, $fail failed"
((fail == 0))
