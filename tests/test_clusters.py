"""Clusters in check: a record's optional "cluster" (a repository) gives the headline a second interval, by cluster,
beside the task-level one; every record names one or none (cluster_incomplete), and a task names one only
(cluster_conflict).

Expected values: tests/oracles.clustered_interval (Kish's effective size, CR1 variance, Korn-Graubard factor) and
the swebench_verified_372 row of tests/reference/stat_vectors_v2.json (statsmodels).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.builders import make_manifest, record
from tests.oracles import clustered_interval
from tests.support import ROOT, GateCase, markdown_tables

VECTORS = json.loads((Path(__file__).parent / "reference" / "stat_vectors_v2.json").read_text(encoding="utf-8"))
REPOS = {"pos-01": "flask", "neg-01": "flask", **{f"t-{i:02d}": ("django" if i < 9 else "sympy" if i < 14 else "requests")
                                                   for i in range(18)}}


def clustered_ledger(passes: set[str], m: int = 1, samples: dict[str, int] | None = None) -> tuple[dict[str, Any], list[Any]]:
    """The tasks of REPOS (pos-01 passes, neg-01 fails), each record naming its repository as the cluster."""
    ids = list(REPOS)
    extra: dict[str, Any] = {"attempt_mode": "samples", "attempt_budget": m} if m > 1 else {}
    records = []
    for tid in ids:
        count = (samples or {}).get(tid, m if tid in passes else 0)
        records += [record(tid, "pass" if a <= count else "fail", attempt=a, cluster=REPOS[tid]) for a in range(1, m + 1)]
    return make_manifest(ids, controls=[{"task_id": "neg-01", "expected": "fail", "role": "negative"},
                                        {"task_id": "pos-01", "expected": "pass", "role": "positive"}], **extra), records


PASSING = {"pos-01", "t-00", "t-01", "t-02", "t-03", "t-04", "t-09", "t-14", "t-15", "t-16"}


class ClusterInterval(GateCase):
    def test_retry_mode_against_the_oracle(self) -> None:
        """The by-cluster interval is the oracle's over the four repositories, wider than the task-level one, and the
        text, JSON and Markdown show it beside the headline."""
        code, report = self.check_json(*clustered_ledger(PASSING))
        self.assertEqual(code, 0, report["findings"])
        sums: dict[str, int] = {}
        sizes: dict[str, int] = {}
        for tid, repo in REPOS.items():
            sums[repo] = sums.get(repo, 0) + (tid in PASSING)
            sizes[repo] = sizes.get(repo, 0) + 1
        names = sorted(sums)
        rate, low, high = clustered_interval([sums[g] for g in names], [sizes[g] for g in names])
        by = report["headline_by_cluster"]
        self.assertEqual((by["k"], by["n"], by["clusters"]), (len(PASSING), len(REPOS), 4))
        self.assertLessEqual(abs(by["ci_low"] - low), 1e-9)
        self.assertLessEqual(abs(by["ci_high"] - high), 1e-9)
        self.assertAlmostEqual(by["rate"], rate, places=12)
        head = report["headline"]
        self.assertGreater(by["ci_high"] - by["ci_low"], head["ci_high"] - head["ci_low"])
        _, out, _ = self.check(*clustered_ledger(PASSING))
        self.assertRegex(out, rf"(?m)^by cluster  : 95% CI \[{low:.3f}, {high:.3f}\] over 4 clusters \(effective n ")
        _, md, _ = self.check(*clustered_ledger(PASSING), "--format", "markdown")
        rows = [row for table in markdown_tables(md) for row in table]
        self.assertIn(["the headline by cluster (4 clusters)", f"{len(PASSING)}/{len(REPOS)}", f"{rate:.3f}",
                       f"[{low:.3f}, {high:.3f}]"], rows)

    def test_samples_mode_clusters_the_samples(self) -> None:
        """In samples mode the units are samples: a repository's passes over its tasks x budget."""
        counts = {tid: (3 if tid == "pos-01" else 0 if tid == "neg-01" else (i * 7) % 4) for i, tid in enumerate(REPOS)}
        code, report = self.check_json(*clustered_ledger(set(), 3, counts))
        self.assertEqual(code, 0, report["findings"])
        sums: dict[str, int] = {}
        sizes: dict[str, int] = {}
        for tid, repo in REPOS.items():
            sums[repo] = sums.get(repo, 0) + counts[tid]
            sizes[repo] = sizes.get(repo, 0) + 3
        names = sorted(sums)
        _, low, high = clustered_interval([sums[g] for g in names], [sizes[g] for g in names])
        self.assertLessEqual(abs(report["headline_by_cluster"]["ci_low"] - low), 1e-9)
        self.assertLessEqual(abs(report["headline_by_cluster"]["ci_high"] - high), 1e-9)

    def test_the_real_swebench_entry(self) -> None:
        """The 372/500 SWE-bench Verified entry over its 12 repositories: statsmodels' CR1 variance behind the reference
        interval [0.63746, 0.82769], to 1e-9."""
        ref = VECTORS["cluster"]["swebench_verified_372"]["recommended_kish_cr1_kgE_0.95"]
        folder = ROOT / "examples" / "rank" / "systems"
        code, report = self.run_gate("check", "--manifest", str(folder / "01-claude-4-5-opus-medium-20251101.manifest.json"),
                                     "--runs", str(folder / "01-claude-4-5-opus-medium-20251101.jsonl"), "--format", "json")[:2]
        self.assertEqual(code, 0)
        by = json.loads(report)["headline_by_cluster"]
        self.assertEqual((by["k"], by["clusters"]), (372, 12))
        self.assertLessEqual(abs(by["ci_low"] - float(ref["lower"])), 1e-9)
        self.assertLessEqual(abs(by["ci_high"] - float(ref["upper"])), 1e-9)
        self.assertLessEqual(abs(by["effective_n"] - ref["n_star"]), 1e-6)

    def test_no_clusters_no_line(self) -> None:
        """Records without a cluster: no by-cluster line, and headline_by_cluster is null."""
        manifest, records = clustered_ledger(PASSING)
        for r in records:
            del r["cluster"]
        code, report = self.check_json(manifest, records)
        self.assertEqual(code, 0)
        self.assertIsNone(report["headline_by_cluster"])
        self.assertNotIn("by cluster", self.check(manifest, records)[1])


class ClusterRules(GateCase):
    def test_some_records_without_a_cluster(self) -> None:
        """Some tasks naming a cluster and others not is cluster_incomplete, with the counts."""
        manifest, records = clustered_ledger(PASSING)
        for r in records:
            if r["task_id"] in ("t-03", "t-04"):
                del r["cluster"]
        code, report = self.check_json(manifest, records)
        self.assertEqual(code, 1)
        (found,) = [f for f in report["findings"] if f["code"] == "cluster_incomplete"]
        self.assertIn(f"{len(REPOS) - 2} of {len(REPOS)} tasks' records name a cluster and 2 do not", found["message"])
        self.assertIsNone(report["headline_by_cluster"])

    def test_a_task_in_two_clusters(self) -> None:
        """A task whose attempts name two clusters is cluster_conflict naming it."""
        manifest, records = clustered_ledger(PASSING)
        manifest["attempt_budget"] = 2
        records.append(record("t-05", "fail", attempt=2, cluster="flask"))
        code, report = self.check_json(manifest, records)
        self.assertEqual(code, 1)
        (found,) = [f for f in report["findings"] if f["code"] == "cluster_conflict"]
        self.assertIn("t-05", found["message"])

    def test_a_cluster_name_follows_the_task_id_rule(self) -> None:
        """A cluster that is not a printable name without surrounding spaces is exit 2 naming the field."""
        manifest, records = clustered_ledger(PASSING)
        records[3]["cluster"] = " django"
        code, out, err = self.check(manifest, records)
        self.assertEqual((code, out), (2, ""))
        self.assertIn("cluster", err)
        records[3]["outcome"] = 5  # a record with two bad fields: its cluster is named, as it always was
        self.assertInputError(self.check(manifest, records), ":4: cluster: expected a cluster name")
