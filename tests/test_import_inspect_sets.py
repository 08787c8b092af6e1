"""`gate.py import inspect` on real inspect-ai 0.3.285 logs (tests/fixtures/inspect/runs/, made on mockllm by the
commands in SOURCES.md): eval sets as one claim with each task a stratum, runs on a subset declared as one,
NaN scores, deferred scoring, logs without samples, and zstd `.eval` archives.

In the tiny100 tasks the mock's answer contains the target exactly for sample ids divisible by 3, so every
expected pass count below is that count; the tests also read it from the logs' own scores.
"""

from __future__ import annotations

import json
import shutil
import unittest
from fractions import Fraction
from typing import Any

import gate
from tests.realfiles import INS_RUNS, INS_WILD, RealFileCase, rule_headline, run_log, zstd_readable
from tests.support import INS_ZSTD, load


def strict(text: str) -> list[Any]:
    """Each line parsed as strict JSON: NaN, Infinity and -Infinity are refused."""
    def refuse(name: str) -> Any:
        raise ValueError(f"{name} in the output")
    return [json.loads(line, parse_constant=refuse) for line in text.splitlines()]


class EvalSets(RealFileCase):
    """`inspect eval-set t1 t2 --log-dir DIR`: one claim, each task a stratum, samples named `<task>/<id>`."""

    EVALSET = INS_RUNS / "evalset"

    def test_an_eval_set_folder_is_one_claim_with_a_stratum_per_task(self) -> None:
        """The eval-set folder imports as one samples-mode ledger: ids `<task>/<id>`, each record's stratum its
        task, the draft's dataset.strata the sample count of each task; check shows each task's rate (1/5 and 1/5:
        ids 3 of 1..5) and the headline over all ten samples (2/10)."""
        logs = sorted(p for p in self.EVALSET.glob("*.json") if p.name not in ("eval-set.json", "logs.json"))
        tasks = {load(p)["eval"]["task"]: load(p) for p in logs}
        self.assertEqual(sorted(tasks), ["tiny100", "tiny100_b"])
        imp = self.import_ok("inspect", str(self.EVALSET))
        expected_ids = sorted(f"{task}/{sid}" for task, log in tasks.items() for sid in log["eval"]["dataset"]["sample_ids"])
        self.assertEqual(imp.draft["dataset"]["task_ids"], expected_ids)
        self.assertEqual(imp.draft["dataset"]["strata"], {task: len(log["eval"]["dataset"]["sample_ids"])
                                                          for task, log in tasks.items()})
        for rec in imp.records:
            task, sid = rec["task_id"].split("/")
            self.assertEqual((rec["stratum"], rec["harness"]["task"]), (task, task))
            sample = next(s for s in tasks[task]["samples"] if str(s["id"]) == sid)
            self.assertEqual(rec["outcome"], {"C": "pass", "I": "fail"}[sample["scores"]["includes"]["value"]])
        report = self.gated(imp)
        self.assertHeadline(report, Fraction(2, 10), 10)
        rates = {s["name"]: (s["declared"], s["rate"]["k"], s["rate"]["n"]) for s in report["strata"]}
        self.assertEqual(rates, {"tiny100": (5, 1, 5), "tiny100_b": (5, 1, 5)})
        self.assertEqual(imp.draft["envelope"]["tasks"], ["tiny100", "tiny100_b"])

    def test_the_logs_given_one_by_one_are_the_folder(self) -> None:
        """The eval set's two logs given as files import exactly as their folder; the run id is the eval set's id
        (eval.eval_set_id, the folder's .eval-set-id)."""
        logs = sorted(p for p in self.EVALSET.glob("*.json") if p.name not in ("eval-set.json", "logs.json"))
        folder = self.import_ok("inspect", str(self.EVALSET), name="folder")
        files = self.import_ok("inspect", *map(str, reversed(logs)), name="files")
        self.assertEqual(folder.records, files.records)
        set_id = (self.EVALSET / ".eval-set-id").read_text().strip()
        self.assertEqual({r["run_id"] for r in folder.records}, {set_id})

    def test_a_retried_task_counts_its_finished_newest_log(self) -> None:
        """An eval set whose task was retried holds two logs of it: the finished (success), newest one is
        imported and a note names the one left out; the records are those of the set without the failed try."""
        folder = self.dir / "evalset"
        shutil.copytree(self.EVALSET, folder)
        original = sorted(p for p in folder.glob("*tiny100_*.json"))[0]
        failed = load(original)
        failed["status"] = "error"
        failed["eval"]["created"] = "2026-12-01T09:20:00+00:00"
        failed.pop("results")
        for sample in failed["samples"]:
            sample["scores"] = {}
            sample["error"] = {"message": "RuntimeError('first try')", "traceback": "", "traceback_ansi": ""}
        (folder / "2026-12-01T09-20-00-00-00_tiny100_FirstTry.json").write_text(json.dumps(failed, indent=2))
        reference = self.import_ok("inspect", str(self.EVALSET), name="reference")
        imp = self.import_ok("inspect", str(folder), name="retried")
        self.assertEqual(imp.records, reference.records)
        note = next(n for n in imp.notes() if n.startswith("task retried: "))
        self.assertEqual(note, "task retried: 2026-12-01T09-20-00-00-00_tiny100_FirstTry.json (status error) "
                               f"replaced by its retry {original.name}")
        self.assertEqual(imp.draft["provenance"]["replaced"], [note.removeprefix("task retried: ")])

    def test_logs_of_different_epochs_are_refused(self) -> None:
        """Logs of two tasks run with three epochs and with one are not one attempt contract: refused with one
        line naming both epoch counts."""
        self.assertInputError(self.run_gate("import", "inspect", str(run_log("epochs3")), str(run_log("err-nofail"))),
                              "different epochs (1, 3)")

    def test_a_folder_without_logs_is_refused(self) -> None:
        """A folder holding only eval-set.json and logs.json has no log: refused with one line."""
        folder = self.dir / "headers-only"
        folder.mkdir()
        for name in ("eval-set.json", "logs.json"):
            shutil.copy(self.EVALSET / name, folder / name)
        self.assertInputError(self.run_gate("import", "inspect", str(folder)), "no Inspect log")


class Subsets(RealFileCase):
    """A run on part of a dataset (--limit N, --sample-id, --limit A-B) is declared as a subset everywhere."""

    CASES = {  # folder: (selection, declared sample ids)
        "limit10-json": ("--limit 10", sorted(str(i) for i in range(1, 11))),
        "sampleid": ("--sample-id 3,7,42", ["3", "42", "7"]),
        "range": ("--limit 11-20", sorted(str(i) for i in range(11, 21))),
    }

    def test_the_draft_declares_the_subset(self) -> None:
        """The draft's dataset.name ends "(subset: N of M samples, <selection>)" and dataset.subset is
        {"of": M, "selection": <selection>}, M the dataset's full size (eval.dataset.samples), the selection as
        the command line said it; the task ids are the samples run."""
        for folder, (selection, ids) in self.CASES.items():
            with self.subTest(folder=folder):
                log = load(run_log(folder))
                whole = log["eval"]["dataset"]["samples"]
                imp = self.import_ok("inspect", str(run_log(folder)), name=folder)
                dataset = imp.draft["dataset"]
                self.assertEqual(dataset["name"], f"{log['eval']['task']} (subset: {len(ids)} of {whole} samples, {selection})")
                self.assertEqual(dataset["subset"], {"of": whole, "selection": selection})
                self.assertEqual(dataset["task_ids"], ids)
                self.assertTrue(any(f"a subset: {len(ids)} of {whole} samples ({selection})" in n for n in imp.notes()))

    def test_a_long_sample_id_selection_is_cut_at_200_characters(self) -> None:
        """--sample-id of 100 ids (290 characters) is shown by its first 200, one of 200 characters whole, a
        single id as given."""
        long = ",".join(str(i) for i in range(100))
        self.assertEqual(gate._inspect_selection({"sample_id": list(range(100))}), f"--sample-id {long[:200]}")
        self.assertEqual(len(long[:200]), 200)
        exact = "x" * 200
        self.assertEqual(gate._inspect_selection({"sample_id": exact}), f"--sample-id {exact}")
        self.assertEqual(gate._inspect_selection({"sample_id": exact + "y"}), f"--sample-id {exact}")
        self.assertEqual(gate._inspect_selection({"sample_id": 7}), "--sample-id 7")

    def test_the_report_card_says_subset_in_every_format(self) -> None:
        """check on a --limit 10 run says so: a "subset" line in text, dataset.subset in JSON, a line in Markdown."""
        imp = self.import_ok("inspect", str(run_log("limit10-json")))
        manifest = self.complete(imp.draft_path)
        outputs = {fmt: self.run_gate("check", "--manifest", str(manifest), "--runs", str(imp.runs), "--format", fmt)
                   for fmt in ("text", "json", "markdown")}
        for fmt, (code, _out, err) in outputs.items():
            self.assertIn(code, (0, 1), f"{fmt}: {err}")
        text = outputs["text"][1]
        self.assertIn("subset      : 10 of 100 tasks (--limit 10): the claim is about these tasks only", text.splitlines())
        self.assertEqual(json.loads(outputs["json"][1])["dataset"]["subset"], {"of": 100, "selection": "--limit 10"})
        self.assertIn("a subset: 10 of 100 tasks (--limit 10)", outputs["markdown"][1])

    def test_a_whole_dataset_run_is_not_a_subset(self) -> None:
        """A run over all ten samples of its dataset declares no subset, and its card has no subset line."""
        imp = self.import_ok("inspect", str(run_log("err-nofail")))
        self.assertNotIn("subset", imp.draft["dataset"])
        self.assertNotIn("subset", imp.draft["dataset"]["name"])
        manifest = self.complete(imp.draft_path)
        _code, out, _err = self.run_gate("check", "--manifest", str(manifest), "--runs", str(imp.runs))
        self.assertFalse(any(line.startswith("subset") for line in out.splitlines()), out)

    def test_an_eval_set_on_a_limit_is_a_subset_of_both_tasks(self) -> None:
        """The eval set ran --limit 5 on two 100-sample tasks: a subset of 10 of 200 samples, both selections kept."""
        imp = self.import_ok("inspect", str(INS_RUNS / "evalset"))
        self.assertEqual(imp.draft["dataset"]["subset"], {"of": 200, "selection": "--limit 5; --limit 5"})
        self.assertIn("(subset: 10 of 200 samples", imp.draft["dataset"]["name"])


class NotANumber(RealFileCase):
    """Inspect writes a bare NaN for an unscored value."""

    def test_a_nan_score_is_unscoreable_grader_error(self) -> None:
        """tiny_nan: the even ids' scores are NaN (Score.unscored()): unscoreable grader_error, score_value "NaN"
        under harness; the odd ids are scored (3 and 9 pass); the headline counts over all 12 (2/12), while the log
        states 2/6 over its scored samples; the ledger is strict JSON."""
        path = run_log("nan")
        log = load(path)
        self.assertEqual(log["results"]["scores"][0]["unscored_samples"], 6)
        code, out, err = self.run_gate("import", "inspect", str(path))
        self.assertEqual(code, 0, err)
        for rec in strict(out):
            if int(rec["task_id"]) % 2 == 0:
                self.assertOutcome(rec, "unscoreable", "grader_error")
                self.assertEqual(rec["harness"]["score_value"], "NaN")
            else:
                self.assertEqual(rec["outcome"], "pass" if int(rec["task_id"]) % 3 == 0 else "fail")
        imp = self.import_ok("inspect", str(path))
        self.assertHeadline(self.gated(imp), Fraction(2, 12), 12)
        self.assertAlmostEqual(log["results"]["scores"][0]["metrics"]["accuracy"]["value"], 2 / 6)

    def test_nan_where_the_gate_reads_nothing_is_tolerated(self) -> None:
        """tiny_allnan: every score NaN, and the stated accuracy and stderr NaN too: imported, every sample
        unscoreable grader_error, the output strict JSON; a NaN in a sample's working_time or in the reductions
        changes nothing."""
        path = run_log("allnan")
        log = load(path)
        self.assertNotEqual(log["results"]["scores"][0]["metrics"]["accuracy"]["value"],
                            log["results"]["scores"][0]["metrics"]["accuracy"]["value"], "NaN != NaN")
        code, out, err = self.run_gate("import", "inspect", str(path))
        self.assertEqual(code, 0, err)
        records = strict(out)
        self.assertEqual([(r["outcome"], r["reason"]) for r in records], [("unscoreable", "grader_error")] * 4)
        limit10 = load(run_log("limit10-json"))
        limit10["samples"][0]["working_time"] = float("nan")
        limit10["reductions"][0]["samples"][0]["value"] = float("nan")
        limit10["stats"]["nan_here"] = float("nan")
        variant = self.write_text("variant.json", json.dumps(limit10))
        self.assertEqual(strict(self.run_gate("import", "inspect", str(variant))[1]),
                         strict(self.run_gate("import", "inspect", str(run_log("limit10-json")))[1]))


class Refusals(RealFileCase):
    def test_deferred_scoring_is_refused_saying_to_run_inspect_score(self) -> None:
        """A --no-score log (results.scores [], every sample's scores {}) is refused with one line telling the user
        to run `inspect score` first; the same run after `inspect score` imports, 3 of 10 passing."""
        path = run_log("noscore")
        self.assertEqual(load(path)["results"]["scores"], [])
        self.assertInputError(self.run_gate("import", "inspect", str(path)), "scoring was deferred",
                              f"run `inspect score {path}` first")
        records = self.imp("inspect", str(run_log("noscore-then-score")))
        self.assertEqual(sum(r["outcome"] == "pass" for r in records), 3)

    def test_a_log_with_no_samples_is_refused(self) -> None:
        """A log with results but no samples at all (the cancelled no-samples log; the version-1 log_with_nan.txt)
        cannot be checked sample by sample: refused with one line."""
        for path in (INS_WILD / "2025-05-12T20-28-13-04-00_no-samples.json", INS_WILD / "log_with_nan.txt"):
            with self.subTest(path=path.name):
                data = json.loads(path.read_text())
                self.assertFalse(data.get("samples"))
                self.assertInputError(self.run_gate("import", "inspect", str(path)), str(path), "no samples at all")


class Zstd(RealFileCase):
    """Inspect 0.3.285 writes `.eval` members with zstd (method 93), which the stdlib reads only from 3.14."""

    @unittest.skipIf(zstd_readable(), "this Python's zipfile reads zstd members itself")
    def test_without_a_decompressor_zstd_is_refused_with_the_conversion_hint(self) -> None:
        """Where zipfile cannot read zstd (before 3.14; the gate imports no zstd package), the real zstd archives are
        refused with one line giving the `inspect log convert` command: one log, and an eval-set folder of them."""
        self.assertInputError(self.run_gate("import", "inspect", str(INS_ZSTD)), "compressed with zstd",
                              f"inspect log convert --to json --output-dir DIR {INS_ZSTD}")
        self.assertInputError(self.run_gate("import", "inspect", str(INS_RUNS / "evalset-eval")),
                              "compressed with zstd", "inspect log convert")

    @unittest.skipUnless(zstd_readable(), "this Python's zipfile does not read zstd (3.14 does)")
    def test_the_real_zstd_archives_are_read(self) -> None:
        """With zstd importable, the real archives are read: tiny-success.eval gives 6 passes of 10, and the
        zstd eval set imports exactly as its JSON twin folder does, apart from the log format under harness."""
        records = self.imp("inspect", str(INS_ZSTD))
        self.assertEqual((len(records), sum(r["outcome"] == "pass" for r in records)), (10, 6))
        limit = self.imp("inspect", str(run_log("limit10-eval")))
        self.assertEqual(sum(r["outcome"] == "pass" for r in limit), 3)
        evalset = self.imp("inspect", str(INS_RUNS / "evalset-eval"))
        self.assertEqual([(r["task_id"], r["outcome"]) for r in evalset],
                         [(r["task_id"], r["outcome"]) for r in self.imp("inspect", str(INS_RUNS / "evalset"))])
        self.assertEqual(rule_headline(evalset, sorted({r["task_id"] for r in evalset}), "samples", 1), Fraction(2, 10))


class DeclaredByTheLimit(RealFileCase):
    def test_a_log_without_sample_ids_is_declared_by_its_limit_only_when_every_allowed_sample_is_there(self) -> None:
        """A --limit 10 log written without eval.dataset.sample_ids: its 10 logged samples are the declared set
        (every one the limit allowed); with one sample gone, 9 against a limit of 10 name no declared set, and the
        import is refused rather than claiming the 9 as the whole run."""
        log = json.loads(run_log("limit10-json").read_text(encoding="utf-8"))
        del log["eval"]["dataset"]["sample_ids"]
        imp = self.import_ok("inspect", str(self.write_json("ten.json", log)), name="ten")
        self.assertEqual(len({r["task_id"] for r in imp.records}), 10)
        log["samples"] = log["samples"][1:]
        self.assertInputError(self.run_gate("import", "inspect", str(self.write_json("nine.json", log))),
                              "eval.dataset.sample_ids: missing, and neither eval.dataset.samples (100) nor "
                              "eval.config.limit (10) matches the 9 sample ids in the log")
