#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/crash-triage.sh --mbdiff MBDIFF --variants BASE,PATCHED
#                                --out DIR [--timeout S] ARTIFACT...
#
# Sanitizer crashes and hangs as bugs (`mbdiff check`, step 6), the way
# ClusterFuzz treats them. Each ARTIFACT (a libFuzzer crash-* or timeout-*
# file, or a .mbt trace) is replayed in a child process by MBDIFF (a
# sanitizer build) and its crash state taken from the report: the error
# type, the innermost frame inside the kernel file (mm/memblock.c) and its
# line, quoted from that variant's file, and which variant it is in; the
# two frames above it say how it was reached (listed, not part of the
# state: one wrong line reached from two callers is one bug). A replay
# that does not end in S seconds (default 5; a memblock call takes
# microseconds) is a hang: it is stopped with SIGABRT, and the function the
# sanitizer's stack shows it looping in is its state. Artifacts of one
# state are one bug: the one with the fewest calls is minimized in a child
# process per candidate (mbdiff minimize --fork) and kept only if it still
# gives the same state.
#
# Writes DIR/STATE-HASH/ with judge.json (the fields `mbdiff judge --json`
# gives, for scripts/check-bugs.sh), repro.mbt, sanitizer.txt (the report
# of the reproducer), artifacts (the files of that state) and reachable
# (the reproducer lifted to 128-slot arrays, `mbdiff lift --build-only`,
# replayed in a child: the same crash state or not), and prints
# one line per state. Exit 0; 2 on bad usage.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

mbdiff="" pair="" out="" tmo=5
arts=()
while (($#)); do
	case $1 in
	--mbdiff | --mbdiff=*) mbd_optval "$@"; mbdiff=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--variants | --variants=*) mbd_optval "$@"; pair=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	-o | --out | --out=*) mbd_optval "$@"; out=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--timeout | --timeout=*) mbd_optval "$@"; tmo=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	-*) mbd_usage_error "unknown option '$1'" ;;
	*) arts+=("$1") ;;
	esac
	shift
done
[[ -x $mbdiff ]] || mbd_usage_error "--mbdiff MBDIFF (an executable) is required"
[[ $pair == *,* ]] || mbd_usage_error "--variants BASE,PATCHED is required"
[[ $out ]] || mbd_usage_error "--out DIR is required"
mbd_check_uint --timeout "$tmo" 1
mkdir -p "$out"
base=${pair%%,*} patched=${pair#*,}

# replay FILE LOG [VARIANTS]: the replay's exit status, 124 on a hang
replay() {
	local rc=0
	# a hang is stopped with SIGABRT so the sanitizer prints where it loops
	ASAN_OPTIONS=${ASAN_OPTIONS:-}:symbolize=1:detect_leaks=0:handle_abort=1 \
		timeout -s ABRT -k 5 "$tmo" "$mbdiff" replay --verbose --no-expect --count-baseline-faults \
		--variants "${3:-$pair}" "$1" >"$2" 2>&1 || rc=$?
	return "$rc"
}

# state LOG RC: "TYPE|SIDE|F1 < F2 < F3|FILE:LINE" of the report in LOG, or
# nothing when it shows no sanitizer error
state() {
	local log=$1 rc=$2
	local hang=""
	if ((rc == 124 || rc == 137)); then
		# where the SIGABRT stack says it loops, else the last call the
		# verbose replay began
		hang=$(frames "$log" "hang")
		if [[ -z $hang || $hang == hang\|*\|\|* ]]; then
			local last
			last=$(grep -o '^\[[^]]*\] memblock_[a-z_]*' "$log" | tail -n 1 | sed 's/^\[\([^]]*\)\] /\1|/')
			hang="hang|${last%%|*}|${last#*|}|"
		fi
		printf '%s\n' "$hang"
		return
	fi
	frames "$log" ""
}

# frames LOG TYPE: "TYPE|SIDE|F1 < F2 < F3|FILE:LINE" from the sanitizer
# report in LOG; TYPE given: any stack counts (a hang stopped by SIGABRT)
frames() {
	local log=$1
	awk -v base="$base" -v patched="$patched" -v type="$2" '
		function side(p) { return p ~ /\/kernel-patched\// ? patched : p ~ /\/kernel-base\// ? base : "" }
		/ERROR: AddressSanitizer: / && type == "" { t = $0; sub(/.*AddressSanitizer: /, "", t); sub(/ .*/, "", t); sub(/:$/, "", t); type = t }
		/runtime error: / && type == "" { t = $0; sub(/.*runtime error: /, "", t); type = "ubsan: " t
			split($1, loc, ":"); if (loc[1] ~ /mm\/memblock\.c$/) { where = loc[1] ":" loc[2]; s = side(loc[1]) } }
		/ERROR: libFuzzer: deadly signal/ && type == "" { type = "deadly-signal" }
		/^ *#[0-9]+ 0x[0-9a-f]+ in / && type != "" {
			fn = $4; file = $5
			if (file ~ /mm\/memblock\.c:/ && n < 3) {
				if (n == 0) { split(file, loc, ":"); where = where == "" ? loc[1] ":" loc[2] : where
					if (s == "") s = side(file) }
				if (fn != last) { frames = frames (n ? " < " : "") fn; n++; last = fn }
			}
		}
		END { if (type != "") printf "%s|%s|%s|%s\n", type, s, frames, where }' "$log"
}

# api_call LOG: the memblock call the trace made when it crashed: the
# frame glue.c called in the report's first stack (the kernel's own log
# lines also name calls memblock makes inside, such as the free of an old
# array); empty when the stack does not show it
api_call() {
	awk '/^ *#[0-9]+ 0x[0-9a-f]+ in / {
		if ($4 == "mbd_glue_call") { if (prev ~ /^_*memblock_|^slab_/) print prev; exit }
		prev = $4 }' "$1"
}

# bug STATE: the state's bug (its hash input): type, side, innermost frame, line
bug() {
	local type side frames where
	IFS='|' read -r type side frames where <<<"$1"
	# a loop spans lines: a hang is its function
	[[ $type == hang ]] && where=""
	printf '%s|%s|%s|%s' "$type" "$side" "${frames%% <*}" "$where"
}

# calls ARTIFACT MBT: the artifact as .mbt in MBT, its number of calls
calls() {
	if "$mbdiff" convert "$1" -o "$2" >/dev/null 2>&1; then
		grep -c '^memblock_\|^slab_available' "$2" || true
	else
		echo 1000000
	fi
}

declare -A first=() count=() best=() bestn=() members=() callers=()
work=$out/.work
rm -rf "$work"
mkdir -p "$work"
i=0
for a in "${arts[@]}"; do
	[[ -f $a ]] || { mbd_warn "$a: no such file (skipped)"; continue; }
	i=$((i + 1))
	rc=0
	replay "$a" "$work/$i.log" || rc=$?
	st=$(state "$work/$i.log" "$rc")
	if [[ ! $st ]]; then
		printf '%s: no crash on replay (exit %s): not a bug here\n' "$a" "$rc"
		continue
	fi
	# one bug per crash site: the type, the side, the innermost kernel
	# frame and its line; the callers above it (ClusterFuzz's next two
	# frames) only say how it was reached, the same wrong line from two
	# callers is one bug to a maintainer
	h=$(bug "$st" | sha1sum | cut -c1-16)
	callers[$h]+="${st#*|*|}"$'\n'

	n=$(calls "$a" "$work/$i.mbt")
	count[$h]=$((${count[$h]:-0} + 1))
	members[$h]+="$a"$'\n'
	if [[ -z ${best[$h]:-} ]] || ((n < ${bestn[$h]})); then
		best[$h]=$i bestn[$h]=$n first[$h]=$st
	fi
done

for h in "${!best[@]}"; do
	d=$out/$h
	rm -rf "$d"
	mkdir -p "$d"
	printf '%s' "${members[$h]}" >"$d/artifacts"
	i=${best[$h]} st=${first[$h]}
	cp "$work/$i.mbt" "$d/repro.mbt"
	cp "$work/$i.log" "$d/sanitizer.txt"
	IFS='|' read -r type side frames where <<<"$st"
	# the minimizer keeps the crash (each candidate in a child); only a
	# reproducer of the same state replaces the artifact's trace
	if [[ $type != hang ]] &&
		"$mbdiff" minimize --fork --no-expect --count-baseline-faults --max-runs 2000 \
			--variants "$pair" "$d/repro.mbt" -o "$d/min.mbt" >"$d/minimize.log" 2>&1; [[ -f $d/min.mbt ]]; then
		rc=0
		replay "$d/min.mbt" "$d/min.log" || rc=$?
		mst=$(state "$d/min.log" "$rc")
		if [[ $(bug "$mst") == "$(bug "$st")" ]]; then
			mv "$d/min.mbt" "$d/repro.mbt"
			mv "$d/min.log" "$d/sanitizer.txt"
			# the same site; the frames above it are the reproducer's
			IFS='|' read -r type side frames where <<<"$mst"
		fi
	fi
	rm -f "$d/min.mbt" "$d/min.log"
	# which side: the other one alone on the same trace
	other=$base
	[[ $side == "$base" ]] && other=$patched
	orc=0
	replay "$d/repro.mbt" "$d/other.log" "$other" || orc=$?
	ost=$(state "$d/other.log" "$orc")
	if [[ $side == "$base" ]]; then
		kind=fix who="mainline"
		[[ $ost ]] && kind=shared
	else
		kind=regression who="the patch"
		[[ $ost ]] && kind=both
	fi
	[[ $kind == shared ]] && who="both"
	cls=crash
	[[ $type == hang ]] && cls=hang
	site=""
	if [[ $where ]]; then
		f=${where%:*} l=${where##*:}
		line=$(sed -n "${l}p" "$f" 2>/dev/null | sed 's/^[[:space:]]*//')
		site="mm/memblock.c:$l: $line"
	fi
	if [[ $cls == hang ]]; then
		key="$who hangs in ${frames%% <*}"
		title="${frames%% <*}() never returns (no result in $tmo s)"
		what="hang: $frames does not return"
	else
		key="$who crashes: $type in ${frames%% <*}${where:+ at line ${where##*:}}"
		title="$type in ${frames%% <*}()"
		what="$type in $frames"
	fi
	call=$(api_call "$d/sanitizer.txt")
	[[ $call ]] || call=$(grep -o '^\[[^]]*\] memblock_[a-z_]*' "$d/sanitizer.txt" | tail -n 1 | sed 's/^\[[^]]*\] //')
	jq -n --arg kind "$kind" --arg key "$key" --arg cls "$cls" --arg title "$title" --arg site "$site" \
		--arg what "$what" --arg call "$call" --argjson n "$(grep -c '^memblock_\|^slab_available' "$d/repro.mbt" || true)" \
		--argjson arts "${count[$h]}" --arg from "$(printf '%s' "${callers[$h]}" | cut -d'|' -f1 | sed '/</!s/.*/(called directly)/; s/^[^<]*< *//' | sort -u)" --arg repro "$d/repro.mbt" --arg side "$side" '
		{file: $repro, calls: $n, divergent: true, kind: $kind, class: $cls, where: "call",
		 call: (if $call == "" then null else $call end), key: $key, title: $title,
		 site: (if $site == "" then null else $site end), detail: $what, artifacts: $arts,
		 reached_from: ($from | split("\n") | map(select(. != ""))),
		 base: {fault: ($kind == "fix" or $kind == "shared" or $kind == "both"), what: (if $kind == "fix" then $what else null end)},
		 patched: {fault: ($kind != "fix"), class: $cls, what: $what},
		 crashed_side: $side}' >"$d/judge.json"
	# reachable with the kernel's 128-slot arrays? The lift is built on the
	# side that does not crash (its calls before the crash are the same)
	# and replayed in a child like the artifacts
	reach="not reachable by lifting: the side that does not crash cannot be lifted"
	bside=patched
	[[ $side == "$patched" ]] && bside=base
	for fl in above below; do
		[[ $kind == shared || $kind == both || $reach == yes* ]] && break
		for sc in 1 4 16 64; do
			"$mbdiff" lift --build-only "$bside" --scale "$sc" --fillers "$fl" --variants "$pair" \
				-o "$d/lifted.mbt" "$d/repro.mbt" >"$d/lift.log" 2>&1 || continue
			lrc=0
			replay "$d/lifted.mbt" "$d/lifted.log" || lrc=$?
			if [[ $(bug "$(state "$d/lifted.log" "$lrc")") == "$(bug "$st")" ]]; then
				reach="yes ($(grep -c '^memblock_\|^slab_available' "$d/lifted.mbt" || true) calls, 128-slot arrays: lifted.mbt)"
				break
			fi
			reach="not reachable by lifting: no lifted trace (scales 1-64, fillers above and below) crashes there"
		done
	done
	[[ $reach == yes* ]] || rm -f "$d/lifted.mbt"
	printf '%s\n' "$reach" >"$d/reachable"
	printf '%s: %s, %s artifact(s): %s\n' "$h" "$kind" "${count[$h]}" "$key"
done
rm -rf "$work"
