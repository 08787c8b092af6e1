"""Replicates: several runs of one suite gated together when the manifest says so. Every run is gated in
full; the headline is their mean, its interval from the two-way layout of tasks x runs, so it counts the
run-to-run (seed) variance as well as the tasks'; the between-run spread is printed beside it.

Expected values: the runs_crossed example of tests/reference/stat_vectors_v2.json (exact fractions and
mpmath) and tests/oracles.crossed_interval.
"""

from __future__ import annotations

import json
import random
import statistics
from pathlib import Path
from typing import Any

from tests.builders import make_manifest, record
from tests.oracles import crossed_interval
from tests.support import GateCase

VECTORS = json.loads((Path(__file__).parent / "reference" / "stat_vectors_v2.json").read_text(encoding="utf-8"))


def replicated(cells: list[list[int]], m: int = 1, runs: list[str] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A manifest declaring the runs as replicates and their records: cells[r][t] passes of m samples. Task 0 must pass
    everywhere and the last task fail everywhere: they are the controls."""
    names = runs or [f"seed-{r + 1}" for r in range(len(cells))]
    ids = [f"t-{t:02d}" for t in range(len(cells[0]))]
    extra: dict[str, Any] = {"attempt_mode": "samples", "attempt_budget": m} if m > 1 else {}
    manifest = make_manifest(ids, controls=[{"task_id": ids[-1], "expected": "fail", "role": "negative"},
                                            {"task_id": ids[0], "expected": "pass", "role": "positive"}],
                             replicates=names, **extra)
    records = [record(tid, "pass" if a <= row[t] else "fail", attempt=a, run_id=name)
               for name, row in zip(names, cells) for t, tid in enumerate(ids) for a in range(1, m + 1)]
    return manifest, records


def random_cells(seed: int, runs: int, tasks: int, m: int = 1) -> list[list[int]]:
    rng = random.Random(seed)
    ease = [rng.random() for _ in range(tasks)]
    shift = [rng.uniform(-0.15, 0.15) for _ in range(runs)]
    cells = [[sum(rng.random() < min(1.0, max(0.0, e + s)) for _ in range(m)) for e in ease] for s in shift]
    for row in cells:
        row[0], row[-1] = m, 0
    return cells


class ReplicateHeadline(GateCase):
    def test_the_reference_example(self) -> None:
        """The 6-task x 3-run reference: mean 11/18 and the interval [0.26655, 0.87171] to 1e-9, Satterthwaite df 5."""
        example = VECTORS["runs_crossed"]["example"]
        by_task = example["y_tasks_by_runs"]
        order = [0, 1, 3, 4, 5, 2]  # the all-pass task first, the all-fail one last: the controls
        cells = [[by_task[t][r] for t in order] for r in range(3)]
        code, report = self.check_json(*replicated(cells))
        self.assertEqual(code, 0, report["findings"])
        head = report["headline"]
        self.assertAlmostEqual(head["rate"], 11 / 18, places=12)
        self.assertLessEqual(abs(head["ci_low"] - example["interval"][0]), 1e-9)
        self.assertLessEqual(abs(head["ci_high"] - example["interval"][1]), 1e-9)
        self.assertAlmostEqual(report["replicates"]["df"], example["df_satterthwaite"], places=9)
        self.assertLessEqual(abs(report["replicates"]["effective_n"] - example["n_star"]), 1e-9)

    def test_against_the_oracle(self) -> None:
        """Random designs (retry and samples mode, runs that differ and runs that do not): mean, interval and df match
        the oracle; each run's own headline and the between-run sd are listed."""
        for seed, runs, tasks, m in ((1, 3, 30, 1), (2, 5, 20, 1), (3, 2, 40, 1), (4, 4, 25, 3), (5, 3, 12, 5)):
            with self.subTest(seed=seed, runs=runs, tasks=tasks, m=m):
                cells = random_cells(seed, runs, tasks, m)
                code, report = self.check_json(*replicated(cells, m))
                self.assertEqual(code, 0, report["findings"])
                mean, low, high, df = crossed_interval(cells, m)
                head = report["headline"]
                self.assertLessEqual(abs(head["rate"] - mean), 1e-12)
                self.assertLessEqual(abs(head["ci_low"] - low), 1e-9)
                self.assertLessEqual(abs(head["ci_high"] - high), 1e-9)
                self.assertLessEqual(abs(report["replicates"]["df"] - df), 1e-9 * df)
                per_run = [sum(row) / (m * tasks) for row in cells]
                self.assertEqual([r["run_id"] for r in report["replicates"]["runs"]], [f"seed-{r + 1}" for r in range(runs)])
                for got, want in zip(report["replicates"]["runs"], per_run):
                    self.assertAlmostEqual(got["headline"]["rate"], want, places=12)
                self.assertAlmostEqual(report["replicates"]["between_run_sd"], statistics.stdev(per_run), places=12)

    def test_run_to_run_variance_widens_the_interval(self) -> None:
        """Runs that disagree on the same tasks give a wider interval than runs that agree (same mean)."""
        agree = [[1] * 20 + [0] * 20 for _ in range(4)]
        shifted = [[1] * 20 + [0] * 20, [1] * 28 + [0] * 12, [1] * 12 + [0] * 28, [1] * 20 + [0] * 20]
        _, calm = self.check_json(*replicated(agree))
        _, noisy = self.check_json(*replicated(shifted))
        self.assertEqual(calm["headline"]["rate"], noisy["headline"]["rate"])
        width = [r["headline"]["ci_high"] - r["headline"]["ci_low"] for r in (calm, noisy)]
        self.assertGreater(width[1], width[0])
        self.assertGreater(noisy["replicates"]["between_run_sd"], 0.1)
        self.assertEqual(calm["replicates"]["between_run_sd"], 0.0)

    def test_one_task_in_two_runs_has_no_task_term(self) -> None:
        """One task, passed in one run and failed in the other: the task term's mean square is 0 (T - 1 = 0 leaves
        nothing to divide), so the headline's variance is the runs' alone, on Satterthwaite's 1 df; a mutation
        survivor of the seed-20261211 sample divided by T - 1 there (exit 3)."""
        code, report = self.check_json(*replicated([[1], [0]]))
        self.assertEqual(code, 1)  # one task is both controls: controls_conflict
        self.assertEqual(report["headline"]["rate"], 0.5)
        self.assertEqual(report["replicates"]["df"], 1.0)

    def test_text(self) -> None:
        """The text marks the headline as the replicates' mean, lists each run with the spread, and says whose ledger is
        shown."""
        cells = random_cells(7, 3, 30)
        code, out, _ = self.check(*replicated(cells))
        self.assertEqual(code, 0, out)
        self.assertRegex(out, r"(?m)^pass_rate\s*: .*<- headline \(mean of 3 replicate runs\)$")
        values = [sum(row) / 30 for row in cells]
        listed = ", ".join(f"seed-{r + 1} {v:.3f}" for r, v in enumerate(values))
        self.assertIn(f"replicates  : {listed}; between runs sd {statistics.stdev(values):.3f}", out)
        self.assertIn("the entries and exits shown are run seed-1's", out)
        self.assertNotIn("labelled secondary", out)  # run 1's rates would read as the claim's


class ReplicateRules(GateCase):
    def test_undeclared_runs_stay_a_finding(self) -> None:
        """Without the declaration, several run_ids in one file are still mixed_runs."""
        manifest, records = replicated(random_cells(8, 2, 10))
        del manifest["replicates"]
        self.assertIn("mixed_runs", self.codes(manifest, records))

    def test_missing_and_undeclared_replicates(self) -> None:
        """A declared run with no record is replicate_missing; a run in the file that the list lacks is
        replicate_undeclared; both name the run."""
        manifest, records = replicated(random_cells(9, 3, 10))
        manifest["replicates"] = ["seed-1", "seed-2", "seed-9"]
        code, report = self.check_json(manifest, records)
        self.assertEqual(code, 1)
        found = {f["code"]: f["message"] for f in report["findings"]}
        self.assertEqual(set(found), {"replicate_missing", "replicate_undeclared"})
        self.assertIn("seed-9", found["replicate_missing"])
        self.assertIn("seed-3", found["replicate_undeclared"])

    def test_a_finding_inside_one_run_is_prefixed(self) -> None:
        """A replicate whose own ledger breaks a rule blocks the claim, the finding prefixed R<n>: with its place."""
        manifest, records = replicated(random_cells(10, 3, 10))
        records = [r for r in records if not (r["run_id"] == "seed-2" and r["task_id"] == "t-03")]
        code, report = self.check_json(manifest, records)
        self.assertEqual(code, 1)
        codes = [f["code"] for f in report["findings"]]
        self.assertIn("R2:never_started", codes)
        self.assertTrue(all(c.startswith("R2:") for c in codes), codes)
        self.assertIn("t-03", next(f["message"] for f in report["findings"] if f["code"] == "R2:never_started"))

    def test_malformed_declarations_are_exit_2(self) -> None:
        """One replicate, a repeated one, replicates beside run_id, --run-id with replicates, and compare or rank of a
        replicated manifest: exit 2, one line naming the field or the command."""
        cells = random_cells(11, 2, 10)
        cases = [({"replicates": ["seed-1"]}, (), "at least two"), ({"replicates": ["seed-1", "seed-1"]}, (), "listed twice"),
                 ({"run_id": "seed-1"}, (), "not both"), ({}, ("--run-id", "seed-1"), "gates its replicates together")]
        for change, extra, expected in cases:
            with self.subTest(change=change, extra=extra):
                manifest, records = replicated(cells)
                manifest.update(change)
                code, out, err = self.check(manifest, records, *extra)
                self.assertEqual((code, out), (2, ""))
                self.assertIn(expected, err)
                self.assertEqual(len(err.strip().splitlines()), 1)
        manifest, records = replicated(cells)
        m, r = str(self.write_json("m.json", manifest)), str(self.write_jsonl("r.jsonl", records))
        code, out, err = self.run_gate("compare", "--manifest", m, "--runs", r, "--against-manifest", m, "--against-runs", r)
        self.assertEqual((code, out), (2, ""))
        self.assertIn("compare and rank pair one run with one run", err)


class DegreesOfFreedomLabel(GateCase):
    def test_the_df_says_which_model_was_fitted(self) -> None:
        """Runs that agree on every task (MS_run = 0, not above the residual): the run term is dropped and the df is
        the tasks' T - 1, said so, not "Satterthwaite df"; runs that disagree keep Satterthwaite's df. Both checked
        against the mean squares computed here."""
        agree = [[1] * 20 + [0] * 20 for _ in range(4)]
        code, out, _ = self.check(*replicated(agree))
        self.assertEqual(code, 0, out)
        self.assertIn("the run term is dropped: df 39, the tasks' T - 1", out)
        self.assertNotIn("Satterthwaite", out)
        _, report = self.check_json(*replicated(agree))
        self.assertEqual((report["replicates"]["df"], report["replicates"]["df_method"]), (39, "tasks_minus_one"))
        shifted = [[1] * 20 + [0] * 20, [1] * 28 + [0] * 12, [1] * 12 + [0] * 28, [1] * 20 + [0] * 20]
        runs, tasks = len(shifted), len(shifted[0])
        grand = sum(map(sum, shifted)) / (runs * tasks)
        by_run = [sum(row) / tasks for row in shifted]
        by_task = [sum(row[t] for row in shifted) / runs for t in range(tasks)]
        ms_run = tasks * sum((m - grand) ** 2 for m in by_run) / (runs - 1)
        ms_resid = sum((shifted[r][t] - by_task[t] - by_run[r] + grand) ** 2
                       for r in range(runs) for t in range(tasks)) / ((tasks - 1) * (runs - 1))
        self.assertGreater(ms_run, ms_resid)
        code, out, _ = self.check(*replicated(shifted))
        self.assertRegex(out, r"two-way layout, Satterthwaite df \d+\.\d\)")
        _, report = self.check_json(*replicated(shifted))
        self.assertEqual(report["replicates"]["df_method"], "satterthwaite")



class EveryReplicateHoldsToTheCeiling(GateCase):
    def test_a_later_replicate_past_the_attrition_ceiling_blocks(self) -> None:
        """Two replicates, the second with 30 of its 42 tasks unscoreable: the card's counts are the first run's, but
        the second is held to the ceiling too (R2:attrition_exceeded); the order of the runs does not matter."""
        ids = [f"t-{t:02d}" for t in range(42)]
        cells = [[1 if t % 2 == 0 else 0 for t in range(42)] for _ in range(2)]
        for row in cells:
            row[0], row[-1] = 1, 0
        for order in (["r1", "r2"], ["r2", "r1"]):
            with self.subTest(order=order):
                manifest, records = replicated(cells, runs=["r1", "r2"])
                manifest["replicates"] = order
                for rec in records:
                    if rec["run_id"] == "r2" and 1 <= ids.index(rec["task_id"]) <= 30:
                        rec["outcome"], rec["reason"] = "unscoreable", "harness_timeout"
                code, report = self.check_json(manifest, records)
                self.assertEqual(code, 1)
                number = order.index("r2") + 1
                self.assertIn(f"R{number}:attrition_exceeded", [f["code"] for f in report["findings"]])
