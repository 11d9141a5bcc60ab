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
