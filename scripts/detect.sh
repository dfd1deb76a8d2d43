#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/detect.sh [options]
#
# Measure how well the harness detects each variant and seeded bug
# (mutant) against the reference, and write the table as markdown to
# docs/detection.md (with the command line, date, machine and budget).
#
# For every variant that `mbdiff list` shows, except those of kind
# reference, libFuzzer (build/fuzz/fuzz_diff, one process, one core) runs
# with -seed=1..N, with the structured and the naive decoder, once from an
# empty corpus and once from the shipped seeds (corpus/seeds converted to
# binary with `mbdiff convert`). Each run stops at the first divergence or
# after --budget seconds. For each combination the table gives how many
# runs found one, its class and signature (the most frequent one, op index
# left out), and the median and range of execs and wall-clock seconds to
# it; a run that found nothing counts as slower than all.
#
# Options:
#   --budget S       time limit of each run in seconds (default 60)
#   --seeds N        libFuzzer seeds per combination (default 5)
#   --variants LIST  only these variants (comma-separated names from
#                    `mbdiff list`; default: every non-reference one)
#   --baseline NAME  the variant compared against (default reference)
#   --min-class C    count only divergences of class C or worse (default
#                    warning: any difference, as docs/ measured; the
#                    campaigns' default is capacity)
#   --decoders LIST  structured,naive (default both)
#   --corpora LIST   empty,seeds (default both)
#   --max-len N      -max_len of every run (default 200 for structured and
#                    500 for naive, about 32 calls; raised to the largest
#                    seed when a seed is bigger)
#   --strict         exit 1 if some mutant was never detected
#   --out FILE       markdown output (default docs/detection.md)
#   --work DIR       logs and crash files (default out/detect-<date>)
#   --no-build       do not run scripts/build.sh default fuzz
#   -h, --help       this text
#
# Environment: MBDIFF (the CLI, default build/default/mbdiff) and
# MBD_FUZZ_DIFF (the libFuzzer target, default build/fuzz/fuzz_diff).
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

orig_args=("$@")
budget=60
nseeds=5
variants=
baseline=reference
min_class=warning
decoders=structured,naive
corpora=empty,seeds
max_len=
strict=0
out_md=$MBD_ROOT/docs/detection.md
work=
build=1
while (($#)); do
	case $1 in
	--budget | --budget=*) mbd_optval "$@"; budget=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--seeds | --seeds=*) mbd_optval "$@"; nseeds=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--variants | --variants=*) mbd_optval "$@"; variants=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--baseline | --baseline=*) mbd_optval "$@"; baseline=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--min-class | --min-class=*) mbd_optval "$@"; min_class=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--decoders | --decoders=*) mbd_optval "$@"; decoders=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--corpora | --corpora=*) mbd_optval "$@"; corpora=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--max-len | --max-len=*) mbd_optval "$@"; max_len=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--strict) strict=1; shift ;;
	--out | --out=*) mbd_optval "$@"; out_md=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--work | --work=*) mbd_optval "$@"; work=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--no-build) build=0; shift ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
done
mbd_check_uint --budget "$budget"
mbd_check_uint --seeds "$nseeds"
if [[ -n $variants ]]; then mbd_check_variants "$variants"; fi
mbd_check_variants "$baseline"
if [[ -n $min_class ]]; then mbd_check_class "$min_class"; fi
if [[ -n $max_len ]]; then mbd_check_uint --max-len "$max_len"; fi
IFS=, read -r -a dec_list <<<"$decoders"
for d in "${dec_list[@]}"; do mbd_check_decoder "$d"; done
IFS=, read -r -a corp_list <<<"$corpora"
for c in "${corp_list[@]}"; do
	case $c in empty | seeds) ;; *) mbd_usage_error "--corpora must list empty and/or seeds, got '$c'" ;; esac
done
out_md=$(mbd_abs "$out_md")
work=$(mbd_abs "${work:-$MBD_OUT/detect-$(mbd_timestamp)}")

if ((build)); then
	bash "$MBD_ROOT/scripts/build.sh" default fuzz
fi
fuzz=${MBD_FUZZ_DIFF:-$(mbd_prog fuzz fuzz_diff)}
mbdiff=$(mbd_mbdiff)
mbd_require_bin "$mbdiff" default
mbd_require_bin "$fuzz" fuzz
mkdir -p "$work"
mbd_trap_signals

# ---------------------------------------------------------------- variants
# name -> kind and summary, from `mbdiff list` (NAME KIND KERNEL SUMMARY...).
declare -A kind_of summary_of
all=()
while read -r name kind _kernel rest; do
	[[ $name == NAME || -z $name ]] && continue
	kind_of[$name]=$kind
	summary_of[$name]=$rest
	all+=("$name")
done < <("$mbdiff" list)
[[ -n ${kind_of[$baseline]:-} ]] || mbd_die "baseline '$baseline' is not in \`mbdiff list\`"
targets=()
if [[ -n $variants ]]; then
	IFS=, read -r -a targets <<<"$variants"
	for v in "${targets[@]}"; do
		[[ -n ${kind_of[$v]:-} ]] || mbd_die "variant '$v' is not in \`mbdiff list\` (build it first?)"
	done
else
	for v in "${all[@]}"; do
		if [[ ${kind_of[$v]} != reference && $v != "$baseline" ]]; then targets+=("$v"); fi
	done
fi
((${#targets[@]})) || mbd_die "no variant to measure"

# ---------------------------------------------------------------- seeds
declare -A seed_dir len_for
for dec in "${dec_list[@]}"; do
	seed_dir[$dec]=$work/seeds-$dec
	rm -rf -- "${seed_dir[$dec]}"
	n=$(mbd_prepare_seeds "$MBD_ROOT/corpus/seeds" "${seed_dir[$dec]}" "$dec")
	mbd_log "$n seeds converted for the $dec decoder"
	if [[ -n $max_len ]]; then
		len_for[$dec]=$max_len
	else
		if [[ $dec == naive ]]; then len_for[$dec]=500; else len_for[$dec]=200; fi
		big=$(find "${seed_dir[$dec]}" -type f -printf '%s\n' | sort -n | tail -n 1)
		if ((${big:-0} > len_for[$dec])); then len_for[$dec]=$big; fi
	fi
done

# ---------------------------------------------------------------- runs
# One libFuzzer run under a watchdog. Sets run_secs, run_execs, run_rc,
# run_crash (the first crash file or "").
lf_run() {
	local dir=$1 bin=$2
	shift 2
	local t0
	rm -rf -- "$dir"
	mkdir -p "$dir/corpus" "$dir/crashes"
	t0=$(mbd_now)
	mbd_spawn timeout --kill-after=10 "$((budget + 120))" "$bin" \
		"-artifact_prefix=$dir/crashes/" -print_final_stats=1 -timeout=10 \
		"$@" >"$dir/log" 2>&1
	mbd_wait "$MBD_LAST_PID"
	run_rc=$MBD_WAIT_RC
	run_secs=$(mbd_elapsed "$t0")
	run_execs=$(mbd_lf_execs "$dir/log")
	run_crash=$(mbd_crash_files "$dir/crashes" | head -n 1)
	rm -rf -- "$dir/corpus"
	if [[ -n $MBD_INTERRUPTED ]]; then
		mbd_die "interrupted; partial logs in $(mbd_rel "$work")"
	fi
}

# Values on stdin ("inf" for not found); prints the median.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }
# "lo - hi" of the finite values on stdin.
range() { grep -v inf | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { if (NR) print lo " - " hi; else print "-" }'; }
# The class in a signature line ("... memory/coverage at op 2 ...").
sig_class() {
	local c
	c=$(sed -n 's|.*/\([a-z]*\) at op .*|\1|p' <<<"$1")
	if [[ -z $c ]]; then c=$(awk '{ print $2 }' <<<"$1"); fi
	printf '%s\n' "$c"
}
md_escape() { printf '%s\n' "${1//|/\\|}"; }

rows=()
run_rows=()
summary_rows=()
undetected_mutants=()
for v in "${targets[@]}"; do
	any=0
	classes=()
	for dec in "${dec_list[@]}"; do
		mbd_set_target_args "$baseline,$v" "$dec" "$min_class" 0
		for corp in "${corp_list[@]}"; do
			found=0 times=() execs=() sigs=()
			for ((s = 1; s <= nseeds; s++)); do
				dir=$work/$v/$dec-$corp-$s
				extra=()
				if [[ $corp == seeds ]]; then extra=("${seed_dir[$dec]}"); fi
				lf_run "$dir" "$fuzz" "-seed=$s" "-max_len=${len_for[$dec]}" \
					"-max_total_time=$budget" "${MBD_TARGET_ARGS[@]}" \
					"$dir/corpus" "${extra[@]}"
				sig=
				if [[ -n $run_crash ]]; then sig=$(mbd_signature "$run_crash"); fi
				if [[ $sig == "mbdiff: "* ]]; then
					found=$((found + 1))
					times+=("$run_secs")
					execs+=("$run_execs")
					# shellcheck disable=SC2001 # a regex, not a plain pattern
					sigs+=("$(sed 's/ at op [0-9]* / at op N /' <<<"$sig")")
					run_rows+=("| $v | $dec | $corp | $s | $run_secs | $run_execs | \`$(md_escape "$sig")\` |")
					mbd_log "$v $dec $corp -seed=$s: $run_secs s, $run_execs execs: $sig"
				else
					if [[ -z $run_crash && $run_rc != 0 ]]; then
						tail -n 5 "$dir/log" >&2
						mbd_die "$(mbd_rel "$fuzz") failed (exit $run_rc); log: $(mbd_rel "$dir/log")"
					fi
					times+=(inf)
					execs+=(inf)
					what="not found in $budget s"
					if [[ -n $run_crash ]]; then
						# A sanitizer report, out-of-memory or timeout
						# ended the run: a harness problem, not a finding.
						what="stopped after $run_secs s by a $(basename "$run_crash" | cut -d- -f1) that is no divergence"
					fi
					run_rows+=("| $v | $dec | $corp | $s | $what | $run_execs | $(md_escape "${sig:--}") |")
					mbd_log "$v $dec $corp -seed=$s: $what ($run_execs execs)"
				fi
			done
			if ((found)); then
				any=1
				top=$(printf '%s\n' "${sigs[@]}" | sort | uniq -c | sort -rn | head -n 1 | sed 's/^ *[0-9]* //')
				cls=$(sig_class "$top")
				classes+=("$cls")
				m_t=$(printf '%s\n' "${times[@]}" | median)
				m_e=$(printf '%s\n' "${execs[@]}" | median)
				if [[ $m_t == inf ]]; then m_t="> $budget"; m_e="-"; fi
				r_t=$(printf '%s\n' "${times[@]}" | range)
				r_e=$(printf '%s\n' "${execs[@]}" | range)
				rows+=("| $v | ${kind_of[$v]} | $dec | $corp | $found/$nseeds | $cls | $m_e | $r_e | $m_t | $r_t | \`$(md_escape "$top")\` |")
			else
				rows+=("| $v | ${kind_of[$v]} | $dec | $corp | 0/$nseeds | - | - | - | > $budget | - | not found |")
			fi
		done
	done
	cls_text=$(printf '%s\n' "${classes[@]}" | sort -u | paste -sd, - | sed 's/,/, /g')
	if ((any)); then
		summary_rows+=("| $v | ${kind_of[$v]} | yes | ${cls_text} | $(md_escape "${summary_of[$v]}") |")
	else
		summary_rows+=("| $v | ${kind_of[$v]} | **no** | - | $(md_escape "${summary_of[$v]}") |")
		if [[ ${kind_of[$v]} == mutant ]]; then undetected_mutants+=("$v"); fi
	fi
done

# ---------------------------------------------------------------- report
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
clang_v=$(clang --version 2>/dev/null | head -n 1)
rev=$(git -C "$MBD_ROOT" rev-parse --short HEAD 2>/dev/null || echo "no commit")
if [[ -n $(git -C "$MBD_ROOT" status --porcelain 2>/dev/null | head -n 1) ]]; then rev="$rev + local changes"; fi
lens=
for dec in "${dec_list[@]}"; do lens+="${lens:+, }${len_for[$dec]} ($dec)"; done
mkdir -p "$(dirname "$out_md")"
tmp_md=$out_md.tmp
{
	echo "<!-- SPDX-License-Identifier: GPL-2.0 -->"
	echo "<!-- Generated by scripts/detect.sh; rerun it instead of editing. -->"
	echo "# Detection: variants and seeded bugs against $baseline"
	echo
	echo "- command: \`bash scripts/detect.sh${orig_args[*]:+ $(mbd_quote "${orig_args[@]}")}\`"
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), tree: $rev"
	echo "- machine: ${cpu:-unknown CPU}, $(mbd_nproc) cores (nproc), ${clang_v:-clang ?}; every run is one libFuzzer process on one core"
	echo "- budget: $budget s per run, libFuzzer \`-seed=1..$nseeds\`, \`-max_len\` $lens${min_class:+, \`--min-class=$min_class\`}"
	echo "- target: \`$(mbd_rel "$fuzz")\` (ASan+UBSan); corpora: empty, and \`corpus/seeds\` converted with \`mbdiff convert\` (read-only second corpus directory)"
	echo
	echo "## Summary"
	echo
	echo "| variant | kind | detected | classes | summary |"
	echo "|---|---|---|---|---|"
	printf '%s\n' "${summary_rows[@]}"
	echo
	echo "## Time to the first divergence"
	echo
	echo "Execs from libFuzzer's final stats; seconds are wall-clock, process start and seed loading included. Medians count a run that found nothing as slower than all (\"> budget\" when fewer than half found one); ranges are over the runs that found one. The signature is the most frequent one, op index left out. From the seed corpus, execs count the seeds libFuzzer ran before the first divergence (a seed itself may diverge: then execs is at most the number of seeds)."
	echo
	echo "| variant | kind | decoder | corpus | found | class | median execs | execs range | median s | s range | signature |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	printf '%s\n' "${rows[@]}"
	echo
	echo "<details><summary>Per run</summary>"
	echo
	echo "| variant | decoder | corpus | seed | seconds | execs | signature |"
	echo "|---|---|---|---|---|---|---|"
	printf '%s\n' "${run_rows[@]}"
	echo
	echo "</details>"
	echo
	echo "Logs and crash files: \`$(mbd_rel "$work")\` (not kept in git)."
} >"$tmp_md"
mv -f -- "$tmp_md" "$out_md"
mbd_log "written to $(mbd_rel "$out_md")"
if ((${#undetected_mutants[@]})); then
	mbd_warn "mutants never detected: ${undetected_mutants[*]}"
	if ((strict)); then exit 1; fi
fi
exit 0
