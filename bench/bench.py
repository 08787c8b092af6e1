#!/usr/bin/env python3
"""Benchmark gate.py's speed and memory against the cost of merely parsing its input.

Every ratio is measured in one run, against a baseline timed in the same run on the same file:

  floor    python3 -c '...'  opens the runs file in binary mode ('rb') and, for each line
           that is not blank, calls json.loads(line); nothing else (FLOOR_SCRIPT below)
  gate     python3 gate.py --manifest M --runs R    (must exit 0, PUBLISHABLE)
  startup  python3 -c pass

Each case runs these round-robin (floor, gate, startup, floor, gate, startup, ...) --repeat times,
so drift in the machine hits every program alike, and reports the medians. The start-up case runs
the installed command instead: `pip install .` into a throwaway venv, then that venv's `benchgate`
console script on the shipped 40-task example (bench.manifest.json + runs.jsonl at the repo top)
against the same venv interpreter's `-c pass` (and, for reference, `python gate.py` as a script).

Cases, by name (--cases picks any of them, in the order given):

  sorted-N     N attempts, one per task, retry mode, in task-ID order (as harnesses write them)
  unsorted-N   the same records as sorted-N, shuffled with a fixed seed
  samples-N    N attempts, 5 per task, attempt_mode samples (attempt_budget 5)
  cost-N       sorted-N whose records also carry cost_usd, input_tokens and output_tokens
  dumps-N      the cost ledger as a Python harness writes it: json.dumps(record) with its default ", " and
               ": " separators, every record's cost and wall time its own unrounded float (json.dumps
               writes 0.046191442090496304, and 7.2e-06 below 1e-4), so no two tails are alike
  startup      the installed `benchgate` on the 40-task example (needs pip to reach PyPI)

Shape cases time the gate on a ledger of one awkward shape against the gate on the same bytes in the
plain shape (two gate runs, round-robin; ratio = shape / plain), never against the floor:

  keys-N       every record carries its own unknown key ("x0a1b2c3": 1) / one key repeated
  clusters-N   every task names its own cluster / every task names one cluster
  compare-N    `compare` of two N-task ledgers / `check` of each, the two times added
  rank-N       `rank` of three N-task ledgers / `check` of each, the three times added
  runs-N       N records in N/10 runs of one 10-task suite, one pinned (the others' headlines are
               reported) / the same records as one run of N tasks
  ids-N        a manifest listing its N task ids (as import and init write it) / the same manifest with
               their digest alone, on one N-task ledger

N is an integer or a power of ten written 1eK. By default: sorted-1e5, sorted-1e6, unsorted-1e6,
samples-1e6, cost-1e6, dumps-1e6, startup and the shapes keys-1e6, clusters-1e6, compare-1e6, rank-1e6 and
runs-1e5; --huge adds sorted-1e7 and unsorted-1e7 (minutes each, and
about 1 GB of disk for one ledger at a time); --quick runs sorted-1e5, unsorted-1e5, samples-1e5,
cost-1e5 and startup, once each.

Ledgers are generated on the fly into a temporary directory (honouring TMPDIR), one case at a
time, written in chunks, and deleted after their case; generation is never timed. Every record is
a pure function of its position and the seed (its outcome, reason and wall time drawn from a table
that random.Random(SEED) fills), so an unsorted ledger holds exactly its sorted twin's lines. Each
record is {"run_id", "task_id", "attempt", "outcome", "reason", "wall_clock_s"} in that order (then
cost_usd, input_tokens, output_tokens in the cost case), outcomes about 60% pass, 33% fail and 7%
unscoreable over the four built-in reason classes; every ledger has a negative control (neg-01,
fails) and a positive one (pos-01, passes). Before anything is timed, one small ledger of each kind
used is gated: if the gate does not exit 0 (PUBLISHABLE) its output is printed and this script
exits 1, since a benchmark of a failing gate is meaningless.

Memory is each child's peak resident set size (ru_maxrss from os.wait4, taken by a tiny launcher:
see LAUNCHER). bytes/task = (gate peak RSS - floor peak RSS) / tasks: what the gate holds beyond
what reading and parsing the file costs, per task. Targets (from issue 16) are reported as met or
NOT met, never enforced. gate.py is copied once before the first case, so one run times one gate
(its sha256 is printed) even while the file is being edited. Unix only (os.wait4).

Examples:
  python3 bench/bench.py                          # the default cases, 3 repeats
  python3 bench/bench.py --quick                  # smaller cases, 1 repeat
  python3 bench/bench.py --huge                   # also 10^7 attempts, sorted and unsorted
  python3 bench/bench.py --cases sorted-1e6,startup --repeat 5
  python3 bench/bench.py --json results.json      # also write the results as JSON
  git show f34004d:gate.py > /tmp/old_gate.py && python3 bench/bench.py --before /tmp/old_gate.py   # before/after

Exit codes: 0 done (whether or not targets are met), 1 the gate did not pass a generated ledger,
2 usage or setup error.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from array import array
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

REPO = Path(__file__).resolve().parent.parent
GATE = REPO / "gate.py"
EXAMPLE_MANIFEST, EXAMPLE_RUNS = REPO / "bench.manifest.json", REPO / "runs.jsonl"
SEED = 20261130

KINDS = ("sorted", "unsorted", "samples", "cost", "dumps")
STARTUP = "startup"
SHAPES = ("keys", "clusters", "compare", "rank", "runs", "ids")
SHAPE_CASES = ("keys-1e6", "clusters-1e6", "compare-1e6", "rank-1e6", "runs-1e5")
DEFAULT_CASES = ("sorted-1e5", "sorted-1e6", "sorted-1e6-j2", "unsorted-1e6", "samples-1e6", "cost-1e6", "dumps-1e6", STARTUP,
                 *SHAPE_CASES)
HUGE_CASES = ("sorted-1e7", "sorted-1e7-j2", "unsorted-1e7")
QUICK_CASES = ("sorted-1e5", "unsorted-1e5", "samples-1e5", "cost-1e5", STARTUP, "keys-1e5", "clusters-1e5",
               "compare-1e5", "rank-1e5", "runs-1e4")
RUN_TASKS = 10  # the runs-N case: tasks in each run
QUICK_REPEAT = 1
# The standard modules a check of the shipped example imports beyond what `python -c pass` has loaded
# (tests/test_cli.py checks the list against a real check).
CHECK_MODULES = ("argparse", "fractions", "hashlib", "json", "pathlib", "re")
CHECK_ATTEMPTS = 1_000  # the small ledger of each kind gated before anything is timed

SAMPLES_PER_TASK = 5
WALL_CLOCK_LIMIT_S = 900
REASONS = ("harness_timeout", "grader_error", "env_flake", "missing_artifact")
CONTROLS = (("neg-01", "fail", "negative"), ("pos-01", "pass", "positive"))  # sort before "t-..."
TAIL_BITS = 12  # 4,096 distinct (outcome, reason, wall time, cost) tails, picked by a hash
GOLDEN = 0x9E3779B97F4A7C15  # Fibonacci hashing: the top bits of n * GOLDEN mod 2^64 look random
MASK64 = (1 << 64) - 1
CHUNK_LINES = 65_536
BYTES_PER_LINE_BOUND = 200  # for the free-disk check before writing a ledger

FLOOR_SCRIPT = (
    "import json, sys\n"
    "with open(sys.argv[1], 'rb') as f:\n"
    "    for line in f:\n"
    "        if line.strip():\n"
    "            json.loads(line)\n"
)


class BenchError(Exception):
    """A usage or setup problem: reported as one line, exit 2."""


class GateBlocked(Exception):
    """The gate did not exit 0 on a ledger that must be publishable: exit 1."""


def _progress(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)


#####################################################################
# Targets (issue 16): reported, not enforced
#####################################################################


@dataclass(frozen=True)
class Target:
    label: str
    metric: str  # "ratio" (gate/floor), "gate_mib", "bytes_per_task" or "cpu_ratio" (gate CPU / its wall time)
    limit: float
    stretch: bool = False


def targets_for(kind: str, attempts: int, jobs: int = 1) -> tuple[Target, ...]:
    if jobs > 1:
        return ()  # `--jobs N` is reported beside the one-process case it speeds up, against no target of its own
    if kind == STARTUP:
        return (Target("<= 1.3x `-c pass`", "ratio", 1.3),)
    if kind == "sorted" and attempts >= 10**6:
        core = (
            Target("<= 0.5x floor", "ratio", 0.5),
            Target("peak <= 64 MiB", "gate_mib", 64),
            Target("one core (CPU <= 1.1x wall)", "cpu_ratio", 1.1),
        )
        return (*core, Target("stretch <= 0.4x", "ratio", 0.4, stretch=True)) if attempts < 10**7 else core
    if kind == "unsorted" and attempts >= 10**7:
        return (Target("<= 160 bytes/task", "bytes_per_task", 160),)
    if kind == "unsorted" and attempts >= 10**6:  # issue 22
        return (Target("<= 0.6x floor", "ratio", 0.6), Target("<= 120 bytes/task", "bytes_per_task", 120))
    if kind in ("cost", "dumps") and attempts >= 10**6:  # issue 22 (issue 16 asked for 0.8x); issue 39: both shapes
        return (Target("<= 0.6x floor", "ratio", 0.6),)
    if kind == "samples" and attempts >= 10**6:
        return (Target("<= 0.8x floor", "ratio", 0.8),)
    return ()


#####################################################################
# Cases and synthetic ledgers
#####################################################################


@dataclass(frozen=True)
class LedgerSpec:
    kind: str  # one of KINDS
    attempts: int
    jobs: int = 1  # the gate's --jobs

    @property
    def name(self) -> str:
        return f"{self.kind}-{_size_name(self.attempts)}" + (f"-j{self.jobs}" if self.jobs > 1 else "")

    @property
    def per_task(self) -> int:
        return SAMPLES_PER_TASK if self.kind == "samples" else 1

    @property
    def tasks(self) -> int:
        return self.attempts // self.per_task


def _size_name(n: int) -> str:
    exponent = len(str(n)) - 1
    return f"1e{exponent}" if n == 10**exponent and n >= 1000 else str(n)


@dataclass(frozen=True)
class ShapeSpec:
    shape: str  # one of SHAPES
    records: int  # in each ledger

    @property
    def name(self) -> str:
        return f"{self.shape}-{_size_name(self.records)}"


def parse_case(name: str) -> LedgerSpec | ShapeSpec | None:
    """A case name: None for the start-up case, else the ledger (or the shape) it asks for."""
    if name == STARTUP:
        return None
    shaped = re.fullmatch(rf"({'|'.join(SHAPES)})-(\d+)(?:e(\d+))?", name)
    if shaped:
        records = int(shaped[2]) * 10 ** int(shaped[3] or 0)
        if not 100 <= records <= 10**7 or (shaped[1] == "runs" and records % RUN_TASKS):
            raise ValueError(f"{name}: a shape case takes 100 to 10^7 records (runs-N: a multiple of {RUN_TASKS})")
        return ShapeSpec(shaped[1], records)
    match = re.fullmatch(r"([a-z]+)-(\d+)(?:e(\d+))?(?:-j(\d+))?", name)
    if not match or match[1] not in KINDS:
        raise ValueError(f"unknown case {name!r}: expected {STARTUP}, KIND-N[-jJOBS] with KIND one of {', '.join(KINDS)}, "
                         f"or SHAPE-N with SHAPE one of {', '.join(SHAPES)}")
    attempts = int(match[2]) * 10 ** int(match[3] or 0)
    spec = LedgerSpec(match[1], attempts, int(match[4] or 1))
    if not 1 <= spec.jobs <= 64:
        raise ValueError(f"{name}: -jJOBS takes 1 to 64 processes")
    if spec.kind == "samples" and attempts % SAMPLES_PER_TASK:
        raise ValueError(f"{name}: a samples ledger needs a multiple of {SAMPLES_PER_TASK} attempts")
    if spec.tasks < len(CONTROLS) + 1:
        raise ValueError(f"{name}: too small (at least {len(CONTROLS) + 1} tasks)")
    if attempts > 10**8:
        raise ValueError(f"{name}: more than 10^8 attempts is not supported")
    if spec.tasks > 10**7:
        raise ValueError(f"{name}: more than 10^7 tasks is more than a manifest may declare (gate.MAX_TASK_COUNT)")
    return spec


def _tail(rng: random.Random, costs: bool, outcome: str | None = None) -> str:
    """A record's fields after "attempt", drawn from RNG, with the closing brace and newline."""
    u = rng.random()
    if outcome is None:
        outcome = "pass" if u < 0.60 else "fail" if u < 0.93 else "unscoreable"
    if outcome == "unscoreable":
        reason = REASONS[int(rng.random() * len(REASONS))]
        wall = WALL_CLOCK_LIMIT_S if reason == "harness_timeout" else 1 + int(rng.random() * 120)
        text = f'"outcome":"unscoreable","reason":"{reason}","wall_clock_s":{wall}'
    else:
        text = f'"outcome":"{outcome}","reason":null,"wall_clock_s":{5 + int(rng.random() * 596)}'
    if costs:
        text += (
            f',"cost_usd":{rng.random() * 2:.4f},"input_tokens":{5_000 + int(rng.random() * 145_000)},'
            f'"output_tokens":{500 + int(rng.random() * 11_500)}'
        )
    return text + "}\n"


def _task_order(spec: LedgerSpec) -> Iterable[int]:
    """Task indexes in file order: 0, 1 are the controls, i >= 2 is t-(i-1)."""
    if spec.kind != "unsorted":
        return range(spec.tasks)
    order = array("I" if spec.tasks < 2**32 else "Q", range(spec.tasks))  # 4 bytes a task, not ~36
    random.Random(SEED).shuffle(order)
    return order


def _task_ids_sha256(tasks: int, width: int) -> str:
    """sha256 of the sorted task IDs joined by newlines (index order is sorted order)."""
    digest = hashlib.sha256("\n".join(task_id for task_id, _, _ in CONTROLS).encode("ascii"))
    for start in range(len(CONTROLS), tasks, CHUNK_LINES):
        ids = (f"t-{i - 1:0{width}d}" for i in range(start, min(tasks, start + CHUNK_LINES)))
        digest.update(("\n" + "\n".join(ids)).encode("ascii"))
    return digest.hexdigest()


def write_ledger(directory: Path, spec: LedgerSpec, name: str | None = None) -> tuple[Path, Path]:
    """Write NAME.manifest.json and NAME.runs.jsonl for SPEC; return (manifest, runs)."""
    name = name or spec.name
    manifest_path, runs_path = directory / f"{name}.manifest.json", directory / f"{name}.runs.jsonl"
    costs = spec.kind == "cost"
    if spec.kind == "dumps":
        return write_dumps(directory, spec, name)
    rng = random.Random(SEED)
    tails = [_tail(rng, costs) for _ in range(1 << TAIL_BITS)]
    control_tails = [_tail(rng, costs, outcome=expected) for _, expected, _ in CONTROLS]
    shift = 64 - TAIL_BITS
    per_task = spec.per_task
    width = max(7, len(str(spec.tasks - len(CONTROLS))))
    with runs_path.open("w", encoding="ascii", newline="\n") as out:
        chunk: list[str] = []
        for i in _task_order(spec):
            if i < len(CONTROLS):
                head = f'{{"run_id":"r1","task_id":"{CONTROLS[i][0]}","attempt":'
                chunk.extend(f"{head}{a},{control_tails[i]}" for a in range(1, per_task + 1))
            else:
                head = f'{{"run_id":"r1","task_id":"t-{i - 1:0{width}d}","attempt":'
                for a in range(per_task):  # the record's tail is a function of its index in sorted order
                    chunk.append(f"{head}{a + 1},{tails[(((i * per_task + a) * GOLDEN) & MASK64) >> shift]}")
            if len(chunk) >= CHUNK_LINES:
                out.write("".join(chunk))
                chunk.clear()
        out.write("".join(chunk))
    return write_manifest(manifest_path, runs_path, spec, width)


def write_dumps(directory: Path, spec: LedgerSpec, name: str) -> tuple[Path, Path]:
    """The dumps-N ledger: json.dumps(record) a line, default separators, a fresh random cost, token counts and wall
    time on every record (about one cost in 5,000 below 1e-4, which json.dumps writes with an exponent)."""
    manifest_path, runs_path = directory / f"{name}.manifest.json", directory / f"{name}.runs.jsonl"
    rng = random.Random(SEED)
    width = max(7, len(str(spec.tasks - len(CONTROLS))))
    with runs_path.open("w", encoding="ascii", newline="\n") as out:
        chunk: list[str] = []
        for i in range(spec.tasks):
            control = i < len(CONTROLS)
            u = rng.random()
            outcome = CONTROLS[i][1] if control else "pass" if u < 0.60 else "fail" if u < 0.93 else "unscoreable"
            reason = REASONS[int(rng.random() * len(REASONS))] if outcome == "unscoreable" else None
            chunk.append(json.dumps({
                "run_id": "r1", "task_id": CONTROLS[i][0] if control else f"t-{i - 1:0{width}d}", "attempt": 1,
                "outcome": outcome, "reason": reason, "wall_clock_s": rng.random() * WALL_CLOCK_LIMIT_S,
                "cost_usd": rng.random() * 2, "input_tokens": 5_000 + int(rng.random() * 145_000),
                "output_tokens": 500 + int(rng.random() * 11_500)}) + "\n")
            if len(chunk) >= CHUNK_LINES:
                out.write("".join(chunk))
                chunk.clear()
        out.write("".join(chunk))
    return write_manifest(manifest_path, runs_path, spec, width)


def write_manifest(manifest_path: Path, runs_path: Path, spec: LedgerSpec, width: int) -> tuple[Path, Path]:
    """The manifest of a ledger case: its tasks' count and digest, the two controls, the envelope."""
    name = manifest_path.name[:-len(".manifest.json")]
    manifest = {
        "claim_id": f"bench-{name}",
        "dataset": {
            "name": f"synthetic-{spec.name}",
            "task_count": spec.tasks,
            "task_ids_sha256": _task_ids_sha256(spec.tasks, width),
        },
        "controls": [{"task_id": task_id, "expected": expected, "role": role} for task_id, expected, role in CONTROLS],
        "envelope": {
            "runner": "bench-synthetic",
            "network": "off",
            "wall_clock_s_per_task": WALL_CLOCK_LIMIT_S,
            "max_steps": 40,
            "toolchain_sha": "0000000000000000",
        },
        "attempt_budget": spec.per_task,
        "attempt_mode": "samples" if spec.kind == "samples" else "retry",
        "rerun_recipe": f"python3 gate.py --manifest {manifest_path.name} --runs {runs_path.name}",
    }
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest_path, runs_path


def _outcome(index: int, salt: int) -> str:
    """About 62% pass: the top bits of a hash of the task's index and the ledger's salt."""
    return "pass" if (((index + 1) * GOLDEN + salt * 0x5851F42D4C957F2D) & MASK64) >> 60 < 10 else "fail"


_AS_LETTERS = str.maketrans("0123456789abcdef", "abcdefghijklmnop")


def _shape_extra(shape: str, plain: bool) -> Any:
    """What each record carries after its wall time, by its index in the file, for a shape and its plain twin."""
    if shape == "keys":  # letters only, so no key is ruled out for its characters alone
        return (lambda i: ',"xplainkey":1') if plain else (lambda i: f',"x{format(i, "08x").translate(_AS_LETTERS)}":1')
    if shape == "clusters":
        return (lambda i: ',"cluster":"c0000000"') if plain else (lambda i: f',"cluster":"c{i:07d}"')
    return lambda i: ""


def write_shaped(directory: Path, name: str, tasks: int, *, salt: int = 0, extra: Any = lambda i: "", runs: int = 1,
                 pin: str | None = None, list_ids: bool = False) -> tuple[Path, Path]:
    """A PUBLISHABLE retry-mode ledger in task-ID order: `runs` runs of the same `tasks` tasks (the controls, then
    t-...), each record ending in extra(its index in the file); the manifest pins run `pin` if given."""
    manifest_path, runs_path = directory / f"{name}.manifest.json", directory / f"{name}.runs.jsonl"
    width = max(7, len(str(tasks)))
    index = 0
    with runs_path.open("w", encoding="ascii", newline="\n") as out:
        chunk: list[str] = []
        for run in range(runs):
            for i in range(tasks):
                control = i < len(CONTROLS)
                tid = CONTROLS[i][0] if control else f"t-{i - 1:0{width}d}"
                outcome = CONTROLS[i][1] if control else _outcome(i, salt + run)
                chunk.append(f'{{"run_id":"r{run + 1:06d}","task_id":"{tid}","attempt":1,"outcome":"{outcome}",'
                             f'"reason":null,"wall_clock_s":{5 + i % 590}{extra(index)}}}\n')
                index += 1
                if len(chunk) >= CHUNK_LINES:
                    out.write("".join(chunk))
                    chunk.clear()
        out.write("".join(chunk))
    manifest: dict[str, Any] = {
        "claim_id": f"bench-{name}",
        "dataset": {"name": f"synthetic-{tasks}", "task_count": tasks, "task_ids_sha256": _task_ids_sha256(tasks, width)},
        "controls": [{"task_id": task_id, "expected": expected, "role": role} for task_id, expected, role in CONTROLS],
        "envelope": {"runner": "bench-synthetic", "network": "off", "wall_clock_s_per_task": WALL_CLOCK_LIMIT_S,
                     "max_steps": 40, "toolchain_sha": "0000000000000000"},
        "attempt_budget": 1,
        "attempt_mode": "retry",
        "rerun_recipe": f"python3 gate.py --manifest {manifest_path.name} --runs {runs_path.name}",
    }
    if pin is not None:
        manifest["run_id"] = pin
    if list_ids:  # as import and init write it: the ids, sorted, beside their digest
        manifest["dataset"]["task_ids"] = sorted([task_id for task_id, _, _ in CONTROLS]
                                                 + [f"t-{i - 1:0{width}d}" for i in range(len(CONTROLS), tasks)])
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest_path, runs_path


def check_publishable(gate: Path, directory: Path, kinds: Iterable[str]) -> None:
    """Gate one small ledger of each kind: it must exit 0 and say PUBLISHABLE, or nothing is timed."""
    for kind in kinds:
        spec = LedgerSpec(kind, CHECK_ATTEMPTS)
        manifest, runs = write_ledger(directory, spec, name=f"check-{kind}")
        argv = [sys.executable, str(gate), "--manifest", str(manifest), "--runs", str(runs)]
        proc = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        manifest.unlink()
        runs.unlink()
        if proc.returncode != 0 or "PUBLISHABLE" not in proc.stdout:
            raise GateBlocked(
                f"the gate did not pass a generated {kind} ledger ({CHECK_ATTEMPTS} attempts): exit "
                f"{proc.returncode}, expected 0 and PUBLISHABLE\ncommand: {shlex.join(argv)}\n"
                f"--- stderr ---\n{proc.stderr}--- stdout ---\n{proc.stdout}"
            )
        _progress(f"a generated {kind} ledger is PUBLISHABLE")


#####################################################################
# The installed command
#####################################################################


def install_benchgate(gate: Path, directory: Path) -> Path:
    """`pip install .` (a copy of the project, so the work tree gets no build/) into a new venv; its bin/."""
    source = directory / "src"
    source.mkdir()
    shutil.copy2(gate, source / "gate.py")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    venv = directory / "venv"
    steps = (
        [sys.executable, "-m", "venv", str(venv)],
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input",
         str(source)],
    )
    for argv in steps:
        _progress(f"$ {shlex.join(argv)}")
        proc = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if proc.returncode != 0:
            raise BenchError(f"{shlex.join(argv)} exited {proc.returncode}\n{proc.stdout}{proc.stderr}")
    return venv / "bin"


#####################################################################
# Measurement
#####################################################################

# Why a launcher: on Linux a child's ru_maxrss starts from the RSS of the process that forked it
# (with vfork, which subprocess uses, the parent's *peak*), because exec keeps the old address
# space's high-water mark. This script can hold tens of MiB (a shuffled order is 40 MB at 10^7),
# so `python3 -c pass` would "peak" at that. The launcher is a bare `python3 -I -S` (~5 MiB, below
# any Python child's own peak) that forks, execs the real command, and reports the wall time, the
# CPU time and the os.wait4() rusage of exactly that one child -- unlike RUSAGE_CHILDREN, which is
# a running maximum over all reaped children, so its deltas cannot show a child smaller than an
# earlier one.
LAUNCHER = (
    "import os, sys, time\n"
    "fd = int(sys.argv[1])\n"
    "os.set_inheritable(fd, False)\n"
    "start = time.perf_counter()\n"
    "pid = os.fork()\n"
    "if pid == 0:\n"
    "    try:\n"
    "        os.execv(sys.argv[2], sys.argv[2:])\n"
    "    finally:\n"
    "        os._exit(127)\n"
    "_, status, usage = os.wait4(pid, 0)\n"
    "elapsed = time.perf_counter() - start\n"
    "cpu = usage.ru_utime + usage.ru_stime\n"
    "os.write(fd, f'{elapsed!r} {cpu!r} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}'.encode())\n"
)


@dataclass
class Runs:
    seconds: list[float] = field(default_factory=list)
    cpu_seconds: list[float] = field(default_factory=list)
    maxrss_kib: list[int] = field(default_factory=list)

    @property
    def median_s(self) -> float:
        return statistics.median(self.seconds)

    @property
    def cpu_ratio(self) -> float:
        return statistics.median(c / s for c, s in zip(self.cpu_seconds, self.seconds))

    @property
    def peak_kib(self) -> int:
        return max(self.maxrss_kib)


def run_child(argv: list[str], out: IO[bytes], err: IO[bytes]) -> tuple[float, float, int, int]:
    """Run ARGV once via the launcher: (wall seconds, CPU seconds, peak RSS KiB, exit code)."""
    for stream in (out, err):
        stream.seek(0)
        stream.truncate()
    read_end, write_end = os.pipe()
    try:
        launcher = [sys.executable, "-I", "-S", "-c", LAUNCHER, str(write_end), *argv]
        proc = subprocess.Popen(launcher, stdin=subprocess.DEVNULL, stdout=out, stderr=err, pass_fds=(write_end,))
        os.close(write_end)
        write_end = -1
        launcher_code = proc.wait()
        report = os.read(read_end, 4096).decode("ascii").split()
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)
    if launcher_code != 0 or len(report) != 4:
        raise BenchError(f"launcher failed (exit {launcher_code}) for {shlex.join(argv)}\n{_read(err)}")
    maxrss = int(report[2])
    return float(report[0]), float(report[1]), maxrss // 1024 if sys.platform == "darwin" else maxrss, int(report[3])


def _read(stream: IO[bytes]) -> str:
    stream.seek(0)
    return stream.read().decode("utf-8", "replace")


def measure(case: str, programs: dict[str, list[str]], gates: tuple[str, ...], repeat: int,
            warmup: bool = False) -> dict[str, Runs]:
    """Time PROGRAMS round-robin REPEAT times. Every one must exit 0; those named in GATES must say PUBLISHABLE."""
    results = {label: Runs() for label in programs}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        for rep in range(-1 if warmup else 0, repeat):
            for label, argv in programs.items():
                _progress(f"{case}: {label} {'warm-up' if rep < 0 else f'{rep + 1}/{repeat}'}")
                seconds, cpu, kib, code = run_child(argv, out, err)
                if code != 0:
                    message = (f"{label} exited {code} on {case}\ncommand: {shlex.join(argv)}\n"
                               f"--- stderr ---\n{_read(err)}--- stdout ---\n{_read(out)}")
                    raise GateBlocked(message) if label in gates else BenchError(message)
                if rep <= 0 and label in gates and "PUBLISHABLE" not in _read(out):
                    _progress(f"warning: {label} exited 0 on {case} but printed no PUBLISHABLE: is it checking?")
                if rep >= 0:
                    results[label].seconds.append(seconds)
                    results[label].cpu_seconds.append(cpu)
                    results[label].maxrss_kib.append(kib)
    return results


#####################################################################
# Rows and the report
#####################################################################


@dataclass
class Row:
    case: str
    kind: str
    attempts: int
    tasks: int
    ledger_mb: float
    floor_s: float
    gate_s: float
    startup_s: float | None
    ratio: float
    floor_mib: float
    gate_mib: float
    bytes_per_task: float | None
    cpu_ratio: float
    targets: list[dict[str, Any]] = field(default_factory=list)
    before_s: float | None = None  # --before: the older gate on the same file, in the same rounds
    before_mib: float | None = None

    def judge(self, targets: Iterable[Target]) -> None:
        for target in targets:
            value = getattr(self, target.metric)
            self.targets.append({**asdict(target), "value": value, "met": value is not None and value <= target.limit})


def make_row(case: str, kind: str, attempts: int, tasks: int, runs_file: Path, floor: Runs, gate: Runs,
             startup: Runs | None, with_bytes: bool) -> Row:
    return Row(
        case=case, kind=kind, attempts=attempts, tasks=tasks,
        ledger_mb=runs_file.stat().st_size / 1e6,
        floor_s=floor.median_s, gate_s=gate.median_s,
        startup_s=startup.median_s if startup else None,
        ratio=gate.median_s / floor.median_s,
        floor_mib=floor.peak_kib / 1024, gate_mib=gate.peak_kib / 1024,
        bytes_per_task=(gate.peak_kib - floor.peak_kib) * 1024 / tasks if with_bytes else None,
        cpu_ratio=gate.cpu_ratio,
    )


def with_before(programs: dict[str, list[str]], gate: Path, before: Path | None, labels: Iterable[str]) -> tuple[str, ...]:
    """Add, for each of LABELS, the same command with the older gate BEFORE (label + "-before"); the labels added."""
    if before is None:
        return ()
    added = tuple(f"{label}-before" for label in labels)
    for label, name in zip(labels, added):
        programs[name] = [str(before) if arg == str(gate) else arg for arg in programs[label]]
    return added


def run_ledger_case(spec: LedgerSpec, gate: Path, directory: Path, repeat: int, before: Path | None = None) -> list[Row]:
    need = spec.attempts * BYTES_PER_LINE_BOUND
    free = shutil.disk_usage(directory).free
    if free < need:
        raise BenchError(f"{spec.name}: needs up to {need / 1e9:.1f} GB in {directory}, {free / 1e9:.1f} GB free (set TMPDIR)")
    _progress(f"writing {spec.name}: {spec.attempts:,} attempts, {spec.tasks:,} tasks (not timed)")
    manifest, runs = write_ledger(directory, spec)
    try:
        programs = {
            "floor": [sys.executable, "-c", FLOOR_SCRIPT, str(runs)],
            "gate": [sys.executable, str(gate), "--manifest", str(manifest), "--runs", str(runs),
                     *(["--jobs", str(spec.jobs)] if spec.jobs > 1 else [])],
            "startup": [sys.executable, "-c", "pass"],
        }
        older = with_before(programs, gate, before, ["gate"])
        results = measure(spec.name, programs, ("gate", *older), repeat)
        row = make_row(spec.name, spec.kind, spec.attempts, spec.tasks, runs,
                       results["floor"], results["gate"], results["startup"], with_bytes=True)
        if older:
            row.before_s, row.before_mib = results[older[0]].median_s, results[older[0]].peak_kib / 1024
    finally:
        manifest.unlink()
        runs.unlink()
    row.judge(targets_for(spec.kind, spec.attempts, spec.jobs))
    return [row]


@dataclass
class ShapeRow:
    case: str
    records: int  # in each ledger
    ledgers: int
    ledger_mb: float  # all the shaped case's ledgers together
    baseline: str
    plain_s: float
    shape_s: float
    ratio: float
    plain_mib: float  # the largest peak of the baseline's programs
    shape_mib: float
    targets: list[dict[str, Any]] = field(default_factory=list)
    # --before: the same, by the older gate in the same rounds
    before_plain_s: float | None = None
    before_shape_s: float | None = None
    before_plain_mib: float | None = None
    before_shape_mib: float | None = None


SHAPE_BASELINES = {
    "keys": "the same bytes with one unknown key repeated",
    "clusters": "the same bytes with one cluster for every task",
    "compare": "`check` of each ledger, the times added",
    "rank": "`check` of each of the three ledgers, the times added",
    "runs": f"the same records as one run (the shape: runs of {RUN_TASKS} tasks, one pinned)",
    "ids": "the same ledger, its manifest giving the ids' digest alone (the shape lists every id)",
}


def run_shape_case(spec: ShapeSpec, gate: Path, directory: Path, repeat: int,
                   before: Path | None = None) -> list[Row | ShapeRow]:
    """Gate the shaped ledger(s) and their baseline round-robin; the row is shape time / baseline time."""
    def check(manifest: Path, runs: Path) -> list[str]:
        return [sys.executable, str(gate), "--manifest", str(manifest), "--runs", str(runs)]

    _progress(f"writing {spec.name} (not timed)")
    n, shape = spec.records, spec.shape
    programs: dict[str, list[str]] = {}
    written: list[Path] = []
    if shape in ("keys", "clusters"):
        for label in ("plain", "shape"):
            pair = write_shaped(directory, f"{spec.name}-{label}", n, extra=_shape_extra(shape, label == "plain"))
            programs[label] = check(*pair)
            written += pair
        baseline, shaped = ["plain"], ["shape"]
    elif shape == "ids":  # the same ledger, its manifest listing every task id / giving their digest alone
        plain = write_shaped(directory, f"{spec.name}-plain", n)
        listed = write_shaped(directory, f"{spec.name}-shape", n, list_ids=True)
        programs = {"plain": check(*plain), "shape": check(listed[0], plain[1])}
        written += [*plain, listed[0], listed[1]]
        baseline, shaped = ["plain"], ["shape"]
    elif shape == "runs":
        plain = write_shaped(directory, f"{spec.name}-plain", n, pin="r000001")
        pinned = write_shaped(directory, f"{spec.name}-shape", RUN_TASKS, runs=n // RUN_TASKS, pin="r000001")
        programs = {"plain": check(*plain), "shape": check(*pinned)}
        written += [*plain, *pinned]
        baseline, shaped = ["plain"], ["shape"]
    else:
        sides = [write_shaped(directory, f"{spec.name}-{side}", n, salt=salt) for salt, side in enumerate("abc"[:2 if shape == "compare" else 3])]
        written += [path for pair in sides for path in pair]
        baseline = [f"check-{side}" for side in "abc"[:len(sides)]]
        programs = {label: check(*pair) for label, pair in zip(baseline, sides)}
        if shape == "compare":
            (ma, ra), (mb, rb) = sides
            programs["shape"] = [sys.executable, str(gate), "compare", "--manifest", str(ma), "--runs", str(ra),
                                 "--against-manifest", str(mb), "--against-runs", str(rb)]
        else:
            programs["shape"] = [sys.executable, str(gate), "rank", *(arg for m, r in sides for arg in ("--manifest", str(m), "--runs", str(r)))]
        shaped = ["shape"]
    try:
        older = with_before(programs, gate, before, list(programs))
        results = measure(spec.name, programs, tuple(programs), repeat)
        plain_s = sum(results[label].median_s for label in baseline)
        shape_s = sum(results[label].median_s for label in shaped)
        row = ShapeRow(case=spec.name, records=n, ledgers=max(1, len(baseline)),
                       ledger_mb=sum(p.stat().st_size for p in written if p.suffix == ".jsonl" and "-plain" not in p.name) / 1e6,
                       baseline=SHAPE_BASELINES[shape], plain_s=plain_s, shape_s=shape_s, ratio=shape_s / plain_s,
                       plain_mib=max(results[label].peak_kib for label in baseline) / 1024,
                       shape_mib=max(results[label].peak_kib for label in shaped) / 1024)
        if older:
            row.before_plain_s = sum(results[f"{label}-before"].median_s for label in baseline)
            row.before_shape_s = sum(results[f"{label}-before"].median_s for label in shaped)
            row.before_plain_mib = max(results[f"{label}-before"].peak_kib for label in baseline) / 1024
            row.before_shape_mib = max(results[f"{label}-before"].peak_kib for label in shaped) / 1024
    finally:
        for path in written:
            path.unlink()
    if shape in ("compare", "rank"):
        limit = Target("<= 1.3x the checks", "ratio", 1.3)
        row.targets.append({**asdict(limit), "value": row.ratio, "met": row.ratio <= limit.limit})
    if shape == "ids":  # issue 39: listing the ids costs at most 1.3x the time and 1.5x the memory
        memory = row.shape_mib / row.plain_mib
        row.targets += [{**asdict(Target("<= 1.3x the time", "ratio", 1.3)), "value": row.ratio,
                         "met": row.ratio <= 1.3},
                        {**asdict(Target("<= 1.5x the memory", "memory", 1.5)), "value": memory,
                         "met": memory <= 1.5}]
    return [row]


def render_shapes(rows: list[ShapeRow]) -> list[str]:
    if not rows:
        return []
    lines = ["", "| shape case | records a ledger | ledgers | MB | baseline | baseline s | shape s | shape/baseline "
             "| baseline MiB | shape MiB | target |",
             "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        target = "; ".join(f"{t['label']}: {'met' if t['met'] else 'NOT met'}" for t in r.targets) or "-"
        lines.append(f"| {r.case} | {r.records:,} | {r.ledgers} | {r.ledger_mb:.1f} | {r.baseline} | {r.plain_s:.3f} "
                     f"| {r.shape_s:.3f} | {r.ratio:.2f}x | {r.plain_mib:.1f} | {r.shape_mib:.1f} | {target} |")
    lines.append("Shape rows: medians of the same interleaved runs; each against the gate on the baseline, not the floor.")
    return lines


def run_startup_case(gate: Path, directory: Path, repeat: int) -> list[Row]:
    if not (EXAMPLE_MANIFEST.is_file() and EXAMPLE_RUNS.is_file()):
        raise BenchError(f"startup: the shipped example ({EXAMPLE_MANIFEST.name}, {EXAMPLE_RUNS.name}) is missing")
    bin_dir = install_benchgate(gate, directory)
    python = str(bin_dir / "python")
    example = ["--manifest", str(EXAMPLE_MANIFEST), "--runs", str(EXAMPLE_RUNS)]
    # What no gate of this design can start without, timed alone: the interpreter reading the installed module's
    # cached bytecode (none of it run), the json module (which imports re), and every module a check imports.
    pyc = subprocess.run([python, "-c", "import importlib.util as u; print(u.cache_from_source(u.find_spec('gate').origin))"],
                         capture_output=True, text=True, check=True).stdout.strip()
    programs = {
        "floor": [python, "-c", "pass"],
        "benchgate": [str(bin_dir / "benchgate"), *example],
        "script": [python, str(gate), *example],
        "bytecode": [python, "-c", f"import marshal; marshal.loads(open({pyc!r}, 'rb').read()[16:])"],
        "json": [python, "-c", "import json"],
        "modules": [python, "-c", f"import {', '.join(CHECK_MODULES)}"],
    }
    results = measure(STARTUP, programs, ("benchgate", "script"), repeat,
                      warmup=True)  # one untimed round: the first start of a new venv reads cold files
    records = [line for line in EXAMPLE_RUNS.read_bytes().splitlines() if line.strip()]
    tasks = len({json.loads(line)["task_id"] for line in records})
    rows = []
    for label, name in (("benchgate", "startup: installed benchgate"), ("script", "startup: python gate.py (reference)"),
                        ("bytecode", "startup: read gate's cached bytecode, run none of it (reference)"),
                        ("json", "startup: `import json` alone (reference)"),
                        ("modules", f"startup: `import {', '.join(CHECK_MODULES)}` alone (reference)")):
        row = make_row(name, STARTUP, len(records), tasks, EXAMPLE_RUNS, results["floor"], results[label], None,
                       with_bytes=False)
        if label == "benchgate":
            row.judge(targets_for(STARTUP, len(records)))
        rows.append(row)
    return rows


METRIC_FORMATS = {"ratio": "{:.2f}x", "gate_mib": "{:.0f} MiB", "bytes_per_task": "{:.0f} bytes/task",
                  "cpu_ratio": "CPU {:.2f}x wall"}


def _met_text(row: Row) -> str:
    """"met", or "NOT met (what missed)", then the stretch goal's verdict."""
    if not row.targets:
        return "-"
    missed = [METRIC_FORMATS[t["metric"]].format(t["value"]) for t in row.targets if not t["met"] and not t["stretch"]]
    text = "met" if not missed else f"NOT met ({'; '.join(missed)})"
    for t in row.targets:
        if t["stretch"]:
            text += f"; stretch {'met' if t['met'] else 'NOT met'}"
    return text


def render_markdown(all_rows: list[Row | ShapeRow], repeat: int, gate: str) -> str:
    rows = [r for r in all_rows if isinstance(r, Row)]
    lines = [] if not rows else [
        "| case | attempts | tasks | ledger MB | floor s | gate s | gate/floor | floor MiB | gate MiB | bytes/task | target | met |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    for r in rows:
        per_task = "-" if r.bytes_per_task is None else f"{r.bytes_per_task:,.0f}"
        target = "; ".join(t["label"] for t in r.targets) or "-"
        lines.append(
            f"| {r.case} | {r.attempts:,} | {r.tasks:,} | {r.ledger_mb:.1f} | {r.floor_s:.3f} | {r.gate_s:.3f} "
            f"| {r.ratio:.2f}x | {r.floor_mib:.1f} | {r.gate_mib:.1f} | {per_task} | {target} | {_met_text(r)} |"
        )
    startups = [r.startup_s for r in rows if r.startup_s is not None]
    lines += [
        "",
        f"Medians of {repeat} interleaved run(s) of each program; MiB is the child's peak RSS (the maximum over runs).",
    ]
    if rows:
        lines += [
            "floor = `open(runs, 'rb')`, then `json.loads(line)` for each non-blank line, nothing else, as a subprocess; "
            "for the start-up rows the floor is the same venv interpreter's `-c pass`.",
            "bytes/task = (gate peak RSS - floor peak RSS) / tasks: the gate's memory beyond reading and parsing the file.",
        ]
    if startups:
        lines.append(f"`python3 -c pass`, timed in the same rounds: median {statistics.median(startups):.3f} s over the ledger cases.")
    lines += render_shapes([r for r in all_rows if isinstance(r, ShapeRow)])
    lines += render_before(all_rows)
    lines += ["", *growth_lines(rows), gate, machine_line()]
    for r in rows:
        if r.cpu_ratio > 1.1:
            lines.append(f"note: {r.case}: the gate's CPU time was {r.cpu_ratio:.2f}x its wall time (more than one core)")
    return "\n".join(lines) + "\n"


def render_before(rows: list[Row | ShapeRow]) -> list[str]:
    """--before: each case by the older gate and by this one, timed in the same rounds."""
    lines = []
    for r in rows:
        if isinstance(r, Row) and r.before_s is not None and r.before_mib is not None:
            lines.append(f"| {r.case} | gate/floor | {r.before_s / r.floor_s:.2f}x | {r.ratio:.2f}x "
                         f"| {r.before_mib:.1f} | {r.gate_mib:.1f} |")
        elif isinstance(r, ShapeRow) and r.before_shape_s is not None and r.before_plain_s is not None:
            lines.append(f"| {r.case} | shape/baseline | {r.before_shape_s / r.before_plain_s:.2f}x | {r.ratio:.2f}x "
                         f"| {r.before_shape_mib:.1f} (baseline {r.before_plain_mib:.1f}) "
                         f"| {r.shape_mib:.1f} (baseline {r.plain_mib:.1f}) |")
    if not lines:
        return []
    return ["", "| case | ratio | before | after | before MiB | after MiB |", "|---|---|---:|---:|---:|---:|", *lines,
            "Before and after: the older gate (--before) and this one, each program interleaved in the same rounds."]


def growth_lines(rows: list[Row]) -> list[str]:
    # one process only: a -jJOBS case holds each worker's share of the IDs, by design (README, Performance)
    ordered = sorted((r for r in rows if r.kind == "sorted" and not re.search(r"-j\d+$", r.case)), key=lambda r: r.attempts)
    if len(ordered) < 2:
        return []
    small, big = ordered[0], ordered[-1]
    per_small, per_big = small.gate_s / small.attempts * 1e6, big.gate_s / big.attempts * 1e6
    return [
        f"growth (sorted): gate {per_small:.2f} us an attempt at {small.attempts:,} attempts, {per_big:.2f} us at "
        f"{big.attempts:,} (equal is linear; start-up weighs more on the smaller); gate peak {small.gate_mib:.0f} MiB "
        f"and {big.gate_mib:.0f} MiB (flat memory would keep them about equal)",
        "",
    ]


def machine_line() -> str:
    return (
        f"machine: {platform.platform()}; {os.cpu_count()} CPUs; Python {platform.python_version()} "
        f"({platform.python_implementation()}, {sys.executable})"
    )


def command_line() -> str:
    return shlex.join(getattr(sys, "orig_argv", [sys.executable, *sys.argv]))


#####################################################################
# CLI
#####################################################################


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bench.py",
        description=__doc__.split("\n\n", 1)[0] if __doc__ else None,
        epilog="case names: sorted-N, unsorted-N, samples-N, cost-N (N an integer or 1eK; a suffix -jJOBS runs the "
               "gate with --jobs JOBS), startup, and the shapes keys-N, clusters-N, compare-N, rank-N, runs-N; "
               "exit codes: 0 done, 1 the gate did not pass a generated ledger, 2 usage or setup error",
    )
    parser.add_argument("--quick", action="store_true",
                        help=f"smaller cases ({','.join(QUICK_CASES)}), {QUICK_REPEAT} repeat unless --repeat is given")
    parser.add_argument("--huge", action="store_true", help=f"also run {','.join(HUGE_CASES)} (minutes each, ~1 GB of disk)")
    parser.add_argument("--cases", help=f"comma-separated case names, run in that order (default: {','.join(DEFAULT_CASES)})")
    parser.add_argument("--repeat", type=int, help="timed runs of each program in each case (default: 3)")
    parser.add_argument("--json", metavar="FILE", type=Path, help="also write the results as JSON to FILE")
    parser.add_argument("--gate", type=Path, default=GATE,
                        help="time this gate.py instead of the repository's (an older commit's, for a before/after)")
    parser.add_argument("--before", type=Path,
                        help="also time this (older) gate.py on every case, interleaved in the same rounds: a before/after "
                             "in one run")
    args = parser.parse_args(argv)
    if args.cases is not None:
        names = [name.strip() for name in args.cases.split(",") if name.strip()]
    else:
        names = list(QUICK_CASES if args.quick else DEFAULT_CASES)
    if args.huge:
        names += [name for name in HUGE_CASES if name not in names]
    if not names:
        parser.error("--cases names no case")
    try:
        args.specs = [(name, parse_case(name)) for name in names]
    except ValueError as exc:
        parser.error(str(exc))
    if args.repeat is None:
        args.repeat = QUICK_REPEAT if args.quick else 3
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    return args


def run(args: argparse.Namespace, directory: Path) -> list[Row | ShapeRow]:
    # A snapshot, so every case of one run times the same gate even while gate.py is being edited.
    gate = directory / "gate.py"
    shutil.copy2(args.gate, gate)
    args.gate_sha256 = hashlib.sha256(gate.read_bytes()).hexdigest()
    _progress(f"timing a snapshot of {args.gate} (sha256 {args.gate_sha256[:12]})")
    kinds = dict.fromkeys(spec.kind for _, spec in args.specs if isinstance(spec, LedgerSpec))
    check_publishable(gate, directory, kinds)
    before = None
    if args.before is not None:
        before = directory / "before.py"
        shutil.copy2(args.before, before)
        check_publishable(before, directory, kinds)
    rows: list[Row | ShapeRow] = []
    for _, spec in args.specs:
        if spec is None:
            with tempfile.TemporaryDirectory(prefix="venv-", dir=directory) as venv_dir:
                rows += run_startup_case(gate, Path(venv_dir), args.repeat)
        elif isinstance(spec, ShapeSpec):
            rows += run_shape_case(spec, gate, directory, args.repeat, before)
        else:
            rows += run_ledger_case(spec, gate, directory, args.repeat, before)
    return rows


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        if not hasattr(os, "wait4"):
            raise BenchError("os.wait4 is unavailable: this benchmark needs a Unix system")
        if not args.gate.is_file():
            raise BenchError(f"gate not found at {args.gate}")
        if args.before is not None and not args.before.is_file():
            raise BenchError(f"--before: gate not found at {args.before}")
        with tempfile.TemporaryDirectory(prefix="benchgate-") as tmp:
            rows = run(args, Path(tmp))
    except GateBlocked as exc:
        print(f"bench: error: {exc}", file=sys.stderr)
        return 1
    except (BenchError, OSError, subprocess.SubprocessError) as exc:
        print(f"bench: error: {exc}", file=sys.stderr)
        return 2
    gate = f"gate: {args.gate} (sha256 {args.gate_sha256}, copied before the first case)"
    sys.stdout.write(render_markdown(rows, args.repeat, gate))
    sys.stdout.write(f"command: {command_line()}\n")
    if args.json is not None:
        payload = {
            "machine": {"platform": platform.platform(), "cpus": os.cpu_count(), "python": platform.python_version(),
                        "executable": sys.executable},
            "command": command_line(),
            "seed": SEED,
            "repeat": args.repeat,
            "gate": str(args.gate),
            "gate_sha256": args.gate_sha256,
            "floor_script": FLOOR_SCRIPT,
            "rows": [asdict(row) for row in rows],
        }
        args.json.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
