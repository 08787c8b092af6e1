"""Make tests/fixtures/golden/calls.json: the digest of every in-process call of the unit suite.

GateCase.run_gate holds each call (exit code, stdout, stderr, the files it made or changed in the test's folder) to
the digest recorded here. The suite is run four times, recording each call's digest: in this checkout; in a copy
at a longer path holding a space and a letter beyond ASCII; here again; and on the 3.9 floor when
it is installed. Each run has its own hash seed; the first uses the usual temporary folder, the others one of
their own with such characters. A call is pinned only where all runs agree on it (else on it with digests
masked), so nothing that depends on a path, the interpreter, the hash seed or the run is pinned.

    python3 tests/golden_calls.py

Run it after a change that is meant to alter what the gate prints or writes, and read `git diff --stat` of the
file: the calls whose digests moved are the tests whose output changed.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "tests" / "fixtures" / "golden" / "calls.json"


def floor() -> list[str] | None:
    """A 3.9 interpreter, as .ci/run finds one (python3.9, else pyenv's 3.9), or None. pyenv's own version is
    named by its path: under a pyenv interpreter the shims are no longer first on PATH."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    for argv in (["python3.9"], *([str(p)] for p in sorted(pyenv.glob("versions/3.9*/bin/python3")))):
        probe = [*argv, "-c", "import sys; assert sys.version_info[:2] == (3, 9)"]
        try:
            if subprocess.run(probe, capture_output=True, check=False).returncode == 0:
                return argv
        except OSError:
            continue
    return None


def record(python: list[str], checkout: Path, log: Path, tmpdir: Path | None, seed: int) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "BENCHGATE_REGEN_GOLDEN"}
    env.update(BENCHGATE_RECORD_CALLS=str(log), PYTHONHASHSEED=str(seed), **({"TMPDIR": str(tmpdir)} if tmpdir else {}))
    return subprocess.Popen([*python, "-m", "unittest", "-q"], cwd=checkout, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def read(log: Path) -> dict[str, tuple[str, str] | None]:
    """key -> (digest, masked digest); a key recorded twice in one run (None) cannot be pinned."""
    seen: dict[str, tuple[str, str] | None] = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        key, whole, masked = json.loads(line)
        seen[key] = None if key in seen else (whole, masked)
    return seen


def agreed(tables: list[dict[str, tuple[str, str] | None]]) -> dict[str, str]:
    """The digest every run gave a call, else the masked digest every run gave it; calls with neither are left out."""
    pinned: dict[str, str] = {}
    for key, first in tables[0].items():
        given = [t.get(key) for t in tables]
        for i in (0, 1):
            if first is not None and all(g is not None and g[i] == first[i] for g in given):
                pinned[key] = first[i]
                break
    return pinned


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="benchgate-golden-"))
    try:
        # a longer path, with a space and a letter beyond ASCII: quoting and escaping move with them
        copy = work / "a longer path for the sécond checkout" / "benchgate"
        shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".git", "__pycache__"))
        runs = [(sys.executable, ROOT, "here"), (sys.executable, copy, "copy"), (sys.executable, ROOT, "again")]
        old = floor()
        runs += [(old, ROOT, "floor")] if old else []
        if not old:
            print("golden_calls: no 3.9 interpreter found: calls that differ on the floor may be pinned", file=sys.stderr)
        logs = []
        for i in range(0, len(runs), 2):  # two at a time: the machine's two cores
            started = []
            for j, (python, checkout, name) in enumerate(runs[i:i + 2], start=i + 1):
                tmp = None if name == "here" else work / f"tmp {name} é-{'x' * (7 * len(name))}"
                if tmp:
                    tmp.mkdir()
                argv = python if isinstance(python, list) else [python]
                started.append((name, record(argv, checkout, work / f"{name}.jsonl", tmp, seed=j)))
                logs.append(work / f"{name}.jsonl")
            for name, proc in started:
                _, err = proc.communicate()
                if proc.returncode != 0:
                    for _, other in started:
                        other.kill()
                        other.wait()
                    sys.stderr.write(err.decode("utf-8", "replace")[-3000:])
                    print(f"golden_calls: the suite failed in the {name} run; nothing written", file=sys.stderr)
                    return 1
        tables = [read(log) for log in logs]
        pinned = agreed(tables)
        masked = sum(d.startswith("m") for d in pinned.values())
        TARGET.parent.mkdir(parents=True, exist_ok=True)
        body = {"made_by": "python3 tests/golden_calls.py", "runs": [name for _, _, name in runs],
                "calls": dict(sorted(pinned.items()))}
        TARGET.write_text(json.dumps(body, indent=0) + "\n", encoding="utf-8")
        print(f"golden_calls: {len(pinned)} of {len(tables[0])} calls pinned, {masked} of them with digests masked "
              f"({len(tables[0]) - len(pinned)} differ between runs) -> {TARGET.relative_to(ROOT)}")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
