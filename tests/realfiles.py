"""The real harness files copied into tests/fixtures/ (SOURCES.md, "Real files for the import tests"), and
what the import tests do with them: unpack the gzip-stored ones, import with notes kept, complete the draft
as a user would, read the gated headline from `check`, and the gate's headline rule written again from the
records (an oracle that does not call gate.py).

The figures each file states about itself are read from the file by the test, never typed in from memory,
except where a test pins a published figure (the leaderboard's 0.525 and 0.4125) against them.
"""

from __future__ import annotations

import gzip
import json
import shutil
from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple

from tests.builders import fill_draft
from tests.support import FIXTURES, INS_OK, ImportCase, load

TB_BOARD = FIXTURES / "terminal-bench" / "leaderboard" / "terminal-bench-core_0.1.1"
DROID = "20250924_droid_gpt-5"
OPENHANDS = "20250711_openhands_claude-4-sonnet"
TB_ORCHESTRATOR = FIXTURES / "terminal-bench" / "orchestrator"
HARBOR = FIXTURES / "harbor"
TH20 = HARBOR / "thinharness-20task"
TH = HARBOR / "thinharness"
SWE_WILD = FIXTURES / "swebench" / "harness-reports"
VTM = SWE_WILD / "VTM-for-Recursive-Coding-Agents__vtm" / "gold.validate-gold.json"
RUST_BENCH = SWE_WILD / "riverLaugh__Rust-bench" / "gold.validate-gold.json"
JAVA = FIXTURES / "swebench" / "swe-bench-java"
JAVA_INDEX = JAVA / "index.json"
JAVA_DEEPSEEK = JAVA / "20240825_SWE-agent_deepseek-coder-v2" / "results" / "results.json"
JAVA_GPT4O = JAVA / "20240825_SWE-agent_gpt-4o-2024-05-13" / "results" / "results.json"
SWE_LOGS_HOME = FIXTURES / "swebench" / "instance-logs"
SWE_LOGS = SWE_LOGS_HOME / "logs" / "run_evaluation" / "synthetic-run" / "synthetic-model"
SWE_LOGS_SUMMARY = SWE_LOGS_HOME / "synthetic-model.synthetic-run.json"
SWE_LOGS_EDITED = SWE_LOGS_HOME / "synthetic-model.synthetic-run.hand-edited.json"
INS_WILD = FIXTURES / "inspect" / "wild"
INS_RUNS = FIXTURES / "inspect" / "runs"
HARNESSES = FIXTURES / "harnesses"
OH_REMOTE = HARNESSES / "openhands" / "swe-bench-verified-remote-eval"
MLE = HARNESSES / "mle-bench"
POLY = FIXTURES / "wild3" / "other" / "swe-polybench" / "20260430_kodah_gpt-5-mini"
LM_DATE = "2026-12-02T12-58-29.437800"  # the lm-eval run's timestamp, in each of its file names
LM_SAMPLES = HARNESSES / "lm-eval" / "full" / f"samples_humaneval_local_5_{LM_DATE}.jsonl"


def zstd_readable() -> bool:
    """Does this interpreter's zipfile read zstd members (3.14+)? The gate reads them no other way."""
    import zipfile

    return isinstance(getattr(zipfile, "ZIP_ZSTANDARD", None), int)


def run_log(folder: str) -> Path:
    """The one Inspect log (not eval-set.json / logs.json) of a folder of tests/fixtures/inspect/runs/."""
    found = [p for p in sorted((INS_RUNS / folder).iterdir())
             if p.suffix in (".json", ".eval") and p.name not in ("eval-set.json", "logs.json")]
    assert len(found) == 1, found
    return found[0]


def unpack(source: Path, target: Path) -> Path:
    """Copy a fixture file or folder to `target`; a `*.gz` file copied to a `*.gz` target is decompressed under the
    name without `.gz` (the Terminal-Bench files are stored gzip-compressed, byte-for-byte inside). Returns the
    path written."""
    if source.is_dir():
        for path in sorted(source.rglob("*")):
            if path.is_file():
                unpack(path, target / path.relative_to(source))
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.suffix == ".gz" and target.suffix == ".gz":
        target = target.with_suffix("")
        target.write_bytes(gzip.decompress(source.read_bytes()))
    else:
        shutil.copyfile(source, target)
    return target


class Imported(NamedTuple):
    code: int
    err: str
    runs: Path
    draft_path: Path
    records: list[dict[str, Any]]
    draft: dict[str, Any]

    def notes(self) -> list[str]:
        return [line[len("gate.py: note: "):] for line in self.err.splitlines() if line.startswith("gate.py: note: ")]


class RealFileCase(ImportCase):
    """An ImportCase with the real files' helpers."""

    def tb_runs(self, submission: str) -> list[Path]:
        """A leaderboard submission's five run folders (results.json + run_metadata.json), unpacked."""
        root = unpack(TB_BOARD / submission, self.dir / "board" / submission)
        return sorted(p for p in root.iterdir() if p.is_dir())

    def tb_file(self, name: str) -> Path:
        """A realdata/terminal-bench orchestrator results file, unpacked."""
        return unpack(TB_ORCHESTRATOR / f"{name}.gz", self.dir / "orchestrator" / f"{name}.gz")

    def import_ok(self, fmt: str, *args: str, name: str = "imp") -> Imported:
        """import FORMAT ARGS -o RUNS --draft-manifest DRAFT, which must succeed; stderr kept for its notes."""
        runs, draft = self.dir / f"{name}.runs.jsonl", self.dir / f"{name}.manifest.json"
        code, out, err = self.run_gate("import", fmt, *args, "-o", str(runs), "--draft-manifest", str(draft))
        self.assertEqual(code, 0, err)
        self.assertEqual(out, "")
        self.assertNotIn("Traceback", err)
        records = [json.loads(line) for line in runs.read_text(encoding="utf-8").splitlines()]
        return Imported(code, err, runs, draft, records, load(draft))

    def complete(self, draft_path: Path, controls: Sequence[dict[str, Any]] = (), name: str = "completed") -> Path:
        """The draft as a user completes it: controls (if given), every TODO filled, the draft list deleted."""
        manifest = load(draft_path)
        self.assertIn("draft", manifest, "an import writes a draft")
        fill_draft(manifest)
        manifest["controls"] = list(controls)
        if manifest["rerun_recipe"].startswith("TODO"):
            manifest["rerun_recipe"] = "the harness command that made the run"
        return self.write_json(f"{name}.manifest.json", manifest)

    def gated(self, imp: Imported, controls: Sequence[dict[str, Any]] = (), *extra: str) -> dict[str, Any]:
        """`check --format json` on the imported ledger and its completed draft: the report. Nothing but the
        controls (and what the run itself shows) may be left to find: the draft was completed."""
        manifest = self.complete(imp.draft_path, controls)
        code, out, err = self.run_gate("check", "--manifest", str(manifest), "--runs", str(imp.runs), "--format", "json",
                                       *extra)
        self.assertIn(code, (0, 1), err)
        report: dict[str, Any] = json.loads(out)
        codes = {f["code"] for f in report["findings"]}
        self.assertFalse(codes & {"draft_manifest", "placeholder_value", "envelope_incomplete"}, codes)
        return report

    def assertHeadline(self, report: dict[str, Any], value: Fraction, n: int) -> None:
        """The report's headline is exactly `value` over `n` tasks."""
        head = report["headline"]
        self.assertEqual(head["n"], n, head)
        self.assertAlmostEqual(head["rate"], float(value), places=12, msg=head)
        self.assertAlmostEqual(head["k"], float(value * n), places=9, msg=head)


def rule_headline(records: Sequence[dict[str, Any]], task_ids: Sequence[str], mode: str, budget: int) -> Fraction:
    """The gate's headline, from the records by its written rule: retry mode, tasks with a pass among their
    first `budget` attempts over the declared tasks; samples mode, the mean over declared tasks of
    passes / budget. Unscoreable counts as no pass; a task with no record counts 0."""
    passes: dict[str, list[int]] = defaultdict(list)
    for rec in records:
        if rec["outcome"] == "pass":
            passes[rec["task_id"]].append(rec["attempt"])
    if mode == "retry":
        return Fraction(sum(1 for t in task_ids if any(a <= budget for a in passes[t])), len(task_ids))
    return sum((Fraction(len(passes[t]), budget) for t in task_ids), Fraction(0)) / len(task_ids)


def controls_from(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """A positive control (a task every attempt of which passed) and a negative one (a task no attempt of which
    passed and at least one failed), where the run has them."""
    by_task: dict[str, list[str]] = defaultdict(list)
    for rec in records:
        by_task[rec["task_id"]].append(rec["outcome"])
    out = []
    positive = next((t for t in sorted(by_task) if set(by_task[t]) == {"pass"}), None)
    negative = next((t for t in sorted(by_task) if "pass" not in by_task[t] and "fail" in by_task[t]), None)
    if positive:
        out.append({"task_id": positive, "expected": "pass", "role": "positive"})
    if negative:
        out.append({"task_id": negative, "expected": "fail", "role": "negative"})
    return out



def sample_inputs(case: RealFileCase) -> dict[str, list[str]]:
    """One real input an importer row (its files and the options it needs), for every importer that imports: the
    trust-rule tests run each rule over them, and the golden file holds what each reads as."""
    publish = case.write_json("report.json", {"attempt_budget": 1, "outcomes": [
        {"task_id": "a", "attempts": 1, "hidden_tests_passed": True},
        {"task_id": "b", "attempts": 1, "hidden_tests_passed": False}]})
    jsonl = case.write_jsonl("records.jsonl", [{"id": "a", "ok": True}, {"id": "b", "ok": False}])
    return {
        "swebench": [str(JAVA_GPT4O)],
        "inspect": [str(INS_OK)],
        "terminal-bench": [str(case.tb_runs(DROID)[0])],
        "harbor": [str(TH20 / "break-filter-js-from-html--thinharness" / "job"),
                   str(TH20 / "dna-insert--thinharness" / "job")],
        "publish-gate": [str(publish)],
        "swe-polybench": [str(POLY)],
        "nocode-bench": [str(HARNESSES / "nocode-bench" / "evaluation_details.jsonl")],
        "openhands": [str(OH_REMOTE / "output.jsonl")],
        "lm-eval": [str(LM_SAMPLES)],
        "livecodebench": [str(HARNESSES / "livecodebench" / "output" / "Canned-Model"
                              / "Scenario.codegeneration_4_0.2_eval_all.json")],
        "evalplus": [str(HARNESSES / "evalplus" / "samples_eval_results.json")],
        "bigcodebench": [str(HARNESSES / "bigcodebench" / "run" / "canned--bigcodebench-complete--local-0.8-3-sanitized_"
                                                          "calibrated_eval_results.json")],
        "mle-bench": [str(MLE / "run-group-seed0"), str(MLE / "run-group-seed1")],
        "hal": [str(next((HARNESSES / "hal" / "swebench_verified_mini_hal_generalist_agent_gpt41_1763632800").glob("*_UPLOAD.json")))],
        "aider": [str(HARNESSES / "aider" / "2026-11-20-10-00-00--gpt-4.1-diff")],
        "jsonl": [str(jsonl), "--task-id", "id", "--pass", "ok"],
        "json": [str(case.write_json("records.json", {"a": {"ok": True}, "b": {"ok": False}})), "--pass", "ok"],
        "csv": [str(FIXTURES / "wild3" / "other" / "hal-derived"
                    / "corebench_hard_claude_code_claudeopus41_1764560915_UPLOAD.csv"),
                "--task-id", "task_id", "--pass", "correct == 1"],
    }
