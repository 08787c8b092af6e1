"""From harness output to a claim with the gate's own commands (issue 37): `set` fills a draft and answers its
to-do list, `{"not_recorded": "why"}` is an honest value, the author's notes and confirmations reach the card, and
three real harness outputs (a 5-run Terminal-Bench leaderboard submission, a Harbor study of several jobs, a
SWE-PolyBench submission) go from import to PUBLISHABLE with controls and no hand edit of the manifest's JSON.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gate
from tests.builders import valid_ledger
from tests.realfiles import DROID, OPENHANDS, TH20, RealFileCase
from tests.support import FIXTURES, load

POLY = FIXTURES / "wild3" / "other" / "swe-polybench" / "20260430_kodah_gpt-5-mini"


class SetCommand(RealFileCase):
    def draft(self) -> Path:
        imp = self.import_ok("terminal-bench", str(self.tb_runs(DROID)[0]))
        return imp.draft_path

    def test_values_are_json_where_they_parse_and_text_otherwise(self) -> None:
        draft = self.draft()
        code, out, err = self.run_gate("set", str(draft), "envelope.runner=local-docker", "envelope.network=off",
                                       "envelope.wall_clock_s_per_task=1800", "envelope.gpu=false",
                                       "envelope.toolchain_sha=\"1234\"", "system.model=gpt-5",
                                       'envelope.x-limits={"cpus": 2}')
        self.assertEqual((code, out), (0, ""), err)
        manifest = load(draft)
        self.assertEqual({k: manifest["envelope"][k] for k in ("runner", "network", "wall_clock_s_per_task", "gpu",
                                                                "toolchain_sha", "x-limits")},
                         {"runner": "local-docker", "network": "off", "wall_clock_s_per_task": 1800, "gpu": False,
                          "toolchain_sha": "1234", "x-limits": {"cpus": 2}})
        self.assertIn("gate.py: set envelope.network=off", err)

    def test_each_answered_item_leaves_the_list_and_an_empty_list_goes(self) -> None:
        """The items about keys set leave the draft list (the others stay, and are printed); --confirm dataset
        answers the confirmation and records it; with nothing left the list is gone and the check command
        printed. Old code: every item was a hand edit, and the list deleted by hand."""
        draft = self.draft()
        before = load(draft)["draft"]
        self.assertTrue(any(item.startswith("envelope.network:") for item in before))
        code, _out, err = self.run_gate("set", str(draft), "envelope.network=off")
        self.assertEqual(code, 0, err)
        after = load(draft)["draft"]
        self.assertFalse(any(item.startswith("envelope.network:") for item in after))
        self.assertEqual(len(after), len(before) - 1)
        self.assertIn(f"to do in {draft}: envelope.runner:", err)
        code, _out, err = self.run_gate("set", str(draft), "--confirm", "dataset")
        self.assertEqual(code, 0, err)
        manifest = load(draft)
        self.assertTrue(manifest["confirmed"]["dataset"].startswith("confirm the run covered its whole dataset"))
        code, _out, err = self.run_gate("set", str(draft), "envelope.runner=local-docker", "system.model=gpt-5",
                                        'envelope.wall_clock_s_per_task={"not_recorded": "not in the files"}')
        self.assertEqual(code, 0, err)
        self.assertIn("controls", " ".join(load(draft)["draft"]))  # the control runs are still to import
        manifest = load(draft)
        manifest["controls"] = []  # (a test shortcut: the claim's controls are what is left)
        draft.write_text(json.dumps(manifest))
        code, _out, err = self.run_gate("set", str(draft), 'controls=[{"task_id": "x", "expected": "fail", '
                                                           '"role": "negative"}]')
        self.assertEqual(code, 0, err)
        self.assertNotIn("draft", load(draft))
        self.assertIn("the draft is complete; check it: python3 gate.py --manifest", err)

    def test_an_attempt_mode_set_over_the_imports_reading_blocks(self) -> None:
        """Two droid runs imported as samples (pass@1 over both), then `set attempt_mode=retry`, which would read a
        task passed by either run as a pass within its budget: ledger_not_imported names both modes. Old code:
        PUBLISHABLE at the pass@k figure (the ledger's sha256 was bound, its reading was not)."""
        runs = self.tb_runs(DROID)[:2]
        imp = self.import_ok("terminal-bench", *map(str, runs), "--one-instrument")
        self.assertEqual(imp.draft["provenance"]["ledger"]["attempt_mode"], "samples")
        manifest = self.complete(imp.draft_path)
        report = self.gated_json(manifest, imp.runs)
        self.assertNotIn("ledger_not_imported", report)
        self.assertEqual(self.run_gate("set", str(manifest), "attempt_mode=retry")[0], 0)
        code, out, _ = self.run_gate("check", "--manifest", str(manifest), "--runs", str(imp.runs))
        self.assertEqual(code, 1)
        self.assertIn("ledger_not_imported: the import read this ledger's attempts in samples mode", out)
        self.assertIn("the manifest says retry", out)

    def gated_json(self, manifest: Path, runs: Path) -> str:
        return self.run_gate("check", "--manifest", str(manifest), "--runs", str(runs), "--format", "json")[1]

    def test_wrong_keys_and_values_are_refused_and_the_file_kept(self) -> None:
        """A near miss of a key the manifest has: exit 2 with the did-you-mean; an envelope key close to a
        required one likewise; provenance and draft are never set; a value of the wrong type is refused by the
        manifest's own check and the file is left as it was; --confirm of a word no item asks names the items."""
        draft = self.draft()
        kept = draft.read_bytes()
        cases = [(("envelop.network=off",), "unknown key", "did you mean 'envelope'"),
                 (("dataset.nmae=x",), "did you mean 'name'"),
                 (("envelope.netwrk=off",), "close to 'network'"),
                 (("provenance.importer=x",), "the import's record"),
                 (("envelope.wall_clock_s_per_task=soon",), "wall_clock_s_per_task", "a number"),
                 (("network",), "expected KEY=VALUE"),
                 (("--confirm", "datset"), "no to-do item asks it", "did you mean 'dataset'")]
        for args, *fragments in cases:
            with self.subTest(args=args):
                self.assertInputError(self.run_gate("set", str(draft), *args), *fragments)
                self.assertEqual(draft.read_bytes(), kept)
        # the near miss is the envelope's own: under system, any key is the user's
        code, _out, err = self.run_gate("set", str(draft), "system.netwrk=lan")
        self.assertEqual(code, 0, err)
        self.assertEqual(load(draft)["system"]["netwrk"], "lan")

    def test_the_free_form_keys_are_set_at_every_level_and_no_other_unknown_key(self) -> None:
        """`notes` and `x-…` are the user's own keys at the top and in dataset: set writes them. Any other key the
        manifest does not have there is refused by set itself, naming the keys there, whether it sorts before or after
        `notes` (a check that compared the key with `notes` by order let half of them through to the manifest's
        check, and refused `notes`)."""
        draft = self.draft()
        for key in ("notes", "x-team", "dataset.notes", "dataset.x-split"):
            with self.subTest(key=key):
                code, _out, err = self.run_gate("set", str(draft), f"{key}=ours")
                self.assertEqual(code, 0, err)
                value: Any = load(draft)
                for part in key.split("."):
                    value = value[part]
                self.assertEqual(value, "ours")
        kept = draft.read_bytes()
        for key, there in (("aardvark", "claim_id, dataset"), ("notez", "claim_id, dataset"),
                           ("zebra", "claim_id, dataset"), ("dataset.card_sha", "name, task_count"),
                           ("dataset.taks_count", "name, task_count"), ("dataset.subset.zz", "of, selection"),
                           ("dataset.subset.all", "of, selection")):
            with self.subTest(key=key):
                self.assertInputError(self.run_gate("set", str(draft), f"{key}=1"),
                                      f"set {key}: unknown key {key.rpartition('.')[2]!r}", f"the keys there are {there}")
                self.assertEqual(draft.read_bytes(), kept)

    def test_the_check_command_set_prints_runs_as_shown_with_spaces_in_paths(self) -> None:
        """The recipe's --manifest replaced by the file set wrote, every word quoted (a path with a space left
        "--manifest 'm x.json' x.json"); without a recipe, the ledger the import wrote, from the manifest's folder."""
        recipe = {"rerun_recipe": "python3 gate.py --manifest 'a b.json' --runs 'r s.jsonl' --run-id r1"}
        self.assertEqual(gate._check_command(recipe, "dir x/m y.json"),
                         "python3 gate.py --manifest 'dir x/m y.json' --runs 'r s.jsonl' --run-id r1")
        imported = {"rerun_recipe": "TODO: the harness command",
                    "provenance": {"ledger": {"path": "runs one.jsonl"}}}
        self.assertEqual(gate._check_command(imported, "q/m.json"),
                         f"{gate.invoked()} --manifest q/m.json --runs 'q/runs one.jsonl'")
        self.assertTrue(gate._check_command({"rerun_recipe": "python3 gate.py --manifest 'open"}, "m.json")
                        .endswith("--manifest m.json --runs RUNS"))

    def test_a_confirmation_of_an_item_without_a_colon_records_it_empty(self) -> None:
        """A draft item that is a bare word ("dataset"): --confirm dataset answers it (it was exit 3, IndexError)."""
        draft = self.draft()
        manifest = load(draft)
        manifest["draft"] = ["dataset"]
        draft.write_text(json.dumps(manifest), encoding="utf-8")
        code, _out, err = self.run_gate("set", str(draft), "--confirm", "dataset")
        self.assertEqual(code, 0, err)
        self.assertEqual(load(draft)["confirmed"], {"dataset": ""})


class NotRecorded(RealFileCase):
    def claim(self, wall: Any, name: str = "m") -> tuple[Path, Path]:
        manifest, records = valid_ledger()
        manifest["envelope"]["wall_clock_s_per_task"] = wall
        for rec in records:
            rec["wall_clock_s"] = 5000
        runs = self.dir / f"{name}.jsonl"
        runs.write_text("".join(json.dumps(dict(r, run_id=name)) + "\n" for r in records), encoding="utf-8")
        return self.write_json(f"{name}.json", manifest), runs

    def test_an_envelope_value_that_says_nothing_is_not_recorded(self) -> None:
        """{}, [], a blank string, false, a blank reason, not_disclosed (the system's word, not the instrument's),
        the bare word not_recorded, "-" and a zero-width space leave a required envelope field
        unrecorded: envelope_incomplete, naming the field (each was PUBLISHABLE)."""
        cases = [("runner", {}), ("network", []), ("toolchain_sha", " "), ("runner", False),
                 ("toolchain_sha", {"not_recorded": " "}), ("wall_clock_s_per_task", {"not_disclosed": "-"}),
                 ("network", {"not_recorded": "x", "also": 1}), ("runner", "not_recorded"), ("network", "-"),
                 ("runner", "\u200b"), ("toolchain_sha", {"not_recorded": "\u200b"})]
        for i, (key, value) in enumerate(cases):
            with self.subTest(key=key, value=value):
                manifest, runs = self.claim({"not_recorded": "the harness logs no limit"}, name=f"e{i}")
                data = load(manifest)
                data["envelope"][key] = value
                manifest.write_text(json.dumps(data), encoding="utf-8")
                code, out, err = self.run_gate("check", "--manifest", str(manifest), "--runs", str(runs))
                self.assertEqual(code, 1, out + err)
                self.assertIn(f"envelope_incomplete: the envelope does not record {key}:", out)

    def test_a_limit_not_recorded_is_never_checked_and_is_printed(self) -> None:
        """wall_clock_s_per_task {"not_recorded": why}: attempts of 5000 s are not envelope_exceeded (old code: exit
        2, "expected a number", so users invented a limit that then blocked them), and every card says so."""
        manifest, runs = self.claim({"not_recorded": "the harness logs no limit"})
        code, out, err = self.run_gate("check", "--manifest", str(manifest), "--runs", str(runs))
        self.assertEqual(code, 0, out + err)
        self.assertIn("wall_clock_s_per_task=(not recorded: the harness logs no limit)", out)
        markdown = self.run_gate("check", "--manifest", str(manifest), "--runs", str(runs), "--format", "markdown")[1]
        self.assertIn("wall_clock_s_per_task=(not recorded: the harness logs no limit)", markdown)
        report = json.loads(self.run_gate("check", "--manifest", str(manifest), "--runs", str(runs), "--format",
                                          "json")[1])
        self.assertEqual(report["envelope"]["wall_clock_s_per_task"], {"not_recorded": "the harness logs no limit"})
        manifest, runs = self.claim(900, "limited")
        code, out, _ = self.run_gate("check", "--manifest", str(manifest), "--runs", str(runs))
        self.assertEqual(code, 1)
        self.assertIn("envelope_exceeded", out)

    def test_compare_leaves_a_field_not_recorded_out_and_says_so(self) -> None:
        """Two claims whose wall clock is not recorded (for different reasons): no envelope_mismatch, and the
        comparison says the field was not compared (unknown, not equal)."""
        a = self.claim({"not_recorded": "a's harness logs none"}, "a")
        b_manifest, _ = self.claim({"not_recorded": "b's neither"}, "b")
        _manifest, records = valid_ledger()
        runs = self.dir / "b.jsonl"
        runs.write_text("".join(json.dumps(dict(r, run_id="b", outcome="fail" if i % 3 == 0 else r["outcome"],
                                                reason=None if i % 3 == 0 else r["reason"]))
                                + "\n" for i, r in enumerate(records)), encoding="utf-8")
        _code, out, _err = self.run_gate("compare", "--manifest", str(a[0]), "--runs", str(a[1]), "--against-manifest",
                                       str(b_manifest), "--against-runs", str(runs))
        self.assertNotIn("envelope_mismatch", out)
        self.assertRegex(out, r"(?m)^unrecorded  : wall_clock_s_per_task: not recorded on a side, so not compared")
        report = json.loads(self.run_gate("compare", "--manifest", str(a[0]), "--runs", str(a[1]), "--against-manifest",
                                          str(b_manifest), "--against-runs", str(runs), "--format", "json")[1])
        self.assertEqual(report["unrecorded"], ["wall_clock_s_per_task"])

    def test_a_field_one_side_records_and_the_other_does_not_is_not_compared(self) -> None:
        """A limit of 6000 s against one not recorded, in either order: neither equal nor a mismatch, so the
        field is named as not compared (not only when both sides leave it out)."""
        recorded, unrecorded = self.claim(6000, "a"), self.claim({"not_recorded": "b's harness logs none"}, "b")
        for first, second in ((recorded, unrecorded), (unrecorded, recorded)):
            report = json.loads(self.run_gate("compare", "--manifest", str(first[0]), "--runs", str(first[1]),
                                              "--against-manifest", str(second[0]), "--against-runs",
                                              str(second[1]), "--format", "json")[1])
            self.assertEqual(report["unrecorded"], ["wall_clock_s_per_task"])
            self.assertNotIn("envelope_mismatch", json.dumps(report["findings"]))


class AuthorsWords(RealFileCase):
    def test_notes_and_confirmations_reach_every_card(self) -> None:
        """notes (the author's caveats: "controls are stand-ins", "limit not recorded") and what the author
        confirmed are printed in text, Markdown and JSON. Old code: notes were never read."""
        manifest, records = valid_ledger()
        manifest["notes"] = ["controls are stand-ins built from the run", "id list derived from another submission"]
        manifest["confirmed"] = {"dataset": "confirm the run covered its whole dataset"}
        path, runs = self.write_json("m.json", manifest), self.write_jsonl("r.jsonl", records)
        text = self.run_gate("check", "--manifest", str(path), "--runs", str(runs))[1]
        self.assertIn("notes       : controls are stand-ins built from the run\n"
                      "            : id list derived from another submission", text)
        self.assertIn("confirmed   : dataset, by the author: confirm the run covered its whole dataset", text)
        markdown = self.run_gate("check", "--manifest", str(path), "--runs", str(runs), "--format", "markdown")[1]
        self.assertIn("**The author's notes**\n\n- controls are stand-ins built from the run", markdown)
        report = json.loads(self.run_gate("check", "--manifest", str(path), "--runs", str(runs), "--format", "json")[1])
        self.assertEqual(report["notes"], manifest["notes"])
        self.assertEqual(report["confirmed"], manifest["confirmed"])


class NoHandEdits(RealFileCase):
    """Three real harness outputs from import to PUBLISHABLE with controls, every field through `set`: zero edits of
    the manifest's JSON. Each story counts its gate.py commands (the closing note quotes them)."""

    def gate(self, *argv: str) -> str:
        code, out, err = self.run_gate(*argv)
        self.assertEqual(code, 0, out + err)
        self.commands += 1
        return err

    def published(self, manifest: Path, runs: Path) -> dict[str, Any]:
        code, out, err = self.run_gate("check", "--manifest", str(manifest), "--runs", str(runs), "--format", "json")
        self.commands += 1
        report = json.loads(out)
        self.assertEqual((code, report["findings"]), (0, []), err)
        bindings = {b["name"]: b for b in report["bindings"]}
        self.assertTrue(bindings["ledger"]["bound"])
        for role in ("no_edit run", "known_fix run"):  # bound, or named as bound to less than all (said why)
            self.assertTrue(bindings[role]["bound"] or "its instrument is not checked" in bindings[role]["text"]
                            or "not each of them" in bindings[role]["text"], bindings[role])
        return report

    def test_a_five_run_terminal_bench_submission(self) -> None:
        self.commands = 0
        runs = self.tb_runs(DROID)
        draft, ledger = self.dir / "tb.json", self.dir / "tb.jsonl"
        self.gate("import", "terminal-bench", *map(str, runs), "--one-instrument", "-o", str(ledger),
                  "--draft-manifest", str(draft))
        for role, resolved in (("no_edit", False), ("known_fix", True)):  # stand-ins at the first run's commit
            folder = self.dir / role
            shutil.copytree(runs[0], folder)
            results = load(folder / "results.json")
            for trial in results["results"]:
                trial["is_resolved"], trial["failure_mode"] = resolved, "unset"
            (folder / "results.json").write_text(json.dumps(results), encoding="utf-8")
            self.gate("import", "terminal-bench", str(folder), "--control", role, "-o", str(self.dir / f"{role}.jsonl"),
                      "--draft-manifest", str(draft))
        err = self.gate("set", str(draft), "envelope.runner=local-docker", "envelope.network=open", "system.model=gpt-5",
                        'envelope.wall_clock_s_per_task={"not_recorded": "run_metadata.json records none"}',
                        '--confirm', 'dataset')
        self.assertIn("the draft is complete", err)
        report = self.published(draft, ledger)
        self.assertEqual(report["attempt_budget"], 5)
        self.assertEqual(self.commands, 5)

    def test_a_harbor_study_of_several_jobs(self) -> None:
        self.commands = 0
        # (the study's third thinharness job crashed: with it the claim is BLOCKED by attrition, as it should be)
        jobs = sorted(p / "job" for p in TH20.iterdir() if p.name.endswith("--thinharness")
                      and not p.name.startswith("break-filter"))
        draft, ledger = self.dir / "hb.json", self.dir / "hb.jsonl"
        self.gate("import", "harbor", *map(str, jobs), "-o", str(ledger), "--draft-manifest", str(draft))
        for role, reward in (("no_edit", 0.0), ("known_fix", 1.0)):
            made = []
            for job in jobs:
                copy = self.dir / role / job.parent.name / "job"
                shutil.copytree(job, copy)
                names = []
                for trial in copy.glob("*/result.json"):
                    data = load(trial)
                    data["verifier_result"] = {"rewards": {"reward": reward}}
                    data["exception_info"] = None
                    trial.write_text(json.dumps(data), encoding="utf-8")
                    names.append(data["trial_name"])
                job_result = load(copy / "result.json")  # and the job's own listing of them, as Harbor writes it
                for stats in job_result["stats"]["evals"].values():
                    stats.update(n_trials=len(names), n_errors=0, metrics=[{"mean": reward}],
                                 reward_stats={"reward": {str(reward): names}}, exception_stats={})
                (copy / "result.json").write_text(json.dumps(job_result), encoding="utf-8")
                made.append(str(copy))
            self.gate("import", "harbor", *made, "--control", role, "-o", str(self.dir / f"{role}.jsonl"),
                      "--draft-manifest", str(draft))
        self.gate("set", str(draft), "envelope.network=open",
                  'envelope.wall_clock_s_per_task={"not_recorded": "the jobs record multipliers, not the limit"}',
                  'envelope.toolchain_sha={"not_recorded": "no lock.json beside the jobs"}')
        self.published(draft, ledger)
        self.assertEqual(self.commands, 5)

    def test_a_swe_polybench_submission(self) -> None:
        self.commands = 0
        draft, ledger = self.dir / "pb.json", self.dir / "pb.jsonl"
        self.gate("import", "swe-polybench", str(POLY), "-o", str(ledger), "--draft-manifest", str(draft))
        for role, resolved in (("no_edit", False), ("known_fix", True)):
            folder = self.dir / role / "logs"
            folder.mkdir(parents=True)
            for result in (POLY / "logs").glob("*_result.json"):
                data = dict(load(result), resolved=resolved, generation=True, patch_applied=True, with_logs=True)
                (folder / result.name).write_text(json.dumps(data), encoding="utf-8")
            self.gate("import", "swe-polybench", str(folder.parent), "--control", role, "-o",
                      str(self.dir / f"{role}.jsonl"), "--draft-manifest", str(draft))
        self.gate("set", str(draft), "system.model=gpt-5-mini", "dataset.name=SWE-PolyBench Verified (Python)",
                  "envelope.runner=docker", "envelope.network=open",
                  'envelope.wall_clock_s_per_task={"not_recorded": "the result files record none"}',
                  'envelope.toolchain_sha={"not_recorded": "the submission names no harness commit"}',
                  "--confirm", "dataset")
        report = self.published(draft, ledger)
        self.assertEqual((report["headline"]["k"], report["headline"]["n"]), (37, 113))
        self.assertEqual(self.commands, 5)


class DeclaredIdentity(RealFileCase):
    def test_runs_that_name_no_system_are_one_claim_when_the_user_says_what_they_measured(self) -> None:
        """Two droid results.json without run_metadata.json: refused as one claim (nothing names the system), the
        refusal naming --agent/--model; with --agent and --model they import, the draft records the declaration and
        the card says the user declared it. Old code: no way to state what the user knows."""
        runs = self.tb_runs(DROID)[:2]
        files = [str(run / "results.json") for run in runs]
        self.assertInputError(self.run_gate("import", "terminal-bench", *files, "--one-instrument"),
                              "several runs are one claim only when each names its agent and model",
                              "--agent NAME --model NAME")
        imp = self.import_ok("terminal-bench", *files, "--one-instrument", "--agent", "Factory Droid", "--model",
                             "gpt-5")
        self.assertEqual((imp.draft["system"]["agent"], imp.draft["system"]["model"]), ("Factory Droid", "gpt-5"))
        self.assertIn("declared by the user (--agent --model)", imp.draft["provenance"]["system_declared"])
        manifest = self.complete(imp.draft_path)
        text = self.run_gate("check", "--manifest", str(manifest), "--runs", str(imp.runs))[1]
        self.assertIn("system      : agent=Factory Droid, model=gpt-5 (declared by the user: the files do not name it)",
                      text)

    def test_aliases_of_one_model_are_declared_one_system(self) -> None:
        """Two runs whose run_metadata name the model by two aliases (claude-sonnet-4-0, claude-sonnet-4-20250514):
        refused as two systems; --agent and --model declare them one."""
        runs = self.tb_runs(DROID)[:2]
        for run, alias in zip(runs, ("claude-sonnet-4-0", "claude-sonnet-4-20250514")):
            meta = load(run / "run_metadata.json")
            meta["model_name"] = alias
            (run / "run_metadata.json").write_text(json.dumps(meta), encoding="utf-8")
        self.assertInputError(self.run_gate("import", "terminal-bench", *map(str, runs), "--one-instrument"),
                              "measured 2 different systems", "claude-sonnet-4-0", "claude-sonnet-4-20250514")
        imp = self.import_ok("terminal-bench", *map(str, runs), "--one-instrument", "--agent", "Factory Droid",
                             "--model", "claude-sonnet-4-20250514")
        self.assertEqual(imp.draft["system"]["model"], "claude-sonnet-4-20250514")

    def test_a_declaration_never_merges_two_agents_and_never_hides_what_the_files_name(self) -> None:
        """droid/gpt-5 beside openhands/claude-4-sonnet: --agent X --model Y is refused (they differ in more than
        the model; it published the two as one claim, the card saying the files name no system); one Harbor job
        declared under other names keeps the recorded names on the card."""
        runs = [self.tb_runs(DROID)[0], self.tb_runs(OPENHANDS)[0]]
        self.assertInputError(self.run_gate("import", "terminal-bench", *map(str, runs), "--one-instrument",
                                            "--agent", "X", "--model", "Y"),
                              "differ in more than the model", "agent Factory Droid", "agent openhands")
        imp = self.import_ok("harbor", str(TH20 / "dna-insert--pi" / "job"), "--agent", "my-agent", "--model", "m9")
        manifest = self.complete(imp.draft_path)
        text = self.run_gate("check", "--manifest", str(manifest), "--runs", str(imp.runs))[1]
        line = next(line for line in text.splitlines() if line.startswith("system"))
        self.assertIn("agent=my-agent", line)
        self.assertIn("(declared by the user: the files name agent direct-openai-pairwise, model gpt-5.6-sol", line)

    def test_model_alone_is_inspects_filter_and_elsewhere_needs_agent(self) -> None:
        self.assertInputError(self.run_gate("import", "terminal-bench", str(self.tb_runs(DROID)[0]), "--model", "x"),
                              "--model declares the system with --agent")

    def test_default_claim_ids_name_the_system(self) -> None:
        """Two agents of one Harbor study imported apart get two claim ids (old code: both the study's folder name),
        each naming its agent and model; a draft whose files name no system keeps importer and run."""
        pi = self.import_ok("harbor", str(TH20 / "dna-insert--pi" / "job"), name="pi")
        thin = self.import_ok("harbor", str(TH20 / "dna-insert--thinharness" / "job"), name="thin")
        self.assertNotEqual(pi.draft["claim_id"], thin.draft["claim_id"])
        self.assertEqual(pi.draft["claim_id"], "harbor-direct-openai-pairwise-gpt-5.6-sol-dna-insert-pi")
        bare = self.import_ok("terminal-bench", str(self.tb_runs(DROID)[0] / "results.json"), name="bare")
        self.assertEqual(bare.draft["claim_id"], "terminal-bench-tb_rc2_g5_1")
        # names past 160 characters: the claim id is the slug's first 160 (a `/` and any run of non-name
        # characters one `-`)
        rows = self.write_text("one.jsonl", b'{"id": "a", "ok": true}\n')
        long = self.import_ok("jsonl", str(rows), "--task-id", "id", "--pass", "ok", "--agent", "ag" * 60,
                              "--model", "mo/" * 40, name="long")
        slug = "-".join(["jsonl", "ag" * 60, *["mo"] * 40])
        self.assertEqual(long.draft["claim_id"], slug[:160])


class RightAdvice(RealFileCase):
    def test_a_second_run_into_an_existing_draft_asks_for_control_never_force(self) -> None:
        """Importing a control run into the claim's draft without --control: refused naming --control no_edit and
        --control known_fix (old code: "exists; pass --force to replace it", and --force replaced the claim)."""
        run = self.tb_runs(DROID)[0]
        imp = self.import_ok("terminal-bench", str(run))
        result = self.run_gate("import", "terminal-bench", str(run), "-o", str(self.dir / "nop.jsonl"),
                               "--draft-manifest", str(imp.draft_path))
        self.assertInputError(result, "to add a control run to this draft, import it with --control no_edit or "
                                      "--control known_fix")


class EveryFormatListsTheSameRates(RealFileCase):
    # the text line that shows a row of each kind of gate.rate_rows
    TEXT_LINE = {
        "headline": lambda row, line: line.endswith("<- headline") or "<- headline (" in line,
        "cluster": lambda row, line: line.startswith("by cluster"),
        "replicate": lambda row, line: line.startswith("replicates") and f"{row['label'].split()[2]} 0." in line,
        "secondary": lambda row, line: "<- labelled secondary" in line,
        "first_attempt": lambda row, line: line.startswith("first try"),
        "stratum": lambda row, line: line.startswith(f"  {row['label'].split()[1]} "),
        "metric": lambda row, line: line.startswith(f"  {row['label'].split()[1]} "),
        "control_run": lambda row, line: line.startswith(f"control run : {row['label'].split()[2]} "),
    }

    def cards(self) -> Iterator[tuple[str, tuple[str, ...]]]:
        from tests.builders import rich_ledger, strata_ledger
        from tests.test_replicates import random_cells, replicated
        rich, rich_records, _ = rich_ledger()
        clustered = [{**rec, "cluster": rec["stratum"]} for rec in rich_records]
        for name, (manifest, records) in (("strata", strata_ledger()), ("replicates", replicated(random_cells(3, 3, 20))),
                                          ("clusters", (rich, clustered))):
            path, runs = self.write_json(f"{name}.json", manifest), self.write_jsonl(f"{name}.jsonl", records)
            yield name, ("check", "--manifest", str(path), "--runs", str(runs))
        card = Path(gate.__file__).parent / "examples" / "card"
        yield "control runs", ("check", "--manifest", str(card / "bench.manifest.json"), "--runs", str(card / "runs.jsonl"))

    def test_text_markdown_svg_and_json_list_one_set_of_rates(self) -> None:
        """A card with strata, declared metrics, replicates, clusters, a first try or control runs: the rows of
        gate.rate_rows are exactly the Markdown table's rows, the SVG's labelled rows and the JSON's rows, and the
        text shows each row on its line, in the rows' order (old code: with replicates the SVG drew a scoreable-only
        row the others left out; the text listed its rates by hand, in an order of its own)."""
        import xml.etree.ElementTree as ET

        from tests.support import SVG_NS, markdown_tables
        kinds = set()
        for name, argv in self.cards():
            with self.subTest(card=name):
                report = json.loads(self.run_gate(*argv, "--format", "json")[1])
                labels = [row["label"] for row in report["rows"]]
                table = next(t for t in markdown_tables(self.run_gate(*argv, "--format", "markdown")[1])
                             if t[0][0] == "rate")
                shown = [cells[0].replace("**", "") for cells in table[1:]]
                self.assertEqual(shown, labels)
                svg = ET.fromstring(self.run_gate(*argv, "--format", "svg")[1])
                texts = [t.text for t in svg.iter(f"{SVG_NS}text") if t.get("text-anchor") == "end"]
                self.assertEqual(texts, labels)
                lines = self.run_gate(*argv)[1].splitlines()
                at = []
                for row in report["rows"]:
                    kinds.add(row["kind"])
                    found = [i for i, line in enumerate(lines) if self.TEXT_LINE[row["kind"]](row, line)]
                    self.assertEqual(len(found), 1, (row, lines))
                    at += found
                self.assertEqual(at, sorted(at), "the text shows the rows in rate_rows' order")
                if name == "replicates":
                    self.assertNotIn("secondary", labels)
        self.assertEqual(kinds, set(self.TEXT_LINE), "every kind of row is tried")

    def test_every_format_shows_what_rate_rows_returns(self) -> None:
        """The renderers are built from gate.rate_rows, not beside it: with rate_rows giving only some of a card's
        rows, no format shows the others (old code: the text listed the secondary line, strata, metrics and control
        runs by hand, so dropping a row from the list left it in the text)."""
        from unittest import mock
        for name, argv in self.cards():
            report = gate.run_check(gate.ClaimFiles(Path(argv[2]), Path(argv[4])))
            rows = gate.rate_rows(report)
            kept = rows[:1]  # the headline alone
            with self.subTest(card=name), mock.patch.object(gate, "rate_rows", return_value=kept):
                text = gate.render_text(report)
                self.assertEqual([json_row["label"] for json_row in gate.report_json(report)["rows"]], [kept[0].label])
                for row in rows[1:]:
                    line = self.TEXT_LINE[row.kind]
                    shown = [x for x in text.splitlines() if line({"label": row.label}, x)]
                    self.assertEqual(shown, [], (row.kind, row.label))
                    self.assertNotIn(row.label, gate.render_markdown(report))
                    self.assertNotIn(row.label, gate.render_report_svg(report))
