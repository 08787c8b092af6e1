"""Newcomer stories (issue 21, acceptance): for each harness, the path a new user takes from a real harness file
to a PUBLISHABLE claim and a comparison of two systems, played end to end with nothing the user would not do.

Each story:
1. imports the claim run with `-o runs.jsonl --draft-manifest bench.manifest.json`; the to-do items the import
   prints on stderr must be the draft's own "draft" list, and the import must name the `check` command;
2. imports a nop-style (`--control no_edit`) and an oracle-style (`--control known_fix`) control run into the
   draft. No such run of these suites was published, so each is a STAND-IN built from the real run's own file
   with only the verdicts (and the run's own summary figures, the agent's name) changed to all-fail / all-pass,
   as examples/make_quickstarts.py does; the SWE-bench no-edit run is a run report whose instances all ran and
   failed (`unresolved_ids`: a no-op patch), never empty patches, which the gate refuses;
3. fills ONLY what the draft's "draft" list still asks, from one table of instrument values per harness (the
   same for both systems, as one user running both would type), counting the fields set: at most four. Deleting
   the "draft" list is not a field. A filled field must have been null or a TODO placeholder: the user never
   overwrites what the harness recorded;
4. runs `check`: PUBLISHABLE with no finding, and the headline equal to an independent count from the harness
   file (never from the records the gate wrote); `--claim k/n` of that count matches;
5. imports a second system the same way (its own draft, its own control runs, the same fill) and runs `compare`
   of the two with no further edit to either manifest: exit 0 and PUBLISHABLE without `--fail-on` (same suite,
   same instrument), `--fail-on difference` exits 1 exactly when the comparison is significant, and the
   `systems` line names each side's system.

Where a story cannot pass because of gate.py's behaviour, the failing assertion is kept on its own under
`@unittest.expectedFailure` with a `# DEFECT:` comment saying what the newcomer meets.
"""

from __future__ import annotations

import copy
import json
import re
import shlex
import unittest
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple

from tests.realfiles import (
    DROID,
    JAVA_DEEPSEEK,
    JAVA_GPT4O,
    JAVA_INDEX,
    OPENHANDS,
    TB_BOARD,
    TH20,
    RealFileCase,
    unpack,
)
from tests.support import INSPECT, load

TWO_MODELS = INSPECT / "rules" / "two-models"

# A to-do item names what it asks for before its first ": " ("envelope.network: ...", "controls: ...").
ITEM = re.compile(r"^([A-Za-z_]+(?:\.[A-Za-z_]+)*): ")
MAX_FIELDS = 4


def dump(path: Path, value: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")
    return path


def is_unset(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value.startswith("TODO"))


class Claim(NamedTuple):
    """One system's imported and completed claim."""
    runs: Path
    manifest: Path
    asked: list[str]     # the draft list as the claim's import wrote it (and printed it)
    filled: list[str]    # the fields the user set
    report: dict[str, Any]


class NewcomerCase(RealFileCase):
    """The story's steps; each harness's class gives its instrument values and its control-run builder."""

    FORMAT = ""
    UNNAMED_SYSTEM: tuple[str, ...] = ()  # system fields the harness's files do not name, asked of the user
    # The values one user types into the fields a draft asks for, the same for both systems (the instrument).
    INSTRUMENT: dict[str, Any] = {}
    # Items of the draft list that ask for nothing on this run, and why (the story checks the why itself).
    ADVISORY: dict[str, str] = {}

    # --- the steps -----------------------------------------------------------------------------------------

    def import_claim(self, name: str, *files: Path | str) -> tuple[Path, Path, list[str]]:
        """Step 1: the claim run, with -o and --draft-manifest. The to-do lines printed are the draft list."""
        folder = self.dir / name
        folder.mkdir(parents=True, exist_ok=True)
        runs, draft = folder / "runs.jsonl", folder / "bench.manifest.json"
        code, out, err = self.run_gate("import", self.FORMAT, *map(str, files), "-o", str(runs),
                                       "--draft-manifest", str(draft))
        self.assertEqual(code, 0, err)
        self.assertEqual(out, "")
        self.assertNotIn("Traceback", err)
        prefix = f"gate.py: to do in {draft}: "
        printed = [line[len(prefix):] for line in err.splitlines() if line.startswith(prefix)]
        asked = load(draft)["draft"]
        self.assertEqual(printed, asked, "the import prints the draft's to-do list, item by item")
        self.assertIn(f"then check it: python3 gate.py --manifest {shlex.quote(str(draft))} --runs {shlex.quote(str(runs))}", err)
        return runs, draft, asked

    def import_control(self, role: str, draft: Path, *files: Path | str) -> Path:
        """Step 2: a control run of the same suite into the draft."""
        runs = draft.parent / f"{role}.jsonl"
        code, _, err = self.run_gate("import", self.FORMAT, *map(str, files), "--control", role, "-o", str(runs),
                                       "--draft-manifest", str(draft))
        self.assertEqual(code, 0, err)
        self.assertNotIn("Traceback", err)
        return runs

    def fill(self, draft: Path) -> list[str]:
        """Step 3: set exactly the fields the draft list still asks for, then delete the list. Returns the fields."""
        manifest = load(draft)
        asked = manifest.pop("draft")
        filled = []
        for item in asked:
            if item.startswith('then delete this "draft" list'):
                continue
            match = ITEM.match(item)
            self.assertIsNotNone(match, f"a to-do item that names no field: {item}")
            field = match.group(1) if match else ""
            self.assertNotEqual(field, "controls", f"both control runs are imported, yet the draft asks: {item}")
            if field in self.ADVISORY:
                continue
            self.assertIn(field, self.INSTRUMENT, f"the draft asks for what this story has no value for: {item}")
            *parents, key = field.split(".")
            holder = manifest
            for part in parents:
                holder = holder[part]
            self.assertTrue(is_unset(holder.get(key)), f"{field} holds {holder.get(key)!r}: the harness recorded it")
            holder[key] = self.INSTRUMENT[field]
            filled.append(field)
        left = [m.group(0) for m in re.finditer(r'"[^"]*TODO[^"]*"', json.dumps(manifest))]
        self.assertEqual(left, [], "a TODO the draft list did not ask for")
        draft.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
        return filled

    def check_publishable(self, manifest: Path, runs: Path, k: int, n: int) -> dict[str, Any]:
        """Step 4: `check` PUBLISHABLE, no finding, the headline k/n; `--claim k/n` matches."""
        code, out, err = self.run_gate("check", "--manifest", str(manifest), "--runs", str(runs), "--format", "json")
        self.assertIn(code, (0, 1), err)
        report: dict[str, Any] = json.loads(out)
        self.assertEqual(report["findings"], [])
        self.assertEqual((code, report["verdict"]), (0, "PUBLISHABLE"))
        self.assertHeadline(report, Fraction(k, n), n)
        code, out, err = self.run_gate("check", "--manifest", str(manifest), "--runs", str(runs), "--claim", f"{k}/{n}")
        self.assertEqual(code, 0, out + err)
        self.assertIn("verdict     : PUBLISHABLE", out)
        return report

    def claim(self, name: str, files: tuple[Path | str, ...], no_edit: tuple[Path | str, ...],
              known_fix: tuple[Path | str, ...], k: int, n: int) -> Claim:
        """Steps 1-4 for one system."""
        runs, draft, asked = self.import_claim(name, *files)
        self.import_control("no_edit", draft, *no_edit)
        self.import_control("known_fix", draft, *known_fix)
        roles = sorted(c["role"] for c in load(draft)["control_runs"])
        self.assertEqual(roles, ["known_fix", "no_edit"])
        filled = self.fill(draft)
        self.assertLessEqual(len(filled), MAX_FIELDS + len(self.UNNAMED_SYSTEM), f"{name}: {len(filled)} fields filled: {filled}")
        return Claim(runs, draft, asked, filled, self.check_publishable(draft, runs, k, n))

    def compare(self, a: Claim, b: Claim, *extra: str) -> tuple[int, str, dict[str, Any]]:
        """Step 5: `compare` of A and B as they stand; (exit code, text, JSON report)."""
        argv = ["compare", "--manifest", str(a.manifest), "--runs", str(a.runs),
                "--against-manifest", str(b.manifest), "--against-runs", str(b.runs), *extra]
        code, text, err = self.run_gate(*argv)
        self.assertIn(code, (0, 1), err)
        jcode, out, err = self.run_gate(*argv, "--format", "json")
        self.assertEqual(jcode, code, err)
        return code, text, json.loads(out)

    def assertComparable(self, a: Claim, b: Claim) -> dict[str, Any]:
        """compare with no edit: exit 0 and PUBLISHABLE without --fail-on; with --fail-on difference, exit 1
        exactly when the comparison is significant."""
        code, text, report = self.compare(a, b)
        self.assertEqual(report["findings"], [])
        self.assertEqual((code, report["verdict"]), (0, "PUBLISHABLE"), text)
        self.assertIn("verdict     : PUBLISHABLE", text)
        self.assertIn(load(a.manifest)["claim_id"], text)
        self.assertIn(load(b.manifest)["claim_id"], text)
        significant = bool(report["significant"])
        for option, fails in (("difference", significant), ("regression", significant and report["difference"]["value"] < 0)):
            gate_code, _, gated = self.compare(a, b, "--fail-on", option)
            self.assertEqual(gate_code, 1 if fails else 0, option)
            self.assertEqual(gated["fail_on"], {"option": option, "failed": fails})
        return report

    def assertSystemsNamed(self, a: Claim, b: Claim, differ: bool = True) -> None:
        """The compare output's `systems` line names each side's system as its manifest does (and, for two
        systems, they differ)."""
        _, text, _ = self.compare(a, b)
        line = next(x for x in text.splitlines() if x.startswith("systems"))
        self.assertNotIn("(not named)", line)
        sides = re.fullmatch(r"systems\s*: A (.*); B (.*)", line)
        self.assertIsNotNone(sides, line)
        if sides:
            for side, claim in zip(sides.groups(), (a, b)):
                for key, value in load(claim.manifest)["system"].items():
                    self.assertIn(f"{key}=", side)
                    if isinstance(value, str):
                        self.assertIn(value, side)
            if differ:
                self.assertNotEqual(sides.group(1), sides.group(2), line)

    def assertSameInstrument(self, a: Claim, b: Claim) -> None:
        self.assertEqual(load(a.manifest)["envelope"], load(b.manifest)["envelope"])


# --- Terminal-Bench 1.x ------------------------------------------------------------------------------------------

def tb_count(run: Path) -> tuple[int, int]:
    """(resolved trials, declared tasks) of a one-trial-a-task Terminal-Bench run folder, from its own files."""
    results = load(run / "results.json")
    meta = load(run / "run_metadata.json")
    assert meta["n_attempts"] == 1
    return sum(1 for t in results["results"] if t["is_resolved"] is True), len(meta["task_ids"])


def tb_control(run: Path, agent: str, target: Path) -> Path:
    """A `tb run --agent nop|oracle` stand-in of the run's tasks: the run's own files, every trial resolved false
    (nop) or true (oracle), the agent's name and the summary figures changed (examples/make_quickstarts.py)."""
    resolved = agent == "oracle"
    results = load(run / "results.json")
    meta = load(run / "run_metadata.json")
    run_id = f"{agent}-run"
    trials = [{"id": f"{agent}-{i:03d}", "trial_name": f"{t['task_id']}.1-of-1.{run_id}", "task_id": t["task_id"],
               "is_resolved": resolved, "failure_mode": "unset", "parser_results": None,
               "total_input_tokens": 0, "total_output_tokens": 0}
              for i, t in enumerate(sorted(results["results"], key=lambda t: t["task_id"]))]
    ids = [t["task_id"] for t in trials]
    dump(target / "results.json",
         {"id": f"{agent}-results", "results": trials, "pass_at_k": {},
          "n_resolved": len(ids) if resolved else 0, "n_unresolved": 0 if resolved else len(ids),
          "resolved_ids": ids if resolved else [], "unresolved_ids": [] if resolved else ids,
          "accuracy": 1.0 if resolved else 0.0})
    dump(target / "run_metadata.json",
         dict(meta, run_id=run_id, uuid=f"{agent}-uuid", agent_name=agent, model_name=None, username="stand-in",
              accuracy=1.0 if resolved else 0.0, agent_kwargs=None))
    return target


class TerminalBenchStory(NewcomerCase):
    """Terminal-Bench 1.x leaderboard runs of terminal-bench-core 0.1.1 (80 tasks, one trial each).

    No two systems on the leaderboard share an instrument: every submission ran its own terminal-bench commit
    (droid tb_rc2_g5_1 7bb4b715, openhands-sonnet 121662c0; run_metadata.json `commit_hash`, which the draft
    rightly puts in the envelope as the harness's commit and toolchain_sha). So `compare` of droid and openhands
    is envelope_mismatch naming those two fields (test_two_leaderboard_systems_differ_in_the_harness_commit),
    and the story compares two runs where the instrument is the same: droid's tb_rc2_g5_1 and tb_rc2_g5_2 (one
    commit, 7bb4b715), two runs of one system."""

    FORMAT = "terminal-bench"
    INSTRUMENT = {"envelope.runner": "local-docker", "envelope.network": "open", "envelope.wall_clock_s_per_task": 1800,
                  "system.model": "gpt-5"}  # the droid runs' run_metadata.json records no model_name
    ADVISORY = {"dataset": "a whole-dataset run: run_metadata.json has no n_tasks, exclude_task_ids"}

    def setUp(self) -> None:
        super().setUp()
        self.board = self.dir / "board"

    def run_folder(self, submission: str, run: str) -> Path:
        return unpack(TB_BOARD / submission / run, self.board / run)

    def tb_claim(self, submission: str, run: str) -> Claim:
        folder = self.run_folder(submission, run)
        meta = load(folder / "run_metadata.json")
        # the draft's "dataset" item (subset) asks nothing of a run of the whole dataset:
        self.assertIsNone(meta["n_tasks"])
        self.assertFalse(meta["exclude_task_ids"])
        self.assertEqual(len(meta["task_ids"]), meta["dataset_size"])
        k, n = tb_count(folder)
        nop = tb_control(folder, "nop", self.dir / "controls" / run / "nop-run")
        oracle = tb_control(folder, "oracle", self.dir / "controls" / run / "oracle-run")
        return self.claim(run, (folder,), (nop,), (oracle,), k, n)

    def test_droid_run_to_publishable_and_compared_with_a_second_run(self) -> None:
        a = self.tb_claim(DROID, "tb_rc2_g5_1")
        self.assertEqual(a.filled, ["system.model", "envelope.runner", "envelope.network", "envelope.wall_clock_s_per_task"])
        self.assertEqual((a.report["headline"]["k"], a.report["headline"]["n"]), (39, 80))  # the leaderboard's 0.4875
        b = self.tb_claim(DROID, "tb_rc2_g5_2")
        self.assertEqual(b.filled, a.filled)
        self.assertSameInstrument(a, b)
        self.assertComparable(a, b)
        self.assertSystemsNamed(a, b, differ=False)  # one system, two runs: "agent=Factory Droid" twice

    def test_two_leaderboard_systems_differ_in_the_harness_commit(self) -> None:
        """droid and openhands, each completed the same way and each PUBLISHABLE, are not one instrument:
        compare names commit_hash and toolchain_sha (and no system key: agent and model are under system)."""
        a = self.tb_claim(DROID, "tb_rc2_g5_1")
        b = self.tb_claim(OPENHANDS, "openhands-sonnet")
        self.assertEqual(load(a.manifest)["system"], {"agent": "Factory Droid", "model": "gpt-5"})  # model asked for
        self.assertEqual(load(b.manifest)["system"],
                         {"agent": "openhands", "model": "openai/neulab/claude-sonnet-4-20250514"})
        self.assertSystemsNamed(a, b)
        code, text, report = self.compare(a, b)
        self.assertEqual((code, report["verdict"]), (1, "BLOCKED"))
        mismatch = [f["message"] for f in report["findings"] if f["code"] == "envelope_mismatch"]
        self.assertEqual(len(mismatch), 1, report["findings"])
        self.assertIn("envelope fields differ: toolchain_sha;", mismatch[0])
        self.assertNotIn("move them", mismatch[0])
        self.assertIn("! envelope_mismatch: A and B: envelope fields differ: toolchain_sha;", text)


# --- SWE-bench -----------------------------------------------------------------------------------------------

def swe_control(report: Path, resolved: bool, target: Path) -> Path:
    """A stand-in run report of the same instances in the real report's own form: every instance completed and
    unresolved (a no-op patch: the tests ran and failed) or resolved (the gold patches). No empty patch."""
    data = load(report)
    ids = sorted(data["submitted_ids"] if len(data["submitted_ids"]) == data["total_instances"]
                 else load(JAVA_INDEX))
    out = dict(data)
    out.update(submitted_instances=len(ids), completed_instances=len(ids),
               resolved_instances=len(ids) if resolved else 0, unresolved_instances=0 if resolved else len(ids),
               empty_patch_instances=0, error_instances=0, completed_ids=ids, incomplete_ids=[], empty_patch_ids=[],
               submitted_ids=ids, resolved=ids if resolved else [], unresolved_ids=[] if resolved else ids,
               error_ids=[])
    return dump(target, out)


class SweBenchStory(NewcomerCase):
    """SWE-bench-java v1 (91 instances): SWE-agent with deepseek-coder-v2 (7 resolved; 6 empty patches, fails)
    and with gpt-4o (6 resolved; 6 incomplete instances, unscoreable, within the 0.2 attrition ceiling), each
    results.json with the suite's index.json, which declares the 91 instances."""

    FORMAT = "swebench"
    UNNAMED_SYSTEM = ("system.agent", "system.model")  # the files name neither
    INSTRUMENT = {"dataset.name": "SWE-bench-java v1", "envelope.network": "open",
                  "envelope.wall_clock_s_per_task": 1800, "envelope.toolchain_sha": "swebench-java harness 20240825",
                  # results.json names neither: the submission's folder names the entry (system.submission)
                  "system.agent": "SWE-agent",
                  "system.model": {"not_disclosed": "the submission's folder name is all the files say"}}

    def swe_claim(self, report: Path) -> Claim:
        name = report.parent.parent.name
        data = load(report)
        nop = swe_control(report, False, self.dir / "controls" / name / "noop.json")
        gold = swe_control(report, True, self.dir / "controls" / name / "gold.json")
        return self.claim(name, (report, JAVA_INDEX), (nop, JAVA_INDEX), (gold, JAVA_INDEX),
                          len(data["resolved"]), data["total_instances"])

    def story(self) -> tuple[Claim, Claim]:
        a = self.swe_claim(JAVA_DEEPSEEK)
        b = self.swe_claim(JAVA_GPT4O)
        return a, b

    def test_two_systems_to_publishable_and_compared(self) -> None:
        a, b = self.story()
        self.assertEqual(a.filled, ["system.agent", "system.model", "dataset.name", "envelope.network",
                                    "envelope.wall_clock_s_per_task", "envelope.toolchain_sha"])
        self.assertEqual(b.filled, a.filled)
        self.assertEqual((a.report["headline"]["k"], b.report["headline"]["k"]), (7, 6))
        self.assertEqual(a.report["system"]["model"], {"not_disclosed": "the submission's folder name is all the files say"})
        self.assertSameInstrument(a, b)
        self.assertComparable(a, b)

    def test_compare_names_both_systems(self) -> None:
        a, b = self.story()
        self.assertSystemsNamed(a, b)


# --- Inspect AI ------------------------------------------------------------------------------------------------

def inspect_control(log: Path, value: str, target: Path) -> Path:
    """A variant of the log's task whose solver returns the untouched input (every score I) or the target
    (every score C): the log with the task renamed, the scores and the results' figures changed."""
    data = load(log)
    task = f"{data['eval']['task']}_{'knownfix' if value == 'C' else 'noedit'}"
    out = copy.deepcopy(data)
    out["eval"].update(task=task, task_display_name=task, task_registry_name=task, run_id=f"{task}-run",
                       eval_id=f"{task}-eval", task_id=f"{task}-task")
    for sample in out["samples"]:
        for score in sample["scores"].values():
            score["value"] = value
    metrics = out["results"]["scores"][0]["metrics"]
    metrics["accuracy"]["value"] = 1.0 if value == "C" else 0.0
    metrics["stderr"]["value"] = 0.0
    return dump(target / f"{task}.json", out)


class InspectStory(NewcomerCase):
    """inspect-ai 0.3.285 logs of task_a (3 samples, 1 epoch) for two models, mockllm/model and mockllm/other,
    in one folder (tests/fixtures/inspect/rules/two-models): each system imported with --model."""

    FORMAT = "inspect"
    INSTRUMENT = {"envelope.network": "off", "envelope.wall_clock_s_per_task": 600,
                  "envelope.toolchain_sha": "inspect_ai 0.3.285"}

    def log_of(self, model: str) -> Path:
        found = [p for p in sorted(TWO_MODELS.glob("*.json")) if load(p)["eval"]["model"] == model]
        self.assertEqual(len(found), 1)
        return found[0]

    def inspect_claim(self, model: str) -> Claim:
        log = self.log_of(model)
        data = load(log)
        self.assertEqual(data["eval"]["config"]["epochs"], 1)
        k = sum(1 for s in data["samples"] if s["scores"]["includes"]["value"] == "C")
        name = model.replace("/", "-")
        nop = inspect_control(log, "I", self.dir / "controls" / name / "noedit")
        fix = inspect_control(log, "C", self.dir / "controls" / name / "knownfix")
        return self.claim(name, (TWO_MODELS, "--model", model), (nop,), (fix,), k, len(data["samples"]))

    def test_two_models_to_publishable_and_compared(self) -> None:
        a = self.inspect_claim("mockllm/model")
        b = self.inspect_claim("mockllm/other")
        self.assertEqual(a.filled, ["envelope.network", "envelope.wall_clock_s_per_task", "envelope.toolchain_sha"])
        self.assertEqual(b.filled, a.filled)
        self.assertSameInstrument(a, b)
        self.assertComparable(a, b)
        self.assertSystemsNamed(a, b)


# --- Harbor ------------------------------------------------------------------------------------------------------

def harbor_control(job: Path, agent: str, target: Path) -> Path:
    """A `harbor run -a nop|oracle` stand-in of the job's one task: its config, result and trial with the agent,
    the reward (0.0 / 1.0) and the job's figures changed (examples/make_quickstarts.py)."""
    reward = 1.0 if agent == "oracle" else 0.0
    config = load(job / "config.json")
    result = load(job / "result.json")
    trial_dir = next(p for p in sorted(job.iterdir()) if p.is_dir())
    trial = load(trial_dir / "result.json")
    name = f"{trial['task_id']['name']}__{agent}01"
    config["job_name"] = f"{agent}-job"
    config["agents"] = [{"name": agent, "model_name": None, "n_concurrent": 1, "kwargs": {}}]
    ev = result["stats"]["evals"].pop(next(iter(result["stats"]["evals"])))
    ev["metrics"] = [{"mean": reward}]
    ev["reward_stats"] = {"reward": {str(reward): [name]}}
    result["id"] = f"{agent}-job"
    result["stats"]["evals"][f"{agent}__{trial['source']}"] = ev
    for key in ("n_input_tokens", "n_cache_tokens", "n_output_tokens"):
        result["stats"][key] = 0
    trial.update(id=f"{agent}-trial", trial_name=name, agent_result=None,
                 agent_info={"name": agent, "version": "stand-in", "model_info": None},
                 verifier_result={"rewards": {"reward": reward}}, trial_uri=f"file:///stand-in/{agent}-job/{name}")
    trial["config"]["trial_name"] = name
    trial["config"]["agent"].update(name=agent, model_name=None, kwargs={})
    dump(target / "config.json", config)
    dump(target / "result.json", result)
    dump(target / name / "result.json", trial)
    return target


class HarborStory(NewcomerCase):
    """Harbor 0.21.0 jobs of terminal-bench-2-1's dna-insert (one task, one trial): one agent and model under two
    configurations (agent kwargs harness=pi, harness=thinharness), two systems on one task and instrument."""

    FORMAT = "harbor"
    INSTRUMENT = {"envelope.network": "open", "envelope.wall_clock_s_per_task": 1800,
                  "envelope.toolchain_sha": "harbor 0.21.0"}

    def harbor_claim(self, cell: str) -> Claim:
        job = unpack(TH20 / cell / "job", self.dir / "jobs" / cell)
        trials = [load(p / "result.json") for p in sorted(job.iterdir()) if p.is_dir()]
        k = sum(1 for t in trials if (t["verifier_result"] or {}).get("rewards", {}).get("reward") == 1.0)
        nop = harbor_control(job, "nop", self.dir / "controls" / cell / "nop-job")
        oracle = harbor_control(job, "oracle", self.dir / "controls" / cell / "oracle-job")
        return self.claim(cell, (job,), (nop,), (oracle,), k, len(trials))

    def test_two_configurations_to_publishable_and_compared(self) -> None:
        a = self.harbor_claim("dna-insert--pi")
        b = self.harbor_claim("dna-insert--thinharness")
        self.assertEqual(a.filled, ["envelope.network", "envelope.wall_clock_s_per_task", "envelope.toolchain_sha"])
        self.assertEqual(b.filled, a.filled)
        self.assertEqual((a.report["headline"]["k"], b.report["headline"]["k"]), (1, 0))
        self.assertSameInstrument(a, b)
        self.assertComparable(a, b)
        self.assertSystemsNamed(a, b)


if __name__ == "__main__":
    unittest.main()
