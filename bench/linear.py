#!/usr/bin/env python3
"""Linear shapes: inputs whose cost once grew with the square of their size, each timed at n and 10n in one run.

A linear pass takes about 10x as long at 10n; a pass per column, per id or per instance (a scan of the whole input
for each item) about 100x. Each shape's ratio (median at 10n / median at n, the two sizes interleaved in the same
rounds) is reported against a target of at most 40x. The unit tests asserted this with a wall clock once; a loaded
machine (a CI runner) made them fail, so the timing lives here and the tests check only what the gate says.

  csv-columns      `import csv` of a file of n columns whose last repeats the sixth (exit 2, naming both)
  manifest-ids     `check` against a manifest listing n task ids, one of them twice (exit 2, naming it)
  swebench-report  `import swebench` of a run report of n instances (exit 0)
  swebench-ids     `import swebench` of a results.json with --dataset-ids naming n instances (exit 0)

Usage:
  python3 bench/linear.py                   # n ten times the unit tests' (60,010 columns, 30,000 ids, 20,000 instances)
  python3 bench/linear.py --scale 1 --repeat 5

Exit codes: 0 done (targets reported, never enforced), 1 a case did not exit as expected, 2 usage error.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

GATE = Path(__file__).resolve().parent.parent / "gate.py"
TARGET = 40.0  # linear work gives about 10, a scan per item about 100
CONTROLS = [{"task_id": "neg-01", "expected": "fail", "role": "negative"},
            {"task_id": "pos-01", "expected": "pass", "role": "positive"}]


def csv_columns(folder: Path, n: int) -> tuple[list[str], int]:
    names = [f"c{i}" for i in range(n)] + ["c5"]
    path = folder / f"wide{n}.csv"
    path.write_text(",".join(names) + "\n" + ",".join("1" for _ in names) + "\n", encoding="utf-8")
    return ["import", "csv", str(path), "--task-id", "c0", "--pass", "c1 == 1"], 2


def manifest_ids(folder: Path, n: int) -> tuple[list[str], int]:
    ids = [f"t-{i:07d}" for i in range(n)]
    manifest = {"claim_id": "linear", "dataset": {"name": "linear", "task_count": n + 1, "task_ids_sha256": "0" * 64,
                                                  "task_ids": [*ids, ids[n // 2]]},
                "controls": CONTROLS, "envelope": {"runner": "bench", "network": "off"},
                "rerun_recipe": "python3 gate.py --manifest m.json --runs r.jsonl"}
    m, r = folder / f"ids{n}.manifest.json", folder / f"ids{n}.runs.jsonl"
    m.write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    r.write_text('{"run_id": "r1", "task_id": "neg-01", "attempt": 1, "outcome": "fail", "reason": null}\n',
                 encoding="utf-8")
    return ["--manifest", str(m), "--runs", str(r)], 2


def swebench_report(folder: Path, n: int) -> tuple[list[str], int]:
    ids = [f"repo__repo-{i}" for i in range(n)]
    path = folder / f"report{n}.json"
    path.write_text(json.dumps({"schema_version": 2, "total_instances": n, "resolved_ids": ids[:n * 3 // 10],
                                "unresolved_ids": ids[n * 3 // 10:], "error_ids": [], "empty_patch_ids": [],
                                "incomplete_ids": []}), encoding="utf-8")
    return ["import", "swebench", str(path)], 0


def swebench_ids(folder: Path, n: int) -> tuple[list[str], int]:
    ids = [f"repo__repo-{i}" for i in range(n)]
    results = folder / f"results{n}" / "results.json"
    results.parent.mkdir()
    results.write_text(json.dumps({"resolved": ids[:n * 35 // 100], "no_logs": ids[n * 35 // 100:n * 36 // 100]}),
                       encoding="utf-8")
    listed = folder / f"ids{n}.txt"
    listed.write_text("\n".join(ids) + "\n", encoding="utf-8")
    return ["import", "swebench", str(results), "--dataset-ids", str(listed)], 0


SHAPES: dict[str, tuple[Callable[[Path, int], tuple[list[str], int]], int]] = {
    "csv-columns": (csv_columns, 6_001),
    "manifest-ids": (manifest_ids, 3_000),
    "swebench-report": (swebench_report, 2_000),
    "swebench-ids": (swebench_ids, 2_000),
}


def timed(argv: list[str], expected: int) -> float:
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, str(GATE), *argv], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    elapsed = time.perf_counter() - started
    if proc.returncode != expected:
        raise RuntimeError(f"exit {proc.returncode}, not {expected}: {' '.join(argv[:3])}\n{proc.stderr[-500:]}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="linear.py", description=__doc__.split("\n\n", 1)[0] if __doc__ else None)
    parser.add_argument("--scale", type=int, default=10, help="multiply every n by this (default 10: the work, not the start-up, dominates)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs of each size (default 3)")
    args = parser.parse_args(argv)
    if args.scale < 1 or args.repeat < 1:
        parser.error("--scale and --repeat must be at least 1")
    lines = ["| shape | n | s at n | s at 10n | ratio | target |", "|---|---:|---:|---:|---:|---|"]
    with tempfile.TemporaryDirectory(prefix="benchgate-linear-") as tmp:
        for name, (write, base) in SHAPES.items():
            n = base * args.scale
            small, big = (write(Path(tmp), size) for size in (n, 10 * n))
            times: tuple[list[float], list[float]] = ([], [])
            try:
                for _ in range(args.repeat):  # interleaved, so drift in the machine hits both sizes alike
                    for runs, (command, expected) in zip(times, (small, big)):
                        runs.append(timed(command, expected))
            except RuntimeError as exc:
                print(f"linear: {name}: {exc}", file=sys.stderr)
                return 1
            low, high = statistics.median(times[0]), statistics.median(times[1])
            ratio = high / low
            lines.append(f"| {name} | {n:,} | {low:.3f} | {high:.3f} | {ratio:.1f}x | <= {TARGET:g}x: "
                         f"{'met' if ratio <= TARGET else 'NOT met'} |")
    print("\n".join(lines))
    print(f"Medians of {args.repeat} interleaved run(s) of each size; gate: {GATE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
