"""The coding benchmarks' own result files, each through its named importer: NoCode-bench, OpenHands, lm-eval,
LiveCodeBench, EvalPlus, BigCodeBench, MLE-bench, HAL and aider; SWE-agent's predictions refused.

The files are in tests/fixtures/harnesses/ (SOURCES.md: five written by the harness itself here, the others built
from its writer's code). Each test counts what the file holds itself (resolved flags, graded lists, statuses), and
holds the gated headline against the harness's own figure: equal where the harness divides by every declared
task, and otherwise shown: `--claim` with the stated number is refused with the finding that says why.
"""

from __future__ import annotations

import json
import math
import shutil
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import gate
from tests.builders import valid_ledger
from tests.realfiles import LM_DATE, Imported, RealFileCase
from tests.support import load

H = Path(__file__).parent / "fixtures" / "harnesses"
LM = H / "lm-eval"
OH = H / "openhands" / "swe-bench-verified-remote-eval"
BCB = "canned--bigcodebench-complete--local-0.8-3-sanitized_calibrated"
HAL_CORE = H / "hal" / "corebench_hard_claude_code_claudeopus41_1764000000"
HAL_SWE = H / "hal" / "swebench_verified_mini_hal_generalist_agent_gpt41_1763632800"
AIDER = H / "aider" / "2026-11-20-10-00-00--gpt-4.1-diff"


def verdicts(imp: Imported) -> Counter[tuple[str, Any]]:
    return Counter((r["outcome"], r["reason"]) for r in imp.records)


def jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


class HarnessCase(RealFileCase):
    def claim(self, imp: Imported, stated: str) -> set[str]:
        """The finding codes of check --claim STATED on the completed draft."""
        report = self.gated(imp, (), "--claim", stated)
        return {f["code"] for f in report["findings"]} & {"claim_shrunk_denominator", "claim_unsupported",
                                                          "claim_is_secondary"}

    def assertRate(self, imp: Imported, rate: Fraction, n: int) -> None:
        """The gated headline: `rate` over n tasks (in samples mode, the share of every sample of every task)."""
        report = self.gated(imp)
        self.assertEqual(report["headline"]["n"], n)
        self.assertAlmostEqual(report["headline"]["rate"], float(rate), places=12)


class NoCodeBench(HarnessCase):
    def test_every_line_and_the_declared_instance_it_lacks(self) -> None:
        """10 lines (4 resolved, 2 with the harness's "not attempted" notes) of 11 declared: 4 pass, 4 fail, 2
        env_flake, 1 missing_artifact; the headline 4/11, where NoCode-bench's Success% over its lines is 4/10."""
        lines = jsonl(H / "nocode-bench" / "evaluation_details.jsonl")
        resolved = sum(1 for line in lines if line["resolved"] is True)
        notes = sum(1 for line in lines if "notes" in line)
        imp = self.import_ok("nocode-bench", str(H / "nocode-bench" / "evaluation_details.jsonl"),
                             "--dataset-ids", str(H / "nocode-bench" / "declared_ids.txt"))
        self.assertEqual((resolved, notes, len(lines)), (4, 2, 10))
        self.assertEqual(verdicts(imp), Counter({("pass", None): 4, ("fail", None): 4, ("unscoreable", "env_flake"): 2,
                                                 ("unscoreable", "missing_artifact"): 1}))
        self.assertRate(imp, Fraction(4, 11), 11)
        self.assertIn(f"{resolved}/{len(lines)}", imp.err)
        self.assertEqual(self.claim(imp, f"{100 * resolved / len(lines):g}%"), {"claim_shrunk_denominator"})

    def test_a_patch_that_did_not_apply_is_a_fail(self) -> None:
        imp = self.import_ok("nocode-bench", str(H / "nocode-bench" / "evaluation_details-synthetic.jsonl"))
        lines = jsonl(H / "nocode-bench" / "evaluation_details-synthetic.jsonl")
        unapplied = {line["instance_id"] for line in lines if line.get("applied") is False}
        self.assertTrue(unapplied)
        self.assertEqual({r["outcome"] for r in imp.records if r["task_id"] in unapplied}, {"fail"})


class OpenHands(HarnessCase):
    def test_output_jsonl_read_with_its_evaluation_beside_it(self) -> None:
        """output.jsonl after evaluation, with output.swebench_eval.jsonl beside it: resolved 2, an apply failure and
        an empty patch fail, the evaluation's timeouts harness_timeout (a flag, and a "Timeout after" line), a
        report that failed to parse grader_error, a runtime that failed five times env_flake, an instance never
        evaluated and one never run missing_artifact; cost and tokens from metrics."""
        imp = self.import_ok("openhands", str(OH / "output.jsonl"), "--dataset-ids", str(OH / "declared_ids.txt"))
        got = {r["task_id"]: (r["outcome"], r["reason"]) for r in imp.records}
        self.assertEqual(got, {
            "astropy__astropy-12907": ("pass", None), "astropy__astropy-13453": ("pass", None),
            "django__django-10880": ("fail", None), "django__django-11066": ("fail", None),
            "django__django-11095": ("fail", None), "sympy__sympy-13031": ("unscoreable", "harness_timeout"),
            "sphinx-doc__sphinx-8035": ("unscoreable", "harness_timeout"),
            "sympy__sympy-13480": ("unscoreable", "grader_error"), "pytest-dev__pytest-5262": ("unscoreable", "env_flake"),
            "pylint-dev__pylint-4970": ("unscoreable", "missing_artifact"),
            "pytest-dev__pytest-7236": ("unscoreable", "missing_artifact")})
        first = jsonl(OH / "output.jsonl")[0]
        record = next(r for r in imp.records if r["task_id"] == first["instance_id"])
        self.assertEqual(record["cost_usd"], first["metrics"]["accumulated_cost"])
        self.assertEqual(imp.draft["system"]["agent"], first["metadata"]["agent_class"])
        self.assertEqual(imp.draft["system"]["model"], first["metadata"]["llm_config"]["model"])

    def test_the_suite_is_what_the_metadata_names_and_an_empty_name_is_none(self) -> None:
        """metadata.dataset names the suite in the draft; an empty one, or one that is not a string (a list, a
        number), names nothing: the draft asks for the name (dataset.name to do) as it does when the key is null."""
        lines = jsonl(OH / "output.jsonl")
        named = next(line["metadata"]["dataset"] for line in lines if isinstance(line.get("metadata"), dict))
        imp = self.import_ok("openhands", str(OH / "output.jsonl"), name="named")
        self.assertEqual(imp.draft["dataset"]["name"], named)
        for value in ("", None, ["swe-bench"], 7):
            with self.subTest(dataset=value):
                for line in lines:
                    if isinstance(line.get("metadata"), dict):
                        line["metadata"]["dataset"] = value
                path = self.write_jsonl("output.jsonl", lines)
                imp = self.import_ok("openhands", str(path), name=f"unnamed-{len(str(value))}")
                self.assertRegex(imp.draft["dataset"]["name"], r"^TODO: ")
                self.assertIn("dataset.name: the suite and its version or split (the openhands files do not name it)",
                              imp.err)

    def test_the_markdown_figure_is_over_the_submitted_lines(self) -> None:
        """output.swebench_eval.md states 2 resolved of 10 submitted; the gate's headline is 2/11 (one declared
        instance was never run), and --claim 20% names the shrunk denominator."""
        text = (OH / "output.swebench_eval.md").read_text(encoding="utf-8")
        self.assertIn("submitted instances: 10", text)
        self.assertIn("resolved instances: 2", text)
        imp = self.import_ok("openhands", str(OH / "output.jsonl"), "--dataset-ids", str(OH / "declared_ids.txt"))
        self.assertIn("(2 resolved here, of 10 line(s) in output.jsonl)", imp.err)
        self.assertRate(imp, Fraction(2, 11), 11)
        self.assertTrue(self.claim(imp, "20%"))

    def test_before_evaluation_is_refused_naming_the_evaluation(self) -> None:
        path = H / "openhands" / "multi-swe-bench-before-eval" / "output.jsonl"
        self.assertInputError(self.run_gate("import", "openhands", str(path)), str(path), "before evaluation",
                              "eval_infer.sh")


class LmEval(HarnessCase):
    def test_samples_of_five_generations_gate_to_the_stated_pass_at_1(self) -> None:
        """humaneval_local_5: each document's pass@1 is c/5 (c = 5, 3, 0, 2, 2, 5): 17 of 30 samples pass, the
        headline 17/30 = lm-eval's pass@1 0.5667, in samples mode with budget 5; the documents are the 6 of
        n-samples.original."""
        path = LM / "full" / f"samples_humaneval_local_5_{LM_DATE}.jsonl"
        results = load(LM / "full" / f"results_{LM_DATE}.json")
        stated = results["results"]["humaneval_local_5"]["pass@1,create_test"]
        passes = [round(line["pass@1"] * 5) for line in jsonl(path)]
        self.assertEqual(passes, [5, 3, 0, 2, 2, 5])
        imp = self.import_ok("lm-eval", str(path))
        self.assertEqual((imp.draft["attempt_mode"], imp.draft["attempt_budget"]), ("samples", 5))
        self.assertEqual(imp.draft["dataset"]["task_count"], results["n-samples"]["humaneval_local_5"]["original"])
        counts = results["n-samples"]["humaneval_local_5"]
        self.assertEqual(counts["effective"], counts["original"])  # every document evaluated: the suite, no subset
        self.assertNotIn("subset", imp.draft["dataset"])
        self.assertRate(imp, Fraction(sum(passes), 30), 6)
        self.assertAlmostEqual(sum(passes) / 30, stated, places=12)

    def test_a_limit_run_is_a_subset_claim(self) -> None:
        """--limit 4 of 6 documents: declared as a subset of 6, headline 1/4 = the stated 0.25."""
        imp = self.import_ok("lm-eval", str(LM / "limit"))
        counts = load(next((LM / "limit").glob("results_*.json")))["n-samples"]["humaneval_local"]
        self.assertEqual((counts["effective"], counts["original"]), (4, 6))
        self.assertEqual(imp.draft["dataset"]["subset"]["of"], 6)
        self.assertRate(imp, Fraction(1, 4), 4)

    def test_a_results_file_of_several_tasks_is_refused_naming_each_samples_file(self) -> None:
        path = LM / "full" / f"results_{LM_DATE}.json"
        self.assertInputError(self.run_gate("import", "lm-eval", str(path)), str(path), "3 tasks",
                              f"samples_mbpp_local_{LM_DATE}.jsonl", "one claim is one task")
        # two tasks are several too; one is the claim
        folder = self.dir / "two"
        folder.mkdir()
        for name in (path.name, f"samples_mbpp_local_{LM_DATE}.jsonl", f"samples_humaneval_local_{LM_DATE}.jsonl"):
            shutil.copy(LM / "full" / name, folder / name)
        self.assertInputError(self.run_gate("import", "lm-eval", str(folder / path.name)), "2 tasks",
                              f"samples_humaneval_local_{LM_DATE}.jsonl, samples_mbpp_local_{LM_DATE}.jsonl")
        (folder / f"samples_mbpp_local_{LM_DATE}.jsonl").unlink()
        imp = self.import_ok("lm-eval", str(folder / path.name))
        samples = (folder / f"samples_humaneval_local_{LM_DATE}.jsonl").read_text(encoding="utf-8")
        self.assertEqual(len(imp.records), len(samples.splitlines()))


class LiveCodeBench(HarnessCase):
    def test_graded_lists_with_the_runner_timeout_apart(self) -> None:
        """Four samples a problem: graded true passes, a wrong answer fails, error_code -5 with the runner's
        IndexError (its global timeout) is harness_timeout; the headline 12/20 is the stated mean pass@1 0.6."""
        path = H / "livecodebench" / "output" / "Canned-Model" / "Scenario.codegeneration_4_0.2_eval_all.json"
        problems = load(path)
        graded = sum(g is True for p in problems for g in p["graded_list"])
        runner = sum(json.loads(m).get("error_code") == -5 for p in problems for m in p["metadata"])
        imp = self.import_ok("livecodebench", str(path))
        self.assertEqual(verdicts(imp), Counter({("pass", None): graded, ("unscoreable", "harness_timeout"): runner,
                                                 ("fail", None): 20 - graded - runner}))
        stated = load(path.with_name(path.name.replace("_eval_all", "_eval")))[0]["pass@1"]
        self.assertRate(imp, Fraction(graded, 20), 5)
        self.assertAlmostEqual(graded / 20, stated, places=12)

    def test_the_runner_code_is_the_number_minus_5_however_written(self) -> None:
        """error_code -5.0 is the number -5: the runner's timeout (harness_timeout), as -5 is, not a fail."""
        path = H / "livecodebench" / "output" / "Canned-Model" / "Scenario.codegeneration_4_0.2_eval_all.json"
        problems = load(path)
        runner = sum(json.loads(m).get("error_code") == -5 for p in problems for m in p["metadata"])
        self.assertGreater(runner, 0)
        text = path.read_text(encoding="utf-8").replace('\\"error_code\\": -5,', '\\"error_code\\": -5.0,')
        self.assertEqual(text.count("-5.0,"), runner)
        copy = self.dir / "output" / "Canned-Model" / path.name
        copy.parent.mkdir(parents=True)
        copy.write_text(text, encoding="utf-8")
        shutil.copy(path.with_name(path.name.replace("_eval_all", "_eval")), copy.parent)
        imp = self.import_ok("livecodebench", str(copy))
        self.assertEqual(verdicts(imp)[("unscoreable", "harness_timeout")], runner)

    def test_an_unevaluated_file_is_refused(self) -> None:
        path = H / "livecodebench" / "output" / "Canned-Model" / "Scenario.codegeneration_4_0.2.json"
        self.assertInputError(self.run_gate("import", "livecodebench", str(path)), str(path), "--evaluate")


class EvalPlus(HarnessCase):
    def test_plus_and_base_are_two_claims(self) -> None:
        """A sample passes HumanEval+ when its base and plus statuses pass (8 of 15), HumanEval's own tests when
        its base status does (11 of 15); a timeout fails. The headlines are the printed pass@1 0.533 and 0.733."""
        path = H / "evalplus" / "samples_eval_results.json"
        samples = [s for v in load(path)["eval"].values() for s in v]
        plus = sum(s["base_status"] == s["plus_status"] == "pass" for s in samples)
        base = sum(s["base_status"] == "pass" for s in samples)
        self.assertIn("timeout", {s["base_status"] for s in samples} | {s["plus_status"] for s in samples})
        for tests, want, printed in (("plus", plus, "0.533"), ("base", base, "0.733")):
            with self.subTest(tests=tests):
                imp = self.import_ok("evalplus", str(path), "--tests", tests, name=tests)
                self.assertRate(imp, Fraction(want, len(samples)), 5)
                self.assertIn(printed, (H / "evalplus" / "stdout.txt").read_text(encoding="utf-8"))
                self.assertEqual(self.claim(imp, f"{100 * want / len(samples):.1f}%"), set())

    def test_tests_is_evalplus_only(self) -> None:
        self.assertInputError(self.run_gate("import", "livecodebench", "x.json", "--tests", "base"), "--tests")


class BigCodeBench(HarnessCase):
    def test_a_task_whose_ground_truth_fails_here_is_unscoreable(self) -> None:
        """failed_tasks [BigCodeBench/1]: its 3 samples are env_flake (two "passed"); the stated pass@1 0.6 counts
        them, the headline 7/15 does not, and --claim 60% is refused."""
        path = H / "bigcodebench" / "run" / f"{BCB}_eval_results.json"
        summary = load(H / "bigcodebench" / "run" / f"{BCB}_pass_at_k.json")
        table = load(path)["eval"]
        kept = sum(s["status"] == "pass" for tid, v in table.items() if tid not in summary["failed_tasks"] for s in v)
        imp = self.import_ok("bigcodebench", str(path))
        self.assertEqual(verdicts(imp)[("unscoreable", "env_flake")], 3)
        self.assertRate(imp, Fraction(kept, 15), 5)
        self.assertEqual(summary["pass@1"], 0.6)
        self.assertTrue(self.claim(imp, "60%"))

    def test_a_file_not_named_eval_results_is_never_its_own_summary(self) -> None:
        """The summary is the *_pass_at_k.json beside an *_eval_results.json. A results file by another name has
        none: one that also holds the summary's keys (pass@1, failed_tasks naming BigCodeBench/1) is read as
        results alone, its failed_tasks not applied and its pass@1 not stated."""
        path = H / "bigcodebench" / "run" / f"{BCB}_eval_results.json"
        merged = {**load(H / "bigcodebench" / "run" / f"{BCB}_pass_at_k.json"), **load(path)}
        self.assertIn("BigCodeBench/1", merged["failed_tasks"])
        imp = self.import_ok("bigcodebench", str(self.write_json("bcb.json", merged)))
        self.assertEqual(verdicts(imp)[("unscoreable", "env_flake")], 0)
        passed = sum(s["status"] == "pass" for v in merged["eval"].values() for s in v)
        self.assertRate(imp, Fraction(passed, 15), 5)
        self.assertIn("its pass@1 and ground-truth check are not read", imp.err)


class MleBench(HarnessCase):
    def test_two_seeds_as_samples_over_the_split(self) -> None:
        """Seed 0 holds 6 reports (2 medals), seed 1 five (2 medals, aerial-cactus-identification absent): samples
        mode with 2 samples over the 6 competitions of the split, 4/12; the absent one and a missing submission are
        missing_artifact, a submission the grader could not score grader_error: not scored attempts, still
        counted."""
        seeds = sorted(H.glob("mle-bench/run-group-seed*/*_grading_report.json"))
        reports = [load(p) for p in seeds]
        self.assertEqual([(r["total_medals"], r["total_runs"]) for r in reports], [(2, 6), (2, 5)])
        imp = self.import_ok("mle-bench", *map(str, seeds), "--dataset-ids", str(H / "mle-bench" / "split6.txt"))
        self.assertEqual((imp.draft["attempt_mode"], imp.draft["attempt_budget"]), ("samples", 2))
        entries = [c for r in reports for c in r["competition_reports"]]
        no_submission = sum(c["submission_exists"] is False for c in entries)
        invalid = sum(c["submission_exists"] is True and c["valid_submission"] is False for c in entries)
        self.assertGreaterEqual(no_submission, 1)
        self.assertGreaterEqual(invalid, 1)
        self.assertEqual(verdicts(imp)[("unscoreable", "missing_artifact")], 1 + no_submission)  # + the absent one
        self.assertEqual(verdicts(imp)[("unscoreable", "grader_error")], invalid)
        self.assertRate(imp, Fraction(4, 12), 6)


class Hal(HarnessCase):
    def test_corebench_accuracy_is_over_the_tasks_that_answered(self) -> None:
        """accuracy 0.6 = 3/5; the split declares 6 (capsule-0851068 never answered): headline 3/6, and --claim 60%
        is refused as the scoreable-only rate (the unanswered task is missing_artifact)."""
        path = next(HAL_CORE.glob("*_UPLOAD.json"))
        results = load(path)["results"]
        imp = self.import_ok("hal", str(path), "--dataset-ids", str(H / "hal" / "corebench_declared_ids.txt"))
        self.assertRate(imp, Fraction(len(results["successful_tasks"]), 6), 6)
        self.assertEqual(self.claim(imp, f"{100 * results['accuracy']:g}%"), {"claim_is_secondary"})

    def test_swebench_mini_keeps_the_reports_errors_apart(self) -> None:
        """raw_eval_results is the SWE-bench run report: its error_ids are grader_error (HAL folds them into
        failed_tasks), an empty patch (in neither of HAL's lists) fails. The run used --max_tasks 8: with the
        benchmark's 50 ids it is a subset claim over their first 8, 3/8, where HAL states 3/50 = 0.06 (every task
        it never ran counted as failed); --claim 6% is refused."""
        path = next(HAL_SWE.glob("*_UPLOAD.json"))
        data = load(path)
        ids = H / "hal" / "swebench_verified_mini_task_ids.txt"
        self.assertIn("--max_tasks 8", data["config"]["run_command"])
        imp = self.import_ok("hal", str(path), "--dataset-ids", str(ids))
        errors = set(data["raw_eval_results"]["error_ids"])
        self.assertTrue(errors and errors <= set(data["results"]["failed_tasks"]))
        self.assertEqual({r["reason"] for r in imp.records if r["task_id"] in errors}, {"grader_error"})
        first = ids.read_text(encoding="utf-8").split()[:8]
        self.assertEqual(imp.draft["dataset"]["task_ids"], sorted(first))
        self.assertEqual(imp.draft["dataset"]["subset"]["of"], 50)
        self.assertRate(imp, Fraction(3, 8), 8)
        self.assertEqual(data["results"]["accuracy"], 0.06)
        self.assertTrue(self.claim(imp, "6%"))

    def test_a_max_tasks_run_without_the_benchmarks_ids_says_how_to_declare_it(self) -> None:
        path = next(HAL_SWE.glob("*_UPLOAD.json"))
        imp = self.import_ok("hal", str(path))
        self.assertIn("--max_tasks 8: give --dataset-ids", imp.err)
        # a subset of a suite whose size the file does not record, on the card, never the suite itself (issue 36)
        self.assertEqual(imp.draft["dataset"]["subset"],
                         {"of": None, "selection": "HAL --max_tasks 8 (the benchmark's first 8 tasks)"})
        self.assertIn("(subset: 8 tasks", imp.draft["dataset"]["name"])

    def test_an_agent_or_model_that_names_nothing_is_not_recorded_as_the_system(self) -> None:
        """HAL's agent_name and agent_args.model_name describe the system only as non-empty strings: an empty agent
        name and a model given as a number, an object or "" are not recorded, and the draft's system asks for them
        (to-do), where the file's real names are recorded as they are."""
        path = next(HAL_SWE.glob("*_UPLOAD.json"))
        data = load(path)
        named = self.import_ok("hal", str(path), name="named").draft["system"]
        self.assertEqual((named["agent"], named["model"]),
                         (data["config"]["agent_name"], data["config"]["agent_args"]["model_name"]))
        for number, model in enumerate((7, {"name": "m"}, "")):
            with self.subTest(model=model):
                data["config"]["agent_name"] = ""
                data["config"]["agent_args"]["model_name"] = model
                blank = self.write_json("blank_UPLOAD.json", data)
                system = self.import_ok("hal", str(blank), name=f"blank{number}").draft["system"]
                self.assertEqual(system, {"agent": "TODO: the agent this run measured (the hal files do not name it)",
                                          "model": "TODO: the model this run measured (the hal files do not name it)"})


class Aider(HarnessCase):
    def test_tries_are_retries_and_a_missing_exercise_counts(self) -> None:
        """tests_outcomes are retries (budget 2); an exercise whose run crashed is env_flake, one with no results
        file missing_artifact: 4 of 8 pass within 2 tries, where aider's pass_rate_2 is 4/7."""
        imp = self.import_ok("aider", str(AIDER))
        self.assertEqual((imp.draft["attempt_mode"], imp.draft["attempt_budget"]), ("retry", 2))
        exercises = [p for p in AIDER.glob("*/exercises/practice/*") if p.is_dir()]
        with_results = [p for p in exercises if (p / ".aider.results.json").is_file()]
        self.assertEqual((len(exercises), len(with_results)), (8, 7))
        self.assertRate(imp, Fraction(4, 8), 8)
        self.assertEqual(verdicts(imp)[("unscoreable", "env_flake")], 1)
        self.assertEqual(self.claim(imp, f"{100 * 4 / 7:.1f}%"), {"claim_shrunk_denominator"})
        # aider's own figure counts an exercise passed on its last try (bowling passes on the second)
        self.assertIn("aider's pass_rate_2 divides by the exercises with a results file: 4/7", imp.err)

    def test_a_run_whose_every_exercise_crashed_drafts_a_budget_of_one(self) -> None:
        """Every exercise crashed (an exception, no tries): one attempt each, env_flake, and a draft budget of 1,
        never 0 (which no ledger of one attempt a task satisfies)."""
        import shutil

        run = self.dir / "run"
        shutil.copytree(AIDER, run)
        for results in run.rglob(".aider.results.json"):
            results.write_text(json.dumps({**load(results), "exception": "boom"}), encoding="utf-8")
        imp = self.import_ok("aider", str(run))
        self.assertEqual(imp.draft["attempt_budget"], 1)
        self.assertEqual(verdicts(imp)[("unscoreable", "env_flake")], 7)

    def test_an_exercise_with_no_try_is_one_failed_attempt(self) -> None:
        """tests_outcomes [] (the tests never ran, no exception recorded): one attempt, a fail, never a pass and
        never dropped; the run's other exercises keep their verdicts."""
        import shutil

        run = self.dir / "run"
        shutil.copytree(AIDER, run)
        results = sorted(run.rglob(".aider.results.json"))
        passed = [p for p in results if any(load(p).get("tests_outcomes", []))]
        emptied = passed[0]
        emptied.write_text(json.dumps({**load(emptied), "tests_outcomes": []}), encoding="utf-8")
        imp = self.import_ok("aider", str(run))
        tid = emptied.parent.name
        mine = [(r["attempt"], r["outcome"], r["reason"]) for r in imp.records if r["task_id"].endswith(tid)]
        self.assertEqual(mine, [(1, "fail", None)])
        self.assertRate(imp, Fraction(3, 8), 8)

    def test_the_leaderboard_yaml_is_refused(self) -> None:
        path = H / "aider" / "polyglot_leaderboard-excerpt.yml"
        self.assertInputError(self.run_gate("import", "aider", str(path)), str(path), "run folder")


class SweAgent(HarnessCase):
    def test_predictions_and_trajectories_are_refused_naming_the_grader(self) -> None:
        for path in sorted((H / "swe-agent-preds").rglob("*")):
            if path.is_file():
                with self.subTest(path=path.name):
                    self.assertInputError(self.run_gate("import", "swe-agent", str(path)), str(path),
                                          "swebench.harness.run_evaluation")


class HostileHarnessFiles(HarnessCase):
    """Files a harness did not write as it does: refused with one line naming the field (exit 2), never a task
    invented, dropped or counted twice."""

    def edited(self, source: Path, name: str, edit: Any) -> Path:
        data = load(source)
        edit(data)
        return self.write_json(name, data)

    def test_hal_task_lists_must_be_lists_of_ids_with_one_verdict_each(self) -> None:
        source = next(HAL_SWE.glob("*_UPLOAD.json"))
        cases = {
            "a string": (lambda d: d["results"].__setitem__("successful_tasks", "django__django-11815"),
                         "results.successful_tasks: expected a list"),
            "a number": (lambda d: d["raw_eval_results"].__setitem__("error_ids", 7), "raw_eval_results.error_ids"),
            "both lists": (lambda d: d["results"]["successful_tasks"].append(d["results"]["failed_tasks"][0]),
                           "in both successful_tasks and failed_tasks"),
        }
        for label, (edit, fragment) in cases.items():
            with self.subTest(label):
                path = self.edited(source, "hal.json", edit)
                self.assertInputError(self.run_gate("import", "hal", str(path)), str(path), fragment)

    def test_hal_a_task_in_two_report_lists_takes_the_first(self) -> None:
        """An id in unresolved_ids and in resolved_ids is unresolved (make_run_report's order, as import swebench)."""
        source = next(HAL_SWE.glob("*_UPLOAD.json"))
        data = load(source)
        moved = data["raw_eval_results"]["unresolved_ids"][0]
        path = self.edited(source, "hal.json", lambda d: d["raw_eval_results"]["resolved_ids"].append(moved))
        imp = self.import_ok("hal", str(path))
        self.assertEqual(next(r["outcome"] for r in imp.records if r["task_id"] == moved), "fail")

    def test_a_task_with_no_samples_stays_in_the_denominator(self) -> None:
        path = H / "livecodebench" / "output" / "Canned-Model" / "Scenario.codegeneration_4_0.2_eval_all.json"
        emptied = self.edited(path, "lcb.json", lambda d: d[0].__setitem__("graded_list", []))
        imp = self.import_ok("livecodebench", str(emptied))
        first = load(path)[0]["question_id"]
        self.assertEqual(len(imp.draft["dataset"]["task_ids"]), 5)
        self.assertEqual({(r["outcome"], r["reason"]) for r in imp.records if r["task_id"] == first},
                         {("unscoreable", "missing_artifact")})

    def test_livecodebench_types(self) -> None:
        path = H / "livecodebench" / "output" / "Canned-Model" / "Scenario.codegeneration_4_0.2_eval_all.json"
        deep = "[" * 100_000 + "]" * 100_000
        cases = {"graded 1": (lambda d: d[0].__setitem__("graded_list", [1, 1, 1, 1]), "graded_list"),
                 "metadata text": (lambda d: d[0].__setitem__("metadata", "notjson"), "[0].metadata"),
                 "metadata deep": (lambda d: d[0]["metadata"].__setitem__(1, deep), "[0].metadata[1]")}
        for label, (edit, fragment) in cases.items():
            with self.subTest(label):
                edited = self.edited(path, "lcb.json", edit)
                self.assertInputError(self.run_gate("import", "livecodebench", str(edited)), str(edited), fragment)

    def test_openhands_evaluation_file_is_checked(self) -> None:
        """A duplicate instance in the evaluation beside output.jsonl, a report that disagrees with it, and two
        systems in one file are refused."""
        lines = (OH / "output.jsonl").read_text(encoding="utf-8").splitlines()
        evaluated = (OH / "output.swebench_eval.jsonl").read_text(encoding="utf-8").splitlines()
        folder = self.dir / "oh"
        folder.mkdir()
        (folder / "output.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        (folder / "output.swebench_eval.jsonl").write_text("\n".join([*evaluated, evaluated[2]]) + "\n", encoding="utf-8")
        self.assertInputError(self.run_gate("import", "openhands", str(folder / "output.jsonl")), "again")
        flipped = json.loads(evaluated[2])
        flipped["test_result"]["report"]["resolved"] = True
        (folder / "output.swebench_eval.jsonl").write_text("\n".join([*evaluated[:2], json.dumps(flipped), *evaluated[3:]])
                                                           + "\n", encoding="utf-8")
        self.assertInputError(self.run_gate("import", "openhands", str(folder / "output.jsonl")), "disagree on resolved")
        other = json.loads(lines[1])
        other["metadata"]["llm_config"]["model"] = "another-model"
        (folder / "output.jsonl").write_text("\n".join([lines[0], json.dumps(other), *lines[2:]]) + "\n", encoding="utf-8")
        (folder / "output.swebench_eval.jsonl").unlink()
        self.assertInputError(self.run_gate("import", "openhands", str(folder / "output.jsonl")), "2 different systems")

    def test_lm_eval_pass_at_1_must_be_a_count(self) -> None:
        """pass@1 0.7 over 5 generations is no count of passes (3.5): refused, not rounded to 4."""
        source = LM / "full" / f"samples_humaneval_local_5_{LM_DATE}.jsonl"
        folder = self.dir / "lm"
        folder.mkdir()
        lines = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()]
        lines[0]["pass@1"] = 0.7
        path = folder / source.name
        path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
        self.assertInputError(self.run_gate("import", "lm-eval", str(path)), "pass@1 0.7")

    def test_lm_eval_pass_at_k_of_one_does_not_say_how_many_passed(self) -> None:
        """Without pass@1, a document's passes come from its pass@k, each allowing the counts it holds for, and all
        of them together: pass@2 = 1 over 5 generations holds for 4 and for 5 passes, so it alone is refused, naming
        the range (the first, 4, was taken: the document's stated pass@1 is 5 of 5); over 10 generations pass@10 = 1
        (any count from 1) beside pass@2 = 0.5333 and pass@5 = 0.9167 (3 exactly) reads as 3; pass@k that no one
        count gives are refused."""
        source = LM / "full" / f"samples_humaneval_local_5_{LM_DATE}.jsonl"
        folder = self.dir / "lm"
        folder.mkdir()
        lines = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()]
        self.assertEqual((lines[0]["pass@1"], lines[0]["pass@2"]), (1.0, 1.0))
        path = folder / source.name

        def imported(*edited: dict[str, Any]) -> tuple[int, str, str]:
            path.write_text("".join(json.dumps(line) + "\n" for line in edited), encoding="utf-8")
            return self.run_gate("import", "lm-eval", str(path))

        without_one = [{key: value for key, value in line.items() if key != "pass@1"} for line in lines]
        self.assertInputError(imported(*without_one), ":1: its pass@k (pass@2 1.0, pass@5 1.0) hold for 4 to 5 "
                              "passes of the document's 5 generations, so they do not say how many passed")
        ten = dict(without_one[0], filtered_resps=[[f"generation {i}" for i in range(10)]], resps=None)
        ten["pass@10"] = 1.0
        ten["pass@2"] = 1 - math.comb(7, 2) / math.comb(10, 2)  # 3 of 10 passed
        ten["pass@5"] = 1 - math.comb(7, 5) / math.comb(10, 5)
        code, out, err = imported(ten)
        self.assertEqual(code, 0, err)
        self.assertEqual([json.loads(line)["outcome"] for line in out.splitlines()].count("pass"), 3)
        ten["pass@2"] = 0.5  # no count of 10 gives it beside pass@10 = 1 (none gives 0.5 at all: it is skipped)
        ten["pass@3"] = 0.0  # 0 passes, which pass@10 = 1 rules out
        self.assertInputError(imported(ten), "disagree: no count of passes of the document's 10 generations gives "
                              "them all")

    def test_lm_eval_pass_at_k_at_the_edge_of_its_tolerance_is_still_its_count(self) -> None:
        """A pass@2 over 10 generations is read as the count whose pass@2 it is to 1e-9: one document for each count
        c of 1..8, its stated pass@2 the float exactly 1e-9 above the gate's own pass@2 of c, another exactly 1e-9
        below; every document reads as c passes (a search that took the tolerance as open at either end found no
        count there and refused the file)."""
        source = LM / "full" / f"samples_humaneval_local_5_{LM_DATE}.jsonl"
        template = json.loads(source.read_text(encoding="utf-8").splitlines()[0])
        lines, expected = [], {}
        for c in range(1, 9):
            exact = gate.pass_at_k(10, c, 2)
            for side, edge in ((1, exact + 1e-9), (-1, exact - 1e-9)):
                # the float at exactly 1e-9 from it, as the gate computes the difference
                stated = next(v for v in (edge, math.nextafter(edge, 2.0), math.nextafter(edge, -2.0))
                              if v - side * 1e-9 == exact)
                doc = len(lines)
                line = {key: value for key, value in template.items() if not key.startswith("pass@")}
                line.update(doc_id=doc, doc=dict(template["doc"], task_id=f"HumanEval/{doc}"),
                            filtered_resps=[[f"generation {i}" for i in range(10)]], resps=None, metrics=["pass@2"])
                line["pass@2"] = stated
                lines.append(line)
                expected[doc] = c
        folder = self.dir / "lm"
        folder.mkdir()
        path = folder / source.name
        path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
        passes = Counter(r["harness"]["doc_id"] for r in self.imp("lm-eval", str(path)) if r["outcome"] == "pass")
        self.assertEqual({doc: passes[doc] for doc in expected}, expected)

    def test_one_report_twice_is_not_two_seeds(self) -> None:
        report = next(H.glob("mle-bench/run-group-seed0/*.json"))
        copy = self.write_json("copy_grading_report.json", load(report))
        self.assertInputError(self.run_gate("import", "mle-bench", str(report), str(copy)), "a seed counted twice")

    def test_bigcodebench_failed_tasks_must_be_a_list(self) -> None:
        folder = self.dir / "bcb"
        folder.mkdir()
        for path in (H / "bigcodebench" / "run").glob(f"{BCB}_*.json"):
            data = load(path)
            if "failed_tasks" in data:
                data["failed_tasks"] = "BigCodeBench/1"
            (folder / path.name).write_text(json.dumps(data), encoding="utf-8")
        self.assertInputError(self.run_gate("import", "bigcodebench", str(folder)), "failed_tasks: expected a list")

    def test_aider_one_system_and_no_symlinked_exercise(self) -> None:
        import shutil

        run = self.dir / "run"
        shutil.copytree(AIDER, run)
        (run / "python" / "exercises" / "practice" / "bowling2").symlink_to(run / "python" / "exercises" / "practice" / "bowling")
        imp = self.import_ok("aider", str(run))
        self.assertEqual(len(imp.draft["dataset"]["task_ids"]), 8)
        results = run / "python" / "exercises" / "practice" / "grep" / ".aider.results.json"
        data = load(results)
        data["model"] = "another-model"
        results.write_text(json.dumps(data), encoding="utf-8")
        self.assertInputError(self.run_gate("import", "aider", str(run)), "one claim is one system")

    def test_check_on_a_harness_file_names_its_importer(self) -> None:
        """`check --runs` given a harness's own file names the right importer (BigCodeBench's shares keys with
        Inspect's logs; LiveCodeBench's is a JSON array)."""
        manifest = self.write_json("m.json", valid_ledger()[0])
        for fmt, path in (("bigcodebench", H / "bigcodebench" / "run" / f"{BCB}_eval_results.json"),
                          ("evalplus", H / "evalplus" / "samples_eval_results.json"),
                          ("livecodebench", H / "livecodebench" / "output" / "Canned-Model" /
                           "Scenario.codegeneration_4_0.2_eval_all.json"),
                          ("mle-bench", next(H.glob("mle-bench/run-group-seed0/*.json"))),
                          ("lm-eval", LM / "full" / f"samples_mbpp_local_{LM_DATE}.jsonl")):
            with self.subTest(fmt):
                code, _out, err = self.run_gate("check", "--manifest", str(manifest), "--runs", str(path))
                self.assertEqual(code, 2)
                self.assertIn(f"import {fmt} ", err)

    def test_the_aider_folder_named_for_a_results_file_is_its_run(self) -> None:
        """The hint names the run folder: <run>/<exercise>/ or <run>/<language>/exercises/practice/<exercise>/, and
        only a folder named exactly "exercises" marks the second layout (not one that sorts before or after it)."""
        name = ".aider.results.json"
        for path, run in ((f"/h/u/aaa/bbb/run/ex/{name}", "/h/u/aaa/bbb/run"),
                          (f"/h/u/aaa/zzz/run/ex/{name}", "/h/u/aaa/zzz/run"),
                          (f"/h/run/python/exercises/practice/ex/{name}", "/h/run"),
                          (f"exercises/practice/ex/{name}", "exercises/practice"),
                          (f"ex/{name}", "."), (name, ".")):
            self.assertEqual(gate._aider_target(Path(path)), Path(run), path)


class WhatToDoNext(HarnessCase):
    def test_the_control_to_do_names_the_harness_commands(self) -> None:
        """A draft from evalplus checked without controls: the finding names EvalPlus's no-edit and known-fix runs
        (the envelope says "EvalPlus (plus tests)"; the registry's names are lower case)."""
        imp = self.import_ok("evalplus", str(H / "evalplus" / "samples_eval_results.json"))
        report = self.gated(imp)
        message = next(f["message"] for f in report["findings"] if f["code"] == "controls_incomplete")
        self.assertIn("canonical_solution", message)

    def test_attrition_past_the_cap_does_not_offer_to_raise_the_ceiling(self) -> None:
        """OpenHands with 6 of 11 unscoreable (54.5%): raising max_unscoreable (capped at 0.5) cannot help, so the
        finding does not suggest it; at 3 of 11 it would."""
        imp = self.import_ok("openhands", str(OH / "output.jsonl"), "--dataset-ids", str(OH / "declared_ids.txt"))
        report = self.gated(imp)
        message = next(f["message"] for f in report["findings"] if f["code"] == "attrition_exceeded")
        self.assertIn("54.5%", message)
        self.assertNotIn("raise max_unscoreable", message)
        self.assertIn("past what max_unscoreable may allow", message)


class Provenance(HarnessCase):
    def test_a_folder_input_is_hashed_file_by_file(self) -> None:
        """The draft's provenance gives a folder input (aider's run) the sha256 of each file's relative path and
        sha256, in path order, computed here; a changed file changes it."""
        import hashlib
        import shutil

        run = self.dir / "run"
        shutil.copytree(AIDER, run)

        def tree(folder: Path) -> str:
            digest = hashlib.sha256()
            for item in sorted(p for p in folder.rglob("*") if p.is_file()):
                inner = hashlib.sha256(item.read_bytes()).hexdigest()
                digest.update(f"{item.relative_to(folder).as_posix()}\0{inner}\n".encode())
            return digest.hexdigest()

        first = self.import_ok("aider", str(run), name="first").draft["provenance"]["files"][0]["sha256"]
        self.assertEqual(first, tree(run))
        (run / "python" / "exercises" / "practice" / "zipper" / "note.txt").write_text("x", encoding="utf-8")
        second = self.import_ok("aider", str(run), name="second").draft["provenance"]["files"][0]["sha256"]
        self.assertEqual(second, tree(run))
        self.assertNotEqual(first, second)
