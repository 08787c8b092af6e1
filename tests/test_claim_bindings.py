"""A claim is one bound whole (issue 35): one run of one system, read under one definition, on one instrument, with
its controls made on that instrument under that definition. Each binding is checked, on the harnesses' real files:

- manifest <-> ledger: the import records the sha256 and runs of the ledger it wrote; check blocks another file
  (ledger_not_imported), and a hand-made ledger (no provenance) gates as before, its card saying it is not bound;
- control <-> claim: a control run is read by the claim's importer under its verdict definition, made on its
  instrument, and is never the claim's own ledger: refused at import, a finding at check (control_not_bound,
  control_is_claim); an entry added by hand with no provenance is named unbound on the card;
- runs <-> runs: several runs made at different harness commits are refused as one claim unless declared one
  instrument (--one-instrument), which the card prints;
- side <-> side: compare holds both sides to one verdict definition (envelope_mismatch) and refuses a claim
  compared with itself;
- declared set and system: a set that is only what the files held is declared_set_unconfirmed; an imported claim
  names its agent and model or says one is not disclosed (system_unnamed).

Each scenario has its good twin (the same files, bound): PUBLISHABLE.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import unittest
from pathlib import Path
from typing import Any

import gate
from tests.realfiles import DROID, OPENHANDS, TH20, RealFileCase
from tests.support import FIXTURES, load

HAL = FIXTURES / "wild3" / "other" / "hal-derived" / "corebench_hard_claude_code_claudeopus41_1764560915_UPLOAD.csv"
OH = FIXTURES / "harnesses" / "openhands" / "swe-bench-verified-remote-eval"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class BindingCase(RealFileCase):
    def check(self, manifest: Path, runs: Path, *extra: str) -> tuple[int, dict[str, Any]]:
        code, out, err = self.run_gate("check", "--manifest", str(manifest), "--runs", str(runs), "--format", "json",
                                       *extra)
        self.assertIn(code, (0, 1), err)
        return code, json.loads(out)

    def codes(self, report: dict[str, Any]) -> list[str]:
        return sorted(f["code"] for f in report["findings"])

    def message(self, report: dict[str, Any], code: str) -> str:
        return next(f["message"] for f in report["findings"] if f["code"] == code)

    def bindings(self, report: dict[str, Any]) -> dict[str, tuple[bool, str]]:
        return {b["name"]: (b["bound"], b["text"]) for b in report["bindings"]}

    def tb_control(self, run: Path, name: str, resolved: bool, **meta: Any) -> Path:
        """A nop or oracle run of the run's own tasks (every verdict false or true), its metadata changed by `meta`."""
        folder = self.dir / name
        shutil.copytree(run, folder)
        results = load(folder / "results.json")
        for trial in results["results"]:
            trial["is_resolved"], trial["failure_mode"] = resolved, "unset"
        (folder / "results.json").write_text(json.dumps(results), encoding="utf-8")
        data = dict(load(folder / "run_metadata.json"), agent_name=name, **meta)
        (folder / "run_metadata.json").write_text(json.dumps(data), encoding="utf-8")
        return folder

    def control(self, role: str, files: Path | str, draft: Path, output: Path, *extra: str) -> tuple[int, str, str]:
        return self.run_gate("import", "terminal-bench", str(files), *extra, "--control", role, "-o", str(output),
                             "--draft-manifest", str(draft))

    def tb_claim(self, name: str = "imp") -> tuple[Path, Path, Path]:
        """A droid run with its nop and oracle controls made on its instrument, completed: (manifest, runs, run)."""
        run = self.tb_runs(DROID)[0]
        imp = self.import_ok("terminal-bench", str(run), name=name)
        for role, resolved in (("no_edit", False), ("known_fix", True)):
            folder = self.tb_control(run, f"{name}-{role}", resolved)
            code, _out, err = self.control(role, folder, imp.draft_path, self.dir / f"{name}-{role}.jsonl")
            self.assertEqual(code, 0, err)
        manifest = self.complete(imp.draft_path, name=f"{name}-completed")
        return manifest, imp.runs, run


# What only an import writes into a provenance (gate.py's _IMPORT_WRITTEN), listed here so that a key dropped
# from it there is seen.
IMPORT_WRITTEN = ("command", "declared_set", "files", "importer", "instrument", "ledger", "options")


class ManifestAndLedger(BindingCase):
    def test_the_good_twin_is_publishable_and_its_card_names_each_binding(self) -> None:
        """The droid run with its controls, as imported: PUBLISHABLE; the card's bindings name the ledger (its
        sha256 and run), the instrument (the run's commit), both control runs and the declared set, all bound."""
        manifest, runs, run = self.tb_claim()
        code, report = self.check(manifest, runs)
        self.assertEqual((code, report["findings"]), (0, []))
        bindings = self.bindings(report)
        self.assertEqual(list(bindings), ["ledger", "instrument", "no_edit run", "known_fix run", "declared set"])
        self.assertTrue(all(bound for bound, _ in bindings.values()), bindings)
        self.assertIn(f"the one the manifest records for import terminal-bench's ledger ({sha256(runs)[:12]}, run "
                      "tb_rc2_g5_1)", bindings["ledger"][1])
        self.assertEqual(bindings["instrument"][1], f"commit {load(run / 'run_metadata.json')['commit_hash']}")
        self.assertEqual(bindings["declared set"][1], "run_metadata.json task_ids")
        text = self.run_gate("check", "--manifest", str(manifest), "--runs", str(runs))[1]
        self.assertRegex(text, r"(?m)^bound       : ledger: the runs file's sha256 is the one the manifest records")
        markdown = self.run_gate("check", "--manifest", str(manifest), "--runs", str(runs), "--format", "markdown")[1]
        self.assertIn("**Bindings**", markdown)
        self.assertIn("- bound: known_fix run: the claim's importer, instrument (commit) and verdict definition", markdown)

    def test_another_runs_ledger_is_blocked_naming_both_digests(self) -> None:
        """The manifest imported from droid's run, checked with openhands' run of the same suite: BLOCKED,
        ledger_not_imported names both sha256s and the two ways out. Old code: PUBLISHABLE with droid on the card."""
        manifest, runs, _ = self.tb_claim()
        other = self.import_ok("terminal-bench", str(self.tb_runs(OPENHANDS)[0]), name="other")
        code, report = self.check(manifest, other.runs)
        self.assertEqual((code, self.codes(report)), (1, ["ledger_not_imported"]))
        message = self.message(report, "ledger_not_imported")
        self.assertIn(f"the runs file's sha256 is {sha256(other.runs)[:12]}, the import wrote {sha256(runs)[:12]}",
                      message)
        self.assertIn("rebuild it with provenance.command, or delete the manifest's provenance block", message)
        self.assertEqual(self.bindings(report)["ledger"], (False, "not the import's"))

    def test_a_ledger_edited_after_import_is_blocked(self) -> None:
        """Six fails turned to passes in the imported runs.jsonl (45/80 where the harness said 39/80): BLOCKED.
        Old code: PUBLISHABLE at 45/80 with the import's provenance on the card."""
        manifest, runs, _ = self.tb_claim()
        lines = runs.read_text(encoding="utf-8").splitlines(keepends=True)
        flipped = 0
        for index, line in enumerate(lines):
            rec = json.loads(line)
            if rec["outcome"] == "fail" and flipped < 6:
                lines[index] = line.replace('"outcome":"fail"', '"outcome":"pass"')
                flipped += 1
        runs.write_text("".join(lines), encoding="utf-8")
        code, report = self.check(manifest, runs)
        self.assertEqual(report["headline"]["k"], 45)
        self.assertEqual((code, self.codes(report)), (1, ["ledger_not_imported"]))

    def test_provenance_deleted_gates_as_a_hand_made_ledger_and_says_so(self) -> None:
        """The provenance block deleted on purpose: the edited ledger gates as a hand-made one, and the card says
        the ledger and both controls are not bound to an import (the harness's provenance is no longer shown)."""
        manifest, runs, _ = self.tb_claim()
        data = load(manifest)
        del data["provenance"]
        for entry in data["control_runs"]:
            del entry["provenance"]
        plain = self.write_json("plain.manifest.json", data)
        code, report = self.check(plain, runs)
        self.assertEqual((code, report["findings"]), (0, []))
        bindings = self.bindings(report)
        self.assertEqual(bindings["ledger"][0], False)
        self.assertIn("no import behind it", bindings["ledger"][1])
        self.assertIn("added by hand", bindings["no_edit run"][1])
        self.assertIsNone(report["dataset"]["declared_from"])
        self.assertEqual(report["verdict_mapping"], [])

    def test_provenance_that_names_no_import_gates_as_a_hand_made_ledger(self) -> None:
        """Every key only an import writes deleted (the harness's own record kept: harness, stated, declared_from,
        verdict_mapping, ...): nothing names an import, so nothing is missing; the card says no import is behind
        the ledger, as with no provenance at all, and no ledger_not_imported."""
        manifest, runs, _ = self.tb_claim()
        data = load(manifest)
        for entry in data["control_runs"]:
            del entry["provenance"]
        written = {key: data["provenance"].pop(key) for key in IMPORT_WRITTEN}
        self.assertEqual(sorted(data["provenance"]), ["declared_from", "harness", "verdict_mapping"])
        code, report = self.check(self.write_json("harness-only.manifest.json", data), runs)
        self.assertEqual((code, report["findings"]), (0, []))
        self.assertEqual(self.bindings(report)["ledger"],
                         (False, "no import behind it: the manifest records none (a hand-made ledger, or one whose "
                                 "import provenance was removed)"))
        for key in sorted(set(IMPORT_WRITTEN) - {"ledger"}):  # any one of them names an import: its ledger is asked for
            with self.subTest(only=key):
                code, report = self.check(self.write_json(f"only-{key}.manifest.json",
                                                          {**data, "provenance": {**data["provenance"], key: written[key]}}), runs)
                self.assertEqual(code, 1)
                self.assertIn("ledger_not_imported", self.codes(report))

    def test_provenance_that_names_an_import_but_no_ledger_is_blocked(self) -> None:
        """Only provenance.ledger deleted (the import's command kept): ledger_not_imported, not a silent pass."""
        manifest, runs, _ = self.tb_claim()
        data = load(manifest)
        del data["provenance"]["ledger"]
        code, report = self.check(self.write_json("half.manifest.json", data), runs)
        self.assertEqual((code, self.codes(report)), (1, ["ledger_not_imported"]))
        self.assertIn("names an import (its importer, options, instrument or command) but not the ledger it wrote",
                      self.message(report, "ledger_not_imported"))

    def test_a_hand_written_ledger_gates_as_before(self) -> None:
        """The shipped example (no import behind it): PUBLISHABLE as before, its card saying so."""
        code, report = self.check(Path("bench.manifest.json"), Path("runs.jsonl"))
        self.assertEqual((code, report["findings"]), (0, []))
        self.assertEqual(self.bindings(report)["ledger"][0], False)


class ControlAndClaim(BindingCase):
    def test_a_control_that_is_the_claims_ledger_is_refused_before_force(self) -> None:
        """`import ... --control known_fix -o runs.jsonl --force` over the claim's own ledger: refused, the ledger
        untouched (old code: the oracle's run replaced the claim and proved it, 40/40); the claim's own file
        imported again as its control under another name is refused too (the same sha256)."""
        run = self.tb_runs(DROID)[0]
        imp = self.import_ok("terminal-bench", str(run))
        before = imp.runs.read_bytes()
        oracle = self.tb_control(run, "oracle", True)
        for extra in ((), ("--force",)):
            with self.subTest(extra=extra):
                self.assertInputError(self.control("known_fix", oracle, imp.draft_path, imp.runs, *extra),
                                      "is the claim's own ledger")
                self.assertEqual(imp.runs.read_bytes(), before)
        self.assertInputError(self.control("no_edit", run, imp.draft_path, self.dir / "again.jsonl"),
                              "not bound to the claim", "the claim's own ledger (sha256")

    def test_check_blocks_a_control_run_that_is_the_claims_runs_file(self) -> None:
        """A control_runs entry naming the claim's runs file (or a copy of it): control_is_claim."""
        manifest, runs, _ = self.tb_claim()
        data = load(manifest)
        for target in (runs.name, "copy.jsonl"):
            with self.subTest(target=target):
                shutil.copy(runs, self.dir / "copy.jsonl")
                data["control_runs"][0] = {"role": "no_edit", "runs": target, "max_pass_rate": 0.5}
                code, report = self.check(self.write_json("self.manifest.json", data), runs)
                self.assertEqual(code, 1)
                self.assertIn("control_is_claim", self.codes(report))
                self.assertIn("a control made of the claim proves nothing", self.message(report, "control_is_claim"))

    def test_a_control_from_another_commit_is_refused_and_blocked(self) -> None:
        """A nop run made at another Terminal-Bench commit: refused at import, naming both commits; the entry put
        in the manifest anyway (its provenance says where it came from): control_not_bound at check."""
        manifest, runs, run = self.tb_claim()
        commit = load(run / "run_metadata.json")["commit_hash"]
        elsewhere = self.tb_control(run, "nop-elsewhere", False, commit_hash="0" * 40)
        draft = self.dir / "imp.manifest.json"
        self.assertInputError(self.control("no_edit", elsewhere, draft, self.dir / "elsewhere.jsonl"),
                              f"made on another instrument: commit {'0' * 40}, the claim's {commit}")
        # the same run imported on its own, its entry copied into the finished manifest by hand
        code, _out, err = self.control("no_edit", elsewhere, manifest, self.dir / "elsewhere.jsonl")
        self.assertInputError((code, _out, err), "not bound to the claim")
        standalone = self.import_ok("terminal-bench", str(elsewhere), name="elsewhere")
        data = load(manifest)
        data["control_runs"][0]["runs"] = standalone.runs.name
        data["control_runs"][0]["provenance"] = {**standalone.draft["provenance"]}
        for key in ("harness", "declared_from", "verdict_mapping", "declared_set"):
            data["control_runs"][0]["provenance"].pop(key, None)
        code, report = self.check(self.write_json("mixed.manifest.json", data), runs)
        self.assertEqual((code, self.codes(report)), (1, ["control_not_bound"]))
        self.assertIn(f"commit {'0' * 40}, the claim's {commit}", self.message(report, "control_not_bound"))

    def test_a_control_under_another_verdict_definition_is_refused_and_blocked(self) -> None:
        """The HAL CSV read with --pass "correct == 1", its oracle stand-in read with --pass "correct >= 0" (every
        row passes whatever it scored): refused at import naming both --pass expressions; at check, the entry
        with its own provenance is control_not_bound. Old code: the options check covered --threshold only."""
        rows = HAL.read_text(encoding="utf-8").splitlines(keepends=True)
        oracle = self.dir / "oracle.csv"
        oracle.write_text(rows[0] + "".join(row.replace(",0,", ",1,", 1) for row in rows[1:]), encoding="utf-8")
        claim = ["--task-id", "task_id", "--pass", "correct == 1"]
        imp = self.import_ok("csv", str(HAL), *claim)
        self.assertEqual(imp.draft["provenance"]["options"],
                         {"pass": "correct == 1", "unscoreable": None, "reason": "grader_error",
                          "unreadable_as": "error"})
        loose = ["--task-id", "task_id", "--pass", "correct >= 0"]
        result = self.run_gate("import", "csv", str(oracle), *loose, "--control", "known_fix", "-o",
                               str(self.dir / "oracle.jsonl"), "--draft-manifest", str(imp.draft_path))
        self.assertInputError(result, "read under another verdict definition: --pass 'correct >= 0', the claim's "
                                      "'correct == 1'")
        code, _out, err = self.run_gate("import", "csv", str(oracle), *claim, "--control", "known_fix", "-o",
                                        str(self.dir / "oracle.jsonl"), "--draft-manifest", str(imp.draft_path))
        self.assertEqual(code, 0, err)
        data = load(imp.draft_path)
        data["control_runs"][0]["provenance"]["options"]["pass"] = "correct >= 0"
        fill = self.write_json("loose.manifest.json", data)
        code, report = self.check(self.complete(fill, name="loose-completed"), imp.runs)
        self.assertIn("control_not_bound", self.codes(report))


class RunsAndRuns(BindingCase):
    def test_five_runs_at_three_commits_are_refused_unless_declared_one_instrument(self) -> None:
        """droid's five leaderboard runs, made at three Terminal-Bench commits: refused, each commit named with
        its runs; with --one-instrument they import, the provenance records the declaration, the envelope's
        toolchain_sha names every commit, and the card prints it as a binding the user declared (not checked)."""
        runs = self.tb_runs(DROID)
        commits = sorted({load(run / "run_metadata.json")["commit_hash"] for run in runs})
        self.assertEqual(len(commits), 3)
        result = self.run_gate("import", "terminal-bench", *map(str, runs), "-o", str(self.dir / "five.jsonl"))
        self.assertInputError(result, "the 5 runs were made with 3 different harness checkouts or releases",
                              *(f"commit {c}" for c in commits), "--one-instrument")
        imp = self.import_ok("terminal-bench", *map(str, runs), "--one-instrument", name="five")
        declared = imp.draft["provenance"]["one_instrument"]
        self.assertTrue(declared.startswith("5 runs made with 3 harness checkouts or releases, declared one "
                                            "instrument by the user (--one-instrument)"), declared)
        self.assertEqual(imp.draft["envelope"]["toolchain_sha"], " + ".join(commits))
        self.assertIn("--one-instrument", imp.draft["provenance"]["command"])
        _code, report = self.check(self.complete(imp.draft_path, name="five-completed"), imp.runs)
        self.assertEqual(self.bindings(report)["instrument"], (False, declared))

    def test_runs_at_one_commit_need_no_declaration(self) -> None:
        """Two of droid's runs made at the same commit import as one claim with no option, the instrument bound."""
        runs = self.tb_runs(DROID)
        by_commit: dict[str, list[Path]] = {}
        for run in runs:
            by_commit.setdefault(load(run / "run_metadata.json")["commit_hash"], []).append(run)
        pair = next(group for group in by_commit.values() if len(group) > 1)
        imp = self.import_ok("terminal-bench", *map(str, pair), name="pair")
        self.assertNotIn("one_instrument", imp.draft["provenance"])
        self.assertEqual(set(imp.draft["provenance"]["instrument"]), {"commit"})

    def test_harbor_jobs_at_two_releases_are_refused(self) -> None:
        """Two Harbor jobs whose lock.json record different Harbor releases: refused as one claim."""
        cells = sorted(p for p in TH20.iterdir() if p.name.endswith("--thinharness"))[:2]
        jobs = []
        for index, cell in enumerate(cells):
            job = self.dir / cell.name / "job"
            shutil.copytree(cell / "job", job)
            (job / "lock.json").write_text(json.dumps({"harbor": {"version": f"0.1.{index}"}}), encoding="utf-8")
            jobs.append(job)
        self.assertInputError(self.run_gate("import", "harbor", *map(str, jobs)),
                              "version harbor 0.1.0", "version harbor 0.1.1")


class SideAndSide(BindingCase):
    def test_compare_across_verdict_definitions_is_blocked(self) -> None:
        """Two claims from one harness output read with --pass "correct == 1" and --pass "correct >= 0": compare
        names the differing --pass as envelope_mismatch. Old code: "one instrument", A - B as if comparable."""
        claims = []
        for name, expression in (("strict", "correct == 1"), ("loose", "correct >= 0")):
            imp = self.import_ok("csv", str(HAL), "--task-id", "task_id", "--pass", expression, "--run-id", "run_id",
                                 name=name)
            data = load(self.complete(imp.draft_path, name=f"{name}-completed"))
            data["controls"] = []
            claims.append((self.write_json(f"{name}.final.json", data), imp.runs))
        (a_m, a_r), (b_m, b_r) = claims
        code, out, err = self.run_gate("compare", "--manifest", str(a_m), "--runs", str(a_r), "--against-manifest",
                                       str(b_m), "--against-runs", str(b_r), "--format", "json")
        self.assertEqual(code, 1, err)
        mismatch = [f["message"] for f in json.loads(out)["findings"] if f["code"] == "envelope_mismatch"]
        self.assertEqual(len(mismatch), 1, mismatch)
        self.assertIn("read under another verdict definition: --pass 'correct >= 0', A's 'correct == 1'", mismatch[0])

    def test_compare_of_a_claim_with_itself_is_refused(self) -> None:
        """compare of a claim with its own two files, or with a byte copy of its runs file: exit 2, as rank."""
        manifest, runs, _ = self.tb_claim()
        shutil.copy(runs, self.dir / "copy.jsonl")
        for other in (runs, self.dir / "copy.jsonl"):
            with self.subTest(other=other.name):
                self.assertInputError(self.run_gate("compare", "--manifest", str(manifest), "--runs", str(runs),
                                                    "--against-manifest", str(manifest), "--against-runs", str(other)),
                                      "compare: A and B are the same runs file", "a claim compared with itself")


class DeclaredSetAndSystem(BindingCase):
    def test_a_set_found_in_the_files_blocks_until_declared(self) -> None:
        """OpenHands without --dataset-ids: the draft asks for them; deleting the list (and every TODO) leaves
        declared_set_unconfirmed. Its good twins: --dataset-ids, or a declared subset."""
        imp = self.import_ok("openhands", str(OH / "output.jsonl"), name="found")
        self.assertEqual(imp.draft["provenance"]["declared_set"], "found")
        _code, report = self.check(self.complete(imp.draft_path, name="found-completed"), imp.runs)
        self.assertIn("declared_set_unconfirmed", self.codes(report))
        self.assertIn("import again with --dataset-ids FILE", self.message(report, "declared_set_unconfirmed"))
        self.assertEqual(self.bindings(report)["declared set"], (False, "only what the files held"))
        declared = self.import_ok("openhands", str(OH / "output.jsonl"), "--dataset-ids",
                                  str(OH / "declared_ids.txt"), name="declared")
        self.assertEqual(declared.draft["provenance"]["declared_set"], "declared")
        _code, report = self.check(self.complete(declared.draft_path, name="declared-completed"), declared.runs)
        self.assertNotIn("declared_set_unconfirmed", self.codes(report))
        data = load(self.dir / "found-completed.manifest.json")
        data["dataset"]["subset"] = {"selection": "the 20 instances OpenHands was run on"}
        _code, report = self.check(self.write_json("subset.manifest.json", data), imp.runs)
        self.assertNotIn("declared_set_unconfirmed", self.codes(report))
        self.assertEqual(self.bindings(report)["declared set"][0], False)  # the author's word, named as such
        self.assertIn("a subset the manifest declares (the 20 instances OpenHands was run on)",
                      self.bindings(report)["declared set"][1])

    def test_an_imported_claim_names_its_agent_and_model(self) -> None:
        """system.model deleted from an imported claim: system_unnamed; {"not_disclosed": "why"} answers it, and
        the card prints the statement."""
        manifest, runs, _ = self.tb_claim()
        data = load(manifest)
        del data["system"]["model"]
        code, report = self.check(self.write_json("nomodel.manifest.json", data), runs)
        self.assertEqual((code, self.codes(report)), (1, ["system_unnamed"]))
        self.assertIn("the claim names no model under system", self.message(report, "system_unnamed"))
        data["system"]["model"] = {"not_disclosed": "the submission does not say"}
        stated = self.write_json("stated.manifest.json", data)
        code, report = self.check(stated, runs)
        self.assertEqual((code, report["findings"]), (0, []))
        text = self.run_gate("check", "--manifest", str(stated), "--runs", str(runs))[1]
        self.assertIn("model=(not disclosed: the submission does not say)", text)


class UncheckableBindings(BindingCase):
    def test_controls_whose_files_record_no_instrument_say_it_is_not_checked(self) -> None:
        """SWE-bench's files record no harness version or commit: the README's SWE-bench claim and its controls
        bind by importer and verdict definition, and the card says the instrument is not checked (never
        "bound" by silence)."""
        ex = Path("examples/swebench")
        imp = self.import_ok("swebench", str(ex / "results.json"), "--dataset-ids", str(ex / "verified-ids.txt"),
                             name="swe")
        for role, name in (("no_edit", "noop.validate-noop.json"), ("known_fix", "gold.validate-gold.json")):
            code, _out, err = self.run_gate("import", "swebench", str(ex / name), "--control", role, "-o",
                                            str(self.dir / f"{role}.jsonl"), "--draft-manifest", str(imp.draft_path))
            self.assertEqual(code, 0, err)
        code, report = self.check(self.complete(imp.draft_path, name="swe-completed"), imp.runs)
        self.assertEqual((code, report["findings"]), (0, []))
        bindings = self.bindings(report)
        self.assertEqual(bindings["instrument"], (False, "no version or commit recorded"))
        for role in ("no_edit run", "known_fix run"):
            self.assertEqual(bindings[role][0], False)
            self.assertIn("its instrument is not checked", bindings[role][1])
        self.assertEqual(bindings["ledger"][0], True)


class PartialProvenance(BindingCase):
    """An adversarial review's cases: a provenance cut down by hand binds nothing and says so, or blocks."""

    def test_a_control_entry_that_names_an_import_but_no_ledger_blocks(self) -> None:
        """The nop control's ledger rewritten and its entry's provenance.ledger deleted (old code: "bound",
        PUBLISHABLE): control_not_bound, naming the missing ledger."""
        manifest, runs, _ = self.tb_claim()
        data = load(manifest)
        del data["control_runs"][0]["provenance"]["ledger"]
        code, report = self.check(self.write_json("cut.manifest.json", data), runs)
        self.assertEqual((code, self.codes(report)), (1, ["control_not_bound"]))
        self.assertIn("records no ledger", self.message(report, "control_not_bound"))
        del data["control_runs"][0]["provenance"]["importer"], data["control_runs"][0]["provenance"]["options"]
        code, report = self.check(self.write_json("cut2.manifest.json", data), runs)
        self.assertIn("records no ledger and no importer and no options", self.message(report, "control_not_bound"))

    def test_a_provenance_without_its_ledger_binds_nothing_else(self) -> None:
        """The claim's ledger, command and files dropped from the provenance, the importer, options and
        instrument kept: ledger_not_imported (old code: "not bound : ledger: no import behind it" beside a bound
        instrument and bound controls); with the provenance deleted whole, the card says every part is unbound."""
        manifest, runs, _ = self.tb_claim()
        data = load(manifest)
        for key in ("ledger", "command", "files"):
            del data["provenance"][key]
        code, report = self.check(self.write_json("cut.manifest.json", data), runs)
        self.assertEqual((code, self.codes(report)), (1, ["ledger_not_imported"]))
        bindings = self.bindings(report)
        self.assertEqual(bindings["instrument"][0], False)
        self.assertIn("as the manifest states it", bindings["instrument"][1])
        self.assertEqual((bindings["no_edit run"][0], bindings["known_fix run"][0]), (False, False))

    def test_an_imported_claim_without_its_declared_set_record_is_unconfirmed(self) -> None:
        """provenance.declared_set deleted from an import's provenance: declared_set_unconfirmed, not bound."""
        manifest, runs, _ = self.tb_claim()
        data = load(manifest)
        del data["provenance"]["declared_set"]
        code, report = self.check(self.write_json("cut.manifest.json", data), runs)
        self.assertEqual((code, self.codes(report)), (1, ["declared_set_unconfirmed"]))

    def test_a_system_named_by_junk_is_unnamed(self) -> None:
        """null, an empty not_disclosed, a list, false, or a key that only starts with agent/model: system_unnamed
        (old code: "None" and "agent_kwargs" counted as names)."""
        manifest, runs, _ = self.tb_claim()
        data = load(manifest)
        for system in ({"agent": None, "model": {"not_disclosed": ""}}, {"agent": [], "model": False},
                       {"agent_kwargs": {"x": 1}, "model_args": {"y": 2}}, {"agentless": "x", "model": "m"}):
            with self.subTest(system=system):
                data["system"] = system
                code, report = self.check(self.write_json("junk.manifest.json", data), runs)
                self.assertEqual((code, self.codes(report)), (1, ["system_unnamed"]))

    def test_a_malformed_ledger_digest_is_an_input_error(self) -> None:
        manifest, runs, _ = self.tb_claim()
        data = load(manifest)
        data["provenance"]["ledger"]["sha256"] = "zz"
        self.assertInputError(self.run_gate("check", "--manifest", str(self.write_json("bad.manifest.json", data)),
                                            "--runs", str(runs)), "provenance.ledger.sha256", "64 hex digits")

    def test_compare_with_one_side_unbound_blocks(self) -> None:
        """compare of an imported claim with a copy of another run whose provenance was deleted: envelope_mismatch
        (one side records its verdict definition, the other none; old code: PUBLISHABLE)."""
        a_manifest, a_runs, _ = self.tb_claim("a")
        other = self.import_ok("terminal-bench", str(self.tb_runs(OPENHANDS)[0]), name="other")
        b = load(self.complete(other.draft_path, name="other-completed"))
        b["envelope"] = load(a_manifest)["envelope"]
        del b["provenance"]
        b["controls"] = []
        b_path = self.write_json("b.manifest.json", b)
        _code, out, _err = self.run_gate("compare", "--manifest", str(a_manifest), "--runs", str(a_runs),
                                       "--against-manifest", str(b_path), "--against-runs", str(other.runs),
                                       "--format", "json")
        findings = [f["message"] for f in json.loads(out)["findings"] if f["code"] == "envelope_mismatch"]
        self.assertTrue(any("A records the verdict definition its import read it under, B records none" in m
                            for m in findings), findings)


class DeclaredInstruments(BindingCase):
    def test_a_run_that_records_no_commit_is_a_group_of_its_own(self) -> None:
        """Two droid runs at one commit, one of them with its commit_hash "unknown": refused as two instruments
        (old code: the first run's commit printed as bound for both)."""
        runs = self.tb_runs(DROID)
        by_commit: dict[str, list[Path]] = {}
        for run in runs:
            by_commit.setdefault(load(run / "run_metadata.json")["commit_hash"], []).append(run)
        pair = next(group for group in by_commit.values() if len(group) > 1)
        meta = load(pair[1] / "run_metadata.json")
        meta["commit_hash"] = "unknown"
        (pair[1] / "run_metadata.json").write_text(json.dumps(meta), encoding="utf-8")
        self.assertInputError(self.run_gate("import", "terminal-bench", *map(str, pair)),
                              "no version or commit recorded", "--one-instrument")

    def test_a_control_made_at_one_of_the_declared_commits_is_bound(self) -> None:
        """Five droid runs declared one instrument (--one-instrument): a nop and an oracle run made at one of the
        declared commits are bound (old code: refused at every commit, "the claim's 7bb... + 59fe..."); one made at
        another commit is still refused. The control entry's command rebuilds its ledger."""
        runs = self.tb_runs(DROID)
        imp = self.import_ok("terminal-bench", *map(str, runs), "--one-instrument", name="five")
        commit = load(runs[0] / "run_metadata.json")["commit_hash"]
        nop = self.tb_control(runs[0], "nop-at-one", False)
        code, _out, err = self.control("no_edit", nop, imp.draft_path, self.dir / "nop.jsonl")
        self.assertEqual(code, 0, err)
        entry = load(imp.draft_path)["control_runs"][0]
        self.assertEqual(entry["provenance"]["instrument"], {"commit": commit})
        self.assertIn("--control no_edit --draft-manifest", entry["provenance"]["command"])
        elsewhere = self.tb_control(runs[0], "nop-elsewhere", False, commit_hash="0" * 40)
        self.assertInputError(self.control("no_edit", elsewhere, imp.draft_path, self.dir / "else.jsonl"),
                              "made on another instrument")


class OneBindingAtATime(unittest.TestCase):
    """binding_mismatch on provenances that differ in one part only, in both orders: each part alone is named
    with both of its values, and what one side does not record is not a difference."""

    def test_another_importer_alone_in_either_order(self) -> None:
        for mine, theirs in (("inspect", "swebench"), ("swebench", "inspect")):
            problems = gate.binding_mismatch(gate.Provenance(importer=mine), gate.Provenance(importer=theirs))
            self.assertEqual(problems, [f"read by import {theirs}, the claim's by import {mine}"])
        self.assertEqual(gate.binding_mismatch(gate.Provenance(importer="inspect"), gate.Provenance()), [])
        self.assertEqual(gate.binding_mismatch(gate.Provenance(), gate.Provenance(importer="inspect")), [])
        same = gate.Provenance(importer="inspect")
        self.assertEqual(gate.binding_mismatch(same, same), [])
