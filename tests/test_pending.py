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
