"""Small helpers every server needs for user-supplied values: quoting, LIKE, money, times, cards.

Tools raise `ToolError` for a value the model can correct; these helpers do it with one wording
and one set of rules across every server, so a model meets the same time rules everywhere:

- a time is ISO 8601 local time, '2026-03-18T14:00:00' (seconds optional; a bare date is its
  midnight); a UTC offset or 'Z' is refused, since every clock is the user's local one;
  code `invalid_time`;
- a date is '2026-03-31' (the date part of a date-time is accepted); code `invalid_date`;
- a time of day is 24-hour 'HH:MM'; code `invalid_time`;
- a window whose end is not after its start is refused with code `end_before_start`;
- years run from 2000 to 2099.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

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


def spoken_day(day: date | str, today: date) -> str:
    """A day as people say it: 'March 20', with ', 2027' where the year is not `today`'s."""
    d = date.fromisoformat(day[:10]) if isinstance(day, str) else day
    return f"{d:%B} {d.day}" + ("" if d.year == today.year else f", {d.year}")


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


def parse_clock(value: str, name: str, *, code: str = "invalid_time") -> time:
    """A 24-hour time of day such as '09:00' or '17:30'.

    Raises ToolError(`code`) for text that is not one or carries a UTC offset.
    """
    try:
        moment = time.fromisoformat(value.strip())
    except ValueError:
        raise ToolError(code, f"{name} {quote(value)} is not a time of day.",
                        hint="Use 24-hour 'HH:MM', such as '09:00' or '17:30'.") from None
    if moment.tzinfo is not None:
        raise ToolError(code, f"{name} {quote(value)} carries a UTC offset; times are local.",
                        hint="Drop the offset, as in '17:30'.")
    return moment.replace(second=0, microsecond=0)


def parse_span(start: str, end: str, *, names: tuple[str, str] = ("start", "end"),
               max_days: int | None = None) -> tuple[datetime, datetime]:
    """Two local times where `end` is after `start`, at most `max_days` apart.

    Raises ToolError `invalid_time`, `end_before_start` or `range_too_large`.
    """
    s, e = parse_time(start, names[0]), parse_time(end, names[1])
    if e <= s:
        raise ToolError("end_before_start", f"{names[1]} {iso(e)} is not after {names[0]} {iso(s)}.",
                        hint=f"Give a {names[1]} later than the {names[0]}.")
    if max_days is not None and e - s > timedelta(days=max_days):
        raise ToolError("range_too_large", f"The window spans {(e - s).days} days; at most {max_days} are allowed.",
                        hint=f"Ask about at most {max_days} days at a time.")
    return s, e


def parse_window(after: str | None, before: str | None, *,
                 names: tuple[str, str] = ("after", "before")) -> tuple[str | None, str | None]:
    """An optional window of local times, each as stored ('2026-03-18T14:00:00') or None if not given.

    Raises ToolError `invalid_time`, or `end_before_start` when both are given and `before` is not
    later than `after`.
    """
    lo = iso(parse_time(after, names[0])) if after is not None else None
    hi = iso(parse_time(before, names[1])) if before is not None else None
    if lo and hi and hi <= lo:
        raise ToolError("end_before_start", f"{names[1]} {hi} is not later than {names[0]} {lo}.")
    return lo, hi


def said_in_part(said: list[str], total: int, none: str, noun: str | None = None) -> str:
    """Things a tool's result says one by one, the rest counted ("a; b and 3 more"), or `none`
    where there is no thing. Things said with a comma of their own ("Leo: $180.00, due March 29") are
    given their `noun`, so that the count cannot read as part of the last: "a, x; b, y; and 3 more offers"."""
    if noun is not None and said:
        rest = total - len(said)
        nouns = noun if rest == 1 else noun[:-1] + "ies" if noun.endswith("y") else \
            noun + "es" if noun.endswith(("s", "sh", "ch", "x")) else noun + "s"
        return "; ".join(said) + (f"; and {rest} more {nouns}" if rest > 0 else "")
    said = [*said, f"{total - len(said)} more"] if total > len(said) else list(said)
    if not said:
        return none
    return said[0] if len(said) == 1 else "; ".join(said[:-1]) + " and " + said[-1]


def listing_said(said: list[str], total: int, asked: bool, none: str, first: int = 5, noun: str | None = None) -> str:
    """A listing's returned things in words (`said_in_part`): up to 10 each said, more the `first` of
    them; the rest counted, of all `total` that match, or where the call asked for a number (`asked`:
    "my last 10 transactions") of those returned only, not how many more there are."""
    return said_in_part(said if len(said) <= 10 else said[:first], len(said) if asked else total, none, noun)


def luhn_ok(number: str) -> bool:
    """Whether a string of digits passes the Luhn check that card numbers carry."""
    if not number.isascii() or not number.isdigit():
        return False
    total = 0
    for i, ch in enumerate(reversed(number)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def luhn_digit(body: str) -> str:
    """The check digit that makes `body` + digit pass the Luhn check."""
    for digit in "0123456789":
        if luhn_ok(body + digit):
            return digit
    raise ValueError(f"not digits: {body!r}")  # unreachable for digit strings
