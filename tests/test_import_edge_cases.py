"""Importer behaviour an independent test pass found missing, now fixed, each pinned by the case that found it: the
Harbor refusal names its missing trial folders; two Harbor agents configured differently are two systems; the
command named for a harness file given to check runs; notes read from standard input name it `-`; nothing is
written when the runs file cannot be; a Terminal-Bench run id may hold dots; a SWE-bench summary that agrees with
the instance logs raises no note; a NaN copied from a log is written as strict JSON.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

from tests.realfiles import DROID, INS_RUNS, LM_DATE, LM_SAMPLES, MLE, SWE_LOGS, SWE_LOGS_SUMMARY, TH20, RealFileCase
from tests.support import INS_OK, TB_RESULTS, load, run_cli


class HarborAgentIdentityIncludesItsConfiguration(RealFileCase):
    """Harbor jobs are one system only when their agents are configured alike; agent_info (name, version,
    model) is the same for the study's two agents, which differ in the agent's kwargs (`harness`: pi or
    thinharness) in config.json and in each trial's config.agent."""

    def test_a_pi_job_and_thinharness_jobs_are_not_one_claim(self) -> None:
        """dna-insert--pi with break-filter-js-from-html--thinharness and tune-mjcf--thinharness: two agents of the
        study (its summary: Pi 17/20, ThinHarness 14/20) must be refused as one claim, not merged."""
        pi = TH20 / "dna-insert--pi" / "job"
        thin = [TH20 / f"{cell}--thinharness" / "job" for cell in ("break-filter-js-from-html", "tune-mjcf")]
        kwargs = {load(job / "config.json")["agents"][0]["kwargs"]["harness"] for job in (pi, *thin)}
        self.assertEqual(kwargs, {"pi", "thinharness"})
        self.assertInputError(self.run_gate("import", "harbor", str(pi), *map(str, thin)), "different systems")


class HarnessFileHintNamesAWorkingCommand(RealFileCase):
    """`check --runs jobs/<job>/result.json` names `gate.py import harbor jobs/<job>` (the job folder, which is
    what `import harbor` takes), or `import harbor` accepts the job's result.json; and a Harbor trial's own
    result.json is recognised as a Harbor result file too."""

    def test_the_command_named_for_a_harness_file_runs(self) -> None:
        """For each harness file given to check --runs, the `gate.py import ...` command the error names, run as
        written (outputs redirected into the test's folder), succeeds."""
        imp = self.import_ok("inspect", str(INS_OK), name="claim")
        manifest = self.complete(imp.draft_path)
        run = self.tb_runs(DROID)[0]
        files = [run / "results.json", TH20 / "dna-insert--pi" / "job" / "result.json", INS_OK]
        for i, path in enumerate(files):
            with self.subTest(path=path.name):
                _code, _out, err = self.run_gate("check", "--manifest", str(manifest), "--runs", str(path))
                match = re.search(r"`python3 gate\.py (import [^`]*)`", err)
                assert match is not None, err
                argv = shlex.split(match.group(1))
                argv[argv.index("-o") + 1] = str(self.dir / f"hint{i}.jsonl")
                argv[argv.index("--draft-manifest") + 1] = str(self.dir / f"hint{i}.manifest.json")
                code, _out, err = self.run_gate(*argv)
                self.assertEqual(code, 0, f"`gate.py {match.group(1)}` failed: {err}")

    def test_every_command_the_gate_writes_for_a_path_with_a_space_runs_as_written(self) -> None:
        """A folder named `my runs` (a space, which the shell splits on): check's hint for a harness file, the
        draft's rerun recipe after `import -o`, and init's recipe quote the path, so each runs as written
        (split as a shell splits it); old code wrote `my runs/x.json` bare, and the import read `my`."""
        folder = self.dir / "my runs"
        folder.mkdir()
        source = folder / "tiny success.json"
        source.write_bytes(INS_OK.read_bytes())
        imp = self.import_ok("inspect", str(INS_OK), name="claim")
        _code, _out, err = self.run_gate("check", "--manifest", str(self.complete(imp.draft_path)), "--runs", str(source))
        hint = re.search(r"`python3 gate\.py (import [^`]*)`", err)
        assert hint is not None, err
        self.assertIn(shlex.quote(str(source)), hint.group(1))
        argv = shlex.split(hint.group(1))
        argv[argv.index("-o") + 1] = str(folder / "hint runs.jsonl")
        argv[argv.index("--draft-manifest") + 1] = str(folder / "hint manifest.json")
        code, _out, err = self.run_gate(*argv)
        self.assertEqual(code, 0, err)
        recipe = load(folder / "hint manifest.json")["rerun_recipe"]
        self.assertEqual(shlex.split(recipe)[2:], ["--manifest", str(folder / "hint manifest.json"),
                                                   "--runs", str(folder / "hint runs.jsonl")])
        code, out, err = self.run_gate("init", "--from-runs", str(folder / "hint runs.jsonl"))
        self.assertEqual(code, 0, err)
        self.assertTrue(json.loads(out)["rerun_recipe"].endswith(f"--runs {shlex.quote(str(folder / 'hint runs.jsonl'))}"))

    def test_a_harbor_trial_result_is_named_as_a_harbor_file(self) -> None:
        """A Harbor trial's result.json (jobs/<job>/<trial>/result.json) given to check --runs is named as a harbor
        result file with the import command, not reported as a malformed ledger line."""
        imp = self.import_ok("inspect", str(INS_OK), name="claim")
        manifest = self.complete(imp.draft_path)
        trial = TH20 / "dna-insert--pi" / "job" / "dna-insert__awQcgmQ" / "result.json"
        self.assertInputError(self.run_gate("check", "--manifest", str(manifest), "--runs", str(trial)),
                              "a harbor result file", "gate.py import harbor")


class StandardInputIsNamedDashInNotes(RealFileCase):
    """notes printed while reading standard input name it `-`, as errors already do, not the private
    temporary file it was spooled to (which is deleted when the command ends)."""

    def test_a_note_about_standard_input_names_it_dash(self) -> None:
        """`import inspect -` < tiny-success.json: the note with the log's own figure starts "-: ", and no path of
        the spool folder appears on stderr."""
        proc = run_cli("import", "inspect", "-", stdin=INS_OK.read_bytes())
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("gate.py: note: -: the log's own figure: accuracy 0.6", proc.stderr)
        self.assertNotIn("benchgate-", proc.stderr)


class NothingIsWrittenWhenTheRunsFileCannotBe(RealFileCase):
    """`import` writes the runs file before the draft manifest (or checks that both can be written), so an
    import that exits 2 leaves no draft naming a runs file that does not exist, and no half-updated draft."""

    def test_a_new_draft_is_not_written_when_its_runs_file_cannot_be(self) -> None:
        """`import terminal-bench results.json -o missing-folder/runs.jsonl --draft-manifest new.json` exits 2 and
        new.json does not exist afterwards."""
        draft = self.dir / "new.manifest.json"
        code, _out, err = self.run_gate("import", "terminal-bench", str(TB_RESULTS), "-o",
                                        str(self.dir / "missing-folder" / "runs.jsonl"), "--draft-manifest", str(draft))
        self.assertEqual(code, 2, err)
        self.assertFalse(draft.exists(), "a draft naming a runs file that was never written")

    def test_a_draft_is_not_given_a_control_run_that_was_not_written(self) -> None:
        """`import ... --control known_fix -o missing-folder/kf.jsonl --draft-manifest M` exits 2 and M is unchanged."""
        draft = self.dir / "bench.manifest.json"
        self.assertEqual(self.run_gate("import", "terminal-bench", str(TB_RESULTS), "-o", str(self.dir / "runs.jsonl"),
                                       "--draft-manifest", str(draft))[0], 0)
        before = draft.read_bytes()
        code, _out, err = self.run_gate("import", "terminal-bench", str(TB_RESULTS), "--control", "known_fix", "-o",
                                        str(self.dir / "missing-folder" / "kf.jsonl"), "--draft-manifest", str(draft))
        self.assertEqual(code, 2, err)
        self.assertEqual(draft.read_bytes(), before)


class TerminalBenchRunIdsWithDots(RealFileCase):
    """the trial-name suffix `.N-of-M.<run_id>` accepts a run id with dots (`tb run --run-id exp.v1.2`;
    terminal-bench's own resume parser is `^(.+?)\\.(\\d+)-of-(\\d+)\\.(.+)$`), at least when run_metadata.json
    names the run id."""

    def test_a_run_whose_id_has_dots_imports(self) -> None:
        """The droid run 1 with its run id tb_rc2_g5_1 renamed exp.v1.2 everywhere (trial names, recording paths,
        run_metadata.json) imports as the original does: 80 records, attempt 1, the same outcomes."""
        source = self.tb_runs(DROID)[0]
        reference = self.import_ok("terminal-bench", str(source), name="reference")
        run = self.dir / "exp.v1.2"
        run.mkdir()
        for name in ("results.json", "run_metadata.json"):
            (run / name).write_text((source / name).read_text().replace("tb_rc2_g5_1", "exp.v1.2"))
        self.assertIn(".1-of-1.exp.v1.2", (run / "results.json").read_text())
        code, out, err = self.run_gate("import", "terminal-bench", str(run))
        self.assertEqual(code, 0, err)
        records = [json.loads(line) for line in out.splitlines()]
        self.assertEqual([(r["task_id"], r["attempt"], r["outcome"]) for r in records],
                         [(r["task_id"], r["attempt"], r["outcome"]) for r in reference.records])


class SweBenchSummaryAgreementCountsAdvisoryLists(RealFileCase):
    """comparing a summary report with the instance logs reads the summary as the importer reads a report
    (infra_failure_ids -> env_flake, failure_reasons), so a summary that says what the logs say raises no note."""

    def test_a_summary_that_agrees_with_the_logs_raises_no_note(self) -> None:
        """The synthetic 5.x summary lists astropy__astropy-14365 in unresolved_ids and infra_failure_ids, and its
        report.json says infra_failure: both are unscoreable env_flake, so no "disagrees" note is printed."""
        summary = load(SWE_LOGS_SUMMARY)
        self.assertIn("astropy__astropy-14365", summary["infra_failure_ids"])
        self.assertTrue(load(SWE_LOGS / "astropy__astropy-14365" / "report.json")["astropy__astropy-14365"]["infra_failure"])
        imp = self.import_ok("swebench", str(SWE_LOGS), str(SWE_LOGS_SUMMARY))
        self.assertFalse([n for n in imp.notes() if "disagrees" in n], imp.err)


class SweBenchLogsFolderTakesOneOfEach(RealFileCase):
    def test_a_logs_folder_takes_one_report_and_one_folder(self) -> None:
        """Two reports beside the logs folder (the summary twice, under two names), or two logs folders: refused,
        counting them; one of each imports."""
        second = self.dir / "again.json"
        shutil.copy(SWE_LOGS_SUMMARY, second)
        self.assertInputError(self.run_gate("import", "swebench", str(SWE_LOGS), str(SWE_LOGS_SUMMARY), str(second)),
                              "a logs folder takes one run report beside it, got 2")
        self.assertInputError(self.run_gate("import", "swebench", str(SWE_LOGS), str(SWE_LOGS.parent),
                                            str(SWE_LOGS_SUMMARY)), "takes one logs folder, got 2")


class ImportOutputIsStrictJson(RealFileCase):
    """a NaN the importer copies from an Inspect log into a record's harness field or the draft's envelope is
    written as something strict JSON holds (null or "NaN"), so check can read what import wrote."""

    def test_a_nan_in_a_copied_field_does_not_make_the_output_unreadable(self) -> None:
        """A sample whose limit is {"type": "message", "limit": NaN} and a config time_limit of NaN: the runs file and
        the draft parse as strict JSON, and check on the completed draft is not an input error."""
        log = load(INS_OK)
        log["samples"][0]["limit"] = {"type": "message", "limit": float("nan")}
        log["eval"]["config"]["time_limit"] = float("nan")
        path = self.write_text("log.json", json.dumps(log))
        imp = self.import_ok("inspect", str(path))
        for output in (imp.runs, imp.draft_path):
            with self.subTest(output=output.name):
                text = output.read_text()
                self.assertIsNone(re.search(r"\bNaN\b", text), f"a bare NaN in {output.name}")
        completed = self.complete(imp.draft_path)
        code, _out, err = self.run_gate("check", "--manifest", str(completed), "--runs", str(imp.runs))
        self.assertIn(code, (0, 1), err)


class WhatALayoutLacks(RealFileCase):
    """Each importer given a layout without the file that holds its verdicts names that file and what to give
    instead: one line, exit 2 (each path was run by no test before)."""

    def copy(self, *files: Path) -> Path:
        folder = self.dir / "given"
        folder.mkdir(exist_ok=True)
        for file in files:
            shutil.copy(file, folder / file.name)
        return folder

    def test_lm_eval_results_without_their_samples(self) -> None:
        results = self.copy(LM_SAMPLES.parent / f"results_{LM_DATE}.json") / f"results_{LM_DATE}.json"
        self.assertInputError(self.run_gate("import", "lm-eval", str(results)),
                              f"{results}: no samples_<task>_{LM_DATE}.jsonl beside it", "--log_samples")

    def test_mle_bench_without_a_grading_report(self) -> None:
        folder = self.copy(MLE / "split6.txt")
        self.assertInputError(self.run_gate("import", "mle-bench", str(folder)),
                              f"{folder}: no *_grading_report.json: give MLE-bench's grading reports")

    def test_an_inspect_eval_sets_own_files_without_its_logs(self) -> None:
        evalset = INS_RUNS / "evalset"
        folder = self.copy(evalset / "eval-set.json", evalset / "logs.json")
        self.assertInputError(self.run_gate("import", "inspect", str(folder / "eval-set.json"),
                                            str(folder / "logs.json")),
                              f"{folder / 'eval-set.json'}: no Inspect log among the files given",
                              "give the logs, or the eval set's folder")

    def test_a_terminal_bench_run_metadata_without_its_results(self) -> None:
        runs = self.tb_runs(DROID)
        given = (runs[0] / "results.json", runs[0] / "run_metadata.json", runs[1] / "run_metadata.json")
        self.assertInputError(self.run_gate("import", "terminal-bench", *map(str, given)),
                              f"{runs[1] / 'run_metadata.json'}: a run_metadata.json with no results.json of its "
                              "own")
