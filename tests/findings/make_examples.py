#!/usr/bin/env python3
"""Write tests/findings/<code>/: for every finding code, the smallest ledger that raises exactly that code.

    python3 tests/findings/make_examples.py      # rewrites every folder (deterministic)

Each folder holds the inputs and `command`, the arguments after `python3 gate.py` (run from the folder).
tests/test_findings.py runs each one and checks that its findings are that code and no other, and that
every code in gate.FINDINGS has a folder. The base ledger, six tasks of which the two controls pass and
fail as expected, is PUBLISHABLE; each case changes the one thing its code is about.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import shutil
import sys
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

import gate  # noqa: E402  (the card cases freeze their card with the gate itself)
from tests.builders import make_manifest, record, task  # noqa: E402
from tests.oracles import ids_digest  # noqa: E402

CHECK = ["--manifest", "bench.manifest.json", "--runs", "runs.jsonl"]
IDS = ["neg-01", "pos-01", "t-001", "t-002", "t-003", "t-004"]
RECIPE = "python3 gate.py --manifest bench.manifest.json --runs runs.jsonl"


def base(ids: list[str] | None = None, **extra: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The PUBLISHABLE base: neg-01 fails, pos-01 passes, t-001 and t-003 pass, t-002 and t-004 fail."""
    ids = ids or IDS
    outcome = {"neg-01": "fail", "pos-01": "pass", "t-001": "pass", "t-002": "fail", "t-003": "pass", "t-004": "fail"}
    records = [record(tid, outcome.get(tid, "pass")) for tid in ids]
    extra.setdefault("rerun_recipe", RECIPE)
    return make_manifest(ids, claim_id="findings-example", name="six-tasks", **extra), records


Case = dict[str, Any]  # file name -> JSON object, or list of records (.jsonl); "command" -> argument list
CASES: dict[str, Callable[[], Case]] = {}


def case(code: str) -> Callable[[Callable[[], Case]], Callable[[], Case]]:
    def register(make: Callable[[], Case]) -> Callable[[], Case]:
        CASES[code] = make
        return make
    return register


def check(manifest: dict[str, Any], records: list[dict[str, Any]], *extra: str, **files: Any) -> Case:
    return {"bench.manifest.json": manifest, "runs.jsonl": records, "command": [*CHECK, *extra], **files}


@case("dataset_digest_mismatch")
def _() -> Case:
    manifest, records = base(with_ids=False)
    manifest["dataset"]["task_ids_sha256"] = ids_digest(["another", "suite"])
    return check(manifest, records)


@case("dataset_size_mismatch")
def _() -> Case:
    manifest, records = base(with_ids=False)
    manifest["dataset"]["task_count"] = 7
    return check(manifest, records)


@case("never_started")
def _() -> Case:
    manifest, records = base()
    return check(manifest, records[:-1])


@case("unexpected_task")
def _() -> Case:
    manifest, records = base(IDS[:-1])
    return check(manifest, [*records, record("t-004", "fail")])


@case("mixed_runs")
def _() -> Case:
    manifest, records = base(attempt_budget=2)  # t-002 retried in a second run: valid attempts, two run_ids
    return check(manifest, [*records, record("t-002", "fail", attempt=2, run_id="r2")])


def with_attempts(budget: int, attempts: list[tuple[str, str, str | None, int]], **extra: Any) -> Case:
    manifest, records = base(attempt_budget=budget, **extra)
    changed = {tid for tid, *_ in attempts}
    kept = [r for r in records if r["task_id"] not in changed]
    return check(manifest, kept + [record(tid, outcome, reason, attempt=n) for tid, outcome, reason, n in attempts])


@case("attempt_repeated")
def _() -> Case:
    return with_attempts(2, [("t-002", "fail", None, 1), ("t-002", "fail", None, 1)])


@case("attempt_gap")
def _() -> Case:
    return with_attempts(3, [("t-002", "fail", None, 1), ("t-002", "fail", None, 3)])


@case("attempt_over_budget")
def _() -> Case:
    return with_attempts(1, [("t-002", "fail", None, 1), ("t-002", "fail", None, 2)])


@case("samples_incomplete")
def _() -> Case:
    manifest, records = base(attempt_mode="samples", attempt_budget=2)
    twice = [dict(r, attempt=n) for r in records for n in (1, 2)]
    return check(manifest, [r for r in twice if (r["task_id"], r["attempt"]) != ("t-002", 2)])


def one_record(index: int, **fields: Any) -> Callable[[], Case]:
    """The base with one record's fields changed (records: neg-01, pos-01, t-001, t-002, ...)."""
    def make() -> Case:
        manifest, records = base()
        records[index].update(fields)
        return check(manifest, records)
    return make


CASES["unknown_outcome"] = one_record(3, outcome="failed")
CASES["uncoded_unscoreable"] = one_record(3, outcome="unscoreable", reason=None)
CASES["reason_on_scored"] = one_record(3, reason="env_flake")


@case("attempt_after_pass")
def _() -> Case:
    return with_attempts(2, [("t-001", "pass", None, 1), ("t-001", "fail", None, 2)])


@case("wall_clock_incomplete")
def _() -> Case:
    manifest, records = base()
    return check(manifest, [dict(r, wall_clock_s=60) if i % 2 else r for i, r in enumerate(records)])


@case("ledger_does_not_balance")
def _() -> Case:
    manifest, records = base(with_ids=False)
    manifest["dataset"]["task_count"] = 5  # six tasks exit; five were declared
    return check(manifest, records)


@case("cluster_incomplete")
def _() -> Case:
    manifest, records = base()
    return check(manifest, [dict(r, cluster="repo-a") if i < 3 else r for i, r in enumerate(records)])


@case("cluster_conflict")
def _() -> Case:
    def elsewhere(manifest: dict[str, Any], records: list[dict[str, Any]]) -> None:
        for rec in records:
            rec["cluster"] = "repo-b" if rec["task_id"] == "t-002" else "repo-a"
    made = compared(elsewhere)  # B puts t-002 in another repository than A does
    made["a.jsonl"] = [dict(rec, cluster="repo-a") for rec in made["a.jsonl"]]
    made["command"].append("--by-cluster")
    return made


@case("task_id_lookalike")
def _() -> Case:
    ids = [*IDS, "T-004"]
    manifest, records = base(ids)
    return check(manifest, records)


@case("replicate_missing")
def _() -> Case:
    manifest, records = base(replicates=["r1", "r2"])
    return check(manifest, records)


@case("replicate_undeclared")
def _() -> Case:
    manifest, records = base(replicates=["r1", "r2"])
    extra = [dict(r, run_id=run) for run in ("r2", "r3") for r in records]
    return check(manifest, records + extra)


@case("run_not_pinned")
def _() -> Case:
    manifest, records = base()
    return check(manifest, records + [dict(r, run_id="r2") for r in records], "--run-id", "r1")


@case("draft_manifest")
def _() -> Case:
    manifest, records = base()
    manifest["draft"] = ["check the envelope against the run, then delete this list"]
    return check(manifest, records)


@case("placeholder_value")
def _() -> Case:
    manifest, records = base()
    manifest["envelope"]["runner"] = "TODO: the runner"
    return check(manifest, records)


@case("controls_incomplete")
def _() -> Case:
    manifest, records = base(controls=[])
    return check(manifest, records)


@case("control_outside_dataset")
def _() -> Case:
    manifest, records = base()
    manifest["controls"].append({"task_id": "elsewhere-01", "expected": "fail", "role": "negative"})
    return check(manifest, records)


@case("control_missing")
def _() -> Case:
    manifest, records = base()
    return check(manifest, records[1:])


CASES["control_inconclusive"] = one_record(0, outcome="unscoreable", reason="env_flake")
CASES["control_violated"] = one_record(0, outcome="pass")


def control_runs(no_edit: list[dict[str, Any]]) -> Case:
    manifest, records = base(controls=[], control_runs=[
        {"role": "no_edit", "runs": "noedit.jsonl", "max_pass_rate": 0.05},
        {"role": "known_fix", "runs": "gold.jsonl", "min_pass_rate": 0.95}])
    gold = [record(tid, "pass", run_id="gold") for tid in IDS]
    return check(manifest, records, **{"noedit.jsonl": no_edit, "gold.jsonl": gold})


@case("control_run_violated")
def _() -> Case:
    return control_runs([record(tid, "pass" if tid == "t-001" else "fail", run_id="nop") for tid in IDS])


@case("control_run_inconclusive")
def _() -> Case:
    return control_runs([record(tid, "unscoreable" if i < 4 else "fail", "env_flake" if i < 4 else None, run_id="nop")
                         for i, tid in enumerate(IDS)])


@case("attrition_exceeded")
def _() -> Case:
    manifest, records = base()
    for rec in records[2:4]:
        rec.update(outcome="unscoreable", reason="harness_timeout")
    return check(manifest, records)


@case("envelope_exceeded")
def _() -> Case:
    manifest, records = base()
    return check(manifest, [dict(r, wall_clock_s=1200 if r["task_id"] == "t-002" else 60) for r in records])


@case("envelope_incomplete")
def _() -> Case:
    manifest, records = base()
    del manifest["envelope"]["toolchain_sha"]
    return check(manifest, records)


def stratified(declared: dict[str, int], of: dict[str, str]) -> Case:
    manifest, records = base()
    manifest["dataset"]["strata"] = declared
    return check(manifest, [dict(r, stratum=of[r["task_id"]]) for r in records])


@case("strata_do_not_sum")
def _() -> Case:
    return stratified({"easy": 3, "hard": 2}, {tid: "easy" if i < 3 else "hard" for i, tid in enumerate(IDS)})


@case("stratum_count_mismatch")
def _() -> Case:
    return stratified({"easy": 3, "hard": 3}, {tid: "easy" if i < 4 else "hard" for i, tid in enumerate(IDS)})


def carded(change: Callable[[dict[str, Any], list[dict[str, Any]], dict[str, Any]], None],
           ids: list[str] | None = None) -> Case:
    """The base claimed over a card frozen from these tasks (tasks.json, card.json), then `change`d."""
    tasks = [task(tid, span=5 + i) for i, tid in enumerate(ids or IDS)]
    frozen = Path(HERE / "_freeze")
    frozen.mkdir(exist_ok=True)
    (frozen / "tasks.json").write_text(json.dumps(tasks), encoding="utf-8")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = gate.main(["freeze", str(frozen / "tasks.json"), str(frozen / "card.json"), "--min-per-stratum", "1",
                          "--force"])
    assert code == 0, code
    card = json.loads((frozen / "card.json").read_text(encoding="utf-8"))
    shutil.rmtree(frozen)
    manifest, records = base(with_ids=False)
    manifest["dataset"].update(tasks="tasks.json", card="card.json")
    change(manifest, tasks, card)
    return check(manifest, records, **{"tasks.json": tasks, "card.json": card})


@case("card_drift")
def _() -> Case:
    return carded(lambda manifest, tasks, card: tasks[2].update(commit="f" * 40))


@case("card_manifest_mismatch")
def _() -> Case:
    def another(manifest: dict[str, Any], tasks: list[dict[str, Any]], card: dict[str, Any]) -> None:
        manifest["dataset"]["task_ids_sha256"] = ids_digest(["another", "suite"])
    return carded(another)  # the manifest names another suite than its card froze


@case("attempt_budget_mismatch")
def _() -> Case:
    return carded(lambda manifest, tasks, card: manifest.update(attempt_budget=2))


def with_metrics(*metrics: dict[str, Any]) -> Case:
    manifest, records = base()
    manifest["metrics"] = list(metrics)
    return check(manifest, records)


@case("metric_undefined")
def _() -> Case:
    return with_metrics({"name": "solved", "numerator": "outcome == 'pass' and __import__('os')", "denominator": "true",
                         "unit": "tasks"})


@case("headline_denominator_shrunk")
def _() -> Case:
    made = with_metrics({"name": "pass_rate", "numerator": "outcome == 'pass'",
                         "denominator": "outcome != 'unscoreable'", "unit": "tasks", "headline": True})
    made["runs.jsonl"][5].update(outcome="unscoreable", reason="grader_error")
    return made


@case("headline_redefined")
def _() -> Case:
    return with_metrics({"name": "pass_rate", "numerator": "outcome != 'fail'", "denominator": "dataset.task_count",
                         "unit": "tasks", "headline": True})


def claimed(number: str, unscoreable: bool = True) -> Case:
    manifest, records = base()
    if unscoreable:
        records[5].update(outcome="unscoreable", reason="grader_error")  # 3 of 6 pass; 3 of 5 scoreable
    return check(manifest, records, "--claim", number)


@case("claim_is_secondary")
def _() -> Case:
    return claimed("60%")


@case("claim_shrunk_denominator")
def _() -> Case:
    return claimed("75%", unscoreable=False)  # 3 of 6 pass: 75% is 3 of 4, two tasks dropped


@case("claim_unsupported")
def _() -> Case:
    return claimed("80%")


def compared(change: Callable[[dict[str, Any], list[dict[str, Any]]], None]) -> Case:
    manifest, records = base()
    other, other_records = base()
    for rec in other_records:  # another run (a claim compared with itself is refused, exit 2)
        rec["run_id"] = "r2"
    change(other, other_records)
    return {"a.manifest.json": manifest, "a.jsonl": records, "b.manifest.json": other, "b.jsonl": other_records,
            "command": ["compare", "--manifest", "a.manifest.json", "--runs", "a.jsonl", "--against-manifest",
                        "b.manifest.json", "--against-runs", "b.jsonl"]}


@case("envelope_mismatch")
def _() -> Case:
    return compared(lambda manifest, records: manifest["envelope"].update(network="on"))


@case("attempt_contract_mismatch")
def _() -> Case:
    return compared(lambda manifest, records: manifest.update(attempt_budget=2))


def jsonl_sha256(records: list[dict[str, Any]]) -> str:
    """The sha256 of a runs file as write() writes it."""
    return hashlib.sha256("".join(json.dumps(r) + "\n" for r in records).encode("utf-8")).hexdigest()


def imported(manifest: dict[str, Any], records: list[dict[str, Any]], **provenance: Any) -> dict[str, Any]:
    """The manifest as an import binds it to these records: the ledger's sha256 and run, the importer, its
    verdict definition and instrument."""
    manifest["provenance"] = {"importer": "jsonl", "options": {"pass": "resolved == true"},
                              "instrument": {"version": "harness 1.0"},
                              "ledger": {"sha256": jsonl_sha256(records), "run_ids": ["r1"], "path": "runs.jsonl"},
                              "declared_set": "declared", **provenance}
    manifest.setdefault("system", {"agent": "agent-x", "model": "x-mini"})  # an imported claim names its system
    return manifest


def bound_control_runs(claim: dict[str, Any], **changed: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A no-edit and a known-fix run of the six tasks, each entry bound as an import binds it (with `changed`
    in the known-fix entry's provenance); the files, by name."""
    nop = [record(tid, "fail", run_id="nop") for tid in IDS]
    gold = [record(tid, "pass", run_id="gold") for tid in IDS]
    entries = []
    for role, name, bound, ledger in (("no_edit", "noedit.jsonl", ("max_pass_rate", 0.05), nop),
                                      ("known_fix", "gold.jsonl", ("min_pass_rate", 0.95), gold)):
        made = {key: claim["provenance"][key] for key in ("importer", "options", "instrument")}
        made["ledger"] = {"sha256": jsonl_sha256(ledger), "run_ids": [ledger[0]["run_id"]], "path": name}
        if role == "known_fix":
            made.update(changed)
        entries.append({"role": role, "runs": name, bound[0]: bound[1], "provenance": made})
    claim.update(controls=[], control_runs=entries)
    return claim, {"noedit.jsonl": nop, "gold.jsonl": gold}


@case("ledger_not_imported")
def _() -> Case:
    manifest, records = base()
    imported(manifest, records)
    records[3]["outcome"] = "pass"  # t-002, a fail, edited to a pass after the import
    return check(manifest, records)


@case("control_not_bound")
def _() -> Case:
    manifest, records = base()
    claim, files = bound_control_runs(imported(manifest, records), options={"pass": "resolved == false"},
                                      instrument={"version": "harness 0.9"})
    return check(claim, records, **files)


@case("control_is_claim")
def _() -> Case:
    manifest, records = base()
    for rec in records:
        rec["outcome"] = "pass"
    claim, files = bound_control_runs(imported(manifest, records))
    claim["control_runs"][1]["runs"] = "runs.jsonl"  # the known-fix run is the claim's own ledger
    del claim["control_runs"][1]["provenance"], files["gold.jsonl"]
    return check(claim, records, **files)


@case("declared_set_unconfirmed")
def _() -> Case:
    manifest, records = base()
    imported(manifest, records, declared_set="found", declared_from="the 6 task(s) results.jsonl holds, not a "
                                                                     "declared set")
    return check(manifest, records)


@case("system_unnamed")
def _() -> Case:
    manifest, records = base()
    manifest["system"] = {"agent": "agent-x"}  # and no model
    imported(manifest, records, command="python3 gate.py import jsonl results.jsonl --pass 'resolved == true' "
                                        "-o runs.jsonl")
    return check(manifest, records)


# Codes no ledger can raise alone, with the companions each brings and why (written to the folder's `also`)
ALSO: dict[str, tuple[tuple[str, ...], str]] = {
    "never_started": (("dataset_size_mismatch", "ledger_does_not_balance"),
                      "a declared task with no record is one task fewer observed, and one exit fewer"),
    "unexpected_task": (("dataset_size_mismatch", "ledger_does_not_balance"),
                        "a task nobody declared is one task more observed, and one exit more"),
    "control_missing": (("never_started", "dataset_size_mismatch", "ledger_does_not_balance"),
                        "a control task with no record is a declared task with none"),
    "dataset_size_mismatch": (("ledger_does_not_balance",),
                              "another number of tasks is another number of exits (unless an outcome is unknown, "
                              "itself a finding)"),
    "ledger_does_not_balance": (("dataset_size_mismatch",),
                                "exits that do not match the declared count come from tasks that do not, or from "
                                "an unknown outcome (itself a finding)"),
    "unknown_outcome": (("ledger_does_not_balance",), "a task whose outcome is unknown makes no exit"),
    "strata_do_not_sum": (("stratum_count_mismatch",),
                          "strata that do not sum to task_count cannot match the tasks' own strata"),
    "card_manifest_mismatch": (("dataset_digest_mismatch",),
                               "the card's task IDs are the declared ones, so a digest other than the card's is "
                               "not theirs either"),
}


def write(code: str, made: Case, root: Path = HERE) -> None:
    folder = root / code
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    for name, content in made.items():
        if name == "command":
            (folder / "command").write_text(" ".join(content) + "\n", encoding="utf-8")
        elif name.endswith(".jsonl"):
            (folder / name).write_text("".join(json.dumps(r) + "\n" for r in content), encoding="utf-8")
        else:
            (folder / name).write_text(json.dumps(content, indent=2) + "\n", encoding="utf-8")
    if code in ALSO:
        codes, why = ALSO[code]
        (folder / "also").write_text(f"# {why}\n" + "".join(f"{c}\n" for c in codes), encoding="utf-8")


def write_all(root: Path = HERE) -> None:
    """Every example, and `_base`: the ledger they all change, PUBLISHABLE as it is."""
    manifest, records = base()
    write("_base", check(manifest, records), root)
    for code, make in CASES.items():
        write(code, make(), root)


def main() -> int:
    write_all()
    return 0


if __name__ == "__main__":
    sys.exit(main())
