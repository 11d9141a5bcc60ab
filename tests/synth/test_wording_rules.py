"""The programmatic teacher's wording rules, read off synthesized examples of finished servers."""

from __future__ import annotations

import json
import random
import re

import pytest

from prove.env import registry
from prove.env.asks import Ask
from prove.synth import SynthConfig, Synthesizer
from prove.synth.entities import EntityIndex
from prove.synth.phrasing import Phrasing, human, renderings
from prove.synth.quality import RAW_ID, figures
from prove.synth.sampler import Sampler
from prove.synth.wording import PERSONAS, Wording


def _accepted(candidates):
    return [json.loads(c.line) for c in candidates if c.line]


def test_gold_calls_carry_only_what_the_phrasing_says(candidates) -> None:
    """No optional argument is set unless a slot or a binding of the request's phrasing says it."""
    checked = 0
    for ex in _accepted(candidates):
        server = registry.get(ex["servers"][0])
        bindings = ex["meta"].get("bindings", {})
        for turn in ex["turns"]:
            for call in turn["calls"]:
                tool = server.tools[call["name"]]
                fixed = bindings.get(call["id"], {})
                for name, value in fixed.items():
                    assert call["arguments"].get(name, tool.defaults.get(name)) == value, (ex["id"], call)
                    if name in tool.defaults and tool.defaults[name] == value:
                        assert name not in call["arguments"], "a binding to the default leaves the argument out"
                optional = {p.name for p in tool.params if not p.required} & set(call["arguments"])
                if not optional or not tool.asks:
                    continue
                # Some phrasing of the tool slots or binds every optional argument the call carries.
                assert any(optional <= a.covers for a in tool.asks), (ex["id"], call)
                checked += 1
    assert checked > 10


def test_every_entity_a_gold_call_takes_is_one_its_parameter_takes(candidates) -> None:
    """A parameter's `where` holds for its gold value at the time of the call, wherever the value
    came from: the context, an earlier output, or a lookup (no "how much do I owe" on a checking
    account taken from a transaction)."""
    from prove.env import Session

    checked = 0
    for ex in _accepted(candidates):
        server = registry.get(ex["servers"][0])
        with Session([server], world=ex["world"]) as session:
            for turn in ex["turns"]:
                if turn.get("advance"):
                    session.advance(turn["advance"])
                for call in turn["calls"]:
                    tool = server.tools[call["name"]]
                    for p in tool.params:
                        value = call["arguments"].get(p.name)
                        if p.where is not None and isinstance(value, str):
                            assert session.satisfies(p.entity, value, p.where), (ex["id"], call, p.where)
                            checked += 1
                    assert session.call(call["name"], call["arguments"]).ok
    assert checked > 5


def test_nothing_is_made_and_undone_in_one_conversation(candidates) -> None:
    """An undoing tool (delete, cancel, remove, ...) takes an entity that was there before, not one
    an earlier call of the conversation made: "add an address ... remove the new address" is no task."""
    assert _undone_made(_accepted(candidates)) > 3


def test_nothing_made_is_undone_even_where_nothing_else_of_its_kind_could_be() -> None:
    """"Book a brake inspection ... cancel that service appointment": where the world holds no other
    appointment to cancel, the cancelling is left out, not aimed at the one just booked."""
    assert _undone_made(_generated(["vehicle"], 160, 4)) > 3


def _undone_made(examples: list[dict]) -> int:
    """How many undoing calls the examples make; each one must take nothing they made."""
    from prove.env import Session
    from prove.synth.entities import extract_entities
    from prove.synth.teachers.programmatic import _UNDOING

    undoing = 0
    for ex in examples:
        server = registry.get(ex["servers"][0])
        results = {m["tool_call_id"]: json.loads(m["content"]) for m in ex["messages"] if m["role"] == "tool"}
        made: set[str] = set()
        with Session([server], world=ex["world"]) as start:
            for turn in ex["turns"]:
                for call in turn["calls"]:
                    tool = server.tools[call["name"]]
                    if call["name"].startswith(_UNDOING):
                        undoing += 1
                        taken = {v for p in tool.params if p.entity for v in
                                 (call["arguments"].get(p.name) if isinstance(call["arguments"].get(p.name), list)
                                  else [call["arguments"].get(p.name)])}
                        assert not taken & made, (ex["id"], call)
                    made |= {v for kind, v, _ in extract_entities(tool, results[call["id"]])
                             if not start.satisfies(kind, v, "1 = 1")}
    return undoing


def test_values_that_belong_together_are_drawn_together(candidates) -> None:
    """A review's stars, title and text come from one candidate: no five stars for 'Arrived broken'."""
    tool = registry.get("shopping").tools["write_review"]
    joint = set(tool.values["rating, title, body"])
    reviews = [c["arguments"] for ex in _accepted(candidates) for t in ex["turns"] for c in t["calls"]
               if ex["servers"] == ["shopping"] and c["name"] == "write_review"]
    assert reviews and all((a["rating"], a["title"], a["body"]) in joint for a in reviews)


def test_no_parameter_name_clauses_and_no_pasted_descriptions(candidates) -> None:
    for ex in _accepted(candidates):
        server = registry.get(ex["servers"][0])
        f = figures(ex, server)
        assert f["clause_turns"] == 0, [m["content"] for m in ex["messages"] if m["role"] == "user"]
        assert f["docstring_replies"] == 0, ex["id"]


def test_entities_are_named_as_people_name_them() -> None:
    server = registry.get("banking")
    index = EntityIndex(server, 0)
    context = Sampler(server, 0, [0]).context(0)
    say = Phrasing(server, context, index, Wording(random.Random(0)))
    account, nickname = next(iter(index.labels["account"].items()))
    assert say.entity("account", account) in (f"the {nickname} account", f"the {nickname}")
    assert not RAW_ID.search(say.entity("account", account))
    assert say.request(server.tools["get_account"], Ask("How much is in {account_id}?"), {"account_id": account},
                       {}).startswith("How much is in the ")


def test_values_read_as_people_write_them() -> None:
    assert human("2026-03-18T14:30:00") == "March 18 at 2:30 PM"
    assert human("2026-03-18T00:00:00") == "March 18" and human("2027-01-02") == "January 2, 2027"
    assert human(["a", "b", "c"]) == "a, b and c" and human(12.5) == "12.50"
    assert "credit card" in renderings("credit_card") and "march 18" in renderings("2026-03-18")


def test_a_first_call_that_is_too_early_lets_time_pass() -> None:
    """Starting a meeting scheduled later: the example waits before its first turn, and replays."""
    synth = Synthesizer(SynthConfig(n=30, seed=5, servers=["video_meeting"]))
    waited = []
    for i in range(120):
        c = synth.example(i)
        if c.line and json.loads(c.line)["turns"][0]["advance"] > 0:
            waited.append(json.loads(c.line))
    started = [ex for ex in waited if [c["name"] for c in ex["turns"][0]["calls"]][:1] == ["start_meeting"]]
    assert started, "no example waited for a meeting to start"
    ex = started[0]
    assert re.search(r"\d{4}-\d{2}-\d{2}", ex["messages"][0]["content"])
    assert "2026-03-16 09:00" not in ex["messages"][0]["content"]  # the date is the conversation's, not the epoch


@pytest.mark.parametrize("label, words", [("Patio String Lights 48 ft", "String Lights"),
                                          ("Area Rug 5 x 7 ft, Indigo", "Area Rug"),
                                          ("Weekend brunch", None), ("Q2 budget for Search", None),
                                          # a model's name before its number, the thing after: "a Black
                                          # Diamond Spot", never "a Diamond Spot"
                                          ("Black Diamond Spot 400 Headlamp", "Black Diamond Spot"),
                                          ("Insulated Water Bottle 32 oz", "Water Bottle"),
                                          # a head whose modifier is a compound keeps it whole
                                          ("Remote Control Car 1:16", "Remote Control Car")])
def test_a_search_says_the_head_of_a_long_name_never_a_stray_word(label, words) -> None:
    from prove.synth.teachers.programmatic import _head_words

    assert _head_words(label) == words


def _generated(servers: list[str], n: int, seed: int) -> list[dict]:
    """The accepted examples among the first `n` candidates of a run on `servers`."""
    synth = Synthesizer(SynthConfig(n=n, seed=seed, servers=servers))
    return [json.loads(c.line) for c in (synth.example(i) for i in range(n)) if c.line]


def _strs_in(value: object) -> list[str]:
    return [v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str)]


def _entity_args(tool, call: dict) -> set[str]:
    """The entity IDs a gold call takes."""
    out: set[str] = set()
    for p in tool.params:
        value = call["arguments"].get(p.name)
        if p.entity:
            out.update(v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str))
    return out


def _say(server_name: str) -> tuple[Phrasing, EntityIndex]:
    server = registry.get(server_name)
    index = EntityIndex(server, 0)
    return Phrasing(server, Sampler(server, 0, [0]).context(0), index, Wording(random.Random(0))), index


def test_a_kind_says_its_name_the_way_its_naming_asks() -> None:
    """Businesses and places by their name alone, things with "the", codes bare, a drive item by
    its own noun; a name with its own article takes no other."""
    say, index = _say("food_delivery")
    restaurants = index.labels["restaurant"]
    the = next(r for r, label in restaurants.items() if label.startswith("The "))
    assert say.entity("restaurant", the) == restaurants[the]
    dish = next(d for d in index.labels["menu_item"] if say.label("menu_item", d))  # a dish only one place has
    assert say.entity("menu_item", dish) == f"the {index.labels['menu_item'][dish]}"
    tool = registry.get("food_delivery").tools["get_restaurant"]
    assert "the restaurant" not in say.request(tool, Ask("Tell me about the restaurant {restaurant_id}."),
                                               {"restaurant_id": the}, {})
    travel, _ = _say("travel_booking")
    assert travel.entity("airport", "BOS") == "BOS"
    drive, index = _say("filesystem")
    folder = next(p for p, row in index.rows["item"].items() if row.get("kind") == "folder")
    assert drive.entity("item", folder).endswith(" folder") and " item" not in drive.entity("item", folder)


def test_a_kind_with_an_unknown_naming_fails_at_declaration() -> None:
    from prove.env import EntityKind, ToolDefinitionError

    with pytest.raises(ToolDefinitionError, match="naming"):
        EntityKind("shop", table="shops", key="shop_id", naming="bare")


@pytest.mark.parametrize("text, fits", [("Forget my {restaurant_id} order.", False),
                                        ("My new home is {place_id}.", False),
                                        ("Freeze {card_id}.", True),
                                        ("Move {item_id} to the trash, please.", True),
                                        ("Rate {place_id} 5 stars.", True),
                                        ("Change {review_id} rating to 1 star.", False),
                                        ("I'll take the lead {lead_id}; assign it to me.", False),
                                        ("Put it on a card {card_id}.", False)])
def test_a_vague_entity_goes_only_where_a_vague_phrase_reads(text, fits) -> None:
    """"one of the restaurants" reads in "Freeze {x}." but not in "my {x} order"."""
    from prove.synth.teachers.programmatic import _vague_fits

    slot = re.search(r"\{(\w+)\}", text).group(1)
    assert _vague_fits(text, slot) is fits


def test_nothing_a_conversation_ended_takes_another_write() -> None:
    """No email is forwarded after it is trashed, no file tagged after it is deleted (but a file
    whose tag was removed is still there to share)."""
    ends = {"trash_message": "message_id", "report_spam": "message_id", "archive_message": "message_id",
            "delete_draft": "draft_id", "delete_path": "path", "delete_contact": "contact_id"}
    ending = 0
    for ex in _generated(["email", "filesystem"], 80, 4):
        server = registry.get(ex["servers"][0])
        ended: set[str] = set()
        for turn in ex["turns"]:
            for call in turn["calls"]:
                tool = server.tools[call["name"]]
                if not tool.read_only:
                    assert not _entity_args(tool, call) & ended, (ex["id"], call)
                if call["name"] in ends:
                    ending += 1
                    ended.add(call["arguments"][ends[call["name"]]])
    assert ending > 3


def test_a_set_up_the_tool_takes_back_is_never_planned() -> None:
    """Nobody opens the trunk to close it, or freezes a card to unfreeze it, in one conversation."""
    from prove.synth.graph import undoes

    pairs = {(need, t.name) for name in ("vehicle", "banking", "video_meeting")
             for t in registry.get(name).tools.values() for need in t.needs if undoes(need, t.name)}
    assert pairs
    for ex in _generated(["vehicle", "banking", "video_meeting"], 80, 2):
        names = [call["name"] for turn in ex["turns"] for call in turn["calls"]]
        for need, owner in pairs:
            if need in names and owner in names:
                assert names.index(owner) < names.index(need), (ex["id"], names)
        for i, a in enumerate(names):  # nor does anything else take back an earlier call
            assert not any(undoes(a, b) for b in names[i + 1:]), (ex["id"], names)


def test_a_decline_keeps_acronyms_and_a_reply_keeps_a_handle_as_it_is() -> None:
    words = Wording(random.Random(0))
    assert "crm" not in words.decline(registry.get("crm"), []).replace("CRM", "")
    seller = {"username": "ayoung81", "rating": 5, "location": "Denver, CO"}
    assert words.summary(None, seller, opener=False).startswith("ayoung81")


def test_setting_a_thing_and_cancelling_it_undo_each_other() -> None:
    from prove.synth.graph import undoes

    assert undoes("set_navigation_destination", "cancel_navigation")
    assert undoes("start_meeting", "end_meeting") and undoes("apply_coupon", "remove_coupon")
    assert not undoes("set_status", "cancel_order")
    assert undoes("contribute_to_goal", "withdraw_from_goal")  # no taking $40 out of a goal to put $150 back


def test_a_long_text_is_named_by_its_opening_and_traced_by_it() -> None:
    from prove.synth.phrasing import excerpt_of

    say, index = _say("social_media")
    posts = index.labels["post"]
    long_one = next(p for p, text in posts.items() if len(text) > 60 and say.label("post", p))
    named = say.entity("post", long_one)
    opening = excerpt_of(posts[long_one])
    assert opening and f"'{opening}…'" in named and "PST-" not in named
    assert excerpt_of("Short text") is None


def test_a_nameless_thing_is_named_by_what_it_belongs_to() -> None:
    """A recording by its meeting, an offer by its listing: never a raw ID nobody has seen."""
    say, index = _say("video_meeting")
    recording = next(r for r in index.rows["recording"] if say.entity("recording", r).startswith("the recording of"))
    column, kind, owner = index.owner("recording", recording)
    assert kind == "meeting" and say.entity("recording", recording).startswith(
        f"the recording of the meeting '{index.labels['meeting'][owner]}'")
    market, index = _say("marketplace")
    offer = next(o for o in index.rows["offer"] if market.entity("offer", o).startswith("the offer on "))
    assert "OFR-" not in market.entity("offer", offer)
    assert index.owner("listing", next(iter(index.labels["listing"]))) is None  # a named kind names itself


def test_a_series_runs_for_a_few_of_its_periods() -> None:
    from prove.synth.teachers.programmatic import _order_pairs

    monthly = {"frequency": "monthly", "send_on": "2026-03-18", "end_date": "2026-03-21"}
    _order_pairs(monthly)
    assert monthly["end_date"] >= "2026-06-16"
    weekly = {"frequency": "weekly", "send_on": "2026-03-18", "end_date": "2026-06-21"}
    _order_pairs(weekly)
    assert weekly["end_date"] == "2026-06-21"  # already a run of weeks: left as the user said it


def test_a_binding_left_out_as_the_default_still_picks_the_values_that_go_with_it() -> None:
    """"Set up the company {name}" binds kind='business' (the default, so left out of the call):
    the name drawn is a company's, never "the company Daniel Kim"."""
    tool = registry.get("banking").tools["add_payee"]
    people = {name for name, kind in tool.values["name, kind"] if kind == "person"}
    seen = 0
    for ex in _generated(["banking"], 120, 6):
        for turn in ex["turns"]:
            for call in turn["calls"]:
                if call["name"] == "add_payee" and "company" in turn["user"]:
                    seen += 1
                    assert call["arguments"]["name"] not in people, turn["user"]
    assert seen


def test_cents_go_on_money_not_on_degrees() -> None:
    from prove.synth.values import ValueMaker

    maker = ValueMaker(None, random.Random(3))
    temps = {maker.number("target_temp", {"minimum": 60, "maximum": 85}, 70, False) for _ in range(200)}
    assert all(round(t * 2) == t * 2 for t in temps)  # whole or half degrees
    amounts = {maker.number("amount", {}, 25.0, False) for _ in range(200)}
    assert any(round(a * 2) != a * 2 for a in amounts)  # $12.99 does happen


def test_a_passport_runs_for_years_and_a_savings_goal_is_months_away() -> None:
    from datetime import date

    from prove.env.world import EPOCH
    from prove.synth.values import ValueMaker

    maker = ValueMaker(None, random.Random(5))
    expiries = [date.fromisoformat(maker.date("passport_expiry", None)) for _ in range(50)]
    targets = [date.fromisoformat(maker.date("target_date", None)) for _ in range(50)]
    assert min(expiries).year >= EPOCH.year + 2
    assert min((t - EPOCH.date()).days for t in targets) >= 90


def test_a_request_that_starts_with_an_entity_noun_is_lowered_after_a_connector() -> None:
    joined = [t["user"] for ex in _generated(["marketplace", "issue_tracker", "shopping"], 150, 8)
              for t in ex["turns"]]
    assert joined and not any(re.search(r"(?:Next|Then|After that|Also|Plus|Oh, and), (?:Order|Issue) [A-Z]+-\d", u)
                              for u in joined)


def test_a_part_is_named_with_what_it_is_part_of() -> None:
    say, index = _say("shopping")
    variant = next(iter(index.rows["variant"]))
    product = index.rows["variant"][variant]["product_id"]
    assert say.entity("variant", variant).endswith(f" of the {index.labels['product'][product]}")


def test_twins_told_apart_by_date_differ_by_day_not_only_by_time() -> None:
    """Two posts with the same text on the same day are not "the post '…' from March 10" both."""
    say, index = _say("social_media")
    rendered: dict[str, str] = {}
    for post in index.rows["post"]:
        text = say.entity("post", post)
        assert text not in rendered or text.startswith("post PST-"), (post, rendered.get(text), text)
        rendered[text] = post


def test_a_direct_message_channel_is_the_dm_with_a_person() -> None:
    """Not "the Camila Williams channel" nor "the message '…' in Camila Williams"."""
    say, index = _say("team_chat")
    dm = next(c for c, row in index.rows["channel"].items() if row["kind"] == "dm")
    assert say.entity("channel", dm) == f"the DM with {index.labels['channel'][dm]}"
    public = next(c for c, row in index.rows["channel"].items() if row["kind"] == "public")
    assert say.entity("channel", public) == f"the channel '{index.labels['channel'][public]}'"


def test_nothing_is_changed_and_then_ended_in_one_conversation() -> None:
    """No share link is given a new expiry and then revoked; no reservation extended and collected."""
    ends = {"revoke_share_link": "link_id", "collect_reservation": "reservation_id",
            "cancel_reservation": "reservation_id", "delete_path": "path"}
    checked = 0
    for ex in _generated(["filesystem", "retail_chain"], 120, 12):
        server = registry.get(ex["servers"][0])
        written: set[str] = set()
        for turn in ex["turns"]:
            for call in turn["calls"]:
                tool = server.tools[call["name"]]
                if call["name"] in ends:
                    checked += 1
                    assert call["arguments"][ends[call["name"]]] not in written, (ex["id"], call)
                if not tool.read_only:
                    written |= _entity_args(tool, call)

    assert checked > 3


def test_no_gold_write_leaves_the_world_as_it_was() -> None:
    """No "make the Home address my default" when it is, no "mark it read" on read mail, no
    sharing a calendar with someone who has that access: every gold write changes the state."""
    from prove.env import Session

    writes = 0
    for ex in _generated(["email", "food_delivery", "calendar"], 90, 7):
        server = registry.get(ex["servers"][0])
        with Session([server], world=ex["world"]) as session:
            for turn in ex["turns"]:
                if turn.get("advance"):
                    session.advance(turn["advance"])
                for call in turn["calls"]:
                    before = session.fingerprint()
                    assert session.call(call["name"], call["arguments"]).ok
                    if not server.tools[call["name"]].read_only:
                        writes += 1
                        assert session.fingerprint() != before, (ex["id"], call)
    assert writes > 20


def test_a_lookup_is_the_one_made_for_the_kind() -> None:
    """At the minimal level a person is looked up in the contacts (the kind's lister), not in a
    listing that mentions people in passing; a category in the categories."""
    from prove.synth.teachers.programmatic import _names_kind

    assert _names_kind("list_categories", "category") and _names_kind("list_cards", "card")
    assert not _names_kind("list_requests", "user")
    payments = registry.get("payments")
    lister = payments.lister("user")
    assert lister is not None and lister != "list_requests"
    lister_of_people = "list_contacts"  # the declared lister (a search) needs a query: the next best
    looked_up = 0
    for ex in _generated(["payments"], 120, 5):
        if ex["meta"].get("level") != "minimal":
            continue
        calls = [call["name"] for turn in ex["turns"] for call in turn["calls"]]
        for i, name in enumerate(calls):
            if name in ("send_payment", "request_money", "create_invoice") and i and calls[i - 1] == lister_of_people:
                looked_up += 1
            if name in ("send_payment", "create_invoice"):
                assert calls[i - 1:i] != ["list_requests"], (ex["id"], calls)
    assert looked_up > 2


def test_a_part_drops_what_it_is_part_of_where_the_request_says_that_already() -> None:
    """"the REI tent in the Standard variant", not "... in the Standard variant of the REI tent"."""
    say, index = _say("shopping")
    variant = next(iter(index.rows["variant"]))
    product = index.rows["variant"][variant]["product_id"]
    tool = registry.get("shopping").tools["add_to_cart"]
    text = say.request(tool, Ask("Put {product_id} in {variant_id} into my cart."),
                       {"product_id": product, "variant_id": variant}, {})
    name = index.labels["product"][product]
    assert text.count(name) == 1, text


def test_an_option_like_label_goes_before_its_noun_and_the_users_own_things_are_mine() -> None:
    """"the like notification from ana", not "the notification 'like'"; the user's own message is
    "... of mine", not "... from <the user's own name>"."""
    say, index = _say("social_media")
    note = next(n for n, row in index.rows["notification"].items() if row["kind"] == "like")
    assert say.entity("notification", note).startswith("the like notification")
    chat, index = _say("team_chat")
    me = next(u for u, row in index.rows["user"].items() if row["is_me"] == 1)
    mine = [m for m, row in index.rows["message"].items() if row["user_id"] == me]
    said = [chat.entity("message", m) for m in mine]
    assert said and not any(index.labels["user"][me] in s for s in said)


def test_a_reply_that_names_a_result_field_the_result_lacks_is_not_used() -> None:
    """"How long until we get there?" with no destination set is read from the result, never
    "none is none miles away"."""
    from prove.synth.teachers.programmatic import _fitting_replies

    tool = registry.get("vehicle").tools["get_navigation"]
    set_up = {"active": True, "destination": {"name": "Dad's place"}, "distance_mi": 17.9, "minutes": 24,
              "arrival": "2026-03-16T09:24:00", "range_after_mi": 359.8}
    assert _fitting_replies(tool, {}, set_up)
    assert [r.text for r in _fitting_replies(tool, {}, {"active": False, "destination": None, "distance_mi": None})] \
        == ["Navigation isn't on right now: no destination is set."]


def test_nothing_a_conversation_changed_is_taken_back_later() -> None:
    """No "invite Adam ... take Adam off the invite list", no "reopen the deal ... close it as lost":
    a later gold write never returns a row or a column an earlier one changed to how it was."""
    from prove.env import Session
    from prove.synth.teachers.programmatic import _cells

    later_writes = 0
    for ex in _generated(["calendar", "crm", "email"], 90, 11):
        server = registry.get(ex["servers"][0])
        with Session([server], world=ex["world"]) as session:
            wrote = False
            for turn in ex["turns"]:
                if turn.get("advance"):
                    session.advance(turn["advance"])
                for call in turn["calls"]:
                    write = not server.tools[call["name"]].read_only
                    before = _cells(session) if write and wrote else None
                    assert session.call(call["name"], call["arguments"]).ok
                    if before is not None:
                        later_writes += 1
                        assert before <= _cells(session), (ex["id"], call)
                    wrote = wrote or write
    assert later_writes > 10


def test_a_question_for_an_id_names_the_thing_and_nothing_else_of_its_kind_is_left_unfindable() -> None:
    """With the lookups hidden the assistant asks for the ID of the thing it names ("I can't look up
    the Front Door Lock by name here"), and only where no other thing of that kind is named by label."""
    asked = 0
    for ex in _generated(["iot_devices", "banking", "issue_tracker"], 240, 13):
        if ex["kind"] != "clarification" or "hidden_tool" not in ex["perturbations"]:
            continue
        messages = ex["messages"]
        at = next((i for i, m in enumerate(messages[:-1]) if m["role"] == "assistant" and not m.get("tool_calls")
                   and messages[i + 1]["role"] == "user" and ("by name" in (m["content"] or "")
                                                               or "search for" in (m["content"] or ""))), None)
        if at is None:
            continue
        question, answer = messages[at]["content"], messages[at + 1]["content"]
        asked += 1
        assert "that " not in question.split("search for")[-1][:6], question
        server = registry.get(ex["servers"][0])
        calls = [c for turn in ex["turns"] for c in turn["calls"]]
        given = [(p.entity, v) for c in calls for p in server.tools[c["name"]].params if p.entity
                 for v in [c["arguments"].get(p.name)] if isinstance(v, str) and v in answer]
        assert given, (ex["id"], answer)
        kind = given[0][0]
        # every other thing of that kind in the calls is the one asked about, or comes from a result
        users = " ".join(m["content"] for m in messages if m["role"] == "user")
        for c in calls:
            for p in server.tools[c["name"]].params:
                v = c["arguments"].get(p.name)
                if p.entity == kind and isinstance(v, str) and v != given[0][1]:
                    shown = any(v in (m.get("content") or "") for m in messages if m["role"] == "tool")
                    assert shown or v in users, (ex["id"], c)
    assert asked > 0


def test_the_user_is_me_in_a_request_and_you_in_a_reply() -> None:
    say, index = _say("issue_tracker")
    me = next(u for u, row in index.rows["user"].items() if row.get("is_me") == 1)
    assert say.entity("user", me) == "me"
    tool = registry.get("issue_tracker").tools["assign_issue"]
    issue = next(iter(index.rows["issue"]))
    request = say.request(tool, Ask("Assign {issue_id} to {assignee_id}."), {"issue_id": issue, "assignee_id": me}, {})
    assert request.endswith("to me.") and index.labels["user"][me] not in request
    reply = say.reply(tool, "Assigned {issue_id} to {assignee_id}.", {"issue_id": issue, "assignee_id": me}, {}, {})
    assert reply.endswith("to you.")
    from prove.synth.phrasing import tidy
    assert tidy("Show me's open deals. Does me have anything on?") == "Show my open deals. Do I have anything on?"


def test_a_monthly_statement_is_named_by_its_month_in_words() -> None:
    say, index = _say("banking")
    statement = next(iter(index.rows["statement"]))
    text = say.entity("statement", statement)
    assert not re.search(r"\d{4}-\d{2}", text) and " statement" in text, text


def test_a_search_looks_for_what_the_tool_lists() -> None:
    """"find my meetings about Work" searched a calendar's name; a search's words come from the
    things the tool is named for (events for search_events)."""
    index_labels = EntityIndex(registry.get("calendar"), 0)
    calendars = {label.lower() for label in index_labels.labels["calendar"].values()}
    searched = [call["arguments"]["query"] for ex in _generated(["calendar"], 150, 3) for turn in ex["turns"]
                for call in turn["calls"] if call["name"] == "search_events" and "query" in call["arguments"]]
    assert searched and not any(q.lower() in calendars for q in searched), searched


def test_a_reply_says_you_for_the_user_a_result_names() -> None:
    """"Done; you have issue WEB-10026 now", not the user's own name read back from the result."""
    say, index = _say("issue_tracker")
    me = next(u for u, row in index.rows["user"].items() if row.get("is_me") == 1)
    tool = registry.get("issue_tracker").tools["assign_issue"]
    text = say.reply(tool, "Done; {result.assignee_name} has {issue_id} now.", {"issue_id": "WEB-10026", "assignee_id": me},
                     {"assignee_id": me, "assignee_name": index.labels["user"][me]}, {})
    assert text == "Done; you have issue WEB-10026 now.", text
    from prove.synth.phrasing import tidy
    assert tidy("The one I meant is Eggs & Co.. Put it under the that trip itinerary.") == \
        "The one I meant is Eggs & Co. Put it under that trip itinerary."


def test_a_post_or_message_is_searched_by_a_phrase_of_it_never_its_whole_text() -> None:
    from prove.synth.teachers.programmatic import _sentence

    assert _sentence("Lunch & learn tomorrow: data contracts. Pizza provided.")
    assert not _sentence("KitchenAid Artisan Stand Mixer 5qt Empire Red")
    texts = set()
    for name in ("social_media", "team_chat"):
        index = EntityIndex(registry.get(name), 0)
        kind = "post" if name == "social_media" else "message"
        texts |= {t for t in index.labels[kind].values() if isinstance(t, str) and _sentence(t)}
    queries = [call["arguments"]["query"] for ex in _generated(["social_media", "team_chat"], 160, 9)
               for turn in ex["turns"] for call in turn["calls"]
               if call["name"] in ("search_posts", "search_messages") and "query" in call["arguments"]]
    assert queries and not set(queries) & texts, set(queries) & texts


def test_a_summary_says_you_for_the_user_and_a_reaction_is_written_as_its_code() -> None:
    say, index = _say("team_chat")
    me = next(u for u, row in index.rows["user"].items() if row["is_me"] == 1)
    name = index.labels["user"][me]
    assert say.to_user(f"2 replies: +1: by Carlos Reyes; Got it: by {name}.") == "2 replies: +1: by Carlos Reyes; Got it: by you."
    market, members = _say("marketplace")
    me_user = next(members.labels["member"][m] for m, row in members.rows["member"].items() if row["is_me"] == 1)
    assert market.to_user(f"1 listing: Bose Speaker: withdrawn, price $74.99, seller username {me_user}, category "
                          f"Electronics. Tent: seller username {me_user}, price $9.") == \
        "1 listing: Bose Speaker: withdrawn, price $74.99, category Electronics. Tent: price $9."
    assert market.to_user(f"2 offers: {me_user}'s $58.00 offer on 'Nespresso'") == "2 offers: your $58.00 offer on 'Nespresso'"
    from prove.synth.phrasing import spoken_to_user
    assert spoken_to_user("Done: the meeting 'Sync' of mine now runs 45 minutes.") == \
        "Done: your meeting 'Sync' now runs 45 minutes."
    assert spoken_to_user("Pinned the message 'We need a decision by Friday.' of mine in #proj-aurora.") == \
        "Pinned your message 'We need a decision by Friday.' in #proj-aurora."
    assert spoken_to_user("Your profile: e-mail fiona.thomas@proton.me, site my.example.com; call me.") == \
        "Your profile: e-mail fiona.thomas@proton.me, site my.example.com; call you."
    tool = registry.get("team_chat").tools["add_reaction"]
    assert all(":{emoji}:" in a.text for a in tool.asks if "{emoji}" in a.text)


def test_a_listing_that_found_nothing_says_so_and_a_cart_is_not_filled_to_be_cleared() -> None:
    from prove.synth.teachers.programmatic import _fitting_replies

    tool = registry.get("issue_tracker").tools["list_worklogs"]
    empty = {"worklogs": [], "total": 0, "total_minutes": 0, "time_text": "0 min", "by_issue": "nothing logged"}
    assert _fitting_replies(tool, {}, empty) == []
    assert _fitting_replies(tool, {}, {**empty, "worklogs": [{"worklog_id": "W-1"}], "total": 1})
    cleared = 0
    for ex in _generated(["food_delivery"], 200, 22):
        results = {m["tool_call_id"]: json.loads(m["content"]) for m in ex["messages"] if m["role"] == "tool"}
        added: set[str] = set()
        for turn in ex["turns"]:
            for call in turn["calls"]:
                if call["name"] == "add_to_cart":
                    added.add(results[call["id"]]["restaurant_id"])
                if call["name"] == "clear_cart":
                    cleared += 1
                    assert call["arguments"].get("restaurant_id") not in added, (ex["id"], call)
    assert cleared > 2


def test_a_refusal_never_tells_the_user_a_tool_name() -> None:
    error = {"code": "cart_empty", "message": "Your cart at Biscuit Bros. is empty.",
             "hint": "Add dishes first with add_to_cart."}
    said = {Wording(random.Random(s)).failure(error) for s in range(20)}
    assert not any("add_to_cart" in t for t in said) and all("is empty" in t for t in said)
    hinted = {Wording(random.Random(s)).failure({**error, "hint": "Add a dish first."}) for s in range(20)}
    assert any("Add a dish first." in t for t in hinted)


def test_a_reading_with_a_value_chosen_freely_finds_something() -> None:
    """"What Noodles does Little Hanoi have under $1?", "how many times does Focus time meet between
    11:30 and 8:00 tomorrow?", "what does the door lock cost me in power?": a price, a window or a
    device the planner chose that finds nothing is chosen again; an empty answer stays for a question
    among a few states ("any open disputes?")."""
    from prove.synth.teachers.programmatic import _empty_listing

    reads = empty = 0
    for ex in _generated(["calendar", "food_delivery", "iot_devices"], 150, 3):
        server = registry.get(ex["servers"][0])
        results = {m["tool_call_id"]: json.loads(m["content"]) for m in ex["messages"] if m["role"] == "tool"}
        for turn in ex["turns"]:
            for call in turn["calls"]:
                tool = server.tools[call["name"]]
                props = tool.parameters["properties"]
                free = [n for n, v in call["arguments"].items() if "enum" not in props.get(n, {}) and
                        not isinstance(v, bool)]
                if tool.read_only and free:
                    reads += 1
                    empty += _empty_listing(results[call["id"]])
    assert reads > 100 and empty <= 0.02 * reads


def test_a_reading_that_found_nothing_says_what_it_did_not_find() -> None:
    words = Wording(random.Random(0))
    assert words.nothing({"post_id": "PST-1", "comments": [], "total": 0, "said": "no comments yet"}) == \
        "No comments yet."
    said = {Wording(random.Random(s)).nothing({"disputes": [], "total": 0}) for s in range(10)}
    assert all("no disputes" in t.lower() for t in said) and len(said) > 1
    tool = registry.get("banking").tools["list_disputes"]
    assert "o open disputes" in words.nothing({"disputes": [], "total": 0}, tool, {"status": "open"})
    assert "no disputes under review" in words.nothing({"disputes": [], "total": 0}, tool, {"status": "under_review"})


def test_a_new_thing_is_that_thing_only_while_nothing_else_of_its_kind_came_up_since() -> None:
    """"Hold the blanket for me ... cancel reservation RES-10005 ... check out that reservation" means
    RES-10005: the new hold is "the new reservation" once another one is named after it."""
    from prove.env import Session
    from prove.synth.contract import Conversation
    from prove.synth.teachers.programmatic import Planner, Step

    synth = Synthesizer(SynthConfig(n=1, seed=0, servers=["retail_chain"]))
    spec = synth.spec(0)
    server = registry.get("retail_chain")
    with Session([server], world=spec.world) as sess:
        conv = Conversation(spec, sess, synth.index(server, spec.world))
        planner = Planner(conv)
        held = next(r for r in sess.call("list_reservations", {}).data["reservations"] if r["status"] == "active")
        store = sess.call("find_stores", {}).data["stores"]
        product = held["product_id"]
        made = None
        for st in store:
            made = sess.call("reserve_for_pickup", {"store_id": st["store_id"], "product_id": product})
            if made.ok:
                break
        assert made is not None and made.ok
        new_id = made.data["reservation_id"]
        steps = [Step(server.tools["reserve_for_pickup"], {"store_id": made.data["store_id"], "product_id": product},
                      {}, made, None)]
        alone = {planner._flow_ref("reservation", [new_id], 0, steps, [], 1)[1] for _ in range(20)}
        assert alone == {"the new reservation", "that reservation"}
        cancelled = sess.call("cancel_reservation", {"reservation_id": held["reservation_id"]})
        steps.append(Step(server.tools["cancel_reservation"], {"reservation_id": held["reservation_id"]}, {},
                          cancelled, None))
        after = {planner._flow_ref("reservation", [new_id], 0, steps, [], 2)[1] for _ in range(20)}
        assert after == {"the new reservation"}


def test_replies_name_an_address_a_restored_email_and_opening_hours_as_people_do() -> None:
    """"Saved it as your work address" (not "as your work"), "Restored the email 'Offsite agenda'"
    (not "... 'Offsite agenda' in Trash"), "open now (it never closes)" said once."""
    replies = [m["content"] for ex in _generated(["maps", "email"], 200, 11) for m in ex["messages"]
               if m["role"] == "assistant" and m.get("content")]
    assert any("your home address" in r or "your work address" in r for r in replies)
    assert any("Restored the email '" in r for r in replies)
    # ("... 0.67 miles northwest of your home", "by transit from your home" are the place itself)
    assert not any(re.search(r"(?<!of )(?<!from )\byour (?:home|work)\b(?! address)", r) for r in replies)
    assert not any(re.search(r"Restored the email '[^']*' in Trash", r) or ") (hours that day" in r for r in replies)


def test_the_user_never_names_themselves_by_their_own_username() -> None:
    """"I sold the listing 'DualSense Controller' from amartin35 elsewhere", said by amartin35, is
    "... the listing 'DualSense Controller' of mine ..."."""
    server = registry.get("marketplace")
    seen = 0
    for ex in _generated(["marketplace"], 200, 707):
        (me,) = server.template(ex["world"]).db.execute("SELECT username FROM members WHERE is_me = 1").fetchone()
        users = [t["user"] for t in ex["turns"]]
        seen += any("of mine" in u for u in users)
        assert not any(re.search(rf"\b{re.escape(me)}\b", u) for u in users), (ex["id"], users)
    assert seen


def test_a_persons_new_email_address_is_made_from_their_name() -> None:
    """"Update James White's email to ana@newcompany.com" is no request a person makes."""
    updated = 0
    for ex in _generated(["email"], 150, 3) + _generated(["email"], 150, 1):  # (one updates a contact it just added)
        results = {m["tool_call_id"]: json.loads(m["content"]) for m in ex["messages"] if m["role"] == "tool"}
        for turn in ex["turns"]:
            for call in turn["calls"]:
                if call["name"] == "update_contact" and "email" in call["arguments"]:
                    name = results[call["id"]]["name"]
                    updated += 1
                    assert call["arguments"]["email"].startswith(name.lower().replace(" ", ".") + "@"), (ex["id"], call)
                    assert "newcompany" not in call["arguments"]["email"]  # the docstring's example is no address
    assert updated >= 3


def test_nothing_more_is_done_with_what_the_user_declined() -> None:
    """"Decline the security review ... email me an hour before the security review" is no task."""
    tools = registry.get("calendar").tools
    declined_then = declined = 0
    for ex in _generated(["calendar"], 200, 1) + _generated(["calendar"], 200, 7):
        turned_down: set[str] = set()
        for turn in ex["turns"]:
            for call in turn["calls"]:
                event = call["arguments"].get("event_id")
                if call["name"] == "respond_to_invitation" and call["arguments"].get("response") == "declined":
                    declined += 1
                    turned_down.add(event)
                elif event in turned_down and not tools[call["name"]].read_only:
                    declined_then += 1
    assert declined > 5 and declined_then == 0


def test_a_reading_over_several_days_runs_from_morning_to_evening() -> None:
    """"Is Anika free between March 18 at 12:30 PM and March 23 at 9:00 AM?" is no question a person
    asks; "... between March 18 at 9:00 AM and March 23 at 5:00 PM?" is."""
    from prove.synth.teachers.programmatic import Source, _round_window

    window = {"start": "2026-03-18T12:30:00", "end": "2026-03-23T09:00:00"}
    _round_window(window, {})
    assert window == {"start": "2026-03-18T09:00:00", "end": "2026-03-23T17:00:00"}
    same_day = {"after": "2026-03-18T12:30", "before": "2026-03-18T15:00"}
    _round_window(same_day, {})
    assert same_day == {"after": "2026-03-18T12:30", "before": "2026-03-18T15:00"}
    from_a_result = {"start": "2026-03-18T12:30:00", "end": "2026-03-23T09:00:00"}
    _round_window(from_a_result, {"start": Source("flow", 0)})
    assert from_a_result["start"].endswith("12:30:00")
    windows = [call["arguments"] for ex in _generated(["calendar"], 120, 5) for turn in ex["turns"]
               for call in turn["calls"] if call["name"] in ("get_free_busy", "list_occurrences")]
    several = [w for w in windows if w.get("start", "")[:10] != w.get("end", "")[:10]]
    assert several and all(w["start"][11:16] == "09:00" and w["end"][11:16] == "17:00" for w in several)


def test_a_new_contact_is_a_person() -> None:
    """"Add Waiting on, waiting.on@evergreenanal.com, to my contacts" names a label, not a person."""
    added = [call["arguments"] for ex in _generated(["email", "crm", "payments"], 150, 2) for turn in ex["turns"]
             for call in turn["calls"] if call["name"] == "add_contact" and "name" in call["arguments"]]
    assert len(added) > 2
    assert all(re.fullmatch(r"[A-Z][a-z'A-Z]+ [A-Z][a-z'A-Z-]+", a["name"]) for a in added), added
    assert all(a["email"].startswith(a["name"].lower().replace(" ", ".").replace("'", "")) for a in added if "email" in a)


def test_a_request_the_user_sent_is_to_someone_one_they_got_is_from_someone() -> None:
    """"Withdraw the request 'Gas money' from Rafael Singh" reads as his request; the user's own is
    "the request 'Gas money' to Rafael Singh"."""
    say, index = _say("payments")
    told = {say.entity("request", r): row["direction"] for r, row in index.rows["request"].items()
            if " to " in say.entity("request", r) or " from " in say.entity("request", r)}
    assert any(d == "outgoing" for d in told.values()) and any(d == "incoming" for d in told.values())
    for text, direction in told.items():
        assert (" to " in text) == (direction == "outgoing"), (text, direction)


def test_a_moved_event_says_its_day_once_and_a_floor_is_named_once() -> None:
    """"Moved ... to March 19 at 10:00 AM until March 19 at 10:30 AM" and "the 'Ground floor' floor"."""
    texts = [m["content"] for ex in _generated(["calendar", "iot_devices"], 300, 3) for m in ex["messages"]
             if m["role"] in ("user", "assistant") and m.get("content")]
    assert any("; it now runs on " in t for t in texts)
    assert not any(re.search(r"(\w+ \d{1,2}) at \d{1,2}:\d{2} [AP]M until \1 at", t) or "floor' floor" in t
                   for t in texts)


def test_a_greeting_fits_the_time_of_day() -> None:
    """"Good evening" at 9 AM is no greeting; at 9 PM it is, and "Good morning" is not."""
    from datetime import datetime

    polite = next(p for p in PERSONAS if p.name == "polite")
    morning = {Wording(random.Random(s), polite, now=datetime(2026, 3, 16, 9)).user_turn(["Show my cards."], 0)
               for s in range(60)}
    evening = {Wording(random.Random(s), polite, now=datetime(2026, 3, 16, 21)).user_turn(["Show my cards."], 0)
               for s in range(60)}
    assert any(t.startswith("Good morning") for t in morning) and not any("evening" in t for t in morning)
    assert any(t.startswith("Good evening") for t in evening) and not any("morning" in t for t in evening)
    texts = [u for ex in _generated(["banking", "email"], 150, 4) for u in (t["user"] for t in ex["turns"])]
    assert not any("Good evening" in u or "Good afternoon" in u for u in texts)  # the worlds start at 9 AM


def test_a_request_led_by_its_reason_joins_as_a_new_thought() -> None:
    """"After that, I don't owe that, turn down the request" reads wrong; "Oh, and I don't owe that,
    turn down the request" does not."""
    joined = {Wording(random.Random(s)).join_requests(
        ["Withdraw the request 'Gas money'.", "I don't owe that, turn down the request 'Tickets'."])
        for s in range(40)}
    assert all(re.search(r"\. (Also, i|And i|Plus, i|Oh, and i) don't owe that", j.replace(" I ", " i "))
               for j in joined), joined
    steps = {Wording(random.Random(s)).join_requests(["Withdraw the request 'Gas money'.", "Decline 'Tickets'."])
             for s in range(40)}
    assert any("After that, decline" in j or "Then decline" in j for j in steps)


def test_an_invoice_line_is_said_as_a_person_writes_it() -> None:
    """"3 × Additional hour at $60.00 each" is how a receipt prints, not how a person bills; a line's
    name is quoted ("an invoice for Cancellation fee (less than 24 hours notice) at $45.00" read it as
    part of the sentence)."""
    from prove.synth.values import render_value

    assert render_value([{"description": "Additional hour", "quantity": 3.0, "unit_price": 60.0}]) == \
        "'Additional hour' (3 at $60.00 each)"
    assert render_value([{"description": "Rush fee", "quantity": 1.0, "unit_price": 50.0}]) == "'Rush fee' at $50.00"
    texts = [t["user"] for ex in _generated(["payments"], 200, 6) for t in ex["turns"]]
    assert any("'Additional hour' (" in u for u in texts) and not any("×" in u for u in texts)


def test_a_search_for_a_reply_leaves_out_its_re() -> None:
    """"Find emails about Re: Mercury launch plan" is no search a person types."""
    calls = [c for ex in _generated(["email", "team_chat"], 250, 8) for t in ex["turns"] for c in t["calls"]
             if c["name"] == "search_messages"]
    assert len(calls) > 5
    assert not any(re.match(r"(?i)(re|fwd?):", c["arguments"].get("query", "")) for c in calls), calls


def test_a_minimum_filter_is_above_the_lowest_value() -> None:
    """"Reviews with at least 1 star" filters nothing."""
    from prove.synth.values import ValueMaker

    made = {ValueMaker(None, random.Random(s)).number("min_rating", {"minimum": 1, "maximum": 5}, None, True)
            for s in range(50)}
    assert made <= {2, 3, 4, 5} and len(made) > 1
    assert ValueMaker(None, random.Random(0)).number("rating", {"minimum": 1, "maximum": 5}, None, True) in range(1, 6)


def test_what_the_conversation_ended_is_not_asked_about_or_brought_back() -> None:
    """"Tidal Works has closed for good ... what are its hours?", "unfollow chloeg ... send chloeg a
    DM", "delete the file ... restore it from the trash": none is a task."""
    from types import SimpleNamespace

    from prove.synth.entities import extract_entities
    from prove.synth.teachers.programmatic import _RESTORING, Planner, _declines

    from prove.env import Session

    checked = 0
    for ex in _generated(["maps", "social_media", "filesystem"], 300, 9):
        server = registry.get(ex["servers"][0])
        results = {m["tool_call_id"]: json.loads(m["content"]) for m in ex["messages"] if m["role"] == "tool"}
        ended: set[str] = set()
        made: set[str] = set()
        start = Session([server], world=ex["world"])
        for turn in ex["turns"]:
            for call in turn["calls"]:
                tool = server.tools[call["name"]]
                taken = _entity_args(tool, call)
                assert not taken & ended, (ex["id"], call)
                if call["name"].startswith(_RESTORING):
                    assert not taken & made, (ex["id"], call)
                    checked += 1
                ends = {v for p in tool.params if p.entity and (
                    Planner._ends(SimpleNamespace(server=server), tool, p.entity) or _declines(tool, call["arguments"]))
                    for v in _entity_args(tool, {"arguments": {p.name: call["arguments"].get(p.name)}})}
                if ends and results[call["id"]].get("error") is None:
                    ended |= ends
                    checked += 1
                made |= {v for kind, v, _ in extract_entities(tool, results[call["id"]])
                         if not start.satisfies(kind, v, "1 = 1")}
        start.close()
    assert checked > 10


def test_a_numbered_thing_is_named_without_an_article_and_a_listing_counts_what_it_lists() -> None:
    """"Complete the MOB Sprint 14" and "2 activities: ..." for tasks."""
    from prove.synth.phrasing import _named

    assert _named("MOB Sprint 14", "noun", "sprint") == "MOB Sprint 14"
    assert _named("Primary Bedroom", "noun", "room") == "the Primary Bedroom"
    words = Wording(random.Random(0))
    tasks = registry.get("crm").tools["list_tasks"]
    held = {"activities": [{"activity_id": "ACT-1", "subject": "Call Ana", "due_date": "2026-03-18"},
                           {"activity_id": "ACT-2", "subject": "Send proposal", "due_date": "2026-03-19"}], "total": 2}
    assert "2 tasks" in words.summary(tasks, held) and "activities" not in words.summary(tasks, held)
    assert "tasks" in words.nothing({"activities": [], "total": 0}, tasks)


def test_a_reply_does_not_report_a_zero_amount_where_another_fits() -> None:
    """"$119.11 goes back to your card and $0.00 to your credit" says nothing with its second half."""
    from prove.synth.teachers.programmatic import _fitting_replies

    cancel = registry.get("food_delivery").tools["cancel_order"]
    to_card = {"order_id": "ORD-1", "refunded_to_card": 21.5, "refunded_to_credit": 0.0}
    both = {"order_id": "ORD-1", "refunded_to_card": 21.5, "refunded_to_credit": 5.0}
    assert not any("to your credit" in r.text for r in _fitting_replies(cancel, {"order_id": "ORD-1"}, to_card))
    assert any("to your credit" in r.text for r in _fitting_replies(cancel, {"order_id": "ORD-1"}, both))
    payment = registry.get("payments").tools["get_payment"]
    assert _fitting_replies(payment, {}, {"counterparty_name": "Maya Kim", "amount": 20.0, "note": "Cab",
                                          "status": "completed", "refundable_amount": 0.0}) == []


def test_a_refund_of_no_points_and_a_count_of_requests_say_nothing_of_points_or_dollars() -> None:
    """"$1,159.54 and 0 points come back to you" and "Requests waiting on you: $3.00"."""
    from prove.synth.teachers.programmatic import _fitting_replies
    from prove.synth.values import is_money

    cancel = registry.get("travel_booking").tools["cancel_booking"]
    cash = {"booking_id": "BKG-1", "refund_amount": 1159.54, "refund_points": 0, "reason": "Refunded in full."}
    assert not any("points" in r.text for r in _fitting_replies(cancel, {"booking_id": "BKG-1"}, cash))
    assert any("points" in r.text for r in _fitting_replies(cancel, {"booking_id": "BKG-1"},
                                                              {**cash, "refund_points": 4000}))
    assert not is_money("pending_incoming_requests") and is_money("pending") and is_money("total_credits")


def test_nothing_is_put_somewhere_and_taken_out_again_and_a_charge_is_on_its_account() -> None:
    """"Add the booking to the trip ... remove it from the trip" undoes itself; "the Aldi
    transaction from Citi Double Cash" reads as money that came from the card."""
    from prove.synth.graph import undoes

    assert undoes("add_booking_to_trip", "remove_booking_from_trip") and undoes("add_to_cart", "remove_from_cart")
    assert not undoes("add_booking_to_trip", "remove_booking")
    say, index = _say("budget")
    told = [say.entity("transaction", t) for t in index.rows["transaction"]]
    months = "January|February|March|April|May|June|July|August|September|October|November|December"
    assert any(" on " in t for t in told) and not any(re.search(rf"transaction from (?!{months})[A-Z]", t) for t in told)


def test_a_quote_that_ends_its_sentence_takes_no_second_period_and_no_plural_takes_s() -> None:
    """"to say 'Looking into it now.'." and "one of the channels's topic"."""
    from prove.synth.phrasing import tidy
    from prove.synth.teachers.programmatic import _vague_fits

    assert tidy("Edit it to say 'Looking into it now.'. Thanks.") == "Edit it to say 'Looking into it now.' Thanks."
    assert tidy("Post 'hi there' now.") == "Post 'hi there' now."
    assert not _vague_fits("Change {channel_id}'s topic to: {topic}", "channel_id")
    assert _vague_fits("Archive {channel_id} now.", "channel_id")


def test_a_zero_is_said_in_words_where_a_reply_binds_it() -> None:
    """"has no stretches of busy time, and is free otherwise", "it has had 0 reminders",
    "refundable ($0.00 to cancel)"."""
    from prove.synth.teachers.programmatic import _fitting_replies

    busy = registry.get("calendar").tools["get_free_busy"]
    free = {"person_id": "PER-1", "name": "Yara Flores", "start": "2026-03-17T09:00:00", "end": "2026-03-17T12:00:00",
            "busy": [], "total": 0}
    window = {"start": free["start"], "end": free["end"]}
    assert [r.text for r in _fitting_replies(busy, window, free)] == ["{result.name} is free the whole time between {start} "
                                                                      "and {end}."]
    invoice = registry.get("payments").tools["get_invoice"]
    sent = {"title": "Tutoring", "amount": 420.0, "customer_name": "Aria Kumar", "status": "paid",
            "due_date": "2025-12-15", "reminders_sent": 0}
    assert all("no reminder" in r.text for r in _fitting_replies(invoice, {}, sent))
    from prove.servers.travel_booking.tools_flights import _fare_words

    class Fare:
        name, price, refundable, cancellation_fee, seats_left = "Business", 578.98, True, 0.0, 4

    assert _fare_words(Fare()) == "Business $578.98, free to cancel"


def test_a_thing_a_write_renamed_is_said_by_its_new_name_afterwards() -> None:
    """"Move my flight LH 982 FRA to BOS on April 4 to the March 26 flight ... add two bags to my
    flight LH 982 FRA to BOS on April 4" names a flight that no longer exists."""
    seen = 0
    for ex in _generated(["travel_booking", "iot_devices"], 300, 12):
        results = {m["tool_call_id"]: json.loads(m["content"]) for m in ex["messages"] if m["role"] == "tool"}
        for i, turn in enumerate(ex["turns"]):
            for call in turn["calls"]:
                data = results[call["id"]]
                old_new = None
                if call["name"] == "change_flight" and isinstance(data.get("booking"), dict):
                    old_new = (data.get("previous_summary"), data["booking"].get("summary"))
                if call["name"] == "rename_device" and "error" not in data:
                    old_new = (None, data.get("name"))
                if old_new is None or not old_new[1]:
                    continue
                later = " ".join(t["user"] for t in ex["turns"][i + 1:])
                seen += old_new[1] in later
                assert not (old_new[0] and old_new[0] in later), (ex["id"], old_new, later)
    assert seen >= 1


def test_that_that_a_kwh_field_and_a_free_change_read_as_people_write() -> None:
    """"record that that issue is blocked", "kwh added 13.54", "the change cost $0.00"."""
    from prove.synth.phrasing import tidy
    from prove.synth.results import field_text
    from prove.synth.teachers.programmatic import _fitting_replies

    assert tidy("Then record that that issue is blocked.") == "Then record that the issue is blocked."
    assert field_text("kwh_added", 13.54) == "13.54 kWh added"
    change = registry.get("travel_booking").tools["change_flight"]
    free = _fitting_replies(change, {"booking_id": "B", "new_flight_id": "F"}, {"amount_charged": 0.0})
    assert [r.text for r in free] == ["{booking_id} is now on {new_flight_id}; the change was free."]


def test_a_nameless_thing_is_said_by_its_owner_even_one_of_a_series() -> None:
    """A recording of a weekly meeting is said by the meeting and its day, never by its ID: the
    meeting itself has ended, and its title is shared by the whole series."""
    say, index = _say("video_meeting")
    for recording in index.rows["recording"]:
        text = say.entity("recording", recording)
        assert recording not in text and text.startswith("the recording of the meeting '"), text
    assert say.entity("recording", "REC-10003") == "the recording of the meeting 'Weekly Engineering sync' " \
                                                   "from February 23"


def test_things_of_one_owner_are_told_apart_by_whose_they_are_or_their_amount() -> None:
    """Two offers on one listing: the buyer's; two transfers from one account: the payee or the amount."""
    say, index = _say("marketplace")
    offers = {o: say.entity("offer", o) for o in index.rows["offer"]}
    assert all(o not in text and "offer on the " in text for o, text in offers.items()), offers
    assert say.entity("offer", "OFR-10005") == "jordan_games's offer on the listing 'Apple iPhone 13 128GB Starlight'"
    say, index = _say("banking")
    assert say.entity("transfer", "TRF-10073") == "the transfer from the Main Checking account to Luis Robinson"
    assert say.entity("transfer", "TRF-10018") == "the $115.94 transfer from the Main Checking account"
    assert say.entity("transfer", "TRF-10033") == "the transfer from the Main Checking account on November 14, " \
                                                  "2025 at 6:30 AM"  # one "from" per phrase


def test_a_thing_of_something_with_a_public_id_is_said_by_that_id() -> None:
    say, index = _say("issue_tracker")
    comments = [say.entity("comment", c) for c in index.rows["comment"]]
    assert sum("CMT-" in text for text in comments) <= len(comments) // 20
    assert say.entity("comment", "CMT-10069") == "Yusuf Brown's comment on issue WEB-10011"


def test_twins_no_one_thing_tells_apart_are_told_by_two() -> None:
    """'Looking into it now.' was written in several channels, and in some more than once: the
    channel and the author (or the day) together tell it apart."""
    say, index = _say("team_chat")
    said = [say.entity("message", m) for m in index.rows["message"]]
    assert any(re.fullmatch(r"the message '.+' in the (channel '[^']+'|DM with [A-Z][a-z]+ [A-Z][a-z]+) from .+", t)
               for t in said), said
    say, index = _say("social_media")  # a second "from" reads "on": "from @yamamotoc on February 25"
    texts = {row["text"] for row in index.every["comment"].values()}
    said = [say.entity("comment", c) for c in index.rows["comment"]]
    assert any(re.fullmatch(r"the comment '.+' from @[a-z0-9_.]+ on [A-Z][a-z]+ \d+", t) for t in said), said
    for text in said:  # "the Right?! comment from Beautiful.": a reply is not from the comment it answers
        assert text.startswith("the comment '"), text
        assert not any(text.endswith(f" from {other}") for other in texts), text
    assert say.entity("comment", "CMT-10010") == "the comment 'So jealous right now.' from @sebastian.fischer on February 26"
    assert say.entity("comment", "CMT-10030") == "the comment 'Let's go together next time!' from @yamamotoc on March 8"


def test_a_record_that_lists_a_thing_does_not_rename_it() -> None:
    """An activated scene's record lists the devices it changed: "Set the Dinner Time to 40%
    brightness" named a light by the scene's name, as if the scene had renamed it."""
    checked = 0
    for ex in _generated(["iot_devices"], 150, 12):
        results = {m["tool_call_id"]: json.loads(m["content"]) for m in ex["messages"] if m["role"] == "tool"}
        for i, turn in enumerate(ex["turns"]):
            for call in turn["calls"]:
                if call["name"] != "activate_scene" or "error" in results[call["id"]]:
                    continue
                name = results[call["id"]]["name"]
                later = " ".join(t["user"] for t in ex["turns"][i + 1:])
                assert not re.search(rf"the {re.escape(name)}(?! scene)", later), (ex["id"], later)
                checked += bool(later)
    assert checked >= 3


def test_the_assistant_says_your_where_the_user_says_my() -> None:
    """"I can't look up my flight LH 982 FRA to BOS on April 4 by name here": the assistant asks
    after the user's flight; a listing's "my role viewer" is the user's role."""
    from prove.synth.results import field_text

    asked = 0
    for ex in _generated(["travel_booking", "shopping"], 200, 5):
        for m in ex["messages"]:
            if m["role"] == "assistant" and re.search(r"search for|look up .* by name", m.get("content") or ""):
                assert not re.search(r"\b(my|mine)\b", m["content"]), (ex["id"], m["content"])
                asked += "your " in m["content"]
    assert asked >= 2
    assert field_text("my_role", "viewer") == "you're a viewer"
    assert field_text("my_status", "waiting") == "your status waiting"


def test_one_thing_was_and_a_name_with_its_own_article_takes_no_other() -> None:
    """"1 line were added", "Your The Patty Wagon order"."""
    from prove.synth.phrasing import tidy

    assert tidy("Since then, 1 lines were added and 0 removed.") == "Since then, 1 line was added and 0 removed."
    assert tidy("Your The Patty Wagon order is in.") == "Your Patty Wagon order is in."
    assert tidy("11 lines were added.") == "11 lines were added."


def test_nothing_of_a_kind_is_said_by_the_kind() -> None:
    """"No cafe places came up" for a search of cafes near a place: "No cafes came up"; a state
    still stands before the noun ("I found no open disputes")."""
    maps = registry.get("maps")
    words = Wording(random.Random(0))
    said = {words.nothing({"places": [], "total": 0}, maps.tools["search_nearby"],
                          {"place_id": "PLC-10088", "category": "cafe", "open_now": True}) for _ in range(9)}
    # (the search kept to open places: "no open cafes", not a claim about every cafe)
    assert said and all(re.fullmatch(r"(I found no|There are no|No) open cafes( came up)?\.", s) for s in said), said
    banking = registry.get("banking")
    assert "no open disputes" in words.nothing({"disputes": []}, banking.tools["list_disputes"], {"status": "open"}).lower()


def test_nothing_made_in_a_conversation_is_asked_after_while_it_is_still_empty() -> None:
    """"Create a channel called data-quality." ... "And what's been happening in that channel?" ->
    "There are no messages.": a new channel, meeting or list holds nothing yet, so nobody asks."""
    from prove.synth.teachers.programmatic import _empty_listing

    asked = 0
    for name in ("team_chat", "video_meeting", "maps"):
        server = registry.get(name)
        indexes: dict[int, EntityIndex] = {}
        for ex in _generated([name], 150, 21):
            index = indexes.setdefault(ex["world"], EntityIndex(server, ex["world"]))
            results = {m["tool_call_id"]: json.loads(m["content"]) for m in ex["messages"] if m["role"] == "tool"}
            for turn in ex["turns"]:
                for call in turn["calls"]:
                    tool = server.tools[call["name"]]
                    new = [v for p in tool.params if p.entity for v in _strs_in(call["arguments"].get(p.name))
                           if v not in index.ids.get(p.entity, ())]
                    if tool.read_only and new:
                        asked += 1
                        assert not _empty_listing(results[call["id"]]), (ex["id"], call, results[call["id"]])
    assert asked >= 3


def test_time_passes_before_a_conversation_only_until_the_call_can_be_made() -> None:
    """"Kick off the meeting 'Keystone Holdings onboarding call' from March 20 now, everyone's
    waiting" was said on March 21 at 9:00 AM, the day after the meeting: the wait before the
    conversation was whole days. It is now the shortest, to the quarter hour."""
    waited = 0
    for ex in _generated(["video_meeting"], 200, 4):
        if not ex["turns"][0]["advance"]:
            continue
        results = {m["tool_call_id"]: json.loads(m["content"]) for m in ex["messages"] if m["role"] == "tool"}
        for call in ex["turns"][0]["calls"]:
            data = results[call["id"]]
            if call["name"] == "start_meeting" and "error" not in data:
                waited += 1
                assert data["started_at"] <= data["starts_at"], (ex["id"], data["starts_at"], data["started_at"])
    assert waited >= 2


def test_a_zero_count_after_a_verb_is_said_as_no() -> None:
    """"It has 0 likes and 2 comments", "matched 0 emails already there"."""
    from prove.synth.phrasing import tidy

    assert tidy("It has 0 likes and 2 comments.") == "It has no likes and 2 comments."
    assert tidy("It went through your mailbox and matched 0 emails already there.") == \
        "It went through your mailbox and matched no emails already there."
    assert tidy("Moved 10 emails; 0 left.") == "Moved 10 emails; 0 left."
    assert tidy("They're in Austin, with 3 listings for sale and 0 items sold.") == \
        "They're in Austin, with 3 listings for sale and no items sold."


def test_twins_are_told_apart_by_the_number_of_what_they_belong_to() -> None:
    """Two Leuchtturm notebooks bought in two orders: "the Leuchtturm1917 ... item from order
    ORD-10005", not "item OI-10008" nor "from Chuckit! Ball Launcher and 1 more" (an order's summary)."""
    say, index = _say("shopping")
    labels = index.labels["order_item"]
    twins = [k for k, v in labels.items() if list(labels.values()).count(v) > 1]
    assert len(twins) >= 2
    for item in twins:
        text = say.entity("order_item", item)
        assert "OI-" not in text and re.search(r" from order ORD-\d+$", text), text


def test_a_place_a_request_goes_to_is_never_left_out() -> None:
    """"Then put the file 'Cover letter - Granite Capital.md'." lost where it goes: a destination
    ("Put {path} in {destination_folder}.") is asked after, never dropped from the request."""
    from prove.synth.teachers.programmatic import _left_out

    assert _left_out("Put {path} in {destination_folder}.", "destination_folder") is None
    assert _left_out("Make a copy of {path} in {destination_folder}.", "destination_folder") is None
    assert _left_out("Track my bill with {payee}: {amount} monthly from {account_id}, under {category_id}, first due "
                     "{next_due_date}.", "category_id") == \
        "Track my bill with {payee}: {amount} monthly from {account_id}, first due {next_due_date}."


def test_a_name_written_in_lower_case_stays_so_at_the_start_of_a_sentence() -> None:
    """"NuLOOM Area Rug 5 x 7 ft" and "IPhone" are not how the brands are written."""
    from prove.synth.phrasing import _sentences

    assert _sentences("it costs $139.99. nuLOOM Area Rug, indigo. iPhone cases too. the rest.") == \
        "It costs $139.99. nuLOOM Area Rug, indigo. iPhone cases too. The rest."


def test_a_thing_of_a_file_is_said_by_the_file_its_key_points_to() -> None:
    """A version or a share link belongs to a file through its `node_id` (a key the file is not
    named by): "open version VER-10003" is "the version of the Resume.md file from December 14, 2024"."""
    say, index = _say("filesystem")
    for kind in ("version", "share_link"):
        said = {v: say.entity(kind, v) for v in index.every[kind]}
        assert said and all(v not in text and text.startswith("the ") for v, text in said.items()), said
        assert len(set(said.values())) == len(said), said  # each one told apart from the file's others
    assert any(re.fullmatch(r"the version of the .+ file from [A-Z][a-z]+ \d+, \d{4}", t)
               for t in (say.entity("version", v) for v in index.every["version"]))


def test_a_participant_is_said_as_the_person() -> None:
    """"Let participant PRT-10272 in from the waiting room" names a person by an ID they never see:
    a participant stands for a person (`EntityKind.stands_for`), and is said and traced as them."""
    say, index = _say("video_meeting")
    for participant, row in list(index.rows["participant"].items())[:20]:  # (one who left: "... in the meeting")
        person = row["person_id"]
        expected = "me" if index.every["person"][person].get("is_me") == 1 else index.labels["person"][person]
        assert say.entity("participant", participant) == expected
    asked = 0
    for ex in _generated(["video_meeting"], 250, 8):
        for turn in ex["turns"]:
            asked += any("participant_id" in call["arguments"] for call in turn["calls"])
        for m in ex["messages"]:
            if m["role"] in ("user", "assistant") and m.get("content"):
                assert "PRT-" not in m["content"], (ex["id"], m["content"])
    assert asked >= 3


def test_a_username_keeps_its_case_and_nothing_removed_is_zero() -> None:
    """"Santosoutdoors's offer on the Yamaha FG800 ..." capitalised a username that opens a
    clarification answer; "that removed 0 follows between you" says a zero as a count."""
    from prove.synth.phrasing import tidy

    words = Wording(random.Random(0))
    answers = {words.answer("santosoutdoors's offer on the Yamaha FG800 Acoustic Guitar listing") for _ in range(12)}
    assert all("Santosoutdoors" not in a for a in answers), answers
    assert any(a.startswith("The ") for a in {words.answer("the Work address") for _ in range(12)})
    assert tidy("Blocked the account 'benjamin_taylor'; that removed 0 follows between you.") == \
        "Blocked the account 'benjamin_taylor'; that removed no follows between you."


def test_a_quoted_sentence_ends_the_user_answer_and_the_question_once() -> None:
    message = "the message 'Build times are up 30% this week, looking into it.'"
    for seed in range(20):
        words = Wording(random.Random(seed))
        for text in (words.answer(message), words.question("message", hidden=True, thing=message)):
            assert ".'." not in text, text


def test_a_search_by_cuisine_that_finds_nothing_names_the_cuisine_as_people_do() -> None:
    food = registry.get("food_delivery").tools["search_restaurants"]
    words = Wording(random.Random(0))
    assert "no Mediterranean restaurants" in words.nothing({"restaurants": [], "total": 0}, food,
                                                          {"cuisine": "Mediterranean"}).replace("No ", "no ")
    assert "no restaurants serving burgers" in words.nothing({"restaurants": [], "total": 0}, food,
                                                            {"cuisine": "Burgers"}).replace("No ", "no ")


def test_a_retry_names_the_error_in_words() -> None:
    """"That call failed (invalid_arguments)": the assistant says what went wrong in words, not
    by the error's code."""
    said = {Wording(random.Random(seed)).retry(code, another) for seed in range(60)
            for code in ("invalid_arguments", "not_found") for another in (False, True)}
    said.discard(None)
    assert any("invalid arguments" in s for s in said) and any("not found" in s for s in said)
    assert not any("_" in s for s in said), said


def test_a_request_says_send_only_of_a_tool_that_sends() -> None:
    """"Send the draft 'Weekend plans' to Jasmine instead." was a request to re-address a draft,
    which the gold left unsent: a request that opens with a sending verb asks a tool that sends."""
    from prove.env import registry

    sending = re.compile(r"send|post|publish|submit|pay|forward|reply|request|transfer|remind|message|share|invite|"
                         r"checkout|order|tip|bill|invoice")  # (an invoice is sent when it is made)
    wrong = []
    for name in registry.names():
        tools = registry.get(name).tools
        for tool in tools.values() if isinstance(tools, dict) else tools:
            for ask in tool.asks:
                text = getattr(ask, "text", ask)
                if re.match(r"(?:Send|Post|Publish|Submit) ", text) and not sending.search(tool.name):
                    wrong.append(f"{name}.{tool.name}: {text}")
    assert not wrong, wrong


def test_a_reply_read_field_by_field_is_counted() -> None:
    """The figure of stiff read-outs: "Emily: seat position 6, mirror preset A, climate target 68"
    counts; a sentence, or a list of things each said in its own words, does not."""
    from prove.synth.quality import FIELD_DUMP

    dumps = ["I found 2 driver profiles: Emily: seat position 6, mirror preset A, climate target 68, seat heat 2.",
             "Here's what I found: 1 user: James Ortiz: email james.ortiz@tidalworks.dev, title Senior Mobile "
             "Engineer, team Mobile, active.",
             "Done. 1 service reminder: Engine oil and filter change: due soon, due on March 28, due odometer "
             "30,016 miles, 8,114.1 miles left."]
    sentences = ["Done: the car is locked, the lights are off, and the alarm is set.",
                 "Your saved cards: Wells Fargo Autograph (Visa ending 3012, expires 12/29, your default) and Amex "
                 "Gold (American Express ending 6434, expired 01/26).",
                 "The engine oil and filter change is due soon: by March 28 or at 30,016 miles.",
                 "Priciest first: Branch Ergonomic Office Chair ($795.99, rated 4.3 from 3 reviews).",
                 "Here's where order ORD-10013 stands: it was delivered on March 4 (FedEx, tracking 0792), and you "
                 "can return it until April 3."]
    assert all(FIELD_DUMP.search(d) for d in dumps)
    assert not any(FIELD_DUMP.search(s) for s in sentences)


def test_twin_comments_are_told_apart_by_the_post_they_are_on_quoted() -> None:
    """"remove the comment 'So jealous right now.' from Booked flights to Seoul for May! #travel":
    a post's text is quoted, and a comment is on its post, not from it."""
    server = registry.get("social_media")
    by_post = []
    for world in range(4):  # twins that neither author nor day tells apart are rare: some world has them
        index = EntityIndex(server, world)
        say = Phrasing(server, Sampler(server, world, [world]).context(world), index, Wording(random.Random(0)))
        labels = index.labels["comment"]
        twins = [k for k, v in labels.items() if list(labels.values()).count(v) > 1]
        by_post += [t for t in (say.entity("comment", c) for c in twins) if "#" in t]
    assert by_post
    for text in by_post:
        assert re.search(r" on the post '[^']+'", text) and " from Booked" not in text, text


def test_none_of_a_count_is_said_as_none() -> None:
    """"You have 14 unresolved issues assigned, 0 of them overdue." -> "none of them overdue"."""
    from prove.synth.phrasing import _agree

    assert _agree("You have 14 issues assigned, 0 of them overdue.") == "You have 14 issues assigned, none of them overdue."
    assert _agree("Scored 10 of them.") == "Scored 10 of them."


def test_an_order_is_said_only_for_a_listing_of_more_than_one() -> None:
    """"Your entries, newest first: $105.18 at Xcel Energy" reads as if more were listed; one entry is
    just said, while a listing of several keeps its order, and so does one page of a longer listing."""
    say, _ = _say("budget")
    tool = registry.get("budget").tools["list_transactions"]
    template = next(r.text for r in tool.replies if "newest first" in r.text)
    one = {"transactions": [{"transaction_id": "TXN-1", "amount": -105.18}], "total": 1,
           "transactions_text": "$105.18 at Xcel Energy on February 25"}
    assert say.reply(tool, template, {}, one, {}) == "Your entries: $105.18 at Xcel Energy on February 25."
    two = {**one, "transactions": one["transactions"] * 2, "total": 2}
    assert "newest first" in say.reply(tool, template, {}, two, {})
    page = {**one, "total": 7}
    assert "newest first" in say.reply(tool, template, {}, page, {})
    market, _ = _say("marketplace")
    search = registry.get("marketplace").tools["search_listings"]
    found = {"listings": [{"listing_id": "LST-1"}], "total": 1, "listings_text": "'Gloomhaven Board Game' ($91.99)"}
    assert market.reply(search, "Newest first: {result.listings_text}.", {}, found, {}) == \
        "Here's what I found: 'Gloomhaven Board Game' ($91.99)."
    food, _ = _say("food_delivery")
    places = registry.get("food_delivery").tools["search_restaurants"]
    bakery = {"restaurants": [{"restaurant_id": "RST-1"}], "total": 1, "restaurants_text": "Okafor's Bakery (Hawthorne)"}
    assert food.reply(places, "Here's what I found, best rated first: {result.restaurants_text}.", {}, bakery, {}) == \
        "Here's what I found: Okafor's Bakery (Hawthorne)."


def test_one_of_a_thing_is_said_as_one_thing() -> None:
    """"Put 1 of the Cordless String Trimmer 20V on hold" reads as one out of a set of trimmers; one
    unit is "one Cordless String Trimmer 20V", and a quantity of one traces back to it."""
    from prove.synth.phrasing import renderings, tidy

    assert tidy("Put 1 of the Cordless String Trimmer 20V on hold at Harbor Supply Co. Riverpark.") == \
        "Put one Cordless String Trimmer 20V on hold at Harbor Supply Co. Riverpark."
    assert tidy("Add 3 of the Scented Candle to my cart.") == "Add 3 Scented Candles to my cart."
    assert tidy("Show me line 1 of the file 'notes.txt'.") == "Show me line 1 of the file 'notes.txt'."
    assert tidy("I'll take the Champion Crew Neck T-Shirt, 1 of them, in the XL / Black variant.") == \
        "I'll take the Champion Crew Neck T-Shirt, one of them, in the XL / Black variant."
    assert tidy("Reserved 1 of the Stud Finder at Harbor Supply Co. Hawthorne.") == \
        "Reserved one Stud Finder at Harbor Supply Co. Hawthorne."
    assert "one" in renderings(1) and "one" not in renderings(11)


def test_a_time_of_the_conversations_day_is_said_as_today() -> None:
    """"last used March 16 at 6:45 AM", "it should arrive around March 16 at 9:54 AM": a time of the
    day the conversation happens on is today's; other days and quoted words stay as they are."""
    from datetime import date

    from prove.synth.phrasing import today_said

    today = date(2026, 3, 16)
    assert today_said("Good Morning (8 devices, last used March 16 at 6:45 AM).", today) == \
        "Good Morning (8 devices, last used today at 6:45 AM)."
    assert today_said("Order ORD-10039 should arrive around March 16 at 9:54 AM.", today) == \
        "Order ORD-10039 should arrive around 9:54 AM today."
    assert today_said("The log has 2 entries: on March 16 at 9:00 AM; on March 15 at 8:10 PM.", today) == \
        "The log has 2 entries: today at 9:00 AM; on March 15 at 8:10 PM."
    assert today_said("Sent 'See you on March 16 at 9:00 AM' to Ana.", today) == \
        "Sent 'See you on March 16 at 9:00 AM' to Ana."
    assert today_said("Booked on March 16 at 2:00 PM.", date(2026, 3, 17)) == "Booked on March 16 at 2:00 PM."
    assert today_said("On March 16 at 9:00 AM you unlocked it.", today) == "Today at 9:00 AM you unlocked it."


def test_replies_say_today_for_the_conversations_day() -> None:
    from .test_reads_rest import _generated

    replies = [m["content"] for ex in _generated("iot_devices", 120, 2) for m in ex["messages"]
               if m["role"] == "assistant" and m.get("content")]
    assert any("today at " in r for r in replies)
    assert not any(re.search(r"March 16,? at \d", r.replace("'", "")) for r in replies if "'" not in r), \
        [r for r in replies if re.search(r"March 16,? at \d", r)][:3]


def test_money_in_a_reply_has_its_thousands_marked() -> None:
    """"Added $1200.50 from the IRS" in a reply: the assistant writes "$1,200.50"."""
    from prove.synth.phrasing import _one_currency

    assert _one_currency("Added $1200.50 from the IRS; you have $15000 now.") == \
        "Added $1,200.50 from the IRS; you have $15,000 now."
    assert _one_currency("Paid $950.00 for order 12345.") == "Paid $950.00 for order 12345."


def test_an_empty_activity_log_of_one_kind_is_said_by_that_kind() -> None:
    """"I found no dividend activities for the Roth IRA account" and "No call activities for Sofia
    Taylor came up": a log kept to one kind of entry says the entries by their kind."""
    trading = registry.get("trading").tools["list_activity"]
    crm = registry.get("crm").tools["list_activities"]
    empty = {"activities": [], "total": 0, "activities_text": "nothing"}
    for seed in range(6):
        words = Wording(random.Random(seed))
        said = words.nothing(empty, trading, {"kind": "dividend"}, ["for the Roth IRA account"])
        assert "no dividends for the roth ira account" in said.lower(), said
        said = words.nothing(empty, crm, {"kind": "call"}, ["for Sofia Taylor"])
        assert "no calls for sofia taylor" in said.lower(), said


def test_a_calendar_named_as_someones_calendar_is_not_called_a_calendar_twice() -> None:
    """"on the Grace Moore's calendar calendar": a colleague's calendar is named "Grace Moore's
    calendar" already, so "the {name} calendar" says it once ("on Grace Moore's calendar")."""
    from prove.synth.phrasing import tidy

    assert tidy("'Review' is on March 18, on the Grace Moore's calendar calendar; it's in Room 2A.") == \
        "'Review' is on March 18, on Grace Moore's calendar; it's in Room 2A."
    assert tidy("'Review' is on March 18, on the Work calendar.") == "'Review' is on March 18, on the Work calendar."


def test_several_of_a_thing_are_said_as_that_many_things() -> None:
    """"Move 4 of the E-Reader Kindle Paperwhite from ..." reads as four out of one reader: several
    units are "4 E-Reader Kindle Paperwhites"; a name that ends in a size or a kind of thing stays as it is."""
    from prove.synth.phrasing import tidy

    assert tidy("Add 2 of the Stud Finder to my cart.") == "Add 2 Stud Finders to my cart."
    assert tidy("Reserve 12 of the Stud Finder at X.") == "Reserve 12 Stud Finders at X."
    assert tidy("Requested: 4 of the E-Reader Kindle Paperwhite from A to B.") == \
        "Requested: 4 E-Reader Kindle Paperwhites from A to B."
    assert tidy("Reserved 2 of the Bench Grinder Brush at X.") == "Reserved 2 Bench Grinder Brushes at X."
    assert tidy("Put 2 of the Cordless Glue Gun on hold at X.") == "Put 2 Cordless Glue Guns on hold at X."
    assert tidy("X is holding 3 of the Storage Box for you.") == "X is holding 3 Storage Boxes for you."
    assert tidy("X is holding 2 of the Shampoo and Conditioner Set for you.") == \
        "X is holding 2 Shampoo and Conditioner Sets for you."
    # a name that opens with a number has the count in words: not "2 18-inch Foam Rollers"
    assert tidy("Put 2 of the 18-inch Foam Roller on hold at X.") == "Put two 18-inch Foam Rollers on hold at X."
    assert tidy("Reserved 3 of the 25 ft Tape Measure at X.") == "Reserved three 25 ft Tape Measures at X."
    assert tidy("Send 2 of the 7-1/4-inch Circular Saw to X.") == "Send two 7-1/4-inch Circular Saws to X."
    assert tidy("Add 2 of the Duo 6 qt Pressure Cooker.") == "Add 2 Duo 6 qt Pressure Cookers."
    assert tidy("Reserve 14 of the 12-inch Cast Iron Skillet at X.") == "Reserve 14 of the 12-inch Cast Iron Skillet at X."
    assert tidy("Add 2 of the Lamp in Blue.") == "Add 2 Lamps in Blue."  # a unit word follows a number only
    for kept in ("I want 3 of the Standard variant of the REI Co-op Camping Tent 4-Person.",
                 "Return 2 of the Lodge Cast Iron Skillet 12 in, I changed my mind.",
                 "Move 2 of the Digital Bathroom Scale Battery to X.", "Pay $5 of the Rent.", "Add 2 of the Tacos.",
                 "Add 2 of the Pho Tai.", "Send 2 of the Echo Dot 5th Gen to X.", "Add 2 of the Hair Dryer Pro."):
        assert tidy(kept) == kept


def test_a_capital_a_in_a_name_is_not_an_article() -> None:
    """"Alphabet Inc. Class An is at $141.84": "a" before a vowel becomes "an", but a capital A inside a
    name ("Class A") is no article."""
    from prove.synth.phrasing import tidy

    assert tidy("Alphabet Inc. Class A is at $141.84.") == "Alphabet Inc. Class A is at $141.84."
    assert tidy("Berkshire Hathaway Class A opened lower.") == "Berkshire Hathaway Class A opened lower."
    assert tidy("Add a item. A event is set.") == "Add an item. An event is set."


def test_someones_own_calendar_is_named_as_theirs() -> None:
    """"Oh, the event 'Polaris kickoff' in the calendar 'Valentina Young's calendar'": a label that says
    whose thing it is names it already."""
    from prove.synth.phrasing import _named

    assert _named("Valentina Young's calendar", "noun", "calendar") == "Valentina Young's calendar"
    assert _named("Book club", "noun", "calendar") == "the calendar 'Book club'"


def test_an_email_told_apart_by_its_folder_says_the_folder() -> None:
    """"reply to the email 'Re: Customer escalation: Northwind Foods' in Archive": a folder is said as
    a folder ("in the Archive folder"); a city or a room by its name ("in Portland", "in the Kitchen")."""
    from prove.synth.sampler import Sampler
    from prove.synth.wording import Wording

    server = registry.get("email")
    say = Phrasing(server, Sampler(server, 0, [0]).context(0), EntityIndex(server, 0), Wording(random.Random(0)))
    assert say.entity("message", "MSG-10112") == "the email 'Re: Customer escalation: Northwind Foods' in the Archive folder"


def test_a_thing_in_the_trash_is_not_said_twice_to_be_there() -> None:
    """"restore the email 'You appeared in 14 searches' in the Trash folder from the trash"."""
    from prove.synth.phrasing import tidy

    assert tidy("Restore the email 'Hi' in the Trash folder from the trash.") == "Restore the email 'Hi' from the trash."
    assert tidy("Move the email 'Hi' in the Trash folder to the Inbox folder.") == \
        "Move the email 'Hi' in the Trash folder to the Inbox folder."


def test_a_thing_is_never_followed_straight_by_a_number() -> None:
    """"Make the 1:1 James / Adrian meeting from March 19 60 minutes long.", "make the tip on order ORD-10038 5
    dollars": a thing, which may end with its day or its number, is not followed straight by an amount."""
    from prove.env import registry

    for name in registry.names():
        for tool in registry.get(name).tools.values():
            numbers = {p.name for p in tool.params
                       if tool.parameters.get("properties", {}).get(p.name, {}).get("type") in ("integer", "number")}
            entities = {p.name for p in tool.params if p.entity}
            for ask in tool.asks:
                for a, b in re.findall(r"\{(\w+)\} \{(\w+)\} (?:minutes|hours|days|dollars)\b", ask.text):
                    assert not (a in entities and b in numbers), (tool.name, ask.text)


def test_a_failed_call_is_told_with_times_as_people_say_them() -> None:
    """"Unfortunately that failed: 'Orbit Energy integration kickoff' is scheduled for 2026-03-16T11:00:00;
    it can start from 2026-03-16T10:50:00, and it is now 2026-03-16T09:00:00." read out the tool's clock."""
    from datetime import date

    from prove.synth.phrasing import today_said
    from prove.synth.wording import Wording

    message = ("'Orbit Energy integration kickoff' is scheduled for 2026-03-16T11:00:00; it can start from "
               "2026-03-16T10:50:00, and it is now 2026-03-16T09:00:00.")
    text = today_said(Wording(random.Random(0)).failure({"message": message}), date(2026, 3, 16))
    assert "'Orbit Energy integration kickoff' is scheduled for today at 11:00 AM; it can start from today at " \
           "10:50 AM, and it is now 9:00 AM." in text, text
    assert "March 20 at 1:00 PM" in Wording(random.Random(0)).failure({"message": "It starts 2026-03-20T13:00:00."})


def test_one_of_a_state_is_one_thing() -> None:
    """"The Data Platform project has 1 planned sprints"."""
    from prove.synth.phrasing import tidy

    assert tidy("The project has 1 planned sprints: DATA Sprint 14.") == "The project has 1 planned sprint: DATA Sprint 14."
    assert tidy("You have 1 archived chats.") == "You have 1 archived chat."


def test_a_thing_named_by_its_day_is_moved_to_a_time_that_day() -> None:
    """"Please move the meeting 'Keystone Holdings onboarding call' on March 20 at 1:00 PM": "from March 20
    to March 20 at 1:00 PM" is no span of one day, but a thing of March 20 moved to a time that day."""
    from prove.synth.phrasing import tidy

    moved = "Move the meeting 'K' from March 20 to March 20 at 1:00 PM and make it 15 minutes."
    assert tidy(moved) == moved
    assert tidy("Show events between March 23 and March 23.") == "Show events on March 23."


def test_a_coupon_goes_on_the_cart_in_words() -> None:
    """"Where is order ORD-10005? Oh, and use coupon SPRING20 on this order.": a coupon goes on the cart,
    never on an order the conversation has named."""
    for name in ("apply_coupon", "remove_coupon"):
        for ask in registry.get("shopping").tools[name].asks:
            assert "order" not in ask.text, ask.text


def test_a_whole_series_is_cancelled_in_words_a_person_uses() -> None:
    """"Cancel all of the 1:1 Adam / Zoe recurring event"."""
    for ask in registry.get("calendar").tools["cancel_series"].asks:
        assert "all of" not in ask.text, ask.text


def test_a_thing_of_a_day_is_not_followed_by_to_and_an_amount() -> None:
    """"Change the amount of the Costco transaction from December 10, 2025 to $30" reads as a span from a day
    to an amount: a thing, which may end with its day, is not followed by "to" and an amount."""
    for name in registry.names():
        for tool in registry.get(name).tools.values():
            entities = {p.name for p in tool.params if p.entity}
            for ask in tool.asks:
                for a in re.findall(r"\{(\w+)\} to \$\{\w+\}", ask.text):
                    assert a not in entities, (tool.name, ask.text)


def test_a_request_that_ends_in_a_value_ends_as_a_sentence() -> None:
    """"Create a calendar named 'Training plan', described as: Runs, rides and gym sessions" ends without its
    period: a user turn whose last words are a value still ends as a sentence."""
    for seed in range(40):
        for turn in (0, 1):
            said = Wording(random.Random(seed)).user_turn(
                ["Create a calendar named 'Training plan', described as: Runs, rides and gym sessions"], turn)
            assert re.search(r"gym sessions\.(?: \S.*)?$", said), said


def test_no_phrasing_sends_a_thing_to_a_state_said_with_in() -> None:
    """"Issue DATA-10013 is ready for review; send it to in review with the comment ...": a state said with its
    own "in" is put "in" it, never sent "to in" it."""
    for name in registry.names():
        for tool in registry.get(name).tools.values():
            for ask in tool.asks:
                assert not re.search(r"\bto in\b", ask.text), (name, ask.text)


def test_words_after_a_colon_end_the_turn() -> None:
    """"In the thread under the message '...', say: Thanks, noted! Much appreciated." and "Change my email
    signature to: Cheers. Cheers.": words to send, said after a colon without quotes, run to the end of the
    turn, so no closing follows them; a quoted text may take one."""
    for persona in PERSONAS:
        for request in ("In the thread under the message 'The staging database was…', say: Thanks, noted!",
                        "Change my email signature to: Cheers.",
                        "Overwrite the file 'todo.txt' with this text: - Call the plumber\n- Return the library books."):
            said = {Wording(random.Random(s), persona).user_turn([request], 1) for s in range(100)}
            assert all(text.endswith(request.split(": ")[-1]) for text in said), said
    polite = next(p for p in PERSONAS if p.name == "polite")
    quoted = {Wording(random.Random(s), polite).user_turn(["Reply 'Thanks, noted!' in the thread."], 1) for s in range(100)}
    assert any(text.endswith(("Thank you.", "Much appreciated.")) for text in quoted), quoted


def test_a_name_that_ends_in_an_exclamation_mark_ends_the_sentence() -> None:
    """"Show me the newest products from Chuckit!.": a name with its own "!" takes no period after it."""
    from prove.synth.phrasing import tidy

    assert tidy("Show me the newest products from Chuckit!.") == "Show me the newest products from Chuckit!"
    assert tidy("Chuckit!. Then add it to my cart.") == "Chuckit! Then add it to my cart."


def test_the_user_answering_that_they_mean_themselves_opens_with_a_capital() -> None:
    """"me, sorry for not saying.": "me" is no username to keep in lower case; an answer that opens with it says "Me"."""
    said = {Wording(random.Random(s)).answer("me") for s in range(80)}
    assert said and all(text[:1].isupper() for text in said), said
    assert any(text.startswith("Me") for text in said), said


def test_a_search_word_taken_from_a_text_has_no_stop_after_it() -> None:
    """"Search posts for 'Monday.'": a word cut from a post ("... Training starts Monday.") kept its period."""
    from prove.synth.values import ValueMaker

    server = registry.get("social_media")
    context = Sampler(server, 0, [0]).context(0)
    words = {ValueMaker(context, random.Random(s)).value("query", {"type": "string"}) for s in range(300)}
    assert len(words) > 20 and not [w for w in words if not w[-1:].isalnum()], words
