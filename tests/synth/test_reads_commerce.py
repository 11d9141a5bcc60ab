"""How the banking, budget, payments, trading, marketplace, shopping and retail servers read: what
their listings say, how their requests leave a value out, and what their replies answer."""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from prove.env import Session, registry
from prove.synth import SynthConfig, Synthesizer
from prove.synth.entities import EntityIndex
from prove.synth.phrasing import Phrasing
from prove.synth.sampler import Sampler
from prove.synth.teachers.programmatic import _fitting_replies
from prove.synth.wording import Wording


def _say(server_name: str, world: int = 0) -> Phrasing:
    server = registry.get(server_name)
    return Phrasing(server, Sampler(server, world, [world]).context(world), EntityIndex(server, world),
                    Wording(random.Random(0)))


@functools.lru_cache(maxsize=8)
def _generated(servers: tuple[str, ...], n: int, seed: int) -> tuple[dict, ...]:
    """The accepted examples among the first `n` candidates of a run."""
    synth = Synthesizer(SynthConfig(n=n, seed=seed, servers=list(servers)))
    return tuple(json.loads(c.line) for c in (synth.example(i) for i in range(n)) if c.line)


def _replies(server_name: str, tool_name: str, args: dict[str, Any], world: int = 0) -> list[str]:
    """Every reply of the tool that fits the call, filled from its result."""
    server = registry.get(server_name)
    with Session([server], world=world) as session:
        result = session.call(tool_name, args)
    assert result.ok, result.error
    tool = server.tools[tool_name]
    return [_say(server_name, world).reply(tool, r.text, args, result.data, {}) for r in _fitting_replies(tool, args, result.data)]


def _replies_to(server_name: str, tool: str, arg_sets: Sequence[Mapping[str, Any]]) -> Iterator[str]:
    """Every reply the teacher may give for each of these calls, each call having at least one."""
    for args in arg_sets:
        texts = _replies(server_name, tool, args)
        assert texts, args
        yield from texts


def _read_out(server_name: str, tool_name: str, args: dict[str, Any], asked: str = "") -> str:
    """What the assistant says of a read's result where the tool has no reply of its own."""
    server = registry.get(server_name)
    with Session([server], world=0) as session:
        result = session.call(tool_name, args)
    assert result.ok, result.error
    words = Wording(random.Random(0))
    return _say(server_name).to_user(words.summary(server.tools[tool_name], result.data, (), opener=False,
                                                   args=args, asked=asked))


def _answers(server_name: str, tool_name: str, args: dict[str, Any]) -> dict[str, list[str]]:
    """Each of the tool's phrasings, with the replies the teacher gives it for this call."""
    from prove.env import Session
    server = registry.get(server_name)
    tool = server.tools[tool_name]
    with Session([server], world=0) as session:
        data = session.call(tool_name, args).data
    return {ask.text: [_say(server_name).reply(tool, r.text, args, data, {})
                       for r in _fitting_replies(tool, args, data, ask.text)] for ask in tool.asks}


def test_an_offer_is_read_by_its_whole_summary_and_not_again_field_by_field() -> None:
    """"your $41.99 offer on 'Brio ...' (asking $62.50), countered by…: seller username greencloset,
    counter amount $52.50" cut its summary and said its parts again; offers that share a message
    were headed by nothing ("2 offers (all 'Happy to buy today ...'): amount $42.50, ...")."""
    for status in ("countered", "pending"):
        text = _read_out("marketplace", "list_offers", {"role": "made", "status": status})
        assert text.startswith("2 offers: your $"), text
        assert "…" not in text and "username" not in text and "counter amount" not in text, text
        assert "summary" not in text and "listing title" not in text and "(all " not in text, text
    assert "countered by greencloset at $52.50" in _read_out("marketplace", "list_offers",
                                                            {"role": "made", "status": "countered"})


def test_a_member_is_said_by_what_they_are_to_the_record_and_stars_are_counted() -> None:
    """"sender username yusuf.adams", "recipient username guptajewels", "rater username luisw_music,
    stars 5" read a field's name; a person says "from yusuf.adams", "by lucas.bailey, 4 stars"."""
    received = _read_out("marketplace", "list_messages", {"direction": "received"})
    assert re.search(r"from [a-z]", received) and "username" not in received, received
    mine = _read_out("marketplace", "list_messages", {})
    assert "from you" in mine and "lucass_tech" not in mine, mine
    profile = _read_out("marketplace", "get_seller_profile", {"member_id": "MBR-10018"})
    assert re.search(r"rating: [1-5] stars?, .*by [a-z]", profile) and "stars 4" not in profile, profile


def test_a_scheduled_payment_says_when_it_goes_out_next_and_how_often() -> None:
    """"High-Yield Savings: amount $200.00, created January 9, 2025 at 1:15 PM, frequency monthly"
    said when it was set up; a person wants "next on March 25, monthly". A listing that takes
    payments to or from an account is not asked for as the ones "coming out of" it."""
    text = _read_out("banking", "list_scheduled_payments", {}, asked="What payments do I have scheduled?")
    assert "created" not in text and "frequency" not in text, text
    assert re.search(r": \$[\d,.]+, next on [A-Z][a-z]+ \d+, (?:monthly|one-time)", text), text
    assert "amount" not in text, text  # "Progressive: $140.85", not "amount $140.85"
    bills = _read_out("budget", "list_bills", {}, asked="What bills do I have?")
    assert re.search(r"next due [A-Z][a-z]+ \d+", bills), bills
    tool = registry.get("banking").tools["list_scheduled_payments"]
    assert not [a.text for a in tool.asks if "coming out of {account_id}" in a.text]


def test_a_value_the_user_leaves_out_is_left_out_not_said_vaguely() -> None:
    """"Track my new Coffee subscription bill with Blue Bottle Coffee: $22 monthly from the Citi
    Double Cash account, under a category, first due March 30" says a value vaguely where a person
    would leave it out; the assistant then asks which one to use."""
    seen = 0
    for ex in _generated(("budget",), 160, 7):
        if ex["kind"] != "clarification":
            continue
        user, question = ex["messages"][1]["content"], ex["messages"][2]["content"]
        assert not re.search(r"\b(?:under|from) (?:a|one of the) (?:category|categories|account)", user), user
        if re.search(r"bill .*(?:first|next) due", user) and "under" not in user:
            seen += 1
            assert question in ("Which category should I use?", "Which of the categories should I use?",
                                "Which category should it be?"), question
    assert seen, "no add_bill request left its category out"


def test_a_goal_says_what_each_contribution_was_and_a_move_says_where_the_money_went() -> None:
    """"6 contributions: date March 2; date February 2; ..." left out the amount they all share;
    "1 budget move: amount $10.00, created ..., from category Pets" never said where it went;
    "percent complete 18.7" is "18.7% complete"."""
    goal = _read_out("budget", "get_goal", {"goal_id": "GOAL-10001"}, asked="Show me {goal_id} and all my contributions to it.")
    assert re.search(r"\d+ contributions, \$[\d,.]+ each: [A-Z][a-z]+ \d+;", goal), goal
    assert "date " not in goal and re.search(r"\d% complete", goal), goal
    moves = _read_out("budget", "list_budget_moves", {"month": "2025-11"}, asked="What budget moves have I made in {month}?")
    assert re.search(r"\$[\d,.]+ from [A-Z][\w &]+ to [A-Z]", moves) and "from category" not in moves, moves


def test_can_i_still_refund_a_payment_is_answered_where_nothing_can_be() -> None:
    """"Can I still refund the payment 'Ski trip house'?" was answered "Alexander Gray: completed,
    amount $248.23, created December 19, 2025 ..., fee $0.00": no yes or no."""
    seen = set()
    for world in range(4):
        with Session(["payments"], world=world) as session:
            received = [p for p in session.call("list_payments", {"limit": 100}).data["payments"]
                        if p["direction"] == "received" and not p["refundable_amount"]]
        for payment in received:
            answer = {"completed": "can't be refunded now", "refunded": "nothing left to refund"}[payment["status"]]
            seen.add(payment["status"])
            for text in _replies("payments", "get_payment", {"payment_id": payment["payment_id"]}, world):
                assert answer in text, text
    assert seen == {"completed", "refunded"}


def test_a_payment_is_not_asked_what_its_name_already_says() -> None:
    """"Who was the payment 'Trivia night tab' from Leo James with, and what was it for?" asks what
    the words that name the payment say; a request about a payment asks what its name does not."""
    from .test_reads_rest import _turns

    turns = _turns("payments", "get_payment", 400, 5)
    assert turns
    for call, user, reply in turns:
        assert "what was it for" not in user and "Who was" not in user, user
        if "When did" in user:
            assert re.search(r" on [A-Z][a-z]+ \d", reply), reply


def test_a_balance_question_is_answered_with_the_balances() -> None:
    """"Main Savings: current balance $37,275.28, available balance $37,275.28, type savings, ending
    3871, pending $0.00, interest rate 3.86" read out every field (a rate without its %)."""
    for account, said in (("ACC-10001", r"has \$[\d,.]+; \$[\d,.]+ of it is available, with \$[\d,.]+ still pending"),
                          ("ACC-10002", r"has \$[\d,.]+, all of it available"),
                          ("ACC-10003", r"You owe \$[\d,.]+ on the Travel Rewards Mastercard( account)?; \$[\d,.]+ of its "
                                        r"\$[\d,.]+ limit is available")):
        for text in _replies("banking", "get_account", {"account_id": account}):
            assert re.search(said, text) and "interest rate" not in text, text


def test_daily_closing_prices_are_answered_with_closing_prices() -> None:
    """"Show me the daily closing prices of TSLA" was answered only "The change in Tesla, Inc. over
    the last 10 trading days is 14.61%."; a reply may say the closes: the last, lowest and highest."""
    texts = _replies("trading", "get_price_history", {"ticker": "TSLA"})
    assert any(re.search(r"closed at \$[\d,.]+ on [A-Z][a-z]+ \d+, .* ran from \$[\d,.]+ to \$[\d,.]+", t) for t in texts), texts


def test_a_product_is_described_in_a_sentence_not_by_its_fields() -> None:
    """"Cotton Bath Towel Set of 6: sku 573-792-146, brand Cedar & Loom, ..., stores with stock 7"
    read the record's fields; a person says who makes it, what it costs and where it is in stock."""
    for text in _replies("retail_chain", "get_product", {"product_id": "PRD-10015"}):
        assert re.fullmatch(r"The (?:price of the )?Cotton Bath Towel Set of 6 (?:from Cedar & Loom costs \$59\.99 "
                            r"\(Home & Bedding\)\. .+ |is \$59\.99; )(?:\d+ stores have it in stock, \d+ units in all|"
                            r"[Oo]nly 1 store has it in stock.*)\.", text), text
        assert "sku" not in text and "stores with stock" not in text, text


def test_a_transaction_says_what_it_was_for_and_a_listing_no_codes_nobody_asked_for() -> None:
    """"Costco: amount -$107.80, March 13, account Everyday Checking, category Groceries, kind
    expense" read a field's name; "sku 831-775-870" and "order id ORD-10001" are not how people say them."""
    with Session(["budget"], world=0) as session:
        entries = session.call("list_transactions", {"limit": 200}).data["transactions"]
    for kind in ("expense", "income"):
        entry = next(t for t in entries if t["kind"] == kind)
        for text in _replies("budget", "get_transaction", {"transaction_id": entry["transaction_id"]}):
            said = r" on [A-Z][a-z]+ \d+(?:, \d{4})?: \$[\d,.]+ paid (?:from|into) .+, filed under "
            assert re.search(said, text), text
            assert "kind" not in text, text
    products = _read_out("retail_chain", "search_products", {"query": "Bamboo Cutting Board Set of 3"})
    assert "sku" not in products, products
    sales = _read_out("marketplace", "list_orders", {"role": "sales"}, asked="List what I've sold on the marketplace.")
    assert "order ORD-10001" in sales and "order id" not in sales, sales


def test_a_reply_says_an_offer_once_and_free_shipping_in_words() -> None:
    """"Rejected the offer on the listing 'REI Half Dome SL 2+ Tent' of yours, the $72.50 offer on
    'REI Half Dome SL 2+ Tent'." said the offer twice; "now sells for $40.75, plus $0.00 shipping"."""
    with Session(["marketplace"], world=0) as session:
        offer = next(o for o in session.call("list_offers", {"status": "pending"}).data["offers"])
    for text in _replies("marketplace", "respond_to_offer", {"offer_id": offer["offer_id"], "action": "reject"}):
        assert text.count(offer["listing_title"]) == 1 and offer["buyer_username"] in text, text
    with Session(["marketplace"], world=0) as session:
        mine = next(item for item in session.call("list_my_listings", {}).data["listings"] if item["status"] == "active")
    for text in _replies("marketplace", "edit_listing", {"listing_id": mine["listing_id"], "price": 40.75,
                                                         "shipping_cost": 0.0}):
        assert "$0.00" not in text and "free shipping" in text, text


def test_requests_say_what_the_call_does_and_a_payment_is_not_asked_about_vaguely_after_was() -> None:
    """"Are there any bad reviews of X? Worst first." got every review sorted, good ones too; "who
    was one of the payments with" does not read."""
    from prove.synth.teachers.programmatic import _vague_fits

    asks = [a.text for a in registry.get("shopping").tools["list_reviews"].asks]
    assert not [a for a in asks if "bad reviews" in a or "best reviews" in a], asks
    assert not _vague_fits("Who was {payment_id} with, and what was it for?", "payment_id")
    stores = _read_out("retail_chain", "find_stores", {"pickup_only": True})
    assert "city " not in stores and "state " not in stores and re.search(r", at \d+ [A-Z]", stores), stores


def test_a_shared_field_named_like_money_but_holding_a_name_is_not_said_as_dollars() -> None:
    """A record's items that share a `payment_card` ID are not read as "$CARD-10001 each"."""
    from prove.synth.results import describe

    order = {"order_id": "ORD-1", "title": "Lamp", "charges": [{"payment_card": "CARD-10001", "amount": 5.0},
                                                               {"payment_card": "CARD-10001", "amount": 7.0}]}
    assert "each" not in describe(order)


def test_an_order_is_said_by_what_it_trades_and_its_status_answers_did_it_go_through() -> None:
    """"ORD-10080: ticker ADBE, side sell, quantity 1" and "ORD-10018: filled, total $455.52, ticker
    BND, side buy, order type market, quantity 8" read fields; "Did ORD-10018 go through?" wants yes or no."""
    listed = _read_out("trading", "list_orders", {"status": "open"}, asked="Do I have any open orders?")
    assert re.search(r"ORD-\d+ \((?:buy|sell) \d+ shares? of [A-Z.]+ at (?:market|a \$[\d,.]+ limit)\)", listed), listed
    assert not re.search(r"ticker|side|quantity|order type", listed), listed
    for order, said in (("ORD-10018", r"filled at \$[\d,.]+ a share on .+, \$[\d,.]+ in all\."),
                        ("ORD-10080", r"is still open; it hasn't filled yet\."),
                        ("ORD-10076", r"expired unfilled on ")):
        for text in _replies("trading", "get_order", {"order_id": order}):
            assert re.search(said, text), text


def test_which_way_money_went_and_whose_review_it_is_are_said_in_words() -> None:
    """"Henry Williams: amount $95.11, ..., direction outgoing" and a review "..., mine" read fields."""
    from prove.synth.results import describe

    requests = _read_out("payments", "list_requests", {"status": "pending"}, asked="Do I have any pending requests?")
    assert "direction" not in requests and re.search(r", (?:incoming|outgoing)[;.]", requests), requests
    assert describe({"title": "Love it", "rating": 5, "is_mine": True}) == "Love it: 5 stars, your own."


def test_a_price_alert_says_which_way_it_fires_and_a_counter_is_taken_in_plain_words() -> None:
    """"PYPL: target price $95.55, current price $89.92" never said above or below; "Take the
    counter-offer on the offer on the listing ..." said "on the offer" twice."""
    alerts = _read_out("trading", "list_price_alerts", {}, asked="What price alerts do I have set?")
    assert re.match(r"\d+ price alerts: [A-Z.]+ (?:above|below) \$[\d,.]+: current price", alerts), alerts
    assert "target price" not in alerts, alerts
    asks = [a.text for a in registry.get("marketplace").tools["accept_counter_offer"].asks]
    assert not [a for a in asks if "counter-offer on {offer_id}" in a], asks


def test_an_account_activity_says_what_happened() -> None:
    """"WMT: amount -$1,086.47, price $98.77, occurred February 20 at 3:11 PM, kind buy" read fields;
    a person says "Bought 11 WMT at $98.77", once."""
    text = _read_out("trading", "list_activity", {"account_id": "BRK-10001"}, asked="Show me recent activity in {account_id}.")
    assert re.search(r"(?:Bought|Sold) \d+ [A-Z.]+ at \$[\d,.]+: ", text), text
    assert not re.search(r"kind |description |@ \d", text), text
    dividends = _read_out("trading", "list_activity", {"ticker": "PEP"}, asked="Show me my account activity in {ticker}.")
    assert re.search(r"Dividend on \d+ PEP at \$[\d.]+ a share: \$", dividends) and " sh @" not in dividends, dividends


def test_a_listing_that_ships_free_says_free_shipping() -> None:
    """"American Girl Doll Kit with Accessories: price $78.00, shipping cost $0.00"."""
    text = _read_out("marketplace", "search_listings", {"category_id": "CAT-10011", "condition": "new", "sort": "price_low"},
                     asked="Show me listings in {category_id} marked new, cheapest first.")
    assert "free shipping" in text and "shipping cost $0.00" not in text, text


def test_what_kind_of_thing_a_record_is_is_said_as_a_noun() -> None:
    """"kind expense", "kind bank account", "kind person" read a field's name; "bank account" says it."""
    sources = _read_out("payments", "list_funding_sources", {}, asked="What payment methods do I have?")
    assert "bank account" in sources and "kind" not in sources, sources
    contacts = _read_out("payments", "list_contacts", {}, asked="Who are my contacts?")
    assert "kind" not in contacts, contacts


def test_whats_left_in_a_category_with_nothing_spent_is_answered() -> None:
    """"What's left in the Education category this month?" got "Education: month March 2026, active,
    group Personal, ..., budgeted $30.00" where nothing was spent: what is left was never said."""
    for text in _replies("budget", "get_category", {"category_id": "CAT-10023"}):
        assert re.fullmatch(r"Nothing has been spent in Education in March 2026; all \$[\d,.]+ budgeted is left\.", text), text


def test_a_request_the_assistant_cannot_serve_names_two_different_accounts() -> None:
    """"Fund the Individual Brokerage account with $1000 from the Individual Brokerage account.\""""
    from prove.synth import Target

    synth = Synthesizer(SynthConfig(n=12, seed=3, servers=["trading"]))
    for i in range(12):
        line = synth.example(i, Target("trading", tool="transfer_cash", kind="abstention")).line
        user = json.loads(line)["messages"][1]["content"] if line else ""
        accounts = re.findall(r"the (?:Individual Brokerage|Roth IRA|[\w ]+?) account", user)
        assert len(accounts) == 2 and accounts[0] != accounts[1], user


def test_a_price_range_is_said_as_a_range() -> None:
    """"price $179.00, max price $187.00" is "price $179.00 to $187.00"."""
    text = _read_out("shopping", "search_products", {"query": "Dog Bed"}, asked="Search the store for {query}.")
    assert re.search(r"price \$[\d,.]+ to \$[\d,.]+", text) and "max price" not in text, text


def test_a_holding_is_said_by_its_name_ticker_and_shares_and_a_session_in_words() -> None:
    """"Apple Inc.: price $258.84, ticker AAPL, quantity 10", "dividend yield 3.66", "audience
    friends" and "in its pre market session" read fields and option values."""
    held = _read_out("trading", "list_positions", {"account_id": "BRK-10002"}, asked="What do I hold in {account_id}?")
    assert re.search(r"Apple Inc\. \(AAPL\): price \$[\d,.]+, 10 shares", held), held
    assert not re.search(r"ticker|quantity|available", held), held
    funds = _read_out("trading", "search_securities", {"kind": "etf", "sector": "Bond ETF"},
                      asked="Show me ETFs in the {sector} sector.")
    assert re.search(r"dividend yield [\d.]+%", funds), funds
    paid = _read_out("payments", "list_payments", {"direction": "received", "start_date": "2026-03-02",
                                                    "end_date": "2026-03-06"}, asked="List the money I received.")
    assert "audience" not in paid and "visible to friends" in paid, paid
    for text in _replies("trading", "get_market_status", {}):
        assert "pre market" not in text and "after hours session" not in text, text


def test_a_request_the_assistant_cannot_serve_says_values_that_belong_together() -> None:
    """"I want to sell my Le Creuset dutch oven, 5.5 qt in the Jewelry & Watches category"."""
    from prove.synth import Target

    tool = registry.get("marketplace").tools["create_listing"]
    (key, rows), = [(k, v) for k, v in tool.values.items() if "listing_title" in k and "category_id" in k]
    names = [n.strip() for n in key.split(",")]
    categories = {r[names.index("listing_title")]: r[names.index("category_id")] for r in rows}
    words = {c: n for c, n in ((r["category_id"], r["name"]) for r in _index_rows("marketplace", "category"))}
    synth = Synthesizer(SynthConfig(n=10, seed=5, servers=["marketplace"]))
    for i in range(10):
        line = synth.example(i, Target("marketplace", tool="create_listing", kind="abstention")).line
        user = json.loads(line)["messages"][1]["content"] if line else ""
        title = next((t for t in categories if t in user), None)
        if title is not None:
            assert f"the {words[categories[title]]} category" in user, user


def _index_rows(server: str, kind: str) -> list[dict]:
    return list(EntityIndex(registry.get(server), 0).rows[kind].values())


def test_a_month_over_budget_says_where_and_an_account_is_not_named_twice() -> None:
    """"Am I over budget anywhere this month?" got "with 2 categories over budget" and never which;
    "Roth IRA: roth ira, ending 7295" and "open, time in force gtc" read fields."""
    for text in _replies("budget", "get_monthly_summary", {"month": "2026-03"}):
        assert re.search(r"2 categories over budget: [A-Z][\w &]+ and [A-Z][\w &]+\.$", text), text
    accounts = _read_out("trading", "list_accounts", {}, asked="What accounts do I have?")
    assert "roth ira" not in accounts and ": individual" not in accounts, accounts
    orders = _read_out("trading", "list_orders", {"account_id": "BRK-10001"}, asked="Show every order in {account_id}.")
    assert "time in force" not in orders, orders


def test_a_saved_address_is_said_as_an_address() -> None:
    """"Home: street 1128 High Street, postal code 10029, ..." read an address field by field."""
    text = _read_out("shopping", "list_addresses", {}, asked="Show my saved addresses.")
    assert re.search(r"Home: at \d+ [\w ]+, [A-Z][\w ]+, [A-Z]{2} \d{5}", text), text
    assert "street" not in text and "postal code" not in text, text


def test_a_count_is_said_as_so_many_things() -> None:
    """"Allbirds: product count 1", "review count 3" read a field's name; "1 product", "3 reviews"."""
    brands = _read_out("shopping", "list_brands", {}, asked="Which brands do you carry?")
    assert re.search(r"Allbirds: 1 product;", brands) and "product count" not in brands, brands
    found = _read_out("shopping", "search_products", {"query": "Dog Bed"}, asked="Search the store for {query}.")
    assert re.search(r", \d+ reviews?[;.]", found) and "review count" not in found, found


def test_a_contact_is_not_said_to_be_one_twice() -> None:
    """"Maple Court Parking: contact, contact since March 23, 2023, ..."."""
    text = _read_out("payments", "search_users", {"contacts_only": True, "query": "Court Parking"},
                     asked="Search my contacts for {query}.")
    assert "contact since" in text and "contact, contact" not in text, text


def test_a_read_reply_answers_the_question_asked_and_adds_no_unasked_details() -> None:
    """"How much more can I send to payees today?" was answered "... so $5,000.00 is left. On file
    you have +1-917-654-5281 and 734 Hillcrest Road, ...": the one reply of a tool asked several
    things read out all of them. A reply says what the question asks."""
    def answers(server_name: str, tool_name: str, args: dict[str, Any], asked: str) -> set[str]:
        server = registry.get(server_name)
        with Session([server], world=0) as session:
            data = session.call(tool_name, args).data
        tool = server.tools[tool_name]
        return {r.text for r in _fitting_replies(tool, args, data, asked)}

    limit = answers("banking", "get_profile", {}, "How much more can I send to payees today?")
    assert limit and not any("phone" in t or "address" in t for t in limit), limit
    contact = answers("banking", "get_profile", {}, "What phone number and address do you have on file for me?")
    assert contact and all("{result.phone}" in t and "limit" not in t for t in contact), contact
    credit = answers("shopping", "get_account", {}, "How much store credit do I have?")
    assert credit and not any("phone" in t for t in credit), credit
    details = answers("shopping", "get_account", {}, "Show me my account details.")
    assert details and all("{result.phone}" in t and "{result.store_credit}" in t for t in details), details
    hours = answers("retail_chain", "get_store", {"store_id": "STR-10001"}, "Is {store_id} open right now?")
    assert hours and not any("{result.phone}" in t for t in hours), hours
    where = answers("retail_chain", "get_store", {"store_id": "STR-10001"},
                    "Give me the address and phone number of {store_id}.")
    assert where and all("{result.phone}" in t for t in where), where
    balance = answers("payments", "get_wallet", {}, "What's my balance?")
    assert balance and not any("default" in t or "Requests" in t for t in balance), balance
    market = answers("marketplace", "get_account", {}, "What's my marketplace balance?")
    assert market and not any("payment_methods" in t for t in market), market


def test_a_coupon_is_said_by_what_it_gives_not_by_its_kind_and_value() -> None:
    """"HOLIDAY10: description '$10 off orders of $50 or more', kind fixed, value 10" read a coupon
    field by field; a person says "HOLIDAY10 ($10 off orders of $50 or more, expired ...)"."""
    for status in ("active", "expired", "used", "all"):
        texts = _replies("shopping", "list_coupons", {"status": status})
        assert texts, status
        for text in texts:
            assert "kind" not in text and "value" not in text and "description" not in text, text
            assert re.search(r"[A-Z]+\d* \((?:\$\d+|\d+%|free)", text), text
    assert all("expired" in t for t in _replies("shopping", "list_coupons", {"status": "expired"}))


def test_a_store_listing_says_where_each_store_is_not_its_format() -> None:
    """"1 store: Harbor Supply Co. Downtown: open now, format express, at 1789 Valley Road, ..." read
    the store's format like a form's field; a listing of stores says which and where they are."""
    for text in _replies_to("retail_chain", "find_stores",
                            ({}, {"city": "Tacoma"}, {"pickup_only": True}, {"city": "Tacoma", "open_at": "2026-03-17T12:00"})):
        assert "format" not in text and "Harbor Supply Co." in text and "Street" in text, text


def test_a_count_named_with_its_things_is_said_as_so_many_things() -> None:
    """"0 ratings, active listings 6, items sold 0" and "Books: fee 14.5%, active listings 15" read a
    count by its field's name; a person says "6 active listings, 0 items sold"."""
    for member in ("MBR-10018", "MBR-10061"):
        for profile in _replies("marketplace", "get_seller_profile", {"member_id": member}):
            assert re.search(r"\d+ listings? for sale\b", profile) and re.search(r"\d+ items? sold\b", profile), profile
            assert re.search(r"\d stars? from [a-z]", profile) or "Nobody has rated" in profile, profile
            assert not re.search(r"\b1 [a-z]+s\b", profile), profile
    categories = _read_out("marketplace", "list_categories", {})
    assert re.search(r"Books: .*\b\d+ active listings", categories) and "active listings 1" not in categories, categories


def test_a_watchlist_says_how_many_tickers_it_holds_and_which() -> None:
    """"Big Tech: count 5, created October 21, 2024 at 8:30 PM" answered "how many tickers are on
    each?" by a field's name; a person says "Big Tech (5 tickers: AAPL, MSFT, ...)"."""
    texts = _replies("trading", "list_watchlists", {})
    assert texts
    for text in texts:
        assert "count" not in text and "created" not in text, text
        assert re.search(r"\(\d+ tickers?: [A-Z]+", text), text


def test_a_dispute_says_whether_the_money_came_back() -> None:
    """"Did I get my money back for the Target dispute?" was answered "Target: under review, amount
    $45.52, reason 'duplicate', details '...'" (a field read-out), and a denied one "is resolved: denied"."""
    review = _replies("banking", "get_dispute", {"dispute_id": "DSP-10003"})
    assert review and all("under review" in t and "reason" not in t and "no money" in t for t in review), review
    denied = _replies("banking", "get_dispute", {"dispute_id": "DSP-10002"})
    assert denied and all("denied" in t and "resolved: denied" not in t for t in denied), denied
    refunded = _replies("banking", "get_dispute", {"dispute_id": "DSP-10001"})
    assert refunded and all("refunded" in t for t in refunded), refunded


def test_an_account_overview_says_each_balance_in_words_and_no_zero_pending() -> None:
    """"Bills Checking: current balance $355.38, available balance $355.38, ending 1030, pending $0.00"
    and "Platinum Visa: ..., type credit card" read accounts field by field."""
    for text in _replies_to("banking", "list_accounts",
                            ({}, {"account_type": "credit_card"}, {"account_type": "savings"})):
        assert "pending $0.00" not in text and "current balance" not in text and "type " not in text, text
        assert re.search(r"\(ending \d{4}\): (?:\$|you owe \$)", text), text


def test_a_category_with_nothing_left_says_so() -> None:
    """"What's left in the Rent category this month?" with the whole budget spent was answered by a
    read-out ("Rent: month March 2026, active, group Housing, expense, monthly limit $2,206.00; ...")."""
    texts = _replies("budget", "get_category", {"category_id": "CAT-10001"})
    assert texts and all("$2,206.00" in t and "nothing is left" in t for t in texts), texts


def test_a_reply_names_the_person_and_the_listing_once() -> None:
    """"Paid the request 'Ski trip house' from Carlos Reed: $136.90 to Carlos Reed." and "Accepted
    clarkecloset's offer on the listing 'Osprey Atmos AG 65 Backpack' of yours: 'Osprey Atmos AG 65
    Backpack' sells for $60.00." said one thing twice."""
    for text in _replies("payments", "pay_request", {"request_id": "REQ-10021"}):
        assert text.count("Carlos Reed") == 1, text
    for text in _replies("marketplace", "respond_to_offer", {"offer_id": "OFR-10011", "action": "accept"}):
        assert text.count("Osprey Atmos AG 65 Backpack") == 1 and "$60.00" in text, text


def test_entries_that_share_their_payee_and_amount_say_the_amount_once() -> None:
    """"12 transactions (all 'Bright Logistics'): March 13; February 27; ..." left out the amount
    every paycheck shares; it is said once: "(all with Bright Logistics, $3,180.00 each)"."""
    text = _read_out("budget", "list_transactions", {"category_id": "CAT-10024"})
    assert re.search(r"\(all with Bright Logistics, \$[\d,]+\.\d\d each\)", text), text
    from prove.synth.results import describe

    cards = [{"card_id": f"CRD-{n}", "name": f"Visa debit card ending {n}", "status": "active",
              "daily_spending_limit": 2500.0} for n in (1753, 7136)]
    text = describe({"cards": cards, "total": 2})
    assert "each)" not in text, text  # "2 cards ($2,500.00 each)" would read as their price


def test_a_product_description_does_not_say_its_brand_and_name_again() -> None:
    """"The Bamboo Cutting Board Set of 3 from Totally Bamboo costs $39.99 (Kitchen & Dining). Totally
    Bamboo Bamboo Cutting Board Set of 3. Exclusive color at our stores." pasted a catalog line."""
    for text in _replies("retail_chain", "get_product", {"product_id": "PRD-10043"}):
        assert text.count("Step Ladder 6 ft Fiberglass") == 1, text


def test_a_category_history_with_nothing_spent_says_so() -> None:
    """"Insurance: 0 months over budget, average spent $0.00; 6 months, $20.00 each: month October
    2025; month November 2025; ..." read a history where nothing was spent field by field."""
    texts = _replies("budget", "get_category_history", {"category_id": "CAT-10006", "months": 6})
    assert texts and all("averaged no spending" in t and "Insurance" in t for t in texts), texts


def test_a_category_history_says_which_months_its_average_covers() -> None:
    """"Pets spending over the last 4 months: December 2025 $38.67, January $0.00, February $25.71,
    March $111.53 so far; $21.46 a month on average" averaged the three full months only, yet read
    as the average of the four months listed."""
    texts = _replies("budget", "get_category_history", {"category_id": "CAT-10019", "months": 4})
    assert texts and all("a month on average over the 3 months before this one" in t for t in texts), texts


def test_a_category_history_with_spending_this_month_does_not_say_nothing_was_spent() -> None:
    """A category with nothing spent in the full months but spending this month did not 'average no
    spending at all'."""
    from prove.env import Session
    server = registry.get("budget")
    with Session([server], world=0) as session:
        made = session.call("create_category", {"name": "Takeout", "group": "Food", "monthly_limit": 150.0})
        session.call("add_expense", {"category_id": made.data["category_id"], "account_id": "ACC-10001",
                                     "amount": 30.0, "payee": "Panda Express"})
        args = {"category_id": made.data["category_id"], "months": 4}
        result = session.call("get_category_history", args)
    tool = server.tools["get_category_history"]
    texts = [_say("budget", 0).reply(tool, r.text, args, result.data, {})
             for r in _fitting_replies(tool, args, result.data)]
    assert texts and not any("no spending" in t for t in texts), texts
    assert all("$30.00 so far" in t for t in texts), texts


def test_a_listing_does_not_read_out_a_fee_of_nothing() -> None:
    """"Green Leaf Market: completed, amount $43.77, created March 8 at 2:12 PM, fee $0.00" reads out
    a fee nobody paid."""
    from prove.synth.results import describe

    payments = [{"payment_id": "PAY-1", "counterparty_name": "Green Leaf Market", "status": "completed",
                 "amount": 43.77, "created_at": "2026-03-08T14:12:00", "fee": 0.0},
                {"payment_id": "PAY-2", "counterparty_name": "Maya Kim", "status": "completed",
                 "amount": 79.71, "created_at": "2026-03-07T12:40:00", "fee": 2.39}]
    text = describe({"payments": payments, "total": 2}, stress=["recent", "amount"])
    assert "fee $0.00" not in text and "fee $2.39" in text, text


def test_a_budget_account_overview_says_what_is_owed_in_words() -> None:
    """"Citi Double Cash: balance -$1,011.95, type credit card" read a card's balance as a signed field."""
    for text in _replies_to("budget", "list_accounts", ({}, {"status": "closed"}, {"status": "all"})):
        assert "type credit card" not in text and "balance -$" not in text and "institution" not in text, text
    assert all("you owe $" in t for t in _replies("budget", "list_accounts", {}))


def test_a_savings_goal_says_how_much_is_saved_of_what() -> None:
    """"How much have I saved toward the New Laptop savings goal?" was answered "New Laptop: saved
    amount $240.00, active, target amount $1,400.00, remaining $1,160.00, ..." and the goals listing
    read the same fields for each goal."""
    from prove.synth.teachers.programmatic import _fitting_replies

    server = registry.get("budget")
    with Session([server], world=0) as session:
        detail = session.call("get_goal", {"goal_id": "GOAL-10003"}).data
    say = _say("budget")
    tool = server.tools["get_goal"]

    def replies(asked: str) -> list[str]:
        args = {"goal_id": "GOAL-10003"}
        return [say.reply(tool, r.text, args, detail, {}) for r in _fitting_replies(tool, args, detail, asked)]

    saved = replies("How much have I saved toward {goal_id}?")
    assert saved and all("$240.00 of $1,400.00" in t and "contribution" not in t for t in saved), saved
    shown = replies("Show me {goal_id} and all my contributions to it.")
    assert shown and all("$40.00 on March 4" in t for t in shown), shown
    for status in ("all", "active", "completed"):
        texts = _replies("budget", "list_goals", {"status": status})
        assert texts, status
        for text in texts:
            assert "target amount" not in text and "saved amount" not in text, text
    assert all("Car Down Payment: $840.00 of $4,500.00" in t for t in _replies("budget", "list_goals", {}))


def test_budget_categories_say_what_is_spent_and_left() -> None:
    """"Coffee Shops: group Food, expense, monthly limit $80.00, budgeted $80.00" and "Coffee Shops:
    strict, monthly limit $70.00, budgeted $70.00, spent $36.35" read categories field by field."""
    for text in _replies_to("budget", "list_categories",
                            ({}, {"group": "Food"}, {"kind": "income"}, {"include_archived": True})):
        assert "group " not in text and "monthly limit" not in text and "budgeted $" not in text, text
        assert re.search(r"[A-Z][\w &]+: (?:\$[\d,]+\.\d\d|nothing) (?:spent of|received)", text), text


def test_disputes_say_what_was_charged_why_and_where_they_stand() -> None:
    """"1 dispute: The Copper Kettle: under review, amount $80.48, reason 'duplicate', details 'I was
    charged twice ...'" read a dispute field by field."""
    for text in _replies_to("banking", "list_disputes", ({}, {"status": "under_review"}, {"status": "resolved"})):
        assert "reason" not in text and "details" not in text and "amount $" not in text, text
        assert re.search(r"the \$[\d,]+\.\d\d charge at [A-Z]", text), text


def test_a_saved_address_named_like_people_is_not_said_to_be_plural_and_no_tax_is_said_as_none() -> None:
    """"Done: 'Parents' are now one of your shipping addresses." read an address's label as people;
    "With tax it comes to $129.99." said the same price again at a store with no sales tax."""
    server = registry.get("shopping")
    say = _say("shopping")
    tool = server.tools["add_address"]
    args = {"label": "Parents", "recipient": "Priya Nair", "street": "18 Harbor Street", "city": "Portland",
            "region": "OR", "postal_code": "97205", "make_default": False}
    with Session([server], world=0) as session:
        data = session.call("add_address", args).data
    for reply in _fitting_replies(tool, args, data):
        text = say.reply(tool, reply.text, args, data, {})
        assert "'Parents' are" not in text, text
    untaxed = _replies("retail_chain", "check_price", {"product_id": "PRD-10077", "store_id": "STR-10003"})
    assert untaxed and all("with tax" not in t.lower() and "no sales tax" in t for t in untaxed), untaxed


def test_messages_about_one_listing_are_quoted_not_read_as_a_body_field() -> None:
    """"2 messages (all 'Shure SM58 Vocal Microphone'): body 'Yes, still available!', from jamesmusic;
    body 'Hi! Is this still available?', from you." read a message's text as a field."""
    from prove.synth.results import describe

    messages = [{"message_id": "MSG-2", "listing_id": "LST-1", "listing_title": "Shure SM58 Vocal Microphone",
                 "sender_username": "jamesmusic", "body": "Yes, still available!", "sent_at": "2026-03-15T10:00:00"},
                {"message_id": "MSG-1", "listing_id": "LST-1", "listing_title": "Shure SM58 Vocal Microphone",
                 "sender_username": "lucass_tech", "body": "Hi! Is this still available?",
                 "sent_at": "2026-03-14T09:00:00"}]
    text = describe({"messages": messages, "total": 2})
    assert "body" not in text and "'Yes, still available!': from jamesmusic" in text, text


def test_a_balance_question_is_answered_where_nothing_is_pending() -> None:
    """"What are the current and available balances of the Bills Checking account?" with nothing
    pending was read out field by field ("pending $0.00, interest rate 0.01, opened on ..."): the reply
    that names the pending amount was chosen, then left out for saying $0.00."""
    server = registry.get("banking")
    with Session([server], world=0) as session:
        data = session.call("get_account", {"account_id": "ACC-10002"}).data
    assert data["pending"] == 0
    fitting = _fitting_replies(server.tools["get_account"], {"account_id": "ACC-10002"}, data,
                               "What are the current and available balances of {account_id}?")
    assert [r.text for r in fitting] == ["{account_id} has ${result.current_balance}, all of it available."], fitting


def test_purchases_say_what_was_bought_for_how_much_and_when() -> None:
    """"Ticket to Ride and 2 × Uno Card Game: total $81.72, store Harbor Supply Co. South Hill,
    purchased February 18 at 5:35 PM, subtotal $74.97" named the store asked about and a subtotal
    after the total."""
    for text in _replies_to("retail_chain", "list_purchases", ({}, {"store_id": "STR-10009"})):
        assert "subtotal" not in text and "total $" not in text and "store Harbor" not in text, text
        assert re.search(r"\(\$[\d,]+\.\d\d(?: at [A-Z][\w .&]+)? on [A-Z][a-z]+ \d+", text), text
    assert all(t.count("South Hill") == 1 for t in _replies("retail_chain", "list_purchases", {"store_id": "STR-10009"}))


def test_payees_are_named_not_read_by_kind_and_category() -> None:
    """"26 payees: AT&T Wireless: business, category utilities, account ending 1471; Andrew Flores:
    person, category transfer, ..." read each payee's fields."""
    for text in _replies_to("banking", "list_payees", ({}, {"kind": "business"}, {"kind": "person"}, {"name": "an"})):
        assert "category" not in text and "business," not in text and "person," not in text, text
        assert re.search(r"[A-Z][\w&.' ]+ \(account ending \d{4}\)", text), text


def test_transfers_say_whether_the_money_has_arrived() -> None:
    """"Has my transfer to the bank arrived yet?" was answered "5 transfers (all 'PNC Checking ending
    4202'): pending, amount $274.84, created March 13 at 3:20 PM, cash out; ..."."""
    for text in _replies_to("payments", "list_transfers",
                            ({}, {"direction": "cash_out"}, {"direction": "add_money"})):
        assert "amount $" not in text and "pending," not in text and "created" not in text, text
        assert re.search(r"\$[\d,]+\.\d\d (?:cash-out to|top-up from) [A-Z]", text), text
        assert re.search(r"arrived|on its way|still coming", text), text


def test_a_loyalty_question_is_answered_without_reading_out_every_certificate() -> None:
    """"What tier am I in your rewards program?" was answered "You have 3017 points at the Gold tier.
    Certificates: $5 (CRT-10005, available until June 5, 2026), $5 (CRT-10004, used), ..."."""
    server = registry.get("retail_chain")
    with Session([server], world=0) as session:
        data = session.call("get_loyalty_account", {}).data
    tool = server.tools["get_loyalty_account"]
    for asked in ("What tier am I in your rewards program?", "How many loyalty points do I have?"):
        fitting = _fitting_replies(tool, {}, data, asked)
        assert fitting and not any("certificates" in r.text for r in fitting), (asked, fitting)
    shown = _fitting_replies(tool, {}, data, "Show my rewards account and certificates.")
    assert shown and all("certificates_text" in r.text for r in shown), shown


def test_a_review_quotes_its_text_without_calling_it_a_body() -> None:
    """"Not as expected: rating 2, body 'Smaller and flimsier than it looks in the pictures.', by
    Caroline C." named the review's text by its field."""
    from prove.synth.results import describe

    reviews = [{"review_id": "REV-1", "title": "Not as expected", "rating": 2,
                "body": "Smaller and flimsier than it looks in the pictures.", "author": "Caroline C."},
               {"review_id": "REV-2", "title": "Love it", "rating": 5, "body": "Works great.", "author": "Theo K."}]
    text = describe({"reviews": reviews, "total": 2}, stress=["reviews", "best"])
    assert "body" not in text and "Not as expected: 2 stars, 'Smaller and flimsier" in text, text


def test_a_wishlist_says_which_items_are_available() -> None:
    """"Show me my saved items and whether they're available." was answered with "in stock" for some
    items and nothing at all for the one that is not."""
    server = registry.get("shopping")
    with Session([server], world=0) as session:
        total = session.call("get_wishlist", {}).data["total"]
    texts = _replies("shopping", "get_wishlist", {})
    assert texts
    for text in texts:
        said = re.findall(r"\(\$[\d,]+\.\d\d, (?:in stock|out of stock|discontinued)\)", text)
        assert "added" not in text and len(said) == total, text


def test_price_alerts_say_where_each_stands_in_words() -> None:
    """"AAPL below $253.05: current price $258.84, triggered price $251.79, created ..." read an alert
    that fired by its fields."""
    for text in _replies_to("trading", "list_price_alerts", ({}, {"status": "triggered"}, {"status": "active"})):
        assert "triggered price" not in text and "current price" not in text and "created" not in text, text
    assert all(re.search(r"[A-Z.]+ (?:above|below) \$[\d,.]+ \((?:fired at|watching; now at|cancelled)", t)
               for t in _replies("trading", "list_price_alerts", {}))


def test_an_amount_with_cents_is_asked_for_in_dollars_and_cents() -> None:
    """"Add 150.50 dollars to my wallet" and "Send 24.75 dollars to ..." say cents as no one writes
    them; a person writes "$150.50" (and "150 dollars" for a round sum)."""
    server = registry.get("payments")
    tool = server.tools["add_money"]
    ask = next(a for a in tool.asks if "dollars" in a.text)
    say = _say("payments")
    text = say.request(tool, ask, {"amount": 150.5, "source_id": "FS-10001"}, {})
    assert "$150.50 to my wallet" in text and "dollars" not in text, text
    assert "150 dollars to my wallet" in say.request(tool, ask, {"amount": 150.0, "source_id": "FS-10001"}, {})


def test_hotels_are_said_by_stars_rating_and_price_not_field_by_field() -> None:
    """"Holiday Inn Express Denver Cherry Creek: 2 stars, guest rating 8, amenities airport shuttle, ..."
    and "Radisson Blu ...: 4 stars, country NL, ..., 2 room types: Standard King: beds 1 king bed, 2
    max guests, nightly rate $223.02" read the fields (and a search never said what a stay costs)."""
    search = {"city": "Denver", "check_in": "2026-03-20", "check_out": "2026-03-22"}
    texts = _replies("travel_booking", "search_hotels", search)
    assert texts
    for text in texts:
        assert "guest rating" not in text and "amenities" not in text, text
        assert re.search(r"[A-Z][\w .'&-]+ \(\d-star, rated [\d.]+/10, \$[\d,]+\.\d\d a night, \$[\d,]+\.\d\d for "
                         r"2 nights\)", text), text
    for args in ({"hotel_id": "HTL-10001"}, {"hotel_id": "HTL-10001", "check_in": "2026-03-20", "check_out": "2026-03-22"}):
        texts = _replies("travel_booking", "get_hotel", args)
        assert texts, args
        for text in texts:
            assert not re.search(r"country|: beds|max guests|nightly rate|guest rating", text), text
            assert re.search(r"is a \d-star hotel.* rated [\d.]+/10", text), text
            assert ("rooms left" in text) == ("check_in" in args), text
    for text in _replies("travel_booking", "search_hotels", {**search, "check_out": "2026-03-21"}):
        assert re.search(r"rated [\d.]+/10, \$[\d,]+\.\d\d for the night\)", text) and "a night" not in text, text


def test_hotels_with_room_are_available_not_free() -> None:
    """"Here's what's free in Frankfurt from March 20 to March 22, cheapest first: ..." reads as a stay
    that costs nothing, before the prices."""
    search = {"city": "Denver", "check_in": "2026-03-20", "check_out": "2026-03-22"}
    texts = _replies("travel_booking", "search_hotels", search)
    assert texts
    for text in texts:
        assert not re.search(r"\bfree\b", text.split(":")[0]), text


def test_saved_travellers_and_cards_are_said_in_sentences_not_field_by_field() -> None:
    """"Fiona Thomas: passport on file, passport ending 819, passport country US, passport expiry
    December 7, 2033" and "Wells Fargo Autograph: brand Visa, ending 3012, expiry 12/29, default" read
    each record's fields."""
    for text in _replies_to("travel_booking", "list_travelers",
                            ({}, {"relationship": "self"}, {"relationship": "child"})):
        assert not re.search(r"passport (?:ending|country|expiry)|relationship|date of birth", text), text
        assert re.search(r"(?:[A-Z]\w+ [A-Z]\w+(?: \((?:you|your \w+)\))? has|You have) (?:an? [A-Z]{2} passport on "
                         r"file, ending \w{3}, (?:valid until|that expired) [A-Z]|no passport on file)", text), text
    texts = _replies("travel_booking", "list_payment_methods", {})
    assert texts
    for text in texts:
        assert "brand" not in text and "expiry" not in text, text
        assert re.search(r"\((?:Visa|Mastercard|American Express) ending \d{4}, (?:expires|expired) \d\d/\d\d", text), text


def test_linked_banks_are_named_with_their_bank_and_whether_they_can_move_money() -> None:
    """"Schwab Investor Checking ending 4247: linked on January 16, 2020, verified, institution Schwab
    Bank, account type checking" read each link's fields."""
    texts = _replies("trading", "list_bank_links", {})
    assert texts
    for text in texts:
        assert "institution" not in text and "account type" not in text, text
        assert "Schwab Investor Checking ending 4247 (Schwab Bank, verified)" in text, text
        assert "Marcus High-Yield Savings ending 3759 (still pending verification)" in text, text


def test_a_search_of_orders_is_for_a_product_not_an_orders_summary(monkeypatch) -> None:
    """"Did I ever order Gaiam Yoga Mat 6mm and 2 more?" searched for an order's summary; a person
    searches their orders for one product."""
    from prove.synth import Target

    from .test_reads_rest import _draws, _probed

    drawn = _probed(monkeypatch)
    synth = Synthesizer(SynthConfig(n=60, seed=3, servers=["shopping"]))
    runs = _draws(drawn, synth, 40, Target("shopping", tool="list_orders", kind="abstention"))
    queries = [args["query"] for run in runs for args, _ in run if "query" in args]
    assert queries
    assert not [q for q in queries if re.search(r" and \d+ more$", q)], queries


def test_a_reply_says_a_name_once_and_a_stock_shared_by_every_variant_once() -> None:
    """"Cancelled the request 'Gas money ⛽' to Rafael Singh; Rafael Singh no longer sees it." said the
    name twice; "in Silver (in stock), Black (in stock), Navy (in stock) and Red (in stock)" the stock
    four times."""
    for text in _replies("payments", "cancel_request", {"request_id": "REQ-10022"}):
        assert text.count("Rafael Singh") == 1, text
    with Session(["shopping"], world=0) as session:
        products = session.call("search_products", {"limit": 50}).data["products"]
        stocks = [session.call("get_product", {"product_id": p["product_id"]}).data["variant_stock"]
                  for p in products]
    many = [s for s in stocks if s.count(" and ") == 1 and "," in s]
    assert many and any(s.endswith(", all in stock") for s in many), stocks
    assert not [s for s in stocks if s.count("(in stock)") > 1 and "sold out" not in s], stocks


def test_an_address_saved_as_the_default_is_said_to_be_the_default() -> None:
    """"Add my 'Office' address ..., and make it my default." was answered "Saved your 'Office'
    address: 18 Harbor Street, Austin, TX 78701.", never saying it is the default now."""
    args = {"label": "Office", "recipient": "Chris Walker", "street": "18 Harbor Street", "city": "Austin",
            "region": "TX", "postal_code": "78701"}
    texts = _replies("shopping", "add_address", {**args, "make_default": True})
    assert texts and all("default" in t for t in texts), texts
    assert not any("default" in t for t in _replies("shopping", "add_address", args))


def test_bank_transactions_say_what_went_where_and_what_was_spent_in_all() -> None:
    """"What did I spend on dining between February 14 and February 23?" was answered "7 transactions:
    Uber Eats: -$57.53, occurred February 23 at 6:05 PM; ..." (never the sum), and "What's still pending
    on the card ...?" "Disney+: pending, -$13.99, occurred March 16 at 3:30 AM, category subscriptions"."""
    spent = _replies("banking", "list_transactions", {"category": "dining", "start_date": "2026-02-14",
                                                      "end_date": "2026-02-23"})
    with Session(["banking"], world=0) as session:
        card = session.call("list_transactions", {"status": "pending"}).data["transactions"][0]["card_id"]
    pending = _replies("banking", "list_transactions", {"card_id": card, "status": "pending"})
    recent = _replies("banking", "list_transactions", {"account_id": "ACC-10001"})
    assert spent and pending and recent
    for text in spent + pending + recent:
        assert not re.search(r"occurred|category|-\$|: pending", text), text
        assert re.search(r"\$[\d,]+\.\d\d (?:at|to|in from|by Zelle from|[a-z]+) [A-Z\w].* on [A-Z][a-z]+ \d+", text), text
        assert not re.search(r"(?:at|from) (?:Payment|Transfer|Zelle|Interest)", text), text
    assert all(re.search(r"spent \$[\d,]+\.\d\d", t) for t in spent), spent
    large = _replies("banking", "list_transactions", {"min_amount": 500.0, "start_date": "2026-02-01"})
    assert large and not [t for t in large if re.search(r"(?:at|from) (?:Payment|Transfer|Zelle)", t)], large


def test_the_assistant_never_says_it_cannot_look_up_a_thing_it_looks_up_in_the_same_task() -> None:
    """"I can't look up Chen Kumar by name here. Could you give me the ID?" in a task that called
    search_users ("Find Leo James on the app"); "I don't have a way to search for the Belkin USB-C Hub
    7-in-1" in one that called search_products."""
    checked = 0
    for server, lookup in (("payments", "search_users"), ("shopping", "search_products")):
        for ex in _generated((server,), 400, 7303):
            said = " ".join(m.get("content") or "" for m in ex["messages"] if m["role"] == "assistant")
            if "by name here" not in said and "way to search for" not in said:
                continue
            checked += 1
            calls = [c["function"]["name"] for m in ex["messages"] for c in m.get("tool_calls") or []]
            assert lookup not in calls, ex["id"]
    assert checked


def test_a_payments_note_is_quoted_where_it_runs_on_in_the_sentence() -> None:
    """"Please send Christopher Thompson $825 for Rent for March" and "for Book club snacks" ran a
    note's own capital into the sentence; a note is the user's words, quoted: "for 'Rent for March'"."""
    server = registry.get("payments")
    for name in ("send_payment", "request_money"):
        for ask in server.tools[name].asks:
            if "{note}" in ask.text:
                assert "'{note}'" in ask.text or ": {note}" in ask.text, ask.text


def test_payments_and_requests_say_which_way_the_money_went_and_for_what() -> None:
    """"241 payments in all; 5 of them: Happy Paws Grooming: completed, $87.62, created March 15 at 4:19
    PM; Leo James: completed, $75.48, ..." never said who paid whom; "2 payments (all 'Second Chapter
    Books'): refunded, $22.63; completed, $14.99"; "Henry Williams: $95.11, created March 12 at 1:16 PM,
    note 'Splitting the cab'"."""
    for text in _replies_to("payments", "list_payments",
                            ({}, {"query": "Bookstore"}, {"direction": "received"}, {"direction": "sent"})):
        assert "created" not in text and "completed" not in text and "(all " not in text, text
        assert re.search(r"\$[\d,]+\.\d\d (?:to|from) [A-Z][\w .'&-]+ for '[^']+' on [A-Z][a-z]+ \d+", text), text
    for text in _replies_to("payments", "list_requests",
                            ({}, {"status": "pending", "direction": "outgoing"}, {"status": "declined", "direction": "incoming"})):
        assert "created" not in text and "note" not in text, text
        assert re.search(r"(?:owes you|asks you for|declined|paid|cancelled) .*\$[\d,]+\.\d\d.* for '", text), text


def test_a_listing_is_said_in_a_sentence_not_field_by_field() -> None:
    """"Brio Wooden Railway Set, 100+ Pieces: sold, price $52.50, seller yusuf_toys, category Toys &
    Hobbies, condition good, shipping cost $14.99" and a search's "Fujifilm X-T30 II Body Silver: listed
    February 17 at 2:32 AM, price $625.00, seller anika_cameras, condition like new" read the fields."""
    fields = r"price \$|seller [a-z]|category |condition [a-z]|shipping cost|listed [A-Z]"
    for listing in ("LST-10136", "LST-10204", "LST-10211"):
        texts = _replies("marketplace", "get_listing", {"listing_id": listing})
        assert texts, listing
        for text in texts:
            assert not re.search(fields, text), text
            assert re.search(r"'[^']+' (?:is for sale at \$|has sold|was taken down|sold)", text), text
    for text in _replies_to("marketplace", "search_listings",
                            ({"category_id": "CAT-10002", "sort": "price_high"}, {"query": "tripod"})):
        assert not re.search(fields, text), text
        assert re.search(r"'[^']+' \(\$[\d,]+\.\d\d(?: plus \$[\d,]+\.\d\d shipping| with free shipping)?, ", text), text


def test_a_card_saved_without_a_nickname_is_not_said_to_be_named_after_itself() -> None:
    """"Saved your Visa ending 1111 as 'Visa ending 1111'." named a card saved with no nickname."""
    args = {"card_number": "4111 1111 1111 1111", "expiry": "12/29", "cardholder_name": "Harbor Works"}
    texts = _replies("travel_booking", "add_payment_card", args)
    assert texts and not [t for t in texts if " as '" in t], texts
    named = _replies("travel_booking", "add_payment_card", {**args, "nickname": "Work card"})
    assert any("as 'Work card'" in t for t in named), named
    default = _replies("travel_booking", "add_payment_card", {**args, "make_default": True})
    assert default and all("default" in t for t in default), default


def test_flights_found_say_when_they_leave_and_what_they_cost() -> None:
    """"2 flights: DL 2979: March 19, 7:20 AM to 10:30 AM, 78 seats left; ..." answered "find me a
    flight" without a price."""
    for args in ({"origin": "BOS", "destination": "MIA", "departure_date": "2026-03-19"},
                 {"origin": "BOS", "destination": "MIA", "departure_date": "2026-03-19", "passengers": 2},
                 {"origin": "BOS", "destination": "FRA", "departure_date": "2026-03-20", "sort_by": "duration"}):
        texts = _replies("travel_booking", "search_flights", args)
        assert texts, args
        for text in texts:
            assert "seats left;" not in text, text
            assert re.search(r"[A-Z0-9]{2} \d+, \d+:\d\d [AP]M to \d+:\d\d [AP]M(?: the next day)?, \$[\d,]+\.\d\d a person",
                             text), text
            assert ("for 2" in text) == (args.get("passengers") == 2), text


def test_change_options_say_each_flight_and_what_moving_to_it_costs() -> None:
    """"current flight 'AS 2585 SEA to AUS on March 20', fare economy, 2 passengers, cheapest change cost
    $0.00; 38 options: AS 1680: March 16, 1:10 PM to 7:25 PM, 68 seats left; ..." read the fields."""
    with Session(["travel_booking"], world=0) as session:
        bookings = session.call("list_bookings", {"kind": "flight", "status": "confirmed"}).data["bookings"]
        changeable = [b["booking_id"] for b in bookings
                      if session.call("list_change_options", {"booking_id": b["booking_id"]}).ok]
    assert changeable
    for booking in changeable[:3]:
        texts = _replies("travel_booking", "list_change_options", {"booking_id": booking})
        assert texts, booking
        for text in texts:
            assert not re.search(r"current flight|fare economy|cheapest change cost|seats left", text), text
            assert re.search(r"[A-Z0-9]{2} \d+ on [A-Z][a-z]+ \d+, \d+:\d\d [AP]M to \d+:\d\d [AP]M(?: the next day)? "
                             r"\((?:free|\$[\d,]+\.\d\d)\)", text), text


def test_a_booking_says_what_it_includes_and_what_was_charged_in_words() -> None:
    """"What does my flight AS 1549 ... include, and how much was charged for it?" was answered "AS 1549
    DEN to SEA on March 19: total charged $235.68, confirmed, created March 7 at 2:50 PM, confirmation
    code EJ7N24, no points used; 1 passenger: Fiona Thomas: seat 8A, checked bags 0, free bags 1"."""
    for booking in ("BKG-10003", "BKG-10008", "BKG-10010"):
        texts = _replies("travel_booking", "get_booking", {"booking_id": booking})
        assert texts, booking
        for text in texts:
            assert not re.search(r"total charged|created [A-Z]|checked bags \d|free bags|points used", text), text
            assert re.search(r"(?:\$[\d,]+\.\d\d charged|paid with [\d,]+ points)", text), text
            assert re.search(r" fare for | nights? for \d+ guests?", text), text


def test_bookings_are_listed_by_what_they_are_when_they_leave_and_their_code() -> None:
    """"B6 2888 BOS to ATL on March 17: March 17, 7:35 AM to 10:05 AM, confirmation code ZYZGT3" said
    the day twice and the code by its field's name."""
    for text in _replies_to("travel_booking", "list_bookings",
                            ({}, {"status": "confirmed", "kind": "flight"}, {"upcoming_only": True})):
        assert "confirmation code" not in text and not re.search(r"on (March \d+): \1", text), text
        assert re.search(r"[A-Z0-9]{2} \d+ [A-Z]{3} to [A-Z]{3} on [A-Z][a-z]+ \d+(?:, \d{4})? \(leaves \d+:\d\d "
                         r"[AP]M, confirmation [A-Z0-9]{6}", text), text


def test_budget_entries_say_what_went_where_and_a_payee_question_the_sum() -> None:
    """"36 transactions in all; 5 of them: Sakura Sushi: -$39.74, March 10; ..." read signed amounts
    after a colon."""
    with Session(["budget"], world=0) as session:
        entries = session.call("list_transactions", {"limit": 200}).data["transactions"]
    payee = next(t["payee"] for t in entries if t["kind"] == "expense"
                 and sum(e["payee"] == t["payee"] for e in entries) > 1)
    for args in ({}, {"payee": payee}, {"kind": "income"}, {"category_id": entries[0]["category_id"]}):
        texts = _replies("budget", "list_transactions", args)
        assert texts, args
        for text in texts:
            assert "-$" not in text and "in all; " not in text and "Goal: " not in text, text
            assert re.search(r"\$[\d,]+\.\d\d (?:at|from|into the goal) [A-Z0-9][\w'&.-]*.* on [A-Z][a-z]+ \d+", text), text
        if "payee" in args:
            assert all(re.search(r"\$[\d,]+\.\d\d spent in all", t) for t in texts), texts


def test_the_members_own_listings_say_price_and_where_each_stands() -> None:
    """"13 listings: Fujifilm X-T30 II Body Black: active, price $580.00, category Cameras & Photo,
    condition good; ..." read each listing's fields."""
    for text in _replies_to("marketplace", "list_my_listings", ({}, {"status": "sold"}, {"status": "active"})):
        assert not re.search(r"price \$|category |condition |active,", text), text
        assert re.search(r"'[^']+' \(\$[\d,]+\.\d\d", text), text
        assert re.search(r"[Ff]or sale|[Ss]old|[Tt]aken down", text), text


def test_store_products_found_are_said_by_name_brand_and_price() -> None:
    """"1 product: Area Rug 5 x 7 ft, Indigo: brand nuLOOM, category Home & Bedding, list price $139.99"
    read the record's fields."""
    for text in _replies_to("retail_chain", "search_products",
                            ({"query": "Area Rug"}, {"category": "Home & Bedding", "max_price": 80.0})):
        assert not re.search(r"brand |category |list price", text), text
        assert re.search(r"[A-Z][^()]+ \([^,()]+, \$[\d,]+\.\d\d\)", text), text


def test_trips_say_their_dates_and_bookings_and_a_trip_what_each_booking_cost() -> None:
    """"Weekend in Austin: March 20, 7:20 AM to 1:35 PM, upcoming, created February 16 at 7:38 AM, total
    paid $666.62; 1 itinerary item: AS 2585 SEA to AUS on March 20: March 20, 7:20 AM to 1:35 PM,
    confirmed, confirmation code KFTG44" read the trip's fields."""
    with Session(["travel_booking"], world=0) as session:
        trips = session.call("list_trips", {}).data["trips"]
    for trip in [t["trip_id"] for t in trips if t["bookings"]][:3]:
        texts = _replies("travel_booking", "get_trip", {"trip_id": trip})
        assert texts, trip
        for text in texts:
            assert not re.search(r"created [A-Z]|itinerary item|confirmation code|total paid", text), text
            assert re.search(r"\((?:\$[\d,]+\.\d\d|cancelled|paid with points)\)", text), text
            assert re.search(r"\$[\d,]+\.\d\d paid in all", text), text
    for text in _replies_to("travel_booking", "list_trips", ({}, {"status": "upcoming"})):
        assert not re.search(r"upcoming,|past,", text), text
        assert re.search(r"[A-Z][\w' ()]+ \([A-Z][a-z]+ \d+(?:, \d{4})?(?: to [A-Z][a-z]+ \d+(?:, \d{4})?)?, \d+ bookings?", text), text
        assert not re.search(r"([A-Z][a-z]+ \d+) to \1\b", text), text


def test_shop_products_found_say_price_and_rating_not_field_by_field() -> None:
    """"1 product: Chuckit! Ball Launcher: active, rating 2, price $16.95 to $24.95, category Pet
    Supplies" and "Carhartt Pullover Hoodie: rating 4.5, price $50.95, 2 reviews" read the fields."""
    for text in _replies_to("shopping", "search_products",
                            ({"query": "Dog Bed"}, {"category_id": "CAT-10003", "sort": "rating"}, {"sort": "price_low"})):
        assert not re.search(r"active,|rating \d|price \$|category [A-Z]|brand [A-Z]", text), text
        assert re.search(r"[A-Z][^()]+ \(\$[\d,]+\.\d\d(?: to \$[\d,]+\.\d\d)?, (?:rated [\d.]+ from \d+ reviews?|no reviews yet)",
                         text), text


def test_offers_are_said_by_their_summary_and_where_they_stand() -> None:
    """"12 offers: gamesbyoscar's $210.00 offer on 'Apple iPhone 13 128GB Starlight' (asking $245.00):
    pending, created March 16 at 6:29 AM, message 'Can pay right away.'" read the fields after the summary."""
    for args in ({"role": "received"}, {"role": "made"}, {"role": "made", "status": "countered"}):
        texts = _replies("marketplace", "list_offers", args)
        assert texts, args
        for text in texts:
            assert not re.search(r"created [A-Z]|message '|: pending", text), text
            assert re.search(r"(?:[\w.]+'s|your) \$[\d,]+\.\d\d offer on '", text), text
            assert args["role"] == "received" or "lucass_tech's" not in text, text  # the member's own: "your"
        if "status" not in args:
            assert all(re.search(r"waiting for|accepted|turned down|withdrawn|expired", t) for t in texts), texts


def test_account_activity_says_what_happened_when_and_for_how_much() -> None:
    """"13 activities (all 'Deposit from Schwab Investor Checking ending 4247'): $500.00, occurred March 2
    at 9:31 AM; ..." and "Bought 1 SPY at $542.25: -$542.25, occurred February 26 at 2:34 PM, order
    ORD-10068" read the fields."""
    for args in ({"account_id": "BRK-10001"}, {"account_id": "BRK-10001", "kind": "deposit"},
                 {"account_id": "BRK-10001", "start_date": "2026-03-02", "end_date": "2026-03-09"}):
        texts = _replies("trading", "list_activity", args)
        assert texts, args
        for text in texts:
            assert not re.search(r"occurred|\(all '|order ORD|-\$", text), text
            assert re.search(r" on [A-Z][a-z]+ \d+", text), text


def test_budget_moves_say_what_moved_for_which_month() -> None:
    """"1 budget move: $20.00 from Household to Education: created December 10, 2025 at 7:30 PM, month
    December 2025" read the move's fields."""
    with Session(["budget"], world=0) as session:
        moves = session.call("list_budget_moves", {}).data["moves"]
    assert moves
    for text in _replies_to("budget", "list_budget_moves",
                            ({}, {"category_id": moves[0]["from_category_id"]}, {"month": moves[0]["month"]})):
        assert not re.search(r"created [A-Z]|month [A-Z]", text), text
        assert re.search(r"\$[\d,]+\.\d\d from [A-Z][\w &]+ to [A-Z][\w &]+(?: for [A-Z][a-z]+ \d{4})?", text), text


def test_store_transfers_say_what_goes_where_and_when_it_arrives() -> None:
    """"1 transfer: 25 ft Tape Measure: in transit, from Harbor Supply Co. Capitol Hill, to Harbor Supply
    Co. Tacoma Mall, quantity 2" read the transfer's fields."""
    for text in _replies_to("retail_chain", "list_transfers", ({}, {"status": "in_transit"})):
        assert not re.search(r"quantity \d|in transit,|, from ", text), text
        assert re.search(r"(?:(?:\d+ of )?the |\d+ |(?:two|three|four|five|six|seven|eight|nine|ten) )[\w ,.:-]+ "
                         r"from [A-Z][\w .&]+ to [A-Z][\w .&]+ \(TRF-\d+, "
                         r"(?:arriving [A-Z][a-z]+ \d+|arrived [A-Z][a-z]+ \d+|cancelled)", text), text


def test_statements_say_which_account_and_month_and_how_the_balance_moved() -> None:
    """"4 statements: Main Checking: December 1, 2025 to December 31, 2025, opening balance $8,467.30;
    ..." and "6 statements (all 'Travel Rewards Mastercard'): February 1 to February 28, ..." read fields."""
    for args in ({"period": "2025-12"}, {"account_id": "ACC-10003"}, {}):
        texts = _replies("banking", "list_statements", args)
        assert texts, args
        for text in texts:
            assert not re.search(r"opening balance|\(all '|[A-Z][a-z]+ 1(?:, \d{4})? to [A-Z][a-z]+ \d\d", text), text
            assert re.search(r"opened at \$[\d,]+\.\d\d, closed at \$[\d,]+\.\d\d", text), text
            assert ("Main Checking" in text) == ("account_id" not in args), text


def test_shop_orders_say_number_contents_cost_and_where_each_stands() -> None:
    """"1 order: Smartwool Merino Wool Sweater and 1 more: cancelled, order ORD-10010, placed February 15
    at 4:00 PM, 2 items" read the order's fields."""
    for args in ({}, {"status": "cancelled"}, {"status": "shipped"}):
        texts = _replies("shopping", "list_orders", args)
        assert texts, args
        for text in texts:
            assert not re.search(r"order ORD|: cancelled,|\d items", text), text
            assert re.search(r"ORD-\d+ \([^()]+(?:, \$[\d,]+\.\d\d)?, placed [A-Z][a-z]+ \d+", text), text
            assert args.get("status") != "cancelled" or "$" not in text, text


def test_reservations_say_what_is_held_where_and_until_when() -> None:
    """"2 reservations: Bypass Pruning Shears: created December 7, 2025 at 3:08 AM, at Harbor Supply Co.
    Hawthorne, ..., quantity 2" read the reservation's fields."""
    for text in _replies_to("retail_chain", "list_reservations", ({}, {"status": "active"})):
        assert not re.search(r"created [A-Z]|quantity \d|: active,", text), text
        assert re.search(r"(?:\d+ of )?the [^()]+ at [A-Z][\w .&]+ \(RES-\d+, (?:held until [A-Z]|collected|cancelled|expired)",
                         text), text


def test_a_payments_request_names_people_as_a_person_would() -> None:
    """"Ask one of the members to pay me back $30" / "Which member?" and "Remind them about invoice
    INV-10005" (no one named before): the people one pays are friends, and a reminder is sent for
    an invoice, not to a "them" nobody named."""
    exs = _generated(("payments",), 300, 23)
    said = [m["content"] for ex in exs for m in ex["messages"] if m["role"] in ("user", "assistant") and m.get("content")]
    assert len(said) > 300
    for text in said:
        assert not re.search(r"\bmembers?\b", text), text
        assert not re.search(r"\b[Rr]emind them about\b", text), text


def test_invoices_are_listed_by_client_amount_and_where_each_stands() -> None:
    """"6 invoices: Photo session - March 2026: paid March 6 at 3:59 PM, paid via app, $105.00, due March
    16" read the record field by field; a person says who was billed how much and whether it is paid."""
    listed = _replies("payments", "list_invoices", {})
    assert listed and all(t.startswith("Your invoices, newest first: ") for t in listed), listed
    for status, head in (("paid", "These have been paid: "), ("overdue", "These are past due and unpaid: ")):
        texts = _replies("payments", "list_invoices", {"status": status})
        assert texts and all(t.startswith(head) for t in texts), texts
    text = " ".join(listed + _replies("payments", "list_invoices", {"status": "paid"}))
    assert "paid via" not in text and "due on" not in text and "invoices:" not in text, text
    assert re.search(r"[A-Z][a-z]+ [A-Z][a-z]+: \$[\d,]+\.\d\d for .+?, paid \w+ \d+(, \d{4})? (in the app|by check)",
                     text), text
    assert re.search(r": \$[\d,]+\.\d\d for .+?, was due \w+ \d+", text), text


def test_the_default_address_is_named_with_the_others_after_it() -> None:
    """"Which of my addresses is the default one?" was answered "3 addresses: Home: at 1045 Willow Drive,
    ..., default, recipient Gabriel Phillips, phone ..."; it names the default, then the others."""
    texts = _replies("shopping", "list_addresses", {})
    assert texts, texts
    assert all(re.fullmatch(r"\w+ \([^)]+\) is your default address; you also have .+\.", t) for t in texts), texts
    assert not any("recipient" in t or "phone" in t or "+1-" in t for t in texts), texts


def test_reviews_are_said_by_stars_and_reviewer_not_created_on() -> None:
    """"3 reviews: Good value: 4 stars, '...', by Emma J., created on January 27" read a review's fields;
    a person says "4 stars from Emma J. ('Good value'): '...'", and when it was only for the newest."""
    for world in range(4):
        texts = _replies("shopping", "list_reviews", {"product_id": "PROD-10001"}, world=world)
        newest = _replies("shopping", "list_reviews", {"product_id": "PROD-10003", "sort": "newest"}, world=world)
        for text in texts + newest:
            assert text.startswith("Here's what people say: ") and "created on" not in text, text
            assert re.search(r"\d stars? (on \w+ \d+(, \d{4})? )?from (you|[A-Z]\w+ [A-Z]\.) \('", text), text
            assert " Gave " not in text and " From " not in text, text
        assert all(re.search(r"stars? on \w+ \d+", t) for t in newest), newest
        assert not any(re.search(r"stars? on \w+ \d+", t) for t in texts), texts


def test_orders_say_how_each_filled_or_since_when_it_is_open() -> None:
    """"ORD-10068 (buy 1 share of SPY at a $544.42 limit): filled February 26 at 2:34 PM, total $542.25,
    placed February 26 at 2:34 PM" said the same time twice, field by field."""
    for status, head in ((None, "Your orders, newest first: "), ("open", "Your open orders: "),
                         ("filled", "These orders filled: ")):
        texts = _replies("trading", "list_orders", {"status": status} if status else {})
        assert texts and all(t.startswith(head) for t in texts), texts
        for text in texts:
            assert "placed" not in text and "total" not in text and " PM" not in text, text
    filled = " ".join(_replies("trading", "list_orders", {"status": "filled"}))
    assert re.search(r"ORD-\d+ \((buy|sell) \d+ shares? of [A-Z]+ [^)]+\): filled \w+ \d+ at \$[\d,.]+ a share", filled)
    assert re.search(r"ORD-\d+ \([^)]+\): open since \w+ \d+", " ".join(_replies("trading", "list_orders",
                                                                                {"status": "open"})))


def test_an_order_lookup_answers_the_question_asked_in_a_sentence() -> None:
    """"How much did I pay for order ORD-10037?" was answered "Pho Chelsea: delivered, total $22.67, order
    ORD-10037, placed ..., estimated delivery ...; 1 item: Pho Ga: quantity 1, unit price $14.50."."""
    said = _answers("food_delivery", "get_order", {"order_id": "ORD-10010"})
    paid = said["How much did I pay in total for {order_id}?"]
    assert paid == ["For order ORD-10010 from Okafor's Bakery you paid $50.39."], paid
    status = said["What's the status of {order_id}?"]
    assert status == ["Order ORD-10010 from Okafor's Bakery was delivered January 7 at 2:04 PM."], status
    items = said["What did I order in {order_id}, and what's its status?"]
    assert len(items) == 1 and items[0].startswith("You ordered Country Sourdough Loaf, "), items
    assert "2 × Cappuccino from Okafor's Bakery; the order was delivered January 7" in items[0], items


def test_restaurants_are_said_with_their_rating_hours_and_delivery_in_words() -> None:
    """"Tsuru Sushi: rated 4.6, in Hawthorne, 1,674 ratings, hours today 11:00-23:00; ...; Sakura Sushi:
    ..., hours today closed" read the fields; a person says "rated 4.6 from 1,674 ratings", "opens at 11
    AM", "closed today"."""
    texts = _replies("food_delivery", "search_restaurants", {"cuisine": "Japanese"})
    assert texts and all(t.startswith("Here's what I found, best rated first: ") for t in texts), texts
    text = texts[0]
    assert "Tsuru Sushi (Hawthorne): rated 4.6 from 1,674 ratings, opens at 11 AM, $0.99 delivery in about 38 minutes" \
        in text, text
    assert "Sakura Sushi (Kerns): rated 3.9 from 1,046 ratings, closed today" in text, text
    assert "hours today" not in text and "Japanese" not in text and "23:00" not in text, text
    cheapest = _replies("food_delivery", "search_restaurants", {"sort_by": "delivery_fee"})
    assert cheapest, cheapest
    assert all(t.startswith("Cheapest delivery first: Gangnam BBQ (Korean, Hawthorne): ") for t in cheapest), cheapest


def test_cards_are_listed_with_what_became_of_each() -> None:
    """"5 cards: Visa debit card ending 5182: lost, expires 03/28" read the status bare; a person says the
    card was reported lost, and does not repeat the status a request named."""
    assert _replies("banking", "list_cards", {}, world=1)[0].startswith(
        "Your cards: Visa debit card ending 5182, reported lost; Visa debit card ending 0629, active; ")
    assert _replies("banking", "list_cards", {"status": "lost"}, world=1) == [
        "Reported lost: Visa debit card ending 5182."]
    assert _replies("banking", "list_cards", {"status": "frozen"}, world=2) == [
        "Frozen right now: Mastercard credit card ending 7590."]


def test_the_offers_not_said_are_counted_apart_from_the_last_one_said() -> None:
    """"..., waiting for your answer and 8 more" read the count as part of the last offer."""
    texts = _replies("marketplace", "list_offers", {"role": "received"}, world=1)
    assert texts and all(t.endswith("waiting for your answer; and 8 more offers.") for t in texts), texts
    assert all(t.endswith("'LEGO Technic Porsche 911 GT3 RS 42056, Complete' (asking $205.99), expired.")
               for t in _replies("marketplace", "list_offers", {"role": "received"}, world=3))


def test_a_budget_entry_says_its_amount_by_which_way_it_went_not_by_its_sign() -> None:
    """"Amtrak on March 9: -$79.13 from Capital One Quicksilver" read the sign of the stored amount."""
    assert _replies("budget", "get_transaction", {"transaction_id": "TXN-10001"}) == [
        "Lincoln Property Co. on October 1, 2025: $2,206.00 paid from Everyday Checking, filed under Rent."]
    assert _replies("budget", "get_transaction", {"transaction_id": "TXN-10010"}) == [
        "On October 5, 2025, $360.00 moved from Everyday Checking to the Holiday Gifts goal."]
    from prove.env import Session
    with Session([registry.get("budget")], world=0) as session:
        entries = session.call("list_transactions", {"limit": 100}).data["transactions"]
    income = next(e for e in entries if e["kind"] == "income")
    said = _replies("budget", "get_transaction", {"transaction_id": income["transaction_id"]})
    assert said and all(f"paid into {income['account_name']}, filed under" in t and "-$" not in t for t in said), said


def test_scheduled_payments_say_how_often_and_when_next() -> None:
    """"6 scheduled payments: Progressive: $140.85, next on March 20, monthly; ..." read the fields; a
    person says "$140.85 to Progressive every month, next on March 20"."""
    coming = _replies("banking", "list_scheduled_payments", {})
    assert coming, coming
    assert all(t.startswith("Coming up: $140.85 to Progressive every month, next on March 20; ") for t in coming)
    assert "$190.00 to Luis Robinson on March 28;" in coming[0] and "one-time" not in coming[0], coming
    assert _replies("banking", "list_scheduled_payments", {"status": "cancelled"}) == [
        "Cancelled: $65.00 to Omar Meyer every week."]
    assert _replies("banking", "list_scheduled_payments", {"status": "all"})[0].endswith(
        "$65.00 to Omar Meyer every week (cancelled); $600.00 to Luis Evans (completed).")


def test_messages_are_said_by_who_wrote_them_and_what_they_said() -> None:
    """"2 messages (all about 'Burton Custom Snowboard 158cm'): 'About a year, ...': from you, to anikaf_games;
    ..." read the message field by field; a person says who wrote what, and when."""
    about = _replies("marketplace", "list_messages", {"listing_id": "LST-10209"})
    assert about == ["Your messages, newest first: you to anikaf_games on March 15: 'About a year, always handled "
                     "with care.'; anikaf_games on March 15: 'How long did you use it for?'"], about
    sent = _replies("marketplace", "list_messages", {"direction": "sent"})
    assert sent and sent[0].startswith(
        "Messages you've sent, newest first: you to victoria_cameras about 'Ray-Ban Wayfarer Classic Sunglasses' on "
        "March 16: 'Does it come with the original box?'; "), sent
    assert sent[0].endswith("; and 12 more messages."), sent


def test_marketplace_orders_say_what_was_bought_from_whom_and_where_it_is() -> None:
    """"11 orders: Dune by Frank Herbert, 1984 Ace Paperback: paid, total $14.98, created March 16 at 8:00 AM,
    order ORD-10014; ..." read the order's fields."""
    bought = _replies("marketplace", "list_orders", {})
    assert bought and bought[0].startswith("Your purchases, newest first: 'Dune by Frank Herbert, 1984 Ace Paperback' "
                                           "from jia_books, $14.98, not shipped yet (order ORD-10014); "), bought
    assert "created" not in bought[0] and "total" not in bought[0], bought
    assert _replies("marketplace", "list_orders", {"role": "sales", "status": "paid"}) == [
        "Still to be shipped: 'Burton Custom Snowboard 158cm' to anikaf_games, $415.98 (order ORD-10001)."]


def test_buying_power_is_answered_alone() -> None:
    """"How much buying power do I have?" was answered with the account's worth, positions, cash and day
    change first."""
    said = _answers("trading", "get_account_summary", {"account_id": "BRK-10001"})
    assert said["How much buying power do I have in {account_id}?"] == [
        "Your Individual Brokerage account has $5,678.69 of buying power."]
    assert all("worth" in t for t in said["Give me a summary of {account_id}."])


def test_a_menu_says_the_diet_asked_for() -> None:
    """"Show me the vegan options" was answered "Chai & Chaat has 4 dishes: ..."; "What can I order that isn't
    sold out?" was answered "Slice of Sellwood has 11 dishes", more than it has."""
    menu = _replies("food_delivery", "get_menu", {"restaurant_id": "RST-10002", "dietary": "vegan"})
    assert menu and all("has 4 vegan dishes: " in t or "found 4 vegan dishes: " in t for t in menu), menu
    assert all(" gluten-free dishes: " in t for t in
               _replies("food_delivery", "get_menu", {"restaurant_id": "RST-10002", "dietary": "gluten_free"}))
    open_items = _replies("food_delivery", "get_menu", {"restaurant_id": "RST-10027", "available_only": True})
    assert open_items and all(" 11 dishes that aren't sold out: " in t for t in open_items), open_items


def test_members_and_wallet_sources_are_named_as_a_person_would() -> None:
    """"40 contacts: Aaron Phillips: a contact since December 9, 2019, @aaron-phillips, in Barcelona; ..." and
    "4 funding sources: PNC Checking ending 4202: bank account, default, added August 23, 2024 at 10:05 AM"
    read each record's fields."""
    assert _replies("payments", "list_contacts", {}) == [
        "You have 39 contacts: Aaron Phillips, Alexander Gray, Amelia Jackson, Ana Rossi, Andre Hall, Anna James, "
        "Anna Moore, Caleb Jones, Carlos Reed, Caroline O'Brien and 29 more."]
    assert _replies("payments", "search_users", {"query": "Carlos"}) == [
        "Here's who I found: Carlos Reed (@carlos-reed, in Manchester), one of your contacts; Carlos Alvarez "
        "(@carlos-alvarez, in Madrid); Carlos White (@carlos-white, in Minneapolis)."]
    assert _replies("payments", "search_users", {"query": "Carlos", "contacts_only": True}) == [
        "In your contacts: Carlos Reed (@carlos-reed, in Manchester)."]
    assert "Green Leaf Market (@green-leaf-market), a grocery in Minneapolis" in \
        _replies("payments", "search_users", {"query": "Green"})[0]
    assert _replies("payments", "list_funding_sources", {}) == [
        "Linked to your wallet: PNC Checking ending 4202 (your default), PNC Visa Debit ending 2816, PNC Mastercard "
        "Credit ending 9603 (expired) and Citi Double Cash ending 9038."]


def test_holdings_securities_and_accounts_are_said_in_sentences() -> None:
    """"1 position: The Procter & Gamble Company (PG): price $164.75, 1 share, average cost $164.78, market
    value $164.75", "1 security: ... (PLTR): price $93.95, stock, sector Technology, exchange NASDAQ" and
    "2 accounts: Individual Brokerage: cash $7,473.09, ending 1568, total value $34,067.62" read fields; "How
    many shares of ADBE do I own?" was answered with the gains."""
    said = _answers("trading", "list_positions", {"account_id": "BRK-10001"})
    assert said["What do I hold in {account_id}?"] == [
        "In your Individual Brokerage account you hold 16 shares of AbbVie Inc. (ABBV), worth $3,254.88; 2 shares of "
        "Adobe Inc. (ADBE), worth $891.24; "
        "61 shares of Vanguard Total Bond Market ETF (BND), worth $4,003.43; 4 shares of Berkshire Hathaway Inc. "
        "Class B (BRK.B), worth $2,108.24; 28 shares of Morgan Stanley (MS), worth $3,474.80; 20 shares of Netflix, "
        "Inc. (NFLX), worth $1,744.00; and 4 more positions."]
    assert said["How many shares of {ticker} do I own in {account_id}?"] == said["What do I hold in {account_id}?"]
    gains = said["Show my positions in {account_id} with gains and losses."]
    assert len(gains) == 1 and "(ABBV), worth $3,254.88, up $375.10 (13.03%); " in gains[0], gains
    assert "(ADBE), worth $891.24, down $53.54 (5.67%); " in gains[0], gains
    assert _replies("trading", "search_securities", {"query": "Palantir"}) == [
        "Here's what I found: Palantir Technologies Inc. (PLTR), a Technology stock at $93.95."]
    assert "Vanguard Total Bond Market ETF (BND), a Bond ETF at $65.63" in \
        _replies("trading", "search_securities", {"sector": "Bond ETF", "kind": "etf"})[0]
    assert _replies("trading", "list_accounts", {}) == [
        "Your accounts: Individual Brokerage (ending 1568): $7,473.09 in cash, $34,067.62 in all; Roth IRA (ending "
        "7295): $8,123.56 in cash, $22,499.36 in all."]


def test_returns_categories_and_brands_are_said_in_sentences() -> None:
    """"2 returns: KONG Classic Dog Toy: requested, order ORD-10013; ...", "10 categories: Beauty & Personal
    Care: 10 products, description '...'" and "77 brands: Allbirds: 1 product; Anker: 1 product; ..." read
    each record's fields."""
    assert _replies("shopping", "list_returns", {}) == [
        "Your returns, newest first: the KONG Classic Dog Toy from order ORD-10013, waiting for its refund since "
        "March 12; the Post-it Sticky Notes 12 Pads from order ORD-10007, refunded $11.00."]
    categories = _replies("shopping", "list_categories", {})
    assert len(categories) == 1 and categories[0].startswith(
        "The store has 10 categories: Beauty & Personal Care (10 products), Books (11 products), "), categories
    assert "description" not in categories[0], categories
    assert _replies("shopping", "list_brands", {}) == [
        "We carry 77 brands: Allbirds, Anker, Anker Soundcore, Aveeno, Belkin, Big Barker, Blue Buffalo, Bowflex, "
        "Branch, Breville and 67 more."]
    assert _replies("shopping", "list_brands", {"category_id": "CAT-10002"})[0].startswith(
        "We carry 10 brands: Breville (2 products), Cuisinart (2 products), Henckels (1 product), ")


def test_saved_cards_and_open_carts_are_said_in_sentences() -> None:
    """"3 payment methods: American Express ending 3041: expired, expiry 01/2026; Visa ending 1005: not expired,
    expiry 08/2028, default; ..." and "1 cart: Sakura Sushi: 3 items, subtotal $25.50, promo code FREEDEL,
    updated March 15 at 10:12 PM" read each record's fields."""
    assert _replies("food_delivery", "list_payment_methods", {}) == [
        "Your saved cards: American Express ending 3041 (expired in January 2026), Visa ending 1005 (your default, "
        "expires August 2028) and Mastercard ending 8811 (expires September 2026)."]
    assert _replies("food_delivery", "list_carts", {}) == [
        "You have a cart with 3 items from Sakura Sushi for $25.50 (promo code FREEDEL)."]


def test_marketplace_categories_are_said_with_their_fees() -> None:
    """"12 categories: Books: fee 14.5%, 15 active listings; ..." read each category's fields."""
    said = _replies("marketplace", "list_categories", {})
    assert len(said) == 1 and said[0].startswith(
        "You can sell in 12 categories: Books (14.5% fee), Cameras & Photo (9% fee), "), said
    assert said[0].endswith(" and Video Games (9.5% fee)."), said


def test_a_budget_balance_is_said_as_owed_on_a_card() -> None:
    """"the account balance is -$1,011.95 now" read a credit card's stored sign."""
    from prove.env import Session
    server = registry.get("budget")
    args = {"transaction_id": "TXN-10110", "category_id": "CAT-10022"}
    with Session([server], world=0) as session:
        data = session.call("update_transaction", args).data
    tool = server.tools["update_transaction"]
    said = [_say("budget").reply(tool, r.text, args, data, {}) for r in _fitting_replies(tool, args, data)]
    assert any(t.endswith("you owe $1,011.95 on Citi Double Cash now.") for t in said), said
    assert not any("-$" in t or "$-" in t for t in said), said


def test_a_restaurant_answers_what_was_asked_and_a_cart_is_not_priced_where_it_cannot_go() -> None:
    """"What are the opening hours of Sakura Sushi?" was answered with its delivery fee first; a cart priced
    for an address the restaurant does not serve was quoted with fees and tax."""
    hours = _answers("food_delivery", "get_restaurant", {"restaurant_id": "RST-10025"})
    assert hours["What are the opening hours of {restaurant_id}?"] == [
        "Sakura Sushi is closed now, opening tomorrow at 5:30 PM; its hours are Tuesday to Thursday and Sunday "
        "5:30 PM-10 PM, Friday and Saturday 5:30 PM-11 PM, closed Monday."]
    assert hours["Does {restaurant_id} deliver to {address_id}?"] == [
        "Sakura Sushi delivers to Home for $1.99, in about 46 minutes."]
    cart = _answers("food_delivery", "view_cart", {"restaurant_id": "RST-10025", "address_id": "ADR-10002"})
    assert set(map(tuple, cart.values())) == {(
        "Sakura Sushi doesn't deliver to the Work address, so your cart (Gyoza and 2 × California Roll, $25.50 of "
        "food) can't be sent there.",)}, cart


def test_bills_and_dishes_found_are_said_in_sentences() -> None:
    """"5 bills: Internet: next due March 4, 12 days overdue, $67.00, monthly; ..." and "1 dish: Country
    Sourdough Loaf: price $10.50, restaurant Okafor's Bakery, category Breads, description 'Whole loaf'" read
    each record's fields."""
    bills = _replies("budget", "list_bills", {"due_within_days": 7})
    assert bills == ["Your bills, soonest first: Internet, $67.00 a month, overdue since March 4; Spotify Premium, "
                     "$11.99 a month, due March 20."], bills
    assert _replies("budget", "list_bills", {"status": "cancelled"}) == [
        "You've cancelled Soccer club fees, $85.00 a month."]
    dishes = _replies("food_delivery", "search_dishes", {"query": "sourdough"})
    assert dishes and all(t.endswith("Country Sourdough Loaf at Okafor's Bakery ($10.50); BLT at Early Bird Kitchen "
                                     "($11.00); Avocado Toast at Biscuit Bros. ($11.50); BLT at Eggs & Co. ($11.50); "
                                     "and 2 more dishes.") for t in dishes), dishes


def test_a_bank_transaction_says_whether_it_went_through_and_a_goal_transfer_names_its_goal() -> None:
    """"Olive Garden on February 24 at 8:13 PM: -$85.33 (dining), posted." read the fields and the sign;
    "$150.00 into the goal From goal: New Bike" read a goal withdrawal as a deposit into a goal so named;
    "delivered on December 22 at 9:47 PM" left out a past year."""
    from prove.env import Session
    with Session([registry.get("banking")], world=0) as session:
        entries = session.call("list_transactions", {"limit": 100}).data["transactions"]
    pending = next(t for t in entries if t["kind"] == "purchase" and t["status"] == "pending")
    assert _replies("banking", "get_transaction", {"transaction_id": pending["transaction_id"]}) == [
        f"The ${-pending['amount']:,.2f} charge at {pending['merchant']} on March 16 is still pending."]
    deposit = next(t for t in entries if t["kind"] == "deposit" and t["status"] == "posted")
    said = _replies("banking", "get_transaction", {"transaction_id": deposit["transaction_id"]})
    assert said and said[0].startswith(f"The ${deposit['amount']:,.2f} deposit from ") and said[0].endswith(
        " has posted."), said
    with Session([registry.get("budget")], world=0) as session:
        session.call("withdraw_from_goal", {"goal_id": "GOAL-10002", "account_id": "ACC-10001", "amount": 50.0})
        listed = session.call("list_transactions", {"limit": 3}).data
    assert listed["transactions_text"].startswith("$50.00 back from the New Bike goal on March 16; ")
    assert listed["transactions"][0]["amount_text"] == "$50.00 moved back into Everyday Checking from the New Bike goal"
    with Session([registry.get("food_delivery")], world=0) as session:
        orders = session.call("list_orders", {"restaurant_id": "RST-10016"}).data["orders_text"]
    assert "ORD-10006 from Okafor's Bakery ($28.59), delivered on December 24, 2025 at 12:57 PM" in orders, orders


def test_whether_an_invoice_was_paid_is_answered_with_when_and_how() -> None:
    """"Has invoice INV-10005 been paid?" was answered "... is paid, with a due date of January 1; no reminder
    has gone out", which says neither when nor how, and a reminder count nobody asked for."""
    asked = "Has {invoice_id} been paid?"
    assert _answers("payments", "get_invoice", {"invoice_id": "INV-10005"})[asked] == [
        "Tutoring - December 2025 ($205.00, billed to Noah Turner) was paid on December 22, 2025 in the app."]
    assert _answers("payments", "get_invoice", {"invoice_id": "INV-10004"})[asked] == [
        "Tutoring - November 2025 ($180.00, billed to Liam Ito) hasn't been paid; it was due December 5, 2025."]
    reminders = _answers("payments", "get_invoice", {"invoice_id": "INV-10004"})
    assert reminders["How many reminders have gone out for {invoice_id}?"][0].endswith("it has had 1 reminder.")


def test_money_added_to_the_wallet_is_there_at_once() -> None:
    """"Adding $100.75 from the payment method 'PNC Checking ending 4202'; it arrives March 16 at 9:00 AM" and
    "Top-up started" said a transfer that is done at once was still on its way."""
    for text in _replies("payments", "add_money", {"source_id": "FS-10001", "amount": 100.75}):
        assert "arrives" not in text and "started" not in text and "Adding" not in text, text
        assert "$100.75" in text and "$283.97" in text, text


def test_a_place_that_does_a_food_is_asked_for_by_the_food_not_by_a_restaurant_name() -> None:
    """"Find me somewhere that's open now and does Biscuit Bros." searched by a restaurant's own name where
    the tool gives the foods a place does."""
    asked = [m["content"] for ex in _generated(("food_delivery",), 300, 31) for m in ex["messages"]
             if m["role"] == "user" and "open now and does" in m["content"]]
    assert asked, "no search for a place open now"
    foods = set(registry.get("food_delivery").tools["search_restaurants"].values["query"])
    found = [re.search(r"open now and does (\w+)\.", t) for t in asked]
    assert all(m and m.group(1) in foods for m in found), asked


def test_the_default_delivery_address_is_named_first() -> None:
    """"Which of my addresses is the default for delivery?" was answered with every address, the default
    marked in passing ("Work (...), Home (...; your default) and ...")."""
    said = _answers("food_delivery", "list_addresses", {})
    assert said["Which of my addresses is the default for delivery?"] == [
        "Home (406 Birch Way, Hawthorne) is your default for delivery; you also have Work (2030 Elm Street, Alberta "
        "Arts) and Partner's place (2356 Hillcrest Road, Kerns)."]


def test_an_account_question_gets_its_own_answer() -> None:
    """"How many orders have I placed?" was answered with the credit, the e-mail, the phone and the
    member-since date as well."""
    said = _answers("food_delivery", "get_account", {})
    assert said["How many orders have I placed?"] == ["You've placed 38 orders."]
    assert said["How much credit do I have on my account?"] == ["You have $7.50 of credit on your account."]
    assert all("member since" in t for t in said["Show me my account details."])


def test_income_without_a_category_is_said_in_a_sentence() -> None:
    """"Acme Corp: March 16, account Everyday Checking, income, amount text '$400.00 paid into Everyday
    Checking'" read an uncategorized income entry field by field, for want of a reply that fits it."""
    from prove.env import Session
    server = registry.get("budget")
    with Session([server], world=0) as session:
        added = session.call("add_income", {"account_id": "ACC-10001", "amount": 400.0, "source": "Acme Corp"}).data
        args = {"transaction_id": added["transaction"]["transaction_id"]}
        data = session.call("get_transaction", args).data
    tool = server.tools["get_transaction"]
    assert [_say("budget").reply(tool, r.text, args, data, {}) for r in _fitting_replies(tool, args, data)] == [
        "Acme Corp on March 16: $400.00 paid into Everyday Checking, not filed under any category."]


def test_a_new_category_says_its_limit_and_a_strict_one_that_it_refuses_more() -> None:
    """"Make a strict category Parking capped at $40 a month" was answered "Parking is set up in Other.", which
    said neither the cap nor that it is strict."""
    assert _replies("budget", "create_category", {"strict": True, "name": "Parking", "monthly_limit": 40.0}) == [
        "Created the strict category Parking: $40.00 a month, and anything over it is refused."]
    assert all("$40.00 a month" in t for t in _replies("budget", "create_category",
                                                        {"name": "Parking", "monthly_limit": 40.0}))


def test_is_a_card_frozen_is_answered_alone() -> None:
    """"Is the card 'Mastercard credit card ending 5857' frozen?" was answered with its expiry and daily limit
    too."""
    said = _answers("banking", "get_card", {"card_id": "CRD-10003"})
    assert said["Is {card_id} frozen?"] == ["Mastercard credit card ending 5857 isn't frozen; it's active."]
    assert all("expires 08/28" in t for t in said["When does {card_id} expire, and what's its daily limit?"])


def test_trades_in_an_account_history_are_said_mid_sentence_in_lower_case() -> None:
    """"...on December 15, 2025; Sold 16 SBUX at $109.92": a trade within the list is not capitalised."""
    with Session([registry.get("trading")], world=0) as session:
        result = session.call("list_activity", {"limit": 20})
    text = result.data["activities_text"]
    assert re.search(r"\b(?:bought|sold) \d", text) and not re.search(r"[;,] (?:and )?(?:Bought|Sold)\b", text), text


def test_a_month_that_spent_more_than_came_in_says_so_not_a_negative_net() -> None:
    """"income was $2,804.93 and expenses were $3,899.07, a net of -$1,094.14"."""
    said = [t for world in range(4) for t in _replies("budget", "get_monthly_summary", {}, world=world)]
    assert said and not any("-$" in t for t in said), said
    assert any("more went out than came in" in t for t in said), said


def test_whether_a_product_can_be_returned_is_answered_first_and_alone() -> None:
    """"Can I return the Cuisinart ... if it doesn't work out?" was answered "There's one version of
    ..., $141.99 and in stock; it's returnable within 30 days": the price before the answer. A
    final-sale product says no; the other questions still get the variants and prices."""
    rows = EntityIndex(registry.get("shopping"), 0).rows["product"]
    products = {bool(row["returnable"]): product for product, row in rows.items() if row["status"] == "active"}
    assert set(products) == {True, False}
    for returnable, product in products.items():
        answers = _answers("shopping", "get_product", {"product_id": product})
        asked = answers["Can I return {product_id} if I change my mind?"]
        policy = "returnable within 30 days" if returnable else "a final sale, so it can't be returned"
        assert asked and all(policy in a and "$" not in a for a in asked), asked
        assert all("$" in a for a in answers["Tell me more about {product_id}."])


def test_more_than_one_added_to_a_cart_says_how_many() -> None:
    """"I'll take the La Roche-Posay Hydrating Facial Cleanser, 2 of them" was answered "Your cart
    now holds the La Roche-Posay Hydrating Facial Cleanser": the 2 went unsaid."""
    product = "PROD-10021"  # one version only, in stock
    for quantity in (1, 3):
        texts = _replies("shopping", "add_to_cart", {"product_id": product, "quantity": quantity})
        assert texts and all(("3 of them" in t) == (quantity == 3) for t in texts), texts


def test_a_return_names_its_item_as_the_user_does() -> None:
    """"Return RET-10003 is open for Furhaven Orthopedic Dog Bed" left out the article a product's
    name takes; the reply names the item as the request does."""
    with Session(["shopping"], world=0) as session:
        items = session.call("get_order", {"order_id": "ORD-10013"}).data["items"]  # delivered March 4
        item = next(i["order_item_id"] for i in items if i["product_name"] != "KONG Classic Dog Toy")
    texts = _replies("shopping", "request_return", {"order_item_id": item, "reason": "defective"})
    assert texts and all(re.search(r"for (the|your) ", t) or "I've started" in t for t in texts), texts


def _searched(server: str, tool: str) -> Iterator[tuple[str, list[str]]]:
    """Each search word of `tool`'s gold calls in generated examples, with the example's user turns."""
    for ex in _generated((server,), 300, 4):
        users = [m["content"] for m in ex["messages"] if m["role"] == "user"]
        for turn in ex["turns"]:
            for call in turn["calls"]:
                if call["name"] == tool and call["arguments"].get("query"):
                    yield call["arguments"]["query"], users


def test_a_listing_search_is_said_as_a_search() -> None:
    """"find me an Align Leggings for under $90.50" put an article before words cut from a title; a
    search says its words as words to match."""
    said = list(_searched("marketplace", "search_listings"))
    assert sum(any(f"'{query}'" in u for u in users) for query, users in said) >= 2
    for query, users in said:
        assert not any(re.search(rf"\ban? {re.escape(query)}\b", u) for u in users), users


def test_a_store_search_says_its_words_as_a_search() -> None:
    """"search the store for Running Shoes" read words cut from a product's name as a proper name."""
    said = list(_searched("shopping", "search_products"))
    assert sum(any(f"'{query}'" in u for u in users) for query, users in said) >= 2
    for query, users in said:
        assert not any(f"store for {query}" in u for u in users), users


def test_a_question_about_versions_agrees_with_a_plural_name() -> None:
    """"what sizes or colours does the Nike Road Running Shoes come in" put a singular verb before
    a plural name; the question is asked so that no verb agrees with the name."""
    tool = registry.get("shopping").tools["get_product"]
    assert not any(re.search(r"\b(?:does|is|has) \{product_id\}", ask.text) for ask in tool.asks)
    asked = [u for ex in _generated(("shopping",), 300, 4) for u in (m["content"] for m in ex["messages"]
             if m["role"] == "user") if "sizes or colours" in u]
    assert asked and not any(re.search(r"does the [^?]*s come in", u) for u in asked), asked


def test_offers_on_a_listing_are_asked_of_the_users_own_listing() -> None:
    """"Any offers on the listing 'Gloomhaven ...'?" right after offering on it answered "No offers
    came up": the tool lists offers the user received, so the question is asked of their own listings."""
    asked = 0
    for ex in _generated(("marketplace",), 300, 4):
        index = EntityIndex(registry.get("marketplace"), ex["world"])
        me = next(m for m, row in index.rows["member"].items() if row["is_me"] == 1)
        for turn in ex["turns"]:
            for call in turn["calls"]:
                listing = call["arguments"].get("listing_id") if call["name"] == "list_offers" else None
                if listing and call["arguments"].get("role", "received") == "received":
                    asked += 1
                    assert index.every["listing"][listing]["seller_id"] == me, (ex["id"], listing)
    assert asked >= 2


def test_an_order_rated_for_food_and_delivery_is_thanked_for_both() -> None:
    """"Rate order ORD-10036: food 3 out of 5, delivery 2" was answered "Thanks, your 3-star rating of
    order ORD-10036 is in.", as if 3 stars were all it got."""
    from .test_reads_money import _callable

    with Session(["food_delivery"], world=0) as session:
        orders = session.call("list_orders", {"status": "delivered"}).data["orders"]
    order = _callable("food_delivery", "rate_order", ({"order_id": o["order_id"], "food_rating": 3, "delivery_rating": 2}
                                                      for o in orders if not o["rated"]))
    texts = _replies("food_delivery", "rate_order", order)
    assert texts and all("3-star rating" not in text for text in texts), texts
    assert any("2" in text and "delivery" in text for text in texts), texts
    alone = _replies("food_delivery", "rate_order", {"order_id": order["order_id"], "food_rating": 4})
    assert any("4-star rating" in text for text in alone), alone


def test_a_store_product_measured_in_inches_says_inch() -> None:
    """"Stores with the Plush Teddy Bear 16 in in stock: none." and "transfer the 12 in Cast Iron Skillet"
    read "in" as a word: a size is said "16-inch"."""
    names = list(EntityIndex(registry.get("retail_chain"), 0).labels["product"].values())
    assert len(names) > 50 and any("-inch " in name for name in names)
    assert not any(re.search(r"\d in\b", name) for name in names), [n for n in names if re.search(r"\d in\b", n)]


def test_a_product_no_store_has_is_said_so_with_the_city_asked_about() -> None:
    """"Is the Wireless Earbuds Galaxy Buds2 Pro available anywhere in Spokane?" was answered "Stores with
    the Wireless Earbuds Galaxy Buds2 Pro in stock: none.", without the city and in no words a person uses."""
    product = next(p for p, name in EntityIndex(registry.get("retail_chain"), 0).labels["product"].items()
                   if name == "Wireless Earbuds Galaxy Buds2 Pro")
    for args in ({"product_id": product, "city": "Spokane"}, {"product_id": product, "city": "Yakima",
                                                               "in_stock_only": False}):
        texts = _replies("retail_chain", "check_availability", args)
        assert texts, args
        for text in texts:  # (said in a sentence, not "in stock: nowhere in Spokane right now")
            assert not re.search(r": (?:none|nowhere)\b", text) and f"in {args['city']}" in text, text


def test_dishes_found_in_a_section_under_a_price_are_said_as_those() -> None:
    """"What's under Starters on the Sakura Sushi menu for less than $15?" was answered "Sakura Sushi has 2
    dishes: Gyoza ($8.50) and Miso Soup ($4.50).", as if that were its whole menu."""
    sakura = next(r for r, name in EntityIndex(registry.get("food_delivery"), 0).labels["restaurant"].items()
                  if name == "Sakura Sushi")
    texts = _replies("food_delivery", "get_menu", {"restaurant_id": sakura, "category": "Starters", "max_price": 15.0})
    assert texts and all("dishes in Starters for $15.00 or less: " in text for text in texts), texts
    texts = _replies("food_delivery", "get_menu", {"restaurant_id": sakura, "category": "starters"})
    assert texts and all(re.search(r"\d+ dishes in Starters: ", text) for text in texts), texts


def test_a_coupon_that_takes_another_ones_place_says_so() -> None:
    """"Coupon FREESHIP is on your cart, so $466.46 is due with shipping" after "$451.46": the cart's $15-off
    coupon gave way to one that saves nothing here, and the reply did not say so."""
    with Session(["shopping"], world=0) as session:
        before = session.call("view_cart", {}).data
    assert before["coupon_code"] and before["discount"] > 0
    for text in _replies("shopping", "apply_coupon", {"code": "FREESHIP"}):
        assert f"in place of {before['coupon_code']}" in text, text
    with Session(["shopping"], world=0) as session:
        assert session.call("remove_coupon", {}).ok
        fresh = session.fork().call("apply_coupon", {"code": "FREESHIP"}).data
    assert fresh["replaced_coupon"] is None


def test_a_coupon_that_saved_nothing_is_not_said_to_take_zero_off() -> None:
    """"Coupon FREESHIP is on your cart in place of SAVE15, which took $0.00 off": a coupon whose minimum
    the cart no longer met saved nothing, and a reply says so in words."""
    from tests.synth.test_reads_rest import _replies as _replies_after

    below_minimum = [("remove_from_cart", {"variant_id": "VAR-10194"})]
    texts = _replies_after("shopping", "apply_coupon", {"code": "FREESHIP"}, before=below_minimum)
    assert texts
    for text in texts:
        assert "in place of SAVE15" in text and "$0.00" not in text, text


def test_a_product_asked_about_is_not_called_it() -> None:
    """"Can I return the New Balance Road Running Shoes if it doesn't work out?": a product's name may be
    plural, so a request does not say it again as "it"."""
    for tool in registry.get("shopping").tools.values():
        for ask in tool.asks:
            assert not re.search(r"\{product_id\}.*\bit\b", ask.text), ask.text


def test_a_business_is_said_to_be_a_kind_of_place() -> None:
    """"Happy Paws Grooming (@happy-paws-grooming), a pet care in Austin" put an article on what the business
    does: a person says "a pet care business"."""
    from prove.servers.payments.world import BUSINESSES
    for name, _, _ in BUSINESSES:
        for text in _replies("payments", "search_users", {"query": name}):
            if name in text:
                assert not re.search(r", an? (pet care|fitness|repairs|laundry|personal care|parking|entertainment) in ",
                                     text), text


def test_a_quote_says_which_way_the_price_moved() -> None:
    """"Apple Inc. is at $258.84 (bid $258.79, ask $258.89), 1.69% on the day" did not say up or down."""
    for ticker in ("AAPL", "TSLA", "VTI", "BND", "JPM"):
        with Session(["trading"], world=0) as session:
            change = session.call("get_quote", {"ticker": ticker}).data["change_percent"]
        for text in _replies("trading", "get_quote", {"ticker": ticker}):
            word = "up" if change > 0 else "down" if change < 0 else "unchanged"
            assert re.search(rf"\), {word}\b", text), text


def test_a_cart_quantity_set_to_one_is_not_one_of_a_variant() -> None:
    """"Updated: 1 of the Ruled variant of the Leuchtturm1917 Classic Notebook Large, $401.48 due." reads as one
    out of several variants: the reply says the quantity it set."""
    with Session(["shopping"], world=0) as session:
        variant = session.call("view_cart", {}).data["items"][0]["variant_id"]
    for quantity in (1, 3):
        for text in _replies("shopping", "update_cart_item", {"variant_id": variant, "quantity": quantity}):
            assert not re.search(r"\b\d+ of the ", text) and f"is {quantity} now" in text, text


def test_several_units_are_not_called_it() -> None:
    """"Move 2 Water Flossers from Harbor Supply Co. Riverpark to Harbor Supply Co. Capitol Hill so I can pick it
    up there": a request for a number of units does not call them "it"."""
    for server in ("retail_chain", "shopping", "food_delivery"):
        for tool in registry.get(server).tools.values():
            for ask in tool.asks:
                if "{quantity}" in ask.text:
                    assert not re.search(r"\{quantity\}.*\bit\b", ask.text), (tool.name, ask.text)


def test_a_condition_is_said_as_a_condition() -> None:
    """"Put my sunburst Fender Squier Stratocaster up in a category for $160, good, price firm, no offers": a
    condition stands in words that say it is one ("in good condition", "condition: good")."""
    for ask in registry.get("marketplace").tools["create_listing"].asks:
        assert not re.search(r", \{condition\},", ask.text), ask.text


def test_contacts_asked_for_by_number_are_all_named() -> None:
    """"List my contacts, up to 20." was answered with 10 names and "28 more": the contacts asked for by
    number are each named, up to twenty."""
    for text in _replies("payments", "list_contacts", {"limit": 20}):
        named = text.split(": ", 1)[1].rsplit(" and ", 1)[0].count(", ") + 1
        assert named == 20, text


def test_a_card_paid_past_what_it_owed_has_a_credit() -> None:
    """"Dining Rewards Mastercard (ending 8276): you owe -$139.41": a card paid more than it owed holds a
    credit, and a reply says so."""
    from tests.synth.test_reads_rest import _replies as replies_after

    paid = [("transfer_between_accounts", {"from_account_id": "ACC-10001", "to_account_id": "ACC-10004",
                                           "amount": 400.25})]
    texts = replies_after("banking", "get_account", {"account_id": "ACC-10004"}, before=paid) + \
        replies_after("banking", "list_accounts", {}, before=paid)
    assert texts and not any("-$" in t for t in texts), texts
    assert all("a $139.41 credit" in t for t in texts), texts


def test_a_listing_asked_for_by_number_says_each_it_found_up_to_twenty() -> None:
    """"Show the last 20 transactions on the Cash Wallet account." was answered with 5 and "8 more": what a
    number was asked for is each said, up to twenty."""
    with Session(["budget"], world=0) as session:
        found = session.call("list_transactions", {"account_id": "ACC-10004", "limit": 20}).data["transactions"]
    assert 10 < len(found) <= 20
    text = _read_out("budget", "list_transactions", {"account_id": "ACC-10004", "limit": 20},
                     asked="Show the last 20 transactions on the Cash Wallet account.")
    assert "more" not in text and text.count("; ") + 1 == len(found), text


def test_a_card_deleted_as_expired_has_expired() -> None:
    """"Delete the card 'American Express ending 8849', it's expired." of a card good until 2029: a reason
    the user gives is true of the thing it is given for."""
    tool = registry.get("shopping").tools["remove_payment_method"]
    ask = next(a for a in tool.asks if "expired" in a.text)
    with Session(["shopping"]) as session:
        cards = session.call("list_payment_methods", {}).data["payment_methods"]
        assert {c["expired"] for c in cards} == {True, False}
        for card in cards:
            fits = session.satisfies("payment_method", card["payment_method_id"], ask.fits.get("payment_method_id", "1"))
            assert fits == card["expired"], card


def test_my_card_is_in_my_name() -> None:
    """"Save my card 4111 1111 1111 1111, expiring 02/27, name on card Nia Bennett" of the user's 14-year-old
    (or a colleague): a card the user saves as theirs is in their own name."""
    from tests.synth.test_reads_rest import _turns

    calls = [call["arguments"] for call, _, _ in _turns("travel_booking", "add_payment_card", 400, 5)]
    assert calls
    mine = set()
    for world in range(4):
        with Session(["travel_booking"], world=world) as session:
            mine |= {t["full_name"] for t in session.call("list_travelers", {}).data["travelers"]
                     if t["relationship"] == "self"}
    for args in calls:
        assert args["cardholder_name"] in mine, args


def test_a_shopper_saves_a_card_in_their_own_name() -> None:
    """"Save a new card for Alex Morgan: ..., and make it my default", a name from a list of strangers: where no
    row is the user, the name on the cards they have on file is theirs, and a card they save is in it."""
    from tests.synth.test_reads_rest import _turns

    calls = [call["arguments"] for call, _, _ in _turns("shopping", "add_payment_method", 300, 5)]
    assert calls
    mine = set()
    for world in range(4):
        with Session(["shopping"], world=world) as session:
            mine |= {c["cardholder"].title() for c in session.call("list_payment_methods", {}).data["payment_methods"]}
    for args in calls:
        assert args["cardholder"] in mine, args


def test_a_listing_is_repriced_near_its_price() -> None:
    """"Change the price on the listing 'Apple iPad Air 5th Gen 64GB Blue': it should be $40." of a new iPad: a
    new price for a thing that has one is drawn near it."""
    prices = {}
    for world in range(4):
        db = registry.get("marketplace").template(world).db
        prices[world] = dict(db.execute("SELECT listing_id, price FROM listings"))
    calls = [(ex["world"], c["arguments"]) for ex in _generated(("marketplace",), 500, 7)
             for t in ex["turns"] for c in t["calls"] if c["name"] == "edit_listing" and "price" in c["arguments"]]
    assert calls
    for world, args in calls:
        was = prices[world].get(args["listing_id"])
        if was is not None:  # (a listing made in the episode has no price in the world)
            assert 0.6 * was <= args["price"] <= was, (was, args)


def test_a_booking_is_taken_out_of_a_trip_without_a_reason_the_trip_belies() -> None:
    """"Take my flight KL 561 SEA to AMS on March 28 out of its trip; it doesn't belong there." of the trip
    'Anniversary in Amsterdam': a request gives no reason that the booking and its trip can contradict."""
    for ask in registry.get("travel_booking").tools["remove_booking_from_trip"].asks:
        assert "belong" not in ask.text, ask.text


def test_a_flight_is_moved_a_day_or_two() -> None:
    """"switch my flight LH 982 FRA to BOS on April 4 onto the LH 982 flight from March 17", the way home moved
    before the way out of its trip: a flight is moved a day or two, not across the trip it belongs to."""
    from tests.synth.test_reads_rest import _generated

    moved = 0
    for ex in _generated("travel_booking", 300, 5):
        for turn in ex["turns"]:
            for call in turn["calls"]:
                if call["name"] != "change_flight":
                    continue
                with Session(ex["servers"], world=ex["world"]) as session:
                    was = session.call("get_booking", {"booking_id": call["arguments"]["booking_id"]}).data
                    new = session.call("get_flight", {"flight_id": call["arguments"]["new_flight_id"]}).data
                gap = abs(datetime.fromisoformat(new["departs_at"]) - datetime.fromisoformat(was["flight"]["departs_at"]))
                assert gap <= timedelta(days=2), (turn["user"], was["summary"])
                moved += 1
    assert moved >= 5


def test_a_price_bound_on_a_search_for_words_is_near_what_they_find() -> None:
    """"Find me listings matching 'Black Diamond Spot' for under $300" (a $25 headlamp): a person who searches for
    a thing by its words sets a bound just above what such things cost, so the search still finds them."""
    seen = 0
    for server, tool, kind in (("marketplace", "search_listings", "listing"), ("shopping", "search_products", "product")):
        for ex in _generated((server,), 500, 9393):
            index = EntityIndex(registry.get(server), ex["world"])
            for call in (c for turn in ex["turns"] for c in turn["calls"] if c["name"] == tool):
                query, bound = call["arguments"].get("query"), call["arguments"].get("max_price")
                if not isinstance(query, str) or bound is None:
                    continue
                prices = [row["price"] for key, row in index.rows[kind].items()
                          if query.lower() in index.labels[kind].get(key, "").lower()
                          and isinstance(row.get("price"), (int, float))]
                if prices:
                    seen += 1
                    assert max(prices) <= bound <= 2 * max(prices) + 10, (query, bound, prices)
    assert seen >= 3


def test_a_return_because_it_does_not_fit_is_of_something_worn() -> None:
    """"I want to return one of the items because it doesn't fit." -> "The Logitech HD Webcam item.": an item
    that does not fit is clothing or shoes."""
    def worn(world: int) -> set[str]:
        db = registry.get("shopping").template(world).db
        return {r[0] for r in db.execute("SELECT o.order_item_id FROM order_items o JOIN products p USING (product_id) "
                                         "JOIN categories c USING (category_id) WHERE c.name IN ('Clothing', 'Shoes')")}

    returned = [(ex["world"], call["arguments"]["order_item_id"]) for ex in _generated(("shopping",), 800, 1212)
                for turn in ex["turns"] for call in turn["calls"]
                if call["name"] == "request_return" and call["arguments"].get("reason") == "doesn't fit"]
    assert returned and all(item in worn(world) for world, item in returned), returned


def test_a_product_in_stock_nowhere_is_told_so_in_a_sentence() -> None:
    """"Here's where you'll find the Smart Thermostat in stock: nowhere in Olympia right now.": where no store has
    the product, the reply says that, not a list that holds "nowhere"."""
    from prove.synth.teachers.programmatic import _fitting_replies

    tool = registry.get("retail_chain").tools["check_availability"]
    with Session(["retail_chain"], world=0) as session:
        for args in ({"product_id": "PRD-10028", "city": "Olympia"}, {"product_id": "PRD-10028", "city": "Nowhere"}):
            result = session.call("check_availability", args)
            assert result.ok and result.data["total"] == 0, result
            replies = _fitting_replies(tool, args, result.data, "Is the Smart Thermostat available anywhere?")
            assert replies and all("Here's where" not in r.text for r in replies), replies


def test_a_shipping_charge_is_what_a_parcel_costs() -> None:
    """"I want to sell my IKEA Kallax shelf (white) ... for $60; it's in fair condition. Shipping is $1.25." and
    "price $220, shipping $1": a charge for shipping a thing is what sending a parcel costs."""
    charged = 0
    for ex in _generated(("marketplace",), 400, 9135):
        for turn in ex["turns"]:
            for call in turn["calls"]:
                cost = call["arguments"].get("shipping_cost")
                if call["name"] in ("create_listing", "edit_listing", "estimate_fees") and cost:
                    charged += 1
                    assert cost >= 5, (call, turn["user"])
    assert charged >= 5
