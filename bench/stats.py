#!/usr/bin/env python3
"""The statistics' operating characteristics, measured: what the README's Statistics section reports.

    python3 bench/stats.py            # everything, a few minutes on one core
    python3 bench/stats.py --quick    # fewer replications (a smoke run)

Stdlib only; every figure comes from gate.py's own functions, so it measures the rule the gate runs.

1. compare's actual size (retry mode), by exact enumeration. Under H0 the two systems' discordant cells
   are equally likely, p12 = p21 = psi/2, so with S = b + c ~ Binomial(n, psi) and b | S = s ~
   Binomial(s, 1/2), size(psi) = sum_s Bin(s; n, psi) R(s), R(s) = P(the rule rejects | s). R(s) is summed
   over every table once; size(psi) is then exact for each psi on a grid of 2000 points in (0, 1], at 6 to
   1,001 tasks. Three rules: the gate's (McNemar's exact conditional test), the one it replaced this round
   (Suissa & Shuster's exact unconditional test, enumerated here with its maximum on a 1,000-point grid, to
   100 tasks: its cost grows as n² a grid point) and McNemar's asymptotic test with the floor of 6
   differing tasks, retired before that.
2. Power, by the same enumeration with b | S ~ Binomial(s, p12/psi): at the planning figure compare prints
   (detectable_difference, the 80%-power difference), and at set differences for 40, 100, 1,000 and 1,001
   tasks, the gate's rule beside the two it replaced; and how often one task both systems pass or fail
   flips a decision (the same b and c, one concordant task added at a time).
3. The samples-mode interval's coverage, by seeded simulation: T tasks x m samples, each task's true rate
   p_t ~ Beta with mean mu and intraclass correlation rho, c_t ~ Binomial(m, p_t); coverage of mu by
   samples_rate's interval, and by the retired clustered Wald interval (mean +- z SE, Miller 2024).
4. compare in samples mode, by seeded simulation: two systems whose per-task true rates share each task's
   difficulty (A's is B's plus A - B), the share of runs where each rule calls the difference significant:
   its size at A - B = 0 and its power above. The gate's rule is Miller's (2024 §4) paired t-test on the
   per-task differences; the one it replaced, McNemar/Tango on the effective table.
5. compare --by-cluster at SWE-bench Verified's layout (12 repositories, 500 tasks), by seeded simulation:
   size and power of the wild cluster restricted bootstrap against the cluster-robust effective table.
6. The headline by cluster near the boundary, same layout, one attempt a task: coverage and mean width of
   the gate's interval (by_cluster_interval: Wilson on the 12 repositories at 0 or 500 events, no
   neighbour tighter there), the rule before it (Kish's effective number of clusters at the boundary, not
   monotone) and the monotone rule withdrawn for its coverage (design effect 1 at the boundary).
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import gate

SEED = 20261201


def _log_binom(n: int, k: int, p: float) -> float:
    if p <= 0:
        return 0.0 if k == 0 else -math.inf
    if p >= 1:
        return 0.0 if k == n else -math.inf
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * math.log(p) + (n - k) * math.log1p(-p)


def _rejects_gate(b: int, c: int, n: int, alpha: float) -> bool:
    """The gate's own rule on a retry-mode table (paired_test): McNemar's exact conditional test, which rejects
    exactly when |z| reaches its critical value at b + c differing tasks (tests/test_exact_test.py checks the two
    agree)."""
    return b + c > 0 and abs(gate.mcnemar_z(b, c)) >= gate.conditional_critical(b + c, alpha)


def _rejects_floor(b: int, c: int, n: int, alpha: float) -> bool:
    """Retired two rounds ago: McNemar's asymptotic p < alpha, and at least fewest_differing tasks differ."""
    p = math.erfc(abs(gate.mcnemar_z(b, c)) / math.sqrt(2))
    return p < alpha and b + c >= gate.fewest_differing(alpha)


@functools.cache
def _unconditional_critical(n: int, alpha: float, grid: int = 1000) -> Fraction | None:
    """Retired this round: Suissa & Shuster's (1991) exact unconditional test on n tasks, the least z² it rejects
    (its p the largest, over psi on a grid even in arcsin sqrt(psi), of P(z² >= the value)); None if none."""
    mass: dict[tuple[int, Fraction], int] = {}
    for d in range(n + 1):
        for b in range(d + 1):
            z2 = Fraction((2 * b - d) ** 2, d) if d else Fraction(0)
            mass[d, z2] = mass.get((d, z2), 0) + math.comb(d, b)
    levels = sorted({z2 for _, z2 in mass}, reverse=True)
    rank = {level: i for i, level in enumerate(levels)}
    best = [0.0] * len(levels)
    for i in range(grid + 1):
        psi = math.sin(math.pi / 2 * i / grid) ** 2
        at_level = [0.0] * len(levels)
        for (d, z2), count in mass.items():
            at_level[rank[z2]] += math.exp(_log_binom(n, d, psi)) * count / 2 ** d
        running = 0.0
        for r, p in enumerate(at_level):
            running += p
            best[r] = max(best[r], running)
    rejected = [level for level, p in zip(levels, best) if p < alpha]
    return min(rejected) if rejected else None


def _rejects_unconditional(b: int, c: int, n: int, alpha: float) -> bool:
    least = _unconditional_critical(n, alpha)
    return b + c > 0 and least is not None and Fraction((b - c) ** 2, b + c) >= least


RULES = {"gate": _rejects_gate, "unconditional": _rejects_unconditional, "floor": _rejects_floor}


def conditional_power(n: int, share: float, rule: str, alpha: float) -> list[float]:
    """R(s) for s = 0..n: P(the rule rejects | s discordant pairs), b | s ~ Binomial(s, share)."""
    rejects = RULES[rule]
    out = []
    for s in range(n + 1):
        out.append(math.fsum(math.exp(_log_binom(s, b, share)) for b in range(s + 1) if rejects(b, s - b, n, alpha)))
    return out


def averaged(n: int, psi: float, given_s: list[float]) -> float:
    return math.fsum(math.exp(_log_binom(n, s, psi)) * r for s, r in enumerate(given_s) if r > 0)


def size_table(alpha: float) -> None:
    print("## 1. compare's actual size at nominal", alpha, "(exact enumeration, retry mode)\n")
    print("| tasks | the gate's rule (exact conditional): max size over psi (at psi) | exact unconditional (retired "
          "this round): max size | asymptotic, floor of 6 (retired before): max size | size at psi 0.1, 0.2, 0.3, 0.5 "
          "(gate) |")
    print("|---:|---|---|---|---|")
    grid = [i / 2000 for i in range(1, 2001)]
    for n in (6, 10, 20, 40, 100, 1000, 1001):
        rules = RULES if n <= 100 else ("gate", "floor")  # the unconditional test's enumeration costs n² a psi
        given = {rule: conditional_power(n, 0.5, rule, alpha) for rule in rules}
        worst, at = max((averaged(n, psi, given["gate"]), psi) for psi in grid)
        others = [f"{max(averaged(n, psi, given[rule]) for psi in grid):.4f}" if rule in given else "-"
                  for rule in ("unconditional", "floor")]
        few = ", ".join(f"{averaged(n, psi, given['gate']):.4f}" for psi in (0.1, 0.2, 0.3, 0.5))
        print(f"| {n} | {worst:.4f} (psi {at:.4f}) | {' | '.join(others)} | {few} |")
    print()


def power_table(alpha: float) -> None:
    print("## 2. exact power of the rule at the planning figure compare prints (80% intended)\n")
    print("| tasks | discordance | planning figure | exact power |")
    print("|---:|---:|---:|---:|")
    for n in (40, 100, 1000, 1001):
        for psi in (0.2, 0.3, 0.5):
            mdd = gate.detectable_difference(n, psi, 1 - alpha)
            if mdd is None:
                print(f"| {n} | {psi} | none detectable | - |")
                continue
            given_s = conditional_power(n, (psi + mdd) / (2 * psi), "gate", alpha)
            print(f"| {n} | {psi} | {mdd:.4f} | {averaged(n, psi, given_s):.4f} |")
    print()
    print("Power at set differences, the gate's rule beside the two it replaced (exact):\n")
    print("| tasks | discordance | A - B | gate (exact conditional) | exact unconditional (retired this round) | "
          "asymptotic, floor of 6 |")
    print("|---:|---:|---:|---:|---:|---:|")
    settings = [(n, psi, delta) for n in (40, 100) for psi, delta in ((0.1, 0.1), (0.2, 0.1), (0.2, 0.15), (0.3, 0.15))]
    for n, psi, delta in settings + [(n, 0.1, 0.03) for n in (1000, 1001)]:
        share = (psi + delta) / (2 * psi)
        cells = [f"{averaged(n, psi, conditional_power(n, share, rule, alpha)):.4f}" if n <= 100 or rule != "unconditional"
                 else "-" for rule in ("gate", "unconditional", "floor")]
        print(f"| {n} | {psi} | {delta} | {' | '.join(cells)} |")
    print()


def concordant_flips(alpha: float) -> None:
    print("## 2b. decisions a task both systems pass or fail can change (the same b and c, n from b + c to 60)\n")
    print("| A only | B only | gate (exact conditional): flips | exact unconditional (retired): flips |")
    print("|---:|---:|---:|---:|")
    for b, c in ((9, 2), (10, 3), (12, 4), (7, 1)):
        flips = {}
        for rule in ("gate", "unconditional"):
            seen = [RULES[rule](b, c, n, alpha) for n in range(max(b + c, 2), 61)]
            flips[rule] = sum(x != y for x, y in zip(seen, seen[1:]))
        print(f"| {b} | {c} | {flips['gate']} | {flips['unconditional']} |")
    print()


def exhaustive_small_n(largest: int = 200) -> None:
    print(f"## 2c. every split of 1 to {largest} differing tasks: the gate's p and critical value, exactly\n")
    splits = wrong_p = wrong_critical = 0
    for s in range(1, largest + 1):
        ways = [math.comb(s, j) for j in range(s + 1)]
        tails = {d: Fraction(sum(w for j, w in enumerate(ways) if abs(2 * j - s) >= d), 2 ** s)
                 for d in range(s % 2, s + 1, 2)}
        for b in range(s + 1):
            splits += 1
            wrong_p += gate.exact_conditional_p(b, s - b) != float(tails[abs(2 * b - s)])
        for alpha in (0.1, 0.05, 0.01):
            least = min((d for d, p in tails.items() if d and p < alpha), default=None)
            got = gate.conditional_critical(s, alpha) * math.sqrt(s)
            wrong_critical += (least is None and got <= s) or (least is not None and round(got) != least)
    print(f"{splits:,} splits: {wrong_p} p-values differ from the exact fraction (as a float); "
          f"{3 * largest} critical values at alpha 0.1, 0.05, 0.01: {wrong_critical} wrong\n")


def plan_power_table(reps: int) -> None:
    print(f"## 2d. plan in samples mode: simulated power of Miller's t at the planned tasks ({reps} seeded runs)\n")
    print("| baseline | A - B | discordance | samples | icc | planned tasks | Connor's answer | simulated power |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    rng = random.Random(SEED)
    for baseline, detect, psi, k, icc in ((0.5, 0.2, 0.3, 100, 0.0), (0.5, 0.2, 0.3, 5, 0.3), (0.5, 0.3, 0.5, 10, 0.1),
                                          (0.7, 0.1, 0.2, 10, 0.1), (0.5, 0.1, 0.4, 3, 0.6)):
        question = gate.PlanQuestion(baseline, detect, psi, k, icc, 0.8, 0.95)
        tasks, _ = gate.tasks_needed(question)
        spread = (psi - detect * detect) * (icc + (1 - icc) / k)
        critical, hits = gate.t_for(0.95, tasks - 1), 0
        for _ in range(reps):
            diffs = [rng.gauss(detect, math.sqrt(spread)) for _ in range(tasks)]
            mean = sum(diffs) / tasks
            sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (tasks - 1))
            hits += abs(mean) * math.sqrt(tasks) >= critical * sd
        connor = math.ceil(gate.connor_tasks(question, psi) - 1e-9)
        print(f"| {baseline} | {detect} | {psi} | {k} | {icc} | {tasks} | {connor} | {hits / reps:.3f} |")
    print()


def _beta(rng: random.Random, mu: float, rho: float) -> float:
    if rho == 0:
        return mu
    scale = (1 - rho) / rho
    return rng.betavariate(mu * scale, (1 - mu) * scale)


def _wald(counts: list[int], m: int, confidence: float) -> tuple[float, float]:
    tasks = len(counts)
    mean = sum(counts) / (m * tasks)
    se = math.sqrt(math.fsum((c - m * mean) ** 2 for c in counts)) / (m * tasks)
    half = gate.z_for(confidence) * se
    return max(0.0, mean - half), min(1.0, mean + half)


def coverage_table(reps: int) -> None:
    print(f"## 3. samples-mode interval: coverage of the true mean rate at 95% ({reps} seeded replications a cell)\n")
    print("| tasks x samples | true rate | ICC | gate (Wilson on the Kish size, Korn-Graubard) | retired clustered Wald |")
    print("|---|---:|---:|---:|---:|")
    for cell, (tasks, m, mu, rho) in enumerate([(40, 5, 0.5, 0.3), (40, 5, 0.8, 0.6), (40, 5, 0.95, 0.3), (40, 5, 0.95, 0.6),
                                                (40, 3, 0.99, 0.3), (10, 5, 0.5, 0.3), (10, 5, 0.9, 0.6), (100, 10, 0.2, 0.6),
                                                # near the boundary (issue 24: 0.900-0.924 before the monotone rule)
                                                (40, 5, 0.97, 0.1), (40, 5, 0.97, 0.3), (40, 5, 0.99, 0.1),
                                                (100, 5, 0.97, 0.1), (40, 5, 0.03, 0.1)]):
        rng = random.Random(SEED * 100 + cell)
        hit_gate = hit_wald = 0
        for _ in range(reps):
            counts = [sum(rng.random() < p for _ in range(m)) for p in (_beta(rng, mu, rho) for _ in range(tasks))]
            passes: dict[int, int] = {}
            for c in counts:
                passes[c] = passes.get(c, 0) + 1
            rate = gate.samples_rate(passes, tasks, m, 0.95)
            assert rate is not None
            hit_gate += rate.low <= mu <= rate.high
            low, high = _wald(counts, m, 0.95)
            hit_wald += low <= mu <= high
        print(f"| {tasks} x {m} | {mu} | {rho} | {hit_gate / reps:.3f} | {hit_wald / reps:.3f} |")
    print()


def _effective_table_rule(table: gate.PairedTable) -> bool:
    """The rule the gate's paired tests replaced on an effective table: McNemar's asymptotic test at 5%, and A and
    B differing on at least fewest_differing units."""
    alpha = 1 - 0.95  # as the gate computed it from the confidence
    p = math.erfc(abs(gate.mcnemar_z(table.b, table.c)) / math.sqrt(2))
    return p < alpha and table.differing >= gate.fewest_differing(alpha)


def _samples_rules(xs: list[float], ys: list[float], m: int) -> tuple[bool, bool, bool]:
    """(Miller's paired test alone; the gate's rule: the same with the floor of 6 differing tasks; the rule before
    both: McNemar/Tango on the effective table), each: is the difference called significant at 5%?"""
    rates: dict[tuple[float, float], int] = {}
    for pair in zip(xs, ys):
        rates[pair] = rates.get(pair, 0) + 1
    table = gate.paired_effective(xs, ys, None, m, 0.95)
    test = gate.miller_test(rates, 0.95, m)
    return test.p_value < 0.05, test.significant(0.05), _effective_table_rule(table)


def samples_size_table(reps: int) -> None:
    print(f"## 4. samples-mode compare: size and power at nominal 0.05 ({reps} seeded replications a cell)\n")
    print("Each task's true rate p_t ~ Beta(mean, ICC); A's is p_t + A - B (within [0, 1]), B's p_t: the systems")
    print("share which tasks are hard, as two versions of one agent do.\n")
    print("| tasks x samples | true rate | ICC | A - B | Miller's paired t alone | gate (Miller's t and the floor of 6) | "
          "replaced (effective table) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    cells = [(40, 5, 0.5, 0.3, 0.0), (40, 5, 0.8, 0.6, 0.0), (40, 3, 0.3, 0.1, 0.0), (20, 5, 0.5, 0.6, 0.0),
             (10, 5, 0.5, 0.3, 0.0), (10, 2, 0.5, 0.1, 0.0), (6, 5, 0.2, 0.0, 0.0), (5, 10, 0.5, 0.1, 0.0),
             (3, 5, 0.5, 0.3, 0.0), (8, 2, 0.5, 0.0, 0.0), (7, 2, 0.5, 0.0, 0.0), (8, 3, 0.5, 0.0, 0.0),
             (40, 5, 0.5, 0.3, 0.05), (40, 5, 0.5, 0.3, 0.1), (40, 5, 0.8, 0.6, 0.1),
             (20, 5, 0.5, 0.6, 0.1), (10, 5, 0.5, 0.3, 0.2), (5, 5, 0.5, 0.3, 0.2), (100, 5, 0.5, 0.3, 0.05)]
    for cell, (tasks, m, mu, rho, delta) in enumerate(cells):
        rng = random.Random(SEED * 1000 + cell)
        hits = [0, 0, 0]
        for _ in range(reps):
            rates = [_beta(rng, mu, rho) for _ in range(tasks)]
            xs = [sum(rng.random() < min(1.0, p + delta) for _ in range(m)) / m for p in rates]
            ys = [sum(rng.random() < p for _ in range(m)) / m for p in rates]
            for i, called in enumerate(_samples_rules(xs, ys, m)):
                hits[i] += called
        shares = " | ".join(f"{h / reps:.4f}" for h in hits)
        print(f"| {tasks} x {m} | {mu} | {rho} | {delta} | {shares} |")
    print()


SWE_BENCH_VERIFIED = {"django": 231, "sympy": 75, "sphinx": 44, "matplotlib": 34, "scikit-learn": 32, "astropy": 22,
                      "xarray": 22, "pytest": 19, "pylint": 10, "requests": 8, "seaborn": 2, "flask": 1}


def _by_cluster_rules(xs: list[float], ys: list[float], clusters: list[int]) -> tuple[bool, bool]:
    """(the gate's --by-cluster rule: the wild cluster restricted bootstrap, the rule it replaced: McNemar/Tango
    on the cluster-robust effective table, never narrower than the task-level one, with the floor of 6)."""
    sums: dict[int, list[float]] = {}
    for x, y, g in zip(xs, ys, clusters):
        sums.setdefault(g, []).append(x - y)
    wild = gate.wild_cluster_test([math.fsum(v) for v in sums.values()], [len(v) for v in sums.values()], 0.95)
    rates: dict[tuple[float, float], int] = {}
    for pair in zip(xs, ys):
        rates[pair] = rates.get(pair, 0) + 1
    plain = gate.paired_singles(rates, 1, 0.95)
    clustered = gate.paired_effective(xs, ys, clusters, 1, 0.95)
    table = clustered if clustered.n <= plain.n else clustered._replace(b=plain.b, c=plain.c, n=plain.n)
    replaced = _effective_table_rule(table)
    return wild.p_value < 0.05, replaced


def by_cluster_table(reps: int) -> None:
    print(f"## 5. compare --by-cluster at SWE-bench Verified's layout ({reps} seeded replications a cell)\n")
    print("500 tasks in its 12 repositories (django 231 ... flask 1; Kish's effective number of clusters 3.9).")
    print("Each repository's mean rate from a Beta(0.5, ICC 0.2), each task's from a Beta around it (ICC 0.3); B")
    print("passes a task with its rate, A with its rate + A - B, one attempt each: the share called significant.\n")
    print("| A - B | gate (wild cluster restricted bootstrap) | replaced (cluster-robust effective table) |")
    print("|---:|---:|---:|")
    clusters = [g for g, size in enumerate(SWE_BENCH_VERIFIED.values()) for _ in range(size)]
    for cell, delta in enumerate((0.0, 0.05, 0.1)):
        rng = random.Random(SEED * 10_000 + cell)
        hits = [0, 0]
        for _ in range(reps):
            means = [_beta(rng, 0.5, 0.2) for _ in SWE_BENCH_VERIFIED]
            rates = [_beta(rng, means[g], 0.3) for g in clusters]
            xs = [float(rng.random() < min(1.0, p + delta)) for p in rates]
            ys = [float(rng.random() < p) for p in rates]
            for i, called in enumerate(_by_cluster_rules(xs, ys, clusters)):
                hits[i] += called
        print(f"| {delta} | {hits[0] / reps:.4f} | {hits[1] / reps:.4f} |")
    print()


def _cluster_rules(sums: list[int], sizes: list[int]) -> list[tuple[float, float]]:
    """The headline by cluster's interval by (the gate's rule, the one before it, design effect 1 at 0 or N)."""
    shapes: dict[tuple[int, int], int] = {}
    for s, n in zip(sums, sizes):
        shapes[(s, n)] = shapes.get((s, n), 0) + 1
    groups = gate.Clusters([Fraction(s) for s, _ in shapes], [n for _, n in shapes], list(shapes.values()))
    low, high, _ = gate.by_cluster_interval(groups, 0.95)
    design = gate.effective_size(groups, 0.95)
    units, g_eff = sum(sizes), sum(sizes) ** 2 / sum(n * n for n in sizes)
    factor = (gate.t_for(0.95, units - 1) / gate.t_for(0.95, max(1.0, g_eff - 1))) ** 2
    boundary = design.effective if 0 < design.mean < 1 else units * factor
    return [(low, high), gate.wilson_p(design.mean, design.effective, 0.95),
            gate.wilson_p(design.mean, boundary, 0.95)]


def cluster_coverage_table(reps: int) -> None:
    print(f"## 6. the headline by cluster near the boundary: coverage at 95% ({reps} seeded replications a cell)\n")
    print("SWE-bench Verified's 500 tasks in 12 repositories, one attempt each; each repository's rate from a Beta")
    print("with the true mean rate and that ICC. Coverage (mean width) of each rule:\n")
    print("| ICC | true rate | P(no pass) | gate | before (not monotone) | design effect 1 at 0 (withdrawn) |")
    print("|---:|---:|---:|---:|---:|---:|")
    sizes = list(SWE_BENCH_VERIFIED.values())
    for cell, (rho, mu) in enumerate((rho, mu) for rho in (0.05, 0.2, 0.6)
                                     for mu in (0.005, 0.01, 0.03, 0.05, 0.1, 0.3, 0.97)):
        rng = random.Random(SEED * 1_000_000 + cell)
        hits, widths, empty = [0, 0, 0], [0.0, 0.0, 0.0], 0
        for _ in range(reps):
            means = [_beta(rng, mu, rho) for _ in sizes]
            sums = [sum(rng.random() < m for _ in range(n)) for m, n in zip(means, sizes)]
            empty += not sum(sums)
            for i, (low, high) in enumerate(_cluster_rules(sums, sizes)):
                hits[i] += low <= mu <= high
                widths[i] += high - low
        cells = " | ".join(f"{h / reps:.3f} ({w / reps:.3f})" for h, w in zip(hits, widths))
        print(f"| {rho} | {mu} | {empty / reps:.3f} | {cells} |")
    print()


def wilson_coverage(n: int, confidence: float) -> tuple[float, float]:
    """The infimum over the true rate p of the headline's coverage, P(p in Wilson's interval of k/n), by exact
    enumeration, and the p where it falls. Coverage is smooth between the intervals' ends and jumps at each, so
    its infimum is approached just beside an end: every end in (0, 1/2] (coverage is symmetric), each side, and
    the binomial sum over the k with mass above 1e-16 of the mode."""
    ends = [gate.wilson(k, n, confidence) for k in range(n + 1)]
    worst, where = 1.0, 0.0
    for end in sorted({e for pair in ends for e in pair if 0 < e <= 0.5}):
        for p in (end * (1 - 1e-9), end * (1 + 1e-9)):
            mode = int(n * p)
            top = _log_binom(n, mode, p)
            total = 0.0
            for k in range(n + 1):
                log = _log_binom(n, k, p)
                if log < top - 37:
                    if k > mode:
                        break
                    continue
                low, high = ends[k]
                total += math.exp(log) if low <= p <= high else 0.0
            if total < worst:
                worst, where = total, p
    return worst, where


def wilson_coverage_table(sizes: list[int]) -> None:
    print("7. The headline's Wilson interval: its minimum coverage over every true rate, by exact enumeration")
    print()
    print("| tasks | 90%: minimum (at n·p) | 95%: minimum (at n·p) | 99%: minimum (at n·p) |")
    print("|---|---|---|---|")
    for n in sizes:
        cells = []
        for confidence in (0.90, 0.95, 0.99):
            worst, where = wilson_coverage(n, confidence)
            cells.append(f"{worst:.3f} ({n * where:.3f})")
        print(f"| {n} | " + " | ".join(cells) + " |")
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="measure the statistics' size, power and coverage")
    parser.add_argument("--quick", action="store_true", help="fewer replications")
    args = parser.parse_args(argv)
    reps = 400 if args.quick else 4000
    size_table(0.05)
    power_table(0.05)
    concordant_flips(0.05)
    exhaustive_small_n()
    plan_power_table(reps)
    coverage_table(reps)
    samples_size_table(reps)
    by_cluster_table(max(100, reps // 4))
    cluster_coverage_table(max(100, reps // 4))
    wilson_coverage_table([20, 40, 100] if args.quick else [20, 40, 100, 200, 500, 1000, 2000])
    return 0


if __name__ == "__main__":
    sys.exit(main())
