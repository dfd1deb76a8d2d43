#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/check-report.sh --out DIR [--json FILE]
#
# The report of a `mbdiff check` run (scripts/check.sh writes DIR and calls
# this last; run it again to re-render): plain text in at most 72 columns,
# verdict first, to stdout and DIR/report.txt; with --json the same as
# JSON. Worst finding first. Exit 0 clean, 1 finding(s), 2 bad DIR.
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
	for c in crash panic coverage invariant return layout capacity warning; do
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

mapfile -t fdirs < <(for d in "$out"/findings/*/; do
	[[ -f $d/signature ]] || continue
	sig=$(sed -n 2p "$d/signature")
	cls=$(echo "$sig" | awk '{ split($4, a, "/"); print a[2] }')
	echo "$(rank "$cls") ${d%/}"
done | sort -n | cut -d' ' -f2-)
n=${#fdirs[@]}
mapfile -t crashes < <(find "$out/keep" -maxdepth 1 -name 'crash-*' ! -name '*.variants' 2>/dev/null | sort)

text=$out/report.txt
{
	if ((${#crashes[@]})); then
		printf 'mbdiff check: CRASH - memblock or mbdiff died under a sanitizer\n'
	elif ((n)); then
		printf 'mbdiff check: %d FINDING(S) - the patch changes what memblock does\n' "$n"
	else
		printf 'mbdiff check: CLEAN - no difference of class %s or worse\n' "$(m .search.min_class)"
	fi
	printf '\n'
	m '.patches[]' | sed 's/^/patch: /' | wrap 7
	printf 'base:  %s\n' "$(m .base)" | wrap 7
	if [[ $(m '.ignored_files | length') != 0 ]]; then
		printf 'not compiled by mbdiff: %s\n' "$(m '.ignored_files | join(", ")')" | wrap 4
	fi
	printf 'compared: mainline (kernel:base) and the patch (kernel:patched),\n'
	printf '  the oracle checking both after every call\n'
	if [[ $(m '.explore // empty') ]]; then
		xf=$(m .explore.counterexamples)
		if [[ $(m '.explore.error // empty') ]]; then
			printf 'explored: failed: %s\n' "$(m .explore.error)" | wrap 2
		elif [[ $(m '.explore.certificate // empty') ]]; then
			printf 'explored: %s\n' "$(m .explore.certificate)" | wrap 2
		else
			printf 'explored: every trace of <= %s calls over alphabet %s:\n' \
				"$(m .explore.depth_done)" "$(basename "$(m .explore.alphabet)" .alpha)" | wrap 2
			printf '  %s shortest counterexample(s) in %s s\n' "$xf" "$(m .explore.seconds)"
		fi
		if [[ $(m '.explore.stopped // empty') ]]; then
			printf '  (depth %s not finished: %s)\n' "$(m .explore.depth)" "$(m .explore.stopped)" | wrap 4
		fi
	fi
	if [[ $(m '.search.fuzz_runs // empty') ]]; then
		printf 'searched: %s corpus traces, then %s libFuzzer execs (--runs %s)\n' \
			"$(m .search.corpus_inputs)" "$(m .search.fuzz_execs)" "$(m .search.fuzz_runs)" | wrap 2
	else
		printf 'searched: %s corpus traces, then %s libFuzzer execs in %s s\n' \
			"$(m .search.corpus_inputs)" "$(m .search.fuzz_execs)" "$(m .search.fuzz_time)" | wrap 2
	fi
	printf '  (mbdiff check, %s, classes %s and worse)\n' "$(m .date)" "$(m .search.min_class)"
	k=0
	for d in "${fdirs[@]}"; do
		k=$((k + 1))
		sig=$(sed -n 2p "$d/signature")
		read -r _ kind who wc _ _ _ op <<<"$sig"
		cls=${wc#*/} where=${wc%/*}
		printf '\nfinding %d of %d: %s in %s, at %s\n' "$k" "$n" "$cls" "$where" "$op" | wrap 2
		[[ $kind == oracle ]] && printf '  (the oracle: %s breaks the API contract)\n' "$who"
		printf '  means: %s\n' "$(means "$cls")" | wrap 4
		printf '  found by: %s\n' "$(sed 's/^corpus$/corpus replay/' "$d/found-by")" | wrap 4
		printf '  reachable with kernel-sized arrays: %s\n' "$(cat "$d/reachable")" | wrap 4
		if [[ $(cat "$d/reference") == agrees ]]; then
			printf '  our reference model agrees with mainline here (known\n'
			printf '  version differences aside)\n'
		else
			printf '  our reference model differs from this mainline here, not\n'
			printf '  by a known version difference (mbdiff replay --variants\n'
			printf '  reference,kernel:base shows it)\n'
		fi
		if [[ -f $d/kernel-test ]]; then
			printf '  tools/testing/memblock test: %s\n' "$(cat "$d/kernel-test")" | wrap 4
		fi
		printf '  reproducer (%s):\n' "$(basename "$d")/repro.mbt"
		repro_lines "$d/repro.mbt" | sed 's/^/    /' | wrap 4
		printf '  what mainline and the patch leave behind:\n'
		sed -n '/^after call/,/^detail/p' "$d/narrow.txt" | sed 's/^/  /' | wrap 4
		printf '  signature: %s\n' "$sig" | wrap 4
	done
	for c in "${crashes[@]+"${crashes[@]}"}"; do
		printf '\nsanitizer crash (libFuzzer artifact; the log says where):\n'
		printf '  %s\n' "$c" | wrap 4
	done
	if ((n == 0 && ${#crashes[@]} == 0)); then
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

rc=0
((n + ${#crashes[@]})) && rc=1
if [[ $json ]]; then
	fj=$out/findings.json
	printf '[]\n' >"$fj"
	for d in "${fdirs[@]}"; do
		sig=$(sed -n 2p "$d/signature")
		read -r _ kind who wc _ _ _ op <<<"$sig"
		jq --arg h "$(basename "$d")" --arg sig "$sig" --arg cls "${wc#*/}" --arg where "${wc%/*}" \
			--arg op "$op" --arg kind "$kind" --arg means "$(means "${wc#*/}")" \
			--arg by "$(cat "$d/found-by")" --arg reach "$(cat "$d/reachable")" \
			--arg kt "$(cat "$d/kernel-test" 2>/dev/null || true)" --arg ref "$(cat "$d/reference")" --arg repro "$(repro_lines "$d/repro.mbt")" \
			--arg after "$(sed -n '/^after call/,/^detail/p' "$d/narrow.txt")" --arg file "$d/repro.mbt" \
			'. += [{id: $h, signature: $sig, class: $cls, where: $where, op: $op, kind: $kind,
			  means: $means, found_by: $by, reachable_with_kernel_arrays: $reach,
			  reference: $ref, kernel_test: $kt, reproducer: ($repro | split("\n")), reproducer_file: $file,
			  after: $after}]' "$fj" >"$fj.tmp" && mv "$fj.tmp" "$fj"
	done
	jq --slurpfile f "$fj" --argjson rc "$rc" --arg txt "$text" \
		'. + {verdict: (if $rc == 0 then "clean" else "finding" end), exit: $rc,
		  findings: $f[0], report: $txt}' "$meta" >"$json.tmp"
	mv "$json.tmp" "$json"
fi
exit "$rc"
