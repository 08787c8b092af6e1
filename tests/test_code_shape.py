"""The shape issue 25 asks of gate.py, kept: no chained conditional expression (an `a if p else b if q else c`
reads as a riddle; an if/elif or a small function says it), no function longer than 80 lines, and sections
in dependency order, listed in the module docstring: no definition uses a name a later section defines (so the
importers are a leaf: the sections above them ask the harness registry they fill)."""

from __future__ import annotations

import ast
import io
import re
import tokenize
import unittest

import gate
from tests.support import ROOT, parsed

SOURCE = (ROOT / "gate.py").read_text(encoding="utf-8")
TREE = parsed(SOURCE)
BANNER = re.compile(r"^#{20,}\n# (.+)\n", re.MULTILINE)


def sections() -> list[tuple[int, str]]:
    """(first line, title up to its colon) of each banner, in file order."""
    return [(SOURCE.count("\n", 0, match.start()) + 2, match.group(1).split(":")[0])
            for match in BANNER.finditer(SOURCE)]


def section_of(line: int, starts: list[int]) -> int:
    return sum(1 for start in starts if start <= line)


def annotation_nodes(tree: ast.AST) -> set[int]:
    """The ids of every node inside an annotation (types are for mypy, not a run-time dependency)."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        notes = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            notes.append(node.returns)
            notes += [arg.annotation for arg in (*node.args.args, *node.args.kwonlyargs, *node.args.posonlyargs,
                                                 node.args.vararg, node.args.kwarg) if arg is not None]
        elif isinstance(node, ast.AnnAssign):
            notes.append(node.annotation)
        for note in notes:
            if note is not None:
                inside.update(id(sub) for sub in ast.walk(note))
    return inside


def module_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements run at import: the module's, and those inside its top-level `if` and `try` blocks (the
    run-time stand-ins for typing are defined under `if not TYPE_CHECKING`), but not the mypy-only branch."""
    out: list[ast.stmt] = []
    for node in body:
        if isinstance(node, ast.If):
            if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                out += module_level(node.body)
            out += module_level(node.orelse)
        elif isinstance(node, ast.Try):
            out += module_level(node.body)
        else:
            out.append(node)
    return out


def forward_uses() -> list[str]:
    """Top-level definitions that use (at run time) a name a later section defines."""
    starts = [line for line, _ in sections()]
    defined: dict[str, int] = {}
    for node in module_level(TREE.body):
        names = []
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [sub.id for t in targets for sub in ast.walk(t) if isinstance(sub, ast.Name)]
        for name in names:
            defined.setdefault(name, section_of(node.lineno, starts))
    notes = annotation_nodes(TREE)
    found = []
    for node in module_level(TREE.body):
        here = section_of(node.lineno, starts)
        if here == len(starts):  # the command line may use anything
            continue
        for sub in ast.walk(node):
            if (isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load) and id(sub) not in notes
                    and defined.get(sub.id, 0) > here):
                found.append(f"line {sub.lineno}: {sub.id}")
    return found


def long_code_lines(source: str, limit: int = 100) -> list[int]:
    """The lines longer than `limit` whose column `limit` is not inside a string (a docstring or a message may
    run on; code and comments may not). An f-string is one string however Python tokenizes it."""
    strings: list[tuple[tuple[int, int], tuple[int, int]]] = []
    depth, start = 0, (0, 0)
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        kind = tokenize.tok_name[token.type]
        if kind == "STRING" and depth == 0:
            strings.append((token.start, token.end))
        elif kind == "FSTRING_START":  # Python 3.12 and later
            start = token.start if depth == 0 else start
            depth += 1
        elif kind == "FSTRING_END":
            depth -= 1
            if depth == 0:
                strings.append((start, token.end))
    return [number for number, line in enumerate(source.splitlines(), 1) if len(line) > limit
            and not any(first <= (number, limit) < last for first, last in strings)]


class CodeShape(unittest.TestCase):
    def test_no_code_line_over_100_columns(self) -> None:
        """Code and comments within 100 columns; a long message or docstring may run past it."""
        self.assertEqual(long_code_lines(SOURCE), [])
        self.assertEqual(long_code_lines("x = 1" + " " * 96 + "+ 2\ns = '" + "a" * 110 + "'\n"), [1])
        self.assertEqual(long_code_lines("y = 2  # " + "c" * 100 + "\n"), [1])


    def test_no_chained_conditional_expression(self) -> None:
        chained = sorted({node.lineno for node in ast.walk(TREE) if isinstance(node, ast.IfExp)
                          and any(isinstance(part, ast.IfExp) for part in (node.test, node.body, node.orelse))})
        self.assertEqual(chained, [], "gate.py lines with a conditional expression inside another")

    def test_no_function_longer_than_80_lines(self) -> None:
        long = sorted((node.end_lineno - node.lineno + 1, node.name) for node in ast.walk(TREE)
                      if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.end_lineno is not None and node.end_lineno - node.lineno + 1 > 80)
        self.assertEqual(long, [])

    def test_sections_in_dependency_order(self) -> None:
        """No definition uses a name defined in a section below its own (the command line, last, uses them all)."""
        self.assertEqual(forward_uses(), [])

    def test_the_docstring_lists_every_section_in_order(self) -> None:
        doc = gate.__doc__ or ""
        listed = doc[doc.index("Sections, in dependency order"):].split("\n\n")[0].splitlines()[1:]
        titles = [re.split(r"\s{2,}", line.strip())[0] for line in listed]
        self.assertEqual(titles, [title for _, title in sections()])

    def test_the_checks_see_what_they_look_for(self) -> None:
        """The walk finds conditional expressions and functions at all (a parse of the wrong file would pass)."""
        self.assertGreater(sum(isinstance(node, ast.IfExp) for node in ast.walk(TREE)), 100)
        self.assertGreater(sum(isinstance(node, ast.FunctionDef) for node in ast.walk(TREE)), 300)
        self.assertGreater(len(sections()), 20)
        self.assertIn("Importers", [title for _, title in sections()])
        chained = ast.parse("x = 1 if a else 2 if b else 3")
        self.assertTrue(any(isinstance(n, ast.IfExp) and isinstance(n.orelse, ast.IfExp) for n in ast.walk(chained)))


if __name__ == "__main__":
    unittest.main()
