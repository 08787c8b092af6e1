"""Tests written beside the restructure; they move into the behaviour files once tests/ is reorganised."""

from __future__ import annotations

import json
import time

from tests.support import FIXTURES, GateCase, valid_ledger


class ImportedTaskIds(GateCase):
    def test_an_imported_id_with_a_control_character_is_refused_as_check_would(self) -> None:
        """Every importer applies check's task-ID rule, so import never writes a ledger check refuses."""
        report = json.loads((FIXTURES / "swebench" / "report-v2-synthetic.json").read_text())
        first = report["resolved_ids"][0]
        bad = first + "\x07"
        for key in ("resolved_ids", "completed_ids", "submitted_ids"):
            if key in report:
                report[key] = [bad if x == first else x for x in report[key]]
        path = self.write_json("report.json", report)
        self.assertInputError(self.run_gate("import", "swebench", str(path)), "report.json", "resolved_ids[", "printable")
        log = json.loads((FIXTURES / "inspect" / "tiny-success.json").read_text())
        log["eval"]["dataset"]["sample_ids"][0] = "1\n"
        path = self.write_json("log.json", log)
        self.assertInputError(self.run_gate("import", "inspect", str(path)), "log.json", "sample_ids[0]", "printable")
        results = json.loads((FIXTURES / "terminal-bench" / "results.json").read_text())
        results["results"][0]["task_id"] += "\x1b"
        path = self.write_json("results.json", results)
        self.assertInputError(self.run_gate("import", "terminal-bench", str(path)), "results[0].task_id", "printable")


class LinearTime(GateCase):
    """Generous bounds that only a super-linear blow-up exceeds (the work takes milliseconds)."""

    def test_a_duplicate_among_30000_declared_ids_is_named_quickly(self) -> None:
        """A manifest's repeated task ID is found in one pass, not one list scan per ID."""
        manifest, records = valid_ledger()
        ids = [f"t-{i:05d}" for i in range(30000)] + ["t-12345"]
        manifest["dataset"]["task_ids"] = ids
        started = time.perf_counter()
        result = self.check(manifest, records)
        self.assertLess(time.perf_counter() - started, 3.0)
        self.assertInputError(result, "dataset.task_ids", "'t-12345' is listed twice")

    def test_a_swebench_report_of_30000_instances_imports_quickly(self) -> None:
        """The SWE-bench importers look instances up in sets, not lists."""
        ids = [f"repo__repo-{i}" for i in range(30000)]
        report = {"schema_version": 2, "total_instances": 30000, "resolved_ids": ids[:6000],
                  "unresolved_ids": ids[6000:9000] + ids[10000:], "error_ids": ids[9000:9500],
                  "empty_patch_ids": ids[9500:9900], "incomplete_ids": ids[9900:10000]}
        path = self.write_json("big.json", report)
        started = time.perf_counter()
        code, out, err = self.run_gate("import", "swebench", str(path))
        self.assertLess(time.perf_counter() - started, 3.0)
        self.assertEqual(code, 0, err)
        outcomes = [json.loads(line)["outcome"] for line in out.splitlines()]
        self.assertEqual(outcomes.count("pass"), 6000)
        self.assertEqual(outcomes.count("unscoreable"), 600)
        results = {"resolved": ids[:7000], "no_logs": ids[7000:7100]}
        path = self.write_json("results/results.json", results)
        id_file = self.write_text("ids.txt", "\n".join(ids) + "\n")
        started = time.perf_counter()
        code, out, err = self.run_gate("import", "swebench", str(path), "--dataset-ids", str(id_file))
        self.assertLess(time.perf_counter() - started, 3.0)
        self.assertEqual(code, 0, err)
        self.assertEqual([json.loads(line)["outcome"] for line in out.splitlines()].count("pass"), 7000)


class NestingDepth(GateCase):
    def test_too_deep_nesting_is_named_at_the_bracket_past_the_limit(self) -> None:
        """The gate's own nesting limit (500) is where the error points, on any Python version."""
        m = self.write_text("deep.json", "[" * 1500 + "]" * 1500)
        r = self.write_text("r.jsonl", "")
        self.assertInputError(self.run_gate("--manifest", str(m), "--runs", str(r)),
                              "deep.json:1:", "deeper than 500 levels", "(column 501)")
        manifest, records = valid_ledger()
        lines = [json.dumps(rec) for rec in records]
        lines[3] = lines[3][:-1] + ', "x": ' + "[" * 1500 + "]" * 1500 + "}"
        m = self.write_json("m.json", manifest)
        r = self.write_text("r.jsonl", "\n".join(lines) + "\n")
        column = lines[3].index("[") + 500
        self.assertInputError(self.run_gate("--manifest", str(m), "--runs", str(r)),
                              "r.jsonl:4:", "deeper than 500 levels", f"(column {column})")

    def test_nesting_at_the_limit_is_accepted(self) -> None:
        """A record 500 levels deep (the object and 499 lists) is read like any other."""
        manifest, records = valid_ledger()
        records[3]["x"] = json.loads("[" * 499 + "]" * 499)
        code, out, err = self.check(manifest, records)
        self.assertEqual(code, 0, err)
        self.assertIn("verdict     : PUBLISHABLE", out)


class LoneSurrogates(GateCase):
    def test_a_lone_surrogate_is_named_on_its_own_line_not_a_valid_pairs(self) -> None:
        """A valid surrogate pair on line 2 is fine; the lone half on line 4 is the one named."""
        manifest, _ = valid_ledger()
        text = json.dumps(manifest, indent=2).splitlines()
        text.insert(1, '  "note": "\\ud83d\\ude00",')
        text.insert(3, '  "other": "\\\\ud800 is not an escape",')
        text.insert(4, '  "bad": "x\\udc00",')
        m = self.write_text("m.json", "\n".join(text) + "\n")
        r = self.write_text("r.jsonl", "")
        self.assertInputError(self.run_gate("--manifest", str(m), "--runs", str(r)), "m.json:5:", "surrogate")
        text[4] = '  "bad": "\\ud800x",'
        m = self.write_text("m.json", "\n".join(text) + "\n")
        self.assertInputError(self.run_gate("--manifest", str(m), "--runs", str(r)), "m.json:5:", "surrogate")


class FindingsCatalogue(GateCase):
    def test_the_readme_findings_table_is_the_catalogue(self) -> None:
        """Every finding code the gate can emit is in the README's table with the same meaning, and no other."""
        import re

        from tests.support import ROOT, gate

        text = (ROOT / "README.md").read_text(encoding="utf-8")
        section = text[text.index("## Findings"):]
        section = section[:section.index("\n## ", 3)]
        plain: dict[str, str] = {}
        prefixes: dict[str, str] = {}
        for line in section.splitlines():
            row = re.fullmatch(r"\| (`[^|]+`) \| (.+) \|", line)
            if row is None or row.group(1) == "`code`":
                continue
            codes = re.findall(r"`([^`]+)`", row.group(1))
            for code in codes:
                if code.endswith(":…"):
                    prefixes[code[:-1]] = row.group(2)
                else:
                    plain[code] = row.group(2)
        self.assertEqual(plain, dict(gate.FINDINGS))
        self.assertEqual(prefixes, dict(gate.FINDING_PREFIXES))

    def test_a_finding_outside_the_catalogue_cannot_be_made(self) -> None:
        """finding() refuses a code the catalogue lacks, so a new code cannot skip the README."""
        from tests.support import gate

        with self.assertRaises(KeyError):
            gate.finding("not_a_code", "x")
        with self.assertRaises(KeyError):
            gate.prefixed("C", [gate.finding("mixed_runs", "x")])
