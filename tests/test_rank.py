"""rank: many PUBLISHABLE ledgers of one suite; Cochran's Q over them all, every pair by compare's rule with
Holm's correction, and the groups of systems the data cannot tell apart (Piepho's letters).

Expected values: the rank_swebench block of tests/reference/stat_vectors_v2.json (statsmodels, networkx
maximal cliques) for the shipped example, and tests/oracles.py for the small cases.
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path
from typing import Any
from unittest import mock

import gate
from tests.builders import COMPARE_ENVELOPE, make_manifest, record
from tests.oracles import conditional_critical, exact_conditional, miller_paired, tango_interval, z_of
from tests.support import ROOT, SVG_NS, GateCase, assert_safe_svg

VECTORS = json.loads((Path(__file__).parent / "reference" / "stat_vectors_v2.json").read_text(encoding="utf-8"))
EXAMPLE = ROOT / "examples" / "rank"


def cochran_q(columns: list[list[Fraction]]) -> Fraction:
    """Cochran's Q in the randomized-block form (k − 1)·Σ_j(C_j − C̄)²/Σ_{t,j}(x_tj − R_t/k)², exact; on 0/1 data it is
    Cochran's (1950) statistic."""
    k, tasks = len(columns), len(columns[0])
    totals = [sum(col) for col in columns]
    mean = sum(totals) / k
    rows = [sum(col[t] for col in columns) / k for t in range(tasks)]
    spread = sum((col[t] - rows[t]) ** 2 for col in columns for t in range(tasks))
    return (k - 1) * sum((c - mean) ** 2 for c in totals) / spread


def holm(ps: list[float]) -> list[float]:
    """Holm's adjusted p-values by definition: max over j <= rank of min(1, (m − j)·p_(j))."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    out = [0.0] * len(ps)
    for rank, i in enumerate(order):
        out[i] = max(min(1.0, (len(ps) - j) * ps[order[j]]) for j in range(rank + 1))
    return out


class RankCase(GateCase):
    def systems(self, patterns: dict[str, str], *, mode: str = "retry") -> list[str]:
        """One ledger per named system over shared tasks: each pattern letter a task's outcome ('p' pass, 'f' fail), or
        in samples mode a digit, the passes of 3 samples. pos-01 passes and neg-01 fails everywhere."""
        first = next(iter(patterns.values()))
        ids = ["pos-01", *(f"t-{i:02d}" for i in range(len(first))), "neg-01"]
        args = []
        budget = 3 if mode == "samples" else 1
        for name, pattern in patterns.items():
            marks = ["p" if mode == "retry" else "3", *pattern, "f" if mode == "retry" else "0"]
            records = []
            for tid, mark in zip(ids, marks):
                if mode == "retry":
                    records.append(record(tid, "pass" if mark == "p" else "fail", run_id=name))
                else:
                    records += [record(tid, "pass" if a <= int(mark) else "fail", attempt=a, run_id=name) for a in range(1, 4)]
            manifest = make_manifest(ids, claim_id=name, name="ranked-suite", envelope=dict(COMPARE_ENVELOPE),
                                     **({"attempt_mode": "samples", "attempt_budget": 3} if mode == "samples" else {}))
            args += ["--manifest", str(self.write_json(f"{name}.json", manifest)), "--runs", str(self.write_jsonl(f"{name}.jsonl", records))]
        assert budget
        return args

    def rank_json(self, *args: str) -> tuple[int, dict[str, Any]]:
        code, out, err = self.run_gate("rank", *args, "--format", "json")
        self.assertIn(code, (0, 1), err)
        return code, json.loads(out)


class SmallRankings(RankCase):
    PATTERNS = {"alpha": "ppppppppppppppppfff", "beta": "pppppppppppfffffffp", "gamma": "ppppppfffffffffffff",
                "delta": "ppppppppppppfffffff"}

    def test_statistics_against_the_oracles(self) -> None:
        """Q, its df, every pair's difference, McNemar's exact conditional p (the oracle's fraction) and Tango interval
        at that test's critical value, Holm p, and significant = Holm p < alpha, all from the oracles."""
        code, report = self.rank_json(*self.systems(self.PATTERNS))
        self.assertEqual(code, 0, report["findings"])
        columns = [[Fraction(m == "p") for m in "p" + pattern + "f"] for pattern in self.PATTERNS.values()]
        self.assertAlmostEqual(report["omnibus"]["q"], float(cochran_q(columns)), places=9)
        self.assertEqual(report["omnibus"]["df"], 3)
        names = list(self.PATTERNS)
        pairs = list(itertools.combinations(range(4), 2))
        self.assertEqual([(p["first"], p["second"]) for p in report["pairs"]], [(names[i], names[j]) for i, j in pairs])
        raw = []
        for (i, j), got in zip(pairs, report["pairs"]):
            xs, ys = columns[i], columns[j]
            b = sum(1 for x, y in zip(xs, ys) if x and not y)
            c = sum(1 for x, y in zip(xs, ys) if y and not x)
            critical = conditional_critical(b + c, 0.05) or max(math.sqrt(b + c), z_of(0.95)) * (1 + 1e-9)
            low, high = tango_interval(b, c, len(xs), 0.95, critical)
            self.assertAlmostEqual(got["difference"], (b - c) / len(xs), places=12)
            self.assertLessEqual(abs(got["ci_low"] - low), 1e-6)
            self.assertLessEqual(abs(got["ci_high"] - high), 1e-6)
            self.assertEqual(got["p"], float(exact_conditional(b, c)))
            self.assertEqual(got["method"], "mcnemar_exact_conditional")
            raw.append(got["p"])  # Holm's step-down checked on the printed p-values
        for got, want in zip(report["pairs"], holm(raw)):
            self.assertLessEqual(abs(got["p_holm"] - want), 1e-12)
            self.assertEqual(got["significant"], want < 0.05)
        self.assertTrue(any(p["significant"] for p in report["pairs"]))
        self.assertFalse(all(p["significant"] for p in report["pairs"]))

    def test_groups_are_the_maximal_sets_no_pair_separates(self) -> None:
        """Every pair sharing a letter is not significant, every pair not significant shares one, and no group fits in
        another; places follow the headline, best first, a tie in the order given."""
        _, report = self.rank_json(*self.systems(self.PATTERNS))
        separated = {frozenset((p["first"], p["second"])) for p in report["pairs"] if p["significant"]}
        letters = {s["claim_id"]: set(s["letters"]) for s in report["systems"]}
        for a, b in itertools.combinations(letters, 2):
            self.assertEqual(bool(letters[a] & letters[b]), frozenset((a, b)) not in separated, (a, b))
        groups = [set(g["systems"]) for g in report["groups"]]
        for g, h in itertools.permutations(groups, 2):
            self.assertFalse(g < h)
        places = sorted(report["systems"], key=lambda s: s["place"])
        self.assertEqual([s["claim_id"] for s in places], ["alpha", "beta", "delta", "gamma"])  # beta ties delta: given order
        rates = [s["headline"]["rate"] for s in places]
        self.assertEqual(rates, sorted(rates, reverse=True))

    def test_samples_mode_ranks_per_task_rates(self) -> None:
        """In samples mode every pair is compare's samples-mode analysis and Q the randomized-block form on per-task
        rates."""
        patterns = {"one": "3332221100", "two": "3322110000", "six": "2222222222"}
        code, report = self.rank_json(*self.systems(patterns, mode="samples"))
        self.assertEqual(code, 0, report["findings"])
        counts = {name: [3, *map(int, p), 0] for name, p in patterns.items()}
        columns = [[Fraction(c, 3) for c in counts[name]] for name in patterns]
        self.assertAlmostEqual(report["omnibus"]["q"], float(cochran_q(columns)), places=9)
        for got, (i, j) in zip(report["pairs"], itertools.combinations(list(patterns), 2)):
            diff, low, high, p, _ = miller_paired(counts[i], counts[j], 3)
            self.assertEqual(got["method"], "miller_paired_t")
            self.assertAlmostEqual(got["difference"], diff, places=12)
            self.assertLessEqual(abs(got["ci_low"] - low), 1e-9)
            self.assertLessEqual(abs(got["ci_high"] - high), 1e-9)
            self.assertLessEqual(abs(got["p"] - p), 1e-9)

    def test_all_alike_is_one_group(self) -> None:
        """Systems that pass the same tasks: Q = 0, p = 1, no pair significant, one group holding them all."""
        code, report = self.rank_json(*self.systems({"x": "ppfpf", "y": "ppfpf", "z": "ppfpf"}))
        self.assertEqual(code, 0)
        self.assertEqual((report["omnibus"]["q"], report["omnibus"]["p"]), (0.0, 1.0))
        self.assertEqual([g["systems"] for g in report["groups"]], [["x", "y", "z"]])
        self.assertEqual({s["letters"] for s in report["systems"]}, {"a"})


class RankRefusals(RankCase):
    def test_a_blocked_system_blocks_the_ranking(self) -> None:
        """A system whose own ledger is BLOCKED blocks the ranking with its findings prefixed S<n>:."""
        args = self.systems({"x": "ppfpf", "y": "pffpf", "z": "ppppf"})
        runs = Path(args[args.index("--runs", 4) + 1])  # the second system's records
        lines = runs.read_text(encoding="utf-8").splitlines()
        runs.write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")  # drop neg-01
        code, report = self.rank_json(*args)
        self.assertEqual(code, 1)
        self.assertEqual(report["verdict"], "BLOCKED")
        self.assertIn("S2:never_started", [f["code"] for f in report["findings"]])
        self.assertTrue(all(f["code"].startswith("S2:") for f in report["findings"]))

    def test_different_instruments_are_not_ranked_together(self) -> None:
        """A system in another envelope or on another suite is a finding naming it against system 1."""
        args = self.systems({"x": "ppfpf", "y": "pffpf", "z": "ppppf"})
        path = Path(args[args.index("--manifest", 8) + 1])  # the third system's manifest
        manifest = json.loads(path.read_text(encoding="utf-8"))
        manifest["envelope"]["network"] = "on"
        path.write_text(json.dumps(manifest), encoding="utf-8")
        code, report = self.rank_json(*args)
        self.assertEqual(code, 1)
        (found,) = report["findings"]
        self.assertEqual(found["code"], "envelope_mismatch")
        self.assertIn("system 1 and system 3", found["message"])
        self.assertIn("network", found["message"])

    def test_usage_errors_are_exit_2(self) -> None:
        """One system, unpaired --manifest/--runs, or a malformed list file: exit 2, one line on stderr."""
        args = self.systems({"x": "ppfpf", "y": "pffpf"})
        bad_list = self.dir / "list.json"
        for argv, expected in ((args[:4], "at least two ledgers"), (args[:6], "give them in pairs"),
                               (["--list", str(bad_list)], "expected an object with exactly the keys")):
            bad_list.write_text('[{"manifest": "x.json"}]', encoding="utf-8")
            with self.subTest(argv=argv[-2:]):
                code, out, err = self.run_gate("rank", *argv)
                self.assertEqual((code, out), (2, ""))
                self.assertIn(expected, err)
                self.assertEqual(len(err.strip().splitlines()), 1, err)

    def test_a_list_entry_with_other_keys_than_manifest_and_runs_is_refused(self) -> None:
        """A list entry missing a key, with a key beside the two, or with one misspelled: exit 2 naming the entry,
        never read as if it were right (an extra "weight" is not silently dropped) and never exit 3."""
        args = self.systems({"x": "ppfpf", "y": "pffpf"})
        good = {"manifest": Path(args[1]).name, "runs": Path(args[3]).name}
        other = {"manifest": Path(args[5]).name, "runs": Path(args[7]).name}
        for entry in ({"manifest": good["manifest"]}, {**good, "weight": 2}, {"manifest": good["manifest"], "run": good["runs"]}):
            with self.subTest(entry=entry):
                path = self.write_json("systems.json", [other, entry])
                self.assertInputError(self.run_gate("rank", "--list", str(path)),
                                      f"{path}: [1]: expected an object with exactly the keys \"manifest\" and \"runs\"")

    def test_a_list_file_is_the_same_as_the_pairs(self) -> None:
        """--list FILE (paths relative to FILE) gives the same ranking as the same pairs on the command line."""
        args = self.systems({"x": "ppfpf", "y": "pffpf", "z": "ppppf"})
        listed = [{"manifest": Path(args[i + 1]).name, "runs": Path(args[i + 3]).name} for i in range(0, len(args), 4)]
        path = self.write_json("systems.json", listed)
        self.assertEqual(self.run_gate("rank", "--list", str(path)), self.run_gate("rank", *args))


class SwebenchExample(GateCase):
    """examples/rank: the 25 real SWE-bench Verified bash-only entries, and which published ranks are ties."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.rank = gate.run_rank(gate.read_rank_list(EXAMPLE / "systems.json"))

    def test_the_shipped_outputs_are_current(self) -> None:
        """rank.txt, rank.md and rank.svg are exactly what rank prints today."""
        for fmt, name in (("text", "rank.txt"), ("markdown", "rank.md"), ("svg", "rank.svg")):
            with self.subTest(fmt=fmt):
                self.assertEqual(gate.RANK_RENDERERS[fmt](self.rank), (EXAMPLE / name).read_text(encoding="utf-8"),
                                 f"{name} is stale: run python3 examples/rank/make_example.py")
        root = assert_safe_svg(self, (EXAMPLE / "rank.svg").read_text(encoding="utf-8"))
        self.assertEqual(len([c for c in root.iter(f"{SVG_NS}circle") if c.get("class") == "point"]), 25)

    def test_omnibus_pairs_and_groups_match_the_reference(self) -> None:
        """Q = 2747.612 (4420908/1609 exactly, statsmodels) on 24 df, p below any double, 222 of 300 pairs significant,
        and the ten groups of the reference (networkx maximal cliques) by place: 1-3, 3-8, 5-11, 8-12, 9-17, 10-18, 19-20,
        21, 22-23, 24-25."""
        ref = VECTORS["rank_swebench"]
        self.assertLessEqual(abs(self.rank.q - ref["cochran_q"]["Q"]), 1e-9 * ref["cochran_q"]["Q"])
        self.assertEqual(self.rank.q, float(Fraction(ref["cochran_q"]["Q_exact_fraction"])))
        self.assertEqual(self.rank.df, 24)
        self.assertLess(self.rank.q_p, 1e-300)
        self.assertEqual((len(self.rank.pairs), sum(p.separated for p in self.rank.pairs)),
                         (ref["pairs_total"], ref["pairs_significant_holm_0.05"]))
        places = {index: place for place, index in enumerate(self.rank.order, 1)}
        spans = [(min(places[i] for i in g), max(places[i] for i in g)) for g in self.rank.groups]
        self.assertEqual(spans, [(1, 3), (3, 8), (5, 11), (8, 12), (9, 17), (10, 18), (19, 20), (21, 21), (22, 23), (24, 25)])
        names = {gate.re.sub(r"[^a-z0-9]+", "-", n.lower()).strip("-")[:48]: n
                 for n in (e["name"] for e in json.loads((EXAMPLE / "verified-bash-only.json").read_text(encoding="utf-8"))["entries"])}
        got = [sorted(names[self.rank.systems[i].manifest.claim_id] for i in g) for g in self.rank.groups]
        self.assertEqual(got, [sorted(g) for g in ref["groups_letters_piepho"]])
        text = (EXAMPLE / "rank.txt").read_text(encoding="utf-8")
        self.assertIn("Cochran's Q = 2747.612, df 24, p < 1e-300", text)
        self.assertIn("222 of 300 pairs significant", text)


class RankBounds(RankCase):
    def test_manifests_pinning_different_runs_of_one_file_are_two_systems(self) -> None:
        """Two systems' runs in one runs file, each manifest pinning its own run_id: ranked (the file's sha256 is
        shared, the runs are not); the same run pinned twice is still refused as one system listed twice."""
        args = self.systems({"x": "ppfpf", "y": "pffpf", "z": "ppppf"})
        runs = [Path(args[i + 1]) for i, a in enumerate(args) if a == "--runs"]
        manifests = [Path(args[i + 1]) for i, a in enumerate(args) if a == "--manifest"]
        shared = self.dir / "shared.jsonl"
        shared.write_text("".join(p.read_text(encoding="utf-8") for p in runs[:2]), encoding="utf-8")
        for path, run in zip(manifests[:2], ("x", "y")):
            manifest = json.loads(path.read_text(encoding="utf-8"))
            manifest["run_id"] = run
            path.write_text(json.dumps(manifest), encoding="utf-8")
        pair = ["--manifest", str(manifests[0]), "--runs", str(shared), "--manifest", str(manifests[1]),
                "--runs", str(shared)]
        code, report = self.rank_json(*pair)
        self.assertEqual((code, report["verdict"]), (0, "PUBLISHABLE"))
        self.assertEqual([s["claim_id"] for s in sorted(report["systems"], key=lambda s: s["place"])], ["x", "y"])
        code, _out, err = self.run_gate("rank", *pair[:4], *pair[:4])
        self.assertEqual(code, 2)
        self.assertIn("system 1 and system 2 are the same runs file", err)
        self.assertIn(", run x)", err)

    def test_letter_groups_are_bounded(self) -> None:
        """24 systems in 8 disjoint triples, each pair within a triple separated: the maximal unseparated sets are
        one system from each triple, 3^8 = 6,561 of them, past the bound; letter_groups refuses at once instead of
        building them (it took 52 s). Below the bound, 3 triples (27 groups) are built, each one from each triple."""
        import itertools

        def separated(triples: int) -> set[tuple[int, int]]:
            return {(3 * t + a, 3 * t + b) for t in range(triples) for a, b in itertools.combinations(range(3), 2)}

        groups = gate.letter_groups(list(range(9)), separated(3))
        assert groups is not None
        self.assertEqual(len(groups), 27)
        self.assertTrue(all(sorted(x // 3 for x in g) == [0, 1, 2] for g in groups))
        # past the bound: no letter display (None), found after the first split that passes it: the sets built
        # are counted (their dict.fromkeys calls), never the 6,561 a full build takes
        sizes: list[int] = []

        class Recording(dict):  # type: ignore[type-arg]
            @classmethod
            def fromkeys(cls, keys: Any, value: Any = None) -> Any:
                keys = list(keys)
                sizes.append(len(keys))
                return dict.fromkeys(keys, value)

        with mock.patch.object(gate, "dict", Recording, create=True):
            self.assertIsNone(gate.letter_groups(list(range(24)), separated(8)))
        self.assertTrue(sizes)
        self.assertLessEqual(max(sizes), 2 * gate.MAX_LETTER_GROUPS)

    def test_exactly_the_bound_of_groups_is_lettered(self) -> None:
        """Systems in a row, each separated from all but its neighbours: the groups are the neighbouring pairs,
        k - 1 of them. 53 systems give 52 groups, as many as the letters show: lettered; 54 give 53: None."""
        def chain(k: int) -> list[list[int]] | None:
            return gate.letter_groups(list(range(k)), {(i, j) for i in range(k) for j in range(i + 2, k)})

        self.assertEqual(gate.MAX_LETTER_GROUPS, 52)
        self.assertEqual(chain(53), [[i, i + 1] for i in range(52)])
        self.assertIsNone(chain(54))
        # and the 52 are named a..z, then a2..z2
        letters = "abcdefghijklmnopqrstuvwxyz"
        self.assertEqual([gate.group_letter(i) for i in range(52)], [*letters, *(f"{x}2" for x in letters)])

    def test_too_many_groups_rank_without_letters_and_say_why(self) -> None:
        """The shipped 25 systems with the letter bound lowered to 2: the ranking and every pair's decision are
        printed without the letter display, and each format says why (old code: exit 2, no ranking at all)."""
        with mock.patch.object(gate, "MAX_LETTER_GROUPS", 2):
            code, out, err = self.run_gate("rank", "--list", str(ROOT / "examples" / "rank" / "systems.json"))
            self.assertEqual(code, 0, err)
            self.assertRegex(out, r"(?m)^groups      : no letter display: the systems no test separates form more than "
                                  r"2 overlapping groups")
            self.assertRegex(out, r"(?m)^  1  ")
            self.assertNotIn("group a", out)
            report = json.loads(self.run_gate("rank", "--list", str(ROOT / "examples" / "rank" / "systems.json"),
                                              "--format", "json")[1])
            self.assertEqual((report["letters_shown"], report["groups"]), (False, []))
            self.assertEqual(len(report["pairs"]), 25 * 24 // 2)
            markdown = self.run_gate("rank", "--list", str(ROOT / "examples" / "rank" / "systems.json"), "--format",
                                     "markdown")[1]
            self.assertIn("_no letter display:", markdown)


class RankLabelsItsIntervals(RankCase):
    def test_every_format_says_the_pair_intervals_are_unadjusted(self) -> None:
        """The pairs' intervals and p are each pair's own, not corrected for the many pairs: the JSON marks each pair
        ci_adjusted false, the Markdown table heads them unadjusted, the text's pairs line says so."""
        args = self.systems({"alpha": "ppppppppppppppppfff", "beta": "pppppppppppfffffffp", "gamma": "ppppppfffffffffffff"})
        _, report = self.rank_json(*args)
        self.assertTrue(all(p["ci_adjusted"] is False for p in report["pairs"]))
        _, md, _ = self.run_gate("rank", *args, "--format", "markdown")
        self.assertIn("| A | B | A - B | 95% CI (unadjusted) | p (unadjusted) | p (Holm) |", md)
        _, text, _ = self.run_gate("rank", *args)
        self.assertIn("each pair's own interval and p (JSON, Markdown) are unadjusted", text)
