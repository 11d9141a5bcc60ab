"""The figures every benchmark result carries, and the paired comparison of two results."""

from __future__ import annotations

import math
import random

import pytest

from prove.evals import EvalError, compare, compare_all, result, summarize
from prove.evals import stats
from prove.evals.plot import comparison_html


def test_interval_brackets_the_mean_and_is_reproducible() -> None:
    rng = random.Random(1)
    values = [1.0 if rng.random() < 0.3 else 0.0 for _ in range(400)]
    lo, hi = stats.interval(values)
    m = stats.mean(values)
    assert lo < m < hi
    # About the normal approximation's width for a proportion: 1.96 * sqrt(p(1-p)/n) each side.
    half = 1.96 * math.sqrt(m * (1 - m) / len(values))
    assert abs((hi - lo) / 2 - half) < 0.01
    assert stats.interval(values) == (lo, hi)
    assert stats.interval([]) is None and stats.interval([1.0, 1.0]) == (1.0, 1.0)


def test_pass_hat_k_is_tau2s() -> None:
    # One entry passing 2 of 4 runs: pass^1 = 0.5, pass^2 = C(2,2)/C(4,2) = 1/6, pass^3 = 0.
    assert stats.pass_hat([2], 4, 1) == 0.5
    assert stats.pass_hat([2], 4, 2) == pytest.approx(1 / 6)
    assert stats.pass_hat([2], 4, 3) == 0.0
    assert stats.pass_hat([4, 0], 4, 4) == 0.5
    assert stats.pass_hat([1], 4, 5) is None


def test_summary_over_runs() -> None:
    runs = [[1, 1, 0, 0], [1, 0, 0, 0], [1, 1, 1, 0]]
    s = stats.summary(runs, errors=1)
    assert s["n"] == 4 and s["mean"] == pytest.approx(6 / 12)
    assert s["runs"] == [0.5, 0.25, 0.75]
    assert s["spread"]["std"] == pytest.approx(0.25) and s["spread"]["min"] == 0.25
    assert s["pass_hat_k"]["3"] == 0.25 and s["err"] == 1
    assert stats.summary([[0.5, 1.0]])["spread"] is None


def _doc(scores: dict[str, list[float]], benchmark: str = "bfcl-multi-turn", model: str = "m") -> dict:
    n_runs = len(next(iter(scores.values())))
    runs = [{"seed": r, "records": [{"id": k, "category": k.split("_")[0], "score": v[r], "err": False}
                                    for k, v in scores.items()]} for r in range(n_runs)]
    return result(benchmark, runs, model=model, base_url="http://x", settings={})


def test_result_summary_per_category() -> None:
    doc = _doc({"base_1": [1.0, 0.0], "base_2": [1.0, 1.0], "miss_1": [0.0, 0.0]})
    assert doc["summary"]["all"]["n"] == 3 and doc["summary"]["all"]["mean"] == pytest.approx(0.5)
    assert doc["summary"]["categories"]["base"]["mean"] == 0.75
    assert doc["summary"]["categories"]["miss"]["pass_hat_k"]["2"] == 0.0
    with pytest.raises(EvalError, match="same entries"):
        summarize([[{"id": "a", "score": 1}], [{"id": "b", "score": 1}]])


def test_paired_comparison_excludes_zero_only_for_a_real_difference() -> None:
    rng = random.Random(3)
    ids = [f"base_{i}" for i in range(200)]
    base = {i: [1.0 if rng.random() < 0.2 else 0.0] for i in ids}
    better = {i: [1.0 if v[0] or rng.random() < 0.2 else 0.0] for i, v in base.items()}
    ones = [i for i, v in base.items() if v[0]][:5]
    zeros = [i for i, v in base.items() if not v[0]][:5]
    noise = {i: [1.0 - v[0] if i in ones + zeros else v[0]] for i, v in base.items()}   # as many lost as won
    up = compare(_doc(base), _doc(better))["groups"]["all"]
    assert up["delta"] > 0 and up["excludes_zero"] and up["ci95"][0] > 0 and up["n"] == 200
    same = compare(_doc(base), _doc(noise))["groups"]["all"]
    assert not same["excludes_zero"] and same["ci95"][0] <= 0 <= same["ci95"][1]
    # Pairing: a difference far smaller than either side's own interval is still seen.
    assert up["ci95"][1] - up["ci95"][0] < (lambda s: s["ci95"][1] - s["ci95"][0])(_doc(better)["summary"]["all"])


def test_compare_all_pairs_benchmarks_and_reports_unpaired_entries() -> None:
    a = [_doc({"base_1": [1.0], "base_2": [0.0]}), _doc({"t_1": [1.0]}, "tau2:airline")]
    b = [_doc({"base_1": [1.0], "base_3": [1.0]})]
    [found] = compare_all(a, b)
    assert found["benchmark"] == "bfcl-multi-turn" and found["groups"]["all"]["n"] == 1
    assert found["groups"]["all"]["unpaired"] == 2
    with pytest.raises(EvalError, match="no benchmark in both"):
        compare_all(a[1:], b)
    with pytest.raises(EvalError, match="cannot compare"):
        compare(a[0], a[1])


def test_plot_is_a_self_contained_page() -> None:
    base, new = _doc({"base_1": [0.0], "base_2": [0.0]}), _doc({"base_1": [1.0], "base_2": [1.0]})
    comps = compare_all([base], [new])
    page = comparison_html(comps, {("base", "bfcl-multi-turn"): base["summary"],
                                   ("new", "bfcl-multi-turn"): new["summary"]}, title="a <b> test")
    assert page.startswith("<!doctype html>") and "<svg" in page and "a &lt;b&gt; test" in page
    assert "+100.0" in page and "<script" not in page


def test_tau2_domains_are_also_compared_as_their_mean() -> None:
    base = [_doc({f"t_{i}": [0.0] for i in range(30)}, "tau2:airline"),
            _doc({f"t_{i}": [1.0] for i in range(60)}, "tau2:retail")]
    new = [_doc({f"t_{i}": [1.0 if i < 15 else 0.0] for i in range(30)}, "tau2:airline"),
           _doc({f"t_{i}": [1.0] for i in range(60)}, "tau2:retail")]
    found = compare_all(base, new)
    assert [c["benchmark"] for c in found] == ["tau2:airline", "tau2:retail", "tau2 (mean of domains)"]
    mean = found[-1]["groups"]["all"]
    # Unweighted over the domains: airline +50 points, retail 0, so +25 (not 15/90 of the entries).
    assert mean["delta"] == pytest.approx(0.25) and mean["n"] == 90 and mean["excludes_zero"]
    assert mean["base"] == pytest.approx(0.5) and mean["new"] == pytest.approx(0.75)


def test_the_harness_imports_no_benchmark_package_until_used() -> None:
    import subprocess
    import sys

    code = ("import sys, prove.evals, prove.evals.bfcl, prove.evals.tau2, prove.evals.benchmarks, prove.cli.eval\n"
            "heavy = [m for m in ('bfcl_eval', 'tau2', 'litellm', 'loguru') if m in sys.modules]\n"
            "assert not heavy, heavy")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
