#!/usr/bin/env python3
"""Write the benchmark-card example: tasks.json, the runs files and the manifest (stdlib, deterministic).

The card itself is not written here: it comes from `gate.py freeze`, as it would in a real project:

    python3 examples/card/make_example.py
    python3 gate.py freeze examples/card/tasks.json examples/card/card.json
    python3 gate.py verify examples/card/tasks.json examples/card/card.json
    python3 gate.py --manifest examples/card/bench.manifest.json --runs examples/card/runs.jsonl
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 20261016
RUN_ID = "agent-x-mini-2026-10-16"

# (repo, license, language): real projects under licenses the inclusion rule admits.
REPOS = {
    "python": [
        ("pallets/flask", "bsd-3-clause"),
        ("pallets/click", "bsd-3-clause"),
        ("psf/requests", "apache-2.0"),
        ("encode/httpx", "bsd-3-clause"),
        ("pydantic/pydantic", "mit"),
        ("pytest-dev/pytest", "mit"),
        ("fastapi/fastapi", "mit"),
    ],
    "typescript": [
        ("colinhacks/zod", "mit"),
        ("vitejs/vite", "mit"),
        ("date-fns/date-fns", "mit"),
        ("microsoft/TypeScript", "apache-2.0"),
        ("prettier/prettier", "mit"),
    ],
    "go": [
        ("spf13/cobra", "apache-2.0"),
        ("gin-gonic/gin", "mit"),
        ("sirupsen/logrus", "mit"),
        ("urfave/cli", "mit"),
    ],
}
TEST_PATH = {"python": "tests/test_{n}.py::test_{n}_regression", "typescript": "test/{n}.test.ts",
             "go": "{n}_test.go:TestRegression"}
# Stratum sizes (language, narrow count, wide count): every stratum is at or above the floor of 5.
PLAN = [("python", 12, 8), ("typescript", 8, 6), ("go", 6, 0)]

# The seed's minimal task file: one task, which must fail freeze at the stratum floor.
SEED_MIN = [{
    "task_id": "demo-1",
    "repo": "example/widgets",
    "commit": "abc123",
    "language": "python",
    "edit_span": 12,
    "license": "mit",
    "has_failing_test": True,
}]


def make_tasks(rng: random.Random) -> list[dict]:
    tasks = []
    for language, narrow, wide in PLAN:
        spans = [rng.randint(2, 30) for _ in range(narrow)] + [rng.randint(31, 180) for _ in range(wide)]
        for index, span in enumerate(spans, 1):
            repo, license_name = rng.choice(REPOS[language])
            short = repo.split("/")[1].lower()
            tasks.append({
                "task_id": f"{short}-{language[:2]}-{index:03d}",
                "repo": repo,
                "commit": f"{rng.getrandbits(160):040x}",
                "language": language,
                "edit_span": span,
                "license": license_name,
                "has_failing_test": True,
                "failing_test": TEST_PATH[language].format(n=short.replace("-", "_")),
            })
    ids = [t["task_id"] for t in tasks]
    assert len(set(ids)) == len(ids), "task IDs must be unique"
    return tasks


def make_runs(rng: random.Random, tasks: list[dict]) -> list[dict]:
    """One attempt per task: a realistic mix of pass, fail and unscoreable with reason classes."""
    unscoreable = {"harness_timeout": 2, "env_flake": 1, "grader_error": 1}
    order = list(range(len(tasks)))
    rng.shuffle(order)
    reasons: dict[int, str] = {}
    for reason_class, count in unscoreable.items():
        for _ in range(count):
            reasons[order.pop()] = reason_class
    records = []
    for index, task in enumerate(tasks):
        wide = task["edit_span"] > 30
        reason: str | None = reasons.get(index)
        if reason is not None:
            outcome = "unscoreable"
        else:
            outcome = "pass" if rng.random() < (0.45 if wide else 0.7) else "fail"
        wall = 900 if reason == "harness_timeout" else rng.randint(40, 780)
        records.append({
            "run_id": RUN_ID, "task_id": task["task_id"], "attempt": 1, "outcome": outcome, "reason": reason,
            "wall_clock_s": wall, "cost_usd": round(rng.uniform(0.05, 0.9), 4),
            "input_tokens": rng.randint(8000, 120000), "output_tokens": rng.randint(500, 9000),
        })
    return records


def control_runs(tasks: list[dict]) -> tuple[list[dict], list[dict]]:
    noedit = [{"run_id": "no-edit-2026-10-16", "task_id": t["task_id"], "attempt": 1, "outcome": "fail", "reason": None}
              for t in tasks]
    gold = [{"run_id": "known-fix-2026-10-16", "task_id": t["task_id"], "attempt": 1, "outcome": "pass", "reason": None}
            for t in tasks]
    return noedit, gold


def manifest(tasks: list[dict]) -> dict:
    ids = sorted({t["task_id"] for t in tasks})
    return {
        "claim_id": RUN_ID,
        "dataset": {
            "name": "card-slice-40",
            "task_count": len(tasks),
            "task_ids_sha256": hashlib.sha256("\n".join(ids).encode("utf-8")).hexdigest(),
            "tasks": "tasks.json",
            "card": "card.json",
        },
        "controls": [],
        "control_runs": [
            {"role": "no_edit", "runs": "noedit.jsonl", "max_pass_rate": 0.05},
            {"role": "known_fix", "runs": "gold.jsonl", "min_pass_rate": 0.95},
        ],
        "envelope": {"runner": "local-docker", "network": "off", "wall_clock_s_per_task": 900, "max_steps": 40,
                     "toolchain_sha": "9c1e4b2d7a30f5e8"},
        "attempt_budget": 1,
        "rerun_recipe": ("python3 gate.py verify examples/card/tasks.json examples/card/card.json && "
                         "python3 gate.py --manifest examples/card/bench.manifest.json --runs examples/card/runs.jsonl"),
    }


def write_json(name: str, value: object) -> None:
    (HERE / name).write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")


def write_jsonl(name: str, records: list[dict]) -> None:
    (HERE / name).write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records), encoding="utf-8")


def main() -> None:
    rng = random.Random(SEED)
    tasks = make_tasks(rng)
    runs = make_runs(rng, tasks)
    noedit, gold = control_runs(tasks)
    write_json("tasks.json", tasks)
    write_json("tasks.min.json", SEED_MIN)
    write_jsonl("runs.jsonl", runs)
    write_jsonl("noedit.jsonl", noedit)
    write_jsonl("gold.jsonl", gold)
    write_json("bench.manifest.json", manifest(tasks))
    print(f"wrote {len(tasks)} tasks, {len(runs)} attempt records and two control runs to {HERE}")


if __name__ == "__main__":
    main()
