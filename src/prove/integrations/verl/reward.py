"""VERL's reward hook: `compute_score` (and `compute_score_batch` for the batch reward manager).

```yaml
reward:
  custom_reward_function:
    path: <site-packages>/prove/integrations/verl/reward.py
    name: compute_score              # compute_score_batch for the batch reward manager
    reward_kwargs: {config: {scale: raw}}
```

Each sample is scored as `compute_score(data_source=..., solution_str=..., ground_truth=...,
extra_info=..., **kw)`; the returned dict's `score` is the reward and every other key is
logged, the same keys for every sample as VERL requires. `reward_kwargs` may carry `config` (a
`RewardConfig` as a dict) and `execute` (bool); whatever else VERL passes
(`reward_router_address` and the like) is ignored. The ground truth is read as
`prove.reward.rows` describes.

For `prove_agent` rollouts the agent loop hands the reward its episode in the rollout's extra
fields (`extra_info["prove"]` once VERL's reward manager merged them): the messages after the
prompt, every tool result included, from which the calls, their outcomes and their user turns
are read exactly (the decoded `solution_str` loses the turn boundaries: VERL decodes it without
special tokens), and the episode's final state (its diff, else its fingerprint), which the
state component uses. Rows without that field (VERL's stock `tool_agent` loop, single-turn
data) are scored from `solution_str`.

Next to the reward's breakdown, every sample reports `solved` (1.0 when the final state equals
the example's recorded fingerprint, 0.0 when not, NaN when either is unknown) and
`episode_calls` (calls made).

This file is loaded by its path (absolute imports only).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from prove.calls import parse_messages
from prove.env import Diff, RowChange
from prove.records import plain
from prove.reward import RewardConfig
from prove.reward.rows import row_scorer

__all__ = ["compute_score", "compute_score_batch"]


def _diff(rows: Any) -> Diff | None:
    if not rows:
        return None
    return Diff([RowChange(r["server"], r["table"], r["op"], tuple(r["key"]) if isinstance(r["key"], list)
                           else r["key"], r.get("before"), r.get("after")) for r in rows])


def compute_score(data_source: Any, solution_str: str, ground_truth: Any, extra_info: Mapping[str, Any] | None = None,
                  config: RewardConfig | Mapping[str, Any] | None = None, execute: bool = False,
                  **kwargs: Any) -> dict[str, float]:
    """VERL's reward hook (see the module docstring); all values are floats."""
    scorer = row_scorer(config, execute)
    extra = extra_info if isinstance(extra_info, Mapping) else {}
    episode = extra.get("prove")
    if not isinstance(episode, Mapping):
        out = scorer.score(solution_str, ground_truth, extra).metrics()
        return {**out, "solved": math.nan, "episode_calls": out["n_calls"]}
    # The messages continue the prompt, whose user message is turn 0; the episode played every turn.
    calls = parse_messages(plain(episode.get("messages") or []), first_turn=0, episode=False,
                           limits=scorer.config.parsing)
    fp = episode.get("fingerprint") or None
    score = scorer.score_calls(calls, ground_truth, extra, whole=True, diff=_diff(episode.get("diff")),
                               fingerprint=fp)
    out = score.metrics()
    gt_fp = scorer.gold(ground_truth, extra, whole=True).fingerprint
    out["solved"] = math.nan if not fp or not gt_fp else float(fp == gt_fp)
    out["episode_calls"] = float(score.n_calls)
    return out


def compute_score_batch(data_sources: Sequence[Any], solution_strs: Sequence[str], ground_truths: Sequence[Any],
                        extra_infos: Sequence[Mapping[str, Any] | None] | None = None,
                        config: RewardConfig | Mapping[str, Any] | None = None, execute: bool = False,
                        **kwargs: Any) -> list[dict[str, float]]:
    """VERL's batch reward manager hook: `compute_score` over lists."""
    extras = list(extra_infos) if extra_infos is not None else [None] * len(solution_strs)
    return [compute_score(d, s, gt, ex, config=config, execute=execute)
            for d, s, gt, ex in zip(data_sources, solution_strs, ground_truths, extras)]
