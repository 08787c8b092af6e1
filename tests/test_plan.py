"""plan: how many tasks a paired comparison needs, before anyone builds the suite.

Expected values: the plan rows of tests/reference/stat_vectors_v2.json (mpmath, 50 digits), and the
power of the compare rule at the planned size by exact enumeration, written here from its definition.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from tests.oracles import z_of
from tests.support import GateCase

VECTORS = json.loads((Path(__file__).parent / "reference" / "stat_vectors_v2.json").read_text(encoding="utf-8"))


def exact_power(n: int, p12: float, p21: float, confidence: float = 0.95) -> float:
    """P(the asymptotic McNemar test rejects) on n paired tasks with these discordant cell probabilities, summed
    exactly over every table (S discordant ~ Bin(n, p12 + p21), b | S ~ Bin(S, p12/(p12 + p21)))."""
    z2 = z_of(confidence) ** 2
    psi, share = p12 + p21, p12 / (p12 + p21)
    total = 0.0
    for s in range(1, n + 1):
        log_s = math.lgamma(n + 1) - math.lgamma(s + 1) - math.lgamma(n - s + 1) + s * math.log(psi) + (n - s) * math.log1p(-psi)
        inner = 0.0
        for b in range(s + 1):
            if (2 * b - s) ** 2 > z2 * s:
                inner += math.exp(math.lgamma(s + 1) - math.lgamma(b + 1) - math.lgamma(s - b + 1)
                                  + b * math.log(share) + (s - b) * math.log1p(-share))
        total += math.exp(log_s) * inner
    return total


class PlanCommand(GateCase):
    def plan_json(self, *args: str) -> dict[str, object]:
        code, out, err = self.run_gate("plan", *args, "--format", "json")
        self.assertEqual(code, 0, err)
        return dict(json.loads(out))

    def test_reference_rows(self) -> None:
        """Every reference row: the tasks needed is the ceiling of the 50-digit value, and the discordance used is
        the one given or independent systems' p1(1 − p2) + p2(1 − p1).
        """
        for row in VECTORS["plan"]["rows"]:
            with self.subTest(row=row):
                args = ["--baseline", repr(row["p"]), "--detect", repr(row["delta"]), "--samples", str(row["k"]),
                        "--icc", repr(row["icc"])]
                if row["psi"] is not None:
                    args += ["--discordance", repr(row["psi"])]
                got = self.plan_json(*args)
                self.assertEqual(got["tasks"], math.ceil(float(row["tasks_exact"])))
                self.assertEqual(got["tasks"], row["tasks"])
                self.assertLessEqual(abs(float(str(got["discordance"])) - row["psi_used"]), 1e-12)

    def test_the_planned_size_has_the_power_asked(self) -> None:
        """At the planned number of tasks the compare rule's exact power is about the 80% asked (Connor's formula
        is asymptotic), and one task fewer is below what that many gives.
        """
        for baseline, detect, discordance in ((0.5, 0.2, 0.3), (0.2, 0.2, 0.3), (0.6, 0.15, 0.25)):
            with self.subTest(baseline=baseline, detect=detect, discordance=discordance):
                got = self.plan_json("--baseline", str(baseline), "--detect", str(detect), "--discordance", str(discordance))
                n = int(str(got["tasks"]))
                p12, p21 = (discordance + detect) / 2, (discordance - detect) / 2
                power = exact_power(n, p12, p21)
                self.assertGreater(power, 0.76)
                self.assertLess(power, 0.86)
                self.assertGreater(power, exact_power(max(1, n - 5), p12, p21))

    def test_samples_and_assumptions_move_the_answer_the_right_way(self) -> None:
        """More samples, more discordance credit (a smaller discordance), a larger difference or less power need fewer
        tasks; the table lists 1, 3, 5, 10 and the samples asked.
        """
        base = ["--baseline", "0.7", "--detect", "0.05"]
        plain = self.plan_json(*base)
        self.assertEqual([row["samples"] for row in plain["by_samples"]], [1, 3, 5, 10])  # type: ignore[union-attr]
        tasks = [row["tasks"] for row in plain["by_samples"]]  # type: ignore[union-attr]
        self.assertEqual(tasks, sorted(tasks, reverse=True))
        self.assertEqual(plain["tasks"], tasks[0])
        seven = self.plan_json(*base, "--samples", "7")
        self.assertEqual([row["samples"] for row in seven["by_samples"]], [1, 3, 5, 7, 10])  # type: ignore[union-attr]
        fewer = [self.plan_json(*base, "--discordance", "0.2")["tasks"], self.plan_json("--baseline", "0.7", "--detect", "0.1")["tasks"],
                 self.plan_json(*base, "--power", "0.5")["tasks"]]
        for value in fewer:
            self.assertLess(int(str(value)), int(str(plain["tasks"])))
        self.assertGreater(int(str(self.plan_json(*base, "--confidence", "0.99")["tasks"])), int(str(plain["tasks"])))
        with_icc = self.plan_json(*base, "--samples", "5", "--icc", "1")
        self.assertEqual(with_icc["tasks"], plain["tasks"])  # all variance between tasks: samples do not help

    def test_text(self) -> None:
        """The text names the question, the discordance and where it came from, the answer and the method."""
        code, out, _ = self.run_gate("plan", "--baseline", "0.7", "--detect", "0.05", "--discordance", "0.2", "--samples", "5")
        self.assertEqual(code, 0)
        got = self.plan_json("--baseline", "0.7", "--detect", "0.05", "--discordance", "0.2", "--samples", "5")
        self.assertRegex(out, r"(?m)^question\s*: detect A - B = \+0\.050 over a baseline of 0\.700 \(95% confidence, 80% power")
        self.assertRegex(out, r"(?m)^discordance : 0\.200 of tasks pass on one system only \(given\)$")
        self.assertRegex(out, rf"(?m)^tasks\s*: {got['tasks']} tasks \({int(str(got['tasks'])) * 5} attempts a system\)$")
        self.assertIn("Connor (1987)", out)
        _, out, _ = self.run_gate("plan", "--baseline", "0.7", "--detect", "0.05")
        self.assertIn("independent systems: no credit for pairing", out)

    def test_impossible_questions_are_exit_2(self) -> None:
        """A question with no answer is one line on stderr naming the option, exit 2."""
        for args, named in ((["--baseline", "0", "--detect", "0.1"], "--baseline"),
                            (["--baseline", "1", "--detect", "0.1"], "--baseline"),
                            (["--baseline", "0.95", "--detect", "0.1"], "--detect"),
                            (["--baseline", "0.5", "--detect", "0"], "--detect"),
                            (["--baseline", "0.5", "--detect", "-0.1"], "--detect"),
                            (["--baseline", "0.5", "--detect", "nan"], "--detect"),
                            (["--baseline", "inf", "--detect", "0.1"], "--baseline"),
                            (["--baseline", "0.5", "--detect", "0.1", "--discordance", "0"], "--discordance"),
                            (["--baseline", "0.5", "--detect", "0.1", "--discordance", "0.005"], "discordance"),
                            (["--baseline", "0.5", "--detect", "0.1", "--icc", "1.5"], "--icc"),
                            (["--baseline", "0.5", "--detect", "0.1", "--samples", "0"], "--samples"),
                            (["--baseline", "0.5", "--detect", "0.1", "--power", "1"], "--power"),
                            (["--baseline", "0.5", "--detect", "0.1", "--confidence", "1"], "--confidence"),
                            (["--detect", "0.1"], "--baseline")):
            with self.subTest(args=args):
                code, out, err = self.run_gate("plan", *args)
                self.assertEqual((code, out), (2, ""))
                self.assertIn(named, err)
                self.assertEqual(len(err.strip().splitlines()), 1, err)
                self.assertNotIn("Traceback", err)
