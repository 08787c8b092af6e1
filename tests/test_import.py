"""`gate.py import`: SWE-bench, Inspect AI and Terminal-Bench results into runs.jsonl (issue 5).

Every expected value is derived in the test from the fixture JSON itself (list membership, score
values, trial names), never by calling the importer's own helpers.
"""

from __future__ import annotations

import copy
import json
import re
import sys
import unittest
import zipfile
from collections import Counter
from pathlib import Path
from typing import Any
from unittest import mock

from tests.support import FIXTURES, GateCase, ids_digest, run_cli

SWE = FIXTURES / "swebench"
INSPECT = FIXTURES / "inspect"
TBENCH = FIXTURES / "terminal-bench"

SWE_REPORT = SWE / "report-v2-synthetic.json"
SWE_SHORT = SWE / "report-v2-short-synthetic.json"
SWE_SHORT_IDS = SWE / "report-v2-short-dataset-ids.txt"
SWE_EXP = SWE / "experiments-results.json"
SWE_EXP_SYN = SWE / "experiments-results-synthetic.json"
SWE_IDS = SWE / "verified-dataset-ids.txt"
INS_OK = INSPECT / "tiny-success.json"
INS_ERR = INSPECT / "tiny-err-status-error.json"
INS_CANCEL = INSPECT / "synthetic-cancelled.json"
INS_ZSTD = INSPECT / "tiny-success.eval"
INS_DEFLATE = INSPECT / "tiny-success-deflate.eval"
TB_RESULTS = TBENCH / "results.json"
TB_SYN = TBENCH / "results-synthetic.json"
TB_META = TBENCH / "run_metadata-synthetic.json"

SWE_PRIMARY = ("resolved_ids", "unresolved_ids", "empty_patch_ids", "error_ids", "incomplete_ids")
TRIAL = re.compile(r"^(.+)\.([0-9]+)-of-([0-9]+)$")
# The Terminal-Bench table, written out again on purpose.
TB_NULL_TABLE = {"test_timeout": "harness_timeout", "parse_error": "grader_error",
                 "unknown_agent_error": "env_flake", "agent_installation_failed": "env_flake"}


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def id_lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def keyed(records: list[dict[str, Any]]) -> dict[tuple[str, int], dict[str, Any]]:
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for rec in records:
        key = (rec["task_id"], rec["attempt"])
        assert key not in out, f"duplicate record {key}"
        out[key] = rec
    return out


def tb_trials(data: dict[str, Any]) -> dict[tuple[str, int], dict[str, Any]]:
    """(task_id, N) -> trial, N parsed from trial_name independently of the importer."""
    out = {}
    for trial in data["results"]:
        match = TRIAL.match(trial["trial_name"])
        assert match is not None, trial["trial_name"]
        out[(trial["task_id"], int(match.group(2)))] = trial
    return out


def inspect_samples(data: dict[str, Any]) -> dict[tuple[str, int], dict[str, Any]]:
    return {(str(s["id"]), s["epoch"]): s for s in data["samples"]}


class ImportCase(GateCase):
    def imp(self, fmt: str, *args: str) -> list[dict[str, Any]]:
        """Import to standard output; the JSONL lines, parsed."""
        code, out, err = self.run_gate("import", fmt, *args)
        self.assertEqual(code, 0, err)
        self.assertNotIn("Traceback", err)
        self.assertTrue(out.endswith("\n"), out[-200:])
        return [json.loads(line) for line in out.splitlines()]

    def imp_files(self, fmt: str, *args: str, name: str = "imp") -> tuple[Path, Path, list[dict[str, Any]], dict[str, Any]]:
        """Import with -o and --draft-manifest; (runs path, draft path, records, draft)."""
        runs, draft = self.dir / f"{name}.runs.jsonl", self.dir / f"{name}.manifest.json"
        code, out, err = self.run_gate("import", fmt, *args, "-o", str(runs), "--draft-manifest", str(draft))
        self.assertEqual(code, 0, err)
        self.assertEqual(out, "", "with -o nothing goes to standard output")
        self.assertIn(str(runs), err)
        records = [json.loads(line) for line in runs.read_text(encoding="utf-8").splitlines()]
        return runs, draft, records, load(draft)

    def check_roundtrip(self, draft_path: Path, runs: Path, positive: str, negative: str,
                        drop: tuple[str, ...] = ()) -> tuple[int, dict[str, Any]]:
        """Complete the draft with controls only (as a user would) and run `check`."""
        manifest = load(draft_path)
        self.assertEqual(manifest["controls"], [], "the draft leaves controls to the user")
        manifest["controls"] = [
            {"task_id": positive, "expected": "pass", "role": "positive"},
            {"task_id": negative, "expected": "fail", "role": "negative"},
        ]
        for key in drop:
            del manifest[key]
        path = self.write_json("completed.manifest.json", manifest)
        code, out, err = self.run_gate("check", "--manifest", str(path), "--runs", str(runs), "--format", "json")
        self.assertIn(code, (0, 1), err)
        return code, json.loads(out)

    def assertOutcome(self, rec: dict[str, Any], outcome: str, reason: str | None) -> None:
        self.assertEqual((rec["outcome"], rec["reason"]), (outcome, reason), rec)


#####################################################################
# SWE-bench run report (schema_version 2)
#####################################################################


class SwebenchReportTest(ImportCase):
    def setUp(self) -> None:
        super().setUp()
        self.report = load(SWE_REPORT)
        self.records = {r["task_id"]: r for r in self.imp("swebench", str(SWE_REPORT))}

    def ids(self, *include: str, exclude: tuple[str, ...] = ()) -> set[str]:
        chosen = set.intersection(*(set(self.report[k]) for k in include))
        for key in exclude:
            chosen -= set(self.report.get(key, []))
        self.assertTrue(chosen, f"fixture precondition: some id in {include} but not {exclude}")
        return chosen

    def test_resolved_is_pass(self) -> None:
        for tid in self.ids("resolved_ids"):
            self.assertOutcome(self.records[tid], "pass", None)

    def test_unresolved_is_fail(self) -> None:
        for tid in self.ids("unresolved_ids", exclude=("infra_failure_ids", "ambiguous_failure_ids")):
            self.assertOutcome(self.records[tid], "fail", None)

    def test_empty_patch_is_fail(self) -> None:
        for tid in self.ids("empty_patch_ids"):
            self.assertOutcome(self.records[tid], "fail", None)

    def test_infra_failure_is_env_flake_for_unresolved_and_error(self) -> None:
        for tid in self.ids("infra_failure_ids", "unresolved_ids"):
            self.assertOutcome(self.records[tid], "unscoreable", "env_flake")
        for tid in self.ids("infra_failure_ids", "error_ids"):
            self.assertOutcome(self.records[tid], "unscoreable", "env_flake")

    def test_plain_error_is_grader_error(self) -> None:
        for tid in self.ids("error_ids", exclude=("infra_failure_ids", "ambiguous_failure_ids")):
            self.assertNotEqual(self.report["failure_reasons"].get(tid), "tests_timed_out")
            self.assertOutcome(self.records[tid], "unscoreable", "grader_error")

    def test_error_with_tests_timed_out_is_harness_timeout(self) -> None:
        timed_out = {t for t, why in self.report["failure_reasons"].items() if why == "tests_timed_out"}
        chosen = (timed_out & set(self.report["error_ids"])) - set(self.report["infra_failure_ids"])
        self.assertTrue(chosen, "fixture precondition")
        for tid in chosen:
            self.assertOutcome(self.records[tid], "unscoreable", "harness_timeout")

    def test_incomplete_is_missing_artifact(self) -> None:
        for tid in self.ids("incomplete_ids"):
            self.assertOutcome(self.records[tid], "unscoreable", "missing_artifact")

    def test_ambiguous_failure_keeps_its_base_outcome(self) -> None:
        # ambiguous + unresolved (no_tests_collected): still a plain fail
        for tid in self.ids("ambiguous_failure_ids", "unresolved_ids", exclude=("infra_failure_ids",)):
            self.assertOutcome(self.records[tid], "fail", None)
        # ambiguous + error with a non-timeout reason: still grader_error (variant of the fixture)
        variant = copy.deepcopy(self.report)
        tid = sorted(set(variant["ambiguous_failure_ids"]) & set(variant["error_ids"]))[0]
        variant["failure_reasons"][tid] = "no_tests_collected"
        path = self.write_json("ambiguous-error.json", variant)
        rec = {r["task_id"]: r for r in self.imp("swebench", str(path))}[tid]
        self.assertOutcome(rec, "unscoreable", "grader_error")

    def test_every_dataset_id_exactly_once(self) -> None:
        code, out, err = self.run_gate("import", "swebench", str(SWE_REPORT))
        self.assertEqual(code, 0, err)
        counts = Counter(json.loads(line)["task_id"] for line in out.splitlines())
        declared = set().union(*(self.report[k] for k in SWE_PRIMARY))
        self.assertEqual(len(declared), self.report["total_instances"])
        self.assertEqual(set(counts), declared)
        self.assertEqual(set(counts.values()), {1})

    def test_hand_merged_report_still_gives_one_record_per_id(self) -> None:
        variant = copy.deepcopy(self.report)
        tid = variant["resolved_ids"][0]
        variant["unresolved_ids"].append(tid)
        variant["unresolved_instances"] += 1
        path = self.write_json("merged.json", variant)
        records = self.imp("swebench", str(path))
        self.assertEqual([r["task_id"] for r in records].count(tid), 1)
        self.assertEqual(len(records), variant["total_instances"])

    def test_harness_fields_kept(self) -> None:
        list_keys = [k for k, v in self.report.items() if k.endswith("_ids") and isinstance(v, list)]
        for tid, rec in self.records.items():
            harness = rec["harness"]
            self.assertEqual(harness["instance_id"], tid)
            member = {k for k in list_keys if tid in self.report[k]}
            self.assertIn(harness["status_list"], member & set(SWE_PRIMARY))
            self.assertTrue(set(harness["lists"]) <= member, (harness["lists"], member))
            self.assertTrue(member - {"submitted_ids"} <= set(harness["lists"]), (harness["lists"], member))
            self.assertEqual(harness.get("failure_reason"), self.report["failure_reasons"].get(tid))
            self.assertEqual(rec["attempt"], 1)

    def test_short_report_without_dataset_ids_exits_2(self) -> None:
        short = load(SWE_SHORT)
        visible = set().union(*(short[k] for k in SWE_PRIMARY))
        self.assertGreater(short["total_instances"], len(visible), "fixture precondition")
        self.assertInputError(self.run_gate("import", "swebench", str(SWE_SHORT)), str(SWE_SHORT), "--dataset-ids")

    def test_short_report_with_dataset_ids_unlisted_are_missing_artifact(self) -> None:
        short = load(SWE_SHORT)
        declared = id_lines(SWE_SHORT_IDS)
        visible = set().union(*(short[k] for k in SWE_PRIMARY))
        unlisted = set(declared) - visible
        self.assertEqual(len(unlisted), short["total_instances"] - len(visible))
        _runs, _draft_path, records, draft = self.imp_files("swebench", str(SWE_SHORT), "--dataset-ids", str(SWE_SHORT_IDS))
        by_id = {r["task_id"]: r for r in records}
        self.assertEqual(len(records), len(declared))
        self.assertEqual(set(by_id), set(declared))
        for tid in unlisted:
            self.assertOutcome(by_id[tid], "unscoreable", "missing_artifact")
        # the draft names the declared 12, not the 10 the report lists
        self.assertEqual(draft["dataset"]["task_count"], len(declared))
        self.assertEqual(draft["dataset"]["task_ids"], sorted(declared))
        self.assertEqual(draft["dataset"]["task_ids_sha256"], ids_digest(declared))

    def test_roundtrip_publishable(self) -> None:
        runs, draft_path, _records, draft = self.imp_files("swebench", str(SWE_REPORT))
        self.assertEqual(draft["dataset"]["task_count"], self.report["total_instances"])
        positive = sorted(self.report["resolved_ids"])[0]
        negative = sorted(set(self.report["unresolved_ids"]) - set(self.report["infra_failure_ids"]))[0]
        code, report = self.check_roundtrip(draft_path, runs, positive, negative)
        self.assertEqual(report["verdict"], "PUBLISHABLE", report["findings"])
        self.assertEqual(code, 0)
        self.assertEqual(report["headline"]["k"], len(self.report["resolved_ids"]))
        self.assertEqual(report["headline"]["n"], self.report["total_instances"])
        # unscoreable tasks by reason, from the lists: incomplete, infra, errors split by timeout
        infra, errors = set(self.report["infra_failure_ids"]), set(self.report["error_ids"])
        timed_out = {t for t in errors - infra if self.report["failure_reasons"].get(t) == "tests_timed_out"}
        expected = Counter({"missing_artifact": len(self.report["incomplete_ids"]), "env_flake": len(infra),
                            "harness_timeout": len(timed_out), "grader_error": len(errors - infra - timed_out)})
        self.assertEqual(report["ledger"]["unscoreable_reasons"], {k: v for k, v in expected.items() if v})


#####################################################################
# SWE-bench experiments results.json
#####################################################################


class SwebenchExperimentsTest(ImportCase):
    def test_mapping_rows(self) -> None:
        data, declared = load(SWE_EXP_SYN), id_lines(SWE_IDS)
        by_id = {r["task_id"]: r for r in self.imp("swebench", str(SWE_EXP_SYN), "--dataset-ids", str(SWE_IDS))}
        self.assertEqual(len(by_id), len(declared))
        self.assertEqual(set(by_id), set(declared))
        for key in ("resolved", "no_generation", "no_logs"):
            self.assertTrue(data[key], f"fixture precondition: {key} not empty")
        for tid in data["resolved"]:
            self.assertOutcome(by_id[tid], "pass", None)
        for tid in data["no_generation"]:
            self.assertOutcome(by_id[tid], "fail", None)
        for tid in data["no_logs"]:
            self.assertOutcome(by_id[tid], "unscoreable", "missing_artifact")
        implicit = set(declared) - set(data["resolved"]) - set(data["no_generation"]) - set(data["no_logs"])
        self.assertTrue(implicit)
        for tid in implicit:
            self.assertOutcome(by_id[tid], "fail", None)
        for tid, rec in by_id.items():
            self.assertEqual(rec["harness"]["instance_id"], tid)
            listed = [k for k in ("resolved", "no_generation", "no_logs") if tid in data[k]]
            if listed:
                self.assertEqual(rec["harness"]["status_list"], listed[0])

    def test_without_dataset_ids_exits_2_naming_the_option(self) -> None:
        self.assertInputError(self.run_gate("import", "swebench", str(SWE_EXP)), str(SWE_EXP), "--dataset-ids")

    def test_id_outside_dataset_ids_is_refused(self) -> None:
        data = load(SWE_EXP)
        data["resolved"].append("not__a-real-instance-1")
        path = self.write_json("stray.json", data)
        self.assertInputError(self.run_gate("import", "swebench", str(path), "--dataset-ids", str(SWE_IDS)),
                              str(path), "not__a-real-instance-1")

    def test_roundtrip_headline_is_resolved_over_dataset(self) -> None:
        data, declared = load(SWE_EXP), id_lines(SWE_IDS)
        runs, draft_path, _records, draft = self.imp_files("swebench", str(SWE_EXP), "--dataset-ids", str(SWE_IDS))
        self.assertEqual(draft["dataset"]["task_count"], len(declared))
        self.assertEqual(draft["dataset"]["task_ids"], sorted(declared))
        self.assertEqual(draft["dataset"]["task_ids_sha256"], ids_digest(declared))
        positive = sorted(data["resolved"])[0]
        negative = sorted(set(declared) - set(data["resolved"]))[0]
        _code, report = self.check_roundtrip(draft_path, runs, positive, negative)
        self.assertEqual(report["verdict"], "PUBLISHABLE", report["findings"])
        self.assertEqual(report["ledger"]["entries"], len(declared))
        self.assertEqual(report["headline"]["k"], len(set(data["resolved"])))
        self.assertEqual(report["headline"]["n"], len(declared))


#####################################################################
# Inspect AI
#####################################################################


class InspectTest(ImportCase):
    def test_success_log_C_pass_I_fail_and_six_of_ten(self) -> None:
        data = load(INS_OK)
        samples = inspect_samples(data)
        recs = keyed(self.imp("inspect", str(INS_OK)))
        self.assertEqual(set(recs), set(samples))
        values: Counter[str] = Counter()
        for key, sample in samples.items():
            value = sample["scores"]["match"]["value"]
            values[value] += 1
            self.assertOutcome(recs[key], {"C": "pass", "I": "fail"}[value], None)
        self.assertEqual(values["C"], 6)
        self.assertEqual(sum(r["outcome"] == "pass" for r in recs.values()), 6)
        self.assertEqual(len(recs), 10)

    def test_N_is_fail(self) -> None:
        samples = inspect_samples(load(INS_CANCEL))
        keys = [k for k, s in samples.items() if s.get("scores", {}).get("match", {}).get("value") == "N"]
        self.assertTrue(keys, "fixture precondition")
        recs = keyed(self.imp("inspect", str(INS_CANCEL)))
        for key in keys:
            self.assertOutcome(recs[key], "fail", None)

    def test_P_fails_by_default_and_passes_with_partial_as_pass(self) -> None:
        samples = inspect_samples(load(INS_CANCEL))
        keys = [k for k, s in samples.items() if s.get("scores", {}).get("match", {}).get("value") == "P"]
        self.assertTrue(keys, "fixture precondition")
        default = keyed(self.imp("inspect", str(INS_CANCEL)))
        explicit = keyed(self.imp("inspect", str(INS_CANCEL), "--partial-as", "fail"))
        lenient = keyed(self.imp("inspect", str(INS_CANCEL), "--partial-as", "pass"))
        for key in keys:
            self.assertOutcome(default[key], "fail", None)
            self.assertOutcome(explicit[key], "fail", None)
            self.assertOutcome(lenient[key], "pass", None)
        # nothing else moves
        for key in set(default) - set(keys):
            self.assertEqual(default[key]["outcome"], lenient[key]["outcome"], key)

    def test_numeric_score_against_threshold(self) -> None:
        samples = inspect_samples(load(INS_CANCEL))
        numeric = {k: s["scores"]["match"]["value"] for k, s in samples.items()
                   if isinstance(s.get("scores", {}).get("match", {}).get("value"), float)}
        self.assertTrue(numeric, "fixture precondition")
        for key, value in numeric.items():
            self.assertLess(value, 1.0)
            for threshold, outcome in ((None, "fail"), (value, "pass"), (value - 0.05, "pass"), (value + 0.05, "fail")):
                extra = () if threshold is None else ("--threshold", repr(threshold))
                rec = keyed(self.imp("inspect", str(INS_CANCEL), *extra))[key]
                self.assertOutcome(rec, outcome, None)
                self.assertEqual(rec["harness"]["score_value"], value)

    def test_sample_error_timeout_is_harness_timeout(self) -> None:
        samples = inspect_samples(load(INS_CANCEL))
        keys = [k for k, s in samples.items() if s.get("error") and "TimeoutError" in s["error"]["traceback"]]
        self.assertTrue(keys, "fixture precondition")
        recs = keyed(self.imp("inspect", str(INS_CANCEL)))
        for key in keys:
            self.assertOutcome(recs[key], "unscoreable", "harness_timeout")

    def test_sample_error_otherwise_is_env_flake(self) -> None:
        data = load(INS_ERR)
        keys = [k for k, s in inspect_samples(data).items() if s.get("error")]
        self.assertTrue(keys, "fixture precondition")
        recs = keyed(self.imp("inspect", str(INS_ERR)))
        for key in keys:
            self.assertNotIn("Timeout", inspect_samples(data)[key]["error"]["message"])
            self.assertOutcome(recs[key], "unscoreable", "env_flake")
            self.assertTrue(inspect_samples(data)[key]["error"]["message"].startswith(recs[key]["harness"]["error"]))

    def test_cancelled_is_a_declared_extra_reason_class(self) -> None:
        samples = inspect_samples(load(INS_CANCEL))
        keys = [k for k, s in samples.items() if s.get("error") and s["error"]["message"].startswith("CancelledError")]
        self.assertTrue(keys, "fixture precondition")
        runs, draft_path, records, draft = self.imp_files("inspect", str(INS_CANCEL))
        recs = keyed(records)
        for key in keys:
            self.assertOutcome(recs[key], "unscoreable", "cancelled")
        self.assertIn("cancelled", draft["reason_classes"])
        # check: the declared class makes the cancelled attempt coded; without it, it is not
        _, report = self.check_roundtrip(draft_path, runs, "1", "2")
        codes = [f["code"] for f in report["findings"]]
        self.assertNotIn("uncoded_unscoreable", codes)
        _, report = self.check_roundtrip(draft_path, runs, "1", "2", drop=("reason_classes",))
        self.assertIn("uncoded_unscoreable", [f["code"] for f in report["findings"]])

    def test_declared_sample_epoch_absent_is_missing_artifact(self) -> None:
        data = load(INS_CANCEL)
        declared = {(str(i), e) for i in data["eval"]["dataset"]["sample_ids"]
                    for e in range(1, data["eval"]["config"]["epochs"] + 1)}
        absent = declared - set(inspect_samples(data))
        self.assertTrue(absent, "fixture precondition")
        recs = keyed(self.imp("inspect", str(INS_CANCEL)))
        self.assertEqual(set(recs), declared)
        for key in absent:
            self.assertOutcome(recs[key], "unscoreable", "missing_artifact")

    def test_error_status_log_yields_every_declared_sample_epoch(self) -> None:
        data = load(INS_ERR)
        self.assertEqual(data["status"], "error")
        declared = {(str(i), e) for i in data["eval"]["dataset"]["sample_ids"]
                    for e in range(1, data["eval"]["config"]["epochs"] + 1)}
        self.assertEqual(len(declared), 10)
        recs = keyed(self.imp("inspect", str(INS_ERR)))
        self.assertEqual(set(recs), declared)
        errored = {k for k, s in inspect_samples(data).items() if s.get("error")}
        self.assertEqual({k for k, r in recs.items() if r["outcome"] == "unscoreable"}, errored)
        for rec in recs.values():
            self.assertEqual(rec["harness"]["log_status"], "error")

    def test_started_log_without_samples_is_all_missing_artifact(self) -> None:
        data = load(INS_OK)
        data["status"] = "started"
        data.pop("results")
        data["samples"] = []
        path = self.write_json("started.json", data)
        recs = self.imp("inspect", str(path))
        expected = len(data["eval"]["dataset"]["sample_ids"]) * data["eval"]["config"]["epochs"]
        self.assertEqual(len(recs), expected)
        for rec in recs:
            self.assertOutcome(rec, "unscoreable", "missing_artifact")

    def test_attempt_is_epoch_and_harness_ids_kept(self) -> None:
        for path in (INS_OK, INS_ERR, INS_CANCEL):
            data = load(path)
            samples = inspect_samples(data)
            for rec in self.imp("inspect", str(path)):
                self.assertEqual(rec["attempt"], rec["harness"]["epoch"])
                self.assertEqual(rec["run_id"], data["eval"]["run_id"])
                self.assertEqual(rec["harness"]["log_status"], data["status"])
                sample = samples.get((rec["task_id"], rec["attempt"]))
                if sample is None:
                    continue
                self.assertEqual(rec["harness"]["sample_id"], sample["id"])
                self.assertEqual(rec["harness"]["uuid"], sample["uuid"])
                if "match" in sample.get("scores", {}):
                    self.assertEqual(rec["harness"]["score_value"], sample["scores"]["match"]["value"])

    def test_draft_is_samples_mode_with_epochs_budget(self) -> None:
        data = load(INS_OK)
        _runs, _draft_path, _records, draft = self.imp_files("inspect", str(INS_OK))
        self.assertEqual(draft["attempt_mode"], "samples")
        self.assertEqual(draft["attempt_budget"], data["eval"]["config"]["epochs"])
        ids = [str(i) for i in data["eval"]["dataset"]["sample_ids"]]
        self.assertEqual(draft["dataset"]["task_count"], len(ids))
        self.assertEqual(draft["dataset"]["task_ids"], sorted(ids))
        self.assertEqual(draft["dataset"]["task_ids_sha256"], ids_digest(ids))

    def test_draft_names_a_declared_sample_that_never_ran(self) -> None:
        data = load(INS_OK)
        gone = str(data["eval"]["dataset"]["sample_ids"][-1])
        data["samples"] = [s for s in data["samples"] if str(s["id"]) != gone]
        data["status"] = "error"
        data.pop("results")
        path = self.write_json("sample-absent.json", data)
        _runs, _draft_path, records, draft = self.imp_files("inspect", str(path))
        ids = [str(i) for i in data["eval"]["dataset"]["sample_ids"]]
        self.assertIn(gone, draft["dataset"]["task_ids"])
        self.assertEqual(draft["dataset"]["task_count"], len(ids))
        self.assertEqual(draft["dataset"]["task_ids_sha256"], ids_digest(ids))
        absent = [r for r in records if r["task_id"] == gone]
        self.assertEqual(sorted(r["attempt"] for r in absent), list(range(1, data["eval"]["config"]["epochs"] + 1)))
        for rec in absent:
            self.assertOutcome(rec, "unscoreable", "missing_artifact")

    def test_roundtrip_success_log_publishable(self) -> None:
        data = load(INS_OK)
        samples = inspect_samples(data)
        epochs = data["eval"]["config"]["epochs"]
        ids = [str(i) for i in data["eval"]["dataset"]["sample_ids"]]
        values = {i: [samples[(i, e)]["scores"]["match"]["value"] for e in range(1, epochs + 1)] for i in ids}
        positive = next(i for i in ids if set(values[i]) == {"C"})
        negative = next(i for i in ids if "C" not in values[i])
        runs, draft_path, _records, _draft = self.imp_files("inspect", str(INS_OK))
        code, report = self.check_roundtrip(draft_path, runs, positive, negative)
        self.assertEqual(report["verdict"], "PUBLISHABLE", report["findings"])
        self.assertEqual(code, 0)
        passes = sum(v.count("C") for v in values.values())
        self.assertAlmostEqual(report["headline"]["rate"], passes / (len(ids) * epochs), places=12)
        self.assertEqual(report["headline"]["n"], len(ids))

    @unittest.skipIf(sys.version_info >= (3, 14), "Python >= 3.14 may read zstd zip members itself")
    def test_zstd_eval_refused_with_convert_command(self) -> None:
        with zipfile.ZipFile(INS_ZSTD) as archive:
            self.assertIn(93, {i.compress_type for i in archive.infolist()}, "fixture precondition: zstd members")
        result = self.run_gate("import", "inspect", str(INS_ZSTD))
        self.assertInputError(result, "inspect log convert --to json --output-dir", str(INS_ZSTD))

    @unittest.skipIf(sys.version_info >= (3, 14), "Python >= 3.14 may read zstd zip members itself")
    def test_zstd_eval_refused_real_command_line(self) -> None:
        proc = run_cli("import", "inspect", str(INS_ZSTD), "-o", str(self.dir / "runs.jsonl"))
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertEqual(proc.stdout, "")
        self.assertNotIn("Traceback", proc.stderr)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        self.assertIn("inspect log convert --to json --output-dir", proc.stderr)
        self.assertIn(str(INS_ZSTD), proc.stderr)
        self.assertFalse((self.dir / "runs.jsonl").exists())

    def test_deflate_eval_imports_like_the_json_log(self) -> None:
        def view(records: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
            return [(r["run_id"], r["task_id"], r["attempt"], r["outcome"], r["reason"], r["harness"].get("uuid"),
                     r["harness"].get("score_value")) for r in records]

        from_json = self.imp("inspect", str(INS_OK))
        from_eval = self.imp("inspect", str(INS_DEFLATE))
        self.assertEqual(len(from_eval), 10)
        self.assertEqual(view(from_eval), view(from_json))
        self.assertEqual(sum(r["outcome"] == "pass" for r in from_eval), 6)


#####################################################################
# Terminal-Bench
#####################################################################


class TerminalBenchTest(ImportCase):
    def test_resolved_true_pass_false_fail(self) -> None:
        trials = tb_trials(load(TB_RESULTS))
        recs = keyed(self.imp("terminal-bench", str(TB_RESULTS)))
        self.assertEqual(set(recs), set(trials))
        seen = set()
        for key, trial in trials.items():
            if trial["is_resolved"] is True:
                self.assertOutcome(recs[key], "pass", None)
            elif trial["is_resolved"] is False:
                self.assertOutcome(recs[key], "fail", None)
            seen.add(trial["is_resolved"])
        self.assertEqual(seen, {True, False, None})

    def test_null_by_failure_mode(self) -> None:
        covered = set()
        for path, extra in ((TB_RESULTS, ()), (TB_SYN, (str(TB_META),))):
            trials = tb_trials(load(path))
            recs = keyed(self.imp("terminal-bench", str(path), *extra))
            for key, trial in trials.items():
                if trial["is_resolved"] is None:
                    mode = trial["failure_mode"]
                    covered.add(mode)
                    self.assertOutcome(recs[key], "unscoreable", TB_NULL_TABLE.get(mode, "missing_artifact"))
        self.assertTrue(set(TB_NULL_TABLE) <= covered, covered)
        self.assertTrue(covered - set(TB_NULL_TABLE), "fixture precondition: an 'otherwise' failure_mode")

    def test_null_with_unknown_failure_mode_is_missing_artifact(self) -> None:
        data = load(TB_RESULTS)
        trial = next(t for t in data["results"] if t["is_resolved"] is None)
        trial["failure_mode"] = "some_future_mode"
        path = self.write_json("results.json", data)
        match = TRIAL.match(trial["trial_name"])
        assert match is not None
        rec = keyed(self.imp("terminal-bench", str(path)))[(trial["task_id"], int(match.group(2)))]
        self.assertOutcome(rec, "unscoreable", "missing_artifact")
        self.assertEqual(rec["harness"]["failure_mode"], "some_future_mode")

    def test_absent_trials_and_never_started_task_are_missing_artifact(self) -> None:
        meta, trials = load(TB_META), tb_trials(load(TB_SYN))
        budget = meta["n_attempts"]
        _runs, _draft_path, records, draft = self.imp_files("terminal-bench", str(TB_SYN), str(TB_META))
        recs = keyed(records)
        declared = {(t, n) for t in meta["task_ids"] for n in range(1, budget + 1)}
        self.assertEqual(set(recs), declared)
        absent = declared - set(trials)
        self.assertIn(("never-started-task", 1), absent)
        self.assertIn(("grid-pattern-transform", 3), absent)
        for key in absent:
            self.assertOutcome(recs[key], "unscoreable", "missing_artifact")
        # the draft is the declared dataset, including the task with no trial at all
        self.assertIn("never-started-task", draft["dataset"]["task_ids"])
        self.assertEqual(draft["dataset"]["task_count"], len(meta["task_ids"]))
        self.assertEqual(draft["dataset"]["task_ids_sha256"], ids_digest(meta["task_ids"]))
        self.assertEqual((draft["attempt_mode"], draft["attempt_budget"]), ("samples", budget))

    def test_attempt_from_trial_name_and_harness_fields_kept(self) -> None:
        data = load(TB_RESULTS)
        run_ids = {t["recording_path"].split("/")[0] for t in data["results"] if t.get("recording_path")}
        self.assertEqual(len(run_ids), 1)
        recs = keyed(self.imp("terminal-bench", str(TB_RESULTS)))
        for trial in data["results"]:
            match = TRIAL.match(trial["trial_name"])
            assert match is not None
            rec = recs[(trial["task_id"], int(match.group(2)))]
            harness = rec["harness"]
            self.assertEqual(harness["trial_name"], trial["trial_name"])
            self.assertEqual(harness["is_resolved"], trial["is_resolved"])
            self.assertEqual(harness["failure_mode"], trial["failure_mode"])
            self.assertEqual(harness["uuid"], trial["uuid"])
            self.assertEqual(rec["run_id"], next(iter(run_ids)))

    def test_failure_mode_kept_in_every_record(self) -> None:
        trials = tb_trials(load(TB_SYN))
        for rec in self.imp("terminal-bench", str(TB_SYN), str(TB_META)):
            trial = trials.get((rec["task_id"], rec["attempt"]))
            if trial is None:
                self.assertTrue(rec["harness"].get("absent"), rec)
            else:
                self.assertEqual(rec["harness"]["failure_mode"], trial["failure_mode"])

    def test_bad_trial_name_exits_2_naming_the_field(self) -> None:
        for bad in ("fix-git", "fix-git.1of5", "fix-git.6-of-5", "fix-git.0-of-5"):
            with self.subTest(trial_name=bad):
                data = load(TB_RESULTS)
                data["results"][0]["trial_name"] = bad
                path = self.write_json("bad-trial.json", data)
                self.assertInputError(self.run_gate("import", "terminal-bench", str(path)), str(path), "trial_name")

    def test_roundtrip_reproduces_stated_accuracy_and_pass_at_k(self) -> None:
        data = load(TB_RESULTS)
        trials = tb_trials(data)
        runs, draft_path, _records, _draft = self.imp_files("terminal-bench", str(TB_RESULTS))
        passes = Counter(t for (t, _), trial in trials.items() if trial["is_resolved"] is True)
        tasks = sorted({t for t, _ in trials})
        # choose controls as a test would: the most-passing task, a task that never passed
        positive = max(tasks, key=lambda t: (passes[t], t))
        negative = next(t for t in tasks if passes[t] == 0)
        code, report = self.check_roundtrip(draft_path, runs, positive, negative)
        # Independently: no task in the trimmed file passes every trial (so a positive control is
        # "mixed"), and every never-passing task has a null trial (so a negative one is inconclusive).
        budget = max(n for _, n in trials)
        self.assertTrue(all(passes[t] < budget for t in tasks))
        self.assertTrue(any(trials[(negative, n)]["is_resolved"] is None for n in range(1, budget + 1)))
        self.assertEqual(report["verdict"], "BLOCKED")
        self.assertEqual(code, 1)
        self.assertEqual(sorted(f["code"] for f in report["findings"]), ["control_inconclusive", "control_violated"])
        # the headline: samples-mode pass@1 over the full denominator is the file's own accuracy
        self.assertEqual(report["attempt_mode"], "samples")
        self.assertEqual(report["headline"]["name"], "pass@1")
        self.assertEqual(report["headline"]["n"], len(tasks))
        self.assertAlmostEqual(report["headline"]["rate"], data["accuracy"], places=12)
        self.assertAlmostEqual(report["headline"]["rate"], data["n_resolved"] / len(data["results"]), places=12)
        self.assertTrue(data["pass_at_k"])
        for k, value in data["pass_at_k"].items():
            self.assertIn(k, report["pass_at_k"])
            self.assertAlmostEqual(report["pass_at_k"][k], value, places=12, msg=f"pass@{k}")
        # task-level exits: a task is unscoreable only when none of its trials was scored
        all_null: Counter[str] = Counter()
        for t in tasks:
            modes = [trials[(t, n)] for n in range(1, budget + 1)]
            if all(m["is_resolved"] is None for m in modes):
                all_null[TB_NULL_TABLE.get(modes[-1]["failure_mode"], "missing_artifact")] += 1
        self.assertEqual(report["ledger"]["unscoreable"], sum(all_null.values()))
        self.assertEqual(report["ledger"]["records"], len(data["results"]))

    def test_unscoreable_attempts_by_reason_equal_null_trials_by_failure_mode(self) -> None:
        data = load(TB_RESULTS)
        nulls = Counter(TB_NULL_TABLE.get(t["failure_mode"], "missing_artifact")
                        for t in data["results"] if t["is_resolved"] is None)
        self.assertTrue(nulls)
        records = self.imp("terminal-bench", str(TB_RESULTS))
        got = Counter(r["reason"] for r in records if r["outcome"] == "unscoreable")
        self.assertEqual(got, nulls)
        by_mode = Counter(r["harness"]["failure_mode"] for r in records if r["outcome"] == "unscoreable")
        self.assertEqual(by_mode, Counter(t["failure_mode"] for t in data["results"] if t["is_resolved"] is None))

    def test_synthetic_headline_uses_the_full_declared_denominator(self) -> None:
        data, meta = load(TB_SYN), load(TB_META)
        runs, draft_path, _records, _draft = self.imp_files("terminal-bench", str(TB_SYN), str(TB_META))
        passes = sum(t["is_resolved"] is True for t in data["results"])
        _code, report = self.check_roundtrip(draft_path, runs, "vim-terminal-task", "fix-git")
        expected = passes / (len(meta["task_ids"]) * meta["n_attempts"])
        self.assertAlmostEqual(report["headline"]["rate"], expected, places=12)
        self.assertLess(report["headline"]["rate"], data["accuracy"], "the harness's figure hides the absent trials")
        codes = [f["code"] for f in report["findings"]]
        for code_name in ("never_started", "samples_incomplete", "ledger_does_not_balance", "dataset_size_mismatch"):
            self.assertNotIn(code_name, codes)


#####################################################################
# Output files
#####################################################################


class OutputTest(ImportCase):
    def test_stdout_lines_parse_and_equal_the_o_file(self) -> None:
        for fmt, args in (("inspect", (str(INS_CANCEL),)), ("terminal-bench", (str(TB_SYN), str(TB_META))),
                          ("swebench", (str(SWE_REPORT),))):
            with self.subTest(fmt=fmt):
                code, out, _ = self.run_gate("import", fmt, *args)
                self.assertEqual(code, 0)
                for line in out.splitlines():
                    self.assertIsInstance(json.loads(line), dict)
                target = self.dir / f"{fmt}.jsonl"
                code, out2, err = self.run_gate("import", fmt, *args, "-o", str(target))
                self.assertEqual((code, out2), (0, ""), err)
                self.assertEqual(target.read_text(encoding="utf-8"), out)

    def test_stdout_mode_real_command_line(self) -> None:
        proc = run_cli("import", "terminal-bench", str(TB_RESULTS))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertEqual(len(lines), len(load(TB_RESULTS)["results"]))
        for line in lines:
            self.assertIn(json.loads(line)["outcome"], ("pass", "fail", "unscoreable"))

    def test_output_is_deterministic(self) -> None:
        for fmt, args in (("inspect", (str(INS_DEFLATE),)), ("terminal-bench", (str(TB_SYN), str(TB_META))),
                          ("swebench", (str(SWE_EXP_SYN), "--dataset-ids", str(SWE_IDS)))):
            with self.subTest(fmt=fmt):
                outputs = []
                for n in (1, 2):
                    runs, draft = self.dir / f"{fmt}-{n}.jsonl", self.dir / f"{fmt}-{n}.json"
                    code, _, err = self.run_gate("import", fmt, *args, "-o", str(runs), "--draft-manifest", str(draft))
                    self.assertEqual(code, 0, err)
                    outputs.append(runs.read_bytes())
                self.assertEqual(outputs[0], outputs[1])
                self.assertGreater(len(outputs[0]), 0)

    def test_refuses_to_overwrite_without_force(self) -> None:
        target = self.write_text("runs.jsonl", "precious\n")
        draft = self.dir / "draft.json"
        result = self.run_gate("import", "inspect", str(INS_OK), "-o", str(target), "--draft-manifest", str(draft))
        self.assertInputError(result, str(target), "--force")
        self.assertEqual(target.read_text(encoding="utf-8"), "precious\n")
        self.assertFalse(draft.exists(), "nothing is written when one output is refused")
        code, _, err = self.run_gate("import", "inspect", str(INS_OK), "-o", str(target), "--force")
        self.assertEqual(code, 0, err)
        self.assertEqual(len(target.read_text(encoding="utf-8").splitlines()), 10)

    def test_refuses_to_overwrite_draft_without_force(self) -> None:
        draft = self.write_text("draft.json", "{}\n")
        result = self.run_gate("import", "inspect", str(INS_OK), "--draft-manifest", str(draft))
        self.assertEqual(result[0], 2, result)
        self.assertEqual(draft.read_text(encoding="utf-8"), "{}\n")

    def test_write_is_atomic(self) -> None:
        target = self.dir / "runs.jsonl"
        code, _, err = self.run_gate("import", "inspect", str(INS_OK), "-o", str(target))
        self.assertEqual(code, 0, err)
        self.assertEqual(sorted(p.name for p in self.dir.iterdir()), ["runs.jsonl"], "no temporary file left behind")
        good = target.read_bytes()
        # a failure while writing leaves the old file whole (--force) or no file at all
        with mock.patch("os.fsync", side_effect=OSError(28, "No space left on device")):
            code, _, err = self.run_gate("import", "inspect", str(INS_CANCEL), "-o", str(target), "--force")
            self.assertEqual(code, 2, err)
            self.assertEqual(target.read_bytes(), good)
            fresh = self.dir / "fresh.jsonl"
            code, _, err = self.run_gate("import", "inspect", str(INS_CANCEL), "-o", str(fresh))
            self.assertEqual(code, 2, err)
            self.assertFalse(fresh.exists())
        self.assertEqual(sorted(p.name for p in self.dir.iterdir()), ["runs.jsonl"], "no temporary file left behind")

    def test_input_error_writes_nothing(self) -> None:
        bad = self.write_text("bad.json", "{")
        target, draft = self.dir / "runs.jsonl", self.dir / "draft.json"
        self.assertInputError(self.run_gate("import", "inspect", str(bad), "-o", str(target),
                                            "--draft-manifest", str(draft)), str(bad))
        self.assertFalse(target.exists())
        self.assertFalse(draft.exists())


#####################################################################
# Input errors: exit 2, one line naming the file, no traceback
#####################################################################


class InputErrorTest(ImportCase):
    def test_malformed_json(self) -> None:
        for fmt in ("swebench", "inspect", "terminal-bench"):
            with self.subTest(fmt=fmt):
                path = self.write_text(f"{fmt}-bad.json", '{"results": [')
                self.assertInputError(self.run_gate("import", fmt, str(path)), str(path))

    def test_nan_is_not_json(self) -> None:
        data = load(INS_CANCEL)
        text = json.dumps(data).replace('"value": 0.75', '"value": NaN')
        self.assertIn("NaN", text)
        path = self.write_text("nan.json", text)
        self.assertInputError(self.run_gate("import", "inspect", str(path)), str(path))

    def test_duplicate_keys(self) -> None:
        cases = {
            "swebench": (SWE_REPORT, '"schema_version": 2', '"schema_version": 2, "schema_version": 2'),
            "inspect": (INS_OK, '"status": "success"', '"status": "error", "status": "success"'),
            "terminal-bench": (TB_RESULTS, '"is_resolved": false', '"is_resolved": true, "is_resolved": false'),
        }
        for fmt, (src, old, new) in cases.items():
            with self.subTest(fmt=fmt):
                text = json.dumps(load(src))
                self.assertIn(old, text)
                path = self.write_text(f"{fmt}-dup.json", text.replace(old, new, 1))
                self.assertInputError(self.run_gate("import", fmt, str(path)), str(path), "duplicate")

    def test_wrong_types(self) -> None:
        def edit(src: Path, change: Any) -> Any:
            data = load(src)
            change(data)
            return data

        cases = [
            ("swebench", edit(SWE_REPORT, lambda d: d.__setitem__("resolved_ids", "astropy__astropy-12907")), "resolved_ids"),
            ("swebench", edit(SWE_REPORT, lambda d: d.__setitem__("total_instances", "10")), "total_instances"),
            ("swebench", edit(SWE_REPORT, lambda d: d["error_ids"].__setitem__(0, 13977)), "error_ids"),
            ("inspect", edit(INS_OK, lambda d: d["eval"]["config"].__setitem__("epochs", "2")), "epochs"),
            ("inspect", edit(INS_OK, lambda d: d["samples"][0].__setitem__("epoch", "1")), "epoch"),
            ("inspect", edit(INS_OK, lambda d: d["samples"][0]["scores"]["match"].__setitem__("value", "maybe")), "value"),
            ("terminal-bench", edit(TB_RESULTS, lambda d: d["results"][0].__setitem__("is_resolved", "yes")), "is_resolved"),
            ("terminal-bench", edit(TB_RESULTS, lambda d: d.__setitem__("results", {})), "results"),
            ("terminal-bench", edit(TB_RESULTS, lambda d: d["results"][0].__setitem__("trial_name", 3)), "trial_name"),
        ]
        for i, (fmt, data, field) in enumerate(cases):
            with self.subTest(fmt=fmt, field=field):
                path = self.write_json(f"wrong-{i}.json", data)
                self.assertInputError(self.run_gate("import", fmt, str(path)), str(path), field)

    def test_experiments_wrong_type_with_dataset_ids(self) -> None:
        data = load(SWE_EXP)
        data["no_logs"] = {"astropy__astropy-12907": True}
        path = self.write_json("exp-wrong.json", data)
        self.assertInputError(self.run_gate("import", "swebench", str(path), "--dataset-ids", str(SWE_IDS)),
                              str(path), "no_logs")

    def test_broken_eval_archives(self) -> None:
        not_zip = self.write_text("broken.eval", b"PK\x03\x04 not really a zip")
        self.assertInputError(self.run_gate("import", "inspect", str(not_zip)), str(not_zip))
        # a readable (deflate) archive whose header.json has a duplicate key
        bad = self.dir / "dup-header.eval"
        with zipfile.ZipFile(INS_DEFLATE) as src, zipfile.ZipFile(bad, "w", zipfile.ZIP_DEFLATED) as out:
            for info in src.infolist():
                data = src.read(info.filename)
                if info.filename == "header.json":
                    data = data.replace(b'"status"', b'"status": "error", "status"', 1)
                    self.assertIn(b'"status": "error", "status"', data)
                out.writestr(info.filename, data)
        self.assertInputError(self.run_gate("import", "inspect", str(bad)), str(bad), "duplicate")

    def test_dataset_ids_file_with_duplicates(self) -> None:
        ids = id_lines(SWE_SHORT_IDS)
        path = self.write_text("ids.txt", "\n".join(ids + ids[:1]) + "\n")
        self.assertInputError(self.run_gate("import", "swebench", str(SWE_SHORT), "--dataset-ids", str(path)),
                              "duplicate")


if __name__ == "__main__":
    unittest.main()
