"""CI integration: GitHub mode (step summary, step outputs, ::error:: annotations escaped as GitHub's toolkit
escapes them), every --output kind, the Makefile's help and gate targets, the composite action's script run as
GitHub runs it, did-you-mean for commands and options, and the program named `benchgate` when installed.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import gate
from tests.builders import paired_ledgers, record, valid_ledger
from tests.support import EXAMPLE_COMPARE, ROOT, SVG_NS, GateCase, assert_safe_svg

EXAMPLE_HEADLINE = "29/40 = 0.725 [0.572, 0.839]"
# the badge reads alone: the suite (its label), the metric, the interval's confidence, the counts
EXAMPLE_BADGE = "pass_rate 72.5% (95% CI 57–84) · 29/40"
ANNOTATION = re.compile(r"::error title=([^:]*)::(.*)")


def undo_escape(text: str, prop: bool = False) -> str:
    """Undo GitHub's workflow-command escaping. %25 is undone last, so an escaped literal "%0A" (written
    "%250A") comes back as the four characters, not as a newline."""
    if prop:
        text = text.replace("%3A", ":").replace("%2C", ",")
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


@contextlib.contextmanager
def github_env(**values: str) -> Iterator[None]:
    """os.environ without any GITHUB_* variable of the machine running the tests (they may run in Actions
    themselves), plus these values; restored afterwards."""
    with mock.patch.dict(os.environ):
        for key in [k for k in os.environ if k.startswith("GITHUB_")]:
            del os.environ[key]
        os.environ.update(values)
        yield


def python_shim(folder: Path) -> dict[str, str]:
    """An environment whose `python3` is the interpreter running the tests, and no GITHUB_* variable."""
    shim = folder / "shim-bin"
    if not shim.exists():
        shim.mkdir()
        (shim / "python3").symlink_to(sys.executable)
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    env["PATH"] = f"{shim}{os.pathsep}{env.get('PATH', '')}"
    return env


class ExampleCase(GateCase):
    """The shipped example copied into the test's folder, so no test can write beside the repository's files."""

    def setUp(self) -> None:
        super().setUp()
        self.copy_into(ROOT, "bench.manifest.json", "runs.jsonl")
        self.m, self.r = self.dir / "bench.manifest.json", self.dir / "runs.jsonl"
        self.pair = ("--manifest", str(self.m), "--runs", str(self.r))

    def blocked_pair(self) -> tuple[str, ...]:
        """A BLOCKED ledger whose findings carry % , and : in their codes and messages: two replicates, the second
        with a task whose id is `ta,sk:50%0Ax` (a literal %0A, which must not reach GitHub as a newline)."""
        manifest, records = valid_ledger()
        manifest["replicates"] = ["s,1:a", "s2"]
        runs = [dict(r, run_id="s,1:a") for r in records] + [dict(r, run_id="s2") for r in records]
        runs.append(record("ta,sk:50%0Ax", "pass", run_id="s2"))
        m = self.write_json("blocked.manifest.json", manifest)
        r = self.write_jsonl("blocked.jsonl", runs)
        return "--manifest", str(m), "--runs", str(r)


class GitHubMode(ExampleCase):
    """--github or GITHUB_ACTIONS=true: the step summary, the step outputs and one annotation per finding."""

    def paths(self) -> tuple[Path, Path]:
        return self.dir / "summary.md", self.dir / "output.txt"

    def test_the_step_summary_is_the_markdown_card(self) -> None:
        """The summary file gets the `--format markdown` card, then a blank line that keeps the cards of successive
        steps apart; a second run appends. GITHUB_OUTPUT gets exactly verdict= and headline=; stdout is unchanged."""
        _, markdown, _ = self.run_gate(*self.pair, "--format", "markdown")
        _, plain, _ = self.run_gate(*self.pair)
        summary, output = self.paths()
        with github_env(GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary), GITHUB_OUTPUT=str(output)):
            code, out, err = self.run_gate(*self.pair)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, plain, "a PUBLISHABLE run adds no annotation to the report")
        self.assertTrue(markdown.startswith("### benchgate: agent-x-mini-2026-10-16 is **PUBLISHABLE**"), markdown)
        self.assertEqual(summary.read_text(encoding="utf-8"), markdown + "\n")
        self.assertEqual(output.read_text(encoding="utf-8"), f"verdict=PUBLISHABLE\nheadline={EXAMPLE_HEADLINE}\n")
        with github_env(GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary), GITHUB_OUTPUT=str(output)):
            self.run_gate(*self.pair)
        self.assertEqual(summary.read_text(encoding="utf-8"), (markdown + "\n") * 2)

    def test_each_finding_is_one_annotation_that_decodes_to_its_message(self) -> None:
        """A BLOCKED ledger: one `::error title=CODE::MESSAGE` line per finding, in order, after the text report;
        the message escapes % (a literal %0A stays text) but not : or ,; the title escapes : and , as well."""
        pair = self.blocked_pair()
        code, out, _ = self.run_gate(*pair, "--format", "json")
        self.assertEqual(code, 1)
        findings = [(f["code"], f["message"]) for f in json.loads(out)["findings"]]
        self.assertIn("R2:unexpected_task", dict(findings))
        _, plain, _ = self.run_gate(*pair)
        summary, output = self.paths()
        with github_env(GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary), GITHUB_OUTPUT=str(output)):
            code, out, err = self.run_gate(*pair)
        self.assertEqual((code, err), (1, ""))
        self.assertTrue(out.startswith(plain), "the annotations follow the text report")
        notes = out[len(plain):].splitlines()
        self.assertEqual(len(notes), len(findings), notes)
        decoded = []
        for line in notes:
            match = ANNOTATION.fullmatch(line)
            self.assertIsNotNone(match, line)
            assert match is not None
            decoded.append((undo_escape(match.group(1), prop=True), undo_escape(match.group(2))))
        self.assertEqual(decoded, findings)
        unexpected = next(line for line in notes if "unexpected_task" in line)
        self.assertTrue(unexpected.startswith("::error title=R2%3Aunexpected_task::"), unexpected)
        self.assertIn("ta,sk:50%250Ax", unexpected)
        self.assertTrue(output.read_text(encoding="utf-8").startswith("verdict=BLOCKED\nheadline="))
        self.assertIn("**BLOCKED**", summary.read_text(encoding="utf-8"))

    def test_annotations_go_to_stderr_when_stdout_is_json(self) -> None:
        """With --format json stdout stays one JSON document; the annotations go to stderr, one a finding."""
        pair = self.blocked_pair()
        _, expected, _ = self.run_gate(*pair, "--format", "json")
        with github_env(GITHUB_ACTIONS="true"):
            code, out, err = self.run_gate(*pair, "--format", "json")
        self.assertEqual((code, out), (1, expected))
        lines = err.splitlines()
        self.assertEqual(len(lines), len(json.loads(out)["findings"]))
        self.assertTrue(all(ANNOTATION.fullmatch(line) for line in lines), lines)

    def test_the_escaping_rules(self) -> None:
        """github_escape: % first, then CR and LF; a property also escapes : and ,."""
        self.assertEqual(gate.github_escape("50%0A: a,b\r\nc"), "50%250A: a,b%0D%0Ac")
        self.assertEqual(gate.github_escape("R2:x,y%\n", prop=True), "R2%3Ax%2Cy%25%0A")
        for text in ("50%0A: a,b\r\nc", "%25%3A%2C", "plain"):
            self.assertEqual(undo_escape(gate.github_escape(text)), text)
            self.assertEqual(undo_escape(gate.github_escape(text, prop=True), prop=True), text)

    def test_nothing_is_written_outside_github_mode(self) -> None:
        """Without GITHUB_ACTIONS=true and without --github the files named by the variables are not touched and no
        annotation is printed; --github alone turns the mode on."""
        pair = self.blocked_pair()
        summary, output = self.paths()
        for actions in (None, "false"):
            with self.subTest(GITHUB_ACTIONS=actions):
                extra = {} if actions is None else {"GITHUB_ACTIONS": actions}
                with github_env(GITHUB_STEP_SUMMARY=str(summary), GITHUB_OUTPUT=str(output), **extra):
                    code, out, err = self.run_gate(*pair)
                self.assertEqual(code, 1)
                self.assertNotIn("::error", out + err)
                self.assertFalse(summary.exists() or output.exists())
        with github_env(GITHUB_STEP_SUMMARY=str(summary), GITHUB_OUTPUT=str(output)):
            code, out, _ = self.run_gate(*pair, "--github")
        self.assertEqual(code, 1)
        self.assertIn("::error title=R2%3Aunexpected_task::", out)
        self.assertTrue(summary.exists() and output.exists())

    def test_an_input_error_is_annotated_too(self) -> None:
        """Exit 2 in GitHub mode: the error line, then `::error title=gate.py::` with the same message, on stderr;
        the summary says ERROR and the outputs verdict=ERROR (there is no verdict, and a later step can tell)."""
        summary, output = self.paths()
        missing = str(self.dir / "missing.json")
        with github_env(GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary), GITHUB_OUTPUT=str(output)):
            code, out, err = self.run_gate("--manifest", missing, "--runs", str(self.r))
        self.assertEqual((code, out), (2, ""))
        lines = err.splitlines()
        self.assertEqual(len(lines), 2, err)
        self.assertTrue(lines[0].startswith("gate.py: error: "), lines)
        message = lines[0][len("gate.py: error: "):]
        self.assertIn(missing, message)
        self.assertEqual(lines[1], f"::error title=gate.py::{gate.github_escape(message)}")
        self.assertEqual(output.read_text(encoding="utf-8"), "verdict=ERROR\n")
        self.assertIn(gate._md(message), summary.read_text(encoding="utf-8"))  # Markdown-escaped (a _ in the path)


class OutputFiles(ExampleCase):
    """--output FORMAT=PATH: every kind written from the same run, parsed, and refused where it would clobber."""

    def test_every_kind_is_written_from_the_same_run(self) -> None:
        """One run writes all six kinds; text, json, markdown and svg are byte for byte what --format prints, JSON's
        top-level keys are the report's, the SVGs parse, and stdout is still the text report."""
        kinds = ("text", "json", "markdown", "svg", "badge", "shields")
        paths = {kind: self.dir / f"out-{kind}" for kind in kinds}
        specs = [arg for kind in kinds for arg in ("--output", f"{kind}={paths[kind]}")]
        code, out, err = self.run_gate(*self.pair, *specs)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, self.run_gate(*self.pair)[1])
        for kind in ("text", "json", "markdown", "svg"):
            with self.subTest(kind=kind):
                self.assertEqual(paths[kind].read_text(encoding="utf-8"), self.run_gate(*self.pair, "--format", kind)[1])
        report = json.loads(paths["json"].read_text(encoding="utf-8"))
        self.assertEqual(list(report), list(json.loads(self.run_gate(*self.pair, "--format", "json")[1])))
        self.assertEqual(report["verdict"], "PUBLISHABLE")
        assert_safe_svg(self, paths["svg"].read_text(encoding="utf-8"))
        badge = assert_safe_svg(self, paths["badge"].read_text(encoding="utf-8"))
        self.assertEqual([t.text for t in badge.iter(f"{SVG_NS}text")], ["local-40", EXAMPLE_BADGE])
        self.assertEqual(badge.findall(f"{SVG_NS}rect")[1].get("fill"), "#4c1")
        shields = json.loads(paths["shields"].read_text(encoding="utf-8"))
        self.assertEqual(shields, {"schemaVersion": 1, "label": "local-40", "message": EXAMPLE_BADGE,
                                   "color": "brightgreen"})

    def test_the_badge_rounds_each_bound_to_a_whole_percent(self) -> None:
        """39 of 40 (neg-01 fails): Wilson's 95% interval is [0.8712, 0.9956] (by hand: centre 0.9334, half-width
        0.0622), so the badge says 87–100, each bound rounded from its percent."""
        manifest, records = valid_ledger(passes=39, fails=1, unscoreable=())
        paths = self.write_json("m.json", manifest), self.write_jsonl("r.jsonl", records)
        shields = self.dir / "shields.json"
        code, _out, err = self.run_gate("check", "--manifest", str(paths[0]), "--runs", str(paths[1]),
                                        "--output", f"shields={shields}")
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(json.loads(shields.read_text(encoding="utf-8"))["message"],
                         "pass_rate 97.5% (95% CI 87–100) · 39/40")

    def test_a_blocked_badge_says_blocked_in_red(self) -> None:
        """A BLOCKED ledger (the example with the scoreable-only rate as its claim): BLOCKED on red, in both forms."""
        badge, shields = self.dir / "badge.svg", self.dir / "shields.json"
        code, _, _ = self.run_gate(*self.pair, "--claim", "78.4%", "--output", f"badge={badge}",
                                   "--output", f"shields={shields}")
        self.assertEqual(code, 1)
        root = ET.fromstring(badge.read_text(encoding="utf-8"))
        self.assertEqual([t.text for t in root.iter(f"{SVG_NS}text")], ["local-40", "BLOCKED"])
        self.assertEqual(root.findall(f"{SVG_NS}rect")[1].get("fill"), "#e05d44")
        self.assertEqual(json.loads(shields.read_text(encoding="utf-8"))["message"], "BLOCKED")
        self.assertEqual(json.loads(shields.read_text(encoding="utf-8"))["color"], "red")

    def test_the_badge_label_names_the_system_and_the_title_carries_the_caveats(self) -> None:
        """--badge-label sets the badge's left text (the system, say); its tooltip names the claim, the system and
        the author's notes (old code: "benchgate" and the figure alone, the rest only in the tooltip)."""
        manifest = json.loads((ROOT / "bench.manifest.json").read_text(encoding="utf-8"))
        manifest["notes"] = ["controls are stand-ins"]
        path = self.write_json("m.json", manifest)
        badge = self.dir / "b.svg"
        code, _, err = self.run_gate("check", "--manifest", str(path), "--runs", str(ROOT / "runs.jsonl"), "--output",
                                     f"badge={badge}", "--badge-label", "agent-x on local-40")
        self.assertEqual(code, 0, err)
        root = ET.fromstring(badge.read_text(encoding="utf-8"))
        self.assertEqual([t.text for t in root.iter(f"{SVG_NS}text")], ["agent-x on local-40", EXAMPLE_BADGE])
        title = root.find(f"{SVG_NS}title").text
        self.assertIn("claim agent-x-mini-2026-10-16", title)
        self.assertIn("controls are stand-ins", title)

    def test_the_shipped_badge_is_the_tools(self) -> None:
        """examples/badge.svg, shown in the README, is what --output badge= writes for the shipped example today."""
        badge = self.dir / "badge.svg"
        self.run_gate(*self.pair, "--output", f"badge={badge}")
        self.assertEqual((ROOT / "examples" / "badge.svg").read_text(encoding="utf-8"), badge.read_text(encoding="utf-8"))

    def assertRefused(self, argv: tuple[str, ...], *fragments: str) -> str:
        code, out, err = self.run_gate(*argv)
        self.assertEqual((code, out), (2, ""), err)
        self.assertEqual(len(err.splitlines()), 1, err)
        self.assertNotIn("Traceback", err)
        for fragment in fragments:
            self.assertIn(fragment, err)
        return err

    def test_an_output_over_an_input_or_another_output_is_refused(self) -> None:
        """PATH naming the manifest or the runs file (also through a symlink), or two outputs on one path: exit 2,
        the inputs keep their bytes, and no output of the command is written."""
        before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in (self.m, self.r)}
        (self.dir / "link.jsonl").symlink_to(self.r)
        fresh = self.dir / "fresh.svg"
        for target in (self.m, self.r, self.dir / "link.jsonl"):
            with self.subTest(target=target.name):
                self.assertRefused((*self.pair, "--output", f"svg={fresh}", "--output", f"json={target}"),
                                   "also an input")
                self.assertFalse(fresh.exists())
        self.assertEqual({p: (p.read_bytes(), p.stat().st_mtime_ns) for p in (self.m, self.r)}, before)
        same = self.dir / "same.json"
        self.assertRefused((*self.pair, "--output", f"json={same}", "--output", f"markdown={self.dir / '.' / 'same.json'}"),
                           "the same file")
        self.assertFalse(same.exists())

    def test_an_unknown_format_is_refused_with_did_you_mean(self) -> None:
        """--output jsn=PATH: exit 2 naming the kinds and the nearest one; a spec without = is refused too."""
        target = self.dir / "x.json"
        self.assertRefused((*self.pair, "--output", f"jsn={target}"), "unknown output format 'jsn'", "did you mean 'json'")
        self.assertRefused((*self.pair, "--output", f"bagde={target}"), "did you mean 'badge'")
        self.assertRefused((*self.pair, "--output", "json"), "FORMAT=PATH")
        self.assertFalse(target.exists())

    def test_compare_writes_its_json_and_refuses_a_badge(self) -> None:
        """compare --output json= is its --format json byte for byte; badge and shields are check's alone."""
        folder = ROOT / "examples" / "compare"
        pair = ("compare", "--manifest", str(folder / "a.manifest.json"), "--runs", str(folder / "a.jsonl"),
                "--against-manifest", str(folder / "b.manifest.json"), "--against-runs", str(folder / "b.jsonl"))
        target = self.dir / "compare.json"
        code, _, err = self.run_gate(*pair, "--output", f"json={target}")
        self.assertIn(code, (0, 1), err)
        self.assertEqual(target.read_text(encoding="utf-8"), self.run_gate(*pair, "--format", "json")[1])
        self.assertRefused((*pair, "--output", f"badge={self.dir / 'b.svg'}"), "compare writes text, json, markdown, svg")
        self.assertFalse((self.dir / "b.svg").exists())


@unittest.skipIf(shutil.which("make") is None, "make is not installed")
class MakeTargets(unittest.TestCase):
    """The Makefile: help (the default goal) lists the targets; gate passes CLAIM as --claim."""

    @staticmethod
    def make(*argv: str) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "MAKE", "CLAIM"))}
        env["PYTHON"] = sys.executable
        return subprocess.run(["make", "--no-print-directory", "-C", str(ROOT), *argv], env=env, capture_output=True,
                              text=True, timeout=120, check=False)

    def test_help_lists_every_documented_target(self) -> None:
        """`make` and `make help` print the same list, one line per target with a ## comment, with its comment."""
        documented = re.findall(r"^([A-Za-z0-9_.-]+):[^\n]*?##\s*(.+)$", (ROOT / "Makefile").read_text(), re.MULTILINE)
        self.assertGreaterEqual(len(documented), 10)
        self.assertIn("help", dict(documented))
        listed = self.make("help")
        self.assertEqual(listed.returncode, 0, listed.stderr)
        for target, comment in documented:
            with self.subTest(target=target):
                self.assertRegex(listed.stdout, rf"(?m)^  {re.escape(target)} +{re.escape(comment.strip())}$")
        self.assertEqual(self.make().stdout, listed.stdout, "help is the default goal")

    def test_gate_passes_the_claim(self) -> None:
        """make gate CLAIM=78.4% fails (the scoreable-only rate, not the headline 29/40 = 72.5%); CLAIM=72.5% passes."""
        wrong = self.make("gate", "CLAIM=78.4%")
        self.assertNotEqual(wrong.returncode, 0)
        self.assertIn("claim_is_secondary", wrong.stdout)
        right = self.make("gate", "CLAIM=72.5%")
        self.assertEqual(right.returncode, 0, right.stderr)
        self.assertIn("verdict     : PUBLISHABLE", right.stdout)
        self.assertNotIn("claim check : 78.4%", right.stdout)


def action_step(text: str, step_id: str) -> tuple[dict[str, str], str]:
    """The env mapping and the run: script of the step with this id in action.yml, read by indentation (the
    standard library has no YAML reader): the step starts at `- id: <id>`, its keys are indented under it, and a
    `run: |` block is every following line indented deeper than `run:`."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if re.fullmatch(rf"\s*- id: {re.escape(step_id)}", line))
    key_indent = lines[start].index("id:")
    env: dict[str, str] = {}
    script: list[str] = []
    i = start + 1
    while i < len(lines):
        line = lines[i]
        indent = len(line) - len(line.lstrip())
        if line.strip() and indent < key_indent:
            break  # the next step, or the end of the steps
        if line.strip() == "env:":
            i += 1
            while i < len(lines) and (len(lines[i]) - len(lines[i].lstrip()) > key_indent or not lines[i].strip()):
                name, _, value = lines[i].strip().partition(": ")
                if name:
                    env[name] = value
                i += 1
            continue
        if line.strip() == "run: |":
            i += 1
            while i < len(lines) and (len(lines[i]) - len(lines[i].lstrip()) > key_indent or not lines[i].strip()):
                script.append(lines[i])
                i += 1
            continue
        i += 1
    block = list(script)
    while block and not block[-1].strip():
        block.pop()
    margin = min(len(line) - len(line.lstrip()) for line in block if line.strip())
    return env, "\n".join(line[margin:] for line in block) + "\n"


def action_inputs(text: str) -> dict[str, dict[str, str]]:
    """Each input of action.yml and its keys (description, required, default), read by indentation."""
    section = text[text.index("\ninputs:\n") + 1:]
    end = re.search(r"\n\S", section)
    section = section[:end.start() + 1] if end else section
    inputs: dict[str, dict[str, str]] = {}
    current = ""
    for line in section.splitlines()[1:]:
        if re.fullmatch(r"  [a-z_]+:", line):
            current = line.strip()[:-1]
            inputs[current] = {}
        elif line.startswith("    ") and ":" in line:
            key, _, value = line.strip().partition(": ")
            inputs[current][key] = value.strip('"')
    return inputs


class CompositeAction(GateCase):
    """action.yml's gate step, run with bash the way GitHub runs a composite step (`bash --noprofile --norc -eo
    pipefail`), in a workspace holding the example, with the variables GitHub sets.

    How the ${{ }} expressions are substituted: the step passes each input to its script as an environment variable
    (`INPUT_MANIFEST: ${{ inputs.manifest }}`, …), so the test reads that env mapping and gives each variable the
    value the workflow's `with:` would give that input, or the input's default. The script itself holds no
    expression at all (checked below), so nothing else is substituted."""

    def setUp(self) -> None:
        super().setUp()
        self.text = (ROOT / "action.yml").read_text(encoding="utf-8")
        self.env_map, self.script = action_step(self.text, "gate")
        self.inputs = action_inputs(self.text)
        self.workspace = self.dir / "workspace"
        self.workspace.mkdir()
        for name in ("bench.manifest.json", "runs.jsonl"):
            shutil.copy(ROOT / name, self.workspace / name)

    def run_step(self, **given: str) -> tuple[subprocess.CompletedProcess[str], dict[str, str], str]:
        env = python_shim(self.dir)
        for name, value in self.env_map.items():
            match = re.fullmatch(r"\$\{\{ inputs\.([a-z_]+) \}\}", value)
            self.assertIsNotNone(match, f"{name}: {value}")
            assert match is not None
            env[name] = given.get(match.group(1), self.inputs[match.group(1)].get("default", ""))
        output, summary = self.dir / "github_output", self.dir / "step_summary"
        output.write_text("")
        summary.write_text("")
        env.update(GITHUB_ACTIONS="true", GITHUB_ACTION_PATH=str(ROOT), GITHUB_OUTPUT=str(output),
                   GITHUB_STEP_SUMMARY=str(summary), GITHUB_WORKSPACE=str(self.workspace))
        script = self.dir / "step.sh"
        script.write_text(self.script, encoding="utf-8")
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=self.workspace,
                              env=env, capture_output=True, text=True, timeout=120, check=False)
        outputs = dict(line.split("=", 1) for line in output.read_text(encoding="utf-8").splitlines())
        return done, outputs, summary.read_text(encoding="utf-8")

    def test_the_declared_inputs_and_outputs(self) -> None:
        """manifest and runs are required; claim, confidence (0.95) and args are optional; the outputs read the gate
        step's outputs; every input reaches the script through env, and the script holds no ${{ }} expression."""
        self.assertEqual(self.inputs["manifest"]["required"], "true")
        self.assertEqual(self.inputs["runs"]["required"], "true")
        for name in ("mode", "against_manifest", "against_runs", "fail_on", "claim", "confidence", "args"):
            self.assertEqual(self.inputs[name]["required"], "false")
        self.assertEqual(self.inputs["confidence"]["default"], "0.95")
        self.assertEqual((self.inputs["mode"]["default"], self.inputs["fail_on"]["default"]), ("check", "regression"))
        self.assertIn("using: composite", self.text)
        for name in ("verdict", "headline", "significant", "direction", "difference", "ci_low", "ci_high"):
            self.assertRegex(self.text, rf"\n  {name}:\n(    .*\n)*?    value: \$\{{\{{ steps\.gate\.outputs\.{name} \}}\}}\n")
        self.assertEqual(sorted(re.findall(r"inputs\.([a-z_]+)", " ".join(self.env_map.values()))), sorted(self.inputs))
        self.assertNotIn("${{", self.script)
        self.assertIn('python3 "$GITHUB_ACTION_PATH/gate.py" "$@"', self.script)
        self.assertIn("set -- check --manifest", self.script)
        self.assertIn("--github", self.script)

    def test_compare_mode_fails_the_job_on_a_regression(self) -> None:
        """mode compare: the shipped compare example (A 29/40 against B 30/40, not distinguishable) passes with the
        comparison in the step outputs; the two sides swapped the other way round still pass (no significant
        difference either way), and a significant regression (10 against 35 of 40) fails the job."""
        for name in ("a.manifest.json", "a.jsonl", "b.manifest.json", "b.jsonl"):
            shutil.copy(EXAMPLE_COMPARE / name, self.workspace / name)
        done, outputs, summary = self.run_step(mode="compare", manifest="a.manifest.json", runs="a.jsonl",
                                               against_manifest="b.manifest.json", against_runs="b.jsonl")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual((outputs["verdict"], outputs["significant"], outputs["direction"]),
                         ("PUBLISHABLE", "false", "none"))
        self.assertEqual(float(outputs["difference"]), -0.025)
        self.assertTrue(summary.startswith("### benchgate compare: **PUBLISHABLE**"), summary)
        ma, ra, mb, rb = paired_ledgers(10, 0, 25, 5)
        for name, value in (("worse.manifest.json", ma), ("base.manifest.json", mb)):
            (self.workspace / name).write_text(json.dumps(value), encoding="utf-8")
        for name, rows in (("worse.jsonl", ra), ("base.jsonl", rb)):
            (self.workspace / name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        done, outputs, _ = self.run_step(mode="compare", manifest="worse.manifest.json", runs="worse.jsonl",
                                         against_manifest="base.manifest.json", against_runs="base.jsonl")
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertEqual((outputs["verdict"], outputs["significant"], outputs["direction"], outputs["fail_on"]),
                         ("BLOCKED", "true", "B_better", "failed"))
        self.assertIn("ci gate     : --fail-on regression: FAILS", done.stdout)

    def test_the_shipped_example_passes_and_a_wrong_claim_fails_the_job(self) -> None:
        """The example: exit 0, verdict=PUBLISHABLE and its headline as step outputs, the card in the summary. With
        claim 78.4%: exit 1 (the job fails), verdict=BLOCKED and an ::error:: annotation. args reach gate.py."""
        done, outputs, summary = self.run_step(manifest="bench.manifest.json", runs="runs.jsonl",
                                               args="--output badge=badge.svg  --output shields=shields.json")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(outputs, {"verdict": "PUBLISHABLE", "headline": EXAMPLE_HEADLINE})
        self.assertTrue(summary.startswith("### benchgate: agent-x-mini-2026-10-16 is **PUBLISHABLE**"), summary)
        self.assertIn(EXAMPLE_BADGE, (self.workspace / "badge.svg").read_text(encoding="utf-8"))
        self.assertTrue((self.workspace / "shields.json").exists())
        done, outputs, _ = self.run_step(manifest="bench.manifest.json", runs="runs.jsonl", claim="78.4%",
                                         confidence="0.9")
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertEqual(outputs["verdict"], "BLOCKED")
        self.assertIn("90% CI", done.stdout)
        self.assertIn("::error title=claim_is_secondary::78.4%25 is the scoreable-only rate", done.stdout)


class PreCommitHook(GateCase):
    """.pre-commit-hooks.yaml's benchgate hook, run the way pre-commit runs a `script` hook: its entry by its path in
    the hook repository, with the args the README's config gives (pass_filenames is false, so nothing else)."""

    def hook(self) -> dict[str, str]:
        text = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
        keys = dict(re.findall(r"(?m)^(?:- |  )([a-z_]+): (.*)$", text))
        self.assertEqual(text.count("\n- id: "), 1, "one hook")
        return keys

    def test_the_hook_gates_the_pair_out_of_the_box_on_every_commit(self) -> None:
        """A script hook whose entry is executable, with default args naming bench.manifest.json and runs.jsonl
        and always_run (check reads the control runs, the card and the task slice the manifest names, so any of
        them can turn the claim BLOCKED): run as pre-commit runs it in a repository holding the pair, it passes the
        shipped example, fails the commit on a wrong claim (exit 1), and on a no-edit control run that passes
        everything (a control run file is not in any files: pattern, which is why the hook always runs)."""
        hook = self.hook()
        self.assertEqual((hook["id"], hook["language"], hook["pass_filenames"], hook["always_run"]),
                         ("benchgate", "script", "false", "true"))
        self.assertNotIn("files", hook)
        entry = ROOT / hook["entry"]
        self.assertTrue(os.access(entry, os.X_OK), f"{entry} must be executable: pre-commit runs it directly")
        argv = [a.strip() for a in hook["args"].strip("[]").split(",")]
        self.assertEqual(argv, ["--manifest", "bench.manifest.json", "--runs", "runs.jsonl"])
        env = python_shim(self.dir)
        for extra, code in (((), 0), (("--claim", "78.4%"), 1)):
            with self.subTest(extra=extra):
                done = subprocess.run([str(entry), *argv, *extra], cwd=ROOT, env=env, capture_output=True, text=True,
                                      timeout=120, check=False)
                self.assertEqual(done.returncode, code, done.stderr)
        repo = self.dir / "repo"
        repo.mkdir()
        manifest = json.loads((ROOT / "bench.manifest.json").read_text(encoding="utf-8"))
        records = (ROOT / "runs.jsonl").read_text(encoding="utf-8")
        passing = "".join(json.dumps(dict(json.loads(line), outcome="pass", reason=None)) + "\n"
                          for line in records.splitlines())
        (repo / "nop.jsonl").write_text(passing, encoding="utf-8")
        manifest["control_runs"] = [{"role": "no_edit", "runs": "nop.jsonl", "max_pass_rate": 0.05}]
        (repo / "bench.manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
        (repo / "runs.jsonl").write_text(records, encoding="utf-8")
        done = subprocess.run([str(entry), *argv], cwd=repo, env=env, capture_output=True, text=True, timeout=120,
                              check=False)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertIn("control_run_violated", done.stdout)


class DidYouMean(ExampleCase):
    """A misspelt command or option: exit 2, one line naming the nearest real one; unique abbreviations still work."""

    def test_a_misspelt_command(self) -> None:
        """`chek` names `check`."""
        self.assertInputError(self.run_gate("chek", *self.pair), "unknown command 'chek'", "did you mean 'check'")

    def test_a_misspelt_option(self) -> None:
        """`--manfest` names `--manifest`, before argparse could call --manifest missing instead."""
        self.assertInputError(self.run_gate("check", "--manfest", str(self.m), "--runs", str(self.r)),
                              "unknown option '--manfest'", "did you mean '--manifest'")
        self.assertInputError(self.run_gate("--manfest", str(self.m), "--runs", str(self.r)), "did you mean '--manifest'")

    def test_a_unique_abbreviation_still_works(self) -> None:
        """`--conf 0.9` is --confidence 0.9."""
        code, out, err = self.run_gate(*self.pair, "--conf", "0.9")
        self.assertEqual((code, err), (0, ""))
        self.assertIn("pass_rate   : 29/40 = 0.725  90% CI [0.597, 0.824]", out)


class EdgesOfTheCommandLine(ExampleCase):
    """What a reviewer of the CI mode found: each now says what it is."""

    def test_an_ambiguous_prefix_names_its_candidates(self) -> None:
        """`--c` could be --claim or --confidence: exit 2 naming both, not "unknown"."""
        self.assertInputError(self.run_gate(*self.pair, "--c", "0.9"), "ambiguous option '--c'", "--claim, --confidence")

    def test_an_abbreviated_github_flag_still_annotates_an_error(self) -> None:
        """`--gith` with a missing manifest: the error line and its ::error:: annotation."""
        with mock.patch.dict(os.environ, {}, clear=False):
            os.environ.pop("GITHUB_ACTIONS", None)
            code, out, err = self.run_gate("check", "--manifest", str(self.dir / "missing.json"), "--runs", str(self.r), "--gith")
        self.assertEqual((code, out), (2, ""))
        lines = err.splitlines()
        self.assertEqual(len(lines), 2, err)
        self.assertTrue(lines[1].startswith("::error title=gate.py::"), err)

    def test_an_unwritable_github_file_writes_nothing(self) -> None:
        """$GITHUB_OUTPUT in a missing folder: exit 2 before any --output file or the step summary is written."""
        summary = self.dir / "summary.md"
        env = {"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary),
               "GITHUB_OUTPUT": str(self.dir / "no-such-folder" / "out")}
        with mock.patch.dict(os.environ, env):
            code, out, err = self.run_gate(*self.pair, "--output", f"json={self.dir / 'report.json'}")
        self.assertEqual((code, out), (2, ""))
        self.assertIn("$GITHUB_OUTPUT", err)
        self.assertFalse((self.dir / "report.json").exists())
        self.assertFalse(summary.exists() and summary.read_text(encoding="utf-8"))


class InstalledName(GateCase):
    """Installed by pip, the command is `benchgate`: usage, examples and errors say so."""

    def main_as(self, argv0: str, *argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with mock.patch.object(sys, "argv", [argv0, *argv]), contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(err):
            code = gate.main()
        return code, out.getvalue(), err.getvalue()

    def test_help_and_examples_say_benchgate(self) -> None:
        """`benchgate --help` and `benchgate check --help` say `usage: benchgate` and `benchgate check ...`."""
        patcher = mock.patch.dict(os.environ, {"COLUMNS": "100"})  # argparse wraps usage to a terminal's width
        patcher.start()
        self.addCleanup(patcher.stop)
        code, out, _ = self.main_as("/x/bin/benchgate", "--help")
        self.assertEqual(code, 0)
        self.assertTrue(out.startswith("usage: benchgate "), out)
        code, out, _ = self.main_as("/x/bin/benchgate", "check", "--help")
        self.assertEqual(code, 0)
        self.assertTrue(out.startswith("usage: benchgate check "), out)
        self.assertIn("  benchgate check --manifest bench.manifest.json --runs runs.jsonl", out)
        self.assertNotIn("gate.py", out)
        code, out, _ = self.main_as("/x/gate.py", "check", "--help")
        self.assertTrue(out.startswith("usage: gate.py check "), out)
        self.assertIn("  python3 gate.py check --manifest bench.manifest.json --runs runs.jsonl", out)

    def test_errors_say_benchgate(self) -> None:
        """An error line starts `benchgate: error:`, and in GitHub mode its annotation's title is benchgate."""
        code, out, err = self.main_as("/x/bin/benchgate", "chek")
        self.assertEqual((code, out), (2, ""))
        self.assertTrue(err.startswith("benchgate: error: unknown command 'chek' (did you mean 'check'?)"), err)
        self.assertEqual(len(err.splitlines()), 1)
        with github_env(GITHUB_ACTIONS="true"):
            _, _, err = self.main_as("/x/bin/benchgate", "chek")
        self.assertTrue(err.splitlines()[1].startswith("::error title=benchgate::unknown command 'chek'"), err)

    def test_the_script_run_under_the_installed_name(self) -> None:
        """A real process as pip's console script starts it: argv[0] ends in benchgate, then
        `from gate import main; sys.exit(main())`."""
        with tempfile.TemporaryDirectory() as folder:
            code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); sys.argv = [sys.argv[1] + '/bin/benchgate', 'chek']; "
                    "from gate import main; sys.exit(main())")
            done = subprocess.run([sys.executable, "-c", code, folder], capture_output=True, text=True, timeout=120,
                                  check=False, env=python_shim(Path(folder)))
        self.assertEqual(done.returncode, 2)
        self.assertEqual(done.stdout, "")
        self.assertTrue(done.stderr.startswith("benchgate: error: unknown command 'chek'"), done.stderr)


if __name__ == "__main__":
    unittest.main()


class GitHubModeOnAnInputError(GateCase):
    def test_an_unreadable_input_writes_error_to_the_summary_and_the_outputs(self) -> None:
        """GitHub mode with a manifest that cannot be read: exit 2, the step summary says ERROR with the message,
        and verdict=ERROR in the step outputs (an input error is not a BLOCKED claim, nor silence)."""
        summary, output = self.dir / "summary.md", self.dir / "output.txt"
        with github_env(GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary), GITHUB_OUTPUT=str(output)):
            code, _out, err = self.run_gate("--manifest", str(self.dir / "missing.json"), "--runs", "runs.jsonl")
        self.assertEqual(code, 2)
        self.assertIn("::error title=gate.py::", err)
        self.assertEqual(output.read_text(encoding="utf-8"), "verdict=ERROR\n")
        text = summary.read_text(encoding="utf-8")
        self.assertTrue(text.startswith("### benchgate: **ERROR**"), text)
        self.assertIn("missing.json: cannot read", text)


class NoWorkflowCommandFromUserText(GateCase):
    def test_a_stratum_named_like_a_workflow_command_is_escaped(self) -> None:
        """A stratum and a metric named `::stop-commands::pwned` and `::add-mask::x`, in GitHub mode: no line of the
        report starts (after whitespace) with `::` except the gate's own ::error annotations, in every format; the
        escaped lines carry a backslash before the `::`."""
        manifest, records = valid_ledger()
        evil = "::stop-commands::pwned"
        for rec in records:
            rec["stratum"] = evil if rec["task_id"] < "t-010" else "::add-mask::x"
        strata: dict[str, int] = {}
        for rec in records:
            strata[rec["stratum"]] = strata.get(rec["stratum"], 0) + 1
        manifest["dataset"]["strata"] = strata
        manifest["metrics"] = [{"name": "::error title=x::y", "numerator": "outcome == 'pass'",
                                "denominator": "dataset.task_count", "unit": "tasks"}]
        m, r = self.write_json("m.json", manifest), self.write_jsonl("r.jsonl", records)
        for fmt in ("text", "markdown", "json"):
            with self.subTest(fmt=fmt), github_env(GITHUB_ACTIONS="true"):
                code, out, err = self.run_gate("--manifest", str(m), "--runs", str(r), "--format", fmt)
                self.assertIn(code, (0, 1), err)
                commands = [line for line in (out + err).splitlines() if line.lstrip().startswith("::")]
                self.assertTrue(all(line.startswith("::error title=") for line in commands), commands)
                if fmt == "text":
                    self.assertIn("\\" + evil, out)


class LegacyWorkflowCommands(GateCase):
    def test_a_legacy_command_anywhere_in_a_line_is_escaped(self) -> None:
        """The runner also reads `##[command]` anywhere in a line: a claim_id holding `##[stop-commands]x` is written
        as `#\\#[stop-commands]x` in GitHub mode, and the gate's own annotations still follow."""
        manifest, records = valid_ledger()
        manifest["claim_id"] = "x ##[stop-commands]tok"
        m, r = self.write_json("m.json", manifest), self.write_jsonl("r.jsonl", records)
        with github_env(GITHUB_ACTIONS="true"):
            code, out, _err = self.run_gate("--manifest", str(m), "--runs", str(r), "--claim", "78.4%")
        self.assertEqual(code, 1)
        self.assertNotIn("##[", out)
        self.assertIn("claim       : x #\\#[stop-commands]tok", out)
        self.assertIn("::error title=claim_is_secondary::", out)
