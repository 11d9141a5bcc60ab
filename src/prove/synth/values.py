"""Argument values for the programmatic teacher: from the sampling context, else from the schema.

Entity references are chosen by the teacher's plan (live state or an earlier output); this
module fills everything else a person would say: amounts, dates, names, categories, free text.
It reads, in order: the live categories of a column with the parameter's name (cities,
cuisines, merchants), the JSON Schema (enum, bounds, format), and the example value every
docstring gives ("such as '2026-04-01'"), whose shape it imitates.
"""

from __future__ import annotations

import random
import re
from datetime import date, datetime, time, timedelta
from typing import Any

from ..env.fake import Fake
from ..env.world import EPOCH
from .sampler import SamplingContext

__all__ = ["DAY", "QUANTITY_KEYS", "ValueMaker", "clock", "day", "example_of", "human", "is_money", "render_value"]

_EXAMPLE = re.compile(r"""such as (?:'((?:[^'\\]|\\.|'(?=[a-z]))*)'|"([^"]*)"|(-?\d[\d,]*(?:\.\d+)?)|(\[[^\]]*\])|(true|false))""")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$")
_TIME = re.compile(r"^\d{2}:\d{2}$")
_MONTH = re.compile(r"^\d{4}-\d{2}$")
_EXPIRY = re.compile(r"^\d{2}/\d{2}$")

DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DATETIME_HUMAN = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$")
_CLOCK = re.compile(r"^\d{2}:\d{2}$")
_MONTH_ONLY = re.compile(r"^\d{4}-\d{2}$")

_SECRET_NAMES = ("pin", "password", "passcode", "token", "secret", "cvv", "cvc", "security_code")

TITLES = [
    "Quarterly planning sync", "Budget review", "Design review", "Project kickoff", "Weekly check-in",
    "Customer follow-up", "Launch retrospective", "Roadmap discussion", "Vendor call", "Team lunch",
    "Hiring debrief", "Onboarding session", "Contract renewal", "Offsite planning", "Sprint demo",
    "Dentist appointment", "Book club", "Coffee catch-up", "Invoice question", "Status update",
]
NOTES = [
    "Thanks for the quick turnaround.", "Please see the details below.", "Let me know if anything changes.",
    "Following up on our conversation last week.", "Happy to discuss further.", "This is for the March trip.",
    "Splitting the cost as agreed.", "Reminder for the team.", "Looks good to me, approved.",
    "Can we move this to next week?", "Shared expenses for the apartment.", "Birthday gift for Sam.",
    "Dinner on Friday.", "Monthly contribution.", "Deposit for the rental.", "Tickets for the concert.",
]
REASONS = [
    "ordered by mistake", "found a better price", "no longer needed", "the item arrived damaged",
    "it does not fit", "duplicate order", "plans changed", "it was charged twice",
]
WORD_POOL = ["spring", "garden", "summit", "harbor", "atlas", "nova", "maple", "orbit", "cedar", "pioneer",
             "river", "beacon", "aurora", "granite", "willow", "zen", "delta", "horizon", "lumen", "ember"]


def example_of(description: str) -> Any:
    """The example value a docstring gives for a parameter ("such as 'ACC-10001'"), or None."""
    m = _EXAMPLE.search(description or "")
    if not m:
        return None
    text, dq, num, arr, boolean = m.groups()
    if text is not None:
        return text.replace("\\'", "'")
    if dq is not None:
        return dq
    if num is not None:
        num = num.replace(",", "")
        try:
            return float(num) if "." in num else int(num)
        except ValueError:
            return None
    if arr is not None:
        items = re.findall(r"'([^']*)'", arr)
        return items or None
    if boolean is not None:
        return boolean == "true"
    return None


def render_value(value: Any) -> str:
    """A value as a person would write it in a message."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return f"{value:.2f}" if abs(value * 100 - round(value * 100)) < 1e-6 else repr(value)
    if isinstance(value, list):
        items = [render_value(v) for v in value]
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    if isinstance(value, dict):
        return _item(value) or ", ".join(f"{k.replace('_', ' ')} {render_value(v)}" for k, v in value.items())
    return str(value)


QUANTITY_KEYS = ("quantity", "qty", "count", "hours")


def _item(value: dict[str, Any]) -> str | None:
    """A line of an invoice or an order as people say it, its name quoted: "'Additional hour' (3 at
    $60.00 each)", "'Rush fee' at $50.00"."""
    name = next((value[k] for k in ("description", "name", "title", "item", "product") if isinstance(value.get(k), str)),
                None)
    quantity = next((value[k] for k in QUANTITY_KEYS if isinstance(value.get(k), (int, float))), None)
    price = next((v for k, v in value.items() if is_money(k) and isinstance(v, (int, float))), None)
    if name is None or len(value) > 3 + (quantity is None) + (price is None):
        return None
    name = f"'{name}'"
    if quantity in (None, 1):
        return name if price is None else f"{name} at ${price:,.2f}"
    if price is None:
        return f"{name} ({render_value(quantity)} of them)"
    return f"{name} ({render_value(quantity)} at ${price:,.2f} each)"


def clock(t: time) -> str:
    hour = t.hour % 12 or 12
    return f"{hour}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def day(d: date) -> str:
    text = f"{d.strftime('%B')} {d.day}"
    return text if d.year == EPOCH.year else f"{text}, {d.year}"


def human(value: Any) -> str:
    """A non-entity value as a person writes it in a message (see the module docstring)."""
    if isinstance(value, str):
        if DAY.match(value):
            try:
                return day(date.fromisoformat(value))
            except ValueError:
                return value
        if _DATETIME_HUMAN.match(value):
            try:
                moment = datetime.fromisoformat(value)
            except ValueError:
                return value
            if moment.time() == time(0, 0):  # a day's start: people just name the day
                return day(moment.date())
            return f"{day(moment.date())} at {clock(moment.time())}"
        if _MONTH_ONLY.match(value):
            try:
                return date.fromisoformat(value + "-01").strftime("%B %Y")
            except ValueError:
                return value
        if _CLOCK.match(value):
            try:
                return clock(time.fromisoformat(value))
            except ValueError:
                return value
        return value
    if isinstance(value, list):
        items = [human(v) for v in value]
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else ""
    return render_value(value)


_MONEY_WORDS = ("amount", "price", "balance", "cost", "fee", "subtotal", "limit", "budget", "tip", "deposit", "refund",
                "spent", "remaining", "salary", "rent", "target", "bid", "value_usd", "line_total", "due", "pay",
                "offer", "savings", "income", "payout", "quota", "won_", "revenue", "pipeline", "estimated_total",
                "grand_total", "order_total", "total_value", "total_paid", "market_value", "paid_total")
_NOT_MONEY = ("temp", "percent", "pct", "rating", "points", "stars", "score", "quantity", "odometer", "mile",
              "_mi", "charge_limit", "kw", "_mb", "minutes", "days", "months", "weeks", "hours", "years", "mph", "kph",
              "speed", "climate", "_pct", "degrees", "shares")


# Short words that say dollars only as a whole part of a name ("cash", "net_worth"; not "task").
_MONEY_PARTS = {"cash", "net", "ask", "bid", "close", "credits", "debits", "expenses", "proceeds", "discount",
                "pending", "worth", "credit", "debit", "charged", "gain", "loss", "pnl", "nightly", "fare"}


def is_money(name: str) -> bool:
    """Whether a parameter or result field of this name holds dollars (a price, not a rating or a count)."""
    if any(w in name for w in _NOT_MONEY) or "count" in name.split("_"):  # a discount is money, a count not
        return False
    last = name.split("_")[-1]
    if last.endswith("s") and last not in _MONEY_PARTS and not any(w in last for w in _MONEY_WORDS):
        return False  # pending_incoming_requests: a number of requests, not dollars
    return any(w in name for w in _MONEY_WORDS) or bool(set(name.split("_")) & _MONEY_PARTS)


def _nice(x: float) -> float:
    """A round-looking amount near x."""
    if x <= 0:
        return 1.0
    for step in (500, 100, 50, 25, 10, 5, 1):
        if x >= step * 4:
            return float(max(step, round(x / step) * step))
    return float(max(1, round(x)))


def _mutate(example: str, rng: random.Random) -> str:
    """A new string with the example's shape: digits for digits, letters for letters."""
    out = []
    for ch in example:
        if ch.isdigit():
            out.append(rng.choice("0123456789"))
        elif ch.isupper():
            out.append(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ"))
        elif ch.islower():
            out.append(rng.choice("abcdefghijkmnopqrstuvwxyz"))
        else:
            out.append(ch)
    return "".join(out)


class ValueMaker:
    """Candidate values for one tool's non-entity parameters, drawn with the example's RNG."""

    def __init__(self, ctx: SamplingContext | None, rng: random.Random, now: datetime = EPOCH) -> None:
        self.ctx = ctx
        self.rng = rng
        self.fake = Fake(rng)
        self.now = now

    # ----- dispatch -----------------------------------------------------------------------------

    def value(self, name: str, spec: dict[str, Any], description: str = "", attempt: int = 0) -> Any:
        """One value for parameter `name` with JSON Schema `spec`; later attempts vary more."""
        example = example_of(description or spec.get("description", ""))
        # (never a docstring's stranger for the name on the user's own card)
        mine = name.startswith("cardholder") and self._live_values("my_name")
        if attempt >= 2 and example is not None and not mine and self.rng.random() < 0.5 and _fits(example, spec):
            return example
        if spec.get("enum"):
            return self.rng.choice(spec["enum"])
        kind = spec.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), None)
        if kind == "boolean":
            return self.rng.random() < 0.5
        if kind in ("integer", "number"):
            return self.number(name, spec, example, kind == "integer")
        if kind == "array":
            return self.array(name, spec, example, attempt)
        if kind == "object":
            return self.object(spec, attempt)
        return self.string(name, spec, example, attempt)

    # ----- numbers ------------------------------------------------------------------------------

    def number(self, name: str, spec: dict[str, Any], example: Any, integer: bool) -> int | float:
        lo = spec.get("minimum", spec.get("exclusiveMinimum"))
        hi = spec.get("maximum", spec.get("exclusiveMaximum"))
        excl_lo = "exclusiveMinimum" in spec and "minimum" not in spec
        excl_hi = "exclusiveMaximum" in spec and "maximum" not in spec
        n = name.lower()
        rng = self.rng
        if integer:
            if n in ("limit", "count", "max_results", "page_size", "top"):
                v = rng.choice([3, 5, 10, 10, 20])
            elif any(w in n for w in ("quantity", "qty", "guests", "party", "seats", "people", "units", "nights")):
                v = rng.choice([1, 1, 2, 2, 3, 4])
            elif any(w in n for w in ("rating", "stars", "score")):
                v = rng.randint(int(lo) if lo is not None else 1, int(hi) if hi is not None else 5)
            elif n.endswith("month"):
                v = rng.randint(1, 12)
            elif n.endswith("year"):
                v = self.now.year + rng.randint(1, 4)
            elif "minute" in n:
                v = rng.choice([10, 15, 30, 30, 45, 60])
            elif "hour" in n:
                v = rng.choice([1, 2, 3, 4])
            elif "day" in n:
                v = rng.choice([3, 7, 7, 14, 30])
            elif "percent" in n or "pct" in n:
                v = rng.choice([5, 10, 15, 20, 25])
            elif "point" in n:
                v = rng.choice([100, 250, 500, 1000])
            elif isinstance(example, (int, float)) and not isinstance(example, bool):
                v = max(1, int(_nice(example * rng.choice([0.5, 1, 1, 2]))))
            else:
                v = rng.randint(1, 10)
        else:
            base = example if isinstance(example, (int, float)) and not isinstance(example, bool) else None
            rng_col = self._range(n)
            if base is None and rng_col is not None:
                base = max(abs(rng_col[0]), abs(rng_col[1])) / 10 or 20.0
            if base is None:
                base = 50.0
            if any(w in n for w in ("rating", "stars")):
                v = float(rng.choice([3, 3.5, 4, 4.5]))
            elif "percent" in n or "rate" in n and base < 100:
                v = float(rng.choice([5, 10, 15, 20]))
            else:
                factor = rng.choice([0.1, 0.2, 0.3, 0.5, 0.8, 1.0, 1.5])
                v = _nice(base * factor)
                # a bound, a limit or a target a person sets is round: "under $400", "$300 a day", not "$300.99"
                bound = n.startswith(("max_", "min_")) or n.endswith(("_limit", "target_amount"))
                if not bound and rng.random() < 0.25 and is_money(n):  # cents on money ($12.99), not 60.99 degrees
                    v = round(v + rng.choice([0.5, 0.25, 0.99, 0.75]), 2)
                elif not bound and rng.random() < 0.25:
                    v = round(v + 0.5, 1)
        if lo is not None:
            floor = lo + (1 if integer else 0.01) if excl_lo else lo
            if v < floor:
                v = floor if integer else round(max(floor, lo + 1), 2)
        if hi is not None:
            ceil = hi - (1 if integer else 0.01) if excl_hi else hi
            v = min(v, ceil)
        if lo is not None and hi is not None and integer and not (lo <= v <= hi):
            v = int(lo)
        if n.startswith("min") and lo is not None and v <= lo and (hi is None or lo + 1 <= hi):
            v = lo + 1  # "reviews with at least 1 star" filters nothing: a minimum above the lowest
        return int(v) if integer else float(v)

    def _range(self, name: str) -> tuple[float, float] | None:
        if self.ctx is None:
            return None
        for key in (name, name.removeprefix("min_"), name.removeprefix("max_"), "amount", "price"):
            if key in self.ctx.ranges:
                return self.ctx.ranges[key]
        return None

    # ----- strings ------------------------------------------------------------------------------

    def string(self, name: str, spec: dict[str, Any], example: Any, attempt: int) -> str:
        n = name.lower()
        ex = example if isinstance(example, str) else None
        fmt = spec.get("format")
        out = self._string(n, fmt, ex, attempt)
        max_len = spec.get("maxLength")
        if isinstance(max_len, int) and len(out) > max_len:
            out = out[:max_len]
        min_len = spec.get("minLength")
        if isinstance(min_len, int) and len(out) < min_len:
            out = out + "x" * (min_len - len(out))
        return out

    def _string(self, n: str, fmt: str | None, ex: str | None, attempt: int) -> str:
        rng = self.rng
        if fmt == "date-time" or (ex and _DATETIME.match(ex)):
            return self.datetime(n, ex)
        if fmt == "date" or (ex and _DATE.match(ex)) or (ex is None and (n.endswith("_date") or n.endswith("_on"))):
            return self.date(n, ex)
        if fmt == "time" or (ex and _TIME.match(ex)):
            return f"{rng.randint(8, 18):02d}:{rng.choice(['00', '30'])}"
        if ex and _MONTH.match(ex):
            months = rng.randint(0, 4) if self._past(n, ex) else rng.randint(0, 3)
            y, m = self.now.year, self.now.month + (-months if self._past(n, ex) else months)
            while m < 1:
                y, m = y - 1, m + 12
            while m > 12:
                y, m = y + 1, m - 12
            return f"{y:04d}-{m:02d}"
        if ex and _EXPIRY.match(ex):
            return f"{rng.randint(1, 12):02d}/{(self.now.year + rng.randint(1, 4)) % 100:02d}"
        live = self._live_values(n)
        if live and (attempt == 0 or rng.random() < 0.7):
            return rng.choice(live)
        if "email" in n or (ex and "@" in ex and " " not in ex):
            emails = self._live_values("email")
            if emails and rng.random() < 0.8:
                return rng.choice(emails)
            return self.fake.email(self.fake.person())
        if "phone" in n:
            return self.fake.phone()
        if n in ("first_name", "firstname", "given_name"):
            return self.fake.person().first
        if n in ("last_name", "lastname", "family_name", "surname"):
            return self.fake.person().last
        if n in ("cardholder", "cardholder_name", "recipient", "full_name", "contact_name", "attendee_name") or n.endswith("person"):
            # a card is in the user's own name; else one of their people
            people = (self._live_values("my_name") or self._live_values("full_name")) if n.startswith("cardholder") \
                else []
            return rng.choice(people) if people else self.fake.person().name
        if n in ("company", "company_name", "organization", "employer", "business"):
            return self.fake.company()
        if n in ("street", "address", "street_address", "address_line", "line1"):
            return self.fake.street_address()
        if n == "city":
            return self.fake.city("US").name
        if n in ("region", "state"):
            return self.fake.city("US").region
        if n in ("postal_code", "zip", "zip_code", "postcode"):
            return self.fake.digits(5)
        if n == "country":
            return "US"
        if n in ("url", "website", "link", "homepage"):
            return f"https://www.{self.fake.company().split()[0].lower()}.com"
        if n in ("query", "q", "search", "keyword", "keywords", "text", "term", "search_term") or n.endswith("_query"):
            words = self._label_words()
            if words:
                return rng.choice(words)
            return ex or rng.choice(WORD_POOL)
        if any(s in n for s in _SECRET_NAMES) or (ex and ex.isdigit()):
            return _mutate(ex, rng) if ex else self.fake.digits(4)
        if n in ("title", "subject", "summary", "headline", "topic") or n.endswith("_title"):
            return rng.choice(TITLES) if not ex or rng.random() < 0.7 else ex
        if n in ("body", "note", "notes", "memo", "message", "comment", "details", "description", "text_body",
                 "instructions", "content", "bio") or n.endswith("_note") or n.endswith("_instructions"):
            return rng.choice(NOTES) if not ex or rng.random() < 0.7 else ex
        if "reason" in n:
            return rng.choice(REASONS) if not ex or rng.random() < 0.6 else ex
        if n in ("name", "label", "nickname", "display_name") or n.endswith("_name"):
            if ex and rng.random() < 0.3:
                return ex
            return self._name_like(ex)
        if ex:
            if re.fullmatch(r"[A-Z0-9][A-Z0-9-]{3,}", ex) and attempt == 0:
                return _mutate(ex, rng)
            return ex if rng.random() < 0.6 else _mutate(ex, rng) if re.search(r"\d", ex) else ex
        return " ".join(rng.sample(WORD_POOL, 2))

    def _name_like(self, ex: str | None) -> str:
        rng = self.rng
        if ex and len(ex.split()) >= 2 and ex.split()[0][:1].isupper() and ex.split()[-1][:1].isupper():
            if rng.random() < 0.5:
                return self.fake.person().name
            return self.fake.company()
        word = rng.choice(WORD_POOL).capitalize()
        return rng.choice([f"{word} fund", f"{word} project", f"{word} list", f"{word}", f"{word} plan",
                           f"{word} {rng.choice(WORD_POOL)}"]).capitalize()

    def _past(self, n: str, ex: str | None) -> bool:
        if ex:
            try:
                text = ex if len(ex) > 7 else ex + "-01"
                return datetime.fromisoformat(text[:10]) < self.now.replace(hour=0, minute=0)
            except ValueError:
                pass
        return any(w in n for w in ("since", "after", "start", "from", "period", "past"))

    def date(self, n: str, ex: str | None) -> str:
        if "birth" in n or n in ("dob", "born_on"):  # a person's birthday: years back, not next week
            born = date(self.now.year - self.rng.randint(8, 75), self.rng.randint(1, 12), self.rng.randint(1, 28))
            return born.isoformat()
        if "expir" in n:  # a passport runs for years, not until next week
            return date(self.now.year + self.rng.randint(2, 9), self.rng.randint(1, 12), self.rng.randint(1, 28)).isoformat()
        if "target" in n:  # a savings goal is months away
            return (self.now + timedelta(days=30 * self.rng.choice([4, 6, 8, 9, 12, 18, 24]))).date().isoformat()
        days = self.rng.choice([1, 2, 3, 5, 7, 10, 14, 21, 30, 45])
        if self._past(n, ex):
            days = -days
        return (self.now + timedelta(days=days)).date().isoformat()

    def datetime(self, n: str, ex: str | None) -> str:
        days = self.rng.choice([1, 1, 2, 3, 4, 7, 8, 14])
        if self._past(n, ex):
            days = -days
        day = (self.now + timedelta(days=days)).replace(hour=self.rng.randint(8, 17),
                                                         minute=self.rng.choice([0, 0, 30]), second=0)
        text = day.isoformat(timespec="seconds")
        return text[:16] if ex and len(ex) == 16 else text

    def _live_values(self, n: str) -> list[str]:
        if self.ctx is None:
            return []
        for key in (n, n.removesuffix("s"), n.removeprefix("new_")):
            vals = self.ctx.values.get(key)
            if vals:
                return vals
        return []

    def _label_words(self) -> list[str]:
        if self.ctx is None:
            return []
        words: list[str] = []
        for kind in sorted(self.ctx.labels):
            for label in self.ctx.labels[kind].values():
                for w in re.findall(r"[A-Za-z][A-Za-z'&.-]{3,}", label):
                    w = w.rstrip(".'&-")  # a word that ends a sentence, without its stop ("Monday.")
                    if len(w) >= 4 and w.lower() not in ("ending", "with", "from", "card", "account", "and", "the"):
                        words.append(w)
        return sorted(set(words))

    # ----- containers ---------------------------------------------------------------------------

    def array(self, name: str, spec: dict[str, Any], example: Any, attempt: int) -> list[Any]:
        items = spec.get("items") or {}
        lo = spec.get("minItems", 1)
        hi = spec.get("maxItems", 3)
        k = max(lo, min(hi, self.rng.choice([1, 1, 2])))
        if items.get("enum"):
            pool = list(items["enum"])
            return self.rng.sample(pool, min(k, len(pool)))
        if items.get("type") == "string" and "email" in (name + str(example)).lower() or name in ("to", "cc", "bcc"):
            emails = self._live_values("email") or [self.fake.email(self.fake.person()) for _ in range(3)]
            return self.rng.sample(emails, min(k, len(emails)))
        if isinstance(example, list) and example and items.get("type") in (None, "string"):
            if self.rng.random() < 0.5:
                return example[:k]
        single = name.removesuffix("s") if name.endswith("s") else name
        return [self.value(single, items, items.get("description", ""), attempt) for _ in range(k)]

    def object(self, spec: dict[str, Any], attempt: int) -> dict[str, Any]:
        props = spec.get("properties") or {}
        required = spec.get("required") or []
        out = {}
        for key in props:
            if key in required or self.rng.random() < 0.3:
                out[key] = self.value(key, props[key], props[key].get("description", ""), attempt)
        return out


def _fits(value: Any, spec: dict[str, Any]) -> bool:
    kind = spec.get("type")
    if "enum" in spec:
        return value in spec["enum"]
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "array":
        return isinstance(value, list)
    if kind == "boolean":
        return isinstance(value, bool)
    return True
