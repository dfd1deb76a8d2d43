# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for the shell checks that count their assertions (test_bench.sh,
# test_svg.sh): source it, then
#   check_init NAME MBDIFF [WORKDIR]   absolute mbdiff in $mbdiff, a fresh
#                                      $work (a temp dir removed at exit
#                                      when WORKDIR is empty), counters
#   ok / bad MESSAGE                   count one assertion
#   check_done                         the closing "N passed, N failed"
#                                      line; returns 1 if any failed
# ok() never fails, so "test && ok || bad" reads as an if-then-else.

check_init() {
	check_name=$1
	if [[ -z ${2:-} || ! -x $2 ]]; then
		echo "$check_name: give the mbdiff binary (argument or \$MBDIFF)" >&2
		exit 2
	fi
	mbdiff=$(cd "$(dirname "$2")" && pwd -P)/$(basename "$2")
	work=${3:-}
	if [[ -z $work ]]; then
		work=$(mktemp -d "${TMPDIR:-/tmp}/mbd-$check_name.XXXXXX")
		# shellcheck disable=SC2064 # expand now: $work is fixed
		trap "rm -rf -- '$work'" EXIT
	fi
	rm -rf -- "$work"
	mkdir -p -- "$work"
	passed=0
	failed=0
}

ok() { passed=$((passed + 1)); }

bad() {
	echo "FAIL $*" >&2
	failed=$((failed + 1))
}

check_done() {
	echo "$check_name: $passed passed, $failed failed"
	((failed == 0))
}
