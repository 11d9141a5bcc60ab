"""The total reward with its breakdown: `score_calls` (pure) and `Scorer` (caches, execution).

    R = 0.5 R_val + 0.5 R_cov + 0.15 R_eff + 0.2 R_name + 0.1 R_arg (+ 0 R_state)

with the weights of `RewardConfig`. An example without gold calls (abstention, irrelevance, a
clarification turn scored alone) scores `abstain_score` for no calls and 0 otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..calls import Call, Calls, outcome_reader, parse_trajectory
from ..env import Diff
from .components import (
    align,
    argument_values,
    coverage,
    efficiency,
    name_precision,
    unmatched_cost,
    validity,
)
from .config import COMPONENTS, RewardConfig
from .gold import Gold, prepare
from .state import Replay, compare, replay

__all__ = ["Score", "Scorer", "score_calls"]


@dataclass(slots=True)
class Score:
    """A total and what it is made of.

    `components` holds every component's unweighted value (`state` is None when it was not
    computed); `best` is the highest total possible with the components computed; the counts
    say how the calls lined up with the gold.
    """

    total: float
    components: dict[str, float | None]
    abstain: bool
    n_calls: int
    n_gold: int
    budget: int
    matched: int
    ordered: int
    best: float = 0.0
    details: dict[str, Any] = field(default_factory=dict)

    def breakdown(self) -> dict[str, Any]:
        """The score as a flat JSON-able dict: `score`, each component, then the counts."""
        out: dict[str, Any] = {"score": self.total}
        out.update(self.components)
        out.update(abstain=self.abstain, n_calls=self.n_calls, n_gold=self.n_gold, budget=self.budget,
                   matched=self.matched, ordered=self.ordered, best=self.best)
        if self.details:
            out.update(self.details)
        return out

    def metrics(self) -> dict[str, float]:
        """The breakdown as floats only, the same keys every time (for trainers' loggers)."""
        out = {"score": float(self.total)}
        for c in COMPONENTS:
            v = self.components.get(c)
            out[c] = math.nan if v is None else float(v)
        out.update(abstain=float(self.abstain), n_calls=float(self.n_calls), n_gold=float(self.n_gold),
                   matched=float(self.matched))
        return out


def score_calls(gold: Gold, calls: Sequence[Call], config: RewardConfig, state: float | None = None) -> Score:
    """Score the model's calls against a prepared gold (the pure core of the reward).

    `state` is the state component's value when the caller computed it (`Scorer` does). The
    calls past the parser's caps (`Calls.excess`) count as malformed calls.
    """
    excess = calls.excess if type(calls) is Calls else 0  # calls past the parser's caps: malformed, not read
    n = len(calls) + excess
    plan = config.plan
    if not gold.calls:
        good = n == 0
        v = 1.0 if good else 0.0
        comps: dict[str, float | None] = {"validity": v, "coverage": v, "efficiency": 0.0, "name": v, "args": v,
                                          "state": state}
        return Score(plan.abstain_score if good else 0.0, comps, True, n, 0, 0, 0, 0, plan.abstain_score)
    prove = plan.prove
    causal = plan.causal
    n_gold = len(gold.calls)
    mu, shares = align(gold, calls, plan.values, causal)
    unmatched = unmatched_cost(calls, mu, gold.specs, plan.unmatched_read, plan.unmatched_write, excess) \
        if prove else 0.0
    cov = coverage(gold, mu)
    comps = {
        "validity": validity(calls, gold.specs, plan.unknown, n_gold if prove else None, excess),
        "coverage": cov,
        "efficiency": efficiency(n, n_gold, plan.alpha, plan.beta, unmatched),
        "name": name_precision(calls, gold, causal, prove, excess),
        "args": argument_values(mu, shares, exact=prove),
        "state": state,
    }
    w = plan.w
    total = 0.0
    for c, value in comps.items():
        if value is not None:
            total += w[c] * value
    best = plan.best_raw if state is None else plan.best_state
    if plan.unit:
        total /= best
        best = 1.0
    matched = n_gold - mu.count(-1)
    score = Score(total, comps, False, n, n_gold, gold.budget, matched, round(cov * n_gold), best)
    if excess:
        score.details["unread_calls"] = excess
    return score


class Scorer:
    """Scores trajectories of a dataset, preparing each example's gold once.

    Args:
        examples: the dataset (`Example` records or dicts of the same shape).
        config: the reward settings.
        execute: run the calls of a trajectory that carries no outcomes on a fresh session of
            the example's world (`Session(example.servers, world=example.world)`) to learn them.
        state: compute the state component (replays both the gold and the episode); by
            default when `execute` is on or `weights.state` is set to a non-zero weight (the
            `prove` preset's own state weight counts only where the episode was executed). A
            live episode's `diff` or `fingerprint` given to `score` always gives it.

    Examples of servers that are not installed are scored without execution; their scores
    say so in `details["execution"]`.
    """

    def __init__(self, examples: Iterable[Any] = (), config: RewardConfig | None = None, *,
                 execute: bool = False, state: bool | None = None) -> None:
        self.config = config or RewardConfig()
        self.execute = execute
        self.state = state if state is not None else (execute or bool(self.config.weights.state))
        self.outcome = outcome_reader(self.config.outcomes)
        self._examples: dict[str, Any] = {}
        self._gold: dict[str, Gold] = {}
        self._gold_replay: dict[tuple[str, tuple[str, ...]], Replay] = {}
        for ex in examples:
            self.add(ex)

    def add(self, example: Any) -> Gold:
        """Make an example known (replacing one with the same id) and return its prepared gold."""
        gold = prepare(example, self.config)
        self._examples[gold.id] = example
        self._gold[gold.id] = gold
        for key in [k for k in self._gold_replay if k[0] == gold.id]:
            del self._gold_replay[key]
        return gold

    def gold(self, example_id: str) -> Gold:
        try:
            return self._gold[example_id]
        except KeyError:
            raise KeyError(f"no example {example_id!r} in this scorer") from None

    def example(self, example_id: str) -> Any:
        """The example record as it was added."""
        self.gold(example_id)
        return self._examples[example_id]

    def __contains__(self, example_id: object) -> bool:
        return example_id in self._gold

    def gold_replay(self, gold: Gold | str) -> Replay:
        """The gold calls replayed on a fresh session of the example's world (cached)."""
        if isinstance(gold, str):
            gold = self.gold(gold)
        found = self._gold_replay.get(gold.key)
        if found is None:
            found = replay(gold.servers, gold.world, [(s.name, s.arguments, s.turn) for s in gold.calls],
                           prefix=gold.prefix, advance=gold.advance, first=gold.first, last=gold.last)
            self._gold_replay[gold.key] = found
        return found

    def score(self, trajectory: Mapping[str, Any] | Any, *, diff: Diff | None = None,
              fingerprint: str | None = None) -> Score:
        """Score one trajectory (`{example_id, messages}` or `{example_id, completion}`).

        `diff` (`Session.diff()`) and `fingerprint` describe the episode's final state when the
        caller ran it live; the state component uses them instead of a replay.
        """
        if type(trajectory) is not dict and not isinstance(trajectory, Mapping):
            trajectory = trajectory.model_dump(mode="json", exclude_none=True)
        gold = self.gold(trajectory["example_id"])
        calls = parse_trajectory(trajectory, self.outcome, self.config.parsing)
        return self.score_calls(gold, calls, diff=diff, fingerprint=fingerprint)

    def score_calls(self, gold: Gold | str, calls: Sequence[Call], *, diff: Diff | None = None,
                    fingerprint: str | None = None) -> Score:
        """Score parsed calls (left as they are), executing them first where this scorer is told to."""
        if isinstance(gold, str):
            gold = self.gold(gold)
        live = diff is not None or fingerprint is not None
        need_outcomes = self.execute and any(c.ok is None for c in calls)
        if gold.servers and not gold.executable and (need_outcomes or (self.state and not live)):
            score = score_calls(gold, calls, self.config)
            score.details["execution"] = f"off: server(s) {', '.join(gold.missing)} not installed"
            return score
        if gold.servers and (need_outcomes or (self.state and not live)):
            run = replay(gold.servers, gold.world, [(c.name, c.args, c.turn) for c in calls], offered=gold.specs,
                         prefix=gold.prefix, advance=gold.advance, first=gold.first, last=gold.last)
            read = [c if c.ok is not None else Call(c.name, c.args, ok, c.turn) for c, ok in zip(calls, run.outcomes)]
            calls = Calls(read, calls.excess if type(calls) is Calls else 0)
            if not live:
                diff, fingerprint = run.diff, run.fingerprint
        state = None
        if (self.state or live) and gold.executable and (diff is not None or fingerprint is not None):
            state = self._state(gold, diff, fingerprint)
        return score_calls(gold, calls, self.config, state)

    def _state(self, gold: Gold, diff: Diff | None, fingerprint: str | None) -> float:
        """The state component: `compare`'s value in `paper`; in `prove`, 1 for an episode that
        ends in the gold's state and at most `state_miss` for one that does not."""
        ref = self.gold_replay(gold)
        if diff is None:
            reached = fingerprint == ref.fingerprint
            return 1.0 if reached else min(0.0, self.config.state_miss)
        value = compare(ref.diff, diff, self.config.state_collateral).value
        if self.config.preset == "paper":
            return value
        reached = value >= 1.0 or (fingerprint is not None and fingerprint == ref.fingerprint)
        return 1.0 if reached else min(value, self.config.state_miss)

    def breakdown(self, trajectory: Mapping[str, Any], diff: Diff | None = None) -> dict[str, Any]:
        """The score's breakdown of a trajectory: the scoring callable a rollout takes
        (`prove.rollout.evaluate(..., score=scorer.breakdown, state=scorer.state)`)."""
        return self.score(trajectory, diff=diff).breakdown()

    def score_batch(self, trajectories: Iterable[Mapping[str, Any] | Any]) -> list[Score]:
        """Score many trajectories (golds prepared once per example, shared across the batch)."""
        return [self.score(t) for t in trajectories]
