"""The manifest's fields: what is required, how each is typed and bounded, and how a bad one is named.

Syntax (strict JSON, line numbers) is tests/test_json_input.py's; the rules a valid manifest imposes on
the ledger are tests/test_ledger_rules.py's.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from tests.builders import metric, valid_ledger
from tests.support import GateCase, LedgerInputCase


class RequiredFields(LedgerInputCase):
    """Each required field present and well typed; unknown fields are ignored."""

    def test_manifest_field_errors(self) -> None:
        """Each missing, mistyped or out-of-range manifest field (a boolean, float or string task_count, a control
        expecting 'maybe', a zero budget, a negative stratum, …) is an input error naming the field.
        """
        def without(*keys: str) -> Any:
            def change(m: dict[str, Any]) -> None:
                target = m
                for key in keys[:-1]:
                    target = target[key]
                del target[keys[-1]]
            return change

        def setting(value: Any, *keys: str) -> Any:
            def change(m: dict[str, Any]) -> None:
                target = m
                for key in keys[:-1]:
                    target = target[key]
                target[keys[-1]] = value
            return change

        cases = [
            ("claim_id missing", without("claim_id"), "claim_id"),
            ("claim_id not a string", setting(7, "claim_id"), "claim_id"),
            ("dataset missing", without("dataset"), "dataset"),
            ("task_count true", setting(True, "dataset", "task_count"), "dataset.task_count"),
            ("task_count 1.5", setting(1.5, "dataset", "task_count"), "dataset.task_count"),
            ("task_count 40.0", setting(40.0, "dataset", "task_count"), "dataset.task_count"),
            ("task_count 0", setting(0, "dataset", "task_count"), "dataset.task_count"),
            ("task_count '40'", setting("40", "dataset", "task_count"), "dataset.task_count"),
            ("task_count missing", without("dataset", "task_count"), "dataset.task_count"),
            ("name missing", without("dataset", "name"), "dataset.name"),
            ("digest missing", without("dataset", "task_ids_sha256"), "dataset.task_ids_sha256"),
            ("controls not a list", setting({"task_id": "neg-01"}, "controls"), "controls"),
            ("controls missing", without("controls"), "controls"),
            ("envelope missing", without("envelope"), "envelope"),
            ("envelope not an object", setting("docker", "envelope"), "envelope"),
            ("control expects maybe", setting("maybe", "controls", 0, "expected"), "controls[0].expected"),
            ("control expects nothing", without("controls", 1, "expected"), "controls[1].expected"),
            ("attempt_budget 0", setting(0, "attempt_budget"), "attempt_budget"),
            ("attempt_budget true", setting(True, "attempt_budget"), "attempt_budget"),
            ("strata negative", setting({"a": -1, "b": 41}, "dataset", "strata"), "dataset.strata.a"),
        ]
        for label, change, field in cases:
            with self.subTest(label):
                manifest = copy.deepcopy(self.manifest)
                change(manifest)
                self.assertInputError(self.manifest_text(json.dumps(manifest, indent=2)), "bench.manifest.json", field)

    def test_user_data_goes_under_notes_or_x_keys(self) -> None:
        """The manifest is closed: user data lives under "notes" or an "x-" key, in any of its objects; records
        stay open to harness fields."""
        manifest, records = copy.deepcopy(self.manifest), copy.deepcopy(self.records)
        manifest["notes"] = {"team": "evals"}
        manifest["x-owner"] = "evals"
        manifest["dataset"]["notes"] = "ok"
        manifest["controls"][0]["x-why"] = "the untouched repository"
        records[0]["trace_url"] = "https://example.invalid/1"
        self.publishable(manifest, records)

    def test_an_unknown_manifest_key_is_an_input_error(self) -> None:
        """A key the gate does not know, in the manifest or its dataset, is refused naming its path and the
        free-form alternatives; a near miss names the key it was probably meant to be."""
        manifest = copy.deepcopy(self.manifest)
        manifest["owner"] = {"team": "evals"}
        self.assertInputError(self.manifest_text(json.dumps(manifest)), "owner: unknown key", "'notes'", "'x-'")
        manifest = copy.deepcopy(self.manifest)
        manifest["dataset"]["task_idz"] = manifest["dataset"].pop("task_ids")
        self.assertInputError(self.manifest_text(json.dumps(manifest)), "dataset.task_idz: unknown key",
                              "did you mean 'task_ids'?")


class DatasetFields(GateCase):
    """dataset: the declared ids, tasks and card, and the strata sizes."""

    def test_a_duplicate_declared_id_is_named_first_in_order(self) -> None:
        """A task id declared twice in dataset.task_ids is an input error naming the first duplicate in list order."""
        manifest, records = valid_ledger()
        manifest["dataset"]["task_ids"] = ["t-009", "t-001", "t-009", "t-001"]
        self.assertInputError(self.check(manifest, records), "dataset.task_ids", "'t-001'")

    def test_a_task_count_the_declared_list_contradicts_is_an_input_error(self) -> None:
        """task_count and dataset.task_ids count the same declared tasks: a count one off the list (a typo) is one line
        naming both, where it was a cascade of seven findings none of which named the contradiction; with no list, the
        count alone declares the suite."""
        manifest, records = valid_ledger()
        listed = len(manifest["dataset"]["task_ids"])
        for count in (listed - 1, listed + 1):
            manifest["dataset"]["task_count"] = count
            self.assertInputError(self.check(manifest, records), "dataset.task_count",
                                  f"{count}, but dataset.task_ids lists {listed} tasks", "make them agree")
        manifest["dataset"]["task_ids"] = manifest["dataset"]["task_ids"][:-1]
        del manifest["claim_id"]  # the fields' own errors first, in the manifest's order
        self.assertInputError(self.check(manifest, records), "claim_id")
        manifest["claim_id"] = "c"
        del manifest["dataset"]["task_ids"]
        code, out, _ = self.check(manifest, records)
        self.assertEqual(code, 1)
        self.assertIn("dataset_size_mismatch", out)

    def test_tasks_and_card_go_together_naming_the_missing_one(self) -> None:
        """dataset.tasks without dataset.card, or card without tasks, is an input error naming the missing one."""
        manifest, records = valid_ledger()
        for given, missing in (("tasks", "dataset.card"), ("card", "dataset.tasks")):
            with self.subTest(given=given):
                m = json.loads(json.dumps(manifest))
                m["dataset"][given] = "x.json"
                self.assertInputError(self.check(m, records), missing)

    def test_the_missing_one_of_tasks_and_card_is_the_field_named(self) -> None:
        """With only dataset.tasks given, the error names the field dataset.card followed by its problem."""
        manifest, records = valid_ledger()
        manifest["dataset"]["tasks"] = "tasks.json"
        code, _, err = self.check(manifest, records)
        self.assertEqual(code, 2)
        self.assertIn("dataset.card: ", err)

    def test_a_declared_stratum_may_be_empty(self) -> None:
        """A declared stratum of size 0 is allowed; a negative size is an input error naming dataset.strata.<name>."""
        manifest, records = valid_ledger()
        for r in records:
            r["stratum"] = "s"
        manifest["dataset"]["strata"] = {"s": len(records), "empty": 0}
        code, out, err = self.check(manifest, records)
        self.assertEqual(code, 0, out + err)
        manifest["dataset"]["strata"]["empty"] = -1
        self.assertInputError(self.check(manifest, records), "dataset.strata.empty")


class EnvelopeFields(GateCase):
    """envelope: the limits the runs are held to."""

    def test_negative_wall_clock_limit_is_an_input_error(self) -> None:
        """A negative envelope.wall_clock_s_per_task is an input error; a limit of 0 is accepted."""
        manifest, records = valid_ledger()
        manifest["envelope"]["wall_clock_s_per_task"] = -1
        self.assertInputError(self.check(manifest, records), "envelope.wall_clock_s_per_task")
        manifest["envelope"]["wall_clock_s_per_task"] = 0
        self.assertEqual(self.check(manifest, records)[0], 0)


class DeclaredIdsAtScale(GateCase):
    def test_a_duplicate_among_30000_declared_ids_is_named(self) -> None:
        """A manifest's repeated task ID among 30,000 is named (one list scan per ID took 24 s:
        bench/linear.py times the shape at 30,000 and 300,000 IDs)."""
        manifest, records = valid_ledger()
        manifest["dataset"]["task_ids"] = [f"t-{i:05d}" for i in range(30000)] + ["t-12345"]
        self.assertInputError(self.check(manifest, records), "dataset.task_ids", "'t-12345' is listed twice")


class StrictSchema(GateCase):
    """Every key the gate knows is checked: a typo is refused, never read as a check switched off."""

    def test_a_typo_in_the_envelope_limit_is_refused_not_a_limit_switched_off(self) -> None:
        """`wall_clock_s_per_tsk` used to turn the envelope check off, so a 5,000 s attempt gated PUBLISHABLE;
        now the near miss is an input error with the did-you-mean, and spelt right the attempt is blocked."""
        manifest, records = valid_ledger()
        records = [dict(r, wall_clock_s=100) for r in records]
        records[5]["wall_clock_s"] = 5000
        self.blocked(manifest, records, "envelope_exceeded")
        for typo in ("wall_clock_s_per_tsk", "Wall-Clock-S-Per-Task", "wall clock s per task"):
            with self.subTest(typo=typo):
                bad = copy.deepcopy(manifest)
                bad["envelope"][typo] = bad["envelope"].pop("wall_clock_s_per_task")
                self.assertInputError(self.check(bad, records), f"envelope.{typo}", "did you mean 'wall_clock_s_per_task'?")

    def test_a_trailing_comma_is_named_with_what_to_do(self) -> None:
        """A hand edit's trailing comma (before } or ]) names the place and says to delete it; a comma error
        elsewhere keeps the parser's own words."""
        manifest, records = valid_ledger()
        r = self.write_jsonl("runs.jsonl", records)
        text = json.dumps(manifest, indent=2)
        for bracket in ("}", "]"):
            with self.subTest(bracket=bracket):
                at = text.index(f"\n  {bracket}")  # the end of an object's or a list's last member
                bad = text[:at] + "," + text[at:]
                m = self.write_text("bench.manifest.json", bad.encode())
                self.assertInputError(self.run_gate("--manifest", str(m), "--runs", str(r)),
                                      f"bench.manifest.json:{bad.count(chr(10), 0, at) + 2}: invalid JSON",
                                      f": a comma before this {bracket} (JSON allows none there): delete it")
        m = self.write_text("bench.manifest.json", text.replace('"claim_id": ', '"claim_id" ', 1).encode())
        code, _, err = self.run_gate("--manifest", str(m), "--runs", str(r))
        self.assertEqual(code, 2)
        self.assertNotIn("comma before", err)

    def test_a_typo_in_the_attempt_budget_is_refused_not_a_budget_of_one(self) -> None:
        """`attempt_budgt: 3` used to fall back to a budget of 1; now it is an unknown key naming attempt_budget."""
        manifest, records = valid_ledger()
        manifest["attempt_budgt"] = 3
        self.assertInputError(self.check(manifest, records), "attempt_budgt: unknown key", "did you mean 'attempt_budget'?")

    def test_every_closed_object_refuses_an_unknown_key(self) -> None:
        """The dataset, a control, a control run and a metric are closed too, each error naming the JSON path."""
        manifest, records = valid_ledger()
        cases = [
            ("dataset", lambda m: m["dataset"].update(task_cuont=40), "dataset.task_cuont", "task_count"),
            ("control", lambda m: m["controls"][1].update(expect="pass"), "controls[1].expect", "expected"),
            ("metric", lambda m: m.update(metrics=[{**metric("m", "outcome == 'pass'"), "numerater": "x"}]),
             "metrics[0].numerater", "numerator"),
            ("control run", lambda m: m.update(control_runs=[{"role": "no_edit", "runs": "r.jsonl",
                                                               "max_pass_rate": 0.05, "max_pass_rat": 0.5}]),
             "control_runs[0].max_pass_rat", "max_pass_rate"),
        ]
        for name, change, path, close in cases:
            with self.subTest(object=name):
                bad = copy.deepcopy(manifest)
                change(bad)
                self.assertInputError(self.check(bad, records), path, f"did you mean {close!r}?")

    def test_an_envelope_key_far_from_any_the_gate_reads_is_welcome(self) -> None:
        """The envelope describes any instrument: keys like gpu or max_steps stay PUBLISHABLE."""
        manifest, records = valid_ledger()
        manifest["envelope"].update(gpu="a100", max_steps=40, seed=7)
        self.publishable(manifest, records)

    def test_a_record_key_that_is_a_near_miss_is_refused(self) -> None:
        """Records are open to harness fields, but `wall_clock` (for wall_clock_s) or `Outcome` is refused on its line."""
        manifest, records = valid_ledger()
        for key in ("wall_clock", "Outcome", "stratm", "cost-usd"):
            with self.subTest(key=key):
                bad = copy.deepcopy(records)
                bad[6][key] = 1
                self.assertInputError(self.check(manifest, bad), "runs.jsonl:7:", key, "did you mean")
        records[6]["trace_url"] = "https://example.invalid"
        records[6]["x-wall_clock"] = 3
        self.publishable(manifest, records)

    def test_a_reason_class_that_is_a_near_miss_of_a_built_in_is_refused(self) -> None:
        """Declaring `harness_timout` would make a typo a reason class; it is refused with the built-in's name."""
        manifest, records = valid_ledger()
        manifest["reason_classes"] = ["harness_timout"]
        self.assertInputError(self.check(manifest, records), "reason_classes[0]", "did you mean 'harness_timeout'?")
        manifest["reason_classes"] = ["cancelled"]
        self.publishable(manifest, records)

    def test_an_expected_outcome_or_mode_out_of_vocabulary_gets_a_did_you_mean(self) -> None:
        """expected and attempt_mode are checked against their words, with the closest named."""
        manifest, records = valid_ledger()
        bad = copy.deepcopy(manifest)
        bad["controls"][0]["expected"] = "Fail"
        self.assertInputError(self.check(bad, records), "controls[0].expected", "did you mean 'fail'?")
        bad = copy.deepcopy(manifest)
        bad["attempt_mode"] = "sample"
        self.assertInputError(self.check(bad, records), "attempt_mode", "did you mean 'samples'?")


class DigestsAndIdLists(GateCase):
    def test_a_digest_in_upper_case_or_with_a_prefix_is_the_same_digest(self) -> None:
        """`sha256:ABC…` and `ABC…` name the same suite as `abc…`: PUBLISHABLE (they used to be a digest mismatch)."""
        manifest, records = valid_ledger()
        digest = manifest["dataset"]["task_ids_sha256"]
        for written in (digest.upper(), f"sha256:{digest}", f"SHA256:{digest.upper()}"):
            with self.subTest(digest=written[:12]):
                self.publishable({**manifest, "dataset": {**manifest["dataset"], "task_ids_sha256": written}}, records)

    def test_an_id_list_that_is_json_or_has_a_header_is_refused(self) -> None:
        """digest --ids reads one ID a line: a JSON list or a header line is an input error, never hashed."""
        for name, text in (("list.json", '["t-1", "t-2"]\n'), ("pretty.json", '[\n  "t-1"\n]\n'),
                           ("header.txt", "instance_id\nt-1\nt-2\n"), ("csv.txt", "task_id\nt-1\n")):
            with self.subTest(file=name):
                path = self.write_text(name, text)
                self.assertInputError(self.run_gate("digest", "--ids", str(path)), name)
        path = self.write_text("ids.txt", "[bracketed-id\nt-2\n")
        code, _out, err = self.run_gate("digest", "--ids", str(path))
        self.assertEqual(code, 0, err)
