"""compare: two runs of one suite paired task by task, the difference with Newcombe's interval and the
exact McNemar p, called real only when both say so, and refused when the suites, envelopes or attempt
contracts differ.

Expected values: the paired reference tables and the formulas in tests/oracles.py.
"""

from __future__ import annotations

import json
import re
from typing import Any

import gate
from tests.builders import as_samples, paired_ledgers, valid_ledger
from tests.oracles import PAIRED_VECTORS, ids_digest, minimum_detectable_difference, newcombe_paired, rate_text, wilson
from tests.support import EXAMPLE_COMPARE, SVG_NS, GateCase, assert_safe_svg, ci_lines_by_y, markdown_tables


class CompareCase(GateCase):
    """Writes both sides into the test's folder and runs compare."""

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


class PairedCompare(CompareCase):
    """The paired table, the difference and the reading."""

    def test_table_interval_and_p_against_reference_vectors(self) -> None:
        """compare gives each reference table's counts, difference, Newcombe interval, exact McNemar p and minimum
        detectable difference, and calls it real only when interval and p agree.
        """
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
                self.assertAlmostEqual(report["minimum_detectable_difference"], minimum_detectable_difference(n, (2 * a + b + c) / (2 * n)), places=9)
                self.assertEqual(report["a"]["verdict"], "PUBLISHABLE")
                self.assertEqual(report["b"]["verdict"], "PUBLISHABLE")

    def test_interval_excluding_zero_is_not_enough(self) -> None:
        """An interval that excludes zero with p ≥ 0.05 reads 'within noise'."""
        # (14, 5, 0, 22): Newcombe [0.011, 0.226] excludes 0 but exact p = 0.0625 >= 0.05
        code, out, _ = self.compare(*paired_ledgers(14, 5, 0, 22))
        self.assertEqual(code, 0)
        self.assertIn("within noise", out)
        self.assertNotIn("is real", out)

    def test_confidence_sets_alpha(self) -> None:
        """--confidence 0.9 sets alpha to 0.10: the same table becomes real at 90%, with a narrower interval."""
        # (14, 5, 0, 22): exact p = 0.0625; within noise at 95%, real at 90% (alpha 0.10)
        _, report = self.compare_json(*paired_ledgers(14, 5, 0, 22), "--confidence", "0.9")
        self.assertAlmostEqual(report["alpha"], 0.1, places=12)
        self.assertTrue(report["real"])
        self.assertGreater(report["difference"]["ci_low"], 0.011483)  # narrower than the 95% interval
        code, out, _ = self.compare(*paired_ledgers(14, 5, 0, 22), "--confidence", "0.9")
        self.assertEqual(code, 0)
        self.assertRegex(out, r"(?m)^reading\s*: the difference is real at 90% confidence$")

    def test_29_vs_30_is_within_noise(self) -> None:
        """29 against 30 of 40 prints both rates, the paired table, A - B, p = 1, 'within noise' and the minimum
        detectable difference.
        """
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
        expected = minimum_detectable_difference(40, 59 / 80)
        self.assertAlmostEqual(float(shown.group(1)), expected, delta=0.0005)
        self.assertGreater(expected, 0.025)

    def test_strongly_different_nested_pair_is_real(self) -> None:
        """35 against 10 of 40, nested, is real at 95%."""
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
        """The compare JSON carries the verdict, both sides, the table, the difference, p, real and the minimum
        detectable difference.
        """
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
        """Envelopes that differ block with envelope_mismatch naming the fields that differ and no other."""
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
        """An envelope value of '40' against 40 is a mismatch."""
        ma, ra, mb, rb = paired_ledgers(29, 0, 1, 10)
        mb["envelope"]["max_steps"] = "40"
        _, report = self.compare_json(ma, ra, mb, rb)
        self.assertEqual([f["code"] for f in report["findings"]], ["envelope_mismatch"])
        self.assertIn("max_steps", report["findings"][0]["message"])

    def test_envelope_boolean_is_not_a_number(self) -> None:
        """An envelope value of true against 1 is a mismatch."""
        # JSON true and 1 are different values; "every envelope field equal" must see the difference
        ma, ra, mb, rb = paired_ledgers(29, 0, 1, 10)
        ma["envelope"]["gpu"] = True
        mb["envelope"]["gpu"] = 1
        _, report = self.compare_json(ma, ra, mb, rb)
        self.assertEqual([f["code"] for f in report["findings"]], ["envelope_mismatch"])
        self.assertIn("gpu", report["findings"][0]["message"])

    def test_dataset_digest_mismatch(self) -> None:
        """Two PUBLISHABLE runs of different suites block with dataset_digest_mismatch."""
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
        """The findings of a blocked side are reported prefixed A: or B:."""
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


class AttemptContracts(GateCase):
    """Both sides must run under the same attempt contract."""

    def side(self, name: str, manifest: dict[str, Any], records: list[dict[str, Any]]) -> tuple[str, str]:
        m = self.write_json(f"{name}.manifest.json", manifest)
        r = self.write_jsonl(f"{name}.jsonl", records)
        return str(m), str(r)

    def samples(self, first: str, rest: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """valid_ledger(10, 10) as 3 samples a task: the controls as before, every other task `first`, then `rest` twice."""
        manifest, records = valid_ledger(passes=10, fails=10, unscoreable=())
        others = {r["task_id"]: (first, rest, rest) for r in records if r["task_id"] not in ("neg-01", "pos-01")}
        return as_samples(manifest, records, 3, others)

    def test_samples_mode_pairs_on_the_first_sample(self) -> None:
        """In samples mode compare pairs tasks on their first sample and says so; each side's headline is still its
        pass@1 over all samples.
        """
        a = self.side("a", *self.samples("fail", "pass"))  # first sample fails
        b = self.side("b", *self.samples("pass", "fail"))  # first sample passes
        _code, out, _err = self.run_gate("compare", "--manifest", a[0], "--runs", a[1], "--against-manifest", b[0],
                                       "--against-runs", b[1], "--format", "json")
        report = json.loads(out)
        # A's first samples fail and its later ones pass: pass@1 favours A, first samples favour B.
        self.assertGreater(report["a"]["headline"]["rate"], report["b"]["headline"]["rate"])
        self.assertEqual(report["paired"], {"both_pass": 1, "a_only": 0, "b_only": 18, "neither": 1})
        self.assertAlmostEqual(report["difference"]["value"], -18 / 20)
        _code, text, _ = self.run_gate("compare", "--manifest", a[0], "--runs", a[1], "--against-manifest", b[0],
                                      "--against-runs", b[1])
        self.assertIn("paired on   : A 1/20, B 19/20 (first samples", text)

    def test_different_attempt_contracts_are_not_compared(self) -> None:
        """Runs under different attempt budgets block with attempt_contract_mismatch."""
        manifest, records = valid_ledger()
        other = dict(manifest, attempt_budget=2)
        a, b = self.side("a", manifest, records), self.side("b", other, records)
        code, out, _ = self.run_gate("compare", "--manifest", a[0], "--runs", a[1], "--against-manifest", b[0],
                                     "--against-runs", b[1], "--format", "json")
        self.assertEqual(code, 1)
        self.assertIn("attempt_contract_mismatch", [f["code"] for f in json.loads(out)["findings"]])


class CompareRendering(CompareCase):
    """compare as Markdown and SVG."""

    def test_markdown(self) -> None:
        """compare --format markdown shows the verdict, the reading and the paired 2×2 table."""
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
        """compare --format svg is a safe SVG whose points and interval lines sit on both rates and on the difference,
        on their two axes, byte-identical run to run.
        """
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
        dlo, dhi = newcombe_paired(29, 0, 1, 10, 0.95)
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

    def test_compare_markdown_lists_findings_only_when_there_are_some(self) -> None:
        """compare's Markdown lists findings only when there are some."""
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


class CompareExample(GateCase):
    """examples/compare/: two PUBLISHABLE runs of one suite, and the tool's own output beside them."""

    def test_example_is_current_and_within_noise(self) -> None:
        """examples/compare's text and SVG are exactly what compare prints today, for one suite under one envelope."""
        files = [EXAMPLE_COMPARE / name for name in ("a.manifest.json", "a.jsonl", "b.manifest.json", "b.jsonl")]
        args = ["compare", "--manifest", str(files[0]), "--runs", str(files[1]),
                "--against-manifest", str(files[2]), "--against-runs", str(files[3])]
        code, text, err = self.run_gate(*args)
        self.assertEqual(code, 0, text + err)
        self.assertIn("within noise", text)
        self.assertEqual(text, (EXAMPLE_COMPARE / "compare.txt").read_text(encoding="utf-8"),
                         "compare.txt is stale: run python3 examples/compare/make_example.py")
        code, svg, _ = self.run_gate(*args, "--format", "svg")
        self.assertEqual(svg, (EXAMPLE_COMPARE / "compare.svg").read_text(encoding="utf-8"),
                         "compare.svg is stale: run python3 examples/compare/make_example.py")
        assert_safe_svg(self, svg)
        ma, mb = (json.loads(f.read_text(encoding="utf-8")) for f in files[0::2])
        self.assertEqual(ma["dataset"]["task_ids_sha256"], mb["dataset"]["task_ids_sha256"])
        self.assertEqual(ma["envelope"], mb["envelope"])
        self.assertEqual(ma["dataset"]["task_ids_sha256"], ids_digest(ma["dataset"]["task_ids"]))


class ComparableInstruments(GateCase):
    def test_two_envelopes_that_do_not_name_the_instrument_are_refused(self) -> None:
        """compare refuses two ledgers whose envelopes lack the four fields: each side is envelope_incomplete."""
        ma, ra, mb, rb = paired_ledgers(26, 3, 4, 7)
        for m in (ma, mb):
            del m["envelope"]["toolchain_sha"]
        a, b = self.write_json("a.json", ma), self.write_json("b.json", mb)
        code, out, err = self.run_gate("compare", "--manifest", str(a), "--runs", str(self.write_jsonl("a.jsonl", ra)),
                                       "--against-manifest", str(b), "--against-runs", str(self.write_jsonl("b.jsonl", rb)),
                                       "--format", "json")
        self.assertEqual(code, 1, err)
        codes = [f["code"] for f in json.loads(out)["findings"]]
        self.assertIn("A:envelope_incomplete", codes)
        self.assertIn("B:envelope_incomplete", codes)
