#!/usr/bin/env python3
"""Write the samples-mode compare example: two runs of one 40-task suite, 5 samples a task, then compare them.

    python3 examples/compare-samples/make_example.py

writes a.manifest.json, a.jsonl, b.manifest.json, b.jsonl next to this file and compare.txt, the output of

    python3 gate.py compare --manifest examples/compare-samples/a.manifest.json --runs examples/compare-samples/a.jsonl \\
        --against-manifest examples/compare-samples/b.manifest.json --against-runs examples/compare-samples/b.jsonl

The story: B passes a few more samples than A (pass@1 0.515 against 0.470), but A's passes tend to come on a task's
first sample and B's on its later ones. A comparison that looks only at each task's first sample sees A far ahead;
the paired analysis over every sample sees B slightly ahead, and cannot tell them apart. Deterministic: the counts
and the order of the samples are written out below.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
# passes of 5 samples, task by task (t-00 the positive control, t-39 the negative one)
A = [5, 4, 3, 3, 2, 0, 3, 4, 3, 0, 3, 2, 5, 2, 2, 0, 1, 4, 3, 2, 5, 2, 2, 3, 2, 0, 3, 4, 2, 0, 3, 2, 4, 2, 1, 0, 1, 4, 3, 0]
B = [5, 4, 3, 2, 3, 0, 2, 5, 2, 1, 4, 2, 5, 2, 2, 0, 2, 4, 3, 3, 5, 3, 2, 2, 3, 1, 2, 4, 2, 0, 4, 2, 4, 3, 1, 1, 2, 4, 4, 0]
ENVELOPE = {"runner": "agent-harness 2.3 in docker", "network": "off", "wall_clock_s_per_task": 900,
            "toolchain_sha": "8d1f0c2e", "max_steps": 50}


def write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}")


def main() -> int:
    ids = [f"t-{i:02d}" for i in range(len(A))]
    digest = hashlib.sha256("\n".join(ids).encode("utf-8")).hexdigest()
    for side, counts, early in (("a", A, True), ("b", B, False)):
        manifest = {
            "claim_id": f"agent-y-{side}", "dataset": {"name": "repo-fix-40", "task_count": len(ids), "task_ids_sha256": digest},
            "controls": [{"task_id": "t-39", "expected": "fail", "role": "negative"},
                         {"task_id": "t-00", "expected": "pass", "role": "positive"}],
            "system": {"agent": "agent-y", "variant": side.upper()},
            "envelope": ENVELOPE, "attempt_mode": "samples", "attempt_budget": 5,
            "rerun_recipe": f"python3 gate.py --manifest examples/compare-samples/{side}.manifest.json "
                            f"--runs examples/compare-samples/{side}.jsonl",
        }
        write(HERE / f"{side}.manifest.json", json.dumps(manifest, indent=2) + "\n")
        lines = []
        for tid, c in zip(ids, counts):
            outcomes = ["pass"] * c + ["fail"] * (5 - c)
            if not early:
                outcomes.reverse()
            lines += [json.dumps({"run_id": f"agent-y-{side}", "task_id": tid, "attempt": n, "outcome": o, "reason": None})
                      for n, o in enumerate(outcomes, 1)]
        write(HERE / f"{side}.jsonl", "".join(line + "\n" for line in lines))
    argv = [sys.executable, "gate.py", "compare", "--manifest", "examples/compare-samples/a.manifest.json",
            "--runs", "examples/compare-samples/a.jsonl", "--against-manifest", "examples/compare-samples/b.manifest.json",
            "--against-runs", "examples/compare-samples/b.jsonl"]
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"make_example: compare exited {done.returncode}: {done.stderr.strip()}{done.stdout}")
    write(HERE / "compare.txt", done.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
