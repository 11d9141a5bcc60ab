"""The state component: did the episode leave the world as the gold calls would have?

Beyond the paper. The gold calls are replayed on a fresh session of the same world; the
episode's row-level diff (`Session.diff()`) is compared with the gold's. Intended changes earn
credit, collateral changes (rows the gold left alone) cost a penalty:

    R_state = credit - collateral_weight * n_collateral / max(1, n_gold_rows),  clipped to [-1, 1]

`compare` is the pure comparison; `replay` is the thin function that runs calls on a session.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..env import Diff, RowChange, Session

__all__ = ["Replay", "StateScore", "compare", "replay"]


@dataclass(frozen=True, slots=True)
class StateScore:
    """The comparison of two diffs: the value and what it is made of."""

    value: float
    credit: float
    intended: int
    collateral: int


def _close(a: Any, b: Any) -> bool:
    """Equal, floats within a relative 1e-9 (a balance computed in another order)."""
    if (type(a) is float and type(b) in (int, float)) or (type(b) is float and type(a) is int):
        return a == b or abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
    return a == b


def _row_key(ch: RowChange) -> tuple[Any, ...]:
    return (ch.server, ch.table, tuple(sorted(ch.key.items())))


def _insert_credit(gold: RowChange, got: RowChange) -> float:
    """How well an inserted row reproduces a gold insert: its non-key columns (generated keys
    such as 'MV-10002' depend on what ran before), or its key when it has nothing else."""
    cols = [c for c in (gold.after or {}) if c not in gold.key]
    if not cols:
        return 1.0 if gold.key == got.key else 0.0
    after = got.after or {}
    return sum(_close(gold.after[c], after.get(c)) for c in cols) / len(cols)  # type: ignore[index]


def _row_credit(gold: RowChange, got: RowChange) -> float:
    """How much of one intended row change (an update or a delete) the episode made (0..1)."""
    if gold.op != got.op:
        return 0.0
    if gold.op == "delete":
        return 1.0
    # An update: the columns either side changed; the right ones must hold the gold's values.
    changed = set(gold.columns) | set(got.columns)
    if not changed:
        return 1.0
    right = sum(1 for c in gold.columns if _close(gold.after[c], (got.after or {}).get(c)))  # type: ignore[index]
    return right / len(changed)


def compare(gold: Iterable[RowChange], episode: Iterable[RowChange], collateral_weight: float = 0.5) -> StateScore:
    """Compare the episode's row changes with the gold's.

    Updated and deleted rows are matched by (server, table, primary key). Inserted rows are
    matched with the episode's inserted row of the same table that agrees with them on the
    most non-key columns (the same key breaks ties), because generated keys shift when the
    episode inserted something else first.
    """
    g_rows = {_row_key(ch): ch for ch in gold}
    e_rows = {_row_key(ch): ch for ch in episode}
    credit = 0.0
    matched: set[tuple[Any, ...]] = set()
    inserts: list[tuple[tuple[Any, ...], RowChange]] = []
    for key, ch in g_rows.items():
        if ch.op == "insert":
            inserts.append((key, ch))
            continue
        got = e_rows.get(key)
        if got is not None:
            matched.add(key)
            credit += _row_credit(ch, got)
    spare = [(k, ch) for k, ch in e_rows.items() if ch.op == "insert" and k not in matched]
    for key, ch in inserts:
        best, best_rank = None, (0.0, False)
        for k, got in spare:
            if k in matched or (got.server, got.table) != (ch.server, ch.table):
                continue
            rank = (_insert_credit(ch, got), k == key)
            if rank[0] > 0 and rank > best_rank:
                best, best_rank = k, rank
        if best is not None:
            matched.add(best)
            credit += best_rank[0]
    n_gold = len(g_rows)
    collateral = len(e_rows) - len(matched)
    share = credit / n_gold if n_gold else 1.0
    value = share - collateral_weight * collateral / max(1, n_gold)
    return StateScore(max(-1.0, min(1.0, value)), share, n_gold, collateral)


@dataclass(frozen=True, slots=True)
class Replay:
    """What running a list of calls on a fresh session gave."""

    outcomes: list[bool]
    diff: Diff
    fingerprint: str


def replay(servers: Sequence[str], world: int,
           calls: Iterable[tuple[str | None, Mapping[str, Any] | None, int | None]],
           offered: Iterable[str] | None = None,
           prefix: Iterable[tuple[str, Mapping[str, Any], int]] = (), advance: Sequence[int] = (),
           first: int = 0, last: int = -1) -> Replay:
    """Run calls `(name, arguments, turn)`, in order, on a fresh `Session(servers, world=world)`.

    A call without a name or with arguments that are not an object, or (when `offered` is
    given) to a tool the model was not shown, fails without touching the state: an
    environment only routes what it offered. `prefix` calls (earlier turns' gold calls, when
    one turn is scored alone, from turn `first`) run first; the diff is then taken from the
    state after them. `advance[t]` seconds of simulated time pass before turn t's first call
    (a call without a turn belongs to turn `first`), and those of every turn up to `last`
    have passed by the end.
    """
    allowed = set(offered) if offered is not None else None
    outcomes: list[bool] = []
    with Session(list(servers), world=world) as session:
        done = 0  # turns whose time has passed

        def reach(turn: int) -> None:
            nonlocal done
            while done <= turn and done < len(advance):
                if advance[done]:
                    session.advance(advance[done])
                done += 1

        base = None
        prefix = list(prefix)
        if prefix or first:
            for name, args, turn in prefix:
                reach(turn)
                session.call(name, dict(args))
            reach(first - 1)
            base = session.snapshot()
        for name, args, turn in calls:
            reach(first if turn is None or turn < first else turn)
            if name is None or args is None or (allowed is not None and name not in allowed):
                outcomes.append(False)
                continue
            outcomes.append(session.call(name, dict(args)).ok)
        reach(last)
        return Replay(outcomes, session.diff(base), session.fingerprint())
