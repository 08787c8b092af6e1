"""`gate.py import harbor JOB_DIR...`: Harbor job folders (Terminal-Bench 2.x) into runs.jsonl, one record per
planned trial, by Harbor's own error policy.

The real job folders are in tests/fixtures/harbor/; the synthetic ones are built in each test from the real
dna-insert--thinharness job (its config.json, result.json and trial result.json) with one thing changed. The
expected verdicts are Harbor's error policy (harbor/models/trial/error_policy.py 0.25-0.26, formats.md §2),
written out again below, never read from gate.py.
"""

from __future__ import annotations

import copy
import json
import shutil
import unittest
from fractions import Fraction
from pathlib import Path
from typing import Any

import gate
from tests.realfiles import TH, TH20, RealFileCase
from tests.support import load

TEMPLATE = TH20 / "dna-insert--thinharness" / "job"
TRIAL = TEMPLATE / "dna-insert__SHwX67r" / "result.json"
THIN = [TH20 / f"{cell}--thinharness" / "job" for cell in ("break-filter-js-from-html", "dna-insert", "tune-mjcf")]

# Harbor's error policy: without a valid reward, what each exception type means for the ledger.
NO_REWARD = {
    "EnvironmentStartTimeoutError": "env_flake", "SandboxBuildFailedError": "env_flake",
    "AgentSetupTimeoutError": "env_flake", "HealthcheckError": "env_flake", "MemoryLimitExceededError": "env_flake",
    "ApiRateLimitError": "env_flake", "ApiInternalServerError": "env_flake", "NetworkConnectionError": "env_flake",
    "BadRequestError": "env_flake", "BudgetExceededError": "env_flake", "AuthenticationError": "env_flake",
    "ModelNotFoundError": "env_flake", "RuntimeError": "env_flake",
    "RewardFileNotFoundError": "grader_error", "RewardFileEmptyError": "grader_error",
    "VerifierOutputParseError": "grader_error",
    "AgentTimeoutError": "harness_timeout", "VerifierTimeoutError": "harness_timeout",
    "CancelledError": "cancelled",
}
# Types whose policy says the reward, when the verifier wrote one, is valid: the trial is scored.
VALID_REWARD = ("AgentTimeoutError", "NonZeroAgentExitCodeError", "ContextWindowExceededError",
                "OutputTokenExceededError", "AgentSafetyRefusalError", "RuntimeError")
# Types whose policy says no valid reward even when a reward file exists: the reward is not a verdict.
INVALID_REWARD = {"VerifierTimeoutError": "harness_timeout", "RewardFileEmptyError": "grader_error",
                  "VerifierOutputParseError": "grader_error", "CancelledError": "cancelled",
                  "EnvironmentStartTimeoutError": "env_flake", "ApiRateLimitError": "env_flake"}


def trial(task: str, name: str, started: str, reward: float | None = 0.0, exception: str | None = None,
          **changes: Any) -> dict[str, Any]:
    """The real trial result.json with its task, name, start and verdict fields changed."""
    data = load(TRIAL)
    data.update(task_name=f"terminal-bench/{task}", trial_name=name, id=f"id-{name}",
                started_at=f"2026-08-25T{started}Z", finished_at=f"2026-08-25T{started[:2]}:59:59.000000Z")
    data["verifier_result"] = None if reward is None else {"rewards": {"reward": reward}}
    data["exception_info"] = None if exception is None else {
        "exception_type": exception, "exception_message": f"{exception}: [synthetic]",
        "exception_traceback": "[synthetic]", "occurred_at": f"2026-08-25T{started}Z"}
    data.update(changes)
    return data


def job_evals(trials: list[dict[str, Any]]) -> dict[str, Any]:
    """The job result.json's stats.evals Harbor writes for these trials: each trial's name under its reward
    (reward_stats) and under its exception type (exception_stats), by agent, model and dataset."""
    evals: dict[str, Any] = {}
    for data in trials:
        info = data.get("agent_info") or {}
        key = f"{info.get('name')}__{(info.get('model_info') or {}).get('name')}__{data.get('source')}"
        entry = evals.setdefault(key, {"n_trials": 0, "n_errors": 0, "metrics": [], "pass_at_k": {},
                                       "reward_stats": {}, "exception_stats": {}})
        rewards = (data.get("verifier_result") or {}).get("rewards") or {}
        for name, value in rewards.items():
            entry["reward_stats"].setdefault(name, {}).setdefault(str(value), []).append(data["trial_name"])
        kind = (data.get("exception_info") or {}).get("exception_type")
        if kind:
            entry["exception_stats"].setdefault(kind, []).append(data["trial_name"])
    return evals


class HarborCase(RealFileCase):
    def job(self, name: str, trials: list[dict[str, Any]], tasks: list[str] | None = None, n_attempts: int = 1,
            planned: int | None = None, config: bool = True) -> Path:
        """A job folder: the real job's result.json and config.json, with its task list, n_attempts and planned
        trials changed, and one folder per trial (named by its trial_name)."""
        folder = self.dir / "jobs" / name
        folder.mkdir(parents=True)
        result = load(TEMPLATE / "result.json")
        result["n_total_trials"] = len(trials) if planned is None else planned
        result["stats"]["evals"] = job_evals(trials)
        (folder / "result.json").write_text(json.dumps(result, indent=4))
        if config:
            cfg = load(TEMPLATE / "config.json")
            if tasks is not None:
                cfg["datasets"][0]["task_names"] = [f"terminal-bench/{t}" for t in tasks]
            if n_attempts != 1:
                cfg["n_attempts"] = n_attempts
            (folder / "config.json").write_text(json.dumps(cfg, indent=4))
        for data in trials:
            (folder / data["trial_name"]).mkdir()
            (folder / data["trial_name"] / "result.json").write_text(json.dumps(data, indent=4))
        return folder

    def one(self, data: dict[str, Any], *extra: str) -> dict[str, Any]:
        """The one record of a one-trial job."""
        job = self.job(f"job-{len(list((self.dir).glob('jobs/*')))}", [data])
        records = self.imp("harbor", str(job), *extra)
        self.assertEqual(len(records), 1)
        return records[0]


class HarborVerdicts(HarborCase):
    """A trial with a valid reward is scored; without one, Harbor's error policy names the reason."""

    def test_a_valid_reward_passes_at_or_above_the_threshold(self) -> None:
        """A reward of 1.0 passes and 0.0 fails at the default --threshold 1.0; 0.5 fails there and passes at
        --threshold 0.5, where 0.49 still fails; the reward is kept under harness."""
        cases = [(1.0, "1.0", "pass"), (0.0, "1.0", "fail"), (0.5, "1.0", "fail"), (0.5, "0.5", "pass"),
                 (0.49, "0.5", "fail")]
        for reward, threshold, outcome in cases:
            with self.subTest(reward=reward, threshold=threshold):
                rec = self.one(trial("dna-insert", "dna-insert__T", "10:00:00.000000", reward), "--threshold", threshold)
                self.assertOutcome(rec, outcome, None)
                self.assertEqual(rec["harness"]["reward"], reward)

    def test_no_reward_is_unscoreable_by_the_error_policy(self) -> None:
        """Without a reward, the exception type says why: environment and model-API faults env_flake, verifier
        faults grader_error, agent and verifier timeouts harness_timeout, CancelledError cancelled; no exception
        at all (the trial never finished) missing_artifact."""
        for exception, reason in [*NO_REWARD.items(), (None, "missing_artifact")]:
            with self.subTest(exception=exception):
                rec = self.one(trial("dna-insert", "dna-insert__T", "10:00:00.000000", None, exception))
                self.assertOutcome(rec, "unscoreable", reason)
                self.assertEqual(rec["harness"]["exception_type"], exception)
                self.assertIsNone(rec["harness"]["reward"])

    def test_an_agent_timeout_with_a_reward_is_scored(self) -> None:
        """AgentTimeoutError (and the other types whose policy keeps the reward valid: the agent's own budget,
        exit code or refusal, and an unlisted type) with a reward is scored by that reward."""
        for exception in VALID_REWARD:
            for reward, outcome in ((1.0, "pass"), (0.0, "fail")):
                with self.subTest(exception=exception, reward=reward):
                    rec = self.one(trial("dna-insert", "dna-insert__T", "10:00:00.000000", reward, exception))
                    self.assertOutcome(rec, outcome, None)

    def test_a_reward_the_policy_invalidates_is_not_a_verdict(self) -> None:
        """A verifier timeout, a verifier fault, a cancellation or an environment fault leaves no valid reward even
        where a reward file exists, so a reward of 1.0 there is not a pass."""
        for exception, reason in INVALID_REWARD.items():
            with self.subTest(exception=exception):
                rec = self.one(trial("dna-insert", "dna-insert__T", "10:00:00.000000", 1.0, exception))
                self.assertOutcome(rec, "unscoreable", reason)

    def test_the_real_agent_timeout_trial_is_a_fail(self) -> None:
        """tune-mjcf--thinharness: AgentTimeoutError, and the verifier still wrote 0.0: a scored fail."""
        data = load(TH20 / "tune-mjcf--thinharness" / "job" / "tune-mjcf__HRaojqz" / "result.json")
        self.assertEqual(data["exception_info"]["exception_type"], "AgentTimeoutError")
        self.assertEqual(data["verifier_result"], {"rewards": {"reward": 0.0}})
        records = self.imp("harbor", str(TH20 / "tune-mjcf--thinharness" / "job"))
        self.assertEqual([(r["outcome"], r["reason"]) for r in records], [("fail", None)])

    def test_a_providers_policy_refusal_is_the_systems_fail(self) -> None:
        """break-filter-js-from-html--thinharness and vulnerable-secret--thinharness: a RuntimeError whose message is
        the model provider refusing the task ("flagged for possible cybersecurity risk", code cyber_policy) and no
        verifier result: the system's fail, never env_flake (which told a reader the infrastructure flaked), the
        exception kept under harness. The same RuntimeError with another message stays env_flake."""
        for job in (TH20 / "break-filter-js-from-html--thinharness" / "job", TH / "vulnerable-secret--thinharness" / "job"):
            with self.subTest(job=job.parent.name):
                trial_file = next(job.glob("*/result.json"))
                self.assertIsNone(load(trial_file)["verifier_result"])
                records = self.imp("harbor", str(job))
                self.assertEqual(len(records), 1)
                self.assertOutcome(records[0], "fail", None)
                self.assertEqual(records[0]["harness"]["exception_type"], "RuntimeError")
                self.assertEqual(records[0]["harness"]["trial_name"], trial_file.parent.name)

    def test_cancelled_is_a_declared_reason_class(self) -> None:
        """A cancelled trial is unscoreable 'cancelled', which the draft declares in reason_classes."""
        job = self.job("cancelled", [trial("dna-insert", "dna-insert__C", "10:00:00.000000", None, "CancelledError")])
        imp = self.import_ok("harbor", str(job))
        self.assertOutcome(imp.records[0], "unscoreable", "cancelled")
        self.assertIn("cancelled", imp.draft["reason_classes"])


class HarborAttempts(HarborCase):
    """Attempts per task by start time, the budget from n_attempts, planned trials that left no result."""

    def test_attempts_are_numbered_per_task_by_start_time(self) -> None:
        """With -k 3 a task's trials differ only by a random suffix: attempt k is the k-th by started_at, not by
        folder name; each task is numbered on its own."""
        trials = [trial("dna-insert", "dna-insert__zzz", "08:00:00.000000", 1.0),
                  trial("dna-insert", "dna-insert__aaa", "09:00:00.000000", 0.0),
                  trial("dna-insert", "dna-insert__mmm", "07:00:00.000000", 0.0),
                  trial("fix-git", "fix-git__bbb", "11:00:00.000000", 0.0),
                  trial("fix-git", "fix-git__aaa", "12:00:00.000000", 1.0),
                  trial("fix-git", "fix-git__ccc", "10:00:00.000000", 1.0)]
        job = self.job("k3", trials, tasks=["dna-insert", "fix-git"], n_attempts=3)
        imp = self.import_ok("harbor", str(job))
        got = [(r["task_id"], r["attempt"], r["harness"]["trial_name"], r["outcome"]) for r in imp.records]
        self.assertEqual(got, [
            ("terminal-bench/dna-insert", 1, "dna-insert__mmm", "fail"),
            ("terminal-bench/dna-insert", 2, "dna-insert__zzz", "pass"),
            ("terminal-bench/dna-insert", 3, "dna-insert__aaa", "fail"),
            ("terminal-bench/fix-git", 1, "fix-git__ccc", "pass"),
            ("terminal-bench/fix-git", 2, "fix-git__bbb", "fail"),
            ("terminal-bench/fix-git", 3, "fix-git__aaa", "pass"),
        ])
        self.assertEqual((imp.draft["attempt_mode"], imp.draft["attempt_budget"]), ("samples", 3))

    def test_the_budget_is_config_n_attempts(self) -> None:
        """The draft's budget is config.json's n_attempts (absent: 1, retry mode); a job with fewer trials than
        n_attempts x tasks fills the missing attempts, never shrinks the budget."""
        one = self.job("k1", [trial("dna-insert", "dna-insert__a", "08:00:00.000000", 1.0)], tasks=["dna-insert"])
        imp = self.import_ok("harbor", str(one), name="k1")
        self.assertEqual((imp.draft["attempt_mode"], imp.draft["attempt_budget"]), ("retry", 1))
        four = self.job("k4", [trial("dna-insert", "dna-insert__a", "08:00:00.000000", 1.0)], tasks=["dna-insert"],
                        n_attempts=4, planned=4)
        imp = self.import_ok("harbor", str(four), name="k4")
        self.assertEqual((imp.draft["attempt_mode"], imp.draft["attempt_budget"]), ("samples", 4))
        self.assertEqual([(r["attempt"], r["outcome"], r["reason"]) for r in imp.records],
                         [(1, "pass", None)] + [(n, "unscoreable", "missing_artifact") for n in (2, 3, 4)])

    def test_planned_trials_without_a_result_are_missing_artifact(self) -> None:
        """When config.json names the tasks, every planned trial without a result.json is a missing_artifact
        record, including a task none of whose trials left one; the draft declares every named task."""
        trials = [trial("dna-insert", "dna-insert__a", "08:00:00.000000", 1.0),
                  trial("fix-git", "fix-git__a", "09:00:00.000000", 0.0),
                  trial("fix-git", "fix-git__b", "10:00:00.000000", 1.0)]
        job = self.job("partial", trials, tasks=["dna-insert", "fix-git", "never-ran"], n_attempts=2, planned=6)
        imp = self.import_ok("harbor", str(job))
        got = {(r["task_id"].split("/")[1], r["attempt"]): (r["outcome"], r["reason"]) for r in imp.records}
        self.assertEqual(got, {
            ("dna-insert", 1): ("pass", None), ("dna-insert", 2): ("unscoreable", "missing_artifact"),
            ("fix-git", 1): ("fail", None), ("fix-git", 2): ("pass", None),
            ("never-ran", 1): ("unscoreable", "missing_artifact"), ("never-ran", 2): ("unscoreable", "missing_artifact"),
        })
        self.assertEqual(imp.draft["dataset"]["task_ids"], [f"terminal-bench/{t}" for t in ("dna-insert", "fix-git", "never-ran")])
        absent = [r for r in imp.records if r["reason"] == "missing_artifact"]
        self.assertTrue(all(r["harness"].get("absent") for r in absent))

    def test_a_job_copied_as_its_result_json_alone_is_read_from_it(self) -> None:
        """The real thinharness/tune-mjcf job has only job/result.json (no trial folder, no config.json): its trial
        is read from stats.evals (reward 0.0 beside an AgentTimeoutError, a valid reward by Harbor's policy: a
        fail), the task named from the trial name, and a note says no per-trial timing was available."""
        real = TH / "tune-mjcf--thinharness" / "job"
        self.assertEqual(sorted(p.name for p in real.iterdir()), ["result.json"])
        for n, given in enumerate((real, real / "result.json")):
            imp = self.import_ok("harbor", str(given), name=f"imp{n}")
            self.assertEqual([(r["task_id"], r["attempt"], r["outcome"], r["reason"]) for r in imp.records],
                             [("tune-mjcf", 1, "fail", None)])
            self.assertEqual(imp.records[0]["harness"]["format"], "harbor-job-result")
            self.assertNotIn("wall_clock_s", imp.records[0])
            self.assertTrue(any("read from the job's result.json alone" in n and "no per-trial timing" in n
                                for n in imp.notes()))

    def test_a_job_result_json_without_trial_folders_gives_each_listed_trial_its_verdict(self) -> None:
        """A job whose trial folders were not copied: every trial its result.json lists under reward_stats and
        exception_stats is one attempt with Harbor's verdict, the config's task names restored from the trial
        names; a planned trial listed nowhere is missing_artifact."""
        trials = [trial("dna-insert", "dna-insert__a", "08:00:00.000000", 1.0),
                  trial("fix-git", "fix-git__b", "08:00:00.000000", 0.0),
                  trial("tune-mjcf", "tune-mjcf__c", "08:00:00.000000", None, "VerifierTimeoutError"),
                  trial("hf-model", "hf-model__d", "08:00:00.000000", 1.0, "VerifierTimeoutError")]
        job = self.job("copied", trials, tasks=["dna-insert", "fix-git", "tune-mjcf", "hf-model", "never-ran"],
                       planned=5)
        for folder in [p for p in job.iterdir() if p.is_dir()]:
            shutil.rmtree(folder)
        imp = self.import_ok("harbor", str(job))
        got = {r["task_id"].split("/")[1]: (r["outcome"], r["reason"]) for r in imp.records}
        self.assertEqual(got, {"dna-insert": ("pass", None), "fix-git": ("fail", None),
                               "tune-mjcf": ("unscoreable", "harness_timeout"),
                               "hf-model": ("unscoreable", "harness_timeout"),
                               "never-ran": ("unscoreable", "missing_artifact")})

    def test_a_trial_folder_that_disagrees_with_the_job_result_is_refused(self) -> None:
        """Trial folders win over the job's result.json, and the two must agree: a trial whose folder says reward
        1.0 where the job file lists it under 0.0 is refused, naming the trial."""
        job = self.job("disagree", [trial("dna-insert", "dna-insert__a", "08:00:00.000000", 1.0)], tasks=["dna-insert"])
        result = load(job / "result.json")
        stats = next(iter(result["stats"]["evals"].values()))
        stats["reward_stats"] = {"reward": {"0.0": ["dna-insert__a"]}}
        (job / "result.json").write_text(json.dumps(result, indent=4))
        self.assertInputError(self.run_gate("import", "harbor", str(job)), "trial dna-insert__a",
                              "reads pass but the job's result.json reads fail")

    def test_the_verdict_is_the_reward_key_or_the_one_key_the_verifier_wrote(self) -> None:
        """`rewards.reward` is the verdict beside any other key; a verifier that wrote one key under another name
        is read by that key; several keys and no `reward` are refused, naming them (no guess at which is the
        verdict)."""
        cases = [({"reward": 0.0, "accuracy": 1.0}, "fail"), ({"reward": 1.0, "accuracy": 0.0}, "pass"),
                 ({"accuracy": 1.0}, "pass"), ({"accuracy": 0.0}, "fail")]
        for rewards, outcome in cases:
            with self.subTest(rewards=rewards):
                data = trial("dna-insert", "dna-insert__T", "10:00:00.000000", None, verifier_result={"rewards": rewards})
                self.assertEqual(self.one(data)["outcome"], outcome)
        data = trial("dna-insert", "dna-insert__a", "08:00:00.000000", None,
                     verifier_result={"rewards": {"style": 1.0, "accuracy": 0.0}})
        job = self.job("two-keys", [data], tasks=["dna-insert"])
        self.assertInputError(self.run_gate("import", "harbor", str(job)),
                              "reward_stats has several keys (accuracy, style) and no 'reward'")
        result = load(job / "result.json")  # the job's stats without the keys: the trial's own rewards are read
        next(iter(result["stats"]["evals"].values()))["reward_stats"] = {}
        (job / "result.json").write_text(json.dumps(result, indent=4))
        self.assertInputError(self.run_gate("import", "harbor", str(job)), "dna-insert__a",
                              "verifier_result.rewards has several keys (accuracy, style) and no 'reward'")

    def test_missing_trials_the_config_cannot_name_are_refused(self) -> None:
        """A job whose config names its tasks by glob, with a planned trial neither a folder nor the job's
        result.json names: refused with one line saying the missing trials cannot be named."""
        job = self.job("glob", [trial("dna-insert", "dna-insert__a", "08:00:00.000000", 1.0)], tasks=["*"], planned=2)
        self.assertInputError(self.run_gate("import", "harbor", str(job)),
                              "2 trial(s) planned, 1 named by a trial folder or the job's result.json")

    def test_more_trials_than_the_budget_is_refused(self) -> None:
        """A task with more trials than n_attempts is refused (the job is not what its config says), naming how many
        it has: all three, not the first one past the budget."""
        trials = [trial("dna-insert", f"dna-insert__{c}", f"0{i}:00:00.000000", 1.0) for i, c in enumerate("abc")]
        job = self.job("over", trials, tasks=["dna-insert"])
        self.assertInputError(self.run_gate("import", "harbor", str(job)), "3 attempts, more than n_attempts 1")


class HarborJobs(HarborCase):
    """Several job folders of one agent, model and dataset are one claim; Harbor's own mean is shown beside it."""

    def test_the_three_thinharness_jobs_are_one_claim(self) -> None:
        """The three --thinharness jobs of thinharness-20task import as one retry-mode claim over their three
        tasks, run id the study folder's name, each task its own trial's verdict."""
        imp = self.import_ok("harbor", *map(str, THIN))
        got = [(r["task_id"], r["attempt"], r["outcome"], r["reason"], r["run_id"]) for r in imp.records]
        self.assertEqual(got, [
            ("terminal-bench/break-filter-js-from-html", 1, "fail", None, "thinharness-20task"),
            ("terminal-bench/dna-insert", 1, "fail", None, "thinharness-20task"),
            ("terminal-bench/tune-mjcf", 1, "fail", None, "thinharness-20task"),
        ])
        self.assertEqual((imp.draft["attempt_mode"], imp.draft["attempt_budget"]), ("retry", 1))
        self.assertEqual(imp.draft["system"]["agent"], "direct-openai-pairwise")
        self.assertEqual(imp.draft["system"]["model"], "gpt-5.6-sol")
        self.assertNotIn("agent", imp.draft["envelope"])  # the system under test is not the instrument
        self.assertEqual(imp.draft["dataset"]["name"],
                         "terminal-bench/terminal-bench-2-1 (subset: 3 tasks, task_names (3 named))")
        self.assertEqual(imp.draft["dataset"]["subset"], {"selection": "task_names (3 named)"})
        # one note for the three jobs' own figures (a 20-job study printed twenty near-identical ones)
        figures = [n for n in imp.notes() if "Harbor's own job figure" in n]
        self.assertEqual(len(figures), 1, figures)
        self.assertIn("Harbor's own job figures, 3 jobs: mean 0 over 2 trial(s) with a reward, 2 errored", figures[0])
        report = self.gated(imp)
        self.assertHeadline(report, Fraction(0), 3)
        self.assertEqual(report["ledger"]["unscoreable_reasons"], {})  # the refusal is the system's fail

    def test_jobs_of_different_agents_or_models_are_refused(self) -> None:
        """A job whose trials name another agent, or another model, is not the same system: refused with one line
        naming both, not merged into one claim."""
        for field, value in (("name", "oracle"), ("model", "gpt-4.1")):
            with self.subTest(field=field):
                other = self.dir / f"other-{field}" / "job"
                shutil.copytree(TH20 / "dna-insert--pi" / "job", other)
                trial_file = next(other.glob("*/result.json"))
                data = load(trial_file)
                if field == "name":
                    data["agent_info"]["name"] = value
                else:
                    data["agent_info"]["model_info"]["name"] = value
                trial_file.write_text(json.dumps(data, indent=4))
                result = self.run_gate("import", "harbor", str(THIN[0]), str(THIN[2]), str(other))
                self.assertInputError(result, "measured 2 different systems", value, "direct-openai-pairwise")

    def test_jobs_with_different_n_attempts_are_refused(self) -> None:
        """Jobs run with different n_attempts are not one attempt contract: refused."""
        a = self.job("a", [trial("dna-insert", "dna-insert__a", "08:00:00.000000", 1.0)], tasks=["dna-insert"])
        b = self.job("b", [trial("fix-git", "fix-git__a", "08:00:00.000000", 1.0)], tasks=["fix-git"], n_attempts=2,
                     planned=2)
        self.assertInputError(self.run_gate("import", "harbor", str(a), str(b)), "different n_attempts")

    def test_harbor_mean_is_printed_beside_the_gated_headline(self) -> None:
        """The import prints Harbor's own job figure (stats.evals[...].metrics[0].mean) as a note. For
        break-filter-js-from-html, whose one trial errored without a reward, Harbor 0.21 states mean 0.0 (the
        errored trial counted 0) while the gated headline is 0/1 with the task unscoreable; for dna-insert--pi
        the two agree at 1.0."""
        job = TH20 / "break-filter-js-from-html--thinharness" / "job"
        evals = load(job / "result.json")["stats"]["evals"]
        (key, stated), = evals.items()
        self.assertEqual(stated["metrics"][0]["mean"], 0.0)
        self.assertEqual((stated["n_trials"], stated["n_errors"]), (0, 1))
        imp = self.import_ok("harbor", str(job))
        note = next(n for n in imp.notes() if "Harbor's own job figure" in n)
        self.assertIn(f"{key}: mean 0.0 over 0 trial(s) with a reward, 1 errored", note)
        report = self.gated(imp)
        self.assertHeadline(report, Fraction(0), 1)
        # the trial Harbor counts as errored is the provider refusing the task: the system's fail here
        self.assertEqual((report["ledger"]["pass"], report["ledger"]["unscoreable"]), (0, 0))

        pi = TH20 / "dna-insert--pi" / "job"
        imp = self.import_ok("harbor", str(pi), name="pi")
        mean = next(iter(load(pi / "result.json")["stats"]["evals"].values()))["metrics"][0]["mean"]
        self.assertIn(f"mean {mean} over 1 trial(s) with a reward, 0 errored", " ".join(imp.notes()))
        self.assertHeadline(self.gated(imp), Fraction(mean).limit_denominator(), 1)

    def test_measures_and_identifiers_are_kept(self) -> None:
        """Each record keeps the trial's wall clock (finished_at - started_at), its tokens and cost where the agent
        reported them, and Harbor's identifiers (trial_name, id, task_name) under harness."""
        from datetime import datetime

        data = load(TH20 / "dna-insert--pi" / "job" / "dna-insert__awQcgmQ" / "result.json")
        rec = self.imp("harbor", str(TH20 / "dna-insert--pi" / "job"))[0]
        began, ended = (datetime.fromisoformat(data[k].replace("Z", "+00:00")) for k in ("started_at", "finished_at"))
        self.assertAlmostEqual(rec["wall_clock_s"], (ended - began).total_seconds(), places=3)
        self.assertEqual((rec["input_tokens"], rec["output_tokens"]),
                         (data["agent_result"]["n_input_tokens"], data["agent_result"]["n_output_tokens"]))
        self.assertNotIn("cost_usd", rec, "Harbor wrote cost_usd null")
        self.assertEqual((rec["harness"]["trial_name"], rec["harness"]["id"], rec["harness"]["task_name"]),
                         (data["trial_name"], data["id"], data["task_name"]))
        costly = trial("dna-insert", "dna-insert__c", "08:00:00.000000", 1.0)
        costly["agent_result"] = dict(costly["agent_result"], cost_usd=0.4125)
        self.assertEqual(self.one(costly)["cost_usd"], 0.4125)
        # a trial shorter than a second, or of no time at all, is timed; one that ends before it starts is not
        for finished, wall in (("08:00:00.250000", 0.25), ("08:00:00.000000", 0.0), ("07:59:59.000000", None)):
            with self.subTest(finished=finished):
                quick = trial("dna-insert", "dna-insert__q", "08:00:00.000000", 1.0,
                              finished_at=f"2026-08-25T{finished}Z")
                self.assertEqual(self.one(quick).get("wall_clock_s"), wall)

    def test_a_wall_clock_only_some_trials_have_is_dropped_from_all(self) -> None:
        """A trial without finished_at has no wall clock; check wants all or none, so it is dropped from every
        record of the import, with a note saying how many lacked it."""
        trials = [trial("dna-insert", "dna-insert__a", "08:00:00.000000", 1.0),
                  trial("fix-git", "fix-git__a", "09:00:00.000000", 0.0, finished_at=None)]
        job = self.job("untimed", trials, tasks=["dna-insert", "fix-git"])
        imp = self.import_ok("harbor", str(job))
        self.assertFalse(any("wall_clock_s" in r for r in imp.records), imp.records)
        self.assertTrue(any("wall_clock_s left out: 1 of 2 attempts" in n for n in imp.notes()), imp.err)
        full = self.job("timed", [copy.deepcopy(trials[0])], tasks=["dna-insert"])
        self.assertIn("wall_clock_s", self.imp("harbor", str(full))[0])


class HarborExceptions(HarborCase):
    def test_an_api_error_that_is_not_a_refusal_stays_env_flake_and_is_counted_on_the_card(self) -> None:
        """A RuntimeError whose message is a plain provider outage (HTTP 503): unscoreable env_flake, and the card
        lists the exception types of the unscoreable attempts with their counts."""
        job = self.job("outage", [trial("dna-insert", "dna-insert__O", "10:00:00.000000", None, "RuntimeError")])
        for path in job.glob("*/result.json"):
            data = load(path)
            data["exception_info"]["exception_message"] = "provider error 503: service unavailable"
            path.write_text(json.dumps(data), encoding="utf-8")
        imp = self.import_ok("harbor", str(job))
        self.assertOutcome(imp.records[0], "unscoreable", "env_flake")
        self.assertEqual(imp.draft["provenance"]["exceptions"], {"RuntimeError": 1})
        manifest = self.complete(imp.draft_path)
        text = self.run_gate("check", "--manifest", str(manifest), "--runs", str(imp.runs))[1]
        self.assertIn("exceptions  : RuntimeError 1 (what the harness raised: unscoreable, unless counted otherwise)",
                      text)

    def test_a_refusal_is_read_from_a_provider_error_never_a_sandbox_fault_and_shows_on_the_card(self) -> None:
        """A RuntimeError whose message is a provider's cyber_policy refusal is the system's fail, listed on the card
        as counted fail; a SandboxBuildFailedError whose message names a path app/content_filter/ is env_flake (it
        was a fail, hiding an environment fault from the attrition ceiling)."""
        messages = {"dna-insert": ("RuntimeError", "Error code: 400 - invalid_request: cyber_policy violation"),
                    "fix-git": ("SandboxBuildFailedError",
                                "docker build failed: COPY app/content_filter/ : no such file or directory")}
        trials = [trial(task, f"{task}__R", f"10:0{i}:00.000000", None, kind)
                  for i, (task, (kind, _)) in enumerate(messages.items())]
        job = self.job("refusal", trials, tasks=list(messages))
        for path in job.glob("*/result.json"):
            data = load(path)
            data["exception_info"]["exception_message"] = messages[data["task_name"].rsplit("/", 1)[-1]][1]
            path.write_text(json.dumps(data), encoding="utf-8")
        imp = self.import_ok("harbor", str(job))
        by_task = {r["task_id"].rsplit("/", 1)[-1]: r for r in imp.records}
        self.assertOutcome(by_task["dna-insert"], "fail", None)
        self.assertOutcome(by_task["fix-git"], "unscoreable", "env_flake")
        self.assertEqual(imp.draft["provenance"]["exceptions"],
                         {"RuntimeError (counted fail)": 1, "SandboxBuildFailedError": 1})


class HarborFiguresNote(unittest.TestCase):
    """The one note of several jobs' own figures: the mean over every trial with a reward, weighted by trials."""

    def test_the_mean_over_several_jobs_is_weighted_and_not_floored(self) -> None:
        def job(mean: float, trials: int, errors: int) -> gate._HarborJob:
            stats = {"evals": {"agent__model__suite": {"n_trials": trials, "n_errors": errors,
                                                        "metrics": [{"mean": mean}]}}}
            return gate._HarborJob(Path("job"), {"stats": stats}, {}, [])

        note = gate._harbor_figures([job(0.5, 2, 0), job(1.0, 1, 1), job(0.25, 4, 0)])
        self.assertIn("Harbor's own job figures, 3 jobs: mean 0.4286 over 7 trial(s) with a reward, 1 errored",
                      note)  # (0.5 x 2 + 1 x 1 + 0.25 x 4) / 7 = 3/7
