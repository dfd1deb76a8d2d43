#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The GitHub workflows are valid YAML with the structure Actions needs, the
# ClusterFuzzLite steps use known actions, modes and inputs, and every
# project script a `run:` step calls exists and documents (in --help)
# every flag the step passes to it.
set -uo pipefail
src=${MBDIFF_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
cd "$src" || exit 1
pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

shopt -s nullglob
wfs=(.github/workflows/*.yml .github/workflows/*.yaml)
shopt -u nullglob
((${#wfs[@]} >= 4)) && ok "${#wfs[@]} workflows" || bad "expected at least 4 workflows, found ${#wfs[@]}"
for f in .clusterfuzzlite/Dockerfile .clusterfuzzlite/build.sh .clusterfuzzlite/project.yaml; do
	[[ -s $f ]] && ok "$f present" || bad "$f missing"
done
grep -q '^FROM gcr.io/oss-fuzz-base/base-builder' .clusterfuzzlite/Dockerfile &&
	ok "Dockerfile on base-builder" || bad "Dockerfile not FROM base-builder"

# One python3 pass: parse, check structure, print "RUN<TAB>file<TAB>line"
# for every shell line of every run: step, and "BAD<TAB>msg" for problems.
checks=$(python3 - "${wfs[@]}" .clusterfuzzlite/project.yaml <<'PY'
import sys
try:
    import yaml
except ImportError:
    yaml = None
modes = {"code-change", "batch", "prune", "coverage"}
sanitizers = {"address", "undefined", "memory", "coverage"}
def bad(msg):
    print("BAD\t" + msg)
def good(msg):
    print("OK\t" + msg)
files = sys.argv[1:-1]
if yaml is None:
    # Without PyYAML: tabs are never valid indentation in YAML, and every
    # file needs the top-level keys; run: lines are taken as written.
    for f in files:
        text = open(f).read()
        if "\t" in text:
            bad(f + ": tab character")
        for key in ("name:", "on:", "jobs:"):
            if not any(l.startswith(key) for l in text.splitlines()):
                bad(f + ": no top-level " + key)
        for l in text.splitlines():
            s = l.strip()
            if s.startswith("run:") and s[4:].strip() not in ("", "|"):
                print("RUN\t%s\t%s" % (f, s[4:].strip()))
    good("structural check only (no PyYAML)")
    sys.exit(0)
pj = yaml.safe_load(open(sys.argv[-1]))
if not isinstance(pj, dict) or pj.get("language") not in ("c", "c++"):
    bad("project.yaml: language must be c or c++")
else:
    good("project.yaml parses, language " + pj["language"])
for f in files:
    try:
        wf = yaml.safe_load(open(f))
    except yaml.YAMLError as e:
        bad("%s: invalid YAML: %s" % (f, e))
        continue
    # PyYAML reads the key "on" as the boolean True (YAML 1.1).
    on = wf.get("on", wf.get(True)) if isinstance(wf, dict) else None
    if not wf or "name" not in wf or on is None or not isinstance(wf.get("jobs"), dict):
        bad(f + ": needs name, on and jobs")
        continue
    good(f + ": valid YAML with name, on, jobs")
    if isinstance(on, dict) and "schedule" in on:
        for s in on["schedule"]:
            if len(str(s.get("cron", "")).split()) != 5:
                bad("%s: cron '%s' is not 5 fields" % (f, s.get("cron")))
    for jname, job in wf["jobs"].items():
        if "runs-on" not in job or not job.get("steps"):
            bad("%s: job %s needs runs-on and steps" % (f, jname))
            continue
        for needed in job.get("needs", []) if isinstance(job.get("needs"), list) else [job.get("needs")] if job.get("needs") else []:
            if needed not in wf["jobs"]:
                bad("%s: job %s needs unknown job %s" % (f, jname, needed))
        for st in job["steps"]:
            if ("uses" in st) == ("run" in st):
                bad("%s: job %s: a step needs exactly one of uses/run" % (f, jname))
                continue
            if "run" in st:
                for line in str(st["run"]).splitlines():
                    if line.strip():
                        print("RUN\t%s\t%s" % (f, line.strip()))
                continue
            uses, w = st["uses"], st.get("with", {}) or {}
            if "clusterfuzzlite/actions/" in uses:
                if not uses.startswith("google/clusterfuzzlite/actions/"):
                    bad("%s: unknown action %s" % (f, uses))
                if w.get("language") not in (None, "c", "c++"):
                    bad("%s: language %s" % (f, w.get("language")))
                san = str(w.get("sanitizer", "address"))
                if "${{" not in san and san not in sanitizers:
                    bad("%s: sanitizer %s" % (f, san))
                if "/run_fuzzers@" in uses:
                    if w.get("mode", "code-change") not in modes:
                        bad("%s: mode %s" % (f, w.get("mode")))
                    if "github-token" not in w:
                        bad("%s: run_fuzzers needs github-token" % f)
                    if not isinstance(w.get("fuzz-seconds", 600), int):
                        bad("%s: fuzz-seconds must be a number" % f)
                    good("%s: run_fuzzers mode %s" % (f, w.get("mode", "code-change")))
PY
)
while IFS=$'\t' read -r kind a _; do
	case $kind in
	OK) ok "$a" ;;
	BAD) bad "$a" ;;
	esac
done <<<"$checks"
for m in code-change batch prune coverage; do
	grep -q "^OK	.*run_fuzzers mode $m" <<<"$checks" && ok "a workflow runs mode $m" ||
		bad "no workflow runs ClusterFuzzLite mode $m"
done

# Every project script called in a run: line exists and its --help names
# every --flag passed to it. .ci/run takes no flags.
nrun=0
while IFS=$'\t' read -r kind wf line; do
	[[ $kind == RUN ]] || continue
	for word in $line; do
		case $word in
		.ci/run | scripts/*.sh) ;;
		*) continue ;;
		esac
		nrun=$((nrun + 1))
		if [[ ! -f $word ]]; then bad "$wf: $word does not exist"; continue; fi
		ok "$wf: $word exists"
		[[ $word == .ci/run ]] && continue
		help=$(bash "$word" --help 2>&1) || { bad "$word --help fails"; continue; }
		args=${line#*"$word"}
		for flag in $(grep -oE '(^| )--[a-z][a-z0-9-]*' <<<"$args"); do
			grep -qE -- "(^|[^a-z-])$flag([^a-z-]|$)" <<<"$help" && ok "$word accepts $flag" ||
				bad "$wf: $word --help does not mention $flag"
		done
	done
done <<<"$checks"
((nrun >= 3)) && ok "$nrun script calls checked" || bad "only $nrun script calls found in run: steps"
grep -q 'bash .ci/run' .github/workflows/*.yml && ok "a workflow runs .ci/run" || bad "no workflow runs .ci/run"
grep -q 'ci-fuzz.sh.*--engine afl' .github/workflows/*.yml && ok "a workflow runs ci-fuzz.sh with AFL++" ||
	bad "no workflow runs scripts/ci-fuzz.sh --engine afl"
echo "$pass passed, $fail failed"
((fail == 0))
