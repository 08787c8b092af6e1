"""What every importer does alike: keep the harness's measures and identifiers, read standard input (`-`), name
the import command when a harness file is given to `check --runs`, and add control runs from the harness to the
claim's draft; and the control commands `controls_incomplete` names for the harness in the envelope.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
from datetime import datetime
from pathlib import Path
from typing import Any
from unittest import mock

import gate
from tests.oracles import ids_digest
from tests.realfiles import DROID, JAVA_DEEPSEEK, TH20, VTM, RealFileCase, run_log
from tests.support import INS_DEFLATE, INS_OK, INS_ZSTD, ROOT, TB_RESULTS, load, run_cli


def seconds(start: str, end: str) -> float:
    began, ended = (datetime.fromisoformat(t.replace("Z", "+00:00")) for t in (start, end))
    return (ended - began).total_seconds()


class StdinBuffer:
    """A stand-in for sys.stdin whose .buffer holds the given bytes, as the gate reads it."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


class Measures(RealFileCase):
    """wall_clock_s from the harness's timestamps or durations, tokens and cost where reported, ids under harness."""

    def test_terminal_bench_keeps_trial_time_tokens_and_ids(self) -> None:
        """A Terminal-Bench record's wall_clock_s is trial_ended_at - trial_started_at, its tokens the trial's
        totals (0 and 0 is the agent logging none, left out), and harness keeps trial_name, id, run_id, is_resolved and
        failure_mode."""
        run = self.tb_runs(DROID)[0]
        trials = {t["task_id"]: t for t in load(run / "results.json")["results"]}
        imp = self.import_ok("terminal-bench", str(run))
        for rec in imp.records:
            trial = trials[rec["task_id"]]
            self.assertAlmostEqual(rec["wall_clock_s"], seconds(trial["trial_started_at"], trial["trial_ended_at"]), places=3)
            counted = (trial["total_input_tokens"], trial["total_output_tokens"])
            if None not in counted and counted != (0, 0):
                self.assertEqual((rec["input_tokens"], rec["output_tokens"]), counted)
            else:  # none logged, or 0 and 0 (the agent logged none: not a free run)
                self.assertNotIn("input_tokens", rec)
            self.assertEqual({k: rec["harness"][k] for k in ("trial_name", "id", "is_resolved", "failure_mode")},
                             {k: trial[k] for k in ("trial_name", "id", "is_resolved", "failure_mode")})

    def test_a_wall_clock_only_some_attempts_have_is_dropped_from_all(self) -> None:
        """Terminal-Bench: one trial without timestamps (the harness itself raised) drops wall_clock_s from every
        record, with a note saying how many lacked it; Inspect: one sample without total_time, likewise."""
        run = self.tb_runs(DROID)[0]
        results = load(run / "results.json")
        results["results"][0]["trial_started_at"] = results["results"][0]["trial_ended_at"] = None
        (run / "results.json").write_text(json.dumps(results, indent=4))
        imp = self.import_ok("terminal-bench", str(run), name="tb")
        self.assertFalse(any("wall_clock_s" in r for r in imp.records))
        self.assertTrue(any("wall_clock_s left out: 1 of 80 attempts" in n for n in imp.notes()), imp.err)
        log = load(INS_OK)
        del log["samples"][3]["total_time"]
        imp = self.import_ok("inspect", str(self.write_json("log.json", log)), name="inspect")
        self.assertFalse(any("wall_clock_s" in r for r in imp.records))
        self.assertTrue(any("wall_clock_s left out: 1 of 10 attempts" in n for n in imp.notes()), imp.err)

    def test_inspect_keeps_total_time_and_tokens_summed_over_models(self) -> None:
        """An Inspect record's wall_clock_s is the sample's total_time and its tokens the sum over the models in
        its model_usage; harness keeps sample id, epoch and uuid."""
        log = load(INS_OK)
        sample = log["samples"][0]
        sample["model_usage"]["grader/model"] = {"input_tokens": 100, "output_tokens": 7, "total_tokens": 107}
        records = {(r["task_id"], r["attempt"]): r for r in self.imp("inspect", str(self.write_json("log.json", log)))}
        rec = records[(str(sample["id"]), sample["epoch"])]
        own = sample["model_usage"]["mockllm/model"]
        self.assertEqual((rec["input_tokens"], rec["output_tokens"]), (own["input_tokens"] + 100, own["output_tokens"] + 7))
        self.assertEqual(rec["wall_clock_s"], round(sample["total_time"], 3))
        self.assertEqual((rec["harness"]["sample_id"], rec["harness"]["epoch"], rec["harness"]["uuid"]),
                         (sample["id"], sample["epoch"], sample["uuid"]))
        sample["total_time"] = 999_999_999.5  # the longest a wall clock may be is under 10^9 s
        records = {(r["task_id"], r["attempt"]): r for r in self.imp("inspect", str(self.write_json("long.json", log)))}
        self.assertEqual(records[(str(sample["id"]), sample["epoch"])]["wall_clock_s"], 999_999_999.5)

    def test_harbor_keeps_trial_time_tokens_and_ids(self) -> None:
        """A Harbor record's wall_clock_s is finished_at - started_at (UTC `Z`), its tokens the agent's
        n_input_tokens / n_output_tokens, harness the trial's name, id and reward."""
        job = TH20 / "dna-insert--thinharness" / "job"
        data = load(next(job.glob("*/result.json")))
        rec = self.imp("harbor", str(job))[0]
        self.assertAlmostEqual(rec["wall_clock_s"], seconds(data["started_at"], data["finished_at"]), places=3)
        self.assertEqual((rec["input_tokens"], rec["output_tokens"]),
                         (data["agent_result"]["n_input_tokens"], data["agent_result"]["n_output_tokens"]))
        self.assertEqual((rec["harness"]["trial_name"], rec["harness"]["id"], rec["harness"]["reward"]),
                         (data["trial_name"], data["id"], data["verifier_result"]["rewards"]["reward"]))

    def test_swebench_records_no_measure_it_does_not_have(self) -> None:
        """A SWE-bench run report records no time, tokens or cost: the records carry none, no note about a wall
        clock is printed, and harness keeps the instance id and the list that named it."""
        imp = self.import_ok("swebench", str(JAVA_DEEPSEEK))
        for rec in imp.records:
            self.assertFalse({"wall_clock_s", "cost_usd", "input_tokens", "output_tokens"} & set(rec), rec)
            self.assertEqual(rec["harness"]["instance_id"], rec["task_id"])
            self.assertIn(rec["harness"]["status_list"], ("resolved_ids", "unresolved_ids", "empty_patch_ids"))
        self.assertNotIn("wall_clock_s left out", imp.err)


class StandardInput(RealFileCase):
    """`-` names standard input, for import and for check."""

    def test_import_from_standard_input_in_a_subprocess(self) -> None:
        """`import inspect -` fed a JSON log and a deflate .eval archive on standard input, and `import
        terminal-bench -` fed a results.json, write exactly what the same import of the file writes."""
        for fmt, path in (("inspect", INS_OK), ("inspect", INS_DEFLATE), ("terminal-bench", TB_RESULTS)):
            with self.subTest(path=path.name):
                piped = run_cli("import", fmt, "-", stdin=path.read_bytes())
                self.assertEqual(piped.returncode, 0, piped.stderr)
                self.assertEqual(piped.stdout, run_cli("import", fmt, str(path)).stdout)
                self.assertGreater(len(piped.stdout.splitlines()), 9)

    def test_check_reads_its_runs_from_standard_input_in_a_subprocess(self) -> None:
        """`check --runs -` with the ledger piped in prints the same report as with the file, and so does
        `check --manifest -` with the manifest piped in."""
        imp = self.import_ok("inspect", str(run_log("limit10-json")))
        manifest = self.complete(imp.draft_path)
        by_file = run_cli("check", "--manifest", str(manifest), "--runs", str(imp.runs), "--format", "json")
        self.assertIn(by_file.returncode, (0, 1), by_file.stderr)
        piped = run_cli("check", "--manifest", str(manifest), "--runs", "-", "--format", "json", stdin=imp.runs.read_bytes())
        self.assertEqual((piped.returncode, piped.stdout), (by_file.returncode, by_file.stdout))
        piped = run_cli("check", "--manifest", "-", "--runs", str(imp.runs), "--format", "json",
                        stdin=manifest.read_bytes())
        self.assertEqual((piped.returncode, piped.stdout), (by_file.returncode, by_file.stdout))
        self.assertEqual(json.loads(piped.stdout)["headline"]["k"], 3)

    def test_standard_input_in_process(self) -> None:
        """In-process, with sys.stdin's .buffer a BytesIO: `import inspect -` reads the archive from it and `check
        --runs -` the ledger; an error about the input names it `-`, not a temporary file."""
        with mock.patch("sys.stdin", StdinBuffer(INS_DEFLATE.read_bytes())):
            code, out, err = self.run_gate("import", "inspect", "-")
        self.assertEqual(code, 0, err)
        self.assertEqual(out, self.run_gate("import", "inspect", str(INS_DEFLATE))[1])
        imp = self.import_ok("inspect", str(INS_OK))
        manifest = self.complete(imp.draft_path)
        with mock.patch("sys.stdin", StdinBuffer(imp.runs.read_bytes())):
            code, out, err = self.run_gate("check", "--manifest", str(manifest), "--runs", "-", "--format", "json")
        self.assertIn(code, (0, 1), err)
        self.assertEqual(json.loads(out)["ledger"]["records"], 10)
        with mock.patch("sys.stdin", StdinBuffer(b'{"results": 3}')):
            result = self.run_gate("import", "terminal-bench", "-")
        self.assertInputError(result, "-.results: expected a list")
        self.assertNotIn("benchgate-", result[2])

    def test_only_one_input_can_be_standard_input(self) -> None:
        """Two inputs named `-` are refused with one line: standard input can be read once."""
        with mock.patch("sys.stdin", StdinBuffer(b"")):
            self.assertInputError(self.run_gate("check", "--manifest", "-", "--runs", "-"),
                                  "only one input can be standard input")


class HarnessFileAsRuns(RealFileCase):
    """A harness's own result file given to `check --runs` is an input error naming the import to run."""

    def cases(self) -> list[tuple[str, Path]]:
        run = self.tb_runs(DROID)[0]
        publish = self.write_json("report.json", {"no_edit_must_fail": True, "known_fix_must_pass": True,
                                                  "attempt_budget": 1,
                                                  "outcomes": [{"task_id": "a", "attempts": 1, "hidden_tests_passed": True}]})
        return [
            ("terminal-bench", run / "results.json"),
            ("terminal-bench", self.tb_file("orchestrator_claude-4-sonnet.results.json")),
            ("harbor", TH20 / "dna-insert--pi" / "job" / "result.json"),
            ("swebench", VTM),
            ("swebench", JAVA_DEEPSEEK),
            ("swebench", ROOT / "examples" / "swebench" / "results.json"),  # the experiments form (README)
            ("inspect", INS_OK),
            ("inspect", run_log("nan")),
            ("inspect", INS_DEFLATE),
            ("inspect", INS_ZSTD),
            ("publish-gate", publish),
        ]

    def test_each_harness_file_is_named_with_its_import_command(self) -> None:
        """check --runs on a Terminal-Bench results.json, a Harbor job result.json, a SWE-bench report (both
        forms), an Inspect log (JSON, deflate and zstd .eval) and a publish-gate report: exit 2, one line naming
        the file as that harness's result file and giving `gate.py import <format> ...`."""
        imp = self.import_ok("inspect", str(INS_OK))
        manifest = self.complete(imp.draft_path)
        for fmt, path in self.cases():
            with self.subTest(path=path.name):
                result = self.run_gate("check", "--manifest", str(manifest), "--runs", str(path))
                self.assertInputError(result, str(path), f"a {fmt} result file, not a ledger of attempt records",
                                      f"`python3 gate.py import {fmt} ")

    def test_each_harness_file_given_as_the_manifest_is_named_with_its_import_command(self) -> None:
        """The same files given as --manifest: one line naming the file as that harness's result file, not a
        manifest, with the import command that drafts one (it said `total_instances: unknown key`); a manifest that
        fails its checks stays that manifest's error though its notes hold a harness's sign."""
        imp = self.import_ok("inspect", str(INS_OK))
        for fmt, path in self.cases():
            with self.subTest(path=path.name):
                result = self.run_gate("check", "--manifest", str(path), "--runs", str(imp.runs))
                self.assertInputError(result, str(path), f"a {fmt} result file, not a manifest",
                                      f"`python3 gate.py import {fmt} ")
        manifest = load(self.complete(imp.draft_path))
        manifest["notes"] = {"resolved_ids": "a harness's sign, in a note"}
        manifest["attempt_budget"] = "one"
        result = self.run_gate("check", "--manifest", str(self.write_json("m.json", manifest)), "--runs", str(imp.runs))
        self.assertInputError(result, "m.json: attempt_budget")
        del manifest["attempt_budget"]  # a trailing comma, by hand: the JSON's own error, with what to do
        broken = json.dumps(manifest, indent=2).replace('"\n  }', '",\n  }', 1)
        result = self.run_gate("check", "--manifest", str(self.write_text("b.json", broken)), "--runs", str(imp.runs))
        self.assertInputError(result, "b.json:", "a comma before this }")

    def test_a_ledger_is_not_mistaken_for_a_harness_file(self) -> None:
        """A real ledger with a malformed first line is reported as that line's problem, not as a harness file, even
        when its records' harness objects hold the harness's signs (a SWE-bench import's hold its report's list
        names): a line cut short, and one hand-edited with single quotes (which was named a swebench result file, with
        an import command that then failed)."""
        for fmt, source in (("inspect", INS_OK), ("swebench", ROOT / "examples" / "swebench" / "gold.validate-gold.json")):
            imp = self.import_ok(fmt, str(source), name=f"ledger-{fmt}")
            manifest = self.complete(imp.draft_path)
            lines = imp.runs.read_text().splitlines()
            for name, edit in (("cut short", lambda text: text[:-1]), ("single quotes", lambda text: text.replace('"', "'"))):
                with self.subTest(fmt=fmt, edit=name):
                    broken = self.write_text("broken.jsonl", "\n".join([edit(lines[0]), *lines[1:]]) + "\n")
                    code, _out, err = self.run_gate("check", "--manifest", str(manifest), "--runs", str(broken))
                    self.assertEqual(code, 2)
                    self.assertIn("broken.jsonl:1: invalid JSON", err)
                    self.assertNotIn("result file", err)


class ControlRunsFromTheHarness(RealFileCase):
    """`import ... --control no_edit|known_fix -o RUNS --draft-manifest M` adds the control run to the draft M."""

    def setUp(self) -> None:
        super().setUp()
        self.run = self.tb_runs(DROID)[0]
        self.claims = self.dir / "claims"
        self.claims.mkdir()
        self.draft = self.claims / "bench.manifest.json"
        code, _out, err = self.run_gate("import", "terminal-bench", str(self.run), "-o", str(self.claims / "runs.jsonl"),
                                        "--draft-manifest", str(self.draft))
        self.assertEqual(code, 0, err)

    def control_run(self, name: str, resolved: Any) -> Path:
        """The claim's run as a control agent would leave it: every trial resolved (oracle) or not (nop)."""
        results = load(self.run / "results.json")
        for i, trial in enumerate(results["results"]):
            trial["is_resolved"] = resolved(i)
            trial["failure_mode"] = "unset"
        passed = [t["task_id"] for t in results["results"] if t["is_resolved"]]
        results.update(accuracy=len(passed) / len(results["results"]), n_resolved=len(passed),
                       n_unresolved=len(results["results"]) - len(passed), resolved_ids=passed,
                       unresolved_ids=[t["task_id"] for t in results["results"] if not t["is_resolved"]])
        folder = self.dir / name
        folder.mkdir()
        (folder / "results.json").write_text(json.dumps(results, indent=4))
        shutil.copy(self.run / "run_metadata.json", folder / "run_metadata.json")
        return folder

    def assertRefused(self, result: tuple[int, str, str], fragment: str) -> None:
        """Exit 2, no traceback, the error the last line of stderr and naming the reason (the import's own notes
        may come before it)."""
        code, out, err = result
        self.assertEqual(code, 2, err)
        self.assertEqual(out, "")
        self.assertNotIn("Traceback", err)
        last = err.strip().splitlines()[-1]
        self.assertTrue(last.startswith("gate.py: error: "), err)
        self.assertIn(fragment, last)

    def add(self, role: str, folder: Path, output: Path) -> tuple[int, str, str]:
        return self.run_gate("import", "terminal-bench", str(folder), "--control", role, "-o", str(output),
                             "--draft-manifest", str(self.draft))

    def test_control_runs_are_added_to_the_draft_and_gated(self) -> None:
        """A nop run imported with --control no_edit and an oracle run with --control known_fix add control_runs
        entries to the draft: role, the runs file relative to the draft's folder, max_pass_rate 0.05 /
        min_pass_rate 0.95; the completed claim is then PUBLISHABLE with no controls_incomplete finding."""
        nop = self.control_run("nop", lambda i: False)
        oracle = self.control_run("oracle", lambda i: True)
        (self.claims / "controls").mkdir()
        for role, folder, output in (("no_edit", nop, self.claims / "controls" / "nop.jsonl"),
                                     ("known_fix", oracle, self.claims / "oracle.jsonl")):
            code, _out, err = self.add(role, folder, output)
            self.assertEqual(code, 0, err)
            self.assertTrue(output.exists())
        draft = load(self.draft)
        self.assertEqual([{k: v for k, v in e.items() if k != "provenance"} for e in draft["control_runs"]],
                         [{"role": "no_edit", "runs": "controls/nop.jsonl", "max_pass_rate": 0.05},
                          {"role": "known_fix", "runs": "oracle.jsonl", "min_pass_rate": 0.95}])
        # each entry binds its run: the ledger the import wrote, the claim's importer and instrument
        claim = draft["provenance"]
        for entry in draft["control_runs"]:
            bound = entry["provenance"]
            self.assertEqual(bound["ledger"]["path"], entry["runs"])
            self.assertEqual(bound["ledger"]["sha256"],
                             hashlib.sha256((self.claims / entry["runs"]).read_bytes()).hexdigest())
            self.assertEqual((bound["importer"], bound["instrument"], bound["options"]),
                             (claim["importer"], claim["instrument"], claim["options"]))
        self.assertIn("draft", draft, "still a draft: the user completes it")
        del draft["draft"]
        for key, value in {"runner": "local-docker", "network": "off", "wall_clock_s_per_task": 3600,
                           "toolchain_sha": "0123abcd"}.items():
            draft["envelope"][key] = value
        draft["system"]["model"] = "the model the droid run used"  # its run_metadata.json records none
        self.draft.write_text(json.dumps(draft, indent=2))
        code, out, err = self.run_gate("check", "--manifest", str(self.draft), "--runs", str(self.claims / "runs.jsonl"),
                                       "--format", "json")
        report = json.loads(out)
        self.assertEqual((code, report["verdict"], report["findings"]), (0, "PUBLISHABLE", []), err)
        self.assertEqual([(r["role"], r["headline"]["k"]) for r in report["control_runs"]], [("no_edit", 0), ("known_fix", 80)])

    def test_a_control_import_drops_the_to_do_items_already_done(self) -> None:
        """Fields filled in the draft between the claim's import and a control run's are not asked again: the control
        import keeps (and prints) only the to-do items whose field still holds its placeholder, where it reprinted
        every item and a user wondered whether the edits were kept."""
        draft = load(self.draft)
        asked = [item.split(":")[0] for item in draft["draft"]]
        self.assertIn("envelope.network", asked)
        self.assertIn("envelope.runner", asked)
        draft["envelope"]["network"] = "off"
        self.draft.write_text(json.dumps(draft, indent=2))
        code, _out, err = self.add("no_edit", self.control_run("nop", lambda i: False), self.claims / "nop.jsonl")
        self.assertEqual(code, 0, err)
        left = [item.split(":")[0] for item in load(self.draft)["draft"]]
        self.assertNotIn("envelope.network", left)
        self.assertIn("envelope.runner", left)
        self.assertNotIn("to do in bench.manifest.json: envelope.network", err)
        self.assertIn("envelope.runner", err)
        self.assertEqual(load(self.draft)["envelope"]["network"], "off")

    def test_a_second_control_run_of_a_role_replaces_the_first(self) -> None:
        """Importing another no_edit run replaces the draft's no_edit entry (one per role), and a nop run that
        passes a quarter of the tasks then trips its ceiling: control_run_violated."""
        first = self.control_run("nop", lambda i: False)
        leaky = self.control_run("nop-leaky", lambda i: i % 4 == 0)
        self.assertEqual(self.add("no_edit", first, self.claims / "nop.jsonl")[0], 0)
        self.assertEqual(self.add("no_edit", leaky, self.claims / "nop-leaky.jsonl")[0], 0)
        self.assertEqual([{k: v for k, v in e.items() if k != "provenance"} for e in load(self.draft)["control_runs"]],
                         [{"role": "no_edit", "runs": "nop-leaky.jsonl", "max_pass_rate": 0.05}])
        manifest = self.complete(self.draft)
        shutil.move(str(manifest), str(self.claims / "done.manifest.json"))
        code, out, _err = self.run_gate("check", "--manifest", str(self.claims / "done.manifest.json"), "--runs",
                                        str(self.claims / "runs.jsonl"), "--format", "json")
        self.assertEqual(code, 1)
        self.assertIn("control_run_violated", [f["code"] for f in json.loads(out)["findings"]])

    def test_a_control_import_is_refused_unless_it_fits_the_draft(self) -> None:
        """Refused, exit 2 and the reason on the last stderr line: no such draft; a control run over another suite (six other tasks, or the claim's minus one task); no -o; an -o
        outside the draft's folder. A refused import leaves the draft as it was and writes no runs file. A manifest that
        is no longer a draft is never rewritten: the import says the control_runs entry to add."""
        nop = self.control_run("nop", lambda i: False)
        before = self.draft.read_bytes()
        missing = self.claims / "no-such.manifest.json"
        self.assertRefused(self.run_gate("import", "terminal-bench", str(nop), "--control", "no_edit", "-o",
                                            str(self.claims / "a.jsonl"), "--draft-manifest", str(missing)),
                              "no draft to add the control run to")
        completed = self.complete(self.draft)
        finished = completed.read_bytes()
        code, _out, err = self.run_gate("import", "terminal-bench", str(nop), "--control", "no_edit", "-o",
                                        str(self.dir / "b.jsonl"), "--draft-manifest", str(completed))
        self.assertEqual(code, 0, err)  # a finished manifest is a person's file: never rewritten, the entry is said
        self.assertEqual(completed.read_bytes(), finished)
        self.assertIn('is no longer a draft, so it is not rewritten: add this entry to its control_runs: '
                      '{"role": "no_edit", "runs": "b.jsonl", "max_pass_rate": 0.05, "provenance": {"importer": '
                      '"terminal-bench"', err)
        self.assertTrue((self.dir / "b.jsonl").exists())
        self.assertRefused(self.add("no_edit", TB_RESULTS, self.claims / "c.jsonl"), "not the draft's suite")
        smaller = self.control_run("nop-smaller", lambda i: False)
        results = load(smaller / "results.json")
        results["results"] = results["results"][1:]
        (smaller / "results.json").write_text(json.dumps(results, indent=4))
        (smaller / "run_metadata.json").unlink()
        covered = sorted({r["task_id"] for r in results["results"]})
        self.assertRefused(self.add("no_edit", smaller, self.claims / "d.jsonl"),
                           f"covers {len(covered)} task(s) hashing to {ids_digest(covered)[:12]}, not the draft's suite")
        self.assertRefused(self.run_gate("import", "terminal-bench", str(nop), "--control", "no_edit",
                                            "--draft-manifest", str(self.draft)), "give -o RUNS")
        self.assertRefused(self.add("no_edit", nop, self.dir / "outside.jsonl"), "must sit in the manifest's folder")
        self.assertEqual(self.draft.read_bytes(), before)
        self.assertEqual(sorted(p.name for p in self.claims.iterdir()), ["bench.manifest.json", "runs.jsonl"])
        self.assertFalse((self.dir / "outside.jsonl").exists())


class ControlCommandsInTheFinding(RealFileCase):
    """controls_incomplete names the control commands of the harness the envelope names."""

    def finding(self, fmt: str, *args: str) -> tuple[str, str]:
        imp = self.import_ok(fmt, *args, name=fmt)
        report = self.gated(imp)
        message = next(f["message"] for f in report["findings"] if f["code"] == "controls_incomplete")
        return imp.draft["envelope"]["harness"], message

    def test_each_harness_gets_its_own_control_commands(self) -> None:
        """Terminal-Bench: `--agent nop` and `--agent oracle`; Harbor: `-a nop` and `-a oracle`; SWE-bench: an
        empty-patch predictions file and `--predictions_path gold`; Inspect: says it has no standard control; each
        followed by the import command with --control."""
        expected = {
            "terminal-bench": ("terminal-bench", ["tb run --dataset ... --agent nop", "tb run --dataset ... --agent oracle"]),
            "harbor": ("harbor", ["harbor run -d <dataset> -a nop", "harbor run -d <dataset> -a oracle"]),
            "swebench": ("swebench.harness.run_evaluation", ["a change no test reads", "--predictions_path gold"]),
            "inspect": ("inspect_ai 0.3.285", ["Inspect has no standard one"]),
        }
        inputs = {"terminal-bench": [str(TB_RESULTS)], "harbor": [str(TH20 / "dna-insert--pi" / "job")],
                  "swebench": [str(VTM)], "inspect": [str(INS_OK)]}
        for fmt, (harness, fragments) in expected.items():
            with self.subTest(fmt=fmt):
                named, message = self.finding(fmt, *inputs[fmt])
                self.assertEqual(named, harness)
                for fragment in fragments:
                    self.assertIn(fragment, message)
                self.assertIn(f"`python3 gate.py import {fmt} ... --control no_edit|known_fix -o RUNS --draft-manifest MANIFEST`",
                              message)

    def test_a_harness_without_control_agents_gets_no_commands(self) -> None:
        """A manifest with no import behind it (its provenance gone, its envelope naming a hand-written harness)
        gets the plain finding, no command: the commands come from the importer's registry row, by the name
        the provenance records, never from the envelope's text."""
        imp = self.import_ok("terminal-bench", str(TB_RESULTS))
        draft = load(imp.draft_path)
        draft["envelope"]["harness"] = "terminal-bench"  # a name, not an importer's record: no hint
        del draft["provenance"]
        imp.draft_path.write_text(json.dumps(draft))
        report = self.gated(imp)
        message = next(f["message"] for f in report["findings"] if f["code"] == "controls_incomplete")
        self.assertNotIn("--agent", message)
        self.assertNotIn("gate.py import", message)


class RecordedFileDigests(RealFileCase):
    def test_a_files_digest_is_its_sha256_read_a_mebibyte_at_a_time(self) -> None:
        """The provenance digest of a file is hashlib's sha256 of its bytes, and a file of 3.5 MiB takes four reads
        and the empty one that ends it (work counted: a byte at a time would be millions of reads); a folder's is
        each file's relative path and digest, in path order."""
        data = bytes(range(256)) * (14 << 10)  # 3.5 MiB
        path = self.write_text("big.bin", data)
        reads: list[int] = []
        real = gate.open_input

        def counted(where: Any) -> Any:
            handle = real(where)
            read = handle.read
            handle.read = lambda size=-1: (reads.append(size), read(size))[1]
            return handle

        with mock.patch.object(gate, "open_input", counted):
            self.assertEqual(gate._tree_sha256(path), hashlib.sha256(data).hexdigest())
        self.assertEqual(len(reads), 5, reads)
        folder = self.dir / "tree"
        (folder / "sub").mkdir(parents=True)
        (folder / "b.txt").write_bytes(b"bee")
        (folder / "sub" / "a.txt").write_bytes(b"ay")
        lines = "".join(f"{name}\0{hashlib.sha256(body).hexdigest()}\n" for name, body in (("b.txt", b"bee"),
                                                                                          ("sub/a.txt", b"ay")))
        self.assertEqual(gate._tree_sha256(folder), hashlib.sha256(lines.encode()).hexdigest())
