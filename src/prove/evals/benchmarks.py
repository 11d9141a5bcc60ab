"""The benchmarks `prove eval --benchmark` knows, and one call that runs one over several runs.

    bfcl-multi-turn                     every category (base, miss_func, miss_param, long_context)
    bfcl-multi-turn:base,miss_func      some of them
    tau2:airline                        one tau2-bench domain (airline, retail, telecom)

`run_benchmark` plays every entry once per run (a trial, or a sampling seed), and returns the runs
as `results.result` takes them; each record's `messages` are handed to `on_trajectory` and left out
of the record.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..rollout import Policy
from .errors import EvalError

__all__ = ["BENCHMARKS", "Spec", "parse", "run_benchmark"]

BENCHMARKS = ("bfcl-multi-turn", "tau2:airline", "tau2:retail", "tau2:telecom")


@dataclass(frozen=True)
class Spec:
    """A benchmark as asked for: its name, and the categories (BFCL) or the domain (tau2)."""

    name: str
    parts: tuple[str, ...]


BFCL = "bfcl-multi-turn"


def parse(text: str) -> Spec:
    """`bfcl-multi-turn[:cat,...]` or `tau2:<domain>` (an `EvalError` for anything else)."""
    name, _, rest = text.strip().partition(":")
    parts = tuple(p.strip() for p in rest.split(",") if p.strip())
    if name == BFCL:
        from .bfcl import CATEGORIES

        unknown = [p for p in parts if p not in CATEGORIES]
        if unknown:
            raise EvalError(f"no BFCL multi-turn category {unknown[0]!r}; use {', '.join(CATEGORIES)}")
        return Spec(BFCL, parts or CATEGORIES)
    if name == "tau2":
        from .tau2 import DOMAINS

        if len(parts) != 1 or parts[0] not in DOMAINS:
            raise EvalError(f"tau2 takes one domain: tau2:{'|'.join(DOMAINS)}")
        return Spec(f"tau2:{parts[0]}", parts)
    raise EvalError(f"no benchmark {text!r}; use {', '.join(BENCHMARKS)} (BFCL: bfcl-multi-turn:CATEGORY,...)")


def run_benchmark(spec: Spec, policy: Callable[[int | None], Policy], seeds: Sequence[int | None], *,
                  ids: Sequence[str] | None = None, limit: int | None = None, concurrency: int = 4,
                  user: Callable[[int | None], Any] | None = None, max_steps: int | None = None,
                  on_record: Callable[[dict[str, Any]], None] | None = None,
                  on_trajectory: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Every entry of the benchmark once per seed: `[{"seed", "records"}, ...]`.

    `policy(seed)` gives the policy of a run (its sampling seed set); `user(seed)` the user
    simulator of a tau2 run. The policy is closed after its run when it has `close`.
    """
    if spec.name == BFCL:
        from . import bfcl

        entries: list[Any] = bfcl.load(spec.parts, ids)

        def play(items: Sequence[Any], p: Policy, seed: int | None) -> list[dict[str, Any]]:
            return bfcl.run(items, p, concurrency=concurrency, on_result=on_record)
    else:
        from . import tau2

        entries = tau2.load(spec.parts[0], ids)

        def play(items: Sequence[Any], p: Policy, seed: int | None) -> list[dict[str, Any]]:
            if user is None:
                raise EvalError("tau2 needs a user simulator")
            return tau2.run(items, p, user(seed), concurrency=concurrency, max_steps=max_steps, on_result=on_record)
    if limit is not None:
        entries = entries[:limit]
    if not entries:
        raise EvalError(f"no entry of {spec.name} to run")
    runs = []
    for r, seed in enumerate(seeds):
        p = policy(seed)
        try:
            records = play(entries, p, seed)
        finally:
            close = getattr(p, "close", None)
            if callable(close):
                close()
        for rec in records:
            messages = rec.pop("messages", None)
            if on_trajectory is not None and messages is not None:
                on_trajectory({"example_id": rec["id"], "messages": messages,
                               "meta": {"benchmark": spec.name, "run": r, "seed": seed, "category": rec.get("category"),
                                        "score": rec["score"], "status": rec.get("status"),
                                        "error_type": rec.get("error_type")}})
        runs.append({"seed": seed, "records": records})
    return runs
