"""init: a manifest template to complete. It names every field for what it holds, fills in the dataset from a runs
file or an import, and carries the draft list, so check refuses it until a person completes it; completed, it
gates PUBLISHABLE."""

from __future__ import annotations

import json
from typing import Any

from tests.builders import valid_ledger
from tests.oracles import ids_digest
from tests.support import ROOT, TB_RESULTS, GateCase


class InitTemplate(GateCase):
    def init(self, *args: str) -> dict[str, Any]:
        code, out, err = self.run_gate("init", *args)
        self.assertEqual(code, 0, err)
        return dict(json.loads(out))

    def complete(self, manifest: dict[str, Any], negative: str, positive: str) -> dict[str, Any]:
        """Fill in every TODO as a person would, and delete the draft list."""
        done = json.loads(json.dumps(manifest))
        del done["draft"]
        done["claim_id"] = "agent-x-on-suite"
        done["dataset"]["name"] = "suite-40"
        done["controls"][0]["task_id"], done["controls"][1]["task_id"] = negative, positive
        done["envelope"] = {"runner": "docker 27", "network": "off", "wall_clock_s_per_task": 600, "toolchain_sha": "abc123"}
        done["system"] = {"agent": "agent-x 1.2", "model": "model-y"}
        done["rerun_recipe"] = "python3 gate.py --manifest m.json --runs runs.jsonl"
        return done

    def test_from_runs_round_trip(self) -> None:
        """init --from-runs: the dataset (count, sorted IDs, digest), the run and the budget come from the runs file; as
        printed it is BLOCKED by draft_manifest and placeholder_value naming every TODO; completed, PUBLISHABLE."""
        manifest, records = valid_ledger()
        runs = self.write_jsonl("runs.jsonl", records)
        template = self.init("--from-runs", str(runs))
        ids = sorted({r["task_id"] for r in records})
        self.assertEqual(template["dataset"]["task_ids"], ids)
        self.assertEqual(template["dataset"]["task_count"], len(ids))
        self.assertEqual(template["dataset"]["task_ids_sha256"], ids_digest(ids))
        self.assertEqual(template["run_id"], records[0]["run_id"])
        self.assertEqual(template["attempt_budget"], max(r["attempt"] for r in records))
        self.assertTrue(template["draft"])
        code, report = self.check_json(template, records)
        self.assertEqual(code, 1)
        codes = {f["code"] for f in report["findings"]}
        self.assertIn("draft_manifest", codes)
        placeholder = next(f["message"] for f in report["findings"] if f["code"] == "placeholder_value")
        for field in ("claim_id", "dataset.name", "rerun_recipe", "envelope.runner", "envelope.toolchain_sha",
                      "controls[0].task_id", "controls[1].task_id", "system.agent", "system.model"):
            self.assertIn(field, placeholder)
        negative = next(c["task_id"] for c in manifest["controls"] if c["expected"] == "fail")
        positive = next(c["task_id"] for c in manifest["controls"] if c["expected"] == "pass")
        code, report = self.check_json(self.complete(template, negative, positive), records)
        self.assertEqual((code, report["findings"]), (0, []))

    def test_from_an_empty_runs_file_the_budget_is_one_attempt(self) -> None:
        """A runs file with no record: no task, no run_id, and the least budget a manifest may hold (1), never 0."""
        template = self.init("--from-runs", str(self.write_text("empty.jsonl", "")))
        self.assertEqual((template["attempt_budget"], template["dataset"]["task_count"], template["dataset"]["task_ids"]),
                         (1, 0, []))
        self.assertNotIn("run_id", template)

    def test_the_placeholder_finding_is_one_sentence_for_one_or_many(self) -> None:
        """One field left a placeholder: "claim_id still holds a placeholder"; two: "claim_id, dataset.name still
        hold a placeholder"."""
        manifest, records = valid_ledger()
        for fields, verb in ((("claim_id",), "holds"), (("claim_id", "dataset.name"), "hold")):
            with self.subTest(fields=fields):
                edited = json.loads(json.dumps(manifest))
                edited["claim_id"] = "TODO: name the claim"
                if "dataset.name" in fields:
                    edited["dataset"]["name"] = "TODO: the dataset"
                self.assertEqual(self.blocked(edited, records, "placeholder_value"),
                                 [f"{', '.join(fields)} still {verb} a placeholder: fill in the real value"])

    def test_without_runs_every_field_is_named_and_it_cannot_pass(self) -> None:
        """Plain init: every key check reads is there, named for what it holds, and the template is BLOCKED
        (exit 1, not a traceback) on any runs file, the draft and the digest placeholder among the findings."""
        template = self.init()
        for key in ("draft", "claim_id", "dataset", "controls", "envelope", "attempt_mode", "attempt_budget", "rerun_recipe"):
            self.assertIn(key, template)
        self.assertEqual(set(template["envelope"]), {"runner", "network", "wall_clock_s_per_task", "toolchain_sha"})
        _, records = valid_ledger()
        code, report = self.check_json(template, records)
        self.assertEqual(code, 1)
        codes = {f["code"] for f in report["findings"]}
        self.assertTrue({"draft_manifest", "placeholder_value", "ledger_does_not_balance"} <= codes, codes)
        self.assertLessEqual(report["headline"]["ci_high"], 1.0)  # 29 passes over a declared 1: BLOCKED, not a crash
        # The count is the least a manifest may declare (0 is malformed), so a forgotten count balances no ledger
        # of two or more tasks; the digest is a placeholder that names the command to fill it.
        self.assertEqual(template["dataset"]["task_count"], 1)
        self.assertIn("digest --runs RUNS or --ids IDS", template["dataset"]["task_ids_sha256"])
        code, _out, err = self.check(dict(template, dataset=dict(template["dataset"], task_count=0)), records)
        self.assertEqual(code, 2, err)

    def test_from_import_is_the_import_draft(self) -> None:
        """init --from-import FORMAT FILE prints the draft `import --draft-manifest` writes, byte for byte."""
        code, out, err = self.run_gate("init", "--from-import", "terminal-bench", str(TB_RESULTS))
        self.assertEqual(code, 0, err)
        draft = self.dir / "draft.json"
        self.assertEqual(self.run_gate("import", "terminal-bench", str(TB_RESULTS), "--draft-manifest", str(draft))[0], 0)
        self.assertEqual(out, draft.read_text(encoding="utf-8"))
        code, _out, err = self.run_gate("init", "--from-import", "terminal-bnch", str(TB_RESULTS))
        self.assertEqual(code, 2)
        self.assertIn("did you mean 'terminal-bench'", err)

    def test_the_readme_template_is_inits(self) -> None:
        """The shipped example's manifest keys are all in the template (init leaves out nothing the example uses)."""
        shipped = json.loads((ROOT / "bench.manifest.json").read_text(encoding="utf-8"))
        self.assertLessEqual(set(shipped) - {"metrics", "reason_classes", "control_runs"}, set(self.init()))
