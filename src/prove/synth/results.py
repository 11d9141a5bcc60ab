"""A tool's result as the assistant reads it out: a short English account, never a field dump.

`describe` renders what a read found, naming every cited ID (a later turn may refer to it).
Its rules are those of a person reading a record aloud:

- a record is headed by its name ("Olive Garden: ..."), or by its ID only where no name exists
  and the ID is what people quote (an order number) or is needed later;
- a field is said by its meaning: units come out of the key and go with the value
  (`duration_s` 26 -> "26 seconds", `straight_line_m` -> "2,770 m"), `_at` times read
  "started March 16 at 3:50 AM", `x_name` keys lose "name" ("user Adrian Morgan"), a status is
  its value ("posted"), a boolean is its subject or its negation ("not on clearance");
- a start with its end reads as a span ("March 20, 4:30 PM to 5:00 PM");
- money is dollars, ratings and other measures are plain numbers ("3.6", never "3.60");
- words repeat nothing: a field equal to the heading, or an ID nobody asked for, is left out;
- a listing says how many there are in all and which it shows, consistently.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

from .values import DAY, clock, day, human, is_money

__all__ = ["describe", "field_text", "found_count", "money", "number", "option_words", "span_of_minutes"]

# The keys a record's name is read from, in order.
LABELS = ("name", "full_name", "display_name", "title", "subject", "nickname", "handle", "username", "filename",
          "label", "product_name", "restaurant_name", "topic", "merchant", "recipient_name", "summary", "tag",
          "counterparty_name", "payee", "service_center", "address", "text", "position", "message")
# Charges and discounts a listing leaves out at zero: "fee $0.00" says nothing was paid.
_NOTHING_PAID = frozenset({"fee", "fees", "tip", "discount"})
# Fields worth saying first, when a record has them.
PRIORITY = ("handle", "status", "rating", "stars", "review_text", "text", "body", "departs_at", "departure_time", "time", "balance", "current_balance", "available_balance", "amount", "total", "price",
            "next_date", "next_due_date", "frequency", "date", "start", "due_date", "created_at")
# Unit suffixes of keys: the suffix, the words that follow the value.
_UNITS = (("_seconds", "seconds"), ("_secs", "seconds"), ("_s", "seconds"), ("_ms", "ms"), ("_minutes", "minutes"),
          ("_mins", "minutes"), ("_min", "minutes"), ("_hours", "hours"), ("_days", "days"), ("_km", "km"),
          ("_mi", "miles"), ("_miles", "miles"), ("_mph", "mph"), ("_kph", "km/h"), ("_m", "m"), ("_kw", "kW"),
          ("_kwh", "kWh"), ("_mb", "MB"), ("_gb", "GB"), ("_kb", "KB"), ("_pct", "%"), ("_percent", "%"),
          ("_deg", "degrees"), ("_f", "°F"), ("_c", "°C"), ("_psi", "psi"))
_BARE = {suffix[1:]: unit for suffix, unit in _UNITS if len(suffix) > 2}
_PERCENTS = {"battery", "probability", "humidity"}  # fields held in percent that their names do not say
_SPANS = (("start", "end"), ("starts_at", "ends_at"), ("started_at", "ended_at"), ("start_date", "end_date"),
          ("check_in", "check_out"), ("departs_at", "arrives_at"), ("valid_from", "valid_until"))
_TEXT_KEYS = ("text", "body", "description", "reason", "note", "notes", "comment", "message", "details", "bio",
              "content", "preview", "snippet", "caption", "review_text", "agenda")
_ID = re.compile(r"^[A-Z][A-Z0-9]*-\d+$")
_SAID_WHEN_OFF = {"verified", "expired", "available", "active", "open", "enabled", "refundable", "in_stock",
                  "paid", "confirmed", "online", "locked", "armed", "default", "returnable"}
_SNAKE = re.compile(r"^[a-z]+(?:_[a-z]+)+$")  # an emoji code (:speech_balloon:) has colons: not an option
_VERBATIM = ("handle", "username", "login", "slug", "email", "path", "code", "tag", "id", "name", "url", "label",
             "ticker", "symbol", "key", "emoji")
# How the user's own answer to an invitation reads.
_MY_RESPONSE = {"organizer": "you organize it", "accepted": "you accepted", "declined": "you declined",
                "tentative": "you said maybe", "needs action": "you haven't answered"}
# What a record says of the question it answers ("after March 19 at 9:30 AM"): not read out.
_ECHOES = frozenset({"after", "before", "since", "until", "as_of", "query"})
# Things a `<thing>_count` field counts, said as "3 reviews" rather than "review count 3".
_COUNTED = {"product", "review", "rating", "transaction", "item", "order", "listing", "follower", "message",
            "comment", "photo", "file", "member", "ticker", "payment", "contribution", "place", "device", "event",
            "task", "note", "contact", "deal", "issue", "post", "guest", "seat"}
# What a `<things>_<state>` count says of the things it counts: "2 devices offline", "3 seats left".
_COUNTED_STATES = {"offline", "online", "on", "off", "open", "left", "unlocked", "jammed", "armed", "used", "earned"}
# Parts of an address, said by the address where a record has one.
_ADDRESS_PARTS = ("city", "state", "region", "postal_code", "zip", "country")
# Fields nobody reads out unless the request names them (by one of these words): map coordinates,
# a file's MIME type (its kind is in its name), a stock-keeping code, a link's token (its URL says it).
_COORDINATES = frozenset({"coordinate", "latitude", "longitude"})
_UNSAID = {**dict.fromkeys(("lat", "lng", "lon", "latitude", "longitude", "coordinates"), _COORDINATES),
           "mime_type": frozenset({"mime", "format"}), "sku": frozenset({"sku"}), "token": frozenset({"token"})}
# Fields that hold the last digits of a card or account number: "ending 9096".
_ENDINGS = ("last4", "last_four", "number_ending", "card_ending")  # number_last4 too
# Words a count or measure's key starts with: the number goes first ("15 minutes before").
_LEADING_UNITS = ("seconds", "minutes", "hours", "days", "weeks", "months", "miles")
# Counts said after their number: "3 unread", "10 available".
_NUMBER_FIRST = frozenset({"unread", "unread_count", "available", "upcoming", "overdue", "pending", "remaining_count"})
# Where or by whom a thing is, said with its preposition: "in Minneapolis", "at Willow Energy".
_PLACED = {"city": "in", "neighborhood": "in", "company": "at", "store_name": "at", "street": "on"}
# Words named for a people or a place, written with their capital wherever an option holds them ("Korean").
_PROPER = re.compile(r"\b(?:italian|mexican|japanese|chinese|indian|thai|american|french|mediterranean|korean|"
                     r"vietnamese|greek|spanish|english|german)\b")
# States of a thing for sale said as "in good condition" ("new", "like new", "for parts" stand alone).
_CONDITIONS = frozenset({"good", "fair", "poor", "excellent", "acceptable"})
# Dates said as the words people use for them.
_DATED = {"due_date": "due", "close_date": "closing", "meeting_date": "on", "expected_close": "closing",
          "contact_since": "a contact since", "member_since": "a member since"}
# Who a message, review or change is from.
_BY = {"author": "by", "author_name": "by", "user_name": "by", "sender_name": "from", "from_name": "from"}
# Where things that share it were paid or done: "3 transactions (all at Target)".
_PAID_AT = frozenset({"merchant", "service_center", "store_name", "restaurant_name"})
# Who a member named by a `<role>_username` is to the record: the word said before the name.
_USER_ROLE = {"sender": "from", "recipient": "to", "rater": "by", "author": "by", "reviewer": "by"}
_ID_PEOPLE_QUOTE = ("order_id", "confirmation_code", "issue_id", "ticket_id", "invoice_id",
                    "order_number", "tracking_number", "code", "ticker", "meeting_number", "flight_number")


def _words(key: str) -> str:
    # my_role: the user's role, said to them; avg_cost: the average cost
    return unsnake(re.sub(r"\bavg_", "average_", re.sub(r"^my_", "your_", key)))


def unsnake(value: str) -> str:
    """An option's code as words: closed_lost -> closed lost, wont_fix -> won't fix, korean -> Korean."""
    return _proper(re.sub(r"\bwont\b", "won't", value.replace("_", " ")))


def _proper(words: str) -> str:
    return _PROPER.sub(lambda m: m.group(0).capitalize(), words)


def number(value: float | int, field: str = "") -> str:
    """12.5, 2770, 40,074 (a whole number's thousands marked from five digits on, so years stay 2028); a
    measure (a float: 3,159 MB as 3,333.5 MB), a count of points and a `_count` are marked from four ("3,033
    points", "8,163 followers")."""
    if isinstance(value, float):
        return f"{round(value, 2):,.2f}".rstrip("0").rstrip(".")
    name = field.rsplit(".", 1)[-1]
    counted = "points" in name or name.endswith("_count")
    return f"{int(value):,}" if abs(value) >= (1000 if counted else 10000) else str(int(value))


def span_of_minutes(minutes: int) -> str:
    """A lead time in the largest unit it fills whole: 1440 -> "1 day", 120 -> "2 hours", 90 -> "90 minutes"."""
    for size, unit in ((1440, "day"), (60, "hour"), (1, "minute")):
        if minutes and minutes % size == 0:
            n = minutes // size
            return f"{number(n)} {unit}{'' if n == 1 else 's'}"
    return "0 minutes"


def money(value: float | int) -> str:
    """Dollars as people write them: -$1,950.58."""
    return f"-${-value:,.2f}" if value < 0 else f"${value:,.2f}"


def _is_money(key: str, value: Any) -> bool:
    if key in ("total", "available"):  # a total of dollars, not of items; dollars available, not units
        return isinstance(value, float)
    return is_money(key)


def field_text(key: str, value: Any) -> str | None:
    """One field as words ("26 seconds long" style), or None when it says nothing worth reading."""
    if value is None or value == "" or value == [] or value == {}:
        return None
    if isinstance(value, bool):
        if key.startswith(("you_are_", "you_were_")):  # you_are_host -> "you're the host" / "you're not the host"
            verb, rest = key.split("_")[1], _words("_".join(key.split("_")[2:]))
            verb = "you're" if verb == "are" else f"you {verb}"
            return f"{verb} the {rest}" if value else f"{verb} not the {rest}"
        if key.startswith("you_"):  # you_follow -> "you follow" / "you don't follow"
            verb = _words(key[4:])
            return f"you {verb}" if value else f"you don't {verb}"
        if key == "is_mine":
            return "your own" if value else None
        if key == "is_member":  # the user's own membership of a channel or group
            return "you're a member" if value else "you're not a member"
        subject = key.removeprefix("is_").removeprefix("has_")
        if key.startswith("has_"):
            return f"has {_words(subject)}" if value else f"no {_words(subject)}"
        if not value and not key.startswith("is_") and subject not in _SAID_WHEN_OFF:
            return None  # "not mark read, not deleted": what is off says nothing, unless people ask it
        return _words(subject) if value else f"not {_words(subject)}"
    if isinstance(value, (int, float)):
        if key.startswith("kwh_"):  # kwh_added 13.54 -> 13.54 kWh added
            return f"{number(value)} kWh {_words(key[4:])}"
        if key.startswith("percent_"):  # percent_complete 18.7 -> 18.7% complete
            return f"{number(value)}% {_words(key[8:])}"
        if key.endswith("_count") and type(value) is int and key[:-6] in _COUNTED:  # review_count 3 -> 3 reviews
            return counted(value, key[:-6] + "s")
        counts = key.split("_")
        if type(value) is int and len(counts) == 2 and counts[0] != "my" and counts[1].endswith("s") \
                and counts[1][:-1] in _COUNTED:  # active_listings 15 -> 15 active listings
            return counted(value, key)
        if key.endswith("_yield"):  # dividend_yield 3.66 -> dividend yield 3.66%
            return f"{_words(key)} {number(value)}%"
        if (key == "stars" or key == "rating" and 1 <= value <= 5) and type(value) is int:
            return f"{value} star{'' if value == 1 else 's'}"  # a review's stars: "4 stars", not "rating 4"
        if key == "rating":  # an average of ratings: "rated 4.7"
            return f"rated {number(value)}"
        if key == "charge_limit":
            return f"charge limit {number(value)}%"
        if key == "price_level" and isinstance(value, int) and 0 < value <= 4:
            return f"price level {'$' * value}"  # a price band, not dollars
        if key.endswith("_no") and isinstance(value, int):  # version_no 1 -> version 1
            return f"{_words(key[:-3])} {value}"
        if key.split("_")[0] in _LEADING_UNITS and "_" in key:
            unit, rest = key.split("_", 1)
            if value < 0 and rest in ("until_due", "left"):  # days_until_due -9 -> 9 days overdue
                return f"{number(-value)} {unit[:-1] if value == -1 else unit} {'overdue' if 'due' in rest else 'over'}"
            if unit == "minutes" and type(value) is int:  # 15 minutes before; 1440 minutes before -> 1 day before
                return f"{span_of_minutes(value)} {_words(rest)}"
            return f"{number(value)} {unit[:-1] if value == 1 else unit} {_words(rest)}"  # 15 minutes before
        if _is_money(key, value):
            if value == 0 and "shipping" in key:  # shipping_cost 0.0 -> free shipping, not "$0.00"
                return "free shipping"
            if key == "amount":  # what a payment or a transaction is for: "Progressive: $140.85", not "amount $140.85"
                return money(value)
            return f"{_words(key)} {money(value)}"
        if type(value) is int and key in _NUMBER_FIRST:  # unread 3 -> 3 unread; no count of none is read
            return f"{number(value)} {_words(key.removesuffix('_count'))}" if value else None
        if type(value) is int and key == "total":  # a folder's total: "45 in all"
            return f"{number(value)} in all"
        if key in _BARE:  # a field named by its unit: km 2.77
            return f"{number(value)} {_BARE[key]}"
        if key in _PERCENTS:  # battery 81 -> battery 81%
            return f"{_words(key)} {number(value)}%"
        if key.endswith(("_seconds", "_secs", "_s")) and abs(value) >= 120:  # 1680 seconds -> 28 minutes
            base = _words(key[: key.rfind("_")])
            minutes = value / 60
            return f"{base} {number(round(minutes))} minutes" if minutes < 120 else f"{base} {number(round(minutes / 60, 1))} hours"
        for suffix, unit in _UNITS:
            if key.endswith(suffix) and len(key) > len(suffix) and not key[: -len(suffix)][-1:].isdigit():
                if unit == "kWh" and not value:
                    return None  # a drive on petrol used no electricity: "electric 0 kWh" says nothing
                base = _words(key[: -len(suffix)])
                if is_money(key[: -len(suffix)]) and unit != "%":
                    return f"{base} {money(value)} per {unit}"  # price_kwh 0.25 -> price $0.25 per kWh
                sep = "" if unit in ("%", "°F", "°C") else " "
                return f"{base} {number(value)}{sep}{unit}"
        head, _, state = key.partition("_")
        if type(value) is int and head.endswith("s") and not head.endswith(("ss", "us", "is")) and (
                not state or state in _COUNTED_STATES or head[:-1] in _COUNTED and "_" not in state):
            # devices 3 -> 3 devices; points_used 0 -> no points used; items_sold 3 -> 3 items sold
            return f"{counted(value, head) if value else 'no ' + _words(head)} {state}".rstrip()
        if type(value) is int and head in _COUNTED_STATES | {"saved", "unread"} and "_" not in state \
                and state.endswith("s") and not state.endswith("ss"):  # saved_places 16 -> 16 saved places
            return counted(value, key) if value else f"no {_words(key)}"
        return f"{_words(key)} {number(value)}"
    if isinstance(value, str) and key.endswith("_text") and len(key) > 5 and len(value.split()) <= 3:
        return f"{_words(key[:-5])} {value}"  # size_text '8.2 MB' -> size 8.2 MB
    if isinstance(value, str) and key.endswith("_text") and len(key) > 5 and key not in _TEXT_KEYS:
        return value  # the tool's own words for a part of its result, said as they are
    if isinstance(value, str) and key.endswith(_ENDINGS):
        return f"ending {value}"
    if isinstance(value, str) and key in _BY:
        return f"{_BY[key]} {value}"
    if isinstance(value, str):
        if (_ID.match(value) or key.endswith("_id") or key == "id") and key not in _ID_PEOPLE_QUOTE:
            return None  # an internal ID: a person names the thing, not its key
        if key.endswith("_id"):  # order_id ORD-10001 -> order ORD-10001
            return f"{_words(key[:-3])} {value}"
        value = option_words(key, value)
        if key == "my_response":  # "my response organizer" -> "you organize it"
            return _MY_RESPONSE.get(value, f"your answer {value}")
        if key == "my_role":  # the user's own role: "you're an admin", not "my role admin"
            return f"you're {'an' if value[:1] in 'aeiou' else 'a'} {value}"
        if key in ("status", "direction"):  # "completed, sent", not "direction sent"
            return _words(value)
        if key == "time_in_force":  # how long an order stands: "good till cancelled", not "time in force gtc"
            return {"gtc": "good till cancelled", "day": "day order"}.get(value, f"time in force {value}")
        if key == "audience":  # who sees a payment: "visible to friends", "public", "private"
            return f"visible to {value}" if value == "friends" else value
        if key == "kind" and value == "person":  # a person is said by their name; only a business is said so
            return None
        if key == "kind" and value not in ("fixed", "percent", "percentage"):  # "expense", "bank account", "folder"
            return _words(value)  # (but "kind fixed, value 10": there the kind says what the value is)
        if key == "frequency":  # how often a payment goes out: "monthly", "one-time"
            return "one-time" if value == "once" else value
        if key in ("next_date", "next_due_date"):  # when a recurring thing comes next: "next on March 25"
            return f"next {'due' if 'due' in key else 'on'} {human(value)}"
        if key == "address":  # where a place is: "at 1386 King Street, Olympia, WA 98592"
            return f"at {value}"
        if key in _PLACED:  # "in Minneapolis", "at Willow Energy", "on Lexington Avenue"
            return f"{_PLACED[key]} {value}"
        if key == "handle" or key == "username" and value.startswith("@"):  # a social handle: "@halls"
            return value if value.startswith("@") else f"@{value}"
        if key in _DATED and DAY.match(value):  # "due March 30", "closing March 24"
            return f"{_DATED[key]} {human(value)}"
        if key in ("at", "time", "date"):
            return human(value)  # "March 16 at 6:00 AM", not "at March 16 at 6:00 AM"
        if key == "remind_at":  # a reminder's time: "for March 16 at 2:00 PM", not "remind March 16 ..."
            return f"for {human(value)}"
        if key.endswith("_at") or key.endswith("_time"):
            return f"{_words(key.rsplit('_', 1)[0])} {human(value)}"
        if key in ("full_name", "display_name"):
            return None  # the person's name, said in the heading or not needed
        if key.endswith("_name") and key.split("_")[0] in ("from", "to", "at"):  # from_store_name: "from Westside"
            return f"{key.split('_')[0]} {value}"
        if key.endswith("_name"):
            return f"{_words(key[:-5])} {value}"
        if key.endswith("_username"):  # sender_username yusuf.adams -> from yusuf.adams; seller greencloset
            return f"{_USER_ROLE.get(key[:-9], _words(key[:-9]))} {value}"
        if key == "body":  # what a review or message says, quoted: not "body 'Works great.'"
            return f"'{_excerpt(value)}'"
        if key in _TEXT_KEYS or (key.endswith(_TEXT_KEYS) and len(value.split()) > 2) or len(value.split()) > 4:
            return f"{_words(key)} '{_excerpt(value)}'"
        if key == "priority":  # "low priority", not "priority low"
            return f"{value} priority"
        if key == "condition":  # an item for sale: "in good condition", "like new", "for parts"
            return f"in {value} condition" if value in _CONDITIONS else value
        if key == "relationship":  # who a saved traveller is to the user: "your partner"; nothing for "other"
            return None if value in ("self", "other") else f"your {value}"
        if key == "response":  # someone's answer to an invitation
            return "not answered yet" if value in ("needs action", "no response", "pending") else _words(value)
        if key in ("kind", "type", "mode", "category", "role", "trigger", "side", "format"):
            return f"{_words(key)} {_words(value)}" if "_" in value else f"{_words(key)} {value}"
        return f"{_words(key)} {_proper(human(value))}"
    if isinstance(value, list) and value and all(isinstance(v, (str, int, float)) for v in value):
        if all(isinstance(v, str) and _ID.match(v) for v in value):
            return None  # "automations AUT-10002": internal IDs, which a person does not read out
        cut = _cut(len(value), 3)
        shown = [human(v) if isinstance(v, str) else number(v) for v in value[:cut]]
        more = f" and {len(value) - cut} more" if len(value) > cut else ""
        return f"{_words(key)} {', '.join(shown)}{more}"
    return None


def _unitless(key: str) -> str:
    """A key without its unit suffix (temperature_f -> temperature)."""
    return next((key[: -len(suffix)] for suffix, _ in _UNITS if key.endswith(suffix) and len(key) > len(suffix)), key)


def _excerpt(text: str, limit: int = 80) -> str:
    """A long or multi-line text's opening, cut at a word: a reply quotes, it does not paste."""
    first = " ".join(line.strip() for line in text.strip().splitlines() if line.strip() and not line.startswith("#"))
    first = first or text.strip()
    if len(first) <= limit:
        return first
    return first[:limit].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def option_words(key: str, value: str) -> str:
    """An option's value as words (closed_lost -> closed lost); a name that only looks like one
    (a handle, a code, a path) stays as it is."""
    if _SNAKE.match(value) and not set(key.split("_")) & set(_VERBATIM):
        return _words(value)
    return value


def _span(rec: Mapping[str, Any]) -> tuple[str, str, str] | None:
    """A start with its end, read as one span: (start key, end key, words)."""
    for a, b in _SPANS:
        start, end = rec.get(a), rec.get(b)
        if isinstance(start, str) and isinstance(end, str) and start and end:
            if DAY.match(start) and DAY.match(end):
                return a, b, f"{human(start)} to {human(end)}"
            try:
                s, e = datetime.fromisoformat(start), datetime.fromisoformat(end)
            except ValueError:
                return a, b, f"{human(start)} to {human(end)}"
            if s.date() == e.date():
                return a, b, f"{day(s.date())}, {clock(s.time())} to {clock(e.time())}"
            return a, b, f"{human(start)} to {human(end)}"
    return None


def record_text(rec: Mapping[str, Any], limit: int = 4, cite: Sequence[str] = (), stress: Sequence[str] = (),
                skip: Collection[str] = (), quiet: bool = False) -> str:
    """One record: its name first, then a few telling fields; an ID only where it is needed.

    `skip` names fields not to say (what every item of a listing shares); `quiet` leaves out what
    is off ("not deleted") and a path that only repeats the name, unless the request asked for it.
    """
    # Not headed by its name where every item shares it, nor then by another name ("Yara Mitchell: March 24 ...")
    label_key = None if _label_key(rec) in skip else _label_key({k: v for k, v in rec.items() if k not in skip})
    # A post: its text's opening; a summary written to be read out ("acastillo64's $48.00 offer on ..."): whole.
    head = _excerpt(option_words(label_key, rec[label_key]), 160 if label_key == "summary" else 60) if label_key else None
    if head is None:  # an entry that holds what it is about (a saved place's place) is headed by its name
        inner = next((_label_of(v) for v in rec.values() if isinstance(v, Mapping) and _label_of(v)), None)
        head = _excerpt(inner, 60) if inner else None
    if head and head.endswith("…") and " '" in head and "'" not in head[head.rfind(" '") + 2:]:
        head += "'"  # a cut inside a quoted title closes the quote: "offer on 'Osprey Atmos…'"
    elif head and head.endswith("…") and "'" not in head:
        head = f"'{head}'"  # a text cut short is quoted, not read as a broken sentence before the colon
    # not what every item shares: "SEC-10018: ...; SEC-10018: ..." for an issue's comments
    quoted_id = next((v for k, v in rec.items() if k in _ID_PEOPLE_QUOTE and k not in skip and isinstance(v, str) and v),
                     None)
    main_id = next((v for k, v in rec.items() if (k.endswith("_id") or k == "id") and isinstance(v, str)), None)
    asked = {w.rstrip("s") for w in stress}
    own = main_id if main_id in cite or "id" in asked else None  # its own ID: where used later, or asked for
    if head is None:
        head = quoted_id or own
    elif own and own not in head:
        head = f"{head} ({own})"
    span = _span(rec)
    parts: list[str] = [span[2]] if span else []
    used = {label_key} | ({span[0], span[1]} if span else set())
    said = next((k for k in ("body", "text", "message") if k not in skip and isinstance(rec.get(k), str)
                 and rec[k].strip()), None)
    if head is None and said:  # messages about one thing, headed by what each says: "'Yes, still available!': from ..."
        head, used = f"'{_excerpt(rec[said], 60)}'", used | {said}
    # "you're the host" says who the host is: not "host James O'Brien, you are host" as well
    used |= {f"{k.split('_', 2)[2]}_name" for k, v in rec.items() if k.startswith("you_are_") and v is True}
    if label_key in ("text", "message") and head and not head.startswith("'"):  # what someone wrote, quoted: "'Thanks, noted!': posted ..."
        # (a text that quotes a name itself, "... with the code 'Family'", in double quotes: no quote closes another)
        head = f'"{head}"' if re.search(r"(?:^|\s)'[^']+'", head) else f"'{head}'"
    if label_key == "text" and head and isinstance(rec.get("speaker"), str):  # a transcript's line: who said what
        head = f"{rec['speaker']}: {head}"
        used |= {"speaker", "offset_seconds"}
    street = rec.get("street")
    if isinstance(street, str) and street and isinstance(rec.get("city"), str):  # a postal address, said as one
        place = " ".join(str(rec[k]) for k in ("region", "state", "postal_code") if rec.get(k))
        parts.append("at " + ", ".join(p for p in (street, rec["city"], place) if p))
        used |= {"street", "city", "country", *_ADDRESS_PARTS}
    ticker = rec.get("ticker")
    if isinstance(ticker, str) and ticker and head and ticker not in head and "ticker" not in skip:
        head, used = f"{head} ({ticker})", used | {"ticker"}  # "Apple Inc. (AAPL)", not "Apple Inc.: ticker AAPL"
    first = [k for k in rec if k in stress or any(part.rstrip("s") in asked for part in k.split("_"))]
    counts = {v for k, v in rec.items() if (k in ("count", "total") or k.endswith("_count")) and isinstance(v, int)}
    if "count" in asked:  # "how many ... on each?": what each holds, counted, first (unless a count field says it)
        first += [k for k, v in rec.items() if isinstance(v, list) and v and isinstance(v[0], Mapping)
                  and k not in first and len(v) not in counts]
    used |= set(skip)  # what every item shares is what the request said ("my saved places"), even when asked
    if quiet:
        used |= {k for k, v in rec.items() if (v == 0 and type(v) is int and k not in stress and not is_money(k))
                 or (v == 0 and k.split("_")[-1] in _NOTHING_PAID and not _asked(k, stress))  # "fee $0.00"
                 or k not in first and (
            v is False or (k == "path" and isinstance(v, str) and head and v.endswith("/" + str(head)) and v not in cite))}
    keys = first + [k for k in PRIORITY if k in rec and k not in first] + \
        [k for k in rec if k not in PRIORITY and k not in first]
    for key in keys:
        if len(parts) >= limit:
            break
        value = rec[key]
        if key in used or (isinstance(value, str) and head and value.strip() and value in str(head)) \
                or f"{key}_text" in rec or (key in _UNSAID and not asked & _UNSAID[key]):
            continue  # said already, says the heading again, or said by its own text form (size_text)
        if value is True and key.startswith("is_") and any(k.startswith(key[3:] + "_") and rec[k] for k in rec):
            continue  # "contact, contact since March 23, 2023": the later field says it
        if key.startswith(("max_", "min_")) and rec.get(key[4:]) == value:
            continue  # "price $39.99, max price $39.99"
        if key in ("kind", "type") and isinstance(value, str) and head and _words(value).lower() in str(head).lower():
            continue  # "Roth IRA: roth ira"
        if key in _ADDRESS_PARTS and isinstance(value, str) and value in str(rec.get("address", "")):
            continue  # "city Olympia, state WA, address '1386 King Street, Olympia, WA 98592'"
        if key == "to" and rec.get("status") == "received" and key not in first:
            continue  # "from Aisha Lopez, to ava.singh@nimbusfood.com": mail the user received is to them
        if key.endswith("_address") and rec.get(key[: -len("address")] + "name") and key not in first:
            continue  # "from Google Calendar, from address calendar-notification@google.com": the name says who
        if key == "total" and isinstance(value, int) and any(isinstance(v, list) for v in rec.values()):
            continue  # the count of a list the record carries, said with the list
        text = field_text(key, value)
        if value is None and key in first and _unitless(key) != key:  # a measure asked for that this one lacks
            text = f"no {_words(_unitless(key))}"  # "the rooms with their temperatures": "Guest Room: no temperature"
        if text is None and value == 0 and type(value) is int and key in first and key in _NUMBER_FIRST:
            text = f"0 {_words(key)}"  # "how many unread emails are in each folder?": "Archive: 0 unread"
        if key == "quantity" and isinstance(ticker, str) and type(value) is int:
            text = f"{value} share{'' if value == 1 else 's'}"  # a holding: "10 shares", not "quantity 10"
        if key == "available" and isinstance(ticker, str) and value == rec.get("quantity"):
            continue  # "10 shares, available 10": all of them are
        if text is None and "count" in asked and isinstance(value, list) and value and isinstance(value[0], Mapping) \
                and len(value) not in counts:
            text = counted(len(value), key)  # "how many tickers are on each?": "Tech: 2 items"
        if text and head and isinstance(value, (int, float)) and not isinstance(value, bool) and value \
                and _is_money(key, value) and money(value) in head:
            continue  # "acastillo64's $48.00 offer ...: amount $48.00"
        if label_key == "summary" and (key in ("kind", "description", "value") or type(value) is int
                                       and re.search(rf"(?<![\d$.,]){value}(?![\d])", str(head))):
            continue  # a summary says what the record is: "Bought 33 BND at $65.55: kind buy, quantity 33" no more
        if label_key == "summary" and isinstance(value, (int, float)) and not isinstance(value, bool) \
                and _is_money(key, value) and re.search(rf"\${number(value)}(?:\.00)?(?![\d.])", str(head)):
            continue  # "Free delivery on orders of $15 or more: ..., min subtotal $15.00"
        if text and quiet and head and isinstance(value, str) and text.endswith(human(value)) and human(value) in head:
            continue  # "Garage Camera, March 14 at 5:11 PM: started March 14 at 5:11 PM"
        if text and any(text == p or p.startswith(text + " ") for p in parts):
            continue  # "open now, open"
        top = rec.get(f"max_{key}")
        if text and _is_money(key, value) and isinstance(top, (int, float)) and top > value:
            text += f" to {money(top)}"  # "price $179.00 to $187.00", not "price $179.00, max price $187.00"
            used.add(f"max_{key}")
        share = rec.get(f"{key}_percent")
        if text and isinstance(share, (int, float)) and not isinstance(share, bool):
            text += f" ({number(share)}%)"  # "unrealized gain $27.08 (0.9%)", not "..., unrealized gain 0.9%"
            used.add(f"{key}_percent")
        if text:
            parts.append(text)
    body = ", ".join(parts)
    if head and body:
        return f"{head}: {body}"
    return head or body


def _records(data: Any) -> list[Mapping[str, Any]]:
    """Every record of a result, nested ones included."""
    out: list[Mapping[str, Any]] = []
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            out.append(item)
            stack.extend(v for v in item.values() if isinstance(v, (Mapping, list)))
        elif isinstance(item, list):
            stack.extend(item)
    return out


def _label_key(rec: Mapping[str, Any]) -> str | None:
    """The field that names a record: one of `LABELS`, else the name of what it refers to
    (a saved place's `place_name`)."""
    key = next((k for k in LABELS if isinstance(rec.get(k), str) and rec[k]), None)
    if key is None:
        key = next((k for k, v in rec.items() if k.endswith(("_name", "_title")) and isinstance(v, str) and v), None)
    if key is None:  # an archive's member: its path
        key = next((k for k, v in rec.items() if k.endswith("_path") and isinstance(v, str) and v), None)
    return key


def _label_of(rec: Mapping[str, Any]) -> str | None:
    key = _label_key(rec)
    return rec[key] if key else None


_IRREGULAR = {"people": "person", "children": "child", "men": "man", "women": "woman"}


def _plural_of(key: str, n: int) -> str:
    words = _words(key)
    last = words.split()[-1] if words else words
    if last in _IRREGULAR:
        return words if n != 1 else words[: -len(last)] + _IRREGULAR[last]
    if not words.endswith("s") or words.endswith(("ss", "us")):
        noun = "entries" if words.endswith(("history", "log")) else "items"
        return f"{words} {noun[:-3] + 'y' if n == 1 and noun == 'entries' else noun[:-1] if n == 1 else noun}"
    if n != 1:
        return words
    if words.endswith("ies"):
        return words[:-3] + "y"
    if words.endswith(("ches", "shes", "sses", "xes")):
        return words[:-2]
    return words[:-1]


def counted(n: int, key: str) -> str:
    """'3 trips', '1 bill', '3 itinerary items', '1 stage history entry'."""
    return f"{n:,} {_plural_of(key, n)}"


def found_count(data: Any) -> int | None:
    """How many things a listing found in all (its `total` when the page is shorter), or None."""
    if isinstance(data, Mapping):
        lists = [v for v in data.values() if isinstance(v, list)]
        if len(lists) == 1:
            total = data.get("total")
            return total if isinstance(total, int) and total >= len(lists[0]) else len(lists[0])
    return None


def describe(data: Any, cite: Sequence[str] = (), limit: int = 5, stress: Sequence[str] = (),
             noun: str | None = None, given: Collection[str] = ()) -> str:
    """A compact English account of a result, with the cited IDs guaranteed to appear; `stress`
    names fields said first: what the request sorted by (the headcount of "largest by headcount"),
    or words of the request a field's name holds ("with gains and losses": `unrealized_gain`);
    `noun` counts a listing's items by what the tool lists ("2 tasks", not "2 activities");
    `given`: the IDs the call was given, which a listed item's fields need not say again ("1
    comment: ..., issue PAY-10019" of the comments on issue PAY-10019)."""
    given = {v for v in given if _ID.match(v)}
    if isinstance(data, list):
        return _listing("results", data, len(data), cite, limit, stress, given=given)
    if not isinstance(data, Mapping):
        return human(data) if isinstance(data, str) else number(data) if isinstance(data, (int, float)) else ""
    lists = [(k, v) for k, v in data.items() if isinstance(v, list) and v and isinstance(v[0], Mapping)]
    identity = any(isinstance(v, str) and (k.endswith("_id") or k in LABELS) for k, v in data.items())
    if lists and identity:
        # A record that carries lists (a meeting's invitees, a deal's history): the record first.
        text = record_text(data, limit=5, cite=cite, stress=stress, skip=_ECHOES)
        key, items = max(lists, key=lambda kv: len(kv[1]))  # what it holds: its departures, its reviews
        picked = _shown(items, cite, 3)
        shared = _shared(items) | _belonging(data, items)
        shown = "; ".join(record_text(r, limit=3, cite=cite, skip=shared) for r in picked)
        more = f"; and {len(items) - len(picked):,} more" if len(items) > len(picked) else ""
        others = ", ".join(counted(len(v), k) for k, v in lists[:3] if k != key)
        each = _amount_each(items, shared)
        each = f", {each}" if each else ""
        # (items that all belong to the record, a place's reviews, name it as the request did)
        owned = any(k.endswith("_id") and k in shared and items[0][k] == v for k, v in data.items())
        named = "" if owned else _all_named(items, shared, text)
        text = "; ".join(p for p in (text, f"{counted(len(items), key)}{each}{f' ({named})' if named else ''}: "
                                           f"{shown}{more}", others) if p)
        return _finish(text, cite, data)
    if not lists and (not identity or _label_key(data) is None or data.get("total") == 0) \
            and any(isinstance(v, list) and not v for v in data.values()):
        # an empty listing (with the query it answered, or about one thing: "no departures near Silver
        # Olive"): the summary says nothing was found
        return ""
    if len(lists) > 1 and not identity:
        # A search over several kinds ("accounts", "deals"): each kind counted and read out, not the
        # whole total as the first kind's ("3 accounts in all; 1 of them" for 1 account and 2 deals).
        return "; ".join(p.rstrip(".") for k, v in lists
                         if (p := _listing(k, v, len(v), cite, min(limit, 3), stress, given=given))) + "."
    if lists:
        key, items = lists[0]
        total = data.get("total")
        total = total if isinstance(total, int) and total >= len(items) else len(items)
        # A figure of the whole listing the request asks for ("how many miles did I drive"): said with the count.
        extra = ", ".join(t for k, v in data.items() if k != "total" and isinstance(v, (int, float))
                          and not isinstance(v, bool) and _asked(k, stress) and (t := field_text(k, v)))
        return _listing(noun if noun and len(lists) == 1 else key, items, total, cite, limit, stress, extra, given)
    text = record_text(data, limit=6, cite=cite, stress=stress)
    parts = [text] if text else []
    for key, sub in [(k, v) for k, v in data.items() if isinstance(v, Mapping)][:3]:
        inner = record_text(sub, limit=3, cite=cite)
        if inner:
            parts.append(f"{_words(key)}: {inner}")
    return _finish("; ".join(parts), cite, data)


# Units a request says in full where a key abbreviates them ("miles": `_mi`).
_UNIT_WORDS = {"mile": "mi", "minute": "min", "kilometer": "km", "hour": "hours"}


def _asked(key: str, stress: Sequence[str]) -> bool:
    asked = {w.rstrip("s") for w in stress}
    asked |= {_UNIT_WORDS[w] for w in asked if w in _UNIT_WORDS}
    return bool(asked & set(key.split("_")))


def _listing(key: str, items: list[Any], total: int, cite: Sequence[str], limit: int,
             stress: Sequence[str] = (), extra: str = "", given: Collection[str] = ()) -> str:
    if not items:
        return ""
    if not isinstance(items[0], Mapping):
        cut = _cut(len(items), limit)
        shown = ", ".join(human(v) if isinstance(v, str) else number(v) if isinstance(v, (int, float)) else str(v)
                          for v in items[:cut])
        more = f" and {len(items) - cut} more" if len(items) > cut else ""
        return _finish(f"{counted(total, key)}: {shown}{more}", cite, items)
    shown = _shown(items, cite, limit)
    # What every item shares ("account Crescent Media", "kind file") is what the request said: left out.
    shared = _shared(items) | _belonging({k: v for k, v in items[0].items() if isinstance(v, str) and v in given},
                                         items)
    each = 4 if len(shown) == 1 else 2 + min(len(stress), 2)  # a few fields an item; the asked ones first
    body = "; ".join(record_text(r, limit=each, cite=cite, stress=stress, skip=shared, quiet=True) for r in shown)
    for c in cite:  # an ID every record carries (their account's) is said once, with the first
        first = body.find(f" ({c})")
        if first >= 0:
            body = body[:first + 1] + body[first + 1:].replace(f" ({c})", "")
    extra = ", ".join(p for p in (_all_named(items, shared), _each(items, shared, stress), _amount_each(items, shared),
                                  extra) if p)
    count = counted(total, key) + (f" ({extra})" if extra else "")
    if total > len(items):
        text = f"{counted(total, key)} in all{f' ({extra})' if extra else ''}; {len(shown)} of them: {body}"
    elif len(items) > len(shown):
        text = f"{count}: {body}; and {len(items) - len(shown):,} more"
    else:
        text = f"{count}: {body}"
    return _finish(text, cite, items)


def _all_named(items: list[Any], shared: Collection[str], said: str = "") -> str:
    """A name every item of a listing shares, said once with the count as what it is to them: who
    wrote them ("all by Amara Williams"), where they were paid ("all at Target"), who they were with,
    what they are about ("all about 'Stand-up'"), else what they are called ("all called 'Retro'");
    '' where they share none, or it is `said` already (a place's reviews all name the place)."""
    if len(items) < 2:
        return ""  # "1 statement (all 'Shopping Rewards Visa')"
    key = _label_key(items[0])  # what names them, not another text they share (an offer's stock message)
    named = items[0][key] if key in shared and isinstance(items[0].get(key), str) else None
    if not named or named in said:
        return ""
    if key in _BY:
        return f"all {_BY[key]} {named}"
    if key in _PAID_AT:
        return f"all at {named}"
    if key in ("payee", "counterparty_name", "recipient_name"):
        return f"all with {named}"
    if key == "position":  # "3 seats (all aisle)"
        return f"all {named}"
    if key.endswith("_title"):  # a message's listing, a reminder's event: what they are about
        return f"all about '{_excerpt(named, 60)}'"
    return f"all called '{_excerpt(named, 60)}'"


def _amount_each(items: list[Any], shared: Collection[str]) -> str:
    """An amount every item shares, said once ("6 contributions, $140.00 each"), not left out; a
    limit they share is no amount of each ("2 cards ($2,500.00 each)" would read as their price)."""
    if len(items) < 2:
        return ""
    return next((f"{money(v)} each" for k, v in items[0].items() if k in shared and k in ("amount", "price")
                 and isinstance(v, (int, float)) and not isinstance(v, bool) and v), "")


def _each(items: list[Any], shared: Collection[str], stress: Sequence[str]) -> str:
    """A count every item shares, said once where the request asks how many: "5 items each"."""
    if "count" not in stress:
        return ""
    for key in sorted(shared):
        value = items[0][key]
        if type(value) is int and (key == "count" or key.endswith("_count")):
            held = next((k for k, v in items[0].items() if isinstance(v, list) and len(v) == value), None)
            return f"{counted(value, held) if held else field_text(key, value)} each"
    return ""


def _shared(items: list[Any]) -> set[str]:
    """The fields every record of a listing holds with one value (what the request said)."""
    if len(items) < 2:
        return set()
    return {k for k, v in items[0].items() if all(isinstance(r, Mapping) and r.get(k, object()) == v for r in items[1:])}


def _belonging(record: Mapping[str, Any], items: list[Any]) -> set[str]:
    """The fields by which a record's items are its own (a place's reviews: `place_id`, and the
    `place_name` beside it), even where it holds one item: "1 review: ..., place Copper Coffee"
    says the place again."""
    keys = {k for k, v in record.items() if k.endswith("_id") and isinstance(v, str)
            and all(isinstance(r, Mapping) and r.get(k) == v for r in items)}
    names = {f"{k[:-3]}_name" for k in keys}
    return keys | {k for k in names if all(isinstance(r, Mapping) and k in r for r in items)}


def _shown(items: list[Any], cite: Sequence[str], limit: int) -> list[Any]:
    """The records to read out: those a later turn refers to first, then the first others."""
    wanted = [r for r in items if isinstance(r, Mapping) and any(c in json.dumps(r, ensure_ascii=False) for c in cite)]
    return (wanted + [r for r in items if r not in wanted])[:_cut(len(items), max(limit, len(wanted)))]


def _cut(count: int, limit: int) -> int:
    """How many of `count` things to read out: `limit`, or all where only one would be left
    ("5 scheduled payments: ...; and 1 more" leaves out what one more clause says)."""
    return count if count <= limit + 1 else limit


def _finish(text: str, cite: Sequence[str], data: Any = None) -> str:
    """The account, ended; a cited entity it does not name (by ID, or by the name of the record
    that holds the ID as its own) is added by ID."""
    named: set[str] = set()
    for rec in _records(data) if cite else ():
        label = _label_of(rec)
        key = next((k for k in rec if k.endswith("_id") or k == "id"), None)
        if label and key and isinstance(rec[key], str) and label in text:
            named.add(rec[key])
    absent = [c for c in cite if c not in text and c not in named]
    if absent:
        text += f" (IDs: {', '.join(absent)})"
    if not text:
        return ""
    return text if text.endswith((".", "!", "?", ".'", "!'", "?'")) else text + "."  # "... apart.'"
