#!/usr/bin/env python3
"""Check published SWE-bench leaderboard percentages against their own per-instance results.

    python3 examples/swebench_claims.py LEADERBOARD.json all|INDEX[,INDEX...] [--out DIR]

LEADERBOARD.json is a leaderboard dump of the form
    {"source": ..., "note": ..., "instance_count": 500,
     "entries": [{"name": ..., "published_percent": 64.93, "date": ...,
                  "instances": {"<instance_id>": true | false, ...}}, ...]}
(for example SWE-bench Verified "bash-only", reduced from swe-bench.github.io data/leaderboards.json).

For each chosen entry this writes, under DIR (default: a new folder under /tmp):
    dataset-ids.txt             every instance ID of the split, shared by all entries
    NN-<slug>/results.json      the entry in SWE-bench/experiments form: {"resolved": [...], ...}
    NN-<slug>/runs.jsonl        from `gate.py import swebench results.json --dataset-ids ... -o runs.jsonl`
    NN-<slug>/manifest.json     the importer's draft manifest, completed here (controls, name, system, recipe)
then runs `gate.py check --manifest manifest.json --runs runs.jsonl --claim <published_percent>%` and
prints one line per entry: the published number, the headline the per-instance data supports, and the
claim check's finding.

Controls: a leaderboard dump has no control tasks, so this script takes the first resolved instance
(sorted by ID) as the positive control and the first unresolved one as the negative control. That
only satisfies the gate's bookkeeping; a real run would add dedicated control tasks (a known fix that
must pass, an untouched repository that must fail).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

GATE = Path(__file__).resolve().parent.parent / "gate.py"


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:48] or "entry"


def choose(entries: list[dict[str, Any]], selection: str) -> list[int]:
    if selection == "all":
        return list(range(len(entries)))
    chosen = []
    for part in selection.split(","):
        index = int(part)
        if not 0 <= index < len(entries):
            raise SystemExit(f"swebench_claims: index {index} out of range 0..{len(entries) - 1}")
        chosen.append(index)
    return chosen


def gate(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`python3 gate.py ARGS` run in `cwd`, as gate.py's main in this process: the same exit code and output,
    without compiling the 10,000-line file again for every call (its cached bytecode is used)."""
    sys.path.insert(0, str(GATE.parent))
    try:
        import gate as benchgate
    finally:
        sys.path.remove(str(GATE.parent))
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = benchgate.main(list(args))
    finally:
        os.chdir(here)
    return subprocess.CompletedProcess([str(GATE), *args], code, out.getvalue(), err.getvalue())


def claim_text(percent: float) -> str:
    """The published number as the leaderboard writes it (64.93 -> '64.93%', 66.0 -> '66.0%')."""
    return f"{percent!r}%"


def run_entry(index: int, entry: dict[str, Any], ids_file: Path, out: Path) -> dict[str, Any]:
    folder = out / f"{index:02d}-{slug(entry['name'])}"
    folder.mkdir(parents=True, exist_ok=True)
    instances: dict[str, bool] = entry["instances"]
    resolved = sorted(i for i, ok in instances.items() if ok is True)
    unresolved = sorted(i for i, ok in instances.items() if ok is not True)
    results = {"resolved": resolved, "no_generation": [], "no_logs": []}
    (folder / "results.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")

    done = gate("import", "swebench", "results.json", "--dataset-ids", str(ids_file), "-o", "runs.jsonl",
                "--draft-manifest", "manifest.json", "--force", cwd=folder)
    if done.returncode != 0:
        raise SystemExit(f"swebench_claims: import failed for {entry['name']!r}: {done.stderr.strip()}")

    manifest_path = folder / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    positive, negative = resolved[0], unresolved[0]
    manifest["claim_id"] = f"swebench-verified-bash-only-{slug(entry['name'])}"
    manifest["dataset"]["name"] = "SWE-bench Verified (500 instances)"
    manifest["system"] = {"agent": "mini-SWE-agent (bash only)", "model": entry["name"]}
    manifest["controls"] = [
        {"task_id": negative, "expected": "fail", "role": "negative"},
        {"task_id": positive, "expected": "pass", "role": "positive"},
    ]
    manifest["envelope"].update(
        runner="mini-SWE-agent, bash only (leaderboard submission)",
        network="as the leaderboard ran it (not recorded in the per-instance data)",
        wall_clock_s_per_task=3600,
        toolchain_sha="swebench-verified-bash-only-leaderboard",
    )
    manifest["rerun_recipe"] = f"python3 {GATE.name} --manifest manifest.json --runs runs.jsonl"
    del manifest["draft"]
    manifest["notes"] = [
        f"controls stand in for dedicated control tasks: {positive} (resolved) as positive, "
        f"{negative} (unresolved) as negative, chosen by examples/swebench_claims.py",
        "the envelope's network, wall clock and toolchain are stand-ins: the leaderboard data does not record them",
    ]
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")

    claim = claim_text(entry["published_percent"])
    done = gate("check", "--manifest", "manifest.json", "--runs", "runs.jsonl", "--format", "json", "--claim", claim,
                cwd=folder)
    if done.returncode not in (0, 1):
        raise SystemExit(f"swebench_claims: check failed for {entry['name']!r}: {done.stderr.strip()}")
    report = json.loads(done.stdout)
    codes = [f["code"] for f in report["findings"]]
    claim_codes = [c for c in codes if c.startswith("claim_")]
    return {
        "index": index,
        "name": entry["name"],
        "published": claim,
        "k": report["headline"]["k"],
        "n": report["headline"]["n"],
        "rate": report["headline"]["rate"],
        "finding": claim_codes[0] if claim_codes else ("matches" if report["claim"]["matches"] else "?"),
        "other": [c for c in codes if not c.startswith("claim_")],
        "message": report["claim"]["message"],
        "controls": (positive, negative),
        "folder": folder,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("leaderboard", type=Path, help="leaderboard dump (JSON)")
    parser.add_argument("entries", help="'all' or comma-separated entry indices, e.g. 7,18,23,0,2")
    parser.add_argument("--out", type=Path, help="output folder (default: a new folder under /tmp)")
    parser.add_argument("--verbose", action="store_true", help="also print each claim check's message")
    args = parser.parse_args(argv)

    data = json.loads(args.leaderboard.read_text(encoding="utf-8"))
    entries: list[dict[str, Any]] = data["entries"]
    ids = sorted(set().union(*(e["instances"] for e in entries)))
    declared = data.get("instance_count")
    if declared is not None and declared != len(ids):
        raise SystemExit(f"swebench_claims: {len(ids)} instance IDs in the entries, instance_count says {declared}")
    out = args.out if args.out is not None else Path(tempfile.mkdtemp(prefix="swebench_claims."))
    out.mkdir(parents=True, exist_ok=True)
    shown, out = out, out.resolve()  # the gate runs in each entry's folder: give it absolute paths
    ids_file = out / "dataset-ids.txt"
    ids_file.write_text("".join(f"{i}\n" for i in ids), encoding="utf-8")

    print(f"source: {data.get('source', args.leaderboard)}")
    print(f"output: {shown}")
    print("controls: the first resolved instance stands in as the positive control and the first unresolved "
          "one as the negative control (a real run would use dedicated control tasks)")
    print()
    header = f"{'#':>2}  {'entry':<44} {'published':>9}  {'headline':>9} {'= %':>7}  claim check"
    print(header)
    print("-" * len(header))
    for index in choose(entries, args.entries):
        row = run_entry(index, entries[index], ids_file, out)
        extra = f"  (also: {', '.join(row['other'])})" if row["other"] else ""
        print(f"{row['index']:>2}  {row['name'][:44]:<44} {row['published']:>9}  {row['k']:>5}/{row['n']:<3} "
              f"{row['rate'] * 100:>6.2f}%  {row['finding']}{extra}")
        if args.verbose:
            print(f"{'':>4}{row['message']}")
            print(f"{'':>4}controls: positive {row['controls'][0]}, negative {row['controls'][1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
