#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/algorithms/test_kernel_variant_presets.sh --src=DIR --work=DIR
#
# One registration serves every preset: scripts/kernel-variant.sh without
# --preset or --build-dir writes the entry into each user preset's
# kernel-variants.txt (CMakePresets.json, hidden ones left out),
# reconfigures the builds that exist and the default one, and leaves the
# others to read the list when they are first configured; --list shows
# each entry once with the presets that lack it; --remove takes it out of
# every build; --preset and --build-dir still touch that build alone.
# The project is a throwaway copy (MBDIFF_DATA) and cmake a stand-in that
# logs its arguments, so nothing is built.
set -uo pipefail

src="" work=""
for a in "$@"; do
	case $a in
	--src=*) src=${a#*=} ;;
	--work=*) work=${a#*=} ;;
	*) echo "unknown argument $a" >&2; exit 2 ;;
	esac
done
[[ $src && $work ]] || { echo "need --src --work" >&2; exit 2; }
command -v jq >/dev/null || { echo "jq not installed: skipped"; exit 77; }

pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

rm -rf "$work"
mkdir -p "$work/root" "$work/bin" "$work/tree/mm" "$work/tree/include/linux"
cp "$src/CMakePresets.json" "$work/root/"
printf 'VERSION = 7\nPATCHLEVEL = 3\n' >"$work/tree/Makefile"
: >"$work/tree/mm/memblock.c"
: >"$work/tree/include/linux/memblock.h"
# the stand-in cmake: one line per call, the arguments and where it ran
cat >"$work/bin/cmake" <<EOF
#!/usr/bin/env bash
printf '%s|%s\n' "\$PWD" "\$*" >>"$work/cmake.log"
EOF
chmod +x "$work/bin/cmake"
export MBDIFF_DATA=$work/root PATH=$work/bin:$PATH
kv() { bash "$src/scripts/kernel-variant.sh" "$@"; }
b=$work/root/build
presets=$(jq -r '.configurePresets[] | select((.hidden // false) | not) | .name' "$src/CMakePresets.json")
npresets=$(wc -w <<<"$presets")
((npresets >= 3)) && ok "$npresets user presets in CMakePresets.json" ||
	bad "CMakePresets.json lists $npresets user presets"

# fuzz is configured already, asan not
mkdir -p "$b/fuzz" && : >"$b/fuzz/CMakeCache.txt"
if kv --tree "$work/tree" --name mine >"$work/add.log" 2>&1; then
	miss=""
	for p in $presets; do
		grep -qx "mine=$work/tree" "$b/$p/kernel-variants.txt" 2>/dev/null || miss+=" $p"
	done
	[[ -z $miss ]] && ok "one registration lands in every preset's list" ||
		bad "kernel:mine missing from:$miss ($(cat "$work/add.log"))"
	grep -qx "$work/root|--preset default -B $b/default" "$work/cmake.log" &&
		ok "the default build is configured" || bad "default not configured: $(cat "$work/cmake.log")"
	grep -qx ".*|$b/fuzz" "$work/cmake.log" &&
		ok "the fuzz build, configured before, is reconfigured" || bad "fuzz not reconfigured: $(cat "$work/cmake.log")"
	grep -q -- "-B $b/asan\|$b/asan\$" "$work/cmake.log" &&
		bad "asan was configured though it never was before" || ok "an unconfigured preset is left to read its list later"
else
	bad "kernel-variant.sh --tree failed: $(cat "$work/add.log")"
fi

# one preset alone
rm -f "$work/cmake.log"
kv --preset fuzz --tree "$work/tree" --name fuzzonly --no-configure >/dev/null 2>&1
grep -qx "fuzzonly=$work/tree" "$b/fuzz/kernel-variants.txt" && ! grep -q fuzzonly "$b/default/kernel-variants.txt" &&
	ok "--preset fuzz registers in that build only" || bad "--preset fuzz wrote elsewhere or nowhere"
[[ ! -e $work/cmake.log ]] && ok "--no-configure runs no cmake" || bad "--no-configure ran cmake: $(cat "$work/cmake.log")"
kv --build-dir "$work/own" --tree "$work/tree" --name owndir --no-configure >/dev/null 2>&1
grep -qx "owndir=$work/tree" "$work/own/kernel-variants.txt" && ! grep -rq owndir "$b" &&
	ok "--build-dir registers in that directory only" || bad "--build-dir wrote elsewhere or nowhere"

# --list: every entry once; a partial one names the presets lacking it
out=$(kv --list 2>&1)
others=$(grep -vx fuzz <<<"$presets" | paste -sd, | sed 's/,/, /g')
[[ $(grep -c '^kernel:mine=' <<<"$out") == 1 ]] && ! grep -q '^kernel:mine=.*not in' <<<"$out" &&
	ok "--list shows a full registration once, unqualified" || bad "--list: $out"
grep -qx "kernel:fuzzonly=$work/tree  (not in: $others)" <<<"$out" &&
	ok "--list names the presets a partial registration lacks" || bad "--list: $out (want not in: $others)"
[[ $(kv --list --preset fuzz 2>&1 | sort | paste -sd' ') == "kernel:fuzzonly=$work/tree kernel:mine=$work/tree" ]] &&
	ok "--list --preset fuzz lists that build's entries" || bad "--list --preset fuzz: $(kv --list --preset fuzz 2>&1)"

# re-registering replaces the entry, it does not add a second one
kv --tree "$work/tree" --name mine --no-configure >/dev/null 2>&1
[[ $(grep -c '^mine=' "$b/default/kernel-variants.txt") == 1 ]] &&
	ok "registering a name again replaces its entry" || bad "duplicate entries: $(cat "$b/default/kernel-variants.txt")"

# --remove from every build
kv --remove mine --no-configure >/dev/null 2>&1
left=$(grep -l '^mine=' "$b"/*/kernel-variants.txt 2>/dev/null)
[[ -z $left ]] && ok "--remove takes the entry out of every preset's list" || bad "still in: $left"
grep -qx "fuzzonly=$work/tree" "$b/fuzz/kernel-variants.txt" &&
	ok "--remove leaves the other entries" || bad "--remove took fuzzonly too"

# both selectors: a usage error (exit 2), nothing written
before=$(cat "$b"/*/kernel-variants.txt | md5sum)
kv --preset fuzz --build-dir "$work/own" --tree "$work/tree" --name both >"$work/both.log" 2>&1
rc=$?
[[ $rc == 2 && $(cat "$b"/*/kernel-variants.txt | md5sum) == "$before" ]] && grep -q 'give one' "$work/both.log" &&
	ok "--preset with --build-dir: exit 2, one line, nothing written" || bad "both selectors: rc $rc, $(cat "$work/both.log")"

echo "$pass passed, $fail failed"
((fail == 0))
