#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/import-real.sh [--check] [--mbdiff PATH] [--logs DIR] [--out DIR]
#
# Imports every boot log in DIR (default ../shared/data/memlayouts, or
# $MBDIFF_REAL_LOGS) and in corpus/real-logs with `mbdiff import` into
# OUT/NAME.mbt (default corpus/real; each boot but the last of a log
# of several in OUT/NAME-bootK.mbt), replays each with the model of its
# kernel (its "# model:" line, as `mbdiff replay` without --variants does)
# and records the outcome as the first line:
#     # real-result: ok
#     # real-result: mbdiff: expectation mainline-6.12 memory/layout at op 8 memblock_reserve
# tests/real_replay.sh checks that line. With --check nothing is written:
# exit 1 if any file would change (the importer or the model moved).
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
root=$MBD_ROOT
check=0
mbdiff=${MBDIFF:-$root/build/default/mbdiff}
logs=${MBDIFF_REAL_LOGS:-$root/../shared/data/memlayouts}
out=$root/corpus/real
while (($#)); do
	case $1 in
	--check) check=1; shift ;;
	--mbdiff | --mbdiff=*) mbd_optval "$@"; mbdiff=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--logs | --logs=*) mbd_optval "$@"; logs=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--out | --out=*) mbd_optval "$@"; out=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	*) mbd_usage_error "unknown option '$1'" ;;
	esac
done
[[ -x $mbdiff ]] || mbd_die "no mbdiff at $mbdiff (build first)"
# logs collected since (public bug reports, each with its source URL in its
# header) live in the repository, outside corpus/real (walked for traces)
own=$root/corpus/real-logs
if [[ ! -d $logs ]]; then
	echo "import-real.sh: no log directory $logs" >&2
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
changed=0 n=0
shopt -s nullglob
for log in "$logs"/*.txt "$own"/*.txt; do
	name=$(basename "$log" .txt)
	[[ $name == README ]] && continue
	if ! "$mbdiff" import "$log" -o "$tmp/$name.body.mbt" 2>"$tmp/$name.err"; then
		echo "import-real.sh: $name: $(tail -n 1 "$tmp/$name.err")" >&2
		changed=1
		continue
	fi
	# a log of several boots gives NAME-bootK.mbt for each but the last
	for body in "$tmp/$name".body-boot*.mbt "$tmp/$name.body.mbt"; do
		dest=$name$(basename "$body" .mbt | sed -n 's/^.*\.body\(-boot[0-9]*\)$/\1/p')
		# replayed as a user would: with the model of the log's kernel ("# model:")
		res=$("$mbdiff" replay "$body" 2>&1 |
			grep -E '^mbdiff: (expectation|divergence|oracle) ' | tail -n 1) || true
		{
			echo "# real-result: ${res:-ok}"
			cat "$body"
		} >"$tmp/$dest.mbt"
		n=$((n + 1))
		if ((check)); then
			if ! cmp -s "$tmp/$dest.mbt" "$out/$dest.mbt"; then
				echo "import-real.sh: $out/$dest.mbt is out of date" >&2
				changed=1
			fi
		else
			mv "$tmp/$dest.mbt" "$out/$dest.mbt"
		fi
		printf '%-48s %s\n' "$dest" "${res:-ok}"
	done
done
echo "import-real.sh: $n traces$( ((check)) && echo ", checked")"
exit $changed
