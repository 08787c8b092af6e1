"""The one place that builds the tests' inputs: run records, ledgers, manifests and task lists.

A test takes a ledger from here and changes the one thing it is about. Nothing here calls gate.py:
the digests a builder declares come from oracles.ids_digest, written from the definition.

    record            one run record
    make_manifest     a manifest over a list of task ids (claim, dataset, controls, envelope, recipe)
    valid_ledger      a PUBLISHABLE manifest and records: 29 pass, 8 fail, 3 unscoreable of 40
    retry_ledger      retry mode: each task's attempts listed in order
    pattern_records   attempts written as letters, "pfu" = pass, fail, unscoreable (env_flake)
    samples_ledger    samples mode from letter patterns, optionally with strata
    samples_records   samples mode from pass counts: c passes then fails, n samples per task
    as_samples        a retry-mode ledger repeated as samples, some tasks with their own outcomes
    rich_ledger       strata, extra record fields and retries, with this test's own view of each exit
    strata_ledger     valid_ledger with strata on the records and three declared metrics
    paired_ledgers    two ledgers over one suite whose paired table is exactly (a, b, c, d)
    task, make_slice  task-file entries for freeze / verify
    manifest_with_card a manifest that points at tasks.json and card.json and two control runs
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Sequence
from typing import Any

from tests.oracles import ids_digest

NEGATIVE, POSITIVE = "neg-01", "pos-01"
ENVELOPE: dict[str, Any] = {"runner": "test", "network": "off", "wall_clock_s_per_task": 900, "toolchain_sha": "0123abcd"}
COMPARE_ENVELOPE: dict[str, Any] = {"runner": "local-docker", "network": "off", "wall_clock_s_per_task": 900, "max_steps": 40,
                                     "toolchain_sha": "0123abcd"}
RERUN = "python3 gate.py --manifest m.json --runs r.jsonl"
OUTCOME_LETTERS = {"p": "pass", "f": "fail", "u": "unscoreable"}
_DEFAULT: Any = object()


def record(task_id: str, outcome: str, reason: str | None = None, attempt: int = 1, run_id: str = "r1",
           **extra: Any) -> dict[str, Any]:
    """One run record; extra fields (stratum, wall_clock_s, cost_usd, …) follow the five required ones."""
    rec: dict[str, Any] = {"run_id": run_id, "task_id": task_id, "attempt": attempt, "outcome": outcome,
                           "reason": reason}
    rec.update(extra)
    return rec


def control_pair(negative: str = NEGATIVE, positive: str = POSITIVE) -> list[dict[str, Any]]:
    """A negative control expected to fail and a positive control expected to pass."""
    return [{"task_id": negative, "expected": "fail", "role": "negative"},
            {"task_id": positive, "expected": "pass", "role": "positive"}]


def make_manifest(ids: Sequence[str], *, claim_id: str = "test-claim", name: str = "test-suite", with_ids: bool = True,
             strata: dict[str, int] | None = None, dataset_fields: dict[str, Any] | None = None,
             controls: Any = _DEFAULT, control_runs: list[dict[str, Any]] | None = None, envelope: Any = _DEFAULT,
             rerun_recipe: str | None = RERUN, **extra: Any) -> dict[str, Any]:
    """A manifest over these task ids: the digest always, the sorted id list unless with_ids is False.

    Keys come in a fixed order (claim_id, dataset, controls, control_runs, envelope, rerun_recipe, then
    `extra` in the order given), so the same call always writes the same bytes.
    """
    dataset: dict[str, Any] = {"name": name, "task_count": len(ids), "task_ids_sha256": ids_digest(ids)}
    if with_ids:
        dataset["task_ids"] = sorted(ids)
    if strata is not None:
        dataset["strata"] = strata
    dataset.update(dataset_fields or {})
    out: dict[str, Any] = {"claim_id": claim_id, "dataset": dataset,
                           "controls": control_pair() if controls is _DEFAULT else controls}
    if control_runs is not None:
        out["control_runs"] = control_runs
    out["envelope"] = dict(ENVELOPE) if envelope is _DEFAULT else envelope
    if rerun_recipe is not None:
        out["rerun_recipe"] = rerun_recipe
    out.update(extra)
    return out


def declare(manifest: dict[str, Any], ids: Sequence[str]) -> None:
    """Point the manifest's dataset at exactly these task ids: count, sorted list and digest."""
    unique = list(dict.fromkeys(ids))
    manifest["dataset"].update(task_count=len(unique), task_ids=sorted(unique), task_ids_sha256=ids_digest(unique))


def replaced(records: list[dict[str, Any]], tid: str, /, **fields: Any) -> list[dict[str, Any]]:
    """A copy of the records with the one record of task `tid` changed (it must have exactly one)."""
    out = copy.deepcopy(records)
    hits = [r for r in out if r["task_id"] == tid]
    if len(hits) != 1:
        raise AssertionError(f"{len(hits)} records of task {tid!r}, expected exactly one")
    hits[0].update(fields)
    return out


def valid_ledger(passes: int = 29, fails: int = 8,
                 unscoreable: tuple[str, ...] = ("harness_timeout", "harness_timeout", "grader_error"),
                 with_ids: bool = True) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A PUBLISHABLE manifest and records: neg-01 fails, pos-01 passes, t-001… the rest as asked.

    The counts include the controls: passes >= 1 and fails >= 1. The unscoreable tasks carry the
    reasons given, in order, after the passes and fails.
    """
    records = [record(NEGATIVE, "fail"), record(POSITIVE, "pass")]
    n = 0
    for _ in range(passes - 1):
        n += 1
        records.append(record(f"t-{n:03d}", "pass"))
    for _ in range(fails - 1):
        n += 1
        records.append(record(f"t-{n:03d}", "fail"))
    for reason in unscoreable:
        n += 1
        records.append(record(f"t-{n:03d}", "unscoreable", reason))
    return make_manifest([r["task_id"] for r in records], with_ids=with_ids), records


def with_strata(records: list[dict[str, Any]], sizes: dict[str, int]) -> list[dict[str, Any]]:
    """Label records in order: the first sizes[0] records get the first stratum, and so on."""
    out, index = [], 0
    for name, size in sizes.items():
        for rec in records[index:index + size]:
            out.append({**rec, "stratum": name})
        index += size
    out.extend(copy.deepcopy(records[index:]))
    return out


def retry_ledger(budget: int, tasks: dict[str, list[tuple[str, str | None]]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Retry mode: each task has the listed (outcome, reason) attempts, numbered 1..a in order."""
    ids = sorted(tasks)
    records = [record(tid, outcome, reason, attempt=i) for tid, attempts in tasks.items()
               for i, (outcome, reason) in enumerate(attempts, 1)]
    return make_manifest(ids, attempt_budget=budget), records


def pattern_records(patterns: dict[str, str], strata: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Attempts written as letters per task, "pfu" = pass, fail, unscoreable (env_flake), numbered from 1."""
    return [record(t, OUTCOME_LETTERS[c], "env_flake" if c == "u" else None, attempt=i,
                   **({"stratum": strata[t]} if strata else {}))
            for t, pattern in patterns.items() for i, c in enumerate(pattern, 1)]


def samples_ledger(patterns: dict[str, str], strata: dict[str, str] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Samples mode from letter patterns over tasks that include the controls "neg" and "pos".

    The budget is the length of the first pattern; the dataset declares the digest (no id list) and,
    with `strata` (task -> stratum), each stratum's size.
    """
    ids = list(patterns)
    sizes = None
    if strata:
        sizes = {s: list(strata.values()).count(s) for s in sorted(set(strata.values()))}
    built = make_manifest(ids, name="d", with_ids=False, strata=sizes, controls=control_pair("neg", "pos"),
                     attempt_mode="samples", attempt_budget=len(next(iter(patterns.values()))))
    return built, pattern_records(patterns, strata)


def samples_records(counts: dict[str, int], n: int, unscoreable: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """c passes then fails, n attempts per task; `unscoreable` turns that many of the fails into env_flake."""
    records = []
    for tid, c in counts.items():
        flakes = (unscoreable or {}).get(tid, 0)
        for a in range(1, n + 1):
            if a <= c:
                records.append(record(tid, "pass", attempt=a))
            elif a <= c + flakes:
                records.append(record(tid, "unscoreable", "env_flake", attempt=a))
            else:
                records.append(record(tid, "fail", attempt=a))
    return records


def as_samples(base: dict[str, Any], records: list[dict[str, Any]], budget: int,
               outcomes: dict[str, Sequence[str]] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The same tasks in samples mode: each task's outcome `budget` times, or the outcomes listed for it.

    The samples carry no reason, so the ledger given should have no unscoreable task.
    """
    built = copy.deepcopy(base)
    built.update(attempt_mode="samples", attempt_budget=budget)
    samples = []
    for r in records:
        listed = (outcomes or {}).get(r["task_id"], (r["outcome"],) * budget)
        for attempt, outcome in enumerate(listed, 1):
            samples.append(record(r["task_id"], outcome, attempt=attempt))
    return built, samples


def metric(name: str, numerator: str, denominator: str = "dataset.task_count", unit: str = "tasks",
           **extra: Any) -> dict[str, Any]:
    """A declared metric of the manifest."""
    return {"name": name, "numerator": numerator, "denominator": denominator, "unit": unit, **extra}


def rich_ledger() -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """(manifest, records, exits) with strata, extra fields (difficulty, score, flaky, note) and retries.

    exits is this builder's own view of each task's exit row (the fields a metric predicate sees), so
    a test can count a predicate over it without asking the gate.
    """
    plan: list[tuple[str, list[str], str | None, str, dict[str, Any]]] = [
        ("neg-01", ["fail"], None, "repo_edit", {"difficulty": "easy", "score": 0.0, "flaky": False}),
        ("pos-01", ["pass"], None, "repo_edit", {"difficulty": "easy", "score": 1.0, "flaky": False}),
    ]
    for i in range(1, 11):
        plan.append((f"t-{i:03d}", ["pass"], None, "repo_edit", {"difficulty": "hard", "score": 0.5, "flaky": True}))
    for i in range(11, 21):
        plan.append((f"t-{i:03d}", ["pass"], None, "test_write", {"difficulty": "easy", "score": 1, "flaky": False}))
    for i in range(21, 26):
        plan.append((f"t-{i:03d}", ["fail"], None, "test_write", {"difficulty": "hard", "score": -0.25}))
    for i in (26, 27):
        plan.append((f"t-{i:03d}", ["unscoreable"], "harness_timeout", "refactor", {"difficulty": "hard", "note": None}))
    plan.append(("t-028", ["unscoreable"], "grader_error", "refactor", {"difficulty": "easy"}))
    for i in (29, 30):
        plan.append((f"t-{i:03d}", ["fail", "pass"], None, "refactor", {"difficulty": "hard", "score": 2}))
    plan.append(("t-031", ["fail", "fail"], None, "refactor", {"difficulty": "medium", "flaky": True}))
    records: list[dict[str, Any]] = []
    exits: list[dict[str, Any]] = []
    roles = {"neg-01": "negative", "pos-01": "positive"}
    for tid, outcomes, reason, stratum, extra in plan:
        for number, outcome in enumerate(outcomes, 1):
            records.append(record(tid, outcome, reason, attempt=number, stratum=stratum, **extra))
        final = "pass" if "pass" in outcomes else outcomes[-1]
        exits.append({"outcome": final, "reason": reason, "stratum": stratum, "task_id": tid,
                      "attempts": len(outcomes), "control": tid in roles, "role": roles.get(tid), **extra})
    built = make_manifest([p[0] for p in plan], claim_id="rich-claim", name="rich-suite", rerun_recipe=None,
                     attempt_budget=2)
    built["rerun_recipe"] = RERUN
    return built, records, exits


def strata_ledger() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """valid_ledger() with strata on the records and two metrics; 29 pass, 8 fail, 3 unscoreable."""
    built, records = valid_ledger()
    for index, rec in enumerate(records):
        rec["stratum"] = ("repo_edit", "test_write", "refactor")[index % 3]
    built["metrics"] = [metric("pass_rate", "outcome == 'pass'"),
                        metric("unscoreable_rate", "outcome == 'unscoreable'"),
                        metric("refactor_pass", "outcome == 'pass'", "stratum == 'refactor'")]
    return built, records


def paired_ledgers(a: int, b: int, c: int, d: int) -> tuple[dict[str, Any], list[Any], dict[str, Any], list[Any]]:
    """Two PUBLISHABLE ledgers over one suite whose paired table is exactly (a, b, c, d).

    pos-01 is one of the `a` tasks both pass, neg-01 one of the `d` tasks neither passes.
    """
    assert a >= 1 and d >= 1
    ids = ["pos-01"] + [f"t-{i:03d}" for i in range(1, a + b + c + d - 1)] + ["neg-01"]
    pass_a = set(ids[:a + b])
    pass_b = set(ids[:a]) | set(ids[a + b:a + b + c])
    manifests, ledgers = [], []
    for side, passing in (("a", pass_a), ("b", pass_b)):
        ledgers.append([record(t, "pass" if t in passing else "fail", run_id=f"run-{side}") for t in ids])
        manifests.append(make_manifest(ids, claim_id=f"claim-{side}", name="paired-suite", envelope=dict(COMPARE_ENVELOPE)))
    return manifests[0], ledgers[0], manifests[1], ledgers[1]


def paired_samples(counts_a: Sequence[int], counts_b: Sequence[int], m: int, *, clusters: Sequence[str] | None = None,
                   late: bool = False) -> tuple[dict[str, Any], list[Any], dict[str, Any], list[Any]]:
    """Two PUBLISHABLE samples-mode ledgers, m samples a task, task i passing counts_a[i] (A) and counts_b[i] (B)
    of them, plus the controls pos-01 (every sample passes) and neg-01 (none). The passes come first, or with
    `late` last; `clusters` names each task's cluster (the controls get "ctl").
    """
    ids = ["pos-01", *(f"t-{i:03d}" for i in range(len(counts_a))), "neg-01"]
    per_task = {"a": [m, *counts_a, 0], "b": [m, *counts_b, 0]}
    names = ["ctl", *(clusters or ()), "ctl"] if clusters is not None else None
    built: list[Any] = []
    for side in ("a", "b"):
        records = []
        for index, (tid, passes) in enumerate(zip(ids, per_task[side])):
            outcomes = ["pass"] * passes + ["fail"] * (m - passes)
            if late:
                outcomes.reverse()
            for attempt, outcome in enumerate(outcomes, 1):
                rec = record(tid, outcome, attempt=attempt, run_id=f"run-{side}")
                if names is not None:
                    rec["cluster"] = names[index]
                records.append(rec)
        built += [make_manifest(ids, claim_id=f"claim-{side}", name="paired-suite", envelope=dict(COMPARE_ENVELOPE),
                                attempt_mode="samples", attempt_budget=m), records]
    return built[0], built[1], built[2], built[3]


def hex40(seed: str) -> str:
    """A stable 40-hex-digit commit id made from a string."""
    return hashlib.sha1(seed.encode("utf-8")).hexdigest()


def task(tid: str, language: str = "python", span: int = 10, license_name: str = "mit", **extra: Any) -> dict[str, Any]:
    """One task-file entry that meets the default inclusion rule."""
    t: dict[str, Any] = {"task_id": tid, "repo": "pallets/flask", "commit": hex40(tid), "language": language,
                         "edit_span": span, "license": license_name, "has_failing_test": True}
    t.update(extra)
    return t


def make_slice(*spec: tuple[str, int, int]) -> list[dict[str, Any]]:
    """(language, narrow tasks, wide tasks) -> tasks named like py-n-01, ty-w-03."""
    tasks = []
    for language, narrow, wide in spec:
        for i in range(1, narrow + 1):
            tasks.append(task(f"{language[:2]}-n-{i:02d}", language, 5 + i))
        for i in range(1, wide + 1):
            tasks.append(task(f"{language[:2]}-w-{i:02d}", language, 40 + i))
    return tasks


def slice_manifest(ids: Sequence[str], **extra: Any) -> dict[str, Any]:
    """A plain manifest over a slice's ids, with no controls unless given."""
    extra.setdefault("controls", [])
    return make_manifest(ids, claim_id="card-test", name="slice", **extra)


def manifest_with_card(ids: Sequence[str], **extra: Any) -> dict[str, Any]:
    """A manifest that references tasks.json and card.json, with no-edit and known-fix control runs."""
    return make_manifest(ids, claim_id="card-claim", name="slice", with_ids=False,
                    dataset_fields={"tasks": "tasks.json", "card": "card.json"}, controls=[],
                    control_runs=[{"role": "no_edit", "runs": "noedit.jsonl", "max_pass_rate": 0.05},
                                  {"role": "known_fix", "runs": "gold.jsonl", "min_pass_rate": 0.95}],
                    rerun_recipe="python3 gate.py --manifest bench.manifest.json --runs runs.jsonl", **extra)


def fill_draft(manifest: dict[str, Any]) -> dict[str, Any]:
    """A draft manifest completed as a user would: the draft list deleted, each TODO envelope value and a TODO
    dataset name filled in (controls and the recipe are the caller's)."""
    del manifest["draft"]
    filled = {"runner": "local-docker", "network": "off", "wall_clock_s_per_task": 3600, "toolchain_sha": "0123abcd"}
    for key, value in list(manifest["envelope"].items()):
        if key in filled and (value is None or (isinstance(value, str) and value.startswith("TODO"))):  # null: a number
            manifest["envelope"][key] = filled[key]
    if manifest["dataset"]["name"].startswith("TODO"):
        manifest["dataset"]["name"] = "the suite"
    for key, value in list(manifest.get("system", {}).items()):
        if isinstance(value, str) and value.startswith("TODO"):
            manifest["system"][key] = f"the {key} under test"
    return manifest

