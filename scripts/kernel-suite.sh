#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/kernel-suite.sh --version V [--patch P]... [--numa 0|1|both]
#                                [--work DIR] [--deb-cache DIR]
#                                [--apt-dir DIR] TEST.c...
#        scripts/kernel-suite.sh --version V --print-src [--work DIR] ...
#
# Run tests written by `mbdiff emit-test` in the kernel's REAL
# tools/testing/memblock suite, taken from Debian's linux-source-V
# package: the suite is built as the kernel ships it (its Makefile, its
# mm/memblock.c), once as it is ("base") and once with the patches P
# applied to mm/memblock.c ("patched"; without --patch, base only), with
# NUMA=1 and without (--numa). Each test runs in its own process: the
# suite's main.c is replaced by a main() that calls the one test's
# NAME_checks() that MBDIFF_TEST names, so a failing ASSERT hides nothing
# else. All the tests go into one ./main per build (one make, not one per
# test); when their names clash, or that build fails, each test is built
# alone, which names the one that does not build.
#
# Prints one line per test, build and side:
#   TEST numa=N base=pass|fail|not-run patched=pass|fail|not-run
# ("not-run": the test says it needs NUMA=1). Exit 0 when every test
# passes on base and (with --patch) fails on patched in the NUMA=1 build,
# 1 otherwise, 2 on bad input, 77 when the package or liburcu cannot be
# had (tests skip on it).
#
# Needs: the .deb (--deb-cache or $MBDIFF_DEB_CACHE, else fetched with
# scripts/get-kernel-tree.sh into DIR/debs), liburcu headers (the host's,
# else liburcu-dev fetched through get-kernel-tree.sh's private apt
# configuration, --apt-dir, default build/apt), cc with ASan and UBSan.
# Nothing else lands in the source tree (default --work build/kernel-suite).
#
# --print-src: only extract the suite (and find liburcu), then print two
# lines, "src=DIR" (the unpatched linux-V tree holding tools/testing/memblock)
# and "cflags=FLAGS" (what make needs in CFLAGS), for scripts that build the
# suite's own main (scripts/upstream-proof.sh).
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

version="" numa=both work=$MBD_BUILD/kernel-suite debs=${MBDIFF_DEB_CACHE:-}
aptdir=$MBD_BUILD/apt
patches=() tests=() print_src=0
while (($#)); do
	case $1 in
	--version | --version=*) mbd_optval "$@"; version=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--patch | --patch=*) mbd_optval "$@"; patches+=("$(mbd_abs "$MBD_OPTVAL")"); shift "$((MBD_SHIFT - 1))" ;;
	--numa | --numa=*) mbd_optval "$@"; numa=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--work | --work=*) mbd_optval "$@"; work=$(mbd_abs "$MBD_OPTVAL"); shift "$((MBD_SHIFT - 1))" ;;
	--deb-cache | --deb-cache=*) mbd_optval "$@"; debs=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--apt-dir | --apt-dir=*) mbd_optval "$@"; aptdir=$(mbd_abs "$MBD_OPTVAL"); shift "$((MBD_SHIFT - 1))" ;;
	--print-src) print_src=1 ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	-*) mbd_usage_error "unknown option '$1'" ;;
	*) tests+=("$(mbd_abs "$1")") ;;
	esac
	shift
done
[[ $version =~ ^[0-9]+\.[0-9]+$ ]] || mbd_usage_error "--version V (e.g. 6.12) is required"
case $numa in 0) numas=(0) ;; 1) numas=(1) ;; both) numas=(1 0) ;; *) mbd_usage_error "--numa 0, 1 or both" ;; esac
((${#tests[@]} || print_src)) || mbd_usage_error "no TEST.c given"
for t in "${tests[@]}" "${patches[@]+"${patches[@]}"}"; do
	[[ -f $t ]] || { printf '%s: error: %s: no such file\n' "$MBD_PROG" "$t" >&2; exit 2; }
done
skip() { printf '%s: skipped: %s\n' "$MBD_PROG" "$*" >&2; exit 77; }

mkdir -p "$work"
src=$work/linux-$version
members=(tools/include tools/lib tools/arch tools/scripts tools/testing/memblock
	tools/testing/selftests/kselftest.h include/linux/memblock.h include/linux/gfp_types.h
	include/linux/numa.h include/linux/kconfig.h include/linux/pci_ids.h mm/memblock.c
	scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch)

# ---- the suite's sources, from the .deb --------------------------------------
# (a tree extracted before checkpatch.pl was a member is extracted again)
if [[ ! -f $src/tools/testing/memblock/Makefile || ! -f $src/scripts/checkpatch.pl ]]; then
	deb=""
	[[ $debs ]] && deb=$(find "$debs" -maxdepth 1 -name "linux-source-${version}_*_all.deb" | sort | tail -n 1)
	if [[ ! $deb ]]; then
		mkdir -p "$work/debs"
		bash "$MBD_ROOT/scripts/get-kernel-tree.sh" --version "$version" --deb-cache "$work/debs" \
			--dest "$work/trees" --apt-dir "$aptdir" --force >/dev/null 2>"$work/get.log" ||
			skip "linux-source-$version cannot be had: $(tail -n 1 "$work/get.log")"
		deb=$(find "$work/debs" -maxdepth 1 -name "linux-source-${version}_*_all.deb" | sort | tail -n 1)
		[[ $deb ]] || skip "no linux-source-$version .deb after fetching"
	fi
	mbd_log "extracting the suite from $(basename "$deb")"
	tmp=$work/.x
	rm -rf "$tmp"
	mkdir -p "$tmp"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/linux-source-$version.tar.xz" | xz -dc |
		tar -x -C "$tmp" "${members[@]/#/linux-source-$version/}" 2>"$work/tar.log" ||
		{ grep -v 'Not found in archive\|Exiting with failure' "$work/tar.log" | head -n 3 >&2 || true; }
	[[ -f $tmp/linux-source-$version/tools/testing/memblock/Makefile ]] ||
		skip "linux-source-$version has no tools/testing/memblock"
	rm -rf "$src"
	mv "$tmp/linux-source-$version" "$src"
	rm -rf "$tmp"
fi

# ---- liburcu headers -------------------------------------------------------------
urcu_flags=()
if [[ ! -f /usr/include/urcu/uatomic.h && ! -f /usr/include/x86_64-linux-gnu/urcu/uatomic.h ]]; then
	u=$work/urcu
	if [[ ! -d $u/root/usr/include ]]; then
		apt=$aptdir
		[[ -f $apt/etc/sources.list ]] || skip "no liburcu-dev, and no private apt configuration in $apt (run scripts/get-kernel-tree.sh once)"
		O=(-o "Dir::Etc::sourcelist=$apt/etc/sources.list" -o Dir::Etc::sourceparts=/nonexistent
			-o "Dir::State::lists=$apt/lists" -o "Dir::Cache=$apt/cache")
		[[ -f $apt/etc/trusted.gpg ]] && O+=(-o "Dir::Etc::trusted=$apt/etc/trusted.gpg")
		mkdir -p "$u"
		(cd "$u" && apt-get "${O[@]}" download liburcu-dev >"$u/get.log" 2>&1) ||
			skip "liburcu-dev cannot be had: $(tail -n 1 "$u/get.log")"
		for d in "$u"/*.deb; do dpkg-deb -x "$d" "$u/root"; done
	fi
	urcu_flags=("-I$u/root/usr/include" "-I$u/root/usr/include/x86_64-linux-gnu")
fi

if ((print_src)); then
	printf 'src=%s\ncflags=%s\n' "$src" "${urcu_flags[*]}"
	exit 0
fi

# ---- one suite copy per side and NUMA setting ------------------------------------
# copy SIDE NUMA: the suite with SIDE's mm/memblock.c, its objects built
prepare() {
	local side=$1 n=$2 d=$work/$side-numa$2 p want=()
	# what the copy was made with: base none, patched the patches' text
	[[ $side == patched ]] && want=("${patches[@]}")
	if [[ ! -f $d/.ready ]] || ! cmp -s "$d/.patches" <(cat /dev/null "${want[@]+"${want[@]}"}"); then
		rm -rf "$d"
		cp -r "$src" "$d"
		if [[ $side == patched ]]; then
			for p in "${patches[@]}"; do
				patch -p1 -s --batch --no-backup-if-mismatch -d "$d" -i "$p" >"$d.patch.log" 2>&1 || {
					printf '%s: error: %s does not apply to linux-%s: %s\n' "$MBD_PROG" "$p" \
						"$version" "$(head -n 2 "$d.patch.log")" >&2
					exit 2
				}
			done
		fi
		cat /dev/null "${want[@]+"${want[@]}"}" >"$d/.patches"
		touch "$d/.ready"
	fi
	printf '%s\n' "$d"
}

# test_name TEST.c: its NAME (of "int NAME_checks(void)")
test_name() {
	local name
	name=$(sed -n 's/^int \(mbdiff_[A-Za-z0-9_]*\)_checks(void)$/\1/p' "$1" | head -n 1)
	[[ $name ]] || { printf '%s: error: %s: no "int mbdiff_..._checks(void)"\n' "$MBD_PROG" "$1" >&2; exit 2; }
	printf '%s\n' "$name"
}

# build DIR NUMA TEST.c...: one ./main holding those tests, test K (from 0)
# run by MBDIFF_TEST=K; 0 built, 1 not
build() {
	local d=$1 n=$2 orig m=$1/tools/testing/memblock i=0 t name objs="" decls="" calls=""
	shift 2
	rm -f "$m"/tests/mbd_test_*.c "$m"/tests/mbd_test_*.o
	for t in "$@"; do
		name=$(test_name "$t")
		cp "$t" "$m/tests/mbd_test_$i.c"
		objs+=" tests/mbd_test_$i.o"
		decls+="int ${name}_checks(void);"$'\n'
		calls+="	case $i: ${name}_checks(); break;"$'\n'
		i=$((i + 1))
	done
	# our main(): the suite's argument parsing, then the one test named
	cat >"$m/main.c" <<-EOF
	// SPDX-License-Identifier: GPL-2.0
	/* Written by mbdiff scripts/kernel-suite.sh: one test per process. */
	#include <stdlib.h>
	#include "tests/common.h"

	${decls}
	int main(int argc, char **argv)
	{
		const char *k = getenv("MBDIFF_TEST");

		parse_args(argc, argv);
		switch (k ? atoi(k) : -1) {
	${calls}	default: return 2;
		}
		return 0;
	}
	EOF
	# the suite's own test objects (a variable continued with backslashes)
	orig=$(awk '/^TEST_OFILES[ \t]*=/ { f = 1; sub(/^TEST_OFILES[ \t]*=/, "") }
		f { c = sub(/\\$/, ""); printf "%s ", $0; if (!c) exit }' "$m/Makefile")
	rm -f "$m/main" "$m/main.o"
	CFLAGS="${urcu_flags[*]}" nice -n 10 make -s -C "$m" -j2 NUMA="$n" \
		TEST_OFILES="$orig$objs" main >"$m/build.log" 2>&1
}

# run_test DIR K: pass, fail or not-run (K of the last build)
run_test() {
	local m=$1/tools/testing/memblock out
	if out=$(cd "$m" && MBDIFF_TEST=$2 ./main -v 2>&1); then
		if grep -q 'not run, its calls need NUMA=1' <<<"$out"; then echo not-run; else echo pass; fi
	else
		printf '%s\n' "$out" | grep -m 2 -iE 'assert|fail' >"$work/last-failure.txt" || true
		echo fail
	fi
}

failed=0
declare -A dirs=() res=()
for t in "${tests[@]}"; do test_name "$t" >/dev/null; done # exit 2 on a file with no test
# one build for all the tests unless two share a name
together=1
[[ $(for t in "${tests[@]}"; do test_name "$t"; done | sort | uniq -d) ]] && together=0
sides=(base)
((${#patches[@]})) && sides+=(patched)
for n in "${numas[@]}"; do
	for side in "${sides[@]}"; do
		dirs[$side]=$(prepare "$side" "$n") || exit 2
		d=${dirs[$side]}
		if ((together)) && build "$d" "$n" "${tests[@]}"; then
			for ((i = 0; i < ${#tests[@]}; i++)); do res[$side:$i]=$(run_test "$d" "$i"); done
			continue
		fi
		for ((i = 0; i < ${#tests[@]}; i++)); do
			t=${tests[$i]}
			if ! build "$d" "$n" "$t"; then
				grep -m 3 -E 'error|Error' "$d/tools/testing/memblock/build.log" >&2 || true
				printf '%s: error: the suite does not build with %s (numa=%s, %s): %s\n' "$MBD_PROG" \
					"$(basename "$t")" "$n" "$side" "$d/tools/testing/memblock/build.log" >&2
				exit 1
			fi
			res[$side:$i]=$(run_test "$d" 0)
		done
	done
	for ((i = 0; i < ${#tests[@]}; i++)); do
		t=${tests[$i]}
		line="$(basename "$t" .c) numa=$n"
		for side in "${sides[@]}"; do
			r=${res[$side:$i]}
			line+=" $side=$r"
			case $side:$r in
			base:fail) failed=1 ;;
			patched:pass)
				# unless its header says the shift hides the difference
				if ((n == 1)) && ! grep -q 'this test passes there too' "$t"; then failed=1; fi
				;;
			esac
		done
		printf '%s\n' "$line"
	done
done
exit "$failed"
