"""The README's outputs are the tool's real outputs: re-run each shown command and compare."""

from __future__ import annotations

import re
import sys
import unittest

import gate
from tests.support import ROOT, GateCase


def shown_output(command: str) -> str:
    """The lines the README shows after `$ <command>`, up to the next prompt or the end of the block."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    match = re.search(re.escape(f"$ {command}") + r"\n(.*?)(?:\n\$ |\n```)", text, re.DOTALL)
    if match is None:
        raise AssertionError(f"the README does not show `$ {command}`")
    return match.group(1) + "\n"


class ReadmeOutputs(GateCase):
    def gate_output(self, *argv: str) -> str:
        import os

        cwd = os.getcwd()
        os.chdir(ROOT)  # the README's commands run from the repository's top
        try:
            code, out, err = self.run_gate(*argv)
        finally:
            os.chdir(cwd)
        self.assertIn(code, (0, 1), err)
        return out

    def test_the_report_card(self) -> None:
        """The README's report card is exactly what the shown command prints."""
        command = "python3 gate.py --manifest bench.manifest.json --runs runs.jsonl"
        self.assertEqual(shown_output(command), self.gate_output(*command.split()[2:]))

    def test_the_digest(self) -> None:
        """The README's digest is exactly what `digest --runs runs.jsonl` prints."""
        self.assertEqual(shown_output("python3 gate.py digest --runs runs.jsonl"),
                         self.gate_output("digest", "--runs", "runs.jsonl"))

    def test_the_card_example(self) -> None:
        """The README's card example output is exactly what the shown command prints."""
        command = "python3 gate.py --manifest examples/card/bench.manifest.json --runs examples/card/runs.jsonl"
        self.assertEqual(shown_output(command), self.gate_output(*command.split()[2:]))

    def test_the_verify_example(self) -> None:
        """The README's verify output is exactly what the shown command prints."""
        command = "python3 gate.py verify examples/card/tasks.json examples/card/card.json"
        self.assertEqual(shown_output(command), self.gate_output(*command.split()[2:]))

    def test_the_compare_example(self) -> None:
        """The README quotes examples/compare/compare.txt in full."""
        text = (ROOT / "README.md").read_text(encoding="utf-8")
        for folder in ("compare", "compare-samples"):
            compare_txt = (ROOT / "examples" / folder / "compare.txt").read_text(encoding="utf-8")
            self.assertIn(compare_txt.strip(), text)

    def test_the_rank_and_plan_examples(self) -> None:
        """The README quotes examples/rank/rank.txt and the plan command's output in full."""
        text = (ROOT / "README.md").read_text(encoding="utf-8")
        self.assertIn((ROOT / "examples" / "rank" / "rank.txt").read_text(encoding="utf-8").strip(), text)
        command = "python3 gate.py plan --baseline 0.7 --detect 0.05 --discordance 0.2 --samples 5"
        self.assertIn(command, text)
        self.assertIn(self.gate_output(*command.split()[2:]).strip(), text)

    def test_the_size_the_statistics_section_reports(self) -> None:
        """The README's exact size of compare's rule at 40 tasks is what bench/stats.py's enumeration gives."""
        sys.path.insert(0, str(ROOT / "bench"))
        try:
            import stats as bench_stats
        finally:
            sys.path.remove(str(ROOT / "bench"))
        given_s = bench_stats.conditional_power(40, 0.5, "gate", 0.05)
        worst, at = max((bench_stats.averaged(40, i / 2000, given_s), i / 2000) for i in range(1, 2001))
        text = (ROOT / "README.md").read_text(encoding="utf-8")
        self.assertIn(f"| 40 | {worst:.4f} (psi {at:.4f}) |", text)
        self.assertGreater(worst, 0.05)  # the asymptotic rule is slightly liberal at some psi; the README says so
        self.assertLess(worst, 0.06)

    def test_the_claim_lines(self) -> None:
        """Each line the README shows for a --claim command is a line of that command's output."""
        for claim in ("72.5%", "78.4%"):
            with self.subTest(claim=claim):
                command = f"python3 gate.py --manifest bench.manifest.json --runs runs.jsonl --claim {claim}"
                out = self.gate_output(*command.split()[2:])
                for line in shown_output(command).splitlines():
                    self.assertIn(line, out.splitlines())


if __name__ == "__main__":
    unittest.main()


class FindingsCatalogue(GateCase):
    def test_the_readme_findings_table_is_the_catalogue(self) -> None:
        """Every finding code the gate can emit is in the README's table with the same meaning, and no other."""
        text = (ROOT / "README.md").read_text(encoding="utf-8")
        section = text[text.index("## Findings"):]
        section = section[:section.index("\n## ", 3)]
        plain: dict[str, str] = {}
        prefixes: dict[str, str] = {}
        for line in section.splitlines():
            row = re.fullmatch(r"\| (`[^|]+`) \| (.+) \|", line)
            if row is None or row.group(1) == "`code`":
                continue
            for code in re.findall(r"`([^`]+)`", row.group(1)):
                if code.endswith(":…"):
                    prefixes[code[:-1]] = row.group(2)
                else:
                    plain[code] = row.group(2)
        self.assertEqual(plain, dict(gate.FINDINGS))
        self.assertEqual(prefixes, dict(gate.FINDING_PREFIXES))

    def test_a_finding_outside_the_catalogue_cannot_be_made(self) -> None:
        """finding() refuses a code the catalogue lacks, so a new code cannot skip the README."""
        with self.assertRaises(KeyError):
            gate.finding("not_a_code", "x")
        with self.assertRaises(KeyError):
            gate.prefixed("C", [gate.finding("mixed_runs", "x")])


class ImportSectionOutputs(GateCase):
    """The outputs the README's Import section shows are what the tool prints on the same files today."""

    def section(self) -> str:
        text = (ROOT / "README.md").read_text(encoding="utf-8")
        start = text.index("## Import: SWE-bench, Inspect AI, Terminal-Bench, Harbor and the publish-gate report")
        return text[start:text.index("\n## ", start + 3)]

    def shown(self, command: str) -> list[str]:
        """The lines shown after `$ <command>` in the Import section, up to the next prompt or the block's end."""
        match = re.search(re.escape(f"$ {command}") + r"\n(.*?)(?:\n\$ |\n```)", self.section(), re.DOTALL)
        if match is None:
            raise AssertionError(f"the Import section does not show `$ {command}`")
        return match.group(1).splitlines()

    def in_dir(self, *argv: str) -> tuple[int, str, str]:
        import os

        cwd = os.getcwd()
        os.chdir(self.dir)
        try:
            return self.run_gate(*argv)
        finally:
            os.chdir(cwd)

    def test_the_zstd_refusal(self) -> None:
        """`import inspect tiny-success.eval` without a zstd decompressor prints the refusal shown (the Python
        version in it is the running one's)."""
        import shutil
        import sys

        from tests.support import INS_ZSTD

        shutil.copy(INS_ZSTD, self.dir / "tiny-success.eval")
        if isinstance(getattr(__import__("zipfile"), "ZIP_ZSTANDARD", None), int):
            self.skipTest("this Python's zipfile reads zstd")
        code, _out, err = self.in_dir("import", "inspect", "tiny-success.eval")
        self.assertEqual(code, 2)
        here = f"Python {sys.version_info.major}.{sys.version_info.minor} "
        self.assertEqual(err.replace(here, "Python 3.11 ").splitlines(),
                         self.shown("python3 gate.py import inspect tiny-success.eval"))

    def test_the_status_error_import(self) -> None:
        """The tiny-err-status-error.json import: the stderr lines shown, and the records of samples 3 and 4 as cut."""
        import shutil

        from tests.support import INS_ERR

        shutil.copy(INS_ERR, self.dir / "tiny-err-status-error.json")
        command = "python3 gate.py import inspect tiny-err-status-error.json -o runs.jsonl --draft-manifest bench.manifest.json"
        code, _out, err = self.in_dir(*command.split()[2:])
        self.assertEqual(code, 0, err)
        self.assertEqual(err.splitlines(), self.shown(command))
        lines = [line[:120] for line in (self.dir / "runs.jsonl").read_text().splitlines()
                 if re.search(r'"task_id":"(3|4)"', line)]
        self.assertEqual(lines, self.shown("grep -E '\"task_id\":\"(3|4)\"' runs.jsonl | cut -c1-120   "
                                           "# sample 4 errored in both epochs"))

    def test_the_terminal_bench_claim(self) -> None:
        """The orchestrator_claude-4-sonnet import and its report card with --claim 36%, the draft completed as the
        README says (two controls, the envelope filled in, the dataset named, the tb run recipe)."""
        import gzip
        import json

        from tests.support import FIXTURES

        source = FIXTURES / "terminal-bench" / "orchestrator" / "orchestrator_claude-4-sonnet.results.json.gz"
        (self.dir / "results.json").write_bytes(gzip.decompress(source.read_bytes()))
        command = "python3 gate.py import terminal-bench results.json -o runs.jsonl --draft-manifest bench.manifest.json"
        code, _out, err = self.in_dir(*command.split()[2:])
        self.assertEqual(code, 0, err)
        self.assertEqual(err.splitlines(), self.shown(command))
        path = self.dir / "bench.manifest.json"
        manifest = json.loads(path.read_text())
        manifest["controls"] = [{"task_id": "crack-7z-hash", "expected": "pass", "role": "positive"},
                                {"task_id": "build-linux-kernel-qemu", "expected": "fail", "role": "negative"}]
        del manifest["draft"]
        manifest["envelope"].update(runner="local-docker", network="off", wall_clock_s_per_task=3600,
                                    toolchain_sha="0123abcd")
        manifest["rerun_recipe"] = "tb run -d terminal-bench-core==0.1.1 -a orchestrator -m claude-4-sonnet --n-attempts 5"
        manifest["dataset"]["name"] = "terminal-bench-core==0.1.1"
        path.write_text(json.dumps(manifest, indent=2))
        check = "python3 gate.py --manifest bench.manifest.json --runs runs.jsonl --claim 36%"
        code, out, err = self.in_dir(*check.split()[2:])
        self.assertEqual(code, 0, err)
        shown = self.shown(check)
        self.assertEqual(out.splitlines(), shown[:shown.index("")])

    def test_the_control_commands_table_is_the_gates(self) -> None:
        """Each no-edit / known-fix command the README's control table gives for Terminal-Bench and Harbor, and the
        SWE-bench gold command, is the one the gate names in its controls_incomplete finding."""
        section = self.section()
        for fmt in ("terminal-bench", "harbor"):
            self.assertIn(f"`{gate.IMPORTERS[fmt].no_edit}`", section)
            self.assertIn(f"`{gate.IMPORTERS[fmt].known_fix}`", section)
        self.assertIn(f"`{gate.IMPORTERS['swebench'].known_fix}`", section)


def sh_commands(text: str) -> list[tuple[str, str, str | None]]:
    """Every command of the README's ```sh blocks, in order, as (the line as pasted, its key, the output shown).

    The key is the command without its trailing `  # comment`, continuation lines joined. In a block with `$ `
    prompts the lines after a command, up to the next prompt, are its shown output; a block without prompts shows
    none (None). A block whose first line is `# NAME.sh` is a script shown whole: its key is that line."""
    commands: list[tuple[str, str, str | None]] = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, re.DOTALL | re.MULTILINE):
        lines = block.splitlines()
        if lines and re.fullmatch(r"# \S+\.sh", lines[0]):
            commands.append((block, lines[0], None))
            continue
        if any(line.startswith("$ ") for line in lines):
            shown: list[tuple[str, list[str]]] = []
            for line in lines:
                if line.startswith("$ "):
                    shown.append((line[2:], []))
                else:
                    shown[-1][1].append(line)
            commands += [(raw, _key(raw), "".join(f"{line}\n" for line in out)) for raw, out in shown]
            continue
        pasted = ""
        for line in lines:
            if not pasted and (not line.strip() or line.startswith("#")):
                continue
            pasted += line + "\n"
            if not line.endswith("\\"):
                commands.append((pasted.rstrip("\n"), _key(pasted), None))
                pasted = ""
    return commands


def _key(pasted: str) -> str:
    joined = re.sub(r"\s*\\\n\s*", " ", pasted.strip())
    return re.sub(r"\s{2,}#.*$", "", joined)


class ShellCommands(GateCase):
    """Every command in the README's ```sh blocks is run here as pasted, in a copy of the repository, or is named
    below with the reason it is not; a new command fails the first test until it is given one or the other."""

    # The commands run, in README order, and the exit code each must give.
    RUN = {
        "python3 gate.py --manifest bench.manifest.json --runs runs.jsonl": 0,
        "python3 gate.py digest --runs runs.jsonl": 0,
        "python3 gate.py freeze examples/card/tasks.json my-card.json": 0,
        "python3 gate.py verify examples/card/tasks.json examples/card/card.json": 0,
        "python3 gate.py --manifest examples/card/bench.manifest.json --runs examples/card/runs.jsonl": 0,
        "python3 gate.py compare --manifest examples/compare/a.manifest.json --runs examples/compare/a.jsonl "
        "--against-manifest examples/compare/b.manifest.json --against-runs examples/compare/b.jsonl": 0,
        "python3 gate.py rank --list examples/rank/systems.json": 0,
        "python3 gate.py plan --baseline 0.7 --detect 0.05 --discordance 0.2 --samples 5": 0,
        "GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY=summary.md GITHUB_OUTPUT=output.txt python3 gate.py "
        "--manifest bench.manifest.json --runs runs.jsonl > /dev/null": 0,
        "cat output.txt": 0,
        "cat summary.md": 0,
        "GITHUB_ACTIONS=true python3 gate.py --manifest bench.manifest.json --runs runs.jsonl --claim 78.4% "
        "| tail -n 3": 0,
        "python3 gate.py --manifest bench.manifest.json --runs runs.jsonl --output badge=examples/badge.svg "
        "--output shields=benchgate.json > /dev/null": 0,
        "cat benchgate.json": 0,
    }
    # The commands not run, each with its reason.
    NOT_RUN = {
        "python3 -m unittest": "the suite this test belongs to",
        "python3 gate.py digest --ids task_ids.txt": "task_ids.txt stands for the reader's ID list; none is shipped",
        "python3 gate.py rank --manifest a.json --runs a.jsonl --manifest b.json --runs b.jsonl --manifest c.json "
        "--runs c.jsonl": "a.json … c.jsonl stand for the reader's ledgers",
        "pip install . && benchgate --manifest bench.manifest.json --runs runs.jsonl":
            ".ci/run installs the package into a throwaway venv and runs exactly this",
        "# table.sh": "it reads shared/realdata's harness files, which the repository does not hold "
                      "(tests/test_import_real_files.py checks the same figures on the fixtures)",
    }
    # Import commands name the reader's harness output (FILE..., runs/…, logs/…): none of those paths is shipped.
    # The Import section's shown outputs are re-run on the fixtures by ImportSectionOutputs.
    NOT_RUN_IMPORT = re.compile(r"python3 gate\.py import \S+ ")

    def commands(self) -> list[tuple[str, str, str | None]]:
        return sh_commands((ROOT / "README.md").read_text(encoding="utf-8"))

    def test_every_command_is_run_or_has_a_reason(self) -> None:
        """Each ```sh command is in RUN or NOT_RUN (or is an import of the reader's files), and each entry of RUN and
        NOT_RUN is still in the README."""
        keys = [key for _, key, _ in self.commands()]
        unclassified = [k for k in keys if k not in self.RUN and k not in self.NOT_RUN and not self.NOT_RUN_IMPORT.match(k)]
        self.assertEqual(unclassified, [], "a README command neither run by ShellCommands nor given a reason in NOT_RUN")
        self.assertEqual([k for k in [*self.RUN, *self.NOT_RUN] if k not in keys], [], "stale entries")
        self.assertEqual([k for k in keys if k in self.RUN], list(self.RUN), "RUN lists the commands in README order")

    def test_the_commands_run_as_pasted(self) -> None:
        """Run in README order in a fresh copy of the repository (gate.py, the example, examples/), with `python3` the
        interpreter running the tests and no GITHUB_* variable of this machine: each gives its exit code and, where
        the README shows the output, exactly that output. The freeze writes the shipped card's bytes, and the badge
        command rewrites examples/badge.svg with the bytes committed."""
        import os
        import shutil
        import subprocess

        copy = self.dir / "repo"
        copy.mkdir()
        for name in ("gate.py", "bench.manifest.json", "runs.jsonl"):
            shutil.copy(ROOT / name, copy / name)
        shutil.copytree(ROOT / "examples", copy / "examples", ignore=shutil.ignore_patterns("__pycache__"))
        shim = self.dir / "bin"
        shim.mkdir()
        (shim / "python3").symlink_to(sys.executable)
        env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
        env["PATH"] = f"{shim}{os.pathsep}{env.get('PATH', '')}"
        ran = []
        for pasted, key, shown in self.commands():
            if key not in self.RUN:
                continue
            ran.append(key)
            with self.subTest(command=key):
                done = subprocess.run(["/bin/sh", "-c", pasted], cwd=copy, env=env, capture_output=True, text=True,
                                      timeout=120, check=False)
                self.assertEqual(done.returncode, self.RUN[key], done.stderr)
                if shown is not None:
                    self.assertEqual(done.stdout, shown)
        self.assertEqual(ran, list(self.RUN))
        self.assertEqual((copy / "my-card.json").read_bytes(), (ROOT / "examples" / "card" / "card.json").read_bytes())
        self.assertEqual((copy / "examples" / "badge.svg").read_bytes(), (ROOT / "examples" / "badge.svg").read_bytes())
