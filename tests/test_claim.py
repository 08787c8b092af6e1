"""--claim: a quoted number is checked against the headline at the precision it was written with; a
number that only fits the secondary rate or a smaller denominator is named as such.
"""

from __future__ import annotations

import json
from typing import Any

from tests.builders import metric, valid_ledger
from tests.support import GateCase


class ClaimCheck(GateCase):
    """valid_ledger(): 29 pass, 8 fail, 3 unscoreable of 40; headline 29/40 = 0.725, secondary 29/37."""

    def claim(self, text: str, manifest: dict[str, Any] | None = None,
              records: list[Any] | None = None) -> tuple[int, dict[str, Any]]:
        if manifest is None or records is None:
            manifest, records = valid_ledger()
        return self.check_json(manifest, records, "--claim", text)

    def test_matching_claims(self) -> None:
        """A claim that matches the headline 29/40 at its stated precision (72.5%, 0.725, 29/40, 73%, …) passes."""
        for text in ("72.5%", "72.5", "0.725", "29/40", "72%", "73%", "0.73", "72.50%", " 72.5 % "):
            with self.subTest(claim=text):
                code, report = self.claim(text)
                self.assertEqual(code, 0, report["findings"])
                self.assertEqual(report["findings"], [])
                self.assertTrue(report["claim"]["matches"])

    def test_claim_text_line(self) -> None:
        """The claim-check line says the claim matches the headline, or shows the headline beside a claim that does not."""
        manifest, records = valid_ledger()
        code, out, _ = self.check(manifest, records, "--claim", "72.5%")
        self.assertEqual(code, 0)
        self.assertRegex(out, r"(?m)^claim check : 72\.5% matches the headline 29/40 = 0\.725$")
        code, out, _ = self.check(manifest, records, "--claim", "80%")
        self.assertEqual(code, 1)
        self.assertRegex(out, r"(?m)^claim check : 80% .*29/40")

    def test_out_of_precision_claims_are_rejected(self) -> None:
        """A claim outside the headline's rounding interval is claim_unsupported, or claim_shrunk_denominator when it
        fits the passes over fewer tasks.
        """
        # 74% is 0.735..0.745: not the headline 0.725; it happens to contain 29/39 = 0.7436
        for text, expected in (("74%", "claim_shrunk_denominator"), ("71%", "claim_unsupported"),
                               ("72.6%", "claim_unsupported"), ("0.724", "claim_unsupported"),
                               ("80%", "claim_unsupported"), ("30/40", "claim_unsupported"),
                               ("29/41", "claim_unsupported")):
            with self.subTest(claim=text):
                code, report = self.claim(text)
                self.assertEqual(code, 1)
                self.assertFalse(report["claim"]["matches"])
                self.assertEqual([f["code"] for f in report["findings"]], [expected])

    def test_secondary_claims(self) -> None:
        """A claim that matches the scoreable-only secondary 29/37 is claim_is_secondary naming 29/37."""
        for text in ("78.4%", "78.4", "0.784", "29/37", "78%"):
            with self.subTest(claim=text):
                code, report = self.claim(text)
                self.assertEqual(code, 1)
                self.assertEqual([f["code"] for f in report["findings"]], ["claim_is_secondary"])
                self.assertIn("29/37", report["findings"][0]["message"])

    def test_shrunk_denominator_claims_say_how_many(self) -> None:
        """A claim that matches the passes over fewer tasks names that fraction and how many tasks it dropped."""
        manifest, records = valid_ledger(passes=29, fails=11, unscoreable=())
        # 29/39 = 0.743589..., 29/38 = 0.763157..., 29/36 = 0.805555...
        for text, dropped, shown in (("29/38", 2, "29/38"), ("74.36%", 1, "29/39"), ("0.7436", 1, "29/39"),
                                     ("76.3%", 2, "29/38"), ("80.6%", 4, "29/36"), ("29/39", 1, "29/39")):
            with self.subTest(claim=text):
                code, report = self.claim(text, manifest, records)
                self.assertEqual(code, 1)
                self.assertEqual([f["code"] for f in report["findings"]], ["claim_shrunk_denominator"])
                message = report["findings"][0]["message"]
                self.assertIn(shown, message)
                self.assertRegex(message, rf"\b{dropped} task")

    def test_a_shrunk_denominator_drops_at_most_half_the_tasks(self) -> None:
        """3 passes: a claim that fits 3/d is claim_shrunk_denominator while d keeps at least half the n tasks (d >=
        n - n // 2: 20 of 40, 21 of 41), and claim_unsupported below that; the fraction form and the percent form
        agree."""
        for fails, allowed in ((37, 20), (38, 21)):
            manifest, records = valid_ledger(passes=3, fails=fails, unscoreable=())
            n = json.loads(self.check(manifest, records, "--format", "json")[1])["headline"]["n"]
            self.assertEqual(n - n // 2, allowed)
            for d, expected in ((allowed, "claim_shrunk_denominator"), (allowed - 1, "claim_unsupported")):
                for text in (f"3/{d}", f"{100 * 3 / d:.2f}%"):
                    with self.subTest(n=n, claim=text):
                        _, report = self.claim(text, manifest, records)
                        self.assertEqual([f["code"] for f in report["findings"]], [expected])
                        if expected == "claim_shrunk_denominator":
                            self.assertRegex(report["findings"][0]["message"], rf"3/{d}: {n - d} task\(s\) were dropped")

    def test_on_three_tasks_a_shrunk_denominator_drops_one(self) -> None:
        """1 pass of 3 tasks (the fewest where half rounds down): 1/2 drops one task, claim_shrunk_denominator; 1/1
        (100%) drops two, more than half, claim_unsupported."""
        manifest, records = valid_ledger(passes=1, fails=2, unscoreable=())
        for text, expected in (("1/2", "claim_shrunk_denominator"), ("50%", "claim_shrunk_denominator"),
                               ("1/1", "claim_unsupported"), ("100%", "claim_unsupported")):
            with self.subTest(claim=text):
                _, report = self.claim(text, manifest, records)
                self.assertEqual((report["headline"]["k"], report["headline"]["n"]), (1, 3))
                self.assertEqual([f["code"] for f in report["findings"]], [expected])

    def test_claim_against_a_declared_headline_metric(self) -> None:
        """A claim is checked against the declared headline metric when there is one."""
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("attrition", "outcome == 'unscoreable'"),
                               metric("resolved", "outcome == 'pass'", headline=True)]
        for text, expected in (("72.5%", []), ("78.4%", ["claim_is_secondary"]), ("29/39", ["claim_shrunk_denominator"]),
                               ("7.5%", ["claim_unsupported"])):
            with self.subTest(claim=text):
                _, report = self.claim(text, manifest, records)
                self.assertEqual([f["code"] for f in report["findings"]], expected)

    def test_invalid_claims_are_input_errors(self) -> None:
        """A claim that is not a rate (text, over 100%, /0, k > n, empty, negative, a comma, an exponent, nan) is an
        input error naming --claim.
        """
        manifest, records = valid_ledger()
        for text in ("abc", "120%", "5/0", "7/3", "", "-5%", "72,5%", "1e-1", "nan"):
            with self.subTest(claim=text):
                self.assertInputError(self.check(manifest, records, "--claim", text), "--claim")

    def test_a_very_long_claim_is_refused(self) -> None:
        """A claim of thousands of digits is an input error naming --claim."""
        manifest, records = valid_ledger()
        self.assertInputError(self.check(manifest, records, "--claim", "0." + "7" * 5000), "--claim")
        self.assertInputError(self.check(manifest, records, "--claim", "7" * 5000 + "/" + "9" * 5000), "--claim")

    def test_a_claim_of_100_percent_is_a_rate(self) -> None:
        """100% is a claim (here one of a shrunk denominator, 3/3); 100.1% is an input error."""
        manifest, records = valid_ledger(passes=3, fails=1, unscoreable=())
        code, report = self.check_json(manifest, records, "--claim", "100%")
        self.assertEqual(code, 1)  # 3/4 is the headline; 100% is 3/3, one task dropped
        self.assertIn("claim_shrunk_denominator", [f["code"] for f in report["findings"]])
        self.assertInputError(self.check(manifest, records, "--claim", "100.1%"), "100%")


class ClaimTolerance(GateCase):
    def test_a_claim_is_never_matched_more_loosely_than_half_a_point(self) -> None:
        """`--claim 1.0` read at its precision (±0.05) used to match 19/20 = 0.95; a claim never matches more
        loosely than half a percentage point, so it is refused, while 95% and 0.95 match."""
        manifest, records = valid_ledger(passes=19, fails=1, unscoreable=())
        code, report = self.check_json(manifest, records, "--claim", "1.0")
        self.assertEqual(code, 1)
        self.assertIs(report["claim"]["matches"], False)
        for text in ("95%", "0.95", "95.0%", "19/20"):
            with self.subTest(claim=text):
                self.assertEqual(self.check_json(manifest, records, "--claim", text)[0], 0)
        for text in ("0.9", "1", "96%"):
            with self.subTest(claim=text):
                self.assertEqual(self.check_json(manifest, records, "--claim", text)[0], 1)
