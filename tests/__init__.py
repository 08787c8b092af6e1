"""benchgate's tests: `python3 -m unittest` from the project's root runs them all.

Discovery hands the package to `load_tests` below, which shares the test classes among as many processes as the
machine has cores (at most 4): the parent and forked workers take the next class from one queue until none is
left, and each worker's outcomes are replayed into the runner's result, so the report and the exit status are the
runner's own. A class is the unit (its setUpClass runs once, in the process that takes it). The classes do not
depend on each other and each test works in its own temporary folder.

BENCHGATE_TEST_JOBS=1 runs everything in one process, in discovery's order; so does a platform without fork, and
`python3 -m unittest tests.test_x` (a module named on the command line does not go through `load_tests`)."""

from __future__ import annotations

import json
import os
import struct
import sys
import unittest
from collections.abc import Callable, Iterator
from typing import Any

_TOKEN = struct.Struct("<H")  # a class's index in the queue; a pipe read this small is never split


def _jobs() -> int:
    asked = os.environ.get("BENCHGATE_TEST_JOBS", "")
    if asked:
        return max(1, int(asked))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return min(cores, 4)


def _classes(suite: unittest.TestSuite) -> Iterator[unittest.TestSuite]:
    """The suites of one test class each, in discovery's order (a module that failed to import is one unit too)."""
    for item in suite:
        if isinstance(item, unittest.TestSuite) and any(isinstance(t, unittest.TestSuite) for t in item):
            yield from _classes(item)
        elif isinstance(item, unittest.TestSuite):
            yield item
        else:
            yield unittest.TestSuite([item])


class _Ran:
    """A test that ran in a worker, as the runner's result shows it: its id, name and first docstring line."""

    failureException = AssertionError  # what the result's bookkeeping asks of a test

    def __init__(self, event: dict[str, str]) -> None:
        self._id, self._name, self._doc = event["id"], event["name"], event["doc"] or None

    def id(self) -> str:
        return self._id

    def __str__(self) -> str:
        return self._name

    def shortDescription(self) -> str | None:
        return self._doc


class _Recorder(unittest.TestResult):
    """A worker's result: every outcome as a plain record (the traceback already formatted) for the parent."""

    def __init__(self, like: unittest.TestResult) -> None:
        super().__init__()
        self.buffer, self.failfast = like.buffer, like.failfast
        self.events: list[dict[str, str]] = []

    def _note(self, test: Any, kind: str, text: str = "") -> None:
        self.events.append({"id": test.id(), "name": str(test), "doc": test.shortDescription() or "",
                            "kind": kind, "text": text})

    def addSuccess(self, test: Any) -> None:
        super().addSuccess(test)
        self._note(test, "success")

    def addFailure(self, test: Any, err: Any) -> None:
        super().addFailure(test, err)
        self._note(test, "failure", self.failures[-1][1])

    def addError(self, test: Any, err: Any) -> None:
        super().addError(test, err)
        self._note(test, "error", self.errors[-1][1])

    def addSkip(self, test: Any, reason: str) -> None:
        super().addSkip(test, reason)
        self._note(test, "skip", reason)

    def addExpectedFailure(self, test: Any, err: Any) -> None:
        super().addExpectedFailure(test, err)
        self._note(test, "expected failure", self.expectedFailures[-1][1])

    def addUnexpectedSuccess(self, test: Any) -> None:
        super().addUnexpectedSuccess(test)
        self._note(test, "unexpected success")

    def addSubTest(self, test: Any, subtest: Any, err: Any) -> None:
        if err is None:
            return
        kind = "failure" if issubclass(err[0], test.failureException) else "error"
        self._note(subtest, kind, self._exc_info_to_string(err, test))


def _stored(bucket: str) -> Callable[[unittest.TestResult, Any, str], None]:
    """Replay one failing outcome: the result's own method (it counts and prints), then the worker's text in place
    of the placeholder it stored."""
    def replay(result: unittest.TestResult, test: Any, text: str) -> None:
        getattr(result, {"failures": "addFailure", "errors": "addError",
                         "expectedFailures": "addExpectedFailure"}[bucket])(test, (AssertionError, AssertionError(),
                                                                                    None))
        kept = getattr(result, bucket)
        kept[-1] = (test, text)
    return replay


_REPLAY: dict[str, Callable[[unittest.TestResult, Any, str], None]] = {
    "success": lambda result, test, text: result.addSuccess(test),
    "failure": _stored("failures"),
    "error": _stored("errors"),
    "skip": lambda result, test, text: result.addSkip(test, text),
    "expected failure": _stored("expectedFailures"),
    "unexpected success": lambda result, test, text: result.addUnexpectedSuccess(test),
}


class _Shared(unittest.TestSuite):
    """The test classes shared among `jobs` processes through one queue of class indexes."""

    def __init__(self, units: list[unittest.TestSuite], jobs: int) -> None:
        super().__init__(units)
        self.units, self.jobs = units, jobs

    def _take(self, queue: int, result: unittest.TestResult) -> None:
        while not result.shouldStop:
            token = os.read(queue, _TOKEN.size)
            if not token:
                return
            self.units[_TOKEN.unpack(token)[0]].run(result)

    def run(self, result: unittest.TestResult, debug: bool = False) -> unittest.TestResult:
        from tests.support import gate_command
        gate_command()  # gate.py compiled once, before the fork: every process runs the same code object
        readable, writable = os.pipe()
        os.write(writable, b"".join(_TOKEN.pack(i) for i in range(len(self.units))))
        os.close(writable)  # the queue is full and closed: a read past its end is EOF
        workers = [self._fork(readable, result) for _ in range(self.jobs - 1)]
        self._take(readable, result)
        os.close(readable)
        for pid, answer in workers:
            self._collect(pid, answer, result)
        return result

    def _fork(self, queue: int, like: unittest.TestResult) -> tuple[int, int]:
        answer, reply = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid:
            os.close(reply)
            return pid, answer
        os.close(answer)
        status = 0
        try:
            recorder = _Recorder(like)
            self._take(queue, recorder)
            payload = json.dumps(recorder.events).encode("utf-8")
            with os.fdopen(reply, "wb") as handle:
                handle.write(payload)
        except BaseException:  # the worker reports nothing: the parent turns that into an error
            status = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)  # no exit handlers: they are the parent's (its temporary folders)

    @staticmethod
    def _collect(pid: int, answer: int, result: unittest.TestResult) -> None:
        with os.fdopen(answer, "rb") as handle:
            payload = handle.read()
        _, status = os.waitpid(pid, 0)
        try:
            events = json.loads(payload.decode("utf-8"))
        except ValueError:
            events = [{"id": "tests.worker", "name": f"test worker {pid}", "doc": "", "kind": "error",
                       "text": f"the worker process ended without reporting its tests (wait status {status}); "
                               "run BENCHGATE_TEST_JOBS=1 python3 -m unittest to see them in one process\n"}]
        for event in events:
            test = _Ran(event)
            result.startTest(test)
            _REPLAY[event["kind"]](result, test, event["text"])
            result.stopTest(test)


def load_tests(loader: unittest.TestLoader, standard_tests: unittest.TestSuite, pattern: str | None) -> Any:
    here = os.path.dirname(os.path.abspath(__file__))
    found = loader.discover(start_dir=here, pattern=pattern or "test*.py")
    jobs = _jobs()
    if jobs < 2 or not hasattr(os, "fork"):
        standard_tests.addTests(found)
        return standard_tests
    return _Shared(list(_classes(found)), jobs)
