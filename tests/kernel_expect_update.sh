#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: tests/kernel_expect_update.sh EXPECT GOT LABEL
#
# Rewrite a pinned list tests/kernel-trees/V.expected (format: see
# tests/test_kernel_trees.sh) so that its lines are exactly those of GOT
# (sorted signature lines of one run), keeping every explanation whose
# lines are still there. Lines that went away are dropped and listed on
# stderr; new ones are added at the end under a "NEW" comment that asks for
# the reason. The header (the lines up to the first empty line) is kept; a
# new file gets one naming LABEL. Written in place only when complete.
set -euo pipefail
expect=${1:?usage: kernel_expect_update.sh EXPECT GOT LABEL}
got=${2:?usage: kernel_expect_update.sh EXPECT GOT LABEL}
label=${3:?usage: kernel_expect_update.sh EXPECT GOT LABEL}
[[ -f $got ]] || { echo "kernel_expect_update.sh: $got not found" >&2; exit 2; }

tmp=$(mktemp "$expect.XXXXXX")
trap 'rm -f "$tmp"' EXIT
old=/dev/null
[[ -f $expect ]] && old=$expect
awk -v label="$label" -v base="$(basename "$expect")" '
	FILENAME == ARGV[1] { want[$0] = 1; order[++nwant] = $0; next }
	# the old file: header, then blocks of comments followed by their lines
	!body {
		if ($0 == "") { body = 1; header = header "\n"; next }
		if ($0 !~ /^#/) body = 1
		else { header = header $0 "\n"; next }
	}
	/^#/ {
		if (nlines[nb] > 0 || nb == 0) nb++
		notes[nb] = notes[nb] $0 "\n"
		next
	}
	/^$/ { next }
	{
		if (nb == 0) nb = 1
		line[nb, ++nlines[nb]] = $0
	}
	END {
		if (header == "") {
			header = "# Real " label " mm/memblock.c (Debian linux-source-" substr(label, 2) ", scripts/get-kernel-tree.sh)\n" \
				 "# against the reference: ctest kernel-variant/real-* pins these lines\n" \
				 "# (format: tests/test_kernel_trees.sh). Each comment block says why the\n" \
				 "# lines under it differ. Rewrite with scripts/pin-kernel-trees.sh.\n\n"
		}
		printf "%s", header
		for (b = 1; b <= nb; b++) {
			text = ""
			for (i = 1; i <= nlines[b]; i++) {
				l = line[b, i]
				if (l in want && !(l in used)) {
					text = text l "\n"
					used[l] = 1
				} else if (!(l in want)) {
					print base ": gone: " l > "/dev/stderr"
				}
			}
			if (text != "" || nlines[b] == 0)
				printf "%s%s\n", notes[b], text
		}
		fresh = ""
		for (i = 1; i <= nwant; i++)
			if (!(order[i] in used)) {
				fresh = fresh order[i] "\n"
				print base ": new: " order[i] > "/dev/stderr"
			}
		if (fresh != "")
			printf "# NEW, not explained yet: name the upstream change (or the model bug)\n# behind these lines, or fix it.\n%s\n", fresh
	}' "$got" "$old" >"$tmp"
# no trailing empty line
sed -i -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$tmp"
mv "$tmp" "$expect"
trap - EXIT
