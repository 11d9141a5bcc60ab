"""Honest figures: a mean with its bootstrap interval, the spread across runs, pass^k, paired deltas.

Every figure a benchmark reports is a mean over its entries, and every mean comes with `n` and a
95% percentile bootstrap interval over the entries (resampled with replacement, a fixed seed, so a
report is reproducible). With several runs of the same entries (`--trials`, `--seeds`), an entry's
value is its mean over the runs, each run's mean is reported, and their spread (standard
deviation, minimum, maximum). pass^k is tau2-bench's: the chance that k runs drawn from an entry's
n all succeed, `C(c, k) / C(n, k)` for c successes, averaged over the entries.

A comparison of two results pairs the entries both ran, and resamples the pairs: the interval of
the mean difference, and whether it excludes 0.

Standard library only.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["BOOTSTRAP", "LEVEL", "interval", "mean", "paired", "paired_strata", "pass_hat", "spread", "summary"]

BOOTSTRAP = 2000
LEVEL = 0.95
_SEED = 20260323


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _percentiles(means: list[float], level: float) -> tuple[float, float]:
    means.sort()
    tail = (1.0 - level) / 2
    lo = means[max(0, math.floor(tail * len(means)))]
    hi = means[min(len(means) - 1, math.ceil((1.0 - tail) * len(means)) - 1)]
    return lo, hi


def interval(values: Sequence[float], *, resamples: int = BOOTSTRAP, level: float = LEVEL,
             seed: int = _SEED) -> tuple[float, float] | None:
    """The percentile bootstrap interval of the mean of `values` (None for no values)."""
    n = len(values)
    if n == 0:
        return None
    if min(values) == max(values):
        return float(values[0]), float(values[0])
    rng = random.Random(seed)
    data = list(values)
    means = [sum(rng.choices(data, k=n)) / n for _ in range(resamples)]
    return _percentiles(means, level)


def spread(values: Sequence[float]) -> dict[str, float] | None:
    """Sample standard deviation, minimum and maximum of per-run figures (None for fewer than two)."""
    if len(values) < 2:
        return None
    m = sum(values) / len(values)
    std = math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))
    return {"std": std, "min": min(values), "max": max(values)}


def pass_hat(successes: Sequence[int], trials: int, k: int) -> float | None:
    """tau2-bench's pass^k over entries with `successes[i]` of `trials` runs succeeding."""
    if not successes or not 1 <= k <= trials:
        return None
    return sum(math.comb(c, k) / math.comb(trials, k) for c in successes) / len(successes)


def summary(runs: Sequence[Sequence[float]], *, errors: int = 0) -> dict[str, Any]:
    """The figures of one group: `runs[r][i]` is entry i's score in run r (every run has the same entries).

    `n` entries; `mean` of the entries' means over the runs and its bootstrap `ci95`; `runs`: each
    run's mean; `spread` across runs; `pass_hat_k` (k = 1..runs) when scores are 0/1; `err`: entry
    runs with an endpoint error or calls that could not be read (scored as the benchmark scores them).
    """
    n_runs = len(runs)
    n = len(runs[0]) if runs else 0
    per_entry = [sum(run[i] for run in runs) / n_runs for i in range(n)] if n_runs else []
    ci = interval(per_entry)
    out: dict[str, Any] = {
        "n": n, "mean": mean(per_entry), "ci95": list(ci) if ci else None,
        "runs": [mean(list(run)) for run in runs], "spread": spread([mean(list(run)) or 0.0 for run in runs]),
        "err": errors,
    }
    if n_runs and all(v in (0, 1) for run in runs for v in run):
        counts = [int(sum(run[i] for run in runs)) for i in range(n)]
        out["pass_hat_k"] = {str(k): pass_hat(counts, n_runs, k) for k in range(1, n_runs + 1)}
    return out


def paired(base: Mapping[str, float], new: Mapping[str, float], *, resamples: int = BOOTSTRAP,
           level: float = LEVEL, seed: int = _SEED) -> dict[str, Any]:
    """The mean difference `new - base` over the entries both hold, with a paired bootstrap interval.

    `excludes_zero` says whether the interval lies wholly on one side of 0; `unpaired` counts the
    entries only one side holds (left out of the difference).
    """
    keys = sorted(set(base) & set(new))
    diffs = [float(new[k]) - float(base[k]) for k in keys]
    ci = interval(diffs, resamples=resamples, level=level, seed=seed)
    return {
        "n": len(keys), "base": mean([float(base[k]) for k in keys]), "new": mean([float(new[k]) for k in keys]),
        "delta": mean(diffs), "ci95": list(ci) if ci else None,
        "excludes_zero": bool(ci and (ci[0] > 0 or ci[1] < 0)),
        "unpaired": len(set(base) ^ set(new)),
    }


def paired_strata(strata: Sequence[tuple[Mapping[str, float], Mapping[str, float]]], *, resamples: int = BOOTSTRAP,
                  level: float = LEVEL, seed: int = _SEED) -> dict[str, Any]:
    """`paired` for the unweighted mean of several groups' differences (tau2's average over its domains):
    each resample draws every group's pairs from that group alone."""
    groups = []
    for base, new in strata:
        keys = sorted(set(base) & set(new))
        if keys:
            groups.append(([float(base[k]) for k in keys], [float(new[k]) for k in keys]))
    if not groups:
        return {"n": 0, "base": None, "new": None, "delta": None, "ci95": None, "excludes_zero": False,
                "unpaired": 0}
    diffs = [[n - b for b, n in zip(bs, ns)] for bs, ns in groups]
    rng = random.Random(seed)
    means = [sum(sum(rng.choices(d, k=len(d))) / len(d) for d in diffs) / len(diffs) for _ in range(resamples)]
    lo, hi = _percentiles(means, level)
    return {
        "n": sum(len(d) for d in diffs), "base": sum(mean(bs) or 0.0 for bs, _ in groups) / len(groups),
        "new": sum(mean(ns) or 0.0 for _, ns in groups) / len(groups),
        "delta": sum(mean(d) or 0.0 for d in diffs) / len(diffs), "ci95": [lo, hi],
        "excludes_zero": lo > 0 or hi < 0,
        "unpaired": sum(len(set(b) ^ set(n)) for b, n in strata),
    }
