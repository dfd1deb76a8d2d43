#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_install.sh SOURCE_DIR BUILD_DIR WORK
#
# `cmake --install BUILD --prefix WORK/prefix`, then the installed mbdiff
# alone, run from another directory with HOME in WORK: --version and
# --data-dir (the installed share/mbdiff, not the source tree), `mbdiff
# help check`, `mbdiff explore` with the data dir's default alphabet,
# `mbdiff replay` of an installed corpus file (its recorded signature),
# every script command of `mbdiff help` installed as
# libexec/mbdiff/mbdiff-CMD and answering --help directly and through
# mbdiff, the man pages, the scripts' state under the user's cache; the
# .deb when cpack and dpkg-deb are there. Nothing is written into the
# source tree (build/ aside) or outside WORK.
# Ends with "N passed, N failed".
set -euo pipefail

src=$(realpath "${1:?usage: test_install.sh SOURCE_DIR BUILD_DIR WORK}")
build=$(realpath "${2:?usage: test_install.sh SOURCE_DIR BUILD_DIR WORK}")
work=${3:?usage: test_install.sh SOURCE_DIR BUILD_DIR WORK}
rm -rf "$work"
mkdir -p "$work/home" "$work/elsewhere"
work=$(realpath "$work")
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# shellcheck source=tests/install/untouched.sh
. "$src/tests/install/untouched.sh"

stamp=$work/stamp
touch "$stamp"
sleep 1 # mtimes of one second: what is written after this is newer

prefix=$work/prefix
if cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1; then ok; else
	bad "cmake --install failed: $(tail -n 3 "$work/install.log")"
	echo "$pass passed, $fail failed"
	exit 1
fi
data=$prefix/share/mbdiff
mbdiff=$prefix/bin/mbdiff

# away(CMD...): run in WORK/elsewhere with only the installed files to go by
away() {
	(cd "$work/elsewhere" && env -u MBDIFF -u MBDIFF_DATA -u MBDIFF_SOURCE_DIR -u XDG_CACHE_HOME -u MBDIFF_DEB_CACHE \
		HOME="$work/home" "$@")
}

out=$(away "$mbdiff" --version) && [[ $out =~ ^mbdiff\ [0-9]+\.[0-9]+\.[0-9]+\ \(git\ [^\ ]+\)$ ]] && ok ||
	bad "installed --version: '$out'"
[[ $out == "$("$build/mbdiff" --version)" ]] && ok || bad "installed --version differs from the build's"
out=$(away "$mbdiff" --data-dir) && [[ $out == "$data" ]] && ok || bad "installed --data-dir: '$out', not $data"
[[ -f $data/.mbdiff-installed ]] && ok || bad "no $data/.mbdiff-installed"

out=$(away "$mbdiff" help check) && grep -q '^Usage: mbdiff check ' <<<"$out" && ok ||
	bad "installed 'mbdiff help check': $(head -n 2 <<<"$out")"
out=$(away "$mbdiff" help replay) && grep -q '^  mbdiff replay ' <<<"$out" && ok || bad "installed help replay"

rc=0
away "$mbdiff" explore --depth 1 --quiet -o xp >"$work/explore.log" 2>&1 || rc=$?
((rc == 0)) && grep -q 'over alphabet default ' "$work/explore.log" && [[ -f $work/elsewhere/xp/certificate.txt ]] && ok ||
	bad "installed explore with the default alphabet: exit $rc: $(tail -n 2 "$work/explore.log")"

reg=$data/corpus/regressions/zhou-2025/warns-once-instead-of-twice.mbt
want=$(sed -n 's/^# signature: //p' "$reg")
rc=0
away "$mbdiff" replay --min-class warning --variants reference,zhou-2025 "$reg" >"$work/replay.log" 2>&1 || rc=$?
((rc == 1)) && grep -qxF "$want" "$work/replay.log" && ok ||
	bad "installed replay of $reg: exit $rc, not its signature '$want'"

# every script command: installed, --help through mbdiff and directly
mapfile -t cmds < <(away "$mbdiff" help | awk '/^script commands/ { t = 1; next } t && /^  [a-z]/ { print $1 }')
((${#cmds[@]} >= 10)) && ok || bad "only ${#cmds[@]} script commands in 'mbdiff help'"
for c in "${cmds[@]}"; do
	x=$prefix/libexec/mbdiff/mbdiff-$c
	[[ -x $x ]] && ok || { bad "$x is not installed"; continue; }
	out=$(away "$mbdiff" "$c" --help 2>&1) && grep -q "^Usage: mbdiff $c" <<<"$out" && ok ||
		bad "installed 'mbdiff $c --help': $(head -n 1 <<<"$out")"
	out=$(away "$x" --help 2>&1) && grep -q "^Usage: mbdiff $c" <<<"$out" && ok ||
		bad "$x --help: $(head -n 1 <<<"$out")"
	[[ -f $prefix/share/man/man1/mbdiff-$c.1 ]] && ok || bad "no man page mbdiff-$c.1"
done
for p in mbdiff mbdiff-replay mbdiff-explore; do
	head -n 1 "$prefix/share/man/man1/$p.1" 2>/dev/null | grep -q "^\.TH ${p^^} 1 " && ok || bad "man page $p.1"
done
[[ -f $prefix/share/doc/mbdiff/README.md && -f $prefix/share/doc/mbdiff/install.md ]] && ok ||
	bad "docs not in share/doc/mbdiff"
# a script command's usage error, through the installed entry point
rc=0
out=$(away "$mbdiff" check --no-such-option 2>&1) || rc=$?
((rc == 2)) && [[ $out == "mbdiff check: unknown option '--no-such-option'"$'\n'"try 'mbdiff check --help'" ]] && ok ||
	bad "installed check usage error: exit $rc: $out"

# the scripts, installed, keep their state in the user's cache
state=$(away env MBDIFF_DATA="$data" bash -c '. "$MBDIFF_DATA/scripts/lib.sh"; echo "$MBD_INSTALLED $MBD_BUILD $MBD_OUT $MBDIFF_DEB_CACHE"')
[[ $state == "1 $work/home/.cache/mbdiff/build $work/elsewhere/mbdiff-out $work/home/.cache/mbdiff/debs" ]] && ok ||
	bad "installed lib.sh state: '$state'"
state=$(away env XDG_CACHE_HOME="$work/xdg" MBDIFF_DATA="$data" bash -c '. "$MBDIFF_DATA/scripts/lib.sh"; echo "$MBD_BUILD"')
[[ $state == "$work/xdg/mbdiff/build" ]] && ok || bad "XDG_CACHE_HOME not followed: '$state'"
state=$(bash -c '. "$1/scripts/lib.sh"; echo "$MBD_INSTALLED $MBD_BUILD $MBD_OUT"' _ "$src")
[[ $state == "0 $src/build $src/out" ]] && ok || bad "checkout lib.sh state changed: '$state'"

# the .deb
if command -v cpack >/dev/null && command -v dpkg-deb >/dev/null; then
	if cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/deb" >"$work/cpack.log" 2>&1; then
		deb=$(find "$work/deb" -maxdepth 1 -name 'mbdiff_*.deb' | head -n 1)
		list=$(dpkg-deb -c "$deb" 2>/dev/null || true)
		for f in ./usr/bin/mbdiff ./usr/libexec/mbdiff/mbdiff-check ./usr/share/mbdiff/scripts/lib.sh \
			./usr/share/mbdiff/.mbdiff-installed ./usr/share/man/man1/mbdiff-check.1; do
			grep -q " $f\$" <<<"$list" && ok || bad "$deb has no $f"
		done
	else
		bad "cpack -G DEB failed: $(tail -n 3 "$work/cpack.log")"
	fi
else
	echo "skip: the .deb (no cpack or dpkg-deb)"
fi

# nothing written into the source tree (its build/ aside) or into HOME
# but the cache; the work dir holds all the rest
untouched "$src" "$work/home" "$stamp"

echo "$pass passed, $fail failed"
((fail == 0))
