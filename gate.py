#!/usr/bin/env python3
"""benchgate: a publication gate for coding-agent benchmark claims.

Before anyone quotes "78% on our 40-task suite", benchgate checks the bookkeeping
behind the number. Every task that enters the ledger must exit exactly once, as
pass, fail or unscoreable (with a reason class). The gate prints a report card
marked PUBLISHABLE, or refuses with BLOCKED and lists every finding.

Commands:
  check    gate a manifest against its attempt records (the default command)
  digest   print the task_ids_sha256 of a runs file or an ID list
  init     print a manifest template to complete (from a runs file or an import)
  freeze   freeze a task slice into a benchmark card
  verify   verify that a task slice still matches its card
  compare  paired comparison of two PUBLISHABLE ledgers over the same suite (--fail-on: a CI gate)
  rank     many PUBLISHABLE ledgers of one suite: omnibus test, pairwise tests, tied groups
  plan     how many tasks (and samples) a comparison needs to detect a difference
  import   convert a harness's results into runs.jsonl and a draft manifest (SWE-bench, Inspect
           AI, Terminal-Bench, Harbor and more: `import --help` lists every format)
  set      fill a draft manifest's fields (KEY=VALUE) and answer its to-do items (--confirm)

Exit codes:
  0  PUBLISHABLE (check, compare, rank), ok (digest, freeze, verify, import, init, plan, set)
  1  BLOCKED: one or more findings (check, compare, rank), refused (freeze, verify), or, with
     compare --fail-on, a significant regression or difference
  2  input or usage error: unreadable file, malformed JSON, wrong types,
     missing required fields; one line on stderr names the file and the line
     or field
  3  internal error: a bug in benchgate (one line asks for a report;
     BENCHGATE_DEBUG=1 shows the traceback)

The gate never writes to its inputs, never runs code from them and never
touches the network. Same inputs, byte-identical output.

Sections, in dependency order (each uses only the ones above it; tests/test_code_shape.py checks):
  Constants and errors          limits, the error type main turns into an exit code
  Typing at run time            NamedTuple and cast without the typing module
  Files                         strict JSON in, atomic writes out
  JSONL streaming               a runs file read a chunk of lines at a time
  Field checks and messages     the task-ID rule, validators, inert text for messages
  Inputs parsed once            the manifest, the card, task and ID lists as typed records
  Results and findings          what the gate computes; the findings catalogue
  Statistics                    intervals, tests, pass@k, rank's groups, plan's sizes
  The predicate language        declared metrics, parsed with ast
  The harness registry          what the gate knows of each harness (rows: Importers)
  The plan                      what one runs file is checked against
  The streaming tally           one pass over the runs file: the per-task table or the sorted stream
  One exit per task             a task's attempts settled into pass, fail or unscoreable
  Totals and judging            the exits summed, the ledger judged
  The benchmark card            freeze and verify a task slice
  One claim                     check: manifest, card, control runs, runs file, the quoted number
  compare                       two ledgers paired
  rank                          many ledgers of one suite
  Rendering                     text, JSON, Markdown and SVG; each command's renderers by format
  Importers                     harness result files into the ledger, each a row of the registry
  Drafts                        a manifest from an import or a runs file, control runs added
  The command line              argparse, the commands, main

Example:
  python3 gate.py --manifest bench.manifest.json --runs runs.jsonl
  python3 gate.py digest --runs runs.jsonl
  python3 gate.py check --manifest bench.manifest.json --runs runs.jsonl \\
      --format json --claim 72.5%
"""

from __future__ import annotations

import sys

# before anything a 3.8 interpreter would fail on with a traceback
if sys.version_info < (3, 9):  # noqa: UP036
    sys.stderr.write(f"{(sys.argv[0] or 'gate.py').replace(chr(92), '/').split('/')[-1]}: error: "
                     "benchgate needs Python 3.9 or newer; this is Python "
                     f"{sys.version_info[0]}.{sys.version_info[1]}\n")
    sys.exit(2)

import argparse
import collections
import functools
import gc
import hashlib
import itertools
import json
import math
import operator
import os
import re
import shlex
import stat
from array import array
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType

# The types mypy checks. PERF: the typing module is for mypy only (TYPE_CHECKING is true for it by
# name). Importing it, and building each NamedTuple through it (which compiles every field's
# annotation), took a fifth of the installed command's start-up; at run time NamedTuple and cast()
# are the stand-ins of the section "Typing at run time", before their first use.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Literal, NamedTuple, NoReturn, Optional, Union, cast

    Outcome = Literal["pass", "fail", "unscoreable"]
    AttemptMode = Literal["retry", "samples"]
    ControlRunRole = Literal["no_edit", "known_fix"]
    # what a ledger is gated as: the claim or one of its control runs
    Gating = Literal["claim", "no_edit", "known_fix"]
    # A task's attempts, each packed as kind | (attempt − 1) << 32 (pack_attempt): an int for one, a
    # tuple for more
    AttemptPattern = Union[int, tuple[int, ...]]
    # a cluster's tasks, as its statistics see them: (attempt pattern, how many tasks) pairs
    Profile = frozenset[tuple[AttemptPattern, int]]
    # What a record's outcome, reason, stratum and timing spell together: the key of a kind number
    # (its cluster is the task's, kept apart: a cluster a task would make a kind a task)
    RecordKind = tuple[Any, Any, Any, bool]

__version__ = "0.1.0"

#####################################################################
# Constants and errors
#####################################################################

BUCKETS: tuple[Outcome, ...] = ("pass", "fail", "unscoreable")
ATTEMPT_MODES: tuple[AttemptMode, ...] = ("retry", "samples")
CONTROL_RUN_ROLES: tuple[ControlRunRole, ...] = ("no_edit", "known_fix")
BUILTIN_REASONS = ("harness_timeout", "grader_error", "env_flake", "missing_artifact")
DEFAULT_LICENSES = ("mit", "apache-2.0", "bsd-3-clause")
DEFAULT_NOT_A_CLAIM_ABOUT = ("unseen repositories", "security behavior", "runner permanence")
TASK_FIELDS = ("task_id", "repo", "commit", "language", "edit_span", "license", "has_failing_test")
NOT_A_PRODUCT_VERDICT = "not a product verdict; read not_a_claim_about in the card"
CARD_VERSION = 1
# A line longer than this is refused rather than read whole: no real attempt record is this big.
MAX_LINE_BYTES = 8 * 1024 * 1024
# Deeper JSON nesting is refused. The gate's own limit, so a file is refused at a column the gate
# can name, on every Python version (the C decoder's own limit depends on the interpreter).
MAX_DEPTH = 500
# Whole-file reads are capped: manifests, cards, task and ID lists are small; a harness's own
# result file (an Inspect log) can be large, but not this large. Runs files are streamed.
MAX_FILE_BYTES = 64 << 20
# one harness file an importer reads whole (a run report, a log, a job result)
MAX_HARNESS_BYTES = 256 << 20
# How the user runs the gate (`python3 gate.py`, `python3 mygate.py` or `benchgate`), set by main:
# messages, drafts and recipes name the program as it was invoked.
_INVOKED = ["python3 gate.py"]


def invoked(command: str = "") -> str:
    """The program as invoked, with a command after it: `python3 gate.py digest` or `benchgate
    digest`."""
    return f"{_INVOKED[0]} {command}".rstrip()


def check_command(manifest: str, runs: str) -> str:
    """The check of a manifest and its runs file, as a shell reads it: each path quoted where it
    must be."""
    return f"{invoked()} --manifest {shlex.quote(manifest)} --runs {shlex.quote(runs)}"


# No real harness runs more attempts per task; a larger budget is an input error, not a loop.
MAX_ATTEMPT_BUDGET = 10_000
# An import writes at most this many attempt records, however many a file declares.
MAX_IMPORTED_ATTEMPTS = 10_000_000
# A declared suite of more tasks is an input error.
MAX_TASK_COUNT = 10_000_000
# compare, rank and replicates pair every declared task, one that no runs file records as a fail
# everywhere, once for each pair of systems (rank) or each replicate run: more such cells than this
# is refused (their work would grow with a count no record backs).
MAX_UNRECORDED = 100_000
# PERF: a chunk and what is made of it stay in the cache (at 1 << 20, 3-4% slower at 10^6 attempts)
_CHUNK_BYTES = 1 << 18
_LIST_LIMIT = 10  # findings name at most this many tasks, then say how many more


class GateError(Exception):
    """Bad input or usage. `main` prints it as one line and exits 2."""


class LineError(GateError):
    """Bad input at one line of a file, named as `where:line: what`; the line kept as a number."""

    def __init__(self, where: str, line: int, message: str) -> None:
        super().__init__(f"{where}:{line}: {message}")
        self.line = line


MAX_REPORTED_LINES = 20  # bad lines of one runs file named in one run; the rest are counted


class BadLines(GateError):
    """Several bad lines of one file, found in one pass: `main` prints each on its own line, then
    how many more."""

    def __init__(self, problems: Sequence[str], total: int, first: float = math.inf) -> None:
        more = total - len(problems)
        super().__init__(problems[0] if problems else "bad lines")
        self.lines = [*problems, *([f"... and {more} more bad line(s)"] if more > 0 else [])]
        self.line = first  # the first bad line's number (inf: none is known)


class LineProblems:
    """Collects the bad lines of a file as they are found: the MAX_REPORTED_LINES first in the file,
    and how many."""

    def __init__(self) -> None:
        self.shown: list[tuple[float, str]] = []  # (line number, message), in line order
        self.total = 0

    def add(self, message: str, line: float = math.inf) -> None:
        import bisect

        self.total += 1
        bisect.insort(self.shown, (line, message))
        del self.shown[MAX_REPORTED_LINES:]

    def raise_any(self, last: GateError | None = None) -> None:
        """Raise every problem found (and `last`, an error that stopped the pass), if there is one.
        """
        if last is not None:
            if not self.total:
                raise last
            self.add(str(last), last.line if isinstance(last, LineError) else math.inf)
        if self.total:
            raise BadLines([message for _, message in self.shown], self.total, self.shown[0][0])


#####################################################################
# Typing at run time: NamedTuple and cast without the typing module (start-up time)
#####################################################################

if not TYPE_CHECKING:  # PERF: see the imports; mypy reads `typing` itself
    def cast(_type, value):
        return value

    class _NamedTupleType(type):
        def __new__(cls, name, bases, namespace):
            if not bases:
                return super().__new__(cls, name, bases, namespace)
            fields = list(namespace.get("__annotations__", {}))
            defaults = [namespace[f] for f in fields if f in namespace]
            made = collections.namedtuple(name, fields, defaults=defaults,
                                          module=namespace["__module__"])
            for key, value in namespace.items():
                if key not in ("__module__", "__annotations__") and key not in made._fields:
                    setattr(made, key, value)
            return made

    class NamedTuple(metaclass=_NamedTupleType):
        pass


#####################################################################
# Files: strict JSON in, atomic writes out
#####################################################################


def _strict_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"duplicate key {key!r} in one object (the last-one-wins default "
                                 "hides tampering)")
            seen.add(key)
    return obj


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:40]} is out of range")
    return value


_DECODER = json.JSONDecoder(
    object_pairs_hook=_strict_object, parse_constant=_reject_constant, parse_float=_finite_float
)
# Attempt records parse first without the duplicate-key hook (see the JSONL section).
_FAST_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)
# the C scanners, a value at an offset
_SCAN = _FAST_DECODER.scan_once  # type: ignore[attr-defined]
_SCAN_STRICT = _DECODER.scan_once  # type: ignore[attr-defined]
# A harness's own file may hold NaN where it has no number (Inspect writes a bare NaN for an
# unscored sample); it is read as float("nan"), and an importer decides what it means where it
# matters.
_NAN_DECODER = json.JSONDecoder(object_pairs_hook=_strict_object,
                                parse_constant=lambda name: float(name), parse_float=_finite_float)


class _TooDeep(ValueError):
    """Nesting beyond MAX_DEPTH, at this offset of the text."""

    def __init__(self, offset: int) -> None:
        super().__init__("nesting is too deep")
        self.offset = offset


def _json_problem(exc: BaseException) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"invalid JSON: {exc.msg} (column {exc.colno})"
    if isinstance(exc, (RecursionError, _TooDeep)):
        return f"invalid JSON: nesting is deeper than {MAX_DEPTH} levels"
    return f"invalid JSON: {exc}"


# Patterns only error paths use are compiled on first use (re caches them), not at start-up.
_STRING = r'"(?:[^"\\]|\\.)*"?'
_NUMBER = r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?"
_KEY_COLON = r"\s*:"
_BRACKET_OR_STRING = r'"(?:[^"\\]|\\.)*"?|[\[{]|[\]}]'


def _depth_problem(text: str, start: int = 0, end: int | None = None) -> int | None:
    """Offset of the bracket that opens level MAX_DEPTH + 1, or None. Strings are skipped whole."""
    stop = len(text) if end is None else end
    if text.count("[", start, stop) + text.count("{", start, stop) <= MAX_DEPTH:
        return None  # PERF: the usual case costs two C-level counts
    depth = 0
    for match in re.compile(_BRACKET_OR_STRING, re.DOTALL).finditer(text, start, stop):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return match.start()
        elif token in "]}":
            depth -= 1
    return None


def _locate_problem(text: str) -> int:
    """Offset of the first duplicate key, NaN/Infinity, overflowing number or too-deep nesting.

    The decoder's hooks cannot see positions, so on those errors (only) this walks the text.
    """
    deep = _depth_problem(text)
    stack: list[set[str] | None] = []  # keys seen per open object; None for an array
    i = 0
    end = len(text) if deep is None else deep
    while i < end:
        ch = text[i]
        if ch == '"':
            close = re.compile(_STRING, re.DOTALL).match(text, i).end()  # type: ignore[union-attr]
            frame = stack[-1] if stack else None
            if frame is not None and re.compile(_KEY_COLON).match(text, close):
                try:
                    key = json.loads(text[i:close])
                except ValueError:
                    return i
                if key in frame:
                    return i
                frame.add(key)
            i = close
            continue
        if ch in "{[":
            stack.append(set() if ch == "{" else None)
        elif ch in "}]" and stack:
            stack.pop()
        elif text.startswith(("NaN", "Infinity", "-Infinity"), i):
            return i
        elif ch in "-0123456789":
            number = re.compile(_NUMBER).match(text, i)
            if number:
                if not math.isfinite(float(number.group())):
                    return i
                i = number.end()
                continue
        i += 1
    return 0 if deep is None else deep


def _lone_surrogate(text: str) -> int | None:
    """Offset of the first \\uXXXX escape that decodes to half a UTF-16 pair with no other half."""
    pending: int | None = None  # offset of a high surrogate escape still waiting for its low half
    last_end = -1
    for match in re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.DOTALL).finditer(text):
        code = int(match.group(1), 16) if match.group(1) else None
        adjacent = match.start() == last_end
        last_end = match.end()
        if pending is not None:
            if code is not None and 0xDC00 <= code <= 0xDFFF and adjacent:
                pending = None
                continue
            return pending
        if code is None:
            continue
        if 0xD800 <= code <= 0xDBFF:
            pending = match.start()
        elif 0xDC00 <= code <= 0xDFFF:
            return match.start()
    return pending


def _check_unicode(value: Any, text: str, where: str, line: int | None = None) -> None:
    """A \\ud800-\\udfff escape that is not half of a pair decodes to a lone surrogate: not Unicode.
    """
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        if line is None:
            found = _lone_surrogate(text)
            line = text.count("\n", 0, found) + 1 if found is not None else 1
        raise GateError(f"{where}:{line}: a string holds a lone UTF-16 surrogate "
                        "(\\ud800-\\udfff): not valid Unicode") from None


def _trailing_comma(text: str, pos: int) -> str:
    """What to do when the parser stopped at a closing bracket just after a comma (a hand edit's
    usual slip): JSON allows no trailing comma."""
    if text[pos:pos + 1] in ("}", "]") and text[:pos].rstrip().endswith(","):
        return f": a comma before this {text[pos]} (JSON allows none there): delete it"
    return ""


def parse_json(text: str, where: str, allow_nan: bool = False) -> Any:
    """Parse one JSON document strictly: no duplicate keys, NaN, Infinity, lone surrogates or deep
    nesting (`allow_nan`: a harness's file may hold NaN and Infinity, read as floats)."""
    try:
        deep = _depth_problem(text)
        if deep is not None:
            raise _TooDeep(deep)
        value = (_NAN_DECODER if allow_nan else _DECODER).decode(text)
        if "\\u" in text:
            _check_unicode(value, text, where)
        return value
    except json.JSONDecodeError as exc:
        raise GateError(f"{where}:{exc.lineno}: invalid JSON: {exc.msg} "
                        f"(column {exc.colno}){_trailing_comma(text, exc.pos)}") from None
    except (ValueError, RecursionError) as exc:
        offset = exc.offset if isinstance(exc, _TooDeep) else _locate_problem(text)
        line = text.count("\n", 0, offset) + 1
        column = offset - text.rfind("\n", 0, offset)
        raise GateError(f"{where}:{line}: {_json_problem(exc)} (column {column})") from None


# what _runs_apart cut out, under names no file can have (they hold a NUL)
_IN_MEMORY: dict[str, bytes] = {}


def open_input(path: Path) -> Any:
    """Open an input file for reading in binary, as a regular file, a pipe or a device.

    A named pipe is opened without waiting for a writer (it then reads as empty), so a FIFO
    nobody writes to cannot hang the gate. A name _runs_apart holds in memory reads its bytes.
    """
    held = _IN_MEMORY.get(str(path)) if _IN_MEMORY else None
    if held is not None:
        import io

        return io.BytesIO(held)
    try:
        if "\0" in str(path):
            raise ValueError("the path holds a NUL byte")
        if hasattr(os, "O_NONBLOCK") and stat.S_ISFIFO(os.stat(path).st_mode):
            import fcntl

            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
            return os.fdopen(fd, "rb")
        return path.open("rb")
    except OSError as exc:
        raise GateError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise GateError(f"{path!r}: cannot read: {exc}") from None


def _regular_size(handle: Any) -> int:
    """A regular file's size, else -1 (a pipe, a device, bytes held in memory)."""
    try:
        info = os.fstat(handle.fileno())
    except (OSError, ValueError):  # (io.UnsupportedOperation is both)
        return -1
    return info.st_size if stat.S_ISREG(info.st_mode) else -1


def _read_bytes(path: Path, cap: int = MAX_FILE_BYTES) -> bytes:
    """A whole file, refused beyond `cap` bytes (so /dev/zero given as a manifest ends at once).

    Read a chunk at a time: asking for cap bytes at once would allocate them, however small the
    file.
    """
    chunks: list[bytes] = []
    size = 0
    with open_input(path) as handle:
        whole = _regular_size(handle) + 1  # PERF: one read, not chunks joined (twice the memory)
        try:
            while size <= cap:
                chunk = handle.read(min(max(whole, _CHUNK_BYTES * 16), cap + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        except OSError as exc:
            raise GateError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if size > cap:
        raise GateError(f"{path}: larger than {cap // (1 << 20)} MiB: "
                        "not a file the gate reads whole")
    return b"".join(chunks)


def _decode_utf8(data: bytes, where: str, first_line: int = 1,
                 before: Callable[[bytes, int], object] | None = None) -> str:
    """`data` as text. Where it is not UTF-8, `before` (if given) first reads the whole lines
    ahead of the bad byte, so an earlier bad line is the one reported, whatever the chunk size."""
    if first_line == 1 and data.startswith(b"\xef\xbb\xbf"):
        raise GateError(f"{where}:1: starts with a byte-order mark; "
                        "save the file as UTF-8 without BOM")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        ahead = data[:data.rfind(b"\n", 0, exc.start) + 1]
        if before is not None and ahead:
            before(ahead, first_line)
        line = first_line + ahead.count(b"\n")
        raise LineError(where, line, f"not valid UTF-8 (byte 0x{data[exc.start]:02x})") from None
    return text


def _absolute(path: Path) -> Path:
    """A path made absolute and normalised (links left alone), so its parent is real."""
    return Path(os.path.abspath(path))


def _folder_name(path: Path) -> str:
    """A folder's own name, resolved (`.` given from inside it is that folder), never empty."""
    return _absolute(path).name or "run"


def _simple_yaml(path: Path) -> dict[str, str]:
    """The top-level `key: value` scalars of a small YAML file (a submission's metadata.yaml), or {}
    where there is none: no YAML parser is needed, and nothing in it is run."""
    if not path.is_file():
        return {}
    text = _decode_utf8(_read_bytes(path, 1 << 16), str(path))
    pairs = (re.match(r"([A-Za-z_][\w-]*):[ \t]*(.*?)[ \t]*$", line) for line in text.splitlines())
    return {m[1]: m[2].strip("\"'") for m in pairs
            if m and m[2] and not m[2].startswith(("|", ">"))}


def load_json_file(path: Path, label: str | None = None, cap: int = MAX_FILE_BYTES,
                   allow_nan: bool = False) -> Any:
    """Read and strictly parse a whole JSON file (manifests, cards, task lists, harness results)."""
    where = label or str(path)
    return parse_json(_decode_utf8(_read_bytes(path, cap), where), where, allow_nan)


def canonical_json(value: Any) -> bytes:
    """The card's canonical form (the benchmark-card design note's definition): json.dumps
    defaults (ensure_ascii) with sorted keys and no spaces."""
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode("utf-8")


def _same_file(a: Path, b: Path) -> bool:
    """Do two paths name one file, through links and `..`, whether or not it exists yet?"""
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


def refuse_clobber(outputs: Sequence[Path], inputs: Sequence[Path]) -> None:
    """Before anything is written: no output may be an input, or the same file as another output."""
    for index, out in enumerate(outputs):
        for source in inputs:
            if _same_file(out, source):
                raise GateError(f"{out}: is also an input ({source}); the gate never writes over "
                                "its inputs: choose another output path")
        for other in outputs[index + 1:]:
            if _same_file(out, other):
                if os.path.normpath(out) == os.path.normpath(other):
                    raise GateError(f"{out}: named as two outputs, the same file: "
                                    "give each output its own path")
                raise GateError(f"{out} and {other} are the same file: "
                                "give each output its own path")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_new_file(path: Path, text: str, force: bool) -> None:
    """Write atomically (temporary file, then rename); never over an existing file without force.

    The file gets the permissions the umask gives a new file (0644 under umask 022), not the 0600
    of a temporary file; a refused or failed write leaves nothing behind.
    """
    import tempfile

    folder = path.parent if str(path.parent) else Path(".")
    if not force and path.exists():
        raise GateError(f"{path}: exists; a frozen card is a record: pass --force to replace it")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise GateError(f"{path}: cannot write: {exc.strerror or exc}") from None
    try:
        os.chmod(temporary, 0o666 & ~_umask())
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if force:
            os.replace(temporary, path)
        else:
            os.link(temporary, path)  # fails if the path appeared meanwhile: no silent clobber
            os.unlink(temporary)
    except FileExistsError:
        os.unlink(temporary)
        raise GateError(f"{path}: exists; pass --force to replace it") from None
    except OSError as exc:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise GateError(f"{path}: cannot write: {exc.strerror or exc}") from None


#####################################################################
# JSONL streaming: one attempt record per line, a chunk of lines at a time
#
# FAST PATH. A chunk is parsed by one C-level decode of the whole chunk as a JSON array only
# when its shape proves that every line holds exactly one flat object: each line starts with
# "{" and ends with "}", the chunk has no other brace and no bracket, the array has one object
# per line, and there are as many colons as keys (so no key is repeated). Any other chunk is
# parsed line by line, which also names the bad line. Both paths give the same values for the
# same text (tests/test_json_input.py). Before either, the canonical path (see _FastPath) may prove
# and tally a whole chunk without parsing it (tests/test_canonical_path.py). `# PERF:` marks code
# that trades clarity for speed.
#####################################################################

_SKIP_BLANK = re.compile(r"[ \t\r]*").match


def _parse_chunk(text: str, line: int, where: str,
                 problems: LineProblems | None = None) -> tuple[list[Any], Sequence[int]]:
    """Parse one chunk of whole lines: the values and the line number of each."""
    lines = text.count("\n")
    if not text.endswith("\n"):
        text += "\n"
        lines += 1
    if (text.startswith("{") and text.endswith("}\n") and text.count("}\n{") == lines - 1
            and text.count("{") == lines and text.count("}") == lines and "[" not in text):
        try:
            values = _FAST_DECODER.decode("[" + text[:-1].replace("\n", ",") + "]")
        except (ValueError, RecursionError):
            values = None
        if (type(values) is list and len(values) == lines and set(map(type, values)) == {dict}
                and text.count(":") == sum(map(len, values))):
            return values, range(line, line + lines)
    return _parse_lines(text, line, where, problems)


def _parse_lines(text: str, line: int, where: str,
                 problems: LineProblems | None = None) -> tuple[list[Any], list[int]]:
    """Each line on its own, by the C scanner at its offset in the chunk.

    The first parse has no Python hooks; a line whose colons do not match its keys (a repeated
    or nested key, or a colon in a string) is parsed again by the strict decoder.
    """
    values: list[Any] = []
    numbers: list[int] = []
    size = len(text)
    pos = 0
    while pos < size:
        newline = text.find("\n", pos)
        if newline == -1:
            newline = size
        start = pos
        if text[pos] != "{":
            blank = _SKIP_BLANK(text, pos)
            start = blank.end() if blank else pos
            if start >= newline:  # a blank line
                line += 1
                pos = newline + 1
                continue
        try:
            values.append(_parse_line(text, pos, start, newline, f"{where}:{line}"))
            numbers.append(line)
        except GateError as exc:
            if problems is None:
                raise
            # a bad line is named, and the pass goes on to find the others
            problems.add(str(exc), line)
        line += 1
        pos = newline + 1
    return values, numbers


def _parse_line(text: str, pos: int, start: int, newline: int, where: str) -> Any:
    """The JSON object on the line text[pos:newline] (its first non-blank character at start): the C
    scanner's, and the strict decoder's where its colons do not match its keys."""
    try:
        deep = _depth_problem(text, start, newline)
        if deep is not None:
            raise GateError(f"{where}: invalid JSON: nesting is deeper than {MAX_DEPTH} levels "
                            f"(column {deep - pos + 1})")
        value, end = _SCAN(text, start)
        if end > newline:
            raise GateError(f"{where}: the record continues past the end of its line (one JSON "
                            "object per line)")
        if type(value) is not dict or text.count(":", start, end) != len(value):
            value, end = _SCAN_STRICT(text, start)
    except StopIteration as stop:  # (its value: where a value was expected)
        at = stop.value if type(stop.value) is int else start
        if at > start and _at_the_end(text, at, newline):
            raise GateError(_cut_short(where, pos, newline)) from None
        raise GateError(f"{where}: invalid JSON: expecting a value (column {at - pos + 1})"
                        ) from None
    except json.JSONDecodeError as exc:
        if _at_the_end(text, exc.pos, newline):  # an object (or a string in it) still open there
            raise GateError(_cut_short(where, pos, newline)) from None
        raise GateError(f"{where}: invalid JSON: {exc.msg} (column {exc.pos - pos + 1})") from None
    except (ValueError, RecursionError) as exc:
        raise GateError(f"{where}: {_json_problem(exc)}") from None
    if end != newline and text[end:newline].strip(" \t\r"):
        raise GateError(f"{where}: extra data after the JSON object (one record per line)")
    return value


class Parsed(NamedTuple):
    """One chunk of a JSONL file, parsed: the values of its lines, each one's line number, and the
    chunk's text."""

    values: list[Any]
    numbers: Sequence[int]
    text: str


def _at_the_end(text: str, at: int, newline: int) -> bool:
    """Is offset `at` at the end of the line text[:newline] or past it (but for its blanks and a
    carriage return)?"""
    return at >= newline or not text[at:newline].strip()


def _cut_short(where: str, pos: int, newline: int) -> str:
    """What to say of a line (text[pos:newline]) that ends inside its record."""
    return (f"{where}: invalid JSON: the line ends inside its record (column {newline - pos + 1}): "
            "is it cut short? one whole JSON object a line")


def iter_jsonl_batches(path: Path, hasher: Any = None, problems: LineProblems | None = None,
                       fast: Callable[[bytes], int] | None = None) -> Iterator[Parsed]:
    """Yield each chunk Parsed (a chunk a canonical path does not take); memory stays at one
    chunk. With `problems`, a line that is not a JSON object is added there and skipped, instead of
    stopping the pass. With `fast`, a chunk it takes (returns its number of lines for: it proved and
    consumed the whole chunk) is not parsed."""
    where = str(path)
    with open_input(path) as handle:
        chunks = _Chunks(handle, where)
        for data in chunks:
            if hasher is not None:
                hasher.update(data)
            if fast is not None:
                chunks.held = fast(data)
                if chunks.held:
                    continue
            text = _decode_utf8(data, where, chunks.line, lambda lines, at: _parse_text(
                lines.decode("utf-8"), at, where, problems))
            values, numbers = _parse_text(text, chunks.line, where, problems)
            yield Parsed(values, numbers, text)


def _parse_text(text: str, line: int, where: str, problems: LineProblems | None
                ) -> tuple[list[Any], Sequence[int]]:
    """A chunk's lines parsed, and each value's strings held to the unicode rule (a lone surrogate
    escape is an error on its line)."""
    values, numbers = _parse_chunk(text, line, where, problems)
    if "\\u" not in text:
        return values, numbers
    kept: list[tuple[Any, int]] = []
    for value, number in zip(values, numbers):
        try:
            _check_unicode(value, text, where, number)
            kept.append((value, number))
        except GateError as exc:
            if problems is None:
                raise
            # and the value is not passed on: one error a line
            problems.add(str(exc), number)
    if len(kept) < len(values):
        return [v for v, _ in kept], [n for _, n in kept]
    return values, numbers


class _Chunks:
    """The next `size` bytes of an open file (all of it by default) in chunks of whole lines
    (iterate it); a line past MAX_LINE_BYTES is an error. `line` is the number of the current
    chunk's first line (counted from where the handle stood). A chunk's newlines are counted when
    the next is read, unless its reader set `held` to the number of lines it held. PERF: the
    canonical path knows that number without counting (a tenth of its time at 1 ns a byte)."""

    def __init__(self, handle: Any, where: str, size: float = math.inf) -> None:
        self.handle, self.where, self.size = handle, where, size
        self.line = 1
        self.held = 0

    def __iter__(self) -> Iterator[bytes]:
        while self.size > 0:
            data = self.read()
            if not data:
                return
            self.held = 0
            yield data
            self.size -= len(data)
            self.line += self.held or data.count(b"\n") + (not data.endswith(b"\n"))

    def read(self) -> bytes:
        """The next chunk: up to _CHUNK_BYTES, and the rest of its last line."""
        try:
            data: bytes = self.handle.read(int(min(_CHUNK_BYTES, self.size)))
            if data and not data.endswith(b"\n"):
                data += self.handle.readline(MAX_LINE_BYTES + 1)
                # the chunk's last line, whole: what the chunk held of it and what readline added,
                # less its newline (PERF: measured in place, the chunk not copied)
                end = len(data) - data.endswith(b"\n")
                if end - data.rfind(b"\n", 0, end) - 1 > MAX_LINE_BYTES:
                    last = self.line + data.count(b"\n", 0, end)
                    raise LineError(self.where, last, f"line is longer than {MAX_LINE_BYTES} bytes")
        except OSError as exc:
            raise GateError(f"{self.where}: cannot read: {exc.strerror or exc}") from None
        return data


def iter_jsonl(path: Path, hasher: Any = None) -> Iterator[tuple[int, Any]]:
    """Yield (line number, value) for each non-blank line of a JSONL file."""
    for values, numbers, _ in iter_jsonl_batches(path, hasher):
        yield from zip(numbers, values)


#####################################################################
# Field checks and messages: one task-ID rule, one validator family, one dialect, inert text
#
# Every message reads "<where>: <field>: expected <what>, got <what it is>", where what it is
# comes from _type_name ("the number 5", "the string 'x'", "null", "a list", ...).
#####################################################################


def _type_name(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"the string {value[:40]!r}"
    if isinstance(value, int) and value.bit_length() > 128:
        return "a number too large for any count"  # repr() of a huge int is slow, or refused
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _is_int(value: object) -> bool:
    return type(value) is int  # not bool: in a ledger, true is not the integer 1


def _is_number(value: object) -> bool:
    """A JSON number the gate can compute with: a float, or an int a float can hold (10**400 is
    not a number any figure could be)."""
    return type(value) is float or (isinstance(value, int) and type(value) is int
                                    and -sys.float_info.max <= value <= sys.float_info.max)


TASK_ID_RULE = "a non-empty printable string without surrounding spaces"
_CLUSTER_RULE = f"a cluster name ({TASK_ID_RULE})"


def is_task_id(value: object) -> bool:
    """The one task-ID rule (also applied to a card task's repo, commit, language and license)."""
    return type(value) is str and value != "" and value == value.strip() and value.isprintable()


def _all_task_ids(values: Sequence[object]) -> bool:
    """Does every value pass is_task_id? The same rule on a whole list in a few C-level passes
    (PERF: a manifest listing 10^6 ids spent a second on one Python call an id). Once the joined
    text is printable, the only whitespace it holds is the space (every other is not printable), so
    an empty id or one with surrounding whitespace shows as a separator beside a separator, a space
    or an end; the separator is \x1f, which no printable id holds."""
    if not values:
        return True
    if not set(map(type, values)) <= {str}:  # PERF: in C
        return False
    texts = cast("Sequence[str]", values)
    if not "".join(texts).isprintable():
        return False
    joined = "\x1f" + "\x1f".join(texts) + "\x1f"
    return not any(part in joined for part in ("\x1f\x1f", " \x1f", "\x1f "))


# any JSON value, in any object of a manifest or card: the gate never reads it
FREE_FORM_KEY = "notes"
USER_PREFIX = "x-"  # keys that start with this are user data too


# PERF: near_miss normalises the same known words for every new key
@functools.lru_cache(maxsize=1024)
def _normal_key(key: str) -> str:
    return re.sub(r"[\s_\-]+", "", key).casefold()


def _edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment distance (a transposition counts once), or limit + 1 if above limit.
    """
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, other in enumerate(b, 1):
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (char != other))
            if i > 1 and j > 1 and char == b[j - 2] and a[i - 2] == other:
                row[j] = min(row[j], previous2[j - 2] + 1)
        if min(row) > limit:
            return limit + 1
        previous2, previous = previous, row
    return previous[-1]


if TYPE_CHECKING:  # a known word list prepared for near_miss (_near_index)
    NearIndex = tuple[dict[str, str], dict[int, list[tuple[str, int, frozenset[str]]]],
                      frozenset[str]]


@functools.lru_cache(maxsize=64)
def _near_index(known: tuple[str, ...]) -> NearIndex:
    """A known word list prepared once for near_miss: the first word of each normal form; the
    words by length, each with its edit limit and its characters; and every character any of them
    has."""
    normals: dict[str, str] = {}
    by_length: dict[int, list[tuple[str, int, frozenset[str]]]] = {}
    for candidate in known:
        normals.setdefault(_normal_key(candidate), candidate)
        limit = 2 if len(candidate) >= 6 else 1
        by_length.setdefault(len(candidate), []).append((candidate, limit, frozenset(candidate)))
    return normals, by_length, frozenset("".join(known))


def near_miss(word: str, known: Iterable[str]) -> str | None:
    """The known word this one is probably a typo of: equal but for case, `-`, `_` and spaces, or
    within one edit (two for words of six letters or more); None when it is not close to any (or
    is one)."""
    known = tuple(known)
    if len(word) > 64 or word in known:
        return None
    normals, by_length, alphabet = _near_index(known)
    same = normals.get(_normal_key(word))
    if same is not None:
        return same
    best: tuple[int, str] | None = None
    letters = frozenset(word)
    # PERF: each character no known word has is an edit (a key with a serial number)
    if len(letters - alphabet) > 2:
        return None
    nearby = (entry for size in range(len(word) - 2, len(word) + 3)
              for entry in by_length.get(size, ()))
    for candidate, limit, other in nearby:
        if abs(len(word) - len(candidate)) > limit:
            continue
        # PERF: an edit brings in at most one character the other word lacks, so the characters one
        # word has and the other does not bound the edit distance from below: most keys are ruled
        # out before the alignment
        if len(letters - other) > limit or len(other - letters) > limit:
            continue
        distance = _edit_distance(word, candidate, limit)
        if distance <= limit and (best is None or (distance, candidate) < best):
            best = (distance, candidate)
    return best[1] if best else None


def did_you_mean(word: str, known: Sequence[str]) -> str:
    """` (did you mean 'x'?)` for the closest known word, or an empty string."""
    import difflib

    close = near_miss(word, known) or next(iter(difflib.get_close_matches(word, known, n=1,
                                                                          cutoff=0.6)), None)
    return f" (did you mean {close!r}?)" if close else ""


def _expected(where: str, expected: str, value: object) -> NoReturn:
    """The one refusal of a wrongly typed value: `where` names the file and the field or line."""
    raise GateError(f"{where}: expected {expected}, got {_type_name(value)}")


def _obj(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        _expected(where, "an object", value)
    return value


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        _expected(where, "a list", value)
    return value


def _str(value: object, where: str) -> str:
    if not isinstance(value, str):
        _expected(where, "a string", value)
    return value


def _int(value: object, where: str, minimum: int | None = None) -> int:
    if not _is_int(value) or (minimum is not None and cast(int, value) < minimum):
        _expected(where, "an integer" if minimum is None else f"an integer >= {minimum}", value)
    return cast(int, value)


def _task_id(value: object, where: str) -> str:
    if not is_task_id(value):
        _expected(where, f"a task ID ({TASK_ID_RULE})", value)
    return cast(str, value)


def _sub(value: object) -> dict[str, Any]:
    """A nested object of a harness file, or {} where it holds something else (or nothing)."""
    return value if isinstance(value, dict) else {}


def _preview(ids: Iterable[str], limit: int = 5) -> str:
    items = sorted(ids)
    shown = ", ".join(repr(x) for x in items[:limit])
    return shown + (f", ... ({len(items)} in all)" if len(items) > limit else "")


def _kept(source: Mapping[str, Any], keys: Iterable[str],
          test: Callable[[object], bool] = lambda value: value is not None) -> dict[str, object]:
    """The keys of `keys` whose value in `source` passes `test` (is not None), in that order."""
    return {key: source.get(key) for key in keys if test(source.get(key))}


def _id_list(container: Mapping[str, object], key: str, where: str) -> list[str]:
    """A list of unique task ids; duplicates are an error (the harnesses write sets)."""
    ids: list[str] = []
    seen: set[str] = set()
    for i, item in enumerate(_list(container[key], f"{where}.{key}")):
        tid = _task_id(item, f"{where}.{key}[{i}]")
        if tid in seen:
            raise GateError(f"{where}.{key}[{i}]: duplicate id {tid!r}")
        seen.add(tid)
        ids.append(tid)
    return ids


def _memberships(lists: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """Task -> the lists that name it, in the order of `lists`: one pass, not one scan per task."""
    member: dict[str, list[str]] = {}
    for key, ids in lists.items():
        for tid in ids:
            member.setdefault(tid, []).append(key)
    return member


def _seconds_between(start: object, end: object) -> float | None:
    """Seconds from one ISO-8601 timestamp to another (`Z` or an offset, or both naive), or None."""
    from datetime import datetime

    if not isinstance(start, str) or not isinstance(end, str):
        return None
    try:
        began, ended = (datetime.fromisoformat(t.strip().replace("Z", "+00:00"))
                        for t in (start, end))
        seconds = (ended - began).total_seconds()
    except (ValueError, TypeError):  # TypeError: one naive, one aware
        return None
    return round(seconds, 3) if 0 <= seconds < 1e9 else None


def _the_file(path: Path, pattern: str, what: str) -> Path:
    """FILE itself, or the one file in folder FILE (or below it) whose name matches `pattern`."""
    if not path.exists():
        raise GateError(f"{path}: cannot read: no such file or folder")
    if not path.is_dir():
        return path
    found = sorted(p for p in path.rglob(pattern) if p.is_file())
    if len(found) != 1:
        listed = f" ({_preview(str(p) for p in found)})" if found else ""
        raise GateError(f"{path}: {len(found)} {pattern} files in the folder: give the {what} "
                        f"itself{listed}")
    return found[0]


def _jsonl_objects(path: Path) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """(line number, `<path>:<line>` for messages, the line's object) of a JSON Lines file."""
    for number, value in iter_jsonl(path):
        yield number, f"{path}:{number}", _obj(value, f"{path}:{number}")


class _Fields:
    """Typed access to a JSON object, with errors that name the file and field."""

    def __init__(self, obj: Any, where: str, path: str = "") -> None:
        self.where = where
        self.path = path
        if not isinstance(obj, dict):
            _expected(f"{where}: {path or 'top level'}", "a JSON object", obj)
        self.obj: dict[str, Any] = obj

    def name(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def fail(self, key: str, problem: str) -> NoReturn:
        raise GateError(f"{self.where}: {self.name(key)}: {problem}")

    def has(self, key: str) -> bool:
        return key in self.obj

    def get(self, key: str, default: Any = None) -> Any:
        return self.obj.get(key, default)

    def required(self, key: str) -> Any:
        if key not in self.obj:
            self.fail(key, "required field is missing")
        return self.obj[key]

    def expect(self, key: str, expected: str) -> NoReturn:
        _expected(f"{self.where}: {self.name(key)}", expected, self.obj.get(key))

    def string(self, key: str, default: str | None = None) -> str:
        """A non-empty string; optional when a default is given."""
        if default is not None and key not in self.obj:
            return default
        value = self.required(key)
        if not isinstance(value, str) or not value.strip():
            self.expect(key, "a non-empty string")
        return value

    def optional_string(self, key: str) -> str | None:
        return self.string(key) if key in self.obj else None

    def text(self, key: str) -> str | None:
        """Any string, or absent."""
        value = self.obj.get(key)
        if value is not None and not isinstance(value, str):
            self.expect(key, "a string")
        return value

    def choice(self, key: str, options: Sequence[str], default: str | None = None) -> str:
        value = self.obj.get(key, default) if default is not None else self.required(key)
        if value not in options:
            hint = did_you_mean(value, options) if isinstance(value, str) else ""
            self.fail(key, f"expected {' or '.join(repr(o) for o in options)}, got "
                           f"{_type_name(value)}{hint}")
        return cast(str, value)

    def closed(self, known: Sequence[str]) -> None:
        """A closed object: every key is one the gate reads, `notes`, or starts with `x-`."""
        for key in self.obj:
            if key not in known and key != FREE_FORM_KEY and not key.startswith(USER_PREFIX):
                raise GateError(
                    f"{self.where}: {self.name(key)}: unknown key{did_you_mean(key, known)}; the "
                    f"keys here are {', '.join(known)}; put your own data under {FREE_FORM_KEY!r} "
                    f"or a key starting with {USER_PREFIX!r}")

    def open_keys(self, known: Sequence[str]) -> None:
        """An object open by design (an envelope describes any instrument): any key is welcome,
        except one so close to a key the gate reads that it is surely a typo of it."""
        for key in self.obj:
            close = (near_miss(key, known) if key not in known and not key.startswith(USER_PREFIX)
                     else None)
            if close is not None:
                self.fail(key, f"not a key the gate reads, and close to {close!r}: did you mean "
                               f"{close!r}? (rename it, or start your own keys with "
                               f"{USER_PREFIX!r})")

    def flag(self, key: str, default: bool | None = None) -> bool:
        value = self.obj.get(key, default) if default is not None else self.required(key)
        if not isinstance(value, bool):
            self.expect(key, "true or false")
        return value

    def integer(self, key: str, minimum: int, default: int | None = None,
                maximum: int | None = None) -> int:
        if key not in self.obj and default is not None:
            return default
        value = self.required(key)
        if not _is_int(value) or value < minimum or (maximum is not None and value > maximum):
            self.expect(key, f"an integer >= {minimum}"
                        + (f" and <= {maximum:,}" if maximum is not None else ""))
        return int(value)

    def number(self, key: str, minimum: float, maximum: float | None = None) -> float | None:
        if key not in self.obj:
            return None
        value = self.obj[key]
        if not _is_number(value) or value < minimum or (maximum is not None and value > maximum):
            bound = f" and <= {maximum:g}" if maximum is not None else ""
            self.expect(key, f"a number >= {minimum:g}{bound}")
        return float(value)

    def child(self, key: str) -> _Fields:
        return _Fields(self.required(key), self.where, self.name(key))

    def optional_child(self, key: str) -> _Fields | None:
        return self.child(key) if key in self.obj else None

    def items(self, key: str, required: bool = True) -> list[Any]:
        if not required and key not in self.obj:
            return []
        value = self.required(key)
        if not isinstance(value, list):
            self.expect(key, "a list")
        return value

    def entries(self, key: str, required: bool = True) -> Iterator[_Fields]:
        """The objects of a list, each with its own path (`controls[2]`)."""
        for index, item in enumerate(self.items(key, required)):
            yield _Fields(item, self.where, f"{self.name(key)}[{index}]")

    def strings(self, key: str) -> tuple[str, ...]:
        values = self.items(key, required=False)
        if not _all_task_ids(values):
            for index, value in enumerate(values):
                if not is_task_id(value):
                    _expected(f"{self.where}: {self.name(key)}[{index}]", TASK_ID_RULE, value)
        return tuple(values)


# Output is inert: every string that came from an input passes through one escaping function for its
# format before it is printed. Text shows every non-printable character as an escape, so no input
# can start a line of its own or move the cursor; Markdown escapes what would start markup; SVG
# escapes what XML gives meaning to. JSON needs none beyond json.dumps.


def _escape_char(char: str) -> str:
    code = ord(char)
    special = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
    if char in special:
        return special[char]
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str) -> str:
    """Text as a terminal may print it: control, format and separator characters shown as escapes.
    """
    if text.isprintable():  # PERF: the usual case, in C
        return text
    return "".join(char if char.isprintable() else _escape_char(char) for char in text)


#####################################################################
# Inputs parsed once: the manifest, the card, task lists and ID lists as typed records
#####################################################################


# The manifest's schema. Closed objects accept exactly these keys (plus FREE_FORM_KEY and
# USER_PREFIX keys); the envelope is open, but a near miss of a key the gate reads is refused.
MANIFEST_KEYS = ("claim_id", "dataset", "controls", "control_runs", "envelope", "attempt_budget",
                 "attempt_mode",
                 "reason_classes", "metrics", "rerun_recipe", "run_id", "replicates", "draft",
                 "provenance", "system", "max_unscoreable", "confirmed")
DATASET_KEYS = ("name", "task_count", "task_ids_sha256", "task_ids", "strata", "tasks", "card",
                "card_sha256", "subset")
SUBSET_KEYS = ("of", "selection")
# How an import made the ledger (written by `import --draft-manifest`): the report shows the choices
# that changed a verdict (verdict_mapping) beside the headline, and where the declared set came
# from.
PROVENANCE_KEYS = ("harness", "harness_version", "files", "declared_from", "verdict_mapping",
                   "stated", "command", "replaced", "runs", "options", "importer", "ledger",
                   "instrument", "one_instrument", "declared_set", "system_declared",
                   "exceptions")
# What binds a ledger to the import that wrote it: its sha256, the runs it holds, its path from
# the manifest's folder, and how its attempts read (samples or retries: the one reading that turns
# a task's attempts into its verdict).
LEDGER_KEYS = ("sha256", "run_ids", "path", "attempt_mode")
# What a control run's entry records of its import: the same bindings as the claim's.
CONTROL_PROVENANCE_KEYS = ("importer", "options", "instrument", "ledger", "files", "command")
CONTROL_KEYS = ("task_id", "expected", "role")
CONTROL_RUN_KEYS = ("role", "runs", "max_pass_rate", "min_pass_rate", "provenance")
METRIC_KEYS = ("name", "numerator", "denominator", "unit", "headline")
# The run envelope must name the instrument (the outcome-ledger design note's four fields).
ENVELOPE_REQUIRED = ("runner", "network", "wall_clock_s_per_task", "toolchain_sha")
# What each required envelope field holds, as a draft asks for it.
ENVELOPE_HELP = {
    "runner": "where the harness ran (local-docker, a CI runner, a cloud sandbox)",
    "network": "the network policy the tasks ran under (off, allowlist, open)",
    "wall_clock_s_per_task": "a number: the per-task time limit in seconds the harness enforced "
                             "(check verifies every attempt's wall_clock_s against it), or "
                             "{\"not_recorded\": \"why\"} where the files do not record it",
    "toolchain_sha": "a digest of the toolchain (the harness's commit or image digest)",
}
# Envelope keys that name what is measured, not what measures it: they belong under `system`.
SYSTEM_KEYS = ("agent", "agent_name", "agent_version", "agent_kwargs", "model", "model_name",
               "model_args")
# The attrition ceiling: the largest share of the claim's verdicts that may be lost to unscoreable
# exits before the claim is BLOCKED. At 0.2 the lost verdicts could move the headline by up to 20
# points, more than the whole 95% interval of a 100-task suite (about +-0.1): past it the figure
# measures the harness's failures more than the system. A manifest may lower it, or raise it to at
# most MAX_UNSCOREABLE_LIMIT.
DEFAULT_MAX_UNSCOREABLE = 0.2
MAX_UNSCOREABLE_LIMIT = 0.5
CONTROL_ROLES = ("negative", "positive")
# Control-run bounds that no plausibly broken harness could trip are refused: a no-edit run may
# pass at most half its tasks, a known-fix run must pass at least half, and the ceiling must sit
# below the floor.
NO_EDIT_CEILING_LIMIT = 0.5
KNOWN_FIX_FLOOR_LIMIT = 0.5
# a placeholder word stands alone or before a colon (`TODO: name it`, `TBD`); `todo-app` is a real
# name
_PLACEHOLDER = r"\s*(?:TODO|TBD|FIXME|XXX)(?:\s*:|\s|$)|\s*replace[-_ ]with\b|\s*<[^<>]*>\s*$"


class Control(NamedTuple):
    task_id: str
    expected: Outcome
    role: str


class Provenance(NamedTuple):
    """What an import recorded of how a ledger was made, as check binds the claim's parts with it:
    the ledger it wrote (sha256, runs, path), the verdict definition (every option that changes a
    verdict), the instrument (harness, version, commit) and where the declared set came from."""

    importer: str | None = None  # the registry row that read the files
    ledger_sha256: str | None = None
    run_ids: tuple[str, ...] = ()
    ledger_path: str | None = None  # from the manifest's folder
    options: Mapping[str, Any] | None = None  # the verdict definition
    instrument: Mapping[str, Any] | None = None
    by_import: bool = False  # it names an import's files or command
    one_instrument: str | None = None  # runs at several versions the user declared one instrument
    set_found: bool = False  # the declared set is only what the files held
    system_declared: str | None = None  # the system the user declared (--agent, --model)
    ledger_mode: str | None = None  # how the import read the ledger's attempts
    # the harness's exception types of the unscoreable attempts, and how many each
    exceptions: Mapping[str, int] = MappingProxyType({})


class ControlRun(NamedTuple):
    role: ControlRunRole
    runs: Path
    max_pass_rate: float | None
    min_pass_rate: float | None
    provenance: Provenance | None = None  # where the run came from, if its import recorded it

    @property
    def bound(self) -> float:
        return cast(float, self.max_pass_rate if self.role == "no_edit" else self.min_pass_rate)


class AttemptContract(NamedTuple):
    """What an attempt is and how many a task gets: one place to ask instead of testing the mode.

    Retry mode: a task passes if any attempt within the budget passed, and attempts stop at a pass.
    Samples mode: every task runs `budget` samples; a task's score is its passing samples out of
    `budget`, and pass@1 is their mean over tasks."""

    mode: AttemptMode
    budget: int

    @property
    def samples(self) -> bool:
        return self.mode == "samples"

    @property
    def units(self) -> int:
        """What one task counts for in a pooled or paired rate: its samples, or 1 (its exit)."""
        return self.budget if self.mode == "samples" else 1


class DeclaredIds:
    """A suite's declared task IDs, distinct and sorted, held as their text, one a line between
    newlines (PERF: 10^6 IDs as strings and a set of them took 3.4x the memory of a whole check).
    A sorted ledger is checked against it a slice at a time (run_at), its digest hashes the text,
    and a set is built only for the per-task table (ids)."""

    def __init__(self, text: str, count: int) -> None:
        self.text, self.count = text, count  # text: "\n" + the IDs joined by "\n" + "\n"
        self._set: frozenset[str] | None = None

    @classmethod
    def of(cls, ids: Collection[str]) -> DeclaredIds:
        distinct = sorted(set(ids))
        return cls("\n" + "\n".join(distinct) + "\n", len(distinct))

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[str]:
        return iter(self.text[1:-1].split("\n") if self.count else ())

    def __contains__(self, tid: object) -> bool:
        if self._set is not None:
            return tid in self._set
        return type(tid) is str and f"\n{tid}\n" in self.text

    def ids(self) -> frozenset[str]:
        if self._set is None:
            self._set = frozenset(self.text[1:-1].split("\n")) if self.count else frozenset()
        return self._set

    def digest(self) -> str:
        """ids_digest of these IDs: the text between its first and last newline, hashed a slice at
        a time."""
        digest, step = hashlib.sha256(), 1 << 20
        for start in range(1, len(self.text) - 1, step):
            digest.update(self.text[start:min(start + step, len(self.text) - 1)].encode("utf-8"))
        return digest.hexdigest()

    def run_at(self, joined: str, at: int | None) -> int | None:
        """Where IDs in order (`joined` by newlines) end in the text when they are the next declared
        ones from offset `at` (a newline; None: from wherever the first of them is), else None."""
        if at is None:
            first = joined.split("\n", 1)[0]
            at = self.text.find(f"\n{first}\n")
            if at < 0:
                return None
        end = at + 1 + len(joined)
        follows = self.text.startswith(joined, at + 1) and self.text[end:end + 1] == "\n"
        return end if follows else None


class MetricSpec(NamedTuple):
    name: str
    numerator: str
    denominator: str
    unit: str
    headline: bool


class Manifest(NamedTuple):
    path: Path
    sha256: str
    claim_id: str
    dataset_name: str
    task_count: int
    # lower-case hex when it is a sha256 (a `sha256:` prefix and upper case are accepted)
    task_ids_sha256: str
    task_ids: DeclaredIds | None
    strata: dict[str, int] | None
    controls: tuple[Control, ...]
    control_runs: tuple[ControlRun, ...]
    envelope: dict[str, Any]
    wall_clock_limit: float | None  # envelope.wall_clock_s_per_task
    attempt_budget: int | None
    attempt_mode: AttemptMode
    reasons: frozenset[str]
    metrics: tuple[MetricSpec, ...]
    rerun_recipe: str | None
    tasks_path: Path | None
    card_path: Path | None
    card_sha256: str | None = None
    run_id: str | None = None  # the run the claim publishes
    # or: the runs it publishes together, as replicates of one another
    replicates: tuple[str, ...] = ()
    # (tasks in the whole dataset, if known; how these were chosen)
    subset: tuple[int | None, str] | None = None
    # `system`: what is measured (agent, model, ...), not the instrument
    measured: dict[str, Any] | None = None
    max_unscoreable: float = DEFAULT_MAX_UNSCOREABLE  # the attrition ceiling
    verdict_mapping: tuple[str, ...] = ()  # provenance: the import's choices that changed a verdict
    declared_from: str | None = None  # provenance: where the declared set came from
    provenance: Provenance | None = None  # what binds the claim's parts (None: no import behind it)
    notes: tuple[str, ...] = ()  # the author's caveats (`notes`), printed on the card
    # `confirmed`: the to-do items the author confirmed (`set --confirm WORD`): word -> item
    confirmed: Mapping[str, str] = MappingProxyType({})
    draft: bool = False  # written by `import --draft-manifest` and not yet completed
    placeholders: tuple[str, ...] = ()  # fields still holding a TODO-style placeholder


def stated_unknown(value: object) -> str | None:
    """The reason given where a value is honestly unknown: {"not_disclosed": "why"} or
    {"not_recorded": "why"}; None for any other value."""
    if isinstance(value, dict) and len(value) == 1:
        (key, why), = value.items()
        if key in ("not_disclosed", "not_recorded") and isinstance(why, str) and why.strip():
            return f"{key.replace('_', ' ')}: {why}"
    return None


def _inside(base: Path, relative: str, where: str, field_name: str) -> Path:
    """Resolve a manifest-relative path; one that escapes the manifest's folder is refused."""
    if not relative or os.path.isabs(relative) or "\0" in relative:
        raise GateError(f"{where}: {field_name}: expected a path relative to the manifest's "
                        f"folder, got {relative!r}")
    try:
        root = base.resolve()
        target = (root / relative).resolve()
        # from Python 3.13 resolve() no longer raises on a symlink loop; stat does
        os.stat(root / relative)
    except FileNotFoundError:
        pass  # a missing file is named where it is read
    except (OSError, RuntimeError) as exc:  # a symlink loop is a RuntimeError before Python 3.13
        raise GateError(f"{where}: {field_name}: {relative!r} cannot be resolved: "
                        f"{getattr(exc, 'strerror', None) or exc}") from None
    if target != root and root not in target.parents:
        raise GateError(f"{where}: {field_name}: {relative!r} escapes the manifest's folder")
    return target


def _first_repeat(items: Collection[str]) -> str | None:
    """The smallest item that occurs twice, in one pass (PERF: a set first; counted only when
    there is a repeat to name)."""
    if len(set(items)) == len(items):
        return None
    counts = Counter(items)
    repeated = [item for item, count in counts.items() if count > 1]
    return min(repeated) if repeated else None


def normal_digest(text: str) -> str:
    """A sha256 as the gate compares it: lower-case hex, an optional `sha256:` prefix dropped."""
    bare = text[7:] if text[:7].lower() == "sha256:" else text
    return bare.lower() if re.fullmatch(r"[0-9a-fA-F]{64}", bare) else text


def _digest_field(fields: _Fields, key: str) -> str:
    value = fields.required(key)
    if not isinstance(value, str):
        fields.expect(key, "a string")
    return normal_digest(value)


def is_placeholder(value: object) -> bool:
    """A value nobody filled in: TODO, TBD, FIXME, `replace-with-…` or `<…>`."""
    return isinstance(value, str) and re.match(_PLACEHOLDER, value, re.IGNORECASE) is not None


def _load_control(entry: _Fields) -> Control:
    entry.closed(CONTROL_KEYS)
    task_id = entry.string("task_id")
    expected = cast("Outcome", entry.choice("expected", ("pass", "fail")))
    role = entry.choice("role", CONTROL_ROLES)
    if (role, expected) in (("negative", "pass"), ("positive", "fail")):
        entry.fail("expected",
                   f"a {role} control must expect {'fail' if role == 'negative' else 'pass'}")
    return Control(task_id, expected, role)


def _load_control_run(entry: _Fields, folder: Path) -> ControlRun:
    entry.closed(CONTROL_RUN_KEYS)
    role = cast("ControlRunRole", entry.choice("role", CONTROL_RUN_ROLES))
    runs = _inside(folder, entry.string("runs"), entry.where, entry.name("runs"))
    bound_key, other = ("max_pass_rate",
                        "min_pass_rate") if role == "no_edit" else ("min_pass_rate",
                                                                    "max_pass_rate")
    if entry.has(other):
        entry.fail(other, f"a {role} run is bounded by {bound_key}, not {other}")
    bound = entry.number(bound_key, 0.0, 1.0)
    if bound is None:
        entry.fail(bound_key, f"required for a {role} control run")
    if role == "no_edit" and bound > NO_EDIT_CEILING_LIMIT:
        entry.fail(bound_key, f"{bound:g} makes the control unable to fail: a no-edit run that "
                              f"passes more than {NO_EDIT_CEILING_LIMIT:g} of its tasks proves the "
                              f"harness broken; use at most {NO_EDIT_CEILING_LIMIT:g}")
    if role == "known_fix" and bound < KNOWN_FIX_FLOOR_LIMIT:
        entry.fail(bound_key, f"{bound:g} makes the control unable to fail: a known-fix run that "
                              f"passes fewer than {KNOWN_FIX_FLOOR_LIMIT:g} of its tasks proves "
                              f"the harness broken; use at least {KNOWN_FIX_FLOOR_LIMIT:g}")
    fields = entry.optional_child("provenance")
    provenance = _load_provenance(fields, CONTROL_PROVENANCE_KEYS) if fields else None
    return ControlRun(role, runs, bound, None, provenance) if role == "no_edit" else \
        ControlRun(role, runs, None, bound, provenance)


def _exception_counts(fields: _Fields) -> Mapping[str, int]:
    """provenance.exceptions: exception type (and the verdict, where not unscoreable) -> how many
    attempts raised it."""
    child = fields.optional_child("exceptions")
    if child is None:
        return {}
    return {key: child.integer(key, 1) for key in child.obj}


# What only an import writes into a provenance: a block holding any of them names an import, so a
# binding it lacks is a finding, never a silent "not bound".
_IMPORT_WRITTEN = ("command", "files", "importer", "options", "instrument", "ledger",
                   "declared_set")


def _load_provenance(fields: _Fields, keys: Sequence[str]) -> Provenance:
    """A provenance block: closed, and each binding it records typed."""
    fields.closed(keys)
    ledger = fields.optional_child("ledger")
    if ledger is not None:
        ledger.closed(LEDGER_KEYS)
        if not re.fullmatch(r"[0-9a-f]{64}", _digest_field(ledger, "sha256")):
            ledger.expect("sha256", "the sha256 of the ledger the import wrote (64 hex digits)")
    options, instrument = fields.optional_child("options"), fields.optional_child("instrument")
    declared_set = fields.get("declared_set")
    if declared_set is not None:
        fields.choice("declared_set", ("declared", "found"))
    return Provenance(
        importer=fields.optional_string("importer"),
        ledger_sha256=_digest_field(ledger, "sha256") if ledger is not None else None,
        run_ids=ledger.strings("run_ids") if ledger is not None else (),
        ledger_path=ledger.optional_string("path") if ledger is not None else None,
        ledger_mode=ledger.choice("attempt_mode", ATTEMPT_MODES)
        if ledger is not None and ledger.has("attempt_mode") else None,
        options=options.obj if options is not None else None,
        instrument=instrument.obj if instrument is not None else None,
        by_import=any(fields.has(key) for key in _IMPORT_WRITTEN),
        one_instrument=fields.text("one_instrument"),
        system_declared=fields.text("system_declared"),
        exceptions=_exception_counts(fields),
        # an import records its declared set; one whose record is gone is not declared
        set_found=declared_set != "declared" and any(fields.has(key) for key in _IMPORT_WRITTEN))


def _load_metric(entry: _Fields) -> MetricSpec:
    entry.closed(METRIC_KEYS)
    name = entry.string("name")
    numerator = entry.required("numerator")
    denominator = entry.required("denominator")
    if not isinstance(numerator, str):
        entry.expect("numerator", "a string")
    if not isinstance(denominator, str):
        entry.expect("denominator", "a string")
    unit = entry.get("unit", "tasks")
    if not isinstance(unit, str):
        entry.expect("unit", "a string")
    return MetricSpec(name, numerator, denominator, unit, entry.flag("headline", default=False))


def _load_reasons(top: _Fields) -> frozenset[str]:
    extra = top.strings("reason_classes")
    for index, reason in enumerate(extra):
        close = near_miss(reason, BUILTIN_REASONS) if reason not in BUILTIN_REASONS else None
        if close is not None:
            top.fail(f"reason_classes[{index}]",
                     f"{reason!r} is a near miss of the built-in reason class {close!r}: "
                     f"did you mean {close!r}? (the built-in classes need no declaring)")
    return frozenset(BUILTIN_REASONS) | frozenset(extra)


def _placeholders(top: _Fields, dataset: _Fields, envelope: _Fields) -> tuple[str, ...]:
    fields = [("claim_id", top.obj.get("claim_id")), ("dataset.name", dataset.obj.get("name")),
              ("dataset.task_ids_sha256", dataset.obj.get("task_ids_sha256")),
              ("rerun_recipe", top.obj.get("rerun_recipe"))]
    fields += [(f"envelope.{key}", value) for key, value in envelope.obj.items()]
    system = top.obj.get("system")
    fields += [(f"system.{key}", value)
               for key, value in (system.items() if isinstance(system, dict) else ())]
    controls = top.obj.get("controls")
    fields += [(f"controls[{i}].task_id", c.get("task_id"))
               for i, c in enumerate(controls if isinstance(controls, list) else [])
               if isinstance(c, dict)]
    return tuple(name for name, value in fields if is_placeholder(value))


def _load_controls_and_runs(top: _Fields, folder: Path) -> tuple[tuple[Control, ...],
                                                                 tuple[ControlRun, ...]]:
    controls = tuple(_load_control(entry) for entry in top.entries("controls"))
    runs = tuple(_load_control_run(entry, folder)
                 for entry in top.entries("control_runs", required=False))
    roles = [run.role for run in runs]
    for role in CONTROL_RUN_ROLES:
        if roles.count(role) > 1:
            top.fail("control_runs", f"more than one {role} run")
    ceiling = next((run.bound for run in runs if run.role == "no_edit"), None)
    floor = next((run.bound for run in runs if run.role == "known_fix"), None)
    if ceiling is not None and floor is not None and ceiling >= floor:
        top.fail("control_runs",
                 f"the no-edit ceiling {ceiling:g} is not below the known-fix floor {floor:g}: "
                 "a harness that passes everything, or nothing, would satisfy both")
    return controls, runs


def _load_subset(dataset: _Fields) -> tuple[int | None, str] | None:
    """dataset.subset: (tasks in the whole dataset, if known; how these were chosen), or None."""
    fields = dataset.optional_child("subset")
    if fields is None:
        return None
    fields.closed(SUBSET_KEYS)
    # (`of` is only reported, so a harness's own count of a huge dataset is kept whatever its size)
    of = None
    if fields.has("of") and fields.get("of") is not None:
        of = fields.integer("of", dataset.integer("task_count", 1, maximum=MAX_TASK_COUNT))
    return of, fields.string("selection")


def _load_notes(top: _Fields) -> tuple[str, ...]:
    """`notes`: the author's caveats, a string or a list of strings (anything else is the author's
    own data, kept and not shown)."""
    notes = top.get(FREE_FORM_KEY)
    if isinstance(notes, str):
        return (notes,) if notes.strip() else ()
    if isinstance(notes, list) and all(isinstance(n, str) for n in notes):
        return tuple(n for n in notes if n.strip())
    return ()


def _load_confirmed(top: _Fields) -> Mapping[str, str]:
    """`confirmed`: the to-do items the author answered with `set --confirm WORD` (word -> item)."""
    fields = top.optional_child("confirmed")
    if fields is None:
        return {}
    for key, value in fields.obj.items():
        if not isinstance(value, str):
            fields.expect(key, "a string (the to-do item the author confirmed)")
    return dict(fields.obj)


def _load_replicates(top: _Fields) -> tuple[str, ...]:
    """The run_ids gated together as replicates: two or more, each once, and not with run_id."""
    if not top.has("replicates"):
        return ()
    replicates = top.strings("replicates")
    if len(replicates) < 2:
        top.fail("replicates", "lists the run_ids gated together as replicates: give at least two")
    repeated = _first_repeat(replicates)
    if repeated is not None:
        top.fail("replicates", f"run {repeated!r} is listed twice")
    if top.has("run_id"):
        top.fail("replicates",
                 "a manifest publishes one run (run_id) or several as replicates, not both")
    return replicates


# the keys every attempt record has
RECORD_REQUIRED = frozenset(("run_id", "task_id", "attempt", "outcome"))


def _line_object(line: bytes) -> dict[str, Any] | None:
    """The JSON object on one line, or None if the line is not one."""
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return value if type(value) is dict else None


def _line_task(line: bytes) -> str | None:
    """The task_id of one record line, or None if the line is not a record with one."""
    tid = (_line_object(line) or {}).get("task_id")
    return tid if type(tid) is str else None


def _manifest_json(text: str, where: str) -> Any:
    """A manifest's JSON; a runs file given in its place (its first line a record, and no claim_id)
    is named for what it is."""
    record = _line_task(text.split("\n", 1)[0].encode("utf-8")) is not None
    try:
        value = parse_json(text, where)
    except GateError:
        if not record:
            raise
        value = None
    if record and (type(value) is not dict or "claim_id" not in value):
        raise GateError(f"{where}: a runs file (one attempt record a line), not a manifest: "
                        "give it as --runs, and the claim's manifest as --manifest")
    return value


# A manifest listing its task IDs as import and init write it (sorted, one string an item, no
# escape) has them lifted out of its text before it is parsed, so 10^6 IDs are never 10^6 strings:
# the array is replaced by a marker, the rest parsed as usual, and the IDs kept only if the marker
# lands at dataset.task_ids and they pass every check a listed ID does (the task-ID rule, in order
# and so distinct). Anything else is parsed whole, as before, so what is read never differs.
_LIFTED = "\x1fbenchgate: dataset.task_ids"  # (JSON-escaped below: no manifest holds it)
_LIFTED_JSON = json.dumps(_LIFTED).encode("ascii")
_LIFT_START = re.compile(rb'"task_ids"[ \t\n\r]*:[ \t\n\r]*(\[)[ \t\n\r]*"')
_LIFT_SEPARATOR = re.compile(rb'"[ \t\n\r]*,[ \t\n\r]*"')
_LIFT_END = re.compile(rb'"[ \t\n\r]*')  # before the first `]` after the list starts
_LIFT_STEP = 1 << 20  # the IDs are read a slice of about this many bytes at a time


def _lift_task_ids(raw: bytes) -> tuple[bytes, list[str]] | None:
    """The manifest's bytes with its listed IDs replaced by a marker, and the IDs' text in slices
    (one a line); None when they are not listed in the one form lifted (above), or fail a check
    a listed ID must pass (the whole parse then names it)."""
    start = _LIFT_START.search(raw)
    close = raw.find(b"]", start.end()) if start else -1  # PERF: a byte search, not a pattern's
    last = raw.rfind(b'"', start.end(), close) if start and close > 0 else -1  # its last quote
    end = _LIFT_END.fullmatch(raw, last, close) if last >= 0 else None
    if start is None or end is None or _LIFTED_JSON in raw:
        return None  # (an ID holding `]` ends the list early: the whole parse reads it)
    separator = _LIFT_SEPARATOR.match(raw, raw.find(b'"', start.end()))
    sep = separator.group() if separator else None  # (None: one ID, with no quote inside)
    pieces: list[str] = []
    at, stop = start.end(), end.start()  # the IDs, from inside the first quote to the last
    while at < stop:
        cut = raw.find(sep, min(at + _LIFT_STEP, stop), stop) if sep else -1
        cut = stop if cut < 0 else cut
        window = raw[at:cut]
        ids = window.replace(sep, b"\n") if sep else window
        # a newline inside an ID (invalid JSON) would read as two IDs: only the separators hold one
        newlines = (len(window) - len(ids)) // (len(sep) - 1) * sep.count(b"\n") if sep else 0
        if window.count(b"\n") != newlines:
            return None
        if b'"' in ids or b"\\" in ids or not _sorted_ids_text(ids, pieces):
            return None
        at = cut + len(sep or b"")
    if not pieces or (sep and at == stop):  # `[""]`, or a separator last: an empty ID after it
        return None
    return raw[:start.start(1)] + _LIFTED_JSON + raw[close + 1:], pieces


def _sorted_ids_text(window: bytes, pieces: list[str]) -> bool:
    """Add a slice of IDs (one a line) to `pieces` if each passes the task-ID rule (as in
    _all_task_ids: once the text without its newlines is printable, an empty ID or surrounding
    space shows beside a newline or an end) in strictly increasing order, after those of `pieces`.
    """
    try:
        text = window.decode("utf-8")
    except UnicodeDecodeError:
        return False
    if (not text or text[0] in " \n" or text[-1] in " \n" or "\n\n" in text or "\n " in text
            or " \n" in text or not text.replace("\n", "").isprintable()):
        return False
    ids = text.split("\n")
    if pieces:
        ids.insert(0, pieces[-1][pieces[-1].rfind("\n") + 1:])
    pieces.append(text)
    return all(map(operator.lt, ids, itertools.islice(ids, 1, None)))


def _read_manifest(path: Path, raw: bytes | None) -> tuple[Any, DeclaredIds | None, str]:
    """The manifest's JSON, its listed IDs when they were lifted out of it, and its sha256."""
    where = str(path)
    data = [_read_bytes(path) if raw is None else raw]
    sha256 = hashlib.sha256(data[0]).hexdigest()
    lifted = _lift_task_ids(data[0])
    parsed = _lifted_json(lifted[0], where) if lifted else None
    if lifted is None or parsed is None:
        return _manifest_json(_decode_utf8(data.pop(), where), where), None, sha256
    data.clear()  # PERF: the bytes go before the IDs' slices are joined (10^6 IDs: 20 MB)
    pieces = lifted[1]
    count = sum(map(operator.methodcaller("count", "\n"), pieces)) + len(pieces)
    return parsed, DeclaredIds("\n" + "\n".join(pieces) + "\n", count), sha256


def _lifted_json(spliced: bytes, where: str) -> Any:
    """The manifest with its IDs lifted out, parsed; None unless it parses and the marker is there
    once, as dataset.task_ids (a marker anywhere else, or spelled another way, is not ours)."""
    try:
        parsed = _manifest_json(_decode_utf8(spliced, where), where)
    except GateError:
        return None
    dataset = parsed.get("dataset") if type(parsed) is dict else None
    if (type(dataset) is not dict or dataset.get("task_ids") != _LIFTED
            or json.dumps(parsed).count(json.dumps(_LIFTED)) != 1):
        return None
    return parsed


def _listed_ids(dataset: _Fields, lifted: DeclaredIds | None) -> DeclaredIds | None:
    """dataset.task_ids, lifted or read from the parsed list (each ID checked, none twice)."""
    if lifted is not None and dataset.get("task_ids") == _LIFTED:
        return lifted
    if not dataset.has("task_ids"):
        return None
    task_ids = dataset.strings("task_ids")
    repeated = _first_repeat(task_ids)
    if repeated is not None:
        dataset.fail("task_ids", f"task {repeated!r} is listed twice")
    return DeclaredIds.of(task_ids)


def load_manifest(path: Path, raw: bytes | None = None) -> Manifest:
    """Read and validate a claim's manifest (`raw`: its bytes, when they are not yet written); every
    wrong or unknown field is an input error (exit 2)."""
    where = str(path)
    parsed, lifted, sha256 = _read_manifest(path, raw)
    top = _Fields(parsed, where)
    top.closed(MANIFEST_KEYS)
    dataset = top.child("dataset")
    dataset.closed(DATASET_KEYS)
    envelope = top.child("envelope")
    envelope.open_keys(ENVELOPE_REQUIRED)
    task_ids = _listed_ids(dataset, lifted)
    strata_fields = dataset.optional_child("strata")
    strata = {key: strata_fields.integer(key, 0)
              for key in strata_fields.obj} if strata_fields else None
    controls, control_runs = _load_controls_and_runs(top, path.parent)
    metrics = tuple(_load_metric(entry) for entry in top.entries("metrics", required=False))
    if sum(m.headline for m in metrics) > 1:
        top.fail("metrics", "more than one metric is marked headline")
    tasks_rel, card_rel = dataset.optional_string("tasks"), dataset.optional_string("card")
    if (tasks_rel is None) != (card_rel is None):
        dataset.fail("card" if card_rel is None else "tasks",
                     "dataset.tasks and dataset.card go together")
    card_sha256 = _digest_field(dataset, "card_sha256") if dataset.has("card_sha256") else None
    subset = _load_subset(dataset)
    provenance = top.optional_child("provenance")
    bound = _load_provenance(provenance, PROVENANCE_KEYS) if provenance is not None else None
    if card_sha256 is not None and card_rel is None:
        dataset.fail("card_sha256", "pins a card, but the manifest names none (dataset.card)")
    replicates = _load_replicates(top)
    manifest = Manifest(
        path=path,
        sha256=sha256,
        claim_id=top.string("claim_id"),
        dataset_name=dataset.string("name"),
        task_count=dataset.integer("task_count", 1, maximum=MAX_TASK_COUNT),
        task_ids_sha256=_digest_field(dataset, "task_ids_sha256"),
        task_ids=task_ids,
        strata=strata,
        controls=controls,
        control_runs=control_runs,
        envelope=envelope.obj,
        wall_clock_limit=None if is_placeholder(envelope.get("wall_clock_s_per_task"))
        or envelope.get("wall_clock_s_per_task") is None
        or stated_unknown(envelope.get("wall_clock_s_per_task"))
        else envelope.number("wall_clock_s_per_task", 0),
        attempt_budget=(top.integer("attempt_budget", 1, maximum=MAX_ATTEMPT_BUDGET)
                        if top.has("attempt_budget") else None),
        attempt_mode=cast("AttemptMode", top.choice("attempt_mode", ATTEMPT_MODES,
                                                    default="retry")),
        reasons=_load_reasons(top),
        metrics=metrics,
        rerun_recipe=top.text("rerun_recipe"),
        tasks_path=_inside(path.parent, tasks_rel, where, "dataset.tasks") if tasks_rel else None,
        card_path=_inside(path.parent, card_rel, where, "dataset.card") if card_rel else None,
        card_sha256=card_sha256,
        run_id=top.optional_string("run_id"),
        replicates=replicates,
        subset=subset,
        measured=top.child("system").obj if top.has("system") else None,
        max_unscoreable=cast(float, top.number("max_unscoreable", 0, MAX_UNSCOREABLE_LIMIT))
        if top.has("max_unscoreable") else DEFAULT_MAX_UNSCOREABLE,
        verdict_mapping=(provenance.strings("verdict_mapping")
                         if provenance and provenance.has("verdict_mapping") else ()),
        declared_from=provenance.optional_string("declared_from") if provenance else None,
        provenance=bound,
        draft=top.has("draft"),
        placeholders=_placeholders(top, dataset, envelope),
        notes=_load_notes(top),
        confirmed=_load_confirmed(top),
    )
    if task_ids is not None and len(task_ids) != manifest.task_count:
        dataset.fail("task_count", f"{manifest.task_count}, but dataset.task_ids lists "
                     f"{len(task_ids)} tasks: the two count the same declared tasks; make them "
                     "agree")
    return manifest


def instrument_text(instrument: Mapping[str, object]) -> str:
    """An instrument as a reader names it: "commit 7bb4b71…, version terminal-bench 0.2.1"."""
    return ", ".join(f"{key} {value}" for key, value in sorted(instrument.items())) \
        or "no version or commit recorded"


def binding_mismatch(mine: Provenance, theirs: Provenance, whose: str = "the claim's",
                     instrument: bool = True) -> list[str]:
    """Where two imports are not bound to one another: another importer, another verdict definition
    (an option that changes a verdict), another instrument (a version or commit both record; with
    `instrument`). Each item names both values."""
    problems = []
    if mine.importer and theirs.importer and mine.importer != theirs.importer:
        problems.append(f"read by import {theirs.importer}, {whose} by import {mine.importer}")
    if mine.options is not None and theirs.options is not None and mine.options != theirs.options:
        keys = sorted(k for k in set(mine.options) | set(theirs.options)
                      if mine.options.get(k) != theirs.options.get(k))
        problems.append("read under another verdict definition: " + "; ".join(
            f"--{key.replace('_', '-')} {theirs.options.get(key)!r}, {whose} "
            f"{mine.options.get(key)!r}" for key in keys))
    a, b = (mine.instrument or {}, theirs.instrument or {}) if instrument else ({}, {})
    # (runs declared one instrument record each of theirs: "7bb4... + 59fe..." holds either)
    differ = sorted(k for k in set(a) & set(b) if a[k] != b[k]
                    and not (mine.one_instrument and str(b[k]) in str(a[k]).split(" + ")))
    if differ:
        problems.append("made on another instrument: " + "; ".join(
            f"{key} {b[key]}, {whose} {a[key]}" for key in differ))
    return problems


def control_mismatch(claim: Provenance, control: Provenance) -> list[str]:
    """Where a control run's provenance does not bind it to the claim's: binding_mismatch, or the
    claim's own ledger."""
    problems = binding_mismatch(claim, control)
    if control.ledger_sha256 is not None and control.ledger_sha256 == claim.ledger_sha256:
        problems.append(f"the claim's own ledger (sha256 {control.ledger_sha256[:12]})")
    return problems


def _provenance_of(value: object, where: str, keys: Sequence[str] = PROVENANCE_KEYS) -> Provenance:
    """A draft's provenance (or a control entry's), read as check reads it."""
    return _load_provenance(_Fields(value if isinstance(value, dict) else {}, where, "provenance"),
                            keys)


class SliceRule(NamedTuple):
    allowed_licenses: tuple[str, ...] = DEFAULT_LICENSES
    wide_above: int = 30
    min_per_stratum: int = 5
    withhold_thin_strata: bool = False


CARD_KEYS = ("card_version", "dataset_digest", "task_ids_sha256", "task_count", "strata",
             "withheld", "inclusion_rule", "tasks", "metric", "controls", "not_a_claim_about")
CARD_RULE_KEYS = ("required_fields", "has_failing_test", "allowed_licenses", "edit_span",
                  "wide_above", "min_per_stratum", "withhold_thin_strata")
CARD_METRIC_KEYS = ("name", "numerator", "denominator", "attempt_budget",
                    "pass_at_k_reported_separately")


class Card(NamedTuple):
    """A benchmark card, parsed once: the frozen record of a task slice and its metric contract."""

    raw: dict[str, Any]  # the whole card, for verify's field-by-field comparison
    rule: SliceRule
    attempt_budget: int
    not_a_claim_about: tuple[str, ...]
    strata: dict[str, int]
    withheld: frozenset[str]
    task_ids_sha256: object  # as written: a drifted card may hold anything here
    dataset_digest: object
    sha256: str = ""  # of the card file's bytes, which a manifest can pin


def parse_card(value: object, where: str, sha256: str = "") -> Card:
    top = _Fields(value, where)
    top.closed(CARD_KEYS)
    if top.get("card_version") != CARD_VERSION:
        top.expect("card_version", str(CARD_VERSION))
    rule = top.child("inclusion_rule")
    rule.closed(CARD_RULE_KEYS)
    metric = top.child("metric")
    metric.closed(CARD_METRIC_KEYS)
    slice_rule = SliceRule(rule.strings("allowed_licenses"), rule.integer("wide_above", 0),
                           rule.integer("min_per_stratum", 0), rule.flag("withhold_thin_strata"))
    strata = top.child("strata")
    return Card(
        raw=top.obj,
        rule=slice_rule,
        attempt_budget=metric.integer("attempt_budget", 1, maximum=MAX_ATTEMPT_BUDGET),
        not_a_claim_about=top.strings("not_a_claim_about"),
        strata={key: strata.integer(key, 0) for key in strata.obj},
        withheld=frozenset(top.strings("withheld")),
        task_ids_sha256=(normal_digest(top.get("task_ids_sha256"))
                         if isinstance(top.get("task_ids_sha256"), str)
                         else top.get("task_ids_sha256")),
        dataset_digest=top.get("dataset_digest"),
        sha256=sha256,
    )


def load_card(path: Path) -> Card:
    raw = _read_bytes(path)
    where = str(path)
    return parse_card(parse_json(_decode_utf8(raw, where), where), where,
                      hashlib.sha256(raw).hexdigest())


def load_tasks(path: Path) -> list[dict[str, Any]]:
    """A task slice: a non-empty JSON list of task objects (the inclusion rule is the card's job).
    """
    tasks = load_json_file(path)
    if not isinstance(tasks, list) or not tasks:
        _expected(str(path), "a non-empty JSON list of task objects", tasks)
    for index, task in enumerate(tasks):
        if not isinstance(task, dict):
            _expected(f"{path}: [{index}]", "a task object", task)
    return tasks


_ID_LIST_HEADERS = ("id", "ids", "task", "tasks", "task_id", "task_ids", "instance", "instance_id",
                    "instance_ids", "sample_id", "sample_ids")


def read_id_list(path: Path) -> list[str]:
    """One task ID per line; blank lines are skipped, surrounding spaces are an error. A JSON list
    or a header line is refused, never hashed or counted as IDs."""
    text = _decode_utf8(_read_bytes(path), str(path))
    if text.lstrip()[:1] in ("[", "{"):
        try:
            json.loads(text)
        except ValueError:
            pass  # an ID that happens to start with a bracket
        else:
            raise GateError(f"{path}:1: is a JSON document; "
                            "an ID list is plain text, one task ID per line")
    ids: list[str] = []
    for number, line in enumerate(text.split("\n"), 1):
        line = line[:-1] if line.endswith("\r") else line
        if not line.strip():
            continue
        if not ids and line.strip().casefold() in _ID_LIST_HEADERS:
            raise GateError(f"{path}:{number}: {line.strip()!r} looks like a header line, not a "
                            "task ID; an ID list is one task ID per line with no header")
        if not is_task_id(line):
            raise GateError(f"{path}:{number}: task ID {line!r} has "
                            "surrounding spaces or control characters")
        if len(line.split()) > 1:
            raise GateError(f"{path}:{number}: holds {len(line.split())} words; an ID list is one "
                            "task ID per line (this looks like several IDs on one line)")
        ids.append(line)
    if not ids:
        raise GateError(f"{path}: no task IDs")
    return ids


#####################################################################
# Results and findings: what the gate computes, before anything is rendered
#####################################################################

# The findings catalogue: every finding the gate can report, with its one-line meaning and where it
# is raised. Findings are built only through `finding()`; docs/findings.md is tested against this.

class Rule(NamedTuple):
    """A finding code's rule: what it means, and the functions that raise it (each holds the code;
    tests/test_findings.py checks both ways, and runs tests/findings/<code>/, a ledger that raises
    it)."""

    meaning: str
    raised_by: tuple[str, ...]


FINDINGS: Mapping[str, Rule] = MappingProxyType({
    "dataset_digest_mismatch": Rule(
        "the runs' task IDs (or `dataset.task_ids`) do not hash to `task_ids_sha256`; in "
        "`compare`, the two claims name different suites",
        ("_comparable", "_judge_suite")),
    "dataset_size_mismatch": Rule(
        "the runs hold a different number of distinct tasks than `task_count`",
        ("_judge_suite",)),
    "never_started": Rule(
        "declared tasks with no attempt record, named (needs `dataset.task_ids` or a card)",
        ("_judge_suite",)),
    "unexpected_task": Rule(
        "tasks in the runs that the dataset does not declare",
        ("_judge_suite",)),
    "mixed_runs": Rule(
        "more than one `run_id` in the file and no `--run-id`",
        ("_judge_suite",)),
    "attempt_repeated": Rule(
        "a task repeats an attempt number: retries are attempts, not replacements",
        ("_attempt_findings",)),
    "attempt_gap": Rule(
        "a task's attempts are not numbered 1..a",
        ("_attempt_findings",)),
    "attempt_over_budget": Rule(
        "a task used more attempts than `attempt_budget`",
        ("_attempt_findings",)),
    "samples_incomplete": Rule(
        "samples mode: a task has fewer than `attempt_budget` samples",
        ("_attempt_findings",)),
    "unknown_outcome": Rule(
        "an attempt's outcome is not pass, fail or unscoreable",
        ("_attempt_findings",)),
    "uncoded_unscoreable": Rule(
        "an unscoreable attempt has a missing, null or unknown reason class",
        ("_attempt_findings",)),
    "reason_on_scored": Rule(
        "a pass or fail attempt carries a reason: it is scored or unscoreable, not both",
        ("_attempt_findings",)),
    "attempt_after_pass": Rule(
        "retry mode: a task has attempts after a passing "
        "one (attempts that go on are samples, not retries)",
        ("_attempt_findings",)),
    "wall_clock_incomplete": Rule(
        "some attempts carry `wall_clock_s` and others do not: the per-task limit cannot be "
        "verified for those",
        ("_attempt_findings",)),
    "ledger_does_not_balance": Rule(
        "pass + fail + unscoreable over tasks ≠ `task_count`",
        ("_judge_balance",)),
    "cluster_incomplete": Rule(
        "some tasks' records name a `cluster` (a repository, say) and others do not",
        ("_judge_clusters", "_replicate_clusters")),
    "cluster_conflict": Rule(
        "a task names two clusters (across its attempts, or in A and in B of a `compare`)",
        ("_attempt_findings", "_paired_scores", "_replicate_clusters")),
    "task_id_lookalike": Rule(
        "task IDs that differ only in case or Unicode form "
        "(NFKC, case-folded): one of each pair is a copy",
        ("_judge_suite",)),
    "replicate_missing": Rule(
        "a run the manifest's `replicates` lists has no record in the runs file",
        ("_gate_replicates",)),
    "replicate_undeclared": Rule(
        "the runs file holds a run the manifest's `replicates` does not list",
        ("_gate_replicates",)),
    "run_not_pinned": Rule(
        "`--run-id` chose the gated run, but neither the "
        "manifest's `run_id` nor its rerun recipe names it",
        ("_gated_run",)),
    "draft_manifest": Rule(
        "the manifest is a draft written by `import --draft-manifest`: do what its `draft` list "
        "says, then delete it",
        ("_judge_manifest",)),
    "placeholder_value": Rule(
        "a field still holds a placeholder (`TODO…`, `replace-with-…`, `<…>`) instead of a value",
        ("_judge_manifest",)),
    "controls_incomplete": Rule(
        "no negative control expecting fail, or no positive control expecting pass (a no-edit or "
        "known-fix control run counts)",
        ("_judge_controls",)),
    "control_outside_dataset": Rule(
        "a control task is not a dataset task",
        ("_judge_controls",)),
    "control_missing": Rule(
        "a control task has no attempt record",
        ("_judge_controls",)),
    "control_inconclusive": Rule(
        "a control task is unscoreable: the instrument is unproven",
        ("_control_exit",)),
    "control_violated": Rule(
        "a control task did not exit as expected: the instrument is broken, not the model",
        ("_control_exit",)),
    "control_run_violated": Rule(
        "a no-edit run passes above its ceiling, or a known-fix run below its floor",
        ("_gate_control_run",)),
    "control_run_inconclusive": Rule(
        "more than half of a control run's tasks are "
        "unscoreable: it proves nothing about the harness",
        ("_gate_control_run",)),
    "attrition_exceeded": Rule(
        "more of the claim's verdicts were lost to unscoreable exits than `max_unscoreable` "
        "allows (default 0.2), or no task was scoreable at all: the run produced too few verdicts",
        ("_judge_attrition",)),
    "envelope_exceeded": Rule(
        "an attempt's `wall_clock_s` exceeds "
        "`envelope.wall_clock_s_per_task`: it ran outside the instrument",
        ("_judge_envelope",)),
    "envelope_incomplete": Rule(
        "the envelope lacks `runner`, `network`, `wall_clock_s_per_task` or `toolchain_sha`: the "
        "instrument is not named",
        ("_judge_manifest",)),
    "strata_do_not_sum": Rule(
        "declared strata do not sum to `task_count`",
        ("_strata_lines",)),
    "stratum_count_mismatch": Rule(
        "per-stratum task counts differ from the declaration, some records lack a stratum, or a "
        "task sits in two strata",
        ("_card_findings", "_strata_lines")),
    "card_drift": Rule(
        "the task slice no longer matches its frozen card "
        "(added, removed and changed tasks are named)",
        ("_card_findings",)),
    "card_manifest_mismatch": Rule(
        "the card's `task_ids_sha256` (or task list) is not the manifest's",
        ("_card_findings",)),
    "attempt_budget_mismatch": Rule(
        "the manifest's `attempt_budget` contradicts the card's metric contract",
        ("_card_findings",)),
    "metric_undefined": Rule(
        "a declared metric's predicate is not in the predicate language",
        ("_metric_lines",)),
    "headline_denominator_shrunk": Rule(
        "the headline metric divides by fewer tasks than the dataset holds",
        ("_headline_claim",)),
    "headline_redefined": Rule(
        "a metric marked `headline` counts something other than the gate's headline (pass over "
        "the full declared denominator, under the attempt contract)",
        ("_headline_claim",)),
    "claim_is_secondary": Rule(
        "`--claim`: the number is the scoreable-only rate; quote it only with its label",
        ("check_claim",)),
    "claim_shrunk_denominator": Rule(
        "`--claim`: the number equals k/(n−m): m tasks were dropped from the denominator",
        ("check_claim",)),
    "claim_unsupported": Rule(
        "`--claim`: the number matches nothing in the ledger",
        ("check_claim",)),
    "envelope_mismatch": Rule(
        "`compare`, `rank`: the two runs differ in an envelope field, their importer, their "
        "verdict definition (an option that changes a verdict) or their instrument (each named)",
        ("_comparable",)),
    "ledger_not_imported": Rule(
        "the runs file is not the ledger the manifest's import wrote (its sha256 differs from "
        "`provenance.ledger.sha256`: edited after import, or another run's), or the provenance "
        "names an import but not the ledger it wrote, or the manifest's `attempt_mode` is not the "
        "one the import read the ledger in (a control run's: prefixed with its role)",
        ("_bind_ledger", "_bind_control")),
    "control_not_bound": Rule(
        "a control run was read by another importer, under another verdict definition, or made on "
        "another instrument (harness version or commit) than the claim (each named)",
        ("_bind_control",)),
    "control_is_claim": Rule(
        "a control run's file is the claim's own runs file (the same file, or the same sha256)",
        ("_bind_control",)),
    "declared_set_unconfirmed": Rule(
        "the declared set is only what the imported files held (`provenance.declared_set` "
        "`found`): declare it with `--dataset-ids`, a card or `dataset.subset`",
        ("_bind_declared_set",)),
    "system_unnamed": Rule(
        "a claim imported from harness files names no agent or no model under `system` (nor "
        "states `{\"not_disclosed\": \"why\"}`)",
        ("_bind_system",)),
    "attempt_contract_mismatch": Rule(
        "`compare`: the two ledgers count different attempt contracts (mode or budget); their "
        "headlines are different quantities",
        ("_comparable",)),
})
# A finding of a ledger gated inside another carries that ledger's name as a prefix.
FINDING_PREFIXES: Mapping[str, str] = MappingProxyType({
    "no_edit:": "a finding inside a control run's own ledger, prefixed with its role",
    "known_fix:": "a finding inside a control run's own ledger, prefixed with its role",
    "A:": "`compare`: a finding of one side's own ledger",
    "B:": "`compare`: a finding of one side's own ledger",
    "R<n>:": "a finding of the n-th replicate run's own ledger (n counts the manifest's `replicates`)",
    "S<n>:": "`rank`: a finding of the n-th system's own ledger (n counts the --manifest/--runs pairs, or the list)",
})


class Finding(NamedTuple):
    code: str
    message: str


def finding(code: str, message: str) -> Finding:
    """The only way a finding is made: its code must be in the catalogue."""
    if code not in FINDINGS:
        raise KeyError(f"finding code {code!r} is not in FINDINGS")
    return Finding(code, message)


def prefixed(prefix: str, findings: Iterable[Finding]) -> tuple[Finding, ...]:
    """The findings of an inner ledger (a control run, one side of a compare), named as such."""
    family = re.sub(r"^([RS])\d+$", r"\1<n>", prefix)
    if f"{family}:" not in FINDING_PREFIXES:
        raise KeyError(f"finding prefix {prefix!r} is not in FINDING_PREFIXES")
    return tuple(Finding(f"{prefix}:{f.code}", f.message) for f in findings)


def _order(item: Any) -> tuple[tuple[int, Any], ...]:
    """A total order for finding details, which may mix None, numbers and strings."""
    parts = item if isinstance(item, tuple) else (item,)
    return tuple(_order_key(part) for part in parts)


def _order_key(part: Any) -> tuple[int, Any]:
    """Numbers first, then strings, then anything else by its repr."""
    if type(part) in (int, float):
        return (0, part)
    if type(part) is str:
        return (1, part)
    return (2, repr(part))


class FirstFew:
    """Counts the items a finding is about and keeps the first few in a fixed order, to name them.
    """

    def __init__(self) -> None:
        self.count = 0
        self.items: list[Any] = []

    def add(self, item: Any) -> None:
        self.count += 1
        items = self.items
        if len(items) < _LIST_LIMIT:
            items.append(item)
            items.sort(key=_order)
        elif _order(item) < _order(items[-1]):
            items[-1] = item
            items.sort(key=_order)

    def merge(self, count: int, items: Sequence[Any]) -> None:
        """Another FirstFew's count and the items it kept (a worker's, over its range of the file).
        """
        for item in items:
            self.add(item)
        self.count += count - len(items)

    def named(self, render: Callable[[Any], str] = str) -> str:
        return _name_some(self.items, self.count, render)


def _name_some(items: Sequence[Any], total: int, render: Callable[[Any], str] = str) -> str:
    shown = ", ".join(render(item) for item in items[:_LIST_LIMIT])
    more = total - min(len(items), _LIST_LIMIT)
    return f"{shown} and {more} more" if more > 0 else shown


def _task_of(item: tuple[Any, ...]) -> str:
    return str(item[0])


def _task_attempt(item: tuple[Any, ...]) -> str:
    return f"{item[0]}#{item[1]}={item[2]!r}"


class Rate(NamedTuple):
    """k out of n with its interval. k is a Fraction: in samples mode it is a sum of c/n."""

    k: Fraction
    n: int
    low: float
    high: float
    method: str = "wilson"

    @property
    def value(self) -> float:
        return float(self.k / self.n)


class StratumLine(NamedTuple):
    name: str
    declared: int | None
    tasks: int
    rate: Rate | None
    withheld: bool = False
    verified: bool = True  # False: declared, but no record (nor a card) says which tasks are in it


class MetricLine(NamedTuple):
    name: str
    numerator: str
    denominator: str
    unit: str
    headline: bool
    rate: Rate | None  # None: undefined (a finding), or an empty denominator
    secondary: Rate | None = None
    defined: bool = True
    basis: str = ""  # what a task's count means, when it is not the plain exit


class CostSummary(NamedTuple):
    tasks_with_cost: int  # tasks with a cost or a token count
    total_cost_usd: float | None
    median_cost_usd: float | None
    total_tokens: int | None
    median_tokens: float | None
    tasks_with_cost_usd: int  # the tasks the cost figures are over
    tasks_with_tokens: int  # the tasks the token figures are over


class Ledger(NamedTuple):
    """One runs file settled against a plan: every task's exit, the rates and the findings."""

    entries: int
    exits: int
    counts: dict[str, int]
    reasons: tuple[tuple[str, int], ...]
    attempt_reasons: tuple[tuple[str, int], ...]  # per unscoreable attempt, not per task
    headline_name: str
    headline: Rate
    secondary: Rate | None
    first_attempt: Rate | None
    pass_at_k: tuple[tuple[int, float], ...]
    strata: tuple[StratumLine, ...]
    metrics: tuple[MetricLine, ...]
    observed_tasks: int
    observed_digest: str
    runs_sha256: str
    run_ids: tuple[str, ...]
    records: int
    cost: CostSummary | None
    findings: tuple[Finding, ...]
    timing: str = "all"  # which attempts carry wall_clock_s: "all", "none" or "some"
    clustered: ClusterLine | None = None  # when every task's records name a cluster
    # samples mode: the chance all k samples pass, k = 2..budget
    pass_hat_k: tuple[tuple[int, float], ...] = ()


class ClusterLine(NamedTuple):
    """The headline again, its interval from the clusters' spread (repositories, say) instead of the
    tasks'."""

    rate: Rate
    clusters: int
    effective: float  # the effective sample size Wilson's interval used


class ControlRunResult(NamedTuple):
    role: ControlRunRole
    runs: str
    bound: float
    ledger: Ledger
    # the control run's own attempt contract: the attempts its records hold a task
    attempt_budget: int = 1


class Replicates(NamedTuple):
    """Several runs of one suite gated together: each run's headline, their spread, and the combined
    headline."""

    runs: tuple[tuple[str, Rate], ...]  # (run_id, that run's own headline), in the manifest's order
    spread: float  # the runs' headlines' standard deviation (n − 1)
    # the combined interval's degrees of freedom (Satterthwaite's, or T - 1: see run_term)
    df: float
    effective: float  # its effective sample size
    # False: the runs varied no more than the residual, the term was dropped, df = T - 1
    run_term: bool = True


class ClaimCheck(NamedTuple):
    text: str
    matches: bool
    message: str


class AlignedScores(NamedTuple):
    """Per-task passes and clusters of a sorted ledger, in task-ID order but without the IDs: a
    task's entry in `table` is at its pattern's number in `order`. Two ledgers with the same
    digest hold the same IDs in the same order, so they pair by position; any other pairing reads
    the tasks into tables (run_compare)."""

    digest: str
    order: Sequence[int]  # each task's pattern number, in task-ID order
    table: Sequence[tuple[int, str | None]]  # pattern number -> (passes, cluster)

    def passes(self) -> list[int]:
        scores = [score for score, _ in self.table]
        return list(map(scores.__getitem__, self.order))


# what compare and rank pair on: task -> (passes, cluster), or the same in task-ID order
if TYPE_CHECKING:
    TaskScores = Union[Mapping[str, tuple[int, Optional[str]]], AlignedScores]


class Attrition(NamedTuple):
    """How many of the claim's verdicts were lost to unscoreable exits, against the ceiling in
    force."""

    lost: int
    of: int
    # "tasks" (retry mode: a task's exit) or "attempts" (samples mode: each sample is a verdict)
    unit: str
    ceiling: float

    @property
    def share(self) -> float:
        return self.lost / self.of if self.of else 0.0


class Binding(NamedTuple):
    """One binding of a claim's parts (its ledger to the import, a control run to the claim, the
    runs to one instrument, the declared set to a declaration), as check found it."""

    name: str  # "ledger", "instrument", "no_edit run", "known_fix run", "declared set"
    bound: bool  # checked and held; False: not bound, or not checkable (the text says which)
    text: str


class Report(NamedTuple):
    """Everything `check` found about one claim; the renderers turn it into text."""

    manifest: Manifest
    ledger: Ledger
    confidence: float
    contract: AttemptContract
    control_runs: tuple[ControlRunResult, ...]
    not_a_claim_about: tuple[str, ...]
    card_digest: str | None
    claim: ClaimCheck | None
    findings: tuple[Finding, ...]
    scores: TaskScores | None = None  # for compare and rank
    gated_run: str | None = None
    # the other runs in the file, each with its own headline
    ignored_runs: tuple[tuple[str, Rate], ...] = ()
    replicates: Replicates | None = None  # when the manifest gates several runs together
    attrition: Attrition | None = None  # the verdicts lost to unscoreable exits, and the ceiling
    bindings: tuple[Binding, ...] = ()  # what makes the claim one whole, checked or not
    badge_label: str | None = None  # check --badge-label: the badge's left text (the system, say)

    @property
    def verdict(self) -> str:
        return "BLOCKED" if self.findings else "PUBLISHABLE"


#####################################################################
# Statistics
#####################################################################


_SQRT2 = math.sqrt(2.0)
_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
# Acklam (2003), "An algorithm for computing the inverse normal cumulative distribution function":
# a rational first guess (1.2e-9 relative), then Halley steps on math.erf / math.erfc.
_ACKLAM_A = (-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
             1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00)
_ACKLAM_B = (-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
             6.680131188771972e+01, -1.328068155288572e+01)
_ACKLAM_C = (-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
             -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00)
_ACKLAM_D = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
             3.754408661907416e+00)


def _normal_central(h: float) -> float:
    """x with Phi(x) - 1/2 = h, for |h| <= 0.47575."""
    a, b = _ACKLAM_A, _ACKLAM_B
    r = h * h
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * h / \
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0)
    for _ in range(2):
        u = (0.5 * math.erf(x / _SQRT2) - h) * math.exp(0.5 * x * x + _LOG_SQRT_2PI)
        x -= u / (1.0 + 0.5 * x * u)
    return x


def _normal_lower(p: float) -> float:
    """x <= 0 with Phi(x) = p, for 0 < p <= 1/2, relative accuracy down to p = 1e-300."""
    if p >= 0.02425:
        return _normal_central(p - 0.5)
    c, d = _ACKLAM_C, _ACKLAM_D
    q = math.sqrt(-2.0 * math.log(p))
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / \
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0)
    log_p = math.log(p)
    for _ in range(2):
        u = (0.5 * math.erfc(-x / _SQRT2) / p - 1.0) * math.exp(log_p + 0.5 * x * x + _LOG_SQRT_2PI)
        x -= u / (1.0 + 0.5 * x * u)
    return x


def normal_quantile(p: float) -> float:
    """The inverse of the standard normal CDF, for 0 < p < 1."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"normal_quantile needs 0 < p < 1, got {p!r}")
    return _normal_lower(p) if p <= 0.5 else -_normal_lower(1.0 - p)


def z_for(confidence: float) -> float:
    """Two-sided normal quantile: P(|Z| <= z) = confidence, exact rather than the literal 1.96.

    Solved from the tail (1 - c)/2, which is exact in binary floating point for c >= 1/2, so every
    confidence in (0, 1) gives z to ~1e-15 relative (0.5 + c/2 would round to 1 near c = 1).
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    if confidence <= 0.5:
        return _normal_central(0.5 * confidence)
    return -_normal_lower(0.5 * (1.0 - confidence))


def wilson(k: float, n: float, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval; exactly 0 at k = 0 and exactly 1 at k = n.

    In the form without cancellation: the upper root A/(1 + z²/n) is a sum of positive terms, and
    the lower root is p²/A (the product of the two roots is p²/(1 + z²/n)); the upper bound near 1
    is found the same way from the failures.
    """
    if n <= 0:
        raise ValueError("wilson interval needs n >= 1")
    z2 = z_for(confidence) ** 2

    def lower_root(p: float) -> float:
        big = p + z2 / (2 * n) + math.sqrt(z2) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
        return p * p / big

    # more passes than declared tasks is a finding (the ledger does not balance)
    p = min(1.0, max(0.0, k / n))
    low = 0.0 if k <= 0 else lower_root(p)
    high = 1.0 if k >= n else 1.0 - lower_root(1.0 - p)
    return max(0.0, low), min(1.0, high)


def wilson_rate(k: int, n: int, confidence: float) -> Rate | None:
    if n == 0:
        return None
    low, high = wilson(k, n, confidence)
    return Rate(Fraction(k), n, low, high)


def pass_at_k_all(n: int, c: int) -> list[float]:
    """pass@k for k = 2..n at once, in O(n): C(n-c, k)/C(n, k) = prod_{i<k} (n-c-i)/(n-i), built up
    over k."""
    if not 0 <= c <= n:
        raise ValueError(f"pass@k needs 0 <= c <= n, got n={n} c={c}")
    values = []
    ratio = 1.0 - c / n if n else 1.0  # k = 1
    for k in range(2, n + 1):
        ratio *= max(0, n - c - k + 1) / (n - k + 1)
        values.append(1.0 - ratio)
    return values


def pass_hat_k_all(n: int, c: int) -> list[float]:
    """pass^k for k = 2..n at once, in O(n): the chance that k samples drawn without replacement
    from a task's n all pass (tau-bench's reliability), unbiased as C(c, k)/C(n, k) = prod_{i<k}
    (c-i)/(n-i), built up over k."""
    if not 0 <= c <= n:
        raise ValueError(f"pass^k needs 0 <= c <= n, got n={n} c={c}")
    values = []
    ratio = c / n if n else 0.0  # k = 1
    for k in range(2, n + 1):
        ratio *= max(0, c - k + 1) / (n - k + 1)
        values.append(ratio)
    return values


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k (Chen et al. 2021): 1 - C(n-c, k)/C(n, k), in the stable product form."""
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"pass@k needs 0 <= c <= n and 1 <= k <= n, got n={n} c={c} k={k}")
    if n - c < k:
        return 1.0
    product = 1.0
    for i in range(n - c + 1, n + 1):
        product *= 1.0 - k / i
    return 1.0 - product


def _passes_from_pass_at_k(value: float, n: int, k: int) -> set[int]:
    """Every c in 0..n whose unbiased pass@k is `value` (to 1e-9): one, but for pass@k = 1, which
    every c from n - k + 1 to n gives. pass@k grows with c, so two binary searches find the range
    (O(k log n), where trying every c compared n exact binomials)."""
    def first(ok: Callable[[int], bool]) -> int:
        low, high = 0, n + 1  # the first c in 0..n with ok(c), or n + 1
        while low < high:
            mid = (low + high) // 2
            if ok(mid):
                high = mid
            else:
                low = mid + 1
        return low
    lowest = first(lambda c: pass_at_k(n, c, k) >= value - 1e-9)
    beyond = first(lambda c: pass_at_k(n, c, k) > value + 1e-9)
    return set(range(lowest, beyond))


# -- Student t and chi-square, for the small-sample corrections and Cochran's Q --------------

_TINY = 1e-300


def _continued_beta(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularized incomplete beta function (modified Lentz)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 100_000):
        for aa in (m * (b - m) * x / ((qam + 2 * m) * (a + 2 * m)),
                   -(a + m) * (qab + m) * x / ((a + 2 * m) * (qap + 2 * m))):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + aa / c
            c = c if abs(c) > _TINY else _TINY
            h *= d * c
        if abs(d * c - 1.0) < 1e-16:
            return h
    raise ArithmeticError("the incomplete beta continued fraction did not converge")


def _log_beta(a: float, b: float) -> float:
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


def _t_split(t: float, df: float) -> tuple[float, float]:
    """(P(|T| > t), P(|T| <= t)) for Student t with df degrees of freedom, t >= 0, each to full
    relative precision: the tail is I_x(df/2, 1/2) with x = df/(df+t²), the centre I_y(1/2, df/2)
    with y = t²/(df+t²) = 1 − x computed directly (so neither loses digits to a subtraction from 1),
    and the continued fraction runs on whichever converges."""
    if t <= 0:
        return 1.0, 0.0
    if math.isinf(t):
        return 0.0, 1.0
    a, b = 0.5 * df, 0.5
    log_x = -math.log1p(t * t / df)
    log_y = 2.0 * math.log(t) - math.log(df + t * t)
    x = math.exp(log_x)
    front = math.exp(a * log_x + b * log_y - _log_beta(a, b))
    if x < (a + 1.0) / (a + b + 2.0):
        tail = front * _continued_beta(a, b, x) / a
        return tail, 1.0 - tail
    centre = front * _continued_beta(b, a, math.exp(log_y)) / b
    return 1.0 - centre, centre


def _t_tail(t: float, df: float) -> float:
    """P(|T| > t), t >= 0, Student t with df degrees of freedom."""
    return _t_split(t, df)[0]


@functools.lru_cache(maxsize=4096)
def t_for(confidence: float, df: float) -> float:
    """Two-sided Student t quantile: P(|T| <= t) = confidence (df may be fractional, as
    Satterthwaite's is).

    Bisection on the tail for confidence >= 1/2 and on the centre below it, so a confidence near 0
    or near 1 keeps its digits."""
    if not df > 0:
        raise ValueError(f"t needs df > 0, got {df!r}")
    if df > 1e7:
        return z_for(confidence)
    small = confidence < 0.5
    target = confidence if small else 1.0 - confidence

    def above(t: float) -> bool:  # is the quantile above t?
        tail, centre = _t_split(t, df)
        return centre < target if small else tail > target

    # the t quantile is at least the normal one
    lo, hi = z_for(confidence), max(z_for(confidence), 1e-300)
    while above(hi):
        hi *= 2.0
        if hi > 1e300:
            return math.inf
    for _ in range(2000):  # bisection on the monotone probability, to the last bit
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if above(mid):
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def chi2_sf(x: float, df: int) -> float:
    """P(X > x), chi-square with df degrees of freedom (the regularized upper incomplete gamma)."""
    if x <= 0:
        return 1.0
    s, half = 0.5 * df, 0.5 * x
    log_front = -half + s * math.log(half) - math.lgamma(s)
    if half < s + 1.0:  # series for the lower function
        term = total = 1.0 / s
        ap = s
        for _ in range(100_000):
            ap += 1.0
            term *= half / ap
            total += term
            if abs(term) < abs(total) * 1e-17:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    b, c, d = half + 1.0 - s, 1.0 / _TINY, 1.0 / (half + 1.0 - s)
    h = d
    for i in range(1, 100_000):  # continued fraction for the upper function
        an = -i * (i - s)
        b += 2.0
        d = an * d + b
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = b + an / c
        c = c if abs(c) > _TINY else _TINY
        h *= d * c
        if abs(d * c - 1.0) < 1e-16:
            break
    return math.exp(log_front) * h


# -- intervals that never collapse: Wilson on an effective sample size -----------------------


def wilson_p(p: float, n: float, confidence: float) -> tuple[float, float]:
    """Wilson's interval for a proportion p observed on (effectively) n trials, n not necessarily
    whole."""
    z2 = z_for(confidence) ** 2
    # a rate over more exits than entries is a finding; its interval stays defined
    p = min(1.0, max(0.0, p))

    def lower(q: float) -> float:
        big = q + z2 / (2 * n) + math.sqrt(z2) * math.sqrt(q * (1 - q) / n + z2 / (4 * n * n))
        return q * q / big

    low = 0.0 if p <= 0 else lower(p)
    high = 1.0 if p >= 1 else 1.0 - lower(1.0 - p)
    return max(0.0, low), min(1.0, high)


class Clustered(NamedTuple):
    """A mean of unit scores in [0, 1] whose units come in clusters, with its effective sample size.
    """

    mean: float
    units: int  # N
    clusters: int  # G
    effective: float  # n*: Wilson's n, after the design effect and the small-cluster correction


class Clusters(NamedTuple):
    """Units in clusters, as the clustered statistics take them: each cluster's score sum and its
    size, and how many clusters are alike in both (its weight)."""

    sums: Sequence[Fraction]
    sizes: Sequence[int]
    weights: Sequence[int]


def effective_size(groups: Clusters, confidence: float) -> Clustered:
    """Kish's effective sample size of a clustered mean (Kish 1965), with the Korn & Graubard (1998)
    degrees-of-freedom correction.

    Each cluster g (weights[g] alike) has n_g units whose scores sum to S_g. With N units, p = ΣS/N:
    V = G/(G−1) Σ_g (S_g − n_g p)² / N² (CR1, the cluster-robust variance with its small-sample
    factor); n_eff = p(1−p)/V, kept within [G_eff, N] where G_eff = N²/Σn_g² is Kish's effective
    number of clusters (n_eff = G_eff when p is 0 or 1, N when V is 0); n* = n_eff (t_{N−1}/t_df)²,
    df = max(1, G_eff − 1). One unit a cluster gives n* = N exactly, so Wilson on n* is then Wilson
    itself.
    """
    sums, sizes, weights = groups
    units = sum(n * w for n, w in zip(sizes, weights))
    clusters = sum(weights)
    total = sum((Fraction(s) * w for s, w in zip(sums, weights)), Fraction(0))
    if units == 0:
        return Clustered(0.0, 0, 0, 0.0)
    p = total / units
    squares = sum(n * n * w for n, w in zip(sizes, weights))
    g_eff = Fraction(units * units, squares)
    if all(n == 1 for n in sizes):
        return Clustered(float(p), units, clusters, float(units))
    spread = sum(((Fraction(s) - n * p) ** 2 * w for s, n, w in zip(sums, sizes, weights)),
                 Fraction(0))
    if clusters < 2 or p in (0, 1):
        n_eff = g_eff
    elif spread == 0:
        n_eff = Fraction(units)
    else:
        variance = Fraction(clusters, clusters - 1) * spread / (units * units)
        n_eff = min(Fraction(units), max(g_eff, p * (1 - p) / variance))
    df_clusters = max(1.0, float(g_eff) - 1.0)  # one cluster still has a (very wide) interval
    factor = (t_for(confidence, units - 1) / t_for(confidence, df_clusters)) ** 2
    return Clustered(float(p), units, clusters, float(n_eff) * factor)


def clustered_rate(groups: Clusters, k: Fraction, n: int, confidence: float, method: str,
                   monotone: bool = False) -> Rate:
    """k/n with Wilson's interval on the clustered mean's effective sample size; with `monotone`
    (samples mode: the clusters are the tasks), never tighter at a boundary than the boundary's
    own interval."""
    design = effective_size(groups, confidence)
    if not design.units:
        return Rate(k, n, 0.0, 1.0, method)
    low, high = wilson_p(design.mean, design.effective, confidence)
    if not monotone:
        return Rate(k, n, low, high, method)
    sizes = groups.sizes
    full = effective_size(groups._replace(sums=[Fraction(size) for size in sizes]), confidence)
    empty = effective_size(groups._replace(sums=[Fraction(0)] * len(sizes)), confidence)
    low, high = monotone_interval((low, high), wilson_p(1.0, full.effective, confidence),
                                  wilson_p(0.0, empty.effective, confidence))
    return Rate(k, n, low, high, method)


def by_cluster_interval(groups: Clusters, confidence: float) -> tuple[float, float, float]:
    """(low, high, effective size) of a mean over clusters (weights[g] clusters alike): Wilson on
    the clustered mean's effective size (effective_size), held by the boundary rule.

    The boundary rule: at 0 (N) events the interval is Wilson's on the G clusters, the worst case
    where whole clusters pass or fail together (P(no event) = (1 - p)^G); no other interval's upper
    end is below that none-pass one's, nor its lower end above the all-pass one's, so at 0 and N
    events the line is monotone with its neighbours (CR1 reads one event as nearly independent, n*
    near N: 0/500 on 12 repositories was [0, 0.733] beside 1/500's [0, 0.025]). Between interior
    counts the CR1 size can still move an end the other way, and every upper end is at least the
    none-pass one's (0.242 on 12 clusters). Coverage: bench/stats.py section 6."""
    design = effective_size(groups, confidence)
    clusters = sum(groups.weights)
    effective = design.effective if 0 < design.mean < 1 else float(clusters)
    low, high = monotone_interval(wilson_p(design.mean, effective, confidence),
                                  wilson_p(1.0, clusters, confidence),
                                  wilson_p(0.0, clusters, confidence))
    return low, high, effective


def monotone_interval(interval: tuple[float, float], all_pass: tuple[float, float],
                      none_pass: tuple[float, float]) -> tuple[float, float]:
    """An interval of a design whose all-pass (none-pass) data have few effective units: its
    lower end never above the all-pass interval's, its upper never below the none-pass
    interval's. One failing sample among 200 reads as a nearly independent design (n* near N)
    where all 200 passing reads as T clusters, so without this a worse result printed a tighter
    interval (issue 24: [0.971, 0.999] beside [0.908, 1])."""
    return min(interval[0], all_pass[0]), max(interval[1], none_pass[1])


def samples_rate(passes: Mapping[int, int], tasks: int, budget: int,
                 confidence: float) -> Rate | None:
    """pass@1 over `tasks` tasks that each ran `budget` samples (passes: pass count -> tasks with
    it; a declared task with no record counts as none passed): the mean over tasks of c/n, with
    Wilson's interval on the Kish effective sample size, tasks being the clusters (effective_size).
    One sample a task gives retry mode's Wilson interval exactly; 0/n and n/n keep an interval of
    positive width."""
    if tasks == 0:
        return None
    counts: Counter[int] = Counter()
    # a repeated or over-budget sample is its own finding: never more passes than samples
    for c, w in passes.items():
        counts[min(c, budget)] += w
    missing = tasks - sum(counts.values())
    if missing > 0:
        counts[0] = counts.get(0, 0) + missing
    c_sum = sum(c * w for c, w in counts.items())
    if budget == 1:
        low, high = wilson(c_sum, tasks, confidence)
        return Rate(Fraction(c_sum), tasks, low, high, "wilson")
    cs = sorted(counts)
    return clustered_rate(Clusters([Fraction(c) for c in cs], [budget] * len(cs),
                                   [counts[c] for c in cs]),
                          Fraction(c_sum, budget), tasks, confidence, "wilson-kish", monotone=True)


class Crossed(NamedTuple):
    """A mean over tasks x runs and what the two-way layout says about it."""

    mean: float
    effective: float  # n*: Wilson's n after both variances and the small-sample correction
    # the variance's degrees of freedom: Satterthwaite's, or T - 1 where the run term was dropped
    df: float
    ms_task: float
    ms_run: float
    ms_resid: float

    @property
    def run_term(self) -> bool:
        """Did the run-to-run term enter the variance (MS_run above MS_resid)? Only then is df
        Satterthwaite's."""
        return self.ms_run > self.ms_resid


def crossed_size(cells: Sequence[Sequence[Fraction]], samples: int, confidence: float) -> Crossed:
    """The effective sample size of a mean over R runs x T tasks (cells[r][t], a task's pass rate in
    one run), from the two-way layout without replication: Var(mean) = (MS_task + max(0, MS_run −
    MS_resid))/(T R), which never falls below the task term (the unbiased MS_task + MS_run −
    MS_resid can), with Satterthwaite's (1946) degrees of freedom; n_eff = p(1−p)/Var kept within
    [min(T, R), N] (T when p is 0 or 1), N = T·R·samples, times (t_{N−1}/t_df)² (Korn & Graubard
    1998)."""
    runs, tasks = len(cells), len(cells[0])
    units = runs * tasks * samples
    grand = sum((sum(row, Fraction(0)) for row in cells), Fraction(0)) / (runs * tasks)
    by_run = [sum(row, Fraction(0)) / tasks for row in cells]
    by_task = [sum((cells[r][t] for r in range(runs)), Fraction(0)) / runs for t in range(tasks)]
    ss_task = runs * sum(((m - grand) ** 2 for m in by_task), Fraction(0))
    ss_run = tasks * sum(((m - grand) ** 2 for m in by_run), Fraction(0))
    ss_resid = sum(((cells[r][t] - by_task[t] - by_run[r] + grand) ** 2 for r in range(runs)
                    for t in range(tasks)),
                   Fraction(0))
    ms_task = ss_task / (tasks - 1) if tasks > 1 else Fraction(0)
    ms_run = ss_run / (runs - 1)
    ms_resid = ss_resid / ((tasks - 1) * (runs - 1)) if tasks > 1 else Fraction(0)
    extra = max(Fraction(0), ms_run - ms_resid)
    variance = (ms_task + extra) / (tasks * runs)
    if extra > 0:
        df = float((ms_task + extra) ** 2 / (ms_task ** 2 / max(1, tasks - 1)
                                               + ms_run ** 2 / (runs - 1)
                                               + ms_resid ** 2 / max(1, (tasks - 1) * (runs - 1))))
    else:
        df = float(max(1, tasks - 1))
    p = grand
    if p in (0, 1):
        boundary = crossed_boundary(tasks, runs, samples, confidence)
        return Crossed(float(p), boundary, df, 0.0, 0.0, 0.0)
    if variance == 0:
        n_eff = Fraction(units)
    else:
        n_eff = min(Fraction(units), max(Fraction(min(tasks, runs)), p * (1 - p) / variance))
    factor = (t_for(confidence, units - 1) / t_for(confidence,
                                                   max(1.0, df))) ** 2 if units > 1 else 1.0
    return Crossed(float(p), float(n_eff) * factor, df, float(ms_task), float(ms_run),
                   float(ms_resid))


def crossed_boundary(tasks: int, runs: int, samples: int, confidence: float) -> float:
    """crossed_size's n* when every cell passes (or none does): T units, with T − 1 degrees of
    freedom."""
    units = runs * tasks * samples
    if units <= 1:
        return float(tasks)
    return tasks * (t_for(confidence, units - 1) / t_for(confidence, max(1.0, tasks - 1.0))) ** 2


# -- paired comparison: the asymptotic McNemar test and the Tango score interval it inverts ----


def _p21_restricted(b: float, c: float, n: float, delta: float) -> float:
    """Tango's restricted MLE of p21 given p12 − p21 = delta (the positive root of 2n x² + W x − c
    δ(1−δ))."""
    w = -b - c + (2 * n - b + c) * delta
    k = c * delta * (1.0 - delta)
    root = math.sqrt(max(w * w + 8.0 * n * k, 0.0))
    if w > 0:  # (root − w) would cancel: the conjugate form
        return 2.0 * k / (root + w) if root + w > 0 else 0.0
    return (root - w) / (4.0 * n)


def tango_z(b: float, c: float, n: float, delta: float) -> float:
    """Tango's (1998) score statistic for H0: p_A − p_B = delta; decreasing in delta; at 0 it is
    McNemar's."""
    num = b - c - n * delta
    variance = n * (2.0 * _p21_restricted(b, c, n, delta) + delta * (1.0 - delta))
    if variance <= 0.0:
        return 0.0 if num == 0 else math.copysign(math.inf, num)
    return num / math.sqrt(variance)


def _root(f: Callable[[float], float], lo: float, hi: float) -> float:
    """The root of a decreasing f with f(lo) > 0 >= f(hi), to the last bit."""
    for _ in range(300):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def tango_interval(b: float, c: float, n: float, confidence: float,
                   critical: float | None = None) -> tuple[float, float]:
    """Tango's score interval for a paired difference p_A − p_B: the deltas the score test does not
    reject.

    b: A only, c: B only, of n pairs (counts may be fractional: an effective table). Bracketed at 0,
    so the interval excludes 0 exactly when |McNemar's z| reaches the critical value (by default the
    normal one of this confidence; the exact test's from paired_test).
    """
    if n <= 0:
        raise ValueError("a paired interval needs at least one task")
    z = z_for(confidence) if critical is None else critical
    z0 = tango_z(b, c, n, 0.0)
    if c >= n:
        lower = -1.0
    else:
        lower = _root(lambda x: tango_z(b, c, n, x) - z, 0.0, 1.0) if z0 > z else \
            _root(lambda x: tango_z(b, c, n, x) - z, -1.0, 0.0)
    if b >= n:
        upper = 1.0
    else:
        upper = _root(lambda x: tango_z(b, c, n, x) + z, -1.0, 0.0) if z0 < -z else \
            _root(lambda x: tango_z(b, c, n, x) + z, 0.0, 1.0)
    return max(-1.0, lower), min(1.0, upper)


def mcnemar_z(b: float, c: float) -> float:
    """McNemar's statistic without continuity correction, (b − c)/√(b + c); 0 with no discordant
    pair."""
    return 0.0 if b + c == 0 else (b - c) / math.sqrt(b + c)


# -- McNemar's exact conditional test of a task-level paired table --------------------------------
#
# McNemar's statistic z = (b − c)/√(b + c); under "A and B are the same system" each of the
# s = b + c differing tasks is A's or B's with probability 1/2, so P(|2B − s| >= |b − c|),
# B ~ Binomial(s, 1/2), is an exact p-value at every number of tasks, and it reads only the
# differing tasks: no task both systems pass or both fail can change a decision. (The exact
# unconditional test, Suissa & Shuster 1991, used on up to 1,000 tasks before, has more power on
# small suites, but its p moves with the tasks that do not differ: 32 against 18 differing tasks
# flipped between significant and not 495 times as concordant tasks were added one at a time from
# 50 to 1,000 tasks; docs/statistics.md.) Up to EXACT_FRACTIONS differing tasks the tails are
# exact fractions; above, floats summed in log space from the tail's first term until the terms no
# longer count.

EXACT_FRACTIONS = 1000


@functools.lru_cache(maxsize=64)
def _conditional_tails(s: int) -> tuple[int, ...]:
    """Index d (of s's parity, 0..s): how many of the 2^s equally likely splits of s differing
    tasks are at least as uneven as |b − c| = d (2^s times McNemar's exact conditional p; 0 where d
    has the other parity). Integers, each binomial coefficient from the one beside it."""
    tails = [0] * (s + 1)
    upper, ways = 0, 1  # ways: C(s, (s + d) / 2), from d = s inwards
    for d in range(s, -1, -2):
        upper += ways
        tails[d] = 2 ** s if d == 0 else 2 * upper
        k = (s + d) // 2  # the next d is d − 2: C(s, k − 1) = C(s, k) · k / (s − k + 1)
        ways = ways * k // (s - k + 1) if k > 0 else ways
    return tuple(tails)


def _conditional_tail(s: int, d: int) -> float:
    """P(|2B − s| >= d), B ~ Binomial(s, 1/2), for d of s's parity: 2 P(B >= (s + d)/2)."""
    if s <= EXACT_FRACTIONS or d <= 0:
        return 1.0 if s == 0 or d <= 0 else _conditional_tails(s)[d] / 2 ** s  # rounded once
    k = (s + d) // 2
    term = math.exp(math.lgamma(s + 1) - math.lgamma(k + 1) - math.lgamma(s - k + 1)
                    - s * math.log(2.0))
    total = 0.0
    while k <= s and term > total * 1e-17:
        total += term
        term *= (s - k) / (k + 1)
        k += 1
    return min(1.0, 2.0 * total)


def _rejects(s: int, d: int, alpha: float) -> bool:
    """Is the conditional p of |b − c| = d among s differing tasks below alpha (exactly, up to
    EXACT_FRACTIONS differing tasks)?"""
    if d > 0 and s <= EXACT_FRACTIONS:
        num, den = alpha.as_integer_ratio()
        return _conditional_tails(s)[d] * den < num << s
    return _conditional_tail(s, d) < alpha


def exact_conditional_p(b: int, c: int) -> float:
    """McNemar's exact conditional p: the two-sided binomial test of b A-only against c B-only."""
    return _conditional_tail(b + c, abs(b - c))


@functools.lru_cache(maxsize=4096)
def conditional_critical(s: int, alpha: float) -> float:
    """The |z| = d/√s at which the conditional test of s differing tasks starts to reject, just
    under it, so that Tango's interval at this critical value excludes 0 exactly when the test
    rejects. When none rejects (s < 6 at 5%) a value no outcome passes: √s, or the normal quantile
    if that is larger, so that the interval is never narrower than the asymptotic one (at √s = 1,
    one differing task, it was a 68% interval)."""
    if s == 0 or not _rejects(s, s, alpha):
        return max(math.sqrt(s), z_for(1 - alpha)) * (1.0 + 1e-9)
    # the least d of s's parity whose tail is below alpha (the tail falls as d grows), from the
    # normal quantile's neighbourhood
    d = min(s, max(2 - s % 2, round(z_for(1 - alpha) * math.sqrt(s)) // 2 * 2 + s % 2))
    while d < s and not _rejects(s, d, alpha):
        d += 2
    while d - 2 >= 1 and _rejects(s, d - 2, alpha):
        d -= 2
    return d / math.sqrt(s) * (1.0 - 1e-9)


def _binomial_window(n: int, psi: float) -> tuple[int, tuple[float, ...]]:
    if psi <= 0.0 or psi >= 1.0:
        return (0 if psi <= 0.0 else n), (1.0,)
    mode = min(n, int((n + 1) * psi))
    top = math.exp(math.lgamma(n + 1) - math.lgamma(mode + 1) - math.lgamma(n - mode + 1)
                   + mode * math.log(psi) + (n - mode) * math.log1p(-psi))
    odds = psi / (1.0 - psi)
    up, down = [], []
    value, d = top, mode
    while d < n and value >= 1e-17 * top:
        value *= (n - d) / (d + 1) * odds
        up.append(value)
        d += 1
    value, d = top, mode
    while d > 0 and value >= 1e-17 * top:
        value *= d / ((n - d + 1) * odds)
        down.append(value)
        d -= 1
    return mode - len(down), (*reversed(down), top, *up)


def table_power(n: int, discordance: float, difference: float, alpha: float) -> float:
    """The exact chance that the conditional test rejects on n tasks when a task differs with
    chance ψ = discordance and A − B is `difference`: Σ_s Binomial(s; n, ψ) P(|2B − s| >= z·√s),
    B ~ Binomial(s, (1 + difference/ψ)/2) the differing tasks A passes, z the test's critical
    value at s differing tasks."""
    if not 0 < discordance <= 1 or not abs(difference) <= discordance:
        raise ValueError("table_power needs 0 < discordance <= 1 and |difference| <= discordance, "
                         f"got {discordance!r} and {difference!r}")
    share, normal = (1 + difference / discordance) / 2, z_for(1 - alpha)
    first, weights = _binomial_window(n, discordance)
    return math.fsum(weight * _rejected(s, share, alpha, normal)
                     for s, weight in enumerate(weights, first) if s)


def _rejected(s: int, share: float, alpha: float, normal: float) -> float:
    """P(the conditional test rejects | s differing tasks), B ~ Binomial(s, share) of them A's:
    summed exactly, at the test's own critical value, up to EXACT_FRACTIONS differing tasks; above,
    the normal approximation with continuity correction at the normal critical value (within a step
    of the exact one there), so a plan of 10^6 tasks costs what one of 10^4 does."""
    if s <= EXACT_FRACTIONS:
        reach = conditional_critical(s, alpha) * math.sqrt(s)
        low, probs = _binomial_window(s, share)
        return math.fsum(p for b, p in enumerate(probs, low) if abs(2 * b - s) >= reach)
    least = math.ceil(normal * math.sqrt(s) - 1e-9) + 1  # the exact test's is at or above it
    least += (least - s) % 2  # the least |2B − s| of s's parity that rejects
    mean, sd = s * (2 * share - 1), 2 * math.sqrt(s * share * (1 - share))
    if sd == 0:
        return 1.0 if abs(mean) >= least else 0.0
    upper, lower = (least - 1 - mean) / sd, (-least + 1 - mean) / sd
    return 0.5 * (math.erfc(upper / _SQRT2) + math.erfc(-lower / _SQRT2))


def detectable_difference(n: float, discordance: float, confidence: float,
                          power: float = 0.8) -> float | None:
    """The smallest |A − B| the test compare runs on a task table (the conditional test) detects
    with this power on n tasks at this discordance, from its exact power (table_power), to 1e-4;
    None when not even the largest a table can show (every differing task A's) reaches it."""
    tasks, alpha = round(n), 1 - confidence
    if not 0 < discordance <= 1 or tasks < 1:
        return None
    if table_power(tasks, discordance, discordance, alpha) < power:
        return None
    low, high = 0.0, discordance
    while high - low > 1e-5:
        mid = (low + high) / 2
        low, high = (mid, high) if table_power(tasks, discordance, mid, alpha) < power else (
            low, mid)
    return high


class PairedTest(NamedTuple):
    """A paired comparison's test and interval, as compare and rank print them."""

    low: float  # the interval for A − B: the differences the test does not reject
    high: float
    z: float  # the statistic: McNemar's z (Tango's score at 0), or Miller's t
    p_value: float
    critical: float  # the |statistic| from which the test rejects
    method: str  # a key of PAIRED_TESTS
    df: float = math.inf  # the t statistic's degrees of freedom (inf: a normal or exact test)
    se: float = math.nan  # a test on the per-task differences: the mean difference's standard error
    # Miller's test only: the fewest differing tasks a significant difference needs beyond p < alpha
    # (1: none), and how many differ
    floor: int = 1
    differing: int = 1

    def detectable(self, paired: PairedTable, confidence: float) -> float | None:
        """The planning figure: the |A − B| this rule detects with 80% power. A test on the per-task
        differences: (critical + z_0.8) standard errors, when they vary and it is below 1; a
        table: from the exact power of the test it runs (detectable_difference)."""
        if math.isnan(self.se):
            return detectable_difference(paired.n, paired.discordance, confidence)
        figure = (self.critical + normal_quantile(0.8)) * self.se
        return figure if 0 < figure < 1 else None

    @property
    def name(self) -> str:
        return PAIRED_TESTS[self.method][0]

    @property
    def interval_name(self) -> str:
        return PAIRED_TESTS[self.method][1]

    def significant(self, alpha: float) -> bool:
        return self.p_value < alpha and self.differing >= self.floor


PAIRED_TESTS = {  # PairedTest.method -> (its name in a sentence, its interval's name)
    "mcnemar_exact_conditional": (
        "McNemar's exact conditional test (binomial on the differing tasks)",
        "Tango 1998 score interval at the conditional test's critical value"),
    "wild_cluster_bootstrap": (
        "the wild cluster restricted bootstrap (Cameron, Gelbach & Miller 2008)",
        "mean per-task difference +- the bootstrap's critical t x its cluster-robust standard "
        "error"),
    "miller_paired_t": (
        "Miller's (2024) paired t-test on the per-task differences",
        "mean per-task difference +- t x its standard error, Miller 2024 section 4"),
}
# PairedTest.method -> (the JSON's name of the interval that test inverts, the statistic its
# critical value is a quantile of)
PAIRED_INTERVALS = {
    "mcnemar_exact_conditional": ("tango1998_score", "z"),
    "wild_cluster_bootstrap": ("wild_cluster_bootstrap_t", "t"),
    "miller_paired_t": ("miller2024_paired_t", "t"),
}


def paired_test(paired: PairedTable, confidence: float) -> PairedTest:
    """The test compare and rank apply to a task table (retry mode, tasks as the units): McNemar's
    exact conditional test, and Tango's interval at its critical value, so that p < alpha exactly
    when the interval excludes 0, at every number of tasks."""
    b, c = round(paired.b), round(paired.c)
    critical = conditional_critical(b + c, 1 - confidence)
    low, high = tango_interval(paired.b, paired.c, paired.n, confidence, critical)
    return PairedTest(low, high, mcnemar_z(paired.b, paired.c), exact_conditional_p(b, c),
                      critical, "mcnemar_exact_conditional")


def miller_test(rates: Mapping[tuple[float, float], int], confidence: float,
                samples: int) -> PairedTest:
    """Miller's (2024, section 4) paired test in samples mode, from how many tasks have each pair
    of per-task pass rates (x_t, y_t): the per-task differences d_t = x_t − y_t, their mean D and
    standard error s/√T, t = D/SE on T − 1 degrees of freedom, and the interval D ± t_{T−1} SE
    (within [−1, 1]), which excludes 0 exactly when p < alpha; a significant difference also needs
    fewest_differing tasks to differ (below). Identical differences on every task carry no spread,
    and s = 0 would give a zero-width interval and p = 0: the standard error is then the samples'
    own, Σ_t (x_t(1−x_t) + y_t(1−y_t))/(m−1) over T², and where every rate is 0 or 1 (no sample
    varies either) the tasks are single verdicts, tested as a task table (paired_test)."""
    tasks = sum(rates.values())
    mean = fsum_counted((x - y, n) for (x, y), n in rates.items()) / tasks
    spread = fsum_counted(((x - y - mean) ** 2, n) for (x, y), n in rates.items())
    squares = fsum_counted(((x - y) ** 2, n) for (x, y), n in rates.items())
    df = float(max(1, tasks - 1))
    # identical differences leave rounding alone in the spread (0.6 − 0.4 is not 0.4 − 0.2 in
    # floats): that is no spread, never a standard error of 1e-17
    se = math.sqrt(spread / df / tasks) if spread > 1e-12 * squares else 0.0
    if se == 0:
        within = fsum_counted(((x * (1 - x) + y * (1 - y)) / max(1, samples - 1), n)
                              for (x, y), n in rates.items())
        se = math.sqrt(within) / tasks
    if se == 0:
        b = sum(n for (x, y), n in rates.items() if x > y)
        c = sum(n for (x, y), n in rates.items() if y > x)
        return paired_test(PairedTable(b, c, tasks, (b - c) / tasks, (b + c) / tasks, b + c),
                           confidence)
    critical = t_for(confidence, df)
    t = mean / se
    p_value = _t_tail(abs(t), df)
    low, high = max(-1.0, mean - critical * se), min(1.0, mean + critical * se)
    differing = sum(n for (x, y), n in rates.items() if x != y)
    return PairedTest(low, high, t, p_value, critical, "miller_paired_t", df, se,
                      fewest_differing(1 - confidence), differing)


def fewest_differing(alpha: float) -> int:
    """Miller's test's floor: the fewest differing tasks a sign-flip test over them needs to reach
    alpha, as G tasks all one way give p = 2^(1−G). Measured (bench/stats.py table 4): without it
    the t-test's size reached 0.065-0.067 on 7 and 8 tasks of 2 or 3 samples, with it
    0.009-0.027."""
    return max(1, math.floor(1 - math.log2(alpha)) + 1) if 0 < alpha < 1 else 1


# -- compare --by-cluster: the wild cluster restricted bootstrap (Cameron, Gelbach & Miller 2008) --

WILD_ENUMERATE = 12  # up to this many clusters every sign pattern is drawn (2^12 = 4,096): exact
WILD_DRAWS = 9999  # above it, this many patterns from a fixed seed: the same output each time
WILD_SEED = 20081001


def _cluster_t(sums: Sequence[float], sizes: Sequence[int], tasks: int) -> tuple[float, float]:
    """The mean per-task difference and its cluster-robust (CR1) standard error, from the clusters'
    sums of the differences and their sizes."""
    mean = math.fsum(sums) / tasks
    count = len(sums)
    spread = math.fsum((total - size * mean) ** 2 for total, size in zip(sums, sizes))
    return mean, math.sqrt(count / (count - 1) * spread) / tasks


def wild_cluster_test(sums: Sequence[float], sizes: Sequence[int], confidence: float) -> PairedTest:
    """compare --by-cluster's test: the wild cluster restricted bootstrap of the cluster-robust t on
    the per-task differences, Rademacher weights. Under "A and B are the same system" each cluster's
    differences are as likely negated, so t is referred to its values over the clusters' sign
    patterns (every pattern up to WILD_ENUMERATE clusters, else WILD_DRAWS seeded ones). The
    interval is D ± c·SE with c the bootstrap's critical |t|, so it excludes 0 exactly when p <
    alpha; with few clusters no pattern set can reach alpha, and the test never rejects."""
    count, tasks = len(sums), sum(sizes)
    if count < 2:
        return PairedTest(-1.0, 1.0, 0.0, 1.0, math.inf, "wild_cluster_bootstrap")
    mean, se = _cluster_t(sums, sizes, tasks)

    def t_of(total: float, error: float) -> float:
        if error > 0:
            return abs(total) / error
        return 0.0 if total == 0 else math.inf

    if count <= WILD_ENUMERATE:
        patterns: Iterable[tuple[int, ...]] = itertools.product((1, -1), repeat=count)
    else:
        import random  # PERF: here, not at start-up: only a comparison of many clusters draws

        draw = random.Random(WILD_SEED)
        patterns = (tuple(draw.choice((1, -1)) for _ in range(count)) for _ in range(WILD_DRAWS))
    values = sorted((t_of(*_cluster_t([w * v for w, v in zip(signs, sums)], sizes, tasks))
                     for signs in patterns), reverse=True)
    observed = t_of(mean, se)
    alpha = 1 - confidence
    at_least = sum(1 for value in values if value >= observed * (1 - 1e-12))
    p_value = at_least / len(values)
    kth = values[max(1, math.ceil(alpha * len(values))) - 1]  # reject exactly when observed > kth
    critical = kth if p_value < alpha else max(kth, observed)
    low, high = max(-1.0, mean - critical * se), min(1.0, mean + critical * se)
    if p_value >= alpha:  # at critical = observed an end is 0 itself, whatever the rounding says
        low = min(low, 0.0) if abs(low) > 1e-12 * se else 0.0
        high = max(high, 0.0) if abs(high) > 1e-12 * se else 0.0
    statistic = math.copysign(observed, mean) if math.isfinite(observed) else observed
    return PairedTest(low, high, statistic, p_value, critical, "wild_cluster_bootstrap",
                      se=se)


class PairedTable(NamedTuple):
    """A paired comparison's table, possibly effective (fractional): b A only, c B only, of n."""

    b: float
    c: float
    n: float
    diff: float  # p_A − p_B
    discordance: float  # (b + c)/n: the share of pairs whose outcomes differ
    differing: int = 0  # independent units (tasks, or clusters) on which A and B differ at all


def paired_effective(scores_a: Sequence[float], scores_b: Sequence[float],
                     clusters: Sequence[int] | None, samples: int,
                     confidence: float) -> PairedTable:
    """The effective 2×2 table of a paired comparison of per-task pass rates x_t (A) and y_t (B).

    b_t = x_t(1 − y_t) and c_t = y_t(1 − x_t) are the shares of (A sample, B sample) pairs that
    only A or only B passed; with d_t = b_t − c_t, D = mean d_t and ψ = mean (b_t + c_t), the
    cluster-robust variance V of D (clusters: tasks, or repositories) gives n_eff = (ψ − D²)/V,
    kept within [G_eff, N] for N the units, and n* = n_eff (t_{N−1}/t_df)², df = max(1, G_eff −
    1). The table is n*(b̄, c̄). With one sample a task and no clusters beyond tasks it is the
    integer table itself. clusters None: every task its own (paired_singles).
    """
    if clusters is None:
        return paired_singles(Counter(zip(scores_a, scores_b)), samples, confidence)
    tasks = len(scores_a)
    b_t = [x * (1 - y) for x, y in zip(scores_a, scores_b)]
    c_t = [y * (1 - x) for x, y in zip(scores_a, scores_b)]
    b_bar, c_bar = math.fsum(b_t) / tasks, math.fsum(c_t) / tasks
    diff = b_bar - c_bar
    groups: dict[int, list[float]] = {}
    raw: dict[int, float] = {}
    for cluster, b, c in zip(clusters, b_t, c_t):
        groups.setdefault(cluster, []).append(b - c - diff)
        raw[cluster] = raw.get(cluster, 0.0) + abs(b - c)
    differing = sum(1 for value in raw.values() if value > 0)
    g_eff = tasks * tasks / sum(len(v) ** 2 for v in groups.values())

    def spread() -> float:
        return math.fsum(math.fsum(v) ** 2 for v in groups.values())

    return _effective_table(_PairSums(tasks, b_bar, c_bar, differing, len(groups), g_eff, spread),
                            samples, confidence)


def fsum_counted(values: Iterable[tuple[float, int]]) -> float:
    """The exact sum of each value taken its count of times: math.fsum over the same values as a
    task-by-task sum, so the same float (fsum is correctly rounded in any order), one step a
    distinct value."""
    repeated = (itertools.repeat(value, count) for value, count in values)
    return math.fsum(itertools.chain.from_iterable(repeated))


def paired_singles(pairs: Mapping[tuple[float, float], int], samples: int,
                   confidence: float) -> PairedTable:
    """paired_effective with every task its own cluster, from how many tasks have each pair of
    rates (x_t, y_t): the same sums over the same values (fsum_counted), one step a distinct
    pair, not a task."""
    tasks = sum(pairs.values())

    def total(term: Callable[[float, float], float]) -> float:
        return fsum_counted((term(x, y), n) for (x, y), n in pairs.items())

    b_bar, c_bar = total(lambda x, y: x * (1 - y)) / tasks, total(lambda x, y: y * (1 - x)) / tasks
    diff = b_bar - c_bar
    differing = sum(n for (x, y), n in pairs.items() if x * (1 - y) != y * (1 - x))

    def spread() -> float:
        return total(lambda x, y: (x * (1 - y) - y * (1 - x) - diff) ** 2)

    return _effective_table(_PairSums(tasks, b_bar, c_bar, differing, tasks, float(tasks), spread),
                            samples, confidence)


class _PairSums(NamedTuple):
    """What paired_effective's table is made from: the tasks, the mean shares of sample pairs only
    A and only B passed, the units on which the two differ at all, the clusters' count and
    effective number, and the sum of the clusters' squared centred sums (computed only when
    needed)."""

    tasks: int
    b_bar: float
    c_bar: float
    differing: int
    clusters: int
    g_eff: float
    spread_of: Callable[[], float]


def _effective_table(sums: _PairSums, samples: int, confidence: float) -> PairedTable:
    """paired_effective's table from its sums."""
    tasks, b_bar, c_bar, differing, count, g_eff, spread_of = sums
    diff, psi = b_bar - c_bar, b_bar + c_bar
    units = tasks * samples
    if samples == 1 and count == tasks:
        return PairedTable(b_bar * tasks, c_bar * tasks, float(tasks), diff, psi, differing)
    spread = spread_of()
    lowest = g_eff if count < tasks else float(tasks)
    if psi <= 0 or count < 2 or psi - diff * diff <= 1e-12 * psi:
        # every pair discordant one way: the pairs hold no variance, only the units' count does
        n_eff = lowest
    elif spread <= 0:
        # clusters that agree exactly are still few
        n_eff = float(units) if count == tasks else lowest
    else:
        variance = count / (count - 1) * spread / (tasks * tasks)
        n_eff = min(float(units), max(lowest, (psi - diff * diff) / variance))
    df = max(1.0, (g_eff if count < tasks else tasks) - 1.0)
    factor = (t_for(confidence, units - 1) / t_for(confidence, df)) ** 2 if units > 1 else 1.0
    n_star = n_eff * factor
    return PairedTable(b_bar * n_star, c_bar * n_star, n_star, diff, psi, differing)


# -- several systems: Cochran's Q, Holm's step-down, and the groups no test separates -------


def cochran_q(columns: Sequence[Sequence[float]]) -> tuple[float, int, float]:
    """Cochran's (1950) Q over k systems' per-task scores (0/1; in samples mode per-task means,
    which is the randomized-block form), chi-square with k − 1 degrees of freedom: (Q, df, p)."""
    k = len(columns)
    if k < 2 or not columns[0]:
        return 0.0, max(1, k - 1), 1.0
    # PERF: the sums over tasks below are sums over the distinct rows (exact)
    rows = Counter(zip(*columns))

    def total(term: Callable[[tuple[float, ...]], Iterable[float]]) -> float:
        return fsum_counted((value, n) for row, n in rows.items() for value in term(row))

    totals = [math.fsum(col) for col in columns]
    grand = math.fsum(totals)
    between = k * math.fsum(c * c for c in totals) - grand * grand
    within = k * grand - total(lambda row: (math.fsum(row) ** 2,))
    if k < 2 or within <= 0:
        return 0.0, max(1, k - 1), 1.0
    if any(0 < x < 1 for row in rows for x in row):  # per-task means: the randomized-block Q
        ss = total(lambda row: ((x - math.fsum(row) / k) ** 2 for x in row))
        q = (k - 1) * math.fsum((c - grand / k) ** 2 for c in totals) / ss if ss > 0 else 0.0
    else:
        q = (k - 1) * between / within
    return q, k - 1, chi2_sf(q, k - 1)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's (1979) step-down adjusted p-values, in the input's order."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [0.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


# The most letter groups rank shows. Piepho's groups are the maximal sets no test separates, and
# their number can grow exponentially with the systems (8 disjoint separated triples among 24
# systems: 3^8 = 6,561); past this bound the letters would read as noise, so rank refuses and points
# at the pairs, which are always shown.
MAX_LETTER_GROUPS = 52


def letter_groups(order: Sequence[int], separated: set[tuple[int, int]]) -> list[list[int]] | None:
    """Piepho's (2004) insert-absorb letters: maximal sets of systems no two of which differ
    significantly, each listed in `order` (best first), the sets sorted by their best member; None
    when they pass MAX_LETTER_GROUPS, which no letter display can show (the ranking and the pairwise
    decisions still can). The work is bounded: each step keeps at most MAX_LETTER_GROUPS groups
    (twice that before absorbing), so it is polynomial in the systems."""
    groups = [list(order)]
    for i, j in sorted(separated):
        split = []
        for group in groups:
            if i in group and j in group:
                split.append([x for x in group if x != i])
                split.append([x for x in group if x != j])
            else:
                split.append(group)
        members = [set(g) for g in split]
        groups = [g for g, s in zip(split, members) if not any(s < h for h in members)]
        groups = [list(g) for g in dict.fromkeys(tuple(g) for g in groups)]
        if len(groups) > MAX_LETTER_GROUPS:
            return None
    rank = {system: position for position, system in enumerate(order)}
    return sorted((sorted(g, key=rank.__getitem__) for g in groups),
                  key=lambda g: [rank[x] for x in g])


class PlanQuestion(NamedTuple):
    """What `plan` is asked: detect p_A − p_B = detect over a baseline pass rate, with this
    discordance (None: independent systems'), samples a task and between-task share of the
    variance (icc), at this power and confidence."""

    baseline: float
    detect: float
    discordance: float | None
    samples: int
    icc: float
    power: float
    confidence: float


def connor_tasks(question: PlanQuestion, psi: float) -> float:
    """The asymptotic answer, the search's start: Connor's (1987) tasks for paired proportions,
    with k samples a task the paired variance between-task + within-task/k (Miller 2024, `icc` the
    between-task share)."""
    detect, samples, icc = question.detect, question.samples, question.icc
    v1 = (psi - detect * detect) * (icc + (1 - icc) / samples)
    v0 = v1 * psi / (psi - detect * detect) if psi > detect * detect else v1 + detect * detect
    za, zb = z_for(question.confidence), normal_quantile(question.power)
    return (za * math.sqrt(v0) + zb * math.sqrt(v1)) ** 2 / (detect * detect)


def plan_power(question: PlanQuestion, psi: float, tasks: int) -> float:
    """The power of the test compare runs on this many tasks: one sample a task, the exact
    conditional test's own (table_power); more, Miller's t-test on the per-task differences (their
    variance as connor_tasks takes it), by the normal approximation to the noncentral t."""
    alpha, detect = 1 - question.confidence, question.detect
    if question.samples == 1:
        return table_power(tasks, psi, detect, alpha)
    if tasks < 2:
        return 0.0
    spread = (psi - detect * detect) * (question.icc + (1 - question.icc) / question.samples)
    if spread <= 0:  # every task differs by exactly `detect`: no t-test misses it
        return 1.0
    df, critical = tasks - 1, t_for(question.confidence, tasks - 1)
    shift = detect * math.sqrt(tasks / spread) - critical * (1 - 1 / (4 * df))
    return 0.5 * math.erfc(-shift / math.sqrt(2 * (1 + critical * critical / (2 * df))))


def tasks_needed(question: PlanQuestion) -> tuple[int, float]:
    """Tasks a paired comparison needs to detect p_A − p_B = detect at this confidence and power:
    the least number at which the power of the test compare runs (plan_power) reaches it, found by
    bisection from Connor's asymptotic answer. The discordance defaults to independent systems'
    (no credit for pairing)."""
    baseline, detect, discordance, _samples, _icc, power, _confidence = question
    p1, p2 = baseline + detect, baseline
    psi = p1 * (1 - p2) + p2 * (1 - p1) if discordance is None else discordance
    if detect > psi:
        raise GateError(f"plan: a discordance of {psi:g} cannot carry a difference "
                        f"of {detect:g}: |p_A − p_B| is at most the share of tasks "
                        "whose outcomes differ (raise --discordance)")

    def reaches(tasks: int) -> bool:
        return plan_power(question, psi, tasks) >= power

    start = max(2, math.ceil(connor_tasks(question, psi) - 1e-9))
    step = max(1, start // 16)  # Connor's answer is close: bracket it, low never reaching
    low, high = max(0, start - step), start
    while reaches(low) and low > 0:
        low, high, step = max(0, low - 2 * step), low, 2 * step
    while not reaches(high) and high <= MAX_TASK_COUNT:
        low, high, step = high, high + 2 * step, 2 * step
    if high > MAX_TASK_COUNT:
        raise GateError(f"plan: more than {MAX_TASK_COUNT:,} tasks would be needed")
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if reaches(mid) else (mid, high)
    return high, psi


class SuitePlan(NamedTuple):
    """`plan`: the tasks a paired comparison needs, for the samples asked and for a few others."""

    baseline: float
    detect: float
    discordance: float | None  # as given; None: independent systems'
    psi: float  # the discordance used
    samples: int
    icc: float
    power: float
    confidence: float
    tasks: int
    by_samples: tuple[tuple[int, int], ...]  # (samples a task, tasks needed)
    asymptotic: int  # Connor's answer for the samples asked, for comparison


def plan_suite(question: PlanQuestion) -> SuitePlan:
    """How many tasks a comparison needs to detect `detect` over `baseline` (tasks_needed), for
    `samples` samples a task and for 1, 3, 5 and 10."""
    baseline, detect, discordance, samples, icc, power, confidence = question
    if not 0 < baseline < 1:
        raise GateError("plan: --baseline: expected a pass rate "
                        f"strictly between 0 and 1, got {baseline!r}")
    if not 0.5 <= power < 1:
        raise GateError("plan: --power: expected a chance from 0.5 "
                        f"to below 1 (0.8 is usual), got {power!r}")
    if detect < 0.001:
        raise GateError("plan: --detect: expected a difference of at least 0.001 (a tenth of a "
                        f"point), got {detect!r}")
    if not 0 < detect <= 1 - baseline:
        raise GateError("plan: --detect: expected a difference above 0 that keeps baseline + "
                        f"detect <= 1 (at most {1 - baseline:g} over a baseline of {baseline:g}), "
                        f"got {detect!r}")
    if discordance is not None and not 0 < discordance <= 1:
        raise GateError("plan: --discordance: expected the share of tasks whose outcomes differ, "
                        f"in (0, 1], got {discordance!r}")
    if not 0 <= icc <= 1:
        raise GateError("plan: --icc: expected the between-task share "
                        f"of the variance, in [0, 1], got {icc!r}")
    if not 1 <= samples <= MAX_ATTEMPT_BUDGET:
        raise GateError("plan: --samples: expected 1 to "
                        f"{MAX_ATTEMPT_BUDGET} samples a task, got {samples}")
    tasks, psi = tasks_needed(question)
    others = tuple((k, tasks_needed(question._replace(samples=k))[0])
                   for k in sorted({1, 3, 5, 10, samples}))
    return SuitePlan(baseline, detect, discordance, psi, samples, icc, power, confidence, tasks,
                     others, math.ceil(connor_tasks(question, psi) - 1e-9))


#####################################################################
# The predicate language: declared metrics and the mapping importer's expressions, parsed with ast
# and never evaluated
#####################################################################

if TYPE_CHECKING:  # (a type alias is for mypy only: see the imports)
    Predicate = Callable[[Mapping[str, Any]], bool]
_TASK_COUNT = "dataset.task_count"
_MAX_PREDICATE = 2000
# The fields of a task's exit record; a metric may also name any field the records carry.
RECORD_FIELDS = frozenset({"outcome", "reason", "stratum", "task_id", "attempts", "control",
                           "role", "cluster"})


class MetricError(Exception):
    """A metric that cannot be evaluated; becomes the finding metric_undefined."""


def _same(left: Any, right: Any) -> bool:
    # true == 1 in Python; in a ledger a boolean is never a number.
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    return bool(left == right)


def _literal(node: Any, source: str, nested: bool = False) -> Any:
    import ast

    if isinstance(node, ast.Constant) and (node.value is None
                                           or type(node.value) in (str, int, float, bool)):
        return node.value
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant)):
        number = node.operand.value
        if isinstance(number, (int, float)) and not isinstance(number, bool):
            return -number
    if isinstance(node, (ast.Tuple, ast.List)) and not nested:
        return tuple(_literal(item, source, nested=True) for item in node.elts)
    raise MetricError(f"{_snippet(node, source)!r} is not a literal")


def _snippet(node: Any, source: str) -> str:
    import ast

    return ast.get_source_segment(source, node) or type(node).__name__


def _compile_comparison(node: Any, source: str, fields: set[str],
                        literals: dict[str, set[Any]]) -> Predicate:
    import ast

    if len(node.ops) != 1:
        raise MetricError(f"chained comparison {_snippet(node, source)!r}")
    op, left, right = node.ops[0], node.left, node.comparators[0]
    if (isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(right, ast.Name)
            and not isinstance(left, ast.Name)):
        left, right = right, left
    if not isinstance(left, ast.Name):
        raise MetricError(f"{_snippet(left, source)!r} is not a field name")
    name = left.id
    fields.add(name)
    value = _literal(right, source)
    compared = value if isinstance(value, tuple) else (value,)
    for item in compared:
        if name == "outcome" and item not in BUCKETS:
            raise MetricError(f"outcome is pass, fail or unscoreable: {item!r} in "
                              f"{_snippet(node, source)!r} never matches")
        literals.setdefault(name, set()).add(item)
    if isinstance(op, (ast.Eq, ast.NotEq)):
        negate = isinstance(op, ast.NotEq)
        return lambda row: _same(row.get(name), value) != negate
    if isinstance(op, (ast.In, ast.NotIn)):
        if not isinstance(value, tuple):
            raise MetricError("'in' needs a list or tuple of literals, got "
                              f"{_snippet(right, source)!r}")
        negate = isinstance(op, ast.NotIn)
        return lambda row: any(_same(row.get(name), item) for item in value) != negate
    raise MetricError(f"operator {type(op).__name__} in {_snippet(node, source)!r} is not allowed")


def _compile_node(node: Any, source: str, fields: set[str],
                  literals: dict[str, set[Any]]) -> Predicate:
    import ast

    if isinstance(node, ast.BoolOp):
        parts = [_compile_node(value, source, fields, literals) for value in node.values]
        if isinstance(node.op, ast.And):
            return lambda row: all(part(row) for part in parts)
        return lambda row: any(part(row) for part in parts)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _compile_node(node.operand, source, fields, literals)
        return lambda row: not inner(row)
    if isinstance(node, ast.Compare):
        return _compile_comparison(node, source, fields, literals)
    raise MetricError(f"{_snippet(node, source)!r} is not allowed (only field == literal, in, not "
                      "in, and, or, not)")


def compile_predicate(source: str, literals: dict[str, set[Any]] | None = None
                      ) -> tuple[Predicate, frozenset[str]]:
    """Turn `outcome == 'pass' and stratum in ('a', 'b')` into a function of a task's exit record.

    Returns the function and the fields it reads; `literals` collects the values compared per field.
    """
    import ast

    if len(source) > _MAX_PREDICATE:
        raise MetricError(f"predicate is longer than {_MAX_PREDICATE} characters")
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise MetricError(f"cannot parse {source!r}: {getattr(exc, 'msg', exc)}") from None
    fields: set[str] = set()
    try:
        predicate = _compile_node(tree.body, source.strip(), fields,
                                  {} if literals is None else literals)
    except RecursionError:
        raise MetricError(f"{source[:40]!r}... nests too deeply") from None
    return predicate, frozenset(fields)


# The mapping importer's dialect: paths into a record, JSON literals, CSV cells read by the literal
# they meet (docs/importers.md).


class _Unreadable(Exception):
    """A record the mapping cannot read: a path it lacks, or a value that does not compare; `hint`
    is what a user's own mapping can say of it."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.hint = hint


_JSON_NAMES: Mapping[str, object] = MappingProxyType({"true": True, "false": False, "null": None})


# A path in an expression (`scores.0`, even `pass`, or any text between backquotes; quoted strings
# are literals) becomes a placeholder name before ast parses the expression.
_MAP_TOKEN = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`([^`]*)`"""
                        r"""|((?<![\w.])[A-Za-z_][\w]*(?:\.\w+)*)""")
_MAP_WORDS = frozenset({"and", "or", "not", "in", "true", "false", "null", "True", "False", "None"})


def _map_placeholders(source: str) -> tuple[str, list[tuple[str, ...]]]:
    """The expression with each path replaced by a placeholder (_p0, _p1, ...), and the paths."""
    paths: list[tuple[str, ...]] = []

    def swap(match: Any) -> str:
        quoted, word = match.group(1), match.group(2)
        if quoted is None and (word is None or word in _MAP_WORDS):
            return str(match.group(0))
        paths.append((quoted,) if quoted is not None else tuple(word.split(".")))
        return f"_p{len(paths) - 1}"

    return _MAP_TOKEN.sub(swap, source), paths


def _map_path(node: Any, source: str, paths: Sequence[tuple[str, ...]]) -> tuple[str, ...]:
    """The path a placeholder stands for."""
    import ast

    if isinstance(node, ast.Name) and re.fullmatch(r"_p\d+", node.id):
        return paths[int(node.id[2:])]
    raise MetricError(f"{_snippet(node, source)!r} is not a path")


def _map_literal(node: Any, source: str) -> Any:
    import ast

    if isinstance(node, ast.Name) and node.id in _JSON_NAMES:
        return _JSON_NAMES[node.id]
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(_map_literal(item, source) for item in node.elts)
    return _literal(node, source, nested=True)


if TYPE_CHECKING:
    Reader = Callable[[Any, tuple[str, ...]], Any]  # (record, path) -> value, or _Unreadable


def _kind(value: Any) -> str:
    """A JSON value's kind as the predicate language names it."""
    if isinstance(value, bool):
        return "boolean"
    if _is_number(value):
        return "number"
    if isinstance(value, str):
        return "string"
    return "null" if value is None else "structure"


def _compare(value: Any, op: str, literal: Any, csv: bool, path: str) -> bool:
    """One comparison as the mapping importer reads it (the rules above). A value that can never
    equal the literal (a number where a boolean is compared, an object, a non-finite number) is
    unreadable, never a silent fail; null differs from any other literal."""
    if csv and isinstance(value, str):
        if isinstance(literal, bool):
            if value.strip().lower() not in ("true", "false", "1", "0"):
                raise _Unreadable(f"{path}: {value[:40]!r} is not a boolean (true, false, 1 or 0)")
            value = value.strip().lower() in ("true", "1")
        elif isinstance(literal, (int, float)):
            try:
                value = float(value)
            except ValueError:
                raise _Unreadable(f"{path}: {value[:40]!r} is not a "
                                  f"number to compare with {literal!r}") from None
            if not math.isfinite(value):
                raise _Unreadable(f"{path}: {value!r} is not a finite number")
    if isinstance(value, float) and not math.isfinite(value):
        raise _Unreadable(f"{path}: {value!r} is not a finite number")
    if value is not None and literal is not None and _kind(value) != _kind(literal):
        raise _Unreadable(f"{path}: {_type_name(value)} is not a "
                          f"{_kind(literal)} to compare with {literal!r}")
    if op in ("==", "!="):
        return _same(value, literal) != (op == "!=")
    numbers = all(_is_number(x) for x in (value, literal))
    if not numbers:
        raise _Unreadable(f"{path}: {_type_name(value)} does not compare with {literal!r} by {op}")
    return bool({"<": value < literal, "<=": value <= literal, ">": value > literal,
                 ">=": value >= literal}[op])


def _truth(value: Any, csv: bool, path: str) -> bool:
    """A bare path's boolean. null (a harness that gave no verdict: a test timeout, say) is
    unreadable: read as a fail it would hide the attrition, and under `not` it would pass."""
    if value is None:
        raise _Unreadable(f"{path}: null is not a verdict (a bare path holds true or false)",
                          f"say what null means: --unscoreable '{path} == null' --reason CLASS")
    return _compare(value, "==", True, csv, path)


def compile_mapping(source: str, csv: bool) -> tuple[Callable[[Any, Reader], bool], frozenset[str]]:
    """An EXPR of the mapping importer: a function of (record, reader), and the paths it reads."""
    import ast

    if len(source) > _MAX_PREDICATE:
        raise MetricError(f"expression is longer than {_MAX_PREDICATE} characters")
    text, named = _map_placeholders(source.strip())
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise MetricError(f"cannot parse {source!r}: {getattr(exc, 'msg', exc)}") from None
    ops = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
    paths: set[str] = set()

    def build(node: Any) -> Callable[[Any, Reader], bool]:
        if isinstance(node, ast.BoolOp):
            parts = [build(value) for value in node.values]
            if isinstance(node.op, ast.And):
                return lambda rec, read: all(part(rec, read) for part in parts)
            return lambda rec, read: any(part(rec, read) for part in parts)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = build(node.operand)
            return lambda rec, read: not inner(rec, read)
        # a bare path: it holds a boolean (null is no verdict, never a fail: unreadable)
        if isinstance(node, ast.Name) and node.id not in _JSON_NAMES:
            path = _map_path(node, text, named)
            paths.add(".".join(path))
            return lambda rec, read: _truth(read(rec, path), csv, ".".join(path))
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            path = _map_path(node.left, text, named)
            literal = _map_literal(node.comparators[0], text)
            name, op = ".".join(path), node.ops[0]
            paths.add(name)
            if isinstance(op, (ast.In, ast.NotIn)):
                if not isinstance(literal, tuple):
                    raise MetricError(f"'in' needs a list of literals in {_snippet(node, text)!r}")
                negate = isinstance(op, ast.NotIn)
                return lambda rec, read: any(_compare(read(rec, path), "==", item, csv, name)
                                             for item in literal) != negate
            if type(op) not in ops:
                raise MetricError(f"operator {type(op).__name__} in "
                                  f"{_snippet(node, text)!r} is not allowed")
            symbol = ops[type(op)]
            return lambda rec, read: _compare(read(rec, path), symbol, literal, csv, name)
        raise MetricError(f"{_snippet(node, text)!r} is not allowed (path == literal, in, <, <=, "
                          ">, >=, and, or, not)")

    try:
        return build(tree.body), frozenset(paths)
    except RecursionError:
        raise MetricError(f"{source[:40]!r}... nests too deeply") from None


def _read_path(record: Any, path: tuple[str, ...]) -> Any:
    """A JSON record's value at a dotted path (a list's item by its index)."""
    value = record
    for part in path:
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif (isinstance(value, list) and part.isascii() and part.isdigit()
              and int(part) < len(value)):
            value = value[int(part)]
        else:
            raise _Unreadable(f"{'.'.join(path)}: missing")
    return value


def _read_column(record: Any, path: tuple[str, ...]) -> Any:
    """A CSV row's cell: the path is the column's name (dots and all)."""
    name = ".".join(path)
    if name not in record or record[name] is None:
        raise _Unreadable(f"{name}: no such column")
    return record[name]


class CompiledMetric(NamedTuple):
    spec: MetricSpec
    numerator: Predicate | None
    denominator: Predicate | None  # None: dataset.task_count
    problem: str | None
    fields: frozenset[str]
    strata: frozenset[str] = frozenset()  # stratum values the predicates compare with


def compile_metric(spec: MetricSpec) -> tuple[CompiledMetric, frozenset[str]]:
    literals: dict[str, set[Any]] = {}
    try:
        numerator, fields = compile_predicate(spec.numerator, literals)
        denominator = None
        if spec.denominator.strip() != _TASK_COUNT:
            denominator, more = compile_predicate(spec.denominator, literals)
            fields |= more
        strata = frozenset(str(v) for v in literals.get("stratum", ()))
        return CompiledMetric(spec, numerator, denominator, None, fields, strata), fields
    except MetricError as exc:
        return CompiledMetric(spec, None, None, str(exc), frozenset()), frozenset()


#####################################################################
# The harness registry: what the gate knows of each harness it imports
#####################################################################

# Each importer's row (its reader, options, result-file signs and control-run commands) is filled in
# by the Importers section below, a leaf: the sections above ask only this registry.


class Imported(NamedTuple):
    """What one `import` produced: the ledger rows plus what the harness declared."""

    records: tuple[dict[str, object], ...]
    task_ids: tuple[str, ...]  # the declared dataset, sorted, never "what finished"
    attempt_mode: AttemptMode
    attempt_budget: int
    extra_reasons: tuple[str, ...]
    run_id: str
    source: str  # the importer's name, which is also how check names the control commands to run
    dataset_name: str | None = None
    envelope: Mapping[str, object] = MappingProxyType({})
    rerun_hint: str = ""
    notes: tuple[str, ...] = ()  # non-fatal observations for stderr
    # {"of": N, "selection": "..."}: the run covered part of a dataset
    subset: Mapping[str, object] | None = None
    subset_unit: str = "samples"  # what a subset's "of" counts (Inspect: samples; tasks, documents)
    strata: Mapping[str, int] | None = None  # an Inspect eval set: each task a stratum
    draft_todo: tuple[str, ...] = ()  # what the draft must still ask of the user
    # How the ledger was made, for the draft's "provenance": where the declared set came from, which
    # choices changed a verdict (a selection, a model chosen), and what the harness itself says of
    # the run.
    provenance: Mapping[str, object] = MappingProxyType({})
    # `system`: what was measured (agent, model, configuration)
    measured: Mapping[str, object] = MappingProxyType({})
    timeout_note: str = ""  # how the harness limits a task's time, for the draft's wall-clock item
    # The instrument as the files record it ("version": the harness's release, "commit": its
    # checkout), and each run's where several runs make one claim (one claim, one instrument).
    instrument: Mapping[str, str] = MappingProxyType({})
    run_instruments: tuple[tuple[str, Mapping[str, str]], ...] = ()
    set_found: bool = False  # the declared set is only what the files held, not a declaration


class FieldMapping(NamedTuple):
    """The mapping importer's options, as the command line gave them."""

    task_id: str | None
    passed: str | None
    unscoreable: str | None
    reason: str
    attempt: str | None
    run_id: str | None
    measures: tuple[tuple[str, str], ...]  # (record field, path)
    samples: bool
    unreadable: str  # "error" or "unscoreable"
    counted: str | None = None  # an EXPR: the records it holds for are counted for the note


class ImportOptions(NamedTuple):
    files: tuple[Path, ...]
    dataset_ids: list[str] | None
    partial_as: str
    threshold: float
    control: str | None = None
    model: str | None = None  # inspect: import only this model's logs; else, with agent, declared
    mapping: FieldMapping | None = None  # jsonl, json, csv: how a record's fields make a ledger row
    tests: str = "plus"  # evalplus: the tests a sample must pass (base, or base and plus)
    one_instrument: bool = False  # runs at several harness versions declared one instrument
    agent: str | None = None  # the agent the user declares the files measured


Verdict = tuple[str, "str | None"]  # (outcome, reason) of one attempt


class ImportFormat(NamedTuple):
    """One harness the gate imports: its reader and everything else the gate knows of it."""

    name: str
    summary: str  # for --help: what FILE is
    read: Callable[[ImportOptions], Imported]
    # the verdict options it applies: "threshold", "partial_as", "model"
    options: tuple[str, ...] = ()
    # Which of its records show the harness ran no test (a no-edit control made of them cannot
    # fail), and why.
    ran_no_test: Callable[[Mapping[str, Any]], bool] | None = None
    no_test_why: str = ""
    no_edit: str = ""  # the harness command that makes each control run
    known_fix: str = ""
    # What its own result files hold near their top (each tuple one form: every byte string in it),
    # so that one given to check as a runs file is named, with the import command that converts it
    signs: tuple[tuple[bytes, ...], ...] = ()
    # The path `import` takes for such a file, when it is not the file itself (a run or job folder)
    import_target: Callable[[Path], Path] | None = None
    # Where its signs are tried, first to last: a file that holds another harness's file (a HAL
    # upload holds a SWE-bench report) is tried before it, and the more specific form before the
    # looser (EvalPlus's and BigCodeBench's "eval" before Inspect's)
    sign_rank: int = 0


_IMPORTERS: dict[str, ImportFormat] = {}
IMPORTERS: Mapping[str, ImportFormat] = MappingProxyType(_IMPORTERS)


def _is_manifest(path: Path) -> bool:
    """Is this file (of a manifest's size at most: 1 MiB) one JSON object with a manifest's keys?"""
    try:
        value = load_json_file(path, cap=1 << 20)
    except GateError:
        return False
    return type(value) is dict and {"claim_id", "dataset", "envelope"} <= value.keys()


# how many of a file's first lines are asked whether they are attempt records
_SNIFFED_LINES = 5


def harness_file_kind(path: Path) -> ImportFormat | None:
    """The importer for a file that is a harness's own result file rather than a ledger, or None:
    the first row, by sign_rank, with a form of signs the file's top holds in full. A file with an
    attempt record among its first lines is a ledger (one whose first line is broken, say), though
    its records' harness objects hold a harness's signs."""
    try:
        with open_input(path) as handle:
            head = handle.read(1 << 16)
    except GateError:
        return None
    if head.startswith(b"PK\x03\x04"):
        return IMPORTERS["inspect"]  # a .eval archive
    first = head.lstrip()[:1]
    if first not in (b"{", b"[") or head.lstrip().startswith(b'{"run_id"'):
        return None
    if any((_line_object(line) or {}).keys() >= RECORD_REQUIRED
           for line in head.split(b"\n")[:_SNIFFED_LINES]):
        return None
    ranked = sorted((fmt for fmt in IMPORTERS.values() if fmt.signs), key=lambda fmt: fmt.sign_rank)
    return next((fmt for fmt in ranked for form in fmt.signs if all(sign in head for sign in form)),
                None)


def control_commands(importer: str | None) -> str:
    """The commands that make a no-edit and a known-fix run, from the registry row of the importer
    that read the claim (its name as the provenance records it; a hand-made manifest names none)."""
    fmt = IMPORTERS.get(importer) if importer else None
    if fmt is None or not fmt.no_edit:
        return ""
    return (f"; with {fmt.name}: no-edit: {fmt.no_edit}; known-fix: {fmt.known_fix}; then "
            f"`{invoked('import')} {fmt.name} ... --control no_edit|known_fix -o RUNS "
            "--draft-manifest MANIFEST`")



#####################################################################
# The plan: what one runs file is checked against
#####################################################################


class Reading(NamedTuple):
    """What one pass over a runs file reads besides the records' own checks: the run it keeps
    (None: every run), the per-task wall clock an attempt must keep (inf: none declared), and the
    fields declared metrics read beyond the gate's own."""

    run_id: str | None = None
    limit: float = math.inf
    extra_fields: frozenset[str] = frozenset()


def ids_digest(ids: Iterable[str]) -> str:
    """The ledger's task_ids_sha256: sha256 of the sorted, de-duplicated IDs joined by newlines."""
    # sorted() first, then de-duplicate in order: a set would shuffle an already sorted file's IDs
    # and turn a linear Timsort pass into a full n log n sort. PERF: a dict's or a set's keys are
    # distinct already (the ledger passes its task dict): no copy to de-duplicate, and the digest is
    # fed in slices, so the joined text of 10^7 IDs never exists at once.
    keys = sorted(ids) if isinstance(ids, (dict, set,
                                           frozenset)) else list(dict.fromkeys(sorted(ids)))
    return _sorted_ids_digest(keys)


def _sorted_ids_digest(keys: Sequence[str]) -> str:
    """ids_digest of IDs sorted and distinct already."""
    digest = hashlib.sha256()
    step = 1 << 16
    for start in range(0, len(keys), step):
        part = ("\n" if start else "") + "\n".join(keys[start:start + step])
        digest.update(part.encode("utf-8"))
    return digest.hexdigest()


class Plan(NamedTuple):
    """The manifest, completed by the card if there is one: everything settle() needs."""

    gating: Gating  # the claim's own ledger, or one of its control runs
    task_count: int
    task_ids_sha256: str
    declared_ids: DeclaredIds | None
    strata: dict[str, int] | None
    task_strata: dict[str, str] | None  # from the card: task -> stratum
    withheld: frozenset[str]
    controls: tuple[Control, ...]
    control_run_roles: frozenset[str]
    contract: AttemptContract
    reasons: frozenset[str]
    wall_clock_limit: float | None
    metrics: tuple[CompiledMetric, ...]
    extra_fields: frozenset[str]
    confidence: float
    control_hint: str = ""  # how the harness that wrote the records makes its control runs

    def reading(self, run_id: str | None, fields: bool = True) -> Reading:
        """A pass over a runs file for this plan: its wall-clock limit, and (with `fields`) the
        fields its metrics read."""
        limit = math.inf if self.wall_clock_limit is None else self.wall_clock_limit
        return Reading(run_id, limit, self.extra_fields if fields else frozenset())


class CardContext(NamedTuple):
    """A card as `check` uses it: parsed, verified against its task slice, and the slice's strata.
    """

    card: Card
    task_ids: frozenset[str]
    task_strata: dict[str, str]
    drift: tuple[str, ...]


def _card_findings(manifest: Manifest, context: CardContext) -> list[Finding]:
    """Where the card and the manifest disagree, or the slice drifted from its card."""
    card = context.card
    findings = []
    if context.drift:
        findings.append(finding("card_drift", "; ".join(context.drift)))
    if card.task_ids_sha256 != manifest.task_ids_sha256:
        findings.append(finding("card_manifest_mismatch", (
            f"the card's task_ids_sha256 {str(card.task_ids_sha256)[:12]} is not the manifest's "
            f"{manifest.task_ids_sha256[:12]}: the card and the claim describe different suites")))
    if manifest.task_ids is not None and manifest.task_ids.ids() != context.task_ids:
        findings.append(finding("card_manifest_mismatch",
                                "dataset.task_ids differs from the card's task list"))
    if manifest.strata is not None and manifest.strata != card.strata:
        findings.append(finding("stratum_count_mismatch",
                                "dataset.strata in the manifest differs from the card's strata"))
    if manifest.attempt_budget is not None and manifest.attempt_budget != card.attempt_budget:
        findings.append(finding("attempt_budget_mismatch", (
            f"the manifest says attempt_budget {manifest.attempt_budget}, the card's metric "
            f"contract says {card.attempt_budget}; the contract is fixed before any model is "
            "called")))
    return findings


def _compile_metrics(specs: Sequence[MetricSpec],
                     withheld: frozenset[str]) -> tuple[tuple[CompiledMetric, ...], frozenset[str]]:
    metrics = []
    fields: set[str] = set()
    for spec in specs:
        compiled, used = compile_metric(spec)
        hidden = sorted(compiled.strata & withheld)
        if compiled.problem is None and hidden:  # no rate is ever printed for a withheld stratum
            compiled = compiled._replace(numerator=None, denominator=None,
                                         problem=f"stratum {hidden[0]!r} is withheld (below the "
                                                 "floor): it gets no rate")
        metrics.append(compiled)
        fields |= used
    return tuple(metrics), frozenset(fields)


def make_plan(manifest: Manifest, context: CardContext | None,
              confidence: float) -> tuple[Plan, tuple[Finding, ...]]:
    """Combine the manifest and the card into one plan; disagreements between them are findings."""
    if context is None:
        findings: list[Finding] = []
        declared_ids = manifest.task_ids
        strata, task_strata, withheld = manifest.strata, None, frozenset[str]()
        budget = manifest.attempt_budget or 1
    else:
        findings = _card_findings(manifest, context)
        declared_ids = DeclaredIds.of(context.task_ids)
        strata, withheld = context.card.strata, context.card.withheld
        task_strata = context.task_strata
        budget = context.card.attempt_budget
    metrics, fields = _compile_metrics(manifest.metrics, withheld)
    plan = Plan(
        gating="claim",
        task_count=manifest.task_count,
        task_ids_sha256=manifest.task_ids_sha256,
        declared_ids=declared_ids,
        strata=strata,
        task_strata=task_strata,
        withheld=withheld,
        controls=manifest.controls,
        control_run_roles=frozenset(run.role for run in manifest.control_runs),
        contract=AttemptContract(manifest.attempt_mode, budget),
        reasons=manifest.reasons,
        wall_clock_limit=manifest.wall_clock_limit,
        metrics=metrics,
        extra_fields=fields - RECORD_FIELDS,
        confidence=confidence,
        control_hint=control_commands(manifest.provenance.importer if manifest.provenance
                                      else None),
    )
    return plan, tuple(findings)


def control_run_plan(plan: Plan, role: ControlRunRole) -> Plan:
    """A control run is gated over the same dataset and contract, without controls or metrics of its
    own."""
    return plan._replace(gating=role, controls=(), metrics=(), extra_fields=frozenset())


#####################################################################
# The streaming tally: one pass over the runs file, a chunk of records at a time
#####################################################################

# A task's attempts are kept packed: one int per attempt, its kind (an index into the tally's
# (outcome, reason, stratum) combinations) in the low _KIND_BITS bits and its attempt number
# minus one above them. A task with one attempt holds the int, a task with several a tuple.
_KIND_BITS = 32
_KIND_MASK = (1 << _KIND_BITS) - 1
PASS, FAIL, UNSCOREABLE, NO_EXIT = 0, 1, 2, 3  # a task's exit; NO_EXIT: no attempt gave a valid one
_OUTCOME_CODE = {"pass": PASS, "fail": FAIL, "unscoreable": UNSCOREABLE}


def pack_attempt(kind: int, number: int) -> int:
    return kind | ((number - 1) << _KIND_BITS)


def attempt_kind(packed: int) -> int:
    return packed & _KIND_MASK


def attempt_number(packed: int) -> int:
    return (packed >> _KIND_BITS) + 1


def task_attempts(value: AttemptPattern) -> tuple[int, ...]:
    """A task's packed attempts in order of attempt number (then kind)."""
    return (value,) if type(value) is int else tuple(sorted(cast("tuple[int, ...]", value)))


class KindInfo(NamedTuple):
    """One (outcome, reason, stratum, timed) combination seen in the records, decoded once."""

    code: int  # PASS, FAIL, UNSCOREABLE, or NO_EXIT for an outcome outside the three buckets
    reason: Any
    stratum: Any
    outcome: Any  # as written
    timed: bool  # the attempt carries wall_clock_s


_HAS_CAPITAL = re.compile("[A-Z]").search


def fold_task_id(tid: str) -> str:
    """What a task ID looks like to a reader: NFKC-normalised and case-folded."""
    if tid.isascii():
        return tid.lower()
    import unicodedata

    return unicodedata.normalize("NFKC", tid).casefold()


def _lookalikes(ids: Collection[str]) -> list[tuple[str, ...]]:
    """Groups of distinct task IDs that look the same once folded."""
    # PERF: distinct ASCII IDs fold by lower-casing alone, so when no ID has a capital letter none
    # folds onto another, and when lower-casing keeps them distinct neither does any; both are
    # checked in C, the first on the IDs' joined text (a search an ID took a fifth of a second at
    # 10^6).
    joined = "\n".join(ids)
    if joined.isascii() and (joined == joined.lower() or len(set(map(str.lower, ids))) == len(ids)):
        return []
    groups: dict[str, list[str]] = {}
    for tid in ids:
        groups.setdefault(fold_task_id(tid), []).append(tid)
    return sorted(tuple(sorted(group)) for group in groups.values() if len(group) > 1)


class _Tally:
    """Per-task state while streaming: memory grows with tasks, not with the file."""

    def __init__(self) -> None:
        self.tasks: dict[str, AttemptPattern] = {}  # task -> its packed attempt(s)
        # (outcome, reason, stratum, timed) -> kind number
        self.kinds: dict[RecordKind, int] = {}
        # task -> the cluster its records name (the per-task table; see _note_cluster), and the
        # tasks whose records name two (or one and none)
        self.clusters: dict[str, str] = {}
        self.cluster_conflicts: set[str] = set()
        self.infos: list[KindInfo] = []  # the kinds as kind_infos gives them
        self.run_ids: set[str] = set()  # the runs gated
        self.all_run_ids: set[str] = set()  # every run in the file
        self.accepted_keys: set[str] = set(RECORD_KEYS)  # record keys checked and accepted so far
        self.records = 0
        self.over_envelope = FirstFew()
        # task -> the latest attempt's fields
        self.extras: dict[str, tuple[int, str, dict[str, Any]]] = {}
        self.seen_fields: set[str] = set()  # the extra fields some record carries
        self.cost: dict[str, float | tuple[float, ...]] = {}
        self.tokens: dict[str, int] = {}
        self.sha256 = ""
        # What settle reads of the tasks: the summary a producer filled while reading (the sorted
        # stream, the unsorted summary, the workers' streams merged), or None until settle
        # summarises the per-task table (summarize). Either way one value of one type, _Stream.
        self.summary: _Stream | None = None

    def summarize(self, plan: Plan) -> _Stream:
        """The tasks' summary (see summary): the per-task table's is made on the first ask."""
        if self.summary is None:
            self.summary = _TableSummary(self, plan.declared_ids,
                                         frozenset(c.task_id for c in plan.controls))
        return self.summary

    def kind_infos(self) -> list[KindInfo]:
        if len(self.infos) != len(self.kinds):  # PERF: built once
            self.infos = [KindInfo(_OUTCOME_CODE.get(outcome, NO_EXIT), reason, stratum, outcome,
                                   timed)
                          for outcome, reason, stratum, timed in self.kinds]
        return self.infos

    def timing(self) -> str:
        """Whether the attempts carry wall_clock_s: "all", "none" or "some"."""
        timed = {key[3] for key in self.kinds}
        if len(timed) > 1:
            return "some"
        return "all" if True in timed else "none"


class _Table:
    """The per-task table (the tally's `tasks`, `cost` and `tokens`) as the canonical path fills it:
    a proven chunk's attempts and costs go in as below, as the general path (_tally_records) puts
    them in record by record. It is an output of its own, for the callers that need every task
    (digest, init, the task scores); settle reads its summary (_TableSummary)."""

    def __init__(self, tally: _Tally) -> None:
        self.tally = tally

    def unproven(self) -> None:
        """A chunk the canonical path did not prove: the general path puts it in (_tally_records).
        """

    def conclude(self, tally: _Tally) -> _Stream | None:
        """The file read: settle summarises the table when it asks (_Tally.summarize)."""
        return None

    def add(self, tids: Sequence[str], packed: Sequence[int],
            clusters: Sequence[str | None] | None = None) -> bool:
        """Add a chunk's attempts (and their clusters, where the chunk names any); True if every
        one is of a task not seen before."""
        tally = self.tally
        tasks = tally.tasks
        chunk = dict(zip(tids, packed))
        # no task seen before, none twice
        fresh = len(chunk) == len(tids) and tasks.keys().isdisjoint(chunk)
        if fresh:
            tasks.update(chunk)
            if clusters is not None:
                tally.clusters.update(cast("Iterable[tuple[str, str]]", (
                    pair for pair in zip(tids, clusters) if pair[1] is not None)))
        elif clusters is None and not tally.clusters:
            _add_attempts(tasks, tids, packed)
        else:
            for tid, attempt, cluster in zip(tids, packed, clusters or itertools.repeat(None)):
                first = tid not in tasks
                _add_attempts(tasks, (tid,), (attempt,))
                _note_cluster(tally, tid, cluster, first)
        return fresh

    def add_costs(self, tids: Sequence[str], costs: Sequence[str | None],
                  sums: Sequence[int | None], fresh: bool) -> None:
        """A chunk's costs (the groups' text) and token totals, in the order add() took them."""
        tally = self.tally
        if fresh:
            tally.cost.update(zip(itertools.compress(tids, costs), map(float, filter(None, costs))))
            counted = ((tid, total) for tid, total in zip(tids, sums) if total is not None)
            tally.tokens.update(zip(tids, sums) if all(sums)  # type: ignore[arg-type]
                                else counted)  # (all true: every total an int; see complete_costs)
            return
        for tid, cost, total in zip(tids, costs, sums):
            if cost:
                _add_cost(tally.cost, tid, float(cost))
            if total is not None:
                tally.tokens[tid] = tally.tokens.get(tid, 0) + total


def _bad_field(where: str, line: int, key: str, expected: str, value: object) -> NoReturn:
    if value is None:
        raise GateError(f"{where}:{line}: {key}: expected {expected}, got missing")
    _expected(f"{where}:{line}: {key}", expected, value)


def _new_kind(kinds: dict[RecordKind, int], key: RecordKind, where: str, line: int) -> int:
    """Validate an (outcome, reason, stratum, timed) combination the first time it is seen."""
    outcome, reason, stratum, _ = key
    if type(outcome) is not str:
        _bad_field(where, line, "outcome", "'pass', 'fail' or 'unscoreable'", outcome)
    if reason is not None and type(reason) is not str:
        _bad_field(where, line, "reason", "a reason class or null", reason)
    if stratum is not None and (type(stratum) is not str or not stratum):
        _bad_field(where, line, "stratum", "a non-empty string", stratum)
    kinds[key] = len(kinds)
    return kinds[key]


_UNSET = object()
# a chunk with more attempt patterns than this lists each pattern's first tasks in one pass
_FEW_PATTERNS = 16
_COST_FIELDS = ("cost_usd", "input_tokens", "output_tokens", "total_tokens")
# The record fields the gate reads. Records are open (harnesses add their own fields), but a key
# that is a near miss of one of these is refused: it would switch a check off in silence.
RECORD_KEYS = ("run_id", "task_id", "attempt", "outcome", "reason", "wall_clock_s", "stratum",
               "cluster", *_COST_FIELDS, "harness")


def _check_record_keys(rec: dict[str, Any], accepted: set[str], where: str, line: int) -> None:
    """Keys not seen before: each is accepted, or refused as a near miss of a field the gate reads.
    """
    for key in rec:
        if key in accepted:
            continue
        close = near_miss(key, RECORD_KEYS) if not key.startswith(USER_PREFIX) else None
        if close is not None:
            raise GateError(f"{where}:{line}: {key}: not a field the gate reads, and close to "
                            f"{close!r}: did you mean {close!r}? (rename it, or start your own "
                            f"fields with {USER_PREFIX!r})")
        accepted.add(key)
_MAX_COUNT = 1e15  # per attempt: far above any real cost or token count, and sums stay finite


def _count_field(value: object) -> int | None:
    return cast(int, value) if _is_int(value) and 0 <= cast(int, value) <= _MAX_COUNT else None


def _cost_field(value: object) -> float | None:
    return (float(cast(float, value))
            if _is_number(value) and math.isfinite(cast(float, value))
            and 0 <= cast(float, value) <= _MAX_COUNT else None)


def tally_runs(path: Path, reading: Reading, must_exist: bool = True,
               summary: tuple[DeclaredIds | None, frozenset[str]] | None = None,
               jobs: int = 1, keep_order: bool = False) -> _Tally:
    """One streaming pass over the runs file, a chunk of lines at a time; a harness's own result
    file given instead of a ledger is named, with the import command that converts it.

    With `summary` (the declared IDs, the control IDs), a ledger in task-ID order is kept as a
    _Stream, an unsorted one as an _Unsorted summary, not a per-task table. The summaries may each
    hand the file back (_OutOfOrder, _EndStream) to be read again another way (_READING_WAYS), so
    they and the canonical path are only tried on a regular file (of _FAST_MIN_BYTES or more); a
    pipe or a device takes the general path. With `jobs` > 1 a large
    sorted ledger is first tried in worker processes; with `keep_order` the stream also keeps
    each task's pattern in task-ID order (for compare and rank).
    """
    args = (path, reading, must_exist)
    try:
        if not _worth_a_fast_pass(path):
            return _tally_runs(*args, fast_path=False)
        if (jobs > 1 and summary is not None and not keep_order and not reading.extra_fields
                and _worth_workers(path)):
            tally = _tally_in_workers(path, reading, summary, jobs)
            if tally is not None:
                return tally
        way = "stream" if summary is not None else "table"
        while True:  # each way of reading the file, until one answers (a typed decision)
            try:
                return _tally_runs(*args, **_READING_WAYS[way](summary, keep_order))
            except _OutOfOrder:  # an unsorted ledger: its own summary, but none in task-ID order
                way = "unsorted" if way == "stream" and not keep_order else "table"
            except _EndStream:  # the summary cannot answer for this file: the per-task table
                way = "table"
    except (BadLines, LineError) as exc:  # a harness's own file fails at its first line or two
        fmt = harness_file_kind(path) if exc.line <= 2 else None
        if fmt is None and exc.line <= 2 and _is_manifest(path):
            raise GateError(f"{path}: a manifest, not a runs file of attempt records: give it as "
                            "--manifest, and the runs file (one record a line) as --runs") from None
        if fmt is None:
            raise
        raise GateError(_harness_file(path, fmt, "a ledger of attempt records")) from None


def _harness_file(path: Path, fmt: ImportFormat, instead: str) -> str:
    """What to say of a harness's own result file given where `instead` belongs."""
    target = fmt.import_target(path) if fmt.import_target else path
    return (f"{path}: a {fmt.name} result file, not {instead}: convert it with "
            f"`{invoked('import')} {fmt.name} {shlex.quote(str(target))} -o runs.jsonl "
            "--draft-manifest bench.manifest.json`")


# The ways tally_runs reads a file, as _tally_runs's options (given the summary's declared and
# control IDs, and whether the summary must keep task-ID order): the sorted stream, the unsorted
# summary, the canonical path into the per-task table
_READING_WAYS: dict[str, Callable[[Any, bool], dict[str, Any]]] = {
    "stream": lambda ids, keep_order: {"stream": _Stream(ids[0], ids[1], keep_order)},
    "unsorted": lambda ids, _: {"stream": _Unsorted(ids[0], ids[1])},
    "table": lambda *_: {},
}


# PERF: below this size the general path is as quick as compiling the canonical path's expressions
_FAST_MIN_BYTES = 1 << 18


def _worth_a_fast_pass(path: Path) -> bool:
    """A regular file (it can be read again) large enough for the canonical path to pay for itself.
    """
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return False  # open_input says what is wrong with it
    return stat.S_ISREG(info.st_mode) and info.st_size >= _FAST_MIN_BYTES


def _worth_workers(path: Path) -> bool:
    return hasattr(os, "fork") and os.stat(path).st_size >= _JOBS_MIN_BYTES


def _tally_runs(path: Path, reading: Reading, must_exist: bool = True, fast_path: bool = True,
                stream: _Stream | None = None) -> _Tally:
    tally = _Tally()
    where = str(path)
    hasher = hashlib.sha256()
    # PERF: parsed records make no reference cycles, so the cycle collector would only re-scan a
    # million-entry task table for nothing (about 8% of the time at 10^6 attempts).
    collecting = gc.isenabled()
    gc.disable()
    problems = LineProblems()  # every bad line is named in one run (up to MAX_REPORTED_LINES)
    # where the attempts go: a summary (the sorted stream, the unsorted one), or the task table
    sink: _Stream | _Table = stream if stream is not None else _Table(tally)
    fast = None
    if fast_path and not reading.extra_fields:
        fast = _FastPath(tally, where, reading, sink)
    try:
        for chunk in iter_jsonl_batches(path, hasher, problems, fast):
            sink.unproven()  # a chunk the canonical path did not prove
            _tally_records(tally, chunk, where, reading, problems)
    except BadLines:
        raise
    # what stops the pass (an unreadable file, an overlong line), after the lines before it
    except GateError as exc:
        problems.raise_any(exc)
    finally:
        if collecting:
            gc.enable()
    problems.raise_any()
    if reading.run_id is not None and not tally.run_ids and must_exist:
        raise GateError(f"{where}: --run-id {reading.run_id!r}: no record has this run_id")
    tally.summary = sink.conclude(tally)
    tally.sha256 = hasher.hexdigest()
    return tally


# -- the sorted stream -------------------------------------------------------------------------
#
# Harnesses and importers write a ledger in task-ID order. While the IDs arrive in order, a task is
# complete when the next ID arrives, so instead of a table of every task the stream keeps only what
# settle reads: how many tasks have each attempt pattern (and the first few of each, to name them),
# the running digest of the IDs, the controls' patterns, the IDs that could be look-alikes, and each
# task's cost and tokens in arrays. Memory then stays flat however many tasks the file holds (but
# for the cost arrays). An ID out of order, a chunk the canonical path does not prove, or anything
# the summary cannot answer exactly (a declared task missing, an undeclared one, a non-ASCII ID)
# ends the stream: the file is read again into the per-task table, so every report is the table's by
# construction.


class _EndStream(Exception):
    """The stream cannot answer for this file: read it again into the per-task table."""


class _OutOfOrder(_EndStream):
    """The IDs do not arrive in order: the file may still be summarised, by _Unsorted."""


class _Closed(NamedTuple):
    """Complete tasks in ID order, summarised as the stream keeps them: the one shape in which it
    takes a chunk's tasks, a key range's of an unsorted ledger and a worker's range (_Stream.take).
    A new datum kept of the tasks is a field here, filled where a chunk's are closed
    (_Stream.close) and merged in take."""

    ids: list[bytes]  # the IDs' text, joined by newlines (a later part may start with one)
    complete: int
    # one a task (a chunk's), or counted (a range's): Counter.update takes either
    patterns: Sequence[AttemptPattern] | Mapping[AttemptPattern, int]
    first: dict[AttemptPattern, list[str]]  # each pattern's first tasks that the stream lacks
    controls: dict[str, AttemptPattern]
    folds: dict[str, list[str]]  # look-alike candidates among these tasks (_folds)


def _folds(tids: Sequence[str], joined: str) -> dict[str, list[str]]:
    """The IDs (in order, `joined` by newlines) that may be look-alikes: each ASCII ID with a
    capital under the lower-cased ID it folds to (which sorts after it), and that ID too when it is
    among them."""
    if joined == joined.lower():
        return {}
    folds: dict[str, list[str]] = {}
    for tid in filter(_HAS_CAPITAL, tids):
        folds.setdefault(tid.lower(), []).append(tid)
    for tid in folds.keys() & set(tids):
        folds[tid].append(tid)
    return folds


class _TwoClusters(NamedTuple):
    """A task whose records name two clusters (or one and none): a cluster_conflict, counted in no
    cluster; compare pairs it in its first record's."""

    first: str | None


_FOLD_AT = 4096  # the stream folds its clusters when it counts more (pattern, cluster) pairs


def _one_cluster(first: Any, second: Any) -> Any:
    """The cluster of a task's records so far and one more record's."""
    if first == second or type(first) is _TwoClusters:
        return first
    return _TwoClusters(first)


def _profiles(loose: Mapping[tuple[AttemptPattern, str], int]) -> Counter[Profile]:
    """Each cluster as its profile, how many tasks of each attempt pattern it holds (what its sum
    and size come from), counted: a cluster a task is a few profiles, not 10^6 clusters."""
    if len(set(map(operator.itemgetter(1), loose))) == len(loose):  # PERF: a pattern a cluster
        alone = Counter(zip(map(operator.itemgetter(0), loose), loose.values()))
        return Counter({frozenset((pair,)): n for pair, n in alone.items()})
    by_cluster: dict[str, list[tuple[AttemptPattern, int]]] = {}
    for (pattern, cluster), n in loose.items():
        by_cluster.setdefault(cluster, []).append((pattern, n))
    return Counter(map(frozenset, by_cluster.values()))


class _Stream:
    """The summary of a ledger whose task IDs arrive in order (see above)."""

    def __init__(self, declared: DeclaredIds | None, controls: frozenset[str],
                 keep_order: bool = False) -> None:
        self.declared, self.control_ids = declared, controls
        self.at: int | None = None  # where the next declared ID starts in declared.text (run_at)
        # With keep_order (compare, rank): each complete task's number of its (pattern, cluster), in
        # task-ID order, so that two ledgers of the same tasks pair by position without a table of
        # IDs (see AlignedScores)
        self.numbers: dict[tuple[AttemptPattern, str | None], int] = {}
        self.order: array[int] | None = array("I") if keep_order else None
        self.patterns: Counter[AttemptPattern] = Counter()
        self.first: dict[AttemptPattern, list[str]] = {}  # pattern -> its first _LIST_LIMIT tasks
        # the patterns whose first tasks are all listed
        self.full: set[AttemptPattern] = set()
        self.controls: dict[str, AttemptPattern] = {}
        self.count = 0
        self.digest: Any = hashlib.sha256()  # a worker's stream collects the text instead (_Joined)
        # lower-cased ID -> the IDs with a capital letter that fold to it
        self.folds: dict[str, list[str]] = {}
        self.last = ""  # the open task: the last ID seen, its attempts and its cluster so far
        self.open: list[int] = []
        self.open_cluster: Any = None  # (_TwoClusters once its records name two)
        # Clusters: how many tasks of each pattern each cluster holds, and clusters folded into
        # their profiles (_profiles) once the next cluster in name order has begun, all of them
        # up to `folded`; the tasks whose records name two clusters
        self.loose: Counter[tuple[AttemptPattern, str]] = Counter()
        self.profiles: Counter[Profile] = Counter()
        self.folded: str | None = None
        self.fold_at: float = _FOLD_AT  # (a worker's never folds: a cluster may span ranges)
        self.conflicts = FirstFew()
        # Each complete task's cost (the exact sum of its attempts') and tokens, for the tasks that
        # have them, and how many have either; the task with a cost still open, and what it has so
        # far.
        self.cost, self.tokens, self.measured = array("d"), array("Q"), 0
        self.cost_task, self.open_cost, self.open_tokens = "", cast("list[float]",
                                                                    []), cast("int | None", None)

    def add(self, tids: Sequence[str], packed: Sequence[int],
            clusters: Sequence[str | None] | None = None) -> bool:
        """Add a chunk's attempts (and their clusters, where the chunk names any) in file order;
        True if every one is of a task not seen before."""
        if tids[0] < self.last:
            raise _OutOfOrder()
        named = clusters or itertools.repeat(None)
        # PERF: one task a record, checked in C
        if all(map(operator.lt, tids, itertools.islice(tids, 1, None))):
            fresh = tids[0] != self.last
            if not fresh:
                self.open.append(packed[0])
                self.open_cluster = _one_cluster(self.open_cluster, next(iter(named)))
                tids, packed, clusters = tids[1:], packed[1:], clusters and clusters[1:]
            if tids:
                if self.open:
                    self.close([self.last], [self.pattern()], [self.open_cluster])
                self.close(tids[:-1], packed[:-1], clusters and clusters[:-1])
                self.last, self.open = tids[-1], [packed[-1]]
                self.open_cluster = clusters[-1] if clusters else None
            return fresh
        if not all(map(operator.le, tids, itertools.islice(tids, 1, None))):
            raise _OutOfOrder()
        done, patterns, theirs = [], [], []
        for tid, group in itertools.groupby(zip(tids, packed, named), operator.itemgetter(0)):
            rows = list(group)
            cluster = functools.reduce(_one_cluster, [row[2] for row in rows])
            if tid == self.last:
                self.open += [attempt for _, attempt, _ in rows]
                self.open_cluster = _one_cluster(self.open_cluster, cluster)
                continue
            if self.open:
                done.append(self.last)
                patterns.append(self.pattern())
                theirs.append(self.open_cluster)
            self.last, self.open = tid, [attempt for _, attempt, _ in rows]
            self.open_cluster = cluster
        self.close(done, patterns, theirs)
        return False

    def pattern(self) -> AttemptPattern:
        return self.open[0] if len(self.open) == 1 else tuple(self.open)

    def next_declared(self, joined: str) -> bool:
        """Are these IDs in order (`joined` by newlines) the next declared ones, or is no set
        declared? A sorted ledger of the declared tasks (the only one the stream can answer for)
        holds them all, in order: each chunk's are the next slice of the declared text."""
        if self.declared is None:
            return True
        self.at = self.declared.run_at(joined, self.at)
        return self.at is not None

    def close(self, tids: Sequence[str], patterns: Sequence[AttemptPattern],
              clusters: Sequence[Any] | None = None) -> None:
        """Complete tasks (in order, none seen before), summarised as a worker's range is and taken
        as it is (take); their clusters, where any names one, counted apart (close_clusters)."""
        if not tids:
            return
        joined = "\n".join(tids)
        if not joined.isascii() or not self.next_declared(joined):
            raise _EndStream()
        if clusters is not None and any(clusters):
            clusters = self.close_clusters(tids, patterns, clusters)
        if self.order is not None:
            numbers = self.numbers
            paired = list(zip(patterns, clusters or itertools.repeat(None)))
            if self.conflicts.count:  # compare pairs a task of two clusters in its first record's
                paired = [(p, c.first if type(c) is _TwoClusters else c) for p, c in paired]
            for pair in [p for p in dict.fromkeys(paired) if p not in numbers]:
                numbers[pair] = len(numbers)
            self.order.extend(map(numbers.__getitem__, paired))
        controls = {tid: patterns[tids.index(tid)] for tid in self.control_ids.intersection(tids)
                    } if not self.control_ids.isdisjoint(tids) else {}
        self.take(_Closed([joined.encode("ascii")], len(tids), patterns,
                          self.first_of(tids, patterns), controls, _folds(tids, joined)), tids)

    def close_clusters(self, tids: Sequence[str], patterns: Sequence[AttemptPattern],
                       clusters: Sequence[Any]) -> Sequence[Any]:
        """Count complete tasks' clusters (a task whose records name two is a conflict, counted in
        none), folding the clusters before the highest named into their profiles when many are
        open; a task in a cluster already folded ends the stream (its profile is closed)."""
        counted = Counter(zip(patterns, clusters))  # PERF: in C; then the tasks in none taken out
        for pattern in set(patterns):
            counted.pop((pattern, None), None)
        if any(map(isinstance, clusters, itertools.repeat(_TwoClusters))):
            for tid, pattern, cluster in zip(tids, patterns, clusters):
                if type(cluster) is _TwoClusters:
                    self.conflicts.add((tid,))
                    counted.pop((pattern, cluster), None)
        self.count_clusters(counted)
        return clusters

    def count_clusters(self, counted: Counter[tuple[AttemptPattern, str]]) -> None:
        """Tasks of each (pattern, cluster) into the count (a chunk's, or a worker's range's);
        past fold_at pairs, every cluster but the highest folded (PERF: each step in C but the
        profiles' grouping, which _profiles does in C too when no cluster has two patterns)."""
        names = operator.itemgetter(1)
        if self.folded is not None and counted and min(map(names, counted)) <= self.folded:
            raise _EndStream()
        loose = self.loose
        loose.update(counted)
        if len(loose) > self.fold_at:
            top = max(map(names, loose))
            kept = {pair: loose.pop(pair) for pair in
                    [(pattern, top) for pattern in set(map(operator.itemgetter(0), loose))]
                    if pair in loose}
            if loose:  # (else every pair is the highest cluster's: nothing to fold)
                self.folded = max(map(names, loose))
                self.profiles.update(_profiles(loose))
            self.loose = Counter(kept)

    def first_of(self, tids: Sequence[str], patterns: Sequence[AttemptPattern]
                 ) -> dict[AttemptPattern, list[str]]:
        """The first tasks of each pattern here that the stream lists fewer than _LIST_LIMIT of,
        as many as it lacks: one C-level scan a pattern while a chunk has few patterns, one pass
        over the chunk when it has many."""
        lacking = {pattern: _LIST_LIMIT - len(self.first.get(pattern, ()))
                   for pattern in set(patterns).difference(self.full)}
        found: dict[AttemptPattern, list[str]] = {}
        # PERF: many patterns (a cluster a task, say): one pass, not one scan each
        if len(lacking) > _FEW_PATTERNS:
            for tid, pattern in zip(tids, patterns):
                if pattern in lacking:
                    found.setdefault(pattern, []).append(tid)
                    lacking[pattern] -= 1
                    if not lacking[pattern]:
                        del lacking[pattern]
            return found
        for pattern, need in lacking.items():
            few = found[pattern] = []
            at = -1
            try:
                while len(few) < need:
                    at = patterns.index(pattern, at + 1)
                    few.append(tids[at])
            except ValueError:  # no more tasks of this pattern in the chunk
                pass
        return found

    def take(self, closed: _Closed, tids: Sequence[str] | None = None) -> None:
        """Complete tasks that follow those taken so far in ID order (a chunk's, a key range's of
        an unsorted ledger, a worker's range) into the summary: the one merge. `tids` are their
        IDs where the caller has them, else read from their text when look-alikes ask. Each field
        of _Closed is merged here, in its order."""
        for blob in closed.ids:
            self.digest.update(b"\n" + blob if self.count and not blob.startswith(b"\n") else blob)
        self.count += closed.complete
        self.patterns.update(closed.patterns)
        for pattern, few in closed.first.items():
            mine = self.first.setdefault(pattern, [])
            mine += few[:_LIST_LIMIT - len(mine)]
            if len(mine) >= _LIST_LIMIT:
                self.full.add(pattern)
        self.controls.update(closed.controls)
        # an ID here that one with a capital taken before folds to
        if self.folds:
            seen = tids if tids is not None else b"\n".join(closed.ids).decode("ascii").split("\n")
            if not self.folds.keys().isdisjoint(seen):
                for tid in (self.folds.keys() & set(seen)) - closed.folds.keys():
                    self.folds[tid].append(tid)
        for tid, group in closed.folds.items():
            self.folds.setdefault(tid, []).extend(group)

    def closed(self) -> _Closed:
        """Every task taken so far, as one _Closed (a worker's range, for the parent's take)."""
        return _Closed(cast("_Joined", self.digest).parts, self.count, self.patterns, self.first,
                       self.controls, self.folds)

    def add_costs(self, tids: Sequence[str], costs: Sequence[str | None],
                  sums: Sequence[int | None], fresh: bool) -> None:
        """A chunk's costs (the groups' text) and token totals, in the order add() took its
        attempts."""
        if not fresh:
            for tid, cost, total in zip(tids, costs, sums):
                if tid != self.cost_task:
                    self.close_cost(tid)
                if cost:
                    self.open_cost.append(float(cost))
                if total is not None:
                    self.open_tokens = total + (self.open_tokens or 0)
            return
        self.close_cost(tids[-1])  # every task here is new: all but the last are complete
        self.complete_costs(costs[:-1], sums[:-1])
        self.open_cost = [float(costs[-1])] if costs[-1] else []
        self.open_tokens = sums[-1]

    def complete_costs(self, costs: Sequence[str | None], sums: Sequence[int | None]) -> None:
        """The cost and tokens of tasks complete with one attempt each, one a task in order."""
        self.cost.extend(map(float, filter(None, costs)))
        # Every task reports tokens, so every task is measured. PERF: all() asks each sum its truth,
        # quicker than `None in` comparing each with None; a 0 takes the other branch, right too.
        if all(sums):
            self.tokens.extend(sums)  # type: ignore[arg-type]  # (no None)
            self.measured += len(sums)
        else:
            counted = list(map(operator.is_not, sums, itertools.repeat(None)))
            kept = itertools.compress(sums, counted)
            self.tokens.extend(kept)  # type: ignore[arg-type]  # (no None)
            self.measured += sum(map(operator.or_, map(bool, costs), counted))

    def close_cost(self, next_task: str) -> None:
        if self.open_cost:
            cost = self.open_cost
            self.cost.append(cost[0] if len(cost) == 1 else math.fsum(cost))
        if self.open_tokens is not None:
            # thousands of attempts at the bound: past what the array holds
            if self.open_tokens >= 1 << 64:
                raise _EndStream()
            self.tokens.append(self.open_tokens)
        self.measured += bool(self.open_cost) or self.open_tokens is not None
        self.cost_task, self.open_cost, self.open_tokens = next_task, [], None

    def finish(self, whole: bool = True) -> None:
        """Close the last task; for the whole file (not a worker's range), check every declared task
        was seen."""
        self.close_cost("")
        if self.open:
            self.close([self.last], [self.pattern()], [self.open_cluster])
            self.open = []
        if whole and self.declared is not None and self.count != len(self.declared):
            raise _EndStream()  # a declared task has no record: the table names it

    def merge(self, tally: _Tally, part: _RangePart) -> None:
        """A worker's summary of the next range in file order (see _range_summary) into this stream
        and its tally, the kinds renumbered in the order the file shows them; _EndStream if its
        tasks do not follow on. Each field of _RangePart is merged here, in its order (its tasks
        by take, as a chunk's are)."""
        tasks = part.tasks
        if tasks.complete and self.count and part.first_id <= self.last:
            raise _EndStream()
        kinds = [tally.kinds.setdefault(key, len(tally.kinds)) for key in part.kinds]
        moved = None
        # PERF: the same kinds in the same order (the usual case) need no renumbering
        if kinds != list(range(len(kinds))):
            moved = functools.partial(_renumbered, kinds)
            tasks = tasks._replace(
                patterns={moved(pattern): n for pattern, n in
                          cast("Mapping[AttemptPattern, int]", tasks.patterns).items()},
                first={moved(pattern): few for pattern, few in tasks.first.items()},
                controls={tid: moved(pattern) for tid, pattern in tasks.controls.items()})
        self.take(tasks)
        self.count_clusters(Counter({(moved(p) if moved else p, c): n for p, c, n in part.loose}))
        self.conflicts.merge(part.conflict_count, part.conflicts)
        self.last = part.last_id or self.last
        self.cost.frombytes(part.cost)
        self.tokens.frombytes(part.tokens)
        self.measured += part.measured
        tally.run_ids.update(part.run_ids)
        tally.all_run_ids.update(part.all_run_ids)
        tally.records += part.records
        tally.over_envelope.merge(part.over_count, part.over)

    def unproven(self) -> NoReturn:
        """A chunk the canonical path did not prove: the summary keeps no table for it."""
        raise _EndStream()

    def conclude(self, tally: _Tally) -> _Stream | None:
        """The file read: close the last task and stand for the tally's tasks."""
        self.finish()
        return self

    # What settle asks of the tasks, as the table answers it (_Table)
    def pattern_counts(self) -> Counter[AttemptPattern]:
        return self.patterns

    def pattern_of(self, tid: str) -> AttemptPattern | None:
        return self.controls.get(tid)

    def task_count(self) -> int:
        return self.count

    def observed_digest(self) -> str:
        return cast("str", self.digest.hexdigest())

    def not_declared(self, declared: DeclaredIds) -> tuple[list[str], list[str]]:
        return [], []  # (it has ended on the table otherwise: _Stream.finish, _Unsorted)

    def cost_values(self) -> tuple[int, Sequence[float], Sequence[int]]:
        return self.measured, self.cost, self.tokens

    def listed(self, troubled: Collection[AttemptPattern]) -> dict[AttemptPattern, list[str]]:
        """The first tasks (in ID order, up to _LIST_LIMIT) of each of these patterns."""
        return {pattern: self.first.get(pattern, []) for pattern in troubled}

    def lookalikes(self) -> list[tuple[str, ...]]:
        return sorted(tuple(sorted(group)) for group in self.folds.values() if len(group) > 1)

    def cluster_profiles(self) -> Counter[Profile]:
        """Every cluster's profile (_profiles), counted."""
        return self.profiles + _profiles(self.loose)


# -- an unsorted ledger -------------------------------------------------------------------------
#
# A harness that runs tasks concurrently writes them in the order they finish. Such a ledger is
# summarised as the sorted stream summarises one in order, without a table of every task: while
# every task has one record, its attempt pattern is its record's packed attempt, so the patterns
# are counted chunk by chunk as they come. The IDs are kept as text: each chunk's in file order
# beside its packed attempts, and again sorted, cut into key ranges (where the first chunk's IDs
# fall). At the end each range is sorted (the chunks' sorted runs merged, a range at a time, so each
# sort stays small) and read in order as the stream reads a chunk: every task once, the declared
# set, the digest, the look-alikes. A task with two records anywhere, or a declared set that does
# not match, and the chunks kept in file order are replayed into the per-task table: the table's
# own steps on the same values in the same order, so its report by construction.

_RANGES = 16  # key ranges the IDs are sorted in at the end


class _Unsorted(_Stream):
    """The summary of a ledger whose IDs do not arrive in order (see above)."""

    def __init__(self, declared: DeclaredIds | None, controls: frozenset[str]) -> None:
        import bisect  # PERF: not at start-up (as in LineProblems.add)

        super().__init__(declared, controls)
        self.bisect = bisect.bisect_left
        self.bounds: list[str] = []  # the lowest ID of each key range but the first
        self.ranges: list[list[str]] = [[] for _ in range(_RANGES)]  # each chunk's part, joined
        # each chunk's IDs (joined) and packed attempts, in file order
        self.chunks: list[tuple[str, array[int]]] = []
        # a chunk's costs (joined) and token sums, and its clusters ("" for none), by the chunk's
        # index, for the replay
        self.chunk_costs: dict[int, tuple[str, Sequence[int | None]]] = {}
        self.chunk_clusters: dict[int, str] = {}

    def add(self, tids: Sequence[str], packed: Sequence[int],
            clusters: Sequence[str | None] | None = None) -> bool:
        if clusters is not None and any(clusters):
            # a record a task (or the replay): each record's cluster is its task's
            self.loose.update((p, c) for p, c in zip(packed, clusters) if c is not None)
            self.chunk_clusters[len(self.chunks)] = "\n".join(c or "" for c in clusters)
        self.patterns.update(packed)
        self.chunks.append(("\n".join(tids), array("q", packed)))
        ids = sorted(tids)
        if not self.chunks[1:]:
            self.bounds = [ids[len(ids) * part // _RANGES] for part in range(1, _RANGES)]
        cuts = [0, *map(functools.partial(self.bisect, ids), self.bounds), len(ids)]
        for kept, start, end in zip(self.ranges, cuts, cuts[1:]):
            if start < end:
                kept.append("\n".join(ids[start:end]))
        if not self.control_ids.isdisjoint(tids):
            for tid in self.control_ids.intersection(tids):
                self.controls[tid] = packed[tids.index(tid)]
        return True  # (as far as add_costs needs to know: it keeps each record's own)

    def add_costs(self, tids: Sequence[str], costs: Sequence[str | None],
                  sums: Sequence[int | None], fresh: bool) -> None:
        self.chunk_costs[len(self.chunks) - 1] = (
            "\n".join(cast("Sequence[str]", costs) if all(costs) else (c or "" for c in costs)),
            sums)
        self.complete_costs(costs, sums)  # (a record a task, or the replay undoes it)

    def conclude(self, tally: _Tally) -> _Stream | None:
        """Itself, when every task has one record and the declared set matches; else None, the
        chunks replayed into the tally's per-task table (settle summarises it)."""
        if self.sorted_ranges():
            return self
        table = _Table(tally)
        for index, (joined, packed) in enumerate(self.chunks):
            tids = joined.split("\n")
            named = self.chunk_clusters.get(index)
            fresh = table.add(tids, packed, None if named is None else
                              [c or None for c in named.split("\n")])
            if index in self.chunk_costs:
                costs, sums = self.chunk_costs[index]
                table.add_costs(tids, costs.split("\n"), sums, fresh)
        self.chunks = []
        return None

    def sorted_ranges(self) -> bool:
        """Read the key ranges in ID order as the stream reads its chunks: False at a task with a
        second record or one the manifest does not declare, or short of a declared one."""
        declared = self.declared
        for kept in self.ranges:
            if not kept:
                continue
            ids = "\n".join(kept).split("\n")
            kept.clear()  # (the range's text, once split)
            ids.sort()
            if not all(map(operator.lt, ids, itertools.islice(ids, 1, None))):
                return False
            joined = "\n".join(ids)
            if not self.next_declared(joined):
                return False
            # (the patterns, first tasks and controls are the chunks': add, listed)
            self.take(_Closed([joined.encode("ascii")], len(ids), (), {}, {}, _folds(ids, joined)),
                      ids)
        return declared is None or self.count == len(declared)

    def listed(self, troubled: Collection[AttemptPattern]) -> dict[AttemptPattern, list[str]]:
        # every pattern is one record's packed attempt (an int): the chunks are scanned for them
        found: dict[AttemptPattern, list[str]] = {pattern: [] for pattern in troubled}
        for joined, packed in self.chunks:
            tids: list[str] | None = None
            for pattern, few in found.items():
                if pattern in packed:
                    tids = tids or joined.split("\n")
                    few += itertools.compress(tids, map(pattern.__eq__, packed))
                    few.sort()
                    del few[_LIST_LIMIT:]
        return found


# -- the per-task table's summary --------------------------------------------------------------
#
# A file no other summary answers for (the general path's, a chunk the canonical path did not
# prove, an unsorted ledger with a task's second record) is read into the per-task table, and
# settle reads the table's summary: the stream's counts, filled once the table is complete, so
# settle asks one kind of summary whichever way the file was read. The table itself stays the
# tally's, for the callers that need every task.


class _TableSummary(_Stream):
    """The per-task table summarised (see above), with what only a table can hold: IDs of any
    alphabet (look-alikes by full folding), declared tasks with no record and undeclared ones, and
    token totals past the stream's array."""

    def __init__(self, tally: _Tally, declared: DeclaredIds | None,
                 controls: frozenset[str]) -> None:
        super().__init__(None, controls)
        tasks = self.table = tally.tasks  # read again only to name a troubled pattern's tasks
        conflicts = tally.cluster_conflicts
        self.loose = Counter((tasks[tid], cluster) for tid, cluster in tally.clusters.items()
                             if tid not in conflicts)
        for tid in sorted(conflicts):
            self.conflicts.add((tid,))
        self.ids = sorted(tasks)
        self.patterns = Counter(tasks.values())  # PERF: in C
        self.count = len(tasks)
        self.controls = {tid: tasks[tid] for tid in controls if tid in tasks}
        self.id_digest = _sorted_ids_digest(self.ids)
        self.alike = _lookalikes(self.ids)
        ids = frozenset[str]() if declared is None else declared.ids()
        self.missing, self.undeclared = ([], []) if declared is None else (
            [tid for tid in declared if tid not in tasks],
            [tid for tid in self.ids if tid not in ids])
        values = tally.cost.values()
        # PERF: one C pass when no task has two
        repeated = any(map(isinstance, values, itertools.repeat(tuple)))
        costs: list[float] = [math.fsum(c) if isinstance(c, tuple) else c
                              for c in values] if repeated else \
            cast("list[float]", list(values))  # exact: one sum a task, in any order
        self.values = (len(tally.cost) + len(tally.tokens.keys() - tally.cost.keys()), costs,
                       list(tally.tokens.values()))

    def observed_digest(self) -> str:
        return self.id_digest

    def lookalikes(self) -> list[tuple[str, ...]]:
        return self.alike

    def not_declared(self, declared: DeclaredIds) -> tuple[list[str], list[str]]:
        return self.missing, self.undeclared

    def cost_values(self) -> tuple[int, Sequence[float], Sequence[int]]:
        return self.values

    def listed(self, troubled: Collection[AttemptPattern]) -> dict[AttemptPattern, list[str]]:
        """The first tasks (in ID order, up to _LIST_LIMIT) of each of these patterns."""
        found: dict[AttemptPattern, list[str]] = {pattern: [] for pattern in troubled}
        todo = set(found)
        if todo:
            for tid, pattern in zip(self.ids, map(self.table.__getitem__, self.ids)):
                if pattern in todo:
                    few = found[pattern]
                    few.append(tid)
                    if len(few) >= _LIST_LIMIT:
                        todo.discard(pattern)
                        if not todo:
                            break
        return found


# -- the canonical fast path --------------------------------------------------------------------
#
# Most ledgers are written by a program (an importer, a harness export, json.dumps in a loop): every
# line the same flat object, the same keys in the same order, plain ASCII values. A chunk is proven
# to be all such lines by one regular expression per key order, a line and its newline, that splits
# the chunk with nothing between its matches and nothing after the last (so the matches tile it),
# and then tallied from the match groups, a column each, without building a dict per record. What
# the expression admits cannot be an input error: strings are printable ASCII without a quote or
# backslash (so no escape, no surrogate, no control character), a task ID or cluster has no
# surrounding spaces, an attempt is an integer >= 1, the gate's numbers have no sign, at most 15
# integer digits and no exponent but a cost's negative one (finite, within every bound; a token
# count 14 digits, so that input + output is too), the keys are the gate's own in a fixed order
# (no duplicate, no near miss), and a harness object is checked as the general path would (below).
# Any chunk it cannot prove takes the general path, so errors and reports are the general path's
# by construction.

# printable ASCII but the quote and the backslash: no escape can occur
_FAST_CHARS = r"[ !#-\[\]-~]"
_FAST_TEXT = rf'"({_FAST_CHARS}*)"'
# nor a space (so no surrounding one): an ID with a space takes the general path
_FAST_NAME = r'"([!#-\[\]-~]+)"'
# The group is empty for null. PERF: an optional part is written (?:X|), as quick to read as
# (?:X)? is slow: the engine runs a group's ? through its general repeat, an alternative through a
# plain branch (the same matches, tried in the same order).
_FAST_NUMBER = r'(?:null|((?:0|[1-9][0-9]{0,14})(?:\.[0-9]+|)))'
# A cost may also have a negative exponent, as json.dumps writes one below 1e-4 (`1.5e-05`): at most
# the number before it, so within every bound too (read with float(), never int()).
_FAST_COST = r'(?:null|((?:0|[1-9][0-9]{0,14})(?:\.[0-9]+|)(?:[eE]-[0-9]+|)))'
# A null input/output count is an error the general path names. At most 14 digits, so that input +
# output stays below _MAX_COUNT (past it, the general path names the line); a total has 15 at most.
_FAST_COUNT = r'(0|[1-9][0-9]{0,13})'
# The harness's own identifiers (an importer writes them last): an object of scalars and flat lists
# of scalars, two levels deep at most. The expression only admits the shape; the chunk's harness
# objects are then decoded together, which refuses a malformed number, NaN and (by counting keys) a
# repeated key.
_FAST_SCALAR = rf'(?:"{_FAST_CHARS}*"|-?[0-9][0-9.eE+-]*|true|false|null)'
_FAST_MEMBER = rf'"{_FAST_CHARS}*" ?: ?(?:{_FAST_SCALAR}|\[(?:{_FAST_SCALAR}(?:, ?{_FAST_SCALAR})*)?\])'
# One group a key. An optional field's group is empty when the value is null or the key is absent
# (the general path reads both as None); the reason keeps its quotes, as "" is a reason and differs
# from null.
_FAST_VALUES = {
    "run_id": rf'"({_FAST_CHARS}+)"', "task_id": _FAST_NAME, "attempt": r"([1-9][0-9]{0,8})",
    "outcome": _FAST_TEXT,
    "reason": rf'("{_FAST_CHARS}*"|null)', "stratum": rf'(?:null|"({_FAST_CHARS}+)")',
    "cluster": rf'(?:null|{_FAST_NAME})',
    "wall_clock_s": _FAST_NUMBER, "cost_usd": _FAST_COST, "input_tokens": _FAST_COUNT,
    "output_tokens": _FAST_COUNT,
    "total_tokens": r'(?:null|(0|[1-9][0-9]{0,14}))',
    "harness": rf'(\{{(?:{_FAST_MEMBER}(?:, ?{_FAST_MEMBER})*)?\}})',
}
# Where an exact form has the reason right after the outcome, the two are one group: the text from
# inside the outcome's quotes through the reason's value (`fail","reason":null`), one string a line
# to look the kind up by, where two made a tuple (PERF: about 3% of the path's instructions).
_SPELLING = "outcome+reason"
# the columns that spell a record's kind, but whether it is timed (see RecordKind)
_SPELLED = ("outcome", "reason", _SPELLING, "stratum")
# Columns most chunks hold one value in (one run, every task's first attempt): the exact expression
# is tried first with the first line's values written in, so those groups are not built line by
# line. The spelling of the value as a literal, from its group.
_PINNABLE = {"run_id": '"{}"', "attempt": "{}"}


class _Expression(NamedTuple):
    """A form's compiled expression and the keys its groups stand for, in order."""

    pattern: re.Pattern[str]
    keys: tuple[str, ...]


class _Form:
    """One key order and spacing: every key on every line (exact), or the optional ones left out of
    some (loose, compiled when first asked for: most files never need it)."""

    def __init__(self, keys: tuple[str, ...], colon: str, comma: str) -> None:
        self.keys, self.colon, self.comma = keys, colon, comma
        self.exact = _fast_expression(keys, colon, comma, False)
        self._loose: _Expression | None = None
        self._pinned: tuple[dict[str, str], _Expression] | None = None

    def pinned(self, text: str) -> tuple[dict[str, str], _Expression] | None:
        """The exact expression with the pinnable columns' values on the first line of `text`
        written in as literals, and those values; None when the first line does not match the exact
        expression. The last one is kept."""
        first = self.exact.pattern.match(text)
        if first is None:
            return None
        values = {key: first.group(self.exact.keys.index(key) + 1) for key in _PINNABLE
                  if key in self.keys}
        if self._pinned is None or self._pinned[0] != values:
            literals = {key: re.escape(_PINNABLE[key].format(value))
                        for key, value in values.items()}
            self._pinned = (values, _fast_expression(self.keys, self.colon, self.comma, False,
                                                     literals))
        return self._pinned

    @property
    def loose(self) -> _Expression:
        if self._loose is None:
            self._loose = _fast_expression(self.keys, self.colon, self.comma, True)
        return self._loose


class _FastPath:
    """Per file: the compiled expression for each key order seen, and the tally of the chunks it
    proves."""

    def __init__(self, tally: _Tally, where: str, reading: Reading,
                 sink: _Stream | _Table) -> None:
        self.tally, self.where = tally, where
        self.sink = sink  # where a proven chunk's attempts go: a summary, or the per-task table
        self.run_id, self.limit = reading.run_id, reading.limit
        self.over = _past_limit(reading.limit)
        self.templates: dict[tuple[tuple[str, ...], str, str], _Form | None] = {}
        self.current: _Form | None = None  # the form that proved the last chunk
        self.exact = True  # and whether its exact expression did
        self.pinning = True  # until a chunk's lines disagree on a pinnable column
        # the groups' spelling of a kind -> its number, by the kind's columns a chunk has (_SPELLED)
        self.kinds: dict[tuple[tuple[bool, ...], bool | None], dict[Any, int]] = {}

    def form(self, line: str, known: tuple[str, ...] = ()) -> _Form | None:
        """The expressions for this line's key order and spacing, widened by the keys of an earlier
        form (the union in the order both agree on), or None when the path does not know the line's
        form."""
        try:
            # its keys in order (a repeated key is caught by the expression)
            value = json.loads(line)
        except (ValueError, RecursionError):
            return None
        if type(value) is not dict or not set(value) <= set(_FAST_VALUES):
            return None
        keys = _merged_order(known, tuple(value)) if known else tuple(value)
        colon = ": " if '": ' in line else ":"
        comma = ", " if ', "' in line else ","
        signature = (keys, colon, comma)
        if signature not in self.templates:
            self.templates[signature] = _Form(keys, colon,
                                              comma) if set(keys) >= RECORD_REQUIRED else None
        return self.templates[signature]

    def columns(self, text: str) -> dict[str, Sequence[str | None]] | None:
        """The match groups of every line, a column a key (a pinned column its one value on every
        line); or None if some line does not match. A group that matched nothing (a null, or an
        optional key left out) is None.

        The form is the last one that proved a chunk, else the first line's: its exact expression
        (every key on every line) first, as it is the quicker, then the loose one (the optional keys
        may be left out). The exact one is tried pinned first until a chunk's lines disagree on a
        pinnable column. When a line matches neither, the form is widened once by that line's keys,
        so a ledger whose records carry different optional fields is still proven chunk after chunk.
        """
        form = self.current or self.form(text[:text.find("\n")])
        if form is None:
            return None
        pinned = form.pinned(text) if self.pinning and self.exact else None
        if pinned is not None:
            values, expression = pinned
            at = _columns(expression.pattern.split(text), expression.keys, values)
            if at is not None:
                self.current = form
                return at
            self.pinning = False
        for expression in (form.exact, form.loose) if self.exact else (form.loose, form.exact):
            at = _columns(expression.pattern.split(text), expression.keys, {})
            if at is not None:
                self.current, self.exact = form, expression is form.exact
                return at
        for _ in range(3):  # widened by the first line that does not match, a few times at most
            end = 0  # where that line starts
            for match in form.loose.pattern.finditer(text):
                if match.start() != end:
                    break
                end = match.end()
            widened = self.form(text[end:text.find("\n", end)], form.keys)
            if widened is None or widened.keys == form.keys:
                return None
            form = widened
            at = _columns(form.loose.pattern.split(text), form.loose.keys, {})
            if at is not None:
                self.current, self.exact = form, False
                return at
        return None

    def __call__(self, data: bytes) -> int:
        """Tally the chunk and return its number of lines if every line of it is proven canonical;
        else touch nothing and return 0."""
        if not data.endswith(b"\n") or not data.isascii():
            return 0
        at = self.columns(data.decode("ascii"))
        if at is None:
            return 0
        if "harness" in at and not _fast_harness_ok(list(filter(None, at["harness"]))):
            return 0
        self.tally_rows(at)
        return len(at["task_id"])

    def tally_rows(self, at: Mapping[str, Sequence[str | None]]) -> None:
        """The general path's tally (see _tally_records), column by column: each step is one C-level
        pass over the chunk's groups (a pinned column is its one value repeated), with a per-record
        loop only where a chunk needs one (a task seen before)."""
        tally = self.tally
        runs = set(cast("Sequence[str]", at["run_id"]))
        tally.all_run_ids |= runs
        if self.run_id is not None and runs != {self.run_id}:
            runs &= {self.run_id}
            if not runs:
                return
            mine = list(map(self.run_id.__eq__, at["run_id"]))
            at = {key: list(itertools.compress(column, mine)) for key, column in at.items()}
        tally.run_ids |= runs
        tids = cast("Sequence[str]", at["task_id"])
        attempts = cast("Sequence[str]", at["attempt"])
        count = len(tids)
        missing = (None,) * count
        walls = at.get("wall_clock_s", missing)
        kinds = self.kinds_of(at, walls)
        packed = kinds if attempts.count("1") == count else [
            # PERF: pack_attempt
            kind | ((int(attempt) - 1) << 32) for kind, attempt in zip(kinds, attempts)]
        fresh = self.sink.add(tids, packed, at.get("cluster"))
        if self.limit < math.inf:
            timed = cast("list[str]", list(filter(None, walls)))
            if ((self.over is None or self.over("\n".join(timed)))
                    and max(map(float, timed), default=0.0) > self.limit):
                for tid, attempt, wall in zip(tids, attempts, walls):
                    if wall and float(wall) > self.limit:
                        tally.over_envelope.add((tid, int(attempt), _fast_number(wall)))
        if any(key in at for key in _COST_FIELDS):
            self.tally_costs(at, tids, fresh, missing)
        tally.records += count

    def kinds_of(self, at: Mapping[str, Sequence[str | None]],
                 walls: Sequence[str | None]) -> list[int]:
        """Each line's kind number, looked up by the groups that spell it. PERF: only the columns
        the chunk has, and whether each line is timed only where some are and some are not: the
        fewer the columns, the quicker each line's lookup."""
        has = tuple(key in at for key in _SPELLED)
        timed = "wall_clock_s" in at and (all(walls) or None)
        columns: list[Sequence[object]] = [at[key] for key in _SPELLED if key in at]
        if timed is None:
            columns.append(tuple(map(bool, walls)))
        numbers = self.kinds.setdefault((has, timed), {})

        def spellings() -> Iterable[object]:
            """PERF: a line's one column itself, else zip's tuple (reused when get keeps none)."""
            return columns[0] if len(columns) == 1 else zip(*columns)

        known = list(map(numbers.get, spellings()))
        if None not in known:
            return cast("list[int]", known)
        return [self.kind_of(numbers, has, timed, raw) if kind is None else kind
                for kind, raw in zip(known, spellings())]

    def kind_of(self, numbers: dict[Any, int], has: tuple[bool, ...], timed: bool | None,
                raw: Any) -> int:
        """The kind of a line whose groups of the columns `has` marks spell `raw` (a tuple of them,
        or the one; then whether it is timed, when `timed` is None); noted in `numbers`."""
        spelled = iter(raw if type(raw) is tuple else (raw,))
        outcome, reason, both, stratum = (next(spelled) if there else None for there in has)
        if both is not None:  # `fail","reason":null`: the outcome ends at its quote
            outcome = both[:both.index('"')]
            reason = both[both.index(":", len(outcome)) + 1:].lstrip(" ")
        key = (outcome, None if reason in (None, "null") else reason[1:-1], stratum,
               next(spelled) if timed is None else timed)
        kind = self.tally.kinds.get(key)
        if kind is None:
            kind = _new_kind(self.tally.kinds, key, self.where, 0)
        numbers[raw] = kind
        return kind

    def tally_costs(self, at: Mapping[str, Sequence[str | None]], tids: Sequence[str],
                    fresh: bool, missing: Sequence[None]) -> None:
        """Cost and tokens as _tally_cost adds them: in C for a chunk of tasks not seen before, else
        record by record; into the stream's per-task sums when there is one."""
        costs, totals = at.get("cost_usd", missing), at.get("total_tokens", missing)
        ins, outs = at.get("input_tokens", missing), at.get("output_tokens", missing)
        # (on the exact expression every line has both counts: neither group is None)
        both = ("input_tokens" in at and "output_tokens" in at
                and (self.exact or (all(ins) and all(outs))))
        if both and ("total_tokens" not in at or not any(totals)):
            sums: list[int | None] = list(map(operator.add, _integers(cast("Sequence[str]", ins)),
                                              _integers(cast("Sequence[str]", outs))))
        else:
            sums = list(map(_token_sum, totals, ins, outs))
        # (no sum can pass _MAX_COUNT: see _FAST_COUNT)
        self.sink.add_costs(tids, costs, sums, fresh)


def _columns(pieces: list[str | None], keys: tuple[str, ...],
             pinned: Mapping[str, str]) -> dict[str, Sequence[str | None]] | None:
    """A chunk split by a form's expression (grouping `keys`) as its columns, a key each, and each
    pinned column its value on every line; None unless the matches tile the chunk: every piece
    between two of them, before the first and after the last, empty."""
    width = len(keys) + 1
    if any(pieces[::width]):
        return None
    at: dict[str, Sequence[str | None]] = {key: pieces[index::width]
                                           for index, key in enumerate(keys, 1)}
    lines = len(pieces) // width
    at.update((key, (value,) * lines) for key, value in pinned.items())
    return at


def _past_limit(limit: float) -> Callable[[str], object] | None:
    """A search of wall-clock groups (joined by newlines) that finds every one whose number may be
    past `limit`, so a chunk without one skips the exact test (float(wall) > limit); None when any
    number may be, or no limit is declared.

    The groups are the canonical path's numbers: at most 15 integer digits, no sign or exponent, no
    leading zero. For N = int(limit) >= 1 and a number w of integer part I: I < N gives
    float(w) <= N <= limit (rounding is monotone and N < 2^53 is exact), and if limit == N, I == N
    with an all-zero fraction gives float(w) == N: neither is past, so the search finds the rest.
    """
    if not 1 <= limit < math.inf:
        return None
    whole = int(limit)
    digits = str(whole)
    above = [f"[1-9][0-9]{{{len(digits)},}}"]  # more integer digits
    for at, digit in enumerate(digits):  # as many, and the first that differs higher
        if digit != "9":
            above.append(f"{digits[:at]}[{int(digit) + 1}-9][0-9]{{{len(digits) - at - 1}}}")
    fraction = r"\.[0-9]*[1-9][0-9]*" if limit == whole else r"(?:\.[0-9]*)?"
    return re.compile(rf"^(?:(?:{'|'.join(above)})(?:\.[0-9]*)?|{digits}{fraction})$",
                      re.MULTILINE).search


def _integers(groups: Sequence[str]) -> list[int]:
    """The canonical path's integer groups (no sign, no leading zero) as ints. PERF: decoded as one
    JSON array, in C, a third quicker than int() on each."""
    return cast("list[int]", json.loads("[" + ",".join(groups) + "]"))


def _token_sum(total: str | None, ins: str | None, outs: str | None) -> int | None:
    """A record's tokens as the groups spell them: its total, else input + output, else none."""
    if total:
        return int(total)
    return int(ins or 0) + int(outs or 0) if ins or outs else None


def _add_cost(costs: dict[str, float | tuple[float, ...]], tid: str, cost: float) -> None:
    """A task's costs, one an attempt, summed at the end (exactly, in any order)."""
    previous = costs.get(tid)
    if previous is None:
        costs[tid] = float(cost)
    elif isinstance(previous, tuple):
        costs[tid] = (*previous, cost)
    else:
        costs[tid] = (previous, cost)


def _add_attempts(tasks: dict[str, AttemptPattern], tids: Iterable[str],
                  packed: Iterable[int]) -> None:
    """Add each attempt to its task's entry: an int for one attempt, a tuple of them for more."""
    for tid, attempt in zip(tids, packed):
        previous = tasks.get(tid)
        if previous is None:
            tasks[tid] = attempt
        elif type(previous) is int:
            tasks[tid] = (previous, attempt)
        else:
            tasks[tid] = (*cast("tuple[int, ...]", previous), attempt)


def _merged_order(first: tuple[str, ...], second: tuple[str, ...]) -> tuple[str, ...]:
    """Both key orders in one: each key of `second` not in `first` goes after the key it follows
    there, and after any key only `first` has there that comes before it in RECORD_KEYS' order (the
    usual one)."""
    merged = list(first)
    for index, key in enumerate(second):
        if key not in merged:
            at = merged.index(second[index - 1]) + 1 if index else 0
            while (at < len(merged) and merged[at] not in second
                   and _RECORD_RANK[merged[at]] < _RECORD_RANK[key]):
                at += 1
            merged.insert(at, key)
    return tuple(merged)


_RECORD_RANK = {key: rank for rank, key in enumerate(RECORD_KEYS)}


def _fast_expression(keys: tuple[str, ...], colon: str, comma: str, loose: bool,
                     literals: Mapping[str, str] | None = None) -> _Expression:
    """One line with these keys in this order; if loose, a key the gate does not require may be left
    out of a line (its group is then None: absent reads as null, as `rec.get` reads it on the
    general path). A key in `literals` has that expression (a literal) in place of its group. If
    exact, a reason right after the outcome shares its group (_SPELLING).

    The line's newline is part of it and nothing anchors it: _FastPath.columns splits a chunk by it
    and asks that the pieces between the matches are empty. No group admits a newline, so the
    matches then tile the chunk a whole line each. PERF: a split gives the groups in one flat list,
    whose every n-th item is a column, where findall built a tuple a line and zip(*rows) turned them
    into columns."""
    parts: list[str] = []
    groups: list[str] = []
    for index, key in enumerate(keys):
        if key == "reason" and groups[-1:] == [_SPELLING]:
            continue  # (in the outcome's group)
        value, group = (literals or {}).get(key, _FAST_VALUES[key]), key
        if not loose and key == "outcome" and keys[index + 1:index + 2] == ("reason",):
            value = f'"({_FAST_CHARS}*"{comma}"reason"{colon}(?:"{_FAST_CHARS}*"|null))'
            group = _SPELLING
        member = f'"{key}"{colon}{value}'
        if key in RECORD_REQUIRED or not loose:
            parts.append(member if index == 0 else comma + member)
        else:
            parts.append(f"(?:{member}{comma}|)" if index == 0 else f"(?:{comma}{member}|)")
        if key not in (literals or {}):
            groups.append(group)
    return _Expression(re.compile("\\{" + "".join(parts) + "\\}\\n"), tuple(groups))


def _fast_harness_ok(objects: list[str]) -> bool:
    """The chunk's harness objects, decoded together: each valid JSON, finite, without a repeated
    key. In the shapes the expression admits a string holds no quote, so every `"` followed by `:`
    (a space between at most) ends a key: as many of those as decoded keys means no key was written
    twice."""
    joined = ",".join(objects)
    try:
        values = _FAST_DECODER.decode("[" + joined + "]")
    except (ValueError, RecursionError):
        return False
    keys = joined.count('":') + joined.count('" :')
    return len(values) == len(objects) and sum(map(len, values)) == keys


def _fast_number(text: str) -> int | float:
    return float(text) if "." in text else int(text)


def _tally_records(tally: _Tally, chunk: Parsed, where: str, reading: Reading,
                   problems: LineProblems) -> None:
    """The gate's hot loop (see bench/), long on purpose: one pass, every field checked inline. A
    bad record is added to `problems` and the loop goes on after it: one run names every bad line.
    PERF: each field is validated once per distinct value where it can be (run ids, task ids,
    kinds), a line number is looked up only for an error, and the try block is entered once per
    chunk, not once per record."""
    tasks, kinds, run_ids, accepted = tally.tasks, tally.kinds, tally.run_ids, tally.accepted_keys
    run_id, limit, extra_fields = reading
    values, numbers, costs = chunk.values, chunk.numbers, _may_cost(chunk.text)
    # a chunk whose records may name a cluster, or any chunk once one has
    clustered = bool(tally.clusters) or '"cluster"' in chunk.text or "\\u" in chunk.text
    last_run: Any = _UNSET
    kept = 0
    index, count = 0, len(values)
    while index < count:
        try:
            for index in range(index, count):  # noqa: B020 - resumes after a bad record
                rec = values[index]
                if type(rec) is not dict:
                    _expected(f"{where}:{numbers[index]}", "a JSON object", rec)
                if not accepted.issuperset(rec):
                    _check_record_keys(rec, accepted, where, numbers[index])
                rid = rec.get("run_id")
                if rid is not last_run and rid != last_run:
                    if type(rid) is not str or not rid:
                        _bad_field(where, numbers[index], "run_id", "a non-empty string", rid)
                    last_run = rid
                    tally.all_run_ids.add(rid)
                    if run_id is None or rid == run_id:
                        run_ids.add(rid)
                if run_id is not None and rid != run_id:
                    continue
                kept += 1
                attempt = rec.get("attempt")
                if type(attempt) is not int or attempt < 1:
                    _bad_field(where, numbers[index], "attempt", "an integer >= 1", attempt)
                wall = rec.get("wall_clock_s")
                cluster = rec.get("cluster") if clustered else None
                if cluster is not None and not is_task_id(cluster):  # (checked first, as ever)
                    _bad_field(where, numbers[index], "cluster", _CLUSTER_RULE, cluster)
                key = (rec.get("outcome"), rec.get("reason"), rec.get("stratum"), wall is not None)
                try:
                    kind = kinds.get(key)
                except TypeError:  # an unhashable value: a list or an object
                    kind = None
                if kind is None:
                    kind = _new_kind(kinds, key, where, numbers[index])
                packed = kind | ((attempt - 1) << 32)  # PERF: pack_attempt(kind, attempt), inlined
                tid: Any = rec.get("task_id")
                try:
                    previous = tasks.get(tid)
                except TypeError:
                    previous = None
                if previous is None:
                    if not is_task_id(tid):
                        _bad_field(where, numbers[index], "task_id", TASK_ID_RULE, tid)
                    tasks[tid] = packed
                elif type(previous) is int:
                    tasks[tid] = (previous, packed)
                else:
                    # tuples, so settle counts patterns in C
                    tasks[tid] = (*cast("tuple[int, ...]", previous), packed)
                if clustered:
                    _note_cluster(tally, tid, cluster, previous is None)
                if wall is not None and not ((type(wall) is int or type(wall) is float)
                                             and 0 <= wall <= limit):
                    if ((type(wall) is not int and type(wall) is not float)
                            or not 0 <= wall < math.inf):
                        _bad_field(where, numbers[index], "wall_clock_s", "a number >= 0", wall)
                    tally.over_envelope.add((tid, attempt, wall))
                if costs and not rec.keys().isdisjoint(_COST_FIELDS):
                    _tally_cost(tally, where, numbers[index], tid, rec)
                if extra_fields:
                    _keep_extras(tally, extra_fields, tid, attempt, rec)
            index = count
        except GateError as exc:
            problems.add(str(exc), numbers[index])
            index += 1
    tally.records += kept


def _note_cluster(tally: _Tally, tid: str, cluster: str | None, first: bool) -> None:
    """A record's cluster (a valid name, or None) into the per-task table: its task's, from its
    first record; a later record naming another (or none where the first named one, or one where
    it named none) puts the task among the conflicts."""
    if first:
        if cluster is not None:
            tally.clusters[tid] = cluster
    elif tally.clusters.get(tid) != cluster:
        tally.cluster_conflicts.add(tid)


def _may_cost(text: str) -> bool:
    """Whether a chunk's records may carry a cost field: a field name absent from its text is absent
    from all of them (unless a key is spelled with \\u escapes, so those chunks look record by
    record)."""
    return "\\u" in text or any(f'"{name}"' in text for name in _COST_FIELDS)


def _keep_extras(tally: _Tally, extra_fields: Collection[str], tid: str, attempt: int,
                 rec: dict[str, Any]) -> None:
    """The record's extra fields the manifest names, kept for its task: the latest attempt's, a
    fixed choice among repeats."""
    present = {name: rec[name] for name in extra_fields if name in rec}
    tally.seen_fields.update(present)
    entry = (attempt, canonical_json(present).decode("utf-8"), present)
    extra = tally.extras.get(tid)
    if extra is None or extra[:2] < entry[:2]:
        tally.extras[tid] = entry


def _tally_cost(tally: _Tally, where: str, line: int, tid: str, rec: dict[str, Any]) -> None:
    cost = rec.get("cost_usd")
    if cost is not None:
        if type(cost) not in (int, float) or not 0 <= cost <= _MAX_COUNT:
            _bad_field(where, line, "cost_usd", f"a number from 0 to {_MAX_COUNT:g}", cost)
        _add_cost(tally.cost, tid, cost)
    total, named = rec.get("total_tokens"), "total_tokens"
    if total is None and ("input_tokens" in rec or "output_tokens" in rec):
        total, named = 0, "input_tokens + output_tokens"
        for key in ("input_tokens", "output_tokens"):
            value = rec.get(key, 0)
            if not _is_int(value) or not 0 <= value <= _MAX_COUNT:
                _bad_field(where, line, key, f"an integer from 0 to {_MAX_COUNT:g}", value)
            total += value
    if total is not None:
        if not _is_int(total) or not 0 <= total <= _MAX_COUNT:
            _bad_field(where, line, named, f"an integer from 0 to {_MAX_COUNT:g}", total)
        tally.tokens[tid] = tally.tokens.get(tid, 0) + total


# -- worker processes (--jobs) -------------------------------------------------------------------
#
# A large ledger in task-ID order can be tallied by forked workers, one byte range each, the ranges
# cut where one task's lines end and the next task's begin. The parent takes the first range itself
# (hashing the file's bytes as the single process does) while each worker takes one of the others on
# the canonical path into a _Stream, then sends its summary back down a pipe (JSON and the raw
# arrays, then an end frame); the parent merges them in file order. Whatever cannot be answered that
# way (a chunk the canonical path does not prove, an ID out of order within or across ranges, any
# error, a worker that dies) and the whole file is read again in one process, as without --jobs: so
# every report and every error line are the single process's by construction. Only where os.fork
# exists; off unless --jobs asks for it.

# PERF: below 16 MiB a worker saves less than its start and its merge cost (bench/)
_JOBS_MIN_BYTES = 1 << 24


def _renumbered(kinds: list[int], pattern: AttemptPattern) -> AttemptPattern:
    """An attempt pattern with a worker's kind numbers replaced by the parent's (kinds[worker's
    number])."""
    if type(pattern) is int:
        return kinds[pattern & _KIND_MASK] | (pattern & ~_KIND_MASK)
    attempts = cast("tuple[int, ...]", pattern)
    return tuple(kinds[attempt & _KIND_MASK] | (attempt & ~_KIND_MASK) for attempt in attempts)


class _Joined:
    """A worker stream's digest: it keeps the ID text it is given, for the parent to hash in file
    order."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def update(self, data: bytes) -> None:
        self.parts.append(data)


def _split_points(path: Path, size: int, jobs: int) -> list[int] | None:
    """Where each range starts: from size*k/jobs on, the first line whose task differs from the line
    before it. None when a line read there is not a record with a task_id (the single process names
    it)."""
    points = [0]
    with open_input(path) as handle:
        for k in range(1, jobs):
            handle.seek(max(size * k // jobs, points[-1] + 1) - 1)
            handle.readline(MAX_LINE_BYTES + 1)  # to the start of the next line
            previous = _line_task(handle.readline(MAX_LINE_BYTES + 1))
            if previous is None:
                return None
            while True:
                at, line = handle.tell(), handle.readline(MAX_LINE_BYTES + 1)
                if not line:
                    return points
                task = _line_task(line)
                if task is None:
                    return None
                if task != previous:
                    points.append(at)
                    break
    return points


def _tally_range(path: Path, start: int, end: int, reading: Reading, stream: _Stream,
                 hasher: Any = None) -> _Tally:
    """One range of the file on the canonical path into `stream`; _EndStream for a chunk it does not
    prove."""
    tally = _Tally()
    fast = _FastPath(tally, str(path), reading, stream)
    with open_input(path) as handle:
        handle.seek(start)
        chunks = _Chunks(handle, str(path), end - start)
        for data in chunks:
            if hasher is not None:
                hasher.update(data)
            chunks.held = fast(data)
            if not chunks.held:
                raise _EndStream()
    stream.finish(whole=False)
    return tally


class _RangePart(NamedTuple):
    """A worker's range of the file as it travels to the parent, which merges it
    (_Stream.merge): its tally's counts and its stream's, the tasks as a _Closed. The one wire
    format: one JSON array of the fields but the last three (the tasks' fields but their text),
    in this order, then the cost and token arrays' bytes, then the tasks' ID text (frames). A new
    datum a worker sends is a field here (or of _Closed), filled in _range_summary and merged in
    merge."""

    kinds: list[RecordKind]
    run_ids: list[str]
    all_run_ids: list[str]
    records: int
    over: list[tuple[Any, ...]]  # attempts past the envelope: the first few, and how many
    over_count: int
    first_id: str
    last_id: str
    measured: int
    loose: list[tuple[Any, str, int]]  # (pattern, cluster, tasks)
    conflicts: list[tuple[str]]  # tasks whose records name two clusters: the first few, and
    conflict_count: int  # how many
    tasks: _Closed
    cost: bytes
    tokens: bytes

    def frames(self) -> list[bytes]:
        tasks = [*self.tasks[1:]]
        for field in ("patterns", "first"):  # (a tuple pattern cannot be a JSON key)
            tasks[_Closed._fields.index(field) - 1] = list(getattr(self.tasks, field).items())
        head = json.dumps([*self[:-3], tasks]).encode("ascii")
        return [head, self.cost, self.tokens, *self.tasks.ids]

    @classmethod
    def read(cls, frames: Sequence[bytes]) -> _RangePart:
        *fields, tasks = json.loads(frames[0])
        head = dict(zip(cls._fields, fields))
        head.update(kinds=list(map(tuple, head["kinds"])), over=list(map(tuple, head["over"])),
                    loose=[(_pattern(p), c, n) for p, c, n in head["loose"]],
                    conflicts=list(map(tuple, head["conflicts"])))
        closed = dict(zip(_Closed._fields[1:], tasks))
        closed.update(patterns={_pattern(pattern): n for pattern, n in closed["patterns"]},
                      first={_pattern(pattern): few for pattern, few in closed["first"]},
                      controls={tid: _pattern(p) for tid, p in closed["controls"].items()})
        return cls(**head, tasks=_Closed(list(frames[3:]), **closed), cost=frames[1],
                   tokens=frames[2])


def _range_summary(path: Path, start: int, end: int, reading: Reading,
                   summary: tuple[DeclaredIds | None, frozenset[str]]) -> list[bytes]:
    """A worker's work: its range's tally as _RangePart's frames for the parent (read back by
    _worker_answer)."""
    stream = _Stream(*summary)
    joined = stream.digest = _Joined()
    stream.fold_at = math.inf
    tally = _tally_range(path, start, end, reading, stream)
    ids = joined.parts
    part = _RangePart(
        kinds=list(tally.kinds), run_ids=sorted(tally.run_ids),
        all_run_ids=sorted(tally.all_run_ids), records=tally.records,
        over=tally.over_envelope.items, over_count=tally.over_envelope.count,
        first_id=ids[0].split(b"\n", 1)[0].decode("ascii") if ids else "",
        last_id=stream.last if stream.count else "", measured=stream.measured,
        loose=[(p, c, n) for (p, c), n in stream.loose.items()],
        conflicts=stream.conflicts.items, conflict_count=stream.conflicts.count,
        tasks=stream.closed(), cost=stream.cost.tobytes(), tokens=stream.tokens.tobytes())
    return part.frames()


def _pattern(value: int | list[int]) -> AttemptPattern:
    """An attempt pattern read back from JSON (a tuple of attempts arrives as a list)."""
    return value if type(value) is int else tuple(cast("list[int]", value))


_END_FRAME = b"end"  # a worker's last frame: written only once every other frame is
_SIGKILL = 9  # (the signal module is not imported: tests/test_safety.py)


def _fork_worker(*args: Any) -> tuple[int, int]:
    """Fork a worker for _range_summary(*args): (its pid, the read end of the pipe it answers down).
    The only fork in the gate: the worker runs the gate's own code on its range and leaves by
    os._exit, never returning (so it flushes none of the parent's buffers and runs none of its exit
    handlers, whatever interrupts it)."""
    read, write = os.pipe()
    pid = -1
    try:
        pid = os.fork()
        if pid == 0:
            os.close(read)
            devnull = os.open(os.devnull, os.O_RDWR)
            # the parent's streams are not the worker's: a pipeline ends when the parent does
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            gc.disable()
            with open(write, "wb") as pipe:
                for frame in [*_range_summary(*args), _END_FRAME]:
                    pipe.write(len(frame).to_bytes(8, "big") + frame)
    except OSError:
        if pid != 0:  # the fork failed
            os.close(read)
            os.close(write)
            raise
    finally:
        if pid == 0:
            os._exit(0)  # (the parent reads success from the end frame, not from the exit status)
    os.close(write)
    return pid, read


def _worker_answer(pid: int, read: int) -> _RangePart | None:
    """What a worker sent, once it has exited; None if it did not finish."""
    frames = []
    try:
        with open(read, "rb") as pipe:
            while True:
                size = pipe.read(8)
                if len(size) < 8:
                    break
                frames.append(pipe.read(int.from_bytes(size, "big")))
    finally:
        _reap(pid, stop=False)
    if len(frames) < 4 or frames[-1] != _END_FRAME:
        return None
    return _RangePart.read(frames[:-1])


def _reap(pid: int, stop: bool) -> None:
    """Wait for a worker to exit (stopping it first if asked and it is still running). A worker
    already reaped, by this process or by the system (SIGCHLD ignored by whoever started the gate),
    is left alone: its pid may no longer be a worker's."""
    try:
        if stop and os.waitpid(pid, os.WNOHANG) == (0, 0):  # still running, so still ours
            os.kill(pid, _SIGKILL)
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def _tally_in_workers(path: Path, reading: Reading,
                      summary: tuple[DeclaredIds | None, frozenset[str]],
                      jobs: int) -> _Tally | None:
    """The file tallied by `jobs` processes (see above), or None when it must be read in one."""
    size = os.stat(path).st_size
    points = _split_points(path, size, jobs)
    if points is None or len(points) < 2:
        return None
    ends = [*points[1:], size]
    workers: list[tuple[int, int]] = []
    collecting = gc.isenabled()
    gc.disable()
    try:
        for start, end in zip(points[1:], ends[1:]):
            workers.append(_fork_worker(path, start, end, reading, summary))
        hasher = hashlib.sha256()
        stream = _Stream(*summary)
        tally = _tally_range(path, 0, ends[0], reading, stream, hasher)
        with open_input(path) as handle:  # the rest of the file's bytes, for its sha256
            handle.seek(ends[0])
            for data in _Chunks(handle, str(path)):
                hasher.update(data)
        while workers:
            answer = _worker_answer(*workers[0])
            del workers[0]
            if answer is None:
                return None
            stream.merge(tally, answer)
        stream.finish()
    except (_EndStream, GateError, OSError, ValueError):
        return None
    finally:
        for pid, read in workers:  # the ones not heard from: their pipes closed, and stopped
            try:  # noqa: SIM105 - contextlib is not imported for this one
                os.close(read)
            except OSError:  # closed already (_worker_answer was interrupted)
                pass
            _reap(pid, stop=True)
        if collecting:
            gc.enable()
    if reading.run_id is not None and not tally.run_ids:
        return None  # the single process says so
    tally.summary, tally.sha256 = stream, hasher.hexdigest()
    return tally


#####################################################################
# One exit per task
#####################################################################


class TaskExit(NamedTuple):
    """How one task left the ledger: all the totals need, nothing that names the task."""

    outcome: int  # PASS, FAIL, UNSCOREABLE, or NO_EXIT
    reason: str | None
    stratum: str | None
    attempts: int
    first: int | None  # the exit of attempt 1, if it was scored or unscoreable
    passes: int  # attempts within budget that passed
    scored: int  # attempts within budget that were pass or fail
    unscoreable: tuple[str, ...] = ()  # the reason of each unscoreable attempt within budget


# What is wrong with a task's attempts: (problem, details after the task id). The problems are
# judged in _ATTEMPT_FINDINGS.
if TYPE_CHECKING:  # (a type alias is for mypy only: see the imports)
    AttemptProblem = tuple[str, tuple[Any, ...]]


def _numbering_problems(numbers: Sequence[int], plan: Plan) -> list[AttemptProblem]:
    problems: list[AttemptProblem] = []
    distinct = len(set(numbers))
    if distinct != len(numbers):
        problems.append(("repeated", ()))
    if numbers[-1] != distinct:
        problems.append(("gap", ()))
    if numbers[-1] > plan.contract.budget:
        problems.append(("over_budget", (numbers[-1],)))
    if plan.contract.samples and distinct < plan.contract.budget:
        problems.append(("short", (distinct,)))
    return problems


def task_exit(entries: tuple[int, ...], kinds: Sequence[KindInfo], plan: Plan,
              timing_required: bool = False) -> tuple[TaskExit, tuple[AttemptProblem, ...]]:
    """One task's exit from its packed attempts (in order), and what is wrong with them.

    The retry rule: pass if any attempt within budget passed, else fail if any was scored,
    else unscoreable with the reason of its last attempt. An attempt after a passing one is a
    sample, not a retry; `timing_required`: some attempts in the file carry wall_clock_s, so
    every one must.
    """
    budget = plan.contract.budget
    numbers = [attempt_number(e) for e in entries]
    problems = _numbering_problems(numbers, plan)
    outcome, reason, passes, scored, first = NO_EXIT, None, 0, 0, None
    strata = set()
    lost: list[str] = []
    first_pass: int | None = None
    for number, entry in zip(numbers, entries):
        kind = kinds[attempt_kind(entry)]
        strata.add(kind.stratum)
        if timing_required and not kind.timed:
            problems.append(("untimed", (number,)))
        if kind.code == PASS and first_pass is None:
            first_pass = number
        if kind.code == NO_EXIT:
            problems.append(("unknown", (number, kind.outcome)))
            continue
        known = kind.reason in plan.reasons
        coded = kind.reason if known else "(uncoded)"
        if kind.code == UNSCOREABLE and not known:
            problems.append(("uncoded", (number, kind.reason)))
        elif kind.code != UNSCOREABLE and kind.reason is not None:
            problems.append(("reason_on_scored", (number, kind.reason)))
        if number > budget:
            continue
        if number == 1:
            first = kind.code
        if kind.code == UNSCOREABLE:
            lost.append(coded)
            if outcome in (NO_EXIT, UNSCOREABLE):
                outcome, reason = UNSCOREABLE, coded
            continue
        scored += 1
        passes += kind.code == PASS
        if outcome != PASS:
            outcome, reason = kind.code, None
    if not plan.contract.samples and first_pass is not None and numbers[-1] > first_pass:
        problems.append(("after_pass", (first_pass,)))
    if len(strata) > 1 and plan.task_strata is None:
        problems.append(("stratum", ()))
    stratum = next(iter(strata)) if len(strata) == 1 else None
    exit_ = TaskExit(outcome, reason, stratum, len(numbers), first, passes, scored,
                     tuple(sorted(lost)))
    return exit_, tuple(problems)


def _exit_record(exit_: TaskExit, tid: str | None, roles: Mapping[str, str],
                 extra: Mapping[str, Any] | None, cluster: str | None = None) -> dict[str, Any]:
    """A task's exit record as the metric predicates see it."""
    row = {
        "outcome": BUCKETS[exit_.outcome],
        "reason": exit_.reason,
        "stratum": exit_.stratum,
        "task_id": tid,
        "attempts": exit_.attempts,
        "control": tid in roles,
        "role": roles.get(tid) if tid is not None else None,
        "cluster": cluster,
    }
    if extra:
        for name, value in extra.items():
            row.setdefault(name, value)
    return row


#####################################################################
# Totals and judging: settle every task, sum the exits, and judge the ledger
#####################################################################


# Fields that do not tell one task from another: a metric reading only these treats every task
# alike.
_OUTCOME_FIELDS = frozenset({"outcome", "reason", "attempts"})


class _MetricTally:
    """One declared metric's counts: k of n over its denominator, and over its scoreable tasks; and,
    where it is watched (below), per stratum the tasks it would put in its denominator and its
    numerator."""

    __slots__ = ("in_d", "in_n", "k", "metric", "n", "scoreable_k", "scoreable_n", "watched")

    def __init__(self, metric: CompiledMetric, watched: bool) -> None:
        self.metric, self.watched = metric, watched
        self.k = self.n = self.scoreable_k = self.scoreable_n = 0
        self.in_d: Counter[str | None] = Counter()
        self.in_n: Counter[str | None] = Counter()

    def withheld(self, strata: Collection[str]) -> str | None:
        """Why it gets no rate, if it would single out one of these withheld strata."""
        for chosen in (self.in_d, self.in_n) if self.watched else ():
            total = sum(chosen.values())
            for name in sorted(strata):
                if total and 2 * chosen[name] >= total:
                    return (f"{chosen[name]} of the {total} tasks it selects are in withheld "
                            f"stratum {name!r} (below the floor): it gets no rate")
        return None


class MetricCounts:
    """Per declared metric (a _MetricTally each, in the order declared): k and n over the full
    denominator, and over scoreable tasks only.

    With withheld strata, a metric that tells tasks apart (by stratum, ID or any other field) is
    also watched: if the tasks it selects are mostly those of a withheld stratum, it would print
    that stratum's rate by another route, and it gets none.
    """

    def __init__(self, plan: Plan) -> None:
        self.tallies = [_MetricTally(m, bool(plan.withheld) and m.numerator is not None
                                     and bool(m.fields - _OUTCOME_FIELDS)) for m in plan.metrics]

    def watch(self, row: Mapping[str, Any], stratum: str | None) -> None:
        """Count where a task would fall for each watched metric, whatever its outcome."""
        for tally in self.tallies:
            metric = tally.metric
            if not tally.watched or metric.numerator is None:
                continue
            if metric.denominator is None or metric.denominator(row):
                tally.in_d[stratum] += 1
                if any(metric.numerator({**row, "outcome": outcome}) for outcome in BUCKETS):
                    tally.in_n[stratum] += 1

    def add(self, row: Mapping[str, Any], scoreable: bool, weight: int) -> None:
        for tally in self.tallies:
            metric = tally.metric
            if metric.numerator is None:
                continue
            if metric.denominator is None or metric.denominator(row):
                hit = weight if metric.numerator(row) else 0
                tally.n += weight
                tally.k += hit
                if scoreable:
                    tally.scoreable_n += weight
                    tally.scoreable_k += hit


class ExitGroups(NamedTuple):
    """Every task's exit, grouped: identical exits are counted, not repeated."""

    groups: dict[TaskExit, int]
    problems: dict[str, FirstFew]  # attempt problem -> the tasks that have it
    metrics: MetricCounts
    clusters: ClusterCounts


class ClusterCounts(NamedTuple):
    """The clusters as the clustered interval takes them (tasks that leave no exit aside)."""

    shapes: Counter[tuple[int, int]]  # a cluster's (passes, units) -> how many clusters
    tasks: int  # tasks whose records name a cluster


def _cluster_counts(profiles: Mapping[Profile, int],
                    memo: Mapping[AttemptPattern, tuple[TaskExit, Any]],
                    plan: Plan) -> ClusterCounts:
    """Each cluster's passes (tasks passed; in samples mode, samples passed) and units (tasks; in
    samples mode, tasks x budget), from its profile and each pattern's exit."""
    budget, samples = plan.contract.budget, plan.contract.samples
    shapes: Counter[tuple[int, int]] = Counter()
    tasks = 0
    for profile, count in profiles.items():
        score = units = members = 0
        for pattern, n in profile:
            exit_ = memo[pattern][0]
            if exit_.outcome == NO_EXIT:
                continue  # (the ledger will not balance, and a finding says why)
            score += n * (min(exit_.passes, budget) if samples else int(exit_.outcome == PASS))
            units += n * (budget if samples else 1)
            members += n
        if members:
            shapes[(score, units)] += count
            tasks += members * count
    return ClusterCounts(shapes, tasks)


def _per_task(plan: Plan) -> bool:
    """Whether each task needs its own exit record: card strata, or a metric that reads a per-task
    field."""
    used = frozenset().union(*(m.fields for m in plan.metrics))
    return plan.task_strata is not None or bool(used & {"task_id", "control", "role",
                                                        "cluster"} or plan.extra_fields)


def _exits_by_pattern(patterns: Iterable[AttemptPattern], kinds: Sequence[KindInfo],
                      plan: Plan, timing_required: bool
                      ) -> dict[AttemptPattern, tuple[TaskExit, tuple[AttemptProblem, ...]]]:
    """task_exit for each attempt pattern."""
    return {pattern: task_exit(task_attempts(pattern), kinds, plan, timing_required)
            for pattern in patterns}


def _group_exits(tally: _Tally, plan: Plan) -> ExitGroups:
    """Settle each distinct attempt pattern once, then count its tasks.

    Tasks are visited one by one only where each needs its own exit record (card strata, or a
    metric that reads per-task fields), else only the tasks whose pattern has a problem.
    """
    kinds = tally.kind_infos()
    timing_required = tally.timing() == "some"
    summary = tally.summarize(plan)
    patterns = summary.pattern_counts()
    memo = _exits_by_pattern(patterns, kinds, plan, timing_required)
    groups: dict[TaskExit, int] = {}
    problems: dict[str, FirstFew] = {"cluster": summary.conflicts} if summary.conflicts.count \
        else {}
    metrics = MetricCounts(plan)
    roles = {c.task_id: c.role for c in plan.controls}
    per_task = _per_task(plan)
    if not per_task:
        for pattern, weight in patterns.items():
            exit_ = memo[pattern][0]
            groups[exit_] = groups.get(exit_, 0) + weight
        troubled = {pattern for pattern, (_, found) in memo.items() if found}
        # the first few tasks of each pattern, and how many more it has
        listed = summary.listed(troubled)
        named: Iterable[tuple[str, Any]] = [(tid, pattern) for pattern, few in listed.items()
                                            for tid in few]
        for pattern in troubled:
            for name, _ in memo[pattern][1]:
                unnamed = patterns[pattern] - len(listed[pattern])
                problems.setdefault(name, FirstFew()).count += unnamed
    else:
        named = tally.tasks.items()
    for tid, pattern in named:
        exit_, found = memo[pattern]
        for name, details in found:
            problems.setdefault(name, FirstFew()).add((tid, *details))
        if not per_task:
            continue
        if plan.task_strata is not None:
            exit_ = exit_._replace(stratum=plan.task_strata.get(tid))
        groups[exit_] = groups.get(exit_, 0) + 1
        if plan.metrics and exit_.outcome != NO_EXIT:
            extra = tally.extras.get(tid)
            cluster = tally.clusters.get(tid) if tid not in tally.cluster_conflicts else None
            row = _exit_record(exit_, tid, roles, extra[2] if extra else None, cluster)
            metrics.add(row, exit_.outcome != UNSCOREABLE, 1)
            if plan.withheld:
                metrics.watch(row, exit_.stratum)
    if plan.metrics and not per_task:
        for exit_, weight in groups.items():
            if exit_.outcome != NO_EXIT:
                metrics.add(_exit_record(exit_, None, roles, None), exit_.outcome != UNSCOREABLE,
                            weight)
    return ExitGroups(groups, problems, metrics,
                      _cluster_counts(summary.cluster_profiles(), memo, plan))


class _StratumTotals:
    __slots__ = ("passed", "passes", "tasks")

    def __init__(self) -> None:
        self.tasks = self.passed = 0
        self.passes: Counter[int] = Counter()  # samples mode: pass count -> tasks


class Totals:
    """The sums over every task's exit, filled in one pass over the distinct exits."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = dict.fromkeys(BUCKETS, 0)  # tasks per bucket
        self.reasons: dict[str, int] = {}  # unscoreable tasks per reason
        self.attempt_reasons: dict[str, int] = {}  # unscoreable attempts per reason
        self.strata: dict[str, _StratumTotals] = {}
        self.unlabelled = 0  # tasks without a stratum
        self.first_pass = 0  # tasks whose attempt 1 passed
        self.passes: Counter[int] = Counter()  # samples mode: pass count -> tasks
        # samples mode: (passes, scored attempts) -> tasks
        self.scored: Counter[tuple[int, int]] = Counter()
        self.clusters = ClusterCounts(Counter(), 0)
        # per k = 2..budget: the weighted terms, summed with fsum
        self.pass_at_k: list[list[float]] = []
        self.pass_hat_k: list[list[float]] = []  # the same for pass^k

    @property
    def exits(self) -> int:
        return sum(self.counts.values())

    def add(self, exit_: TaskExit, weight: int, plan: Plan,
            passk_table: Mapping[int, tuple[list[float], list[float]]]) -> None:
        code, passes = exit_.outcome, exit_.passes
        self.counts[BUCKETS[code]] += weight
        if code == UNSCOREABLE:
            label = exit_.reason or "(uncoded)"
            self.reasons[label] = self.reasons.get(label, 0) + weight
        if exit_.first == PASS:
            self.first_pass += weight
        for label in exit_.unscoreable:
            self.attempt_reasons[label] = self.attempt_reasons.get(label, 0) + weight
        samples = plan.contract.samples
        if samples:
            self.passes[passes] += weight
            if exit_.scored:
                self.scored[(passes, exit_.scored)] += weight
            at_least, every = passk_table[min(passes, plan.contract.budget)]
            for terms, value in zip(self.pass_at_k, at_least):
                terms.append(value * weight)
            for terms, value in zip(self.pass_hat_k, every):
                terms.append(value * weight)
        if exit_.stratum is None:
            self.unlabelled += weight
            return
        bucket = self.strata.get(exit_.stratum)
        if bucket is None:
            bucket = self.strata[exit_.stratum] = _StratumTotals()
        bucket.tasks += weight
        bucket.passed += weight * (code == PASS)
        if samples:
            bucket.passes[passes] += weight


def _totals(groups: Mapping[TaskExit, int], plan: Plan) -> Totals:
    totals = Totals()
    budget = plan.contract.budget
    passk_table: dict[int, tuple[list[float], list[float]]] = {}
    if plan.contract.samples:
        # PERF: only the pass counts that occur, each in O(budget): the work is bounded by the
        # records read
        passk_table = {c: (pass_at_k_all(budget, c), pass_hat_k_all(budget, c))
                       for c in {min(e.passes, budget) for e in groups}}
        totals.pass_at_k = [[] for _ in range(2, budget + 1)]
        totals.pass_hat_k = [[] for _ in range(2, budget + 1)]
    for exit_, weight in groups.items():
        if exit_.outcome != NO_EXIT:  # else the ledger will not balance, and a finding says why
            totals.add(exit_, weight, plan, passk_table)
    return totals


def _judge_suite(plan: Plan, tally: _Tally, observed_digest: str) -> list[Finding]:
    """Is this the suite the claim names: the declared IDs, their digest and their count?"""
    findings = []
    declared_ids, observed = plan.declared_ids, tally.summarize(plan).task_count()
    if is_placeholder(plan.task_ids_sha256):
        pass  # a placeholder_value finding names it; a digest mismatch would only repeat it
    elif declared_ids is not None:
        declared_digest = declared_ids.digest()
        if declared_digest != plan.task_ids_sha256:
            findings.append(finding("dataset_digest_mismatch", (
                f"the declared task IDs hash to {declared_digest[:12]}, but task_ids_sha256 is "
                f"{plan.task_ids_sha256[:64]!r}: if the declared list is the suite, set "
                f"task_ids_sha256 to {declared_digest}")))
        missing, extra_ids = tally.summarize(plan).not_declared(declared_ids)
        if missing:
            findings.append(finding("never_started", (
                f"{len(missing)} declared task(s) have no attempt record: "
                f"{_name_some(missing, len(missing))}; record them as unscoreable "
                "(missing_artifact) rather than dropping them")))
        if extra_ids:
            findings.append(finding("unexpected_task", (
                f"{len(extra_ids)} task(s) in the runs are not in the dataset: "
                f"{_name_some(extra_ids, len(extra_ids))}")))
    elif observed_digest != plan.task_ids_sha256:
        hint = "" if re.fullmatch(r"[0-9a-f]{64}",
                                  plan.task_ids_sha256) else "; it is not a sha256 at all"
        findings.append(finding("dataset_digest_mismatch", (
            f"the runs' task IDs hash to {observed_digest[:12]}, the manifest declares "
            f"{plan.task_ids_sha256[:64]!r}{hint}: you ran a different suite than you published "
            f"(if the suite is right, set task_ids_sha256 to {observed_digest})")))
    if observed != plan.task_count:
        findings.append(finding("dataset_size_mismatch", f"declared {plan.task_count} tasks, "
                                f"observed {observed} in the runs"))
    alike = tally.summarize(plan).lookalikes()
    if alike:
        shown = "; ".join(" / ".join(repr(t) for t in group) for group in alike[:_LIST_LIMIT])
        more = f" and {len(alike) - _LIST_LIMIT} more" if len(alike) > _LIST_LIMIT else ""
        findings.append(finding("task_id_lookalike", (
            f"{len(alike)} group(s) of task IDs differ only in case or Unicode form: "
            f"{shown}{more}; a reader cannot tell them apart, and one of each is probably a copy")))
    if len(tally.run_ids) > 1:
        findings.append(finding("mixed_runs", (
            f"{len(tally.run_ids)} run_ids in one file "
            f"({_name_some(sorted(tally.run_ids), len(tally.run_ids))}); choose one with "
            "--run-id")))
    return findings


def _attempt_findings(plan: Plan) -> tuple[tuple[str, str, str, Callable[[Any], str]], ...]:
    """Attempt problem -> (finding code, what the tasks have, how each is named)."""
    budget = plan.contract.budget
    allowed = ", ".join(sorted(plan.reasons))
    return (
        ("repeated", "attempt_repeated",
         "task(s) repeat an attempt number (retries are attempts, not replacements)", _task_of),
        ("gap", "attempt_gap", "task(s) do not number their attempts 1..a without a gap", _task_of),
        ("over_budget", "attempt_over_budget",
         f"task(s) used more than the attempt budget of {budget}",
         lambda t: f"{t[0]} (attempt {t[1]})"),
        ("short", "samples_incomplete",
         f"task(s) have fewer than the {budget} samples samples mode requires",
         lambda t: f"{t[0]} ({t[1]})"),
        ("unknown", "unknown_outcome",
         "attempt(s) have an outcome other than pass, fail or unscoreable",
         lambda t: _task_attempt(t) + (did_you_mean(t[2], BUCKETS)
                                       if isinstance(t[2], str) else "")),
        ("uncoded", "uncoded_unscoreable",
         f"unscoreable attempt(s) lack a known reason class ({allowed})",
         lambda t: _task_attempt(t) + (did_you_mean(t[2], sorted(plan.reasons))
                                       if isinstance(t[2], str) else "")),
        ("reason_on_scored", "reason_on_scored",
         "pass/fail attempt(s) carry an unscoreable reason; "
         "an attempt is scored or unscoreable, not both", _task_attempt),
        ("after_pass", "attempt_after_pass",
         "task(s) have attempts after a passing one: in retry mode a task stops at its first pass "
         "(attempts that go on are samples: use attempt_mode samples)",
         lambda t: f"{t[0]} (passed at attempt {t[1]})"),
        ("untimed", "wall_clock_incomplete",
         "attempt(s) lack wall_clock_s while others carry it: every attempt must, or none",
         lambda t: f"{t[0]}#{t[1]}"),
        ("cluster", "cluster_conflict",
         "task(s) name more than one cluster across their attempts (or name one on some attempts "
         "only): a task belongs to one cluster, a repository say", _task_of),
    )


def _judge_attempts(plan: Plan, problems: Mapping[str, FirstFew]) -> list[Finding]:
    """Attempts, outcomes and reasons, named task by task."""
    findings = []
    for problem, code, text, render in _attempt_findings(plan):
        tasks = problems.get(problem)
        if tasks is not None:
            findings.append(finding(code, f"{tasks.count} {text}: {tasks.named(render)}"))
    return findings


def _judge_clusters(totals: Totals) -> list[Finding]:
    """Clusters name every task or none: a clustered interval over some tasks is over a different
    suite."""
    clustered = totals.clusters.tasks
    if not 0 < clustered < totals.exits:
        return []
    return [finding("cluster_incomplete", (
        f"{clustered} of {totals.exits} tasks' records name a cluster and "
        f"{totals.exits - clustered} do not: name the cluster (a repository, say) on every "
        "record, or on none"))]


def _judge_balance(plan: Plan, totals: Totals) -> list[Finding]:
    if totals.exits == plan.task_count:
        return []
    passed, failed, lost = (totals.counts[bucket] for bucket in BUCKETS)
    return [finding("ledger_does_not_balance", (
        f"{passed} pass + {failed} fail + {lost} unscoreable = {totals.exits} exits vs "
        f"{plan.task_count} entries"))]


def _control_exit(control: Control, entries: tuple[int, ...], kinds: Sequence[KindInfo],
                  plan: Plan) -> Finding | None:
    """How one control task exited, judged against what it expects."""
    tid = control.task_id
    in_budget = [kinds[attempt_kind(e)]
                 for e in entries if attempt_number(e) <= plan.contract.budget]
    codes = [kind.code for kind in in_budget]
    if NO_EXIT in codes:
        return None  # an outcome outside the buckets is unknown_outcome, not an unscoreable control
    scored = [code for code in codes if code in (PASS, FAIL)]
    if not scored or (UNSCOREABLE in codes and plan.contract.samples):
        reasons = sorted({str(kinds[attempt_kind(e)].reason)
                          for e in entries if kinds[attempt_kind(e)].code == UNSCOREABLE})
        return finding("control_inconclusive", (
            f"{tid}: the {control.role} control is unscoreable "
            f"({', '.join(reasons) or 'no scored attempt'}); the instrument is unproven"))
    if plan.contract.samples:
        if PASS not in scored:
            got = "fail"
        else:
            got = "pass" if all(code == PASS for code in scored) else "mixed"
    else:
        got = "pass" if PASS in scored else "fail"
    if got != control.expected:
        return finding("control_violated", (
            f"{tid}: expected {control.expected}, got "
            f"{got}; the instrument is broken, not the model"))
    return None


def _judge_controls(plan: Plan, tally: _Tally) -> list[Finding]:
    """A claim needs a control that must fail and one that must pass, and each must behave."""
    if plan.gating != "claim":
        return []
    findings = []
    has_negative = "no_edit" in plan.control_run_roles or any(
        c.role == "negative" and c.expected == "fail" for c in plan.controls)
    has_positive = "known_fix" in plan.control_run_roles or any(
        c.role == "positive" and c.expected == "pass" for c in plan.controls)
    if not (has_negative and has_positive):
        lacking = [name for name, ok in (("negative (expects fail)", has_negative),
                                         ("positive (expects pass)", has_positive)) if not ok]
        findings.append(finding("controls_incomplete", (
            f"no {' and no '.join(lacking)} control: declare a control task or a control run "
            "(no_edit / known_fix) so the gate can tell a broken harness from a weak "
            f"model{plan.control_hint}")))
    kinds = tally.kind_infos()
    for control in plan.controls:
        tid = control.task_id
        if plan.declared_ids is not None and tid not in plan.declared_ids:
            findings.append(finding("control_outside_dataset",
                                    f"{tid}: the {control.role} control is not a dataset task"))
            continue
        packed = tally.summarize(plan).pattern_of(tid)
        if packed is None:
            findings.append(finding("control_missing",
                                    f"{tid}: the {control.role} control has no attempt record"))
            continue
        judged = _control_exit(control, task_attempts(packed), kinds, plan)
        if judged is not None:
            findings.append(judged)
    return findings


def _judge_envelope(plan: Plan, tally: _Tally) -> list[Finding]:
    over = tally.over_envelope
    if not over.count:
        return []
    return [finding("envelope_exceeded", (
        f"{over.count} attempt(s) ran longer than envelope.wall_clock_s_per_task = "
        f"{plan.wall_clock_limit:g} s, outside the instrument the claim describes: "
        f"{over.named(lambda t: f'{t[0]}#{t[1]} ({t[2]:g} s)')}"))]


def _stratum_rate(bucket: _StratumTotals, tasks: int, plan: Plan) -> Rate | None:
    if plan.contract.samples:
        return samples_rate(bucket.passes, tasks, plan.contract.budget, plan.confidence)
    return wilson_rate(bucket.passed, tasks, plan.confidence)


def _strata_lines(plan: Plan, totals: Totals,
                  problems: FirstFew | None) -> tuple[tuple[StratumLine, ...], list[Finding]]:
    """Each stratum's rate, and where the records' strata disagree with the declaration."""
    findings = []
    declared, seen = plan.strata, totals.strata
    if declared is not None and sum(declared.values()) != plan.task_count:
        findings.append(finding("strata_do_not_sum", (
            f"declared strata sum to {sum(declared.values())}, task_count is {plan.task_count}")))
    if plan.task_strata is None and seen and totals.unlabelled:
        findings.append(finding("stratum_count_mismatch", (
            f"{totals.unlabelled} task(s) carry no stratum while others do: when records carry "
            "stratum, every record must")))
    if problems is not None:
        findings.append(finding("stratum_count_mismatch", (
            f"{problems.count} task(s) are recorded in more than one stratum, or in a stratum on "
            f"some attempts only: {problems.named(_task_of)}")))
    if declared is not None and seen and plan.task_strata is None:
        observed = {name: bucket.tasks for name, bucket in seen.items()}
        differ = sorted(name for name in set(declared) | set(observed)
                        if declared.get(name, 0) != observed.get(name, 0))
        if differ:
            shown = ", ".join(f"{name} declared {declared.get(name, 0)} observed "
                              f"{observed.get(name, 0)}" for name in differ)
            findings.append(finding("stratum_count_mismatch", "per-stratum task counts differ "
                                    f"from the declaration: {shown}"))
    lines = []
    if declared is not None and not seen and plan.task_strata is None:
        return tuple(StratumLine(name, count, 0, None, verified=False)
                     for name, count in sorted(declared.items())), findings
    for name in sorted(set(seen) | set(declared or {}) | set(plan.withheld)):
        bucket = seen.get(name)
        count = declared.get(name) if declared is not None else None
        if name in plan.withheld:
            lines.append(StratumLine(name, count, bucket.tasks if bucket else 0, None,
                                     withheld=True))
            continue
        found = bucket.tasks if bucket else 0
        tasks = count if count is not None else found
        if bucket is None or tasks == 0:
            lines.append(StratumLine(name, count, 0, None))
            continue
        lines.append(StratumLine(name, count, bucket.tasks,
                                 _stratum_rate(bucket, max(tasks, bucket.tasks), plan)))
    return tuple(lines), findings


def counts_the_headline(metric: CompiledMetric, plan: Plan) -> bool:
    """Does a metric count exactly what the gate's headline counts: passing tasks over every
    declared task? Only in retry mode: in samples mode the headline is pass@1, and a metric counts
    task exits."""
    if metric.numerator is None or metric.denominator is not None or plan.contract.samples:
        return False
    return metric.fields == {"outcome"} and [metric.numerator({"outcome": o})
                                             for o in BUCKETS] == [True, False, False]


def _headline_claim(metric: CompiledMetric, plan: Plan, n: int) -> Finding | None:
    """A metric marked headline that is not the gate's headline: refused, with the reason."""
    spec = metric.spec
    if not spec.headline or counts_the_headline(metric, plan):
        return None
    pass_only = metric.numerator is not None and metric.fields == {"outcome"} and [
        metric.numerator({"outcome": o}) for o in BUCKETS] == [True, False, False]
    if pass_only and not plan.contract.samples and n < plan.task_count:
        return finding("headline_denominator_shrunk", (
            f"headline metric {spec.name!r} divides by {n} of {plan.task_count} tasks "
            f"(denominator {spec.denominator!r}); the headline keeps the full denominator: "
            f"use {_TASK_COUNT!r} and show the narrower rate as a labelled secondary metric"))
    headline = ("pass@1, the mean pass rate over all samples" if plan.contract.samples
                else f"outcome == 'pass' over all {plan.task_count} declared tasks")
    return finding("headline_redefined", (
        f"metric {spec.name!r} is marked headline but counts {spec.numerator!r} over "
        f"{spec.denominator!r}; the headline is the gate's own ({headline}): drop \"headline\": "
        "true to show it as a labelled metric"))


def _metric_lines(plan: Plan, counts: MetricCounts,
                  seen: set[str]) -> tuple[tuple[MetricLine, ...], list[Finding]]:
    """Each declared metric's rate; an undefined metric, or one marked headline that is not the
    headline, is a finding."""
    findings = []
    lines = []
    basis = (f"pass@{plan.contract.budget}: a task counts as passed if any of its samples passed"
             if plan.contract.samples else "")
    for tally in counts.tallies:
        metric, k, n = tally.metric, tally.k, tally.n
        spec = metric.spec
        problem = metric.problem or tally.withheld(plan.withheld)
        unknown = sorted(metric.fields - RECORD_FIELDS - seen)
        if problem is None and unknown:  # a typo would otherwise count every task as a non-match
            problem = f"no record carries the field {unknown[0]!r}"
        if problem is not None:
            findings.append(finding("metric_undefined", f"metric {spec.name!r}: {problem}"))
            lines.append(MetricLine(spec.name, spec.numerator, spec.denominator, spec.unit, False,
                                    None, defined=False, basis=basis))
            continue
        if metric.denominator is None:
            n = plan.task_count
        claimed = _headline_claim(metric, plan, n)
        if claimed is not None:
            findings.append(claimed)
        lines.append(MetricLine(spec.name, spec.numerator, spec.denominator, spec.unit,
                                counts_the_headline(metric, plan),
                                wilson_rate(k, n, plan.confidence),
                                wilson_rate(tally.scoreable_k, tally.scoreable_n, plan.confidence),
                                basis=basis))
    return tuple(lines), findings


class Rates(NamedTuple):
    name: str
    headline: Rate
    secondary: Rate | None
    first_attempt: Rate | None
    pass_at_k: tuple[tuple[int, float], ...]
    pass_hat_k: tuple[tuple[int, float], ...] = ()


def _rates(plan: Plan, totals: Totals, metrics: Sequence[MetricLine]) -> Rates:
    """The headline over the full declared denominator, and the labelled rates beside it."""
    conf, budget, n = plan.confidence, plan.contract.budget, plan.task_count
    if plan.contract.samples:
        headline = samples_rate(totals.passes, n, budget, conf)
        secondary = None
        if totals.scored:
            shapes = sorted(totals.scored)
            scored_passes = Fraction(sum(c * totals.scored[(c, m)] for c, m in shapes))
            scored_attempts = sum(m * totals.scored[(c, m)] for c, m in shapes)
            secondary = clustered_rate(Clusters([Fraction(c) for c, _ in shapes],
                                                [m for _, m in shapes],
                                                [totals.scored[x] for x in shapes]),
                                       scored_passes, scored_attempts, conf, "wilson-kish",
                                       monotone=True)
        pass_k = tuple((k, math.fsum(terms) / n) for k, terms in zip(range(2, budget + 1),
                                                                     totals.pass_at_k))
        every_k = tuple((k, math.fsum(terms) / n) for k, terms in zip(range(2, budget + 1),
                                                                      totals.pass_hat_k))
        return Rates("pass@1", cast(Rate, headline), secondary, None, pass_k, every_k)
    passed, failed = totals.counts["pass"], totals.counts["fail"]
    rates = Rates("pass_rate", cast(Rate, wilson_rate(passed, n, conf)),
                  wilson_rate(passed, passed + failed, conf) if passed + failed else None,
                  wilson_rate(totals.first_pass, n, conf) if budget > 1 else None, ())
    # A metric that counts exactly the headline may name it: the one marked headline, else the
    # first.
    named = [(spec.headline, line.name) for spec, line in zip((m.spec for m in plan.metrics),
                                                              metrics) if line.headline]
    if named:
        rates = rates._replace(name=max(named, key=lambda item: item[0])[1])
    return rates


def _cluster_line(plan: Plan, totals: Totals, headline: Rate) -> ClusterLine | None:
    """The headline with the cluster-robust interval (CR1 with Kish's effective number of clusters
    and the Korn-Graubard factor, held at the boundary: by_cluster_interval), when every declared
    task ran and named its cluster."""
    if not totals.clusters.tasks or totals.clusters.tasks != plan.task_count:
        return None
    # PERF: clusters of the same sum and size enter every sum alike, so each shape is weighted by
    # its count (a cluster a task: two shapes, not 10^6 exact fractions)
    shapes = sorted(totals.clusters.shapes.items())
    low, high, effective = by_cluster_interval(Clusters([Fraction(s) for (s, _), _ in shapes],
                                                        [n for (_, n), _ in shapes],
                                                        [w for _, w in shapes]), plan.confidence)
    return ClusterLine(Rate(headline.k, headline.n, low, high, "wilson-kish-cluster"),
                       sum(totals.clusters.shapes.values()), effective)


_SELECT_MIN = 1 << 14  # below this many values a sort is as quick
_SELECT_SAMPLE = 1 << 12  # about this many values in the sample
_SELECT_MARGIN = 64  # sample values either side of the middle: the bracket misses about never


def _median(values: Iterable[float]) -> float | None:
    """The median, exactly. PERF: for many values, the two middle order statistics are found among
    those between two values of a sorted sample (bracketing them with a margin), counted and sorted
    in C; a bracket that misses them (a sample far from the whole) sorts everything."""
    seq: Sequence[float] = values if isinstance(values, (list, array)) else list(values)
    count = len(seq)
    if count < _SELECT_MIN:
        return _sorted_median(seq)
    low, high = (count - 1) // 2, count // 2  # the middle positions (one, for an odd count)
    step = count // _SELECT_SAMPLE
    sample = sorted(seq[::step])
    floor = sample[max(0, low // step - _SELECT_MARGIN)]
    ceiling = sample[min(len(sample) - 1, high // step + _SELECT_MARGIN)]
    kept = list(itertools.compress(seq, map(operator.le, itertools.repeat(floor), seq)))
    below = count - len(kept)
    middle = sorted(itertools.compress(kept, map(operator.ge, itertools.repeat(ceiling), kept)))
    if not below <= low <= high < below + len(middle):
        return _sorted_median(seq)
    # every value below `floor` sorts before `middle`, every one above `ceiling` after it
    first, second = middle[low - below], middle[high - below]
    return _midpoint(first, second)


def _sorted_median(values: Iterable[float]) -> float | None:
    ordered = sorted(values)
    if not ordered:
        return None
    middle = len(ordered) // 2
    return _midpoint(ordered[(len(ordered) - 1) // 2], ordered[middle])


def _midpoint(first: float, second: float) -> float:
    """The middle of two order statistics (the one, when they are the same), without the overflow
    of (first + second) / 2 near the largest float."""
    return first if first == second else first / 2 + second / 2


def _cost_summary(summary: _Stream) -> CostSummary | None:
    measured, costs, tokens = summary.cost_values()
    if not measured:
        return None
    return CostSummary(tasks_with_cost=measured,
                       total_cost_usd=math.fsum(costs) if costs else None,
                       median_cost_usd=_median(costs),
                       total_tokens=sum(tokens) if tokens else None,
                       median_tokens=_median(tokens), tasks_with_cost_usd=len(costs),
                       tasks_with_tokens=len(tokens))


def _by_count(counts: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))


def settle(tally: _Tally, plan: Plan) -> Ledger:
    """Give every task exactly one exit, evaluate every metric, and list every finding."""
    grouped = _group_exits(tally, plan)
    totals = _totals(grouped.groups, plan)
    totals.clusters = grouped.clusters
    observed_digest = tally.summarize(plan).observed_digest()
    strata, strata_findings = _strata_lines(plan, totals, grouped.problems.get("stratum"))
    metrics, metric_findings = _metric_lines(plan, grouped.metrics, tally.seen_fields)
    rates = _rates(plan, totals, metrics)
    findings = (*_judge_suite(plan, tally, observed_digest),
                *_judge_attempts(plan, grouped.problems),
                *_judge_balance(plan, totals), *_judge_clusters(totals),
                *_judge_controls(plan, tally), *_judge_envelope(plan, tally),
                *strata_findings, *metric_findings)
    return Ledger(
        entries=plan.task_count,
        exits=totals.exits,
        counts=dict(totals.counts),
        reasons=_by_count(totals.reasons),
        attempt_reasons=_by_count(totals.attempt_reasons),
        headline_name=rates.name,
        headline=rates.headline,
        secondary=rates.secondary,
        first_attempt=rates.first_attempt,
        pass_at_k=rates.pass_at_k,
        pass_hat_k=rates.pass_hat_k,
        strata=strata,
        metrics=metrics,
        observed_tasks=tally.summarize(plan).task_count(),
        observed_digest=observed_digest,
        runs_sha256=tally.sha256,
        run_ids=tuple(sorted(tally.run_ids)),
        records=tally.records,
        cost=_cost_summary(tally.summarize(plan)),
        findings=findings,
        timing=tally.timing() if tally.kinds else "none",
        clustered=_cluster_line(plan, totals, rates.headline),
    )


def gate_runs(plan: Plan, runs: Path, run_id: str | None = None) -> Ledger:
    """Stream one runs file against a plan and settle it."""
    return settle(tally_runs(runs, plan.reading(run_id)), plan)


#####################################################################
# The benchmark card: freeze and verify a task slice
#####################################################################


def _sha(value: Any) -> str:
    return hashlib.sha256(canonical_json(value)).hexdigest()


def stratum_of(task: Mapping[str, Any], wide_above: int) -> str:
    return f"{task['language']}:{'narrow' if task['edit_span'] <= wide_above else 'wide'}"


def _task_violations(label: str, task: Mapping[str, Any], rule: SliceRule,
                     repeats: int | None) -> list[str]:
    """One task against the inclusion rule; `repeats` is the index of an earlier task with its ID.
    """
    problems = []
    missing = [name for name in TASK_FIELDS if name not in task]
    if missing:
        problems.append(f"{label}: missing {', '.join(missing)}")
    for name in ("task_id", "repo", "commit", "language", "license"):
        # the task-ID rule, for every identifier field
        if name in task and not is_task_id(task[name]):
            problems.append(f"{label}: {name} must be a non-empty string without surrounding "
                            f"spaces, got {_type_name(task[name])}")
    if repeats is not None:
        problems.append(f"{label}: task_id repeats task [{repeats}]")
    if "has_failing_test" in task and task["has_failing_test"] is not True:
        problems.append(f"{label}: has_failing_test is {_type_name(task['has_failing_test'])}; a "
                        "task enters only with a failing test")
    license_name = task.get("license")
    if isinstance(license_name, str) and license_name not in rule.allowed_licenses:
        problems.append(f"{label}: license {license_name!r} is outside the inclusion rule "
                        f"({', '.join(rule.allowed_licenses)})")
    span = task.get("edit_span")
    if "edit_span" in task and not (isinstance(span, int) and _is_int(span) and span >= 1):
        problems.append(f"{label}: edit_span must be a positive integer, got {_type_name(span)}")
    return problems


def inclusion_violations(tasks: Sequence[Mapping[str, Any]], rule: SliceRule) -> list[str]:
    """Every violation of the inclusion rule, for every task (the design note's sketch stopped at
    the first)."""
    problems = []
    seen: dict[str, int] = {}
    for index, task in enumerate(tasks):
        tid = task.get("task_id")
        label = f"[{index}] {tid}" if isinstance(tid, str) and tid else f"[{index}]"
        repeats = seen.get(tid) if isinstance(tid, str) else None
        problems.extend(_task_violations(label, task, rule, repeats))
        if isinstance(tid, str) and tid and repeats is None:
            seen[tid] = index
    return problems


class CardResult(NamedTuple):
    card: dict[str, Any] | None
    problems: tuple[str, ...]  # inclusion-rule violations and floor misses: refuse


def build_card(tasks: Sequence[Mapping[str, Any]], rule: SliceRule, attempt_budget: int,
               not_a_claim_about: Sequence[str]) -> CardResult:
    """Freeze a task slice: the card, or every reason the slice cannot be frozen under the rule."""
    problems = inclusion_violations(tasks, rule)
    if problems:
        return CardResult(None, tuple(problems))
    strata: dict[str, int] = {}
    for task in tasks:
        key = stratum_of(task, rule.wide_above)
        strata[key] = strata.get(key, 0) + 1
    thin = sorted(key for key, count in strata.items() if count < rule.min_per_stratum)
    if thin and not rule.withhold_thin_strata:
        shown = ", ".join(f"{key}={strata[key]}" for key in thin)
        return CardResult(None, (
            f"stratum floor missed: {shown} (floor {rule.min_per_stratum}); add tasks, "
            "or pass --withhold-thin-strata to record them as withheld",))
    card = {
        "card_version": CARD_VERSION,
        "dataset_digest": _sha(list(tasks)),
        "task_ids_sha256": ids_digest(str(t["task_id"]) for t in tasks),
        "task_count": len(tasks),
        "strata": dict(sorted(strata.items())),
        "withheld": thin,
        "inclusion_rule": {
            "required_fields": list(TASK_FIELDS),
            "has_failing_test": True,
            "allowed_licenses": sorted(rule.allowed_licenses),
            "edit_span": "integer >= 1",
            "wide_above": rule.wide_above,
            "min_per_stratum": rule.min_per_stratum,
            "withhold_thin_strata": rule.withhold_thin_strata,
        },
        "tasks": {
            str(t["task_id"]): {"sha256": _sha(t), "fields": {k: _sha(v)[:16]
                                                              for k, v in sorted(t.items())}}
            for t in sorted(tasks, key=lambda t: str(t["task_id"]))
        },
        "metric": {
            "name": "resolved_rate",
            "numerator": "hidden tests pass within the attempt budget",
            "denominator": "tasks in this frozen slice",
            "attempt_budget": attempt_budget,
            "pass_at_k_reported_separately": True,
        },
        "controls": ["no_edit_must_fail", "known_fix_must_pass"],
        "not_a_claim_about": list(dict.fromkeys([*DEFAULT_NOT_A_CLAIM_ABOUT, *not_a_claim_about])),
    }
    return CardResult(card, ())


def describe_drift(card: Mapping[str, Any], tasks: Sequence[Mapping[str, Any]]) -> list[str]:
    """Name what drifted: tasks added, removed, and changed (with the changed fields)."""
    recorded = card.get("tasks")
    recorded = recorded if isinstance(recorded, dict) else {}
    now = {str(t.get("task_id")): t for t in tasks}
    lines = []
    counts = Counter(str(t.get("task_id")) for t in tasks)
    repeated = sorted(tid for tid, count in counts.items() if count > 1)
    if repeated:
        lines.append(f"duplicated: {_name_some(repeated, len(repeated))}")
    added = sorted(set(now) - set(recorded))
    removed = sorted(set(recorded) - set(now))
    if added:
        lines.append(f"added: {_name_some(added, len(added))}")
    if removed:
        lines.append(f"removed: {_name_some(removed, len(removed))}")
    for tid in sorted(set(now) & set(recorded)):
        entry = recorded[tid]
        if not isinstance(entry, dict) or entry.get("sha256") == _sha(now[tid]):
            continue
        old = entry.get("fields")
        old_fields: dict[str, Any] = old if isinstance(old, dict) else {}
        fields_now = {k: _sha(v)[:16] for k, v in now[tid].items()}
        changed = sorted(k for k in set(old_fields) | set(fields_now)
                         if old_fields.get(k) != fields_now.get(k))
        lines.append(f"changed: {tid} ({', '.join(changed) or 'order of fields'})")
    return lines


class Verification(NamedTuple):
    ok: bool
    digest: str
    task_count: int
    problems: tuple[str, ...]


def verify_card(tasks: Sequence[Mapping[str, Any]], card: Card) -> Verification:
    """Recompute the card from the tasks under the card's own rule, and compare every field."""
    extra = [t for t in card.not_a_claim_about if t not in DEFAULT_NOT_A_CLAIM_ABOUT]
    rebuilt = build_card(tasks, card.rule, card.attempt_budget, extra)
    digest = _sha(list(tasks))
    problems: list[str] = []
    if card.dataset_digest != digest:
        problems.append("slice drifted; refuse to publish the score")
        problems.extend(describe_drift(card.raw, tasks) or ["the task list changed "
                                                            "order or formatting"])
    if rebuilt.card is None:
        return Verification(False, digest, len(tasks), (*problems, *rebuilt.problems))
    if not problems:
        differ = sorted(k for k in set(card.raw) | set(rebuilt.card)
                        if card.raw.get(k) != rebuilt.card.get(k))
        if differ:
            problems.append("card fields do not match the tasks they describe: "
                            f"{', '.join(differ)}")
    return Verification(not problems, digest, len(tasks), tuple(problems))


def load_card_context(manifest: Manifest) -> CardContext | None:
    """The manifest's card and task slice, verified; None when the manifest names no card."""
    if manifest.tasks_path is None or manifest.card_path is None:
        return None
    tasks = load_tasks(manifest.tasks_path)
    card = load_card(manifest.card_path)
    verification = verify_card(tasks, card)
    drift = verification.problems
    if manifest.card_sha256 is not None and manifest.card_sha256 != card.sha256:
        drift = (f"the card file's sha256 is {card.sha256}, but the manifest pins "
                 f"{manifest.card_sha256} (dataset.card_sha256): the card was re-frozen or edited "
                 "since the claim was made", *drift)
    strata = {}
    for task in tasks:
        span, language = task.get("edit_span"), task.get("language")
        # a broken task is already a card_drift finding
        if _is_int(span) and isinstance(language, str):
            strata[str(task.get("task_id"))] = stratum_of(task, card.rule.wide_above)
    ids = frozenset(str(t.get("task_id")) for t in tasks)
    return CardContext(card, ids, strata, drift)


#####################################################################
# One claim: a manifest, its card and control runs, one runs file, and the number to be quoted
#####################################################################


# A claim matches at the precision it is written with, but never more loosely than half a percentage
# point: "1.0" is not a rounding of 0.95.
CLAIM_TOLERANCE = Fraction(1, 200)


def parse_claim(text: str) -> tuple[Fraction, Fraction, tuple[int, int] | None]:
    """A claimed number as (value, half a unit of its last written digit, k/n if written as a
    fraction)."""
    raw = text.strip()
    if len(raw) > 40:
        raise GateError(f"--claim: {raw[:20]}...: a claimed rate has at most 40 characters")
    fraction = re.fullmatch(r"(\d+)\s*/\s*(\d+)", raw)
    if fraction:
        k, n = int(fraction.group(1)), int(fraction.group(2))
        if n == 0 or k > n:
            raise GateError(f"--claim {text!r}: a fraction k/n needs 0 <= k <= n and n >= 1")
        return Fraction(k, n), Fraction(0), (k, n)
    number = re.fullmatch(r"(\d+)(?:\.(\d+))?\s*(%?)", raw)
    if not number:
        raise GateError(f"--claim {text!r}: expected a number such as 78%, 78.4, 0.784 or 29/37")
    digits = number.group(2) or ""
    value = Fraction(int(number.group(1) + digits), 10 ** len(digits))
    half = Fraction(1, 2 * 10 ** len(digits))
    percent = number.group(3) == "%" or value > 1 or not digits
    if percent:
        value, half = value / 100, half / 100
    if value > 1:
        raise GateError(f"--claim {text!r}: a rate cannot exceed 100%")
    return value, min(half, CLAIM_TOLERANCE), None


def _count(k: Fraction) -> str:
    return str(k.numerator) if k.denominator == 1 else f"{float(k):.2f}"


def _shrunk_denominator(head: Rate, value: Fraction, half: Fraction,
                        fraction: tuple[int, int] | None) -> int | None:
    """The largest d < n, at most half the tasks dropped, with k/d equal to the claim: solved, not
    searched, so a huge declared task count costs nothing."""
    lowest = max(1, head.n - max(1, head.n // 2))
    if fraction is not None:
        matched = Fraction(fraction[0]) == head.k and lowest <= fraction[1] < head.n
        return fraction[1] if matched else None
    if head.k == 0:
        return None  # 0/d is the headline's own 0/n: that comparison was already made
    # k/d within [value - half, value + half]  <=>  d within [k/(value + half), k/(value - half)]
    largest = math.floor(head.k / (value - half)) if value > half else head.n - 1
    candidate = min(largest, head.n - 1)
    if candidate >= lowest and candidate * (value + half) >= head.k:
        return candidate
    return None


def check_claim(text: str, ledger: Ledger) -> tuple[ClaimCheck, Finding | None]:
    """Does the number about to be pasted equal the headline at the precision it was written with?
    """
    value, half, fraction = parse_claim(text)
    head, second = ledger.headline, ledger.secondary
    head_value = head.k / head.n
    shown = f"{_count(head.k)}/{head.n} = {float(head_value):.3f}"

    def matches(k: Fraction, n: int) -> bool:
        if fraction is not None:
            return (Fraction(fraction[0]), fraction[1]) == (k, n)
        return abs(k / n - value) <= half

    if matches(head.k, head.n):
        return ClaimCheck(text, True, f"{text} matches the headline {shown}"), None
    if second is not None and matches(second.k, second.n):
        message = (f"{text} is the scoreable-only rate {_count(second.k)}/{second.n}, not the "
                   f"headline {shown}: quote it only with its label, beside the headline")
        return ClaimCheck(text, False, message), finding("claim_is_secondary", message)
    denominator = _shrunk_denominator(head, value, half, fraction)
    if denominator is not None:
        dropped = head.n - denominator
        message = (f"{text} equals {_count(head.k)}/{denominator}: {dropped} task(s) were dropped "
                   f"from the denominator; the headline is {shown}")
        return ClaimCheck(text, False, message), finding("claim_shrunk_denominator", message)
    message = f"{text} is not supported by this ledger: the headline is {shown}"
    return ClaimCheck(text, False, message), finding("claim_unsupported", message)


def attrition(ledger: Ledger, mode: AttemptMode, budget: int, ceiling: float) -> Attrition:
    if mode == "samples":
        return Attrition(sum(count for _, count in ledger.attempt_reasons),
                         ledger.entries * budget, "attempts", ceiling)
    return Attrition(ledger.counts["unscoreable"], ledger.entries, "tasks", ceiling)


def _judge_attrition(ledger: Ledger, lost: Attrition) -> list[Finding]:
    """A claim whose run produced almost no verdicts is not publishable, however honest its
    full-denominator headline: past the ceiling the figure measures the harness's failures more than
    the system."""
    scored = ledger.counts["pass"] + ledger.counts["fail"]
    if scored == 0:
        return [finding("attrition_exceeded", (
            f"no task has a verdict: all {ledger.entries} exited unscoreable "
            f"({', '.join(f'{r} {c}' for r, c in ledger.reasons) or 'no reason recorded'}); fix "
            "what stops the harness from grading, and run again"))]
    if lost.share > lost.ceiling:
        return [finding("attrition_exceeded", (
            f"{lost.lost} of {lost.of} {lost.unit} ({lost.share:.1%}) exited unscoreable, above "
            f"the ceiling of {lost.ceiling:g} (max_unscoreable): too few verdicts for the headline "
            "to stand for the suite; fix what stops the harness from grading and run again"
            + (" (or, for a reason you can defend, raise max_unscoreable to at most "
               f"{MAX_UNSCOREABLE_LIMIT:g})" if lost.share <= MAX_UNSCOREABLE_LIMIT
               else f": {lost.share:.1%} is past what max_unscoreable may allow "
                    f"({MAX_UNSCOREABLE_LIMIT:g})")))]
    return []


def _control_budget(plan: Plan, runs: Path) -> int:
    """A control run's own attempt contract: the attempts its records hold a task (one nop run and
    one oracle run prove the harness whatever the claim's budget), never more than the claim's."""
    tally = tally_runs(runs, plan.reading(None, fields=False))
    most = max((attempt_number(e) for packed in tally.tasks.values()
                for e in task_attempts(packed)), default=1)
    return max(1, min(most, plan.contract.budget))


def _gate_control_run(run: ControlRun, plan: Plan,
                      folder: Path) -> tuple[ControlRunResult, list[Finding]]:
    """A no-edit or known-fix run: its own ledger over the same dataset, under its own attempt
    contract (the attempts its records hold a task), and its rate against its bound.

    A run whose tasks are mostly unscoreable proves nothing either way: a no-edit run that never
    produced a verdict would pass any ceiling.
    """
    budget = _control_budget(plan, run.runs)
    contract = plan.contract._replace(budget=budget)
    ledger = gate_runs(control_run_plan(plan, run.role)._replace(contract=contract), run.runs)
    findings = list(prefixed(run.role, ledger.findings))
    rate = ledger.headline.value
    lost = ledger.counts["unscoreable"]
    if 2 * lost > ledger.entries:
        findings.append(finding("control_run_inconclusive", (
            f"{run.role} run: {lost} of {ledger.entries} tasks are unscoreable; it proves nothing "
            "about the harness (fix what stops it from producing verdicts, and run it again)")))
    elif ((run.max_pass_rate is not None and rate > run.max_pass_rate)
          or (run.min_pass_rate is not None and rate < run.min_pass_rate)):
        relation = "above its ceiling" if run.role == "no_edit" else "below its floor"
        findings.append(finding("control_run_violated", (
            f"{run.role} run passes {rate:.3f}, {relation} of {run.bound:g}: the harness does not "
            f"{'fail untouched repositories' if run.role == 'no_edit' else 'pass the recorded fixes'}")))
    return ControlRunResult(run.role, os.path.relpath(run.runs, folder), run.bound, ledger,
                            budget), findings


def _pattern_score(plan: Plan, tally: _Tally) -> Callable[[AttemptPattern], int]:
    """What compare pairs on, for an attempt pattern: its passes. Retry mode: 1 if any attempt
    within budget passed (the task's exit); samples mode: how many distinct samples within budget
    passed."""
    info = tally.kind_infos()

    def score(packed: AttemptPattern) -> int:
        attempts = task_attempts(packed)
        budget = plan.contract.budget
        passing = {attempt_number(e) for e in attempts
                   if info[attempt_kind(e)].code == PASS and attempt_number(e) <= budget}
        return len(passing) if plan.contract.samples else int(bool(passing))
    return score


def _scores_by_task(plan: Plan, tally: _Tally) -> dict[str, tuple[int, str | None]]:
    """Each task's passes (_pattern_score, each distinct attempt pattern scored once) and cluster
    (its first record's, where its records name two)."""
    score = _pattern_score(plan, tally)
    scored = {packed: score(packed) for packed in set(tally.tasks.values())}
    return {tid: (scored[packed], tally.clusters.get(tid)) for tid, packed in tally.tasks.items()}


def _task_scores(plan: Plan, tally: _Tally) -> TaskScores:
    """The scores compare and rank pair on: a sorted stream's stay in task-ID order
    (AlignedScores), numbered by (attempt pattern, cluster)."""
    summary = tally.summarize(plan)
    if summary.order is not None:
        score = _pattern_score(plan, tally)
        table = [(score(pattern), cluster) for pattern, cluster in summary.numbers]
        return AlignedScores(summary.observed_digest(), summary.order, table)
    return _scores_by_task(plan, tally)


def _definition_text(options: Mapping[str, Any] | None) -> str:
    """A verdict definition as the card names it: "--threshold 1.0", or the harness's own verdicts.
    """
    if not options:
        return "the harness's own verdicts"
    return ", ".join(f"--{key.replace('_', '-')} {value!r}"
                     for key, value in sorted(options.items()) if value not in (None, False))


def _bind_ledger(m: Manifest, ledger: Ledger) -> tuple[Binding, list[Finding]]:
    """The runs file is the ledger the manifest's import wrote, or the card says it is not bound."""
    prov = m.provenance
    if prov is None or (prov.ledger_sha256 is None and not prov.by_import):
        return Binding("ledger", False, "no import behind it: the manifest records none (a "
                       "hand-made ledger, or one whose import provenance was removed)"), []
    undo = ("or delete the manifest's provenance block to gate it as a hand-made ledger (the card "
            "then says it is not bound to an import)")
    if prov.ledger_sha256 is None:
        return Binding("ledger", False, "the provenance records no ledger"), [finding(
            "ledger_not_imported",
            "the provenance names an import (its importer, options, instrument or command) but not "
            "the ledger it wrote (provenance.ledger): import again with --draft-manifest, " + undo)]
    if ledger.runs_sha256 != prov.ledger_sha256:
        return Binding("ledger", False, "not the import's"), [finding("ledger_not_imported", (
            f"the runs file's sha256 is {ledger.runs_sha256[:12]}, the import wrote "
            f"{prov.ledger_sha256[:12]} (provenance.ledger.sha256): it was edited after the "
            "import, or is another run's ledger; rebuild it with provenance.command, " + undo))]
    # (with one attempt a task, samples and retries read alike)
    if prov.ledger_mode not in (None, m.attempt_mode) and (m.attempt_budget or 1) > 1:
        return Binding("ledger", False, "read in another attempt mode"), [finding(
            "ledger_not_imported", (
                f"the import read this ledger's attempts in {prov.ledger_mode} mode "
                f"(provenance.ledger.attempt_mode); the manifest says {m.attempt_mode}: a task's "
                "verdict from its attempts is the import's reading (samples are not retries); "
                f"`{invoked('set')} MANIFEST attempt_mode={prov.ledger_mode}` sets it back"))]
    runs = f"run {', '.join(prov.run_ids)}" if prov.run_ids else ""
    return Binding("ledger", True, f"the runs file's sha256 is the one the manifest records for "
                   f"import {prov.importer or '?'}'s ledger ({prov.ledger_sha256[:12]}"
                   f"{', ' + runs if runs else ''})"), []


def _bind_instrument(m: Manifest) -> Binding | None:
    """The instrument the import's files record, or the user's declaration that runs made with
    several are one."""
    prov = m.provenance
    if prov is None or prov.instrument is None:
        return None
    if prov.one_instrument:
        return Binding("instrument", False, prov.one_instrument)
    if prov.ledger_sha256 is None:
        return Binding("instrument", False, f"{instrument_text(prov.instrument)}, as the manifest "
                       "states it: its ledger is not bound to the import, so nothing is checked")
    return Binding("instrument", bool(prov.instrument), instrument_text(prov.instrument))


def _bind_control(m: Manifest, run: ControlRun, result: ControlRunResult,
                  ledger: Ledger, runs: Path) -> tuple[Binding, list[Finding]]:
    """A control run is bound to the claim: not the claim's own ledger, the ledger its import wrote,
    and read by the claim's importer under its verdict definition on its instrument."""
    name = f"{run.role} run"
    if _same_file(run.runs, runs) or result.ledger.runs_sha256 == ledger.runs_sha256:
        return Binding(name, False, "the claim's own ledger"), [finding("control_is_claim", (
            f"the {run.role} run {result.runs} is the claim's own runs file (sha256 "
            f"{ledger.runs_sha256[:12]}): a control made of the claim proves nothing; import the "
            f"harness's {run.role} run into a file of its own"))]
    cp = run.provenance
    if cp is None or not cp.by_import:
        return Binding(name, False, "its control_runs entry records no import (added by hand): "
                       "its instrument and verdict definition are unchecked"), []
    unrecorded = [key for key, value in (("ledger", cp.ledger_sha256), ("importer", cp.importer),
                                         ("options", cp.options)) if value is None]
    if unrecorded:  # an entry that names an import records all of it, or binds nothing
        return Binding(name, False, f"its provenance records no {', '.join(unrecorded)}"), [
            finding("control_not_bound", (
                f"the {run.role} run {result.runs}: its control_runs entry names an import but "
                f"records no {' and no '.join(unrecorded)}, so it cannot be held to the claim; "
                "import it again with --control (or delete the entry's provenance: the card then "
                "says the control is unbound)"))]
    findings: list[Finding] = []
    if cp.ledger_sha256 != result.ledger.runs_sha256:
        findings += prefixed(run.role, [finding("ledger_not_imported", (
            f"the {run.role} run's file {result.runs} has sha256 "
            f"{result.ledger.runs_sha256[:12]}, its import wrote {str(cp.ledger_sha256)[:12]}: it "
            "was edited after the import; import the control run again"))])
    if m.provenance is None or m.provenance.ledger_sha256 is None:
        return Binding(name, False, "its import is recorded, the claim's ledger is not bound: "
                       "their verdict definitions and instruments are not compared"), findings
    problems = control_mismatch(m.provenance, cp)
    if problems:
        findings.append(finding("control_not_bound", (
            f"the {run.role} run {result.runs} is {'; and '.join(problems)}: a control proves the "
            "claim's instrument only when made on it and read under the claim's verdict "
            f"definition; make it there and import it with the claim's options "
            "(provenance.command)")))
        return Binding(name, False, "not the claim's: " + "; ".join(problems)), findings
    shared = set(m.provenance.instrument or {}) & set(cp.instrument or {})
    if not shared:  # nothing both files record: the instrument could not be compared
        return Binding(name, False, f"the claim's importer and verdict definition "
                       f"({_definition_text(cp.options)}); its instrument is not checked: neither "
                       "file records a harness version or commit both can be compared on"), findings
    if m.provenance.one_instrument:  # bound to one of the instruments declared one, not to all
        return Binding(name, False, "the claim's importer and verdict definition, made at "
                       f"{instrument_text(cp.instrument or {})}: one of the instruments the "
                       "claim's runs were declared one (--one-instrument), not each of "
                       "them"), findings
    return Binding(name, not findings, "the claim's importer, instrument "
                   f"({', '.join(sorted(shared))}) and verdict definition "
                   f"({_definition_text(cp.options)}), sha256 "
                   f"{result.ledger.runs_sha256[:12]}"), findings


def _bind_declared_set(m: Manifest) -> tuple[Binding, list[Finding]]:
    """The declared set is a declaration (the harness's, --dataset-ids, a card or a declared
    subset), never only what the imported files held."""
    if m.card_path is not None:
        return Binding("declared set", True, "the card's task slice (dataset.card)"), []
    if m.subset is not None:
        return Binding("declared set", False, f"a subset the manifest declares ({m.subset[1]}): "
                       "the author's and the harness's word, not checked"), []
    prov = m.provenance
    if prov is None:
        return Binding("declared set", False, "the manifest's own (no import behind it)"), []
    if prov.set_found and "dataset" in m.confirmed:
        return Binding("declared set", False, "only what the files held, confirmed by the author "
                       "as the whole suite (set --confirm dataset)"), []
    if prov.set_found:
        return Binding("declared set", False, "only what the files held"), [finding(
            "declared_set_unconfirmed", (
                f"the declared set is only what the imported files held "
                f"({m.declared_from or 'provenance.declared_set'}): a task the harness dropped "
                "would leave the denominator unseen; import again with --dataset-ids FILE (the "
                "suite's task ids), or declare the part the claim is about as dataset.subset "
                "{\"selection\": \"how they were chosen\"}, or pin a card (dataset.card), or "
                f"confirm the files hold the whole suite: `{invoked('set')} MANIFEST --confirm "
                "dataset`"))]
    return Binding("declared set", True, m.declared_from or "declared by the harness's files"), []


def _bind_system(m: Manifest) -> list[Finding]:
    """A claim imported from harness files names what it measured: its agent and its model, or
    states that one is not disclosed."""
    if m.provenance is None or not m.provenance.by_import:
        return []
    system = m.measured or {}
    missing = [key for key in ("agent", "model")
               if not any(k in (key, f"{key}_name") and (stated_unknown(v) or (
                   isinstance(v, str) and v.strip()))  # (a placeholder: placeholder_value)
                          for k, v in system.items())]
    if not missing:
        return []
    return [finding("system_unnamed", (
        f"the claim names no {' and no '.join(missing)} under system: say what was measured "
        f"(system.{missing[0]}), or state {{\"not_disclosed\": \"why\"}} as its value"))]


def _judge_bindings(m: Manifest, ledger: Ledger, runs: Path,
                    controls: Sequence[tuple[ControlRun, ControlRunResult]]
                    ) -> tuple[tuple[Binding, ...], list[Finding]]:
    """One claim is one run of one system, read under one definition on one instrument, with its
    controls made there: each binding checked, or named on the card as not checked."""
    binding, findings = _bind_ledger(m, ledger)
    bindings = [binding]
    instrument = _bind_instrument(m)
    bindings += [instrument] if instrument is not None else []
    for run, result in controls:
        binding, found = _bind_control(m, run, result, ledger, runs)
        bindings.append(binding)
        findings += found
    binding, found = _bind_declared_set(m)
    return (*bindings, binding), [*findings, *found, *_bind_system(m)]


def _judge_manifest(manifest: Manifest) -> list[Finding]:
    """A draft, a placeholder or an unnamed instrument: the manifest is not finished."""
    findings = []
    if manifest.draft:
        findings.append(finding("draft_manifest", (
            "the manifest still has its \"draft\" list (from `init` or `import --draft-manifest`): "
            "do what it says, then delete it")))
    if manifest.placeholders:
        findings.append(finding("placeholder_value", (
            f"{', '.join(manifest.placeholders)} still "
            f"{'holds' if len(manifest.placeholders) == 1 else 'hold'} "
            "a placeholder: fill in the real value"
            + (f"; the digest comes from `{invoked('digest')} --runs RUNS`"
               if "dataset.task_ids_sha256" in manifest.placeholders else ""))))
    missing = [key for key in ENVELOPE_REQUIRED
               if not _envelope_holds(key, manifest.envelope.get(key))]
    if missing:
        findings.append(finding("envelope_incomplete", (
            f"the envelope does not record {', '.join(missing)}: a ledger balances inside one "
            "named instrument (runner, network policy, per-task wall clock, toolchain digest); "
            "give each a value (a name, a number of seconds, a digest), or "
            "{\"not_recorded\": \"why\"} where the files do not say")))
    return findings


def _envelope_holds(key: str, value: object) -> bool:
    """Does a required envelope field say something: a name with a letter or digit in it (a number
    of seconds for the wall clock), or {"not_recorded": "why"} whose reason has one? ({}, [],
    " ", "-", a zero-width space, false, the bare word not_recorded and a blank reason say nothing;
    not_disclosed is for the system, not the instrument.)"""
    if isinstance(value, dict):
        why = value.get("not_recorded")
        return set(value) == {"not_recorded"} and isinstance(why, str) and _says_something(why)
    if key == "wall_clock_s_per_task":
        return _is_number(value)
    return isinstance(value, str) and _says_something(value) \
        and value.strip().lower() not in ("not_recorded", "not_disclosed", "not recorded")


def _says_something(text: str) -> bool:
    return any(char.isalnum() for char in text)


def _gated_run(manifest: Manifest, run_id: str | None) -> tuple[str | None, list[Finding]]:
    """The run to gate: --run-id, or the manifest's run_id; a --run-id the rerun recipe cannot
    repeat is a finding."""
    if run_id is not None and manifest.run_id is not None and run_id != manifest.run_id:
        raise GateError(f"--run-id {run_id!r}: the manifest "
                        f"publishes run {manifest.run_id!r} (run_id)")
    if run_id is None or manifest.run_id is not None:
        return manifest.run_id, []
    recipe = manifest.rerun_recipe or ""
    if re.search(rf"--run-id[ =]['\"]?{re.escape(run_id)}(?:['\"]|\s|$)", recipe):
        return run_id, []
    return run_id, [finding("run_not_pinned", (
        f"--run-id {run_id} chose the gated run, but a stranger's rerun "
        f"would gate every run in the file: add \"run_id\": \"{run_id}\" "
        f"to the manifest, or --run-id {run_id} to its rerun_recipe"))]


def _ignored_runs(tally: _Tally, plan: Plan, runs_path: Path) -> tuple[tuple[str, Rate], ...]:
    """The headline of every run in the file that was not gated, so the report can name them: the
    file is read once more and cut into its runs, never once a run (6,000 one-record runs had taken
    77 s)."""
    others = sorted(tally.all_run_ids - tally.run_ids)
    if not others or not tally.run_ids:
        return ()
    try:
        with _runs_apart(runs_path, set(others)) as files:
            return tuple((other, gate_runs(plan, files[other], other).headline) for other in others)
    # a bad line in another run: read the file itself, so the error names its own line
    except GateError:
        return tuple((other, gate_runs(plan, runs_path, other).headline) for other in others)


class _runs_apart:
    """A runs file cut into one in-memory file a run, for the runs wanted, in one pass over it: a
    context manager whose value maps each run_id to a name open_input reads its lines from (a
    temporary file a run cost a quarter of a millisecond to write and read again: 10,000 runs
    took 5 s). Only for a file already read whole, so every line is valid."""

    def __init__(self, path: Path, wanted: set[str]) -> None:
        self.path, self.wanted = path, wanted
        self.names: list[str] = []

    def __enter__(self) -> dict[str, Path]:
        lines: dict[str, list[bytes]] = {run: [] for run in self.wanted}
        with open_input(self.path) as handle:
            for raw in handle:
                text = raw.strip()
                if text.startswith(b"\xef\xbb\xbf"):
                    text = text[3:]
                if text:
                    run = json.loads(text).get("run_id")
                    if run in lines:
                        lines[run].append(raw if raw.endswith(b"\n") else raw + b"\n")
        files = {}
        for number, (run, kept) in enumerate(sorted(lines.items())):
            name = f"\0{id(self)}/run-{number}.jsonl"
            _IN_MEMORY[name] = b"".join(kept)
            self.names.append(name)
            files[run] = Path(name)
        return files

    def __exit__(self, *_: object) -> None:
        for name in self.names:
            _IN_MEMORY.pop(name, None)


def unrecorded(task_count: int, recorded: int, manifest: Path, how: str, times: int = 1) -> int:
    """How many declared tasks no runs file records (each a fail on every side, counted `times`
    over), or an input error when that is more than MAX_UNRECORDED cells."""
    missing = max(0, task_count - recorded)
    if missing * times > MAX_UNRECORDED:
        cells = f" ({missing:,} x {times:,})" if times > 1 else ""
        raise GateError(f"{manifest}: dataset.task_count: {task_count:,} declared tasks, "
                        f"{missing:,} of them with no record in any runs file: {how}, and more "
                        f"than {MAX_UNRECORDED:,} such cells{cells} is not a comparison (give the "
                        "suite's real task_count, or the runs that cover it)")
    return missing


def _gate_replicates(plan: Plan, runs_path: Path, run_ids: Sequence[str], manifest_path: Path,
                     ceiling: float = DEFAULT_MAX_UNSCOREABLE) -> tuple[Ledger, Replicates,
                                                                        list[Finding]]:
    """Gate every replicate run in full, then combine them: the headline is the mean over runs, its
    interval from the two-way layout of tasks x runs (crossed_size), so it counts run-to-run
    variance as well as the tasks'."""
    findings: list[Finding] = []
    present: list[tuple[str, Ledger, dict[str, tuple[int, str | None]]]] = []
    whole = tally_runs(runs_path, plan.reading(run_ids[0]), must_exist=False)
    seen = whole.all_run_ids
    # one more pass, not one a replicate
    with _runs_apart(runs_path, set(run_ids[1:]) & seen) as files:
        for number, rid in enumerate(run_ids, 1):
            try:
                if number == 1:
                    tally = whole
                elif rid in files:
                    tally = tally_runs(files[rid], plan.reading(rid))
                else:
                    tally = None
            except GateError:  # a bad line: read the file itself, so the error names its own line
                tally = tally_runs(runs_path, plan.reading(rid), must_exist=False)
            if tally is None or not tally.run_ids:
                findings.append(finding("replicate_missing", (
                    f"replicate {number} ({rid}) has no record in {runs_path}: run it, or drop it "
                    "from replicates")))
                continue
            ledger = settle(tally, plan)._replace(runs_sha256=whole.sha256)
            # every run holds to the ceiling
            lost = attrition(ledger, plan.contract.mode, plan.contract.budget, ceiling)
            findings.extend(prefixed(f"R{number}", [*ledger.findings,
                                                    *_judge_attrition(ledger, lost)]))
            present.append((rid, ledger, _scores_by_task(plan, tally)))
    undeclared = sorted(seen - set(run_ids))
    if undeclared:
        findings.append(finding("replicate_undeclared", (
            f"{len(undeclared)} run(s) in {runs_path} are not among the manifest's replicates "
            f"({_name_some(undeclared, len(undeclared))}): list them, or gate them apart")))
    if not present:
        raise GateError(f"{runs_path}: none of the manifest's "
                        f"replicates ({', '.join(run_ids)}) has a record")
    m = plan.contract.units
    tasks = sorted({tid for _, _, scores in present for tid in scores})
    padding = unrecorded(plan.task_count, len(tasks), manifest_path,
                         f"the replicates are combined task by task over their {len(present)} runs",
                         len(present))
    cells = [[Fraction(min(scores.get(t, (0, None))[0], m), m)
              for t in tasks] + [Fraction(0)] * padding
             for _, _, scores in present]
    first = present[0][1]
    heads = [(rid, ledger.headline) for rid, ledger, _ in present]
    if len(cells) < 2:
        return first._replace(findings=()), Replicates(tuple(heads), 0.0, 0.0, 0.0), findings
    design = crossed_size(cells, m, plan.confidence)
    low, high = wilson_p(design.mean, design.effective, plan.confidence)
    # all pass or none: T units
    boundary = crossed_boundary(len(cells[0]), len(cells), m, plan.confidence)
    low, high = monotone_interval((low, high), wilson_p(1.0, boundary, plan.confidence),
                                  wilson_p(0.0, boundary, plan.confidence))
    total = sum((r.k for _, r in heads), Fraction(0))
    combined = Rate(total / len(heads), plan.task_count, low, high, "wilson-crossed")
    values = [r.value for _, r in heads]
    centre = math.fsum(values) / len(values)
    spread = math.sqrt(math.fsum((v - centre) ** 2 for v in values) / (len(values) - 1))
    findings.extend(_replicate_clusters(present))
    # The bucket counts shown are the first run's (every run is gated in full); a rate of one run
    # would read as the claim's, so the per-run rates (secondary, first try, strata, metrics, by
    # cluster) are left out.
    ledger = first._replace(headline=combined, findings=(),
                            run_ids=tuple(rid for rid, _, _ in present), secondary=None,
                            first_attempt=None, strata=(), metrics=(), clustered=None,
                            pass_at_k=(), pass_hat_k=())
    return ledger, Replicates(tuple(heads), spread, design.df, design.effective,
                              design.run_term), findings


def _replicate_clusters(present: Sequence[tuple[str, Ledger, dict[str, tuple[int, str | None]]]]
                        ) -> list[Finding]:
    """A task names one cluster in every run, and either every run names clusters or none does."""
    named = [any(cluster is not None for _, cluster in scores.values()) for _, _, scores in present]
    if any(named) and not all(named):
        bare = [rid for (rid, _, _), has in zip(present, named) if not has]
        return [finding("cluster_incomplete", (
            f"replicate run(s) {', '.join(bare)} name no cluster while the others do: name the "
            "cluster in every run, or in none"))]
    clusters: dict[str, str | None] = {}
    conflicts = []
    for rid, _, scores in present:
        for tid, (_, cluster) in scores.items():
            if clusters.setdefault(tid, cluster) != cluster:
                conflicts.append(f"{visible(tid)} ({clusters[tid]} and {cluster} in {rid})")
    if conflicts:
        return [finding("cluster_conflict", (
            f"{len(conflicts)} task(s) name different clusters in different replicate runs, first "
            f"{conflicts[0]}: a task belongs to one cluster"))]
    return []


def _report_run(pinned: str | None, ledger: Ledger) -> str | None:
    """The run a report gates: the one pinned, else the file's only run (None when it holds
    several)."""
    if pinned is not None:
        return pinned
    return ledger.run_ids[0] if len(ledger.run_ids) == 1 else None


class ClaimFiles(NamedTuple):
    """A claim's files as check, compare and rank take them: its manifest, its runs file, and the
    run the command line pins (--run-id), if any."""

    manifest: Path
    runs: Path
    run_id: str | None = None


def _claim_manifest(path: Path) -> Manifest:
    """load_manifest; a harness's own result file given in its place is named, with the import
    command that drafts a manifest (and the runs file) from it."""
    try:
        return load_manifest(path)
    except GateError:
        # (a pipe or a device is read once: what it sent is gone)
        fmt = harness_file_kind(path) if path.is_file() else None
        if fmt is None or _names_a_claim(path):
            raise
        raise GateError(_harness_file(path, fmt, "a manifest")) from None


def _names_a_claim(path: Path) -> bool:
    """Does the file name a claim_id, as every manifest does, a draft or a broken one (whose error
    is its own, though its provenance names a harness's lists)?"""
    try:
        with open_input(path) as handle:
            return b'"claim_id"' in handle.read(MAX_FILE_BYTES)
    except GateError:
        return False


def run_check(files: ClaimFiles, confidence: float = 0.95, claim: str | None = None,
              keep_scores: bool | str = False, jobs: int = 1) -> Report:
    """Gate one claim: the manifest, its card and control runs, the runs file, and an optional
    claim (with `jobs` worker processes for a large runs file). keep_scores: the per-task scores
    compare and rank pair on, in task-ID order where the ledger allows (AlignedScores), or
    "table" for a table by task ID."""
    manifest_path, runs_path, run_id = files
    manifest = _claim_manifest(manifest_path)
    context = load_card_context(manifest)
    plan, findings = make_plan(manifest, context, confidence)
    replicates = None
    if manifest.replicates:
        if run_id is not None:
            raise GateError(f"--run-id {run_id!r}: the manifest gates its replicates together "
                            f"({', '.join(manifest.replicates)}); there is no one run to choose")
        if keep_scores:
            raise GateError(f"{manifest.path}: compare and rank pair one run with one run; this "
                            "manifest gates replicates together (give each run its own manifest "
                            "with its run_id)")
        ledger, replicates, run_findings = _gate_replicates(plan, runs_path, manifest.replicates,
                                                            manifest.path, manifest.max_unscoreable)
        gated, tally = None, None
    else:
        gated, run_findings = _gated_run(manifest, run_id)
        summary = None if keep_scores == "table" or _per_task(plan) else \
            (plan.declared_ids, frozenset(c.task_id for c in plan.controls))
        tally = tally_runs(runs_path, plan.reading(gated), summary=summary, jobs=jobs,
                           keep_order=bool(keep_scores))
        if plan.contract.samples and plan.contract.budget > tally.records:
            raise GateError(f"{runs_path}: attempt_budget {plan.contract.budget} in samples mode, "
                            f"but the file holds {tally.records} attempt record(s): no task can "
                            f"have {plan.contract.budget} samples")
        ledger = settle(tally, plan)
    lost = attrition(ledger, plan.contract.mode, plan.contract.budget, manifest.max_unscoreable)
    all_findings = [*_judge_manifest(manifest), *findings, *run_findings, *ledger.findings,
                    # replicates: each run, above
                    *(_judge_attrition(ledger, lost) if replicates is None else ())]
    control_results = []
    for run in manifest.control_runs:
        result, control_findings = _gate_control_run(run, plan, manifest.path.parent)
        control_results.append(result)
        all_findings.extend(control_findings)
    bindings, binding_findings = _judge_bindings(manifest, ledger, runs_path,
                                                 tuple(zip(manifest.control_runs, control_results)))
    all_findings.extend(binding_findings)
    claim_check = None
    if claim is not None:
        claim_check, claim_finding = check_claim(claim, ledger)
        if claim_finding is not None:
            all_findings.append(claim_finding)
    return Report(
        manifest=manifest,
        ledger=ledger,
        confidence=confidence,
        contract=plan.contract,
        control_runs=tuple(control_results),
        not_a_claim_about=context.card.not_a_claim_about if context else (),
        card_digest=str(context.card.dataset_digest) if context else None,
        claim=claim_check,
        findings=tuple(all_findings),
        scores=_task_scores(plan, tally) if keep_scores and tally is not None else None,
        gated_run=_report_run(gated, ledger),
        ignored_runs=_ignored_runs(tally, plan,
                                   runs_path) if gated is not None and tally is not None else (),
        replicates=replicates,
        attrition=lost,
        bindings=bindings,
    )


class RateRow(NamedTuple):
    """One rate a card shows: what it is (its kind), its label, the rate (None: withheld or n/a,
    with the note saying which). Every renderer lists these rows, so the formats cannot disagree on
    which rates a card has."""

    # headline, cluster, replicate, secondary, first_attempt, stratum, metric, control_run
    kind: str
    label: str
    rate: Rate | None
    note: str = ""
    key: str = ""  # which one of its kind: the replicate's run id, stratum, metric, control role


def rate_rows(report: Report) -> list[RateRow]:
    """The card's rates, in the order every format shows them."""
    led = report.ledger
    rows = [RateRow("headline", f"{led.headline_name} (headline)", led.headline)]
    if led.clustered is not None:
        rows.append(RateRow("cluster", f"the headline by cluster ({led.clustered.clusters} "
                                       "clusters)", led.clustered.rate))
    rows += [RateRow("replicate", f"replicate run {rid} (not the headline)", rate, key=rid)
             for rid, rate in (report.replicates.runs if report.replicates is not None else ())]
    if report.replicates is None:  # (run 1's scoreable rate would read as the claim's)
        rows.append(RateRow("secondary", "secondary: scoreable only", led.secondary))
    if led.first_attempt:
        rows.append(RateRow("first_attempt", "first attempt only", led.first_attempt))
    for s in led.strata:
        note = "" if s.verified else f"declared {s.declared}, unverified"
        if s.withheld:
            note = "withheld (below floor)"
        rows.append(RateRow("stratum", f"stratum {s.name}", None if note else s.rate, note,
                            s.name))
    rows += [RateRow("metric", f"metric {x.name}{' (headline)' if x.headline else ''}", x.rate,
                     key=x.name) for x in led.metrics]
    for run in report.control_runs:
        bound = f"ceiling {run.bound:g}" if run.role == "no_edit" else f"floor {run.bound:g}"
        rows.append(RateRow("control_run", f"control run {run.role} ({bound}; "
                                           f"{run.ledger.counts['unscoreable']} unscoreable)",
                            run.ledger.headline, key=run.role))
    return rows


#####################################################################
# compare: is the difference between two ledgers real?
#####################################################################


class Comparison(NamedTuple):
    a: Report
    b: Report
    table: tuple[int, int, int, int] | None  # retry mode: tasks both pass, A only, B only, neither
    # what the test runs on: the task table, or the effective table of per-task rates
    paired: PairedTable
    test: PairedTest  # the test and Tango's interval for A − B that inverts it
    alpha: float
    significant: bool | None  # None: not assessed, the comparison is BLOCKED
    detectable: float | None  # the planning figure: None when no difference is detectable
    clusters: int | None  # the clusters the analysis used, or None when tasks are the units
    findings: tuple[Finding, ...]
    # compare --fail-on: the option, and whether this comparison fails it
    fail_on: tuple[str, bool] | None = None
    # samples mode: the between-task share of the difference's variance
    difference_icc: float | None = None
    # envelope fields a side does not record (not_recorded): not compared, and said so
    unrecorded: tuple[str, ...] = ()

    @property
    def comparable(self) -> bool:
        return not self.findings

    @property
    def verdict(self) -> str:
        """The gate's one decision: BLOCKED by a finding, or by a failed --fail-on."""
        failed = self.fail_on is not None and self.fail_on[1]
        return "BLOCKED" if self.findings or failed else "PUBLISHABLE"

    @property
    def diff(self) -> float:
        return self.paired.diff



def _comparable(a: Report, b: Report, names: tuple[str, str] = ("A", "B")) -> list[Finding]:
    """Two headlines can be compared only over the same suite, contract and instrument."""
    findings = []
    first, second = names
    if (a.manifest.task_ids_sha256 != b.manifest.task_ids_sha256
            or a.manifest.task_count != b.manifest.task_count):
        findings.append(finding("dataset_digest_mismatch", (
            f"{first} declares {a.manifest.task_count} tasks {a.manifest.task_ids_sha256[:12]}, "
            f"{second} declares {b.manifest.task_count} tasks {b.manifest.task_ids_sha256[:12]}: "
            "not the same suite")))
    if a.contract != b.contract:
        findings.append(finding("attempt_contract_mismatch", (
            f"{first} counts {a.contract.mode} mode with a budget of {a.contract.budget}, "
            f"{second} {b.contract.mode} mode with {b.contract.budget}: "
            "the two headlines are different quantities")))
    env_a, env_b = a.manifest.envelope, b.manifest.envelope
    # Compared as canonical JSON: true is not 1, and 40 is not 40.0, in an instrument's description;
    # a field a side does not record is unknown there, neither equal nor different (unrecorded()).
    differ = sorted(k for k in set(env_a) | set(env_b) if k not in env_a or k not in env_b
                    or canonical_json(env_a[k]) != canonical_json(env_b[k])
                    if not stated_unknown(env_a.get(k)) and not stated_unknown(env_b.get(k)))
    if differ:
        named = [key for key in differ if key in SYSTEM_KEYS]
        move = (f"; {', '.join(named)} name the system under test, not the instrument: move them "
                "from the envelope to \"system\" in both manifests (compare needs one instrument, "
                "not one system)") if named else ""
        findings.append(finding("envelope_mismatch", (
            f"{first} and {second}: envelope fields differ: {', '.join(differ)}; different "
            f"instruments: a ledger balances inside one envelope{move}")))
    bound = [side for side, r in zip(names, (a, b)) if r.manifest.provenance is not None
             and r.manifest.provenance.options is not None]
    if len(bound) == 1:
        other = second if bound[0] == first else first
        findings.append(finding("envelope_mismatch", (
            f"{bound[0]} records the verdict definition its import read it under, {other} records "
            f"none: the two cannot be held to one definition; import {other} from its harness's "
            f"files too, or compare two hand-made ledgers")))
    if a.manifest.provenance is not None and b.manifest.provenance is not None:
        # (an instrument the envelopes already tell apart is named once, above)
        problems = binding_mismatch(a.manifest.provenance, b.manifest.provenance, f"{first}'s",
                                    instrument=not differ)
        if problems:
            findings.append(finding("envelope_mismatch", (
                f"{second} is {'; and '.join(problems)}: two headlines compare only when read "
                "under one definition on one instrument; import both with the same options")))
    return findings


def unrecorded_fields(a: Report, b: Report) -> tuple[str, ...]:
    """The envelope fields a side does not record ({"not_recorded": ...}): not compared."""
    env_a, env_b = a.manifest.envelope, b.manifest.envelope
    return tuple(sorted(k for k in set(env_a) | set(env_b)
                        if stated_unknown(env_a.get(k)) or stated_unknown(env_b.get(k))))


def distinct_sides(reports: Sequence[Report], names: Sequence[str], command: str) -> None:
    """Each side is its own evidence: the same runs file (by sha256) and run twice is refused."""
    seen: dict[tuple[str, str | None], str] = {}
    for name, report in zip(names, reports):
        first = seen.setdefault((report.ledger.runs_sha256, report.gated_run), name)
        if first != name:
            pinned = f", run {report.gated_run}" if report.gated_run else ""
            raise GateError(f"{command}: {first} and {name} are the same runs file (sha256 "
                            f"{report.ledger.runs_sha256[:12]}{pinned}): a claim compared with "
                            "itself counts its evidence twice; give each side its own run")


def _aligned(reports: Sequence[Report]) -> list[AlignedScores] | None:
    """Every side's scores in task-ID order over the same tasks (the same digest), or None."""
    scores = [r.scores for r in reports]
    if not all(isinstance(s, AlignedScores) for s in scores):
        return None
    aligned = cast("list[AlignedScores]", scores)
    return aligned if len({s.digest for s in aligned}) == 1 else None


def _scored_by_id(reports: Sequence[Report], systems: Sequence[ClaimFiles],
                  confidence: float) -> list[Report]:
    """The reports with their scores in tables by task ID: a report whose scores are in task-ID
    order (which name no task) is gated again with a table (sides of different tasks, or clusters
    named task by task)."""
    return [run_check(files, confidence, keep_scores="table")
            if isinstance(report.scores, AlignedScores) else report
            for report, files in zip(reports, systems)]


def _scores_table(report: Report) -> Mapping[str, tuple[int, str | None]]:
    scores = report.scores or {}
    assert not isinstance(scores, AlignedScores), "read by task ID first (_scored_by_id)"
    return scores


def _paired_scores(a: Report, b: Report, by_cluster: bool
                   ) -> tuple[list[int], list[int], list[int] | None, list[Finding]]:
    """Both sides' passes per shared task (a declared task with no record passed nothing), and
    each task's cluster number: its own (None: every task alone), or with by_cluster the cluster
    its records name (the same on both sides)."""
    aligned = None if by_cluster else _aligned((a, b))
    if aligned is not None:  # the same tasks in the same order: paired by position
        count = len(aligned[0].order)
        padding = unrecorded(a.manifest.task_count, count, a.manifest.path,
                             "compare pairs every declared task")
        return aligned[0].passes() + [0] * padding, aligned[1].passes() + [0] * padding, None, []
    scores_a, scores_b = _scores_table(a), _scores_table(b)
    tasks = sorted(set(scores_a) | set(scores_b))
    findings = []
    names: dict[str, int] = {}
    clusters = []
    conflicts = []
    for index, tid in enumerate(tasks):
        cluster_a, cluster_b = scores_a.get(tid, (0, None))[1], scores_b.get(tid, (0, None))[1]
        if (by_cluster and cluster_a is not None and cluster_b is not None
                and cluster_a != cluster_b):
            conflicts.append(f"{visible(tid)} ({visible(cluster_a)} "
                             f"in A, {visible(cluster_b)} in B)")
        name = cluster_a if cluster_a is not None else cluster_b
        if by_cluster and name is not None:
            clusters.append(names.setdefault(name, len(names)))
        else:
            clusters.append(-1 - index)
    if conflicts:
        findings.append(finding("cluster_conflict", (
            f"{len(conflicts)} task(s) name a different cluster in A and in B, first "
            f"{conflicts[0]}: a task belongs to one cluster (a repository) whichever system ran "
            "it")))
    padding = unrecorded(a.manifest.task_count, len(tasks), a.manifest.path, "compare pairs "
                                                                             "every declared task")
    xs = [scores_a.get(t, (0, None))[0] for t in tasks] + [0] * padding
    ys = [scores_b.get(t, (0, None))[0] for t in tasks] + [0] * padding
    clusters += [-1 - len(tasks) - i for i in range(padding)]
    return xs, ys, clusters, findings


def run_compare(a_files: ClaimFiles, b_files: ClaimFiles, confidence: float = 0.95,
                by_cluster: bool = False) -> Comparison:
    """Gate two claims, then compare their headlines task by task (paired) over the shared suite.

    One rule: a test and the interval that inverts it, so the interval excludes 0 exactly when
    p < alpha. Retry mode pairs task exits (the 2×2 table: paired_test, McNemar's exact
    conditional test); samples mode pairs per-task pass rates over all samples, by Miller's
    (2024 §4) paired test on the per-task differences (miller_test). With by_cluster the test is
    the wild cluster restricted bootstrap over the clusters (repositories), for a claim meant to
    generalise to new ones; the JSON's effective table is then the cluster-robust one.
    """
    keep: bool | str = "table" if by_cluster else True
    sides = (a_files, b_files)
    a, b = (run_check(files, confidence, keep_scores=keep) for files in sides)
    distinct_sides((a, b), ("A", "B"), "compare")
    if not by_cluster and _aligned((a, b)) is None:
        a, b = _scored_by_id((a, b), sides, confidence)
    findings = [*prefixed("A", a.findings), *prefixed("B", b.findings), *_comparable(a, b)]
    if by_cluster and not any(c for side in (a, b) for _, c in _scores_table(side).values()):
        raise GateError("compare --by-cluster: neither side's records name a cluster (the records' "
                        "\"cluster\" field)")
    xs, ys, clusters, cluster_findings = _paired_scores(a, b, by_cluster)
    findings.extend(cluster_findings)
    samples = a.contract.units
    m = max(1, samples)
    # PERF: the tables below are sums over the distinct pairs, not over the tasks
    pairs = Counter(zip(xs, ys))
    table = None
    if samples == 1:
        both = sum(n for (x, y), n in pairs.items() if x and y)
        only_a = sum(n for (x, y), n in pairs.items() if x and not y)
        only_b = sum(n for (x, y), n in pairs.items() if y and not x)
        table = (both, only_a, only_b, len(xs) - both - only_a - only_b)
    rates: Counter[tuple[float, float]] = Counter()
    for (x, y), n in pairs.items():
        rates[min(x, m) / m, min(y, m) / m] += n
    paired = paired_singles(rates, m, confidence)
    if by_cluster and clusters is not None:  # for generalising to new clusters (repositories)
        rates_a, rates_b = [min(x, m) / m for x in xs], [min(y, m) / m for y in ys]
        paired = paired_effective(rates_a, rates_b, clusters, m, confidence)
        sums: dict[int, list[float]] = {}
        for rate_a, rate_b, cluster in zip(rates_a, rates_b, clusters):
            sums.setdefault(cluster, []).append(rate_a - rate_b)
        test = wild_cluster_test([math.fsum(v) for v in sums.values()],
                                 [len(v) for v in sums.values()], confidence)
    elif samples > 1:
        test = miller_test(rates, confidence, m)
    else:
        test = paired_test(paired, confidence)
    alpha = 1 - confidence
    used = len(set(clusters)) if by_cluster and clusters is not None else None
    significant = None if findings else test.significant(alpha)
    return Comparison(a=a, b=b, table=table, paired=paired, test=test, alpha=alpha,
                      significant=significant, detectable=test.detectable(paired, confidence),
                      clusters=used, findings=tuple(findings),
                      difference_icc=difference_icc(pairs, m) if samples > 1 else None,
                      unrecorded=unrecorded_fields(a, b))


def difference_icc(pairs: Mapping[tuple[int, int], int], m: int) -> float | None:
    """The between-task share of the variance of a one-sample paired difference (what `plan
    --icc` takes), from how many tasks have each pair of pass counts (A's, B's) of m samples
    each: the within-task variance of A's and B's samples (unbiased, m/(m-1)) summed, and the
    between-task variance of the per-task differences less what the within part explains; None
    when neither varies."""
    n = sum(pairs.values())
    if n < 2 or m < 2:
        return None

    # one step a distinct pair (fsum_counted)
    def over_tasks(term: Callable[[int, int], float]) -> float:
        return fsum_counted((term(min(x, m), min(y, m)), count) for (x, y), count in pairs.items())

    within = over_tasks(lambda x, y: (x * (m - x) + y * (m - y)) / (m * (m - 1))) / n
    centre = over_tasks(lambda x, y: (x - y) / m) / n
    between = max(0.0, over_tasks(lambda x, y: ((x - y) / m - centre) ** 2) / (n - 1) - within / m)
    total = between + within
    return between / total if total > 0 else None


#####################################################################
# rank: many systems on one suite, and which of them the data cannot tell apart
#####################################################################

MAX_RANKED = 200  # systems in one ranking: 19,900 pairs


class RankedPair(NamedTuple):
    first: int  # indices into Ranking.systems
    second: int
    diff: float
    low: float
    high: float
    p_value: float
    p_holm: float
    separated: bool  # significant after Holm's correction
    method: str = "mcnemar_exact_conditional"  # PairedTest.method: the test of the pair's p


class Ranking(NamedTuple):
    systems: tuple[Report, ...]  # in the order given
    order: tuple[int, ...]  # best headline first (ties keep the order given)
    q: float  # Cochran's Q over every system
    df: int
    q_p: float
    pairs: tuple[RankedPair, ...]
    # the sets of systems no pair of which is separated; None: more than a letter display can show
    groups: tuple[tuple[int, ...], ...] | None
    alpha: float
    findings: tuple[Finding, ...]

    @property
    def verdict(self) -> str:
        return "BLOCKED" if self.findings else "PUBLISHABLE"

    def letters(self, index: int) -> str:
        return "".join(group_letter(g) for g, members in enumerate(self.groups or ())
                       if index in members)

    @property
    def no_letters(self) -> str:
        """Why the ranking shows no letters, or ""."""
        return "" if self.groups is not None else (
            f"no letter display: the systems no test separates form more than {MAX_LETTER_GROUPS} "
            "overlapping groups (many close systems); the ranking and every pair's decision stand, "
            "and the pairs say which systems differ")


def group_letter(number: int) -> str:
    """a..z, then a2..z2, and so on: a group's name in the compact letter display."""
    letter = chr(ord("a") + number % 26)
    return letter if number < 26 else f"{letter}{number // 26 + 1}"


def _score_columns(reports: Sequence[Report]) -> tuple[list[list[float]], int]:
    """Every system's per-task pass rate over the shared tasks (a declared task with no record
    passed nothing)."""
    aligned = _aligned(reports)
    k = len(reports)
    m = reports[0].contract.units
    rate = [min(x, m) / m for x in range(m + 1)]
    if aligned is not None:  # the same tasks in the same order: paired by position
        count = len(aligned[0].order)
        passes = [list(map(rate.__getitem__, s.passes())) for s in aligned]
    else:
        tables = [_scores_table(r) for r in reports]
        tasks = sorted({tid for scores in tables for tid in scores})
        count = len(tasks)
        passes = [[rate[min(scores.get(t, (0, None))[0], m)] for t in tasks] for scores in tables]
    padding = unrecorded(reports[0].manifest.task_count, count, reports[0].manifest.path,
                         f"rank compares every declared task in each of its {k * (k - 1) // 2:,} "
                         "pairs of systems",
                         k * (k - 1) // 2 + k)
    return [column + [0.0] * padding for column in passes], m


def run_rank(systems: Sequence[tuple[Path, Path]], confidence: float = 0.95) -> Ranking:
    """Gate every claim, then test them together: Cochran's (1950) Q over all of them, every pair by
    compare's rule (paired_test: the exact test on a task table, McNemar's on an effective one, each
    with Tango's interval), Holm's (1979) correction over the pairs, and the groups of systems no
    corrected test separates (Piepho 2004)."""
    if len(systems) < 2:
        raise GateError("rank: give at least two ledgers (--manifest M --runs R, once for each "
                        "system, or --list FILE)")
    if len(systems) > MAX_RANKED:
        raise GateError(f"rank: {len(systems)} ledgers; at most {MAX_RANKED} are ranked at once")
    reports = tuple(run_check(ClaimFiles(manifest, runs), confidence, keep_scores=True)
                    for manifest, runs in systems)
    if _aligned(reports) is None:
        sides = [ClaimFiles(manifest, runs) for manifest, runs in systems]
        reports = tuple(_scored_by_id(reports, sides, confidence))
    # one runs file may hold several systems' runs, each pinned
    distinct_sides(reports, [f"system {n}" for n in range(1, len(reports) + 1)], "rank")
    findings: list[Finding] = []
    for number, report in enumerate(reports, 1):
        findings.extend(prefixed(f"S{number}", report.findings))
        if number > 1:
            findings.extend(_comparable(reports[0], report, ("system 1", f"system {number}")))
    columns, m = _score_columns(reports)
    q, df, q_p = cochran_q(columns)
    raw = []
    for i, j in itertools.combinations(range(len(reports)), 2):
        paired = paired_effective(columns[i], columns[j], None, m, confidence)
        test = (paired_test(paired, confidence) if m == 1 else
                miller_test(Counter(zip(columns[i], columns[j])), confidence, m))
        raw.append((i, j, paired, test))
    alpha = 1 - confidence
    adjusted = holm([test.p_value for *_, test in raw])
    pairs = tuple(RankedPair(i, j, paired.diff, test.low, test.high, test.p_value, ph,
                             test._replace(p_value=ph).significant(alpha),
                             test.method)
                  for (i, j, paired, test), ph in zip(raw, adjusted))
    order = tuple(sorted(range(len(reports)), key=lambda k: (-reports[k].ledger.headline.value, k)))
    separated = {(p.first, p.second) for p in pairs if p.separated}
    found = letter_groups(order, separated)
    groups = tuple(tuple(g) for g in found) if found is not None else None
    return Ranking(reports, order, q, df, q_p, pairs, groups, alpha, tuple(findings))


#####################################################################
# Rendering: text, JSON, Markdown and SVG, all from the computed report
#####################################################################


def _md(text: str) -> str:
    """Input text inside Markdown: visible, and nothing in it starts code, emphasis, a link, HTML or
    a cell."""
    escaped = re.sub(r"([\\`*\[\]<>&|~!#])", r"\\\1", visible(text))
    return re.sub(r"(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])", r"\\_", escaped)


def _xml(text: str) -> str:
    """Input text inside SVG: visible (XML forbids most control characters), and markup escaped."""
    return (visible(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&apos;"))


def _lines(out: Sequence[str]) -> str:
    """A text report: every line made visible, so an input can never add or overwrite one."""
    return "".join(visible(line) + "\n" for line in out)


def _pct(confidence: float) -> str:
    """The confidence as written, to every digit: 0.999999999999 is not "100%"."""
    from decimal import Decimal

    return f"{format((Decimal(repr(confidence)) * 100).normalize(), 'f')}% CI"


def _rate_text(rate: Rate | None, confidence: float, unit: str = "") -> str:
    if rate is None:
        return "n/a (no tasks in the denominator)"
    unit_text = f" {unit}" if unit else ""
    return (f"{_count(rate.k)}/{rate.n}{unit_text} = {rate.value:.3f}  "
            f"{_pct(confidence)} [{rate.low:.3f}, {rate.high:.3f}]")


def _shown_k(k: int, budget: int) -> bool:
    """Which pass@k a text or Markdown card prints: every k up to 10, then 20, 50, 100, ... and the
    budget (the JSON report has them all)."""
    return k <= 10 or k == budget or (str(k).rstrip("0") in ("1", "2", "5"))


def _label(name: str, width: int = 12) -> str:
    return f"{name:<{width}}: "


def _text_ledger(report: Report) -> list[str]:
    """The ledger: entries, exits by bucket, and in samples mode the attempts."""
    m, led = report.manifest, report.ledger
    samples = report.contract.samples
    out = [
        _label("claim") + m.claim_id,
        *([_label("system") + system_text(m)] if m.measured else []),
        _label("dataset") + f"{m.dataset_name} sha256 {led.observed_digest[:12]}",
        *([_label("subset")
           + f"{_subset_text(m, led.entries)}: the claim is about these tasks only"]
          if m.subset else []),
        *([_label("declared") + m.declared_from] if m.declared_from else []),
        _label("entries") + str(led.entries),
        _label("exits") + str(led.exits)
        + (f" (pass@{report.contract.budget}: in samples "
           "mode a task exits pass if any sample passed)" if samples else ""),
    ]
    ceiling = _ceiling_text(report.attrition)
    for bucket in BUCKETS:
        extra = ""
        if bucket == "unscoreable":
            parts = [", ".join(f"{reason} {count}"
                               for reason, count in led.reasons)] if led.reasons else []
            parts += [ceiling] if ceiling and not samples else []
            extra = f" ({'; '.join(parts)})" if parts else ""
        out.append("  " + _label(bucket) + f"{led.counts[bucket]}{extra}")
    if samples:
        lost = sum(count for _, count in led.attempt_reasons)
        parts = [", ".join(f"{r} {c}" for r, c in led.attempt_reasons)] if lost else []
        parts += [ceiling] if ceiling else []
        detail = f" ({'; '.join(parts)})" if parts else ""
        out.append(_label("attempts") + f"{led.records} recorded, {lost} unscoreable{detail}")
    return out


def _ceiling_text(lost: Attrition | None) -> str:
    """The attrition ceiling in force, for the count it bounds: "ceiling 0.2 of 80 tasks"."""
    return "" if lost is None else f"ceiling {lost.ceiling:g} of {_plural(lost.of, lost.unit[:-1])}"


def system_text(m: Manifest) -> str:
    """What the claim measures, as its manifest's `system` names it: "agent=droid, model=gpt-5"
    (and whether the user declared it where the files do not name it)."""
    if not m.measured:
        return "(not named)"
    if m.provenance is not None and m.provenance.system_declared:
        said = m.provenance.system_declared
        return _system_pairs(m) + f" (declared by the user: {said.split('): ', 1)[-1]})"
    return _system_pairs(m)


def _system_pairs(m: Manifest) -> str:
    measured = m.measured or {}
    return ", ".join(f"{key}=({stated_unknown(value)})" if stated_unknown(value) else
                     f"{key}={_scalar(value)}" for key, value in sorted(measured.items()))


def _subset_text(m: Manifest, entries: int) -> str:
    """"40 of 89 tasks (--n-tasks 40)", or, where the harness did not record the whole dataset's
    size, "40 tasks of a larger dataset (...)"."""
    of, selection = cast("tuple[int | None, str]", m.subset)
    counted = (f"{entries} of {of} tasks" if of is not None
               else f"{entries} tasks of a larger dataset")
    return f"{counted} ({selection})"


def _text_rates(report: Report) -> list[str]:
    """Every rate of the card, from rate_rows (the list every format shows), each run of rows of
    one kind by its formatter in _TEXT_RATES; then the labelled figures that are not rates."""
    out = []
    for kind, rows in itertools.groupby(rate_rows(report), key=operator.attrgetter("kind")):
        out += _TEXT_RATES[kind](report, list(rows))
    return out + _text_labelled(report)


def _text_headline(report: Report, rows: list[RateRow]) -> list[str]:
    note = (f" (mean over tasks of c/{report.contract.budget})"
            if report.contract.samples else "")
    if report.replicates is not None:
        note += f" (mean of {_plural(len(report.replicates.runs), 'replicate run')})"
    return [_label(report.ledger.headline_name) + _rate_text(row.rate, report.confidence)
            + f"  <- headline{note}" for row in rows]


def _text_cluster(report: Report, rows: list[RateRow]) -> list[str]:
    c, conf = cast("ClusterLine", report.ledger.clustered), report.confidence
    return [_label("by cluster") + f"{_pct(conf)} [{rate.low:.3f}, {rate.high:.3f}] over "
            f"{c.clusters} clusters (effective n {c.effective:.1f})  <- the same rate, for "
            "clusters beyond these; the task-level interval above is for this suite"
            for rate in (cast("Rate", row.rate) for row in rows)]


def _text_replicates(report: Report, rows: list[RateRow]) -> list[str]:
    reps = cast("Replicates", report.replicates)
    values = [cast("Rate", row.rate).value for row in rows]
    how = (f"Satterthwaite df {reps.df:.1f}" if reps.run_term else
           f"the runs varied no more than chance, so the run term is dropped: df {reps.df:g}, "
           "the tasks' T - 1")
    counted = ("the interval counts run-to-run variance as "
               f"well as the tasks' (two-way layout, {how}); "
               if len(rows) > 1 else "one run only: no run-to-run variance is measured; ")
    return [_label("replicates") + ", ".join(f"{row.key} {value:.3f}"
                                             for row, value in zip(rows, values))
            + f"; between runs sd {reps.spread:.3f}, range {min(values):.3f} to "
              f"{max(values):.3f}",
            _label("") + counted + f"the entries and exits shown are run {rows[0].key}'s, every "
            "run is gated in full (findings R<n>:), and per-run rates are left out: gate one run "
            "with its run_id"]


def _text_secondary(report: Report, rows: list[RateRow]) -> list[str]:
    scope = "scoreable attempts only" if report.contract.samples else "scoreable tasks only"
    return [_label("") + (_rate_text(row.rate, report.confidence) if row.rate else
                          "n/a (no scoreable tasks)") + f"  <- labelled secondary: {scope}"
            for row in rows]


def _text_first_attempt(report: Report, rows: list[RateRow]) -> list[str]:
    return [_label("first try") + _rate_text(row.rate, report.confidence)
            + f"  <- labelled: first attempt only, of a budget of {report.contract.budget}"
            for row in rows]


def _text_group(heading: str, rows: list[RateRow], text_of: Callable[[RateRow], str]) -> list[str]:
    """A labelled group of rates (strata, metrics): the heading, then one indented line a row."""
    width = max(12, *(len(row.key) + 1 for row in rows))
    return [_label(heading).rstrip(),
            *("  " + _label(row.key, width) + text_of(row) for row in rows)]


def _text_strata(report: Report, rows: list[RateRow]) -> list[str]:
    strata = {s.name: s for s in report.ledger.strata}

    def text_of(row: RateRow) -> str:
        line = strata[row.key]
        if line.withheld:
            return f"withheld ({line.tasks} tasks, below the stratum floor: no rate)"
        if not line.verified:
            return f"declared {line.declared}, unverified (no record carries a stratum)"
        return "n/a (no tasks)" if row.rate is None else _rate_text(row.rate, report.confidence)

    return _text_group("strata", rows, text_of)


def _text_metrics(report: Report, rows: list[RateRow]) -> list[str]:
    metrics = {x.name: x for x in report.ledger.metrics}

    def text_of(row: RateRow) -> str:
        metric = metrics[row.key]
        mark = f"  <- {metric.basis}" if metric.basis else ""
        if metric.headline:
            mark = "  <- headline metric"
        return (_rate_text(row.rate, report.confidence, metric.unit) + mark if metric.defined
                else "undefined (see findings)")

    return _text_group("metrics", rows, text_of)


def _text_control_runs(report: Report, rows: list[RateRow]) -> list[str]:
    runs = {run.role: run for run in report.control_runs}
    out = []
    for row in rows:
        run = runs[cast("ControlRunRole", row.key)]
        bound = f"ceiling {run.bound:g}" if run.role == "no_edit" else f"floor {run.bound:g}"
        out.append(_label("control run") + f"{run.role} {run.runs}: "
                   f"{_rate_text(row.rate, report.confidence)} ({bound}; "
                   f"{run.ledger.counts['unscoreable']} of {run.ledger.entries} unscoreable; "
                   f"{_plural(run.attempt_budget, 'attempt')} a task, its own contract)")
    return out


# How the text card shows each kind of rate_rows' rows (a run of rows of one kind at a time)
_TEXT_RATES: Mapping[str, Callable[[Report, list[RateRow]], list[str]]] = MappingProxyType({
    "headline": _text_headline, "cluster": _text_cluster, "replicate": _text_replicates,
    "secondary": _text_secondary, "first_attempt": _text_first_attempt,
    "stratum": _text_strata, "metric": _text_metrics, "control_run": _text_control_runs,
})


def _text_labelled(report: Report) -> list[str]:
    """The labelled figures beside the rates that are not rates: the verdict mapping, pass@k and
    pass^k, and what the number is not a claim about."""
    out = []
    if report.manifest.verdict_mapping:
        out.append(_label("mapping") + "; ".join(report.manifest.verdict_mapping)
                   + " (the import's choices that decide a verdict)")
    budget = report.contract.budget
    for name, values, what in (("pass@k", report.ledger.pass_at_k, "any of k samples passes"),
                               ("pass^k", report.ledger.pass_hat_k, "all k samples pass")):
        if values:
            out.append(_label(name) + "  ".join(f"{name[:-1]}{k} {value:.3f}" for k, value
                                                in values if _shown_k(k, budget))
                       + f"  <- labelled: {name} ({what}), not the headline")
    if report.not_a_claim_about:
        out.append(_label("not a claim") + "; ".join(report.not_a_claim_about))
        out.append(_label("") + NOT_A_PRODUCT_VERDICT)
    return out


def _text_instrument(report: Report) -> list[str]:
    """Controls, control runs, cost, the envelope, the contract, the runs gated and what pins the
    inputs."""
    m, led, conf = report.manifest, report.ledger, report.confidence
    out = []
    if m.controls:
        shown = ", ".join(f"{c.task_id} ({c.role}, expects {c.expected})" for c in m.controls)
        out.append(_label("controls") + shown)
    if led.cost is not None:
        out.append(_label("cost") + _cost_text(led.cost))
    timing = ""
    if led.timing == "none":
        timing = " (per-task wall clock not verified: no attempt carries wall_clock_s)"
    out.append(_label("envelope") + _instrument_text(m) + timing)
    contract = report.contract
    out.append(_label("budget") + f"{contract.budget} attempt(s) per task, {contract.mode} mode")
    if report.ignored_runs:
        ignored = "; ".join(f"{rid} {_rate_text(rate, conf)}" for rid, rate in report.ignored_runs)
        out.append(_label("run") + f"{report.gated_run} gated; not gated, in the same file: "
                   f"{ignored}")
    out.append(_label("rerun") + (m.rerun_recipe or "(no rerun_recipe in the manifest)"))
    out.append(_label("manifest") + f"sha256 {m.sha256}")
    out.append(_label("runs") + f"sha256 {led.runs_sha256}")
    if report.card_digest:
        out.append(_label("card") + f"dataset_digest {report.card_digest}")
    out += [_label("bound" if b.bound else "not bound") + f"{b.name}: {b.text}"
            for b in report.bindings]
    if m.provenance is not None and m.provenance.exceptions:
        out.append(_label("exceptions") + ", ".join(f"{kind} {count}" for kind, count in
                                                    sorted(m.provenance.exceptions.items()))
                   + " (what the harness raised: unscoreable, unless counted otherwise)")
    out += [_label("confirmed") + f"{word}, by the author: {item}"
            for word, item in sorted(m.confirmed.items())]
    out += [_label("notes" if i == 0 else "") + note for i, note in enumerate(m.notes)]
    return out


def render_text(report: Report) -> str:
    """The report card as plain text: one labelled line per figure, the verdict, then every finding.
    """
    out = [*_text_ledger(report), *_text_rates(report), *_text_instrument(report)]
    if report.claim is not None:
        out.append(_label("claim check") + report.claim.message)
    out.append(_label("verdict") + report.verdict)
    out.extend(f"  ! {f.code}: {f.message}" for f in report.findings)
    return _lines(out)


def _scalar(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def _cost_text(cost: CostSummary) -> str:
    """The cost line: each figure over the tasks it is over, named where that is not every task
    that reports a cost or a token count."""
    def over(tasks: int) -> str:
        return "" if tasks == cost.tasks_with_cost else f" over {tasks} tasks"

    parts = []
    if cost.total_cost_usd is not None and cost.median_cost_usd is not None:
        parts.append(f"total ${cost.total_cost_usd:.2f}, median "
                     f"${cost.median_cost_usd:.4f} per task{over(cost.tasks_with_cost_usd)}")
    if cost.total_tokens is not None and cost.median_tokens is not None:
        parts.append(f"tokens total {cost.total_tokens}, median "
                     f"{_exact_count(cost.median_tokens)} per task{over(cost.tasks_with_tokens)}")
    both = cost.tasks_with_cost_usd == cost.tasks_with_tokens == cost.tasks_with_cost
    return "; ".join(parts) + (f" ({cost.tasks_with_cost} tasks report cost"
                               f"{'' if both else ' or tokens'})")


def _exact_count(value: float) -> str:
    """A median of counts, every digit: an integer, or one halfway between two."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _number(k: Fraction) -> int | float:
    return k.numerator if k.denominator == 1 else float(k)


# The JSON reports' shape: schemas/report.schema.json describes version 1 (fields are added, never
# renamed; a change that breaks a reader raises the version).
REPORT_SCHEMA_VERSION = 1


def rate_json(rate: Rate | None) -> dict[str, Any] | None:
    if rate is None:
        return None
    return {"k": _number(rate.k), "n": rate.n, "rate": rate.value, "ci_low": rate.low,
            "ci_high": rate.high, "method": rate.method}


def _ledger_json(led: Ledger) -> dict[str, Any]:
    return {
        "entries": led.entries,
        "exits": led.exits,
        **led.counts,
        "unscoreable_reasons": dict(led.reasons),
        "unscoreable_attempt_reasons": dict(led.attempt_reasons),
        "observed_tasks": led.observed_tasks,
        "records": led.records,
    }


def report_json(report: Report) -> dict[str, Any]:
    """The report as a JSON-ready dict; the top-level keys are stable (fields are added, never
    renamed)."""
    m, led = report.manifest, report.ledger
    cost = led.cost
    return {
        "schema_version": REPORT_SCHEMA_VERSION,
        "verdict": report.verdict,
        "claim_id": m.claim_id,
        "system": m.measured,
        "ledger": _ledger_json(led),
        "attrition": None if report.attrition is None else {
            "unscoreable": report.attrition.lost, "of": report.attrition.of,
            "unit": report.attrition.unit,
            "share": report.attrition.share, "ceiling": report.attrition.ceiling},
        "headline": {"name": led.headline_name, **(rate_json(led.headline) or {})},
        "replicates": None if report.replicates is None else {
            "runs": [{"run_id": rid, "headline": rate_json(rate)}
                     for rid, rate in report.replicates.runs],
            "between_run_sd": report.replicates.spread, "df": report.replicates.df,
            "df_method": "satterthwaite" if report.replicates.run_term else "tasks_minus_one",
            "effective_n": report.replicates.effective,
            "ledger_shown": report.replicates.runs[0][0]},
        "headline_by_cluster": None if led.clustered is None else {
            **(rate_json(led.clustered.rate) or {}), "clusters": led.clustered.clusters,
            "effective_n": led.clustered.effective},
        "secondary": rate_json(led.secondary),
        "strata": [
            {"name": s.name, "declared": s.declared, "tasks": s.tasks, "withheld": s.withheld,
             "verified": s.verified, **({} if s.withheld else {"rate": rate_json(s.rate)})}
            for s in led.strata
        ],
        "findings": [{"code": f.code, "message": f.message} for f in report.findings],
        "inputs": {"manifest_sha256": m.sha256, "runs_sha256": led.runs_sha256},
        "bindings": [{"name": b.name, "bound": b.bound, "text": b.text} for b in report.bindings],
        "version": __version__,
        "confidence": report.confidence,
        "dataset": {"name": m.dataset_name, "task_ids_sha256": m.task_ids_sha256,
                    "observed_sha256": led.observed_digest, "card_digest": report.card_digest,
                    "subset": None if m.subset is None else {"of": m.subset[0],
                                                             "selection": m.subset[1]},
                    "declared_from": m.declared_from},
        "verdict_mapping": list(m.verdict_mapping),
        "attempt_mode": report.contract.mode,
        "attempt_budget": report.contract.budget,
        "first_attempt": rate_json(led.first_attempt),
        "pass_at_k": {str(k): value for k, value in led.pass_at_k},
        "pass_hat_k": {str(k): value for k, value in led.pass_hat_k},
        "metrics": [
            {"name": x.name, "numerator": x.numerator, "denominator": x.denominator, "unit": x.unit,
             "headline": x.headline, "rate": rate_json(x.rate), "secondary": rate_json(x.secondary),
             "basis": x.basis or "task exits"}
            for x in led.metrics
        ],
        "control_runs": [
            {"role": r.role, "runs": r.runs, "bound": r.bound,
             "headline": rate_json(r.ledger.headline),
             "unscoreable": r.ledger.counts["unscoreable"], "attempt_budget": r.attempt_budget}
            for r in report.control_runs
        ],
        "runs": {"gated": report.gated_run, "ignored": [{"run_id": rid, "headline": rate_json(rate)}
                                                         for rid, rate in report.ignored_runs]},
        "wall_clock_verified": led.timing == "all",
        "not_a_claim_about": list(report.not_a_claim_about),
        "claim": None if report.claim is None else {"text": report.claim.text,
                                                    "matches": report.claim.matches,
                                                    "message": report.claim.message},
        "cost": None if cost is None else cost._asdict(),
        "envelope": m.envelope,
        "rerun_recipe": m.rerun_recipe,
        "notes": list(m.notes),
        "confirmed": dict(m.confirmed),
        "rows": [{"kind": row.kind, "label": row.label, "rate": rate_json(row.rate),
                  "note": row.note or None} for row in rate_rows(report)],
    }


def _json_escape_char(char: str) -> str:
    code = ord(char)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _dump(value: Any) -> str:
    """JSON, readable (non-ASCII kept) and unambiguous: every non-printable character json.dumps
    leaves raw (a bidi override, a line separator) is written as its \\u escape, which JSON allows
    in any string."""
    text = json.dumps(value, indent=2, sort_keys=False, ensure_ascii=False)
    if not text.replace("\n", "").isprintable():
        text = "".join(char if char.isprintable() or char == "\n" else _json_escape_char(char)
                       for char in text)
    return text + "\n"


def _md_rate(rate: Rate | None) -> str:
    if rate is None:
        return "n/a | | "
    return f"{_count(rate.k)}/{rate.n} | {rate.value:.3f} | [{rate.low:.3f}, {rate.high:.3f}]"


def _contract_text(report: Report) -> str:
    """The attempt contract in words: what counts as an attempt, and what the headline and the
    buckets count."""
    budget = report.contract.budget
    if report.contract.samples:
        return (f"samples mode, {_plural(budget, 'sample')} a task: the headline is pass@1, the "
                f"mean over tasks of passing samples / {budget}; a task exits pass if any sample "
                f"passed (pass@{budget})")
    return (f"retry mode, up to {_plural(budget, 'attempt')} a task: a task passes if an attempt "
            "within the budget passed")


def _md_bindings(report: Report) -> list[str]:
    """What binds the claim's parts, a bullet each, the unbound ones in bold; then what the author
    confirmed and their notes (caveats a reader must see)."""
    m = report.manifest
    out = ["", "**Bindings** (what makes the claim one whole)", "",
           *(f"- {'bound' if b.bound else '**not bound**'}: {_md(b.name)}: {_md(b.text)}"
             for b in report.bindings)] if report.bindings else []
    out += [f"- confirmed by the author: {_md(word)}: {_md(item)}"
            for word, item in sorted(m.confirmed.items())]
    if m.notes:
        out += ["", "**The author's notes**", "", *(f"- {_md(note)}" for note in m.notes)]
    return out


def render_markdown(report: Report) -> str:
    """The report card in Markdown, for a README, a pull request or a CI step summary."""
    m, led, conf = report.manifest, report.ledger, report.confidence
    samples = report.contract.samples
    out = [f"### benchgate: {_md(m.claim_id)} is **{report.verdict}**", "",
           f"Dataset {_md(m.dataset_name)} (sha256 `{led.observed_digest[:12]}`): "
           f"{led.entries} entries, {led.exits} exits"
           + (f"; a subset: {_md(_subset_text(m, led.entries))}." if m.subset else "."), "",
           *([f"Verdict mapping: {_md('; '.join(m.verdict_mapping))}.",
              ""] if m.verdict_mapping else []),
           *([f"Declared set: {_md(m.declared_from)}.", ""] if m.declared_from else []),
           *([f"The headline is the mean of {len(report.replicates.runs)} replicate runs; the "
              f"buckets below are run {_md(report.replicates.runs[0][0])}'s, and every run is "
              "gated in full.", ""] if report.replicates else []),
           f"System: {_md(system_text(m))}. Instrument: {_md(_instrument_text(m))}.", "",
           f"Attempt contract: {_md(_contract_text(report))}.", "",
           f"| bucket | tasks{f' (exits at pass@{report.contract.budget})' if samples else ''} |",
           "|---|---:|"]
    for bucket in BUCKETS:
        extra = ""
        if bucket == "unscoreable" and led.reasons:
            extra = " (" + ", ".join(f"{_md(r)} {c}" for r, c in led.reasons) + ")"
        out.append(f"| {bucket} | {led.counts[bucket]}{extra} |")
    if report.attrition is not None:
        lost = report.attrition
        out += ["", f"Unscoreable: {lost.lost} of {lost.of} {lost.unit} ({lost.share:.1%}); the "
                    f"ceiling is {lost.ceiling:g} (max_unscoreable)."]
    out += ["", f"| rate | k/n | value | {_pct(conf)} |", "|---|---|---:|---|"]
    for row in rate_rows(report):
        label = (f"**{_md(led.headline_name)}** (headline)" if row.kind == "headline"
                 else _md(row.label))
        out.append(f"| {label} | " + (f"{_md_rate(row.rate)} |" if row.rate is not None or
                                      not row.note else f"{_md(row.note)} | | |"))
    budget = report.contract.budget
    if led.pass_hat_k:
        out += ["", "pass^k, all k samples pass (not the headline): " + ", ".join(
            f"pass^{k} = {v:.3f}" for k, v in led.pass_hat_k if _shown_k(k, budget))]
    if led.pass_at_k:
        out += ["", "pass@k (not the headline): " + ", ".join(
            f"pass@{k} = {v:.3f}" for k, v in led.pass_at_k if _shown_k(k, budget))]
    if report.ignored_runs:
        out += ["", f"Gated run {_md(str(report.gated_run))}; not gated, in the same file: "
                + "; ".join(f"{_md(rid)} {_count(rate.k)}/{rate.n}"
                            for rid, rate in report.ignored_runs) + "."]
    if report.not_a_claim_about:
        out += ["", "Not a claim about: " + "; ".join(_md(t) for t in report.not_a_claim_about)
                + f". _{NOT_A_PRODUCT_VERDICT}._"]
    if led.cost is not None:
        out += ["", f"Cost: {_md(_cost_text(led.cost))}."]
    if report.claim is not None:
        out += ["", f"Claim check: {_md(report.claim.message)}."]
    out += [*_md_bindings(report), "", f"Rerun: {_md(m.rerun_recipe or '(none)')}", "",
            f"Inputs: manifest sha256 `{m.sha256}`, runs sha256 `{led.runs_sha256}`", ""]
    if report.findings:
        out.append("**Findings**")
        out.append("")
        out.extend(f"- `{f.code}`: {_md(f.message)}" for f in report.findings)
    else:
        out.append("No findings.")
    return "\n".join(out) + "\n"


class PlotRow(NamedTuple):
    label: str
    value: float | None  # None: shown as withheld / n/a
    low: float
    high: float
    note: str = ""


_SVG_LEFT, _SVG_PLOT, _SVG_ROW = 300, 400, 26
# A text's width as the charts size their columns: a character of 12 px sans-serif is at most about
# 7.2 px wide (15 px bold, the title, 9.5 px), so a label column this wide holds its longest label.
SVG_CHAR_PX = {12: 7.2, 15: 9.5}


def svg_text_width(text: str, size: int = 12) -> float:
    return len(text) * SVG_CHAR_PX[size]


def svg_x(value: float, axis_low: float, axis_high: float, left: float = _SVG_LEFT) -> float:
    """Where a value lands on the plot: the tests read positions back through this same scale."""
    return round(left + (value - axis_low) / (axis_high - axis_low) * _SVG_PLOT, 2)


def render_svg(title: str, panels: Sequence[tuple[str, float, float, Sequence[PlotRow]]]) -> str:
    """A standalone forest plot: each row a point with its interval, on a labelled axis per panel.
    The label column is as wide as the longest label, the canvas as wide as the title."""
    longest = max((svg_text_width(row.label) for *_, rows in panels for row in rows), default=0)
    left = max(_SVG_LEFT, math.ceil(longest) + 20)
    width = max(left + _SVG_PLOT + 40, math.ceil(svg_text_width(title, 15)) + 20)
    body: list[str] = []
    y = 40
    for axis_label, axis_low, axis_high, rows in panels:
        top = y
        for row in rows:
            y += _SVG_ROW
            body.append(f'<text x="{left - 10}" y="{y + 4}" '
                        f'text-anchor="end">{_xml(row.label)}</text>')
            if row.value is None:
                body.append(f'<text x="{left + 4}" y="{y + 4}" '
                            f'class="note">{_xml(row.note or "n/a")}</text>')
                continue
            x1, x2 = (svg_x(row.low, axis_low, axis_high, left),
                      svg_x(row.high, axis_low, axis_high, left))
            cx = svg_x(row.value, axis_low, axis_high, left)
            body.append(f'<line class="ci" x1="{x1}" y1="{y}" x2="{x2}" y2="{y}" stroke="#333" '
                        'stroke-width="2"/>')
            body.append(
                f'<circle class="point" cx="{cx}" cy="{y}" r="4" fill="#1f5fbf" '
                f'data-label="{_xml(row.label)}" data-value="{row.value:.6f}" '
                f'data-low="{row.low:.6f}" data-high="{row.high:.6f}"/>')
        y += _SVG_ROW
        body.append(f'<line class="axis" x1="{left}" y1="{y}" x2="{left + _SVG_PLOT}" '
                    f'y2="{y}" stroke="#000" data-low="{axis_low:g}" data-high="{axis_high:g}"/>')
        for step in range(5):
            tick = axis_low + (axis_high - axis_low) * step / 4
            x = svg_x(tick, axis_low, axis_high, left)
            body.append(f'<line x1="{x}" y1="{top + 8}" x2="{x}" y2="{y}" stroke="#ddd"/>')
            body.append(f'<text x="{x}" y="{y + 16}" text-anchor="middle">{tick * 100:.0f}%</text>')
        y += 34
        body.append(f'<text x="{left + _SVG_PLOT / 2}" y="{y}" '
                    f'text-anchor="middle">{_xml(axis_label)}</text>')
        y += 20
    height = y + 10
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 '
        f'{width} {height}" font-family="sans-serif" font-size="12">',
        f"<title>{_xml(title)}</title>",
        f'<rect width="{width}" height="{height}" fill="#fff"/>',
        f'<text x="10" y="22" font-size="15" font-weight="bold">{_xml(title)}</text>',
    ]
    return "\n".join([*head, *body, "</svg>"]) + "\n"


def _rate_row(label: str, rate: Rate | None) -> PlotRow:
    if rate is None:
        return PlotRow(label, None, 0.0, 0.0, "n/a")
    return PlotRow(label, rate.value, rate.low, rate.high)


def report_rows(report: Report, prefix: str = "") -> list[PlotRow]:
    """The card's rates (rate_rows) as plot rows."""
    return [PlotRow(prefix + row.label, None, 0, 0, row.note) if row.rate is None and row.note
            else _rate_row(prefix + row.label, row.rate) for row in rate_rows(report)]


def render_report_svg(report: Report) -> str:
    """The report's rates as a standalone SVG forest plot."""
    title = f"{report.manifest.claim_id}: {report.verdict}"
    return render_svg(title, [(f"rate over tasks, {_pct(report.confidence)}", 0.0, 1.0,
                               report_rows(report))])


def _points(x: float) -> str:
    """A difference in percentage points, signed, to one decimal: -0.1573 -> "-15.7" (a bound of
    +0.0004 is "+0.04", never a "+0.0" that reads as touching zero)."""
    return "0" if x == 0 else _signed(x * 100, 1)


def _signed(x: float, places: int) -> str:
    """x signed, to `places` decimals, or to as many more (up to 6, then 2 significant digits) as
    show a digit that is not 0: an interval bound that is not 0 never prints as one."""
    for shown in range(places, 7):
        text = f"{x:+.{shown}f}"
        if x == 0 or text.strip("+-0.") != "":
            return text
    return f"{x:+.2g}"


def _plural(count: float, word: str) -> str:
    return f"{count:g} {word}" if count == 1 else f"{count:g} {word}s"


def _compare_sentences(comp: Comparison) -> tuple[str, str, str]:
    """The paired line's basis, the reading and the planning figure, in words shared by every
    format."""
    test = comp.test
    conf, paired = comp.a.confidence, comp.paired
    tasks = comp.a.manifest.task_count
    level = _pct(conf)[:-3]
    samples = f" x {comp.a.contract.units} samples" if comp.a.contract.units > 1 else ""
    units = f"{_plural(tasks, 'task')}{samples}"
    if comp.clusters is not None:
        units = _plural(comp.clusters, "cluster")
    if any(f.code == "dataset_digest_mismatch" for f in comp.findings):
        basis = "not paired: the two claims are over different suites (dataset_digest_mismatch)"
    elif comp.table is not None and comp.clusters is None:
        both, only_a, only_b, neither = comp.table
        basis = (f"both pass {both}, A only {only_a}, B only {only_b}, "
                 f"neither {neither} ({_plural(tasks, 'shared task')}; "
                 "a task passes if any attempt within budget passed)")
    else:
        samples_a = comp.a.contract.units
        per = f"per-task pass rates over {samples_a} samples" if samples_a > 1 else "task exits"
        shares = f"A only {paired.b / paired.n:.3f}, B only {paired.c / paired.n:.3f} of pairs"
        if test.method == "miller_paired_t":
            basis = (f"{per} on {_plural(tasks, 'shared task')}: {shares}; the test runs on the "
                     f"{tasks} per-task differences")
        elif test.method == "wild_cluster_bootstrap":
            basis = (f"{per} on {_plural(tasks, 'shared task')} in {comp.clusters} clusters: "
                     f"{shares}; the test runs on the per-task differences, clustered")
        else:
            robust = "cluster-robust" if comp.clusters is not None else "task-clustered"
            where = f" in {comp.clusters} clusters" if comp.clusters is not None else ""
            basis = (f"{per} on {_plural(tasks, 'shared task')}{where}: {shares}; effective table "
                     f"of {paired.n:.1f} pairs (Kish, {robust}, Korn-Graubard)")
    if comp.significant is None:
        reading = ("not assessed: the comparison is BLOCKED (see the findings); fix them, then "
                   "compare again")
    elif comp.significant:
        reading = (f"A - B is significant on this suite and envelope at {level} confidence (p = "
                   f"{test.p_value:.3g}); the data fit {_points(test.low)} to {_points(test.high)} "
                   "points: a difference between these runs, not a measure of how much it matters")
    elif test.p_value < comp.alpha:
        reading = (f"not distinguishable at {level} confidence: A and B differ on only "
                   f"{_plural(test.differing, 'task')}, fewer than the {test.floor} this test "
                   f"needs; the data fit A - B from {_points(test.low)} to {_points(test.high)} "
                   "points")
    else:
        reading = (f"not distinguishable at {level} confidence: the data fit A - B from "
                   f"{_points(test.low)} to {_points(test.high)} points")
    icc = ("; the between-task share of the difference's "
           f"variance is {comp.difference_icc:.3f} (`plan --icc`)"
           if comp.difference_icc is not None else "")
    if comp.detectable is None:
        plan = (f"no difference is detectable with {units} at the observed discordance "
                f"{paired.discordance:.3f}{icc} "
                f"(a planning figure; `{invoked('plan')}` sizes a suite)")
    else:
        plan = (f"with {units} at the observed discordance "
                f"{paired.discordance:.3f}{icc}, this rule detects |A - B| >= "
                f"{comp.detectable:.3f} with 80% power (a planning figure, not a result)")
    return basis, reading, plan


def render_compare_text(comp: Comparison) -> str:
    """A comparison as plain text: both headlines, the paired basis, the difference, the test and
    the reading."""
    test = comp.test
    a, b = comp.a, comp.b
    conf = a.confidence
    basis, reading, plan = _compare_sentences(comp)
    def lost(report: Report) -> str:
        count = report.ledger.counts["unscoreable"]
        return f"  ({count} unscoreable, counted as not passing)" if count else ""

    out = [
        _label("A") + f"{a.manifest.claim_id}: {_rate_text(a.ledger.headline, conf)}{lost(a)}",
        _label("B") + f"{b.manifest.claim_id}: {_rate_text(b.ledger.headline, conf)}{lost(b)}",
        _label("systems") + f"A {system_text(a.manifest)}; B {system_text(b.manifest)}",
        _label("instrument") + _instrument_text(a.manifest),
        *([_label("unrecorded") + f"{', '.join(comp.unrecorded)}: not recorded on a side, so not "
           "compared: the two instruments may differ there"] if comp.unrecorded else []),
        _label("paired") + basis,
        _label("difference") + f"A - B = {comp.diff:+.3f}  {_pct(conf)} "
        f"[{_signed(test.low, 3)}, {_signed(test.high, 3)}] ({test.interval_name}, paired)",
        _label("test") + _test_text(comp),
        _label("rule") + _rule_text(comp.test),
        _label("reading") + reading,
        _label("planning") + plan,
        _label("verdict") + comp.verdict,
        *([_label("ci gate") + _fail_on_text(comp)] if comp.fail_on else []),
    ]
    out.extend(f"  ! {f.code}: {f.message}" for f in comp.findings)
    return _lines(out)


def _miller_line(comp: Comparison) -> str:
    test = comp.test
    return (f"{test.name[0].upper()}{test.name[1:]}: t = {test.z:+.3f} on {test.df:g} df, p = "
            f"{test.p_value:.4g} (it rejects from |t| >= {test.critical:.3f}; "
            f"alpha {comp.alpha:.3g})")


def _wild_line(comp: Comparison) -> str:
    test = comp.test
    count = comp.clusters or 0
    patterns = (f"all {2 ** count:,} sign patterns of {count} clusters" if count <= WILD_ENUMERATE
                else f"{WILD_DRAWS:,} seeded sign patterns of {count} clusters")
    return (f"{test.name[4:]}: cluster-robust t = {test.z:+.3f}, p = {test.p_value:.4g} over "
            f"{patterns} (it rejects beyond |t| = {test.critical:.3f}; "
            f"alpha {comp.alpha:.3g})")


def _conditional_line(comp: Comparison) -> str:
    test = comp.test
    count = round(comp.paired.b + comp.paired.c)
    differing = _plural(count, "differing task")
    none = count == 0 or test.critical > math.sqrt(count)
    where = (f"no split of {differing} reaches alpha" if none
             else f"it rejects from |z| >= {test.critical:.3f} on {differing}")
    return (f"{test.name}: McNemar z = {test.z:+.3f}, p = {test.p_value:.4g} ({where}; "
            f"alpha {comp.alpha:.3g})")


TEST_LINES: dict[str, Callable[[Comparison], str]] = {  # PairedTest.method -> compare's test line
    "mcnemar_exact_conditional": _conditional_line,
    "miller_paired_t": _miller_line,
    "wild_cluster_bootstrap": _wild_line,
}


def _test_text(comp: Comparison) -> str:
    """The test line: which test, its statistic and p, and where it rejects."""
    return TEST_LINES[comp.test.method](comp)


# PairedTest.method -> why p < alpha is the whole rule (no floor of differing units beside it)
RULE_BASIS = {
    "mcnemar_exact_conditional": "an exact test, valid at every number of tasks: with too few "
                                 "differing, p cannot go below alpha",
    "miller_paired_t": "Miller's t on the per-task differences, which also needs the floor of "
                       "differing tasks: without it the size reached 0.067 on 8 tasks of 2 "
                       "samples, docs/statistics.md",
    "wild_cluster_bootstrap": "a bootstrap over the clusters: with too few, p cannot go below "
                              "alpha",
}


def _rule_text(test: PairedTest) -> str:
    return ("significant when p < alpha, exactly when the interval excludes 0 "
            f"({RULE_BASIS[test.method]})")


def _instrument_text(m: Manifest) -> str:
    """The envelope, as one line: a field the harness does not record reads "(not recorded:
    why)"."""
    return ", ".join(f"{k}=({stated_unknown(v)})" if stated_unknown(v) else f"{k}={_scalar(v)}"
                     for k, v in sorted(m.envelope.items()))


def _fail_on_text(comp: Comparison) -> str:
    """compare --fail-on's reading: "--fail-on regression: FAILS (A, the candidate, is significantly
    worse than B, the baseline): exit 1", or "... passes"."""
    option, failed = cast("tuple[str, bool]", comp.fail_on)
    if not comp.comparable:
        return f"--fail-on {option}: not assessed: the comparison is BLOCKED by its findings"
    if failed:
        what = {"regression": "A, the candidate, is significantly worse than B, the baseline",
                "difference": "A and B differ significantly"}[option]
        return f"--fail-on {option}: FAILS ({what}): exit 1"
    what = {"regression": "A, the candidate, is not significantly worse than B, the baseline",
            "difference": "A and B do not differ significantly"}[option]
    return f"--fail-on {option}: passes ({what})"


def compare_json(comp: Comparison) -> dict[str, Any]:
    """A comparison as a JSON-ready dict, with both sides' full reports."""
    test = comp.test
    paired = comp.paired
    table = None
    if comp.table is not None:
        both, only_a, only_b, neither = comp.table
        table = {"both_pass": both, "a_only": only_a, "b_only": only_b, "neither": neither}
    return {
        "schema_version": REPORT_SCHEMA_VERSION,
        "verdict": comp.verdict,
        "a": report_json(comp.a),
        "b": report_json(comp.b),
        "paired": table,
        "effective_table": {"a_only": paired.b, "b_only": paired.c, "pairs": paired.n,
                            "discordance": paired.discordance},
        "clusters": comp.clusters,
        "difference": {"value": comp.diff, "ci_low": test.low, "ci_high": test.high,
                       "method": PAIRED_INTERVALS[test.method][0], "critical": test.critical,
                       "critical_of": PAIRED_INTERVALS[test.method][1]},
        "test": {"method": test.method, "z": test.z, "p": test.p_value,
                 "df": test.df if math.isfinite(test.df) else None},
        "alpha": comp.alpha,
        "differing_units": paired.differing,
        "decision_rule": {"rule": "p < alpha" if test.floor <= 1 else
                          "p < alpha and differing_units >= fewest_differing",
                          "p_below_alpha": test.p_value < comp.alpha,
                          "fewest_differing": test.floor,
                          "units": "clusters" if comp.clusters is not None else "tasks"},
        "significant": comp.significant,
        "detectable_difference": {"value": comp.detectable, "power": 0.8, "planning_figure": True,
                                  "difference_icc": comp.difference_icc},
        "findings": [{"code": f.code, "message": f.message} for f in comp.findings],
        "fail_on": None if comp.fail_on is None else {"option": comp.fail_on[0],
                                                      "failed": comp.fail_on[1]},
        "unrecorded": list(comp.unrecorded),
    }


def render_compare_markdown(comp: Comparison) -> str:
    """A comparison in Markdown: the headlines, the paired table and the difference."""
    test = comp.test
    conf = comp.a.confidence
    basis, reading, plan = _compare_sentences(comp)
    level = _pct(conf)[:-3]
    heads = {None: "the comparison is not assessed",
             True: f"A - B is significant at {level} on this suite and envelope",
             False: f"A and B are not distinguishable at {level}"}
    head = heads[comp.significant]
    out = [f"### benchgate compare: **{comp.verdict}**, {head}", "",
           f"| run | k/n | value | {_pct(conf)} |", "|---|---|---:|---|",
           f"| A {_md(comp.a.manifest.claim_id)} | {_md_rate(comp.a.ledger.headline)} |",
           f"| B {_md(comp.b.manifest.claim_id)} | {_md_rate(comp.b.ledger.headline)} |", "",
           f"Systems: A {_md(system_text(comp.a.manifest))}; B "
           f"{_md(system_text(comp.b.manifest))}. Instrument (both): "
           f"{_md(_instrument_text(comp.a.manifest))}.", ""]
    if comp.table is not None and comp.clusters is None:
        both, only_a, only_b, neither = comp.table
        out += ["| | B pass | B not pass |", "|---|---:|---:|",
                f"| **A pass** | {both} | {only_a} |",
                f"| **A not pass** | {only_b} | {neither} |", ""]
    else:
        out += [f"Paired on {_md(basis)}.", ""]
    interval = (f"{_pct(conf)} [{_signed(test.low, 3)}, {_signed(test.high, 3)}] "
                f"({test.interval_name}, paired)")
    out += [f"A - B = {comp.diff:+.3f}, {interval}; {_md(_test_text(comp))}.", "",
            f"Reading: {_md(reading)}.", "",
            f"Planning: {_md(plan)}.", ""]
    if comp.findings:
        out += ["**Findings**", ""] + [f"- `{f.code}`: {_md(f.message)}" for f in comp.findings]
    if comp.fail_on:
        out += ["", f"CI gate: {_md(_fail_on_text(comp))}."]
    return "\n".join(out) + "\n"


def render_compare_svg(comp: Comparison) -> str:
    """A comparison as an SVG: both headlines, and the paired difference on its own axis."""
    test = comp.test
    title = f"{comp.a.manifest.claim_id} vs {comp.b.manifest.claim_id}: {comp.verdict}"
    rates = [_rate_row(f"{side} {r.manifest.claim_id}"
                       + (f" ({system_text(r.manifest)})" if r.manifest.measured else ""),
                       r.ledger.headline) for side, r in (("A", comp.a), ("B", comp.b))]
    diff = [PlotRow("A - B", comp.diff, test.low, test.high)]
    conf = _pct(comp.a.confidence)
    return render_svg(title, [(f"headline rate, {conf}", 0.0, 1.0, rates),
                              (f"paired difference A - B, {conf}", -1.0, 1.0, diff)])

# -- the badge, rank and plan ------------------------------------------


def _badge_message(report: Report) -> tuple[str, str]:
    """The badge's message and colour, readable alone: the metric, the rate, its interval with its
    confidence, the counts ("pass_rate 72.5% (95% CI 57–84) · 29/40") in green, or "BLOCKED" in
    red."""
    if report.verdict != "PUBLISHABLE":
        return "BLOCKED", "red"
    rate = report.ledger.headline
    return (f"{report.ledger.headline_name} {rate.value * 100:.1f}% ({_pct(report.confidence)} "
            f"{round(rate.low * 100)}–{round(rate.high * 100)}) · {_count(rate.k)}/{rate.n}"
            + (" (subset)" if report.manifest.subset else ""), "brightgreen")


def _badge_label(report: Report) -> str:
    """The badge's left text: --badge-label (the system, say), else the suite it is a claim on."""
    label = report.badge_label or report.manifest.dataset_name
    return label if len(label) <= 48 else label[:47] + "…"


def _badge_title(report: Report) -> str:
    """The badge's tooltip: the claim, the system, the author's caveats."""
    m = report.manifest
    return "; ".join([f"benchgate: {_badge_label(report)}: {_badge_message(report)[0]}",
                      f"claim {m.claim_id}", *([f"system {system_text(m)}"] if m.measured else []),
                      *m.notes])


_BADGE_COLOURS = {"brightgreen": "#4c1", "red": "#e05d44"}


def render_badge_svg(report: Report) -> str:
    """A self-contained README badge: "benchgate | 72.5% [57–84] · 29/40", or "benchgate | BLOCKED".
    """
    message, colour = _badge_message(report)
    label = _badge_label(report)

    def width(text: str) -> int:  # Verdana 11px, about 6.5 px a character, plus padding
        return round(len(text) * 6.5) + 12

    left, right = width(label), width(message)
    total = left + right
    title = _badge_title(report)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="20" role="img" '
            f'aria-label="{_xml(title)}">'
            f"<title>{_xml(title)}</title>"
            f'<rect width="{left}" height="20" fill="#555"/>'
            f'<rect x="{left}" width="{right}" height="20" fill="{_BADGE_COLOURS[colour]}"/>'
            '<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" '
            'font-size="11">'
            f'<text x="{left / 2:g}" y="14">{_xml(label)}</text>'
            f'<text x="{left + right / 2:g}" y="14">{_xml(message)}</text></g></svg>\n')


def badge_json(report: Report) -> dict[str, Any]:
    """A shields.io endpoint: https://img.shields.io/endpoint?url=<where this JSON is served>."""
    message, colour = _badge_message(report)
    return {"schemaVersion": 1, "label": _badge_label(report), "message": message, "color": colour}


def _p_text(p: float) -> str:
    """A p-value as printed: below the smallest double it is "< 1e-300", not 0."""
    return "< 1e-300" if p < 1e-300 else f"{p:.4g}"


def _rank_summary(rank: Ranking) -> tuple[str, str]:
    """The omnibus line and the pairs line, shared by text and Markdown."""
    count = sum(p.separated for p in rank.pairs)
    omnibus = (f"Cochran's Q = {rank.q:.3f}, df {rank.df}, p "
               f"{'= ' if rank.q_p >= 1e-300 else ''}{_p_text(rank.q_p)}: "
               + ("the systems are not all alike" if rank.q_p < rank.alpha else
                  f"Cochran's Q does not separate them at {_pct(rank.systems[0].confidence)[:-3]}"))
    by = " or ".join(PAIRED_TESTS[method][0] for method in sorted({p.method for p in rank.pairs}))
    pairs = (f"{count} of {len(rank.pairs)} pairs significant by {by} on this suite and envelope "
             f"after Holm's correction (alpha {rank.alpha:.3g}); systems sharing a letter are not "
             "distinguishable; each pair's own interval and p (JSON, Markdown) are unadjusted, "
             "so one may exclude 0 where Holm's p does not reach alpha")
    return omnibus, pairs


def render_rank_text(rank: Ranking) -> str:
    """A ranking as plain text: each system's headline and letters, the omnibus test, the pairs and
    the groups."""
    conf = rank.systems[0].confidence
    omnibus, pairs = _rank_summary(rank)
    width = max(len(r.manifest.claim_id) for r in rank.systems)
    out = []
    for place, index in enumerate(rank.order, 1):
        report = rank.systems[index]
        system = f"  ({system_text(report.manifest)})" if report.manifest.measured else ""
        out.append(f"{place:>3}  {report.manifest.claim_id:<{width}}  "
                   f"{_rate_text(report.ledger.headline, conf)}  {rank.letters(index)}{system}")
    out += ["", _label("omnibus") + omnibus, _label("pairs") + pairs]
    places = {index: place for place, index in enumerate(rank.order, 1)}
    if rank.no_letters:
        out.append(_label("groups") + rank.no_letters)
    for number, group in enumerate(rank.groups or ()):
        ranks = sorted(places[i] for i in group)
        if ranks == list(range(ranks[0], ranks[-1] + 1)):
            span = f"{ranks[0]}" if len(ranks) == 1 else f"{ranks[0]}-{ranks[-1]}"
        else:
            span = ", ".join(str(x) for x in ranks)
        out.append(_label(f"group {group_letter(number)}") + f"ranks {span}")
    out.append(_label("verdict") + rank.verdict)
    out.extend(f"  ! {f.code}: {f.message}" for f in rank.findings)
    return _lines(out)


def rank_json(rank: Ranking) -> dict[str, Any]:
    """A ranking as a JSON-ready dict: every system, the omnibus test, every pair and the groups."""
    places = {index: place for place, index in enumerate(rank.order, 1)}
    return {
        "schema_version": REPORT_SCHEMA_VERSION,
        "verdict": rank.verdict,
        "systems": [{"place": places[i], "claim_id": r.manifest.claim_id,
                     "system": r.manifest.measured, "verdict": r.verdict,
                     "headline": {"name": r.ledger.headline_name,
                                  **(rate_json(r.ledger.headline) or {})},
                     "letters": rank.letters(i)} for i, r in enumerate(rank.systems)],
        "omnibus": {"method": "cochran_q", "q": rank.q, "df": rank.df, "p": rank.q_p},
        "pairs": [{"first": rank.systems[p.first].manifest.claim_id,
                   "second": rank.systems[p.second].manifest.claim_id,
                   "difference": p.diff, "ci_low": p.low, "ci_high": p.high, "ci_adjusted": False,
                   "p": p.p_value, "p_holm": p.p_holm, "method": p.method,
                   "significant": p.separated} for p in rank.pairs],
        "groups": [{"letter": group_letter(n), "systems": [rank.systems[i].manifest.claim_id
                                                           for i in g]}
                   for n, g in enumerate(rank.groups or ())],
        "letters_shown": rank.groups is not None, "no_letters": rank.no_letters or None,
        "alpha": rank.alpha,
        "findings": [{"code": f.code, "message": f.message} for f in rank.findings],
    }


def render_rank_markdown(rank: Ranking) -> str:
    """A ranking in Markdown: the table with letters, the omnibus test, and every pair under a fold.
    """
    conf = rank.systems[0].confidence
    omnibus, pairs = _rank_summary(rank)
    out = [f"### benchgate rank: **{rank.verdict}**, {len(rank.systems)} systems at "
           f"{_pct(conf)[:-3]}", "",
           f"| place | claim | system | k/n | value | {_pct(conf)} | group |",
           "|---:|---|---|---|---:|---|---|"]
    for place, index in enumerate(rank.order, 1):
        report = rank.systems[index]
        out.append(f"| {place} | {_md(report.manifest.claim_id)} | "
                   f"{_md(system_text(report.manifest))} | {_md_rate(report.ledger.headline)} | "
                   f"{rank.letters(index)} |")
    out += [*(["", f"_{_md(rank.no_letters)}._"] if rank.no_letters else []),
            "", f"{_md(omnibus)}. {_md(pairs)}.", "", "<details><summary>every pair</summary>", "",
            f"| A | B | A - B | {_pct(conf)} (unadjusted) | p (unadjusted) | p (Holm) |",
            "|---|---|---:|---|---:|---:|"]
    for p in rank.pairs:
        out.append(f"| {_md(rank.systems[p.first].manifest.claim_id)} | "
                   f"{_md(rank.systems[p.second].manifest.claim_id)} | {p.diff:+.3f} | "
                   f"[{_signed(p.low, 3)}, {_signed(p.high, 3)}] | {_p_text(p.p_value)} | "
                   f"{_p_text(p.p_holm)} |")
    out += ["", "</details>", ""]
    if rank.findings:
        out += ["**Findings**", ""] + [f"- `{f.code}`: {_md(f.message)}" for f in rank.findings]
    return "\n".join(out) + "\n"


def render_rank_svg(rank: Ranking) -> str:
    """A ranking as an SVG forest plot, best first, each label with its place and letters."""
    rows = [_rate_row(f"{place}. {rank.systems[i].manifest.claim_id} [{rank.letters(i)}]",
                      rank.systems[i].ledger.headline)
            for place, i in enumerate(rank.order, 1)]
    conf = _pct(rank.systems[0].confidence)
    return render_svg(f"benchgate rank: {rank.verdict}",
                      [(f"headline rate, {conf}; shared letter: not distinguishable",
                                                           0.0, 1.0, rows)])


def render_plan_text(plan: SuitePlan) -> str:
    """`plan` as text: the question, the assumptions, the answer, and the answer for other sample
    counts."""
    given = ("given" if plan.discordance is not None
             else "independent systems: no credit for pairing; give --discordance")
    out = [
        _label("question") + f"detect A - B = {plan.detect:+.3f} over a baseline of "
        f"{plan.baseline:.3f} ({_pct(plan.confidence)[:-3]} confidence, {plan.power:.0%} power, "
        "two-sided)",
        _label("discordance") + f"{plan.psi:.3f} of tasks pass on one system only ({given})",
        _label("samples") + f"{plan.samples} a task; between-task share of the variance (icc) "
        f"{plan.icc:g}",
        _label("tasks") + f"{plan.tasks} tasks ({plan.tasks * plan.samples} attempts a system)",
        _label("by samples") + "  ".join(f"{k}: {n}" for k, n in plan.by_samples)
        + "  (more samples shrink only the within-task part)",
        _label("method") + "the least tasks at which the test compare runs reaches the power: "
        "one sample a task, the exact conditional test's exact power; k samples, Miller's t on "
        "the per-task differences, whose variance is icc + (1 - icc)/k of one sample's (Miller "
        f"2024); Connor's (1987) asymptotic answer would be {plan.asymptotic}",
    ]
    return _lines(out)


def plan_json(plan: SuitePlan) -> dict[str, Any]:
    return {"baseline": plan.baseline, "detect": plan.detect, "discordance_given": plan.discordance,
            "discordance": plan.psi, "samples": plan.samples, "icc": plan.icc, "power": plan.power,
            "confidence": plan.confidence, "tasks": plan.tasks, "asymptotic_tasks": plan.asymptotic,
            "by_samples": [{"samples": k, "tasks": n} for k, n in plan.by_samples]}


# -- each command's formats: the renderers of each output, by --format's name ----------

if TYPE_CHECKING:  # (a type alias is for mypy only: see the imports)
    Renderers = Mapping[str, Callable[[Any], str]]
REPORT_RENDERERS: Renderers = MappingProxyType({
    "text": lambda r: render_text(r), "json": lambda r: _dump(report_json(r)),
    "markdown": lambda r: render_markdown(r), "svg": lambda r: render_report_svg(r),
})
COMPARE_RENDERERS: Renderers = MappingProxyType({
    "text": lambda c: render_compare_text(c), "json": lambda c: _dump(compare_json(c)),
    "markdown": lambda c: render_compare_markdown(c), "svg": lambda c: render_compare_svg(c),
})
CHECK_OUTPUTS: Renderers = MappingProxyType({
    **REPORT_RENDERERS, "badge": lambda r: render_badge_svg(r),
    "shields": lambda r: _dump(badge_json(r)),
})
RANK_RENDERERS: Renderers = MappingProxyType({
    "text": lambda r: render_rank_text(r), "json": lambda r: _dump(rank_json(r)),
    "markdown": lambda r: render_rank_markdown(r), "svg": lambda r: render_rank_svg(r),
})
PLAN_RENDERERS: Renderers = MappingProxyType({
    "text": lambda p: render_plan_text(p), "json": lambda p: _dump(plan_json(p)),
})


#####################################################################
# Importers: harness result files into the ledger (a leaf: it fills the harness registry)
#
# Each format is one entry of IMPORTERS (which drives the command line) and one pure function
# `_<format>_attempt` that maps one harness verdict to (outcome, reason). Every importer writes one
# record per declared task x attempt, never dropping a task, and keeps what the harness recorded
# beside the verdict: the wall clock, cost and tokens where it reports them, and its own
# identifiers under "harness".
#####################################################################


# What a harness measured beside the verdict, written into the record when present.
MEASURES = ("wall_clock_s", "cost_usd", "input_tokens", "output_tokens")


def _record(run_id: str, task_id: str, attempt: int, verdict: Verdict, harness: dict[str, object],
            measures: Mapping[str, object] | None = None) -> dict[str, object]:
    outcome, reason = verdict
    return {"run_id": run_id, "task_id": task_id, "attempt": attempt, "outcome": outcome,
            "reason": reason, **_kept(measures or {}, measures or ()), "harness": harness}


def _version(harness: str, version: object) -> dict[str, str]:
    """An instrument's release, where the files name it: {"version": "<harness> <version>"}."""
    return {"version": f"{harness} {version}"} if isinstance(version, str) else {}


def _finished(records: Iterable[dict[str, object]],
              notes: list[str]) -> tuple[dict[str, object], ...]:
    """Sorted records; a wall clock only some attempts have is dropped from all (check wants all or
    none)."""
    ordered = sorted(records, key=lambda rec: (cast(str, rec["task_id"]),
                                               cast(int, rec["attempt"])))
    timed = sum("wall_clock_s" in rec for rec in ordered)
    if 0 < timed < len(ordered):
        notes.append(f"wall_clock_s left out: {len(ordered) - timed} of {len(ordered)} attempts "
                     "have no timestamps (check wants it on every attempt or none)")
        for rec in ordered:
            rec.pop("wall_clock_s", None)
    return tuple(ordered)


def _one_path(paths: Sequence[Path], fmt: str) -> Path:
    if len(paths) != 1:
        raise GateError(f"import {fmt}: takes exactly one FILE, got "
                        f"{len(paths)}; import each run separately")
    return paths[0]


def _declared_ids(dataset_ids: list[str]) -> list[str]:
    """--dataset-ids (or index.json), sorted; a task listed twice is refused."""
    repeated = _first_repeat(dataset_ids)
    if repeated is not None:
        raise GateError(f"--dataset-ids: task {repeated!r} is listed twice (a duplicate): list "
                        "each task once")
    return sorted(dataset_ids)


def _harness_json(path: Path, allow_nan: bool = False) -> dict[str, object]:
    """A harness's JSON file, one document. A file that is not one (JSON Lines), or that holds no
    verdicts at all (predictions, an agent's trajectory), is refused saying what it is and what to
    import instead."""
    try:
        data = load_json_file(path, cap=MAX_HARNESS_BYTES, allow_nan=allow_nan)
    except GateError:
        first = _json_lines_head(path)
        if first is None:
            raise
        what = _no_verdicts(first)
        raise GateError(f"{path}: a JSON Lines file (one JSON object a line; the first has keys "
                        f"{', '.join(sorted(first)[:6])}), not one JSON document"
                        + (f": {what}" if what else ": this importer reads a harness's single JSON file")) from None
    what = _no_verdicts(data)
    if what:
        raise GateError(f"{path}: {what}")
    return _obj(data, str(path))


def _subset(selections: Sequence[str], said: str, notes: list[str], unit: str = "tasks",
            **of: object) -> dict[str, object] | None:
    """The selection a run's files record, noted; None where they record none."""
    if not selections:
        return None
    notes.append(f"a subset: {said} ({'; '.join(selections)}): the claim is about these {unit} "
                 "only, and says so")
    return {**of, "selection": "; ".join(selections)}


def _optional_json(path: Path) -> dict[str, object]:
    """A harness's JSON file beside the one given (a lock, a config), or {} where there is none."""
    return _harness_json(path) if path.is_file() else {}


def _json_lines_head(path: Path) -> dict[str, object] | None:
    """The first record of a JSON Lines file (two or more lines, each a JSON object), or None."""
    try:
        with open_input(path) as handle:
            lines = [handle.readline(MAX_LINE_BYTES) for _ in range(2)]
    except GateError:
        return None
    try:
        values = [json.loads(line) for line in lines]
    except (ValueError, RecursionError):
        return None
    return values[0] if all(isinstance(v, dict) for v in values) else None


_PREDICTION_KEYS = frozenset({"instance_id", "model_patch"})
_NO_VERDICTS_SWEBENCH = ("grade them with `python -m swebench.harness.run_evaluation "
                         "--predictions_path FILE --run_id RUN ...` and import the run report it "
                         "writes (<model>.<RUN>.json) with `import swebench`")


def _no_verdicts(data: object) -> str | None:
    """What a file is when it is a known kind that carries no verdicts (SWE-bench predictions, an
    OpenHands output.jsonl record before evaluation, an agent's trajectory), with what to import
    instead; else None."""
    values = list(data.values()) if isinstance(data, dict) else []
    if isinstance(data, list):
        values = data
    if (isinstance(data, dict) and set(data) >= _PREDICTION_KEYS) or (values and all(
            isinstance(v, dict) and set(v) >= _PREDICTION_KEYS for v in values)):
        return ("SWE-bench predictions (instance_id, model_patch: the patches an agent wrote, as "
                "SWE-agent's preds.json / all_preds.jsonl or mini-swe-agent's preds.json), not "
                f"verdicts: {_NO_VERDICTS_SWEBENCH}")
    if isinstance(data, dict) and {"instance_id", "test_result", "history"} <= set(data):
        graded = isinstance(data.get("report"),
                            dict) or isinstance(_sub(data.get("test_result")).get("report"), dict)
        return ("an OpenHands output.jsonl record " + (
                "after evaluation: import the SWE-bench run report "
                "(report.json) that eval_infer.sh wrote beside it with `import swebench`"
                if graded else
                "before evaluation (no test_result.report): no verdicts yet; run OpenHands' "
                "evaluation/benchmarks/swe_bench/scripts/eval_infer.sh on it and import the "
                "SWE-bench run report (report.json) it writes with `import swebench`"))
    if isinstance(data, dict) and {"trajectory", "info"} <= set(data):
        return ("a SWE-agent trajectory (.traj): one agent run's steps, no verdict; "
                + _NO_VERDICTS_SWEBENCH.replace("grade them", "grade the run's preds.json"))
    return None


# -- the finisher: every reader returns a Found; finish() applies the trust rules once ----------


# one attempt a harness reader found: task, attempt, verdict, measures, the harness's own fields
if TYPE_CHECKING:
    _Row = tuple[str, int, Verdict, dict[str, object], dict[str, object]]
    # how the files' silence on a declared attempt reads: its verdict, harness fields and measures
    _Absent = Callable[[str, int], tuple[Verdict, dict[str, object], dict[str, object]]]


class Found(NamedTuple):
    """What a reader found in a harness's files, before any trust rule: one row an attempt it read,
    and what the files say of the run (its declared set and where it came from, a selection, the
    system and instrument they name, the harness's own figure). A reader only reads; finish() judges
    and builds the import, so a rule written there holds for every importer."""

    rows: Sequence[_Row]
    samples: bool  # the attempts are samples (each a verdict of its own), not retries
    budget: int
    harness: str  # the envelope's harness, with the version the file names where it does
    stated: str  # the harness's own figure and its denominator, for the note ("": the reader's own)
    # the set the files declare themselves (else --dataset-ids, else what they hold)
    declared: Sequence[str] | None = None
    declared_from: str = ""
    subset: Mapping[str, object] | None = None
    measured: Mapping[str, object] = MappingProxyType({})
    notes: tuple[str, ...] = ()
    dataset_name: str | None = None  # what the files name the suite (its split, its hash)
    subset_unit: str = "tasks"  # what a subset's "of" counts
    # tasks the files name, rows or not (a task with no samples is still one)
    named: Sequence[str] = ()
    instrument: Mapping[str, str] = MappingProxyType({})  # the harness's version or commit
    run_id: str | None = None  # the run (default: the file's name)
    envelope: Mapping[str, object] = MappingProxyType({})  # the instrument beyond its name
    provenance: Mapping[str, object] = MappingProxyType({})
    extra_reasons: tuple[str, ...] = ()  # reason classes the harness can give beyond the built-in
    rerun_hint: str = "the harness command that wrote the file"
    timeout_note: str = ""
    todo: tuple[str, ...] = ()
    strata: Mapping[str, int] | None = None
    run_instruments: tuple[tuple[str, Mapping[str, str]], ...] = ()
    absent: _Absent | None = None  # default: unscoreable missing_artifact
    run_of: Callable[[str, int], str] | None = None  # (task, attempt) -> its run; None: run_id
    # the suite's size as the files state it (total_instances), and what states it
    total: int | None = None
    total_what: str = "the files"
    # Tasks the files name that never ran (no prediction submitted), and why: --dataset-ids may
    # leave them out (a declared subset), never a task that ran.
    ungraded: Collection[str] = ()
    ungraded_why: str = "never run"
    systems: tuple[tuple[str, str], ...] = ()  # (where, the system it names): one claim, one
    budget_what: str = "the attempts a task"  # the budget's name, for a refusal
    # (task, a digest of what the run produced, of what its evaluation graded): else stale
    graded: tuple[tuple[str, str, str], ...] = ()
    graded_what: str = "the evaluation"
    # how the draft says to declare a set that is only what the files held
    declare_hint: str = "give --dataset-ids FILE with the suite's task ids"


def _one_instrument(imp: Imported, declared: bool) -> Imported:
    """One claim is read on one instrument: runs whose files record different harness releases or
    commits are refused, naming each, unless the user declares them one (--one-instrument), which
    the provenance records and the card prints. A run that records none is a group of its own:
    nothing shows it was made on the others' instrument."""
    recorded = [(run, instrument) for run, instrument in imp.run_instruments if instrument]
    groups: dict[str, list[str]] = {}
    for run, instrument in imp.run_instruments:  # (a run that records none is a group of its own)
        groups.setdefault(instrument_text(instrument), []).append(run)
    if len(groups) <= 1:
        return imp
    named = "; ".join(f"{text} ({_preview(runs, 3)})" for text, runs in groups.items())
    if not declared:
        raise GateError(f"import {imp.source}: the {len(imp.run_instruments)} runs were made with "
                        f"{len(groups)} different harness checkouts or releases: {named}: one "
                        "claim is read on one instrument; import the runs made with one of them, "
                        "or give --one-instrument to declare them one (the manifest records it "
                        "and the card prints it)")
    merged = {key: " + ".join(sorted({str(i[key]) for _, i in recorded if key in i}))
              for key in sorted({key for _, i in recorded for key in i})}
    said = (f"{len(imp.run_instruments)} runs made with {len(groups)} harness checkouts or "
            f"releases, declared one instrument by the user (--one-instrument): {named}")
    envelope = dict(imp.envelope)
    if "commit" in merged and "toolchain_sha" in envelope:
        envelope["toolchain_sha"] = merged["commit"]
    return imp._replace(instrument=merged, envelope=envelope, notes=(*imp.notes, said),
                        provenance={**imp.provenance, "one_instrument": said})


class DeclaredSet(NamedTuple):
    """The tasks an import declares, their source, subset, whether only found, and left out."""

    ids: list[str]
    source: str
    subset: Mapping[str, object] | None
    found_only: bool
    left_out: frozenset[str] = frozenset()


def _declared_subset(found: Found, declared: list[str], seen: Sequence[str],
                     where: str) -> DeclaredSet:
    """--dataset-ids: the suite, or the part of what the files name that the run was of. A task the
    files name outside it is left out only when it never ran (an instance no prediction was
    submitted for): leaving out a task that ran would choose the claim's tasks by their outcome."""
    outside = frozenset(seen).difference(declared)
    ran = sorted(outside.difference(found.ungraded))
    if ran:
        raise GateError(f"{where}: tasks not in --dataset-ids: {_preview(ran)} (they ran: a "
                        "claim on part of a run cannot leave out a task that ran"
                        + (f"; only tasks {found.ungraded_why} can be" if found.ungraded else "")
                        + "; list them in --dataset-ids: the run was of a suite that holds "
                          "them)")
    subset = found.subset
    whole = found.total if found.total is not None else len(outside) + len(declared)
    if outside or whole > len(declared):
        subset = {"of": whole, "selection": f"--dataset-ids: {len(declared)} of the {whole} "
                                            f"{found.subset_unit} {found.total_what} name"}
    return DeclaredSet(declared, "--dataset-ids", subset, False, outside)


def _declared_set(found: Found, options: ImportOptions, seen: Sequence[str],
                  where: str) -> DeclaredSet:
    """The declared set: --dataset-ids with a selection the files record declares that part of the
    suite; --dataset-ids alone is the suite (or a declared part of what the files name); else the
    files' own set (which must hold as many tasks as they say the suite has), else what they
    hold."""
    if options.dataset_ids is not None and found.subset is not None and found.declared is not None:
        # a run of part of the suite (lm-eval --limit, HAL --max_tasks): the part is declared, the
        # suite is its `of`
        ids = _declared_ids(options.dataset_ids)
        outside = set(found.declared).difference(ids)
        if outside:
            raise GateError(f"{where}: tasks not in --dataset-ids: {_preview(sorted(outside))}")
        source = f"{found.declared_from}, of the {len(ids)} in --dataset-ids"
        own = found.subset.get("of")  # the suite's size the files state is not lowered by the ids
        whole = max(len(ids), own if isinstance(own, int) else 0)
        return DeclaredSet(sorted(found.declared), source,
                           {"of": whole, "selection": found.subset["selection"]}, False)
    if options.dataset_ids is not None:
        return _declared_subset(found, _declared_ids(options.dataset_ids), seen, where)
    named = sorted(found.declared) if found.declared is not None else list(seen)
    if found.total is not None and len(named) != found.total:
        raise GateError(f"{where}: {found.total_what} is {found.total} but the files name "
                        f"{len(named)} ids; {found.declare_hint}: the {found.total} declared ids "
                        "(or the ids of the part of the suite the run was of)")
    if found.declared is not None:
        return DeclaredSet(named, found.declared_from, found.subset, False)
    return DeclaredSet(named, found.declared_from or f"the {len(seen)} task(s) the files hold, not "
                       "a declared set", found.subset, True)


def _declared_system(found: Found, options: ImportOptions, fmt: str) -> Found:
    """--agent and --model: the system the user declares the files measured, recorded as the user's
    declaration beside what the files name (the card prints both). With --model, files that name
    aliases of one model are declared one system; files that differ in more than the model (another
    agent, its arguments, its configuration) stay different systems, and are refused."""
    if options.agent is None:
        return found
    declared = {"agent": options.agent, **({"model": options.model} if options.model else {})}
    named = list(dict.fromkeys(text for _, text in found.systems if any(
        not part.endswith("(not named)") for part in text.split(", ")))) or (
        [", ".join(f"{k} {v}" for k, v in found.measured.items())] if found.measured else [])
    beyond = {re.sub(r"(?:^|, )model [^,]*", "", text) for text in named}
    if options.model and len(beyond) > 1:
        raise GateError(f"import {fmt}: --model declares aliases of one model one system, but the "
                        f"files differ in more than the model: {'; '.join(named)}: one claim is "
                        "one system; import each system's files as a claim of its own")
    said = (f"declared by the user (--agent{' --model' if options.model else ''}): "
            + ("the files name " + "; ".join(named) if named else "the files do not name it"))
    return found._replace(measured={**found.measured, **declared},
                          systems=() if options.model else found.systems,
                          provenance={**found.provenance, "system_declared": said})


def _one_system(found: Found, fmt: str) -> None:
    """One claim is one system: files or runs naming different systems are refused."""
    groups: dict[str, list[str]] = {}
    for where, system in found.systems:
        groups.setdefault(system, []).append(where)
    if len(groups) > 1:
        shown = "; ".join(f"{system} ({_preview(wheres, 2)})" for system, wheres in groups.items())
        raise GateError(f"import {fmt}: the files measured {len(groups)} different systems "
                        f"({shown}): one claim is one system; import each system's files as a "
                        "claim of its own, and compare them")


def _fresh_evaluation(found: Found, fmt: str) -> None:
    """An evaluation that graded another output than the run's (a previous run's) is refused."""
    stale = sorted(tid for tid, produced, graded in found.graded if produced != graded)
    if stale:
        raise GateError(f"import {fmt}: {found.graded_what} graded another output than the run "
                        f"produced for {len(stale)} task(s) ({_preview(stale)}): it is a previous "
                        "run's, stale; evaluate this output again and import what that writes")


def finish(found: Found, options: ImportOptions, fmt: str, path: Path) -> Imported:
    """Every import's one finisher: one system, the declared set (or declared subset), every
    declared task x attempt kept (one the files lack is missing_artifact, or what the reader's
    `absent` says), the harness's own figure held against the gate's full denominator in a note,
    one instrument, and the import built."""
    found = _declared_system(found, options, fmt)
    _one_system(found, fmt)
    _fresh_evaluation(found, fmt)
    over = next((tid for tid, attempt, *_ in found.rows if attempt > found.budget), None)
    if over is not None:
        most = max(attempt for tid, attempt, *_ in found.rows if tid == over)
        raise GateError(f"import {fmt}: task {over!r} has {most} attempts, more than "
                        f"{found.budget_what.split(' (')[0]} {found.budget}"
                        + (f" ({found.budget_what.split(' (', 1)[1]}" if " (" in found.budget_what
                           else ""))
    seen = sorted({tid for tid, *_ in found.rows}.union(found.named))
    chosen = _declared_set(found, options, seen, str(path))
    declared, source, subset = chosen.ids, chosen.source, chosen.subset
    if chosen.left_out:
        found = found._replace(rows=[row for row in found.rows if row[0] not in chosen.left_out],
                               notes=(*found.notes, f"{len(chosen.left_out)} task(s) the files "
                                      f"name outside --dataset-ids ({found.ungraded_why}) are left "
                                      f"out: the claim is on the {len(declared)} declared, a "
                                      "subset"))
        seen = sorted(set(seen).difference(chosen.left_out))
    stray = set(seen).difference(declared)
    if stray:
        raise GateError(f"{path}: tasks not in the declared set ({source}): {_preview(stray)}")
    if not found.rows and not declared:
        raise GateError(f"{path}: no tasks to import")
    if len(declared) * found.budget > MAX_IMPORTED_ATTEMPTS:
        raise GateError(f"import {fmt}: {len(declared):,} tasks x {found.budget:,} attempts, "
                        f"more than the gate imports ({MAX_IMPORTED_ATTEMPTS:,})")
    run = found.run_id or path.stem
    run_of = found.run_of or (lambda tid, attempt: run)
    records = [_record(run_of(tid, attempt), tid, attempt, verdict, {"format": fmt, **own},
                       measures) for tid, attempt, verdict, measures, own in found.rows]
    have = {(tid, attempt) for tid, attempt, *_ in found.rows}
    recorded = {tid for tid, *_ in found.rows}
    for tid in declared:
        for attempt in range(1, (found.budget if found.samples else 1) + 1):
            if (tid, attempt) not in have and (found.samples or tid not in recorded):
                verdict, own, measures = (found.absent(tid, attempt) if found.absent else
                                          (("unscoreable", "missing_artifact"), {}, {}))
                records.append(_record(run_of(tid, attempt), tid, attempt, verdict,
                                       {"format": fmt, **own, "absent": True}, measures))
    counts = Counter(cast(str, r["outcome"]) for r in records)
    # what the harness raised, by type; one counted as the system's fail (a provider's refusal)
    # says so, so no exception turns into a verdict unseen
    raised = Counter(str(_sub(r["harness"]).get("exception_type"))
                     + ("" if r["outcome"] == "unscoreable" else f" (counted {r['outcome']})")
                     for r in records if _sub(r["harness"]).get("exception_type"))
    absent = sorted(set(declared) - recorded)
    notes = [*([f"{path}: {found.stated}; the gate counts every declared task: {counts['pass']} "
                f"pass, {counts['fail']} fail, {counts['unscoreable']} unscoreable attempt(s) over "
                f"{len(declared)} task(s)"
                + (f"; {len(absent)} declared task(s) have no result and are missing_artifact "
                   f"({_preview(absent)})" if absent else "")] if found.stated else []),
             *found.notes]
    todo = [*found.todo]
    if chosen.found_only:
        todo.append(f"dataset: the declared set is only the {len(seen)} task(s) the files hold: "
                    f"{found.declare_hint}, so a task the harness dropped is counted")
    reasons = {cast(str, r["reason"]) for r in records if r["outcome"] == "unscoreable"}
    imported = Imported(
        records=_finished(records, notes), task_ids=tuple(declared),
        attempt_mode="samples" if found.samples else "retry", attempt_budget=found.budget,
        extra_reasons=tuple(sorted((reasons | set(found.extra_reasons)) - set(BUILTIN_REASONS))),
        run_id=run, source=fmt,
        envelope={"harness": found.harness, **found.envelope},
        rerun_hint=found.rerun_hint, notes=tuple(notes), draft_todo=tuple(todo), subset=subset,
        subset_unit=found.subset_unit, measured=found.measured, dataset_name=found.dataset_name,
        strata=found.strata, timeout_note=found.timeout_note,
        provenance={"declared_from": source, **found.provenance,
                    **({"exceptions": dict(sorted(raised.items()))} if raised else {})},
        set_found=chosen.found_only,
        instrument=found.instrument, run_instruments=found.run_instruments)
    return _one_instrument(imported, options.one_instrument)


# -- SWE-bench ------------------------------------------------------

# make_run_report puts every dataset instance in exactly one of these five lists. Should a file
# name an id in several (hand-merged reports), the first list here wins: it is the order in which
# make_run_report itself decides (no prediction, empty patch, no/unreadable report.json, then the
# resolved flag), and it can only move an id away from "pass", never towards it.
_SWEBENCH_PRIMARY = ("incomplete_ids", "empty_patch_ids", "error_ids", "unresolved_ids",
                     "resolved_ids")
# Advisory subsets of unresolved_ids | error_ids added in swebench 5.0.
_SWEBENCH_ADVISORY = ("infra_failure_ids", "ambiguous_failure_ids")
_SWEBENCH_COUNTS = {
    "resolved_instances": "resolved_ids",
    "unresolved_instances": "unresolved_ids",
    "empty_patch_instances": "empty_patch_ids",
    "error_instances": "error_ids",
    "completed_instances": "completed_ids",
    "incomplete_instances": "incomplete_ids",
    "infra_failure_instances": "infra_failure_ids",
    "ambiguous_failure_instances": "ambiguous_failure_ids",
}
# Every key a run report writes, from swebench 2.0.0 to 5.x, the SWE-bench-java / Multi-SWE-bench
# fork (`resolved` for resolved_ids, no schema_version) and Multi-SWE-bench's final_report.json.
_SWEBENCH_REPORT_KEYS = frozenset({
    *_SWEBENCH_PRIMARY, *_SWEBENCH_ADVISORY, *_SWEBENCH_COUNTS, "resolved", "completed_ids",
    "submitted_ids",
    "total_instances", "submitted_instances", "unstopped_instances", "unstopped_containers",
    "unremoved_images", "failure_reasons", "schema_version",
})
# sb-cli's summary counts (sb_cli/get_report.py); a report that has only these names no instance.
_SBCLI_COUNTS = ("resolved_instances", "total_instances", "submitted_instances", "error_instances",
                 "pending_instances", "completed_instances", "failed_instances")
# get_results.py order: no_generation (no log dir / patch.diff), no_logs (no test_output), resolved
_EXPERIMENTS_LISTS = ("no_generation", "no_logs", "resolved")
_TIMEOUT_FAILURE_REASON = "tests_timed_out"  # swebench/harness/infra_failure.py


def import_swebench(options: ImportOptions) -> Imported:
    """Import a SWE-bench run report (any harness version, the java fork, Multi-SWE-bench's final
    report), an experiments results.json, or a per-instance logs folder (with the run report that
    governs its declared set); an index.json may declare the dataset (as --dataset-ids does)."""
    files = list(options.files)
    folders = [p for p in files if p.is_dir()]
    declared = options.dataset_ids
    data_files = []
    for path in (p for p in files if p not in folders):
        data = _harness_json(path)
        # SWE-bench-java's index.json (instance id -> info): a declared set the harness wrote
        if not (data and all(isinstance(v, dict) for v in data.values())
                and not set(data) & _SWEBENCH_REPORT_KEYS):
            data_files.append((path, data))
        elif declared is not None:
            raise GateError(f"{path}: a second declared instance set (one index.json or "
                            "--dataset-ids)")
        else:
            declared = [_task_id(key, f"{path}: {key!r}") for key in data]
    options = options._replace(dataset_ids=declared)
    if folders:
        if len(folders) > 1:
            raise GateError(f"import swebench: takes one logs folder, got {len(folders)}")
        if len(data_files) > 1:
            raise GateError("import swebench: a logs folder takes one run report beside it, got "
                            f"{len(data_files)}")
        return _swebench_logs(folders[0], data_files[0] if data_files else None, options)
    if len(data_files) != 1:
        raise GateError("import swebench: takes one report (and optionally its index.json), got "
                        f"{len(data_files)}")
    path, data = data_files[0]
    if "resolved" in data and not set(data) & {"resolved_ids", "unresolved_ids", "total_instances"}:
        return _swebench_experiments(path, data, options)
    if set(data) & {"resolved_ids", "resolved", "unresolved_ids", "error_ids"}:
        return _swebench_report(path, data, options)
    if set(data) & set(_SBCLI_COUNTS):
        raise GateError(
            f"{path}: an sb-cli summary with counts only "
            f"({', '.join(k for k in _SBCLI_COUNTS if k in data)}): it names no instance, so no "
            "task can be checked; import the run report with the id lists instead (the harness's "
            "<model>.<run_id>.json, or the report sb-cli get-report saves beside the "
            ".response.json)")
    raise GateError(f"{path}: not a SWE-bench run report (no resolved_ids / resolved lists) nor an "
                    "experiments results.json (no 'resolved')")


class _SwebenchReport(NamedTuple):
    """A run report read and checked: its lists, failure reasons, declared set, keys left aside."""

    path: Path
    lists: dict[str, list[str]]
    reasons: dict[str, str]
    total: int | None
    declared: list[str]
    ignored: list[str]  # unknown keys (a fork's) whose every id a known list also names
    form: str


def _swebench_unknown(data: dict[str, object], where: str) -> tuple[dict[str, list[str]],
                                                                    list[str]]:
    """A fork's extra keys: `<name>_ids` lists and `<name>_instances` counts; else refused."""
    lists: dict[str, list[str]] = {}
    counts: list[str] = []
    for key in sorted(set(data) - _SWEBENCH_REPORT_KEYS):
        if key.endswith("_ids") and isinstance(data[key], list):
            lists[key] = _id_list(data, key, where)
        elif key.endswith("_instances") and _is_int(data[key]):
            counts.append(key)
        else:
            raise GateError(f"{where}: unknown key {key!r} for a SWE-bench "
                            "run report (neither an id list <name>_ids nor a "
                            "count <name>_instances): is this a run report?")
    for key in counts:
        list_key = key[:-len("_instances")] + "_ids"
        if list_key in lists and data[key] != len(lists[list_key]):
            raise GateError(f"{where}: {key} is {data[key]} but {list_key} has "
                            f"{len(lists[list_key])} ids: the report contradicts itself; import "
                            "the harness's own report, unedited")
    return lists, [*lists, *counts]


def _swebench_read_report(path: Path, data: dict[str, object],
                          dataset_ids: list[str] | None) -> _SwebenchReport:
    """A run report's lists and declared set. A fork's unknown id list is read only when every id in
    it is named by a known list too (or declared by --dataset-ids, where it counts as no verdict);
    else it is refused."""
    where = str(path)
    unknown, unknown_keys = _swebench_unknown(data, where)
    lists, reasons = _swebench_report_lists(data, where)
    total = _int(data["total_instances"],
                 f"{where}.total_instances") if "total_instances" in data else None
    seen = {tid for key in _SWEBENCH_PRIMARY for tid in lists[key]}
    for key, ids in unknown.items():
        alone = set(ids).difference(seen)
        if alone and (dataset_ids is None or alone.difference(dataset_ids)):
            raise GateError(
                f"{where}: {key} (not a swebench key) holds {len(alone)} id(s) no known list names "
                f"({_preview(alone)}): what the harness did with them is unknown; pass "
                "--dataset-ids FILE with every declared instance, and they are imported as "
                "unscoreable (missing_artifact)")
    declared = sorted(seen)
    for key in _SWEBENCH_ADVISORY:
        stray = set(lists.get(key, [])).difference(seen)
        if stray:
            raise GateError(f"{where}.{key}: ids in no outcome list: {_preview(stray)}")
    stray = set(reasons).difference(seen)
    if stray:
        raise GateError(f"{where}.failure_reasons: ids in no outcome list: {_preview(stray)}")
    form = "swebench-report" if "schema_version" in data else "swebench-report-unversioned"
    return _SwebenchReport(path, lists, reasons, total, declared, unknown_keys, form)


def _swebench_report_lists(data: dict[str, object],
                           where: str) -> tuple[dict[str, list[str]], dict[str, str]]:
    """The report's id lists, checked against its stated counts, and its failure reasons."""
    if data.get("schema_version", 2) != 2:
        _expected(f"{where}: schema_version", "2", data["schema_version"])
    if "resolved" in data and "resolved_ids" in data:
        raise GateError(f"{where}: both resolved and resolved_ids: one report holds one of them")
    lists: dict[str, list[str]] = {}
    for key in _SWEBENCH_PRIMARY:
        if "schema_version" in data and key not in data:
            raise GateError(f"{where}: {key}: missing (schema_version 2 always writes it)")
        source = "resolved" if key == "resolved_ids" and "resolved" in data else key
        lists[key] = _id_list(data, source, where) if source in data else []
    for key in (*_SWEBENCH_ADVISORY, "completed_ids"):
        if key in data:
            lists[key] = _id_list(data, key, where)
    for count_key, list_key in _SWEBENCH_COUNTS.items():
        if (count_key in data and list_key in lists
                and (list_key in data or list_key == "resolved_ids")):
            stated = _int(data[count_key], f"{where}.{count_key}")
            if stated != len(lists[list_key]):
                raise GateError(f"{where}: {count_key} is {stated} but {list_key} has "
                                f"{len(lists[list_key])} ids: the report contradicts itself; "
                                "import the harness's own report, unedited")
    reasons: dict[str, str] = {}
    if "failure_reasons" in data:
        for key, value in _obj(data["failure_reasons"], f"{where}.failure_reasons").items():
            reasons[key] = _str(value, f"{where}.failure_reasons[{key!r}]")
    return lists, reasons


def _never_submitted(lists: Mapping[str, list[str]]) -> frozenset[str]:
    """The instances a run report says never ran: in incomplete_ids and in no other list (one that
    another list names completed, was graded, or failed: leaving it out would choose by outcome)."""
    others = {tid for key, ids in lists.items() if key != "incomplete_ids" for tid in ids}
    return frozenset(lists.get("incomplete_ids", ())).difference(others)


def _swebench_attempt(status: str | None, infra: bool, failure_reason: str | None) -> Verdict:
    """One instance of a run report: the list that names it, and the 5.x advisory flags."""
    if status is None or status == "incomplete_ids":
        return "unscoreable", "missing_artifact"
    if status == "resolved_ids":
        return "pass", None
    if status == "empty_patch_ids":
        return "fail", None
    if infra:  # environment-tier signature in the instance's logs
        return "unscoreable", "env_flake"
    if status == "unresolved_ids":
        return "fail", None
    # error_ids: no report.json. A test-run timeout raises before report.json is written and leaves
    # "Timeout error: N seconds exceeded" in the log, which infra_failure.py calls tests_timed_out.
    if failure_reason == _TIMEOUT_FAILURE_REASON:
        return "unscoreable", "harness_timeout"
    return "unscoreable", "grader_error"


def _swebench_status(report: _SwebenchReport, member: Mapping[str, list[str]], tid: str,
                     notes: list[str]) -> tuple[Verdict, dict[str, object]]:
    """One declared instance as the run report has it: the first primary list naming it."""
    in_lists = member.get(tid, [])
    primary = [key for key in in_lists if key in _SWEBENCH_PRIMARY]
    status = primary[0] if primary else None
    infra = tid in report.lists.get("infra_failure_ids", ())
    if len(primary) > 1:
        notes.append(f"{tid}: in {', '.join(primary)}; counted as {status}")
    if infra and status not in ("unresolved_ids", "error_ids"):
        notes.append(f"{tid}: infra_failure_ids ignored for an id in {status}")
    harness: dict[str, object] = {"format": report.form, "instance_id": tid, "status_list": status,
                                  "lists": in_lists}
    if tid in report.reasons:
        harness["failure_reason"] = report.reasons[tid]
    return _swebench_attempt(status, infra, report.reasons.get(tid)), harness


def _swebench_figure(report: _SwebenchReport) -> str:
    total = report.total if report.total is not None else len(report.declared)
    return (f"the report's own figure: resolved {len(report.lists['resolved_ids'])} of "
            f"total_instances {total}")


def _swebench_report(path: Path, data: dict[str, object], options: ImportOptions) -> Imported:
    report = _swebench_read_report(path, data, options.dataset_ids)
    member = _memberships(report.lists)
    run_id, measured, todo = _swebench_run(path)
    notes: list[str] = []
    rows: list[_Row] = []
    for tid in report.declared:
        verdict, harness = _swebench_status(report, member, tid, notes)
        rows.append((tid, 1, verdict, {}, harness))
    if report.ignored:
        notes.append(f"{path}: key(s) not in swebench's report ignored: "
                     f"{', '.join(report.ignored)} (every id they hold is counted from the known "
                     "lists or --dataset-ids)")
    notes.append(_swebench_figure(report))
    never = _never_submitted(report.lists)
    if never and options.dataset_ids is None:
        notes.append(f"{path}: {len(never)} of the {len(report.declared)} instances were never "
                     "submitted (incomplete_ids: no prediction), which the harness did not fail to "
                     "grade: if the run was of part of the split by design, import again with "
                     "--dataset-ids listing the submitted ids (a declared subset)")
        todo = [*todo, f"dataset: {len(never)} instance(s) were never submitted (incomplete_ids): "
                       "a run of part of the split by design is claimed with --dataset-ids "
                       "listing the submitted ids (a declared subset), else they stay "
                       "missing_artifact"]
    return finish(_swebench_found(
        rows, report.declared, f"the run report {path.name}", run_id, notes, measured, todo,
        "report", total=report.total, ungraded=never,
        declare_hint="pass --dataset-ids FILE (or the harness's index.json)"),
        options, "swebench", path)


_SWEBENCH_RERUN = ("python -m swebench.harness.run_evaluation --dataset_name ... "
                   "--predictions_path ... --run_id ...")
# what wrote each SWE-bench form (the envelope's harness), and the command that reruns it
_SWEBENCH_FORMS = {
    "report": ("swebench.harness.run_evaluation", _SWEBENCH_RERUN),
    "experiments": ("SWE-bench/experiments analysis/get_results.py",
                    "python -m analysis.get_results evaluation/<split>/<submission>"),
    "logs": ("swebench.harness.run_evaluation (instance logs)", _SWEBENCH_RERUN),
}


def _swebench_found(rows: list[_Row], declared: Sequence[str] | None, declared_from: str,
                    run_id: str, notes: list[str], measured: Mapping[str, object],
                    todo: Sequence[str], form: str, **more: Any) -> Found:
    """Every SWE-bench form: one attempt per instance, graded in the harness's docker containers."""
    harness, rerun = _SWEBENCH_FORMS[form]
    return Found(rows, False, 1, harness, "", declared=declared, declared_from=declared_from,
                 run_id=run_id, notes=tuple(notes), measured=measured, todo=tuple(todo),
                 envelope={"runner": "docker (the swebench harness's instance containers)"},
                 rerun_hint=rerun, total_what="total_instances", subset_unit="instances",
                 ungraded_why="never submitted: incomplete_ids",
                 timeout_note="swebench.harness.run_evaluation --timeout, 1800 s unless the run "
                              "set another; the report does not record it", **more)


def _swebench_run(path: Path) -> tuple[str, dict[str, object], list[str]]:
    """A SWE-bench file's run ID, the system it names, and what the draft must ask: a
    results/results.json names the submission; `<model>.<run_id>.json` a model (the agent is asked
    for, the model to be checked); another name (report.json) none."""
    folder = _absolute(path).parent
    if path.name == "results.json" and folder.name == "results":
        submission = _folder_name(folder.parent)
        return submission, {"submission": submission}, []
    stem = path.stem
    if "." not in stem:
        return stem, {}, []
    model = stem.rsplit(".", 1)[0].replace("__", "/")
    return stem, {"model": model, "agent": "TODO: the agent this run measured"}, [
        f"system.agent: the agent this run measured (the file names only a model, {model!r}, "
        "from its name <model>.<run_id>.json: check that too)"]


def _experiments_attempt(status: str | None) -> Verdict:
    """One instance of an experiments results.json: resolved, no_logs, else failed."""
    if status == "resolved":
        return "pass", None
    if status == "no_logs":
        return "unscoreable", "missing_artifact"
    return "fail", None


def _swebench_experiments(path: Path, data: dict[str, object], options: ImportOptions) -> Imported:
    where, dataset_ids = str(path), options.dataset_ids
    if dataset_ids is None:
        raise GateError(
            f"{where}: experiments results.json leaves unresolved ids implicit; "
            f"pass --dataset-ids FILE listing every instance id of the split"
        )
    unknown = sorted(set(data).difference(_EXPERIMENTS_LISTS))
    if unknown:
        raise GateError(
            f"{where}: unknown key(s) {', '.join(unknown)}; only the "
            "resolved/no_generation/no_logs form written by SWE-bench/experiments "
            "analysis/get_results.py is read"
        )
    lists = {key: _id_list(data, key, where) for key in _EXPERIMENTS_LISTS if key in data}
    member = _memberships(lists)
    declared = _declared_ids(dataset_ids)
    stray = set(member).difference(declared)
    if stray:
        raise GateError(f"{where}: ids not in --dataset-ids: {_preview(stray)}")
    run_id, measured, todo = _swebench_run(path)
    notes: list[str] = []
    rows: list[_Row] = []
    for tid in declared:
        in_lists = member.get(tid, [])
        status = in_lists[0] if in_lists else None
        if len(in_lists) > 1:
            notes.append(f"{tid}: in {', '.join(in_lists)}; counted as {status}")
        harness: dict[str, object] = {"format": "swebench-experiments", "instance_id": tid,
                                      "status_list": status if status else "(implicit unresolved)",
                                      "lists": in_lists}
        rows.append((tid, 1, _experiments_attempt(status), {}, harness))
    notes.append(f"the results file's own figure: resolved {len(lists.get('resolved', []))} of the "
                 f"{len(declared)} instances of --dataset-ids")
    return finish(_swebench_found(rows, declared, "--dataset-ids", run_id, notes, measured, todo,
                                  "experiments"), options, "swebench", path)


def _swebench_instance_report(folder: Path, tid: str) -> tuple[Verdict, dict[str, object]]:
    """One instance folder of a logs folder: its report.json is the grading itself."""
    path = folder / tid / "report.json"
    harness: dict[str, object] = {"format": "swebench-instance-logs", "instance_id": tid}
    if not path.is_file():
        log = folder / tid / "test_output.txt"
        timed_out = False
        if log.is_file():
            try:
                with open_input(log) as handle:
                    timed_out = b"Timeout error:" in handle.read(MAX_FILE_BYTES)
            except OSError:
                timed_out = False
        harness["report"] = None
        return ("unscoreable", "harness_timeout" if timed_out else "grader_error"), harness
    entry = _harness_json(path).get(tid)
    grade = _obj(entry, f"{path}: {tid!r}")
    resolved = grade.get("resolved")
    harness.update({key: grade.get(key) for key in ("patch_is_None", "patch_exists",
                                                    "patch_successfully_applied",
                                                     "resolved", "infra_failure") if key in grade})
    if grade.get("infra_failure") is True:
        return ("unscoreable", "env_flake"), harness
    if not isinstance(resolved, bool):
        _expected(f"{path}: {tid}.resolved", "true or false", resolved)
    return ("pass" if resolved else "fail", None), harness


def _swebench_logs(folder: Path, given: tuple[Path, dict[str, object]] | None,
                   options: ImportOptions) -> Imported:
    """A per-instance logs folder: the ground truth of what was graded. The run report given beside
    it governs the declared set: an instance with no folder (an empty patch, an incomplete one: the
    harness makes none) keeps the report's verdict. A folder alone declares only the instances it
    holds, and says so."""
    instances = sorted(p.name for p in folder.iterdir() if p.is_dir())
    if not instances:
        raise GateError(f"{folder}: no instance folders "
                        "(logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json)")
    if not any((folder / name / log).is_file() for name in instances
               for log in _SWEBENCH_INSTANCE_FILES):
        raise GateError(f"{folder}: none of its {len(instances)} sub-folder(s) holds a swebench "
                        f"instance log ({', '.join(_SWEBENCH_INSTANCE_FILES)}): give "
                        "logs/run_evaluation/<run_id>/<model>/")
    for name in instances:
        _task_id(name, f"{folder}: folder {name!r}")
    if given:
        _swebench_same_run(folder, given[0])
    report = _swebench_read_report(given[0], given[1], options.dataset_ids) if given else None
    stray = set(instances).difference(report.declared) if report else set()
    if stray and given:
        raise GateError(f"{folder}: instance folders not in the run report {given[0]}: "
                        f"{_preview(stray)}")
    notes: list[str] = []
    rows: list[_Row] = []
    member = _memberships(report.lists) if report else {}
    disagree, from_report, graded = [], [], []
    folders = set(instances)
    for tid in report.declared if report else instances:
        stated = _swebench_status(report, member, tid, notes) if report else None
        if tid in folders:
            verdict, harness = _swebench_instance_report(folder, tid)
            if stated is not None and stated[0][0] != verdict[0]:
                disagree.append(tid)
        elif stated is not None:
            verdict, harness = stated[0], {**stated[1], "log_folder": None}
            if stated[1]["status_list"] in ("resolved_ids", "unresolved_ids"):
                graded.append(tid)
            from_report.append(tid)
        rows.append((tid, 1, verdict, {}, harness))
    _swebench_logs_agree(folder, graded, disagree)
    if from_report:
        notes.append(f"{len(from_report)} declared instance(s) have no log folder "
                     f"({_preview(from_report)}): each keeps the run report's verdict (swebench "
                     "writes no folder for an empty or missing patch)")
    if report:
        notes.append(_swebench_figure(report))
    elif options.dataset_ids is None:
        notes.append(f"{folder}: the declared set is the {len(instances)} instance folders found: "
                     "swebench writes no folder for an empty or missing patch, so give the run "
                     "report beside the folder (or --dataset-ids FILE) to count those too")
    return finish(_swebench_found(
        rows, report.declared if report else None,
        f"the run report {given[0].name}" if given else
        f"the {len(instances)} instance folders found in {_folder_name(folder)}/, not a declared "
        "set",
        _folder_name(_absolute(folder).parent), notes,
        {"model": _folder_name(folder).replace("__", "/")}, (), "logs",
        total=report.total if report else None,
        ungraded=_never_submitted(report.lists) if report else (),
        declare_hint="import again with the run report (<model>.<run_id>.json) beside the logs "
                     "folder, or --dataset-ids FILE",
        absent=lambda tid, _: (("unscoreable", "missing_artifact"),
                               {"format": "swebench-instance-logs", "instance_id": tid}, {})),
        options, "swebench", folder)


def _swebench_logs_agree(folder: Path, graded: Sequence[str], disagree: Sequence[str]) -> None:
    """A logs folder and its run report are one run: the report's graded instances, verdicts."""
    if graded:
        raise GateError(f"{folder}: {len(graded)} instance(s) the run report graded (resolved or "
                        f"unresolved) have no log folder here ({_preview(graded)}): swebench "
                        "writes one for every instance it runs, so the report is of another run or "
                        "the folder is incomplete; copy the whole logs folder of the report's run, "
                        "or import the report alone")
    if disagree:
        raise GateError(f"{folder}: the run report and the instance logs disagree "
                        f"on {len(disagree)} instance(s) ({_preview(disagree)}): "
                        "import the report the harness wrote for this run, "
                        "unedited (or the logs folder alone, with --dataset-ids)")


_SWEBENCH_INSTANCE_FILES = ("report.json", "test_output.txt", "run_instance.log", "patch.diff")


def _swebench_same_run(folder: Path, report: Path) -> None:
    """A logs folder (logs/run_evaluation/<run_id>/<model>/) and a run report
    (<model>.<run_id>.json, as the harness names it) are of one run: where both names say which,
    they must agree."""
    if "." not in report.stem:
        return
    model, run = report.stem.rsplit(".", 1)
    here = _absolute(folder)
    if (model, run) != (here.name, here.parent.name):
        raise GateError(f"{report}: the report of model {model!r}, run {run!r}; the logs folder "
                        f"{folder} is of model {here.name!r}, run {here.parent.name!r}: give the "
                        "report and the logs of one run")


# -- Inspect AI -----------------------------------------------------

_INSPECT_STATUSES = ("started", "success", "cancelled", "error")
_INSPECT_CANCELLED = ("CancelledError(", "Cancelled(")  # inspect_ai/_util/error.py
_STDLIB_ZIP_METHODS = {0, 8, 12, 14}  # stored, deflated, bzip2, lzma
_ZSTD_METHOD = 93


def _convert_hint(path: Path) -> str:
    return f"inspect log convert --to json --output-dir DIR {path}"


def _read_eval_zip(path: Path) -> tuple[dict[str, object], list[dict[str, object]]]:
    """(header, samples) from a .eval archive; zstd members are read where this Python's zipfile can
    (3.14+: the standard library only, never a package the gate would depend on)."""
    import zipfile  # deferred, like every import the check path does not need: start-up is budgeted

    supported = set(_STDLIB_ZIP_METHODS)
    native_zstd = getattr(zipfile, "ZIP_ZSTANDARD", None)
    if isinstance(native_zstd, int):
        supported.add(native_zstd)
    with open_input(path) as handle:
        try:
            archive = zipfile.ZipFile(handle)
        except (OSError, zipfile.BadZipFile) as exc:
            raise GateError(f"{path}: cannot open .eval archive: {exc}") from None
        return _read_eval_members(path, archive, supported)


def _read_eval_members(path: Path, archive: Any,
                       supported: set[int]) -> tuple[dict[str, object], list[dict[str, object]]]:
    with archive:
        infos = {info.filename: info for info in archive.infolist()}
        for info in infos.values():
            if info.compress_type not in supported:
                what = ("zstd" if info.compress_type == _ZSTD_METHOD
                        else f"method {info.compress_type}")
                hint = " (Python 3.14 reads it; or" if info.compress_type == _ZSTD_METHOD else " ("
                raise GateError(
                    f"{path}: {info.filename}: compressed with {what}, which Python "
                    f"{sys.version_info.major}.{sys.version_info.minor} cannot read{hint} convert "
                    f"it with `{_convert_hint(path)}` and import DIR/{path.stem}.json)"
                )

        def member(name: str) -> object:
            info = infos[name]
            # declared before inflating; nothing reads past it
            if info.file_size > MAX_HARNESS_BYTES:
                raise GateError(f"{path}: {name}: declares {info.file_size:,} bytes uncompressed, "
                                f"more than the gate reads ({MAX_HARNESS_BYTES:,})")
            try:
                data = archive.read(name)
            # zlib.error, lzma.LZMAError, EOFError, BadZipFile...: it did not inflate
            except Exception as exc:
                raise GateError(f"{path}: {name}: cannot read ({exc}); convert with "
                                f"`{_convert_hint(path)}`") from None
            return parse_json(_decode_utf8(data, f"{path}: {name}"), f"{path}: {name}",
                              allow_nan=True)

        if "header.json" in infos:
            header = _obj(member("header.json"), f"{path}: header.json")
        elif "_journal/start.json" in infos:
            # The eval never finished: only the start journal was written.
            header = dict(_obj(member("_journal/start.json"), f"{path}: _journal/start.json"))
            header.setdefault("status", "started")
        else:
            raise GateError(f"{path}: neither header.json nor _journal/start.json in the archive")
        samples: list[dict[str, object]] = []
        for name in sorted(infos):
            parts = name.split("/")
            # monolith samples/{id}_epoch_{n}.json, chunked samples/{id}_epoch_{n}/sample.json
            if parts[0] == "samples" and (
                (len(parts) == 2 and parts[1].endswith(".json"))
                or (len(parts) == 3 and parts[2] == "sample.json")
            ):
                samples.append(_obj(member(name), f"{path}: {name}"))
    return header, samples


class _InspectLog(NamedTuple):
    path: Path
    header: dict[str, object]
    samples: list[dict[str, object]]
    fmt: str


def _inspect_log(path: Path) -> _InspectLog:
    """One log: a .eval archive or a JSON log (NaN allowed: Inspect writes it)."""
    import zipfile

    where = str(path)
    if path.suffix == ".eval" or (path.is_file() and zipfile.is_zipfile(path)):
        header, samples = _read_eval_zip(path)
        return _InspectLog(path, header, samples, "inspect-eval")
    header = _harness_json(path, allow_nan=True)
    raw = header.get("samples")
    samples = [] if raw is None else [_obj(item, f"{where}.samples[{i}]")
                                      for i, item in enumerate(_list(raw, f"{where}.samples"))]
    return _InspectLog(path, header, samples, "inspect-json")


def _inspect_files(folder: Path) -> list[Path]:
    """A folder's logs, sub-folders' included; an eval set's eval-set.json and logs.json are not."""
    return sorted(p for p in folder.rglob("*") if p.is_file() and (
        p.suffix == ".eval" or (p.suffix == ".json" and p.name not in ("eval-set.json",
                                                                       "logs.json"))))


def _inspect_logs(paths: Sequence[Path], notes: list[str]
                  ) -> tuple[list[_InspectLog], list[tuple[Path, dict[str, Any]]]]:
    """Every log given (a folder's too), and each eval set's eval-set.json."""
    files: list[Path] = []
    sets: list[tuple[Path, dict[str, Any]]] = []
    for path in paths:
        if path.is_file() and path.name in ("eval-set.json", "logs.json"):
            if path.name == "eval-set.json":
                sets.append((path, _harness_json(path)))
            # an eval set's own files, not logs (a shell glob of the folder names them too)
            continue
        if path.is_dir():
            found = _inspect_files(path)
            if not found:
                raise GateError(f"{path}: a folder with no Inspect log in it (.json or .eval, "
                                "sub-folders included)")
            files.extend(found)
            shown = [p.relative_to(path).as_posix() for p in found]
            notes.append(f"{path}: read {len(found)} log(s): {', '.join(shown[:10])}"
                         + (f", ... ({len(found)} in all)" if len(found) > 10 else ""))
            sets.extend((p, _harness_json(p))
                        for p in sorted(path.rglob("eval-set.json")) if p.is_file())
        else:
            files.append(path)
    logs = [_inspect_log(path) for path in files]
    # a log of an eval set given as a file: the set's eval-set.json beside it still governs
    for log in logs:
        beside = log.path.parent / "eval-set.json"
        set_id = _sub(log.header.get("eval")).get("eval_set_id")
        if set_id and beside.is_file() and all(p != beside for p, _ in sets):
            data = _harness_json(beside)
            if data.get("eval_set_id") == set_id:
                sets.append((beside, data))
    if not logs:
        raise GateError(f"{paths[0]}: no Inspect log among the files given "
                        "(eval-set.json and logs.json are an eval set's own "
                        "files): give the logs, or the eval set's folder")
    return logs, sets


def _inspect_system(log: _InspectLog) -> tuple[str, str]:
    """The system a log measured: its model and the model's arguments."""
    spec = _sub(log.header.get("eval"))
    args = spec.get("model_args")
    return str(spec.get("model")), canonical_json(args).decode("utf-8") if args else ""


def _differing_args(logs: Sequence[_InspectLog]) -> str:
    """Where logs' task_args differ: each log with the keys whose values differ (not a cut of the
    whole, which can read the same for both)."""
    args = [_sub(_sub(log.header.get("eval")).get("task_args")) for log in logs]
    keys = sorted({key for a in args for key in a
                   if any(canonical_json(a.get(key)) != canonical_json(b.get(key)) for b in args)})
    return " and ".join(f"{log.path.name} (" + ", ".join(
        f"{key}={canonical_json(a[key]).decode('utf-8')[:60]}" if key in a else f"{key} not set"
        for key in keys) + ")" for log, a in zip(logs, args))


def _inspect_one_system(logs: list[_InspectLog], model: str | None,
                        notes: list[str]) -> list[_InspectLog]:
    """The logs of one model (with one set of model arguments): --model chooses it where the logs
    hold several; logs of several are otherwise refused, naming them."""
    if model is not None:
        chosen = [log for log in logs if _inspect_system(log)[0] == model]
        if not chosen:
            models = sorted({_inspect_system(log)[0] for log in logs})
            raise GateError(f"import inspect --model {model}: no log of that model; the logs hold "
                            f"{', '.join(models)}")
        if len(chosen) < len(logs):
            notes.append(f"--model {model}: {len(chosen)} of {len(logs)} logs imported; the others "
                         "are other models'")
        logs = chosen
    systems: dict[tuple[str, str], list[_InspectLog]] = {}
    for log in logs:
        systems.setdefault(_inspect_system(log), []).append(log)
    if len(systems) > 1:
        shown = "; ".join(f"{name}" + (f" with model_args {args[:80]}" if args else "") + f" ({len(group)} log(s), "
                          f"e.g. {group[0].path.name})"
                          for (name, args), group in sorted(systems.items()))
        how = ("one claim per model: import with --model "
               "MODEL once per model, and compare the claims"
               if len({name for name, _ in systems}) > 1 else
               "one claim per configuration: import the logs "
               "of each model_args apart (one folder each)")
        raise GateError(f"import inspect: the logs measured different systems ({shown}): {how}")
    return logs


def _inspect_created(log: _InspectLog) -> tuple[float, str]:
    """When a log was created, as a point in time, then its file name."""
    from datetime import datetime, timezone

    text = str(_sub(log.header.get("eval")).get("created") or "")
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=timezone.utc)
        return moment.timestamp(), log.path.name
    except ValueError:
        return float("-inf"), log.path.name


def _inspect_choose(logs: list[_InspectLog], notes: list[str]) -> tuple[list[_InspectLog],
                                                                        list[str]]:
    """One log per task. An errored, cancelled or unfinished log followed by a later one of the same
    task, model and arguments is a retry (Inspect's eval-set retry) and is replaced by it; two
    finished logs of one task are two runs, and refused: which one is the claim is the user's to
    say, never the gate's."""
    by_task: dict[str, list[_InspectLog]] = {}
    for log in logs:  # by the task's own name: two names that read as one id are two tasks
        by_task.setdefault(_inspect_task_raw(log), []).append(log)
    ids: dict[str, str] = {}
    for task in sorted(by_task):
        other = ids.setdefault(task.replace("/", "-"), task)
        if other != task:
            raise GateError(f"import inspect: tasks {other!r} and {task!r} both read as task id "
                            f"{task.replace('/', '-')!r}: two tasks, not a task and its retry; "
                            "import each apart")
    chosen, replaced = [], []
    for task, group in sorted(by_task.items()):
        configs = {canonical_json(_sub(log.header.get("eval")).get("task_args") or {}): log
                   for log in group}
        if len(configs) > 1:
            raise GateError(f"import inspect: task {task!r} ran with different task_args in "
                            f"{_differing_args(list(configs.values()))}: two configurations, not "
                            "one claim; import each apart")
        group.sort(key=_inspect_created)
        finished = [log for log in group if log.header.get("status") == "success"]
        if len(finished) > 1:
            raise GateError(f"import inspect: task {task!r} has {len(finished)} finished logs "
                            f"({finished[0].path} and {finished[1].path}): two runs of one task, "
                            "not a retry; import the one the claim is about (move the other out of "
                            "the folder), or each as a claim of its own")
        if finished and finished[0] is not group[-1]:
            raise GateError(f"import inspect: task {task!r}: {group[-1].path.name} (status "
                            f"{group[-1].header.get('status')}) was written after the finished "
                            f"{finished[0].path.name}: a retry comes after the log it replaces; "
                            "import the one the claim is about")
        best = group[-1]
        chosen.append(best)
        for old in group[:-1]:
            replaced.append(f"{old.path.name} (status {old.header.get('status')}) replaced by its "
                            f"retry {best.path.name}")
    for line in replaced:
        notes.append(f"task retried: {line}")
    return chosen, replaced


def _inspect_set_check(sets: list[tuple[Path, dict[str, Any]]], logs: list[_InspectLog],
                       model: str | None) -> None:
    """An eval set's eval-set.json names every task it was to run: each one needs its log."""
    have = {str(_sub(log.header.get("eval")).get("task_id")) for log in logs}
    for path, data in sets:
        for i, raw in enumerate(_list(data.get("tasks", []), f"{path}.tasks")):
            task = _obj(raw, f"{path}.tasks[{i}]")
            if model is not None and task.get("model") != model:
                continue
            if str(task.get("task_id")) not in have:
                raise GateError(
                    f"{path}: the eval set's task {task.get('name')!r} (task_id "
                    f"{task.get('task_id')}, model {task.get('model')}) has no log here: its "
                    "samples cannot be named, so it cannot be counted; finish the set (`inspect "
                    f"eval-set` again on {path.parent}) or copy its log beside the others")


def _inspect_headline(header: dict[str, object], where: str) -> str | None:
    """The headline score's name: results.headline, results.scores[0], else the first scorer."""
    results = header.get("results")
    if isinstance(results, dict):
        headline = results.get("headline")
        if isinstance(headline, dict) and isinstance(headline.get("score"), str):
            return str(headline["score"])
        scores = results.get("scores")
        if isinstance(scores, list) and scores:
            return _str(_obj(scores[0], f"{where}.results.scores[0]").get("name"),
                        f"{where}.results.scores[0].name")
    spec = _obj(header.get("eval"), f"{where}.eval")
    scorers = spec.get("scorers")
    if isinstance(scorers, list) and scorers:
        return _str(_obj(scorers[0], f"{where}.eval.scorers[0]").get("name"),
                    f"{where}.eval.scorers[0].name")
    return None


def _sample_id(value: object, where: str) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        _expected(where, "an integer or a string", value)
    return _task_id(str(value), where)


def _inspect_selection(config: dict[str, object]) -> str | None:
    """How a run chose part of its dataset, as its command line said (`--limit 10`)."""
    limit, ids = config.get("limit"), config.get("sample_id")
    if ids is not None:
        shown = ",".join(str(i) for i in ids) if isinstance(ids, list) else str(ids)
        return f"--sample-id {shown[:200]}"
    if isinstance(limit, list) and len(limit) == 2:
        return f"--limit {limit[0] + 1 if isinstance(limit[0], int) else limit[0]}-{limit[1]}"
    if limit is not None:
        return f"--limit {limit}"
    return None


def _inspect_declared(log: _InspectLog, config: dict[str, object],
                      where: str) -> tuple[list[str], int | None]:
    """The samples this run was to run (eval.dataset.sample_ids; ints and strings alike become
    strings), and the size of the whole dataset they were chosen from (eval.dataset.samples)."""
    dataset = _obj(_obj(log.header.get("eval"), f"{where}.eval").get("dataset"),
                   f"{where}.eval.dataset")
    full = dataset.get("samples") if _is_int(dataset.get("samples")) else None
    raw_ids = dataset.get("sample_ids")
    if raw_ids is not None:
        declared = [_sample_id(sid, f"{where}.eval.dataset.sample_ids[{i}]")
                    for i, sid in enumerate(_list(raw_ids, f"{where}.eval.dataset.sample_ids"))]
        if len(set(declared)) != len(declared):
            raise GateError(f"{where}.eval.dataset.sample_ids: ids collide once turned into "
                            "strings")
        logged = {_sample_id(s.get("id"), f"{where}.samples[].id") for s in log.samples}
        if logged and not logged & set(declared):
            raise GateError(f"{where}: eval.dataset.sample_ids ({_preview(declared, 3)}) name none "
                            f"of the {len(logged)} logged samples ({_preview(logged, 3)}): the log "
                            "does not say which samples it declared (the R package vitals writes "
                            "row numbers there), so it cannot be gated sample by sample; write the "
                            "log with inspect_ai itself")
        return declared, cast("int | None", full)
    observed = sorted({_sample_id(s.get("id"), f"{where}.samples[].id") for s in log.samples})
    limit = config.get("limit")
    if (full is not None and full == len(observed)) or (_is_int(limit) and limit == len(observed)):
        # the logged ids are every sample, or every one the limit allowed
        return observed, cast("int | None", full)
    raise GateError(
        f"{where}: eval.dataset.sample_ids: missing, and neither eval.dataset.samples ({full!r}) "
        f"nor eval.config.limit ({limit!r}) matches the {len(observed)} sample ids in the log; "
        "cannot name the declared samples")


def _inspect_by_key(samples: list[dict[str, object]], declared: set[str], epochs: int,
                    where: str) -> dict[tuple[str, int], dict[str, object]]:
    """Each logged sample under its (sample id, epoch); one outside the declared set is refused."""
    by_key: dict[tuple[str, int], dict[str, object]] = {}
    for i, sample in enumerate(samples):
        swhere = f"{where}.samples[{i}]"
        tid = _sample_id(sample.get("id"), f"{swhere}.id")
        epoch = _int(sample.get("epoch", 1), f"{swhere}.epoch")
        if tid not in declared:
            raise GateError(f"{swhere}.id: {tid!r} is not in eval.dataset.sample_ids")
        if not 1 <= epoch <= epochs:
            raise GateError(f"{swhere}.epoch: {epoch} outside 1..{epochs} (eval.config.epochs)")
        if (tid, epoch) in by_key:
            raise GateError(f"{swhere}: duplicate sample id {tid!r} epoch {epoch}")
        by_key[(tid, epoch)] = sample
    return by_key


def _score_keys(sample: dict[str, object]) -> set[str]:
    scores = sample.get("scores")
    return set(scores) if isinstance(scores, dict) else set()


def _raises_timeout(line: str) -> bool:
    """Is this traceback line a TimeoutError's (string operations: one linear scan)?"""
    name = line.lstrip(" \t|+").split(":", 1)[0]
    return name.endswith("TimeoutError") and re.fullmatch(r"[\w.]+", name) is not None


def _inspect_error_reason(error: dict[str, object], limit: object, where: str) -> tuple[str, str]:
    message = _str(error.get("message"), f"{where}.error.message")
    traceback = error.get("traceback")
    if message.startswith(_INSPECT_CANCELLED):
        return "cancelled", message
    exc_name = message.split("(", 1)[0]
    timed_out = exc_name.endswith("TimeoutError")
    # Sandbox timeouts are re-raised as RuntimeError(str(ex)): the TimeoutError is in the traceback.
    if isinstance(traceback, str) and any(map(_raises_timeout, traceback.splitlines())):
        timed_out = True
    if isinstance(limit, dict) and limit.get("type") in ("time", "working"):
        timed_out = True
    return ("harness_timeout" if timed_out else "env_flake"), message


def _inspect_value_outcome(value: object, partial_as: str, threshold: float, where: str) -> Verdict:
    if isinstance(value, bool):
        return ("pass" if value else "fail"), None
    if _is_number(value):
        number = cast(float, value)
        if not math.isfinite(number):  # Score.unscored() is NaN: the scorer gave no verdict
            return "unscoreable", "grader_error"
        return ("pass" if number >= threshold else "fail"), None
    if isinstance(value, str):
        if value == "C":
            return "pass", None
        if value in ("I", "N"):
            return "fail", None
        if value == "P":
            return partial_as, None
    raise GateError(f"{where}: score value {value!r} is not C/I/P/N, a boolean or a number")


def _inspect_measures(sample: dict[str, object]) -> dict[str, object]:
    """The sample's wall clock (total_time, s) and its tokens summed over the models it used."""
    measures: dict[str, object] = {}
    seconds = sample.get("total_time")
    if _is_number(seconds) and 0 <= cast(float, seconds) < 1e9:
        measures["wall_clock_s"] = round(float(cast(float, seconds)), 3)
    usage = sample.get("model_usage")
    if isinstance(usage, dict) and usage:
        totals = [0, 0]
        for model in usage.values():
            if not isinstance(model, dict):
                return measures
            for index, key in enumerate(("input_tokens", "output_tokens")):
                count = _count_field(model.get(key))
                if count is None:
                    return measures
                totals[index] += count
        measures.update(input_tokens=totals[0], output_tokens=totals[1])
    return measures


def _inspect_attempt(found: dict[str, object], headline: str | None, options: ImportOptions,
                     where: str) -> tuple[Verdict, dict[str, object]]:
    """One sample x epoch the log holds: its verdict, and what the log says beside it."""
    # (the sample id as the log has it, an int or a string)
    harness: dict[str, object] = {"sample_id": found.get("id"), **_kept(found, ("uuid", "limit"))}
    error = found.get("error")
    if error is not None:
        reason, message = _inspect_error_reason(_obj(error, f"{where}.error"), found.get("limit"),
                                                where)
        harness["error"] = message[:500]
        return ("unscoreable", reason), harness
    scores = found.get("scores")
    score = _obj(scores, f"{where}.scores").get(str(headline)) if scores is not None else None
    harness["scorer"] = headline
    if score is None:
        harness["score_value"] = None
        return ("unscoreable", "grader_error"), harness
    value = _obj(score, f"{where}.scores.{headline}").get("value")
    harness["score_value"] = (value if not (isinstance(value, float) and math.isnan(value))
                              else "NaN")
    return _inspect_value_outcome(value, options.partial_as, options.threshold,
                                  f"{where}.scores.{headline}.value"), harness


def _inspect_envelope(spec: dict[str, object], config: dict[str, object],
                      epochs: int) -> dict[str, object]:
    """The instrument as the log records it: inspect_ai's version, the task, its limits, the
    sandbox (runner), the task repository's commit (toolchain) and the time_limit."""
    sandbox = spec.get("sandbox")
    kind = (sandbox[0] if isinstance(sandbox, list) and sandbox
            else _sub(sandbox).get("type") or sandbox)
    commit = _sub(spec.get("revision")).get("commit")
    # (task_file, a path on the machine that ran it, is provenance)
    return {"harness": _inspect_instrument(spec).get("version", "inspect_ai"),
            **_kept(spec, ("task", "task_version")), "epochs": epochs,
            **_kept(config, ("time_limit", "working_limit", "message_limit", "token_limit",
                             "cost_limit")),
            "runner": (f"inspect_ai sandbox {kind}" if isinstance(kind, str) and kind
                       else "inspect_ai (no sandbox)"),
            **({"toolchain_sha": commit} if isinstance(commit, str) and commit else {}),
            **({"wall_clock_s_per_task": config["time_limit"]}
               if _is_number(config.get("time_limit")) else {})}


def _inspect_instrument(spec: dict[str, object]) -> dict[str, str]:
    """The inspect_ai release a log was written by."""
    return _version("inspect_ai", _sub(spec.get("packages")).get("inspect_ai"))


def _inspect_model(header: dict[str, object]) -> dict[str, object]:
    """The system an Inspect log measured: its agent (the solver: eval.solver, else the plan's
    steps), its model, and the model's arguments where any were given."""
    spec = _sub(header.get("eval"))
    args = spec.get("model_args")
    steps = _sub(header.get("plan")).get("steps")
    plan = [str(_sub(step).get("solver")) for step in steps if _sub(step).get("solver")] \
        if isinstance(steps, list) else []
    solver = spec.get("solver")
    agent = f"{' -> '.join(plan)} (Inspect solver plan)" if plan else None
    if isinstance(solver, str) and solver:
        agent = f"{solver} (Inspect solver)"
    # ("none/none" is Inspect's model when a task calls none: the draft asks what was measured)
    model = spec.get("model") if spec.get("model") not in (None, "", "none/none") else None
    return {**({"agent": agent} if agent else {}), **({"model": model} if model else {}),
            **({"model_args": args} if args else {})}


def _inspect_headline_checked(log: _InspectLog, by_key: Mapping[tuple[str, int], dict[str, object]],
                              where: str) -> str | None:
    headline = _inspect_headline(log.header, where)
    if headline is None:
        # No results and no declared scorers: accept a single score key.
        keys = {k for s in by_key.values() for k in _score_keys(s)}
        if len(keys) == 1:
            headline = next(iter(keys))
    scored = [s for s in by_key.values() if s.get("error") is None]
    results = log.header.get("results")
    if (scored and not any(_score_keys(s) for s in scored) and isinstance(results, dict)
            and results.get("scores") == []):
        raise GateError(f"{where}: scoring was deferred (inspect eval --no-score): run `inspect "
                        f"score {log.path}` first, then import the scored log")
    # A wrong headline name must not turn every sample into grader_error.
    if scored and not any(headline in _score_keys(s) for s in scored):
        raise GateError(f"{where}: no sample carries the headline score {headline!r}")
    return headline


def _stated_figure(header: dict[str, object]) -> str:
    """The log's own figure, as Inspect states it: the headline scorer's first metric, whatever it
    is called (results.scores[0].metrics: accuracy, mean, ...)."""
    results = header.get("results")
    scores = results.get("scores") if isinstance(results, dict) else None
    if not isinstance(scores, list) or not scores or not isinstance(scores[0], dict):
        return f"none stated (status {header.get('status')}, no results)"
    metrics = scores[0].get("metrics")
    named = [(str(key), _sub(value).get("value"))
             for key, value in metrics.items()] if isinstance(metrics, dict) else []
    numbers = [(key, value) for key, value in named if _is_number(value)]
    if not numbers:
        return f"none stated (scorer {scores[0].get('name')!r} has no numeric metric)"
    key, value = next(((k, v) for k, v in numbers if k == "accuracy"), numbers[0])
    scored = scores[0].get("scored_samples")
    return f"{key} {value:g}" + (f" over {scored} scored sample(s), "
                                 "errored and NaN samples left out"
                                 if _is_int(scored) else "")


class _InspectPart(NamedTuple):
    """One log's contribution: its rows, run, declared ids, epochs, and what it says of itself."""

    rows: list[_Row]
    run_id: str
    status: object  # the log's status
    declared: list[str]
    epochs: int
    full: int | None  # the whole dataset's size
    selection: str | None
    spec: dict[str, object]
    config: dict[str, object]
    notes: list[str]


def _inspect_part(log: _InspectLog, options: ImportOptions, prefix: str) -> _InspectPart:
    where = str(log.path)
    status = log.header.get("status")
    if status not in _INSPECT_STATUSES:
        raise GateError(f"{where}: status: expected one of "
                        f"{', '.join(_INSPECT_STATUSES)}, got {status!r}")
    spec = _obj(log.header.get("eval"), f"{where}.eval")
    config = _obj(spec.get("config", {}), f"{where}.eval.config")
    if not log.samples and (status == "success" or log.header.get("results") is not None):
        raise GateError(f"{where}: the log holds no samples at all (written "
                        "without sample logging?): its figure cannot be "
                        "checked sample by sample; re-run with sample logging")
    epochs = 1 if config.get("epochs") is None else _int(config.get("epochs"),
                                                         f"{where}.eval.config.epochs", 1)
    if epochs > MAX_ATTEMPT_BUDGET:
        _expected(f"{where}.eval.config.epochs", f"at most {MAX_ATTEMPT_BUDGET:,} epochs", epochs)
    declared, full = _inspect_declared(log, config, where)
    if len(declared) * epochs > MAX_IMPORTED_ATTEMPTS:
        raise GateError(f"{where}: declares {len(declared):,} samples x {epochs:,} epochs, more "
                        f"attempts than the gate imports ({MAX_IMPORTED_ATTEMPTS:,})")
    by_key = _inspect_by_key(log.samples, set(declared), epochs, where)
    headline = _inspect_headline_checked(log, by_key, where)
    run_id = _str(spec.get("run_id") or spec.get("eval_id") or log.path.stem,
                  f"{where}.eval.run_id")
    rows: list[_Row] = []
    for (tid, epoch), found in sorted(by_key.items()):
        verdict, extra = _inspect_attempt(found, headline, options, f"{where}: sample "
                                                                    f"{tid!r} epoch {epoch}")
        own: dict[str, object] = {"format": log.fmt, "sample_id": tid, "epoch": epoch,
                                  "log_status": status, **extra,
                                  **({"task": prefix} if prefix else {})}
        measures: dict[str, object] = {"stratum": prefix} if prefix else {}
        measures.update(_inspect_measures(found))
        rows.append((f"{prefix}/{tid}" if prefix else tid, epoch, verdict, measures, own))
    notes = [f"{where}: log status is {status!r}; absent samples imported as "
             "missing_artifact"] if status != "success" else []
    notes.append(f"{where}: the log's own figure: {_stated_figure(log.header)}")
    return _InspectPart(rows, run_id, status, [f"{prefix}/{t}" if prefix else t for t in declared],
                        epochs, full,
                        (_inspect_selection(config)
                         if full is not None and full > len(declared) else None),
                        spec, config, notes)


def import_inspect(options: ImportOptions) -> Imported:
    """Import Inspect AI logs: one attempt per declared sample x epoch. Several logs (an eval set,
    or a folder) are one claim, each task a stratum and its samples named `<task>/<id>`."""
    if options.partial_as not in ("pass", "fail"):
        raise GateError(f"--partial-as: expected pass or fail, got {options.partial_as!r}")
    notes: list[str] = []
    found, sets = _inspect_logs(options.files, notes)
    logs, replaced = _inspect_choose(_inspect_one_system(found, options.model, notes), notes)
    _inspect_set_check(sets, logs, options.model)
    many = len(logs) > 1
    parts = [_inspect_part(log, options, _inspect_task_name(log) if many else "") for log in logs]
    epochs = {part.epochs for part in parts}
    if len(epochs) > 1:
        raise GateError("import inspect: the logs ran different epochs "
                        f"({', '.join(map(str, sorted(epochs)))}): their samples are not one "
                        "attempt contract; import them separately")
    first = parts[0]
    run_id, shared = _inspect_run(parts, notes)
    for part in parts:
        notes.extend(part.notes)
    whole = sum(part.full if part.full is not None else len(part.declared) for part in parts)
    subset = _subset([p.selection for p in parts if p.selection],
                     f"{sum(len(p.declared) for p in parts)} of {whole} samples", notes,
                     "samples", of=whole)
    names = [str(_sub(part.spec.get("dataset")).get("name") or part.spec.get("task"))
             for part in parts]
    runs = {tid: part.run_id for part in parts for tid in part.declared}
    envelope = _inspect_envelope(first.spec, first.config, first.epochs)
    if many:
        envelope = {**{k: v for k, v in envelope.items()
                       if k not in ("task", "task_version", "task_file")},
                    "tasks": [str(part.spec.get("task")) for part in parts]}
    return finish(Found(
        [row for part in parts for row in part.rows], True, first.epochs,
        str(envelope.pop("harness")), "",
        declared=[t for part in parts for t in part.declared],
        declared_from="each log's eval.dataset.sample_ids" + (" and the eval set's eval-set.json"
                                                               if sets else ""),
        extra_reasons=("cancelled",), run_id=run_id, dataset_name=" + ".join(names),
        envelope=envelope, measured=_inspect_model(logs[0].header),
        instrument=_inspect_instrument(first.spec),
        run_instruments=tuple((str(log.path), _inspect_instrument(part.spec))
                              for log, part in zip(logs, parts)) if many else (),
        timeout_note="Inspect's --time-limit is per sample and this run set none: give the longest "
                     "a sample was allowed (each record's wall_clock_s is its total_time)",
        rerun_hint=("inspect eval "
                    f"{first.spec.get('task_file') or '<task file>'}@{first.spec.get('task')} "
                    f"--model {first.spec.get('model')} --epochs {first.epochs}") if not many else
        f"inspect eval-set ... --model {first.spec.get('model')} --epochs {first.epochs}",
        notes=tuple(notes), subset=subset, subset_unit="samples",
        strata={_inspect_task_name(log): len(part.declared)
                for log, part in zip(logs, parts)} if many else None,
        provenance={**({"replaced": replaced} if replaced else {}),
                    **({"verdict_mapping": [f"--model {options.model}: only that model's logs of "
                                            "the files given"]} if options.model else {})},
        absent=_inspect_absent(logs, parts),
        run_of=None if shared else lambda tid, _: runs.get(tid, run_id)),
        options, "inspect", logs[0].path)


def _inspect_run(parts: Sequence[_InspectPart], notes: list[str]) -> tuple[str, str | None]:
    """The run the logs make, and the eval set's id when they are one: an eval set's logs share its
    eval_set_id, which names the run they make together; other logs keep their own run ids (never
    relabelled: logs of separate runs are separate runs, and check says so)."""
    set_ids = {str(part.spec.get("eval_set_id") or "") for part in parts}
    run_ids = {part.run_id for part in parts}
    shared = next(iter(set_ids)) if len(parts) > 1 and len(set_ids) == 1 and "" not in set_ids \
        else None
    if shared:
        return shared, shared
    if len(run_ids) > 1:
        notes.append(f"the logs come from {len(run_ids)} runs ({', '.join(sorted(run_ids))}), not "
                     "one eval set: each record keeps its log's run_id, and check asks which run "
                     "the claim is about")
    return (next(iter(run_ids)) if len(run_ids) == 1 else "+".join(sorted(run_ids))), None


def _inspect_absent(logs: Sequence[_InspectLog], parts: Sequence[_InspectPart]) -> _Absent:
    """What a declared sample x epoch a log lacks reads as: missing_artifact, in its log's task."""
    many = len(logs) > 1
    whose = {tid: (log, part, _inspect_task_name(log) if many else "")
             for log, part in zip(logs, parts) for tid in part.declared}

    def absent(tid: str, epoch: int) -> tuple[Verdict, dict[str, object], dict[str, object]]:
        if tid not in whose:  # declared by --dataset-ids alone: in no log
            return ("unscoreable", "missing_artifact"), {"sample_id": tid, "epoch": epoch}, {}
        log, part, prefix = whose[tid]
        own: dict[str, object] = {"format": log.fmt, "sample_id": tid[len(prefix) + 1:] if prefix
                                  else tid, "epoch": epoch, "log_status": part.status,
                                  **({"task": prefix} if prefix else {})}
        return ("unscoreable", "missing_artifact"), own, {"stratum": prefix} if prefix else {}

    return absent


def _inspect_task_raw(log: _InspectLog) -> str:
    spec = log.header.get("eval")
    return str(spec.get("task")) if isinstance(spec, dict) and spec.get("task") else log.path.stem


def _inspect_task_name(log: _InspectLog) -> str:
    return _inspect_task_raw(log).replace("/", "-")


# -- Terminal-Bench 1.x (`tb run`) ----------------------------------

# `<task>.N-of-M`, or `<task>.N-of-M.<run_id>` from terminal-bench 0.2.10 on. The digits are
# bounded, so the match is linear and int() never meets a 5,000-digit number.
_TRIAL_SUFFIX = r"\.(?P<n>[0-9]{1,6})-of-(?P<m>[0-9]{1,6})(?:\.(?P<run>.+))?$"
# FailureMode values (terminal_bench/agents/failure_mode.py) for trials with is_resolved null: the
# tests timed out, their output could not be parsed, or the harness itself raised; anything else,
# incl. "unset"/"none"/"unknown", is missing_artifact. An agent's own failure with tests that still
# ran (agent_timeout, context_length_exceeded, ...) keeps its true/false verdict.
_TB_NULL_REASONS = {
    "test_timeout": "harness_timeout",
    "agent_timeout": "harness_timeout",  # the tests then timed out too
    "parse_error": "grader_error",
    "unknown_agent_error": "env_flake",
    "agent_installation_failed": "env_flake",
}


def parse_trial_name(name: str) -> tuple[str, int, int, str | None] | None:
    """(task part, attempt N, of M, run id or None) of a Terminal-Bench trial name, or None."""
    match = None
    # the first: a run id may hold dots
    for found in re.finditer(r"\.[0-9]{1,6}-of-[0-9]{1,6}(?=\.|$)", name):
        match = re.compile(_TRIAL_SUFFIX).match(name, found.start())
        if match is not None:
            break
    if match is None or match.start() == 0:
        return None
    return name[:match.start()], int(match.group("n")), int(match.group("m")), match.group("run")


def _terminal_bench_attempt(trial: Mapping[str, object]) -> Verdict:
    """One trial: is_resolved true/false, or null with the failure mode that says why. A trial whose
    agent never installed is no verdict on the agent, even where the harness wrote false."""
    resolved = trial.get("is_resolved")
    mode = str(trial.get("failure_mode", "unset"))
    if resolved is True:
        return "pass", None
    if resolved is False:
        return ("unscoreable",
                "env_flake") if mode == "agent_installation_failed" else ("fail", None)
    return "unscoreable", _TB_NULL_REASONS.get(mode, "missing_artifact")


class _TbRun(NamedTuple):
    results_path: Path
    results: dict[str, object]
    meta_path: Path | None
    meta: dict[str, object]
    # tb.lock beside it (terminal-bench 0.2.x): the agent's kwargs, the command line
    lock: dict[str, object]


def _tb_system(run: _TbRun) -> tuple[dict[str, object], str]:
    """The system a run measured (run_metadata, else tb.lock), and as a refusal names it."""
    lock = _sub(run.lock.get("agent"))
    args = run.meta.get("agent_kwargs") or lock.get("extra_kwargs") or {}
    kwargs = canonical_json(args).decode("utf-8") if args else ""
    agent = str(run.meta.get("agent_name") or lock.get("name") or "?")
    model = str(run.meta.get("model_name") or lock.get("model_name") or "?")
    return ({**{key: value for key, value in (("agent", agent), ("model", model)) if value != "?"},
             **({"agent_kwargs": json.loads(kwargs)} if kwargs else {})},
            f"agent {agent.replace('?', '(not named)')}, model {model.replace('?', '(not named)')}"
            + (f", kwargs {kwargs[:80]}" if kwargs else ""))


def _tb_selection(run: _TbRun) -> str | None:
    """How a run chose part of its dataset, as `tb run` recorded it (--task-id, --n-tasks)."""
    parts = []
    args = _sub(run.lock.get("invocation")).get("args")
    given = [str(a).split("=", 1)[0] for a in args] if isinstance(args, list) else []
    if "--task-id" in given or "-t" in given:
        parts.append("--task-id (tasks named on the command line)")
    excluded = run.meta.get("exclude_task_ids")
    if isinstance(excluded, list) and excluded:
        parts.append(f"--exclude-task-id {','.join(map(str, excluded))[:200]}")
    elif "--exclude-task-id" in given or "-e" in given:
        parts.append("--exclude-task-id (on the command line)")
    if run.meta.get("n_tasks") is not None:
        parts.append(f"--n-tasks {run.meta.get('n_tasks')}")
    elif "--n-tasks" in given:
        parts.append("--n-tasks (on the command line)")
    return "; ".join(parts) or None


def _tb_results_file(folder: Path) -> Path:
    """A run folder's results file: results.json, or the one `<anything>results.json` at its top."""
    if (folder / "results.json").is_file():
        return folder / "results.json"
    found = sorted(p for p in folder.iterdir() if p.is_file() and p.name.endswith("results.json"))
    if len(found) != 1:
        packed = sorted(p.name for p in folder.iterdir()
                        if p.name.endswith(("results.json.gz", "results.json.zst")))
        raise GateError(f"{folder}: expected one results.json (or <name>results.json) in a run "
                        f"folder, found {len(found)}"
                        + (f"; {packed[0]} is compressed: decompress it (gunzip) and import again"
                           if packed else ""))
    return found[0]


def _tb_runs(paths: Sequence[Path]) -> list[_TbRun]:
    """The runs given: run folders, and results files with their run_metadata.json."""
    results: list[tuple[Path, dict[str, object]]] = []
    metas: list[tuple[Path, dict[str, object]]] = []
    for path in paths:
        files = [_tb_results_file(path)] + ([path / "run_metadata.json"] if (path / "run_metadata.json").is_file()
                                            else []) if path.is_dir() else [path]
        for file in files:
            data = _harness_json(file)
            if "results" in data:
                results.append((file, data))
            elif "n_attempts" in data and "run_id" in data:
                metas.append((file, data))
            else:
                raise GateError(f"{file}: neither a results.json ('results') nor a "
                                "run_metadata.json ('run_id', 'n_attempts')")
    if not results:
        raise GateError(f"{paths[0]}: run_metadata.json given without the run's results.json")
    runs = []
    for file, data in results:
        beside = [(p, m) for p, m in metas if p.parent == file.parent]
        if len(beside) > 1:
            raise GateError(f"{file.parent}: several run_metadata.json for one run")
        if not beside and len(results) == 1 and len(metas) == 1:
            beside = metas  # the one results file and the one metadata given together
        runs.append(_TbRun(file, data, beside[0][0] if beside else None,
                           beside[0][1] if beside else {}, _optional_json(file.parent / "tb.lock")))
    paired = {id(m) for run in runs for m in [run.meta] if run.meta_path}
    stray = [p for p, m in metas if id(m) not in paired]
    if stray:
        raise GateError(f"{stray[0]}: a run_metadata.json with no results.json of its own")
    return runs


class _Trials(NamedTuple):
    by_key: dict[tuple[str, int], dict[str, object]]  # (task, attempt) -> trial
    budget: int
    recording_runs: set[str]  # the run ids that recording paths and trial names carry
    notes: list[str]


def _tb_trials(results: dict[str, object], where: str) -> _Trials:
    budget: int | None = None
    trials: dict[tuple[str, int], dict[str, object]] = {}
    recording_runs: set[str] = set()
    notes: list[str] = []
    for i, raw in enumerate(_list(results["results"], f"{where}.results")):
        twhere = f"{where}: results[{i}]"
        trial = _obj(raw, twhere)
        name = _str(trial.get("trial_name"), f"{twhere}.trial_name")
        parsed = parse_trial_name(name)
        if parsed is None:
            raise GateError(f"{twhere}.trial_name: expected '<task>.N-of-M' or "
                            f"'<task>.N-of-M.<run_id>', got {visible(name[:80])!r}")
        base, n, m, run = parsed
        if m > MAX_ATTEMPT_BUDGET:
            _expected(f"{twhere}.trial_name", f"at most {MAX_ATTEMPT_BUDGET:,} attempts (-of-M)", m)
        if budget is None:
            budget = m
        elif m != budget:
            raise GateError(f"{twhere}.trial_name: {name!r} says {m} "
                            f"attempts, earlier trials say {budget}")
        if not 1 <= n <= m:
            raise GateError(f"{twhere}.trial_name: attempt {n} outside 1..{m}")
        tid = _task_id(trial.get("task_id"), f"{twhere}.task_id")
        if base != tid:
            notes.append(f"results[{i}]: trial_name {name!r} does not start with task_id {tid!r}")
        resolved = trial.get("is_resolved")
        if resolved is not None and not isinstance(resolved, bool):
            _expected(f"{twhere}.is_resolved", "true, false or null", resolved)
        _str(trial.get("failure_mode", "unset"), f"{twhere}.failure_mode")
        if (tid, n) in trials:
            raise GateError(f"{twhere}: duplicate trial {name!r}")
        trials[(tid, n)] = trial
        rec_path = trial.get("recording_path")
        if isinstance(rec_path, str) and "/" in rec_path:
            recording_runs.add(rec_path.split("/", 1)[0])
        if run:
            recording_runs.add(run)
    if budget is None:
        raise GateError(f"{where}.results: empty; nothing to import")
    return _Trials(trials, budget, recording_runs, notes)


def _tb_declared(run: _TbRun, seen: list[str], budget: int, notes: list[str]) -> list[str]:
    """The declared tasks: run_metadata.json's task_ids, else the tasks that have trials."""
    where = str(run.results_path)
    if run.meta_path is None:
        notes.append(f"{where}: declared task set taken from its trials; give run_metadata.json "
                     "too so tasks with no recorded trial are caught")
        return seen
    mwhere, meta = str(run.meta_path), run.meta
    attempts = _int(meta.get("n_attempts"), f"{mwhere}.n_attempts")
    if attempts != budget:
        raise GateError(f"{mwhere}.n_attempts: {attempts}, but trial names say -of-{budget}")
    if meta.get("task_ids") is not None:
        declared = sorted(set(_id_list(meta, "task_ids", mwhere)))
        stray = set(seen).difference(declared)
        if stray:
            raise GateError(f"{where}: trials for tasks not in {mwhere}.task_ids: "
                            f"{_preview(stray)}")
        return declared
    if meta.get("dataset_size") is not None:
        size = _int(meta.get("dataset_size"), f"{mwhere}.dataset_size")
        if size != len(seen):
            raise GateError(f"{mwhere}.dataset_size is {size} but {where} has trials for "
                            f"{len(seen)} tasks; the tasks without trials cannot be named")
    return seen


def _tb_run_id(run: _TbRun, trials: _Trials) -> str:
    if isinstance(run.meta.get("run_id"), str):
        return str(run.meta["run_id"])
    if len(trials.recording_runs) == 1:
        return next(iter(trials.recording_runs))  # recording paths and trial names carry the run id
    return (_folder_name(run.results_path.parent) if run.results_path.name == "results.json"
            else run.results_path.stem)


def _tb_started(run: _TbRun, trials: _Trials) -> str:
    """When a run started: run_metadata's start_time, else its first trial's (ISO sorts)."""
    start = run.meta.get("start_time")
    if isinstance(start, str):
        return start
    times = [t.get("trial_started_at") for t in trials.by_key.values()]
    return min((t for t in times if isinstance(t, str)), default="")


def _tb_trial_row(tid: str, attempt: int, trial: dict[str, object], run: str) -> _Row:
    """One trial: its verdict, its time and tokens, and its own identifiers."""
    own: dict[str, object] = {"trial_name": trial.get("trial_name"), "run_id": run,
                              "is_resolved": trial.get("is_resolved"),
                              "failure_mode": str(trial.get("failure_mode", "unset")),
                              **_kept(trial, ("uuid", "id"))}
    tokens = (_count_field(trial.get("total_input_tokens")),
              _count_field(trial.get("total_output_tokens")))
    measures: dict[str, object] = {"wall_clock_s": _seconds_between(trial.get("trial_started_at"),
                                                                    trial.get("trial_ended_at"))}
    # 0 and 0: the agent logged none, not free
    if None not in tokens and tokens != (0, 0):
        measures["input_tokens"], measures["output_tokens"] = tokens
    return tid, attempt, _terminal_bench_attempt(trial), measures, own


def _tb_accuracy_note(results: dict[str, object], trials: _Trials, where: str) -> str:
    """The run's own figure (results.json's accuracy), held against its trials."""
    stated = results.get("accuracy")
    passes = sum(1 for t in trials.by_key.values() if t.get("is_resolved") is True)
    if not _is_number(stated):
        return (f"{where}: the run's own figure: none stated (no accuracy); {passes} of "
                f"{len(trials.by_key)} trials resolved")
    if abs(passes / len(trials.by_key) - cast(float, stated)) > 1e-9:
        return f"{where}: stated accuracy {stated} != {passes}/{len(trials.by_key)} resolved trials"
    return (f"{where}: the run's own figure: accuracy {stated:g} ({passes} of "
            f"{len(trials.by_key)} trials resolved)")


def _tb_one_system(runs: Sequence[_TbRun], named: bool = False) -> None:
    """Several runs are one claim only when each says which agent and model it ran, or the user
    declares it (--agent, --model); and they are not one run twice."""
    if len(runs) < 2:
        return
    unnamed = [run.results_path for run in runs if run.meta_path is None and not run.lock]
    if unnamed and not named:
        raise GateError(f"{unnamed[0]}: several runs are one claim only when each names its agent "
                        "and model: give each run folder (with its run_metadata.json), or declare "
                        "what they measured with --agent NAME --model NAME (the card says you "
                        "did), or import the runs one at a time")
    # a run is its run_metadata uuid, else its results.json id, else its path
    ids = [(next((v for v in (run.meta.get("uuid"), run.results.get("id"))
                  if isinstance(v, str) and v), str(_absolute(run.results_path))), run)
           for run in runs]
    for n, (key, run) in enumerate(ids):
        twin = next((other for k, other in ids[:n] if k == key), None)
        if twin is not None:
            raise GateError(f"import terminal-bench: {twin.results_path} and {run.results_path} "
                            f"are one run ({key}): a run given twice (or a copy of it) is not a "
                            "second sample; give each run once")
    suites = {tuple(str(run.meta.get(k)) for k in ("dataset_name", "dataset_version",
                                                   "dataset_path")) for run in runs}
    if len(suites) > 1:
        raise GateError("import terminal-bench: the runs ran different datasets ("
                        + "; ".join(f"{n}=={v}" + (f" at {p}" if p != "None" else "")
                                    for n, v, p in sorted(suites))
                        + "): one claim is over one suite; import each dataset's runs apart")


def import_terminal_bench(options: ImportOptions) -> Imported:
    """Import Terminal-Bench runs: a results.json (with its run_metadata.json), or several runs of
    one suite as one claim (a leaderboard submission of five `tb run` runs): one samples-mode
    ledger, the runs in start order, each run's trials numbered after the earlier runs'."""
    notes: list[str] = []
    named = options.agent is not None and options.model is not None  # the user declares the system
    parsed, declared, per_run = _tb_one_claim(options.files, notes, named)
    run_ids = [_tb_run_id(run, trials) for run, trials in parsed]
    run_id = run_ids[0]
    if len(parsed) > 1:
        parents = {_folder_name(_absolute(run.results_path).parent.parent) for run, _ in parsed}
        run_id = next(iter(parents)) if len(parents) == 1 else "+".join(run_ids)
        notes.append(f"{len(parsed)} runs as one samples-mode claim, in the order they started: "
                     f"{', '.join(run_ids)}")
    budget = per_run * len(parsed)
    rows = [_tb_trial_row(tid, index * per_run + n, trial, this_run)
            for index, ((_, trials), this_run) in enumerate(zip(parsed, run_ids))
            for (tid, n), trial in trials.by_key.items()]
    meta = next((run.meta for run, _ in parsed if run.meta), {})
    lock = next((run.lock for run, _ in parsed if run.lock), {})
    subset = _subset(sorted({s for run, _ in parsed for s in [_tb_selection(run)] if s}),
                     f"the run selected {len(declared)} task(s) of its dataset", notes)
    version, first = _tb_instrument({}, lock).get("version"), parsed[0][0]
    with_meta = all(run.meta_path for run, _ in parsed)
    # the draft asks whether the run covered its whole dataset, where nothing says so
    todo = () if subset or all(run.lock or run.meta_path is None for run, _ in parsed) else (
        "dataset: confirm the run covered its whole dataset: run_metadata.json records the tasks "
        "that ran, not whether `tb run` named them (--task-id); if it did, add dataset.subset "
        "{\"selection\": \"--task-id ...\"} (the run folder's tb.lock records the command line, "
        "and the gate reads it when it is there)",)

    def absent(tid: str, attempt: int) -> tuple[Verdict, dict[str, object], dict[str, object]]:
        index, n = divmod(attempt - 1, per_run)
        return (("unscoreable", "missing_artifact"),
                {"trial_name": f"{tid}.{n + 1}-of-{per_run}", "run_id": run_ids[index]}, {})

    return finish(Found(
        rows, budget > 1, budget, "terminal-bench", "", declared=declared if with_meta else None,
        declared_from="run_metadata.json task_ids" if with_meta else
        "the tasks with trials in results.json (no run_metadata.json given)", named=declared,
        subset=subset,
        notes=tuple(notes), measured=_tb_system(first)[0], run_id=run_id,
        dataset_name=_tb_dataset_name(meta.get("dataset_name"), meta.get("dataset_version")),
        envelope=_tb_envelope(meta, lock),
        rerun_hint=f"tb run --dataset ... --agent ... --model ... --n-attempts {per_run}"
        + (f", {len(parsed)} times" if len(parsed) > 1 else ""),
        timeout_note="Terminal-Bench limits each task by its task.yaml (max_agent_timeout_sec, "
                     "default 360, plus max_test_timeout_sec, default 60, times "
                     "global_timeout_multiplier), but a trial's wall clock includes its "
                     "container's set-up: where the run records no limit, say "
                     "{\"not_recorded\": \"why\"}",
        todo=todo, instrument=_tb_instrument(first.meta, first.lock),
        systems=tuple((run.results_path.parent.name, _tb_system(run)[1]) for run, _ in parsed),
        run_instruments=tuple((rid, _tb_instrument(run.meta, run.lock))
                              for rid, (run, _) in zip(run_ids, parsed)) if len(parsed) > 1 else (),
        provenance={**({"runs": run_ids} if len(parsed) > 1 else {}),
                    **({"harness_version": version} if version else {})},
        absent=absent), options, "terminal-bench", parsed[0][0].results_path)


def _tb_one_claim(files: Sequence[Path], notes: list[str], named: bool = False
                  ) -> tuple[list[tuple[_TbRun, _Trials]], list[str], int]:
    """The runs in the order they started, each with its trials; the declared tasks; the attempts
    a run. Refused unless they are one claim: one system (`named`: the user declares it), one
    declared suite, one attempt count."""
    runs = _tb_runs(files)
    parsed = [(run, _tb_trials(run.results, str(run.results_path))) for run in runs]
    parsed.sort(key=lambda item: (_tb_started(*item), str(item[0].results_path)))
    declared_sets = []
    for run, trials in parsed:
        recorded = run.meta.get("run_id")  # run_metadata's run_id is the one its trials carry
        if (run.meta_path and isinstance(recorded, str) and trials.recording_runs
                and recorded not in trials.recording_runs):
            raise GateError(f"{run.meta_path}: run_id {recorded!r}, but the trials of "
                            f"{run.results_path} belong to "
                            f"{', '.join(sorted(map(repr, trials.recording_runs)))}: give each "
                            "results.json with its own run_metadata.json (the run folder holds "
                            "both)")
        notes.extend(trials.notes)
        ran = sorted({tid for tid, _ in trials.by_key})
        declared_sets.append(_tb_declared(run, ran, trials.budget, notes))
        notes.append(_tb_accuracy_note(run.results, trials, str(run.results_path)))
    _tb_one_system([run for run, _ in parsed], named)
    with_meta = [set(d) for (run, _), d in zip(parsed, declared_sets) if run.meta_path is not None]
    if len(with_meta) > 1 and any(d != with_meta[0] for d in with_meta):
        raise GateError("import terminal-bench: the runs' run_metadata.json declare different task "
                        "sets: one claim is over one suite; import each run separately")
    budgets = {trials.budget for _, trials in parsed}
    if len(budgets) > 1:
        raise GateError(f"import terminal-bench: the runs ran different numbers of attempts "
                        f"({', '.join(map(str, sorted(budgets)))}); import each run separately")
    return parsed, sorted(set().union(*declared_sets)), budgets.pop()


def _tb_dataset_name(name: Any, version: Any) -> str | None:
    """Terminal-Bench's dataset as `name==version`, or its name alone; None without a name."""
    if not isinstance(name, str):
        return None
    return f"{name}=={version}" if isinstance(version, str) else name


def _tb_envelope(meta: Mapping[str, Any], lock: Mapping[str, Any]) -> dict[str, object]:
    """The instrument as run_metadata.json and tb.lock record it: dataset, checkout, timeouts."""
    commit = _tb_instrument(meta, {}).get("commit")
    return {"harness": "terminal-bench", **_kept(meta, ("dataset_name", "dataset_version")),
            **({"toolchain_sha": commit} if commit else {}),
            **_kept(_sub(lock.get("run_config")), ("global_timeout_multiplier",
                                                   "global_agent_timeout_sec",
                                                   "global_test_timeout_sec"))}


def _tb_instrument(meta: Mapping[str, Any], lock: Mapping[str, Any]) -> dict[str, str]:
    """The checkout `tb run` ran in (commit_hash) and terminal-bench's release (tb.lock)."""
    commit = meta.get("commit_hash")
    return {**({"commit": commit} if isinstance(commit, str) and commit not in ("", "unknown")
               else {}), **_version("terminal-bench", _sub(lock.get("harness")).get("version"))}


# -- Harbor (Terminal-Bench 2.x and other Harbor datasets) ----------

# Harbor's error policy (harbor/models/trial/error_policy.py, 0.25-0.26): which exception types
# leave a trial without a valid reward, and what that means for the ledger. A type not listed is
# Harbor's UNKNOWN policy: a reward, if the verifier wrote one, is valid.
# the sandbox's own faults (a message naming a content filter here is a path, never a refusal)
_HARBOR_SANDBOX = frozenset({
    "EnvironmentStartTimeoutError", "SandboxBuildFailedError", "AgentSetupTimeoutError",
    "HealthcheckError",
    "SandboxLikelyOutOfMemoryError", "MemoryLimitExceededError", "SSHAccessError",
    "GKEExecStreamClosedError",
    "GKEPodNotFoundError", "RuntimeRequestError", "AddTestsDirError", "DownloadVerifierDirError",
})
_HARBOR_ENVIRONMENT = _HARBOR_SANDBOX | frozenset({
    # model provider and API faults
    "ApiError", "ApiRateLimitError", "ApiInternalServerError", "ApiOverloadedError",
    "ApiConnectionClosedError",
    "ApiResponseStalledError", "UnknownApiError", "NetworkConnectionError", "ApiConnectionError",
    "ApiUsageLimitError",
    "RateLimitError", "InternalServerError", "ServiceUnavailableError", "APIConnectionError",
    "APIError", "Timeout",
    "UnsupportedModelParametersError", "BadRequestError", "UnprocessableEntityError",
    "UnsupportedParamsError",
    "APIResponseValidationError", "BudgetExceededError", "AgentAuthenticationError",
    "ModelNotFoundError",
    "ApiProviderResourceNotFoundError", "AuthenticationError", "PermissionDeniedError",
    "NotFoundError",
    "ServiceOperationsUnsupportedError", "VercelScopeError", "DspyImportError",
    "MissingExtraError", "RegradeError",
})
_HARBOR_VERIFIER = frozenset({"RewardFileNotFoundError", "RewardFileEmptyError",
                              "VerifierOutputParseError"})
_HARBOR_TIMEOUT = frozenset({"VerifierTimeoutError", "AgentTimeoutError"})
_HARBOR_CANCELLED = "CancelledError"
# A model provider refusing the task on policy grounds (OpenAI's cyber_policy, a content filter):
# the system's answer, not the infrastructure's fault
_POLICY_REFUSAL = re.compile(r"\b(?:cyber_policy|content_policy_violation|content_filter|"
                             r"flagged for possible)\b")


def _harbor_reward(trial: Mapping[str, object], where: str) -> float | None:
    """The trial's reward: `reward`, or the one key its verifier wrote; None when it wrote none."""
    verifier = trial.get("verifier_result")
    rewards = verifier.get("rewards") if isinstance(verifier, dict) else None
    if not isinstance(rewards, dict) or not rewards:
        return None
    if "reward" in rewards:
        value = rewards["reward"]
    elif len(rewards) == 1:
        value = next(iter(rewards.values()))
    else:
        raise GateError(f"{where}: verifier_result.rewards has several keys "
                        f"({', '.join(sorted(rewards))}) and no 'reward': which one is the "
                        "verdict?")
    if value is None:
        return None
    if not _is_number(value):
        _expected(f"{where}: verifier_result.rewards", "a number", value)
    return float(cast(float, value)) if math.isfinite(cast(float, value)) else None


def _harbor_attempt(trial: Mapping[str, object], threshold: float, where: str) -> Verdict:
    """One trial: a valid reward passes (>= threshold) or fails; else the exception says why."""
    info = trial.get("exception_info")
    kind = (str(info.get("exception_type")) if isinstance(info, dict) and info.get("exception_type")
            else None)
    reward = _harbor_reward(trial, where)
    stated_valid = trial.get("reward_valid")  # Harbor 0.26 writes its own reading
    valid = reward is not None and (stated_valid is not False) and (
        kind is None
        or kind not in _HARBOR_ENVIRONMENT | _HARBOR_VERIFIER | {_HARBOR_CANCELLED,
                                                                  "VerifierTimeoutError"})
    if valid:
        return ("pass" if cast(float, reward) >= threshold else "fail"), None
    if kind is None:
        # no reward and no exception: the trial never finished
        return "unscoreable", "missing_artifact"
    if kind == _HARBOR_CANCELLED:
        return "unscoreable", "cancelled"
    if kind in _HARBOR_TIMEOUT:
        return "unscoreable", "harness_timeout"
    if kind in _HARBOR_VERIFIER:
        return "unscoreable", "grader_error"
    if kind not in _HARBOR_SANDBOX and _POLICY_REFUSAL.search(
            str(_sub(info).get("exception_message") or "")):
        # the model's provider refused the task: the system under test did not do it, a fail
        return "fail", None
    return "unscoreable", "env_flake"  # an environment, API or unknown fault before any reward


class _HarborJob(NamedTuple):
    folder: Path
    result: dict[str, object]
    config: dict[str, object]
    trials: list[tuple[Path, dict[str, object]]]


def _harbor_job(path: Path) -> _HarborJob:
    folder = path.parent if path.is_file() and path.name == "result.json" else path
    where = str(folder)
    if not folder.is_dir() or not (folder / "result.json").is_file():
        raise GateError(f"{where}: not a Harbor job folder (jobs/<job>/result.json)")
    result = _harness_json(folder / "result.json")
    if "n_total_trials" not in result or "stats" not in result:
        raise GateError(f"{where}/result.json: not a Harbor job result (no n_total_trials, stats)")
    config = _optional_json(folder / "config.json")
    trials = [(p / "result.json", _harness_json(p / "result.json"))
              for p in sorted(folder.iterdir())
              if p.is_dir() and (p / "result.json").is_file()]
    return _HarborJob(folder, result, config, trials)


def _harbor_listed(job: _HarborJob) -> dict[str, tuple[tuple[str, str, str], float | None,
                                                       str | None]]:
    """Every trial a job's own result.json names: trial name -> (agent, model, dataset) of its eval,
    its reward (stats.evals[*].reward_stats) and its exception type (exception_stats)."""
    where = f"{job.folder}/result.json: stats.evals"
    listed: dict[str, tuple[tuple[str, str, str], float | None, str | None]] = {}
    evals = _sub(job.result.get("stats")).get("evals")
    for key, value in evals.items() if isinstance(evals, dict) else ():
        agent, _, rest = str(key).partition("__")
        model, _, source = rest.rpartition("__")
        system = (agent, model, source)
        stats = _sub(value)
        rewards = _sub(stats.get("reward_stats"))
        if len(rewards) > 1 and "reward" not in rewards:
            raise GateError(f"{where}[{key!r}].reward_stats has several "
                            f"keys ({', '.join(sorted(rewards))}) and "
                            "no 'reward': which one is the verdict?")
        groups = _sub(rewards.get("reward", next(iter(rewards.values()), {})))
        for text, names in groups.items():
            try:
                reward: float | None = float(text)
            except ValueError:
                raise GateError(f"{where}[{key!r}].reward_stats: {text!r} is not a reward "
                                "value") from None
            for name in _list(names, f"{where}[{key!r}].reward_stats[{text!r}]"):
                listed[str(name)] = (system,
                                     reward if math.isfinite(cast(float, reward)) else None, None)
        for kind, names in _sub(stats.get("exception_stats")).items():
            for name in _list(names, f"{where}[{key!r}].exception_stats[{kind!r}]"):
                previous = listed.get(str(name), (system, None, None))
                listed[str(name)] = (system, previous[1], str(kind))
    return listed


def _harbor_pseudo_trial(name: str, reward: float | None, kind: str | None,
                         tid: str, message: str = "") -> dict[str, object]:
    """A trial as the job's result.json states it (no folder): reward and exception only."""
    return {"task_name": tid, "trial_name": name, "from_job_result": True,
            "verifier_result": {"rewards": {"reward": reward}} if reward is not None else None,
            "exception_info": {"exception_type": kind, "exception_message": message} if kind
            else None}


def _harbor_job_trials(job: _HarborJob, named: Sequence[str] | None, threshold: float,
                       notes: list[str]) -> list[tuple[Path, dict[str, object]]]:
    """The job's trials: each trial folder's result.json, and, for a trial the job's result.json
    names with no folder, what the job file says of it. Where both are present the folder wins, and
    they must agree."""
    listed = _harbor_listed(job)
    trials = list(job.trials)
    for path, trial in job.trials:
        name = str(trial.get("trial_name") or path.parent.name)
        if name in listed:
            _, reward, kind = listed[name]
            # (the job's listing keeps an exception's type, not its message: the folder's says more)
            message = str(_sub(trial.get("exception_info")).get("exception_message") or "")
            stated = _harbor_attempt(_harbor_pseudo_trial(name, reward, kind, "", message),
                                     threshold, str(path))
            found = _harbor_attempt(trial, threshold, str(path))
            if stated[0] != found[0]:
                raise GateError(f"{job.folder}: trial {name}: its folder's result.json reads "
                                f"{found[0]} but the job's result.json reads {stated[0]} (reward "
                                f"{reward}, exception {kind}): the two disagree; import the job as "
                                "Harbor wrote it")
    folders = {str(t.get("trial_name") or p.parent.name)
               for p, t in job.trials} | {p.parent.name for p, _ in job.trials}
    alone = sorted(set(listed) - folders)
    for name in alone:
        _, reward, kind = listed[name]
        # its task from its name (`<task, org dropped, cut to 32 characters>__<7 characters>`):
        # the config's task name it abbreviates where the config names the tasks
        prefix = name.rsplit("__", 1)[0]
        matches = [n for n in named or () if n.split("/")[-1][:32].rstrip("_-") == prefix]
        task = matches[0] if len(matches) == 1 else prefix
        trials.append((job.folder / "result.json", _harbor_pseudo_trial(name, reward, kind, task)))
    if alone:
        notes.append(f"{job.folder}: {len(alone)} trial(s) read from the job's "
                     "result.json alone, without their trial folders "
                     f"({_preview(alone)}): reward and exception only, no per-trial "
                     "timing, tokens or cost (the wall-clock check is then not verified)"
                     + ("; task names recovered from trial names "
                        "(org dropped, cut to 32 characters)"
                        if not named else ""))
    return trials


def _harbor_declared(job: _HarborJob) -> list[str] | None:
    """The tasks a job's config names outright (task names, no globs), or None when it does not."""
    names: list[str] = []
    for dataset in _list(job.config.get("datasets", []), f"{job.folder}/config.json: datasets"):
        task_names = dataset.get("task_names") if isinstance(dataset, dict) else None
        if not isinstance(task_names, list) or not task_names:
            return None
        if any(not isinstance(n, str) or set(n) & set("*?[") for n in task_names):
            return None
        names.extend(task_names)
    for task in _list(job.config.get("tasks", []), f"{job.folder}/config.json: tasks"):
        name = task.get("name") if isinstance(task, dict) else None
        if not isinstance(name, str):
            return None
        names.append(name)
    return [_task_id(name, f"{job.folder}/config.json: task name") for name in names] or None


def _harbor_agent_settings(job: _HarborJob, trial: Mapping[str, object]) -> str:
    """How the agent was configured (its kwargs), without the per-job identifiers (keys ending in id
    or name): two agents alike in name, version and model still differ here (a `harness` setting,
    say)."""
    kwargs = _sub(_sub(_sub(trial.get("config")).get("agent")).get("kwargs"))
    if not kwargs:
        agents = job.config.get("agents")
        first = (agents[0] if isinstance(agents, list) and agents and isinstance(agents[0], dict)
                 else {})
        kwargs = _sub(first.get("kwargs"))
    kept = {k: v for k, v in kwargs.items() if not (k == "id" or k.endswith(("_id", "_name")))}
    return canonical_json(kept).decode("utf-8") if kept else ""


def _harbor_figures(jobs: Sequence[_HarborJob]) -> str:
    """Harbor's own figures: each eval's of one job; of several jobs, one note (where a 20-job study
    printed twenty near-identical ones): the trials with a reward, their mean, the errored ones."""
    evals: list[tuple[str, object, object, object]] = []  # (key, mean, n_trials, n_errors)
    for job in jobs:
        for key, value in _sub(_sub(job.result.get("stats")).get("evals")).items():
            metrics = _sub(value).get("metrics")
            evals.append((key, _sub(metrics[0]).get("mean") if isinstance(metrics, list) and metrics
                          else None, _sub(value).get("n_trials"), _sub(value).get("n_errors")))
    said = "(Harbor before 0.26 counts a trial with no reward as 0; from 0.26 it leaves it out)"
    if len(jobs) == 1:
        return (f"{jobs[0].folder}: Harbor's own job figure: " + ("; ".join(
            f"{key}: mean {mean if mean is not None else '(none)'} over {count} trial(s) with a "
            f"reward, {errors} errored" for key, mean, count, errors in sorted(
                evals, key=lambda e: e[0])) or "(no evals)") + f" {said}")
    rewarded, total = 0, 0.0
    for _, mean, count, _ in evals:
        if _is_int(count) and _is_number(mean):
            rewarded += cast(int, count)
            total += cast(float, mean) * cast(int, count)
    errored = sum(cast(int, errors) for *_, errors in evals if _is_int(errors))
    mean_text = f"mean {total / rewarded:.4g}" if rewarded else "no mean"
    return (f"Harbor's own job figures, {len(jobs)} jobs: {mean_text} over {rewarded} trial(s) "
            f"with a reward, {errored} errored {said}")


def _harbor_rows(attempts: Mapping[str, list[tuple[str, Path, dict[str, object]]]],
                 threshold: float) -> list[_Row]:
    """One row a trial, numbered per task in start order (finish() adds the missing ones)."""
    rows: list[_Row] = []
    for tid, found in attempts.items():
        trials = sorted(found, key=lambda item: (item[0], str(item[1])))
        for number, (_, path, trial) in enumerate(trials, 1):
            agent_result = _sub(trial.get("agent_result"))
            own: dict[str, object] = {
                "format": "harbor-job-result" if trial.get("from_job_result") else "harbor",
                "task_name": tid, "trial_name": trial.get("trial_name"), "id": trial.get("id"),
                "reward": _harbor_reward(trial, str(path)),
                "exception_type": _sub(trial.get("exception_info")).get("exception_type")}
            measures: dict[str, object] = {
                "wall_clock_s": _seconds_between(trial.get("started_at"), trial.get("finished_at")),
                "cost_usd": _cost_field(agent_result.get("cost_usd")),
                "input_tokens": _count_field(agent_result.get("n_input_tokens")),
                "output_tokens": _count_field(agent_result.get("n_output_tokens"))}
            if measures["input_tokens"] is None or measures["output_tokens"] is None:
                measures["input_tokens"] = measures["output_tokens"] = None
            rows.append((tid, number, _harbor_attempt(trial, threshold, str(path)), measures, own))
    return rows


def _harbor_envelope(job: _HarborJob, source: str, dataset: Mapping[str, Any]) -> dict[str, object]:
    """The instrument as a job records it: its environment (docker where config.json names
    none), dataset and ref, timeout multipliers, and Harbor's version."""
    kind = _sub(job.config.get("environment")).get("type")
    return {"harness": _harbor_instrument(job).get("version", "harbor"), "dataset": source,
            **({"dataset_ref": dataset["ref"]} if isinstance(dataset.get("ref"), str) else {}),
            **({"runner": "harbor environment "
                          f"{kind if isinstance(kind, str) and kind else 'docker'}"}
               if job.config else {}),
            **_kept(job.config, ("timeout_multiplier", "agent_timeout_multiplier",
                                 "verifier_timeout_multiplier"), _is_number)}


def _harbor_instrument(job: _HarborJob) -> dict[str, str]:
    """The Harbor release a job ran with, as its lock.json records it."""
    return _version("harbor", _sub(_optional_json(job.folder / "lock.json").get("harbor")).get(
        "version"))


def _harbor_selection(job: _HarborJob) -> list[str]:
    """How a job chose part of its dataset, as its config.json's datasets[] record it."""
    parts = []
    for dataset in _list(job.config.get("datasets", []), f"{job.folder}/config.json: datasets"):
        entry = _sub(dataset)
        names, excluded, count = (entry.get("task_names"), entry.get("exclude_task_names"),
                                  entry.get("n_tasks"))
        if isinstance(names, list) and names:
            parts.append("task_names")
        if isinstance(excluded, list) and excluded:
            parts.append(f"exclude_task_names {','.join(map(str, excluded))[:200]}")
        if count is not None:
            parts.append(f"n_tasks {count}")
    return parts


def import_harbor(options: ImportOptions) -> Imported:
    """Import Harbor job folders: one attempt per trial, numbered per task by start time. Several
    job folders of one agent, model and dataset are one claim (a study that runs one job per task).
    A job copied as its result.json alone is read from that file's per-trial rewards and exceptions.
    """
    jobs = [_harbor_job(folder) for folder in options.files]
    notes: list[str] = []
    unconfigured = [job.folder for job in jobs if not job.config]
    if len(jobs) > 1 and unconfigured:
        raise GateError(f"{unconfigured[0]}: no config.json: several jobs are one claim only when "
                        "each records its agent's configuration and task selection; copy each "
                        "job's config.json beside its result.json, or import the jobs one at a "
                        "time")
    found = _harbor_trials_of(jobs, options.threshold, notes)
    agent, model, source, settings = next(iter(found.identity), ("?", "?", "?", ""))
    # A job folder's own name, or its cell's when it is just "job"; several jobs: the folder that
    # holds them.
    first = _absolute(jobs[0].folder)
    cell = first.parent if first.name == "job" else first
    run_id = _folder_name(cell) if len(jobs) == 1 else _folder_name(cell.parent)
    datasets = _list(jobs[0].config.get("datasets", []), "config.json: datasets")
    dataset: dict[str, Any] = next((d for d in datasets if isinstance(d, dict)), {})
    name = str(dataset.get("name") or source)
    tasks = len(found.declared)
    subset = _subset([f"task_names ({tasks} named)" if kind == "task_names" else kind
                      for kind in dict.fromkeys(found.selections)],
                     f"the job(s) selected {tasks} task(s) of {name}", notes)
    envelope = _harbor_envelope(jobs[0], source, dataset)
    return finish(Found(
        _harbor_rows(found.attempts, options.threshold),
        found.budget > 1, found.budget, str(envelope.pop("harness")), "",
        declared=None if unconfigured else sorted(found.declared),
        declared_from="the trials found (no config.json: the job's selection is unknown)"
        if unconfigured else "the tasks config.json names and the trials found",
        named=sorted(found.declared), extra_reasons=("cancelled",), run_id=run_id,
        dataset_name=name, envelope=envelope,
        measured={"agent": agent, "model": model,
                  **({"agent_kwargs": json.loads(settings)} if settings else {})},
        timeout_note="Harbor limits each task by its task.toml ([agent] "
                     "timeout_sec, [verifier] timeout_sec, default 600) times "
                     "the job's timeout multipliers; give the largest total",
        rerun_hint=f"harbor run -d {name} -a {agent} -m {model} -k {found.budget}",
        notes=tuple(notes), subset=subset,
        systems=tuple((job, f"agent {agent}, model {model}, dataset {source}"
                            + (f", settings {settings}" if settings else ""))
                      for (agent, model, source, settings), where in found.identity.items()
                      for job in sorted(set(where))),
        instrument=_harbor_instrument(jobs[0]),
        run_instruments=tuple((_folder_name(job.folder), _harbor_instrument(job))
                              for job in jobs) if len(jobs) > 1 else (),
        todo=("dataset: the job's config.json was not given, so how it chose its tasks "
              "(task_names, n_tasks, exclude_task_names) is unknown: copy it beside "
              "result.json and import again, or declare dataset.subset {\"selection\": "
              "\"...\"} if the job ran part of its dataset",) if unconfigured else (),
        absent=lambda tid, _: (("unscoreable", "missing_artifact"), {"task_name": tid}, {}),
        budget_what="n_attempts" + (" (the default: no config.json was given; copy the job's "
                                    "config.json, which records n_attempts, beside its "
                                    "result.json)" if unconfigured else "")),
        options, "harbor", jobs[0].folder)


class _HarborTrials(NamedTuple):
    """What the jobs hold: each task's trials, the declared tasks, selections, systems, budget."""

    attempts: dict[str, list[tuple[str, Path, dict[str, object]]]]
    declared: set[str]
    selections: list[str]
    identity: dict[tuple[str, str, str, str], list[str]]  # (agent, model, source, settings): jobs
    budget: int


def _harbor_trials_of(jobs: Sequence[_HarborJob], threshold: float,
                      notes: list[str]) -> _HarborTrials:
    """Every job's trials, each named once; refused unless the jobs are one claim (one system on
    one suite, one n_attempts) and every planned trial can be named."""
    identity: dict[tuple[str, str, str, str], list[str]] = {}
    budgets: set[int] = set()
    attempts: dict[str, list[tuple[str, Path, dict[str, object]]]] = {}
    declared: set[str] = set()
    selections: list[str] = []
    seen: dict[str, Path] = {}
    for job in jobs:
        budget = job.config.get("n_attempts", 1)
        budgets.add(_int(budget, f"{job.folder}/config.json: n_attempts", 1))
        named = _harbor_declared(job)
        planned = _int(job.result.get("n_total_trials"),
                       f"{job.folder}/result.json: n_total_trials", 0)
        trials = _harbor_job_trials(job, named, threshold, notes)
        if len(trials) < planned and named is None:
            raise GateError(f"{job.folder}: {planned} trial(s) planned, {len(trials)} named by a "
                            "trial folder or the job's result.json, and config.json names no tasks "
                            "outright: the missing trials cannot be named (copy the trial folders "
                            "jobs/<job>/<trial>/result.json, or the job's config.json)")
        declared.update(named or [])
        selections.extend(_harbor_selection(job))
        listed = {name: system for name, (system, _, _) in _harbor_listed(job).items()}
        for path, trial in trials:
            tid = _task_id(trial.get("task_name"), f"{path}: task_name")
            name = str(trial.get("id") or trial.get("trial_name"))
            if name in seen:
                raise GateError(f"import harbor: trial {name} is in {seen[name]} and in "
                                f"{job.folder}: a job given twice (or a copy of it) is not more "
                                "trials; give each job once")
            seen[name] = job.folder
            # (agent, model, source): its agent_info, or the job's listing for a trial read from it
            info = _sub(trial.get("agent_info"))
            system = (listed[str(trial["trial_name"])] if trial.get("from_job_result") else
                      (str(info.get("name")), str(_sub(info.get("model_info")).get("name")),
                       str(trial.get("source"))))
            key = (*system, _harbor_agent_settings(job, trial))
            folder = _absolute(job.folder)
            identity.setdefault(key, []).append(_folder_name(folder.parent if folder.name == "job"
                                                             else folder))
            attempts.setdefault(tid, []).append((str(trial.get("started_at") or ""), path, trial))
            declared.add(tid)
    notes.append(_harbor_figures(jobs))
    if len(budgets) > 1:
        raise GateError("import harbor: the jobs ran different n_attempts "
                        f"({', '.join(map(str, sorted(budgets)))})")
    return _HarborTrials(attempts, declared, selections, identity, budgets.pop())


# -- the benchmark-card design note's publish-gate report ------------


def _publish_gate_attempt(outcome: Mapping[str, object], budget: int, where: str) -> Verdict:
    """One outcome: resolved only when the hidden tests passed within the attempt budget (the note's
    metric contract); a pass after the budget is a fail, kept in the denominator (the note dropped
    it)."""
    attempts = _int(outcome.get("attempts"), f"{where}.attempts", 1)
    passed = outcome.get("hidden_tests_passed")
    if passed is None:
        return "unscoreable", "grader_error"
    if not isinstance(passed, bool):
        _expected(f"{where}.hidden_tests_passed", "true, false or null", passed)
    return ("pass" if passed and attempts <= budget else "fail"), None


def import_publish_gate(options: ImportOptions) -> Imported:
    """Import the benchmark-card note's report.json (attempt_budget, outcomes with attempts and
    hidden_tests_passed): importable only when every outcome names its task, and its two control
    booleans are never taken as controls."""
    path = _one_path(options.files, "publish-gate")
    where = str(path)
    data = _harness_json(path)
    unknown = sorted(set(data) - {"attempt_budget", "outcomes", "no_edit_must_fail",
                                  "known_fix_must_pass"})
    if unknown:
        raise GateError(f"{where}: unknown key(s) {', '.join(unknown)} for a publish-gate report")
    budget = _int(data.get("attempt_budget"), f"{where}.attempt_budget", 1)
    if budget > MAX_ATTEMPT_BUDGET:
        _expected(f"{where}.attempt_budget", f"at most {MAX_ATTEMPT_BUDGET:,}", budget)
    rows: list[_Row] = []
    seen: set[str] = set()
    notes: list[str] = []
    for i, raw in enumerate(_list(data.get("outcomes"), f"{where}.outcomes")):
        owhere = f"{where}.outcomes[{i}]"
        outcome = _obj(raw, owhere)
        if "task_id" not in outcome:
            raise GateError(f"{owhere}: names no task: a ledger counts tasks, not rows, so each "
                            "outcome needs its task_id (the note's report omits it; add it where "
                            "the report is written)")
        tid = _task_id(outcome.get("task_id"), f"{owhere}.task_id")
        if tid in seen:
            raise GateError(f"{owhere}: task {tid!r} has a second outcome")
        seen.add(tid)
        verdict = _publish_gate_attempt(outcome, budget, owhere)
        if verdict[0] == "fail" and outcome.get("hidden_tests_passed") is True:
            notes.append(f"{tid}: passed after {outcome.get('attempts')} attempts, over the budget "
                         f"of {budget}: a fail")
        own = {key: outcome.get(key) for key in ("attempts", "hidden_tests_passed")}
        rows.append((tid, 1, verdict, {}, own))
    if not rows:
        raise GateError(f"{where}.outcomes: empty; nothing to import")
    flags = [key for key in ("no_edit_must_fail", "known_fix_must_pass") if key in data]
    todo = ["controls: the report's " + " and ".join(flags) + " flags are not evidence: add "
            "control_runs from a real no-edit run and a real known-fix run (import each with "
            "--control no_edit / --control known_fix)"] if flags else []
    # (the budget is the note's metric contract: a pass after it is a fail, one verdict a task)
    return finish(Found(rows, False, budget, "publish-gate report (benchmark-card design note)",
                        "", run_id="publish-gate", notes=tuple(notes), todo=tuple(todo),
                        declared_from=f"the {len(seen)} outcome(s) report.json holds, not a "
                                      "declared set",
                        rerun_hint="the command that wrote report.json"),
                  options, "publish-gate", path)


# -- the generic mapping importer: JSON Lines, JSON and CSV with a field mapping ----------------
#
# For a harness no named importer reads: --task-id PATH, --pass EXPR, ... (PATH, EXPR and how JSON
# values and CSV cells compare: docs/importers.md, "A harness no named importer reads").


# SWE-PolyBench's per-instance result (poly_bench_evaluation/scoring.py), as a declared mapping:
# resolved passes; no generation (no patch) or a patch that did not apply fails; a patch applied
# with no test logs is no verdict.
SWE_POLYBENCH_MAPPING = FieldMapping(
    task_id="instance_id", passed="generation and resolved",
    unscoreable="generation and patch_applied and not with_logs",
    reason="grader_error", attempt=None, run_id=None, measures=(), samples=False,
    unreadable="error", counted="not generation")


def _mapping_rows(path: Path, fmt: str) -> Iterator[tuple[int, Any, str | None]]:
    """(line or row number, record, the key it sat under in a JSON object) of a JSON Lines, JSON or
    CSV file, or of a folder of one JSON file a task (SWE-PolyBench's <id>_result.json: the number
    counts the files)."""
    where = str(path)
    if fmt == "swe-polybench":
        found = sorted(p for p in path.iterdir() if p.is_file() and p.name.endswith("_result.json"))
        for number, item in enumerate(found, 1):
            yield number, _harness_json(item), item.name
    elif fmt == "jsonl":
        for number, value in iter_jsonl(path):
            yield number, _obj(value, f"{where}:{number}"), None
    elif fmt == "json":
        data = load_json_file(path, cap=MAX_HARNESS_BYTES, allow_nan=True)
        what = _no_verdicts(data)
        if what:
            raise GateError(f"{where}: {what}")
        if isinstance(data, list):
            for index, value in enumerate(data):
                yield index + 1, _obj(value, f"{where}: [{index}]"), None
        elif isinstance(data, dict):
            for index, (key, value) in enumerate(data.items()):
                yield index + 1, _obj(value, f"{where}: {key!r}"), key
        else:
            _expected(where, "a JSON array of records or an object of task id -> record", data)
    else:
        import csv
        import io

        text = _decode_utf8(_read_bytes(path, MAX_HARNESS_BYTES), where).lstrip("\ufeff")
        # a cell is bounded by the gate's own line limit, not the csv module's 131,072 characters
        csv.field_size_limit(max(csv.field_size_limit(), MAX_LINE_BYTES))
        reader = csv.DictReader(io.StringIO(text, newline=""))
        try:
            if not reader.fieldnames:
                raise GateError(f"{where}: no header row: a CSV file to "
                                "import names its columns on its first line")
            names = list(reader.fieldnames)
            seen: dict[str, int] = {}
            for column, name in enumerate(names, 1):  # one pass (count() a column was quadratic)
                if name in seen:
                    raise GateError(f"{where}:1: column {name!r} appears twice (columns "
                                    f"{seen[name]} and {column}): name each column once")
                seen[name] = column
            for row in reader:
                yield reader.line_num, row, None
        except csv.Error as exc:
            raise GateError(f"{where}:{reader.line_num}: not CSV the gate reads ({exc}); a cell "
                            f"holds at most {MAX_LINE_BYTES:,} characters") from None


def import_mapping(options: ImportOptions, fmt: str) -> Imported:
    """Import a JSON Lines, JSON or CSV file of per-task (or per-attempt) records by a mapping."""
    spec = options.mapping
    if spec is None or spec.passed is None:
        raise GateError(f"import {fmt}: give the mapping: --task-id PATH and "
                        "--pass EXPR (and, for records with no verdict, "
                        "--unscoreable EXPR --reason CLASS|PATH); see import --help")
    path = _one_path(options.files, fmt)
    return finish(read_mapping(options, fmt, path, path.stem)[0], options, fmt, path)


# What to do with a record the mapping cannot read: a user's mapping can say; a harness's own
# mapping reads what the harness writes, so such a record is not its file.
_UNREADABLE_ADVICE = {
    "": "(--unreadable-as unscoreable counts such a record as unscoreable missing_artifact)",
    "swe-polybench": "(SWE-PolyBench's evaluation writes generation, patch_applied, with_logs and "
                     "resolved as true or false: import the result files it wrote, unedited)",
}


def read_mapping(options: ImportOptions, fmt: str, path: Path,
                 default_run: str) -> tuple[Found, int]:
    """The rows a field mapping reads from each record of the file (or folder), and how many records
    its `counted` EXPR holds for."""
    spec = cast("FieldMapping", options.mapping)
    where, csv = str(path), fmt == "csv"
    read = _read_column if csv else _read_path
    try:
        passed, _ = compile_mapping(cast(str, spec.passed), csv)
        lost = compile_mapping(spec.unscoreable, csv)[0] if spec.unscoreable else None
        counts = compile_mapping(spec.counted, csv)[0] if spec.counted else None
    except MetricError as exc:
        raise GateError(f"import {fmt}: --pass / --unscoreable: {exc}") from None
    reason_path = None if spec.reason in (*BUILTIN_REASONS,
                                          "cancelled") else tuple(spec.reason.split("."))
    rows: list[_Row] = []
    seen: dict[tuple[str, int], int] = {}
    runs: dict[tuple[str, int], str] = {}
    counted = 0
    for number, rec, key in _mapping_rows(path, fmt):
        at = f"{where}/{key}" if path.is_dir() else f"{where}:{number}"
        try:
            raw_id = key if spec.task_id is None else read(rec, tuple(spec.task_id.split(".")))
            tid = _task_id(str(raw_id) if isinstance(raw_id, int) and not isinstance(raw_id, bool)
                           else raw_id,
                           f"{at}: {spec.task_id or 'key'}")
            attempt = (1 if spec.attempt is None
                       else _attempt_value(read(rec, tuple(spec.attempt.split("."))), csv))
            run = default_run if spec.run_id is None else _mapped_name(
                read(rec, tuple(spec.run_id.split("."))), spec.run_id, "a run id", at)
        except _Unreadable as exc:
            raise GateError(f"{at}: {exc} (the task id, attempt and "
                            "run id must be read from every record)") from None
        if (tid, attempt) in seen:
            raise GateError(f"{at}: task {tid!r} attempt {attempt} again (first at line "
                            f"{seen[(tid, attempt)]}): "
                            + ("give --attempt PATH, the field that numbers a task's attempts"
                               if spec.attempt is None else "each attempt once"))
        seen[(tid, attempt)] = number
        try:
            if lost is not None and lost(rec, read):
                reason = spec.reason if reason_path is None else _mapped_name(
                    read(rec, reason_path), spec.reason, "a reason class", at)
                verdict: Verdict = ("unscoreable", reason)
            else:
                verdict = ("pass", None) if passed(rec, read) else ("fail", None)
        except _Unreadable as exc:
            if spec.unreadable == "error":
                preset = _UNREADABLE_ADVICE.get(fmt)
                hint = f"; {exc.hint}" if exc.hint and not preset else ""
                raise GateError(f"{at}: {exc}{hint}: the mapping cannot read this record "
                                + (preset or _UNREADABLE_ADVICE[""])) from None
            verdict = ("unscoreable", "missing_artifact")
        measures: dict[str, object] = {}
        for field, source in spec.measures:
            try:
                measures[field] = _measure(field, read(rec, tuple(source.split("."))))
            except _Unreadable:
                measures[field] = None
        runs[(tid, attempt)] = run
        counted += counts is not None and counts(rec, read)
        rows.append((tid, attempt, verdict, measures, {"format": f"mapping-{fmt}", "line": number}))
    if not rows:
        raise GateError(f"{where}: no records to import")
    return _mapping_found(rows, runs, options, fmt, path), counted


def _measure(field: str, value: Any) -> object:
    """A measure as the ledger holds it (seconds and dollars a number, tokens a count), from JSON or
    a CSV cell; None where the record holds something else."""
    if isinstance(value, str):
        try:
            value = float(value) if field in ("wall_clock_s", "cost_usd") else int(value)
        except ValueError:
            return None
    if field == "wall_clock_s":
        return round(float(value), 3) if _is_number(value) and 0 <= value < 1e9 else None
    return _cost_field(value) if field == "cost_usd" else _count_field(value)


def _mapped_name(value: Any, path: str, what: str, at: str) -> str:
    """A reason class or run id read from a record: a printable string (a number's digits)."""
    text = str(value) if _is_int(value) else value
    if not isinstance(text, str) or not is_task_id(text):
        raise GateError(f"{at}: {path}: expected {what} (a non-empty printable string), got "
                        f"{_type_name(value)}")
    return text


def _attempt_value(value: Any, csv: bool) -> int:
    text = value.strip() if isinstance(value, str) else ""
    number = int(text) if csv and text.isascii() and text.isdigit() else value
    if not _is_int(number) or not 1 <= cast(int, number) <= MAX_ATTEMPT_BUDGET:
        raise _Unreadable(f"attempt: {_type_name(value)} is not an attempt number from 1 to "
                          f"{MAX_ATTEMPT_BUDGET:,}")
    return cast(int, number)


def _mapping_found(rows: list[_Row], runs: Mapping[tuple[str, int], str], options: ImportOptions,
                   fmt: str, path: Path) -> Found:
    """The rows a mapping read: samples or one attempt a task, the run each names."""
    spec = cast("FieldMapping", options.mapping)
    counts = Counter(verdict[0] for _, _, verdict, _, _ in rows)
    named = set(runs.values())
    run = next(iter(named)) if len(named) == 1 else _folder_name(path)
    budget = max(attempt for _, attempt, *_ in rows)
    tasks = len(options.dataset_ids or {row[0] for row in rows})
    if spec.samples and tasks * budget > MAX_IMPORTED_ATTEMPTS:
        raise GateError(f"{path}: --samples: {tasks:,} tasks x {budget:,} "
                        "samples (the largest attempt number read), more than the gate imports "
                        f"({MAX_IMPORTED_ATTEMPTS:,}): is --attempt the right field?")
    stated = (f"the mapping read {sum(counts.values())} record(s): {counts['pass']} pass, "
              f"{counts['fail']} fail, {counts['unscoreable']} unscoreable (the file states no "
              "figure the gate reads; hold these against the harness's own)")
    return Found(rows, spec.samples, budget, f"mapping ({fmt})", "", notes=(f"{path}: {stated}",),
                 run_id=run, run_of=lambda tid, attempt: runs.get((tid, attempt), run),
                 declared_from=f"the {len({r[0] for r in rows})} task(s) {path.name} holds, not a "
                               "declared set")


def read_swe_polybench(options: ImportOptions) -> Imported:
    """A SWE-PolyBench submission's <instance_id>_result.json files (its folder or logs/), read by
    SWE_POLYBENCH_MAPPING; metadata.yaml names the system. No generation is the system's fail, never
    left out (the files cannot tell it from one never run); --dataset-ids names the suite."""
    given = _one_path(options.files, "swe-polybench")
    path = given / "logs" if (given / "logs").is_dir() else given
    if not path.is_dir() or not any(p.name.endswith("_result.json") for p in path.iterdir()):
        raise GateError(f"{given}: no <instance_id>_result.json files (a SWE-PolyBench "
                        "submission's evaluation folder, or its logs/)")
    options = options._replace(mapping=SWE_POLYBENCH_MAPPING)
    found, no_generation = read_mapping(options, "swe-polybench", path, _folder_name(given))
    passed = sum(1 for *_, verdict, _, _ in found.rows if verdict[0] == "pass")
    files = len(found.rows)
    folder = given if path == given / "logs" else path.parent
    metadata = _simple_yaml(folder / "metadata.yaml")
    name = metadata.get("name")
    return finish(found._replace(
        harness="SWE-PolyBench (poly_bench_evaluation)",
        stated=f"{files} result file(s), {no_generation} with no generation "
               "(generation: false: the agent wrote no patch, a fail); SWE-PolyBench's own "
               "aggregate, "
               f"{passed}/{files}, is over the files present"
               + (f"; metadata.yaml states {metadata['pass_rate']}" if "pass_rate" in metadata
                  else ""),
        notes=(), measured={"agent": name} if name else {}, subset_unit="instances",
        rerun_hint="python -m poly_bench_evaluation.run_evaluation ... (SWE-PolyBench)"),
        options, "swe-polybench", given)


# -- the coding benchmarks' own per-task files ------------------------------------------------
#
# Each reader follows its harness's released writer, named above it; what each maps to what is
# docs/importers.md's table (sources: tests/fixtures/harnesses/SOURCES.md).


def _once(seen: dict[str, int], tid: str, at: str, number: int) -> None:
    if tid in seen:
        raise GateError(f"{at}: task {tid!r} again (first at line {seen[tid]}): one result a task")
    seen[tid] = number


def _samples_budget(per_task: Mapping[str, int]) -> int:
    """A samples run's budget: the most samples any task has (a task with fewer lacks the rest)."""
    return max(per_task.values(), default=1)


# NoCode-bench (ZJU-CTAG/NoCode-bench evaluation/eval.py)
def read_nocode_bench(options: ImportOptions) -> Imported:
    path = _one_path(options.files, "nocode-bench")
    rows: list[_Row] = []
    seen: dict[str, int] = {}
    for number, at, rec in _jsonl_objects(path):
        if "resolved" not in rec or "instance_id" not in rec:
            instead = (_no_verdicts(rec)
                       or "import the evaluation_details.jsonl that evaluation/eval.py writes")
            raise GateError(f"{at}: not a NoCode-bench evaluation_details.jsonl line (instance_id, "
                            f"resolved, applied): {instead}")
        tid = _task_id(rec["instance_id"], f"{at}: instance_id")
        _once(seen, tid, at, number)
        resolved = rec["resolved"]
        if not isinstance(resolved, bool):
            _expected(f"{at}: resolved", "true or false", resolved)
        verdict: Verdict = ("fail", None)
        if resolved:
            verdict = ("pass", None)
        elif "notes" in rec:
            verdict = ("unscoreable", "env_flake")
        rows.append((tid, 1, verdict, {}, {"line": number, "applied": rec.get("applied")}))
    passed = sum(1 for *_, v, _, _ in rows if v[0] == "pass")
    return finish(Found(
        rows, False, 1, "NoCode-bench (evaluation/eval.py)",
        f"NoCode-bench's Success% is resolved over every task it ran: {passed}/{len(rows)} (a line "
        "with notes, the harness could not run the instance, counts as a failure there and as "
        "unscoreable env_flake here; `applied: false` is a fail: the file cannot tell a model "
        "patch that did not apply from a test patch that did not)"), options, "nocode-bench", path)


# OpenHands (evaluation/benchmarks/swe_bench/eval_infer.py, update_output_with_eval.py): a report of
# five flags, at the top of output.jsonl or under test_result in output.swebench_eval.jsonl
_OPENHANDS_FLAGS: tuple[tuple[str, Verdict], ...] = (
    ("resolved", ("pass", None)), ("test_timeout", ("unscoreable", "harness_timeout")),
    ("error_eval", ("unscoreable", "grader_error")), ("empty_generation", ("fail", None)),
    ("failed_apply_patch", ("fail", None)))


def _openhands_verdict(rec: Mapping[str, Any]) -> Verdict | None:
    """A line's verdict: its report's first flag set, else its error's; None for neither."""
    report = rec.get("report")
    if not isinstance(report, dict):
        report = _sub(rec.get("test_result")).get("report")
    if isinstance(report, dict):
        flagged = next((verdict for flag, verdict in _OPENHANDS_FLAGS if report.get(flag) is True),
                       None)
        if flagged is not None:
            return flagged
    error = str(rec.get("error") or "")
    if error.startswith("Timeout after"):
        # the evaluation itself timed out (EvalTimeoutException)
        return ("unscoreable", "harness_timeout")
    if error.startswith("Maximum retries"):
        return ("unscoreable", "env_flake")  # the runtime failed five times
    return ("fail", None) if isinstance(report, dict) else None


def _openhands_evaluated(path: Path) -> dict[str, tuple[Verdict | None, str]]:
    """The verdicts of the output.swebench_eval.jsonl beside an output.jsonl, by instance, each
    with a digest of the patch it graded (empty if none is)."""
    beside = path.with_name(path.name.replace(".jsonl", ".swebench_eval.jsonl"))
    if "swebench_eval" in path.name or not beside.is_file():
        return {}
    found: dict[str, tuple[Verdict | None, str]] = {}
    seen: dict[str, int] = {}
    for number, at, rec in _jsonl_objects(beside):
        tid = _task_id(rec.get("instance_id"), f"{at}: instance_id")
        _once(seen, tid, at, number)
        found[tid] = _openhands_verdict(rec), _openhands_patch(rec)
    return found


def _openhands_patch(rec: Mapping[str, Any]) -> str:
    """A digest of the patch a line holds (test_result.git_patch), "" where it holds none."""
    patch = _sub(rec.get("test_result")).get("git_patch")
    return hashlib.sha256(patch.encode("utf-8", "surrogatepass")).hexdigest() \
        if isinstance(patch, str) else ""


# Where a record's task id and a boolean verdict sit in files no named importer reads (an OpenHands
# output of a benchmark other than SWE-bench writes `id` and `test_result.result`, say).
_ID_PATHS = ("instance_id", "task_id", "id")
_VERDICT_PATHS = ("test_result.result", "test_result.resolved", "resolved", "is_resolved", "passed",
                  "success", "correct", "result")


def _mapping_command(fmt: str, path: Path, rec: Mapping[str, Any]) -> str | None:
    """The exact `import jsonl|json|csv` command that reads this record's kind, when its task id
    and a boolean verdict are where such files keep them; else None."""
    def at(dotted: str) -> Any:
        try:
            return _read_path(rec, tuple(dotted.split(".")))
        except _Unreadable:
            return None
    task = next((key for key in _ID_PATHS if isinstance(at(key), (str, int))), None)
    verdict = next((key for key in _VERDICT_PATHS if isinstance(at(key), bool)), None)
    if task is None or verdict is None:
        return None
    return (f"its records hold a task id ({task}) and a verdict ({verdict}): read them with "
            f"`{invoked('import')} {fmt} {shlex.quote(str(path))} --task-id {task} "
            f"--pass {verdict}`")


def read_openhands(options: ImportOptions) -> Imported:
    path = _one_path(options.files, "openhands")
    evaluated = _openhands_evaluated(path)
    rows: list[_Row] = []
    seen: dict[str, int] = {}
    metadata: dict[str, Any] = {}
    systems: set[tuple[str, str]] = set()
    graded: list[tuple[str, str, str]] = []
    for number, at, rec in _jsonl_objects(path):
        if "instance_id" not in rec or not ({"test_result", "report", "history"} & set(rec)):
            instead = (_no_verdicts(rec) or _mapping_command("jsonl", path, rec)
                       or "import output.jsonl after eval_infer.sh, or output.swebench_eval.jsonl")
            raise GateError(f"{at}: not an OpenHands output line "
                            f"(instance_id, test_result): {instead}")
        tid = _task_id(rec["instance_id"], f"{at}: instance_id")
        _once(seen, tid, at, number)
        meta = _sub(rec.get("metadata"))
        if meta:  # (a line the runtime gave up on may carry none)
            model = _sub(meta.get("llm_config")).get("model")
            systems.add((str(meta.get("agent_class")), str(model)))
        metadata = metadata or meta
        verdict = _openhands_verdict(rec)
        if evaluated and not str(rec.get("error") or "").startswith("Maximum retries"):
            own = verdict
            # the evaluation's own line; none: never evaluated (its report is all false)
            verdict, patch = evaluated.get(tid, (None, ""))
            if patch and _openhands_patch(rec):  # (an evaluation that timed out keeps none)
                graded.append((tid, _openhands_patch(rec), patch))
            passes = (own == ("pass", None)) != (verdict == ("pass", None))
            if isinstance(rec.get("report"), dict) and verdict is not None and passes:
                raise GateError(f"{at}: {tid}: its report and "
                                f"{path.name.replace('.jsonl', '.swebench_eval.jsonl')} "
                                "disagree on resolved: not the same evaluation; "
                                "import the evaluation file alone")
        metrics = _sub(rec.get("metrics"))
        usage = _sub(metrics.get("accumulated_token_usage"))
        measures: dict[str, object] = {
            "cost_usd": _cost_field(metrics.get("accumulated_cost")),
            "input_tokens": _count_field(usage.get("prompt_tokens")),
            "output_tokens": _count_field(usage.get("completion_tokens"))}
        verdict = verdict or ("unscoreable", "missing_artifact")
        rows.append((tid, 1, verdict, measures, {"line": number}))
    if not rows:
        raise GateError(f"{path}: no lines: an OpenHands output.jsonl holds one line an instance")
    if all(verdict == ("unscoreable", "missing_artifact") for _, _, verdict, _, _ in rows):
        raise GateError(f"{path}: "
                        f"{_no_verdicts({'instance_id': '', 'test_result': {}, 'history': []})}")
    model = _sub(metadata.get("llm_config")).get("model")
    agent = metadata.get("agent_class")
    split = metadata.get("data_split")
    named, commit = metadata.get("dataset"), metadata.get("git_commit")
    dataset = None
    if isinstance(named, str) and named:
        dataset = f"{named} ({split})" if isinstance(split, str) and split else named
    passed = sum(1 for *_, v, _, _ in rows if v[0] == "pass")
    official = "" if evaluated or "swebench_eval" in path.name else (
        "; with no output.swebench_eval.jsonl beside it (the official harness's report.json "
        "filled the flags), an incomplete instance cannot be told from an unresolved one: prefer "
        "`import swebench report.json`")
    return finish(Found(
        rows, False, 1, f"OpenHands {str(commit)[:12]}" if commit else "OpenHands",
        "OpenHands' output.swebench_eval.md counts resolved instances over the lines of "
        f"output.jsonl ({passed} resolved here, of {len(rows)} line(s) in {path.name}): an "
        "instance never evaluated is unresolved there and missing_artifact here" + official,
        measured={k: v for k, v in (("agent", agent), ("model", model))
                  if isinstance(v, str) and v},
        dataset_name=dataset, systems=tuple((path.name, f"agent {agent}, model {name}")
                                            for agent, name in sorted(systems)),
        graded=tuple(graded), graded_what=path.name.replace(".jsonl", ".swebench_eval.jsonl"),
        instrument={"commit": commit} if isinstance(commit, str) and commit else {}),
        options, "openhands", path)


# lm-evaluation-harness (lm_eval/evaluator.py, loggers/evaluation_tracker.py): samples_*.jsonl holds
# each document's pass@k, results_<date>.json the declared documents and the stated figure
def _lm_eval_files(options: ImportOptions) -> tuple[Path, str, Path | None]:
    """(the samples file, its task, the results file beside it or None)."""
    path = _one_path(options.files, "lm-eval")
    folder = path if path.is_dir() else path.parent
    if path.is_dir() or path.name.startswith("results_"):
        results = [path] if not path.is_dir() else sorted(folder.glob("results_*.json"))
        if len(results) != 1:
            raise GateError(f"{path}: {len(results)} results_*.json files: give one run's results "
                            "file, or one task's samples_<task>_<date>.jsonl")
        date = results[0].stem[len("results_"):]
        samples = sorted(folder.glob(f"samples_*_{date}.jsonl"))
        if not samples:
            raise GateError(f"{results[0]}: no samples_<task>_{date}.jsonl beside it: lm-eval "
                            "writes a verdict a document only with --log_samples; run it again "
                            "with --log_samples and import that")
        if len(samples) > 1:
            raise GateError(f"{results[0]}: {len(samples)} tasks "
                            f"({', '.join(p.name for p in samples)}): one claim is one task; "
                            f"import one samples file, e.g. `import lm-eval {samples[0]}`")
        path = samples[0]
    match = re.fullmatch(r"samples_(.+)_(\d{4}-\d\d-\d\dT[0-9.-]+)\.jsonl", path.name)
    if match is None:
        raise GateError(f"{path}: not an lm-eval samples_<task>_<date>.jsonl file (or "
                        "results_<date>.json)")
    results_file = folder / f"results_{match[2]}.json"
    return path, match[1], results_file if results_file.is_file() else None


def _lm_eval_passes(rec: Mapping[str, Any], n: int, at: str) -> int:
    """How many of a document's n generations passed: pass@1 (c/n), or a pass@k inverted."""
    scores = {key: value for key, value in rec.items()
              if re.fullmatch(r"pass(?:@|_at_)\d{1,9}", key) and _is_number(value)}
    one = next((float(scores[key]) for key in ("pass@1", "pass_at_1") if key in scores), None)
    if one is not None:
        if not 0 <= one <= 1 or abs(round(one * n) / n - one) > 1e-9:  # (NaN fails the first test)
            raise GateError(f"{at}: pass@1 {one!r} is not a count of passes over the document's "
                            f"{n} generation(s)")
        return round(one * n)
    # each pass@k allows counts (one, but a pass@k of 1 allows n - k + 1 to n): those all allow
    possible: set[int] | None = None
    for key, value in sorted(scores.items()):
        k = int(re.sub(r"\D", "", key))
        found = _passes_from_pass_at_k(float(value), n, k) if 0 < k <= n else set()
        if found:
            possible = found if possible is None else possible & found
    if possible is not None and len(possible) == 1:
        return possible.pop()
    shown = ", ".join(f"{key} {value!r}" for key, value in sorted(scores.items()))
    if possible:
        raise GateError(f"{at}: its pass@k ({shown}) hold for {min(possible)} to {max(possible)} "
                        f"passes of the document's {n} generations, so they do not say how many "
                        "passed: import the samples with pass@1 (lm-eval's humaneval and mbpp "
                        "tasks write it a document)")
    if possible is not None:
        raise GateError(f"{at}: its pass@k ({shown}) disagree: no count of passes of the "
                        f"document's {n} generations gives them all")
    raise GateError(f"{at}: no pass@k the gate can read "
                    f"({', '.join(scores) or 'none'}): the lm-eval samples of a "
                    "code task (humaneval, mbpp) carry pass@1 or pass@k a document")


def read_lm_eval(options: ImportOptions) -> Imported:
    path, task, results_file = _lm_eval_files(options)
    results = _sub(_harness_json(results_file)) if results_file is not None else {}
    rows: list[_Row] = []
    seen: dict[str, int] = {}
    budget = 1
    for number, at, rec in _jsonl_objects(path):
        doc = rec.get("doc_id")
        if not _is_int(doc) or cast(int, doc) < 0:
            raise GateError(f"{at}: doc_id: expected the document's index, got {_type_name(doc)}")
        tid = f"{task}/{doc}"
        _once(seen, tid, at, number)
        kept = rec.get("filtered_resps")
        n = len(kept[0]) if isinstance(kept, list) and kept and isinstance(kept[0], list) else 1
        if n == 0:
            raise GateError(f"{at}: filtered_resps: no generation of the document: a samples "
                            "line lm-eval wrote holds one or more")
        if n > MAX_ATTEMPT_BUDGET:
            raise GateError(f"{at}: {n:,} generations of one document, more than the gate takes a "
                            f"task ({MAX_ATTEMPT_BUDGET:,})")
        c = _lm_eval_passes(rec, n, at)
        budget = max(budget, n)
        named = _sub(rec.get("doc")).get("task_id")
        own = {"doc_id": doc, **({"task_id": named} if named else {})}
        rows += [(tid, attempt, ("pass", None) if attempt <= c else ("fail", None), {}, own)
                 for attempt in range(1, n + 1)]
    counts = _sub(_sub(results.get("n-samples")).get(task))
    original, effective = counts.get("original"), counts.get("effective")
    if _is_int(original) and not len(seen) <= cast(int, original) <= MAX_TASK_COUNT:
        raise GateError(f"{results_file}: n-samples.{task}.original: {original!r} "
                        f"documents, with {len(seen)} logged (at most "
                        f"{MAX_TASK_COUNT:,}, and no fewer than those logged)")
    figures = _sub(_sub(results.get("results")).get(task))
    stated_key = next((key for key in figures if re.match(r"pass(?:@|_at_)1,", key)), None)
    stated = figures.get(stated_key) if stated_key else None
    subset = None
    notes: list[str] = []
    if _is_int(original) and _is_int(effective) and cast(int, effective) < cast(int, original):
        subset = {"of": original,
                  "selection": f"lm-eval --limit/--samples: {effective} of the task's {original} "
                               "documents"}
    if budget > 1:
        notes.append(f"{path}: the file holds each document's pass@k, not a verdict a generation: "
                     "the c passing of its n generations are written as samples 1..c (their order "
                     "is not in the file; pass@k and pass^k need only c)")
    said = (f"lm-eval states {stated_key or 'pass@1'} = {stated!r} for {task}, the mean over the "
            f"{effective if _is_int(effective) else len(seen)} document(s) it evaluated"
            ) if stated is not None else (
        f"no results_<date>.json beside {path.name}: the declared documents are only those logged")
    declared: list[str] | None = None
    source = f"{results_file.name if results_file else ''} n-samples.{task}.original ({original})"
    if subset is not None:
        if len(seen) != effective:  # a document evaluated and not logged would vanish from a subset
            raise GateError(f"{path}: lm-eval evaluated {effective} documents of {task} "
                            f"({results_file} n-samples.{task}.effective) but the file logs "
                            f"{len(seen)}: import the samples file lm-eval wrote, whole")
        declared = sorted(seen)
        source = f"the {len(seen)} documents lm-eval logged, of the task's {original}"
    elif _is_int(original):
        declared = [f"{task}/{i}" for i in range(cast(int, original))]
    model = results.get("model_name") or _sub(results.get("config")).get("model_args")
    version = results.get("lm_eval_version")
    harness = f"lm-evaluation-harness {version}" if version else "lm-evaluation-harness"
    return finish(Found(
        rows, budget > 1, budget, harness, said, declared=declared, declared_from=source,
        subset=subset, subset_unit="documents", notes=tuple(notes),
        measured={"model": str(model)} if model else {}), options, "lm-eval", path)


# LiveCodeBench (lcb_runner/evaluation/testing_util.py): error_code -5 is the test runner's own
# failure (IndexError: its global timeout); -2, -3 and -4 are the program's
def _lcb_verdict(graded: object, meta: object, where: str) -> Verdict:
    if graded is True:
        return ("pass", None)
    try:
        info = json.loads(meta) if isinstance(meta, str) else meta
    except (ValueError, RecursionError):
        raise GateError(f"{where}: expected a JSON object (LiveCodeBench writes one a sample), got "
                        "text that is not one") from None
    if info is not None and not isinstance(info, dict):
        _expected(where, "a JSON object", info)
    info = info or {}
    if info.get("error_code") == -5:
        timeout = "IndexError" in str(info.get("error"))  # the runner's global timeout (see above)
        return ("unscoreable", "harness_timeout" if timeout else "grader_error")
    return ("fail", None)


def read_livecodebench(options: ImportOptions) -> Imported:
    path = _the_file(_one_path(options.files, "livecodebench"), "*_eval_all.json",
                     "LiveCodeBench *_eval_all.json")
    data = load_json_file(path, cap=MAX_HARNESS_BYTES)
    if not isinstance(data, list) or not all(isinstance(p, dict) and "question_id" in p
                                             for p in data):
        raise GateError(f"{path}: not a LiveCodeBench *_eval_all.json (a list of problems with "
                        "question_id and graded_list)")
    rows: list[_Row] = []
    seen: dict[str, int] = {}
    sizes: dict[str, int] = {}
    for index, problem in enumerate(data):
        at = f"{path}: [{index}]"
        graded = problem.get("graded_list")
        if not isinstance(graded, list):
            raise GateError(f"{at}: no graded_list: this file was not evaluated; run lcb_runner "
                            "with --evaluate and import its *_eval_all.json")
        tid = _task_id(problem["question_id"], f"{at}.question_id")
        _once(seen, tid, at, index + 1)
        if not all(isinstance(g, bool) for g in graded):
            raise GateError(f"{at}.graded_list: expected true or false a sample")
        meta = problem.get("metadata", [])
        if not isinstance(meta, list):
            _expected(f"{at}.metadata", "a list, one entry a sample", meta)
        sizes[tid] = len(graded)
        rows += [(tid, i + 1, _lcb_verdict(g, meta[i] if i < len(meta) else None,
                                           f"{at}.metadata[{i}]"), {}, {"index": index})
                 for i, g in enumerate(graded)]
    return finish(Found(rows, True, _samples_budget(sizes), "LiveCodeBench (lcb_runner)",
                        "LiveCodeBench's pass@1 is the mean over the problems in the file: "
                        f"{_mean_rate(rows):.4f}", named=list(sizes)),
                  options, "livecodebench", path)


# EvalPlus (evalplus/evaluate.py), BigCodeBench (bigcodebench/evaluate.py): {"eval": {task: [a
# sample, ...]}}; a timeout is the solution's own, a failed test, as both count it
def _eval_samples(data: Mapping[str, object], path: Path,
                  what: str) -> dict[str, list[dict[str, Any]]]:
    """The file's "eval" table: each task id with its samples, each an object."""
    table = data.get("eval")
    if not isinstance(table, dict) or not all(isinstance(v, list) for v in table.values()):
        raise GateError(f"{path}: not {what} (an object whose "
                        "\"eval\" maps each task to its samples)")
    return {_task_id(tid, f"{path}: eval key"): [_obj(s, f"{path}: eval.{tid}") for s in samples]
            for tid, samples in table.items()}


def _mean_rate(rows: Sequence[_Row]) -> float:
    by_task: dict[str, list[bool]] = {}
    for tid, _, verdict, _, _ in rows:
        by_task.setdefault(tid, []).append(verdict[0] == "pass")
    return math.fsum(sum(v) / len(v) for v in by_task.values()) / len(by_task) if by_task else 0.0


# EvalPlus 0.1.x: eval[task] = {"nfiles": n, "base": [[status, details], ...], "plus": [...]}
_EVALPLUS_01_STATUS = {"success": "pass", "failed": "fail", "timed out": "timeout", None: None}


def _evalplus_01(data: Mapping[str, object], path: Path) -> dict[str, object]:
    """An EvalPlus 0.1.x results file in the 0.2 form (one object a sample), else as it is."""
    table = data.get("eval")
    if not isinstance(table, dict) or not table or not all(
            isinstance(v, dict) and "nfiles" in v for v in table.values()):
        return dict(data)
    samples: dict[str, list[dict[str, object]]] = {}
    for tid, entry in table.items():
        where = f"{path}: eval.{tid}"
        base, plus = _list(entry.get("base"), f"{where}.base"), _list(entry.get("plus", []),
                                                                        f"{where}.plus")
        if entry.get("nfiles") != len(base) or (plus and len(plus) != len(base)):
            raise GateError(f"{where}: nfiles {entry.get('nfiles')!r}, {len(base)} base and "
                            f"{len(plus)} plus results: one result a sample in each")
        status = [[_EVALPLUS_01_STATUS.get(item[0] if isinstance(item, list) and item
                                           and isinstance(item[0], str) else "?", "?")
                   for item in column] for column in (base, plus)]
        if any(value == "?" for column in status for value in column):
            raise GateError(f"{where}: a result is not [status, details] with a status of "
                            "success, failed, timed out or null (EvalPlus 0.1.x)")
        samples[tid] = [{"base_status": b, "plus_status": status[1][i] if plus else None}
                        for i, b in enumerate(status[0])]
    return {**data, "eval": samples}


# What EvalPlus and BigCodeBench write for a sample (evalplus/eval: PASS, FAIL, TIMEOUT; an unknown
# outcome is written as a timeout): a timeout is the solution's and fails.
_SAMPLE_STATUS: Mapping[object, Verdict] = MappingProxyType({
    "pass": ("pass", None), "fail": ("fail", None), "timeout": ("fail", None)})


def _known(value: object, verdicts: Mapping[object, Verdict], where: str) -> Verdict:
    """A harness's status as the verdict its reader knows it for. Any other value, null included,
    is refused by name: a status no reader knows is never read as a fail, which would hide it from
    the attrition ceiling (the mapping importer's rule for null, for every reader)."""
    known = verdicts.get(value) if isinstance(value, (str, bool)) else None
    if known is None:
        _expected(where, " or ".join(json.dumps(k) for k in verdicts), value)
    return known


def read_evalplus(options: ImportOptions) -> Imported:
    path = _the_file(_one_path(options.files, "evalplus"), "*eval_results.json",
                     "EvalPlus *_eval_results.json")
    data = _evalplus_01(_harness_json(path), path)
    table = _eval_samples(data, path, "an EvalPlus *_eval_results.json (0.2 on: a list of samples "
                                      "a task; 0.1.x: nfiles, base, plus)")
    base_only = all(s.get("plus_status") is None for samples in table.values() for s in samples)
    tests = "base" if base_only else options.tests

    def verdict(tid: str, i: int, sample: Mapping[str, Any]) -> Verdict:
        at = f"{path}: {tid}: sample {i}"
        base = _known(sample.get("base_status"), _SAMPLE_STATUS, f"{at}: base_status")
        if tests == "base" or base[0] == "fail":
            return base
        return _known(sample.get("plus_status"), _SAMPLE_STATUS, f"{at}: plus_status")

    rows: list[_Row] = [(tid, i + 1, verdict(tid, i + 1, s), {},
                         {"base_status": s.get("base_status"), "plus_status": s.get("plus_status")})
                        for tid, samples in table.items() for i, s in enumerate(samples)]
    budget = _samples_budget({tid: len(s) for tid, s in table.items()})
    notes = ((f"{path}: run with --base-only: no plus tests, so the claim is the base tests' "
              f"({tests} tests)",)
             if base_only and options.tests == "plus" else ())
    name = ("HumanEval+/MBPP+ (base and plus tests)" if tests == "plus"
            else "HumanEval/MBPP (base tests only)")
    digest = data.get("hash")
    return finish(Found(
        rows, True, budget, f"EvalPlus ({tests} tests)",
        f"EvalPlus prints pass@1 over the {len(table)} task(s) in the file for {name}: "
        f"{_mean_rate(rows):.4f}; a timeout is the solution's and fails", notes=notes,
        named=list(table), dataset_name=f"{name}, dataset md5 {digest}"
        if isinstance(digest, str) else None), options, "evalplus", path)


def read_bigcodebench(options: ImportOptions) -> Imported:
    path = _the_file(_one_path(options.files, "bigcodebench"), "*_eval_results.json",
                     "BigCodeBench *_eval_results.json")
    table = _eval_samples(_harness_json(path), path, "a BigCodeBench *_eval_results.json")
    sibling = path.with_name(path.name.replace("_eval_results.json", "_pass_at_k.json"))
    summary = _optional_json(sibling) if sibling != path else {}
    failed = set(_id_list(summary, "failed_tasks", str(sibling))
                 if "failed_tasks" in summary else ())
    notes = []
    passing = any(s.get("status") == "pass" for v in table.values() for s in v)
    if failed and failed >= set(table) and passing:
        notes.append(f"{sibling}: failed_tasks names every task and some samples pass: a --no_gt "
                     "run (the ground truth was not checked), so no task is held unscoreable for "
                     "it")
        failed = set()

    def verdict(tid: str, i: int, sample: Mapping[str, Any]) -> Verdict:
        status = _known(sample.get("status"), _SAMPLE_STATUS, f"{path}: {tid}: sample {i}: status")
        return ("unscoreable", "env_flake") if tid in failed else status

    rows: list[_Row] = [(tid, i + 1, verdict(tid, i + 1, s), {}, {"status": s.get("status")})
                        for tid, samples in table.items() for i, s in enumerate(samples)]
    if failed:
        notes.append(f"{sibling}: the ground-truth solution of {len(failed & set(table))} "
                     "task(s) fails in this environment (failed_tasks, gt_pass_rate "
                     f"{summary.get('gt_pass_rate')}): its samples are unscoreable "
                     f"env_flake ({_preview(sorted(failed & set(table)))}), where "
                     "BigCodeBench's pass@1 counts them")
    stated = summary.get("pass@1")
    said = (f"BigCodeBench states pass@1 {stated!r} over the {len(table)} task(s) in the file"
            if stated is not None else
            f"no {sibling.name} beside the file: its pass@1 and ground-truth check are not read")
    split, part = summary.get("split"), summary.get("subset")
    return finish(Found(
        rows, True, _samples_budget({tid: len(s) for tid, s in table.items()}),
        f"BigCodeBench ({split or '?'}/{part or '?'})", said,
        measured={"model": summary["model"]} if isinstance(summary.get("model"), str) else {},
        notes=tuple(notes), named=list(table),
        dataset_name=f"BigCodeBench {split}/{part}"
        if isinstance(split, str) and isinstance(part, str) else None),
        options, "bigcodebench", path)


# MLE-bench (mlebench/grade.py): one grading report a seed. An invalid submission is grader_error:
# Grader.__call__ returns None for it and for a grader that failed (MLE-bench counts no medal).
def read_mle_bench(options: ImportOptions) -> Imported:
    reports = sorted({report for given in options.files for report in (
        sorted(given.rglob("*_grading_report.json")) if given.is_dir() else [given])})
    if not reports:
        raise GateError(f"{options.files[0]}: no *_grading_report.json: give MLE-bench's grading "
                        "reports, one a seed (or one report of a run with --n-seeds)")
    rows: list[_Row] = []
    stated, systems = [], []
    digests: dict[str, Path] = {}
    seeds: Counter[str] = Counter()
    for path in reports:
        data = _harness_json(path)
        first = digests.setdefault(hashlib.sha256(canonical_json(data)).hexdigest(), path)
        if first != path:  # the same report twice, however it is spaced, is one seed
            raise GateError(f"{path}: the same report as {first} "
                            "(the same JSON): a seed counted twice")
        found = data.get("competition_reports")
        if not isinstance(found, list):
            raise GateError(f"{path}: not an MLE-bench grading report (competition_reports)")
        for index, item in enumerate(found):
            rec = _obj(item, f"{path}: competition_reports[{index}]")
            tid = _task_id(rec.get("competition_id"),
                           f"{path}: competition_reports[{index}].competition_id")
            seeds[tid] += 1  # a report of an --n-seeds run holds a competition once a seed
            at = f"{path}: competition_reports[{index}]"
            rows.append((tid, seeds[tid], _mle_bench_attempt(rec, at), {},
                         {"report": path.name, **{key: rec.get(key) for key in (
                             "submission_exists", "valid_submission", "submission_path")}}))
            group = re.search(r"_run-group_([^/\\]+)", str(rec.get("submission_path") or ""))
            if group:
                systems.append((path.name, f"agent {group[1]}"))
        stated.append(f"{data.get('total_medals')}/{data.get('total_runs')}")
    budget = max(seeds.values(), default=1)
    agents = sorted({system for _, system in systems})
    return finish(Found(
        rows, budget > 1, budget, "MLE-bench (mlebench grade)",
        "MLE-bench's report totals are medals over the competitions each report holds "
        f"({', '.join(stated)}), not over the split"
        + ("" if options.dataset_ids is not None else
           "; give the split with --dataset-ids (experiments/splits/*.txt)"),
        run_id=_folder_name(reports[0].parent), systems=tuple(systems),
        # the run group names the agent (runs/<time>_run-group_<agent>/)
        measured={"agent": agents[0][len("agent "):]} if len(agents) == 1 else {}),
        options, "mle-bench", reports[0])


_MEDAL: Mapping[object, Verdict] = MappingProxyType({True: ("pass", None), False: ("fail", None)})


def _mle_bench_attempt(rec: Mapping[str, object], at: str) -> Verdict:
    """One competition run: any medal passes; no or an unscored submission is no attempt."""
    if rec.get("submission_exists") is False:
        return "unscoreable", "missing_artifact"
    if rec.get("valid_submission") is False:
        return "unscoreable", "grader_error"
    return _known(rec.get("any_medal"), _MEDAL, f"{at}.any_medal")


# HAL (hal/benchmarks/base_benchmark.py): a SWE-bench run report in raw_eval_results decides (HAL
# folds error_ids into failed_tasks and puts an empty patch in neither)
def read_hal(options: ImportOptions) -> Imported:
    path = _one_path(options.files, "hal")
    data = _harness_json(path)
    results, config = _sub(data.get("results")), _sub(data.get("config"))
    if "successful_tasks" not in results and "failed_tasks" not in results:
        raise GateError(f"{path}: not a HAL *_UPLOAD.json (results.successful_tasks, "
                        "results.failed_tasks)")
    report = _sub(data.get("raw_eval_results"))
    lists = {outcome: _id_list(results, key, f"{path}: results") if results.get(key) is not None
             else [] for outcome, key in (("pass", "successful_tasks"), ("fail", "failed_tasks"))}
    both = set(lists["pass"]) & set(lists["fail"])
    if both:
        raise GateError(f"{path}: results: {_preview(sorted(both))} in both successful_tasks and "
                        "failed_tasks: one verdict a task")
    verdicts: dict[str, Verdict] = {}
    # a SWE-bench run report: its own lists, the first that names a task deciding
    if "resolved_ids" in report:
        for key in _SWEBENCH_PRIMARY:  # (error_ids: no report.json, a grader_error)
            if report.get(key) is not None:
                for tid in _id_list(report, key, f"{path}: raw_eval_results"):
                    verdicts.setdefault(tid, _swebench_attempt(key, False, None))
    for outcome in ("fail", "pass"):
        for tid in lists[outcome]:
            verdicts.setdefault(tid, (outcome, None))
    walls = _sub(data.get("wall_clock_times"))
    rows: list[_Row] = [(tid, 1, verdict, {"wall_clock_s": walls[tid]} if _is_number(walls.get(tid))
                         else {}, {}) for tid, verdict in sorted(verdicts.items())]
    agent, model = config.get("agent_name"), _sub(config.get("agent_args")).get("model_name")
    limit = re.search(r"--max_tasks[ =](\d+)", str(config.get("run_command") or ""))
    # A --max_tasks N run takes the benchmark's first N tasks: with --dataset-ids (the benchmark's
    # tasks, in its order) the first N are declared, a subset of them, so a task of those that never
    # answered still counts.
    ids = options.dataset_ids
    first = ids[:int(limit[1])] if limit and ids is not None else None
    subset: dict[str, object] | None = None
    if limit and first is not None and len(first) < len(ids or ()):
        subset = {"selection": f"HAL --max_tasks {limit[1]} (the first {limit[1]} tasks of "
                               "--dataset-ids, in its order)"}
    elif limit:  # the part is declared by the run itself; the whole suite's size is not in the file
        subset = {"of": None, "selection": f"HAL --max_tasks {limit[1]} (the benchmark's first "
                                           f"{limit[1]} tasks)"}
    notes = (f"{path}: run with --max_tasks {limit[1]}: give --dataset-ids with the benchmark's "
             "task ids, in its order, to declare the run a subset of them",) \
        if limit and ids is None else ()
    benchmark = config.get("benchmark_name")
    return finish(Found(
        rows, False, 1, f"HAL ({config.get('benchmark_name', '?')})",
        f"HAL states accuracy {results.get('accuracy')!r} (its denominator is the benchmark's: a "
        "fixed task count for swebench_verified_mini, the tasks that produced output for "
        "corebench)",
        measured={k: v for k, v in (("agent", agent), ("model", model))
                  if isinstance(v, str) and v},
        declared=first if subset else None, subset=subset, notes=notes,
        declared_from=f"the first {len(first)} of --dataset-ids (HAL --max_tasks)"
        if first is not None else "",
        # without ids, a --max_tasks run that names fewer tasks than N lost some: refused
        total=int(limit[1]) if limit and ids is None else None,
        total_what=f"the run's --max_tasks ({path.name} run_command)",
        declare_hint="give --dataset-ids FILE with the benchmark's task ids, in its order",
        dataset_name=benchmark if isinstance(benchmark, str) and benchmark else None),
        options, "hal", path)


# aider's benchmark (benchmark/benchmark.py): tests_outcomes is one verdict a try; {"exception"} a
# crash
def read_aider(options: ImportOptions) -> Imported:
    path = _one_path(options.files, "aider")
    if path.suffix in (".yml", ".yaml"):
        raise GateError(f"{path}: aider's leaderboard YAML holds each run's totals, no verdict an "
                        "exercise: import the run folder (tmp.benchmarks/<date>--<name>/) whose "
                        "exercises hold .aider.results.json")
    if not path.is_dir():
        raise GateError(f"{path}: expected aider's benchmark run folder "
                        "(tmp.benchmarks/<date>--<name>/)")
    exercises = _aider_exercises(path)
    rows: list[_Row] = []
    measured: dict[str, object] = {}
    systems: list[tuple[str, str]] = []
    budget = 1
    for tid, folder in exercises.items():
        found = folder / ".aider.results.json"
        if not found.is_file():
            continue
        rec = _harness_json(found)
        if "exception" in rec:
            rows.append((tid, 1, ("unscoreable", "env_flake"), {}, {"exception": True}))
            continue
        outcomes = rec.get("tests_outcomes")
        if not isinstance(outcomes, list) or not all(isinstance(o, bool) for o in outcomes):
            raise GateError(f"{found}: tests_outcomes: expected a list of true/false, one a try")
        # (its duration is the model's time summed over the tries, no try's own: not a wall clock an
        # attempt)
        measures: dict[str, object] = {"cost_usd": _cost_field(rec.get("cost")),
                                       "input_tokens": _count_field(rec.get("prompt_tokens")),
                                       "output_tokens": _count_field(rec.get("completion_tokens"))}
        tries = outcomes or [False]
        budget = max(budget, len(tries))
        rows += [(tid, i + 1, ("pass", None) if ok else ("fail", None),
                  measures if i == len(tries) - 1 else {}, {}) for i, ok in enumerate(tries)]
        named = (("model", rec.get("model")), ("configuration", rec.get("edit_format")))
        system: dict[str, object] = {k: v for k, v in named if isinstance(v, str) and v}
        if system:
            systems.append((tid, ", ".join(f"{k} {v}" for k, v in system.items())))
        measured = measured or system
    completed = len({tid for tid, *_ in rows})
    passed = len({tid for tid, _, v, _, _ in rows if v[0] == "pass"})
    return finish(Found(
        rows, False, budget, "aider benchmark (benchmark/benchmark.py)",
        f"aider's pass_rate_{budget} divides by the exercises with a results file: "
        f"{passed}/{completed}",
        declared=list(exercises),
        declared_from=f"the {len(exercises)} exercise folders of {path.name}", measured=measured,
        run_id=_folder_name(path), systems=tuple(systems)), options, "aider", path)


def _aider_exercises(path: Path) -> dict[str, Path]:
    """A run's exercise folders by task: the polyglot layout's <language>/exercises/practice/<name>/
    (task <language>/<name>), else the earlier one's <name>/ (task <name>), found at any depth, as
    users sort them into failed/ or pass-at-1/: a folder with a .aider.results.json or an Exercism
    test file (<name>_test.py). A name found twice is refused."""
    polyglot = sorted(p for p in path.glob("*/exercises/practice/*")
                      if p.is_dir() and not p.is_symlink())
    if polyglot:
        return {f"{folder.parts[-4]}/{folder.name}": folder for folder in polyglot}
    folders = sorted({p.parent for pattern in (".aider.results.json", "*_test.py")
                      for p in path.rglob(pattern) if not p.is_symlink()
                      and ".aider" not in p.parent.name})
    exercises: dict[str, Path] = {}
    for folder in folders:
        if folder.name in exercises:
            raise GateError(f"{folder}: exercise {folder.name!r} again (first in "
                            f"{exercises[folder.name].parent}): each exercise once")
        exercises[_task_id(folder.name, f"{folder}: the exercise folder")] = folder
    if not exercises:
        raise GateError(f"{path}: no exercise folders: neither <language>/exercises/practice/"
                        "<exercise>/ (the polyglot benchmark) nor <exercise>/ with a "
                        ".aider.results.json or an <exercise>_test.py (the earlier Python "
                        "benchmark): not an aider benchmark run")
    return exercises


def read_swe_agent(options: ImportOptions) -> Imported:
    """SWE-agent writes predictions and trajectories, no verdicts: refused, saying how to grade."""
    path = _one_path(options.files, "swe-agent")
    if not path.is_file():
        raise GateError(f"{path}: cannot read: not a file (give SWE-agent's preds.json, "
                        "all_preds.jsonl or a trajectory)")
    if path.suffix in (".yaml", ".yml"):
        raise GateError(f"{path}: an exit-status list (each instance's exit status, no verdict): "
                        f"{_NO_VERDICTS_SWEBENCH.replace('FILE', 'preds.json')}")
    head = _json_lines_head(path)
    what = _no_verdicts(head if head is not None else _harness_json(path))
    raise GateError(f"{path}: " + (what or "SWE-agent and mini-swe-agent write predictions "
                                           "(preds.json) and trajectories, no verdicts: "
                                           f"{_NO_VERDICTS_SWEBENCH}"))


# -- the registry's rows ---------------------------------------------------


def _aider_target(path: Path) -> Path:
    """`import aider` takes the run folder: <run>/[<language>/exercises/practice/]<exercise>/."""
    if len(path.parents) > 4 and path.parents[2].name == "exercises":
        return path.parents[4]
    return path.parents[1] if len(path.parents) > 1 else path.parent


def _harbor_target(path: Path) -> Path:
    """`import harbor` takes the job folder of jobs/<job>/[<trial>/]result.json."""
    with open_input(path) as handle:
        job_result = b'"n_total_trials"' in handle.read(1 << 16)
    return path.parent if job_result else path.parent.parent


_IMPORTERS.update({fmt.name: fmt for fmt in (
    ImportFormat("swebench",
                 "a swebench.harness run report (any version; the SWE-bench-java and "
                 "Multi-SWE-bench\nforms too), optionally with its index.json; an experiments "
                 "results.json with\n--dataset-ids; or a logs/run_evaluation/<run>/<model>/ folder",
                 import_swebench,
                 ran_no_test=lambda rec: (_sub(rec.get("harness")).get("status_list")
                                          == "empty_patch_ids"),
                 no_test_why="swebench skips an empty patch without running a test: make the "
                             "no-edit patch a change no test reads (a comment in a file the tests "
                             "never import), so the tests run and fail",
                 no_edit="a predictions file whose model_patch for every instance is a change no "
                         "test reads (a comment in a file the tests never import): an empty patch "
                         "runs no test and cannot fail",
                 known_fix="python -m swebench.harness.run_evaluation --predictions_path gold "
                           "--run_id validate-gold",
                 signs=((b'"resolved_ids"',), (b'"total_instances"',),
                        (b'"resolved"', b'"no_generation"', b'"no_logs"')), sign_rank=13),
    ImportFormat("inspect", "Inspect AI logs (.json, or .eval where zstd can be read): one log, "
                 "several,\nor a folder (an eval set)", import_inspect,
                 options=("threshold", "partial_as", "model"),
                 no_edit="a task variant whose solver returns the untouched input (Inspect has no "
                         "standard one)",
                 known_fix="a task variant whose solver returns the target (Inspect has no "
                           "standard one)", signs=((b'"eval"', b'"status"'),), sign_rank=14),
    ImportFormat("terminal-bench", "Terminal-Bench 1.x runs: a run folder, or results.json with "
                 "its\nrun_metadata.json; several runs of one suite are one claim",
                 import_terminal_bench, no_edit="tb run --dataset ... --agent nop",
                 known_fix="tb run --dataset ... --agent oracle",
                 signs=((b'"trial_name"', b'"is_resolved"'),), sign_rank=11),
    ImportFormat("harbor", "Harbor job folders (jobs/<job>/: result.json, config.json, one folder "
                 "a trial);\nseveral jobs of one agent and dataset are one claim", import_harbor,
                 options=("threshold",), no_edit="harbor run -d <dataset> -a nop",
                 known_fix="harbor run -d <dataset> -a oracle",
                 signs=((b'"n_total_trials"',),  # a job's result.json, then one trial's
                        (b'"trial_name"', b'"agent_info"', b'"verifier_result"')), sign_rank=12,
                 import_target=_harbor_target),
    ImportFormat("publish-gate",
                 "the benchmark-card design note's report.json, when each outcome names its task",
                 import_publish_gate, signs=((b'"outcomes"', b'"attempt_budget"'),), sign_rank=15),
    ImportFormat("swe-polybench",
                 "a SWE-PolyBench submission's folder of <instance_id>_result.json files, with\n"
                 "--dataset-ids (PBVerified's 382, say): a missing instance is missing_artifact",
                 read_swe_polybench),
    ImportFormat("nocode-bench", "NoCode-bench's evaluation_details.jsonl, with --dataset-ids (the "
                 "split's ids)", read_nocode_bench,
                 no_edit="predictions whose patch changes nothing the tests read, through "
                         "evaluation/eval.py",
                 known_fix="the split's own feature_patch as each prediction, through "
                           "evaluation/eval.py",
                 signs=((b'"instance_id"', b'"resolved"', b'"P2P"'),), sign_rank=9),
    ImportFormat("openhands", "an OpenHands output.jsonl after evaluation (eval_infer.sh), or "
                 "its\noutput.swebench_eval.jsonl", read_openhands,
                 no_edit="an output.jsonl whose git_patch changes nothing the tests read, through "
                         "eval_infer.sh",
                 known_fix="the dataset's gold patch as each git_patch, through eval_infer.sh",
                 signs=((b'"instance_id"', b'"test_result"'),), sign_rank=8),
    ImportFormat("lm-eval", "lm-evaluation-harness samples_<task>_<date>.jsonl of a code task "
                 "(--log_samples),\nwith results_<date>.json beside it (or that results file, or "
                 "their folder)", read_lm_eval, sign_rank=3,
                 signs=((b'"doc_id"', b'"filtered_resps"'), (b'"n-samples"', b'"configs"'))),
    ImportFormat("livecodebench", "LiveCodeBench's *_eval_all.json (--dataset-ids: the release's "
                 "problems)", read_livecodebench,
                 signs=((b'"question_id"', b'"graded_list"'),), sign_rank=4),
    ImportFormat("evalplus", "EvalPlus's *_eval_results.json (--tests plus, the default, or base)",
                 read_evalplus, options=("tests",),
                 no_edit="a samples file whose solution for every task is its prompt alone (no "
                         "body), through evalplus.evaluate",
                 known_fix="a samples file of every task's canonical_solution (the dataset's own), "
                           "through evalplus.evaluate", sign_rank=1,
                 signs=((b'"eval"', b'"base_status"'), (b'"eval"', b'"nfiles"', b'"base"'))),
    ImportFormat("bigcodebench", "BigCodeBench's *_eval_results.json, with its *_pass_at_k.json "
                 "beside it", read_bigcodebench,
                 no_edit="a samples file whose solution for every task is its prompt alone, "
                         "through bigcodebench.evaluate",
                 known_fix="a samples file of every task's canonical_solution, through "
                           "bigcodebench.evaluate (its own ground-truth check, gt_pass_rate, is "
                           "the same run)", signs=((b'"eval"', b'"solution"', b'"status"'),),
                 sign_rank=2),
    ImportFormat("mle-bench", "MLE-bench grading reports, one a seed (--dataset-ids: the split's "
                 "competitions)", read_mle_bench, signs=((b'"competition_reports"',),),
                 sign_rank=5),
    ImportFormat("hal", "a HAL <run_id>_UPLOAD.json (decrypted)", read_hal,
                 signs=((b'"successful_tasks"',), (b'"raw_eval_results"',)), sign_rank=6),
    ImportFormat("aider", "aider's benchmark run folder (tmp.benchmarks/<date>--<name>/)",
                 read_aider,
                 no_edit="the exercises' stubs as they are, tested the same way (no model edit)",
                 known_fix="each exercise's example solution (.meta/example.*) in place of its "
                           "stub, tested the same way",
                 signs=((b'"tests_outcomes"',),), sign_rank=7, import_target=_aider_target),
    ImportFormat("swe-agent", "SWE-agent / mini-swe-agent preds.json or trajectories: refused (no "
                 "verdicts),\nnaming the SWE-bench harness command that grades them",
                 read_swe_agent, signs=((b'"instance_id"', b'"model_patch"'),), sign_rank=10),
    *(ImportFormat(name, what + " through a field mapping: --task-id PATH --pass EXPR [...]",
                   functools.partial(import_mapping, fmt=name), options=("mapping",))
      for name, what in (("jsonl", "any JSON Lines file of per-task (or per-attempt) records"),
                         ("json", "any JSON array of records, or object of task id -> record"),
                         ("csv", "any CSV file with a header row, a row a task (or attempt)"))),
)})


#####################################################################
# Drafts: a manifest from an import (`import --draft-manifest`) or a runs file (`init`), and the
# control runs added to it
#####################################################################


# how the draft's controls item starts, so a --control import can replace it
_CONTROLS_TODO = "controls: "
# the draft list's last item
_LAST_TODO = ("then delete this \"draft\" list (`set` does, once it has answered every item): "
              "check refuses a manifest that still has it")


def _controls_todo(fmt: ImportFormat | None, present: Collection[str]) -> str | None:
    """The draft's item about controls, given the control runs it already has (None: nothing left to
    do)."""
    missing = [role for role in CONTROL_RUN_ROLES if role not in present]
    if not missing:
        return None
    how = {"no_edit": f"a no-edit run ({fmt.no_edit})" if fmt and fmt.no_edit else "a no-edit run",
           "known_fix": (f"a known-fix run ({fmt.known_fix})" if fmt and fmt.known_fix
                         else "a known-fix run")}
    runs = " and ".join(how[role] for role in missing)
    if present:
        return (f"{_CONTROLS_TODO}control_runs has the {' and '.join(present)} run; "
                f"add {runs}, imported with --control "
                f"{' / --control '.join(missing)} -o RUNS --draft-manifest THIS_FILE")
    return (f"{_CONTROLS_TODO}none yet: add control_runs from {runs}, each imported with --control "
            "-o RUNS --draft-manifest THIS_FILE (or negative/positive control tasks with expected "
            "outcomes under controls)")


def _subset_name(name: str, imp: Imported, subset: Mapping[str, object]) -> str:
    """The dataset's name with the subset an import holds: how many of how many, and how it was
    chosen."""
    selection = subset["selection"]
    if subset.get("of") is not None:
        return (f"{name} (subset: {len(imp.task_ids)} of {subset['of']} {imp.subset_unit}, "
                f"{selection})")
    return f"{name} (subset: {_plural(len(imp.task_ids), 'task')}, {selection})"


def draft_manifest(imp: Imported, made: Mapping[str, object] | None = None) -> dict[str, object]:
    """A starting manifest from what the harness declared; `check` refuses it until a person
    completes it. `made`: how the import was made (its files, the verdict mapping, the command), for
    the provenance."""
    extra = [r for r in imp.extra_reasons if r not in BUILTIN_REASONS]
    envelope = dict(imp.envelope)
    for key in ENVELOPE_REQUIRED:
        envelope.setdefault(key, None if key == "wall_clock_s_per_task"
                            else f"TODO: {ENVELOPE_HELP[key]}")
    todo = [cast(str, _controls_todo(IMPORTERS.get(imp.source), ())), *imp.draft_todo]
    for key in ENVELOPE_REQUIRED:
        if envelope[key] is None or is_placeholder(envelope[key]):
            todo.append(f"envelope.{key}: {ENVELOPE_HELP[key]}"
                        + (f" ({imp.timeout_note})"
                           if key == "wall_clock_s_per_task" and imp.timeout_note else ""))
    if not imp.dataset_name:
        todo.insert(1, f"dataset.name: the suite and its version or split (the {imp.source} files "
                       "do not name it)")
    system = dict(imp.measured)
    # what was measured, where the files are silent
    for key in ("model", "agent"):
        if not any(name.startswith(key) for name in system):
            system[key] = (f"TODO: the {key} this run measured (the {imp.source} files do not "
                           "name it)")
            todo.insert(1, f"system.{key}: the {key} this run measured (the files do not name "
                           "it; or {\"not_disclosed\": \"why\"})")
    todo.append(_LAST_TODO)
    name = imp.dataset_name or f"TODO: name the {imp.source} dataset and split"
    dataset: dict[str, object] = {
        "name": _subset_name(name, imp, imp.subset) if imp.subset else name,
        "task_count": len(imp.task_ids),
        "task_ids": list(imp.task_ids),
        "task_ids_sha256": ids_digest(imp.task_ids),
    }
    if imp.subset:
        dataset["subset"] = dict(imp.subset)
    if imp.strata:
        dataset["strata"] = dict(imp.strata)
    return {
        "draft": todo,
        "claim_id": default_claim_id(imp),
        "dataset": dataset,
        "controls": [],
        "system": system,
        "envelope": envelope,
        "attempt_mode": imp.attempt_mode,
        "attempt_budget": imp.attempt_budget,
        "reason_classes": extra,
        "rerun_recipe": f"TODO: exact command that produced the run, e.g. {imp.rerun_hint}",
        "provenance": {"harness": str(imp.envelope.get("harness", imp.source)), **imp.provenance,
                       **(made or {}), "declared_set": "found" if imp.set_found else "declared"},
    }


def _claims_ledger(draft_path: Path) -> Path | None:
    """The runs file a draft's import wrote (its provenance.ledger.path), if it names one."""
    try:
        draft = load_json_file(draft_path)
    except GateError:
        return None
    path = _sub(_sub(_sub(draft).get("provenance")).get("ledger")).get("path")
    return draft_path.parent / path if isinstance(path, str) and path else None


def _refuse_the_claims_ledger(draft_path: Path, output: Path) -> None:
    """A control run is never written over the claim's own ledger, --force or not: the oracle's run
    would replace the claim and prove it."""
    claims = _claims_ledger(draft_path) if draft_path.exists() else None
    if claims is not None and ((claims.exists() and output.exists() and _same_file(claims, output))
                               or os.path.abspath(claims) == os.path.abspath(output)):
        raise GateError(f"{output}: is the claim's own ledger (the runs file {draft_path}'s import "
                        "wrote): a control run is a file of its own; give it another -o, e.g. "
                        f"{output.with_name('control.jsonl')}")


def default_claim_id(imp: Imported) -> str:
    """A draft's claim_id: the importer, the system where the files name it (agent, model), and the
    run, so two systems of one study never share one (`harbor-thinharness-20task` twice)."""
    named = [imp.measured.get(key) for key in ("agent", "model")]
    parts = [imp.source, *(str(part) for part in named if isinstance(part, str) and part
                          and not is_placeholder(part)), imp.run_id]
    slug = "-".join(re.sub(r"[^A-Za-z0-9._]+", "-", part).strip("-") for part in parts)
    return re.sub(r"-{2,}", "-", slug)[:160] or imp.source


def init_manifest(runs: Path | None) -> dict[str, object]:
    """`init`: a complete manifest template, every field named for what it holds; the dataset (task
    count, IDs, digest), the run and the attempt budget filled in from a runs file when one is
    given. It carries the draft list, so check refuses it (draft_manifest, placeholder_value) until
    a person completes it."""
    todo = ["placeholders: fill in every TODO: claim_id, dataset.name, the "
            "two control tasks, the envelope, the rerun recipe"]
    dataset: dict[str, object]
    extra: dict[str, object] = {}
    if runs is not None:
        tally = tally_runs(runs, Reading())
        ids = sorted(tally.tasks)
        budget = max(max(attempt_number(e) for e in task_attempts(p))
                     for p in tally.tasks.values()) if ids else 1
        dataset = {"name": "TODO: the suite and its version", "task_count": len(ids),
                   "task_ids": ids, "task_ids_sha256": ids_digest(ids)}
        if len(tally.all_run_ids) == 1:
            extra["run_id"] = next(iter(tally.all_run_ids))
        elif tally.all_run_ids:
            todo.append(f"run_id: the runs file holds {len(tally.all_run_ids)} runs: set run_id to "
                        "the one this claim publishes, or list them all under \"replicates\"")
        extra["attempt_budget"] = budget
        todo.append(f"dataset: the task list is what {runs} recorded: check it is the whole "
                    "declared suite, not what finished")
        recipe = ("TODO: the command that produced the runs, then: "
                  + check_command("bench.manifest.json", str(runs)))
    else:
        dataset = {"name": "TODO: the suite and its version", "task_count": 1,
                   "task_ids_sha256": f"replace-with-digest-from-gate ({invoked('digest')} --runs "
                                      "RUNS or --ids IDS)"}
        todo.append("set dataset.task_count to the number of tasks in the suite, and the digest "
                    f"from `{invoked('digest')}`")
        extra["attempt_budget"] = 1
        recipe = ("TODO: the command that produced the runs, then: "
                  + check_command("bench.manifest.json", "RUNS"))
    todo.append(_LAST_TODO)
    return {
        "draft": todo,
        "claim_id": "TODO: a name for this claim, e.g. my-agent-on-my-suite-2026-12-01",
        "dataset": dataset,
        "controls": [{"task_id": "TODO: a task that must fail untouched (no edit)",
                      "expected": "fail", "role": "negative"},
                     {"task_id": "TODO: a task whose known fix must pass", "expected": "pass",
                      "role": "positive"}],
        "system": {"agent": "TODO: the agent under test (name and version)",
                   "model": "TODO: the model it ran"},
        "envelope": {key: None if key == "wall_clock_s_per_task" else f"TODO: {ENVELOPE_HELP[key]}"
                     for key in ENVELOPE_REQUIRED},
        "attempt_mode": "retry",
        **extra,
        "rerun_recipe": recipe,
        "notes": [],
    }


# A control run's bound in a draft: tight enough that a broken harness trips it, and within the
# limits.
DRAFT_CONTROL_BOUNDS = {"no_edit": ("max_pass_rate", 0.05), "known_fix": ("min_pass_rate", 0.95)}


def _on_the_claims_tasks(imp: Imported, manifest_path: Path) -> Imported:
    """A control run over more tasks than the claim's manifest lists (a gold or no-op run of the
    whole split, for a claim on part of it), kept to the claim's tasks, with a note saying so; any
    other as it is (add_control_run refuses one that does not cover them all)."""
    if not manifest_path.exists():
        return imp  # (add_control_run says what to do)
    dataset = _obj(load_json_file(manifest_path), str(manifest_path)).get("dataset")
    listed = dataset.get("task_ids") if isinstance(dataset, dict) else None
    if not isinstance(listed, list) or not all(isinstance(tid, str) for tid in listed):
        return imp
    claim, covered = set(listed), set(imp.task_ids)
    if not claim < covered:
        return imp
    note = (f"the control run covers {len(covered)} tasks: the {len(claim)} the claim lists "
            f"({manifest_path}) are kept, the other {len(covered) - len(claim)} left out")
    return imp._replace(records=tuple(r for r in imp.records if r["task_id"] in claim),
                        task_ids=tuple(sorted(claim)), notes=(*imp.notes, note))


def add_control_run(draft_path: Path, imp: Imported, role: ControlRunRole, runs_path: Path,
                    made: Mapping[str, object] | None = None
                    ) -> tuple[dict[str, object] | None, dict[str, object]]:
    """The claim's draft manifest with this control run's entry added (or replaced), and the entry:
    the manifest must exist, declare the same tasks the control run covers, be bound to it (the
    same importer, verdict definition and instrument: a --threshold that turns a broken oracle's
    zeros into passes proves nothing, nor does a control made at another harness commit), with no
    more attempts a task than the claim's budget. `made`: how the control run was imported, which
    its entry records. A manifest that is no longer a draft is a person's file, never rewritten:
    None, and the caller says what entry to add."""
    where = str(draft_path)
    if not draft_path.exists():
        raise GateError(f"{where}: no draft to add the control run to: import the claim's own run "
                        "with --draft-manifest first, then its control runs with --control")
    draft = _obj(load_json_file(draft_path), where)
    dataset = _obj(draft.get("dataset"), f"{where}: dataset")
    if normal_digest(str(dataset.get("task_ids_sha256"))) != ids_digest(imp.task_ids):
        raise GateError(f"{where}: the control run covers {len(imp.task_ids)} task(s) hashing to "
                        f"{ids_digest(imp.task_ids)[:12]}, not the draft's suite: a control run is "
                        "over the same tasks (one over more, the draft's dataset.task_ids among "
                        "them, is kept to those): run it over the claim's tasks")
    bound = {key: made[key] for key in CONTROL_PROVENANCE_KEYS if made and key in made}
    problems = control_mismatch(_provenance_of(draft.get("provenance"), where),
                                _provenance_of(bound, where, CONTROL_PROVENANCE_KEYS))
    if problems:
        raise GateError(f"{where}: this {role} run is not bound to the claim: it is "
                        f"{'; and '.join(problems)}: a control run is made on the claim's "
                        "instrument and read under its verdict definition; make it there and "
                        "import it with the claim's options (provenance.command)")
    budget = draft.get("attempt_budget")
    most = max((cast(int, r["attempt"]) for r in imp.records), default=1)
    if _is_int(budget) and most > cast(int, budget):
        raise GateError(f"{where}: this {role} run holds {most} attempts a task, more than the "
                        f"claim's attempt_budget {budget}: import one run of the control (a "
                        "control run is judged on its own records, one attempt a task is enough)")
    relative = os.path.relpath(os.path.abspath(runs_path), os.path.abspath(draft_path.parent))
    if relative.startswith(".."):
        raise GateError(f"{runs_path}: a control run's file must sit in the manifest's folder "
                        f"({draft_path.parent})")
    key, limit = DRAFT_CONTROL_BOUNDS[role]
    entry: dict[str, object] = {"role": role, "runs": relative, key: limit}
    if bound:
        entry["provenance"] = {**bound, "ledger": {**_sub(bound.get("ledger")), "path": relative}}
    if "draft" not in draft:
        return None, entry
    entries = [e for e in _list(draft.get("control_runs", []), f"{where}: control_runs")
               if not (isinstance(e, dict) and e.get("role") == role)]
    entries.append(entry)
    draft["control_runs"] = entries
    present = [e.get("role")
               for e in entries if isinstance(e, dict) and e.get("role") in CONTROL_RUN_ROLES]
    fmt = IMPORTERS.get(imp.source)
    todo = [item for item in _list(draft["draft"], f"{where}: draft")
            if not (isinstance(item, str)
                    and item.startswith((_CONTROLS_TODO, "controls is empty")))
            and _still_to_do(draft, item)]
    left = _controls_todo(fmt, [r for r in CONTROL_RUN_ROLES if r in present])
    draft["draft"] = ([left] if left else []) + todo
    return draft, entry


def _holds_placeholder(value: object) -> bool:
    """Does a JSON value hold a TODO-style placeholder anywhere?"""
    if isinstance(value, dict):
        return any(_holds_placeholder(v) for v in value.values())
    if isinstance(value, list):
        return any(_holds_placeholder(v) for v in value)
    return is_placeholder(value)


def _still_to_do(draft: Mapping[str, object], item: object) -> bool:
    """Whether a draft's to-do item still stands: one that names a field (`envelope.network: ...`)
    the user has filled since does not, nor a controls item once controls or both control runs
    are there."""
    path = item.split(":", 1)[0] if isinstance(item, str) else ""
    if path == "controls":
        entries = draft.get("control_runs")
        runs = {e.get("role") for e in entries if isinstance(e, dict)} \
            if isinstance(entries, list) else set()
        return not (draft.get("controls") or runs >= set(CONTROL_RUN_ROLES))
    if path == "placeholders":  # while any field still holds one
        return _holds_placeholder({k: v for k, v in draft.items() if k != "draft"})
    if path == "run_id":
        return "run_id" not in draft and "replicates" not in draft
    if not re.fullmatch(r"[a-z_]+(?:\.[a-z_]+)+", path):
        return True
    value: object = draft
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return True
        value = value[part]
    return value is None or is_placeholder(value)


# `set`: the keys it fills, by where they sit (an open object takes any key but a near miss of one
# the gate reads); provenance and draft are the import's, never set by hand.
_SET_KEYS: Mapping[str, Sequence[str] | None] = MappingProxyType({
    "": MANIFEST_KEYS, "dataset": DATASET_KEYS, "dataset.subset": SUBSET_KEYS,
    "envelope": None, "system": None, "confirmed": None})
_NOT_SET = {"provenance": "the import's record of how the ledger was made (import again to change "
                          "it)", "draft": "the to-do list, which set keeps itself"}


def _set_value(text: str) -> object:
    """VALUE as `set` reads it: JSON where it parses (numbers, true, false, null, objects, lists,
    quoted strings), else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _set_key(draft: dict[str, Any], key: str, value: object, where: str) -> None:
    """One KEY=VALUE into the draft, the key checked against the schema (a did-you-mean for a near
    miss)."""
    parts = key.split(".")
    *parents, last = parts
    if parts[0] in _NOT_SET:
        raise GateError(f"{where}: set {key}: {parts[0]} is {_NOT_SET[parts[0]]}")
    for depth, part in enumerate(parts):  # each level a key the manifest has there
        known = _SET_KEYS.get(".".join(parts[:depth]), ())
        if known is None:  # an open object (envelope, system): any key below it
            break
        if part not in known and part != FREE_FORM_KEY and not part.startswith(USER_PREFIX):
            raise GateError(f"{where}: set {key}: unknown key {part!r}"
                            f"{did_you_mean(part, known)}; the keys there are "
                            f"{', '.join(known) or '(none: it is not an object)'}")
    if known is None and near_miss(last, ENVELOPE_REQUIRED) and last not in ENVELOPE_REQUIRED \
            and parents == ["envelope"]:
        raise GateError(f"{where}: set {key}: not a key the gate reads, and close to "
                        f"{near_miss(last, ENVELOPE_REQUIRED)!r}: did you mean it?")
    holder: Any = draft
    for part in parents:
        holder = holder.setdefault(part, {})
        if not isinstance(holder, dict):
            raise GateError(f"{where}: set {key}: {part} is not an object")
    holder[last] = value


def set_fields(draft: dict[str, Any], assignments: Sequence[str], confirms: Sequence[str],
               where: str) -> tuple[dict[str, Any], list[str]]:
    """The draft with each KEY=VALUE set and each --confirm WORD answered (recorded under
    `confirmed`), and the to-do items that still stand; with none left, the draft list is gone."""
    for assignment in assignments:
        key, sep, text = assignment.partition("=")
        if not sep or not re.fullmatch(r"[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*", key):
            raise GateError(f"{where}: set: {assignment!r}: expected KEY=VALUE, KEY a dotted path "
                            "(envelope.network=off)")
        _set_key(draft, key, _set_value(text), where)
    todo = [item for item in _list(draft.get("draft", []), f"{where}: draft")
            if item != _LAST_TODO and not str(item).startswith("then delete this")]
    for word in confirms:
        asked = [item for item in todo if str(item).split(":", 1)[0] == word]
        if not asked:
            words = sorted({str(i).split(":", 1)[0] for i in todo if ":" in str(i)})
            raise GateError(f"{where}: set --confirm {word}: no to-do item asks it; the items are "
                            f"{', '.join(words) or '(none)'}{did_you_mean(word, words)}")
        draft.setdefault("confirmed", {})[word] = str(asked[0]).partition(":")[2].strip()
        todo = [item for item in todo if item not in asked]
    left = [item for item in todo if _still_to_do(draft, item)]
    if left:
        draft["draft"] = [*left, _LAST_TODO]
    else:
        draft.pop("draft", None)
    return draft, left


#####################################################################
# The command line
#####################################################################

class _Formatter(argparse.RawDescriptionHelpFormatter):
    """argparse's formatter, keeping the description's line breaks. PERF: it is given the terminal's
    width (as shutil would find it), because argparse makes one for every option it adds and, given
    none, imports shutil each time to ask, which was the largest part of the gate's start-up."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        if width is None:
            try:
                width = int(os.environ["COLUMNS"])
            except (KeyError, ValueError):
                try:
                    width = (os.get_terminal_size(sys.__stdout__.fileno()).columns if sys.__stdout__
                             else 80)
                except (AttributeError, ValueError, OSError):
                    width = 80
            width = max(width, 1) - 2
        super().__init__(prog, indent_increment, max_help_position, width)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        # "gate.py check" -> "check"; main names the program itself
        command = self.prog.partition(" ")[2]
        raise GateError(f"{command + ': ' if command else ''}{message} (see "
                        f"{command + ' ' if command else ''}--help)")


def _path(text: str) -> Path:
    if "\0" in text:
        raise argparse.ArgumentTypeError(f"{text!r}: a path cannot hold a NUL byte")
    return Path(text)


MAX_JOBS = 64


def _jobs(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_JOBS:
        raise argparse.ArgumentTypeError("expected a whole number of processes from 1 to "
                                         f"{MAX_JOBS}, got {text!r}")
    return int(text)


def _confidence(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got "
                                         f"{text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError("expected a number between 0 and "
                                         f"1 (exclusive), got {text!r}")
    if value < 0.5:
        raise argparse.ArgumentTypeError(f"{text!r} is below 0.5: an interval that misses the "
                                         "truth more often than it holds it is no interval (0.9, "
                                         "0.95 and 0.99 are usual)")
    return value


def _output_spec(text: str) -> tuple[str, Path]:
    kind, sep, path = text.partition("=")
    if not sep or not path:
        raise argparse.ArgumentTypeError("expected FORMAT=PATH (e.g. "
                                         f"json=report.json), got {text!r}")
    if kind not in CHECK_OUTPUTS:
        raise argparse.ArgumentTypeError(f"unknown output format {kind!r}: expected one of "
                                         f"{', '.join(CHECK_OUTPUTS)}"
                                         f"{did_you_mean(kind, tuple(CHECK_OUTPUTS))}")
    return kind, _path(path)


def _format_options(parser: argparse.ArgumentParser, renderers: Renderers, what: str = "report",
                    confidence: str = "confidence level of every interval") -> None:
    """--format (its choices the command's own renderer table, so a format no renderer has cannot
    be asked for), --json and --confidence."""
    parser.add_argument("--format", choices=sorted(renderers), default="text",
                        help=f"{what} format (default: text)")
    parser.add_argument("--json", dest="format", action="store_const", const="json",
                        help="the same as --format json")
    parser.add_argument("--confidence", type=_confidence, default=0.95,
                        help=f"{confidence} (default: 0.95)")


def _output_options(parser: argparse.ArgumentParser, renderers: Renderers) -> None:
    """_format_options and --output."""
    _format_options(parser, renderers)
    parser.add_argument("--output", action="append", type=_output_spec, default=[],
                        metavar="FORMAT=PATH",
                        help="also write the report as FORMAT (text, json, markdown, svg; for "
                             "check also badge, an SVG badge, and shields, a shields.io endpoint) "
                             "to PATH, from the same run; repeatable")
    parser.add_argument("--github", action="store_true",
                        help="GitHub Actions mode (on by itself when GITHUB_ACTIONS=true): the "
                             "Markdown card to $GITHUB_STEP_SUMMARY, one ::error:: annotation per "
                             "finding, verdict and headline to $GITHUB_OUTPUT")


def github_escape(text: str, prop: bool = False) -> str:
    """A workflow command's data (or, with prop, a property) escaped as GitHub's toolkit does: % CR
    LF, and in a property also : and ,; and the runner's legacy `##[`, which it reads anywhere in a
    line, so a quoted input cannot cut the annotation short."""
    text = (text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
            .replace("##[", "#\\#["))
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def without_workflow_commands(text: str) -> str:
    """GitHub mode: a report line that would start with `::` after its leading whitespace (a stratum
    or metric named `::stop-commands::x`) is written with a backslash before the `::`, so the runner
    never reads a user's string as a workflow command; the gate's own annotations are added after
    this, unescaped."""
    if "::" not in text and "##[" not in text:
        return text
    # the runner's legacy `##[command]`, which it finds anywhere in a line
    text = text.replace("##[", "#\\#[")
    return "".join(line[:len(line) - len(line.lstrip())] + "\\" + line.lstrip()
                   if line.lstrip().startswith("::") else line
                   for line in text.splitlines(keepends=True))


class _InertStream:
    """GitHub mode's stderr: every line the gate writes (an input error quoting a file, an import's
    notes and to-dos) is escaped as stdout is, so no input can stop the runner's commands; the
    gate's own annotations go through annotate(), unescaped."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        return int(self.stream.write(without_workflow_commands(text)))

    def flush(self) -> None:
        self.stream.flush()

    def annotate(self, text: str) -> None:
        self.stream.write(text)


def annotate(text: str) -> None:
    """One of the gate's own workflow commands (`::error ...`), to stderr as it is."""
    stream = sys.stderr
    if isinstance(stream, _InertStream):
        stream.annotate(text)
    else:
        stream.write(text)


def _github_mode(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "github", False)) or os.environ.get("GITHUB_ACTIONS") == "true"


def _github_asked(arguments: Sequence[str]) -> bool:
    """GitHub mode before the arguments parse (for an error's annotation): the environment, or
    --github however abbreviated."""
    options = arguments[:list(arguments).index("--")] if "--" in arguments else arguments
    asked = any(len(a) > 3 and "--github".startswith(a) for a in options)
    return os.environ.get("GITHUB_ACTIONS") == "true" or asked


def _appendable(variable: str) -> None:
    """Before anything is written: the file a GitHub environment variable names can be appended to.
    """
    target = os.environ.get(variable)
    if target:
        try:
            with open(target, "a", encoding="utf-8"):
                pass
        except OSError as exc:
            raise GateError(f"${variable} ({target}): cannot append: "
                            f"{exc.strerror or exc}") from None


def _append_to(variable: str, text: str) -> None:
    """Append to the file a GitHub environment variable names (the step summary, the step outputs).
    """
    target = os.environ.get(variable)
    if not target:
        return
    try:
        with open(target, "a", encoding="utf-8", newline="\n") as out:
            out.write(text)
    except OSError as exc:
        raise GateError(f"${variable} ({target}): cannot append: {exc.strerror or exc}") from None


def _deliver(args: argparse.Namespace, result: Report | Comparison | Ranking,
             renderers: Renderers, inputs: Sequence[Path], headline: str,
             outputs_extra: Mapping[str, str] | None = None) -> str:
    """The report on stdout in --format; every --output written from the same result (atomically,
    never over an input); in GitHub mode the step summary, the annotations of the result's findings
    and the step outputs (its verdict, the headline, `outputs_extra`)."""
    outputs: list[tuple[str, Path]] = args.output
    for kind, _ in outputs:
        if kind not in renderers:
            raise GateError(f"--output {kind}=…: {args.command} writes {', '.join(renderers)}")
    refuse_clobber([path for _, path in outputs], list(inputs))
    github = _github_mode(args)
    if github:
        for variable in ("GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT"):
            _appendable(variable)
    rendered = {kind: renderers[kind](result) for kind in {k for k, _ in outputs}}
    for kind, path in outputs:
        write_new_file(path, rendered[kind], force=True)
    text = renderers[args.format](result)
    if github:
        text = without_workflow_commands(text)
        _append_to("GITHUB_STEP_SUMMARY", renderers["markdown"](result) + "\n")
        _append_to("GITHUB_OUTPUT", f"verdict={result.verdict}\nheadline={visible(headline)}\n"
                   + "".join(f"{key}={visible(value)}\n"
                             for key, value in (outputs_extra or {}).items()))
        notes = "".join("::error "
                        f"title={github_escape(visible(f.code), prop=True)}::"
                        f"{github_escape(visible(f.message))}\n"
                        for f in result.findings)
        text = text + notes if args.format == "text" else text
        if args.format != "text" and notes:
            # annotations are read from either stream; stdout stays one format
            annotate(notes)
    return text


def _report_inputs(report: Report) -> list[Path]:
    m = report.manifest
    return [m.path, *(p for p in (m.tasks_path, m.card_path) if p is not None),
            *(run.runs for run in m.control_runs)]


def _cmd_check(args: argparse.Namespace) -> tuple[str, int]:
    report = run_check(ClaimFiles(args.manifest, args.runs, args.run_id), args.confidence,
                       args.claim, jobs=args.jobs)._replace(badge_label=args.badge_label)
    head = report.ledger.headline
    headline = f"{_count(head.k)}/{head.n} = {head.value:.3f} [{head.low:.3f}, {head.high:.3f}]"
    text = _deliver(args, report, CHECK_OUTPUTS, [args.runs, *_report_inputs(report)], headline)
    return text, 0 if report.verdict == "PUBLISHABLE" else 1


def compare_direction(comp: Comparison) -> str:
    """Which side the comparison favours: "A_better", "B_better", or "none" (not significant, or not
    assessed)."""
    if not comp.significant:
        return "none"
    return "A_better" if comp.diff > 0 else "B_better"


# compare --fail-on: when a PUBLISHABLE comparison still fails a CI step (A, the candidate, against
# B, the baseline).
FAIL_ON: Mapping[str, Callable[[Comparison], bool]] = MappingProxyType({
    "regression": lambda comp: compare_direction(comp) == "B_better",
    "difference": lambda comp: compare_direction(comp) != "none",
})


def _cmd_compare(args: argparse.Namespace) -> tuple[str, int]:
    a_files = ClaimFiles(args.manifest, args.runs, args.run_id)
    b_files = ClaimFiles(args.against_manifest, args.against_runs, args.against_run_id)
    comp = run_compare(a_files, b_files, args.confidence, args.by_cluster)
    test = comp.test
    inputs = [args.runs, args.against_runs, *_report_inputs(comp.a), *_report_inputs(comp.b)]
    headline = f"A - B = {comp.diff:+.3f} [{_signed(test.low, 3)}, {_signed(test.high, 3)}]"
    outputs = {"significant": "true" if comp.significant else "false",
               "direction": compare_direction(comp),
               "difference": f"{comp.diff:.6g}", "ci_low": f"{test.low:.6g}",
               "ci_high": f"{test.high:.6g}"}
    if args.fail_on is not None:
        failed = comp.comparable and FAIL_ON[args.fail_on](comp)
        comp = comp._replace(fail_on=(args.fail_on, failed))
        outputs["fail_on"] = "failed" if comp.fail_on and comp.fail_on[1] else "passed"
    text = _deliver(args, comp, COMPARE_RENDERERS, inputs, headline, outputs)
    # the step fails: say why where GitHub shows it
    if comp.fail_on and comp.fail_on[1] and _github_mode(args):
        annotation = (f"::error title=compare --fail-on {args.fail_on}::"
                      f"{github_escape(_fail_on_text(comp))}\n")
        if args.format == "text":
            text += annotation
        else:
            annotate(annotation)
    return text, 1 if comp.verdict != "PUBLISHABLE" else 0


def read_rank_list(path: Path) -> list[tuple[Path, Path]]:
    """A rank list: a JSON array of {"manifest": PATH, "runs": PATH}, paths relative to the list's
    folder."""
    value = load_json_file(path)
    if not isinstance(value, list) or not value:
        raise GateError(f"{path}: expected a JSON array of "
                        "{\"manifest\": PATH, \"runs\": PATH} objects")
    systems = []
    for number, item in enumerate(value):
        where = f"{path}: [{number}]"
        if not isinstance(item, dict) or set(item) != {"manifest", "runs"}:
            raise GateError(f"{where}: expected an object with exactly "
                            "the keys \"manifest\" and \"runs\"")
        for key in ("manifest", "runs"):
            if not isinstance(item[key], str) or not item[key] or "\0" in item[key]:
                raise GateError(f"{where}.{key}: expected a path (a non-empty string)")
        pair = (_inside(path.parent, item["manifest"], where, "manifest"),
                _inside(path.parent, item["runs"], where, "runs"))
        for key, target in zip(("manifest", "runs"), pair):
            if not target.is_file():
                raise GateError(f"{where}.{key}: {item[key]!r} is not a file")
        systems.append(pair)
    return systems


def _cmd_rank(args: argparse.Namespace) -> tuple[str, int]:
    manifests, runs = args.manifest or [], args.runs or []
    if len(manifests) != len(runs):
        raise GateError(f"rank: {len(manifests)} --manifest and {len(runs)} --runs: give them in "
                        "pairs, one pair a system")
    systems = list(zip(manifests, runs))
    if args.list is not None:
        systems += read_rank_list(args.list)
    rank = run_rank(systems, args.confidence)
    inputs = [*(args.list,) * (args.list is not None), *(runs for _, runs in systems),
              *(p for r in rank.systems for p in _report_inputs(r))]
    best = rank.systems[rank.order[0]]
    headline = (f"{best.manifest.claim_id} first of {len(rank.systems)}, group "
                f"{rank.letters(rank.order[0])}")
    text = _deliver(args, rank, RANK_RENDERERS, inputs, headline)
    return text, 0 if rank.verdict == "PUBLISHABLE" else 1


def _cmd_init(args: argparse.Namespace) -> tuple[str, int]:
    if args.from_import:
        name, *files = args.from_import
        fmt = IMPORTERS.get(name)
        if fmt is None or not files:
            raise GateError("init --from-import FORMAT FILE...: expected a format "
                            f"({', '.join(IMPORTERS)}) and its "
                            f"file(s){did_you_mean(name, tuple(IMPORTERS)) if fmt is None else ''}")
        paths = [Path(f) for f in files]
        imported = fmt.read(ImportOptions(tuple(paths), None, "fail", 1.0))
        same = build_parser().parse_args(["import", name, *files])
        return _dump(_finite(draft_manifest(imported, _import_provenance(
            same, fmt, imported, _ledger_lines(imported))))), 0
    return _dump(init_manifest(args.from_runs)), 0


def _cmd_plan(args: argparse.Namespace) -> tuple[str, int]:
    for name in ("baseline", "detect", "discordance", "icc", "power"):
        value = getattr(args, name)
        if value is not None and not math.isfinite(value):
            raise GateError(f"plan: --{name}: expected a finite number, got {value!r}")
    plan = plan_suite(PlanQuestion(args.baseline, args.detect, args.discordance, args.samples,
                                   args.icc, args.power, args.confidence))
    return PLAN_RENDERERS[args.format](plan), 0


def _check_command(draft: Mapping[str, Any], where: str) -> str:
    """The command that checks the manifest just written: its rerun recipe with this manifest's path
    (a copy set under another name is that one), else check on the ledger its import wrote."""
    recipe = draft.get("rerun_recipe")
    given = isinstance(recipe, str) and not is_placeholder(recipe)
    try:
        words = shlex.split(cast(str, recipe)) if given else []
    except ValueError:  # a recipe shlex cannot split (an open quote): not one to rewrite
        words = []
    if "--manifest" in words[:-1]:
        words[words.index("--manifest") + 1] = where
        return shlex.join(words)
    ledger = _sub(_sub(draft.get("provenance")).get("ledger")).get("path")
    runs = os.path.normpath(os.path.join(os.path.dirname(where), ledger)) \
        if isinstance(ledger, str) else "RUNS"
    return check_command(where, runs)


def _cmd_set(args: argparse.Namespace) -> tuple[str, int]:
    where = str(args.manifest)
    if not args.assignments and not args.confirm:
        raise GateError("set: give KEY=VALUE (envelope.network=off) or --confirm WORD")
    draft = _obj(load_json_file(args.manifest), where)
    was_draft = "draft" in draft
    draft, left = set_fields(draft, args.assignments, args.confirm, where)
    text = _dump(draft)
    load_manifest(args.manifest, text.encode("utf-8"))  # a value of the wrong type is refused here
    write_new_file(args.manifest, text, force=True)
    for assignment in args.assignments:
        print(f"{args.prog}: set {visible(assignment)}", file=sys.stderr)
    for word in args.confirm:
        print(f"{args.prog}: confirmed {visible(word)}", file=sys.stderr)
    for item in left:
        print(f"{args.prog}: to do in {where}: {visible(str(item))}", file=sys.stderr)
    if was_draft and "draft" not in draft:
        shown = visible(_check_command(draft, where))
        print(f"{args.prog}: the draft is complete; check it: {shown}", file=sys.stderr)
    return "", 0


def _cmd_digest(args: argparse.Namespace) -> tuple[str, int]:
    if args.ids is not None:
        return ids_digest(read_id_list(args.ids)) + "\n", 0
    tally = tally_runs(args.runs, Reading(args.run_id))
    if not tally.tasks:
        raise GateError(f"{args.runs}: no attempt records")
    return ids_digest(tally.tasks) + "\n", 0


def _cmd_freeze(args: argparse.Namespace) -> tuple[str, int]:
    for name, minimum in (("wide_above", 0), ("min_per_stratum", 0), ("attempt_budget", 1)):
        if getattr(args, name) < minimum:
            raise GateError(f"freeze: --{name.replace('_', '-')}: expected an integer >= {minimum}")
    if args.attempt_budget > MAX_ATTEMPT_BUDGET:
        raise GateError(f"freeze: --attempt-budget: expected at most {MAX_ATTEMPT_BUDGET:,}")
    licenses = tuple(args.allow_license) if args.allow_license else DEFAULT_LICENSES
    rule = SliceRule(licenses, args.wide_above, args.min_per_stratum, args.withhold_thin_strata)
    refuse_clobber([args.card], [args.tasks])
    tasks = load_tasks(args.tasks)
    if args.card.exists() and not args.force:
        raise GateError(f"{args.card}: exists; a frozen card is "
                        "a record: pass --force to replace it")
    result = build_card(tasks, rule, args.attempt_budget, args.not_a_claim_about)
    if result.card is None:
        return _lines(["freeze refused: the slice does not meet its inclusion rule",
                       *(f"  ! {p}" for p in result.problems)]), 1
    write_new_file(args.card, _dump(result.card), args.force)
    card = result.card
    strata = ", ".join(f"{k}={v}" for k, v in card["strata"].items())
    withheld = f"; withheld: {', '.join(card['withheld'])}" if card["withheld"] else ""
    return _lines([f"froze {card['dataset_digest'][:12]} tasks={card['task_count']} -> {args.card}",
                   f"strata: {strata}{withheld}", f"task_ids_sha256: {card['task_ids_sha256']}"]), 0


def _cmd_verify(args: argparse.Namespace) -> tuple[str, int]:
    tasks = load_tasks(args.tasks)
    result = verify_card(tasks, load_card(args.card))
    if result.ok:
        return f"slice ok {result.digest[:12]} tasks={result.task_count}\n", 0
    return _lines([p if i == 0 else f"  ! {p}" for i, p in enumerate(result.problems)]), 1


def _cmd_import(args: argparse.Namespace) -> tuple[str, int]:
    if not math.isfinite(args.threshold):
        raise GateError("import: --threshold: expected a finite number")
    fmt = IMPORTERS[args.format]
    outputs = [path for path in (args.output, args.draft_manifest) if path is not None]
    refuse_clobber(outputs, [*args.files, *([args.dataset_ids] if args.dataset_ids else [])])
    for name, default in (("threshold", 1.0), ("partial_as", "fail"), ("tests", "plus")):
        if getattr(args, name) != default and name not in fmt.options:
            raise GateError(f"import {args.format}: --{name.replace('_', '-')} does not apply: "
                            "this harness's files carry their own pass/fail verdicts")
    if args.control and args.output is None:
        raise GateError("import --control: give -o RUNS: a control run is a file the manifest "
                        "names")
    if args.control and args.draft_manifest is not None:
        _refuse_the_claims_ledger(args.draft_manifest, args.output)
    for path in (args.output, None if args.control else args.draft_manifest):
        if path is not None and path.exists() and not args.force:
            if path == args.draft_manifest:
                raise GateError(f"{path}: exists: to add a control run to this draft, import it "
                                "with --control no_edit or --control known_fix (and its own -o "
                                "RUNS); to replace the claim's draft with this run, pass --force")
            raise GateError(f"{path}: exists; pass --force to replace it")
    ids = read_id_list(args.dataset_ids) if args.dataset_ids else None
    if args.model is not None and "model" not in fmt.options and args.agent is None:
        raise GateError(f"import {args.format}: --model declares the system with --agent (both: "
                        "the agent and the model the files do not name); Inspect's --model alone "
                        "chooses its logs")
    mapping = _field_mapping(args, fmt)
    imported = fmt.read(ImportOptions(tuple(args.files), ids, args.partial_as, args.threshold,
                                      args.control, args.model, mapping, args.tests,
                                      args.one_instrument, args.agent))
    if args.control and args.draft_manifest is not None:
        imported = _on_the_claims_tasks(imported, args.draft_manifest)
    lines = _ledger_lines(imported)
    made = _import_provenance(args, fmt, imported, lines)
    draft: dict[str, Any] | None = None
    if args.control == "no_edit" and fmt.ran_no_test is not None:
        vacuous = [rec for rec in imported.records if fmt.ran_no_test(rec)]
        if vacuous:
            raise GateError(f"import {args.format} --control no_edit: {len(vacuous)} of "
                            f"{len(imported.records)} attempts ran no test "
                            f"({_preview(str(r['task_id']) for r in vacuous)}): a control that "
                            f"cannot fail proves nothing; {fmt.no_test_why}")
    if args.draft_manifest is not None and args.control:
        draft, entry = add_control_run(args.draft_manifest, imported, args.control, args.output,
                                       made)
        if draft is None:  # a finished manifest: never rewritten, the entry to add is said
            print(f"{args.prog}: {args.draft_manifest} is no longer a draft, so it is not "
                  f"rewritten: add this entry to its control_runs: {json.dumps(entry)}",
                  file=sys.stderr)
    elif args.draft_manifest is not None:
        draft = draft_manifest(imported, made)
        if args.output is not None:
            draft["rerun_recipe"] = check_command(str(args.draft_manifest), str(args.output))
    # the runs file first: a draft never names a runs file that was not written
    if args.output is not None:
        write_new_file(args.output, lines, args.force)
    if draft is not None and args.draft_manifest is not None:
        write_new_file(args.draft_manifest, _dump(_finite(draft)), args.force or bool(args.control))
    for note in imported.notes:
        print(f"{args.prog}: note: {visible(_as_given(args, note))}", file=sys.stderr)
    if args.output is not None:
        summary = (f"imported {len(imported.records)} attempt(s) of {len(imported.task_ids)} "
                   f"task(s) -> {args.output}")
        print(f"{args.prog}: {visible(summary)}", file=sys.stderr)
    if draft is not None:
        for item in draft.get("draft", []):
            print(f"{args.prog}: to do in {args.draft_manifest}: {visible(str(item))}",
                  file=sys.stderr)
        recipe = draft.get("rerun_recipe")
        if isinstance(recipe, str) and not is_placeholder(recipe):
            print(f"{args.prog}: then check it: {visible(recipe)}", file=sys.stderr)
    return (lines if args.output is None else ""), 0


def _ledger_lines(imported: Imported) -> str:
    """The runs file an import writes: a record a line, strict JSON (a harness may write NaN where
    it has no number; check reads what import writes)."""
    return "".join(json.dumps(_finite(rec), ensure_ascii=False, separators=(",", ":"),
                              allow_nan=False) + "\n" for rec in imported.records)


_MAPPING_FLAGS = (("task_id", "--task-id"), ("passed", "--pass"), ("unscoreable", "--unscoreable"),
                  ("reason", "--reason"), ("attempt", "--attempt"), ("run_path", "--run-id"),
                  *((f"measure_{name}", f"--{name.replace('_', '-')}") for name in MEASURES),
                  ("samples", "--samples"), ("unreadable_as", "--unreadable-as"))
# the rest: None
_MAPPING_DEFAULTS = {"reason": "grader_error", "unreadable_as": "error", "samples": False}


def _mapping_given(args: argparse.Namespace, attr: str) -> bool:
    """Did the command line give this mapping flag (a value other than its own default)?"""
    return getattr(args, attr, None) not in (None, _MAPPING_DEFAULTS.get(attr))


def _field_mapping(args: argparse.Namespace, fmt: ImportFormat) -> FieldMapping | None:
    """The field mapping the command line gave, for the formats that take one (refused by the
    others)."""
    given = [flag for attr, flag in _MAPPING_FLAGS if _mapping_given(args, attr)]
    if "mapping" not in fmt.options:
        if given:
            raise GateError(f"import {args.format}: {given[0]} is for the mapping formats (jsonl, "
                            f"json, csv): {args.format} reads its harness's own fields")
        return None
    return FieldMapping(args.task_id, args.passed, args.unscoreable, args.reason, args.attempt,
                        args.run_path,
                        tuple((name, getattr(args, f"measure_{name}")) for name in MEASURES
                              if getattr(args, f"measure_{name}", None)), args.samples,
                              args.unreadable_as)


def _verdict_mapping(args: argparse.Namespace, fmt: ImportFormat, imported: Imported) -> list[str]:
    """The import's choices that decide a verdict, where they differ from the harness's own reading.
    """
    mapping = list(cast("Sequence[str]", imported.provenance.get("verdict_mapping", ())))
    if "mapping" in fmt.options:
        mapping.append(f"--pass {args.passed}" + (f"; --unscoreable {args.unscoreable} (reason {args.reason})"
                                                  if args.unscoreable else "")
                       + ("; --unreadable-as unscoreable"
                          if args.unreadable_as == "unscoreable" else ""))
    if "threshold" in fmt.options and args.threshold != 1.0:
        mapping.append(f"--threshold {args.threshold!r}: a score or reward of {args.threshold!r} "
                       "or more passes (default 1.0)")
    if "partial_as" in fmt.options and args.partial_as != "fail":
        mapping.append(f"--partial-as {args.partial_as}: a partial score (P) counts as "
                       f"{args.partial_as} (default fail)")
    if "tests" in fmt.options and args.tests != "plus":
        mapping.append(f"--tests {args.tests}: a sample passes on the base tests alone (default "
                       "plus: base and plus)")
    return mapping


def _import_provenance(args: argparse.Namespace, fmt: ImportFormat, imported: Imported,
                       lines: str) -> dict[str, object]:
    """What the draft records of how the ledger was made: each input with its sha256, the verdict
    mapping, the command that rebuilds the runs file, and the bindings check holds the claim's
    parts to: the ledger written (its sha256, runs and path), the verdict definition (every option
    that changes a verdict), the importer and the instrument the files record."""
    shown = [_as_given(args, str(p)) for p in args.files]
    files = [{"path": name, "sha256": _tree_sha256(path)} for name, path in zip(shown, args.files)]
    command = [*invoked("import").split(" "), args.format, *shown]
    if args.dataset_ids is not None:
        command += ["--dataset-ids", str(args.dataset_ids)]
    if "threshold" in fmt.options and args.threshold != 1.0:
        command += ["--threshold", repr(args.threshold)]
    if "partial_as" in fmt.options and args.partial_as != "fail":
        command += ["--partial-as", args.partial_as]
    if getattr(args, "model", None):
        command += ["--model", args.model]
    if "tests" in fmt.options and args.tests != "plus":
        command += ["--tests", args.tests]
    if "mapping" in fmt.options:
        for attr, flag in _MAPPING_FLAGS:
            value = getattr(args, attr, None)
            if value is True:
                command.append(flag)
            elif _mapping_given(args, attr):
                command += [flag, str(value)]
    if args.one_instrument:
        command.append("--one-instrument")
    if args.control and args.draft_manifest is not None:
        command += ["--control", args.control, "--draft-manifest", str(args.draft_manifest)]
    command += ["-o", str(args.output) if args.output is not None else "runs.jsonl"]
    ledger: dict[str, object] = {
        "sha256": hashlib.sha256(lines.encode("utf-8", "surrogatepass")).hexdigest(),
        "run_ids": sorted({str(rec["run_id"]) for rec in imported.records}),
        "attempt_mode": imported.attempt_mode}
    if args.output is not None and args.draft_manifest is not None:
        ledger["path"] = os.path.relpath(os.path.abspath(args.output),
                                         os.path.abspath(args.draft_manifest.parent))
    return {"files": files, "verdict_mapping": _verdict_mapping(args, fmt, imported),
            "options": _verdict_options(args, fmt),
            "command": shlex.join(command),
            "importer": fmt.name, "instrument": dict(imported.instrument), "ledger": ledger}


# The mapping importer's options that decide a verdict, by the name the definition records them.
_MAPPING_VERDICT = (("pass", "passed"), ("unscoreable", "unscoreable"), ("reason", "reason"),
                    ("unreadable_as", "unreadable_as"))


def _verdict_options(args: argparse.Namespace, fmt: ImportFormat) -> dict[str, object]:
    """The claim's verdict definition: every option of its format that changes a verdict, defaults
    included (a control run, and the other side of a compare, must match it)."""
    options: dict[str, object] = {name: getattr(args, name) for name in
                                  ("threshold", "partial_as", "tests") if name in fmt.options}
    if "mapping" in fmt.options:
        options.update((name, getattr(args, attr)) for name, attr in _MAPPING_VERDICT)
    return options


def _tree_sha256(path: Path) -> str:
    """A file's sha256, or a folder's: of each file's relative path and sha256, in path order."""
    if not path.is_dir():
        return _file_sha256(path)
    digest = hashlib.sha256()
    for item in sorted(p for p in path.rglob("*") if p.is_file()):
        digest.update(f"{item.relative_to(path).as_posix()}\0{_file_sha256(item)}\n"
                      .encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open_input(path) as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _finite(value: Any) -> Any:
    """A JSON value with every NaN or infinity (which strict JSON cannot hold) replaced by null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    return value


def _check_parser(sub: Any) -> None:
    check = sub.add_parser("check", help="gate a manifest against its attempt records (default command)",
                           epilog="exit codes: 0 PUBLISHABLE, 1 BLOCKED, 2 input or usage "
                                  "error, 3 internal error\n\nexample:\n  python3 gate.py check "
                                  "--manifest bench.manifest.json --runs runs.jsonl")
    check.add_argument("--manifest", required=True, type=_path, help="the claim's manifest (JSON)")
    check.add_argument("--runs", required=True, type=_path,
                       help="one JSON attempt record per line (JSONL)")
    _output_options(check, REPORT_RENDERERS)
    check.add_argument("--run-id",
                       help="gate only the records of this run_id "
                            "(default: all; several is a finding)")
    check.add_argument("--claim",
                       help="the number about to be quoted (78%%, 78.4, 0.784 or 29/37): "
                                       "BLOCKED unless it equals the headline at its written precision")
    check.add_argument("--badge-label", metavar="TEXT",
                       help="the badge's left text (default: the dataset's name), e.g. the system: "
                            "\"agent-x on local-40\"")
    check.add_argument("--jobs", type=_jobs, default=1, metavar="N",
                       help="tally a large runs file in task-ID order with N processes (default 1; "
                            "forks, where the system can; each worker holds its share of the task "
                            "IDs); the report is the same")
    check.set_defaults(handler=_cmd_check)


def _digest_parser(sub: Any) -> None:
    digest = sub.add_parser("digest", help="print the task_ids_sha256 of a runs file or an ID list",
                            epilog="example:\n  python3 gate.py digest --runs runs.jsonl")
    source = digest.add_mutually_exclusive_group(required=True)
    source.add_argument("--runs", type=_path, help="JSONL attempt records")
    source.add_argument("--ids", type=_path, help="one task ID per line")
    digest.add_argument("--run-id", help="only the records of this run_id")
    digest.set_defaults(handler=_cmd_digest)


def _card_parsers(sub: Any) -> None:
    for name, text, handler in (
            ("freeze", "freeze a task slice into a benchmark card (exit 1: refused)", _cmd_freeze),
            ("verify", "verify a task slice against its card (exit 1: drifted or refused)",
             _cmd_verify)):
        card = sub.add_parser(name, help=text,
                              epilog=f"example:\n  python3 gate.py {name} examples/card/tasks.json "
                                     "examples/card/card.json")
        card.add_argument("tasks", type=_path, help="JSON list of task objects")
        card.add_argument("card", type=_path, help="the benchmark card (JSON)")
        card.set_defaults(handler=handler)
        if name != "freeze":
            continue
        card.add_argument("--allow-license", action="append", metavar="NAME",
                          help="a license the slice admits; repeatable; replaces the default "
                               f"{', '.join(DEFAULT_LICENSES)}")
        card.add_argument("--wide-above", type=int, default=30, metavar="N",
                          help="an edit_span above N is 'wide', else 'narrow' (default: 30)")
        card.add_argument("--min-per-stratum", type=int, default=5, metavar="N",
                          help="the stratum floor (default: 5)")
        card.add_argument("--withhold-thin-strata", action="store_true",
                          help="record strata below the floor as withheld instead of refusing")
        card.add_argument("--attempt-budget", type=int, default=1, metavar="N",
                          help="attempts per task in the metric contract (default: 1)")
        card.add_argument("--not-a-claim-about", action="append", default=[], metavar="TEXT",
                          help="add to what the number is not a claim about; repeatable")
        card.add_argument("--force", action="store_true", help="replace an existing card")


def _compare_parser(sub: Any) -> None:
    compare = sub.add_parser("compare", help="paired comparison of two ledgers over the same suite",
                             epilog="exit codes: 0 both PUBLISHABLE and comparable, 1 BLOCKED (or, "
                                    "with --fail-on, a significant regression or difference), 2 "
                                    "input error\n\nexample:\n  python3 gate.py compare --manifest "
                                    "examples/compare/a.manifest.json --runs "
                                    "examples/compare/a.jsonl \\\n      --against-manifest "
                                    "examples/compare/b.manifest.json --against-runs "
                                    "examples/compare/b.jsonl")
    compare.add_argument("--manifest", required=True, type=_path, help="run A's manifest")
    compare.add_argument("--runs", required=True, type=_path, help="run A's records")
    compare.add_argument("--against-manifest", required=True, type=_path, help="run B's manifest")
    compare.add_argument("--against-runs", required=True, type=_path, help="run B's records")
    compare.add_argument("--run-id", help="run_id to select in A's records")
    compare.add_argument("--against-run-id", help="run_id to select in B's records")
    compare.add_argument("--fail-on", choices=tuple(FAIL_ON),
                         help="also exit 1 (a CI gate) when A, the candidate, is significantly "
                              "worse than B, the baseline (regression), or when they differ either "
                              "way (difference); without it, compare exits 1 only when BLOCKED")
    compare.add_argument("--by-cluster", action="store_true",
                         help="variance by the records' cluster (repository) instead of by task: "
                              "for a claim about new repositories, not this suite's")
    _output_options(compare, COMPARE_RENDERERS)
    compare.set_defaults(handler=_cmd_compare)


def _init_parser(sub: Any) -> None:
    parser = sub.add_parser("init", help="print a manifest template to complete (a draft: check refuses it until then)",
                            epilog="examples:\n  python3 gate.py init > bench.manifest.json\n  "
                                   "python3 gate.py init --from-runs runs.jsonl > "
                                   "bench.manifest.json\n  python3 gate.py init --from-import "
                                   "terminal-bench results.json > bench.manifest.json")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--from-runs", type=_path, metavar="RUNS",
                        help="fill in the dataset, the run and the budget from a runs file")
    source.add_argument("--from-import", nargs="+", metavar="FORMAT FILE",
                        help="the draft `import FORMAT FILE... --draft-manifest` would write (no "
                             "runs file is written)")
    parser.set_defaults(handler=_cmd_init)


def _set_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "set", help="fill a draft manifest's fields and answer its to-do items",
        epilog="VALUE is read as JSON where it parses (1800, true, null, "
               "{\"not_recorded\": \"why\"}, \"a quoted string\"), else as text. Each to-do "
               "item about a key set, or a word confirmed, leaves the draft list; with none left "
               "the list goes and the check command is printed.\n\nexamples:\n  python3 gate.py "
               "set bench.manifest.json "
               "envelope.runner=local-docker envelope.network=off\n  python3 gate.py set "
               "bench.manifest.json envelope.wall_clock_s_per_task='{\"not_recorded\": \"the "
               "harness does not record it\"}'\n  python3 gate.py set bench.manifest.json "
               "--confirm dataset")
    parser.add_argument("manifest", type=_path, metavar="MANIFEST", help="the manifest to edit")
    parser.add_argument("assignments", nargs="*", metavar="KEY=VALUE",
                        help="a dotted key and its value (system.model=gpt-5)")
    parser.add_argument("--confirm", action="append", default=[], metavar="WORD",
                        help="answer the to-do item that asks WORD (its first word: dataset), "
                             "recorded under confirmed so the card says the author confirmed it")
    parser.set_defaults(handler=_cmd_set)


def _rank_parser(sub: Any) -> None:
    parser = sub.add_parser("rank", help="rank several ledgers of one suite: which of them can be told apart",
                            epilog="exit codes: 0 every ledger PUBLISHABLE and comparable, 1 "
                                   "BLOCKED, 2 input error\n\nexamples:\n  python3 gate.py rank "
                                   "--manifest a.json --runs a.jsonl --manifest b.json --runs "
                                   "b.jsonl --manifest c.json --runs c.jsonl\n  python3 gate.py "
                                   "rank --list examples/rank/systems.json")
    parser.add_argument("--manifest", action="append", type=_path,
                        help="a system's manifest (repeat, paired with --runs)")
    parser.add_argument("--runs", action="append", type=_path, help="that system's records")
    parser.add_argument("--list", type=_path, metavar="FILE",
                        help='a JSON array of {"manifest": PATH, '
                             '"runs": PATH}, paths relative to FILE')
    _output_options(parser, RANK_RENDERERS)
    parser.set_defaults(handler=_cmd_rank)


def _plan_parser(sub: Any) -> None:
    parser = sub.add_parser("plan", help="how many tasks a comparison needs to detect a difference",
                            epilog="example:\n  python3 gate.py plan --baseline 0.7 --detect 0.05 "
                                   "--discordance 0.2 --samples 5")
    parser.add_argument("--baseline", type=float, required=True,
                        help="the pass rate of the system to beat")
    parser.add_argument("--detect", type=float, required=True,
                        help="the improvement to detect (0.05: five points)")
    parser.add_argument("--discordance", type=float,
                        help="the share of tasks one system passes and the other fails (default: "
                             "independent systems', the most conservative; a past compare prints "
                             "the observed one)")
    parser.add_argument("--samples", type=int, default=1, help="samples a task (default: 1)")
    parser.add_argument("--icc", type=float, default=1.0,
                        help="the between-task share of the paired difference's variance, for "
                             "--samples > 1: a past samples-mode compare of the two systems prints "
                             "it (typically 0.1-0.15 for correlated agents); default 1.0, which "
                             "gives extra samples no credit")
    parser.add_argument("--power", type=float, default=0.8,
                        help="the chance of detecting it (default: 0.8)")
    _format_options(parser, PLAN_RENDERERS, "output", "confidence level")
    parser.set_defaults(handler=_cmd_plan)


def _import_parser(sub: Any) -> None:
    formats = "".join(f"  {fmt.name:<15}{fmt.summary.replace(chr(10), chr(10) + ' ' * 17)}\n"
                      for fmt in IMPORTERS.values())
    parser = sub.add_parser(
        "import", help="convert harness results into runs.jsonl, never dropping a task",
        epilog=f"formats:\n{formats}\n"
               "example:\n  python3 gate.py import terminal-bench results.json -o runs.jsonl "
               "--draft-manifest bench.manifest.json")
    parser.add_argument("format", choices=tuple(IMPORTERS), help="the harness that wrote FILE")
    parser.add_argument("files", nargs="+", type=_path, metavar="FILE",
                        help="the harness's result file(s)")
    parser.add_argument("-o", "--output", type=_path,
                        help="write runs.jsonl here (default: standard output)")
    parser.add_argument("--draft-manifest", type=_path, metavar="FILE",
                        help="also write a starting manifest whose "
                             "dataset is what the harness declared")
    parser.add_argument("--dataset-ids", type=_path, metavar="FILE",
                        help="one task ID per line: the declared dataset (the suite the run was "
                             "of, so a task the files lack is counted), for every format")
    parser.add_argument("--partial-as", choices=("fail", "pass"), default="fail",
                        help="how an Inspect 'P' (partial) score counts (default: fail)")
    parser.add_argument("--threshold", type=float, default=1.0,
                        help="a numeric Inspect score at or above this passes (default: 1.0)")
    mapping = parser.add_argument_group(
        "the field mapping (jsonl, json, csv)",
        "PATH: a dotted path into a record (test_result.report.resolved; a CSV column's name); "
        "EXPR: path == literal, in, <, <=, >, >=, and, or, not, a bare boolean path; "
        "true/false/null. A CSV cell compared with a number is read as a number, with true/false "
        "as a boolean (true/false/1/0).")
    fields = (  # (option, destination, metavar, default, help)
        ("--task-id", "task_id", "PATH", None,
         "the task id (json: default the key of an object's entry)"),
        ("--pass", "passed", "EXPR", None, "true when the attempt passed"),
        ("--unscoreable", "unscoreable", "EXPR", None,
         "true when the harness gave no verdict (checked first)"),
        ("--reason", "reason", "CLASS|PATH", "grader_error",
         "an unscoreable record's reason: a built-in class (harness_timeout, grader_error, "
         "env_flake, missing_artifact, cancelled), or the PATH that holds one "
         "(default: grader_error)"),
        ("--attempt", "attempt", "PATH", None, "the attempt number (default: one record a task)"),
        ("--run-id", "run_path", "PATH", None, "the run id (default: the file's name)"),
        *((f"--{name.replace('_', '-')}", f"measure_{name}", "PATH", None,
           f"the record's {name.replace('_', ' ')}") for name in MEASURES))
    for option, dest, metavar, default, text in fields:
        mapping.add_argument(option, dest=dest, metavar=metavar, default=default, help=text)
    mapping.add_argument("--samples", action="store_true",
                         help="the attempts are samples (samples mode: "
                              "each a verdict of its own), not retries")
    mapping.add_argument("--unreadable-as", choices=("error", "unscoreable"), default="error",
                         help="a record the mapping cannot read (a missing path, a value that does "
                              "not compare): an input error naming the line and path (default), or "
                              "unscoreable missing_artifact")
    parser.add_argument("--tests", choices=("plus", "base"), default="plus",
                        help="evalplus: plus (a sample passes the base and the plus tests: "
                             "HumanEval+/MBPP+, the default) or base (HumanEval/MBPP's own tests): "
                             "two claims, never mixed")
    parser.add_argument("--model", metavar="MODEL",
                        help="the model the claim measured: Inspect imports only this model's logs "
                             "(eval.model, e.g. openai/gpt-4o); with --agent, for files that do "
                             "not name the system (or name aliases of one model), it is declared, "
                             "and the card says so")
    parser.add_argument("--agent", metavar="AGENT",
                        help="the agent the claim measured, for files that do not name it: "
                             "declared by the user (recorded, printed on the card); with --model, "
                             "several files whose names of the system differ are declared one")
    parser.add_argument("--control", choices=CONTROL_RUN_ROLES,
                        help="the files are a control run (a no-edit or a known-fix run of the "
                             "claim's suite): write it with -o and add its control_runs entry to "
                             "the --draft-manifest")
    parser.add_argument("--one-instrument", action="store_true",
                        help="several runs whose files record different harness commits or "
                             "releases are refused as one claim; this declares them one "
                             "instrument, which the manifest records and the card prints")
    parser.add_argument("--force", action="store_true", help="replace existing output files")
    parser.set_defaults(handler=_cmd_import)


def build_parser(prog: str = "gate.py", only: str | None = None) -> argparse.ArgumentParser:
    """The command line, named as invoked: `gate.py` (examples say `python3 gate.py`) or
    `benchgate`; with `only` (a command's name), the parser of that command alone."""
    doc = __doc__ or ""
    parser = _Parser(prog=prog, description=doc.split("\n\n")[0],
                     epilog=doc[doc.index("Commands:"):])
    parser.add_argument("--version", action="version", version=f"benchgate {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    # PERF: one command's parser when the command line names it (building all of them is a tenth of
    # a start)
    for add in dict.fromkeys([_COMMANDS[only]] if only in _COMMANDS else _COMMANDS.values()):
        add(sub)
    invocation = f"python3 {prog}" if prog.endswith(".py") else prog
    for each in (parser, *sub.choices.values()):
        if each.epilog:
            each.epilog = each.epilog.replace("python3 gate.py", invocation)
    return parser


# Each command, in the order --help lists them, and what adds its parser.
_COMMANDS = {"check": _check_parser, "digest": _digest_parser, "init": _init_parser,
             "freeze": _card_parsers,
             "verify": _card_parsers, "compare": _compare_parser, "rank": _rank_parser,
             "plan": _plan_parser, "import": _import_parser, "set": _set_parser}


def _prog_name() -> str:
    """The program as the user invoked it: `benchgate` (the installed command) or the script's file
    name."""
    name = Path(sys.argv[0] or "gate.py").name if sys.argv else "gate.py"
    return name if name == "benchgate" or name.endswith(".py") else "gate.py"


def _check_spelling(parser: argparse.ArgumentParser, arguments: Sequence[str]) -> None:
    """A misspelt command or option is named with the nearest real one, before argparse reports a
    missing required option instead (`--manfest` would otherwise read as "--manifest is required").
    """
    commands = tuple(_COMMANDS)
    first = arguments[0]
    if first not in commands:
        raise GateError(f"unknown command {first!r}{did_you_mean(first, commands)}; "
                        f"the commands are {', '.join(commands)} (see --help)")
    sub = next(a for a in parser._actions
               if isinstance(a, argparse._SubParsersAction)).choices[first]
    known = sorted(sub._option_string_actions)
    for token in arguments[1:]:
        if token == "--":
            break
        name = token.split("=", 1)[0]
        if not name.startswith("--") or name in sub._option_string_actions:
            continue
        starting = [option for option in known if option.startswith(name)]
        if len(starting) == 1:
            continue  # a unique abbreviation, which argparse accepts
        if starting:
            raise GateError(f"{first}: ambiguous option {name!r}: it could be "
                            f"{', '.join(starting)} (see {first} --help)")
        raise GateError(f"{first}: unknown option "
                        f"{name!r}{did_you_mean(name, known)} (see {first} --help)")


# The arguments that name an input file; any one of them may be `-`, standard input.
_INPUT_ARGS = ("manifest", "runs", "against_manifest", "against_runs", "files", "dataset_ids",
               "ids", "tasks")
MAX_STDIN_BYTES = 16 << 30
# the inputs read more than once (a pinned run's neighbours, replicates, a side gated again): given
# as a pipe, each is copied first; any other input is read once, within its own size limit
_REREAD_ARGS = ("runs", "against_runs")


def _is_pipe(path: Path) -> bool:
    """A pipe given by name (/dev/stdin, /dev/fd/N, a named pipe): it can be read only once."""
    try:
        return stat.S_ISFIFO(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False  # (open_input says what is wrong with it)


def _spool_inputs(args: argparse.Namespace) -> Any:
    """Copy standard input (an input given as `-`) and every runs file that is a pipe to a private
    file, so every reader can treat it as a file (some read twice, a zip reader seeks); a pipe
    named twice is read once. args.spooled maps each private file to the name given. Returns the
    temporary folder to remove, or None."""
    slots = []
    for name in _INPUT_ARGS:
        given = getattr(args, name, None)
        for index, value in enumerate(given if isinstance(given, list) else [given]):
            if isinstance(value, Path) and (str(value) == "-" or (name in _REREAD_ARGS
                                                                 and _is_pipe(value))):
                slots.append((name, index, value))
    if not slots:
        return None
    stdin = sum(str(value) == "-" for *_, value in slots)
    if stdin > 1 or (stdin and args.command == "verify" and str(args.card) == "-"):
        raise GateError("only one input can be standard input (-)")
    import tempfile

    folder = tempfile.TemporaryDirectory(prefix="benchgate-")
    args.spooled = {}
    targets: dict[str, Path] = {}
    for name, index, value in slots:
        target = targets.get(str(value))
        if target is None:
            target = Path(folder.name) / ("stdin" if str(value) == "-" else f"pipe-{len(targets)}")
            try:
                _spool(value, target)
            except GateError:
                folder.cleanup()
                raise
            targets[str(value)] = target
            args.spooled[str(target)] = str(value)
        held = getattr(args, name)
        if isinstance(held, list):
            held[index] = target
        else:
            setattr(args, name, target)
    return folder


def _as_given(args: argparse.Namespace, text: str) -> str:
    """The text with each private copy _spool_inputs made named as the user gave it."""
    for copy, given in sorted(getattr(args, "spooled", {}).items(), key=lambda kv: -len(kv[0])):
        text = text.replace(copy, given)
    return text


def _spool(given: Path, target: Path) -> None:
    """Copy standard input (given as `-`) or a pipe into `target`, up to MAX_STDIN_BYTES."""
    stdin = str(given) == "-"
    where, source = ("standard input", sys.stdin.buffer) if stdin else (str(given),
                                                                        open_input(given))
    size = 0
    try:
        with target.open("wb") as out:
            while True:
                chunk = source.read(_CHUNK_BYTES)
                if not chunk:
                    break
                size += len(chunk)
                if size > MAX_STDIN_BYTES:
                    raise GateError(f"{where}: larger than {MAX_STDIN_BYTES >> 30} GiB")
                out.write(chunk)
    finally:
        if not stdin:  # (standard input stays open, as it was given)
            source.close()


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: 0 PUBLISHABLE or done, 1 BLOCKED or refused, 2 bad input or usage, 3 a bug
    of ours. In GitHub mode stderr is inert too (_InertStream)."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not _github_asked(arguments):
        return _main(argv)
    stderr = sys.stderr
    sys.stderr = cast("Any", _InertStream(stderr))
    try:
        return _main(argv)
    finally:
        sys.stderr = stderr


def _main(argv: Sequence[str] | None) -> int:
    prog = _prog_name() if argv is None else "gate.py"
    _INVOKED[0] = f"python3 {prog}" if prog.endswith(".py") else prog
    spool = None
    arguments = list(sys.argv[1:] if argv is None else argv)
    if (arguments and arguments[0].startswith("-")
            and arguments[0] not in ("-h", "--help", "--version")):
        # The rerun recipe the outcome-ledger design note prints: gate.py --manifest M --runs R.
        arguments.insert(0, "check")
    parser = build_parser(prog, arguments[0] if arguments else None)
    try:
        if arguments and arguments[0] not in ("-h", "--help", "--version"):
            _check_spelling(parser, arguments)
        try:
            args = parser.parse_args(arguments)
        except SystemExit as exc:  # --help and --version
            return int(exc.code or 0)
        if args.command is None:
            parser.print_help(sys.stderr)
            return 2
        handler: Callable[[argparse.Namespace], tuple[str, int]] = args.handler
        args.prog = prog
        spool = _spool_inputs(args)
        try:
            text, code = handler(args)
        finally:
            if spool is not None:
                spool.cleanup()
    except GateError as exc:
        for message in exc.lines if isinstance(exc, BadLines) else [str(exc)]:
            if spool is not None:
                message = _as_given(args, message)
            print(f"{prog}: error: {visible(message)}", file=sys.stderr)
            if _github_asked(arguments):
                annotate(f"::error title={prog}::{github_escape(visible(message))}\n")
        if _github_asked(arguments):
            _github_error(exc.lines if isinstance(exc, BadLines) else [str(exc)])
        return 2
    # an input larger than this machine can hold: said as an input error, never a traceback
    except MemoryError:
        message = "the inputs need more memory than this machine has: give smaller files (see the size limits in docs)"
        print(f"{prog}: error: {message}", file=sys.stderr)
        if _github_asked(arguments):
            _github_error([message])
        return 2
    except Exception as exc:  # a bug of ours: exit 3, never 1, the code of BLOCKED
        return _internal_error(prog, exc, arguments)
    return _write_report(text, code)


# a bug in the gate: CI must not read it as a BLOCKED claim (1) or an input error (2)
EXIT_INTERNAL = 3


def _internal_error(prog: str, exc: Exception, arguments: Sequence[str]) -> int:
    """An exception the gate did not expect: one line naming it and asking for a report, the
    traceback only when BENCHGATE_DEBUG is set; exit 3."""
    message = (f"internal error: {type(exc).__name__}: {visible(str(exc))[:300]}: a bug in "
               "benchgate, not in your files; please report it with the command that caused it "
               "(BENCHGATE_DEBUG=1 shows the traceback)")
    print(f"{prog}: {message}", file=sys.stderr)
    if os.environ.get("BENCHGATE_DEBUG"):
        import traceback

        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
    if _github_asked(arguments):
        annotate(f"::error title={prog}::{github_escape(message)}\n")
        _github_error([message])
    return EXIT_INTERNAL


def _github_error(messages: Sequence[str]) -> None:
    """GitHub mode, on an input error: the step summary says what failed, and verdict=ERROR goes to
    the step outputs (a later step can tell an unreadable input from a BLOCKED claim). A file that
    cannot be appended to is passed over: the error itself is already on stderr."""
    summary = "### benchgate: **ERROR** (exit 2, the inputs could not be gated)\n\n" + "".join(
        f"- {_md(visible(m))}\n" for m in messages) + "\n"
    try:
        for variable in ("GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT"):  # both, or neither
            _appendable(variable)
        _append_to("GITHUB_STEP_SUMMARY", summary)
        _append_to("GITHUB_OUTPUT", "verdict=ERROR\n")
    except GateError:
        pass


def _write_report(text: str, code: int) -> int:
    """Print the report; a report that could not be printed is never a verdict (exit 2)."""
    if sys.stdout is None:  # started with standard output closed
        print("benchgate: error: standard output is closed: the report cannot be printed",
              file=sys.stderr)
        return 2
    return code if _write_stdout(text, "the report ") else 2


def _write_stdout(text: str, what: str = "") -> bool:
    """Write and flush standard output; False, said on stderr, when it cannot be written. A reader
    that stopped (piped into head) is not an error of ours."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        _discard_stdout()
    except (OSError, ValueError) as exc:  # /dev/full, a closed descriptor
        _discard_stdout()
        print(f"benchgate: error: cannot write {what}to standard output: "
              f"{getattr(exc, 'strerror', None) or exc}",
              file=sys.stderr)
        return False
    return True


def _discard_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def cli() -> NoReturn:
    """The installed `benchgate` and `python3 gate.py`: main, then an exit that skips tearing the
    interpreter down.

    PERF: freeing every module and object at exit took about a sixth of the installed command's
    start. Nothing is lost by skipping it: the report is written and flushed by then (and both
    streams are flushed again here), the gate registers no exit handler, and every file it writes or
    spools is closed or removed before main returns."""
    code = main()
    # what main left unflushed (argparse's --help, say)
    if sys.stdout is not None and not _write_stdout(""):
        code = 2
    try:
        if sys.stderr is not None:
            sys.stderr.flush()
    except (OSError, ValueError):
        pass
    os._exit(code)


if __name__ == "__main__":
    cli()
