"""How the work servers read (calendar, crm, email, issue tracker, team chat, video meetings):
requests whose words fit their values, nameless things said by what they belong to, and replies
that answer what was asked, read off synthesized examples and off the tools' replies."""

from __future__ import annotations

from datetime import date, timedelta

from .test_reads_rest import _turns


# ----- calendar ------------------------------------------------------------------------------------------


def test_weekends_are_welcome_only_in_a_window_that_holds_one() -> None:
    """"Find 30 minutes for Emily Richardson and me from March 17 at 9:00 AM to March 19 at 5:00 PM;
    weekends are fine." searches Tuesday to Thursday: the words (and the option) say nothing."""
    calls = [call["arguments"] for call, _, _ in _turns("calendar", "find_free_slots", 150, 11)]
    weekend = [a for a in calls if a.get("include_weekends")]
    assert weekend
    for a in weekend:
        first, last = date.fromisoformat(a["start"][:10]), date.fromisoformat(a["end"][:10])
        days = [first + timedelta(days=n) for n in range((last - first).days + 1)]
        assert any(d.weekday() >= 5 for d in days), a
