"""A benchmark result as one JSON document, its summary, and the paired comparison of two results.

A result holds what was run (`benchmark`, `model`, `base_url`, `settings`), every run (one per
trial or seed: `runs[r].records`, one record per entry with its `score` in [0, 1] and `err`) and
the `summary`: for everything (`all`) and for each category, `stats.summary` of the runs.

`compare(base, new)` pairs the entries of two results of the same benchmark by id and reports,
for `all` and each category, the mean difference with its paired bootstrap interval.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from . import stats
from .errors import EvalError

__all__ = ["FORMAT", "TAU2_MEAN", "compare", "compare_all", "entry_means", "read_results", "result", "summarize"]

FORMAT = "prove-eval/1"


def _groups(records: Sequence[Mapping[str, Any]]) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = {"all": list(range(len(records)))}
    for i, rec in enumerate(records):
        groups.setdefault(str(rec.get("category", "all")), []).append(i)
    return groups


def summarize(runs: Sequence[Sequence[Mapping[str, Any]]]) -> dict[str, Any]:
    """`{"all": figures, "categories": {name: figures}}` over runs that hold the same entries in the same order."""
    if not runs:
        return {"all": stats.summary([]), "categories": {}}
    ids = [r["id"] for r in runs[0]]
    for run in runs[1:]:
        if [r["id"] for r in run] != ids:
            raise EvalError("the runs of a result do not hold the same entries")
    out: dict[str, Any] = {"categories": {}}
    for name, index in _groups(runs[0]).items():
        scores = [[float(run[i]["score"]) for i in index] for run in runs]
        errors = sum(1 for run in runs for i in index if run[i].get("err"))
        figures = stats.summary(scores, errors=errors)
        if name == "all":
            out["all"] = figures
        else:
            out["categories"][name] = figures
    return out


def result(benchmark: str, runs: Sequence[Mapping[str, Any]], *, model: str, base_url: str,
           settings: Mapping[str, Any]) -> dict[str, Any]:
    """The result document of runs `[{"seed": ..., "records": [...]}, ...]` (records without their messages)."""
    return {
        "format": FORMAT, "benchmark": benchmark, "model": model, "base_url": base_url,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "settings": dict(settings),
        "summary": summarize([run["records"] for run in runs]),
        "runs": [{"seed": run.get("seed"), "records": list(run["records"])} for run in runs],
    }


def read_results(path: Path) -> list[dict[str, Any]]:
    """The results in a file (one document, or a list of them) or in a folder's `*.json` files."""
    files = sorted(path.glob("*.json")) if path.is_dir() else [path]
    out: list[dict[str, Any]] = []
    for file in files:
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise EvalError(f"cannot read the result {file}: {exc}") from exc
        for doc in data if isinstance(data, list) else [data]:
            if not isinstance(doc, dict) or doc.get("format") != FORMAT:
                raise EvalError(f"{file} is not a `prove eval --benchmark` result ({FORMAT})")
            out.append(doc)
    if not out:
        raise EvalError(f"no result in {path}")
    return out


def entry_means(doc: Mapping[str, Any], group: str = "all") -> dict[str, float]:
    """Each entry's mean score over the result's runs (`group`: `all` or a category)."""
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for run in doc["runs"]:
        for rec in run["records"]:
            if group != "all" and rec.get("category") != group:
                continue
            sums[rec["id"]] = sums.get(rec["id"], 0.0) + float(rec["score"])
            counts[rec["id"]] = counts.get(rec["id"], 0) + 1
    return {k: sums[k] / counts[k] for k in sums}


def compare(base: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """The paired comparison of two results of one benchmark: `{benchmark, base_model, new_model, groups}`."""
    if base["benchmark"] != new["benchmark"]:
        raise EvalError(f"cannot compare {base['benchmark']} with {new['benchmark']}")
    names = ["all"] + sorted(set(base["summary"]["categories"]) & set(new["summary"]["categories"]))
    return {"benchmark": base["benchmark"], "base_model": base.get("model"), "new_model": new.get("model"),
            "groups": {g: stats.paired(entry_means(base, g), entry_means(new, g)) for g in names}}


TAU2_MEAN = "tau2 (mean of domains)"


def compare_all(base: Iterable[Mapping[str, Any]], new: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`compare` for every benchmark both sides ran (one result per benchmark and side); with two or more
    tau2 domains on both sides, also their unweighted mean (the paper's "tau2 avg"), domains resampled apart."""
    left = _by_benchmark(base, "base")
    right = _by_benchmark(new, "new")
    common = [b for b in left if b in right]
    if not common:
        raise EvalError(f"no benchmark in both: base has {', '.join(left)}; new has {', '.join(right)}")
    out = [compare(left[b], right[b]) for b in common]
    domains = [b for b in common if b.startswith("tau2:")]
    if len(domains) > 1:
        pairs = [(entry_means(left[b]), entry_means(right[b])) for b in domains]
        out.append({"benchmark": TAU2_MEAN, "base_model": left[domains[0]].get("model"),
                    "new_model": right[domains[0]].get("model"), "domains": domains,
                    "groups": {"all": stats.paired_strata(pairs)}})
    return out


def _by_benchmark(docs: Iterable[Mapping[str, Any]], side: str) -> dict[str, Mapping[str, Any]]:
    out: dict[str, Mapping[str, Any]] = {}
    for doc in docs:
        if doc["benchmark"] in out:
            raise EvalError(f"two {side} results of {doc['benchmark']}: give one per benchmark")
        out[doc["benchmark"]] = doc
    return out
