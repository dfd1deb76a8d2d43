#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/check.sh [options] PATCH...
#        scripts/check.sh [options] --tree DIR REV-RANGE
#        scripts/check.sh [options] [REV-RANGE]   (inside a kernel git tree)
#
# mbdiff check: from a memblock patch to a verdict a maintainer can paste
# into a reply. PATCH is a git format-patch file, an mbox or b4 series
# (several patches, applied in order), or a plain diff; several files are
# applied in the order given. --tree DIR REV-RANGE takes the commits of a
# developer's own git tree (A..B, or one commit C meaning C^..C); the base
# is then the tree at A. Inside a kernel git tree the tree is implied: no
# argument checks the commits on top of its upstream branch (else
# HEAD^..HEAD), REV-RANGE those commits, PATCH is applied to its HEAD
# (unless --base is given); nothing is written into it (docs/install.md).
#
# 1. Base: the newest real kernel the series applies to, exactly (no
#    fuzz), among Debian's linux-source packages (--base; fetched by
#    scripts/get-kernel-tree.sh). None: the failing hunks and the .rej
#    files are shown, exit 2. Only mm/memblock.c and
#    include/linux/memblock.h are taken from the series.
# 2. Build: the base tree and base+series as the variants kernel:base and
#    kernel:patched (plus our reference), in their own build folder
#    (--build-dir, default build/check), incrementally.
# 3. Search: a quick explore (every trace of <= --explore-depth calls over
#    --alphabet, at most --explore-time s) on one core, while on the other
#    corpus/seeds, corpus/regressions and corpus/real are replayed and
#    libFuzzer runs for --time seconds, going on past every finding and
#    keeping each distinct signature of class --min-class or worse; the
#    oracle checks both variants after every call.
# 4. Each finding is minimized and judged (`mbdiff judge`: regression,
#    fix, both wrong, behaviour change, shared); the findings are grouped
#    into bugs by root cause (scripts/check-bugs.sh); each bug's reproducer
#    is lifted to the kernel's 128-slot boot arrays (`mbdiff lift`, no
#    randomness: filler regions give each array the free slots it had),
#    and where that fails searched for with the boot arrays (fuzz_diff
#    --config=boot) for --reach-runs libFuzzer runs with a fixed seed; each
#    bug gets one test in the real tools/testing/memblock. A clean search is
#    replayed through a clang source-coverage build (scripts/coverage.sh).
# 5. The report (scripts/check-report.sh): plain text in 72 columns,
#    verdict first, to stdout and OUT/report.txt; --json FILE for CI.
#
# Options:
#   --base V[,V...]    candidate linux-source versions, newest first
#                      (default 7.3,7.2,6.12,6.1,5.10)
#   --time S           libFuzzer seconds (default 120; 0: corpus only)
#   --runs N           libFuzzer executions instead of --time: the same
#                      search on a busy machine (0: corpus only)
#   --reach-runs N     boot-array search for a bug the lift does not reach:
#                      N libFuzzer runs (default 300; 0: skip)
#   --explore-depth K  quick explore: calls per trace (default 4; 0: skip)
#   --explore-time S   quick explore: at most S s (default: as long as the
#                      fuzzing it runs beside, at least 30; when it runs
#                      out, the deepest finished depth is certified)
#   --alphabet FILE    quick explore's alphabet
#                      (default corpus/alphabets/default.alpha)
#   --min-class C      smallest class reported (default capacity)
#   --json FILE        the report as JSON too
#   -o, --out DIR      where everything goes (default out/check-DATE;
#                      installed: ./mbdiff-check-DATE, or the cache's
#                      reports/ inside a git work tree)
#   --build-dir DIR    the check build (default build/check; a git tree's
#                      base: build/check-tree-HASH, one per tree)
#   --deb-cache DIR    .deb cache for get-kernel-tree.sh ($MBDIFF_DEB_CACHE)
#   --trees DIR        where kernel trees are kept (default build/kernel-trees)
#   --seed N           libFuzzer -seed (default 1: the same run twice)
#   --base-only        find the base, print it and stop (exit 0)
#   --no-coverage      a clean verdict without its branch coverage (which
#                      takes an instrumented build, build-dir + "-cov")
#   --no-kernel-tests  do not check each finding's tools/testing/memblock
#                      test in the real suite (scripts/kernel-suite.sh)
#   -h, --help         this text
# Exit: 0 CLEAN or FIXES (no regression), 1 REGRESSION, 4 CRASH, 5 BEHAVIOUR
# CHANGE, 2 bad input, the series applies to no base, or the patched file
# does not compile (each cause in one line: a kernel helper kcompat lacks
# is named), 3 the check itself failed (build error, missing tool).
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bad() { # bad input: exit 2
	printf '%s: error: %s\n' "$MBD_PROG" "$*" >&2
	exit 2
}
broken() { # the check itself failed: exit 3
	printf '%s: error: %s\n' "$MBD_PROG" "$*" >&2
	exit 3
}

bases=7.3,7.2,6.12,6.1,5.10
fuzz_time=120 fuzz_runs="" reach_runs=300 xdepth=4 xtime="" min_class=$MBD_DEFAULT_CLASS json="" out="" seed=1
bdir=$MBD_BUILD/check trees=$MBD_BUILD/kernel-trees
debs=${MBDIFF_DEB_CACHE:-}
alphabet=$MBD_ROOT/corpus/alphabets/default.alpha
git_tree="" git_range="" base_only=0 ktests=1 coverage=1 base_version= base_given=0 bdir_given=0
inputs=()
while (($#)); do
	case $1 in
	--base | --base=*) mbd_optval "$@"; bases=$MBD_OPTVAL base_given=1; shift "$((MBD_SHIFT - 1))" ;;
	--time | --time=*) mbd_optval "$@"; fuzz_time=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--runs | --runs=*) mbd_optval "$@"; fuzz_runs=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--reach-runs | --reach-runs=*) mbd_optval "$@"; reach_runs=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--reach-time | --reach-time=*)
		mbd_usage_error "--reach-time is gone: use --reach-runs N (N runs of the boot-array search, default 300; a run count gives the same answer on a busy machine)" ;;
	--explore-depth | --explore-depth=*) mbd_optval "$@"; xdepth=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--explore-time | --explore-time=*) mbd_optval "$@"; xtime=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--alphabet | --alphabet=*) mbd_optval "$@"; alphabet=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--min-class | --min-class=*) mbd_optval "$@"; min_class=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--json | --json=*) mbd_optval "$@"; json=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	-o | --out | --out=*) mbd_optval "$@"; out=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--build-dir | --build-dir=*) mbd_optval "$@"; bdir=$MBD_OPTVAL bdir_given=1; shift "$((MBD_SHIFT - 1))" ;;
	--deb-cache | --deb-cache=*) mbd_optval "$@"; debs=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--trees | --trees=*) mbd_optval "$@"; trees=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--seed | --seed=*) mbd_optval "$@"; seed=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--tree)
		# two values, neither an option (e.g. "--tree --seed 5")
		(($# >= 3)) && [[ $2 != -* && $3 != -* ]] ||
			mbd_usage_error "--tree needs a value: DIR and REV-RANGE"
		git_tree=$2 git_range=$3
		shift 2
		;;
	--base-only) base_only=1 ;;
	--no-kernel-tests) ktests=0 ;;
	--no-coverage) coverage=0 ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	-*) mbd_usage_error "unknown option '$1'" ;;
	*) inputs+=("$1") ;;
	esac
	shift
done
mbd_check_uint --time "$fuzz_time" 0
mbd_check_uint --reach-runs "$reach_runs" 0
[[ $fuzz_runs ]] && mbd_check_uint --runs "$fuzz_runs" 0
mbd_check_uint --seed "$seed" 0
mbd_check_uint --explore-depth "$xdepth" 0
[[ -z $xtime ]] || mbd_check_uint --explore-time "$xtime" 1
((xdepth <= 1000)) || mbd_usage_error "--explore-depth must be at most 1000, got '$xdepth'"
[[ -f $alphabet && -r $alphabet ]] || bad "--alphabet $alphabet: no such file"
alphabet=$(mbd_abs "$alphabet")
mbd_check_class "$min_class"
# Run inside a kernel git tree (issue 32): the tree is implied. No
# argument: the commits on top of the upstream branch, else HEAD^..HEAD;
# one argument that is a revision or A..B and no file: that range; patch
# files: applied to the tree's HEAD (unless --base names Debian bases).
# Nothing is written into the tree: git show reads it, the files go to
# the build folder.
here="" range_note="" base_git="" base_rev=""
if [[ ! $git_tree ]] && here=$(git rev-parse --show-toplevel 2>/dev/null) &&
	[[ -f $here/mm/memblock.c && -f $here/include/linux/memblock.h ]]; then
	if ((${#inputs[@]} == 0)); then
		git_tree=$here
		ahead=0
		up=$(git -C "$here" rev-parse --abbrev-ref --symbolic-full-name '@{upstream}' 2>/dev/null) &&
			ahead=$(git -C "$here" rev-list --count '@{upstream}..HEAD')
		if ((ahead > 0)); then
			git_range=$(git -C "$here" merge-base '@{upstream}' HEAD)..HEAD
			range_note="the commits on top of $up ($ahead in @{upstream}..HEAD)"
		else
			git_range=HEAD^..HEAD
			range_note="HEAD^..HEAD (the last commit: $(if [[ ${up:-} ]]; then printf 'nothing on top of %s' "$up"; else printf 'the branch has no upstream'; fi))"
		fi
	elif ((${#inputs[@]} == 1)) && [[ ! -e ${inputs[0]} ]] &&
		git -C "$here" rev-parse --verify -q "${inputs[0]%%..*}^{commit}" >/dev/null 2>&1; then
		git_tree=$here git_range=${inputs[0]} inputs=()
		range_note="$git_range, as asked"
	elif ((!base_given)); then
		base_git=$here
		base_rev=$(git -C "$here" rev-parse --verify -q 'HEAD^{commit}') ||
			bad "$here: a git tree without a commit (HEAD) to apply the patch to"
		range_note="the patch on HEAD of $here (--base V checks it on Debian's linux-source V instead)"
	else
		here=""
	fi
	# what git show reads is the commit, not the work tree: say so
	if [[ $here ]] && ! git -C "$here" diff --quiet HEAD -- mm/memblock.c include/linux/memblock.h 2>/dev/null; then
		mbd_warn "$here has uncommitted changes to memblock: they are not checked (commit them, or: git diff HEAD >F.patch; $MBD_PROG F.patch)"
	fi
fi
if [[ $git_tree ]]; then
	((${#inputs[@]} == 0)) || mbd_usage_error "--tree takes no PATCH files"
	base_git=$git_tree
else
	((${#inputs[@]})) || mbd_usage_error "no PATCH given (or --tree DIR REV-RANGE, or run it inside a kernel git tree)"
fi
IFS=, read -r -a base_list <<<"$bases"
for v in "${base_list[@]}"; do
	[[ $v =~ ^[0-9]+\.[0-9]+$ ]] || mbd_usage_error "--base: '$v' is not a version like 6.12"
done
for tool in patch git clang cmake jq; do
	command -v "$tool" >/dev/null || broken "'$tool' not found (bash scripts/setup.sh installs it)"
done

# Outputs: -o; in a checkout out/check-DATE; installed ./mbdiff-check-DATE,
# or, when the current folder is a git work tree (the kernel's), the cache,
# so that `git status` there stays clean.
if [[ ! $out ]]; then
	if ((!MBD_INSTALLED)); then
		out=$MBD_OUT/check-$(mbd_timestamp)
	elif wt=$(git rev-parse --show-toplevel 2>/dev/null); then
		out=$MBD_CACHE/reports/$(basename "$wt")-check-$(mbd_timestamp)
	else
		out=$PWD/mbdiff-check-$(mbd_timestamp)
	fi
fi
out=$(mbd_abs "$out")
# A base from a git tree builds in that tree's own folder: two trees
# checked at once do not share one; one folder is used by one check at
# a time (the lock), the next waits.
if [[ $base_git ]] && ((!bdir_given)); then
	bdir=$MBD_BUILD/check-tree-$(printf '%s' "$(cd "$base_git" && pwd -P)" | sha1sum | cut -c1-12)
fi
bdir=$(mbd_abs "$bdir")
mkdir -p "$(dirname "$bdir")"
exec {bdir_lock}>"$bdir.lock"
if ! flock -n "$bdir_lock"; then
	mbd_log "another check is using $bdir: waiting for it"
	flock "$bdir_lock"
fi
mkdir -p "$out"
rm -rf "$out/series" "$out/memblock" "$out/keep" "$out/findings" "$out/rejects"
mkdir -p "$out/series" "$out/memblock" "$out/keep"
t_start=$(mbd_now)
meta=$out/meta.json
printf '{}\n' >"$meta"
setmeta() { # setmeta KEY JSON-VALUE
	jq --arg k "$1" --argjson v "$2" '.[$k] = $v' "$meta" >"$meta.tmp" && mv "$meta.tmp" "$meta"
}
jstr() { jq -Rn --arg s "$1" '$s'; }

# ---- 1. the series, one patch a file, in order ---------------------------

split_one() { # split_one FILE: into $out/series/NNNN.patch
	local f=$1 n
	[[ -f $f && -r $f ]] || bad "$f: no such file"
	grep -q '^@@ ' "$f" || bad "$f: no diff hunk in it (expected a patch: a line starting with '@@ ')"
	n=$(find "$out/series" -name '*.patch' | wc -l)
	if head -n 1 "$f" | grep -q '^From '; then
		local tmp=$out/series/.split
		rm -rf "$tmp"
		mkdir -p "$tmp"
		git mailsplit -o"$tmp" "$f" >/dev/null || bad "$f: not a readable mbox"
		local m
		for m in "$tmp"/*; do
			grep -q '^@@ ' "$m" || continue # a cover letter
			n=$((n + 1))
			mv "$m" "$out/series/$(printf '%04d' "$n").patch"
		done
		rm -rf "$tmp"
	else
		n=$((n + 1))
		cp "$f" "$out/series/$(printf '%04d' "$n").patch"
	fi
}

if [[ $git_tree ]]; then
	git -C "$git_tree" rev-parse --git-dir >/dev/null 2>&1 || bad "--tree $git_tree: not a git tree"
	if [[ $git_range == *..* ]]; then
		base_rev=${git_range%%..*}
	else
		base_rev=$git_range^
		git_range=$git_range^..$git_range
	fi
	base_rev=$(git -C "$git_tree" rev-parse --verify -q "$base_rev^{commit}") ||
		bad "--tree $git_tree: '$git_range' is not a revision range of it"
	git -C "$git_tree" format-patch --stdout "$git_range" -- mm/memblock.c \
		include/linux/memblock.h >"$out/series.mbox" ||
		bad "--tree $git_tree: git format-patch $git_range failed"
	[[ -s $out/series.mbox ]] || bad "--tree $git_tree: $git_range changes neither mm/memblock.c nor include/linux/memblock.h"
	split_one "$out/series.mbox"
else
	for f in "${inputs[@]}"; do split_one "$f"; done
fi

# Only the two files mbdiff compiles; others are named in the report.
declare -a series=() ignored=() subjects=()
for p in "$out"/series/*.patch; do
	mp=$out/memblock/$(basename "$p")
	awk -v ign="$mp.ignored" '
		function path(s) { sub(/^[ab]\//, "", s); sub(/[ \t].*$/, "", s); return s }
		/^diff --git / { keep = (path($4) == "mm/memblock.c" || path($4) == "include/linux/memblock.h")
			if (!keep) print path($4) >> ign; sect = 1 }
		/^--- / && !sect { p = $2 }
		/^\+\+\+ / && !sect { keep = (path($2) == "mm/memblock.c" || path($2) == "include/linux/memblock.h")
			if (!keep) print path($2) >> ign
			if (keep) print "--- " p }
		/^-- ?$/ && sect { keep = 0 }
		keep && !(/^--- / && !sect) { print }
	' "$p" >"$mp"
	# the first Subject: header, unfolded (a long one goes on in lines
	# that start with a blank, RFC 5322)
	subj=$(awk 'f && /^[ \t]/ { sub(/^[ \t]+/, " "); s = s $0; next }
		f { exit }
		/^Subject:/ { s = $0; sub(/^Subject:[ \t]*/, "", s); f = 1 }
		END { print s }' "$p")
	subjects+=("${subj:-$(basename "$p")}")
	if [[ -f $mp.ignored ]]; then
		while IFS= read -r x; do ignored+=("$x"); done <"$mp.ignored"
	fi
	if grep -q '^@@ ' "$mp"; then series+=("$mp"); else rm -f "$mp"; fi
done
((${#series[@]})) || bad "the series changes neither mm/memblock.c nor include/linux/memblock.h: nothing for mbdiff to check"
setmeta patches "$(printf '%s\n' "${subjects[@]}" | jq -R . | jq -s .)"
setmeta ignored_files "$(printf '%s\n' "${ignored[@]+"${ignored[@]}"}" | sort -u | jq -R 'select(length > 0)' | jq -s .)"
mbd_log "series: ${#series[@]} patch(es) touching memblock"

# ---- 2. the base -----------------------------------------------------------

# applies TREE DEST: copy the two files, apply the series exactly; 0 if all
# apply. --forward: a hunk that matches reversed is refused, never applied
# backwards (--batch alone assumes -R); reversed TREE then says so.
applies() {
	local tree=$1 dest=$2 p
	rm -rf "$dest"
	mkdir -p "$dest/mm" "$dest/include/linux"
	cp "$tree/mm/memblock.c" "$dest/mm/"
	cp "$tree/include/linux/memblock.h" "$dest/include/linux/"
	for p in "${series[@]}"; do
		patch -p1 --fuzz=0 --batch --forward --no-backup-if-mismatch -d "$dest" -i "$p" >"$dest.log" 2>&1 ||
			return 1
	done
}

# reversed LOG: patch saw a hunk already applied (issue 33 item 7)
reversed() { grep -q 'Reversed (or previously applied) patch detected' "$1"; }

base_tree="" base_name="" tried=() already=()
if [[ $base_git ]]; then
	# in the build folder, each file rewritten only when it changed: the
	# same base twice rebuilds nothing. The Makefile names the release
	# (kcompat's era).
	base_tree=$bdir/base-tree
	mkdir -p "$base_tree/mm" "$base_tree/include/linux"
	for f in mm/memblock.c include/linux/memblock.h Makefile; do
		if ! git -C "$base_git" show "$base_rev:$f" >"$base_tree/$f.new" 2>/dev/null; then
			rm -f "$base_tree/$f.new"
			[[ $f == Makefile ]] && { rm -f "$base_tree/$f"; continue; }
			bad "$base_git: $f does not exist at $base_rev"
		fi
		if cmp -s "$base_tree/$f.new" "$base_tree/$f"; then rm -f "$base_tree/$f.new"; else mv "$base_tree/$f.new" "$base_tree/$f"; fi
	done
	base_name="$(git -C "$base_git" describe --always "$base_rev" 2>/dev/null || echo "$base_rev") of $base_git"
	applies "$base_tree" "$out/patched-check" || {
		mkdir -p "$out/rejects"
		if [[ ! $git_tree ]]; then
			reversed "$out/patched-check.log" &&
				bad "the patch is already applied in HEAD ($(git -C "$base_git" rev-parse --short "$base_rev")) of $base_git: a hunk matches reversed (--base V tries Debian's linux-source V)"
			bad "the patch does not apply to HEAD of $base_git (--base V tries Debian's linux-source V): $(cat "$out/patched-check.log")"
		fi
		reversed "$out/patched-check.log" &&
			bad "the series is already applied in its own base $base_rev (a hunk matches reversed)"
		bad "the series does not apply to its own base $base_rev: $(cat "$out/patched-check.log")"
	}
else
	gkt=(bash "$MBD_ROOT/scripts/get-kernel-tree.sh" --dest "$trees")
	[[ $debs ]] && gkt+=(--deb-cache "$debs")
	for v in "${base_list[@]}"; do
		if ! tree=$("${gkt[@]}" --version "$v" 2>"$out/get-$v.log" | tail -n 1) || [[ ! -d $tree ]]; then
			mbd_warn "linux-source-$v cannot be had (skipped): $(tail -n 1 "$out/get-$v.log")"
			continue
		fi
		tried+=("$v")
		if applies "$tree" "$out/patched-check"; then
			base_tree=$tree base_version=$v
			base_name="Linux $(sed -n 's/.*(\([0-9][0-9.]*\)).*/\1/p' "$tree/SOURCE" | head -n 1) (Debian linux-source-$v)"
			break
		fi
		reversed "$out/patched-check.log" && already+=("$v")
		mkdir -p "$out/rejects/$v"
		cp "$out/patched-check.log" "$out/rejects/$v/patch.log"
		find "$out/patched-check" -name '*.rej' -exec cp {} "$out/rejects/$v/" \;
	done
	setmeta already_applied "$(printf '%s\n' "${already[@]+"${already[@]}"}" | jq -R 'select(length > 0)' | jq -s .)"
	if [[ ! $base_tree ]]; then
		((${#tried[@]})) || broken "no linux-source package could be had (see $out/get-*.log)"
		((${#already[@]})) &&
			bad "the series applies to none of ${tried[*]}: it is already applied in linux-source $(IFS=,; echo "${already[*]}") (a hunk matches reversed; $out/rejects/${already[0]}/patch.log)"
		first=${tried[0]}
		{
			printf 'mbdiff check: PATCH DOES NOT APPLY\n\n'
			printf 'The series applies exactly (no fuzz) to none of: %s.\n' "${tried[*]}"
			printf 'Against %s:\n' "$first"
			sed 's/^/  /' "$out/rejects/$first/patch.log"
			for r in "$out/rejects/$first"/*.rej; do
				[[ -f $r ]] || continue
				printf '\nfailing hunks: %s\n' "${r#"$out"/}"
				head -n 40 "$r"
			done
			printf '\nfiles:\n  %s\n' "$out"
		} | tee "$out/report.txt"
		if [[ $json ]]; then
			jq -n --arg v "does-not-apply" --argjson tried "$(printf '%s\n' "${tried[@]}" | jq -R . | jq -s .)" \
				--arg rej "$out/rejects" '{verdict: $v, exit: 2, tried: $tried, rejects: $rej}' >"$json"
		fi
		exit 2
	fi
fi
setmeta base "$(jstr "$base_name")"
[[ $range_note ]] && setmeta checked "$(jstr "$range_note")"
setmeta base_tree "$(jstr "$base_tree")"
mbd_log "base: $base_name"
t_base=$(mbd_now)
if ((base_only)); then
	printf 'base: %s\n' "$base_name"
	exit 0
fi

# ---- 3. build the two variants ---------------------------------------------

# uncompilable: the build failed staging kernel:patched while the base
# compiles on its own: the patch (not mbdiff) is at fault, or uses a
# kernel helper kcompat lacks. Said in one line per cause, exit 2.
uncompilable() {
	grep -q 'kernel:patched: .*\(does not compile through\|uses symbols kcompat\)' "$out/build.log" || return 0
	grep -q 'kernel:base: ' "$out/build.log" && return 0
	local stage=$out/base-stage
	bash "$MBD_ROOT/scripts/kernel-variant.sh" --stage --name kernel:base --tree "$base_tree" \
		--out "$stage" --stamp "$stage.stamp" --cc clang >"$out/base-stage.log" 2>&1 || return 0
	rm -rf "$stage" "$stage.stamp" "$out/base-stage.log"
	local label causes
	label=$(basename "$base_tree")
	# kernel-variant.sh's explanations name the staged file as LABEL/...;
	# here it is the patched file
	causes=$(sed -En \
		-e "s|^kcompat: no stand-in for (\`[^\`]*\`) \(needed by $label/(.*)\)$|kcompat lacks \1 (patched \2)|p" \
		-e "/^kcompat: no stand-in/!s|^kcompat: (.*)|kcompat: \1|p" \
		-e "s|^.*/kernel-patched\.tmp/([^ ]*): (fatal )?error: (.*)|\1 (patched): \3|p" \
		"$out/build.log" | sed "s|$label/||g" | awk '!seen[$0]++' | head -n 10)
	[[ $causes ]] || causes="(no error line: $out/build.log)"
	{
		printf 'mbdiff check: PATCH DOES NOT COMPILE HERE\n\n'
		printf '%s\n' "$causes"
		printf '\nThe base compiles: %s.\n' "$base_name"
		printf 'With the series, mm/memblock.c does not compile through\n'
		printf 'algorithms/kcompat.\n'
		printf 'A kernel helper kcompat lacks goes in\n'
		printf 'algorithms/kcompat/mbd_kc_helpers.h (docs/kernel-variants.md).\n'
		printf '\nfiles:\n  %s\n' "$out"
	} | tee "$out/report.txt"
	if [[ $json ]]; then
		printf '%s\n' "$causes" | jq -R . | jq -s --arg rep "$out/report.txt" \
			'{verdict: "does-not-compile", exit: 2, causes: ., report: $rep}' >"$json"
	fi
	exit 2
}

mkdir -p "$bdir/series"
# stable paths, rewritten only on change: an unchanged series rebuilds nothing
rm -f "$bdir"/series/*.stale
for f in "$bdir"/series/*.patch; do [[ -f $f ]] && mv "$f" "$f.stale"; done
plist=""
for p in "${series[@]}"; do
	dst=$bdir/series/$(basename "$p")
	if cmp -s "$p" "$dst.stale"; then mv "$dst.stale" "$dst"; else cp "$p" "$dst"; fi
	plist+=":$dst"
done
rm -f "$bdir"/series/*.stale
kv="# written by scripts/check.sh
base=$base_tree
patched=$base_tree$plist"
if [[ ! -f $bdir/kernel-variants.txt ]] || [[ $(cat "$bdir/kernel-variants.txt") != "$kv" ]]; then
	printf '%s\n' "$kv" >"$bdir/kernel-variants.txt"
fi
if [[ ! -f $bdir/CMakeCache.txt ]]; then
	nice -n 10 cmake -S "$MBD_ROOT" -B "$bdir" -DCMAKE_C_COMPILER=clang \
		-DCMAKE_BUILD_TYPE=RelWithDebInfo -DMBDIFF_FUZZ=ON -DMBDIFF_TESTS=OFF \
		"-DMBDIFF_SANITIZERS=address;undefined" -DMBDIFF_KERNEL_VARIANTS_ONLY=ON \
		>"$out/build.log" 2>&1 || broken "configuring $bdir failed: $out/build.log"
fi
if ! nice -n 10 cmake --build "$bdir" -j2 --target mbdiff fuzz_diff >>"$out/build.log" 2>&1; then
	uncompilable
	grep -E 'error|does not apply|kernel:' "$out/build.log" | tail -n 20 >&2
	broken "building kernel:base and kernel:patched failed: $out/build.log"
fi
t_built=$(mbd_now)
mbd_log "built in $(mbd_elapsed "$t_base") s"
mbdiff=$bdir/mbdiff
setmeta mbdiff "$(jstr "$mbdiff")"
fuzz=$bdir/fuzz_diff
pair=kernel:base,kernel:patched
topts=("--variants=$pair" "--min-class=$min_class" --no-expect --count-baseline-faults)
# hangs are findings: libFuzzer writes timeout-* (an input takes ms,
# 5 s is a thousand times that even on a loaded machine; triage confirms)
# and where findings go: kopts KEEP-DIR sets kept=(...)
lfopts=(-timeout=5)
kopts() { kept=("--keep-going=$1" "-artifact_prefix=$1/"); }
kopts "$out/keep"

# A patch that crashes on the fuzz target's warm-up trace would end every
# process before its first input: say so, and search without it.
mkdir -p "$out/empty"
if ! "$fuzz" "${topts[@]}" "${kept[@]}" -runs=0 "$out/empty" >"$out/warm-up.log" 2>&1 &&
	grep -q 'ERROR: \(AddressSanitizer\|UndefinedBehaviorSanitizer\|libFuzzer\)\|runtime error:' "$out/warm-up.log"; then
	mbd_warn "the patched code crashes on the fuzz target's warm-up trace ($out/warm-up.log): searching without it"
	topts+=(--no-warm-up)
fi

# drop_crashers [KEEP-DIR]: a corpus input libFuzzer's artifact names
# (crash-SHA1 of the input) crashes the variants as it is loaded: take it
# out of the corpus, or every restart dies on it again
drop_crashers() {
	local -A bad=()
	local a h f k=${1:-$out/keep}
	for a in "$k"/crash-* "$k"/timeout-* "$k"/leak-* "$k"/oom-*; do
		[[ -f $a && $a != *.variants ]] && bad[${a##*-}]=1
	done
	((${#bad[@]})) || return 0
	# one sha1sum for the whole corpus: the names are hashes, no blanks
	while read -r h f; do
		[[ ${bad[$h]:-} ]] && rm -f -- "$f"
	done < <(find "$out/corpus-in" "$out/corpus" "$out/explore-in" \( -type f -o -type l \) -print0 2>/dev/null |
		xargs -0 -r sha1sum)
	return 0
}
# lf_replay KEEP-DIR LOG INPUT...: -runs=0 over the inputs, findings
# into KEEP-DIR, going on past crashes (each crashing input is dropped, at
# most 50 times)
lf_replay() {
	local k=$1 log=$2 i n kept
	shift 2
	kopts "$k"
	for ((i = 0; i < 50; i++)); do
		n=$(find "$k" -maxdepth 1 -name 'crash-*' | wc -l)
		"$fuzz" "${topts[@]}" "${kept[@]}" "${lfopts[@]}" -runs=0 "$@" >"$log.$i" 2>&1 && break
		drop_crashers "$k"
		(($(find "$k" -maxdepth 1 -name 'crash-*' | wc -l) > n)) || break
	done
	cat "$log".* >"$log" 2>/dev/null
	rm -f "$log".*
}

# ---- 4. search ---------------------------------------------------------------

# The quick explore: every trace of <= xdepth calls over the alphabet. It
# runs beside the corpus replay and libFuzzer (one process, one core), on
# the other core, so it costs no wall time while fuzzing lasts; alone
# (--time 0) it takes both cores. Its budget: --explore-time, by default
# 30 s alone and as long as the fuzzing beside it.
xjson=null xpid="" xo=$out/explore
t_xstart=$(mbd_now) t_explored=$t_xstart
if ((xdepth > 0)); then
	xjobs=2 xbudget=${xtime:-30}
	# libFuzzer runs beside it (--runs wins over --time): one core each
	if ((${fuzz_runs:-$fuzz_time} > 0)); then
		xjobs=1
		[[ $xtime || $fuzz_runs ]] || xbudget=$((fuzz_time > 30 ? fuzz_time : 30))
	fi
	rm -rf "$xo"
	run_explore() {
		exec nice -n 10 "$mbdiff" explore --quiet --alphabet "$alphabet" --variants "$pair" \
			--depth "$xdepth" --time "$xbudget" -j "$xjobs" --min-class "$min_class" --no-expect \
			--count-baseline-faults -o "$xo" >"$out/explore.log" 2>&1
	}
	# its own process group: a check that stops (a signal, an error)
	# takes it and its workers with it
	trap mbd_kill_children EXIT
	mbd_spawn run_explore
	xpid=$MBD_LAST_PID
fi

# explore_finish: wait for the explore; its shortest counterexamples go
# through the fuzz target like the corpus, into their own keep folder,
# then into keep/ under the same signature keys: a key fuzzing found too
# gets explore's trace (every shorter trace agrees) and found-by explore.
explore_finish() {
	local xrc xfound s h a
	mbd_wait "$xpid"
	xrc=$MBD_WAIT_RC xpid=""
	t_explored=$(mbd_now)
	mapfile -t xfound < <(find "$xo" -maxdepth 1 -name '[0-9]*.mbt' 2>/dev/null | sort)
	if ((${#xfound[@]})); then
		mkdir -p "$out/explore-in" "$out/keep-explore"
		cp "${xfound[@]}" "$out/explore-in/"
		lf_replay "$out/keep-explore" "$out/explore-replay.log" "$out/explore-in"
		for s in "$out"/keep-explore/*.sig; do
			[[ -f $s ]] || continue
			h=$(basename "$s" .sig)
			cp "$out/keep-explore/$h.mbt" "$out/keep/$h.mbt"
			cp "$s" "$out/keep/$h.sig"
			rm -f "$out/keep/$h.corpus"
			touch "$out/keep/$h.explore"
		done
		for a in "$out"/keep-explore/*; do
			[[ $a == *.sig || $a == *.mbt || -e $out/keep/$(basename "$a") ]] || cp "$a" "$out/keep/"
		done
	fi
	# "explore: V over alphabet A (...): depth D, N traces, S distinct states, R runs, T s"
	local xline xcert="" xstop xerr=""
	xline=$(grep -m 1 '^explore: .* over alphabet ' "$out/explore.log" || true)
	[[ -f $xo/certificate.txt ]] && xcert=$(sed -n 's/^claim //p' "$xo/certificate.txt")
	xstop=$(sed -n 's/^explore: stopped before depth [0-9]*: //p' "$out/explore.log" | head -n 1)
	if ((xrc != 0 && xrc != 1)); then
		# a sanitizer report ends the explore process: say which crash,
		# the fuzz stage finds and triages it with a reproducer
		xerr=$(grep -m 1 -o 'ERROR: [A-Za-z]*Sanitizer: [a-z-]*\|runtime error: .*' "$out/explore.log" || true)
		if [[ -n $xerr ]]; then
			xerr="a variant crashed during explore (${xerr#ERROR: }); the crash is triaged below"
		else
			xerr=$(grep -m 1 '^mbdiff[ :]' "$out/explore.log" || echo "exit $xrc")
		fi
	fi
	xjson=$(jq -n --arg alpha "$alphabet" --argjson depth "$xdepth" --argjson time "$xbudget" \
		--argjson jobs "$xjobs" \
		--argjson done "$(sed -n 's/.*: depth \([0-9]*\), .*/\1/p' <<<"$xline" | grep . || echo 0)" \
		--arg secs "$(sed -n 's/.* \([0-9.]*\) s$/\1/p' <<<"$xline" | grep . || echo 0)" \
		--argjson found "${#xfound[@]}" --arg cert "$xcert" --arg stop "$xstop" --arg err "$xerr" \
		'{alphabet: $alpha, depth: $depth, time_limit: $time, jobs: $jobs, depth_done: $done,
		  seconds: ($secs | tonumber), counterexamples: $found,
		  certificate: (if $cert == "" then null else $cert end),
		  stopped: (if $stop == "" then null else $stop end),
		  error: (if $err == "" then null else $err end)}')
	mbd_log "explore: ${#xfound[@]} counterexample(s)${xcert:+; $xcert}"
}

corpus=()
for d in seeds regressions real; do
	[[ -d $MBD_ROOT/corpus/$d ]] && corpus+=("$MBD_ROOT/corpus/$d")
done
mkdir -p "$out/corpus"
# libFuzzer reads each directory one level deep: every corpus file is given
mapfile -t cfiles < <(find "${corpus[@]}" -type f -name '*.mbt' | sort)
mkdir -p "$out/corpus-in"
for f in "${cfiles[@]}"; do
	ln -sf "$f" "$out/corpus-in/$(echo "$f" | sed "s|$MBD_ROOT/corpus/||; s|/|_|g")"
done
lf_replay "$out/keep" "$out/replay.log" "$out/corpus-in"
t_replayed=$(mbd_now)
corpus_findings=$(find "$out/keep" -name '*.sig' | wc -l)
mbd_log "corpus: ${#cfiles[@]} inputs replayed, $corpus_findings signature(s)"
for s in "$out"/keep/*.sig; do [[ -f $s ]] && touch "${s%.sig}.corpus"; done

execs=0 restarts=0 crash_cap=20
# bounded by --runs (executions) or --time (seconds); a sanitizer crash
# ends a libFuzzer process: go on with the rest of the budget
fuzz_more() {
	if [[ $fuzz_runs ]]; then
		((execs < fuzz_runs)) && bound=(-runs="$((fuzz_runs - execs))")
	else
		local left=$((deadline - $(date +%s)))
		((left > 0)) && bound=(-max_total_time="$left")
	fi
}
deadline=$(($(date +%s) + fuzz_time))
t_fuzz=$(mbd_now)
while bound=() && fuzz_more && ((${#bound[@]})); do
	log=$out/fuzz-$restarts.log
	nice -n 10 "$fuzz" "${topts[@]}" "${kept[@]}" "${lfopts[@]}" "${bound[@]}" -seed="$((seed + restarts))" \
		-print_final_stats=1 -max_len=4096 \
		"$out/corpus" "$out/corpus-in" >"$log" 2>&1 || true
	ran=$(mbd_lf_execs "$log")
	execs=$((execs + ran))
	restarts=$((restarts + 1))
	grep -q 'ERROR: \(AddressSanitizer\|UndefinedBehavior\|libFuzzer\)\|runtime error:' "$log" || break
	# died on loading its corpus: drop what crashed; no progress at all
	# (nothing ran, nothing dropped) would only repeat
	nc=$(find "$out"/corpus-in "$out"/corpus -type f -o -type l | wc -l)
	drop_crashers
	((ran > 0 || $(find "$out"/corpus-in "$out"/corpus -type f -o -type l | wc -l) < nc)) || break
	((restarts < 200)) || break
	# crashing again and again: the search is spent on one crash
	if (($(find "$out/keep" -maxdepth 1 -name 'crash-*' ! -name '*.variants' | wc -l) >= crash_cap)); then
		mbd_log "warning: $crash_cap sanitizer crashes: the search stops here (the crash hides the rest)"
		break
	fi
done
[[ -z $xpid ]] || explore_finish
for f in "$out"/keep/crash-*; do
	[[ -f $f && $f != *.variants ]] && printf '%s\n' "$pair" >"$f.variants"
done
t_done=$(mbd_now)
setmeta search "$(jq -n --argjson corpus "${#cfiles[@]}" --argjson execs "$execs" \
	--argjson time "$fuzz_time" --arg runs "$fuzz_runs" --argjson restarts "$restarts" --arg mc "$min_class" \
	'{corpus_inputs: $corpus, fuzz_execs: $execs,
	  fuzz_time: (if $runs == "" then $time else null end),
	  fuzz_runs: (if $runs == "" then null else ($runs | tonumber) end), engine_runs: $restarts, min_class: $mc}')"
setmeta explore "$xjson"
setmeta timings "$(jq -n --arg b "$(mbd_elapsed "$t_start" "$t_base")" \
	--arg x "$(mbd_elapsed "$t_xstart" "$t_explored")" \
	--arg c "$(mbd_elapsed "$t_base" "$t_built")" --arg r "$(mbd_elapsed "$t_xstart" "$t_replayed")" \
	--arg f "$(mbd_elapsed "$t_base" "$t_replayed")" --arg s "$(mbd_elapsed "$t_replayed" "$t_done")" \
	'{find_base_s: ($b|tonumber), build_s: ($c|tonumber), corpus_replay_s: ($r|tonumber),
	  base_to_first_fuzz_exec_s: ($f|tonumber), fuzz_s: ($s|tonumber), explore_s: ($x|tonumber)}')"

# ---- 5. each finding: minimize, judge ------------------------------------------

# Who is wrong: `mbdiff judge` runs each trace in lockstep (a fault only
# mainline has counts) and each side alone under its oracle, and names the
# kind (regression, fix, behaviour, both, shared) and the root-cause key
# that bugs are grouped by (docs/check.md, "Bugs").
judge=("$mbdiff" judge --json --variants "$pair" --min-class "$min_class"
	--source "kernel:base=$base_tree/mm/memblock.c"
	--source "kernel:patched=$out/patched-check/mm/memblock.c")
mkdir -p "$out/findings"
for sig in "$out"/keep/*.sig; do
	[[ -f $sig ]] || continue
	h=$(basename "$sig" .sig)
	fd=$out/findings/$h
	mkdir -p "$fd"
	cp "$sig" "$fd/signature"
	if [[ -f $out/keep/$h.explore ]]; then
		echo "explore (the shortest: every shorter trace agrees)" >"$fd/found-by"
	elif [[ -f $out/keep/$h.corpus ]]; then
		echo corpus >"$fd/found-by"
	else
		echo libfuzzer >"$fd/found-by"
	fi
	# explore's traces are already the shortest
	if [[ -f $out/keep/$h.explore ]]; then
		cp "$out/keep/$h.mbt" "$fd/repro.mbt"
	else
		nice -n 10 "$mbdiff" minimize --no-expect --count-baseline-faults --max-runs 4000 \
			--variants "$pair" --min-class "$min_class" \
			"$out/keep/$h.mbt" -o "$fd/repro.mbt" >"$fd/minimize.log" 2>&1 || true
		[[ -f $fd/repro.mbt ]] || cp "$out/keep/$h.mbt" "$fd/repro.mbt"
	fi
	# the whole kept trace too: a patch that first behaves otherwise can
	# break the contract a few calls later (the minimized one stops at the
	# first difference)
	# one judge process a trace: a trace that dies under a sanitizer
	# (the kept one can go on past the difference into a crash) is not
	# judged; the crash itself is a bug of its own (crash triage below)
	: >"$fd/judge.jsonl"
	: >"$fd/judge.log"
	judged=0 repro_ok=0
	for t in "$fd/repro.mbt" "$out/keep/$h.mbt"; do
		if "${judge[@]}" "$t" >>"$fd/judge.jsonl" 2>"$fd/judge.one"; then
			judged=$((judged + 1))
			[[ $t == "$fd/repro.mbt" ]] && repro_ok=1
		elif grep -q 'ERROR: [A-Za-z]*Sanitizer\|runtime error:' "$fd/judge.one"; then
			printf '%s\n' "$t: not judged: it crashes a variant (below)" >>"$fd/judge.log"
		else
			broken "mbdiff judge failed on $t: $(tail -n 1 "$fd/judge.one")"
		fi
		cat "$fd/judge.one" >>"$fd/judge.log"
	done
	rm -f "$fd/judge.one"
	if ((judged == 0)); then
		mv "$fd/judge.log" "$out/keep/$h.judge.log"
		mbd_warn "finding $h: its traces crash a variant before they can be judged; the crash is triaged as a bug of its own ($out/keep/$h.judge.log)"
		rm -rf "$fd"
		continue
	fi
	# one judged: it stands for both (the kept trace, if the minimized
	# one is what crashes, is the reproducer)
	((repro_ok)) || cp "$out/keep/$h.mbt" "$fd/repro.mbt"
	jq -s --arg kept "$out/keep/$h.mbt" --arg repro "$fd/repro.mbt" --arg id "$h" \
		--arg by "$(cat "$fd/found-by")" '
		def rank: {regression: 5, both: 4, fix: 3, behaviour: 2, shared: 1, none: 0}[.kind] // 0;
		(if ((.[1] // .[0]) | rank) > (.[0] | rank) then .[1] + {reproducer: $kept}
		 else .[0] + {reproducer: $repro} end) + {finding: $id, found_by: $by}' \
		"$fd/judge.jsonl" >"$fd/judge.json"
	"$mbdiff" replay --narrow --no-expect --count-baseline-faults --variants "$pair" \
		--min-class "$min_class" "$(jq -r .reproducer "$fd/judge.json")" >"$fd/narrow.txt" 2>&1 || true
	# third opinion: does our reference agree with the base here? (the
	# version differences between them are data: known/*.known)
	kargs_ref=()
	kd=$MBD_ROOT/tests/algorithms/kernel-trees/known
	for kf in "$kd/$base_version~reference.known" "$kd/$base_version.known"; do
		[[ $base_version && -f $kf ]] && grep -q '^baseline: reference$' "$kf" || continue
		kargs_ref=(--known "$kf")
		break
	done
	if "$mbdiff" replay --quiet --no-expect --variants "reference,kernel:base" "${kargs_ref[@]}" \
		--min-class "$min_class" "$fd/repro.mbt" >"$fd/reference.txt" 2>&1; then
		echo agrees >"$fd/reference"
	else
		echo differs >"$fd/reference"
	fi
done

t_judged=$(mbd_now)
# ---- 6. bugs: one per root cause --------------------------------------------------

# sanitizer crashes and hangs: one bug per crash state (scripts/crash-triage.sh)
# Mainline's own faults in the corpus (a shared fault ends a replay as a
# baseline fault, so no finding shows it): a regression that breaks the
# same clause is a fault mainline has, reached in a new layout
# (check-bugs.sh). One judge process for all; one a trace when a trace
# kills it (a sanitizer), that trace left out.
: >"$out/base-faults.jsonl"
if ! "${judge[@]}" "${cfiles[@]}" >"$out/base-faults.all" 2>/dev/null; then
	: >"$out/base-faults.all"
	for f in "${cfiles[@]}"; do
		"${judge[@]}" "$f" >>"$out/base-faults.all" 2>/dev/null || true
	done
fi
jq -c 'select(.base.fault == true)' "$out/base-faults.all" >"$out/base-faults.jsonl" 2>/dev/null || true
rm -f "$out/base-faults.all"
mapfile -t crashes < <(find "$out/keep" -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' \) \
	! -name '*.variants' 2>/dev/null | sort)
if ((${#crashes[@]})); then
	bash "$MBD_ROOT/scripts/crash-triage.sh" --mbdiff "$mbdiff" --variants "$pair" \
		--out "$out/crashes" "${crashes[@]}" >"$out/crash-triage.log" 2>&1 ||
		mbd_warn "crash triage: $(tail -n 1 "$out/crash-triage.log")"
fi
bash "$MBD_ROOT/scripts/check-bugs.sh" --out "$out" >"$out/bugs.log" 2>&1 ||
	broken "grouping the findings into bugs failed: $(tail -n 1 "$out/bugs.log")"
mapfile -t bugdirs < <(find "$out/bugs" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | sort)
mbd_log "bugs: ${#bugdirs[@]} from $(find "$out/findings" -name judge.json | wc -l) signature(s)"

t_grouped=$(mbd_now)
# ---- 6b. what a search without bugs covered ------------------------------------------

# Branch coverage of the functions a memblock patch is about, in both
# variants: everything the search kept (the libFuzzer corpus and the corpus
# replayed) replayed once more through a clang source-coverage build.
covjson=null
# "replayed N inputs: ..., E errors": the N - E that ran (mutated text that
# the parser refuses is skipped, as the fuzz target skips it)
replayed() {
	tail -n 1 "$1" | awk '{ n = $2; e = 0; for (i = 3; i < NF; i++) if ($(i + 1) ~ /^errors?$/) e = $i; print n - e }'
}
if ((coverage && ${#bugdirs[@]} == 0)); then
	t0=$(mbd_now)
	cfuncs=memblock_add_range,memblock_isolate_range,memblock_merge_regions,memblock_insert_region,memblock_double_array
	if nice -n 10 bash "$MBD_ROOT/scripts/coverage.sh" --pair "$pair" --no-html \
		--kernel-variants "$bdir/kernel-variants.txt" --build-dir "$bdir-cov" \
		--functions "$cfuncs" --out "$out/coverage" --corpus "$out/corpus" \
		--corpus "$out/corpus-in" >"$out/coverage.log" 2>&1; then
		# summary.txt: VARIANT-DIR FUNCTION lines P% (a/b) branches P% (t/n)
		covjson=$(awk '{ gsub(/[()]/, ""); split($5, l, "/"); split($8, b, "/")
			v = $1 == "kernel-base" ? "kernel:base" : $1 == "kernel-patched" ? "kernel:patched" : $1
			printf "{\"variant\":\"%s\",\"function\":\"%s\",\"lines\":[%d,%d],\"branches\":[%d,%d]}\n",
				v, $2, l[1], l[2], b[1], b[2] }' "$out/coverage/summary.txt" |
			jq -s --arg s "$(mbd_elapsed "$t0")" --argjson n "$(replayed "$out"/coverage/replay-*.log)" \
				'{inputs: $n, seconds: ($s | tonumber), functions: .}')
	else
		covjson=$(jq -n --arg e "$(tail -n 1 "$out/coverage.log")" '{error: $e}')
	fi
	mbd_log "coverage: $out/coverage/summary.txt"
fi
setmeta coverage "$covjson"

t_covered=$(mbd_now)
# ---- 7. each bug: reachable with the kernel's 128-slot arrays? --------------------

for bd in "${bugdirs[@]}"; do
	key=$(jq -r .key "$bd/bug.json")
	reach=""
	rdir=$(dirname "$(jq -r .reproducer_from "$bd/bug.json")")
	if [[ $(jq -r .class "$bd/bug.json") == crash || $(jq -r .class "$bd/bug.json") == hang ]]; then
		# crash-triage.sh lifted it and replayed the lift in a child
		[[ -f $rdir/reachable ]] && reach=$(cat "$rdir/reachable")
		[[ -f $rdir/lifted.mbt ]] && cp "$rdir/lifted.mbt" "$bd/lifted.mbt" &&
			reach=${reach/lifted.mbt/${bd#"$out"/}/lifted.mbt}
	else
		# the deterministic answer (mbdiff lift): the reproducer on
		# 128-slot arrays, pre-filled so each array has the free slots it
		# had before each call, kept when the judge names the same bug
		lrc=0
		"$mbdiff" lift --variants "$pair" --min-class "$min_class" "$bd/repro.mbt" \
			-o "$bd/lifted.mbt" >"$bd/lift.log" 2>&1 || lrc=$?
		line=$(grep -m1 ': reachable with ' "$bd/lift.log" | sed 's/^.*: reachable with [0-9]*-slot arrays: //' || true)
		# a root cause: the reproducer of another of its effects may reach
		# where this one does not (a 1-slot array one, a 128-slot other)
		via=""
		if ((lrc == 1)); then
			while IFS=$'\t' read -r akey arep; do
				[[ -f $arep ]] || continue
				alrc=0
				"$mbdiff" lift --variants "$pair" --min-class "$min_class" "$arep" \
					-o "$bd/lifted-alt.mbt" >"$bd/lift-alt.log" 2>&1 || alrc=$?
				((alrc == 0)) || continue
				mv "$bd/lifted-alt.mbt" "$bd/lifted.mbt"
				cat "$bd/lift-alt.log" >>"$bd/lift.log"
				lrc=0 via=", lifted from the reproducer of its effect \"$akey\""
				break
			done < <(jq -r '.alternates // [] | .[] | [.key, .reproducer] | @tsv' "$bd/bug.json")
			rm -f "$bd/lifted-alt.mbt" "$bd/lift-alt.log"
		fi
		if ((lrc == 0)); then
			n=$(grep -c '^memblock_\|^slab_available' "$bd/lifted.mbt" || true)
			reach="yes ($n calls, 128-slot arrays: ${bd#"$out"/}/lifted.mbt$via)"
		elif ((lrc == 1)); then
			reach="not reachable ${line#not }"
			[[ $line == *"lifted trace gives"* ]] || rm -f "$bd/lifted.mbt"
		elif grep -q 'ERROR: \(AddressSanitizer\|UndefinedBehavior\)\|runtime error:' "$bd/lift.log"; then
			# a candidate crashed the process; -o holds it
			reach="not reachable as this bug: a lifted trace crashes instead ($(grep -m1 -o 'ERROR: [A-Za-z]*Sanitizer: [a-z-]*\|runtime error: .*' "$bd/lift.log" || true); ${bd#"$out"/}/lifted.mbt)"
		else
			reach="not searched: mbdiff lift failed: $(tail -n 1 "$bd/lift.log")"
		fi
	fi
	if [[ $reach != yes* ]] && ((reach_runs > 0)) && [[ $(jq -r .class "$bd/bug.json") != crash &&
		$(jq -r .class "$bd/bug.json") != hang ]]; then
		# a random search may add to the answer, never replace it
		h=$(jq -r .reproducer_of "$bd/bug.json")
		rk=$bd/reach
		mkdir -p "$rk/keep" "$rk/corpus" "$rk/seed"
		cp "$out/keep/$h.mbt" "$rk/seed/"
		nice -n 10 "$fuzz" "--variants=$pair" "--min-class=$min_class" --no-expect --count-baseline-faults \
			--config=boot "--keep-going=$rk/keep" -runs="$reach_runs" \
			-seed="$seed" -artifact_prefix="$rk/" -max_len=4096 "$rk/corpus" "$rk/seed" \
			"$out/corpus-in" >"$rk/fuzz.log" 2>&1 || true
		for t in "$rk"/keep/*.mbt; do
			[[ -f $t ]] || continue
			# the bug's key: its root cause when it has one (check-bugs.sh)
			[[ $("${judge[@]}" "$t" 2>/dev/null | jq -r 'if (.cause // "") != "" then .cause else .key end') == "$key" ]] || continue
			n=$(grep -c '^memblock_\|^slab_available' "$t" || true)
			cp "$t" "$bd/reach.mbt"
			reach="yes ($n calls, boot-array search: ${bd#"$out"/}/reach.mbt)"
			break
		done
		[[ $reach == yes* ]] || reach="$reach; not found in $reach_runs runs of the boot-array search either"
	fi
	printf '%s\n' "${reach:-not searched}" >"$bd/reachable"
done

t_reached=$(mbd_now)
# ---- 8. one kernel test per bug, in the real suite ----------------------------------

# the test checks the side that holds the contract (mainline, or the
# patch for a fix): it must pass there and fail on the other
ktest_list=()
for bd in "${bugdirs[@]}"; do
	kind=$(jq -r .kind "$bd/bug.json")
	if ((ktests == 0)); then
		echo "not checked (--no-kernel-tests)" >"$bd/kernel-test"
		continue
	elif [[ ! $base_version ]]; then
		echo "not checked (the real suite is taken from a Debian package; --tree has none)" >"$bd/kernel-test"
		continue
	elif [[ $(jq -r .class "$bd/bug.json") == crash ]]; then
		echo "none: a sanitizer crash is shown by the reproducer, not by an array check" >"$bd/kernel-test"
		continue
	fi
	good=kernel:base bad=kernel:patched
	[[ $kind == fix ]] && good=kernel:patched bad=kernel:base
	if "$mbdiff" emit-test "$bd/repro.mbt" --reference "$good" --patched "$bad" \
		-o "$bd/kernel-test.c" >"$bd/emit.log" 2>&1; then
		ktest_list+=("$bd/kernel-test.c")
	else
		printf 'none: %s\n' "$(sed 's/^mbdiff: //' "$bd/emit.log" | tail -n 1)" >"$bd/kernel-test"
	fi
done
if ((${#ktest_list[@]})); then
	mbd_log "kernel tests: ${#ktest_list[@]} in the real tools/testing/memblock of linux-source-$base_version"
	kargs=()
	for p in "${series[@]}"; do kargs+=(--patch "$p"); done
	krc=0
	MBDIFF_DEB_CACHE=$debs bash "$MBD_ROOT/scripts/kernel-suite.sh" --version "$base_version" \
		--work "$(dirname "$bdir")/kernel-suite" "${kargs[@]}" "${ktest_list[@]}" \
		>"$out/kernel-suite.txt" 2>"$out/kernel-suite.log" || krc=$?
	# kernel-suite.sh prints one line per test (all named kernel-test,
	# in the order given) and per NUMA build: test i is line i of each
	i=0
	for t in "${ktest_list[@]}"; do
		bd=$(dirname "$t")
		if ((krc == 77)); then
			echo "not checked: the real suite cannot be had here" >"$bd/kernel-test"
			i=$((i + 1))
			continue
		fi
		res=$(awk -v k="$i" -v n="${#ktest_list[@]}" '$1 == "kernel-test" { if (c % n == k) { $1 = ""; sub(/^ /, ""); printf "%s%s", sep, $0; sep = "; " } c++ }' \
			"$out/kernel-suite.txt")
		if [[ $res ]]; then
			printf '%s (linux-source-%s, %s)\n' "$res" "$base_version" "${bd#"$out"/}/kernel-test.c" >"$bd/kernel-test"
		else
			printf 'the suite did not run it: %s\n' "$(tail -n 1 "$out/kernel-suite.log")" >"$bd/kernel-test"
		fi
		i=$((i + 1))
	done
fi

# ---- 9. the report -------------------------------------------------------------

# the phases after the search, and the whole run up to the report
t_tested=$(mbd_now)
setmeta timings "$(jq --arg j "$(mbd_elapsed "$t_done" "$t_judged")" \
	--arg g "$(mbd_elapsed "$t_judged" "$t_grouped")" --arg c "$(mbd_elapsed "$t_grouped" "$t_covered")" \
	--arg r "$(mbd_elapsed "$t_covered" "$t_reached")" --arg k "$(mbd_elapsed "$t_reached" "$t_tested")" \
	--arg t "$(mbd_elapsed "$t_start" "$t_tested")" \
	'.timings + {minimize_judge_s: ($j|tonumber), bugs_s: ($g|tonumber), coverage_s: ($c|tonumber),
	  reach_s: ($r|tonumber), kernel_tests_s: ($k|tonumber), total_s: ($t|tonumber)}' "$meta")"
setmeta date "$(jstr "$(date -u +%Y-%m-%dT%H:%M:%SZ)")"
args=(--out "$out")
[[ $json ]] && args+=(--json "$json")
rc=0
bash "$MBD_ROOT/scripts/check-report.sh" "${args[@]}" || rc=$?
exit "$rc"
