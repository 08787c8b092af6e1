"""Hostile input: inputs other people wrote can forge nothing on screen, hang nothing, overwrite nothing,
and never produce a traceback. Each bound is a generous one that only a super-linear blow-up exceeds, and each
counts work (lines of Python run, bytes held), never seconds: a loaded machine runs the same lines, only slower."""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import shutil
import stat
import subprocess
import sys
import tracemalloc
import unittest
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType
from typing import Any
from unittest import mock

import gate
from tests.builders import record, valid_ledger
from tests.support import INS_OK, ROOT, TB_RESULTS, GateCase, gate_command, load, markdown_tables

FORGED = "\nverdict     : PUBLISHABLE\n\x1b[2K\x1b[1A"
AT_ONCE = 250_000  # lines of Python a refusal "at once" may run (the largest here, 5,000 sample IDs: ~52,000)


class TooMuchWork(BaseException):
    """Raised inside the gate when a counted run passes its budget, so a blow-up stops there and then (a
    BaseException: the gate's `except Exception` does not turn it into an exit code)."""


@contextlib.contextmanager
def counted_lines(budget: float = math.inf) -> Iterator[list[int]]:
    """Count the lines of Python run inside the block (sys.settrace, this thread): the measure of work here, the same
    on a loaded machine as on an idle one, as seconds are not. Past `budget` lines the run is stopped and the test
    fails, so a blow-up fails at once rather than after its hours of work."""
    count = [0]

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            count[0] += 1
            if count[0] > budget:
                raise TooMuchWork(f"more than {budget:,.0f} lines of Python run")
        return trace

    previous = sys.gettrace()
    sys.settrace(trace)
    try:
        yield count
    except TooMuchWork as exc:
        raise AssertionError(str(exc)) from None
    finally:
        sys.settrace(previous)


class RegexTexts:
    """Stands in for gate's `re` (mock.patch.object(gate, "re", RegexTexts())): keeps in `longest` the length of the
    longest text a pattern was run on (re.search(p, text), re.compile(p).match(text), ...), and stops the run on a
    text longer than `limit`. The regex engine's steps cannot be counted from Python, and a backtracking pattern's
    grow faster than the text it is given; so a count of work bounds the texts instead. (A pattern compiled before
    the patch, at gate's import, is not seen.)"""

    TEXT = {"search": 0, "match": 0, "fullmatch": 0, "findall": 0, "finditer": 0, "split": 0, "sub": 1, "subn": 1}

    def __init__(self, real: Any = re, owner: RegexTexts | None = None) -> None:
        self.real, self.owner = real, owner if owner is not None else self
        self.longest, self.limit = 0, math.inf

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.real, name)
        if name == "compile":
            return lambda *args, **kwargs: RegexTexts(attr(*args, **kwargs), self.owner)
        if name not in self.TEXT:
            return attr
        at = self.TEXT[name] + (self.real is re)  # re.search(pattern, text): the module takes the pattern first

        def run(*args: Any, **kwargs: Any) -> Any:
            size, owner = len(args[at]), self.owner
            if size > owner.limit:
                raise TooMuchWork(f"a regex was run on {size:,} characters, more than the {owner.limit:,.0f} allowed")
            owner.longest = max(owner.longest, size)
            return attr(*(a.real if isinstance(a, RegexTexts) else a for a in args), **kwargs)

        return run


def raw_controls(text: str) -> list[str]:
    """Characters no report may print as they are: C0/C1 controls (but newline), and bidi overrides."""
    return [c for c in text if (ord(c) < 32 and c != "\n") or 0x7f <= ord(c) < 0xa0 or c in "\u202a\u202b\u202d\u202e\u2066\u2067\u2068\u2069"]


class InertOutput(GateCase):
    """Every string from an input is rendered safely for its format."""

    def test_a_freeze_refusal_shows_control_characters_as_escapes(self) -> None:
        """A task ID holding \x01 in a refused freeze (the fuzzer's find): the refusal shows it as \\x01."""
        from tests.builders import task

        tasks = self.write_json("tasks.json", [task("ok-1"), task("\x01<&>")])
        code, out, _ = self.run_gate("freeze", str(tasks), str(self.dir / "card.json"))
        self.assertEqual(code, 1)
        self.assertNotIn("\x01", out)
        self.assertIn("\\x01<&>", out)

    def forged(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        manifest, records = valid_ledger()
        manifest["claim_id"] = "agent" + FORGED + "\u202e"
        records = [dict(r, stratum="s" + FORGED) for r in records]
        records[0] = dict(records[0], outcome="pass")  # neg-01 passes: the report is BLOCKED
        return manifest, records

    def test_text_escapes_every_control_character_and_cannot_forge_a_verdict(self) -> None:
        """A claim id and a stratum holding a newline, `verdict : PUBLISHABLE` and ANSI codes used to print extra
        verdict lines in a BLOCKED report; now the report has one verdict line and no raw control character."""
        manifest, records = self.forged()
        code, out, err = self.check(manifest, records)
        self.assertEqual(code, 1, err)
        self.assertEqual([line for line in out.splitlines() if line.startswith("verdict")], ["verdict     : BLOCKED"])
        self.assertEqual(raw_controls(out), [])
        self.assertIn("agent\\nverdict     : PUBLISHABLE\\n\\x1b[2K\\x1b[1A\\u202e", out)

    def test_markdown_cannot_hide_the_card(self) -> None:
        """A claim id with a backtick and `<!--` used to hide the rest of the card when rendered: now the Markdown
        has no raw HTML comment, tables keep their cells, and the findings follow."""
        manifest, records = self.forged()
        manifest["claim_id"] = "x` <!-- | **y** [z](javascript:alert(1)) <script>"
        code, out, _ = self.check(manifest, records, "--format", "markdown")
        self.assertEqual(code, 1)
        for raw in (r"(?<!\\)<", r"(?<!\\)\]\(", r"(?<!\\)`x"):  # nothing unescaped opens HTML, a link or code
            self.assertIsNone(re.search(raw, out), raw)
        self.assertEqual(raw_controls(out), [])
        markdown_tables(out)
        self.assertIn("**Findings**", out)
        self.assertIn("- `control_violated`", out)

    def test_svg_is_well_formed_whatever_the_input_holds(self) -> None:
        """A claim id with U+0001 used to make an SVG no XML parser accepts; now it parses and shows the escape."""
        manifest, records = self.forged()
        manifest["claim_id"] = "a\x01b<&>\"'\ufffe"
        code, out, _ = self.check(manifest, records, "--format", "svg")
        self.assertEqual(code, 1)
        root = ET.fromstring(out)
        title = next(el for el in root.iter() if el.tag.endswith("title"))
        self.assertIn("a\\x01b<&>\"'", title.text or "")
        self.assertEqual(raw_controls(out), [])

    def test_json_keeps_the_input_exactly_and_stays_valid(self) -> None:
        """JSON is valid and unambiguous: the claim id round-trips exactly, its controls as JSON escapes."""
        manifest, records = self.forged()
        _code, out, _ = self.check(manifest, records, "--format", "json")
        self.assertEqual(json.loads(out)["claim_id"], manifest["claim_id"])
        self.assertEqual(raw_controls(out), [])

    def test_json_writes_a_non_printable_character_beyond_the_bmp_as_its_surrogate_pair(self) -> None:
        """U+E0001 (a tag character) and U+2028 are not printable: the JSON writes them as the escapes json.dumps
        would (a surrogate pair beyond U+FFFF), keeps printable non-ASCII as it is, and reads back exactly."""
        manifest, records = self.forged()
        manifest["claim_id"] = "é\U000e0001x\u2028\U0001f600\x85"
        _code, out, _ = self.check(manifest, records, "--format", "json")
        line = next(line for line in out.splitlines() if '"claim_id"' in line)
        self.assertEqual(line.strip(), '"claim_id": "é\\udb40\\udc01x\\u2028\U0001f600\\u0085",')
        self.assertEqual(json.loads(out)["claim_id"], manifest["claim_id"])

    def test_an_error_line_stays_one_line(self) -> None:
        """An input error quoting a key that holds a newline is still one line on stderr."""
        manifest, records = valid_ledger()
        manifest["envelope"]["x\nverdict : PUBLISHABLE"] = 1
        manifest["bad\nkey\x1b[2K"] = 1
        self.assertInputError(self.check(manifest, records), "bad\\nkey\\x1b[2K")


# How these counts were checked to fail on the blow-ups they guard against: each variant below was patched into gate
# (mock.patch.object, gate.py untouched) for one run of its test, which then failed, in at most 3 s but the last:
# pass_at_k_all computing pass@k one k at a time (quadratic: "more than 1,563,936 lines"); the Inspect classifier's
# old whole-traceback regex r"^[\s|+]*(?:[\w.]+\.)?\w*TimeoutError(?::|$)" ("a regex was run on 60,018
# characters, more than the 15,018 allowed"); a classifier that rescans the lines before each line (quadratic in
# Python: "more than 126,797,478 lines", after 90 s of the 15 kB run); _shrunk_denominator's old loop over half the
# declared count ("more than 65,763 lines"); _read_bytes reading a byte at a time ("more than 250,000 lines").
class BoundedWork(GateCase):
    """Work grows with the input read, never with a number the input declares."""

    def counted(self, *argv: str) -> tuple[int, str, str, float]:
        """run_gate, stopped (a failure) past AT_ONCE lines of Python, with its peak traced memory (MiB)."""
        tracemalloc.start()
        try:
            with counted_lines(AT_ONCE):
                code, out, err = self.run_gate(*argv)
        finally:
            peak = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.stop()
        return code, out, err, peak

    def assertBounded(self, result: tuple[int, str, str, float], *fragments: str, mib: float = 64.0) -> None:
        code, out, err, peak = result
        self.assertLess(peak, mib)
        self.assertInputError((code, out, err), *fragments)

    def assertWorkGrows(self, argv: Callable[[int], Sequence[str]], small: int, large: int, growth: float,
                        texts: RegexTexts | None = None) -> list[tuple[int, str, str]]:
        """Run the gate on argv(small), then on argv(large) stopped (a failure) past 1.5 x growth times the lines of
        Python the first run took; return both results. growth is large/small for work linear in the size (a fixed
        part only lowers the ratio), 1 for work the size must not change; a quadratic costs up to growth squared.
        With texts, gate's `re` is that RegexTexts, and the large run may give no regex a longer text than the small
        one did."""
        results, budget = [], math.inf
        for size in (small, large):
            args = argv(size)  # the input is written before the count starts
            patched = mock.patch.object(gate, "re", texts) if texts is not None else contextlib.nullcontext()
            with patched, counted_lines(budget) as lines:
                results.append(self.run_gate(*args))
            budget = 1.5 * growth * lines[0]
            if texts is not None:
                texts.limit = texts.longest
        return results

    def test_a_samples_budget_the_records_cannot_fill_is_refused_at_once(self) -> None:
        """Two records with attempt_budget 2000 in samples mode ran for more than 20 s (the pass@k table grew with
        the cube of the budget, ~10^10 steps); now it is an input error within AT_ONCE lines of Python, and a budget
        above 10,000 is too."""
        manifest, records = valid_ledger(passes=1, fails=1, unscoreable=())
        manifest.update(attempt_mode="samples", attempt_budget=2000)
        m, r = self.write_json("m.json", manifest), self.write_jsonl("r.jsonl", records)
        self.assertBounded(self.counted("--manifest", str(m), "--runs", str(r)), "attempt_budget 2000", "2 attempt record(s)")
        manifest["attempt_budget"] = 10_001
        m = self.write_json("m.json", manifest)
        self.assertBounded(self.counted("--manifest", str(m), "--runs", str(r)), "attempt_budget", "10,000")

    def test_a_large_real_budget_is_linear(self) -> None:
        """Three tasks with 2,000 samples each (6,000 records) gate, pass@2000 included, with work linear in the
        budget: at most 1.5 x 4 times the lines of Python of 500 samples each (~2.7 times here; pass@k computed
        one k at a time, a quadratic, takes ~9.4 times and fails)."""
        manifest, _ = valid_ledger(passes=2, fails=1, unscoreable=())
        ids = ["neg-01", "pos-01", "t-001"]

        def samples(budget: int) -> tuple[str, ...]:
            records = [record(t, "fail" if t == "neg-01" else "pass" if t == "pos-01" or a % 2 else "fail", attempt=a)
                       for t in ids for a in range(1, budget + 1)]
            manifest.update(attempt_mode="samples", attempt_budget=budget)
            m, r = self.write_json("m.json", manifest), self.write_jsonl("r.jsonl", records)
            return "--manifest", str(m), "--runs", str(r), "--format", "json"

        for budget, (code, out, err) in zip((500, 2000), self.assertWorkGrows(samples, 500, 2000, growth=4)):
            self.assertEqual(code, 0, err)
            self.assertEqual(len(json.loads(out)["pass_at_k"]), budget - 1)

    def test_an_inspect_log_declaring_10_to_the_8_epochs_is_refused(self) -> None:
        """A 170-byte Inspect log with epochs 100000000 exhausted memory; now it is an input error naming the field."""
        log = {"status": "started", "eval": {"config": {"epochs": 100_000_000}, "dataset": {"samples": 1, "sample_ids": [1]},
                                             "run_id": "r"}}
        path = self.write_json("log.json", log)
        self.assertBounded(self.counted("import", "inspect", str(path)), "eval.config.epochs", "10,000")
        log["eval"]["config"]["epochs"] = 5_000
        log["eval"]["dataset"]["sample_ids"] = list(range(5_000))
        log["eval"]["dataset"]["samples"] = 5_000
        path = self.write_json("log.json", log)
        self.assertBounded(self.counted("import", "inspect", str(path)), "5,000 samples x 5,000 epochs")

    def test_a_trial_name_with_5000_digits_is_an_input_error(self) -> None:
        """`a.1-of-<5000 digits>` raised a traceback (int() refuses so many digits); now it is one line, exit 2."""
        results = load(TB_RESULTS)
        results["results"][0]["trial_name"] = results["results"][0]["task_id"] + ".1-of-" + "9" * 5000
        path = self.write_json("results.json", results)
        self.assertBounded(self.counted("import", "terminal-bench", str(path)), "trial_name")

    def test_a_60_kb_traceback_is_classified_in_linear_time(self) -> None:
        """The Inspect timeout classifier backtracked quadratically on a long traceback (~59 s at 60 kB, a regex run on
        the whole traceback). Now a 60 kB traceback runs at most 1.5 x 4 times the lines of Python of a 15 kB one
        (~1.7 times here), and no regex is run on a longer text at 60 kB than at 15 kB: the old regex, patched back in,
        fails on its 60 kB text before running it, and a classifier that rescans the lines before each line fails on
        the count."""
        log = load(INS_OK)
        sample = log["samples"][0]
        sample["scores"] = {}

        def traceback(lines: int) -> tuple[str, ...]:
            sample["error"] = {"message": "RuntimeError('boom')", "traceback": "  |\n" * lines + "RuntimeError: boom",
                               "traceback_ansi": ""}
            return "import", "inspect", str(self.write_json("log.json", log))

        for code, _out, err in self.assertWorkGrows(traceback, 3_750, 15_000, growth=4, texts=RegexTexts()):
            self.assertEqual(code, 0, err)
        sample["error"]["traceback"] = "Traceback...\n  |   raise asyncio.TimeoutError()\n  | asyncio.TimeoutError: x\n"
        path = self.write_json("log.json", log)
        first = json.loads(self.run_gate("import", "inspect", str(path))[1].splitlines()[0])
        self.assertEqual((first["outcome"], first["reason"]), ("unscoreable", "harness_timeout"))

    def test_a_huge_declared_task_count_does_not_slow_the_claim_check(self) -> None:
        """The shrunk-denominator search looped over half the declared task count; it is solved in O(1): the claim
        check against MAX_TASK_COUNT declared tasks runs at most 1.5 times the lines of Python it runs against 1,000
        (the search, patched back in, fails on the count)."""
        manifest, records = valid_ledger()
        del manifest["dataset"]["task_ids"]  # (which would contradict the count: an input error)
        r = self.write_jsonl("r.jsonl", records)

        def declared(count: int) -> tuple[str, ...]:
            manifest["dataset"]["task_count"] = count
            m = self.write_json("m.json", manifest)
            return "--manifest", str(m), "--runs", str(r), "--claim", "72.5%", "--format", "json"

        for code, out, _ in self.assertWorkGrows(declared, 1_000, gate.MAX_TASK_COUNT, growth=1):
            self.assertEqual(code, 1)
            self.assertIn("ledger_does_not_balance", out)

    def test_a_declared_task_count_past_any_suite_is_an_input_error(self) -> None:
        """compare, rank and replicates pair every declared task, so a count past MAX_TASK_COUNT (10^40 here, from
        the fuzzer: compare died of an OverflowError building its pairs) is refused naming the field, for every
        command that reads the manifest."""
        manifest, records = valid_ledger()
        manifest["dataset"]["task_count"] = 10**40
        m, r = self.write_json("m.json", manifest), self.write_jsonl("r.jsonl", records)
        good = self.write_json("good.json", valid_ledger()[0])
        for argv in (("--manifest", str(m), "--runs", str(r)),
                     ("compare", "--manifest", str(m), "--runs", str(r), "--against-manifest", str(good),
                      "--against-runs", str(r)),
                     ("compare", "--manifest", str(good), "--runs", str(r), "--against-manifest", str(m),
                      "--against-runs", str(r))):
            code, out, err = self.run_gate(*argv)
            self.assertEqual((code, out), (2, ""), argv)
            self.assertIn("m.json: dataset.task_count: expected an integer >= 1 and <= 10,000,000", err)
            self.assertEqual(len(err.splitlines()), 1)

    def test_pairing_commands_refuse_a_suite_mostly_without_records(self) -> None:
        """compare, rank and replicates pair every declared task (one with no record fails on every side): compare
        once, rank in each pair of systems and in the Q test (3 cells a missing task for 2 systems), replicates in
        each run. More than MAX_UNRECORDED such cells is refused (at 10^7 declared and 40 recorded, compare took
        67 s and 4.8 GB; 60 systems in rank, 206 s); up to it, the pairing still counts them (BLOCKED)."""
        from tests.test_replicates import replicated
        manifest, records = valid_ledger()
        declared = len({r["task_id"] for r in records})
        r = self.write_jsonl("r.jsonl", records)
        good = self.write_json("good.json", manifest)
        other = [dict(rec, outcome="fail", reason=None) if rec["task_id"] == records[5]["task_id"] else rec for rec in records]
        r2 = self.write_jsonl("r2.jsonl", other)  # compare and rank refuse one runs file twice
        replicates, replicate_records = replicated([[1, 1, 0, 0], [1, 0, 1, 0]])
        rr = self.write_jsonl("rr.jsonl", replicate_records)
        for each in (manifest, replicates):  # no ID list to contradict the counts below
            each["dataset"].pop("task_ids", None)
        with mock.patch.object(gate, "MAX_UNRECORDED", 6):
            for command, times in (("compare", 1), ("rank", 3), ("replicates", 2)):
                for extra, expected in ((6 // times, 1), (6 // times + 1, 2)):
                    manifest["dataset"]["task_count"] = declared + extra
                    m = self.write_json("m.json", manifest)
                    replicates["dataset"]["task_count"] = 4 + extra
                    rm = self.write_json("rm.json", replicates)
                    argv = {"compare": ("compare", "--manifest", str(m), "--runs", str(r), "--against-manifest", str(good),
                                        "--against-runs", str(r2)),
                            "rank": ("rank", "--manifest", str(m), "--runs", str(r), "--manifest", str(good),
                                     "--runs", str(r2)),
                            "replicates": ("--manifest", str(rm), "--runs", str(rr))}[command]
                    with self.subTest(command=command, extra=extra):
                        code, _, err = self.run_gate(*argv)
                        self.assertEqual(code, expected, err)
                        if expected == 2:
                            cells = f" \\({extra} x {times}\\)" if times > 1 else ""
                            self.assertRegex(err, rf"m\.json: dataset\.task_count: \d+ declared tasks, {extra} of them with "
                                                  rf"no record in any runs file: .*, and more than 6 such cells{cells} is not a")

    def test_a_subset_of_a_dataset_past_the_task_bound_is_kept(self) -> None:
        """`subset.of` (an Inspect --limit run of a 2*10^7-sample dataset, say) is only reported: no bound on it."""
        manifest, records = valid_ledger()
        manifest["dataset"]["subset"] = {"of": 2 * 10**7, "selection": "--limit 40"}
        code, out, err = self.check(manifest, records)
        self.assertEqual(code, 0, err)
        self.assertIn("of 20000000 tasks (--limit 40)", out)

    def test_a_manifest_that_never_ends_is_refused(self) -> None:
        """--manifest /dev/zero used to read forever; whole-file reads stop at their cap."""
        if not Path("/dev/zero").exists():
            self.skipTest("no /dev/zero here")
        r = self.write_jsonl("r.jsonl", valid_ledger()[1])
        self.assertBounded(self.counted("--manifest", "/dev/zero", "--runs", str(r)), "/dev/zero", "larger than 64 MiB",
                           mib=2 * 64.0)  # the cap's worth is read, and no more

    def test_an_eval_member_declaring_a_huge_size_is_refused_before_inflating(self) -> None:
        """A .eval archive member whose declared uncompressed size is over the cap is refused unread."""
        path = self.dir / "bomb.eval"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("header.json", json.dumps({"status": "success"}))
        data = bytearray(path.read_bytes())
        central = data.rindex(b"PK\x01\x02")
        data[central + 24:central + 28] = (2**31).to_bytes(4, "little")  # the central directory's uncompressed size
        path.write_bytes(bytes(data))
        self.assertBounded(self.counted("import", "inspect", str(path)), "header.json", "declares 2,147,483,648 bytes")

    def test_any_confidence_in_the_open_interval_works(self) -> None:
        """--confidence 0.9999999999999999 raised a traceback; 0.999999999999 was labelled "100% CI". Every confidence
        from 0.5 up to the largest double below 1 works and is labelled to every digit; below 0.5 is exit 2."""
        manifest, records = valid_ledger()
        for confidence, label in (("0.9999999999999999", "99.99999999999999% CI"), ("0.999999999999", "99.9999999999% CI"),
                                  ("0.5", "50% CI")):
            with self.subTest(confidence=confidence):
                code, out, err = self.check(manifest, records, "--confidence", confidence)
                self.assertEqual(code, 0, err)
                self.assertIn(label, out)
        self.assertInputError(self.check(manifest, records, "--confidence", "1e-10"), "--confidence", "below 0.5")


class NeverClobber(GateCase):
    """No output path may be an input or another output, after links; refused before anything is written."""

    def test_freeze_onto_its_own_task_file_is_refused_even_with_force(self) -> None:
        """`freeze T T --force` replaced the task slice with its own card."""
        tasks = self.write_json("tasks.json", [{"task_id": "a"}])
        before = tasks.read_bytes()
        link = self.dir / "link.json"
        link.symlink_to(tasks)
        for card in (tasks, link, self.dir / "sub" / ".." / "tasks.json"):
            with self.subTest(card=str(card)):
                (self.dir / "sub").mkdir(exist_ok=True)
                self.assertInputError(self.run_gate("freeze", str(tasks), str(card), "--force"), "is also an input")
                self.assertEqual(tasks.read_bytes(), before)

    def test_import_onto_its_input_or_two_outputs_onto_one_file_is_refused(self) -> None:
        """`import F -o F --force` and `-o X --draft-manifest X` are refused, and nothing is left behind."""
        source = self.dir / "results.json"
        shutil.copy(TB_RESULTS, source)
        before = source.read_bytes()
        self.assertInputError(self.run_gate("import", "terminal-bench", str(source), "-o", str(source), "--force"),
                              "is also an input")
        self.assertEqual(source.read_bytes(), before)
        listing = sorted(p.name for p in self.dir.iterdir())
        self.assertInputError(self.run_gate("import", "terminal-bench", str(source), "-o", str(self.dir / "x.json"),
                                            "--draft-manifest", str(self.dir / "x.json")), "named as two outputs, the same file")
        self.assertEqual(sorted(p.name for p in self.dir.iterdir()), listing)

    def test_written_files_get_the_umask_permissions(self) -> None:
        """A card, a runs file and a draft are 0644 under umask 022 (a temporary file's 0600 used to stay)."""
        previous = os.umask(0o022)
        try:
            tasks = self.write_json("tasks.json", json.loads((ROOT / "examples" / "card" / "tasks.json").read_text()))
            self.assertEqual(self.run_gate("freeze", str(tasks), str(self.dir / "card.json"))[0], 0)
            code, _, err = self.run_gate("import", "terminal-bench", str(TB_RESULTS), "-o", str(self.dir / "runs.jsonl"),
                                         "--draft-manifest", str(self.dir / "draft.json"))
            self.assertEqual(code, 0, err)
        finally:
            os.umask(previous)
        for name in ("card.json", "runs.jsonl", "draft.json"):
            self.assertEqual(stat.S_IMODE((self.dir / name).stat().st_mode), 0o644, name)


class NoTraceback(GateCase):
    """Odd paths and a broken standard output are one line on stderr and exit 2."""

    def test_odd_paths_are_one_line_each(self) -> None:
        """A NUL byte, a symlink loop, a directory, a named pipe nobody writes to: each refused at once (within AT_ONCE
        lines of Python; the named pipe is opened without waiting for a writer, or this test would hang)."""
        runs = self.write_jsonl("r.jsonl", valid_ledger()[1])
        loop = self.dir / "loop.json"
        loop.symlink_to(self.dir / "loop.json")
        fifo = self.dir / "fifo.json"
        os.mkfifo(fifo)
        for manifest in ("a\0b.json", str(loop), str(self.dir), str(fifo)):
            with self.subTest(manifest=manifest):
                with counted_lines(AT_ONCE):
                    result = self.run_gate("--manifest", manifest, "--runs", str(runs))
                self.assertInputError(result)

    def test_a_symlink_loop_named_by_the_manifest_is_one_line(self) -> None:
        """dataset.tasks pointing into a symlink loop is an input error naming the field."""
        manifest, records = valid_ledger()
        (self.dir / "loop").symlink_to(self.dir / "loop")
        manifest["dataset"].update(tasks="loop/tasks.json", card="card.json")
        self.assertInputError(self.check(manifest, records), "dataset.tasks")

    def run_real(self, stdout: Any) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([*gate_command(), "--manifest", "bench.manifest.json", "--runs",
                               "runs.jsonl"], cwd=ROOT, stdout=stdout, stderr=subprocess.PIPE, timeout=60, check=False)

    def test_a_report_that_cannot_be_printed_is_never_a_verdict(self) -> None:
        """Standard output full (/dev/full) or closed: exit 2 and one line, never 0 or 1 with the report lost."""
        if Path("/dev/full").exists():
            with open("/dev/full", "wb") as full:
                done = self.run_real(full)
            self.assertEqual(done.returncode, 2, done.stderr)
            self.assertEqual(len(done.stderr.decode().strip().splitlines()), 1, done.stderr)
            self.assertIn(b"cannot write the report", done.stderr)
        done = subprocess.run(f"'{sys.executable}' gate.py --manifest bench.manifest.json --runs runs.jsonl >&-",
                              shell=True, cwd=ROOT, capture_output=True, timeout=60, check=False)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertNotIn(b"Traceback", done.stderr)

    def test_an_interpreter_older_than_3_9_gets_one_line(self) -> None:
        """python3.8 died with a TypeError traceback and exit 1 (BLOCKED to a CI); now it is one line and exit 2."""
        found = 0
        for version in ("3.8", "3.7"):
            pyenv = Path.home() / ".pyenv" / "versions"
            candidates = [str(p / "bin" / "python3") for p in sorted(pyenv.glob(f"{version}.*"))] if pyenv.is_dir() else []
            which = shutil.which(f"python{version}")
            if which and "shims" not in which:
                candidates.insert(0, which)
            binary = next((c for c in candidates if Path(c).exists()), None)
            if binary is None:
                continue
            found += 1
            with self.subTest(python=version):
                done = subprocess.run([binary, str(ROOT / "gate.py"), "--manifest", "bench.manifest.json", "--runs",
                                       "runs.jsonl"], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
                                      env={k: v for k, v in os.environ.items() if k != "PYENV_VERSION"})
                self.assertEqual(done.returncode, 2, done.stderr)
                self.assertEqual(done.stderr.strip().splitlines(), [
                    f"gate.py: error: benchgate needs Python 3.9 or newer; this is Python {version}"])
        if not found:
            self.skipTest("no Python 3.7 or 3.8 interpreter on this machine")

    def test_the_version_guard_refuses_below_3_9_and_only_there(self) -> None:
        """The guard itself, on this interpreter, told it is another: 3.8 (as run, from a Windows path, with no
        argv[0]) gets the one line naming the program and exit 2; 3.9.0 and 4.0 load gate.py. Runs where no old
        interpreter is installed, which the test above needs."""
        probe = ("import sys; sys.version_info = {version}; sys.argv = [{argv0!r}]; path = {path!r}; "
                 "exec(compile(open(path, encoding='utf-8').read(), path, 'exec'), {{'__name__': 'probe'}}); "
                 "print('loaded')")  # (runpy would set argv[0] to the path)
        for version, argv0, code, out, err in (
                ((3, 8, 20, "final", 0), "/x/y/gate.py", 2, "",
                 "gate.py: error: benchgate needs Python 3.9 or newer; this is Python 3.8\n"),
                ((3, 7, 1, "final", 0), "C:\\bg\\my-gate.py", 2, "",
                 "my-gate.py: error: benchgate needs Python 3.9 or newer; this is Python 3.7\n"),
                ((2, 99, 0, "final", 0), "", 2, "",
                 "gate.py: error: benchgate needs Python 3.9 or newer; this is Python 2.99\n"),
                ((3, 9, 0, "final", 0), "gate.py", 0, "loaded\n", ""),
                ((4, 0, 0, "final", 0), "gate.py", 0, "loaded\n", "")):
            with self.subTest(version=version):
                done = subprocess.run([sys.executable, "-c", probe.format(version=version, argv0=argv0,
                                                                          path=str(ROOT / "gate.py"))],
                                      cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
                self.assertEqual((done.returncode, done.stdout, done.stderr), (code, out, err))


class SameBytes(GateCase):
    def test_a_tasks_cost_over_several_attempts_sums_the_same_in_any_order(self) -> None:
        """0.1 + 0.2 + 0.3 is 0.6000000000000001 one way and 0.6 the other: costs are summed exactly, so any record
        order gives byte-identical JSON."""
        manifest, records = valid_ledger()
        manifest["attempt_budget"] = 3
        first = [dict(records[5], attempt=a, outcome="fail", cost_usd=c) for a, c in ((1, 0.1), (2, 0.2))]
        third = dict(records[5], attempt=3, cost_usd=0.3)
        rest = [r for r in records if r["task_id"] != records[5]["task_id"]]
        outputs = set()
        for order in ([*first, third], [third, first[1], first[0]], [first[1], third, first[0]]):
            report = self.check_json(manifest, rest + order)[1]
            report.pop("inputs")
            outputs.add(json.dumps(report))
        self.assertEqual(len(outputs), 1)
        self.assertEqual(json.loads(outputs.pop())["cost"]["total_cost_usd"], 0.6)


if __name__ == "__main__":
    unittest.main()


class DocumentedBoundsAtTheirEdges(GateCase):
    """Each bound docs/developing.md states ("Bounded work") holds at its value and refuses one past it: a bound
    moved by one, or a `<=` read as `<`, is seen here."""

    def setUp(self) -> None:
        super().setUp()
        self.manifest = json.loads((ROOT / "bench.manifest.json").read_text(encoding="utf-8"))
        self.runs = str(ROOT / "runs.jsonl")

    def gate(self, manifest: dict[str, Any], *extra: str, runs: str | None = None) -> tuple[int, str, str]:
        return self.run_gate("--manifest", str(self.write_json("m.json", manifest)), "--runs", runs or self.runs, *extra)

    def test_the_documented_bounds_are_the_gates(self) -> None:
        bounded = (ROOT / "docs" / "developing.md").read_text(encoding="utf-8")
        for said in ("nested deeper than 500 levels", "attempt budgets above 10,000", "a `task_count` above 10^7"):
            self.assertIn(said, " ".join(bounded.split()))

        def nested(depth: int) -> object:  # `depth` lists around a number, under the manifest's own object
            value: object = 1
            for _ in range(depth):
                value = [value]
            return value

        self.assertEqual(self.gate(dict(self.manifest, notes=nested(499)))[0], 0)  # 500 levels with the manifest
        code, _out, err = self.gate(dict(self.manifest, notes=nested(500)))
        self.assertEqual(code, 2)
        self.assertIn("nesting is deeper than 500 levels", err)
        self.assertEqual(self.gate(dict(self.manifest, attempt_budget=10_000))[0], 0)
        code, _out, err = self.gate(dict(self.manifest, attempt_budget=10_001))
        self.assertEqual((code, "attempt_budget: expected an integer >= 1 and <= 10,000" in err), (2, True), err)
        digest_only = {key: value for key, value in self.manifest["dataset"].items() if key != "task_ids"}
        code, out, err = self.gate(dict(self.manifest, dataset=dict(digest_only, task_count=10_000_000)))
        self.assertEqual(code, 1, err)  # read, and BLOCKED: 40 exits against 10^7 declared
        self.assertIn("40 exits vs 10000000 entries", out)
        code, _out, err = self.gate(dict(self.manifest, dataset=dict(digest_only, task_count=10_000_001)))
        self.assertEqual((code, "<= 10,000,000" in err), (2, True), err)
        self.assertEqual(self.gate(dict(self.manifest, max_unscoreable=0.5))[0], 0)
        self.assertEqual(self.gate(dict(self.manifest, max_unscoreable=0.5000000001))[0], 2)
        self.assertEqual(self.gate(self.manifest, "--jobs", "64")[0], 0)
        self.assertEqual(self.gate(self.manifest, "--jobs", "65")[0], 2)

    def test_twenty_bad_lines_are_named_and_the_rest_counted(self) -> None:
        """A runs file with 20 bad lines names each; with 21, the first 20 and '... and 1 more bad line(s)'."""
        lines = (ROOT / "runs.jsonl").read_text(encoding="utf-8").splitlines()
        for bad, named in ((20, 20), (21, 20)):
            runs = self.write_text(f"bad{bad}.jsonl", ("\n".join(lines + ['{"task_id": }'] * bad) + "\n").encode())
            code, out, err = self.run_gate("--manifest", str(ROOT / "bench.manifest.json"), "--runs", str(runs))
            with self.subTest(bad=bad):
                self.assertEqual((code, out), (2, ""))
                said = err.splitlines()
                self.assertEqual(len([line for line in said if "invalid JSON: expecting a value" in line]), named)
                self.assertEqual(said[-1] == "gate.py: error: ... and 1 more bad line(s)", bad > named)
