"""The reward's components: small pure functions, one idea each (definitions in docs/reward.md).

Every function takes the model's calls (`parse.Call`) and the prepared ground truth
(`gold.Gold` / `GoldStep`) and returns a number; none of them weighs, caches or executes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ..calls import Call
from .config import Values
from .gold import Gold, GoldStep, ToolSpec, same

__all__ = [
    "align", "argument_values", "budget", "call_validity", "coverage", "efficiency", "name_precision",
    "unmatched_cost", "validity", "value_share",
]


def budget(n_gold: int, beta: float) -> int:
    """B = n_gt + ceil(n_gt * beta): how many calls cost nothing."""
    return n_gold + math.ceil(n_gold * beta)


def efficiency(n_calls: int, n_gold: int, alpha: float, beta: float, unmatched: float = 0.0) -> float:
    """R_eff = -alpha * (max(0, n_calls - B) + unmatched) / B; 0 when there is no gold.

    `unmatched` is 0 in `paper` (calls within the budget are free) and `unmatched_cost` in
    `prove` (an unmatched call is never free, a write whatever the budget).
    """
    b = budget(n_gold, beta)
    if b <= 0:
        return 0.0
    excess = max(0, n_calls - b) + unmatched
    return -alpha * excess / b if excess else 0.0


def unmatched_cost(calls: Sequence[Call], mu: Sequence[int], specs: Mapping[str, ToolSpec], read: float,
                   write: float, excess: int = 0) -> float:
    """What the calls no gold call is aligned with cost, in budget units: `read` for a call to
    a read tool, `write` for a write, a tool of unknown effect, or a call that names no offered
    tool (the `excess` calls past the parser's caps among them)."""
    used = set(mu)
    total = write * excess
    for i, c in enumerate(calls):
        if i in used:
            continue
        spec = specs.get(c.name) if c.name is not None else None
        total += read if spec is not None and spec.read else write
    return total


def call_validity(call: Call, specs: Mapping[str, ToolSpec], unknown: str = "skip") -> float:
    """Three cumulative levels: the name is offered; every required parameter is present with a
    compatible JSON type; the call executed successfully.

    A call whose outcome is unknown scores by `unknown`: `skip` averages the first two levels,
    `pass` and `fail` assume the third.
    """
    spec = specs.get(call.name) if call.name is not None else None
    if spec is None:
        return 0.0
    args = call.args
    level2 = args is not None
    if level2:
        for key, check in spec.checks:
            if key not in args or (check is not None and not check(args[key])):  # type: ignore[operator]
                level2 = False
                break
    ok = call.ok
    if ok is None:
        if unknown == "skip":
            return 1.0 if level2 else 0.5
        ok = unknown == "pass"
    if not level2:
        return 1 / 3
    return 1.0 if ok else 2 / 3


def validity(calls: Sequence[Call], specs: Mapping[str, ToolSpec], unknown: str = "skip",
             n_gold: int | None = None, excess: int = 0) -> float:
    """R_val (0 without calls).

    `paper` (no `n_gold`): the mean of `call_validity` over the model's calls, which a repeated
    valid call raises. `prove` (`n_gold` given): 1 less the calls' summed shortfalls from a valid
    call over the gold's size, at least 0; a valid call adds no shortfall, so adding calls can
    never raise it. The `excess` calls past the parser's caps are malformed calls (validity 0).
    """
    n = len(calls) + excess
    if not n:
        return 0.0
    total = 0.0
    for c in calls:
        total += call_validity(c, specs, unknown)
    if n_gold is None:
        return total / n
    return max(0.0, 1.0 - (n - total) / max(1, n_gold))


_MISSING = object()
_EXACT = (str, float, int, bool)


def value_share(step: GoldStep, args: Mapping[str, object], opts: Values) -> float:
    """The share of a gold call's arguments whose values a model call's arguments match.

    A gold argument left out by the model matches when it is the tool's default; a gold call
    without arguments is matched in full.
    """
    values = step.values
    if not values:
        return 1.0
    hit = 0
    get = args.get
    numbers = opts.numbers
    for key, gold, fold, omittable in values:
        value = get(key, _MISSING)
        if value is _MISSING:
            if omittable:
                hit += 1
            continue
        # Fast path: most values are right and already canonical (a scalar of the gold's type
        # equal to it is the same after normalisation); then the full comparison.
        t = type(value)
        if value == gold and (t is type(gold) and t in _EXACT or numbers and t is int and type(gold) is float):
            hit += 1
        elif same(gold, value, fold, opts):
            hit += 1
    return hit / len(values)


def align(gold: Gold, calls: Sequence[Call], opts: Values, causal: bool = True) -> tuple[list[int], list[float]]:
    """Match each gold call to at most one model call: mu[g] is its position, or -1.

    A model call matches gold call g when it has g's name and contains every argument key of
    g (values are not required to agree). With `causal`, a call made in user turn t can only
    match gold calls of turns <= t. Gold calls are matched in episode order; among candidates,
    the one that keeps g after its matched dependencies wins, then the one whose values agree
    best, then the earliest. Returns (mu, value share of each matched pair).
    """
    by_name: dict[str | None, list[int]] = {}
    for i, c in enumerate(calls):
        if c.args is not None:
            found = by_name.get(c.name)
            if found is None:
                by_name[c.name] = [i]
            else:
                found.append(i)
    used: set[int] = set()
    mu: list[int] = []
    shares: list[float] = []
    for step in gold.calls:
        candidates = by_name.get(step.name)
        if candidates is None:
            mu.append(-1)
            shares.append(0.0)
            continue
        keys, turn = step.keys, step.turn
        floor = -1
        for d in step.deps:
            if mu[d] > floor:
                floor = mu[d]
        best, best_after, best_share = -1, False, -1.0
        for i in candidates:
            if i in used:
                continue
            c = calls[i]
            if causal and c.turn is not None and c.turn < turn:
                continue
            args = c.args
            for k in keys:
                if k not in args:  # type: ignore[operator]
                    break
            else:
                share = value_share(step, args, opts)  # type: ignore[arg-type]
                after = i > floor
                # The best (after its dependencies, share), the earliest among equals.
                if after > best_after or (after == best_after and share > best_share):
                    best, best_after, best_share = i, after, share
                    if share == 1.0 and after:
                        break
        if best >= 0:
            used.add(best)
            mu.append(best)
            shares.append(best_share)
        else:
            mu.append(-1)
            shares.append(0.0)
    return mu, shares


def coverage(gold: Gold, mu: Sequence[int]) -> float:
    """R_cov = (1/|G|) sum_g m(g) * o(g), o(g) = prod over edges (j, g) of [mu(j) < mu(g)].

    An edge whose first call is unmatched is not satisfied.
    """
    steps = gold.calls
    if not steps:
        return 0.0
    total = 0
    for g, step in enumerate(steps):
        pos = mu[g]
        if pos < 0:
            continue
        for d in step.deps:
            if not 0 <= mu[d] < pos:
                break
        else:
            total += 1
    return total / len(steps)


def name_precision(calls: Sequence[Call], gold: Gold, causal: bool = True, counted: bool = False,
                   excess: int = 0) -> float:
    """R_name: the share of the model's calls whose name is a gold name (0 without calls).

    With `causal`, a call made in turn t counts only names of gold calls of turns <= t: a call
    made before the user asked for it (a guess instead of a clarifying question) earns nothing.
    With `counted` (`prove`), a name earns credit at most as many times as the gold uses it, so
    a repeated call is not a precise one. The `excess` calls past the parser's caps name nothing.
    """
    if not calls and not excess:
        return 0.0
    hits = 0
    names = gold.names
    upto = gold.names_upto if causal else ()
    last = len(upto) - 1
    seen: dict[str, int] = {}
    counts = gold.counts
    for c in calls:
        name = c.name
        turn = c.turn
        if turn is None or not upto:
            allowed = names
        elif turn < 0:
            continue  # before the first user turn: no gold name yet
        else:
            allowed = upto[turn if turn < last else last]
        if name in allowed:
            if counted:
                k = seen.get(name, 0)  # type: ignore[arg-type]
                if k >= counts.get(name, 0):  # type: ignore[arg-type]
                    continue
                seen[name] = k + 1  # type: ignore[index]
            hits += 1
    return hits / (len(calls) + excess)


def argument_values(mu: Sequence[int], shares: Sequence[float], exact: bool = False) -> float:
    """R_arg: the mean value share over the coverage-aligned pairs (0 when none).

    With `exact` (`prove`), a pair earns 1 only when every value matches, else 0: one wrong
    value costs a whole call's worth, at least what an unneeded call costs.
    """
    total, n = 0.0, 0
    for m, s in zip(mu, shares):
        if m >= 0:
            total += (1.0 if s >= 1.0 else 0.0) if exact else s
            n += 1
    return total / n if n else 0.0
