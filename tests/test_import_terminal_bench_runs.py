"""`gate.py import terminal-bench` on real Terminal-Bench 1.x leaderboard submissions: run folders, both
trial-name forms, `<anything>results.json`, and several runs of one suite as one samples-mode claim whose
pass@1 is the leaderboard's averaged accuracy.

Every expected value is read from the fixture files themselves (accuracy, start_time, task_ids,
trial_name), except the two published leaderboard figures the files are checked against.
"""

from __future__ import annotations

import json
import re
import shutil
from fractions import Fraction
from pathlib import Path

from tests.realfiles import DROID, OPENHANDS, RealFileCase, controls_from, rule_headline
from tests.support import load

# The leaderboard's own figures for the two submissions (formats.md §1: the mean of the five runs' accuracy;
# Factory quotes Droid GPT-5 at 52.5%).
PUBLISHED = {DROID: Fraction(525, 1000), OPENHANDS: Fraction(4125, 10000)}
RUN_SUFFIX = re.compile(r"^(?P<task>.+)\.(?P<n>[0-9]+)-of-(?P<m>[0-9]+)\.(?P<run>[^.]+)$")
PLAIN = re.compile(r"^(?P<task>.+)\.(?P<n>[0-9]+)-of-(?P<m>[0-9]+)$")


def by_start(runs: list[Path]) -> list[Path]:
    """The run folders in the order their run_metadata.json says they started (ISO-8601 UTC strings)."""
    return sorted(runs, key=lambda run: load(run / "run_metadata.json")["start_time"])


class SeveralRunsOneClaim(RealFileCase):
    """`import terminal-bench RUN1 ... RUN5`: one samples-mode ledger over the suite, attempt = run index."""

    def test_five_runs_are_one_claim_whose_pass_at_1_is_the_leaderboard_mean(self) -> None:
        """The five runs of a submission import as one samples-mode claim over its 80 tasks with budget 5, and
        its gated pass@1 (check on the completed draft) is the mean of the runs' stated accuracies, which is the
        leaderboard's figure: droid gpt-5 0.525, openhands 0.4125."""
        for submission, published in PUBLISHED.items():
            with self.subTest(submission=submission):
                runs = self.tb_runs(submission)
                self.assertEqual(len(runs), 5)
                stated = [Fraction(load(run / "results.json")["accuracy"]).limit_denominator(10000) for run in runs]
                self.assertEqual(sum(stated) / 5, published)
                imp = self.import_ok("terminal-bench", *map(str, runs), "--one-instrument", name=submission)
                tasks = load(runs[0] / "run_metadata.json")["task_ids"]
                self.assertEqual((imp.draft["attempt_mode"], imp.draft["attempt_budget"]), ("samples", 5))
                self.assertEqual(imp.draft["dataset"]["task_ids"], sorted(tasks))
                self.assertEqual(len(imp.records), 80 * 5)
                report = self.gated(imp, controls_from(imp.records))
                self.assertEqual(report["attempt_mode"], "samples")
                self.assertEqual(report["headline"]["name"], "pass@1")
                self.assertHeadline(report, published, 80)
                self.assertEqual(rule_headline(imp.records, tasks, "samples", 5), published)

    def test_the_draft_recipe_says_how_many_runs_it_takes(self) -> None:
        """Imported to standard output (so no gate command can be written for it), the draft's rerun recipe asks for
        the harness's command: tb run once for one run, and `, N times` for N runs, two included."""
        runs = self.tb_runs(DROID)
        for n in (1, 2, 3):
            with self.subTest(runs=n):
                draft = self.dir / f"r{n}.manifest.json"
                code, _out, err = self.run_gate("import", "terminal-bench", *map(str, runs[:n]), "--one-instrument",
                                                "--draft-manifest", str(draft))
                self.assertEqual(code, 0, err)
                self.assertEqual(load(draft)["rerun_recipe"],
                                 "TODO: exact command that produced the run, e.g. tb run --dataset ... --agent ... "
                                 "--model ... --n-attempts 1" + (f", {n} times" if n > 1 else ""))

    def test_attempt_is_the_run_index_in_start_order(self) -> None:
        """Attempt k of every task is the k-th run by start time (run_metadata.json's start_time), whatever the
        order of the arguments: each record's harness.run_id and trial_name say which run it came from."""
        runs = by_start(self.tb_runs(DROID))
        ids = [load(run / "run_metadata.json")["run_id"] for run in runs]
        trials = {run_id: {t["task_id"]: t for t in load(run / "results.json")["results"]} for run_id, run in zip(ids, runs)}
        for index, order in enumerate((runs, list(reversed(runs)), [runs[2], runs[0], runs[4], runs[1], runs[3]])):
            with self.subTest(order=[r.name for r in order]):
                imp = self.import_ok("terminal-bench", *map(str, order), "--one-instrument", name=f"order{index}")
                for rec in imp.records:
                    run_id = ids[rec["attempt"] - 1]
                    self.assertEqual(rec["harness"]["run_id"], run_id)
                    trial = trials[run_id][rec["task_id"]]
                    self.assertEqual(rec["harness"]["trial_name"], trial["trial_name"])
                    self.assertEqual(rec["harness"]["id"], trial["id"])
                    expected = {True: "pass", False: "fail"}.get(trial["is_resolved"], "unscoreable")
                    self.assertEqual(rec["outcome"], expected, rec)

    def test_start_time_orders_runs_whose_folder_names_say_otherwise(self) -> None:
        """Run folders renamed so that their names sort against their start times still number by start time:
        the order is the runs' own clock, not their names."""
        runs = by_start(self.tb_runs(OPENHANDS))
        renamed = []
        for index, run in enumerate(runs):
            target = self.dir / "renamed" / f"{'edcba'[index]}-run"
            shutil.copytree(run, target)
            renamed.append(target)
        imp = self.import_ok("terminal-bench", *map(str, sorted(renamed)), "--one-instrument", name="renamed")
        ids = [load(run / "run_metadata.json")["run_id"] for run in runs]
        self.assertEqual(ids, ["openhands-sonnet", "openhands-sonnet2", "openhands-sonnet3", "openhands-sonnet4",
                               "openhands-sonnet5"])
        for rec in imp.records:
            self.assertEqual(rec["harness"]["run_id"], ids[rec["attempt"] - 1])

    def test_the_runs_are_listed_in_the_provenance_and_a_note(self) -> None:
        """The draft's envelope lists the runs in start order ("runs"), and a note on stderr says that they are one
        samples-mode claim and names them in that order."""
        runs = by_start(self.tb_runs(DROID))
        ids = [load(run / "run_metadata.json")["run_id"] for run in runs]
        imp = self.import_ok("terminal-bench", *map(str, reversed(runs)), "--one-instrument")
        self.assertEqual(imp.draft["provenance"]["runs"], ids)  # provenance, not the instrument: compare ignores it
        note = next(n for n in imp.notes() if "runs as one samples-mode claim" in n)
        self.assertIn(", ".join(ids), note)
        self.assertTrue(note.startswith("5 runs"), note)
        meta = load(runs[0] / "run_metadata.json")
        self.assertEqual(imp.draft["system"]["agent"], meta["agent_name"])
        self.assertEqual(imp.draft["dataset"]["name"], f"{meta['dataset_name']}=={meta['dataset_version']}")

    def test_runs_that_declare_different_task_sets_are_refused(self) -> None:
        """Runs whose run_metadata.json declare different task sets are not one suite: refused with one line, with
        one task fewer in one run and with one task more."""
        for change in ("drop", "add"):
            with self.subTest(change=change):
                runs = self.tb_runs(DROID)
                meta_path, results_path = runs[3] / "run_metadata.json", runs[3] / "results.json"
                meta, results = load(meta_path), load(results_path)
                if change == "drop":
                    gone = meta["task_ids"].pop()
                    results["results"] = [t for t in results["results"] if t["task_id"] != gone]
                else:
                    meta["task_ids"].append("a-task-only-this-run-had")
                meta["dataset_size"] = len(meta["task_ids"])
                meta_path.write_text(json.dumps(meta, indent=4))
                results_path.write_text(json.dumps(results, indent=4))
                result = self.run_gate("import", "terminal-bench", *map(str, runs), "--one-instrument")
                self.assertInputError(result, "different task sets")
                shutil.rmtree(self.dir / "board")

    def test_a_run_without_its_metadata_never_borrows_anothers(self) -> None:
        """Two run folders, one without its run_metadata.json: the metadata beside one results file is that run's
        alone (a lone results file takes the lone metadata given with it only when nothing else is given), so the
        run without one names no agent or model, and the two are refused as one claim, naming that run's file."""
        runs = self.tb_runs(DROID)[:2]
        (runs[1] / "run_metadata.json").unlink()
        self.assertInputError(self.run_gate("import", "terminal-bench", str(runs[0]), str(runs[1]), "--one-instrument"),
                              f"{runs[1] / 'results.json'}: several runs are one claim only when each names its agent "
                              "and model")

    def test_runs_with_different_attempt_counts_are_refused(self) -> None:
        """A one-attempt run and a two-attempt run of the same agent, model and suite are not one attempt contract:
        refused."""
        runs = self.tb_runs(DROID)
        meta_path, results_path = runs[1] / "run_metadata.json", runs[1] / "results.json"
        meta, results = load(meta_path), load(results_path)
        twice = []
        for trial in results["results"]:
            for n in (1, 2):
                twice.append(dict(trial, trial_name=trial["trial_name"].replace(".1-of-1", f".{n}-of-2")))
        results["results"] = twice
        meta["n_attempts"] = 2
        meta_path.write_text(json.dumps(meta, indent=4))
        results_path.write_text(json.dumps(results, indent=4))
        self.assertInputError(self.run_gate("import", "terminal-bench", str(runs[0]), str(runs[1])),
                              "different numbers of attempts")


class OneRun(RealFileCase):
    """One `tb run`: a run folder, a results file, its two trial-name forms."""

    def test_each_run_headline_is_its_stated_accuracy(self) -> None:
        """Each of the ten leaderboard runs, imported alone from its folder, gates to exactly the accuracy its
        results.json states (nulls in the denominator, as the harness counts them)."""
        for submission in (DROID, OPENHANDS):
            for run in self.tb_runs(submission):
                with self.subTest(run=run.name):
                    results = load(run / "results.json")
                    imp = self.import_ok("terminal-bench", str(run), name=run.name)
                    self.assertEqual((imp.draft["attempt_mode"], imp.draft["attempt_budget"]), ("retry", 1))  # one trial a task: its verdict
                    report = self.gated(imp, controls_from(imp.records))
                    stated = Fraction(results["accuracy"]).limit_denominator(10000)
                    self.assertHeadline(report, stated, 80)
                    self.assertEqual(stated, Fraction(results["n_resolved"], len(results["results"])))

    def test_the_run_id_trial_name_form(self) -> None:
        """`<task>.N-of-M.<run_id>` (terminal-bench >= 0.2.10): the attempt is N, the task is task_id even when
        it has dots of its own (eval-mteb.hard), and the suffix is kept as harness.run_id."""
        run = self.tb_runs(DROID)[0]
        results = load(run / "results.json")
        imp = self.import_ok("terminal-bench", str(run))
        recs = {(r["task_id"], r["attempt"]): r for r in imp.records}
        dotted = 0
        for trial in results["results"]:
            match = RUN_SUFFIX.match(trial["trial_name"])
            assert match is not None, trial["trial_name"]
            self.assertEqual(match.group("task"), trial["task_id"])
            rec = recs[(trial["task_id"], int(match.group("n")))]
            self.assertEqual(rec["harness"]["trial_name"], trial["trial_name"])
            self.assertEqual(rec["harness"]["run_id"], match.group("run"))
            dotted += "." in trial["task_id"]
        self.assertGreater(dotted, 0, "fixture precondition: task ids with dots")
        self.assertEqual(len(recs), len(results["results"]))

    def test_the_plain_trial_name_form(self) -> None:
        """`<task>.N-of-M` (terminal-bench <= 0.2.9): attempt N of budget M, every trial one record, the run id
        from the recording paths."""
        path = self.tb_file("orchestrator_claude-4.1-opus.results.json")
        results = load(path)
        imp = self.import_ok("terminal-bench", str(path))
        recs = {(r["task_id"], r["attempt"]): r for r in imp.records}
        budgets = set()
        run_ids = {t["recording_path"].split("/")[0] for t in results["results"] if t["recording_path"]}
        self.assertEqual(len(run_ids), 1)
        for trial in results["results"]:
            match = PLAIN.match(trial["trial_name"])
            assert match is not None, trial["trial_name"]
            budgets.add(int(match.group("m")))
            rec = recs[(trial["task_id"], int(match.group("n")))]
            self.assertEqual(rec["harness"]["uuid"], trial["uuid"])
            self.assertEqual(rec["run_id"], next(iter(run_ids)))
        self.assertEqual(budgets, {5})
        self.assertEqual(imp.draft["attempt_budget"], 5)
        self.assertEqual(len(recs), len(results["results"]))

    def test_a_run_folder_is_its_results_file_with_its_run_metadata(self) -> None:
        """A run folder imports exactly as its results.json and run_metadata.json given together, and the draft
        takes the dataset name and agent from the metadata (the results file alone has neither)."""
        run = self.tb_runs(OPENHANDS)[1]
        folder = self.import_ok("terminal-bench", str(run), name="folder")
        files = self.import_ok("terminal-bench", str(run / "results.json"), str(run / "run_metadata.json"), name="files")
        alone = self.import_ok("terminal-bench", str(run / "results.json"), name="alone")
        self.assertEqual(folder.records, files.records)
        meta = load(run / "run_metadata.json")
        self.assertEqual(folder.draft["dataset"]["name"], f"{meta['dataset_name']}=={meta['dataset_version']}")
        self.assertEqual(folder.draft["system"]["agent"], meta["agent_name"])
        self.assertEqual(folder.draft["system"]["model"], meta["model_name"])
        self.assertEqual(folder.draft["envelope"]["toolchain_sha"], meta["commit_hash"])
        self.assertNotIn("agent_name", folder.draft["envelope"])
        self.assertTrue(all(v.startswith("TODO") for v in alone.draft["system"].values()))  # asked for, not known
        self.assertIn("system.agent: the agent this run measured (the files do not name it; or {\"not_disclosed\": \"why\"})",
                      alone.draft["draft"])
        self.assertTrue(any("give run_metadata.json too" in n for n in alone.notes()), alone.err)
        self.assertFalse(any("give run_metadata.json too" in n for n in folder.notes()), folder.err)

    def test_a_results_file_named_anything_results_json(self) -> None:
        """goose's submissions name the file `<timestamp>_results.json`: a run folder holding one such file (and
        its run_metadata.json) imports as if it were results.json, and so does the file given by name."""
        run = self.tb_runs(DROID)[1]
        reference = self.import_ok("terminal-bench", str(run), name="reference")
        renamed = self.dir / "goose-style" / "2025-09-24__03-11-05"
        renamed.mkdir(parents=True)
        shutil.copy(run / "results.json", renamed / "2025-09-24__03-11-05_results.json")
        shutil.copy(run / "run_metadata.json", renamed / "run_metadata.json")
        folder = self.import_ok("terminal-bench", str(renamed), name="renamed-folder")
        self.assertEqual(folder.records, reference.records)
        given = self.import_ok("terminal-bench", str(renamed / "2025-09-24__03-11-05_results.json"),
                               str(renamed / "run_metadata.json"), name="renamed-file")
        self.assertEqual(given.records, reference.records)
        shutil.copy(run / "results.json", renamed / "another_results.json")
        self.assertInputError(self.run_gate("import", "terminal-bench", str(renamed)), "expected one results.json",
                              "found 2")

    def test_a_run_metadata_alone_is_refused(self) -> None:
        """run_metadata.json without its results.json is refused with one line: it holds no trial."""
        run = self.tb_runs(DROID)[0]
        self.assertInputError(self.run_gate("import", "terminal-bench", str(run / "run_metadata.json")),
                              "without the run's results.json")

    def test_unscoreable_trials_by_failure_mode_across_a_submission(self) -> None:
        """Across all five openhands runs, the unscoreable records are exactly the trials with is_resolved null
        (by the failure_mode table) plus those whose agent never installed (false with agent_installation_failed)."""
        runs = self.tb_runs(OPENHANDS)
        table = {"test_timeout": "harness_timeout", "agent_timeout": "harness_timeout", "parse_error": "grader_error",
                 "unknown_agent_error": "env_flake", "agent_installation_failed": "env_flake"}
        expected: dict[tuple[str, str], str] = {}
        for run in runs:
            for trial in load(run / "results.json")["results"]:
                key = (trial["task_id"], trial["trial_name"])
                if trial["is_resolved"] is None:
                    expected[key] = table.get(trial["failure_mode"], "missing_artifact")
                elif trial["is_resolved"] is False and trial["failure_mode"] == "agent_installation_failed":
                    expected[key] = "env_flake"
        self.assertIn("env_flake", expected.values(), "fixture precondition: agent_installation_failed")
        imp = self.import_ok("terminal-bench", *map(str, runs), "--one-instrument")
        got = {(r["task_id"], r["harness"]["trial_name"]): r["reason"] for r in imp.records if r["outcome"] == "unscoreable"}
        self.assertEqual(got, expected)
