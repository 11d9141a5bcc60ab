"""Availability: a person's free/busy time, and free slots common to several people."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated

from pydantic import Field

from prove.env import READ, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, parse_clock, parse_span, spoken_day

from .server import (
    MAX_RANGE_DAYS,
    ColleagueId,
    FreeBusy,
    Interval,
    Limit,
    SlotList,
    busy_intervals,
    clock,
    me,
    person_rows,
    require_free_busy,
)

tools = Toolset("availability")

GRID = timedelta(minutes=30)  # free slots start on the hour or the half hour


def _align(t: datetime) -> datetime:
    """`t` rounded up to the next half hour (unchanged if already on one)."""
    base = t.replace(minute=0, second=0, microsecond=0)
    while base < t:
        base += GRID
    return base


@tools.tool(effect=READ, asks=[
    "Is {person_id} free between {start} and {end}?",
    "Does {person_id} have anything scheduled between {start} and {end}?",
], reply=[
    # The generic summary gives the count but not the answer: say it's free time apart from the busy periods
    # ("1 stretch", "no stretches": a count read before its noun agrees with it).
    "{result.name} has {result.busy} stretches of busy time between {start} and {end}; any time outside them is "
    "free.",
    "Between {start} and {end}, {result.name} has {result.busy} stretches of busy time, and is free otherwise.",
    Ask("{result.name} is free the whole time between {start} and {end}.", **{"result.total": 0}),
    Ask("{result.name} has {result.busy} stretch of busy time between {start} and {end}; any time outside it is "
        "free.", **{"result.total": 1}),
])
def get_free_busy(ctx: Ctx, person_id: ColleagueId, start: str, end: str) -> FreeBusy:
    """Show when a colleague (or the user) is busy in a time window, without event details.

    Busy time comes from events the person organizes or has not declined, and from their
    private commitments. External contacts do not share their free/busy time.

    Args:
        person_id: ID of the colleague, such as 'PER-10007' (find it with search_people).
        start: beginning of the window, ISO local time such as '2026-03-18T08:00:00'.
        end: end of the window, at most 31 days after `start`, such as '2026-03-18T18:00:00'.

    Returns:
        The person and their busy periods inside the window, merged and in order; any time
        not listed is free.

    Raises:
        invalid_time: `start` or `end` is not an ISO 8601 local time between 2000 and 2099.
        end_before_start: `end` is not after `start`.
        range_too_large: the window is longer than 31 days.
        not_found: the person does not exist.
        free_busy_unavailable: the person is an external contact, not a colleague.
    """
    s, e = parse_span(start, end, max_days=MAX_RANGE_DAYS)
    (person,) = person_rows(ctx, [person_id])
    require_free_busy(person)
    busy = [Interval(start=a, end=b) for a, b in busy_intervals(ctx, person_id, iso(s), iso(e))]
    return FreeBusy(person_id=person_id, name=person["name"], start=iso(s), end=iso(e), busy=busy, total=len(busy))


@tools.tool(effect=READ, asks=[
    "Find {duration_minutes} minutes when {people} and I are free between {start} and {end}.",
    "When could I meet {people} for {duration_minutes} minutes between {start} and {end}, during {day_start} to "
    "{day_end} each day?",
    "Suggest {limit} times for a {duration_minutes}-minute call with {people} from {start} to {end}.",
    Ask("Find a {duration_minutes}-minute slot for {people} between {start} and {end}; leave my own calendar out "
        "of it.", include_me=False),
    Ask("Find {duration_minutes} minutes for {people} and me from {start} to {end}; weekends are fine.",
        include_weekends=True),
], values={
    # A slot is looked for in a working day or several, never in a window as short as the meeting
    # itself; weekends are welcome ("weekends are fine") only in a window that holds one.
    "start, end, include_weekends": [
        ("2026-03-17T09:00:00", "2026-03-17T17:00:00", False), ("2026-03-18T13:00:00", "2026-03-18T17:00:00", False),
        ("2026-03-17T09:00:00", "2026-03-19T17:00:00", False), ("2026-03-20T09:00:00", "2026-03-23T17:00:00", True),
        ("2026-03-23T09:00:00", "2026-03-27T17:00:00", False), ("2026-03-24T09:00:00", "2026-03-25T17:00:00", False),
        ("2026-03-30T09:00:00", "2026-04-03T17:00:00", False), ("2026-03-27T13:00:00", "2026-03-30T17:00:00", True),
    ],
    # Working hours: a day's stretch of several hours, its end after its start.
    "day_start, day_end": [("08:00", "16:00"), ("08:30", "17:30"), ("10:00", "18:00"), ("09:00", "13:00"),
                           ("13:00", "17:00"), ("07:30", "15:30")],
}, reply=[
    "{result.total} slots are free: {result.slots_text}.",
])
def find_free_slots(ctx: Ctx, people: Annotated[list[ColleagueId], Field(min_length=1, max_length=20)],
                    duration_minutes: Annotated[int, Field(ge=15, le=480)], start: str, end: str,
                    day_start: str = "09:00", day_end: str = "17:00", include_me: bool = True,
                    include_weekends: bool = False, limit: Limit = 10) -> SlotList:
    """Find times when several people are all free for a meeting of a given length.

    Slots start on the hour or half hour, lie inside working hours on each day of the window,
    never start before the current time, and do not overlap each other; earliest first.

    Args:
        people: person IDs of the colleagues who must attend, such as ['PER-10003', 'PER-10007'].
        duration_minutes: meeting length in minutes, 15 to 480, such as 30.
        start: beginning of the search window, ISO local time such as '2026-03-17T00:00:00'.
        end: end of the window, at most 31 days after `start`, such as '2026-03-21T00:00:00'.
        day_start: start of working hours each day, 'HH:MM', such as '09:00' (default).
        day_end: end of working hours each day, 'HH:MM', such as '17:00' (default).
        include_me: also require the user to be free (default true).
        include_weekends: also search Saturdays and Sundays (default false).
        limit: the most slots to return, from 1 to 100, such as 10.

    Returns:
        The free slots (start, end) and how many the window holds in total.

    Raises:
        invalid_time: a time or a working-hours bound is malformed or outside 2000 to 2099.
        end_before_start: `end` is not after `start`, or `day_end` is not after `day_start`.
        range_too_large: the window is longer than 31 days.
        past_date: the whole window is before the current time.
        not_found: a person does not exist.
        free_busy_unavailable: a person is an external contact, whose free/busy is not visible.
    """
    s, e = parse_span(start, end, max_days=MAX_RANGE_DAYS)
    open_at, close_at = parse_clock(day_start, "day_start"), parse_clock(day_end, "day_end")
    if close_at <= open_at:
        raise ToolError("end_before_start", f"day_end {day_end!r} is not after day_start {day_start!r}.")
    if e <= ctx.now():
        raise ToolError("past_date", f"The window ends at {iso(e)}, before now ({iso(ctx.now())}).",
                        hint="Search a window in the future.")
    rows = person_rows(ctx, people)
    for person in rows:
        require_free_busy(person)
    who = [p["person_id"] for p in rows]
    if include_me and me(ctx) not in who:
        who.append(me(ctx))
    s = _align(max(s, ctx.now()))
    busy = sorted((datetime.fromisoformat(a), datetime.fromisoformat(b))
                  for pid in who for a, b in busy_intervals(ctx, pid, iso(s), iso(e)))
    length = timedelta(minutes=duration_minutes)
    slots: list[Interval] = []
    day = s.date()
    while day <= e.date():
        if include_weekends or day.weekday() < 5:
            t, close = _align(max(s, datetime.combine(day, open_at))), min(e, datetime.combine(day, close_at))
            todays = [(a, b) for a, b in busy if a < close and b > t]
            while t + length <= close:
                clash = [b for a, b in todays if a < t + length and b > t]
                if clash:
                    t = _align(max(clash))
                    continue
                slots.append(Interval(start=iso(t), end=iso(t + length)))
                t = _align(t + length)
        day += timedelta(days=1)
    days: dict[str, list[str]] = {}
    for slot in slots[:limit]:
        at = datetime.fromisoformat(slot.start)
        days.setdefault(spoken_day(at.date(), ctx.today()), []).append(clock(at))
    more = len(slots) - len(slots[:limit])
    last = list(days)[-1] if days else None
    said = [f"{day} at " + (", ".join(times) if day == last and more or len(times) == 1
                            else ", ".join(times[:-1]) + " and " + times[-1]) for day, times in days.items()]
    return SlotList(slots=slots[:limit], total=len(slots), duration_minutes=duration_minutes, people=who,
                    slots_text="; ".join(said) + (f" and {more} more" if more else ""))
