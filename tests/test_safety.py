"""Determinism and safety: byte-identical output across runs, hash seeds and locales; no module or call
that can run code or reach the network; inputs never modified; atomic, no-clobber writes; corrupt and
hostile inputs refused cleanly; huge inputs.

The determinism matrix runs a subset by default (BENCHGATE_FULL_MATRIX=1 runs every case in every
configuration). The huge-input tests are slow (tens of seconds, hundreds of MB on disk): they run only with
BENCHGATE_HUGE=1 and print their wall time and peak memory.
"""

from __future__ import annotations

import ast
import concurrent.futures
import io
import json
import os
import random
import shutil
import subprocess
import sys
import unittest
import zipfile
import zlib
from pathlib import Path
from typing import Any
from unittest import mock

import gate
from tests.builders import control_pair, make_manifest, pattern_records, record, valid_ledger
from tests.support import (
    EXAMPLE_CARD,
    EXAMPLE_COMPARE,
    FIXTURES,
    INS_CANCEL,
    INS_DEFLATE,
    INS_OK,
    ROOT,
    SWE_EXP_SYN,
    SWE_IDS,
    TB_META,
    TB_SYN,
    GateCase,
    gate_command,
    parsed,
)

GATE = ROOT / "gate.py"
HUGE = os.environ.get("BENCHGATE_HUGE") == "1"


def _cli(argv: list[str], env_update: dict[str, str | None]) -> tuple[int, bytes, bytes]:
    env = dict(os.environ)
    for key, value in env_update.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    proc = subprocess.run([*gate_command(), *argv], cwd=ROOT, env=env, capture_output=True,
                          timeout=120, check=False)
    return proc.returncode, proc.stdout, proc.stderr


def _non_english_locale() -> str | None:
    try:
        listed = subprocess.run(["locale", "-a"], capture_output=True, text=True, timeout=10, check=False).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return None
    preferred = ("de_DE", "fr_FR", "tr_TR", "ja_JP", "ru_RU", "es_ES", "pt_BR", "zh_CN")
    for prefix in preferred:
        for name in listed:
            if name.startswith(prefix) and "utf" in name.lower():
                return name
    for name in listed:
        if not name.startswith(("C", "POSIX", "en_")) and "_" in name:
            return name
    return None


# ---------------------------------------------------------------------------------------------
# Determinism
# ---------------------------------------------------------------------------------------------


class Determinism(unittest.TestCase):
    """Every (input, format) case gives the same bytes in every configuration of the matrix."""

    CASES = [
        (f"{label}:{fmt}", [*argv, "--format", fmt])
        for label, argv in (
            ("example", ["--manifest", "bench.manifest.json", "--runs", "runs.jsonl"]),
            ("card", ["--manifest", "examples/card/bench.manifest.json", "--runs", "examples/card/runs.jsonl"]),
        )
        for fmt in ("text", "json", "markdown", "svg")
    ]

    def test_matrix(self) -> None:
        """check in every format gives byte-identical output across repeated runs, PYTHONHASHSEED values and locales."""
        configs: dict[str, dict[str, str | None]] = {
            "baseline": {"PYTHONHASHSEED": "0", "LC_ALL": None, "LANG": None},
            "repeat": {"PYTHONHASHSEED": "0", "LC_ALL": None, "LANG": None},
            "PYTHONHASHSEED=1": {"PYTHONHASHSEED": "1"},
            "PYTHONHASHSEED=12345": {"PYTHONHASHSEED": "12345"},
            "PYTHONHASHSEED=random": {"PYTHONHASHSEED": "random"},
            "LC_ALL=C": {"LC_ALL": "C", "PYTHONHASHSEED": "random"},
            "LC_ALL=C.UTF-8": {"LC_ALL": "C.UTF-8", "PYTHONHASHSEED": "random"},
        }
        other = _non_english_locale()
        if other is not None:
            configs[f"LC_ALL={other}"] = {"LC_ALL": other, "PYTHONHASHSEED": "random"}
        # Fast by default: baseline and repeat run every case, each other configuration half of them
        # (alternating, so every case meets several configurations). BENCHGATE_FULL_MATRIX=1: all of them.
        full = os.environ.get("BENCHGATE_FULL_MATRIX") == "1" or HUGE
        jobs = {(config, case): (argv, env)
                for i, (config, env) in enumerate(configs.items())
                for j, (case, argv) in enumerate(self.CASES)
                if full or config in ("baseline", "repeat") or (i + j) % 2 == 0}
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            futures = {key: pool.submit(_cli, argv, env) for key, (argv, env) in jobs.items()}
            results = {key: future.result() for key, future in futures.items()}
        for case, _ in self.CASES:
            code, out, err = results[("baseline", case)]
            self.assertEqual(code, 0, err)
            self.assertGreater(len(out), 200)
            for config in configs:
                if (config, case) in results:
                    with self.subTest(case=case, config=config):
                        self.assertEqual(results[(config, case)], (code, out, err))
        print(f"\ndeterminism matrix: {len(results)} runs of {len(self.CASES)} cases over {len(configs)} configs "
              f"({', '.join(configs)}){'' if full else ' (a fast subset; BENCHGATE_FULL_MATRIX=1 for all)'}: "
              "byte-identical", file=sys.stderr)

    def test_non_english_locale(self) -> None:
        """A non-English locale is available to the matrix (skipped when the machine lists none)."""
        other = _non_english_locale()
        if other is None:
            self.skipTest("no non-English locale listed by `locale -a` on this machine (C, C.UTF-8 and POSIX only)")
        self.assertIsNotNone(other)  # covered by test_matrix, which adds it to the configurations

    def test_in_process_repeat_is_identical(self) -> None:
        """Repeated in-process runs (warm caches, one interpreter) give the same bytes too."""
        argv = ["--manifest", str(EXAMPLE_CARD / "bench.manifest.json"), "--runs", str(EXAMPLE_CARD / "runs.jsonl"), "--format", "json"]
        outputs = set()
        for _ in range(3):
            out = io.StringIO()
            with mock.patch("sys.stdout", out):
                self.assertEqual(gate.main(argv), 0)
            outputs.add(out.getvalue())
        self.assertEqual(len(outputs), 1)

    def test_record_order_does_not_change_pass_at_k(self) -> None:
        """In samples mode the order of the records does not change a byte of the report, pass@k included: the figures
        are summed in a fixed order, not in the order the attempt patterns were first seen.
        """
        pats = {"neg": "fff", "pos": "ppp", "t0": "ufu", "t1": "uff", "t2": "upu", "t3": "upu", "t4": "pfu", "t5": "pfu"}
        ids = list(pats)
        manifest = make_manifest(ids, claim_id="x", name="d", with_ids=False, controls=control_pair("neg", "pos"),
                                 rerun_recipe=None, attempt_budget=3, attempt_mode="samples")
        manifest["max_unscoreable"] = 0.5  # 8 of the 24 samples are unscoreable: past the default ceiling of 0.2
        outputs = []
        for order in (ids, ["t1", "neg", "t0", "t3", "t5", "pos", "t4", "t2"]):
            case = GateCase()
            case.setUp()
            try:
                records = pattern_records({t: pats[t] for t in order})
                code, report = case.check_json(manifest, records)
            finally:
                case.tearDown()
            self.assertEqual(code, 0)
            report.pop("inputs")
            outputs.append(json.dumps(report))
        self.assertEqual(outputs[0], outputs[1])


class ImportDeterminism(GateCase):
    def test_output_is_deterministic(self) -> None:
        """import gives byte-identical runs files run to run, for every importer."""
        for fmt, args in (("inspect", (str(INS_DEFLATE),)), ("terminal-bench", (str(TB_SYN), str(TB_META))),
                          ("swebench", (str(SWE_EXP_SYN), "--dataset-ids", str(SWE_IDS)))):
            with self.subTest(fmt=fmt):
                outputs = []
                for n in (1, 2):
                    runs, draft = self.dir / f"{fmt}-{n}.jsonl", self.dir / f"{fmt}-{n}.json"
                    code, _, err = self.run_gate("import", fmt, *args, "-o", str(runs), "--draft-manifest", str(draft))
                    self.assertEqual(code, 0, err)
                    outputs.append(runs.read_bytes())
                self.assertEqual(outputs[0], outputs[1])
                self.assertGreater(len(outputs[0]), 0)


# ---------------------------------------------------------------------------------------------
# No code execution, no network
# ---------------------------------------------------------------------------------------------


FORBIDDEN_MODULES = frozenset({
    "subprocess", "socket", "urllib", "http", "pickle", "marshal", "ctypes", "shelve", "multiprocessing", "ftplib",
    "smtplib", "telnetlib", "xmlrpc", "importlib", "runpy", "code", "codeop", "pty", "webbrowser", "asyncio", "ssl",
    "select", "selectors", "builtins", "__builtin__", "cffi", "dbm", "imaplib", "poplib", "nntplib", "socketserver",
    "wsgiref", "pdb", "zipimport", "concurrent", "signal",
})


FORBIDDEN_CALLS = frozenset({"eval", "exec", "compile", "__import__", "breakpoint", "globals", "locals", "vars"})


FORBIDDEN_ATTRIBUTES = frozenset({
    "system", "popen", "execv", "execve", "execl", "execle", "execlp", "execlpe", "execvp", "execvpe", "spawnl",
    "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe", "fork", "forkpty", "posix_spawn",
    "posix_spawnp", "startfile", "__builtins__", "__globals__", "__code__", "__subclasses__", "__import__",
    "load_module", "exec_module",
})


def code_hazards(source: str) -> list[str]:
    """Everything in `source` that could run code or reach the network, as readable lines."""
    found = []
    for node in ast.walk(parsed(source)):
        where = f"line {getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in FORBIDDEN_MODULES:
                    found.append(f"{where}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and (node.module or "").split(".")[0] in FORBIDDEN_MODULES:
                found.append(f"{where}: from {node.module} import ...")
            for alias in node.names:
                if alias.name in FORBIDDEN_CALLS or alias.name in FORBIDDEN_ATTRIBUTES:
                    found.append(f"{where}: from {node.module} import {alias.name}")
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in FORBIDDEN_CALLS:
                found.append(f"{where}: call to {func.id}()")
            if isinstance(func, ast.Name) and func.id in ("getattr", "setattr") and node.args:
                target = node.args[0]
                name = node.args[1] if len(node.args) > 1 else None
                literal = (isinstance(name, ast.Constant) and isinstance(name.value, str)
                           and name.value not in FORBIDDEN_CALLS and name.value not in FORBIDDEN_ATTRIBUTES)
                if isinstance(target, ast.Name) and target.id in ("builtins", "__builtins__", "os", "sys") and not literal:
                    found.append(f"{where}: {func.id}({target.id}, ...) with a dynamic or forbidden name")
                if isinstance(name, ast.Constant) and name.value in FORBIDDEN_CALLS | FORBIDDEN_ATTRIBUTES:
                    found.append(f"{where}: {func.id}(..., {name.value!r})")
        elif isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_ATTRIBUTES:
            found.append(f"{where}: attribute .{node.attr}")
        elif isinstance(node, ast.Name) and node.id in ("__builtins__", "__loader__", "__spec__"):
            found.append(f"{where}: name {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr == "compile" and not (
                isinstance(node.value, ast.Name) and node.value.id == "re"):
            found.append(f"{where}: {ast.unparse(node)} (only re.compile is allowed)")
    return found


class NoCodeExecution(unittest.TestCase):
    def test_gate_has_no_hazards(self) -> None:
        """gate.py imports nothing that runs code or reaches the network, and calls no eval, exec or compile."""
        source = GATE.read_text(encoding="utf-8")
        # One fork, for --jobs: in _fork_worker, whose child runs the gate's own tally and leaves by os._exit.
        worker = next(node for node in ast.walk(parsed(source))
                      if isinstance(node, ast.FunctionDef) and node.name == "_fork_worker")
        allowed = {f"line {node.lineno}: attribute .fork" for node in ast.walk(worker)
                   if isinstance(node, ast.Attribute) and node.attr == "fork"}
        self.assertEqual(len(allowed), 1)
        exits = [node for node in ast.walk(worker) if isinstance(node, ast.Try)
                 for call in ast.walk(ast.Module(body=node.finalbody, type_ignores=[]))
                 if isinstance(call, ast.Call) and ast.unparse(call.func) == "os._exit"]
        self.assertEqual(len(exits), 1)  # the worker leaves by os._exit in a finally: it never returns into the gate
        self.assertEqual([hazard for hazard in code_hazards(source) if hazard not in allowed], [])
        self.assertIn("import ast", source)  # the metric language is parsed, never evaluated

    @unittest.skipIf(sys.version_info < (3, 10), "sys.stdlib_module_names is 3.10+")
    def test_gate_imports_only_the_standard_library(self) -> None:
        """Every module gate.py imports, at the top or deferred, is one this interpreter's standard library names
        (no optional package either: a zstd member is read only where zipfile itself can)."""
        imported = set()
        for node in ast.walk(parsed(GATE.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
        self.assertIn("zipfile", imported)  # (the walk sees deferred imports)
        self.assertEqual(sorted(imported - set(sys.stdlib_module_names) - {"__future__"}), [])

    def test_the_checker_catches_each_kind(self) -> None:
        """The hazard checker flags each kind of hazard and passes re.compile, os.replace and a literal getattr."""
        bad = {
            "import subprocess": "import subprocess",
            "import urllib.request": "import urllib.request",
            "from http import client": "from http import",
            "from os import system": "import system",
            "import importlib as il": "import importlib",
            "eval('1')": "eval()",
            "exec('x = 1')": "exec()",
            "compile('1', 'f', 'eval')": "compile()",
            "__import__('socket')": "__import__()",
            "getattr(builtins, 'ev' + 'al')('1')": "getattr(builtins",
            "getattr(x, '__import__')": "'__import__'",
            "__builtins__['exec']('1')": "__builtins__",
            "os.system('true')": ".system",
            "os.popen('true')": ".popen",
            "ast.compile": "only re.compile",
            "().__class__.__subclasses__()": ".__subclasses__",
        }
        for snippet, fragment in bad.items():
            with self.subTest(snippet=snippet):
                found = code_hazards(snippet)
                self.assertTrue(any(fragment in f for f in found), found)
        self.assertEqual(code_hazards("import re\nre.compile('x')\nimport os\nos.replace('a', 'b')\n"
                                      "getattr(zipfile, 'ZIP_ZSTANDARD', None)"), [])


# ---------------------------------------------------------------------------------------------
# Inputs never modified; outputs atomic and never clobbered
# ---------------------------------------------------------------------------------------------


OLD = 1_000_000_000  # 2001-09-09: any write by the tool would move an input's mtime away from this


class InputsUntouched(GateCase):
    """Every subcommand leaves its inputs' bytes and mtimes as they were."""

    def stage(self, sources: dict[str, Path]) -> dict[str, Path]:
        staged = {}
        for name, source in sources.items():
            target = self.dir / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
            os.utime(target, ns=(OLD * 10**9, OLD * 10**9))
            staged[name] = target
        return staged

    def state(self) -> dict[str, tuple[bytes, int]]:
        return {str(p.relative_to(self.dir)): (p.read_bytes(), p.stat().st_mtime_ns)
                for p in sorted(self.dir.rglob("*")) if p.is_file()}

    def assertUntouched(self, argv: list[str], expect_code: int, outputs: tuple[str, ...] = ()) -> None:
        before = self.state()
        code, _out, err = self.run_gate(*argv)
        self.assertEqual(code, expect_code, err)
        after = self.state()
        for name, (content, mtime) in before.items():
            self.assertEqual(after[name][0], content, f"{name} changed")
            self.assertEqual(after[name][1], mtime, f"{name} mtime changed")
        self.assertEqual(sorted(set(after) - set(before)), sorted(outputs))

    def test_check_digest_verify_compare(self) -> None:
        """check in every format, digest, verify and compare leave their inputs' bytes and mtimes alone and write no file."""
        p = self.stage({"card/" + n: EXAMPLE_CARD / n for n in ("bench.manifest.json", "runs.jsonl", "tasks.json", "card.json",
                                                       "gold.jsonl", "noedit.jsonl")})
        for fmt in ("text", "json", "markdown", "svg"):
            self.assertUntouched(["check", "--manifest", str(p["card/bench.manifest.json"]),
                                  "--runs", str(p["card/runs.jsonl"]), "--format", fmt, "--claim", "50%"], 1)
        self.assertUntouched(["digest", "--runs", str(p["card/runs.jsonl"])], 0)
        self.assertUntouched(["verify", str(p["card/tasks.json"]), str(p["card/card.json"])], 0)
        c = self.stage({"cmp/" + n: EXAMPLE_COMPARE / n for n in ("a.manifest.json", "a.jsonl", "b.manifest.json", "b.jsonl")})
        self.assertUntouched(["compare", "--manifest", str(c["cmp/a.manifest.json"]), "--runs", str(c["cmp/a.jsonl"]),
                              "--against-manifest", str(c["cmp/b.manifest.json"]), "--against-runs", str(c["cmp/b.jsonl"])], 0)

    def test_import_every_format(self) -> None:
        """import in every format leaves its inputs alone and writes only the outputs asked for."""
        sw, tb, ins = FIXTURES / "swebench", FIXTURES / "terminal-bench", FIXTURES / "inspect"
        p = self.stage({"sw.json": sw / "report-v2-short-synthetic.json", "ids.txt": sw / "report-v2-short-dataset-ids.txt",
                        "tb.json": tb / "results-synthetic.json", "meta.json": tb / "run_metadata-synthetic.json",
                        "log.json": ins / "tiny-success.json", "log.eval": ins / "tiny-success-deflate.eval"})
        runs = (("swebench", [str(p["sw.json"]), "--dataset-ids", str(p["ids.txt"])]),
                ("terminal-bench", [str(p["tb.json"]), str(p["meta.json"])]),
                ("inspect", [str(p["log.json"])]), ("inspect", [str(p["log.eval"])]))
        for i, (fmt, args) in enumerate(runs):
            self.assertUntouched(["import", fmt, *args], 0)
            self.assertUntouched(["import", fmt, *args, "-o", str(self.dir / f"o{i}.jsonl"), "--draft-manifest",
                                  str(self.dir / f"d{i}.json")], 0, outputs=(f"d{i}.json", f"o{i}.jsonl"))

    def test_gate_never_writes_to_its_inputs(self) -> None:
        """check and digest never write to the manifest or the runs file and add no file beside them."""
        manifest, records = valid_ledger()
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_jsonl("runs.jsonl", records)
        past = 1_600_000_000_000_000_000
        for path in (m, r):
            os.utime(path, ns=(past, past))
        before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in (m, r)}
        listing = sorted(os.listdir(self.dir))
        for fmt in ("text", "json"):
            self.run_gate("--manifest", str(m), "--runs", str(r), "--format", fmt)
        self.run_gate("digest", "--runs", str(r))
        self.assertEqual(before, {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in (m, r)})
        self.assertEqual(listing, sorted(os.listdir(self.dir)))


class AtomicNoClobber(GateCase):
    """Outputs appear complete or not at all, and never over a file without --force."""

    def freeze_args(self, card: Path, *extra: str) -> list[str]:
        return ["freeze", str(EXAMPLE_CARD / "tasks.json"), str(card), *extra]

    def test_freeze_never_overwrites_without_force(self) -> None:
        """freeze refuses to overwrite a file without --force, naming the option, and replaces it with --force."""
        card = self.write_text("card.json", "precious\n")
        code, _, err = self.run_gate(*self.freeze_args(card))
        self.assertEqual(code, 2)
        self.assertIn("--force", err)
        self.assertEqual(card.read_text(), "precious\n")
        self.assertEqual(sorted(p.name for p in self.dir.iterdir()), ["card.json"])
        code, _, err = self.run_gate(*self.freeze_args(card, "--force"))
        self.assertEqual(code, 0, err)
        self.assertEqual(json.loads(card.read_text())["task_count"], json.loads((EXAMPLE_CARD / "card.json").read_text())["task_count"])
        self.assertEqual(sorted(p.name for p in self.dir.iterdir()), ["card.json"])

    def test_import_never_overwrites_without_force(self) -> None:
        """import writes neither output when either exists, without --force; with --force it writes both."""
        log = str(FIXTURES / "inspect" / "tiny-success.json")
        for existing in ("out.jsonl", "draft.json"):
            with self.subTest(existing=existing):
                for p in list(self.dir.iterdir()):
                    p.unlink()
                target = self.write_text(existing, "precious\n")
                code, _, err = self.run_gate("import", "inspect", log, "-o", str(self.dir / "out.jsonl"),
                                             "--draft-manifest", str(self.dir / "draft.json"))
                self.assertEqual(code, 2)
                self.assertIn("--force", err)
                self.assertEqual(target.read_text(), "precious\n")
                self.assertEqual([p.name for p in self.dir.iterdir()], [existing])  # neither output written
                code, _, err = self.run_gate("import", "inspect", log, "-o", str(self.dir / "out.jsonl"),
                                             "--draft-manifest", str(self.dir / "draft.json"), "--force")
                self.assertEqual(code, 0, err)
                self.assertEqual(sorted(p.name for p in self.dir.iterdir()), ["draft.json", "out.jsonl"])
                self.assertEqual(len((self.dir / "out.jsonl").read_text().splitlines()), 10)

    def test_writes_are_a_rename_of_a_complete_temporary_file(self) -> None:
        """Each output appears by os.link (no clobber) or os.replace (--force) of a complete temporary file
        in the same folder, so a reader never sees a half-written card or runs file."""
        seen: list[tuple[str, str, str]] = []
        real_link, real_replace = os.link, os.replace

        def spy(kind: str, real: Any) -> Any:
            def wrapper(src: Any, dst: Any, *args: Any, **kwargs: Any) -> Any:
                src_path, dst_path = Path(src), Path(dst)
                self.assertEqual(src_path.parent.resolve(), dst_path.parent.resolve())
                self.assertNotEqual(src_path.name, dst_path.name)
                seen.append((kind, dst_path.name, src_path.read_text(encoding="utf-8")))
                return real(src, dst, *args, **kwargs)
            return wrapper

        with mock.patch("os.link", spy("link", real_link)), mock.patch("os.replace", spy("replace", real_replace)):
            card = self.dir / "card.json"
            self.assertEqual(self.run_gate(*self.freeze_args(card))[0], 0)
            self.assertEqual(self.run_gate(*self.freeze_args(card, "--force"))[0], 0)
            code, _, err = self.run_gate("import", "terminal-bench", str(FIXTURES / "terminal-bench" / "results.json"),
                                         "-o", str(self.dir / "runs.jsonl"), "--draft-manifest", str(self.dir / "m.json"))
            self.assertEqual(code, 0, err)
        kinds = [(kind, name) for kind, name, _ in seen]
        self.assertEqual(kinds, [("link", "card.json"), ("replace", "card.json"), ("link", "runs.jsonl"), ("link", "m.json")])  # the runs file before the draft that names it
        for _, name, content in seen:
            self.assertEqual(content, (self.dir / name).read_text(encoding="utf-8"))  # complete before the rename
        self.assertEqual(sorted(p.name for p in self.dir.iterdir()), ["card.json", "m.json", "runs.jsonl"])

    def test_failed_rename_leaves_no_partial_file(self) -> None:
        """When the final rename fails, freeze exits 2 naming the card and leaves no card and no temporary file."""
        def broken(*_: Any, **__: Any) -> None:
            raise OSError(28, "No space left on device")

        with mock.patch("os.link", broken):
            code, _, err = self.run_gate(*self.freeze_args(self.dir / "card.json"))
        self.assertEqual(code, 2)
        self.assertIn("card.json", err)
        self.assertEqual(list(self.dir.iterdir()), [])  # no card, no leftover temporary file

    def test_refuses_to_overwrite_without_force(self) -> None:
        """import -o refuses an existing runs file without --force, naming it and the option, and then writes no draft
        either; with --force it replaces the file.
        """
        target = self.write_text("runs.jsonl", "precious\n")
        draft = self.dir / "draft.json"
        result = self.run_gate("import", "inspect", str(INS_OK), "-o", str(target), "--draft-manifest", str(draft))
        self.assertInputError(result, str(target), "--force")
        self.assertEqual(target.read_text(encoding="utf-8"), "precious\n")
        self.assertFalse(draft.exists(), "nothing is written when one output is refused")
        code, _, err = self.run_gate("import", "inspect", str(INS_OK), "-o", str(target), "--force")
        self.assertEqual(code, 0, err)
        self.assertEqual(len(target.read_text(encoding="utf-8").splitlines()), 10)

    def test_refuses_to_overwrite_draft_without_force(self) -> None:
        """import refuses an existing draft manifest without --force and leaves it as it was."""
        draft = self.write_text("draft.json", "{}\n")
        result = self.run_gate("import", "inspect", str(INS_OK), "--draft-manifest", str(draft))
        self.assertEqual(result[0], 2, result)
        self.assertEqual(draft.read_text(encoding="utf-8"), "{}\n")

    def test_write_is_atomic(self) -> None:
        """A failure while writing leaves the old runs file whole (with --force) or no file at all, and no temporary file."""
        target = self.dir / "runs.jsonl"
        code, _, err = self.run_gate("import", "inspect", str(INS_OK), "-o", str(target))
        self.assertEqual(code, 0, err)
        self.assertEqual(sorted(p.name for p in self.dir.iterdir()), ["runs.jsonl"], "no temporary file left behind")
        good = target.read_bytes()
        # a failure while writing leaves the old file whole (--force) or no file at all
        with mock.patch("os.fsync", side_effect=OSError(28, "No space left on device")):
            code, _, err = self.run_gate("import", "inspect", str(INS_CANCEL), "-o", str(target), "--force")
            self.assertEqual(code, 2, err)
            self.assertEqual(target.read_bytes(), good)
            fresh = self.dir / "fresh.jsonl"
            code, _, err = self.run_gate("import", "inspect", str(INS_CANCEL), "-o", str(fresh))
            self.assertEqual(code, 2, err)
            self.assertFalse(fresh.exists())
        self.assertEqual(sorted(p.name for p in self.dir.iterdir()), ["runs.jsonl"], "no temporary file left behind")

    def test_input_error_writes_nothing(self) -> None:
        """An import that fails on its input writes neither the runs file nor the draft."""
        bad = self.write_text("bad.json", "{")
        target, draft = self.dir / "runs.jsonl", self.dir / "draft.json"
        self.assertInputError(self.run_gate("import", "inspect", str(bad), "-o", str(target),
                                            "--draft-manifest", str(draft)), str(bad))
        self.assertFalse(target.exists())
        self.assertFalse(draft.exists())


# ---------------------------------------------------------------------------------------------
# Corrupt and hostile inputs
# ---------------------------------------------------------------------------------------------


class CorruptInputs(GateCase):
    """Inputs corrupt in ways a parser does not expect are input errors, not tracebacks."""

    def corrupt_deflate_eval(self) -> Path:
        """A .eval archive whose header.json deflate stream is corrupt (the zip directory is intact)."""
        header = (FIXTURES / "inspect" / "tiny-success.json").read_bytes()[:4000]
        rnd = random.Random(7)
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("header.json", header)
        data = bytearray(buf.getvalue())
        start = 30 + len("header.json")  # local file header + name: the compressed stream begins here
        for _ in range(200):
            trial = bytearray(data)
            for _ in range(4):
                trial[start + rnd.randrange(20, 400)] ^= 1 << rnd.randrange(8)
            try:
                zlib.decompress(bytes(trial[start:start + 2000]), -15)
            except zlib.error:
                return self.write_text("log.eval", bytes(trial))
        self.fail("could not build a corrupt deflate stream")

    def test_corrupt_deflate_member_is_an_input_error(self) -> None:
        """A .eval archive whose member has a corrupt deflate stream is an input error naming the file, not a zlib traceback."""
        path = self.corrupt_deflate_eval()
        with self.assertRaises(zlib.error), zipfile.ZipFile(path) as archive:  # the precondition: it is corrupt
            archive.read("header.json")
        self.assertInputError(self.run_gate("import", "inspect", str(path)), "log.eval")

    def test_unhashable_run_id_is_an_input_error(self) -> None:
        """A run_id holding a list or an object is an input error naming the line and the field, not a TypeError."""
        for bad in (["r1"], {"id": "r1"}):
            with self.subTest(run_id=bad):
                manifest, records = valid_ledger()
                records[5]["run_id"] = bad
                self.assertInputError(self.check(manifest, records), "runs.jsonl:6", "run_id")


# ---------------------------------------------------------------------------------------------
# Huge inputs (BENCHGATE_HUGE=1)
# ---------------------------------------------------------------------------------------------


_MEASURE = ("import resource, subprocess, sys, time\n"
            "t = time.monotonic()\n"
            "p = subprocess.run(sys.argv[1:], capture_output=True)\n"
            "dt = time.monotonic() - t\n"
            "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
            "sys.stderr.buffer.write(p.stderr[:2000])\n"
            "sys.stdout.buffer.write(p.stdout[-4000:])\n"
            "print(f'\\n@@ {p.returncode} {dt:.2f} {rss}')\n")


def measured(*argv: str) -> tuple[int, float, float, str, str]:
    """Run gate.py in a fresh wrapper process: (exit code, wall seconds, peak RSS MiB, stdout tail, stderr)."""
    proc = subprocess.run([sys.executable, "-c", _MEASURE, sys.executable, "-S", str(GATE), *argv],
                          capture_output=True, text=True, timeout=1800, check=False)
    out, _, tail = proc.stdout.rpartition("\n@@ ")
    code, wall, rss_kib = tail.split()
    return int(code), float(wall), int(rss_kib) / 1024, out, proc.stderr


@unittest.skipUnless(HUGE, "huge-input tests are slow: set BENCHGATE_HUGE=1 to run them")
class HugeInputs(GateCase):
    def note(self, what: str, wall: float, rss: float) -> None:
        print(f"\nhuge: {what}: {wall:.2f} s wall, peak RSS {rss:.0f} MiB", file=sys.stderr)

    def test_single_50_mb_line(self) -> None:
        """A single 50 MB line is refused at its line number, within 200 MiB of memory."""
        manifest, records = valid_ledger()
        m = self.write_json("m.json", manifest)
        runs = self.dir / "runs.jsonl"
        with runs.open("w", encoding="utf-8") as fh:
            for r in records[:3]:
                fh.write(json.dumps(r) + "\n")
            pad = "x" * (50 * 1024 * 1024)
            fh.write(json.dumps({**records[3], "pad": pad}) + "\n")
            for r in records[4:]:
                fh.write(json.dumps(r) + "\n")
        code, wall, rss, _, err = measured("--manifest", str(m), "--runs", str(runs))
        self.note("one 50 MB line", wall, rss)
        self.assertEqual(code, 2, err)
        self.assertIn(f"runs.jsonl:4: line is longer than {gate.MAX_LINE_BYTES} bytes", err)
        self.assertNotIn("Traceback", err)
        self.assertLess(rss, 200)

    def test_a_million_tasks(self) -> None:
        """A ledger of a million tasks is PUBLISHABLE within 1 GiB of memory."""
        n = 10**6
        ids = [f"task-{i:07d}" for i in range(n)]
        outcomes = ("pass", "fail", "pass", "unscoreable")
        with (self.dir / "runs.jsonl").open("w", encoding="utf-8") as fh:
            for i, tid in enumerate(ids):
                out = outcomes[i % 4] if i > 1 else ("fail", "pass")[i]
                fh.write(json.dumps(record(tid, out, "env_flake" if out == "unscoreable" else None)) + "\n")
        manifest = make_manifest(ids, claim_id="million", name="big", with_ids=False, controls=control_pair(ids[0], ids[1]),
                                 rerun_recipe=None)
        m = self.write_json("m.json", manifest)
        code, wall, rss, out, err = measured("--manifest", str(m), "--runs", str(self.dir / "runs.jsonl"), "--format", "json")
        self.note(f"{n} tasks ({(self.dir / 'runs.jsonl').stat().st_size / 2**20:.0f} MiB)", wall, rss)
        self.assertEqual(code, 0, err)
        self.assertIn('"verdict": "PUBLISHABLE"', out)
        self.assertLess(rss, 1024)

    def test_a_hundred_thousand_reason_strings(self) -> None:
        """100,000 distinct declared reasons pass; undeclared, they make one finding that names a few, on a short
        line, within 1 GiB.
        """
        n = 10**5
        reasons = [f"reason-{i:06d}-{'é' * (i % 3)}" for i in range(n)]
        records = [record("neg", "fail"), record("pos", "pass")]
        records += [record(f"t{i}", "unscoreable", reason) for i, reason in enumerate(reasons)]
        ids = [r["task_id"] for r in records]
        manifest = make_manifest(ids, claim_id="reasons", name="d", with_ids=False, controls=control_pair("neg", "pos"),
                                 rerun_recipe=None, reason_classes=reasons)
        m = self.write_json("m.json", manifest)
        r = self.write_jsonl("runs.jsonl", records)
        code, wall, rss, out, err = measured("--manifest", str(m), "--runs", str(r))
        self.note(f"{n} distinct declared reasons", wall, rss)
        self.assertEqual(code, 0, err)
        self.assertIn("verdict     : PUBLISHABLE", out)
        manifest["reason_classes"] = []  # now every reason is unknown: a finding that names a few
        m = self.write_json("m.json", manifest)
        code, wall, rss, out, err = measured("--manifest", str(m), "--runs", str(r))
        self.note(f"{n} distinct undeclared reasons", wall, rss)
        self.assertEqual(code, 1, err)
        self.assertIn(f"! uncoded_unscoreable: {n} unscoreable attempt(s)", out)
        self.assertLess(len(out.splitlines()[-1]), 2000)
        self.assertLess(rss, 1024)


if __name__ == "__main__":
    unittest.main()
