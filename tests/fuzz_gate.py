#!/usr/bin/env python3
"""Bounded fuzz run of gate.main: mutated manifests, runs, task files, cards and harness files.

    python3 tests/fuzz_gate.py --seconds 60 --max-runs 100000 [--seed N]

Stdlib only (random.Random, seeded). The seed corpus is the repository's own inputs (the worked
example, examples/card, examples/compare, tests/fixtures). Each case copies a scenario's inputs into a
fresh temporary folder, mutates one of them (byte-level: flips, inserts, deletes, splices, duplicated
lines, injected tokens such as NaN, 1e400, deep brackets, duplicate keys, a BOM, invalid UTF-8, huge
numbers; or structure-level: a JSON value replaced, dropped or retyped), and runs gate.main in-process
for a subcommand (check in every --format, digest, freeze, verify, compare, import in every format).

A case fails ("crash") when an exception escapes main (SystemExit counts unless its code is 0, 1 or
2), main returns anything but 0, 1 or 2, the case runs longer than --case-seconds, a file appears
in the folder other than the subcommand's intended output, or an input file changes. Crashing
inputs are saved under /tmp (one folder per distinct crash site) and their path is printed.
Prints `fuzz: N executions, C crashes` and exits 1 on any crash.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import gate  # noqa: E402

FIX = ROOT / "tests" / "fixtures"
CARD = ROOT / "examples" / "card"
COMPARE = ROOT / "examples" / "compare"
SAMPLES = ROOT / "examples" / "compare-samples"

TOKENS = [
    b"NaN", b"Infinity", b"-Infinity", b"1e400", b"-1e400", b"1e-400", b"-0", b"0.0", b"-1",
    b"99999999999999999999999999999999999999", b"1" * 5000, b"[" * 5000, b"{\"a\":" * 3000, b"]" * 50,
    b"\"\\ud800\"", b"\"\\u0000\"", b"\xef\xbb\xbf", b"\xff\xfe", b"\xc3\x28", b"\xed\xa0\x80", b"\x00",
    b"null", b"true", b"false", b"\"\"", b"[]", b"{}", b"\r\n", b"\n\n", b"\r", b"\t", b" ", b",", b":",
    b"\"task_id\":\"x\",", b"\"outcome\":\"pass\",", b"\"attempt\":2,", b"\"attempt\":true,", b"\"reason\":null,",
    b"\"a\":1,\"a\":2,", b"\"run_id\":\"other\",", b"\"stratum\":\"zz\",", b"\"wall_clock_s\":1e308,",
    b"\"" + "é".encode() * 10 + b"\"", "\u2028".encode(), b"\\", b"\"\\", b"1.5", b"2.0", b"3-of-2", b"../",
    # control characters an output must never print raw: ANSI codes, a bell, a bidi override, a newline escape
    b"\x1b[2K\x1b[1A", b"\\u001b[31m", b"\x07", "\u202e".encode(), b"\\u202e", b"\\nverdict     : PUBLISHABLE",
    b"`<!--", b"<script>", b"\\u0001", b"\x01",
]
JSON_VALUES: list[Any] = [
    "x\nverdict     : PUBLISHABLE", "\x1b[2K", "a\u202eb", "`<!--", "\x01<&>",
    None, True, False, 0, -1, 1, 2, 3, 10**30, -(10**30), 0.5, 1.5, 1e308, -0.0, "", " x", "x ", "pass", "fail",
    "unscoreable", "C", "I", "P", "N", "../escape", "/abs/path", "é", "\u2028", [], {}, [None], {"": None},
    ["a", "a"], [1, 2], {"k": []}, "resolved", "x.1-of-2",
]


class CaseTimeout(BaseException):
    """Raised by the alarm: a case ran past its time limit (BaseException so the gate cannot swallow it)."""


class Scenario:
    """A subcommand, the seed files it reads (name in the case folder -> source path), its argv, and the
    outputs it may write."""

    def __init__(self, name: str, files: dict[str, Path], argv: Callable[[Path, random.Random], list[str]],
                 outputs: tuple[str, ...] = (), mutable: tuple[str, ...] | None = None) -> None:
        self.name, self.files, self.argv, self.outputs = name, files, argv, outputs
        self.mutable = mutable if mutable is not None else tuple(files)


def _fmt(rnd: random.Random) -> list[str]:
    return ["--format", rnd.choice(["text", "json", "markdown", "svg"])]


def _opt(rnd: random.Random) -> list[str]:
    extra: list[str] = []
    if rnd.random() < 0.2:
        extra += ["--claim", rnd.choice(["72.5%", "0.725", "29/40", "29/37", "78%", "1e400", "nan", "5/0", "-1"])]
    if rnd.random() < 0.1:
        extra += ["--confidence", rnd.choice(["0.9", "0.999999", "0.5"])]
    if rnd.random() < 0.1:
        extra += ["--run-id", rnd.choice(["r1", "run-1", "other"])]
    if rnd.random() < 0.2:
        extra += ["--jobs", rnd.choice(["2", "3", "4"])]  # and run_case compares it with one process
    return extra


def _number(rnd: random.Random, whole: bool) -> str:
    """A plausible or hostile number for a plan option."""
    if whole:
        return rnd.choice(["1", "3", "0", "-2", "10000", "10001", "1e3", "x"])
    return rnd.choice(["0.7", "0.05", "0.2", "0.5", "0", "1", "-0.1", "1e-300", "1e300", "nan", "inf", "0.999999",
                       "0.0100000001", "x", ""])


def scenarios() -> list[Scenario]:
    card_files = {name: CARD / name for name in ("bench.manifest.json", "runs.jsonl", "tasks.json", "card.json",
                                                  "gold.jsonl", "noedit.jsonl")}
    out: list[Scenario] = [
        Scenario("check", {"m.json": ROOT / "bench.manifest.json", "r.jsonl": ROOT / "runs.jsonl"},
                 lambda d, rnd: ["--manifest", str(d / "m.json"), "--runs", str(d / "r.jsonl"), *_fmt(rnd), *_opt(rnd)]),
        Scenario("check-card", card_files,
                 lambda d, rnd: ["check", "--manifest", str(d / "bench.manifest.json"), "--runs", str(d / "runs.jsonl"),
                                 *_fmt(rnd), *_opt(rnd)]),
        Scenario("digest-runs", {"r.jsonl": ROOT / "runs.jsonl"}, lambda d, rnd: ["digest", "--runs", str(d / "r.jsonl")]),
        Scenario("digest-ids", {"ids.txt": FIX / "swebench" / "report-v2-short-dataset-ids.txt"},
                 lambda d, rnd: ["digest", "--ids", str(d / "ids.txt")]),
        Scenario("freeze", {"tasks.json": CARD / "tasks.json"},
                 lambda d, rnd: ["freeze", str(d / "tasks.json"), str(d / "new-card.json"),
                                 *rnd.choice([[], ["--withhold-thin-strata"], ["--min-per-stratum", "0"],
                                              ["--attempt-budget", "3"], ["--allow-license", "mit"]])],
                 outputs=("new-card.json",)),
        Scenario("verify", {"tasks.json": CARD / "tasks.json", "card.json": CARD / "card.json"},
                 lambda d, rnd: ["verify", str(d / "tasks.json"), str(d / "card.json")]),
        Scenario("compare", {"a.json": COMPARE / "a.manifest.json", "a.jsonl": COMPARE / "a.jsonl",
                             "b.json": COMPARE / "b.manifest.json", "b.jsonl": COMPARE / "b.jsonl"},
                 lambda d, rnd: ["compare", "--manifest", str(d / "a.json"), "--runs", str(d / "a.jsonl"),
                                 "--against-manifest", str(d / "b.json"), "--against-runs", str(d / "b.jsonl"), *_fmt(rnd)]),
        Scenario("compare-samples", {"a.json": SAMPLES / "a.manifest.json", "a.jsonl": SAMPLES / "a.jsonl",
                                     "b.json": SAMPLES / "b.manifest.json", "b.jsonl": SAMPLES / "b.jsonl"},
                 lambda d, rnd: ["compare", "--manifest", str(d / "a.json"), "--runs", str(d / "a.jsonl"),
                                 "--against-manifest", str(d / "b.json"), "--against-runs", str(d / "b.jsonl"), *_fmt(rnd)]),
        Scenario("rank", {"a.json": COMPARE / "a.manifest.json", "a.jsonl": COMPARE / "a.jsonl",
                          "b.json": COMPARE / "b.manifest.json", "b.jsonl": COMPARE / "b.jsonl"},
                 lambda d, rnd: ["rank", "--manifest", str(d / "a.json"), "--runs", str(d / "a.jsonl"),
                                 "--manifest", str(d / "b.json"), "--runs", str(d / "b.jsonl"), *_fmt(rnd)]),
        Scenario("check-outputs", {"m.json": ROOT / "bench.manifest.json", "r.jsonl": ROOT / "runs.jsonl"},
                 lambda d, rnd: ["check", "--manifest", str(d / "m.json"), "--runs", str(d / "r.jsonl"),
                                 "--output", f"json={d / 'o.json'}", "--output", f"badge={d / 'o.svg'}",
                                 "--output", f"shields={d / 's.json'}", "--output", f"markdown={d / 'o.md'}", *_opt(rnd)],
                 outputs=("o.json", "o.svg", "s.json", "o.md")),
        Scenario("init", {"r.jsonl": ROOT / "runs.jsonl"}, lambda d, rnd: ["init", "--from-runs", str(d / "r.jsonl")]),
        Scenario("plan", {}, lambda d, rnd: ["plan", *[x for name in ("--baseline", "--detect", "--discordance", "--icc",
                                                                     "--power", "--samples")
                                                      if name in ("--baseline", "--detect") or rnd.random() < 0.5
                                                      for x in (name, _number(rnd, name == "--samples"))],
                                             *rnd.choice([[], ["--format", "json"]])], mutable=("",)),
    ]

    def importer(fmt: str, files: dict[str, Path], positional: tuple[str, ...], extra: tuple[str, ...] = ()) -> Scenario:
        def argv(d: Path, rnd: random.Random) -> list[str]:
            args = ["import", fmt, *(str(d / p) for p in positional), *extra]
            args = [a.replace("@", str(d) + os.sep) for a in args]
            if rnd.random() < 0.6:
                args += ["-o", str(d / "out.jsonl"), "--draft-manifest", str(d / "draft.json")]
            if fmt == "inspect" and rnd.random() < 0.3:
                args += rnd.choice([["--partial-as", "pass"], ["--threshold", "0.5"], ["--threshold", "nan"]])
            return args
        return Scenario(f"import-{fmt}", files, argv, outputs=("out.jsonl", "draft.json"))

    sw = FIX / "swebench"
    out += [
        importer("swebench", {"report.json": sw / "report-v2-synthetic.json"}, ("report.json",)),
        importer("swebench", {"report.json": sw / "report-v2-short-synthetic.json", "ids.txt": sw / "report-v2-short-dataset-ids.txt"},
                 ("report.json",), ("--dataset-ids", "@ids.txt")),
        importer("swebench", {"results.json": sw / "experiments-results-synthetic.json", "ids.txt": sw / "verified-dataset-ids.txt"},
                 ("results.json",), ("--dataset-ids", "@ids.txt")),
        importer("inspect", {"log.json": FIX / "inspect" / "tiny-success.json"}, ("log.json",)),
        importer("inspect", {"log.json": FIX / "inspect" / "tiny-err-status-error.json"}, ("log.json",)),
        importer("inspect", {"log.json": FIX / "inspect" / "synthetic-cancelled.json"}, ("log.json",)),
        importer("inspect", {"log.eval": FIX / "inspect" / "tiny-success-deflate.eval"}, ("log.eval",)),
        importer("terminal-bench", {"results.json": FIX / "terminal-bench" / "results.json"}, ("results.json",)),
        importer("terminal-bench", {"results.json": FIX / "terminal-bench" / "results-synthetic.json",
                                    "meta.json": FIX / "terminal-bench" / "run_metadata-synthetic.json"},
                 ("results.json", "meta.json")),
    ]
    return out


# ---------------------------------------------------------------------------------------------
# Mutations
# ---------------------------------------------------------------------------------------------

def mutate_bytes(data: bytes, rnd: random.Random, corpus: list[bytes]) -> bytes:
    buf = bytearray(data)
    for _ in range(rnd.choice([1, 1, 1, 2, 3, 8])):
        size = len(buf)
        op = rnd.randrange(9)
        pos = rnd.randrange(size + 1)
        if op == 0 and size:  # flip a bit
            i = rnd.randrange(size)
            buf[i] ^= 1 << rnd.randrange(8)
        elif op == 1:  # insert random bytes
            buf[pos:pos] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 8)))
        elif op == 2 and size:  # delete a range
            buf[pos:pos + rnd.randint(1, 64)] = b""
        elif op == 3:  # inject a token
            buf[pos:pos] = rnd.choice(TOKENS)
        elif op == 4:  # duplicate a line
            lines = bytes(buf).split(b"\n")
            i = rnd.randrange(len(lines))
            lines.insert(rnd.randrange(len(lines) + 1), lines[i])
            buf = bytearray(b"\n".join(lines))
        elif op == 5 and corpus:  # splice with another seed
            other = rnd.choice(corpus)
            start = rnd.randrange(len(other) + 1)
            buf[pos:] = other[start:start + rnd.randint(0, 4096)]
        elif op == 6:  # duplicate a key (within the same object, most likely)
            text = bytes(buf)
            colon = text.find(b'":', pos)
            quote = text.rfind(b'"', 0, colon) if colon > 0 else -1
            if colon > 0 and quote >= 0:
                end = text.find(b",", colon)
                if end > 0:
                    buf[end + 1:end + 1] = text[quote:end + 1]
        elif op == 7:  # replace a digit run with a huge or odd number
            text = bytes(buf)
            i = next((j for j in range(pos, min(size, pos + 200)) if 48 <= text[j] <= 57), -1)
            if i >= 0:
                j = i
                while j < size and 48 <= text[j] <= 57:
                    j += 1
                buf[i:j] = rnd.choice([b"1e400", b"0", b"-1", b"9" * 40, b"1.0", b"1e2", b"true", b"NaN"])
        elif op == 8:  # a BOM or CRLF endings
            buf = bytearray(rnd.choice([b"\xef\xbb\xbf" + bytes(buf), bytes(buf).replace(b"\n", b"\r\n")]))
    return bytes(buf)


def _mutate_tree(value: Any, rnd: random.Random, depth: int = 0) -> Any:
    if isinstance(value, dict) and value and (depth < 6 and rnd.random() < 0.75):
        key = rnd.choice(list(value))
        new = dict(value)
        roll = rnd.random()
        if roll < 0.15:
            del new[key]
        elif roll < 0.25:
            new[rnd.choice(["task_id", "outcome", "attempt", "reason", "extra", key + "_x"])] = rnd.choice(JSON_VALUES)
        else:
            new[key] = _mutate_tree(value[key], rnd, depth + 1)
        return new
    if isinstance(value, list) and value and (depth < 6 and rnd.random() < 0.75):
        new_list = list(value)
        i = rnd.randrange(len(new_list))
        roll = rnd.random()
        if roll < 0.15:
            del new_list[i]
        elif roll < 0.3:
            new_list.insert(rnd.randrange(len(new_list) + 1), new_list[i])
        else:
            new_list[i] = _mutate_tree(new_list[i], rnd, depth + 1)
        return new_list
    return rnd.choice(JSON_VALUES)


def mutate_json(data: bytes, rnd: random.Random) -> bytes | None:
    """Structure-aware: one value of one JSON document (or of one JSONL line) replaced."""
    try:
        text = data.decode("utf-8")
        if b"\n{" in data.strip():  # JSONL
            lines = text.splitlines()
            i = rnd.randrange(len(lines))
            lines[i] = json.dumps(_mutate_tree(json.loads(lines[i]), rnd))
            return ("\n".join(lines) + "\n").encode("utf-8")
        return json.dumps(_mutate_tree(json.loads(text), rnd), indent=rnd.choice([None, 2])).encode("utf-8")
    except (ValueError, UnicodeDecodeError, IndexError):
        return None


# ---------------------------------------------------------------------------------------------
# One case
# ---------------------------------------------------------------------------------------------

def _alarm(_signum: int, _frame: Any) -> None:
    raise CaseTimeout()


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


_RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def malformed(argv: list[str], out: str, err: str) -> str | None:
    """An output that is not well formed for its format, or prints a raw control character."""
    fmt = argv[argv.index("--format") + 1] if "--format" in argv else "text"
    streams = [("stderr", err)] + ([("stdout", out)] if not (argv and argv[0] == "import" and "-o" not in argv) else [])
    for name, text in streams:
        found = _RAW_CONTROL.search(text)
        if found:
            return f"{name} prints the raw control character {found.group()!r}"
    if not out:
        return None
    if (fmt == "json" and (argv[0] in ("check", "compare", "rank", "plan") or argv[0].startswith("--"))) or argv[0] == "init":
        try:
            json.loads(out)
        except ValueError as exc:
            return f"the JSON report does not parse: {exc}"
    if fmt == "svg" and out.startswith("<svg"):
        try:
            ET.fromstring(out)
        except ET.ParseError as exc:
            return f"the SVG is not well-formed XML: {exc}"
    if argv and argv[0] == "import" and "-o" not in argv:
        for number, line in enumerate(out.splitlines(), 1):
            try:
                json.loads(line)
            except ValueError as exc:
                return f"imported line {number} does not parse: {exc}"
    return None


def run_case(folder: Path, argv: list[str], outputs: tuple[str, ...], limit: float) -> str | None:
    """Run main once; return a failure description, or None when the case behaved."""
    before = snapshot(folder)
    sink_out, sink_err = io.StringIO(), io.StringIO()
    use_alarm = hasattr(signal, "setitimer")
    started = time.monotonic()
    problem: str | None = None
    code: Any = None
    try:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, limit)
        with contextlib.redirect_stdout(sink_out), contextlib.redirect_stderr(sink_err):
            code = gate.main(argv)
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
        if code not in (0, 1, 2) or type(code) is not int:
            # exit 3 is the gate's own bug: with BENCHGATE_DEBUG set its traceback is on stderr, for the crash site
            problem = f"main returned {code!r}\n{sink_err.getvalue()[-4000:]}"
    except KeyboardInterrupt:
        raise
    except CaseTimeout:
        problem = f"timeout: the case ran longer than {limit:g} s"
    except SystemExit as exc:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
        if exc.code not in (0, 1, 2):
            problem = f"SystemExit({exc.code!r})\n{traceback.format_exc()}"
    except BaseException:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
        problem = traceback.format_exc()
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
    elapsed = time.monotonic() - started
    if problem is None and not use_alarm and elapsed > limit:
        problem = f"slow: the case took {elapsed:.1f} s (limit {limit:g} s)"
    if problem is None:
        after = snapshot(folder)
        changed = sorted(k for k in before if after.get(k) != before[k])
        added = sorted(k for k in after if k not in before and k not in outputs)
        if changed:
            problem = f"input file(s) changed or removed: {', '.join(changed)}"
        elif added:
            problem = f"file(s) written beside the inputs: {', '.join(added)}"
        elif "Traceback" in sink_err.getvalue():
            problem = "a traceback was printed:\n" + sink_err.getvalue()
        else:
            problem = malformed(argv, sink_out.getvalue(), sink_err.getvalue())
    if problem is None and "--jobs" in argv:
        problem = _jobs_differ(argv, (code, sink_out.getvalue(), sink_err.getvalue()))
    return problem


def _jobs_differ(argv: list[str], result: tuple[Any, str, str]) -> str | None:
    """With --jobs the gate must print exactly what one process prints (see gate._tally_in_workers)."""
    at = argv.index("--jobs")
    single = argv[:at] + argv[at + 2:]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = gate.main(single)
    if (code, out.getvalue(), err.getvalue()) != result:
        return (f"--jobs {argv[at + 1]} differs from one process: exit {result[0]} vs {code}\n"
                f"--- with --jobs ---\n{result[1]}{result[2]}--- one process ---\n{out.getvalue()}{err.getvalue()}")
    return None


def crash_site(problem: str) -> str:
    lines = [ln.strip() for ln in problem.splitlines() if ln.strip()]
    frames = [ln for ln in lines if ln.startswith("File ") and "gate.py" in ln]
    return (frames[-1] if frames else "") + " | " + (lines[-1] if lines else problem)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="stop after this long (default 60)")
    parser.add_argument("--max-runs", type=int, default=100_000, help="stop after this many executions (default 100000)")
    parser.add_argument("--seed", type=int, default=20241130, help="random seed (default 20241130)")
    parser.add_argument("--case-seconds", type=float, default=5.0, help="per-case time limit (default 5)")
    args = parser.parse_args(argv)
    os.environ["BENCHGATE_DEBUG"] = "1"  # an exit 3 prints its traceback, so a crash names its site

    if hasattr(signal, "SIGALRM"):
        signal.signal(signal.SIGALRM, _alarm)
    # The canonical path and the sorted stream take only large files; here every runs file is offered to them,
    # so the fuzzer's small mutants reach them too (and their fallbacks, which most mutants need).
    gate._FAST_MIN_BYTES = 0
    gate._JOBS_MIN_BYTES = 0  # and to the worker processes, when a case asks for --jobs
    rnd = random.Random(args.seed)
    all_scenarios = scenarios()
    seeds = {path: path.read_bytes() for sc in all_scenarios for path in sc.files.values()}
    corpus = list(seeds.values())
    base = Path(tempfile.mkdtemp(prefix="benchgate-fuzz-"))
    executions = crashes = 0
    per_scenario: Counter[str] = Counter()
    sites: dict[str, str] = {}
    deadline = time.monotonic() + args.seconds
    try:
        while executions < args.max_runs and time.monotonic() < deadline:
            scenario = rnd.choice(all_scenarios)
            folder = base / f"case{executions % 2}"
            if folder.exists():
                shutil.rmtree(folder)
            folder.mkdir()
            target = rnd.choice(scenario.mutable)
            for name, source in scenario.files.items():
                data = seeds[source]
                if name == target:
                    mutated = mutate_json(data, rnd) if rnd.random() < 0.4 else None
                    data = mutated if mutated is not None else mutate_bytes(data, rnd, corpus)
                (folder / name).write_bytes(data)
            case_argv = scenario.argv(folder, rnd)
            problem = run_case(folder, case_argv, scenario.outputs, args.case_seconds)
            executions += 1
            per_scenario[scenario.name] += 1
            if problem is None:
                continue
            crashes += 1
            site = crash_site(problem)
            if site in sites:
                continue
            saved = Path(tempfile.mkdtemp(prefix="benchgate-fuzz-crash-", dir="/tmp" if os.path.isdir("/tmp") else None))
            for p in folder.iterdir():
                if p.is_file():
                    shutil.copy2(p, saved / p.name)
            (saved / "argv.json").write_text(json.dumps([a.replace(str(folder), str(saved)) for a in case_argv]) + "\n",
                                             encoding="utf-8")
            (saved / "problem.txt").write_text(problem, encoding="utf-8")
            sites[site] = str(saved)
            print(f"fuzz: crash in {scenario.name} ({site}); input saved in {saved}", file=sys.stderr)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"fuzz: {executions} executions, {crashes} crashes" + (f" ({len(sites)} distinct)" if crashes else ""))
    print("fuzz: executions by subcommand: " + ", ".join(f"{name} {count}" for name, count in sorted(per_scenario.items())))
    for site, saved in sorted(sites.items()):
        print(f"  {saved}: {site}")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
