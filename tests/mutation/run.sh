#!/usr/bin/env bash
# Mutation testing of gate.py with cosmic-ray and the stdlib unittest suite (what `make mutation` runs).
#
#   bash tests/mutation/run.sh                      # seeded sample by mutant identity (MUTATION_SAMPLE, default 400)
#   MUTATION_SAMPLE=0 bash tests/mutation/run.sh    # every mutant (31,373 on gate.py of 2026-12-07; days on 2 cores)
#   MUTATION_SEED=7 MUTATION_SAMPLE=200 bash tests/mutation/run.sh
#   MUTATION_IDS=survivors.ids bash tests/mutation/run.sh   # exactly these identities (one a line), e.g. to re-run survivors
#   MUTATION_COUNT_ONLY=1 bash tests/mutation/run.sh         # count the mutants (cosmic-ray init), run none
#
# How many mutants: cosmic-ray's work items for gate.py, one mutation each. They were counted with
# `MUTATION_COUNT_ONLY=1 bash tests/mutation/run.sh` (cosmic-ray 8.7.0, Python 3.11): 31,373 on the gate.py of
# 2026-12-07 (14,570 lines), of which 2,376 mutate an annotation. The count follows gate.py: recount, don't quote.
#
# cosmic-ray mutates the module in place, so it works on a throwaway copy of the tree (tracked and
# untracked files, not drafts/): the checkout is never touched. The tool goes into a throwaway venv
# (set MUTATION_VENV to reuse an existing one that has cosmic-ray). The session database, the lists and the
# report are kept in MUTATION_OUT (default: a fresh temporary folder, printed at the end).
#
# The test command is tests/mutation/run_suite.py: `unittest -v -f` (fail-fast) with BENCHGATE_MUTATION=1 (the
# property tests derandomized, so a kill by one repeats); it prints the killing test on standard output, the one
# stream cosmic-ray keeps, and killed.txt lists, per killed mutant, that test. The suite's own time limit is set
# from the baseline (3x its time, at least 120 s; MUTATION_TIMEOUT overrides), so a survivor on a slow machine
# is not counted as killed by a timeout; a mutant that hangs is named with the test it hung in.
#
# Killed = a test failed or the suite ran past the limit. Equivalent mutants are reported apart and not scored:
# those that only change an annotation (gate.py has `from __future__ import annotations`, so no annotation is
# ever evaluated: found from the AST, not run), and those judged by hand in tests/mutation/equivalent.txt
# (reasons in equivalent.md). The score is killed / (killed + survived).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
py=${PYTHON:-python3}
sample=${MUTATION_SAMPLE:-400}
seed=${MUTATION_SEED:-20241130}
ids=${MUTATION_IDS:-}
[ -n "$ids" ] && ids=$(cd "$(dirname "$ids")" && pwd)/$(basename "$ids")
out=${MUTATION_OUT:-$(mktemp -d)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -n "${MUTATION_VENV:-}" ]; then
  venv=$MUTATION_VENV
else
  venv=$work/venv
  "$py" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "cosmic-ray==8.*"
fi

echo "== copying the tree to $work/tree"
mkdir "$work/tree"
if git -C "$root" rev-parse >/dev/null 2>&1; then
  git -C "$root" ls-files -co --exclude-standard | grep -v '^drafts/' | tar cf - -T - | tar xf - -C "$work/tree"
else
  tar cf - --exclude=./drafts --exclude=./.git --exclude=./.venv . | tar xf - -C "$work/tree"
fi
cd "$work/tree"

write_config() {  # $1: the test command's time limit, seconds (cosmic-ray's own is 30 s more)
  cat > "$out/cosmic-ray.toml" <<TOML
[cosmic-ray]
module-path = "gate.py"
timeout = $(( $1 + 30 )).0
excluded-modules = []
test-command = "$py tests/mutation/run_suite.py $1"

[cosmic-ray.distributor]
name = "local"
TOML
}

db=$out/session.sqlite
if [ -n "${MUTATION_COUNT_ONLY:-}" ]; then
  write_config 60
  rm -f "$db"
  "$venv/bin/cosmic-ray" init "$out/cosmic-ray.toml" "$db"
  MODE=count "$venv/bin/python" "$root/tests/mutation/cr_session.py" "$db" gate.py
  exit 0
fi

echo "== baseline: the suite must pass on the unmutated gate.py"
start=$(date +%s)
BENCHGATE_MUTATION=1 "$py" -m unittest -q
baseline=$(( $(date +%s) - start ))
limit=${MUTATION_TIMEOUT:-$(( baseline * 3 > 120 ? baseline * 3 : 120 ))}
echo "baseline took $baseline s; the suite's limit under a mutant: $limit s"
write_config "$limit"

rm -f "$db"
"$venv/bin/cosmic-ray" init "$out/cosmic-ray.toml" "$db"

# Mark everything outside a seeded sample as skipped (cosmic-ray's own filters do the same). The sample
# is drawn by mutant identity -- file, line, column, operator, occurrence -- never by cosmic-ray's
# random job ids, so the same seed on the same gate.py redraws exactly the same mutants. Annotation-only
# mutants in the sample are recorded as equivalent and not run.
MODE=select SAMPLE=$sample SEED=$seed IDS=$ids "$venv/bin/python" "$root/tests/mutation/cr_session.py" "$db" gate.py \
  "$out/sample.txt"

start=$(date +%s)
"$venv/bin/cosmic-ray" exec "$out/cosmic-ray.toml" "$db"
elapsed=$(( $(date +%s) - start ))

MODE=report ELAPSED=$elapsed "$venv/bin/python" "$root/tests/mutation/cr_session.py" "$db" gate.py "$out" \
  "$root/tests/mutation/equivalent.txt" | tee "$out/report.txt"
echo "session: $db"
echo "report: $out/report.txt; killed (with the killing test): $out/killed.txt; survivors (with diffs): $out/survivors.txt"
