"""Attempt modes. Retry mode: a task passes if any attempt within the budget passed, else fails if one
was scored, else is unscoreable, and the first-attempt rate is reported beside the headline. Samples
mode: every task is sampled budget times, the headline is pass@1 with a task-clustered interval, and
pass@k (k ≥ 2) is reported apart from the headline.

Expected values: the clustered interval and pass@k from tests/oracles.py; the published figures of a
real Terminal-Bench run copied in literally.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from tests.builders import as_samples, record, retry_ledger, samples_ledger, samples_records, slice_manifest, valid_ledger
from tests.oracles import (
    exact_pass_at_k,
    exact_pass_hat_k,
    monotone_clustered_interval,
    rate_text,
    samples_interval,
    wilson,
    wilson_z,
    z_of,
)
from tests.support import GateCase


class RetryRule(GateCase):
    """Retry mode with an attempt budget above 1: one exit per task."""

    TASKS: ClassVar[dict[str, list[tuple[str, str | None]]]] = {
        "neg-01": [("fail", None)],
        "pos-01": [("pass", None)],
        "t-a": [("fail", None), ("pass", None)],                                    # pass: a retry passed
        "t-b": [("unscoreable", "harness_timeout"), ("fail", None)],                 # fail: scored, never passed
        "t-c": [("unscoreable", "harness_timeout"), ("unscoreable", "env_flake")],   # unscoreable
        "t-d": [("pass", None)],                                                     # pass on the first try
        "t-e": [("fail", None), ("fail", None), ("fail", None)],                     # fail: three rows, one exit
        "t-f": [("unscoreable", "grader_error"), ("unscoreable", "grader_error"), ("pass", None)],  # pass
        "t-h": [("pass", None)],                                                     # pass: a task stops at its pass
        "t-i": [("fail", None), ("unscoreable", "env_flake")],                       # fail: a scored attempt wins
    }

    def test_each_task_exits_once_by_the_retry_rule(self) -> None:
        """A task passes if any attempt passed, else fails if any was scored, else is unscoreable: 18 rows are 10
        exits, and the secondary drops the one unscoreable task.
        """
        manifest, records = retry_ledger(3, self.TASKS)
        self.assertEqual(len(records), 18)
        report = self.publishable(manifest, records)
        ledger = report["ledger"]
        self.assertEqual((ledger["entries"], ledger["exits"]), (10, 10))
        self.assertEqual((ledger["pass"], ledger["fail"], ledger["unscoreable"]), (5, 4, 1))
        self.assertEqual(sum(ledger["unscoreable_reasons"].values()), 1)
        self.assertEqual((report["headline"]["k"], report["headline"]["n"]), (5, 10))
        self.assertEqual((report["secondary"]["k"], report["secondary"]["n"]), (5, 9))

    def test_an_attempt_after_a_pass_is_not_a_retry(self) -> None:
        """In retry mode a task stops at its first pass: a later attempt (a sample, really) blocks with
        attempt_after_pass naming the task and the attempt that passed; in samples mode the same rows are fine."""
        tasks = {**self.TASKS, "t-h": [("pass", None), ("fail", None)]}
        manifest, records = retry_ledger(3, tasks)
        messages = self.blocked(manifest, records, "attempt_after_pass")
        self.assertIn("t-h (passed at attempt 1)", messages[0])
        self.assertTrue(messages[0].startswith("1 task(s)"), messages[0])

    def test_three_attempts_of_one_task_are_one_exit(self) -> None:
        """Three failing attempts of one task are one exit."""
        manifest, records = retry_ledger(3, {"neg-01": [("fail", None)], "pos-01": [("pass", None)],
                                             "t-x": [("fail", None)] * 3})
        report = self.publishable(manifest, records)
        self.assertEqual((report["ledger"]["exits"], report["ledger"]["fail"]), (3, 2))

    def test_first_attempt_rate_over_the_full_denominator(self) -> None:
        """With a budget above one, the first-attempt rate counts over all tasks, with its Wilson interval, on one
        'first try' line.
        """
        manifest, records = retry_ledger(3, self.TASKS)
        report = self.publishable(manifest, records)
        first = report["first_attempt"]
        low, high = wilson_z(3, 10, z_of(0.95))  # pos-01, t-d and t-h passed on attempt 1
        self.assertEqual((first["k"], first["n"]), (3, 10))
        self.assertAlmostEqual(first["ci_low"], low, delta=1e-12)
        self.assertAlmostEqual(first["ci_high"], high, delta=1e-12)
        _, out, _ = self.check(manifest, records)
        lines = [line for line in out.splitlines() if line.startswith("first try")]
        self.assertEqual(len(lines), 1, out)
        self.assertIn(rate_text(3, 10), lines[0])

    def test_no_first_try_line_with_budget_one(self) -> None:
        """With a budget of one, implicit or explicit, there is no first-try line and no first_attempt figure."""
        manifest, records = valid_ledger()
        _, out, _ = self.check(manifest, records)
        self.assertNotIn("first try", out)
        _, report = self.check_json(manifest, records)
        self.assertIsNone(report.get("first_attempt"))
        manifest["attempt_budget"] = 1
        _, out, _ = self.check(manifest, records)
        self.assertNotIn("first try", out)

    def test_a_pass_beyond_the_budget_does_not_count(self) -> None:
        """A pass on an attempt over the budget does not count: the task fails, and the ledger blocks."""
        manifest, records = retry_ledger(2, {"neg-01": [("fail", None)], "pos-01": [("pass", None)],
                                             "t-g": [("fail", None), ("fail", None), ("pass", None)]})
        self.blocked(manifest, records, "attempt_over_budget")
        _, report = self.check_json(manifest, records)
        self.assertEqual((report["ledger"]["pass"], report["ledger"]["fail"]), (1, 2))


class FirstAttemptRate(GateCase):
    """Retry mode reports the first-attempt rate, labelled, never as the headline."""

    def records(self) -> list[dict[str, Any]]:
        return [
            record("neg", "fail"), record("pos", "pass"), record("p1", "pass"),
            record("p2", "fail", attempt=1), record("p2", "pass", attempt=2),
            record("p3", "fail", attempt=1), record("p3", "unscoreable", "env_flake", attempt=2), record("p3", "pass", attempt=3),
            record("f", "fail", attempt=1), record("f", "fail", attempt=2), record("f", "fail", attempt=3),
        ]

    def manifest(self, budget: int) -> dict[str, Any]:
        return slice_manifest(["neg", "pos", "p1", "p2", "p3", "f"], attempt_budget=budget, controls=[
            {"task_id": "neg", "expected": "fail", "role": "negative"},
            {"task_id": "pos", "expected": "pass", "role": "positive"}])

    def test_first_attempt_rate_is_printed_and_labelled(self) -> None:
        """The first-attempt rate (2/6) is reported with its interval and labelled on its own line, never marked as
        the headline; pass@k is empty in retry mode.
        """
        code, report = self.check_json(self.manifest(3), self.records())
        self.assertEqual((code, report["findings"]), (0, []))
        self.assertEqual((report["headline"]["k"], report["headline"]["n"]), (4, 6))
        first = report["first_attempt"]
        self.assertEqual((first["k"], first["n"]), (2, 6))
        low, high = wilson(2, 6)
        self.assertAlmostEqual(first["ci_low"], low, places=12)
        self.assertAlmostEqual(first["ci_high"], high, places=12)
        self.assertEqual(report["pass_at_k"], {})
        _, out, _ = self.check(self.manifest(3), self.records())
        lines = [line for line in out.splitlines() if "2/6" in line]
        self.assertEqual(len(lines), 1, out)
        self.assertIn("first", lines[0])
        self.assertIn("labelled", lines[0])
        self.assertNotIn("<- headline", lines[0])

    def test_budget_one_has_no_first_attempt_line(self) -> None:
        """With a budget of one, first_attempt is null and no first-attempt line is printed."""
        records = [record("neg", "fail"), record("pos", "pass"), record("p1", "pass"), record("p2", "fail"),
                   record("p3", "pass"), record("f", "fail")]
        code, report = self.check_json(self.manifest(1), records)
        self.assertEqual(code, 0, report["findings"])
        self.assertIsNone(report["first_attempt"])
        _, out, _ = self.check(self.manifest(1), records)
        self.assertNotIn("first attempt", out)


class SamplesMode(GateCase):
    """Samples mode: pass@1 over every declared task, Wilson's interval on the task-clustered effective size."""

    N = 4
    COUNTS = {"pos": 4, "a": 4, "b": 4, "neg": 0, "c": 0, "d": 0, "e": 1, "f": 3}  # heterogeneous tasks
    FLAKES = {"e": 1}  # one of e's non-passing samples is unscoreable

    def manifest(self, ids: list[str]) -> dict[str, Any]:
        return slice_manifest(ids, attempt_mode="samples", attempt_budget=self.N, controls=[
            {"task_id": "neg", "expected": "fail", "role": "negative"},
            {"task_id": "pos", "expected": "pass", "role": "positive"}])

    def test_pass_hat_k_is_the_mean_chance_all_k_samples_pass(self) -> None:
        """pass^k for k = 2..n equals C(c, k)/C(n, k) averaged over the declared tasks, exactly computed, to 1e-12, in
        the JSON; the text card has one pass^k line apart from the headline and pass@k, and Markdown labels it. A
        task with fewer than k passes adds 0 (pass^k <= pass@1 <= pass@k)."""
        ids = list(self.COUNTS)
        records = samples_records(self.COUNTS, self.N, self.FLAKES)
        code, report = self.check_json(self.manifest(ids), records)
        self.assertEqual(code, 0, report["findings"])
        counts = list(self.COUNTS.values())
        self.assertEqual(set(report["pass_hat_k"]), {"2", "3", "4"})
        for k in (2, 3, 4):
            expected = sum(exact_pass_hat_k(self.N, c, k) for c in counts) / len(counts)
            self.assertLessEqual(abs(report["pass_hat_k"][str(k)] - float(expected)), 1e-12)
            self.assertLessEqual(report["pass_hat_k"][str(k)], report["headline"]["rate"] + 1e-12)
        _, out, _ = self.check(self.manifest(ids), records)
        line = next(x for x in out.splitlines() if re.match(r"^pass\^k\s*:", x))
        for k in (2, 3, 4):
            expected = float(sum(exact_pass_hat_k(self.N, c, k) for c in counts) / len(counts))
            self.assertIn(f"pass^{k} {expected:.3f}", line)
        self.assertIn("all k samples pass), not the headline", line)
        _, md, _ = self.check(self.manifest(ids), records, "--format", "markdown")
        self.assertIn("pass^k, all k samples pass (not the headline): pass^2 = ", md)

    def test_headline_secondary_interval_and_pass_at_k(self) -> None:
        """The headline is pass@1 with Wilson's interval on the task-clustered effective size (not the pooled Wilson
        one over all samples), the secondary counts scored samples, and pass@2..n are printed on one line apart.
        """
        ids = list(self.COUNTS)
        records = samples_records(self.COUNTS, self.N, self.FLAKES)
        code, report = self.check_json(self.manifest(ids), records)
        self.assertEqual((code, report["findings"]), (0, []))
        counts = list(self.COUNTS.values())
        mean, low, high = samples_interval(counts, self.N)
        head = report["headline"]
        self.assertEqual(head["name"], "pass@1")
        self.assertEqual(head["n"], len(ids))
        self.assertAlmostEqual(head["k"], sum(counts) / self.N, places=12)
        self.assertLessEqual(abs(head["rate"] - mean), 1e-12)
        self.assertLessEqual(abs(head["ci_low"] - low), 1e-9)
        self.assertLessEqual(abs(head["ci_high"] - high), 1e-9)
        pooled = wilson(sum(counts), self.N * len(ids))
        self.assertGreater(abs(head["ci_low"] - pooled[0]), 0.05)
        self.assertGreater(abs(head["ci_high"] - pooled[1]), 0.05)
        # Secondary: unscoreable attempts excluded (16 passes of 31 scored attempts).
        self.assertEqual(sum(counts), 16)
        second = report["secondary"]
        self.assertEqual((second["k"], second["n"]), (16, 31))
        self.assertLessEqual(abs(second["rate"] - 16 / 31), 1e-12)
        # pass@k, k = 2..n, over the full task count, never the headline.
        self.assertEqual(set(report["pass_at_k"]), {"2", "3", "4"})
        for k in (2, 3, 4):
            expected = sum(exact_pass_at_k(self.N, c, k) for c in counts) / len(counts)
            self.assertLessEqual(abs(report["pass_at_k"][str(k)] - float(expected)), 1e-12)
        code, out, _ = self.check(self.manifest(ids), records)
        lines = out.splitlines()
        headline = next(line for line in lines if "<- headline" in line)
        self.assertTrue(headline.startswith("pass@1"), headline)
        self.assertNotRegex(headline, r"pass@[2-9]")
        passk = [line for line in lines if re.match(r"^pass@k\s*:", line)]
        self.assertEqual(len(passk), 1, out)
        for k in (2, 3, 4):
            expected = float(sum(exact_pass_at_k(self.N, c, k) for c in counts) / len(counts))
            self.assertIn(f"pass@{k} {expected:.3f}", passk[0])
        self.assertIn("not the headline", passk[0])

    def test_headline_keeps_the_full_declared_task_count(self) -> None:
        """A declared task that never ran counts as zero passes in pass@1, in its interval and in every pass@k."""
        ids = [*self.COUNTS, "never"]
        _, report = self.check_json(self.manifest(ids), samples_records(self.COUNTS, self.N, self.FLAKES))
        self.assertIn("never_started", [f["code"] for f in report["findings"]])
        counts = [*self.COUNTS.values(), 0]
        mean, low, high = samples_interval(counts, self.N)
        head = report["headline"]
        self.assertEqual(head["n"], 9)
        self.assertLessEqual(abs(head["rate"] - 16 / 36), 1e-12)
        self.assertLessEqual(abs(head["rate"] - mean), 1e-12)
        self.assertLessEqual(abs(head["ci_low"] - low), 1e-9)
        self.assertLessEqual(abs(head["ci_high"] - high), 1e-9)
        for k in (2, 3, 4):
            expected = sum(exact_pass_at_k(self.N, c, k) for c in counts) / 9
            self.assertLessEqual(abs(report["pass_at_k"][str(k)] - float(expected)), 1e-12)

    def test_interval_follows_confidence_and_never_collapses(self) -> None:
        """The interval follows --confidence; every task passing every sample still has a lower end below 1 (and
        none passing an upper end above 0), at every confidence.
        """
        counts = {"pos": 4, "neg": 0, **{f"t{i}": 4 for i in range(6)}, "low": 1}
        ids = list(counts)
        widths = []
        for conf in (0.8, 0.95, 0.99):
            with self.subTest(conf=conf):
                _, report = self.check_json(self.manifest(ids), samples_records(counts, self.N), "--confidence", str(conf))
                _mean, low, high = samples_interval(list(counts.values()), self.N, conf)
                self.assertLessEqual(abs(report["headline"]["ci_low"] - low), 1e-9)
                self.assertLessEqual(abs(report["headline"]["ci_high"] - high), 1e-9)
                widths.append(high - low)
        self.assertLess(widths[0], widths[1])
        self.assertLess(widths[1], widths[2])
        for conf in (0.8, 0.95, 0.99):
            for c in (0, 4):
                with self.subTest(conf=conf, every_sample=c):
                    _mean, low, high = samples_interval([c] * 40, self.N, conf)
                    self.assertGreater(high - low, 0.01)
                    self.assertEqual((low == 0.0, high == 1.0), (c == 0, c == 4))

    def test_all_passing_40_by_3_is_not_a_point(self) -> None:
        """A stratum of 40 tasks x 3 samples, every sample passing: the audit saw [1.000, 1.000]; now the lower end
        is below 1 by the oracle's amount, the upper end exactly 1, in the report's numbers and its text.
        """
        patterns = {"neg": "fff", "pos": "ppp", **{f"t{i:02d}": "ppp" for i in range(39)}}
        strata = {t: ("all" if t != "neg" else "none") for t in patterns}
        code, report = self.check_json(*samples_ledger(patterns, strata))
        self.assertEqual(code, 0, report["findings"])
        rate = next(s["rate"] for s in report["strata"] if s["name"] == "all")
        _mean, low, _high = samples_interval([3] * 40, 3)
        self.assertEqual((rate["k"], rate["n"], rate["ci_high"]), (40, 40, 1.0))
        self.assertLessEqual(abs(rate["ci_low"] - low), 1e-9)
        self.assertLess(rate["ci_low"], 0.95)
        _, out, _ = self.check(*samples_ledger(patterns, strata))
        self.assertIn(f"[{low:.3f}, 1.000]", out)
        self.assertNotIn("[1.000, 1.000]", out)

    def test_one_sample_a_task_is_retry_modes_wilson(self) -> None:
        """With a budget of 1, samples mode's interval is retry mode's Wilson interval, to the last bit."""
        ids = [f"t{i:02d}" for i in range(40)]
        outcomes = {t: ("pass" if i < 29 else "fail") for i, t in enumerate(ids)}
        controls = [{"task_id": "t39", "expected": "fail", "role": "negative"},
                    {"task_id": "t00", "expected": "pass", "role": "positive"}]
        records = [record(t, o) for t, o in outcomes.items()]
        reports = {}
        for mode in ("retry", "samples"):
            _, reports[mode] = self.check_json(slice_manifest(ids, attempt_mode=mode, attempt_budget=1, controls=controls), records)
        for key in ("ci_low", "ci_high"):
            self.assertEqual(reports["samples"]["headline"][key], reports["retry"]["headline"][key])
        for got, want in zip((reports["retry"]["headline"]["ci_low"], reports["retry"]["headline"]["ci_high"]), wilson(29, 40)):
            self.assertLessEqual(abs(got - want), 1e-12)

    def test_fewer_or_more_samples_are_findings(self) -> None:
        """A task with fewer samples than the budget raises samples_incomplete naming it and its count; one sample too
        many is attempt_over_budget instead.
        """
        ids = list(self.COUNTS)
        records = samples_records(self.COUNTS, self.N)
        short = [r for r in records if not (r["task_id"] == "c" and r["attempt"] == 4)]
        _, report = self.check_json(self.manifest(ids), short)
        found = [f["message"] for f in report["findings"] if f["code"] == "samples_incomplete"]
        self.assertEqual(len(found), 1, report["findings"])
        self.assertIn("c (3)", found[0])
        extra = [*records, record("d", "fail", attempt=5)]
        codes = self.codes(self.manifest(ids), extra)
        self.assertIn("attempt_over_budget", codes)
        self.assertNotIn("samples_incomplete", codes)

    def test_samples_stratum_interval_equals_headline_for_one_stratum(self) -> None:
        """With every task in one stratum, that stratum's count, rate and interval equal the headline's."""
        pats = {"neg": "ff", "pos": "pp", **{f"t{i}": p for i, p in enumerate(["pp", "pf", "pf", "ff", "pp", "pf", "fp"])}}
        code, report = self.check_json(*samples_ledger(pats, {t: "only" for t in pats}))
        self.assertEqual(code, 0, report["findings"])
        (stratum,) = report["strata"]
        for key in ("k", "n", "rate", "ci_low", "ci_high"):
            self.assertEqual(stratum["rate"][key], report["headline"][key], key)

    def test_samples_secondary_interval_clusters_scored_samples_by_task(self) -> None:
        """The samples-mode secondary rate is over scored samples, its interval clustered by task (tasks scoring
        different numbers of samples are clusters of different sizes).
        """
        for pats in ({"neg": "fff", "pos": "ppp", "a": "pfp", "b": "ffp", "c": "pup"},
                     {"neg": "fff", "pos": "pff", **{f"z{i}": "fff" for i in range(12)}},
                     {"neg": "fuf", "pos": "ppu", "a": "uup", "b": "pfp", "c": "uuf"}):
            with self.subTest(pats=pats):
                _, report = self.check_json(*samples_ledger(pats))
                scored = [(p.count("p"), p.count("p") + p.count("f")) for p in pats.values() if p.strip("u")]
                rate, low, high = monotone_clustered_interval([s for s, _ in scored], [n for _, n in scored])
                sec = report["secondary"]
                self.assertEqual((sec["k"], sec["n"]), (sum(s for s, _ in scored), sum(n for _, n in scored)))
                self.assertLessEqual(abs(sec["rate"] - rate), 1e-12)
                self.assertLessEqual(abs(sec["ci_low"] - low), 1e-9)
                self.assertLessEqual(abs(sec["ci_high"] - high), 1e-9)
                self.assertGreater(sec["ci_high"], sec["ci_low"])

    def test_samples_attempt_reasons_keep_their_names(self) -> None:
        """Unscoreable samples are counted under their declared reason, not as uncoded."""
        manifest, records = samples_ledger({"neg": "ff", "pos": "pp", "a": "pu", "b": "uu"})
        manifest["max_unscoreable"] = 0.5  # 3 of the 8 samples are unscoreable: past the default ceiling of 0.2
        code, report = self.check_json(manifest, records)
        self.assertEqual(code, 0, report["findings"])
        self.assertEqual(report["ledger"]["unscoreable_attempt_reasons"], {"env_flake": 3})

    def test_one_task_stratum_has_a_rate_in_samples_mode(self) -> None:
        """A stratum of a single task has a samples-mode rate (0.5), not n/a."""
        pats = {"neg": "ff", "pos": "pp", "a": "pf"}
        code, report = self.check_json(*samples_ledger(pats, {"neg": "big", "pos": "big", "a": "solo"}))
        self.assertEqual(code, 0, report["findings"])
        solo = next(s for s in report["strata"] if s["name"] == "solo")
        self.assertIsNotNone(solo["rate"])
        self.assertEqual(solo["rate"]["rate"], 0.5)

    def test_samples_headline_shows_a_fractional_count(self) -> None:
        """The samples-mode headline shows the fractional pass count: 1.33/4 = 0.333."""
        manifest, samples = as_samples(*valid_ledger(passes=2, fails=2, unscoreable=()), 3, {"t-001": ("pass", "fail", "fail")})
        _, out, _ = self.check(manifest, samples)
        self.assertIn("pass@1      : 1.33/4 = 0.333", out)


# Terminal-Bench, orchestrator_claude-4-sonnet.results.json (80 tasks x 5 trials): passes per task
# (is_resolved true; false and null count as not passing) and the file's own stated figures.
TB_TRIALS = 5


TB_COUNTS = {
    "blind-maze-explorer-5x5": 2, "blind-maze-explorer-algorithm": 3, "blind-maze-explorer-algorithm.easy": 1,
    "blind-maze-explorer-algorithm.hard": 1, "build-initramfs-qemu": 0, "build-linux-kernel-qemu": 0, "build-tcc-qemu": 0,
    "cartpole-rl-training": 0, "chess-best-move": 0, "conda-env-conflict-resolution": 3, "configure-git-webserver": 3,
    "count-dataset-tokens": 1, "crack-7z-hash": 5, "crack-7z-hash.easy": 5, "crack-7z-hash.hard": 2, "create-bucket": 0,
    "cron-broken-network": 1, "csv-to-parquet": 4, "decommissioning-service-with-sensitive-data": 0, "download-youtube": 0,
    "eval-mteb": 3, "eval-mteb.hard": 0, "extract-moves-from-video": 0, "extract-safely": 4, "fibonacci-server": 4,
    "fix-git": 0, "fix-pandas-version": 5, "fix-permissions": 5, "get-bitcoin-nodes": 1, "git-multibranch": 0,
    "git-workflow-hack": 5, "gpt2-codegolf": 0, "grid-pattern-transform": 4, "hello-world": 5, "heterogeneous-dates": 5,
    "hf-model-inference": 0, "incompatible-python-fasttext": 1, "incompatible-python-fasttext.base_with_hint": 4,
    "intrusion-detection": 0, "jupyter-notebook-server": 0, "modernize-fortran-build": 2, "new-encrypt-command": 5,
    "nginx-request-logging": 0, "oom": 3, "openssl-selfsigned-cert": 3, "organization-json-generator": 4,
    "password-recovery": 0, "path-tracing": 2, "path-tracing-reverse": 0, "play-zork": 0, "polyglot-c-py": 0,
    "polyglot-rust-c": 0, "processing-pipeline": 3, "prove-plus-comm": 4, "pytorch-model-cli": 5,
    "pytorch-model-cli.easy": 3, "pytorch-model-cli.hard": 5, "qemu-alpine-ssh": 0, "qemu-startup": 4, "raman-fitting": 0,
    "raman-fitting.easy": 0, "reshard-c4-data": 0, "run-pdp11-code": 0, "sanitize-git-repo": 2, "sanitize-git-repo.hard": 1,
    "security-vulhub-minio": 0, "simple-sheets-put": 5, "simple-web-scraper": 1, "solana-data": 0, "sqlite-db-truncate": 1,
    "sqlite-with-gcov": 5, "super-benchmark-upet": 0, "swe-bench-astropy-1": 1, "swe-bench-astropy-2": 0,
    "swe-bench-fsspec": 1, "swe-bench-langcodes": 4, "tmux-advanced-workflow": 3, "train-fasttext": 0,
    "vim-terminal-task": 0, "write-compressor": 0,
}


TB_STATED_ACCURACY = 0.36


TB_STATED_PASS_AT_K = {"2": 0.4625, "4": 0.5475, "5": 0.575}


TB_STATED_N_RESOLVED = 144


class PublishedRunFigures(GateCase):
    def test_estimator_reproduces_the_files_stated_figures(self) -> None:
        """pass@1 and pass@2, 4, 5 of a published Terminal-Bench run (80 tasks, 5 trials each) reproduce the file's
        stated figures to 1e-12.
        """
        self.assertEqual(len(TB_COUNTS), 80)
        self.assertEqual(sum(TB_COUNTS.values()), TB_STATED_N_RESOLVED)
        ids = list(TB_COUNTS)
        manifest = slice_manifest(ids, attempt_mode="samples", attempt_budget=TB_TRIALS)
        _, report = self.check_json(manifest, samples_records(TB_COUNTS, TB_TRIALS))
        self.assertEqual(report["headline"]["name"], "pass@1")
        self.assertEqual(report["headline"]["n"], 80)
        self.assertLessEqual(abs(report["headline"]["rate"] - TB_STATED_ACCURACY), 1e-12)
        for k, stated in TB_STATED_PASS_AT_K.items():
            self.assertLessEqual(abs(report["pass_at_k"][k] - stated), 1e-12, k)
        self.assertEqual(set(report["pass_at_k"]), {"2", "3", "4", "5"})
