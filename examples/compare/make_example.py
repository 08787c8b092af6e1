#!/usr/bin/env python3
"""Write the compare example: two runs of one 40-task suite, then the tool's comparison of them.

    python3 examples/compare/make_example.py

writes a.manifest.json, a.jsonl, b.manifest.json, b.jsonl next to this file, then runs

    python3 gate.py compare --manifest examples/compare/a.manifest.json --runs examples/compare/a.jsonl \\
        --against-manifest examples/compare/b.manifest.json --against-runs examples/compare/b.jsonl

as text (compare.txt) and as SVG (compare.svg). Stdlib only and deterministic: every number below is
either written out or derived from a sha256 of the run and task, so the files are byte-identical on
every run.

The story: agent-x-mini was re-run a week later in the same envelope. Run A passes 29/40, run B 30/40.
B fixes four tasks A missed and loses three A passed; the paired analysis says the "improvement" is not
distinguishable: the data fit anything from 17 points worse to 12 points better.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

CONTROLS = [
    {"task_id": "neg-01", "expected": "fail", "role": "negative"},
    {"task_id": "neg-02", "expected": "fail", "role": "negative"},
    {"task_id": "pos-01", "expected": "pass", "role": "positive"},
]
TASKS = ["neg-01", "neg-02", "pos-01"] + [f"t-{i:03d}" for i in range(1, 38)]
ENVELOPE = {
    "runner": "local-docker",
    "network": "off",
    "wall_clock_s_per_task": 900,
    "max_steps": 40,
    "toolchain_sha": "9c1e4b2d7a30f5e8",
}


def stratum(task: str) -> str:
    if task.startswith(("neg-", "pos-")):
        return "repo_edit"
    number = int(task[2:])
    return "repo_edit" if number <= 21 else ("test_write" if number <= 31 else "refactor")


# Everything not listed passes. Controls behave as declared in both runs.
RUNS: dict[str, dict[str, Any]] = {
    "a": {
        "claim_id": "agent-x-mini-2026-10-16",
        "run_id": "agent-x-mini-2026-10-16-r1",
        "fail": ["neg-01", "neg-02", "t-005", "t-011", "t-017", "t-024", "t-029", "t-033"],
        "unscoreable": {"t-013": "harness_timeout", "t-027": "grader_error", "t-035": "harness_timeout"},
    },
    "b": {
        "claim_id": "agent-x-mini-2026-10-23",
        "run_id": "agent-x-mini-2026-10-23-r1",
        # fixed since A: t-005, t-013, t-024, t-033; lost since A: t-008, t-030, t-036
        "fail": ["neg-01", "neg-02", "t-008", "t-011", "t-017", "t-029", "t-030", "t-035"],
        "unscoreable": {"t-027": "grader_error", "t-036": "env_flake"},
    },
}


def unit(*parts: str) -> float:
    """A number in [0, 1) from a sha256 of the parts: deterministic on every platform."""
    digest = hashlib.sha256("/".join(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def attempt_record(side: str, task: str) -> dict[str, Any]:
    run = RUNS[side]
    if task in run["unscoreable"]:
        outcome, reason = "unscoreable", run["unscoreable"][task]
    else:
        outcome, reason = ("fail" if task in run["fail"] else "pass"), None
    if reason == "harness_timeout":
        wall = 900
    elif reason == "grader_error":
        wall = 12 + int(unit(side, task, "wall") * 30)
    else:
        wall = 40 + int(unit(side, task, "wall") * 700)
    input_tokens = 20_000 + int(unit(side, task, "in") * 90_000)
    output_tokens = 1_000 + int(unit(side, task, "out") * 9_000)
    # $3 per million input tokens, $15 per million output tokens
    cost = round(input_tokens * 3e-6 + output_tokens * 15e-6, 4)
    return {
        "run_id": run["run_id"],
        "task_id": task,
        "attempt": 1,
        "outcome": outcome,
        "reason": reason,
        "wall_clock_s": wall,
        "stratum": stratum(task),
        "cost_usd": cost,
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
    }


def manifest(side: str) -> dict[str, Any]:
    ids = sorted(TASKS)
    strata: dict[str, int] = {}
    for task in TASKS:
        strata[stratum(task)] = strata.get(stratum(task), 0) + 1
    return {
        "claim_id": RUNS[side]["claim_id"],
        "dataset": {
            "name": "local-40",
            "task_count": len(ids),
            "task_ids_sha256": hashlib.sha256("\n".join(ids).encode("utf-8")).hexdigest(),
            "strata": strata,
            "task_ids": ids,
        },
        "metrics": [
            {"name": "pass_rate", "numerator": "outcome == 'pass'", "denominator": "dataset.task_count", "unit": "tasks"},
            {"name": "unscoreable_rate", "numerator": "outcome == 'unscoreable'", "denominator": "dataset.task_count",
             "unit": "tasks"},
            {"name": "repo_edit_pass_rate", "numerator": "outcome == 'pass'", "denominator": "stratum == 'repo_edit'",
             "unit": "tasks"},
        ],
        "controls": CONTROLS,
        "system": {"agent": "agent-x-mini", "version": RUNS[side]["claim_id"].removeprefix("agent-x-mini-")},
        "envelope": ENVELOPE,
        "attempt_budget": 1,
        "rerun_recipe": f"python3 gate.py --manifest examples/compare/{side}.manifest.json --runs examples/compare/{side}.jsonl",
    }


def write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {path.relative_to(ROOT)}")


def main() -> int:
    for side in RUNS:
        write(HERE / f"{side}.manifest.json", json.dumps(manifest(side), indent=2) + "\n")
        lines = [json.dumps(attempt_record(side, task), separators=(",", ":")) for task in TASKS]
        write(HERE / f"{side}.jsonl", "\n".join(lines) + "\n")
    command = [sys.executable, "gate.py", "compare",
               "--manifest", "examples/compare/a.manifest.json", "--runs", "examples/compare/a.jsonl",
               "--against-manifest", "examples/compare/b.manifest.json", "--against-runs", "examples/compare/b.jsonl"]
    for fmt, name in (("text", "compare.txt"), ("svg", "compare.svg")):
        done = subprocess.run([*command, "--format", fmt], cwd=ROOT, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            sys.stderr.write(done.stdout + done.stderr)
            return 1
        write(HERE / name, done.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
