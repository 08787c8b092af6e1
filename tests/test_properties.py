"""Property-based tests (hypothesis): generated valid ledgers, one-record edits of them, and the importers.

hypothesis is a development dependency: without it every test here is skipped with the reason, so a
bare `python3 -m unittest` still passes. Profiles (HYPOTHESIS_PROFILE):
  benchgate-default  12 examples per property, no shrinking (what plain `python3 -m unittest` runs)
  ci                 300 examples per property, failures shrunk
                     (`HYPOTHESIS_PROFILE=ci python -m unittest tests.test_properties`)
  dev                10 examples per property
With BENCHGATE_MUTATION=1 (what tests/mutation/run.sh runs the suite with) the profile is derandomized and uses no
example database: the same examples every run, so a mutant one of these tests kills is killed again on a rerun.
Each test class prints how many examples each property ran when it finishes.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import sys
import tempfile
import unittest
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import gate
from tests.builders import record
from tests.oracles import ids_digest
from tests.support import ROOT, GateCase

try:
    from hypothesis import HealthCheck, Phase, assume, given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover - exercised on a bare interpreter
    HAVE_HYPOTHESIS = False

    class _Absent:
        """Stands in for hypothesis.strategies, so decorators still build and the classes skip."""

        def __getattr__(self, _name: str) -> Any:
            return _Absent()

        def __call__(self, *args: Any, **kwargs: Any) -> Any:
            return _Absent()

    st = _Absent()  # type: ignore[assignment]
else:
    HAVE_HYPOTHESIS = True

SKIP_REASON = "hypothesis is not installed (pip install hypothesis, or `make properties`); property tests skipped"
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "benchgate-default")
EXAMPLES: Counter[str] = Counter()

if HAVE_HYPOTHESIS:
    _common: dict[str, Any] = {
        "deadline": None,
        "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
        "print_blob": True,
    }
    # The default keeps a bare `python3 -m unittest` fast: modest counts and no shrinking (a failure
    # is reported as found, at once); `ci` runs more examples and shrinks failures to a minimal case.
    _fast = [Phase.explicit, Phase.reuse, Phase.generate]
    settings.register_profile("benchgate-default", max_examples=12, phases=_fast, **_common)
    settings.register_profile("ci", max_examples=300, **_common)
    settings.register_profile("dev", max_examples=10, phases=_fast, **_common)
    settings.load_profile(PROFILE)
    # Under mutation testing (tests/mutation/run_suite.py sets BENCHGATE_MUTATION=1) every run draws the same
    # examples, so a kill by a property test repeats: derandomized (the seed is fixed by the test's own code), and no
    # example database (a failure found under one mutant must not be replayed under the next).
    if os.environ.get("BENCHGATE_MUTATION") == "1":
        settings.register_profile("mutation", settings.get_profile(PROFILE), derandomize=True, database=None)
        settings.load_profile("mutation")

EXTRA_REASONS = ("sandbox_oom", "cancelled", "quota_exceeded")


def _count(name: str) -> None:
    EXAMPLES[name] += 1


def _report_counts(cls: type) -> None:
    names = sorted(n for n in EXAMPLES if n.startswith(cls.__name__ + "."))
    if names:
        shown = ", ".join(f"{n.split('.', 1)[1]}={EXAMPLES[n]}" for n in names)
        print(f"\nhypothesis [{PROFILE}] examples run: {shown}", file=sys.stderr)


# ---------------------------------------------------------------------------------------------
# Generated ledgers
# ---------------------------------------------------------------------------------------------

class Spec:
    """A generated valid ledger and what it was built from."""

    def __init__(self, manifest: dict[str, Any], records: list[dict[str, Any]], mode: str, budget: int,
                 attempts: dict[str, list[dict[str, Any]]], negative: str, positive: str, with_ids: bool,
                 strata: dict[str, str] | None) -> None:
        self.manifest, self.records, self.mode, self.budget = manifest, records, mode, budget
        self.attempts, self.negative, self.positive, self.with_ids = attempts, negative, positive, with_ids
        self.strata = strata

    def exit_of(self, tid: str) -> str:
        outcomes = [r["outcome"] for r in self.attempts[tid]]
        if "pass" in outcomes:
            return "pass"
        if "fail" in outcomes:
            return "fail"
        return "unscoreable"


if HAVE_HYPOTHESIS:
    _id_chars = st.characters(whitelist_categories=("L", "N", "P", "S", "Zs"), blacklist_characters="\x85\xa0")
    task_ids = st.text(_id_chars, min_size=1, max_size=10).filter(
        lambda s: s == s.strip() and s.isprintable() and not gate.is_placeholder(s))  # "<>" reads as a draft's blank
    # an ID list may not start with a header word (`task_id`, `ids`, ...): the gate refuses those as headers
    listed_ids = task_ids.filter(lambda s: s.casefold() not in gate._ID_LIST_HEADERS and len(s.split()) == 1)
    # (nor hold whitespace: a line of several words looks like several IDs, and is refused)

    @st.composite
    def ledgers(draw: Any, modes: tuple[str, ...] = ("retry", "samples")) -> Spec:
        mode = draw(st.sampled_from(modes))
        budget = draw(st.integers(1, 3))
        ids = draw(st.lists(task_ids, min_size=2, max_size=24, unique_by=gate.fold_task_id))  # no look-alike IDs
        negative, positive = ids[0], ids[1]
        extras = draw(st.lists(st.sampled_from(EXTRA_REASONS), max_size=2, unique=True))
        reasons = list(gate.BUILTIN_REASONS) + extras
        use_strata = draw(st.booleans())
        stratum_names = draw(st.lists(st.sampled_from(["py", "js", "go:wide", "ünï"]), min_size=1, max_size=3,
                                      unique=True)) if use_strata else []
        with_ids = draw(st.booleans())
        with_clock = draw(st.booleans())
        outcome = st.sampled_from(["pass", "fail", "unscoreable"])

        attempts: dict[str, list[dict[str, Any]]] = {}
        strata: dict[str, str] | None = {} if use_strata else None
        # A valid ledger stays within the attrition ceiling (0.2 of the verdicts unscoreable): past the quota an
        # unscoreable draw becomes a fail.
        quota = [len(ids) * (budget if mode == "samples" else 1) // 5 - 1]  # one spare: a duplicated record

        def within(out: str) -> str:
            if out == "unscoreable":
                quota[0] -= 1
                return out if quota[0] >= 0 else "fail"
            return out

        for tid in ids:
            if mode == "samples":
                count = budget
            else:
                count = draw(st.integers(1, budget))
            if tid == negative:
                outs = ["fail"] * count
            elif tid == positive:
                outs = ["pass"] * count if mode == "samples" else [
                    *(within(draw(st.sampled_from(["fail", "unscoreable"]))) for _ in range(count - 1)), "pass"]
            else:
                outs = [within(draw(outcome)) for _ in range(count)]
                if mode == "retry" and "pass" in outs:  # a retried task stops at its first pass
                    outs = outs[:outs.index("pass") + 1]
            stratum = draw(st.sampled_from(stratum_names)) if use_strata else None
            if strata is not None:
                strata[tid] = stratum  # type: ignore[assignment]
            recs = []
            for number, out in enumerate(outs, 1):
                reason = draw(st.sampled_from(reasons)) if out == "unscoreable" else None
                extra: dict[str, Any] = {}
                if stratum is not None:
                    extra["stratum"] = stratum
                if with_clock:
                    extra["wall_clock_s"] = draw(st.floats(0, 900, allow_nan=False))
                recs.append(record(tid, out, reason, attempt=number, run_id="run-1", **extra))
            attempts[tid] = recs
        records = [r for tid in ids for r in attempts[tid]]
        order = draw(st.permutations(range(len(records))))
        records = [records[i] for i in order]
        manifest: dict[str, Any] = {
            "claim_id": "generated",
            "dataset": {"name": "generated-suite", "task_count": len(ids), "task_ids_sha256": ids_digest(ids)},
            "controls": [
                {"task_id": negative, "expected": "fail", "role": "negative"},
                {"task_id": positive, "expected": "pass", "role": "positive"},
            ],
            "envelope": {"runner": "test", "network": "off", "wall_clock_s_per_task": 900, "toolchain_sha": "0123abcd"},
            "attempt_budget": budget,
            "attempt_mode": mode,
            "reason_classes": extras,
            "rerun_recipe": "python3 gate.py --manifest m.json --runs r.jsonl",
        }
        if with_ids:
            manifest["dataset"]["task_ids"] = sorted(ids, reverse=draw(st.booleans()))
        if strata is not None:
            manifest["dataset"]["strata"] = dict(Counter(strata.values()))
        return Spec(manifest, records, mode, budget, attempts, negative, positive, with_ids, strata)
else:  # keep the names defined so the decorators below can be skipped
    def ledgers(*_: Any, **__: Any) -> Any:  # type: ignore[misc]
        return None

    task_ids = listed_ids = st.text()  # an _Absent: never drawn from


def _given(*args: Any, **kwargs: Any) -> Any:
    if HAVE_HYPOTHESIS:
        return given(*args, **kwargs)
    return lambda f: f


def _data() -> Any:
    return st.data() if HAVE_HYPOTHESIS else None


# ---------------------------------------------------------------------------------------------
# Parsing the text report back into figures
# ---------------------------------------------------------------------------------------------

_RATE = re.compile(r"^(?P<k>[0-9.]+)/(?P<n>\d+)(?: \w+)? = (?P<rate>[0-9.]+)  (?P<pct>[0-9.]+)% CI "
                   r"\[(?P<lo>[0-9.]+), (?P<hi>[0-9.]+)\]")


def parse_text(text: str) -> dict[str, Any]:
    """The figures of a text report: label -> value, rates parsed, findings as codes."""
    fields: dict[str, Any] = {"findings": [], "strata": {}}
    section = None
    for line in text.splitlines():
        if line.startswith("  ! "):
            fields["findings"].append(line[4:].split(":", 1)[0])
            continue
        indented = line.startswith("  ")
        label, sep, value = line.strip().partition(": ")
        if not sep:
            section = line.strip().rstrip(":").strip()
            continue
        label = label.strip()
        if not indented:
            section = None
        if indented and section == "strata":
            fields["strata"][label] = value
        elif label == "" and "labelled secondary" in value:
            fields["secondary"] = value
        elif not indented or label in ("pass", "fail", "unscoreable"):
            fields.setdefault(label, value)
    return fields


def parse_rate(text: str) -> dict[str, Any] | None:
    match = _RATE.match(text)
    if match is None:
        return None
    return {"k": match["k"], "n": int(match["n"]), "rate": float(match["rate"]),
            "lo": float(match["lo"]), "hi": float(match["hi"])}


# ---------------------------------------------------------------------------------------------
# 1-5: the ledger properties
# ---------------------------------------------------------------------------------------------

@unittest.skipUnless(HAVE_HYPOTHESIS, SKIP_REASON)
class LedgerProperties(GateCase):
    @classmethod
    def tearDownClass(cls) -> None:
        _report_counts(cls)

    def gate(self, spec: Spec, records: list[dict[str, Any]] | None = None, *extra: str) -> tuple[int, str, str]:
        return self.check(spec.manifest, spec.records if records is None else records, *extra)

    def report(self, spec: Spec, records: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The JSON report, from gate.run_check in-process (main's argument parser costs more than the
        gate itself; tests 1 and 5 go through main)."""
        manifest = self.write_json("bench.manifest.json", spec.manifest)
        runs = self.write_jsonl("runs.jsonl", spec.records if records is None else records)
        return json.loads(json.dumps(gate.report_json(gate.run_check(gate.ClaimFiles(manifest, runs)))))

    # (1) a generated valid ledger is PUBLISHABLE and exits == entries
    @_given(ledgers())
    def test_valid_ledger_is_publishable(self, spec: Spec) -> None:
        """A generated valid ledger, in retry or samples mode, is PUBLISHABLE with no finding, and every task exits
        once into the bucket its attempts imply.
        """
        _count("LedgerProperties.publishable")
        code, out, err = self.gate(spec, None, "--format", "json")
        self.assertEqual(code, 0, out + err)
        rep = json.loads(out)
        self.assertEqual(rep["verdict"], "PUBLISHABLE")
        self.assertEqual(rep["findings"], [])
        led = rep["ledger"]
        self.assertEqual(led["exits"], led["entries"])
        self.assertEqual(led["entries"], len(spec.attempts))
        self.assertEqual(led["pass"] + led["fail"] + led["unscoreable"], led["entries"])
        exits = Counter(spec.exit_of(t) for t in spec.attempts)
        self.assertEqual((led["pass"], led["fail"], led["unscoreable"]),
                         (exits["pass"], exits["fail"], exits["unscoreable"]))
        self.assertEqual(sum(led["unscoreable_reasons"].values()), led["unscoreable"])

    # (2) one deleted record, one duplicated record, one flipped control -> BLOCKED with the right code
    def expected_after_delete(self, spec: Spec, victim: dict[str, Any]) -> set[str] | None:
        tid, number = victim["task_id"], victim["attempt"]
        count = len(spec.attempts[tid])
        if count == 1:  # the task vanishes from the runs
            codes = {"dataset_size_mismatch", "ledger_does_not_balance"}
            codes.add("never_started" if spec.with_ids else "dataset_digest_mismatch")
            if tid in (spec.negative, spec.positive):
                codes.add("control_missing")
            if spec.strata is not None:
                codes.add("stratum_count_mismatch")
            return codes
        codes = set()
        if number < count:
            codes.add("attempt_gap")
        if spec.mode == "samples":
            codes.add("samples_incomplete")
        elif number == count and tid == spec.positive:
            # its last attempt was its only pass: what is left either failed or never scored
            left = [r["outcome"] for r in spec.attempts[tid][:-1]]
            codes.add("control_violated" if "fail" in left else "control_inconclusive")
        return codes or None  # None: dropping the last retry of a task leaves a valid shorter ledger

    @_given(ledgers(), _data())
    def test_delete_one_record_blocks(self, spec: Spec, data: Any) -> None:
        """Deleting any one record blocks with exactly the codes that deletion implies, or leaves a valid shorter
        ledger when it was a task's last retry.
        """
        _count("LedgerProperties.delete")
        index = data.draw(st.integers(0, len(spec.records) - 1), label="deleted record")
        victim = spec.records[index]
        mutated = spec.records[:index] + spec.records[index + 1:]
        expected = self.expected_after_delete(spec, victim)
        rep = self.report(spec, mutated)
        codes = {f["code"] for f in rep["findings"]}
        if expected is None:
            # The ledger cannot see a truncated retry sequence: the task simply exits earlier.
            self.assertEqual(spec.mode, "retry")
            self.assertEqual(rep["verdict"], "PUBLISHABLE", codes)
            return
        self.assertEqual(rep["verdict"], "BLOCKED")
        self.assertEqual(codes, expected)

    @_given(ledgers(), _data())
    def test_duplicate_one_record_blocks(self, spec: Spec, data: Any) -> None:
        """Duplicating any one record, inserted anywhere, blocks with attempt_repeated alone and still counts tasks, not rows."""
        _count("LedgerProperties.duplicate")
        index = data.draw(st.integers(0, len(spec.records) - 1), label="duplicated record")
        at = data.draw(st.integers(0, len(spec.records)), label="inserted at")
        mutated = list(spec.records)
        mutated.insert(at, dict(spec.records[index]))
        rep = self.report(spec, mutated)
        self.assertEqual(rep["verdict"], "BLOCKED")
        self.assertEqual({f["code"] for f in rep["findings"]}, {"attempt_repeated"})
        self.assertEqual(rep["ledger"]["exits"], rep["ledger"]["entries"])  # tasks, not rows

    @_given(ledgers(), _data())
    def test_flip_a_control_blocks(self, spec: Spec, data: Any) -> None:
        """Turning either control against its expectation blocks with control_violated alone, naming that control."""
        _count("LedgerProperties.flip_control")
        which = data.draw(st.sampled_from([spec.negative, spec.positive]), label="control")
        mutated = [dict(r) for r in spec.records]
        mine = [r for r in mutated if r["task_id"] == which]
        if which == spec.negative:  # expects fail: one passing attempt makes it pass (or mixed)
            # in retry mode the last attempt, so that no attempt follows the pass (that would be a second finding)
            flipped = max(mine, key=lambda r: r["attempt"]) if spec.mode == "retry" else data.draw(
                st.sampled_from(mine), label="flipped attempt")
            flipped["outcome"], flipped["reason"] = "pass", None
        else:  # expects pass: every attempt failing makes it fail
            for r in mine:
                r["outcome"], r["reason"] = "fail", None
        rep = self.report(spec, mutated)
        self.assertEqual(rep["verdict"], "BLOCKED")
        self.assertEqual({f["code"] for f in rep["findings"]}, {"control_violated"})
        self.assertIn(which, " ".join(f["message"] for f in rep["findings"]))

    # (3) shuffling the records leaves the reports byte-identical (but for the runs file's own hash)
    def all_formats(self, spec: Spec, records: list[dict[str, Any]]) -> dict[str, str]:
        """Every report format from one in-process gate run (main's renderers, without four parses)."""
        manifest = self.write_json("bench.manifest.json", spec.manifest)
        runs = self.write_jsonl("runs.jsonl", records)
        report = gate.run_check(gate.ClaimFiles(manifest, runs))
        runs_sha = hashlib.sha256(runs.read_bytes()).hexdigest()
        outputs = {"text": gate.render_text(report), "json": json.dumps(gate.report_json(report), indent=2),
                   "markdown": gate.render_markdown(report), "svg": gate.render_report_svg(report)}
        self.assertIn(runs_sha, outputs["text"])
        self.assertIn(runs_sha, outputs["json"])
        return {fmt: out.replace(runs_sha, "<runs-sha256>") for fmt, out in outputs.items()}

    @_given(ledgers(), st.randoms(use_true_random=False))
    def test_shuffle_leaves_reports_identical(self, spec: Spec, rnd: random.Random) -> None:
        """Shuffling the records leaves every report format byte-identical, but for the runs file's own hash."""
        _count("LedgerProperties.shuffle")
        shuffled = list(spec.records)
        rnd.shuffle(shuffled)
        before, after = self.all_formats(spec, spec.records), self.all_formats(spec, shuffled)
        self.assertIn("verdict     : PUBLISHABLE", before["text"])
        for fmt in before:
            self.assertEqual(before[fmt], after[fmt], fmt)

    # (4) the headline equals a direct count; Wilson bounds are sane
    @_given(ledgers())
    def test_headline_is_a_direct_count(self, spec: Spec) -> None:
        """The headline equals a direct count of the generated exits (retry) or samples (samples mode), inside its interval."""
        _count("LedgerProperties.headline")
        rep = self.report(spec)
        head = rep["headline"]
        n = len(spec.attempts)
        self.assertEqual(head["n"], n)
        if spec.mode == "retry":
            k = sum(spec.exit_of(t) == "pass" for t in spec.attempts)
            self.assertEqual(head["k"], k)
            self.assertEqual((head["ci_low"], head["ci_high"]), gate.wilson(k, n, 0.95))
        else:
            c = sum(r["outcome"] == "pass" for recs in spec.attempts.values() for r in recs)
            self.assertAlmostEqual(head["rate"], c / spec.budget / n, places=12)
            self.assertAlmostEqual(head["k"] * spec.budget, c, places=9)
        self.assertLessEqual(0.0, head["ci_low"])
        self.assertLessEqual(head["ci_low"], head["rate"])
        self.assertLessEqual(head["rate"], head["ci_high"])
        self.assertLessEqual(head["ci_high"], 1.0)

    @_given(st.integers(0, 200), st.integers(1, 200), st.integers(2, 6),
            st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99, 0.999]))
    def test_wilson_bounds(self, k: int, n: int, factor: int, confidence: float) -> None:
        """Wilson bounds lie in [0, 1] around k/n, reach 0 and 1 only at the edges, narrow with more tasks and widen
        with confidence.
        """
        _count("LedgerProperties.wilson")
        k = min(k, n)
        low, high = gate.wilson(k, n, confidence)
        self.assertLessEqual(0.0, low)
        self.assertLessEqual(high, 1.0)
        self.assertLessEqual(low, k / n)
        self.assertLessEqual(k / n, high)
        self.assertEqual(low == 0.0, k == 0)
        self.assertEqual(high == 1.0, k == n)
        big_low, big_high = gate.wilson(k * factor, n * factor, confidence)  # same k/n, more tasks
        self.assertLess(big_high - big_low, high - low)
        self.assertLessEqual(big_low, k / n)
        self.assertLessEqual(k / n, big_high)
        wider_low, wider_high = gate.wilson(k, n, min(0.9999, confidence + 0.0005))
        self.assertLessEqual(wider_low, low)
        self.assertGreaterEqual(wider_high, high)

    # (5) the JSON report round-trips and agrees with the text report
    @_given(ledgers(), _data())
    def test_json_round_trips_and_matches_text(self, spec: Spec, data: Any) -> None:
        """The JSON report round-trips and agrees with the text report figure by figure, for valid and blocked ledgers."""
        _count("LedgerProperties.json_vs_text")
        records = spec.records
        if data.draw(st.booleans(), label="blocked variant"):
            records = records[1:]  # a BLOCKED report must agree with its text too
        code_j, out_j, err_j = self.gate(spec, records, "--format", "json")
        code_t, out_t, err_t = self.gate(spec, records)
        self.assertEqual(code_j, code_t)
        self.assertIn(code_j, (0, 1), err_j + err_t)
        rep = json.loads(out_j)
        self.assertEqual(json.dumps(rep, indent=2, ensure_ascii=False) + "\n", out_j)
        self.assertEqual(json.loads(json.dumps(rep)), rep)
        text = parse_text(out_t)
        led = rep["ledger"]
        self.assertEqual(text["claim"], rep["claim_id"])
        self.assertEqual(int(text["entries"]), led["entries"])
        self.assertEqual(int(text["exits"].split()[0]), led["exits"])
        for bucket in ("pass", "fail", "unscoreable"):
            self.assertEqual(int(text[bucket].split()[0]), led[bucket])
        shown = text["unscoreable"].split("(", 1)[1].rstrip(")").split("; ") if "(" in text["unscoreable"] else []
        if rep["attempt_mode"] == "retry":  # the ceiling in force, beside the count it bounds
            lost = rep["attrition"]
            self.assertEqual(shown.pop(), f"ceiling {lost['ceiling']:g} of {led['entries']} tasks")
        if led["unscoreable_reasons"]:
            self.assertEqual(shown, [", ".join(f"{r} {c}" for r, c in led["unscoreable_reasons"].items())])
        head = parse_rate(text[rep["headline"]["name"]])
        assert head is not None
        self.assertEqual(head["n"], rep["headline"]["n"])
        for key, json_key in (("rate", "rate"), ("lo", "ci_low"), ("hi", "ci_high")):
            self.assertAlmostEqual(head[key], rep["headline"][json_key], delta=0.0005 + 1e-12)
        if rep["secondary"] is None:
            self.assertTrue(text["secondary"].startswith("n/a"), text["secondary"])
        else:
            second = parse_rate(text["secondary"])
            assert second is not None
            self.assertEqual(second["n"], rep["secondary"]["n"])
            self.assertAlmostEqual(second["rate"], rep["secondary"]["rate"], delta=0.0005 + 1e-12)
        for stratum in rep["strata"]:
            shown = text["strata"][stratum["name"]]
            if stratum["rate"] is None:
                self.assertFalse(_RATE.match(shown), shown)
            else:
                parsed = parse_rate(shown)
                assert parsed is not None
                self.assertEqual(parsed["n"], stratum["rate"]["n"])
                self.assertAlmostEqual(parsed["rate"], stratum["rate"]["rate"], delta=0.0005 + 1e-12)
        self.assertEqual(len(text["strata"]), len(rep["strata"]))
        self.assertEqual(text["verdict"], rep["verdict"])
        self.assertEqual(text["findings"], [f["code"] for f in rep["findings"]])
        self.assertEqual(text["manifest"], "sha256 " + rep["inputs"]["manifest_sha256"])
        self.assertEqual(text["runs"], "sha256 " + rep["inputs"]["runs_sha256"])


# ---------------------------------------------------------------------------------------------
# 6: import -> check on generated harness files
# ---------------------------------------------------------------------------------------------

@unittest.skipUnless(HAVE_HYPOTHESIS, SKIP_REASON)
class ImportProperties(GateCase):
    @classmethod
    def tearDownClass(cls) -> None:
        _report_counts(cls)

    def import_then_check(self, fmt: str, files: list[Path], declared: list[str], *extra: str) -> None:
        out_dir = Path(tempfile.mkdtemp(dir=self.dir))  # a fresh folder per example: outputs never pre-exist
        runs, draft = out_dir / "runs.jsonl", out_dir / "draft.json"
        code, _out, err = self.run_gate("import", fmt, *map(str, files), "-o", str(runs),
                                       "--draft-manifest", str(draft), *extra)
        self.assertEqual(code, 0, err)
        records = [json.loads(line) for line in runs.read_text(encoding="utf-8").splitlines()]
        self.assertEqual({r["task_id"] for r in records}, set(declared))
        manifest = json.loads(draft.read_text(encoding="utf-8"))
        self.assertEqual(manifest["dataset"]["task_count"], len(declared))
        self.assertEqual(manifest["dataset"]["task_ids"], sorted(declared))
        self.assertEqual(manifest["dataset"]["task_ids_sha256"], ids_digest(declared))
        rep = json.loads(json.dumps(gate.report_json(gate.run_check(gate.ClaimFiles(draft, runs)))))
        self.assertEqual(rep["ledger"]["entries"], len(declared))
        self.assertEqual(rep["ledger"]["exits"], len(declared))
        codes = {f["code"] for f in rep["findings"]}
        # a draft balances, and is refused only as a draft: no controls, its marker, its TODO placeholders and null
        # numbers; and,
        # where more than a fifth of its verdicts were lost (counted here from the records), for attrition
        led = rep["ledger"]
        if manifest["attempt_mode"] == "samples":
            lost = Fraction(sum(r["outcome"] == "unscoreable" for r in records),
                            len(declared) * manifest["attempt_budget"])
        else:
            lost = Fraction(led["unscoreable"], len(declared))
        expected = {"controls_incomplete", "draft_manifest"}
        if any(isinstance(v, str) and v.startswith("TODO") for v in [*manifest["envelope"].values(),
                                                                    *manifest["system"].values(),
                                                                    manifest["dataset"]["name"], manifest["rerun_recipe"]]):
            expected.add("placeholder_value")
        # the declared set is only what the files held (a results.json without its run_metadata.json, say)
        if manifest["provenance"]["declared_set"] == "found" and "subset" not in manifest["dataset"]:
            expected.add("declared_set_unconfirmed")
        if any(manifest["envelope"].get(key) is None for key in gate.ENVELOPE_REQUIRED):  # a number left null
            expected.add("envelope_incomplete")
        if lost > Fraction(1, 5) or led["pass"] + led["fail"] == 0:
            expected.add("attrition_exceeded")
        self.assertEqual(codes, expected, codes)
        self.assertEqual(rep["headline"]["n"], len(declared))
        self.last_runs = runs

    @_given(st.lists(listed_ids, min_size=1, max_size=30, unique_by=gate.fold_task_id), _data())
    def test_swebench_report(self, ids: list[str], data: Any) -> None:
        """A generated SWE-bench run report imports one record per declared instance into a draft that check balances,
        refused only as a draft.
        """
        _count("ImportProperties.swebench_report")
        keys = ("resolved_ids", "unresolved_ids", "empty_patch_ids", "error_ids", "incomplete_ids", None)
        lists: dict[str, list[str]] = {k: [] for k in keys if k}
        for tid in ids:
            key = data.draw(st.sampled_from(keys))
            if key:
                lists[key].append(tid)
        completed = [t for k in ("resolved_ids", "unresolved_ids", "error_ids") for t in lists[k]]
        report: dict[str, Any] = {"schema_version": 2, "total_instances": len(ids), "completed_ids": completed,
                                  "completed_instances": len(completed), **lists}
        listed = {t for v in lists.values() for t in v}
        pool = [t for t in lists["unresolved_ids"] + lists["error_ids"]]
        report["infra_failure_ids"] = data.draw(st.lists(st.sampled_from(pool), unique=True)) if pool else []
        files = [self.write_json("model.run1.json", report)]
        extra: list[str] = []
        if listed != set(ids) or data.draw(st.booleans()):
            ids_file = self.write_text("ids.txt", "".join(t + "\n" for t in data.draw(st.permutations(ids))))
            extra = ["--dataset-ids", str(ids_file)]
        self.import_then_check("swebench", files, ids, *extra)

    @_given(st.lists(listed_ids, min_size=1, max_size=30, unique_by=gate.fold_task_id), _data())
    def test_swebench_experiments(self, ids: list[str], data: Any) -> None:
        """A generated experiments results.json with --dataset-ids imports every declared id into a draft that check balances."""
        _count("ImportProperties.swebench_experiments")
        results: dict[str, list[str]] = {"resolved": [], "no_generation": [], "no_logs": []}
        for tid in ids:
            key = data.draw(st.sampled_from(["resolved", "no_generation", "no_logs", None]))
            if key:
                results[key].append(tid)
        files = [self.write_json("results.json", results)]
        ids_file = self.write_text("ids.txt", "\n".join(data.draw(st.permutations(ids))))
        self.import_then_check("swebench", files, ids, "--dataset-ids", str(ids_file))

    @_given(st.lists(st.one_of(task_ids, st.integers(0, 10**6)), min_size=1, max_size=12,
                     unique_by=lambda x: gate.fold_task_id(str(x))), st.integers(1, 3), _data())
    def test_inspect_json(self, sample_ids: list[Any], epochs: int, data: Any) -> None:
        """A generated Inspect log of any status imports one record per declared sample and epoch, and check balances
        the draft.
        """
        _count("ImportProperties.inspect")
        status = data.draw(st.sampled_from(["success", "error", "cancelled", "started"]))
        samples = []
        for sid in sample_ids:
            for epoch in range(1, epochs + 1):
                kind = data.draw(st.sampled_from(["C", "I", "P", "N", 0.25, 1, "error", "timeout", "absent"]))
                if kind == "absent" and status != "success":
                    continue
                sample: dict[str, Any] = {"id": sid, "epoch": epoch, "scores": {"match": {"value": "C"}}}
                if kind == "error":
                    sample["error"] = {"message": "RuntimeError('boom')", "traceback": "Traceback ..."}
                elif kind == "timeout":
                    sample["error"] = {"message": "TimeoutError()", "traceback": "TimeoutError"}
                elif kind != "absent":
                    sample["scores"]["match"]["value"] = kind
                samples.append(sample)
        if not samples and status == "success":
            samples.append({"id": sample_ids[0], "epoch": 1, "scores": {"match": {"value": "C"}}})
        log = {
            "version": 2, "status": status,
            "eval": {"run_id": "run-1", "task": "tiny", "model": "mockllm/model",
                     "dataset": {"samples": len(sample_ids), "sample_ids": sample_ids},
                     "config": {"epochs": epochs}, "scorers": [{"name": "match"}]},
            "samples": data.draw(st.permutations(samples)),
        }
        if samples:  # a log with results but no samples at all is refused: its figure cannot be checked
            log["results"] = {"scores": [{"name": "match"}]}
        files = [self.write_json("log.json", log)]
        declared = [str(s) for s in sample_ids]
        self.import_then_check("inspect", files, declared)
        records = [json.loads(x) for x in self.last_runs.read_text(encoding="utf-8").splitlines()]
        self.assertEqual(sorted((r["task_id"], r["attempt"]) for r in records),
                         sorted((t, e) for t in declared for e in range(1, epochs + 1)))

    @_given(st.lists(task_ids.filter(lambda s: "/" not in s), min_size=1, max_size=15, unique_by=gate.fold_task_id),
            st.integers(1, 4), _data())
    def test_terminal_bench(self, ids: list[str], trials: int, data: Any) -> None:
        """A generated Terminal-Bench results file, with or without run metadata, imports every declared task and
        check balances the draft.
        """
        _count("ImportProperties.terminal_bench")
        results = []
        for tid in ids:
            for n in range(1, trials + 1):
                resolved = data.draw(st.sampled_from([True, False, None, "absent"]))
                if resolved == "absent":
                    continue
                mode = data.draw(st.sampled_from(["unset", "test_timeout", "parse_error", "unknown_agent_error",
                                                  "agent_installation_failed", "agent_timeout"]))
                results.append({"trial_name": f"{tid}.{n}-of-{trials}", "task_id": tid, "is_resolved": resolved,
                                "failure_mode": mode})
        if not results:
            results.append({"trial_name": f"{ids[0]}.1-of-{trials}", "task_id": ids[0], "is_resolved": True})
        files = [self.write_json("results.json", {"results": data.draw(st.permutations(results))})]
        seen = sorted({r["task_id"] for r in results})
        declared = seen
        if data.draw(st.booleans()):  # run_metadata declares the dataset, never-started tasks included
            declared = ids
            files.append(self.write_json("run_metadata.json", {"run_id": "r", "n_attempts": trials, "task_ids": ids}))
        self.import_then_check("terminal-bench", files, declared)


if __name__ == "__main__":
    unittest.main()


# ---------------------------------------------------------------------------------------------
# (5) no check is switched off in silence: any single key renamed is refused or found
# ---------------------------------------------------------------------------------------------

def _key_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every (path to an object, key) in a JSON value."""
    out: list[tuple[Any, ...]] = []
    if isinstance(value, dict):
        for key, child in value.items():
            out.append((*path, key))
            out.extend(_key_paths(child, (*path, key)))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            out.extend(_key_paths(child, (*path, index)))
    return out


def _renamed(value: Any, path: tuple[Any, ...], new: str) -> Any:
    """A deep copy of value with the key at path renamed to new, keeping the key order."""
    copy_ = json.loads(json.dumps(value))
    parent = copy_
    for step in path[:-1]:
        parent = parent[step]
    items = [(new if key == path[-1] else key, child) for key, child in parent.items()]
    parent.clear()
    parent.update(items)
    return copy_


if HAVE_HYPOTHESIS:
    @st.composite
    def renames(draw: Any, old: str) -> str:
        """A typo of the key (a letter dropped, doubled, swapped or recased, `-` for `_`) or another word."""
        kind = draw(st.sampled_from(["drop", "double", "swap", "case", "dash", "word"]))
        i = draw(st.integers(0, max(0, len(old) - 1)))
        if kind == "drop" and len(old) > 1:
            return old[:i] + old[i + 1:]
        if kind == "double":
            return old[:i] + old[i] + old[i:]
        if kind == "swap" and len(old) > 1:
            j = min(i + 1, len(old) - 1)
            chars = list(old)
            chars[i - (i == j)], chars[j] = chars[j], chars[i - (i == j)]
            return "".join(chars)
        if kind == "case":
            return old.upper() if old != old.upper() else old.lower()
        if kind == "dash":
            return old.replace("_", "-") if "_" in old else old + "-"
        return draw(st.text(st.characters(whitelist_categories=("Ll", "Lu", "Nd")), min_size=1, max_size=12))


@unittest.skipUnless(HAVE_HYPOTHESIS, SKIP_REASON)
class NoSilentSwitchOff(GateCase):
    """Any one key of a valid manifest renamed gives exit 2 or a finding: never the same verdict with a check off.

    The only keys whose rename may leave the verdict PUBLISHABLE are envelope keys the gate does not read
    (the envelope is open by design) and the system's (an open description), and a rename to the documented
    user-data keys is not a typo.
    """

    @classmethod
    def tearDownClass(cls) -> None:
        _report_counts(cls)

    def check_renames(self, folder: Path, manifest_name: str, runs_name: str, data: Any) -> None:
        manifest = json.loads((folder / manifest_name).read_text(encoding="utf-8"))
        path = data.draw(st.sampled_from(_key_paths(manifest)), label="key")
        old = str(path[-1])
        new = data.draw(renames(old), label="renamed to")
        parent = manifest
        for step in path[:-1]:
            parent = parent[step]
        assume(new != old and new not in parent and new != gate.FREE_FORM_KEY and not new.startswith(gate.USER_PREFIX))
        # named by its place in the project: the checkout's own folder name is not the example's
        _count(f"NoSilentSwitchOff.{'top' if folder == ROOT else folder.relative_to(ROOT).as_posix()}")
        work = Path(tempfile.mkdtemp(dir=self.dir))
        for item in folder.iterdir():
            if item.is_file():
                shutil.copy(item, work / item.name)
        (work / manifest_name).write_text(json.dumps(_renamed(manifest, path, new), indent=2), encoding="utf-8")
        code, out, err = self.run_gate("--manifest", str(work / manifest_name), "--runs", str(work / runs_name))
        self.assertNotIn("Traceback", err)
        # the envelope's own keys beyond the four it requires, and the system's (an open description of what is
        # measured: the gate shows it, it reads none of its keys)
        open_and_unread = ((path[0] == "envelope" and len(path) == 2 and old not in gate.ENVELOPE_REQUIRED)
                           or (path[0] == "system" and len(path) >= 2))
        if not open_and_unread:
            self.assertIn(code, (1, 2), f"renaming {path} to {new!r} left the verdict unchanged:\n{out}")

    @_given(_data())
    def test_a_renamed_key_in_the_shipped_manifest(self, data: Any) -> None:
        self.check_renames(ROOT, "bench.manifest.json", "runs.jsonl", data)

    @_given(_data())
    def test_a_renamed_key_in_the_card_example(self, data: Any) -> None:
        self.check_renames(ROOT / "examples" / "card", "bench.manifest.json", "runs.jsonl", data)
