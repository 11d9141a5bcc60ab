"""VERL's reward hook for `prove_agent` rollouts: the score from the episode the agent loop recorded.

```yaml
reward:
  custom_reward_function:
    path: <site-packages>/prove/integrations/verl/reward.py
    name: compute_score
    reward_kwargs: {config: {scale: raw}}
```

The agent loop hands the reward its episode in the rollout's extra fields (`extra_info["prove"]`
once VERL's reward manager merged them): the messages after the prompt, every tool result
included, from which the calls, their outcomes and their user turns are read exactly (the
decoded `solution_str` loses the turn boundaries: VERL decodes it without special tokens). The
state component uses the episode's recorded diff when there is one. Rows without that field
(VERL's stock `tool_agent` loop, single-turn data) are scored from `solution_str` by
`prove.reward.adapters.compute_score`, unchanged.

Next to the reward's breakdown, every sample reports `solved` (1.0 when the final state equals
the example's recorded fingerprint, 0.0 when not, NaN when either is unknown) and
`episode_calls` (calls made), the same keys for every sample as VERL requires.

This file is loaded by its path (absolute imports only).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from typing import Any

from prove.env import Diff, RowChange
from prove.reward import RewardConfig, Scorer, parse_messages
from prove.reward.adapters import compute_score as _score_text

__all__ = ["compute_score"]

_SCORERS: dict[str, Scorer] = {}


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    tolist = getattr(value, "tolist", None)
    if callable(tolist) and not isinstance(value, (str, bytes)):
        return _plain(tolist())
    return value


def _scorer(config: Any) -> Scorer:
    cfg = config if isinstance(config, RewardConfig) else RewardConfig.model_validate(_plain(config or {}))
    key = cfg.model_dump_json()
    found = _SCORERS.get(key)
    if found is None:
        found = _SCORERS[key] = Scorer((), cfg)
    return found


def _gold_id(scorer: Scorer, ground_truth: Any, extra_info: Mapping[str, Any]) -> str:
    """Add the row's example to the scorer once (keyed by its id and text) and return its key."""
    text = ground_truth.decode() if isinstance(ground_truth, bytes) else ground_truth
    if isinstance(text, str):
        gt = json.loads(text)
    else:
        gt = _plain(text)
        text = json.dumps(gt, sort_keys=True, default=str)
    if isinstance(gt, list):
        gt = {"turns": [{"user": "", "calls": gt}]}
    gt = dict(gt)
    for key in ("tools", "servers", "world", "kind"):
        if key not in gt and extra_info.get(key) is not None:
            value = _plain(extra_info[key])
            gt[key] = json.loads(value) if key == "tools" and isinstance(value, str) else value
    digest = hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
    key = f"{gt.get('id', '')}#{digest}"
    if key not in scorer:
        scorer.add({**gt, "id": key})
    return key


def _diff(rows: Any) -> Diff | None:
    if not rows:
        return None
    return Diff([RowChange(r["server"], r["table"], r["op"], tuple(r["key"]) if isinstance(r["key"], list)
                           else r["key"], r.get("before"), r.get("after")) for r in rows])


def compute_score(data_source: Any, solution_str: str, ground_truth: Any, extra_info: Mapping[str, Any] | None = None,
                  config: RewardConfig | Mapping[str, Any] | None = None, execute: bool = False,
                  **kwargs: Any) -> dict[str, float]:
    """VERL's reward hook (see the module docstring); all values are floats."""
    extra = extra_info if isinstance(extra_info, Mapping) else {}
    episode = extra.get("prove")
    if not isinstance(episode, Mapping):
        out = _score_text(data_source, solution_str, ground_truth, extra_info, config=config, execute=execute,
                          **kwargs)
        return {**out, "solved": math.nan, "episode_calls": out.get("n_calls", math.nan)}
    scorer = _scorer(config)
    key = _gold_id(scorer, ground_truth, extra)
    # The messages continue the prompt, whose user message is turn 0.
    calls = parse_messages(_plain(episode.get("messages") or []), first_turn=0, episode=False)
    score = scorer.score_calls(key, calls, diff=_diff(episode.get("diff")), fingerprint=episode.get("fingerprint") or None)
    out = score.metrics()
    gt_fp = scorer.gold(key).fingerprint
    fp = episode.get("fingerprint")
    out["solved"] = math.nan if not fp or not gt_fp else float(fp == gt_fp)
    out["episode_calls"] = float(len(calls))
    return out

