#!/usr/bin/env bash
# Mutation testing of gate.py with cosmic-ray and the stdlib unittest suite (what `make mutation` runs).
#
#   bash tests/mutation/run.sh                      # seeded sample by mutant identity (MUTATION_SAMPLE, default 400)
#   MUTATION_SAMPLE=0 bash tests/mutation/run.sh    # every mutant (~7,300; many hours on 2 cores)
#   MUTATION_SEED=7 MUTATION_SAMPLE=200 bash tests/mutation/run.sh
#
# cosmic-ray mutates the module in place, so it works on a throwaway copy of the tree (tracked and
# untracked files, not drafts/): the checkout is never touched. The tool goes into a throwaway venv
# (set MUTATION_VENV to reuse an existing one that has cosmic-ray). The session database and the list
# of survivors are kept in MUTATION_OUT (default: a fresh temporary folder, printed at the end).
# Killed = the suite failed or timed out; the score is killed / (killed + survived), equivalent survivors apart.
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

# Mark everything outside a seeded sample as skipped (cosmic-ray's own filters do the same). The sample
# is drawn by mutant identity -- file, line, column, operator, occurrence -- never by cosmic-ray's
# random job ids, so the same seed on the same gate.py redraws exactly the same mutants.
"$venv/bin/python" - "$db" "$sample" "$seed" "$out/sample.txt" <<'PY'
import random
import sys

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import WorkerOutcome, WorkResult

db_path, sample, seed, listing = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]


def identity(item):
    return " ".join(f"{m.module_path}:{m.start_pos[0]}:{m.start_pos[1]}:{m.operator_name}#{m.occurrence}"
                    for m in item.mutations)


with use_db(db_path, WorkDB.Mode.open) as db:
    items = {identity(item): item.job_id for item in db.work_items}
    keys = sorted(items)
    total = len(keys)
    chosen = set(random.Random(seed).sample(keys, sample)) if 0 < sample < total else set(keys)
    for key in keys:
        if key not in chosen:
            db.set_result(items[key], WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output="not in sample"))
    with open(listing, "w", encoding="utf-8") as fh:
        fh.write("\n".join(sorted(chosen)) + "\n")
    print(f"mutants: {total} total, {'sampling %d with seed %d' % (len(chosen), seed) if len(chosen) < total else 'running all'}")
PY

"$venv/bin/cosmic-ray" exec "$out/cosmic-ray.toml" "$db"

# Survivors listed in tests/mutation/equivalent.txt (one identity per line, `#` and a reason after it) are
# reported apart and not scored: no test can tell them from the original.
"$venv/bin/python" - "$db" "$out/survivors.txt" "$root/tests/mutation/equivalent.txt" <<'PY'
import os
import sys

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome

db_path, survivors_path, equivalent_path = sys.argv[1], sys.argv[2], sys.argv[3]
equivalent = set()
if os.path.exists(equivalent_path):
    for line in open(equivalent_path, encoding="utf-8"):
        key = line.split("#", 1)[0].strip()
        if key:
            equivalent.add(key)
killed = survived = same = incompetent = 0
lines = []
with use_db(db_path, WorkDB.Mode.open) as db:
    for item, result in db.completed_work_items:
        if result.worker_outcome == WorkerOutcome.SKIPPED:
            continue
        key = " ".join(f"{m.module_path}:{m.start_pos[0]}:{m.start_pos[1]}:{m.operator_name}#{m.occurrence}"
                       for m in item.mutations)
        if result.worker_outcome == WorkerOutcome.ABNORMAL or result.test_outcome == TestOutcome.INCOMPETENT:
            incompetent += 1
        elif result.test_outcome == TestOutcome.SURVIVED:
            if key in equivalent:
                same += 1
                continue
            survived += 1
            lines.append(key)
            lines.append(result.diff or "")
        else:
            killed += 1
with open(survivors_path, "w", encoding="utf-8") as fh:
    fh.write("\n".join(lines) + "\n")
scored = killed + survived
score = 100.0 * killed / scored if scored else 0.0
print(f"mutation: {scored + same} mutants run, {killed} killed, {survived} survived, {same} equivalent "
      f"(listed, not scored), {incompetent} incompetent (not counted)")
print(f"mutation score: {score:.1f}% of the non-equivalent mutants killed")
PY
echo "session: $db"
echo "survivors: $out/survivors.txt"
