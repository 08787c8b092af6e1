"""Acceptance: every real harness file copied into tests/fixtures/ imports, or is refused with one line naming the
real reason, and each imported headline is held against the figure the file states about itself.

The gated headline is read from `check --format json` on the imported ledger and its completed draft, and
computed again from the records by the gate's written rule (tests/realfiles.py rule_headline). The stated
figure is read from the file: Terminal-Bench `accuracy`; SWE-bench resolved_instances / total_instances;
Harbor stats.evals[...].metrics[0].mean; Inspect results.scores[0].metrics.accuracy.value. They are equal
where the harness counts what the gate counts; where it does not (an errored Harbor trial counted 0, Inspect
leaving errored and NaN samples out of its denominator) the test pins both numbers side by side.
"""

from __future__ import annotations

import json
import math
import unittest
import zipfile
from fractions import Fraction
from pathlib import Path
from typing import Any

from tests.realfiles import (
    DROID,
    INS_RUNS,
    INS_WILD,
    JAVA_DEEPSEEK,
    JAVA_GPT4O,
    JAVA_INDEX,
    OPENHANDS,
    RUST_BENCH,
    SWE_WILD,
    TB_BOARD,
    TB_ORCHESTRATOR,
    TH,
    TH20,
    VTM,
    Imported,
    RealFileCase,
    rule_headline,
    run_log,
    zstd_readable,
)
from tests.support import FIXTURES, INS_ERR, INS_OK, INS_ZSTD, load


def fraction(value: float) -> Fraction:
    """A stated decimal figure as the fraction it rounds (every stated figure here has a small denominator)."""
    return Fraction(value).limit_denominator(1000)


def inspect_stated(path: Path) -> float | None:
    """results.scores[0].metrics.accuracy.value (of header.json in a deflate .eval), or None where the log has no
    results."""
    if path.suffix == ".eval":
        with zipfile.ZipFile(path) as archive:
            results = json.loads(archive.read("header.json")).get("results")
    else:
        results = load(path).get("results")
    if not results:
        return None
    return float(results["scores"][0]["metrics"]["accuracy"]["value"])


def harbor_stated(job: Path) -> tuple[float, int, int]:
    """(metrics[0].mean, n_trials with a reward, n_errors) of a job's one eval."""
    (stats,) = load(job / "result.json")["stats"]["evals"].values()
    return stats["metrics"][0]["mean"], stats["n_trials"], stats["n_errors"]


class EveryRealFile(RealFileCase):
    """Each real file: imported and its headline checked against its own figure, or refused for its real reason."""

    covered: set[Path] = set()
    ran: set[str] = set()  # the tests whose files `covered` holds

    def headline(self, imp: Imported) -> tuple[Fraction, dict[str, Any]]:
        """The gated headline of an import: check's, which must equal the rule's from the records."""
        report = self.gated(imp)
        draft = imp.draft
        rule = rule_headline(imp.records, draft["dataset"]["task_ids"], draft["attempt_mode"], draft["attempt_budget"])
        self.assertEqual(report["headline"]["n"], len(draft["dataset"]["task_ids"]))
        self.assertAlmostEqual(report["headline"]["rate"], float(rule), places=12)
        return rule, report

    def refused(self, fmt: str, path: Path, *fragments: str) -> None:
        self.assertInputError(self.run_gate("import", fmt, str(path)), str(path), *fragments)

    def use(self, *paths: Path) -> None:
        type(self).covered.update(p.resolve() for p in paths)
        type(self).ran.add(self._testMethodName)

    # -- Terminal-Bench 1.x -----------------------------------------------------------------

    def test_terminal_bench_runs_gate_to_their_stated_accuracy(self) -> None:
        """Each of the 10 leaderboard runs and the 3 orchestrator files: the gated pass@1 equals the file's stated
        accuracy (0.4875, 0.5625, ...; 0.36, 0.3975, 0.1925)."""
        for submission in (DROID, OPENHANDS):
            for run in self.tb_runs(submission):
                with self.subTest(run=run.name):
                    self.use(*(TB_BOARD / submission / run.name).iterdir())
                    stated = fraction(load(run / "results.json")["accuracy"])
                    gated, _ = self.headline(self.import_ok("terminal-bench", str(run), name=run.name))
                    self.assertEqual(gated, stated)
        expected = {"orchestrator_claude-4-sonnet.results.json": Fraction(36, 100),
                    "orchestrator_claude-4.1-opus.results.json": Fraction(3975, 10000),
                    "orchestrator_qwen-3-coder-480B.results.json": Fraction(1925, 10000)}
        for name, published in expected.items():
            with self.subTest(file=name):
                self.use(TB_ORCHESTRATOR / f"{name}.gz")
                path = self.tb_file(name)
                self.assertEqual(fraction(load(path)["accuracy"]), published)
                gated, report = self.headline(self.import_ok("terminal-bench", str(path), name=name))
                self.assertEqual(gated, published)
                self.assertEqual(report["attempt_budget"], 5)

    def test_terminal_bench_submissions_gate_to_the_leaderboard_mean(self) -> None:
        """The five runs of each submission as one claim: pass@1 is the mean of the five stated accuracies, the
        leaderboard's figure (droid gpt-5 0.525, openhands 0.4125)."""
        for submission, published in ((DROID, Fraction(525, 1000)), (OPENHANDS, Fraction(4125, 10000))):
            with self.subTest(submission=submission):
                runs = self.tb_runs(submission)
                stated = sum(fraction(load(run / "results.json")["accuracy"]) for run in runs) / len(runs)
                self.assertEqual(stated, published)
                gated, _ = self.headline(self.import_ok("terminal-bench", *map(str, runs), "--one-instrument", name=submission))
                self.assertEqual(gated, published)

    # -- Harbor -------------------------------------------------------------------------------

    def test_harbor_jobs_with_a_reward_on_every_trial_gate_to_harbor_mean(self) -> None:
        """dna-insert--pi (1.0), dna-insert--thinharness (0.0) and tune-mjcf--thinharness (AgentTimeoutError with
        a 0.0 reward): every trial has a reward, and the gated headline equals Harbor's metrics[0].mean."""
        for cell in ("dna-insert--pi", "dna-insert--thinharness", "tune-mjcf--thinharness"):
            with self.subTest(cell=cell):
                job = TH20 / cell / "job"
                self.use(*job.rglob("*.json"))
                mean, with_reward, _errors = harbor_stated(job)
                self.assertEqual(with_reward, 1)
                gated, _ = self.headline(self.import_ok("harbor", str(job), name=cell))
                self.assertEqual(gated, fraction(mean))

    def test_harbor_jobs_with_an_errored_trial_show_both_figures(self) -> None:
        """break-filter-js-from-html and vulnerable-secret errored (RuntimeError) with no reward: Harbor 0.21 states
        mean 0.0, counting the trial as 0; the gated headline is 0/1 with that task unscoreable (env_flake), and the
        import's note shows Harbor's mean beside it."""
        for job in (TH20 / "break-filter-js-from-html--thinharness" / "job", TH / "vulnerable-secret--thinharness" / "job"):
            with self.subTest(job=job.parent.name):
                self.use(*job.rglob("*.json"))
                mean, with_reward, errors = harbor_stated(job)
                self.assertEqual((mean, with_reward, errors), (0.0, 0, 1))
                imp = self.import_ok("harbor", str(job), name=job.parent.name)
                self.assertTrue(any("mean 0.0 over 0 trial(s) with a reward, 1 errored" in n for n in imp.notes()))
                gated, report = self.headline(imp)
                # the error is the provider refusing the task (cyber_policy): the system's fail, not a flake
                self.assertEqual((gated, report["ledger"]["unscoreable"], report["ledger"]["fail"]), (Fraction(0), 0, 1))

    def test_harbor_study_of_three_jobs_is_one_claim(self) -> None:
        """The three --thinharness jobs of thinharness-20task together: 0/3, one unscoreable; each job's own mean
        is 0.0."""
        jobs = [TH20 / f"{cell}--thinharness" / "job" for cell in ("break-filter-js-from-html", "dna-insert", "tune-mjcf")]
        self.assertEqual([harbor_stated(job)[0] for job in jobs], [0.0, 0.0, 0.0])
        gated, report = self.headline(self.import_ok("harbor", *map(str, jobs)))
        self.assertEqual((gated, report["headline"]["n"], report["ledger"]["unscoreable"]), (Fraction(0), 3, 0))

    def test_the_harbor_job_without_its_trial_folder_gates_from_its_result_json(self) -> None:
        """thinharness/tune-mjcf has only job/result.json: its one trial is read from stats.evals (reward 0.0 with
        an AgentTimeoutError: Harbor counts the reward) and gates to Harbor's own mean, 0/1."""
        job = TH / "tune-mjcf--thinharness" / "job"
        self.use(job / "result.json")
        self.assertEqual(harbor_stated(job)[0], 0.0)
        gated, report = self.headline(self.import_ok("harbor", str(job)))
        self.assertEqual((gated, report["headline"]["n"], report["ledger"]["unscoreable"]), (Fraction(0), 1, 0))
        self.assertFalse(report["wall_clock_verified"])

    # -- SWE-bench ----------------------------------------------------------------------------

    def test_swebench_reports_gate_to_resolved_over_total(self) -> None:
        """VTM 1/1, Rust-bench 1/300 (299 error_ids unscoreable), SWE-bench-java deepseek 7/91 and gpt-4o 6/91
        (6 incomplete, missing_artifact), with and without index.json: resolved_instances / total_instances."""
        cases = [(VTM, ()), (RUST_BENCH, ()), (JAVA_DEEPSEEK, ()), (JAVA_DEEPSEEK, (JAVA_INDEX,)), (JAVA_GPT4O, ()),
                 (JAVA_GPT4O, (JAVA_INDEX,))]
        for i, (path, extra) in enumerate(cases):
            with self.subTest(path=path.parent.name if path.name != "results.json" else path.parent.parent.name,
                              index=bool(extra)):
                self.use(path, *extra)
                data = load(path)
                stated = Fraction(data["resolved_instances"], data["total_instances"])
                gated, report = self.headline(self.import_ok("swebench", str(path), *map(str, extra), name=f"swe{i}"))
                self.assertEqual(gated, stated)
                self.assertEqual(report["headline"]["n"], data["total_instances"])
                unscoreable = len(data.get("error_ids", [])) + len(data.get("incomplete_ids", []))
                self.assertEqual(report["ledger"]["unscoreable"], unscoreable)

    def test_swebench_files_that_are_not_reports_are_refused(self) -> None:
        """index.json alone grades nothing, and lite_ids.txt is a plain id list: each refused with one line."""
        self.use(JAVA_INDEX, SWE_WILD / "lite_ids.txt")
        self.assertInputError(self.run_gate("import", "swebench", str(JAVA_INDEX)),
                              "takes one report (and optionally its index.json), got 0")
        self.refused("swebench", SWE_WILD / "lite_ids.txt", "invalid JSON")

    # -- Inspect --------------------------------------------------------------------------------

    EQUAL = [  # logs in which no sample errored or scored NaN: gated == stated
        INS_WILD / "2025-05-12T20-27-36-04-00_browser.json",
        INS_WILD / "2025-05-12T20-28-13-04-00_popularity.json",
        INS_WILD / "2025-05-12T20-28-26-04-00_security-guide.json",
        INS_WILD / "log_formats.eval",
        INS_WILD / "log_formats.json",
        INS_WILD / "log_images.json",
        INS_WILD / "log_read_sample.json",
        INS_OK,
    ]

    def test_inspect_logs_without_errors_gate_to_their_stated_accuracy(self) -> None:
        """Every log in which no sample errored or scored NaN: the gated headline equals
        results.scores[0].metrics.accuracy.value (1.0, 2/3, 1.0, 0.0, 0.0, 0.0, 1.0, 0.6; 0.3 for limit10, epochs3
        (9 of 30 sample-epochs), range and the re-scored no-score run, 2/3 for --sample-id 3,7,42)."""
        paths = [*self.EQUAL, *(run_log(f) for f in ("limit10-json", "epochs3", "sampleid", "range", "noscore-then-score"))]
        for i, path in enumerate(paths):
            with self.subTest(log=path.name):
                self.use(path)
                stated = inspect_stated(path)
                assert stated is not None
                gated, _ = self.headline(self.import_ok("inspect", str(path), name=f"log{i}"))
                self.assertEqual(gated, fraction(stated))

    def test_inspect_eval_set_gates_to_its_tasks_mean(self) -> None:
        """The eval set (two tasks of 5 samples, each stated 0.2) is one claim of 2/10, each task's stratum 1/5."""
        logs = [p for p in (INS_RUNS / "evalset").iterdir() if p.name.startswith("2026")]
        self.use(*(INS_RUNS / "evalset").iterdir())
        self.assertEqual([inspect_stated(p) for p in logs], [0.2, 0.2])
        gated, report = self.headline(self.import_ok("inspect", str(INS_RUNS / "evalset")))
        self.assertEqual(gated, Fraction(2, 10))
        self.assertEqual([s["rate"]["rate"] for s in report["strata"]], [0.2, 0.2])

    def test_inspect_logs_whose_errors_leave_its_denominator_show_both_figures(self) -> None:
        """Inspect leaves errored and NaN samples out of its accuracy; the gate keeps them, unscoreable:
        err-nofail states 0.375 (3/8) and gates 3/10; nan states 1/3 (2/6) and gates 2/12; allnan states NaN and
        gates 0/4; every left-out sample is an unscoreable task."""
        cases = {"err-nofail": (Fraction(3, 8), Fraction(3, 10), 2), "nan": (Fraction(2, 6), Fraction(2, 12), 6),
                 "allnan": (None, Fraction(0, 4), 4)}
        for folder, (stated, expected, unscoreable) in cases.items():
            with self.subTest(log=folder):
                path = run_log(folder)
                self.use(path)
                value = inspect_stated(path)
                assert value is not None
                if stated is None:
                    self.assertTrue(math.isnan(value))
                else:
                    self.assertEqual(fraction(value), stated)
                scores = load(path)["results"]["scores"][0]
                self.assertEqual(scores["scored_samples"] + unscoreable, len(load(path)["samples"]))
                gated, report = self.headline(self.import_ok("inspect", str(path), name=folder))
                self.assertEqual(gated, expected)
                self.assertEqual(report["ledger"]["unscoreable"], unscoreable)

    def test_inspect_logs_with_status_error_state_nothing_and_gate_every_sample(self) -> None:
        """err-default, env-error-no-tokenizer and tiny-err-status-error have status error and no results (Inspect
        states no figure): each imports every declared sample, errored ones unscoreable (3/10 with 2 env_flake;
        0/10 all env_flake; 6 passes of 10 sample-epochs with sample 4 env_flake)."""
        cases = {run_log("err-default"): (Fraction(3, 10), {"env_flake": 2}),
                 run_log("env-error-no-tokenizer"): (Fraction(0), {"env_flake": 10}),
                 INS_ERR: (Fraction(6, 10), {"env_flake": 1})}
        for i, (path, (expected, reasons)) in enumerate(cases.items()):
            with self.subTest(log=path.parent.name):
                self.use(path)
                self.assertEqual(load(path)["status"], "error")
                self.assertIsNone(inspect_stated(path))
                gated, report = self.headline(self.import_ok("inspect", str(path), name=f"err{i}"))
                self.assertEqual(gated, expected)
                self.assertEqual(report["ledger"]["unscoreable_reasons"], reasons)

    def test_inspect_logs_refused_for_their_real_reason(self) -> None:
        """The no-samples log and the version-1 log_with_nan.txt hold no samples; the --no-score log was never
        scored: each refused with one line saying so."""
        for path in (INS_WILD / "2025-05-12T20-28-13-04-00_no-samples.json", INS_WILD / "log_with_nan.txt"):
            self.use(path)
            self.refused("inspect", path, "no samples at all")
        self.use(run_log("noscore"))
        self.refused("inspect", run_log("noscore"), "scoring was deferred", "inspect score")

    def test_inspect_zstd_archives_are_read_or_refused_with_the_conversion_hint(self) -> None:
        """The zstd .eval archives (inspect-ai 0.3.285): with zstd importable they gate to their JSON twins' figures
        (0.6, 0.3, 0.3, 2/10); without it each is refused with one line giving `inspect log convert`."""
        cases = {INS_ZSTD: Fraction(6, 10), run_log("limit10-eval"): Fraction(3, 10),
                 run_log("epochs3-eval"): Fraction(3, 10), INS_RUNS / "evalset-eval": Fraction(2, 10)}
        for i, (path, expected) in enumerate(cases.items()):
            with self.subTest(path=path.name):
                self.use(*(path.iterdir() if path.is_dir() else [path]))
                if zstd_readable():
                    gated, _ = self.headline(self.import_ok("inspect", str(path), name=f"zstd{i}"))
                    self.assertEqual(gated, expected)
                else:
                    result = self.run_gate("import", "inspect", str(path))
                    self.assertInputError(result, "compressed with zstd", "inspect log convert --to json")

    # -- coverage of the list above ---------------------------------------------------------

    def test_zz_every_real_fixture_is_covered(self) -> None:
        """Every file of the real-file fixture folders is one of the files above: a real file added to the fixtures
        without an acceptance case fails here (named to run last, so that with the class nothing runs twice)."""
        real = [FIXTURES / "terminal-bench" / "leaderboard", TB_ORCHESTRATOR, FIXTURES / "harbor", SWE_WILD,
                FIXTURES / "swebench" / "swe-bench-java", INS_WILD, INS_RUNS]
        files = {p.resolve() for folder in real for p in folder.rglob("*") if p.is_file()}
        files |= {INS_OK.resolve(), INS_ERR.resolve(), INS_ZSTD.resolve()}
        # The cases that have not run yet (all of them when this test runs alone) run here, recording their files:
        # the answer never depends on what ran before.
        loader = unittest.TestLoader()
        pending = [name for name in loader.getTestCaseNames(type(self))
                   if name != self._testMethodName and name not in type(self).ran]
        result = unittest.TestResult()
        unittest.TestSuite(type(self)(name) for name in pending).run(result)
        self.assertEqual(result.errors + result.failures, [])
        self.assertGreater(len(type(self).covered), 10)
        self.assertEqual(sorted(str(p) for p in files - type(self).covered), [])
