#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: test_scripts.sh SRC_DIR MBDIFF [WORKDIR]
#
# The scripts/ as an adversarial user meets them:
#   - every option a script's --help shows with a value (--opt VALUE) is
#     refused without one: exit 2 and "--opt needs a value", also when the
#     next word is another option; --help itself exits 0;
#   - emit-kernel-tests.sh into a directory the user names removes only
#     the files it wrote earlier (its .emit-kernel-tests.list), never
#     someone else's *.c;
#   - fuzz.sh and ci-fuzz.sh stopped by TERM or INT leave no process
#     behind (a fake engine with a grandchild, like a libFuzzer -fork job);
#   - fidelity.sh with a variant this build lacks exits 2 (bad input), not
#     1 (which means "they differ").
set -u
# shellcheck source=tests/lib/check_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check_lib.sh"
# shellcheck disable=SC2015 # "test && ok || bad" is an if-then-else here

src=${1:?SRC_DIR}
check_init scripts-hostile "${2:?MBDIFF}" "${3:-}"
export MBDIFF=$mbdiff

# ---- option values ----
n_opts=0
for f in "$src"/scripts/*.sh; do
	name=$(basename "$f")
	[[ $name == lib.sh ]] && continue
	out=$(timeout 60 bash "$f" --help 2>&1 </dev/null)
	rc=$?
	[[ $rc -eq 0 && -n $out ]] && ok || bad "$name --help exited $rc"
	# "--opt VALUE" / "--opt=VALUE" in the help, except quoted cmake lines
	opts=$(grep -v 'cmake --' <<<"$out" | grep -oE -- '--[a-z][a-z-]*[ =][A-Z][A-Z0-9_]*' |
		sed 's/[ =].*//' | sort -u)
	first=1
	for o in $opts; do
		n_opts=$((n_opts + 1))
		# "--opt" last, and "--opt --other": both lack the value (the
		# first form once per script, to keep this test short)
		tails=("--no-such-option")
		if ((first)); then tails+=(""); fi
		first=0
		for tail in "${tails[@]}"; do
			# shellcheck disable=SC2086 # tail is one word or none
			out=$(timeout 60 bash "$f" "$o" $tail 2>&1 </dev/null)
			rc=$?
			[[ $rc -eq 2 ]] && grep -qF -- "$o needs a value" <<<"$out" && ok ||
				bad "$name $o $tail: exit $rc, $(tail -n 1 <<<"$out")"
		done
	done
done
((n_opts >= 100)) && ok || bad "only $n_opts value options found in the scripts' --help"

# ---- emit-kernel-tests.sh only removes what it wrote ----
kt=$work/kt
mkdir -p "$kt"
printf '/* mine */\n' >"$kt/my-own-test.c"
printf 'keep\n' >"$kt/notes.txt"
if bash "$src/scripts/emit-kernel-tests.sh" --mbdiff "$mbdiff" --out "$kt" >"$work/kt.log" 2>&1; then
	ok
else
	bad "emit-kernel-tests.sh into a user dir failed: $(tail -n 3 "$work/kt.log")"
fi
[[ -f $kt/my-own-test.c && -f $kt/notes.txt ]] && ok || bad "emit-kernel-tests.sh removed a file it did not write"
n_written=$(grep -c . "$kt/.emit-kernel-tests.list" 2>/dev/null || echo 0)
((n_written > 0)) && [[ $(find "$kt" -name '*--*.c' | wc -l) -eq $n_written ]] && ok ||
	bad "emit-kernel-tests.sh: $n_written listed, $(find "$kt" -name '*--*.c' | wc -l) written"
# a listed file that is no longer produced is stale and goes; others stay
printf 'stale--gone.c\nmy-own-test.c\n../notes.txt\n' >>"$kt/.emit-kernel-tests.list"
printf '/* stale */\n' >"$kt/stale--gone.c"
bash "$src/scripts/emit-kernel-tests.sh" --mbdiff "$mbdiff" --out "$kt" >"$work/kt.log" 2>&1
[[ ! -e $kt/stale--gone.c ]] && ok || bad "emit-kernel-tests.sh kept a stale file it wrote"
[[ -f $kt/notes.txt ]] && ok || bad "emit-kernel-tests.sh followed ../ in its list"
# my-own-test.c was listed (by hand) and not produced: the list is the
# script's record, so it goes; that is the documented contract
[[ ! -e $kt/my-own-test.c ]] && ok || bad "emit-kernel-tests.sh ignored its list"
printf 'x' >"$work/not-a-dir"
bash "$src/scripts/emit-kernel-tests.sh" --mbdiff "$mbdiff" --out "$work/not-a-dir" >"$work/kt.log" 2>&1
rc=$?
[[ $rc -eq 2 && $(cat "$work/not-a-dir") == x ]] && ok || bad "emit-kernel-tests.sh --out FILE exited $rc"

# ---- signals: no orphans ----
fake=$work/fake-engine
cat >"$fake" <<'EOF'
#!/usr/bin/env bash
# a stand-in engine with a grandchild, like a libFuzzer -fork job
sleep "$MBD_FAKE_SLEEP" &
sleep "$MBD_FAKE_SLEEP"
EOF
chmod +x "$fake"
alive() { pgrep -f "^sleep $MBD_FAKE_SLEEP\$" | wc -l; }
for script in fuzz.sh ci-fuzz.sh; do
	for sig in TERM INT; do
		export MBD_FAKE_SLEEP=$((100000 + RANDOM * 8 + ${#sig}))
		args=(--binary "$fake" --no-seeds --time 0)
		if [[ $script == ci-fuzz.sh ]]; then
			args=(--binary "$fake" --no-seeds --time 3000 --no-build --artifacts "$work/ci-$sig")
		else
			args+=(--out "$work/fz-$sig" --quiet)
		fi
		# job control: the script gets its own process group and a
		# SIGINT that is not ignored, as from a terminal
		set -m
		bash "$src/scripts/$script" "${args[@]}" >"$work/sig.log" 2>&1 &
		pid=$!
		set +m
		for _ in $(seq 100); do
			(($(alive) >= 2)) && break
			sleep 0.1
		done
		(($(alive) >= 2)) && ok || bad "$script: the fake engine did not start: $(tail -n 3 "$work/sig.log")"
		kill -s "$sig" "$pid"
		wait "$pid"
		rc=$?
		sleep 1
		[[ $(alive) -eq 0 ]] && ok || bad "$script stopped by $sig left $(alive) processes behind"
		[[ $rc -ne 0 ]] && ok || bad "$script stopped by $sig exited 0"
		pkill -f "^sleep $MBD_FAKE_SLEEP\$" 2>/dev/null
	done
done
# no stray watchdog either (their sleep is MBD_KILL_GRACE, 20 s by default)
sleep 0.5

# ---- fidelity.sh: an unknown variant is bad input ----
bash "$src/scripts/fidelity.sh" kernel:no-such-tree --time 0 --work "$work/fid" \
	--build-dir "$(dirname "$mbdiff")" >"$work/fid.log" 2>&1
rc=$?
[[ $rc -eq 2 ]] && ok || bad "fidelity.sh with an unregistered variant exited $rc, expected 2"
grep -q 'kernel:no-such-tree is not in' "$work/fid.log" && ok || bad "fidelity.sh: $(cat "$work/fid.log")"

echo "($n_opts value options)"
check_done
