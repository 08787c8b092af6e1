"""The canonical path (gate._FastPath): a chunk proven by one regular expression is tallied from the match
groups instead of being parsed, and must give exactly what the general path gives.

Every test runs the same ledger twice, with the canonical path and with it switched off, and asserts the
same exit code, the same report bytes and the same error lines; and it asserts whether the path proved
the chunks it should (a test that compares two runs of the general path would prove nothing).
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import re
import signal
import tempfile
import unittest
from pathlib import Path
from typing import Any, Callable
from unittest import mock

import gate
from tests.builders import make_manifest
from tests.support import ROOT, GateCase

try:
    from hypothesis import given
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover - exercised on a bare interpreter
    HAVE_HYPOTHESIS = False
else:
    HAVE_HYPOTHESIS = True
    from tests import test_properties  # noqa: F401 - registers and loads the hypothesis profiles

NEG, POS = "neg-01", "pos-01"


def line(rec: dict[str, Any], compact: bool = False) -> str:
    return json.dumps(rec, separators=(",", ":") if compact else None)


def sorted_text(records: list[dict[str, Any]]) -> str:
    """The records' lines in task-ID order (then attempt order), as harnesses and importers write them."""
    return "".join(line(rec) + "\n" for rec in sorted(records, key=lambda r: (r["task_id"], r["attempt"])))


def harness_of(rnd: random.Random, tid: str, attempt: int) -> dict[str, Any]:
    """What an importer writes under "harness": identifiers, flags, numbers and lists of them."""
    out: dict[str, Any] = {"format": rnd.choice(["terminal-bench", "swebench", "inspect"]), "instance_id": tid}
    if rnd.random() < 0.5:
        out["trial_name"] = f"{tid}.{attempt}-of-3.2026-11-30__12-00-00"
    if rnd.random() < 0.5:
        out["lists"] = rnd.sample(["resolved_ids", "completed_ids", "error_ids", "empty_patch_ids"], rnd.randint(0, 2))
    if rnd.random() < 0.3:
        out["is_resolved"] = rnd.choice([True, False, None])
    if rnd.random() < 0.3:
        out["epoch"] = rnd.choice([1, 2.5, -3, 1e-3])
    return out


def ledger(rnd: random.Random, tasks: int = 30, budget: int = 1) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A ledger as a program writes one: task-ID order, one key order, optional fields on some records."""
    ids = [NEG, POS, *(f"t-{n:03d}" for n in range(1, tasks - 1))]
    timed, costed, strata, clusters, harness = (rnd.random() < 0.5 for _ in range(5))
    fields = rnd.choice([("cost_usd", "input_tokens", "output_tokens"), ("cost_usd", "total_tokens"),
                         ("output_tokens",), ("input_tokens", "output_tokens", "total_tokens")])
    records = []
    lost = 0  # within the attrition ceiling: at most a fifth of the verdicts unscoreable, the rest fail instead
    for tid in sorted(ids):
        for attempt in range(1, budget + 1):
            outcome = "fail" if tid == NEG else "pass" if tid == POS else rnd.choice(["pass", "fail", "unscoreable"])
            if outcome == "unscoreable":
                lost += 1
                outcome = outcome if 5 * lost <= len(ids) * budget else "fail"
            rec: dict[str, Any] = {"run_id": "r1", "task_id": tid, "attempt": attempt, "outcome": outcome,
                                   "reason": rnd.choice(list(gate.BUILTIN_REASONS)) if outcome == "unscoreable" else None}
            if timed:
                rec["wall_clock_s"] = rnd.choice([rnd.randint(1, 900), round(rnd.uniform(0, 900), 3), 900,
                                                  *[900.25] * (rnd.random() < 0.1)])  # just over, now and then
            if strata:
                rec["stratum"] = "py" if tid < "t-015" else "js"
            if clusters:
                rec["cluster"] = f"repo-{len(tid) % 3}"
            if costed and rnd.random() < 0.9:  # some records without cost: the optional groups are left empty
                measured = {"cost_usd": round(rnd.uniform(0, 2), 4), "input_tokens": rnd.randint(0, 10**5),
                            "output_tokens": rnd.randint(0, 10**4), "total_tokens": rnd.randint(0, 10**5)}
                rec.update((key, measured[key]) for key in fields)
            if harness:
                rec["harness"] = harness_of(rnd, tid, attempt)
            records.append(rec)
    manifest = make_manifest(ids, with_ids=rnd.random() < 0.5, attempt_budget=budget,
                             attempt_mode="samples" if budget > 1 else "retry")
    if strata:
        manifest["dataset"]["strata"] = {"js": sum(t >= "t-015" for t in ids), "py": sum(t < "t-015" for t in ids)}
    return manifest, records


# One edit of one line of a ledger's text: what a person or a broken exporter writes. Some the canonical
# path admits and the gate turns into findings, some it cannot prove (the chunk takes the general path),
# some are input errors, one (a token sum past the bound) is an error only found while tallying.
EDITS: dict[str, Any] = {
    "unknown outcome": lambda t: t.replace('"outcome": "fail"', '"outcome": "FAIL"', 1),
    "attempt 0": lambda t: t.replace('"attempt": 1', '"attempt": 0', 1),
    "attempt as text": lambda t: t.replace('"attempt": 1', '"attempt": "1"', 1),
    "attempt 2 (a gap)": lambda t: t.replace('"attempt": 1', '"attempt": 2', 1),
    "negative wall clock": lambda t: t.replace('"attempt": 1,', '"attempt": 1, "wall_clock_s": -1,', 1),
    "exponent": lambda t: t.replace('"attempt": 1,', '"attempt": 1, "wall_clock_s": 1e2,', 1),
    # a cost may have a negative exponent (json.dumps writes one below 1e-4), never a positive one
    "cost with a positive exponent": lambda t: t.replace('"attempt": 1,', '"attempt": 1, "cost_usd": 1e+16,', 1),
    "cost with a sign": lambda t: t.replace('"attempt": 1,', '"attempt": 1, "cost_usd": -1.5e-05,', 1),
    "over the envelope": lambda t: t.replace('"attempt": 1,', '"attempt": 1, "wall_clock_s": 900.5,', 1),
    "leading space in ID": lambda t: t.replace('"task_id": "t-', '"task_id": " t-', 1),
    "escaped ID": lambda t: t.replace('"task_id": "t-0', '"task_id": "t-\\u0030', 1),
    "non-ASCII ID": lambda t: t.replace('"task_id": "t-0', '"task_id": "t-\u00e9', 1),
    "near-miss key": lambda t: t.replace('"outcome"', '"outcom"', 1),
    "user key": lambda t: t.replace('"attempt": 1,', '"attempt": 1, "x-note": "ok",', 1),
    "null input tokens": lambda t: t.replace('"attempt": 1,', '"attempt": 1, "input_tokens": null,', 1),
    "token sum past the bound": lambda t: t.replace(
        '"attempt": 1,', '"attempt": 1, "input_tokens": 999999999999999, "output_tokens": 999999999999999,', 1),
    "empty stratum": lambda t: t.replace('"attempt": 1,', '"attempt": 1, "stratum": "",', 1),
    "empty run id": lambda t: t.replace('"run_id": "r1"', '"run_id": ""', 1),
    "second run": lambda t: t.replace('"run_id": "r1"', '"run_id": "r2"', 1),
    "reason on a pass": lambda t: t.replace('"outcome": "pass", "reason": null', '"outcome": "pass", "reason": "odd"', 1),
    "repeated key": lambda t: t.replace('"attempt": 1,', '"attempt": 1, "attempt": 1,', 1),
    "repeated harness key": lambda t: t.replace('"harness": {', '"harness": {"format": "x", ', 1),
    "NaN in harness": lambda t: t.replace('"harness": {', '"harness": {"n": NaN, ', 1),
    "nested harness": lambda t: t.replace('"harness": {', '"harness": {"deep": {"a": [1]}, ', 1),
    "blank line": lambda t: t.replace("}\n", "}\n\n", 1),
    "a list, not an object": lambda t: t.replace("}\n", "}\n[1]\n", 1),
    "a number key": lambda t: t.replace("}\n", '}\n{"1": 2}\n', 1),
    "CRLF": lambda t: t.replace("}\n", "}\r\n", 1),
    "truncated line": lambda t: t.replace("}\n", "\n", 1),
    # the expression is not anchored: what it proves is that its matches tile the chunk, a line each
    "text before a record": lambda t: t.replace("}\n{", "}\nx{", 1),
    "text after a record": lambda t: t.replace("}\n", "} x\n", 1),
    "two records on one line": lambda t: t.replace("}\n", "}", 1),
    "text after the last record": lambda t: t + "x\n",
    "repeated record": lambda t: t + t[:t.index("\n") + 1],
    "swapped keys": lambda t: t.replace('{"run_id": "r1", "task_id"', '{"task_id"', 1).replace(
        '", "attempt"', '", "run_id": "r1", "attempt"', 1),
}


# What a summary cannot answer, each an edit of a ledger's records and the finding the table names it by: a declared
# task with no record, an undeclared task, a missing control, one task in place of another (the count still right)
UNANSWERABLE = (("never_started", lambda recs: recs[3:]),
                ("unexpected_task", lambda recs: [*recs, dict(recs[-1], task_id="zz-extra")]),
                ("control_missing", lambda recs: [r for r in recs if r["task_id"] != POS]),
                ("unexpected_task", lambda recs: [*recs[:-1], dict(recs[-1], task_id="zz-extra")]))


class Agreement(GateCase):
    """Runs a ledger's text with the canonical path on and off; they must agree byte for byte."""

    def setUp(self) -> None:
        super().setUp()
        patcher = mock.patch.object(gate, "_FAST_MIN_BYTES", 0)  # the path for the small files of these tests too
        patcher.start()
        self.addCleanup(patcher.stop)

    streamed = 0  # how many runs of the last `both` ended with the sorted stream's summary, not a task table
    answered = 0  # how many runs of the last `both` the worker processes answered (not read in one process)
    unsorted = 0  # how many runs of the last `both` ended with an unsorted ledger's summary (_Unsorted)
    replayed = 0  # how many runs of the last `both` replayed an unsorted ledger's chunks into the task table

    def both(self, manifest: dict[str, Any], text: str, *extra: str) -> tuple[tuple[int, str, str], int]:
        """(exit code, stdout, stderr), asserted equal on all four paths (the canonical path with the sorted
        stream where the file allows it, that in three worker processes, the canonical path into the per-task
        table, the general path), and how many chunks the canonical path proved."""
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_text("runs.jsonl", text.encode("utf-8"))
        argv = ("--manifest", str(m), "--runs", str(r), *extra)
        proven = []
        real_call, real_finish, real_workers = gate._FastPath.__call__, gate._Stream.finish, gate._tally_in_workers
        real_conclude = gate._Unsorted.conclude
        self.streamed = self.answered = self.unsorted = self.replayed = 0

        def concluded(summary: gate._Unsorted, tally: gate._Tally) -> gate._Stream | None:
            stands = real_conclude(summary, tally)
            self.unsorted += stands is summary
            self.replayed += stands is None  # replayed into the per-task table
            return stands

        def counted(path: gate._FastPath, data: bytes) -> int:
            taken = real_call(path, data)  # the chunk's lines, or 0
            proven.append(taken > 0)
            return taken

        def finished(stream: gate._Stream, whole: bool = True) -> None:
            real_finish(stream, whole)
            self.streamed += whole

        def workers(*args: Any) -> gate._Tally | None:
            tally = real_workers(*args)
            self.answered += tally is not None
            return tally

        def no_stream(*_: Any) -> bool:
            raise gate._EndStream()

        with mock.patch.object(gate._FastPath, "__call__", counted), mock.patch.object(gate._Stream, "finish", finished), \
                mock.patch.object(gate._Unsorted, "conclude", concluded):
            fast = self.run_gate(*argv)
        with mock.patch.object(gate._Stream, "add", no_stream):
            table = self.run_gate(*argv)
        with mock.patch.object(gate._FastPath, "__call__", lambda path, data: 0):
            slow = self.run_gate(*argv)
        with mock.patch.object(gate, "_JOBS_MIN_BYTES", 0), mock.patch.object(gate, "_tally_in_workers", workers):
            jobs = self.run_gate(*argv, "--jobs", "3")
        self.assertEqual(fast, slow, f"the canonical path disagrees with the general path on:\n{text[:2000]}")
        self.assertEqual(jobs, slow, f"the worker processes disagree with the general path on:\n{text[:2000]}")
        self.assertEqual(table, slow, f"the per-task table disagrees with the general path on:\n{text[:2000]}")
        return fast, sum(proven)

    def with_chunks(self, size: int) -> None:
        patcher = mock.patch.object(gate, "_CHUNK_BYTES", size)
        patcher.start()
        self.addCleanup(patcher.stop)


class Proven(Agreement):
    def test_importer_style_ledgers_are_proven_and_agree(self) -> None:
        """Ledgers with harness objects, cost, strata, clusters and wall clocks, compact or spaced: every chunk is
        proven, and the text and JSON reports are the general path's."""
        for seed in range(12):
            rnd = random.Random(seed)
            manifest, records = ledger(rnd, budget=rnd.choice([1, 1, 3]))
            compact = seed % 2 == 1
            text = "".join(line(rec, compact) + "\n" for rec in records)
            for form in ("text", "json"):
                (code, out, _), proven = self.both(manifest, text, "--format", form)
                self.assertEqual(proven, 1, (seed, form))
                self.assertIn(code, (0, 1))
            self.assertIn("verdict", out)

    def test_a_publishable_ledger_stays_publishable(self) -> None:
        """The shipped example is proven, and PUBLISHABLE with the same report on both paths."""
        text = (ROOT / "runs.jsonl").read_text(encoding="utf-8")
        manifest = json.loads((ROOT / "bench.manifest.json").read_text(encoding="utf-8"))
        (code, out, err), proven = self.both(manifest, text)
        self.assertEqual((code, err, proven), (0, "", 1))
        self.assertIn("verdict     : PUBLISHABLE", out)

    def test_costs_as_json_dumps_writes_them_are_proven_and_agree(self) -> None:
        """Unrounded costs (up to 18 digits after the point, as json.dumps writes 0.046191442090496304) and tiny
        ones in exponent form (1.5e-05, 2E-7), an integer cost, one attempt a task and three: every chunk is proven,
        and the cost figures are the general path's."""
        rnd = random.Random(11)
        for budget in (1, 3):
            manifest, records = ledger(rnd, budget=budget)
            for at, rec in enumerate(records):
                tiny = at % 4 == 0
                rec["cost_usd"] = rnd.random() * (1e-5 if tiny else 0.1) if at % 7 else 3
            text = re.sub(r"e-0([0-9][,}])", r"E-\1", sorted_text(records), count=1)  # an upper-case E, once
            self.assertRegex(text, r'"cost_usd": 0\.0[0-9]{17,}[,}]')
            self.assertRegex(text, r'"cost_usd": [0-9.]+e-0[0-9][,}]')
            self.assertRegex(text, r'"cost_usd": [0-9.]+E-[0-9][,}]')
            (code, out, _), proven = self.both(manifest, text)
            self.assertIn(code, (0, 1))
            self.assertEqual(proven, 1, budget)
            expected = math.fsum(math.fsum(r["cost_usd"] for r in records if r["task_id"] == tid)
                                 for tid in dict.fromkeys(r["task_id"] for r in records))
            self.assertIn(f"total ${expected:,.2f}", out)

    def test_many_chunks_some_proven(self) -> None:
        """With small chunks, an edit late in the file leaves the chunks before it proven; the edited chunk takes
        the general path, and the error names the same line."""
        self.with_chunks(4096)
        rnd = random.Random(3)
        manifest, records = ledger(rnd, tasks=400)
        lines = [line(rec) for rec in records]
        lines[300] = lines[300].replace('"attempt": 1', '"attempt": 0')
        (code, _, err), proven = self.both(manifest, "\n".join(lines) + "\n")
        self.assertEqual(code, 2)
        self.assertIn(":301: attempt: expected an integer >= 1, got the number 0", err)
        self.assertGreater(proven, 3)


class KeyOrders(unittest.TestCase):
    def test_two_lines_optional_keys_merge_in_the_usual_order(self) -> None:
        """A line with cost only and one with tokens only widen to cost then tokens (RECORD_KEYS' order), whichever
        comes first; a key the second line places before one both share stays before it."""
        base = ("run_id", "task_id", "attempt", "outcome")
        self.assertEqual(gate._merged_order((*base, "cost_usd"), (*base, "total_tokens")), (*base, "cost_usd", "total_tokens"))
        self.assertEqual(gate._merged_order((*base, "total_tokens"), (*base, "cost_usd")), (*base, "cost_usd", "total_tokens"))
        self.assertEqual(gate._merged_order((*base, "harness"), (*base, "wall_clock_s", "harness")),
                         (*base, "wall_clock_s", "harness"))
        self.assertEqual(gate._merged_order((*base, "reason"), ("reason", *base)), (*base, "reason"))


class SmallFiles(GateCase):
    def test_a_small_file_takes_the_general_path(self) -> None:
        """Below _FAST_MIN_BYTES compiling the path's expressions costs more than it saves: the shipped example is
        never offered to it; a file of that size is."""
        text = (ROOT / "runs.jsonl").read_text(encoding="utf-8")
        manifest = json.loads((ROOT / "bench.manifest.json").read_text(encoding="utf-8"))
        offered: list[bytes] = []
        with mock.patch.object(gate._FastPath, "__call__", lambda path, data: offered.append(data) or 0):
            m = self.write_json("bench.manifest.json", manifest)
            small = self.write_text("runs.jsonl", text.encode("utf-8"))
            self.assertEqual(self.run_gate("--manifest", str(m), "--runs", str(small))[0], 0)
            self.assertEqual(offered, [])
            self.assertLess(len(text), gate._FAST_MIN_BYTES)
            large = self.write_text("large.jsonl", (text * (gate._FAST_MIN_BYTES // len(text) + 1)).encode("utf-8"))
            self.run_gate("--manifest", str(m), "--runs", str(large))
            self.assertGreater(len(offered), 0)


class NotProven(Agreement):
    def test_what_the_path_cannot_prove_takes_the_general_path(self) -> None:
        """Each of these lines stops the chunk from being proven; the reports agree all the same."""
        manifest, records = ledger(random.Random(5))
        base = "".join(line(rec) + "\n" for rec in records)
        for name in ("attempt as text", "exponent", "cost with a positive exponent", "cost with a sign", "escaped ID", "non-ASCII ID", "user key", "null input tokens",
                     "repeated key", "blank line", "CRLF", "swapped keys", "negative wall clock", "empty stratum",
                     "token sum past the bound", "text before a record", "text after a record",
                     "two records on one line", "text after the last record"):
            with self.subTest(name):
                text = EDITS[name](base)
                self.assertNotEqual(text, base)
                _, proven = self.both(manifest, text)
                self.assertEqual(proven, 0)

    def test_a_list_or_an_object_where_a_name_belongs_is_an_input_error_on_every_path(self) -> None:
        """A task_id, outcome, reason, stratum or cluster holding a list or an object (unhashable, so no table can
        key it): exit 2 naming the line and the field on all four paths, never a TypeError."""
        manifest, records = ledger(random.Random(8))
        base = "".join(line(rec) + "\n" for rec in records)
        at = base.count("\n", 0, base.index('"attempt": 1,')) + 1  # the line every edit below changes
        edits = {"task_id": lambda t: re.sub(r'"task_id": "[^"]*"', '"task_id": ["t-001"]', t, count=1),
                 "outcome": lambda t: t.replace('"outcome": "', '"outcome": ["pass"], "x-was": "', 1),
                 "reason": lambda t: t.replace('"attempt": 1,', '"attempt": 1, "reason": {"a": 1},', 1),
                 "stratum": lambda t: t.replace('"attempt": 1,', '"attempt": 1, "stratum": ["s"],', 1),
                 "cluster": lambda t: t.replace('"attempt": 1,', '"attempt": 1, "cluster": {"c": 1},', 1)}
        for field, edit in edits.items():
            with self.subTest(field):
                text = edit(base)
                self.assertNotEqual(text, base)
                first = next(i for i, (a, b) in enumerate(zip(text.splitlines(), base.splitlines()), 1) if a != b)
                self.assertEqual(first, at)
                (code, out, err), _ = self.both(manifest, text)
                self.assertEqual((code, out), (2, ""), err)
                self.assertIn(f"runs.jsonl:{at}: ", err)
                self.assertIn(field, err)
                self.assertNotIn("Traceback", err)

    def test_a_harness_object_the_general_path_refuses(self) -> None:
        """A repeated key, a NaN or a nesting the expression does not admit in "harness": not proven; the first two
        are the general path's input errors."""
        rnd = random.Random(1)
        manifest, records = ledger(rnd)
        for rec in records:
            rec["harness"] = harness_of(rnd, rec["task_id"], rec["attempt"])
        base = "".join(line(rec) + "\n" for rec in records)
        for name, code in (("repeated harness key", 2), ("NaN in harness", 2), ("nested harness", 0)):
            with self.subTest(name):
                (got, _, err), proven = self.both(manifest, EDITS[name](base))
                self.assertEqual(proven, 0)
                self.assertEqual(got != 2, code != 2, err)

    def test_token_counts_the_path_admits_cannot_sum_past_the_bound(self) -> None:
        """Token counts each within bounds whose sum is not (15 digits each) are not admitted, so the general path
        names the line; the largest the path admits (14 digits each) sum below the bound and are proven, with the
        general path's total."""
        manifest, records = ledger(random.Random(2))
        base = "".join(line(rec) + "\n" for rec in records)
        (code, _, err), proven = self.both(manifest, EDITS["token sum past the bound"](base))
        self.assertEqual((code, proven), (2, 0))
        self.assertIn(":1: input_tokens + output_tokens: expected an integer from 0 to 1e+15, got the number "
                      "1999999999999998", err)
        largest = "".join(line({**rec, "input_tokens": 10**14 - 1, "output_tokens": 10**14 - 1}) + "\n"
                          for rec in records)
        (code, out, err), proven = self.both(manifest, largest, "--format", "json")
        self.assertEqual((code, proven), (0, 1), err)
        self.assertEqual(json.loads(out)["cost"]["total_tokens"], 2 * (10**14 - 1) * len(records))


class KindColumns(Agreement):
    """A line's kind is looked up by the groups of the kind's columns the chunk has, and by whether the line is
    timed only where some lines are and some are not: every mix of those columns agrees with the general path."""

    def test_every_mix_of_the_kind_columns_agrees(self) -> None:
        manifest, records = ledger(random.Random(6), tasks=40)
        for timing in ("every line", "some null", "some absent", "none"):
            for reason, stratum, cluster in itertools.product((True, False), repeat=3):
                with self.subTest(timing=timing, reason=reason, stratum=stratum, cluster=cluster):
                    mixed = []
                    for index, rec in enumerate(records):
                        rec = {key: value for key, value in rec.items()
                               if key not in ("wall_clock_s", "stratum", "cluster", "harness")}
                        if not reason and rec["reason"] is None:
                            del rec["reason"]
                        if timing != "none" and not (timing != "every line" and index % 3 == 0):
                            rec["wall_clock_s"] = 10 + index
                        elif timing == "some null":
                            rec["wall_clock_s"] = None
                        if stratum:
                            rec["stratum"] = "py" if index % 2 else "js"
                        if cluster:
                            rec["cluster"] = f"repo-{index % 4}"
                        mixed.append(rec)
                    (code, out, err), proven = self.both(manifest, sorted_text(mixed), "--format", "json")
                    self.assertGreater(proven, 0)
                    self.assertIn(code, (0, 1), err)
                    self.assertEqual('"wall_clock_verified": true' in out, timing == "every line")
                    untimed = sum(1 for index in range(len(records)) if index % 3 == 0)
                    self.assertEqual(f"{untimed} attempt(s) lack wall_clock_s" in out, timing.startswith("some"))


    def test_an_outcome_and_the_reason_after_it_are_one_group_and_agree(self) -> None:
        """In an exact form whose reason follows its outcome, the two are one group the kind is looked up by
        (`fail","reason":null`), split again for a kind not seen before: each spacing, each order, and reasons
        that hold a colon, a space or nothing agree with the general path."""
        manifest, records = ledger(random.Random(8), tasks=40)
        reasons = [None, "env_flake", "", "a: b", "odd reason"]
        orders = {"adjacent": ("run_id", "task_id", "attempt", "outcome", "reason", "wall_clock_s"),
                  "reason first": ("run_id", "task_id", "attempt", "reason", "outcome", "wall_clock_s"),
                  "apart": ("run_id", "task_id", "attempt", "outcome", "wall_clock_s", "reason")}
        for (name, order), compact in itertools.product(orders.items(), (True, False)):
            with self.subTest(order=name, compact=compact):
                lines = []
                for index, rec in enumerate(records):
                    if rec["outcome"] != "pass" and rec["task_id"] not in (NEG, POS):
                        rec = dict(rec, reason=reasons[index % len(reasons)])
                    rec = dict(rec, wall_clock_s=10 + index)
                    lines.append(line({key: rec[key] for key in order}, compact) + "\n")
                text = "".join(lines)
                (code, out, err), proven = self.both(manifest, text, "--format", "json")
                self.assertEqual(proven, 1, err)
                self.assertIn(code, (0, 1), err)
                # each reason reached the judges as written: a colon and a space kept, "" apart from null
                for shown in ("='a: b'", "=''", "=None", "='odd reason'", "='env_flake'"):
                    self.assertIn(shown, out)
                colon, comma = (":", ",") if compact else (": ", ", ")
                grouped = gate._fast_expression(order, colon, comma, False).keys
                self.assertEqual(gate._SPELLING in grouped, name == "adjacent", grouped)

class PinnedColumns(Agreement):
    """A chunk whose lines share the run ID and the attempt number is matched with those two written into the
    expression as literals (no group built a line for them), until a chunk's lines disagree on one."""

    def pinned_chunks(self, manifest: dict[str, Any], text: str, *extra: str) -> list[bool]:
        """Whether each chunk the canonical path proved was matched pinned, in file order, after asserting that
        every path agrees."""
        expected, _ = self.both(manifest, text, *extra)
        real_columns, seen = gate._FastPath.columns, []

        def columns(path: gate._FastPath, chunk: str) -> Any:
            found = real_columns(path, chunk)
            if found is not None:  # (a failed pinned match stops pinning for the file)
                seen.append(path.pinning and path.exact)
            return found

        with mock.patch.object(gate._FastPath, "columns", columns):
            watched = self.run_gate("--manifest", str(self.dir / "bench.manifest.json"), "--runs",
                                    str(self.dir / "runs.jsonl"), *extra)
        self.assertEqual(watched, expected)  # (the watch changed nothing)
        return seen

    def test_a_one_run_ledger_is_matched_pinned_until_a_line_disagrees(self) -> None:
        self.with_chunks(600)
        manifest, records = ledger(random.Random(5), tasks=60)
        text = sorted_text(records)
        seen = self.pinned_chunks(manifest, text)
        self.assertGreater(len(seen), 5)
        self.assertTrue(all(seen), seen)
        for edit, value in (("run_id", "r2"), ("attempt", 2)):
            with self.subTest(edit=edit):
                at = len(records) // 2
                edited = [dict(rec, **{edit: value}) if i == at else rec for i, rec in enumerate(records)]
                seen = self.pinned_chunks(manifest, sorted_text(edited))
                self.assertTrue(seen[0], seen)
                self.assertIn(False, seen)
                first_unpinned = seen.index(False)
                self.assertFalse(any(seen[first_unpinned:]), f"pinning stops at the chunk that disagrees: {seen}")

    def test_the_pinned_expression_is_compiled_once_while_the_values_hold(self) -> None:
        """A one-run ledger over many chunks compiles its pinned expression once, not once a chunk (work counted: a
        check of the kept values against the wrong member recompiled it for every chunk, the same answer)."""
        self.with_chunks(600)
        manifest, records = ledger(random.Random(5), tasks=60)
        self.assertTrue(all(self.pinned_chunks(manifest, sorted_text(records))))  # (every path agrees; all pinned)
        with mock.patch.object(gate, "_fast_expression", wraps=gate._fast_expression) as compiled:
            code, _out, err = self.run_gate("--manifest", str(self.dir / "bench.manifest.json"), "--runs",
                                            str(self.dir / "runs.jsonl"))
        self.assertEqual(code, 0, err)
        self.assertGreater((self.dir / "runs.jsonl").stat().st_size // 600, 5)
        with_literals = [c for c in compiled.call_args_list if len(c.args) + len(c.kwargs) == 5]
        self.assertEqual(len(with_literals), 1, compiled.call_args_list)

    def test_a_pinned_run_that_is_not_the_asked_one_is_left_out(self) -> None:
        """Two runs one after the other, each over many chunks: --run-id of either agrees with the general path, and
        the first run's chunks were matched pinned."""
        self.with_chunks(600)
        manifest, records = ledger(random.Random(8), tasks=40)
        text = sorted_text(records) + sorted_text([dict(rec, run_id="r2") for rec in records])
        for run in ("r1", "r2"):
            with self.subTest(run=run):
                seen = self.pinned_chunks(manifest, text, "--run-id", run)
                self.assertTrue(seen[0], seen)
                self.assertIn(False, seen)


class SortedStream(Agreement):
    """A ledger in task-ID order is summarised as it streams; what the summary cannot answer reads the file again."""

    def test_a_sorted_ledger_streams_and_an_unsorted_one_does_not(self) -> None:
        """The same records, sorted then shuffled, at whole-file and 600-byte chunks: the sorted file ends as a
        stream, the shuffled one (three attempts a task) as a table replayed from the unsorted summary's chunks,
        and every report agrees."""
        for chunk in (1 << 20, 600):
            self.with_chunks(chunk)
            manifest, records = ledger(random.Random(11), tasks=60, budget=3)
            (code, out, _), _ = self.both(manifest, sorted_text(records))
            self.assertEqual((self.streamed, self.answered, self.unsorted), (1, 1, 0))
            random.Random(1).shuffle(records)
            (code2, out2, _), _ = self.both(manifest, "".join(line(rec) + "\n" for rec in records))
            self.assertEqual((self.streamed, self.answered, self.unsorted, self.replayed), (0, 0, 0, 1))
            unhashed = re.compile(r"^runs        : sha256 [0-9a-f]{64}$", re.MULTILINE)
            self.assertEqual((code2, unhashed.sub("", out2)), (code, unhashed.sub("", out)))  # but the file's hash

    def test_lookalikes_are_found_in_a_stream(self) -> None:
        """`T-003` and `t-003` (in one chunk, and 300 tasks apart across chunks) are task_id_lookalike in a stream."""
        self.with_chunks(2048)
        _, records = ledger(random.Random(4), tasks=400)
        for rec in records:
            if rec["task_id"] in ("t-003", "t-300"):
                records.append(dict(rec, task_id=rec["task_id"].upper()))
        make = make_manifest(sorted({r["task_id"] for r in records}), attempt_budget=1, attempt_mode="retry")
        make["dataset"].pop("task_ids")
        (_, out, _), _ = self.both(make, sorted_text(records))
        self.assertEqual((self.streamed, self.answered), (1, 1))  # (the three ranges split T-300 from t-300)
        self.assertIn("task_id_lookalike: 2 group(s) of task IDs differ only in case or Unicode form: 'T-003' / 't-003'; "
                      "'T-300' / 't-300'", out)

    def test_a_lookalike_group_spread_over_chunks_is_named_once(self) -> None:
        """`AB-1` in one chunk, `Ab-1` and `ab-1` in a later one (or each in its own): the group is named with each
        spelling once, on every path and every chunk size, workers included."""
        _, records = ledger(random.Random(4), tasks=60)
        template = records[-1]
        spellings = ["AB-1", "Ab-1", "ab-1", *(f"AC-{n:04d}" for n in range(60))]  # (the AC filler between)
        records += [dict(template, task_id=tid) for tid in spellings]
        make = make_manifest(sorted({r["task_id"] for r in records}), attempt_budget=1, attempt_mode="retry")
        make["dataset"].pop("task_ids")
        for size in (1024, 2048, 4096):
            with self.subTest(chunk=size):
                self.with_chunks(size)
                (_, out, _), _ = self.both(make, sorted_text(records))
                self.assertEqual((self.streamed, self.answered), (1, 1))
                self.assertIn("task_id_lookalike: 1 group(s) of task IDs differ only in case or Unicode form: "
                              "'AB-1' / 'Ab-1' / 'ab-1'; a reader", out)

    def test_many_troubled_tasks_are_counted_and_the_first_named(self) -> None:
        """40 tasks with an attempt gap, over several chunks: the stream names the first ten and counts all 40."""
        self.with_chunks(1024)
        manifest, records = ledger(random.Random(8), tasks=120)
        for rec in records[10:50]:
            rec["attempt"] = 2
        (code, out, _), _ = self.both(manifest, sorted_text(records))
        self.assertEqual((code, self.streamed, self.answered), (1, 1, 1))
        self.assertRegex(out, r"attempt_gap: .* and 30 more")

    def test_what_the_summary_cannot_answer_ends_the_stream(self) -> None:
        """A declared task with no record, an undeclared task, a missing control, one task in place of another (the
        count still right): the table names them."""
        manifest, records = ledger(random.Random(9))
        manifest["dataset"]["task_ids"] = sorted({r["task_id"] for r in records})
        for name, edit in UNANSWERABLE:
            with self.subTest(name):
                (code, out, _), _ = self.both(manifest, sorted_text(edit(records)))
                self.assertEqual((code, self.answered), (1, 0))
                self.assertIn(name, out)

    def test_costs_are_summed_per_task_in_a_stream(self) -> None:
        """Cost and tokens over tasks of one attempt and of several (split across chunks), some without cost:
        the stream's per-task sums give the table's totals and medians; a task whose tokens pass what the stream's
        array holds (2^64: some 18,000 attempts at the bound) ends the stream, for the table to count exactly."""
        self.with_chunks(3000)
        rnd = random.Random(6)
        for budget in (1, 4):
            manifest, records = ledger(rnd, tasks=90, budget=budget)
            for rec in records:
                for key in ("harness", *gate._COST_FIELDS):
                    rec.pop(key, None)
                if rnd.random() < 0.8:  # a cost, tokens or both: tasks with either count as reporting cost
                    measured = {"cost_usd": round(rnd.uniform(0, 3), 6), "total_tokens": rnd.randint(0, 10**6)}
                    rec.update(rnd.choice([measured, {"cost_usd": measured["cost_usd"]},
                                           {"total_tokens": measured["total_tokens"]}]))
            (_, out, _), _ = self.both(manifest, sorted_text(records))
            self.assertEqual((self.streamed, self.answered), (1, 1))
            self.assertIn("cost        : total $", out)
        stream = gate._Stream(None, frozenset())
        stream.add_costs(["t-big"] * 2, ["", ""], [2**63, 2**63 - 1], fresh=False)  # (a unit: past any record's bound)
        stream.close_cost("t-next")
        self.assertEqual(list(stream.tokens), [2**64 - 1])  # the most the array holds
        stream.add_costs(["t-next"] * 2, ["", ""], [2**63, 2**63], fresh=False)
        with self.assertRaises(gate._EndStream):  # one more: the table counts it, as a Python int
            stream.finish()

    def test_a_task_continued_from_a_chunk_of_new_tasks_keeps_its_cost_whole(self) -> None:
        """Retry mode, a second attempt after each failed first one, a cost on every attempt, and chunks of a few
        lines: a chunk of new tasks (one line each) often ends on a task whose second attempt opens the next chunk.
        That task's cost is one task's, as the table counts it: every chunk size gives the general path's report
        (a stream that carried the chunk's first task as the open one split the last task's cost in two)."""
        rnd = random.Random(11)
        ids = [NEG, POS, *(f"t-{n:03d}" for n in range(1, 39))]
        records = []
        for tid in sorted(ids):
            outcomes = ["fail", "fail"] if tid == NEG else ["pass"] if tid == POS else (
                ["pass"] if rnd.random() < 0.5 else ["fail", rnd.choice(["pass", "fail"])])
            records += [{"run_id": "r1", "task_id": tid, "attempt": a, "outcome": o, "reason": None,
                         "cost_usd": round(rnd.uniform(0, 2), 4)} for a, o in enumerate(outcomes, 1)]
        manifest = make_manifest(ids, with_ids=False, attempt_budget=2, attempt_mode="retry")
        for size in range(170, 420, 37):
            with self.subTest(chunk=size):
                self.with_chunks(size)
                (_code, out, _), _ = self.both(manifest, sorted_text(records))
                self.assertEqual(self.streamed, 1)
                self.assertIn("cost        : total $", out)

    def test_a_pipe_is_read_once(self) -> None:
        """A pipe cannot be read twice: the command line copies a piped runs file first (the error names the pipe as
        given), and tally_runs given a pipe itself takes the general path on its one read; both name the bad line
        (token counts whose sum passes the bound)."""
        if not os.path.isdir("/dev/fd"):
            self.skipTest("no /dev/fd here")
        manifest, records = ledger(random.Random(2))
        text = EDITS["token sum past the bound"]("".join(line(rec) + "\n" for rec in records))
        readable, writable = os.pipe()
        self.addCleanup(os.close, readable)
        os.write(writable, text.encode("utf-8"))  # (a few KiB: the pipe's buffer holds it all)
        os.close(writable)  # so the pipe ends after the text: no race with a writer
        m = self.write_json("bench.manifest.json", manifest)
        code, _, err = self.run_gate("--manifest", str(m), "--runs", f"/dev/fd/{readable}")
        self.assertEqual(code, 2, err)
        self.assertIn(f"/dev/fd/{readable}:1: input_tokens + output_tokens: expected an integer from 0 to 1e+15, "
                      "got the number 1999999999999998", err)
        readable, writable = os.pipe()
        self.addCleanup(os.close, readable)
        os.write(writable, text.encode("utf-8"))
        os.close(writable)
        with self.assertRaises(gate.GateError) as raised:
            gate.tally_runs(Path(f"/dev/fd/{readable}"), gate.Reading())
        self.assertIn(f"/dev/fd/{readable}:1: input_tokens + output_tokens: expected an integer", str(raised.exception))


def shuffled_text(records: list[dict[str, Any]], seed: int = 1) -> str:
    """The records' lines in the order a harness running tasks concurrently writes them: as they finish."""
    records = list(records)
    random.Random(seed).shuffle(records)
    return "".join(line(rec) + "\n" for rec in records)


class UnsortedLedger(Agreement):
    """A ledger whose IDs do not arrive in order is summarised without a per-task table (_Unsorted) while every
    task has one record and the declared set matches; otherwise its kept chunks are replayed into the table. Every
    report agrees with the general path's (`both`)."""

    def test_an_unsorted_ledger_is_summarised_without_a_task_table(self) -> None:
        """One record a task, shuffled, at whole-file, 600-byte and 97-byte chunks (a first chunk of one record:
        every key range bound the same ID) and with the IDs declared or not: the summary stands, no table is
        built, and the digest, the counts and the controls are the table's."""
        for chunk in (1 << 20, 600, 97):
            for seed in (3, 4):
                with self.subTest(chunk=chunk, seed=seed):
                    self.with_chunks(chunk)
                    manifest, records = ledger(random.Random(seed), tasks=80)
                    (_, out, _), _ = self.both(manifest, shuffled_text(records, seed))
                    self.assertEqual((self.streamed, self.unsorted, self.replayed), (0, 1, 0))
                    self.assertIn("controls", out)
        r = self.write_text("runs.jsonl", shuffled_text(ledger(random.Random(3), tasks=80)[1]))
        tally = gate.tally_runs(r, gate.Reading(), summary=(None, frozenset((NEG, POS))))
        self.assertIsInstance(tally.summary, gate._Unsorted)
        self.assertEqual((tally.tasks, tally.summary.task_count()), ({}, 80))
        ids = sorted({rec["task_id"] for rec in ledger(random.Random(3), tasks=80)[1]})
        self.assertEqual(tally.summary.observed_digest(), gate.ids_digest(ids))
        self.assertEqual(tally.summary.pattern_of(NEG), gate.pack_attempt(gate.attempt_kind(tally.summary.pattern_of(NEG)), 1))

    def test_a_task_with_two_records_replays_the_chunks_into_the_table(self) -> None:
        """A retry written far from its first attempt (another chunk), a record written twice, and two attempts a
        task with cost and tokens: each is found only once every chunk is in, and the table replayed from the kept
        chunks (no second read of the file) gives the general path's report, per-task cost sums included."""
        self.with_chunks(700)
        manifest, records = ledger(random.Random(5), tasks=60, budget=2)
        (_, out, _), _ = self.both(manifest, shuffled_text(records, 5))
        self.assertEqual((self.unsorted, self.replayed), (0, 1))
        manifest, records = ledger(random.Random(6), tasks=60)
        retried = dict(records[-1], attempt=2)
        text = line(retried) + "\n" + shuffled_text(records, 6)  # attempt 2 first, attempt 1 chunks later
        (_, out, _), _ = self.both(dict(manifest, attempt_budget=2), text)
        self.assertEqual((self.unsorted, self.replayed), (0, 1))
        (_, out, _), _ = self.both(manifest, shuffled_text([*records, records[7]], 6))
        self.assertEqual((self.unsorted, self.replayed), (0, 1))
        self.assertIn("attempt_repeated: 1 task(s) repeat an attempt number", out)
        opened = []
        real_open = gate.open_input

        def counted(path: Any) -> Any:
            opened.append(path)
            return real_open(path)

        r = self.write_text("runs.jsonl", shuffled_text(ledger(random.Random(5), tasks=60, budget=2)[1], 5))
        with mock.patch.object(gate, "open_input", counted):
            tally = gate.tally_runs(r, gate.Reading(), summary=(None, frozenset()))
        self.assertIsNone(tally.summary, "the chunks replayed into the table, which settle summarises")
        self.assertEqual((len(opened), len(tally.tasks)), (2, 60))  # the stream's try, then one

    def test_what_the_summary_cannot_answer_replays_the_table(self) -> None:
        """A declared task with no record, an undeclared task, a missing control, one task in place of another (the
        count still right), all shuffled: the table names them."""
        manifest, records = ledger(random.Random(9), tasks=50)
        manifest["dataset"]["task_ids"] = sorted({r["task_id"] for r in records})
        for name, edit in UNANSWERABLE:
            with self.subTest(name):
                self.with_chunks(800)
                (code, out, _), _ = self.both(manifest, shuffled_text(edit(records), 9))
                self.assertEqual((code, self.unsorted, self.replayed), (1, 0, 1))
                self.assertIn(name, out)

    def test_many_troubled_tasks_are_counted_and_the_first_named(self) -> None:
        """40 tasks with an attempt gap, shuffled over many chunks: the summary scans its chunks for the first ten
        in ID order and counts all 40, as the table does."""
        self.with_chunks(1024)
        manifest, records = ledger(random.Random(8), tasks=120)
        for rec in records[10:50]:
            rec["attempt"] = 2
        (code, out, _), _ = self.both(manifest, shuffled_text(records, 8))
        self.assertEqual((code, self.unsorted), (1, 1))
        first = sorted(rec["task_id"] for rec in records[10:50])[:10]
        self.assertIn(f"attempt_gap: 40 task(s) do not number their attempts 1..a without a gap: "
                      f"{', '.join(first)} and 30 more", out)

    def test_lookalikes_are_found_across_key_ranges(self) -> None:
        """`T-003` / `t-003` and `T-300` / `t-300`, shuffled at small chunks (so the key ranges part them): found."""
        self.with_chunks(2048)
        _, records = ledger(random.Random(4), tasks=400)
        for rec in list(records):
            if rec["task_id"] in ("t-003", "t-300"):
                records.append(dict(rec, task_id=rec["task_id"].upper()))
        make = make_manifest(sorted({r["task_id"] for r in records}), attempt_budget=1, attempt_mode="retry")
        make["dataset"].pop("task_ids")
        (_, out, _), _ = self.both(make, shuffled_text(records, 4))
        self.assertEqual(self.unsorted, 1)
        self.assertIn("task_id_lookalike: 2 group(s) of task IDs differ only in case or Unicode form: 'T-003' / 't-003'; "
                      "'T-300' / 't-300'", out)

    def test_costs_of_an_unsorted_ledger(self) -> None:
        """Cost and tokens on most records, shuffled: the summary's totals and medians are the table's."""
        self.with_chunks(3000)
        rnd = random.Random(12)
        manifest, records = ledger(rnd, tasks=150)
        for rec in records:
            for key in ("harness", *gate._COST_FIELDS):
                rec.pop(key, None)
            if rnd.random() < 0.8:
                measured = {"cost_usd": round(rnd.uniform(0, 3), 6), "total_tokens": rnd.randint(0, 10**6)}
                rec.update(rnd.choice([measured, {"cost_usd": measured["cost_usd"]},
                                       {"total_tokens": measured["total_tokens"]}]))
        (_, out, _), _ = self.both(manifest, shuffled_text(records, 12))
        self.assertEqual(self.unsorted, 1)
        self.assertIn("cost        : total $", out)

    def test_compare_pairs_an_unsorted_ledger_by_task(self) -> None:
        """compare keeps scores in task-ID order: an unsorted ledger takes the table there, and pairs as sorted."""
        manifest, records = ledger(random.Random(13), tasks=60)
        m = self.write_json("a.manifest.json", dict(manifest, claim_id="a"))
        self.write_text("runs.jsonl", shuffled_text(records, 13))
        b = self.write_json("b.manifest.json", dict(manifest, claim_id="b"))
        shuffled = self.run_gate("compare", str(m), str(b))
        self.write_text("runs.jsonl", sorted_text(records))
        self.assertEqual(shuffled, self.run_gate("compare", str(m), str(b)))


class OneSummaryShape(GateCase):
    def test_every_summary_is_a_stream_and_the_table_is_not_one(self) -> None:
        """What settle asks of the tasks is one type, _Stream: the unsorted summary and the per-task table's summary
        answer only questions the stream asks, with its parameters; the per-task table (_Table) answers none, but
        takes a file's attempts as the stream does (one sink shape); and a tally read into the table has no summary
        until settle makes the table's."""
        import inspect

        questions = {name: inspect.signature(method) for name, method in vars(gate._Stream).items()
                     if inspect.isfunction(method) and not name.startswith("_")}
        self.assertGreaterEqual(set(questions), {"pattern_counts", "pattern_of", "task_count", "observed_digest",
                                                 "lookalikes", "not_declared", "listed", "cost_values"})
        for cls in (gate._Unsorted, gate._TableSummary):
            self.assertTrue(issubclass(cls, gate._Stream))
            for name, method in vars(cls).items():
                if inspect.isfunction(method) and not name.startswith("_") and name in questions:
                    with self.subTest(cls=cls.__name__, question=name):
                        self.assertEqual(list(inspect.signature(method).parameters), list(questions[name].parameters))
        # the table is a sink as the stream is one (where the attempts go), with the same parameters, and no more
        table_methods = {name for name, m in vars(gate._Table).items() if inspect.isfunction(m) and name[0] != "_"}
        self.assertEqual(table_methods, {"add", "add_costs", "unproven", "conclude"})
        for name in table_methods:
            with self.subTest(sink=name):
                self.assertEqual(list(inspect.signature(getattr(gate._Table, name)).parameters),
                                 list(questions[name].parameters))
        self.assertIsNone(gate._Tally().summary)

    def test_the_tables_summary_answers_as_the_stream_does(self) -> None:
        """One sorted ledger read twice, as a stream and into the per-task table: the table's summary (made by
        summarize) gives the stream's answer to every question, every pattern's first tasks included."""
        for seed in range(6):
            with self.subTest(seed=seed):
                manifest, records = ledger(random.Random(seed), tasks=70, budget=1 + seed % 3)
                if seed % 2:  # look-alikes: tasks whose IDs differ from others only in case (none declared)
                    records += [dict(rec, task_id=rec["task_id"].upper()) for rec in records[4::9]]
                    manifest["dataset"].pop("task_ids", None)
                text = sorted_text(records)
                path = self.write_text("runs.jsonl", text)
                plan, _ = gate.make_plan(gate.load_manifest(self.write_json("bench.manifest.json", manifest)), None, 0.95)
                ids = (plan.declared_ids, frozenset(c.task_id for c in plan.controls))
                with mock.patch.object(gate, "_FAST_MIN_BYTES", 0):
                    streamed = gate.tally_runs(path, gate.Reading(), summary=ids)
                table = gate.tally_runs(path, gate.Reading())
                self.assertIsInstance(streamed.summary, gate._Stream)
                self.assertNotIsInstance(streamed.summary, gate._TableSummary)
                self.assertIsNone(table.summary)
                a, b = streamed.summarize(plan), table.summarize(plan)
                self.assertIsInstance(b, gate._TableSummary)
                self.assertIs(table.summarize(plan), b, "made once")
                patterns = a.pattern_counts()
                self.assertEqual(b.pattern_counts(), patterns)
                self.assertEqual((b.task_count(), b.observed_digest(), b.lookalikes()),
                                 (a.task_count(), a.observed_digest(), a.lookalikes()))
                self.assertEqual(b.observed_digest(), gate.ids_digest({r["task_id"] for r in records}))
                self.assertEqual(bool(a.lookalikes()), bool(seed % 2), "look-alikes where the IDs were made so")
                self.assertEqual(b.listed(list(patterns)), a.listed(list(patterns)))
                self.assertTrue(all(b.listed(list(patterns)).values()))
                for tid in ids[1]:
                    self.assertEqual(b.pattern_of(tid), a.pattern_of(tid))
                measured, costs, tokens = a.cost_values()
                self.assertEqual(b.cost_values(), (measured, list(costs), list(tokens)))


class PastLimit(unittest.TestCase):
    """_past_limit: a search that skips a chunk's exact envelope test only when no wall clock can be past it."""

    def test_the_search_finds_every_wall_clock_past_the_limit(self) -> None:
        """Every number of up to 5 integer digits and a fraction of 0 to 3 digits near each limit (and random ones):
        each that float() puts past the limit is found; at an integer limit the limit itself is not."""
        rnd = random.Random(7)
        for limit in (1.0, 1.5, 9.0, 10.0, 59.999, 99.0, 100.0, 900.0, 900.5, 999.0, 1234.0, 3600.0, 86400.0):
            search = gate._past_limit(limit)
            assert search is not None
            whole = int(limit)
            numbers = {str(n) for n in range(max(0, whole - 30), whole + 30)} | {str(rnd.randrange(10**5)) for _ in range(300)}
            fractions = ["", ".0", ".00", ".000", ".001", ".5", ".499", ".999", f".{rnd.randrange(1000):03d}"]
            for number in (n + f for n in numbers for f in fractions):
                if float(number) > limit:
                    self.assertTrue(search(number), (limit, number))
            if limit == whole:  # the limit itself is not past it
                self.assertIsNone(search(str(whole)))
            if whole > 1:  # nor a number below the limit's integer part
                self.assertIsNone(search(f"{whole - 1}.999"))
        self.assertIsNone(gate._past_limit(0.5))  # every number may be past it
        self.assertIsNone(gate._past_limit(float("inf")))
        self.assertTrue(gate._past_limit(900.0)("5\n\n900.25\n12"))  # one line of a chunk's joined groups
        self.assertFalse(gate._past_limit(900.0)("5\n\n900\n900.000\n12"))


class Workers(Agreement):
    """--jobs: the workers' summaries, merged in file order, give the single process's report (`both` asserts
    it on every ledger of this file); what they cannot answer is read again in one process."""

    def test_a_task_is_never_split_between_ranges(self) -> None:
        """Each range starts at the first line whose task differs from the line before: a task of 40 attempts
        across the middle of the file lies in one range."""
        text = "".join(line({"run_id": "r", "task_id": tid, "attempt": n + 1, "outcome": "pass", "reason": None}) + "\n"
                       for tid, count in (("a", 10), ("b", 40), ("c", 10)) for n in range(count))
        path = self.write_text("runs.jsonl", text.encode())
        points = gate._split_points(path, len(text), 2)
        starts = [text.count("\n", 0, at) for at in points]
        self.assertEqual(starts, [0, 50])  # the middle (line 30) falls in b's lines: the cut is where c begins
        lines = text.splitlines(keepends=True)
        line_starts = {sum(map(len, lines[:n])): lines[n] for n in range(len(lines))}
        for jobs in range(2, 9):  # every cut a line start where the task changes, in increasing order
            points = gate._split_points(path, len(text), jobs)
            self.assertEqual(points, sorted(set(points)))
            for at in points[1:]:
                self.assertIn(at, line_starts)
                before = text[text.rfind("\n", 0, at - 1) + 1:at]
                self.assertNotEqual(json.loads(before)["task_id"], json.loads(line_starts[at])["task_id"])
        bad = self.write_text("bad.jsonl", (text[:len(text) // 2] + "oops\n" * 30 + text[len(text) // 2:]).encode())
        self.assertIsNone(gate._split_points(bad, bad.stat().st_size, 2))  # a line that is no record: one process

    def test_workers_start_at_16_mib(self) -> None:
        """--jobs forks workers only for a file of 16 MiB or more (below, forking costs more than it saves): the
        floor is checked on sparse files either side of it, and a small ledger with --jobs 4 forks none."""
        for size, worth in (((1 << 24) - 1, False), (1 << 24, True)):
            path = self.dir / f"sparse-{size}.jsonl"
            with open(path, "wb") as handle:
                handle.truncate(size)
            with self.subTest(size=size):
                self.assertEqual(gate._worth_workers(path), worth and hasattr(os, "fork"))
        manifest, records = ledger(random.Random(4))
        m = self.write_json("small.manifest.json", manifest)
        r = self.write_text("small.jsonl", "".join(line(rec) + "\n" for rec in records).encode())
        with mock.patch.object(gate, "_FAST_MIN_BYTES", 0), \
                mock.patch.object(gate, "_tally_in_workers", wraps=gate._tally_in_workers) as workers:
            code, _out, err = self.run_gate("--manifest", str(m), "--runs", str(r), "--jobs", "4")
        self.assertIn(code, (0, 1), err)
        self.assertEqual(workers.call_count, 0)

    def test_each_cut_is_the_first_task_change_after_the_line_at_its_share(self) -> None:
        """Range k's cut, from an oracle written out here: the first line starting at or after size*k/jobs (or one
        past the last cut), then the first line after it whose task differs from the line before. Tasks of one to
        four lines of 26 to 27 bytes, so lines start at every parity of the shares; jobs 2 to 8. A share that falls
        in the last line leaves no record to start a range at: None (the file is read in one process)."""
        rnd = random.Random(40)
        for trial in range(30):
            tasks = [(f"t{i:03d}", rnd.randint(1, 4)) for i in range(rnd.randint(8, 40))]
            text = "".join(f'{{"task_id": "{tid}", "n": {rnd.choice(["1", "22"])}}}\n' for tid, count in tasks
                           for _ in range(count))
            path = self.write_text(f"cuts-{trial}.jsonl", text.encode())
            starts = [0, *[i + 1 for i, ch in enumerate(text) if ch == "\n"][:-1]]
            task_at = {at: json.loads(text[at:text.index("\n", at)])["task_id"] for at in starts}
            for jobs in range(2, 9):
                want: list[int] | None = [0]
                for k in range(1, jobs):
                    assert want is not None
                    share = max(len(text) * k // jobs, want[-1] + 1)
                    first = next((at for at in starts if at >= share), None)
                    if first is None:  # the share falls in the last line: no record to start at, one process
                        want = None
                        break
                    later = [at for at in starts if at > first]
                    cut = next((at for at, before in zip(later, [first, *later]) if task_at[at] != task_at[before]), None)
                    if cut is None:
                        break
                    want.append(cut)
                with self.subTest(trial=trial, jobs=jobs):
                    self.assertEqual(gate._split_points(path, len(text), jobs), want)

    def test_kinds_first_seen_in_a_later_range_are_numbered_in_file_order(self) -> None:
        """The first range holds only passes, a later one the first fail and unscoreable: the kinds are renumbered
        into the parent's order, so patterns, attempt gaps and controls read as the single process reads them."""
        self.with_chunks(512)
        manifest, records = ledger(random.Random(21), tasks=90, budget=2)
        late = sorted({r["task_id"] for r in records})[60:]
        for rec in records:
            if rec["task_id"] not in late and rec["task_id"] not in (NEG, POS):
                rec.update(outcome="pass", reason=None)
        (_, out, _), _ = self.both(manifest, sorted_text(records))
        self.assertEqual(self.answered, 1)
        self.assertIn("unscoreable", out)

    def test_ranges_out_of_order_are_read_in_one_process(self) -> None:
        """Each range in order but the later IDs written first, cut exactly where two ranges meet: no stream can
        answer; the table does."""
        manifest, records = ledger(random.Random(22), tasks=80)
        ordered = [line(rec) + "\n" for rec in sorted(records, key=lambda r: r["task_id"])]
        for first in range(20, 60):  # the rotation whose seam is where _split_points cuts the file in two
            text = "".join(ordered[first:] + ordered[:first])
            path = self.write_text("runs.jsonl", text.encode())
            if gate._split_points(path, len(text), 2) == [0, len(text) - sum(map(len, ordered[:first]))]:
                break
        else:
            self.fail("no rotation puts the seam at the cut")
        self.assertEqual(self.run_gate("--manifest", str(self.write_json("m.json", manifest)), "--runs", str(path),
                                       "--format", "json")[0], 0)
        summary = (None, frozenset((NEG, POS)))
        with mock.patch.object(gate, "_JOBS_MIN_BYTES", 0):
            self.assertIsNone(gate._tally_in_workers(path, gate.Reading(None, 900.0), summary, 2))
            self.assertIsNotNone(gate._tally_in_workers(self.write_text("s.jsonl", "".join(ordered).encode()),
                                                        gate.Reading(None, 900.0), summary, 2))

    def test_attempts_over_the_envelope_are_counted_across_ranges(self) -> None:
        """44 attempts over the wall-clock envelope spread through the file: the first ten named, the rest counted."""
        manifest, records = ledger(random.Random(25), tasks=90)
        for rec in records[3::2]:  # 44 of them
            rec["wall_clock_s"] = 950.5
        for rec in records:
            rec.setdefault("wall_clock_s", 10)
        (code, out, _), _ = self.both(manifest, sorted_text(records))
        self.assertEqual((code, self.answered), (1, 1))
        self.assertRegex(out, r"envelope_exceeded: 44 attempt\(s\) .* and 34 more")

    def test_a_worker_that_fails_leaves_the_file_to_one_process(self) -> None:
        """A worker that dies (here: raises in its range) is never a verdict of its own: the file is read again."""
        manifest, records = ledger(random.Random(23), tasks=80)
        with mock.patch.object(gate, "_range_summary", side_effect=MemoryError):
            (code, out, _), _ = self.both(manifest, sorted_text(records))
        self.assertEqual((code, self.answered), (0, 0))
        self.assertIn("PUBLISHABLE", out)

    def test_workers_answer_when_whoever_started_the_gate_ignores_sigchld(self) -> None:
        """An ignored SIGCHLD is inherited through exec, and the system then reaps the workers itself: their answers
        still count (a worker's last frame says it finished), and nothing is killed or waited for twice."""
        if not hasattr(signal, "SIGCHLD"):
            self.skipTest("no SIGCHLD here")
        manifest, records = ledger(random.Random(26), tasks=90)
        previous = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
        try:
            (code, _, err), _ = self.both(manifest, sorted_text(records))
            self.assertEqual((code, err, self.answered), (0, "", 1))
        finally:
            signal.signal(signal.SIGCHLD, previous)

    def test_a_worker_writes_nothing_to_the_gates_streams(self) -> None:
        """A worker's standard streams are /dev/null: what it might print never reaches the report or a pipeline."""
        manifest, records = ledger(random.Random(27), tasks=60)
        real = gate._range_summary

        def noisy(*args: Any) -> list[bytes]:
            os.write(1, b"LEAK-OUT")
            os.write(2, b"LEAK-ERR")
            return real(*args)

        with tempfile.TemporaryFile() as sink:
            saved = [os.dup(1), os.dup(2)]
            os.dup2(sink.fileno(), 1)
            os.dup2(sink.fileno(), 2)
            try:
                with mock.patch.object(gate, "_range_summary", noisy):
                    (code, _, _), _ = self.both(manifest, sorted_text(records))
            finally:
                for fd, copy in zip((1, 2), saved):
                    os.dup2(copy, fd)
                    os.close(copy)
            sink.seek(0)
            self.assertNotIn(b"LEAK", sink.read())
        self.assertEqual((code, self.answered), (0, 1))

    def test_an_error_in_a_later_range_is_named_as_by_one_process(self) -> None:
        """A bad line near the end: the worker whose range it is cannot prove it, and the one process names it."""
        manifest, records = ledger(random.Random(24), tasks=80)
        text = sorted_text(records)
        cut = text.rindex('"attempt": 1', 0, len(text) - 200)
        (code, _, err), _ = self.both(manifest, text[:cut] + '"attempt": 0' + text[cut + 12:])
        self.assertEqual((code, self.answered), (2, 0))
        self.assertRegex(err, r"runs\.jsonl:\d+: attempt: expected an integer >= 1, got the number 0")

    def test_jobs_must_be_a_count_of_processes(self) -> None:
        for bad in ("0", "65", "two", "-1", "1.5", "\u00b2", "\uff12"):  # (a superscript 2, a full-width 2)
            code, _, err = self.run_gate("--manifest", "m.json", "--runs", "r.jsonl", "--jobs", bad)
            self.assertEqual(code, 2, bad)
            self.assertIn(f"--jobs: expected a whole number of processes from 1 to 64, got {bad!r}", err)


def _edited(seed: int, edit: str | None, compact: bool, chunk: int) -> tuple[dict[str, Any], str, int]:
    rnd = random.Random(seed)
    manifest, records = ledger(rnd, tasks=rnd.randint(3, 40), budget=rnd.choice([1, 2]))
    if rnd.random() < 0.3:
        rnd.shuffle(records)
    for rec in records[:rnd.choice([0, 0, 1, len(records) // 2])]:  # a second run, which --run-id picks or leaves
        rec["run_id"] = "r2"
    text = "".join(line(rec, compact and edit is None) + "\n" for rec in records)  # the edits read spaced JSON
    return manifest, text if edit is None else EDITS[edit](text), chunk


class Generated(Agreement):
    """Generated ledgers, valid and with one edit each, at several chunk sizes: the paths always agree."""

    def check_one(self, seed: int, edit: str | None, compact: bool, chunk: int, every_form: bool = True) -> None:
        manifest, text, chunk = _edited(seed, edit, compact, chunk)
        self.with_chunks(chunk)
        forms = (("--format", "text"), ("--format", "json"), ("--run-id", "r2"), ("--run-id", "r1"))
        for extra in forms if every_form else forms[1:3]:
            (_, _, _), proven = self.both(manifest, text, *extra)
            if edit is None and not compact:
                self.assertGreater(proven, 0, (seed, chunk))

    def test_seeded(self) -> None:
        """Every edit, on a seeded ledger each, at whole-file or 512-byte chunks by turns (runs without hypothesis)."""
        for index, edit in enumerate([None, *EDITS]):
            chunk = (1 << 20, 512)[index % 2]
            with self.subTest(edit=edit, chunk=chunk):
                self.check_one(index, edit, index % 3 == 0, chunk, every_form=False)

    if HAVE_HYPOTHESIS:
        @given(st.integers(0, 2**32), st.one_of(st.none(), st.sampled_from(sorted(EDITS))), st.booleans(),
               st.sampled_from([1 << 20, 700, 97]), st.booleans())
        def test_generated(self, seed: int, edit: str | None, compact: bool, chunk: int, every_form: bool) -> None:
            """Hypothesis draws the seed, the edit, the separators, the chunk size and whether all four report forms
            are compared (else JSON and --run-id r2)."""
            self.check_one(seed, edit, compact, chunk, every_form)


if __name__ == "__main__":
    unittest.main()


class ManyPatterns(Agreement):
    def test_many_patterns_in_a_chunk_are_listed_in_one_pass_and_agree(self) -> None:
        """A sorted ledger where every task is unscoreable for its own (uncoded) reason has as many attempt patterns
        as tasks: the stream lists each pattern's first tasks in one pass over a chunk (it scanned the chunk once a
        pattern: quadratic), and every path prints the same report, first tasks included."""
        ids = [NEG, POS, *(f"t-{n:03d}" for n in range(1, 79))]
        records = [{"run_id": "r1", "task_id": tid, "attempt": 1,
                    "outcome": "fail" if tid == NEG else "pass" if tid == POS else "unscoreable",
                    "reason": None if tid in (NEG, POS) else f"reason-{n:03d}"} for n, tid in enumerate(sorted(ids))]
        manifest = make_manifest(ids, with_ids=False)
        self.assertGreater(len(ids), gate._FEW_PATTERNS)
        closed: list[int] = []
        real_close = gate._Stream.close

        def close(stream: gate._Stream, tids: Any, patterns: Any, clusters: Any = None) -> None:
            closed.append(len(set(patterns)))
            real_close(stream, tids, patterns, clusters)

        with mock.patch.object(gate._Stream, "close", close):
            (code, out, _), _ = self.both(manifest, sorted_text(records))
        self.assertEqual(code, 1, out)
        self.assertGreater(max(closed), gate._FEW_PATTERNS)  # the one-pass branch ran
        self.assertEqual(self.streamed, 1)
        self.assertIn("t-001#1='reason-002', t-002#1='reason-003'", out)  # the first tasks, in ID order


class Clusters(Agreement):
    """A record's cluster is its task's, counted apart from its kind: a cluster a task is a few attempt patterns
    and a few cluster profiles, not one of each a task."""

    def clustered(self, names: list[str], outcome: Callable[[int], str] = lambda n: "pass" if n % 3 else "fail"
                  ) -> tuple[dict[str, Any], str]:
        ids = [NEG, POS, *(f"t-{n:03d}" for n in range(1, len(names) - 1))]
        records = [{"run_id": "r1", "task_id": tid, "attempt": 1,
                    "outcome": "fail" if tid == NEG else "pass" if tid == POS else outcome(n), "reason": None,
                    "cluster": name} for n, (tid, name) in enumerate(zip(sorted(ids), names))]
        return make_manifest(ids, with_ids=False), sorted_text(records)

    def profiles_counted(self, manifest: dict[str, Any], text: str) -> tuple[tuple[int, str, str], list[int]]:
        """The report (asserted equal on every path) and the number of distinct profiles each summary counted."""
        seen: list[int] = []
        real = gate._Stream.cluster_profiles

        def counted(stream: gate._Stream) -> Any:
            profiles = real(stream)
            seen.append(len(profiles))
            return profiles

        with mock.patch.object(gate._Stream, "cluster_profiles", counted):
            result, _ = self.both(manifest, text)
        return result, seen

    def test_a_cluster_a_task_is_a_few_profiles(self) -> None:
        """80 tasks, each its own cluster: two profiles (a passing task, a failing one) on every path, the stream's
        folded as it goes (folding at 8 pairs here), the clustered interval printed; the workers answer."""
        manifest, text = self.clustered([f"repo-{n:03d}" for n in range(80)])
        with mock.patch.object(gate, "_FOLD_AT", 8):
            (code, out, _), seen = self.profiles_counted(manifest, text)
        self.assertEqual((code, self.streamed, self.answered), (0, 1, 1))
        self.assertEqual(set(seen), {2})
        self.assertIn("over 80 clusters (effective n 80.0)", out)

    def test_a_folded_cluster_met_again_ends_the_stream(self) -> None:
        """Clusters out of name order after the stream folded some: the task table counts them, and every path
        agrees (the clustered interval over 40 clusters of two tasks each)."""
        names = [f"repo-{n % 40:03d}" for n in range(80)]
        manifest, text = self.clustered(names)
        self.with_chunks(600)
        with mock.patch.object(gate, "_FOLD_AT", 8):
            (code, out, _), _ = self.profiles_counted(manifest, text)
        self.assertEqual((code, self.streamed), (0, 0))
        self.assertIn("over 40 clusters", out)

    def test_one_cluster_of_more_patterns_than_the_fold_holds(self) -> None:
        """Samples mode, every task in one cluster, more distinct attempt patterns than _FOLD_AT pairs: nothing to
        fold (every pair is the highest cluster's), so the stream goes on (a max() of no cluster was exit 3)."""
        ids = [NEG, POS, *(f"t-{n:03d}" for n in range(1, 39))]
        records = [{"run_id": "r1", "task_id": tid, "attempt": a, "reason": None, "cluster": "repo",
                    "outcome": "fail" if tid == NEG else "pass" if tid == POS or (n >> (a - 1)) & 1 else "fail"}
                   for n, tid in enumerate(sorted(ids)) for a in range(1, 7)]
        manifest = make_manifest(ids, with_ids=False, attempt_mode="samples", attempt_budget=6)
        self.with_chunks(700)
        with mock.patch.object(gate, "_FOLD_AT", 4):
            (code, out, err), _ = self.profiles_counted(manifest, sorted_text(records))
        self.assertEqual((code, err, self.streamed), (0, "", 1))
        self.assertIn("over 1 clusters", out)

    def test_compare_pairs_a_task_of_two_clusters_in_its_first_records(self) -> None:
        """A's t-1 names cluster a, then z; B's names z: compare --by-cluster pairs t-1 in a (its first record's,
        as the per-task table does) and names the cross-ledger cluster_conflict, streamed or not."""
        ids = [NEG, POS, "t-1", "t-2", "t-3", "t-4"]
        base = make_manifest(ids, with_ids=False, attempt_budget=2)

        def side(first: str, second: str | None) -> str:
            records = []
            for tid in ids:
                for attempt in (1, 2):
                    cluster = {("t-1", 1): first, ("t-1", 2): second}.get((tid, attempt), "a" if tid < "t-3" else "b")
                    records.append({"run_id": "r1", "task_id": tid, "attempt": attempt, "reason": None,
                                    "outcome": "fail" if tid == NEG or (attempt == 1 and tid != POS) else "pass",
                                    **({"cluster": cluster} if cluster else {})})
            return sorted_text(records)

        m = self.write_json("m.json", base)
        a, b = self.write_text("a.jsonl", side("a", "z")), self.write_text("b.jsonl", side("z", "z"))
        argv = ("compare", "--manifest", str(m), "--runs", str(a), "--against-manifest", str(m),
                "--against-runs", str(b), "--by-cluster")
        with mock.patch.object(gate, "_FAST_MIN_BYTES", 0):
            streamed = self.run_gate(*argv)
        table = self.run_gate(*argv)
        self.assertEqual(streamed, table)
        self.assertEqual(streamed[0], 1)
        self.assertIn("t-1 (a in A, z in B)", streamed[1])

    def test_two_clusters_in_a_task_and_some_tasks_without(self) -> None:
        """A task whose attempts name two clusters, one whose later attempt names none, one whose later attempt
        names one: each a cluster_conflict on every path (split across chunks too)."""
        ids = [NEG, POS, "t-1", "t-2", "t-3", "t-4"]
        records = []
        for tid in ids:
            for attempt in (1, 2):
                rec: dict[str, Any] = {"run_id": "r1", "task_id": tid, "attempt": attempt,
                                       "outcome": "fail" if tid == NEG else "pass", "reason": None}
                cluster = {("t-1", 2): "b", ("t-2", 2): None, ("t-3", 1): None}.get((tid, attempt), "a")
                if cluster is not None:
                    rec["cluster"] = cluster
                records.append(rec)
        manifest = make_manifest(ids, with_ids=False, attempt_budget=2, attempt_mode="samples")
        for chunk in (64, 1 << 20):
            with self.subTest(chunk=chunk):
                self.with_chunks(chunk)
                (code, out, _), _ = self.both(manifest, sorted_text(records))
                self.assertEqual(code, 1)
                self.assertRegex(out, r"cluster_conflict.*t-1, t-2, t-3")


class PackedAttempts(GateCase):
    def test_an_attempt_packs_and_unpacks_to_its_kind_and_number(self) -> None:
        """pack_attempt (the hot loop inlines it) keeps the kind in the low bits and the attempt number above them:
        each round-trips through attempt_kind and attempt_number, up to the attempt limit."""
        for kind in (0, 1, 7, gate._KIND_MASK):
            for number in (1, 2, 32, 33, 10_000):
                packed = gate.pack_attempt(kind, number)
                self.assertEqual((gate.attempt_kind(packed), gate.attempt_number(packed)), (kind, number))
