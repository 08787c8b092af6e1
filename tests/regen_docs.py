"""Re-run every command README.md and docs/*.md show and rewrite each shown output in place.

    python3 tests/regen_docs.py            # rewrite the pages whose shown outputs are stale
    python3 tests/regen_docs.py --check    # only say which are stale (exit 1 if any)

A maintainer tool: when gate.py's output changes, this one command refreshes every page; tests/test_readme.py fails
until it has been run (or the change fixed). It runs exactly what the test runs (tests/shown_commands.py), and
refuses to write when a command gives an exit code other than its registered one: that is a change to look at,
not to paste. A shown `…` line keeps its place, with as many lines before and after it as the page had.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.shown_commands import ROOT, Run, pages, refreshed, registered, run_page


def main(argv: list[str]) -> int:
    check_only = "--check" in argv
    stale_pages, wrong = [], []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        lines = text.split("\n")
        with tempfile.TemporaryDirectory() as tmp:
            outcomes = run_page(text, Path(tmp))
        for outcome in reversed(outcomes):
            step, entry = outcome.step, registered(outcome.step)
            if outcome.code is None:
                continue
            if isinstance(entry, Run) and step.kind == "sh" and outcome.code != entry.code:
                wrong.append(f"{page.relative_to(ROOT)}: `{step.key}` exits {outcome.code}, registered {entry.code}")
            if step.shown is None or step.span is None or outcome.output is None:
                continue
            new = refreshed(step.shown, outcome.output)
            if new != step.shown:
                lines[step.span[0]:step.span[1]] = new
        new_text = "\n".join(lines)
        if new_text != text:
            stale_pages.append(page)
            if not check_only and not wrong:
                page.write_text(new_text, encoding="utf-8")
    for line in wrong:
        print(f"regen_docs: {line}", file=sys.stderr)
    for page in stale_pages:
        verb = "stale" if check_only or wrong else "rewritten"
        print(f"regen_docs: {verb}: {page.relative_to(ROOT)}", file=sys.stderr)
    if wrong:
        print("regen_docs: nothing written: fix the exit codes above (or the registry in tests/shown_commands.py)",
              file=sys.stderr)
        return 1
    return 1 if check_only and stale_pages else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
