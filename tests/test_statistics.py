"""The statistics, against reference values and independent formulas: the Wilson interval and pass@k (reference
values copied in literally with their source: statsmodels 0.15.0, Newcombe 1998 Table I, the human-eval
estimator), and in the classes named *AgainstReference the statistics core (quantiles, tails, Tango, Cochran's Q, Holm, the
Kish effective sizes, Connor's difference, the plan, Piepho's letters) against tests/reference/stat_vectors_v2.json
(mpmath at 50 digits, scipy, statsmodels) and against closed forms written out below.
"""

from __future__ import annotations

import math
import random
import unittest
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from statistics import NormalDist, StatisticsError
from typing import Any, ClassVar

import gate
from tests.builders import valid_ledger
from tests.oracles import (
    detectable_misses,
    exact_pass_at_k,
    wilson,
    wilson_z,
    z_of,
)
from tests.support import ROOT, GateCase, load

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


def normal_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z (the asymptotic McNemar p the reference rows record)."""
    return math.erfc(abs(z) / math.sqrt(2))


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

    def test_more_passes_than_tasks_is_the_interval_at_one(self) -> None:
        """More passes than tasks (a ledger that does not balance, a finding of its own) reads as a rate of 1: the
        upper bound is 1.0 at every confidence wilson takes, down to one whose z² underflows to 0, where the
        interval is [1, 1] (the upper root of a rate of 1 is never computed: at z = 0 it is 0/0)."""
        for confidence in (0.999, 0.95, 0.5, 1e-170):
            with self.subTest(confidence=confidence):
                self.assertEqual(gate.wilson(4, 3, confidence)[1], 1.0)
        self.assertEqual(gate.wilson(4, 3, 1e-170), (1.0, 1.0))

    def test_run_check_defaults_to_95_percent(self) -> None:
        """run_check without a confidence level reports the 95% Wilson interval."""
        manifest, records = valid_ledger()
        m, r = self.write_json("m.json", manifest), self.write_jsonl("r.jsonl", records)
        report = gate.report_json(gate.run_check(gate.ClaimFiles(m, r)))
        self.assertEqual(report["headline"]["ci_low"], gate.wilson(29, 40, 0.95)[0])
        self.assertEqual(report["headline"]["ci_high"], gate.wilson(29, 40, 0.95)[1])


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


class WilsonCoverageNearTheBoundary(GateCase):
    def test_the_minimum_coverage_docs_state_is_the_one_enumeration_finds(self) -> None:
        """Just below the lower end of 1/40's 95% interval (the oracle's), only k = 0's interval holds the true
        rate: coverage (1 − p)^40 = 0.837, far under 95%, as docs/statistics.md states (it said Wilson keeps its
        coverage near 0 and 1). The gate's interval ends are the oracle's, so the gate's coverage is this."""
        n = 40
        p = wilson(1, n)[0] * (1 - 1e-9)
        self.assertAlmostEqual(gate.wilson(1, n, 0.95)[0], wilson(1, n)[0], places=12)
        coverage = math.fsum(math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)
                             if wilson(k, n)[0] <= p <= wilson(k, n)[1])
        self.assertAlmostEqual(coverage, (1 - p) ** n, places=12)
        self.assertAlmostEqual(coverage, 0.837, delta=5e-4)
        docs = (ROOT / "docs" / "statistics.md").read_text(encoding="utf-8")
        self.assertIn("0.837–0.838 at 95%", docs)
        self.assertIn("| 40 | 0.799 (0.224) | 0.837 (0.177) | 0.889 (0.118) |", docs)


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


# ---------------------------------------------------------------------------------------------------------------
# The statistics core (normal and t quantiles, t and chi-square tails, Wilson at the extremes, Tango and McNemar,
# Cochran's Q, Holm, the Kish effective sizes, samples mode, Connor's detectable difference, the plan, Piepho's
# letters) against tests/reference/stat_vectors_v2.json: mpmath at 50 digits, scipy 1.17.1, statsmodels 0.15.0.
#
# Tolerance, unless a test says otherwise: relative 1e-9 with no absolute slack, |got - want| <= 1e-9 |want|
# (math.isclose(rel_tol=1e-9, abs_tol=0)), so a p-value of 1e-302 is held to its own scale and a reference of 0
# must be met exactly; an interval's end that the reference gives as exactly 0, 1 or -1 must be that float.
# ---------------------------------------------------------------------------------------------------------------

V2_VECTORS = Path(__file__).resolve().parent / "reference" / "stat_vectors_v2.json"
REL = 1e-9


def v2_block(name: str) -> dict[str, Any]:
    """One block of the v2 reference vectors."""
    block: dict[str, Any] = load(V2_VECTORS)[name]
    return block


def chi2_sf_closed(x: float, df: int) -> float:
    """P(X > x) for chi-square df in closed form: e^(-x/2) sum_{i<df/2} (x/2)^i / i! for even df (the Poisson
    tail), erfc(sqrt(x/2)) + e^(-x/2) sum_{j<(df-1)/2} (x/2)^(j+1/2) / Gamma(j+3/2) for odd df."""
    h = x / 2
    if df % 2 == 0:
        terms, term = [], 1.0
        for i in range(df // 2):
            terms.append(term)
            term *= h / (i + 1)
        return math.exp(-h) * math.fsum(terms)
    terms, term = [math.erfc(math.sqrt(h))], math.sqrt(h) * math.exp(-h) / math.gamma(1.5)
    for j in range((df - 1) // 2):
        terms.append(term)
        term *= h / (j + 1.5)
    return math.fsum(terms)


def t_two_sided_closed(confidence: float, df: int) -> float:
    """The two-sided t quantile in closed form, from the exact tail q = 1 - c (exact in binary for c >= 1/2):
    df = 1, t = tan(pi c/2) = cot(pi q/2); df = 2, P(|T| <= t) = t / sqrt(2 + t^2), t = c sqrt(2 / ((1 - c)(1 + c)))."""
    if df == 1:
        return math.tan(math.pi * confidence / 2) if confidence < 0.5 else 1 / math.tan(math.pi * (1 - confidence) / 2)
    if df == 2:
        return confidence * math.sqrt(2 / ((1 - confidence) * (1 + confidence)))
    raise ValueError(df)


def t_tail_closed(t: float, df: int) -> float:
    """P(|T| > t) in closed form: df = 1, (2/pi) atan(1/t); df = 2, 1 - t/sqrt(2 + t^2) = 2 / (s (s + t)), s = sqrt(2 + t^2)."""
    if df == 1:
        return 2 / math.pi * math.atan(1 / t)
    if df == 2:
        s = math.sqrt(2 + t * t)
        return 2 / (s * (s + t))
    raise ValueError(df)


def cochran_q_fraction(rows: list[list[Fraction]]) -> Fraction:
    """Cochran's Q in exact arithmetic on a tasks x systems matrix, in its randomized-block form
    (k - 1) sum_j (C_j - C/k)^2 / sum_{t,j} (x_tj - R_t/k)^2, which on 0/1 data is Cochran's
    (k - 1)(k sum C_j^2 - N^2)/(k N - sum R_t^2); 0 when every task's systems agree."""
    k = len(rows[0])
    cols = [sum((r[j] for r in rows), Fraction(0)) for j in range(k)]
    mean_col = sum(cols, Fraction(0)) / k
    within = sum((sum(((x - sum(r, Fraction(0)) / k) ** 2 for x in r), Fraction(0)) for r in rows), Fraction(0))
    if within == 0:
        return Fraction(0)
    return (k - 1) * sum(((c - mean_col) ** 2 for c in cols), Fraction(0)) / within


def maximal_cliques(systems: list[int], separated: set[tuple[int, int]]) -> set[frozenset[int]]:
    """Every maximal set of systems no two of which are separated, by brute force over all subsets."""
    apart = {frozenset(p) for p in separated}
    together = [frozenset(s) for size in range(1, len(systems) + 1) for s in combinations(systems, size)
                if not any(frozenset(p) in apart for p in combinations(s, 2))]
    return {s for s in together if not any(s < other for other in together)}


class ReferenceCase(GateCase):
    """A test case reading one block of the reference vectors (stat_vectors_v2.json), once for the class."""

    BLOCK: ClassVar[str]
    block: ClassVar[dict[str, Any]]

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.block = v2_block(cls.BLOCK)

    def assertRel(self, got: float, want: Any, rel: float = REL) -> None:
        """|got - want| <= rel |want|, no absolute slack."""
        expected = float(want)
        error = abs(got - expected) / abs(expected) if expected else math.inf
        self.assertTrue(math.isclose(got, expected, rel_tol=rel, abs_tol=0.0),
                        f"got {got!r}, want {expected!r} (relative error {error:.3g})")

    def assertBound(self, got: float, want: Any) -> None:
        """An interval's end: exactly the float when the reference is 0, 1 or -1, else relative 1e-9."""
        expected = float(want)
        if expected in (0.0, 1.0, -1.0):
            self.assertEqual(got, expected)
        else:
            self.assertRel(got, expected)


class NormalQuantileAgainstReference(ReferenceCase):
    """z_for and normal_quantile against mpmath (block normal_quantile), and their refusals."""

    BLOCK = "normal_quantile"

    def test_z_for_matches_mpmath_from_1e_10_to_next_to_1(self) -> None:
        """z_for(c) = mpmath's z with P(|Z| <= z) = c to relative 1e-9, for all 20 confidences from 1e-10 (z ~ 1.25e-10)
        to 0.999999999999 and 0.9999999999999999, where 0.5 + c/2 rounds to 1."""
        self.assertEqual(len(self.block["rows"]), 20)
        for row in self.block["rows"]:
            with self.subTest(confidence=row["confidence"]):
                self.assertRel(gate.z_for(row["confidence"]), row["z"])

    def test_the_extreme_rows_defeat_the_naive_inverse(self) -> None:
        """The rows can tell: NormalDist().inv_cdf(0.5 + c/2) misses the reference by more than 1e-9 relative at
        c = 1e-10 and 0.999999999999, and fails outright at 0.9999999999999999."""
        rows = {row["confidence"]: row for row in self.block["rows"]}
        for c in (1e-10, 0.999999999999):
            naive = NormalDist().inv_cdf(0.5 + c / 2)
            self.assertFalse(math.isclose(naive, float(rows[c]["z"]), rel_tol=REL), c)
        with self.assertRaises(StatisticsError):
            NormalDist().inv_cdf(0.5 + 0.9999999999999999 / 2)

    def test_normal_quantile_upper_tails_down_to_1e_300(self) -> None:
        """-normal_quantile(q) = mpmath's z with P(Z > z) = q to relative 1e-9, for q from 1e-300 (z = 37.047) to 0.49999."""
        self.assertEqual(len(self.block["tail_rows"]), 14)
        for row in self.block["tail_rows"]:
            with self.subTest(q=row["q"]):
                self.assertRel(-gate.normal_quantile(row["q"]), row["z"])
                self.assertRel(gate.normal_quantile(row["q"]), -float(row["z"]))

    def test_out_of_range_is_refused(self) -> None:
        """z_for refuses confidences 0, 1, outside (0, 1) and NaN; normal_quantile refuses 0 and 1; t_for refuses df <= 0."""
        for c in (0.0, 1.0, -0.5, 1.5, math.nan, math.inf):
            with self.subTest(confidence=c), self.assertRaises(ValueError):
                gate.z_for(c)
        for p in (0.0, 1.0, -1e-300, 1.0000000000000002):
            with self.subTest(p=p), self.assertRaises(ValueError):
                gate.normal_quantile(p)
        for df in (0.0, -1.0, math.nan):
            with self.subTest(df=df), self.assertRaises(ValueError):
                gate.t_for(0.95, df)


class ConfidenceOnTheCommandLine(ReferenceCase):
    """--confidence next to 1 reaches the interval with the right z; values that round to 0 or 1 are refused."""

    BLOCK = "normal_quantile"

    def test_confidence_next_to_one_gives_the_tail_z(self) -> None:
        """`check --confidence 0.9999999999999999` (and 0.999999999999) reports 29/40's Wilson interval at mpmath's z
        (8.2924 and 7.1305), to relative 1e-9: the command line reaches z_for's exact tail."""
        rows = {row["confidence"]: row for row in self.block["rows"]}
        manifest, records = valid_ledger()
        for text in ("0.9999999999999999", "0.999999999999"):
            with self.subTest(confidence=text):
                _, report = self.check_json(manifest, records, "--confidence", text)
                low, high = wilson_z(29, 40, float(rows[float(text)]["z"]))
                self.assertRel(report["headline"]["ci_low"], low)
                self.assertRel(report["headline"]["ci_high"], high)

    def test_confidence_that_rounds_to_0_or_1_is_refused(self) -> None:
        """Texts that parse to 0.0, 1.0 or beyond (1e-400, 0.99999999999999999, -0, inf, -inf) are a usage error naming
        --confidence (exit 2, one line), never an infinite z."""
        manifest, records = valid_ledger()
        for text in ("1e-400", "0.99999999999999999", "-0", "inf", "-inf"):
            with self.subTest(confidence=text):
                self.assertInputError(self.check(manifest, records, "--confidence", text), "--confidence")


class StudentQuantileAgainstReference(ReferenceCase):
    """t_for against mpmath (block t_quantile) and the closed forms at df = 1 and 2."""

    BLOCK = "t_quantile"

    def test_t_for_matches_mpmath(self) -> None:
        """t_for(c, df) = mpmath's two-sided t to relative 1e-9 on all 67 rows: df 1, 2, 3, 5, 11, 39, 100, 1000 at
        c = 0.1 .. 0.999999999999 (t up to 6.4e11 at df = 1), and fractional df 2.5, 7.3, 38.9."""
        self.assertEqual(len(self.block["rows"]), 67)
        for row in self.block["rows"]:
            with self.subTest(df=row["df"], confidence=row["confidence"]):
                self.assertRel(gate.t_for(row["confidence"], row["df"]), row["t"])

    def test_t_for_matches_the_closed_forms_at_df_1_and_2(self) -> None:
        """t_for(c, 1) = cot(pi (1 - c)/2) and t_for(c, 2) = c sqrt(2/((1 - c)(1 + c))) to relative 1e-9, for c from 0.01
        to 0.9999999999999999 (t = 5.7e15 at df = 1)."""
        for c in (0.01, 0.1, 0.25, 0.5, 0.8, 0.9, 0.95, 0.99, 0.999, 0.999999, 0.999999999999, 0.9999999999999999):
            for df in (1, 2):
                with self.subTest(confidence=c, df=df):
                    self.assertRel(gate.t_for(c, df), t_two_sided_closed(c, df))

    def test_t_for_approaches_z_for(self) -> None:
        """t_for exceeds z_for at every finite df and meets it, to relative 1e-9, from df = 1e8 on."""
        for c in (0.5, 0.95, 0.999999):
            with self.subTest(confidence=c):
                self.assertGreater(gate.t_for(c, 1e6), gate.z_for(c))
                self.assertRel(gate.t_for(c, 1e8), gate.z_for(c))


class StudentTailAgainstReference(ReferenceCase):
    """_t_tail, the two-sided t tail P(|T| > t), against mpmath (block t_sf: P(T > t), so two-sided = 2 sf for t >= 0
    and 2 (1 - sf) for t < 0)."""

    BLOCK = "t_sf"

    def two_sided(self, row: dict[str, Any]) -> float:
        sf = Decimal(row["sf"])
        return float(2 * sf if row["t"] >= 0 else 2 * (1 - sf))

    def test_t_tail_matches_mpmath(self) -> None:
        """_t_tail(|t|, df) matches mpmath's tail to relative 1e-9 at df 1, 2, 5, 39, 100 and t from 1e-8 to 1e4, down to
        P = 8e-302 (df 100, t 1e4), and at t = 1e-8 too, where df/(df + t²) rounds to 1."""
        rows = self.block["rows"]
        self.assertEqual(len(rows), 45)
        for row in rows:
            with self.subTest(df=row["df"], t=row["t"]):
                self.assertRel(gate._t_tail(abs(row["t"]), row["df"]), self.two_sided(row))

    def test_t_tail_matches_the_closed_forms_at_df_1_and_2(self) -> None:
        """_t_tail(t, 1) = (2/pi) atan(1/t) and _t_tail(t, 2) = 1 - t/sqrt(2 + t^2) to relative 1e-9, t from 1e-3 to 1e6."""
        for t in (1e-3, 0.1, 0.5, 1.0, 2.0, 4.5, 12.7, 30.0, 1e3, 1e6):
            for df in (1, 2):
                with self.subTest(t=t, df=df):
                    self.assertRel(gate._t_tail(t, df), t_tail_closed(t, df))


class ChiSquareAgainstReference(ReferenceCase):
    """chi2_sf against mpmath (block chi2_sf) and the closed forms."""

    BLOCK = "chi2_sf"

    def test_chi2_sf_matches_mpmath(self) -> None:
        """chi2_sf(x, df) matches mpmath's regularized upper gamma to relative 1e-9 on all 70 rows, df 1 to 99, x 0.01 to
        700 (P down to 3e-154)."""
        self.assertEqual(len(self.block["rows"]), 70)
        for row in self.block["rows"]:
            with self.subTest(df=row["df"], x=row["x"]):
                self.assertRel(gate.chi2_sf(row["x"], row["df"]), row["sf"])

    def test_chi2_sf_matches_the_closed_forms(self) -> None:
        """chi2_sf equals the Poisson sum (even df) and the erfc series (odd df) to relative 1e-9 for df 1 to 6, 10, 11,
        24, 25, 99, 100 and x from 0.01 to 700, both sides of the series/continued-fraction switch at x/2 = df/2 + 1."""
        for df in (1, 2, 3, 4, 5, 6, 10, 11, 24, 25, 99, 100):
            for x in (0.01, 0.5, 1.0, 2.0, 3.84, 10.0, 24.0, 50.0, 100.0, 102.0, 300.0, 700.0):
                with self.subTest(df=df, x=x):
                    self.assertRel(gate.chi2_sf(x, df), chi2_sf_closed(x, df))

    def test_nonpositive_x_is_certain(self) -> None:
        """chi2_sf(x <= 0) is exactly 1."""
        self.assertEqual(gate.chi2_sf(0.0, 3), 1.0)
        self.assertEqual(gate.chi2_sf(-1.0, 1), 1.0)


class WilsonExtremesAgainstReference(ReferenceCase):
    """wilson and wilson_p at the extremes against mpmath's closed-form roots (block wilson_extreme)."""

    BLOCK = "wilson_extreme"

    def test_wilson_matches_mpmath_roots(self) -> None:
        """wilson(k, n, c) matches mpmath's roots to relative 1e-9, k in {0, 1, n-1, n}, n 1 to 1000, c 0.95 and
        0.999999999999 (lower 1.9e-5 at 1/1000), with exactly 0 at k = 0 and exactly 1 at k = n."""
        self.assertEqual(len(self.block["rows"]), 28)
        for row in self.block["rows"]:
            with self.subTest(k=row["k"], n=row["n"], confidence=row["confidence"]):
                low, high = gate.wilson(row["k"], row["n"], row["confidence"])
                self.assertBound(low, row["lower"])
                self.assertBound(high, row["upper"])

    def test_wilson_p_matches_mpmath_roots(self) -> None:
        """wilson_p(k/n, n, c), the real-n form the effective sizes use, matches the same roots to relative 1e-9."""
        for row in self.block["rows"]:
            with self.subTest(k=row["k"], n=row["n"], confidence=row["confidence"]):
                low, high = gate.wilson_p(row["k"] / row["n"], row["n"], row["confidence"])
                self.assertBound(low, row["lower"])
                self.assertBound(high, row["upper"])


class TangoAgainstReference(ReferenceCase):
    """tango_interval, tango_z and mcnemar_z against mpmath (block tango; a both pass, b A only, c B only, d neither)."""

    BLOCK = "tango"

    def test_tango_interval_matches_mpmath(self) -> None:
        """tango_interval(b, c, n, conf) matches mpmath's Tango (1998) score interval to relative 1e-9 on all 24 tables,
        from 0/0/0/1 to 300/40/25/135, at 95% and 90%, with exactly -1 at c = n and exactly 1 at b = n."""
        self.assertEqual(len(self.block["rows"]), 24)
        for row in self.block["rows"]:
            with self.subTest(table=(row["a"], row["b"], row["c"], row["d"]), confidence=row["confidence"]):
                low, high = gate.tango_interval(row["b"], row["c"], row["n"], row["confidence"])
                self.assertBound(low, row["tango_lower"])
                self.assertBound(high, row["tango_upper"])

    def test_tango_matches_the_published_intervals(self) -> None:
        """Where the block marks a published interval as matching (Fagerland et al. 2014, Tango 1998, Agresti & Min 2005),
        tango_interval agrees with it to its printed decimals."""
        published = [row for row in self.block["rows"] if row.get("published", {}).get("match")]
        self.assertEqual(len(published), 5)
        for row in published:
            with self.subTest(table=(row["a"], row["b"], row["c"], row["d"]), confidence=row["confidence"]):
                got = gate.tango_interval(row["b"], row["c"], row["n"], row["confidence"])
                for value, printed in zip(got, row["published"]["value"]):
                    decimals = -int(Decimal(repr(printed)).as_tuple().exponent)
                    self.assertLessEqual(abs(value - printed), 0.5 * 10.0**-decimals + 1e-12, (value, printed))

    def test_mcnemar_z_and_its_p_value(self) -> None:
        """mcnemar_z(b, c) = (b - c)/sqrt(b + c) to 1e-12, tango_z at delta = 0 equals it, and its two-sided normal p matches
        mpmath's asymptotic McNemar p to relative 1e-9 (3.1e-22 at 97 against 1)."""
        for row in self.block["rows"]:
            with self.subTest(table=(row["a"], row["b"], row["c"], row["d"])):
                z = gate.mcnemar_z(row["b"], row["c"])
                self.assertAlmostEqual(z, row["z0_mcnemar"], delta=1e-12)
                self.assertAlmostEqual(gate.tango_z(row["b"], row["c"], row["n"], 0.0), z, delta=1e-12)
                self.assertRel(normal_p(z), row["p_asymptotic"])

    def test_interval_excludes_zero_exactly_when_mcnemar_rejects(self) -> None:
        """The interval excludes 0 exactly on the tables where |z| > z_for(conf), as the block records for each."""
        for row in self.block["rows"]:
            with self.subTest(table=(row["a"], row["b"], row["c"], row["d"]), confidence=row["confidence"]):
                low, high = gate.tango_interval(row["b"], row["c"], row["n"], row["confidence"])
                rejects = abs(gate.mcnemar_z(row["b"], row["c"])) > gate.z_for(row["confidence"])
                self.assertEqual(rejects, row["reject_at_conf"])
                self.assertEqual(low > 0 or high < 0, row["interval_excludes_0"])
                self.assertEqual(low > 0 or high < 0, rejects)

    def test_swapping_the_systems_negates_the_interval(self) -> None:
        """tango_interval(c, b) = -tango_interval(b, c) reversed, to 1e-12, on every table of the block."""
        for row in self.block["rows"]:
            with self.subTest(table=(row["a"], row["b"], row["c"], row["d"])):
                low, high = gate.tango_interval(row["b"], row["c"], row["n"], row["confidence"])
                low2, high2 = gate.tango_interval(row["c"], row["b"], row["n"], row["confidence"])
                self.assertAlmostEqual(low, -high2, delta=1e-12)
                self.assertAlmostEqual(high, -low2, delta=1e-12)


class CochranQAgainstReference(ReferenceCase):
    """cochran_q against exact fractions, statsmodels and mpmath (block cochran_q), and against Q written out in Fractions."""

    BLOCK = "cochran_q"

    def test_cochran_q_matches_the_reference(self) -> None:
        """cochran_q on the five 0/1 matrices (tasks x systems, handed over as columns) gives Q = the exact fraction to
        relative 1e-9, df = k - 1 and p = mpmath's chi-square tail to relative 1e-9; all-agreeing tasks give (0, 2, 1)."""
        rows = [row for row in self.block["rows"] if "matrix_rows_tasks_cols_systems" in row]
        self.assertEqual(len(rows), 5)
        for row in rows:
            with self.subTest(name=row["name"]):
                matrix = row["matrix_rows_tasks_cols_systems"]
                columns = [[float(r[j]) for r in matrix] for j in range(len(matrix[0]))]
                q, df, p = gate.cochran_q(columns)
                self.assertRel(q, Fraction(row["Q_exact_fraction"]))
                self.assertEqual(df, row["df"])
                self.assertRel(p, row["p"])

    def test_randomized_block_q_on_per_task_means(self) -> None:
        """On samples mode's per-task means (m = 4) cochran_q takes the randomized-block form: Q_gen = 6 exactly as in the
        reference's fractions, p = e^-3 to relative 1e-9."""
        row = next(row for row in self.block["rows"] if row["name"] == "samples_mode_Q_gen_m4")
        means = [[Fraction(v) for v in r] for r in row["per_task_means"]]
        columns = [[float(r[j]) for r in means] for j in range(3)]
        q, df, p = gate.cochran_q(columns)
        self.assertRel(q, Fraction(row["Q_gen_exact_fraction"]))
        self.assertEqual(df, 2)
        self.assertRel(p, row["p"])
        self.assertRel(p, math.exp(-3.0))

    def test_no_tasks_is_no_evidence_on_k_minus_1_degrees_of_freedom(self) -> None:
        """k systems over no task: Q = 0, p = 1, and the degrees of freedom are still k - 1."""
        for k in range(2, 7):
            self.assertEqual(gate.cochran_q([[] for _ in range(k)]), (0.0, k - 1, 1.0))

    def test_cochran_q_equals_its_formula_in_fractions(self) -> None:
        """On every 0/1 matrix of 3 tasks x 3 systems (512), 200 seeded random 0/1 and quarter-valued matrices of 2 to 8
        tasks x 2 to 4 systems, and 20 whose every task has one mean for all systems, cochran_q's Q equals the formula in
        exact fractions to relative 1e-12 and its p equals the closed-form chi-square tail to relative 1e-9 (1 where Q is
        0)."""
        matrices: list[list[list[Fraction]]] = []
        for bits in range(512):
            matrices.append([[Fraction((bits >> (3 * t + j)) & 1) for j in range(3)] for t in range(3)])
        rnd = random.Random(20240521)
        for i in range(200):
            tasks, k = rnd.randint(2, 8), rnd.randint(2, 4)
            denominator = 1 if i % 2 else 4
            matrices.append([[Fraction(rnd.randint(0, denominator), denominator) for _ in range(k)] for _ in range(tasks)])
        # every task's systems agree on a per-task mean (samples mode): nothing within a task to compare, Q = 0, p = 1
        for _ in range(20):
            tasks, k = rnd.randint(1, 6), rnd.randint(2, 4)
            means = [Fraction(rnd.randint(0, 4), 4) for _ in range(tasks)] + [Fraction(1, 4)]
            matrices.append([[mean] * k for mean in means])
        for matrix in matrices:
            k = len(matrix[0])
            q, df, p = gate.cochran_q([[float(r[j]) for r in matrix] for j in range(k)])
            expected = cochran_q_fraction(matrix)
            self.assertEqual(df, k - 1)
            if expected == 0:
                self.assertAlmostEqual(q, 0.0, delta=1e-12, msg=matrix)
                self.assertEqual(p, 1.0, matrix)
                continue
            self.assertTrue(math.isclose(q, float(expected), rel_tol=1e-12, abs_tol=0.0), (matrix, q, expected))
            self.assertRel(p, chi2_sf_closed(float(expected), k - 1))


class HolmAgainstReference(ReferenceCase):
    """holm against statsmodels (block holm) and against Holm's definition."""

    BLOCK = "holm"

    def test_holm_matches_statsmodels(self) -> None:
        """holm(p) equals statsmodels' multipletests(method='holm') to relative 1e-9 on the five vectors (ties, 1e-8, a
        cap at 1 not reached), in the input's order, and rejects at 0.05 where it does."""
        self.assertEqual(len(self.block["rows"]), 5)
        for row in self.block["rows"]:
            with self.subTest(p=row["p"]):
                adjusted = gate.holm(row["p"])
                self.assertEqual(len(adjusted), len(row["p"]))
                for got, want in zip(adjusted, row["holm_adjusted"]):
                    self.assertRel(got, want)
                self.assertEqual([a <= 0.05 for a in adjusted], row["reject_0.05"])

    def test_holm_by_its_definition(self) -> None:
        """On 300 seeded random vectors of 1 to 12 p-values (with ties and 1s), holm's p_i equals
        min(1, max over p_j <= p_i of (m - #{p < p_j}) p_j) to relative 1e-12, and its rejections at alpha in
        {0.01, 0.05, 0.2} are exactly the step-down test's: sorted, reject while p_(r) <= alpha/(m - r)."""
        rnd = random.Random(1979)
        for _ in range(300):
            m = rnd.randint(1, 12)
            ps = [rnd.choice((rnd.random(), rnd.random() * 1e-3, 0.01, 0.02, 1.0)) for _ in range(m)]
            adjusted = gate.holm(ps)
            for i, p_i in enumerate(ps):
                expected = min(1.0, max((m - sum(q < p_j for q in ps)) * p_j for p_j in ps if p_j <= p_i))
                self.assertTrue(math.isclose(adjusted[i], expected, rel_tol=1e-12), (ps, i, adjusted[i], expected))
            for alpha in (0.01, 0.05, 0.2):
                rejected: set[int] = set()
                for rank, index in enumerate(sorted(range(m), key=ps.__getitem__)):
                    if ps[index] > alpha / (m - rank):
                        break
                    rejected.add(index)
                self.assertEqual({i for i in range(m) if adjusted[i] <= alpha}, rejected, (ps, alpha))

    def test_holm_is_monotone_in_the_raw_order(self) -> None:
        """A smaller raw p-value never gets a larger adjusted one, and no adjusted value is below its raw value."""
        ps = [0.04, 0.041, 0.2, 0.9, 1e-8, 0.0125, 0.04]
        adjusted = gate.holm(ps)
        for i, j in combinations(range(len(ps)), 2):
            if ps[i] <= ps[j]:
                self.assertLessEqual(adjusted[i], adjusted[j])
            if ps[j] <= ps[i]:
                self.assertLessEqual(adjusted[j], adjusted[i])
        self.assertTrue(all(a >= p for a, p in zip(adjusted, ps)))


# Per-repository resolved counts of SWE-bench Verified's 372/500 entry (Claude 4.5 Opus medium (20251101)), from the
# data the v2 vectors were generated from (shared/realdata/swebench/verified-bash-only.json); the block records the
# repository sizes, p and the cluster variance but not these, and ClusteredAgainstReference checks they reproduce all three.
SWEBENCH_372_BY_REPO = {
    "astropy__astropy": (11, 22), "django__django": (182, 231), "matplotlib__matplotlib": (25, 34),
    "mwaskom__seaborn": (1, 2), "pallets__flask": (1, 1), "psf__requests": (4, 8), "pydata__xarray": (18, 22),
    "pylint-dev__pylint": (1, 10), "pytest-dev__pytest": (15, 19), "scikit-learn__scikit-learn": (28, 32),
    "sphinx-doc__sphinx": (32, 44), "sympy__sympy": (54, 75),
}


class ClusteredAgainstReference(ReferenceCase):
    """effective_size and clustered_rate against the recommended interval (block cluster): CR1 variance, n_eff clamped to
    [G_eff, N], n* = n_eff (t_{N-1}/t_df)^2 with df = max(1, G_eff - 1), Wilson on n*."""

    BLOCK = "cluster"

    @staticmethod
    def by_cluster(scores: list[int], clusters: list[Any]) -> tuple[list[Fraction], list[int]]:
        groups: dict[str, list[int]] = {}
        for score, cluster in zip(scores, clusters):
            groups.setdefault(str(cluster), []).append(score)
        return [Fraction(sum(v)) for v in groups.values()], [len(v) for v in groups.values()]

    def assertRecommended(self, sums: list[Fraction], sizes: list[int], rec: dict[str, Any]) -> None:
        design = gate.effective_size(gate.Clusters(sums, sizes, [1] * len(sums)), 0.95)
        self.assertEqual((design.units, design.clusters), (rec["N"], rec["G"]))
        self.assertRel(design.mean, rec["p"])
        self.assertRel(design.effective, rec["n_star"])
        rate = gate.clustered_rate(gate.Clusters(sums, sizes, [1] * len(sums)), Fraction(sum(sums)), rec["N"], 0.95,
                                   "wilson-kish")
        self.assertEqual((rate.k, rate.n, rate.method), (sum(sums), rec["N"], "wilson-kish"))
        self.assertRel(rate.low, rec["lower"])
        self.assertRel(rate.high, rec["upper"])

    def test_recommended_interval_on_the_small_clusterings(self) -> None:
        """On the three small clusterings (2 clusters with df clamped to 1, 4 equal repos, 5 unequal clusters with
        G_eff = 4.09 and n_eff clamped to N) n* and the interval match mpmath to relative 1e-9."""
        self.assertEqual(len(self.block["rows"]), 3)
        for row in self.block["rows"]:
            with self.subTest(name=row["name"]):
                sums, sizes = self.by_cluster(row["scores"], row["clusters"])
                self.assertRecommended(sums, sizes, row["recommended_interval_0.95"])

    def test_swebench_verified_372_by_repository(self) -> None:
        """SWE-bench Verified's 372/500 clustered by its 12 repositories: G_eff = 3.87, df = G_eff - 1 = 2.87 (not G - 1),
        n* = 78.218 and the interval [0.63746, 0.82769] match mpmath to relative 1e-9; the df = G - 1 alternative
        (n* = 172.19) is not what the gate computes."""
        swe = self.block["swebench_verified_372"]
        rec = swe["recommended_kish_cr1_kgE_0.95"]
        self.assertEqual({repo: n for repo, (_, n) in SWEBENCH_372_BY_REPO.items()}, swe["repo_sizes"])
        sums = [Fraction(s) for s, _ in SWEBENCH_372_BY_REPO.values()]
        sizes = [n for _, n in SWEBENCH_372_BY_REPO.values()]
        p = Fraction(swe["resolved"], swe["N"])
        self.assertEqual(sum(sums), swe["resolved"])
        self.assertRel(float(sum((s - n * p) ** 2 for s, n in zip(sums, sizes)) / swe["N"] ** 2), rec["var_cluster_miller"], 1e-12)
        self.assertRecommended(sums, sizes, rec)
        alternative = swe["alternative_kish_cr1_kg_df_G_minus_1_0.95"]["n_star"]
        self.assertGreater(abs(gate.effective_size(gate.Clusters(sums, sizes, [1] * 12), 0.95).effective - alternative), 1.0)

    def test_weights_count_identical_clusters(self) -> None:
        """Weights stand for repeated clusters: the four repos of repos12 each listed twice equal them once with weight 2
        (to 1e-12), and both differ from the single copy's n*, so the weights are not ignored."""
        row = next(r for r in self.block["rows"] if r["name"] == "repos12")
        sums, sizes = self.by_cluster(row["scores"], row["clusters"])
        twice = gate.effective_size(gate.Clusters(sums * 2, sizes * 2, [1] * 8), 0.95)
        weighted = gate.effective_size(gate.Clusters(sums, sizes, [2] * 4), 0.95)
        self.assertEqual((weighted.units, weighted.clusters), (24, 8))
        self.assertEqual(weighted.mean, twice.mean)
        self.assertAlmostEqual(weighted.effective, twice.effective, delta=1e-12)
        self.assertGreater(abs(weighted.effective - row["recommended_interval_0.95"]["n_star"]), 0.1)

    def test_one_unit_a_cluster_is_wilson(self) -> None:
        """With one unit a cluster n* = N exactly and clustered_rate is wilson itself, for 0, 7 and 12 of 12."""
        for k in (0, 7, 12):
            with self.subTest(k=k):
                sums = [Fraction(1)] * k + [Fraction(0)] * (12 - k)
                self.assertEqual(gate.effective_size(gate.Clusters(sums, [1] * 12, [1] * 12), 0.95).effective, 12.0)
                rate = gate.clustered_rate(gate.Clusters(sums, [1] * 12, [1] * 12), Fraction(k), 12, 0.95, "wilson")
                low, high = gate.wilson(k, 12, 0.95)
                self.assertAlmostEqual(rate.low, low, delta=1e-15)
                self.assertAlmostEqual(rate.high, high, delta=1e-15)

    def test_no_units_is_no_information(self) -> None:
        """Clusters of no units (every cluster empty, or none): mean 0, no units, no clusters, effective size 0, and
        the rate's interval is the whole of [0, 1] whatever the design would have given."""
        for groups in (gate.Clusters([], [], []), gate.Clusters([Fraction(0)], [0], [3])):
            with self.subTest(groups=groups):
                design = gate.effective_size(groups, 0.95)
                self.assertEqual(tuple(design), (0.0, 0, 0, 0.0))
                rate = gate.clustered_rate(groups, Fraction(0), 0, 0.95, "wilson_clustered", monotone=True)
                self.assertEqual((rate.k, rate.n, rate.low, rate.high, rate.method),
                                 (Fraction(0), 0, 0.0, 1.0, "wilson_clustered"))


class SamplesIntervalAgainstReference(ReferenceCase):
    """samples_rate against the samples-mode interval (block samples_interval): Wilson on the task-clustered Kish size."""

    BLOCK = "samples_interval"

    def test_samples_rate_matches_mpmath(self) -> None:
        """samples_rate(pass counts, T, m, 0.95) gives k = S1/m of n = T and the interval to relative 1e-9 on all 10 rows:
        all pass / all fail (never collapsing), one fail, identical tasks (V = 0, n_eff = N), T = 2, m = 1 (Wilson
        itself, method 'wilson'), T = 100 m = 10."""
        self.assertEqual(len(self.block["rows"]), 10)
        for row in self.block["rows"]:
            with self.subTest(name=row["name"]):
                rate = gate.samples_rate(Counter(row["counts"]), row["T"], row["m"], 0.95)
                assert rate is not None
                self.assertEqual((rate.k, rate.n), (Fraction(row["S1"], row["m"]), row["T"]))
                self.assertEqual(rate.method, "wilson" if row["m"] == 1 else "wilson-kish")
                self.assertBound(rate.low, row["lower"])
                self.assertBound(rate.high, row["upper"])
                self.assertLess(rate.low, rate.high)

    def test_tasks_without_a_record_count_as_none_passed(self) -> None:
        """Leaving the zero-pass tasks out of the mapping gives the same rate (they count as no pass); no tasks is None."""
        for row in self.block["rows"]:
            with self.subTest(name=row["name"]):
                passes = Counter(c for c in row["counts"] if c)
                self.assertEqual(gate.samples_rate(passes, row["T"], row["m"], 0.95),
                                 gate.samples_rate(Counter(row["counts"]), row["T"], row["m"], 0.95))
        self.assertIsNone(gate.samples_rate({}, 0, 5, 0.95))


class SamplesCompareAgainstReference(ReferenceCase):
    """paired_effective, then tango_interval and tango_z on its effective table (block samples_compare)."""

    BLOCK = "samples_compare"

    def test_paired_effective_matches_mpmath(self) -> None:
        """paired_effective(x, y, tasks as clusters, m, 0.95) gives D, psi, n* = n_eff (t_{N-1}/t_{T-1})^2 and the table
        n*(b, c) to relative 1e-9 on all 6 rows; with m = 1 it is the integer table 9, 2 of 44 exactly."""
        self.assertEqual(len(self.block["rows"]), 6)
        for row in self.block["rows"]:
            with self.subTest(name=row["name"]):
                m, tasks = row["m"], len(row["cA"])
                table = gate.paired_effective([c / m for c in row["cA"]], [c / m for c in row["cB"]], list(range(tasks)), m, 0.95)
                self.assertBound(table.diff, row["D"])
                self.assertBound(table.discordance, row["bbar"] + row["cbar"])
                self.assertRel(table.n, row["n_star"])
                self.assertBound(table.b, row["bbar"] * row["n_star"])
                self.assertBound(table.c, row["cbar"] * row["n_star"])
        first = self.block["rows"][0]
        self.assertEqual(first["m"], 1)
        table = gate.paired_effective([float(c) for c in first["cA"]], [float(c) for c in first["cB"]], list(range(44)), 1, 0.95)
        self.assertEqual((table.b, table.c, table.n), (9.0, 2.0, 44.0))

    def test_tango_on_the_effective_table(self) -> None:
        """On paired_effective's table, tango_interval matches mpmath's interval (20 digits) to relative 1e-9, tango_z at 0
        matches Z0 = sqrt(n*) D / sqrt(psi), its two-sided p matches, and the decision is the block's."""
        for row in self.block["rows"]:
            with self.subTest(name=row["name"]):
                m, tasks = row["m"], len(row["cA"])
                table = gate.paired_effective([c / m for c in row["cA"]], [c / m for c in row["cB"]], list(range(tasks)), m, 0.95)
                low, high = gate.tango_interval(table.b, table.c, table.n, 0.95)
                self.assertBound(low, row["interval_20_digits"][0])
                self.assertBound(high, row["interval_20_digits"][1])
                z = gate.tango_z(table.b, table.c, table.n, 0.0)
                self.assertBound(z, row["Z0"])
                self.assertRel(normal_p(z), row["p"])
                self.assertEqual(low > 0 or high < 0, row["reject"])

    def test_m1_is_the_retry_mode_table(self) -> None:
        """With one sample a task the comparison is exactly retry mode's: the interval equals tango_interval(9, 2, 44)."""
        row = self.block["rows"][0]
        table = gate.paired_effective([float(c) for c in row["cA"]], [float(c) for c in row["cB"]], list(range(44)), 1, 0.95)
        self.assertEqual(gate.tango_interval(table.b, table.c, table.n, 0.95), gate.tango_interval(9, 2, 44, 0.95))


class DetectableFromTheExactPower(ReferenceCase):
    """detectable_difference is the test's own exact power solved for the difference, at the reference rows of
    Connor's formula (block connor_mdd: n 20 to 500, psi 0.05 to 0.5, alpha 0.05, power 0.8)."""

    BLOCK = "connor_mdd"

    def test_the_smallest_difference_the_exact_test_detects(self) -> None:
        """At every row the figure is the smallest |A − B| whose power, enumerated over every (b, c) of the
        trinomial, reaches 80% under the test compare runs (to 2e-4), or None where no difference does; where
        Connor's asymptotic root exists the exact figure differs from it (old code printed Connor's root: power
        0.87 where the line said none was detectable, and a floor of 6 differing tasks no test needs)."""
        differ = 0
        for row in self.block["rows"]:
            with self.subTest(n=row["n"], psi=row["psi"]):
                got = gate.detectable_difference(row["n"], row["psi"], 0.95, 0.8)
                self.assertIsNone(detectable_misses(row["n"], row["psi"], got))
                differ += got != row["mdd"]
        self.assertGreater(differ, 10)

    def test_no_detectable_difference_outside_the_domain(self) -> None:
        """None when the discordance is 0, negative or above 1, or n < 1; with one task no test rejects at 5%, with
        six tasks all differing it does."""
        for n, psi in ((3, 0.5), (100, 0.0), (100, -0.1), (100, 1.5), (0, 0.5), (-5, 0.5), (1, 1.0)):
            with self.subTest(n=n, psi=psi):
                self.assertIsNone(gate.detectable_difference(n, psi, 0.95, 0.8))
        self.assertIsNotNone(gate.detectable_difference(6, 1.0, 0.95, 0.8))
        self.assertIsNotNone(gate.detectable_difference(30, 0.5, 0.95, 0.8))


class PlanAgainstReference(ReferenceCase):
    """tasks_needed against mpmath (block plan; 95%, power 0.8)."""

    BLOCK = "plan"

    def test_tasks_needed_matches_mpmath(self) -> None:
        """connor_tasks of (p, delta, psi, k samples, icc, power 0.8, 95%), the plan's asymptotic answer and its search's
        start, gives the block's tasks to relative 1e-9 and tasks_needed the discordance used (default p1(1 - p2) +
        p2(1 - p1)), on all 8 rows; no exact value lies within 1e-6 of an integer."""
        self.assertEqual(len(self.block["rows"]), 8)
        for row in self.block["rows"]:
            with self.subTest(p=row["p"], delta=row["delta"], psi=row["psi"], k=row["k"], icc=row["icc"]):
                exact = float(row["tasks_exact"])
                self.assertGreater(abs(exact - round(exact)), 1e-6)
                question = gate.PlanQuestion(row["p"], row["delta"], row["psi"], samples=row["k"], icc=row["icc"],
                                             power=0.8, confidence=0.95)
                _, psi = gate.tasks_needed(question)
                self.assertRel(psi, row["psi_used"])
                self.assertRel(gate.connor_tasks(question, psi), exact)
                self.assertEqual(math.ceil(gate.connor_tasks(question, psi)), row["tasks"])

    def test_a_discordance_too_small_for_the_difference_is_refused(self) -> None:
        """A discordance below delta^2 cannot carry the difference: tasks_needed raises GateError naming it."""
        with self.assertRaises(gate.GateError) as caught:
            gate.tasks_needed(gate.PlanQuestion(0.5, 0.3, 0.05, samples=1, icc=0.6, power=0.8, confidence=0.95))
        self.assertIn("discordance", str(caught.exception))


class LetterGroupsAgainstReference(ReferenceCase):
    """letter_groups (Piepho 2004 insert-absorb) against the SWE-bench ranking (block rank_swebench), hand-worked cases and
    the maximal-clique property."""

    BLOCK = "rank_swebench"

    def test_swebench_letters(self) -> None:
        """With the 222 Holm-significant pairs of the 25 SWE-bench Verified systems as `separated`, letter_groups gives the
        block's 10 groups (groups_letters_piepho, networkx's maximal cliques) and every system's letters."""
        names = [row["system"] for row in self.block["ranking"]]
        index = {name: i for i, name in enumerate(names)}
        separated = {(index[p["A"]], index[p["B"]]) for p in self.block["significant_pairs"]}
        self.assertEqual(len(separated), int(self.block["pairs_significant_holm_0.05"]))
        groups = gate.letter_groups(list(range(len(names))), separated)
        self.assertEqual(groups, [[index[name] for name in group] for group in self.block["groups_letters_piepho"]])
        for i, row in enumerate(self.block["ranking"]):
            letters = "".join(chr(97 + g) for g, group in enumerate(groups) if i in group)
            self.assertEqual(letters, row["letters"], row["system"])

    def test_hand_worked_cases(self) -> None:
        """Four systems: only 1 vs 4 separated gives {1,2,3}, {2,3,4}; only 1 vs 3 gives the non-contiguous {1,2,4}, {2,3,4};
        none gives one group, all gives singletons; a pair given either way round is the same; groups follow `order`."""
        cases: list[tuple[list[int], set[tuple[int, int]], list[list[int]]]] = [
            ([1, 2, 3, 4], {(1, 4)}, [[1, 2, 3], [2, 3, 4]]),
            ([1, 2, 3, 4], {(4, 1)}, [[1, 2, 3], [2, 3, 4]]),
            ([1, 2, 3, 4], {(1, 3)}, [[1, 2, 4], [2, 3, 4]]),
            ([1, 2, 3, 4], set(), [[1, 2, 3, 4]]),
            ([1, 2, 3, 4], {(i, j) for i in range(1, 5) for j in range(i + 1, 5)}, [[1], [2], [3], [4]]),
            ([1, 2, 3, 4], {(1, 3), (2, 4)}, [[1, 2], [1, 4], [2, 3], [3, 4]]),
            ([4, 2, 3, 1], {(1, 4)}, [[4, 2, 3], [2, 3, 1]]),
        ]
        for order, separated, expected in cases:
            with self.subTest(order=order, separated=sorted(separated)):
                self.assertEqual(gate.letter_groups(order, separated), expected)

    def test_groups_are_the_maximal_cliques_of_the_not_separated(self) -> None:
        """For every one of the 1,024 separation patterns of 5 systems (in a shuffled order): within a group no pair is
        separated, every pair not separated shares a group, a separated pair shares none, the groups are exactly the
        maximal such sets (brute force), each is listed in `order` and they are sorted by their members' ranks."""
        order = [3, 0, 4, 1, 2]
        rank = {s: i for i, s in enumerate(order)}
        pairs = list(combinations(range(5), 2))
        for bits in range(1 << len(pairs)):
            separated = {p for i, p in enumerate(pairs) if bits >> i & 1}
            groups = gate.letter_groups(order, separated)
            for i, j in pairs:
                shared = any(i in g and j in g for g in groups)
                self.assertEqual(shared, (i, j) not in separated, (separated, groups, (i, j)))
            self.assertEqual({frozenset(g) for g in groups}, maximal_cliques(order, separated), (separated, groups))
            self.assertEqual(len(groups), len({frozenset(g) for g in groups}))
            keys = [[rank[s] for s in g] for g in groups]
            self.assertTrue(all(k == sorted(k) for k in keys), groups)
            self.assertEqual(keys, sorted(keys))


class SwebenchPairsAgainstReference(ReferenceCase):
    """tango_interval and the asymptotic McNemar p on the real SWE-bench Verified pairs (block rank_swebench)."""

    BLOCK = "rank_swebench"

    def test_significant_pairs(self) -> None:
        """On the 222 significant pairs (table a, b, c, d of A against B), tango_interval at 95% matches the block's tango_95
        (the generator's stdlib Tango, within 2.3e-16 of mpmath on block tango) to relative 1e-9 and excludes 0, and the
        asymptotic McNemar p matches (statsmodels to 7.5e-14) to relative 1e-9, down to 6e-71."""
        for pair in self.block["significant_pairs"]:
            with self.subTest(a=pair["A"], b=pair["B"]):
                a, b, c, d = pair["table"]
                low, high = gate.tango_interval(b, c, a + b + c + d, 0.95)
                self.assertRel(low, pair["tango_95"][0])
                self.assertRel(high, pair["tango_95"][1])
                self.assertTrue(low > 0 or high < 0)
                self.assertRel(normal_p(gate.mcnemar_z(b, c)), pair["p"])

    def test_adjacent_pairs(self) -> None:
        """On the 24 adjacent pairs of the ranking the McNemar p matches to relative 1e-9 (1.0 exactly at b = c)."""
        for pair in self.block["adjacent_pairs"]:
            with self.subTest(a=pair["A"], b=pair["B"]):
                _, b, c, _ = pair["table_A_B"]
                self.assertBound(normal_p(gate.mcnemar_z(b, c)), pair["p"])


class StudentNearZeroAgainstReference(ReferenceCase):
    """Student t where a naive formula loses its digits: t near 0, and a confidence near 0."""

    BLOCK = "t_sf"

    def test_t_tail_near_zero(self) -> None:
        """_t_tail(1e-8, df) is 1 − 6.4e-9 .. 1 − 8.0e-9 (mpmath), not the 1.0 that df/(df + t²) rounding to 1 gives."""
        rows = [row for row in self.block["rows"] if row["t"] == 1e-8]
        self.assertEqual(len(rows), 5)
        for row in rows:
            with self.subTest(df=row["df"]):
                self.assertRel(gate._t_tail(row["t"], row["df"]), float(2 * Decimal(row["sf"])))
                self.assertLess(gate._t_tail(row["t"], row["df"]), 1.0)

    def test_t_for_at_small_confidence(self) -> None:
        """t_for(c, df) for c = 1e-5 and 1e-10 matches tan(pi c/2) (df 1) and c sqrt(2/(1 - c^2)) (df 2) to relative
        1e-9: the bisection runs on the centre, not on 1 − c, below a confidence of one half."""
        for c in (1e-5, 1e-10):
            for df in (1, 2):
                with self.subTest(confidence=c, df=df):
                    self.assertRel(gate.t_for(c, df), t_two_sided_closed(c, df))


class MedianBySelection(unittest.TestCase):
    """gate._median finds the middle of many values among a sample's bracket: it must equal the sort's median."""

    def test_the_median_is_the_sorted_median(self) -> None:
        """Floats, integers, both mixed, heavy ties, all equal, sorted and reversed, odd and even counts, as lists and
        arrays: statistics.median's value, exactly (the same two middle values, the same mean of them)."""
        import statistics
        from array import array
        rnd = random.Random(20261203)
        count = gate._SELECT_MIN + 1
        shapes = {
            "floats": lambda n: [rnd.random() * 2 for _ in range(n)],
            "integers": lambda n: [rnd.randrange(10**9) for _ in range(n)],
            "mixed": lambda n: [rnd.randrange(100) if rnd.random() < 0.5 else rnd.random() * 100 for _ in range(n)],
            "ties": lambda n: [rnd.randrange(3) for _ in range(n)],
            "equal": lambda n: [0.25] * n,
            "sorted": lambda n: sorted(rnd.random() for _ in range(n)),
            "reversed": lambda n: sorted((rnd.random() for _ in range(n)), reverse=True),
        }
        for name, make in shapes.items():
            for n in (count, count + 1, 3 * count + 2):
                values = make(n)
                with self.subTest(name, n=n):
                    self.assertEqual(gate._median(values), statistics.median(values))
                    if name == "floats":
                        self.assertEqual(gate._median(array("d", values)), statistics.median(values))
                    if name == "integers":
                        self.assertEqual(gate._median(array("Q", values)), statistics.median(values))
                        self.assertEqual(gate._median(iter(values)), statistics.median(values))

    def test_only_the_bracket_around_the_middle_is_sorted(self) -> None:
        """10^5 shuffled values: _median sorts the sample (about _SELECT_SAMPLE values) and the values between the
        sample's entries _SELECT_MARGIN either side of the middle (about 2 x 64 x 24), never a large share of the
        whole (work counted by the sorts' sizes, not timed); the median is the sort's."""
        import builtins
        import statistics
        from unittest import mock
        values = [float(i) for i in range(100_000)]
        random.Random(3).shuffle(values)
        sizes: list[int] = []

        def counted(items: Any, **kwargs: Any) -> list[Any]:
            ordered = builtins.sorted(items, **kwargs)
            sizes.append(len(ordered))
            return ordered

        with mock.patch.object(gate, "sorted", counted, create=True):
            self.assertEqual(gate._median(values), statistics.median(values))
        step = len(values) // gate._SELECT_SAMPLE
        self.assertEqual(sizes[0], len(values[::step]))
        self.assertEqual(len(sizes), 2, sizes)  # the sample and the bracket: no sort of everything
        self.assertLess(sizes[1], 2 * (2 * gate._SELECT_MARGIN + 2) * step)

    def test_a_bracket_that_holds_fewer_than_half_the_values_is_never_the_median(self) -> None:
        """A sample that puts its bracket above the middle: the values from the bracket's floor up are one fewer than
        half (every sampled value above the ceiling equal to it, so the bracket holds all of them), and the rest lie
        below the floor. The middle is below the bracket, so the median is the sort's (a count of the values below
        the floor taken as a remainder, not a difference, read the middle inside the bracket: 20000.0)."""
        import statistics
        n = 2 * gate._SELECT_MIN
        step = n // gate._SELECT_SAMPLE
        floor_at = (n - 1) // 2 // step - gate._SELECT_MARGIN  # the sample's floor and ceiling, as _median takes them
        ceiling_at = n // 2 // step + gate._SELECT_MARGIN
        sampled = [1000.0 + r if r < floor_at else 10_000.0 + r if r < ceiling_at else 20_000.0
                   for r in range(n // step)]
        at_floor = n // 2 - 1 - (len(sampled) - floor_at)  # unsampled values equal to the floor, the rest below it
        values, unsampled = [], 0
        for i in range(n):
            if i % step == 0:
                values.append(sampled[i // step])
            else:
                values.append(10_000.0 + floor_at if unsampled < at_floor else float(unsampled % 97))
                unsampled += 1
        self.assertEqual(sum(v >= 10_000.0 + floor_at for v in values), n // 2 - 1)
        self.assertEqual(statistics.median(values), 2981.5)
        self.assertEqual(gate._median(values), 2981.5)

    def test_a_sample_that_misses_the_middle_sorts_everything(self) -> None:
        """Every sampled position holds a huge value, the rest small: the sample's bracket misses the middle, and the
        median is the sort's all the same."""
        n = 2 * gate._SELECT_MIN
        step = n // gate._SELECT_SAMPLE
        values = [10.0**6 + i if i % step == 0 else float(i % 97) for i in range(n)]
        import statistics
        from unittest import mock
        with mock.patch.object(gate, "_sorted_median", wraps=gate._sorted_median) as sorted_median:
            self.assertEqual(gate._median(values), statistics.median(values))
        self.assertEqual(sorted_median.call_count, 1)
        with mock.patch.object(gate, "_sorted_median", wraps=gate._sorted_median) as sorted_median:
            self.assertEqual(gate._median(sorted(values)), statistics.median(values))
        self.assertEqual(sorted_median.call_count, 0)  # a sample like the whole: no sort of everything
