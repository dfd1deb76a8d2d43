#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/emit-kernel-tests.sh [--mbdiff PATH] [--out DIR] [MBDIFF [OUTDIR]]
#
# Regenerate docs/kernel-tests/ (or DIR) from corpus/regressions/**/*.mbt:
# one <variant>--<name>.c per regression, written by `mbdiff emit-test`;
# traces the kernel suite cannot model (slab, ...) are skipped with the
# reason.
#
# Files this script wrote are listed in DIR/.emit-kernel-tests.list; a
# rerun removes the listed ones it no longer writes (stale tests) and
# nothing else, so DIR may hold other files.
#
# Options:
#   --mbdiff PATH   the CLI (default build/default/mbdiff, or $MBDIFF)
#   --out DIR       output directory (default docs/kernel-tests)
#   -h, --help      this text
# Exit status: 0 done (skipped traces included), 2 bad usage or an error.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

src=$MBD_ROOT
mbdiff=$(mbd_mbdiff)
out=$src/docs/kernel-tests
pos=()
while (($#)); do
	case $1 in
	--mbdiff | --mbdiff=*) mbd_optval "$@"; mbdiff=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--out | --out=*) mbd_optval "$@"; out=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	-?*) mbd_usage_error "unknown option '$1'" ;;
	*) pos+=("$1"); shift ;;
	esac
done
if ((${#pos[@]} > 2)); then mbd_usage_error "at most two arguments: MBDIFF OUTDIR"; fi
if ((${#pos[@]} >= 1)); then mbdiff=${pos[0]}; fi
if ((${#pos[@]} == 2)); then out=${pos[1]}; fi
[[ -x $mbdiff ]] || mbd_die "no $mbdiff (build first)"
mbdiff=$(mbd_abs "$mbdiff")
out=$(mbd_abs "$out")
if [[ -e $out && ! -d $out ]]; then mbd_die "$out exists and is not a directory"; fi
mkdir -p -- "$out" || mbd_die "cannot create $out"

list=$out/.emit-kernel-tests.list
declare -A wrote=()
n=0 skipped=0
while IFS= read -r f; do
	dir=$(basename "$(dirname "$f")")
	base=$(basename "$f" .mbt)
	name=$(printf 'mbdiff_%s_%s' "$dir" "$base" | tr -c 'A-Za-z0-9_\n' '_')
	patched=$dir
	if [[ $dir == reference ]]; then patched=none; fi
	if (cd "$src" && "$mbdiff" emit-test "$f" --name "$name" --patched "$patched" \
		-o "$out/$dir--$base.c"); then
		n=$((n + 1))
		wrote[$dir--$base.c]=1
	else
		mbd_warn "skipped $f"
		skipped=$((skipped + 1))
	fi
done < <(cd "$src" && find corpus/regressions -name '*.mbt' | LC_ALL=C sort)

# Stale: listed by an earlier run, not written now. Only plain names of
# regular files directly in OUT are touched.
if [[ -f $list ]]; then
	while IFS= read -r old; do
		[[ $old =~ ^[A-Za-z0-9._-]+\.c$ ]] || continue
		if [[ -z ${wrote[$old]:-} && -f $out/$old && ! -L $out/$old ]]; then
			rm -f -- "$out/$old"
			mbd_log "removed stale $old"
		fi
	done <"$list"
fi
printf '%s\n' "${!wrote[@]}" | LC_ALL=C sort | sed '/^$/d' >"$list.tmp"
mv -f -- "$list.tmp" "$list"
mbd_log "$n written to $(mbd_rel "$out"), $skipped skipped"
