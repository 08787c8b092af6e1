"""plan: how many tasks a paired comparison needs, before anyone builds the suite.

Expected values: the plan rows of tests/reference/stat_vectors_v2.json (mpmath, 50 digits), and the
power of the compare rule at the planned size by exact enumeration, written here from its definition.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import gate
from tests.oracles import t_two_sided, table_power
from tests.support import GateCase

VECTORS = json.loads((Path(__file__).parent / "reference" / "stat_vectors_v2.json").read_text(encoding="utf-8"))


def simulated_t_power(tasks: int, detect: float, spread: float, seed: int, reps: int = 2000) -> float:
    """The share of seeded runs in which a two-sided paired t-test at 5% rejects on `tasks` per-task differences
    drawn N(detect, spread): Miller's test under the plan's own variance model, simulated (t quantile from the
    oracle)."""
    rng, critical = random.Random(seed), t_two_sided(0.95, tasks - 1)
    hits = 0
    for _ in range(reps):
        diffs = [rng.gauss(detect, math.sqrt(spread)) for _ in range(tasks)]
        mean = sum(diffs) / tasks
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (tasks - 1))
        hits += abs(mean) * math.sqrt(tasks) >= critical * sd
    return hits / reps


class PlanCommand(GateCase):
    def plan_json(self, *args: str) -> dict[str, object]:
        code, out, err = self.run_gate("plan", *args, "--format", "json")
        self.assertEqual(code, 0, err)
        return dict(json.loads(out))

    def test_reference_rows(self) -> None:
        """Every reference row: the asymptotic answer is the ceiling of the 50-digit Connor value, the discordance used
        is the one given or independent systems' p1(1 − p2) + p2(1 − p1), and at one sample a task the answer is the
        least number of tasks at which the exact conditional test's enumerated power reaches 80% (tests/oracles.py).
        """
        for row in VECTORS["plan"]["rows"]:
            with self.subTest(row=row):
                args = ["--baseline", repr(row["p"]), "--detect", repr(row["delta"]), "--samples", str(row["k"]),
                        "--icc", repr(row["icc"])]
                if row["psi"] is not None:
                    args += ["--discordance", repr(row["psi"])]
                got = self.plan_json(*args)
                self.assertEqual(got["asymptotic_tasks"], math.ceil(float(row["tasks_exact"])))
                self.assertEqual(got["asymptotic_tasks"], row["tasks"])
                self.assertLessEqual(abs(float(str(got["discordance"])) - row["psi_used"]), 1e-12)
                if row["k"] == 1 and int(str(got["tasks"])) <= 160:
                    n, psi = int(str(got["tasks"])), row["psi_used"]
                    self.assertGreaterEqual(table_power(n, psi, row["delta"], 0.05), 0.8)
                    self.assertLess(table_power(n - 1, psi, row["delta"], 0.05), 0.8)

    def test_the_planned_size_has_the_power_asked(self) -> None:
        """One sample a task: at the planned number of tasks the exact conditional test's enumerated power reaches 80%
        and one task fewer does not (Connor's asymptotic answer, which plan printed before, is below the planned size
        where the conditional test is conservative)."""
        for baseline, detect, discordance in ((0.5, 0.2, 0.3), (0.2, 0.2, 0.3), (0.6, 0.15, 0.25)):
            with self.subTest(baseline=baseline, detect=detect, discordance=discordance):
                got = self.plan_json("--baseline", str(baseline), "--detect", str(detect), "--discordance", str(discordance))
                n = int(str(got["tasks"]))
                self.assertGreaterEqual(table_power(n, discordance, detect, 0.05), 0.8)
                self.assertLess(table_power(n - 1, discordance, detect, 0.05), 0.8)

    def test_a_power_reached_exactly_is_reached(self) -> None:
        """Reaching the power includes equality: asked for exactly the power the test has at the planned size (the
        float plan computes there, given back as --power), plan answers that size, not one task more. Three samples
        a task (Miller's power rises smoothly with the tasks) and one (the exact test's)."""
        for samples in ("3", "1"):
            with self.subTest(samples=samples):
                args = ["--baseline", "0.5", "--detect", "0.1", "--samples", samples, "--icc", "0.5"]
                planned = self.plan_json(*args)
                n, psi = int(str(planned["tasks"])), float(str(planned["discordance"]))
                question = gate.PlanQuestion(0.5, 0.1, None, int(samples), 0.5, 0.8, 0.95)
                exact = gate.plan_power(question, psi, n)
                self.assertLess(gate.plan_power(question, psi, n - 1), exact)
                self.assertLess(exact, gate.plan_power(question, psi, n + 1))
                self.assertEqual(self.plan_json(*args, "--power", repr(exact))["tasks"], n)

    def test_samples_mode_plans_from_millers_own_power(self) -> None:
        """k samples a task: the planned tasks give Miller's t-test 80% power by simulation under the plan's own
        variance model (2,000 seeded runs, to 0.03), small suites included, where Connor's formula with no floor gave
        power 0.43-0.81 (the retired floor of 6 differing tasks made up for it)."""
        for baseline, detect, discordance, samples, icc in ((0.5, 0.2, 0.3, 100, 0.0), (0.5, 0.2, 0.3, 5, 0.3),
                                                             (0.7, 0.1, 0.2, 10, 0.1), (0.5, 0.2, 0.4, 3, 0.6)):
            with self.subTest(samples=samples, icc=icc):
                got = self.plan_json("--baseline", str(baseline), "--detect", str(detect), "--discordance",
                                     str(discordance), "--samples", str(samples), "--icc", str(icc))
                tasks = int(str(got["tasks"]))
                spread = (discordance - detect * detect) * (icc + (1 - icc) / samples)
                question = gate.PlanQuestion(baseline, detect, discordance, samples, icc, 0.8, 0.95)
                for n in (tasks, tasks - 1):  # the power plan computes is the simulated one, to 0.03
                    self.assertAlmostEqual(simulated_t_power(n, detect, spread, seed=n),
                                           gate.plan_power(question, discordance, n), delta=0.03)
                self.assertGreaterEqual(gate.plan_power(question, discordance, tasks), 0.8)
                self.assertLess(gate.plan_power(question, discordance, tasks - 1), 0.8)
                self.assertGreaterEqual(simulated_t_power(tasks, detect, spread, seed=tasks), 0.77)

    def test_samples_and_assumptions_move_the_answer_the_right_way(self) -> None:
        """More samples, more discordance credit (a smaller discordance), a larger difference or less power need fewer
        tasks; the table lists 1, 3, 5, 10 and the samples asked.
        """
        base = ["--baseline", "0.7", "--detect", "0.1"]
        plain = self.plan_json(*base)
        self.assertEqual([row["samples"] for row in plain["by_samples"]], [1, 3, 5, 10])  # type: ignore[union-attr]
        tasks = [row["tasks"] for row in plain["by_samples"]]  # type: ignore[union-attr]
        self.assertEqual(tasks, sorted(tasks, reverse=True))
        self.assertEqual(plain["tasks"], tasks[0])
        seven = self.plan_json(*base, "--samples", "7")
        self.assertEqual([row["samples"] for row in seven["by_samples"]], [1, 3, 5, 7, 10])  # type: ignore[union-attr]
        fewer = [self.plan_json(*base, "--discordance", "0.2")["tasks"], self.plan_json("--baseline", "0.7", "--detect", "0.15")["tasks"],
                 self.plan_json(*base, "--power", "0.5")["tasks"]]
        for value in fewer:
            self.assertLess(int(str(value)), int(str(plain["tasks"])))
        self.assertGreater(int(str(self.plan_json(*base, "--confidence", "0.99")["tasks"])), int(str(plain["tasks"])))
        with_icc = [self.plan_json(*base, "--samples", k, "--icc", "1")["tasks"] for k in ("3", "5", "10")]
        self.assertEqual(len(set(with_icc)), 1)  # all variance between tasks: more samples do not help

    def test_text(self) -> None:
        """The text names the question, the discordance and where it came from, the answer and the method."""
        code, out, _ = self.run_gate("plan", "--baseline", "0.7", "--detect", "0.1", "--discordance", "0.2", "--samples", "5")
        self.assertEqual(code, 0)
        got = self.plan_json("--baseline", "0.7", "--detect", "0.1", "--discordance", "0.2", "--samples", "5")
        self.assertRegex(out, r"(?m)^question\s*: detect A - B = \+0\.100 over a baseline of 0\.700 \(95% confidence, 80% power")
        self.assertRegex(out, r"(?m)^discordance : 0\.200 of tasks pass on one system only \(given\)$")
        self.assertRegex(out, rf"(?m)^tasks\s*: {got['tasks']} tasks \({int(str(got['tasks'])) * 5} attempts a system\)$")
        self.assertIn(f"Connor's (1987) asymptotic answer would be {got['asymptotic_tasks']}", out)
        _, out, _ = self.run_gate("plan", "--baseline", "0.7", "--detect", "0.1")
        self.assertIn("independent systems: no credit for pairing", out)

    def test_the_fuzzers_plans_are_answered(self) -> None:
        """Two plans the fuzzer found: a baseline of 1e-300 with A - B = 1 (every task differs by exactly 1: no
        spread) is answered, not a ZeroDivisionError; A - B = 0.01 over 0.5 (about 39,000 tasks) takes the exact
        critical value only up to 1,000 differing tasks (work counted: the exact one
        costs a sum a call), where the first took longer than the fuzzer's 5 s."""
        from unittest import mock
        got = self.plan_json("--baseline", "1e-300", "--detect", "1", "--power", "0.5")
        self.assertGreaterEqual(int(str(got["tasks"])), 2)
        for detect in ("0.0100000001",):
            with self.subTest(detect=detect), mock.patch.object(gate, "conditional_critical",
                                                                 wraps=gate.conditional_critical) as critical:
                got = self.plan_json("--baseline", "0.5", "--detect", detect)
                self.assertLessEqual(max((call.args[0] for call in critical.call_args_list), default=0),
                                     gate.EXACT_FRACTIONS)
                self.assertGreater(int(str(got["tasks"])), 30_000)

    def test_every_differing_task_one_way_always_rejects_past_the_exact_range(self) -> None:
        """P(reject | s differing tasks) when every one goes to A (share 1) or to B (share 0): 1, on both sides of
        EXACT_FRACTIONS (the exact sum and the normal approximation agree there); at share 1/2 the normal branch
        rejects about alpha of the time, as a level-alpha test must."""
        normal = gate.z_for(0.95)
        for s in (gate.EXACT_FRACTIONS, gate.EXACT_FRACTIONS + 1, 4001, 10**6):
            for share in (0.0, 1.0):
                with self.subTest(s=s, share=share):
                    self.assertEqual(gate._rejected(s, share, 0.05, normal), 1.0)
        for s in (1001, 4001):
            with self.subTest(s=s, share=0.5):
                self.assertGreater(gate._rejected(s, 0.5, 0.05, normal), 0.03)
                self.assertLessEqual(gate._rejected(s, 0.5, 0.05, normal), 0.05)

    def test_past_the_exact_range_the_rejection_region_keeps_the_counts_parity(self) -> None:
        """Above EXACT_FRACTIONS differing tasks, P(reject | s) is the normal approximation (continuity corrected)
        of a rejection region |2B − s| >= L, and |2B − s| always has s's parity, so L must too: for s of both
        parities and three shares, the value is within 5e-4 of the exact binomial chance of such a region for some
        L of s's parity near the normal critical value (it is within 1e-4; an L of the other parity is a half step
        off, 3e-3 to 1e-2)."""
        normal = gate.z_for(0.95)

        def region(s: int, share: float, least: int) -> float:
            return math.fsum(math.exp(math.lgamma(s + 1) - math.lgamma(b + 1) - math.lgamma(s - b + 1)
                                      + b * math.log(share) + (s - b) * math.log1p(-share))
                             for b in range(s + 1) if abs(2 * b - s) >= least)

        for s in (1001, 1002, 1003, 1004):
            near = round(normal * math.sqrt(s))
            for share in (0.5, 0.52, 0.55):
                with self.subTest(s=s, share=share):
                    got = gate._rejected(s, share, 0.05, normal)
                    self.assertLess(min(abs(got - region(s, share, least))
                                        for least in range(near - 6, near + 7) if (least - s) % 2 == 0), 5e-4)

    def test_the_search_brackets_connors_answer(self) -> None:
        """tasks_needed starts from Connor's answer and brackets it within a sixteenth: a plan of about 400 tasks
        takes a dozen power evaluations, not a bisection from 0 (work counted; a mutation survivor of the seed-20261208
        sample bracketed from start // step, the same answer at twice the work)."""
        from unittest import mock
        question = gate.PlanQuestion(0.5, 0.1, 0.4, 3, 0.6, 0.8, 0.95)
        with mock.patch.object(gate, "plan_power", wraps=gate.plan_power) as power:
            tasks, _ = gate.tasks_needed(question)
        self.assertGreater(tasks, 200)
        self.assertLessEqual(power.call_count, 8)

    def test_when_connors_answer_is_the_answer_the_first_bracket_holds_it(self) -> None:
        """Where Connor's answer rounded up is itself the least number of tasks with the power (Miller's test, samples
        a task), the first bracket [start − step, start] holds it: two power evaluations and a bisection of the
        step, at most 2 + ⌈log2(step)⌉ (work counted; a start one task low misses the answer and doubles past it)."""
        from unittest import mock
        for question in (gate.PlanQuestion(0.2, 0.05, None, 3, 0.0, 0.8, 0.95),
                         gate.PlanQuestion(0.5, 0.1, None, 3, 0.0, 0.8, 0.95),
                         gate.PlanQuestion(0.7, 0.1, 0.3, 3, 0.0, 0.8, 0.95)):
            with self.subTest(question=question), \
                    mock.patch.object(gate, "plan_power", wraps=gate.plan_power) as power:
                tasks, psi = gate.tasks_needed(question)
                self.assertEqual(tasks, math.ceil(gate.connor_tasks(question, psi)))
                self.assertLessEqual(power.call_count, 2 + math.ceil(math.log2(tasks // 16)))

    def test_far_from_connors_answer_the_bracket_doubles(self) -> None:
        """Where the conditional test is far more conservative than Connor's asymptotic answer (A - B = 0.01 with
        discordance 0.011, 60% confidence, 50% power: Connor says 78, the exact test needs 266), the search doubles its
        step past the answer and bisects: the planned size has the power asked and one task fewer does not (exact
        enumeration), in 14 power evaluations, not one a pair of tasks (a step grown by 2 % step) and not a step
        that explodes into 'more than 10,000,000 tasks' (2 << step)."""
        from unittest import mock
        question = gate.PlanQuestion(0.5, 0.01, 0.011, 1, 0.0, 0.5, 0.6)
        with mock.patch.object(gate, "plan_power", wraps=gate.plan_power) as power:
            tasks, _ = gate.tasks_needed(question)
        self.assertLessEqual(power.call_count, 16)
        self.assertGreaterEqual(table_power(tasks, 0.011, 0.01, 0.4), 0.5)
        self.assertLess(table_power(tasks - 1, 0.011, 0.01, 0.4), 0.5)
        self.assertGreater(tasks, 3 * math.ceil(gate.connor_tasks(question, 0.011)))
        got = self.plan_json("--baseline", "0.5", "--detect", "0.01", "--discordance", "0.011", "--power", "0.5",
                             "--confidence", "0.6")
        self.assertEqual(got["tasks"], tasks)

    def test_impossible_questions_are_exit_2(self) -> None:
        """A question with no answer is one line on stderr naming the option, exit 2."""
        for args, named in ((["--baseline", "0", "--detect", "0.1"], "--baseline"),
                            (["--baseline", "1", "--detect", "0.1"], "--baseline"),
                            (["--baseline", "0.95", "--detect", "0.1"],
                             "--detect: expected a difference above 0 that keeps baseline + detect <= 1 (at most "
                             "0.05 over a baseline of 0.95), got 0.1"),
                            (["--baseline", "0.5", "--detect", "0"], "--detect"),
                            (["--baseline", "0.5", "--detect", "-0.1"], "--detect"),
                            (["--baseline", "0.5", "--detect", "nan"], "--detect"),
                            (["--baseline", "inf", "--detect", "0.1"], "--baseline"),
                            (["--baseline", "0.5", "--detect", "0.1", "--discordance", "0"], "--discordance: expected the share"),
                            (["--baseline", "0.5", "--detect", "0.1", "--discordance", "-0.5"], "in (0, 1], got -0.5"),
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
