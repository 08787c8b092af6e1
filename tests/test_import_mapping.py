"""The generic mapping importer (`import jsonl|json|csv`): a harness no named importer reads, turned into a ledger
by a field mapping on the command line alone. The NoCode-bench-style file is built here from the format's writer
(shared/realdata/wild3/FORMATS.md section 11: instance_id, resolved, applied, P2P, F2P); the HAL-style CSV is a
real one (tests/fixtures/SOURCES.md, wild3/other/hal-derived). Every expected figure is computed here from the
file, never read from gate.py."""

from __future__ import annotations

import csv
import hashlib
import json
import shlex
from pathlib import Path
from typing import Any

from tests.realfiles import RealFileCase
from tests.support import FIXTURES

HAL = FIXTURES / "wild3" / "other" / "hal-derived" / "corebench_hard_claude_code_claudeopus41_1764560915_UPLOAD.csv"


def nocode_rows() -> list[dict[str, Any]]:
    """Twelve evaluation_details.jsonl lines as NoCode-bench writes them: resolved, applied, the test lists."""
    rows = []
    for i in range(12):
        rows.append({"instance_id": f"proj__repo-{i:02d}", "resolved": i % 3 == 0 and i != 9, "applied": i != 5,
                     "model_patch": "diff --git a/x b/x", "P2P": {"success": ["t1"], "failure": []},
                     "F2P": {"success": ["t2"] if i % 3 == 0 else [], "failure": [] if i % 3 == 0 else ["t2"]}})
    return rows


class MappingImporter(RealFileCase):
    def nocode(self, rows: list[dict[str, Any]] | None = None) -> Path:
        return self.write_text("evaluation_details.jsonl",
                               "".join(json.dumps(r) + "\n" for r in (rows or nocode_rows())).encode("utf-8"))

    def test_a_nocode_bench_jsonl_with_nothing_but_flags(self) -> None:
        """`import jsonl FILE --task-id instance_id --pass "resolved and applied" --dataset-ids IDS`: a record a line,
        resolved and applied -> pass, else fail; a declared instance with no line -> missing_artifact; the gated
        headline is the file's resolved-and-applied count over the declared set."""
        rows = nocode_rows()
        ids = sorted([r["instance_id"] for r in rows] + ["proj__repo-99"])
        id_file = self.write_text("ids.txt", ("\n".join(ids) + "\n").encode("utf-8"))
        imp = self.import_ok("jsonl", str(self.nocode()), "--task-id", "instance_id", "--pass", "resolved and applied",
                             "--dataset-ids", str(id_file))
        got = {r["task_id"]: (r["outcome"], r["reason"]) for r in imp.records}
        want = {r["instance_id"]: ("pass" if r["resolved"] and r["applied"] else "fail", None) for r in rows}
        want["proj__repo-99"] = ("unscoreable", "missing_artifact")
        self.assertEqual(got, want)
        report = self.gated(imp, [{"task_id": "proj__repo-00", "expected": "pass", "role": "positive"},
                                  {"task_id": "proj__repo-01", "expected": "fail", "role": "negative"}])
        passes = sum(1 for r in rows if r["resolved"] and r["applied"])
        self.assertEqual((report["headline"]["k"], report["headline"]["n"]), (passes, len(ids)))
        self.assertEqual(imp.draft["provenance"]["declared_from"], "--dataset-ids")

    def test_a_hal_csv_with_nothing_but_flags_gates_to_its_own_figure(self) -> None:
        """The real HAL-derived CSV: `--task-id task_id --pass "correct == 1"` (a cell read as a number where it
        meets one): one row a task, and the headline equals the file's own n_correct / n_tasks columns."""
        with HAL.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        stated = {(r["n_correct"], r["n_tasks"]) for r in rows}
        self.assertEqual(len(stated), 1)
        n_correct, n_tasks = (int(x) for x in stated.pop())
        self.assertEqual(len(rows), n_tasks)
        imp = self.import_ok("csv", str(HAL), "--task-id", "task_id", "--pass", "correct == 1")
        self.assertEqual(sum(r["outcome"] == "pass" for r in imp.records), n_correct)
        self.assertEqual({r["task_id"] for r in imp.records}, {r["task_id"] for r in rows})
        self.assertTrue(any("the declared set is only the 45 task(s)" in item for item in imp.draft["draft"]))

    def test_a_csv_cell_that_does_not_compare_is_an_error_naming_line_and_column(self) -> None:
        """A cell that is no number where the expression compares it with one: an input error naming the row's
        line and the column, unless --unreadable-as unscoreable counts the row as unscoreable missing_artifact;
        a missing column is an error naming it."""
        text = "task_id,correct\na,1\nb,n/a\nc,0\n"
        path = self.write_text("r.csv", text.encode("utf-8"))
        code, _out, err = self.run_gate("import", "csv", str(path), "--task-id", "task_id", "--pass", "correct == 1")
        self.assertEqual(code, 2)
        self.assertIn(f"{path}:3: correct: 'n/a' is not a number to compare with 1", err)
        long = "n/a because the harness timed out after 600 seconds"  # 51 characters: the first 40 are named
        long_path = self.write_text("long.csv", f"task_id,correct\na,1\nb,{long}\n".encode())
        code, _out, err = self.run_gate("import", "csv", str(long_path), "--task-id", "task_id", "--pass", "correct == 1")
        self.assertEqual(code, 2)
        self.assertIn(f"{long_path}:3: correct: {long[:40]!r} is not a number to compare with 1", err)
        imp = self.import_ok("csv", str(path), "--task-id", "task_id", "--pass", "correct == 1",
                             "--unreadable-as", "unscoreable")
        self.assertEqual({r["task_id"]: r["outcome"] for r in imp.records}, {"a": "pass", "b": "unscoreable", "c": "fail"})
        code, _out, err = self.run_gate("import", "csv", str(path), "--task-id", "task_id", "--pass", "score > 0.5")
        self.assertEqual(code, 2)
        self.assertIn("score: no such column", err)

    def test_every_comparison_operator_reads_as_written(self) -> None:
        """Each of the six comparisons, on a CSV score of 0.3, 0.5 and 0.7 against 0.5: pass exactly where Python's own
        operator holds (the boundary 0.5 included or not as the operator says)."""
        import operator
        path = self.write_text("scores.csv", b"task_id,score\na,0.3\nb,0.5\nc,0.7\n")
        ops = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
               "!=": operator.ne}
        for op, holds in ops.items():
            with self.subTest(op=op):
                records = self.imp("csv", str(path), "--task-id", "task_id", "--pass", f"score {op} 0.5")
                self.assertEqual({r["task_id"]: r["outcome"] for r in records},
                                 {t: "pass" if holds(x, 0.5) else "fail" for t, x in (("a", 0.3), ("b", 0.5), ("c", 0.7))})

    def test_a_csv_cell_compared_with_a_boolean_reads_true_false_1_or_0(self) -> None:
        """A CSV cell is text: against `true`/`false` it reads as true for "True", " 1 " and "TRUE", false for
        "false" and "0" (case and surrounding space ignored), `!=` the negation; "yes" is no boolean: an error
        naming the line and the cell, never a silent fail."""
        path = self.write_text("b.csv", b"id,ok\na,True\nb, 1 \nc,TRUE\nd,false\ne,0\n")
        want = {"a": "pass", "b": "pass", "c": "pass", "d": "fail", "e": "fail"}
        for expr, flip in (("ok == true", False), ("ok == false", True), ("ok != false", False)):
            with self.subTest(expr=expr):
                records = self.imp("csv", str(path), "--task-id", "id", "--pass", expr)
                self.assertEqual({r["task_id"]: r["outcome"] for r in records},
                                 {t: ({"pass": "fail", "fail": "pass"}[o] if flip else o) for t, o in want.items()})
        bad = self.write_text("y.csv", b"id,ok\na,1\nb,yes\n")
        code, _out, err = self.run_gate("import", "csv", str(bad), "--task-id", "id", "--pass", "ok == true")
        self.assertEqual(code, 2, err)
        self.assertIn("y.csv:3", err)
        self.assertIn("'yes' is not a boolean (true, false, 1 or 0)", err)

    def test_json_values_compare_by_type_and_a_missing_path_is_named(self) -> None:
        """In JSON true is not 1: `resolved == 1` on a boolean is an error naming the path (it would fail every
        record), `resolved` (a bare boolean path) reads it; a nested path reads into objects and lists; a record without the path is an error
        naming its line and the path."""
        rows = [{"id": "a", "r": {"ok": True, "scores": [0.9]}}, {"id": "b", "r": {"ok": False, "scores": [0.2]}}]
        path = self.write_text("r.jsonl", "".join(json.dumps(r) + "\n" for r in rows).encode("utf-8"))
        code, _out, err = self.run_gate("import", "jsonl", str(path), "--task-id", "id", "--pass", "r.ok == 1")
        self.assertEqual(code, 2)  # never a silent fail of every record
        self.assertIn("r.ok: true is not a number to compare with 1", err)
        for expr, want in (("r.ok", ["pass", "fail"]), ("r.ok == true", ["pass", "fail"]),
                           ("r.scores.0 >= 0.5", ["pass", "fail"]), ("not r.ok or r.scores.0 > 0.1", ["pass", "pass"])):
            with self.subTest(expr=expr):
                records = self.imp("jsonl", str(path), "--task-id", "id", "--pass", expr)
                self.assertEqual([r["outcome"] for r in sorted(records, key=lambda r: r["task_id"])], want)
        code, _out, err = self.run_gate("import", "jsonl", str(path), "--task-id", "id", "--pass", "r.missing == 1")
        self.assertEqual(code, 2)
        self.assertIn(f"{path}:1: r.missing: missing", err)

    def test_the_expression_is_never_code(self) -> None:
        """A call, an attribute of a call, arithmetic or a subscript is refused at once (parsed, never evaluated)."""
        path = self.write_text("r.jsonl", b'{"id": "a", "ok": true}\n')
        for expr in ("__import__('os').system('true')", "ok + 1 == 2", "ok[0] == 1", "len(ok) == 1"):
            with self.subTest(expr=expr):
                code, _out, err = self.run_gate("import", "jsonl", str(path), "--task-id", "id", "--pass", expr)
                self.assertEqual(code, 2, err)
                self.assertIn("--pass / --unscoreable", err)

    def test_an_expression_of_up_to_2000_characters_is_read(self) -> None:
        """--pass and --unscoreable take an expression of 2,000 characters (as the metric predicates do); one of
        2,001 is refused saying so, before it is parsed."""
        path = self.write_text("r.jsonl", b'{"id": "a", "ok": true, "s": "x"}\n')
        at_limit = "ok" + " " * 1998
        self.assertEqual(len(at_limit), 2000)
        records = self.imp("jsonl", str(path), "--task-id", "id", "--pass", at_limit)
        self.assertEqual(records[0]["outcome"], "pass")
        records = self.imp("jsonl", str(path), "--task-id", "id", "--pass", "ok", "--unscoreable", "s == 'y'" + " " * 1992,
                           "--reason", "env_flake")
        self.assertEqual(records[0]["outcome"], "pass")
        for flag in ("--pass", "--unscoreable"):
            with self.subTest(flag=flag):
                extra = ["--pass", "ok"] if flag == "--unscoreable" else []
                code, _out, err = self.run_gate("import", "jsonl", str(path), "--task-id", "id", *extra, flag, at_limit + " ",
                                                "--reason", "env_flake")
                self.assertEqual(code, 2, err)
                self.assertIn("--pass / --unscoreable: expression is longer than 2000 characters", err)

    def test_a_json_object_of_records_attempts_and_reasons_from_paths(self) -> None:
        """A JSON object of task id -> record (the key is the task id), attempts numbered by a field in samples mode,
        an unscoreable record's reason read from a path (a class of the harness's own is declared in the draft)."""
        data = {"t1": {"n": 1, "status": "ok", "pass": True}, "t2": {"n": 1, "status": "crash", "why": "sandbox_died"}}
        path = self.write_text("r.json", json.dumps(data).encode("utf-8"))
        imp = self.import_ok("json", str(path), "--pass", "pass", "--unscoreable", "status == 'crash'",
                             "--reason", "why")
        self.assertEqual({r["task_id"]: (r["outcome"], r["reason"]) for r in imp.records},
                         {"t1": ("pass", None), "t2": ("unscoreable", "sandbox_died")})
        self.assertIn("sandbox_died", imp.draft["reason_classes"])
        # each record is numbered by its place in the object, from 1, in the records and in an error
        data = {f"t{i}": {"pass": True} for i in range(1, 6)}
        path = self.write_text("five.json", json.dumps(data).encode("utf-8"))
        records = self.imp("json", str(path), "--pass", "pass")
        self.assertEqual([(r["task_id"], r["harness"]["line"]) for r in records], [(f"t{i}", i) for i in range(1, 6)])
        data["t4"] = {"pass": "yes"}
        path = self.write_text("bad4.json", json.dumps(data).encode("utf-8"))
        self.assertInputError(self.run_gate("import", "json", str(path), "--pass", "pass"), f"{path}:4: ")
        array = [{"id": f"a{i}", "pass": i != 3} for i in range(1, 6)]  # an array: numbered the same way
        path = self.write_text("array.json", json.dumps(array).encode("utf-8"))
        records = self.imp("json", str(path), "--task-id", "id", "--pass", "pass")
        self.assertEqual([r["harness"]["line"] for r in records], [1, 2, 3, 4, 5])
        array[2]["pass"] = 0
        path = self.write_text("bad3.json", json.dumps(array).encode("utf-8"))
        self.assertInputError(self.run_gate("import", "json", str(path), "--task-id", "id", "--pass", "pass"),
                              f"{path}:3: ")
        rows = [{"task": t, "try": a, "ok": a == 2} for t in ("x", "y") for a in (1, 2, 3)]
        path = self.write_text("s.jsonl", "".join(json.dumps(r) + "\n" for r in rows).encode("utf-8"))
        imp = self.import_ok("jsonl", str(path), "--task-id", "task", "--attempt", "try", "--pass", "ok", "--samples",
                             name="samples")
        self.assertEqual((imp.draft["attempt_mode"], imp.draft["attempt_budget"]), ("samples", 3))
        code, _out, err = self.run_gate("import", "jsonl", str(path), "--task-id", "task", "--pass", "ok")
        self.assertEqual(code, 2)
        self.assertIn("give --attempt PATH", err)

    def test_the_mapping_is_recorded_and_rebuilds_the_runs_file(self) -> None:
        """The draft's provenance records the mapping (verdict_mapping) and the command; run again, it writes the same
        bytes; a mapping flag given to a named importer is refused."""
        imp = self.import_ok("jsonl", str(self.nocode()), "--task-id", "instance_id", "--pass", "resolved and applied")
        self.assertEqual(imp.draft["provenance"]["verdict_mapping"], ["--pass resolved and applied"])
        command = shlex.split(imp.draft["provenance"]["command"])
        self.assertEqual(command[:4], ["python3", "gate.py", "import", "jsonl"])
        out = self.dir / "again.jsonl"
        command[command.index("-o") + 1] = str(out)
        code, _o, err = self.run_gate(*command[2:])
        self.assertEqual(code, 0, err)
        self.assertEqual(hashlib.sha256(out.read_bytes()).hexdigest(), hashlib.sha256(imp.runs.read_bytes()).hexdigest())
        code, _out, err = self.run_gate("import", "swebench", "x.json", "--pass", "resolved")
        self.assertEqual(code, 2)
        self.assertIn("--pass is for the mapping formats", err)


PB = FIXTURES / "wild3" / "other" / "swe-polybench"


class SwePolyBench(RealFileCase):
    """`import swe-polybench FOLDER`: a declared mapping on the same engine (resolved passes; no generation or a
    patch not applied fails; a patch applied with no logs is no verdict), plus its declared set."""

    def test_the_files_alone_give_the_stated_figure_and_the_declared_set_shows_what_it_hides(self) -> None:
        """Kodah's 113 result files (the Python subset) state 32.74% (37/113). Alone they gate to 37/113 and the draft
        says the declared set is only the files found; with PBVerified's 382 ids, 269 instances have no file
        (missing_artifact): the headline is 37/382, attrition blocks, and --claim 32.74% is refused as the
        scoreable-only rate (37 of the 113 with a verdict), not the headline."""
        folder = PB / "20260430_kodah_gpt-5-mini"
        stated = (folder / "metadata.yaml").read_text(encoding="utf-8")
        self.assertIn('pass_rate: "32.74% (37/113)"', stated)
        results = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((folder / "logs").glob("*_result.json"))]
        resolved = sum(1 for r in results if r["resolved"])
        self.assertEqual((resolved, len(results)), (37, 113))
        imp = self.import_ok("swe-polybench", str(folder))
        self.assertEqual(sum(r["outcome"] == "pass" for r in imp.records), 37)
        self.assertEqual(len(imp.records), 113)
        self.assertEqual({r["run_id"] for r in imp.records}, {"20260430_kodah_gpt-5-mini"})
        self.assertTrue(any("the declared set is only the 113 task(s)" in item for item in imp.draft["draft"]))
        ids = (PB / "pbverified_ids.txt").read_text(encoding="utf-8").split()
        full = self.import_ok("swe-polybench", str(folder), "--dataset-ids", str(PB / "pbverified_ids.txt"), name="full")
        self.assertEqual(len(full.records), len(ids))
        absent = [r for r in full.records if r["reason"] == "missing_artifact"]
        self.assertEqual(len(absent), len(ids) - 113)
        report = self.gated(full, [], "--claim", "32.74%")
        self.assertEqual((report["headline"]["k"], report["headline"]["n"]), (37, 382))
        codes = {f["code"] for f in report["findings"]}
        self.assertIn("attrition_exceeded", codes)
        self.assertIn("claim_is_secondary", codes)

    def test_each_field_maps_as_the_scorer_means_it(self) -> None:
        """generation false -> fail (no patch); patch_applied false -> fail; a patch applied with no logs ->
        unscoreable grader_error; resolved -> pass."""
        folder = self.dir / "sub" / "logs"
        folder.mkdir(parents=True)
        cases = {"a": dict(generation=True, patch_applied=True, with_logs=True, resolved=True),
                 "b": dict(generation=False, patch_applied=False, with_logs=False, resolved=False),
                 "c": dict(generation=True, patch_applied=False, with_logs=False, resolved=False),
                 "d": dict(generation=True, patch_applied=True, with_logs=False, resolved=False)}
        for tid, fields in cases.items():
            (folder / f"{tid}_result.json").write_text(json.dumps({"instance_id": tid, **fields}), encoding="utf-8")
        records = self.imp("swe-polybench", str(self.dir / "sub"))
        self.assertEqual({r["task_id"]: (r["outcome"], r["reason"]) for r in records},
                         {"a": ("pass", None), "b": ("fail", None), "c": ("fail", None),
                          "d": ("unscoreable", "grader_error")})


class MappingRefusesWhatItCannotRead(RealFileCase):
    """What an adversarial review of the mapping importer found, each once a traceback, a silent wrong verdict or
    a rebuild command that did not rebuild."""

    def lines(self, name: str, rows: list[Any]) -> Path:
        return self.write_text(name, "".join(json.dumps(r) + "\n" for r in rows).encode("utf-8"))

    def test_non_ascii_digits_are_never_numbers(self) -> None:
        """A CSV attempt cell `²` and a path segment `²` into a list: exit 2 naming the line (they were exit 3)."""
        path = self.write_text("sup.csv", "id,ok,att\na,1,\u00b2\n".encode("utf-8"))
        code, _out, err = self.run_gate("import", "csv", str(path), "--task-id", "id", "--pass", "ok == 1",
                                        "--attempt", "att")
        self.assertEqual(code, 2, err)
        self.assertIn(f"{path}:2: attempt:", err)
        path = self.lines("q.jsonl", [{"id": "a", "ok": True, "m": {"n": [1, 2]}}])
        code, _out, err = self.run_gate("import", "jsonl", str(path), "--task-id", "id", "--pass", "m.n.\u00b2 == 1")
        self.assertEqual(code, 2, err)
        self.assertIn(f"{path}:1: m.n.\u00b2: missing", err)

    def test_values_that_cannot_compare_are_errors_not_fails(self) -> None:
        """A bare path holding 1, "true" or an object, and a NaN or Infinity: each an error naming the path;
        null against a string literal is simply not equal."""
        for value, fragment in ((1, "the number 1 is not a boolean"), ("true", "is not a boolean"),
                                ({"x": 1}, "is not a boolean")):
            with self.subTest(value=value):
                path = self.lines("ty.jsonl", [{"id": "a", "ok": value}])
                code, _out, err = self.run_gate("import", "jsonl", str(path), "--task-id", "id", "--pass", "ok")
                self.assertEqual(code, 2, err)
                self.assertIn(fragment, err)
        path = self.write_text("nan.json", b'[{"id": "a", "s": NaN}, {"id": "b", "s": Infinity}]')
        code, _out, err = self.run_gate("import", "json", str(path), "--task-id", "id", "--pass", "s >= 0.5")
        self.assertEqual(code, 2, err)
        self.assertIn("is not a finite number", err)
        path = self.lines("null.jsonl", [{"id": "a", "status": None, "ok": True}, {"id": "b", "status": "crash"}])
        records = self.imp("jsonl", str(path), "--task-id", "id", "--unscoreable", "status == 'crash'", "--pass", "ok",
                           "--reason", "env_flake")
        self.assertEqual({r["task_id"]: r["outcome"] for r in records}, {"a": "pass", "b": "unscoreable"})

    def test_a_csv_column_named_twice_is_refused(self) -> None:
        path = self.write_text("dup.csv", b"id,ok,ok\na,1,0\n")
        code, _out, err = self.run_gate("import", "csv", str(path), "--task-id", "id", "--pass", "ok == 1")
        self.assertEqual(code, 2)
        self.assertIn(f"{path}:1: column 'ok' appears twice (columns 2 and 3)", err)

    def test_a_reason_or_run_id_read_from_a_record_must_be_a_name(self) -> None:
        path = self.lines("why.jsonl", [{"id": "a", "err": True, "why": {"k": 1}}])
        code, _out, err = self.run_gate("import", "jsonl", str(path), "--task-id", "id", "--pass", "err == false",
                                        "--unscoreable", "err", "--reason", "why")
        self.assertEqual(code, 2)
        self.assertIn(f"{path}:1: why: expected a reason class (a non-empty printable string), got", err)

    def test_the_rebuild_command_keeps_a_flag_whose_value_is_another_flags_default(self) -> None:
        """`--unscoreable error` (a column named error) is kept in the recorded command: the defaults are each
        flag's own (--reason grader_error, --unreadable-as error), not any flag's."""
        path = self.lines("e.jsonl", [{"id": "a", "ok": True, "error": False}, {"id": "b", "ok": False, "error": True}])
        imp = self.import_ok("jsonl", str(path), "--task-id", "id", "--pass", "ok", "--unscoreable", "error")
        self.assertIn("--unscoreable error", imp.draft["provenance"]["command"])
        self.assertNotIn("--reason", imp.draft["provenance"]["command"])
