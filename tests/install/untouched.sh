# SPDX-License-Identifier: GPL-2.0
# Sourced by the install tests (they define ok and bad): what an
# installed mbdiff may not write, checked against a stamp file.

# untouched SRC HOME STAMP: nothing newer than STAMP in the source tree
# (its build/ and .git aside) or in HOME outside its cache
untouched() {
	local src=$1 home=$2 stamp=$3 new
	new=$(find "$src" \( -path "$src/build" -o -path "$src/.git" \) -prune -o -newer "$stamp" -print | head -n 5)
	[[ -z $new ]] && ok || bad "written into the source tree: $new"
	new=$(find "$home" -mindepth 1 -newer "$stamp" ! -path "$home/.cache*" -print | head -n 5)
	[[ -z $new ]] && ok || bad "written into HOME outside the cache: $new"
}
