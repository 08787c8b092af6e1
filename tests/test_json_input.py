"""Reading JSON and JSONL: strict JSON everywhere (no NaN, no duplicate keys, no lone surrogates, UTF-8
without a BOM), one record per line, line numbers that survive blank lines, CRLF and chunk boundaries,
bounded memory, and a whole-chunk fast path that means exactly what the line-by-line parse does.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import tracemalloc
from typing import Any
from unittest import mock

import gate
from tests.builders import record, replaced, valid_ledger
from tests.support import INS_CANCEL, INS_OK, SWE_REPORT, TB_RESULTS, GateCase, LedgerInputCase, load


class InputFiles(LedgerInputCase):
    """The manifest and the runs file must be readable files."""

    def test_missing_files(self) -> None:
        """A manifest or runs path that does not exist is an input error naming the path."""
        runs = self.write_jsonl("runs.jsonl", self.records)
        missing = self.dir / "nope.json"
        self.assertInputError(self.run_gate("--manifest", str(missing), "--runs", str(runs)), str(missing))
        self.assertInputError(self.run_gate("--manifest", str(self.mpath), "--runs", str(missing)), str(missing))

    def test_unreadable_file(self) -> None:
        """A folder given as the manifest or as the runs file is an input error naming it."""
        folder = self.dir / "a-folder"
        folder.mkdir()
        runs = self.write_jsonl("runs.jsonl", self.records)
        self.assertInputError(self.run_gate("--manifest", str(folder), "--runs", str(runs)), str(folder))
        self.assertInputError(self.run_gate("--manifest", str(self.mpath), "--runs", str(folder)), str(folder))


class RunsAreStrictJsonLines(LedgerInputCase):
    """Each runs line is one strict JSON object; anything else is refused at its line."""

    def test_malformed_json_in_runs_names_the_line(self) -> None:
        """A truncated record or single-quoted pseudo-JSON on a runs line is an input error naming that line and the
        column: a line that ends inside its record (cut short, in a string or between fields) says so, where the
        decoder said 'Invalid control character at' or "Expecting ',' delimiter"; a line that is no JSON value, and a
        missing value, name where the value should start."""
        for cut in ('{"run_id": "r1", "task_id": "t-016", ', '{"run_id": "r1", "task_id": "t-0'):
            self.assertInputError(self.bad_line(cut), "runs.jsonl:17: invalid JSON: the line ends inside its record "
                                  f"(column {len(cut) + 1}): is it cut short?")
        self.assertInputError(self.bad_line("{'run_id': 'r1'}"), "runs.jsonl:17: invalid JSON: Expecting property name "
                              "enclosed in double quotes (column 2)")
        self.assertInputError(self.bad_line("pass"), "runs.jsonl:17: invalid JSON: expecting a value (column 1)")
        self.assertInputError(self.bad_line('{"run_id": }'), "runs.jsonl:17: invalid JSON: expecting a value (column 12)")
        for blank in ("\x0c", "\u00a0", "\u2003"):  # blank to str.strip, not to JSON: no value, not a record cut short
            self.assertInputError(self.bad_line(blank), "runs.jsonl:17: invalid JSON: expecting a value (column 1)")
        crlf = '{"run_id": "r1", "task_id": "t-0\r'  # cut inside a string, on a CRLF line: the \r is no record's
        self.assertInputError(self.bad_line(crlf), "runs.jsonl:17: invalid JSON: the line ends inside its record "
                              f"(column {len(crlf) + 1}): is it cut short?")
        last = '{"run_id": "r1", "task_id":'  # the last line, cut after a colon, with no final newline
        result = self.runs_bytes(("\n".join(self.lines[:-1]) + "\n" + last).encode())
        self.assertInputError(result, f"runs.jsonl:{len(self.lines)}: invalid JSON: the line ends inside its record "
                              f"(column {len(last) + 1}): is it cut short?")

    def test_record_split_over_two_lines_is_refused(self) -> None:
        """One record per line: a record broken over two lines is refused at the line where it starts, and its
        second half, on the next line, is a bad line of its own."""
        # JSONL: one record per line. A record broken over two lines is not one valid line.
        lines = list(self.lines)
        lines[16] = lines[16].replace(', "attempt"', ',\n"attempt"')
        result = self.runs_bytes(("\n".join(lines) + "\n").encode())
        self.assertInputError(result, "runs.jsonl:17:", "continues past the end of its line", lines=2)
        self.assertIn("runs.jsonl:18: extra data after the JSON object", result[2].splitlines()[1])

    def test_duplicate_keys_in_runs(self) -> None:
        """A duplicate key in a record, at its top or nested, is an input error naming the line and saying 'duplicate'."""
        rec = json.dumps(self.records[16])
        self.assertInputError(self.bad_line(rec[:-1] + ', "outcome": "pass"}'), "runs.jsonl:17:", "duplicate")
        self.assertInputError(self.bad_line(rec[:-1] + ', "meta": {"x": 1, "x": 2}}'), "runs.jsonl:17:", "duplicate")

    def test_non_finite_numbers_in_runs(self) -> None:
        """NaN, ±Infinity and numbers that overflow to infinity are refused anywhere on a runs line: in a field the
        gate reads, in one it ignores, and nested.
        """
        # in a field the gate reads, in an extra field it ignores, and nested: strict JSON everywhere
        for token in ("NaN", "Infinity", "-Infinity", "1e400", "-1e400"):
            for template in ('"wall_clock_s": {}', '"x": {}', '"meta": {{"y": [{}]}}'):
                extra = template.format(token)
                with self.subTest(token=token, field=extra):
                    rec = json.dumps(self.records[16])[:-1] + ", " + extra + "}"
                    self.assertInputError(self.bad_line(rec), "runs.jsonl:17:")

    def test_deep_nesting_in_runs(self) -> None:
        """Brackets nested 100,000 deep on a runs line are an input error naming the line, not a RecursionError."""
        self.assertInputError(self.bad_line("[" * 100000), "runs.jsonl:17:")
        self.assertInputError(self.bad_line('{"x": ' + "[" * 100000 + "]" * 100000 + "}"), "runs.jsonl:17:")

    def test_line_that_is_not_an_object(self) -> None:
        """A runs line holding a list, number, string, null or boolean instead of an object is refused at that line."""
        for text in ("[1, 2]", "5", '"t-001"', "null", "true"):
            with self.subTest(line=text):
                self.assertInputError(self.bad_line(text), "runs.jsonl:17:")

    def test_two_objects_on_one_line(self) -> None:
        """Two records on one line, with or without a space between them, are refused at that line."""
        self.assertInputError(self.bad_line(self.lines[16] + " " + self.lines[16]), "runs.jsonl:17:")
        self.assertInputError(self.bad_line(self.lines[16] + self.lines[16]), "runs.jsonl:17:")

    def test_lone_surrogates_are_input_errors(self) -> None:
        """A lone UTF-16 surrogate escape is an input error naming file and line: in the runs (for check and for
        digest) and in the manifest.
        """
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
        """A properly paired surrogate escape (an emoji) is accepted and printed as the character."""
        manifest, records = valid_ledger()
        manifest["claim_id"] = "claim \U0001f600"
        code, out, err = self.check(manifest, records)
        self.assertEqual(code, 0, err)
        self.assertIn("claim \U0001f600", out)


class RunsEncoding(LedgerInputCase):
    """The runs file is UTF-8, without a byte-order mark."""

    def test_non_utf8_in_runs_names_the_line(self) -> None:
        """Bytes that are not UTF-8 on a runs line are an input error naming that line and UTF-8."""
        data = ("\n".join(self.lines[:16]) + "\n").encode() + b'{"run_id": "r\xff1"}\n'
        self.assertInputError(self.runs_bytes(data), "runs.jsonl:17:", "UTF-8")

    def test_bom_in_runs(self) -> None:
        """A byte-order mark at the start of the runs file is refused at line 1."""
        self.assertInputError(self.runs_bytes(b"\xef\xbb\xbf" + ("\n".join(self.lines) + "\n").encode()), "runs.jsonl:1:")


class LineNumbers(LedgerInputCase):
    """Blank lines and CRLF endings are allowed and still counted as lines."""

    def test_blank_lines_and_crlf_are_fine(self) -> None:
        """Blank lines, whitespace-only lines, CRLF endings and no newline after the last line leave a valid ledger
        PUBLISHABLE.
        """
        data = "\r\n".join(self.lines[:10]) + "\r\n\r\n   \n\t\r\n" + "\n\n".join(self.lines[10:])
        code, out, err = self.runs_bytes(data.encode())  # no newline after the last line either
        self.assertEqual((code, err), (0, ""), out)
        self.assertIn("verdict     : PUBLISHABLE", out)

    def test_line_numbers_stay_right_after_blank_and_crlf_lines(self) -> None:
        """Error line numbers count blank and CRLF lines, for a bad field, bad UTF-8 and a non-object line alike."""
        # lines 1-3 CRLF, 4 blank, 5 blank CRLF, 6 spaces, 7 a record, 8 the bad line
        data = ("\r\n".join(self.lines[:3]) + "\r\n" + "\n" + "\r\n" + "   \n" + self.lines[3] + "\r\n"
                + '{"run_id": "r1", "task_id": "t-x", "attempt": 0, "outcome": "pass", "reason": null}\r\n'
                + "\n".join(self.lines[4:]) + "\n")
        self.assertInputError(self.runs_bytes(data.encode()), "runs.jsonl:8:", "attempt")
        data = ("\r\n".join(self.lines[:3]) + "\r\n\r\n\n").encode() + b'{"run_id": "\xc3"}\r\n'
        self.assertInputError(self.runs_bytes(data), "runs.jsonl:6:", "UTF-8")
        data = "\r\n".join(self.lines[:3]) + "\r\n\r\n\n" + "[1]\r\n" + "\n".join(self.lines[3:]) + "\n"
        self.assertInputError(self.runs_bytes(data.encode()), "runs.jsonl:6:")

    def test_truncated_line_after_blank_and_crlf_lines_names_its_line(self) -> None:
        """A truncated record after blank and CRLF lines is reported at its own physical line."""
        # lines 1-3 CRLF, 4 blank CRLF, 5 blank, 6 a truncated record, then valid records
        data = "\r\n".join(self.lines[:3]) + "\r\n\r\n\n" + '{"run_id": \r\n' + "\n".join(self.lines[3:]) + "\n"
        self.assertInputError(self.runs_bytes(data.encode()), "runs.jsonl:6:")


class ManifestIsStrictJson(LedgerInputCase):
    """The manifest is one strict JSON object; its errors name the line or the field."""

    def test_malformed_json_in_manifest_names_the_line(self) -> None:
        """A syntax error in the manifest names the line it is on; a manifest cut in half names the file."""
        text = json.dumps(self.manifest, indent=2)
        broken = text.replace('"name": "test-suite",', '"name": "test-suite",,')
        line = broken[:broken.index(",,")].count("\n") + 1
        self.assertInputError(self.manifest_text(broken), f"bench.manifest.json:{line}:")
        self.assertInputError(self.manifest_text(text[: len(text) // 2]), "bench.manifest.json:")

    def test_duplicate_key_in_manifest(self) -> None:
        """A duplicated top-level manifest key is an input error naming the key and saying 'duplicate'."""
        text = json.dumps(self.manifest, indent=2)
        top = text.replace('"claim_id": "test-claim",', '"claim_id": "test-claim",\n  "claim_id": "other",')
        self.assertInputError(self.manifest_text(top), "bench.manifest.json", "duplicate", "claim_id")

    def test_nested_duplicate_key_in_manifest_names_line_or_field(self) -> None:
        """A duplicated key inside dataset is refused, naming its line or the field dataset.name."""
        text = json.dumps(self.manifest, indent=2)
        nested = text.replace('"name": "test-suite",', '"name": "test-suite",\n    "name": "other-suite",')
        line = nested[:nested.index('"name": "other-suite"')].count("\n") + 1
        result = self.manifest_text(nested)
        self.assertInputError(result, "duplicate")
        self.assertNamesLineOrField(result, line, "dataset.name")

    def test_non_finite_numbers_in_manifest_name_line_or_field(self) -> None:
        """NaN, ±Infinity or an overflowing number in the manifest is refused, naming its line or the field."""
        text = json.dumps(self.manifest, indent=2)
        line = text[:text.index('"task_count"')].count("\n") + 1
        for token in ("NaN", "Infinity", "-Infinity", "1e400"):
            with self.subTest(token=token):
                result = self.manifest_text(text.replace('"task_count": 40', f'"task_count": {token}'))
                self.assertNamesLineOrField(result, line, "dataset.task_count")

    def test_the_column_of_a_bad_number_counts_from_the_first_character(self) -> None:
        """An out-of-range number is named at its own column, counted from 1 at the first character of the line,
        whatever the text's last character is (a number, a bracket, a key): column 1 for a bare `1e999`."""
        cases = [("1e999", 1), ("[1, 2e999]", 5), ('{"a": [-3e999]}', 8), ('{"a": [1,\n 2e999]}', 2), ("[7, 9e999, 1]", 5)]
        for text, column in cases:
            with self.subTest(text=text):
                line = text.count("\n") + 1
                self.assertInputError(self.manifest_text(text), f"bench.manifest.json:{line}: invalid JSON: number ",
                                      f" is out of range (column {column})")

    def test_deep_nesting_in_manifest(self) -> None:
        """A manifest nested 100,000 brackets deep is an input error, not a RecursionError."""
        self.assertNamesLineOrField(self.manifest_text("[" * 100000), 1, "top level")

    def test_non_utf8_and_bom_in_manifest(self) -> None:
        """Non-UTF-8 bytes in the manifest are refused at their line, a byte-order mark at line 1."""
        text = json.dumps(self.manifest, indent=2).encode()
        line = text[:text.index(b"test-claim")].count(b"\n") + 1
        self.assertInputError(self.manifest_text(text.replace(b"test-claim", b"test-\xe9claim")),
                              f"bench.manifest.json:{line}:", "UTF-8")
        self.assertInputError(self.manifest_text(b"\xef\xbb\xbf" + text), "bench.manifest.json:1:")

    def test_manifest_not_an_object(self) -> None:
        """A manifest whose top level is not an object is an input error naming the file."""
        self.assertInputError(self.manifest_text("[]"), "bench.manifest.json")


class HarnessFilesAreStrictJson(GateCase):
    """The importers read harness files with the same strict JSON rules."""

    def test_malformed_json(self) -> None:
        """A truncated harness file is an input error naming it, for every importer."""
        for fmt in ("swebench", "inspect", "terminal-bench"):
            with self.subTest(fmt=fmt):
                path = self.write_text(f"{fmt}-bad.json", '{"results": [')
                self.assertInputError(self.run_gate("import", fmt, str(path)), str(path))

    def test_nan_is_read_only_where_a_harness_writes_it(self) -> None:
        """Inspect writes a bare NaN for an unscored value: its logs are read, a NaN score is unscoreable
        grader_error; in any other harness file (and any manifest) NaN is not JSON, an input error."""
        data = load(INS_CANCEL)
        text = json.dumps(data).replace('"value": 0.75', '"value": NaN')
        self.assertIn("NaN", text)
        path = self.write_text("nan.json", text)
        code, out, err = self.run_gate("import", "inspect", str(path))
        self.assertEqual(code, 0, err)
        nan = [json.loads(line) for line in out.splitlines() if '"score_value":"NaN"' in line]
        self.assertTrue(nan, out)
        self.assertEqual({(r["outcome"], r["reason"]) for r in nan}, {("unscoreable", "grader_error")})
        for fmt, source, old in (("terminal-bench", TB_RESULTS, '"accuracy": 0.'), ("swebench", SWE_REPORT, '"total_instances": ')):
            with self.subTest(fmt=fmt):
                text = source.read_text(encoding="utf-8")
                self.assertIn(old, text)
                bad = self.write_text(f"{fmt}.json", text.replace(old, old.rstrip("0123456789. ") + " NaN, \"x-was\": 0.", 1))
                self.assertInputError(self.run_gate("import", fmt, str(bad)), str(bad), "NaN")

    def test_duplicate_keys(self) -> None:
        """A duplicate key in a harness file is an input error naming the file and saying 'duplicate', for every importer."""
        cases = {
            "swebench": (SWE_REPORT, '"schema_version": 2', '"schema_version": 2, "schema_version": 2'),
            "inspect": (INS_OK, '"status": "success"', '"status": "error", "status": "success"'),
            "terminal-bench": (TB_RESULTS, '"is_resolved": false', '"is_resolved": true, "is_resolved": false'),
        }
        for fmt, (src, old, new) in cases.items():
            with self.subTest(fmt=fmt):
                text = json.dumps(load(src))
                self.assertIn(old, text)
                path = self.write_text(f"{fmt}-dup.json", text.replace(old, new, 1))
                self.assertInputError(self.run_gate("import", fmt, str(path)), str(path), "duplicate")


class Streaming(GateCase):
    """The runs file is read lazily in chunks; chunk size never changes a result."""

    def setUp(self) -> None:
        super().setUp()
        self._saved = (gate._CHUNK_BYTES, gate.MAX_LINE_BYTES)

    def tearDown(self) -> None:
        gate._CHUNK_BYTES, gate.MAX_LINE_BYTES = self._saved
        super().tearDown()

    def test_line_numbers_across_chunk_boundaries(self) -> None:
        """iter_jsonl yields the same (line number, value) pairs, and hashes the same bytes, at every chunk size from
        one byte up, across multi-byte characters, blank lines and CRLF.
        """
        rows = []
        for i in range(60):
            rows.append(json.dumps({"i": i, "name": "tâche-é-✓" * (i % 5), "pad": "x" * (i * 7 % 50)},
                                   ensure_ascii=False))
            if i % 7 == 0:
                rows.append("")
            if i % 11 == 0:
                rows.append("  \t")
        text = ""
        for index, row in enumerate(rows):
            text += row + ("\r\n" if index % 3 == 0 else "\n")
        text = text.rstrip("\n")  # no newline at the very end
        data = text.encode("utf-8")
        path = self.write_text("runs.jsonl", data)
        expected = [(number, json.loads(line)) for number, line in enumerate(text.split("\n"), 1) if line.strip()]
        self.assertEqual(len(expected), 60)
        for chunk in (1, 2, 3, 5, 7, 16, 64, 100, 1 << 22):
            with self.subTest(chunk=chunk):
                gate._CHUNK_BYTES = chunk
                hasher = hashlib.sha256()
                self.assertEqual(list(gate.iter_jsonl(path, hasher)), expected)
                self.assertEqual(hasher.hexdigest(), hashlib.sha256(data).hexdigest())

    def test_reader_is_lazy(self) -> None:
        """iter_jsonl yields the first record before reading on: a broken line 2001 raises only when reached, naming that line."""
        gate._CHUNK_BYTES = 64
        lines = [json.dumps({"i": i}) for i in range(2000)] + ["{broken"]
        path = self.write_text("runs.jsonl", "\n".join(lines) + "\n")
        iterator = gate.iter_jsonl(path)
        self.assertEqual(next(iterator), (1, {"i": 0}))
        with self.assertRaises(gate.GateError) as caught:
            list(iterator)
        self.assertIn("runs.jsonl:2001:", str(caught.exception))

    def test_memory_stays_at_one_chunk(self) -> None:
        """Reading a 240 kB runs file in 2 kB chunks peaks below a sixth of the file's size (about 30 kB here on 3.9,
        whatever ran before in the process; read whole and parsed, the file takes over 1 MB)."""
        gate._CHUNK_BYTES = 1 << 11
        line = json.dumps(record("t-000", "fail", wall_clock_s=12.5, note="y" * 120)) + "\n"
        path = self.write_text("runs.jsonl", line * 1000)  # about 240 kB; read whole and parsed it is over 1 MB
        size = path.stat().st_size
        # once before measuring: what the first read sets up for good (a lazy import, a compiled expression) is
        # not the read's memory, and it is there already when another test has read a file in this process
        sum(1 for _ in gate.iter_jsonl(path))
        tracemalloc.start()
        try:
            count = sum(1 for _ in gate.iter_jsonl(path))
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        self.assertEqual(count, 1000)
        self.assertLess(peak, size // 6, f"peak {peak} bytes while reading {size} bytes")

    def test_whole_check_is_the_same_with_tiny_chunks(self) -> None:
        """A whole check gives identical output with 5-byte chunks and with the default chunk."""
        manifest, records = valid_ledger()
        records = replaced(records, "t-004", outcome="PASS")
        default = self.check(manifest, records, "--format", "json")
        gate._CHUNK_BYTES = 5
        self.assertEqual(self.check(manifest, records, "--format", "json"), default)
        self.assertEqual(default[0], 1)

    def test_overlong_line_is_refused_with_its_number(self) -> None:
        """A line longer than MAX_LINE_BYTES is refused with its line number; a line of exactly MAX_LINE_BYTES is accepted."""
        gate._CHUNK_BYTES, gate.MAX_LINE_BYTES = 64, 256
        manifest, records = valid_ledger()
        m = self.write_json("bench.manifest.json", manifest)
        lines = [json.dumps(r) for r in records]
        self.assertTrue(all(len(x) < 256 for x in lines))
        long_line = json.dumps({**records[2], "note": "z" * 1000})
        data = "\n".join([*lines[:2], long_line, *lines[3:]]) + "\n"
        r = self.write_text("runs.jsonl", data)
        self.assertInputError(self.run_gate("--manifest", str(m), "--runs", str(r)), "runs.jsonl:3:")
        # a line of exactly MAX_LINE_BYTES is still fine
        base = json.dumps({**records[2], "note": ""})
        exact = json.dumps({**records[2], "note": "z" * (256 - len(base))})
        self.assertEqual(len(exact.encode()), 256)
        self.write_text("runs.jsonl", "\n".join([*lines[:2], exact, *lines[3:]]) + "\n")
        code, _, err = self.run_gate("--manifest", str(m), "--runs", str(r))
        self.assertEqual((code, err), (0, ""))


class ChunkSwitches(GateCase):
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


class FastPathAgreement(ChunkSwitches):
    """The whole-chunk parse and the line-by-line parse give the same reports."""

    def test_shipped_style_ledger(self) -> None:
        """A valid ledger gives identical JSON reports with whole-chunk parsing, 97-byte chunks and 1-byte chunks."""
        manifest, records = valid_ledger()
        results = self.reports(manifest, records)
        self.assertAllEqual(results)
        self.assertEqual(results[0][0], 0)

    def test_samples_ledger_with_attempts_spread_over_batches(self) -> None:
        """A shuffled samples-mode ledger whose attempts fall into different chunks gives the same PUBLISHABLE report
        at every chunk size.
        """
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
        manifest.update(attempt_mode="samples", attempt_budget=3, max_unscoreable=0.5)  # about a third unscoreable
        results = self.reports(manifest, samples)
        self.assertAllEqual(results)
        report = json.loads(results[0][1])
        self.assertEqual(report["verdict"], "PUBLISHABLE", report["findings"])
        self.assertEqual(report["ledger"]["records"], 3 * len(tasks))

    def test_findings_agree(self) -> None:
        """Gaps, repeats, envelope breaches, mixed runs, unknown outcomes and uncoded reasons are found identically at
        every chunk size.
        """
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
        """--run-id selects the same records at every chunk size."""
        manifest, records = valid_ledger()
        manifest["run_id"] = "r1"
        other = [dict(r, run_id="r2", outcome="fail", reason=None) for r in records]
        results = self.reports(manifest, records + other)
        self.assertAllEqual(results)
        self.assertEqual(results[0][0], 0)

    def test_input_errors_agree(self) -> None:
        """A bad field value is the same input error, naming line 21, at every chunk size."""
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


class WholeChunkParse(ChunkSwitches):
    """The whole-chunk parse is taken only when each line provably holds one flat object."""

    def lines_of(self, text: str) -> list[tuple[int, Any]] | str:
        path = self.write_text("runs.jsonl", text)
        try:
            return list(gate.iter_jsonl(path))
        except gate.GateError as exc:
            return str(exc)

    def test_bad_line_named_the_same_by_both_parsers(self) -> None:
        """A malformed line inside an otherwise clean chunk is reported identically by the whole-chunk and the line-
        by-line parse.
        """
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
        """Braces that balance over a chunk but not line by line are refused at line 1, never read as whole objects."""
        # Counts that balance over the chunk but not line by line: the array parse would see
        # three objects in three lines, but no line holds one object.
        for text in ('{"a":1\n"b":2}\n{},{}\n', '{"a":"x}\n{y"}\n{}\n', '{"a":1,\n"b":2}\n'):
            with self.subTest(text=text):
                result = self.lines_of(text)
                self.assertIsInstance(result, str, result)
                self.assertIn("runs.jsonl:1:", result)

    def test_fast_and_slow_parse_give_the_same_values(self) -> None:
        """300 compact records, some with a colon inside a string, parse to the same values by both paths."""
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
        """Only a chunk of flat one-object LF lines takes the whole-chunk parse; CRLF, a leading blank line, a colon
        in a string or a nested list send it line by line.
        """
        clean = "".join(json.dumps(record(f"t-{i}", "pass")) + "\n" for i in range(5))
        _, numbers = gate._parse_chunk(clean, 10, "runs.jsonl")
        self.assertEqual(numbers, range(10, 15))  # the whole-chunk parse
        for text in (clean.replace("\n", "\r\n"), "\n" + clean, clean.replace('"pass"', '"a:b"', 1),
                     clean.replace('"pass"', '["pass"]', 1)):
            with self.subTest(text=text[:30]):
                values, numbers = gate._parse_chunk(text, 10, "runs.jsonl")
                self.assertIsInstance(numbers, list)  # line by line
                self.assertEqual(len(values), 5)


class EscapedKeys(ChunkSwitches):
    def test_escaped_cost_key_is_still_validated(self) -> None:
        """A key spelled with a unicode escape (cost\\u005fusd) is validated like cost_usd: a negative value is
        refused at its line.
        """
        manifest, records = valid_ledger()
        lines = [json.dumps(r) for r in records]
        lines[4] = lines[4][:-1] + ', "cost\\u005fusd": -1}'
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_text("runs.jsonl", "\n".join(lines) + "\n")
        self.assertInputError(self.run_gate("--manifest", str(m), "--runs", str(r)), "runs.jsonl:5:", "cost_usd")


class NestingDepth(GateCase):
    def test_too_deep_nesting_is_named_at_the_bracket_past_the_limit(self) -> None:
        """The gate's own nesting limit (500) is where the error points, on any Python version."""
        m = self.write_text("deep.json", "[" * 1500 + "]" * 1500)
        r = self.write_text("r.jsonl", "")
        self.assertInputError(self.run_gate("--manifest", str(m), "--runs", str(r)),
                              "deep.json:1:", "deeper than 500 levels", "(column 501)")
        manifest, records = valid_ledger()
        lines = [json.dumps(rec) for rec in records]
        lines[3] = lines[3][:-1] + ', "x": ' + "[" * 1500 + "]" * 1500 + "}"
        m = self.write_json("m.json", manifest)
        r = self.write_text("r.jsonl", "\n".join(lines) + "\n")
        column = lines[3].index("[") + 500
        self.assertInputError(self.run_gate("--manifest", str(m), "--runs", str(r)),
                              "r.jsonl:4:", "deeper than 500 levels", f"(column {column})")

    def test_nesting_at_the_limit_is_accepted(self) -> None:
        """A record 500 levels deep (the object and 499 lists) is read like any other."""
        manifest, records = valid_ledger()
        records[3]["x"] = json.loads("[" * 499 + "]" * 499)
        code, out, err = self.check(manifest, records)
        self.assertEqual(code, 0, err)
        self.assertIn("verdict     : PUBLISHABLE", out)


class LoneSurrogateLine(GateCase):
    def test_a_lone_surrogate_is_named_on_its_own_line_not_a_valid_pairs(self) -> None:
        """A valid surrogate pair on line 2 is fine, an escaped backslash before `ud800` is no escape;
        the lone half on line 5 is the one named."""
        manifest, _ = valid_ledger()
        text = json.dumps(manifest, indent=2).splitlines()
        text.insert(1, '  "notes": "\\ud83d\\ude00",')
        text.insert(3, '  "x-other": "\\\\ud800 is not an escape",')
        text.insert(4, '  "x-bad": "x\\udc00",')
        m = self.write_text("m.json", "\n".join(text) + "\n")
        r = self.write_text("r.jsonl", "")
        self.assertInputError(self.run_gate("--manifest", str(m), "--runs", str(r)), "m.json:5:", "surrogate")
        text[4] = '  "x-bad": "\\ud800x",'
        m = self.write_text("m.json", "\n".join(text) + "\n")
        self.assertInputError(self.run_gate("--manifest", str(m), "--runs", str(r)), "m.json:5:", "surrogate")


class SeveralBadLines(LedgerInputCase):
    """A runs file with several bad lines names every one of them in one run (the first 20 in the file, then how many
    more), each with its line number, in line order; the exit code stays 2."""

    def lines_with(self, bad: dict[int, str]) -> bytes:
        lines = [json.dumps(r) for r in self.records] + [json.dumps(dict(self.records[0], task_id=f"x-{i:03d}"))
                                                          for i in range(60)]
        for at, text in bad.items():
            lines[at - 1] = text
        return ("\n".join(lines) + "\n").encode("utf-8")

    def test_three_kinds_of_bad_line_in_one_run(self) -> None:
        """Lines 3 (a task_id that is a number), 17 (not JSON) and 40 (attempt 0) are all named, in line order."""
        record = dict(self.records[2], task_id=5)
        data = self.lines_with({3: json.dumps(record), 17: '{"run_id": "r1", bad', 40: json.dumps(dict(self.records[0], attempt=0))})
        code, out, err = self.runs_bytes(data)
        self.assertEqual((code, out), (2, ""))
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 3, err)
        for line, (number, what) in zip(lines, ((3, "task_id"), (17, "invalid JSON"), (40, "attempt"))):
            self.assertRegex(line, rf"^gate\.py: error: .*runs\.jsonl:{number}: .*{what}")
        self.assertNotIn("Traceback", err)

    def test_past_twenty_the_rest_are_counted(self) -> None:
        """30 bad lines: the first 20 by line number are named, then '... and 10 more bad line(s)'."""
        bad = {at: "{not json" for at in range(5, 65, 2)}
        code, _out, err = self.runs_bytes(self.lines_with(bad))
        self.assertEqual(code, 2)
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 21, err)
        numbers = [int(re.search(r"runs\.jsonl:(\d+):", line).group(1)) for line in lines[:20]]  # type: ignore[union-attr]
        self.assertEqual(numbers, sorted(bad)[:20])
        self.assertEqual(lines[20], "gate.py: error: ... and 10 more bad line(s)")

    def test_an_error_that_stops_the_pass_comes_after_the_lines_before_it(self) -> None:
        """A byte that is not UTF-8 stops the pass (the text cannot be read past it); the bad lines found before it
        in earlier chunks are named first."""
        from gate import _CHUNK_BYTES

        head = self.lines_with({4: "[1]"})
        line = (json.dumps(self.records[0]) + "\n").encode()
        filler = line * (_CHUNK_BYTES // len(line) + 10)  # more than a chunk of good lines: the bad byte is in a later one
        code, _out, err = self.runs_bytes(head + filler + b'{"x": "\xff"}\n')
        self.assertEqual(code, 2)
        lines = err.strip().splitlines()
        self.assertIn("runs.jsonl:4:", lines[0])
        self.assertEqual(len(lines), 2, err[:500])
        self.assertIn("UTF-8", lines[-1])


def osa(a: str, b: str) -> int:
    """The textbook optimal-string-alignment distance: insertions, deletions, substitutions and adjacent
    transpositions cost 1."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


class NearMissFilter(GateCase):
    def test_the_character_set_filter_never_changes_the_answer(self) -> None:
        """near_miss rules a key out by the characters it shares with each field before aligning them; over 3,000
        seeded keys (typos of the record fields among them) it answers as the alignment alone does."""
        rnd = random.Random(20261202)
        alphabet = "abcdefghijklmnopqrstuvwxyz_-0123456789"
        keys = []
        for _ in range(3000):
            field = rnd.choice(gate.RECORD_KEYS)
            word = list(field)
            for _ in range(rnd.randint(0, 3)):
                at = rnd.randrange(len(word) + 1)
                edit = rnd.choice("isdt")
                if edit == "i":
                    word.insert(at, rnd.choice(alphabet))
                elif edit == "s" and at < len(word):
                    word[at] = rnd.choice(alphabet)
                elif edit == "d" and at < len(word) and len(word) > 1:
                    del word[at]
                elif edit == "t" and at + 1 < len(word):
                    word[at], word[at + 1] = word[at + 1], word[at]
            keys.append("".join(word) if rnd.random() < 0.8 else "".join(rnd.choice(alphabet) for _ in range(8)))

        def aligned(word: str) -> str | None:  # near_miss without the filter
            normal = gate._normal_key(word)
            best = None
            for candidate in gate.RECORD_KEYS:
                if candidate == word:
                    return None
                if gate._normal_key(candidate) == normal:
                    return candidate
                limit = 2 if len(candidate) >= 6 else 1
                distance = gate._edit_distance(word, candidate, limit)
                if distance <= limit and (best is None or (distance, candidate) < best):
                    best = (distance, candidate)
            return best[1] if best else None

        for key in keys:
            self.assertEqual(gate.near_miss(key, gate.RECORD_KEYS), aligned(key), key)

    def test_three_characters_no_known_word_has_end_the_search_before_any_candidate(self) -> None:
        """Each character no known word has costs an edit, and no limit is above two: a word with three such
        characters is answered None without a look at the known words of its length (lookups counted); with two,
        they are looked at."""
        looked: list[int] = []

        class Counted(dict):  # type: ignore[type-arg]
            def get(self, key: Any, default: Any = None) -> Any:
                looked.append(key)
                return super().get(key, default)

        real = gate._near_index

        def counted(known: tuple[str, ...]) -> Any:
            normals, by_length, alphabet = real(known)
            return normals, Counted(by_length), alphabet

        with mock.patch.object(gate, "_near_index", counted):
            self.assertIsNone(gate.near_miss("outcqzj", gate.RECORD_KEYS))  # q, z, j: in no record key
            self.assertIsNone(gate.near_miss("qutcozj", gate.RECORD_KEYS))
            self.assertEqual(looked, [])
            self.assertEqual(gate.near_miss("outcqme", gate.RECORD_KEYS), "outcome")  # one: looked at, and found
            self.assertEqual(sorted(looked), [5, 6, 7, 8, 9])  # the lengths within two of 7
            self.assertEqual(gate.near_miss("outcqze", gate.RECORD_KEYS), "outcome")  # two: still two edits away
            self.assertEqual(len(looked), 10)

    def test_the_edit_distance_is_the_optimal_string_alignment_distance(self) -> None:
        """_edit_distance against the textbook optimal-string-alignment recurrence (insertions, deletions and
        substitutions cost 1, an adjacent transposition 1), whatever it is above the limit, over 2,000 seeded pairs; and a
        record key two letters longer than its field (`outcomexx`) is refused as its near miss."""
        rnd = random.Random(39)
        for _ in range(2000):
            a, b = ("".join(rnd.choice("abc") for _ in range(rnd.randint(0, 6))) for _ in range(2))
            limit = rnd.randint(1, 3)
            with self.subTest(a=a, b=b, limit=limit):
                self.assertEqual(min(gate._edit_distance(a, b, limit), limit + 1), min(osa(a, b), limit + 1))
        manifest, records = valid_ledger()
        records[3]["outcomexx"] = 1
        self.assertInputError(self.check(manifest, records), "outcomexx", "did you mean 'outcome'?")

    def test_near_miss_is_its_docstring(self) -> None:
        """near_miss against what it says it is, over 3,000 seeded words and word lists of short and long words: the
        known word within one edit (two for a known word of six letters or more) with the fewest edits, the first in
        sort order among equals; None for a known word itself, or one no known word is that close to. A typo of a
        short command (`jsn` for `json`) is one edit, and named."""
        rnd = random.Random(20261223)
        for _ in range(3000):
            known = sorted({"".join(rnd.choice("abcd") for _ in range(rnd.randint(2, 8))) for _ in range(rnd.randint(1, 6))})
            word = "".join(rnd.choice("abcde") for _ in range(rnd.randint(1, 9)))
            near = [(osa(word, c), c) for c in known if osa(word, c) <= (2 if len(c) >= 6 else 1)]
            want = None if word in known or not near else min(near)[1]
            with self.subTest(word=word, known=known):
                self.assertEqual(gate.near_miss(word, known), want)
        self.assertEqual(gate.near_miss("jsn", ["json", "jsonl", "csv"]), "json")
        self.assertEqual(gate.near_miss("cvs", ["json", "jsonl", "csv"]), "csv")
