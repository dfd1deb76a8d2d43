#!/bin/bash -eu
# SPDX-License-Identifier: GPL-2.0
# OSS-Fuzz / ClusterFuzzLite build script (also runs outside Docker; see
# tests/fuzz/test_ossfuzz_build.sh and docs/ci-fuzzing.md).
#
# Contract: $CC $CFLAGS $LIB_FUZZING_ENGINE $OUT $SRC $WORK as set by the
# base-builder image. Builds with CMake in $WORK/mbdiff-build
# (MBDIFF_FUZZ=ON MBDIFF_OSSFUZZ=ON) and installs into $OUT, per target listed
# in the build's ossfuzz-targets.txt:
#   <target>                 libFuzzer-API binary, variants compiled in
#   <target>_seed_corpus.zip corpus/seeds/*.mbt converted to fuzzer bytes,
#                            each file named by its sha1, minus the seeds
#                            on which the target's variants diverge
#   <target>.dict            corpus/mbdiff.dict
#   <target>.options         [libfuzzer] settings

: "${CC:=clang}" "${CFLAGS:=}" "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}"
: "${OUT:?set OUT}" "${WORK:?set WORK}" "${SRC:=$PWD}"

# In the image the repo is $SRC/mbdiff (Dockerfile); locally SRC may be it.
if [[ -f $SRC/mbdiff/CMakeLists.txt ]]; then
	repo=$SRC/mbdiff
elif [[ -f $SRC/CMakeLists.txt ]]; then
	repo=$SRC
else
	repo=$PWD
fi
build=$WORK/mbdiff-build
mkdir -p "$OUT" "$build"

# CMAKE_BUILD_TYPE=None: $CFLAGS alone decide optimization and debug info.
cmake -S "$repo" -B "$build" \
	-DCMAKE_BUILD_TYPE=None \
	-DCMAKE_C_COMPILER="$CC" \
	-DCMAKE_C_FLAGS="$CFLAGS" \
	-DMBDIFF_FUZZ=ON -DMBDIFF_OSSFUZZ=ON -DMBDIFF_TESTS=OFF \
	-DMBDIFF_FUZZ_ENGINE="$LIB_FUZZING_ENGINE"

manifest=$build/ossfuzz-targets.txt
[[ -s $manifest ]] || { echo "build.sh: no targets in $manifest" >&2; exit 1; }
# What is installed, and mbdiff for the seeds: not the other programs
# (mbdiff-ossfuzz: all of them as one make goal).
cmake --build "$build" -j"$(nproc)" --target mbdiff-ossfuzz

# Seeds: the readable .mbt files become fuzzer bytes once, shared by all
# targets (the byte format does not depend on the variants).
seeds=$WORK/mbdiff-seeds
rm -rf "$seeds" && mkdir -p "$seeds"
export ASAN_OPTIONS=detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}
for f in "$repo"/corpus/seeds/*.mbt; do
	"$build/mbdiff" convert "$f" -o "$seeds/tmp.bin" --to bin
	sum=$(sha1sum "$seeds/tmp.bin" | cut -d' ' -f1)
	mv "$seeds/tmp.bin" "$seeds/$sum"
done

while read -r name variants; do
	[[ -n $name ]] || continue
	cp "$build/ossfuzz/$name" "$OUT/$name"
	# A seed on which this target's variants already diverge is a known
	# finding (corpus/regressions/), not a seed: leave it out, or every
	# run would stop on it at once.
	keep=$WORK/mbdiff-seeds-$name
	rm -rf "$keep" && mkdir -p "$keep"
	for f in "$seeds"/*; do
		rc=0
		"$build/mbdiff" replay --quiet --variants "$variants" "$f" >/dev/null 2>&1 || rc=$?
		case $rc in
		0) cp "$f" "$keep/" ;;
		1) echo "build.sh: $name: seed $(basename "$f") diverges, left out" ;;
		*) echo "build.sh: mbdiff replay failed on $f" >&2; exit 1 ;;
		esac
	done
	rm -f "$OUT/${name}_seed_corpus.zip"
	if compgen -G "$keep/*" >/dev/null; then
		(cd "$keep" && zip -q -j "$OUT/${name}_seed_corpus.zip" ./*)
	fi
	cp "$repo/corpus/mbdiff.dict" "$OUT/$name.dict"
	cat > "$OUT/$name.options" <<OPTS
# variants (compiled in, same as --variants=$variants)
[libfuzzer]
dict = $name.dict
OPTS
	echo "build.sh: $OUT/$name ($variants)"
done < "$manifest"
