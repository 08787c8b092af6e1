"""Issue 2, the core gate: findings, the retry rule, malformed input, the report card, statistics and the CLI.

Run with `python3 -m unittest tests.test_ledger` from the repository root. Expected numbers are computed
here independently (closed-form Wilson, hashlib) or copied from the reference vectors below; they are
never obtained by calling the gate function under test.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import os
import re
import statistics
import tracemalloc
from pathlib import Path
from typing import Any, ClassVar

from tests.support import ROOT, GateCase, gate, ids_digest, record, run_cli, valid_ledger

# Every finding code of issue 2.
ALL_CODES = (
    "dataset_digest_mismatch", "dataset_size_mismatch", "never_started", "unexpected_task", "mixed_runs",
    "attempt_repeated", "attempt_gap", "attempt_over_budget", "unknown_outcome", "uncoded_unscoreable",
    "reason_on_scored", "ledger_does_not_balance", "controls_incomplete", "control_outside_dataset",
    "control_missing", "control_inconclusive", "control_violated", "envelope_exceeded", "strata_do_not_sum",
    "stratum_count_mismatch",
)

# Reference Wilson intervals at 95%: statsmodels 0.15.0 proportion_confint(method='wilson'), from the
# project's reference vectors (stat_vectors.json, a_wilson.rows, raw_statsmodels_lower_repr /
# raw_statsmodels_upper_repr, full precision), checked against Newcombe (1998) Table I.
# (k, n, lower, upper)
WILSON_REFERENCE = (
    (0, 1, 0.0, 0.7934506856227627),
    (1, 1, 0.2065493143772374, 1.0),
    (0, 10, 0.0, 0.27753279986288926),
    (10, 10, 0.7224672001371106, 1.0),
    (29, 40, 0.5716504419378943, 0.8389198375233267),
    (29, 37, 0.6280485160803084, 0.8861348800661442),
    (81, 263, 0.2552885198782742, 0.36620957698280004),
    (15, 148, 0.06238639953073628, 0.16048724172330803),
    (0, 20, 0.0, 0.1611251580528194),
    (1, 29, 0.006113214292762667, 0.17175521879320294),
    (500, 1000, 0.4690696003681042, 0.5309303996318958),
    (1, 1000000, 1.7652457674537176e-07, 5.664911804311445e-06),
    (999999, 1000000, 0.9999943350881957, 0.9999998234754233),
    (3, 7, 0.15821985525146964, 0.7495416354723428),
)

# Newcombe RG (1998) Stat Med 17:857-872, Table I, Wilson (method 3), published to 4 decimals, with the
# statsmodels 0.15.0 values to 6 decimals (stat_vectors.json, c_newcombe_1998_table_I).
# (k, n, published (lower, upper), statsmodels (lower, upper))
NEWCOMBE_TABLE_I = (
    (81, 263, (0.2553, 0.3662), (0.255289, 0.36621)),
    (15, 148, (0.0624, 0.1605), (0.062386, 0.160487)),
    (0, 20, (0.0, 0.1611), (0.0, 0.161125)),
    (1, 29, (0.0061, 0.1718), (0.006113, 0.171755)),
    (29, 29, (0.883, 1.0), (0.88303, 1.0)),
)


def z_of(confidence: float) -> float:
    return statistics.NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_closed_form(k: int, n: int, z: float) -> tuple[float, float]:
    """The Wilson score interval written out again, independently of gate.wilson."""
    p = k / n
    denom = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low = 0.0 if k == 0 else center - half
    high = 1.0 if k == n else center + half
    return low, high


def rate_text(k: int, n: int, confidence: float = 0.95) -> str:
    low, high = wilson_closed_form(k, n, z_of(confidence))
    return f"{k}/{n} = {k / n:.3f}  {round(confidence * 100):d}% CI [{low:.3f}, {high:.3f}]"


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def with_strata(records: list[dict[str, Any]], sizes: dict[str, int]) -> list[dict[str, Any]]:
    """Label records in order: the first sizes[0] records get the first stratum, and so on."""
    out, index = [], 0
    for name, size in sizes.items():
        for rec in records[index:index + size]:
            out.append({**rec, "stratum": name})
        index += size
    out.extend(copy.deepcopy(records[index:]))
    return out


def retry_ledger(budget: int, tasks: dict[str, list[tuple[str, str | None]]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A manifest and records where each task has the listed attempts, numbered 1..a in order."""
    manifest, _ = valid_ledger()
    ids = sorted(tasks)
    records = [record(tid, outcome, reason, attempt=i) for tid, attempts in tasks.items()
               for i, (outcome, reason) in enumerate(attempts, 1)]
    manifest["dataset"].update(task_count=len(ids), task_ids=ids, task_ids_sha256=ids_digest(ids))
    manifest["attempt_budget"] = budget
    return manifest, records


class LedgerCase(GateCase):
    def blocked(self, manifest: dict[str, Any], records: list[Any], code: str, *extra: str) -> list[str]:
        """Assert exit 1, BLOCKED and the code among the findings; return that code's messages."""
        exit_code, report = self.check_json(manifest, records, *extra)
        codes = [f["code"] for f in report["findings"]]
        self.assertIn(code, codes, report["findings"])
        self.assertEqual(exit_code, 1)
        self.assertEqual(report["verdict"], "BLOCKED")
        return [f["message"] for f in report["findings"] if f["code"] == code]

    def publishable(self, manifest: dict[str, Any], records: list[Any], *extra: str) -> dict[str, Any]:
        exit_code, report = self.check_json(manifest, records, *extra)
        self.assertEqual(report["findings"], [])
        self.assertEqual(exit_code, 0)
        self.assertEqual(report["verdict"], "PUBLISHABLE")
        return report

    def replace(self, records: list[dict[str, Any]], tid: str, /, **fields: Any) -> list[dict[str, Any]]:
        """A copy of the records with the one record of task `tid` changed."""
        out = copy.deepcopy(records)
        hits = [r for r in out if r["task_id"] == tid]
        self.assertEqual(len(hits), 1)
        hits[0].update(fields)
        return out


#####################################################################
# 1. Every finding code: triggered, and silent on a valid ledger
#####################################################################


class FindingsTriggered(LedgerCase):
    def test_dataset_digest_mismatch_with_declared_ids(self) -> None:
        manifest, records = valid_ledger()
        manifest["dataset"]["task_ids_sha256"] = "replace-with-digest-from-gate"
        self.blocked(manifest, records, "dataset_digest_mismatch")

    def test_dataset_digest_mismatch_from_observed_ids(self) -> None:
        manifest, records = valid_ledger(with_ids=False)
        records = self.replace(records, "t-001", task_id="t-901")  # same size, different suite
        messages = self.blocked(manifest, records, "dataset_digest_mismatch")
        observed = ids_digest([r["task_id"] for r in records])
        self.assertIn(observed, messages[0])  # tells the user the digest of what was run
        self.assertNotIn("dataset_size_mismatch", self.codes(manifest, records))

    def test_dataset_size_mismatch(self) -> None:
        manifest, records = valid_ledger(with_ids=False)
        records = [r for r in records if r["task_id"] != "t-001"]
        manifest["dataset"]["task_ids_sha256"] = ids_digest([r["task_id"] for r in records])
        messages = self.blocked(manifest, records, "dataset_size_mismatch")
        self.assertIn("40", messages[0])
        self.assertIn("39", messages[0])
        self.assertNotIn("dataset_digest_mismatch", self.codes(manifest, records))

    def test_never_started_names_the_tasks(self) -> None:
        manifest, records = valid_ledger()
        records = [r for r in records if r["task_id"] not in ("t-003", "t-017")]
        messages = self.blocked(manifest, records, "never_started")
        self.assertIn("t-003", messages[0])
        self.assertIn("t-017", messages[0])
        self.assertNotIn("t-004", messages[0])

    def test_unexpected_task(self) -> None:
        manifest, records = valid_ledger()
        records.append(record("t-999", "pass"))
        messages = self.blocked(manifest, records, "unexpected_task")
        self.assertIn("t-999", messages[0])

    def test_mixed_runs_and_run_id_selection(self) -> None:
        manifest, records = valid_ledger()
        both = records + [{**r, "run_id": "r2"} for r in records]
        self.blocked(manifest, both, "mixed_runs")
        for chosen in ("r1", "r2"):
            with self.subTest(run_id=chosen):
                report = self.publishable(manifest, both, "--run-id", chosen)
                self.assertEqual(report["ledger"]["exits"], 40)

    def test_run_id_naming_no_record_is_an_input_error(self) -> None:
        manifest, records = valid_ledger()
        self.assertInputError(self.check(manifest, records, "--run-id", "r9"), "r9")

    def test_attempt_repeated(self) -> None:
        manifest, records = valid_ledger()
        records.append(record("t-001", "pass", attempt=1))
        messages = self.blocked(manifest, records, "attempt_repeated")
        self.assertIn("t-001", messages[0])

    def test_attempt_gap(self) -> None:
        manifest, records = valid_ledger()
        manifest["attempt_budget"] = 3
        records = self.replace(records, "t-001", outcome="fail")
        records.append(record("t-001", "pass", attempt=3))
        messages = self.blocked(manifest, records, "attempt_gap")
        self.assertIn("t-001", messages[0])
        self.assertNotIn("attempt_over_budget", self.codes(manifest, records))

    def test_attempt_over_budget_default_budget_is_one(self) -> None:
        manifest, records = valid_ledger()
        records = self.replace(records, "t-001", outcome="fail")
        records.append(record("t-001", "pass", attempt=2))
        messages = self.blocked(manifest, records, "attempt_over_budget")
        self.assertIn("t-001", messages[0])

    def test_attempt_over_budget_with_attempt_budget(self) -> None:
        manifest, records = valid_ledger()
        manifest["attempt_budget"] = 2
        records = self.replace(records, "t-001", outcome="fail")
        records += [record("t-001", "fail", attempt=2), record("t-001", "pass", attempt=3)]
        messages = self.blocked(manifest, records, "attempt_over_budget")
        self.assertIn("t-001", messages[0])
        self.assertIn("2", messages[0])

    def test_unknown_outcome(self) -> None:
        manifest, records = valid_ledger()
        records = self.replace(records, "t-001", outcome="PASS")
        messages = self.blocked(manifest, records, "unknown_outcome")
        self.assertIn("t-001", messages[0])
        self.assertIn("ledger_does_not_balance", self.codes(manifest, records))

    def test_uncoded_unscoreable(self) -> None:
        manifest, base = valid_ledger()
        target = next(r["task_id"] for r in base if r["outcome"] == "unscoreable")
        cases = {"missing reason": None, "null reason": {"reason": None}, "unknown reason": {"reason": "weird"}}
        for label, change in cases.items():
            with self.subTest(label):
                records = copy.deepcopy(base)
                rec = next(r for r in records if r["task_id"] == target)
                if change is None:
                    del rec["reason"]
                else:
                    rec.update(change)
                messages = self.blocked(manifest, records, "uncoded_unscoreable")
                self.assertIn(target, messages[0])

    def test_reason_classes_extends_the_allowed_set(self) -> None:
        manifest, records = valid_ledger(unscoreable=("harness_timeout", "sandbox_oom", "sandbox_oom"))
        self.blocked(manifest, records, "uncoded_unscoreable")
        manifest["reason_classes"] = ["sandbox_oom"]
        report = self.publishable(manifest, records)
        self.assertEqual(report["ledger"]["unscoreable_reasons"], {"sandbox_oom": 2, "harness_timeout": 1})

    def test_reason_on_scored(self) -> None:
        manifest, records = valid_ledger()
        records = self.replace(records, "t-001", reason="grader_error")
        messages = self.blocked(manifest, records, "reason_on_scored")
        self.assertIn("t-001", messages[0])

    def test_ledger_does_not_balance(self) -> None:
        manifest, records = valid_ledger(with_ids=False)
        manifest["dataset"]["task_count"] = 41
        self.blocked(manifest, records, "ledger_does_not_balance")
        _, report = self.check_json(manifest, records)
        self.assertEqual((report["ledger"]["entries"], report["ledger"]["exits"]), (41, 40))

    def test_controls_incomplete(self) -> None:
        for role in ("negative", "positive"):
            with self.subTest(missing=role):
                manifest, records = valid_ledger()
                manifest["controls"] = [c for c in manifest["controls"] if c["role"] != role]
                messages = self.blocked(manifest, records, "controls_incomplete")
                self.assertIn(role, messages[0])
        manifest["controls"] = []
        self.blocked(manifest, records, "controls_incomplete")

    def test_control_outside_dataset(self) -> None:
        manifest, records = valid_ledger()
        manifest["controls"].append({"task_id": "ctl-x", "expected": "fail", "role": "negative"})
        messages = self.blocked(manifest, records, "control_outside_dataset")
        self.assertIn("ctl-x", messages[0])

    def test_control_missing(self) -> None:
        manifest, records = valid_ledger()
        records = [r for r in records if r["task_id"] != "neg-01"]
        messages = self.blocked(manifest, records, "control_missing")
        self.assertIn("neg-01", messages[0])

    def test_control_inconclusive(self) -> None:
        manifest, records = valid_ledger()
        records = self.replace(records, "neg-01", outcome="unscoreable", reason="harness_timeout")
        messages = self.blocked(manifest, records, "control_inconclusive")
        self.assertIn("neg-01", messages[0])

    def test_control_violated_both_directions(self) -> None:
        manifest, records = valid_ledger()
        for tid, outcome in (("neg-01", "pass"), ("pos-01", "fail")):
            with self.subTest(control=tid):
                messages = self.blocked(manifest, self.replace(records, tid, outcome=outcome), "control_violated")
                self.assertIn(tid, messages[0])

    def test_envelope_exceeded(self) -> None:
        manifest, records = valid_ledger()
        messages = self.blocked(manifest, self.replace(records, "t-001", wall_clock_s=900.5), "envelope_exceeded")
        self.assertIn("t-001", messages[0])

    def test_strata_do_not_sum(self) -> None:
        manifest, records = valid_ledger()
        manifest["dataset"]["strata"] = {"repo_edit": 24, "test_write": 10, "refactor": 5}
        messages = self.blocked(manifest, records, "strata_do_not_sum")
        self.assertIn("39", messages[0])

    def test_stratum_count_mismatch_counts_differ(self) -> None:
        manifest, records = valid_ledger()
        manifest["dataset"]["strata"] = {"repo_edit": 24, "test_write": 10, "refactor": 6}
        self.blocked(manifest, with_strata(records, {"repo_edit": 25, "test_write": 9, "refactor": 6}),
                     "stratum_count_mismatch")

    def test_stratum_count_mismatch_some_records_lack_stratum(self) -> None:
        manifest, records = valid_ledger()
        labelled = with_strata(records, {"repo_edit": 24, "test_write": 10, "refactor": 6})
        del labelled[7]["stratum"]
        self.blocked(manifest, labelled, "stratum_count_mismatch")

    def test_stratum_count_mismatch_task_in_two_strata(self) -> None:
        manifest, records = valid_ledger()
        manifest["attempt_budget"] = 2
        manifest["dataset"]["strata"] = {"repo_edit": 24, "test_write": 10, "refactor": 6}
        labelled = with_strata(records, {"repo_edit": 24, "test_write": 10, "refactor": 6})
        first = next(r for r in labelled if r["task_id"] == "t-001")
        self.assertEqual(first["stratum"], "repo_edit")
        first["outcome"] = "fail"
        labelled.append(record("t-001", "pass", attempt=2, stratum="refactor"))
        messages = self.blocked(manifest, labelled, "stratum_count_mismatch")
        self.assertTrue(any("t-001" in m for m in messages), messages)


class FindingsSilent(LedgerCase):
    def test_valid_ledger_has_no_finding_at_all(self) -> None:
        manifest, records = valid_ledger()
        _, report = self.check_json(manifest, records)
        codes = [f["code"] for f in report["findings"]]
        for code in ALL_CODES:
            with self.subTest(code=code):
                self.assertNotIn(code, codes)
        self.publishable(manifest, records)

    def test_valid_ledger_without_task_ids_is_publishable(self) -> None:
        self.publishable(*valid_ledger(with_ids=False))

    def test_envelope_equal_to_the_limit_is_fine(self) -> None:
        manifest, records = valid_ledger()
        records = self.replace(records, "t-001", wall_clock_s=900)
        records = self.replace(records, "t-002", wall_clock_s=900.0)
        records = self.replace(records, "t-003", wall_clock_s=0)
        self.publishable(manifest, records)

    def test_valid_strata_are_silent(self) -> None:
        manifest, records = valid_ledger()
        manifest["dataset"]["strata"] = {"repo_edit": 24, "test_write": 10, "refactor": 6}
        self.publishable(manifest, records)  # declared, no record carries stratum
        self.publishable(manifest, with_strata(records, {"repo_edit": 24, "test_write": 10, "refactor": 6}))

    def test_retries_within_budget_are_silent(self) -> None:
        manifest, records = valid_ledger()
        manifest["attempt_budget"] = 3
        records = self.replace(records, "t-001", outcome="fail")
        records += [record("t-001", "unscoreable", "env_flake", attempt=2), record("t-001", "pass", attempt=3)]
        records = self.replace(records, "t-002", outcome="unscoreable", reason="harness_timeout")
        records.append(record("t-002", "pass", attempt=2))
        self.publishable(manifest, records)

    def test_reason_on_pass_and_fail_may_be_absent_or_null(self) -> None:
        manifest, records = valid_ledger()
        for r in records:
            if r["outcome"] != "unscoreable" and r["task_id"].endswith("1"):
                del r["reason"]
        self.publishable(manifest, records)


#####################################################################
# 2. The retry rule with an attempt budget above 1
#####################################################################


class RetryRule(LedgerCase):
    TASKS: ClassVar[dict[str, list[tuple[str, str | None]]]] = {
        "neg-01": [("fail", None)],
        "pos-01": [("pass", None)],
        "t-a": [("fail", None), ("pass", None)],                                    # pass: a retry passed
        "t-b": [("unscoreable", "harness_timeout"), ("fail", None)],                 # fail: scored, never passed
        "t-c": [("unscoreable", "harness_timeout"), ("unscoreable", "env_flake")],   # unscoreable
        "t-d": [("pass", None)],                                                     # pass on the first try
        "t-e": [("fail", None), ("fail", None), ("fail", None)],                     # fail: three rows, one exit
        "t-f": [("unscoreable", "grader_error"), ("unscoreable", "grader_error"), ("pass", None)],  # pass
        "t-h": [("pass", None), ("fail", None)],                                     # pass: any pass within budget
        "t-i": [("fail", None), ("unscoreable", "env_flake")],                       # fail: a scored attempt wins
    }

    def test_each_task_exits_once_by_the_retry_rule(self) -> None:
        manifest, records = retry_ledger(3, self.TASKS)
        self.assertEqual(len(records), 19)
        report = self.publishable(manifest, records)
        ledger = report["ledger"]
        self.assertEqual((ledger["entries"], ledger["exits"]), (10, 10))
        self.assertEqual((ledger["pass"], ledger["fail"], ledger["unscoreable"]), (5, 4, 1))
        self.assertEqual(sum(ledger["unscoreable_reasons"].values()), 1)
        self.assertEqual((report["headline"]["k"], report["headline"]["n"]), (5, 10))
        self.assertEqual((report["secondary"]["k"], report["secondary"]["n"]), (5, 9))

    def test_three_attempts_of_one_task_are_one_exit(self) -> None:
        manifest, records = retry_ledger(3, {"neg-01": [("fail", None)], "pos-01": [("pass", None)],
                                             "t-x": [("fail", None)] * 3})
        report = self.publishable(manifest, records)
        self.assertEqual((report["ledger"]["exits"], report["ledger"]["fail"]), (3, 2))

    def test_first_attempt_rate_over_the_full_denominator(self) -> None:
        manifest, records = retry_ledger(3, self.TASKS)
        report = self.publishable(manifest, records)
        first = report["first_attempt"]
        low, high = wilson_closed_form(3, 10, z_of(0.95))  # pos-01, t-d and t-h passed on attempt 1
        self.assertEqual((first["k"], first["n"]), (3, 10))
        self.assertAlmostEqual(first["ci_low"], low, delta=1e-12)
        self.assertAlmostEqual(first["ci_high"], high, delta=1e-12)
        _, out, _ = self.check(manifest, records)
        lines = [line for line in out.splitlines() if line.startswith("first try")]
        self.assertEqual(len(lines), 1, out)
        self.assertIn(rate_text(3, 10), lines[0])

    def test_no_first_try_line_with_budget_one(self) -> None:
        manifest, records = valid_ledger()
        _, out, _ = self.check(manifest, records)
        self.assertNotIn("first try", out)
        _, report = self.check_json(manifest, records)
        self.assertIsNone(report.get("first_attempt"))
        manifest["attempt_budget"] = 1
        _, out, _ = self.check(manifest, records)
        self.assertNotIn("first try", out)

    def test_a_pass_beyond_the_budget_does_not_count(self) -> None:
        manifest, records = retry_ledger(2, {"neg-01": [("fail", None)], "pos-01": [("pass", None)],
                                             "t-g": [("fail", None), ("fail", None), ("pass", None)]})
        self.blocked(manifest, records, "attempt_over_budget")
        _, report = self.check_json(manifest, records)
        self.assertEqual((report["ledger"]["pass"], report["ledger"]["fail"]), (1, 2))

    def test_a_negative_control_that_passes_on_retry_is_violated(self) -> None:
        manifest, records = retry_ledger(2, {"neg-01": [("fail", None), ("pass", None)], "pos-01": [("pass", None)]})
        self.blocked(manifest, records, "control_violated")
        manifest, records = retry_ledger(2, {"neg-01": [("fail", None)], "pos-01": [("fail", None), ("pass", None)]})
        self.publishable(manifest, records)


#####################################################################
# 3. Malformed input: exit 2, one line naming the file and the line or field, no traceback
#####################################################################


class MalformedInput(LedgerCase):
    def setUp(self) -> None:
        super().setUp()
        self.manifest, self.records = valid_ledger()
        self.lines = [json.dumps(r) for r in self.records]
        self.mpath = self.write_json("bench.manifest.json", self.manifest)

    def runs_bytes(self, data: bytes) -> tuple[int, str, str]:
        runs = self.write_text("runs.jsonl", data)
        return self.run_gate("--manifest", str(self.mpath), "--runs", str(runs))

    def bad_line(self, text: str, at: int = 17) -> tuple[int, str, str]:
        lines = list(self.lines)
        lines[at - 1] = text
        return self.runs_bytes(("\n".join(lines) + "\n").encode("utf-8"))

    def bad_field(self, at: int = 17, **fields: Any) -> tuple[int, str, str]:
        rec = dict(self.records[at - 1])
        rec.update(fields)
        return self.bad_line(json.dumps(rec), at)

    def manifest_text(self, text: str | bytes) -> tuple[int, str, str]:
        mpath = self.write_text("bench.manifest.json", text)
        runs = self.write_jsonl("runs.jsonl", self.records)
        return self.run_gate("--manifest", str(mpath), "--runs", str(runs))

    def assertNamesLineOrField(self, result: tuple[int, str, str], line: int, field: str) -> None:
        self.assertInputError(result, "bench.manifest.json")
        err = result[2]
        self.assertTrue(f"bench.manifest.json:{line}:" in err or field in err,
                        f"expected the line ({line}) or the field ({field}) in {err!r}")

    # -- files

    def test_missing_files(self) -> None:
        runs = self.write_jsonl("runs.jsonl", self.records)
        missing = self.dir / "nope.json"
        self.assertInputError(self.run_gate("--manifest", str(missing), "--runs", str(runs)), str(missing))
        self.assertInputError(self.run_gate("--manifest", str(self.mpath), "--runs", str(missing)), str(missing))

    def test_unreadable_file(self) -> None:
        folder = self.dir / "a-folder"
        folder.mkdir()
        runs = self.write_jsonl("runs.jsonl", self.records)
        self.assertInputError(self.run_gate("--manifest", str(folder), "--runs", str(runs)), str(folder))
        self.assertInputError(self.run_gate("--manifest", str(self.mpath), "--runs", str(folder)), str(folder))

    # -- runs: JSON

    def test_malformed_json_in_runs_names_the_line(self) -> None:
        self.assertInputError(self.bad_line('{"run_id": "r1", "task_id": "t-016", '), "runs.jsonl:17:")
        self.assertInputError(self.bad_line("{'run_id': 'r1'}"), "runs.jsonl:17:")

    def test_record_split_over_two_lines_is_refused(self) -> None:
        # JSONL: one record per line. A record broken over two lines is not one valid line.
        lines = list(self.lines)
        lines[16] = lines[16].replace(', "attempt"', ',\n"attempt"')
        self.assertInputError(self.runs_bytes(("\n".join(lines) + "\n").encode()), "runs.jsonl:17:")

    def test_duplicate_keys_in_runs(self) -> None:
        rec = json.dumps(self.records[16])
        self.assertInputError(self.bad_line(rec[:-1] + ', "outcome": "pass"}'), "runs.jsonl:17:", "duplicate")
        self.assertInputError(self.bad_line(rec[:-1] + ', "meta": {"x": 1, "x": 2}}'), "runs.jsonl:17:", "duplicate")

    def test_non_finite_numbers_in_runs(self) -> None:
        # in a field the gate reads, in an extra field it ignores, and nested: strict JSON everywhere
        for token in ("NaN", "Infinity", "-Infinity", "1e400", "-1e400"):
            for template in ('"wall_clock_s": {}', '"x": {}', '"meta": {{"y": [{}]}}'):
                extra = template.format(token)
                with self.subTest(token=token, field=extra):
                    rec = json.dumps(self.records[16])[:-1] + ", " + extra + "}"
                    self.assertInputError(self.bad_line(rec), "runs.jsonl:17:")

    def test_non_utf8_in_runs_names_the_line(self) -> None:
        data = ("\n".join(self.lines[:16]) + "\n").encode() + b'{"run_id": "r\xff1"}\n'
        self.assertInputError(self.runs_bytes(data), "runs.jsonl:17:", "UTF-8")

    def test_bom_in_runs(self) -> None:
        self.assertInputError(self.runs_bytes(b"\xef\xbb\xbf" + ("\n".join(self.lines) + "\n").encode()), "runs.jsonl:1:")

    def test_deep_nesting_in_runs(self) -> None:
        self.assertInputError(self.bad_line("[" * 100000), "runs.jsonl:17:")
        self.assertInputError(self.bad_line('{"x": ' + "[" * 100000 + "]" * 100000 + "}"), "runs.jsonl:17:")

    def test_line_that_is_not_an_object(self) -> None:
        for text in ("[1, 2]", "5", '"t-001"', "null", "true"):
            with self.subTest(line=text):
                self.assertInputError(self.bad_line(text), "runs.jsonl:17:")

    def test_two_objects_on_one_line(self) -> None:
        self.assertInputError(self.bad_line(self.lines[16] + " " + self.lines[16]), "runs.jsonl:17:")
        self.assertInputError(self.bad_line(self.lines[16] + self.lines[16]), "runs.jsonl:17:")

    # -- runs: field types

    def test_wrong_types_for_runs_fields(self) -> None:
        cases = [
            ("run_id", ""), ("run_id", 1), ("run_id", None),
            ("task_id", ""), ("task_id", " t-016"), ("task_id", "t-016 "), ("task_id", 16), ("task_id", None),
            ("attempt", 0), ("attempt", -1), ("attempt", 1.0), ("attempt", True), ("attempt", "1"),
            ("outcome", 1), ("outcome", None), ("outcome", ["pass"]),
            ("reason", 5), ("reason", ["grader_error"]),
            ("wall_clock_s", -1), ("wall_clock_s", "10"), ("wall_clock_s", True),
            ("stratum", 3), ("stratum", ["a"]),
        ]
        for key, value in cases:
            with self.subTest(field=key, value=value):
                self.assertInputError(self.bad_field(**{key: value}), "runs.jsonl:17:", key)

    def test_missing_required_runs_fields(self) -> None:
        for key in ("run_id", "task_id", "attempt", "outcome"):
            with self.subTest(field=key):
                rec = dict(self.records[16])
                del rec[key]
                self.assertInputError(self.bad_line(json.dumps(rec)), "runs.jsonl:17:", key)

    # -- blank lines and CRLF

    def test_blank_lines_and_crlf_are_fine(self) -> None:
        data = "\r\n".join(self.lines[:10]) + "\r\n\r\n   \n\t\r\n" + "\n\n".join(self.lines[10:])
        code, out, err = self.runs_bytes(data.encode())  # no newline after the last line either
        self.assertEqual((code, err), (0, ""), out)
        self.assertIn("verdict     : PUBLISHABLE", out)

    def test_line_numbers_stay_right_after_blank_and_crlf_lines(self) -> None:
        # lines 1-3 CRLF, 4 blank, 5 blank CRLF, 6 spaces, 7 a record, 8 the bad line
        data = ("\r\n".join(self.lines[:3]) + "\r\n" + "\n" + "\r\n" + "   \n" + self.lines[3] + "\r\n"
                + '{"run_id": "r1", "task_id": "t-x", "attempt": 0, "outcome": "pass", "reason": null}\r\n'
                + "\n".join(self.lines[4:]) + "\n")
        self.assertInputError(self.runs_bytes(data.encode()), "runs.jsonl:8:", "attempt")
        data = ("\r\n".join(self.lines[:3]) + "\r\n\r\n\n").encode() + b'{"run_id": "\xc3"}\r\n'
        self.assertInputError(self.runs_bytes(data), "runs.jsonl:6:", "UTF-8")
        data = "\r\n".join(self.lines[:3]) + "\r\n\r\n\n" + "[1]\r\n" + "\n".join(self.lines[3:]) + "\n"
        self.assertInputError(self.runs_bytes(data.encode()), "runs.jsonl:6:")

    def test_truncated_line_after_blank_and_crlf_lines_names_its_line(self) -> None:
        # lines 1-3 CRLF, 4 blank CRLF, 5 blank, 6 a truncated record, then valid records
        data = "\r\n".join(self.lines[:3]) + "\r\n\r\n\n" + '{"run_id": \r\n' + "\n".join(self.lines[3:]) + "\n"
        self.assertInputError(self.runs_bytes(data.encode()), "runs.jsonl:6:")

    # -- manifest: JSON

    def test_malformed_json_in_manifest_names_the_line(self) -> None:
        text = json.dumps(self.manifest, indent=2)
        broken = text.replace('"name": "test-suite",', '"name": "test-suite",,')
        line = broken[:broken.index(",,")].count("\n") + 1
        self.assertInputError(self.manifest_text(broken), f"bench.manifest.json:{line}:")
        self.assertInputError(self.manifest_text(text[: len(text) // 2]), "bench.manifest.json:")

    def test_duplicate_key_in_manifest(self) -> None:
        text = json.dumps(self.manifest, indent=2)
        top = text.replace('"claim_id": "test-claim",', '"claim_id": "test-claim",\n  "claim_id": "other",')
        self.assertInputError(self.manifest_text(top), "bench.manifest.json", "duplicate", "claim_id")

    def test_nested_duplicate_key_in_manifest_names_line_or_field(self) -> None:
        text = json.dumps(self.manifest, indent=2)
        nested = text.replace('"name": "test-suite",', '"name": "test-suite",\n    "name": "other-suite",')
        line = nested[:nested.index('"name": "other-suite"')].count("\n") + 1
        result = self.manifest_text(nested)
        self.assertInputError(result, "duplicate")
        self.assertNamesLineOrField(result, line, "dataset.name")

    def test_non_finite_numbers_in_manifest_name_line_or_field(self) -> None:
        text = json.dumps(self.manifest, indent=2)
        line = text[:text.index('"task_count"')].count("\n") + 1
        for token in ("NaN", "Infinity", "-Infinity", "1e400"):
            with self.subTest(token=token):
                result = self.manifest_text(text.replace('"task_count": 40', f'"task_count": {token}'))
                self.assertNamesLineOrField(result, line, "dataset.task_count")

    def test_deep_nesting_in_manifest(self) -> None:
        self.assertNamesLineOrField(self.manifest_text("[" * 100000), 1, "top level")

    def test_non_utf8_and_bom_in_manifest(self) -> None:
        text = json.dumps(self.manifest, indent=2).encode()
        line = text[:text.index(b"test-claim")].count(b"\n") + 1
        self.assertInputError(self.manifest_text(text.replace(b"test-claim", b"test-\xe9claim")),
                              f"bench.manifest.json:{line}:", "UTF-8")
        self.assertInputError(self.manifest_text(b"\xef\xbb\xbf" + text), "bench.manifest.json:1:")

    def test_manifest_not_an_object(self) -> None:
        self.assertInputError(self.manifest_text("[]"), "bench.manifest.json")

    # -- manifest: fields

    def test_manifest_field_errors(self) -> None:
        def without(*keys: str) -> Any:
            def change(m: dict[str, Any]) -> None:
                target = m
                for key in keys[:-1]:
                    target = target[key]
                del target[keys[-1]]
            return change

        def setting(value: Any, *keys: str) -> Any:
            def change(m: dict[str, Any]) -> None:
                target = m
                for key in keys[:-1]:
                    target = target[key]
                target[keys[-1]] = value
            return change

        cases = [
            ("claim_id missing", without("claim_id"), "claim_id"),
            ("claim_id not a string", setting(7, "claim_id"), "claim_id"),
            ("dataset missing", without("dataset"), "dataset"),
            ("task_count true", setting(True, "dataset", "task_count"), "dataset.task_count"),
            ("task_count 1.5", setting(1.5, "dataset", "task_count"), "dataset.task_count"),
            ("task_count 40.0", setting(40.0, "dataset", "task_count"), "dataset.task_count"),
            ("task_count 0", setting(0, "dataset", "task_count"), "dataset.task_count"),
            ("task_count '40'", setting("40", "dataset", "task_count"), "dataset.task_count"),
            ("task_count missing", without("dataset", "task_count"), "dataset.task_count"),
            ("name missing", without("dataset", "name"), "dataset.name"),
            ("digest missing", without("dataset", "task_ids_sha256"), "dataset.task_ids_sha256"),
            ("controls not a list", setting({"task_id": "neg-01"}, "controls"), "controls"),
            ("controls missing", without("controls"), "controls"),
            ("envelope missing", without("envelope"), "envelope"),
            ("envelope not an object", setting("docker", "envelope"), "envelope"),
            ("control expects maybe", setting("maybe", "controls", 0, "expected"), "controls[0].expected"),
            ("control expects nothing", without("controls", 1, "expected"), "controls[1].expected"),
            ("attempt_budget 0", setting(0, "attempt_budget"), "attempt_budget"),
            ("attempt_budget true", setting(True, "attempt_budget"), "attempt_budget"),
            ("strata negative", setting({"a": -1, "b": 41}, "dataset", "strata"), "dataset.strata.a"),
        ]
        for label, change, field in cases:
            with self.subTest(label):
                manifest = copy.deepcopy(self.manifest)
                change(manifest)
                self.assertInputError(self.manifest_text(json.dumps(manifest, indent=2)), "bench.manifest.json", field)

    def test_unknown_fields_are_allowed(self) -> None:
        manifest, records = copy.deepcopy(self.manifest), copy.deepcopy(self.records)
        manifest["owner"] = {"team": "evals"}
        manifest["dataset"]["notes"] = "ok"
        records[0]["trace_url"] = "https://example.invalid/1"
        self.publishable(manifest, records)


#####################################################################
# 4. The report card text
#####################################################################


class ReportCard(LedgerCase):
    def run_text(self, manifest: dict[str, Any], records: list[Any], *extra: str) -> tuple[int, list[str], Path, Path]:
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_jsonl("runs.jsonl", records)
        code, out, err = self.run_gate("--manifest", str(m), "--runs", str(r), *extra)
        self.assertEqual(err, "")
        self.assertTrue(out.endswith("\n"))
        return code, out.splitlines(), m, r

    def test_seed_layout_for_a_29_8_3_ledger(self) -> None:
        manifest, records = valid_ledger()
        code, lines, m, r = self.run_text(manifest, records)
        self.assertEqual(code, 0)
        digest = ids_digest([rec["task_id"] for rec in records])
        expected_in_order = [
            "claim       : test-claim",
            f"dataset     : test-suite sha256 {digest[:12]}",
            "entries     : 40",
            "exits       : 40",
            "  pass        : 29",
            "  fail        : 8",
            "  unscoreable : 3 (harness_timeout 2, grader_error 1)",
            "pass_rate   : 29/40 = 0.725  95% CI [0.572, 0.839]  <- headline",
        ]
        self.assertEqual(lines[:len(expected_in_order)], expected_in_order)
        secondary = lines[len(expected_in_order)]
        self.assertTrue(secondary.startswith("            : 29/37 = 0.784  95% CI [0.628, 0.886]  <- "), secondary)
        self.assertIn("secondary", secondary)
        self.assertEqual(lines[-1], "verdict     : PUBLISHABLE")
        text = "\n".join(lines)
        self.assertIn(sha256_of(m), text)
        self.assertIn(sha256_of(r), text)
        rerun = [line for line in lines if line.startswith("rerun")]
        self.assertEqual(len(rerun), 1)
        self.assertIn(manifest["rerun_recipe"], rerun[0])
        envelope = [line for line in lines if line.startswith("envelope")]
        self.assertEqual(len(envelope), 1)
        for key, value in manifest["envelope"].items():
            self.assertIn(key, envelope[0])
            self.assertIn(str(value), envelope[0])

    def test_hashes_are_labelled(self) -> None:
        manifest, records = valid_ledger()
        _, lines, m, r = self.run_text(manifest, records)
        self.assertIn(f"manifest    : sha256 {sha256_of(m)}", lines)
        self.assertIn(f"runs        : sha256 {sha256_of(r)}", lines)

    def test_unscoreable_reasons_count_desc_then_name(self) -> None:
        manifest, records = valid_ledger(passes=20, fails=10, unscoreable=(
            "harness_timeout", "env_flake", "grader_error", "grader_error", "harness_timeout", "missing_artifact",
            "env_flake", "grader_error"))
        _, lines, _, _ = self.run_text(manifest, records)
        self.assertIn("  unscoreable : 8 (grader_error 3, env_flake 2, harness_timeout 2, missing_artifact 1)", lines)

    def test_per_stratum_lines_with_intervals(self) -> None:
        manifest, records = valid_ledger()
        sizes = {"repo_edit": 24, "test_write": 10, "refactor": 6}
        manifest["dataset"]["strata"] = sizes
        labelled = with_strata(records, sizes)
        _, lines, _, _ = self.run_text(manifest, labelled)
        for name, size in sizes.items():
            passed = sum(1 for rec in labelled if rec["stratum"] == name and rec["outcome"] == "pass")
            with self.subTest(stratum=name):
                self.assertIn(f"  {name:<12}: {rate_text(passed, size)}", lines)
        # records 0-23: neg-01 fail, pos-01 and 22 passes; 24-33: 6 passes, 4 fails; 34-39: 3 fails, 3 unscoreable
        self.assertIn(f"  {'repo_edit':<12}: 23/24 = 0.958  95% CI", "\n".join(lines))
        self.assertIn(f"  {'refactor':<12}: 0/6 = 0.000  95% CI [0.000, ", "\n".join(lines))

    def test_blocked_card_lists_every_finding(self) -> None:
        manifest, records = valid_ledger()
        records = self.replace(records, "neg-01", outcome="pass")
        records = self.replace(records, "t-001", wall_clock_s=1000)
        code, lines, _, _ = self.run_text(manifest, records)
        self.assertEqual(code, 1)
        _, report = self.check_json(manifest, records)
        expected = [f"  ! {f['code']}: {f['message']}" for f in report["findings"]]
        self.assertEqual({f["code"] for f in report["findings"]}, {"control_violated", "envelope_exceeded"})
        verdict = lines.index("verdict     : BLOCKED")
        self.assertEqual(lines[verdict + 1:], expected)

    def test_zero_scoreable_tasks_prints_na(self) -> None:
        manifest, records = retry_ledger(1, {"neg-01": [("unscoreable", "harness_timeout")],
                                             "pos-01": [("unscoreable", "grader_error")],
                                             "t-1": [("unscoreable", "env_flake")]})
        code, lines, _, _ = self.run_text(manifest, records)
        self.assertEqual(code, 1)
        self.assertIn("pass_rate   : 0/3 = 0.000  95% CI [0.000, ", "\n".join(lines))
        secondary = lines[lines.index(next(x for x in lines if x.startswith("pass_rate"))) + 1]
        self.assertTrue(secondary.startswith("            : n/a"), secondary)
        self.assertNotIn("/0", secondary)
        _, report = self.check_json(manifest, records)
        self.assertIsNone(report["secondary"])
        self.assertEqual(report["headline"]["ci_low"], 0.0)

    def test_same_inputs_byte_identical_output(self) -> None:
        manifest, records = valid_ledger()
        manifest["dataset"]["strata"] = {"repo_edit": 24, "test_write": 10, "refactor": 6}
        records = with_strata(records, {"repo_edit": 24, "test_write": 10, "refactor": 6})
        records = self.replace(records, "t-001", wall_clock_s=1000)
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_jsonl("runs.jsonl", records)
        for fmt in ("text", "json"):
            with self.subTest(format=fmt):
                first = self.run_gate("--manifest", str(m), "--runs", str(r), "--format", fmt)
                second = self.run_gate("--manifest", str(m), "--runs", str(r), "--format", fmt)
                self.assertEqual(first, second)
                self.assertEqual(first[0], 1)

    def test_confidence_changes_label_and_numbers(self) -> None:
        manifest, records = valid_ledger()
        _, lines, _, _ = self.run_text(manifest, records, "--confidence", "0.9")
        z90 = statistics.NormalDist().inv_cdf(0.95)
        low, high = wilson_closed_form(29, 40, z90)
        self.assertIn(f"pass_rate   : 29/40 = 0.725  90% CI [{low:.3f}, {high:.3f}]  <- headline", lines)
        self.assertNotEqual(f"{low:.3f}", "0.572")  # the numbers moved, not only the label
        low2, high2 = wilson_closed_form(29, 37, z90)
        self.assertIn(f"29/37 = 0.784  90% CI [{low2:.3f}, {high2:.3f}]", "\n".join(lines))
        self.assertNotIn("95% CI", "\n".join(lines))
        _, report = self.check_json(manifest, records, "--confidence", "0.9")
        self.assertAlmostEqual(report["headline"]["ci_low"], low, delta=1e-12)
        self.assertAlmostEqual(report["headline"]["ci_high"], high, delta=1e-12)

    def test_bad_confidence_is_a_usage_error(self) -> None:
        manifest, records = valid_ledger()
        for value in ("1.5", "0", "1", "abc", "nan"):
            with self.subTest(confidence=value):
                self.assertInputError(self.check(manifest, records, "--confidence", value), "--confidence")


#####################################################################
# 5. The JSON report
#####################################################################


class JsonReport(LedgerCase):
    def test_stable_top_level_and_values(self) -> None:
        manifest, records = valid_ledger()
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_jsonl("runs.jsonl", records)
        code, out, err = self.run_gate("--manifest", str(m), "--runs", str(r), "--format", "json")
        self.assertEqual((code, err), (0, ""))
        report = json.loads(out)
        for key in ("verdict", "claim_id", "ledger", "headline", "secondary", "strata", "findings", "inputs"):
            self.assertIn(key, report)
        self.assertEqual(report["verdict"], "PUBLISHABLE")
        self.assertEqual(report["claim_id"], "test-claim")
        ledger = report["ledger"]
        self.assertEqual({k: ledger[k] for k in ("entries", "exits", "pass", "fail", "unscoreable")},
                         {"entries": 40, "exits": 40, "pass": 29, "fail": 8, "unscoreable": 3})
        self.assertEqual(ledger["unscoreable_reasons"], {"harness_timeout": 2, "grader_error": 1})
        head, sec = report["headline"], report["secondary"]
        self.assertEqual((head["k"], head["n"]), (29, 40))
        self.assertEqual(head["rate"], 0.725)
        self.assertAlmostEqual(head["ci_low"], 0.5716504419378943, delta=1e-9)
        self.assertAlmostEqual(head["ci_high"], 0.8389198375233267, delta=1e-9)
        self.assertEqual((sec["k"], sec["n"]), (29, 37))
        self.assertAlmostEqual(sec["rate"], 29 / 37, delta=1e-15)
        self.assertAlmostEqual(sec["ci_low"], 0.6280485160803084, delta=1e-9)
        self.assertAlmostEqual(sec["ci_high"], 0.8861348800661442, delta=1e-9)
        self.assertEqual(report["findings"], [])
        self.assertEqual(report["inputs"], {"manifest_sha256": sha256_of(m), "runs_sha256": sha256_of(r)})
        self.assertIsInstance(report["strata"], (list, dict))

    def test_json_agrees_with_text(self) -> None:
        manifest, records = valid_ledger(passes=17, fails=19, unscoreable=("env_flake", "grader_error"))
        manifest["dataset"]["strata"] = {"a": 20, "b": 18}
        records = with_strata(records, {"a": 20, "b": 18})
        records = self.replace(records, "t-030", outcome="PASS")
        _, out, _ = self.check(manifest, records)
        _, report = self.check_json(manifest, records)
        lines = out.splitlines()
        self.assertIn(f"verdict     : {report['verdict']}", lines)
        self.assertEqual(report["verdict"], "BLOCKED")
        ledger = report["ledger"]
        for label in ("entries", "exits"):
            self.assertIn(f"{label:<12}: {ledger[label]}", lines)
        for bucket in ("pass", "fail"):
            self.assertIn(f"  {bucket:<12}: {ledger[bucket]}", lines)
        head = report["headline"]
        self.assertIn(f"pass_rate   : {head['k']}/{head['n']} = {head['rate']:.3f}  95% CI "
                      f"[{head['ci_low']:.3f}, {head['ci_high']:.3f}]  <- headline", lines)
        sec = report["secondary"]
        self.assertIn(f"{sec['k']}/{sec['n']} = {sec['rate']:.3f}  95% CI [{sec['ci_low']:.3f}, {sec['ci_high']:.3f}]", out)
        for finding in report["findings"]:
            self.assertIn(f"  ! {finding['code']}: {finding['message']}", lines)
        self.assertEqual(sum(1 for line in lines if line.startswith("  ! ")), len(report["findings"]))
        self.assertIn(f"sha256 {report['inputs']['manifest_sha256']}", out)
        self.assertIn(f"sha256 {report['inputs']['runs_sha256']}", out)
        strata = report["strata"]
        entries = strata if isinstance(strata, list) else [{"name": k, **v} for k, v in strata.items()]
        names = {s["name"] for s in entries}
        self.assertEqual(names, {"a", "b"})
        for s in entries:
            rate = s["rate"]
            self.assertIn(f"  {s['name']:<12}: {rate['k']}/{rate['n']} = {rate['rate']:.3f}  95% CI "
                          f"[{rate['ci_low']:.3f}, {rate['ci_high']:.3f}]", lines)

    def test_finding_objects_have_code_and_message(self) -> None:
        manifest, records = valid_ledger()
        records = self.replace(records, "pos-01", outcome="fail")
        _, report = self.check_json(manifest, records)
        self.assertEqual(len(report["findings"]), 1)
        self.assertEqual(set(report["findings"][0]), {"code", "message"})
        self.assertEqual(report["findings"][0]["code"], "control_violated")
        self.assertTrue(report["findings"][0]["message"])

    def test_input_error_with_json_format_still_exits_2_on_stderr(self) -> None:
        manifest, records = valid_ledger()
        records[3]["attempt"] = "1"
        code, out, err = self.check(manifest, records, "--format", "json")
        self.assertEqual(out, "")
        self.assertInputError((code, out, err), "runs.jsonl:4:", "attempt")


#####################################################################
# 6. Statistics
#####################################################################


class Statistics(GateCase):
    def test_wilson_matches_statsmodels_reference(self) -> None:
        for k, n, low, high in WILSON_REFERENCE:
            with self.subTest(k=k, n=n):
                got_low, got_high = gate.wilson(k, n)
                self.assertAlmostEqual(got_low, low, delta=1e-9)
                self.assertAlmostEqual(got_high, high, delta=1e-9)

    def test_wilson_matches_newcombe_table_i(self) -> None:
        for k, n, published, statsmodels6 in NEWCOMBE_TABLE_I:
            with self.subTest(k=k, n=n):
                got = gate.wilson(k, n)
                for value, pub, sm in zip(got, published, statsmodels6):
                    self.assertLessEqual(abs(value - pub), 5e-5 + 1e-12)  # published to 4 decimals
                    self.assertLessEqual(abs(value - sm), 5e-7 + 1e-12)   # statsmodels to 6 decimals

    def test_z_is_exact_not_literal_1_96(self) -> None:
        ref_low, ref_high = 0.5716504419378943, 0.8389198375233267  # k=29, n=40 above
        lit_low, lit_high = wilson_closed_form(29, 40, 1.96)
        self.assertGreater(max(abs(lit_low - ref_low), abs(lit_high - ref_high)), 1e-6)  # the test can tell
        low, high = gate.wilson(29, 40)
        self.assertLess(abs(low - ref_low), 1e-9)
        self.assertLess(abs(high - ref_high), 1e-9)
        low90, high90 = gate.wilson(29, 40, 0.9)
        exp_low, exp_high = wilson_closed_form(29, 40, statistics.NormalDist().inv_cdf(0.95))
        self.assertAlmostEqual(low90, exp_low, delta=1e-12)
        self.assertAlmostEqual(high90, exp_high, delta=1e-12)

    def test_exact_bounds_at_the_edges(self) -> None:
        for confidence in (0.5, 0.8, 0.9, 0.95, 0.99, 0.999):
            for n in range(1, 301):
                low0, high0 = gate.wilson(0, n, confidence)
                lown, highn = gate.wilson(n, n, confidence)
                if low0 != 0.0 or highn != 1.0 or not (0.0 < high0 < 1.0) or not (0.0 < lown < 1.0):
                    self.fail(f"n={n} confidence={confidence}: k=0 -> {(low0, high0)}, k=n -> {(lown, highn)}")
                self.assertIs(type(low0), float)
                self.assertIs(type(highn), float)


#####################################################################
# 7. The digest subcommand
#####################################################################


class Digest(LedgerCase):
    def test_digest_of_runs(self) -> None:
        records = [record("t-b", "fail", attempt=1), record("t-a", "pass"), record("t-b", "pass", attempt=2),
                   record("täsk-ü", "pass"), record("T-c", "fail")]
        runs = self.write_jsonl("runs.jsonl", records)
        code, out, err = self.run_gate("digest", "--runs", str(runs))
        expected = hashlib.sha256("\n".join(sorted({"t-b", "t-a", "täsk-ü", "T-c"})).encode("utf-8")).hexdigest()
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, expected + "\n")
        self.assertRegex(out, r"\A[0-9a-f]{64}\n\Z")

    def test_digest_of_id_list(self) -> None:
        ids = self.write_text("ids.txt", b"t-b\r\n\r\nt-a\r\nt-c\n\n  \nt-b\n")
        code, out, err = self.run_gate("digest", "--ids", str(ids))
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, hashlib.sha256(b"t-a\nt-b\nt-c").hexdigest() + "\n")

    def test_digest_fills_the_manifest(self) -> None:
        manifest, records = valid_ledger(with_ids=False)
        manifest["dataset"]["task_ids_sha256"] = "replace-with-digest-from-gate"
        self.blocked(manifest, records, "dataset_digest_mismatch")
        runs = self.write_jsonl("runs.jsonl", records)
        _, from_runs, _ = self.run_gate("digest", "--runs", str(runs))
        ids = self.write_text("ids.txt", "\n".join(r["task_id"] for r in records) + "\n")
        _, from_ids, _ = self.run_gate("digest", "--ids", str(ids))
        self.assertEqual(from_runs, from_ids)
        manifest["dataset"]["task_ids_sha256"] = from_runs.strip()
        self.publishable(manifest, records)

    def test_digest_input_errors(self) -> None:
        self.assertInputError(self.run_gate("digest", "--runs", str(self.dir / "nope.jsonl")), "nope.jsonl")
        bad = self.write_text("runs.jsonl", '{"run_id": "r1", "task_id": "a", "attempt": 1, "outcome": "pass"}\n[1]\n')
        self.assertInputError(self.run_gate("digest", "--runs", str(bad)), "runs.jsonl:2:")
        self.assertInputError(self.run_gate("digest"), "digest")


#####################################################################
# 8. The command line
#####################################################################


class CommandLine(LedgerCase):
    def test_implicit_check_equals_check(self) -> None:
        manifest, records = valid_ledger()
        records = self.replace(records, "t-002", wall_clock_s=901)
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_jsonl("runs.jsonl", records)
        for fmt in ("text", "json"):
            with self.subTest(format=fmt):
                implicit = self.run_gate("--manifest", str(m), "--runs", str(r), "--format", fmt)
                explicit = self.run_gate("check", "--manifest", str(m), "--runs", str(r), "--format", fmt)
                self.assertEqual(implicit, explicit)
                self.assertEqual(implicit[0], 1)
        implicit = run_cli("--manifest", str(m), "--runs", str(r))
        explicit = run_cli("check", "--manifest", str(m), "--runs", str(r))
        self.assertEqual((implicit.returncode, implicit.stdout, implicit.stderr),
                         (explicit.returncode, explicit.stdout, explicit.stderr))
        self.assertEqual(implicit.returncode, 1)
        self.assertIn("verdict     : BLOCKED", implicit.stdout)

    def test_real_exit_code_2(self) -> None:
        manifest, records = valid_ledger()
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_jsonl("runs.jsonl", records)
        # exit 0 and exit 1 as real processes: test_shipped_example_is_publishable, test_implicit_check_equals_check
        self.write_text("runs.jsonl", '{"run_id": "r1", "task_id": "t-1", "attempt": true}\n')
        bad = run_cli("--manifest", str(m), "--runs", str(r))
        self.assertEqual(bad.returncode, 2)
        self.assertEqual(bad.stdout, "")
        self.assertNotIn("Traceback", bad.stderr)
        self.assertRegex(bad.stderr, r"\Agate: error: .*runs\.jsonl:1: .*attempt.*\n\Z")

    def test_shipped_example_is_publishable(self) -> None:
        m, r = ROOT / "bench.manifest.json", ROOT / "runs.jsonl"
        before = (m.read_bytes(), r.read_bytes())
        result = run_cli("--manifest", "bench.manifest.json", "--runs", "runs.jsonl", cwd=ROOT)
        self.assertEqual((result.returncode, result.stderr), (0, ""))
        self.assertIn("verdict     : PUBLISHABLE", result.stdout)
        code, out, err = self.run_gate("--manifest", str(m), "--runs", str(r), "--format", "json")
        self.assertEqual((code, err), (0, ""))
        report = json.loads(out)
        roles = {c["role"] for c in json.loads(m.read_text(encoding="utf-8"))["controls"]}
        self.assertTrue({"negative", "positive"} <= roles)
        self.assertGreaterEqual(len(report["ledger"]["unscoreable_reasons"]), 2)
        self.assertEqual(before, (m.read_bytes(), r.read_bytes()))

    def test_version(self) -> None:
        code, out, err = self.run_gate("--version")
        self.assertEqual(code, 0)
        self.assertRegex(out + err, r"\d+\.\d+\.\d+")

    def test_help_documents_exit_codes_and_ends_with_an_example(self) -> None:
        code, out, _ = self.run_gate("--help")
        self.assertEqual(code, 0)
        for digit, word in (("0", "PUBLISHABLE"), ("1", "BLOCKED"), ("2", "error")):
            self.assertRegex(out, rf"(?m)^\s*{digit}\b.*{word}")
        heading = max(m.end() for m in re.finditer(r"(?im)^\s*examples?:\s*$", out))
        tail = [line.strip() for line in out[heading:].splitlines() if line.strip()]
        self.assertTrue(tail, out)
        self.assertTrue(tail[0].startswith("python3 gate.py"), tail)
        for previous, line in zip(tail, tail[1:]):
            self.assertTrue(line.startswith("python3 gate.py") or previous.endswith("\\"), (previous, line))

    def test_no_arguments_is_a_usage_error(self) -> None:
        code, out, err = self.run_gate()
        self.assertEqual((code, out), (2, ""))
        self.assertNotIn("Traceback", err)
        self.assertIn("usage", err.lower())

    def test_unknown_option_is_one_line(self) -> None:
        manifest, records = valid_ledger()
        self.assertInputError(self.check(manifest, records, "--bogus"), "--bogus")
        self.assertInputError(self.run_gate("--bogus"))
        self.assertInputError(self.run_gate("check", "--bogus"))
        self.assertInputError(self.check(manifest, records, "--format", "xml"), "--format")
        self.assertInputError(self.run_gate("check", "--runs", str(self.dir / "r.jsonl")), "--manifest")

    def test_gate_never_writes_to_its_inputs(self) -> None:
        manifest, records = valid_ledger()
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_jsonl("runs.jsonl", records)
        past = 1_600_000_000_000_000_000
        for path in (m, r):
            os.utime(path, ns=(past, past))
        before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in (m, r)}
        listing = sorted(os.listdir(self.dir))
        for fmt in ("text", "json"):
            self.run_gate("--manifest", str(m), "--runs", str(r), "--format", fmt)
        self.run_gate("digest", "--runs", str(r))
        self.assertEqual(before, {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in (m, r)})
        self.assertEqual(listing, sorted(os.listdir(self.dir)))


#####################################################################
# 9. Streaming and memory
#####################################################################


class Streaming(LedgerCase):
    def setUp(self) -> None:
        super().setUp()
        self._saved = (gate._CHUNK_BYTES, gate.MAX_LINE_BYTES)

    def tearDown(self) -> None:
        gate._CHUNK_BYTES, gate.MAX_LINE_BYTES = self._saved
        super().tearDown()

    def test_line_numbers_across_chunk_boundaries(self) -> None:
        rows = []
        for i in range(60):
            rows.append(json.dumps({"i": i, "name": "tâche-é-✓" * (i % 5), "pad": "x" * (i * 7 % 50)},
                                   ensure_ascii=False))
            if i % 7 == 0:
                rows.append("")
            if i % 11 == 0:
                rows.append("  \t")
        text = ""
        for index, row in enumerate(rows):
            text += row + ("\r\n" if index % 3 == 0 else "\n")
        text = text.rstrip("\n")  # no newline at the very end
        data = text.encode("utf-8")
        path = self.write_text("runs.jsonl", data)
        expected = [(number, json.loads(line)) for number, line in enumerate(text.split("\n"), 1) if line.strip()]
        self.assertEqual(len(expected), 60)
        for chunk in (1, 2, 3, 5, 7, 16, 64, 100, 1 << 22):
            with self.subTest(chunk=chunk):
                gate._CHUNK_BYTES = chunk
                hasher = hashlib.sha256()
                self.assertEqual(list(gate.iter_jsonl(path, hasher)), expected)
                self.assertEqual(hasher.hexdigest(), hashlib.sha256(data).hexdigest())

    def test_reader_is_lazy(self) -> None:
        gate._CHUNK_BYTES = 64
        lines = [json.dumps({"i": i}) for i in range(2000)] + ["{broken"]
        path = self.write_text("runs.jsonl", "\n".join(lines) + "\n")
        iterator = gate.iter_jsonl(path)
        self.assertEqual(next(iterator), (1, {"i": 0}))
        with self.assertRaises(gate.GateError) as caught:
            list(iterator)
        self.assertIn("runs.jsonl:2001:", str(caught.exception))

    def test_memory_stays_at_one_chunk(self) -> None:
        gate._CHUNK_BYTES = 1 << 11
        line = json.dumps(record("t-000", "fail", wall_clock_s=12.5, note="y" * 120)) + "\n"
        path = self.write_text("runs.jsonl", line * 1000)  # about 240 kB; read whole and parsed it is over 1 MB
        size = path.stat().st_size
        tracemalloc.start()
        try:
            count = sum(1 for _ in gate.iter_jsonl(path))
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        self.assertEqual(count, 1000)
        self.assertLess(peak, size // 8, f"peak {peak} bytes while reading {size} bytes")

    def test_whole_check_is_the_same_with_tiny_chunks(self) -> None:
        manifest, records = valid_ledger()
        records = self.replace(records, "t-004", outcome="PASS")
        default = self.check(manifest, records, "--format", "json")
        gate._CHUNK_BYTES = 5
        self.assertEqual(self.check(manifest, records, "--format", "json"), default)
        self.assertEqual(default[0], 1)

    def test_overlong_line_is_refused_with_its_number(self) -> None:
        gate._CHUNK_BYTES, gate.MAX_LINE_BYTES = 64, 256
        manifest, records = valid_ledger()
        m = self.write_json("bench.manifest.json", manifest)
        lines = [json.dumps(r) for r in records]
        self.assertTrue(all(len(x) < 256 for x in lines))
        long_line = json.dumps({**records[2], "note": "z" * 1000})
        data = "\n".join([*lines[:2], long_line, *lines[3:]]) + "\n"
        r = self.write_text("runs.jsonl", data)
        self.assertInputError(self.run_gate("--manifest", str(m), "--runs", str(r)), "runs.jsonl:3:")
        # a line of exactly MAX_LINE_BYTES is still fine
        base = json.dumps({**records[2], "note": ""})
        exact = json.dumps({**records[2], "note": "z" * (256 - len(base))})
        self.assertEqual(len(exact.encode()), 256)
        self.write_text("runs.jsonl", "\n".join([*lines[:2], exact, *lines[3:]]) + "\n")
        code, _, err = self.run_gate("--manifest", str(m), "--runs", str(r))
        self.assertEqual((code, err), (0, ""))
