#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/cmin.sh [options] -o OUT_DIR IN_DIR...
#
# Corpus minimization: keep only inputs that add coverage, into a new
# directory (the inputs are left alone).
#   libfuzzer: fuzz_diff -merge=1 (or -set_cover_merge=1) OUT_DIR IN_DIR...
#   afl:       afl-cmin -i IN -o OUT -- afl_diff ...; afl-cmin.bash when a
#              path or the cwd is under /tmp or /var/tmp (afl-cmin refuses)
# Inputs that crash are left out (and saved by libFuzzer under OUT_DIR.crashes/).
#
# Options:
#   -o, --out DIR   output directory: new, or empty
#   --engine E      libfuzzer (default) or afl
#   --set-cover     libFuzzer -set_cover_merge=1 (greedy, smaller result)
#   --variants A,B  default reference,zhou-2025
#   --decoder D     structured (default) or naive
#   --min-class C   as in the campaign (default capacity)
#   --binary FILE   target binary (default build/fuzz/fuzz_diff or
#                   build/afl/afl_diff)
#   -h, --help      this text
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

engine=libfuzzer
out=
set_cover=0
variants=$MBD_DEFAULT_VARIANTS
decoder=structured
min_class=$MBD_DEFAULT_CLASS
binary=
inputs=()
while (($#)); do
	case $1 in
	-o | --out | --out=*) mbd_optval "$@"; out=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--engine | --engine=*) mbd_optval "$@"; engine=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--variants | --variants=*) mbd_optval "$@"; variants=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--decoder | --decoder=*) mbd_optval "$@"; decoder=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--min-class | --min-class=*) mbd_optval "$@"; min_class=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--binary | --binary=*) mbd_optval "$@"; binary=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
	--set-cover) set_cover=1; shift ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	-*) mbd_usage_error "unknown option '$1'" ;;
	*) inputs+=("$1"); shift ;;
	esac
done
mbd_check_engine "$engine"
if [[ -n $binary && ! -x $binary ]]; then
	mbd_usage_error "--binary '$binary' is not an executable file"
fi
mbd_check_variants "$variants"
mbd_check_decoder "$decoder"
if [[ -n $min_class ]]; then mbd_check_class "$min_class"; fi
mbd_set_target_args "$variants" "$decoder" "$min_class" 0
[[ -n $out ]] || mbd_usage_error "no output directory (-o DIR)"
((${#inputs[@]})) || mbd_usage_error "no input directory"
for i in "${!inputs[@]}"; do
	[[ -d ${inputs[$i]} ]] || mbd_usage_error "input directory '${inputs[$i]}' not found"
	inputs[i]=$(mbd_abs "${inputs[$i]}")
done
out=$(mbd_abs "$out")
for d in "${inputs[@]}"; do
	if [[ $d == "$out" ]]; then mbd_usage_error "the output directory must not be an input"; fi
done
if [[ -d $out && -n $(ls -A "$out") ]]; then
	mbd_usage_error "output directory $(mbd_rel "$out") is not empty"
fi
if ((set_cover)) && [[ $engine != libfuzzer ]]; then
	mbd_usage_error "--set-cover is a libFuzzer option"
fi
mkdir -p "$out"

count() { find "$@" -maxdepth 1 -type f ! -name '.*' | wc -l; }
before=$(count "${inputs[@]}")
log=$out.cmin.log

if [[ $engine == libfuzzer ]]; then
	bin=$(mbd_abs "${binary:-$(mbd_prog fuzz fuzz_diff)}")
	mbd_require_bin "$bin" fuzz
	mkdir -p "$out.crashes"
	if ((set_cover)); then mode=-set_cover_merge=1; else mode=-merge=1; fi
	cmd=("$bin" "$mode" "-artifact_prefix=$out.crashes/" -timeout=10
		"${MBD_TARGET_ARGS[@]}" "$out" "${inputs[@]}")
	mbd_log "$(mbd_quote "${cmd[@]}")"
	if ! (cd "$out.crashes" && "${cmd[@]}") >"$log" 2>&1; then
		tail -n 15 "$log" >&2
		mbd_die "libFuzzer merge failed; full log: $(mbd_rel "$log")"
	fi
	rmdir "$out.crashes" 2>/dev/null || mbd_log "crashing inputs saved in $(mbd_rel "$out.crashes")"
else
	bin=$(mbd_abs "${binary:-$(mbd_prog afl afl_diff)}")
	mbd_require_bin "$bin" afl
	in=${inputs[0]}
	if ((${#inputs[@]} > 1)); then
		# afl-cmin takes one input directory: merge them (next to out, not
		# in /tmp, which afl-cmin refuses).
		in=$out.inputs
		rm -rf -- "$in"
		mkdir -p "$in"
		for d in "${inputs[@]}"; do
			find "$d" -maxdepth 1 -type f ! -name '.*' -exec sh -c \
				'for f; do cp -- "$f" "$0/$(sha1sum <"$f" | cut -c1-40)"; done' "$in" {} +
		done
	fi
	tool=afl-cmin
	for p in "$in" "$out" "$bin" "$PWD"; do
		case $p in /tmp | /tmp/* | /var/tmp | /var/tmp/*) tool=afl-cmin.bash ;; esac
	done
	command -v "$tool" >/dev/null 2>&1 || mbd_die "$tool not found; install afl++ with: bash scripts/setup.sh"
	cmd=("$tool" -i "$in" -o "$out" -- "$bin" "${MBD_TARGET_ARGS[@]}")
	mbd_log "$(mbd_quote "${cmd[@]}")"
	rc=0
	# afl-cmin wants an empty or missing -o directory.
	rmdir "$out"
	AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 "${cmd[@]}" >"$log" 2>&1 || rc=$?
	if [[ $in == "$out.inputs" ]]; then rm -rf -- "$in"; fi
	if ((rc != 0)); then
		tail -n 15 "$log" >&2
		mbd_die "$tool failed (exit $rc); full log: $(mbd_rel "$log")"
	fi
fi
after=$(count "$out")
echo "cmin: $before inputs -> $after in $(mbd_rel "$out") (log: $(mbd_rel "$log"))"
