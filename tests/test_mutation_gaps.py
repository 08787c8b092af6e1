"""Tests that kill what survived mutation testing (issue 22, "Tests that kill what survives").

Each test is one gap the issue lists: an input whose output differs between gate.py and a mutant of it. The
docstring names the mutation (or the kind of mutation) it kills; the assertion is on the exact output the mutant
changes. Expected figures come from this file's own arithmetic, tests/oracles.py or the fixture files, never from
gate.py.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import shutil
import sys
import threading
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any
from unittest import mock

import gate
from tests.builders import COMPARE_ENVELOPE, make_manifest, metric, paired_ledgers, paired_samples, record, valid_ledger
from tests.oracles import exact_conditional, ids_digest, wild_cluster, wilson
from tests.realfiles import DROID, RealFileCase
from tests.support import FIXTURES, SWE_REPORT, GateCase, ImportCase, load, markdown_tables

MIB = 1 << 20
MANIFEST_CAP = 64 * MIB  # the documented size limit of a file the gate reads whole (docs: the size limits)
LINE_CAP = 8 * MIB  # the documented longest line of a runs file
RETRY = FIXTURES / "inspect" / "rules" / "retry"


def line_of(size: int, task_id: str) -> str:
    """A valid attempt record of exactly `size` characters (ASCII: bytes too), padded in an extra field."""
    base = json.dumps({"run_id": "r1", "task_id": task_id, "attempt": 1, "outcome": "pass", "reason": None, "note": ""})
    pad = size - len(base)
    assert pad >= 0
    text = base[:-3] + '"' + "x" * pad + '"}'
    assert len(text) == size
    return text


def rate_cells(k: int, n: int, confidence: float = 0.95) -> list[str]:
    """A rate's k/n, value and interval cells as the Markdown tables print them (three decimals)."""
    low, high = wilson(k, n, confidence)
    return [f"{k}/{n}", f"{k / n:.3f}", f"[{low:.3f}, {high:.3f}]"]


def holm(ps: list[float]) -> list[float]:
    """Holm's adjusted p-values by definition: max over j <= rank of min(1, (m − j)·p_(j))."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    out = [0.0] * len(ps)
    for rank, i in enumerate(order):
        out[i] = max(min(1.0, (len(ps) - j) * ps[order[j]]) for j in range(rank + 1))
    return out


class InputLimits(GateCase):
    """The two read limits: a whole-file read (64 MiB) on a pipe that stays open, and the line limit (8 MiB)."""

    def through_a_pipe(self, payload: bytes, stay_open: bool) -> tuple[int, str, str, bool, int, str]:
        """check with the manifest read from a pipe a writer thread fills with `payload`; with stay_open the pipe is
        left open after the last byte (no EOF) until the gate has answered, or 30 s have passed (then the writer
        gives up and closes it, so a gate that waits for EOF fails the test rather than hangs it). (exit code,
        stdout, stderr, whether the gate answered while the pipe was still open, bytes the writer got into the
        pipe, the pipe's path)."""
        runs = self.write_jsonl("runs.jsonl", valid_ledger()[1])
        readable, writable = os.pipe()
        release = threading.Event()
        closing = threading.Event()  # set before the writer closes the pipe: a gate that saw EOF sees it set
        sent: list[int] = []

        def writer() -> None:
            view = memoryview(payload)
            try:
                while view:
                    done = os.write(writable, view[:MIB])
                    sent.append(done)
                    view = view[done:]
                if stay_open:
                    release.wait(30)
            except BrokenPipeError:
                pass  # the gate stopped reading early (a mutant) and the test closed the read end
            finally:
                closing.set()
                os.close(writable)

        thread = threading.Thread(target=writer, daemon=True)
        thread.start()
        try:
            code, out, err = self.run_gate("check", "--manifest", f"/dev/fd/{readable}", "--runs", str(runs))
            answered_open = not closing.is_set()
        finally:
            release.set()
            os.close(readable)
            thread.join(10)
        return code, out, err, answered_open, sum(sent), f"/dev/fd/{readable}"

    def test_a_pipe_past_64_mib_that_stays_open_is_refused_at_once(self) -> None:
        """A manifest given as a pipe that sends 64 MiB + 1 bytes and then stays open (no EOF): refused at once with
        "larger than 64 MiB", naming the pipe; a pipe of exactly 64 MiB (then EOF) is read, and refused for what it
        holds, not for its size. Kills the mutants of _read_bytes's bound (`while size <= cap`, `cap + 1 - size`,
        `size > cap`): one that asks for a byte more than cap + 1 waits for an EOF that never comes (the writer
        gives up after 30 s and closes the pipe, and the test fails: the gate answered after the close, not before;
        no clock is read, so a slow machine passes as a fast one does), one that stops at cap bytes parses the
        bytes instead and gives another message, one that refuses at cap bytes refuses the 64 MiB pipe."""
        if not os.path.isdir("/dev/fd"):
            self.skipTest("no /dev/fd here")
        code, out, err, answered_open, sent, pipe = self.through_a_pipe(b" " * (MANIFEST_CAP + 1), stay_open=True)
        self.assertEqual(sent, MANIFEST_CAP + 1, "the writer sent every byte: the gate read them all")
        self.assertEqual((code, out), (2, ""), err)
        self.assertEqual(err, f"gate.py: error: {pipe}: larger than {MANIFEST_CAP // MIB} MiB: "
                              "not a file the gate reads whole\n")
        self.assertTrue(answered_open, "refused before the writer closed the pipe, not after")
        exact = b"[]" + b" " * (MANIFEST_CAP - 2)  # JSON, but not a manifest: refused for that
        code, out, err, _, sent, pipe = self.through_a_pipe(exact, stay_open=False)
        self.assertEqual((code, out, sent), (2, "", MANIFEST_CAP), err)
        self.assertTrue(err.startswith(f"gate.py: error: {pipe}"), err)
        self.assertNotIn("larger than", err)

    def digest(self, text: str) -> tuple[int, str, str]:
        path = self.write_text("long.jsonl", text)
        return self.run_gate("digest", "--runs", str(path))

    def test_the_line_limit_is_exact_wherever_the_long_line_starts(self) -> None:
        """A line of exactly 8 MiB (and one of 8 MiB - 1) is read (digest prints the digest of its task ids); one of
        8 MiB + 1 byte and one
        of 9 MiB are refused with "FILE:N: line is longer than 8388608 bytes", N the long line's number. The long
        line starts at offset 0, after a short first line, and in the second 1 MiB chunk (after 1 MiB of short
        lines), in the first chunk's last byte and just after it, with and without a final newline. Kills the mutants of _chunks's check (`readline(MAX_LINE_BYTES + 1)`,
        `> MAX_LINE_BYTES`, the `rfind(b"\\n") - 1` length and the `line + body.count` line number): each moves the
        limit by a byte, measures only part of the line, or names another line."""
        short = [json.dumps(record(f"s{i:05d}", "pass")) for i in range(MIB // 70 + 2)]
        self.assertGreater(sum(len(s) + 1 for s in short), MIB, "precondition: the short lines fill the first chunk")
        leads = {"at offset 0": [], "after a short first line": short[:1], "in the second chunk": short,
                 "one byte before the first chunk ends": [line_of(MIB - 2, "s-pad")],
                 "where the first chunk ends": [line_of(MIB - 1, "s-pad")]}
        path = str(self.dir / "long.jsonl")
        for where, lead in leads.items():
            ids = [json.loads(s)["task_id"] for s in lead] + ["t-long"]
            number = len(lead) + 1
            for size in (LINE_CAP - 1, LINE_CAP, LINE_CAP + 1, 9 * MIB):
                for end in ("\n", ""):
                    with self.subTest(where=where, size=size, newline=bool(end)):
                        code, out, err = self.digest("".join(s + "\n" for s in lead) + line_of(size, "t-long") + end)
                        if size <= LINE_CAP:
                            self.assertEqual((code, err), (0, ""))
                            self.assertEqual(out, ids_digest(ids) + "\n")
                        else:
                            self.assertEqual((code, out), (2, ""))
                            self.assertEqual(err, f"gate.py: error: {path}:{number}: line is longer than {LINE_CAP} bytes\n")

    def test_the_column_of_a_truncated_record(self) -> None:
        """A runs file whose line 2 is `{"task_id": "t2` and a newline, through digest: the error names line 2 and the
        column of the newline that ends the string (the record's 16th character), named as a line that ends inside its
        record; the same record as line 1; and `{"task_id" "t2"}`, the column of the missing colon. Kills `exc.pos >=
        newline` -> `> newline` (the decoder stops exactly at the newline), `<= newline` (inside the line) and the
        mutants of the columns (`newline - pos + 1`, `exc.pos - pos + 1`)."""
        first = json.dumps(record("t1", "pass"))
        broken = '{"task_id": "t2'
        for number, lead in ((2, first + "\n"), (1, "")):  # (line 1 too: the column is counted from the line's start)
            with self.subTest(line=number):
                path = self.write_text("runs.jsonl", lead + broken + "\n")
                code, out, err = self.run_gate("digest", "--runs", str(path))
                self.assertEqual((code, out), (2, ""))
                self.assertEqual(err, f"gate.py: error: {path}:{number}: invalid JSON: the line ends inside its record "
                                      f"(column {len(broken) + 1}): is it cut short? one whole JSON object a line\n")
        bare = '{"task_id" "t2"}'  # an error inside the line: the column of "t2", where the colon should be
        column = bare.index('"t2') + 1
        path = self.write_text("runs.jsonl", first + "\n" + bare + "\n")
        self.assertEqual(self.run_gate("digest", "--runs", str(path)),
                         (2, "", f"gate.py: error: {path}:2: invalid JSON: Expecting ':' delimiter (column {column})\n"))


class DeclaredMetrics(GateCase):
    def test_a_metrics_secondary_rate_counts_scoreable_tasks_only(self) -> None:
        """valid_ledger: 29 pass, 8 fail, 3 unscoreable of 40. Each declared metric's "rate" divides by all 40 and
        its "secondary" by the 37 scoreable tasks only, with the numerator counted over those 37. Kills the mutants
        of MetricCounts.add (`if scoreable` negated or dropped, `tallies[3] += weight` / `tallies[2] += hit`
        changed), on the grouped path and on the per-task path (a metric over task_id)."""
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'"),
                               metric("fail_rate", "outcome == 'fail'"),
                               metric("lost", "outcome == 'unscoreable'"),
                               metric("not_neg", "outcome == 'pass' and task_id != 'neg-01'")]
        code, report = self.check_json(manifest, records)
        self.assertEqual(code, 0, report["findings"])
        outcomes = [r["outcome"] for r in records]
        scoreable = [r for r in records if r["outcome"] != "unscoreable"]
        self.assertEqual((len(records), len(scoreable)), (40, 37))
        want = {"pass_rate": lambda r: r["outcome"] == "pass", "fail_rate": lambda r: r["outcome"] == "fail",
                "lost": lambda r: r["outcome"] == "unscoreable",
                "not_neg": lambda r: r["outcome"] == "pass" and r["task_id"] != "neg-01"}
        got = {m["name"]: m for m in report["metrics"]}
        self.assertEqual(list(got), list(want))
        for name, oracle in want.items():
            with self.subTest(metric=name):
                k = sum(map(oracle, records))
                k2 = sum(map(oracle, scoreable))
                for key, (kk, n) in (("rate", (k, len(outcomes))), ("secondary", (k2, len(scoreable)))):
                    low, high = wilson(kk, n)
                    entry = got[name][key]
                    self.assertEqual((entry["k"], entry["n"]), (kk, n), key)
                    self.assertAlmostEqual(entry["ci_low"], low, places=9)
                    self.assertAlmostEqual(entry["ci_high"], high, places=9)
        self.assertEqual((got["pass_rate"]["secondary"]["k"], got["pass_rate"]["secondary"]["n"]), (29, 37))


class RankRefusalAndMarkdown(GateCase):
    def systems(self, plan: dict[str, tuple[int, bool]], tasks: int, task_count: int | None = None,
                confidence: str | None = None) -> list[str]:
        """One ledger per system over pos-01, t-000.., neg-01: (how many of the t- tasks pass, does neg-01 pass)."""
        ids = ["pos-01", *(f"t-{i:03d}" for i in range(tasks)), "neg-01"]
        args = []
        for name, (passes, neg) in plan.items():
            outcome = {"pos-01": "pass", "neg-01": "pass" if neg else "fail"}
            recs = [record(t, outcome.get(t, "pass" if i <= passes else "fail"), run_id=name) for i, t in enumerate(ids)]
            manifest = make_manifest(ids, claim_id=name, name="ranked-suite", envelope=dict(COMPARE_ENVELOPE),
                                     with_ids=task_count is None)
            if task_count is not None:
                manifest["dataset"]["task_count"] = task_count
            args += ["--manifest", str(self.write_json(f"{name}.json", manifest)),
                     "--runs", str(self.write_jsonl(f"{name}.jsonl", recs))]
        return args + (["--confidence", confidence] if confidence else [])

    def test_a_huge_task_count_is_refused_with_the_pairs_and_cells_counted(self) -> None:
        """task_count 40,000 over 21 recorded tasks, ranked with 3 and with 2 systems: refused, the message giving the
        declared count, the unrecorded ones, the number of pairs (C(k, 2): 3, then 1) and the cells counted
        (unrecorded x (pairs + systems)). Kills the mutants of _score_columns's `k * (k - 1) // 2` (6 pairs, 3.0
        pairs, ...) and of `+ k`, and unrecorded()'s `missing * times > MAX_UNRECORDED`."""
        for k in (3, 2):
            with self.subTest(systems=k):
                plan = dict(list({"alpha": (10, False), "beta": (5, False), "gamma": (0, False)}.items())[:k])
                args = self.systems(plan, 19, task_count=40_000)
                code, out, err = self.run_gate("rank", *args)
                pairs = math.comb(k, 2)
                missing = 40_000 - 21
                cells = pairs + k
                self.assertGreater(missing * cells, 100_000)
                self.assertEqual((code, out), (2, ""))
                self.assertEqual(err, (
                    f"gate.py: error: {self.dir / 'alpha.json'}: dataset.task_count: 40,000 declared tasks, {missing:,} of "
                    f"them with no record in any runs file: rank compares every declared task in each of its {pairs} "
                    f"pairs of systems, and more than 100,000 such cells ({missing:,} x {cells}) is not a comparison "
                    "(give the suite's real task_count, or the runs that cover it)\n"))

    def test_the_cell_bound_is_exact_and_compare_counts_no_cells(self) -> None:
        """4 systems (C(4, 2) + 4 = 10 cells a task) over 21 recorded tasks and task_count 10,021: exactly 100,000
        unrecorded cells, which is not more than the bound: ranked (its first place has 11 of 10,021). compare over a
        suite of 200,000 with 40 recorded: refused with no "(a x b)" cells (one side pair a task). Kills unrecorded()'s
        `>` -> `>=` / `!=`, `missing * times` -> `<<`, and `times > 1` -> `>= 1` / `!= 1` / `> 0`."""
        plan = {"a": (10, False), "b": (5, False), "c": (3, False), "d": (0, False)}
        self.assertEqual((10_021 - 21) * (math.comb(4, 2) + 4), 100_000)
        code, out, err = self.run_gate("rank", *self.systems(plan, 19, task_count=10_021))
        self.assertIn(code, (0, 1), err)
        self.assertRegex(out.splitlines()[0], r"^  1  a  11/10021 = ")
        ma, ra, mb, rb = paired_ledgers(20, 5, 5, 10)
        for manifest in (ma, mb):
            manifest["dataset"].pop("task_ids")
            manifest["dataset"]["task_count"] = 200_000
        code, out, err = self.run_gate("compare", "--manifest", str(self.write_json("a.json", ma)),
                                       "--runs", str(self.write_jsonl("a.jsonl", ra)),
                                       "--against-manifest", str(self.write_json("b.json", mb)),
                                       "--against-runs", str(self.write_jsonl("b.jsonl", rb)))
        self.assertEqual((code, out), (2, ""))
        self.assertEqual(err, (
            f"gate.py: error: {self.dir / 'a.json'}: dataset.task_count: 200,000 declared tasks, {200_000 - 40:,} of them "
            "with no record in any runs file: compare pairs every declared task, and more than 100,000 such cells is not "
            "a comparison (give the suite's real task_count, or the runs that cover it)\n"))

    def test_rank_markdown_with_one_blocked_system(self) -> None:
        """rank --format markdown where beta's negative control passes (beta BLOCKED, so the ranking is): the heading
        says BLOCKED, every system's row has its own k/n, value and Wilson interval and its letters, every pair is
        listed, and the findings close the page with beta's control_violated prefixed S2. No other test renders a
        ranking with findings as Markdown: kills the mutants of render_rank_markdown's findings block (`if
        rank.findings` negated, the list concatenation, which crash or drop the findings)."""
        plan = {"alpha": (34, False), "beta": (18, True), "gamma": (1, False)}
        tasks = 38
        code, out, err = self.run_gate("rank", *self.systems(plan, tasks), "--format", "markdown")
        self.assertEqual(code, 1, err)
        self.assertNotIn("Traceback", err)
        n = tasks + 2
        passes = {name: 1 + p + neg for name, (p, neg) in plan.items()}  # pos-01, the t- tasks, neg-01 if it passed
        lines = out.splitlines()
        self.assertEqual(lines[0], "### benchgate rank: **BLOCKED**, 3 systems at 95%")
        # the t- tasks are nested (a system passing more passes a superset), neg-01 passes for beta only
        passed = {name: {"pos-01", *(f"t-{i:03d}" for i in range(p)), *(["neg-01"] if neg else [])}
                  for name, (p, neg) in plan.items()}
        names = list(plan)
        ps = [float(exact_conditional(len(passed[a] - passed[b]), len(passed[b] - passed[a]))) for a, b in combinations(names, 2)]
        self.assertTrue(all(p < 0.05 for p in holm(ps)), "precondition: every pair separated, one letter each")
        table, pairs = markdown_tables(out)
        self.assertEqual(table[0], ["place", "claim", "system", "k/n", "value", "95% CI", "group"])
        order = sorted(names, key=lambda name: -passes[name])
        self.assertEqual(table[1:], [[str(place), name, "(not named)", *rate_cells(passes[name], n), "abc"[place - 1]]
                                     for place, name in enumerate(order, 1)])
        self.assertEqual([row[:2] for row in pairs[1:]], [list(pair) for pair in combinations(names, 2)])
        findings = lines[lines.index("**Findings**") + 2:]
        self.assertEqual(len(findings), 1, out)
        self.assertTrue(findings[0].startswith("- `S2:control_violated`: neg-01: expected fail, got pass"), findings)

    def test_confidence_0_999_is_printed_whole_in_rank(self) -> None:
        """rank --confidence 0.999: the heading says "at 99.9%" and the column "99.9% CI" (the `[:-3]` that cuts " CI"
        off, mutated to `[:+3]`, prints "99.")."""
        args = self.systems({"alpha": (34, False), "beta": (18, False)}, 38, confidence="0.999")
        for fmt in ("markdown", "text"):
            with self.subTest(fmt=fmt):
                code, out, err = self.run_gate("rank", *args, "--format", fmt)
                self.assertEqual(code, 0, err)
                self.assertEqual(set(re.findall(r"99\.[0-9]*%?", out)), {"99.9%"}, out)
                if fmt == "markdown":
                    self.assertEqual(out.splitlines()[0], "### benchgate rank: **PUBLISHABLE**, 2 systems at 99.9%")
                    self.assertIn("| 99.9% CI |", out)


class CheckMarkdownWithOtherRuns(GateCase):
    def test_a_pinned_run_in_markdown_names_the_other_runs(self) -> None:
        """check --run-id r1 --format markdown on a file that holds r1, r2 and r3: the card gates r1 alone (its bucket
        table and rates are r1's) and one sentence names the runs not gated with their own k/n. No test rendered it:
        kills the mutants of render_markdown's "Gated run" sentence (a crash, or the other runs left out)."""
        manifest, records = valid_ledger()
        manifest["rerun_recipe"] = "python3 gate.py --manifest m.json --runs r.jsonl --run-id r1"
        flipped = {r["task_id"] for r in records if r["outcome"] == "pass" and r["task_id"].startswith("t-")}
        r2 = [dict(r, run_id="r2", outcome="fail" if r["task_id"] in sorted(flipped)[:9] else r["outcome"])
              for r in records]
        r3 = [dict(r, run_id="r3", outcome="fail" if r["task_id"] in sorted(flipped)[:20] else r["outcome"])
              for r in records]
        code, out, err = self.check(manifest, records + r2 + r3, "--run-id", "r1", "--format", "markdown")
        self.assertEqual(code, 0, out + err)

        def passed(run: list[dict[str, Any]]) -> int:
            return sum(r["outcome"] == "pass" for r in run)

        self.assertEqual(out.splitlines()[0], "### benchgate: test-claim is **PUBLISHABLE**")
        self.assertIn(f"Gated run r1; not gated, in the same file: r2 {passed(r2)}/40; r3 {passed(r3)}/40.",
                      out.splitlines())
        self.assertEqual((passed(records), passed(r2), passed(r3)), (29, 20, 9))
        buckets, rates = markdown_tables(out)
        self.assertEqual(buckets[1:3], [["pass", "29"], ["fail", "8"]])
        self.assertEqual(rates[1], ["**pass_rate** (headline)", *rate_cells(29, 40)])
        self.assertEqual(rates[2], ["secondary: scoreable only", *rate_cells(29, 37)])


class CompareAtAnOddConfidence(GateCase):
    def compare(self, ledgers: tuple[Any, ...], *extra: str) -> tuple[int, str, str]:
        ma, ra, mb, rb = ledgers
        return self.run_gate("compare", "--manifest", str(self.write_json("a.json", ma)),
                             "--runs", str(self.write_jsonl("a.jsonl", ra)),
                             "--against-manifest", str(self.write_json("b.json", mb)),
                             "--against-runs", str(self.write_jsonl("b.jsonl", rb)), *extra)

    def test_every_sentence_prints_99_9(self) -> None:
        """compare --confidence 0.999, a significant difference and one that is not, as text and Markdown: every
        level printed is "99.9%" (the reading "at 99.9% confidence", the Markdown heading "at 99.9%", each interval
        "99.9% CI"), never "99." — kills `_pct(conf)[:-3]` -> `[:+3]` in _compare_sentences and in
        render_compare_markdown (at 95% the two agree: "95% CI"[:3] is "95%")."""
        cases = {"significant": (paired_ledgers(10, 30, 0, 10), "A - B is significant on this suite and envelope at "
                                 "99.9% confidence", "A - B is significant at 99.9% on this suite and envelope"),
                 "not distinguishable": (paired_ledgers(20, 3, 1, 20), "not distinguishable at 99.9% confidence",
                                         "A and B are not distinguishable at 99.9%")}
        for name, (ledgers, reading, head) in cases.items():
            for fmt in ("text", "markdown"):
                with self.subTest(case=name, fmt=fmt):
                    code, out, err = self.compare(ledgers, "--confidence", "0.999", "--format", fmt)
                    self.assertEqual(code, 0, err)
                    self.assertEqual(set(re.findall(r"99\.[0-9]*%?", out)), {"99.9%"}, out)
                    self.assertIn(reading, out)
                    if fmt == "text":
                        self.assertEqual(out.count("99.9% CI ["), 3)  # A, B and the difference
                    else:
                        self.assertTrue(out.splitlines()[0].endswith(head), out.splitlines()[0])
                        self.assertIn("| run | k/n | value | 99.9% CI |", out)
                        self.assertEqual(out.count("99.9% CI ["), 1)  # the difference (the table has the header)


class SwebenchReports(ImportCase):
    def test_a_file_that_is_no_report_is_refused_with_its_reason(self) -> None:
        """`{"instances": 3}`: no id list and no sb-cli count: refused as "not a SWE-bench run report", not read as a
        report with an unknown key. Kills the mutants of the dispatch in _swebench_import (`set(data) & {...}` ->
        `|`, `not` dropped) that send it down another branch and another message."""
        path = self.write_json("instances.json", {"instances": 3})
        code, out, err = self.run_gate("import", "swebench", str(path))
        self.assertEqual((code, out), (2, ""))
        self.assertEqual(err, f"gate.py: error: {path}: not a SWE-bench run report (no resolved_ids / resolved lists) "
                              "nor an experiments results.json (no 'resolved')\n")

    def test_a_count_that_contradicts_its_list_is_refused_naming_both(self) -> None:
        """A real report whose unresolved_instances is one more than unresolved_ids holds; and a fork's report
        (`resolved`, no resolved_ids) whose resolved_instances contradicts it: refused, naming the count, the list
        and both numbers, whether the count says more or fewer; a report of 300 unresolved ids whose counts agree
        imports every id. Kills the mutants of _swebench_report_lists's count check (`stated != len(...)` negated,
        `>`, `is not` (equal counts past 256 are distinct int objects), the `list_key in data or list_key ==
        "resolved_ids"` condition)."""
        data = load(SWE_REPORT)
        listed = len(data["unresolved_ids"])
        self.assertEqual(data["unresolved_instances"], listed, "precondition: the real report agrees with itself")
        data["unresolved_instances"] = listed + 1
        fork = {"resolved": ["a__a-1", "b__b-2"], "unresolved_ids": ["c__c-3"], "resolved_instances": 3}
        fewer = dict(data, unresolved_instances=listed - 1)
        for name, report, key, stated, held in (("edited.json", data, "unresolved", listed + 1, listed),
                                                ("fewer.json", fewer, "unresolved", listed - 1, listed),
                                                ("fork.json", fork, "resolved", 3, 2)):
            with self.subTest(report=name):
                path = self.write_json(name, report)
                code, out, err = self.run_gate("import", "swebench", str(path))
                self.assertEqual((code, out), (2, ""))
                self.assertEqual(err, f"gate.py: error: {path}: {key}_instances is {stated} but {key}_ids has {held} "
                                      "ids: the report contradicts itself; import the harness's own report, unedited\n")
        unresolved = [f"org__repo-{i}" for i in range(300)]  # counts past 256: equal ints that are not one object
        big = self.write_json("big.json", {"resolved_ids": ["a__a-1", "b__b-2"], "unresolved_ids": unresolved,
                                           "resolved_instances": 2, "unresolved_instances": 300, "total_instances": 302})
        records = self.imp("swebench", str(big))
        self.assertEqual(sorted((r["task_id"], r["outcome"]) for r in records),
                         sorted([("a__a-1", "pass"), ("b__b-2", "pass"), *((t, "fail") for t in unresolved)]))


class InspectRetry(ImportCase):
    def logs(self, folder: Path) -> list[Path]:
        return sorted(p for p in folder.glob("*.json") if p.name not in ("eval-set.json", "logs.json"))

    def test_an_errored_then_a_finished_log_imports_the_finished_one(self) -> None:
        """rules/retry: task_retry's errored log (created 01:22:05) and its finished retry (01:22:06). The finished
        log's samples are imported (sample 1, errored in the first log, passes) with its run id, and a note and the
        draft record the retry. Then the two creation times swapped (the errored log now the later): refused, naming
        both files, and so with each log under the other's file name (the order is the clock's, not the names'). Two
        errored tries then the finished one: the finished one imported, both tries recorded. Then the errored log's creation time written with an offset (+01:00, the same instant as
        before): the same import as the first. Kills the mutants of _inspect_choose (`finished[0] is not group[-1]`,
        `group[-1]` as the best, `is not` -> `>`, `group[-1]` -> `group[1]`) and _inspect_created (`tzinfo is None`, the sort key)."""
        errored, finished = self.logs(RETRY)
        err_log, fin_log = load(errored), load(finished)
        self.assertEqual((err_log["status"], fin_log["status"]), ("error", "success"))
        want = [(str(s["id"]), {"C": "pass", "I": "fail"}[s["scores"]["includes"]["value"]], s["uuid"])
                for s in fin_log["samples"]]
        self.assertEqual(want[0][1], "pass")
        self.assertIsNotNone(err_log["samples"][0].get("error"), "precondition: sample 1 errored in the first log")

        def imported(folder: Path) -> None:
            code, out, err = self.run_gate("import", "inspect", str(folder))
            self.assertEqual(code, 0, err)
            records = [json.loads(line) for line in out.splitlines()]
            self.assertEqual([(r["task_id"], r["outcome"], r["harness"]["uuid"]) for r in records], want)
            self.assertEqual({r["run_id"] for r in records}, {fin_log["eval"]["run_id"]})
            self.assertIn(f"gate.py: note: task retried: {errored.name} (status error) replaced by its retry "
                          f"{finished.name}\n", err)

        imported(RETRY)
        swapped = self.dir / "swapped"
        shutil.copytree(RETRY, swapped)
        first, second = err_log["eval"]["created"], fin_log["eval"]["created"]
        self.assertLess(first, second)
        for path, created in ((swapped / errored.name, second), (swapped / finished.name, first)):
            log = load(path)
            log["eval"]["created"] = created
            path.write_text(json.dumps(log), encoding="utf-8")
        code, out, err = self.run_gate("import", "inspect", str(swapped))
        self.assertEqual((code, out), (2, ""))
        self.assertEqual(err, f"gate.py: error: import inspect: task 'task_retry': {errored.name} (status error) was "
                              f"written after the finished {finished.name}: a retry comes after the log it replaces; "
                              "import the one the claim is about\n")
        renamed = self.dir / "renamed"  # the same timeline, each log under the other's file name
        shutil.copytree(swapped, renamed)
        (renamed / errored.name).write_bytes((swapped / finished.name).read_bytes())
        (renamed / finished.name).write_bytes((swapped / errored.name).read_bytes())
        code, out, err = self.run_gate("import", "inspect", str(renamed))
        self.assertEqual((code, out), (2, ""))
        self.assertEqual(err, f"gate.py: error: import inspect: task 'task_retry': {finished.name} (status error) was "
                              f"written after the finished {errored.name}: a retry comes after the log it replaces; "
                              "import the one the claim is about\n")
        three = self.dir / "three"  # two errored tries, then the finished retry: the last one is imported
        shutil.copytree(RETRY, three)
        earlier = dict(err_log, eval=dict(err_log["eval"], created=first.replace(":05+", ":04+")))
        self.assertLess(earlier["eval"]["created"], first)
        early = errored.name.replace("-05-00-00_", "-04-00-00_")
        (three / early).write_text(json.dumps(earlier), encoding="utf-8")
        code, out, err = self.run_gate("import", "inspect", str(three))
        self.assertEqual(code, 0, err)
        self.assertEqual([(json.loads(line)["task_id"], json.loads(line)["outcome"]) for line in out.splitlines()],
                         [row[:2] for row in want])
        self.assertEqual([line for line in err.splitlines() if "task retried" in line],
                         [f"gate.py: note: task retried: {name} (status error) replaced by its retry {finished.name}"
                          for name in (early, errored.name)])
        offset = self.dir / "offset"
        shutil.copytree(RETRY, offset)
        log = load(offset / errored.name)
        self.assertTrue(first.endswith("+00:00"), first)
        hour = int(first[11:13])
        log["eval"]["created"] = f"{first[:11]}{hour + 1:02d}{first[13:-6]}+01:00"  # the same instant, written at +01:00
        self.assertGreater(log["eval"]["created"], second, "precondition: as strings, the errored log sorts last")
        (offset / errored.name).write_text(json.dumps(log), encoding="utf-8")
        imported(offset)


class TerminalBenchAttempts(RealFileCase):
    def test_two_runs_of_two_attempts_number_attempts_run_by_run(self) -> None:
        """Two droid runs of the leaderboard, each made a run of two attempts a task (trial_name N-of-2, n_attempts 2,
        each trial its own uuid), given in the reverse of their start order: one samples-mode claim of budget 4 where
        attempt N of the k-th run by start time is attempt (k - 1) * 2 + N. Kills the mutants of the attempt
        numbering across runs (the offset `index * attempts`, the `+ n`)."""
        runs = sorted(self.tb_runs(DROID)[:2], key=lambda run: load(run / "run_metadata.json")["start_time"])
        trials: dict[tuple[str, int], dict[str, Any]] = {}
        for index, run in enumerate(runs):
            meta, results = load(run / "run_metadata.json"), load(run / "results.json")
            twice = []
            for trial in results["results"]:
                for n in (1, 2):
                    copy = dict(trial, trial_name=trial["trial_name"].replace(".1-of-1", f".{n}-of-2"),
                                id=f"{trial['id'][:-4]}{index}{n:03d}")
                    if n == 2 and isinstance(trial["is_resolved"], bool):
                        copy["is_resolved"] = not trial["is_resolved"]  # the two attempts differ, so which is which shows
                    twice.append(copy)
                    trials[(trial["task_id"], index * 2 + n)] = copy
            results["results"] = twice
            meta["n_attempts"] = 2
            (run / "run_metadata.json").write_text(json.dumps(meta, indent=4))
            (run / "results.json").write_text(json.dumps(results, indent=4))
        self.assertEqual(len({t["id"] for t in trials.values()}), len(trials), "precondition: distinct uuids")
        imp = self.import_ok("terminal-bench", *map(str, reversed(runs)), "--one-instrument")
        self.assertEqual((imp.draft["attempt_mode"], imp.draft["attempt_budget"]), ("samples", 4))
        self.assertEqual(len(imp.records), len(trials))
        ids = [load(run / "run_metadata.json")["run_id"] for run in runs]
        for rec in imp.records:
            trial = trials[(rec["task_id"], rec["attempt"])]
            self.assertEqual((rec["harness"]["trial_name"], rec["harness"]["id"], rec["harness"]["run_id"]),
                             (trial["trial_name"], trial["id"], ids[(rec["attempt"] - 1) // 2]), rec)
            expected = {True: "pass", False: "fail"}.get(trial["is_resolved"], "unscoreable")
            self.assertEqual(rec["outcome"], expected, rec)


class FailedFork(GateCase):
    def test_a_fork_that_fails_falls_back_to_one_process(self) -> None:
        """check --jobs 3 where os.fork fails (EAGAIN: the process limit): the parent closes the pipe, reads the file
        in one process and prints the same report as without --jobs (the size floors of the fast path and of the
        workers set to 0, as tests/test_canonical_path.py does, so a small file is split); it never calls os._exit (patched here to fail
        the test instead of ending the test run). Kills _fork_worker's `finally: if pid == 0` -> `pid <= 0`, which
        ends the parent with exit 0 (an unwritten report read as success) when the fork fails: pid is still -1.
        (Found by the end-to-end sample of run.sh, seed 20261202.)"""
        manifest, records = valid_ledger()
        plain = self.check(manifest, records)
        self.assertEqual(plain[0], 0, plain)
        with mock.patch.object(gate, "_FAST_MIN_BYTES", 0), mock.patch.object(gate, "_JOBS_MIN_BYTES", 0), \
                mock.patch.object(os, "fork", side_effect=OSError(11, "Resource temporarily unavailable")) as fork, \
                mock.patch.object(os, "_exit", side_effect=AssertionError("os._exit called in the parent")):
            self.assertEqual(self.check(manifest, records, "--jobs", "3"), plain)
        self.assertGreater(fork.call_count, 0, "precondition: the file was split between workers")

    def test_a_fork_that_fails_leaves_no_pipe_open(self) -> None:
        """The pipe made for a worker whose fork failed is closed, both ends, before the error goes up: a gate
        that retries or runs on (a long CI job, the test suite) must not leak two descriptors a failed fork."""
        made: list[int] = []
        real_pipe = os.pipe

        def pipe() -> tuple[int, int]:
            ends = real_pipe()
            made.extend(ends)
            return ends

        with mock.patch.object(os, "pipe", side_effect=pipe), \
                mock.patch.object(os, "fork", side_effect=OSError(11, "Resource temporarily unavailable")), \
                self.assertRaises(OSError):
            gate._fork_worker()
        self.assertEqual(len(made), 2)
        for fd in made:
            with self.assertRaises(OSError, msg=f"descriptor {fd} left open"):
                os.fstat(fd)


class UsageAndProgramName(GateCase):
    def test_check_without_runs_is_a_usage_error_naming_runs(self) -> None:
        """`check --manifest M` and the bare `--manifest M` without --runs: exit 2 and one line that names --runs (the
        mutant `required=True` -> False on --runs reaches run_check with no runs file: exit 3, a bug)."""
        manifest = self.write_json("m.json", valid_ledger()[0])
        for argv in (["check", "--manifest", str(manifest)], ["--manifest", str(manifest)]):
            with self.subTest(argv=argv[0]):
                code, out, err = self.run_gate(*argv)
                self.assertEqual((code, out), (2, ""))
                self.assertEqual(err, "gate.py: error: check: the following arguments are required: --runs "
                                      "(see check --help)\n")

    def run_as(self, argv0: str, *argv: str) -> tuple[int, str, str]:
        """gate.main() as the command line calls it: no argv, so it reads sys.argv, whose first item is argv0."""
        out, err = io.StringIO(), io.StringIO()
        with mock.patch.object(sys, "argv", [argv0, *argv]), contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(err):
            code = gate.main()
        return code, out.getvalue(), err.getvalue()

    def test_the_program_is_named_as_invoked(self) -> None:
        """The installed command `benchgate` names itself `benchgate` (errors, and the commands a finding gives:
        `benchgate digest`); a script saved as mygate.py is `python3 mygate.py`; a name that is neither (`-c`, or
        an empty argv[0]) is `gate.py`. tests/test_cli.py's HowTheUserAskedIt covers only the .py copy, which
        leaves `name == "benchgate"` -> `!=` and the `prog.endswith(".py")` branch of main alive: this kills them,
        and the mutants of `if argv is None` (the runner's own argv[0] would be the name)."""
        manifest, records = valid_ledger()
        manifest["dataset"]["task_ids_sha256"] = "replace-with-digest-from-gate"
        m, r = self.write_json("m.json", manifest), self.write_jsonl("r.jsonl", records)
        for argv0, prog, command in (("/usr/local/bin/benchgate", "benchgate", "benchgate"),
                                     (str(self.dir / "mygate.py"), "mygate.py", "python3 mygate.py"),
                                     ("-c", "gate.py", "python3 gate.py"), ("", "gate.py", "python3 gate.py")):
            with self.subTest(argv0=argv0):
                code, out, err = self.run_as(argv0, "--manifest", str(self.dir / "none.json"), "--runs", str(r))
                self.assertEqual(code, 2)
                self.assertTrue(err.startswith(f"{prog}: error: "), err)
                code, out, err = self.run_as(argv0, "--manifest", str(m), "--runs", str(r))
                self.assertEqual(code, 1, err)
                self.assertIn(f"the digest comes from `{command} digest --runs RUNS`", out)
                self.assertEqual(re.findall(r"`((?:python3 )?\S+) digest", out), [command], out)
        self.assertEqual(gate.invoked(), "python3 gate.py")  # set back by the last run


if __name__ == "__main__":
    import unittest

    unittest.main()


# The survivors of two samples, by what they check: seed 20261202 (200 of 25,038 mutants, gate.py at c8b36fd)
# and the cosmic-ray run on gate.py at 3cddd35 (batches 1 and 2); line numbers in docstrings are those commits'.


class InputTextEdges(GateCase):
    """Input text and files: escapes, quoting, line numbers, nesting, a file under a write lease."""

    def test_a_mapping_that_nests_past_the_stack_is_named_by_its_first_40_characters(self) -> None:
        """Under a low recursion limit, a predicate 300 `not`s deep is refused as nesting too deeply, quoting its
        first 40 characters. Kills `source[:41]` for `source[:40]` in compile_mapping (gate.py:8171 at c8b36fd);
        within the 2,000-character limit the interpreter's own stack is deep enough, so only this reaches it."""
        import sys

        source = "not " * 300 + "ok"
        limit = sys.getrecursionlimit()
        try:
            sys.setrecursionlimit(250)
            with self.assertRaises(gate.MetricError) as raised:
                gate.compile_mapping(source, False)
        finally:
            sys.setrecursionlimit(limit)
        self.assertEqual(str(raised.exception), f"{source[:40]!r}... nests too deeply")

    def test_a_json_document_the_decoder_gives_up_on_is_an_input_error(self) -> None:
        """The decoder may give up with RecursionError within the gate's own 500 levels (3.9 to 3.11's C scanner
        follows a recursion limit lowered by whoever runs the gate; made to here, as 3.12 no longer does): no
        duplicate key, NaN or overflowing number explains it, and it is still one input error naming the file and
        its line, never a crash of the scan that looks for the cause past the end of the text."""
        text = "[" * 150 + "]" * 150
        with mock.patch.object(gate._DECODER, "decode", side_effect=RecursionError("maximum recursion depth")), \
                self.assertRaises(gate.GateError) as raised:
            gate.parse_json(text, "x.json")
        self.assertRegex(str(raised.exception), r"^x\.json:1: invalid JSON: .* \(column 1\)$")

    def test_a_parser_that_gives_up_on_a_mapping_is_an_input_error(self) -> None:
        """ast.parse may raise MemoryError or RecursionError on an expression too complex for the parser
        (its documentation says so); each, like a syntax error, is `cannot parse` the expression, never a
        crash. Within the 2,000-character limit no expression reaches them here, so the parser is made to."""
        import ast

        for error in (MemoryError(), RecursionError("too deep"), SyntaxError("bad"), ValueError("nul")):
            with self.subTest(error=type(error).__name__), mock.patch.object(ast, "parse", side_effect=error), \
                    self.assertRaisesRegex(gate.MetricError, r"^cannot parse 'a == 1': "):
                gate.compile_mapping("a == 1", False)

    def test_a_non_printable_astral_character_is_escaped_with_eight_digits(self) -> None:
        """U+E0001 (LANGUAGE TAG, a format character) is shown as \\U000e0001, U+FFFF as \\uffff. Kills `code !=
        0x10000` for `code < 0x10000` in _escape_char (gate.py:5283 at c8b36fd), which wrote \\ue0001."""
        self.assertEqual(gate.visible("a\U000e0001b"), "a\\U000e0001b")
        self.assertEqual(gate.visible("\uffff"), "\\uffff")

    def test_two_lone_low_surrogates_in_a_row_are_named_on_their_line(self) -> None:
        """A manifest whose line 5 holds "\\udc00\\udc00" (two low halves, no high one): refused naming m.json:5.
        Kills `code <= 56320` for `code <= 0xDBFF` in _lone_surrogate (gate.py:379 at 3cddd35), which took the
        first \\udc00 for a high half, paired it with the second and found no lone half (so named line 1)."""
        manifest, _ = valid_ledger()
        text = json.dumps(manifest, indent=2).splitlines()
        text.insert(4, '  "x-bad": "\\udc00\\udc00",')
        m = self.write_text("m.json", "\n".join(text) + "\n")
        r = self.write_text("r.jsonl", "")
        code, out, err = self.run_gate("--manifest", str(m), "--runs", str(r))
        self.assertEqual((code, out), (2, ""))
        self.assertEqual(err.splitlines()[0], f"gate.py: error: {m}:5: a string holds a lone UTF-16 surrogate "
                                              "(\\ud800-\\udfff): not valid Unicode")

    def test_a_regular_file_under_a_write_lease_is_waited_for(self) -> None:
        """A manifest another holder keeps a write lease on: opening it breaks the lease, the holder lets go when
        told (SIGIO) and the gate reads it (PUBLISHABLE). Only a FIFO is opened O_NONBLOCK; a regular file so opened
        is refused at once with EAGAIN. Kills `hasattr(os, "O_NONBLOCK") or stat.S_ISFIFO(...)` for `and` in
        open_input (gate.py:446 at 3cddd35)."""
        if not sys.platform.startswith("linux"):
            self.skipTest("file leases (F_SETLEASE) are Linux's")
        import fcntl
        import signal

        manifest, records = valid_ledger()
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_jsonl("runs.jsonl", records)
        fd = os.open(m, os.O_RDWR)
        told: list[int] = []

        def let_go(signum: int, _frame: Any) -> None:
            told.append(signum)
            fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)

        before = signal.signal(signal.SIGIO, let_go)
        try:
            try:
                fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK)
            except OSError as exc:
                self.skipTest(f"no write lease here: {exc}")
            code, out, err = self.run_gate("--manifest", str(m), "--runs", str(r))
        finally:
            signal.signal(signal.SIGIO, before)
            os.close(fd)
        self.assertEqual(code, 0, err)
        self.assertIn("verdict     : PUBLISHABLE", out)
        self.assertEqual(told, [signal.SIGIO])

    def test_a_long_claim_is_quoted_by_its_first_20_characters(self) -> None:
        """--claim with 46 characters: refused quoting its first 20 and `...`. Kills `raw[:21]` for `raw[:20]` in
        parse_claim (gate.py:6259 at 3cddd35)."""
        claim = "0123456789abcdefghijKLMNOPQRSTUVWXYZ0123456789"
        code, out, err = self.check(*valid_ledger(), "--claim", claim)
        self.assertEqual((code, out), (2, ""))
        self.assertEqual(err.splitlines()[0],
                         "gate.py: error: --claim: 0123456789abcdefghij...: a claimed rate has at most 40 characters")

    def test_another_run_ending_the_file_without_a_newline_is_named(self) -> None:
        """A file of runs r1 (gated, the manifest's run_id) then r2, its last line with no newline: the report names
        r2 with its own k/n. Kills `raw & b"\\n"` for `raw + b"\\n"` in _runs_apart (gate.py:6507 at 3cddd35),
        a TypeError on the unterminated last line."""
        manifest, records = valid_ledger()
        manifest["run_id"] = "r1"
        fails = {r["task_id"] for r in records if r["outcome"] == "pass" and r["task_id"].startswith("t-")}
        r2 = [dict(r, run_id="r2", outcome="fail" if r["task_id"] in sorted(fails)[:9] else r["outcome"])
              for r in records]
        m = self.write_json("bench.manifest.json", manifest)
        runs = self.write_text("runs.jsonl", "\n".join(json.dumps(r) for r in records + r2))
        code, out, err = self.run_gate("--manifest", str(m), "--runs", str(runs), "--format", "json")
        self.assertEqual(code, 0, err)
        report = json.loads(out)
        passed = sum(r["outcome"] == "pass" for r in r2)
        self.assertEqual(passed, 20)
        self.assertEqual(report["runs"]["gated"], "r1")
        self.assertEqual([(x["run_id"], x["headline"]["k"], x["headline"]["n"]) for x in report["runs"]["ignored"]],
                         [("r2", passed, 40)])


class StatisticsEdges(GateCase):
    """Statistics at their edges: degrees of freedom, tails, the wild cluster bootstrap, exact intervals."""

    def test_a_wild_bootstrap_interval_that_does_not_reject_holds_zero_whatever_the_rounding(self) -> None:
        """Three clusters of 10^6 tasks whose mean differences agree to 2e-6: t is about 10^6, but three clusters'
        eight sign patterns cannot reach alpha, so the test does not reject and the interval must hold 0. Its low
        end, mean − c·SE at c = the observed t, rounds to +1.1e-16 here: it is 0 exactly (min(low, 1.0) left it
        above 0, an interval that excludes 0 beside a test that does not reject)."""
        test = gate.wild_cluster_test([777195.0, 777197.0, 777195.0], [10**6] * 3, 0.95)
        self.assertEqual(test.p_value, 0.25)
        self.assertEqual(test.low, 0.0)
        self.assertGreater(test.high, 0.777)
        # B ahead by the same: the high end, mean + c.SE, rounds to -1.1e-16; it is 0 exactly
        test = gate.wild_cluster_test([-777195.0, -777197.0, -777195.0], [10**6] * 3, 0.95)
        self.assertEqual((test.p_value, test.low, test.high), (0.25, -1.0, 0.0))

    def test_clusters_that_agree_exactly_have_no_standard_error(self) -> None:
        """Every cluster's difference the same and positive: SE 0, so t is infinite (the observed pattern is the
        most extreme: p = 2/2^G, the two one-signed patterns); all of them 0: t 0, p 1, the interval [0, 0]."""
        for sums, p in (([2.0, 2.0, 2.0], 0.25), ([1.0, 1.0, 1.0, 1.0], 0.125), ([-2.0, -2.0, -2.0], 0.25)):
            test = gate.wild_cluster_test(sums, [2] * len(sums), 0.95)
            self.assertEqual((test.z, test.p_value, test.se), (math.inf, p, 0.0), sums)
        test = gate.wild_cluster_test([0.0, 0.0, 0.0], [1, 1, 1], 0.95)
        self.assertEqual((test.low, test.high, test.z, test.p_value), (0.0, 0.0, 0.0, 1.0))

    def test_the_binomial_window_stops_at_1e_17_of_its_largest_term(self) -> None:
        """The terms kept on each side run down to the first below 1e-17 of the mode's (relative, whatever the
        mode's own size), or to 0 or n; they sum to 1 (to lgamma's digits)."""
        for n, psi in ((10**6, 0.3), (10**5, 0.01), (4000, 0.5), (300, 0.99), (50, 0.2)):
            low, probs = gate._binomial_window(n, psi)
            top, cut = max(probs), 1e-17 * max(probs)
            if low > 0:
                self.assertTrue(probs[0] < cut <= probs[1], (n, psi))
            if low + len(probs) - 1 < n:
                self.assertTrue(probs[-1] < cut <= probs[-2], (n, psi))
            self.assertAlmostEqual(math.fsum(probs), 1.0, delta=1e-9)  # (lgamma's digits at n = 10^6)
            self.assertLess(top, 0.02 if n >= 10**5 else 1.0)  # (so an absolute 1e-17 would cut short)

    def test_one_cluster_is_no_evidence_either_way(self) -> None:
        """No cluster, or one: no sign pattern to refer t to, so p is 1 and the interval is the whole of
        [-1, 1], whatever the one cluster's difference."""
        for sums, sizes in (([], []), ([5.0], [10]), ([-5.0], [10])):
            test = gate.wild_cluster_test(sums, sizes, 0.95)
            self.assertEqual((test.low, test.high, test.z, test.p_value, test.critical),
                             (-1.0, 1.0, 0.0, 1.0, math.inf), sums)

    def clustered_compare(self, xs: list[int], ys: list[int], repos: list[str]) -> dict[str, Any]:
        """`compare --by-cluster --format json` of A's and B's one-sample verdicts on tasks in these clusters (exit 0)."""
        ma, ra, mb, rb = paired_samples(xs, ys, 1, clusters=repos)
        paths = [self.write_json("a.json", ma), self.write_jsonl("a.jsonl", ra), self.write_json("b.json", mb),
                 self.write_jsonl("b.jsonl", rb)]
        code, out, err = self.run_gate("compare", "--manifest", str(paths[0]), "--runs", str(paths[1]),
                                       "--against-manifest", str(paths[2]), "--against-runs", str(paths[3]),
                                       "--by-cluster", "--format", "json")
        self.assertEqual(code, 0, err)
        report: dict[str, Any] = json.loads(out)
        return report

    def test_two_tasks_two_runs_satterthwaite_df(self) -> None:
        """2 tasks x 2 runs, 2 samples each: r1 passes 0 and 0, r2 passes 1 and 2 (cells 0, 0, 1/2, 1). MS_task
        1/16, MS_run 9/16, MS_resid 1/16: the run term enters, and Satterthwaite's df is (1/16 + 8/16)^2 /
        ((1/16)^2/1 + (9/16)^2/1 + (1/16)^2/1) = 81/83. Kills `max(2, (T-1)(R-1))` for `max(1, ...)` in
        crossed_size (gate.py:2005 at c8b36fd): 162/165."""
        ids = ["t1", "t2"]
        manifest = make_manifest(ids, controls=[], replicates=["r1", "r2"], attempt_mode="samples", attempt_budget=2)
        passes = {("r1", "t1"): 0, ("r1", "t2"): 0, ("r2", "t1"): 1, ("r2", "t2"): 2}
        records = [record(t, "pass" if a <= passes[(run, t)] else "fail", attempt=a, run_id=run)
                   for run in ("r1", "r2") for t in ids for a in (1, 2)]
        _, report = self.check_json(manifest, records)
        self.assertEqual(report["replicates"]["df_method"], "satterthwaite")
        self.assertAlmostEqual(report["replicates"]["df"], 81 / 83, places=12)

    def test_every_pair_b_only_has_the_interval_down_to_minus_one(self) -> None:
        """B alone passes on all 10 pairs: the difference is -1 and Tango's interval reaches -1 exactly. (The
        survivor `c > n` for `c >= n` in tango_interval, gate.py:2064 at c8b36fd, is equivalent: at c = n the root
        it then solves for is -1.0 to the bit, n = 1..299 at 90/95/99%; this pins the figure both give.)"""
        low, high = gate.tango_interval(0, 10, 10, 0.95)
        self.assertEqual(low, -1.0)
        self.assertLess(high, 0.0)

    def test_chi2_sf_continued_fraction_to_full_precision(self) -> None:
        """chi2_sf where x >= df + 2 (the continued fraction) equals the closed forms to relative 1e-14: the
        Poisson tail e^(-x/2) sum_{i<df/2} (x/2)^i/i! for even df, erfc(sqrt(x/2)) for df 1. Kills `abs(d % c -
        1.0)` for `abs(d * c - 1.0)` in chi2_sf (gate.py:2270 at 3cddd35): never stopping at convergence, the
        fraction runs its 100,000 terms and drifts by 4e-13 to 6e-12."""
        def closed(x: float, df: int) -> float:
            if df == 1:
                return math.erfc(math.sqrt(x / 2))
            return math.exp(-x / 2) * math.fsum((x / 2) ** i / math.factorial(i) for i in range(df // 2))

        for x, df in ((4.0, 2), (6.0, 4), (8.0, 6), (10.0, 6), (3.0, 1), (6.5, 1), (10.0, 1)):
            with self.subTest(x=x, df=df):
                want = closed(x, df)
                self.assertLess(abs(gate.chi2_sf(x, df) - want), 1e-14 * want)

    def test_the_wild_cluster_t_is_the_cr1_t(self) -> None:
        """compare --by-cluster over 5 clusters (4 repositories and the controls'): the JSON's test.z is the
        cluster-robust t, mean / SE_CR1 with SE_CR1² = G/(G − 1) Σ_g (S_g − n_g mean)² / T², computed here in
        exact fractions. Kills `count * (count - 1)` for `count / (count - 1)` in _cluster_t (gate.py:2880 at
        3cddd35), which scales every t by 1/(G − 1): the same p and interval, a t a quarter of the right one."""
        xs = [1, 1, 0, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1]
        ys = [1, 0, 0, 1, 0, 1, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 1]
        repos = ["django"] * 9 + ["flask"] * 3 + ["sympy"] * 5 + ["requests"] * 3
        report = self.clustered_compare(xs, ys, repos)
        # the controls (pos-01 passed by both, neg-01 by neither) are one more cluster, with differences 0
        diffs = [Fraction(x - y) for x, y in zip([1, *xs, 0], [1, *ys, 0])]
        clusters = ["ctl", *repos, "ctl"]
        names = list(dict.fromkeys(clusters))
        sums = [sum((d for d, g in zip(diffs, clusters) if g == name), Fraction(0)) for name in names]
        sizes = [clusters.count(name) for name in names]
        tasks, count = len(diffs), len(names)
        mean = sum(sums, Fraction(0)) / tasks
        spread = sum(((s - n * mean) ** 2 for s, n in zip(sums, sizes)), Fraction(0))
        t = float(mean) / (math.sqrt(float(Fraction(count, count - 1) * spread)) / tasks)
        self.assertEqual((report["clusters"], report["test"]["method"]), (5, "wild_cluster_bootstrap"))
        self.assertAlmostEqual(report["test"]["z"], t, places=12)
        self.assertAlmostEqual(t, 4.112967888808, places=9)  # (6/22) / (sqrt(5/4 · 206/121) / 22)

    def test_the_discordance_grid_windows_are_the_binomial_above_1e_17_of_its_mode(self) -> None:
        """Three discordances (n = 40, 60, 100, where the window starts above d = 0) of the windows the planning
        figure's power sums (table_power): each window's probabilities are Binomial(n, ψ)'s to 1e-13 (exact
        fractions of the float ψ), it holds every d whose probability is at least 1e-17 of the mode's and, on each
        side, the first one below and no more. Kills, in _binomial_window, `int((n + 0) * psi)` and `int((n / 1) *
        psi)` for `int((n + 1) * psi)` (a mode one too low: a lower threshold, one more term on a side) and `value !=
        1e-17 * top` for `value >= 1e-17 * top` (the window down to d = 0)."""
        for n, i, first, size in ((40, 41, 18, 23), (60, 25, 1, 60), (100, 50, 63, 38)):
            with self.subTest(n=n):
                steps = max(48, int(6 * math.sqrt(n)))
                psi = math.sin(math.pi / 2 * i / steps) ** 2
                exact = Fraction(psi)
                pmf = [math.comb(n, d) * exact ** d * (1 - exact) ** (n - d) for d in range(n + 1)]
                mode = max(range(n + 1), key=pmf.__getitem__)
                below = [d for d in range(n + 1) if pmf[d] * 10 ** 17 < pmf[mode]]
                low = max((d for d in below if d < mode), default=0)
                high = min((d for d in below if d > mode), default=n)
                got_first, probs = gate._binomial_window(n, psi)
                self.assertEqual((got_first, got_first + len(probs) - 1), (low, high))
                self.assertEqual((low, high - low + 1), (first, size))
                for d, value in enumerate(probs, start=got_first):
                    self.assertLess(abs(Fraction(value) / pmf[d] - 1), Fraction(1, 10 ** 13), d)

    def test_clusters_that_each_cancel_are_no_evidence(self) -> None:
        """compare --by-cluster where in each of 4 clusters (the controls' one included) A's passes over B's sum to
        0: every sign pattern's t is 0, so p = 1, t = 0 and the interval is [0, 0], the oracle's wild cluster
        bootstrap. Kills `-1.0 if total == 0` for `0.0 if total == 0` in wild_cluster_test's t_of (gate.py:2898
        at 3cddd35): every t is then -1, none reaches the observed -1 x (1 - 1e-12), so p = 0, significant."""
        xs, ys = [1, 0, 1, 0, 1, 1, 0, 0], [0, 1, 0, 1, 1, 1, 0, 0]
        repos = ["django"] * 2 + ["flask"] * 2 + ["sympy"] * 4
        report = self.clustered_compare(xs, ys, repos)
        diffs = [Fraction(x - y) for x, y in zip([1, *xs, 0], [1, *ys, 0])]
        self.assertEqual(wild_cluster(diffs, ["ctl", *repos, "ctl"]), (0.0, 0.0, 0.0, 1.0))
        self.assertEqual(report["clusters"], 4)
        self.assertEqual((report["test"]["z"], report["test"]["p"]), (0.0, 1.0))
        self.assertEqual((report["difference"]["value"], report["difference"]["ci_low"],
                          report["difference"]["ci_high"]), (0.0, 0.0, 0.0))
        self.assertIs(report["significant"], False)

    def test_the_wild_cluster_interval_stops_at_plus_one(self) -> None:
        """compare --by-cluster over the controls' cluster and two more (flask: one task A alone passes; django:
        two): A - B = 3/5, p = 1/2 (4 of 8 patterns), so the critical t is the observed one and the interval's top
        end, mean + t·SE = 2 x 3/5, is cut to 1, the oracle's. Kills `min(2.0, mean + critical * se)` for
        `min(1.0, ...)` in wild_cluster_test (gate.py:2915 at 3cddd35), whose interval reaches 1.2."""
        xs, ys, repos = [1, 1, 1], [0, 0, 0], ["flask", "django", "django"]
        report = self.clustered_compare(xs, ys, repos)
        diffs = [Fraction(x - y) for x, y in zip([1, *xs, 0], [1, *ys, 0])]
        diff, low, high, p = wild_cluster(diffs, ["ctl", *repos, "ctl"])
        self.assertEqual((diff, low, high, p), (0.6, 0.0, 1.0, 0.5))
        self.assertEqual((report["clusters"], report["test"]["p"]), (3, p))
        self.assertEqual(report["difference"]["critical"], report["test"]["z"])
        self.assertEqual((report["difference"]["method"], report["difference"]["critical_of"]),
                         ("wild_cluster_bootstrap_t", "t"))
        ma, ra, mb, rb = paired_samples([1, *xs, 0], [1, *ys, 0], 1, clusters=["ctl", *repos, "ctl"])
        paths = [self.write_json("ta.json", ma), self.write_jsonl("ta.jsonl", ra), self.write_json("tb.json", mb),
                 self.write_jsonl("tb.jsonl", rb)]
        text = self.run_gate("compare", "--manifest", str(paths[0]), "--runs", str(paths[1]), "--against-manifest",
                             str(paths[2]), "--against-runs", str(paths[3]), "--by-cluster")[1]
        paired = next(line for line in text.splitlines() if line.startswith("paired"))
        self.assertNotIn("effective table", paired)  # no figure of the bootstrap uses one
        self.assertIn("the test runs on the per-task differences, clustered", paired)
        self.assertEqual((report["difference"]["value"], report["difference"]["ci_high"]), (diff, high))
        self.assertAlmostEqual(report["difference"]["ci_low"], low, places=12)


class ImporterEdges(GateCase):
    """Importers: what each reads, drafts and refuses."""

    def test_a_mapped_cost_and_token_count_keep_their_values(self) -> None:
        """--cost-usd and --input-tokens through the mapping importer: 0.12345 dollars stays 0.12345 (a wall clock
        is rounded to the millisecond, a cost never) and 1234 tokens stay the integer 1234. Kills `field <
        "wall_clock_s"` for `==` in _measure (gate.py:8333 at c8b36fd), which read costs and tokens as wall clocks."""
        path = self.write_jsonl("records.jsonl", [{"id": "a", "ok": True, "usd": 0.12345, "tok": 1234, "secs": 1.23456}])
        code, out, err = self.run_gate("import", "jsonl", str(path), "--task-id", "id", "--pass", "ok", "--cost-usd", "usd",
                                       "--input-tokens", "tok", "--wall-clock-s", "secs")
        self.assertEqual(code, 0, err)
        rec = json.loads(out)
        self.assertEqual((rec["cost_usd"], rec["input_tokens"], rec["wall_clock_s"]), (0.12345, 1234, 1.235))
        self.assertIs(type(rec["input_tokens"]), int)

    def test_several_jobs_without_config_name_the_first(self) -> None:
        """Two Harbor jobs, neither with its config.json: refused naming the first job given. Kills
        `unconfigured[-1]` for `unconfigured[0]` in import_harbor (gate.py:7888 at c8b36fd)."""
        base = FIXTURES / "harbor" / "thinharness-20task"
        jobs = []
        for cell in ("dna-insert--pi", "dna-insert--thinharness"):
            target = self.dir / cell / "job"
            shutil.copytree(base / cell / "job", target)
            (target / "config.json").unlink()
            jobs.append(target)
        code, _out, err = self.run_gate("import", "harbor", *map(str, jobs))
        self.assertEqual(code, 2, err)
        self.assertTrue(err.startswith(f"gate.py: error: {jobs[0]}: no config.json"), err)

    def test_a_mapped_samples_file_fills_every_missing_sample(self) -> None:
        """--samples: task a holds samples 1-3, task b only 1-2; b's sample 3 is written as missing_artifact.
        Kills `range(1, budget + 0)` for `budget + 1` in _mapping_imported (gate.py:8370 at c8b36fd)."""
        rows = [{"id": "a", "n": n, "ok": True} for n in (1, 2, 3)] + [{"id": "b", "n": n, "ok": False} for n in (1, 2)]
        path = self.write_jsonl("samples.jsonl", rows)
        code, out, err = self.run_gate("import", "jsonl", str(path), "--task-id", "id", "--pass", "ok", "--attempt", "n",
                                       "--samples")
        self.assertEqual(code, 0, err)
        got = {(r["task_id"], r["attempt"]): (r["outcome"], r["reason"]) for r in map(json.loads, out.splitlines())}
        self.assertEqual(got[("b", 3)], ("unscoreable", "missing_artifact"))
        self.assertEqual(len(got), 6)

    def test_an_inspect_limit_below_the_logged_samples_names_none(self) -> None:
        """An Inspect log without eval.dataset.sample_ids, its dataset of 9 samples and --limit 4, logging 5 sample
        ids: neither count matches, so the declared samples cannot be named; refused. Kills `limit <=
        len(observed)` for `limit == len(observed)` in _inspect_declared (gate.py:9126 at 3cddd35)."""
        log = load(FIXTURES / "inspect" / "tiny-success.json")
        del log["eval"]["dataset"]["sample_ids"]
        log["eval"]["dataset"]["samples"] = 9
        log["eval"]["config"]["limit"] = 4
        self.assertEqual(len({s["id"] for s in log["samples"]}), 5)
        path = self.write_json("log.json", log)
        code, out, err = self.run_gate("import", "inspect", str(path))
        self.assertEqual((code, out), (2, ""))
        self.assertIn(f"{path}: eval.dataset.sample_ids: missing, and neither eval.dataset.samples (9) nor "
                      "eval.config.limit (4) matches the 5 sample ids in the log; cannot name the declared "
                      "samples", err)

    def test_a_less_than_predicate_fails_a_value_above_the_literal(self) -> None:
        """--pass "s < 0.5" over s = 0.7, 0.2 and 0.5: only 0.2 passes. Kills `value is not literal` for `value <
        literal` in _compare (gate.py:10563 at 3cddd35), which passed all three."""
        path = self.write_jsonl("rows.jsonl", [{"id": "a", "s": 0.7}, {"id": "b", "s": 0.2}, {"id": "c", "s": 0.5}])
        code, out, err = self.run_gate("import", "jsonl", str(path), "--task-id", "id", "--pass", "s < 0.5")
        self.assertEqual(code, 0, err)
        self.assertEqual({r["task_id"]: r["outcome"] for r in map(json.loads, out.splitlines())},
                         {"a": "fail", "b": "pass", "c": "fail"})

    def test_lm_eval_passes_from_pass_at_2_alone(self) -> None:
        """humaneval_local_5's documents 1-4 with their pass@1 removed: the passes come from inverting pass@2, 1 -
        C(5 - c, 2)/C(5, 2) (0.9, 0, 0.7, 0.7), and are the c = 5 x pass@1 the fixture stated (3, 0, 2, 2).
        (Documents 0 and 5, pass@2 = 1, are left out: c = 4 and 5 both give it.) Kills `math.comb(n >> c, k)` for
        `math.comb(n - c, k)` in _passes_from_pass_at_k (gate.py:11169 at 3cddd35): 0.9 read as 1 pass, 0.7 as
        none readable."""
        source = (Path(__file__).parent / "fixtures" / "harnesses" / "lm-eval" / "full"
                  / "samples_humaneval_local_5_2026-12-02T12-58-29.437800.jsonl")
        lines = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()][1:5]
        want = {f"humaneval_local_5/{line['doc_id']}": round(line.pop("pass@1") * 5) for line in lines}
        self.assertEqual(list(want.values()), [3, 0, 2, 2])
        for line, c in zip(lines, want.values()):
            self.assertAlmostEqual(line["pass@2"], 1 - math.comb(5 - c, 2) / math.comb(5, 2), places=12)
        folder = self.dir / "lm"
        folder.mkdir()
        path = folder / source.name
        path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
        code, out, err = self.run_gate("import", "lm-eval", str(path))
        self.assertEqual(code, 0, err)
        records = [json.loads(line) for line in out.splitlines()]
        got = {tid: sum(r["outcome"] == "pass" for r in records if r["task_id"] == tid) for tid in want}
        self.assertEqual(got, want)
        self.assertEqual(len(records), 20)

    def test_an_import_past_the_attempt_cap_names_the_cap(self) -> None:
        """A mapped --samples file of one row (attempt 10,000) with --dataset-ids declaring 1,001 tasks: 10,010,000
        attempts, refused naming the cap, 10,000,000 (the documented one). Kills `MAX_IMPORTED_ATTEMPTS = 9999999`
        for `10_000_000` (gate.py:151 at 3cddd35), which names 9,999,999."""
        rows = self.write_jsonl("rows.jsonl", [{"id": "t0000", "n": 10_000, "ok": True}])
        ids = self.write_text("ids.txt", "".join(f"t{i:04d}\n" for i in range(1001)))
        code, out, err = self.run_gate("import", "jsonl", str(rows), "--task-id", "id", "--pass", "ok", "--attempt",
                                       "n", "--samples", "--dataset-ids", str(ids))
        self.assertEqual((code, out), (2, ""))
        self.assertEqual(err, f"gate.py: error: {rows}: --samples: 1,001 tasks x 10,000 samples (the largest attempt "
                              "number read), more than the gate imports (10,000,000): is --attempt the right field?\n")

    def test_a_swebench_report_of_schema_version_1_is_refused(self) -> None:
        """A SWE-bench report whose schema_version is 1: refused, naming the field and the value. Kills
        `data.get("schema_version", 2) > 2` for `!= 2` in _swebench_report_lists (gate.py:8436 at 3cddd35), which
        read a version-1 report as a version-2 one."""
        report = load(SWE_REPORT)
        self.assertEqual(report["schema_version"], 2)
        report["schema_version"] = 1
        path = self.write_json("report.json", report)
        code, out, err = self.run_gate("import", "swebench", str(path))
        self.assertEqual((code, out), (2, ""))
        self.assertEqual(err, f"gate.py: error: {path}: schema_version: expected 2, got the number 1\n")

    def test_an_inspect_folder_reads_only_its_json_and_eval_files(self) -> None:
        """A folder holding an Inspect log (tiny-success.json) and a notes.txt and a samples.jsonl beside it: the
        import reads the log alone, as importing the log itself does (10 attempts), and says so. Kills `p.suffix >=
        ".json"` for `p.suffix == ".json"` in _inspect_files (gate.py:8908 at 3cddd35), which read the notes as
        logs too."""
        folder = self.dir / "logs"
        folder.mkdir()
        shutil.copy(FIXTURES / "inspect" / "tiny-success.json", folder / "tiny-success.json")
        (folder / "notes.txt").write_text("run by hand\n", encoding="utf-8")
        (folder / "samples.jsonl").write_text('{"id": 1}\n', encoding="utf-8")
        code, out, err = self.run_gate("import", "inspect", str(folder))
        self.assertEqual(code, 0, err)
        code, alone, err_alone = self.run_gate("import", "inspect", str(FIXTURES / "inspect" / "tiny-success.json"))
        self.assertEqual(code, 0, err_alone)
        self.assertEqual(out, alone)
        self.assertEqual(len(out.splitlines()), 10)
        self.assertIn(f"gate.py: note: {folder}: read 1 log(s): tiny-success.json\n", err)

    def test_one_inspect_log_drafts_its_inspect_eval_command(self) -> None:
        """One Inspect log imported with --draft-manifest and no -o: the draft's rerun_recipe suggests the log's own
        `inspect eval task.py@tiny --model mockllm/model --epochs 2` (its eval.task_file, task, model and epochs).
        Kills `if many` for `if not many` in read_inspect (gate.py:9449 at 3cddd35), which suggested `inspect
        eval-set ...` for one log."""
        log = load(FIXTURES / "inspect" / "tiny-success.json")
        self.assertEqual((log["eval"]["task_file"], log["eval"]["task"], log["eval"]["model"],
                          log["eval"]["config"]["epochs"]), ("task.py", "tiny", "mockllm/model", 2))
        draft = self.dir / "draft.json"
        code, _out, err = self.run_gate("import", "inspect", str(FIXTURES / "inspect" / "tiny-success.json"),
                                       "--draft-manifest", str(draft))
        self.assertEqual(code, 0, err)
        self.assertEqual(load(draft)["rerun_recipe"], "TODO: exact command that produced the run, e.g. inspect eval "
                                                      "task.py@tiny --model mockllm/model --epochs 2")

    def test_the_evalplus_note_states_evalplus_own_pass_at_1(self) -> None:
        """EvalPlus's samples_eval_results.json (5 tasks, 3 samples each): the note gives pass@1 as the mean over
        the tasks of each one's share of passing samples, computed here in fractions from the file, 0.5333 with
        the plus tests and 0.7333 with --tests base, what EvalPlus printed (stdout.txt: 0.533 and 0.733). Kills
        `fsum(...) ** len(by_task)` for `fsum(...) / len(by_task)` in _mean_rate (gate.py:11328 at 3cddd35)."""
        source = FIXTURES / "harnesses" / "evalplus" / "samples_eval_results.json"
        table = load(source)["eval"]
        printed = (FIXTURES / "harnesses" / "evalplus" / "stdout.txt").read_text(encoding="utf-8")
        for tests, plus in (("plus", True), ("base", False)):
            with self.subTest(tests=tests):
                shares = [Fraction(sum(s["base_status"] == "pass" and (not plus or s["plus_status"] == "pass")
                                       for s in samples), len(samples)) for samples in table.values()]
                mean = sum(shares, Fraction(0)) / len(shares)
                self.assertEqual(len(shares), 5)
                self.assertIn(f"pass@1:\t{float(mean):.3f}", printed)
                code, _out, err = self.run_gate("import", "evalplus", str(source), "--tests", tests)
                self.assertEqual(code, 0, err)
                name = "HumanEval+/MBPP+ (base and plus tests)" if plus else "HumanEval/MBPP (base tests only)"
                self.assertIn(f"EvalPlus prints pass@1 over the 5 task(s) in the file for {name}: {float(mean):.4f};",
                              err)


class CardAndVerdictEdges(GateCase):
    """The card and the verdict: strata lines, claims, pass@k rows, Markdown wording, GitHub mode."""

    def test_a_declared_stratum_with_no_record_keeps_its_line(self) -> None:
        """Strata a: 39, b: 1 declared, every record in a: the report lists b with its declared 1 and no task.
        Kills `set(seen) | set(declared) & set(withheld)` in _strata_lines (gate.py:4196 at c8b36fd), which
        lists only the strata seen or withheld."""
        manifest, records = valid_ledger()
        manifest["dataset"]["strata"] = {"a": 39, "b": 1}
        for rec in records:
            rec["stratum"] = "a"
        _, report = self.check_json(manifest, records)
        self.assertEqual([(s["name"], s["declared"], s["tasks"]) for s in report["strata"]], [("a", 39, 40), ("b", 1, 0)])

    def test_a_claim_of_the_scoreable_only_rate_does_not_match(self) -> None:
        """29/37 (the scoreable-only rate of the shipped 29/8/3 ledger) quoted as the claim: BLOCKED with
        claim_is_secondary, and the JSON's claim says it does not match. Kills `ClaimCheck(text, True, ...)` for
        False in check_claim (gate.py:4642 at c8b36fd)."""
        _, report = self.check_json(*valid_ledger(), "--claim", "29/37")
        self.assertIn("claim_is_secondary", [f["code"] for f in report["findings"]])
        self.assertIs(report["claim"]["matches"], False)

    def test_a_budget_of_15_prints_pass_at_k_up_to_10_and_15(self) -> None:
        """Samples mode with 15 samples a task: the text card prints pass@2 to pass@10 and pass@15, not pass@11 to
        pass@14 (the JSON has them all). Kills `k <= budget` for `k == budget` in _shown_k (gate.py:5328 at
        c8b36fd)."""
        ids = ["neg-01", "pos-01", "t1", "t2"]
        manifest = make_manifest(ids, attempt_mode="samples", attempt_budget=15)
        passes = {"neg-01": 0, "pos-01": 15, "t1": 7, "t2": 12}
        records = [record(t, "pass" if a <= passes[t] else "fail", attempt=a) for t in ids for a in range(1, 16)]
        _, out, _ = self.check(manifest, records)
        shown = sorted(int(k) for k in re.findall(r"pass@(\d+)", out) if int(k) > 1)
        self.assertEqual(sorted(set(shown)), [*range(2, 11), 15])

    def test_the_markdown_card_calls_the_known_fix_bound_a_floor(self) -> None:
        """examples/card: the no-edit run's bound is a ceiling, the known-fix run's a floor, in Markdown too. Kills
        `run.role <= "no_edit"` for `==` in render_markdown (gate.py:5677 at c8b36fd)."""
        card = Path(__file__).resolve().parent.parent / "examples" / "card"
        code, md, err = self.run_gate("--manifest", str(card / "bench.manifest.json"), "--runs", str(card / "runs.jsonl"),
                                      "--format", "markdown")
        self.assertEqual(code, 0, err)
        self.assertIn("| control run known_fix (floor 0.95;", md)
        self.assertIn("| control run no_edit (ceiling 0.05;", md)

    def test_fail_on_that_passes_in_github_mode_writes_no_error(self) -> None:
        """compare --fail-on regression --github where A is significantly better (10/25/0/5): exit 0, the gate
        passes, and no ::error annotation. Kills `comp.fail_on[0]` for `comp.fail_on[1]` in _cmd_compare
        (gate.py:12186 at 3cddd35), which annotated every --fail-on run in GitHub mode as a failure."""
        ma, ra, mb, rb = paired_ledgers(10, 25, 0, 5)
        paths = [self.write_json("a.json", ma), self.write_jsonl("a.jsonl", ra), self.write_json("b.json", mb),
                 self.write_jsonl("b.jsonl", rb)]
        with mock.patch.dict(os.environ):
            for key in [k for k in os.environ if k.startswith("GITHUB_")]:
                del os.environ[key]
            code, out, err = self.run_gate("compare", "--manifest", str(paths[0]), "--runs", str(paths[1]),
                                           "--against-manifest", str(paths[2]), "--against-runs", str(paths[3]),
                                           "--fail-on", "regression", "--github")
        self.assertEqual(code, 0, out + err)
        self.assertRegex(out, r"(?m)^ci gate\s*: --fail-on regression: passes")
        self.assertNotIn("::error", out + err)
