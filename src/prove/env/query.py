"""The filter of a listing tool: SQL terms from its optional arguments, and their parameters.

List tools take optional filters (`status`, `account_id`, `since`, ...); each given one adds a
term to the query's WHERE, and its value to the parameters in the same order:

    where = Where()
    where.entity(ctx, "account", "t.account_id", account_id)   # not_found for an unknown ID
    where.eq("t.kind", kind)
    where.cmp("t.date", ">=", since)
    where.add("t.status != 'void'")                            # always
    rows = ctx.db.execute(f"SELECT ... FROM transactions t WHERE {where.sql}", where.params)
    total, rows = where.page(ctx.db, "transactions t", "t.date DESC, t.transaction_id DESC", limit)

A filter left at `None` adds nothing; terms are ANDed in the order they were added.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .session import Ctx


class Where:
    """The terms of one WHERE, ANDed in the order added, and the values of their `?`s."""

    __slots__ = ("terms", "params")

    def __init__(self) -> None:
        self.terms: list[str] = []
        self.params: list[Any] = []

    def add(self, term: str, *params: Any) -> None:
        """Add `term` (SQL with `?` placeholders), with the values of its placeholders in order."""
        self.terms.append(term)
        self.params.extend(params)

    def cmp(self, column: str, op: str, value: Any) -> None:
        """`column op ?` with `value`, unless `value` is None (the filter was not given)."""
        if value is not None:
            self.add(f"{column} {op} ?", value)

    def eq(self, column: str, value: Any) -> None:
        """`column = ?` with `value`, unless `value` is None."""
        self.cmp(column, "=", value)

    def entity(self, ctx: Ctx, kind: str, column: str, entity_id: Any) -> None:
        """`column = ?` for the ID of an existing `kind` entity, unless `entity_id` is None.

        An ID that names no such entity raises `not_found` (from `ctx.get`), so a filter on a
        mistyped ID is an error rather than an empty list.
        """
        if entity_id is not None:
            ctx.get(kind, entity_id)
            self.add(f"{column} = ?", entity_id)

    @property
    def sql(self) -> str:
        """The terms joined with AND; `1` when there are none (every row)."""
        return " AND ".join(self.terms) or "1"

    @property
    def clause(self) -> str:
        """`' WHERE ' + sql` to append to a FROM, or '' when there are no terms."""
        return f" WHERE {self.sql}" if self.terms else ""

    def page(self, db: sqlite3.Connection, source: str, order: str, limit: int,
             select: str = "*") -> tuple[int, list[sqlite3.Row]]:
        """How many rows of `source` (a table, or tables joined) match, and the first `limit` of them.

        The rows are `SELECT select FROM source WHERE ... ORDER BY order LIMIT limit`; the count is
        of all that match, before the limit, which a listing reports as its `total`.
        """
        (total,) = db.execute(f"SELECT count(*) FROM {source} WHERE {self.sql}", self.params).fetchone()
        rows = db.execute(f"SELECT {select} FROM {source} WHERE {self.sql} ORDER BY {order} LIMIT ?",
                          (*self.params, limit)).fetchall()
        return total, rows
