"""Bounded, inert work on the new doors (issue 39): a CSV cell past the csv module's own limit, a CSV of 60,002
columns, an lm-eval document of 20,000 generations, and every line the gate writes to stderr in GitHub mode. Work is
counted or refused at once; nothing here times a wall clock."""

from __future__ import annotations

import json
import math
import os
import random
from unittest import mock

import gate
from tests.support import ROOT, GateCase


class CsvLimits(GateCase):
    def test_a_cell_past_131072_characters_is_read_and_one_past_the_line_limit_is_an_input_error(self) -> None:
        """A 200,000-character cell (the csv module's own limit is 131,072): read, where it was exit 3 ("field
        larger than field limit"); a NUL in the file is an input error naming the file and line, never exit 3."""
        path = self.write_text("big.csv", "task_id,correct,blob\na,1," + "x" * 200_000 + "\nb,0,y\n")
        code, out, err = self.run_gate("import", "csv", str(path), "--task-id", "task_id", "--pass", "correct == 1")
        self.assertEqual(code, 0, err)
        self.assertEqual([json.loads(line)["outcome"] for line in out.splitlines()], ["pass", "fail"])
        path = self.write_text("nul.csv", "task_id,correct\na,1\nb,\0\n")
        self.assertInputError(self.run_gate("import", "csv", str(path), "--task-id", "task_id", "--pass",
                                            "correct == 1"), "nul.csv:")

    def test_a_repeated_column_among_60002_is_named(self) -> None:
        """60,002 columns, the last repeating the sixth: named with both positions (one pass over the header; a
        count() a column was quadratic: bench/linear.py times the shape at 60,010 and 600,010 columns)."""
        names = [f"c{i}" for i in range(60_001)] + ["c5"]
        path = self.write_text("wide.csv", ",".join(names) + "\n" + ",".join("1" for _ in names) + "\n")
        result = self.run_gate("import", "csv", str(path), "--task-id", "c0", "--pass", "c1 == 1")
        self.assertInputError(result, "column 'c5' appears twice (columns 6 and 60002)")


class LmEvalInversion(GateCase):
    def test_the_inversion_agrees_with_every_exact_binomial(self) -> None:
        """pass@k inverted by two binary searches on the product form gives the same counts as trying every c
        with exact binomials, over 2,000 drawn (n, k, c)."""
        rng = random.Random(39)
        for _ in range(2000):
            n = rng.randint(1, 60)
            k, c = rng.randint(1, n), rng.randint(0, n)
            value = 1 - math.comb(n - c, k) / math.comb(n, k)
            expected = {x for x in range(n + 1) if abs(1 - math.comb(n - x, k) / math.comb(n, k) - value) < 1e-9}
            self.assertEqual(gate._passes_from_pass_at_k(value, n, k), expected, (n, k, c))

    def test_pass_at_n_of_one_names_its_true_range_in_few_evaluations(self) -> None:
        """pass@10000 = 1.0 over 10,000 generations holds for 1 to 10,000 passes (old code: "30 to 10000", after n
        exact binomials): a few dozen evaluations of the product form, not one per count."""
        with mock.patch.object(gate, "pass_at_k", wraps=gate.pass_at_k) as evaluated:
            found = gate._passes_from_pass_at_k(1.0, 10_000, 10_000)
        self.assertEqual((min(found), max(found), len(found)), (1, 10_000, 10_000))
        self.assertLess(evaluated.call_count, 40)

    def test_more_generations_than_the_attempt_limit_are_refused_first(self) -> None:
        """A samples line of 20,000 generations: refused naming the limit before any inversion (old code: no answer
        in 10 s)."""
        folder = self.dir / "lm"
        folder.mkdir()
        line = {"doc_id": 0, "filtered_resps": [["x"] * 20_000], "pass@10000": 1.0}
        (folder / "samples_humaneval_2026-01-01T00-00-00.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
        with mock.patch.object(gate, "pass_at_k", side_effect=AssertionError("inverted before the bound")):
            self.assertInputError(self.run_gate("import", "lm-eval", str(folder / "samples_humaneval_2026-01-01T00-00-00.jsonl")),
                                  "20,000 generations of one document", f"({gate.MAX_ATTEMPT_BUDGET:,})")


class InertStderr(GateCase):
    def test_github_mode_escapes_every_stderr_line_and_keeps_its_own_annotation(self) -> None:
        """A runs record whose attempt is "##[stop-commands]x": in GitHub mode the input error on stderr quotes it
        escaped (the runner reads ##[ anywhere in a line, and ignored the gate's ::error after it), and the
        gate's own annotation still starts its line, its text escaped too. Outside GitHub mode the line is as
        it was."""
        records = [json.loads(line) for line in (ROOT / "runs.jsonl").read_text(encoding="utf-8").splitlines()]
        records[0]["attempt"] = "##[stop-commands]x"
        runs = self.write_jsonl("r.jsonl", records)
        argv = ("--manifest", str(ROOT / "bench.manifest.json"), "--runs", str(runs))
        with mock.patch.dict(os.environ, {"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": str(self.dir / "o"),
                                          "GITHUB_STEP_SUMMARY": str(self.dir / "s")}):
            code, _out, err = self.run_gate(*argv)
        self.assertEqual(code, 2)
        self.assertNotIn("##[", err)
        lines = err.splitlines()
        self.assertTrue(lines[0].startswith("gate.py: error: "), lines)
        self.assertIn("#\\#[stop-commands]x", lines[0])
        self.assertTrue(lines[1].startswith("::error title=gate.py::"), lines)
        with mock.patch.dict(os.environ, {"GITHUB_ACTIONS": "false"}):
            self.assertIn("##[stop-commands]x", self.run_gate(*argv)[2])

    def test_import_notes_are_inert_in_github_mode(self) -> None:
        """An import's notes quote the file's own strings: in GitHub mode a task id of "::stop-commands::x" reaches
        stderr escaped."""
        path = self.write_jsonl("records.jsonl", [{"id": "::stop-commands::x", "ok": True}, {"id": "b", "ok": False}])
        with mock.patch.dict(os.environ, {"GITHUB_ACTIONS": "true"}):
            code, _out, err = self.run_gate("import", "jsonl", str(path), "--task-id", "id", "--pass", "ok",
                                            "-o", str(self.dir / "r.jsonl"), "--draft-manifest", str(self.dir / "m.json"))
        self.assertEqual(code, 0, err)
        self.assertFalse(any(line.lstrip().startswith("::") for line in err.splitlines()), err)


class FirstBadLine(GateCase):
    def test_the_first_bad_line_is_reported_whatever_the_chunk_size(self) -> None:
        """A JSON error on line 2 and a byte that is not UTF-8 on line 41: both named, line 2 first, at a chunk of
        16 bytes, 1 KiB and the shipped 256 KiB (where a whole chunk was decoded before any line was parsed, so the
        line-2 error was never reported)."""
        lines = (ROOT / "runs.jsonl").read_bytes().splitlines(keepends=True)
        path = self.write_text("bad.jsonl", lines[0] + b"{bad\n" + b"".join(lines[2:]) + b'{"x": "\xff"}\n')
        args = ("--manifest", str(ROOT / "bench.manifest.json"), "--runs", str(path))
        for size in (16, 1024, gate._CHUNK_BYTES):
            with self.subTest(size=size), mock.patch.object(gate, "_CHUNK_BYTES", size):
                code, _, err = self.run_gate(*args)
                self.assertEqual(code, 2)
                self.assertEqual([line.split(": ")[2] for line in err.splitlines()],
                                 [f"{path}:2", f"{path}:41"])

    def test_a_json_error_before_a_bad_byte_in_one_chunk_is_the_one_reported(self) -> None:
        """Three lines, one chunk: the bad JSON on line 2 is reported, not the bad byte on line 3 alone."""
        path = self.write_text("three.jsonl", b'{"a": 1}\n{bad\n{"c": "\xff"}\n')
        with self.assertRaises(gate.GateError) as caught:
            list(gate.iter_jsonl(path))
        self.assertEqual(str(caught.exception).split(": ")[0], f"{path}:2")
        self.assertIn("invalid JSON", str(caught.exception))
        path = self.write_text("surrogate.jsonl", b'{"a": 1}\n{"b": "t\\ud800"}\n{"c": "\xff"}\n')
        for size in (16, gate._CHUNK_BYTES):  # a lone surrogate escape on line 2 is line 2's error in any chunk
            with self.subTest(size=size), mock.patch.object(gate, "_CHUNK_BYTES", size):
                with self.assertRaises(gate.GateError) as caught:
                    list(gate.iter_jsonl(path))
                self.assertEqual(str(caught.exception).split(": ")[0], f"{path}:2")
        path = self.write_text("bom.jsonl", b'\xef\xbb\xbf{"a": 1}\n{"c": "\xff"}\n')
        with self.assertRaises(gate.GateError) as caught:
            list(gate.iter_jsonl(path))
        self.assertIn("byte-order mark", str(caught.exception))


class ManifestIdLists(GateCase):
    def test_the_whole_list_check_agrees_with_the_one_id_rule(self) -> None:
        """_all_task_ids (a few passes over the joined list) against is_task_id one id at a time, on 20,000 seeded
        lists built from the characters that decide the rule: spaces of every kind, the separator \\x1f, tabs, line
        separators, empty ids and non-strings."""
        rng = random.Random(20261207)
        alphabet = ["a", "b", " ", "\x1f", "\t", "\u00a0", "\u2028", "\u3000", "\x85", "é", "\n"]
        for _ in range(20_000):
            values: list[object] = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 3)))
                                    for _ in range(rng.randint(0, 4))]
            if rng.random() < 0.05:
                values.append(rng.choice([1, None, ["a"]]))
            self.assertEqual(gate._all_task_ids(values), all(map(gate.is_task_id, values)), values)

    def test_a_repeated_id_is_named_and_a_bad_one_by_its_index(self) -> None:
        self.assertIsNone(gate._first_repeat(["b", "a", "c"]))
        self.assertEqual(gate._first_repeat(["c", "b", "c", "b"]), "b")
        manifest = json.loads((ROOT / "bench.manifest.json").read_text(encoding="utf-8"))
        ids = [json.loads(line)["task_id"] for line in (ROOT / "runs.jsonl").read_text(encoding="utf-8").splitlines()]
        manifest["dataset"]["task_ids"] = [*sorted(set(ids))[:-1], "bad "]
        path = self.write_text("m.json", json.dumps(manifest))
        self.assertInputError(self.run_gate("--manifest", str(path), "--runs", str(ROOT / "runs.jsonl")),
                              f"dataset.task_ids[{len(set(ids)) - 1}]")


class ImporterValuesNeverExit3(GateCase):
    """What a sweep of every importer found exiting 3 (issue 39): numbers no float can hold, values of the wrong
    type where a field is read, a pass@ key of 5,000 digits, a document with no generation: twelve inputs. Each is now an input
    error (exit 2) or a value left out (exit 0: a cost the gate cannot read), never exit 3."""

    CASES = [  # (format, fixture, what import takes, file to change, the change)
        ("aider", "harnesses/aider-prepolyglot/2024-09-05-14-21-37--gpt-4o-diff", ".", "wordy/.aider.results.json",
         lambda d: d.update(cost=10**400)),
        ("openhands", "harnesses/openhands/swe-bench-verified-remote-eval", "output.jsonl", "output.jsonl",
         lambda d: d["metrics"].update(accumulated_cost=10**400)),
        ("harbor", "harbor/thinharness-20task/dna-insert--pi/job", ".", "dna-insert__awQcgmQ/result.json",
         lambda d: d["agent_result"].update(cost_usd=10**400)),
        ("harbor", "harbor/thinharness-20task/dna-insert--pi/job", ".", "result.json",
         lambda d: d["stats"]["evals"].update({next(iter(d["stats"]["evals"])): True})),
        ("harbor", "harbor/thinharness-20task/dna-insert--pi/job", ".", "dna-insert__awQcgmQ/result.json",
         lambda d: d["verifier_result"]["rewards"].update(reward=10**400)),
        ("evalplus", "harnesses/evalplus-0.1", "samples_eval_results.json", "samples_eval_results.json",
         lambda d: d["eval"][next(iter(d["eval"]))]["base"][0].__setitem__(0, ["x"])),
        ("inspect", "inspect/tiny-success.json", "tiny-success.json", "tiny-success.json",
         lambda d: d["samples"][0]["scores"]["match"].update(value=10**400)),
        ("lm-eval", "harnesses/lm-eval/full", "samples_humaneval_local_5_2026-12-02T12-58-29.437800.jsonl",
         "samples_humaneval_local_5_2026-12-02T12-58-29.437800.jsonl",
         lambda d: (d.pop("pass@1"), d.update({"pass@5": 10**400}))),
        ("lm-eval", "harnesses/lm-eval/limit", "samples_humaneval_local_2026-12-02T12-58-39.411880.jsonl",
         "samples_humaneval_local_2026-12-02T12-58-39.411880.jsonl",
         lambda d: (d.pop("pass@1", None), d.update({"pass@" + "9" * 5000: 0.5}))),
        ("lm-eval", "harnesses/lm-eval/limit", "samples_humaneval_local_2026-12-02T12-58-39.411880.jsonl",
         "samples_humaneval_local_2026-12-02T12-58-39.411880.jsonl", lambda d: d.update(filtered_resps=[[]])),
        ("lm-eval", "harnesses/lm-eval/limit", "samples_humaneval_local_2026-12-02T12-58-39.411880.jsonl",
         "samples_humaneval_local_2026-12-02T12-58-39.411880.jsonl", lambda d: d.update({"pass@1": 10**400})),
    ]

    def test_each_found_value_is_an_input_error_or_left_out(self) -> None:
        import shutil

        from tests.support import FIXTURES

        for i, (fmt, fixture, target, changed, change) in enumerate(self.CASES):
            with self.subTest(case=i, fmt=fmt):
                source, folder = FIXTURES / fixture, self.dir / f"case{i}"
                if source.is_dir():
                    shutil.copytree(source, folder)
                else:
                    folder.mkdir()
                    shutil.copy(source, folder / source.name)
                path = folder / changed
                lines = path.read_text(encoding="utf-8").splitlines()
                data = json.loads(lines[0] if path.suffix == ".jsonl" else "\n".join(lines))
                change(data)
                text = json.dumps(data)
                path.write_text(text + "\n" + "".join(f"{line}\n" for line in lines[1:])
                                if path.suffix == ".jsonl" else text, encoding="utf-8")
                code, _out, err = self.run_gate("import", fmt, str(folder / target), "-o", str(folder / "r.jsonl"))
                self.assertIn(code, (0, 2), err)
                self.assertNotIn("internal error", err)
                if code == 2:
                    self.assertEqual(len(err.strip().splitlines()), 1, err)
        path = self.write_text("m.jsonl", '{"id": "a", "ok": true, "c": 1' + "0" * 400 + "}\n")
        code, _out, err = self.run_gate("import", "jsonl", str(path), "--task-id", "id", "--pass", "ok",
                                        "--cost-usd", "c", "-o", str(self.dir / "m.runs.jsonl"))
        self.assertIn(code, (0, 2), err)
        self.assertNotIn("internal error", err)


class ComparisonsAtTheirEdges(GateCase):
    """A predicate's `>` and a median at the float limit, each exact at its edge (first found as survivors of a
    mutation sample: seed 20261211, 120 mutants of gate.py at 217f0ed)."""

    def test_a_greater_than_predicate_fails_a_value_below_the_literal(self) -> None:
        """--pass "score > 0.5": 0.2 and 0.5 fail, 0.7 passes (`!=` for `>` passed 0.2)."""
        path = self.write_text("s.jsonl", "".join(json.dumps({"id": tid, "score": score}) + "\n"
                                                  for tid, score in (("a", 0.2), ("b", 0.5), ("c", 0.7))))
        code, out, err = self.run_gate("import", "jsonl", str(path), "--task-id", "id", "--pass", "score > 0.5")
        self.assertEqual(code, 0, err)
        self.assertEqual([json.loads(line)["outcome"] for line in out.splitlines()], ["fail", "fail", "pass"])

    def test_a_median_near_the_largest_float_does_not_overflow(self) -> None:
        """The median of values near the largest float is that value, for an odd and an even count, sorted or
        selected ((first + second) / 2 overflowed to inf)."""
        for count in (9, 10, 16_385, 16_386):
            with self.subTest(count=count):
                self.assertEqual(gate._median([1.5e308] * count), 1.5e308)
        self.assertEqual(gate._median([1.0, 2.0, 4.0, 8.0]), 3.0)
