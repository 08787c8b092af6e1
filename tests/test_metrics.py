"""Declared metrics: the predicate language (parsed with ast, never evaluated), how a metric counts over
the ledger's exit rows, which metric is the headline, when a metric is undefined, and the cost figures.

Expected counts come from rich_ledger()'s own view of each exit row and an oracle per predicate; the
intervals from tests/oracles.py.
"""

from __future__ import annotations

import ast
import builtins
import json
import re
import statistics
from typing import Any, Callable
from unittest import mock

import gate
from tests.builders import metric, rich_ledger, valid_ledger
from tests.oracles import rate_text, wilson
from tests.support import EXAMPLE_CARD, ROOT, GateCase, parsed, run_cli


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


class AcceptedPredicates(GateCase):
    """Predicates the language accepts, and what they count."""

    def test_compile_predicate_matches_the_oracle_row_by_row(self) -> None:
        """Every accepted predicate agrees with its hand-written oracle on every exit row; a boolean never equals a number."""
        _, _, exits = rich_ledger()
        for source, oracle in ACCEPTED:
            with self.subTest(source=source):
                predicate, _fields = gate.compile_predicate(source)
                for row in exits:
                    full = {"note": None, "score": None, "flaky": None, "difficulty": None, **row}
                    self.assertEqual(bool(predicate(full)), oracle(row), row["task_id"])

    def test_fields_reported(self) -> None:
        """compile_predicate reports the fields a predicate reads."""
        _, fields = gate.compile_predicate("outcome == 'pass' and difficulty in ('hard',) or not attempts == 2")
        self.assertEqual(set(fields), {"outcome", "difficulty", "attempts"})

    def test_manifest_metrics_count_over_the_full_denominator(self) -> None:
        """Each declared metric counts its numerator over the full task count, with the Wilson interval."""
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
        """A denominator over an extra record field (difficulty) counts 12/19 and prints with the metric's unit."""
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
        """A predicate denominator restricts both counts to the tasks it selects."""
        manifest, records, exits = rich_ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'"),
                               metric("tw", "outcome == 'pass'", "stratum in ('test_write',)")]
        _, report = self.check_json(manifest, records)
        tw = [t for t in exits if t["stratum"] == "test_write"]
        entry = report["metrics"][1]
        self.assertEqual((entry["rate"]["k"], entry["rate"]["n"]), (sum(t["outcome"] == "pass" for t in tw), len(tw)))

    def test_documented_metric_forms(self) -> None:
        """The documented metric forms print their rates, the first marked as the headline metric."""
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'"),
                               metric("unscoreable_rate", "outcome == 'unscoreable'")]
        code, out, _ = self.check(manifest, records)
        self.assertEqual(code, 0, out)
        self.assertRegex(out, r"(?m)^  pass_rate\s*: " + re.escape(rate_text(29, 40, "tasks")) + r"  <- headline metric$")
        self.assertRegex(out, r"(?m)^  unscoreable_rate\s*: " + re.escape(rate_text(3, 40, "tasks")) + "$")

    def test_deep_but_short_nesting_is_evaluated_not_crashed(self) -> None:
        """495 nested 'not's in under 2,000 characters are evaluated (11 tasks) or refused as metric_undefined, never
        a traceback.
        """
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

    def test_a_predicate_of_2000_characters_is_read_and_one_more_is_refused(self) -> None:
        """A numerator of exactly 2,000 characters is evaluated (29 passes); 2,001 is metric_undefined, saying the
        predicate is longer than 2000 characters."""
        manifest, records = valid_ledger()
        source = "outcome == 'pass'" + " " * (2000 - len("outcome == 'pass'"))
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'"), metric("long", source)]
        code, out, _ = self.check(manifest, records, "--format", "json")
        self.assertEqual(code, 0, out)
        self.assertEqual(json.loads(out)["metrics"][1]["rate"]["k"], 29)
        manifest["metrics"][1] = metric("long", source + " ")
        code, out, _ = self.check(manifest, records, "--format", "json")
        self.assertEqual(code, 1)
        found = [f for f in json.loads(out)["findings"] if f["code"] == "metric_undefined"]
        self.assertEqual(len(found), 1, out)
        self.assertIn("predicate is longer than 2000 characters", found[0]["message"])


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


class RejectedPredicates(GateCase):
    """Anything outside the language is refused, named, and never run."""

    def test_compile_predicate_raises_metric_error(self) -> None:
        """Calls, attributes, subscripts, arithmetic, ordering, chained comparisons, bare names and other constructs
        raise MetricError quoting the offending part.
        """
        for source, fragment in REJECTED_NUMERATORS:
            with self.subTest(source=source), self.assertRaises(gate.MetricError) as caught:
                gate.compile_predicate(source)
            self.assertIn(fragment, str(caught.exception))

    def test_each_rejection_is_a_named_finding_and_exit_1(self) -> None:
        """Each rejected predicate in a manifest is one metric_undefined finding naming its metric, with no rate,
        while the good metric is still counted.
        """
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
        """A denominator is exactly dataset.task_count or a predicate; anything else is a problem quoting it."""
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
        """An undefined metric prints 'undefined', adds a metric_undefined finding and blocks."""
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'"), metric("evil", "__import__('os').system('true')")]
        code, out, _ = self.check(manifest, records)
        self.assertEqual(code, 1)
        self.assertRegex(out, r"(?m)^  evil\s*: undefined")
        self.assertRegex(out, r"(?m)^verdict\s*: BLOCKED$")
        self.assertRegex(out, r"(?m)^  ! metric_undefined: metric 'evil': ")

    def test_huge_predicate(self) -> None:
        """A 100,000-character predicate is refused as metric_undefined without echoing it back in full."""
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
        """Deeply nested nots, parentheses, lists and minus signs are refused as metric_undefined in a real process,
        with no traceback.
        """
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


class PredicatesAreNeverEvaluated(GateCase):
    def test_metric_evaluation_never_evals_execs_or_compiles_code(self) -> None:
        """Metrics are counted without eval, exec or compiling code: with eval and exec raising, and compile raising
        unless asked for an AST only, the check still counts right.

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
        """gate.py's source calls no eval, exec, __import__ or builtin compile."""
        tree = parsed((ROOT / "gate.py").read_text(encoding="utf-8"))
        bad = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else (func.attr if isinstance(func, ast.Attribute) else None)
                owner = func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else None
                if name in ("eval", "exec", "__import__") or (name == "compile" and owner in (None, "builtins")):
                    bad.append((node.lineno, name))
        self.assertEqual(bad, [])


class HeadlineMetric(GateCase):
    """Which declared metric is the headline, and that it counts every task."""

    def test_first_metric_is_the_headline(self) -> None:
        """Without a marked headline the first declared metric is the headline, printed with its unit."""
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
        """A metric marked headline: true is the headline even when it is not first."""
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

    def test_a_first_metric_over_fewer_tasks_is_a_labelled_metric_not_the_headline(self) -> None:
        """An unmarked first metric over fewer than all tasks is shown as a labelled metric (29/37); the headline
        stays the gate's own 29/40."""
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'", "outcome != 'unscoreable'")]
        report = self.publishable(manifest, records)
        self.assertEqual((report["headline"]["k"], report["headline"]["n"]), (29, 40))
        self.assertEqual([(m["rate"]["k"], m["rate"]["n"], m["headline"]) for m in report["metrics"]], [(29, 37, False)])
        _, out, _ = self.check(manifest, records)
        self.assertNotRegex(out, r"(?m)^  pass_rate\s*: .*<- headline")

    def test_shrunk_marked_headline(self) -> None:
        """A marked headline with a shrunk denominator blocks the same way."""
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'"),
                               metric("scored", "outcome == 'pass'", "outcome in ('pass', 'fail')", headline=True)]
        self.assertEqual(self.codes(manifest, records), ["headline_denominator_shrunk"])

    def test_narrower_secondary_metric_is_fine(self) -> None:
        """A metric that is not the headline may have a narrower denominator."""
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'"),
                               metric("scoreable_pass_rate", "outcome == 'pass'", "outcome != 'unscoreable'")]
        code, out, _ = self.check(manifest, records)
        self.assertEqual(code, 0, out)
        self.assertRegex(out, r"(?m)^  scoreable_pass_rate\s*: " + re.escape(rate_text(29, 37, "tasks")) + "$")

    def test_full_coverage_predicate_denominator_is_not_shrunk(self) -> None:
        """A predicate denominator that covers every outcome is not a shrunk headline."""
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome == 'pass'", "outcome in ('pass', 'fail', 'unscoreable')")]
        self.assertEqual(self.codes(manifest, records), [])


class UndefinedMetrics(GateCase):
    """A metric that cannot mean what it says is undefined, not zero."""

    def test_a_field_no_record_carries_is_undefined(self) -> None:
        """A predicate on a field no record carries (a typo) is metric_undefined naming the field."""
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("m", "outcom == 'pass'")]
        code, report = self.check_json(manifest, records)
        self.assertEqual(code, 1)
        messages = [f["message"] for f in report["findings"] if f["code"] == "metric_undefined"]
        self.assertEqual(len(messages), 1, report["findings"])
        self.assertIn("'outcom'", messages[0])

    def test_an_outcome_that_cannot_exist_is_undefined(self) -> None:
        """Comparing outcome with a value it can never take ('Pass', 'passed') is metric_undefined."""
        manifest, records = valid_ledger()
        for predicate in ("outcome == 'Pass'", "outcome in ('pass', 'passed')"):
            with self.subTest(predicate=predicate):
                manifest["metrics"] = [metric("m", predicate)]
                self.assertIn("metric_undefined", self.codes(manifest, records))

    def test_an_empty_denominator_prints_n_a_not_undefined(self) -> None:
        """A metric whose denominator selects no task prints n/a, not undefined, and does not block."""
        manifest, records = valid_ledger()
        manifest["metrics"] = [metric("m", "outcome == 'pass'"),
                               {**metric("m", "outcome == 'pass'", "outcome == 'unscoreable' and outcome == 'pass'"),
                                "name": "empty"}]
        code, out, _ = self.check(manifest, records)
        self.assertEqual(code, 0)
        line = next(x for x in out.splitlines() if x.strip().startswith("empty"))
        self.assertIn("n/a", line)
        self.assertNotIn("undefined", line)

    def test_a_metric_cannot_print_a_withheld_stratum_rate(self) -> None:
        """A metric whose denominator is a withheld stratum of the card is metric_undefined, with no rate."""
        self.copy_into(EXAMPLE_CARD, "tasks.json", "bench.manifest.json", "runs.jsonl", "noedit.jsonl", "gold.jsonl")
        code, out, err = self.run_gate("freeze", str(self.dir / "tasks.json"), str(self.dir / "card.json"),
                                       "--min-per-stratum", "7", "--withhold-thin-strata")
        self.assertEqual(code, 0, err)
        card = json.loads((self.dir / "card.json").read_text())
        self.assertIn("go:narrow", card["withheld"])
        manifest = json.loads((self.dir / "bench.manifest.json").read_text())
        manifest["metrics"] = [
            {"name": "pass_rate", "numerator": "outcome == 'pass'", "denominator": "dataset.task_count"},
            {"name": "go_rate", "numerator": "outcome == 'pass'", "denominator": "stratum == 'go:narrow'"},
        ]
        (self.dir / "bench.manifest.json").write_text(json.dumps(manifest))
        code, out, err = self.run_gate("--manifest", str(self.dir / "bench.manifest.json"),
                                       "--runs", str(self.dir / "runs.jsonl"), "--format", "json")
        report = json.loads(out)
        self.assertEqual(code, 1, err)
        self.assertIn("metric_undefined", [f["code"] for f in report["findings"]])
        self.assertIsNone(report["metrics"][1]["rate"])


class ExtraRecordFields(GateCase):
    """Fields beyond the required five, as metrics see them."""

    def test_a_field_some_records_carry_is_fine(self) -> None:
        """A field carried by some records only is defined; the tasks without it simply do not match."""
        manifest, records = valid_ledger()
        records[0]["difficulty"] = "hard"
        manifest["metrics"] = [metric("m", "outcome == 'pass'"), metric("m", "difficulty == 'hard'")]
        manifest["metrics"][1]["name"] = "hard"
        code, report = self.check_json(manifest, records)
        self.assertEqual(code, 0, report["findings"])
        self.assertEqual(report["metrics"][1]["rate"]["k"], 1)

    def test_repeated_attempts_pick_the_same_extra_fields_in_any_order(self) -> None:
        """A task's extra fields come from the same attempt whatever the order of its records."""
        manifest, records = valid_ledger()
        manifest["attempt_budget"] = 2
        first = dict(records[5], note="x")
        second = dict(records[5], note="y")
        manifest["metrics"] = [metric("m", "outcome == 'pass'"), {**metric("m", "note == 'x'"), "name": "x"}]
        a = self.check(manifest, [*records[:5], first, second, *records[6:]], "--format", "json")
        b = self.check(manifest, [*records[:5], second, first, *records[6:]], "--format", "json")
        strip = lambda out: {k: v for k, v in json.loads(out).items() if k != "inputs"}  # noqa: E731
        self.assertEqual(strip(a[1]), strip(b[1]))


class CostFigures(GateCase):
    """Cost and token figures: summed per task over its attempts, then totalled."""

    def test_totals_and_medians(self) -> None:
        """Cost and tokens are summed per task over its attempts (total_tokens over input + output), then totalled,
        with per-task medians, in JSON and text.
        """
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
        """With tokens but no cost, the token figures are reported and the cost total is null."""
        manifest, records = valid_ledger(passes=2, fails=2, unscoreable=())
        for rec, n in zip(records, (10, 30, 20, 40)):
            rec["total_tokens"] = n
        _, report = self.check_json(manifest, records)
        self.assertEqual(report["cost"]["total_tokens"], 100)
        self.assertEqual(report["cost"]["median_tokens"], 25)
        self.assertIsNone(report["cost"]["total_cost_usd"])

    def test_each_cost_figure_names_the_tasks_it_is_over(self) -> None:
        """Half the tasks report only a cost, half only tokens (one cost null): each figure says how many tasks it is
        over, the count in brackets is of tasks with either, and the JSON gives the three counts; a token median
        halfway between two counts of six digits is printed whole (110491.5, not 110492)."""
        manifest, records = valid_ledger()
        half = len(records) // 2 + (len(records) - len(records) // 2) % 2  # (an even number tokened)
        costed, tokened = records[:half], records[half:]
        for index, rec in enumerate(costed):
            rec["cost_usd"] = None if index == 0 else 0.25 * index
        for index, rec in enumerate(reversed(tokened)):
            rec["total_tokens"] = 110_000 + 3 * index
        counts = sorted(rec["total_tokens"] for rec in tokened)
        median = statistics.median(counts)
        self.assertNotEqual(median, int(median))  # (the case the old card rounded)
        code, report = self.check_json(manifest, records)
        self.assertEqual(code, 0, report["findings"])
        cost = report["cost"]
        self.assertEqual((cost["tasks_with_cost"], cost["tasks_with_cost_usd"], cost["tasks_with_tokens"]),
                         (len(records) - 1, len(costed) - 1, len(tokened)))
        self.assertEqual(cost["median_tokens"], median)
        line = next(x for x in self.check(manifest, records)[1].splitlines() if x.startswith("cost"))
        self.assertIn(f"per task over {len(costed) - 1} tasks; tokens total {sum(counts)}, median {median!r} per task "
                      f"over {len(tokened)} tasks ({len(records) - 1} tasks report cost or tokens)", line)
        for rec in records:  # every task both: the line as it always was
            rec.update(cost_usd=1.5, total_tokens=100)
        line = next(x for x in self.check(manifest, records)[1].splitlines() if x.startswith("cost"))
        self.assertTrue(line.endswith(f"tokens total {100 * len(records)}, median 100 per task "
                                      f"({len(records)} tasks report cost)"), line)

    def test_an_input_and_output_sum_past_the_bound_is_named_as_the_sum(self) -> None:
        """Input and output counts each within the bound whose sum is not: the error names the sum, not a
        total_tokens the record does not have."""
        manifest, records = valid_ledger()
        records[2].update(input_tokens=6 * 10**14, output_tokens=5 * 10**14)
        self.assertInputError(self.check(manifest, records), "runs.jsonl:3: input_tokens + output_tokens: expected an "
                              "integer from 0 to 1e+15, got the number 1100000000000000")

    def test_no_cost_fields(self) -> None:
        """With no cost field the report's cost is null and no cost line is printed."""
        manifest, records = valid_ledger()
        _, report = self.check_json(manifest, records)
        self.assertIsNone(report["cost"])
        self.assertNotRegex(self.check(manifest, records)[1], r"(?m)^cost\s*:")

    def test_non_finite_cost_is_an_input_error(self) -> None:
        """A cost of 1e400 is an input error, and no Infinity reaches the JSON report."""
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
        """A negative, string or boolean cost, and a negative or fractional token count, are input errors naming the field."""
        for key, value in (("cost_usd", -0.01), ("cost_usd", "1.00"), ("cost_usd", True), ("input_tokens", -5),
                           ("output_tokens", 1.5), ("total_tokens", -1)):
            with self.subTest(key=key, value=value):
                manifest, records = valid_ledger()
                records[3][key] = value
                self.assertInputError(self.check(manifest, records), key)

    def test_huge_costs_are_refused_not_summed_to_infinity(self) -> None:
        """Costs whose sum would overflow (two of 1e308) are refused at their line; large finite ones (1e15) are
        summed exactly.
        """
        manifest, records = valid_ledger()
        records[3]["cost_usd"] = 1e308
        records[4]["cost_usd"] = 1e308
        self.assertInputError(self.check(manifest, records), "runs.jsonl:4:", "cost_usd", lines=2)
        records[3]["cost_usd"] = 1e15
        records[4]["cost_usd"] = 1e15
        _code, report = self.check_json(manifest, records)
        self.assertEqual(report["cost"]["total_cost_usd"], 2e15)


class TheHeadlineIsTheGates(GateCase):
    """A declared metric may not stand in for the headline unless it counts exactly what the headline counts."""

    def ledger(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        manifest, records = valid_ledger(passes=4, fails=2, unscoreable=("grader_error",) * 4)
        manifest["max_unscoreable"] = 0.4  # 4 of 10 unscoreable: these tests are about metrics, not attrition
        return manifest, records

    def test_a_metric_that_counts_unscoreable_as_pass_cannot_be_the_headline(self) -> None:
        """`pass_rate` with `outcome != 'fail'` marked headline used to print 8/10 where 4 of 10 passed, and
        --claim 80% matched; now it is headline_redefined, the headline stays 4/10 and 80% is unsupported."""
        manifest, records = self.ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome != 'fail'", headline=True)]
        messages = self.blocked(manifest, records, "headline_redefined", "--claim", "80%")
        self.assertIn("outcome != 'fail'", messages[0])
        self.assertIn("the headline is the gate's own (outcome == 'pass' over all 10 declared tasks)", messages[0])
        _, report = self.check_json(manifest, records, "--claim", "80%")
        self.assertEqual((report["headline"]["k"], report["headline"]["n"]), (4, 10))
        self.assertIs(report["claim"]["matches"], False)  # 80% is 4/5: four tasks dropped from the denominator
        self.assertIn("claim_shrunk_denominator", [f["code"] for f in report["findings"]])
        self.assertEqual([(m["rate"]["k"], m["headline"]) for m in report["metrics"]], [(8, False)])

    def test_an_unmarked_metric_is_a_labelled_metric_never_the_headline(self) -> None:
        """The same metric without the mark is printed as a labelled metric 8/10 beside the gate's 4/10 headline."""
        manifest, records = self.ledger()
        manifest["metrics"] = [metric("pass_rate", "outcome != 'fail'")]
        report = self.publishable(manifest, records)
        self.assertEqual((report["headline"]["k"], report["headline"]["n"]), (4, 10))
        _, out, _ = self.check(manifest, records)
        self.assertRegex(out, r"(?m)^pass_rate   : 4/10 = 0\.400 .*<- headline$")
        self.assertRegex(out, r"(?m)^  pass_rate\s*: 8/10 tasks = 0\.800  95% CI \[[^]]+\]$")

    def test_a_marked_metric_that_counts_the_headline_names_it(self) -> None:
        """`resolved` = outcome == 'pass' over the task count, marked headline, counts exactly the headline: it
        names the headline and stays PUBLISHABLE."""
        manifest, records = self.ledger()
        manifest["metrics"] = [metric("attrition", "outcome == 'unscoreable'"),
                               metric("resolved", "outcome in ('pass',)", headline=True)]
        report = self.publishable(manifest, records)
        self.assertEqual(report["headline"]["name"], "resolved")
        self.assertEqual([m["headline"] for m in report["metrics"]], [False, True])

    def test_in_samples_mode_no_metric_is_the_headline(self) -> None:
        """In samples mode the headline is pass@1; a metric counts task exits (pass@budget) and is labelled so, and
        marked headline it is refused naming pass@1 as the headline."""
        manifest, records = valid_ledger()
        budget = 2
        records = [dict(r, attempt=a) for r in records for a in range(1, budget + 1)]
        manifest.update(attempt_mode="samples", attempt_budget=budget,
                        metrics=[metric("solved", "outcome == 'pass'")])
        report = self.publishable(manifest, records)
        self.assertEqual(report["headline"]["name"], "pass@1")
        self.assertIs(report["metrics"][0]["headline"], False)
        self.assertIn("pass@2", report["metrics"][0]["basis"])
        _, out, _ = self.check(manifest, records)
        self.assertRegex(out, r"(?m)^  solved\s*: .*<- pass@2: a task counts as passed if any of its samples passed$")
        manifest["metrics"][0]["headline"] = True
        messages = self.blocked(manifest, records, "headline_redefined")
        self.assertIn("the headline is the gate's own (pass@1, the mean pass rate over all samples)", messages[0])


class MetricEdgeCases(GateCase):
    def test_an_undefined_metric_is_never_the_headline_in_json(self) -> None:
        """An undefined metric, before or after the one that counts the headline, is marked headline false."""
        manifest, records = valid_ledger()
        for metrics in ([metric("pass_rate", "outcome == 'pass'"), metric("bad", "outcome.upper == 1")],
                        [metric("bad", "outcome.upper == 1"), metric("pass_rate", "outcome == 'pass'")]):
            with self.subTest(order=[m["name"] for m in metrics]):
                _, report = self.check_json({**manifest, "metrics": metrics}, records)
                flags = {m["name"]: m["headline"] for m in report["metrics"]}
                self.assertEqual(flags, {"pass_rate": True, "bad": False})

    def test_a_token_count_beyond_any_real_run_is_refused(self) -> None:
        """total_tokens of 10^18 on one attempt is an input error naming the field (sums stay exact and finite)."""
        manifest, records = valid_ledger()
        records[4]["total_tokens"] = 10**18
        self.assertInputError(self.check(manifest, records), "runs.jsonl:5:", "total_tokens")
        records[4]["total_tokens"] = 10**15
        self.publishable(manifest, records)

    def test_the_secondary_with_no_scored_failure_is_k_of_k(self) -> None:
        """With every scored task passing and some unscoreable, the secondary is k/k, its upper bound exactly 1."""
        manifest, records = valid_ledger()
        records = [dict(r, outcome="pass") if r["outcome"] == "fail" else r for r in records]
        manifest["controls"] = [c for c in manifest["controls"] if c["role"] == "positive"]
        manifest["control_runs"] = [{"role": "no_edit", "runs": "noedit.jsonl", "max_pass_rate": 0.05}]
        self.write_jsonl("noedit.jsonl", [dict(r, outcome="fail", reason=None, run_id="n") for r in records])
        report = self.publishable(manifest, records)
        self.assertEqual((report["secondary"]["k"], report["secondary"]["n"]), (37, 37))
        self.assertEqual(report["secondary"]["ci_high"], 1.0)
        self.assertLess(report["secondary"]["ci_low"], 1.0)
