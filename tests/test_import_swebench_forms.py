"""`gate.py import swebench` on the forms real runs leave: the harness's own run reports (VTM, Rust-bench),
the SWE-bench-java / Multi-SWE-bench run report (`resolved`, no schema_version) with its index.json, sb-cli's
count-only summaries, and a per-instance logs folder logs/run_evaluation/<run_id>/<model>/.

Expected values are read from the fixture files (their id lists and counts), never from gate.py.
"""

from __future__ import annotations

from fractions import Fraction

from tests.realfiles import (
    JAVA_DEEPSEEK,
    JAVA_GPT4O,
    JAVA_INDEX,
    RUST_BENCH,
    SWE_LOGS,
    SWE_LOGS_EDITED,
    SWE_LOGS_SUMMARY,
    SWE_WILD,
    VTM,
    RealFileCase,
    rule_headline,
)
from tests.support import load


class HarnessReports(RealFileCase):
    """The two gold.validate-gold.json reports copied from public repositories."""

    def test_vtm_is_one_resolved_of_one(self) -> None:
        """VTM's report (schema_version 2, 300 submitted, run on one instance): one record, a pass; headline 1/1,
        the report's own resolved_instances / total_instances."""
        data = load(VTM)
        imp = self.import_ok("swebench", str(VTM))
        self.assertEqual([(r["task_id"], r["outcome"]) for r in imp.records], [(data["resolved_ids"][0], "pass")])
        report = self.gated(imp)
        self.assertHeadline(report, Fraction(data["resolved_instances"], data["total_instances"]), 1)
        self.assertIn("the report's own figure: resolved 1 of total_instances 1", imp.err)

    def test_rust_bench_is_one_of_300_with_299_unscoreable(self) -> None:
        """Rust-bench's report (swebench 2.0.13-3.0.0 keys): 300 instances, 1 resolved, 299 error_ids, each an
        unscoreable grader_error (no report.json was written for it); the headline is 1/300, as the report states."""
        data = load(RUST_BENCH)
        self.assertEqual((data["total_instances"], len(data["error_ids"])), (300, 299))
        imp = self.import_ok("swebench", str(RUST_BENCH))
        by_id = {r["task_id"]: r for r in imp.records}
        self.assertEqual(len(by_id), 300)
        for tid in data["error_ids"]:
            self.assertOutcome(by_id[tid], "unscoreable", "grader_error")
        self.assertOutcome(by_id[data["resolved_ids"][0]], "pass", None)
        report = self.gated(imp)
        self.assertHeadline(report, Fraction(1, 300), 300)
        self.assertEqual(report["ledger"]["unscoreable_reasons"], {"grader_error": 299})
        self.assertEqual(rule_headline(imp.records, imp.draft["dataset"]["task_ids"], "retry", 1), Fraction(1, 300))


class JavaReports(RealFileCase):
    """SWE-bench-java v1 / Multi-SWE-bench experiments results.json: `resolved` for resolved_ids."""

    def test_the_unversioned_form_imports_with_resolved_over_total(self) -> None:
        """Both submissions import: deepseek 7/91, gpt-4o 6/91, each headline the report's resolved_instances /
        total_instances, the `resolved` list the passes and every other listed id a fail or unscoreable."""
        for path, resolved in ((JAVA_DEEPSEEK, 7), (JAVA_GPT4O, 6)):
            with self.subTest(path=path.parent.parent.name):
                data = load(path)
                self.assertNotIn("schema_version", data)
                self.assertNotIn("resolved_ids", data)
                imp = self.import_ok("swebench", str(path), name=path.parent.parent.name)
                passes = {r["task_id"] for r in imp.records if r["outcome"] == "pass"}
                self.assertEqual(passes, set(data["resolved"]))
                self.assertEqual(len(passes), resolved)
                self.assertEqual({r["harness"]["format"] for r in imp.records}, {"swebench-report-unversioned"})
                report = self.gated(imp)
                self.assertHeadline(report, Fraction(data["resolved_instances"], data["total_instances"]), 91)

    def test_incomplete_instances_are_missing_artifact(self) -> None:
        """gpt-4o submitted 85 of 91: its 6 incomplete_ids are unscoreable missing_artifact, still in the
        denominator; empty patches are fails."""
        data = load(JAVA_GPT4O)
        self.assertEqual(len(data["incomplete_ids"]), 6)
        by_id = {r["task_id"]: r for r in self.imp("swebench", str(JAVA_GPT4O))}
        self.assertEqual(len(by_id), 91)
        for tid in data["incomplete_ids"]:
            self.assertOutcome(by_id[tid], "unscoreable", "missing_artifact")
        for tid in data["empty_patch_ids"]:
            self.assertOutcome(by_id[tid], "fail", None)
        for tid in data["unresolved_ids"]:
            self.assertOutcome(by_id[tid], "fail", None)

    def test_index_json_declares_the_dataset(self) -> None:
        """index.json given as a second file declares the 91 instances: a report that lists only the instances it
        ran imports over all 91, the others missing_artifact; without index.json it is refused naming it. The
        index may come first or second; a second index is refused."""
        index = load(JAVA_INDEX)
        data = load(JAVA_GPT4O)
        trimmed = dict(data)
        del trimmed["incomplete_ids"]
        path = self.write_json("results.json", trimmed)
        self.assertInputError(self.run_gate("import", "swebench", str(path)), "total_instances is 91", "index.json")
        for order in ((path, JAVA_INDEX), (JAVA_INDEX, path)):
            with self.subTest(first=order[0].name):
                records = self.imp("swebench", *map(str, order))
                by_id = {r["task_id"]: r for r in records}
                self.assertEqual(set(by_id), set(index))
                for tid in data["incomplete_ids"]:
                    self.assertOutcome(by_id[tid], "unscoreable", "missing_artifact")
        imp = self.import_ok("swebench", str(JAVA_DEEPSEEK), str(JAVA_INDEX))
        self.assertEqual(imp.draft["dataset"]["task_ids"], sorted(index))
        self.assertInputError(self.run_gate("import", "swebench", str(JAVA_DEEPSEEK), str(JAVA_INDEX), str(JAVA_INDEX)),
                              "a second declared instance set")

    def test_an_id_outside_the_index_is_refused(self) -> None:
        """A report naming an instance the index does not declare is refused naming the id."""
        data = load(JAVA_DEEPSEEK)
        data["unresolved_ids"].append("apache__not-in-the-index-1")
        data["unresolved_instances"] += 1
        path = self.write_json("results.json", data)
        self.assertInputError(self.run_gate("import", "swebench", str(path), str(JAVA_INDEX)), "apache__not-in-the-index-1")


class SbCliSummaries(RealFileCase):
    def test_a_count_only_summary_is_refused_naming_what_to_import(self) -> None:
        """sb-cli's summary counts name no instance: refused with one line that names the counts it found and says
        to import the run report with the id lists instead."""
        summary = {"resolved_instances": 372, "total_instances": 500, "submitted_instances": 500,
                   "error_instances": 0, "pending_instances": 0, "completed_instances": 500, "failed_instances": 0}
        path = self.write_json("swe-bench_verified__test__run1.response.json", summary)
        self.assertInputError(self.run_gate("import", "swebench", str(path)), "an sb-cli summary with counts only",
                              "resolved_instances", "import the run report with the id lists instead")
        self.assertInputError(self.run_gate("import", "swebench", str(self.write_json("r.json", {"total_instances": 3}))),
                              "counts only")


class InstanceLogs(RealFileCase):
    """A logs/run_evaluation/<run_id>/<model>/ folder (synthetic, from report.json's format): the grading itself."""

    EXPECTED = {
        "astropy__astropy-12907": ("pass", None),  # resolved true
        "astropy__astropy-14182": ("fail", None),  # resolved false
        "astropy__astropy-14365": ("unscoreable", "env_flake"),  # infra_failure true (5.x)
        "astropy__astropy-14995": ("unscoreable", "harness_timeout"),  # no report.json, "Timeout error:" in test_output
        "astropy__astropy-6938": ("unscoreable", "grader_error"),  # no report.json, no timeout
        "astropy__astropy-7746": ("fail", None),  # patch did not apply
    }

    def test_each_instance_report_is_the_verdict(self) -> None:
        """Each instance's report.json is read: resolved true pass, false fail (also when the patch did not
        apply), infra_failure env_flake; an instance without report.json is harness_timeout when its
        test_output.txt ends in the harness's timeout line, else grader_error. The run id is the run folder's."""
        for tid, (outcome, _) in self.EXPECTED.items():
            report = SWE_LOGS / tid / "report.json"
            if report.exists():
                grade = load(report)[tid]
                self.assertEqual(outcome == "pass", grade["resolved"] is True and not grade["infra_failure"])
        imp = self.import_ok("swebench", str(SWE_LOGS))
        self.assertEqual({r["task_id"]: (r["outcome"], r["reason"]) for r in imp.records}, self.EXPECTED)
        self.assertEqual({r["run_id"] for r in imp.records}, {"synthetic-run"})
        applied = next(r for r in imp.records if r["task_id"] == "astropy__astropy-7746")
        self.assertIs(applied["harness"]["patch_successfully_applied"], False)
        self.assertEqual((imp.draft["attempt_mode"], imp.draft["attempt_budget"]), ("retry", 1))
        self.assertHeadline(self.gated(imp), Fraction(1, 6), 6)

    def test_a_declared_instance_without_a_folder_is_missing_artifact(self) -> None:
        """With --dataset-ids naming an instance that has no folder, that instance is missing_artifact."""
        ids = self.write_text("ids.txt", "\n".join([*self.EXPECTED, "astropy__astropy-8707"]) + "\n")
        records = self.imp("swebench", str(SWE_LOGS), "--dataset-ids", str(ids))
        by_id = {r["task_id"]: r for r in records}
        self.assertOutcome(by_id["astropy__astropy-8707"], "unscoreable", "missing_artifact")
        self.assertEqual(len(records), 7)

    def test_a_summary_that_disagrees_with_the_logs_is_refused(self) -> None:
        """A summary report given with the logs folder that calls a failed instance resolved is refused, naming the
        instance: the report and the logs must be of one run, unedited. Under another file name than the
        harness's <model>.<run_id>.json for this folder, it is refused as another run's report."""
        edited = load(SWE_LOGS_EDITED)
        self.assertIn("astropy__astropy-14182", edited["resolved_ids"])
        self.assertInputError(self.run_gate("import", "swebench", str(SWE_LOGS), str(SWE_LOGS_EDITED)),
                              "the report of model 'synthetic-model.synthetic-run', run 'hand-edited'")
        renamed = self.write_json("synthetic-model.synthetic-run.json", edited)
        self.assertInputError(self.run_gate("import", "swebench", str(SWE_LOGS), str(renamed)),
                              "disagree on 1 instance(s) ('astropy__astropy-14182')")

    def test_a_report_whose_graded_instances_have_no_folder_is_refused(self) -> None:
        """A report of another run that resolved instances this folder has no log of is refused: swebench writes a
        folder for every instance it runs, so those verdicts cannot be this folder's run's."""
        report = load(SWE_LOGS_SUMMARY)
        extra = [f"astropy__astropy-9{n:03d}" for n in range(3)]
        for key in ("resolved_ids", "completed_ids", "submitted_ids"):
            report[key] = sorted(report[key] + extra)
        for key in ("resolved_instances", "completed_instances", "submitted_instances", "total_instances"):
            report[key] += 3
        named = self.write_json("synthetic-model.synthetic-run.json", report)
        self.assertInputError(self.run_gate("import", "swebench", str(SWE_LOGS), str(named)),
                              "3 instance(s) the run report graded (resolved or unresolved) have no log folder")

    def test_a_folder_of_folders_that_are_not_instance_logs_is_refused(self) -> None:
        """A folder whose sub-folders hold no swebench instance log is not a logs folder: refused."""
        folder = self.dir / "not-logs"
        (folder / "a").mkdir(parents=True)
        (folder / "b").mkdir()
        self.assertInputError(self.run_gate("import", "swebench", str(folder)), "holds a swebench instance log")

    def test_a_logs_folder_without_instances_is_refused(self) -> None:
        """A folder with no instance folders in it is refused with one line naming the layout it expects."""
        empty = self.dir / "logs" / "run_evaluation" / "r" / "m"
        empty.mkdir(parents=True)
        self.assertInputError(self.run_gate("import", "swebench", str(empty)), "no instance folders")


class NotAReport(RealFileCase):
    def test_the_lite_id_list_is_not_a_report(self) -> None:
        """lite_ids.txt (the 300 Lite ids, space-separated on 8 lines) is not a run report: refused with one line
        as import input, and as --dataset-ids (a line of several words is not one ID)."""
        ids = SWE_WILD / "lite_ids.txt"
        self.assertInputError(self.run_gate("import", "swebench", str(ids)), str(ids), "invalid JSON")
        self.assertInputError(self.run_gate("import", "swebench", str(VTM), "--dataset-ids", str(ids)), str(ids))

    def test_an_index_alone_is_not_a_report(self) -> None:
        """index.json alone declares instances but grades none: refused with one line."""
        self.assertInputError(self.run_gate("import", "swebench", str(JAVA_INDEX)), "takes one report", "got 0")
