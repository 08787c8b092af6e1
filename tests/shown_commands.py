"""The commands README.md and docs/*.md show, read from their ```sh blocks, and how each one is run.

One registry (REGISTRY below) holds every shown command: the exit code it must give, or the reason it is not run.
tests/test_readme.py runs them and compares the output each page shows; tests/regen_docs.py runs them and rewrites
those outputs in place. Both use `run_page`, so what the test checks is exactly what the tool rewrites.

What a page may hold:

- A ```sh block whose lines start with `$ `: each `$ ` line is a command, and the lines after it, up to the next
  `$ ` line or the block's end, are its shown output: stdout and stderr as a terminal shows them (one stream, in
  the order the tool writes them). A shown line that is exactly `…` stands for any number of lines: the lines
  before it must be the output's first lines and the lines after it its last.
- A ```sh block without `$ ` lines: each line (continuation lines joined) is a command shown without output; it is
  run all the same and must give its exit code. A block whose first line is `# NAME.sh` is a script shown whole.
- A ```json block whose info string is `json edit=PATH`: the fields a reader fills in by hand in the draft PATH.
  Running the page merges the block into PATH (objects merged key by key, anything else replaced) and deletes
  the draft's `draft` list, as the page tells the reader to.

Each page runs in its own fresh copy of the repository's files (COPIED), from the copy's top, in page order, with
`python3` the interpreter running the tests and no GITHUB_* variable of this machine.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support import gate_command

ROOT = Path(__file__).resolve().parent.parent
ELLIPSIS = "…"
# What each page's run copies from the repository (files and folders), relative to its top.
COPIED = ("gate.py", "bench.manifest.json", "runs.jsonl", "examples", "tests/fixtures")


def pages() -> list[Path]:
    """README.md, then docs/*.md in name order."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _zstd_unreadable() -> str | None:
    if isinstance(getattr(zipfile, "ZIP_ZSTANDARD", None), int):
        return "this Python's zipfile reads zstd, so the refusal shown cannot happen here"
    return None


@dataclass(frozen=True)
class Run:
    """A command that runs: the exit code it must give, and optionally a check that says why not here."""

    code: int
    skip: Callable[[], str | None] = lambda: None


@dataclass(frozen=True)
class NotRun:
    reason: str


SET_FORM = ("the form to type on the reader's draft (this page's bench.manifest.json is the shipped, finished one); "
            "README.md's quick starts run set on real drafts, and tests/test_set.py checks each behaviour")
IMPORT_OF_YOUR_FILES = "its paths stand for the reader's own harness output; the same import runs on a shipped file in README.md's quick starts or in docs/importers.md"
REALDATA = "it reads shared/realdata's harness files, which the repository does not hold (tests/test_import_real_files.py and tests/test_import_one_claim.py check the same figures on the copies in tests/fixtures/)"

# Every command the pages show, by its key (the command without a trailing `  # comment`, continuation lines
# joined): Run(exit code) or NotRun(reason). A command in no page, or a page's command not here, fails the test.
REGISTRY: dict[str, Run | NotRun] = {
    # README.md
    "cp gate.py ~/bin/gate.py": NotRun("it writes outside the repository; `python3 gate.py` below is the same file run in place"),
    "pip install .": NotRun(".ci/run installs the package into a throwaway venv and runs the installed command"),
    "pipx install .": NotRun("pipx installs into the reader's own environment; .ci/run checks `pip install .`, which builds the same wheel"),
    "python3 gate.py --manifest bench.manifest.json --runs runs.jsonl": Run(0),
    "python3 -m unittest": NotRun("the suite this test belongs to"),
    "mkdir -p quickstart/swe quickstart/tb quickstart/ins quickstart/hb quickstart/mine": Run(0),
    "python3 gate.py import swebench examples/swebench/results.json --dataset-ids examples/swebench/verified-ids.txt -o quickstart/swe/runs.jsonl --draft-manifest quickstart/swe/bench.manifest.json": Run(0),
    "python3 gate.py import swebench examples/swebench/noop.validate-noop.json --control no_edit -o quickstart/swe/noop.jsonl --draft-manifest quickstart/swe/bench.manifest.json": Run(0),
    "python3 gate.py import swebench examples/swebench/gold.validate-gold.json --control known_fix -o quickstart/swe/gold.jsonl --draft-manifest quickstart/swe/bench.manifest.json": Run(0),
    "python3 gate.py check --manifest quickstart/swe/bench.manifest.json --runs quickstart/swe/runs.jsonl --claim 74.4%": Run(0),
    "python3 gate.py import inspect examples/inspect/tiny-success.json -o quickstart/ins/runs.jsonl --draft-manifest quickstart/ins/bench.manifest.json": Run(0),
    "python3 gate.py import inspect examples/inspect/tiny_noedit.json --control no_edit -o quickstart/ins/noedit.jsonl --draft-manifest quickstart/ins/bench.manifest.json": Run(0),
    "python3 gate.py import inspect examples/inspect/tiny_knownfix.json --control known_fix -o quickstart/ins/knownfix.jsonl --draft-manifest quickstart/ins/bench.manifest.json": Run(0),
    "python3 gate.py check --manifest quickstart/ins/bench.manifest.json --runs quickstart/ins/runs.jsonl --claim 60%": Run(0),
    "python3 gate.py import terminal-bench examples/terminal-bench/tb_rc2_g5_1 -o quickstart/tb/runs.jsonl --draft-manifest quickstart/tb/bench.manifest.json": Run(0),
    "python3 gate.py import terminal-bench examples/terminal-bench/nop-run --control no_edit -o quickstart/tb/nop.jsonl --draft-manifest quickstart/tb/bench.manifest.json": Run(0),
    "python3 gate.py import terminal-bench examples/terminal-bench/oracle-run --control known_fix -o quickstart/tb/oracle.jsonl --draft-manifest quickstart/tb/bench.manifest.json": Run(0),
    "python3 gate.py check --manifest quickstart/tb/bench.manifest.json --runs quickstart/tb/runs.jsonl --claim 48.75%": Run(0),
    "python3 gate.py import harbor examples/harbor/dna-insert--pi -o quickstart/hb/runs.jsonl --draft-manifest quickstart/hb/bench.manifest.json": Run(0),
    "python3 gate.py import harbor examples/harbor/nop-job --control no_edit -o quickstart/hb/nop.jsonl --draft-manifest quickstart/hb/bench.manifest.json": Run(0),
    "python3 gate.py import harbor examples/harbor/oracle-job --control known_fix -o quickstart/hb/oracle.jsonl --draft-manifest quickstart/hb/bench.manifest.json": Run(0),
    "python3 gate.py check --manifest quickstart/hb/bench.manifest.json --runs quickstart/hb/runs.jsonl --claim 100%": Run(0),
    "python3 gate.py init --from-runs runs.jsonl > quickstart/mine/bench.manifest.json": Run(0),
    "python3 gate.py check --manifest quickstart/mine/bench.manifest.json --runs runs.jsonl --claim 72.5%": Run(0),
    "python3 gate.py set quickstart/tb/bench.manifest.json envelope.runner=local-docker envelope.network=open system.model=gpt-5 envelope.wall_clock_s_per_task='{\"not_recorded\": \"run_metadata.json records no per-task limit\"}'": Run(0),
    "python3 gate.py set quickstart/tb/bench.manifest.json --confirm dataset": Run(0),
    "python3 gate.py set quickstart/swe/bench.manifest.json 'dataset.name=SWE-bench Verified' system.agent=mini-SWE-agent system.model=claude-4-5-opus-medium-20251101 envelope.network=open envelope.wall_clock_s_per_task='{\"not_recorded\": \"results.json records no --timeout\"}' envelope.toolchain_sha='{\"not_recorded\": \"results.json names no harness version\"}'": Run(0),
    "python3 gate.py set quickstart/ins/bench.manifest.json envelope.network=off envelope.toolchain_sha='\"inspect_ai 0.3.285\"' envelope.wall_clock_s_per_task='{\"not_recorded\": \"the log sets no --time-limit\"}'": Run(0),
    "python3 gate.py set quickstart/hb/bench.manifest.json envelope.network=open envelope.wall_clock_s_per_task='{\"not_recorded\": \"config.json records multipliers, not the tasks limits\"}' envelope.toolchain_sha='{\"not_recorded\": \"the job records no harness commit\"}'": Run(0),
    "python3 gate.py set quickstart/mine/bench.manifest.json claim_id=agent-x-mini-2026-10-16 dataset.name=local-40 'system.agent=agent-x 2026-10-16' system.model=x-mini controls='[{\"task_id\": \"neg-01\", \"expected\": \"fail\", \"role\": \"negative\"}, {\"task_id\": \"pos-01\", \"expected\": \"pass\", \"role\": \"positive\"}]' envelope.runner=local-docker envelope.network=off envelope.wall_clock_s_per_task=900 envelope.toolchain_sha='\"9c1e4b2d7a30f5e8\"' 'rerun_recipe=python3 gate.py --manifest quickstart/mine/bench.manifest.json --runs runs.jsonl' --confirm dataset": Run(0),
    "python3 gate.py --manifest bench.manifest.json --runs runs.jsonl --claim 78.4%": Run(1),
    "python3 gate.py compare --manifest examples/compare/a.manifest.json --runs examples/compare/a.jsonl "
    "--against-manifest examples/compare/b.manifest.json --against-runs examples/compare/b.jsonl": Run(0),
    # docs/ci.md
    "GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY=summary.md GITHUB_OUTPUT=output.txt python3 gate.py "
    "--manifest bench.manifest.json --runs runs.jsonl > /dev/null": Run(0),
    "cat output.txt": Run(0),
    "cat summary.md": Run(0),
    "GITHUB_ACTIONS=true python3 gate.py --manifest bench.manifest.json --runs runs.jsonl --claim 78.4% "
    "| tail -n 3": Run(0),
    "python3 gate.py --manifest bench.manifest.json --runs runs.jsonl --output badge=examples/badge.svg "
    "--output shields=benchgate.json > /dev/null": Run(0),
    "cat benchgate.json": Run(0),
    "python3 gate.py compare --fail-on regression --manifest examples/rank/systems/08-claude-4-sonnet-202"
    "50514.manifest.json --runs examples/rank/systems/08-claude-4-sonnet-20250514.jsonl --against-manifes"
    "t examples/rank/systems/03-claude-4-5-sonnet-20250929.manifest.json --against-runs examples/rank/systems/03-claude-4-5-sonnet-20250929.jsonl": Run(1),
    "pip install . && benchgate --manifest bench.manifest.json --runs runs.jsonl":
        NotRun(".ci/run installs the package into a throwaway venv and runs exactly this"),
    # docs/manifest.md
    "python3 gate.py digest --runs runs.jsonl": Run(0),
    "python3 gate.py digest --ids task_ids.txt": NotRun("task_ids.txt stands for the reader's ID list; none is shipped"),
    "python3 gate.py freeze examples/card/tasks.json my-card.json": Run(0),
    "python3 gate.py verify examples/card/tasks.json examples/card/card.json": Run(0),
    "python3 gate.py freeze examples/card/tasks.min.json card.json": Run(1),
    "python3 gate.py --manifest examples/card/bench.manifest.json --runs examples/card/runs.jsonl": Run(0),
    "python3 gate.py --manifest bench.manifest.json --runs runs.jsonl --claim 72.5%": Run(0),
    "python3 gate.py set bench.manifest.json envelope.runner=local-docker envelope.network=off system.model=gpt-5":
        NotRun(SET_FORM),
    "python3 gate.py set bench.manifest.json envelope.wall_clock_s_per_task='{\"not_recorded\": \"the harness logs no limit\"}'":
        NotRun(SET_FORM),
    "python3 gate.py set bench.manifest.json --confirm dataset": NotRun(SET_FORM),
    # docs/statistics.md
    "python3 gate.py compare --manifest examples/compare-samples/a.manifest.json --runs examples/compare-samples/a.jsonl "
    "--against-manifest examples/compare-samples/b.manifest.json --against-runs examples/compare-samples/b.jsonl": Run(0),
    "python3 gate.py rank --list examples/rank/systems.json": Run(0),
    "python3 gate.py rank --manifest a.json --runs a.jsonl --manifest b.json --runs b.jsonl --manifest c.json "
    "--runs c.jsonl": NotRun("a.json … c.jsonl stand for the reader's ledgers"),
    "python3 gate.py plan --baseline 0.7 --detect 0.05 --discordance 0.2 --samples 5": Run(0),
    "python3 examples/swebench_claims.py examples/rank/verified-bash-only.json 7,23,18,0,2 --out claims": Run(0),
    # docs/importers.md
    "python3 gate.py import inspect tests/fixtures/inspect/tiny-success.eval": Run(2, _zstd_unreadable),
    "python3 gate.py import inspect tests/fixtures/inspect/tiny-err-status-error.json -o err.jsonl "
    "--draft-manifest err.manifest.json": Run(0),
    "grep -E '\"task_id\":\"(3|4)\"' err.jsonl | cut -c1-120": Run(0),
    "python3 gate.py import swebench tests/fixtures/wild3/swebench/Starmys__SWE-bench/gold.validate-gold.json "
    "-o starmys.jsonl --draft-manifest starmys.manifest.json": Run(0),
    "python3 gate.py check --manifest starmys.manifest.json --runs starmys.jsonl": Run(1),
    "python3 gate.py import csv tests/fixtures/wild3/other/hal-derived/"
    "corebench_hard_claude_code_claudeopus41_1764560915_UPLOAD.csv --task-id task_id --pass \"correct == 1\" "
    "-o hal.jsonl": Run(0),
    "# table.sh": NotRun(REALDATA),
}
# Import commands whose paths are the reader's (FILE..., runs/…, logs/…): shown as the form to type, not run.
READERS_IMPORT = re.compile(r"python3 gate\.py import \S+ (FILE|SUBMISSION_FOLDER|runs/|logs/|jobs/|study/|submission/|model\.run_id|"
                            r"results/results\.json|results\.json --dataset-ids verified|report\.json|TB_RUN|NOP_RUN|"
                            r"ORACLE_RUN)")
# Output lines that depend on the machine, made the same before comparing: (pattern, what the page shows).
NORMALISE = [(re.compile(r"which Python 3\.\d+ cannot read"), "which Python 3.11 cannot read")]


@dataclass
class Step:
    """One thing a page asks to run: a command (`kind` "sh") or a draft edit (`kind` "edit")."""

    kind: str
    pasted: str  # the command as pasted; for an edit, the JSON text
    key: str  # the registry key; for an edit, the path edited
    shown: list[str] | None  # the output lines the page shows (None: no output shown)
    span: tuple[int, int] | None  # the page's line numbers (0-based, end exclusive) of the shown output


def _key(pasted: str) -> str:
    joined = re.sub(r"\s*\\\n\s*", " ", pasted.strip())
    return re.sub(r"\s{2,}#.*$", "", joined)


def steps(text: str) -> list[Step]:
    """The page's steps, in order."""
    lines = text.split("\n")
    out: list[Step] = []
    i = 0
    while i < len(lines):
        fence = re.fullmatch(r"```(\S*)(?: (.*))?", lines[i])
        if fence is None or not fence.group(1):
            if lines[i].startswith("```"):  # a fence with no language: skip to its end
                i += 1
                while i < len(lines) and not lines[i].startswith("```"):
                    i += 1
            i += 1
            continue
        lang, info = fence.group(1), fence.group(2) or ""
        start = i + 1
        end = start
        while not lines[end].startswith("```"):
            end += 1
        body = lines[start:end]
        if lang == "json" and info.startswith("edit="):
            out.append(Step("edit", "\n".join(body), info[len("edit="):], None, None))
        elif lang == "sh":
            out += _sh_steps(body, start)
        i = end + 1
    return out


def _sh_steps(body: list[str], first: int) -> list[Step]:
    if body and re.fullmatch(r"# \S+\.sh", body[0]):
        return [Step("sh", "\n".join(body), body[0], None, None)]
    if any(line.startswith("$ ") for line in body):
        found: list[Step] = []
        for n, line in enumerate(body):
            if line.startswith("$ "):
                found.append(Step("sh", line[2:], _key(line[2:]), [], (first + n + 1, first + n + 1)))
            else:
                step = found[-1]
                assert step.shown is not None and step.span is not None
                step.shown.append(line)
                step.span = (step.span[0], first + n + 1)
        return found
    found = []
    pasted = ""
    for line in body:
        if not pasted and (not line.strip() or line.startswith("#")):
            continue
        pasted += line + "\n"
        if not line.endswith("\\"):
            found.append(Step("sh", pasted.rstrip("\n"), _key(pasted), None, None))
            pasted = ""
    return found


def registered(step: Step) -> Run | NotRun | None:
    if step.kind == "edit":
        return Run(0)
    if step.key in REGISTRY:
        return REGISTRY[step.key]
    if READERS_IMPORT.match(step.key):
        return NotRun(IMPORT_OF_YOUR_FILES)
    return None


def fresh_copy(into: Path) -> Path:
    """The repository's files a page's commands need, copied into `into`/repo, and a `python3` on PATH first."""
    repo = into / "repo"
    repo.mkdir(parents=True)
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, repo / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source, repo / name)
    shim = into / "bin"
    shim.mkdir()
    # `python3 gate.py ...` runs gate.py's code object, compiled once per test run as every other subprocess
    # test does (tests/support.py: CPython caches no bytecode for a script); any other `python3` is the interpreter
    launcher = " ".join(map(shlex.quote, gate_command()[:-1]))  # (all but gate.py's path)
    (shim / "python3").write_text(
        "#!/bin/sh\n"
        'case "$1" in\n'
        f'  gate.py|*/gate.py) script=$1; shift; exec {launcher} "$script" "$@" ;;\n'
        "esac\n"
        f'exec {shlex.quote(sys.executable)} "$@"\n', encoding="utf-8")
    (shim / "python3").chmod(0o755)
    return repo


def merge(into: Any, edit: Any) -> Any:
    if isinstance(into, dict) and isinstance(edit, dict):
        for key, value in edit.items():
            into[key] = merge(into.get(key), value)
        return into
    return edit


@dataclass
class Outcome:
    step: Step
    code: int | None  # None: not run
    output: list[str] | None  # what the command printed, normalised; None: not run
    skipped: str | None = None


def run_page(text: str, into: Path) -> list[Outcome]:
    """Run a page's steps in order in a fresh copy of the repository made under `into`."""
    repo = fresh_copy(into)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    env["PATH"] = f"{into / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    results: list[Outcome] = []
    for step in steps(text):
        entry = registered(step)
        if step.kind == "edit":
            path = repo / step.key
            manifest = json.loads(path.read_text(encoding="utf-8"))
            merge(manifest, json.loads(step.pasted))
            manifest.pop("draft", None)
            path.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
            results.append(Outcome(step, 0, None))
            continue
        if not isinstance(entry, Run):
            results.append(Outcome(step, None, None))
            continue
        reason = entry.skip()
        if reason:
            results.append(Outcome(step, None, None, skipped=reason))
            continue
        done = subprocess.run(["/bin/sh", "-c", step.pasted], cwd=repo, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=300, check=False)
        output = done.stdout
        for pattern, shown in NORMALISE:
            output = pattern.sub(shown, output)
        results.append(Outcome(step, done.returncode, output.split("\n")[:-1] if output.endswith("\n")
                               else output.split("\n") if output else []))
    return results


def matches(shown: list[str], output: list[str]) -> bool:
    """Does the output fit what the page shows (a `…` line standing for any lines)?"""
    if ELLIPSIS not in shown:
        return shown == output
    cut = shown.index(ELLIPSIS)
    head, tail = shown[:cut], shown[cut + 1:]
    return (len(output) >= len(head) + len(tail) and output[:len(head)] == head
            and (not tail or output[-len(tail):] == tail))


def refreshed(shown: list[str], output: list[str]) -> list[str]:
    """What the page should show for this output, keeping a `…` with as many lines before and after it."""
    if ELLIPSIS not in shown:
        return output
    cut = shown.index(ELLIPSIS)
    head, tail = cut, len(shown) - cut - 1
    if len(output) <= head + tail:
        return output
    return [*output[:head], ELLIPSIS, *(output[-tail:] if tail else [])]
