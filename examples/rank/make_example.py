#!/usr/bin/env python3
"""Write the rank example: the 25 SWE-bench Verified "bash-only" leaderboard entries as 25 ledgers, then rank them.

    python3 examples/rank/make_example.py

verified-bash-only.json (next to this file) is the leaderboard's own per-instance data: every entry ran
the same 500 instances with the same agent scaffold (mini-SWE-agent, bash only), reduced from
SWE-bench/swe-bench.github.io data/leaderboards.json to resolved true/false. For each entry this
writes systems/NN-<slug>.manifest.json and systems/NN-<slug>.jsonl (one record per instance: resolved
is a pass, anything else a fail; the instance's repository as its cluster), lists them in
systems.json, then runs

    python3 gate.py rank --list examples/rank/systems.json

as text (rank.txt), Markdown (rank.md) and SVG (rank.svg). Stdlib only and deterministic.

Controls: the leaderboard has no control tasks, so each entry's first resolved instance (by ID) stands
in as its positive control and its first unresolved one as its negative control. That satisfies the
gate's bookkeeping only; a real evaluation adds dedicated control tasks.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
ENVELOPE = {
    "runner": "mini-SWE-agent, bash only (leaderboard submission)",
    "network": "as the leaderboard ran it (not recorded in the per-instance data)",
    "wall_clock_s_per_task": 3600,
    "toolchain_sha": "swebench-verified-bash-only-leaderboard",
}


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:48]


def repository(instance: str) -> str:
    """django__django-11099 -> django__django: SWE-bench instance IDs are <owner>__<repo>-<number>."""
    return instance.rsplit("-", 1)[0]


def write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}")


def main() -> int:
    data = json.loads((HERE / "verified-bash-only.json").read_text(encoding="utf-8"))
    entries = data["entries"]
    ids = sorted(entries[0]["instances"])
    if any(sorted(e["instances"]) != ids for e in entries) or len(ids) != data["instance_count"]:
        raise SystemExit("make_example: the entries do not share one instance set")
    digest = hashlib.sha256("\n".join(ids).encode("utf-8")).hexdigest()
    folder = HERE / "systems"
    folder.mkdir(exist_ok=True)
    listed = []
    for number, entry in enumerate(entries, 1):
        name = f"{number:02d}-{slug(entry['name'])}"
        passed = {i for i, ok in entry["instances"].items() if ok is True}
        positive, negative = min(passed), min(set(ids) - passed)
        manifest = {
            "claim_id": slug(entry["name"]),
            "dataset": {"name": "SWE-bench Verified (500 instances)", "task_count": len(ids), "task_ids_sha256": digest},
            "controls": [{"task_id": negative, "expected": "fail", "role": "negative"},
                         {"task_id": positive, "expected": "pass", "role": "positive"}],
            "system": {"name": entry["name"]},
            "envelope": ENVELOPE,
            "rerun_recipe": "python3 gate.py rank --list examples/rank/systems.json",
            "notes": [f"{entry['name']}, published {entry['published_percent']}% on {entry['date']}",
                      "controls stand in for dedicated control tasks (see examples/rank/make_example.py)",
                      "the envelope's network, wall clock and toolchain are stand-ins: the leaderboard does not record them"],
        }
        write(folder / f"{name}.manifest.json", json.dumps(manifest, indent=2) + "\n")
        records = "".join(json.dumps({"run_id": slug(entry["name"]), "task_id": i, "attempt": 1,
                                      "outcome": "pass" if i in passed else "fail", "reason": None,
                                      "cluster": repository(i)}, separators=(",", ":")) + "\n" for i in ids)
        write(folder / f"{name}.jsonl", records)
        listed.append({"manifest": f"systems/{name}.manifest.json", "runs": f"systems/{name}.jsonl"})
    write(HERE / "systems.json", json.dumps(listed, indent=1) + "\n")
    for fmt, out in (("text", "rank.txt"), ("markdown", "rank.md"), ("svg", "rank.svg")):
        done = subprocess.run([sys.executable, "gate.py", "rank", "--list", "examples/rank/systems.json", "--format", fmt],
                              cwd=ROOT, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"make_example: rank exited {done.returncode}: {done.stderr.strip()}")
        write(HERE / out, done.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
