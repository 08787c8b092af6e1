"""Registries that cannot disagree (issue 25): each command offers the formats its own renderer table has, and
renders every one of them; a format added to one table alone is offered by that command alone. Each importer is one
row of IMPORTERS: `import` offers every row, check names a row's result file from the row's signs, and the
control-run hint is the row's commands."""

from __future__ import annotations

import argparse
import re
import tempfile
from pathlib import Path
from types import MappingProxyType
from unittest import mock

import gate
from tests.support import ROOT, GateCase

COMMANDS = {
    "check": ["--manifest", str(ROOT / "bench.manifest.json"), "--runs", str(ROOT / "runs.jsonl")],
    "compare": ["--manifest", str(ROOT / "examples" / "compare" / "a.manifest.json"),
                "--runs", str(ROOT / "examples" / "compare" / "a.jsonl"),
                "--against-manifest", str(ROOT / "examples" / "compare" / "b.manifest.json"),
                "--against-runs", str(ROOT / "examples" / "compare" / "b.jsonl")],
    # three of examples/rank's systems: every format of a ranking, without gating all 25 of them four times
    "rank": [arg for name in ("01-claude-4-5-opus-medium-20251101", "19-claude-3-7-sonnet-20250219",
                              "25-qwen2-5-coder-32b-instruct")
             for arg in ("--manifest", str(ROOT / "examples" / "rank" / "systems" / f"{name}.manifest.json"),
                         "--runs", str(ROOT / "examples" / "rank" / "systems" / f"{name}.jsonl"))],
    "plan": ["--baseline", "0.5", "--detect", "0.1"],
}


def format_choices(command: str) -> list[str]:
    parser = gate.build_parser(only=command)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    action = next(a for a in sub.choices[command]._actions if "--format" in a.option_strings)
    return list(action.choices or ())


class EveryCommandEveryFormat(GateCase):
    def test_each_command_offers_its_own_renderers_and_renders_each(self) -> None:
        tables = {"check": gate.REPORT_RENDERERS, "compare": gate.COMPARE_RENDERERS, "rank": gate.RANK_RENDERERS,
                  "plan": gate.PLAN_RENDERERS}
        for command, argv in COMMANDS.items():
            self.assertEqual(sorted(format_choices(command)), sorted(tables[command]), command)
            for fmt in format_choices(command):
                with self.subTest(command=command, format=fmt):
                    code, out, err = self.run_gate(command, *argv, "--format", fmt)
                    self.assertIn(code, (0, 1), err)
                    self.assertTrue(out.strip())
                    self.assertNotIn("Traceback", err)

    def test_a_format_in_one_table_alone_is_offered_by_that_command_alone(self) -> None:
        """Before, compare and rank took check's format list: a format only check could render ended compare in a
        KeyError traceback."""
        wider = MappingProxyType({**gate.REPORT_RENDERERS, "extra": lambda r: "extra\n"})
        with mock.patch.object(gate, "REPORT_RENDERERS", wider):
            self.assertIn("extra", format_choices("check"))
            self.assertNotIn("extra", format_choices("compare"))
            self.assertNotIn("extra", format_choices("rank"))
            code, _out, err = self.run_gate("compare", *COMMANDS["compare"], "--format", "extra")
            self.assertEqual(code, 2)
            self.assertIn("invalid choice", err)


def import_choices() -> list[str]:
    parser = gate.build_parser(only="import")
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    action = next(a for a in sub.choices["import"]._actions if a.dest == "format")
    return list(action.choices or ())


class ImporterRows(GateCase):
    def test_import_offers_every_row(self) -> None:
        self.assertEqual(sorted(import_choices()), sorted(gate.IMPORTERS))

    def test_a_file_holding_a_rows_signs_is_named_as_that_row(self) -> None:
        """For each form of each row's signs, a JSON object with just those keys, given to check as a runs file,
        is refused naming that row and its import command."""
        forms = [(fmt, form) for fmt in gate.IMPORTERS.values() for form in fmt.signs]
        self.assertGreater(len(forms), 15)
        with tempfile.TemporaryDirectory() as tmp:
            for number, (fmt, form) in enumerate(forms):
                with self.subTest(row=fmt.name, form=form):
                    path = Path(tmp) / f"result{number}.json"
                    path.write_bytes(b"{" + b", ".join(sign + b": 1" for sign in form) + b"}\n")
                    self.assertEqual(gate.harness_file_kind(path), fmt)
                    code, _out, err = self.run_gate("digest", "--runs", str(path))
                    self.assertEqual(code, 2)
                    self.assertIn(f"a {fmt.name} result file", err)
                    self.assertIn(f"import {fmt.name} ", err)

    def test_a_file_holding_two_harnesses_signs_is_named_by_sign_rank(self) -> None:
        """A HAL upload holds the benchmark's own results (a SWE-bench report, an Inspect log): it is HAL's; an
        EvalPlus file has Inspect's "eval" too: it is EvalPlus's. Ranks are distinct, so the choice never
        depends on the registry's order."""
        cases = {b'{"results": {"successful_tasks": ["a"]}, "raw_eval_results": {"eval": {}, "status": "x"}}': "hal",
                 b'{"successful_tasks": [], "resolved_ids": ["x"], "total_instances": 1}': "hal",
                 b'{"tests_outcomes": [true], "resolved_ids": ["x"]}': "aider",
                 b'{"eval": {"t": [{"base_status": "pass", "status": "pass"}]}}': "evalplus",
                 b'{"eval": {"t": [{"solution": "", "status": "pass"}]}}': "bigcodebench",
                 b'{"instance_id": "a", "test_result": {}, "model_patch": ""}': "openhands"}
        with tempfile.TemporaryDirectory() as tmp:
            for number, (content, name) in enumerate(cases.items()):
                path = Path(tmp) / f"mixed{number}.json"
                path.write_bytes(content + b"\n")
                found = gate.harness_file_kind(path)
                self.assertEqual(found.name if found else None, name, content)
        ranks = [fmt.sign_rank for fmt in gate.IMPORTERS.values() if fmt.signs]
        self.assertEqual(len(ranks), len(set(ranks)))
        self.assertNotIn(0, ranks)

    def test_every_harness_with_signs_has_a_real_file_recognised_as_it(self) -> None:
        """A new importer row without a real result file under tests/fixtures fails here (publish-gate's format is
        the design note's own: no harness writes it)."""
        found: set[str] = set()
        for path in (ROOT / "tests" / "fixtures").rglob("*"):
            if path.is_file() and path.stat().st_size < (64 << 20):
                fmt = gate.harness_file_kind(path)
                if fmt is not None:
                    found.add(fmt.name)
        signed = {fmt.name for fmt in gate.IMPORTERS.values() if fmt.signs}
        self.assertEqual(signed - found, {"publish-gate"})

    def test_the_control_run_hint_is_the_rows_commands(self) -> None:
        for fmt in gate.IMPORTERS.values():
            with self.subTest(row=fmt.name):
                hint = gate.control_commands(fmt.name)
                if fmt.no_edit:
                    self.assertIn(fmt.no_edit, hint)
                    self.assertIn(fmt.known_fix, hint)
                else:
                    self.assertEqual(hint, "")


class PairedTestRows(GateCase):
    def test_every_paired_test_has_its_names_and_its_test_line(self) -> None:
        """A method compare or rank can choose has a name, an interval name and a test line: a test added to one
        table alone would print a KeyError, not a comparison."""
        self.assertEqual(set(gate.PAIRED_TESTS), set(gate.TEST_LINES))
        for method, (name, interval) in gate.PAIRED_TESTS.items():
            self.assertTrue(name and interval, method)
        source = (ROOT / "gate.py").read_text(encoding="utf-8")
        # every method name a PairedTest(...) is built with, up to the call's closing parenthesis
        built = [source[i:source.index("\n\n", i)] for i in (m.start() for m in re.finditer(r"PairedTest\(", source))]
        chosen = {name for call in built for name in re.findall(r'"(\w+)"', call)}
        self.assertLessEqual(chosen, set(gate.PAIRED_TESTS))
        self.assertEqual(len(chosen), 3)
