"""Issue 20: an import writes one claim: one system on one suite (or a declared subset of it), every declared
task, every attempt the harness made, with the verdict mapping recorded; where the files cannot make that claim
the import is refused with one line naming what differs.

One test class per rule of the issue. Each test says in its docstring what the code before commit 5d1921f
(9ff3100's gate.py) did with the same command. Inputs are the harnesses' real files (tests/fixtures/, SOURCES.md:
"wild3/" and "import_rules/"), copied into the test's folder and changed only where the docstring says; every
expected figure is read from those files, never from gate.py.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import shutil
import unittest
import zipfile
from fractions import Fraction
from pathlib import Path
from typing import Any

from tests.realfiles import (
    DROID,
    SWE_LOGS,
    SWE_LOGS_SUMMARY,
    TH,
    VTM,
    RealFileCase,
    controls_from,
    rule_headline,
    zstd_readable,
)
from tests.support import FIXTURES, load, run_cli
from tests.test_import_harbor import TEMPLATE, job_evals, trial

RULES = FIXTURES / "inspect" / "rules"
WILD3 = FIXTURES / "wild3"
IMPORT_RULES = FIXTURES / "import_rules"
RUST_FORK = WILD3 / "swebench" / "rust-bench-fork"
STARMYS = WILD3 / "swebench" / "Starmys__SWE-bench" / "gold.validate-gold.json"
CLASS_EVAL = WILD3 / "inspect" / "metr-inspect-action" / "2025-12-13T23-15-44+00-00_class-eval_XDtHXBaqEHGUBoFoinn2wS.eval"
# Instance ids the logs folder has no folder for, added to a copy of its run report (swebench writes no folder
# for an empty patch or an instance with no prediction).
EMPTY_PATCH = ["astropy__astropy-13033", "astropy__astropy-13236", "astropy__astropy-13398"]
INCOMPLETE = ["astropy__astropy-13453", "astropy__astropy-13579"]


def logs_of(folder: Path) -> list[Path]:
    """An Inspect rules folder's logs (sub-folders included), eval-set.json and logs.json left out."""
    return sorted(p for p in folder.rglob("*.json") if p.name not in ("eval-set.json", "logs.json"))


def eval_header(path: Path) -> dict[str, Any]:
    """An Inspect log's header: header.json of a .eval archive (deflate), or the JSON log itself."""
    if path.suffix == ".eval":
        with zipfile.ZipFile(path) as archive:
            return json.loads(archive.read("header.json"))
    return json.loads(path.read_text(encoding="utf-8"))


def stated_metric(header: dict[str, Any]) -> tuple[str, float]:
    """The log's own figure: results.scores[0]'s first metric (accuracy where there is one)."""
    metrics = header["results"]["scores"][0]["metrics"]
    name = "accuracy" if "accuracy" in metrics else next(iter(metrics))
    return name, metrics[name]["value"]


class OneClaimCase(RealFileCase):
    """RealFileCase with the helpers these rules share."""

    def refused(self, *argv: str) -> str:
        """`gate.py ARGV` must be an input error of one line; that line."""
        result = self.run_gate(*argv)
        self.assertInputError(result)
        return result[2].strip()

    def report(self, manifest: Path, runs: Path, fmt: str = "json", *extra: str) -> str:
        code, out, err = self.run_gate("check", "--manifest", str(manifest), "--runs", str(runs), "--format", fmt, *extra)
        self.assertIn(code, (0, 1), err)
        return out

    def swebench_report_with_gaps(self) -> Path:
        """The instance-logs run report with three empty-patch and two incomplete instances added, its counts
        kept consistent with its lists (as make_run_report writes them)."""
        data = load(SWE_LOGS_SUMMARY)
        data["empty_patch_ids"] = list(EMPTY_PATCH)
        data["empty_patch_instances"] = len(EMPTY_PATCH)
        data["incomplete_ids"] = list(INCOMPLETE)
        data["incomplete_instances"] = len(INCOMPLETE)
        data["submitted_ids"] = sorted(data["submitted_ids"] + EMPTY_PATCH)
        data["submitted_instances"] = len(data["submitted_ids"])
        data["total_instances"] += len(EMPTY_PATCH) + len(INCOMPLETE)
        return self.write_json("synthetic-model.synthetic-run.json", data)

    def harbor_job(self, name: str, trials: list[dict[str, Any]], dataset: dict[str, Any] | None = None) -> Path:
        """A Harbor job folder built from the real dna-insert--thinharness job (as test_import_harbor builds them):
        its result.json with these trials' stats.evals, its config.json with datasets[0] replaced where given, one
        folder a trial."""
        folder = self.dir / "jobs" / name
        folder.mkdir(parents=True)
        result = load(TEMPLATE / "result.json")
        result["n_total_trials"] = len(trials)
        result["stats"]["evals"] = job_evals(trials)
        (folder / "result.json").write_text(json.dumps(result, indent=4))
        cfg = load(TEMPLATE / "config.json")
        if dataset is not None:
            cfg["datasets"][0] = dataset
        (folder / "config.json").write_text(json.dumps(cfg, indent=4))
        for data in trials:
            (folder / data["trial_name"]).mkdir()
            (folder / data["trial_name"] / "result.json").write_text(json.dumps(data, indent=4))
        return folder

    def edit_meta(self, run: Path, **changes: Any) -> None:
        path = run / "run_metadata.json"
        meta = load(path)
        meta.update(changes)
        path.write_text(json.dumps(meta, indent=4))


# -- Rule 1: the declared set of a SWE-bench logs folder --------------------------------------------------------


class SwebenchDeclaredSet(OneClaimCase):
    def test_the_run_report_governs_the_declared_set_of_a_logs_folder(self) -> None:
        """Logs folder (6 instance folders, 1 resolved) + its run report listing 3 empty-patch and 2 incomplete
        instances more: 11 records, the empty patches fail and the incomplete ones are missing_artifact (the report's
        buckets), the headline is the report's 1 of 11, not 1 of 6; a note names the instances without a folder; the
        draft says the declared set came from the report. Old code: 6 records, headline 1/6, no note, no provenance."""
        report_path = self.swebench_report_with_gaps()
        report = load(report_path)
        imp = self.import_ok("swebench", str(SWE_LOGS), str(report_path))
        by_id = {r["task_id"]: r for r in imp.records}
        self.assertEqual(len(by_id), report["total_instances"])
        self.assertEqual(len(by_id), 11)
        for tid in EMPTY_PATCH:
            self.assertOutcome(by_id[tid], "fail", None)
            self.assertIsNone(by_id[tid]["harness"]["log_folder"])
        for tid in INCOMPLETE:
            self.assertOutcome(by_id[tid], "unscoreable", "missing_artifact")
        note = next(n for n in imp.notes() if "have no log folder" in n)
        self.assertTrue(note.startswith("5 declared instance(s) have no log folder"), note)
        for tid in EMPTY_PATCH + INCOMPLETE:
            self.assertIn(tid, note)
        self.assertEqual(imp.draft["provenance"]["declared_from"], f"the run report {report_path.name}")
        self.assertHeadline(self.gated(imp), Fraction(report["resolved_instances"], report["total_instances"]), 11)

    def test_a_logs_folder_alone_says_its_declared_set_is_the_folders_found(self) -> None:
        """A logs folder alone: a note says the declared set is the 6 instance folders found; the draft's to-do
        asks for the run report or --dataset-ids; provenance.declared_from says the same, and check's text card
        shows it on a "declared" line, its JSON under dataset.declared_from. Old code: no note, no to-do item,
        no provenance, no "declared" line."""
        imp = self.import_ok("swebench", str(SWE_LOGS))
        self.assertIn(f"{SWE_LOGS}: the declared set is the 6 instance folders found: swebench writes no folder for "
                      "an empty or missing patch, so give the run report beside the folder (or --dataset-ids FILE) to "
                      "count those too", imp.notes())
        todo = [item for item in imp.draft["draft"] if item.startswith("dataset: the declared set is only")]
        self.assertEqual(len(todo), 1, imp.draft["draft"])
        self.assertIn("the run report (<model>.<run_id>.json) beside the logs folder, or --dataset-ids FILE", todo[0])
        declared = imp.draft["provenance"]["declared_from"]
        self.assertEqual(declared, "the 6 instance folders found in synthetic-model/, not a declared set")
        manifest = self.complete(imp.draft_path)
        text = self.report(manifest, imp.runs, "text")
        self.assertIn(f"declared    : {declared}", text.splitlines())
        self.assertEqual(json.loads(self.report(manifest, imp.runs))["dataset"]["declared_from"], declared)


# -- Rule 2: an Inspect eval set is read as Inspect lists it ---------------------------------------------------


class InspectEvalSets(OneClaimCase):
    def test_a_task_eval_set_json_names_without_a_log_is_refused_by_name(self) -> None:
        """evalset-missing-log: eval-set.json names task_a and task_b, only task_a's log is there: refused with one
        line naming task_b and its task_id. Old code: imported task_a's 3 samples as the whole claim."""
        folder = RULES / "evalset-missing-log"
        missing = next(t for t in load(folder / "eval-set.json")["tasks"] if t["name"] == "task_b")
        line = self.refused("import", "inspect", str(folder))
        self.assertIn(f"the eval set's task 'task_b' (task_id {missing['task_id']}, model mockllm/model) has no log "
                      "here", line)
        self.assertIn("finish the set (`inspect eval-set` again", line)

    def test_logs_in_a_sub_folder_are_read_and_listed(self) -> None:
        """nested: task_b's log sits in sub/ (Inspect's own listing recurses): both tasks are imported (3 + 2
        samples) and a note lists the two logs read, sub/ included. Old code: task_a's 3 samples only."""
        folder = RULES / "nested"
        imp = self.import_ok("inspect", str(folder))
        self.assertEqual(imp.draft["dataset"]["task_ids"], ["task_a/1", "task_a/2", "task_a/3", "task_b/a", "task_b/b"])
        shown = ", ".join(p.relative_to(folder).as_posix() for p in logs_of(folder))
        self.assertIn("sub/", shown)
        self.assertIn(f"{folder}: read 2 log(s): {shown}", imp.notes())
        self.assertHeadline(self.gated(imp), Fraction(3, 5), 5)

    def test_a_complete_eval_set_imports_with_its_eval_set_json_read(self) -> None:
        """evalset-complete: both logs, one stratum a task, 2/3 + 1/2 = 3 of 5 samples; the note lists the logs read
        and the draft says the declared set came from the logs and eval-set.json. Old code: the same records, but
        no note of what was read and no provenance."""
        folder = RULES / "evalset-complete"
        imp = self.import_ok("inspect", str(folder))
        self.assertEqual(imp.draft["dataset"]["strata"], {"task_a": 3, "task_b": 2})
        self.assertEqual(imp.draft["provenance"]["declared_from"],
                         "each log's eval.dataset.sample_ids and the eval set's eval-set.json")
        self.assertTrue(any(n.startswith(f"{folder}: read 2 log(s): ") for n in imp.notes()), imp.notes())
        self.assertEqual({r["run_id"] for r in imp.records}, {(folder / ".eval-set-id").read_text().strip()})
        self.assertHeadline(self.gated(imp), Fraction(3, 5), 5)


# -- Rule 3: one system -------------------------------------------------------------------------------------------


class OneSystem(OneClaimCase):
    def test_inspect_logs_of_two_models_are_refused_naming_both(self) -> None:
        """two-models: task_a run on mockllm/model and on mockllm/other: refused with one line naming both models
        and saying to import with --model. Old code: imported the newer log (mockllm/other) alone, a note on
        stderr, exit 0."""
        line = self.refused("import", "inspect", str(RULES / "two-models"))
        self.assertIn("the logs measured different systems (mockllm/model (1 log(s)", line)
        self.assertIn("; mockllm/other (1 log(s)", line)
        self.assertIn("import with --model MODEL once per model", line)

    def test_model_selects_one_models_logs_and_the_draft_records_it(self) -> None:
        """--model mockllm/model imports only that model's log (its 3 samples, its run id), and the draft's
        provenance.verdict_mapping and command record the selection; a model no log has is refused. Old code:
        --model was not an option (a usage error)."""
        folder = RULES / "two-models"
        mine = next(p for p in logs_of(folder) if load(p)["eval"]["model"] == "mockllm/model")
        imp = self.import_ok("inspect", str(folder), "--model", "mockllm/model")
        self.assertEqual({r["run_id"] for r in imp.records}, {load(mine)["eval"]["run_id"]})
        self.assertEqual([r["task_id"] for r in imp.records], ["1", "2", "3"])
        self.assertEqual(imp.draft["provenance"]["verdict_mapping"],
                         ["--model mockllm/model: only that model's logs of the files given"])
        self.assertIn("--model mockllm/model", imp.draft["provenance"]["command"])
        self.assertIn("--model mockllm/model: 1 of 2 logs imported; the others are other models'", imp.notes())
        self.assertInputError(self.run_gate("import", "inspect", str(folder), "--model", "mockllm/third"),
                              "no log of that model; the logs hold mockllm/model, mockllm/other")

    def test_inspect_logs_with_different_model_args_are_refused(self) -> None:
        """model-args: one model run with -M foo=1 and -M foo=2: refused naming both model_args. Old code: the
        newer log imported alone, exit 0."""
        line = self.refused("import", "inspect", str(RULES / "model-args"))
        self.assertIn('mockllm/model with model_args {"foo":1}', line)
        self.assertIn('mockllm/model with model_args {"foo":2}', line)
        self.assertIn("one claim per configuration", line)

    def test_terminal_bench_runs_of_different_agents_or_models_are_refused(self) -> None:
        """Two leaderboard runs of the droid submission, the second's run_metadata.json naming another agent (then
        another model): refused with one line naming both. Old code: averaged into one samples-mode claim."""
        for field, value in (("agent_name", "Another Agent"), ("model_name", "openai/other-model")):
            with self.subTest(field=field):
                runs = self.tb_runs(DROID)[:2]
                first = load(runs[0] / "run_metadata.json")
                self.edit_meta(runs[1], **{field: value})
                line = self.refused("import", "terminal-bench", *map(str, runs))
                self.assertIn("the files measured 2 different systems (", line)
                model = first["model_name"] or "(not named)"
                if field == "agent_name":
                    self.assertIn(f"agent {first['agent_name']}, model {model} ('{runs[0].name}')", line)
                    self.assertIn(f"agent Another Agent, model {model} ('{runs[1].name}')", line)
                else:
                    self.assertIn(f"agent {first['agent_name']}, model openai/other-model ('{runs[1].name}')", line)
                shutil.rmtree(self.dir / "board")

    def test_several_terminal_bench_runs_without_run_metadata_are_refused(self) -> None:
        """Two runs' results.json given without their run_metadata.json name no agent or model: refused. Old code:
        imported as one claim."""
        runs = self.tb_runs(DROID)[:2]
        line = self.refused("import", "terminal-bench", *(str(run / "results.json") for run in runs))
        self.assertIn("several runs are one claim only when each names its agent and model", line)
        self.imp("terminal-bench", str(runs[0] / "results.json"))  # one run alone still imports


# -- Rule 4: re-runs ----------------------------------------------------------------------------------------------


class Reruns(OneClaimCase):
    def test_an_errored_log_then_a_finished_one_is_a_retry_the_draft_records(self) -> None:
        """retry: the errored first try of task_retry and its finished retry: the retry is imported and the draft's
        provenance.replaced names both files. Old code: the same records, the replacement in a note only."""
        first, second = logs_of(RULES / "retry")
        self.assertEqual((load(first)["status"], load(second)["status"]), ("error", "success"))
        imp = self.import_ok("inspect", str(RULES / "retry"))
        self.assertEqual(imp.draft["provenance"]["replaced"],
                         [f"{first.name} (status error) replaced by its retry {second.name}"])
        self.assertEqual({r["harness"]["log_status"] for r in imp.records}, {"success"})

    def test_two_finished_logs_of_one_task_model_and_args_are_refused_naming_both(self) -> None:
        """two-finished-same: two finished runs of task_a, same model and arguments: refused naming both files.
        Old code: kept the newer log, a note on stderr."""
        first, second = logs_of(RULES / "two-finished-same")
        line = self.refused("import", "inspect", str(RULES / "two-finished-same"))
        self.assertIn(f"task 'task_a' has 2 finished logs ({first} and {second}): two runs of one task, not a retry",
                      line)

    def test_one_task_with_different_task_args_is_refused(self) -> None:
        """two-finished: task_c with -T variant=one and variant=two: refused naming both task_args. Old code: kept
        the newer log."""
        first, second = logs_of(RULES / "two-finished")
        line = self.refused("import", "inspect", str(RULES / "two-finished"))
        self.assertIn(f"task 'task_c' ran with different task_args in {first.name} (variant=\"one\") and "
                      f"{second.name} (variant=\"two\")", line)


# -- Rule 5: subsets ----------------------------------------------------------------------------------------------


class Subsets(OneClaimCase):
    def test_a_terminal_bench_selection_is_a_declared_subset_everywhere(self) -> None:
        """A droid run whose run_metadata.json records --n-tasks 80 (then --exclude-task-id): the draft's
        dataset.subset holds the selection and its name says subset; check's text card has a "subset" line, the JSON
        dataset.subset, the Markdown "a subset", and the badge and shields outputs "(subset)". Old code: no subset
        anywhere."""
        cases = {"n_tasks": (80, "--n-tasks 80"),
                 "exclude_task_ids": (["a-task-left-out"], "--exclude-task-id a-task-left-out")}
        for field, (value, selection) in cases.items():
            with self.subTest(field=field):
                run = self.tb_runs(DROID)[0]
                self.edit_meta(run, **{field: value})
                imp = self.import_ok("terminal-bench", str(run), name=field)
                meta = load(run / "run_metadata.json")
                self.assertEqual(imp.draft["dataset"]["subset"], {"selection": selection})
                self.assertEqual(imp.draft["dataset"]["name"], f"{meta['dataset_name']}=={meta['dataset_version']} "
                                 f"(subset: 80 tasks, {selection})")
                manifest = self.complete(imp.draft_path, controls_from(imp.records), name=field)
                badge, shields = self.dir / f"{field}.svg", self.dir / f"{field}.shields.json"
                text = self.report(manifest, imp.runs, "text", "--output", f"badge={badge}",
                                   "--output", f"shields={shields}")
                self.assertIn(f"subset      : 80 tasks of a larger dataset ({selection}): the claim is about these "
                              "tasks only", text.splitlines())
                self.assertIn("verdict     : PUBLISHABLE", text)
                report = json.loads(self.report(manifest, imp.runs))
                self.assertEqual(report["dataset"]["subset"], {"of": None, "selection": selection})
                self.assertIn(f"a subset: 80 tasks of a larger dataset ({selection})",
                              self.report(manifest, imp.runs, "markdown"))
                self.assertIn("(subset)", badge.read_text())
                self.assertTrue(load(shields)["message"].endswith("(subset)"), load(shields))
                shutil.rmtree(self.dir / "board")

    def test_a_long_exclusion_list_is_named_to_its_first_200_characters(self) -> None:
        """run_metadata.json's exclude_task_ids of 40 tasks (719 characters joined by commas): the selection shows
        the first 200 characters of the list, exactly."""
        excluded = [f"excluded-task-{i:03d}" for i in range(40)]
        run = self.tb_runs(DROID)[0]
        self.edit_meta(run, exclude_task_ids=excluded)
        imp = self.import_ok("terminal-bench", str(run))
        joined = ",".join(excluded)
        self.assertGreater(len(joined), 201)
        self.assertEqual(imp.draft["dataset"]["subset"], {"selection": f"--exclude-task-id {joined[:200]}"})

    def test_a_harbor_selection_is_a_declared_subset(self) -> None:
        """A Harbor job whose config.json datasets[0] has n_tasks, exclude_task_names or task_names declares a
        subset naming it, in the draft and in check's JSON. Old code: no subset."""
        trials = [trial("dna-insert", "dna-insert__a", "08:00:00.000000", 1.0),
                  trial("fix-git", "fix-git__b", "08:00:00.000000", 0.0)]
        base = {"name": "terminal-bench/terminal-bench-2-1"}
        cases = {"n_tasks": ({**base, "n_tasks": 2}, "n_tasks 2"),
                 "exclude": ({**base, "exclude_task_names": ["terminal-bench/tune-mjcf"]},
                             "exclude_task_names terminal-bench/tune-mjcf"),
                 "names": ({**base, "task_names": ["terminal-bench/dna-insert", "terminal-bench/fix-git"]},
                           "task_names (2 named)")}
        for name, (dataset, selection) in cases.items():
            with self.subTest(case=name):
                job = self.harbor_job(name, trials, dataset)
                imp = self.import_ok("harbor", str(job), name=name)
                self.assertEqual(imp.draft["dataset"]["subset"], {"selection": selection})
                self.assertEqual(imp.draft["dataset"]["name"],
                                 f"terminal-bench/terminal-bench-2-1 (subset: 2 tasks, {selection})")
                report = json.loads(self.report(self.complete(imp.draft_path, name=name), imp.runs))
                self.assertEqual(report["dataset"]["subset"], {"of": None, "selection": selection})
        # The same job with no selection in datasets[0] declares none: the rule adds nothing the harness did not record.
        whole = self.import_ok("harbor", str(self.harbor_job("whole", trials, base)), name="whole")
        self.assertNotIn("subset", whole.draft["dataset"])
        self.assertEqual(whole.draft["dataset"]["name"], "terminal-bench/terminal-bench-2-1")


# -- Rule 6: provenance -------------------------------------------------------------------------------------------


class Provenance(OneClaimCase):
    def threshold_job(self) -> Path:
        trials = [trial("dna-insert", f"dna-insert__{i}", f"0{i}:00:00.000000", 1.0 if i < 4 else 0.0)
                  for i in range(10)]
        job = self.harbor_job("rewards", trials)
        cfg = load(job / "config.json")
        cfg["n_attempts"] = 10
        (job / "config.json").write_text(json.dumps(cfg, indent=4))
        return job

    def test_threshold_zero_is_recorded_beside_the_headline(self) -> None:
        """A Harbor job of 10 trials, 4 with reward 1.0 and 6 with 0.0: by default 4/10 pass; with --threshold 0
        every 0.0 passes (10/10), the draft's provenance.verdict_mapping has the --threshold entry, and check shows it
        on a "mapping" line of the text card and as JSON verdict_mapping. Old code: 10/10 with no trace of it."""
        job = self.threshold_job()
        default = self.import_ok("harbor", str(job), name="default")
        self.assertEqual(sum(r["outcome"] == "pass" for r in default.records), 4)
        self.assertEqual(default.draft["provenance"]["verdict_mapping"], [])
        imp = self.import_ok("harbor", str(job), "--threshold", "0", name="zero")
        self.assertEqual(sum(r["outcome"] == "pass" for r in imp.records), 10)
        entry = "--threshold 0.0: a score or reward of 0.0 or more passes (default 1.0)"
        self.assertEqual(imp.draft["provenance"]["verdict_mapping"], [entry])
        manifest = self.complete(imp.draft_path)
        text = self.report(manifest, imp.runs, "text")
        self.assertIn(f"mapping     : {entry} (the import's choices that decide a verdict)", text.splitlines())
        self.assertEqual(json.loads(self.report(manifest, imp.runs))["verdict_mapping"], [entry])

    def test_provenance_files_carry_each_inputs_sha256(self) -> None:
        """provenance.files names each input with its sha256, here a run report file hashed independently; the
        harness is named. Old code: the draft had no provenance."""
        imp = self.import_ok("swebench", str(VTM))
        self.assertEqual(imp.draft["provenance"]["files"],
                         [{"path": str(VTM), "sha256": hashlib.sha256(VTM.read_bytes()).hexdigest()}])
        self.assertEqual(imp.draft["provenance"]["harness"], "swebench.harness.run_evaluation")

    def test_the_recorded_command_rebuilds_the_same_runs_file(self) -> None:
        """provenance.command, run again (with its -o pointed elsewhere), writes byte-for-byte the same runs.jsonl:
        for the --threshold 0 Harbor import and for a --model Inspect import. Old code: no command recorded."""
        cases = [("harbor", (str(self.threshold_job()), "--threshold", "0")),
                 ("inspect", (str(RULES / "two-models"), "--model", "mockllm/other"))]
        for fmt, args in cases:
            with self.subTest(fmt=fmt):
                imp = self.import_ok(fmt, *args, name=fmt)
                command = shlex.split(imp.draft["provenance"]["command"])
                self.assertEqual(command[:4], ["python3", "gate.py", "import", fmt])
                self.assertEqual(command[-2:], ["-o", str(imp.runs)])
                again = self.dir / f"{fmt}.again.jsonl"
                code, _out, err = self.run_gate(*command[2:-1], str(again))
                self.assertEqual(code, 0, err)
                self.assertEqual(again.read_bytes(), imp.runs.read_bytes())

    def test_threshold_is_refused_where_the_files_carry_their_own_verdicts(self) -> None:
        """--threshold given to swebench or terminal-bench is refused: those files carry pass/fail verdicts. Old
        code: accepted and ignored."""
        run = self.tb_runs(DROID)[0]
        for fmt, path in (("swebench", VTM), ("terminal-bench", run)):
            with self.subTest(fmt=fmt):
                self.assertInputError(self.run_gate("import", fmt, str(path), "--threshold", "0"),
                                      f"import {fmt}: --threshold does not apply",
                                      "carry their own pass/fail verdicts")


# -- Rule 7: a Harbor job copied as its result.json alone ---------------------------------------------------------


class HarborJobResultAlone(OneClaimCase):
    def test_the_real_vulnerable_secret_job_without_its_trial_folder(self) -> None:
        """The real thinharness/vulnerable-secret job with its trial folder not copied (result.json alone, as in
        repositories that commit only that): its one trial, listed under exception_stats RuntimeError with no
        reward, is unscoreable env_flake, read from the job file; Harbor's own figure is printed. Old code: refused
        ("not a Harbor job folder" / no trials)."""
        real = TH / "vulnerable-secret--thinharness" / "job"
        job = self.dir / "vulnerable-secret--thinharness" / "job"
        job.mkdir(parents=True)
        shutil.copy(real / "result.json", job / "result.json")
        (name,) = next(iter(load(job / "result.json")["stats"]["evals"].values()))["exception_stats"]["RuntimeError"]
        imp = self.import_ok("harbor", str(job))
        self.assertEqual([(r["task_id"], r["outcome"], r["reason"]) for r in imp.records],
                         [("vulnerable-secret", "unscoreable", "env_flake")])
        self.assertEqual(imp.records[0]["harness"]["trial_name"], name)
        self.assertEqual(imp.records[0]["run_id"], "vulnerable-secret--thinharness")
        self.assertTrue(any("Harbor's own job figure" in n for n in imp.notes()), imp.notes())


# -- Rule 8: forks and foreign files ------------------------------------------------------------------------------


class ForksAndForeignFiles(OneClaimCase):
    def test_the_rust_fork_report_is_refused_naming_the_ids_its_extra_list_alone_holds(self) -> None:
        """claude-3_5.json: empty_error_patch_ids holds 31 ids no swebench list names: refused naming the key, the
        count and ids, and saying to pass --dataset-ids. Old code: refused on the unknown keys alone, no ids, no
        way in."""
        data = load(RUST_FORK / "claude-3_5.json")
        known = {t for key in ("resolved", "unresolved_ids", "incomplete_ids", "completed_ids", "submitted_ids")
                 for t in data[key]}
        alone = sorted(set(data["empty_error_patch_ids"]) - known)
        self.assertEqual(len(alone), 31)
        line = self.refused("import", "swebench", str(RUST_FORK / "claude-3_5.json"))
        self.assertIn("empty_error_patch_ids (not a swebench key) holds 31 id(s) no known list names", line)
        self.assertIn(repr(alone[0]), line)
        self.assertIn("pass --dataset-ids FILE", line)

    def test_with_dataset_ids_the_rust_fork_report_imports_29_of_239(self) -> None:
        """claude-3_5.json with --dataset-ids derived-ids-union.txt: 239 instances, its 29 `resolved` pass, the 31
        ids only empty_error_patch_ids holds are missing_artifact, a note names the keys ignored; headline 29/239 (the
        report's resolved_instances / total_instances). Old code: refused (unknown keys)."""
        data = load(RUST_FORK / "claude-3_5.json")
        imp = self.import_ok("swebench", str(RUST_FORK / "claude-3_5.json"), "--dataset-ids",
                             str(RUST_FORK / "derived-ids-union.txt"))
        by_id = {r["task_id"]: r for r in imp.records}
        self.assertEqual(len(by_id), data["total_instances"])
        self.assertEqual({t for t, r in by_id.items() if r["outcome"] == "pass"}, set(data["resolved"]))
        missing = {t for t, r in by_id.items() if r["reason"] == "missing_artifact"}
        self.assertEqual(missing, set(data["empty_error_patch_ids"]))
        self.assertEqual(len(missing), 31)
        self.assertIn(f"{RUST_FORK / 'claude-3_5.json'}: key(s) not in swebench's report ignored: "
                      "empty_error_patch_ids, empty_error_patch_instances (every id they hold is counted from the known "
                      "lists or --dataset-ids)", imp.notes())
        self.assertHeadline(self.gated(imp), Fraction(data["resolved_instances"], data["total_instances"]), 239)

    def test_a_fork_report_whose_count_contradicts_its_list_is_refused(self) -> None:
        """claude-3_7.json states empty_error_patch_instances 34 beside 37 empty_error_patch_ids: refused naming
        the contradiction. Old code: refused for its unknown keys, never naming the contradiction."""
        data = load(RUST_FORK / "claude-3_7.json")
        self.assertEqual((data["empty_error_patch_instances"], len(data["empty_error_patch_ids"])), (34, 37))
        line = self.refused("import", "swebench", str(RUST_FORK / "claude-3_7.json"))
        self.assertIn("empty_error_patch_instances is 34 but empty_error_patch_ids has 37 ids: the report contradicts "
                      "itself", line)

    def test_a_fork_key_is_an_id_list_or_a_count_by_its_name_and_its_value(self) -> None:
        """A fork's extra key is read only as `<name>_ids` holding a list or `<name>_instances` holding a whole
        number: a whole number under another name, or a count that is a string, is refused naming the key."""
        for key, value in (("flaky_total", 3), ("flaky_instances", "3"), ("flaky_ids", 3)):
            with self.subTest(key=key):
                data = load(VTM)
                data[key] = value
                path = self.write_json("gold.validate-gold.json", data)
                line = self.refused("import", "swebench", str(path))
                self.assertIn(f"unknown key {key!r} for a SWE-bench run report (neither an id list <name>_ids nor a "
                              "count <name>_instances)", line)

    def test_a_report_whose_resolved_count_contradicts_its_list_is_refused(self) -> None:
        """VTM's report with resolved_instances 2 beside its one resolved id: refused naming both and saying the
        report contradicts itself. Old code: refused too ("resolved_instances is 2 but resolved_ids has 1 ids"), but
        without naming the contradiction or what to import instead; the new part of this rule (a fork's own counts)
        is pinned by the claude-3_7 test above."""
        data = load(VTM)
        data["resolved_instances"] = 2
        path = self.write_json("gold.validate-gold.json", data)
        line = self.refused("import", "swebench", str(path))
        self.assertIn("resolved_instances is 2 but resolved_ids has 1 ids: the report contradicts itself; import the "
                      "harness's own report, unedited", line)

    def test_files_without_verdicts_are_named_for_what_they_are(self) -> None:
        """SWE-agent's real all_preds.jsonl, a preds.json dict made from it, a SWE-agent .traj (trimmed from the
        real one) and an OpenHands output.jsonl before evaluation: each refused with one line saying what the file
        is and how to get verdicts (swebench.harness.run_evaluation / eval_infer.sh). Old code: "not a SWE-bench run
        report", "takes one report ..., got 0", or "invalid JSON: Extra data" at line 2."""
        cases = {
            WILD3 / "swe-agent" / "all_preds.jsonl": ("SWE-bench predictions (instance_id, model_patch",
                                                      "python -m swebench.harness.run_evaluation --predictions_path"),
            IMPORT_RULES / "preds.json": ("SWE-bench predictions (instance_id, model_patch",
                                          "python -m swebench.harness.run_evaluation --predictions_path"),
            IMPORT_RULES / "pydicom__pydicom-1458.trimmed.traj": ("a SWE-agent trajectory (.traj)",
                                                                  "python -m swebench.harness.run_evaluation"),
            IMPORT_RULES / "openhands-output.jsonl": ("a JSON Lines file", "an OpenHands output.jsonl record before "
                                                      "evaluation (no test_result.report)", "eval_infer.sh"),
        }
        for path, fragments in cases.items():
            with self.subTest(path=path.name):
                self.assertInputError(self.run_gate("import", "swebench", str(path)), str(path), *fragments)

    def test_swe_agent_names_its_own_predictions_file_for_what_it_is(self) -> None:
        """`import swe-agent` on SWE-agent's real all_preds.jsonl (JSON Lines, many predictions) reads its first line
        and says at once that these are predictions with no verdicts and how to grade them; it never reads the file
        as one JSON document (which would call it a JSON Lines file first)."""
        path = WILD3 / "swe-agent" / "all_preds.jsonl"
        code, out, err = self.run_gate("import", "swe-agent", str(path))
        self.assertEqual((code, out), (2, ""))
        self.assertTrue(err.startswith(f"gate.py: error: {path}: SWE-bench predictions (instance_id, model_patch"), err)
        self.assertIn("python -m swebench.harness.run_evaluation --predictions_path", err)

    def test_an_evaluated_openhands_record_points_at_the_report(self) -> None:
        """The OpenHands record with test_result.report (after eval_infer.sh) names the report.json to import
        instead. Old code: "not a SWE-bench run report"."""
        record = json.loads((IMPORT_RULES / "openhands-output.jsonl").read_text().splitlines()[0])
        record["test_result"]["report"] = {"resolved": True, "empty_generation": False, "failed_apply_patch": False,
                                           "error_eval": False, "test_timeout": False}
        path = self.write_json("output.swebench_eval.json", record)
        self.assertInputError(self.run_gate("import", "swebench", str(path)),
                              "an OpenHands output.jsonl record after evaluation",
                              "import the SWE-bench run report (report.json) that eval_infer.sh wrote")

    def test_json_lines_given_to_terminal_bench_says_json_lines(self) -> None:
        """A run's trials written one a line (JSON Lines) and given to `import terminal-bench`: refused with one
        line saying it is a JSON Lines file, not one JSON document. Old code: "invalid JSON: Extra data" at line 2."""
        run = self.tb_runs(DROID)[0]
        trials = load(run / "results.json")["results"][:3]
        path = self.write_jsonl("trials.jsonl", trials)
        self.assertInputError(self.run_gate("import", "terminal-bench", str(path)), str(path),
                              "a JSON Lines file (one JSON object a line", "not one JSON document")


# -- Rule 9: run ids from the resolved folder name ----------------------------------------------------------------


class RunIds(OneClaimCase):
    def test_terminal_bench_runs_named_from_the_folder_that_holds_them(self) -> None:
        """`import terminal-bench tb_rc2_g5_1 tb_rc2_g5_2` typed in the submission folder: every record's run_id is
        that folder's name, never "". Old code: "run_id": "" on every record."""
        runs = self.tb_runs(DROID)[:2]
        out = self.dir / "two.jsonl"
        result = run_cli("import", "terminal-bench", runs[0].name, runs[1].name, "-o", str(out), cwd=runs[0].parent)
        self.assertEqual(result.returncode, 0, result.stderr)
        records = [json.loads(line) for line in out.read_text().splitlines()]
        self.assertEqual(len(records), 160)
        self.assertEqual({r["run_id"] for r in records}, {DROID})

    def test_a_harbor_job_imported_from_inside_its_folder(self) -> None:
        """`import harbor .` typed inside the job folder: the run_id is the job folder's name. Old code: ""."""
        job = self.harbor_job("my-job", [trial("dna-insert", "dna-insert__a", "08:00:00.000000", 1.0)])
        out = self.dir / "job.jsonl"
        result = run_cli("import", "harbor", ".", "-o", str(out), cwd=job)
        self.assertEqual(result.returncode, 0, result.stderr)
        records = [json.loads(line) for line in out.read_text().splitlines()]
        self.assertEqual([r["run_id"] for r in records], ["my-job"])

    def run_ids_from(self, cwd: Path, fmt: str, given: str) -> set[str]:
        out = self.dir / f"{fmt}-{given.replace('/', '_')}.jsonl"
        result = run_cli("import", fmt, given, "-o", str(out), cwd=cwd)
        self.assertEqual(result.returncode, 0, result.stderr)
        return {json.loads(line)["run_id"] for line in out.read_text().splitlines()}

    def test_a_harbor_job_folder_named_job_imported_from_inside_it(self) -> None:
        """`import harbor .` typed inside <cell>/job/ names the run as the same folder given by its full path does:
        the cell's name. Old code: ""."""
        job = self.dir / "dna-insert--thinharness" / "job"
        shutil.copytree(TEMPLATE, job)
        self.assertEqual(self.run_ids_from(self.dir, "harbor", str(job)), {"dna-insert--thinharness"})
        self.assertEqual(self.run_ids_from(job, "harbor", "."), {"dna-insert--thinharness"})

    def test_a_swebench_logs_folder_imported_from_inside_it(self) -> None:
        """`import swebench .` typed inside logs/run_evaluation/synthetic-run/synthetic-model/ names the run as the
        full path does: synthetic-run. Old code: ""."""
        logs = self.dir / "logs" / "run_evaluation" / "synthetic-run" / "synthetic-model"
        shutil.copytree(SWE_LOGS, logs)
        self.assertEqual(self.run_ids_from(self.dir, "swebench", str(logs)), {"synthetic-run"})
        self.assertEqual(self.run_ids_from(logs, "swebench", "."), {"synthetic-run"})


# -- Rule 10: the draft's to-do after --control -------------------------------------------------------------------


class ControlTodo(OneClaimCase):
    def test_the_controls_item_names_only_what_is_still_missing(self) -> None:
        """A droid run imported with a draft, then a nop and an oracle run of it (its own trials, every verdict
        false or true) as its controls: the draft's one controls item names only the known-fix run as missing;
        after the known-fix control too, no controls item remains and both control_runs are listed. Old code:
        "controls is empty" stayed in the to-do list. (The run itself as its own control is refused:
        ClaimBindings.)"""
        run = self.tb_runs(DROID)[0]
        draft = self.dir / "bench.manifest.json"
        code, _out, err = self.run_gate("import", "terminal-bench", str(run), "-o", str(self.dir / "runs.jsonl"),
                                        "--draft-manifest", str(draft))
        self.assertEqual(code, 0, err)
        self.assertEqual(sum(item.startswith("controls") for item in load(draft)["draft"]), 1)
        for role in ("no_edit", "known_fix"):
            control = self.dir / role
            shutil.copytree(run, control)
            results = load(control / "results.json")
            for result in results["results"]:
                result["is_resolved"], result["failure_mode"] = role == "known_fix", "unset"
            (control / "results.json").write_text(json.dumps(results))
            code, _out, err = self.run_gate("import", "terminal-bench", str(control), "--control", role, "-o",
                                            str(self.dir / f"{role}.jsonl"), "--draft-manifest", str(draft))
            self.assertEqual(code, 0, err)
            todo = load(draft)["draft"]
            controls = [item for item in todo if "control" in item.split(":")[0] or item.startswith("controls")]
            if role == "no_edit":
                self.assertEqual(len(controls), 1, todo)
                self.assertTrue(controls[0].startswith("controls: control_runs has the no_edit run; add a known-fix "
                                                       "run (tb run --dataset ... --agent oracle)"), controls[0])
                self.assertNotIn("no-edit run (", controls[0])
                self.assertIn(f"to do in {draft}: {controls[0]}", err)
            else:
                self.assertEqual(controls, [], todo)
        self.assertEqual([(e["role"], e["runs"]) for e in load(draft)["control_runs"]],
                         [("no_edit", "no_edit.jsonl"), ("known_fix", "known_fix.jsonl")])


# -- Rule 11: every importer prints the harness's own figure ------------------------------------------------------


class OwnFigure(OneClaimCase):
    def test_terminal_bench_prints_the_runs_accuracy(self) -> None:
        """A droid run: a note with its results.json accuracy and the resolved count. Old code: no figure."""
        run = self.tb_runs(DROID)[0]
        results = load(run / "results.json")
        imp = self.import_ok("terminal-bench", str(run))
        self.assertIn(f"{run / 'results.json'}: the run's own figure: accuracy {results['accuracy']:g} "
                      f"({results['n_resolved']} of {len(results['results'])} trials resolved)", imp.notes())

    def test_inspect_prints_a_metric_not_called_accuracy(self) -> None:
        """METR's class_eval log states `mean` (no accuracy): the note gives it. Old code: no figure for it."""
        name, value = stated_metric(eval_header(CLASS_EVAL))
        self.assertEqual(name, "mean")
        imp = self.import_ok("inspect", str(CLASS_EVAL))
        self.assertIn(f"{CLASS_EVAL}: the log's own figure: mean {value:g} over 5 scored sample(s), errored and NaN "
                      "samples left out", imp.notes())

    def test_swebench_prints_the_reports_figure_beside_a_logs_folder(self) -> None:
        """The logs folder with its run report: the report's own figure is printed. Old code: none."""
        report_path = self.swebench_report_with_gaps()
        report = load(report_path)
        imp = self.import_ok("swebench", str(SWE_LOGS), str(report_path))
        self.assertIn(f"the report's own figure: resolved {report['resolved_instances']} of total_instances "
                      f"{report['total_instances']}", imp.notes())

    def test_harbor_prints_its_job_figure_for_a_result_json_alone(self) -> None:
        """The real tune-mjcf job (result.json alone): Harbor's own job figure is printed. Old code: refused."""
        imp = self.import_ok("harbor", str(TH / "tune-mjcf--thinharness" / "job"))
        self.assertEqual(sum("own job figure" in n for n in imp.notes()), 1)


# -- The wild3 files: each imports at its stated figure, or is refused for its real reason ---------------------------


class Wild3Files(OneClaimCase):
    def imported_at_stated(self, fmt: str, path: Path, value: Fraction, n: int, *extra: str) -> None:
        imp = self.import_ok(fmt, str(path), *extra, name=path.stem)
        report = self.gated(imp, controls_from(imp.records))
        self.assertHeadline(report, value, n)
        self.assertEqual(rule_headline(imp.records, imp.draft["dataset"]["task_ids"], imp.draft["attempt_mode"],
                                       imp.draft["attempt_budget"]), value)

    def test_every_wild3_swebench_and_inspect_file(self) -> None:
        """Every file of tests/fixtures/wild3/swebench and wild3/inspect (copies of realdata/wild3; the R log
        TRIMMED): imported with its stated figure as the gated headline, or refused with one line naming why (a
        fork's list of unknown ids, a count contradiction, zstd without a decompressor, R-written sample ids).
        Old code: the Starmys report imported; the rust fork's reports were refused for their unknown keys alone."""
        seen = set()
        for path in sorted((WILD3 / "swebench").rglob("*")) + sorted((WILD3 / "inspect").rglob("*")):
            if not path.is_file():
                continue
            seen.add(path.name)
            with self.subTest(file=path.relative_to(WILD3).as_posix()):
                if path.name == "derived-ids-union.txt":
                    self.assertEqual(len(path.read_text().split()), load(RUST_FORK / "claude-3_5.json")["total_instances"])
                elif path.name == "claude-3_5.json":
                    data = load(path)
                    self.assertIn("holds 31 id(s) no known list names", self.refused("import", "swebench", str(path)))
                    self.imported_at_stated("swebench", path, Fraction(data["resolved_instances"], data["total_instances"]),
                                            data["total_instances"], "--dataset-ids", str(path.parent / "derived-ids-union.txt"))
                elif path.name == "claude-3_7.json":
                    self.assertIn("the report contradicts itself", self.refused("import", "swebench", str(path)))
                elif path.parent.parent.name == "swebench":
                    data = load(path)
                    self.imported_at_stated("swebench", path, Fraction(data["resolved_instances"], data["total_instances"]),
                                            data["total_instances"])
                elif "r-written" in path.parts:
                    line = self.refused("import", "inspect", str(path))
                    self.assertIn("eval.dataset.sample_ids ('1', '10', '11', ... (26 in all)) name none of the 26 logged "
                                  "samples", line)
                    self.assertIn("the R package vitals writes row numbers there", line)
                elif path.name == "ais-decoder.eval" and not zstd_readable():
                    line = self.refused("import", "inspect", str(path))
                    self.assertIn("compressed with zstd", line)
                    self.assertIn(f"inspect log convert --to json --output-dir DIR {path}", line)
                elif path.name == "ais-decoder.eval":
                    self.assertEqual(self.imp("inspect", str(path))[0]["outcome"], "fail")  # accuracy 0.0, one sample
                else:
                    header = eval_header(path)
                    _, stated = stated_metric(header)
                    n = len(header["eval"]["dataset"]["sample_ids"])
                    self.imported_at_stated("inspect", path, Fraction(stated).limit_denominator(1000), n)
        self.assertEqual(len(seen), 11, sorted(seen))

    def test_the_starmys_gold_validation_is_5_of_2294(self) -> None:
        """Starmys's gold validation of the full test split: 2294 instances, 5 resolved, 2289 error_ids each
        unscoreable (grader_error: no report.json); the headline is 5/2294. Old code: the same (a guard, not a new
        rule: the one test here that passes on 9ff3100's gate.py)."""
        data = load(STARMYS)
        self.assertEqual((data["total_instances"], len(data["resolved_ids"]), len(data["error_ids"])), (2294, 5, 2289))
        imp = self.import_ok("swebench", str(STARMYS))
        report = self.gated(imp)
        self.assertHeadline(report, Fraction(5, 2294), 2294)
        self.assertEqual(report["ledger"]["unscoreable"], 2289)
        self.assertEqual(report["ledger"]["unscoreable_reasons"], {"grader_error": 2289})


if __name__ == "__main__":
    unittest.main()


# -- The adversarial review of the import rules (each once a false PUBLISHABLE or a silent choice) ----------------


class MixedRunsAndMismatchedControls(OneClaimCase):
    def test_a_terminal_bench_results_file_with_another_runs_metadata_is_refused(self) -> None:
        """One run's results.json given with another run's run_metadata.json: the trials carry their run id, the
        metadata names another: refused. Before: the trials were relabelled as the metadata's run and agent."""
        runs = self.tb_runs(DROID)[:2]
        line = self.refused("import", "terminal-bench", str(runs[0] / "results.json"), str(runs[1] / "run_metadata.json"))
        self.assertIn(f"run_id {load(runs[1] / 'run_metadata.json')['run_id']!r}, but the trials of", line)

    def test_a_run_or_a_job_given_twice_is_refused(self) -> None:
        """The same Terminal-Bench run twice (a copy of its folder) and the same Harbor job twice: refused, never
        a second sample of the same trials. Before: each trial counted twice, narrowing the interval."""
        run = self.tb_runs(DROID)[0]
        copy = self.dir / "copy-of-run"
        shutil.copytree(run, copy)
        self.assertIn("are one run", self.refused("import", "terminal-bench", str(run), str(copy)))
        job = self.harbor_job("twice", [trial("dna-insert", "dna-insert__a", "08:00:00.000000", 1.0)])
        self.assertIn("a job given twice", self.refused("import", "harbor", str(job), str(job)))

    def test_terminal_bench_runs_of_different_dataset_versions_are_refused(self) -> None:
        """Two runs of one agent whose run_metadata.json name different dataset versions: one claim is over one
        suite. Before: one claim named after the first run's version."""
        runs = self.tb_runs(DROID)[:2]
        self.edit_meta(runs[1], dataset_version="0.2.0")
        line = self.refused("import", "terminal-bench", *map(str, runs))
        self.assertIn("the runs ran different datasets (terminal-bench-core==0.1.1; terminal-bench-core==0.2.0)", line)

    def test_a_selection_on_tb_lock_s_command_line_is_a_subset(self) -> None:
        """A run whose tb.lock records `--n-tasks 10` on its command line is a declared subset even where
        run_metadata.json says nothing of it; without tb.lock the draft asks how the tasks were chosen."""
        run = self.tb_runs(DROID)[0]
        imp = self.import_ok("terminal-bench", str(run), name="nolock")
        self.assertTrue(any("confirm the run covered its whole dataset" in item for item in imp.draft["draft"]))
        (run / "tb.lock").write_text(json.dumps({"invocation": {"command": "tb", "args": ["run", "--n-tasks", "10"]},
                                                 "harness": {"version": "0.2.18"}}))
        imp = self.import_ok("terminal-bench", str(run), name="lock")
        self.assertEqual(imp.draft["dataset"]["subset"], {"selection": "--n-tasks (on the command line)"})
        self.assertEqual(imp.draft["provenance"]["harness_version"], "terminal-bench 0.2.18")

    def test_harbor_jobs_without_config_json_are_refused_together_and_flagged_alone(self) -> None:
        """Several jobs copied as result.json alone name no agent configuration: refused. One such job imports,
        and its draft asks for config.json (the selection is unknown)."""
        jobs = []
        for name in ("a", "b"):
            job = self.harbor_job(name, [trial("dna-insert", f"dna-insert__{name}", "08:00:00.000000", 1.0)])
            (job / "config.json").unlink()
            shutil.rmtree(job / f"dna-insert__{name}")
            jobs.append(job)
        self.assertIn("no config.json: several jobs are one claim only when", self.refused("import", "harbor", *map(str, jobs)))
        imp = self.import_ok("harbor", str(jobs[0]))
        self.assertTrue(any("config.json was not given" in item for item in imp.draft["draft"]))
        self.assertIn("no config.json", imp.draft["provenance"]["declared_from"])

    def test_a_control_run_imported_under_another_threshold_is_refused(self) -> None:
        """A known-fix Harbor run whose rewards are all 0.0, imported with --threshold 0 under a claim imported
        with the default: refused. Before: 10/10, and the card PUBLISHABLE with a broken oracle."""
        claim = Provenance.threshold_job(self)  # type: ignore[arg-type]
        oracle = self.harbor_job("oracle", [trial("dna-insert", f"dna-insert__o{i}", f"0{i}:00:00.000000", 0.0)
                                            for i in range(10)])
        cfg = load(oracle / "config.json")
        cfg["n_attempts"] = 10
        (oracle / "config.json").write_text(json.dumps(cfg, indent=4))
        draft = self.dir / "m.json"
        code, _, err = self.run_gate("import", "harbor", str(claim), "-o", str(self.dir / "runs.jsonl"),
                                     "--draft-manifest", str(draft))
        self.assertEqual(code, 0, err)
        line = self.refused("import", "harbor", str(oracle), "--control", "known_fix", "--threshold", "0",
                            "-o", str(self.dir / "oracle.jsonl"), "--draft-manifest", str(draft))
        self.assertIn("this known_fix run is not bound to the claim: it is read under another verdict definition: "
                      "--threshold 0.0, the claim's 1.0", line)

    def test_a_threshold_is_recorded_exactly(self) -> None:
        """--threshold 0.50000001 is written as given, so the recorded command rebuilds the same runs file."""
        job = Provenance.threshold_job(self)  # type: ignore[arg-type]
        imp = self.import_ok("harbor", str(job), "--threshold", "0.50000001")
        self.assertIn("--threshold 0.50000001", imp.draft["provenance"]["command"])
        self.assertEqual(imp.draft["provenance"]["options"], {"threshold": 0.50000001})

    def test_an_errored_log_created_later_in_another_offset_is_not_a_retry(self) -> None:
        """A finished log created 01:22:05+00:00 and an errored one created 21:22:05-05:00 the day before (02:22:05
        UTC, an hour later): the errored log came after, so the pair is refused. Before: the offsets were compared
        as text and the errored log was taken for the one replaced."""
        folder = self.dir / "tz"
        folder.mkdir()
        finished = logs_of(RULES / "retry")[1]
        errored = load(logs_of(RULES / "retry")[0])
        errored["eval"]["created"] = "2026-12-01T21:22:05-05:00"
        shutil.copy(finished, folder / "a_finished.json")
        (folder / "b_errored.json").write_text(json.dumps(errored))
        created = load(folder / "a_finished.json")["eval"]["created"]
        self.assertEqual(created[:19], "2026-12-02T01:22:06")
        self.assertIn("was written after the finished", self.refused("import", "inspect", str(folder)))

    def test_eval_set_logs_given_as_files_are_still_held_to_eval_set_json(self) -> None:
        """The logs of an eval set given as files (or the folder's files by a shell glob, eval-set.json and
        logs.json among them) are held to the eval-set.json beside them: the task without a log is refused."""
        folder = RULES / "evalset-missing-log"
        line = self.refused("import", "inspect", *map(str, logs_of(folder)))
        self.assertIn("the eval set's task 'task_b'", line)
        line = self.refused("import", "inspect", *map(str, sorted(folder.glob("*.json"))))
        self.assertIn("the eval set's task 'task_b'", line)

    def test_a_job_result_alone_with_more_trials_than_the_default_budget_names_config_json(self) -> None:
        """A job copied without config.json whose result.json lists three trials of one task: the budget of one is
        Harbor's default, not the job's, and the refusal says to copy config.json."""
        job = self.harbor_job("three", [trial("dna-insert", f"dna-insert__{c}", "08:00:00.000000", 1.0) for c in "abc"])
        (job / "config.json").unlink()
        for c in "abc":
            shutil.rmtree(job / f"dna-insert__{c}")
        line = self.refused("import", "harbor", str(job))
        self.assertIn("more than n_attempts 1 (the default: no config.json was given", line)

    def test_a_control_run_with_more_attempts_than_the_claim_is_refused(self) -> None:
        """A no-edit control of two attempts a task for a claim of one: refused at import (a control run is judged
        on its own records; one run of it is enough)."""
        run = self.tb_runs(DROID)[0]
        draft = self.dir / "m.json"
        code, _, err = self.run_gate("import", "terminal-bench", str(run), "-o", str(self.dir / "runs.jsonl"),
                                     "--draft-manifest", str(draft))
        self.assertEqual(code, 0, err)
        second = self.tb_runs(DROID)[1]
        line = self.refused("import", "terminal-bench", str(run), str(second), "--control", "no_edit",
                            "-o", str(self.dir / "nop.jsonl"), "--draft-manifest", str(draft))
        self.assertIn("holds 2 attempts a task, more than the claim's attempt_budget 1", line)

    def test_a_swebench_no_edit_control_of_empty_patches_is_refused(self) -> None:
        """A no-edit control made of empty patches: swebench skips an empty patch without running a test, so every
        instance "fails" whatever the harness does: refused, saying what to run instead. The same report as the
        claim (not a control) still imports."""
        report = load(SWE_LOGS_SUMMARY)
        ids = sorted(set(report["submitted_ids"]) | set(report.get("incomplete_ids", [])))
        nop = {key: [] for key in ("resolved_ids", "unresolved_ids", "error_ids", "incomplete_ids", "completed_ids")}
        nop.update(empty_patch_ids=ids, submitted_ids=ids, total_instances=len(ids), submitted_instances=len(ids),
                   completed_instances=0, resolved_instances=0, unresolved_instances=0, error_instances=0,
                   empty_patch_instances=len(ids), incomplete_instances=0, schema_version=2)
        path = self.write_json("model.nop-run.json", nop)
        line = self.refused("import", "swebench", str(path), "--control", "no_edit", "-o", str(self.dir / "nop.jsonl"))
        self.assertIn(f"{len(ids)} of {len(ids)} attempts ran no test", line)
        self.assertIn("a change no test reads", line)
        self.imp("swebench", str(path))
