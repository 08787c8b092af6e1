"""The shape issue 25 asks of gate.py, kept: no chained conditional expression (an `a if p else b if q else c`
reads as a riddle; an if/elif or a small function says it), and no function longer than 80 lines."""

from __future__ import annotations

import ast
import unittest

from tests.support import ROOT

TREE = ast.parse((ROOT / "gate.py").read_text(encoding="utf-8"))


class CodeShape(unittest.TestCase):
    def test_no_chained_conditional_expression(self) -> None:
        chained = sorted({node.lineno for node in ast.walk(TREE) if isinstance(node, ast.IfExp)
                          and any(isinstance(part, ast.IfExp) for part in (node.test, node.body, node.orelse))})
        self.assertEqual(chained, [], "gate.py lines with a conditional expression inside another")

    def test_no_function_longer_than_80_lines(self) -> None:
        long = sorted((node.end_lineno - node.lineno + 1, node.name) for node in ast.walk(TREE)
                      if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.end_lineno is not None and node.end_lineno - node.lineno + 1 > 80)
        self.assertEqual(long, [])

    def test_the_checks_see_what_they_look_for(self) -> None:
        """The walk finds conditional expressions and functions at all (a parse of the wrong file would pass)."""
        self.assertGreater(sum(isinstance(node, ast.IfExp) for node in ast.walk(TREE)), 100)
        self.assertGreater(sum(isinstance(node, ast.FunctionDef) for node in ast.walk(TREE)), 300)
        chained = ast.parse("x = 1 if a else 2 if b else 3")
        self.assertTrue(any(isinstance(n, ast.IfExp) and isinstance(n.orelse, ast.IfExp) for n in ast.walk(chained)))


if __name__ == "__main__":
    unittest.main()
