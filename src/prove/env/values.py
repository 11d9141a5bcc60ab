"""Small helpers every server needs for user-supplied values: quoting, LIKE, money, times.

Tools raise `ToolError` for a value the model can correct; these helpers do it with one wording
across every server.
"""

from __future__ import annotations

from datetime import date, datetime

from .errors import ToolError

_EARLIEST, _LATEST = 2000, 2099


def quote(value: object, width: int = 40) -> str:
    """A caller's value quoted for an error message, cut to about `width` characters."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 2] + "…" + text[-1]


def like(text: str) -> str:
    """A case-insensitive `LIKE ? ESCAPE '\\'` pattern matching `text` anywhere, literally."""
    escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def money(value: float) -> float:
    """Dollars rounded to cents (never -0.0)."""
    return round(value, 2) + 0.0


def iso(moment: datetime) -> str:
    """A simulated local time as stored and shown: '2026-03-16T09:00:00'."""
    return moment.isoformat(timespec="seconds")


def parse_time(value: str, name: str, *, code: str = "invalid_time") -> datetime:
    """An ISO 8601 local time such as '2026-03-18T14:00:00' (a bare date is its midnight).

    Raises ToolError(`code`) for text that is not one, carries a UTC offset, or lies outside the
    years 2000 to 2099.
    """
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        raise ToolError(code, f"{name} {quote(value)} is not an ISO 8601 local time.",
                        hint="Use the form '2026-03-18T14:00:00'.") from None
    if moment.tzinfo is not None:
        raise ToolError(code, f"{name} {quote(value)} carries a UTC offset; times are local.",
                        hint="Drop the offset or 'Z', as in '2026-03-18T14:00:00'.")
    if not _EARLIEST <= moment.year <= _LATEST:
        raise ToolError(code, f"{name} {quote(value)} is outside the years {_EARLIEST} to {_LATEST}.")
    return moment.replace(microsecond=0)


def parse_date(value: str, name: str, *, code: str = "invalid_date") -> date:
    """An ISO date such as '2026-03-31' (the date part of a date-time is accepted).

    Raises ToolError(`code`) for text that is not one or lies outside the years 2000 to 2099.
    """
    text = value.strip()
    try:
        day = date.fromisoformat(text) if len(text) <= 10 else datetime.fromisoformat(text).date()
    except ValueError:
        raise ToolError(code, f"{name} {quote(value)} is not an ISO date.",
                        hint="Use the form '2026-03-31'.") from None
    if not _EARLIEST <= day.year <= _LATEST:
        raise ToolError(code, f"{name} {quote(value)} is outside the years {_EARLIEST} to {_LATEST}.")
    return day
