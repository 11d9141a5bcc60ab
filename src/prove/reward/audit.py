"""The reward audit: every example's gold calls against corrupted versions of them.

A reward that a policy can satisfy without doing the task gets exploited. For every example the
audit scores the gold calls (which must reach the best score) and each corruption, executing
all of them on a fresh session of the example's world (so validity's third level and the state
metric are real), and reports every case where a corruption scores at least as high as gold.

Corruptions: no calls; one call dropped; two dependent calls swapped; a wrong value, and one in a
call that depends on another; a missing key; a call repeated once and three times, a write
repeated, a read repeated; random valid calls; and, for examples whose gold is an abstention,
calls. Each has several variants (which call, which key), all scored. One variation is not a
corruption: two adjacent calls of a turn that no edge orders, swapped (`alternative_order`),
must score exactly as gold does.

The calls of each variant are executed once and scored with every config audited (the
`prove` preset and the `paper` preset beside it, in the CLI). Examples of servers not installed
here are audited without execution (no outcomes, no state), and the report counts them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..calls import Call
from .config import RewardConfig, Values
from .gold import Gold, GoldStep, ToolSpec, canon, same
from .score import Score, Scorer
from .state import Replay, replay

__all__ = ["CORRUPTIONS", "AuditReport", "Finding", "audit", "corruptions"]

CORRUPTIONS: tuple[str, ...] = (
    "no_calls", "drop_one", "swap_dependent", "wrong_value", "wrong_dependent_value", "missing_key", "repeat_1",
    "repeat_3", "repeat_write", "repeat_read", "random_calls", "calls_on_abstention", "alternative_order",
)
SAME_AS_GOLD: frozenset[str] = frozenset({"alternative_order"})
_EPS = 1e-9


def _gold_calls(gold: Gold) -> list[Call]:
    return [Call(s.name, dict(s.arguments), None, s.turn) for s in gold.calls]


def _copy(calls: Iterable[Call]) -> list[Call]:
    return [Call(c.name, dict(c.args) if c.args is not None else None, None, c.turn) for c in calls]


def _other_value(value: Any, schema: Mapping[str, Any], rng: random.Random) -> Any:
    """A value of the same JSON type that differs from `value`."""
    enum = schema.get("enum") if isinstance(schema, Mapping) else None
    if isinstance(enum, list):
        others = [e for e in enum if e != value and type(e) is type(value)]
        if others:
            return rng.choice(others)
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.randint(1, 9)
    if isinstance(value, float):
        return round(value + rng.uniform(1.0, 9.0), 2)
    if isinstance(value, str):
        return value + "-X" if value.strip() else "X"
    if isinstance(value, list):
        return value + value[:1] if value else ["X"]
    if isinstance(value, dict):
        return {**value, "X": 1}
    return "X"


def _random_value(schema: Mapping[str, Any], rng: random.Random) -> Any:
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return rng.choice(enum)
    t = schema.get("type")
    t = t[0] if isinstance(t, list) and t else t
    if t == "integer":
        return rng.randint(1, 50)
    if t == "number":
        return round(rng.uniform(0.5, 500.0), 2)
    if t == "boolean":
        return rng.random() < 0.5
    if t == "array":
        return []
    if t == "object":
        return {}
    return rng.choice(["alpha", "Q-99999", "2026-01-01", "none of these"])


def _random_call(specs: Mapping[str, ToolSpec], avoid: frozenset[str], turn: int | None,
                 rng: random.Random) -> Call:
    """A schema-valid call to an offered tool, preferring tools that no gold call uses."""
    names = sorted(n for n in specs if n not in avoid) or sorted(specs)
    if not names:
        return Call("unlisted_tool", {}, None, turn)
    spec = specs[rng.choice(names)]
    required = {k for k, _ in spec.required}
    args = {}
    for key, schema in spec.properties.items():
        if key in required or rng.random() < 0.3:
            args[key] = _random_value(schema if isinstance(schema, Mapping) else {}, rng)
    return Call(spec.name, args, None, turn)


def _sample(items: list[Any], k: int, rng: random.Random) -> list[Any]:
    return items if len(items) <= k else rng.sample(items, k)


def corruptions(gold: Gold, rng: random.Random, max_variants: int = 8,
                values: Values | None = None) -> list[tuple[str, str, list[Call]]]:
    """The corrupted call lists of one example: (corruption, variant, calls).

    `values` is the value normalisation of the audited config: a "wrong" value must differ
    after it.
    """
    values = values or Values()
    out: list[tuple[str, str, list[Call]]] = []
    calls = _gold_calls(gold)
    steps = gold.calls
    n = len(calls)
    if n == 0:
        for k in (1, 2):
            made = [_random_call(gold.specs, frozenset(), None, rng) for _ in range(k)]
            out.append(("calls_on_abstention", " + ".join(c.name or "?" for c in made), made))
        return out
    out.append(("no_calls", "", []))
    for i in _sample(list(range(n)), max_variants, rng):
        out.append(("drop_one", f"drop {steps[i].id}", [c for j, c in enumerate(_copy(calls)) if j != i]))
    # Two equal calls (the same read asked twice) swapped are gold itself: no corruption.
    edges = [(j, g) for j, g in gold.edges if (calls[j].name, calls[j].args) != (calls[g].name, calls[g].args)]
    for j, g in _sample(edges, max_variants, rng):
        swapped = _copy(calls)
        swapped[j], swapped[g] = swapped[g], swapped[j]
        swapped[j].turn, swapped[g].turn = calls[j].turn, calls[g].turn  # a position keeps its turn
        out.append(("swap_dependent", f"swap {steps[j].id}<->{steps[g].id}", swapped))
    slots = [(i, k) for i, s in enumerate(steps) for k in s.arguments]
    for i, key in _sample(slots, max_variants, rng):
        step: GoldStep = steps[i]
        spec = gold.specs.get(step.name)
        schema = spec.properties.get(key, {}) if spec else {}
        fold = next((f for k, _, f, _ in step.values if k == key), False)
        value = step.arguments[key]
        new = _other_value(value, schema if isinstance(schema, Mapping) else {}, rng)
        if same(canon(value, fold, values), new, fold, values):
            continue
        changed = _copy(calls)
        changed[i].args[key] = new  # type: ignore[index]
        out.append(("wrong_dependent_value" if step.deps else "wrong_value", f"{step.id}.{key}={new!r}", changed))
    keyed = [(i, k) for i, s in enumerate(steps) for k in s.keys]
    for i, key in _sample(keyed, max_variants, rng):
        dropped = _copy(calls)
        del dropped[i].args[key]  # type: ignore[union-attr]
        out.append(("missing_key", f"{steps[i].id} without {key}", dropped))
    for times, label in ((1, "repeat_1"), (3, "repeat_3")):
        for i in _sample(list(range(n)), max_variants, rng):
            repeated = _copy(calls)
            repeated[i + 1:i + 1] = _copy([calls[i]] * times)
            out.append((label, f"{steps[i].id} x{times + 1}", repeated))
    for label, read in (("repeat_write", False), ("repeat_read", True)):
        kind = [i for i, s in enumerate(steps) if bool((spec := gold.specs.get(s.name)) and spec.read) is read]
        for i in _sample(kind, max_variants, rng):
            repeated = _copy(calls)
            repeated[i + 1:i + 1] = _copy([calls[i]])
            out.append((label, f"{steps[i].id} x2", repeated))
    free = [i for i in range(n - 1) if steps[i].turn == steps[i + 1].turn and i not in steps[i + 1].deps]
    for i in _sample(free, max_variants, rng):
        swapped = _copy(calls)
        swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
        out.append(("alternative_order", f"{steps[i + 1].id} before {steps[i].id}", swapped))
    for v in range(3):
        made = [_random_call(gold.specs, gold.names, s.turn, rng) for s in steps]
        out.append(("random_calls", f"#{v + 1}: " + " + ".join(c.name or "?" for c in made), made))
    return out


@dataclass
class Finding:
    """A corruption that scored at least as high as gold on one example (its best variant), or a
    variation that must score as gold does and scored lower (`punished`)."""

    example: str
    corruption: str
    variant: str
    score: float
    gold: float
    verdict: str  # "tie", "beat" or "punished"
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return dict(example=self.example, corruption=self.corruption, variant=self.variant, score=self.score,
                    gold=self.gold, verdict=self.verdict, note=self.note)


@dataclass
class _Tally:
    scores: list[float] = field(default_factory=list)
    states: list[float] = field(default_factory=list)
    examples: set[str] = field(default_factory=set)
    ties: int = 0
    beats: int = 0
    punished: int = 0

    def summary(self) -> dict[str, Any]:
        n = len(self.scores)
        return {
            "variants": n, "examples": len(self.examples),
            "mean": sum(self.scores) / n if n else None, "max": max(self.scores) if n else None,
            "mean_state": sum(self.states) / len(self.states) if self.states else None,
            "ties": self.ties, "beats": self.beats, "punished": self.punished,
        }


@dataclass
class AuditReport:
    """What the audit found for one config.

    `ok`: gold is at the best everywhere and nothing beats it; `strict_ok`: besides, nothing
    ties it and no alternative order is punished (what `prove reward audit --strict` requires).
    """

    preset: str
    examples: int
    best: float
    gold_mean: float
    gold_below_best: list[dict[str, Any]]
    corruptions: dict[str, dict[str, Any]]
    findings: list[Finding]
    not_executed: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.gold_below_best and not any(f.verdict == "beat" for f in self.findings)

    @property
    def strict_ok(self) -> bool:
        return not self.gold_below_best and not self.findings

    def to_dict(self) -> dict[str, Any]:
        return {
            "preset": self.preset, "ok": self.ok, "strict_ok": self.strict_ok, "examples": self.examples,
            "best": self.best, "gold_mean": self.gold_mean, "not_executed": self.not_executed,
            "gold_below_best": self.gold_below_best, "corruptions": self.corruptions,
            "findings": [f.to_dict() for f in self.findings],
        }


def _why(score: Score) -> str:
    low = [f"{c}={v:.3g}" for c, v in score.components.items() if v is not None and c != "efficiency" and v < 1 - _EPS]
    if score.components.get("efficiency", 0.0) < -_EPS:
        low.append(f"efficiency={score.components['efficiency']:.3g}")
    return ", ".join(low) or "below the best"


class _Audit:
    """The running audit of one config."""

    def __init__(self, config: RewardConfig) -> None:
        self.config = config
        self.scorer = Scorer((), config, execute=True, state=True)
        self.tallies = {name: _Tally() for name in CORRUPTIONS}
        self.findings: list[Finding] = []
        self.below: list[dict[str, Any]] = []
        self.gold_total = 0.0
        self.count = 0

    def score(self, gold: Gold, calls: list[Call], run: Replay | None) -> Score:
        if run is None:
            return self.scorer.score_calls(gold, calls)
        return self.scorer.score_calls(gold, calls, diff=run.diff, fingerprint=run.fingerprint)

    def report(self, not_executed: list[str]) -> AuditReport:
        return AuditReport(
            preset=self.config.preset, examples=self.count, best=self.config.best(state=True),
            gold_mean=self.gold_total / self.count if self.count else 0.0, gold_below_best=self.below,
            corruptions={name: t.summary() for name, t in self.tallies.items() if t.scores},
            findings=self.findings, not_executed=not_executed)


def _run(gold: Gold, calls: list[Call]) -> tuple[list[Call], Replay | None]:
    """The calls with their outcomes and the replay of them, once for every config audited."""
    if not gold.executable:
        return calls, None
    run = replay(gold.servers, gold.world, [(c.name, c.args, c.turn) for c in calls], offered=gold.specs,
                 prefix=gold.prefix, advance=gold.advance, first=gold.first, last=gold.last)
    return [Call(c.name, c.args, ok, c.turn) for c, ok in zip(calls, run.outcomes)], run


def audit(examples: Iterable[Any], config: RewardConfig | None = None, *, seed: int = 0, max_variants: int = 8,
          progress: Callable[[int], None] | None = None,
          also: Iterable[RewardConfig] = ()) -> AuditReport | list[AuditReport]:
    """Score every example's gold and its corruptions (executed live) and report the weak spots.

    Args:
        examples: `Example` records; those of servers not installed are audited without execution.
        config: the reward settings audited.
        seed: seeds the choice of variants and the random calls.
        max_variants: at most this many variants of each corruption per example.
        progress: called with 1 after each example.
        also: more configs scored on the same executed variants (the `paper` preset beside
            `prove`); with any, a list of reports, `config`'s first.
    """
    config = config or RewardConfig()
    also = list(also)
    audits = [_Audit(c) for c in [config, *also]]
    not_executed: list[str] = []
    for example in examples:
        golds = [a.scorer.add(example) for a in audits]
        gold = golds[0]
        if gold.servers and not gold.executable:
            not_executed.append(gold.id)
        gold_calls, gold_run = _run(gold, _gold_calls(gold))
        rng = random.Random(f"{seed}:{gold.id}")
        variants = [(name, variant, *_run(gold, calls))
                    for name, variant, calls in corruptions(gold, rng, max_variants, config.values)]
        for a, g in zip(audits, golds):
            a.count += 1
            gs = a.score(g, gold_calls, gold_run)
            a.gold_total += gs.total
            best = a.config.best(abstain=not g.calls, state=gs.components.get("state") is not None)
            if gs.total < best - _EPS:
                a.below.append({"example": g.id, "score": gs.total, "best": best, "why": _why(gs)})
            if g.calls and g.fingerprint and gold_run is not None and gold_run.fingerprint != g.fingerprint:
                a.below.append({"example": g.id, "score": gs.total, "best": best,
                                "why": f"the gold replay ends in fingerprint {gold_run.fingerprint}, the record "
                                       f"says {g.fingerprint}"})
            top: dict[str, tuple[float, str, Score]] = {}
            low: dict[str, tuple[float, str, Score]] = {}
            for name, variant, calls, run in variants:
                s = a.score(g, calls, run)
                tally = a.tallies[name]
                tally.scores.append(s.total)
                tally.examples.add(g.id)
                if s.components.get("state") is not None:
                    tally.states.append(s.components["state"])  # type: ignore[arg-type]
                if name not in top or s.total > top[name][0]:
                    top[name] = (s.total, variant, s)
                if name not in low or s.total < low[name][0]:
                    low[name] = (s.total, variant, s)
            for name, (total, variant, s) in top.items():
                if name in SAME_AS_GOLD:
                    total, variant, s = low[name]
                    if total < gs.total - _EPS:
                        a.tallies[name].punished += 1
                        a.findings.append(Finding(g.id, name, variant, total, gs.total, "punished", _why(s)))
                    continue
                if total >= gs.total - _EPS:
                    verdict = "beat" if total > gs.total + _EPS else "tie"
                    a.tallies[name].ties += verdict == "tie"
                    a.tallies[name].beats += verdict == "beat"
                    note = ""
                    if verdict == "tie" and name.startswith("repeat") and s.n_calls <= s.budget:
                        note = f"{s.n_calls} calls, within the budget of {s.budget}"
                    a.findings.append(Finding(g.id, name, variant, total, gs.total, verdict, note))
        if progress is not None:
            progress(1)
    reports = [a.report(not_executed) for a in audits]
    return reports if also else reports[0]
