"""Trainer adapters: VERL's `compute_score` and a TRL reward function.

Plain functions with the trainers' calling conventions (public hooks only); neither trainer is
imported.

**VERL** (`custom_reward_function.path=<this file>`, `name=compute_score`): each sample is scored
as `compute_score(data_source=..., solution_str=..., ground_truth=..., extra_info=..., **kw)`,
and the returned dict's `score` is the reward while every other key is logged. The keys are the
same for every sample, as VERL requires. `custom_reward_function.reward_kwargs` may carry
`config` (a `RewardConfig` as a dict) and `execute` (bool). `compute_score_batch` serves VERL's
batch reward manager.

**TRL** (`GRPOTrainer(reward_funcs=[trl_reward()])`): called as
`reward(prompts=..., completions=..., completion_ids=..., **dataset_columns)`; returns one float
per completion and, where TRL passes `log_metric`, logs each component's mean.

Ground truth (VERL's `reward_model.ground_truth`, TRL's `ground_truth` column): the example as a
JSON string (recommended: Arrow turns heterogeneous argument dicts into structs padded with
nulls) or a dict, of which only `turns` is required; a bare list of gold calls is one turn.
`tools`, `servers` and `world` may come from the ground truth or from `extra_info` / the
dataset's columns; `turn` (same places) scores that user turn only, for data whose prompts
stop before it.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from prove.calls import parse_completion

# Absolute imports: VERL loads this file by its path (`custom_reward_function.path`), outside
# its package.
from prove.reward.config import COMPONENTS, RewardConfig
from prove.reward.gold import Gold, prepare
from prove.reward.score import Score, Scorer

__all__ = ["compute_score", "compute_score_batch", "trl_reward"]

_CACHE_SIZE = 8192
_CONTEXT_KEYS = ("tools", "servers", "world", "kind", "id", "fingerprint")


def _plain(value: Any) -> Any:
    """Arrays (numpy, as Parquet columns arrive in VERL) and tuples as lists, recursively."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    tolist = getattr(value, "tolist", None)
    if callable(tolist) and not isinstance(value, (str, bytes)):
        return _plain(tolist())
    return value


def _loads(value: Any) -> Any:
    if isinstance(value, bytes):
        value = value.decode()
    if isinstance(value, str):
        return json.loads(value)
    return _plain(value)


class _Adapter:
    """A scorer plus a bounded cache of prepared ground truths keyed by their text or id."""

    def __init__(self, config: RewardConfig | None, execute: bool, examples: Iterable[Any] = ()) -> None:
        self.scorer = Scorer(examples, config, execute=execute)
        self._golds: OrderedDict[Any, Gold] = OrderedDict()

    def gold(self, ground_truth: Any, context: Mapping[str, Any] | None) -> Gold:
        context = context if isinstance(context, Mapping) else {}
        turn = _turn(context)
        if isinstance(ground_truth, (str, bytes)):
            key: Any = (ground_truth, turn)
        elif isinstance(ground_truth, Mapping) and "id" in ground_truth:
            key = ("id", str(ground_truth["id"]), turn)
        elif ground_truth is None and context.get("example_id") is not None:
            key = ("example", str(context["example_id"]), turn)
        else:
            key = None
        if key is not None:
            found = self._golds.get(key)
            if found is not None:
                self._golds.move_to_end(key)
                return found
        gold = self._prepare(ground_truth, context, turn)
        if key is not None:
            self._golds[key] = gold
            if len(self._golds) > _CACHE_SIZE:
                self._golds.popitem(last=False)
        return gold

    def _prepare(self, ground_truth: Any, context: Mapping[str, Any], turn: int | None) -> Gold:
        gt = _loads(ground_truth) if ground_truth is not None else None
        known = context.get("example_id")
        if gt is None and known in self.scorer:
            if turn is None:
                return self.scorer.gold(known)
            return prepare(self.scorer.example(known), self.scorer.config, turn=turn)
        if isinstance(gt, list):
            gt = {"turns": [{"user": "", "calls": gt}]}
        if not isinstance(gt, Mapping):
            raise ValueError(f"ground truth must be an example, a dict with `turns` or a list of calls, "
                             f"not {type(gt).__name__}")
        if "turns" not in gt and "calls" in gt:
            gt = {**gt, "turns": [{"user": "", "calls": gt["calls"]}]}
        merged = dict(gt)
        for k in _CONTEXT_KEYS:
            if k not in merged and k in context:
                merged[k] = _loads(context[k]) if k == "tools" else _plain(context[k])
        return prepare(merged, self.scorer.config, turn=turn)

    def score(self, completion: Any, ground_truth: Any, context: Mapping[str, Any] | None) -> Score:
        gold = self.gold(ground_truth, context)
        first = _turn(context) if isinstance(context, Mapping) else None
        return self.scorer.score_calls(gold, parse_completion(completion, first_turn=first))


def _turn(context: Mapping[str, Any]) -> int | None:
    turn = _plain(context.get("turn"))
    return int(turn) if isinstance(turn, (int, float)) and not isinstance(turn, bool) else None


# One adapter per distinct config; looked up by the config object first, because VERL passes
# the same `reward_kwargs` objects with every sample and validating them each time would cost.
_ADAPTERS: dict[tuple[str, bool], _Adapter] = {}
_BY_OBJECT: dict[tuple[int, bool], tuple[Any, _Adapter]] = {}


def _adapter(config: RewardConfig | Mapping[str, Any] | None, execute: bool) -> _Adapter:
    execute = bool(execute)
    hit = _BY_OBJECT.get((id(config), execute))
    if hit is not None and hit[0] is config:
        return hit[1]
    checked = config if config is None or isinstance(config, RewardConfig) else \
        RewardConfig.model_validate(_plain(config))
    key = (checked.model_dump_json() if checked is not None else "", execute)
    found = _ADAPTERS.get(key)
    if found is None:
        found = _ADAPTERS[key] = _Adapter(checked, execute)
    if len(_BY_OBJECT) > 64:
        _BY_OBJECT.clear()
    _BY_OBJECT[(id(config), execute)] = (config, found)  # holding `config` keeps its id unique
    return found


def compute_score(data_source: Any, solution_str: str, ground_truth: Any, extra_info: Mapping[str, Any] | None = None,
                  config: RewardConfig | Mapping[str, Any] | None = None, execute: bool = False,
                  **kwargs: Any) -> dict[str, float]:
    """VERL's reward hook: the score of one response with its breakdown (all floats).

    `kwargs` takes whatever else VERL passes (`reward_router_address` and the like) and
    ignores it.
    """
    adapter = _adapter(config, execute)
    return adapter.score(solution_str, ground_truth, extra_info).metrics()


def compute_score_batch(data_sources: Sequence[Any], solution_strs: Sequence[str], ground_truths: Sequence[Any],
                        extra_infos: Sequence[Mapping[str, Any] | None] | None = None,
                        config: RewardConfig | Mapping[str, Any] | None = None, execute: bool = False,
                        **kwargs: Any) -> list[dict[str, float]]:
    """VERL's batch reward manager hook: `compute_score` over lists."""
    adapter = _adapter(config, execute)
    extras = list(extra_infos) if extra_infos is not None else [None] * len(solution_strs)
    return [adapter.score(s, gt, ex).metrics() for s, gt, ex in zip(solution_strs, ground_truths, extras)]


def trl_reward(config: RewardConfig | None = None, *, examples: Iterable[Any] = (), execute: bool = False,
               name: str = "prove_reward") -> Callable[..., list[float]]:
    """A TRL reward function.

    Each row's ground truth is its `ground_truth` column, else the example named by its
    `example_id` (or `id`) column among `examples`, else the example's own columns (`turns`,
    `tools`, ...) when the dataset is made of examples.
    """
    adapter = _Adapter(config, execute, examples)

    def reward(prompts: Sequence[Any] | None = None, completions: Sequence[Any] | None = None,
               completion_ids: Sequence[Any] | None = None, **kwargs: Any) -> list[float]:
        completions = list(completions or [])
        scores: list[Score] = []
        for i, completion in enumerate(completions):
            row = {k: v[i] for k, v in kwargs.items() if isinstance(v, (list, tuple)) and len(v) == len(completions)}
            if "example_id" not in row and "id" in row and "turns" not in row:
                row["example_id"] = row["id"]
            if "ground_truth" in row:
                gt = row["ground_truth"]
            elif row.get("example_id") in adapter.scorer:
                gt = None
            elif "turns" in row:
                gt = {k: row[k] for k in ("turns", *_CONTEXT_KEYS) if k in row}
            else:
                raise ValueError("a row needs a `ground_truth` column, an `example_id` of a known example, "
                                 "or the example's own `turns`")
            scores.append(adapter.score(completion, gt, row))
        log_metric = kwargs.get("log_metric")
        if callable(log_metric) and scores:
            for c in COMPONENTS:
                values = [s.components[c] for s in scores if s.components.get(c) is not None]
                if values:
                    log_metric(f"prove/{c}", sum(values) / len(values))  # type: ignore[arg-type]
        return [s.total for s in scores]

    reward.__name__ = name
    reward.__qualname__ = name
    return reward
