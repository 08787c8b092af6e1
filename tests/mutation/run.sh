#!/usr/bin/env bash
# Mutation testing of gate.py with cosmic-ray and the stdlib unittest suite (what `make mutation` runs).
#
#   bash tests/mutation/run.sh                      # seeded random sample (MUTATION_SAMPLE, default 400)
#   MUTATION_SAMPLE=0 bash tests/mutation/run.sh    # every mutant (~7,300; many hours on 2 cores)
#   MUTATION_SEED=7 MUTATION_SAMPLE=200 bash tests/mutation/run.sh
#
# cosmic-ray mutates the module in place, so it works on a throwaway copy of the tree (tracked and
# untracked files, not drafts/): the checkout is never touched. The tool goes into a throwaway venv
# (set MUTATION_VENV to reuse an existing one that has cosmic-ray). The session database and the list
# of survivors are kept in MUTATION_OUT (default: a fresh temporary folder, printed at the end).
# Killed = the suite failed or timed out; the score is killed / (killed + survived) over the mutants run.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
py=${PYTHON:-python3}
sample=${MUTATION_SAMPLE:-400}
seed=${MUTATION_SEED:-20241130}
out=${MUTATION_OUT:-$(mktemp -d)}
mkdir -p "$out"
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

echo "== baseline: the suite must pass on the unmutated gate.py"
start=$(date +%s)
"$py" -m unittest -q
echo "baseline took $(( $(date +%s) - start )) s"

cat > "$out/cosmic-ray.toml" <<TOML
[cosmic-ray]
module-path = "gate.py"
timeout = 60.0
excluded-modules = []
test-command = "$py -m unittest -q -f"

[cosmic-ray.distributor]
name = "local"
TOML

db=$out/session.sqlite
rm -f "$db"
"$venv/bin/cosmic-ray" init "$out/cosmic-ray.toml" "$db"

# Mark everything outside a seeded random sample as skipped (cosmic-ray's own filters do the same).
"$venv/bin/python" - "$db" "$sample" "$seed" <<'PY'
import random
import sys

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import WorkerOutcome, WorkResult

db_path, sample, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with use_db(db_path, WorkDB.Mode.open) as db:
    ids = sorted(item.job_id for item in db.work_items)
    total = len(ids)
    if 0 < sample < total:
        keep = set(random.Random(seed).sample(ids, sample))
        for job_id in ids:
            if job_id not in keep:
                db.set_result(job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output="not in sample"))
        print(f"mutants: {total} total, sampling {sample} with seed {seed}")
    else:
        print(f"mutants: {total} total, running all")
PY

"$venv/bin/cosmic-ray" exec "$out/cosmic-ray.toml" "$db"

"$venv/bin/python" - "$db" "$out/survivors.txt" <<'PY'
import sys

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome

db_path, survivors_path = sys.argv[1], sys.argv[2]
killed = survived = incompetent = 0
lines = []
with use_db(db_path, WorkDB.Mode.open) as db:
    for item, result in db.completed_work_items:
        if result.worker_outcome == WorkerOutcome.SKIPPED:
            continue
        if result.worker_outcome == WorkerOutcome.ABNORMAL or result.test_outcome == TestOutcome.INCOMPETENT:
            incompetent += 1
        elif result.test_outcome == TestOutcome.SURVIVED:
            survived += 1
            for mut in item.mutations:
                lines.append(f"{item.job_id} {mut.module_path}:{mut.start_pos[0]}:{mut.start_pos[1]} {mut.operator_name} #{mut.occurrence}")
            lines.append(result.diff or "")
        else:
            killed += 1
with open(survivors_path, "w", encoding="utf-8") as fh:
    fh.write("\n".join(lines) + "\n")
run = killed + survived
score = 100.0 * killed / run if run else 0.0
print(f"mutation: {run} mutants run, {killed} killed, {survived} survived, {incompetent} incompetent (not counted)")
print(f"mutation score: {score:.1f}%")
PY
echo "session: $db"
echo "survivors: $out/survivors.txt"
