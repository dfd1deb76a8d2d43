#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/port-patch.sh --tree DIR --variant NAME -o PATCH
#
# Turn a variant of algorithms/patches/ (a diff against our reference) into
# a patch for a real kernel tree's mm/memblock.c, so that `mbdiff check`
# can run it against the real tree it was written for. Every function the
# variant changes is put, whole, in place of the tree's function of the
# same name (a function the variant adds goes just before the one that
# follows it there); the rest of the tree's file stays as it is. The patch
# is made from the tree's own lines and the variant's (nothing of the
# kernel is kept in the project):
#
#   scripts/port-patch.sh --tree build/kernel-trees/linux-6.12 \
#       --variant zhou-2025 -o /tmp/zhou-6.12.patch
#   scripts/check.sh /tmp/zhou-6.12.patch
#
# Only mm/memblock.c: a variant that changes memblock.h is refused. Exit 2
# when a changed function does not exist in the tree.
set -euo pipefail

# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

tree="" variant="" out=""
while (($#)); do
	case $1 in
	--tree | --tree=*) mbd_optval "$@"; tree=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	--variant | --variant=*) mbd_optval "$@"; variant=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	-o | --out | --out=*) mbd_optval "$@"; out=$MBD_OPTVAL; shift "$((MBD_SHIFT - 1))" ;;
	-h | --help) mbd_help "$0"; exit 0 ;;
	*) mbd_usage_error "unknown argument '$1'" ;;
	esac
	shift
done
[[ $tree && $variant && $out ]] || mbd_usage_error "--tree DIR, --variant NAME and -o PATCH are required"
vp=$MBD_ROOT/algorithms/patches/$variant.patch
[[ -f $vp ]] || mbd_usage_error "no variant '$variant' ($vp does not exist)"
[[ -f $tree/mm/memblock.c ]] || mbd_usage_error "$tree/mm/memblock.c not found"
if grep -q '^+++ b/include/linux/memblock.h' "$vp"; then
	printf '%s: error: %s changes memblock.h: only mm/memblock.c is ported\n' "$MBD_PROG" "$variant" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mbdiff-port.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/ref/mm" "$tmp/ref/include/linux" "$tmp/a/mm" "$tmp/b/mm"
cp "$MBD_ROOT/algorithms/reference/memblock.c" "$tmp/ref/mm/memblock.c"
cp "$MBD_ROOT/algorithms/reference/memblock.h" "$tmp/ref/include/linux/memblock.h"
cp -r "$tmp/ref" "$tmp/var"
patch -p1 -s --batch --no-backup-if-mismatch -d "$tmp/var" -i "$vp" ||
	mbd_die "$vp does not apply to the reference"
cp "$tree/mm/memblock.c" "$tmp/a/mm/memblock.c"

python3 - "$tmp/ref/mm/memblock.c" "$tmp/var/mm/memblock.c" "$tmp/a/mm/memblock.c" \
	"$tmp/b/mm/memblock.c" <<'EOF'
import re, sys

# A function definition: a line at column 0 naming NAME( that is not a
# prototype, up to the first line that is a lone "}".
DEF = re.compile(r'^[A-Za-z_][^;(]*?\b([A-Za-z_][A-Za-z0-9_]*)\(')

def functions(lines):
    out, order, i = {}, [], 0
    while i < len(lines):
        m = DEF.match(lines[i])
        if m and not lines[i].rstrip().endswith(';'):
            j = i
            while j < len(lines) and lines[j].rstrip() != '}':
                if j > i and lines[j].rstrip().endswith(';') and lines[j][0:1] not in ' \t{' and j == i + 1:
                    break
                j += 1
            if j < len(lines) and '{' in ''.join(lines[i:j + 1]):
                out[m.group(1)] = (i, j + 1)
                order.append(m.group(1))
                i = j + 1
                continue
        i += 1
    return out, order

def read(p):
    with open(p) as f:
        return f.read().split('\n')

ref, var, real = read(sys.argv[1]), read(sys.argv[2]), read(sys.argv[3])
fr, _ = functions(ref)
fv, vorder = functions(var)
fk, _ = functions(real)
text = lambda ls, f, n: ls[f[n][0]:f[n][1]]
changed = [n for n in vorder if n in fr and text(ref, fr, n) != text(var, fv, n)]
added = [n for n in vorder if n not in fr]
missing = [n for n in changed if n not in fk]
if missing:
    sys.stderr.write('port-patch.sh: error: the tree has no %s\n' % ', '.join(missing))
    sys.exit(2)
repl = {n: text(var, fv, n) for n in changed}
before = {}
for n in added:
    k = vorder.index(n) + 1
    while k < len(vorder) and vorder[k] not in fk:
        k += 1
    if k == len(vorder):
        sys.stderr.write('port-patch.sh: error: nowhere to put the new %s\n' % n)
        sys.exit(2)
    before.setdefault(vorder[k], []).extend(text(var, fv, n) + [''])
starts = {fk[n][0]: n for n in fk}
res, i = [], 0
while i < len(real):
    n = starts.get(i)
    if n is not None and (n in repl or n in before):
        if n in before:
            # a new function goes above the next one's comment block
            k = len(res)
            while k > 0 and (res[k - 1].startswith((' *', '/*')) ):
                k -= 1
            res[k:k] = before[n]
        res.extend(repl.get(n, real[fk[n][0]:fk[n][1]]))
        i = fk[n][1]
        continue
    res.append(real[i])
    i += 1
with open(sys.argv[4], 'w') as f:
    f.write('\n'.join(res))
sys.stderr.write('port-patch.sh: %s: changed %s%s\n' % (
    sys.argv[3].split('/')[-3] if False else 'mm/memblock.c', ', '.join(changed) or 'nothing',
    (', added ' + ', '.join(added)) if added else ''))
EOF
subject=$(sed -n 's/^Subject:[[:space:]]*//p' "$vp" | head -n 1)
{
	printf 'From: mbdiff port-patch.sh\nSubject: %s (mbdiff variant %s, ported)\n\n' "$subject" "$variant"
	printf 'The functions variant %s changes, put in place of the ones of\n%s.\n---\n' "$variant" "$tree"
	(cd "$tmp" && diff -u a/mm/memblock.c b/mm/memblock.c | sed '1,2s/\t.*//') || true
} >"$out.tmp"
grep -q '^@@ ' "$out.tmp" || mbd_die "$variant changes nothing in $tree"
mv "$out.tmp" "$out"
mbd_log "$out: $(grep -c '^[-+][^-+]' "$out") changed line(s)"
