"""How the banking, budget, payments, trading, marketplace, shopping and retail servers read: what
their listings say, how their requests leave a value out, and what their replies answer."""

from __future__ import annotations

import functools
import json
import random
import re
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


def _read_out(server_name: str, tool_name: str, args: dict[str, Any], asked: str = "") -> str:
    """What the assistant says of a read's result where the tool has no reply of its own."""
    server = registry.get(server_name)
    with Session([server], world=0) as session:
        result = session.call(tool_name, args)
    assert result.ok, result.error
    words = Wording(random.Random(0))
    return _say(server_name).to_user(words.summary(server.tools[tool_name], result.data, (), opener=False,
                                                   args=args, asked=asked))


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
    assert re.search(r": amount \$[\d,.]+, next on [A-Z][a-z]+ \d+, (?:monthly|one-time)", text), text
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
    assert any(re.search(r"closed at \$[\d,.]+ on [A-Z][a-z]+ \d+; .* ran from \$[\d,.]+ to \$[\d,.]+", t) for t in texts), texts


def test_a_product_is_described_in_a_sentence_not_by_its_fields() -> None:
    """"Cotton Bath Towel Set of 6: sku 573-792-146, brand Cedar & Loom, ..., stores with stock 7"
    read the record's fields; a person says who makes it, what it costs and where it is in stock."""
    for text in _replies("retail_chain", "get_product", {"product_id": "PRD-10015"}):
        assert re.fullmatch(r"The Cotton Bath Towel Set of 6 from Cedar & Loom costs \$59\.99 \(Home & Bedding\)\. .+ "
                            r"(?:\d+ stores have it in stock, \d+ units in all|Only 1 store has it in stock.*)\.", text), text
        assert "sku" not in text and "stores with stock" not in text, text
