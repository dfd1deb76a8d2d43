#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/get-kernel-tree.sh [--version V]... [--dest DIR] [--deb-cache DIR]
#                                   [--apt-dir DIR] [--update] [--force] [--print] [--available]
#
# Fetch a real kernel's mm/memblock.c and include/linux/memblock.h from
# Debian's linux-source-V package and lay them out as a minimal kernel
# tree (plus the top-level Makefile, which names the exact release):
#
#   DIR/linux-V/mm/memblock.c
#   DIR/linux-V/include/linux/memblock.h
#   DIR/linux-V/Makefile
#   DIR/linux-V/SOURCE         which .deb it came from
#
# For machines without a kernel checkout: the trees are what
# scripts/kernel-variant.sh --tree takes, and what scripts/test.sh uses for
# the kernel-variant/real-* tests. Nothing lands in the source tree (the
# default DIR, build/kernel-trees, is ignored by git). A tree that is
# already there is kept unless --force.
#
# The package comes from the Debian archive through a private apt
# configuration in build/apt (its own sources list of every Debian suite
# that carries kernel sources, its own package lists and cache), so the
# host's apt sources are never read or changed and no root is needed. The
# lists are refreshed when they are missing or older than a day (or with
# --update). Debian 10 "buster" (linux-source-4.19) and older are no
# longer on deb.debian.org: asking for them fails with a line saying so.
#
# Each package is about 150 MB. With a .deb cache (--deb-cache DIR or
# $MBDIFF_DEB_CACHE) a linux-source-V_*.deb already there is used without
# any network access, and a download is kept there for the next run;
# without one the download goes to a temporary folder and is deleted.
#
# Options:
#   --version V      Debian's linux-source-V, e.g. 7.3 (default: the trees
#                    the tests pin, tests/algorithms/kernel-trees/V.expected:
#                    5.10 6.1 6.12 7.3); repeat for several
#   --dest DIR       where to put linux-V/ (default: build/kernel-trees)
#   --deb-cache DIR  where .debs are looked up and kept (default:
#                    $MBDIFF_DEB_CACHE, else none; installed: the
#                    cache's debs/)
#   --apt-dir DIR    the private apt configuration (default: build/apt)
#   --update         refresh the package lists first
#   --force          fetch again even if the tree is there
#   --print          only print the tree paths that exist (nothing is fetched)
#   --available      list the linux-source versions the archive has, and exit
#   -h, --help       this text
# Environment: MBDIFF_DEBIAN_MIRROR (default http://deb.debian.org/debian).
# Prints one tree path a line on stdout. Exits 1 if a package cannot be had.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

versions=()
dest=$MBD_BUILD/kernel-trees
debs=${MBDIFF_DEB_CACHE:-}
aptdir=$MBD_BUILD/apt
force=0
print_only=0
update=0
available=0
while (($#)); do
	case $1 in
	--version | --version=*) mbd_optval "$@"; versions+=("$MBD_OPTVAL"); shift "$((MBD_SHIFT - 1))" ;;
	--dest | --dest=*) mbd_optval "$@"; dest=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--deb-cache | --deb-cache=*) mbd_optval "$@"; debs=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--apt-dir | --apt-dir=*) mbd_optval "$@"; aptdir=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--update) update=1 ;;
	--force) force=1 ;;
	--print) print_only=1 ;;
	--available) available=1 ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
	shift
done
# by default the trees the tests pin (tests/algorithms/kernel-trees/V.expected)
if ((${#versions[@]} == 0)); then
	mapfile -t versions < <(find "$MBD_ROOT/tests/algorithms/kernel-trees" -maxdepth 1 -name '*.expected' -printf '%f\n' 2>/dev/null |
		sed 's/\.expected$//' | sort -V)
	((${#versions[@]})) || mbd_usage_error "no --version given and no tests/algorithms/kernel-trees/V.expected"
fi
for v in "${versions[@]}"; do
	[[ $v =~ ^[0-9]+\.[0-9]+$ ]] || mbd_usage_error "--version '$v' must look like 6.12"
done
dest=$(mbd_abs "$dest")
aptdir=$(mbd_abs "$aptdir")
[[ -z $debs ]] || debs=$(mbd_abs "$debs")

files=(Makefile include/linux/memblock.h mm/memblock.c)

have_tree() {
	local f
	for f in "${files[@]}"; do
		[[ -s $1/$f ]] || return 1
	done
}

# ---- the private apt configuration ---------------------------------------

# The suites of deb.debian.org that carry linux-source packages (2026-12-03:
# bullseye 5.10, bookworm 6.1, trixie 6.12, trixie-backports 7.3, sid and
# forky 7.2, experimental release candidates).
suites=(bullseye bookworm bookworm-backports trixie trixie-backports forky sid experimental)
mirror=${MBDIFF_DEBIAN_MIRROR:-http://deb.debian.org/debian}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

apt_opts=(
	-o "Dir::Etc::sourcelist=$aptdir/etc/sources.list"
	-o "Dir::Etc::sourceparts=$aptdir/etc/sources.list.d"
	-o "Dir::State::lists=$aptdir/lists"
	-o "Dir::Cache=$aptdir/cache"
	# kept (hosts often switch it off): 11 s saved on every later call
	-o "Dir::Cache::pkgcache=pkgcache.bin"
	-o "Acquire::Languages=none"
	# our own folders: no need to hand the download to the _apt user
	-o "APT::Sandbox::User=$(id -un)"
	-o "Debug::NoLocking=1"
)

apt_config() {
	local trust s
	mkdir -p "$aptdir/etc/sources.list.d" "$aptdir/lists/partial" "$aptdir/cache/archives/partial"
	if [[ -r $keyring ]]; then
		trust="signed-by=$keyring"
	else
		mbd_warn "$keyring not found (package debian-archive-keyring): the archive is trusted unchecked"
		trust="trusted=yes"
	fi
	{
		printf '# written by scripts/get-kernel-tree.sh; the host apt sources are not used\n'
		for s in "${suites[@]}"; do printf 'deb [%s] %s %s main\n' "$trust" "$mirror" "$s"; done
	} >"$aptdir/etc/sources.list.new"
	if cmp -s "$aptdir/etc/sources.list.new" "$aptdir/etc/sources.list"; then
		rm -f "$aptdir/etc/sources.list.new"
	else
		mv "$aptdir/etc/sources.list.new" "$aptdir/etc/sources.list"
		update=1
	fi
}

lists_fresh() {
	[[ -n $(find "$aptdir/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 -print -quit 2>/dev/null) ]]
}

apt_update() {
	local log=$aptdir/update.log start
	start=$(mbd_now)
	mbd_log "apt-get update with $aptdir/etc/sources.list (${#suites[@]} suites)"
	if ! apt-get "${apt_opts[@]}" -q update >"$log" 2>&1; then
		sed 's/^/  /' "$log" >&2
		mbd_die "apt-get update failed (log above and in $log)"
	fi
	if grep -E '^(E|W): ' "$log" >&2; then
		mbd_warn "apt-get update reported the problems above; going on with the suites it got"
	fi
	mbd_log "package lists updated in $(mbd_elapsed "$start") s"
	update=0
}

apt_ready() {
	apt_config
	if ((update)) || ! lists_fresh; then apt_update; fi
}

# Which linux-source-X.Y the lists know, one a line, oldest first.
apt_versions() {
	apt-cache "${apt_opts[@]}" pkgnames linux-source- 2>/dev/null |
		sed -n 's/^linux-source-\([0-9]*\.[0-9]*\)$/\1/p' | sort -uV
}

# One line for a version the archive does not have.
not_there() {
	local v=$1 have
	have=$(apt_versions | paste -sd' ')
	if [[ $(printf '%s\n5.10\n' "$v" | sort -V | head -n 1) != 5.10 ]]; then
		mbd_log "error: linux-source-$v is from Debian 10 \"buster\" or older, which $mirror" \
			"no longer serves (archive.debian.org keeps it; this script does not use it);" \
			"the oldest this archive has is linux-source-${have%% *}"
	else
		mbd_log "error: no linux-source-$v in ${suites[*]} of $mirror; it has: ${have:-nothing}" \
			"(--update refreshes the lists)"
	fi
}

# ---- one version ------------------------------------------------------------

# Print the path of a linux-source-V .deb: from the cache, else downloaded
# into DIR (the cache when there is one).
get_deb() {
	local v=$1 dir=$2 deb log
	if [[ $debs ]]; then
		deb=$(find "$debs" -maxdepth 1 -name "linux-source-${v}_*_all.deb" 2>/dev/null | sort -V | tail -n 1)
		if [[ $deb ]]; then
			mbd_log "using $deb"
			printf '%s\n' "$deb"
			return 0
		fi
	fi
	apt_ready
	if ! apt-cache "${apt_opts[@]}" show "linux-source-$v" >/dev/null 2>&1; then
		not_there "$v"
		return 1
	fi
	mbd_log "downloading Debian's linux-source-$v (about 150 MB)"
	log=$dir/apt-download.log
	if ! (cd "$dir" && apt-get "${apt_opts[@]}" -q download "linux-source-$v" >"$log" 2>&1); then
		# stale lists name a file the mirror has dropped: refresh once
		mbd_log "download failed; refreshing the package lists and trying again"
		apt_update
		if ! (cd "$dir" && apt-get "${apt_opts[@]}" -q download "linux-source-$v" >"$log" 2>&1); then
			sed 's/^/  /' "$log" >&2
			mbd_log "error: apt-get download linux-source-$v failed (above)"
			return 1
		fi
	fi
	rm -f "$log"
	deb=$(find "$dir" -maxdepth 1 -name "linux-source-${v}_*.deb" | sort -V | tail -n 1)
	[[ $deb ]] || { mbd_log "error: no linux-source-$v .deb after the download"; return 1; }
	printf '%s\n' "$deb"
}

fetch() {
	local v=$1 tree=$dest/linux-$1 tmp deb rel start
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/mbdiff-ksrc.XXXXXX")
	# shellcheck disable=SC2064 # expand now: the trap must remove this folder
	trap "rm -rf '$tmp'" RETURN
	if [[ $debs ]]; then mkdir -p "$debs"; fi
	deb=$(get_deb "$v" "${debs:-$tmp}") || return 1
	start=$(mbd_now)
	mkdir -p "$tmp/x"
	# The .deb holds usr/src/linux-source-V.tar.xz, sorted by path; tar
	# stops once it has each file (--occurrence), before tools/ and the
	# rest. That early stop breaks the pipe: judge by the files, not $?.
	# The tarball has many xz blocks: two threads decompress it 40% faster.
	local members=()
	for rel in "${files[@]}"; do members+=("linux-source-$v/$rel"); done
	dpkg-deb --fsys-tarfile "$deb" 2>/dev/null | tar -xO "./usr/src/linux-source-$v.tar.xz" 2>/dev/null |
		xz -T2 -dc 2>/dev/null | tar -x --occurrence=1 -C "$tmp/x" "${members[@]}" 2>"$tmp/tar.err" || true
	if ! have_tree "$tmp/x/linux-source-$v"; then
		sed 's/^/  /' "$tmp/tar.err" >&2
		mbd_log "error: $deb does not hold ${members[*]}"
		return 1
	fi
	# into place whole or not at all
	rm -rf "$tree.tmp"
	mkdir -p "$dest"
	mv "$tmp/x/linux-source-$v" "$tree.tmp"
	printf 'Debian package %s (%s); fetched by scripts/get-kernel-tree.sh\n' \
		"$(basename "$deb")" "$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p;s/^SUBLEVEL = //p' "$tree.tmp/Makefile" | paste -sd.)" \
		>"$tree.tmp/SOURCE"
	rm -rf "$tree"
	mv "$tree.tmp" "$tree"
	mbd_log "extracted in $(mbd_elapsed "$start") s"
}

if ((available)); then
	apt_ready
	apt_versions
	exit 0
fi

status=0
for v in "${versions[@]}"; do
	tree=$dest/linux-$v
	if ((print_only)); then
		have_tree "$tree" && printf '%s\n' "$tree"
		continue
	fi
	if ((force)) || ! have_tree "$tree"; then
		# two checks at once fetch one version once: the second waits
		mkdir -p "$dest"
		exec {lockfd}>"$dest/.linux-$v.lock"
		flock "$lockfd"
		if ((!force)) && have_tree "$tree"; then
			exec {lockfd}>&-
			printf '%s\n' "$tree"
			continue
		fi
		if ! fetch "$v"; then
			exec {lockfd}>&-
			status=1
			continue
		fi
		exec {lockfd}>&-
		mbd_log "$tree: $(cat "$tree/SOURCE")"
	fi
	printf '%s\n' "$tree"
done
exit "$status"
