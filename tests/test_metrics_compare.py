"""Declared metrics, the claim check, paired compare, Markdown/SVG report cards and cost (issue 4).

Expected values are computed here, independently of gate.py: counts from the ledgers the tests build,
Wilson intervals from the closed form below, paired intervals and McNemar p-values from the project's
reference vectors (copied in literally; the tests never read ../shared).
"""

from __future__ import annotations

import ast
import builtins
import json
import math
import re
import statistics
import unittest
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable
from unittest import mock

from tests.support import ROOT, GateCase, gate, ids_digest, record, run_cli, valid_ledger

Z95 = statistics.NormalDist().inv_cdf(0.975)
SVG_NS = "{http://www.w3.org/2000/svg}"


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval, written out again (Wilson 1927), clamped to [0, 1]."""
    p = k / n
    denominator = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (0.0 if k == 0 else max(0.0, center - half)), (1.0 if k == n else min(1.0, center + half))


def rate_text(k: int, n: int, unit: str = "") -> str:
    lo, hi = wilson(k, n)
    unit_text = f" {unit}" if unit else ""
    return f"{k}/{n}{unit_text} = {k / n:.3f}  95% CI [{lo:.3f}, {hi:.3f}]"


def metric(name: str, numerator: str, denominator: str = "dataset.task_count", unit: str = "tasks",
           **extra: Any) -> dict[str, Any]:
    return {"name": name, "numerator": numerator, "denominator": denominator, "unit": unit, **extra}


# ---------------------------------------------------------------------------------------------------
# A ledger with strata, extra record fields and retries, plus an independent view of each task's exit
# ---------------------------------------------------------------------------------------------------

def rich_ledger() -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """(manifest, records, exits): exits is this test's own view of each task's exit row."""
    plan: list[tuple[str, list[str], str | None, str, dict[str, Any]]] = [
        ("neg-01", ["fail"], None, "repo_edit", {"difficulty": "easy", "score": 0.0, "flaky": False}),
        ("pos-01", ["pass"], None, "repo_edit", {"difficulty": "easy", "score": 1.0, "flaky": False}),
    ]
    for i in range(1, 11):
        plan.append((f"t-{i:03d}", ["pass"], None, "repo_edit", {"difficulty": "hard", "score": 0.5, "flaky": True}))
    for i in range(11, 21):
        plan.append((f"t-{i:03d}", ["pass"], None, "test_write", {"difficulty": "easy", "score": 1, "flaky": False}))
    for i in range(21, 26):
        plan.append((f"t-{i:03d}", ["fail"], None, "test_write", {"difficulty": "hard", "score": -0.25}))
    for i in (26, 27):
        plan.append((f"t-{i:03d}", ["unscoreable"], "harness_timeout", "refactor", {"difficulty": "hard", "note": None}))
    plan.append(("t-028", ["unscoreable"], "grader_error", "refactor", {"difficulty": "easy"}))
    for i in (29, 30):
        plan.append((f"t-{i:03d}", ["fail", "pass"], None, "refactor", {"difficulty": "hard", "score": 2}))
    plan.append(("t-031", ["fail", "fail"], None, "refactor", {"difficulty": "medium", "flaky": True}))
    records: list[dict[str, Any]] = []
    exits: list[dict[str, Any]] = []
    roles = {"neg-01": "negative", "pos-01": "positive"}
    for tid, outcomes, reason, stratum, extra in plan:
        for number, outcome in enumerate(outcomes, 1):
            records.append(record(tid, outcome, reason, attempt=number, stratum=stratum, **extra))
        final = "pass" if "pass" in outcomes else outcomes[-1]
        exits.append({"outcome": final, "reason": reason, "stratum": stratum, "task_id": tid,
                      "attempts": len(outcomes), "control": tid in roles, "role": roles.get(tid), **extra})
    ids = [p[0] for p in plan]
    manifest: dict[str, Any] = {
        "claim_id": "rich-claim",
        "dataset": {"name": "rich-suite", "task_count": len(ids), "task_ids_sha256": ids_digest(ids),
                    "task_ids": sorted(ids)},
        "controls": [{"task_id": "neg-01", "expected": "fail", "role": "negative"},
                     {"task_id": "pos-01", "expected": "pass", "role": "positive"}],
        "envelope": {"runner": "test", "network": "off", "wall_clock_s_per_task": 900},
        "attempt_budget": 2,
        "rerun_recipe": "python3 gate.py --manifest m.json --runs r.jsonl",
    }
    return manifest, records, exits


def _is(value: Any, literal: Any) -> bool:
    """Equality as the spec wants it: a boolean is never a number."""
    if isinstance(value, bool) or isinstance(literal, bool):
        return type(value) is type(literal) and value == literal
    return bool(value == literal)


# predicate -> an oracle over this test's own exit rows (None for a missing field)
ACCEPTED: list[tuple[str, Callable[[dict[str, Any]], bool]]] = [
    ("outcome == 'pass'", lambda t: t["outcome"] == "pass"),
    ("'pass' == outcome", lambda t: t["outcome"] == "pass"),
    ('outcome == "unscoreable"', lambda t: t["outcome"] == "unscoreable"),
    ("outcome != 'pass'", lambda t: t["outcome"] != "pass"),
    ("outcome in ('fail', 'unscoreable')", lambda t: t["outcome"] in ("fail", "unscoreable")),
    ("outcome in ['fail', 'unscoreable']", lambda t: t["outcome"] in ("fail", "unscoreable")),
    ("outcome not in ('fail', 'unscoreable')", lambda t: t["outcome"] == "pass"),
    ("outcome not in ['pass']", lambda t: t["outcome"] != "pass"),
    ("reason == 'harness_timeout'", lambda t: t["reason"] == "harness_timeout"),
    ("reason in ('harness_timeout', 'grader_error')", lambda t: t["reason"] is not None),
    ("reason == None", lambda t: t["reason"] is None),
    ("reason != None", lambda t: t["reason"] is not None),
    ("stratum == 'test_write'", lambda t: t["stratum"] == "test_write"),
    ("task_id in ['t-001', 't-002', 'neg-01', 'nope']", lambda t: t["task_id"] in ("t-001", "t-002", "neg-01")),
    ("task_id == 'pos-01'", lambda t: t["task_id"] == "pos-01"),
    ("attempts == 2", lambda t: t["attempts"] == 2),
    ("attempts == 2.0", lambda t: t["attempts"] == 2),
    ("attempts != -1", lambda t: True),
    ("attempts == True", lambda t: False),  # attempts 1 is not True
    ("attempts in (True, 2)", lambda t: t["attempts"] == 2),
    ("control == True", lambda t: t["control"]),
    ("control == 1", lambda t: False),  # a boolean field is not the number 1
    ("control == False and outcome == 'pass'", lambda t: not t["control"] and t["outcome"] == "pass"),
    ("role == 'negative'", lambda t: t["role"] == "negative"),
    ("role == None", lambda t: t["role"] is None),
    ("difficulty == 'hard'", lambda t: t.get("difficulty") == "hard"),
    ("difficulty == 'hard' and outcome == 'pass'", lambda t: t.get("difficulty") == "hard" and t["outcome"] == "pass"),
    ("score == 0.5", lambda t: _is(t.get("score"), 0.5)),
    ("score == 1", lambda t: _is(t.get("score"), 1)),  # 1 and 1.0, not True
    ("score == -0.25", lambda t: _is(t.get("score"), -0.25)),
    ("score in (-0.25, 2)", lambda t: _is(t.get("score"), -0.25) or _is(t.get("score"), 2)),
    ("flaky == True", lambda t: t.get("flaky") is True),
    ("flaky == 1", lambda t: False),
    ("flaky == None", lambda t: t.get("flaky") is None),
    ("not outcome == 'pass'", lambda t: t["outcome"] != "pass"),
    ("not (outcome == 'pass' or stratum == 'refactor')", lambda t: not (t["outcome"] == "pass" or t["stratum"] == "refactor")),
    ("(outcome == 'pass' or outcome == 'fail') and not stratum == 'refactor'",
     lambda t: t["outcome"] in ("pass", "fail") and t["stratum"] != "refactor"),
    ("outcome == 'pass' and (stratum == 'repo_edit' or attempts == 2) and difficulty != 'easy'",
     lambda t: t["outcome"] == "pass" and (t["stratum"] == "repo_edit" or t["attempts"] == 2) and t.get("difficulty") != "easy"),
    ("  outcome == 'pass'\n", lambda t: t["outcome"] == "pass"),
]


class PredicateAcceptTest(GateCase):
    def test_compile_predicate_matches_the_oracle_row_by_row(self) -> None:
        _, _, exits = rich_ledger()
        for source, oracle in ACCEPTED:
            with self.subTest(source=source):
                predicate, _fields = gate.compile_predicate(source)
                for row in exits:
                    full = {"note": None, "score": None, "flaky": None, "difficulty": None, **row}
                    self.assertEqual(bool(predicate(full)), oracle(row), row["task_id"])

    def test_fields_reported(self) -> None:
        _, fields = gate.compile_predicate("outcome == 'pass' and difficulty in ('hard',) or not attempts == 2")
        self.assertEqual(set(fields), {"outcome", "difficulty", "attempts"})

    def test_manifest_metrics_count_over_the_full_denominator(self) -> None:
        manifest, records, exits = rich_ledger()
        manifest["metrics"] = [metric(f"m{i:02d}", source) for i, (source, _) in enumerate(ACCEPTED)]
        code, report = self.check_json(manifest, records)
        self.assertEqual(report["findings"], [])
        self.assertEqual(code, 0)
        got = {m["name"]: m for m in report["metrics"]}
        for i, (source, oracle) in enumerate(ACCEPTED):
            with self.subTest(source=source):
                entry = got[f"m{i:02d}"]
                expected_k = sum(1 for row in exits if oracle(row))
                self.assertEqual((entry["rate"]["k"], entry["rate"]["n"]), (expected_k, len(exits)))
                lo, hi = wilson(expected_k, len(exits))
                self.assertAlmostEqual(entry["rate"]["ci_low"], lo, places=9)
                self.assertAlmostEqual(entry["rate"]["ci_high"], hi, places=9)

    def test_difficulty_field_counts_and_prints(self) -> None:
        manifest, records, exits = rich_ledger()
        manifest["metrics"] = [
            metric("pass_rate", "outcome == 'pass'"),
            metric("hard_pass", "outcome == 'pass'", "difficulty == 'hard'", unit="hard tasks"),
        ]
        code, out, err = self.check(manifest, records)
        self.assertEqual(code, 0, out + err)
        hard = [t for t in exits if t.get("difficulty") == "hard"]
        k = sum(t["outcome"] == "pass" for t in hard)
        self.assertEqual((k, len(hard)), (12, 19))  # the fixture itself, counted by hand
        self.assertRegex(out, r"(?m)^  hard_pass\s*: " + re.escape(rate_text(k, len(hard), "hard tasks")) + "$")

    def test_predicate_denominator(self) -> None:
        manifest, records, exits = rich_ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'"),
                               metric("tw", "outcome == 'pass'", "stratum in ('test_write',)")]
        _, report = self.check_json(manifest, records)
        tw = [t for t in exits if t["stratum"] == "test_write"]
        entry = report["metrics"][1]
        self.assertEqual((entry["rate"]["k"], entry["rate"]["n"]), (sum(t["outcome"] == "pass" for t in tw), len(tw)))

    def test_seed_manifest_forms(self) -> None:
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'"),
                               metric("unscoreable_rate", "outcome == 'unscoreable'")]
        code, out, _ = self.check(manifest, records)
        self.assertEqual(code, 0, out)
        self.assertRegex(out, r"(?m)^  pass_rate\s*: " + re.escape(rate_text(29, 40, "tasks")) + r"  <- headline metric$")
        self.assertRegex(out, r"(?m)^  unscoreable_rate\s*: " + re.escape(rate_text(3, 40, "tasks")) + "$")

    def test_deep_but_short_nesting_is_evaluated_not_crashed(self) -> None:
        manifest, records = valid_ledger()
        source = "not " * 495 + "outcome == 'pass'"  # 495 nots: an odd number, so "not pass"
        self.assertLess(len(source), 2000)
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'"), metric("deep", source)]
        code, out, err = self.check(manifest, records, "--format", "json")
        self.assertNotIn("Traceback", err)
        self.assertIn(code, (0, 1))
        report = json.loads(out)
        deep = report["metrics"][1]
        if code == 0:
            self.assertEqual(deep["rate"]["k"], 11)
        else:  # refused: then it must say so as metric_undefined
            self.assertIn("metric_undefined", [f["code"] for f in report["findings"]])


# ---------------------------------------------------------------------------------------------------
# Rejections
# ---------------------------------------------------------------------------------------------------

# (numerator, fragment the finding must quote)
REJECTED_NUMERATORS: list[tuple[str, str]] = [
    ("__import__('os')", "__import__('os')"),
    ("__import__('os') == 1", "__import__('os')"),
    ("len(x) == 1", "len(x)"),
    ("outcome == len(x)", "len(x)"),
    ("open('f')", "open('f')"),
    ("outcome.upper == 1", "outcome.upper"),
    ("dataset.task_count", "dataset.task_count"),
    ("outcome == 'pass' and dataset.task_count == 40", "dataset.task_count"),
    ("outcome[0] == 'p'", "outcome[0]"),
    ("outcome == ('pass',)[0]", "('pass',)[0]"),
    ("(lambda: 1) == 1", "lambda: 1"),
    ("outcome in [x for x in ('pass',)]", "[x for x in ('pass',)]"),
    ("outcome in {x for x in ('pass',)}", "{x for x in ('pass',)}"),
    ("outcome == f'pass'", "f'pass'"),
    ("attempts + 1 == 2", "attempts + 1"),
    ("attempts == 1 + 1", "1 + 1"),
    ("attempts == -(-1)", "-(-1)"),
    ("1 == attempts == 1", "1 == attempts == 1"),
    ("attempts < 2", "attempts < 2"),
    ("attempts > 0", "attempts > 0"),
    ("attempts >= 1", "attempts >= 1"),
    ("outcome is None", "outcome is None"),
    ("(x := 1) == 1", "x := 1"),
    ("outcome", "outcome"),
    ("'pass'", "'pass'"),
    ("outcome == reason", "reason"),
    ("outcome == b'pass'", "b'pass'"),
    ("outcome == {'pass'}", "{'pass'}"),
    ("outcome == {'a': 1}", "{'a': 1}"),
    ("outcome in 'pass'", "'pass'"),
    ("attempts == -True", "-True"),
    ("attempts == 1j", "1j"),
    ("outcome == ...", "..."),
    ("outcome == 'pass' if True else False", "outcome == 'pass' if True else False"),
    ("outcome == 'pass' and", "outcome == 'pass' and"),
    ("outcome ==", "outcome =="),
    ("outcome = 'pass'", "outcome = 'pass'"),
    ("import os", "import os"),
    ("", "cannot parse"),
]


class PredicateRejectTest(GateCase):
    def test_compile_predicate_raises_metric_error(self) -> None:
        for source, fragment in REJECTED_NUMERATORS:
            with self.subTest(source=source), self.assertRaises(gate.MetricError) as caught:
                gate.compile_predicate(source)
            self.assertIn(fragment, str(caught.exception))

    def test_each_rejection_is_a_named_finding_and_exit_1(self) -> None:
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'")]
        manifest["metrics"] += [metric(f"bad_metric_{i}", source) for i, (source, _) in enumerate(REJECTED_NUMERATORS)]
        code, out, err = self.check(manifest, records, "--format", "json")
        self.assertEqual(code, 1, err)
        report = json.loads(out)
        findings = report["findings"]
        self.assertEqual([f["code"] for f in findings], ["metric_undefined"] * len(REJECTED_NUMERATORS))
        for index, (source, fragment) in enumerate(REJECTED_NUMERATORS):
            with self.subTest(source=source):
                named = [f["message"] for f in findings if f"'bad_metric_{index}'" in f["message"]]
                self.assertEqual(len(named), 1, findings)
                self.assertIn(fragment, named[0])
                self.assertIsNone(report["metrics"][index + 1]["rate"])
        self.assertEqual(report["metrics"][0]["rate"]["k"], 29)  # the good metric is still evaluated

    def test_denominators_other_than_exactly_task_count(self) -> None:
        for denominator, fragment in [
            ("dataset.task_count + 0", "dataset.task_count + 0"),
            ("dataset.task_count == 40", "dataset.task_count"),
            ("dataset.size", "dataset.size"),
            ("len(dataset)", "len(dataset)"),
            ("dataset['task_count']", "dataset['task_count']"),
            ("40", "40"),
        ]:
            with self.subTest(denominator=denominator):
                spec = gate.MetricSpec("den", "outcome == 'pass'", denominator, "tasks", False)
                compiled, _ = gate.compile_metric(spec)
                self.assertIsNotNone(compiled.problem)
                self.assertIn(fragment, str(compiled.problem))
        ok, _ = gate.compile_metric(gate.MetricSpec("ok", "outcome == 'pass'", "dataset.task_count", "tasks", False))
        self.assertIsNone(ok.problem)
        self.assertIsNone(ok.denominator)

    def test_undefined_metric_prints_undefined_and_blocks(self) -> None:
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'"), metric("evil", "__import__('os').system('true')")]
        code, out, _ = self.check(manifest, records)
        self.assertEqual(code, 1)
        self.assertRegex(out, r"(?m)^  evil\s*: undefined")
        self.assertRegex(out, r"(?m)^verdict\s*: BLOCKED$")
        self.assertRegex(out, r"(?m)^  ! metric_undefined: metric 'evil': ")

    def test_huge_predicate(self) -> None:
        manifest, records = valid_ledger()
        huge = "outcome == 'pass' or " * 5000 + "outcome == 'pass'"
        self.assertGreater(len(huge), 100_000)
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'"), metric("huge", huge)]
        code, out, err = self.check(manifest, records, "--format", "json")
        self.assertEqual(code, 1, err)
        self.assertNotIn("Traceback", err)
        messages = [f["message"] for f in json.loads(out)["findings"] if f["code"] == "metric_undefined"]
        self.assertEqual(len(messages), 1)
        self.assertIn("huge", messages[0])
        self.assertLess(len(messages[0]), 1000, "the finding should not echo 100k characters")

    def test_deep_nesting_in_a_real_process(self) -> None:
        manifest, records = valid_ledger()
        deep = {"nots": "not " * 10000 + "outcome == 'pass'",
                "parens": "(" * 300 + "outcome == 'pass'" + ")" * 300,
                "lists": "outcome in " + "[" * 300 + "'pass'" + "]" * 300,
                "minus": "attempts == " + "-" * 1980 + "1",
                "dashes": "-" * 1990 + "1"}
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'")] + [metric(k, v) for k, v in deep.items()]
        m = self.write_json("deep.manifest.json", manifest)
        r = self.write_jsonl("deep.jsonl", records)
        proc = run_cli("--manifest", str(m), "--runs", str(r), "--format", "json")
        self.assertNotIn("Traceback", proc.stderr)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        findings = json.loads(proc.stdout)["findings"]
        self.assertEqual([f["code"] for f in findings], ["metric_undefined"] * len(deep))
        for name, finding in zip(deep, findings):
            self.assertIn(repr(name), finding["message"])


class NoEvalTest(GateCase):
    def test_metric_evaluation_never_evals_execs_or_compiles_code(self) -> None:
        """eval/exec raise; compile raises unless it is asked for an AST only (which is all ast.parse does).

        ast.parse is `compile(source, ..., flags=PyCF_ONLY_AST)` looked up in builtins, so a blanket patch of
        builtins.compile would break parsing itself; an AST cannot run, code objects can.
        """
        real_compile = builtins.compile
        ast_only_calls = []

        def guarded_compile(source: Any, filename: Any, mode: Any, flags: int = 0, *args: Any, **kwargs: Any) -> Any:
            if not flags & ast.PyCF_ONLY_AST:
                raise AssertionError(f"compile() to code called on {source!r}")
            ast_only_calls.append(source)
            return real_compile(source, filename, mode, flags, *args, **kwargs)

        def forbidden(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError(f"eval/exec called with {args!r}")

        manifest, records, exits = rich_ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'"),
                               metric("hard", "difficulty == 'hard' and not stratum in ('refactor',)")]
        with mock.patch.object(builtins, "eval", forbidden), mock.patch.object(builtins, "exec", forbidden), \
                mock.patch.object(builtins, "compile", guarded_compile):
            with self.assertRaises(AssertionError):
                eval("1")  # the patch is live
            code, report = self.check_json(manifest, records)
        self.assertEqual(code, 0, report["findings"])
        expected = sum(1 for t in exits if t.get("difficulty") == "hard" and t["stratum"] != "refactor")
        self.assertEqual(report["metrics"][1]["rate"]["k"], expected)
        self.assertTrue(ast_only_calls, "the predicates should have been parsed while the guard was active")

    def test_gate_source_has_no_eval_exec_or_compile_call(self) -> None:
        tree = ast.parse((ROOT / "gate.py").read_text(encoding="utf-8"))
        bad = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else (func.attr if isinstance(func, ast.Attribute) else None)
                owner = func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else None
                if name in ("eval", "exec", "__import__") or (name == "compile" and owner in (None, "builtins")):
                    bad.append((node.lineno, name))
        self.assertEqual(bad, [])


# ---------------------------------------------------------------------------------------------------
# Metric lines and the headline
# ---------------------------------------------------------------------------------------------------

class MetricHeadlineTest(GateCase):
    def test_first_metric_is_the_headline(self) -> None:
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("resolved", "outcome == 'pass'", unit="instances"),
                               metric("attrition", "outcome == 'unscoreable'", unit="instances")]
        code, out, _ = self.check(manifest, records)
        self.assertEqual(code, 0, out)
        self.assertRegex(out, r"(?m)^resolved\s*: " + re.escape(rate_text(29, 40)) + "  <- headline$")
        self.assertRegex(out, r"(?m)^  resolved\s*: " + re.escape(rate_text(29, 40, "instances")) + "  <- headline metric$")
        self.assertRegex(out, r"(?m)^  attrition\s*: " + re.escape(rate_text(3, 40, "instances")) + "$")
        _, report = self.check_json(manifest, records)
        self.assertEqual([m["headline"] for m in report["metrics"]], [True, False])
        self.assertEqual(report["headline"]["name"], "resolved")

    def test_marked_headline_wins(self) -> None:
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("attrition", "outcome == 'unscoreable'"),
                               metric("resolved", "outcome == 'pass'", headline=True)]
        code, out, _ = self.check(manifest, records)
        self.assertEqual(code, 0, out)
        self.assertRegex(out, r"(?m)^resolved\s*: " + re.escape(rate_text(29, 40)) + "  <- headline$")
        self.assertRegex(out, r"(?m)^  resolved\s*: .*<- headline metric$")
        self.assertNotRegex(out, r"(?m)^  attrition\s*: .*<- headline")
        _, report = self.check_json(manifest, records)
        self.assertEqual([m["headline"] for m in report["metrics"]], [False, True])
        self.assertEqual((report["headline"]["k"], report["headline"]["n"]), (29, 40))

    def test_shrunk_headline_denominator(self) -> None:
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'", "outcome != 'unscoreable'")]
        codes = self.codes(manifest, records)
        self.assertEqual(codes, ["headline_denominator_shrunk"])
        code, out, _ = self.check(manifest, records)
        self.assertEqual(code, 1)
        self.assertRegex(out, r"headline_denominator_shrunk: .*37 of 40")

    def test_shrunk_marked_headline(self) -> None:
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'"),
                               metric("scored", "outcome == 'pass'", "outcome in ('pass', 'fail')", headline=True)]
        self.assertEqual(self.codes(manifest, records), ["headline_denominator_shrunk"])

    def test_narrower_secondary_metric_is_fine(self) -> None:
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'"),
                               metric("scoreable_pass_rate", "outcome == 'pass'", "outcome != 'unscoreable'")]
        code, out, _ = self.check(manifest, records)
        self.assertEqual(code, 0, out)
        self.assertRegex(out, r"(?m)^  scoreable_pass_rate\s*: " + re.escape(rate_text(29, 37, "tasks")) + "$")

    def test_full_coverage_predicate_denominator_is_not_shrunk(self) -> None:
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'", "outcome in ('pass', 'fail', 'unscoreable')")]
        self.assertEqual(self.codes(manifest, records), [])


# ---------------------------------------------------------------------------------------------------
# --claim
# ---------------------------------------------------------------------------------------------------

class ClaimTest(GateCase):
    """valid_ledger(): 29 pass, 8 fail, 3 unscoreable of 40; headline 29/40 = 0.725, secondary 29/37."""

    def claim(self, text: str, manifest: dict[str, Any] | None = None,
              records: list[Any] | None = None) -> tuple[int, dict[str, Any]]:
        if manifest is None or records is None:
            manifest, records = valid_ledger()
        return self.check_json(manifest, records, "--claim", text)

    def test_matching_claims(self) -> None:
        for text in ("72.5%", "72.5", "0.725", "29/40", "72%", "73%", "0.73", "0.7", "72.50%", " 72.5 % "):
            with self.subTest(claim=text):
                code, report = self.claim(text)
                self.assertEqual(code, 0, report["findings"])
                self.assertEqual(report["findings"], [])
                self.assertTrue(report["claim"]["matches"])

    def test_claim_text_line(self) -> None:
        manifest, records = valid_ledger()
        code, out, _ = self.check(manifest, records, "--claim", "72.5%")
        self.assertEqual(code, 0)
        self.assertRegex(out, r"(?m)^claim check : 72\.5% matches the headline 29/40 = 0\.725$")
        code, out, _ = self.check(manifest, records, "--claim", "80%")
        self.assertEqual(code, 1)
        self.assertRegex(out, r"(?m)^claim check : 80% .*29/40")

    def test_out_of_precision_claims_are_rejected(self) -> None:
        # 74% is 0.735..0.745: not the headline 0.725; it happens to contain 29/39 = 0.7436
        for text, expected in (("74%", "claim_shrunk_denominator"), ("71%", "claim_unsupported"),
                               ("72.6%", "claim_unsupported"), ("0.724", "claim_unsupported"),
                               ("80%", "claim_unsupported"), ("30/40", "claim_unsupported"),
                               ("29/41", "claim_unsupported")):
            with self.subTest(claim=text):
                code, report = self.claim(text)
                self.assertEqual(code, 1)
                self.assertFalse(report["claim"]["matches"])
                self.assertEqual([f["code"] for f in report["findings"]], [expected])

    def test_secondary_claims(self) -> None:
        for text in ("78.4%", "78.4", "0.784", "29/37", "78%"):
            with self.subTest(claim=text):
                code, report = self.claim(text)
                self.assertEqual(code, 1)
                self.assertEqual([f["code"] for f in report["findings"]], ["claim_is_secondary"])
                self.assertIn("29/37", report["findings"][0]["message"])

    def test_shrunk_denominator_claims_say_how_many(self) -> None:
        manifest, records = valid_ledger(passes=29, fails=11, unscoreable=())
        # 29/39 = 0.743589..., 29/38 = 0.763157..., 29/36 = 0.805555...
        for text, dropped, shown in (("29/38", 2, "29/38"), ("74.36%", 1, "29/39"), ("0.7436", 1, "29/39"),
                                     ("76.3%", 2, "29/38"), ("80.6%", 4, "29/36"), ("29/39", 1, "29/39")):
            with self.subTest(claim=text):
                code, report = self.claim(text, manifest, records)
                self.assertEqual(code, 1)
                self.assertEqual([f["code"] for f in report["findings"]], ["claim_shrunk_denominator"])
                message = report["findings"][0]["message"]
                self.assertIn(shown, message)
                self.assertRegex(message, rf"\b{dropped} task")

    def test_claim_against_a_declared_headline_metric(self) -> None:
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("attrition", "outcome == 'unscoreable'"),
                               metric("resolved", "outcome == 'pass'", headline=True)]
        for text, expected in (("72.5%", []), ("78.4%", ["claim_is_secondary"]), ("29/39", ["claim_shrunk_denominator"]),
                               ("7.5%", ["claim_unsupported"])):
            with self.subTest(claim=text):
                _, report = self.claim(text, manifest, records)
                self.assertEqual([f["code"] for f in report["findings"]], expected)

    def test_invalid_claims_are_input_errors(self) -> None:
        manifest, records = valid_ledger()
        for text in ("abc", "120%", "5/0", "7/3", "", "-5%", "72,5%", "1e-1", "nan"):
            with self.subTest(claim=text):
                self.assertInputError(self.check(manifest, records, "--claim", text), "--claim")


# ---------------------------------------------------------------------------------------------------
# Statistics: reference vectors
# ---------------------------------------------------------------------------------------------------

# Newcombe RG (1998) Stat Med 17:2635, Table III; statsmodels 0.15.0 mcnemar(exact=True); from the
# project's reference vectors (e_paired rows: newcombe_m10_corrected_phi to 6 dp, mcnemar_exact_p_full).
# (a, b, c, d, lo, hi, exact McNemar p); a = both pass, b = A only, c = B only, d = neither.
PAIRED_VECTORS: list[tuple[int, int, int, int, float, float, float]] = [
    (36, 12, 2, 0, 0.05693, 0.340428, 0.012939453125),
    (20, 12, 2, 16, 0.056156, 0.329207, 0.012939453125),
    (18, 12, 2, 18, 0.056172, 0.328976, 0.012939453125),
    (36, 14, 0, 0, 0.15284, 0.416651, 0.0001220703125),
    (35, 14, 0, 1, 0.146074, 0.417462, 0.0001220703125),
    (18, 14, 0, 18, 0.144083, 0.396325, 0.0001220703125),
    (2, 97, 1, 0, 0.872116, 0.985366, 6.2477783693504135e-28),
    (1, 97, 1, 1, 0.873672, 0.985026, 6.2477783693504135e-28),
    (0, 29, 1, 0, 0.666592, 0.988183, 5.774199962615967e-08),
    (2, 98, 0, 0, 0.917793, 0.994498, 6.310887241768095e-30),
    (1, 98, 0, 1, 0.917087, 0.991643, 6.310887241768095e-30),
    (0, 30, 0, 0, 0.839468, 1.0, 1.862645149230957e-09),
    (54, 0, 0, 0, -0.066414, 0.066414, 1.0),
    (53, 0, 0, 1, -0.072938, 0.072938, 1.0),
    (30, 0, 0, 24, -0.035838, 0.035838, 1.0),
    (29, 0, 0, 25, -0.035413, 0.035413, 1.0),
    (28, 0, 0, 26, -0.035156, 0.035156, 1.0),
    (27, 0, 0, 27, -0.03507, 0.03507, 1.0),
    (1, 1, 7, 12, -0.50692, -0.025559, 0.0703125),
    (59, 6, 16, 80, -0.118621, -0.004625, 0.052478790283203125),
    (7, 25, 2, 68, 0.132949, 0.318475, 5.647540092468262e-06),
    (4, 9, 3, 16, -0.027348, 0.380672, 0.14599609375),
    (53, 16, 8, 9, -0.020104, 0.203916, 0.15158963203430176),
    (14, 5, 0, 22, 0.011483, 0.226493, 0.0625),
    (12, 9, 2, 21, 0.011243, 0.295372, 0.0654296875),
    (22, 9, 2, 17, 0.009709, 0.261097, 0.0654296875),
    (1, 0, 0, 1, -0.573419, 0.573419, 1.0),
    (0, 3, 0, 0, 0.205923, 1.0, 0.25),
    (0, 0, 3, 0, -1.0, -0.205923, 0.25),
    (5, 0, 0, 5, -0.166593, 0.166593, 1.0),
    (50, 0, 0, 50, -0.019234, 0.019234, 1.0),
    (18, 7, 0, 75, 0.01549, 0.128864, 0.015625),
    (40, 12, 3, 5, 0.022658, 0.275307, 0.03515625),
]


class StatVectorsTest(unittest.TestCase):
    def test_newcombe_method10_paired_corrected_phi(self) -> None:
        self.assertEqual(len(PAIRED_VECTORS), 33)
        for a, b, c, d, ref_lo, ref_hi, _ in PAIRED_VECTORS:
            with self.subTest(table=(a, b, c, d)):
                lo, hi = gate.newcombe_paired(a, b, c, d, 0.95)
                self.assertEqual(round(lo, 6), ref_lo)
                self.assertEqual(round(hi, 6), ref_hi)
                self.assertLessEqual(abs(lo - ref_lo), 5e-7 + 1e-9)
                self.assertLessEqual(abs(hi - ref_hi), 5e-7 + 1e-9)

    def test_mcnemar_exact(self) -> None:
        for a, b, c, d, _, _, ref_p in PAIRED_VECTORS:
            with self.subTest(table=(a, b, c, d)):
                p = gate.mcnemar_exact(b, c)
                self.assertLessEqual(abs(float(p) - ref_p), 1e-12)
                self.assertTrue(math.isclose(float(p), ref_p, rel_tol=1e-12, abs_tol=0.0), (float(p), ref_p))
                # and exactly: 2 * P(X <= min(b, c)), X ~ Bin(b + c, 1/2), capped at 1
                m = b + c
                exact = min(Fraction(1), Fraction(2 * sum(math.comb(m, i) for i in range(min(b, c) + 1)), 2**m))
                self.assertEqual(Fraction(p), exact)

    def test_no_disagreement_does_not_collapse(self) -> None:
        for a, d in ((54, 0), (27, 27), (0, 40), (40, 0), (29, 11)):
            with self.subTest(a=a, d=d):
                lo, hi = gate.newcombe_paired(a, 0, 0, d, 0.95)
                self.assertLess(lo, 0.0)
                self.assertGreater(hi, 0.0)
                self.assertAlmostEqual(lo, -hi, places=12)
                self.assertGreater(hi - lo, 0.03)

    def test_antisymmetry(self) -> None:
        for a, b, c, d, *_ in PAIRED_VECTORS:
            lo, hi = gate.newcombe_paired(a, b, c, d, 0.95)
            lo2, hi2 = gate.newcombe_paired(a, c, b, d, 0.95)
            self.assertAlmostEqual(lo, -hi2, places=12)
            self.assertAlmostEqual(hi, -lo2, places=12)


# ---------------------------------------------------------------------------------------------------
# compare through the command line
# ---------------------------------------------------------------------------------------------------

ENVELOPE = {"runner": "local-docker", "network": "off", "wall_clock_s_per_task": 900, "max_steps": 40}


def paired_ledgers(a: int, b: int, c: int, d: int) -> tuple[dict[str, Any], list[Any], dict[str, Any], list[Any]]:
    """Two PUBLISHABLE ledgers over one suite whose paired table is exactly (a, b, c, d).

    pos-01 is one of the `a` tasks both pass, neg-01 one of the `d` tasks neither passes.
    """
    assert a >= 1 and d >= 1
    ids = ["pos-01"] + [f"t-{i:03d}" for i in range(1, a + b + c + d - 1)] + ["neg-01"]
    pass_a = set(ids[:a + b])
    pass_b = set(ids[:a]) | set(ids[a + b:a + b + c])
    manifests, ledgers = [], []
    for side, passing in (("a", pass_a), ("b", pass_b)):
        records = [record(t, "pass" if t in passing else "fail", run_id=f"run-{side}") for t in ids]
        manifests.append({
            "claim_id": f"claim-{side}",
            "dataset": {"name": "paired-suite", "task_count": len(ids), "task_ids_sha256": ids_digest(ids),
                        "task_ids": sorted(ids)},
            "controls": [{"task_id": "neg-01", "expected": "fail", "role": "negative"},
                         {"task_id": "pos-01", "expected": "pass", "role": "positive"}],
            "envelope": dict(ENVELOPE),
            "rerun_recipe": "python3 gate.py --manifest m.json --runs r.jsonl",
        })
        ledgers.append(records)
    return manifests[0], ledgers[0], manifests[1], ledgers[1]


def mdd(n: int, pooled: float) -> float:
    """Minimum detectable difference at 95% confidence and 80% power (Miller 2024), no pairing credit."""
    p = min(max(pooled, 1 / n), 1 - 1 / n)
    return (Z95 + statistics.NormalDist().inv_cdf(0.8)) * math.sqrt(2 * p * (1 - p) / n)


class CompareTest(GateCase):
    def compare(self, ma: dict[str, Any], ra: list[Any], mb: dict[str, Any], rb: list[Any],
                *extra: str) -> tuple[int, str, str]:
        paths = [self.write_json("a.manifest.json", ma), self.write_jsonl("a.jsonl", ra),
                 self.write_json("b.manifest.json", mb), self.write_jsonl("b.jsonl", rb)]
        return self.run_gate("compare", "--manifest", str(paths[0]), "--runs", str(paths[1]),
                             "--against-manifest", str(paths[2]), "--against-runs", str(paths[3]), *extra)

    def compare_json(self, *ledgers: Any) -> tuple[int, dict[str, Any]]:
        code, out, err = self.compare(*ledgers, "--format", "json")
        self.assertIn(code, (0, 1), err)
        return code, json.loads(out)

    def test_table_interval_and_p_against_reference_vectors(self) -> None:
        for a, b, c, d, ref_lo, ref_hi, ref_p in PAIRED_VECTORS:
            if a < 1 or d < 1:
                continue
            with self.subTest(table=(a, b, c, d)):
                code, report = self.compare_json(*paired_ledgers(a, b, c, d))
                self.assertEqual(code, 0, report["findings"])
                self.assertEqual(report["paired"], {"both_pass": a, "a_only": b, "b_only": c, "neither": d})
                n = a + b + c + d
                diff = report["difference"]
                self.assertAlmostEqual(diff["value"], (b - c) / n, places=12)
                self.assertEqual(round(diff["ci_low"], 6), ref_lo)
                self.assertEqual(round(diff["ci_high"], 6), ref_hi)
                self.assertLessEqual(abs(report["mcnemar_exact_p"] - ref_p), 1e-12)
                real = (ref_lo > 0 or ref_hi < 0) and ref_p < 0.05
                self.assertEqual(report["real"], real)
                self.assertAlmostEqual(report["minimum_detectable_difference"], mdd(n, (2 * a + b + c) / (2 * n)), places=9)
                self.assertEqual(report["a"]["verdict"], "PUBLISHABLE")
                self.assertEqual(report["b"]["verdict"], "PUBLISHABLE")

    def test_interval_excluding_zero_is_not_enough(self) -> None:
        # (14, 5, 0, 22): Newcombe [0.011, 0.226] excludes 0 but exact p = 0.0625 >= 0.05
        code, out, _ = self.compare(*paired_ledgers(14, 5, 0, 22))
        self.assertEqual(code, 0)
        self.assertIn("within noise", out)
        self.assertNotIn("is real", out)

    def test_confidence_sets_alpha(self) -> None:
        # (14, 5, 0, 22): exact p = 0.0625; within noise at 95%, real at 90% (alpha 0.10)
        _, report = self.compare_json(*paired_ledgers(14, 5, 0, 22), "--confidence", "0.9")
        self.assertAlmostEqual(report["alpha"], 0.1, places=12)
        self.assertTrue(report["real"])
        self.assertGreater(report["difference"]["ci_low"], 0.011483)  # narrower than the 95% interval
        code, out, _ = self.compare(*paired_ledgers(14, 5, 0, 22), "--confidence", "0.9")
        self.assertEqual(code, 0)
        self.assertRegex(out, r"(?m)^reading\s*: the difference is real at 90% confidence$")

    def test_29_vs_30_is_within_noise(self) -> None:
        # A passes pos-01 + 28 others; B those and one more: both 29, A only 0, B only 1, neither 10
        code, out, err = self.compare(*paired_ledgers(29, 0, 1, 10))
        self.assertEqual(code, 0, out + err)
        self.assertRegex(out, r"(?m)^A\s*: claim-a: " + re.escape(rate_text(29, 40)) + "$")
        self.assertRegex(out, r"(?m)^B\s*: claim-b: " + re.escape(rate_text(30, 40)) + "$")
        self.assertRegex(out, r"(?m)^paired\s*: both pass 29, A only 0, B only 1, neither 10\b")
        self.assertIn("A - B = -0.025", out)
        self.assertRegex(out, r"(?m)^McNemar\s*: exact p = 1\b")
        self.assertRegex(out, r"(?m)^reading\s*: the difference is within noise at 95% confidence$")
        self.assertRegex(out, r"(?m)^verdict\s*: PUBLISHABLE$")
        shown = re.search(r"minimum detectable difference (\d\.\d{3})", out)
        assert shown is not None, out
        expected = mdd(40, 59 / 80)
        self.assertAlmostEqual(float(shown.group(1)), expected, delta=0.0005)
        self.assertGreater(expected, 0.025)

    def test_strongly_different_nested_pair_is_real(self) -> None:
        # A passes 35 of 40, B passes 10 of them: both 10, A only 25, B only 0, neither 5
        code, out, _ = self.compare(*paired_ledgers(10, 25, 0, 5))
        self.assertEqual(code, 0, out)
        self.assertRegex(out, r"(?m)^A\s*: claim-a: 35/40 ")
        self.assertRegex(out, r"(?m)^B\s*: claim-b: 10/40 ")
        self.assertIn("A - B = +0.625", out)
        self.assertRegex(out, r"(?m)^reading\s*: the difference is real at 95% confidence$")
        self.assertNotIn("within noise", out)
        self.assertLess(float(gate.mcnemar_exact(25, 0)), 1e-6)

    def test_json_fields(self) -> None:
        _, report = self.compare_json(*paired_ledgers(29, 0, 1, 10))
        for key in ("verdict", "a", "b", "paired", "difference", "mcnemar_exact_p", "real",
                    "minimum_detectable_difference", "findings"):
            self.assertIn(key, report)
        self.assertEqual(report["verdict"], "PUBLISHABLE")
        self.assertFalse(report["real"])
        self.assertEqual(report["mcnemar_exact_p"], 1.0)
        self.assertLess(report["difference"]["ci_low"], -0.025)
        self.assertGreater(report["difference"]["ci_high"], 0.0)
        self.assertEqual((report["a"]["headline"]["k"], report["b"]["headline"]["k"]), (29, 30))

    def test_envelope_mismatch(self) -> None:
        ma, ra, mb, rb = paired_ledgers(29, 0, 1, 10)
        mb["envelope"]["network"] = "on"
        del mb["envelope"]["max_steps"]
        mb["envelope"]["toolchain_sha"] = "abc"
        code, out, _ = self.compare(ma, ra, mb, rb)
        self.assertEqual(code, 1)
        line = next(x for x in out.splitlines() if "envelope_mismatch" in x)
        for name in ("network", "max_steps", "toolchain_sha"):
            self.assertIn(name, line)
        for name in ("runner", "wall_clock_s_per_task"):
            self.assertNotIn(name, line)
        self.assertRegex(out, r"(?m)^verdict\s*: BLOCKED$")

    def test_envelope_value_type_matters(self) -> None:
        ma, ra, mb, rb = paired_ledgers(29, 0, 1, 10)
        mb["envelope"]["max_steps"] = "40"
        _, report = self.compare_json(ma, ra, mb, rb)
        self.assertEqual([f["code"] for f in report["findings"]], ["envelope_mismatch"])
        self.assertIn("max_steps", report["findings"][0]["message"])

    def test_envelope_boolean_is_not_a_number(self) -> None:
        # JSON true and 1 are different values; "every envelope field equal" must see the difference
        ma, ra, mb, rb = paired_ledgers(29, 0, 1, 10)
        ma["envelope"]["gpu"] = True
        mb["envelope"]["gpu"] = 1
        _, report = self.compare_json(ma, ra, mb, rb)
        self.assertEqual([f["code"] for f in report["findings"]], ["envelope_mismatch"])
        self.assertIn("gpu", report["findings"][0]["message"])

    def test_dataset_digest_mismatch(self) -> None:
        ma, ra, _, _ = paired_ledgers(29, 0, 1, 10)
        # B ran a different suite: t-038 replaced by t-999; B is PUBLISHABLE on its own
        mb, rb, _, _ = paired_ledgers(30, 0, 1, 9)
        rb = [dict(r, task_id="t-999") if r["task_id"] == "t-038" else r for r in rb]
        ids = [r["task_id"] for r in rb]
        mb["dataset"].update(task_ids=sorted(ids), task_ids_sha256=ids_digest(ids))
        mb["claim_id"] = "claim-b"
        code, report = self.compare_json(ma, ra, mb, rb)
        self.assertEqual(code, 1)
        self.assertEqual(report["b"]["verdict"], "PUBLISHABLE")
        self.assertEqual([f["code"] for f in report["findings"]], ["dataset_digest_mismatch"])

    def test_blocked_side_findings_are_prefixed(self) -> None:
        ma, ra, mb, rb = paired_ledgers(29, 0, 1, 10)
        rb = [dict(r, outcome="pass") if r["task_id"] == "neg-01" else r for r in rb]
        code, report = self.compare_json(ma, ra, mb, rb)
        self.assertEqual(code, 1)
        self.assertEqual(report["verdict"], "BLOCKED")
        self.assertEqual([f["code"] for f in report["findings"]], ["B:control_violated"])
        ra = [r for r in ra if r["task_id"] != "t-005"]  # A drops a task
        code, out, _ = self.compare(ma, ra, mb, rb)
        self.assertEqual(code, 1)
        self.assertRegex(out, r"(?m)^  ! A:never_started: ")
        self.assertRegex(out, r"(?m)^  ! B:control_violated: ")

    def test_markdown(self) -> None:
        code, out, _ = self.compare(*paired_ledgers(29, 0, 1, 10), "--format", "markdown")
        self.assertEqual(code, 0)
        self.assertIn("**PUBLISHABLE**", out)
        self.assertIn("within noise", out)
        tables = markdown_tables(out)
        cells = [row for table in tables for row in table]
        self.assertIn(["**A pass**", "29", "0"], cells)
        self.assertIn(["**A not pass**", "1", "10"], cells)
        code, out, _ = self.compare(*paired_ledgers(10, 25, 0, 5), "--format", "markdown")
        self.assertRegex(out, r"\*\*PUBLISHABLE\*\*, the difference is real")

    def test_svg(self) -> None:
        ledgers = paired_ledgers(29, 0, 1, 10)
        code, out, _ = self.compare(*ledgers, "--format", "svg")
        self.assertEqual(code, 0)
        root = assert_safe_svg(self, out)
        title = root.find(f"{SVG_NS}title")
        assert title is not None and title.text is not None
        for part in ("claim-a", "claim-b", "PUBLISHABLE"):
            self.assertIn(part, title.text)
        points = {c.get("data-label"): c for c in root.iter(f"{SVG_NS}circle") if c.get("class") == "point"}
        self.assertEqual(set(points), {"A claim-a", "B claim-b", "A - B"})
        lo, hi = wilson(29, 40)
        self.assertAlmostEqual(float(points["A claim-a"].get("cx", "nan")), 300 + 0.725 * 400, places=2)
        self.assertAlmostEqual(float(points["B claim-b"].get("cx", "nan")), 300 + 0.75 * 400, places=2)
        ci = ci_lines_by_y(root)
        a_line = ci[points["A claim-a"].get("cy")]
        self.assertAlmostEqual(float(a_line.get("x1", "nan")), 300 + lo * 400, places=1)
        self.assertAlmostEqual(float(a_line.get("x2", "nan")), 300 + hi * 400, places=1)
        # the difference panel: -1..1 mapped onto 300..700
        diff = points["A - B"]
        self.assertAlmostEqual(float(diff.get("cx", "nan")), 300 + (-0.025 + 1) / 2 * 400, places=2)
        dlo, dhi = gate.newcombe_paired(29, 0, 1, 10, 0.95)
        d_line = ci[diff.get("cy")]
        self.assertAlmostEqual(float(d_line.get("x1", "nan")), 300 + (dlo + 1) / 2 * 400, places=1)
        self.assertAlmostEqual(float(d_line.get("x2", "nan")), 300 + (dhi + 1) / 2 * 400, places=1)
        axes = [(x.get("data-low"), x.get("data-high")) for x in root.iter(f"{SVG_NS}line") if x.get("class") == "axis"]
        self.assertEqual(axes, [("0", "1"), ("-1", "1")])
        texts = [t.text for t in root.iter(f"{SVG_NS}text")]
        for tick in ("-100%", "-50%", "0%", "50%", "100%"):
            self.assertIn(tick, texts)
        # deterministic, and independent of where the files live
        again = self.compare(*ledgers, "--format", "svg")[1]
        self.assertEqual(out.encode(), again.encode())


class CompareExampleTest(GateCase):
    """examples/compare/: two PUBLISHABLE runs of one suite, and the tool's own output beside them."""

    EXAMPLE = ROOT / "examples" / "compare"

    def test_example_is_current_and_within_noise(self) -> None:
        files = [self.EXAMPLE / name for name in ("a.manifest.json", "a.jsonl", "b.manifest.json", "b.jsonl")]
        args = ["compare", "--manifest", str(files[0]), "--runs", str(files[1]),
                "--against-manifest", str(files[2]), "--against-runs", str(files[3])]
        code, text, err = self.run_gate(*args)
        self.assertEqual(code, 0, text + err)
        self.assertIn("within noise", text)
        self.assertEqual(text, (self.EXAMPLE / "compare.txt").read_text(encoding="utf-8"),
                         "compare.txt is stale: run python3 examples/compare/make_example.py")
        code, svg, _ = self.run_gate(*args, "--format", "svg")
        self.assertEqual(svg, (self.EXAMPLE / "compare.svg").read_text(encoding="utf-8"),
                         "compare.svg is stale: run python3 examples/compare/make_example.py")
        assert_safe_svg(self, svg)
        ma, mb = (json.loads(f.read_text(encoding="utf-8")) for f in files[0::2])
        self.assertEqual(ma["dataset"]["task_ids_sha256"], mb["dataset"]["task_ids_sha256"])
        self.assertEqual(ma["envelope"], mb["envelope"])
        self.assertEqual(ma["dataset"]["task_ids_sha256"], ids_digest(ma["dataset"]["task_ids"]))


# ---------------------------------------------------------------------------------------------------
# Markdown and SVG report cards of one ledger
# ---------------------------------------------------------------------------------------------------

def split_row(line: str) -> list[str]:
    body = line.strip()
    assert body.startswith("|") and body.endswith("|"), line
    cells = re.split(r"(?<!\\)\|", body[1:-1])
    return [c.strip() for c in cells]


def markdown_tables(text: str) -> list[list[list[str]]]:
    """Every GitHub-flavoured table as a list of rows (header first, separator dropped)."""
    tables: list[list[list[str]]] = []
    current: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            current.append(line)
            continue
        if current:
            rows = [split_row(x) for x in current]
            assert len(rows) >= 2 and all(re.fullmatch(r":?-{3,}:?", c) for c in rows[1]), current
            assert all(len(r) == len(rows[0]) for r in rows), current
            tables.append([rows[0], *rows[2:]])
            current = []
    return tables


def assert_safe_svg(case: unittest.TestCase, text: str) -> ET.Element:
    root = ET.fromstring(text)
    case.assertEqual(root.tag, f"{SVG_NS}svg")
    for element in root.iter():
        tag = element.tag.split("}")[-1]
        case.assertNotIn(tag.lower(), ("script", "foreignobject", "iframe", "image", "use", "a", "style"))
        for key, value in element.attrib.items():
            case.assertFalse(key.lower().startswith("on"), key)
            if key.split("}")[-1] == "href":
                case.fail(f"link {value!r} in the SVG")
    lowered = text.lower()
    for bad in ("<script", "url(http", "url(//", "@import", "javascript:", "xlink:href", " href="):
        case.assertNotIn(bad, lowered)
    return root


def ci_lines_by_y(root: ET.Element) -> dict[str | None, ET.Element]:
    return {line.get("y1"): line for line in root.iter(f"{SVG_NS}line") if line.get("class") == "ci"}


def strata_ledger() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """valid_ledger() with strata on the records and two metrics; 29 pass, 8 fail, 3 unscoreable."""
    manifest, records = valid_ledger()
    for index, rec in enumerate(records):
        rec["stratum"] = ("repo_edit", "test_write", "refactor")[index % 3]
    manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'"),
                           metric("unscoreable_rate", "outcome == 'unscoreable'"),
                           metric("refactor_pass", "outcome == 'pass'", "stratum == 'refactor'")]
    return manifest, records


class MarkdownTest(GateCase):
    def test_structure(self) -> None:
        manifest, records = strata_ledger()
        code, out, _ = self.check(manifest, records, "--format", "markdown")
        self.assertEqual(code, 0)
        self.assertRegex(out, r"\*\*PUBLISHABLE\*\*")
        tables = markdown_tables(out)
        buckets = next(t for t in tables if t[0][0] == "bucket")
        self.assertEqual([row[0] for row in buckets[1:]], ["pass", "fail", "unscoreable"])
        self.assertEqual([row[1].split(" ")[0] for row in buckets[1:]], ["29", "8", "3"])
        self.assertIn("harness_timeout 2", buckets[3][1])
        rates = next(t for t in tables if t[0][0] == "rate")
        headline = [row for row in rates if "headline" in row[0] and "metric" not in row[0]]
        self.assertEqual(len(headline), 1)
        self.assertIn("**", headline[0][0])
        self.assertEqual(headline[0][1], "29/40")
        lo, hi = wilson(29, 40)
        self.assertEqual(headline[0][2:], ["0.725", f"[{lo:.3f}, {hi:.3f}]"])
        labels = " ".join(row[0] for row in rates)
        for name in ("repo_edit", "test_write", "refactor", "pass_rate", "unscoreable_rate", "refactor_pass"):
            self.assertIn(name, labels)
        self.assertIn("No findings", out)

    def test_blocked_findings_list_and_escaping(self) -> None:
        manifest, records = strata_ledger()
        manifest["claim_id"] = "agent|x"
        manifest["metrics"].append(metric("pipe|metric", "outcome.upper == 1"))
        code, out, _ = self.check(manifest, records, "--format", "markdown", "--claim", "80%")
        self.assertEqual(code, 1)
        self.assertRegex(out, r"\*\*BLOCKED\*\*")
        findings = [line for line in out.splitlines() if line.startswith("- ")]
        self.assertEqual(len(findings), 2)
        self.assertTrue(findings[0].startswith("- `metric_undefined`"), findings)
        self.assertTrue(findings[1].startswith("- `claim_unsupported`"), findings)
        markdown_tables(out)  # every row still has as many cells as its header


class SvgTest(GateCase):
    def test_points_sit_on_the_numbers(self) -> None:
        manifest, records = strata_ledger()
        code, out, _ = self.check(manifest, records, "--format", "svg")
        self.assertEqual(code, 0)
        root = assert_safe_svg(self, out)
        title = root.find(f"{SVG_NS}title")
        assert title is not None and title.text is not None
        self.assertIn("test-claim", title.text)
        self.assertIn("PUBLISHABLE", title.text)
        # the test's own tally of strata_ledger()
        strata: dict[str, list[int]] = {}
        for rec in records:
            k_n = strata.setdefault(rec["stratum"], [0, 0])
            k_n[0] += rec["outcome"] == "pass"
            k_n[1] += 1
        expected = {"pass_rate (headline)": (29, 40), "secondary: scoreable only": (29, 37),
                    "metric pass_rate": (29, 40), "metric unscoreable_rate": (3, 40),
                    "metric refactor_pass": tuple(strata["refactor"])}
        for name, (k, n) in strata.items():
            expected[f"stratum {name}"] = (k, n)
        points = {c.get("data-label"): c for c in root.iter(f"{SVG_NS}circle") if c.get("class") == "point"}
        self.assertEqual(set(points), set(expected))
        ci = ci_lines_by_y(root)
        for label, (k, n) in expected.items():
            with self.subTest(row=label):
                point = points[label]
                self.assertAlmostEqual(float(point.get("cx", "nan")), 300 + k / n * 400, places=2)
                lo, hi = wilson(k, n)
                line = ci[point.get("cy")]
                self.assertAlmostEqual(float(line.get("x1", "nan")), 300 + lo * 400, places=1)
                self.assertAlmostEqual(float(line.get("x2", "nan")), 300 + hi * 400, places=1)
                self.assertLessEqual(float(line.get("x1", "nan")), float(point.get("cx", "nan")))
                self.assertGreaterEqual(float(line.get("x2", "nan")), float(point.get("cx", "nan")))
        ys = [float(p.get("cy", "nan")) for p in points.values()]
        self.assertEqual(len(set(ys)), len(ys), "one row per point")
        texts = [t.text for t in root.iter(f"{SVG_NS}text")]
        for tick in ("0%", "25%", "50%", "75%", "100%"):
            self.assertIn(tick, texts)

    def test_blocked_title_and_escaping(self) -> None:
        manifest, records = strata_ledger()
        manifest["claim_id"] = "<b>&\"claim\"</b>"
        code, out, _ = self.check(manifest, records, "--format", "svg", "--claim", "80%")
        self.assertEqual(code, 1)
        root = assert_safe_svg(self, out)
        title = root.find(f"{SVG_NS}title")
        assert title is not None and title.text is not None
        self.assertIn("<b>&\"claim\"</b>", title.text)
        self.assertIn("BLOCKED", title.text)

    def test_same_input_same_bytes(self) -> None:
        manifest, records = strata_ledger()
        first = self.check(manifest, records, "--format", "svg")[1]
        second = self.check(manifest, records, "--format", "svg")[1]
        self.assertEqual(first.encode(), second.encode())
        proc = run_cli("--manifest", str(self.dir / "bench.manifest.json"), "--runs", str(self.dir / "runs.jsonl"),
                       "--format", "svg", cwd=Path("/"))
        self.assertEqual(proc.stdout.encode(), first.encode())


# ---------------------------------------------------------------------------------------------------
# Cost
# ---------------------------------------------------------------------------------------------------

class CostTest(GateCase):
    def test_totals_and_medians(self) -> None:
        manifest, records = valid_ledger(passes=3, fails=2, unscoreable=("harness_timeout",))
        manifest["attempt_budget"] = 2
        # per task: cost and tokens (total_tokens wins over input+output when both are present)
        costs = [0.5, 1.25, 0.125, 2.0, 0.75, 0.0]
        tokens = [(1000, 200, None), (None, None, 5000), (300, 0, None), (10, 20, 999), (0, 0, None), (7, None, None)]
        for rec, cost, (inp, outp, total) in zip(records, costs, tokens):
            rec["cost_usd"] = cost
            for key, value in (("input_tokens", inp), ("output_tokens", outp), ("total_tokens", total)):
                if value is not None:
                    rec[key] = value
        # a retried task: its cost is the sum of its attempts
        retry = dict(records[2], attempt=2, cost_usd=0.375, input_tokens=100, output_tokens=50)
        records[2] = dict(records[2], outcome="fail")
        records.append(retry)
        per_task_cost = {"neg-01": 0.5, "pos-01": 1.25, "t-001": 0.125 + 0.375, "t-002": 2.0, "t-003": 0.75, "t-004": 0.0}
        per_task_tokens = {"neg-01": 1200, "pos-01": 5000, "t-001": 300 + 150, "t-002": 999, "t-003": 0, "t-004": 7}
        total_cost = sum(per_task_cost.values())
        median_cost = statistics.median(per_task_cost.values())
        total_tokens = sum(per_task_tokens.values())
        median_tokens = statistics.median(per_task_tokens.values())
        self.assertEqual((total_cost, median_cost, total_tokens, median_tokens), (5.0, 0.625, 7656, 724.5))

        code, report = self.check_json(manifest, records)
        self.assertEqual(code, 0, report["findings"])
        cost = report["cost"]
        self.assertAlmostEqual(cost["total_cost_usd"], total_cost, places=12)
        self.assertAlmostEqual(cost["median_cost_usd"], median_cost, places=12)
        self.assertEqual(cost["total_tokens"], total_tokens)
        self.assertAlmostEqual(cost["median_tokens"], median_tokens, places=12)
        self.assertEqual(cost["tasks_with_cost"], 6)

        code, out, _ = self.check(manifest, records)
        line = next(x for x in out.splitlines() if x.startswith("cost"))
        self.assertIn(f"total ${total_cost:.2f}", line)
        self.assertIn(f"median ${median_cost:.4f} per task", line)
        self.assertIn(f"tokens total {total_tokens}", line)
        self.assertIn(f"median {median_tokens:g} per task", line)

    def test_tokens_only(self) -> None:
        manifest, records = valid_ledger(passes=2, fails=2, unscoreable=())
        for rec, n in zip(records, (10, 30, 20, 40)):
            rec["total_tokens"] = n
        _, report = self.check_json(manifest, records)
        self.assertEqual(report["cost"]["total_tokens"], 100)
        self.assertEqual(report["cost"]["median_tokens"], 25)
        self.assertIsNone(report["cost"]["total_cost_usd"])

    def test_no_cost_fields(self) -> None:
        manifest, records = valid_ledger()
        _, report = self.check_json(manifest, records)
        self.assertIsNone(report["cost"])
        self.assertNotRegex(self.check(manifest, records)[1], r"(?m)^cost\s*:")

    def test_non_finite_cost_is_an_input_error(self) -> None:
        # 1e400 is valid JSON that Python reads as inf: a cost must be a finite number, and the JSON
        # report must stay JSON (no Infinity)
        manifest, records = valid_ledger()
        m = self.write_json("bench.manifest.json", manifest)
        lines = [json.dumps(rec) for rec in records]
        lines[3] = lines[3][:-1] + ', "cost_usd": 1e400}'
        r = self.write_text("runs.jsonl", "\n".join(lines) + "\n")
        result = self.run_gate("--manifest", str(m), "--runs", str(r), "--format", "json")
        self.assertFalse("Infinity" in result[1], "the JSON report carries Infinity")
        self.assertInputError(result)  # "cost_usd" or "out of range": either names the problem

    def test_bad_cost_is_an_input_error(self) -> None:
        for key, value in (("cost_usd", -0.01), ("cost_usd", "1.00"), ("cost_usd", True), ("input_tokens", -5),
                           ("output_tokens", 1.5), ("total_tokens", -1)):
            with self.subTest(key=key, value=value):
                manifest, records = valid_ledger()
                records[3][key] = value
                self.assertInputError(self.check(manifest, records), key)


if __name__ == "__main__":
    unittest.main()
