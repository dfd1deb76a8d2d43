#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: check_isolation.sh NM ID=OBJECT...
#
# Each localized variant object must define exactly one global symbol, its
# descriptor mbd_variant_<ID>: otherwise two variants' kernel globals
# (memblock, memblock_can_resize, ...) would clash or, worse, be shared.
# Common symbols (-fcommon) count as definitions here: objcopy cannot make
# them local, so they would be merged across variants by the linker.
set -u

nm=${1:?usage: check_isolation.sh NM ID=OBJECT...}
shift
(($#)) || { echo "check_isolation: no objects given" >&2; exit 2; }

fail=0
pass=0
for pair in "$@"; do
	id=${pair%%=*}
	obj=${pair#*=}
	if [[ ! -f $obj ]]; then
		echo "FAIL $id: $obj does not exist" >&2
		fail=$((fail + 1))
		continue
	fi
	if ! syms=$("$nm" -g --defined-only "$obj"); then
		echo "FAIL $id: $nm could not read $obj" >&2
		fail=$((fail + 1))
		continue
	fi
	commons=$("$nm" -g "$obj" | awk '$(NF-1) == "C" { print $NF }')
	names=$(printf '%s\n' "$syms" | awk 'NF >= 2 { print $NF }' | sort -u)
	count=$(printf '%s\n' "$names" | grep -c .)
	if [[ $count -eq 1 && $names == "mbd_variant_$id" && -z $commons ]]; then
		echo "ok   $id: only mbd_variant_$id is global"
		pass=$((pass + 1))
	else
		echo "FAIL $id: $obj must define exactly one global, mbd_variant_$id; it defines:" >&2
		printf '    %s\n' $names $commons >&2
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
((fail == 0))
