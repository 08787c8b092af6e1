"""Shared helpers for the tests: build ledgers in a temporary folder and run gate.main in-process."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import gate  # noqa: E402


def ids_digest(ids: list[str]) -> str:
    """Independent of gate.ids_digest on purpose: the seed's definition, written out again."""
    return hashlib.sha256("\n".join(sorted(set(ids))).encode("utf-8")).hexdigest()


def record(task_id: str, outcome: str, reason: str | None = None, attempt: int = 1, run_id: str = "r1",
           **extra: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {"run_id": run_id, "task_id": task_id, "attempt": attempt, "outcome": outcome,
                           "reason": reason}
    rec.update(extra)
    return rec


def valid_ledger(passes: int = 29, fails: int = 8, unscoreable: tuple[str, ...] = ("harness_timeout", "harness_timeout", "grader_error"),
                 with_ids: bool = True) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A PUBLISHABLE manifest and records: neg-01 fails, pos-01 passes, the rest as asked.

    The counts include the controls: passes >= 1 and fails >= 1.
    """
    records = [record("neg-01", "fail"), record("pos-01", "pass")]
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
    ids = [r["task_id"] for r in records]
    manifest: dict[str, Any] = {
        "claim_id": "test-claim",
        "dataset": {"name": "test-suite", "task_count": len(ids), "task_ids_sha256": ids_digest(ids)},
        "controls": [
            {"task_id": "neg-01", "expected": "fail", "role": "negative"},
            {"task_id": "pos-01", "expected": "pass", "role": "positive"},
        ],
        "envelope": {"runner": "test", "network": "off", "wall_clock_s_per_task": 900},
        "rerun_recipe": "python3 gate.py --manifest m.json --runs r.jsonl",
    }
    if with_ids:
        manifest["dataset"]["task_ids"] = sorted(ids)
    return manifest, records


class GateCase(unittest.TestCase):
    """A test case with a private temporary folder and helpers to write inputs and run the gate."""

    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self._tmp.name)

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def write_json(self, name: str, value: Any) -> Path:
        path = self.dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")
        return path

    def write_jsonl(self, name: str, records: list[Any]) -> Path:
        path = self.dir / name
        path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        return path

    def write_text(self, name: str, text: str | bytes) -> Path:
        path = self.dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    def run_gate(self, *argv: str) -> tuple[int, str, str]:
        """gate.main in-process: (exit code, stdout, stderr)."""
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = gate.main(list(argv))
        return code, out.getvalue(), err.getvalue()

    def check(self, manifest: dict[str, Any], records: list[Any], *extra: str) -> tuple[int, str, str]:
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_jsonl("runs.jsonl", records)
        return self.run_gate("--manifest", str(m), "--runs", str(r), *extra)

    def check_json(self, manifest: dict[str, Any], records: list[Any], *extra: str) -> tuple[int, dict[str, Any]]:
        code, out, err = self.check(manifest, records, "--format", "json", *extra)
        self.assertIn(code, (0, 1), err)
        return code, json.loads(out)

    def codes(self, manifest: dict[str, Any], records: list[Any], *extra: str) -> list[str]:
        _, report = self.check_json(manifest, records, *extra)
        return [f["code"] for f in report["findings"]]

    def assertInputError(self, result: tuple[int, str, str], *fragments: str) -> None:
        code, out, err = result
        self.assertEqual(code, 2, f"expected exit 2, got {code}; stdout={out!r} stderr={err!r}")
        self.assertNotIn("Traceback", err)
        self.assertEqual(len(err.strip().splitlines()), 1, f"expected one line on stderr, got {err!r}")
        self.assertTrue(err.startswith("gate: error: "), err)
        for fragment in fragments:
            self.assertIn(fragment, err)


def run_cli(*argv: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The real command line, as a subprocess."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    return subprocess.run([sys.executable, str(ROOT / "gate.py"), *argv], cwd=cwd or ROOT, env=full_env,
                          capture_output=True, text=True, timeout=120, check=False)
