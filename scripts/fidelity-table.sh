#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/fidelity-table.sh [--versions "7.3 7.2 6.12 6.1 5.10"]
#                                  [--runs N] [--runs-small N] [--time-cap S]
#                                  [--fuzz-preset P] [--deb-cache DIR]
#                                  [--out FILE] [--work DIR] [--resume]
#
# The fidelity table of docs/fidelity.md, in one command: for each kernel
# version, fetch Debian's linux-source-V (scripts/get-kernel-tree.sh), build
# its mm/memblock.c unmodified as kernel:vV (scripts/kernel-variant.sh, in
# the default and the fuzz build), and run scripts/fidelity.sh against the
# model of that version with the version's known-differences file
# (tests/algorithms/kernel-trees/known/V.known, whose "baseline:" line names the
# model). Each row: builds?, corpus agreement, fuzz executions, distinct
# signatures and how many are unexplained. Versions whose known file lists
# "also: FILE" get one more row per such file (e.g. the real v6.12 file
# against the v7.3 reference, where the version differences are the data).
#
# --versions LIST   versions, in table order (default: 7.3 7.2 6.12 6.1 5.10)
# --runs N          fuzz executions for 7.3, 6.12 and 5.10 (default 1000000)
# --runs-small N    for the other rows (default 100000)
# --time-cap S      stop each fuzz run after S seconds anyway (default 900)
# --fuzz-preset P   the libFuzzer build (default fuzz-plain: no sanitizers,
#                   about 3x the speed; "fuzz" for ASan+UBSan)
# --deb-cache DIR   passed to get-kernel-tree.sh
# --out FILE        the Markdown table (default docs/fidelity-table.md)
# --work DIR        logs (default out/fidelity-table-<date>)
# --resume          keep the rows a previous run in the same --work finished
#                   (their fidelity.sh logs) and run only the others
# Run it under nice: it fuzzes for several minutes on every core it is given
# (one fuzzer at a time). Exit 0 when every row has zero unexplained
# differences, 1 otherwise, 2 on errors.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

versions="7.3 7.2 6.12 6.1 5.10" runs=1000000 runs_small=100000 cap=900
fuzz_preset=fuzz-plain debs="" out="" work="" resume=0
while (($#)); do
	case $1 in
	--versions | --versions=*) mbd_optval "$@"; versions=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--runs | --runs=*) mbd_optval "$@"; runs=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--runs-small | --runs-small=*) mbd_optval "$@"; runs_small=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--time-cap | --time-cap=*) mbd_optval "$@"; cap=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--fuzz-preset | --fuzz-preset=*) mbd_optval "$@"; fuzz_preset=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--deb-cache | --deb-cache=*) mbd_optval "$@"; debs=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--out | --out=*) mbd_optval "$@"; out=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--work | --work=*) mbd_optval "$@"; work=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--resume) resume=1 ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
	shift
done
mbd_check_uint --runs "$runs"
mbd_check_uint --runs-small "$runs_small"
mbd_check_uint --time-cap "$cap"
[[ $versions =~ ^[0-9.\ ]+$ ]] || mbd_usage_error "--versions: expected versions like \"7.3 6.12\", got '$versions'"
out=${out:-$MBD_ROOT/docs/fidelity-table.md}
work=${work:-$MBD_OUT/fidelity-table-$(mbd_timestamp)}
mkdir -p "$work"
known_dir=$MBD_ROOT/tests/algorithms/kernel-trees/known
big=" 7.3 6.12 5.10 "

# ---- trees and variants: every version in both builds, one build each
declare -A tree built
for v in $versions; do
	[[ -r $known_dir/$v.known ]] || mbd_die "no $known_dir/$v.known: every row needs its known-differences file"
	gargs=(--version "$v")
	[[ $debs ]] && gargs+=(--deb-cache "$debs")
	if t=$(bash "$MBD_ROOT/scripts/get-kernel-tree.sh" "${gargs[@]}" 2>"$work/get-$v.log" | tail -n 1) && [[ -d $t ]]; then
		tree[$v]=$t
	else
		mbd_warn "linux-source-$v could not be fetched ($(tail -n 1 "$work/get-$v.log"))"
		continue
	fi
	for p in default "$fuzz_preset"; do
		bash "$MBD_ROOT/scripts/kernel-variant.sh" --preset "$p" --tree "$t" --name "v${v//./-}" --no-configure \
			>>"$work/register.log" 2>&1 || mbd_die "kernel-variant.sh --preset $p --tree $t failed: $work/register.log"
	done
done
for p in default "$fuzz_preset"; do
	mbd_log "building $p with every kernel variant"
	if ! bash "$MBD_ROOT/scripts/build.sh" "$p" >"$work/build-$p.log" 2>&1; then
		mbd_warn "the $p build failed as a whole; see $work/build-$p.log"
	fi
done
for v in "${!tree[@]}"; do
	if "$(mbd_build_dir default)/mbdiff" list 2>/dev/null | grep -q "^kernel:v${v//./-}[[:space:]]"; then
		built[$v]=1
	fi
done

# VERSION.PATCHLEVEL.SUBLEVEL from a tree's Makefile
release() {
	awk -F' *= *' '$1 == "VERSION" {v = $2} $1 == "PATCHLEVEL" {p = $2}
		$1 == "SUBLEVEL" {s = $2} END {printf "v%s.%s.%s", v, p, s}' "$1/Makefile" 2>/dev/null
}

# ---- one fidelity run per row
rows=()
status=0
row() { # VERSION KNOWN-FILE RUNS
	local v=$1 kf=$2 n=$3 name=kernel:v${1//./-} log base c f sig_k sig_u
	log=$work/fidelity-$v-$(basename "$kf" .known).log
	base=$(sed -n 's/^baseline:[[:space:]]*\([^[:space:]]*\).*/\1/p' "$kf" | head -n 1)
	base=${base:-reference}
	if [[ -z ${tree[$v]:-} ]]; then
		rows+=("| v$v | not fetched | $base | | | | |")
		status=1
		return
	fi
	if [[ -z ${built[$v]:-} ]]; then
		rows+=("| v$v | **no** (see build log) | $base | | | | |")
		status=1
		return
	fi
	if ((resume)) && [[ -f $log ]] && grep -q '^fidelity-fuzz: ' "$log"; then
		mbd_log "fidelity v$v against $base: kept from $log"
	else
		mbd_log "fidelity v$v against $base ($(basename "$kf")), $n runs"
		set +e
		bash "$MBD_ROOT/scripts/fidelity.sh" "$name" --known "$kf" --runs "$n" --time "$cap" --min-class warning \
		--fuzz-build-dir "$(mbd_build_dir "$fuzz_preset")" --work "$work/fidelity-$v-$(basename "$kf" .known)" >"$log" 2>&1
		set -e
	fi
	c=$(sed -n 's/^fidelity-corpus: //p' "$log" | tail -n 1)
	f=$(sed -n 's/^fidelity-fuzz: //p' "$log" | tail -n 1)
	[[ $c && $f ]] || { rows+=("| v$v | yes | $base | fidelity.sh failed ($log) | | | |"); status=1; return; }
	local inputs agree ck cu execs secs
	inputs=$(sed 's/.*inputs=\([0-9]*\).*/\1/' <<<"$c")
	agree=$(sed 's/.*agree=\([0-9]*\).*/\1/' <<<"$c")
	ck=$(sed 's/.*known=\([0-9]*\).*/\1/' <<<"$c")
	cu=$(sed 's/.*unexplained=\([0-9]*\).*/\1/' <<<"$c")
	execs=$(sed 's/.*execs=\([0-9]*\).*/\1/' <<<"$f")
	secs=$(sed 's/.*seconds=\([0-9]*\).*/\1/' <<<"$f")
	sig_k=$(grep -c '^fidelity-signature: known ' "$log" || true)
	sig_u=$(grep -c '^fidelity-signature: unexplained ' "$log" || true)
	((sig_u == 0)) || status=1
	rows+=("| $(release "${tree[$v]}") (linux-source-$v) | yes | $base | $agree of $inputs agree, $ck known, $cu unexplained | $execs in $secs s | $sig_k known | **$sig_u** |")
	sed -n "s/^fidelity-signature: /v$v~$base: /p" "$log" >>"$work/signatures.txt"
}
: >"$work/signatures.txt"
for v in $versions; do
	n=$runs_small
	[[ $big == *" $v "* ]] && n=$runs
	row "$v" "$known_dir/$v.known" "$n"
	while read -r extra; do
		[[ $extra ]] && row "$v" "$known_dir/$extra" "$runs_small"
	done < <(sed -n 's/^also:[[:space:]]*\([^[:space:]]*\).*/\1/p' "$known_dir/$v.known")
done

{
	echo "<!-- SPDX-License-Identifier: GPL-2.0 -->"
	echo "<!-- Generated by scripts/fidelity-table.sh on $(date -u +%Y-%m-%d); do not edit. -->"
	echo
	echo "| kernel file (Debian package) | builds unmodified | compared with | corpus | fuzz executions | distinct signatures | unexplained |"
	echo "|---|---|---|---|---|---|---|"
	printf '%s\n' "${rows[@]}"
	echo
	echo "Command: \`nice -n 10 bash scripts/fidelity-table.sh --versions \"$versions\" --runs $runs --runs-small $runs_small --fuzz-preset $fuzz_preset\`"
	echo "($(date -u +%Y-%m-%d), $(mbd_nproc) cores shared with other work)."
	echo
	echo "Every distinct signature seen, with the upstream commit that explains it:"
	echo
	echo '```'
	sort -u "$work/signatures.txt"
	echo '```'
} >"$out.tmp"
mv "$out.tmp" "$out"
cat "$out"
exit "$status"
