"""compare's and rank's test on a task table: Suissa and Shuster's (1991) exact unconditional test, and Tango's
interval at its critical value, so that p, the interval and the reading agree at every number of tasks.

Every expected figure comes from tests/oracles.py (which enumerates the outcomes with integer binomial
coefficients), or from the issue's own figures (40 tasks: 5/0 gives p = 0.026, 4/0 gives 0.049).
"""

from __future__ import annotations

import math
import unittest
from fractions import Fraction

import gate
from tests.oracles import exact_conditional, exact_critical, exact_p, exact_unconditional, tango_interval, z_of


def grid_close(got: float, want: float) -> bool:
    """The oracle's grid maximum is below the true one by at most about 1e-4 of it; the gate refines its own."""
    return want - 1e-12 <= got + 1e-12 and got <= want * (1 + 2e-4) + 1e-12


class ExactUnconditionalTest(unittest.TestCase):
    def test_the_issues_figures(self) -> None:
        """40 tasks, 5 A-only and none B-only: p = 0.026; 4/0: 0.049 (the issue's independent computation)."""
        self.assertAlmostEqual(gate.exact_unconditional_p(5, 0, 40), 0.026, delta=5e-4)
        self.assertAlmostEqual(gate.exact_unconditional_p(4, 0, 40), 0.049, delta=5e-4)
        self.assertAlmostEqual(gate.exact_unconditional_p(0, 4, 40), gate.exact_unconditional_p(4, 0, 40), places=15)

    def test_every_outcome_against_the_oracle(self) -> None:
        """Every table of 6 and of 20 tasks, and every tenth of 40: the gate's p is the oracle's, never below it and at
        most its grid's error above."""
        for n, step in ((6, 1), (20, 1), (40, 10)):
            outcomes = [(b, c) for b in range(n + 1) for c in range(n + 1 - b)][::step]
            for b, c in outcomes:
                with self.subTest(n=n, b=b, c=c):
                    self.assertTrue(grid_close(gate.exact_unconditional_p(b, c, n), exact_p(b, c, n)),
                                    (gate.exact_unconditional_p(b, c, n), exact_p(b, c, n)))

    def test_the_critical_value_against_the_oracle(self) -> None:
        """The least |z| at which the test rejects, for 6, 12, 20 and 40 tasks at alpha 0.05 and 0.01 (just under it,
        by 1e-9); where no outcome rejects (6 tasks at 0.01) a value no outcome reaches."""
        for n in (6, 12, 20, 40):
            for alpha in (0.05, 0.01):
                with self.subTest(n=n, alpha=alpha):
                    got, want = gate.exact_critical(n, alpha), exact_critical(n, alpha)
                    if want is None:
                        self.assertGreater(got, math.sqrt(n))
                    else:
                        self.assertLess(got, want)
                        self.assertAlmostEqual(got, want, delta=1e-8 * want)
        self.assertIsNone(exact_critical(6, 0.01))

    def test_every_peak_of_the_nuisance_maximum_is_found(self) -> None:
        """Every achievable z² of 15, 18, 47, 53 and 59 tasks: the gate's p is never below the oracle's grid maximum
        (a lower bound of the true p), though the sum over ψ has several peaks there (old code refined only the
        grid's highest point: 19 vs 10 of 52 tasks gave p 0.09859 where the true p is 0.09891, so at
        --confidence 0.9012 it printed "significant" beside an interval holding 0)."""
        for n in (15, 18, 47, 53, 59):
            for level, want in exact_unconditional(n).items():
                with self.subTest(n=n, z2=level):
                    self.assertGreaterEqual(gate._exact_tail(n, level), want - 1e-12)
        self.assertGreaterEqual(gate.exact_unconditional_p(19, 10, 52), exact_p(19, 10, 52) - 1e-12)
        test = gate.paired_test(gate.PairedTable(19.0, 10.0, 52.0, 9 / 52, 29 / 52, 29), 0.9012)
        self.assertGreater(test.p_value, 0.0988)
        self.assertFalse(test.significant(29, 1 - 0.9012))
        self.assertTrue(test.low < 0 < test.high, test)

    def test_on_every_achievable_value_p_falls_and_the_critical_value_splits_it(self) -> None:
        """Every achievable z² of 2 to 40 tasks, at alpha 0.1, 0.0988, 0.05 and 0.01: p never rises as z² grows (a
        maximum of tails that each fall; old code: 4 rises), and p < alpha exactly at the values at or above the
        critical value, so the critical value's search cannot step over a value that does not reject."""
        for n in range(2, 41):
            levels = sorted({Fraction((b - c) ** 2, max(1, b + c)) for b in range(n + 1) for c in range(n + 1 - b)})
            ps = [gate._exact_tail(n, level) for level in levels]
            rises = [(levels[i], ps[i], ps[i + 1]) for i in range(len(ps) - 1) if ps[i + 1] > ps[i] + 1e-15]
            self.assertEqual(rises, [], n)
            for alpha in (0.1, 0.0988, 0.05, 0.01):
                critical = gate.exact_critical(n, alpha)
                split = [(level, p) for level, p in zip(levels, ps) if (p < alpha) != (math.sqrt(level) >= critical)]
                self.assertEqual(split, [], (n, alpha, critical))

    def test_p_the_interval_and_the_decision_agree_on_every_table(self) -> None:
        """On every table of 1 to 12 tasks at 90, 95 and 99%, and every table of 40 at 95%: p < alpha exactly when
        Tango's interval at the critical value excludes 0, and the interval holds the observed difference. (With
        the normal critical value, 4/0 of 6 tasks gives an interval above 0 while the exact p is 0.065.)"""
        cases = [(n, conf) for n in range(1, 13) for conf in (0.9, 0.95, 0.99)] + [(40, 0.95)]
        for n, conf in cases:
            for b in range(n + 1):
                for c in range(n + 1 - b):
                    table = gate.PairedTable(float(b), float(c), float(n), (b - c) / n, (b + c) / n, int(b + c > 0))
                    test = gate.paired_test(table, conf)
                    excludes = test.low > 0 or test.high < 0
                    self.assertEqual(test.p_value < 1 - conf, excludes, (n, b, c, conf, test))
                    self.assertEqual(test.significant(b + c, 1 - conf), excludes)
                    self.assertLessEqual(test.low, (b - c) / n + 1e-12)
                    self.assertGreaterEqual(test.high, (b - c) / n - 1e-12)
        low, _ = gate.tango_interval(4, 0, 6, 0.95)
        self.assertGreater(low, 0)  # the asymptotic interval would have called 4/0 of 6 a difference

    def test_above_the_size_limit_the_exact_conditional_test(self) -> None:
        """Past EXACT_MAX_TASKS tasks, while at most that many differ: McNemar's exact conditional test, its p the
        oracle's, and no floor: p < alpha exactly when the interval excludes 0 (5/0 of 1,001 tasks: p = 1/16, not
        significant; 6/0: 1/32, significant), where the floor used to say "not significant" beside p = 0.025."""
        n = gate.EXACT_MAX_TASKS + 1
        for b, c in [(b, c) for b in range(13) for c in range(13)] + [(27, 13), (300, 240), (700, 300)]:
            table = gate.PairedTable(float(b), float(c), float(n), (b - c) / n, (b + c) / n, b + c)
            test = gate.paired_test(table, 0.95)
            self.assertEqual((test.method, test.floor), ("mcnemar_exact_conditional", 1))
            self.assertAlmostEqual(test.p_value, float(exact_conditional(b, c)), places=14)
            excludes = test.low > 0 or test.high < 0
            self.assertEqual(test.p_value < 0.05, excludes, (b, c, test))
            self.assertEqual(test.significant(b + c, 0.05), excludes)
        five = gate.paired_test(gate.PairedTable(5.0, 0.0, float(n), 5 / n, 5 / n, 5), 0.95)
        six = gate.paired_test(gate.PairedTable(6.0, 0.0, float(n), 6 / n, 6 / n, 6), 0.95)
        self.assertEqual((five.p_value, six.p_value), (1 / 16, 1 / 32))
        self.assertEqual((five.significant(5, 0.05), six.significant(6, 0.05)), (False, True))
        self.assertEqual(six.name, "McNemar's exact conditional test (binomial on the differing tasks)")

    def test_when_no_split_can_reject_the_interval_is_never_narrower_than_the_normal_one(self) -> None:
        """Fewer than 6 differing tasks of 1,001: no split reaches 5%, so the interval holds 0, at Tango's interval
        for the larger of √s and the normal quantile (one differing task gave [-0.0000, +0.0026], a 68% interval
        that said B cannot be better; none gave [-0.001, +0.001])."""
        n, z = gate.EXACT_MAX_TASKS + 1, z_of(0.95)
        for s in range(6):
            for b in range(s + 1):
                with self.subTest(b=b, c=s - b):
                    test = gate.paired_test(gate.PairedTable(float(b), float(s - b), float(n), (2 * b - s) / n, s / n, s),
                                            0.95)
                    low, high = tango_interval(b, s - b, n, 0.95, max(math.sqrt(s), z) * (1 + 1e-9))
                    self.assertAlmostEqual(test.low, low, delta=1e-9)
                    self.assertAlmostEqual(test.high, high, delta=1e-9)
                    normal_low, normal_high = tango_interval(b, s - b, n, 0.95, z)
                    self.assertLessEqual(test.low, normal_low + 1e-12)
                    self.assertGreaterEqual(test.high, normal_high - 1e-12)
                    self.assertTrue(test.low < 0 < test.high)
        self.assertGreater(gate.exact_critical(3, 0.05), z)  # 3 tasks: the same rule on the exact test

    def test_past_the_differing_limit_the_asymptotic_test(self) -> None:
        """More than EXACT_MAX_TASKS differing tasks: McNemar's asymptotic test, p from the normal tail, the interval
        at the normal quantile, and no floor (fewest_differing) beside it."""
        n = 3000
        table = gate.PairedTable(600.0, 500.0, float(n), 100 / n, 1100 / n, 1100)
        test = gate.paired_test(table, 0.95)
        self.assertEqual((test.method, test.floor), ("mcnemar_asymptotic", 1))
        self.assertAlmostEqual(test.p_value, math.erfc(100 / math.sqrt(1100) / math.sqrt(2)), places=12)
        self.assertEqual((test.low, test.high), gate.tango_interval(600, 500, n, 0.95))
        self.assertAlmostEqual(test.p_value, float(exact_conditional(600, 500)), delta=3e-4)
        exact = gate.paired_test(gate.PairedTable(5.0, 0.0, 40.0, 0.125, 0.125, 5), 0.95)
        self.assertTrue(exact.significant(5, 0.05))
        self.assertEqual(exact.name, "the exact unconditional test (Suissa & Shuster 1991)")

    def test_the_oracle_is_a_distribution(self) -> None:
        """The oracle's own sanity: at z² = 0 the p-value is 1, and p never rises with z²."""
        table = exact_unconditional(12)
        levels = sorted(table)
        self.assertEqual(table[levels[0]], 1.0)
        self.assertTrue(all(table[a] >= table[b] for a, b in zip(levels, levels[1:])))

    def test_a_suite_at_the_size_limit_is_quick(self) -> None:
        """The critical value and one p at EXACT_MAX_TASKS tasks take a few maximisations over the nuisance
        parameter (22 here, fewer where earlier tests filled the caches), not one per table of the 10^6: work
        counted, never timed."""
        from unittest import mock
        with mock.patch.object(gate, "_largest_over_discordance",
                               wraps=gate._largest_over_discordance) as maximised:
            gate.exact_critical(gate.EXACT_MAX_TASKS, 0.05)
            gate.exact_unconditional_p(30, 12, gate.EXACT_MAX_TASKS)
        self.assertLessEqual(maximised.call_count, 100)


if __name__ == "__main__":
    unittest.main()
