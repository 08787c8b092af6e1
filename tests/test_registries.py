"""Registries that cannot disagree (issue 25): each command offers the formats its own renderer table has, and
renders every one of them; a format added to one table alone is offered by that command alone."""

from __future__ import annotations

import argparse
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
}


def format_choices(command: str) -> list[str]:
    parser = gate.build_parser(only=command)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    action = next(a for a in sub.choices[command]._actions if "--format" in a.option_strings)
    return list(action.choices or ())


class EveryCommandEveryFormat(GateCase):
    def test_each_command_offers_its_own_renderers_and_renders_each(self) -> None:
        tables = {"check": gate.REPORT_RENDERERS, "compare": gate.COMPARE_RENDERERS, "rank": gate.RANK_RENDERERS}
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
