"""compare: two runs of one suite paired task by task. One rule: McNemar's asymptotic test and Tango's score
interval, which inverts it, so "significant" and "the interval excludes 0" are the same statement; in samples
mode the pairing is over per-task pass rates from every sample; with --by-cluster the variance is the
clusters'. Refused when the suites, envelopes or attempt contracts differ.

Expected values: tests/reference/stat_vectors_v2.json (mpmath at 50 digits) and the independent
implementations in tests/oracles.py (Tango from a numerically solved likelihood, Connor by bisection).
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import gate
from tests.builders import as_samples, paired_ledgers, paired_samples, valid_ledger
from tests.oracles import (
    conditional_critical,
    detectable_misses,
    exact_conditional,
    ids_digest,
    miller_paired,
    paired_compare,
    rate_text,
    tango_interval,
    wild_cluster,
    wilson,
    z_of,
)
from tests.support import EXAMPLE_COMPARE, ROOT, SVG_NS, GateCase, assert_safe_svg, ci_lines_by_y, markdown_tables
from tests.test_ci import github_env

VECTORS = json.loads((Path(__file__).parent / "reference" / "stat_vectors_v2.json").read_text(encoding="utf-8"))
def exact_expected(b: int, c: int, n: int, confidence: float = 0.95) -> tuple[float, float, float, float]:
    """McNemar's exact conditional p, its critical |z|, and Tango's interval at that critical value, all from
    tests/oracles.py."""
    critical = conditional_critical(b + c, round(1 - confidence, 12))
    if critical is None:  # no split rejects: an interval that always holds 0, never narrower than the normal one
        critical = max((b + c) ** 0.5, z_of(confidence)) * (1 + 1e-9)
    low, high = tango_interval(b, c, n, confidence, critical)
    return float(exact_conditional(b, c)), critical, low, high


def normal_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z (the asymptotic McNemar p the reference rows record)."""
    return math.erfc(abs(z) / math.sqrt(2))


def close(got: float, want: float, tolerance: float = 1e-9) -> bool:
    """Equal to 1e-9, relative for values below 1e-6 (p-values far in the tail)."""
    return abs(got - want) <= tolerance * (abs(want) if abs(want) < 1e-6 else 1.0)


class CompareCase(GateCase):
    """Writes both sides into the test's folder and runs compare."""

    def compare(self, ma: dict[str, Any], ra: list[Any], mb: dict[str, Any], rb: list[Any],
                *extra: str) -> tuple[int, str, str]:
        paths = [self.write_json("a.manifest.json", ma), self.write_jsonl("a.jsonl", ra),
                 self.write_json("b.manifest.json", mb), self.write_jsonl("b.jsonl", rb)]
        return self.run_gate("compare", "--manifest", str(paths[0]), "--runs", str(paths[1]),
                             "--against-manifest", str(paths[2]), "--against-runs", str(paths[3]), *extra)

    def compare_json(self, *ledgers: Any) -> tuple[int, dict[str, Any]]:
        code, out, err = self.compare(*ledgers, "--format", "json")
        self.assertIn(code, (0, 1), err)
        return code, json.loads(out)


class PairedCompare(CompareCase):
    """The paired table, the difference, the test and the reading."""

    def test_table_interval_and_p_against_reference_vectors(self) -> None:
        """compare gives each reference table's counts and difference; its p is McNemar's exact conditional
        test's (tests/oracles.py, in fractions) and its interval Tango's at that test's critical value (to 1e-6);
        it calls a table significant exactly when the oracle's p is below alpha and exactly when the interval
        excludes 0; the planning figure is the smallest difference the test detects with 80% power (its
        enumerated power).
        """
        rows = [r for r in VECTORS["tango"]["rows"] if r["a"] >= 1 and r["d"] >= 1]
        self.assertGreaterEqual(len(rows), 10)
        for row in rows:
            a, b, c, d, conf = row["a"], row["b"], row["c"], row["d"], row["confidence"]
            with self.subTest(table=(a, b, c, d), confidence=conf):
                code, report = self.compare_json(*paired_ledgers(a, b, c, d), "--confidence", repr(conf))
                self.assertEqual(code, 0, report["findings"])
                self.assertEqual(report["paired"], {"both_pass": a, "a_only": b, "b_only": c, "neither": d})
                n = a + b + c + d
                diff = report["difference"]
                self.assertAlmostEqual(diff["value"], (b - c) / n, places=12)
                p, critical, low, high = exact_expected(b, c, n, conf)
                self.assertEqual(report["test"]["method"], "mcnemar_exact_conditional")
                self.assertAlmostEqual(report["test"]["p"], p, delta=1e-12 * p)
                self.assertAlmostEqual(diff["critical"], critical, delta=1e-6)
                self.assertEqual((diff["method"], diff["critical_of"]), ("tango1998_score", "z"))
                self.assertAlmostEqual(diff["ci_low"], low, delta=1e-6)
                self.assertAlmostEqual(diff["ci_high"], high, delta=1e-6)
                self.assertEqual(report["significant"], p < 1 - conf)
                self.assertEqual(report["significant"], diff["ci_low"] > 0 or diff["ci_high"] < 0)
                got = report["detectable_difference"]["value"]
                self.assertIsNone(detectable_misses(n, (b + c) / n, got, round(1 - conf, 12)), (n, b, c, conf))
                self.assertEqual((report["a"]["verdict"], report["b"]["verdict"]), ("PUBLISHABLE", "PUBLISHABLE"))

    def test_significant_exactly_when_the_interval_excludes_zero(self) -> None:
        """On every paired table of up to 20 tasks, at three confidences, the test rejects exactly when Tango's
        interval excludes 0, and the interval holds the observed difference.
        """
        for conf in (0.9, 0.95, 0.99):
            z = gate.z_for(conf)
            for n in range(1, 21):
                for b in range(n + 1):
                    for c in range(n + 1 - b):
                        low, high = gate.tango_interval(b, c, n, conf)
                        rejects = normal_p(gate.mcnemar_z(b, c)) < 1 - conf
                        if abs(abs(gate.mcnemar_z(b, c)) - z) < 1e-9:
                            continue  # on the boundary itself the two may round apart
                        self.assertEqual(low > 0 or high < 0, rejects, (b, c, n, conf, low, high))
                        self.assertLessEqual(low, (b - c) / n + 1e-12)
                        self.assertGreaterEqual(high, (b - c) / n - 1e-12)

    def test_a_million_discordant_pairs_is_immediate(self) -> None:
        """The test and the interval cost the same at 10^6 discordant pairs as at 10 (the retired exact test was
        quadratic: 19.6 s at 400k): the interval's root search evaluates the restricted estimate a bounded number
        of times whatever the counts (work counted, never timed)."""
        from unittest import mock
        with mock.patch.object(gate, "_p21_restricted", wraps=gate._p21_restricted) as evaluated:
            low, high = gate.tango_interval(600_000, 400_000, 2_000_000, 0.95)
        large = evaluated.call_count
        with mock.patch.object(gate, "_p21_restricted", wraps=gate._p21_restricted) as evaluated:
            gate.tango_interval(6, 4, 20, 0.95)
        self.assertLessEqual(large, 2 * evaluated.call_count + 20)
        p = normal_p(gate.mcnemar_z(600_000, 400_000))
        self.assertLess(low, 0.1)
        self.assertGreater(high, 0.1)
        self.assertTrue(close(low, tango_interval(600_000, 400_000, 2_000_000)[0]))
        self.assertEqual(p, 0.0)  # z = 200: below the smallest double

    def test_interval_and_test_against_the_independent_oracle(self) -> None:
        """Tables beyond the reference rows (zero cells, all discordant, tiny n) match tests/oracles.py's exact
        conditional p and Tango's interval at its critical value.
        """
        for a, b, c, d in ((1, 0, 0, 1), (1, 3, 0, 1), (1, 0, 5, 1), (1, 38, 0, 1), (5, 7, 7, 5), (20, 1, 1, 18),
                           (1, 57, 1, 1), (2, 0, 9, 29)):
            with self.subTest(table=(a, b, c, d)):
                _, report = self.compare_json(*paired_ledgers(a, b, c, d))
                p, _, low, high = exact_expected(b, c, a + b + c + d)
                self.assertAlmostEqual(report["difference"]["ci_low"], low, delta=1e-6)
                self.assertAlmostEqual(report["difference"]["ci_high"], high, delta=1e-6)
                self.assertAlmostEqual(report["test"]["p"], p, delta=1e-12 * p)

    def test_confidence_sets_alpha(self) -> None:
        """--confidence 0.9 sets alpha to 0.10: (4, 10, 3, 15), exact p = 0.092, is not distinguishable at 95% and
        significant at 90%, with a narrower interval.
        """
        self.assertAlmostEqual(float(exact_conditional(10, 3)), 0.092, delta=5e-4)
        _, at95 = self.compare_json(*paired_ledgers(4, 10, 3, 15))
        _, at90 = self.compare_json(*paired_ledgers(4, 10, 3, 15), "--confidence", "0.9")
        self.assertAlmostEqual(at90["alpha"], 0.1, places=12)
        self.assertEqual((at95["significant"], at90["significant"]), (False, True))
        self.assertGreater(at90["difference"]["ci_low"], at95["difference"]["ci_low"])
        self.assertGreater(at90["difference"]["ci_low"], 0)
        code, out, _ = self.compare(*paired_ledgers(4, 10, 3, 15), "--confidence", "0.9")
        self.assertEqual(code, 0)
        self.assertRegex(out, r"(?m)^reading\s*: A - B is significant on this suite and envelope at 90% confidence")

    def test_29_vs_30_is_not_distinguishable(self) -> None:
        """29 against 30 of 40 prints both rates, the paired table, A - B, the interval in points, "not
        distinguishable", and no planning figure above what one discordant task can carry.
        """
        code, out, err = self.compare(*paired_ledgers(26, 3, 4, 7))
        self.assertEqual(code, 0, out + err)
        self.assertRegex(out, r"(?m)^A\s*: claim-a: " + re.escape(rate_text(29, 40)) + "$")
        self.assertRegex(out, r"(?m)^B\s*: claim-b: " + re.escape(rate_text(30, 40)) + "$")
        self.assertRegex(out, r"(?m)^paired\s*: both pass 26, A only 3, B only 4, neither 7\b")
        p, _, low, high = exact_expected(3, 4, 40)
        self.assertIn(f"A - B = -0.025  95% CI [{low:+.3f}, {high:+.3f}]", out)
        printed = re.search(r"(?m)^test\s*: McNemar's exact conditional test \(binomial on the differing tasks\): McNemar "
                            r"z = -0\.378, p = ([0-9.]+) \(it rejects from \|z\| >= 2\.646 on 7 differing tasks; alpha 0\.05\)$", out)
        assert printed is not None, out
        self.assertAlmostEqual(float(printed.group(1)), p, delta=2e-4 * p + 1e-4)
        points = f"from {low * 100:+.1f} to {high * 100:+.1f} points"
        self.assertRegex(out, r"(?m)^reading\s*: not distinguishable at 95% confidence: the data fit A - B " + re.escape(points) + "$")
        self.assertNotIn("real", out)
        self.assertNotIn("within noise", out)
        # 7 discordant tasks of 40: even all seven one way (0.175) is detected less than 80% of the time (the enumerated
        # power of the exact conditional test says so)
        self.assertIsNone(gate.detectable_difference(40, 7 / 40, 0.95))
        self.assertIsNone(detectable_misses(40, 7 / 40, None))
        self.assertRegex(out, r"(?m)^planning\s*: no difference is detectable with 40 tasks at the observed discordance 0\.175 ")
        more = gate.detectable_difference(40, 25 / 40, 0.95)
        assert more is not None
        self.assertIsNone(detectable_misses(40, 25 / 40, more))
        _, out, _ = self.compare(*paired_ledgers(10, 25, 0, 5))
        self.assertIn(f"this rule detects |A - B| >= {more:.3f} with 80% power (a planning figure, not a result)", out)
        self.assertRegex(out, r"(?m)^verdict\s*: PUBLISHABLE$")

    def test_no_difference_is_detectable_instead_of_a_number_above_one(self) -> None:
        """With too few tasks or too little discordance the planning figure says no difference is detectable, never
        a number above the discordance (the most any table can show); on every table of up to 12 tasks it is the
        smallest difference the exact test detects with 80% power by its enumerated power, or none where even every
        differing task going one way falls short (old code: Connor's formula beside a floor of 6 differing tasks).
        """
        code, out, _ = self.compare(*paired_ledgers(1, 1, 0, 1))
        self.assertEqual(code, 0, out)
        self.assertRegex(out, r"(?m)^planning\s*: no difference is detectable with 3 tasks at the observed discordance 0\.333")
        _, report = self.compare_json(*paired_ledgers(29, 0, 1, 10))
        self.assertIsNone(report["detectable_difference"]["value"])
        self.assertTrue(report["detectable_difference"]["planning_figure"])
        for n in range(1, 13):
            for discordant in range(n + 1):
                got = gate.detectable_difference(n, discordant / n, 0.95)
                self.assertIsNone(detectable_misses(n, discordant / n, got), (n, discordant))

    def test_strongly_different_nested_pair_is_significant(self) -> None:
        """35 against 10 of 40, nested, is significant on this suite and envelope, with the interval in points."""
        code, out, _ = self.compare(*paired_ledgers(10, 25, 0, 5))
        self.assertEqual(code, 0, out)
        self.assertRegex(out, r"(?m)^A\s*: claim-a: 35/40 ")
        self.assertRegex(out, r"(?m)^B\s*: claim-b: 10/40 ")
        self.assertIn("A - B = +0.625", out)
        p, _, low, high = exact_expected(25, 0, 40)
        printed = re.search(r"(?m)^reading\s*: A - B is significant on this suite and envelope at 95% confidence "
                            r"\(p = ([0-9.e-]+)\)", out)
        assert printed is not None, out
        self.assertAlmostEqual(float(printed.group(1)), p, delta=2e-4 * p + 0.005e-7)
        self.assertIn(f"the data fit {low * 100:+.1f} to {high * 100:+.1f} points", out)
        self.assertIn("not a measure of how much it matters", out)
        self.assertNotIn("not distinguishable", out)

    def test_json_fields(self) -> None:
        """The compare JSON carries the verdict, both sides, the table, the effective table, the difference, the test,
        significant and the planning figure.
        """
        _, report = self.compare_json(*paired_ledgers(26, 3, 4, 7))
        for key in ("verdict", "a", "b", "paired", "effective_table", "clusters", "difference", "test", "alpha",
                    "significant", "detectable_difference", "findings"):
            self.assertIn(key, report)
        self.assertEqual(report["verdict"], "PUBLISHABLE")
        self.assertFalse(report["significant"])
        self.assertEqual(report["effective_table"], {"a_only": 3.0, "b_only": 4.0, "pairs": 40.0, "discordance": 7 / 40})
        self.assertIsNone(report["clusters"])
        self.assertEqual(report["difference"]["method"], "tango1998_score")
        self.assertEqual(report["test"]["method"], "mcnemar_exact_conditional")
        self.assertAlmostEqual(report["test"]["z"], -1 / 7 ** 0.5, places=12)
        self.assertEqual((report["a"]["headline"]["k"], report["b"]["headline"]["k"]), (29, 30))

    def test_past_the_exact_tests_size_the_conditional_test_reads_the_same(self) -> None:
        """1,001 tasks: McNemar's exact conditional test. 5 A-only and none B-only: p = 1/16 (every one of the 2^5
        splits as uneven is 0/5 or 5/0), not significant, the interval through 0, and the line says no split of 5
        reaches alpha; 6/0: p = 1/32, significant, the interval above 0, and the rule needs no floor."""
        for a_only, p, significant in ((5, 1 / 16, False), (6, 1 / 32, True)):
            ledgers = paired_ledgers(500, a_only, 0, 501 - a_only)
            _, report = self.compare_json(*ledgers)
            self.assertEqual(report["test"]["method"], "mcnemar_exact_conditional")
            self.assertEqual(report["test"]["p"], p)
            self.assertEqual(report["significant"], significant)
            self.assertEqual(report["difference"]["ci_low"] > 0, significant)
            self.assertEqual(report["decision_rule"]["rule"], "p < alpha")
            _, out, _ = self.compare(*ledgers)
            where = "no split of 5 differing tasks reaches alpha" if a_only == 5 else "rejects from |z| >= 2.449 on 6"
            self.assertIn(where, out)
            self.assertIn("not distinguishable" if not significant else "A - B is significant", out)

    def test_envelope_mismatch(self) -> None:
        """Envelopes that differ block with envelope_mismatch naming the fields that differ and no other."""
        ma, ra, mb, rb = paired_ledgers(29, 0, 1, 10)
        mb["envelope"]["network"] = "on"
        del mb["envelope"]["max_steps"]
        mb["envelope"]["toolchain_sha"] = "abc"
        code, out, _ = self.compare(ma, ra, mb, rb)
        self.assertEqual(code, 1)
        line = next(x for x in out.splitlines() if "envelope_mismatch" in x)
        for name in ("network", "max_steps", "toolchain_sha"):
            self.assertIn(name, line)
        for name in ("runner", "wall_clock_s_per_task"):
            self.assertNotIn(name, line)
        self.assertRegex(out, r"(?m)^verdict\s*: BLOCKED$")
        # the suites are the same: the tasks are still paired, and the paired line shows their table
        self.assertRegex(out, r"(?m)^paired\s*: both pass 29, A only 0, B only 1, neither 10 \(40 shared tasks;")

    def test_envelope_value_type_matters(self) -> None:
        """An envelope value of '40' against 40 is a mismatch."""
        ma, ra, mb, rb = paired_ledgers(29, 0, 1, 10)
        mb["envelope"]["max_steps"] = "40"
        _, report = self.compare_json(ma, ra, mb, rb)
        self.assertEqual([f["code"] for f in report["findings"]], ["envelope_mismatch"])
        self.assertIn("max_steps", report["findings"][0]["message"])

    def test_envelope_boolean_is_not_a_number(self) -> None:
        """An envelope value of true against 1 is a mismatch."""
        # JSON true and 1 are different values; "every envelope field equal" must see the difference
        ma, ra, mb, rb = paired_ledgers(29, 0, 1, 10)
        ma["envelope"]["gpu"] = True
        mb["envelope"]["gpu"] = 1
        _, report = self.compare_json(ma, ra, mb, rb)
        self.assertEqual([f["code"] for f in report["findings"]], ["envelope_mismatch"])
        self.assertIn("gpu", report["findings"][0]["message"])

    def test_dataset_digest_mismatch(self) -> None:
        """Two PUBLISHABLE runs of different suites block with dataset_digest_mismatch."""
        ma, ra, _, _ = paired_ledgers(29, 0, 1, 10)
        # B ran a different suite: t-038 replaced by t-999; B is PUBLISHABLE on its own
        mb, rb, _, _ = paired_ledgers(30, 0, 1, 9)
        rb = [dict(r, task_id="t-999") if r["task_id"] == "t-038" else r for r in rb]
        ids = [r["task_id"] for r in rb]
        mb["dataset"].update(task_ids=sorted(ids), task_ids_sha256=ids_digest(ids))
        mb["claim_id"] = "claim-b"
        code, report = self.compare_json(ma, ra, mb, rb)
        self.assertEqual(code, 1)
        self.assertEqual(report["b"]["verdict"], "PUBLISHABLE")
        self.assertEqual([f["code"] for f in report["findings"]], ["dataset_digest_mismatch"])

    def test_blocked_side_findings_are_prefixed(self) -> None:
        """The findings of a blocked side are reported prefixed A: or B:."""
        ma, ra, mb, rb = paired_ledgers(29, 0, 1, 10)
        rb = [dict(r, outcome="pass") if r["task_id"] == "neg-01" else r for r in rb]
        code, report = self.compare_json(ma, ra, mb, rb)
        self.assertEqual(code, 1)
        self.assertEqual(report["verdict"], "BLOCKED")
        self.assertEqual([f["code"] for f in report["findings"]], ["B:control_violated"])
        ra = [r for r in ra if r["task_id"] != "t-005"]  # A drops a task
        code, out, _ = self.compare(ma, ra, mb, rb)
        self.assertEqual(code, 1)
        self.assertRegex(out, r"(?m)^  ! A:never_started: ")
        self.assertRegex(out, r"(?m)^  ! B:control_violated: ")


class AttemptContracts(GateCase):
    """Both sides must run under the same attempt contract."""

    def side(self, name: str, manifest: dict[str, Any], records: list[dict[str, Any]]) -> tuple[str, str]:
        m = self.write_json(f"{name}.manifest.json", manifest)
        r = self.write_jsonl(f"{name}.jsonl", records)
        return str(m), str(r)

    def samples(self, first: str, rest: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """valid_ledger(10, 10) as 3 samples a task: the controls as before, every other task `first`, then `rest` twice."""
        manifest, records = valid_ledger(passes=10, fails=10, unscoreable=())
        others = {r["task_id"]: (first, rest, rest) for r in records if r["task_id"] not in ("neg-01", "pos-01")}
        return as_samples(manifest, records, 3, others)

    def test_samples_mode_pairs_on_every_sample(self) -> None:
        """In samples mode compare pairs per-task pass rates over all samples: A, whose first samples fail and later
        ones pass (2/3 a task), is ahead of B (1/3), though first samples alone would put B far ahead.
        """
        a = self.side("a", *self.samples("fail", "pass"))
        b = self.side("b", *self.samples("pass", "fail"))
        _code, out, _err = self.run_gate("compare", "--manifest", a[0], "--runs", a[1], "--against-manifest", b[0],
                                         "--against-runs", b[1], "--format", "json")
        report = json.loads(out)
        self.assertGreater(report["a"]["headline"]["rate"], report["b"]["headline"]["rate"])
        self.assertIsNone(report["paired"])  # no 2x2 table of tasks in samples mode
        counts_a, counts_b = [3, *[2] * 18, 0], [3, *[1] * 18, 0]
        diff, low, high, p, t = miller_paired(counts_a, counts_b, 3)
        self.assertAlmostEqual(report["difference"]["value"], diff, places=12)
        self.assertAlmostEqual(diff, 18 / 20 * (2 / 3 - 1 / 3), places=12)
        self.assertTrue(close(report["difference"]["ci_low"], low))
        self.assertTrue(close(report["difference"]["ci_high"], high))
        self.assertTrue(close(report["test"]["p"], p))
        self.assertEqual((report["test"]["method"], report["test"]["df"]), ("miller_paired_t", 19))
        # the interval is Miller's, at a t quantile (it was named tango1998_score, its critical "critical_z")
        self.assertEqual((report["difference"]["method"], report["difference"]["critical_of"]),
                         ("miller2024_paired_t", "t"))
        self.assertTrue(close(report["test"]["z"], t))
        self.assertTrue(close(report["effective_table"]["pairs"], paired_compare(counts_a, counts_b, 3)[4]))
        _code, text, _ = self.run_gate("compare", "--manifest", a[0], "--runs", a[1], "--against-manifest", b[0],
                                       "--against-runs", b[1])
        self.assertRegex(text, r"(?m)^paired\s*: per-task pass rates over 3 samples on 20 shared tasks: ")

    def test_different_attempt_contracts_are_not_compared(self) -> None:
        """Runs under different attempt budgets block with attempt_contract_mismatch."""
        manifest, records = valid_ledger()
        other = dict(manifest, attempt_budget=2)
        a, b = self.side("a", manifest, records), self.side("b", other, [dict(r, run_id="r2") for r in records])
        code, out, _ = self.run_gate("compare", "--manifest", a[0], "--runs", a[1], "--against-manifest", b[0],
                                     "--against-runs", b[1], "--format", "json")
        self.assertEqual(code, 1)
        self.assertIn("attempt_contract_mismatch", [f["code"] for f in json.loads(out)["findings"]])


class CompareRendering(CompareCase):
    """compare as Markdown and SVG."""

    def test_markdown(self) -> None:
        """compare --format markdown shows the verdict, the reading and the paired 2×2 table."""
        code, out, _ = self.compare(*paired_ledgers(29, 0, 1, 10), "--format", "markdown")
        self.assertEqual(code, 0)
        self.assertIn("**PUBLISHABLE**", out)
        self.assertIn("A and B are not distinguishable at 95%", out)
        tables = markdown_tables(out)
        cells = [row for table in tables for row in table]
        self.assertIn(["**A pass**", "29", "0"], cells)
        self.assertIn(["**A not pass**", "1", "10"], cells)
        code, out, _ = self.compare(*paired_ledgers(10, 25, 0, 5), "--format", "markdown")
        self.assertRegex(out, r"\*\*PUBLISHABLE\*\*, A - B is significant at 95% on this suite and envelope")
        _, report = self.compare_json(*paired_ledgers(10, 25, 0, 5))
        shown = f"95% CI [{report['difference']['ci_low']:+.3f}, {report['difference']['ci_high']:+.3f}]"
        self.assertIn(f"A - B = {report['difference']['value']:+.3f}, {shown} (", out)  # both ends to 3 places
        self.assertIn("not a measure of how much it matters", out)

    def test_svg(self) -> None:
        """compare --format svg is a safe SVG whose points and interval lines sit on both rates and on the difference,
        on their two axes, byte-identical run to run.
        """
        ledgers = paired_ledgers(29, 0, 1, 10)
        code, out, _ = self.compare(*ledgers, "--format", "svg")
        self.assertEqual(code, 0)
        root = assert_safe_svg(self, out)
        title = root.find(f"{SVG_NS}title")
        assert title is not None and title.text is not None
        for part in ("claim-a", "claim-b", "PUBLISHABLE"):
            self.assertIn(part, title.text)
        points = {c.get("data-label"): c for c in root.iter(f"{SVG_NS}circle") if c.get("class") == "point"}
        self.assertEqual(set(points), {"A claim-a", "B claim-b", "A - B"})
        lo, hi = wilson(29, 40)
        self.assertAlmostEqual(float(points["A claim-a"].get("cx", "nan")), 300 + 0.725 * 400, places=2)
        self.assertAlmostEqual(float(points["B claim-b"].get("cx", "nan")), 300 + 0.75 * 400, places=2)
        ci = ci_lines_by_y(root)
        a_line = ci[points["A claim-a"].get("cy")]
        self.assertAlmostEqual(float(a_line.get("x1", "nan")), 300 + lo * 400, places=1)
        self.assertAlmostEqual(float(a_line.get("x2", "nan")), 300 + hi * 400, places=1)
        # the difference panel: -1..1 mapped onto 300..700
        diff = points["A - B"]
        self.assertAlmostEqual(float(diff.get("cx", "nan")), 300 + (-0.025 + 1) / 2 * 400, places=2)
        _, _, dlo, dhi = exact_expected(0, 1, 40)
        d_line = ci[diff.get("cy")]
        self.assertAlmostEqual(float(d_line.get("x1", "nan")), 300 + (dlo + 1) / 2 * 400, places=1)
        self.assertAlmostEqual(float(d_line.get("x2", "nan")), 300 + (dhi + 1) / 2 * 400, places=1)
        axes = [(x.get("data-low"), x.get("data-high")) for x in root.iter(f"{SVG_NS}line") if x.get("class") == "axis"]
        self.assertEqual(axes, [("0", "1"), ("-1", "1")])
        texts = [t.text for t in root.iter(f"{SVG_NS}text")]
        for tick in ("-100%", "-50%", "0%", "50%", "100%"):
            self.assertIn(tick, texts)
        # deterministic, and independent of where the files live
        again = self.compare(*ledgers, "--format", "svg")[1]
        self.assertEqual(out.encode(), again.encode())

    def test_compare_markdown_lists_findings_only_when_there_are_some(self) -> None:
        """compare's Markdown lists findings only when there are some."""
        manifest, records = valid_ledger()
        a_m, a_r = self.write_json("a.json", manifest), self.write_jsonl("a.jsonl", records)
        other = json.loads(json.dumps(manifest))
        other["envelope"]["network"] = "on"
        rerun = [dict(r, run_id="r2") for r in records]
        b_m, b_r = self.write_json("b.json", other), self.write_jsonl("b.jsonl", rerun)
        code, out, _ = self.run_gate("compare", "--manifest", str(a_m), "--runs", str(a_r), "--against-manifest",
                                     str(b_m), "--against-runs", str(b_r), "--format", "markdown")
        self.assertEqual(code, 1)
        self.assertIn("**Findings**", out)
        self.assertIn("`envelope_mismatch`", out)
        code, out, _ = self.run_gate("compare", "--manifest", str(a_m), "--runs", str(a_r), "--against-manifest",
                                     str(a_m), "--against-runs", str(b_r), "--format", "markdown")
        self.assertEqual(code, 0)
        self.assertNotIn("**Findings**", out)


class CompareExample(GateCase):
    """examples/compare/: two PUBLISHABLE runs of one suite, and the tool's own output beside them."""

    def test_example_is_current_and_not_distinguishable(self) -> None:
        """examples/compare's text and SVG are exactly what compare prints today, for one suite under one envelope."""
        files = [EXAMPLE_COMPARE / name for name in ("a.manifest.json", "a.jsonl", "b.manifest.json", "b.jsonl")]
        args = ["compare", "--manifest", str(files[0]), "--runs", str(files[1]),
                "--against-manifest", str(files[2]), "--against-runs", str(files[3])]
        code, text, err = self.run_gate(*args)
        self.assertEqual(code, 0, text + err)
        self.assertIn("not distinguishable", text)
        self.assertEqual(text, (EXAMPLE_COMPARE / "compare.txt").read_text(encoding="utf-8"),
                         "compare.txt is stale: run python3 examples/compare/make_example.py")
        code, svg, _ = self.run_gate(*args, "--format", "svg")
        self.assertEqual(svg, (EXAMPLE_COMPARE / "compare.svg").read_text(encoding="utf-8"),
                         "compare.svg is stale: run python3 examples/compare/make_example.py")
        assert_safe_svg(self, svg)
        ma, mb = (json.loads(f.read_text(encoding="utf-8")) for f in files[0::2])
        self.assertEqual(ma["dataset"]["task_ids_sha256"], mb["dataset"]["task_ids_sha256"])
        self.assertEqual(ma["envelope"], mb["envelope"])
        self.assertEqual(ma["dataset"]["task_ids_sha256"], ids_digest(ma["dataset"]["task_ids"]))


class SamplesCompareExample(GateCase):
    """examples/compare-samples: the audit's case, where pairing on first samples reverses the answer."""

    def test_example_is_current(self) -> None:
        """compare.txt is what compare prints today: B ahead over every sample, and significantly so by Miller's
        paired test (p = 0.037, interval [-0.087, -0.003]: the issue's independent figures), where the first
        samples alone (A 33/40, B 4/40) would put A far ahead."""
        folder = ROOT / "examples" / "compare-samples"
        args = ["compare", "--manifest", str(folder / "a.manifest.json"), "--runs", str(folder / "a.jsonl"),
                "--against-manifest", str(folder / "b.manifest.json"), "--against-runs", str(folder / "b.jsonl")]
        code, text, err = self.run_gate(*args)
        self.assertEqual(code, 0, err)
        self.assertEqual(text, (folder / "compare.txt").read_text(encoding="utf-8"),
                         "compare.txt is stale: run python3 examples/compare-samples/make_example.py")
        self.assertIn("A - B = -0.045  95% CI [-0.087, -0.003]", text)
        self.assertRegex(text, r"p = 0\.037\d* ")
        self.assertIn("A - B is significant", text)
        firsts = {}
        for side in ("a", "b"):
            rows = [json.loads(line) for line in (folder / f"{side}.jsonl").read_text(encoding="utf-8").splitlines()]
            firsts[side] = sum(1 for r in rows if r["attempt"] == 1 and r["outcome"] == "pass")
        self.assertEqual(firsts, {"a": 33, "b": 4})


class ComparableInstruments(GateCase):
    def test_two_envelopes_that_do_not_name_the_instrument_are_refused(self) -> None:
        """compare refuses two ledgers whose envelopes lack the four fields: each side is envelope_incomplete."""
        ma, ra, mb, rb = paired_ledgers(26, 3, 4, 7)
        for m in (ma, mb):
            del m["envelope"]["toolchain_sha"]
        a, b = self.write_json("a.json", ma), self.write_json("b.json", mb)
        code, out, err = self.run_gate("compare", "--manifest", str(a), "--runs", str(self.write_jsonl("a.jsonl", ra)),
                                       "--against-manifest", str(b), "--against-runs", str(self.write_jsonl("b.jsonl", rb)),
                                       "--format", "json")
        self.assertEqual(code, 1, err)
        codes = [f["code"] for f in json.loads(out)["findings"]]
        self.assertIn("A:envelope_incomplete", codes)
        self.assertIn("B:envelope_incomplete", codes)


class SamplesCompare(CompareCase):
    """Samples mode pairs on every sample: Miller's (2024 §4) paired test on the per-task differences."""

    COUNTS_A = [5, 4, 3, 5, 2, 0, 5, 4, 1, 0, 3, 5, 5, 2, 4, 0, 0, 5, 3, 4] * 2
    COUNTS_B = [4, 4, 1, 5, 3, 0, 2, 3, 1, 0, 4, 4, 5, 1, 3, 0, 0, 5, 3, 2] * 2

    def test_the_reference_rows(self) -> None:
        """compare on the reference rows (40 x 5, 10 x 3, 12 x 4) gives the difference, interval and p of Miller's
        paired test by tests/oracles.py to 1e-9, and calls a row significant exactly when that p is below 0.05 and
        the interval excludes 0 (every row has at least 6 differing tasks or none differs). The effective table
        the reference vectors hold is still the JSON's `effective_table` and the by-cluster analysis's basis.
        """
        for row in VECTORS["samples_compare"]["rows"]:
            if row.get("interval") is None or row["m"] == 1:
                continue
            with self.subTest(row=row["name"]):
                _, report = self.compare_json(*paired_samples(row["cA"], row["cB"], row["m"]))
                # the builder adds the two controls: pos-01 passes every sample in both, neg-01 none
                counts_a, counts_b = [row["m"], *row["cA"], 0], [row["m"], *row["cB"], 0]
                diff, low, high, p, _ = miller_paired(counts_a, counts_b, row["m"])
                self.assertTrue(close(report["difference"]["value"], diff))
                if low == high:  # no spread: Miller's interval has no width, the gate's falls back (NoSpread...)
                    self.assertLess(report["difference"]["ci_low"], diff)
                    self.assertGreater(report["difference"]["ci_high"], diff)
                    self.assertIs(report["significant"], False)
                    continue
                self.assertTrue(close(report["difference"]["ci_low"], low), (report["difference"], low))
                self.assertTrue(close(report["difference"]["ci_high"], high))
                self.assertTrue(close(report["test"]["p"], p))
                self.assertEqual(report["significant"], p < 0.05 and (low > 0 or high < 0))
                n_star = paired_compare(counts_a, counts_b, row["m"])[4]
                self.assertTrue(close(report["effective_table"]["pairs"], n_star))
        row = next(r for r in VECTORS["samples_compare"]["rows"] if r["name"] == "T40_m5")
        diff, low, high, _, _ = paired_compare(row["cA"], row["cB"], 5)
        self.assertTrue(close(low, row["interval"][0]) and close(high, row["interval"][1]))  # the oracle is the vectors'

    def test_which_sample_passed_does_not_matter(self) -> None:
        """The same per-task counts, passes first or last: the same difference, interval and p. Pairing on the
        first sample would have flipped the sign.
        """
        _, early = self.compare_json(*paired_samples(self.COUNTS_A, self.COUNTS_B, 5))
        _, late = self.compare_json(*paired_samples(self.COUNTS_A, self.COUNTS_B, 5, late=True))
        for key in ("difference", "test", "effective_table", "significant"):
            self.assertEqual(early[key], late[key], key)
        self.assertGreater(early["difference"]["value"], 0)

    def test_one_sample_a_task_is_the_retry_table(self) -> None:
        """Samples mode with a budget of 1 gives exactly retry mode's interval and p for the same outcomes."""
        xs = [1] * 12 + [1] * 9 + [0] * 2 + [0] * 19
        ys = [1] * 12 + [0] * 9 + [1] * 2 + [0] * 19
        _, samples = self.compare_json(*paired_samples(xs, ys, 1))
        _, retry = self.compare_json(*paired_ledgers(13, 9, 2, 20))
        self.assertEqual(samples["paired"], retry["paired"])
        for key in ("ci_low", "ci_high", "value"):
            self.assertAlmostEqual(samples["difference"][key], retry["difference"][key], places=12)
        self.assertAlmostEqual(samples["test"]["p"], retry["test"]["p"], places=12)

    def test_identical_counts_are_no_difference(self) -> None:
        """Two runs with the same per-task counts differ by exactly 0 on every task: p = 1, not significant, and the
        interval (it was [0, 0]: the differences have no spread) is 0 +- t x the samples' own standard error,
        sqrt(sum 2 x(1-x)/(m-1)) / T over the 40 tasks and the two controls."""
        _, report = self.compare_json(*paired_samples(self.COUNTS_A, self.COUNTS_A, 5))
        self.assertEqual(report["difference"]["value"], 0.0)
        self.assertEqual(report["test"]["p"], 1.0)
        self.assertIs(report["significant"], False)
        rates = [c / 5 for c in [5, *self.COUNTS_A, 0]]
        se = math.sqrt(math.fsum(2 * x * (1 - x) / 4 for x in rates)) / len(rates)
        half = gate.t_for(0.95, len(rates) - 1) * se
        self.assertAlmostEqual(report["difference"]["ci_low"], -half, places=12)
        self.assertAlmostEqual(report["difference"]["ci_high"], half, places=12)

    def test_samples_whose_every_rate_is_0_or_1_alike_fall_back_to_mcnemars_test_and_say_so(self) -> None:
        """Ten tasks every sample passes and ten none passes, the same for both: the per-task differences have no
        spread and the samples none of their own, so Miller's t falls back to McNemar's test on the effective
        table, and the basis sentence names that table (Kish, task-clustered), never clusters there are not."""
        code, out, err = self.compare(*paired_samples([5, 0] * 10, [5, 0] * 10, 5))
        self.assertEqual((code, err), (0, ""))
        self.assertIn("per-task pass rates over 5 samples on 22 shared tasks: A only 0.000, B only 0.000 of pairs; "
                      "effective table of 20.0 pairs (Kish, task-clustered, Korn-Graubard)", out)
        self.assertNotIn("None clusters", out)
        _, report = self.compare_json(*paired_samples([5, 0] * 10, [5, 0] * 10, 5))
        self.assertEqual(report["test"]["method"], "mcnemar_exact_conditional")


class ClusteredCompare(CompareCase):
    """--by-cluster: the paired difference's variance by the records' clusters (repositories)."""

    XS = [1, 1, 0, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1]
    YS = [1, 0, 0, 1, 0, 1, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 1]
    REPOS = ["django"] * 9 + ["flask"] * 3 + ["sympy"] * 5 + ["requests"] * 3

    def ledgers(self, repos: list[str] | None = None) -> tuple[Any, ...]:
        return paired_samples(self.XS, self.YS, 1, clusters=repos or self.REPOS)

    def test_clustered_interval_against_the_oracle(self) -> None:
        """With --by-cluster the test is the wild cluster restricted bootstrap: its p and interval are the oracle's
        (every sign pattern of the 5 clusters, the controls' one included), the JSON's effective table is the
        cluster-robust one, and the interval excludes 0 exactly when p < alpha; without it the clusters are
        ignored."""
        _, plain = self.compare_json(*self.ledgers())
        _, clustered = self.compare_json(*self.ledgers(), "--by-cluster")
        self.assertEqual(clustered["clusters"], 5)
        self.assertIsNone(plain["clusters"])
        diffs = [Fraction(x - y) for x, y in zip([1, *self.XS, 0], [1, *self.YS, 0])]
        diff, low, high, p = wild_cluster(diffs, ["ctl", *self.REPOS, "ctl"])
        self.assertEqual(clustered["test"]["method"], "wild_cluster_bootstrap")
        self.assertAlmostEqual(clustered["difference"]["value"], diff, places=12)
        self.assertTrue(close(clustered["difference"]["ci_low"], low), (clustered["difference"], low))
        self.assertTrue(close(clustered["difference"]["ci_high"], high))
        self.assertEqual(clustered["test"]["p"], p)
        # 5 clusters, 32 patterns; flask's and the controls' differences sum to 0, so flipping them changes
        # nothing: 8 patterns are as far out as the data
        self.assertEqual(p, 8 / 32)
        self.assertIs(clustered["significant"], False)
        self.assertLessEqual(clustered["difference"]["ci_low"], 0)
        n_star = paired_compare([1, *self.XS, 0], [1, *self.YS, 0], 1, ["ctl", *self.REPOS, "ctl"])[4]
        self.assertTrue(close(clustered["effective_table"]["pairs"], n_star))
        only_a = sum(1 for x, y in zip(self.XS, self.YS) if x and not y)
        only_b = sum(1 for x, y in zip(self.XS, self.YS) if y and not x)
        self.assertEqual((only_a, only_b), (6, 0))
        _, _, plain_low, plain_high = exact_expected(only_a, only_b, 22)
        self.assertAlmostEqual(plain["difference"]["ci_low"], plain_low, delta=1e-6)
        self.assertGreater(clustered["difference"]["ci_high"] - clustered["difference"]["ci_low"], plain_high - plain_low)
        _, out, _ = self.compare(*self.ledgers(), "--by-cluster")
        self.assertRegex(out, r"(?m)^paired\s*: task exits on 22 shared tasks in 5 clusters: ")
        self.assertRegex(out, r"(?m)^test\s*: wild cluster restricted bootstrap \(Cameron, Gelbach & Miller 2008\)")
        self.assertRegex(out, r"(?m)^test\s*: wild .*\): cluster-robust t = \+[0-9.]+, p = 0\.25 over all 32 sign patterns of 5 "
                              r"clusters \(it rejects beyond \|t\| = [0-9.]+; alpha 0\.05\)$")

    def test_a_task_that_names_no_cluster_is_a_cluster_of_its_own(self) -> None:
        """With --by-cluster, a task whose records name no cluster is its own cluster, never another's: neg-01 (the
        first task in ID order) without one gives the 5 named clusters and itself, 6; the same without pos-01's; both
        without one are two clusters, not one (the 4 repositories and each control alone, 6)."""
        for bare in (("neg-01",), ("pos-01",), ("neg-01", "pos-01")):
            with self.subTest(bare=bare):
                ma, ra, mb, rb = self.ledgers()
                for rec in (*ra, *rb):
                    if rec["task_id"] in bare:
                        del rec["cluster"]
                _, clustered = self.compare_json(ma, ra, mb, rb, "--by-cluster")
                self.assertEqual(clustered["clusters"], 6)

    def test_each_declared_task_no_side_records_is_a_cluster_of_its_own(self) -> None:
        """Manifests that declare 3 tasks more than either runs file records (a digest-only dataset): with
        --by-cluster each of the 3 is a fail on both sides and a cluster of its own, 5 + 3 = 8 clusters, never one
        cluster for the three (the report is BLOCKED for the size, its figures still shown)."""
        ma, ra, mb, rb = self.ledgers()
        for manifest in (ma, mb):
            manifest["dataset"].pop("task_ids", None)
            manifest["dataset"]["task_count"] = 22 + 3
        code, clustered = self.compare_json(ma, ra, mb, rb, "--by-cluster")
        self.assertEqual(code, 1)
        self.assertIn("A:dataset_size_mismatch", [f["code"] for f in clustered["findings"]])
        self.assertEqual(clustered["paired"]["neither"], sum(not x and not y for x, y in zip(self.XS, self.YS)) + 1 + 3)
        self.assertEqual(clustered["clusters"], 8)

    def test_more_clusters_than_are_enumerated_draw_a_fixed_seed(self) -> None:
        """Past WILD_ENUMERATE clusters the patterns are WILD_DRAWS seeded draws: the same p and interval run to
        run; 14 clusters each with A ahead on 2 of 3 tasks is significant (p far below 0.05)."""
        repos = [f"repo{i:02d}" for i in range(14) for _ in range(3)]
        xs = [1, 1, 0] * 14
        ys = [0, 0, 0] * 14
        ledgers = paired_samples(xs, ys, 1, clusters=repos)
        _, first = self.compare_json(*ledgers, "--by-cluster")
        _, again = self.compare_json(*ledgers, "--by-cluster")
        self.assertEqual(first["test"], again["test"])
        self.assertEqual(first["difference"], again["difference"])
        self.assertEqual(first["clusters"], 15)  # the controls' own
        self.assertIs(first["significant"], True)
        self.assertLess(first["test"]["p"], 0.01)
        self.assertGreater(first["difference"]["ci_low"], 0)
        _, out, _ = self.compare(*ledgers, "--by-cluster")
        self.assertIn(f" over {gate.WILD_DRAWS:,} seeded sign patterns of 15 clusters (it rejects beyond |t| = ", out)

    def test_the_drawn_sign_patterns_estimate_the_exact_p(self) -> None:
        """Past WILD_ENUMERATE clusters the seeded draws are Rademacher signs: on six seeded layouts of 13 clusters
        their p is the exact p (wild_cluster's, over all 8,192 sign patterns) to within 4.5 Monte Carlo standard errors of
        WILD_DRAWS draws (weights of 1 and 0 in place of 1 and -1 are off by 10 to 20 of them)."""
        import itertools
        import random

        def exact_p(sums: list[float], sizes: list[int]) -> float:  # wild_cluster's p (the oracle), in floats
            tasks, count = sum(sizes), len(sums)

            def t(signed: list[float]) -> float:
                mean = sum(signed) / tasks
                se = math.sqrt(count / (count - 1) * sum((v - n * mean) ** 2 for v, n in zip(signed, sizes))) / tasks
                return abs(mean) / se if se > 0 else (0.0 if mean == 0 else math.inf)

            observed = t(sums)
            values = [t([w * v for w, v in zip(signs, sums)]) for signs in itertools.product((1, -1), repeat=count)]
            return sum(1 for v in values if v >= observed * (1 - 1e-12)) / len(values)

        self.assertEqual(gate.WILD_ENUMERATE, 12)
        rnd = random.Random(20261227)
        for layout in range(6):
            clusters = [f"repo{g}" for g in range(13) for _ in range(rnd.randint(1, 4))]
            diffs = [Fraction(rnd.choice((-1, 0, 0, 1, 1))) for _ in clusters]
            names = list(dict.fromkeys(clusters))
            sums = [float(sum(d for d, g in zip(diffs, clusters) if g == name)) for name in names]
            sizes = [clusters.count(name) for name in names]
            exact = exact_p(sums, sizes)
            drawn = gate.wild_cluster_test(sums, sizes, 0.95).p_value
            with self.subTest(layout=layout, exact=exact, drawn=drawn):
                self.assertLessEqual(abs(drawn - exact), 4.5 * math.sqrt(exact * (1 - exact) / gate.WILD_DRAWS) + 2e-4)

    def test_a_task_in_two_clusters_is_a_finding(self) -> None:
        """A task whose cluster differs between A and B blocks with cluster_conflict naming it."""
        ma, ra, mb, rb = self.ledgers()
        rb = [dict(r, cluster="flask") if r["task_id"] == "t-000" else r for r in rb]
        code, report = self.compare_json(ma, ra, mb, rb, "--by-cluster")
        self.assertEqual(code, 1)
        self.assertEqual([f["code"] for f in report["findings"]], ["cluster_conflict"])
        self.assertIn("t-000 (django in A, flask in B)", report["findings"][0]["message"])

    def test_by_cluster_without_clusters_is_refused(self) -> None:
        """--by-cluster on records that name no cluster is exit 2 with one line saying so."""
        code, out, err = self.compare(*paired_ledgers(26, 3, 4, 7), "--by-cluster")
        self.assertEqual((code, out), (2, ""))
        self.assertIn("neither side's records name a cluster", err)
        self.assertEqual(len(err.strip().splitlines()), 1)


class CompareAsACiGate(CompareCase):
    """compare --fail-on: a PUBLISHABLE comparison that still fails a CI step; A is the candidate, B the baseline."""

    def test_fail_on_regression_exits_1_only_when_a_is_significantly_worse(self) -> None:
        """10 against 35 of 40 (A worse, significant): exit 1 with --fail-on regression or difference, 0 without; the
        same pair the other way round (A better): exit 1 only with --fail-on difference; 29 against 30 (not
        distinguishable): exit 0 under every option."""
        worse = paired_ledgers(10, 0, 25, 5)
        better = paired_ledgers(10, 25, 0, 5)
        alike = paired_ledgers(26, 3, 4, 7)
        for ledgers, expected in ((worse, {None: 0, "regression": 1, "difference": 1}),
                                  (better, {None: 0, "regression": 0, "difference": 1}),
                                  (alike, {None: 0, "regression": 0, "difference": 0})):
            for option, code in expected.items():
                with self.subTest(option=option, expected=code):
                    extra = ("--fail-on", option) if option else ()
                    got, out, err = self.compare(*ledgers, *extra)
                    self.assertEqual((got, err), (code, ""))
                    # one verdict: the gate's decision (a failed --fail-on blocks, as its exit says)
                    self.assertRegex(out, rf"(?m)^verdict\s*: {'BLOCKED' if code else 'PUBLISHABLE'}$")
                    if option is None:
                        self.assertNotIn("ci gate", out)
                    else:
                        reading = "FAILS" if code else "passes"
                        self.assertRegex(out, rf"(?m)^ci gate\s*: --fail-on {option}: {reading} ")
                        _, report = self.compare_json(*ledgers, *extra)
                        self.assertEqual(report["fail_on"], {"option": option, "failed": bool(code)})

    def test_github_mode_writes_the_comparison_to_the_step_outputs(self) -> None:
        """In GitHub mode compare writes significant, direction, difference, ci_low and ci_high to $GITHUB_OUTPUT,
        the figures those of the JSON report."""
        out_file = self.dir / "output.txt"
        ledgers = paired_ledgers(10, 0, 25, 5)
        _code, report = self.compare_json(*ledgers)
        with github_env(GITHUB_OUTPUT=str(out_file), GITHUB_ACTIONS="true"):
            self.compare(*ledgers, "--fail-on", "regression")
        written = dict(line.split("=", 1) for line in out_file.read_text(encoding="utf-8").splitlines())
        self.assertEqual(written["significant"], "true")
        self.assertEqual(written["direction"], "B_better")
        self.assertEqual(float(written["difference"]), round(report["difference"]["value"], 6))
        self.assertAlmostEqual(float(written["ci_low"]), report["difference"]["ci_low"], places=5)
        self.assertAlmostEqual(float(written["ci_high"]), report["difference"]["ci_high"], places=5)
        self.assertEqual(written["verdict"], "BLOCKED")  # the gate's one decision: --fail-on failed


class CompareExplainsItsDecision(CompareCase):
    def test_the_json_gives_the_differing_units_the_test_and_the_rule(self) -> None:
        """26/3/4/7: 7 tasks differ; the JSON says so, names the exact test and its rule (p < alpha: no floor),
        and whether p fell below alpha. 20/6/0/14, six tasks all one way, is significant: p = 1/32, and the
        interval excludes 0; 20/5/0/15 is not (p = 1/16: no task that both pass or both fail can bring it
        below)."""
        _, report = self.compare_json(*paired_ledgers(26, 3, 4, 7))
        self.assertEqual(report["differing_units"], 7)
        rule = report["decision_rule"]
        self.assertEqual(rule["rule"], "p < alpha")
        self.assertEqual(rule["fewest_differing"], 1)
        self.assertEqual(rule["units"], "tasks")
        self.assertIs(rule["p_below_alpha"], report["test"]["p"] < report["alpha"])
        self.assertEqual(report["test"]["method"], "mcnemar_exact_conditional")
        self.assertIs(report["significant"], False)
        _, report = self.compare_json(*paired_ledgers(20, 6, 0, 14))
        self.assertEqual(report["test"]["p"], 1 / 32)
        self.assertIs(report["significant"], True)
        self.assertGreater(report["difference"]["ci_low"], 0)
        _, report = self.compare_json(*paired_ledgers(20, 5, 0, 15))
        self.assertEqual((report["test"]["p"], report["significant"]), (1 / 16, False))


class TheFigurePlanTakes(CompareCase):
    def test_samples_compare_prints_the_between_task_share_plan_takes(self) -> None:
        """In samples mode compare prints (and its JSON gives) the between-task share of the paired difference's
        variance, the figure `plan --icc` takes: computed here with exact fractions from the per-task counts."""
        from fractions import Fraction

        rnd = __import__("random").Random(5)
        m, tasks = 4, 30
        ease = [rnd.random() for _ in range(tasks)]
        counts_a = [sum(rnd.random() < e for _ in range(m)) for e in ease]
        counts_b = [sum(rnd.random() < max(0.0, e - 0.2) for _ in range(m)) for e in ease]
        counts_a[0], counts_b[0], counts_a[-1], counts_b[-1] = m, m, 0, 0  # the controls
        ma, _ra = as_samples(*valid_ledger(passes=1, fails=1, unscoreable=()), m, {})
        ids = [f"t-{i:02d}" for i in range(tasks)]
        sides = []
        for name, counts in (("a", counts_a), ("b", counts_b)):
            manifest = dict(ma, claim_id=f"claim-{name}",
                            dataset={"name": "s", "task_count": tasks, "task_ids_sha256": ids_digest(ids)},
                            controls=[{"task_id": ids[-1], "expected": "fail", "role": "negative"},
                                      {"task_id": ids[0], "expected": "pass", "role": "positive"}])
            records = [{"run_id": name, "task_id": t, "attempt": k, "outcome": "pass" if k <= c else "fail",
                        "reason": None} for t, c in zip(ids, counts) for k in range(1, m + 1)]
            sides += [manifest, records]
        _code, report = self.compare_json(*sides)
        self.assertEqual(report["verdict"], "PUBLISHABLE", report["findings"])
        diffs = [Fraction(x - y, m) for x, y in zip(counts_a, counts_b)]
        within = sum(Fraction(x * (m - x) + y * (m - y), m * (m - 1)) for x, y in zip(counts_a, counts_b)) / tasks
        mean = sum(diffs) / tasks
        between = max(Fraction(0), sum((d - mean) ** 2 for d in diffs) / (tasks - 1) - within / m)
        want = float(between / (between + within))
        self.assertAlmostEqual(report["detectable_difference"]["difference_icc"], want, places=12)
        _, out, _ = self.compare(*sides)
        self.assertIn(f"the between-task share of the difference's variance is {want:.3f} (`plan --icc`)", out)


class FailOnInGitHub(CompareCase):
    def test_a_failing_gate_is_annotated_and_in_the_outputs(self) -> None:
        """--fail-on regression failing in GitHub mode: an ::error annotation says why, and fail_on=failed is a step
        output beside verdict=BLOCKED: one decision, the gate's (it printed PUBLISHABLE beside FAILS)."""
        out_file = self.dir / "o.txt"
        with github_env(GITHUB_OUTPUT=str(out_file), GITHUB_ACTIONS="true"):
            code, out, _err = self.compare(*paired_ledgers(10, 0, 25, 5), "--fail-on", "regression")
        self.assertEqual(code, 1)
        self.assertIn("::error title=compare --fail-on regression::--fail-on regression: FAILS", out)
        written = dict(line.split("=", 1) for line in out_file.read_text(encoding="utf-8").splitlines())
        self.assertEqual((written["verdict"], written["fail_on"]), ("BLOCKED", "failed"))

    def test_in_another_format_the_annotation_goes_to_standard_error(self) -> None:
        """The same failing gate in JSON or Markdown: standard output is the report alone (JSON that parses, no
        workflow command in it), and the ::error annotation is on standard error."""
        for fmt in ("json", "markdown"):
            with self.subTest(fmt=fmt), github_env(GITHUB_ACTIONS="true"):
                code, out, err = self.compare(*paired_ledgers(10, 0, 25, 5), "--fail-on", "regression", "--format", fmt)
                self.assertEqual(code, 1)
                self.assertNotIn("::error", out)
                self.assertIn("::error title=compare --fail-on regression::--fail-on regression: FAILS", err)
                if fmt == "json":
                    self.assertEqual(json.loads(out)["verdict"], "BLOCKED")


class IntervalBoundsNeverReadAsZero(CompareCase):
    def test_a_significant_interval_prints_a_lower_bound_that_is_not_zero(self) -> None:
        """6 vs 0 of 40 tasks: significant (p 1/32), its interval's lower bound a hair above 0. It printed
        [+0.000, +0.234] and "+0.0 to +23.4 points" (4 vs 0, under the test before), reading as touching 0; each
        bound now shows a digit that is not 0, in the difference line and the reading."""
        ma, ra, mb, rb = paired_ledgers(10, 6, 0, 24)
        _code, report = self.compare_json(ma, ra, mb, rb)
        self.assertTrue(report["significant"])
        low = report["difference"]["ci_low"]
        self.assertTrue(0 < low < 5e-4, low)
        text = self.compare(ma, ra, mb, rb)[1]
        shown = re.search(r"difference *: .*CI \[([^,]+),", text)
        assert shown is not None
        self.assertNotEqual(float(shown[1]), 0.0)
        self.assertAlmostEqual(float(shown[1]), low, delta=abs(low) * 0.06)
        self.assertNotIn("+0.0 to", text)
        self.assertEqual(gate._signed(-0.0004, 3), "-0.0004")
        self.assertEqual(gate._signed(0.1234, 3), "+0.123")


class PastAThousandDifferingTasks(CompareCase):
    def test_past_1000_differing_tasks_the_same_exact_test_holds_its_size(self) -> None:
        """1,200 tasks, 700 vs 400 differing: the same exact conditional test (old code: McNemar's asymptotic test
        past 1,000 differing tasks, whose size given the differing count reached 0.0537 at alpha 0.05, at 1,033),
        its p the oracle's fraction to 1e-9, and its size given s, found here by exact enumeration over s =
        1,001..1,040 (the asymptotic test's worst, 1,033, among them) with the gate's own critical values, never above 0.05."""
        ma, ra, mb, rb = paired_ledgers(50, 700, 400, 50)
        _code, report = self.compare_json(ma, ra, mb, rb)
        self.assertEqual(report["test"]["method"], "mcnemar_exact_conditional")
        want = float(exact_conditional(700, 400))
        self.assertLessEqual(abs(report["test"]["p"] - want), 1e-9 * want)
        rule = next(line for line in self.compare(ma, ra, mb, rb)[1].splitlines() if line.startswith("rule"))
        self.assertIn("valid at every number of tasks", rule)

        def size(s: int) -> Fraction:
            m = round(gate.conditional_critical(s, 0.05) * math.sqrt(s))
            return Fraction(2 * sum(math.comb(s, k) for k in range((s + m) // 2, s + 1)), 2 ** s)

        self.assertLessEqual(max(size(s) for s in range(1001, 1041)), Fraction(1, 20))


class TwoSamples(CompareCase):
    def test_two_samples_a_task_are_named_as_samples(self) -> None:
        """At 2 samples a task the paired line reads "per-task pass rates over 2 samples", not "task exits" (the
        least samples mode has; a mutation survivor of the seed-20261211 sample took 2 for one)."""
        ma, ra, mb, rb = paired_samples([2, 1, 2, 0] * 5, [1, 1, 0, 0] * 5, 2)
        text = self.compare(ma, ra, mb, rb)[1]
        self.assertRegex(text, r"(?m)^paired\s*: per-task pass rates over 2 samples on 22 shared tasks: ")


class NoSpreadInSamplesMode(GateCase):
    def test_identical_differences_keep_an_interval_of_positive_width(self) -> None:
        """20 tasks, A passing 3 of 5 samples and B 2 of 5 on each: every per-task difference is 0.2, so Miller's
        s is 0; the interval was [+0.200, +0.200] with t = +inf and p = 0. The standard error is now the samples'
        own, sqrt(sum (x(1-x) + y(1-y))/(m-1)) / T, computed here from the definition."""
        test = gate.miller_test(Counter({(0.6, 0.4): 20}), 0.95, 5)
        se = math.sqrt(20 * (0.6 * 0.4 + 0.4 * 0.6) / 4) / 20
        critical = gate.t_for(0.95, 19)
        self.assertEqual(test.method, "miller_paired_t")
        self.assertAlmostEqual(test.se, se, places=15)
        self.assertAlmostEqual(test.z, 0.2 / se, places=12)
        self.assertAlmostEqual(test.low, 0.2 - critical * se, places=12)
        self.assertAlmostEqual(test.high, 0.2 + critical * se, places=12)
        self.assertGreater(test.high - test.low, 0.2)
        self.assertLess(test.p_value, 0.05)
        self.assertGreater(test.p_value, 0)

    def test_rates_of_0_and_1_only_are_a_task_table(self) -> None:
        """Every sample of a task agreeing (rates 0 or 1) and every difference +1 or 0 alike: no sample varies, so
        the tasks are single verdicts and the test is the task table's (McNemar's exact conditional test)."""
        for rates, table in ((Counter({(1.0, 0.0): 8}), (8, 0, 8)), (Counter({(1.0, 1.0): 6, (0.0, 0.0): 4}),
                                                                   (0, 0, 10))):
            with self.subTest(rates=rates):
                test = gate.miller_test(rates, 0.95, 4)
                b, c, n = table
                expected = gate.paired_test(gate.PairedTable(b, c, n, (b - c) / n, (b + c) / n, b + c), 0.95)
                self.assertEqual(test, expected)
                self.assertGreater(test.high - test.low, 0)


class DeclaredTasksWithNoRecord(CompareCase):
    def test_a_declared_task_no_side_records_is_a_fail_on_both_in_either_order(self) -> None:
        """Two claims over 5,000 recorded tasks whose manifests declare 5,003 (a digest-only dataset): the three tasks
        no runs file records are fails on both sides, so they are `neither` in the paired table, whether the ledgers
        are sorted (paired by position, in task-ID order) or shuffled (paired by task ID)."""
        import random
        ids = [f"t-{i:05d}" for i in range(5000)]
        passes = {"a": {t for i, t in enumerate(ids) if i % 2 == 0}, "b": {t for i, t in enumerate(ids) if i % 3 == 0}}
        passes["a"].discard("t-00001")
        passes["b"].discard("t-00001")
        expected = {"both_pass": len(passes["a"] & passes["b"]), "a_only": len(passes["a"] - passes["b"]),
                    "b_only": len(passes["b"] - passes["a"]), "neither": 5000 - len(passes["a"] | passes["b"]) + 3}
        rnd = random.Random(5003)
        for order in ("sorted", "shuffled"):
            sides = []
            for side in ("a", "b"):
                manifest = {"claim_id": f"c-{side}", "rerun_recipe": "python3 gate.py --manifest m.json --runs r.jsonl",
                            "dataset": {"name": "suite", "task_count": 5003, "task_ids_sha256": ids_digest(ids)},
                            "controls": [{"task_id": "t-00001", "role": "negative", "expected": "fail"},
                                         {"task_id": "t-00000", "role": "positive", "expected": "pass"}],
                            "envelope": {"runner": "docker 27", "network": "off", "wall_clock_s_per_task": 600,
                                         "toolchain_sha": "abc123", "harness": "h", "harness_version": "1"}}
                records = [{"run_id": f"run-{side}", "task_id": t, "attempt": 1,
                            "outcome": "pass" if t in passes[side] else "fail"} for t in ids]
                if order == "shuffled":
                    rnd.shuffle(records)
                sides += [manifest, records]
            with self.subTest(order=order):
                code, report = self.compare_json(*sides)
                self.assertEqual(report["paired"], expected)
                self.assertEqual(code, 1)  # both sides BLOCKED: each declares more tasks than it records
                self.assertIn("A:dataset_size_mismatch", [f["code"] for f in report["findings"]])
