"""benchgate's tests: `python3 -m unittest` from the project's root runs them all.

Discovery hands the package to `load_tests` below, which shares the test classes among as many processes as the
machine has cores (at most 4): the parent and forked workers take the next class from one queue until none is
left, and each worker's outcomes are replayed into the runner's result, so the report and the exit status are the
runner's own. A class is the unit (its setUpClass runs once, in the process that takes it); each process runs its
share as one run, so class and module fixtures are set up and torn down as unittest does. The classes do not
depend on each other and each test works in its own temporary folder. A stop (-f, or Ctrl-C with -c) empties
the queue, so every process stops after its current class; a worker whose parent is gone stops too.

BENCHGATE_TEST_JOBS=1 runs everything in one process, in discovery's order; so does a platform without fork, and
`python3 -m unittest tests.test_x` (a module named on the command line does not go through `load_tests`)."""

from __future__ import annotations

import contextlib
import json
import os
import struct
import sys
import unittest
from collections.abc import Callable, Iterator
from typing import Any

_TOKEN = struct.Struct("<H")  # a class's index in the queue; a pipe read this small is never split
_MOST_JOBS = 16  # BENCHGATE_TEST_JOBS above this is taken as this


def _jobs() -> int:
    asked = os.environ.get("BENCHGATE_TEST_JOBS", "")
    if asked:
        return min(max(1, int(asked)), _MOST_JOBS)
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

    def __init__(self, event: dict[str, Any]) -> None:
        self._id, self._name, self._doc = event["id"], event["name"], event["doc"] or None

    def id(self) -> str:
        return self._id

    def __str__(self) -> str:
        return self._name

    def shortDescription(self) -> str | None:
        return self._doc


def _described(test: Any) -> dict[str, Any]:
    return {"id": test.id(), "name": str(test), "doc": test.shortDescription() or ""}


class _Recorder(unittest.TestResult):
    """A worker's result: every call the runner's result would get, as a plain record (a traceback already
    formatted) for the parent to replay in order."""

    def __init__(self, like: unittest.TestResult) -> None:
        super().__init__()
        self.buffer, self.failfast = like.buffer, like.failfast
        self.tb_locals = getattr(like, "tb_locals", False)
        self.events: list[dict[str, Any]] = []

    def _note(self, kind: str, case: Any, text: str = "", **more: Any) -> None:
        self.events.append({"kind": kind, **_described(case), "text": text, **more})

    def startTest(self, test: Any) -> None:
        super().startTest(test)
        self._note("start", test)

    def stopTest(self, test: Any) -> None:
        super().stopTest(test)
        self._note("stop", test)

    def addSuccess(self, test: Any) -> None:
        super().addSuccess(test)
        self._note("success", test)

    def addFailure(self, test: Any, err: Any) -> None:
        super().addFailure(test, err)
        self._note("failure", test, self.failures[-1][1])

    def addError(self, test: Any, err: Any) -> None:  # (a class or module fixture's too: no start before it)
        super().addError(test, err)
        self._note("error", test, self.errors[-1][1])

    def addSkip(self, test: Any, reason: str) -> None:
        super().addSkip(test, reason)
        self._note("skip", test, reason)

    def addExpectedFailure(self, test: Any, err: Any) -> None:
        super().addExpectedFailure(test, err)
        self._note("expected failure", test, self.expectedFailures[-1][1])

    def addUnexpectedSuccess(self, test: Any) -> None:
        super().addUnexpectedSuccess(test)
        self._note("unexpected success", test)

    def addSubTest(self, test: Any, subtest: Any, err: Any) -> None:
        super().addSubTest(test, subtest, err)
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            text = (self.failures if failed else self.errors)[-1][1]
            self._note("subtest failure" if failed else "subtest error", subtest, text, test=_described(test))

    def addDuration(self, test: Any, elapsed: float) -> None:  # (3.12 and later)
        self._note("duration", test, elapsed=elapsed)


def _placeholder(result: unittest.TestResult, bucket: str, text: str, call: Callable[[Any], None]) -> None:
    """Replay one outcome that carries a traceback: the result's own method (it counts and prints) on a
    placeholder error, then the worker's text in place of the placeholder's."""
    call((AssertionError, AssertionError(), None))
    kept = getattr(result, bucket)
    kept[-1] = (kept[-1][0], text)


def _replay(result: unittest.TestResult, event: dict[str, Any], current: dict[str, _Ran]) -> None:
    """One recorded call, made on the runner's result. A test's start and stop bracket its outcomes; a fixture's
    error comes alone, as unittest reports it."""
    kind, text = event["kind"], event["text"]
    test = current.get(event["id"]) or _Ran(event)
    if kind == "start":
        current[event["id"]] = test
        result.startTest(test)  # type: ignore[arg-type]
    elif kind == "stop":
        result.stopTest(test)  # type: ignore[arg-type]
        current.pop(event["id"], None)
    elif kind.startswith("subtest"):
        owner = current.get(event["test"]["id"]) or _Ran(event["test"])
        bucket = "failures" if kind == "subtest failure" else "errors"
        error = AssertionError if bucket == "failures" else RuntimeError
        _placeholder(result, bucket, text,
                     lambda err: result.addSubTest(owner, _Ran(event), (error, err[1], None)))  # type: ignore
    elif kind == "duration":
        if hasattr(result, "addDuration"):
            result.addDuration(test, event["elapsed"])
    else:
        _REPLAY[kind](result, test, text)


_REPLAY: dict[str, Callable[[Any, Any, str], None]] = {
    "success": lambda result, test, text: result.addSuccess(test),
    "failure": lambda result, test, text: _placeholder(result, "failures", text,
                                                       lambda err: result.addFailure(test, err)),
    "error": lambda result, test, text: _placeholder(result, "errors", text, lambda err: result.addError(test, err)),
    "skip": lambda result, test, text: result.addSkip(test, text),
    "expected failure": lambda result, test, text: _placeholder(result, "expectedFailures", text,
                                                                lambda err: result.addExpectedFailure(test, err)),
    "unexpected success": lambda result, test, text: result.addUnexpectedSuccess(test),
}


class _Queue(unittest.TestSuite):
    """One process's share: the next class from the queue until it is empty (or the run stops, or the parent is
    gone), run as one suite so that fixtures are handled as in any run."""

    _cleanup = False

    def __init__(self, units: list[unittest.TestSuite], queue: int, parent: int) -> None:
        super().__init__()
        self.units, self.queue, self.parent = units, queue, parent
        self.result: unittest.TestResult | None = None

    def __iter__(self) -> Iterator[Any]:
        while self.result is None or not self.result.shouldStop:
            if os.getppid() != self.parent and os.getpid() != self.parent:
                return  # a worker whose parent has gone: nobody would read its answer
            token = os.read(self.queue, _TOKEN.size)
            if not token:
                return
            yield self.units[_TOKEN.unpack(token)[0]]
        while os.read(self.queue, 1 << 16):  # stopped: the queue emptied, so every process stops
            pass

    def run(self, result: Any, debug: bool = False) -> Any:
        self.result = result
        return super().run(result, debug)


class _Shared(unittest.TestSuite):
    """The test classes shared among `jobs` processes through one queue of class indexes."""

    def __init__(self, units: list[unittest.TestSuite], jobs: int) -> None:
        super().__init__(units)
        self.units, self.jobs = units, jobs

    def run(self, result: unittest.TestResult, debug: bool = False) -> unittest.TestResult:
        from tests.support import gate_command
        gate_command()  # gate.py compiled once, before the fork: every process runs the same code object
        readable, writable = os.pipe()
        os.write(writable, b"".join(_TOKEN.pack(i) for i in range(len(self.units))))
        os.close(writable)  # the queue is full and closed: a read past its end is EOF
        parent = os.getpid()
        workers: list[tuple[int, int]] = []
        try:
            for _ in range(self.jobs - 1):
                workers.append(self._fork(readable, parent, result))
            _Queue(self.units, readable, parent).run(result)
            while workers:
                self._collect(*workers.pop(0), result)
        finally:
            os.close(readable)
            for pid, answer in workers:  # not collected (the parent was interrupted): stopped, not left running
                os.close(answer)
                try:
                    os.kill(pid, 9)
                    os.waitpid(pid, 0)
                except OSError:
                    pass
        return result

    def _fork(self, queue: int, parent: int, like: unittest.TestResult) -> tuple[int, int]:
        answer, reply = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid:
            os.close(reply)
            return pid, answer
        status = 1  # the worker reports nothing unless it finishes: the parent turns that into an error
        try:
            os.close(answer)
            recorder = _Recorder(like)
            unittest.registerResult(recorder)  # Ctrl-C under -c stops this process's run too
            _Queue(self.units, queue, parent).run(recorder)
            payload = json.dumps(recorder.events).encode("utf-8")
            with os.fdopen(reply, "wb") as handle:
                handle.write(payload)
            status = 0
        finally:
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(BaseException):  # a stream a test closed: the exit must still come
                    stream.flush()
            os._exit(status)  # no exit handlers: they are the parent's (its temporary folders)

    @staticmethod
    def _collect(pid: int, answer: int, result: unittest.TestResult) -> None:
        with os.fdopen(answer, "rb") as handle:
            payload = handle.read()
        _, status = os.waitpid(pid, 0)
        try:
            events = json.loads(payload.decode("utf-8"))
        except ValueError:
            events = [{"kind": "error", "id": "tests.worker", "name": f"test worker {pid}", "doc": "",
                       "text": f"the worker process ended without reporting its tests (wait status {status}); "
                               "run BENCHGATE_TEST_JOBS=1 python3 -m unittest to see them in one process\n"}]
        current: dict[str, _Ran] = {}
        for event in events:
            _replay(result, event, current)


def load_tests(loader: unittest.TestLoader, standard_tests: unittest.TestSuite, pattern: str | None) -> Any:
    here = os.path.dirname(os.path.abspath(__file__))
    found = loader.discover(start_dir=here, pattern=pattern or "test*.py")
    jobs = _jobs()
    if jobs < 2 or not hasattr(os, "fork"):
        standard_tests.addTests(found)
        return standard_tests
    return _Shared(list(_classes(found)), jobs)
