"""The suite's own runner (tests/__init__.py): test classes shared among forked processes must report exactly what
one process would, every kind of outcome with its text, and a worker that dies must fail the run."""

from __future__ import annotations

import io
import os
import time
import unittest

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


class SharedRunner(unittest.TestCase):
    def test_every_outcome_of_every_process_reaches_the_result(self) -> None:
        loader = unittest.TestLoader()
        units = [loader.loadTestsFromTestCase(cls) for cls in probe_classes()]
        stream = io.StringIO()
        result = unittest.TextTestResult(stream, descriptions=True, verbosity=0)
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

    def test_a_worker_that_dies_without_reporting_is_an_error(self) -> None:
        answer, reply = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.write(reply, b'[{"id": "half')  # a report cut short
            os._exit(5)
        os.close(reply)
        result = unittest.TestResult()
        tests._Shared._collect(pid, answer, result)
        self.assertEqual(result.testsRun, 1)
        self.assertEqual(len(result.errors), 1)
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
