"""`gate.py import inspect`: an Inspect AI log (JSON, or a .eval zip archive) into runs.jsonl and a
samples-mode draft manifest, one record per declared sample and epoch.

Every expected value is derived in the test from the fixture JSON itself (score values, errors, the
declared samples and epochs), never by calling the importer's own helpers.
"""

from __future__ import annotations

import json
import shlex
import sys
import unittest
import zipfile
from collections import Counter
from pathlib import Path
from typing import Any

from tests.oracles import ids_digest
from tests.support import FIXTURES, INS_CANCEL, INS_DEFLATE, INS_ERR, INS_OK, INS_ZSTD, ImportCase, keyed, load, run_cli


def inspect_samples(data: dict[str, Any]) -> dict[tuple[str, int], dict[str, Any]]:
    return {(str(s["id"]), s["epoch"]): s for s in data["samples"]}


class InspectLogs(ImportCase):
    """An Inspect log's samples map to outcomes and reasons."""

    def test_success_log_C_pass_I_fail_and_six_of_ten(self) -> None:
        """Score C imports as pass and I as fail: six passes in the ten samples of the success log."""
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
        """Score N imports as fail."""
        samples = inspect_samples(load(INS_CANCEL))
        keys = [k for k, s in samples.items() if s.get("scores", {}).get("match", {}).get("value") == "N"]
        self.assertTrue(keys, "fixture precondition")
        recs = keyed(self.imp("inspect", str(INS_CANCEL)))
        for key in keys:
            self.assertOutcome(recs[key], "fail", None)

    def test_P_fails_by_default_and_passes_with_partial_as_pass(self) -> None:
        """Score P is a fail by default and with --partial-as fail, a pass with --partial-as pass, and no other sample moves."""
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
        # the draft's rebuild command says --partial-as only where it is not the default
        for extra, shown in (((), None), (("--partial-as", "fail"), None), (("--partial-as", "pass"), "pass")):
            with self.subTest(extra=extra):
                *_, draft = self.imp_files("inspect", str(INS_CANCEL), *extra, name=f"partial-{len(extra)}-{shown}")
                command = shlex.split(draft["provenance"]["command"])
                self.assertEqual("--partial-as" in command, shown is not None, command)
                if shown:
                    self.assertEqual(command[command.index("--partial-as") + 1], shown)

    def test_numeric_score_against_threshold(self) -> None:
        """A numeric score passes when it reaches --threshold and fails below it (and fails without a threshold); the
        score is kept under harness.
        """
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
        """A sample error with a TimeoutError is unscoreable harness_timeout."""
        samples = inspect_samples(load(INS_CANCEL))
        keys = [k for k, s in samples.items() if s.get("error") and "TimeoutError" in s["error"]["traceback"]]
        self.assertTrue(keys, "fixture precondition")
        recs = keyed(self.imp("inspect", str(INS_CANCEL)))
        for key in keys:
            self.assertOutcome(recs[key], "unscoreable", "harness_timeout")

    def test_sample_error_otherwise_is_env_flake(self) -> None:
        """Any other sample error is unscoreable env_flake, with the error's message kept under harness."""
        data = load(INS_ERR)
        keys = [k for k, s in inspect_samples(data).items() if s.get("error")]
        self.assertTrue(keys, "fixture precondition")
        recs = keyed(self.imp("inspect", str(INS_ERR)))
        for key in keys:
            self.assertNotIn("Timeout", inspect_samples(data)[key]["error"]["message"])
            self.assertOutcome(recs[key], "unscoreable", "env_flake")
            self.assertTrue(inspect_samples(data)[key]["error"]["message"].startswith(recs[key]["harness"]["error"]))

    def test_cancelled_is_a_declared_extra_reason_class(self) -> None:
        """A cancelled sample is unscoreable 'cancelled', which the draft declares in reason_classes; without that
        declaration check finds it uncoded.
        """
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
        """A declared sample and epoch with no sample in the log is unscoreable missing_artifact."""
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
        """A log with status error still yields every declared sample and epoch, the errored ones unscoreable."""
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
        """A started log with no sample yet yields every declared sample and epoch as missing_artifact."""
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
        """The attempt is the epoch, the run id is the eval's, and sample id, uuid and score are kept under harness."""
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
        """The draft manifest is samples mode with the epochs as budget and declares every sample id."""
        data = load(INS_OK)
        _runs, _draft_path, _records, draft = self.imp_files("inspect", str(INS_OK))
        self.assertEqual(draft["attempt_mode"], "samples")
        self.assertEqual(draft["attempt_budget"], data["eval"]["config"]["epochs"])
        ids = [str(i) for i in data["eval"]["dataset"]["sample_ids"]]
        self.assertEqual(draft["dataset"]["task_count"], len(ids))
        self.assertEqual(draft["dataset"]["task_ids"], sorted(ids))
        self.assertEqual(draft["dataset"]["task_ids_sha256"], ids_digest(ids))

    def test_draft_names_a_declared_sample_that_never_ran(self) -> None:
        """A declared sample that never ran is in the draft and gets a missing_artifact record for every epoch."""
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
        """import, then the draft completed with controls, then check: PUBLISHABLE, pass@1 equal to the log's C scores
        over samples × epochs.
        """
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
        """A .eval archive with zstd members, on a Python whose zipfile cannot read them (the gate imports no zstd
        package), is an input error that gives the `inspect log convert` command."""
        with zipfile.ZipFile(INS_ZSTD) as archive:
            self.assertIn(93, {i.compress_type for i in archive.infolist()}, "fixture precondition: zstd members")
        result = self.run_gate("import", "inspect", str(INS_ZSTD))
        self.assertInputError(result, "inspect log convert --to json --output-dir", str(INS_ZSTD))

    @unittest.skipIf(sys.version_info >= (3, 14), "Python >= 3.14 may read zstd zip members itself")
    def test_zstd_eval_refused_real_command_line(self) -> None:
        """The same refusal from the real command line: exit 2, one stderr line, nothing written."""
        proc = run_cli("import", "inspect", str(INS_ZSTD), "-o", str(self.dir / "runs.jsonl"))
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertEqual(proc.stdout, "")
        self.assertNotIn("Traceback", proc.stderr)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        self.assertIn("inspect log convert --to json --output-dir", proc.stderr)
        self.assertIn(str(INS_ZSTD), proc.stderr)
        self.assertFalse((self.dir / "runs.jsonl").exists())

    def test_deflate_eval_imports_like_the_json_log(self) -> None:
        """A deflate .eval archive imports exactly like the JSON log of the same run."""
        def view(records: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
            return [(r["run_id"], r["task_id"], r["attempt"], r["outcome"], r["reason"], r["harness"].get("uuid"),
                     r["harness"].get("score_value")) for r in records]

        from_json = self.imp("inspect", str(INS_OK))
        from_eval = self.imp("inspect", str(INS_DEFLATE))
        self.assertEqual(len(from_eval), 10)
        self.assertEqual(view(from_eval), view(from_json))
        self.assertEqual(sum(r["outcome"] == "pass" for r in from_eval), 6)

    def test_a_stored_zip_member_is_readable(self) -> None:
        """A .eval archive with stored (uncompressed) members is read like a deflate one."""
        import zipfile

        source = FIXTURES / "inspect" / "tiny-success-deflate.eval"
        target = self.dir / "stored.eval"
        with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as zout:
            for info in zin.infolist():
                zout.writestr(info.filename, zin.read(info.filename))
        code, out, err = self.run_gate("import", "inspect", str(target))
        self.assertEqual(code, 0, err)
        self.assertEqual(sum(json.loads(line)["outcome"] == "pass" for line in out.splitlines()), 6)

    def test_the_stated_figure_is_the_first_scorers(self) -> None:
        """A log with two scorers states its figure from results.scores[0], the headline scorer, not the last."""
        data = load(INS_OK)
        data["results"]["scores"].append({"name": "other", "scorer": "other", "scored_samples": 3,
                                          "metrics": {"accuracy": {"name": "accuracy", "value": 0.1}}})
        code, _out, err = self.run_gate("import", "inspect", str(self.write_json("two-scorers.json", data)))
        self.assertEqual(code, 0, err)
        self.assertIn(": the log's own figure: accuracy 0.6 over 5 scored sample(s), errored and NaN samples left out\n",
                      err)


class InspectInputErrors(ImportCase):
    """Malformed Inspect logs are input errors naming the file and the field."""

    def test_wrong_types(self) -> None:
        """A mistyped epochs, epoch or score value is an input error naming the file and the field."""
        self.assertFieldErrors("inspect", INS_OK, [
            (lambda d: d["eval"]["config"].__setitem__("epochs", "2"), "epochs"),
            (lambda d: d["samples"][0].__setitem__("epoch", "1"), "epoch"),
            (lambda d: d["samples"][0]["scores"]["match"].__setitem__("value", "maybe"), "value"),
        ])

    def test_a_sample_outside_the_declared_ids_and_epochs_is_refused(self) -> None:
        """The log declares samples 1..5 and 2 epochs: a sample id 6, an epoch 0 or 3, and a (sample, epoch) logged
        twice are each refused naming the sample's index; epoch 2 of 2 is inside."""
        cases = [
            (lambda d: d["samples"][3].__setitem__("id", 6), "samples[3].id: '6' is not in eval.dataset.sample_ids"),
            (lambda d: d["samples"][4].__setitem__("epoch", 0), "samples[4].epoch: 0 outside 1..2 (eval.config.epochs)"),
            (lambda d: d["samples"][4].__setitem__("epoch", 3), "samples[4].epoch: 3 outside 1..2 (eval.config.epochs)"),
            (lambda d: d["samples"][7].__setitem__("id", 1), "samples[7]: duplicate sample id '1' epoch 2"),
        ]
        self.assertFieldErrors("inspect", INS_OK, cases)
        data = load(INS_OK)
        data["samples"][4]["epoch"] = 2
        del data["samples"][9]  # sample 5, epoch 2: now logged at index 4
        records = self.imp("inspect", str(self.write_json("moved.json", data)))
        self.assertEqual(sorted((r["task_id"], r["attempt"]) for r in records),
                         [(str(t), e) for t in range(1, 6) for e in (1, 2)])

    def test_declared_samples_times_epochs_at_the_cap_are_read_on_and_one_past_refused(self) -> None:
        """1,000 declared samples x 10,000 epochs is 10,000,000 attempts, the cap itself: the log is read on (and
        refused for what comes next, a sample logged at epoch 0); 1,001 x 10,000 is refused naming the cap."""
        for count, error in ((1000, "samples[4].epoch: 0 outside 1..10000 (eval.config.epochs)"),
                             (1001, "declares 1,001 samples x 10,000 epochs, more attempts than the gate imports "
                                    "(10,000,000)")):
            with self.subTest(count=count):
                data = load(INS_OK)
                data["eval"]["dataset"]["sample_ids"] = list(range(1, count + 1))
                data["eval"]["config"]["epochs"] = 10_000
                data["samples"][4]["epoch"] = 0
                path = self.write_json("capped.json", data)
                self.assertInputError(self.run_gate("import", "inspect", str(path)), error)

    def test_broken_eval_archives(self) -> None:
        """A file that is not a zip, and a readable archive whose header.json has a duplicate key, are input errors
        naming the file.
        """
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


class SampleIdsFollowCheckRules(ImportCase):
    def test_a_sample_id_with_a_control_character_is_refused_as_check_would(self) -> None:
        """import inspect applies check's task-ID rule to the declared sample ids."""
        log = load(INS_OK)
        log["eval"]["dataset"]["sample_ids"][0] = "1\n"
        path = self.write_json("log.json", log)
        self.assertInputError(self.run_gate("import", "inspect", str(path)), "log.json", "sample_ids[0]", "printable")


class InspectEdgeCases(ImportCase):
    """Cases an earlier mutation sample showed no test distinguished."""

    def repacked(self, extra: dict[str, bytes] | None = None, method: int | None = None) -> Path:
        """The deflate fixture re-packed, with extra members or one member's compression method patched."""
        source = FIXTURES / "inspect" / "tiny-success-deflate.eval"
        target = self.dir / "log.eval"
        with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
            for info in zin.infolist():
                zout.writestr(info.filename, zin.read(info.filename))
            for name, data in (extra or {}).items():
                zout.writestr(name, data)
        if method is not None:
            data = bytearray(target.read_bytes())
            central = data.index(b"PK\x01\x02")
            data[central + 10:central + 12] = method.to_bytes(2, "little")
            target.write_bytes(bytes(data))
        return target

    def test_an_extra_file_in_a_sample_folder_is_not_a_sample(self) -> None:
        """Only samples/<id>_epoch_<n>.json and samples/<id>_epoch_<n>/sample.json are samples: another file in a
        sample folder (an attachment) is ignored, and the import is unchanged."""
        target = self.repacked({"samples/1_epoch_1/attachment.json": b'{"not": "a sample"}'})
        records = self.imp("inspect", str(target))
        self.assertEqual(len(records), 10)
        self.assertEqual(sum(r["outcome"] == "pass" for r in records), 6)

    def test_an_unsupported_compression_method_is_named(self) -> None:
        """A member compressed with a method this Python lacks is refused naming the method and the member."""
        target = self.repacked(method=97)
        self.assertInputError(self.run_gate("import", "inspect", str(target)), "compressed with method 97",
                              "inspect log convert")

    def test_a_timeout_error_message_alone_is_a_timeout(self) -> None:
        """A sample error whose message is `TimeoutError(...)`, with no traceback at all, is harness_timeout."""
        log = load(INS_OK)
        log["samples"][0]["scores"] = {}
        log["samples"][0]["error"] = {"message": "TimeoutError('the sandbox took too long')", "traceback": None}
        path = self.write_json("log.json", log)
        first = next(r for r in self.imp("inspect", str(path)) if r["harness"].get("error"))
        self.assertOutcome(first, "unscoreable", "harness_timeout")

    def test_a_log_with_no_results_and_no_scorers_uses_its_one_score(self) -> None:
        """Without a results block or declared scorers, the one score key the samples carry is the headline."""
        log = load(INS_OK)
        log.pop("results", None)
        log["eval"].pop("scorers", None)
        path = self.write_json("log.json", log)
        records = self.imp("inspect", str(path))
        self.assertEqual(sum(r["outcome"] == "pass" for r in records), 6)
        self.assertEqual({r["harness"]["scorer"] for r in records}, {"match"})
        for sample in log["samples"]:
            sample["scores"]["other"] = sample["scores"]["match"]
        path = self.write_json("log.json", log)
        self.assertInputError(self.run_gate("import", "inspect", str(path)), "headline score")
