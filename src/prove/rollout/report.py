"""Aggregate scored trajectories: reward and breakdown, success rates and calls against the budget.

Per group (everything, each server, each kind):

- `score`: mean reward; `components`: mean of each component (state only where computed);
- `success`: the share of episodes that did the task: every gold call matched in dependency
  order and, where the example records a fingerprint, the final state equal to it; for an
  example without gold calls (abstention, irrelevance), no call at all;
- `state_match`: the share whose final state equals the example's fingerprint (over those
  that record one);
- `perfect`: the share that reached the best score the reward allows (the breakdown's `best`);
- `calls`, `gold`, `budget`: mean calls made, gold calls and the efficiency budget
  B = n_gt + ceil(n_gt * beta); `calls_per_budget`: mean of calls / B, and `over_budget`: the
  share that made more calls than B (both over examples with gold calls);
- `errors`: episodes ended by a policy or environment error; `status`: how episodes ended.

A multi-server episode is counted once, under its servers joined by '+'. The report reads the
reward's breakdowns as the trajectories carry them (the caller names the `components`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..records import Example

__all__ = ["summarize"]

_ERRORS = ("policy_error", "env_error")


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _group(rows: list[tuple[dict[str, Any], Example]], components: Sequence[str]) -> dict[str, Any]:
    scores, success, state, perfect, calls, gold, budget, ratio, over = [], [], [], [], [], [], [], [], []
    comps: dict[str, list[float]] = {c: [] for c in components}
    status: dict[str, int] = {}
    for traj, ex in rows:
        r = traj.get("reward") or {}
        meta = traj.get("meta") or {}
        st = meta.get("status", "unknown")
        status[st] = status.get(st, 0) + 1
        if not r:
            continue
        scores.append(float(r["score"]))
        for c in components:
            v = r.get(c)
            if v is not None:
                comps[c].append(float(v))
        abstain = bool(r.get("abstain"))
        n_calls = int(r.get("n_calls", 0))
        matched_fp = None
        if ex.fingerprint is not None and meta.get("fingerprint") is not None:
            matched_fp = meta["fingerprint"] == ex.fingerprint
            state.append(1.0 if matched_fp else 0.0)
        if abstain:
            success.append(1.0 if n_calls == 0 else 0.0)
        else:
            done = int(r.get("ordered", 0)) == int(r.get("n_gold", 0)) and matched_fp is not False
            success.append(1.0 if done else 0.0)
            b = int(r.get("budget", 0))
            calls.append(n_calls)
            gold.append(int(r.get("n_gold", 0)))
            budget.append(b)
            if b > 0:
                ratio.append(n_calls / b)
                over.append(1.0 if n_calls > b else 0.0)
        perfect.append(1.0 if float(r["score"]) >= float(r["best"]) - 1e-9 else 0.0)
    return {
        "n": len(rows),
        "score": _mean(scores),
        "components": {c: _mean(v) for c, v in comps.items() if v},
        "success": _mean(success),
        "state_match": _mean(state),
        "perfect": _mean(perfect),
        "calls": _mean(calls),
        "gold": _mean(gold),
        "budget": _mean(budget),
        "calls_per_budget": _mean(ratio),
        "over_budget": _mean(over),
        "errors": sum(status.get(s, 0) for s in _ERRORS),
        "status": dict(sorted(status.items())),
    }


def summarize(trajectories: Iterable[Mapping[str, Any]], examples: Iterable[Example], *,
              components: Sequence[str] = (), best: float | None = None) -> dict[str, Any]:
    """The report of an evaluation: `overall`, `by_server` and `by_kind` (see the module docstring).

    `components`: the reward components to average (`prove.reward.COMPONENTS`); `best`: the
    reward's best score, reported as it is.
    """
    by_id = {ex.id: ex for ex in examples}
    rows = []
    for traj in trajectories:
        ex = by_id.get(traj["example_id"])
        if ex is None:
            raise KeyError(f"trajectory of unknown example {traj['example_id']!r}")
        rows.append((dict(traj), ex))
    servers: dict[str, list] = {}
    kinds: dict[str, list] = {}
    for row in rows:
        servers.setdefault("+".join(row[1].servers), []).append(row)
        kinds.setdefault(row[1].kind, []).append(row)
    return {
        "best": best,
        "overall": _group(rows, components),
        "by_server": {k: _group(v, components) for k, v in sorted(servers.items())},
        "by_kind": {k: _group(v, components) for k, v in sorted(kinds.items())},
    }
