"""Intervals at the boundary (issue 24, point 1): no interval tighter than the all-pass (none-pass) interval of
the same design.

Samples mode (the clusters are the tasks): no interval's lower end above the all-pass interval's of the same
design, no upper end below the none-pass one's. Replicates: the same against the replicates' boundary. Expected
values come from tests/oracles.py (clustered_interval: Kish, CR1, Korn-Graubard, Wilson, in fractions), not from
gate.py.

The headline by cluster: at 0 (N) events Wilson's interval on the G clusters (whole clusters passing or failing
together, the worst case), and no neighbour's interval tighter at that end (tests/oracles.cluster_line_interval).
Bounding 0 events by the tightest one-event neighbour instead (design effect 1) was monotone too but covered
0.53 at ICC 0.6 (bench/stats.py section 6).
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import gate
from tests.builders import make_manifest, record
from tests.oracles import cluster_line_interval, clustered_interval, monotone_clustered_interval, wilson_real, z_of
from tests.support import GateCase


class SamplesMode(GateCase):
    def test_one_failing_sample_never_narrows_the_all_pass_interval(self) -> None:
        """40 tasks x 5 samples: all pass gives [0.908, 1.000]; one failing sample gave [0.971, 0.999] before. Now
        its lower end is at most the all-pass one, each equal to the oracle's, and the lower ends rise with the
        passes from 190 to 200."""
        lows = []
        for failing in range(10, -1, -1):
            passes = {5: 40 - failing, 4: failing} if failing else {5: 40}
            rate = gate.samples_rate(passes, 40, 5, 0.95)
            assert rate is not None
            sums = [5] * (40 - failing) + [4] * failing
            _, low, high = monotone_clustered_interval(sums, [5] * 40)
            self.assertAlmostEqual(rate.low, low, places=9)
            self.assertAlmostEqual(rate.high, high, places=9)
            lows.append(rate.low)
        _, all_low, _ = clustered_interval([5] * 40, [5] * 40)
        self.assertAlmostEqual(lows[-1], all_low, places=9)
        self.assertAlmostEqual(all_low, 0.908, places=3)
        self.assertEqual(lows, sorted(lows))
        self.assertLessEqual(lows[-2], lows[-1])  # 199/200 at most 200/200's

    def test_none_passing_is_the_upper_floor(self) -> None:
        """The mirror image at 0: one passing sample's upper end is at least the none-pass one's."""
        none = gate.samples_rate({0: 40}, 40, 5, 0.95)
        one = gate.samples_rate({0: 39, 1: 1}, 40, 5, 0.95)
        assert none is not None and one is not None
        self.assertGreaterEqual(one.high, none.high)
        self.assertAlmostEqual(none.high, clustered_interval([0] * 40, [5] * 40)[2], places=9)


class Replicates(GateCase):
    def ledger(self, failing: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        ids = [f"t{i:02d}" for i in range(20)]
        manifest = make_manifest(ids, controls=[], replicates=["r1", "r2", "r3"])
        records = [record(t, "fail" if (run == "r1" and i < failing) else "pass", run_id=run)
                   for run in ("r1", "r2", "r3") for i, t in enumerate(ids)]
        return manifest, records

    def test_a_failure_never_narrows_the_all_pass_interval(self) -> None:
        lows = []
        for failing in (2, 1, 0):
            _, report = self.check_json(*self.ledger(failing))
            lows.append(report["headline"]["ci_low"])
        self.assertEqual(lows, sorted(lows), json.dumps(lows))


SWE_BENCH_VERIFIED = {"django": 231, "sympy": 75, "sphinx": 44, "matplotlib": 34, "scikit-learn": 32, "astropy": 22,
                      "xarray": 22, "pytest": 19, "pylint": 10, "requests": 8, "seaborn": 2, "flask": 1}


class ByCluster(GateCase):
    """SWE-bench Verified's layout: 500 tasks in 12 repositories (Kish's effective number of clusters 3.9)."""

    def by_cluster(self, passing: dict[str, int]) -> dict[str, Any]:
        """The headline by cluster when the first passing[repo] tasks of each repository pass."""
        tasks = [(f"{repo}-{i:03d}", repo, i < passing.get(repo, 0))
                 for repo, size in SWE_BENCH_VERIFIED.items() for i in range(size)]
        manifest = make_manifest([t for t, _, _ in tasks], controls=[])
        records = [record(t, "pass" if ok else "fail", cluster=repo) for t, repo, ok in tasks]
        by: dict[str, Any] = self.check_json(manifest, records)[1]["headline_by_cluster"]
        sums = [passing.get(repo, 0) for repo in SWE_BENCH_VERIFIED]
        _, low, high = cluster_line_interval(sums, list(SWE_BENCH_VERIFIED.values()))
        self.assertAlmostEqual(by["ci_low"], low, places=9)
        self.assertAlmostEqual(by["ci_high"], high, places=9)
        return by

    def test_no_event_is_wilson_on_the_twelve_repositories(self) -> None:
        """0/500 printed [0, 0.733] (Kish's 3.9 clusters after the Korn-Graubard factor) beside 1/500's [0, 0.025];
        now z²/(12 + z²) = 0.2425, and 500/500 its mirror."""
        z = z_of(0.95)
        none = self.by_cluster({})
        self.assertEqual(none["ci_low"], 0.0)
        self.assertAlmostEqual(none["ci_high"], z * z / (12 + z * z), places=12)
        self.assertAlmostEqual(none["effective_n"], 12.0)
        every = self.by_cluster(dict(SWE_BENCH_VERIFIED))
        self.assertAlmostEqual(every["ci_low"], wilson_real(1.0, 12, z)[0], places=12)
        self.assertEqual(every["ci_high"], 1.0)

    def test_every_one_event_neighbour_is_at_least_as_wide_at_the_boundary(self) -> None:
        """One pass (one failure) in any of the 12 repositories: an upper end never below 0/500's, a lower end
        never above 500/500's."""
        none_high = self.by_cluster({})["ci_high"]
        all_low = self.by_cluster(dict(SWE_BENCH_VERIFIED))["ci_low"]
        for repo, size in SWE_BENCH_VERIFIED.items():
            with self.subTest(repo=repo):
                self.assertGreaterEqual(self.by_cluster({repo: 1})["ci_high"], none_high)
                self.assertLessEqual(self.by_cluster({**SWE_BENCH_VERIFIED, repo: size - 1})["ci_low"], all_low)

    def test_other_layouts_and_levels_at_the_boundary(self) -> None:
        """One cluster, two unequal ones, many singletons beside one large cluster, at 90, 95 and 99%: the interval
        at 0 and N events is the oracle's, and every one-event (one-failure) neighbour is at least as wide at that
        end."""
        def interval(sums: list[int], sizes: list[int], confidence: float) -> tuple[float, float]:
            low, high, _ = gate.by_cluster_interval(gate.Clusters([Fraction(x) for x in sums], sizes, [1] * len(sizes)),
                                                   confidence)
            return low, high

        exercised = 0
        for sizes in ([5], [1, 499], [250, 250], [1] * 20 + [480]):
            for confidence in (0.9, 0.95, 0.99):
                with self.subTest(sizes=sizes[:3], clusters=len(sizes), confidence=confidence):
                    none, every = [0] * len(sizes), list(sizes)
                    neighbours = [([int(i == g) for i in range(len(sizes))],
                                   [n - int(i == g) for i, n in enumerate(sizes)]) for g in range(len(sizes))]
                    for sums in (none, every, *(ledger for pair in neighbours for ledger in pair)):
                        _, low, high = cluster_line_interval(sums, sizes, confidence)
                        got = interval(sums, sizes, confidence)
                        self.assertAlmostEqual(got[0], low, places=9)
                        self.assertAlmostEqual(got[1], high, places=9)
                    # the hold is exercised: some neighbour's own cluster-robust interval is tighter than
                    # the boundary's, and the gate printed the boundary's end instead
                    _, _, none_high = cluster_line_interval(none, sizes, confidence)
                    held = [one for one, _ in neighbours if clustered_interval(one, sizes, confidence)[2] < none_high]
                    for one in held:
                        self.assertAlmostEqual(interval(one, sizes, confidence)[1], none_high, places=12)
                    exercised += bool(held)
        self.assertGreater(exercised, 3)

    def test_interior_ledgers_against_the_oracle(self) -> None:
        """Random ledgers near and away from the boundary: the gate's interval is the oracle's (the CR1 interval,
        held by the boundary's where that is wider)."""
        rng = random.Random(20261202)
        held = 0
        for rate in (0.004, 0.01, 0.03, 0.2, 0.6, 0.97, 0.995):
            passing = {repo: sum(rng.random() < rate for _ in range(size)) for repo, size in SWE_BENCH_VERIFIED.items()}
            by = self.by_cluster(passing)
            _, low, high = clustered_interval(list(passing.values()), list(SWE_BENCH_VERIFIED.values()))
            held += (by["ci_low"], by["ci_high"]) != (low, high)
        self.assertGreater(held, 0)  # the boundary rule moved at least one of them
