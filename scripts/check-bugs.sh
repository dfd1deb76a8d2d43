#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/check-bugs.sh --out DIR
#
# One bug per root cause (`mbdiff check`, step 6). Reads the judgement of
# every finding (DIR/findings/*/judge.json, written by `mbdiff judge`) and
# of every sanitizer crash state (DIR/crashes/*/judge.json, written by
# scripts/crash-triage.sh) and groups them by their root cause: where the
# judge found the arrays growing differently at the call the two sides part
# (`cause`), every fault and difference that follows is one bug, its keys
# kept as `effects`; else by the key: the BUG_ON() site, the contract
# clause and array the wrong side breaks, the crash state, or what behaves
# differently. Findings both sides share (a mainline fault the
# patch leaves as it is) are no bug of the patch: counted, not listed.
# A regression whose fault mainline also has on other calls (the same key
# in DIR/base-faults.jsonl, the corpus judged by check.sh, or in any
# judgement where mainline breaks the contract) is kind "exposes": the
# patch reaches a fault of mainline's in a new layout, no bug of its own;
# `mainline_fault` names the shortest trace where mainline has it.
# Writes DIR/bugs/NN/ (worst first: regression, exposes, both wrong, fix,
# behaviour change; then by class) with bug.json, repro.mbt (the shortest reproducer
# of the group), narrow.txt and calls, and DIR/bugs.json (all of them).
# Exit 0, or 2 when DIR is not a check output folder.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

out=""
while (($#)); do
	case $1 in
	-o | --out | --out=*) mbd_optval "$@"; out=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
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
rm -rf "$out/bugs"
mkdir -p "$out/bugs"

# every judgement, one JSON object a line: findings, then crash states
all=$out/bugs/.all.jsonl
: >"$all"
for j in "$out"/findings/*/judge.json "$out"/crashes/*/judge.json; do
	[[ -f $j ]] || continue
	if [[ $j == "$out"/crashes/* ]]; then
		d=$(dirname "$j")
		jq -c --arg d "$d" '. + {reproducer: "\($d)/repro.mbt", finding: ($d | split("/") | last),
			found_by: "libFuzzer (sanitizer)", signatures: (.artifacts // 1)}' "$j" >>"$all"
	else
		jq -c . "$j" >>"$all"
	fi
done

base_faults=$out/base-faults.jsonl
[[ -f $base_faults ]] || base_faults=/dev/null
jq -s --slurpfile bf "$base_faults" '
	def krank: {regression: 5, exposes: 4.5, both: 4, fix: 3, behaviour: 2}[.kind] // 0;
	def crank: {crash: 9, hang: 8, panic: 7, coverage: 6, invariant: 5, return: 4,
		    layout: 3, capacity: 2, warning: 1}[. // ""] // 0;
	# the class of what is wrong: the wrong side fault, else the difference
	def cls: if .class == "crash" or .class == "hang" then .class
		 elif (.kind == "regression" or .kind == "exposes" or .kind == "both") and .patched.fault
		 then (.patched.class // .class)
		 elif .kind == "fix" and .base.fault then (.base.class // .class)
		 else .class end;
	def ncalls: if .calls == null then 1000000 else .calls end;
	# the faults of mainline by key: the shortest trace that shows each
	(($bf + .) | map(select(.base.fault == true and (.base.key // "") != ""))
	 | group_by(.base.key)
	 | map(min_by(ncalls) | {key: .base.key, value: {key: .base.key, trace: (.reproducer // .file), calls}})
	 | from_entries) as $mainline
	| map(if .kind == "regression" and $mainline[.patched.key // ""] != null
	      then . + {kind: "exposes", mainline_fault: $mainline[.patched.key]} else . end)
	| map(select(.kind == "regression" or .kind == "exposes" or .kind == "both" or .kind == "fix" or
		     .kind == "behaviour"))
	| map(. + {bug_class: cls, group: (if (.cause // "") != "" then .cause else .key end)})
	| group_by(.group)
	| map(
		(max_by(krank)) as $worst
		| (map(select(.kind == $worst.kind)) | min_by(ncalls)) as $best
		| ($best.cause // "") as $cause
		| {key: $worst.group, kind: $worst.kind,
		   class: (map(.bug_class) | max_by(crank)),
		   title: (if $cause != "" then "the patch grows the arrays otherwise than mainline"
			   else $best.title end),
		   site: $best.site,
		   cause: (if $cause != "" then $best.cause_why else null end),
		   effects: (if $cause != "" then map(.key) | unique else [] end),
		   # the shortest reproducer of each other effect: the lift tries
		   # them when the reproducer of the bug does not reach 128-slot arrays
		   alternates: (if $cause != "" then
			map(select(.reproducer != $best.reproducer)) | group_by(.key)
			| map(min_by(ncalls) | {key, reproducer}) | sort_by(.key) else [] end),
		   signatures: (map(.signatures // 1) | add),
		   calls: (map(.call | select(. != null)) | unique),
		   findings: map(.finding),
		   reproducer_of: $best.finding, reproducer_from: $best.reproducer,
		   mainline_fault: $best.mainline_fault,
		   found_by: $best.found_by, what: (if $best.kind == "fix" then $best.base.what
			else $best.patched.what end),
		   base: $best.base, patched: $best.patched, divergence: $best.detail})
	| sort_by([-(krank), -(.class | crank), -.signatures, .key])
' "$all" >"$out/bugs/.bugs.json"

n=$(jq length "$out/bugs/.bugs.json")
for ((i = 0; i < n; i++)); do
	id=$(printf '%02d' "$((i + 1))")
	bd=$out/bugs/$id
	mkdir -p "$bd"
	jq --arg id "$id" ".[$i] + {id: \$id, reproducer: \"bugs/$id/repro.mbt\"}" \
		"$out/bugs/.bugs.json" >"$bd/bug.json"
	src=$(jq -r .reproducer_from "$bd/bug.json")
	cp "$src" "$bd/repro.mbt"
	f=$out/findings/$(jq -r .reproducer_of "$bd/bug.json")
	[[ -f $f/narrow.txt ]] && cp "$f/narrow.txt" "$bd/narrow.txt"
	grep -c '^memblock_\|^slab_available' "$bd/repro.mbt" >"$bd/calls" || true
done
if ((n)); then jq -s . "$out"/bugs/*/bug.json >"$out/bugs.json"; else echo '[]' >"$out/bugs.json"; fi
# what is not a bug of the patch: shared faults and agreements
jq -s '{shared: map(select(.kind == "shared")) | length,
	none: map(select(.kind == "none")) | length}' "$all" >"$out/bugs/not-bugs.json"
printf '%s: %d bug(s) from %d judgement(s)\n' "$MBD_PROG" "$n" "$(wc -l <"$all")"
