"""tests/mutation/run.sh's bookkeeping over a cosmic-ray session (run with the venv's python, which has cosmic-ray).

    MODE=count  cr_session.py SESSION gate.py                 how many mutants, and how many only touch an annotation
    MODE=select cr_session.py SESSION gate.py SAMPLE_LIST      keep a seeded sample by identity (SAMPLE, SEED) or the
                                                           identities listed in the file IDS; mark the rest skipped
    MODE=report cr_session.py SESSION gate.py OUT EQUIVALENT   score the run; write OUT/killed.txt, OUT/survivors.txt

A mutant's identity is `gate.py:LINE:COLUMN:OPERATOR#OCCURRENCE`. Annotation-only mutants (their span lies inside a
parameter, return or variable annotation; gate.py has `from __future__ import annotations`, so none is evaluated)
are equivalent by rule: in a sample they are recorded as such and not run.
"""

from __future__ import annotations

import ast
import hashlib
import os
import random
import re
import sys
from collections import Counter

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

# An identity at the start of a line, then optionally `# why` (the identity has a `#` of its own).
IDENTITY = re.compile(r"^\s*(\S+:\d+:\d+:\S+#\d+)\s*(?:#\s*(.*))?$")
BY_RULE = "equivalent by rule: the mutation is inside an annotation, never evaluated (from __future__ import annotations)"


def identity(item) -> str:  # type: ignore[no-untyped-def]
    return " ".join(f"{m.module_path}:{m.start_pos[0]}:{m.start_pos[1]}:{m.operator_name}#{m.occurrence}"
                    for m in item.mutations)


def annotation_spans(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    tree = ast.parse(source)
    future = any(isinstance(n, ast.ImportFrom) and n.module == "__future__" and any(a.name == "annotations" for a in n.names)
                 for n in tree.body)
    if not future:
        return []  # annotations are evaluated: no mutant is equivalent by this rule
    spans = []
    for node in ast.walk(tree):
        found = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            found += [a.annotation for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
                      if a is not None and a.annotation is not None]
            if node.returns is not None:
                found.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
        spans += [((n.lineno, n.col_offset), (n.end_lineno or n.lineno, n.end_col_offset or 0)) for n in found]
    return spans


def in_annotation(item, spans) -> bool:  # type: ignore[no-untyped-def]
    return all(any(lo <= tuple(m.start_pos) and tuple(m.end_pos) <= hi for lo, hi in spans) for m in item.mutations)


def main(argv: list[str]) -> None:
    mode, db_path, module = os.environ["MODE"], argv[1], argv[2]
    with open(module, encoding="utf-8") as handle:
        source = handle.read()
    spans = annotation_spans(source)
    with use_db(db_path, WorkDB.Mode.open) as db:
        if mode == "count":
            items = list(db.work_items)
            rule = sum(in_annotation(item, spans) for item in items)
            print(f"mutants: {len(items):,} in {module} ({len(source.splitlines()):,} lines, sha256 "
                  f"{hashlib.sha256(source.encode()).hexdigest()[:12]}); {rule:,} only touch an annotation")
        elif mode == "select":
            select(db, spans, argv[3])
        else:
            report(db, source, spans, argv[3], argv[4])


def select(db, spans, listing: str) -> None:  # type: ignore[no-untyped-def]
    items = {identity(item): item for item in db.work_items}
    keys = sorted(items)
    total = len(keys)
    wanted = os.environ.get("IDS", "")
    sample, seed = int(os.environ.get("SAMPLE", "400")), int(os.environ.get("SEED", "20241130"))
    if wanted:
        with open(wanted, encoding="utf-8") as handle:
            chosen = {found.group(1) for found in map(IDENTITY.match, handle) if found}
        unknown = chosen - set(keys)
        if unknown:
            sys.exit(f"select: {len(unknown)} identities of {wanted} are not mutants of this gate.py, e.g. {min(unknown)}")
    else:
        chosen = set(random.Random(seed).sample(keys, sample)) if 0 < sample < total else set(keys)
    rule = 0
    for key in keys:
        if key not in chosen:
            db.set_result(items[key].job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output="not in sample"))
        elif in_annotation(items[key], spans):
            rule += 1
            db.set_result(items[key].job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED, output=BY_RULE))
    with open(listing, "w", encoding="utf-8") as fh:
        fh.write("\n".join(sorted(chosen)) + "\n")
    how = (f"the {len(chosen)} listed in {wanted}" if wanted else
           f"sampling {len(chosen)} with seed {seed}" if len(chosen) < total else "running all")
    print(f"mutants: {total:,} total, {how}; {rule} of them only touch an annotation (equivalent, not run)")


def equivalent_list(path: str, source: str) -> dict[str, str]:
    out = {}
    if not os.path.exists(path):
        return out
    digest = hashlib.sha256(source.encode()).hexdigest()
    with open(path, encoding="utf-8") as handle:
        listed = handle.readlines()
    for line in listed:
        stated = re.match(r"#\s*gate\.py sha256:\s*([0-9a-f]{64})", line)
        if stated and stated.group(1) != digest:
            print(f"warning: {path} was judged on another gate.py (sha256 {stated.group(1)[:12]}, this one "
                  f"{digest[:12]}): its identities may name other mutants now; judge them again")
        found = IDENTITY.match(line)
        if found:
            out[found.group(1)] = (found.group(2) or "").strip()
    return out


def report(db, source: str, spans, out_dir: str, equivalent_path: str) -> None:  # type: ignore[no-untyped-def]
    equivalent = equivalent_list(equivalent_path, source)
    lines = source.splitlines()
    killed, survivors, judged, by_rule, incompetent = [], [], [], 0, 0
    killers: Counter[str] = Counter()
    for item, result in db.completed_work_items:
        key = identity(item)
        if result.worker_outcome == WorkerOutcome.SKIPPED:
            by_rule += result.output == BY_RULE
            continue
        if result.worker_outcome in (WorkerOutcome.ABNORMAL, WorkerOutcome.EXCEPTION, WorkerOutcome.NO_TEST) \
                or result.test_outcome == TestOutcome.INCOMPETENT:
            incompetent += 1
        elif result.test_outcome == TestOutcome.SURVIVED:
            if key in equivalent:
                judged.append(key)
            else:
                survivors += [key, result.diff or ""]
        else:
            output = result.output or ""
            found = re.search(r"^(killed-by|timed-out-in): (\S+)", output, re.M)
            test = f"{found.group(1)} {found.group(2)}" if found else ("timed-out (cosmic-ray's limit)"
                                                                     if output.strip() == "timeout" else "unknown")
            killers[test.split()[-1]] += 1
            line = lines[item.mutations[0].start_pos[0] - 1].strip()
            killed.append(f"{key}\t{test}\t{line[:100]}")
    with open(os.path.join(out_dir, "killed.txt"), "w", encoding="utf-8") as fh:
        fh.write("# identity<TAB>the test that killed it<TAB>the mutated line (before the mutation)\n")
        fh.write("".join(f"{row}\n" for row in sorted(killed)))
    with open(os.path.join(out_dir, "survivors.txt"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(survivors) + "\n")
    scored = len(killed) + len(survivors) // 2
    score = 100.0 * len(killed) / scored if scored else 0.0
    elapsed = int(os.environ.get("ELAPSED", "0"))
    run = scored + len(judged) + incompetent
    print(f"mutation: {run + by_rule} mutants in the sample, {len(killed)} killed, {len(survivors) // 2} survived, "
          f"{len(judged)} equivalent (equivalent.txt) and {by_rule} equivalent by rule (annotations, not run), "
          f"{incompetent} incompetent (not counted)")
    print(f"mutation score: {score:.1f}% of the non-equivalent mutants killed")
    if run:
        print(f"time: {elapsed} s for {run} mutants run, {elapsed / run:.0f} s a mutant")
    for test, count in killers.most_common(10):
        print(f"  killed {count:>4} x  {test}")


if __name__ == "__main__":
    main(sys.argv)
