"""The fast path (a whole chunk parsed as one JSON array) must mean exactly what the line-by-line parse does."""

from __future__ import annotations

import json
import random
from typing import Any

from tests.support import GateCase, gate, record, valid_ledger


class Switches(GateCase):
    """Runs a check with normal chunks (whole-chunk parse) and one-line chunks (line by line)."""

    def setUp(self) -> None:
        super().setUp()
        self._saved = (gate._CHUNK_BYTES,)

    def tearDown(self) -> None:
        (gate._CHUNK_BYTES,) = self._saved
        super().tearDown()

    def reports(self, manifest: dict[str, Any], records: list[Any], *extra: str) -> list[tuple[int, str, str]]:
        results = []
        for chunk in (1 << 20, 97, 1):
            gate._CHUNK_BYTES = chunk
            results.append(self.check(manifest, records, "--format", "json", *extra))
        return results

    def assertAllEqual(self, results: list[tuple[int, str, str]]) -> None:
        first = results[0]
        for other in results[1:]:
            self.assertEqual(other, first)


class Agreement(Switches):
    def test_shipped_style_ledger(self) -> None:
        manifest, records = valid_ledger()
        results = self.reports(manifest, records)
        self.assertAllEqual(results)
        self.assertEqual(results[0][0], 0)

    def test_samples_ledger_with_attempts_spread_over_batches(self) -> None:
        rnd = random.Random(7)
        manifest, records = valid_ledger(passes=12, fails=6, unscoreable=("env_flake",))
        tasks = [r["task_id"] for r in records]
        samples = []
        for tid in tasks:
            for attempt in range(1, 4):
                outcome = "fail" if tid == "neg-01" else "pass" if tid == "pos-01" else rnd.choice(["pass", "fail", "unscoreable"])
                samples.append(record(tid, outcome, "grader_error" if outcome == "unscoreable" else None,
                                      attempt=attempt, wall_clock_s=rnd.randint(1, 900)))
        rnd.shuffle(samples)
        manifest.update(attempt_mode="samples", attempt_budget=3)
        results = self.reports(manifest, samples)
        self.assertAllEqual(results)
        report = json.loads(results[0][1])
        self.assertEqual(report["verdict"], "PUBLISHABLE", report["findings"])
        self.assertEqual(report["ledger"]["records"], 3 * len(tasks))

    def test_findings_agree(self) -> None:
        manifest, records = valid_ledger()
        records[3]["attempt"] = 2                     # a gap
        records.append(dict(records[5]))              # a repeat
        records[7]["wall_clock_s"] = 901              # over the envelope
        records[9]["run_id"] = "r2"                   # mixed runs
        records[11]["outcome"] = "PASS"               # unknown outcome
        records[12].update(outcome="unscoreable", reason="weird")
        records[13]["cost_usd"] = 0.25
        # (an escaped key is tested in test_escaped_cost_key)
        results = self.reports(manifest, records)
        self.assertAllEqual(results)
        codes = {f["code"] for f in json.loads(results[0][1])["findings"]}
        self.assertTrue({"attempt_gap", "attempt_repeated", "envelope_exceeded", "mixed_runs", "unknown_outcome",
                         "uncoded_unscoreable"} <= codes, codes)

    def test_run_selection_agrees(self) -> None:
        manifest, records = valid_ledger()
        other = [dict(r, run_id="r2", outcome="fail", reason=None) for r in records]
        results = self.reports(manifest, records + other, "--run-id", "r1")
        self.assertAllEqual(results)
        self.assertEqual(results[0][0], 0)

    def test_input_errors_agree(self) -> None:
        manifest, records = valid_ledger()
        for field, value in (("run_id", ["r1"]), ("run_id", ""), ("task_id", " t-1"), ("attempt", True),
                             ("outcome", 1), ("reason", 3), ("stratum", ""), ("wall_clock_s", -1)):
            with self.subTest(field=field, value=value):
                broken = [dict(r) for r in records]
                broken[20][field] = value
                results = self.reports(manifest, broken)
                self.assertAllEqual(results)
                self.assertEqual(results[0][0], 2)
                self.assertIn("runs.jsonl:21:", results[0][2])


class ChunkParse(Switches):
    """The whole-chunk parse is taken only when each line provably holds one flat object."""

    def lines_of(self, text: str) -> list[tuple[int, Any]] | str:
        path = self.write_text("runs.jsonl", text)
        try:
            return list(gate.iter_jsonl(path))
        except gate.GateError as exc:
            return str(exc)

    def test_bad_line_named_the_same_by_both_parsers(self) -> None:
        good = [json.dumps(record(f"t-{i:03d}", "pass")) for i in range(50)]
        for bad in ('{"run_id": "r1", "task_id": "x",}', '{"a": 1, "a": 2}', '{"a": NaN}', '{"a": 1e400}',
                    '{"a": 1} {"b": 2}', '["not", "an", "object"]', '{"a": "\\ud800"'):
            with self.subTest(bad=bad):
                text = "\n".join([*good[:17], bad, *good[17:]]) + "\n"
                by_chunk = self.lines_of(text)
                gate._CHUNK_BYTES = 1  # one line at a time: never the whole-chunk parse
                by_line = self.lines_of(text)
                gate._CHUNK_BYTES = self._saved[0]
                if isinstance(by_line, str):
                    self.assertIn("runs.jsonl:18:", by_line)
                    self.assertEqual(by_chunk, by_line)
                else:  # a value that is not an object is refused by the tally, on its own line
                    self.assertEqual(by_chunk, by_line)
                    self.assertEqual(by_line[17][0], 18)

    def test_objects_split_across_lines_are_refused(self) -> None:
        # Counts that balance over the chunk but not line by line: the array parse would see
        # three objects in three lines, but no line holds one object.
        for text in ('{"a":1\n"b":2}\n{},{}\n', '{"a":"x}\n{y"}\n{}\n', '{"a":1,\n"b":2}\n'):
            with self.subTest(text=text):
                result = self.lines_of(text)
                self.assertIsInstance(result, str, result)
                self.assertIn("runs.jsonl:1:", result)

    def test_fast_and_slow_parse_give_the_same_values(self) -> None:
        rnd = random.Random(11)
        rows = []
        for i in range(300):
            rec = record(f"t-{i:04d}", rnd.choice(["pass", "fail"]), wall_clock_s=rnd.random() * 900)
            if i % 50 == 0:
                rec["note"] = "a: colon in a string"
            rows.append(json.dumps(rec, separators=(",", ":")))
        text = "\n".join(rows) + "\n"
        fast = self.lines_of(text)
        gate._CHUNK_BYTES = 1
        slow = self.lines_of(text)
        self.assertEqual(fast, slow)
        self.assertEqual(len(fast), 300)

    def test_which_path_a_chunk_takes(self) -> None:
        clean = "".join(json.dumps(record(f"t-{i}", "pass")) + "\n" for i in range(5))
        _, numbers = gate._parse_chunk(clean, 10, "runs.jsonl")
        self.assertEqual(numbers, range(10, 15))  # the whole-chunk parse
        for text in (clean.replace("\n", "\r\n"), "\n" + clean, clean.replace('"pass"', '"a:b"', 1),
                     clean.replace('"pass"', '["pass"]', 1)):
            with self.subTest(text=text[:30]):
                values, numbers = gate._parse_chunk(text, 10, "runs.jsonl")
                self.assertIsInstance(numbers, list)  # line by line
                self.assertEqual(len(values), 5)


class EscapedKeys(Switches):
    def test_escaped_cost_key_is_still_validated(self) -> None:
        manifest, records = valid_ledger()
        lines = [json.dumps(r) for r in records]
        lines[4] = lines[4][:-1] + ', "cost\\u005fusd": -1}'
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_text("runs.jsonl", "\n".join(lines) + "\n")
        self.assertInputError(self.run_gate("--manifest", str(m), "--runs", str(r)), "runs.jsonl:5:", "cost_usd")
