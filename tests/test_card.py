"""The benchmark card (issue 3): freeze / verify, the card inside `check`, control runs, attempt modes, pass@k.

Every expected value here is computed independently of gate.py (hashlib, math.comb, fractions,
statistics.NormalDist), or copied literally from the project's reference vectors and a published
Terminal-Bench run. Run with `python3 -m unittest tests.test_card`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import os
import random
import re
import statistics
from fractions import Fraction
from typing import Any

from tests.support import ROOT, GateCase, gate, ids_digest, record, valid_ledger

EXAMPLE = ROOT / "examples" / "card"

# The seed's three defaults, its inclusion rule and its one-task example, written out again.
SEED_NOT_A_CLAIM = ["unseen repositories", "security behavior", "runner permanence"]
SEED_FIELDS = {"task_id", "repo", "commit", "language", "edit_span", "license", "has_failing_test"}
SEED_LICENSES = ["apache-2.0", "bsd-3-clause", "mit"]
SEED_MIN_TASKS = [{
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


def hex40(seed: str) -> str:
    return hashlib.sha1(seed.encode("utf-8")).hexdigest()


def task(tid: str, language: str = "python", span: int = 10, license_name: str = "mit", **extra: Any) -> dict[str, Any]:
    t: dict[str, Any] = {"task_id": tid, "repo": "pallets/flask", "commit": hex40(tid), "language": language,
                         "edit_span": span, "license": license_name, "has_failing_test": True}
    t.update(extra)
    return t


def make_slice(*spec: tuple[str, int, int]) -> list[dict[str, Any]]:
    """(language, narrow tasks, wide tasks) -> tasks named like py-n-01, ts-w-03."""
    tasks = []
    for language, narrow, wide in spec:
        for i in range(1, narrow + 1):
            tasks.append(task(f"{language[:2]}-n-{i:02d}", language, 5 + i))
        for i in range(1, wide + 1):
            tasks.append(task(f"{language[:2]}-w-{i:02d}", language, 40 + i))
    return tasks


def seed_digest(tasks: Any) -> str:
    """The seed's digest_of, written out again (ASCII lists: identical whatever ensure_ascii says)."""
    return hashlib.sha256(json.dumps(tasks, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


def z_of(confidence: float) -> float:
    return statistics.NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson_bounds(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    z = z_of(confidence)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (0.0 if k == 0 else centre - half), (1.0 if k == n else centre + half)


def clustered_bounds(counts: list[int], n: int, confidence: float = 0.95) -> tuple[float, float, float]:
    """pass@1 over T tasks of n samples and its Miller (2024) clustered interval: mean ± z·sqrt(Σ(c−n·mean)²)/(n·T)."""
    tasks = len(counts)
    mean = sum(counts) / (n * tasks)
    se = math.sqrt(sum((c - n * mean) ** 2 for c in counts)) / (n * tasks)
    half = z_of(confidence) * se
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def exact_pass_at_k(n: int, c: int, k: int) -> Fraction:
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


def samples_records(counts: dict[str, int], n: int, unscoreable: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """c passes then fails, n attempts per task; `unscoreable` turns that many of the fails into env_flake."""
    records = []
    for tid, c in counts.items():
        flakes = (unscoreable or {}).get(tid, 0)
        for a in range(1, n + 1):
            if a <= c:
                records.append(record(tid, "pass", attempt=a))
            elif a <= c + flakes:
                records.append(record(tid, "unscoreable", "env_flake", attempt=a))
            else:
                records.append(record(tid, "fail", attempt=a))
    return records


def plain_manifest(ids: list[str], **extra: Any) -> dict[str, Any]:
    manifest: dict[str, Any] = {
        "claim_id": "card-test",
        "dataset": {"name": "slice", "task_count": len(ids), "task_ids_sha256": ids_digest(ids), "task_ids": sorted(ids)},
        "controls": [],
        "envelope": {"runner": "test", "network": "off", "wall_clock_s_per_task": 900},
        "rerun_recipe": "python3 gate.py --manifest m.json --runs r.jsonl",
    }
    manifest.update(extra)
    return manifest


class CardCase(GateCase):
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
        manifest: dict[str, Any] = {
            "claim_id": "card-claim",
            "dataset": {"name": "slice", "task_count": len(ids), "task_ids_sha256": ids_digest(ids),
                        "tasks": "tasks.json", "card": "card.json"},
            "controls": [],
            "control_runs": [
                {"role": "no_edit", "runs": "noedit.jsonl", "max_pass_rate": 0.05},
                {"role": "known_fix", "runs": "gold.jsonl", "min_pass_rate": 0.95},
            ],
            "envelope": {"runner": "test", "network": "off", "wall_clock_s_per_task": 900},
            "rerun_recipe": "python3 gate.py --manifest bench.manifest.json --runs runs.jsonl",
        }
        manifest.update(extra)
        return manifest

    def problem_lines(self, out: str) -> list[str]:
        return [line for line in out.splitlines() if line.startswith("  ! ")]


#####################################################################
# freeze: refusals
#####################################################################


class FreezeRefusals(CardCase):
    def test_every_violation_of_every_task_is_listed(self) -> None:
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

    def test_one_task_with_three_violations_lists_all_three(self) -> None:
        tasks = [*make_slice(("python", 5, 0)), task("worst", license_name="gpl-2.0", span=0, has_failing_test=False)]
        code, out, _ = self.freeze(tasks)
        self.assertEqual(code, 1)
        worst = [line for line in self.problem_lines(out) if "worst" in line]
        self.assertEqual(len(worst), 3, out)
        for word in ("has_failing_test", "gpl-2.0", "edit_span"):
            self.assertTrue(any(word in line for line in worst), out)

    def test_each_bad_value_alone_is_refused(self) -> None:
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
        for field in sorted(SEED_FIELDS):
            with self.subTest(missing=field):
                bad = task("bad")
                del bad[field]
                code, out, _ = self.freeze([*make_slice(("python", 5, 0)), bad], "--force")
                self.assertEqual(code, 1)
                self.assertTrue(any("missing" in line and field in line for line in self.problem_lines(out)), out)

    def test_allow_license_is_repeatable_and_replaces_the_allowlist(self) -> None:
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

    def test_span_31_lands_in_the_stratum_the_card_says_inside_check(self) -> None:
        tasks = [task(f"s10-{i}", span=10) for i in range(5)] + [task(f"s31-{i}", span=31) for i in range(5)]
        for options, expected in (((), {"python:narrow": 5, "python:wide": 5}), (("--wide-above", "40"), {"python:narrow": 10})):
            with self.subTest(options=options):
                manifest = self.card_manifest(tasks, "--force", *options)
                code, report = self.check_json(manifest, [record(t["task_id"], "pass") for t in tasks])
                self.assertEqual(code, 0, report["findings"])
                self.assertEqual({s["name"]: s["tasks"] for s in report["strata"]}, expected)

    def test_seed_one_task_file_fails_freeze_with_the_floor_message(self) -> None:
        code, out, err = self.freeze(SEED_MIN_TASKS, name="tasks.min.json")
        self.assertEqual(code, 1, err)
        self.assertIn("stratum floor missed", out)
        self.assertIn("python:narrow=1", out)
        self.assertFalse((self.dir / "card.json").exists())

    def test_malformed_task_files_are_input_errors(self) -> None:
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


#####################################################################
# freeze: what the card holds
#####################################################################


class CardContents(CardCase):
    def test_card_fields_computed_independently(self) -> None:
        tasks = make_slice(("python", 5, 5), ("typescript", 6, 0))
        tasks[0]["failing_test"] = "tests/test_app.py::test_route"  # extra fields are kept and hashed
        code, out, err = self.freeze(tasks, "--attempt-budget", "3", "--not-a-claim-about", "private monorepos",
                                     "--not-a-claim-about", "long-horizon planning")
        self.assertEqual(code, 0, out + err)
        card = self.card()
        digest = seed_digest(tasks)
        self.assertEqual(card["dataset_digest"], digest)
        self.assertIn(f"froze {digest[:12]} tasks=16", out)
        ids = [t["task_id"] for t in tasks]
        self.assertEqual(card["task_ids_sha256"], hashlib.sha256("\n".join(sorted(set(ids))).encode("utf-8")).hexdigest())
        self.assertEqual(card["task_count"], 16)
        self.assertEqual(card["strata"], {"python:narrow": 5, "python:wide": 5, "typescript:narrow": 6})
        self.assertEqual(card["withheld"], [])
        rule = card["inclusion_rule"]
        self.assertEqual(set(rule["required_fields"]), SEED_FIELDS)
        self.assertIs(rule["has_failing_test"], True)
        self.assertEqual(sorted(rule["allowed_licenses"]), SEED_LICENSES)
        self.assertEqual(rule["wide_above"], 30)
        self.assertEqual(rule["min_per_stratum"], 5)
        self.assertIs(rule["withhold_thin_strata"], False)
        self.assertEqual(set(card["tasks"]), set(ids))
        for t in tasks:
            entry = card["tasks"][t["task_id"]]
            self.assertEqual(entry["sha256"], seed_digest(t))
            self.assertEqual(set(entry["fields"]), set(t))
        self.assertIn("failing_test", card["tasks"][tasks[0]["task_id"]]["fields"])
        metric = card["metric"]
        self.assertEqual(metric["name"], "resolved_rate")
        self.assertEqual(metric["attempt_budget"], 3)
        self.assertIs(metric["pass_at_k_reported_separately"], True)
        self.assertTrue(metric["numerator"] and metric["denominator"])
        self.assertEqual(set(card["controls"]), {"no_edit_must_fail", "known_fix_must_pass"})
        self.assertEqual(card["not_a_claim_about"], [*SEED_NOT_A_CLAIM, "private monorepos", "long-horizon planning"])

    def test_defaults_budget_one_and_seed_not_a_claim(self) -> None:
        card = self.frozen(make_slice(("go", 5, 5)))
        self.assertEqual(card["metric"]["attempt_budget"], 1)
        self.assertEqual(card["not_a_claim_about"], SEED_NOT_A_CLAIM)

    def test_digest_is_of_the_task_list_not_the_file_bytes(self) -> None:
        tasks = make_slice(("python", 5, 5))
        a = self.frozen(tasks)["dataset_digest"]
        self.write_text("tasks.json", json.dumps(tasks, separators=(",", ":")))
        code, out, _ = self.run_gate("verify", str(self.dir / "tasks.json"), str(self.dir / "card.json"))
        self.assertEqual((code, out), (0, f"slice ok {a[:12]} tasks=10\n"))
        # A different order is a different list: the seed hashes the list as given.
        self.assertNotEqual(seed_digest(list(reversed(tasks))), a)
        code, out, _ = self.verify(list(reversed(tasks)))
        self.assertEqual(code, 1)
        self.assertIn(DRIFT, out)

    def test_non_ascii_task_list_digest_is_stable(self) -> None:
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


#####################################################################
# freeze: atomic write and --force
#####################################################################


class AtomicWrite(CardCase):
    def listing(self) -> set[str]:
        return set(os.listdir(self.dir))

    def test_refuses_to_overwrite_without_force(self) -> None:
        tasks = make_slice(("python", 5, 5))
        self.write_text("card.json", "sentinel: a frozen card is a record\n")
        code, out, err = self.freeze(tasks)
        self.assertInputError((code, out, err), "--force")
        self.assertEqual((self.dir / "card.json").read_text(encoding="utf-8"), "sentinel: a frozen card is a record\n")
        self.assertEqual(self.listing(), {"tasks.json", "card.json"})
        code, out, err = self.freeze(tasks, "--force")
        self.assertEqual(code, 0, out + err)
        self.assertEqual(self.card()["dataset_digest"], seed_digest(tasks))
        self.assertEqual(self.listing(), {"tasks.json", "card.json"})

    def test_second_freeze_keeps_the_first_card(self) -> None:
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


#####################################################################
# verify
#####################################################################


class Verify(CardCase):
    def test_ok_path(self) -> None:
        tasks = make_slice(("python", 6, 5), ("typescript", 5, 0))
        self.frozen(tasks)
        code, out, err = self.verify(tasks)
        self.assertEqual((code, err), (0, ""))
        self.assertRegex(out, r"^slice ok [0-9a-f]{12} tasks=16\n$")
        self.assertEqual(out, f"slice ok {seed_digest(tasks)[:12]} tasks=16\n")

    def test_drift_names_added_removed_and_changed_fields(self) -> None:
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
        changed = {re.search(r"changed: (\S+)", line).group(1): line for line in lines if "changed:" in line}  # type: ignore[union-attr]
        self.assertEqual(set(changed), {"py-w-01", "ty-n-02", "ty-n-03"}, out)
        self.assertIn("commit", changed["py-w-01"])
        self.assertIn("edit_span", changed["py-w-01"])
        self.assertNotIn("license", changed["py-w-01"])
        self.assertIn("license", changed["ty-n-02"])
        self.assertNotIn("commit", changed["ty-n-02"])
        self.assertIn("note", changed["ty-n-03"])

    def test_drift_is_named_even_when_it_also_breaks_the_floor(self) -> None:
        """Removing a task is drift: verify must say so and name it, whatever else now fails."""
        tasks = make_slice(("python", 5, 5))
        self.frozen(tasks)
        code, out, _ = self.verify(tasks[1:])
        self.assertEqual(code, 1)
        self.assertIn(DRIFT, out)
        self.assertTrue(re.search(r"removed\b.*\bpy-n-01\b", out), out)

    def test_drift_is_named_even_when_it_breaks_the_inclusion_rule(self) -> None:
        tasks = make_slice(("python", 5, 5))
        self.frozen(tasks)
        changed = json.loads(json.dumps(tasks))
        changed[2]["license"] = "gpl-3.0"
        code, out, _ = self.verify(changed)
        self.assertEqual(code, 1)
        self.assertIn(DRIFT, out)
        self.assertTrue(re.search(r"changed: py-n-03 \(license\)", out), out)

    def test_hand_edited_card_is_refused(self) -> None:
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
        tasks = make_slice(("python", 5, 5))
        card = self.frozen(tasks)
        card["dataset_digest"] = "0" * 64
        self.write_json("card.json", card)
        code, out, _ = self.verify(tasks)
        self.assertEqual(code, 1)
        self.assertIn(DRIFT, out)


#####################################################################
# The card inside check
#####################################################################


class CardInCheck(CardCase):
    TASKS = make_slice(("python", 6, 5), ("go", 5, 0))

    def runs(self, tasks: list[dict[str, Any]], skip: tuple[str, ...] = ()) -> list[dict[str, Any]]:
        out = []
        for i, t in enumerate(tasks):
            if t["task_id"] in skip:
                continue
            out.append(record(t["task_id"], "pass" if i % 3 else "fail"))
        return out

    def test_publishable_with_strata_from_the_card(self) -> None:
        manifest = self.card_manifest(self.TASKS, "--not-a-claim-about", "private monorepos")
        code, out, err = self.check(manifest, self.runs(self.TASKS))
        self.assertEqual(code, 0, out + err)
        self.assertIn("PUBLISHABLE", out)
        line = next(line for line in out.splitlines() if "unseen repositories" in line)
        for item in [*SEED_NOT_A_CLAIM, "private monorepos"]:
            self.assertIn(item, line)
        self.assertIn(PRODUCT_VERDICT, out)
        _, report = self.check_json(manifest, self.runs(self.TASKS))
        self.assertEqual(report["not_a_claim_about"], [*SEED_NOT_A_CLAIM, "private monorepos"])
        self.assertEqual(report["dataset"]["card_digest"], seed_digest(self.TASKS))
        strata = {s["name"]: s for s in report["strata"]}
        self.assertEqual(set(strata), {"python:narrow", "python:wide", "go:narrow"})
        for name, s in strata.items():
            members = [i for i, t in enumerate(self.TASKS) if gate.stratum_of(t, 30) == name]
            k = sum(1 for i in members if i % 3)
            self.assertEqual((s["rate"]["k"], s["rate"]["n"]), (k, len(members)), name)
            low, high = wilson_bounds(k, len(members))
            self.assertAlmostEqual(s["rate"]["ci_low"], low, places=12)
            self.assertAlmostEqual(s["rate"]["ci_high"], high, places=12)
            self.assertTrue(re.search(rf"^\s+{re.escape(name)}\s*: {k}/{len(members)} = ", out, re.M), out)

    def test_card_drift_after_freeze(self) -> None:
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
        manifest = self.card_manifest(self.TASKS)
        manifest["dataset"]["task_ids_sha256"] = ids_digest([t["task_id"] for t in self.TASKS[1:]])
        self.assertIn("card_manifest_mismatch", self.codes(manifest, self.runs(self.TASKS)))
        manifest = self.card_manifest(self.TASKS, "--force")
        self.assertNotIn("card_manifest_mismatch", self.codes(manifest, self.runs(self.TASKS)))

    def test_never_started_tasks_are_named_from_the_tasks_file(self) -> None:
        manifest = self.card_manifest(self.TASKS)
        self.assertNotIn("task_ids", manifest["dataset"])
        _, report = self.check_json(manifest, self.runs(self.TASKS, skip=("py-w-03", "go-n-05")))
        never = [f["message"] for f in report["findings"] if f["code"] == "never_started"]
        self.assertEqual(len(never), 1, report["findings"])
        self.assertIn("py-w-03", never[0])
        self.assertIn("go-n-05", never[0])
        self.assertEqual(report["headline"]["n"], len(self.TASKS))

    def test_attempt_budget_comes_from_the_card(self) -> None:
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


#####################################################################
# Control runs
#####################################################################


class ControlRuns(CardCase):
    def setup_runs(self, noedit_passes: int = 0, gold_passes: int | None = None) -> tuple[dict[str, Any], list[dict[str, Any]], list[str]]:
        manifest, records = valid_ledger()
        ids = manifest["dataset"]["task_ids"]
        manifest["controls"] = []
        manifest["control_runs"] = [
            {"role": "no_edit", "runs": "noedit.jsonl", "max_pass_rate": 0.05},
            {"role": "known_fix", "runs": "gold.jsonl", "min_pass_rate": 0.95},
        ]
        gold = len(ids) if gold_passes is None else gold_passes
        self.write_jsonl("noedit.jsonl", [record(t, "pass" if i < noedit_passes else "fail", run_id="ne") for i, t in enumerate(ids)])
        self.write_jsonl("gold.jsonl", [record(t, "pass" if i < gold else "fail", run_id="kf") for i, t in enumerate(ids)])
        return manifest, records, ids

    def test_control_runs_alone_satisfy_the_control_requirement(self) -> None:
        manifest, records, ids = self.setup_runs()
        self.assertEqual(len(ids), 40)
        code, report = self.check_json(manifest, records)
        self.assertEqual((code, report["findings"]), (0, []))
        self.assertEqual({r["role"] for r in report["control_runs"]}, {"no_edit", "known_fix"})
        only_negative = json.loads(json.dumps(manifest))
        only_negative["control_runs"] = only_negative["control_runs"][:1]
        _, report = self.check_json(only_negative, records)
        incomplete = [f["message"] for f in report["findings"] if f["code"] == "controls_incomplete"]
        self.assertEqual(len(incomplete), 1)
        self.assertIn("positive", incomplete[0])
        self.assertNotIn("negative", incomplete[0])

    def test_no_edit_bound(self) -> None:
        manifest, records, _ = self.setup_runs(noedit_passes=2)  # 2/40 = 0.05: at the ceiling, allowed
        self.assertNotIn("control_run_violated", self.codes(manifest, records))
        manifest, records, _ = self.setup_runs(noedit_passes=3)  # 3/40 = 0.075
        _, report = self.check_json(manifest, records)
        violated = [f["message"] for f in report["findings"] if f["code"] == "control_run_violated"]
        self.assertEqual(len(violated), 1, report["findings"])
        self.assertIn("no_edit", violated[0])
        self.assertEqual(report["verdict"], "BLOCKED")

    def test_known_fix_bound(self) -> None:
        manifest, records, _ = self.setup_runs(gold_passes=38)  # 0.95: at the floor, allowed
        self.assertNotIn("control_run_violated", self.codes(manifest, records))
        manifest, records, _ = self.setup_runs(gold_passes=37)  # 0.925
        _, report = self.check_json(manifest, records)
        violated = [f["message"] for f in report["findings"] if f["code"] == "control_run_violated"]
        self.assertEqual(len(violated), 1, report["findings"])
        self.assertIn("known_fix", violated[0])

    def test_control_run_ledger_problems_carry_the_role_prefix(self) -> None:
        manifest, records, ids = self.setup_runs()
        self.write_jsonl("noedit.jsonl", [record(t, "fail", run_id="ne") for t in ids[1:]])
        gold = [record(t, "pass", run_id="kf") for t in ids] + [record(ids[0], "pass", attempt=2, run_id="kf")]
        self.write_jsonl("gold.jsonl", gold)
        codes = self.codes(manifest, records)
        self.assertIn("no_edit:dataset_size_mismatch", codes)
        self.assertIn("no_edit:never_started", codes)
        self.assertIn("known_fix:attempt_over_budget", codes)
        self.assertNotIn("dataset_size_mismatch", codes)  # the main ledger is whole
        self.assertNotIn("control_run_violated", codes)


#####################################################################
# Attempts: samples mode, pass@k, retry mode's first-attempt rate
#####################################################################


# d_pass_at_k rows: openai/human-eval estimate_pass_at_k and exact 1 - C(n-c,k)/C(n,k), from the project's
# reference vectors (shared/reference/stat_vectors.json; full_precision and exact_fraction copied literally).
PASS_AT_K_ROWS = [
    # (n, c, k, full_precision, exact_fraction or None)
    (10, 0, 1, 0.0, "0"),
    (10, 3, 1, 0.30000000000000004, "3/10"),
    (10, 3, 5, 0.9166666666666666, "11/12"),
    (10, 10, 1, 1.0, "1"),
    (5, 1, 5, 1.0, "1"),
    (200, 20, 10, 0.660225623763214, None),
    (100, 50, 100, 1.0, "1"),
    (3, 1, 2, 0.6666666666666666, "2/3"),
    (200, 1, 100, 0.5, "1/2"),
    (200, 199, 1, 0.995, "199/200"),
    (1000, 7, 500, 0.9923509039500229, "21854279/22022733"),
]

# g_clustered_se rows from the same reference vectors: (scores, clusters, clustered_se_miller to 6 dp).
CLUSTERED_SE_ROWS: list[tuple[list[int], list[Any], float]] = [
    ([1, 1, 1, 0, 0, 0], [0, 1, 1, 1, 0, 0], 0.117851),
    ([1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 1, 0], ["r1", "r1", "r1", "r2", "r2", "r2", "r3", "r3", "r3", "r4", "r4", "r4"], 0.186339),
    ([1, 1, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 1, 0], [1, 1, 1, 1, 1, 2, 2, 3, 3, 3, 4, 5, 5, 5, 5], 0.10328),
]


class Estimators(GateCase):
    def test_pass_at_k_reference_vectors(self) -> None:
        for n, c, k, full, exact in PASS_AT_K_ROWS:
            with self.subTest(n=n, c=c, k=k):
                got = gate.pass_at_k(n, c, k)
                self.assertLessEqual(abs(got - full), 1e-12)
                if exact is not None:
                    self.assertLessEqual(abs(Fraction(got) - Fraction(exact)), Fraction(1, 10**12))
                self.assertLessEqual(abs(Fraction(got) - exact_pass_at_k(n, c, k)), Fraction(1, 10**12))

    def test_pass_at_k_against_exact_formula_on_a_grid(self) -> None:
        for n in (1, 2, 5, 10):
            for c in range(n + 1):
                for k in range(1, n + 1):
                    self.assertLessEqual(abs(gate.pass_at_k(n, c, k) - float(exact_pass_at_k(n, c, k))), 1e-12, (n, c, k))

    def test_clustered_se_reference_vectors(self) -> None:
        for scores, clusters, expected in CLUSTERED_SE_ROWS:
            with self.subTest(expected=expected):
                sums: dict[Any, list[int]] = {}
                for s, g in zip(scores, clusters):
                    sums.setdefault(g, [0, 0])
                    sums[g][0] += s
                    sums[g][1] += 1
                got = gate.clustered_se([(float(s), n) for s, n in sums.values()])
                self.assertEqual(round(got, 6), expected)


class SamplesMode(GateCase):
    N = 4
    COUNTS = {"pos": 4, "a": 4, "b": 4, "neg": 0, "c": 0, "d": 0, "e": 1, "f": 3}  # heterogeneous tasks
    FLAKES = {"e": 1}  # one of e's non-passing samples is unscoreable

    def manifest(self, ids: list[str]) -> dict[str, Any]:
        return plain_manifest(ids, attempt_mode="samples", attempt_budget=self.N, controls=[
            {"task_id": "neg", "expected": "fail", "role": "negative"},
            {"task_id": "pos", "expected": "pass", "role": "positive"}])

    def test_headline_secondary_interval_and_pass_at_k(self) -> None:
        ids = list(self.COUNTS)
        records = samples_records(self.COUNTS, self.N, self.FLAKES)
        code, report = self.check_json(self.manifest(ids), records)
        self.assertEqual((code, report["findings"]), (0, []))
        counts = list(self.COUNTS.values())
        mean, low, high = clustered_bounds(counts, self.N)
        head = report["headline"]
        self.assertEqual(head["name"], "pass@1")
        self.assertEqual(head["n"], len(ids))
        self.assertAlmostEqual(head["k"], sum(counts) / self.N, places=12)
        self.assertLessEqual(abs(head["rate"] - mean), 1e-12)
        self.assertLessEqual(abs(head["ci_low"] - low), 1e-12)
        self.assertLessEqual(abs(head["ci_high"] - high), 1e-12)
        pooled = wilson_bounds(sum(counts), self.N * len(ids))
        self.assertGreater(abs(head["ci_low"] - pooled[0]), 0.05)
        self.assertGreater(abs(head["ci_high"] - pooled[1]), 0.05)
        # Secondary: unscoreable attempts excluded (16 passes of 31 scored attempts).
        self.assertEqual(sum(counts), 16)
        second = report["secondary"]
        self.assertEqual((second["k"], second["n"]), (16, 31))
        self.assertLessEqual(abs(second["rate"] - 16 / 31), 1e-12)
        # pass@k, k = 2..n, over the full task count, never the headline.
        self.assertEqual(set(report["pass_at_k"]), {"2", "3", "4"})
        for k in (2, 3, 4):
            expected = sum(exact_pass_at_k(self.N, c, k) for c in counts) / len(counts)
            self.assertLessEqual(abs(report["pass_at_k"][str(k)] - float(expected)), 1e-12)
        code, out, _ = self.check(self.manifest(ids), records)
        lines = out.splitlines()
        headline = next(line for line in lines if "<- headline" in line)
        self.assertTrue(headline.startswith("pass@1"), headline)
        self.assertNotRegex(headline, r"pass@[2-9]")
        passk = [line for line in lines if re.match(r"^pass@k\s*:", line)]
        self.assertEqual(len(passk), 1, out)
        for k in (2, 3, 4):
            expected = float(sum(exact_pass_at_k(self.N, c, k) for c in counts) / len(counts))
            self.assertIn(f"pass@{k} {expected:.3f}", passk[0])
        self.assertIn("not the headline", passk[0])

    def test_headline_keeps_the_full_declared_task_count(self) -> None:
        ids = [*self.COUNTS, "never"]
        _, report = self.check_json(self.manifest(ids), samples_records(self.COUNTS, self.N, self.FLAKES))
        self.assertIn("never_started", [f["code"] for f in report["findings"]])
        counts = [*self.COUNTS.values(), 0]
        mean, low, high = clustered_bounds(counts, self.N)
        head = report["headline"]
        self.assertEqual(head["n"], 9)
        self.assertLessEqual(abs(head["rate"] - 16 / 36), 1e-12)
        self.assertLessEqual(abs(head["rate"] - mean), 1e-12)
        self.assertLessEqual(abs(head["ci_low"] - low), 1e-12)
        self.assertLessEqual(abs(head["ci_high"] - high), 1e-12)
        for k in (2, 3, 4):
            expected = sum(exact_pass_at_k(self.N, c, k) for c in counts) / 9
            self.assertLessEqual(abs(report["pass_at_k"][str(k)] - float(expected)), 1e-12)

    def test_interval_is_clipped_and_other_confidence_levels(self) -> None:
        counts = {"pos": 4, "neg": 0, **{f"t{i}": 4 for i in range(6)}, "low": 1}
        ids = list(counts)
        for conf in (0.8, 0.95, 0.99):
            with self.subTest(conf=conf):
                _, report = self.check_json(self.manifest(ids), samples_records(counts, self.N), "--confidence", str(conf))
                _mean, low, high = clustered_bounds(list(counts.values()), self.N, conf)
                self.assertLessEqual(abs(report["headline"]["ci_low"] - low), 1e-12)
                self.assertLessEqual(abs(report["headline"]["ci_high"] - high), 1e-12)
                self.assertLessEqual(report["headline"]["ci_high"], 1.0)
        _, report = self.check_json(self.manifest(ids), samples_records(counts, self.N), "--confidence", "0.99")
        self.assertEqual(report["headline"]["ci_high"], 1.0)  # mean + half > 1 at 99%: clipped

    def test_fewer_or_more_samples_are_findings(self) -> None:
        ids = list(self.COUNTS)
        records = samples_records(self.COUNTS, self.N)
        short = [r for r in records if not (r["task_id"] == "c" and r["attempt"] == 4)]
        _, report = self.check_json(self.manifest(ids), short)
        found = [f["message"] for f in report["findings"] if f["code"] == "samples_incomplete"]
        self.assertEqual(len(found), 1, report["findings"])
        self.assertIn("c (3)", found[0])
        extra = [*records, record("d", "fail", attempt=5)]
        codes = self.codes(self.manifest(ids), extra)
        self.assertIn("attempt_over_budget", codes)
        self.assertNotIn("samples_incomplete", codes)


class RetryMode(GateCase):
    def records(self) -> list[dict[str, Any]]:
        return [
            record("neg", "fail"), record("pos", "pass"), record("p1", "pass"),
            record("p2", "fail", attempt=1), record("p2", "pass", attempt=2),
            record("p3", "fail", attempt=1), record("p3", "unscoreable", "env_flake", attempt=2), record("p3", "pass", attempt=3),
            record("f", "fail", attempt=1), record("f", "fail", attempt=2), record("f", "fail", attempt=3),
        ]

    def manifest(self, budget: int) -> dict[str, Any]:
        return plain_manifest(["neg", "pos", "p1", "p2", "p3", "f"], attempt_budget=budget, controls=[
            {"task_id": "neg", "expected": "fail", "role": "negative"},
            {"task_id": "pos", "expected": "pass", "role": "positive"}])

    def test_first_attempt_rate_is_printed_and_labelled(self) -> None:
        code, report = self.check_json(self.manifest(3), self.records())
        self.assertEqual((code, report["findings"]), (0, []))
        self.assertEqual((report["headline"]["k"], report["headline"]["n"]), (4, 6))
        first = report["first_attempt"]
        self.assertEqual((first["k"], first["n"]), (2, 6))
        low, high = wilson_bounds(2, 6)
        self.assertAlmostEqual(first["ci_low"], low, places=12)
        self.assertAlmostEqual(first["ci_high"], high, places=12)
        self.assertEqual(report["pass_at_k"], {})
        _, out, _ = self.check(self.manifest(3), self.records())
        lines = [line for line in out.splitlines() if "2/6" in line]
        self.assertEqual(len(lines), 1, out)
        self.assertIn("first", lines[0])
        self.assertIn("labelled", lines[0])
        self.assertNotIn("<- headline", lines[0])

    def test_budget_one_has_no_first_attempt_line(self) -> None:
        records = [record("neg", "fail"), record("pos", "pass"), record("p1", "pass"), record("p2", "fail"),
                   record("p3", "pass"), record("f", "fail")]
        code, report = self.check_json(self.manifest(1), records)
        self.assertEqual(code, 0, report["findings"])
        self.assertIsNone(report["first_attempt"])
        _, out, _ = self.check(self.manifest(1), records)
        self.assertNotIn("first attempt", out)


# Terminal-Bench, orchestrator_claude-4-sonnet.results.json (80 tasks x 5 trials): passes per task
# (is_resolved true; false and null count as not passing) and the file's own stated figures.
TB_TRIALS = 5
TB_COUNTS = {
    "blind-maze-explorer-5x5": 2, "blind-maze-explorer-algorithm": 3, "blind-maze-explorer-algorithm.easy": 1,
    "blind-maze-explorer-algorithm.hard": 1, "build-initramfs-qemu": 0, "build-linux-kernel-qemu": 0, "build-tcc-qemu": 0,
    "cartpole-rl-training": 0, "chess-best-move": 0, "conda-env-conflict-resolution": 3, "configure-git-webserver": 3,
    "count-dataset-tokens": 1, "crack-7z-hash": 5, "crack-7z-hash.easy": 5, "crack-7z-hash.hard": 2, "create-bucket": 0,
    "cron-broken-network": 1, "csv-to-parquet": 4, "decommissioning-service-with-sensitive-data": 0, "download-youtube": 0,
    "eval-mteb": 3, "eval-mteb.hard": 0, "extract-moves-from-video": 0, "extract-safely": 4, "fibonacci-server": 4,
    "fix-git": 0, "fix-pandas-version": 5, "fix-permissions": 5, "get-bitcoin-nodes": 1, "git-multibranch": 0,
    "git-workflow-hack": 5, "gpt2-codegolf": 0, "grid-pattern-transform": 4, "hello-world": 5, "heterogeneous-dates": 5,
    "hf-model-inference": 0, "incompatible-python-fasttext": 1, "incompatible-python-fasttext.base_with_hint": 4,
    "intrusion-detection": 0, "jupyter-notebook-server": 0, "modernize-fortran-build": 2, "new-encrypt-command": 5,
    "nginx-request-logging": 0, "oom": 3, "openssl-selfsigned-cert": 3, "organization-json-generator": 4,
    "password-recovery": 0, "path-tracing": 2, "path-tracing-reverse": 0, "play-zork": 0, "polyglot-c-py": 0,
    "polyglot-rust-c": 0, "processing-pipeline": 3, "prove-plus-comm": 4, "pytorch-model-cli": 5,
    "pytorch-model-cli.easy": 3, "pytorch-model-cli.hard": 5, "qemu-alpine-ssh": 0, "qemu-startup": 4, "raman-fitting": 0,
    "raman-fitting.easy": 0, "reshard-c4-data": 0, "run-pdp11-code": 0, "sanitize-git-repo": 2, "sanitize-git-repo.hard": 1,
    "security-vulhub-minio": 0, "simple-sheets-put": 5, "simple-web-scraper": 1, "solana-data": 0, "sqlite-db-truncate": 1,
    "sqlite-with-gcov": 5, "super-benchmark-upet": 0, "swe-bench-astropy-1": 1, "swe-bench-astropy-2": 0,
    "swe-bench-fsspec": 1, "swe-bench-langcodes": 4, "tmux-advanced-workflow": 3, "train-fasttext": 0,
    "vim-terminal-task": 0, "write-compressor": 0,
}
TB_STATED_ACCURACY = 0.36
TB_STATED_PASS_AT_K = {"2": 0.4625, "4": 0.5475, "5": 0.575}
TB_STATED_N_RESOLVED = 144


class TerminalBenchRealData(GateCase):
    def test_estimator_reproduces_the_files_stated_figures(self) -> None:
        self.assertEqual(len(TB_COUNTS), 80)
        self.assertEqual(sum(TB_COUNTS.values()), TB_STATED_N_RESOLVED)
        ids = list(TB_COUNTS)
        manifest = plain_manifest(ids, attempt_mode="samples", attempt_budget=TB_TRIALS)
        _, report = self.check_json(manifest, samples_records(TB_COUNTS, TB_TRIALS))
        self.assertEqual(report["headline"]["name"], "pass@1")
        self.assertEqual(report["headline"]["n"], 80)
        self.assertLessEqual(abs(report["headline"]["rate"] - TB_STATED_ACCURACY), 1e-12)
        for k, stated in TB_STATED_PASS_AT_K.items():
            self.assertLessEqual(abs(report["pass_at_k"][k] - stated), 1e-12, k)
        self.assertEqual(set(report["pass_at_k"]), {"2", "3", "4", "5"})


#####################################################################
# The shipped example
#####################################################################


class ShippedExample(GateCase):
    def test_example_is_publishable_and_well_formed(self) -> None:
        tasks = json.loads((EXAMPLE / "tasks.json").read_text(encoding="utf-8"))
        card = json.loads((EXAMPLE / "card.json").read_text(encoding="utf-8"))
        manifest = json.loads((EXAMPLE / "bench.manifest.json").read_text(encoding="utf-8"))
        self.assertGreaterEqual(len(tasks), 30)
        self.assertGreaterEqual(len({t["language"] for t in tasks}), 2)
        self.assertEqual({t["edit_span"] <= 30 for t in tasks}, {True, False})
        for t in tasks:
            self.assertRegex(t["commit"], r"^[0-9a-f]{40}$")
            self.assertIn(t["license"], SEED_LICENSES)
            self.assertIs(t["has_failing_test"], True)
            self.assertRegex(t["repo"], r"^[A-Za-z0-9-]+/[A-Za-z0-9_.-]+$")
        self.assertTrue(all(count >= 5 for count in card["strata"].values()))
        self.assertEqual(card["dataset_digest"], seed_digest(tasks))
        self.assertEqual((manifest["dataset"]["tasks"], manifest["dataset"]["card"]), ("tasks.json", "card.json"))
        self.assertEqual(manifest["dataset"]["task_ids_sha256"], card["task_ids_sha256"])
        self.assertEqual(manifest["dataset"]["task_count"], card["task_count"])
        self.assertEqual({r["role"] for r in manifest["control_runs"]}, {"no_edit", "known_fix"})
        runs = [json.loads(line) for line in (EXAMPLE / "runs.jsonl").read_text(encoding="utf-8").splitlines()]
        self.assertGreaterEqual(len({r["reason"] for r in runs if r["outcome"] == "unscoreable"}), 2)
        code, out, err = self.run_gate("--manifest", str(EXAMPLE / "bench.manifest.json"), "--runs", str(EXAMPLE / "runs.jsonl"))
        self.assertEqual(code, 0, out + err)
        self.assertIn("PUBLISHABLE", out)
        self.assertIn(PRODUCT_VERDICT, out)
        for name in card["strata"]:
            self.assertTrue(re.search(rf"^\s+{re.escape(name)}\s*: \d+/\d+ = ", out, re.M), name)
        self.assertEqual(self.run_gate("verify", str(EXAMPLE / "tasks.json"), str(EXAMPLE / "card.json"))[0], 0)

    def test_seed_min_example_and_generator(self) -> None:
        self.assertEqual(json.loads((EXAMPLE / "tasks.min.json").read_text(encoding="utf-8")), SEED_MIN_TASKS)
        code, out, _ = self.run_gate("freeze", str(EXAMPLE / "tasks.min.json"), str(self.dir / "card.json"))
        self.assertEqual(code, 1)
        self.assertIn("stratum floor missed", out)
        spec = importlib.util.spec_from_file_location("make_example", EXAMPLE / "make_example.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        rng = random.Random(module.SEED)
        tasks = module.make_tasks(rng)
        self.assertEqual(tasks, json.loads((EXAMPLE / "tasks.json").read_text(encoding="utf-8")))
        runs = module.make_runs(rng, tasks)
        self.assertEqual(runs, [json.loads(line) for line in (EXAMPLE / "runs.jsonl").read_text(encoding="utf-8").splitlines()])


if __name__ == "__main__":
    import unittest

    unittest.main()
