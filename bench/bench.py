#!/usr/bin/env python3
"""Benchmark `gate.py check` against the cost of merely parsing its input.

Generates synthetic ledgers -- by default 10^3, 10^5 and 10^6 attempts in
retry mode (attempt_budget 1), plus a samples-mode variant (5 attempts per
task) at the largest size -- into a temporary directory (or --keep DIR,
which must lie outside the repo). Each ledger comes from a fresh
random.Random(20261130), so it is the same whatever other sizes are asked for.
Outcome mix is about 60% pass / 33% fail / 7% unscoreable, the unscoreable
rows spread over harness_timeout, grader_error, env_flake, missing_artifact;
every ledger carries a negative control (neg-01, fails) and a positive
control (pos-01, passes), and a stratum on every record.

Each case then times, interleaved round-robin in every repetition:

  floor    python3 -c '... for line in f: json.loads(line)'  (text mode,
           utf-8: cheaper than binary mode, so it is the stricter floor)
  gate     python3 gate.py check --manifest M --runs R
  startup  python3 -c pass

and reports the median wall time over --repeat runs, the gate's ratio to
the floor and to start-up, and each child's peak resident memory. The
shipped 40-task example (bench.manifest.json + runs.jsonl at the repo top
level) is timed the same way when present. Output is a Markdown table ready
to paste into the README, followed by the machine and growth lines.

Every gate run must exit 0 (PUBLISHABLE) on the synthetic ledgers: a
benchmark of a failing gate is meaningless, so otherwise the gate's output
is printed and this script exits 1. Exit 2 means a usage or setup error.

Each command runs under a tiny `python3 -I -S` launcher that forks and execs
it, times it, and takes its peak memory from os.wait4(), which returns the
rusage of exactly that one child (ru_maxrss: KiB on Linux, bytes on macOS);
see LAUNCHER for why the launcher is needed. os.wait4 (like the resource
module) is Unix-only; this script does not run on Windows.

Examples:
  python3 bench/bench.py                      # 10^3, 10^5, 10^6; 3 repeats
  python3 bench/bench.py --quick              # 10^3, 10^5; 1 repeat
  python3 bench/bench.py --json results.json  # also dump results as JSON
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

REPO = Path(__file__).resolve().parent.parent
GATE = REPO / "gate.py"
SEED = 20261130
DEFAULT_SIZES = (1_000, 100_000, 1_000_000)
QUICK_SIZES = (1_000, 100_000)
SAMPLES_PER_TASK = 5
REASONS = ("harness_timeout", "grader_error", "env_flake", "missing_artifact")
STRATA = ("repo_edit", "test_write", "refactor")
CONTROLS = (
    ("neg-01", "fail", "negative", "repo_edit"),
    ("pos-01", "pass", "positive", "test_write"),
)
WALL_CLOCK_LIMIT_S = 900
CHUNK_LINES = 65_536

# Targets from the issue; the bench reports them, it does not enforce them.
TARGET_BIG_ATTEMPTS = 1_000_000
TARGET_FLOOR_RATIO = 1.0
STRETCH_FLOOR_RATIO = 0.8
TARGET_PEAK_MIB = 300.0
TARGET_EXAMPLE_STARTUP_RATIO = 1.15

FLOOR_SCRIPT = (
    "import json, sys\n"
    "with open(sys.argv[1], encoding='utf-8') as f:\n"
    "    for line in f:\n"
    "        json.loads(line)\n"
)
PROGRAMS = ("floor", "gate", "startup")


class BenchError(Exception):
    """A usage or setup problem: reported as one line, exit 2."""


class GateBlocked(Exception):
    """The gate did not exit 0 on a ledger that must be publishable: exit 1."""


#####################################################################
# Synthetic ledgers
#####################################################################


@dataclass(frozen=True)
class Case:
    name: str
    mode: str  # "retry" or "samples"
    attempts: int
    tasks: int
    manifest: Path
    runs: Path
    must_publish: bool = True


def _draw_outcome(u: float, rng_choice: float) -> tuple[str, str, int]:
    """Map two uniform draws to (outcome, reason JSON, wall_clock_s)."""
    if u < 0.60:
        return "pass", "null", 5 + int(rng_choice * 596)
    if u < 0.93:
        return "fail", "null", 5 + int(rng_choice * 596)
    reason = REASONS[int(rng_choice * len(REASONS))]
    wall = (
        WALL_CLOCK_LIMIT_S
        if reason == "harness_timeout"
        else 1 + int((u - 0.93) / 0.07 * 119)
    )
    return "unscoreable", f'"{reason}"', wall


def _record(
    task_id: str, attempt: int, outcome: str, reason: str, wall: int, stratum: str
) -> str:
    # Hand-formatted for speed at 10^6 lines; every value is a known-safe ASCII
    # token, and the layout matches the seed's (no spaces after separators).
    return (
        f'{{"run_id":"r1","task_id":"{task_id}","attempt":{attempt},'
        f'"outcome":"{outcome}","reason":{reason},"wall_clock_s":{wall},'
        f'"stratum":"{stratum}"}}\n'
    )


def write_ledger(
    directory: Path, name: str, mode: str, attempts: int, rng: random.Random
) -> Case:
    """Write NAME.manifest.json and NAME.runs.jsonl; return the case."""
    per_task = SAMPLES_PER_TASK if mode == "samples" else 1
    tasks = attempts // per_task
    synthetic = tasks - len(CONTROLS)
    width = max(7, len(str(synthetic)))
    strata = dict.fromkeys(STRATA, 0)
    digest = hashlib.sha256()
    runs_path = directory / f"{name}.runs.jsonl"
    manifest_path = directory / f"{name}.manifest.json"

    # Ids sort as neg-01 < pos-01 < t-0000001 < ..., so writing controls first
    # and then tasks in numeric order yields a ledger sorted by task id.
    ids_written = 0
    with runs_path.open("w", encoding="utf-8", newline="\n") as out:
        chunk: list[str] = []
        for task_id, expected, _role, stratum in CONTROLS:
            strata[stratum] += 1
            digest.update((("\n" if ids_written else "") + task_id).encode("utf-8"))
            ids_written += 1
            for attempt in range(1, per_task + 1):
                wall = 30 + int(rng.random() * 120)
                chunk.append(_record(task_id, attempt, expected, "null", wall, stratum))
        draw = rng.random
        for n in range(1, synthetic + 1):
            task_id = f"t-{n:0{width}d}"
            s = draw()
            stratum = STRATA[0] if s < 0.60 else STRATA[1] if s < 0.85 else STRATA[2]
            strata[stratum] += 1
            digest.update(("\n" + task_id).encode("utf-8"))
            for attempt in range(1, per_task + 1):
                outcome, reason, wall = _draw_outcome(draw(), draw())
                chunk.append(_record(task_id, attempt, outcome, reason, wall, stratum))
            if len(chunk) >= CHUNK_LINES:
                out.write("".join(chunk))
                chunk.clear()
        out.write("".join(chunk))

    manifest: dict[str, Any] = {
        "claim_id": "bench-synthetic",
        "dataset": {
            "name": f"synthetic-{attempts}-{mode}",
            "task_count": tasks,
            "task_ids_sha256": digest.hexdigest(),
            "strata": strata,
        },
        "controls": [
            {"task_id": task_id, "expected": expected, "role": role}
            for task_id, expected, role, _stratum in CONTROLS
        ],
        "envelope": {
            "runner": "bench",
            "network": "off",
            "wall_clock_s_per_task": WALL_CLOCK_LIMIT_S,
            "max_steps": 40,
            "toolchain_sha": "bench",
        },
        "attempt_budget": per_task,
        "rerun_recipe": f"python3 gate.py check --manifest {manifest_path.name} --runs {runs_path.name}",
    }
    if mode == "samples":
        manifest["attempt_mode"] = "samples"
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return Case(name, mode, attempts, tasks, manifest_path, runs_path)


def build_cases(directory: Path, sizes: list[int], samples: bool) -> list[Case]:
    cases: list[Case] = []
    for size in sizes:
        _progress(f"writing retry ledger, {size:,} attempts")
        cases.append(
            write_ledger(directory, f"retry-{size}", "retry", size, random.Random(SEED))
        )
    if samples:
        size = max(sizes)
        _progress(
            f"writing samples ledger, {size:,} attempts ({size // SAMPLES_PER_TASK:,} tasks x {SAMPLES_PER_TASK})"
        )
        cases.append(
            write_ledger(
                directory, f"samples-{size}", "samples", size, random.Random(SEED)
            )
        )
    manifest, runs = REPO / "bench.manifest.json", REPO / "runs.jsonl"
    if manifest.is_file() and runs.is_file():
        records = [
            json.loads(line)
            for line in runs.read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
        tasks = len({record["task_id"] for record in records})
        attempts = len(records)
        cases.append(
            Case(
                "shipped example",
                "example",
                attempts,
                tasks,
                manifest,
                runs,
                must_publish=False,
            )
        )
    else:
        _progress(
            "shipped example skipped: bench.manifest.json or runs.jsonl not found at the repo top level"
        )
    return cases


#####################################################################
# Measurement
#####################################################################


@dataclass
class Runs:
    seconds: list[float] = field(default_factory=list)
    maxrss_kib: list[int] = field(default_factory=list)
    exit_codes: list[int] = field(default_factory=list)

    @property
    def median_s(self) -> float:
        return statistics.median(self.seconds)

    @property
    def peak_mib(self) -> float:
        return max(self.maxrss_kib) / 1024


def _maxrss_kib(ru_maxrss: int) -> int:
    return ru_maxrss // 1024 if sys.platform == "darwin" else ru_maxrss


# Why a launcher: on Linux a child's ru_maxrss starts from the RSS of the
# process that forked it (with vfork, which subprocess uses, the parent's
# *peak*), because exec keeps the old address space's high-water mark. This
# script holds tens of MiB after writing ledgers, so `python3 -c pass` would
# "peak" at that. The launcher is a bare `python3 -I -S` (~5 MiB, below any
# Python child's own peak) that forks, execs the real command, and reports the
# wall time and the os.wait4() rusage of exactly that one child -- unlike
# RUSAGE_CHILDREN, which is a running maximum over all reaped children.
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
    "os.write(fd, f'{elapsed!r} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}'.encode())\n"
)


def run_child(
    argv: list[str], out: IO[bytes], err: IO[bytes]
) -> tuple[float, int, int]:
    """Run ARGV once via the launcher; return (wall seconds, peak RSS KiB, exit code)."""
    out.seek(0)
    out.truncate()
    err.seek(0)
    err.truncate()
    read_end, write_end = os.pipe()
    try:
        launcher = [sys.executable, "-I", "-S", "-c", LAUNCHER, str(write_end), *argv]
        proc = subprocess.Popen(
            launcher,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            pass_fds=(write_end,),
        )
        os.close(write_end)
        write_end = -1
        launcher_code = proc.wait()
        report = os.read(read_end, 4096).decode("ascii")
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)
    if launcher_code != 0 or len(report.split()) != 3:
        raise BenchError(
            f"launcher failed (exit {launcher_code}) for {' '.join(argv)}\n{_read(err)}"
        )
    seconds, maxrss, code = report.split()
    return float(seconds), _maxrss_kib(int(maxrss)), int(code)


def _read(stream: IO[bytes]) -> str:
    stream.seek(0)
    return stream.read().decode("utf-8", "replace")


def _check_verdict(case: Case, stdout: str) -> None:
    # Exit 0 alone cannot tell a working gate from a stub that does nothing;
    # a warning (not an error) because the report's wording may change.
    if "PUBLISHABLE" not in stdout:
        _progress(
            f"warning: gate exited 0 on {case.name} but did not print PUBLISHABLE; "
            f"is it really checking? stdout was: {stdout[:200]!r}"
        )


def measure(case: Case, gate: Path, repeat: int) -> dict[str, Runs]:
    argvs = {
        "floor": [sys.executable, "-c", FLOOR_SCRIPT, str(case.runs)],
        "gate": [
            sys.executable,
            str(gate),
            "check",
            "--manifest",
            str(case.manifest),
            "--runs",
            str(case.runs),
        ],
        "startup": [sys.executable, "-c", "pass"],
    }
    results = {program: Runs() for program in PROGRAMS}
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        for rep in range(repeat):
            # Round-robin, so drift (thermal, page cache, neighbours) hits every
            # program alike instead of whichever one happened to run last.
            for program in PROGRAMS:
                _progress(f"{case.name}: {program} {rep + 1}/{repeat}")
                seconds, kib, code = run_child(argvs[program], out, err)
                results[program].seconds.append(seconds)
                results[program].maxrss_kib.append(kib)
                results[program].exit_codes.append(code)
                if code == 0:
                    if program == "gate" and case.must_publish and rep == 0:
                        _check_verdict(case, _read(out))
                    continue
                detail = f"--- stdout ---\n{_read(out)}--- stderr ---\n{_read(err)}"
                if program == "gate" and case.must_publish:
                    raise GateBlocked(
                        f"gate exited {code} on {case.name} (expected 0, PUBLISHABLE); "
                        f"a benchmark of a failing gate is meaningless\n"
                        f"command: {' '.join(argvs[program])}\n{detail}"
                    )
                if program != "gate":
                    raise BenchError(
                        f"{program} exited {code} on {case.name}\n{detail}"
                    )
                _progress(f"warning: gate exited {code} on the {case.name}\n{detail}")
    return results


#####################################################################
# Report
#####################################################################


@dataclass(frozen=True)
class Row:
    case: str
    mode: str
    attempts: int
    tasks: int
    ledger_mb: float
    floor_s: float
    gate_s: float
    startup_s: float
    gate_over_floor: float
    gate_over_startup: float
    floor_peak_mib: float
    gate_peak_mib: float
    startup_peak_mib: float
    gate_exit: int
    targets: str


def _yes(ok: bool) -> str:
    return "yes" if ok else "NO"


def targets_for(case: Case, gate: Runs, over_floor: float, over_startup: float) -> str:
    if case.mode == "example":
        return f"<= {TARGET_EXAMPLE_STARTUP_RATIO}x startup: {_yes(over_startup <= TARGET_EXAMPLE_STARTUP_RATIO)}"
    if case.attempts >= TARGET_BIG_ATTEMPTS:
        return (
            f"<= {TARGET_FLOOR_RATIO}x floor: {_yes(over_floor <= TARGET_FLOOR_RATIO)}; "
            f"stretch <= {STRETCH_FLOOR_RATIO}x: {_yes(over_floor <= STRETCH_FLOOR_RATIO)}; "
            f"<= {TARGET_PEAK_MIB:.0f} MiB: {_yes(gate.peak_mib <= TARGET_PEAK_MIB)}"
        )
    return "-"


def make_row(case: Case, runs: dict[str, Runs]) -> Row:
    floor, gate, startup = runs["floor"], runs["gate"], runs["startup"]
    over_floor = gate.median_s / floor.median_s
    over_startup = gate.median_s / startup.median_s
    return Row(
        case=case.name,
        mode=case.mode,
        attempts=case.attempts,
        tasks=case.tasks,
        ledger_mb=case.runs.stat().st_size / 1e6,
        floor_s=floor.median_s,
        gate_s=gate.median_s,
        startup_s=startup.median_s,
        gate_over_floor=over_floor,
        gate_over_startup=over_startup,
        floor_peak_mib=floor.peak_mib,
        gate_peak_mib=gate.peak_mib,
        startup_peak_mib=startup.peak_mib,
        gate_exit=gate.exit_codes[-1],
        targets=targets_for(case, gate, over_floor, over_startup),
    )


def growth_line(rows: list[Row]) -> str:
    retry = sorted((r for r in rows if r.mode == "retry"), key=lambda r: r.attempts)
    if len(retry) < 2:
        return "linear growth: n/a (needs two retry sizes, e.g. 100000 and 1000000)"
    small, big = retry[-2], retry[-1]
    per_small = small.gate_s / small.attempts * 1e6
    per_big = big.gate_s / big.attempts * 1e6
    return (
        f"linear growth: gate time per attempt {per_small:.2f} us at {small.attempts:,} vs "
        f"{per_big:.2f} us at {big.attempts:,} attempts (ratio {per_big / per_small:.2f}; "
        f"~1.0 is linear, well below 1 means start-up still dominates the smaller size)"
    )


def machine_line() -> str:
    return (
        f"machine: {platform.platform()}; Python {platform.python_version()} "
        f"({platform.python_implementation()}); {os.cpu_count()} CPUs"
    )


def render_markdown(rows: list[Row], repeat: int) -> str:
    lines = [
        (
            "| case | attempts | tasks | ledger MB | floor s | gate s | startup s | gate/floor | gate/startup "
            "| floor MiB | gate MiB | targets |"
        ),
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        exit_note = "" if r.gate_exit == 0 else f" (gate exit {r.gate_exit})"
        lines.append(
            f"| {r.case}{exit_note} | {r.attempts:,} | {r.tasks:,} | {r.ledger_mb:.1f} | {r.floor_s:.3f} "
            f"| {r.gate_s:.3f} | {r.startup_s:.3f} | {r.gate_over_floor:.2f}x | {r.gate_over_startup:.2f}x "
            f"| {r.floor_peak_mib:.1f} | {r.gate_peak_mib:.1f} | {r.targets} |"
        )
    lines += [
        "",
        (
            f"Median wall time of {repeat} interleaved run(s); MiB is the child's peak RSS (max over runs). "
            "floor = `for line in f: json.loads(line)` over the ledger opened in text mode (utf-8); "
            "startup = `python3 -c pass`."
        ),
        "",
        growth_line(rows),
        "",
        machine_line(),
    ]
    return "\n".join(lines) + "\n"


#####################################################################
# CLI
#####################################################################


def _progress(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part.replace("_", "")) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--sizes wants comma-separated integers, got {text!r}"
        ) from None
    if not sizes or min(sizes) < len(CONTROLS) + 1:
        raise argparse.ArgumentTypeError(
            f"--sizes must each be at least {len(CONTROLS) + 1}, got {text!r}"
        )
    return sizes


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bench.py",
        description=__doc__.split("\n\n", 1)[0] if __doc__ else None,
        epilog="exit codes: 0 done, 1 the gate blocked a synthetic ledger, 2 usage or setup error",
    )
    parser.add_argument(
        "--sizes",
        type=_sizes,
        default=list(DEFAULT_SIZES),
        help="comma-separated attempt counts for the retry-mode ledgers (default: 1000,100000,1000000)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="timed runs per program and case (default: 3)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="shorthand for --sizes 1000,100000 --repeat 1",
    )
    parser.add_argument(
        "--no-samples",
        action="store_true",
        help="skip the samples-mode ledger (default: include it)",
    )
    parser.add_argument(
        "--json",
        metavar="FILE",
        type=Path,
        help="also write the results as JSON to FILE",
    )
    parser.add_argument(
        "--keep",
        metavar="DIR",
        type=Path,
        help="write ledgers to DIR and keep them (default: a temp dir)",
    )
    parser.add_argument(
        "--gate", type=Path, default=GATE, help=argparse.SUPPRESS
    )  # stand-in gates for testing
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.repeat = list(QUICK_SIZES), 1
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    return args


def _check_setup(args: argparse.Namespace) -> None:
    if not hasattr(os, "wait4"):
        raise BenchError("os.wait4 is unavailable: this benchmark needs a Unix system")
    if not args.gate.is_file():
        raise BenchError(f"gate not found at {args.gate}")
    if args.keep is not None:
        keep = args.keep.resolve()
        if keep == REPO or REPO in keep.parents:
            raise BenchError(
                f"--keep {args.keep} is inside the repo; pick a directory outside {REPO}"
            )
    if not args.no_samples and max(args.sizes) % SAMPLES_PER_TASK:
        raise BenchError(
            f"largest size {max(args.sizes)} is not a multiple of {SAMPLES_PER_TASK}; use --no-samples"
        )


def run(args: argparse.Namespace, directory: Path) -> list[Row]:
    cases = build_cases(directory, args.sizes, samples=not args.no_samples)
    return [
        make_row(case, measure(case, args.gate.resolve(), args.repeat))
        for case in cases
    ]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        _check_setup(args)
        if args.keep is not None:
            args.keep.mkdir(parents=True, exist_ok=True)
            rows = run(args, args.keep)
        else:
            with tempfile.TemporaryDirectory(prefix="benchgate-") as tmp:
                rows = run(args, Path(tmp))
    except GateBlocked as exc:
        print(f"bench: error: {exc}", file=sys.stderr)
        return 1
    except (BenchError, OSError) as exc:
        print(f"bench: error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(render_markdown(rows, args.repeat))
    if args.json is not None:
        payload = {
            "machine": {
                "platform": platform.platform(),
                "python": platform.python_version(),
                "cpus": os.cpu_count(),
            },
            "seed": SEED,
            "repeat": args.repeat,
            "gate": str(args.gate),
            "floor_script": FLOOR_SCRIPT,
            "rows": [asdict(row) for row in rows],
        }
        args.json.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
