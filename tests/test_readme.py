"""README.md and docs/*.md show the tool's real outputs: every shown command runs here, from the repository's top in
a copy of its files, and must print exactly what its page shows (tests/shown_commands.py says how a page is read;
tests/regen_docs.py rewrites stale outputs). The reference tables are checked against the code they describe."""

from __future__ import annotations

import re
import sys
import tempfile
import unittest
from pathlib import Path
from typing import Any

import gate
from tests.shown_commands import (
    ELLIPSIS,
    REGISTRY,
    NotRun,
    Run,
    matches,
    pages,
    refreshed,
    registered,
    run_page,
    steps,
)
from tests.support import ROOT, GateCase


class ShownCommands(unittest.TestCase):
    """One registry of shown commands (tests/shown_commands.py REGISTRY), every page run and compared."""

    def test_every_command_is_registered_and_every_entry_shown(self) -> None:
        """Each ```sh command of every page is in REGISTRY (Run or NotRun with a reason) or is an import of the
        reader's own files; each REGISTRY entry is still shown somewhere."""
        keys = []
        for page in pages():
            for step in steps(page.read_text(encoding="utf-8")):
                if step.kind == "sh":
                    keys.append(step.key)
                    with self.subTest(page=page.name, command=step.key):
                        self.assertIsNotNone(registered(step), "a shown command neither run nor given a reason")
        self.assertEqual([k for k in REGISTRY if k not in keys], [], "registry entries no page shows")
        for key, entry in REGISTRY.items():
            if isinstance(entry, NotRun):
                self.assertTrue(entry.reason.strip(), key)

    def test_every_page_runs_as_shown(self) -> None:
        """Each page's commands run in page order in a fresh copy of the repository: each gives its registered exit
        code and prints exactly the output its page shows (a stale block fails here: run tests/regen_docs.py)."""
        from concurrent.futures import ThreadPoolExecutor

        with tempfile.TemporaryDirectory() as root, ThreadPoolExecutor(max_workers=4) as pool:
            # the pages are independent (each in its own copy): run side by side, checked in page order
            listed = list(pages())
            folders = [Path(root) / str(i) for i in range(len(listed))]
            runs = list(pool.map(lambda pair: run_page(pair[0].read_text(encoding="utf-8"), pair[1]),
                                 zip(listed, folders)))
            for page, outcomes, folder in zip(listed, runs, folders):
                self.page_as_shown(page, outcomes, folder / "repo")

    def page_as_shown(self, page: Path, outcomes: list[Any], copy: Path) -> None:
        for outcome in outcomes:
            step, entry = outcome.step, registered(outcome.step)
            if outcome.code is None:
                continue
            with self.subTest(page=page.name, command=step.key):
                assert isinstance(entry, Run)
                self.assertEqual(outcome.code, entry.code, "\n".join(outcome.output or []))
                if step.shown is not None:
                    assert outcome.output is not None
                    self.assertTrue(matches(step.shown, outcome.output),
                                    f"{page.name}: the output shown for `{step.key}` is stale "
                                    f"(python3 tests/regen_docs.py rewrites it); the tool prints:\n"
                                    + "\n".join(outcome.output))
        if (copy / "my-card.json").exists():  # docs/manifest.md's freeze: the shipped card's bytes
            self.assertEqual((copy / "my-card.json").read_bytes(),
                             (ROOT / "examples" / "card" / "card.json").read_bytes())
        if page.name == "ci.md":  # the badge command rewrites the committed badge with the same bytes
            self.assertEqual((copy / "examples" / "badge.svg").read_bytes(),
                             (ROOT / "examples" / "badge.svg").read_bytes())

    def test_an_elided_block_and_its_refresh(self) -> None:
        """`…` stands for any lines between the head and the tail shown; a refresh keeps as many of each."""
        out = ["a", "b", "c", "d", "e"]
        self.assertTrue(matches(["a", ELLIPSIS, "e"], out))
        self.assertTrue(matches(["a", "b", ELLIPSIS], out))
        self.assertFalse(matches(["a", ELLIPSIS, "d"], out))
        self.assertFalse(matches(["a", "b", "c", "d"], out))
        self.assertEqual(refreshed(["x", ELLIPSIS, "y", "z"], out), ["a", ELLIPSIS, "d", "e"])
        self.assertEqual(refreshed(["x", "y"], out), out)

    def test_the_readme_leads(self) -> None:
        """The README stays short (about 300 lines, and the import table's row a format), and every docs/ page it
        links exists."""
        text = (ROOT / "README.md").read_text(encoding="utf-8")
        self.assertLessEqual(len(text.splitlines()), 340)
        links = re.findall(r"\]\((docs/[^)#]+|examples/[^)#]+)", text)
        self.assertTrue(links)
        for link in links:
            self.assertTrue((ROOT / link).exists(), link)
        for page in sorted((ROOT / "docs").glob("*.md")):
            self.assertIn(f"docs/{page.name}", text, "a docs page the README does not link")


class FindingsCatalogue(GateCase):
    def test_the_findings_page_is_the_catalogue(self) -> None:
        """Every finding code the gate can emit is in docs/findings.md's table with the same meaning, and no other."""
        text = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
        plain: dict[str, str] = {}
        prefixes: dict[str, str] = {}
        for line in text.splitlines():
            row = re.fullmatch(r"\| (`[^|]+`) \| (.+) \|", line)
            if row is None or row.group(1) == "`code`":
                continue
            for code in re.findall(r"`([^`]+)`", row.group(1)):
                if code.endswith(":…"):
                    prefixes[code[:-1]] = row.group(2)
                else:
                    plain[code] = row.group(2)
        self.assertEqual(plain, {code: rule.meaning for code, rule in gate.FINDINGS.items()})
        self.assertEqual(prefixes, dict(gate.FINDING_PREFIXES))

    def test_a_finding_outside_the_catalogue_cannot_be_made(self) -> None:
        """finding() refuses a code the catalogue lacks, so a new code cannot skip the findings page."""
        with self.assertRaises(KeyError):
            gate.finding("not_a_code", "x")
        with self.assertRaises(KeyError):
            gate.prefixed("C", [gate.finding("mixed_runs", "x")])


class ReferenceTables(GateCase):
    def test_the_size_the_statistics_page_reports(self) -> None:
        """docs/statistics.md's exact size at 40 tasks of compare's rule, and of the asymptotic rule retired before
        it, is what bench/stats.py's enumeration gives."""
        sys.path.insert(0, str(ROOT / "bench"))
        try:
            import stats as bench_stats
        finally:
            sys.path.remove(str(ROOT / "bench"))
        given_s = bench_stats.conditional_power(40, 0.5, "gate", 0.05)
        worst, at = max((bench_stats.averaged(40, i / 2000, given_s), i / 2000) for i in range(1, 2001))
        text = (ROOT / "docs" / "statistics.md").read_text(encoding="utf-8")
        replaced = bench_stats.conditional_power(40, 0.5, "floor", 0.05)
        before = max(bench_stats.averaged(40, i / 2000, replaced) for i in range(1, 2001))
        self.assertRegex(text, rf"\| 40 \| {worst:.4f} \(psi {at:.4f}\) \| 0\.0[0-9]{{3}} \| {before:.4f} \|")
        self.assertLessEqual(worst, 0.05)  # the exact test holds its level at every psi
        self.assertGreater(before, 0.05)  # the asymptotic rule it replaced was slightly liberal; the page says so
        self.assertLess(before, 0.06)

    def test_the_control_commands_table_is_the_gates(self) -> None:
        """Each no-edit / known-fix command docs/importers.md's control table gives for Terminal-Bench and Harbor, and
        the SWE-bench gold command, is the one the gate names in its controls_incomplete finding."""
        text = (ROOT / "docs" / "importers.md").read_text(encoding="utf-8")
        for fmt in ("terminal-bench", "harbor"):
            self.assertIn(f"`{gate.IMPORTERS[fmt].no_edit}`", text)
            self.assertIn(f"`{gate.IMPORTERS[fmt].known_fix}`", text)
        self.assertIn(f"`{gate.IMPORTERS['swebench'].known_fix}`", text)


if __name__ == "__main__":
    unittest.main()
