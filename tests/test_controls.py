"""Controls: a negative control that must fail and a positive control that must pass, declared as tasks
of the dataset or as whole control runs (no_edit must fail, known_fix must pass) with rate bounds.
"""

from __future__ import annotations

import json
from typing import Any

from tests.builders import record, replaced, retry_ledger, valid_ledger
from tests.support import GateCase


class ControlDeclarations(GateCase):
    """Both roles must be declared, inside the dataset, with the right expectation."""

    def test_controls_incomplete(self) -> None:
        """A manifest without a negative control, without a positive one, or with none, blocks with
        controls_incomplete naming what is missing.
        """
        for role in ("negative", "positive"):
            with self.subTest(missing=role):
                manifest, records = valid_ledger()
                manifest["controls"] = [c for c in manifest["controls"] if c["role"] != role]
                messages = self.blocked(manifest, records, "controls_incomplete")
                self.assertIn(role, messages[0])
        manifest["controls"] = []
        self.blocked(manifest, records, "controls_incomplete")

    def test_control_outside_dataset(self) -> None:
        """A control whose task is not in the dataset blocks with control_outside_dataset naming it."""
        manifest, records = valid_ledger()
        manifest["controls"].append({"task_id": "ctl-x", "expected": "fail", "role": "negative"})
        messages = self.blocked(manifest, records, "control_outside_dataset")
        self.assertIn("ctl-x", messages[0])

    def test_a_control_with_the_wrong_expectation_says_what_it_must_expect(self) -> None:
        """A negative control expecting pass, or a positive one expecting fail, is an input error saying what it must expect."""
        for role, expected, must in (("negative", "pass", "fail"), ("positive", "fail", "pass")):
            with self.subTest(role=role):
                manifest, records = valid_ledger()
                manifest["controls"][0] = {"task_id": "neg-01", "expected": expected, "role": role}
                code, _, err = self.check(manifest, records)
                self.assertEqual(code, 2)
                self.assertIn(f"a {role} control must expect {must}", err)

    def test_a_role_outside_the_vocabulary_is_an_input_error(self) -> None:
        """A control's role is negative or positive: another word cannot count as either, and a near miss
        gets a did-you-mean."""
        manifest, records = valid_ledger()
        manifest["controls"] = [{"task_id": "neg-01", "expected": "fail", "role": "negative"},
                                {"task_id": "pos-01", "expected": "pass", "role": "smoke"}]
        self.assertInputError(self.check(manifest, records), "controls[1].role", "'negative' or 'positive'", "'smoke'")
        manifest["controls"][1]["role"] = "Postive"
        self.assertInputError(self.check(manifest, records), "controls[1].role", "did you mean 'positive'?")


class ControlOutcomes(GateCase):
    """Each control ran and came out as expected."""

    def test_control_missing(self) -> None:
        """A control task with no record blocks with control_missing naming it."""
        manifest, records = valid_ledger()
        records = [r for r in records if r["task_id"] != "neg-01"]
        messages = self.blocked(manifest, records, "control_missing")
        self.assertIn("neg-01", messages[0])

    def test_control_inconclusive(self) -> None:
        """An unscoreable control blocks with control_inconclusive naming it."""
        manifest, records = valid_ledger()
        records = replaced(records, "neg-01", outcome="unscoreable", reason="harness_timeout")
        messages = self.blocked(manifest, records, "control_inconclusive")
        self.assertIn("neg-01", messages[0])

    def test_control_violated_both_directions(self) -> None:
        """A negative control that passes, or a positive one that fails, blocks with control_violated naming it."""
        manifest, records = valid_ledger()
        for tid, outcome in (("neg-01", "pass"), ("pos-01", "fail")):
            with self.subTest(control=tid):
                messages = self.blocked(manifest, replaced(records, tid, outcome=outcome), "control_violated")
                self.assertIn(tid, messages[0])

    def test_a_negative_control_that_passes_on_retry_is_violated(self) -> None:
        """A negative control that passes on a retry is violated; a positive control that passes on a retry holds."""
        manifest, records = retry_ledger(2, {"neg-01": [("fail", None), ("pass", None)], "pos-01": [("pass", None)]})
        self.blocked(manifest, records, "control_violated")
        manifest, records = retry_ledger(2, {"neg-01": [("fail", None)], "pos-01": [("fail", None), ("pass", None)]})
        self.publishable(manifest, records)


class ControlRuns(GateCase):
    """Whole control runs over the dataset, held to their pass-rate bounds."""

    def setup_runs(self, noedit_passes: int = 0, gold_passes: int | None = None) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
        manifest, records = valid_ledger()
        ids = manifest["dataset"]["task_ids"]
        manifest["controls"] = []
        manifest["control_runs"] = [
            {"role": "no_edit", "runs": "noedit.jsonl", "max_pass_rate": 0.05},
            {"role": "known_fix", "runs": "gold.jsonl", "min_pass_rate": 0.95},
        ]
        gold = len(ids) if gold_passes is None else gold_passes
        self.write_jsonl("noedit.jsonl", [record(t, "pass" if i < noedit_passes else "fail", run_id="ne") for i, t in enumerate(ids)])
        self.write_jsonl("gold.jsonl", [record(t, "pass" if i < gold else "fail", run_id="kf") for i, t in enumerate(ids)])
        return manifest, records, ids

    def test_control_runs_alone_satisfy_the_control_requirement(self) -> None:
        """A no_edit and a known_fix control run satisfy the control requirement without control tasks; a no_edit run
        alone leaves only the positive side missing.
        """
        manifest, records, ids = self.setup_runs()
        self.assertEqual(len(ids), 40)
        code, report = self.check_json(manifest, records)
        self.assertEqual((code, report["findings"]), (0, []))
        self.assertEqual({r["role"] for r in report["control_runs"]}, {"no_edit", "known_fix"})
        only_negative = json.loads(json.dumps(manifest))
        only_negative["control_runs"] = only_negative["control_runs"][:1]
        _, report = self.check_json(only_negative, records)
        incomplete = [f["message"] for f in report["findings"] if f["code"] == "controls_incomplete"]
        self.assertEqual(len(incomplete), 1)
        self.assertIn("positive", incomplete[0])
        self.assertNotIn("negative", incomplete[0])

    def test_no_edit_bound(self) -> None:
        """A no_edit run at its max_pass_rate (2/40 = 0.05) is allowed; above it (3/40) it blocks with
        control_run_violated naming no_edit.
        """
        manifest, records, _ = self.setup_runs(noedit_passes=2)  # 2/40 = 0.05: at the ceiling, allowed
        self.assertNotIn("control_run_violated", self.codes(manifest, records))
        manifest, records, _ = self.setup_runs(noedit_passes=3)  # 3/40 = 0.075
        _, report = self.check_json(manifest, records)
        violated = [f["message"] for f in report["findings"] if f["code"] == "control_run_violated"]
        self.assertEqual(len(violated), 1, report["findings"])
        self.assertIn("no_edit", violated[0])
        self.assertEqual(report["verdict"], "BLOCKED")

    def test_known_fix_bound(self) -> None:
        """A known_fix run at its min_pass_rate (38/40 = 0.95) is allowed; below it, control_run_violated names known_fix."""
        manifest, records, _ = self.setup_runs(gold_passes=38)  # 0.95: at the floor, allowed
        self.assertNotIn("control_run_violated", self.codes(manifest, records))
        manifest, records, _ = self.setup_runs(gold_passes=37)  # 0.925
        _, report = self.check_json(manifest, records)
        violated = [f["message"] for f in report["findings"] if f["code"] == "control_run_violated"]
        self.assertEqual(len(violated), 1, report["findings"])
        self.assertIn("known_fix", violated[0])

    def test_control_run_ledger_problems_carry_the_role_prefix(self) -> None:
        """Ledger problems inside a control run are reported prefixed with its role, and the main ledger's codes stay clean."""
        manifest, records, ids = self.setup_runs()
        self.write_jsonl("noedit.jsonl", [record(t, "fail", run_id="ne") for t in ids[1:]])
        gold = [record(t, "pass", run_id="kf") for t in ids] + [record(ids[0], "pass", attempt=2, run_id="kf")]
        self.write_jsonl("gold.jsonl", gold)
        codes = self.codes(manifest, records)
        self.assertIn("no_edit:dataset_size_mismatch", codes)
        self.assertIn("no_edit:never_started", codes)
        self.assertIn("known_fix:attempt_over_budget", codes)
        self.assertNotIn("dataset_size_mismatch", codes)  # the main ledger is whole
        self.assertNotIn("control_run_violated", codes)


class ControlsCanFail(GateCase):
    """A control that no broken harness could trip proves nothing: its bounds are refused."""

    def with_runs(self, *runs: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        manifest, records = valid_ledger()
        self.write_jsonl("noedit.jsonl", [dict(r, outcome="fail", reason=None, run_id="noedit") for r in records])
        self.write_jsonl("gold.jsonl", [dict(r, outcome="pass", reason=None, run_id="gold") for r in records])
        manifest["controls"] = []
        manifest["control_runs"] = list(runs)
        return manifest, records

    def test_vacuous_bounds_are_refused(self) -> None:
        """A no-edit ceiling of 1.0 or a known-fix floor of 0 used to satisfy the control requirement; they are now
        input errors naming the field, as is a ceiling at or above the floor and a bound of the other role."""
        no_edit = {"role": "no_edit", "runs": "noedit.jsonl", "max_pass_rate": 0.05}
        known_fix = {"role": "known_fix", "runs": "gold.jsonl", "min_pass_rate": 0.95}
        for bad, where in (({**no_edit, "max_pass_rate": 1.0}, "control_runs[0].max_pass_rate"),
                           ({**no_edit, "max_pass_rate": 0.51}, "control_runs[0].max_pass_rate"),
                           ({**no_edit, "min_pass_rate": 0.9}, "control_runs[0].min_pass_rate")):
            with self.subTest(run=bad):
                manifest, records = self.with_runs(bad, known_fix)
                self.assertInputError(self.check(manifest, records), where)
        for bad in ({**known_fix, "min_pass_rate": 0}, {**known_fix, "min_pass_rate": 0.49}):
            with self.subTest(run=bad):
                manifest, records = self.with_runs(no_edit, bad)
                self.assertInputError(self.check(manifest, records), "control_runs[1].min_pass_rate", "unable to fail")
        manifest, records = self.with_runs({**no_edit, "max_pass_rate": 0.5}, {**known_fix, "min_pass_rate": 0.5})
        self.assertInputError(self.check(manifest, records), "control_runs", "not below the known-fix floor")
        manifest, records = self.with_runs({**no_edit, "max_pass_rate": 0.5}, {**known_fix, "min_pass_rate": 0.6})
        self.publishable(manifest, records)

    def test_a_control_run_that_never_produced_a_verdict_is_inconclusive(self) -> None:
        """A no-edit run whose tasks are all unscoreable passes 0/40, under any ceiling: it used to satisfy the
        control; now it is control_run_inconclusive, and the unscoreable count is shown beside its rate."""
        manifest, records = self.with_runs({"role": "no_edit", "runs": "noedit.jsonl", "max_pass_rate": 0.05},
                                           {"role": "known_fix", "runs": "gold.jsonl", "min_pass_rate": 0.95})
        lost = [dict(r, outcome="unscoreable", reason="env_flake", run_id="noedit") for r in records]
        self.write_jsonl("noedit.jsonl", lost[:21] + [dict(r, outcome="fail", reason=None) for r in lost[21:]])
        messages = self.blocked(manifest, records, "control_run_inconclusive")
        self.assertIn("21 of 40 tasks are unscoreable", messages[0])
        _, out, _ = self.check(manifest, records)
        self.assertRegex(out, r"(?m)^control run : no_edit noedit\.jsonl: 0/40 .*\(ceiling 0\.05; 21 of 40 unscoreable; 1 attempt a task, its own contract\)$")
        self.write_jsonl("noedit.jsonl", lost[:20] + [dict(r, outcome="fail", reason=None) for r in lost[20:]])
        self.publishable(manifest, records)

    def test_an_unknown_outcome_on_a_control_is_one_finding_not_two(self) -> None:
        """A control with the outcome `passed` is unknown_outcome alone: not also 'the control is unscoreable'."""
        manifest, records = valid_ledger()
        records = replaced(records, "pos-01", outcome="passed")
        codes = self.codes(manifest, records)
        self.assertIn("unknown_outcome", codes)
        self.assertNotIn("control_inconclusive", codes)
        self.assertNotIn("control_violated", codes)


class EveryControlIsJudged(GateCase):
    def test_a_failing_positive_control_after_one_outside_the_dataset_is_still_judged(self) -> None:
        """A control outside the dataset does not stop the judging of the controls after it."""
        manifest, records = valid_ledger()
        manifest["controls"] = [{"task_id": "nowhere", "expected": "fail", "role": "negative"},
                                *manifest["controls"]]
        records = replaced(records, "pos-01", outcome="fail")
        codes = self.codes(manifest, records)
        self.assertIn("control_outside_dataset", codes)
        self.assertIn("control_violated", codes)
