"""Write the files the README's quick starts import: one real run per harness, and for each its two control runs.

    python3 examples/make_quickstarts.py        # from the repository's top; rewrites examples/<harness>/

The runs are real harness files copied from tests/fixtures/ (their origin is in tests/fixtures/SOURCES.md). The
control runs are STAND-INS: no public no-edit or known-fix run of these suites was published, so each is built
from its real run's own file, with only what a no-edit agent (nothing passes) or a known-fix agent (everything
passes) would change: the agent's name, the verdicts, and the run's own summary figures. They show the shape of
the step (`import ... --control no_edit|known_fix`); in your own work, import the runs your harness wrote.
"""

from __future__ import annotations

import copy
import gzip
import json
import shutil
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests" / "fixtures"
OUT = ROOT / "examples"


def dump(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")


def terminal_bench() -> None:
    """droid gpt-5's first leaderboard run (80 tasks, 1 trial each), and a nop and an oracle run of its tasks."""
    home = OUT / "terminal-bench"
    shutil.rmtree(home, ignore_errors=True)
    source = FIX / "terminal-bench" / "leaderboard" / "terminal-bench-core_0.1.1" / "20250924_droid_gpt-5" / "tb_rc2_g5_1"
    run = home / "tb_rc2_g5_1"
    run.mkdir(parents=True)
    for name in ("results.json", "run_metadata.json"):
        (run / name).write_bytes(gzip.decompress((source / f"{name}.gz").read_bytes()))
    results = json.loads((run / "results.json").read_text(encoding="utf-8"))
    meta = json.loads((run / "run_metadata.json").read_text(encoding="utf-8"))
    for agent, resolved in (("nop", False), ("oracle", True)):
        run_id = f"{agent}-run"
        trials = [{"id": f"{agent}-{i:03d}", "trial_name": f"{t['task_id']}.1-of-1.{run_id}", "task_id": t["task_id"],
                   "is_resolved": resolved, "failure_mode": "unset", "parser_results": None,
                   "total_input_tokens": 0, "total_output_tokens": 0}
                  for i, t in enumerate(sorted(results["results"], key=lambda t: t["task_id"]))]
        ids = [t["task_id"] for t in trials]
        dump(home / run_id / "results.json",
             {"id": f"{agent}-results", "results": trials, "pass_at_k": {},
              "n_resolved": len(ids) if resolved else 0, "n_unresolved": 0 if resolved else len(ids),
              "resolved_ids": ids if resolved else [], "unresolved_ids": [] if resolved else ids,
              "accuracy": 1.0 if resolved else 0.0})
        m = dict(meta, run_id=run_id, uuid=f"{agent}-uuid", agent_name=agent, model_name=None, username="stand-in",
                 accuracy=1.0 if resolved else 0.0, agent_kwargs=None)
        dump(home / run_id / "run_metadata.json", m)


def harbor() -> None:
    """The dna-insert--pi job (one trial, reward 1.0), and a nop and an oracle job of the same task."""
    home = OUT / "harbor"
    shutil.rmtree(home, ignore_errors=True)
    source = FIX / "harbor" / "thinharness-20task" / "dna-insert--pi" / "job"
    shutil.copytree(source, home / "dna-insert--pi")
    config = json.loads((source / "config.json").read_text(encoding="utf-8"))
    result = json.loads((source / "result.json").read_text(encoding="utf-8"))
    trial = json.loads((source / "dna-insert__awQcgmQ" / "result.json").read_text(encoding="utf-8"))
    for agent, reward in (("nop", 0.0), ("oracle", 1.0)):
        name = f"dna-insert__{agent}01"
        c = copy.deepcopy(config)
        c["job_name"] = f"{agent}-dna-insert"
        c["agents"] = [{"name": agent, "model_name": None, "n_concurrent": 1, "kwargs": {}}]
        r = copy.deepcopy(result)
        r["id"] = f"{agent}-job"
        ev = r["stats"]["evals"].pop(next(iter(r["stats"]["evals"])))
        ev["metrics"] = [{"mean": reward}]
        ev["reward_stats"] = {"reward": {str(reward): [name]}}
        r["stats"]["evals"][f"{agent}__terminal-bench/terminal-bench-2-1"] = ev
        for key in ("n_input_tokens", "n_cache_tokens", "n_output_tokens"):
            r["stats"][key] = 0
        t = copy.deepcopy(trial)
        t.update(id=f"{agent}-trial", trial_name=name, agent_result=None,
                 agent_info={"name": agent, "version": "stand-in", "model_info": None},
                 verifier_result={"rewards": {"reward": reward}})
        t["trial_uri"] = f"file:///stand-in/{agent}-dna-insert/{name}"
        t["config"]["trial_name"] = name
        t["config"]["agent"].update(name=agent, model_name=None, kwargs={})
        job = home / f"{agent}-job"
        dump(job / "config.json", c)
        dump(job / "result.json", r)
        dump(job / name / "result.json", t)


def swebench() -> None:
    """SWE-bench Verified bash-only entry 0 as an experiments results.json with its 500 ids, and a no-op-patch run
    and a gold validation of those 500 as run reports (swebench 5.x keys)."""
    home = OUT / "swebench"
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    shutil.copyfile(FIX / "swebench" / "experiments-results.json", home / "results.json")
    shutil.copyfile(FIX / "swebench" / "verified-dataset-ids.txt", home / "verified-ids.txt")
    ids = (home / "verified-ids.txt").read_text(encoding="utf-8").split()
    for name, resolved in (("noop.validate-noop.json", False), ("gold.validate-gold.json", True)):
        dump(home / name, {
            "total_instances": len(ids), "submitted_instances": len(ids), "completed_instances": len(ids),
            "resolved_instances": len(ids) if resolved else 0, "unresolved_instances": 0 if resolved else len(ids),
            "empty_patch_instances": 0, "error_instances": 0, "completed_ids": ids, "incomplete_ids": [],
            "empty_patch_ids": [], "submitted_ids": ids, "resolved_ids": ids if resolved else [],
            "unresolved_ids": [] if resolved else ids, "error_ids": [], "schema_version": 2})


def inspect() -> None:
    """tiny-success.json (5 samples x 2 epochs), and a no-edit and a known-fix variant of its task (1 epoch)."""
    home = OUT / "inspect"
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    source = FIX / "inspect" / "tiny-success.json"
    shutil.copyfile(source, home / "tiny-success.json")
    log = json.loads(source.read_text(encoding="utf-8"))
    for task, value in (("tiny_noedit", "I"), ("tiny_knownfix", "C")):
        c = copy.deepcopy(log)
        c["eval"].update(task=task, task_display_name=task, task_registry_name=task, run_id=f"{task}-run",
                         eval_id=f"{task}-eval", task_id=f"{task}-task")
        c["eval"]["config"]["epochs"] = 1
        c["samples"] = [s for s in c["samples"] if s["epoch"] == 1]
        for s in c["samples"]:
            s["scores"]["match"]["value"] = value
        n = len(c["samples"])
        c["results"].update(total_samples=n, completed_samples=n)
        c["results"]["scores"][0]["scored_samples"] = n
        c["results"]["scores"][0]["metrics"]["accuracy"]["value"] = 1.0 if value == "C" else 0.0
        c["results"]["scores"][0]["metrics"]["stderr"]["value"] = 0.0
        dump(home / f"{task}.json", c)


if __name__ == "__main__":
    terminal_bench()
    harbor()
    swebench()
    inspect()
