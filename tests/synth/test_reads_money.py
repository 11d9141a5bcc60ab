"""How requests and replies of the money and shopping servers read, checked on their words."""

from __future__ import annotations

import json
import random
import re
from datetime import date

from prove.env import Session, registry
from prove.synth import SynthConfig, Synthesizer
from prove.synth.entities import EntityIndex
from prove.synth.phrasing import Phrasing
from prove.synth.sampler import Sampler
from prove.synth.teachers.programmatic import _fitting_replies
from prove.synth.wording import Wording

SERVERS = ["banking", "budget", "payments", "marketplace", "trading", "travel_booking", "shopping", "retail_chain",
           "food_delivery"]


def _say(server_name: str, world: int = 0) -> Phrasing:
    server = registry.get(server_name)
    return Phrasing(server, Sampler(server, world, [world]).context(world), EntityIndex(server, world),
                    Wording(random.Random(0)))


def _replies(server_name: str, tool_name: str, args: dict, before: tuple = (), advance: float = 0,
             asked: str = "") -> list[str]:
    """Every reply that fits the call, filled from its result (after the calls of `before`); for a read, those that
    answer the question `asked`."""
    server = registry.get(server_name)
    tool = server.tools[tool_name]
    with Session([server], world=0) as session:
        for name, arguments in before:
            assert session.call(name, arguments).ok
        if advance:
            session.advance(advance)
        result = session.call(tool_name, args)
    assert result.ok, result.error
    say = _say(server_name)
    fitting = _fitting_replies(tool, args, result.data, asked)
    assert fitting, (tool_name, result.data)
    return [say.reply(tool, reply.text, args, result.data, {}) for reply in fitting]


def _first(server_name: str, tool_name: str, args: dict, key: str, where=lambda item: True) -> dict:
    """The first item of a listing's result that `where` holds for."""
    with Session([server_name], world=0) as session:
        result = session.call(tool_name, args)
    return next(item for item in result.data[key] if where(item))


def _callable(server_name: str, tool_name: str, candidates) -> dict:
    """The first arguments among `candidates` that the tool takes in the initial world."""
    with Session([server_name], world=0) as session:
        return next(args for args in candidates if session.fork().call(tool_name, args).ok)


def _generated(servers: list[str], n: int, seed: int) -> list[dict]:
    synth = Synthesizer(SynthConfig(n=n, seed=seed, servers=servers))
    return [json.loads(c.line) for c in (synth.example(i) for i in range(n)) if c.line]


def test_a_resolved_dispute_says_how_it_ended_not_how_it_stands_so_far() -> None:
    """"... is resolved (outcome so far: refunded)" contradicts itself."""
    dispute = _first("banking", "list_disputes", {"status": "resolved"}, "disputes")
    for text in _replies("banking", "get_dispute", {"dispute_id": dispute["dispute_id"]}):
        assert "so far" not in text and dispute["resolution"] in text, text


def test_a_goal_transfer_is_not_asked_about_by_its_payee_line() -> None:
    """"Show me the details of the Goal: Car Down Payment transaction" is no request a person makes:
    a transfer to a savings goal is followed through its goal."""
    for name in ("get_transaction", "delete_transaction"):
        tool = registry.get("budget").tools[name]
        where = next(p.where for p in tool.params if p.name == "transaction_id")
        assert where is not None and "goal_transfer" in where
    for ex in _generated(["budget"], 150, 5):  # nor are goal transfers listed by category, which they have none of
        assert not any("Goal: " in t["user"] or "goal transfer entries" in t["user"] for t in ex["turns"]), ex["id"]


def test_an_invoice_the_user_sent_is_to_the_client_not_from_them() -> None:
    """"Invoice INV-10012 from Omar Lee is marked paid": the user billed Omar Lee."""
    invoice = _first("payments", "list_invoices", {"status": "open"}, "invoices")
    texts = _replies("payments", "mark_invoice_paid", {"invoice_id": invoice["invoice_id"], "method": "cash"})
    assert not any(f"from {invoice['customer_name']}" in t for t in texts), texts
    assert any(f"{invoice['customer_name']}'s invoice {invoice['invoice_id']} is marked paid" in t for t in texts)
    for text in _replies("payments", "get_invoice", {"invoice_id": invoice["invoice_id"]}):
        assert "so far" not in text and f"billed to {invoice['customer_name']}" in text, text
    user = _first("payments", "list_contacts", {}, "users")
    asked = _replies("payments", "request_money", {"user_id": user["user_id"], "amount": 12.5, "note": "Pizza night"})
    assert not any(re.search(r"\bREQ-\d+", t) for t in asked), asked


# A first clause that states a motive or a fact ("I don't owe that", "{card_id} was stolen") and then
# an imperative: after "After that, " it reads as something that happened next.
_MOTIVE_FIRST = re.compile(r"^(?:(?:I|I'm|I've|We're|There's)\b|The (?:client|seller|courier)\b|\{\w+\} "
                           r"(?:is|was|owes|arrived|came|charged|actually|doesn't)\b)[^,;:.?]*[,;:.] (?:please )?"
                           r"(?:turn|delete|remove|take|block|cancel|dispute|open|unfreeze|send|record|mark|add|"
                           r"withdraw|accept|release|check|stop|switch|call|make|save|update|fix|use|put|redeem)\b",
                           re.IGNORECASE)


def test_a_request_says_what_to_do_before_why() -> None:
    """"After that, I don't owe that, turn down the request 'Tickets'" reads as a story; "Turn down
    the request 'Tickets'; I don't owe that." reads as a request, after any connector."""
    found = [(name, tool.name, ask.text) for name in SERVERS for tool in registry.get(name).tools.values()
             for ask in tool.asks if _MOTIVE_FIRST.match(ask.text)]
    assert not found, found


def test_a_listing_condition_is_said_in_words() -> None:
    """"it's in good condition", "marked for parts"; never "it's good", "in for parts condition" or
    "Show me fair listings"."""
    server = registry.get("marketplace")
    say = _say("marketplace")
    category = next(iter(say.index.labels["category"]))
    conditions = ["new", "like_new", "good", "fair", "for_parts"]
    said = 0
    for tool_name in ("create_listing", "search_listings"):
        tool = server.tools[tool_name]
        for ask in tool.asks:
            if "condition" not in ask.covers:
                continue
            for condition in [ask.binds["condition"]] if "condition" in ask.binds else conditions:
                args = {"listing_title": "Trek mountain bike", "category_id": category, "price": 350.0,
                        "shipping_cost": 4.0, "condition": condition}
                text = say.request(tool, ask, {k: v for k, v in args.items() if k in ask.slots or k == "condition"}, {})
                said += 1
                assert not re.search(r"\bit's (?:good|fair|for parts)\b|\bin (?:for parts|new) condition\b|"
                                     r"\b(?:good|fair|for parts|like new|new) listings\b", text), text
    assert said >= 10


def test_a_price_change_is_said_with_its_sign_once() -> None:
    """"Uber moved -1% from the first to the last" says a fall as a signed move."""
    texts = [t for ticker in ("AAPL", "MSFT", "TSLA", "QCOM", "GOOGL")
             for t in _replies("trading", "get_price_history", {"ticker": ticker, "days": 7})]
    assert texts and not any(re.search(r"\bmoved -?\d|from the first to the last", t) for t in texts), texts


def test_the_market_status_is_said_in_a_sentence() -> None:
    """"Session now: pre market; open for market orders: yes" is a form; an open market says until
    when it takes orders, a closed one when it opens again."""
    open_now = _replies("trading", "get_market_status", {})
    assert all(t.startswith("The market is open now") for t in open_now), open_now
    closed = _replies("trading", "get_market_status", {}, advance=12 * 3600)
    assert all(t.startswith("The market is closed right now; it opens again on ") for t in closed), closed
    assert not any("Session now" in t or ": yes" in t or ": no" in t for t in open_now + closed)


def test_a_booking_is_named_in_full_by_what_it_is() -> None:
    """"my flight B6 2888 BOS to ATL on March 17", "my stay at Four Seasons ..."; never a summary cut
    with "…"."""
    say = _say("travel_booking")
    rows = say.index.rows["booking"]
    named = {b: say.entity("booking", b) for b in rows}
    assert named and not any("…" in text for text in named.values()), named
    assert all(text.startswith("my stay at " if rows[b]["kind"] == "hotel" else "my flight ") for b, text in named.items())


def test_a_question_about_any_booking_fits_a_hotel_stay_and_is_answered_with_the_amount() -> None:
    """No "What seats and bags do we have" of a hotel stay; "how much was charged" is answered with
    the total charged, not "1 payment"."""
    server = registry.get("travel_booking")
    tool = server.tools["get_booking"]
    assert not any(re.search(r"\b(?:seats?|bags?)\b", ask.text) for ask in tool.asks)
    say = _say("travel_booking")
    asked = next(ask.text for ask in tool.asks if "charged" in ask.text)
    with Session([server], world=0) as session:
        for booking in say.index.rows["booking"]:
            result = session.call("get_booking", {"booking_id": booking})
            summary = say.words.summary(tool, result.data, asked=asked)
            charged = f"${result.data['total_charged']:,.2f}"
            assert f"total charged {charged}" in summary, summary


def test_a_promo_code_is_said_once() -> None:
    """"I have a promo code, promo code LATENIGHT" stutters."""
    for server_name, tool_name, kind in (("food_delivery", "apply_promo_code", "promo"),
                                         ("shopping", "apply_coupon", "coupon")):
        tool = registry.get(server_name).tools[tool_name]
        say = _say(server_name)
        code = say.index.live[kind][0]
        restaurant = next(iter(say.index.labels.get("restaurant", {"": ""})))
        for ask in tool.asks:
            text = say.request(tool, ask, {"code": code, "restaurant_id": restaurant}, {})
            assert not re.search(r"promo code, (?:promo code|coupon)\b", text), text


def test_a_minimum_filter_is_never_drawn_at_its_lowest_value() -> None:
    """"reviews with at least 1 star" and "a 1-star hotel or better" filter nothing."""
    reviews = registry.get("shopping").tools["list_reviews"]
    hotels = registry.get("travel_booking").tools["search_hotels"]
    assert reviews.values["min_rating"] and min(reviews.values["min_rating"]) >= 2
    assert hotels.values["min_stars"] and min(hotels.values["min_stars"]) >= 3


def test_budget_replies_say_no_internal_ids_and_a_card_balance_is_no_money_left() -> None:
    """"Recorded the expense (TXN-10260)", "Gas service is tracked now (BILL-10015)" and, of a credit
    card, "-$1,051.95 left on the account" are no replies a person gives."""
    texts = [m["content"] for ex in _generated(["budget"], 150, 57) for m in ex["messages"]
             if m["role"] == "assistant" and m.get("content")]
    assert texts
    assert not any(re.search(r"\((?:TXN|GOAL|CAT|BILL)-\d+\)|left on the account|categories over budget: \d", t)
                   for t in texts)


def test_a_new_empty_watchlist_says_nothing_is_on_it() -> None:
    """"Created the Shortlist watchlist with 0 tickers on it"."""
    empty = _replies("trading", "create_watchlist", {"name": "Shortlist"})
    assert all("0 tickers" not in t for t in empty) and any("nothing is on it yet" in t for t in empty), empty


def test_a_booking_paid_with_points_says_the_points_not_no_dollars() -> None:
    """"... is confirmed under code 7L3JVX; $0.00 was charged" of a booking paid with points."""
    say = _say("travel_booking")
    traveler = next(iter(say.index.labels["traveler"]))
    args = _callable("travel_booking", "book_flight",  # a flight the points pay for
                     ({"flight_id": f, "fare": "basic_economy", "traveler_ids": [traveler], "use_points": True}
                      for f in say.index.live["flight"]))
    booked = _replies("travel_booking", "book_flight", args)
    assert all("$0.00" not in t and "points" in t for t in booked), booked


def test_a_reorder_says_the_dishes_from_the_order() -> None:
    """"Your cart has the order ORD-10004 dishes again"."""
    order = _first("food_delivery", "list_orders", {"status": "delivered"}, "orders")
    texts = _replies("food_delivery", "reorder", {"order_id": order["order_id"]})
    assert not any(re.search(r"the order \S+ dishes", t) for t in texts), texts
    assert any(f"The dishes from order {order['order_id']} are back in your cart" in t for t in texts), texts


def test_a_pickup_says_how_many_of_the_product() -> None:
    """"Reserved 1 of LEGO Classic Creative Brick Box" wants its "the", and a hold of 3 says 3."""
    product = next(iter(_say("retail_chain").index.labels["product"]))
    store = _first("retail_chain", "check_availability", {"product_id": product}, "stores",
                   lambda s: s["offers_pickup"] and s["available"] > 0)
    held = _replies("retail_chain", "reserve_for_pickup", {"store_id": store["store_id"], "product_id": product})
    assert not any(re.search(r"Reserved 1 of", t) for t in held) and any("Reserved one " in t for t in held)
    three = _replies("retail_chain", "reserve_for_pickup", {"store_id": store["store_id"], "product_id": product,
                                                            "quantity": 3})
    assert all(re.search(r"\b(?:3|three) ", t) for t in three), three  # "put 3 on hold": the reply says how many


def test_a_rating_and_a_new_listing_read_as_a_member_says_them() -> None:
    """"Rate my purchase order ORD-10007" reads as a purchase order; "Listed ...; the listing is
    LST-10212" tells the user a key they never use."""
    server = registry.get("marketplace")
    say = _say("marketplace")
    order = _first("marketplace", "list_orders", {"role": "purchases", "status": "delivered"}, "orders")
    tool = server.tools["rate_seller"]
    for ask in tool.asks:
        text = say.request(tool, ask, {"order_id": order["order_id"], "stars": 4, "comment": "Great seller."}, {})
        assert "purchase order" not in text, text
    category = next(iter(say.index.labels["category"]))
    listed = _replies("marketplace", "create_listing", {"listing_title": "Trek mountain bike", "category_id": category,
                                                        "price": 350.0, "condition": "good"})
    assert not any(re.search(r"\bLST-\d+", t) for t in listed), listed


def test_a_check_in_says_its_flight_once() -> None:
    """"your flight B6 2518 ... is checked in for the flight on March 19 at 7:35 PM"."""
    say = _say("travel_booking")
    booking = next(b for b, row in say.index.rows["booking"].items() if row["kind"] == "flight")
    for text in _replies("travel_booking", "check_in", {"booking_id": booking}):
        assert "for the flight" not in text, text


def test_store_replies_name_the_product_with_its_article() -> None:
    """"At Harbor Supply Co. Crossroads, Water Flosser costs $79.99" wants its "the"."""
    say = _say("retail_chain")
    product = next(iter(say.index.labels["product"]))
    named = say.entity("product", product)
    store = _first("retail_chain", "check_availability", {"product_id": product}, "stores")
    stores = list(say.index.live["store"])
    moved = _callable("retail_chain", "request_transfer", ({"product_id": product, "from_store_id": a, "to_store_id": b}
                                                           for a in stores for b in stores if a != b))
    texts = _replies("retail_chain", "check_price", {"product_id": product, "store_id": store["store_id"]}) + \
        _replies("retail_chain", "check_availability", {"product_id": product}) + \
        [t for t in _replies("retail_chain", "request_transfer", moved) if t.startswith("Requested")]
    one = "one " + named.removeprefix("the ")  # "Requested: one 5.5 qt ... Dutch Oven from ..."
    assert all(named in t or named[:1].upper() + named[1:] in t or one in t for t in texts), (named, texts)


def test_what_is_left_on_a_shopping_account_is_said_in_a_sentence() -> None:
    """"Cards still on your account: 2." is a form; "2 cards are still saved on your account." is not."""
    say = _say("shopping")
    card = _callable("shopping", "remove_payment_method", ({"payment_method_id": c} for c in say.index.live["payment_method"]))
    address = _callable("shopping", "delete_address", ({"address_id": a} for a in say.index.live["address"]))
    texts = _replies("shopping", "remove_payment_method", card) + _replies("shopping", "delete_address", address)
    assert not any(re.search(r": \d+\.$", t) for t in texts), texts
    product = next(iter(say.index.labels["product"]))
    named = say.entity("product", product)
    for text in _replies("shopping", "get_product", {"product_id": product}):
        assert named in text or text.startswith(named[:1].upper() + named[1:]), (named, text)


def test_income_is_said_as_paid_by_someone() -> None:
    """"I got paid $400 from Tax refund", "$1200 from Venmo from Alex": the source of income is who
    paid it, so "from {source}" reads."""
    asks = [a for ex in _generated(["budget"], 400, 9) for t in ex["turns"] for c in t["calls"]
            if c["name"] == "add_income" for a in [c["arguments"]["source"]]]
    assert asks
    for source in asks:
        assert " from " not in source and source.lower() not in ("tax refund", "side gig", "freelance client"), source


def test_no_position_in_a_ticker_is_said_with_the_ticker() -> None:
    """"How many shares of AAPL do I own?" was answered "There are no positions.", which reads as if
    the account held nothing at all."""
    from prove.synth.wording import Wording

    with Session(["trading"], world=0) as session:
        result = session.call("list_positions", {"account_id": "BRK-10001", "ticker": "AAPL"})
    assert result.ok and not result.data["positions"]
    tool = registry.get("trading").tools["list_positions"]
    for seed in range(4):
        text = Wording(random.Random(seed)).summary(tool, result.data, args={"account_id": "BRK-10001", "ticker": "AAPL"},
                                                    asked="How many shares of {ticker} do I own in {account_id}?")
        assert "no AAPL positions" in text.lower().replace("aapl", "AAPL"), text


def test_an_activity_named_by_a_name_keeps_its_capital_mid_sentence() -> None:
    """"$50.00 roth IRA contribution from Schwab Investor Checking ending 4247": a trade or a deposit
    is lowercased after the amount, a Roth IRA keeps its name."""
    with Session(["trading"], world=0) as session:
        roth = next(a["account_id"] for a in session.call("list_accounts", {}).data["accounts"] if a["kind"] == "roth_ira")
        text = session.call("list_activity", {"account_id": roth, "kind": "deposit"}).data["activities_text"]
    assert "Roth IRA contribution" in text and "roth IRA" not in text, text


def test_a_sector_is_said_as_a_sector_and_a_fund_kind_as_a_kind_of_fund() -> None:
    """"Show me ETFs in the Sector ETF sector" and "List up to 5 securities in Bond ETF" read a kind of
    fund as a sector."""
    say = _say("trading")
    tool = registry.get("trading").tools["search_securities"]
    said = [say.request(tool, ask, {k: v for k, v in {"sector": sector, "kind": kind, "limit": 5}.items()
                                    if k in ask.slots or k in ask.binds}, {})
            for ask in tool.asks if "sector" in ask.slots for kind, sector in tool.values["kind, sector"]
            if ask.binds.get("kind", kind) == kind]
    assert said and not any(re.search(r"ETF sector|\bin \w+ ETF\b|\bETFs in\b", t) for t in said), said


def test_a_price_change_is_measured_from_the_close_the_reply_quotes() -> None:
    """"its closes ran from $94.09 to $97.65, a change of 6.33%": the change was from the close before
    the window, which the reply did not say."""
    for days in (1, 3, 7):
        with Session(["trading"], world=0) as session:
            data = session.call("get_price_history", {"ticker": "XLE", "days": days}).data
        for text in _replies("trading", "get_price_history", {"ticker": "XLE", "days": days}):
            start = f"${data['start_price']:,.2f}"
            assert f"({start})" in text and "1 trading days" not in text, text
            assert not re.search(r"\$[\d,.]+ \d+ trading", text), text  # "$118.46 14 trading days" runs two numbers together
            assert round((data["last_price"] / data["start_price"] - 1) * 100, 1) == round(data["change_percent"], 1)


def test_a_settled_invoice_says_how_it_was_settled_not_its_due_date_or_reminders() -> None:
    """"Photo session ($105.00, billed to Layla Young) is paid, with a due date of March 16; no reminder
    has gone out." """
    for status in ("paid", "void"):
        invoice = _first("payments", "list_invoices", {"status": status}, "invoices")
        for text in _replies("payments", "get_invoice", {"invoice_id": invoice["invoice_id"]}):
            assert "reminder" not in text and "due" not in text and ("was paid on" in text or "was voided" in text), text
    tool = registry.get("payments").tools["get_invoice"]
    assert all("open" in ask.fits.get("invoice_id", "") for ask in tool.asks if "reminder" in ask.text)


def test_how_many_reminders_is_answered_where_none_went_out() -> None:
    """"How many reminders have gone out for invoice INV-10010?" was answered "Tutoring - February 2026 ($25.00,
    billed to Yusuf Wilson) hasn't been paid; it was due March 3.": a reply bound on the count says it."""
    invoice = _first("payments", "list_invoices", {"status": "open"}, "invoices", lambda i: i["reminders_sent"] == 0)
    asked = f"How many reminders have gone out for invoice {invoice['invoice_id']}?"
    for text in _replies("payments", "get_invoice", {"invoice_id": invoice["invoice_id"]}, asked=asked):
        assert "no reminder has gone out" in text, text


def test_a_product_name_reads_after_a_count() -> None:
    """"send 1 of the Wi-Fi 6 Mesh Router, 3 Pack over": a name with a comma reads as a list."""
    say = _say("retail_chain")
    assert not [name for name in say.index.labels["product"].values() if re.search(r"[,()]", name)]


def test_a_menu_category_and_a_bill_and_a_door_code_are_named_as_names() -> None:
    """"What Plates does Pita have", "Please set up Second phone line: $15 to Mint Mobile" and "Add the
    code 228612 on the Patio Door Lock for Cleaner (Ana)" read a name as a word or a person."""
    menu = registry.get("food_delivery").tools["get_menu"]
    assert not any(re.search(r"What \{category\}", ask.text) for ask in menu.asks)
    bill = registry.get("budget").tools["add_bill"]
    assert not any(re.search(r"(?:[Ss]et up|[Aa]dd|bill) \{name\}", ask.text) for ask in bill.asks)
    code = registry.get("iot_devices").tools["add_lock_code"]
    assert code.asks and all("'{name}'" in ask.text for ask in code.asks)


def test_a_placed_order_says_what_was_done() -> None:
    """"Done: order ORD-10082 is open." of a limit order to buy 2 shares of XLE at $77.35: a fill says
    its price, a resting order its limit and how long it waits."""
    account = {"account_id": "BRK-10001", "ticker": "QCOM"}
    resting = _replies("trading", "place_order", {**account, "side": "sell", "quantity": 10, "order_type": "limit",
                                                  "limit_price": 999.0, "time_in_force": "gtc"})
    assert all("$999" in t and "until it fills or you cancel it" in t for t in resting), resting
    filled = _replies("trading", "place_order", {**account, "side": "buy", "quantity": 3})
    assert all(re.search(r"filled.* at \$[\d,]+\.\d\d (?:a share|each)", t) for t in filled), filled


def test_a_name_with_a_comma_is_quoted_not_read_before_its_noun() -> None:
    """"offer $85 for the Gloomhaven Board Game, Unpunched listing from toysbyelijah" reads as a list."""
    say = _say("marketplace")
    titled = [(lst, t) for lst, t in say.index.labels["listing"].items() if isinstance(t, str) and "," in t]
    assert titled
    for listing, title in titled:
        assert f"'{title}'" in say.entity("listing", listing), say.entity("listing", listing)


def test_a_cancelled_alert_and_a_purchase_say_which_and_what() -> None:
    """"Done: that alert won't fire." after setting another alert says neither which; "Done: order
    ORD-10015, $189.98 paid with Discover ending 7542." is a form, not what was bought."""
    alert = _first("trading", "list_price_alerts", {"status": "active"}, "alerts")
    for text in _replies("trading", "cancel_price_alert", {"alert_id": alert["alert_id"]}):
        assert alert["ticker"] in text, text
    say = _say("marketplace")
    listing = _callable("marketplace", "buy_listing", ({"listing_id": lst} for lst in say.index.live["listing"]))
    for text in _replies("marketplace", "buy_listing", listing):
        assert text.startswith(("Bought '", "Done: you bought '")), text


def test_a_copy_under_a_new_name_leaves_the_original_its_name() -> None:
    """After "copy 'Home inventory.csv' to the Desktop and call it 'Home inventory backup.csv'", "add
    'Home inventory backup.csv' to my favorites" was a call on the original: the copy's name was taken
    for a new name of its source."""
    from types import SimpleNamespace

    from prove.synth.teachers.programmatic import Planner, Step

    server = registry.get("filesystem")
    args = {"path": "/Documents/Home/Home inventory.csv", "destination_folder": "/Desktop",
            "new_name": "Home inventory backup.csv"}
    with Session([server], world=0) as session:
        result = session.call("copy_path", args)
    say = _say("filesystem")
    planner = SimpleNamespace(server=server, index=say.index, say=say)
    Planner._note_renames(planner, [Step(server.tools["copy_path"], args, {}, result, None)])
    assert ("item", args["path"]) not in say.renamed, say.renamed
    # nor is a new bill's name taken for its category's ("change the budget for the category 'Meal kit'")
    bill = {"name": "Meal kit", "payee": "HelloFresh", "amount": 59.99, "category_id": "CAT-10007",
            "account_id": "ACC-10004", "frequency": "weekly", "next_due_date": "2026-03-30"}
    budget = registry.get("budget")
    with Session([budget], world=0) as session:
        added = session.call("add_bill", bill)
    assert added.ok, added.error
    said = _say("budget")
    Planner._note_renames(SimpleNamespace(server=budget, index=said.index, say=said),
                          [Step(budget.tools["add_bill"], bill, {}, added, None)])
    assert ("category", "CAT-10007") not in said.renamed, said.renamed


def test_purchases_are_told_apart_from_the_items_of_one() -> None:
    """"you bought Artisan 5 qt Stand Mixer ($297.65 on June 11, 2025) and 2 × Catan Board Game, Streaming
    Stick 4K and Resistance Bands Set ($209.43 ...)" runs two receipts' items together."""
    with Session(["retail_chain"], world=0) as session:
        data = session.call("list_purchases", {}).data
    text = data["purchases_text"]
    assert text.count("; ") == min(len(data["purchases"]), 5) - 1 + (data["total"] > 5), text
    assert re.search(r"\); and \d+ more purchases$|\)$", text), text


def test_a_device_is_asked_about_in_words_that_fit_a_plural_name() -> None:
    """"How is the Office Blinds doing right now?": the blinds are plural."""
    tool = registry.get("iot_devices").tools["get_device"]
    assert not any(re.search(r"\b(?:is|was|does|has) \{device_id\}", ask.text) for ask in tool.asks)


def test_a_new_listing_title_reads_after_my() -> None:
    """"I want to sell my Levi's 501 jeans, 32x32 in the Clothing & Shoes category" runs the title's
    comma into the sentence."""
    tool = registry.get("marketplace").tools["create_listing"]
    titles = [title for _, title, _ in tool.values["category_id, listing_title, price"]]
    assert titles and not [t for t in titles if "," in t], titles


def test_an_envelope_still_over_budget_after_a_move_says_so() -> None:
    """"the remaining budget of the Personal Care category is now -$124.65"."""
    with Session(["budget"], world=0) as session:
        categories = session.call("list_categories", {}).data["categories"]
    over = next(c for c in categories if c["kind"] == "expense" and c["remaining"] < -20)
    source = next(c for c in categories if c["kind"] == "expense" and c["remaining"] > 20)
    texts = _replies("budget", "move_budget", {"from_category_id": source["category_id"],
                                               "to_category_id": over["category_id"], "amount": 10.0})
    assert texts and not any("-$" in t for t in texts), texts
    assert any("still" in t and "over budget" in t for t in texts), texts


def test_a_listing_that_found_nothing_says_what_it_kept_to() -> None:
    """"Show me the money I've moved in and out of the Dining Out category" answered "There are no
    budget moves." reads as if there were none at all; so does "No budget moves came up." of the moves in
    February 2026."""
    found = 0
    for ex in _generated(["budget"], 120, 57):
        for m in ex["messages"]:
            if m["role"] != "assistant" or not m.get("content"):
                continue
            for said in re.findall(r"(?:no|No) budget moves[^.]*\.", m["content"]):
                found += 1
                assert re.search(r" for the | in [A-Z][a-z]+ \d{4}\b", said), said
    assert found


def test_a_question_of_price_and_stock_is_answered_without_the_blurb() -> None:
    """"What does the Smart Thermostat cost, and is it in stock anywhere?" was answered "... costs $129.99
    (Electronics). Gift-ready packaging. Top rated by our customers. 6 stores have it in stock"."""
    tool = registry.get("retail_chain").tools["get_product"]
    asked = next(ask.text for ask in tool.asks if "cost" in ask.text)
    described = next(ask.text for ask in tool.asks if ask.text.startswith("Describe"))
    product = _first("retail_chain", "search_products", {"query": "Smart Thermostat"}, "products")
    with Session(["retail_chain"], world=0) as session:
        data = session.call("get_product", {"product_id": product["product_id"]}).data
    assert data["stores_with_stock"] > 1
    for reply in _fitting_replies(tool, {"product_id": product["product_id"]}, data, asked):
        assert "description" not in reply.text and "stock" in reply.text, reply.text
    assert all("description" in r.text for r in _fitting_replies(tool, {"product_id": product["product_id"]}, data,
                                                                 described))


def test_a_cuisine_that_is_a_dish_is_not_read_as_a_kind_of_restaurant() -> None:
    """"any Bakery restaurants that charge less than 1 dollar to deliver?" and "Which Burgers places
    deliver to me?" read a category's name as an adjective; it is said as what the app lists under."""
    from .test_reads_rest import _generated

    users = [m["content"] for ex in _generated("food_delivery", 400, 6) for m in ex["messages"] if m["role"] == "user"]
    assert any("listed under" in u for u in users)
    assert not any(re.search(r"\b(Burgers|Salads|Bakery|Pizza|Breakfast) (places|restaurants|delivery)\b", u)
                   for u in users), [u for u in users if re.search(r"(Burgers|Salads|Bakery) (places|restaurants)", u)]


def test_a_corrected_entry_says_what_it_is_now() -> None:
    """"Change the amount of the Kroger transaction ... to $19" was answered "Fixed the entry (Kroger,
    December 30, 2025, Groceries)", silent on the amount it now has."""
    entry = next(t for t, row in _say("budget").index.rows["transaction"].items() if row["payee"] == "Kroger")
    for text in _replies("budget", "update_transaction", {"transaction_id": entry, "amount": 19.0}):
        assert "$19.00" in text, text


def test_the_activity_of_one_account_names_the_account() -> None:
    """"Here's what happened, newest first: bought 1 SPY ..." after an account about another account
    did not say which account the activity was in."""
    texts = _replies("trading", "list_activity", {"account_id": "BRK-10002"})
    assert all("the Roth IRA account" in text for text in texts), texts
    assert not any("in the" in text for text in _replies("trading", "list_activity", {"ticker": "SPY"}))


def test_statements_say_where_each_opened_and_closed() -> None:
    """"Here's what I found: February 2026: from $1,333.41 to $206.87; ..." was terse; a person says
    "February 2026: opened at $1,333.41, closed at $206.87"."""
    with Session(["banking"], world=0) as session:
        first = session.call("list_statements", {}).data["statements"][0]
    for args in ({"period": "2025-12"}, {"account_id": "ACC-10003"},
                 {"account_id": first["account_id"], "period": first["period"]}):
        for text in _replies("banking", "list_statements", args):
            assert " from $" not in text, text
            assert re.search(r"opened at \$[\d,]+\.\d\d(?:,| and) closed at \$[\d,]+\.\d\d", text), text


def test_a_listing_of_the_last_few_says_no_more_than_were_asked_for() -> None:
    """"Show the last 10 transactions" got 5 shown and "... and 179 more": the count was of the whole
    account, not of the 10 asked for. A listing cut at the number asked says those, and none beyond; one
    that asked no number counts all that match ("which purchases were over $15?" has more than 25)."""
    for server, tool, args, key in (("budget", "list_transactions", {"limit": 10}, "transactions_text"),
                                    ("budget", "list_transactions", {"limit": 3}, "transactions_text"),
                                    ("payments", "list_transfers", {"limit": 3},
                                     "transfers_text"),
                                    ("trading", "search_securities", {"kind": "stock", "limit": 3},
                                     "securities_text")):
        with Session([server], world=0) as session:
            data = session.call(tool, args).data
        assert data["total"] > args["limit"], (tool, data["total"])
        text = data[key]
        assert not re.search(r"and \d+ more", text), text
        assert len(re.split(r"; | and (?=\$|the |[A-Z])", text)) == args["limit"], text  # as many as asked
    for server, tool, args, key in (("budget", "list_transactions", {"kind": "expense"}, "transactions_text"),
                                    ("budget", "list_transactions", {"limit": 20}, "transactions_text"),
                                    ("trading", "search_securities", {}, "securities_text")):
        with Session([server], world=0) as session:
            data = session.call(tool, args).data
        listed = len(data[key.removesuffix("_text")])
        assert data["total"] > listed > 10, (tool, args, data["total"])
        # no number asked: how many match in all; "my last 20": those 20
        text = data[key]
        said = re.split(r"; | and (?=\$|the |[A-Z])", re.sub(r";? and \d+ more\b.*$", "", text))
        assert re.search(rf"and {(data['total'] if 'limit' not in args else listed) - len(said)} more\b", text), \
            (args, text)


def test_a_payment_shown_says_who_paid_what_when_and_where_it_stands_first() -> None:
    """"Show me the payment 'Movie night'" was answered "... on November 21, 2025; the 30 days to refund
    it ended ..., so it can't be refunded now": the payment's own state went unsaid."""
    with Session(["payments"], world=0) as session:
        received = session.call("list_payments", {"direction": "received", "limit": 100}).data["payments"]
    kinds = set()
    for payment in received:
        kinds.add((payment["status"], payment["refundable_amount"] > 0))
        for text in _replies("payments", "get_payment", {"payment_id": payment["payment_id"]}):
            head = re.split(r"[;.] ", text)[0]
            assert f"{payment['counterparty_name']} paid you $" in head, text
            assert re.search(r"the payment is (?:completed|partially refunded)|you've refunded it in full", head), text
    assert ("completed", False) in kinds and ("completed", True) in kinds, kinds


def test_a_payee_added_in_the_conversation_is_paid_by_its_name() -> None:
    """"Send $100 to that payee" was answered "Done: the new payee gets $100": the payment's record has no
    name, but the payee's own record, made earlier in the conversation, does."""
    synth = Synthesizer(SynthConfig(n=200, seed=1, servers=["banking"]))
    ex = json.loads(synth.example(50).line)
    added = next(json.loads(m["content"]) for m in ex["messages"] if m["role"] == "tool" and "added_on" in m["content"])
    after = [i for i, m in enumerate(ex["messages"]) if m["role"] == "tool" and '"kind": "payee"' in m["content"]]
    paid = [next(m["content"] for m in ex["messages"][i:] if m["role"] == "assistant" and m.get("content"))
            for i in after]
    assert any(re.search(r"(?:new|that) payee", m["content"]) for m in ex["messages"] if m["role"] == "user"), ex["id"]
    assert paid and all("new payee" not in text and added["name"] in text for text in paid), paid


def test_a_dispute_is_asked_of_a_purchase_not_of_the_banks_fee() -> None:
    """"I've opened dispute DSP-10004 for the $15.81 charge at Foreign transaction fee": every reason a
    request gives ("I never made that charge", "the order never arrived") is of a merchant's charge."""
    from prove.synth.teachers.programmatic import _subset

    server = registry.get("banking")
    where = next(p.where for p in server.tools["open_dispute"].params if p.name == "transaction_id")
    offered = set(_subset(server, 0, "transaction", where))
    with Session(["banking"], world=0) as session:
        fees = {t["transaction_id"] for t in session.call("list_transactions", {"limit": 200}).data["transactions"]
                if t["kind"] == "fee"}
    assert fees and offered and not offered & fees


def test_the_name_on_a_card_is_a_persons() -> None:
    """"Save the card 4111 1111 1111 1111, expiring 12/29, for Cedar Labs as 'Shared family card'"."""
    from prove.env.fake import COMPANY_SUFFIXES
    from prove.synth.values import ValueMaker

    maker = ValueMaker(None, random.Random(5))
    names = {maker.string("cardholder_name", {"type": "string"}, "MAYA OKAFOR", 1) for _ in range(60)}
    assert not any(name.split()[-1] in COMPANY_SUFFIXES for name in names), names
    assert all(len(name.split()) == 2 for name in names), names


def test_a_listing_that_found_nothing_says_what_it_kept_to_with_the_word_its_filter_takes() -> None:
    """"I found no purchases for Harbor Supply Co. Westside", "There are no incoming requests for Aisha
    Phillips" (of "what has Aisha Phillips sent me?"), "I found no NVDA activities for NVDA": a store's
    purchases are at it, a sender's requests from them, and a ticker said once."""
    from prove.synth.wording import kept_to

    def param(server: str, tool: str, name: str):
        return next(p for p in registry.get(server).tools[tool].params if p.name == name)

    for server, tool, name, args, word in (
            ("retail_chain", "list_purchases", "store_id", {}, "at"),
            ("food_delivery", "list_orders", "restaurant_id", {}, "from"),
            ("payments", "list_requests", "counterparty_id", {"direction": "incoming"}, "from"),
            ("payments", "list_payments", "counterparty_id", {"direction": "sent"}, "to"),
            ("banking", "list_scheduled_payments", "payee_id", {}, "to"),
            ("banking", "list_scheduled_payments", "account_id", {}, "for"),  # from or to it
            ("marketplace", "list_offers", "listing_id", {}, "on"),
            ("trading", "list_activity", "account_id", {}, "in"),
            ("trading", "list_positions", "account_id", {}, "in"),
            ("shopping", "search_products", "brand_id", {}, "from"),
            ("banking", "list_transactions", "card_id", {}, "made with"),
            ("issue_tracker", "search_issues", "assignee_id", {}, "assigned to"),
            ("maps", "search_nearby", "place_id", {}, "near"),  # not "no open cafes for Juniper Climbing Gym"
            ("email", "list_messages", "folder_id", {}, "in"),  # not "no unread messages for the Drafts folder"
            # not "No messages for the channel 'general' for Bianca Richardson came up"
            ("team_chat", "search_messages", "channel_id", {}, "in"),
            ("team_chat", "search_messages", "from_user_id", {}, "from")):
        assert kept_to(param(server, tool, name), args) == word, (tool, name)
    activity = registry.get("trading").tools["list_activity"]
    said = Wording(random.Random(0)).nothing({"activities": [], "total": 0}, activity, {"ticker": "NVDA"},
                                             [f"{kept_to(param('trading', 'list_activity', 'ticker'), {})} NVDA"])
    assert said.count("NVDA") == 1, said


def test_a_listing_that_found_nothing_in_a_window_says_the_window() -> None:
    """"What dividends did I get in the Roth IRA account since January 1?" was answered "There are no
    dividends for the Roth IRA account.", as if there had never been one."""
    from datetime import date

    from prove.synth.wording import window_said

    today = date(2026, 3, 16)
    assert window_said({"start_date": "2026-01-01"}, today) == "since January 1"
    assert window_said({"start_date": "2025-12-01", "end_date": "2026-02-15"}, today) == \
        "between December 1, 2025 and February 15"
    assert window_said({"before": "2026-03-01T00:00:00"}, today) == "before March 1"
    assert window_said({"kind": "dividend"}, today) is None
    activity = registry.get("trading").tools["list_activity"]
    said = Wording(random.Random(0)).nothing({"activities": [], "total": 0}, activity, {"kind": "dividend"},
                                             ["for the Roth IRA account", "since January 1"])
    assert said.rstrip(".").endswith("dividends for the Roth IRA account since January 1"), said


def test_the_users_own_passport_is_not_the_passport_of_me() -> None:
    """"Update the passport of me: number 888833791, ...": the traveller may be the user, said "me"."""
    tool = registry.get("travel_booking").tools["update_traveler_passport"]
    assert any("{traveler_id}" in ask.text for ask in tool.asks)
    for ask in tool.asks:
        assert not re.search(r"\bof \{traveler_id\}", ask.text), ask.text


def test_a_flight_booked_for_others_says_for_whom() -> None:
    """"Book the B6 2888 flight for Dmitri Torres and Nia Bennett" was answered "You're booked: B6 2888 BOS
    to ATL on March 17", as if the user were flying."""
    with Session(["travel_booking"], world=0) as session:
        flight = session.call("search_flights", {"origin": "BOS", "destination": "ATL",
                                                 "departure_date": "2026-03-17"}).data["flights"][0]["flight_id"]
    for extra in ({"payment_method_id": "CARD-10001"}, {"use_points": True}):
        args = {"flight_id": flight, "fare": "economy", "traveler_ids": ["TRV-10002", "TRV-10003"], **extra}
        for text in _replies("travel_booking", "book_flight", args):
            assert "You're booked" not in text, text
        assert any("Dmitri Torres and Nia Bennett" in text for text in _replies("travel_booking", "book_flight", args))


def test_a_business_in_payments_is_not_called_a_friend() -> None:
    """"Save a friend as a contact" for Happy Paws Grooming: a member left unnamed is called by what
    it is, a friend or a business, and either is said by its name alone."""
    say = _say("payments")
    users = say.index.every["user"]
    business = next(k for k, r in users.items() if r["kind"] == "business")
    person = next(k for k, r in users.items() if r["kind"] == "person" and not say._is_me("user", k))
    assert say.noun_of("user", business) == "business"
    assert say.noun_of("user", person) == "friend"
    assert say.entity("user", business) == users[business]["display_name"]
    assert say.entity("user", person) == users[person]["display_name"]


def test_a_security_goes_on_a_watchlist_whose_theme_it_fits() -> None:
    """"Add BND to the Big Tech watchlist": a security put on a themed watchlist fits its theme."""
    from prove.servers.trading.world import WATCHLIST_FITS

    from .test_reads_rest import _turns

    turns = [(call["arguments"]["ticker"], user) for call, user, _ in _turns("trading", "add_to_watchlist", 400, 5)]
    themed = [(ticker, name) for ticker, user in turns for name in WATCHLIST_FITS if f"{name}" in user]
    assert len(themed) >= 10, turns
    with Session(["trading"]) as session:
        assert not session.satisfies("security", "BND", WATCHLIST_FITS["Big Tech"])
        assert not session.satisfies("security", "BRK.B", WATCHLIST_FITS["Growth Watch"])
        for ticker, name in themed:
            assert session.satisfies("security", ticker, WATCHLIST_FITS[name]), (ticker, name)


def test_a_transfer_of_several_units_is_answered_with_their_count() -> None:
    """"Move 4 Pickleball Paddle Sets ..." answered "... gets the Pickleball Paddle Set from ...": a reply to
    a transfer of several units says how many."""
    say = _say("retail_chain")
    stores = list(say.index.live["store"])
    moved = _callable("retail_chain", "request_transfer",
                      ({"product_id": p, "from_store_id": a, "to_store_id": b, "quantity": 4}
                       for p in say.index.live["product"] for a in stores for b in stores if a != b))
    several = _replies("retail_chain", "request_transfer", moved)
    assert several and all(re.search(r"\b(4|four)\b", t) for t in several), several
    one = _replies("retail_chain", "request_transfer", {**moved, "quantity": 1})
    assert any(" gets " in t for t in one), one


def test_the_one_thing_searched_for_is_found_alone() -> None:
    """"Please find the payment for 'Thanks!'" found 35 payments: words that ask for the one thing are the whole
    label of one thing only."""
    found = 0
    for ex in _generated(["payments"], 400, 11):
        for turn in ex["turns"]:
            for call in turn["calls"]:
                if call["name"] == "list_payments" and \
                        f"the payment for '{call['arguments'].get('query')}'" in turn["user"]:
                    with Session(ex["servers"], world=ex["world"]) as session:
                        assert session.call("list_payments", call["arguments"]).data["total"] == 1, call
                    found += 1
    assert found >= 2


def test_a_date_fixed_is_a_few_days_off() -> None:
    """"Fix the date of the Safeway transaction from October 3, 2025; it actually happened on March 11": a
    transaction filed on the wrong day happened a day or a few off, not five months later."""
    fixed = 0
    for ex in _generated(["budget"], 400, 13):
        for turn in ex["turns"]:
            for call in turn["calls"]:
                if call["name"] == "update_transaction" and "date" in call["arguments"]:
                    with Session(ex["servers"], world=ex["world"]) as session:
                        was = session.call("get_transaction", {"transaction_id": call["arguments"]["transaction_id"]})
                    if not was.ok:  # recorded earlier in the conversation
                        continue
                    gap = abs(date.fromisoformat(call["arguments"]["date"]) - date.fromisoformat(was.data["date"]))
                    assert 1 <= gap.days <= 4, (turn["user"], was.data["date"])
                    fixed += 1
    assert fixed >= 2


def test_a_bound_a_person_sets_is_round() -> None:
    """"What flies from SEA to DEN on March 19 for under $400.50?" and "change the daily limit on the card ...: $300.99
    a day": a bound on a search, a limit and a savings target are round amounts; an amount paid may have cents."""
    from prove.synth.values import ValueMaker

    maker = ValueMaker(None, random.Random(7))
    spec = {"type": "number", "minimum": 0}
    names = ("max_price", "min_amount", "daily_limit", "target_amount")
    bounds = [maker.value(name, spec) for name in names for _ in range(80)]
    assert all(float(v) == int(v) for v in bounds), bounds
    paid = [maker.value("amount", spec) for _ in range(80)]
    assert any(float(v) != int(v) for v in paid), paid


def test_a_memo_to_a_business_is_no_thank_you_note() -> None:
    """"Send $100.50 to Granite Property Management ... for 'Thanks again'" and "... AT&T Wireless ... with the memo
    'As agreed'": a memo on a payment to a business reads as a business's reference, not a note to a friend."""
    said = 0
    for ex in _generated(["banking"], 600, 1212):
        rows = EntityIndex(registry.get("banking"), ex["world"]).rows["payee"]
        for turn in ex["turns"]:
            for call in turn["calls"]:
                payee, memo = call["arguments"].get("payee_id"), call["arguments"].get("memo")
                if isinstance(memo, str) and payee in rows and rows[payee]["kind"] == "business":
                    said += 1
                    assert not re.search(r"(?i)thank|agreed", memo), (rows[payee]["name"], memo)
    assert said >= 3


def test_a_corrected_amount_is_near_what_it_was() -> None:
    """"Change the amount on the Costco transaction from October 8, 2025: it should be $4." (it was $67.62): a
    correction is a slip of some dollars, not a different purchase."""
    from prove.synth.entities import EntityIndex

    corrected = 0
    for ex in _generated(["budget"], 400, 9135):
        index = EntityIndex(registry.get("budget"), ex["world"])
        for turn in ex["turns"]:
            for call in turn["calls"]:
                if call["name"] == "update_transaction" and "amount" in call["arguments"]:
                    was = abs(index.rows["transaction"][call["arguments"]["transaction_id"]]["amount"])
                    corrected += 1
                    assert 0.8 * was <= call["arguments"]["amount"] <= 1.2 * was != call["arguments"]["amount"], \
                        (was, turn["user"])
    assert corrected >= 5
