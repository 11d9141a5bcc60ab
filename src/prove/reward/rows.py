"""Scoring against ground truth that rides in dataset rows, as trainers hand it over.

Trainer-agnostic: the trainers' own hooks (VERL's `compute_score` in
`prove.integrations.verl.reward`, TRL's reward function in `prove.integrations.trl`) are thin
calls into `RowScorer`.

Ground truth (VERL's `reward_model.ground_truth`, TRL's `ground_truth` column): the example as a
JSON string (recommended: Arrow turns heterogeneous argument dicts into structs padded with
nulls) or a dict, of which only `turns` is required; a bare list of gold calls is one turn.
`tools`, `servers` and `world` may come from the ground truth or from the row's context (VERL's
`extra_info`, TRL's other columns); `turn` (same places) scores that user turn only, for data
whose prompts stop before it.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

# Absolute imports: VERL loads the hook that imports this file by its path, outside the package.
from prove.calls import Call, parse_completion
from prove.env import Diff
from prove.records import plain
from prove.reward.config import RewardConfig
from prove.reward.gold import Gold, prepare
from prove.reward.score import Score, Scorer

__all__ = ["RowScorer", "row_scorer"]

_CACHE_SIZE = 8192
_CONTEXT_KEYS = ("tools", "servers", "world", "kind", "id", "fingerprint")


def _loads(value: Any) -> Any:
    if isinstance(value, bytes):
        value = value.decode()
    if isinstance(value, str):
        return json.loads(value)
    return plain(value)


def _turn(context: Mapping[str, Any]) -> int | None:
    turn = plain(context.get("turn"))
    return int(turn) if isinstance(turn, (int, float)) and not isinstance(turn, bool) else None


class RowScorer:
    """A `Scorer` plus a bounded cache of the ground truths prepared from rows, keyed by their text or id.

    Args:
        config: the reward settings.
        execute: run the calls of a completion that carries no outcomes (see `Scorer`).
        examples: examples a row may name by `example_id` instead of carrying its ground truth.
    """

    def __init__(self, config: RewardConfig | None = None, execute: bool = False,
                 examples: Iterable[Any] = ()) -> None:
        self.scorer = Scorer(examples, config, execute=execute)
        self._golds: OrderedDict[Any, Gold] = OrderedDict()

    @property
    def config(self) -> RewardConfig:
        return self.scorer.config

    def gold(self, ground_truth: Any, context: Mapping[str, Any] | None = None, *, whole: bool = False) -> Gold:
        """The prepared gold of a row (`whole`: every turn, whatever the row's `turn` says)."""
        context = context if isinstance(context, Mapping) else {}
        turn = None if whole else _turn(context)
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
            return prepare(self.scorer.example(known), self.config, turn=turn)
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
                merged[k] = _loads(context[k]) if k == "tools" else plain(context[k])
        # Rows need not carry ids, and two rows may share one: the gold's id names its content, so
        # that the scorer's replay of gold calls (keyed by id) is never another row's.
        digest = hashlib.blake2b(json.dumps(merged, sort_keys=True, default=str).encode(), digest_size=8).hexdigest()
        merged["id"] = f"{merged.get('id', '')}#{digest}"
        return prepare(merged, self.config, turn=turn)

    def score(self, completion: Any, ground_truth: Any, context: Mapping[str, Any] | None = None, *,
              diff: Diff | None = None, fingerprint: str | None = None) -> Score:
        """Score a completion (text, or the chat messages after the prompt) against a row's ground truth.

        `diff` and `fingerprint` describe the final state of the episode the completion was
        played in, when the caller ran it live (the state component then counts).
        """
        first = _turn(context) if isinstance(context, Mapping) else None
        calls = parse_completion(completion, first_turn=first, limits=self.config.parsing)
        return self.score_calls(calls, ground_truth, context, diff=diff, fingerprint=fingerprint)

    def score_calls(self, calls: Sequence[Call], ground_truth: Any, context: Mapping[str, Any] | None = None, *,
                    whole: bool = False, diff: Diff | None = None, fingerprint: str | None = None) -> Score:
        """Score parsed calls against a row's ground truth (`whole`: every turn's gold calls)."""
        gold = self.gold(ground_truth, context, whole=whole)
        return self.scorer.score_calls(gold, calls, diff=diff, fingerprint=fingerprint)


# One row scorer per distinct config; looked up by the config object first, because trainers pass
# the same config objects with every sample and validating them each time would cost.
_SCORERS: dict[tuple[str, bool], RowScorer] = {}
_BY_OBJECT: dict[tuple[int, bool], tuple[Any, RowScorer]] = {}


def row_scorer(config: RewardConfig | Mapping[str, Any] | None = None, execute: bool = False) -> RowScorer:
    """The shared `RowScorer` of a config (a `RewardConfig`, or one as a dict) and execution setting."""
    execute = bool(execute)
    hit = _BY_OBJECT.get((id(config), execute))
    if hit is not None and hit[0] is config:
        return hit[1]
    checked = config if config is None or isinstance(config, RewardConfig) else \
        RewardConfig.model_validate(plain(config))
    key = (checked.model_dump_json() if checked is not None else "", execute)
    found = _SCORERS.get(key)
    if found is None:
        found = _SCORERS[key] = RowScorer(checked, execute)
    if len(_BY_OBJECT) > 64:
        _BY_OBJECT.clear()
    _BY_OBJECT[(id(config), execute)] = (config, found)  # holding `config` keeps its id unique
    return found
