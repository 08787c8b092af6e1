"""compare's and rank's test on a task table: McNemar's exact conditional test (binomial on the differing tasks),
and Tango's interval at its critical value, so that p, the interval and the reading agree at every number of tasks,
and no task both systems pass or both fail can change a decision.

Every expected figure comes from tests/oracles.py (McNemar's p summed in fractions from integer binomial
coefficients), or from the issue's own figures.
"""

from __future__ import annotations

import math
import unittest
from unittest import mock

import gate
from tests.oracles import conditional_critical, exact_conditional, tango_interval, z_of


def table(b: int, c: int, n: int) -> gate.PairedTable:
    return gate.PairedTable(float(b), float(c), float(n), (b - c) / n, (b + c) / n, b + c)


class ExactConditionalTest(unittest.TestCase):
    def test_no_task_both_systems_pass_or_fail_changes_a_decision(self) -> None:
        """The same differing tasks among 50 to 1,500 tasks (one concordant task added at a time, across the old
        switch at 1,000): the same p and the same decision, the interval excluding 0 exactly when p < alpha
        (old code: 32 vs 18 was significant on 1,000 tasks, p 0.0492, and not on 1,001, p 0.0649; the exact
        unconditional test below the switch flipped 495 times between 50 and 1,000 tasks on the same table)."""
        for b, c in ((32, 18), (9, 2), (20, 8), (5, 0), (6, 0), (14, 4)):
            p = float(exact_conditional(b, c))
            for n in range(max(50, b + c), 1501, 7):
                test = gate.paired_test(table(b, c, n), 0.95)
                with self.subTest(b=b, c=c, n=n):
                    self.assertEqual(test.p_value, p)
                    self.assertEqual(test.low > 0 or test.high < 0, p < 0.05)
                    self.assertEqual(test.significant(0.05), p < 0.05)
        self.assertAlmostEqual(gate.paired_test(table(32, 18, 1000), 0.95).p_value, 0.0649, delta=5e-5)

    def test_every_outcome_against_the_oracle(self) -> None:
        """Every split of up to 60 differing tasks: the p is the oracle's exact fraction (to the float's last
        bit); above EXACT_FRACTIONS differing tasks, summed in log space, to 1e-9 relative."""
        for s in range(61):
            for b in range(s + 1):
                with self.subTest(b=b, c=s - b):
                    self.assertEqual(gate.exact_conditional_p(b, s - b), float(exact_conditional(b, s - b)))
        for b, c in ((520, 481), (530, 470), (600, 500), (1100, 901), (1001, 0), (700, 301)):
            with self.subTest(b=b, c=c):
                want = float(exact_conditional(b, c))
                self.assertLessEqual(abs(gate.exact_conditional_p(b, c) - want), 1e-9 * want, (b, c, want))

    def test_the_critical_value_against_the_oracle(self) -> None:
        """The least |z| at which the test rejects, for 1 to 80 differing tasks at alpha 0.1, 0.05 and 0.01 (just
        under it, by 1e-9), and for 999 to 1,002 differing tasks by the oracle's p on either side of
        it; where no split rejects (fewer than 6 at 0.05) a value no outcome reaches."""
        for alpha in (0.1, 0.05, 0.01):
            for s in range(1, 81):
                with self.subTest(s=s, alpha=alpha):
                    got, want = gate.conditional_critical(s, alpha), conditional_critical(s, alpha)
                    if want is None:
                        self.assertGreater(got, math.sqrt(s))
                    else:
                        self.assertLess(got, want)
                        self.assertAlmostEqual(got, want, delta=1e-8 * want)
            for s in (999, 1000, 1001, 1002):
                with self.subTest(s=s, alpha=alpha):
                    d = round(gate.conditional_critical(s, alpha) * math.sqrt(s))
                    self.assertEqual(d % 2, s % 2)
                    self.assertLess(exact_conditional((s + d) // 2, (s - d) // 2), alpha)
                    self.assertGreaterEqual(exact_conditional((s + d - 2) // 2, (s - d + 2) // 2), alpha)
        self.assertIsNone(conditional_critical(5, 0.05))

    def test_p_the_interval_and_the_decision_agree_on_every_table(self) -> None:
        """On every table of 1 to 12 tasks at 90, 95 and 99%, and every table of 40 at 95%: p < alpha exactly when
        Tango's interval at the critical value excludes 0, and the interval holds the observed difference. (With
        the normal critical value, 4/0 of 6 tasks gives an interval above 0 while the exact p is 0.125.)"""
        cases = [(n, conf) for n in range(1, 13) for conf in (0.9, 0.95, 0.99)] + [(40, 0.95)]
        for n, conf in cases:
            for b in range(n + 1):
                for c in range(n + 1 - b):
                    test = gate.paired_test(table(b, c, n), conf)
                    excludes = test.low > 0 or test.high < 0
                    self.assertEqual(test.p_value < 1 - conf, excludes, (n, b, c, conf, test))
                    self.assertEqual(test.significant(1 - conf), excludes)
                    self.assertLessEqual(test.low, (b - c) / n + 1e-12)
                    self.assertGreaterEqual(test.high, (b - c) / n - 1e-12)
        low, _ = gate.tango_interval(4, 0, 6, 0.95)
        self.assertGreater(low, 0)  # the asymptotic interval would have called 4/0 of 6 a difference

    def test_the_issues_figures(self) -> None:
        """40 tasks: 5/0 gives p = 1/16 (not significant), 6/0 gives 1/32 (significant), and the test's name."""
        five, six = gate.paired_test(table(5, 0, 40), 0.95), gate.paired_test(table(6, 0, 40), 0.95)
        self.assertEqual((five.p_value, six.p_value), (1 / 16, 1 / 32))
        self.assertEqual((five.significant(0.05), six.significant(0.05)), (False, True))
        self.assertEqual(six.method, "mcnemar_exact_conditional")
        self.assertEqual(six.name, "McNemar's exact conditional test (binomial on the differing tasks)")
        # the issue's second-peak case: 19 vs 10 of 52 at --confidence 0.9012 printed "significant" beside an interval
        # of [-1.0, +34.4] points (p 0.09859 from an unconditional maximum that missed its second peak)
        test = gate.paired_test(table(19, 10, 52), 0.9012)
        self.assertEqual(test.p_value, float(exact_conditional(19, 10)))
        self.assertFalse(test.significant(1 - 0.9012))
        self.assertTrue(test.low < 0 < test.high)

    def test_when_no_split_can_reject_the_interval_is_never_narrower_than_the_normal_one(self) -> None:
        """Fewer than 6 differing tasks: no split reaches 5%, so the interval holds 0, at Tango's interval for the
        larger of √s and the normal quantile (one differing task gave [-0.0000, +0.0026], a 68% interval that said
        B cannot be better; none gave [-0.001, +0.001])."""
        z = z_of(0.95)
        for n in (40, 1001):
            for s in range(6):
                for b in range(s + 1):
                    with self.subTest(n=n, b=b, c=s - b):
                        test = gate.paired_test(table(b, s - b, n), 0.95)
                        low, high = tango_interval(b, s - b, n, 0.95, max(math.sqrt(s), z) * (1 + 1e-9))
                        self.assertAlmostEqual(test.low, low, delta=1e-9)
                        self.assertAlmostEqual(test.high, high, delta=1e-9)
                        normal_low, normal_high = tango_interval(b, s - b, n, 0.95, z)
                        self.assertLessEqual(test.low, normal_low + 1e-12)
                        self.assertGreaterEqual(test.high, normal_high - 1e-12)
                        self.assertTrue(test.low < 0 < test.high)

    def test_a_large_table_is_a_few_tails(self) -> None:
        """A million differing tasks: the critical value takes a few tail sums from the normal quantile's
        neighbourhood, not one per split (work counted, never timed), and its p is the continuity-corrected normal
        tail's to 1e-4."""
        with mock.patch.object(gate, "_conditional_tail", wraps=gate._conditional_tail) as tails:
            critical = gate.conditional_critical(1_000_001, 0.05)
            p = gate.exact_conditional_p(500_000 + 1000, 500_001 - 1000)
        self.assertLessEqual(tails.call_count, 6)
        self.assertAlmostEqual(critical, z_of(0.95), delta=2e-3)
        self.assertAlmostEqual(p, math.erfc(1998 / math.sqrt(1_000_001) / math.sqrt(2)), delta=1e-4 * p)

    def test_the_tails_of_the_last_64_counts_are_built_once(self) -> None:
        """The exact tails of a count of differing tasks are built once while it is among the last 64 counts used:
        p for 64 counts, then for the same 64 again (a second confidence, a second reading of one table) builds 64
        tails, not 128 (work counted). Every p still equals the oracle's."""
        gate._conditional_tails.cache_clear()
        for _ in range(2):
            for s in range(1, 65):
                self.assertAlmostEqual(gate.exact_conditional_p(s, 0), exact_conditional(s, 0), delta=1e-15)
        self.assertEqual(gate._conditional_tails.cache_info().misses, 64)


if __name__ == "__main__":
    unittest.main()
