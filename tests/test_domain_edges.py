"""Every numeric domain the gate checks, tried on both sides of each of its edges.

A bound written `0 < p < 1` has four ways to be wrong (either end open or closed, either end
dropped); a test that only tries a value well inside and one well outside catches none of them.
So each rule below is given the values just outside it (refused) and exactly at or just inside it
(answered), on both ends.
"""

from __future__ import annotations

import argparse
import math
import unittest

from tests.support import gate

TINY = 2.0 ** -52


class PublicFunctionDomains(unittest.TestCase):
    """The statistics the gate exports raise ValueError outside their domain, and only there."""

    def refused(self, call, *args) -> None:
        """Refused by the rule itself, saying what it needs (not by a math domain error later)."""
        with self.assertRaisesRegex(ValueError, r"\b(needs|must)\b", msg=f"{call.__name__}{args}"):
            call(*args)

    def test_normal_quantile_and_z_take_the_open_unit_interval(self) -> None:
        for call in (gate.normal_quantile, gate.z_for):
            for p in (-0.5, -TINY, 0.0, 1.0, 1.0 + TINY, 1.5):
                self.refused(call, p)
            for p in (1e-300, 0.5, 1.0 - TINY):
                self.assertTrue(math.isfinite(call(p)), (call.__name__, p))
        self.assertLess(gate.normal_quantile(1e-300), -37)
        self.assertGreater(gate.normal_quantile(1.0 - TINY), 8)

    def test_wilson_needs_a_positive_denominator(self) -> None:
        for n in (0, -1, -0.5):
            self.refused(gate.wilson, 0, n)
        z2 = 1.959963984540054 ** 2  # 0 of 1: [0, z²/(1 + z²)]
        low, high = gate.wilson(0, 1)
        self.assertEqual(low, 0.0)
        self.assertAlmostEqual(high, z2 / (1 + z2), places=12)
        low, high = gate.wilson(0.25, 0.5)  # an effective (fractional) count is a count
        self.assertTrue(0.0 < low < 0.5 < high < 1.0, (low, high))

    def test_pass_at_k_takes_every_count_from_none_to_all(self) -> None:
        for n, c in ((5, -1), (5, 6), (0, 1)):
            self.refused(gate.pass_at_k_all, n, c)
            self.refused(gate.pass_hat_k_all, n, c)
        for call in (gate.pass_at_k_all, gate.pass_hat_k_all):  # k = 2..n
            self.assertEqual(call(5, 0), [0.0] * 4)
            self.assertEqual(call(5, 5), [1.0] * 4)
        for n, c, k in ((5, -1, 1), (5, 6, 1), (5, 2, 0), (5, 2, 6), (5, 2, -1)):
            self.refused(gate.pass_at_k, n, c, k)
        self.assertAlmostEqual(gate.pass_at_k(5, 2, 1), 0.4, places=15)
        self.assertEqual(gate.pass_at_k(5, 2, 5), 1.0)
        self.assertEqual(gate.pass_at_k(5, 0, 5), 0.0)
        self.assertEqual(gate.pass_at_k(5, 5, 1), 1.0)

    def test_student_t_needs_positive_degrees_of_freedom(self) -> None:
        for df in (0.0, -1.0, -TINY, math.nan):
            self.refused(gate.t_for, 0.95, df)
        self.assertGreater(gate.t_for(0.95, 1e-3), gate.t_for(0.95, 1.0))
        self.assertAlmostEqual(gate.t_for(0.95, 1.0), 12.706204736174698, places=9)

    def test_the_t_tail_and_centre_at_zero_and_at_infinity(self) -> None:
        for df in (0.5, 3.0, 1e6):
            self.assertEqual(gate._t_split(0.0, df), (1.0, 0.0))
            self.assertEqual(gate._t_split(math.inf, df), (0.0, 1.0))
            tail, centre = gate._t_split(2.0, df)
            self.assertAlmostEqual(tail + centre, 1.0, places=14)

    def test_a_paired_interval_needs_a_task(self) -> None:
        for n in (0, -1, -0.5):
            self.refused(gate.tango_interval, 0, 0, n, 0.95)
        low, high = gate.tango_interval(0, 0, 0.5, 0.95)
        self.assertTrue(-1.0 <= low < 0.0 < high <= 1.0, (low, high))

    def test_the_exact_power_takes_a_difference_the_discordance_can_carry(self) -> None:
        """|A − B| is at most the share of tasks that differ, which is a share: outside, ValueError; at each
        edge (all differing tasks A's or B's, every task differing) an answer."""
        for discordance, difference in ((0.0, 0.0), (-0.1, 0.0), (1.0 + TINY, 0.0), (0.2, 0.2 + 1e-12),
                                        (0.2, -0.2 - 1e-12), (0.2, -0.3), (0.2, math.nan)):
            self.refused(gate.table_power, 50, discordance, difference, 0.05)
        for discordance, difference in ((0.2, 0.2), (0.2, -0.2), (1.0, 0.0), (1.0, 1.0), (0.2, 0.0)):
            power = gate.table_power(50, discordance, difference, 0.05)
            self.assertTrue(0.0 <= power <= 1.0, (discordance, difference, power))
        self.assertEqual(gate.table_power(50, 0.2, 0.2, 0.05), gate.table_power(50, 0.2, -0.2, 0.05))

    def test_detectable_difference_answers_nothing_outside_a_share(self) -> None:
        for discordance in (0.0, -0.1, 1.0 + 1e-9, 1.5):
            self.assertIsNone(gate.detectable_difference(400, discordance, 0.95), discordance)
        self.assertIsNone(gate.detectable_difference(0.4, 1.0, 0.95))  # rounds to no task
        at_one = gate.detectable_difference(400, 1.0, 0.95)
        self.assertIsNotNone(at_one)
        self.assertTrue(0.0 < at_one < 0.5, at_one)


class PlanQuestionEdges(unittest.TestCase):
    """`plan`'s seven inputs: each refused just outside its range and answered at its edges."""

    BASE = dict(baseline=0.5, detect=0.1, discordance=None, samples=1, icc=0.0, power=0.8,
                confidence=0.95)

    def ask(self, **change):
        return gate.plan_suite(gate.PlanQuestion(**{**self.BASE, **change}))

    def test_each_input_is_refused_just_outside_its_range(self) -> None:
        outside = {
            "baseline": (-0.1, 0.0, 1.0, 1.5),
            "power": (0.0, 0.4999, 1.0, 1.5),
            "detect": (-0.1, 0.0, 0.0009, 0.5001, 0.9),
            "discordance": (-0.1, 0.0, 1.0001),
            "icc": (-0.01, 1.01),
            "samples": (0, -1, gate.MAX_ATTEMPT_BUDGET + 1),
        }
        for name, values in outside.items():
            for value in values:
                with self.subTest(name=name, value=value):
                    with self.assertRaises(gate.GateError) as caught:
                        self.ask(**{name: value})
                    self.assertIn(f"--{name}:", str(caught.exception))

    def test_each_input_is_answered_at_its_edges(self) -> None:
        inside = (  # (a smaller discordance keeps the plan for a 0.001 difference small)
            {"baseline": 0.001}, {"baseline": 0.899}, {"power": 0.5}, {"power": 0.95},
            {"detect": 0.001, "discordance": 0.002}, {"detect": 0.5}, {"discordance": 0.2},
            {"discordance": 1.0}, {"icc": 0.0}, {"icc": 1.0}, {"samples": 1},
            {"samples": gate.MAX_ATTEMPT_BUDGET},
        )
        for change in inside:
            with self.subTest(**change):
                plan = self.ask(**change)
                self.assertGreaterEqual(plan.tasks, 1)


class OptionEdges(unittest.TestCase):
    """The command line's numeric option types, on both sides of each bound."""

    def test_confidence_is_from_a_half_to_below_one(self) -> None:
        for text in ("-0.5", "0", "0.4999", "1", "1.5", "nan"):
            with self.assertRaises(argparse.ArgumentTypeError, msg=text):
                gate._confidence(text)
        for text, value in (("0.5", 0.5), ("0.999", 0.999)):
            self.assertEqual(gate._confidence(text), value)

    def test_jobs_is_a_whole_number_from_one_to_the_limit(self) -> None:
        for text in ("0", "-1", str(gate.MAX_JOBS + 1), "1.0", "٣"):
            with self.assertRaises(argparse.ArgumentTypeError, msg=text):
                gate._jobs(text)
        self.assertEqual(gate._jobs("1"), 1)
        self.assertEqual(gate._jobs(str(gate.MAX_JOBS)), gate.MAX_JOBS)


if __name__ == "__main__":
    unittest.main()
