"""The tests' harness: TestCase bases that run gate.main in-process in a private temporary folder, the
real command line as a subprocess, and readers for the rendered reports (Markdown tables, SVG).

Inputs come from tests/builders.py and expected numbers from tests/oracles.py; this module only runs
the gate and reads what it printed.
"""

from __future__ import annotations

import ast
import atexit
import contextlib
import functools
import hashlib
import io
import json
import marshal
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
EXAMPLE_CARD = ROOT / "examples" / "card"
EXAMPLE_COMPARE = ROOT / "examples" / "compare"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import gate  # noqa: E402
from tests.builders import fill_draft, valid_ledger  # noqa: E402

# Harness fixtures (tests/fixtures/SOURCES.md says where each was trimmed from).
SWE = FIXTURES / "swebench"
INSPECT = FIXTURES / "inspect"
TBENCH = FIXTURES / "terminal-bench"
SWE_REPORT = SWE / "report-v2-synthetic.json"
SWE_SHORT = SWE / "report-v2-short-synthetic.json"
SWE_SHORT_IDS = SWE / "report-v2-short-dataset-ids.txt"
SWE_EXP = SWE / "experiments-results.json"
SWE_EXP_SYN = SWE / "experiments-results-synthetic.json"
SWE_IDS = SWE / "verified-dataset-ids.txt"
INS_OK = INSPECT / "tiny-success.json"
INS_ERR = INSPECT / "tiny-err-status-error.json"
INS_CANCEL = INSPECT / "synthetic-cancelled.json"
INS_ZSTD = INSPECT / "tiny-success.eval"
INS_DEFLATE = INSPECT / "tiny-success-deflate.eval"
TB_RESULTS = TBENCH / "results.json"
TB_SYN = TBENCH / "results-synthetic.json"
TB_META = TBENCH / "run_metadata-synthetic.json"

SVG_NS = "{http://www.w3.org/2000/svg}"


def load(path: Path) -> Any:
    """A JSON file, parsed."""
    return json.loads(path.read_text(encoding="utf-8"))


GOLDEN_CALLS = FIXTURES / "golden" / "calls.json"
RECORD_CALLS = "BENCHGATE_RECORD_CALLS"  # set to a file: calls are appended there, not compared
_FILE_CAP = 1 << 20  # files over 1 MiB in a test's folder enter the digest by size only
# a folder tempfile made (tmp + 8 characters, or a benchgate- prefix the tests and gate.py give), not a path
# such as /tmp/tcc.iso that a harness file names
_TEMPORARY = re.compile(re.escape(tempfile.gettempdir()) + r"/(?:tmp|benchgate-[a-z-]*?)(?:[a-z0-9]|\\?_){8}(?![A-Za-z0-9_])")
_TEMPORARY_NAME = re.compile(r"(?<![^/])(?:tmp|benchgate-[a-z-]*?)[a-z0-9_]{8}(?![A-Za-z0-9_])")
_FD = re.compile(r"/dev/fd/[0-9]+")  # a pipe's descriptor number is whichever was free
_QUOTED = re.compile(r"'(<[A-Za-z]+>[\w@%+=:,./-]*)'")  # shlex.quote's safe characters after a placeholder


@functools.lru_cache(maxsize=1)
def golden_calls() -> dict[str, str]:
    """The digest of every pinned call, by `test id#n` (a masked one starts with "m"); empty until
    tests/golden_calls.py has made the file."""
    if not GOLDEN_CALLS.exists():
        return {}
    return dict(load(GOLDEN_CALLS)["calls"])


@functools.lru_cache(maxsize=64)
def _forms(path: str) -> tuple[str, ...]:
    """A path as the gate may write it: as Markdown, JSON and a GitHub annotation escape it, and as it is; the
    longest first, so that a form the path itself begins is never replaced inside a longer one."""
    forms = {path, gate._md(path), json.dumps(path)[1:-1], gate.github_escape(path), gate.github_escape(path, True)}
    return tuple(sorted(forms, key=len, reverse=True))


def placeholders(text: str, places: list[tuple[Path, str]]) -> str:
    """`text` with each path of `places` written as its mark (in each form the gate may write it in; the first
    place first), and a shell-quoted argument that only such a path made quoted (a space, a letter beyond ASCII)
    written unquoted."""
    for path, mark in places:
        for form in _forms(str(path)):
            text = text.replace(form, mark)
    return _QUOTED.sub(r"\1", text)


def _placeless(text: str, folder: Path) -> str:
    """`text` with the test's folder, the checkout and any other temporary path written as placeholders."""
    text = placeholders(text, [(folder.resolve(), "<DIR>"), (folder, "<DIR>"), (ROOT, "<ROOT>")])
    return _FD.sub("/dev/fd/N", _TEMPORARY.sub("<TMP>", text))


def folder_state(folder: Path) -> dict[str, tuple[int, int, int, int]]:
    """Every entry under `folder` but its folders (links not followed), by relative path: (size, mtime_ns, inode,
    mode), so a later look tells which the gate made or changed."""
    state: dict[str, tuple[int, int, int, int]] = {}
    for top, _dirs, names in os.walk(folder):
        for name in names:
            with contextlib.suppress(OSError):
                found = os.lstat(os.path.join(top, name))
                state[os.path.relpath(os.path.join(top, name), folder)] = (
                    found.st_size, found.st_mtime_ns, found.st_ino, found.st_mode)
    return state


def call_digests(folder: Path, code: int, out: str, err: str,
                 before: dict[str, tuple[int, int, int, int]] | None = None) -> tuple[str, str]:
    """One call's exit code, output and what it left in `folder` (every entry's name; the body of each regular
    file it made or changed, measured against `before`, the folder_state before the call; with no `before`,
    every file's body), as two sha256s: the call as it is, and the call with every 64-digit hex digest masked
    (a digest of a file that names a path moves with the path; the rest of such a call can still be held).
    See GateCase._pin_call."""
    parts = [json.dumps([code, _placeless(out, folder), _placeless(err, folder)]).encode("utf-8")]
    for name, now in sorted(folder_state(folder).items()):
        parts.append(_TEMPORARY_NAME.sub("<TMP>", name).encode("utf-8") + b"\0")  # relative: only tempfile's names move
        if (before is not None and before.get(name) == now) or not stat.S_ISREG(now[3]):
            continue
        try:
            body = (folder / name).read_bytes() if now[0] <= _FILE_CAP else str(now[0]).encode()
        except OSError as exc:  # a file a test made unreadable on purpose
            body = type(exc).__name__.encode()
        with contextlib.suppress(UnicodeDecodeError):
            body = _placeless(body.decode("utf-8"), folder).encode("utf-8")
        parts.append(body)
    whole = b"\0\0".join(parts)
    masked = re.sub(rb"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])", b"<sha256>", whole)
    return hashlib.sha256(whole).hexdigest()[:20], "m" + hashlib.sha256(masked).hexdigest()[:19]


class GateCase(unittest.TestCase):
    """A test case with a private temporary folder and helpers to write inputs and run the gate."""

    def setUp(self) -> None:
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self._tmp.name)

    def tearDown(self) -> None:
        self._tmp.cleanup()

    def write_json(self, name: str, value: Any) -> Path:
        path = self.dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")
        return path

    def write_jsonl(self, name: str, records: list[Any]) -> Path:
        path = self.dir / name
        path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        return path

    def write_text(self, name: str, text: str | bytes) -> Path:
        path = self.dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    def copy_into(self, source: Path, *names: str) -> None:
        """Copy these files of the `source` folder into the test's folder."""
        for name in names:
            shutil.copy(source / name, self.dir / name)

    def run_gate(self, *argv: str) -> tuple[int, str, str]:
        """gate.main in-process: (exit code, stdout, stderr). Every SVG any test makes is parsed as XML here."""
        before = None if self._drawn() else folder_state(self.dir)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = gate.main(list(argv))
        if out.getvalue().startswith("<svg"):
            ET.fromstring(out.getvalue())  # raises on an SVG no XML parser accepts
        if before is not None:
            self._pin_call(code, out.getvalue(), err.getvalue(), before)
        return code, out.getvalue(), err.getvalue()

    def _drawn(self) -> bool:
        """Under hypothesis, which draws other inputs each run: the n-th call of such a test is not one call."""
        return hasattr(getattr(self, self._testMethodName, None), "hypothesis")

    def _pin_call(self, code: int, out: str, err: str, before: dict[str, tuple[int, int, int, int]]) -> None:
        """Every in-process call (but under hypothesis) is held whole: its exit code, stdout, stderr and what it
        left in the test's folder (paths written as <DIR>, <ROOT>, <TMP>) reduce to one digest, compared with
        the digest the same call of the same test gave when the golden file was made (tests/golden_calls.py)."""
        index = self.__dict__.get("_calls", 0)
        self.__dict__["_calls"] = index + 1
        key, digests = f"{self.id()}#{index}", call_digests(self.dir, code, out, err, before)
        record = os.environ.get(RECORD_CALLS)
        if record:
            with open(record, "a", encoding="utf-8") as handle:
                handle.write(json.dumps([key, *digests]) + "\n")
            return
        expected = golden_calls().get(key)
        if expected is not None and expected not in digests:
            files = [f"{name} ({now[0]} B)" for name, now in sorted(folder_state(self.dir).items())]
            self.fail(f"call {index} of this test printed or wrote something other than it did when "
                      f"{GOLDEN_CALLS.name} was made (exit {code}; stdout {out[:300]!r}; stderr {err[:300]!r}; "
                      f"files {', '.join(files)[:500]}). "
                      f"If the change is meant, remake the file: python3 tests/golden_calls.py")

    def check(self, manifest: dict[str, Any], records: list[Any], *extra: str) -> tuple[int, str, str]:
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_jsonl("runs.jsonl", records)
        return self.run_gate("--manifest", str(m), "--runs", str(r), *extra)

    def check_json(self, manifest: dict[str, Any], records: list[Any], *extra: str) -> tuple[int, dict[str, Any]]:
        code, out, err = self.check(manifest, records, "--format", "json", *extra)
        self.assertIn(code, (0, 1), err)
        return code, json.loads(out)

    def codes(self, manifest: dict[str, Any], records: list[Any], *extra: str) -> list[str]:
        _, report = self.check_json(manifest, records, *extra)
        return [f["code"] for f in report["findings"]]

    def blocked(self, manifest: dict[str, Any], records: list[Any], code: str, *extra: str) -> list[str]:
        """Assert exit 1, BLOCKED and the code among the findings; return that code's messages."""
        exit_code, report = self.check_json(manifest, records, *extra)
        codes = [f["code"] for f in report["findings"]]
        self.assertIn(code, codes, report["findings"])
        self.assertEqual(exit_code, 1)
        self.assertEqual(report["verdict"], "BLOCKED")
        return [f["message"] for f in report["findings"] if f["code"] == code]

    def publishable(self, manifest: dict[str, Any], records: list[Any], *extra: str) -> dict[str, Any]:
        """Assert exit 0, PUBLISHABLE and no finding at all; return the JSON report."""
        exit_code, report = self.check_json(manifest, records, *extra)
        self.assertEqual(report["findings"], [])
        self.assertEqual(exit_code, 0)
        self.assertEqual(report["verdict"], "PUBLISHABLE")
        return report

    def assertInputError(self, result: tuple[int, str, str], *fragments: str, lines: int = 1) -> None:
        """Exit 2, nothing on stdout's behalf, `lines` error lines on stderr (one per bad line of a runs file),
        no traceback, each fragment in the first line."""
        code, out, err = result
        self.assertEqual(code, 2, f"expected exit 2, got {code}; stdout={out!r} stderr={err!r}")
        self.assertNotIn("Traceback", err)
        self.assertEqual(len(err.strip().splitlines()), lines, f"expected {lines} line(s) on stderr, got {err!r}")
        for line in err.strip().splitlines():
            self.assertTrue(line.startswith("gate.py: error: "), err)
        first = err.splitlines()[0]
        for fragment in fragments:
            self.assertIn(fragment, first)


class LedgerInputCase(GateCase):
    """valid_ledger() written out, with helpers that break one line of the runs or the manifest text."""

    def setUp(self) -> None:
        super().setUp()
        self.manifest, self.records = valid_ledger()
        self.lines = [json.dumps(r) for r in self.records]
        self.mpath = self.write_json("bench.manifest.json", self.manifest)

    def runs_bytes(self, data: bytes) -> tuple[int, str, str]:
        runs = self.write_text("runs.jsonl", data)
        return self.run_gate("--manifest", str(self.mpath), "--runs", str(runs))

    def bad_line(self, text: str, at: int = 17) -> tuple[int, str, str]:
        lines = list(self.lines)
        lines[at - 1] = text
        return self.runs_bytes(("\n".join(lines) + "\n").encode("utf-8"))

    def bad_field(self, at: int = 17, **fields: Any) -> tuple[int, str, str]:
        rec = dict(self.records[at - 1])
        rec.update(fields)
        return self.bad_line(json.dumps(rec), at)

    def manifest_text(self, text: str | bytes) -> tuple[int, str, str]:
        mpath = self.write_text("bench.manifest.json", text)
        runs = self.write_jsonl("runs.jsonl", self.records)
        return self.run_gate("--manifest", str(mpath), "--runs", str(runs))

    def assertNamesLineOrField(self, result: tuple[int, str, str], line: int, field: str) -> None:
        self.assertInputError(result, "bench.manifest.json")
        err = result[2]
        self.assertTrue(f"bench.manifest.json:{line}:" in err or field in err,
                        f"expected the line ({line}) or the field ({field}) in {err!r}")


def keyed(records: list[dict[str, Any]]) -> dict[tuple[str, int], dict[str, Any]]:
    """Imported records by (task_id, attempt); a repeated key is a failure."""
    out: dict[tuple[str, int], dict[str, Any]] = {}
    for rec in records:
        key = (rec["task_id"], rec["attempt"])
        assert key not in out, f"duplicate record {key}"
        out[key] = rec
    return out


class ImportCase(GateCase):
    """Runs `gate.py import` and, with a completed draft manifest, `check` on what it wrote."""

    def imp(self, fmt: str, *args: str) -> list[dict[str, Any]]:
        """Import to standard output; the JSONL lines, parsed."""
        code, out, err = self.run_gate("import", fmt, *args)
        self.assertEqual(code, 0, err)
        self.assertNotIn("Traceback", err)
        self.assertTrue(out.endswith("\n"), out[-200:])
        return [json.loads(line) for line in out.splitlines()]

    def imp_files(self, fmt: str, *args: str, name: str = "imp") -> tuple[Path, Path, list[dict[str, Any]], dict[str, Any]]:
        """Import with -o and --draft-manifest; (runs path, draft path, records, draft)."""
        runs, draft = self.dir / f"{name}.runs.jsonl", self.dir / f"{name}.manifest.json"
        code, out, err = self.run_gate("import", fmt, *args, "-o", str(runs), "--draft-manifest", str(draft))
        self.assertEqual(code, 0, err)
        self.assertEqual(out, "", "with -o nothing goes to standard output")
        self.assertIn(str(runs), err)
        records = [json.loads(line) for line in runs.read_text(encoding="utf-8").splitlines()]
        return runs, draft, records, load(draft)

    def check_roundtrip(self, draft_path: Path, runs: Path, positive: str, negative: str,
                        drop: tuple[str, ...] = (), **fields: Any) -> tuple[int, dict[str, Any]]:
        """Complete the draft as a user would and run `check`: with controls added but the draft list and the
        TODO placeholders left in, it is still BLOCKED; filled in and the list deleted, it is gated for real."""
        manifest = load(draft_path)
        self.assertEqual(manifest["controls"], [], "the draft leaves controls to the user")
        manifest["controls"] = [
            {"task_id": positive, "expected": "pass", "role": "positive"},
            {"task_id": negative, "expected": "fail", "role": "negative"},
        ]
        half_done = self.write_json("half-done.manifest.json", manifest)
        code, out, err = self.run_gate("check", "--manifest", str(half_done), "--runs", str(runs), "--format", "json")
        self.assertEqual(code, 1, err)
        codes = {f["code"] for f in json.loads(out)["findings"]}
        self.assertTrue({"draft_manifest", "placeholder_value"} <= codes, codes)
        fill_draft(manifest)
        for key in drop:
            del manifest[key]
        manifest.update(fields)
        path = self.write_json("completed.manifest.json", manifest)
        code, out, err = self.run_gate("check", "--manifest", str(path), "--runs", str(runs), "--format", "json")
        self.assertIn(code, (0, 1), err)
        return code, json.loads(out)

    def assertOutcome(self, rec: dict[str, Any], outcome: str, reason: str | None) -> None:
        self.assertEqual((rec["outcome"], rec["reason"]), (outcome, reason), rec)

    def assertFieldErrors(self, fmt: str, source: Path, cases: list[tuple[Any, str]]) -> None:
        """Each (change, field): the source harness file with that change is an input error naming the file and the field."""
        for i, (change, field) in enumerate(cases):
            with self.subTest(fmt=fmt, field=field):
                data = load(source)
                change(data)
                path = self.write_json(f"wrong-{i}.json", data)
                self.assertInputError(self.run_gate("import", fmt, str(path)), str(path), field)


# CPython caches no bytecode for a script, so every `python3 gate.py` compiles the whole file (about 0.2 s,
# most of a small check). The subprocess tests run `python3 gate.py` as it is, but from its code object
# compiled once per test run: the launcher sets sys.argv[0] and sys.path[0] as the interpreter does for a
# script and runs that code object as __main__ (tracebacks still name gate.py). The pages' `python3 gate.py`
# commands take it too, through a `python3` on their PATH (tests/shown_commands.py); the old-interpreter test
# and the hooks run the file itself.
_LAUNCH = ("import marshal, os, sys\n"
           "code_file, script = sys.argv[1], sys.argv[2]\n"
           "sys.argv[:3] = [script]\n"
           "sys.path[0] = os.path.dirname(script)\n"
           "with open(code_file, 'rb') as handle:\n"
           "    code = marshal.load(handle)\n"
           "exec(code, {'__name__': '__main__', '__file__': script, '__builtins__': __builtins__})\n")
_COMPILED: list[str] = []


@functools.lru_cache(maxsize=4)
def parsed(source: str) -> ast.Module:
    """`source` parsed once per test run (gate.py's 12,000 lines take a quarter of a second); read, never changed."""
    return ast.parse(source)


def gate_command(*options: str) -> list[str]:
    """argv that runs `python3 -S [options] gate.py` from gate.py's code object, compiled once per test run. -S: no
    site-packages .pth file runs at start-up (gate.py is stdlib only, and a bare interpreter has none), which takes
    about a third off each subprocess's start."""
    if not _COMPILED:
        folder = tempfile.mkdtemp(prefix="benchgate-code-")
        atexit.register(shutil.rmtree, folder, True)
        target = Path(folder) / "gate.code"
        source = (ROOT / "gate.py").read_text(encoding="utf-8")
        target.write_bytes(marshal.dumps(compile(source, str(ROOT / "gate.py"), "exec", dont_inherit=True)))
        _COMPILED.append(str(target))
    return [sys.executable, "-S", *options, "-c", _LAUNCH, _COMPILED[0], str(ROOT / "gate.py")]


def run_cli(*argv: str, cwd: Path | None = None, env: dict[str, str] | None = None,
            stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    """The real command line, as a subprocess; `stdin`, when given, is fed to its standard input."""
    full_env = dict(os.environ)
    if env:
        full_env.update(env)
    if stdin is None:
        return subprocess.run([*gate_command(), *argv], cwd=cwd or ROOT, env=full_env,
                              capture_output=True, text=True, timeout=120, check=False)
    raw = subprocess.run([*gate_command(), *argv], cwd=cwd or ROOT, env=full_env,
                         input=stdin, capture_output=True, timeout=120, check=False)
    return subprocess.CompletedProcess(raw.args, raw.returncode, raw.stdout.decode("utf-8"), raw.stderr.decode("utf-8"))


def split_row(line: str) -> list[str]:
    body = line.strip()
    assert body.startswith("|") and body.endswith("|"), line
    cells = re.split(r"(?<!\\)\|", body[1:-1])
    return [c.strip() for c in cells]


def markdown_tables(text: str) -> list[list[list[str]]]:
    """Every GitHub-flavoured table as a list of rows (header first, separator dropped)."""
    tables: list[list[list[str]]] = []
    current: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            current.append(line)
            continue
        if current:
            rows = [split_row(x) for x in current]
            assert len(rows) >= 2 and all(re.fullmatch(r":?-{3,}:?", c) for c in rows[1]), current
            assert all(len(r) == len(rows[0]) for r in rows), current
            tables.append([rows[0], *rows[2:]])
            current = []
    return tables


def assert_safe_svg(case: unittest.TestCase, text: str) -> ET.Element:
    """Parse an SVG and fail on anything that could run or fetch: scripts, foreign objects, links, styles."""
    root = ET.fromstring(text)
    case.assertEqual(root.tag, f"{SVG_NS}svg")
    for element in root.iter():
        tag = element.tag.split("}")[-1]
        case.assertNotIn(tag.lower(), ("script", "foreignobject", "iframe", "image", "use", "a", "style"))
        for key, value in element.attrib.items():
            case.assertFalse(key.lower().startswith("on"), key)
            if key.split("}")[-1] == "href":
                case.fail(f"link {value!r} in the SVG")
    lowered = text.lower()
    for bad in ("<script", "url(http", "url(//", "@import", "javascript:", "xlink:href", " href="):
        case.assertNotIn(bad, lowered)
    return root


def ci_lines_by_y(root: ET.Element) -> dict[str | None, ET.Element]:
    """The SVG's interval lines by their y coordinate."""
    return {line.get("y1"): line for line in root.iter(f"{SVG_NS}line") if line.get("class") == "ci"}
