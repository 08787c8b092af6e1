"""Tests that kill mutants which survived the rest of the suite (see tests/mutation/run.sh).

Each test names the mutation it was written against (cosmic-ray operator, the line of gate.py at the time)
and checks behaviour a user can see, not the mutated expression itself.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import gate
from tests.support import FIXTURES, GateCase, ids_digest, record, valid_ledger

SVG = "{http://www.w3.org/2000/svg}"


class KillSurvivors(GateCase):
    def test_run_check_defaults_to_95_percent(self) -> None:
        """NumberReplacer on run_check's default confidence (0.95 -> -0.05)."""
        manifest, records = valid_ledger()
        m, r = self.write_json("m.json", manifest), self.write_jsonl("r.jsonl", records)
        report = gate.report_json(gate.run_check(m, r))
        self.assertEqual(report["headline"]["ci_low"], gate.wilson(29, 40, 0.95)[0])
        self.assertEqual(report["headline"]["ci_high"], gate.wilson(29, 40, 0.95)[1])

    def test_negative_wall_clock_limit_is_an_input_error(self) -> None:
        """ReplaceComparisonOperator_Lt_Is in _Fields.number (value < minimum -> value is minimum)."""
        manifest, records = valid_ledger()
        manifest["envelope"]["wall_clock_s_per_task"] = -1
        self.assertInputError(self.check(manifest, records), "envelope.wall_clock_s_per_task")
        manifest["envelope"]["wall_clock_s_per_task"] = 0
        self.assertEqual(self.check(manifest, records)[0], 0)

    def test_unknown_outcome_names_task_attempt_and_value(self) -> None:
        """NumberReplacer in _attempt (item[1] -> item[0]): the message shows task#attempt=value."""
        manifest, records = valid_ledger()
        manifest["attempt_budget"] = 2
        records.append(record("t-001", "maybe", attempt=2))
        code, report = self.check_json(manifest, records)
        self.assertEqual(code, 1)
        message = next(f["message"] for f in report["findings"] if f["code"] == "unknown_outcome")
        self.assertIn("t-001#2='maybe'", message)

    def test_swebench_counts_above_the_small_int_cache(self) -> None:
        """ReplaceComparisonOperator_NotEq_IsNot on the stated-count check (stated != len -> is not):
        equal counts above 256 are different int objects."""
        ids = [f"repo__pkg-{i:04d}" for i in range(300)]
        report = {"schema_version": 2, "total_instances": 301, "resolved_ids": ids, "resolved_instances": 300,
                  "unresolved_ids": ["repo__pkg-9999"], "unresolved_instances": 1, "empty_patch_ids": [],
                  "error_ids": [], "incomplete_ids": [], "completed_ids": [*ids, "repo__pkg-9999"],
                  "completed_instances": 301}
        path = self.write_json("model.run.json", report)
        code, out, err = self.run_gate("import", "swebench", str(path))
        self.assertEqual(code, 0, err)
        self.assertEqual(len(out.splitlines()), 301)

    def test_clean_swebench_report_has_no_notes(self) -> None:
        """NumberReplacer (len(primary) > 1 -> > 0): an id in exactly one list is not 'counted as' anything."""
        report = {"schema_version": 2, "total_instances": 2, "resolved_ids": ["a__b-1"], "unresolved_ids": ["a__b-2"],
                  "empty_patch_ids": [], "error_ids": [], "incomplete_ids": []}
        code, _, err = self.run_gate("import", "swebench", str(self.write_json("r.json", report)))
        self.assertEqual(code, 0, err)
        self.assertNotIn("counted as", err)
        report["error_ids"] = ["a__b-2"]  # now in two lists: the note is due
        code, _, err = self.run_gate("import", "swebench", str(self.write_json("r2.json", report)))
        self.assertEqual(code, 0, err)
        self.assertIn("a__b-2: in error_ids, unresolved_ids; counted as error_ids", err)

    def test_findings_name_the_smallest_task_ids_whatever_the_order(self) -> None:
        """ReplaceComparisonOperator_Lt_Is and ReplaceUnaryOperator_USub_Not in _Sample.add: past the
        limit, a smaller item must replace the largest kept one."""
        manifest, records = valid_ledger(passes=2, fails=2, unscoreable=())
        extra = [f"g-{i:02d}" for i in range(14)]
        # The smallest first, then the largest nine: the last four sort between the kept ones.
        for tid in [extra[0], *reversed(extra[1:])]:
            records.append(record(tid, "fail", attempt=2))
        ids = [r["task_id"] for r in records]
        manifest["dataset"].update(task_count=len(ids), task_ids=sorted(ids), task_ids_sha256=ids_digest(ids))
        manifest["attempt_budget"] = 2
        _, report = self.check_json(manifest, records)
        message = next(f["message"] for f in report["findings"] if f["code"] == "attempt_gap")
        self.assertEqual(message.split(": ", 1)[1], ", ".join(extra[:10]) + " and 4 more")

    def test_samples_stratum_interval_equals_headline_for_one_stratum(self) -> None:
        """ReplaceBinaryOperator_Mul_Mod on a stratum's c_sq: with every task in one stratum, the
        stratum's clustered interval is the headline's."""
        budget = 2
        pats = {"neg": "ff", "pos": "pp", **{f"t{i}": p for i, p in enumerate(["pp", "pf", "pf", "ff", "pp", "pf", "fp"])}}
        records = [record(t, {"p": "pass", "f": "fail"}[c], attempt=i, stratum="only")
                   for t, pat in pats.items() for i, c in enumerate(pat, 1)]
        ids = list(pats)
        manifest, _ = valid_ledger()
        manifest["dataset"] = {"name": "d", "task_count": len(ids), "task_ids_sha256": ids_digest(ids),
                               "strata": {"only": len(ids)}}
        manifest.update(attempt_mode="samples", attempt_budget=budget)
        manifest["controls"] = [{"task_id": "neg", "expected": "fail", "role": "negative"},
                                {"task_id": "pos", "expected": "pass", "role": "positive"}]
        code, report = self.check_json(manifest, records)
        self.assertEqual(code, 0, report["findings"])
        (stratum,) = report["strata"]
        for key in ("k", "n", "rate", "ci_low", "ci_high"):
            self.assertEqual(stratum["rate"][key], report["headline"][key], key)

    def test_samples_secondary_interval_is_symmetric_and_clipped(self) -> None:
        """ReplaceBinaryOperator_Sub_Mod and NumberReplacer on the samples-mode secondary's lower bound."""
        for pats in ({"neg": "fff", "pos": "ppp", "a": "pfp", "b": "ffp", "c": "pup"},
                     {"neg": "fff", "pos": "pff", **{f"z{i}": "fff" for i in range(12)}}):
            records = [record(t, {"p": "pass", "f": "fail", "u": "unscoreable"}[c], "env_flake" if c == "u" else None,
                              attempt=i) for t, pat in pats.items() for i, c in enumerate(pat, 1)]
            ids = list(pats)
            manifest, _ = valid_ledger()
            manifest["controls"] = [{"task_id": "neg", "expected": "fail", "role": "negative"},
                                    {"task_id": "pos", "expected": "pass", "role": "positive"}]
            manifest["dataset"] = {"name": "d", "task_count": len(ids), "task_ids_sha256": ids_digest(ids)}
            manifest.update(attempt_mode="samples", attempt_budget=3)
            _, report = self.check_json(manifest, records)
            sec = report["secondary"]
            half = sec["ci_high"] - sec["rate"]
            self.assertGreater(half, 0)
            self.assertAlmostEqual(sec["ci_low"], max(0.0, sec["rate"] - half), places=12)
            self.assertGreaterEqual(sec["ci_low"], 0.0)

    def test_svg_note_sits_inside_the_plot(self) -> None:
        """ReplaceBinaryOperator_Add_BitAnd on the 'n/a' note's x (LEFT + 4 -> LEFT & 4)."""
        manifest, records = valid_ledger(passes=1, fails=1, unscoreable=())
        records += [record(f"u-{i}", "unscoreable", "env_flake", stratum="s") for i in range(3)]
        for r in records[:2]:
            r["stratum"] = "s"
        ids = [r["task_id"] for r in records]
        manifest["dataset"].update(task_count=len(ids), task_ids=sorted(ids), task_ids_sha256=ids_digest(ids))
        manifest["metrics"] = [{"name": "pass_rate", "numerator": "outcome == 'pass'", "denominator": "dataset.task_count"},
                               {"name": "u_pass", "numerator": "outcome == 'pass'", "denominator": "task_id == 'nope'"}]
        code, out, err = self.check(manifest, records, "--format", "svg")
        self.assertIn(code, (0, 1), err)
        notes = [t for t in ET.fromstring(out).iter(f"{SVG}text") if t.get("class") == "note"]
        self.assertTrue(notes, out)
        axis = [float(line.get("x1", "nan")) for line in ET.fromstring(out).iter(f"{SVG}line")]
        left = min(x for x in axis if x == x)
        for note in notes:
            self.assertGreater(float(note.get("x", "0")), left, note.text)

    def test_compare_markdown_lists_findings_only_when_there_are_some(self) -> None:
        """AddNot on render_compare_markdown's `if comp.findings`."""
        manifest, records = valid_ledger()
        a_m, a_r = self.write_json("a.json", manifest), self.write_jsonl("a.jsonl", records)
        other = json.loads(json.dumps(manifest))
        other["envelope"]["network"] = "on"
        b_m, b_r = self.write_json("b.json", other), self.write_jsonl("b.jsonl", records)
        code, out, _ = self.run_gate("compare", "--manifest", str(a_m), "--runs", str(a_r), "--against-manifest",
                                     str(b_m), "--against-runs", str(b_r), "--format", "markdown")
        self.assertEqual(code, 1)
        self.assertIn("**Findings**", out)
        self.assertIn("`envelope_mismatch`", out)
        code, out, _ = self.run_gate("compare", "--manifest", str(a_m), "--runs", str(a_r), "--against-manifest",
                                     str(a_m), "--against-runs", str(a_r), "--format", "markdown")
        self.assertEqual(code, 0)
        self.assertNotIn("**Findings**", out)

    def test_declared_digest_message_shows_twelve_hex_digits(self) -> None:
        """NumberReplacer on the declared-digest prefix ([:12] -> [:11])."""
        manifest, records = valid_ledger()
        manifest["dataset"]["task_ids_sha256"] = "0" * 64
        _, report = self.check_json(manifest, records)
        message = next(f["message"] for f in report["findings"] if f["code"] == "dataset_digest_mismatch")
        declared = ids_digest(manifest["dataset"]["task_ids"])
        self.assertIn(f"hash to {declared[:12]}, but", message)

    def test_long_stratum_names_are_aligned(self) -> None:
        """ReplaceBinaryOperator_Add_BitOr on the strata label width (len + 1 -> len | 1)."""
        manifest, records = valid_ledger(passes=2, fails=2, unscoreable=())
        long_name = "a-13-chr-name"  # odd length >= 12: len | 1 == len, len + 1 is one more
        for r in records:
            r["stratum"] = long_name
        manifest["dataset"]["strata"] = {long_name: len(records)}
        code, out, err = self.check(manifest, records)
        self.assertEqual(code, 0, err)
        self.assertIn(f"\n  {long_name} : 2/4 = 0.500", out)

    def samples_ledger(self, pats: dict[str, str], strata: dict[str, str] | None = None) -> tuple[int, dict]:
        words = {"p": "pass", "f": "fail", "u": "unscoreable"}
        records = [record(t, words[c], "env_flake" if c == "u" else None, attempt=i,
                          **({"stratum": strata[t]} if strata else {}))
                   for t, pat in pats.items() for i, c in enumerate(pat, 1)]
        ids = list(pats)
        manifest, _ = valid_ledger()
        manifest["dataset"] = {"name": "d", "task_count": len(ids), "task_ids_sha256": ids_digest(ids)}
        if strata:
            manifest["dataset"]["strata"] = {s: list(strata.values()).count(s) for s in sorted(set(strata.values()))}
        manifest["controls"] = [{"task_id": "neg", "expected": "fail", "role": "negative"},
                                {"task_id": "pos", "expected": "pass", "role": "positive"}]
        manifest.update(attempt_mode="samples", attempt_budget=len(next(iter(pats.values()))))
        return self.check_json(manifest, records)

    def test_samples_attempt_reasons_keep_their_names(self) -> None:
        """AddNot in _task_exit (a declared reason of an unscoreable attempt became '(uncoded)')."""
        code, report = self.samples_ledger({"neg": "ff", "pos": "pp", "a": "pu", "b": "uu"})
        self.assertEqual(code, 0, report["findings"])
        self.assertEqual(report["ledger"]["unscoreable_attempt_reasons"], {"env_flake": 3})

    def test_one_task_stratum_has_a_rate_in_samples_mode(self) -> None:
        """NumberReplacer in _samples_rate (tasks == 0 -> tasks == 1): one task is a rate, not n/a."""
        pats = {"neg": "ff", "pos": "pp", "a": "pf"}
        code, report = self.samples_ledger(pats, {"neg": "big", "pos": "big", "a": "solo"})
        self.assertEqual(code, 0, report["findings"])
        solo = next(s for s in report["strata"] if s["name"] == "solo")
        self.assertIsNotNone(solo["rate"])
        self.assertEqual(solo["rate"]["rate"], 0.5)

    def test_a_declared_stratum_may_be_empty(self) -> None:
        """NumberReplacer on the strata minimum (integer(key, 0) -> integer(key, 1))."""
        manifest, records = valid_ledger()
        for r in records:
            r["stratum"] = "s"
        manifest["dataset"]["strata"] = {"s": len(records), "empty": 0}
        code, out, err = self.check(manifest, records)
        self.assertEqual(code, 0, out + err)
        manifest["dataset"]["strata"]["empty"] = -1
        self.assertInputError(self.check(manifest, records), "dataset.strata.empty")


class CardStrataZero(GateCase):
    """A hand-edited card with a zero-count stratum is drift (exit 1), not malformed input (exit 2)."""

    def test_zero_count_stratum_in_card_is_card_drift(self) -> None:
        import shutil

        source = gate.Path(__file__).resolve().parent.parent / "examples" / "card"
        for name in ("tasks.json", "card.json", "bench.manifest.json", "runs.jsonl", "noedit.jsonl", "gold.jsonl"):
            shutil.copy(source / name, self.dir / name)
        card = json.loads((self.dir / "card.json").read_text())
        card["strata"]["rust:narrow"] = 0
        (self.dir / "card.json").write_text(json.dumps(card, indent=2))
        code, out, err = self.run_gate("--manifest", str(self.dir / "bench.manifest.json"),
                                       "--runs", str(self.dir / "runs.jsonl"), "--format", "json")
        self.assertEqual(code, 1, err)
        codes = [f["code"] for f in json.loads(out)["findings"]]
        self.assertIn("card_drift", codes)


class SecondRoundSurvivors(GateCase):
    """Kills mutants that survived the second cosmic-ray sample (seed 20261130)."""

    def test_the_missing_one_of_tasks_and_card_is_the_field_named(self) -> None:
        manifest, records = valid_ledger()
        manifest["dataset"]["tasks"] = "tasks.json"
        code, _, err = self.check(manifest, records)
        self.assertEqual(code, 2)
        self.assertIn("dataset.card: ", err)

    def test_a_control_with_the_wrong_expectation_says_what_it_must_expect(self) -> None:
        for role, expected, must in (("negative", "pass", "fail"), ("positive", "fail", "pass")):
            with self.subTest(role=role):
                manifest, records = valid_ledger()
                manifest["controls"][0] = {"task_id": "neg-01", "expected": expected, "role": role}
                code, _, err = self.check(manifest, records)
                self.assertEqual(code, 2)
                self.assertIn(f"a {role} control must expect {must}", err)

    def test_a_stored_zip_member_is_readable(self) -> None:
        import zipfile

        source = FIXTURES / "inspect" / "tiny-success-deflate.eval"
        target = self.dir / "stored.eval"
        with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as zout:
            for info in zin.infolist():
                zout.writestr(info.filename, zin.read(info.filename))
        code, out, err = self.run_gate("import", "inspect", str(target))
        self.assertEqual(code, 0, err)
        self.assertEqual(sum(json.loads(line)["outcome"] == "pass" for line in out.splitlines()), 6)

    def test_minimum_detectable_difference_on_one_task(self) -> None:
        import math
        from statistics import NormalDist

        z = NormalDist().inv_cdf(0.975) + NormalDist().inv_cdf(0.8)
        self.assertAlmostEqual(gate.minimum_detectable_difference(1, 0.9), z * math.sqrt(2 * 0.25 / 1), places=12)
        self.assertAlmostEqual(gate.minimum_detectable_difference(40, 0.725), z * math.sqrt(2 * 0.725 * 0.275 / 40),
                               places=12)

    def test_only_a_positive_role_expecting_pass_counts_as_the_positive_control(self) -> None:
        manifest, records = valid_ledger()
        manifest["controls"] = [{"task_id": "neg-01", "expected": "fail", "role": "negative"},
                                {"task_id": "pos-01", "expected": "pass", "role": "smoke"}]
        self.assertIn("controls_incomplete", self.codes(manifest, records))

    def test_a_finding_lists_the_ten_smallest_tasks(self) -> None:
        manifest, records = valid_ledger()
        slow = sorted(r["task_id"] for r in records if r["task_id"].startswith("t-"))[:12]
        for r in records:
            if r["task_id"] in slow:
                r["wall_clock_s"] = 1000
        _, report = self.check_json(manifest, records)
        message = next(f["message"] for f in report["findings"] if f["code"] == "envelope_exceeded")
        for tid in slow[:10]:
            self.assertIn(f"{tid}#1", message)
        for tid in slow[10:]:
            self.assertNotIn(f"{tid}#1", message)
        self.assertIn("and 2 more", message)

    def test_a_withheld_row_note_sits_on_its_row(self) -> None:
        rows = [gate.PlotRow("a", 0.5, 0.4, 0.6), gate.PlotRow("b", None, 0, 0, "withheld")]
        svg = ET.fromstring(gate.render_svg("t", [("axis", 0.0, 1.0, rows)]))
        ns = "{http://www.w3.org/2000/svg}"
        labels = {t.text: float(t.get("y")) for t in svg.iter(f"{ns}text") if t.text in ("a", "b")}
        note = next(t for t in svg.iter(f"{ns}text") if t.get("class") == "note")
        self.assertEqual(float(note.get("y")), labels["b"])

    def test_secondary_exists_whenever_a_task_was_scored(self) -> None:
        manifest, records = valid_ledger(passes=1, fails=2, unscoreable=())
        _, report = self.check_json(manifest, records)
        self.assertEqual((report["secondary"]["k"], report["secondary"]["n"]), (1, 3))

    def test_samples_headline_shows_a_fractional_count(self) -> None:
        manifest, records = valid_ledger(passes=2, fails=2, unscoreable=())
        manifest.update(attempt_mode="samples", attempt_budget=3)
        samples = []
        for r in records:
            for attempt, outcome in enumerate(("pass", "fail", "fail") if r["task_id"] == "t-001" else (r["outcome"],) * 3, 1):
                samples.append(record(r["task_id"], outcome, attempt=attempt))
        _, out, _ = self.check(manifest, samples)
        self.assertIn("pass@1      : 1.33/4 = 0.333", out)

    def test_mixed_detail_types_list_in_a_fixed_order(self) -> None:
        manifest, records = valid_ledger()
        manifest["attempt_budget"] = 2
        records.append(record("t-040", "unscoreable", None))
        records.append(record("t-040", "unscoreable", "Zed"))
        manifest["dataset"]["task_count"] += 1
        ids = sorted({r["task_id"] for r in records})
        manifest["dataset"]["task_ids"] = ids
        manifest["dataset"]["task_ids_sha256"] = ids_digest(ids)
        _, report = self.check_json(manifest, records)
        message = next(f["message"] for f in report["findings"] if f["code"] == "uncoded_unscoreable")
        self.assertLess(message.index("t-040#1='Zed'"), message.index("t-040#1=None"))

    def test_a_digest_in_a_message_is_cut_at_64_characters(self) -> None:
        manifest, records = valid_ledger()
        manifest["dataset"]["task_ids_sha256"] = "a" * 64 + "XYZ"
        _, report = self.check_json(manifest, records)
        message = next(f["message"] for f in report["findings"] if f["code"] == "dataset_digest_mismatch")
        self.assertIn("'" + "a" * 64 + "'", message)
        self.assertNotIn("X", message)

    def test_exactly_five_stray_ids_are_listed_without_a_count(self) -> None:
        data = json.loads((FIXTURES / "swebench" / "experiments-results.json").read_text())
        ids = (FIXTURES / "swebench" / "verified-dataset-ids.txt").read_text().split()
        data["resolved"] = [*data["resolved"], *(f"stray-{i}" for i in range(5))]
        results = self.write_json("results.json", data)
        id_file = self.write_text("ids.txt", "\n".join(ids) + "\n")
        code, _, err = self.run_gate("import", "swebench", str(results), "--dataset-ids", str(id_file))
        self.assertEqual(code, 2)
        self.assertIn("stray-4", err)
        self.assertNotIn("in all", err)
