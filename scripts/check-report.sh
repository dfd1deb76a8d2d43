#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/check-report.sh --out DIR [--json FILE]
#
# The report of a `mbdiff check` run (scripts/check.sh writes DIR and calls
# this last; run it again to re-render): plain text in at most 72 columns,
# to stdout and DIR/report.txt; with --json the same as JSON. The first
# screen is the verdict over all bugs (DIR/bugs.json, scripts/check-bugs.sh),
# the bugs worst first (in 40 lines: with title and site, else one line
# each, else the worst and a count), and the command that replays each;
# the details follow. Exit (the verdict's): 0 CLEAN, 0 FIXES (the patch
# fixes mainline faults and brings in none of its own), 1 REGRESSION, 4 CRASH (a
# sanitizer crash or hang in the patched code), 5 BEHAVIOUR CHANGE (both
# hold the API contract and differ); 2 bad DIR.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

out="" json=""
while (($#)); do
	case $1 in
	-o | --out | --out=*) mbd_optval "$@"; out=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--json | --json=*) mbd_optval "$@"; json=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
	shift
done
[[ $out ]] || mbd_usage_error "--out DIR is required"
[[ -f $out/meta.json ]] || {
	printf '%s: error: %s/meta.json: not a check output folder\n' "$MBD_PROG" "$out" >&2
	exit 2
}
meta=$out/meta.json
m() { jq -r "$1" "$meta"; }

# what a class means for a booting kernel, one line
means() {
	case $1 in
	crash) echo "memblock itself corrupts memory (sanitizer): anything can follow" ;;
	hang) echo "a memblock call never returns: the boot hangs" ;;
	panic) echo "one side stops the boot with BUG()/panic() where the other goes on" ;;
	coverage) echo "memory lost or gained: pages used twice, or never, by the kernel" ;;
	invariant) echo "the arrays break memblock's rules (order, overlap, totals)" ;;
	return) echo "a call returns another value or address: callers take another path" ;;
	layout) echo "the same memory split or merged differently" ;;
	capacity) echo "the arrays grow differently: other memory is reserved for them" ;;
	warning) echo "WARN_ON() fires a different number of times" ;;
	*) echo "unknown class" ;;
	esac
}
rank() {
	local i=0 c
	for c in crash hang panic coverage invariant return layout capacity warning; do
		[[ $c == "$1" ]] && { echo "$i"; return; }
		i=$((i + 1))
	done
	echo 9
}
# wrap at 72 columns, continuation lines indented by $1 more spaces
wrap() {
	local ind=${1:-4}
	awk -v ind="$ind" '{
		line = $0
		match(line, /^ */); lead = RLENGTH
		first = 1
		while (length(line) > 72) {
			cut = 72
			for (i = 72; i > lead + 20; i--) if (substr(line, i, 1) == " ") { cut = i; break }
			head = substr(line, 1, cut); sub(/ +$/, "", head); print head
			rest = substr(line, cut + 1); sub(/^ +/, "", rest)
			line = sprintf("%*s%s", lead + ind, "", rest)
		}
		sub(/ +$/, "", line)
		print line
	}'
}
# a .mbt trace as the calls a memblock=debug log shows, config made short
repro_lines() {
	awk '/^#/ || /^[[:space:]]*$/ || /^expect/ { next }
		/^config / {
			s = "config"
			for (i = 2; i <= NF; i++) {
				split($i, kv, "=")
				if (kv[1] ~ /^(memory.max|reserved.max|resize)$/ ||
				    (kv[2] != "0" && kv[2] != "0xffffffffffffffff")) s = s " " $i
			}
			print s; next
		}
		{ print }' "$1"
}

[[ -f $out/bugs.json ]] || printf '[]\n' >"$out/bugs.json"
bugs=$out/bugs.json
n=$(jq length "$bugs")
nk() { jq "[.[] | select($1)] | length" "$bugs"; }
n_reg=$(nk '.kind == "regression"')
n_exp=$(nk '.kind == "exposes"')
n_crash=$(nk '(.kind == "regression" or .kind == "exposes") and (.class == "crash" or .class == "hang")')
n_fix=$(nk '.kind == "fix"')
n_both=$(nk '.kind == "both"')
n_beh=$(nk '.kind == "behaviour"')
# "both wrong": mainline breaks the contract first and the patch breaks it
# its own way there; no evidence against the patch alone, so no regression
# (a fix that leaves such layouts passes, a patch of only such changes is a
# behaviour change a reviewer has to read)
if ((n_crash)); then verdict=crash rc=4
elif ((n_reg)); then verdict=regression rc=1
# "exposes": the patch reaches a fault mainline has on other calls, in a
# layout where mainline holds. Beside a fix it is the fix moving mainline's
# other fault, no bug of the patch's own (FIXES); alone it only makes that
# fault easier to reach (REGRESSION)
elif ((n_fix)); then verdict=fixes rc=0
elif ((n_exp)); then verdict=regression rc=1
elif ((n_beh + n_both)); then verdict=behaviour-change rc=5
else verdict=clean rc=0
fi
plural() { (($1 == 1)) && printf '%s %s' "$1" "$2" || printf '%s %ss' "$1" "$2"; }
also() { # the other kinds, for the first line
	local s=""
	((n_fix)) && [[ $verdict != fixes ]] && s+=", $(plural "$n_fix" fix | sed 's/fixs/fixes/')"
	((n_exp)) && ((n_reg + n_fix)) && s+=", $(plural "$n_exp" "mainline fault") reached in a new layout"
	((n_both)) && s+=", $n_both both wrong"
	((n_beh)) && [[ $verdict != behaviour-change ]] && s+=", $(plural "$n_beh" "behaviour change")"
	printf '%s' "$s"
}
who() {
	case $1 in
	regression | exposes) echo "the patch" ;;
	fix) echo "mainline" ;;
	both) echo "both" ;;
	*) echo "neither" ;;
	esac
}
sigs=$(find "$out/findings" -name judge.json 2>/dev/null | wc -l)
shared=$(jq -r '.shared // 0' "$out/bugs/not-bugs.json" 2>/dev/null || echo 0)
# The verdict and what was searched: the first lines of the report.
first_part() {
	case $verdict in
	crash) printf 'mbdiff check: CRASH - %s; the patched code dies\n' "$(plural "$n_reg" bug)$(also)" ;;
	regression)
		if ((n_reg)); then
			printf 'mbdiff check: REGRESSION - %s the patch brings in%s\n' "$(plural "$n_reg" bug)" "$(also)"
		else
			printf 'mbdiff check: REGRESSION - %s of mainline the patch reaches where mainline holds, no fix\n' \
				"$(plural "$n_exp" fault)"
		fi ;;
	fixes) printf 'mbdiff check: FIXES - %s of mainline, no regression%s\n' "$(plural "$n_fix" bug)" "$(also)" ;;
	behaviour-change)
		if ((n_beh)); then
			printf 'mbdiff check: BEHAVIOUR CHANGE - %s, both sides keep the API contract%s\n' \
				"$(plural "$n_beh" difference)" "$( ((n_both)) && printf ', %s where both are wrong' "$n_both")"
		else
			printf 'mbdiff check: BEHAVIOUR CHANGE - %s where mainline breaks the API contract and the patch breaks it otherwise\n' "$n_both"
		fi ;;
	clean) printf 'mbdiff check: CLEAN - no difference of class %s or worse\n' "$(m .search.min_class)" ;;
	esac | wrap 2
	printf '\n'
	m '.patches[]' | sed 's/^/patch: /' | wrap 7
	printf 'base:  %s\n' "$(m .base)" | wrap 7
	if [[ $(m '.checked // empty') ]]; then
		printf 'checked: %s\n' "$(m .checked)" | wrap 4
	fi
	if [[ $(m '.ignored_files | length') != 0 ]]; then
		printf 'not compiled by mbdiff: %s\n' "$(m '.ignored_files | join(", ")')" | wrap 4
	fi
	if [[ $(m '.already_applied // [] | length') != 0 ]]; then
		printf 'already applied in: %s (not tried backwards)\n' "$(m '.already_applied | join(", ")')" | wrap 4
	fi
	if [[ $(m '.explore // empty') ]]; then
		if [[ $(m '.explore.error // empty') ]]; then
			printf 'explored: stopped: %s\n' "$(m .explore.error)" | wrap 2
		elif [[ $(m '.explore.certificate // empty') ]]; then
			printf 'explored: %s\n' "$(m .explore.certificate)" | wrap 2
		else
			printf 'explored: every trace of <= %s calls over alphabet %s: %s shortest counterexample(s)\n' \
				"$(m .explore.depth_done)" "$(basename "$(m .explore.alphabet)" .alpha)" \
				"$(m .explore.counterexamples)" | wrap 2
		fi
	fi
	if [[ $(m '.search.fuzz_runs // empty') ]]; then
		printf 'searched: %s corpus traces, %s libFuzzer execs (--runs %s)\n' \
			"$(m .search.corpus_inputs)" "$(m .search.fuzz_execs)" "$(m .search.fuzz_runs)" | wrap 2
	else
		printf 'searched: %s corpus traces, %s libFuzzer execs in %s s\n' \
			"$(m .search.corpus_inputs)" "$(m .search.fuzz_execs)" "$(m .search.fuzz_time)" | wrap 2
	fi
	if ((sigs)); then
		printf 'judged: %s signature(s) -> %s bug(s)' "$sigs" "$n"
		((shared)) && printf '; %s shared with mainline as it is' "$shared"
		printf '\n'
	fi | wrap 2
	if ((shared)); then
		# mainline's own faults, which the patch keeps: no bug of the patch
		printf 'mainline faults the patch keeps (not its bugs):\n'
		jq -r 'select(.kind == "shared") | .key | sub("^both break "; "")' "$out/bugs/.all.jsonl" |
			sort | uniq -c | sort -rn | awk '{ n = $1; $1 = ""; printf "  %s (%d)\n", substr($0, 2), n }' | wrap 4
	fi
}

# reach ID: "reachable", "not reachable" or "not searched"
reach() {
	local r
	r=$(cat "$out/bugs/$1/reachable" 2>/dev/null || echo "not searched")
	case $r in yes*) echo reachable ;; not\ searched) echo "not searched" ;; *) echo "not reachable" ;; esac
}
# a root cause's site is where its first fault stops, not the cause
site_word() { if [[ $(jq -r '.cause // empty' <<<"$1") ]]; then echo "first fault at"; else echo at; fi; }
kind_name() { jq -r .kind <<<"$1" | sed 's/^both$/both wrong/'; }
# a bug's title made short for its one line: the common phrases of the
# contract clauses, then cut at the column
short_title() {
	sed 's/bytes present that the calls made should not be there/bytes no call put there/
		s/bytes missing that the calls made should be there/bytes a call put there are gone/
		s/the memory and reserved arrays share bytes/the two arrays overlap/
		s/the right bytes with other flags or node id/other flags or node id/
		s/other coverage, each side consistent with its own calls/other coverage, both consistent/
		s/ returns another value or address/ returns otherwise/
		s/ grows or moves differently/ grows or moves otherwise/' <<<"$1" |
		awk -v w="$2" '{ if (length($0) > w) $0 = substr($0, 1, w - 3) "..."; print }'
}

# The bugs, worst first, within the first screen (about 40 lines with the
# lines above and the reproduce command): each with its title and site
# when they fit, else one line each, else the first ones and a count.
bug_list() {
	local i b id full="" compact="" room shown
	for ((i = 0; i < n; i++)); do
		b=$(jq -c ".[$i]" "$bugs")
		id=$(jq -r .id <<<"$b")
		full+=$(printf '%2d %-10s %-9s %s\n' "$((i + 1))" "$(kind_name "$b")" "$(jq -r .class <<<"$b")" "$(reach "$id")"
			printf '   %s\n' "$(jq -r .title <<<"$b")" | wrap 5
			[[ $(jq -r '.site // empty' <<<"$b") ]] && printf '   %s %s\n' "$(site_word "$b")" "$(jq -r .site <<<"$b")" | wrap 6
			printf 'x')
		full=${full%x}
		compact+=$(printf '%2d %-10s %-9s %-3s %s\n' "$((i + 1))" "$(kind_name "$b")" "$(jq -r .class <<<"$b")" \
			"$(case $(reach "$id") in reachable) echo yes ;; not\ searched) echo "?" ;; *) echo no ;; esac)" \
			"$(short_title "$(jq -r .title <<<"$b")" 44)"
			printf 'x')
		compact=${compact%x}
	done
	# what is left of 40 lines: the lines above, this header and its
	# blank line, the reproduce command (six lines), the blank line and
	# the heading of the first bug's details
	room=$((40 - $(printf '%s\n' "$headtxt" | wc -l) - 2 - 6 - 2))
	if (($(printf '%s' "$full" | wc -l) <= room)); then
		printf '\nbugs, worst first (who is wrong, class, 128-slot arrays):\n'
		printf '%s' "$full"
		return
	fi
	printf '\nbugs, worst first (who is wrong, class, reachable at 128 slots):\n'
	if ((n <= room)); then
		printf '%s' "$compact"
	else
		shown=$((room > 2 ? room - 1 : 1))
		printf '%s' "$compact" | head -n "$shown"
		printf '   ... and %d more (bug %d of %d onwards, below)\n' "$((n - shown))" "$((shown + 1))" "$n"
	fi
}

text=$out/report.txt
headtxt=$(first_part)
{
	printf '%s\n' "$headtxt"
	if ((n)); then
		bug_list
		nn=01
		((n > 1)) && nn=NN
		printf '\nreproduce (the check build'\''s mbdiff%s):\n' "$( ((n > 1)) && printf '; NN = 01..%02d' "$n")"
		printf '  %s \\\n' "$(m '.mbdiff // "mbdiff"')"
		printf '    replay --count-baseline-faults \\\n'
		printf '    --variants kernel:base,kernel:patched \\\n'
		printf '  %s/bugs/%s/repro.mbt\n' "$out" "$nn"
	fi
	for ((i = 0; i < n; i++)); do
		b=$(jq -c ".[$i]" "$bugs")
		id=$(jq -r .id <<<"$b")
		bd=$out/bugs/$id
		kind=$(jq -r .kind <<<"$b")
		cls=$(jq -r .class <<<"$b")
		printf '\nbug %d of %d: %s, %s (%s wrong)\n' "$((i + 1))" "$n" "$kind" "$cls" "$(who "$kind")" | wrap 2
		printf '  %s\n' "$(jq -r .title <<<"$b")" | wrap 4
		[[ $(jq -r '.site // empty' <<<"$b") ]] && printf '  %s %s\n' "$(site_word "$b")" "$(jq -r .site <<<"$b")" | wrap 4
		case $kind in
		regression) printf '  the patch breaks the API contract here, mainline holds it\n' ;;
		exposes)
			printf '  the patch breaks the API contract here, mainline holds it;\n'
			printf '  mainline breaks it the same way on other calls: %s (%s calls)\n' \
				"$(jq -r '.mainline_fault.trace' <<<"$b" | sed "s|^$MBD_ROOT/||")" \
				"$(jq -r '.mainline_fault.calls // "?"' <<<"$b")" | wrap 4 ;;
		fix) printf '  mainline breaks the API contract here, the patch holds it\n' ;;
		both) printf '  both break the API contract here, each its own way\n' ;;
		behaviour) printf '  both hold the API contract and differ\n' ;;
		esac
		printf '  means: %s\n' "$(means "$cls")" | wrap 4
		if [[ $(jq -r '.cause // empty' <<<"$b") ]]; then
			printf '  root cause: %s\n' "$(jq -r .cause <<<"$b")" | wrap 4
			printf '  what follows from it (%s): %s\n' "$(jq -r '.effects | length' <<<"$b")" \
				"$(jq -r '.effects | map(sub("^the patch breaks |^mainline breaks "; "")) | join("; ")' <<<"$b")" | wrap 4
		fi
		[[ $(jq -r '.what // empty' <<<"$b") ]] && printf '  wrong side: %s\n' "$(jq -r .what <<<"$b")" | wrap 4
		printf '  reached from: %s signature(s)%s\n' "$(jq -r .signatures <<<"$b")" \
			"$(jq -r 'if (.calls | length) > 0 then ", calls " + (.calls | join(", ")) else "" end' <<<"$b")" | wrap 4
		printf '  found by: %s\n' "$(jq -r .found_by <<<"$b" | sed 's/^corpus$/corpus replay/')" | wrap 4
		printf '  reachable with 128-slot arrays: %s\n' "$(cat "$bd/reachable" 2>/dev/null || echo "not searched")" | wrap 4
		f=$out/findings/$(jq -r .reproducer_of <<<"$b")
		if [[ -f $f/reference ]]; then
			if [[ $(cat "$f/reference") == agrees ]]; then
				printf '  our reference model agrees with mainline here\n'
			else
				printf '  our reference model differs from this mainline here (mbdiff\n'
				printf '  replay --variants reference,kernel:base shows it)\n'
			fi
		fi
		[[ -f $bd/kernel-test ]] && printf '  tools/testing/memblock test: %s\n' "$(cat "$bd/kernel-test")" | wrap 4
		printf '  reproducer (%s, %s calls):\n' "bugs/$id/repro.mbt" "$(cat "$bd/calls" 2>/dev/null || echo '?')"
		repro_lines "$bd/repro.mbt" | sed 's/^/    /' | wrap 4
		if [[ -f $bd/narrow.txt ]] && grep -q '^after call' "$bd/narrow.txt"; then
			printf '  what mainline and the patch leave behind:\n'
			sed -n '/^after call/,/^detail/p' "$bd/narrow.txt" | sed 's/^/  /' | wrap 4
		elif [[ -f $out/crashes/$(jq -r .reproducer_of <<<"$b")/sanitizer.txt ]]; then
			printf '  sanitizer report (trimmed):\n'
			head -n 12 "$out/crashes/$(jq -r .reproducer_of <<<"$b")/sanitizer.txt" | sed 's/^/    /' | wrap 4
		fi
		printf '  key: %s\n' "$(jq -r .key <<<"$b")" | wrap 4
	done
	if ((n == 0)); then
		printf '\ncovered: every call kind of the corpus and the fuzzer; libFuzzer\n'
		f=$(ls "$out"/fuzz-*.log 2>/dev/null | tail -n 1 || true)
		if [[ $f ]]; then
			cov=$(grep -o 'cov: [0-9]*' "$f" | tail -n 1 | awk '{print $2}')
			ft=$(grep -o 'ft: [0-9]*' "$f" | tail -n 1 | awk '{print $2}')
			printf '  reached %s edges (%s features) in mbdiff, both variants\n' "${cov:-?}" "${ft:-?}"
			printf '  and the oracle\n'
		fi
		if [[ $(m '.coverage.functions // empty') ]]; then
			printf 'branches taken (clang source coverage; the %s inputs the\n' "$(m .coverage.inputs)"
			printf '  search kept, replayed):\n'
			printf '  %-28s %-12s %s\n' function mainline patch
			jq -r '.coverage.functions | group_by(.function) | .[] |
				[.[0].function,
				 (map(select(.variant == "kernel:base"))[0].branches // [0, 0] | "\(.[0])/\(.[1])"),
				 (map(select(.variant == "kernel:patched"))[0].branches // [0, 0] | "\(.[0])/\(.[1])")] |
				@tsv' "$meta" | awk -F'\t' '{ printf "  %-28s %-12s %s\n", $1, $2, $3 }'
		elif [[ $(m '.coverage.error // empty') ]]; then
			printf 'branch coverage: not measured: %s\n' "$(m .coverage.error)" | wrap 2
		fi
		printf 'calls in the corpus traces by kind:\n'
		find "$out/corpus-in/" -name '*.mbt' -exec cat {} + 2>/dev/null |
			sed -n 's/^\(memblock_[a-z_]*\|slab_available\).*/\1/p' | sort | uniq -c |
			sort -rn | awk '{ printf "  %7d %s\n", $1, $2 }'
	fi
	printf '\nfiles: %s\n' "$out" | wrap 2
} >"$text"
cat "$text"

if [[ $json ]]; then
	bj=$out/bugs-report.json
	printf '[]\n' >"$bj"
	for ((i = 0; i < n; i++)); do
		id=$(jq -r ".[$i].id" "$bugs")
		bd=$out/bugs/$id
		jq --slurpfile all "$bugs" --argjson i "$i" --arg reach "$(cat "$bd/reachable" 2>/dev/null || echo "not searched")" \
			--arg kt "$(cat "$bd/kernel-test" 2>/dev/null || true)" --arg repro "$(repro_lines "$bd/repro.mbt")" \
			--arg file "$bd/repro.mbt" --arg means "$(means "$(jq -r ".[$i].class" "$bugs")")" \
			--arg after "$(sed -n '/^after call/,/^detail/p' "$bd/narrow.txt" 2>/dev/null || true)" \
			'. += [$all[0][$i] | {id, kind, who_is_wrong: ({regression: "patch", exposes: "patch", fix: "mainline", both: "both"}[.kind] // "neither"),
			  class, key, mainline_fault, title, site, what, cause, effects, signatures, calls, means: $means, found_by,
			  reachable_with_kernel_arrays: $reach, reachable: ($reach | startswith("yes")),
			  kernel_test: $kt, reproducer: ($repro | split("\n")), reproducer_file: $file,
			  after: $after}]' "$bj" >"$bj.tmp" && mv "$bj.tmp" "$bj"
	done
	jq --slurpfile b "$bj" --argjson rc "$rc" --arg v "$verdict" --arg txt "$text" \
		--slurpfile nb "$out/bugs/not-bugs.json" \
		'. + {verdict: $v, exit: $rc, bugs: $b[0], findings: $b[0],
		  not_bugs: ($nb[0] // {}), report: $txt}' "$meta" >"$json.tmp"
	mv "$json.tmp" "$json"
fi
exit "$rc"
