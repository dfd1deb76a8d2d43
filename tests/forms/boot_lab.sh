#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: boot_lab.sh MBDIFF WORK_DIR
#
# ctest "boot/two-layouts": boots two layouts of the boot lab with real
# Debian kernels (arm64 6.1 under a generated device tree, amd64 6.1 with
# memmap=) and checks that the model agrees with the kernel's own arrays at
# every checkpoint. Fetches the kernels first (scripts/boot-lab.sh setup,
# about 80 MB once into build/boot-lab); exits 77 (skipped) when they or
# QEMU cannot be had, e.g. without network.
set -u
mbdiff=${1:?usage: boot_lab.sh MBDIFF WORK_DIR}
work=${2:?usage: boot_lab.sh MBDIFF WORK_DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$(dirname "$work")"
lab=("$root/scripts/boot-lab.sh" --mbdiff "$mbdiff" --work "$work" --kernels 6.1 --layouts 4)

if ! bash "${lab[@]}" --arch arm64,amd64 setup >"$work.setup.log" 2>&1; then
	tail -n 5 "$work.setup.log"
	echo "boot_lab.sh: the kernels or QEMU cannot be had: skipped"
	exit 77
fi
rm -rf "$work"
fail=0
for l in arm64:arm64-03-rmem amd64:amd64-02-memmap; do
	arch=${l%%:*} name=${l#*:}
	out=$(bash "${lab[@]}" --arch "$arch" --only "$name" gen boot check 2>&1)
	printf '%s\n' "$out"
	res=$(grep -E "^$arch .* $name " <<<"$out" || true)
	if [[ $res != *" agree "* ]]; then
		echo "boot_lab.sh: $name: expected agreement, got: ${res:-no result}" >&2
		fail=$((fail + 1))
	fi
done
echo "$((2 - fail)) passed, $fail failed"
((fail == 0))
