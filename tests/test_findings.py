"""Every finding code with its rule (issue 25): gate.FINDINGS holds each code's meaning and the functions that
raise it, and tests/findings/<code>/ holds the smallest ledger that raises it.

- Each example raises exactly its code (and, for the few codes no ledger can raise alone, the companions its
  `also` file names, with why); `_base`, the ledger every example changes, is PUBLISHABLE.
- The examples are what tests/findings/make_examples.py writes (run it after changing a case).
- Each code's `raised_by` names exactly the functions that hold a `finding("<code>", ...)` (or, for the attempt
  problems, an entry of _attempt_findings): a code raised somewhere new, or no longer, fails here.
"""

from __future__ import annotations

import ast
import contextlib
import filecmp
import importlib.util
import io
import json
import shlex
import tempfile
import unittest
from pathlib import Path

import gate
from tests.support import ROOT, parsed

EXAMPLES = ROOT / "tests" / "findings"


def run_example(folder: Path) -> tuple[int, list[str]]:
    """The example's command (its file arguments made absolute), in JSON: (exit code, finding codes)."""
    args = [str(folder / arg) if (folder / arg).is_file() else arg
            for arg in shlex.split((folder / "command").read_text(encoding="utf-8"))]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = gate.main([*args, "--format", "json"])
    return code, [f["code"] for f in json.loads(out.getvalue())["findings"]]


def companions(folder: Path) -> set[str]:
    also = folder / "also"
    if not also.exists():
        return set()
    return {line for line in also.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")}


def raisers() -> dict[str, set[str]]:
    """code -> the top-level functions holding finding("code", ...) or an _attempt_findings entry for it."""
    found: dict[str, set[str]] = {}
    for node in parsed((ROOT / "gate.py").read_text(encoding="utf-8")).body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for sub in ast.walk(node):
            if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == "finding"
                    and sub.args and isinstance(sub.args[0], ast.Constant)):
                found.setdefault(sub.args[0].value, set()).add(node.name)
            if (node.name == "_attempt_findings" and isinstance(sub, ast.Tuple) and len(sub.elts) == 4
                    and isinstance(sub.elts[1], ast.Constant)):
                found.setdefault(sub.elts[1].value, set()).add(node.name)
    return found


class FindingExamples(unittest.TestCase):
    def test_every_code_has_an_example_and_every_example_a_code(self) -> None:
        folders = {p.name for p in EXAMPLES.iterdir() if p.is_dir() and not p.name.startswith(("_", "."))}
        self.assertEqual(folders, set(gate.FINDINGS))

    def test_each_example_raises_exactly_its_code(self) -> None:
        for code in gate.FINDINGS:
            with self.subTest(code=code):
                exit_code, codes = run_example(EXAMPLES / code)
                self.assertEqual(exit_code, 1)
                self.assertIn(code, codes)
                self.assertEqual(set(codes), {code} | companions(EXAMPLES / code))

    def test_companions_are_few_and_explained(self) -> None:
        """At most a sixth of the codes need a companion, and each `also` says why on its first line."""
        explained = [p for p in EXAMPLES.iterdir() if (p / "also").exists()]
        self.assertLessEqual(len(explained), len(gate.FINDINGS) // 6 + 1)
        for folder in explained:
            self.assertTrue((folder / "also").read_text(encoding="utf-8").startswith("# "), folder.name)
            self.assertLessEqual(companions(folder), set(gate.FINDINGS), folder.name)

    def test_the_base_every_example_changes_is_publishable(self) -> None:
        self.assertEqual(run_example(EXAMPLES / "_base"), (0, []))

    def test_the_examples_are_what_the_generator_writes(self) -> None:
        spec = importlib.util.spec_from_file_location("make_examples", EXAMPLES / "make_examples.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        with tempfile.TemporaryDirectory() as tmp:
            module.write_all(Path(tmp))
            written = {p.name for p in Path(tmp).iterdir()}
            committed = {p.name for p in EXAMPLES.iterdir() if p.is_dir() and not p.name.startswith(".")
                         and p.name != "__pycache__"}
            self.assertEqual(committed, written)  # no folder the generator no longer writes
            for folder in sorted(Path(tmp).iterdir()):
                names = sorted(p.name for p in folder.iterdir())
                self.assertEqual(names, sorted(p.name for p in (EXAMPLES / folder.name).iterdir()), folder.name)
                _, mismatch, errors = filecmp.cmpfiles(folder, EXAMPLES / folder.name, names, shallow=False)
                self.assertEqual((mismatch, errors), ([], []), folder.name)


class FindingRules(unittest.TestCase):
    def test_raised_by_names_exactly_the_functions_that_raise_each_code(self) -> None:
        found = raisers()
        self.assertEqual({code: set(rule.raised_by) for code, rule in gate.FINDINGS.items()}, found)

    def test_each_rule_has_a_meaning_and_a_raiser_that_exists(self) -> None:
        for code, rule in gate.FINDINGS.items():
            self.assertTrue(rule.meaning, code)
            for name in rule.raised_by:
                self.assertTrue(callable(getattr(gate, name, None)), f"{code}: {name}")


if __name__ == "__main__":
    unittest.main()
