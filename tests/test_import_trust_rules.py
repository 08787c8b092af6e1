"""Every importer holds the same trust rules because they are written once (issue 36): each reader returns a Found and
gate.finish applies every rule and builds the import. The first class runs each rule over every importer row of the
registry (a row added without a sample input here fails); the others pin the cases that were holes, each on the
harness's real layout (tests/fixtures/harnesses/SOURCES.md).
"""

from __future__ import annotations

import json
import shlex
import shutil
from collections import Counter
from pathlib import Path
from typing import Any
from unittest import mock

import gate
from tests.realfiles import HARNESSES, JAVA_GPT4O, LM_SAMPLES, MLE, OH_REMOTE, POLY, RealFileCase, sample_inputs
from tests.support import FIXTURES, INS_OK, ROOT, load

RULES = FIXTURES / "inspect" / "rules"


class EveryRowHoldsEveryRule(RealFileCase):
    """Each rule, run over every importer row: a rule written in finish() holds for all of them."""

    def imports(self) -> dict[str, list[str]]:
        inputs = sample_inputs(self)
        readers = {name for name, fmt in gate.IMPORTERS.items() if name != "swe-agent"}  # swe-agent refuses all
        self.assertEqual(set(inputs), readers, "a registry row without a sample input here is a row no rule test covers")
        return inputs

    def test_every_import_is_built_by_the_one_finisher(self) -> None:
        """Each row's import passes through gate.finish exactly once, and its provenance names the row."""
        for fmt, args in self.imports().items():
            with self.subTest(fmt=fmt), mock.patch.object(gate, "finish", wraps=gate.finish) as finish:
                imp = self.import_ok(fmt, *args, name=fmt)
                self.assertEqual(finish.call_count, 1)
                self.assertEqual(imp.draft["provenance"]["importer"], fmt)

    def test_every_row_takes_a_declared_set_and_keeps_every_declared_task(self) -> None:
        """--dataset-ids naming the import's own tasks plus one more: every row takes it, the extra task is in the
        ledger as missing_artifact on every attempt, the declared set is `declared`, and the ledger is exactly the
        declared tasks x their attempts."""
        for fmt, args in self.imports().items():
            with self.subTest(fmt=fmt):
                first = self.import_ok(fmt, *args, name=f"{fmt}-first")
                ids = [*first.draft["dataset"]["task_ids"], "zz-a-task-the-files-lack"]
                listed = self.dir / f"{fmt}-ids.txt"
                listed.write_text("\n".join(ids) + "\n", encoding="utf-8")
                imp = self.import_ok(fmt, *args, "--dataset-ids", str(listed), name=f"{fmt}-declared")
                if "zz-a-task-the-files-lack" not in imp.draft["dataset"]["task_ids"]:
                    # a run that chose part of its suite (a task selection the files record): the ids are the
                    # suite, the part stays what the run declared, a subset of them
                    self.assertIn("subset", first.draft["dataset"])
                    self.assertEqual(imp.draft["dataset"]["task_ids"], first.draft["dataset"]["task_ids"])
                    self.assertEqual(imp.draft["dataset"]["subset"]["of"], len(ids))
                    continue
                self.assertEqual(imp.draft["dataset"]["task_ids"], sorted(ids))
                self.assertEqual(imp.draft["provenance"]["declared_set"], "declared")
                extra = [r for r in imp.records if r["task_id"] == "zz-a-task-the-files-lack"]
                budget = imp.draft["attempt_budget"] if imp.draft["attempt_mode"] == "samples" else 1
                self.assertEqual(len(extra), budget)
                self.assertTrue(all((r["outcome"], r["reason"]) == ("unscoreable", "missing_artifact") for r in extra))
                self.assertTrue(all(r["harness"].get("absent") for r in extra))
                self.assertEqual({r["task_id"] for r in imp.records}, set(ids))

    def test_every_stated_figure_is_held_against_the_ledgers_own_count(self) -> None:
        """Where a row prints the harness's figure beside the gate's count, the count is the ledger's: its passes,
        fails and unscoreable attempts over its tasks, and the declared tasks with no result named; counted here
        from the records written, with one declared task the files lack."""
        beside = set()
        for fmt, args in self.imports().items():
            with self.subTest(fmt=fmt):
                first = self.import_ok(fmt, *args, name=f"{fmt}-first")
                listed = self.dir / f"{fmt}-ids.txt"
                listed.write_text("\n".join([*first.draft["dataset"]["task_ids"], "zz-lacking"]) + "\n", encoding="utf-8")
                imp = first if "subset" in first.draft["dataset"] else self.import_ok(
                    fmt, *args, "--dataset-ids", str(listed), name=f"{fmt}-declared")
                said = [n for n in imp.notes() if "; the gate counts every declared task: " in n]
                read = Counter(r["outcome"] for r in first.records if not r["harness"].get("absent"))
                mapped = (f"the mapping read {sum(read.values())} record(s): {read['pass']} pass, {read['fail']} fail, "
                          f"{read['unscoreable']} unscoreable (the file states no figure the gate reads")
                self.assertEqual(any(mapped in n for n in first.notes()), fmt in ("jsonl", "json", "csv"), first.notes())
                if not said:
                    continue
                beside.add(fmt)
                self.assertEqual(len(said), 1, said)
                outcomes = Counter(r["outcome"] for r in imp.records)
                tasks = {r["task_id"] for r in imp.records}
                absent = sorted(t for t in tasks if all(r["harness"].get("absent") for r in imp.records if r["task_id"] == t))
                want = (f"; the gate counts every declared task: {outcomes['pass']} pass, {outcomes['fail']} fail, "
                        f"{outcomes['unscoreable']} unscoreable attempt(s) over {len(tasks)} task(s)")
                if absent:
                    want += (f"; {len(absent)} declared task(s) have no result and are missing_artifact "
                             f"({', '.join(map(repr, absent))})")
                self.assertTrue(said[0].endswith(want), (said[0], want))
                self.assertEqual("zz-lacking" in absent, imp is not first)
        self.assertEqual(beside, {"swe-polybench", "nocode-bench", "openhands", "lm-eval", "livecodebench", "evalplus",
                                  "bigcodebench", "mle-bench", "hal", "aider"})

    def test_every_row_refuses_a_task_outside_the_declared_set(self) -> None:
        """--dataset-ids missing one task the files graded: every row refuses it, naming the task."""
        for fmt, args in self.imports().items():
            with self.subTest(fmt=fmt):
                first = self.import_ok(fmt, *args, name=f"{fmt}-first")
                graded = next(r["task_id"] for r in first.records if r["outcome"] in ("pass", "fail"))
                ids = [tid for tid in first.draft["dataset"]["task_ids"] if tid != graded]
                listed = self.dir / f"{fmt}-fewer.txt"
                listed.write_text("\n".join(ids) + "\n", encoding="utf-8")
                result = self.run_gate("import", fmt, *args, "--dataset-ids", str(listed))
                self.assertInputError(result, repr(graded))

    def test_every_row_binds_its_ledger_and_names_its_instrument(self) -> None:
        """The provenance of every row holds the sha256 of the ledger written, its runs, the verdict definition
        and the instrument the files record (a dict, empty where they record none)."""
        import hashlib
        for fmt, args in self.imports().items():
            with self.subTest(fmt=fmt):
                imp = self.import_ok(fmt, *args, name=fmt)
                prov = imp.draft["provenance"]
                self.assertEqual(prov["ledger"]["sha256"], hashlib.sha256(imp.runs.read_bytes()).hexdigest())
                self.assertEqual(prov["ledger"]["run_ids"], sorted({r["run_id"] for r in imp.records}))
                self.assertIsInstance(prov["instrument"], dict)
                self.assertIsInstance(prov["options"], dict)
                self.assertIn(prov["declared_set"], ("declared", "found"))

    def test_every_row_refuses_two_systems(self) -> None:
        """The one-system rule is the finisher's: a Found naming two systems is refused for any row's name."""
        found = gate.Found([("t", 1, ("pass", None), {}, {})], False, 1, "h", "",
                           systems=(("a.json", "agent x"), ("b.json", "agent y")))
        for fmt in gate.IMPORTERS:
            with self.subTest(fmt=fmt), self.assertRaises(gate.GateError) as caught:
                gate.finish(found, gate.ImportOptions((), None, "fail", 1.0), fmt, Path("x.json"))
            self.assertIn("measured 2 different systems", str(caught.exception))
        # each system names two of its files, then how many in all
        many = found._replace(systems=(("a1.json", "agent x"), ("a2.json", "agent x"), ("a3.json", "agent x"),
                                       ("b.json", "agent y")))
        with self.assertRaises(gate.GateError) as caught:
            gate.finish(many, gate.ImportOptions((), None, "fail", 1.0), "jsonl", Path("x.json"))
        self.assertIn("measured 2 different systems (agent x ('a1.json', 'a2.json', ... (3 in all)); agent y "
                      "('b.json')): one claim is one system", str(caught.exception))

    def test_every_row_refuses_attempts_past_its_budget_naming_how_many(self) -> None:
        """The attempt budget is the finisher's rule: a task with more attempts than its budget is refused for any row,
        naming all of them (3, where the first past the budget is the second), whatever string object each row holds."""
        rows = [("".join(["t", "-1"]), attempt, ("fail", None), {}, {}) for attempt in (1, 2, 3)]
        found = gate.Found(rows, False, 1, "h", "", budget_what="n_attempts (the config's)")
        for fmt in gate.IMPORTERS:
            with self.subTest(fmt=fmt), self.assertRaises(gate.GateError) as caught:
                gate.finish(found, gate.ImportOptions((), None, "fail", 1.0), fmt, Path("x.json"))
            self.assertEqual(str(caught.exception), f"import {fmt}: task 't-1' has 3 attempts, more than n_attempts 1 "
                                                    "(the config's)")

    def test_every_row_refuses_a_stale_evaluation_and_several_instruments(self) -> None:
        """The stale-evaluation and one-instrument rules are the finisher's too: any row's Found with an evaluation
        of another output, or runs at two harness commits, is refused; --one-instrument declares the latter."""
        stale = gate.Found([("t", 1, ("pass", None), {}, {})], False, 1, "h", "", graded=(("t", "aaa", "bbb"),))
        runs = gate.Found([("t", 1, ("pass", None), {}, {}), ("t", 2, ("fail", None), {}, {})], True, 2, "h", "",
                          run_instruments=(("r1", {"commit": "1"}), ("r2", {"commit": "2"})))
        options = gate.ImportOptions((), None, "fail", 1.0)
        for fmt in gate.IMPORTERS:
            with self.subTest(fmt=fmt):
                with self.assertRaises(gate.GateError) as caught:
                    gate.finish(stale, options, fmt, Path("x.json"))
                self.assertIn("stale", str(caught.exception))
                with self.assertRaises(gate.GateError) as caught:
                    gate.finish(runs, options, fmt, Path("x.json"))
                self.assertIn("--one-instrument", str(caught.exception))
                declared = gate.finish(runs, options._replace(one_instrument=True), fmt, Path("x.json"))
                self.assertIn("declared one instrument by the user", declared.provenance["one_instrument"])


    def test_every_row_is_held_to_the_attrition_ceiling(self) -> None:
        """Attrition is check's rule on every ledger an import writes: for each row's import, checked with its
        completed draft, the report's unscoreable count is the ledger's own (tasks, or attempts in samples mode),
        and with every task of the row's ledger made unscoreable the claim is BLOCKED by attrition_exceeded."""
        for fmt, args in self.imports().items():
            with self.subTest(fmt=fmt):
                imp = self.import_ok(fmt, *args, name=fmt)
                report = self.gated(imp)
                lost = report["attrition"]
                samples = imp.draft["attempt_mode"] == "samples"
                exits: dict[str, set[str]] = {}
                for r in imp.records:
                    exits.setdefault(r["task_id"], set()).add(r["outcome"])
                want = (sum(r["outcome"] == "unscoreable" for r in imp.records) if samples
                        else sum(outcomes == {"unscoreable"} for outcomes in exits.values()))
                self.assertEqual((lost["unscoreable"], lost["unit"]), (want, "attempts" if samples else "tasks"))
                broken = self.write_jsonl(f"{fmt}-lost.jsonl", [{**r, "outcome": "unscoreable", "reason": "env_flake"}
                                                                for r in imp.records])
                manifest = self.complete(imp.draft_path, name=f"{fmt}-lost")
                code, out, _ = self.run_gate("check", "--manifest", str(manifest), "--runs", str(broken), "--format", "json")
                self.assertEqual(code, 1)
                self.assertIn("attrition_exceeded", {f["code"] for f in json.loads(out)["findings"]})


class SubsetRuns(RealFileCase):
    def test_a_swebench_run_of_part_of_the_split_is_a_declared_subset(self) -> None:
        """The SWE-bench-java gpt-4o report (total_instances 91, 6 never submitted: incomplete_ids): with
        --dataset-ids listing the 85 submitted, a declared subset "85 of the 91", the 6 left out with a note; its
        rate over 85; the same report without total_instances, a subset of the 85 and the 6 it names, 91. Without
        ids: 91 declared, and a note and the draft's to-do say 6 were never submitted. A
        --dataset-ids that leaves out an instance that ran is refused. Old code: refused, "total_instances is 91
        but the declared set lists 85 ids"."""
        data = load(JAVA_GPT4O)
        never = set(data["incomplete_ids"])
        submitted = sorted({tid for key in ("resolved", "unresolved_ids", "error_ids", "empty_patch_ids", "completed_ids")
                            for tid in data.get(key, [])} - never)
        ids = self.dir / "submitted.txt"
        ids.write_text("\n".join(submitted) + "\n", encoding="utf-8")
        imp = self.import_ok("swebench", str(JAVA_GPT4O), "--dataset-ids", str(ids), name="subset")
        self.assertEqual(imp.draft["dataset"]["task_count"], len(submitted))
        self.assertEqual(imp.draft["dataset"]["subset"], {
            "of": data["total_instances"],
            "selection": f"--dataset-ids: {len(submitted)} of the {data['total_instances']} instances "
                         "total_instances name"})
        self.assertTrue(any(f"{len(never)} task(s) the files name outside --dataset-ids (never submitted: "
                            "incomplete_ids) are left out" in n for n in imp.notes()), imp.notes())
        self.assertFalse(never & {r["task_id"] for r in imp.records})
        whole = self.import_ok("swebench", str(JAVA_GPT4O), name="whole")
        self.assertEqual(whole.draft["dataset"]["task_count"], data["total_instances"])
        self.assertTrue(any(f"{len(never)} of the {data['total_instances']} instances were never submitted" in n
                            for n in whole.notes()), whole.notes())
        self.assertTrue(any(item.startswith(f"dataset: {len(never)} instance(s) were never submitted")
                            for item in whole.draft["draft"]))
        # a report that does not state total_instances: the whole is what the files name, the declared and the 6
        untotalled = self.write_json("untotalled.json", {k: v for k, v in data.items() if k != "total_instances"})
        imp = self.import_ok("swebench", str(untotalled), "--dataset-ids", str(ids), name="untotalled")
        self.assertEqual(imp.draft["dataset"]["subset"]["of"], len(submitted) + len(never))
        self.assertEqual(len(submitted) + len(never), data["total_instances"])
        resolved = data["resolved"][0]
        ids.write_text("\n".join(t for t in submitted if t != resolved) + "\n", encoding="utf-8")
        self.assertInputError(self.run_gate("import", "swebench", str(JAVA_GPT4O), "--dataset-ids", str(ids)),
                              "tasks not in --dataset-ids", repr(resolved), "cannot leave out a task that ran")
        # an id in incomplete_ids that another list names unresolved is not "never submitted" (it ran and failed)
        unresolved = data["unresolved_ids"][0]
        both = self.write_json("both.json", {**data, "incomplete_ids": [*data["incomplete_ids"], unresolved],
                                             "incomplete_instances": len(data["incomplete_ids"]) + 1})
        ids.write_text("\n".join(t for t in submitted if t != unresolved) + "\n", encoding="utf-8")
        self.assertInputError(self.run_gate("import", "swebench", str(both), "--dataset-ids", str(ids)),
                              "tasks not in --dataset-ids", repr(unresolved), "cannot leave out a task that ran")

    def test_a_polybench_instance_with_no_generation_is_a_fail_never_left_out(self) -> None:
        """Kodah's 113 result files (13 with generation: false): 37/113, the submission's own figure, and the agent
        named from metadata.yaml. No instance with a result file can be left out by --dataset-ids: not the 13
        Python fails (it published 37/100), not a repository whose one instance has no generation (AutoGPT: 37/112),
        not 40 more files of another language with no generation (the files cannot tell a fail from a run never
        made). generation: false is a fail even beside resolved: true."""
        folder = self.dir / "kodah"
        shutil.copytree(POLY, folder)
        ran = sorted(p.name[:-len("_result.json")] for p in (folder / "logs").glob("*_result.json"))
        whole = self.import_ok("swe-polybench", str(folder), name="whole")
        self.assertTrue(any("113 result file(s), 13 with no generation" in n for n in whole.notes()), whole.notes())
        self.assertEqual(whole.draft["system"]["agent"], "Kodah")
        self.assertEqual((whole.draft["dataset"]["task_count"], sum(r["outcome"] == "pass" for r in whole.records)),
                         (113, 37))
        ids = self.dir / "ids.txt"
        generated = [t for t in ran if load(folder / "logs" / f"{t}_result.json")["generation"]]
        self.assertEqual(len(generated), len(ran) - 13)
        lone = next(t for t in ran if t.startswith("Significant-Gravitas__AutoGPT"))
        autogpt = folder / "logs" / f"{lone}_result.json"
        autogpt.write_text(json.dumps({**load(autogpt), "generation": False, "resolved": False}), encoding="utf-8")
        for i in range(40):
            (folder / "logs" / f"other__java-{i}_result.json").write_text(json.dumps(
                {"instance_id": f"other__java-{i}", "patch_applied": False, "generation": False, "with_logs": False,
                 "all_f2p_passed": False, "no_p2p_failed": False, "resolved": False}), encoding="utf-8")
        for kept in (generated, [t for t in ran if t != lone], ran):
            with self.subTest(kept=len(kept)):
                ids.write_text("\n".join(kept) + "\n", encoding="utf-8")
                self.assertInputError(self.run_gate("import", "swe-polybench", str(folder), "--dataset-ids", str(ids)),
                                      "tasks not in --dataset-ids", "cannot leave out a task that ran")
        first = folder / "logs" / f"{generated[0]}_result.json"
        first.write_text(json.dumps({**load(first), "generation": False, "resolved": True}), encoding="utf-8")
        imp = self.import_ok("swe-polybench", str(folder), name="again")
        self.assertEqual({r["outcome"] for r in imp.records if r["task_id"] == generated[0]}, {"fail"})


class StaleAndMixed(RealFileCase):
    def test_a_stale_openhands_evaluation_is_refused(self) -> None:
        """A new output.jsonl (its patch for one instance changed) beside the previous run's
        output.swebench_eval.jsonl: refused, naming the instance. Its good twin (the files as written) imports."""
        self.import_ok("openhands", str(OH_REMOTE / "output.jsonl"), "--dataset-ids", str(OH_REMOTE / "declared_ids.txt"))
        folder = self.dir / "oh"
        shutil.copytree(OH_REMOTE, folder)
        lines = (folder / "output.jsonl").read_text(encoding="utf-8").splitlines()
        first = json.loads(lines[0])
        first["test_result"]["git_patch"] += "+# a new patch\n"
        lines[0] = json.dumps(first)
        (folder / "output.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.assertInputError(self.run_gate("import", "openhands", str(folder / "output.jsonl")),
                              "output.swebench_eval.jsonl graded another output than the run produced for 1 task(s)",
                              repr(first["instance_id"]), "stale")

    def test_two_mle_bench_agents_are_not_two_seeds(self) -> None:
        """The two seed reports of the AIDE run group import as two seeds and name the agent; one re-labelled to an
        OpenDevin run group is refused as a second system. Old code: "2 seeds" of one claim."""
        imp = self.import_ok("mle-bench", str(MLE / "run-group-seed0"), str(MLE / "run-group-seed1"))
        self.assertEqual(imp.draft["system"]["agent"], "aide")
        other = self.dir / "opendevin"
        shutil.copytree(MLE / "run-group-seed1", other)
        report = next(other.glob("*_grading_report.json"))
        report.write_text(report.read_text(encoding="utf-8").replace("_run-group_aide", "_run-group_opendevin"),
                          encoding="utf-8")
        self.assertInputError(self.run_gate("import", "mle-bench", str(MLE / "run-group-seed0"), str(other)),
                              "measured 2 different systems", "agent aide", "agent opendevin")

    def test_an_n_seeds_report_is_its_seeds(self) -> None:
        """One grading report of an --n-seeds run (each competition once a seed) imports as the same ledger the two
        seed reports make. Old code: refused (a competition twice)."""
        reports = [load(next((MLE / seed).glob("*_grading_report.json"))) for seed in ("run-group-seed0", "run-group-seed1")]
        merged = dict(reports[0], competition_reports=[*reports[0]["competition_reports"],
                                                      *reports[1]["competition_reports"]])
        (self.dir / "group").mkdir()
        one = self.write_json("group/2026-12-01T00-00-00-GMT_grading_report.json", merged)
        imp = self.import_ok("mle-bench", str(one), name="one")
        two = self.import_ok("mle-bench", str(MLE / "run-group-seed0"), str(MLE / "run-group-seed1"), name="two")
        self.assertEqual(imp.draft["attempt_budget"], 2)
        key = [(r["task_id"], r["attempt"], r["outcome"], r["reason"]) for r in imp.records]
        self.assertEqual(sorted(key), sorted((r["task_id"], r["attempt"], r["outcome"], r["reason"]) for r in two.records))


class MappingNull(RealFileCase):
    def test_a_null_verdict_is_no_verdict(self) -> None:
        """`--pass is_resolved` reading null (a test timeout): unreadable, naming the line and the fix (old code: a
        fail); `--pass "not is_resolved"` likewise (old code: a pass); --unreadable-as unscoreable counts it, and
        --unscoreable 'is_resolved == null' names its reason."""
        path = self.write_jsonl("results.jsonl", [{"id": "a", "is_resolved": True}, {"id": "b", "is_resolved": None},
                                                 {"id": "c", "is_resolved": False}])
        for expression in ("is_resolved", "not is_resolved"):
            with self.subTest(expression=expression):
                self.assertInputError(self.run_gate("import", "jsonl", str(path), "--task-id", "id", "--pass", expression),
                                      "results.jsonl:2", "is_resolved: null is not a verdict",
                                      "--unscoreable 'is_resolved == null' --reason CLASS")
        imp = self.import_ok("jsonl", str(path), "--task-id", "id", "--pass", "is_resolved", "--unscoreable",
                             "is_resolved == null", "--reason", "harness_timeout", name="coded")
        self.assertEqual({r["task_id"]: (r["outcome"], r["reason"]) for r in imp.records},
                         {"a": ("pass", None), "b": ("unscoreable", "harness_timeout"), "c": ("fail", None)})
        imp = self.import_ok("jsonl", str(path), "--task-id", "id", "--pass", "is_resolved", "--unreadable-as",
                             "unscoreable", name="lenient")
        self.assertEqual(next(r for r in imp.records if r["task_id"] == "b")["outcome"], "unscoreable")


class UnknownStatuses(RealFileCase):
    """A status a reader does not know, null included, is refused by name, never read as a fail (which hid it
    from the attrition ceiling): the mapping importer's null rule, for the named readers through one helper."""

    def changed(self, source: Path, edit: Any) -> Path:
        folder = self.dir / source.parent.name
        shutil.copytree(source.parent, folder, dirs_exist_ok=True)
        data = json.loads(source.read_text(encoding="utf-8"))
        edit(data)
        (folder / source.name).write_text(json.dumps(data), encoding="utf-8")
        return folder / source.name

    def test_evalplus_bigcodebench_and_mle_bench_refuse_a_status_they_do_not_know(self) -> None:
        """EvalPlus base_status and plus_status, BigCodeBench status (pass, fail or timeout) and MLE-bench any_medal
        (true or false): "crashed" or null in one sample is exit 2 naming the file, the task, the sample and the field
        (old code: a fail)."""
        evalplus = HARNESSES / "evalplus" / "samples_eval_results.json"
        bcb = next((HARNESSES / "bigcodebench" / "run").glob("*_eval_results.json"))
        mle = next((MLE / "run-group-seed0").glob("*_grading_report.json"))
        cases = [("evalplus", evalplus, "eval", "HumanEval/0", "base_status"),
                 ("evalplus", evalplus, "eval", "HumanEval/0", "plus_status"),
                 ("bigcodebench", bcb, "eval", "BigCodeBench/0", "status")]
        for fmt, source, table, task, field in cases:
            for bad in ("crashed", None):
                with self.subTest(fmt=fmt, field=field, bad=bad):
                    def edit(data: Any, table: str = table, task: str = task, field: str = field, bad: Any = bad) -> None:
                        data[table][task][0][field] = bad
                    path = self.changed(source, edit)
                    result = self.run_gate("import", fmt, str(path), "-o", str(self.dir / "o.jsonl"))
                    self.assertInputError(result, f"{task}: sample 1: {field}: expected \"pass\" or \"fail\" or \"timeout\"")
        for bad in (None, "yes"):
            with self.subTest(fmt="mle-bench", bad=bad):
                def medal(data: Any, bad: Any = bad) -> None:
                    data["competition_reports"][0].update(any_medal=bad, submission_exists=True, valid_submission=True)
                path = self.changed(mle, medal)
                result = self.run_gate("import", "mle-bench", str(path), "-o", str(self.dir / "o.jsonl"))
                self.assertInputError(result, "competition_reports[0].any_medal: expected true or false")


    def test_nocode_bench_and_aider_refuse_a_verdict_that_is_not_a_boolean(self) -> None:
        """NoCode-bench's resolved and aider's tests_outcomes hold true or false: null or "yes" is exit 2 naming the
        file and the field, never a fail."""
        nocode = HARNESSES / "nocode-bench" / "evaluation_details.jsonl"
        for bad in (None, "yes"):
            with self.subTest(fmt="nocode-bench", bad=bad):
                lines = nocode.read_text(encoding="utf-8").splitlines()
                first = dict(json.loads(lines[0]), resolved=bad)
                path = self.dir / f"nocode-{bad}" / nocode.name
                path.parent.mkdir()
                path.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
                result = self.run_gate("import", "nocode-bench", str(path), "-o", str(self.dir / "o.jsonl"))
                self.assertInputError(result, "resolved: expected true or false")
            with self.subTest(fmt="aider", bad=bad):
                run = self.dir / f"aider-{bad}" / "2026-11-20-10-00-00--gpt-4.1-diff"
                shutil.copytree(HARNESSES / "aider" / "2026-11-20-10-00-00--gpt-4.1-diff", run)
                results = next(run.rglob(".aider.results.json"))
                data = json.loads(results.read_text(encoding="utf-8"))
                data["tests_outcomes"] = [bad]
                results.write_text(json.dumps(data), encoding="utf-8")
                result = self.run_gate("import", "aider", str(run), "-o", str(self.dir / "o.jsonl"))
                self.assertInputError(result, "tests_outcomes: expected a list of true/false")


class LmEvalStatedFigure(RealFileCase):
    def test_without_n_samples_the_stated_figure_is_over_the_documents_logged(self) -> None:
        """A results file with no n-samples: lm-eval's stated pass@1 is quoted over the documents the samples file
        logged (6), never over a count the file does not give (a mutation survivor of the seed-20261208 sample printed
        "the mean over the None document(s)")."""
        folder = self.dir / "lm"
        shutil.copytree(LM_SAMPLES.parent, folder)
        results = next(folder.glob("results_*.json"))
        data = json.loads(results.read_text(encoding="utf-8"))
        del data["n-samples"]
        results.write_text(json.dumps(data), encoding="utf-8")
        imp = self.import_ok("lm-eval", str(folder / LM_SAMPLES.name), name="lm")
        self.assertIn("the mean over the 6 document(s) it evaluated", imp.err)


class RecordedInstruments(RealFileCase):
    def test_inspect_and_openhands_record_the_release_and_commit_their_files_name(self) -> None:
        """The instrument an import binds is the one the files record: an Inspect log's eval.packages.inspect_ai, an
        OpenHands output's metadata.git_commit (read here from the files themselves); two Inspect logs of different
        inspect_ai releases are two instruments, refused as one claim without --one-instrument."""
        from tests.support import INS_OK
        release = json.loads(INS_OK.read_text(encoding="utf-8"))["eval"]["packages"]["inspect_ai"]
        imp = self.import_ok("inspect", str(INS_OK), name="inspect")
        self.assertEqual(imp.draft["provenance"]["instrument"], {"version": f"inspect_ai {release}"})
        line = json.loads((OH_REMOTE / "output.jsonl").read_text(encoding="utf-8").splitlines()[0])
        imp = self.import_ok("openhands", str(OH_REMOTE / "output.jsonl"), name="openhands")
        self.assertEqual(imp.draft["provenance"]["instrument"], {"commit": line["metadata"]["git_commit"]})
        other = json.loads(INS_OK.read_text(encoding="utf-8"))
        other["eval"]["packages"]["inspect_ai"] = "0.3.1"
        other["eval"]["run_id"], other["eval"]["task"] = "another-run", "tiny-two"
        second = self.write_json("other-release.json", other)
        result = self.run_gate("import", "inspect", str(INS_OK), str(second), "-o", str(self.dir / "two.jsonl"))
        self.assertInputError(result, "--one-instrument")


class RightWay(RealFileCase):
    def test_an_openhands_output_of_another_benchmark_names_the_mapping_command(self) -> None:
        """An OpenHands output.jsonl whose lines carry `id` and `test_result.result` (a benchmark other than
        SWE-bench): the refusal names the import jsonl command that reads it, and that command does."""
        for name in ("output.jsonl", "my output.jsonl"):  # a space in the path: the command quotes it
            with self.subTest(name=name):
                path = self.write_jsonl(name, [{"id": f"q{i}", "test_result": {"result": i % 2 == 0},
                                                "history": [], "metadata": {}} for i in range(4)])
                command = f"import jsonl {shlex.quote(str(path))} --task-id id --pass test_result.result"
                self.assertInputError(self.run_gate("import", "openhands", str(path)), f"`python3 gate.py {command}`")
                imp = self.import_ok(*shlex.split(command)[1:], name=name.split(".")[0].replace(" ", "-"))
                self.assertEqual(sum(r["outcome"] == "pass" for r in imp.records), 2)

    def test_task_args_that_differ_past_a_shared_prefix_are_named(self) -> None:
        """Two finished logs of one task whose task_args share 100 characters and differ after: the refusal names the
        differing key with each value (old code cut both at 60 characters: two identical strings)."""
        logs = sorted(p for p in (RULES / "two-finished").rglob("*.json") if p.name not in ("eval-set.json", "logs.json"))
        folder = self.dir / "args"
        folder.mkdir()
        for log, variant in zip(logs, ("one", "two")):
            data = load(log)
            data["eval"]["task_args"] = {"prompt": "p" * 100, "variant": variant}
            (folder / log.name).write_text(json.dumps(data), encoding="utf-8")
        self.assertInputError(self.run_gate("import", "inspect", str(folder)),
                              f'{logs[0].name} (variant="one")', f'{logs[1].name} (variant="two")')

    def test_a_none_model_is_asked_for(self) -> None:
        """An Inspect log whose model is none/none: the draft asks for the model instead of publishing
        model=none/none."""
        data = load(INS_OK)
        data["eval"]["model"] = "none/none"
        imp = self.import_ok("inspect", str(self.write_json("log.json", data)))
        self.assertTrue(imp.draft["system"]["model"].startswith("TODO"))
        self.assertTrue(any(item.startswith("system.model:") for item in imp.draft["draft"]))

    def test_lm_eval_takes_the_dataset_ids_its_draft_asks_for(self) -> None:
        """A samples file alone: the draft asks for --dataset-ids, and the import takes them (old code refused)."""
        alone = self.dir / "alone"
        alone.mkdir()
        shutil.copy(LM_SAMPLES, alone / LM_SAMPLES.name)
        imp = self.import_ok("lm-eval", str(alone / LM_SAMPLES.name), name="alone")
        self.assertTrue(any("--dataset-ids" in item for item in imp.draft["draft"]), imp.draft["draft"])
        ids = self.dir / "docs.txt"
        ids.write_text("\n".join([*imp.draft["dataset"]["task_ids"], "humaneval/99"]) + "\n", encoding="utf-8")
        declared = self.import_ok("lm-eval", str(alone / LM_SAMPLES.name), "--dataset-ids", str(ids), name="declared")
        self.assertIn("humaneval/99", declared.draft["dataset"]["task_ids"])

    def test_check_names_swebench_control_commands_for_an_experiments_claim(self) -> None:
        """A SWE-bench experiments claim with no controls: controls_incomplete names SWE-bench's own no-edit and
        known-fix commands (old code matched SWE-agent's or PolyBench's row by the harness text)."""
        ex = ROOT / "examples" / "swebench"
        imp = self.import_ok("swebench", str(ex / "results.json"), "--dataset-ids", str(ex / "verified-ids.txt"))
        report = self.gated(imp)
        message = next(f["message"] for f in report["findings"] if f["code"] == "controls_incomplete")
        self.assertIn("with swebench: no-edit: a predictions file whose model_patch", message)
        self.assertIn("`python3 gate.py import swebench ... --control no_edit|known_fix", message)


class EarlierLayouts(RealFileCase):
    """Real formats that were refused as "not what they are" (issue 36)."""

    def test_evalplus_0_1_results_are_read(self) -> None:
        """evalplus 0.1.7's own *_eval_results.json (eval[task] = {nfiles, base, plus}): pass@1 over samples is
        the tool's printed 0.533 (base and plus) and 0.733 (--tests base, and the --base-only file), exactly
        the 0.3.1 file's figures on the same samples. Old code: "not an EvalPlus *_eval_results.json"."""
        old = HARNESSES / "evalplus-0.1"
        for name, tests, expected in (("samples_eval_results.json", "plus", (8, 15)),
                                      ("samples_eval_results.json", "base", (11, 15)),
                                      ("samples_baseonly_eval_results.json", "plus", (11, 15)),
                                      ("samples_details_eval_results.json", "plus", (8, 15))):
            with self.subTest(name=name, tests=tests):
                imp = self.import_ok("evalplus", str(old / name), "--tests", tests, name=f"{name}-{tests}")
                passed = sum(r["outcome"] == "pass" for r in imp.records)
                self.assertEqual((passed, len(imp.records)), expected)
                new = self.import_ok("evalplus", str(HARNESSES / "evalplus" / "samples_eval_results.json"), "--tests",
                                     tests, name=f"new-{name}-{tests}")
                if "baseonly" not in name:
                    self.assertEqual(sorted((r["task_id"], r["attempt"], r["outcome"]) for r in imp.records),
                                     sorted((r["task_id"], r["attempt"], r["outcome"]) for r in new.records))
        stdout = (old / "stdout.txt").read_text(encoding="utf-8")
        self.assertIn("{'pass@1': 0.5333333333333333}", stdout)
        self.assertIn("{'pass@1': 0.7333333333333333}", stdout)

    def test_an_evalplus_0_1_file_whose_columns_disagree_is_refused(self) -> None:
        """nfiles one more than the results, or a plus column one longer or one shorter than the base column
        (each sample has one result in each): refused naming the task."""
        for change in ("nfiles", "longer plus", "shorter plus"):
            with self.subTest(change=change):
                data = load(HARNESSES / "evalplus-0.1" / "samples_eval_results.json")
                task = next(iter(data["eval"]))
                entry = data["eval"][task]
                if change == "nfiles":
                    entry["nfiles"] += 1
                elif change == "longer plus":
                    entry["plus"].append(entry["plus"][0])
                else:
                    entry["plus"].pop()
                path = self.write_json("bad_eval_results.json", data)
                self.assertInputError(self.run_gate("import", "evalplus", str(path)), f"eval.{task}",
                                      "one result a sample")

    def test_aiders_earlier_layout_is_read_and_sorted_copies_are_the_same_run(self) -> None:
        """aider 0.55's run folder (<run>/<exercise>/.aider.results.json): 8 exercises declared (the never-run
        react missing_artifact, the crashed zipper env_flake), tries as retries: pass@2 4/8 over the full
        denominator, beside aider's own 4/7 (stated-summary.yml pass_rate_2 57.1, test_cases 7). The same run
        sorted by the user into failed/, pass-at-1/, pass-at-2/ imports the same ledger. Old code: "not an aider
        benchmark run"."""
        base = HARNESSES / "aider-prepolyglot"
        run = self.import_ok("aider", str(base / "2024-09-05-14-21-37--gpt-4o-diff"), name="run")
        sorted_run = self.import_ok("aider", str(base / "sorted--gpt-4o-diff"), name="sorted")
        self.assertEqual(run.draft["dataset"]["task_count"], 8)
        by_task = {}
        for rec in run.records:
            by_task.setdefault(rec["task_id"], []).append((rec["outcome"], rec["reason"]))
        self.assertEqual(by_task["react"], [("unscoreable", "missing_artifact")])
        self.assertEqual(by_task["zipper"], [("unscoreable", "env_flake")])
        self.assertEqual(sum(any(o == "pass" for o, _ in v) for v in by_task.values()), 4)
        summary = (base / "stated-summary.yml").read_text(encoding="utf-8")
        self.assertIn("pass_rate_2: 57.1", summary)
        self.assertIn("test_cases: 7", summary)
        key = lambda imp: sorted((r["task_id"], r["attempt"], r["outcome"], r["reason"]) for r in imp.records)  # noqa: E731
        self.assertEqual(key(sorted_run), key(run))
        self.assertEqual(run.draft["system"]["model"], "gpt-4o")

    def test_an_exercise_twice_in_a_sorted_run_is_refused(self) -> None:
        folder = self.dir / "twice"
        shutil.copytree(HARNESSES / "aider-prepolyglot" / "sorted--gpt-4o-diff", folder)
        shutil.copytree(folder / "pass-at-1" / "anagram", folder / "failed" / "anagram")
        self.assertInputError(self.run_gate("import", "aider", str(folder)), "exercise 'anagram' again")


class SubsetsKeepTheirWhole(RealFileCase):
    """A run of part of a suite declares every task it ran and the suite's own size (adversarial review)."""

    def test_an_lm_eval_limit_run_whose_samples_file_lost_documents_is_refused(self) -> None:
        """lm-eval's n-samples says 4 of 6 documents were evaluated; a samples file cut to its first 2 lines (one
        pass, one fail) was published as 1/2 of a "4 of 6" subset (lm-eval's own figure is 0.25 over 4)."""
        folder = self.dir / "limit"
        shutil.copytree(HARNESSES / "lm-eval" / "limit", folder)
        samples = next(folder.glob("samples_*.jsonl"))
        results = next(folder.glob("results_*.json"))
        whole = self.import_ok("lm-eval", str(results), name="whole")
        self.assertEqual(whole.draft["dataset"]["task_count"], 4)
        self.assertTrue(any("the mean over the 4 document(s) it evaluated" in n for n in whole.notes()), whole.notes())
        samples.write_text("".join(samples.read_text(encoding="utf-8").splitlines(keepends=True)[:2]), encoding="utf-8")
        self.assertInputError(self.run_gate("import", "lm-eval", str(results)),
                              "lm-eval evaluated 4 documents", "the file logs 2")

    def test_a_hal_max_tasks_run_that_names_fewer_tasks_needs_the_ids(self) -> None:
        """HAL --max_tasks 6 whose results name 5 tasks: refused without --dataset-ids (it drafted a set of 5 that
        --confirm dataset published as 3/5, the card saying "the first 6 of --dataset-ids" with none given); with
        the benchmark's ids, 6 declared and the missing one missing_artifact."""
        upload = next((HARNESSES / "hal").glob("corebench_hard_*/*_UPLOAD.json"))
        self.assertInputError(self.run_gate("import", "hal", str(upload)),
                              "--max_tasks", "is 6 but the files name 5 ids", "--dataset-ids")
        imp = self.import_ok("hal", str(upload), "--dataset-ids", str(HARNESSES / "hal" / "corebench_declared_ids.txt"))
        self.assertEqual(imp.draft["dataset"]["task_count"], 6)
        self.assertEqual(sum(r["outcome"] == "pass" for r in imp.records), 3)
        self.assertEqual([r["reason"] for r in imp.records if r["outcome"] == "unscoreable"], ["missing_artifact"])

    def test_dataset_ids_do_not_lower_the_suite_size_the_files_state(self) -> None:
        """An Inspect --limit 10 log of a 100-sample suite, with --dataset-ids naming those 10: the subset is still
        "10 of 100" (it read "10 of 10", hiding the 100)."""
        log = next((FIXTURES / "inspect" / "runs" / "limit10-json").glob("*.json"))
        first = self.import_ok("inspect", str(log), name="first")
        ids = self.write_text("ten.txt", "\n".join(sorted({r["task_id"] for r in first.records})) + "\n")
        imp = self.import_ok("inspect", str(log), "--dataset-ids", str(ids))
        self.assertEqual((imp.draft["dataset"]["task_count"], imp.draft["dataset"]["subset"]["of"]), (10, 100))


class InspectTaskNames(RealFileCase):
    def test_two_tasks_whose_names_read_as_one_id_are_never_a_retry(self) -> None:
        """An errored log of task suite/hard and a later finished log of another task, suite-hard: refused, naming
        both (the first was dropped as "replaced by its retry"); the same name twice is still a retry."""
        errored, finished = load(FIXTURES / "inspect" / "tiny-err-status-error.json"), load(
            FIXTURES / "inspect" / "tiny-success.json")
        errored["eval"].update(task="suite/hard", created="2026-11-30T05:00:00+00:00")
        finished["eval"].update(task="suite-hard", created="2026-11-30T06:00:00+00:00")
        a, b = self.write_json("log_a.json", errored), self.write_json("log_b.json", finished)
        self.assertInputError(self.run_gate("import", "inspect", str(a), str(b)),
                              "tasks 'suite-hard' and 'suite/hard' both read as task id 'suite-hard'")
        finished["eval"]["task"] = "suite/hard"
        b = self.write_json("log_b.json", finished)
        imp = self.import_ok("inspect", str(a), str(b))
        self.assertTrue(any("replaced by its retry log_b.json" in n for n in imp.notes()), imp.notes())


class UnreadableAdvice(RealFileCase):
    def test_a_null_verdict_is_advised_by_whose_mapping_it_is(self) -> None:
        """A user's mapping meeting null is told the --unscoreable it can give; SWE-PolyBench's own mapping (which
        takes no such flag) names the result file and says the evaluation writes true or false."""
        path = self.write_text("r.jsonl", '{"id": "a", "ok": true}\n{"id": "b", "ok": null}\n')
        self.assertInputError(self.run_gate("import", "jsonl", str(path), "--task-id", "id", "--pass", "ok"),
                              "r.jsonl:2: ok: null is not a verdict", "--unscoreable 'ok == null' --reason CLASS")
        folder = self.dir / "poly"
        shutil.copytree(POLY, folder)
        first = sorted((folder / "logs").glob("*_result.json"))[0]
        first.write_text(json.dumps({**load(first), "generation": None}), encoding="utf-8")
        code, _out, err = self.run_gate("import", "swe-polybench", str(folder))
        self.assertInputError((code, _out, err), f"{first}: generation: null is not a verdict",
                              "SWE-PolyBench's evaluation writes generation")
        self.assertNotIn("--unscoreable", err)
        # a folder is SWE-PolyBench's input only: `import jsonl` given one is refused, never read as result files
        self.assertInputError(self.run_gate("import", "jsonl", str(folder / "logs"), "--task-id", "instance_id",
                                            "--pass", "resolved"), "cannot read")


class HalBenchmarkName(RealFileCase):
    def test_a_benchmark_name_that_is_not_text_is_not_the_dataset_name(self) -> None:
        """config.benchmark_name 7: the draft asks for the dataset's name (a TODO), never names it 7 (a mutation
        survivor of the seed-20261211 sample read any truthy value as the name); the real name is taken."""
        upload = next((HARNESSES / "hal").glob("swebench_verified_mini_*/*_UPLOAD.json"))
        data = load(upload)
        named = self.import_ok("hal", str(upload), name="named")
        self.assertEqual(named.draft["dataset"]["name"].split(" (")[0], data["config"]["benchmark_name"])
        data["config"]["benchmark_name"] = 7
        odd = self.write_json("odd_UPLOAD.json", data)
        imp = self.import_ok("hal", str(odd), name="odd")
        self.assertTrue(imp.draft["dataset"]["name"].startswith("TODO"), imp.draft["dataset"]["name"])
