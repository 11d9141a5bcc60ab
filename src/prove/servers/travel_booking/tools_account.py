"""Travel booking tools: the profile, travellers and their passports, saved cards, loyalty points."""

from __future__ import annotations

import re
import sqlite3
from datetime import date
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import READ, WRITE, Ask, Ctx, Sensitive, ToolError, Toolset
from prove.env.values import luhn_ok, said_in_part, spoken_day

from .server import (
    ActivityId,
    AirportCode,
    BookingId,
    Limit,
    PaymentMethodId,
    TravelerId,
)
from .world import (
    AIRPORT,
    POINT_VALUE,
    POINTS_PER_DOLLAR,
    TIER_FREE_BAGS,
    TIER_MULTIPLIER,
    card_brand,
    month_end,
)

tools = Toolset("account")

PassportNumber = Annotated[str, Sensitive(), StringConstraints(max_length=40)]
CardNumber = Annotated[str, Sensitive(), StringConstraints(max_length=40)]
CountryCode = Annotated[str, StringConstraints(strip_whitespace=True, to_upper=True, pattern=r"^[A-Za-z]{2}$")]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=60)]
Relationship = Literal["partner", "child", "parent", "friend", "colleague", "other"]
_PASSPORT = re.compile(r"^[A-Z0-9]{6,9}$")

# ----- models -------------------------------------------------------------------------------------


class Profile(BaseModel):
    traveler_id: TravelerId = Field(description="The user's own traveller ID, for booking themselves.")
    name: str
    email: str
    phone: str
    home_airport: AirportCode
    home_city: str
    loyalty_number: str
    tier: Literal["member", "silver", "gold", "platinum"]
    points_balance: int
    member_since: str
    default_payment_method_id: PaymentMethodId | None
    loyalty_text: str = Field(description="the loyalty status in words, such as 'a Silver member (loyalty number "
                                          "TB422268056) with 12,400 points'")
    profile_text: str = Field(description="the whole profile in words")


class Traveler(BaseModel):
    traveler_id: TravelerId
    full_name: str
    first_name: str
    last_name: str
    relationship: Literal["self", "partner", "child", "parent", "friend", "colleague", "other"]
    date_of_birth: str
    passport_on_file: bool
    passport_ending: str | None = Field(description="Last three characters of the passport number.")
    passport_country: str | None
    passport_expiry: str | None


class TravelerList(BaseModel):
    travelers: list[Traveler]
    total: int
    travelers_text: str = Field(description="The travellers in words, such as 'Emma Bennett (you) has a US passport "
                                            "on file, ending 532, valid until June 16, 2028'.")


class PassportOnFile(BaseModel):
    traveler_id: TravelerId
    full_name: str
    passport_number: str | None
    passport_country: str | None
    passport_expiry: str | None


class PaymentMethod(BaseModel):
    payment_method_id: PaymentMethodId
    brand: str
    nickname: str
    last4: str
    cardholder: str
    expiry: str = Field(description="MM/YY")
    expired: bool
    is_default: bool


class PaymentMethodList(BaseModel):
    payment_methods: list[PaymentMethod]
    total: int
    cards_text: str = Field(description="The cards in words, such as 'Citi Premier (Mastercard ending 4982, expires "
                                        "12/29)'.")


class Activity(BaseModel):
    activity_id: ActivityId
    occurred_at: str
    points: int = Field(description="Earned or refunded (positive) or redeemed (negative).")
    summary: str = Field(description="What the points were for.")
    booking_id: BookingId | None


class LoyaltyAccount(BaseModel):
    loyalty_number: str
    tier: Literal["member", "silver", "gold", "platinum"]
    points_balance: int
    points_value: float = Field(description="What the balance pays for, in dollars (100 points = $1).")
    flight_points_per_dollar: float = Field(description="Points per dollar paid by card for flights, with the "
                                                        "tier bonus.")
    hotel_points_per_dollar: float
    free_checked_bags: int = Field(description="Free checked bags per passenger from the tier, on any fare.")
    activity: list[Activity] = Field(description="Newest first.")
    total_activity: int
    activity_text: str = Field(description="The activity in words, such as '+2,810 points on February 28 (Bank of "
                                           "America Travel Rewards card partner points); ...'.")


_VERBS = {"Earned", "Redeemed", "Refunded", "Returned", "Welcome"}  # the words that start a line, not a name


def _activity_text(activity: list[Activity], today: date, shown: int = 10) -> str:
    said = [f"{'+' if a.points >= 0 else '-'}{abs(a.points):,} points on {spoken_day(a.occurred_at, today)} "
            f"({a.summary[:1].lower() + a.summary[1:] if a.summary.split()[0] in _VERBS else a.summary})"
            for a in activity[:shown]]
    more = f"; and {len(activity) - len(said)} more" if len(activity) > len(said) else ""
    return "; ".join(said) + more if said else "no points activity"


# ----- helpers ------------------------------------------------------------------------------------


def _traveler(row: sqlite3.Row) -> Traveler:
    number = row["passport_number"]
    return Traveler(traveler_id=row["traveler_id"], full_name=row["full_name"], first_name=row["first_name"],
                    last_name=row["last_name"], relationship=row["relationship"], date_of_birth=row["date_of_birth"],
                    passport_on_file=number is not None, passport_ending=number[-3:] if number else None,
                    passport_country=row["passport_country"], passport_expiry=row["passport_expiry"])


def _day(value: str, today: date) -> str:
    d = date.fromisoformat(value)
    return f"{d:%B} {d.day}" + ("" if d.year == today.year else f", {d.year}")


def _travelers_text(travelers: list[Traveler], today: date) -> str:
    """'Emma Bennett (you) has a US passport on file, ending 532, valid until June 16, 2028 and Nia
    Bennett (your child) has no passport on file'."""
    parts = []
    for t in travelers:
        who = t.full_name if t.relationship == "other" else \
            f"{t.full_name} ({'you' if t.relationship == 'self' else 'your ' + t.relationship})"
        has = "has"
        if t.relationship == "self" and len(travelers) == 1:  # "Do I have a passport on file?": "you have ..."
            who, has = "you", "have"
        if not t.passport_on_file or t.passport_expiry is None:
            parts.append(f"{who} {has} no passport on file")
            continue
        country = t.passport_country or ""
        article = "an" if country[:1] in ("A", "E", "F", "H", "I", "L", "M", "N", "O", "R", "S", "X") else "a"
        valid = "that expired" if t.passport_expiry < today.isoformat() else "valid until"
        parts.append(f"{who} {has} {article} {country} passport on file, ending {t.passport_ending}, "
                     f"{valid} {_day(t.passport_expiry, today)}")
    return said_in_part(parts, len(parts), "none")


def _cards_text(cards: list[PaymentMethod]) -> str:
    """'Citi Premier (Mastercard ending 4982, expires 12/29, your default)'."""
    return said_in_part([f"{c.nickname} ({c.brand} ending {c.last4}, {'expired' if c.expired else 'expires'} {c.expiry}"
                    f"{', your default' if c.is_default else ''})" for c in cards], len(cards), "none")


def _passport(ctx: Ctx, number: str, expiry: date) -> str:
    """The passport number normalised ('548201937'), or `invalid_passport` / `passport_expired`."""
    cleaned = re.sub(r"[\s-]", "", number).upper()
    if not _PASSPORT.match(cleaned):
        raise ToolError("invalid_passport", "A passport number is 6 to 9 letters and digits.",
                        hint="Ask the traveller to read the number from the passport's photo page.")
    if expiry < ctx.today():
        raise ToolError("passport_expired", f"A passport that expired on {expiry} cannot be saved.",
                        hint="Ask for the renewed passport's details.")
    return cleaned


def _method(ctx: Ctx, row: sqlite3.Row) -> PaymentMethod:
    return PaymentMethod(payment_method_id=row["payment_method_id"], brand=row["brand"], nickname=row["nickname"],
                         last4=row["last4"], cardholder=row["cardholder"], expiry=row["expiry"],
                         expired=row["expires_on"] < ctx.today().isoformat(), is_default=bool(row["is_default"]))


# ----- tools --------------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "What's my home airport and loyalty status?",
    "Show me my travel profile.",
], reply=[
    "Your home airport is {result.home_airport} ({result.home_city}), and you're {result.loyalty_text}.",
    "Your profile: {result.profile_text}.",
])
def get_profile(ctx: Ctx) -> Profile:
    """Show the signed-in user's profile: name, contact, home airport, loyalty tier and points.

    Returns:
        The user's own traveller ID, name, e-mail, phone, home airport and city, loyalty number,
        tier and points balance, member-since date and default card.
    """
    a = ctx.db.execute("SELECT a.*, t.full_name FROM accounts a JOIN travelers t USING (traveler_id)").fetchone()
    default = ctx.db.execute("SELECT payment_method_id FROM payment_methods WHERE is_default = 1").fetchone()
    tier = "a member" if a["tier"] == "member" else f"a {a['tier'].capitalize()} member"
    loyalty = f"{tier} (loyalty number {a['loyalty_number']}) with {a['points_balance']:,} points"
    home = f"{a['home_airport']} ({AIRPORT[a['home_airport']][2]})"
    since = spoken_day(a["member_since"], ctx.today())
    text = (f"{a['full_name']}, home airport {home}; {tier} since {since} (loyalty number {a['loyalty_number']}) with "
            f"{a['points_balance']:,} points; e-mail {a['email']}, phone {a['phone']}")
    return Profile(traveler_id=a["traveler_id"], name=a["full_name"], email=a["email"], phone=a["phone"],
                   home_airport=a["home_airport"], home_city=AIRPORT[a["home_airport"]][2],
                   loyalty_number=a["loyalty_number"], tier=a["tier"], points_balance=a["points_balance"],
                   member_since=a["member_since"], default_payment_method_id=default[0] if default else None,
                   loyalty_text=loyalty, profile_text=text)


@tools.tool(effect=READ, asks=[
    "Who do I have saved as travellers?",
    "Does my {relationship} have a passport on file?",
    Ask("Do I have a passport on file?", relationship="self"),
    Ask("Which of my kids are saved as travellers, and do they have passports on file?", relationship="child"),
], reply=[
    Ask("Your saved travellers: {result.travelers_text}.", relationship=None),
    "{result.travelers_text}.",
], values={"relationship": ["partner", "child", "parent", "friend", "colleague"]})
def list_travelers(ctx: Ctx, relationship: Literal["self", "partner", "child", "parent", "friend", "colleague",
                                                   "other"] | None = None) -> TravelerList:
    """List the people the user books for: themselves and saved companions, with passport status.

    Args:
        relationship: only travellers of this relationship to the user: 'self', 'partner', 'child',
            'parent', 'friend', 'colleague' or 'other'.

    Returns:
        The travellers (ID, names, relationship, date of birth, whether a passport is on file, its
        last three characters, country and expiry) and how many there are.
    """
    sql, params = "SELECT * FROM travelers", ()
    if relationship is not None:
        sql, params = sql + " WHERE relationship = ?", (relationship,)
    rows = ctx.db.execute(sql + " ORDER BY traveler_id", params).fetchall()
    travelers = [_traveler(r) for r in rows]
    return TravelerList(travelers=travelers, total=len(rows), travelers_text=_travelers_text(travelers, ctx.today()))


@tools.tool(effect=WRITE, asks=[
    "Save {first_name} {last_name}, born {date_of_birth}, as a traveller.",
    "Add my {relationship} {first_name} {last_name} (born {date_of_birth}); passport {passport_number}, "
    "expires {passport_expiry}.",
    "Please add {first_name} {last_name}, date of birth {date_of_birth}, with a {passport_country} passport "
    "{passport_number} valid until {passport_expiry}.",
], reply=[
    "{result.full_name} is saved as a traveller.",
    "Done: you can now book for {result.full_name}.",
], values={
    # somebody new (a name no world's travellers have), of an age that fits what they are to the user
    "first_name, last_name, relationship, date_of_birth": [
        ("Rosa", "Delgado", "friend", "1991-04-12"), ("Tobias", "Lindqvist", "colleague", "1986-09-30"),
        ("Amara", "Okoye", "friend", "1994-01-18"), ("Hana", "Sato", "colleague", "1989-11-23"),
        ("Oskar", "Brandt", "parent", "1958-03-14"), ("Lucia", "Navarro", "parent", "1961-08-02"),
    ],
})
def add_traveler(ctx: Ctx, first_name: Name, last_name: Name, date_of_birth: date,
                 relationship: Relationship = "other", passport_number: PassportNumber | None = None,
                 passport_country: CountryCode | None = None, passport_expiry: date | None = None) -> Traveler:
    """Save a companion the user books for, optionally with their passport.

    Args:
        first_name: first name as on their ID, such as 'Maya'.
        last_name: last name as on their ID, such as 'Okafor'.
        date_of_birth: their date of birth, such as '1990-07-14'.
        relationship: 'partner', 'child', 'parent', 'friend', 'colleague' or 'other'.
        passport_number: passport number, 6 to 9 letters and digits, such as '548201937'.
        passport_country: issuing country of the passport as an ISO code, such as 'US'; default 'US'.
        passport_expiry: the passport's expiry date, required with a passport number, such as '2031-05-20'.

    Returns:
        The saved traveller.

    Raises:
        duplicate_traveler: a traveller with the same name and date of birth is already saved.
        invalid_date_of_birth: the date of birth is in the future or before 1900.
        invalid_passport: the passport number is malformed, or passport details were given without
            the number or the number without its expiry.
        passport_expired: the passport has already expired.
    """
    if date_of_birth > ctx.today() or date_of_birth < date(1900, 1, 1):
        raise ToolError("invalid_date_of_birth", f"{date_of_birth} is not a possible date of birth.",
                        hint="Give the date of birth as YYYY-MM-DD.")
    full = f"{first_name} {last_name}"
    same = ctx.db.execute("SELECT traveler_id FROM travelers WHERE lower(full_name) = lower(?) AND date_of_birth = ?",
                          (full, date_of_birth.isoformat())).fetchone()
    if same is not None:
        raise ToolError("duplicate_traveler", f"{full} (born {date_of_birth}) is already saved as {same[0]}.",
                        hint="Use that traveller; update_traveler_passport changes their passport.")
    number = None
    if passport_number is not None or passport_expiry is not None or passport_country is not None:
        if passport_number is None or passport_expiry is None:
            raise ToolError("invalid_passport", "A passport needs both its number and its expiry date.",
                            hint="Give passport_number and passport_expiry together.")
        number = _passport(ctx, passport_number, passport_expiry)
    traveler_id = ctx.new_id("TRV")
    ctx.db.execute(
        "INSERT INTO travelers (traveler_id, first_name, last_name, full_name, relationship, date_of_birth, "
        "passport_number, passport_country, passport_expiry, added_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (traveler_id, first_name, last_name, full, relationship, date_of_birth.isoformat(), number,
         (passport_country or "US") if number else None, passport_expiry.isoformat() if number and passport_expiry
         else None, ctx.today().isoformat()))
    return _traveler(ctx.get("traveler", traveler_id))


@tools.tool(effect=WRITE, asks=[
    "Update the passport on file for {traveler_id}: number {passport_number}, expiring {passport_expiry}.",
    "Please save the new passport for {traveler_id}: {passport_number}, valid until {passport_expiry}.",
    "Save the {passport_country} passport {passport_number} for {traveler_id}; it expires {passport_expiry}.",
], reply=[
    "The passport of {result.full_name} is updated; it is valid until {result.passport_expiry}.",
    "Done: {traveler_id} has the new passport on file.",
])
def update_traveler_passport(ctx: Ctx, traveler_id: TravelerId, passport_number: PassportNumber,
                             passport_expiry: date, passport_country: CountryCode = "US") -> Traveler:
    """Save or replace a traveller's passport (needed for international flights).

    Args:
        traveler_id: ID of the traveller, such as 'TRV-10003'.
        passport_number: passport number, 6 to 9 letters and digits, such as '548201937'.
        passport_expiry: the passport's expiry date, such as '2031-05-20'.
        passport_country: issuing country as an ISO code, such as 'US'.

    Returns:
        The traveller with the new passport on file.

    Raises:
        not_found: no traveller has that ID.
        invalid_passport: the passport number is malformed.
        passport_expired: the passport has already expired.
    """
    ctx.get("traveler", traveler_id)
    number = _passport(ctx, passport_number, passport_expiry)
    ctx.db.execute("UPDATE travelers SET passport_number = ?, passport_country = ?, passport_expiry = ? "
                   "WHERE traveler_id = ?", (number, passport_country, passport_expiry.isoformat(), traveler_id))
    return _traveler(ctx.get("traveler", traveler_id))


@tools.tool(effect=READ, hidden=True)
def get_traveler_passport(ctx: Ctx, traveler_id: TravelerId) -> PassportOnFile:
    """The full passport number on file, for the synthesis pipeline to put in a user turn (never shown to a model).

    Args:
        traveler_id: ID of the traveller, such as 'TRV-10001'.

    Returns:
        The traveller's passport number, country and expiry (null when none is on file).

    Raises:
        not_found: no traveller has that ID.
    """
    t = ctx.get("traveler", traveler_id)
    return PassportOnFile(traveler_id=t["traveler_id"], full_name=t["full_name"], passport_number=t["passport_number"],
                          passport_country=t["passport_country"], passport_expiry=t["passport_expiry"])


@tools.tool(effect=READ, asks=[
    "Which cards do I have saved?",
    "Is any of my saved cards expired?",
], reply=[
    "Your saved cards: {result.cards_text}.",
    "You have {result.total} cards saved: {result.cards_text}.",
])
def list_payment_methods(ctx: Ctx) -> PaymentMethodList:
    """List the user's saved cards; an expired card cannot pay.

    Returns:
        The cards (ID, brand, nickname, last four digits, cardholder, expiry, whether expired,
        whether default) and how many there are.
    """
    rows = ctx.db.execute("SELECT * FROM payment_methods ORDER BY payment_method_id").fetchall()
    cards = [_method(ctx, r) for r in rows]
    return PaymentMethodList(payment_methods=cards, total=len(rows), cards_text=_cards_text(cards))


@tools.tool(effect=WRITE, asks=[
    "Save my card {card_number}, expiring {expiry}, name on card {cardholder_name}.",
    Ask("Add my card {card_number} (exp {expiry}, name on card {cardholder_name}) and make it my default.",
        make_default=True),
    "Save my card {card_number}, expiring {expiry}, name on card {cardholder_name}, as '{nickname}'.",
], reply=[
    "Saved your {result.brand} ending {result.last4} as '{result.nickname}'.",
    Ask("Done: the card ending {result.last4} is saved.", nickname=None, make_default=False),
    Ask("Saved your {result.brand} ending {result.last4}.", nickname=None, make_default=False),
    Ask("Saved your {result.brand} ending {result.last4}; it's your default card now.", make_default=True),
], values={
    # no brand in a nickname: the brand is the card number's, which the nickname must not contradict
    "nickname": ["Work card", "Travel card", "Personal card", "Shared family card", "Backup card", "Business card"],
})
def add_payment_card(ctx: Ctx, card_number: CardNumber,
                     expiry: Annotated[str, StringConstraints(strip_whitespace=True, pattern=r"^\d{2}/\d{2}$")],
                     cardholder_name: Name, nickname: Name | None = None, make_default: bool = False) -> PaymentMethod:
    """Save a new card to pay bookings with.

    Args:
        card_number: the full card number, spaces allowed, such as '4111 1111 1111 1111'.
        expiry: expiry month as MM/YY, such as '08/29'.
        cardholder_name: the name on the card, such as 'MAYA OKAFOR'.
        nickname: how to call the card, such as 'Work Visa'; by default the brand and last four digits.
        make_default: make it the default card, such as true.

    Returns:
        The saved card (never its full number).

    Raises:
        invalid_card_number: the number is not a valid Visa, Mastercard, American Express or Discover number.
        invalid_expiry: the month is not 01 to 12.
        card_expired: the expiry month has passed.
        duplicate_card: the card is already saved.
    """
    number = re.sub(r"[\s-]", "", card_number)
    brand = card_brand(number) if number.isdigit() else None
    if brand is None or not 13 <= len(number) <= 19 or not luhn_ok(number):
        raise ToolError("invalid_card_number", "That is not a valid card number.",
                        hint="Ask the user to read the 15 or 16 digits on the card again.")
    month, year = int(expiry[:2]), 2000 + int(expiry[3:])
    if not 1 <= month <= 12:
        raise ToolError("invalid_expiry", f"{expiry} is not a month: MM must be 01 to 12.", hint="Give it as MM/YY.")
    expires_on = month_end(year, month)
    if expires_on < ctx.today():
        raise ToolError("card_expired", f"The card expired at the end of {expiry}.", hint="Use a card that is valid.")
    same = ctx.db.execute("SELECT payment_method_id FROM payment_methods WHERE card_number = ?", (number,)).fetchone()
    if same is not None:
        raise ToolError("duplicate_card", f"That card is already saved as {same[0]}.", hint="Use the saved card.")
    payment_method_id = ctx.new_id("CARD")
    if make_default:
        ctx.db.execute("UPDATE payment_methods SET is_default = 0 WHERE is_default = 1")
    ctx.db.execute(
        "INSERT INTO payment_methods (payment_method_id, brand, nickname, card_number, last4, cardholder, expiry, "
        "expires_on, is_default, added_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (payment_method_id, brand, nickname or f"{brand} ending {number[-4:]}", number, number[-4:],
         cardholder_name.upper(), expiry, expires_on.isoformat(), int(make_default), ctx.now_iso()[:10]))
    return _method(ctx, ctx.get("payment_method", payment_method_id))


@tools.tool(effect=READ, asks=[
    "How many points do I have?",
    "Show my last {limit} loyalty transactions.",
], reply=[
    # the balance question (no limit said) gets the balance, which a list of transactions does not
    # give; a call for the last N transactions has no reply and gets them listed
    Ask("You have {result.points_balance} points, worth ${result.points_value}, at the {result.tier} tier.",
        limit=20),
    Ask("Your balance is {result.points_balance} points (${result.points_value} toward bookings); your tier is "
        "{result.tier}.", limit=20),
    "Your last {limit} transactions: {result.activity_text}.",
], values={"limit": [5, 10]})  # a number of transactions asked for, other than the default the balance question gets
def get_loyalty_account(ctx: Ctx, limit: Limit = 20) -> LoyaltyAccount:
    """Show the loyalty account: tier, points balance and what it is worth, and recent activity.

    Points are earned when a flight lands or a stay ends, on what was paid by card: 5 points per
    dollar for flights and 3 for hotels, times 1.25 (Silver), 1.5 (Gold) or 2 (Platinum).

    Args:
        limit: how many activity lines to return, newest first, 1 to 100, such as 10.

    Returns:
        The loyalty number, tier, balance and its dollar value, earning rates, free bags from the
        tier, the latest points activity and how many activity lines there are in all.
    """
    a = ctx.db.execute("SELECT * FROM accounts").fetchone()
    rows = ctx.db.execute("SELECT * FROM loyalty_activity ORDER BY occurred_at DESC, activity_id DESC").fetchall()
    tier = a["tier"]
    activity = [Activity(activity_id=r["activity_id"], occurred_at=r["occurred_at"], points=r["points"],
                         summary=r["description"], booking_id=r["booking_id"]) for r in rows[:limit]]
    return LoyaltyAccount(
        loyalty_number=a["loyalty_number"], tier=tier, points_balance=a["points_balance"],
        points_value=round(a["points_balance"] * POINT_VALUE, 2),
        flight_points_per_dollar=POINTS_PER_DOLLAR["flight"] * TIER_MULTIPLIER[tier],
        hotel_points_per_dollar=POINTS_PER_DOLLAR["hotel"] * TIER_MULTIPLIER[tier],
        free_checked_bags=TIER_FREE_BAGS[tier],
        activity=activity, total_activity=len(rows), activity_text=_activity_text(activity, ctx.today()))
