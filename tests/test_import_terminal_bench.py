"""`gate.py import terminal-bench`: a Terminal-Bench results.json (with run metadata when given) into
runs.jsonl and a samples-mode draft manifest, one record per declared task and trial.

Every expected value is derived in the test from the fixture JSON itself (is_resolved, failure_mode,
trial names), never by calling the importer's own helpers.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from tests.oracles import ids_digest
from tests.support import TB_META, TB_RESULTS, TB_SYN, ImportCase, keyed, load

TRIAL = re.compile(r"^(.+)\.([0-9]+)-of-([0-9]+)$")


# The import mapping's Terminal-Bench table, written out again on purpose.
TB_NULL_TABLE = {"test_timeout": "harness_timeout", "agent_timeout": "harness_timeout", "parse_error": "grader_error",
                 "unknown_agent_error": "env_flake", "agent_installation_failed": "env_flake"}


def tb_trials(data: dict[str, Any]) -> dict[tuple[str, int], dict[str, Any]]:
    """(task_id, N) -> trial, N parsed from trial_name independently of the importer."""
    out = {}
    for trial in data["results"]:
        match = TRIAL.match(trial["trial_name"])
        assert match is not None, trial["trial_name"]
        out[(trial["task_id"], int(match.group(2)))] = trial
    return out


class TerminalBenchResults(ImportCase):
    """Trials map to outcomes and reasons, one record per task and trial."""

    def test_resolved_true_pass_false_fail(self) -> None:
        """is_resolved true imports as pass and false as fail; the fixture has true, false and null."""
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
        """is_resolved null is unscoreable with the reason its failure_mode maps to, missing_artifact otherwise."""
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

    def test_an_agent_that_never_installed_is_no_verdict(self) -> None:
        """is_resolved false with agent_installation_failed: the agent never ran, so the trial is unscoreable
        env_flake, not a fail; false with an agent's own failure (agent_timeout) stays a fail."""
        data = load(TB_RESULTS)
        false = [t for t in data["results"] if t["is_resolved"] is False]
        false[0]["failure_mode"] = "agent_installation_failed"
        false[1]["failure_mode"] = "agent_timeout"
        path = self.write_json("results.json", data)
        recs = keyed(self.imp("terminal-bench", str(path)))
        for trial, expected in ((false[0], ("unscoreable", "env_flake")), (false[1], ("fail", None))):
            match = TRIAL.match(trial["trial_name"])
            assert match is not None
            self.assertOutcome(recs[(trial["task_id"], int(match.group(2)))], *expected)

    def test_null_with_unknown_failure_mode_is_missing_artifact(self) -> None:
        """A null trial with an unknown failure_mode is missing_artifact and keeps the mode under harness."""
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
        """With run metadata, an absent trial and a task that never started are missing_artifact, and the draft
        declares every task in samples mode.
        """
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
        """The attempt is the N of 'task.N-of-M', the run id comes from the recording path, and the trial's fields are
        kept under harness.
        """
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
        """Every record keeps its trial's failure_mode; an absent trial is marked absent."""
        trials = tb_trials(load(TB_SYN))
        for rec in self.imp("terminal-bench", str(TB_SYN), str(TB_META)):
            trial = trials.get((rec["task_id"], rec["attempt"]))
            if trial is None:
                self.assertTrue(rec["harness"].get("absent"), rec)
            else:
                self.assertEqual(rec["harness"]["failure_mode"], trial["failure_mode"])

    def test_bad_trial_name_exits_2_naming_the_field(self) -> None:
        """A trial_name that is not 'task.N-of-M' with 1 ≤ N ≤ M is an input error naming the field."""
        for bad in ("fix-git", "fix-git.1of5", "fix-git.6-of-5", "fix-git.0-of-5"):
            with self.subTest(trial_name=bad):
                data = load(TB_RESULTS)
                data["results"][0]["trial_name"] = bad
                path = self.write_json("bad-trial.json", data)
                self.assertInputError(self.run_gate("import", "terminal-bench", str(path)), str(path), "trial_name")

    def test_roundtrip_reproduces_stated_accuracy_and_pass_at_k(self) -> None:
        """The round trip's samples-mode pass@1 and pass@k reproduce the file's stated accuracy and pass@k; its
        controls block as the trials say, and only unscored tasks are unscoreable.
        """
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
        # the trimmed file keeps the rare failure modes: past a fifth of its trials have no verdict (attrition)
        nulls = sum(trial["is_resolved"] is None for trial in trials.values())
        self.assertGreater(5 * nulls, len(trials))
        # (a results.json alone declares only the tasks it holds: declared_set_unconfirmed)
        self.assertEqual(sorted(f["code"] for f in report["findings"]),
                         ["attrition_exceeded", "control_inconclusive", "control_violated", "declared_set_unconfirmed"])
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
        """The unscoreable records, by reason and by failure mode, are exactly the null trials."""
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
        """With run metadata, the headline counts over every declared trial, below the harness's own accuracy, and the
        absent trials raise no ledger finding.
        """
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


class TerminalBenchInputErrors(ImportCase):
    """Malformed Terminal-Bench files are input errors naming the file and the field."""

    def test_wrong_types(self) -> None:
        """A mistyped is_resolved, results or trial_name is an input error naming the file and the field."""
        self.assertFieldErrors("terminal-bench", TB_RESULTS, [
            (lambda d: d["results"][0].__setitem__("is_resolved", "yes"), "is_resolved"),
            (lambda d: d.__setitem__("results", {}), "results"),
            (lambda d: d["results"][0].__setitem__("trial_name", 3), "trial_name"),
        ])

    def test_trials_that_disagree_with_each_other_are_refused(self) -> None:
        """A trial named -of-4 among -of-5 ones, a trial named twice, and no trials at all: each refused with the
        trial's index and what is wrong; a trial_name that does not start with its task_id is only noted."""
        def rename(d: dict[str, Any], i: int, name: str) -> None:
            d["results"][i]["trial_name"] = name

        cases = [
            (lambda d: rename(d, 4, "vim-terminal-task.3-of-4"),
             "results[4].trial_name: 'vim-terminal-task.3-of-4' says 4 attempts, earlier trials say 5"),
            (lambda d: rename(d, 4, "vim-terminal-task.2-of-5"), "results[4]: duplicate trial 'vim-terminal-task.2-of-5'"),
            (lambda d: d.__setitem__("results", []), ".results: empty; nothing to import"),
        ]
        self.assertFieldErrors("terminal-bench", TB_RESULTS, cases)
        data = load(TB_RESULTS)
        data["results"][3]["task_id"] = "vim-terminal"
        code, out, err = self.run_gate("import", "terminal-bench", str(self.write_json("prefix.json", data)))
        self.assertEqual(code, 0, err)
        self.assertEqual(len(out.splitlines()), 35)  # the 6 tasks and vim-terminal, 5 attempts each: only noted
        self.assertIn("results[3]: trial_name 'vim-terminal-task.2-of-5' does not start with task_id 'vim-terminal'",
                      err)


class TaskIdsFollowCheckRules(ImportCase):
    def test_a_task_id_with_a_control_character_is_refused_as_check_would(self) -> None:
        """import terminal-bench applies check's task-ID rule."""
        results = load(TB_RESULTS)
        results["results"][0]["task_id"] += "\x1b"
        path = self.write_json("results.json", results)
        self.assertInputError(self.run_gate("import", "terminal-bench", str(path)), "results[0].task_id", "printable")


class StatedAccuracy(ImportCase):
    def test_a_stated_accuracy_the_trials_do_not_give_is_noted(self) -> None:
        """The file's own accuracy is checked against its trials: a mismatch is a note on stderr naming both, and a
        matching figure prints none."""
        data = load(TB_RESULTS)
        resolved = sum(1 for t in data["results"] if t["is_resolved"] is True)
        path = self.write_json("results.json", data)
        code, _, err = self.run_gate("import", "terminal-bench", str(path))
        self.assertEqual(code, 0, err)
        self.assertNotIn("stated accuracy", err)
        data["accuracy"] = 0.99
        path = self.write_json("results.json", data)
        code, _, err = self.run_gate("import", "terminal-bench", str(path))
        self.assertEqual(code, 0, err)
        self.assertIn(f"stated accuracy 0.99 != {resolved}/{len(data['results'])} resolved trials", err)


class RunIdWithoutMetadata(ImportCase):
    def test_a_run_no_file_names_takes_its_folders_name_or_its_files(self) -> None:
        """With no run_metadata.json and no recording path naming the run, a run's id is its folder's name when the
        file is the run's own results.json, else the file's stem (a copy under another name)."""
        results = load(TB_RESULTS)
        for trial in results["results"]:
            trial.pop("recording_path", None)
        folder = self.dir / "my-run"
        folder.mkdir()
        for name, run_id in (("results.json", "my-run"), ("copy.json", "copy")):
            path = folder / name
            path.write_text(json.dumps(results), encoding="utf-8")
            with self.subTest(name=name):
                self.assertEqual({r["run_id"] for r in self.imp("terminal-bench", str(path))}, {run_id})


class DatasetSizeWithoutTaskIds(ImportCase):
    def test_a_dataset_size_alone_declares_the_set_only_when_every_task_has_trials(self) -> None:
        """run_metadata.json with dataset_size and no task_ids: the tasks with trials are the declared set when they
        are as many as dataset_size; one more in dataset_size than tasks with trials is refused (those tasks
        cannot be named), never read as a whole run."""
        meta, results = load(TB_META), load(TB_RESULTS)
        meta["task_ids"] = None
        seen = len({trial["task_id"] for trial in results["results"]})
        results_path = self.write_json("results.json", results)
        for size, ok in ((seen, True), (seen + 1, False)):
            meta_path = self.write_json("run_metadata.json", dict(meta, dataset_size=size))
            code, _out, err = self.run_gate("import", "terminal-bench", str(results_path), str(meta_path),
                                            "-o", str(self.dir / f"runs{size}.jsonl"))
            with self.subTest(size=size):
                if ok:
                    self.assertEqual(code, 0, err)
                else:
                    self.assertEqual(code, 2)
                    self.assertIn(f"dataset_size is {size} but", err)
                    self.assertIn(f"has trials for {seen} tasks; the tasks without trials cannot be named", err)
