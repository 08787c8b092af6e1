"""The command line: argparse, the implicit check subcommand, exit codes 0 / 1 / 2 as real processes,
--help and --version, usage errors as one line, and `import` writing to standard output or -o.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import unittest
from pathlib import Path
from typing import Any
from unittest import mock

import gate
from tests.builders import replaced, valid_ledger
from tests.support import INS_CANCEL, ROOT, SWE_REPORT, TB_META, TB_RESULTS, TB_SYN, GateCase, gate_command, load, run_cli


class CommandLine(GateCase):
    """gate.py's options, subcommands and exit codes."""

    def test_a_check_is_one_process_and_reads_the_listed_ids_lifted_unless_asked(self) -> None:
        """Without --jobs a check tallies in this one process (workers only when asked: --jobs 2), and the shipped
        manifest's plain list of task IDs is lifted out of its bytes before the parse (the path that keeps a
        10^6-ID manifest near the digest alone's cost; tests/test_listed_ids.py shows both read the same)."""
        m, r = str(ROOT / "bench.manifest.json"), str(ROOT / "runs.jsonl")
        for extra, jobs in (((), 1), (("--jobs", "2"), 2)):
            with self.subTest(extra=extra), mock.patch.object(gate, "tally_runs", wraps=gate.tally_runs) as tally:
                self.assertEqual(self.run_gate("--manifest", m, "--runs", r, *extra)[0], 0)
                self.assertEqual([call.kwargs["jobs"] for call in tally.call_args_list], [jobs])
        parsed, lifted, _ = gate._read_manifest(ROOT / "bench.manifest.json", None)
        self.assertIsNotNone(lifted)
        self.assertEqual(lifted.count if lifted else 0, parsed["dataset"]["task_count"])

    def test_implicit_check_equals_check(self) -> None:
        """Without a subcommand, gate.py runs check: the same output and exit code, in-process and as a real process."""
        manifest, records = valid_ledger()
        records = replaced(records, "t-002", wall_clock_s=901)
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_jsonl("runs.jsonl", records)
        for fmt in ("text", "json"):
            with self.subTest(format=fmt):
                implicit = self.run_gate("--manifest", str(m), "--runs", str(r), "--format", fmt)
                explicit = self.run_gate("check", "--manifest", str(m), "--runs", str(r), "--format", fmt)
                self.assertEqual(implicit, explicit)
                self.assertEqual(implicit[0], 1)
        implicit = run_cli("--manifest", str(m), "--runs", str(r))
        explicit = run_cli("check", "--manifest", str(m), "--runs", str(r))
        self.assertEqual((implicit.returncode, implicit.stdout, implicit.stderr),
                         (explicit.returncode, explicit.stdout, explicit.stderr))
        self.assertEqual(implicit.returncode, 1)
        self.assertIn("verdict     : BLOCKED", implicit.stdout)

    def test_real_exit_code_2(self) -> None:
        """A malformed runs file exits 2 as a real process, with nothing on stdout and one error line naming the line."""
        manifest, records = valid_ledger()
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_jsonl("runs.jsonl", records)
        # exit 0 and exit 1 as real processes: test_shipped_example_is_publishable, test_implicit_check_equals_check
        self.write_text("runs.jsonl", '{"run_id": "r1", "task_id": "t-1", "attempt": true}\n')
        bad = run_cli("--manifest", str(m), "--runs", str(r))
        self.assertEqual(bad.returncode, 2)
        self.assertEqual(bad.stdout, "")
        self.assertNotIn("Traceback", bad.stderr)
        self.assertRegex(bad.stderr, r"\Agate\.py: error: .*runs\.jsonl:1: .*attempt.*\n\Z")

    def test_shipped_example_is_publishable(self) -> None:
        """The shipped example exits 0 PUBLISHABLE as a real process, has both controls and two reasons, and is left unchanged."""
        m, r = ROOT / "bench.manifest.json", ROOT / "runs.jsonl"
        before = (m.read_bytes(), r.read_bytes())
        result = run_cli("--manifest", "bench.manifest.json", "--runs", "runs.jsonl", cwd=ROOT)
        self.assertEqual((result.returncode, result.stderr), (0, ""))
        self.assertIn("verdict     : PUBLISHABLE", result.stdout)
        code, out, err = self.run_gate("--manifest", str(m), "--runs", str(r), "--format", "json")
        self.assertEqual((code, err), (0, ""))
        report = json.loads(out)
        roles = {c["role"] for c in json.loads(m.read_text(encoding="utf-8"))["controls"]}
        self.assertTrue({"negative", "positive"} <= roles)
        self.assertGreaterEqual(len(report["ledger"]["unscoreable_reasons"]), 2)
        self.assertEqual(before, (m.read_bytes(), r.read_bytes()))

    def test_version(self) -> None:
        """--version prints a version number and exits 0."""
        code, out, err = self.run_gate("--version")
        self.assertEqual(code, 0)
        self.assertRegex(out + err, r"\d+\.\d+\.\d+")

    def test_help_documents_exit_codes_and_ends_with_an_example(self) -> None:
        """--help documents exit codes 0, 1 and 2 and ends with examples, each a python3 gate.py command."""
        code, out, _ = self.run_gate("--help")
        self.assertEqual(code, 0)
        for digit, word in (("0", "PUBLISHABLE"), ("1", "BLOCKED"), ("2", "error")):
            self.assertRegex(out, rf"(?m)^\s*{digit}\b.*{word}")
        heading = max(m.end() for m in re.finditer(r"(?im)^\s*examples?:\s*$", out))
        tail = [line.strip() for line in out[heading:].splitlines() if line.strip()]
        self.assertTrue(tail, out)
        self.assertTrue(tail[0].startswith("python3 gate.py"), tail)
        for previous, line in zip(tail, tail[1:]):
            self.assertTrue(line.startswith("python3 gate.py") or previous.endswith("\\"), (previous, line))

    def test_no_arguments_is_a_usage_error(self) -> None:
        """No argument at all is a usage error on stderr, exit 2."""
        code, out, err = self.run_gate()
        self.assertEqual((code, out), (2, ""))
        self.assertNotIn("Traceback", err)
        self.assertIn("usage", err.lower())

    def test_unknown_option_is_one_line(self) -> None:
        """An unknown option, an unknown format or a missing --manifest is a one-line usage error, exit 2."""
        manifest, records = valid_ledger()
        self.assertInputError(self.check(manifest, records, "--bogus"), "--bogus")
        self.assertInputError(self.run_gate("--bogus"))
        self.assertInputError(self.run_gate("check", "--bogus"))
        self.assertInputError(self.check(manifest, records, "--format", "xml"), "--format")
        self.assertInputError(self.run_gate("check", "--runs", str(self.dir / "r.jsonl")), "--manifest")

    def test_bad_confidence_is_a_usage_error(self) -> None:
        """--confidence outside (0, 1), or not a number, is a usage error naming --confidence."""
        manifest, records = valid_ledger()
        for value in ("1.5", "0", "1", "abc", "nan"):
            with self.subTest(confidence=value):
                self.assertInputError(self.check(manifest, records, "--confidence", value), "--confidence")


class SwappedInputs(GateCase):
    """The manifest given as --runs, or the runs file as --manifest (or both swapped): one line naming the file,
    what it is and which option it belongs to, exit 2 -- not twenty bad lines, nor a JSON parser's "Extra data"."""

    def test_each_file_given_as_the_other_is_named_for_what_it_is(self) -> None:
        manifest, records = valid_ledger()
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_jsonl("runs.jsonl", records)
        as_runs = f"gate.py: error: {m}: a manifest, not a runs file of attempt records: give it as --manifest, " \
                  "and the runs file (one record a line) as --runs\n"
        as_manifest = f"gate.py: error: {r}: a runs file (one attempt record a line), not a manifest: give it as " \
                      "--runs, and the claim's manifest as --manifest\n"
        for argv, err in (((m, m), as_runs), ((r, r), as_manifest), ((r, m), as_manifest)):
            with self.subTest(manifest=argv[0].name, runs=argv[1].name):
                self.assertEqual(self.run_gate("--manifest", str(argv[0]), "--runs", str(argv[1])), (2, "", err))
        one = self.write_text("one.jsonl", json.dumps(records[0]).encode())  # one record, no final newline
        self.assertEqual(self.run_gate("--manifest", str(one), "--runs", str(r)),
                         (2, "", as_manifest.replace(str(r), str(one))))
        broken = self.write_text("runs2.jsonl", b'{"task_id": "t-001", "outcome": "pass"\n')  # not a record: as ever
        code, _, err = self.run_gate("--manifest", str(broken), "--runs", str(r))
        self.assertEqual(code, 2)
        self.assertIn("invalid JSON", err)


class PipedRuns(GateCase):
    """A runs file given as a pipe (/dev/stdin, /dev/fd/N, a named pipe) is copied to a private file first, as
    standard input given as `-` is: a check that reads the runs again (the other runs' headlines beside a pinned one,
    the replicates, compare's and rank's sides) reads the same bytes and gives the file's report, the pipe named as
    given."""

    def piped(self, manifest: dict[str, Any], text: bytes, *extra: str) -> tuple[int, str, str]:
        m = self.write_json("pipe.manifest.json", manifest)
        readable, writable = os.pipe()
        self.addCleanup(os.close, readable)
        os.write(writable, text)  # (a few KiB: the pipe's buffer holds it all)
        os.close(writable)
        code, out, err = self.run_gate("--manifest", str(m), "--runs", f"/dev/fd/{readable}", *extra)
        return code, out.replace(f"/dev/fd/{readable}", "RUNS"), err.replace(f"/dev/fd/{readable}", "RUNS")

    def as_file(self, manifest: dict[str, Any], text: bytes, *extra: str) -> tuple[int, str, str]:
        m = self.write_json("pipe.manifest.json", manifest)
        r = self.write_text("piped.jsonl", text)
        code, out, err = self.run_gate("--manifest", str(m), "--runs", str(r), *extra)
        return code, out.replace(str(r), "RUNS"), err.replace(str(r), "RUNS")

    def test_a_pinned_run_beside_others_and_replicates_read_from_a_pipe_as_from_a_file(self) -> None:
        if not os.path.isdir("/dev/fd"):
            self.skipTest("no /dev/fd here")
        from tests.test_replicates import random_cells, replicated

        manifest, records = valid_ledger()
        two = [*records, *(dict(rec, run_id="r2", outcome="pass") for rec in records)]
        text = "".join(json.dumps(rec) + "\n" for rec in two).encode()
        piped = self.piped(manifest, text, "--run-id", "r1")
        self.assertEqual(piped, self.as_file(manifest, text, "--run-id", "r1"))
        self.assertIn("r2 ", piped[1])  # (the other run's headline, from the kept bytes)
        replicas, records = replicated(random_cells(3, 3, 12))
        text = "".join(json.dumps(rec) + "\n" for rec in records).encode()
        piped = self.piped(replicas, text, "--format", "json")
        self.assertEqual(piped, self.as_file(replicas, text, "--format", "json"))
        self.assertEqual(len(json.loads(piped[1])["replicates"]["runs"]), 3)

    def test_two_runs_of_one_piped_file_are_compared_and_ranked_as_from_a_file(self) -> None:
        """compare and rank of two manifests that pin the two runs of one runs file, given once as a pipe for both
        sides: each side reads the kept bytes, and the reports are the file's (the second side read an empty pipe:
        "--run-id 'r2': no record has this run_id")."""
        if not os.path.isdir("/dev/fd"):
            self.skipTest("no /dev/fd here")
        manifest, records = valid_ledger()
        two = [*records, *(dict(rec, run_id="r2") for rec in records)]
        text = "".join(json.dumps(rec) + "\n" for rec in two).encode()
        a = self.write_json("a.manifest.json", {**manifest, "claim_id": "a", "run_id": "r1"})
        b = self.write_json("b.manifest.json", {**manifest, "claim_id": "b", "run_id": "r2"})
        r = self.write_text("both.jsonl", text)
        for command in ("compare", "rank"):
            with self.subTest(command=command):
                readable, writable = os.pipe()
                self.addCleanup(os.close, readable)
                os.write(writable, text)
                os.close(writable)
                results = []
                for runs in (f"/dev/fd/{readable}", str(r)):
                    second = ("--against-manifest", str(b), "--against-runs", runs) if command == "compare" else \
                        ("--manifest", str(b), "--runs", runs)
                    code, out, err = self.run_gate(command, "--manifest", str(a), "--runs", runs, *second)
                    results.append((code, out.replace(runs, "RUNS"), err.replace(runs, "RUNS")))
                self.assertEqual(results[0], results[1])
                self.assertIn(results[1][0], (0, 1), results[1][2])

    def test_past_the_bound_a_piped_runs_file_is_refused_and_its_copy_removed(self) -> None:
        """A piped runs file larger than MAX_STDIN_BYTES: one line naming the pipe, and no private copy left behind."""
        if not os.path.isdir("/dev/fd"):
            self.skipTest("no /dev/fd here")
        import tempfile

        manifest, records = valid_ledger()
        text = "".join(json.dumps(rec) + "\n" for rec in records).encode()
        private = self.dir / "tmp"  # its own temporary folder: other runs on the machine make benchgate-* too
        private.mkdir()
        made: list[str] = []
        real = tempfile.TemporaryDirectory

        def recorded(*args: Any, **kwargs: Any) -> Any:
            folder = real(*args, **kwargs)
            made.append(folder.name)
            return folder

        with mock.patch.object(gate, "MAX_STDIN_BYTES", len(text) - 1), \
                mock.patch.object(tempfile, "tempdir", str(private)), \
                mock.patch.object(tempfile, "TemporaryDirectory", recorded):
            code, out, err = self.piped(manifest, text)
        self.assertEqual((code, out, err), (2, "", "gate.py: error: RUNS: larger than 0 GiB\n"))
        self.assertEqual([Path(m).parent for m in made], [private])  # the copy was made there, and is gone
        self.assertEqual(list(private.iterdir()), [])

    def test_standard_input_is_read_up_to_the_documented_16_gib(self) -> None:
        """The bound itself, as docs/developing.md states it: standard input is copied until it passes 16 GiB, and the
        refusal names it; reads counted (a 256 KiB chunk a read, into the null device), no 16 GiB in memory or on disk."""
        chunk = b"x" * gate._CHUNK_BYTES
        reads = []

        class Endless:
            def read(self, size: int) -> bytes:
                reads.append(size)
                return chunk

        fake = mock.Mock(buffer=Endless())
        with mock.patch.object(gate.sys, "stdin", fake), self.assertRaises(gate.GateError) as caught:
            gate._spool(Path("-"), Path(os.devnull))
        self.assertEqual(str(caught.exception), "standard input: larger than 16 GiB")
        self.assertEqual(len(reads), (16 << 30) // len(chunk) + 1)
        self.assertIn("up to 16 GiB", (ROOT / "docs" / "developing.md").read_text(encoding="utf-8"))


class StartUp(GateCase):
    def test_a_check_imports_no_module_it_does_not_use(self) -> None:
        """A whole check of the shipped example (parser built, report printed) imports neither typing (mypy's
        only), nor shutil (argparse asks it for the terminal width unless told), nor statistics (only plan and
        the clustered intervals need it). Run without site, whose customisations may import anything."""
        probe = ("import sys; sys.path.insert(0, sys.argv[1]); import gate; code = gate.main(['--manifest', "
                 "'bench.manifest.json', '--runs', 'runs.jsonl']); "
                 "print(code, sorted(m for m in ('typing', 'shutil', 'statistics') if m in sys.modules))")
        done = subprocess.run([sys.executable, "-S", "-I", "-c", probe, str(ROOT)], cwd=ROOT, capture_output=True,
                              text=True, timeout=60)
        self.assertEqual(done.stdout.strip().splitlines()[-1], "0 []", done.stderr)

    def test_one_commands_parser_reads_a_command_line_as_the_whole_parser_does(self) -> None:
        """main builds only the named command's parser: it reads each command line to the same namespace as the
        parser of every command, which lists exactly the commands _COMMANDS names, in its order."""
        full = gate.build_parser()
        choices = next(a for a in full._actions if isinstance(a, argparse._SubParsersAction)).choices
        self.assertEqual(tuple(choices), tuple(gate._COMMANDS))
        lines = [["check", "--manifest", "m.json", "--runs", "r.jsonl", "--jobs", "2", "--format", "json"],
                 ["digest", "--runs", "r.jsonl"], ["init", "--from-runs", "r.jsonl"], ["freeze", "t.json", "c.json"],
                 ["verify", "t.json", "c.json"], ["compare", "--manifest", "a.json", "--runs", "a.jsonl",
                                                  "--against-manifest", "b.json", "--against-runs", "b.jsonl"],
                 ["rank", "--list", "systems.json"], ["plan", "--baseline", "0.7", "--detect", "0.05", "--samples", "5"], ["import", "swebench", "report.json"]]
        for argv in lines:
            with self.subTest(argv[0]):
                one = gate.build_parser("gate.py", argv[0])
                self.assertEqual(len(next(a for a in one._actions if isinstance(a, argparse._SubParsersAction)).choices),
                                 2 if argv[0] in ("freeze", "verify") else 1)
                self.assertEqual(vars(one.parse_args(argv)), vars(full.parse_args(argv)))

    def test_the_benchmarks_floor_of_modules_is_what_a_check_imports(self) -> None:
        """bench/bench.py times `import <CHECK_MODULES>` alone as the floor no start-up can go under: every module
        it names must be one a check of the shipped example really imports (else the floor would be overstated)."""
        probe = ("import sys; sys.path.insert(0, sys.argv[1]); before = set(sys.modules); import gate; "
                 "gate.main(['--manifest', 'bench.manifest.json', '--runs', 'runs.jsonl']); "
                 "print(' '.join(sorted(set(sys.modules) - before)))")
        done = subprocess.run([sys.executable, "-S", "-I", "-c", probe, str(ROOT)], cwd=ROOT, capture_output=True,
                              text=True, timeout=60)
        imported = set(done.stdout.strip().splitlines()[-1].split())
        source = (ROOT / "bench" / "bench.py").read_text(encoding="utf-8")
        listed = re.search(r"^CHECK_MODULES = \(([^)]*)\)", source, re.MULTILINE)
        assert listed is not None
        modules = set(re.findall(r'"(\w+)"', listed[1]))
        self.assertEqual(len(modules), 6)
        self.assertLessEqual(modules, imported)

    def test_the_command_exits_without_teardown_but_loses_no_output(self) -> None:
        """cli() ends with os._exit (no interpreter teardown): the report on a pipe is whole and the exit code main's,
        for a PUBLISHABLE, a BLOCKED and an input-error run, on stdout and stderr alike."""
        blocked = self.write_json("blocked.json", {**load(ROOT / "bench.manifest.json"), "attempt_budget": 2})
        for manifest, fmt in ((ROOT / "bench.manifest.json", "svg"), (blocked, "json"), (self.dir / "nope.json", "text")):
            argv = ["--manifest", str(manifest), "--runs", str(ROOT / "runs.jsonl"), "--format", fmt]
            buffered = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
            done = subprocess.run([*gate_command(), *argv], capture_output=True, text=True, timeout=60, env=buffered)
            self.assertEqual((done.returncode, done.stdout, done.stderr), self.run_gate(*argv))
            self.assertGreater(len(done.stdout + done.stderr), 40)

    @unittest.skipUnless(os.path.exists("/dev/full"), "no /dev/full here")
    def test_help_that_cannot_be_written_is_an_error_not_a_silent_success(self) -> None:
        """argparse leaves --help in the stream's buffer; cli() flushes it, and a full device is exit 2 with a line,
        while a reader that stopped (| head) is not an error."""
        buffered = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
        for argv in (["--help"], ["--version"], ["check", "-h"]):
            with open("/dev/full", "w") as full:
                done = subprocess.run([*gate_command(), *argv], stdout=full, stderr=subprocess.PIPE, text=True,
                                      timeout=60, env=buffered)
            self.assertEqual(done.returncode, 2, argv)
            self.assertIn("error: cannot write to standard output: No space left on device", done.stderr)
        reader = subprocess.Popen([*gate_command(), "--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  env=buffered)
        assert reader.stdout is not None and reader.stderr is not None
        reader.stdout.close()  # the reader stops before the gate writes
        self.assertEqual((reader.wait(timeout=60), reader.stderr.read()), (0, b""))
        reader.stderr.close()

    def test_help_still_fits_the_terminal(self) -> None:
        """Given the width (COLUMNS, as shutil would read it), the options' help wraps to it."""
        widths = []
        for columns in ("50", "120"):
            done = subprocess.run([*gate_command(), "check", "--help"], capture_output=True,
                                  text=True, timeout=60, env={**os.environ, "COLUMNS": columns})
            self.assertEqual(done.returncode, 0)
            heading = "options:\n" if "options:\n" in done.stdout else "optional arguments:\n"  # (before 3.10)
            options = done.stdout.split(heading, 1)[1].split("\n\n", 1)[0].splitlines()
            widths.append(max(map(len, options)))
        self.assertLessEqual(widths[0], 50)
        self.assertGreater(widths[1], 50)


class ImportCommandLine(GateCase):
    """`gate.py import` writes runs to standard output, or to -o."""

    def test_stdout_lines_parse_and_equal_the_o_file(self) -> None:
        """For every importer, each standard-output line is a JSON object, and -o writes exactly those bytes with
        nothing on standard output.
        """
        for fmt, args in (("inspect", (str(INS_CANCEL),)), ("terminal-bench", (str(TB_SYN), str(TB_META))),
                          ("swebench", (str(SWE_REPORT),))):
            with self.subTest(fmt=fmt):
                code, out, _ = self.run_gate("import", fmt, *args)
                self.assertEqual(code, 0)
                for line in out.splitlines():
                    self.assertIsInstance(json.loads(line), dict)
                target = self.dir / f"{fmt}.jsonl"
                code, out2, err = self.run_gate("import", fmt, *args, "-o", str(target))
                self.assertEqual((code, out2), (0, ""), err)
                self.assertEqual(target.read_text(encoding="utf-8"), out)

    def test_stdout_mode_real_command_line(self) -> None:
        """import to standard output from the real command line gives one valid record per trial."""
        proc = run_cli("import", "terminal-bench", str(TB_RESULTS))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertEqual(len(lines), len(load(TB_RESULTS)["results"]))
        for line in lines:
            self.assertIn(json.loads(line)["outcome"], ("pass", "fail", "unscoreable"))


class HowTheUserAskedIt(GateCase):
    """--json as --format json, and the program named as the user invoked it (a copy saved under another name)."""

    def test_json_is_format_json_for_every_reporting_command(self) -> None:
        """check, compare and plan take --json for --format json: the same bytes; --json is no longer a misspelt
        --jobs."""
        args = ["--manifest", str(ROOT / "bench.manifest.json"), "--runs", str(ROOT / "runs.jsonl")]
        for argv in (["check", *args], ["plan", "--baseline", "0.5", "--detect", "0.1"]):
            with self.subTest(command=argv[0]):
                code, out, err = self.run_gate(*argv, "--json")
                self.assertEqual((code, err), (0, ""))
                self.assertEqual(out, self.run_gate(*argv, "--format", "json")[1])
                json.loads(out)
        compare = ["compare", "--manifest", str(ROOT / "examples/compare/a.manifest.json"), "--runs",
                   str(ROOT / "examples/compare/a.jsonl"), "--against-manifest",
                   str(ROOT / "examples/compare/b.manifest.json"), "--against-runs", str(ROOT / "examples/compare/b.jsonl")]
        self.assertEqual(json.loads(self.run_gate(*compare, "--json")[1])["verdict"], "PUBLISHABLE")

    def test_messages_name_the_program_as_invoked(self) -> None:
        """A copy of gate.py saved as mygate.py names itself in its errors and in the commands its findings give
        (`python3 mygate.py digest`), never `gate.py`."""
        copy = self.dir / "mygate.py"
        copy.write_bytes((ROOT / "gate.py").read_bytes())
        manifest = json.loads((ROOT / "bench.manifest.json").read_text(encoding="utf-8"))
        manifest["dataset"]["task_ids_sha256"] = "replace-with-digest-from-gate"
        path = self.write_json("m.json", manifest)
        done = subprocess.run([sys.executable, str(copy), "--manifest", str(path), "--runs", str(ROOT / "runs.jsonl")],
                              capture_output=True, text=True, timeout=120, check=False)
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertIn("`python3 mygate.py digest --runs RUNS`", done.stdout)
        self.assertNotIn("`gate.py", done.stdout)
        done = subprocess.run([sys.executable, str(copy), "--manifest", str(self.dir / "none.json"), "--runs", "x"],
                              capture_output=True, text=True, timeout=120, check=False)
        self.assertEqual(done.returncode, 2)
        self.assertTrue(done.stderr.startswith("mygate.py: error: "), done.stderr)


class ExitCodesThatCannotBeConfused(GateCase):
    """A bug of the gate's exits 3, never 1 (BLOCKED) or 2 (input error); running out of memory is an input
    error, never a traceback."""

    def test_an_unexpected_exception_is_exit_3_with_one_line(self) -> None:
        """run_check raising what the gate never raises on purpose: exit 3, one line naming the exception and asking
        for a report; BENCHGATE_DEBUG=1 adds the traceback."""
        from unittest import mock

        args = ["--manifest", str(ROOT / "bench.manifest.json"), "--runs", str(ROOT / "runs.jsonl")]
        with mock.patch.object(gate, "run_check", side_effect=ZeroDivisionError("boom")), \
                mock.patch.dict(os.environ, {"BENCHGATE_DEBUG": ""}):
            code, out, err = self.run_gate(*args)
        self.assertEqual((code, out), (3, ""))
        self.assertEqual(len(err.splitlines()), 1, err)
        self.assertTrue(err.startswith("gate.py: internal error: ZeroDivisionError: boom: a bug in benchgate"), err)
        long = "".join(f"{i:03d}," for i in range(100))  # 400 characters: the first 300 are shown
        with mock.patch.object(gate, "run_check", side_effect=ZeroDivisionError(long)), \
                mock.patch.dict(os.environ, {"BENCHGATE_DEBUG": ""}):
            code, _out, err = self.run_gate(*args)
        self.assertTrue(err.startswith(f"gate.py: internal error: ZeroDivisionError: {long[:300]}: a bug in"), err)
        with mock.patch.object(gate, "run_check", side_effect=ZeroDivisionError("boom")), \
                mock.patch.dict(os.environ, {"BENCHGATE_DEBUG": "1"}):
            code, _out, err = self.run_gate(*args)
        self.assertEqual(code, 3)
        self.assertIn("Traceback (most recent call last)", err)

    def test_running_out_of_memory_is_an_input_error(self) -> None:
        from unittest import mock

        args = ["--manifest", str(ROOT / "bench.manifest.json"), "--runs", str(ROOT / "runs.jsonl")]
        with mock.patch.object(gate, "run_check", side_effect=MemoryError()):
            code, _out, err = self.run_gate(*args)
        self.assertEqual(code, 2)
        self.assertIn("need more memory than this machine has", err)

    def test_a_harness_file_past_the_size_limit_is_refused_before_it_is_held(self) -> None:
        """`import terminal-bench /dev/zero` (an endless input): refused at the harness-file size limit, exit 2,
        where it had died of MemoryError."""
        if not Path("/dev/zero").exists():
            self.skipTest("no /dev/zero")
        code, _out, err = self.run_gate("import", "terminal-bench", "/dev/zero")
        self.assertEqual(code, 2)
        self.assertIn(f"larger than {gate.MAX_HARNESS_BYTES >> 20} MiB", err)


class OtherRunsReadOnce(GateCase):
    def test_a_pinned_runs_other_runs_are_named_with_their_headlines_and_their_own_lines(self) -> None:
        """A file of three runs, the manifest pinning r1: the other two are listed with their headlines (cut from the
        file in one pass); a bad line in one of them is an error naming the file's own path and line, never the
        temporary file the pass cut it into."""
        manifest, records = valid_ledger()
        manifest["run_id"] = "r1"
        rows = [dict(r, run_id=run) for run in ("r1", "r2", "r3") for r in records]
        for r in rows:
            if r["run_id"] == "r3" and r["outcome"] == "fail":
                r["outcome"], r["reason"] = "pass", None
        code, out, err = self.check(manifest, rows)
        self.assertEqual(code, 0, out + err)
        passed3 = sum(r["outcome"] == "pass" for r in rows if r["run_id"] == "r3")
        self.assertRegex(out, rf"(?m)^run\s*: r1 gated; not gated, in the same file: r2 29/40 = 0\.725 .*; r3 {passed3}/40 ")
        bad = [dict(r) for r in rows]
        line = next(i for i, r in enumerate(bad) if r["run_id"] == "r3") + 1
        bad[line - 1]["task_id"] = " t-x"
        code, _out, err = self.check(manifest, bad)
        self.assertEqual(code, 2)
        self.assertIn(f"runs.jsonl:{line}: task_id", err)
        self.assertNotIn("\0", err)
        self.assertNotIn("run-", err)

    def test_thirty_runs_read_twice_and_nothing_written(self) -> None:
        """30 runs of one suite, r01 pinned: the runs file is opened twice (the gated run, then one pass that cuts
        out every other run), each other run is read from memory, and nothing is written to disk (a temporary
        file a run cost 5 s at 10,000 runs)."""
        manifest, records = valid_ledger()
        manifest["run_id"] = "r01"
        rows = [dict(r, run_id=f"r{run:02d}") for run in range(1, 31) for r in records]
        m, r = self.write_json("bench.manifest.json", manifest), self.write_jsonl("runs.jsonl", rows)
        opened: list[str] = []
        real = gate.open_input

        def counting(path: Path) -> Any:
            opened.append(str(path))
            return real(path)

        with mock.patch.object(gate, "open_input", counting), \
                mock.patch("tempfile.mkstemp", side_effect=AssertionError("a file written")), \
                mock.patch("tempfile.TemporaryDirectory", side_effect=AssertionError("a folder made")):
            code, out, err = self.run_gate("--manifest", str(m), "--runs", str(r))
        self.assertEqual(code, 0, out + err)
        self.assertEqual(opened.count(str(r)), 2)
        self.assertEqual(sum(1 for name in opened if name.startswith("\0")), 29)
        for run in range(2, 31):
            self.assertIn(f"r{run:02d} 29/40 = 0.725 ", out)
        self.assertEqual(gate._IN_MEMORY, {})  # let go when the pass is over
