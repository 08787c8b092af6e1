"""The golden file of every in-process call (tests/support.py's GateCase._pin_call, tests/golden_calls.py): what a
digest holds, what it leaves out, when a test fails on it, and that the file names only tests that exist."""

from __future__ import annotations

import importlib
import json
import os
import shlex
import tempfile
import unittest
from pathlib import Path
from typing import Any
from unittest import mock

from tests import golden_calls, support
from tests.support import GOLDEN_CALLS, ROOT, GateCase, call_digests

SHA = "ab" * 32  # a 64-digit hex digest


class Placeless(GateCase):
    """Paths that move from run to run are written as placeholders; paths a harness file names are kept."""

    def test_the_folder_the_checkout_and_temporary_folders_become_placeholders(self) -> None:
        other = Path(tempfile.gettempdir()) / "tmpab_cd12x"
        text = (f"{self.dir}/r.jsonl {self.dir.resolve()}/m.json {ROOT}/gate.py {other}/x "
                f"{tempfile.gettempdir()}/benchgate-q1w2e3r_ /dev/fd/17")
        self.assertEqual(support._placeless(text, self.dir),
                         "<DIR>/r.jsonl <DIR>/m.json <ROOT>/gate.py <TMP>/x <TMP> /dev/fd/N")

    def test_the_folder_as_the_markdown_card_escapes_it_is_a_placeholder_too(self) -> None:
        folder = Path(tempfile.gettempdir()) / "tmpabcdef_"
        escaped = support.gate._md(str(folder))
        self.assertNotEqual(escaped, str(folder))  # the trailing _ is escaped
        self.assertEqual(support._placeless(f"- {escaped}/r.jsonl:1: bad", folder), "- <DIR>/r.jsonl:1: bad")

    def test_a_path_a_harness_file_names_is_kept(self) -> None:
        """In the temporary folder, only names tempfile makes (tmp or benchgate- and eight characters) are folders
        of a run: a harness's /tmp/tcc.iso, a shorter or a longer name are kept."""
        tmp = tempfile.gettempdir()
        text = f"-cdrom {tmp}/tcc.iso; PID file at '{tmp}/service.pid'; {tmp}/tmpshort {tmp}/tmpabcdefghij"
        self.assertEqual(support._placeless(text, self.dir), text)
        self.assertEqual(support._placeless(f"{tmp}/tmpab\\_cdefg/x", self.dir), "<TMP>/x")  # as Markdown escapes _

    def test_the_path_as_quoted_and_escaped_is_a_placeholder_too(self) -> None:
        """A folder with a space, a comma, a % and a letter beyond ASCII, as the shell quotes it, as JSON, Markdown
        and a GitHub annotation escape it: each is <DIR>; a quoted argument that only the path made quoted is
        unquoted, one whose own name needs quoting stays quoted."""
        folder = Path(tempfile.gettempdir()) / "a b,é%"
        argv = shlex.join(["import", str(folder / "r.json"), "-o", str(folder / "x y.jsonl")])
        self.assertEqual(support._placeless(argv, folder), "import <DIR>/r.json -o '<DIR>/x y.jsonl'")
        for escape in (lambda t: json.dumps(t)[1:-1], support.gate._md, support.gate.github_escape,
                       lambda t: support.gate.github_escape(t, True)):
            with self.subTest(form=escape(str(folder))):
                self.assertEqual(support._placeless(escape(f"{folder}/r.json"), folder), "<DIR>/r.json")


class Digests(GateCase):
    def digests(self, out: str = "out", err: str = "", code: int = 0) -> tuple[str, str]:
        return call_digests(self.dir, code, out, err)

    def test_every_part_of_a_call_moves_the_digest(self) -> None:
        base = self.digests()
        self.assertEqual(base, self.digests())
        for other in (self.digests("out "), self.digests(err="e"), self.digests(code=1)):
            self.assertNotEqual(base[0], other[0])
            self.assertNotEqual(base[1], other[1])
        self.write_text("draft.json", "{}\n")
        with_file = self.digests()
        self.assertNotEqual(base, with_file)
        self.write_text("draft.json", "{ }\n")
        self.assertNotEqual(with_file, self.digests())
        self.write_text("draft.json", "{}\n")
        self.assertEqual(with_file, self.digests())

    def test_a_file_the_call_left_as_it_was_enters_by_its_name(self) -> None:
        """With the folder's state before the call, only what the call made or changed is read; a file it made,
        changed or removed still moves the digest."""
        self.write_text("input.json", "{}\n")
        before = support.folder_state(self.dir)
        self.write_text("input.json", "[1]\n")  # as if the call had changed it (its size: file times may be coarse)
        changed = call_digests(self.dir, 0, "", "", before)
        self.write_text("input.json", "{}\n")
        os.utime(self.dir / "input.json", ns=before["input.json"][1:2] * 2)  # back as it was, to the nanosecond
        left = call_digests(self.dir, 0, "", "", before)
        self.assertNotEqual(changed, left)
        self.assertNotEqual(left, call_digests(self.dir, 0, "", ""))  # the body is left out
        self.write_text("new.json", "{}\n")
        made = call_digests(self.dir, 0, "", "", before)
        self.assertNotEqual(left, made)
        (self.dir / "new.json").unlink()
        (self.dir / "input.json").unlink()
        self.assertNotEqual(left, call_digests(self.dir, 0, "", "", before))

    def test_a_file_over_the_cap_enters_by_its_size(self) -> None:
        big = b"x" * (support._FILE_CAP + 1)
        self.write_text("big.jsonl", big)
        first = self.digests()
        self.write_text("big.jsonl", b"y" + big[1:])
        self.assertEqual(first, self.digests())
        self.write_text("big.jsonl", big + b"x")
        self.assertNotEqual(first, self.digests())

    def test_only_the_masked_digest_ignores_a_sha256(self) -> None:
        one, two = self.digests(f'"manifest_sha256": "{SHA}"'), self.digests(f'"manifest_sha256": "{"cd" * 32}"')
        self.assertNotEqual(one[0], two[0])
        self.assertEqual(one[1], two[1])
        self.assertTrue(one[1].startswith("m") and not one[0].startswith("m"))
        # 63 or 65 digits are not a sha256: they stay in the masked digest
        self.assertNotEqual(self.digests("a" * 63)[1], self.digests("b" * 63)[1])
        self.assertNotEqual(self.digests("a" * 65)[1], self.digests("b" * 65)[1])

    def test_the_same_call_in_another_folder_has_the_same_digest(self) -> None:
        with tempfile.TemporaryDirectory() as other:
            folder = Path(other)
            for where in (self.dir, folder):
                (where / "runs.jsonl").write_text(f"{where}/x\n", encoding="utf-8")
            self.assertEqual(call_digests(self.dir, 1, f"{self.dir}/runs.jsonl", ""),
                             call_digests(folder, 1, f"{folder}/runs.jsonl", ""))


class Pinning(unittest.TestCase):
    """A call whose digest is not the recorded one fails its test; an unrecorded call, a recording run and a
    hypothesis test are not compared."""

    def inner(self, hypothesis: bool = False) -> GateCase:
        class Inner(GateCase):
            def test_call(self) -> None:
                """Stands for any test."""

        if hypothesis:
            Inner.test_call.hypothesis = object()  # type: ignore[attr-defined]  # as @given marks a test
        case = Inner("test_call")
        case.setUp()
        self.addCleanup(case.tearDown)
        return case

    def call(self, case: GateCase, golden: dict[str, str], *argv: str) -> tuple[int, str, str]:
        """`case` runs the gate (the shipped example unless `argv`) against `golden`, never recording (the suite may
        be being recorded)."""
        env = {k: v for k, v in os.environ.items() if k != support.RECORD_CALLS}
        argv = argv or ("--manifest", str(ROOT / "bench.manifest.json"), "--runs", str(ROOT / "runs.jsonl"))
        with mock.patch.object(support, "golden_calls", return_value=golden), mock.patch.dict(os.environ, env, clear=True):
            return case.run_gate(*argv)

    def test_a_moved_call_fails_with_what_it_printed_and_how_to_remake_the_file(self) -> None:
        case = self.inner()
        with self.assertRaises(AssertionError) as caught:
            self.call(case, {f"{case.id()}#0": "0" * 20})
        self.assertIn("call 0 of this test", str(caught.exception))
        self.assertIn("exit 0; stdout 'claim       : agent-x-mini", str(caught.exception))
        self.assertIn("python3 tests/golden_calls.py", str(caught.exception))

    def test_the_recorded_call_passes_and_calls_are_numbered_within_a_test(self) -> None:
        probe = self.inner()
        code, out, err = self.call(probe, {})
        whole, masked = call_digests(probe.dir, code, out, err)
        for digest in (whole, masked):
            case = self.inner()
            self.call(case, {f"{case.id()}#0": digest})
            with self.assertRaises(AssertionError) as caught:  # the second call is call 1, held to its own digest
                self.call(case, {f"{case.id()}#1": "0" * 20})
            self.assertIn("call 1 of this test", str(caught.exception))

    def test_an_unrecorded_call_and_a_hypothesis_test_are_not_compared(self) -> None:
        case = self.inner()
        self.call(case, {f"{case.id()}#7": "0" * 20})
        drawn = self.inner(hypothesis=True)
        self.call(drawn, {f"{drawn.id()}#0": "0" * 20})

    def test_a_recording_run_appends_the_key_and_the_digests_a_later_run_is_held_to(self) -> None:
        """Recording compares nothing (a wrong digest on file does not fail), and appends the call's key and its
        two digests: a later run of the same call passes when either is the one on file, and fails otherwise."""
        case = self.inner()
        with tempfile.TemporaryDirectory() as elsewhere:
            log = Path(elsewhere) / "calls.log"
            with mock.patch.object(support, "golden_calls", lambda: {f"{case.id()}#0": "0" * 20}), \
                    mock.patch.dict(os.environ, {support.RECORD_CALLS: str(log)}):
                case.run_gate("--version")
            key, whole, masked = json.loads(log.read_text(encoding="utf-8"))
        self.assertEqual(key, f"{case.id()}#0")
        self.assertTrue(len(whole) == 20 and masked.startswith("m") and whole != masked)
        for digest in (whole, masked):
            later = self.inner()
            self.call(later, {f"{later.id()}#0": digest}, "--version")
        later = self.inner()
        with self.assertRaises(AssertionError):
            self.call(later, {f"{later.id()}#0": whole[::-1]}, "--version")


class Agreement(unittest.TestCase):
    """tests/golden_calls.py pins a call only where every run gave it one digest."""

    def test_the_whole_digest_else_the_masked_one_else_nothing(self) -> None:
        tables: list[dict[str, Any]] = [
            {"same": ("a1", "m1"), "masked": ("a1", "m1"), "moved": ("a1", "m1"), "twice": ("a1", "m1"), "one": ("a", "m")},
            {"same": ("a1", "m1"), "masked": ("a2", "m1"), "moved": ("a2", "m2"), "twice": None},
            {"same": ("a1", "m1"), "masked": ("a3", "m1"), "moved": ("a1", "m1"), "twice": ("a1", "m1")},
        ]
        self.assertEqual(golden_calls.agreed(tables), {"same": "a1", "masked": "m1"})

    def test_a_key_recorded_twice_in_one_run_is_not_pinned(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            log = Path(folder) / "here.jsonl"
            log.write_text("".join(json.dumps(r) + "\n" for r in
                                   (["k#0", "a", "ma"], ["k#1", "b", "mb"], ["k#0", "a", "ma"])), encoding="utf-8")
            self.assertEqual(golden_calls.read(log), {"k#0": None, "k#1": ("b", "mb")})


class TheFile(unittest.TestCase):
    def test_every_pinned_call_names_a_test_that_exists(self) -> None:
        """A renamed or removed test leaves keys no test reads: the file is remade with the suite."""
        if os.environ.get(support.RECORD_CALLS):
            self.skipTest("tests/golden_calls.py is remaking the file")
        calls = json.loads(GOLDEN_CALLS.read_text(encoding="utf-8"))["calls"]
        self.assertTrue(calls)
        missing = []
        for key in sorted({k.rsplit("#", 1)[0] for k in calls}):
            module, cls, method = key.rsplit(".", 2)
            found = getattr(importlib.import_module(module), cls, None)
            if found is None or not callable(getattr(found, method, None)):
                missing.append(key)
        self.assertEqual(missing, [])
        self.assertTrue(all(len(d) == 20 and set(d) <= set("0123456789abcdefm") for d in calls.values()))


if __name__ == "__main__":
    unittest.main()
