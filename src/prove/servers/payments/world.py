"""The payments world: one member of a person-to-person payments app, six months of history.

The member splits bills with friends and roommates, pays local businesses, is paid back, and
runs a small freelance business (photography, web design, tutoring, training or pet care)
whose clients they invoice through the app. The world spans 2025-09-15 to the epoch (Monday
2026-03-16 09:00) and holds:

- the member's profile and wallet balance, a weekly sending limit and a 4-digit security PIN;
- a directory of other members (people and businesses), a few dozen of them contacts;
- linked funding sources: a checking account (the default), sometimes a savings account, a
  debit card and credit cards, one of them expired but still linked; and the cards in the
  member's physical wallet, including two not linked yet;
- payments sent and received (with notes, audience, fees on credit-card payments), a few
  refunds, money requests in both directions (some still pending), invoices with line items
  (paid, open, overdue, void), and transfers between the wallet and the bank (one cash-out
  still on its way at the epoch).

The balance is the result of that history, replayed in order.
"""

from __future__ import annotations

import random
from datetime import date, datetime, time, timedelta
from typing import Any

from prove.env import WorldGen
from prove.env.values import iso

START = datetime(2025, 9, 15, 8, 0)
REFUND_WINDOW_DAYS = 30
CREDIT_FEE = 0.03                     # on payments funded by a credit card
INSTANT_FEE, INSTANT_MIN, INSTANT_MAX = 0.0175, 0.25, 25.0

BUSINESSES = (
    ("Corner Grind Coffee", "Coffee shop", (4.25, 9.5)), ("The Daily Crumb Bakery", "Bakery", (6.0, 24.0)),
    ("Luca's Pizzeria", "Restaurant", (18.0, 46.0)), ("Taqueria El Sol", "Restaurant", (11.0, 32.0)),
    ("Golden Wok", "Restaurant", (16.0, 40.0)), ("Green Leaf Market", "Grocery", (22.0, 85.0)),
    ("Sunrise Yoga Studio", "Fitness", (20.0, 140.0)), ("City Sports Club", "Fitness", (45.0, 60.0)),
    ("Happy Paws Grooming", "Pet care", (45.0, 90.0)), ("Metro Bike Repair", "Repairs", (25.0, 120.0)),
    ("Parkside Laundromat", "Laundry", (8.0, 22.0)), ("Northside Barbers", "Personal care", (28.0, 45.0)),
    ("Riverside Farmers Market", "Grocery", (9.0, 40.0)), ("Maple Court Parking", "Parking", (150.0, 150.0)),
    ("Bloom & Stem Florist", "Florist", (35.0, 90.0)), ("Second Chapter Books", "Bookstore", (12.0, 48.0)),
    ("Lucky Lanes Bowling", "Entertainment", (24.0, 70.0)), ("Harbor Cinema", "Entertainment", (14.0, 36.0)),
)
NOTES = (
    "Dinner at {place} 🍝", "Rent share - {month}", "Utilities {month}", "Concert tickets 🎶", "Uber home",
    "Groceries", "Birthday gift for {first} 🎁", "Coffee ☕", "Movie night 🍿", "Ski trip house", "Gas money ⛽",
    "Brunch 🥞", "Fantasy football buy-in 🏈", "Internet bill {month}", "Book club wine 🍷", "Splitting the cab",
    "Thanks for covering lunch!", "Pizza night 🍕", "Climbing day pass", "Trivia night tab", "Costume party supplies",
    "Airbnb for the weekend 🏡", "Secret Santa 🎄", "Tickets for the game ⚾",
)
# What a shop payment's note may say, by what the shop is: a coffee at a café, an order picked up where
# things are taken away.
_COFFEE = {"Coffee shop", "Bakery"}
_TAKEAWAY = {"Restaurant", "Bakery", "Grocery", "Florist", "Bookstore", "Coffee shop"}
FREELANCE = {
    "photography": ("{last} Photography", "Photo session", (
        ("Portrait session (2 hours)", 1, 350.0), ("Edited digital images", 25, 8.0),
        ("Event coverage, per hour", 4, 150.0), ("Print package 8x10", 3, 35.0), ("Travel fee", 1, 40.0))),
    "web_design": ("{last} Web Studio", "Website work", (
        ("Homepage design", 1, 1200.0), ("Development hours", 10, 85.0), ("Hosting and maintenance, monthly", 1, 75.0),
        ("Logo revisions", 3, 60.0), ("SEO setup", 1, 250.0))),
    "tutoring": ("{first}'s Tutoring", "Tutoring", (
        ("Math tutoring session (1 hour)", 4, 60.0), ("SAT prep session", 2, 90.0), ("Study materials", 1, 25.0),
        ("Essay review", 2, 45.0))),
    "training": ("{first} {last} Fitness", "Personal training", (
        ("Personal training session", 8, 70.0), ("Nutrition plan", 1, 120.0), ("Fitness assessment", 1, 80.0))),
    "pet_care": ("{first}'s Pet Care", "Pet care", (
        ("Dog walk (30 minutes)", 10, 22.0), ("Overnight pet sitting", 2, 65.0), ("Cat visit", 5, 18.0))),
}
BANKS = ("Chase", "Bank of America", "Wells Fargo", "Citi", "Capital One", "US Bank", "PNC", "Ally Bank")
NETWORKS = {"Visa": "4", "Mastercard": "5", "Discover": "6011", "American Express": "37"}


def cash_out_fee(amount: float) -> float:
    return round(min(INSTANT_MAX, max(INSTANT_MIN, amount * INSTANT_FEE)), 2)


def business_days_after(moment: datetime, days: int) -> datetime:
    day = moment.date()
    while days:
        day += timedelta(days=1)
        if day.weekday() < 5:
            days -= 1
    return datetime.combine(day, time(9, 0))


def build_world(w: WorldGen) -> dict[str, list[dict[str, Any]]]:
    """Build the world of seed `w.seed`: the member, the directory, sources and six months of history."""
    rng, fake = w.rng, w.fake
    now = w.now
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in (
        "profile", "users", "funding_sources", "cards_on_hand", "requests", "invoices", "invoice_items",
        "payments", "refunds", "transfers")}

    # ----- the member ------------------------------------------------------------------------------
    people = fake.people(150)
    me = people[0]
    city = fake.city()
    while city.country != "US":
        city = fake.city()
    trade = rng.choice(sorted(FREELANCE))
    business_pattern, invoice_title, catalogue = FREELANCE[trade]
    profile = {
        "user_id": w.new_id("USR"), "name": me.name,
        "username": f"@{me.first}-{me.last}".lower().replace("'", "") + f"-{rng.randint(2, 99)}",
        "email": fake.email(me), "phone": fake.phone(), "city": city.name,
        "member_since": fake.date_between(date(2015, 1, 1), date(2022, 6, 30)).isoformat(),
        "balance": 0.0, "pin": fake.digits(4), "identity_verified": 1,
        "weekly_send_limit": rng.choice((2999.99, 4999.99)),
        "business_name": business_pattern.format(first=me.first, last=me.last),
    }
    rows["profile"].append(profile)

    # ----- the directory ---------------------------------------------------------------------------
    usernames: set[str] = {profile["username"]}

    def username(base: str) -> str:
        name = "@" + "".join(c if c.isalnum() else "-" for c in base.lower()).strip("-").replace("--", "-")
        while name in usernames:
            name = f"{name.rstrip('0123456789-')}-{rng.randint(2, 999)}"
        usernames.add(name)
        return name

    friends: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    for i, p in enumerate(people[1:]):
        contact = i < rng.randint(28, 40)
        home = city if rng.random() < 0.7 else fake.city()
        row = {"user_id": w.new_id("USR"), "display_name": p.name, "username": username(f"{p.first}-{p.last}"),
               "kind": "person", "category": None, "city": home.name,
               "email": fake.email(p) if rng.random() < 0.5 else None, "is_contact": int(contact),
               "contact_since": fake.date_between(date(2018, 1, 1), date(2026, 3, 1)).isoformat() if contact else None}
        rows["users"].append(row)
        (friends if contact else others).append(row)
    shops = []
    for name, category, span in rng.sample(BUSINESSES, rng.randint(12, len(BUSINESSES))):
        row = {"user_id": w.new_id("USR"), "display_name": name, "username": username(name), "kind": "business",
               "category": category, "city": city.name, "email": None, "is_contact": int(rng.random() < 0.3),
               "contact_since": None}
        if row["is_contact"]:
            row["contact_since"] = fake.date_between(date(2022, 1, 1), date(2026, 2, 1)).isoformat()
        rows["users"].append(row)
        shops.append((row, span))
    clients = rng.sample(friends[10:], 3) + rng.sample(others, rng.randint(4, 7))
    for _ in range(rng.randint(1, 3)):  # companies that hire the member
        company = fake.company()
        if any(u["display_name"] == company for u in rows["users"]):
            continue
        row = {"user_id": w.new_id("USR"), "display_name": company, "username": username(company),
               "kind": "business", "category": "Client", "city": city.name,
               "email": f"accounts@{company.lower().replace(' ', '')}.com", "is_contact": 1,
               "contact_since": fake.date_between(date(2023, 1, 1), date(2025, 9, 1)).isoformat()}
        rows["users"].append(row)
        clients.append(row)
    roommate = friends[0]
    close = friends[:12]

    # ----- funding sources and cards ----------------------------------------------------------------
    bank = rng.choice(BANKS)

    def source(name: str, kind: str, institution: str, last4: str, number: str | None, expires: str | None,
               default: bool = False, added: date | None = None) -> dict[str, Any]:
        row = {"source_id": w.new_id("FS"), "name": name, "kind": kind, "institution": institution, "last4": last4,
               "card_number": number, "expires": expires, "status": "active", "is_default": int(default),
               "added_at": iso(datetime.combine(added or fake.date_between(date(2019, 1, 1), date(2025, 8, 1)),
                                                time(rng.randint(8, 21), rng.randint(0, 59))))}
        rows["funding_sources"].append(row)
        return row

    def card(network: str, issuer: str, card_type: str, expires: str) -> dict[str, Any]:
        row = {"card_number": w.fake.card_number(NETWORKS[network], 15 if network == "American Express" else 16), "network": network, "issuer": issuer, "card_type": card_type,
               "expires": expires, "cvv": fake.digits(4 if network == "American Express" else 3)}
        rows["cards_on_hand"].append(row)
        return row

    checking = source(f"{bank} Checking ending {fake.digits(4)}", "bank_account", bank, "", None, None, default=True)
    checking["last4"] = checking["name"][-4:]
    savings = None
    if rng.random() < 0.5:
        savings = source(f"{bank} Savings ending {fake.digits(4)}", "bank_account", bank, "", None, None)
        savings["last4"] = savings["name"][-4:]
    debit = card("Visa" if rng.random() < 0.6 else "Mastercard", bank, "debit",
                 f"{rng.randint(1, 12):02d}/{rng.randint(27, 30)}")
    source(f"{bank} {debit['network']} Debit ending {debit['card_number'][-4:]}", "debit_card", debit["network"],
           debit["card_number"][-4:], debit["card_number"], debit["expires"])
    credit_issuer = rng.choice(("Chase Sapphire", "Citi Double Cash", "Capital One Venture", "Amex Blue Cash",
                                "Discover it"))
    network = {"Amex Blue Cash": "American Express", "Discover it": "Discover"}.get(
        credit_issuer, rng.choice(("Visa", "Mastercard")))
    credit = card(network, credit_issuer, "credit", f"{rng.randint(1, 12):02d}/{rng.randint(27, 31)}")
    credit_source = source(f"{credit_issuer} ending {credit['card_number'][-4:]}", "credit_card", network,
                           credit["card_number"][-4:], credit["card_number"], credit["expires"])
    old_network = rng.choice(("Visa", "Mastercard"))
    old = {"card_number": w.fake.card_number(NETWORKS[old_network], 15 if old_network == "American Express" else 16), "expires": f"{rng.randint(1, 2):02d}/26"}
    source(f"{rng.choice(BANKS)} {old_network} Credit ending {old['card_number'][-4:]}", "credit_card", old_network,
           old["card_number"][-4:], old["card_number"], old["expires"])  # expired, still linked
    # Not linked yet: a replacement for the expired card and a store-branded debit card.
    card(old_network, rng.choice(BANKS), "credit", f"{rng.randint(1, 12):02d}/{rng.randint(29, 31)}")
    card(rng.choice(("Visa", "Mastercard", "Discover")), rng.choice(BANKS), rng.choice(("debit", "credit")),
         f"{rng.randint(1, 12):02d}/{rng.randint(27, 30)}")
    if rng.random() < 0.3:  # a card removed long ago
        gone = source(f"{rng.choice(BANKS)} Visa Debit ending {fake.digits(4)}", "debit_card", "Visa", "", None,
                      f"{rng.randint(1, 12):02d}/24", added=date(2019, 5, 2))
        gone.update(status="removed", last4=gone["name"][-4:], card_number="4" + fake.digits(11) + gone["name"][-4:])

    # ----- history, replayed in order -----------------------------------------------------------------
    balance = round(rng.uniform(80, 600), 2)
    events: list[tuple[datetime, str, dict[str, Any]]] = []

    def moment(day: date, lo: int = 8, hi: int = 22) -> datetime:
        return datetime.combine(day, time(rng.randint(lo, hi - 1), rng.randint(0, 59), rng.randint(0, 59)))

    days = [START.date() + timedelta(days=i) for i in range((now.date() - START.date()).days + 1)]
    months = ("September", "October", "November", "December", "January", "February", "March")
    for day in days:
        month = months[(day.year - 2025) * 12 + day.month - 9]
        if day.day == 1 or day == START.date():
            events.append((moment(day, 9, 12), "p2p", {"who": roommate, "sent": True, "note": f"Rent share - {month}",
                                                       "amount": float(rng.choice((850, 900, 950, 1025)))}))
        if day.day == 20:
            events.append((moment(day), "p2p", {"who": roommate, "sent": rng.random() < 0.5,
                                               "note": f"Utilities {month}", "amount": round(rng.uniform(45, 120), 2)}))
        for _ in range(rng.choice((0, 0, 1, 1, 1, 2))):
            who = rng.choice(close if rng.random() < 0.7 else friends)
            note = _note(rng, shops, friends, month)
            events.append((moment(day), "p2p", {"who": who, "sent": rng.random() < 0.55, "note": note,
                                               "amount": round(rng.choice((rng.uniform(8, 40), rng.uniform(20, 120),
                                                                           rng.uniform(60, 300))), 2)}))
        if rng.random() < 0.35:
            shop, (lo, hi) = rng.choice(shops)
            events.append((moment(day, 7, 21), "shop", {"who": shop, "amount": round(rng.uniform(lo, hi), 2)}))
    # Invoices to clients, each paid in the app, by cash or check, still open or voided.
    for i in range(rng.randint(10, 16)):
        issued = moment(rng.choice(days[:-2]), 9, 18)
        events.append((issued, "invoice", {"who": rng.choice(clients), "index": i}))
    # Requests the member receives or sends that are still waiting at the epoch.
    for i in range(rng.randint(3, 5)):
        events.append((moment(now.date() - timedelta(days=rng.randint(1, 12))), "pending_request",
                       {"who": rng.choice(friends), "incoming": i < 3}))
    for _ in range(rng.randint(12, 20)):
        events.append((moment(rng.choice(days[:-14])), "old_request", {"who": rng.choice(friends)}))
    events.sort(key=lambda e: e[0])
    events = [e for e in events if e[0] < now]

    def pay(at: datetime, who: dict[str, Any], sent: bool, amount: float, note: str, *, request_id: str | None = None,
            invoice_id: str | None = None, audience: str | None = None) -> dict[str, Any]:
        nonlocal balance
        src, fee = None, 0.0
        if sent:
            if balance >= amount and rng.random() < 0.6:
                balance = round(balance - amount, 2)
            elif rng.random() < 0.2 and who["kind"] == "person":
                src, fee = credit_source["source_id"], round(amount * CREDIT_FEE, 2)
            else:
                src = checking["source_id"]
        else:
            balance = round(balance + amount, 2)
        row = {"payment_id": w.new_id("PAY"), "direction": "sent" if sent else "received",
               "counterparty_id": who["user_id"], "amount": amount, "fee": fee, "note": note, "source_id": src,
               "audience": audience or rng.choice(("private", "friends", "friends", "public")),
               "status": "completed", "refunded_amount": 0.0, "request_id": request_id, "invoice_id": invoice_id,
               "created_at": iso(at)}
        rows["payments"].append(row)
        return row

    def refund(payment: dict[str, Any], at: datetime, amount: float, reason: str) -> None:
        nonlocal balance
        payment["refunded_amount"] = round(payment["refunded_amount"] + amount, 2)
        payment["status"] = "refunded" if payment["refunded_amount"] >= payment["amount"] else "partially_refunded"
        balance = round(balance + (amount if payment["direction"] == "sent" else -amount), 2)
        rows["refunds"].append({"refund_id": w.new_id("RFD"), "payment_id": payment["payment_id"], "amount": amount,
                                "reason": reason, "created_at": iso(at)})

    def transfer(at: datetime, direction: str, amount: float, speed: str, src: dict[str, Any]) -> None:
        nonlocal balance
        fee = cash_out_fee(amount) if speed == "instant" and direction == "cash_out" else 0.0
        balance = round(balance + (amount if direction == "add_money" else -amount), 2)
        arrives = at + timedelta(minutes=rng.randint(1, 30)) if speed == "instant" or direction == "add_money" \
            else business_days_after(at, rng.randint(1, 3))
        rows["transfers"].append({"transfer_id": w.new_id("TRF"), "direction": direction, "source_id": src["source_id"],
                                  "amount": amount, "fee": fee, "speed": speed, "created_at": iso(at),
                                  "arrives_at": iso(arrives)})

    debit_source = next(s for s in rows["funding_sources"] if s["kind"] == "debit_card")
    for at, kind, ev in events:
        if kind == "p2p":
            payment = pay(at, ev["who"], ev["sent"], ev["amount"], ev["note"])
            if rng.random() < 0.03:
                refund(payment, at + timedelta(hours=rng.randint(1, 48)), payment["amount"], "Sent twice by mistake")
        elif kind == "shop":
            note = rng.choice(("Thanks!", "☕", "Order pickup", ev["who"]["category"], "🙏"))
            if note == "☕" and ev["who"]["category"] not in _COFFEE or \
                    note == "Order pickup" and ev["who"]["category"] not in _TAKEAWAY:
                note = "Thanks!"  # (drawn as before, so that the rest of the world stays as it was)
            payment = pay(at, ev["who"], True, ev["amount"], note, audience="private")
            if rng.random() < 0.05:
                part = round(payment["amount"] * rng.choice((0.5, 1.0)), 2)
                refund(payment, at + timedelta(days=rng.randint(1, 5)), part, "Item unavailable")
        elif kind == "invoice":
            n = rng.randint(1, 3)
            items = [(d, q * rng.choice((1, 1, 2)) if q > 1 else q, p) for d, q, p in rng.sample(catalogue, n)]
            amount = round(sum(q * p for _, q, p in items), 2)
            inv_id = w.new_id("INV")
            due = (at + timedelta(days=rng.choice((14, 15, 30)))).date()
            fate = rng.random()
            invoice = {"invoice_id": inv_id, "customer_id": ev["who"]["user_id"],
                       "title": f"{invoice_title} - {at.strftime('%B %Y')}", "amount": amount, "status": "open",
                       "issued_at": iso(at), "due_date": due.isoformat(), "paid_at": None, "paid_via": None,
                       "last_reminded_at": None, "reminders_sent": 0, "voided_at": None}
            rows["invoices"].append(invoice)
            for line, (desc, qty, price) in enumerate(items, 1):
                rows["invoice_items"].append({"invoice_id": inv_id, "line": line, "description": desc,
                                              "quantity": qty, "unit_price": price})
            paid_at = at + timedelta(days=rng.randint(1, 20), hours=rng.randint(0, 8))
            if fate < 0.08:
                invoice.update(status="void", voided_at=iso(at + timedelta(days=rng.randint(1, 6))))
            elif paid_at < now and fate < 0.75:
                via = "app" if fate < 0.6 else rng.choice(("cash", "check", "bank_transfer"))
                invoice.update(status="paid", paid_at=iso(paid_at), paid_via=via)
                if via == "app":
                    pay(paid_at, ev["who"], False, amount, f"Invoice {inv_id}: {invoice['title']}",
                        invoice_id=inv_id, audience="private")
            elif due < now.date() and rng.random() < 0.7:
                invoice.update(last_reminded_at=iso(datetime.combine(due + timedelta(days=2), time(10, 0))),
                               reminders_sent=1)
        elif kind == "old_request":
            incoming = rng.random() < 0.5
            note = _note(rng, shops, friends, "last month")
            amount = round(rng.uniform(10, 90), 2)
            fate = rng.choice(("paid", "paid", "paid", "declined", "cancelled"))
            req = {"request_id": w.new_id("REQ"), "direction": "incoming" if incoming else "outgoing",
                   "counterparty_id": ev["who"]["user_id"], "amount": amount, "note": note, "status": fate,
                   "created_at": iso(at), "resolved_at": iso(at + timedelta(hours=rng.randint(1, 72)))}
            if fate == "cancelled":
                req["direction"] = "outgoing"
            rows["requests"].append(req)
            if fate == "paid":
                pay(at + timedelta(hours=rng.randint(1, 72)), ev["who"], incoming, amount, note,
                    request_id=req["request_id"])
        elif kind == "pending_request":
            note = _note(rng, shops, friends, "March")
            rows["requests"].append({
                "request_id": w.new_id("REQ"), "direction": "incoming" if ev["incoming"] else "outgoing",
                "counterparty_id": ev["who"]["user_id"], "amount": round(rng.uniform(12, 140), 2), "note": note,
                "status": "pending", "created_at": iso(at), "resolved_at": None})
        # Keep the wallet sensible: cash out when it grows, add money when it runs low.
        if balance > 900:
            instant = rng.random() < 0.3
            amount = round(balance - rng.uniform(100, 300), 2)
            transfer(at + timedelta(minutes=5), "cash_out", amount, "instant" if instant else "standard",
                     debit_source if instant else checking)
        elif balance < 40 and rng.random() < 0.5:
            transfer(at + timedelta(minutes=5), "add_money", float(rng.choice((100, 200, 300))), "standard", checking)

    # A standard cash-out still on its way at the epoch.
    amount = round(min(balance * 0.6, rng.uniform(120, 400)), 2) if balance > 60 else 50.0
    if balance < amount + 40:
        transfer(now - timedelta(days=4, hours=3), "add_money", 200.0, "standard", checking)
    pending_at = datetime.combine(date(2026, 3, 13), time(rng.randint(10, 17), rng.randint(0, 59)))
    balance = round(balance - amount, 2)
    rows["transfers"].append({"transfer_id": w.new_id("TRF"), "direction": "cash_out",
                              "source_id": checking["source_id"], "amount": amount, "fee": 0.0, "speed": "standard",
                              "created_at": iso(pending_at), "arrives_at": iso(business_days_after(pending_at, 2))})
    profile["balance"] = balance

    for table, key in (("payments", "payment_id"), ("transfers", "transfer_id"), ("requests", "request_id"),
                       ("refunds", "refund_id"), ("invoices", "invoice_id")):
        rows[table].sort(key=lambda r: r[key])
    rows["cards_on_hand"].sort(key=lambda r: r["card_number"])
    return rows


def _note(rng: random.Random, shops: list[tuple[dict[str, Any], Any]], friends: list[dict[str, Any]],
          month: str) -> str:
    """A note between friends; a dinner is at one of the restaurants (drawn as before, so that the rest
    of the world stays as it was: a shop that is no restaurant gives way to the restaurant at its place)."""
    template, shop = rng.choice(NOTES), rng.choice(shops)[0]
    first = rng.choice(friends)["display_name"].split()[0]
    restaurants = [row for row, _ in shops if row["category"] == "Restaurant"]
    if "Dinner" in template and shop["category"] != "Restaurant" and restaurants:
        shop = restaurants[[row for row, _ in shops].index(shop) % len(restaurants)]
    return template.format(place=shop["display_name"], month=month, first=first)
