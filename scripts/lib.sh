# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # MBD_* results are read by the sourcing scripts
#
# Helpers shared by scripts/*.sh: logging, option values, build paths,
# target options, crash signatures and replay commands, and running an
# engine as a child that a signal can stop without losing what it found.
# Source it (". scripts/lib.sh"); it does nothing when run.

if [[ -n ${MBD_LIB_LOADED:-} ]]; then
	return 0
fi
MBD_LIB_LOADED=1

# The data dir: the checkout this script is in, or what `mbdiff` says
# (MBDIFF_DATA: an installed share/mbdiff, docs/install.md).
if [[ -n ${MBDIFF_DATA:-} ]]; then
	MBD_ROOT=$(cd "$MBDIFF_DATA" && pwd -P) ||
		{ printf 'mbdiff: MBDIFF_DATA=%s is not a directory\n' "$MBDIFF_DATA" >&2; exit 2; }
else
	MBD_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
fi
# Where writable state goes. In a checkout: build/ and out/ in it, as
# always. Installed (the data dir has .mbdiff-installed, written by
# cmake/MbdInstall.cmake) or a data dir we cannot write: builds, kernel
# trees and the .deb cache under the user's cache, outputs under the
# current directory.
MBD_CACHE=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/mbdiff
if [[ -e $MBD_ROOT/.mbdiff-installed || ! -w $MBD_ROOT ]]; then
	MBD_INSTALLED=1
	MBD_BUILD=$MBD_CACHE/build
	MBD_OUT=$PWD/mbdiff-out
	# the linux-source .debs too (kernel-suite.sh reads them again)
	export MBDIFF_DEB_CACHE=${MBDIFF_DEB_CACHE:-$MBD_CACHE/debs}
else
	MBD_INSTALLED=0
	MBD_BUILD=$MBD_ROOT/build
	MBD_OUT=$MBD_ROOT/out
fi
# Name of the script that sourced us, for messages: "mbdiff check" when
# `mbdiff check` runs it (MBDIFF_COMMAND, for the first script only: the
# scripts it runs name themselves).
MBD_PROG=$(basename "${BASH_SOURCE[1]:-$0}")
if [[ -n ${MBDIFF_COMMAND:-} ]]; then
	MBD_PROG="mbdiff $MBDIFF_COMMAND"
	unset MBDIFF_COMMAND
fi
MBD_DEFAULT_VARIANTS=reference,zhou-2025
MBD_CLASSES="warning capacity layout return invariant coverage panic crash"
# The default --min-class of every entry point; the same as
# MBD_CLASS_DEFAULT_MIN in harness/model/mbd_verdict.h (tests/scripts checks).
MBD_DEFAULT_CLASS=capacity

# ---------------------------------------------------------------- messages

mbd_log() { printf '%s: %s\n' "$MBD_PROG" "$*" >&2; }
mbd_warn() { printf '%s: warning: %s\n' "$MBD_PROG" "$*" >&2; }
# Errors exit 2: scripts keep 1 for "found a divergence" (README, exit
# codes).
mbd_die() {
	printf '%s: error: %s\n' "$MBD_PROG" "$*" >&2
	exit 2
}
# Bad command line: exit 2, like most tools.
mbd_usage_error() {
	printf '%s: %s\n' "$MBD_PROG" "$*" >&2
	printf "try '%s --help'\n" "$MBD_PROG" >&2
	exit 2
}

# Print the leading comment block of a script (lines after the SPDX line
# that start with "#"), without the "# ", as its --help text; run as
# `mbdiff CMD`, "scripts/CMD.sh" reads "mbdiff CMD".
mbd_help() {
	local file=$1 line started=0 self
	self=scripts/$(basename "$file")
	[[ $MBD_PROG == "mbdiff "* ]] || self=
	while IFS= read -r line; do
		if [[ $self ]]; then line=${line//"$self"/$MBD_PROG}; fi
		case $line in
		'#!'* | *SPDX-License-Identifier*) continue ;;
		'#') if ((started)); then printf '\n'; fi ;;
		'# '*) started=1; printf '%s\n' "${line#\# }" ;;
		*) if ((started)); then break; fi ;;
		esac
	done <"$file"
	return 0
}

# ---------------------------------------------------------------- options

# Value of the option in $1, given as "--opt=value" or "--opt value".
# Sets MBD_OPTVAL, and MBD_SHIFT to the number of words it used. A missing
# or empty value is a usage error ("--logs needs a value"), and so is a
# separate word that is itself an option ("--logs --out x"): write
# "--opt=-value" for the rare value that starts with a dash.
mbd_optval() {
	local name=${1%%=*}
	if [[ $1 == -*=* ]]; then
		MBD_OPTVAL=${1#*=}
		MBD_SHIFT=1
	elif (($# >= 2)) && [[ $2 != -?* ]]; then
		MBD_OPTVAL=$2
		MBD_SHIFT=2
	else
		MBD_OPTVAL=
	fi
	if [[ -z $MBD_OPTVAL ]]; then
		mbd_usage_error "$name needs a value"
	fi
}

# mbd_check_uint NAME VALUE [MIN]: a decimal integer >= MIN (default 1).
mbd_check_uint() {
	local name=$1 value=$2 min=${3:-1}
	if [[ ! $value =~ ^[0-9]+$ ]] || ((10#$value < min)); then
		mbd_usage_error "$name must be an integer >= $min, got '$value'"
	fi
}

mbd_check_engine() {
	case $1 in
	libfuzzer | afl) ;;
	*) mbd_usage_error "--engine must be libfuzzer or afl, got '$1'" ;;
	esac
}

mbd_check_decoder() {
	case $1 in
	structured | naive) ;;
	*) mbd_usage_error "--decoder must be structured or naive, got '$1'" ;;
	esac
}

mbd_check_class() {
	local c
	for c in $MBD_CLASSES; do
		if [[ $1 == "$c" ]]; then return 0; fi
	done
	mbd_usage_error "--min-class must be one of: $MBD_CLASSES; got '$1'"
}

# A comma-separated list of variant names (as `mbdiff list` prints them).
mbd_check_variants() {
	if [[ ! $1 =~ ^[A-Za-z0-9_.:-]+(,[A-Za-z0-9_.:-]+)*$ ]]; then
		mbd_usage_error "--variants must be names separated by commas (e.g. $MBD_DEFAULT_VARIANTS), got '$1'"
	fi
}

# "reference,zhou-2025" -> "reference~zhou-2025", as signatures name pairs.
mbd_pair_name() { printf '%s\n' "${1//,/\~}"; }

# Options understood by the fuzz targets and by `mbdiff replay/minimize`:
# mbd_set_target_args VARIANTS DECODER MIN_CLASS NO_ORACLE(0|1).
# Fills the array MBD_TARGET_ARGS.
mbd_set_target_args() {
	MBD_TARGET_ARGS=("--variants=$1" "--decoder=$2")
	if [[ -n $3 ]]; then
		MBD_TARGET_ARGS+=("--min-class=$3")
	fi
	if [[ $4 == 1 ]]; then
		MBD_TARGET_ARGS+=(--no-oracle)
	fi
}

# ---------------------------------------------------------------- paths

mbd_nproc() { nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1; }

mbd_build_dir() { printf '%s/%s\n' "$MBD_BUILD" "$1"; }

# The CLI used for conversions, signatures and minimization.
mbd_mbdiff() { printf '%s\n' "${MBDIFF:-$MBD_ROOT/build/default/mbdiff}"; }

# mbd_prog PRESET NAME: a program of the project, e.g. fuzz fuzz_diff:
# build/PRESET/NAME in a checkout; installed, the one beside $MBDIFF
# (bin/, where the fuzz targets are installed when they were built).
mbd_prog() {
	if ((MBD_INSTALLED)) && [[ -n ${MBDIFF:-} ]]; then
		printf '%s/%s\n' "$(dirname "$MBDIFF")" "$2"
	else
		printf '%s/build/%s/%s\n' "$MBD_ROOT" "$1" "$2"
	fi
}

# mbd_require_bin FILE PRESET: die with the command that builds FILE.
mbd_require_bin() {
	if [[ ! -x $1 ]]; then
		mbd_die "$(mbd_rel "$1") not found; build it with: bash scripts/build.sh $2"
	fi
}

# mbd_bench_mbdiff FILE BUILD: the absolute path of the mbdiff a benchmark
# runs: FILE, else $MBDIFF, else build/default/mbdiff, which is built first
# (scripts/build.sh default, quick when nothing changed) when BUILD is 1.
mbd_bench_mbdiff() {
	local file=$1 build=$2
	if [[ -z $file ]]; then
		file=$(mbd_mbdiff)
		if ((build)) && [[ -z ${MBDIFF:-} ]]; then
			bash "$MBD_ROOT/scripts/build.sh" default >&2
		fi
	fi
	mbd_require_bin "$file" default
	mbd_abs "$file"
}

# The options of the check benchmarks (bench-check.sh, bench-verdicts.sh):
# --base --time --case --out --deb-cache over the defaults the caller set
# in base, fuzz_time, cases, out and debs; the cases asked for in want[].
mbd_bench_check_args() {
	while (($#)); do
		case $1 in
		--base | --base=*) mbd_optval "$@"; base=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
		--time | --time=*) mbd_optval "$@"; fuzz_time=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
		--case | --case=*) mbd_optval "$@"; cases=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
		--out | --out=*) mbd_optval "$@"; out=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
		--deb-cache | --deb-cache=*) mbd_optval "$@"; debs=$MBD_OPTVAL; shift "$MBD_SHIFT" ;;
		-h | --help) mbd_help "$0"; exit 0 ;;
		*) mbd_usage_error "unknown argument '$1'" ;;
		esac
	done
	mbd_check_uint --time "$fuzz_time" 0
	[[ $base =~ ^[0-9]+\.[0-9]+$ ]] || mbd_usage_error "--base '$base': expected a version such as 7.3"
	IFS=, read -r -a want <<<"$cases"
}

# After them: jq, the .deb cache, the output folder (absolute) and the
# base tree in tree.
mbd_bench_check_setup() {
	command -v jq >/dev/null 2>&1 || mbd_die "jq not installed (bash scripts/setup.sh installs it)"
	export MBDIFF_DEB_CACHE=$debs
	mkdir -p "$out"
	tree=$(mbd_bench_tree "$base" "$out.get.log")
	out=$(mbd_abs "$out")
}

# mbd_bench_run_check CASE PATCH [CHECK-OPTION...]: one check of the
# benchmark, into out/CASE (+ .json, .log); sets o, rc, wall (s) and
# verdict. A check that itself failed (exit 3) ends the benchmark, exit 3.
mbd_bench_run_check() {
	local c=$1 p=$2 t0
	shift 2
	o=$out/$c
	rm -rf "$o"
	mbd_log "$c: scripts/check.sh --base $base --time $fuzz_time ${*:+$* }$(mbd_rel "$p")"
	t0=$(mbd_now)
	rc=0
	bash "$MBD_ROOT/scripts/check.sh" --base "$base" --time "$fuzz_time" "$@" -o "$o" \
		--json "$o.json" "$p" >"$o.log" 2>&1 || rc=$?
	wall=$(mbd_elapsed "$t0")
	if ((rc == 3)); then
		printf '%s: error: the %s check failed (exit 3): %s\n' "$MBD_PROG" "$c" "$o.log" >&2
		exit 3
	fi
	verdict=$(jq -r '.verdict // "?"' "$o.json" 2>/dev/null || echo "?")
}

# mbd_bench_tree V LOG: the linux-V tree a benchmark checks against
# (scripts/get-kernel-tree.sh, which fetches it when it is not there yet),
# its path on stdout; none: one line naming LOG and exit 3 (the
# benchmarks' "cannot be had").
mbd_bench_tree() {
	local t
	if ! t=$(bash "$MBD_ROOT/scripts/get-kernel-tree.sh" --version "$1" 2>"$2" | tail -n 1) ||
		[[ ! -f $t/mm/memblock.c ]]; then
		printf '%s: error: no linux-%s tree (%s)\n' "$MBD_PROG" "$1" "$2" >&2
		exit 3
	fi
	rm -f "$2"
	printf '%s\n' "$t"
}

# "CPU model, N cores, kernel": the machine line of benchmark headers.
mbd_machine() {
	printf '%s, %s cores, %s\n' \
		"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)" \
		"$(mbd_nproc)" "$(uname -sr)"
}

# Absolute path without requiring it to exist.
mbd_abs() { realpath -m -- "$1"; }

# PATH relative to the repo root when it lies inside it, else absolute:
# what commands print, so they can be pasted in the repo root anywhere.
mbd_rel() {
	local p
	p=$(mbd_abs "$1")
	if [[ $p == "$MBD_ROOT" ]]; then
		printf '.\n'
	elif [[ $p == "$MBD_ROOT"/* ]]; then
		printf '%s\n' "${p#"$MBD_ROOT"/}"
	else
		printf '%s\n' "$p"
	fi
}

mbd_timestamp() { date +%Y%m%d-%H%M%S; }

# Seconds since the epoch with fractions, for durations.
mbd_now() { date +%s.%N; }

# mbd_elapsed START [END]: seconds between two mbd_now values, 1 decimal.
mbd_elapsed() {
	local end=${2:-$(mbd_now)}
	awk -v a="$1" -v b="$end" 'BEGIN { printf "%.1f\n", b - a }'
}

# Shell-quoted command line, for printing commands people can paste:
# plain words stay as they are, others get single quotes.
mbd_quote() {
	local out="" w q
	for w in "$@"; do
		if [[ $w =~ ^[A-Za-z0-9_@%+=:,./-]+$ ]]; then
			q=$w
		else
			q="'${w//\'/\'\\\'\'}'"
		fi
		out+="${out:+ }$q"
	done
	printf '%s\n' "$out"
}

# ---------------------------------------------------------------- seeds

# mbd_prepare_seeds SRC_DIR DEST_DIR DECODER: .mbt seeds are converted to
# the binary form of DECODER (mbdiff convert), other files are copied as
# they are (they are fuzzer inputs already). Prints the number of inputs.
mbd_prepare_seeds() {
	local src=$1 dest=$2 dec=$3 mbdiff f base n=0 failed=0
	mbdiff=$(mbd_mbdiff)
	mkdir -p "$dest"
	if [[ ! -d $src ]]; then
		mbd_die "seed directory $(mbd_rel "$src") does not exist"
	fi
	shopt -s nullglob
	for f in "$src"/*; do
		[[ -f $f ]] || continue
		base=$(basename "$f")
		case $base in
		README* | .*) continue ;;
		*.mbt)
			mbd_require_bin "$mbdiff" default
			if "$mbdiff" convert "--decoder=$dec" "$f" -o "$dest/${base%.mbt}.bin" \
				>/dev/null 2>"$dest/.convert.err"; then
				n=$((n + 1))
			else
				mbd_warn "seed $(mbd_rel "$f") not converted: $(tail -n 1 "$dest/.convert.err")"
				failed=$((failed + 1))
			fi
			;;
		*)
			cp -- "$f" "$dest/$base"
			n=$((n + 1))
			;;
		esac
	done
	shopt -u nullglob
	rm -f "$dest/.convert.err"
	if ((failed)); then
		mbd_warn "$failed seed(s) could not be converted (see above)"
	fi
	printf '%s\n' "$n"
}

# ---------------------------------------------------------------- crashes

# Crash files in DIR (a campaign's crashes/), oldest first, i.e. in the
# order they were found. libFuzzer names them crash-/leak-/timeout-/oom-.
mbd_crash_files() {
	local dir=$1 f
	[[ -d $dir ]] || return 0
	find "$dir" -maxdepth 1 -type f -printf '%T@\t%p\n' | sort -n | cut -f2- |
		while IFS= read -r f; do
			case $(basename "$f") in
			README* | .* | *.log | *.txt | *.mbt | *.min | *.tmp | *.variants) continue ;;
			esac
			printf '%s\n' "$f"
		done
}

# Crashes AFL++ saved under campaign dir OUT (OUT/afl/<instance>/crashes/).
mbd_afl_crash_files() {
	local f
	shopt -s nullglob
	for f in "$1"/afl/*/crashes/id:*; do
		[[ -f $f ]] && printf '%s\n' "$f"
	done
	shopt -u nullglob
	return 0
}

# A readable name for an AFL++ crash file, without the ':' and ',' that
# many artifact uploaders and zip tools reject:
# afl/main/crashes/id:000003,sig:06,src:... -> afl-main-000003-sig06
mbd_afl_crash_name() {
	local f=$1 inst id sig base
	base=$(basename "$f")
	inst=$(basename "$(dirname "$(dirname "$f")")")
	id=$(sed -n 's/^id:\([0-9]*\).*/\1/p' <<<"$base")
	sig=$(sed -n 's/.*,sig:\([0-9]*\).*/\1/p' <<<"$base")
	printf 'afl-%s-%s%s\n' "$inst" "${id:-x}" "${sig:+-sig$sig}"
}

# AFL++ skips seeds that crash in its dry run (with a warning, not a saved
# crash): those are findings too. mbd_afl_seed_crashes OUT prints the
# queue files named in "Test case 'X' results in a crash" lines.
mbd_afl_seed_crashes() {
	local out=$1 log inst name
	shopt -s nullglob
	for log in "$out"/logs/afl-*.log; do
		inst=${log##*/afl-}
		inst=${inst%.log}
		sed 's/\x1b\[[0-9;]*[A-Za-z]//g' "$log" |
			sed -n "s/.*Test case '\\(.*\\)' results in a crash.*/\\1/p" |
			while IFS= read -r name; do
				if [[ -f $out/afl/$inst/queue/$name ]]; then
					printf '%s\n' "$out/afl/$inst/queue/$name"
				fi
			done
	done
	shopt -u nullglob
}

# mbd_gather_crashes OUT: copy AFL++ crashes (and crashing seeds) into
# OUT/crashes/ under readable names, skipping contents already there.
# libFuzzer writes there directly. Idempotent; safe from a signal trap.
mbd_gather_crashes() {
	local out=$1 f name sum
	local -A have=()
	mkdir -p "$out/crashes"
	shopt -s nullglob
	for f in "$out"/crashes/*; do
		[[ -f $f ]] || continue
		sum=$(sha1sum <"$f") || continue
		have[${sum%% *}]=1
	done
	shopt -u nullglob
	while IFS= read -r f; do
		[[ -n $f && -f $f ]] || continue
		sum=$(sha1sum <"$f") || continue
		sum=${sum%% *}
		if [[ -n ${have[$sum]:-} ]]; then continue; fi
		case $f in
		*/queue/*) name="afl-$(basename "$(dirname "$(dirname "$f")")")-seed-${sum:0:12}" ;;
		*) name=$(mbd_afl_crash_name "$f") ;;
		esac
		cp -- "$f" "$out/crashes/$name"
		have[$sum]=1
	done < <(mbd_afl_crash_files "$out"; mbd_afl_seed_crashes "$out")
	mbd_write_sidecars "$out/crashes"
}

# mbd_write_sidecars DIR: FILE.variants (the --variants of MBD_TARGET_ARGS)
# for every crash file in DIR that has none, so a later `mbdiff replay`
# without --variants replays it with the pair that found it.
mbd_write_sidecars() {
	local dir=$1 f a v=""
	for a in "${MBD_TARGET_ARGS[@]+"${MBD_TARGET_ARGS[@]}"}"; do
		[[ $a == --variants=* ]] && v=${a#--variants=}
	done
	[[ -n $v ]] || return 0
	while IFS= read -r f; do
		[[ -f $f.variants ]] || printf '%s\n' "$v" >"$f.variants"
	done < <(mbd_crash_files "$dir")
}

# The replay command for one crash file, relative to the repo root.
# Uses MBD_TARGET_ARGS (mbd_set_target_args).
mbd_replay_cmd() {
	mbd_quote "$(mbd_rel "$(mbd_mbdiff)")" replay "${MBD_TARGET_ARGS[@]}" "$(mbd_rel "$1")"
}

# mbd_signature FILE: the one-line verdict of a crash file. First the
# signature line `mbdiff replay` prints; if the plain CLI does not
# reproduce it (a sanitizer-only crash), the sanitized libFuzzer target's
# signature or SUMMARY line. Uses MBD_TARGET_ARGS.
mbd_signature() {
	local file=$1 mbdiff fuzz out sig
	mbdiff=$(mbd_mbdiff)
	fuzz=$(mbd_prog fuzz fuzz_diff)
	if [[ -x $mbdiff ]]; then
		out=$(timeout 120 "$mbdiff" replay "${MBD_TARGET_ARGS[@]}" "$file" 2>&1) || true
		sig=$(grep -E '^mbdiff: (divergence|oracle|crash|panic)' <<<"$out" | tail -n 1) || true
		if [[ -n $sig ]]; then
			printf '%s\n' "$sig"
			return 0
		fi
	fi
	if [[ -x $fuzz ]]; then
		out=$(timeout 120 "$fuzz" -runs=1 "${MBD_TARGET_ARGS[@]}" "$file" 2>&1) || true
		sig=$(grep -E '^mbdiff: (divergence|oracle|crash|panic)' <<<"$out" | tail -n 1) || true
		if [[ -z $sig ]]; then
			sig=$(grep -E '^SUMMARY: ' <<<"$out" | tail -n 1) || true
		fi
		if [[ -n $sig ]]; then
			printf '%s\n' "$sig"
			return 0
		fi
	fi
	if [[ ! -x $mbdiff && ! -x $fuzz ]]; then
		printf 'unknown (build/default/mbdiff is not built)\n'
		return 0
	fi
	# What the engine called it, from libFuzzer's artifact name.
	case $(basename "$file") in
	oom-*) printf 'libFuzzer: out-of-memory while fuzzing (one replay does not reproduce it)\n' ;;
	timeout-*) printf 'libFuzzer: timeout while fuzzing (one replay does not reproduce it)\n' ;;
	leak-*) printf 'libFuzzer: memory leak while fuzzing (one replay does not reproduce it)\n' ;;
	*) printf 'not reproduced by replay (flaky, or depends on earlier inputs)\n' ;;
	esac
}

# mbd_report_crashes OUT [MAX]: for every file in OUT/crashes/ write its
# signature and replay command to OUT/crashes.txt, print the first MAX
# entries (default 100) and a count per distinct signature. Sets
# MBD_CRASH_COUNT. Uses MBD_TARGET_ARGS.
mbd_report_crashes() {
	local out=$1 max=${2:-100} f sig n=0 report tmp
	report=$out/crashes.txt
	tmp=$report.tmp
	: >"$tmp"
	while IFS= read -r f; do
		n=$((n + 1))
		sig=$(mbd_signature "$f")
		{
			printf '%s\n' "$(mbd_rel "$f")"
			printf '  signature: %s\n' "$sig"
			printf '  replay:    %s\n' "$(mbd_replay_cmd "$f")"
		} >>"$tmp"
	done < <(mbd_crash_files "$out/crashes")
	mv -f -- "$tmp" "$report"
	MBD_CRASH_COUNT=$n
	if ((n == 0)); then
		return 0
	fi
	head -n "$((3 * max))" "$report"
	if ((n > max)); then
		printf '... %d more in %s\n' "$((n - max))" "$(mbd_rel "$report")"
	fi
	if ((n > 1)); then
		# Grouped without the op index, which differs between inputs of
		# the same bug (it is the key `mbdiff minimize` keeps).
		printf 'crashes per signature (op index left out):\n'
		sed -n 's/^  signature: //p' "$report" | sed 's/ at op [0-9]* / at op N /' |
			sort | uniq -c | sort -rn
	fi
	printf '(replay commands run from the repo root: %s)\n' "$MBD_ROOT"
}

# ---------------------------------------------------------------- children

# Engines run as background children so that a TERM/INT to the script
# reaches them, and the script still collects what they found. Each child
# runs in its own process group (job control on while it starts), so a
# signal reaches everything it started too: libFuzzer's -fork jobs,
# timeout's command, afl-fuzz's target.
MBD_CHILD_PIDS=()
MBD_INTERRUPTED=
MBD_KILLER_PIDS=()

# mbd_signal_child SIG PID: signal PID's process group, or PID alone if
# it has no group of its own.
mbd_signal_child() {
	kill -s "$1" -- "-$2" 2>/dev/null || kill -s "$1" "$2" 2>/dev/null || true
}

# Trap handler: remember the signal, stop the children with TERM (every
# engine stops cleanly on it), and kill those still alive after a grace
# period.
mbd_on_signal() {
	local sig=$1 p
	MBD_INTERRUPTED=$sig
	for p in "${MBD_CHILD_PIDS[@]}"; do
		mbd_signal_child TERM "$p"
		(
			# this watchdog's own sleep must not outlive it
			trap 'kill "$s" 2>/dev/null; exit 0' TERM
			sleep "${MBD_KILL_GRACE:-20}" &
			s=$!
			wait "$s"
			if mbd_is_child "$p"; then mbd_signal_child KILL "$p"; fi
		) >/dev/null 2>&1 &
		MBD_KILLER_PIDS+=("$!")
	done
}

# True if PID is still a child of this script (not a reused pid).
mbd_is_child() {
	local ppid
	ppid=$(ps -o ppid= -p "$1" 2>/dev/null) || return 1
	[[ ${ppid// /} == "$$" ]]
}

# On TERM/INT/HUP stop the children; on any exit (set -e, an error) kill
# what is still running, so nothing is left behind. A script with its own
# EXIT trap calls mbd_kill_children from it.
mbd_trap_signals() {
	trap 'mbd_on_signal TERM' TERM
	trap 'mbd_on_signal INT' INT
	trap 'mbd_on_signal HUP' HUP
	if [[ -z $(trap -p EXIT) ]]; then trap mbd_kill_children EXIT; fi
}

# TERM every tracked child's group and the watchdogs (idempotent).
mbd_kill_children() {
	local p
	for p in "${MBD_CHILD_PIDS[@]}"; do
		if mbd_is_child "$p"; then mbd_signal_child TERM "$p"; fi
	done
	mbd_reap_killers
}

# Start a command in the background as a tracked child in its own process
# group; its pid (= its group id) is in MBD_LAST_PID.
mbd_spawn() {
	set -m
	"$@" &
	MBD_LAST_PID=$!
	set +m
	MBD_CHILD_PIDS+=("$MBD_LAST_PID")
}

# mbd_wait PID: wait until it exits even if trapped signals interrupt the
# wait; its exit status is left in MBD_WAIT_RC.
mbd_wait() {
	local pid=$1 rc rc2
	while :; do
		rc=0
		wait "$pid" 2>/dev/null || rc=$?
		if kill -0 "$pid" 2>/dev/null; then
			continue # a trapped signal interrupted wait
		fi
		if ((rc > 128)); then
			# Maybe the interrupted wait raced with the exit: ask again.
			rc2=0
			wait "$pid" 2>/dev/null || rc2=$?
			if ((rc2 != 127)); then rc=$rc2; fi
		fi
		break
	done
	MBD_WAIT_RC=$rc
	# Forget it, so a later signal never reaches a reused pid.
	local keep=() p
	for p in "${MBD_CHILD_PIDS[@]}"; do
		if [[ $p != "$pid" ]]; then keep+=("$p"); fi
	done
	MBD_CHILD_PIDS=("${keep[@]}")
}

# Stop the grace-period killers once every child is gone.
mbd_reap_killers() {
	local p
	for p in "${MBD_KILLER_PIDS[@]}"; do
		if mbd_is_child "$p"; then kill "$p" 2>/dev/null || true; fi
	done
	MBD_KILLER_PIDS=()
}

# ---------------------------------------------------------------- stats

# mbd_lf_stat LOG NAME: last value of libFuzzer's "stat::NAME:" line.
mbd_lf_stat() {
	sed -n "s/^stat::$2:[[:space:]]*\\([0-9.]*\\).*/\\1/p" "$1" 2>/dev/null | tail -n 1
}

# mbd_lf_execs LOG: executions, from the final stats or the last "#N"
# status line, whichever is larger (fork mode's parent reports 0 in its
# final stats when interrupted; a killed run has no final stats).
mbd_lf_execs() {
	local a b
	a=$(mbd_lf_stat "$1" number_of_executed_units)
	b=$(sed -n 's/^#\([0-9][0-9]*\)[[:space:]:].*/\1/p' "$1" 2>/dev/null | tail -n 1)
	a=${a:-0}
	b=${b:-0}
	if ((b > a)); then a=$b; fi
	printf '%s\n' "$a"
}

# mbd_afl_stat OUT KEY: sum of KEY over OUT/afl/*/fuzzer_stats.
mbd_afl_stat() {
	local files=()
	shopt -s nullglob
	files=("$1"/afl/*/fuzzer_stats)
	shopt -u nullglob
	if ((${#files[@]} == 0)); then
		printf '0\n'
		return 0
	fi
	awk -v key="$2" '$1 == key { s += $3 } END { printf "%.0f\n", s }' "${files[@]}"
}

# Integer division rounded, for execs/s: mbd_rate EXECS SECONDS.
mbd_rate() {
	awk -v n="$1" -v t="$2" 'BEGIN { if (t > 0) printf "%.0f\n", n / t; else print 0 }'
}

# ---------------------------------------------------------------- divergence benches
# Shared by bench-divergence.sh and bench-afl-divergence.sh, whose
# WORK/results.tsv has one run a line:
#   patch  setup  seed  found(0|1)  execs  cpu  signature

# mbd_bench_patches PATCHES MUTANTS(0|1): PATCHES, or every patch of
# algorithms/patches when empty, then every mutant when MUTANTS is 1;
# comma-separated, names sorted.
mbd_bench_patches() {
	local list=$1 dirs=() d f
	if [[ -z $list ]]; then dirs+=(patches); fi
	if [[ $2 == 1 ]]; then dirs+=(mutants); fi
	for d in "${dirs[@]}"; do
		list=${list:+$list,}$(for f in "$MBD_ROOT/algorithms/$d"/*.patch; do
			if [[ -e $f ]]; then basename "$f" .patch; fi
		done | sort | paste -sd, -)
	done
	printf '%s\n' "$list"
}

# mbd_bench_have RESULTS PATCH SETUP SEED: true if that run is there.
mbd_bench_have() {
	awk -F'\t' -v p="$2" -v u="$3" -v s="$4" \
		'$1 == p && $2 == u && $3 == s { f = 1 } END { exit !f }' "$1"
}

# mbd_bench_summary_table RESULTS SEEDS SETUPS PATCHES (comma lists): the
# markdown table with one line per patch: for each setup found/N, median
# execs and median CPU s over seeds <= SEEDS (a run that found nothing
# counts as slower than all; "none" when the median is such a run), then
# each later setup's median execs over the first setup's.
mbd_bench_summary_table() {
	awk -F'\t' -v n="$2" -v setups="$3" -v patches="$4" '
	function med(key, f,   k, i, j, t, v) {
		k = cnt[key]
		if (!k) return "-"
		for (i = 1; i <= k; i++) v[i] = val[key, i, f]
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++)
			if (v[j] != "inf" && (v[i] == "inf" || v[j] + 0 < v[i] + 0)) { t = v[i]; v[i] = v[j]; v[j] = t }
		return v[int((k + 1) / 2)] == "inf" ? "none" : v[int((k + 1) / 2)]
	}
	function ratio(a, b) {
		if (a == "none" || a == "-") return "-"
		if (b == "none" || b == "-") return "< 1 (none in " s[1] ")"
		return sprintf("%.3fx", (b > 0) ? a / b : 0)
	}
	$3 <= n { key = $1 SUBSEP $2; i = ++cnt[key]; hit[key] += ($4 == 1)
		val[key, i, 5] = ($4 == 1) ? $5 : "inf"; val[key, i, 6] = ($4 == 1) ? $6 : "inf" }
	END {
		ns = split(setups, s, ","); np = split(patches, p, ",")
		line = "| patch |"
		for (b = 1; b <= ns; b++)
			line = line sprintf(" %s found | %s median execs | %s median CPU s |", s[b], s[b], s[b])
		for (b = 2; b <= ns; b++) line = line sprintf(" %s / %s execs |", s[b], s[1])
		print line
		line = "|---|"
		for (b = 1; b <= ns; b++) line = line "---|---|---|"
		for (b = 2; b <= ns; b++) line = line "---|"
		print line
		for (a = 1; a <= np; a++) {
			line = "| " p[a] " |"
			for (b = 1; b <= ns; b++) {
				key = p[a] SUBSEP s[b]; m[b] = med(key, 5)
				line = line sprintf(" %d/%d | %s | %s |", hit[key], cnt[key], m[b], med(key, 6))
			}
			for (b = 2; b <= ns; b++) line = line " " ratio(m[b], m[1]) " |"
			print line
		}
	}' "$1"
}

# mbd_bench_runs_table RESULTS SEEDS: the markdown table of every run
# with seed <= SEEDS, sorted by patch, setup and seed.
mbd_bench_runs_table() {
	echo "Per run (execs and CPU seconds to the divergence, or the whole run when none):"
	echo
	echo "| patch | setup | seed | execs | CPU s | signature |"
	echo "|---|---|---|---|---|---|"
	sort -t$'\t' -k1,1 -k2,2 -k3,3n "$1" | awk -F'\t' -v n="$2" '$3 <= n {
		s = $7; gsub(/\|/, "\\|", s)
		printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $5, $6, ($4 == 1) ? "`" s "`" : "none"
	}'
}
