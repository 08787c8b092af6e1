"""The suite's own runner (tests/__init__.py): test classes shared among forked processes must report exactly what
one process would, every kind of outcome with its text, and a worker that dies must fail the run."""

from __future__ import annotations

import io
import os
import sys
import tempfile
import time
import types
import unittest
from typing import Any

import tests


def probe_classes() -> list[type[unittest.TestCase]]:
    """Eight outcomes in six classes, each naming its process (defined here, not at module level, so discovery never runs them). The first
    class sleeps, so the process that takes it leaves the others to the other process: both run some."""

    class Slow(unittest.TestCase):
        def test_passes_slowly(self) -> None:
            time.sleep(0.5)
            self.skipTest(f"slow in {os.getpid()}")

    class Fails(unittest.TestCase):
        def test_fails(self) -> None:
            """fails, naming its process"""
            self.fail(f"boom in {os.getpid()}")

        def test_passes(self) -> None:
            pass

    class Errors(unittest.TestCase):
        def test_errors(self) -> None:
            raise KeyError(f"pid {os.getpid()}")

    class Skips(unittest.TestCase):
        def test_skips(self) -> None:
            self.skipTest(f"skipped in {os.getpid()}")

    class Expected(unittest.TestCase):
        @unittest.expectedFailure
        def test_expected(self) -> None:
            self.fail(f"expected in {os.getpid()}")

        @unittest.expectedFailure
        def test_unexpected(self) -> None:
            pass

    class Sub(unittest.TestCase):
        def test_subtests(self) -> None:
            for n in range(3):
                with self.subTest(n=n):
                    self.assertNotEqual(n, 1, f"sub in {os.getpid()}")

    return [Slow, Fails, Errors, Skips, Expected, Sub]


def fixture_classes() -> list[type[unittest.TestCase]]:
    """Outcomes unittest counts its own way: a setUpClass that fails and one that skips (no test of theirs runs),
    and a test with two failing subtests and one that errs."""

    class BrokenSetUp(unittest.TestCase):
        @classmethod
        def setUpClass(cls) -> None:
            raise RuntimeError("no fixture")

        def test_never(self) -> None:
            pass

    class SkippedSetUp(unittest.TestCase):
        @classmethod
        def setUpClass(cls) -> None:
            raise unittest.SkipTest("not here")

        def test_never(self) -> None:
            pass

    class ManySubtests(unittest.TestCase):
        def test_three_bad(self) -> None:
            for n in range(4):
                with self.subTest(n=n):
                    if n == 3:
                        raise ValueError("sub error")
                    self.assertEqual(n, 0)

    class Plain(unittest.TestCase):
        def test_a(self) -> None:
            time.sleep(0.3)

        def test_b(self) -> None:
            pass

    return [Plain, BrokenSetUp, SkippedSetUp, ManySubtests]


def tally(result: unittest.TestResult) -> tuple[int, ...]:
    return (result.testsRun, len(result.failures), len(result.errors), len(result.skipped),
            len(result.expectedFailures), len(result.unexpectedSuccesses))


def run_both(classes: list[type[unittest.TestCase]], **options: Any) -> tuple[unittest.TestResult, ...]:
    """The classes run in one process (a plain suite) and shared between two: (serial result, shared result)."""
    loader = unittest.TestLoader()
    results = []
    for shared in (False, True):
        result = unittest.TextTestResult(io.StringIO(), descriptions=True, verbosity=0)  # type: ignore[type-var]
        for key, value in options.items():
            setattr(result, key, value)
        units = [loader.loadTestsFromTestCase(cls) for cls in classes]
        (tests._Shared(units, jobs=2) if shared else unittest.TestSuite(units)).run(result)
        results.append(result)
    return tuple(results)


class SharedRunner(unittest.TestCase):
    def test_every_outcome_of_every_process_reaches_the_result(self) -> None:
        loader = unittest.TestLoader()
        units = [loader.loadTestsFromTestCase(cls) for cls in probe_classes()]
        stream = io.StringIO()
        result = unittest.TextTestResult(stream, descriptions=True, verbosity=0)  # type: ignore[type-var]
        tests._Shared(units, jobs=2).run(result)
        self.assertEqual(result.testsRun, 8)
        self.assertFalse(result.wasSuccessful())
        failures = sorted(text.strip().splitlines()[-1] for _, text in result.failures)
        self.assertEqual(len(failures), 2, failures)
        self.assertRegex(failures[0], r"^AssertionError: 1 == 1 : sub in \d+$")
        self.assertRegex(failures[1], r"^AssertionError: boom in \d+$")
        self.assertEqual([str(t).split(" ")[0] for t, _ in result.failures if "boom" in _], ["test_fails"])
        self.assertIn("(n=1)", " ".join(str(t) for t, text in result.failures if "sub in" in text))
        self.assertEqual(len(result.errors), 1)
        self.assertRegex(result.errors[0][1], r"KeyError: 'pid \d+'")
        self.assertEqual(sorted(reason.split(" ")[0] for _, reason in result.skipped), ["skipped", "slow"])
        self.assertEqual(len(result.expectedFailures), 1)
        self.assertRegex(result.expectedFailures[0][1], r"AssertionError: expected in \d+")
        self.assertEqual(len(result.unexpectedSuccesses), 1)
        texts = [text for _, text in result.failures + result.errors + result.expectedFailures] + \
                [reason for _, reason in result.skipped]
        pids = {int(text.rstrip("'\n").rsplit(" ", 1)[1]) for text in texts}
        self.assertEqual(len(pids), 2, "both processes ran some of the classes")
        described = [result.getDescription(t) for t, _ in result.failures if "boom" in _]
        self.assertEqual(len(described), 1)
        self.assertIn("fails, naming its process", described[0], "a worker's test keeps its docstring line")

    def test_counts_are_one_processs_counts(self) -> None:
        """Every probe class, and the fixture ones, counted as one process counts them: a failing setUpClass is one
        error and no test run, a skipping one one skip, each failing subtest one failure under one test."""
        serial, shared = run_both(probe_classes() + fixture_classes())
        self.assertEqual(tally(shared), tally(serial))
        self.assertEqual(tally(serial), (11, 4, 3, 3, 1, 1))
        texts = sorted(text.strip().splitlines()[-1] for _, text in shared.errors)
        self.assertEqual(texts[-2:], ["RuntimeError: no fixture", "ValueError: sub error"])

    def test_module_fixtures_are_set_up_once_a_process_and_torn_down_at_its_end(self) -> None:
        """Three classes of one module with setUpModule and tearDownModule, the first slow so that the other process
        takes the rest: in each process the module is set up before its classes and torn down once, after them."""
        with tempfile.NamedTemporaryFile("a+", delete=False) as log:
            self.addCleanup(os.unlink, log.name)
        module = types.ModuleType("benchgate_probe_module")
        state = {"up": False}

        def note(event: str) -> None:
            with open(log.name, "a") as handle:
                handle.write(f"{os.getpid()} {event}\n")

        def set_up() -> None:
            state["up"] = True
            note("setUpModule")

        def tear_down() -> None:
            state["up"] = False
            note("tearDownModule")

        module.setUpModule, module.tearDownModule = set_up, tear_down  # type: ignore[attr-defined]
        sys.modules[module.__name__] = module
        self.addCleanup(sys.modules.pop, module.__name__)

        def case(name: str, pause: float) -> type[unittest.TestCase]:
            def test(self: unittest.TestCase) -> None:
                time.sleep(pause)
                self.assertTrue(state["up"], "the module is set up")
                note(name)
            return type(name, (unittest.TestCase,), {"__module__": module.__name__, "test": test})

        loader = unittest.TestLoader()
        units = [loader.loadTestsFromTestCase(case(n, p)) for n, p in (("A", 0.5), ("B", 0), ("C", 0), ("D", 0))]
        result = unittest.TestResult()
        tests._Shared(units, jobs=2).run(result)
        self.assertTrue(result.wasSuccessful(), result.errors + result.failures)
        by_process: dict[str, list[str]] = {}
        with open(log.name) as handle:
            entries = handle.read().split("\n")
        for entry in entries:
            if entry:
                pid, event = entry.split()
                by_process.setdefault(pid, []).append(event)
        self.assertEqual(len(by_process), 2, by_process)
        for events in by_process.values():
            self.assertEqual((events[0], events[-1]), ("setUpModule", "tearDownModule"), events)
            self.assertEqual(events.count("setUpModule"), 1, events)
            self.assertEqual(events.count("tearDownModule"), 1, events)
        self.assertEqual(sorted(e for es in by_process.values() for e in es if len(e) == 1), ["A", "B", "C", "D"])

    def test_a_stop_empties_the_queue_for_every_process(self) -> None:
        """With failfast, the first failure stops the run: the queue is emptied, so the classes not yet taken by
        either process never run."""
        classes = []
        for n in range(30):
            def test(self: unittest.TestCase, n: int = n) -> None:
                time.sleep(0.02)
                self.assertNotEqual(n, 2)
            classes.append(type(f"Case{n}", (unittest.TestCase,), {"test": test}))
        _, shared = run_both(classes, failfast=True)
        self.assertEqual(len(shared.failures), 1)
        self.assertLess(shared.testsRun, 10, "the processes stopped after their current class")

    def test_a_worker_that_dies_without_reporting_is_an_error(self) -> None:
        answer, reply = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.write(reply, b'[{"id": "half')  # a report cut short
            os._exit(5)
        os.close(reply)
        result = unittest.TestResult()
        tests._Shared._collect(pid, answer, result)
        self.assertEqual((result.testsRun, len(result.errors)), (0, 1))
        self.assertFalse(result.wasSuccessful())
        self.assertIn("ended without reporting its tests", result.errors[0][1])
        self.assertIn("BENCHGATE_TEST_JOBS=1", result.errors[0][1])

    def test_one_job_is_discovery_as_it_is(self) -> None:
        """BENCHGATE_TEST_JOBS=1 returns discovery's own suite: no fork, every class in its order."""
        saved = os.environ.get("BENCHGATE_TEST_JOBS")
        os.environ["BENCHGATE_TEST_JOBS"] = "1"
        try:
            self.assertEqual(tests._jobs(), 1)
            os.environ["BENCHGATE_TEST_JOBS"] = "3"
            self.assertEqual(tests._jobs(), 3)
        finally:
            if saved is None:
                del os.environ["BENCHGATE_TEST_JOBS"]
            else:
                os.environ["BENCHGATE_TEST_JOBS"] = saved
        suite = unittest.TestSuite([unittest.TestLoader().loadTestsFromTestCase(c) for c in probe_classes()])
        self.assertEqual([len(list(u)) for u in tests._classes(unittest.TestSuite([suite]))], [1, 2, 1, 1, 2, 1])


if __name__ == "__main__":
    unittest.main()
