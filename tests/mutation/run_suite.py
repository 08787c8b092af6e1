"""cosmic-ray's test command for benchgate (tests/mutation/run.sh): the unittest suite, fail-fast, with the
test that killed the mutant written to standard output, the one stream cosmic-ray keeps in its session.

    python3 tests/mutation/run_suite.py [SECONDS]

Runs `python3 -m unittest -v -f` with BENCHGATE_MUTATION=1 (tests/test_properties.py then derandomizes
hypothesis, so a kill by a property test repeats). unittest writes to standard error; this wrapper reads it and
prints, on standard output:

    killed-by: tests.test_x.Class.test_y        the first failing or erroring test (fail-fast: the only one)
    timed-out-in: tests.test_x.Class.test_y     the suite ran past SECONDS (the test it was in)
    survived                                     every test passed

then the last lines unittest wrote, for the diff of a failure. SECONDS (default: none) should be a little under
cosmic-ray's own timeout: cosmic-ray kills a timed-out command and keeps only the word "timeout", so the wrapper
stops the suite first and names the test that hung. The exit code is unittest's (1 on a timeout).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading

# A test's start as `unittest -v` prints it: "test_x (tests.mod.Class.test_x)" on 3.11+, "(tests.mod.Class)" before.
STARTED = re.compile(r"^(test\w*) \(([\w.]+)\)")
FAILED = re.compile(r"^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)")
TAIL = 40


def test_id(name: str, where: str) -> str:
    return where if where.endswith("." + name) else f"{where}.{name}"


def main(argv: list[str]) -> int:
    limit = float(argv[1]) if len(argv) > 1 else None
    env = dict(os.environ, BENCHGATE_MUTATION="1")
    proc = subprocess.Popen([sys.executable, "-m", "unittest", "-v", "-f"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=env, text=True, errors="replace", start_new_session=True)
    lines: list[str] = []
    current = [""]

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            found = STARTED.match(line)
            if found:
                current[0] = test_id(*found.groups())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        code = proc.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.wait()
        reader.join(5)
        print(f"timed-out-in: {current[0] or 'unknown'}")
        print("\n".join(lines[-TAIL:]))
        return 1
    reader.join()
    if code == 0:
        print("survived")
    else:
        failed = next((FAILED.match(line) for line in lines if FAILED.match(line)), None)
        print(f"killed-by: {test_id(*failed.groups()) if failed else current[0] or 'unknown'} (exit {code})")
    print("\n".join(lines[-TAIL:]))
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv))
