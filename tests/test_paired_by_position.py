"""compare and rank read sorted ledgers through check's sorted stream: each side keeps its tasks' scores in
task-ID order without the IDs, and two sides with the same digest pair by position. Whatever path a side
takes, the report is the one the per-task tables give: each case here runs both ways and compares the JSON
byte for byte. The paired statistics are sums over the distinct (A, B) pairs; they are checked against the
task-by-task formulas written out here.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from typing import Any
from unittest import mock

import gate
from tests.builders import paired_ledgers, paired_samples
from tests.support import GateCase


def in_id_order(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(records, key=lambda r: (r["task_id"], r["attempt"]))


class BothPaths(GateCase):
    """Each command runs with the sorted stream for every file (the fast path's size floor at 0) and with
    the per-task tables only (the floor above every file)."""

    def run_both(self, *argv: str) -> tuple[str, str, mock.MagicMock]:
        outputs = []
        spy = mock.MagicMock()
        for floor in (0, 1 << 60):
            with mock.patch.object(gate, "_FAST_MIN_BYTES", floor), \
                    mock.patch.object(gate, "_scored_by_id", wraps=gate._scored_by_id) as wrapped:
                code, out, err = self.run_gate(*argv, "--format", "json")
            self.assertIn(code, (0, 1), err)
            outputs.append(out)
            if floor == 0:
                spy = wrapped
        return outputs[0], outputs[1], spy

    def write_side(self, name: str, manifest: dict[str, Any], records: list[dict[str, Any]]) -> list[str]:
        return [str(self.write_json(f"{name}.manifest.json", manifest)), str(self.write_jsonl(f"{name}.jsonl", records))]

    def compare_both(self, ma: dict[str, Any], ra: list[Any], mb: dict[str, Any], rb: list[Any],
                     *extra: str) -> tuple[dict[str, Any], mock.MagicMock]:
        a, b = self.write_side("a", ma, ra), self.write_side("b", mb, rb)
        fast, tables, spy = self.run_both("compare", "--manifest", a[0], "--runs", a[1], "--against-manifest", b[0],
                                          "--against-runs", b[1], *extra)
        self.assertEqual(fast, tables)
        return json.loads(fast), spy


class CompareByPosition(BothPaths):
    def test_sorted_sides_of_one_suite_pair_by_position(self) -> None:
        """Retry mode: the paired table (17, 6, 2, 15) and everything after it are the tables' exactly, and no
        side is read a second time."""
        ma, ra, mb, rb = paired_ledgers(17, 6, 2, 15)
        report, spy = self.compare_both(ma, in_id_order(ra), mb, in_id_order(rb))
        self.assertEqual(report["paired"], {"both_pass": 17, "a_only": 6, "b_only": 2, "neither": 15})
        spy.assert_not_called()

    def test_samples_mode_by_position(self) -> None:
        """Samples mode (5 samples, random pass counts): the effective table, p and the between-task share are the
        tables' exactly."""
        rng = random.Random(7)
        counts_a = [rng.randint(0, 5) for _ in range(60)]
        counts_b = [min(5, max(0, c + rng.choice((-2, -1, 0, 0, 1)))) for c in counts_a]
        ma, ra, mb, rb = paired_samples(counts_a, counts_b, 5)
        report, spy = self.compare_both(ma, in_id_order(ra), mb, in_id_order(rb))
        self.assertIsNotNone(report["detectable_difference"]["difference_icc"])
        spy.assert_not_called()

    def test_different_tasks_are_paired_by_id(self) -> None:
        """B lacks one of A's tasks (the digests differ): pairing by position would shift every task after it, so
        both sides are read again into tables, and the report is the tables'."""
        ma, ra, mb, rb = paired_ledgers(17, 6, 2, 15)
        rb = [r for r in rb if r["task_id"] != "t-005"]
        report, spy = self.compare_both(ma, in_id_order(ra), mb, in_id_order(rb))
        spy.assert_called_once()
        self.assertEqual(report["verdict"], "BLOCKED")  # B's ledger misses a declared task
        for manifest in (ma, mb):  # with the digest alone declared, B's sorted stream runs to its end
            del manifest["dataset"]["task_ids"]
        report, spy = self.compare_both(ma, in_id_order(ra), mb, in_id_order(rb))
        spy.assert_called_once()  # t-005, which both passed, is one A alone passed now (B has no record of it)
        self.assertEqual(report["paired"], {"both_pass": 16, "a_only": 7, "b_only": 2, "neither": 15})

    def test_one_side_unsorted(self) -> None:
        """A in task-ID order, B in file order as a concurrent harness writes it: paired by ID."""
        ma, ra, mb, rb = paired_ledgers(10, 3, 5, 12)
        rb = list(rb)
        random.Random(3).shuffle(rb)
        report, spy = self.compare_both(ma, in_id_order(ra), mb, rb)
        spy.assert_called_once()
        self.assertEqual(report["paired"], {"both_pass": 10, "a_only": 3, "b_only": 5, "neither": 12})


class RankByPosition(BothPaths):
    def test_three_sorted_systems(self) -> None:
        """Three systems of one suite in task-ID order: Cochran's Q, every pair and the groups are the tables'."""
        ma, ra, mb, rb = paired_ledgers(20, 9, 1, 10)
        mc, rc = dict(ma, claim_id="claim-c"), [dict(r, run_id="run-c") for r in rb]
        for r in rc:
            if r["task_id"].startswith("t-0") and int(r["task_id"][2:]) % 3 == 0:
                r["outcome"] = "fail"
        argv = []
        for name, (m, r) in zip("abc", ((ma, ra), (mb, rb), (mc, rc))):
            manifest, runs = self.write_side(name, m, in_id_order(r))
            argv += ["--manifest", manifest, "--runs", runs]
        fast, tables, spy = self.run_both("rank", *argv)
        self.assertEqual(fast, tables)
        spy.assert_not_called()
        self.assertEqual(len(json.loads(fast)["pairs"]), 3)


class SumsOverDistinctPairs(GateCase):
    def test_paired_singles_is_paired_effective_task_by_task(self) -> None:
        """paired_effective with every task its own cluster (None) equals, bit for bit, the same function given
        each task's own cluster number, for 1 to 5 samples and random rates."""
        rng = random.Random(11)
        for trial in range(60):
            m = 1 + trial % 5
            tasks = rng.randint(2, 80)
            xs = [rng.randint(0, m) / m for _ in range(tasks)]
            ys = [rng.randint(0, m) / m for _ in range(tasks)]
            with self.subTest(trial=trial):
                self.assertEqual(gate.paired_effective(xs, ys, None, m, 0.95),
                                 gate.paired_effective(xs, ys, list(range(tasks)), m, 0.95))

    def test_difference_icc_from_pair_counts(self) -> None:
        """The between-task share from the counts of (A passes, B passes) is the task-by-task formula's."""
        rng = random.Random(5)
        for m in (2, 3, 5):
            xs = [rng.randint(0, m) for _ in range(50)]
            ys = [rng.randint(0, m) for _ in range(50)]
            n = len(xs)
            diffs = [(x - y) / m for x, y in zip(xs, ys)]
            within = sum((x * (m - x) + y * (m - y)) / (m * (m - 1)) for x, y in zip(xs, ys)) / n
            centre = sum(diffs) / n
            between = max(0.0, sum((d - centre) ** 2 for d in diffs) / (n - 1) - within / m)
            want = between / (between + within)
            got = gate.difference_icc(Counter(zip(xs, ys)), m)
            self.assertIsNotNone(got)
            self.assertTrue(math.isclose(got or 0.0, want, rel_tol=1e-12), (m, got, want))
