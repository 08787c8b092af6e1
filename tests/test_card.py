"""The benchmark card: freeze refuses a slice that breaks the inclusion rule and writes the card
atomically; verify names drift; check with a card takes strata, budget and the not-a-claim list from it
and withholds thin strata; and the shipped example in examples/card.

Every expected value is computed independently of gate.py (tests/oracles.py, hashlib), or copied
literally from the documented defaults.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import random
import re
from typing import Any

import gate
from tests.builders import hex40, make_slice, manifest_with_card, metric, record, task
from tests.oracles import ids_digest, task_list_digest, wilson
from tests.support import EXAMPLE_CARD, GateCase

# The documented defaults (not-a-claim list, required fields, licences) and the one-task example, written out again.
DEFAULT_NOT_A_CLAIM = ["unseen repositories", "security behavior", "runner permanence"]
REQUIRED_FIELDS = {"task_id", "repo", "commit", "language", "edit_span", "license", "has_failing_test"}
DEFAULT_LICENSES = ["apache-2.0", "bsd-3-clause", "mit"]
MIN_TASKS = [{
    "task_id": "demo-1",
    "repo": "example/widgets",
    "commit": "abc123",
    "language": "python",
    "edit_span": 12,
    "license": "mit",
    "has_failing_test": True,
}]
DRIFT = "slice drifted; refuse to publish the score"
PRODUCT_VERDICT = "not a product verdict"


class CardCase(GateCase):
    """Freeze and verify task files in the test's folder, and build manifests that use the card."""

    def freeze(self, tasks: Any, *options: str, card: str = "card.json", name: str = "tasks.json") -> tuple[int, str, str]:
        path = self.write_json(name, tasks)
        return self.run_gate("freeze", str(path), str(self.dir / card), *options)

    def verify(self, tasks: Any, card: str = "card.json") -> tuple[int, str, str]:
        path = self.write_json("tasks.json", tasks)
        return self.run_gate("verify", str(path), str(self.dir / card))

    def card(self, name: str = "card.json") -> dict[str, Any]:
        return json.loads((self.dir / name).read_text(encoding="utf-8"))

    def frozen(self, tasks: list[dict[str, Any]], *options: str) -> dict[str, Any]:
        code, out, err = self.freeze(tasks, *options)
        self.assertEqual(code, 0, out + err)
        return self.card()

    def card_manifest(self, tasks: list[dict[str, Any]], *options: str, **extra: Any) -> dict[str, Any]:
        """Freeze the tasks, write both control runs, return a manifest that references tasks and card."""
        self.frozen(tasks, *options)
        ids = [t["task_id"] for t in tasks]
        self.write_jsonl("noedit.jsonl", [record(t, "fail", run_id="noedit") for t in ids])
        self.write_jsonl("gold.jsonl", [record(t, "pass", run_id="gold") for t in ids])
        return manifest_with_card(ids, **extra)

    def problem_lines(self, out: str) -> list[str]:
        return [line for line in out.splitlines() if line.startswith("  ! ")]


class FreezeRefusals(CardCase):
    """freeze refuses a slice that breaks the inclusion rule, listing every problem."""

    def test_every_violation_of_every_task_is_listed(self) -> None:
        """freeze lists every violation of every bad task, one line each, names no good task, and writes no card."""
        good = make_slice(("python", 5, 5))
        bad_false = task("b-hft-false", has_failing_test=False)
        bad_missing = task("b-hft-missing")
        del bad_missing["has_failing_test"]
        bad_string = task("b-hft-string", has_failing_test="true")
        bad_license = task("b-license", license_name="gpl-3.0")
        spans = [task("b-span-zero", span=0), task("b-span-neg", span=-3), task("b-span-bool", span=True),
                 task("b-span-float", span=2.5)]  # type: ignore[arg-type]
        duplicate = task("py-n-01", commit=hex40("other"))
        empty_repo = task("b-empty-repo", repo="")
        blank_language = task("b-blank-lang", language="   ")
        empty_commit = task("b-empty-commit", commit="")
        missing = task("b-missing")
        del missing["commit"], missing["language"]
        tasks = [*good, bad_false, bad_missing, bad_string, bad_license, *spans, duplicate, empty_repo,
                 blank_language, empty_commit, missing]
        code, out, err = self.freeze(tasks)
        self.assertEqual(code, 1, out + err)
        self.assertFalse((self.dir / "card.json").exists())
        lines = self.problem_lines(out)
        expected = [
            ("b-hft-false", "has_failing_test"), ("b-hft-missing", "has_failing_test"), ("b-hft-string", "has_failing_test"),
            ("b-license", "gpl-3.0"), ("b-span-zero", "edit_span"), ("b-span-neg", "edit_span"), ("b-span-bool", "edit_span"),
            ("b-span-float", "edit_span"), ("py-n-01", "task_id"), ("b-empty-repo", "repo"), ("b-blank-lang", "language"),
            ("b-empty-commit", "commit"), ("b-missing", "commit"), ("b-missing", "language"),
        ]
        for tid, word in expected:
            self.assertTrue(any(re.search(rf"\b{re.escape(tid)}\b", line) and word in line for line in lines),
                            f"no line names {tid} with {word!r}:\n{out}")
        self.assertTrue(any("b-hft-missing" in line and "missing" in line for line in lines), out)
        # Only the bad tasks are named (py-n-01 only for its second, duplicate occurrence).
        good_named = [line for line in lines for t in good if re.search(rf"\b{t['task_id']}\b", line) and t["task_id"] != "py-n-01"]
        self.assertEqual(good_named, [], out)
        self.assertEqual(sum("py-n-01" in line for line in lines), 1, out)

    def test_each_repeat_of_an_id_names_its_first_task_and_empty_ids_are_no_repeats(self) -> None:
        """An ID three times: the second and the third each repeat task [0], the first holding it; two empty IDs
        are each an empty ID, neither a repeat of the other."""
        rule = gate.SliceRule()
        problems = gate.inclusion_violations([task("dup"), task("dup"), task("dup")], rule)
        self.assertEqual(problems, ["[1] dup: task_id repeats task [0]", "[2] dup: task_id repeats task [0]"])
        problems = gate.inclusion_violations([task(""), task("")], rule)
        self.assertEqual(len(problems), 2, problems)
        self.assertFalse([p for p in problems if "repeats" in p], problems)

    def test_one_task_with_three_violations_lists_all_three(self) -> None:
        """A task breaking three rules gets three lines."""
        tasks = [*make_slice(("python", 5, 0)), task("worst", license_name="gpl-2.0", span=0, has_failing_test=False)]
        code, out, _ = self.freeze(tasks)
        self.assertEqual(code, 1)
        worst = [line for line in self.problem_lines(out) if "worst" in line]
        self.assertEqual(len(worst), 3, out)
        for word in ("has_failing_test", "gpl-2.0", "edit_span"):
            self.assertTrue(any(word in line for line in worst), out)

    def test_each_bad_value_alone_is_refused(self) -> None:
        """Each single bad field value, and each missing required field, is refused with exactly one problem line,
        even with --force.
        """
        cases: dict[str, dict[str, Any]] = {
            "has_failing_test false": {"has_failing_test": False},
            "has_failing_test string": {"has_failing_test": "true"},
            "has_failing_test 1": {"has_failing_test": 1},
            "license outside": {"license": "agpl-3.0"},
            "license case": {"license": "MIT"},
            "span 0": {"edit_span": 0},
            "span -3": {"edit_span": -3},
            "span true": {"edit_span": True},
            "span 2.5": {"edit_span": 2.5},
            "span string": {"edit_span": "12"},
            "repo empty": {"repo": ""},
            "task_id empty": {"task_id": ""},
            "language spaces": {"language": " python"},
        }
        for label, change in cases.items():
            with self.subTest(label):
                bad = task("bad", **{k: v for k, v in change.items() if k not in ("license",)})
                if "license" in change:
                    bad["license"] = change["license"]
                code, out, err = self.freeze([*make_slice(("python", 5, 0)), bad], "--force")
                self.assertEqual(code, 1, out + err)
                self.assertIn("freeze refused", out)
                self.assertEqual(len(self.problem_lines(out)), 1, out)
        for field in sorted(REQUIRED_FIELDS):
            with self.subTest(missing=field):
                bad = task("bad")
                del bad[field]
                code, out, _ = self.freeze([*make_slice(("python", 5, 0)), bad], "--force")
                self.assertEqual(code, 1)
                self.assertTrue(any("missing" in line and field in line for line in self.problem_lines(out)), out)

    def test_allow_license_is_repeatable_and_replaces_the_allowlist(self) -> None:
        """--allow-license is repeatable and replaces the default licence list rather than adding to it."""
        tasks = [task(f"g-{i}", license_name="gpl-3.0") for i in range(3)] + [task(f"m-{i}") for i in range(3)]
        code, out, _ = self.freeze(tasks)
        self.assertEqual(code, 1)
        self.assertEqual(sum("gpl-3.0" in line for line in self.problem_lines(out)), 3, out)
        code, out, err = self.freeze(tasks, "--allow-license", "gpl-3.0", "--allow-license", "mit")
        self.assertEqual(code, 0, out + err)
        self.assertEqual(sorted(self.card()["inclusion_rule"]["allowed_licenses"]), ["gpl-3.0", "mit"])
        # Replaces, does not add: mit is no longer admitted.
        code, out, _ = self.freeze(tasks, "--allow-license", "gpl-3.0", card="card2.json")
        self.assertEqual(code, 1)
        named = sorted(re.search(r"\b([gm]-\d)\b", line).group(1) for line in self.problem_lines(out))  # type: ignore[union-attr]
        self.assertEqual(named, ["m-0", "m-1", "m-2"], out)

    def test_stratum_floor_default_and_min_per_stratum(self) -> None:
        """A stratum under the floor (5 by default, --min-per-stratum to change) refuses the freeze, listing every
        thin stratum; exactly at the floor passes.
        """
        tasks = make_slice(("python", 4, 5), ("go", 2, 0))
        code, out, err = self.freeze(tasks)
        self.assertEqual(code, 1, out + err)
        self.assertIn("stratum floor missed", out)
        self.assertIn("python:narrow=4", out)
        self.assertIn("go:narrow=2", out)  # every thin stratum, not the first
        self.assertNotIn("python:wide", out)
        self.assertIn("floor 5", out)
        self.assertFalse((self.dir / "card.json").exists())
        code, out, _ = self.freeze(tasks, "--min-per-stratum", "3")
        self.assertEqual(code, 1)
        self.assertIn("go:narrow=2", out)
        self.assertNotIn("python:narrow=4", out)
        code, out, err = self.freeze(tasks, "--min-per-stratum", "2")
        self.assertEqual(code, 0, out + err)
        self.assertEqual(self.card()["inclusion_rule"]["min_per_stratum"], 2)
        # Exactly at the floor passes.
        code, _, _ = self.freeze(make_slice(("python", 5, 5)), card="card2.json")
        self.assertEqual(code, 0)

    def test_wide_above_moves_the_boundary(self) -> None:
        """--wide-above sets the edit span above which a task is wide (30 by default)."""
        tasks = [task(f"s30-{i}", span=30) for i in range(5)] + [task(f"s31-{i}", span=31) for i in range(5)]
        self.assertEqual(self.frozen(tasks)["strata"], {"python:narrow": 5, "python:wide": 5})
        code, _, _ = self.freeze(tasks, "--wide-above", "40", card="card40.json")
        self.assertEqual(code, 0)
        card = self.card("card40.json")
        self.assertEqual(card["strata"], {"python:narrow": 10})
        self.assertEqual(card["inclusion_rule"]["wide_above"], 40)
        code, _, _ = self.freeze(tasks, "--wide-above", "29", "--min-per-stratum", "1", card="card29.json")
        self.assertEqual(code, 0)
        self.assertEqual(self.card("card29.json")["strata"], {"python:wide": 10})

    def test_freeze_options_at_their_least(self) -> None:
        """--wide-above 0 (every task with an edit is wide), --min-per-stratum 0 and --attempt-budget 1 are the least
        each takes; one below is an input error saying the least."""
        tasks = [task(f"s{i}", span=1 + i) for i in range(5)]
        code, _, err = self.freeze(tasks, "--wide-above", "0", "--min-per-stratum", "0", "--attempt-budget", "1",
                                   card="least.json")
        self.assertEqual(code, 0, err)
        card = self.card("least.json")
        self.assertEqual(card["strata"], {"python:wide": 5})
        self.assertEqual(card["inclusion_rule"]["wide_above"], 0)
        for option, below, least in (("--wide-above", "-1", 0), ("--min-per-stratum", "-1", 0),
                                     ("--attempt-budget", "0", 1)):
            with self.subTest(option=option):
                self.assertInputError(self.freeze(tasks, option, below, card="below.json"),
                                      f"freeze: {option}: expected an integer >= {least}")

    def test_span_31_lands_in_the_stratum_the_card_says_inside_check(self) -> None:
        """Inside check, a task lands in the stratum the card's wide_above puts it in."""
        tasks = [task(f"s10-{i}", span=10) for i in range(5)] + [task(f"s31-{i}", span=31) for i in range(5)]
        for options, expected in (((), {"python:narrow": 5, "python:wide": 5}), (("--wide-above", "40"), {"python:narrow": 10})):
            with self.subTest(options=options):
                manifest = self.card_manifest(tasks, "--force", *options)
                code, report = self.check_json(manifest, [record(t["task_id"], "pass") for t in tasks])
                self.assertEqual(code, 0, report["findings"])
                self.assertEqual({s["name"]: s["tasks"] for s in report["strata"]}, expected)

    def test_one_task_example_fails_freeze_with_the_floor_message(self) -> None:
        """The one-task example file fails freeze with the stratum-floor message and writes no card."""
        code, out, err = self.freeze(MIN_TASKS, name="tasks.min.json")
        self.assertEqual(code, 1, err)
        self.assertIn("stratum floor missed", out)
        self.assertIn("python:narrow=1", out)
        self.assertFalse((self.dir / "card.json").exists())

    def test_malformed_task_files_are_input_errors(self) -> None:
        """A task file that is not a non-empty list of objects, or not JSON, is an input error for freeze and for
        verify, and no card is written.
        """
        cases = {
            "object": ('{"task_id": "a"}', "list"),
            "empty list": ("[]", "list"),
            "string element": (json.dumps([task("a"), "b"]), "[1]"),
            "list element": (json.dumps([[task("a")]]), "[0]"),
            "malformed": ('[{"task_id": "a",', "invalid JSON"),
            "trailing comma": ('[{"task_id": "a"},]', "invalid JSON"),
        }
        for label, (text, fragment) in cases.items():
            with self.subTest(label):
                path = self.write_text("bad.json", text)
                result = self.run_gate("freeze", str(path), str(self.dir / "card.json"))
                self.assertInputError(result, "bad.json", fragment)
                self.assertFalse((self.dir / "card.json").exists())
                self.assertInputError(self.run_gate("verify", str(path), str(self.dir / "card.json")), "bad.json")


class CardContents(CardCase):
    """What a frozen card holds."""

    def test_card_fields_computed_independently(self) -> None:
        """The card holds the task-list digest, the ids' digest, counts, strata, the inclusion rule, each task's hash
        and fields, the metric and the not-a-claim list, each as computed independently.
        """
        tasks = make_slice(("python", 5, 5), ("typescript", 6, 0))
        tasks[0]["failing_test"] = "tests/test_app.py::test_route"  # extra fields are kept and hashed
        code, out, err = self.freeze(tasks, "--attempt-budget", "3", "--not-a-claim-about", "private monorepos",
                                     "--not-a-claim-about", "long-horizon planning")
        self.assertEqual(code, 0, out + err)
        card = self.card()
        digest = task_list_digest(tasks)
        self.assertEqual(card["dataset_digest"], digest)
        self.assertIn(f"froze {digest[:12]} tasks=16", out)
        ids = [t["task_id"] for t in tasks]
        self.assertEqual(card["task_ids_sha256"], ids_digest(ids))
        self.assertEqual(card["task_count"], 16)
        self.assertEqual(card["strata"], {"python:narrow": 5, "python:wide": 5, "typescript:narrow": 6})
        self.assertEqual(card["withheld"], [])
        rule = card["inclusion_rule"]
        self.assertEqual(set(rule["required_fields"]), REQUIRED_FIELDS)
        self.assertIs(rule["has_failing_test"], True)
        self.assertEqual(sorted(rule["allowed_licenses"]), DEFAULT_LICENSES)
        self.assertEqual(rule["wide_above"], 30)
        self.assertEqual(rule["min_per_stratum"], 5)
        self.assertIs(rule["withhold_thin_strata"], False)
        self.assertEqual(set(card["tasks"]), set(ids))
        for t in tasks:
            entry = card["tasks"][t["task_id"]]
            self.assertEqual(entry["sha256"], task_list_digest(t))
            self.assertEqual(set(entry["fields"]), set(t))
        self.assertIn("failing_test", card["tasks"][tasks[0]["task_id"]]["fields"])
        metric = card["metric"]
        self.assertEqual(metric["name"], "resolved_rate")
        self.assertEqual(metric["attempt_budget"], 3)
        self.assertIs(metric["pass_at_k_reported_separately"], True)
        self.assertTrue(metric["numerator"] and metric["denominator"])
        self.assertEqual(set(card["controls"]), {"no_edit_must_fail", "known_fix_must_pass"})
        self.assertEqual(card["not_a_claim_about"], [*DEFAULT_NOT_A_CLAIM, "private monorepos", "long-horizon planning"])

    def test_defaults_budget_one_and_default_not_a_claim(self) -> None:
        """By default the card's attempt budget is 1 and its not-a-claim list is the three defaults."""
        card = self.frozen(make_slice(("go", 5, 5)))
        self.assertEqual(card["metric"]["attempt_budget"], 1)
        self.assertEqual(card["not_a_claim_about"], DEFAULT_NOT_A_CLAIM)

    def test_digest_is_of_the_task_list_not_the_file_bytes(self) -> None:
        """The digest is of the task list, not of the file's bytes: reformatting verifies, reordering drifts."""
        tasks = make_slice(("python", 5, 5))
        a = self.frozen(tasks)["dataset_digest"]
        self.write_text("tasks.json", json.dumps(tasks, separators=(",", ":")))
        code, out, _ = self.run_gate("verify", str(self.dir / "tasks.json"), str(self.dir / "card.json"))
        self.assertEqual((code, out), (0, f"slice ok {a[:12]} tasks=10\n"))
        # A different order is a different list: the digest is of the list as given.
        self.assertNotEqual(task_list_digest(list(reversed(tasks))), a)
        code, out, _ = self.verify(list(reversed(tasks)))
        self.assertEqual(code, 1)
        self.assertIn(DRIFT, out)

    def test_non_ascii_task_list_digest_is_stable(self) -> None:
        """Non-ASCII tasks get one digest whether the file escapes them or not, and an edited title is named as a
        changed field.
        """
        tasks = make_slice(("python", 5, 5))
        tasks[0]["title"] = "Fix naïve datetime parsing — Straße, 東京"
        tasks[1]["repo"] = "pallets/flask"
        self.write_text("escaped.json", json.dumps(tasks, ensure_ascii=True))
        self.write_text("raw.json", json.dumps(tasks, ensure_ascii=False, indent=4))
        code1, _, _ = self.run_gate("freeze", str(self.dir / "escaped.json"), str(self.dir / "c1.json"))
        code2, _, _ = self.run_gate("freeze", str(self.dir / "raw.json"), str(self.dir / "c2.json"))
        self.assertEqual((code1, code2), (0, 0))
        d1, d2 = self.card("c1.json")["dataset_digest"], self.card("c2.json")["dataset_digest"]
        self.assertEqual(d1, d2)
        self.assertRegex(d1, r"^[0-9a-f]{64}$")
        for name in ("escaped.json", "raw.json"):
            code, out, _ = self.run_gate("verify", str(self.dir / name), str(self.dir / "c1.json"))
            self.assertEqual((code, out), (0, f"slice ok {d1[:12]} tasks=10\n"))
        # One of the two canonical encodings of the same list; never a hash of file bytes.
        forms = {hashlib.sha256(json.dumps(tasks, sort_keys=True, separators=(",", ":"), ensure_ascii=flag).encode("utf-8")).hexdigest()
                 for flag in (True, False)}
        self.assertIn(d1, forms)
        tasks[0]["title"] = "Fix naive datetime parsing"
        code, out, _ = self.verify(tasks, card="c1.json")
        self.assertEqual(code, 1)
        self.assertIn(f"changed: {tasks[0]['task_id']} (title)", out)


class FreezeWritesAtomically(CardCase):
    """freeze writes a complete card or nothing, and never overwrites without --force."""

    def listing(self) -> set[str]:
        return set(os.listdir(self.dir))

    def test_refuses_to_overwrite_without_force(self) -> None:
        """freeze never overwrites an existing card without --force, and leaves no other file either way."""
        tasks = make_slice(("python", 5, 5))
        self.write_text("card.json", "sentinel: a frozen card is a record\n")
        code, out, err = self.freeze(tasks)
        self.assertInputError((code, out, err), "--force")
        self.assertEqual((self.dir / "card.json").read_text(encoding="utf-8"), "sentinel: a frozen card is a record\n")
        self.assertEqual(self.listing(), {"tasks.json", "card.json"})
        code, out, err = self.freeze(tasks, "--force")
        self.assertEqual(code, 0, out + err)
        self.assertEqual(self.card()["dataset_digest"], task_list_digest(tasks))
        self.assertEqual(self.listing(), {"tasks.json", "card.json"})

    def test_second_freeze_keeps_the_first_card(self) -> None:
        """A second freeze without --force keeps the first card byte for byte; with --force it replaces it."""
        tasks = make_slice(("python", 5, 5))
        self.frozen(tasks)
        before = (self.dir / "card.json").read_bytes()
        more = [*tasks, task("py-n-99")]
        self.assertInputError(self.freeze(more), "--force")
        self.assertEqual((self.dir / "card.json").read_bytes(), before)
        self.assertEqual(self.listing(), {"tasks.json", "card.json"})
        code, _, _ = self.freeze(more, "--force")
        self.assertEqual(code, 0)
        self.assertEqual(self.card()["task_count"], 11)

    def test_no_temporary_files_after_success_or_refusal(self) -> None:
        """After a freeze, or a refused one, only the task file and the complete card are in the folder."""
        code, _, _ = self.freeze(make_slice(("python", 5, 5)))
        self.assertEqual(code, 0)
        self.assertEqual(self.listing(), {"tasks.json", "card.json"})
        code, _, _ = self.freeze(make_slice(("python", 3, 5)), card="thin.json")
        self.assertEqual(code, 1)
        code, _, _ = self.freeze([task("x", license_name="gpl-3.0")], card="bad.json")
        self.assertEqual(code, 1)
        self.assertEqual(self.listing(), {"tasks.json", "card.json"})
        text = (self.dir / "card.json").read_text(encoding="utf-8")
        self.assertTrue(text.endswith("}\n"))
        json.loads(text)


class Verify(CardCase):
    """verify: the task file is still the frozen slice, or the drift is named."""

    def test_ok_path(self) -> None:
        """verify of an unchanged slice prints 'slice ok', the digest's first 12 hex digits and the task count, and exits 0."""
        tasks = make_slice(("python", 6, 5), ("typescript", 5, 0))
        self.frozen(tasks)
        code, out, err = self.verify(tasks)
        self.assertEqual((code, err), (0, ""))
        self.assertRegex(out, r"^slice ok [0-9a-f]{12} tasks=16\n$")
        self.assertEqual(out, f"slice ok {task_list_digest(tasks)[:12]} tasks=16\n")

    def test_drift_names_added_removed_and_changed_fields(self) -> None:
        """verify names the added and removed tasks and, for each changed task, exactly the fields that changed."""
        tasks = make_slice(("python", 6, 5), ("typescript", 5, 0))
        self.frozen(tasks)
        drifted = [json.loads(json.dumps(t)) for t in tasks if t["task_id"] != "py-n-06"]
        drifted.append(task("ty-n-06", "typescript", 12))
        by_id = {t["task_id"]: t for t in drifted}
        by_id["py-w-01"]["commit"] = hex40("rewritten upstream")
        by_id["py-w-01"]["edit_span"] = 77
        by_id["ty-n-02"]["license"] = "apache-2.0"
        by_id["ty-n-03"]["note"] = "new field"
        code, out, err = self.verify(drifted)
        self.assertEqual(code, 1, err)
        lines = out.splitlines()
        self.assertEqual(lines[0], DRIFT)
        self.assertTrue(any(re.search(r"added\b.*\bty-n-06\b", line) for line in lines), out)
        self.assertTrue(any(re.search(r"removed\b.*\bpy-n-06\b", line) for line in lines), out)
        self.assertIn("  ! removed: py-n-06", lines)  # that task alone (a mutant listed every task)
        self.assertIn("  ! added: ty-n-06", lines)
        changed = {re.search(r"changed: (\S+)", line).group(1): line for line in lines if "changed:" in line}  # type: ignore[union-attr]
        self.assertEqual(set(changed), {"py-w-01", "ty-n-02", "ty-n-03"}, out)
        self.assertIn("commit", changed["py-w-01"])
        self.assertIn("edit_span", changed["py-w-01"])
        self.assertNotIn("license", changed["py-w-01"])
        self.assertIn("license", changed["ty-n-02"])
        self.assertNotIn("commit", changed["ty-n-02"])
        self.assertIn("note", changed["ty-n-03"])

    def test_drift_is_named_even_when_it_also_breaks_the_floor(self) -> None:
        """Removing a task is drift: verify says so and names it, whatever else now fails."""
        tasks = make_slice(("python", 5, 5))
        self.frozen(tasks)
        code, out, _ = self.verify(tasks[1:])
        self.assertEqual(code, 1)
        self.assertIn(DRIFT, out)
        self.assertTrue(re.search(r"removed\b.*\bpy-n-01\b", out), out)

    def test_drift_is_named_even_when_it_breaks_the_inclusion_rule(self) -> None:
        """A change that also breaks the inclusion rule is still reported as drift naming the changed field."""
        tasks = make_slice(("python", 5, 5))
        self.frozen(tasks)
        changed = json.loads(json.dumps(tasks))
        changed[2]["license"] = "gpl-3.0"
        code, out, _ = self.verify(changed)
        self.assertEqual(code, 1)
        self.assertIn(DRIFT, out)
        self.assertTrue(re.search(r"changed: py-n-03 \(license\)", out), out)

    def test_hand_edited_card_is_refused(self) -> None:
        """A card edited by hand (strata, count, withheld, ids digest, tasks, not-a-claim list) fails verify naming
        the edited field.
        """
        tasks = make_slice(("python", 6, 5))
        original = self.frozen(tasks)
        edits = {
            "strata": lambda c: c["strata"].update({"python:narrow": 7}),
            "task_count": lambda c: c.update(task_count=12),
            "withheld": lambda c: c.update(withheld=["python:wide"]),
            "task_ids_sha256": lambda c: c.update(task_ids_sha256=hashlib.sha256(b"other").hexdigest()),
            "tasks": lambda c: c["tasks"].pop("py-n-01"),
            "not_a_claim_about": lambda c: c.update(not_a_claim_about=["security behavior"]),
        }
        for label, edit in edits.items():
            with self.subTest(label):
                card = json.loads(json.dumps(original))
                edit(card)
                self.assertEqual(card["dataset_digest"], original["dataset_digest"])
                self.write_json("edited.json", card)
                code, out, _ = self.verify(tasks, card="edited.json")
                self.assertEqual(code, 1, out)
                self.assertIn(label, out)
                self.assertNotIn("slice ok", out)

    def test_tampered_digest_is_refused(self) -> None:
        """A card whose dataset digest was changed fails verify as drift."""
        tasks = make_slice(("python", 5, 5))
        card = self.frozen(tasks)
        card["dataset_digest"] = "0" * 64
        self.write_json("card.json", card)
        code, out, _ = self.verify(tasks)
        self.assertEqual(code, 1)
        self.assertIn(DRIFT, out)

    def test_a_duplicated_task_is_named_as_such(self) -> None:
        """A task listed twice in the task file is named as duplicated."""
        tasks = json.loads((EXAMPLE_CARD / "tasks.json").read_text())
        (self.dir / "tasks.json").write_text(json.dumps(tasks))
        code, _, err = self.run_gate("freeze", str(self.dir / "tasks.json"), str(self.dir / "card.json"))
        self.assertEqual(code, 0, err)
        (self.dir / "tasks.json").write_text(json.dumps([*tasks, tasks[3]]))
        code, out, _ = self.run_gate("verify", str(self.dir / "tasks.json"), str(self.dir / "card.json"))
        self.assertEqual(code, 1)
        self.assertIn(f"duplicated: {tasks[3]['task_id']}", out)


class CardInCheck(CardCase):
    """check with dataset.tasks and dataset.card."""

    TASKS = make_slice(("python", 6, 5), ("go", 5, 0))

    def runs(self, tasks: list[dict[str, Any]], skip: tuple[str, ...] = ()) -> list[dict[str, Any]]:
        out = []
        for i, t in enumerate(tasks):
            if t["task_id"] in skip:
                continue
            out.append(record(t["task_id"], "pass" if i % 3 else "fail"))
        return out

    def copy_card(self) -> None:
        """Copy examples/card into the test's folder."""
        self.copy_into(EXAMPLE_CARD, "tasks.json", "card.json", "bench.manifest.json", "runs.jsonl", "noedit.jsonl", "gold.jsonl")

    def gate_card(self) -> tuple[int, dict[str, Any], str]:
        code, out, err = self.run_gate("--manifest", str(self.dir / "bench.manifest.json"),
                                       "--runs", str(self.dir / "runs.jsonl"), "--format", "json")
        return code, (json.loads(out) if out else {}), err

    def test_publishable_with_strata_from_the_card(self) -> None:
        """check with a card takes its strata, prints its not-a-claim list and 'not a product verdict', and rates each
        stratum with its Wilson interval.
        """
        manifest = self.card_manifest(self.TASKS, "--not-a-claim-about", "private monorepos")
        code, out, err = self.check(manifest, self.runs(self.TASKS))
        self.assertEqual(code, 0, out + err)
        self.assertIn("PUBLISHABLE", out)
        line = next(line for line in out.splitlines() if "unseen repositories" in line)
        for item in [*DEFAULT_NOT_A_CLAIM, "private monorepos"]:
            self.assertIn(item, line)
        self.assertIn(PRODUCT_VERDICT, out)
        _, report = self.check_json(manifest, self.runs(self.TASKS))
        self.assertEqual(report["not_a_claim_about"], [*DEFAULT_NOT_A_CLAIM, "private monorepos"])
        self.assertEqual(report["dataset"]["card_digest"], task_list_digest(self.TASKS))
        strata = {s["name"]: s for s in report["strata"]}
        self.assertEqual(set(strata), {"python:narrow", "python:wide", "go:narrow"})
        for name, s in strata.items():
            members = [i for i, t in enumerate(self.TASKS) if gate.stratum_of(t, 30) == name]
            k = sum(1 for i in members if i % 3)
            self.assertEqual((s["rate"]["k"], s["rate"]["n"]), (k, len(members)), name)
            low, high = wilson(k, len(members))
            self.assertAlmostEqual(s["rate"]["ci_low"], low, places=12)
            self.assertAlmostEqual(s["rate"]["ci_high"], high, places=12)
            self.assertTrue(re.search(rf"^\s+{re.escape(name)}\s*: {k}/{len(members)} = ", out, re.M), out)

    def test_card_drift_after_freeze(self) -> None:
        """A task file changed after the freeze blocks check with one card_drift finding naming the change."""
        manifest = self.card_manifest(self.TASKS)
        changed = json.loads(json.dumps(self.TASKS))
        changed[3]["commit"] = hex40("force-pushed")
        self.write_json("tasks.json", changed)
        code, report = self.check_json(manifest, self.runs(self.TASKS))
        self.assertEqual(code, 1)
        drift = [f for f in report["findings"] if f["code"] == "card_drift"]
        self.assertEqual(len(drift), 1, report["findings"])
        self.assertIn(f"changed: {changed[3]['task_id']} (commit)", drift[0]["message"])
        self.assertEqual(report["verdict"], "BLOCKED")

    def test_card_manifest_mismatch(self) -> None:
        """A manifest digest that differs from the card's ids blocks with card_manifest_mismatch."""
        manifest = self.card_manifest(self.TASKS)
        manifest["dataset"]["task_ids_sha256"] = ids_digest([t["task_id"] for t in self.TASKS[1:]])
        self.assertIn("card_manifest_mismatch", self.codes(manifest, self.runs(self.TASKS)))
        manifest = self.card_manifest(self.TASKS, "--force")
        self.assertNotIn("card_manifest_mismatch", self.codes(manifest, self.runs(self.TASKS)))

    def test_never_started_tasks_are_named_from_the_tasks_file(self) -> None:
        """With a card, never_started names the missing tasks from the task file, and the headline keeps the full count."""
        manifest = self.card_manifest(self.TASKS)
        self.assertNotIn("task_ids", manifest["dataset"])
        _, report = self.check_json(manifest, self.runs(self.TASKS, skip=("py-w-03", "go-n-05")))
        never = [f["message"] for f in report["findings"] if f["code"] == "never_started"]
        self.assertEqual(len(never), 1, report["findings"])
        self.assertIn("py-w-03", never[0])
        self.assertIn("go-n-05", never[0])
        self.assertEqual(report["headline"]["n"], len(self.TASKS))

    def test_attempt_budget_comes_from_the_card(self) -> None:
        """The card's attempt budget rules; a manifest budget that differs from it is attempt_budget_mismatch."""
        tasks = make_slice(("python", 5, 5))
        runs = [record(t["task_id"], "pass") for t in tasks[1:]]
        runs += [record("py-n-01", "fail", attempt=1), record("py-n-01", "fail", attempt=2), record("py-n-01", "pass", attempt=3)]
        manifest = self.card_manifest(tasks, "--attempt-budget", "3")
        code, report = self.check_json(manifest, runs)
        self.assertEqual(code, 0, report["findings"])
        self.assertEqual(report["attempt_budget"], 3)
        self.assertEqual(report["headline"]["k"], 10)
        manifest["attempt_budget"] = 1
        codes = self.codes(manifest, runs)
        self.assertIn("attempt_budget_mismatch", codes)
        self.assertNotIn("attempt_over_budget", codes)  # the card's contract rules
        manifest = self.card_manifest(tasks, "--force")  # budget 1 in the card
        self.assertIn("attempt_over_budget", self.codes(manifest, runs))
        manifest["attempt_budget"] = 3
        self.assertIn("attempt_budget_mismatch", self.codes(manifest, runs))

    def test_paths_that_escape_the_manifest_folder_are_input_errors(self) -> None:
        """dataset.tasks or dataset.card that leave the manifest's folder (.., an absolute path) are input errors."""
        manifest = self.card_manifest(self.TASKS)
        runs = self.write_jsonl("runs.jsonl", self.runs(self.TASKS))
        (self.dir / "claim").mkdir()
        for name in ("tasks.json", "card.json", "noedit.jsonl", "gold.jsonl"):
            (self.dir / "claim" / name).write_bytes((self.dir / name).read_bytes())
        inner = self.dir / "claim" / "bench.manifest.json"
        inner.write_text(json.dumps(manifest), encoding="utf-8")
        code, out, err = self.run_gate("--manifest", str(inner), "--runs", str(runs))
        self.assertEqual(code, 0, out + err)
        for key in ("tasks", "card"):
            for value in ("../" + f"{key}.json", str(self.dir / f"{key}.json"), f"sub/../../{key}.json"):
                with self.subTest(key=key, value=value):
                    bad = json.loads(json.dumps(manifest))
                    bad["dataset"][key] = value
                    inner.write_text(json.dumps(bad), encoding="utf-8")
                    self.assertInputError(self.run_gate("--manifest", str(inner), "--runs", str(runs)), key)

    def test_withheld_strata_never_get_a_rate(self) -> None:
        """A withheld thin stratum is shown as withheld with no rate, in text, JSON, Markdown and SVG."""
        tasks = make_slice(("python", 6, 5), ("go", 2, 0))
        code, out, _ = self.freeze(tasks)
        self.assertEqual(code, 1)
        self.assertIn("go:narrow=2", out)
        manifest = self.card_manifest(tasks, "--withhold-thin-strata")
        card = self.card()
        self.assertEqual(card["withheld"], ["go:narrow"])
        self.assertEqual(card["strata"]["go:narrow"], 2)
        self.assertIs(card["inclusion_rule"]["withhold_thin_strata"], True)
        runs = [record(t["task_id"], "pass") for t in tasks]
        rate_pattern = re.compile(r"\d+/\d+|\d\.\d{3}|CI|\[")
        code, out, err = self.check(manifest, runs)
        self.assertEqual(code, 0, out + err)
        go_lines = [line for line in out.splitlines() if "go:narrow" in line]
        self.assertTrue(go_lines, out)
        for line in go_lines:
            self.assertIn("withheld", line)
            self.assertIsNone(rate_pattern.search(line), line)
        self.assertTrue(any("python:wide" in line and rate_pattern.search(line) for line in out.splitlines()), out)
        _, report = self.check_json(manifest, runs)
        go = next(s for s in report["strata"] if s["name"] == "go:narrow")
        self.assertIs(go["withheld"], True)
        self.assertIsNone(go.get("rate"))
        self.assertIsNotNone(next(s for s in report["strata"] if s["name"] == "python:wide")["rate"])
        code, md, _ = self.check(manifest, runs, "--format", "markdown")
        md_lines = [line for line in md.splitlines() if "go:narrow" in line]
        self.assertTrue(md_lines, md)
        for line in md_lines:
            self.assertIn("withheld", line)
            self.assertIsNone(re.search(r"\d+/\d+|\d\.\d{3}", line), line)
        code, svg, _ = self.check(manifest, runs, "--format", "svg")
        self.assertIn("go:narrow", svg)
        self.assertIn("withheld", svg)
        for element in re.findall(r"<[^>]*>", svg):
            if "go:narrow" in element:
                self.assertNotIn("data-value", element)
                self.assertFalse(element.startswith("<circle"), element)
        self.assertTrue(re.search(r'<circle[^>]*data-label="[^"]*python:wide', svg), svg[:500])
        # the note stands where a bar would start: 14 px right of its label's end (10 before the plot, 4 into it)
        label = re.search(r'<text x="(\d+)" y="(\d+)" text-anchor="end">[^<]*go:narrow', svg)
        assert label is not None
        note = re.search(rf'<text x="(\d+)" y="{label[2]}" class="note">', svg)
        assert note is not None
        self.assertEqual(int(note[1]) - int(label[1]), 14)

    def test_manifest_task_ids_that_differ_from_the_card_are_a_finding(self) -> None:
        """Declared task_ids that differ from the card's block with card_manifest_mismatch."""
        self.copy_card()
        manifest = json.loads((self.dir / "bench.manifest.json").read_text())
        tasks = json.loads((self.dir / "tasks.json").read_text())
        manifest["dataset"]["task_ids"] = [*sorted(t["task_id"] for t in tasks)[:-1], "someone-else"]
        (self.dir / "bench.manifest.json").write_text(json.dumps(manifest))
        code, report, err = self.gate_card()
        self.assertEqual(code, 1, err)
        self.assertIn("card_manifest_mismatch", [f["code"] for f in report["findings"]])

    def test_a_card_with_a_negative_wide_above_is_malformed(self) -> None:
        """A card whose inclusion_rule.wide_above is negative is an input error naming the field."""
        self.copy_card()
        card = json.loads((self.dir / "card.json").read_text())
        card["inclusion_rule"]["wide_above"] = -1
        (self.dir / "card.json").write_text(json.dumps(card))
        code, _, err = self.gate_card()
        self.assertEqual(code, 2)
        self.assertIn("inclusion_rule.wide_above", err)

    def test_zero_count_stratum_in_card_is_card_drift(self) -> None:
        """A hand-edited card with a zero-count stratum is card drift (exit 1), not malformed input (exit 2)."""
        self.copy_into(EXAMPLE_CARD, "tasks.json", "card.json", "bench.manifest.json", "runs.jsonl", "noedit.jsonl", "gold.jsonl")
        card = json.loads((self.dir / "card.json").read_text())
        card["strata"]["rust:narrow"] = 0
        (self.dir / "card.json").write_text(json.dumps(card, indent=2))
        code, out, err = self.run_gate("--manifest", str(self.dir / "bench.manifest.json"),
                                       "--runs", str(self.dir / "runs.jsonl"), "--format", "json")
        self.assertEqual(code, 1, err)
        codes = [f["code"] for f in json.loads(out)["findings"]]
        self.assertIn("card_drift", codes)


class ExampleCard(GateCase):
    """examples/card, as shipped."""

    def test_example_is_publishable_and_well_formed(self) -> None:
        """examples/card is a well-formed slice of 30 or more tasks over two languages and both spans, PUBLISHABLE and
        verified.
        """
        tasks = json.loads((EXAMPLE_CARD / "tasks.json").read_text(encoding="utf-8"))
        card = json.loads((EXAMPLE_CARD / "card.json").read_text(encoding="utf-8"))
        manifest = json.loads((EXAMPLE_CARD / "bench.manifest.json").read_text(encoding="utf-8"))
        self.assertGreaterEqual(len(tasks), 30)
        self.assertGreaterEqual(len({t["language"] for t in tasks}), 2)
        self.assertEqual({t["edit_span"] <= 30 for t in tasks}, {True, False})
        for t in tasks:
            self.assertRegex(t["commit"], r"^[0-9a-f]{40}$")
            self.assertIn(t["license"], DEFAULT_LICENSES)
            self.assertIs(t["has_failing_test"], True)
            self.assertRegex(t["repo"], r"^[A-Za-z0-9-]+/[A-Za-z0-9_.-]+$")
        self.assertTrue(all(count >= 5 for count in card["strata"].values()))
        self.assertEqual(card["dataset_digest"], task_list_digest(tasks))
        self.assertEqual((manifest["dataset"]["tasks"], manifest["dataset"]["card"]), ("tasks.json", "card.json"))
        self.assertEqual(manifest["dataset"]["task_ids_sha256"], card["task_ids_sha256"])
        self.assertEqual(manifest["dataset"]["task_count"], card["task_count"])
        self.assertEqual({r["role"] for r in manifest["control_runs"]}, {"no_edit", "known_fix"})
        runs = [json.loads(line) for line in (EXAMPLE_CARD / "runs.jsonl").read_text(encoding="utf-8").splitlines()]
        self.assertGreaterEqual(len({r["reason"] for r in runs if r["outcome"] == "unscoreable"}), 2)
        code, out, err = self.run_gate("--manifest", str(EXAMPLE_CARD / "bench.manifest.json"), "--runs", str(EXAMPLE_CARD / "runs.jsonl"))
        self.assertEqual(code, 0, out + err)
        self.assertIn("PUBLISHABLE", out)
        self.assertIn(PRODUCT_VERDICT, out)
        for name in card["strata"]:
            self.assertTrue(re.search(rf"^\s+{re.escape(name)}\s*: \d+/\d+ = ", out, re.M), name)
        self.assertEqual(self.run_gate("verify", str(EXAMPLE_CARD / "tasks.json"), str(EXAMPLE_CARD / "card.json"))[0], 0)

    def test_min_example_and_generator(self) -> None:
        """tasks.min.json fails freeze on the floor, and make_example.py regenerates tasks.json and runs.jsonl exactly."""
        self.assertEqual(json.loads((EXAMPLE_CARD / "tasks.min.json").read_text(encoding="utf-8")), MIN_TASKS)
        code, out, _ = self.run_gate("freeze", str(EXAMPLE_CARD / "tasks.min.json"), str(self.dir / "card.json"))
        self.assertEqual(code, 1)
        self.assertIn("stratum floor missed", out)
        spec = importlib.util.spec_from_file_location("make_example", EXAMPLE_CARD / "make_example.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        rng = random.Random(module.SEED)
        tasks = module.make_tasks(rng)
        self.assertEqual(tasks, json.loads((EXAMPLE_CARD / "tasks.json").read_text(encoding="utf-8")))
        runs = module.make_runs(rng, tasks)
        self.assertEqual(runs, [json.loads(line) for line in (EXAMPLE_CARD / "runs.jsonl").read_text(encoding="utf-8").splitlines()])


class PinnedCardAndWithheldRates(CardCase):
    TASKS = make_slice(("python", 6, 5), ("go", 2, 0))

    def test_a_pinned_card_that_was_re_frozen_is_drift(self) -> None:
        """dataset.card_sha256 pins the card file: a card re-frozen with a new not-a-claim list (same task IDs, so
        it used to gate PUBLISHABLE) is card_drift naming both digests; the pinned card itself is PUBLISHABLE."""
        tasks = make_slice(("python", 6, 5))
        manifest = self.card_manifest(tasks)
        pinned = hashlib.sha256((self.dir / "card.json").read_bytes()).hexdigest()
        manifest["dataset"]["card_sha256"] = f"sha256:{pinned.upper()}"
        runs = [record(t["task_id"], "pass" if i % 3 else "fail") for i, t in enumerate(tasks)]
        self.publishable(manifest, runs)
        self.freeze(tasks, "--force", "--not-a-claim-about", "private monorepos")
        messages = self.blocked(manifest, runs, "card_drift")
        self.assertIn(pinned, messages[0])
        self.assertIn("re-frozen or edited", messages[0])

    def test_a_metric_that_selects_a_withheld_stratum_by_id_gets_no_rate(self) -> None:
        """A withheld thin stratum gets no rate through a metric either: selecting its tasks by ID (or by language)
        used to print their rate; now it is metric_undefined. A metric that merely includes them is fine."""
        manifest = self.card_manifest(self.TASKS, "--withhold-thin-strata")
        runs = [record(t["task_id"], "pass" if i % 2 else "fail") for i, t in enumerate(self.TASKS)]
        go_ids = tuple(t["task_id"] for t in self.TASKS if t["language"] == "go")
        sneaky = [metric("go_by_id", "outcome == 'pass'", f"task_id in {go_ids!r}"),
                  metric("go_count", f"outcome == 'pass' and task_id in {go_ids!r}"),
                  metric("go_plus_one", "outcome == 'pass'", f"task_id in {(*go_ids, 'py-n-01')!r}")]
        for m in sneaky:
            with self.subTest(metric=m["name"]):
                messages = self.blocked({**manifest, "metrics": [m]}, runs, "metric_undefined")
                self.assertIn("withheld stratum 'go:narrow'", messages[0])
        fine = metric("not_controls", "outcome == 'pass'", "control == False")
        report = self.publishable({**manifest, "metrics": [fine]}, runs)
        self.assertEqual(report["metrics"][0]["rate"]["n"], len(self.TASKS))


class CardEdgeCases(CardCase):
    """Cases an earlier mutation sample showed no test distinguished."""

    TASKS = make_slice(("python", 6, 5))

    def test_a_not_a_claim_entry_with_a_leading_space_is_malformed(self) -> None:
        """not_a_claim_about entries follow the identifier rule: " security behavior" makes the card malformed."""
        manifest = self.card_manifest(self.TASKS)
        card = self.card()
        card["not_a_claim_about"][0] = " " + card["not_a_claim_about"][0]
        self.write_json("card.json", card)
        runs = [record(t["task_id"], "pass") for t in self.TASKS]
        self.assertInputError(self.check(manifest, runs), "card.json", "not_a_claim_about[0]")

    def test_manifest_strata_that_differ_from_the_cards_are_a_mismatch(self) -> None:
        """dataset.strata beside a card must equal the card's strata: otherwise stratum_count_mismatch."""
        manifest = self.card_manifest(self.TASKS)
        runs = [record(t["task_id"], "pass" if i % 2 else "fail") for i, t in enumerate(self.TASKS)]
        manifest["dataset"]["strata"] = dict(self.card()["strata"])
        self.publishable(manifest, runs)
        manifest["dataset"]["strata"] = {"python:narrow": 5, "python:wide": 6}
        messages = self.blocked(manifest, runs, "stratum_count_mismatch")
        self.assertIn("differs from the card's strata", messages[0])

    def test_a_card_that_cannot_be_written_names_the_path(self) -> None:
        """freeze into a folder that does not exist is one line naming the card and why it cannot be written."""
        path = self.write_json("tasks.json", self.TASKS)
        target = self.dir / "missing" / "card.json"
        self.assertInputError(self.run_gate("freeze", str(path), str(target)), str(target), "cannot write",
                              "No such file or directory")
        self.assertFalse((self.dir / "missing").exists())
