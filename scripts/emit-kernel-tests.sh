#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Usage: scripts/emit-kernel-tests.sh [MBDIFF] [OUTDIR]
#
# Regenerate docs/kernel-tests/ from corpus/regressions/**/*.mbt.
# One <variant>--<name>.c per regression; traces the kernel suite cannot
# model (slab, ...) are skipped with the reason. Stale .c files are removed.
set -euo pipefail
case ${1:-} in
-h | --help) sed -n '3,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
src=$(cd "$(dirname "$0")/.." && pwd)
mbdiff=${1:-$src/build/default/mbdiff}
out=${2:-$src/docs/kernel-tests}
[ -x "$mbdiff" ] || { echo "emit-kernel-tests: no $mbdiff (build first)" >&2; exit 2; }
mkdir -p "$out"
rm -f "$out"/*.c
n=0 skipped=0
for f in $(cd "$src" && find corpus/regressions -name '*.mbt' | LC_ALL=C sort); do
	dir=$(basename "$(dirname "$f")")
	base=$(basename "$f" .mbt)
	name=$(printf 'mbdiff_%s_%s' "$dir" "$base" | tr -c 'A-Za-z0-9_\n' '_')
	patched=$dir
	[ "$dir" = reference ] && patched=none
	if (cd "$src" && "$mbdiff" emit-test "$f" --name "$name" --patched "$patched" \
		-o "$out/$dir--$base.c"); then
		n=$((n + 1))
	else
		echo "emit-kernel-tests: skipped $f" >&2
		skipped=$((skipped + 1))
	fi
done
echo "emit-kernel-tests: $n written to $out, $skipped skipped"
