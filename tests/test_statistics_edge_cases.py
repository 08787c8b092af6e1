"""What an adversarial review of the statistics found, each pinned by the case that found it: nothing is called
significant on fewer differing tasks than any test needs, a degenerate paired table is not read as many independent
pairs, the cluster analysis never narrows the task-level one, a ranking does not count a system twice, replicates
never show one run's rates as the claim's, plan refuses questions it cannot answer, and a confidence below one half
is refused."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import gate
from tests.builders import COMPARE_ENVELOPE, make_manifest, paired_ledgers, paired_samples, record, valid_ledger
from tests.oracles import exact_conditional
from tests.support import GateCase


def no_control_samples(counts_a: list[int], counts_b: list[int], m: int) -> tuple[Any, ...]:
    """Samples-mode ledgers over exactly these tasks (no control tasks: the two control runs stand in), A and B."""
    ids = [f"t-{i}" for i in range(len(counts_a))]
    out: list[Any] = []
    for side, counts in (("a", counts_a), ("b", counts_b)):
        manifest = make_manifest(ids, claim_id=f"claim-{side}", name="tiny", envelope=dict(COMPARE_ENVELOPE), controls=[],
                                 control_runs=[{"role": "no_edit", "runs": "noedit.jsonl", "max_pass_rate": 0.05},
                                               {"role": "known_fix", "runs": "gold.jsonl", "min_pass_rate": 0.95}],
                                 attempt_mode="samples", attempt_budget=m)
        records = [record(t, "pass" if a <= c else "fail", attempt=a, run_id=side) for t, c in zip(ids, counts)
                   for a in range(1, m + 1)]
        out += [manifest, records]
    return tuple(out)


class CompareCase(GateCase):
    def compare(self, ma: Any, ra: Any, mb: Any, rb: Any, *extra: str, controls: bool = False) -> dict[str, Any]:
        paths = [self.write_json("a.json", ma), self.write_jsonl("a.jsonl", ra), self.write_json("b.json", mb),
                 self.write_jsonl("b.jsonl", rb)]
        if controls:
            ids = ma["dataset"].get("task_ids") or []
            m = ma.get("attempt_budget", 1)
            self.write_jsonl("noedit.jsonl", [record(t, "fail", attempt=a) for t in ids for a in range(1, m + 1)])
            self.write_jsonl("gold.jsonl", [record(t, "pass", attempt=a) for t in ids for a in range(1, m + 1)])
        code, out, err = self.run_gate("compare", "--manifest", str(paths[0]), "--runs", str(paths[1]), "--against-manifest",
                                       str(paths[2]), "--against-runs", str(paths[3]), "--format", "json", *extra)
        self.assertIn(code, (0, 1), err)
        return dict(json.loads(out))


class TooFewToTell(CompareCase):
    def test_three_tasks_of_a_hundred_samples_are_three_tasks(self) -> None:
        """A passes every sample of 3 tasks, B none: 300 pairs, but 3 tasks; p was 2e-15, now not significant, and
        the effective table is about 3 pairs, not 300."""
        report = self.compare(*no_control_samples([100, 100, 100], [0, 0, 0], 100), controls=True)
        self.assertEqual(report["verdict"], "PUBLISHABLE", report["findings"])
        self.assertFalse(report["significant"])
        self.assertLess(report["effective_table"]["pairs"], 3.5)

    def test_four_discordant_tasks_of_six_cannot_reach_five_percent(self) -> None:
        """b = 4, c = 0 of 6 tasks: McNemar's asymptotic p is 0.046 < 0.05, but the exact conditional test's is 1/8
        (tests/oracles.py): not significant, and the test line says no split of 4 reaches alpha. Six tasks all one
        way are significant (p 1/32) whatever the tasks that agree; five are not (1/16), on 7 tasks or on 40."""
        code, out, _ = self.run_gate("compare", *self.pair_paths(*paired_ledgers(1, 4, 0, 1)))
        self.assertEqual(code, 0)
        self.assertIn("not distinguishable", out)
        self.assertRegex(out, r"(?m)^test\s*: McNemar's exact conditional test .* p = 0\.125 \(no split of 4 differing "
                              r"tasks reaches alpha")
        self.assertEqual((exact_conditional(4, 0), exact_conditional(5, 0), exact_conditional(6, 0)),
                         (Fraction(1, 8), Fraction(1, 16), Fraction(1, 32)))
        self.assertTrue(self.compare(*paired_ledgers(1, 6, 0, 1))["significant"])
        self.assertTrue(self.compare(*paired_ledgers(30, 6, 0, 4))["significant"])
        self.assertFalse(self.compare(*paired_ledgers(1, 5, 0, 1))["significant"])
        self.assertFalse(self.compare(*paired_ledgers(18, 5, 0, 17))["significant"])

    def pair_paths(self, ma: Any, ra: Any, mb: Any, rb: Any) -> list[str]:
        paths = [self.write_json("a.json", ma), self.write_jsonl("a.jsonl", ra), self.write_json("b.json", mb),
                 self.write_jsonl("b.jsonl", rb)]
        return ["--manifest", str(paths[0]), "--runs", str(paths[1]), "--against-manifest", str(paths[2]),
                "--against-runs", str(paths[3])]

    def test_two_clusters_are_never_enough(self) -> None:
        """--by-cluster over 2 repositories of 20 tasks each, every task one way: not significant at any size."""
        xs, ys = [1] * 40, [0] * 40
        ma, ra, mb, rb = paired_samples(xs, ys, 1, clusters=["r1"] * 20 + ["r2"] * 20)
        report = self.compare(ma, ra, mb, rb, "--by-cluster")
        self.assertFalse(report["significant"])
        self.assertTrue(self.compare(ma, ra, mb, rb)["significant"])  # on these 42 tasks themselves, it is

    def test_the_cluster_analysis_never_narrows_the_task_level_one(self) -> None:
        """Samples mode where tasks vary within repositories more than repositories do: on this layout the
        by-cluster bootstrap's interval is at least as wide as the task-level one and its p at least as large
        (4 clusters: 16 sign patterns, so its p is at least 2/16)."""
        counts_a = [5, 0, 5, 0, 4, 1, 5, 0, 3, 2, 5, 0] * 3
        counts_b = [4, 0, 4, 1, 3, 1, 4, 0, 3, 1, 4, 1] * 3
        repos = ["r1", "r2", "r3", "r4"] * 9
        ledgers = paired_samples(counts_a, counts_b, 5, clusters=repos)
        plain, clustered = self.compare(*ledgers), self.compare(*ledgers, "--by-cluster")
        width = [r["difference"]["ci_high"] - r["difference"]["ci_low"] for r in (plain, clustered)]
        self.assertGreaterEqual(width[1], width[0] - 1e-12)
        self.assertGreaterEqual(clustered["test"]["p"], plain["test"]["p"] - 1e-12)
        self.assertGreaterEqual(clustered["test"]["p"], 2 / 16)
        self.assertEqual(clustered["test"]["method"], "wild_cluster_bootstrap")

    def test_a_blocked_comparison_is_not_assessed(self) -> None:
        """A BLOCKED compare does not say significant (JSON null, text "not assessed")."""
        ma, ra, mb, rb = paired_ledgers(10, 25, 0, 5)
        mb["envelope"]["network"] = "on"
        report = self.compare(ma, ra, mb, rb)
        self.assertEqual(report["verdict"], "BLOCKED")
        self.assertIsNone(report["significant"])


class RankCannotCountTwice(GateCase):
    def test_a_system_listed_twice_is_refused(self) -> None:
        """The same runs file twice: exit 2 naming both places."""
        ma, ra, _, _ = paired_ledgers(26, 3, 4, 7)
        m, r = str(self.write_json("a.json", ma)), str(self.write_jsonl("a.jsonl", ra))
        code, out, err = self.run_gate("rank", "--manifest", m, "--runs", r, "--manifest", m, "--runs", r)
        self.assertEqual((code, out), (2, ""))
        self.assertIn("system 1 and system 2 are the same runs file", err)

    def test_a_list_entry_that_is_not_a_file_is_named(self) -> None:
        """A list entry pointing at a folder, or out of the list's folder, names the list and the entry."""
        (self.dir / "sub").mkdir()
        for entry, expected in (({"manifest": "sub", "runs": "sub"}, "[0].manifest: 'sub' is not a file"),
                                ({"manifest": "../x.json", "runs": "x.jsonl"}, "escapes")):
            with self.subTest(entry=entry):
                path = self.write_json("list.json", [entry, entry])
                code, _out, err = self.run_gate("rank", "--list", str(path))
                self.assertEqual(code, 2)
                self.assertIn("list.json", err)
                self.assertIn(expected, err)


class ReplicatesShowOnlyTheClaim(GateCase):
    def test_no_run_of_its_own_reads_as_the_claim(self) -> None:
        """Run 1 at 0.925 and run 2 at 0.325: no by-cluster line, no metric, no secondary of run 1 in any format, and a
        claim of run 1's rate is not "the scoreable-only rate"."""
        manifest, records = valid_ledger()
        manifest["replicates"] = ["r1", "r2"]
        manifest["metrics"] = [{"name": "pass_rate", "numerator": "outcome == 'pass'", "denominator": "dataset.task_count",
                                "headline": True}]
        second = [dict(r, run_id="r2", outcome="fail", reason=None) if r["outcome"] == "pass" and r["task_id"] not in
                  ("pos-01",) and i % 2 else dict(r, run_id="r2") for i, r in enumerate(records)]
        runs = [dict(r, cluster="repo") for r in records] + [dict(r, cluster="repo") for r in second]
        _code, report = self.check_json(manifest, runs)
        self.assertIsNone(report["headline_by_cluster"])
        self.assertIsNone(report["secondary"])
        self.assertEqual(report["metrics"], [])
        self.assertEqual(report["replicates"]["ledger_shown"], "r1")
        _, md, _ = self.check(manifest, runs, "--format", "markdown")
        self.assertNotIn("by cluster", md)
        self.assertIn("the buckets below are run r1's", md)
        first_rate = report["replicates"]["runs"][0]["headline"]
        claim = f"{first_rate['k']}/{first_rate['n']}"
        _, claimed = self.check_json(manifest, runs, "--claim", claim)
        message = next(f["message"] for f in claimed["findings"] if f["code"].startswith("claim"))
        self.assertNotIn("scoreable-only", message)

    def test_clusters_must_agree_across_runs(self) -> None:
        """A task in one cluster in r1 and another in r2 is cluster_conflict; clusters in r1 only, cluster_incomplete."""
        manifest, records = valid_ledger()
        manifest["replicates"] = ["r1", "r2"]
        one = [dict(r, cluster="a") for r in records]
        two = [dict(r, run_id="r2", cluster="b" if r["task_id"] == "t-003" else "a") for r in records]
        self.assertIn("cluster_conflict", self.codes(manifest, one + two))
        bare = [dict(r, run_id="r2") for r in records]
        self.assertIn("cluster_incomplete", self.codes(manifest, one + bare))


class QuestionsWithoutAnswers(GateCase):
    def test_plan_refuses_what_it_cannot_answer(self) -> None:
        """A tiny --detect, a difference above the discordance, a power below 0.5: exit 2, one line, no traceback."""
        for args, named in ((["--detect", "1e-300"], "--detect"), (["--detect", "1e-160"], "--detect"),
                            (["--detect", "0.1", "--discordance", "0.0100000001"], "cannot carry"),
                            (["--detect", "0.1", "--power", "1e-10"], "--power")):
            with self.subTest(args=args):
                code, out, err = self.run_gate("plan", "--baseline", "0.5", *args)
                self.assertEqual((code, out), (2, ""), err)
                self.assertIn(named, err)
                self.assertNotIn("Traceback", err)

    def test_plan_sizes_a_small_suite_from_the_tests_own_power(self) -> None:
        """Many samples of no within-task variance: the plan is the fewest tasks at which Miller's t reaches 80% (3:
        with 2 its one degree of freedom leaves power 0.33), not a floor of 6 expected differing tasks (20 tasks),
        which the t-test does not need; Connor's asymptotic answer (1 task) is printed beside it."""
        code, out, _ = self.run_gate("plan", "--baseline", "0.5", "--detect", "0.2", "--discordance", "0.3", "--samples", "100",
                                     "--icc", "0", "--format", "json")
        self.assertEqual(code, 0)
        self.assertEqual((json.loads(out)["tasks"], json.loads(out)["asymptotic_tasks"]), (3, 1))
        question = gate.PlanQuestion(0.5, 0.2, 0.3, 100, 0.0, 0.8, 0.95)
        self.assertLess(gate.plan_power(question, 0.3, 2), 0.5)

    def test_the_adversarial_reviews_samples_mode_and_plan_cases(self) -> None:
        """Three defects a review found in this round's change. Two tasks differing by 0.2 each, once as 0.6 - 0.4 and
        once as 0.4 - 0.2 (not equal in floats): no spread, so the samples' own standard error, not 3e-17 (it
        printed [+0.200, +0.200], p 8.8e-17, significant). Miller's t on 5 differing tasks with p < alpha is not
        significant: the floor of 6, which holds the size at 7-8 tasks of 2-3 samples (0.065-0.067 without it).
        A plan above 10^7 tasks is refused however the search starts (it printed 24,365,924)."""
        from collections import Counter
        test = gate.miller_test(Counter({(0.6, 0.4): 1, (0.4, 0.2): 1}), 0.95, 5)
        self.assertAlmostEqual(test.se, ((0.24 + 0.24 + 0.24 + 0.16) / (5 - 1)) ** 0.5 / 2, places=12)
        self.assertGreater(test.p_value, 0.05)
        strong = gate.miller_test(Counter({(1.0, 0.0): 5, (0.5, 0.5): 3}), 0.95, 2)
        self.assertLess(strong.p_value, 0.05)
        self.assertEqual((strong.differing, strong.floor, strong.significant(0.05)), (5, 6, False))
        ma, ra, mb, rb = paired_ledgers(1, 0, 0, 1)
        paths = [self.write_json("a.json", ma), self.write_jsonl("a.jsonl", ra), self.write_json("b.json", mb),
                 self.write_jsonl("b.jsonl", rb)]
        code, out, _ = self.run_gate("compare", "--manifest", str(paths[0]), "--runs", str(paths[1]), "--against-manifest",
                                     str(paths[2]), "--against-runs", str(paths[3]), "--confidence", "0.5001")
        self.assertRegex(out, r"(?m)^test\s*: .*no split of 0 differing tasks reaches alpha")  # it said "rejects from 0.675"
        for args in (["--detect", "0.001", "--power", "0.999", "--confidence", "0.9999"],
                     ["--detect", "0.002", "--discordance", "1", "--power", "0.999", "--confidence", "0.9999"]):
            with self.subTest(args=args):
                code, out, err = self.run_gate("plan", "--baseline", "0.5", *args)
                self.assertEqual((code, out), (2, ""))
                self.assertIn("more than 10,000,000 tasks", err)

    def test_a_confidence_below_one_half_is_refused(self) -> None:
        """--confidence 1e-12 made anything significant; below 0.5 is now exit 2 naming --confidence."""
        ma, ra, _, _ = paired_ledgers(26, 3, 4, 7)
        m, r = str(self.write_json("a.json", ma)), str(self.write_jsonl("a.jsonl", ra))
        for value in ("1e-12", "0.49", "5e-324"):
            with self.subTest(value=value):
                code, out, err = self.run_gate("--manifest", m, "--runs", r, "--confidence", value)
                self.assertEqual((code, out), (2, ""))
                self.assertIn("--confidence", err)
        self.assertEqual(gate.t_for(5e-324, 3) >= 0, True)  # no hang at the smallest double
