"""The report card in every format: the text layout, the JSON report and its agreement with the text,
the Markdown tables and the SVG plot (points on the numbers, safe markup, same bytes every run).

Expected values: intervals and rate lines from tests/oracles.py; file hashes from hashlib.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import gate
from tests.builders import declare, metric, record, replaced, retry_ledger, strata_ledger, valid_ledger, with_strata
from tests.oracles import ids_digest, rate_text, sha256_of, wilson, wilson_z, z_of
from tests.support import ROOT, SVG_NS, GateCase, assert_safe_svg, ci_lines_by_y, markdown_tables, run_cli


class TextReport(GateCase):
    """The text report card."""

    def run_text(self, manifest: dict[str, Any], records: list[Any], *extra: str) -> tuple[int, list[str], Path, Path]:
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_jsonl("runs.jsonl", records)
        code, out, err = self.run_gate("--manifest", str(m), "--runs", str(r), *extra)
        self.assertEqual(err, "")
        self.assertTrue(out.endswith("\n"))
        return code, out.splitlines(), m, r

    def test_documented_layout_for_a_29_8_3_ledger(self) -> None:
        """A 29/8/3 ledger prints the documented layout line for line: claim, dataset, entries, exits, buckets,
        headline, secondary, envelope, rerun recipe, hashes and verdict.
        """
        manifest, records = valid_ledger()
        code, lines, m, r = self.run_text(manifest, records)
        self.assertEqual(code, 0)
        digest = ids_digest([rec["task_id"] for rec in records])
        expected_in_order = [
            "claim       : test-claim",
            f"dataset     : test-suite sha256 {digest[:12]}",
            "entries     : 40",
            "exits       : 40",
            "  pass        : 29",
            "  fail        : 8",
            "  unscoreable : 3 (harness_timeout 2, grader_error 1; ceiling 0.2 of 40 tasks)",
            "pass_rate   : 29/40 = 0.725  95% CI [0.572, 0.839]  <- headline",
        ]
        self.assertEqual(lines[:len(expected_in_order)], expected_in_order)
        secondary = lines[len(expected_in_order)]
        self.assertTrue(secondary.startswith("            : 29/37 = 0.784  95% CI [0.628, 0.886]  <- "), secondary)
        self.assertIn("secondary", secondary)
        self.assertEqual(lines[-1], "verdict     : PUBLISHABLE")
        text = "\n".join(lines)
        self.assertIn(sha256_of(m), text)
        self.assertIn(sha256_of(r), text)
        rerun = [line for line in lines if line.startswith("rerun")]
        self.assertEqual(len(rerun), 1)
        self.assertIn(manifest["rerun_recipe"], rerun[0])
        envelope = [line for line in lines if line.startswith("envelope")]
        self.assertEqual(len(envelope), 1)
        for key, value in manifest["envelope"].items():
            self.assertIn(key, envelope[0])
            self.assertIn(str(value), envelope[0])

    def test_hashes_are_labelled(self) -> None:
        """The manifest's and the runs' sha256 are printed on labelled lines."""
        manifest, records = valid_ledger()
        _, lines, m, r = self.run_text(manifest, records)
        self.assertIn(f"manifest    : sha256 {sha256_of(m)}", lines)
        self.assertIn(f"runs        : sha256 {sha256_of(r)}", lines)

    def test_unscoreable_reasons_count_desc_then_name(self) -> None:
        """Unscoreable reasons are listed by count, then by name."""
        manifest, records = valid_ledger(passes=20, fails=10, unscoreable=(
            "harness_timeout", "env_flake", "grader_error", "grader_error", "harness_timeout", "missing_artifact",
            "env_flake", "grader_error"))
        _, lines, _, _ = self.run_text(manifest, records)
        self.assertIn("  unscoreable : 8 (grader_error 3, env_flake 2, harness_timeout 2, missing_artifact 1; ceiling 0.2 of 38 tasks)", lines)

    def test_per_stratum_lines_with_intervals(self) -> None:
        """Each stratum gets a line with its rate and Wilson interval."""
        manifest, records = valid_ledger()
        sizes = {"repo_edit": 24, "test_write": 10, "refactor": 6}
        manifest["dataset"]["strata"] = sizes
        labelled = with_strata(records, sizes)
        _, lines, _, _ = self.run_text(manifest, labelled)
        for name, size in sizes.items():
            passed = sum(1 for rec in labelled if rec["stratum"] == name and rec["outcome"] == "pass")
            with self.subTest(stratum=name):
                self.assertIn(f"  {name:<12}: {rate_text(passed, size)}", lines)
        # records 0-23: neg-01 fail, pos-01 and 22 passes; 24-33: 6 passes, 4 fails; 34-39: 3 fails, 3 unscoreable
        self.assertIn(f"  {'repo_edit':<12}: 23/24 = 0.958  95% CI", "\n".join(lines))
        self.assertIn(f"  {'refactor':<12}: 0/6 = 0.000  95% CI [0.000, ", "\n".join(lines))

    def test_blocked_card_lists_every_finding(self) -> None:
        """A BLOCKED card lists every finding after the verdict, one '! code: message' line each."""
        manifest, records = valid_ledger()
        records = [dict(r, wall_clock_s=60) for r in replaced(records, "neg-01", outcome="pass")]
        records = replaced(records, "t-001", wall_clock_s=1000)
        code, lines, _, _ = self.run_text(manifest, records)
        self.assertEqual(code, 1)
        _, report = self.check_json(manifest, records)
        expected = [f"  ! {f['code']}: {f['message']}" for f in report["findings"]]
        self.assertEqual({f["code"] for f in report["findings"]}, {"control_violated", "envelope_exceeded"})
        verdict = lines.index("verdict     : BLOCKED")
        self.assertEqual(lines[verdict + 1:], expected)

    def test_zero_scoreable_tasks_prints_na(self) -> None:
        """With nothing scoreable the headline is 0/3 and the secondary prints n/a, never /0."""
        manifest, records = retry_ledger(1, {"neg-01": [("unscoreable", "harness_timeout")],
                                             "pos-01": [("unscoreable", "grader_error")],
                                             "t-1": [("unscoreable", "env_flake")]})
        code, lines, _, _ = self.run_text(manifest, records)
        self.assertEqual(code, 1)
        self.assertIn("pass_rate   : 0/3 = 0.000  95% CI [0.000, ", "\n".join(lines))
        secondary = lines[lines.index(next(x for x in lines if x.startswith("pass_rate"))) + 1]
        self.assertTrue(secondary.startswith("            : n/a"), secondary)
        self.assertNotIn("/0", secondary)
        _, report = self.check_json(manifest, records)
        self.assertIsNone(report["secondary"])
        self.assertEqual(report["headline"]["ci_low"], 0.0)

    def test_same_inputs_byte_identical_output(self) -> None:
        """The same inputs give byte-identical text and JSON."""
        manifest, records = valid_ledger()
        manifest["dataset"]["strata"] = {"repo_edit": 24, "test_write": 10, "refactor": 6}
        records = with_strata(records, {"repo_edit": 24, "test_write": 10, "refactor": 6})
        records = replaced(records, "t-001", wall_clock_s=1000)
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_jsonl("runs.jsonl", records)
        for fmt in ("text", "json"):
            with self.subTest(format=fmt):
                first = self.run_gate("--manifest", str(m), "--runs", str(r), "--format", fmt)
                second = self.run_gate("--manifest", str(m), "--runs", str(r), "--format", fmt)
                self.assertEqual(first, second)
                self.assertEqual(first[0], 1)

    def test_confidence_changes_label_and_numbers(self) -> None:
        """--confidence 0.9 changes the label and the interval, in the text and in the JSON."""
        manifest, records = valid_ledger()
        _, lines, _, _ = self.run_text(manifest, records, "--confidence", "0.9")
        z90 = z_of(0.9)
        low, high = wilson_z(29, 40, z90)
        self.assertIn(f"pass_rate   : 29/40 = 0.725  90% CI [{low:.3f}, {high:.3f}]  <- headline", lines)
        self.assertNotEqual(f"{low:.3f}", "0.572")  # the numbers moved, not only the label
        low2, high2 = wilson_z(29, 37, z90)
        self.assertIn(f"29/37 = 0.784  90% CI [{low2:.3f}, {high2:.3f}]", "\n".join(lines))
        self.assertNotIn("95% CI", "\n".join(lines))
        _, report = self.check_json(manifest, records, "--confidence", "0.9")
        self.assertAlmostEqual(report["headline"]["ci_low"], low, delta=1e-12)
        self.assertAlmostEqual(report["headline"]["ci_high"], high, delta=1e-12)

    def test_long_stratum_names_are_aligned(self) -> None:
        """A stratum name longer than the label column is followed by exactly one space before its colon."""
        manifest, records = valid_ledger(passes=2, fails=2, unscoreable=())
        long_name = "a-13-chr-name"  # 13 characters, longer than the 12-character label column
        for r in records:
            r["stratum"] = long_name
        manifest["dataset"]["strata"] = {long_name: len(records)}
        code, out, err = self.check(manifest, records)
        self.assertEqual(code, 0, err)
        self.assertIn(f"\n  {long_name} : 2/4 = 0.500", out)


class JsonReport(GateCase):
    """The JSON report."""

    def test_stable_top_level_and_values(self) -> None:
        """The JSON report has a stable top level and the ledger, headline, secondary, findings and input hashes of
        the 29/8/3 ledger.
        """
        manifest, records = valid_ledger()
        m = self.write_json("bench.manifest.json", manifest)
        r = self.write_jsonl("runs.jsonl", records)
        code, out, err = self.run_gate("--manifest", str(m), "--runs", str(r), "--format", "json")
        self.assertEqual((code, err), (0, ""))
        report = json.loads(out)
        for key in ("verdict", "claim_id", "ledger", "headline", "secondary", "strata", "findings", "inputs"):
            self.assertIn(key, report)
        self.assertEqual(report["verdict"], "PUBLISHABLE")
        self.assertEqual(report["claim_id"], "test-claim")
        ledger = report["ledger"]
        self.assertEqual({k: ledger[k] for k in ("entries", "exits", "pass", "fail", "unscoreable")},
                         {"entries": 40, "exits": 40, "pass": 29, "fail": 8, "unscoreable": 3})
        self.assertEqual(ledger["unscoreable_reasons"], {"harness_timeout": 2, "grader_error": 1})
        head, sec = report["headline"], report["secondary"]
        self.assertEqual((head["k"], head["n"]), (29, 40))
        self.assertEqual(head["rate"], 0.725)
        self.assertAlmostEqual(head["ci_low"], 0.5716504419378943, delta=1e-9)
        self.assertAlmostEqual(head["ci_high"], 0.8389198375233267, delta=1e-9)
        self.assertEqual((sec["k"], sec["n"]), (29, 37))
        self.assertAlmostEqual(sec["rate"], 29 / 37, delta=1e-15)
        self.assertAlmostEqual(sec["ci_low"], 0.6280485160803084, delta=1e-9)
        self.assertAlmostEqual(sec["ci_high"], 0.8861348800661442, delta=1e-9)
        self.assertEqual(report["findings"], [])
        self.assertEqual(report["inputs"], {"manifest_sha256": sha256_of(m), "runs_sha256": sha256_of(r)})
        self.assertIsInstance(report["strata"], (list, dict))

    def test_json_agrees_with_text(self) -> None:
        """Every figure, finding and hash of the JSON report is in the text report too."""
        manifest, records = valid_ledger(passes=17, fails=19, unscoreable=("env_flake", "grader_error"))
        manifest["dataset"]["strata"] = {"a": 20, "b": 18}
        records = with_strata(records, {"a": 20, "b": 18})
        records = replaced(records, "t-030", outcome="PASS")
        _, out, _ = self.check(manifest, records)
        _, report = self.check_json(manifest, records)
        lines = out.splitlines()
        self.assertIn(f"verdict     : {report['verdict']}", lines)
        self.assertEqual(report["verdict"], "BLOCKED")
        ledger = report["ledger"]
        for label in ("entries", "exits"):
            self.assertIn(f"{label:<12}: {ledger[label]}", lines)
        for bucket in ("pass", "fail"):
            self.assertIn(f"  {bucket:<12}: {ledger[bucket]}", lines)
        head = report["headline"]
        self.assertIn(f"pass_rate   : {head['k']}/{head['n']} = {head['rate']:.3f}  95% CI "
                      f"[{head['ci_low']:.3f}, {head['ci_high']:.3f}]  <- headline", lines)
        sec = report["secondary"]
        self.assertIn(f"{sec['k']}/{sec['n']} = {sec['rate']:.3f}  95% CI [{sec['ci_low']:.3f}, {sec['ci_high']:.3f}]", out)
        for finding in report["findings"]:
            self.assertIn(f"  ! {finding['code']}: {finding['message']}", lines)
        self.assertEqual(sum(1 for line in lines if line.startswith("  ! ")), len(report["findings"]))
        self.assertIn(f"sha256 {report['inputs']['manifest_sha256']}", out)
        self.assertIn(f"sha256 {report['inputs']['runs_sha256']}", out)
        strata = report["strata"]
        entries = strata if isinstance(strata, list) else [{"name": k, **v} for k, v in strata.items()]
        names = {s["name"] for s in entries}
        self.assertEqual(names, {"a", "b"})
        for s in entries:
            rate = s["rate"]
            self.assertIn(f"  {s['name']:<12}: {rate['k']}/{rate['n']} = {rate['rate']:.3f}  95% CI "
                          f"[{rate['ci_low']:.3f}, {rate['ci_high']:.3f}]", lines)

    def test_finding_objects_have_code_and_message(self) -> None:
        """Each finding is an object of exactly code and message."""
        manifest, records = valid_ledger()
        records = replaced(records, "pos-01", outcome="fail")
        _, report = self.check_json(manifest, records)
        self.assertEqual(len(report["findings"]), 1)
        self.assertEqual(set(report["findings"][0]), {"code", "message"})
        self.assertEqual(report["findings"][0]["code"], "control_violated")
        self.assertTrue(report["findings"][0]["message"])

    def test_input_error_with_json_format_still_exits_2_on_stderr(self) -> None:
        """An input error under --format json prints nothing on stdout and one error line on stderr, exit 2."""
        manifest, records = valid_ledger()
        records[3]["attempt"] = "1"
        code, out, err = self.check(manifest, records, "--format", "json")
        self.assertEqual(out, "")
        self.assertInputError((code, out, err), "runs.jsonl:4:", "attempt")


class MarkdownReport(GateCase):
    """The Markdown report card."""

    def test_structure(self) -> None:
        """The Markdown card has the verdict in bold, a bucket table, and a rate table with the headline in bold and
        every stratum and metric.
        """
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
        """A BLOCKED Markdown card lists its findings as bullets, and pipes in names are escaped so every row keeps its cells."""
        manifest, records = strata_ledger()
        manifest["claim_id"] = "agent|x"
        manifest["metrics"].append(metric("pipe|metric", "outcome.upper == 1"))
        code, out, _ = self.check(manifest, records, "--format", "markdown", "--claim", "80%")
        self.assertEqual(code, 1)
        self.assertRegex(out, r"\*\*BLOCKED\*\*")
        findings = [line for line in out.splitlines() if line.startswith("- `")]
        self.assertEqual(len(findings), 2)
        self.assertTrue(findings[0].startswith("- `metric_undefined`"), findings)
        self.assertTrue(findings[1].startswith("- `claim_unsupported`"), findings)
        markdown_tables(out)  # every row still has as many cells as its header


class SvgReport(GateCase):
    """The SVG report card."""

    def test_points_sit_on_the_numbers(self) -> None:
        """Each SVG point and interval line sits on its rate and Wilson bounds, one row per point, with percent ticks."""
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
                    "metric pass_rate (headline)": (29, 40), "metric unscoreable_rate": (3, 40),
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
        """A BLOCKED SVG has the verdict in its title and escapes markup in the claim id."""
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
        """The SVG is byte-identical run to run, in-process and from another working folder."""
        manifest, records = strata_ledger()
        first = self.check(manifest, records, "--format", "svg")[1]
        second = self.check(manifest, records, "--format", "svg")[1]
        self.assertEqual(first.encode(), second.encode())
        proc = run_cli("--manifest", str(self.dir / "bench.manifest.json"), "--runs", str(self.dir / "runs.jsonl"),
                       "--format", "svg", cwd=Path("/"))
        self.assertEqual(proc.stdout.encode(), first.encode())

    def test_svg_note_sits_inside_the_plot(self) -> None:
        """An 'n/a' note in the SVG sits right of the axis start, inside the plot."""
        manifest, records = valid_ledger(passes=1, fails=1, unscoreable=())
        records += [record(f"u-{i}", "unscoreable", "env_flake", stratum="s") for i in range(3)]
        for r in records[:2]:
            r["stratum"] = "s"
        declare(manifest, [r["task_id"] for r in records])
        manifest["metrics"] = [{"name": "pass_rate", "numerator": "outcome == 'pass'", "denominator": "dataset.task_count"},
                               {"name": "u_pass", "numerator": "outcome == 'pass'", "denominator": "task_id == 'nope'"}]
        code, out, err = self.check(manifest, records, "--format", "svg")
        self.assertIn(code, (0, 1), err)
        notes = [t for t in ET.fromstring(out).iter(f"{SVG_NS}text") if t.get("class") == "note"]
        self.assertTrue(notes, out)
        axis = [float(line.get("x1", "nan")) for line in ET.fromstring(out).iter(f"{SVG_NS}line")]
        left = min(x for x in axis if x == x)
        for note in notes:
            self.assertGreater(float(note.get("x", "0")), left, note.text)

    def test_a_withheld_row_note_sits_on_its_row(self) -> None:
        """A withheld row's note is drawn at its row's height."""
        rows = [gate.PlotRow("a", 0.5, 0.4, 0.6), gate.PlotRow("b", None, 0, 0, "withheld")]
        svg = ET.fromstring(gate.render_svg("t", [("axis", 0.0, 1.0, rows)]))
        ns = "{http://www.w3.org/2000/svg}"
        labels = {t.text: float(t.get("y")) for t in svg.iter(f"{ns}text") if t.text in ("a", "b")}
        note = next(t for t in svg.iter(f"{ns}text") if t.get("class") == "note")
        self.assertEqual(float(note.get("y")), labels["b"])


class DeclaredButUnverified(GateCase):
    def test_strata_no_record_carries_are_declared_and_unverified(self) -> None:
        """Strata declared in the manifest but carried by no record used to print 'n/a (no tasks)' as if counted;
        they are printed as declared and unverified, in text and JSON (no task seen in them: 0 tasks, no rate)."""
        manifest, records = valid_ledger()
        manifest["dataset"]["strata"] = {"repo_edit": 24, "test_write": 10, "refactor": 6}
        _, out, _ = self.check(manifest, records)
        self.assertIn("  repo_edit   : declared 24, unverified (no record carries a stratum)", out)
        self.assertNotIn("n/a (no tasks)", out)
        _, report = self.check_json(manifest, records)
        self.assertEqual({s["name"]: (s["declared"], s["tasks"], s["rate"], s["verified"]) for s in report["strata"]},
                         {"repo_edit": (24, 0, None, False), "test_write": (10, 0, None, False),
                          "refactor": (6, 0, None, False)})


class ChartsFitTheirLabels(GateCase):
    """Every chart the gate draws sizes its label column to its longest label and its canvas to its title: no text
    runs past the canvas (old code: a fixed 300 px column cut "…0-16 (agent=agent-x-mini, version=2026-10-16)" in
    examples/compare/compare.svg and "gpt-5-mini-2025-08-07-medium-reasoning [cdef]" in rank's chart)."""

    def assertFits(self, svg: str, name: str) -> None:
        root = ET.fromstring(svg)
        width = float(root.get("width", "0"))
        for text in root.iter(f"{SVG_NS}text"):
            words = "".join(text.itertext())
            size = int(text.get("font-size", root.get("font-size", "12")))
            extent = gate.svg_text_width(words, size if size in gate.SVG_CHAR_PX else 12)
            x = float(text.get("x", "0"))
            anchor = text.get("text-anchor", "start")
            left = {"end": x - extent, "middle": x - extent / 2}.get(anchor, x)
            with self.subTest(chart=name, text=words[:40]):
                self.assertGreaterEqual(left, 0)
                self.assertLessEqual(left + extent, width)

    def test_every_shipped_chart_fits(self) -> None:
        rank = ROOT / "examples" / "rank" / "systems.json"
        charts = {
            "examples/compare/compare.svg": (ROOT / "examples" / "compare" / "compare.svg").read_text(encoding="utf-8"),
            "rank of the shipped systems": self.run_gate("rank", "--list", str(rank), "--format", "svg")[1],
            "examples/rank/rank.svg": (ROOT / "examples" / "rank" / "rank.svg").read_text(encoding="utf-8"),
            "the shipped example's card": self.run_gate("--manifest", str(ROOT / "bench.manifest.json"), "--runs",
                                                        str(ROOT / "runs.jsonl"), "--format", "svg")[1],
            "the card example": self.run_gate("--manifest", str(ROOT / "examples" / "card" / "bench.manifest.json"),
                                              "--runs", str(ROOT / "examples" / "card" / "runs.jsonl"), "--format",
                                              "svg")[1],
        }
        for name, svg in charts.items():
            self.assertFits(svg, name)

    def test_a_long_title_sets_the_canvas_width_with_ten_pixels_each_side(self) -> None:
        """The canvas is the label column, the 400 px plot and 40 px, or the title's width and 10 px each side,
        whichever is wider: a 100-character title (950 px at 15 px bold) gives 970 px, 76 characters 742 px, and 75
        (712.5 px) the plot's 740."""
        row = [("axis", 0.0, 1.0, [gate.PlotRow("s", 0.5, 0.25, 0.75)])]
        widths = {len(title): ET.fromstring(gate.render_svg(title, row)).get("width")
                  for title in ("t" * 100, "t" * 76, "t" * 75)}
        self.assertEqual(widths, {100: "970", 76: "742", 75: "740"})

    def test_a_long_label_widens_the_column_and_keeps_the_plot_whole(self) -> None:
        """A 120-character stratum name: the label column widens to hold it, and the plot keeps its 400 px."""
        svg = gate.render_svg("t", [("axis", 0.0, 1.0, [gate.PlotRow("s" * 120, 0.5, 0.25, 0.75)])])
        self.assertFits(svg, "long")
        root = ET.fromstring(svg)
        axis = next(line for line in root.iter(f"{SVG_NS}line") if line.get("class") == "axis")
        self.assertEqual(float(axis.get("x2", "0")) - float(axis.get("x1", "0")), 400)
        self.assertGreater(float(axis.get("x1", "0")), 120 * 7)
