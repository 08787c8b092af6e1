"""The ledger's rules: the dataset run is the one declared (digest, size, ids), every task that entered
exits once, attempts are numbered and within budget, outcomes and reasons are coded, the envelope holds,
strata add up, and the record fields are typed. Also the digest subcommand that fills the manifest.

Controls are tests/test_controls.py's; retry and samples modes are tests/test_attempt_modes.py's.
"""

from __future__ import annotations

import copy
import hashlib
import json

import gate
from tests.builders import NEGATIVE, POSITIVE, declare, record, replaced, retry_ledger, valid_ledger, with_strata
from tests.oracles import ids_digest
from tests.support import GateCase, LedgerInputCase

# Every finding code of the core ledger rules.
ALL_CODES = (
    "dataset_digest_mismatch", "dataset_size_mismatch", "never_started", "unexpected_task", "mixed_runs",
    "attempt_repeated", "attempt_gap", "attempt_over_budget", "unknown_outcome", "uncoded_unscoreable",
    "reason_on_scored", "ledger_does_not_balance", "controls_incomplete", "control_outside_dataset",
    "control_missing", "control_inconclusive", "control_violated", "envelope_exceeded", "strata_do_not_sum",
    "stratum_count_mismatch",
)


class ValidLedger(GateCase):
    """A valid ledger raises nothing."""

    def test_valid_ledger_has_no_finding_at_all(self) -> None:
        """A balanced ledger whose controls hold raises none of the ledger's finding codes and is PUBLISHABLE."""
        manifest, records = valid_ledger()
        _, report = self.check_json(manifest, records)
        codes = [f["code"] for f in report["findings"]]
        for code in ALL_CODES:
            with self.subTest(code=code):
                self.assertNotIn(code, codes)
        self.publishable(manifest, records)

    def test_valid_ledger_without_task_ids_is_publishable(self) -> None:
        """A manifest that declares only the digest, not the id list, is enough for a PUBLISHABLE ledger."""
        self.publishable(*valid_ledger(with_ids=False))


class DatasetIdentity(GateCase):
    """The tasks run are the tasks declared: same digest, same size, clean ids."""

    def test_dataset_digest_mismatch_with_declared_ids(self) -> None:
        """A declared task_ids_sha256 that is not the digest of the declared ids blocks with dataset_digest_mismatch,
        giving the declared list's whole digest to set (it pointed at `digest --ids FILE`, which takes no manifest)."""
        manifest, records = valid_ledger()
        manifest["dataset"]["task_ids_sha256"] = hashlib.sha256(b"another suite").hexdigest()
        messages = self.blocked(manifest, records, "dataset_digest_mismatch")
        self.assertIn(f"set task_ids_sha256 to {ids_digest(manifest['dataset']['task_ids'])}", messages[0])

    def test_dataset_digest_mismatch_from_observed_ids(self) -> None:
        """Without declared ids, a run of another suite of the same size blocks with a digest mismatch that gives the
        digest of what was run, and no size mismatch.
        """
        manifest, records = valid_ledger(with_ids=False)
        records = replaced(records, "t-001", task_id="t-901")  # same size, different suite
        messages = self.blocked(manifest, records, "dataset_digest_mismatch")
        observed = ids_digest([r["task_id"] for r in records])
        self.assertIn(observed, messages[0])  # tells the user the digest of what was run
        self.assertNotIn("dataset_size_mismatch", self.codes(manifest, records))

    def test_dataset_size_mismatch(self) -> None:
        """A run of fewer tasks than task_count, digest matching, blocks with dataset_size_mismatch naming both
        counts, and no digest mismatch.
        """
        manifest, records = valid_ledger(with_ids=False)
        records = [r for r in records if r["task_id"] != "t-001"]
        manifest["dataset"]["task_ids_sha256"] = ids_digest([r["task_id"] for r in records])
        messages = self.blocked(manifest, records, "dataset_size_mismatch")
        self.assertIn("40", messages[0])
        self.assertIn("39", messages[0])
        self.assertNotIn("dataset_digest_mismatch", self.codes(manifest, records))

    def test_declared_digest_message_shows_twelve_hex_digits(self) -> None:
        """The digest-mismatch message shows the first twelve hex digits of the declared ids' digest."""
        manifest, records = valid_ledger()
        manifest["dataset"]["task_ids_sha256"] = "0" * 64
        _, report = self.check_json(manifest, records)
        message = next(f["message"] for f in report["findings"] if f["code"] == "dataset_digest_mismatch")
        declared = ids_digest(manifest["dataset"]["task_ids"])
        self.assertIn(f"hash to {declared[:12]}, but", message)

    def test_a_digest_in_a_message_is_cut_at_64_characters(self) -> None:
        """An over-long declared digest is quoted cut at 64 characters in the finding."""
        manifest, records = valid_ledger()
        manifest["dataset"]["task_ids_sha256"] = "a" * 64 + "XYZ"
        _, report = self.check_json(manifest, records)
        message = next(f["message"] for f in report["findings"] if f["code"] == "dataset_digest_mismatch")
        self.assertIn("'" + "a" * 64 + "'", message)
        self.assertNotIn("X", message)

    def test_control_characters_in_task_ids_are_refused(self) -> None:
        """A task id holding a newline or a tab, in a record or in dataset.task_ids, is an input error: 'a\\nb' would
        hash like the two ids 'a' and 'b'.
        """
        # "a\nb" and "a","b" would otherwise hash to the same task_ids_sha256
        manifest, records = valid_ledger()
        records[3]["task_id"] = "a\nb"
        self.assertInputError(self.check(manifest, records), "runs.jsonl:4:", "task_id")
        manifest, records = valid_ledger()
        manifest["dataset"]["task_ids"][0] = "x\ty"
        self.assertInputError(self.check(manifest, records), "dataset.task_ids[0]")


class Balance(GateCase):
    """Every task that entered exits once; the rates count over the tasks that exited."""

    def test_never_started_names_the_tasks(self) -> None:
        """Declared tasks with no record block with never_started naming exactly those tasks."""
        manifest, records = valid_ledger()
        records = [r for r in records if r["task_id"] not in ("t-003", "t-017")]
        messages = self.blocked(manifest, records, "never_started")
        self.assertIn("t-003", messages[0])
        self.assertIn("t-017", messages[0])
        self.assertNotIn("t-004", messages[0])

    def test_unexpected_task(self) -> None:
        """A record of a task outside the declared ids blocks with unexpected_task naming it."""
        manifest, records = valid_ledger()
        records.append(record("t-999", "pass"))
        messages = self.blocked(manifest, records, "unexpected_task")
        self.assertIn("t-999", messages[0])

    def test_ledger_does_not_balance(self) -> None:
        """With task_count one above the tasks that exited, the ledger does not balance: 41 entries, 40 exits."""
        manifest, records = valid_ledger(with_ids=False)
        manifest["dataset"]["task_count"] = 41
        messages = self.blocked(manifest, records, "ledger_does_not_balance")
        self.assertEqual(messages[0], "29 pass + 8 fail + 3 unscoreable = 40 exits vs 41 entries")
        _, report = self.check_json(manifest, records)
        self.assertEqual((report["ledger"]["entries"], report["ledger"]["exits"]), (41, 40))

    def test_secondary_exists_whenever_a_task_was_scored(self) -> None:
        """The scoreable-only secondary rate exists whenever a task was scored: 1 pass of 3 scored tasks is 1/3."""
        manifest, records = valid_ledger(passes=1, fails=2, unscoreable=())
        _, report = self.check_json(manifest, records)
        self.assertEqual((report["secondary"]["k"], report["secondary"]["n"]), (1, 3))


class RunSelection(GateCase):
    """One ledger is one run."""

    def test_mixed_runs_and_run_id_selection(self) -> None:
        """Records of two runs block with mixed_runs; --run-id picks either run, which is then PUBLISHABLE with 40
        exits once the rerun recipe names the run too (or the manifest declares it as run_id)."""
        manifest, records = valid_ledger()
        both = records + [{**r, "run_id": "r2"} for r in records]
        self.blocked(manifest, both, "mixed_runs")
        for chosen in ("r1", "r2"):
            with self.subTest(run_id=chosen):
                pinned = {**manifest, "rerun_recipe": f"{manifest['rerun_recipe']} --run-id {chosen}"}
                report = self.publishable(pinned, both, "--run-id", chosen)
                self.assertEqual(report["ledger"]["exits"], 40)
                self.assertEqual(report["runs"]["gated"], chosen)
                declared = {**manifest, "run_id": chosen}
                self.assertEqual(self.publishable(declared, both)["ledger"]["exits"], 40)

    def test_the_report_names_the_run_it_gated(self) -> None:
        """Nothing pinned: a file of one run gates that run, and the JSON names it; a file of two runs gates none
        (it is blocked, mixed_runs), and the JSON says null rather than the first run it read."""
        manifest, records = valid_ledger()
        report = self.publishable(manifest, records)
        self.assertEqual(report["runs"], {"gated": "r1", "ignored": []})
        both = records + [{**r, "run_id": "r2"} for r in records]
        self.blocked(manifest, both, "mixed_runs")
        self.assertIsNone(self.check_json(manifest, both)[1]["runs"]["gated"])

    def test_run_id_naming_no_record_is_an_input_error(self) -> None:
        """--run-id naming a run that has no record is an input error naming the run id."""
        manifest, records = valid_ledger()
        self.assertInputError(self.check(manifest, records, "--run-id", "r9"), "r9")


class Attempts(GateCase):
    """Attempts are numbered 1, 2, … without repeats or gaps, within the attempt budget."""

    def test_attempt_repeated(self) -> None:
        """The same attempt number twice for a task blocks with attempt_repeated naming the task."""
        manifest, records = valid_ledger()
        records.append(record("t-001", "pass", attempt=1))
        messages = self.blocked(manifest, records, "attempt_repeated")
        self.assertIn("t-001", messages[0])

    def test_attempt_gap(self) -> None:
        """Attempts 1 and 3 without 2, within the budget, block with attempt_gap and not attempt_over_budget."""
        manifest, records = valid_ledger()
        manifest["attempt_budget"] = 3
        records = replaced(records, "t-001", outcome="fail")
        records.append(record("t-001", "pass", attempt=3))
        messages = self.blocked(manifest, records, "attempt_gap")
        self.assertIn("t-001", messages[0])
        self.assertNotIn("attempt_over_budget", self.codes(manifest, records))

    def test_attempt_over_budget_default_budget_is_one(self) -> None:
        """Without attempt_budget the budget is one: a second attempt blocks with attempt_over_budget."""
        manifest, records = valid_ledger()
        records = replaced(records, "t-001", outcome="fail")
        records.append(record("t-001", "pass", attempt=2))
        messages = self.blocked(manifest, records, "attempt_over_budget")
        self.assertIn("t-001", messages[0])

    def test_attempt_over_budget_with_attempt_budget(self) -> None:
        """A third attempt under attempt_budget 2 blocks with attempt_over_budget naming the task and the budget."""
        manifest, records = valid_ledger()
        manifest["attempt_budget"] = 2
        records = replaced(records, "t-001", outcome="fail")
        records += [record("t-001", "fail", attempt=2), record("t-001", "pass", attempt=3)]
        messages = self.blocked(manifest, records, "attempt_over_budget")
        self.assertIn("t-001", messages[0])
        self.assertIn("2", messages[0])

    def test_retries_within_budget_are_silent(self) -> None:
        """Retries after a fail or an unscoreable attempt, within the budget, raise no finding."""
        manifest, records = valid_ledger()
        manifest["attempt_budget"] = 3
        records = replaced(records, "t-001", outcome="fail")
        records += [record("t-001", "unscoreable", "env_flake", attempt=2), record("t-001", "pass", attempt=3)]
        records = replaced(records, "t-002", outcome="unscoreable", reason="harness_timeout")
        records.append(record("t-002", "pass", attempt=2))
        self.publishable(manifest, records)

    def test_findings_name_the_smallest_task_ids_whatever_the_order(self) -> None:
        """A finding about many tasks names the ten smallest ids in order and counts the rest, whatever order the
        records came in.
        """
        manifest, records = valid_ledger(passes=2, fails=2, unscoreable=())
        extra = [f"g-{i:02d}" for i in range(14)]
        # The smallest first, then the largest nine: the last four sort between the kept ones.
        for tid in [extra[0], *reversed(extra[1:])]:
            records.append(record(tid, "fail", attempt=2))
        declare(manifest, [r["task_id"] for r in records])
        manifest["attempt_budget"] = 2
        _, report = self.check_json(manifest, records)
        message = next(f["message"] for f in report["findings"] if f["code"] == "attempt_gap")
        self.assertEqual(message.split(": ", 1)[1], ", ".join(extra[:10]) + " and 4 more")


class Outcomes(GateCase):
    """An outcome is pass, fail or unscoreable."""

    def test_unknown_outcome(self) -> None:
        """An outcome outside pass, fail and unscoreable ('PASS') blocks with unknown_outcome, and the ledger does not balance."""
        manifest, records = valid_ledger()
        records = replaced(records, "t-001", outcome="PASS")
        messages = self.blocked(manifest, records, "unknown_outcome")
        self.assertIn("t-001", messages[0])
        self.assertIn("ledger_does_not_balance", self.codes(manifest, records))

    def test_unknown_outcome_names_task_attempt_and_value(self) -> None:
        """The unknown_outcome message shows task#attempt='value' for the offending attempt."""
        manifest, records = valid_ledger()
        manifest["attempt_budget"] = 2
        records.append(record("t-001", "maybe", attempt=2))
        code, report = self.check_json(manifest, records)
        self.assertEqual(code, 1)
        message = next(f["message"] for f in report["findings"] if f["code"] == "unknown_outcome")
        self.assertIn("t-001#2='maybe'", message)


class Reasons(GateCase):
    """An unscoreable attempt carries a known reason; a scored one carries none."""

    def test_uncoded_unscoreable(self) -> None:
        """An unscoreable attempt with no reason, a null reason or an unknown reason blocks with uncoded_unscoreable
        naming the task.
        """
        manifest, base = valid_ledger()
        target = next(r["task_id"] for r in base if r["outcome"] == "unscoreable")
        cases = {"missing reason": None, "null reason": {"reason": None}, "unknown reason": {"reason": "weird"}}
        for label, change in cases.items():
            with self.subTest(label):
                records = copy.deepcopy(base)
                rec = next(r for r in records if r["task_id"] == target)
                if change is None:
                    del rec["reason"]
                else:
                    rec.update(change)
                messages = self.blocked(manifest, records, "uncoded_unscoreable")
                self.assertIn(target, messages[0])

    def test_reason_classes_extends_the_allowed_set(self) -> None:
        """reason_classes adds reasons to the built-in set; the reasons are then counted most frequent first."""
        manifest, records = valid_ledger(unscoreable=("harness_timeout", "sandbox_oom", "sandbox_oom"))
        self.blocked(manifest, records, "uncoded_unscoreable")
        manifest["reason_classes"] = ["sandbox_oom"]
        report = self.publishable(manifest, records)
        self.assertEqual(report["ledger"]["unscoreable_reasons"], {"sandbox_oom": 2, "harness_timeout": 1})

    def test_reason_on_scored(self) -> None:
        """A reason on a scored attempt blocks with reason_on_scored naming the task."""
        manifest, records = valid_ledger()
        records = replaced(records, "t-001", reason="grader_error")
        messages = self.blocked(manifest, records, "reason_on_scored")
        self.assertIn("t-001", messages[0])

    def test_reason_on_pass_and_fail_may_be_absent_or_null(self) -> None:
        """On a pass or a fail the reason may be absent or null."""
        manifest, records = valid_ledger()
        for r in records:
            if r["outcome"] != "unscoreable" and r["task_id"].endswith("1"):
                del r["reason"]
        self.publishable(manifest, records)

    def test_mixed_detail_types_list_in_a_fixed_order(self) -> None:
        """uncoded_unscoreable lists a task's string reason before its null one, in a fixed order."""
        manifest, records = valid_ledger()
        manifest["attempt_budget"] = 2
        records.append(record("t-040", "unscoreable", None))
        records.append(record("t-040", "unscoreable", "Zed"))
        declare(manifest, [r["task_id"] for r in records])
        _, report = self.check_json(manifest, records)
        message = next(f["message"] for f in report["findings"] if f["code"] == "uncoded_unscoreable")
        self.assertLess(message.index("t-040#1='Zed'"), message.index("t-040#1=None"))


class Envelope(GateCase):
    """Every attempt stays within the declared envelope."""

    def test_envelope_exceeded(self) -> None:
        """An attempt over the wall-clock limit blocks with envelope_exceeded naming the task."""
        manifest, records = valid_ledger()
        messages = self.blocked(manifest, replaced(records, "t-001", wall_clock_s=900.5), "envelope_exceeded")
        self.assertIn("t-001", messages[0])

    def test_envelope_equal_to_the_limit_is_fine(self) -> None:
        """A wall clock equal to the limit (900 or 900.0), or zero, is within the envelope."""
        manifest, records = valid_ledger()
        records = [dict(r, wall_clock_s=1) for r in records]
        records = replaced(records, "t-001", wall_clock_s=900)
        records = replaced(records, "t-002", wall_clock_s=900.0)
        records = replaced(records, "t-003", wall_clock_s=0)
        self.publishable(manifest, records)

    def test_a_finding_lists_the_ten_smallest_tasks(self) -> None:
        """envelope_exceeded over twelve tasks names the ten smallest as task#attempt and says 'and 2 more'."""
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

    def test_attempts_of_one_task_are_named_in_the_order_of_their_numbers(self) -> None:
        """Twelve attempts of one task over the limit: the ten named are attempts 1 to 10, in that order (by
        number: attempt 10 comes after 9, not after 1 as in the text of the pair), written in any order."""
        manifest, records = retry_ledger(12, {"t-a": [("fail", None)] * 11 + [("pass", None)],
                                              NEGATIVE: [("fail", None)], POSITIVE: [("pass", None)]})
        records = [dict(r, wall_clock_s=900 + r["attempt"]) if r["task_id"] == "t-a" else r for r in records]
        for ordered in (records, records[::-1]):
            message = self.blocked(manifest, ordered, "envelope_exceeded")[0]
            self.assertTrue(message.endswith(": " + ", ".join(f"t-a#{n} ({900 + n} s)" for n in range(1, 11))
                                             + " and 2 more"), message)


class Strata(GateCase):
    """Declared strata sum to the task count and match the records' stratum labels."""

    def test_strata_do_not_sum(self) -> None:
        """Declared strata that sum to 39 of 40 tasks block with strata_do_not_sum naming the sum."""
        manifest, records = valid_ledger()
        manifest["dataset"]["strata"] = {"repo_edit": 24, "test_write": 10, "refactor": 5}
        messages = self.blocked(manifest, records, "strata_do_not_sum")
        self.assertIn("39", messages[0])

    def test_stratum_count_mismatch_counts_differ(self) -> None:
        """Records whose stratum counts differ from the declared sizes block with stratum_count_mismatch."""
        manifest, records = valid_ledger()
        manifest["dataset"]["strata"] = {"repo_edit": 24, "test_write": 10, "refactor": 6}
        self.blocked(manifest, with_strata(records, {"repo_edit": 25, "test_write": 9, "refactor": 6}),
                     "stratum_count_mismatch")

    def test_a_stratum_nobody_declared_is_named_even_with_one_task(self) -> None:
        """One task labelled with a stratum the manifest does not declare: the finding names both differences,
        the undeclared stratum as declared 0 (however few its tasks) and the declared one a task short."""
        manifest, records = valid_ledger()
        manifest["dataset"]["strata"] = {"repo_edit": 34, "test_write": 6}
        labelled = with_strata(records, {"repo_edit": 33, "test_write": 6, "odd": 1})
        message = self.blocked(manifest, labelled, "stratum_count_mismatch")[0]
        self.assertEqual(message, "per-stratum task counts differ from the declaration: odd declared 0 observed 1, "
                                  "repo_edit declared 34 observed 33")

    def test_stratum_count_mismatch_some_records_lack_stratum(self) -> None:
        """When the records carry strata but one record lacks its stratum, the counts mismatch."""
        manifest, records = valid_ledger()
        labelled = with_strata(records, {"repo_edit": 24, "test_write": 10, "refactor": 6})
        del labelled[7]["stratum"]
        self.blocked(manifest, labelled, "stratum_count_mismatch")

    def test_stratum_count_mismatch_task_in_two_strata(self) -> None:
        """A task whose attempts name two different strata blocks with stratum_count_mismatch naming the task."""
        manifest, records = valid_ledger()
        manifest["attempt_budget"] = 2
        manifest["dataset"]["strata"] = {"repo_edit": 24, "test_write": 10, "refactor": 6}
        labelled = with_strata(records, {"repo_edit": 24, "test_write": 10, "refactor": 6})
        first = next(r for r in labelled if r["task_id"] == "t-001")
        self.assertEqual(first["stratum"], "repo_edit")
        first["outcome"] = "fail"
        labelled.append(record("t-001", "pass", attempt=2, stratum="refactor"))
        messages = self.blocked(manifest, labelled, "stratum_count_mismatch")
        self.assertTrue(any("t-001" in m for m in messages), messages)

    def test_valid_strata_are_silent(self) -> None:
        """Declared strata are silent when no record carries a stratum and when the records match the sizes."""
        manifest, records = valid_ledger()
        manifest["dataset"]["strata"] = {"repo_edit": 24, "test_write": 10, "refactor": 6}
        self.publishable(manifest, records)  # declared, no record carries stratum
        self.publishable(manifest, with_strata(records, {"repo_edit": 24, "test_write": 10, "refactor": 6}))


class RecordFields(LedgerInputCase):
    """Each record's fields are present and typed; a bad one is an input error at its line."""

    def test_wrong_types_for_runs_fields(self) -> None:
        """Each mistyped or malformed record field (an empty or padded id, attempt 0, 1.0, true or '1', a negative
        wall clock, …) is an input error naming the line and the field.
        """
        cases = [
            ("run_id", ""), ("run_id", 1), ("run_id", None),
            ("task_id", ""), ("task_id", " t-016"), ("task_id", "t-016 "), ("task_id", 16), ("task_id", None),
            ("attempt", 0), ("attempt", -1), ("attempt", 1.0), ("attempt", True), ("attempt", "1"),
            ("outcome", 1), ("outcome", None), ("outcome", ["pass"]),
            ("reason", 5), ("reason", ["grader_error"]),
            ("wall_clock_s", -1), ("wall_clock_s", "10"), ("wall_clock_s", True),
            ("stratum", 3), ("stratum", ["a"]),
        ]
        for key, value in cases:
            with self.subTest(field=key, value=value):
                self.assertInputError(self.bad_field(**{key: value}), "runs.jsonl:17:", key)

    def test_missing_required_runs_fields(self) -> None:
        """A record without run_id, task_id, attempt or outcome is an input error naming the line and the field."""
        for key in ("run_id", "task_id", "attempt", "outcome"):
            with self.subTest(field=key):
                rec = dict(self.records[16])
                del rec[key]
                self.assertInputError(self.bad_line(json.dumps(rec)), "runs.jsonl:17:", key)


class Digest(GateCase):
    """gate.py digest: the task_ids_sha256 to put in the manifest."""

    def test_digest_of_runs(self) -> None:
        """digest --runs prints the sha256 of the sorted distinct task ids, as one line of 64 hex digits."""
        records = [record("t-b", "fail", attempt=1), record("t-a", "pass"), record("t-b", "pass", attempt=2),
                   record("täsk-ü", "pass"), record("T-c", "fail")]
        runs = self.write_jsonl("runs.jsonl", records)
        code, out, err = self.run_gate("digest", "--runs", str(runs))
        expected = ids_digest(["t-b", "t-a", "täsk-ü", "T-c"])
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, expected + "\n")
        self.assertRegex(out, r"\A[0-9a-f]{64}\n\Z")

    def test_digest_of_id_list(self) -> None:
        """digest --ids reads one id a line, ignoring blank lines, CRLF endings and repeats."""
        ids = self.write_text("ids.txt", b"t-b\r\n\r\nt-a\r\nt-c\n\n  \nt-b\n")
        code, out, err = self.run_gate("digest", "--ids", str(ids))
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, hashlib.sha256(b"t-a\nt-b\nt-c").hexdigest() + "\n")

    def test_digest_fills_the_manifest(self) -> None:
        """The digest of the runs equals that of their id list, and putting it in the manifest unblocks the ledger."""
        manifest, records = valid_ledger(with_ids=False)
        manifest["dataset"]["task_ids_sha256"] = hashlib.sha256(b"another suite").hexdigest()
        self.blocked(manifest, records, "dataset_digest_mismatch")
        runs = self.write_jsonl("runs.jsonl", records)
        _, from_runs, _ = self.run_gate("digest", "--runs", str(runs))
        ids = self.write_text("ids.txt", "\n".join(r["task_id"] for r in records) + "\n")
        _, from_ids, _ = self.run_gate("digest", "--ids", str(ids))
        self.assertEqual(from_runs, from_ids)
        manifest["dataset"]["task_ids_sha256"] = from_runs.strip()
        self.publishable(manifest, records)

    def test_digest_input_errors(self) -> None:
        """digest of a missing file, of a bad runs line or of nothing is an input error."""
        self.assertInputError(self.run_gate("digest", "--runs", str(self.dir / "nope.jsonl")), "nope.jsonl")
        bad = self.write_text("runs.jsonl", '{"run_id": "r1", "task_id": "a", "attempt": 1, "outcome": "pass"}\n[1]\n')
        self.assertInputError(self.run_gate("digest", "--runs", str(bad)), "runs.jsonl:2:")
        self.assertInputError(self.run_gate("digest"), "digest")

    def test_an_id_list_line_with_a_leading_space_is_refused(self) -> None:
        """An id-list line with leading whitespace is an input error naming its line."""
        ids = self.write_text("ids.txt", "a\n b\nc\n")
        self.assertInputError(self.run_gate("digest", "--ids", str(ids)), "ids.txt:2:")


class NamedInstrument(GateCase):
    """The envelope names the instrument, and every attempt reports its wall clock or none does."""

    def test_an_envelope_without_the_four_fields_is_incomplete(self) -> None:
        """An envelope lacking runner, network, the per-task wall clock or the toolchain digest used to gate
        PUBLISHABLE; each missing one is now named in envelope_incomplete."""
        manifest, records = valid_ledger()
        for key in ("runner", "network", "wall_clock_s_per_task", "toolchain_sha"):
            with self.subTest(missing=key):
                bad = copy.deepcopy(manifest)
                del bad["envelope"][key]
                messages = self.blocked(bad, records, "envelope_incomplete")
                self.assertIn(key, messages[0])
        self.publishable(manifest, records)

    def test_a_wall_clock_on_some_attempts_only_is_a_gap(self) -> None:
        """If any attempt carries wall_clock_s every attempt must; the ones that lack it are named."""
        manifest, records = valid_ledger()
        timed = [dict(r, wall_clock_s=60) for r in records]
        self.publishable(manifest, timed)
        del timed[7]["wall_clock_s"]
        messages = self.blocked(manifest, timed, "wall_clock_incomplete")
        self.assertIn(f"{timed[7]['task_id']}#1", messages[0])

    def test_no_wall_clock_at_all_is_reported_as_not_verified(self) -> None:
        """With no wall_clock_s anywhere the report says the per-task limit was not verified."""
        manifest, records = valid_ledger()
        report = self.publishable(manifest, records)
        self.assertIs(report["wall_clock_verified"], False)
        _, out, _ = self.check(manifest, records)
        self.assertIn("(per-task wall clock not verified: no attempt carries wall_clock_s)", out)


class DraftsAndPlaceholders(GateCase):
    def test_a_placeholder_is_a_finding_and_the_digest_is_not_also_a_mismatch(self) -> None:
        """A TODO name, a `replace-with-…` digest or a `<runner>` is placeholder_value naming each field; the
        placeholder digest is not also reported as a digest mismatch."""
        manifest, records = valid_ledger()
        manifest["dataset"]["name"] = "TODO: name the split"
        manifest["dataset"]["task_ids_sha256"] = "replace-with-digest-from-gate"
        manifest["envelope"]["runner"] = "<runner>"
        messages = self.blocked(manifest, records, "placeholder_value")
        for field in ("dataset.name", "dataset.task_ids_sha256", "envelope.runner"):
            self.assertIn(field, messages[0])
        self.assertNotIn("dataset_digest_mismatch", self.codes(manifest, records))

    def test_a_real_name_that_starts_like_a_placeholder_word_is_not_one(self) -> None:
        """`todo-app`, `TBD-suite` and `xxx_tests` are names, not blanks; `TODO`, `tbd` and `TODO name it` are."""
        for name in ("todo-app", "TBD-suite", "xxx_tests", "todolist", "Fixme.py"):
            self.assertFalse(gate.is_placeholder(name), name)
        for blank in ("TODO", "tbd", "TODO name it", "  FIXME: later", "XXX", "<runner>", "replace-with-digest"):
            self.assertTrue(gate.is_placeholder(blank), blank)

    def test_a_manifest_with_its_draft_list_is_refused(self) -> None:
        """A manifest that still has the "draft" list import wrote is draft_manifest until it is deleted."""
        manifest, records = valid_ledger()
        manifest["draft"] = ["delete this when done"]
        self.blocked(manifest, records, "draft_manifest")


class LookalikeIds(GateCase):
    def test_ids_that_differ_only_in_case_or_unicode_form_are_a_finding(self) -> None:
        """`t-001` and `T-001`, or `ﬁx-1` and `fix-1` (NFKC), are two tasks a reader cannot tell apart: a finding
        (these ledgers used to gate PUBLISHABLE)."""
        manifest, records = valid_ledger()
        records = [*records, dict(records[2], task_id="T-001")]
        declare(manifest, [r["task_id"] for r in records])
        messages = self.blocked(manifest, records, "task_id_lookalike")
        self.assertIn("'T-001' / 't-001'", messages[0])
        manifest, records = valid_ledger()
        records = [*records, dict(records[2], task_id="ﬁx-1"), dict(records[3], task_id="fix-1")]
        declare(manifest, [r["task_id"] for r in records])
        self.blocked(manifest, records, "task_id_lookalike")

    def test_many_groups_are_named_up_to_the_list_limit_then_counted(self) -> None:
        """13 look-alike pairs: the finding counts 13, names the first 10 groups in ID order and says "and 3 more"."""
        manifest, records = valid_ledger()
        extra = [dict(records[2], task_id=f"{case}-{i:02d}") for i in range(13) for case in ("lk", "LK")]
        records = [*records, *extra]
        declare(manifest, [r["task_id"] for r in records])
        message = self.blocked(manifest, records, "task_id_lookalike")[0]
        shown = "; ".join(f"'LK-{i:02d}' / 'lk-{i:02d}'" for i in range(10))
        self.assertIn(f"13 group(s) of task IDs differ only in case or Unicode form: {shown} and 3 more; ", message)


class PinnedRuns(GateCase):
    def test_a_run_chosen_on_the_command_line_must_be_pinned(self) -> None:
        """--run-id r2 on a file with r1 and r2 used to gate PUBLISHABLE though the rerun recipe gates both runs;
        now it is run_not_pinned, and the report names the other run with its own headline."""
        manifest, records = valid_ledger()
        other = [dict(r, run_id="r2", outcome="fail", reason=None) if r["task_id"] not in ("pos-01",) else dict(r, run_id="r2")
                 for r in records]
        messages = self.blocked(manifest, records + other, "run_not_pinned", "--run-id", "r2")
        self.assertIn('"run_id": "r2"', messages[0])
        _, report = self.check_json(manifest, records + other, "--run-id", "r2")
        self.assertEqual(report["runs"]["gated"], "r2")
        self.assertEqual([(r["run_id"], r["headline"]["k"]) for r in report["runs"]["ignored"]], [("r1", 29)])
        _, out, _ = self.check(manifest, records + other, "--run-id", "r2")
        self.assertRegex(out, r"(?m)^run         : r2 gated; not gated, in the same file: r1 29/40 = 0\.725")
        pinned = {**manifest, "run_id": "r2"}
        report = self.publishable(pinned, records + other)
        self.assertEqual(report["headline"]["k"], 1)
        self.assertInputError(self.check(pinned, records + other, "--run-id", "r1"), "--run-id", "'r2'")
