"""`gate.py import publish-gate report.json`: the benchmark-card design note's publish-gate report
(shared/seeds/001: attempt_budget, outcomes of {attempts, hidden_tests_passed}, two control booleans).

The note's report names no task; the gate imports it only when each outcome carries a task_id. Its metric
contract counts a task resolved when the hidden tests pass within the attempt budget; its script drops the
rows over the budget from the denominator, the gate keeps them as fails.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from tests.realfiles import RealFileCase


def report(outcomes: list[dict[str, Any]], budget: int = 1, **flags: Any) -> dict[str, Any]:
    """A report of the note's shape, with the note's two control flags unless told otherwise."""
    data: dict[str, Any] = {"no_edit_must_fail": True, "known_fix_must_pass": True, "attempt_budget": budget,
                            "outcomes": outcomes}
    data.update(flags)
    return data


def note_rate(data: dict[str, Any]) -> Fraction:
    """The note's own resolved_rate: hidden_tests_passed among the outcomes within the budget, over those."""
    eligible = [o for o in data["outcomes"] if o["attempts"] <= data["attempt_budget"]]
    return Fraction(sum(1 for o in eligible if o["hidden_tests_passed"] is True), len(eligible))


OUTCOMES = [
    {"task_id": "demo-1", "attempts": 1, "hidden_tests_passed": True},
    {"task_id": "demo-2", "attempts": 1, "hidden_tests_passed": False},
    {"task_id": "demo-3", "attempts": 2, "hidden_tests_passed": True},  # passed, after the budget of 1
    {"task_id": "demo-4", "attempts": 1, "hidden_tests_passed": True},
]


class PublishGateReport(RealFileCase):
    def test_each_outcome_is_one_task_resolved_within_the_budget(self) -> None:
        """Each outcome is one retry-mode record of its task: hidden tests passed within the budget pass, failed
        fail; the draft declares the tasks named, with the report's attempt_budget."""
        path = self.write_json("report.json", report(OUTCOMES))
        imp = self.import_ok("publish-gate", str(path))
        got = {r["task_id"]: (r["attempt"], r["outcome"], r["reason"]) for r in imp.records}
        self.assertEqual(got, {"demo-1": (1, "pass", None), "demo-2": (1, "fail", None), "demo-3": (1, "fail", None),
                               "demo-4": (1, "pass", None)})
        self.assertEqual(imp.draft["dataset"]["task_ids"], ["demo-1", "demo-2", "demo-3", "demo-4"])
        self.assertEqual((imp.draft["attempt_mode"], imp.draft["attempt_budget"]), ("retry", 1))
        self.assertEqual(imp.records[2]["harness"], {"format": "publish-gate", "attempts": 2, "hidden_tests_passed": True})

    def test_a_pass_over_the_budget_is_a_fail_kept_in_the_denominator(self) -> None:
        """demo-3 passed after 2 attempts with a budget of 1: a fail, with a note, and still in the denominator;
        the gated headline is 2/4 where the note's script would print 2/3 (it drops the row)."""
        data = report(OUTCOMES)
        imp = self.import_ok("publish-gate", str(self.write_json("report.json", data)))
        over = [n for n in imp.notes() if "over the budget" in n]  # demo-3 only: demo-1 and demo-4 passed within it
        self.assertEqual(len(over), 1, imp.notes())
        self.assertIn("demo-3: passed after 2 attempts, over the budget of 1: a fail", over[0])
        gated = self.gated(imp)
        self.assertHeadline(gated, Fraction(2, 4), 4)
        self.assertEqual(note_rate(data), Fraction(2, 3))
        wider = report(OUTCOMES, budget=2)
        imp = self.import_ok("publish-gate", str(self.write_json("wider.json", wider)), name="wider")
        self.assertEqual({r["task_id"]: r["outcome"] for r in imp.records}["demo-3"], "pass")
        # the budget may be as large as any the gate takes (10,000), and no larger
        widest = self.import_ok("publish-gate", str(self.write_json("widest.json", report(OUTCOMES, budget=10_000))),
                                name="widest")
        self.assertEqual(widest.draft["attempt_budget"], 10_000)
        self.assertInputError(self.run_gate("import", "publish-gate",
                                            str(self.write_json("over.json", report(OUTCOMES, budget=10_001)))),
                              "attempt_budget: expected at most 10,000")

    def test_a_budget_below_one_attempt_is_refused_naming_the_field(self) -> None:
        """attempt_budget 0 (no attempt allowed, so nothing could be resolved) or below is an input error, exit 2;
        1 is the least budget taken."""
        for budget in (0, -1):
            with self.subTest(budget=budget):
                path = self.write_json(f"budget{budget}.json", report(OUTCOMES, budget=budget))
                self.assertInputError(self.run_gate("import", "publish-gate", str(path)),
                                      f"{path}", "attempt_budget: expected an integer >= 1")

    def test_an_outcome_without_its_task_is_refused_with_one_line(self) -> None:
        """The note's own report names no task in its outcomes: refused with one line naming the outcome and
        saying that a ledger counts tasks, so each outcome needs its task_id."""
        outcomes = [{"attempts": 1, "hidden_tests_passed": True}, {"attempts": 1, "hidden_tests_passed": False}]
        path = self.write_json("report.json", report(outcomes))
        self.assertInputError(self.run_gate("import", "publish-gate", str(path)), "outcomes[0]", "names no task",
                              "task_id")
        mixed = report([OUTCOMES[0], {"attempts": 1, "hidden_tests_passed": True}])
        self.assertInputError(self.run_gate("import", "publish-gate", str(self.write_json("mixed.json", mixed))),
                              "outcomes[1]", "names no task")

    def test_the_control_flags_never_count_as_controls(self) -> None:
        """no_edit_must_fail / known_fix_must_pass true are not evidence: the draft declares no control and its
        draft list says to add control runs from a real no-edit and known-fix run (with --control); the completed
        draft without them is still BLOCKED controls_incomplete."""
        imp = self.import_ok("publish-gate", str(self.write_json("report.json", report(OUTCOMES))))
        self.assertEqual(imp.draft["controls"], [])
        self.assertNotIn("control_runs", imp.draft)
        todo = " ".join(imp.draft["draft"])
        self.assertIn("no_edit_must_fail and known_fix_must_pass flags are not evidence", todo)
        self.assertIn("--control no_edit / --control known_fix", todo)
        gated = self.gated(imp)
        self.assertEqual(gated["verdict"], "BLOCKED")
        self.assertIn("controls_incomplete", [f["code"] for f in gated["findings"]])
        without = self.import_ok("publish-gate", str(self.write_json("bare.json", {"attempt_budget": 1, "outcomes": OUTCOMES})),
                                 name="bare")
        self.assertFalse(any("flags are not evidence" in line for line in without.draft["draft"]))

    def test_an_unknown_verdict_is_unscoreable_and_bad_reports_are_refused(self) -> None:
        """hidden_tests_passed null (no verdict) is unscoreable grader_error; a repeated task, an unknown key, a
        non-boolean verdict, a zero attempt count and an empty report are refused with one line each."""
        unknown = report([{"task_id": "demo-1", "attempts": 1, "hidden_tests_passed": None}])
        self.assertOutcome(self.imp("publish-gate", str(self.write_json("unknown.json", unknown)))[0],
                           "unscoreable", "grader_error")
        bad = [
            (report([OUTCOMES[0], OUTCOMES[0]]), "a second outcome"),
            (report(OUTCOMES, resolved_rate=0.5), "unknown key(s) resolved_rate"),
            (report([{"task_id": "demo-1", "attempts": 1, "hidden_tests_passed": "yes"}]), "hidden_tests_passed"),
            (report([{"task_id": "demo-1", "attempts": 0, "hidden_tests_passed": True}]), "attempts"),
            (report([]), "empty"),
        ]
        for i, (data, fragment) in enumerate(bad):
            with self.subTest(fragment=fragment):
                self.assertInputError(self.run_gate("import", "publish-gate", str(self.write_json(f"bad{i}.json", data))),
                                      fragment)
