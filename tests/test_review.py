"""Regression tests for defects found in review and for mutants that survived the first mutation run."""

from __future__ import annotations

import json
import math
import shutil
import time
from typing import Any

from tests.support import FIXTURES, ROOT, GateCase, gate, record, valid_ledger

CARD = ROOT / "examples" / "card"


class Metrics(GateCase):
    def metric(self, numerator: str, denominator: str = "dataset.task_count", **extra: Any) -> dict[str, Any]:
        return {"name": "m", "numerator": numerator, "denominator": denominator, "unit": "tasks", **extra}

    def test_a_field_no_record_carries_is_undefined(self) -> None:
        manifest, records = valid_ledger()
        manifest["metrics"] = [self.metric("outcom == 'pass'")]
        code, report = self.check_json(manifest, records)
        self.assertEqual(code, 1)
        messages = [f["message"] for f in report["findings"] if f["code"] == "metric_undefined"]
        self.assertEqual(len(messages), 1, report["findings"])
        self.assertIn("'outcom'", messages[0])

    def test_an_outcome_that_cannot_exist_is_undefined(self) -> None:
        manifest, records = valid_ledger()
        for predicate in ("outcome == 'Pass'", "outcome in ('pass', 'passed')"):
            with self.subTest(predicate=predicate):
                manifest["metrics"] = [self.metric(predicate)]
                self.assertIn("metric_undefined", self.codes(manifest, records))

    def test_a_field_some_records_carry_is_fine(self) -> None:
        manifest, records = valid_ledger()
        records[0]["difficulty"] = "hard"
        manifest["metrics"] = [self.metric("outcome == 'pass'"), self.metric("difficulty == 'hard'")]
        manifest["metrics"][1]["name"] = "hard"
        code, report = self.check_json(manifest, records)
        self.assertEqual(code, 0, report["findings"])
        self.assertEqual(report["metrics"][1]["rate"]["k"], 1)

    def test_an_empty_denominator_prints_n_a_not_undefined(self) -> None:
        manifest, records = valid_ledger()
        manifest["metrics"] = [self.metric("outcome == 'pass'"),
                               {**self.metric("outcome == 'pass'", "outcome == 'unscoreable' and outcome == 'pass'"),
                                "name": "empty"}]
        code, out, _ = self.check(manifest, records)
        self.assertEqual(code, 0)
        line = next(x for x in out.splitlines() if x.strip().startswith("empty"))
        self.assertIn("n/a", line)
        self.assertNotIn("undefined", line)

    def test_repeated_attempts_pick_the_same_extra_fields_in_any_order(self) -> None:
        manifest, records = valid_ledger()
        manifest["attempt_budget"] = 2
        first = dict(records[5], note="x")
        second = dict(records[5], note="y")
        manifest["metrics"] = [self.metric("outcome == 'pass'"), {**self.metric("note == 'x'"), "name": "x"}]
        a = self.check(manifest, [*records[:5], first, second, *records[6:]], "--format", "json")
        b = self.check(manifest, [*records[:5], second, first, *records[6:]], "--format", "json")
        strip = lambda out: {k: v for k, v in json.loads(out).items() if k != "inputs"}  # noqa: E731
        self.assertEqual(strip(a[1]), strip(b[1]))


class WithheldStrata(GateCase):
    def test_a_metric_cannot_print_a_withheld_stratum_rate(self) -> None:
        for name in ("tasks.json", "bench.manifest.json", "runs.jsonl", "noedit.jsonl", "gold.jsonl"):
            shutil.copy(CARD / name, self.dir / name)
        code, out, err = self.run_gate("freeze", str(self.dir / "tasks.json"), str(self.dir / "card.json"),
                                       "--min-per-stratum", "7", "--withhold-thin-strata")
        self.assertEqual(code, 0, err)
        card = json.loads((self.dir / "card.json").read_text())
        self.assertIn("go:narrow", card["withheld"])
        manifest = json.loads((self.dir / "bench.manifest.json").read_text())
        manifest["metrics"] = [
            {"name": "pass_rate", "numerator": "outcome == 'pass'", "denominator": "dataset.task_count"},
            {"name": "go_rate", "numerator": "outcome == 'pass'", "denominator": "stratum == 'go:narrow'"},
        ]
        (self.dir / "bench.manifest.json").write_text(json.dumps(manifest))
        code, out, err = self.run_gate("--manifest", str(self.dir / "bench.manifest.json"),
                                       "--runs", str(self.dir / "runs.jsonl"), "--format", "json")
        report = json.loads(out)
        self.assertEqual(code, 1, err)
        self.assertIn("metric_undefined", [f["code"] for f in report["findings"]])
        self.assertIsNone(report["metrics"][1]["rate"])


class Compare(GateCase):
    def side(self, name: str, manifest: dict[str, Any], records: list[dict[str, Any]]) -> tuple[str, str]:
        m = self.write_json(f"{name}.manifest.json", manifest)
        r = self.write_jsonl(f"{name}.jsonl", records)
        return str(m), str(r)

    def samples(self, first: str, rest: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        manifest, records = valid_ledger(passes=10, fails=10, unscoreable=())
        manifest.update(attempt_mode="samples", attempt_budget=3)
        out = []
        for r in records:
            tid = r["task_id"]
            for attempt in (1, 2, 3):
                outcome = r["outcome"] if tid in ("neg-01", "pos-01") else (first if attempt == 1 else rest)
                out.append(record(tid, outcome, attempt=attempt))
        return manifest, out

    def test_samples_mode_pairs_on_the_first_sample(self) -> None:
        a = self.side("a", *self.samples("fail", "pass"))  # first sample fails
        b = self.side("b", *self.samples("pass", "fail"))  # first sample passes
        _code, out, _err = self.run_gate("compare", "--manifest", a[0], "--runs", a[1], "--against-manifest", b[0],
                                       "--against-runs", b[1], "--format", "json")
        report = json.loads(out)
        # A's first samples fail and its later ones pass: pass@1 favours A, first samples favour B.
        self.assertGreater(report["a"]["headline"]["rate"], report["b"]["headline"]["rate"])
        self.assertEqual(report["paired"], {"both_pass": 1, "a_only": 0, "b_only": 18, "neither": 1})
        self.assertAlmostEqual(report["difference"]["value"], -18 / 20)
        _code, text, _ = self.run_gate("compare", "--manifest", a[0], "--runs", a[1], "--against-manifest", b[0],
                                      "--against-runs", b[1])
        self.assertIn("paired on   : A 1/20, B 19/20 (first samples", text)

    def test_different_attempt_contracts_are_not_compared(self) -> None:
        manifest, records = valid_ledger()
        other = dict(manifest, attempt_budget=2)
        a, b = self.side("a", manifest, records), self.side("b", other, records)
        code, out, _ = self.run_gate("compare", "--manifest", a[0], "--runs", a[1], "--against-manifest", b[0],
                                     "--against-runs", b[1], "--format", "json")
        self.assertEqual(code, 1)
        self.assertIn("attempt_contract_mismatch", [f["code"] for f in json.loads(out)["findings"]])


class Inputs(GateCase):
    def test_lone_surrogates_are_input_errors(self) -> None:
        manifest, records = valid_ledger()
        m = self.write_json("bench.manifest.json", manifest)
        lines = [json.dumps(r) for r in records]
        lines[6] = lines[6].replace('"t-005"', '"\\ud800"')
        r = self.write_text("runs.jsonl", "\n".join(lines) + "\n")
        self.assertInputError(self.run_gate("--manifest", str(m), "--runs", str(r)), "runs.jsonl:7:", "surrogate")
        self.assertInputError(self.run_gate("digest", "--runs", str(r)), "runs.jsonl:7:", "surrogate")
        text = json.dumps(manifest, indent=2).replace('"test-claim"', '"\\udc00"')
        m2 = self.write_text("m2.json", text)
        r2 = self.write_jsonl("r2.jsonl", records)
        self.assertInputError(self.run_gate("--manifest", str(m2), "--runs", str(r2)), "m2.json:2:", "surrogate")

    def test_a_surrogate_pair_is_fine(self) -> None:
        manifest, records = valid_ledger()
        manifest["claim_id"] = "claim \U0001f600"
        code, out, err = self.check(manifest, records)
        self.assertEqual(code, 0, err)
        self.assertIn("claim \U0001f600", out)

    def test_huge_costs_are_refused_not_summed_to_infinity(self) -> None:
        manifest, records = valid_ledger()
        records[3]["cost_usd"] = 1e308
        records[4]["cost_usd"] = 1e308
        self.assertInputError(self.check(manifest, records), "runs.jsonl:4:", "cost_usd")
        records[3]["cost_usd"] = 1e15
        records[4]["cost_usd"] = 1e15
        _code, report = self.check_json(manifest, records)
        self.assertEqual(report["cost"]["total_cost_usd"], 2e15)

    def test_control_characters_in_task_ids_are_refused(self) -> None:
        # "a\nb" and "a","b" would otherwise hash to the same task_ids_sha256
        manifest, records = valid_ledger()
        records[3]["task_id"] = "a\nb"
        self.assertInputError(self.check(manifest, records), "runs.jsonl:4:", "task_id")
        manifest, records = valid_ledger()
        manifest["dataset"]["task_ids"][0] = "x\ty"
        self.assertInputError(self.check(manifest, records), "dataset.task_ids[0]")

    def test_an_id_list_line_with_a_leading_space_is_refused(self) -> None:
        ids = self.write_text("ids.txt", "a\n b\nc\n")
        self.assertInputError(self.run_gate("digest", "--ids", str(ids)), "ids.txt:2:")

    def test_a_duplicate_declared_id_is_named_first_in_order(self) -> None:
        manifest, records = valid_ledger()
        manifest["dataset"]["task_ids"] = ["t-009", "t-001", "t-009", "t-001"]
        self.assertInputError(self.check(manifest, records), "dataset.task_ids", "'t-001'")

    def test_a_very_long_claim_is_refused(self) -> None:
        manifest, records = valid_ledger()
        self.assertInputError(self.check(manifest, records, "--claim", "0." + "7" * 5000), "--claim")
        self.assertInputError(self.check(manifest, records, "--claim", "7" * 5000 + "/" + "9" * 5000), "--claim")

    def test_a_claim_of_100_percent_is_a_rate(self) -> None:
        manifest, records = valid_ledger(passes=3, fails=1, unscoreable=())
        code, report = self.check_json(manifest, records, "--claim", "100%")
        self.assertEqual(code, 1)  # 3/4 is the headline; 100% is 3/3, one task dropped
        self.assertIn("claim_shrunk_denominator", [f["code"] for f in report["findings"]])
        self.assertInputError(self.check(manifest, records, "--claim", "100.1%"), "100%")

    def test_tasks_and_card_go_together_naming_the_missing_one(self) -> None:
        manifest, records = valid_ledger()
        for given, missing in (("tasks", "dataset.card"), ("card", "dataset.tasks")):
            with self.subTest(given=given):
                m = json.loads(json.dumps(manifest))
                m["dataset"][given] = "x.json"
                self.assertInputError(self.check(m, records), missing)


class Card(GateCase):
    def copy_card(self) -> None:
        for name in ("tasks.json", "card.json", "bench.manifest.json", "runs.jsonl", "noedit.jsonl", "gold.jsonl"):
            shutil.copy(CARD / name, self.dir / name)

    def gate_card(self) -> tuple[int, dict[str, Any], str]:
        code, out, err = self.run_gate("--manifest", str(self.dir / "bench.manifest.json"),
                                       "--runs", str(self.dir / "runs.jsonl"), "--format", "json")
        return code, (json.loads(out) if out else {}), err

    def test_manifest_task_ids_that_differ_from_the_card_are_a_finding(self) -> None:
        self.copy_card()
        manifest = json.loads((self.dir / "bench.manifest.json").read_text())
        tasks = json.loads((self.dir / "tasks.json").read_text())
        manifest["dataset"]["task_ids"] = [*sorted(t["task_id"] for t in tasks)[:-1], "someone-else"]
        (self.dir / "bench.manifest.json").write_text(json.dumps(manifest))
        code, report, err = self.gate_card()
        self.assertEqual(code, 1, err)
        self.assertIn("card_manifest_mismatch", [f["code"] for f in report["findings"]])

    def test_a_card_with_a_negative_wide_above_is_malformed(self) -> None:
        self.copy_card()
        card = json.loads((self.dir / "card.json").read_text())
        card["inclusion_rule"]["wide_above"] = -1
        (self.dir / "card.json").write_text(json.dumps(card))
        code, _, err = self.gate_card()
        self.assertEqual(code, 2)
        self.assertIn("inclusion_rule.wide_above", err)


class Statistics(GateCase):
    def test_mcnemar_exact_is_exact_and_fast(self) -> None:
        for b, c in ((0, 0), (1, 0), (3, 4), (12, 2), (0, 9), (25, 31)):
            m = b + c
            expected = min(1.0, 2 * sum(math.comb(m, i) for i in range(min(b, c) + 1)) / 2**m)
            self.assertEqual(float(gate.mcnemar_exact(b, c)), expected)
        started = time.perf_counter()
        self.assertEqual(gate.mcnemar_exact(8000, 8000), 1)
        self.assertLess(time.perf_counter() - started, 5.0)  # was minutes: a sum of 8,000 big binomials


class ImportPreview(GateCase):
    def test_a_long_list_of_stray_ids_says_how_many(self) -> None:
        data = json.loads((FIXTURES / "swebench" / "experiments-results.json").read_text())
        ids = (FIXTURES / "swebench" / "verified-dataset-ids.txt").read_text().split()
        data["resolved"] = list(data["resolved"]) + [f"stray-{i}" for i in range(7)]
        results = self.write_json("results.json", data)
        id_file = self.write_text("ids.txt", "\n".join(ids) + "\n")
        self.assertInputError(self.run_gate("import", "swebench", str(results), "--dataset-ids", str(id_file)),
                              "(7 in all)")
        data["resolved"] = data["resolved"][:-5]
        results = self.write_json("results.json", data)
        code, _, err = self.run_gate("import", "swebench", str(results), "--dataset-ids", str(id_file))
        self.assertEqual(code, 2)
        self.assertNotIn("in all", err)


class Drift(GateCase):
    def test_a_duplicated_task_is_named_as_such(self) -> None:
        tasks = json.loads((CARD / "tasks.json").read_text())
        (self.dir / "tasks.json").write_text(json.dumps(tasks))
        code, _, err = self.run_gate("freeze", str(self.dir / "tasks.json"), str(self.dir / "card.json"))
        self.assertEqual(code, 0, err)
        (self.dir / "tasks.json").write_text(json.dumps([*tasks, tasks[3]]))
        code, out, _ = self.run_gate("verify", str(self.dir / "tasks.json"), str(self.dir / "card.json"))
        self.assertEqual(code, 1)
        self.assertIn(f"duplicated: {tasks[3]['task_id']}", out)
