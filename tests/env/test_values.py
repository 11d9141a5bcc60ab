"""The shared value helpers: one wording for quoting, LIKE patterns, money and times."""

from __future__ import annotations

import sqlite3
from datetime import date, datetime

import pytest

from prove.env import ToolError
from prove.env.values import iso, like, money, parse_date, parse_time, parse_window, quote, said_in_part, spoken_day


def test_quote_cuts_long_values_and_keeps_short_ones() -> None:
    assert quote("abc") == "'abc'"
    long = quote("x" * 500)
    assert len(long) == 40 and long.endswith("…'")


def test_like_matches_literally_and_case_insensitively() -> None:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (v TEXT)")
    db.executemany("INSERT INTO t VALUES (?)", [("50% off",), ("500 off",), ("a_b",), ("axb",), ("Back\\slash",)])

    def find(text: str) -> list[str]:
        return [r[0] for r in db.execute("SELECT v FROM t WHERE lower(v) LIKE ? ESCAPE '\\'", (like(text),))]

    assert find("0% O") == ["50% off"]
    assert find("a_b") == ["a_b"]
    assert find("k\\s") == ["Back\\slash"]


def test_money_rounds_to_cents_without_negative_zero() -> None:
    assert money(10.005) in (10.0, 10.01) and money(-0.001) == 0.0 and str(money(-0.001)) == "0.0"


def test_parse_time_accepts_local_iso_and_rejects_the_rest() -> None:
    assert parse_time(" 2026-03-18T14:00:00.123 ", "start") == datetime(2026, 3, 18, 14, 0, 0)
    assert parse_time("2026-03-18", "start") == datetime(2026, 3, 18)
    assert iso(datetime(2026, 3, 16, 9, 0, 0, 5)) == "2026-03-16T09:00:00"
    for bad, fragment in (("tomorrow", "not an ISO 8601"), ("2026-03-18T14:00:00Z", "UTC offset"),
                          ("9999-01-01T00:00:00", "outside the years")):
        with pytest.raises(ToolError, match=fragment) as info:
            parse_time(bad, "start")
        assert info.value.code == "invalid_time"
    with pytest.raises(ToolError) as info:
        parse_time("nope", "when", code="invalid_datetime")
    assert info.value.code == "invalid_datetime"


def test_parse_date() -> None:
    assert parse_date("2026-03-31", "due") == date(2026, 3, 31)
    assert parse_date("2026-03-31T10:00:00", "due") == date(2026, 3, 31)
    with pytest.raises(ToolError, match="not an ISO date"):
        parse_date("31/03/2026", "due")


def test_parse_window_takes_either_bound_and_refuses_an_empty_window() -> None:
    assert parse_window(None, None) == (None, None)
    assert parse_window("2026-03-18", None) == ("2026-03-18T00:00:00", None)
    assert parse_window("2026-03-18T09:00", "2026-03-18T10:00") == ("2026-03-18T09:00:00", "2026-03-18T10:00:00")
    with pytest.raises(ToolError, match="before 2026-03-18T09:00:00 is not later than after") as info:
        parse_window("2026-03-18T09:00", "2026-03-18T09:00")
    assert info.value.code == "end_before_start"
    with pytest.raises(ToolError) as info:
        parse_window(None, "soon")
    assert info.value.code == "invalid_time"


def test_a_day_is_said_as_people_say_it_with_the_year_only_where_it_is_not_this_one() -> None:
    today = date(2026, 3, 16)
    assert spoken_day("2026-03-20T07:35:00", today) == "March 20"
    assert spoken_day(date(2027, 1, 2), today) == "January 2, 2027"


def test_things_said_in_part_count_the_rest() -> None:
    assert said_in_part([], 0, "no purchases") == "no purchases"
    assert said_in_part(["a"], 1, "none") == "a"
    assert said_in_part(["a", "b"], 2, "none") == "a and b"
    assert said_in_part(["a", "b"], 5, "none") == "a; b and 3 more"
    assert said_in_part(["a, x", "b, y"], 5, "none", noun="offer") == "a, x; b, y; and 3 more offers"
    assert said_in_part(["a, x", "b, y"], 3, "none", noun="offer") == "a, x; b, y; and 1 more offer"
    assert said_in_part(["a, x", "b, y"], 2, "none", noun="offer") == "a, x; b, y"
    assert said_in_part([], 0, "no offers", noun="offer") == "no offers"
    assert said_in_part(["a, x"], 3, "none", noun="security") == "a, x; and 2 more securities"
    assert said_in_part(["a, x"], 3, "none", noun="dish") == "a, x; and 2 more dishes"
