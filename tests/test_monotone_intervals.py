"""Intervals are monotone at the boundary (issue 24, point 1): a worse result never prints a tighter interval.

Samples mode (the clusters are the tasks): no interval's lower end above the all-pass interval's of the same
design, no upper end below the none-pass one's. The by-cluster line at 0 (or N) events, where the clusters
show no variance: bounded by its neighbours, the designs with one event more (fewer) in one cluster of each
shape. Replicates: no interval tighter at the boundary than the boundary's own. Expected values come from
tests/oracles.py (clustered_interval: Kish, CR1, Korn-Graubard, Wilson, in fractions), not from gate.py.
"""

from __future__ import annotations

import json
from typing import Any

import gate
from tests.builders import make_manifest, record
from tests.oracles import clustered_interval, monotone_clustered_interval
from tests.support import GateCase

# SWE-bench Verified's 500 instances by repository (12 clusters)
REPOSITORIES = {"django": 231, "sympy": 75, "sphinx": 44, "matplotlib": 34, "scikit-learn": 32, "xarray": 22,
                "astropy": 22, "pytest": 19, "pylint": 10, "requests": 8, "seaborn": 2, "flask": 1}


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


class ByCluster(GateCase):
    def test_zero_events_bounded_by_its_neighbours(self) -> None:
        """0/500 on the 12 repositories printed [0, 0.733] beside 1/500's [0, 0.025]. Its upper end is now the
        smallest any one-event neighbour reaches (the oracle's, over an event in a cluster of each size), so
        it is below every neighbour's."""
        sizes = list(REPOSITORIES.values())
        shapes = sorted((0, n, sizes.count(n)) for n in set(sizes))
        low, high = gate._boundary_by_neighbours(shapes, 0.95)
        neighbours = []
        for index in range(len(sizes)):
            sums = [0] * len(sizes)
            sums[index] = 1
            neighbours.append(clustered_interval(sums, sizes)[2])
        self.assertEqual(low, 0.0)
        self.assertAlmostEqual(high, min(neighbours), places=9)
        self.assertLess(high, 0.733)
        self.assertTrue(all(high <= n + 1e-12 for n in neighbours))

    def test_all_events_mirror(self) -> None:
        sizes = list(REPOSITORIES.values())
        shapes = sorted((n, n, sizes.count(n)) for n in set(sizes))
        low, high = gate._boundary_by_neighbours(shapes, 0.95)
        neighbours = []
        for index in range(len(sizes)):
            sums = list(sizes)
            sums[index] -= 1
            neighbours.append(clustered_interval(sums, sizes)[1])
        self.assertEqual(high, 1.0)
        self.assertAlmostEqual(low, max(neighbours), places=9)

    def test_the_line_a_check_prints(self) -> None:
        """Through check: 12 tasks in 4 clusters, none passing (the positive control fails too, so the claim is
        BLOCKED, but the line is printed): its upper end is at most the same ledger's with one pass."""
        repos = {f"t{i:02d}": f"r{i % 4}" for i in range(12)}
        ids = sorted(repos)
        manifest = make_manifest(ids, controls=[])
        reports = []
        for passing in ((), ("t05",)):
            records = [record(t, "pass" if t in passing else "fail", cluster=repos[t]) for t in ids]
            _, report = self.check_json(manifest, records)
            reports.append(report["headline_by_cluster"])
        zero, one = reports
        self.assertEqual(zero["k"], 0)
        self.assertLessEqual(zero["ci_high"], one["ci_high"])


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
