#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/man.sh [--mbdiff BIN] --out DIR [COMMAND...]
#
# Man pages from the help texts: DIR/mbdiff.1 from `mbdiff help`, and
# DIR/mbdiff-CMD.1 from `mbdiff help CMD` for every command (default: the
# built-in commands and the script commands `mbdiff help` lists). One
# source for both: the text is shown as it is, in a no-fill block. The
# build runs this (target mbdiff-man); `cmake --install` installs DIR.
#
# Options:
#   --mbdiff BIN   the mbdiff to ask (default $MBDIFF, else build/default/mbdiff)
#   -o, --out DIR  where the pages go (created)
#   -h, --help     this text
# Exit: 0 written, 2 bad usage or a command without help.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bin="" out="" cmds=()
while (($#)); do
	case $1 in
	--mbdiff | --mbdiff=*) mbd_optval "$@"; bin=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	-o | --out | --out=*) mbd_optval "$@"; out=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	-*) mbd_usage_error "unknown option '$1'" ;;
	*) cmds+=("$1") ;;
	esac
	shift
done
[[ $out ]] || mbd_usage_error "--out DIR is required"
bin=${bin:-$(mbd_mbdiff)}
mbd_require_bin "$bin" default

all=$("$bin" help)
if ((${#cmds[@]} == 0)); then
	# "  mbdiff NAME ..." synopses, then the script table's "  NAME  summary"
	mapfile -t cmds < <(awk '/^script commands/ { t = 1; next }
		t && /^  [a-z]/ { print $1; next }
		!t && /^  mbdiff [a-z]/ { print $2 }' <<<"$all")
fi
version=$("$bin" --version | sed 's/^mbdiff //')

# page NAME TITLE TEXT: troff with the text verbatim (backslashes and
# leading dots escaped)
page() {
	local name=$1 title=$2 text=$3
	{
		printf '.TH %s 1 "" "mbdiff %s" "mbdiff manual"\n' "${name^^}" "$version"
		printf '.SH NAME\n%s \\- %s\n' "$name" "$title"
		printf '.SH DESCRIPTION\n.nf\n'
		sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/" <<<"$text"
		printf '.fi\n.SH SEE ALSO\nmbdiff(1), docs/install.md\n'
	} >"$out/$name.1"
}

mkdir -p "$out"
page mbdiff "differential fuzzing of Linux memblock insertion algorithms" "$all"
for c in "${cmds[@]}"; do
	text=$("$bin" help "$c" 2>&1) || mbd_die "mbdiff help $c failed: $(tail -n 1 <<<"$text")"
	title=$(awk -v c="$c" '/^script commands/ { t = 1 }
		t && $1 == c { $1 = ""; sub(/^ +/, ""); print; exit }' <<<"$all")
	page "mbdiff-$c" "${title:-the mbdiff $c command}" "$text"
done
mbd_log "$((${#cmds[@]} + 1)) pages in $out"
