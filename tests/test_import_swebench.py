"""`gate.py import swebench`: a SWE-bench run report (schema_version 2) or an experiments results.json
into runs.jsonl and a draft manifest.

Every expected value is derived in the test from the fixture JSON itself (list membership, failure
reasons), never by calling the importer's own helpers.
"""

from __future__ import annotations

import copy
import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

from tests.oracles import ids_digest
from tests.support import FIXTURES, SWE_EXP, SWE_EXP_SYN, SWE_IDS, SWE_REPORT, SWE_SHORT, SWE_SHORT_IDS, ImportCase, load

SWE_PRIMARY = ("resolved_ids", "unresolved_ids", "empty_patch_ids", "error_ids", "incomplete_ids")


def id_lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


class RunReport(ImportCase):
    """The run report's lists map to outcomes and reasons, one record per instance."""

    def setUp(self) -> None:
        super().setUp()
        self.report = load(SWE_REPORT)
        self.records = {r["task_id"]: r for r in self.imp("swebench", str(SWE_REPORT))}

    def ids(self, *include: str, exclude: tuple[str, ...] = ()) -> set[str]:
        chosen = set.intersection(*(set(self.report[k]) for k in include))
        for key in exclude:
            chosen -= set(self.report.get(key, []))
        self.assertTrue(chosen, f"fixture precondition: some id in {include} but not {exclude}")
        return chosen

    def test_resolved_is_pass(self) -> None:
        """Resolved ids import as pass."""
        for tid in self.ids("resolved_ids"):
            self.assertOutcome(self.records[tid], "pass", None)

    def test_unresolved_is_fail(self) -> None:
        """Unresolved ids without an infrastructure or ambiguous failure import as fail."""
        for tid in self.ids("unresolved_ids", exclude=("infra_failure_ids", "ambiguous_failure_ids")):
            self.assertOutcome(self.records[tid], "fail", None)

    def test_empty_patch_is_fail(self) -> None:
        """Empty-patch ids import as fail."""
        for tid in self.ids("empty_patch_ids"):
            self.assertOutcome(self.records[tid], "fail", None)

    def test_infra_failure_is_env_flake_for_unresolved_and_error(self) -> None:
        """An infrastructure failure is unscoreable env_flake, whether the id was unresolved or an error."""
        for tid in self.ids("infra_failure_ids", "unresolved_ids"):
            self.assertOutcome(self.records[tid], "unscoreable", "env_flake")
        for tid in self.ids("infra_failure_ids", "error_ids"):
            self.assertOutcome(self.records[tid], "unscoreable", "env_flake")

    def test_plain_error_is_grader_error(self) -> None:
        """An error that did not time out is unscoreable grader_error."""
        for tid in self.ids("error_ids", exclude=("infra_failure_ids", "ambiguous_failure_ids")):
            self.assertNotEqual(self.report["failure_reasons"].get(tid), "tests_timed_out")
            self.assertOutcome(self.records[tid], "unscoreable", "grader_error")

    def test_error_with_tests_timed_out_is_harness_timeout(self) -> None:
        """An error whose failure reason is tests_timed_out is unscoreable harness_timeout."""
        timed_out = {t for t, why in self.report["failure_reasons"].items() if why == "tests_timed_out"}
        chosen = (timed_out & set(self.report["error_ids"])) - set(self.report["infra_failure_ids"])
        self.assertTrue(chosen, "fixture precondition")
        for tid in chosen:
            self.assertOutcome(self.records[tid], "unscoreable", "harness_timeout")

    def test_incomplete_is_missing_artifact(self) -> None:
        """Incomplete ids are unscoreable missing_artifact."""
        for tid in self.ids("incomplete_ids"):
            self.assertOutcome(self.records[tid], "unscoreable", "missing_artifact")

    def test_ambiguous_failure_keeps_its_base_outcome(self) -> None:
        """An ambiguous failure keeps its base list's outcome: fail when unresolved, grader_error when an error."""
        # ambiguous + unresolved (no_tests_collected): still a plain fail
        for tid in self.ids("ambiguous_failure_ids", "unresolved_ids", exclude=("infra_failure_ids",)):
            self.assertOutcome(self.records[tid], "fail", None)
        # ambiguous + error with a non-timeout reason: still grader_error (variant of the fixture)
        variant = copy.deepcopy(self.report)
        tid = sorted(set(variant["ambiguous_failure_ids"]) & set(variant["error_ids"]))[0]
        variant["failure_reasons"][tid] = "no_tests_collected"
        path = self.write_json("ambiguous-error.json", variant)
        rec = {r["task_id"]: r for r in self.imp("swebench", str(path))}[tid]
        self.assertOutcome(rec, "unscoreable", "grader_error")

    def test_every_dataset_id_exactly_once(self) -> None:
        """Every id of the report's status lists is imported exactly once, total_instances in all."""
        code, out, err = self.run_gate("import", "swebench", str(SWE_REPORT))
        self.assertEqual(code, 0, err)
        counts = Counter(json.loads(line)["task_id"] for line in out.splitlines())
        declared = set().union(*(self.report[k] for k in SWE_PRIMARY))
        self.assertEqual(len(declared), self.report["total_instances"])
        self.assertEqual(set(counts), declared)
        self.assertEqual(set(counts.values()), {1})

    def test_hand_merged_report_still_gives_one_record_per_id(self) -> None:
        """An id listed in two status lists still gives one record."""
        variant = copy.deepcopy(self.report)
        tid = variant["resolved_ids"][0]
        variant["unresolved_ids"].append(tid)
        variant["unresolved_instances"] += 1
        path = self.write_json("merged.json", variant)
        records = self.imp("swebench", str(path))
        self.assertEqual([r["task_id"] for r in records].count(tid), 1)
        self.assertEqual(len(records), variant["total_instances"])

    def test_harness_fields_kept(self) -> None:
        """Each record keeps, under harness, the instance id, the status list that counted, every list it was in and
        its failure reason.
        """
        list_keys = [k for k, v in self.report.items() if k.endswith("_ids") and isinstance(v, list)]
        for tid, rec in self.records.items():
            harness = rec["harness"]
            self.assertEqual(harness["instance_id"], tid)
            member = {k for k in list_keys if tid in self.report[k]}
            self.assertIn(harness["status_list"], member & set(SWE_PRIMARY))
            self.assertTrue(set(harness["lists"]) <= member, (harness["lists"], member))
            self.assertTrue(member - {"submitted_ids"} <= set(harness["lists"]), (harness["lists"], member))
            self.assertEqual(harness.get("failure_reason"), self.report["failure_reasons"].get(tid))
            self.assertEqual(rec["attempt"], 1)

    def test_short_report_without_dataset_ids_exits_2(self) -> None:
        """A report listing fewer ids than total_instances, without --dataset-ids, is an input error naming the option."""
        short = load(SWE_SHORT)
        visible = set().union(*(short[k] for k in SWE_PRIMARY))
        self.assertGreater(short["total_instances"], len(visible), "fixture precondition")
        self.assertInputError(self.run_gate("import", "swebench", str(SWE_SHORT)), str(SWE_SHORT), "--dataset-ids")

    def test_short_report_with_dataset_ids_unlisted_are_missing_artifact(self) -> None:
        """With --dataset-ids the unlisted declared ids are missing_artifact, and the draft declares all of them."""
        short = load(SWE_SHORT)
        declared = id_lines(SWE_SHORT_IDS)
        visible = set().union(*(short[k] for k in SWE_PRIMARY))
        unlisted = set(declared) - visible
        self.assertEqual(len(unlisted), short["total_instances"] - len(visible))
        _runs, _draft_path, records, draft = self.imp_files("swebench", str(SWE_SHORT), "--dataset-ids", str(SWE_SHORT_IDS))
        by_id = {r["task_id"]: r for r in records}
        self.assertEqual(len(records), len(declared))
        self.assertEqual(set(by_id), set(declared))
        for tid in unlisted:
            self.assertOutcome(by_id[tid], "unscoreable", "missing_artifact")
        # the draft names the declared 12, not the 10 the report lists
        self.assertEqual(draft["dataset"]["task_count"], len(declared))
        self.assertEqual(draft["dataset"]["task_ids"], sorted(declared))
        self.assertEqual(draft["dataset"]["task_ids_sha256"], ids_digest(declared))

    def test_roundtrip_publishable(self) -> None:
        """import, then the draft completed with controls, then check: PUBLISHABLE, resolved over total_instances, and
        the unscoreable tasks by reason as the lists say.
        """
        runs, draft_path, _records, draft = self.imp_files("swebench", str(SWE_REPORT))
        self.assertEqual(draft["dataset"]["task_count"], self.report["total_instances"])
        positive = sorted(self.report["resolved_ids"])[0]
        negative = sorted(set(self.report["unresolved_ids"]) - set(self.report["infra_failure_ids"]))[0]
        # 5 of its 10 instances have no verdict (incomplete, errors, infra): past the default attrition ceiling
        lost = len(set(self.report["incomplete_ids"]) | set(self.report["error_ids"]) | set(self.report["infra_failure_ids"]))
        self.assertEqual((lost, self.report["total_instances"]), (5, 10))
        code, report = self.check_roundtrip(draft_path, runs, positive, negative)
        self.assertEqual([f["code"] for f in report["findings"]], ["attrition_exceeded"])
        self.assertIn("5 of 10 tasks (50.0%) exited unscoreable, above the ceiling of 0.2", report["findings"][0]["message"])
        code, report = self.check_roundtrip(draft_path, runs, positive, negative, max_unscoreable=0.5)
        self.assertEqual(report["verdict"], "PUBLISHABLE", report["findings"])
        self.assertEqual(code, 0)
        self.assertEqual(report["headline"]["k"], len(self.report["resolved_ids"]))
        self.assertEqual(report["headline"]["n"], self.report["total_instances"])
        # unscoreable tasks by reason, from the lists: incomplete, infra, errors split by timeout
        infra, errors = set(self.report["infra_failure_ids"]), set(self.report["error_ids"])
        timed_out = {t for t in errors - infra if self.report["failure_reasons"].get(t) == "tests_timed_out"}
        expected = Counter({"missing_artifact": len(self.report["incomplete_ids"]), "env_flake": len(infra),
                            "harness_timeout": len(timed_out), "grader_error": len(errors - infra - timed_out)})
        self.assertEqual(report["ledger"]["unscoreable_reasons"], {k: v for k, v in expected.items() if v})


class RunReportListsAndCounts(ImportCase):
    """The report's stated counts and overlapping lists."""

    def test_swebench_counts_above_the_small_int_cache(self) -> None:
        """A report of 301 instances whose stated counts agree imports all 301."""
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
        """An id in one list gives no note; an id in two lists gets one note saying which list counted."""
        report = {"schema_version": 2, "total_instances": 2, "resolved_ids": ["a__b-1"], "unresolved_ids": ["a__b-2"],
                  "empty_patch_ids": [], "error_ids": [], "incomplete_ids": []}
        code, _, err = self.run_gate("import", "swebench", str(self.write_json("r.json", report)))
        self.assertEqual(code, 0, err)
        self.assertNotIn("counted as", err)
        report["error_ids"] = ["a__b-2"]  # now in two lists: the note is due
        code, _, err = self.run_gate("import", "swebench", str(self.write_json("r2.json", report)))
        self.assertEqual(code, 0, err)
        self.assertIn("a__b-2: in error_ids, unresolved_ids; counted as error_ids", err)


class ExperimentsResults(ImportCase):
    """An experiments results.json, read against the dataset's ids."""

    def test_mapping_rows(self) -> None:
        """resolved imports as pass, no_generation as fail, no_logs as missing_artifact, and an id the file does not
        list as fail.
        """
        data, declared = load(SWE_EXP_SYN), id_lines(SWE_IDS)
        by_id = {r["task_id"]: r for r in self.imp("swebench", str(SWE_EXP_SYN), "--dataset-ids", str(SWE_IDS))}
        self.assertEqual(len(by_id), len(declared))
        self.assertEqual(set(by_id), set(declared))
        for key in ("resolved", "no_generation", "no_logs"):
            self.assertTrue(data[key], f"fixture precondition: {key} not empty")
        for tid in data["resolved"]:
            self.assertOutcome(by_id[tid], "pass", None)
        for tid in data["no_generation"]:
            self.assertOutcome(by_id[tid], "fail", None)
        for tid in data["no_logs"]:
            self.assertOutcome(by_id[tid], "unscoreable", "missing_artifact")
        implicit = set(declared) - set(data["resolved"]) - set(data["no_generation"]) - set(data["no_logs"])
        self.assertTrue(implicit)
        for tid in implicit:
            self.assertOutcome(by_id[tid], "fail", None)
        for tid, rec in by_id.items():
            self.assertEqual(rec["harness"]["instance_id"], tid)
            listed = [k for k in ("resolved", "no_generation", "no_logs") if tid in data[k]]
            if listed:
                self.assertEqual(rec["harness"]["status_list"], listed[0])

    def test_without_dataset_ids_exits_2_naming_the_option(self) -> None:
        """An experiments file without --dataset-ids is an input error naming the option."""
        self.assertInputError(self.run_gate("import", "swebench", str(SWE_EXP)), str(SWE_EXP), "--dataset-ids")

    def test_id_outside_dataset_ids_is_refused(self) -> None:
        """An id outside --dataset-ids is an input error naming it."""
        data = load(SWE_EXP)
        data["resolved"].append("not__a-real-instance-1")
        path = self.write_json("stray.json", data)
        self.assertInputError(self.run_gate("import", "swebench", str(path), "--dataset-ids", str(SWE_IDS)),
                              str(path), "not__a-real-instance-1")

    def test_roundtrip_headline_is_resolved_over_dataset(self) -> None:
        """The round trip's headline is the resolved ids over the dataset's size, PUBLISHABLE."""
        data, declared = load(SWE_EXP), id_lines(SWE_IDS)
        runs, draft_path, _records, draft = self.imp_files("swebench", str(SWE_EXP), "--dataset-ids", str(SWE_IDS))
        self.assertEqual(draft["dataset"]["task_count"], len(declared))
        self.assertEqual(draft["dataset"]["task_ids"], sorted(declared))
        self.assertEqual(draft["dataset"]["task_ids_sha256"], ids_digest(declared))
        positive = sorted(data["resolved"])[0]
        negative = sorted(set(declared) - set(data["resolved"]))[0]
        _code, report = self.check_roundtrip(draft_path, runs, positive, negative)
        self.assertEqual(report["verdict"], "PUBLISHABLE", report["findings"])
        self.assertEqual(report["ledger"]["entries"], len(declared))
        self.assertEqual(report["headline"]["k"], len(set(data["resolved"])))
        self.assertEqual(report["headline"]["n"], len(declared))

    def test_a_long_list_of_stray_ids_says_how_many(self) -> None:
        """Seven stray ids are an input error that cuts the list short with '(7 in all)'; two are refused without a count."""
        data = json.loads((FIXTURES / "swebench" / "experiments-results.json").read_text())
        ids = (FIXTURES / "swebench" / "verified-dataset-ids.txt").read_text().split()
        data["resolved"] = list(data["resolved"]) + [f"stray-{i}" for i in range(7)]
        results = self.write_json("results.json", data)
        id_file = self.write_text("ids.txt", "\n".join(ids) + "\n")
        self.assertInputError(self.run_gate("import", "swebench", str(results), "--dataset-ids", str(id_file)),
                              "(7 in all)")
        data["resolved"] = data["resolved"][:-5]
        results = self.write_json("results.json", data)
        code, _, err = self.run_gate("import", "swebench", str(results), "--dataset-ids", str(id_file))
        self.assertEqual(code, 2)
        self.assertNotIn("in all", err)

    def test_exactly_five_stray_ids_are_listed_without_a_count(self) -> None:
        """Exactly five stray ids are refused naming them, the fifth included, without a count."""
        data = json.loads((FIXTURES / "swebench" / "experiments-results.json").read_text())
        ids = (FIXTURES / "swebench" / "verified-dataset-ids.txt").read_text().split()
        data["resolved"] = [*data["resolved"], *(f"stray-{i}" for i in range(5))]
        results = self.write_json("results.json", data)
        id_file = self.write_text("ids.txt", "\n".join(ids) + "\n")
        code, _, err = self.run_gate("import", "swebench", str(results), "--dataset-ids", str(id_file))
        self.assertEqual(code, 2)
        self.assertIn("stray-4", err)
        self.assertNotIn("in all", err)


class WhatIsMeasured(ImportCase):
    """The system a SWE-bench import names is what its files name: the submission of the experiments layout
    (`<submission>/results/results.json`), the model of a report named `<model>.<run_id>.json` (with the agent asked
    for, and the model to be checked: a renamed report.final.json named model=report, no agent, and went
    PUBLISHABLE); another file name names none (report.json was `submission=report`), so the draft asks for the agent
    and the model."""

    def measured(self, path: Path, *extra: str) -> tuple[dict[str, Any], list[str]]:
        """The draft's system and its to-do items."""
        _, _, _, draft = self.imp_files("swebench", str(path), *extra, name=path.parent.name + "-" + path.stem)
        return draft["system"], draft["draft"]

    def test_the_system_is_what_the_files_name_and_else_asked_for(self) -> None:
        report = load(SWE_REPORT)
        for name in ("report.json", "results.json"):
            system, asked = self.measured(self.write_json(name, report))
            self.assertEqual(sorted(system), ["agent", "model"], name)
            self.assertTrue(all(value.startswith("TODO") for value in system.values()), system)
            fields = [item.split(":")[0] for item in asked]
            self.assertIn("system.agent", fields)
            self.assertIn("system.model", fields)
        for name, model in (("openai__gpt-4o.run-7.json", "openai/gpt-4o"), ("report.final.json", "report")):
            system, asked = self.measured(self.write_json(name, report))
            self.assertEqual(system, {"model": model, "agent": "TODO: the agent this run measured"})
            self.assertIn(f"system.agent: the agent this run measured (the file names only a model, {model!r}, from its "
                          "name <model>.<run_id>.json: check that too)", asked)
        folder = self.dir / "20240820_my-agent_gpt-4o" / "results"
        folder.mkdir(parents=True)
        experiments = folder / "results.json"
        experiments.write_text(SWE_EXP.read_text(encoding="utf-8"), encoding="utf-8")
        system, asked = self.measured(experiments, "--dataset-ids", str(SWE_IDS))
        # the submission names the entry, not its agent and model: both are asked (a claim imported from harness
        # files names its system: system_unnamed)
        self.assertEqual(system["submission"], "20240820_my-agent_gpt-4o")
        self.assertEqual(sorted(item.split(":")[0] for item in asked if item.startswith("system.")),
                         ["system.agent", "system.model"])
        # from inside the submission's folder: its name, never the empty name of `.`
        here = os.getcwd()
        os.chdir(folder.parent)
        try:
            code, _, err = self.run_gate("import", "swebench", "results/results.json", "--dataset-ids", str(SWE_IDS),
                                         "-o", "inside.jsonl")
        finally:
            os.chdir(here)
        self.assertEqual(code, 0, err)
        runs = {json.loads(line)["run_id"] for line in (folder.parent / "inside.jsonl").read_text().splitlines()}
        self.assertEqual(runs, {"20240820_my-agent_gpt-4o"})
        plain = self.dir / "plain" / "results.json"
        plain.parent.mkdir()
        plain.write_text(SWE_EXP.read_text(encoding="utf-8"), encoding="utf-8")
        system, asked = self.measured(plain, "--dataset-ids", str(SWE_IDS))
        self.assertEqual(sorted(system), ["agent", "model"])


class ControlRunsOfTheWholeSplit(ImportCase):
    """A gold or no-op validation of the whole split, imported as a control run of a claim on part of it, is kept to
    the claim's tasks (with a note), where it was refused ("not the draft's suite") and --dataset-ids could not
    narrow it; one that misses a claim task is still refused, saying what to do."""

    @staticmethod
    def validation(ids: list[str], resolved: bool) -> dict[str, Any]:
        """A run report of every one of `ids`, all resolved (gold) or none (no-op)."""
        lists = {name: [] for name in ("completed_ids", "incomplete_ids", "empty_patch_ids", "submitted_ids",
                                       "resolved_ids", "unresolved_ids", "error_ids")}
        lists["submitted_ids"] = lists["completed_ids"] = list(ids)
        lists["resolved_ids" if resolved else "unresolved_ids"] = list(ids)
        return {"schema_version": 2, "total_instances": len(ids), "submitted_instances": len(ids),
                "completed_instances": len(ids), "resolved_instances": len(ids) if resolved else 0,
                "unresolved_instances": 0 if resolved else len(ids), "empty_patch_instances": 0,
                "error_instances": 0, **lists}

    def test_a_control_run_of_more_tasks_is_kept_to_the_claims(self) -> None:
        _, draft_path, _, draft = self.imp_files("swebench", str(SWE_REPORT), name="claim")
        claim = draft["dataset"]["task_ids"]
        split = sorted({*claim, *(f"extra__extra-{i}" for i in range(5))})
        for role, resolved in (("known_fix", True), ("no_edit", False)):
            report = self.write_json(f"{role}.report.json", self.validation(split, resolved))
            code, _, err = self.run_gate("import", "swebench", str(report), "--control", role, "-o",
                                         str(self.dir / f"{role}.jsonl"), "--draft-manifest", str(draft_path))
            self.assertEqual(code, 0, err)
            self.assertIn(f"the control run covers {len(split)} tasks: the {len(claim)} the claim lists ({draft_path}) "
                          "are kept, the other 5 left out", err)
            kept = [json.loads(line)["task_id"] for line in (self.dir / f"{role}.jsonl").read_text().splitlines()]
            self.assertEqual(sorted(kept), claim)
        self.assertEqual(sorted(c["role"] for c in load(draft_path)["control_runs"]), ["known_fix", "no_edit"])
        short = self.write_json("short.report.json", self.validation(claim[1:], True))
        code, _, err = self.run_gate("import", "swebench", str(short), "--control", "known_fix", "-o",
                                     str(self.dir / "short.jsonl"), "--draft-manifest", str(draft_path))
        self.assertEqual(code, 2)
        self.assertIn("not the draft's suite: a control run is over the same tasks (one over more, the draft's "
                      "dataset.task_ids among them, is kept to those): run it over the claim's tasks", err)


class SwebenchInputErrors(ImportCase):
    """Malformed SWE-bench files are input errors naming the file and the field."""

    def test_wrong_types(self) -> None:
        """A mistyped id list, count or id in a run report is an input error naming the file and the field."""
        self.assertFieldErrors("swebench", SWE_REPORT, [
            (lambda d: d.__setitem__("resolved_ids", "astropy__astropy-12907"), "resolved_ids"),
            (lambda d: d.__setitem__("total_instances", "10"), "total_instances"),
            (lambda d: d["error_ids"].__setitem__(0, 13977), "error_ids"),
        ])

    def test_a_report_whose_lists_do_not_hold_together_is_refused(self) -> None:
        """An advisory list (infra_failure_ids, ambiguous_failure_ids) or a failure reason for an id no outcome list
        names, both `resolved` and `resolved_ids`, and a schema-2 report missing one of its outcome lists: each
        refused naming the key (no record could say what happened to that id)."""
        stray = "astropy__astropy-99999"

        def advise(d: dict[str, Any], kind: str) -> None:  # the id in the list, and the list's count kept true
            d[f"{kind}_ids"].append(stray)
            d[f"{kind}_instances"] += 1

        cases = [
            (lambda d: advise(d, "infra_failure"), f"infra_failure_ids: ids in no outcome list: {stray!r}"),
            (lambda d: advise(d, "ambiguous_failure"), f"ambiguous_failure_ids: ids in no outcome list: {stray!r}"),
            (lambda d: d["failure_reasons"].__setitem__(stray, "out_of_memory"),
             f"failure_reasons: ids in no outcome list: {stray!r}"),
            (lambda d: d.__setitem__("resolved", d["resolved_ids"]),
             "both resolved and resolved_ids: one report holds one of them"),
            (lambda d: d.pop("empty_patch_ids"), "empty_patch_ids: missing (schema_version 2 always writes it)"),
        ]
        self.assertFieldErrors("swebench", SWE_REPORT, cases)

    def test_experiments_wrong_type_with_dataset_ids(self) -> None:
        """An experiments no_logs that is not a list is an input error naming it, with --dataset-ids given."""
        data = load(SWE_EXP)
        data["no_logs"] = {"astropy__astropy-12907": True}
        path = self.write_json("exp-wrong.json", data)
        self.assertInputError(self.run_gate("import", "swebench", str(path), "--dataset-ids", str(SWE_IDS)),
                              str(path), "no_logs")

    def test_dataset_ids_file_with_duplicates(self) -> None:
        """A --dataset-ids file with a repeated id is an input error saying 'duplicate'."""
        ids = id_lines(SWE_SHORT_IDS)
        path = self.write_text("ids.txt", "\n\n".join([*ids, ids[0]]) + "\n")
        self.assertInputError(self.run_gate("import", "swebench", str(SWE_SHORT), "--dataset-ids", str(path)),
                              f"task {ids[0]!r} is listed twice (a duplicate)")


class ImportedIdsFollowCheckRules(ImportCase):
    def test_an_id_with_a_control_character_is_refused_as_check_would(self) -> None:
        """import swebench applies check's task-ID rule, so it never writes a ledger check refuses."""
        report = load(SWE_REPORT)
        first = report["resolved_ids"][0]
        for key in ("resolved_ids", "completed_ids", "submitted_ids"):
            if key in report:
                report[key] = [first + "\x07" if x == first else x for x in report[key]]
        path = self.write_json("report.json", report)
        self.assertInputError(self.run_gate("import", "swebench", str(path)), "report.json", "resolved_ids[", "printable")

    def test_a_report_of_20000_instances_imports(self) -> None:
        """The SWE-bench importers at 20,000 instances, a report and a results.json with --dataset-ids: every
        instance read into its exit (they look instances up in sets, not lists: a scan per instance took 13 s at
        30,000; bench/linear.py times both shapes at 20,000 and 200,000 instances)."""
        ids = [f"repo__repo-{i}" for i in range(20000)]
        report = {"schema_version": 2, "total_instances": 20000, "resolved_ids": ids[:6000],
                  "unresolved_ids": ids[6000:9000] + ids[10000:], "error_ids": ids[9000:9500],
                  "empty_patch_ids": ids[9500:9900], "incomplete_ids": ids[9900:10000]}
        path = self.write_json("big.json", report)
        code, out, err = self.run_gate("import", "swebench", str(path))
        self.assertEqual(code, 0, err)
        outcomes = [json.loads(line)["outcome"] for line in out.splitlines()]
        self.assertEqual(outcomes.count("pass"), 6000)
        self.assertEqual(outcomes.count("unscoreable"), 600)
        path = self.write_json("results/results.json", {"resolved": ids[:7000], "no_logs": ids[7000:7100]})
        id_file = self.write_text("ids.txt", "\n".join(ids) + "\n")
        code, out, err = self.run_gate("import", "swebench", str(path), "--dataset-ids", str(id_file))
        self.assertEqual(code, 0, err)
        self.assertEqual([json.loads(line)["outcome"] for line in out.splitlines()].count("pass"), 7000)
