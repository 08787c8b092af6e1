"""Independent maths for the tests' expected values, each written once, from its definition.

Nothing here imports gate.py: a test that compares the gate with an oracle compares two independent
computations. Sources: Wilson (1927) for the score interval; Tango (1998) for the paired score interval, from the
likelihood's score equation solved by bisection; McNemar's asymptotic test; the detectable difference from a test's exact
power, every (b, c) of the trinomial enumerated; Chen et al. (2021) for pass@k, in exact fractions; Kish (1965) and Korn and Graubard
(1998) for the clustered intervals, with a t quantile integrated from the density; Miller (2024) for the
samples-mode paired comparison; the project's definitions of the task-id and task-list digests.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import math
import statistics
from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any


def z_of(confidence: float) -> float:
    """The two-sided normal quantile for a confidence level (exact, not the literal 1.96)."""
    return statistics.NormalDist().inv_cdf(0.5 + confidence / 2)


Z95 = z_of(0.95)


def wilson_z(k: int, n: int, z: float) -> tuple[float, float]:
    """The Wilson score interval for k of n at the quantile z: exactly 0 at k = 0, exactly 1 at k = n."""
    p = k / n
    denominator = 1 + z * z / n
    center = (p + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low = 0.0 if k == 0 else max(0.0, center - half)
    high = 1.0 if k == n else min(1.0, center + half)
    return low, high


def wilson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for k of n at a confidence level."""
    return wilson_z(k, n, z_of(confidence))


def rate_text(k: int, n: int, unit: str = "", confidence: float = 0.95) -> str:
    """A rate as the text report prints it: '29/40 tasks = 0.725  95% CI [0.572, 0.839]'."""
    low, high = wilson(k, n, confidence)
    unit_text = f" {unit}" if unit else ""
    return f"{k}/{n}{unit_text} = {k / n:.3f}  {round(confidence * 100):d}% CI [{low:.3f}, {high:.3f}]"


def t_cdf_central(x: float, df: float) -> float:
    """P(|T| <= x) for Student's t with df degrees of freedom, by Simpson's rule on the density.

    Written from the density, not from the incomplete beta function the gate uses: the substitution
    u = atan(x / sqrt(df)) makes the integrand smooth and bounded, cos(u)^(df - 1), on [0, atan(...)].
    """
    norm = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - math.lgamma(0.5))  # 1/B(1/2, df/2)
    top = math.atan(x / math.sqrt(df))
    steps = 4000
    h = top / steps
    total = 0.0
    for i in range(steps + 1):
        weight = 1 if i in (0, steps) else (4 if i % 2 else 2)
        total += weight * math.cos(i * h) ** (df - 1)
    return 2 * norm * total * h / 3


def t_tail(x: float, df: float) -> float:
    """P(|T| > x), by Simpson's rule on the same smooth integrand over [atan(x/√df), π/2]: the tail itself,
    so a tiny p keeps its digits (1 − t_cdf_central would cancel)."""
    norm = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - math.lgamma(0.5))
    start = math.atan(x / math.sqrt(df))
    steps = 4000
    h = (math.pi / 2 - start) / steps
    total = 0.0
    for i in range(steps + 1):
        weight = 1 if i in (0, steps) else (4 if i % 2 else 2)
        total += weight * math.cos(start + i * h) ** (df - 1)
    return 2 * norm * total * h / 3


@functools.cache
def t_two_sided(confidence: float, df: float) -> float:
    """The two-sided t quantile: the x with P(|T| <= x) = confidence, by bisection on t_cdf_central."""
    low, high = 0.0, 1.0
    while t_cdf_central(high, df) < confidence:
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        if t_cdf_central(mid, df) < confidence:
            low = mid
        else:
            high = mid
        if high - low < 1e-13 * high:
            break
    return (low + high) / 2


def wilson_real(p: float, n: float, z: float) -> tuple[float, float]:
    """Wilson's interval for a rate p on a (real) sample size n: the roots of (p − π)² = z²π(1 − π)/n."""
    a = 1 + z * z / n
    b = -(2 * p + z * z / n)
    disc = math.sqrt(b * b - 4 * a * p * p)
    return (-b - disc) / (2 * a), (-b + disc) / (2 * a)


def monotone_clustered_interval(sums: Sequence[int], sizes: Sequence[int],
                                confidence: float = 0.95) -> tuple[float, float, float]:
    """clustered_interval, its lower end never above the same clusters' all-pass interval's and its upper never
    below their none-pass interval's (samples mode: a result near a boundary is never held tighter than the
    boundary itself)."""
    rate, low, high = clustered_interval(sums, sizes, confidence)
    _, all_low, _ = clustered_interval(list(sizes), sizes, confidence)
    _, _, none_high = clustered_interval([0] * len(sizes), sizes, confidence)
    return rate, min(low, all_low), max(high, none_high)


def cluster_line_interval(sums: Sequence[int], sizes: Sequence[int],
                          confidence: float = 0.95) -> tuple[float, float, float]:
    """The headline by cluster: clustered_interval away from the boundary; at 0 (N) events Wilson's interval on
    G = the number of clusters (the worst case: whole clusters pass or fail together, so the G clusters are G
    trials); every other interval's lower end at most the all-pass one's and its upper at least the none-pass
    one's."""
    rate, low, high = clustered_interval(sums, sizes, confidence)
    clusters, z = len(sizes), z_of(confidence)
    _, none_high = wilson_real(0.0, clusters, z)
    all_low, _ = wilson_real(1.0, clusters, z)
    if sum(sums) == 0:
        return rate, 0.0, none_high
    if sum(sums) == sum(sizes):
        return rate, all_low, 1.0
    return rate, min(low, all_low), max(high, none_high)


def clustered_interval(sums: Sequence[int], sizes: Sequence[int], confidence: float = 0.95) -> tuple[float, float, float]:
    """A clustered mean and its interval: Wilson on the Kish effective sample size, with the small-cluster factor.

    Cluster g has n_g > 0 units scoring S_g in all; N = Σn_g, p = ΣS/N. The cluster-robust variance with
    its G/(G−1) factor (CR1) is V = G/(G−1)·Σ(S_g − n_g p)²/N²; Kish's effective number of clusters is
    G* = N²/Σn_g²; the effective size p(1−p)/V is kept within [G*, N] (G* when p is 0 or 1 or there is
    one cluster, N when V is 0), then times (t_{N−1}/t_df)² with df = max(1, G* − 1) (Korn and Graubard 1998); Wilson (1927) on
    that size. Units of one a cluster are plain Wilson. Computed in fractions up to the quantiles.
    """
    clusters, total = len(sums), sum(sizes)
    p = Fraction(sum(sums), total)
    if all(n == 1 for n in sizes):
        low, high = wilson(sum(sums), total, confidence)
        return float(p), low, high
    g_star = Fraction(total * total, sum(n * n for n in sizes))
    spread = sum((s - n * p) ** 2 for s, n in zip(sums, sizes))
    if clusters < 2 or p in (0, 1):
        n_eff = g_star
    elif spread == 0:
        n_eff = Fraction(total)
    else:
        variance = Fraction(clusters, clusters - 1) * spread / (total * total)
        n_eff = min(max(p * (1 - p) / variance, g_star), Fraction(total))
    factor = (t_two_sided(confidence, total - 1) / t_two_sided(confidence, max(1.0, float(g_star) - 1))) ** 2
    low, high = wilson_real(float(p), float(n_eff) * factor, z_of(confidence))
    return float(p), max(0.0, low), min(1.0, high)


def samples_interval(counts: Sequence[int], m: int, confidence: float = 0.95) -> tuple[float, float, float]:
    """pass@1 over T tasks of m samples (c_t passes each) and its interval: clustered_interval, tasks the clusters.

    Here G* = T, so the effective size is clamped to [T, T·m] and the factor is (t_{T·m−1}/t_{T−1})²; with
    one sample a task it is retry mode's Wilson interval.
    """
    return clustered_interval(list(counts), [m] * len(counts), confidence)


def exact_pass_at_k(n: int, c: int, k: int) -> Fraction:
    """Unbiased pass@k with c passes in n samples, exactly: 1 − C(n−c, k)/C(n, k)."""
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


def exact_pass_hat_k(n: int, c: int, k: int) -> Fraction:
    """Unbiased pass^k (all k of k samples pass) with c passes in n samples, exactly: C(c, k)/C(n, k)."""
    return Fraction(math.comb(c, k), math.comb(n, k))


def _restricted_p21(b: float, c: float, n: float, delta: float) -> float:
    """The MLE of p21 given p12 − p21 = delta, by bisection on the score equation of the profile likelihood
    b·log(x + δ) + c·log x + (n − b − c)·log(1 − 2x − δ): its derivative is decreasing in x (the likelihood
    is concave), so the zero is found to the last bit. Not the closed-form quadratic root the gate uses."""
    def slope(x: float) -> float:
        total = 0.0
        for weight, value, sign in ((b, x + delta, 1), (c, x, 1), (n - b - c, 1 - 2 * x - delta, -2)):
            if weight > 0:
                total += sign * weight / value if value > 0 else sign * math.inf
        return total

    low, high = max(0.0, -delta), (1 - delta) / 2
    if slope(low + 1e-300) <= 0:
        return low
    if slope(high - 1e-300 if high > 0 else high) >= 0:
        return high
    for _ in range(2000):
        mid = (low + high) / 2
        if mid in (low, high):
            break
        if slope(mid) > 0:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def tango_z(b: float, c: float, n: float, delta: float) -> float:
    """Tango's (1998) score statistic for H0: p_A − p_B = delta, from the numerically restricted MLE."""
    variance = n * (2 * _restricted_p21(b, c, n, delta) + delta - delta * delta)
    numerator = b - c - n * delta
    if variance <= 0:
        return 0.0 if numerator == 0 else math.copysign(math.inf, numerator)
    return numerator / math.sqrt(variance)


def tango_interval(b: float, c: float, n: float, confidence: float = 0.95,
                   critical: float | None = None) -> tuple[float, float]:
    """Tango's score interval: the deltas whose score test does not reject (|z| below the normal quantile, or
    below `critical`), by bisection on tango_z."""
    z = z_of(confidence) if critical is None else critical

    def solve(target: float) -> float:
        low, high = -1.0, 1.0
        for _ in range(100):
            mid = (low + high) / 2
            if tango_z(b, c, n, mid) > target:
                low = mid
            else:
                high = mid
        return (low + high) / 2

    return (-1.0 if c >= n else solve(z)), (1.0 if b >= n else solve(-z))


def mcnemar_p(b: float, c: float) -> float:
    """The asymptotic McNemar p-value without continuity correction: P(|Z| >= |b − c|/√(b + c))."""
    if b + c == 0:
        return 1.0
    return math.erfc(abs(b - c) / math.sqrt(b + c) / math.sqrt(2))


def exact_conditional(b: int, c: int) -> Fraction:
    """McNemar's exact conditional p: over every split j/(s − j) of the s = b + c differing tasks (each A's with
    probability 1/2), the chance of a split at least as uneven as b/c."""
    s = b + c
    return sum((Fraction(math.comb(s, j), 2 ** s) for j in range(s + 1) if abs(2 * j - s) >= abs(b - c)),
               Fraction(0))


@functools.cache
def conditional_critical(s: int, alpha: float) -> float | None:
    """The least |z| = d/√s at which McNemar's exact conditional test of s differing tasks rejects at alpha (d the
    least |b − c| whose p, every split at least as uneven summed in fractions, is below alpha), or None if no
    split does."""
    ways = [math.comb(s, j) for j in range(s + 1)]
    tail = 0  # the splits with |2j − s| >= d, summed from the most uneven inwards
    found = None
    for d in range(s, 0, -1):
        if (d - s) % 2:
            continue
        tail += ways[(s + d) // 2] + (ways[(s - d) // 2] if d else 0)
        if Fraction(tail, 2 ** s) < alpha:
            found = d
        else:
            break
    return None if found is None else found / math.sqrt(s)


def table_power(n: int, discordance: float, difference: float, alpha: float) -> float:
    """The chance that McNemar's exact conditional test (conditional_critical) rejects at alpha on n tasks where a
    task is A-only with chance (ψ + Δ)/2 and B-only with chance (ψ − Δ)/2: every (b, c) enumerated, as s = b + c ~
    Binomial(n, ψ) and b | s ~ Binomial(s, (ψ + Δ)/(2ψ)), each probability from log-gamma (an s whose own chance is
    below 1e-18 skipped: it cannot move the sum at the precision checked)."""
    share = (discordance + difference) / (2 * discordance) if discordance > 0 else 0.5

    def log_binom(k: int, m: int, p: float) -> float | None:
        if (p <= 0 and k) or (p >= 1 and k < m):
            return None
        head = math.lgamma(m + 1) - math.lgamma(k + 1) - math.lgamma(m - k + 1)
        return head + (k * math.log(p) if k else 0.0) + ((m - k) * math.log1p(-p) if m - k else 0.0)

    total = 0.0
    for s in range(1, n + 1):
        weight = log_binom(s, n, discordance)
        critical = conditional_critical(s, alpha)
        if weight is None or weight < math.log(1e-18) or critical is None:
            continue
        for b in range(s + 1):
            inner = log_binom(b, s, share)
            if inner is not None and (2 * b - s) ** 2 >= critical * critical * s * (1 - 1e-12):
                total += math.exp(weight + inner)
    return total


def detectable_misses(n: int, discordance: float, got: float | None, alpha: float = 0.05, power: float = 0.8) -> str | None:
    """Why `got` is not the smallest |A − B| McNemar's exact conditional test detects with this power on n tasks at
    this discordance, to 2e-4 (table_power, enumerated): None when it is; `got` None claims that not even
    A − B = ψ (every differing task A's) reaches the power."""
    if got is None:
        top = table_power(n, discordance, discordance, alpha) if discordance > 0 else 0.0
        return None if top < power else f"none claimed, but A - B = {discordance} has power {top:.4f}"
    if not 0 < got <= discordance:
        return f"{got} is outside (0, {discordance}]"
    at, below = table_power(n, discordance, got, alpha), table_power(n, discordance, max(0.0, got - 2e-4), alpha)
    return None if at >= power - 1e-9 and below < power else f"power {at:.5f} at {got}, {below:.5f} just below"


def crossed_interval(cells: Sequence[Sequence[int]], m: int = 1, confidence: float = 0.95) -> tuple[float, float, float, float]:
    """Replicate runs: cells[r][t] passes of m samples of task t in run r. The two-way layout without replication
    (Searle, Casella and McCulloch 1992): Var(mean) = (MS_task + max(0, MS_run − MS_resid))/(T·R), Satterthwaite's
    df (T − 1 when the run term is dropped), n_eff = clamp(p(1 − p)/Var, min(T, R), T·R·m) (T when p is 0 or 1),
    n* = n_eff·(t_{TRm−1}/t_df)², Wilson on n*. Returns (mean, low, high, df)."""
    runs, tasks = len(cells), len(cells[0])
    y = [[Fraction(c, m) for c in row] for row in cells]
    grand = sum(sum(row) for row in y) / (runs * tasks)
    run_means = [sum(row) / tasks for row in y]
    task_means = [sum(y[r][t] for r in range(runs)) / runs for t in range(tasks)]
    ms_task = runs * sum((v - grand) ** 2 for v in task_means) / (tasks - 1)
    ms_run = tasks * sum((v - grand) ** 2 for v in run_means) / (runs - 1)
    ms_resid = sum((y[r][t] - task_means[t] - run_means[r] + grand) ** 2
                   for r in range(runs) for t in range(tasks)) / ((tasks - 1) * (runs - 1))
    run_term = max(Fraction(0), ms_run - ms_resid)
    variance = (ms_task + run_term) / (tasks * runs)
    if run_term > 0:
        df = float((ms_task + run_term) ** 2 / (ms_task ** 2 / (tasks - 1) + ms_run ** 2 / (runs - 1)
                                                + ms_resid ** 2 / ((tasks - 1) * (runs - 1))))
    else:
        df = float(tasks - 1)
    units = tasks * runs * m
    if grand in (0, 1):
        n_eff = Fraction(tasks)
    elif variance == 0:
        n_eff = Fraction(units)
    else:
        n_eff = min(max(grand * (1 - grand) / variance, Fraction(min(tasks, runs))), Fraction(units))
    n_star = float(n_eff) * (t_two_sided(confidence, units - 1) / t_two_sided(confidence, max(1.0, df))) ** 2
    low, high = wilson_real(float(grand), n_star, z_of(confidence))
    return float(grand), max(0.0, low), min(1.0, high), df


def paired_compare(counts_a: Sequence[int], counts_b: Sequence[int], m: int, clusters: Sequence[Any] | None = None,
                   confidence: float = 0.95) -> tuple[float, float, float, float, float]:
    """compare by its definition (Miller 2024 §4 for samples; cluster-robust for clusters), in fractions.

    Per-task rates x_t = c^A_t/m, y_t = c^B_t/m; b̄ = mean x(1 − y), c̄ = mean y(1 − x); D = b̄ − c̄,
    ψ = b̄ + c̄. Clusters g (each task its own unless given): V = G/(G − 1)·Σ_g(Σ_{t∈g}(d_t − D))²/T²,
    G* = T²/Σ_g n_g²; n_eff = clamp((ψ − D²)/V, G*, T·m) (G* when ψ = 0, ψ = D² or G < 2; when V = 0, T·m for
    tasks and G* for clusters);
    n* = n_eff·(t_{Tm−1}/t_df)², df = max(1, G* − 1). Tango's interval and McNemar's p on the table n*(b̄, c̄).
    One sample a task and no clusters: the integer table. Returns (D, low, high, p, n*).
    """
    tasks = len(counts_a)
    groups = list(range(tasks)) if clusters is None else list(clusters)
    xs = [Fraction(c, m) for c in counts_a]
    ys = [Fraction(c, m) for c in counts_b]
    d_t = [x * (1 - y) - y * (1 - x) for x, y in zip(xs, ys)]
    b_bar = sum(x * (1 - y) for x, y in zip(xs, ys)) / tasks
    c_bar = sum(y * (1 - x) for x, y in zip(xs, ys)) / tasks
    diff, psi = b_bar - c_bar, b_bar + c_bar
    if m == 1 and clusters is None:
        n_star = float(tasks)
    else:
        sums: dict[Any, Fraction] = {}
        sizes: dict[Any, int] = {}
        for g, d in zip(groups, d_t):
            sums[g] = sums.get(g, Fraction(0)) + d - diff
            sizes[g] = sizes.get(g, 0) + 1
        count = len(sums)
        g_star = Fraction(tasks * tasks, sum(n * n for n in sizes.values()))
        spread = sum(v * v for v in sums.values())
        if psi == 0 or count < 2 or psi == diff * diff:  # no pair-level variance: every pair discordant one way
            n_eff = g_star
        elif spread == 0:
            n_eff = Fraction(tasks * m) if clusters is None else g_star  # clusters that agree exactly are still few
        else:
            variance = Fraction(count, count - 1) * spread / (tasks * tasks)
            n_eff = min(max((psi - diff * diff) / variance, g_star), Fraction(tasks * m))
        df = max(1.0, float(g_star) - 1)
        n_star = float(n_eff) * (t_two_sided(confidence, tasks * m - 1) / t_two_sided(confidence, df)) ** 2
    b, c = float(b_bar) * n_star, float(c_bar) * n_star
    low, high = tango_interval(b, c, n_star, confidence)
    return float(diff), low, high, mcnemar_p(b, c), n_star


def miller_paired(counts_a: Sequence[int], counts_b: Sequence[int], m: int,
                  confidence: float = 0.95) -> tuple[float, float, float, float, float]:
    """Miller's (2024, section 4) paired test by its definition, in fractions: d_t = (c^A_t − c^B_t)/m, D their
    mean, s² = Σ(d_t − D)²/(T − 1), SE = √(s²/T), t = D/SE on T − 1 df, p = P(|T| >= |t|) from the t density
    integrated here, and the interval D ± t_{T−1} SE within [−1, 1]. Returns (D, low, high, p, t)."""
    tasks = len(counts_a)
    d = [Fraction(x - y, m) for x, y in zip(counts_a, counts_b)]
    mean = sum(d) / tasks
    s2 = sum((v - mean) ** 2 for v in d) / (tasks - 1)
    se = math.sqrt(float(s2 / tasks))
    q = t_two_sided(confidence, tasks - 1)
    if se == 0:  # every task differs by the same amount: no spread
        return float(mean), float(mean), float(mean), 1.0 if mean == 0 else 0.0, 0.0 if mean == 0 else math.inf
    t = float(mean) / se
    p = t_tail(abs(t), tasks - 1)
    return float(mean), max(-1.0, float(mean) - q * se), min(1.0, float(mean) + q * se), p, t


def wild_cluster(diffs: Sequence[Fraction], clusters: Sequence[Any],
                 confidence: float = 0.95) -> tuple[float, float, float, float]:
    """The wild cluster restricted bootstrap (Cameron, Gelbach & Miller 2008) by its definition, every sign
    pattern of the G clusters (G <= 16 here): under H0 the restricted residuals are the per-task differences
    d_t themselves; a pattern w gives d*_t = w_g d_t, and t* = mean(d*)/SE_CR1(d*) with SE_CR1² = G/(G − 1)
    Σ_g (Σ_{t∈g} d*_t − n_g mean(d*))²/T². p = share of patterns with |t*| >= |t|; c = the ceil(alpha 2^G)-th
    largest |t*|; interval mean ± c SE within [−1, 1] (c raised to |t| when the test does not reject, so the
    interval then touches 0). Returns (mean, low, high, p)."""
    order = list(dict.fromkeys(clusters))
    sums = [sum((d for d, g in zip(diffs, clusters) if g == name), Fraction(0)) for name in order]
    sizes = [sum(1 for g in clusters if g == name) for name in order]
    tasks, count = len(diffs), len(order)

    def studentized(signs: Sequence[int]) -> tuple[Fraction, float]:
        flipped = [w * v for w, v in zip(signs, sums)]
        mean = sum(flipped, Fraction(0)) / tasks
        spread = sum(((v - n * mean) ** 2 for v, n in zip(flipped, sizes)), Fraction(0))
        se = math.sqrt(float(Fraction(count, count - 1) * spread)) / tasks
        return mean, (abs(float(mean)) / se if se > 0 else (0.0 if mean == 0 else math.inf))

    mean, observed = studentized([1] * count)
    spread = sum(((v - n * mean) ** 2 for v, n in zip(sums, sizes)), Fraction(0))
    se = math.sqrt(float(Fraction(count, count - 1) * spread)) / tasks
    values = sorted((studentized(signs)[1] for signs in itertools.product((1, -1), repeat=count)), reverse=True)
    p = sum(1 for v in values if v >= observed * (1 - 1e-12)) / len(values)
    critical = values[max(1, math.ceil((1 - confidence) * len(values))) - 1]
    if p >= 1 - confidence:
        critical = max(critical, observed)
    return float(mean), max(-1.0, float(mean) - critical * se), min(1.0, float(mean) + critical * se), p


def ids_digest(ids: Iterable[str]) -> str:
    """The dataset digest by its definition: sha256 of the sorted distinct task ids joined by newlines."""
    return hashlib.sha256("\n".join(sorted(set(ids))).encode("utf-8")).hexdigest()


def task_list_digest(tasks: Any) -> str:
    """A card's digest of a task list (or of one task): sha256 of its canonical JSON (sorted keys, no spaces)."""
    return hashlib.sha256(json.dumps(tasks, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


def sha256_of(path: Path) -> str:
    """sha256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


