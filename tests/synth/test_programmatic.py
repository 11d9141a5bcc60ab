from __future__ import annotations

import json
import re

from prove.env import registry
from prove.records import Example
from prove.synth import SynthConfig, Synthesizer
from prove.synth.entities import EntityIndex

from .conftest import SERVERS


def _examples(candidates):
    return [json.loads(c.line) for c in candidates if c.line]


def _calls(server: str, n: int, seed: int):
    """Each gold call of the accepted examples among the first `n` candidates of a run on one
    server, with its example, the words of its turn and the index of the example's world."""
    synth = Synthesizer(SynthConfig(n=n, seed=seed, servers=[server]))
    for i in range(n):
        line = synth.example(i).line
        if not line:
            continue
        ex = json.loads(line)
        index = EntityIndex(registry.get(server), ex["world"])
        for turn in ex["turns"]:
            for call in turn["calls"]:
                yield ex, turn["user"], call, index


def _my_names(index: EntityIndex) -> set[str]:
    return {index.labels[kind][key] for kind, rows in index.every.items() for key, row in rows.items()
            if row.get("is_me") == 1 and isinstance(index.labels.get(kind, {}).get(key), str)}


def test_yield_grounding_and_records(candidates) -> None:
    accepted = _examples(candidates)
    assert len(accepted) / len(candidates) >= 0.9
    for ex in accepted:
        Example.model_validate(ex)
        assert ex["meta"]["teacher"] == "programmatic"
    infos = [c.info for c in candidates if "refs" in c.info]
    assert sum(i["refs_exist"] for i in infos) == sum(i["refs"] for i in infos) > 0


def test_every_kind_and_level_appears(candidates) -> None:
    kinds = {c.info["kind"] for c in candidates if c.line}
    levels = {c.info["level"] for c in candidates if c.line}
    assert {"multi_turn", "clarification", "abstention", "irrelevance"} <= kinds
    assert {"complete", "missing", "minimal"} <= levels


def test_multi_turn_examples_have_two_or_three_user_turns(candidates) -> None:
    turns = [len(ex["turns"]) for ex in _examples(candidates) if ex["kind"] in ("multi_turn", "clarification")]
    assert set(turns) <= {1, 2, 3}
    assert sum(t >= 2 for t in turns) >= 0.9 * len(turns)


def test_clarification_asks_then_acts(candidates) -> None:
    for ex in _examples(candidates):
        if ex["kind"] != "clarification":
            continue
        assert ex["turns"][0]["calls"] == [] and any(t["calls"] for t in ex["turns"][1:])
        first_reply = next(m for m in ex["messages"] if m["role"] == "assistant")
        assert "tool_calls" not in first_reply and first_reply["content"].rstrip().endswith("?")


def test_abstention_and_irrelevance_make_no_calls_and_hide_the_tool(candidates) -> None:
    seen = set()
    for ex in _examples(candidates):
        if ex["kind"] in ("abstention", "irrelevance"):
            seen.add(ex["kind"])
            assert all(not t["calls"] for t in ex["turns"])
            assert not any(m.get("tool_calls") for m in ex["messages"])
        if ex["kind"] == "abstention":
            assert "hidden_tool" in ex["perturbations"]
    assert seen == {"abstention", "irrelevance"}


def test_minimal_level_names_entities_by_label_and_looks_them_up(candidates) -> None:
    found = 0
    for ex in _examples(candidates):
        if ex["meta"]["level"] != "minimal" or ex["kind"] != "multi_turn":
            continue
        first_user = ex["turns"][0]["user"]
        ids = set(re.findall(r"\b[A-Z]+-\d{5}\b", first_user))
        gold = [c for t in ex["turns"] for c in t["calls"]]
        if gold and not ids and any(c["after"] for c in gold):
            found += 1
    assert found > 0


def test_sensitive_values_come_from_the_user(synth) -> None:
    """change_card_pin's current PIN is learned through the hidden get_card_pin and said by the user."""
    seen = 0
    for i in range(900):
        server, _ = synth.locate(i)
        if server.name != "banking":
            continue
        spec = synth.spec(i)
        if "change_card_pin" not in spec.chain or spec.kind != "multi_turn":
            continue
        c = synth.example(i)
        if not c.line:
            continue
        ex = json.loads(c.line)
        for p in ex["provenance"]:
            seen += 1
            assert ex["messages"][p["message"]]["role"] == p["source"]
        tools = {t["function"]["name"] for t in ex["tools"]}
        assert "get_card_pin" not in tools
        assert not any(tc["function"]["name"] == "get_card_pin" for m in ex["messages"] for tc in m.get("tool_calls") or [])
    assert seen > 0


def test_distractors_and_stripped_enums(candidates) -> None:
    for ex in _examples(candidates):
        names = [t["function"]["name"] for t in ex["tools"]]
        assert len(names) == len(set(names))
        text = json.dumps(ex["tools"])
        if "stripped_enums" in ex["perturbations"]:
            assert '"enum"' not in text
        own = {c["name"] for t in ex["turns"] for c in t["calls"]}
        assert own <= set(names)


def test_ungrounded_mode_invents_entities_and_fails() -> None:
    synth = Synthesizer(SynthConfig(n=10, seed=3, servers=SERVERS, ungrounded=True))
    infos = [synth.example(i).info for i in range(60)]
    refs = sum(i.get("refs", 0) for i in infos)
    exist = sum(i.get("refs_exist", 0) for i in infos)
    assert refs and exist / refs < 0.8
    accepted = sum(i["status"] == "accepted" for i in infos)
    assert accepted < 0.9 * len(infos)


def test_the_same_seed_and_index_give_the_same_example(synth) -> None:
    other = Synthesizer(SynthConfig(n=50, seed=3, servers=SERVERS))
    for i in (0, 7, 42):
        assert synth.example(i).line == other.example(i).line
    third = Synthesizer(SynthConfig(n=50, seed=4, servers=SERVERS))
    assert third.example(7).line != synth.example(7).line


def test_a_reply_that_quotes_lines_of_a_file_keeps_them_apart_from_what_follows() -> None:
    from prove.synth.teachers.programmatic import joined

    lines = "Lines 20 to 21 of the file 'notes.md' (it has 21):\n\n- [ ] book the venue\n- [ ] write the summary"
    text = joined(["Here are 2 things.", lines, "Done: the file is renamed."])
    assert text == ("Here are 2 things. Lines 20 to 21 of the file 'notes.md' (it has 21):\n\n- [ ] book the venue\n"
                    "- [ ] write the summary\n\nDone: the file is renamed.")
    assert joined(["One.", "Two."]) == "One. Two."
    # an account that ends in a value said bare ("Your signature now reads: Cheers") ends its sentence
    assert joined(["Your signature now reads: Cheers", "Renamed the Family folder."]) == \
        "Your signature now reads: Cheers. Renamed the Family folder."
    assert joined(["Done: it reads 'Thanks!'", "Two."]) == "Done: it reads 'Thanks!' Two."


def test_a_search_never_looks_the_user_up_by_their_own_name() -> None:
    """"Find Bianca Turner in the company directory" asked by Bianca Turner: the signed-in user is
    "me" in every request, so no search is drawn to find them by name."""
    searched = 0
    for server, tool in (("issue_tracker", "search_users"), ("team_chat", "list_users"),
                         ("calendar", "search_people"), ("video_meeting", "search_people")):
        for ex, _, call, index in _calls(server, 240, 31):
            if call["name"] == tool and "query" in call["arguments"]:
                searched += 1
                assert call["arguments"]["query"] not in _my_names(index), (ex["id"], call)
    assert searched >= 8


def test_a_cuisine_is_written_with_its_capital() -> None:
    """"Is there a chinese restaurant with at least 3 stars?": a cuisine named for a people or a
    place is written as a person writes it, "Chinese"."""
    cuisines = ("italian", "mexican", "japanese", "chinese", "indian", "thai", "american", "french", "mediterranean",
                "korean", "vietnamese")
    synth = Synthesizer(SynthConfig(n=300, seed=12, servers=["maps"]))
    asked = 0
    for i in range(300):
        line = synth.example(i).line
        if not line:
            continue
        ex = json.loads(line)
        for turn in ex["turns"]:
            for call in turn["calls"]:
                if call["arguments"].get("cuisine") in cuisines:
                    asked += 1
        for m in ex["messages"]:
            if m["role"] in ("user", "assistant") and m.get("content"):
                assert not re.search(rf"\b(?:{'|'.join(cuisines)})\b", m["content"]), (ex["id"], m["content"])
    assert asked >= 3


def test_a_thing_left_vague_after_a_listing_of_its_kind_is_one_of_those_listed(monkeypatch) -> None:
    """"What earlier versions of the README.md file are there? And what has changed since one of the
    versions?", answered with a version of another file: "one of the versions" after a listing of
    versions means one of those listed, so only such a one is left vague there."""
    from prove.synth.entities import extract_entities
    from prove.synth.teachers import programmatic

    omitted = []
    omit = programmatic.Planner._omit

    def probe(self, steps):
        question, at = omit(self, steps)
        if question is not None:
            omitted.append((steps, at, question[0]))
        return question, at

    monkeypatch.setattr(programmatic.Planner, "_omit", probe)
    after_listing = 0
    for server in ("filesystem", "shopping", "email"):
        synth = Synthesizer(SynthConfig(n=400, seed=5, servers=[server]))
        for i in range(400):
            synth.example(i)
    for steps, at, name in omitted:
        step = steps[at]
        kind = next(p.entity for p in step.tool.params if p.name == name)
        for earlier in steps[:at]:
            if earlier.turn == 0 and earlier.result.ok and kind in earlier.tool.produces:
                after_listing += 1
                listed = {v for k, v, _ in extract_entities(earlier.tool, earlier.result.data) if k == kind}
                assert step.args[name] in listed, (earlier.tool.name, step.tool.name, step.args)
    assert len(omitted) >= 30


def test_a_phrase_that_says_what_its_entity_is_takes_only_such_a_one() -> None:
    """"I work at Maple Lofts now" (an apartment building) and "What are the hours of The Green
    Residences?": a phrasing whose words say what kind of place it means (`Ask.fits`) takes only
    such a place."""
    seen = {"work": 0, "hours": 0}
    for ex, user, call, index in _calls("maps", 500, 17):
        category = index.every.get("place", {}).get(call["arguments"].get("place_id"), {}).get("category")
        if call["name"] == "set_saved_address" and call["arguments"]["label"] == "work":
            seen["work"] += 1
            assert category not in ("residential", "parking", "ev_charging", "park"), (ex["id"], category)
        if call["name"] == "get_place" and "hours and rating" in user:
            seen["hours"] += 1
            assert category not in ("residential", "office"), (ex["id"], category)
    assert seen["work"] >= 2 and seen["hours"] >= 2, seen


def test_a_place_is_not_asked_twice_whether_it_is_open() -> None:
    """"And is Café Hughes open right now? Also, what are the hours and rating of Café Hughes, and is it open
    now?": a place's details are asked for without asking again what another request asks."""
    users = {user for _, user, call, _ in _calls("maps", 400, 17) if call["name"] == "get_place"}
    assert users
    for user in users:
        assert len(re.findall(r"\bopen (?:right )?now\b", user)) <= 1, user


def test_a_value_drawn_from_the_world_is_never_the_users_own_name() -> None:
    """"What did James O'Brien say in the recording ...?" asked by James O'Brien: a narrowing drawn
    from what the world holds (a transcript's speakers) leaves out the signed-in user's own name."""
    asked = 0
    for ex, _, call, index in _calls("video_meeting", 400, 3):
        if call["name"] == "get_transcript" and "speaker" in call["arguments"]:
            asked += 1
            assert call["arguments"]["speaker"] not in _my_names(index), (ex["id"], call)
    assert asked >= 4


def test_an_account_after_another_opens_without_its_own_all_set() -> None:
    """"... all of it available. All set. $8 will go to Rahul Wang monthly": an "All set." or "Done."
    that opens a later account of a reply says again what the reply has said."""
    from prove.synth.teachers.programmatic import joined

    assert joined(["The account has $5.", "All set. $8 will go to Rahul monthly."]) == \
        "The account has $5. $8 will go to Rahul monthly."
    assert joined(["The account has $5.", "Done. Your note is saved."]) == "The account has $5. Your note is saved."
    assert joined(["All set. $8 will go to Rahul monthly.", "Done."]) == "All set. $8 will go to Rahul monthly. Done."
    assert joined(["Done: the trash is empty.", "Done: /Documents/a.md is there."]) == \
        "Done: the trash is empty. /Documents/a.md is there."
    assert joined(["Done: the PIN is new.", "Done: $125 moved.", "Done: #team-offsite is ready."]) == \
        "Done: the PIN is new. $125 moved. #team-offsite is ready."


def test_a_username_given_as_an_answer_keeps_its_case() -> None:
    """"Sramirez94, sorry for not saying.": a username is written as it is, at the start of a sentence too."""
    import random

    from prove.synth.wording import Wording

    for seed in range(12):
        said = Wording(random.Random(seed)).answer("sramirez94")
        assert "sramirez94" in said and "Sramirez94" not in said, said
        assert "Sakura Sushi" in Wording(random.Random(seed)).answer("Sakura Sushi")
        named = Wording(random.Random(seed)).answer("the Work address")
        assert "the Work address" in named or named.startswith("The Work address"), named


def test_that_thing_is_the_one_named_last_of_its_noun() -> None:
    """"Find me a flight from BOS to ATL on March 24. And what's the refund on that flight if I cancel it
    today?" meant the booking made a turn before: "that flight" is the flight the request just found, so a
    thing said as "that X" has no other X named since it was made."""
    ex = json.loads(Synthesizer(SynthConfig(n=2000, seed=9595)).example(135).line)
    turn = ex["turns"][-1]
    assert [c["name"] for c in turn["calls"]] == ["search_flights", "get_cancellation_quote"]
    assert "that flight" not in turn["user"], turn["user"]
    assert re.search(r"the flight '[A-Z0-9]{2} \d+ [A-Z]{3} to [A-Z]{3} on [A-Z][a-z]+ \d+'", turn["user"]), turn["user"]


def test_a_reply_says_each_thing_once() -> None:
    """"... It has 1 like and no comments yet. No comments yet." said the comments twice: an account the
    reply already holds is left out."""
    from prove.synth.teachers.programmatic import joined

    assert joined(["Samuel Turner posted: 'Ran today'. It has 1 like and no comments yet.", "No comments yet."]) == \
        "Samuel Turner posted: 'Ran today'. It has 1 like and no comments yet."
    assert joined(["No comments yet.", "It has 2 likes."]) == "No comments yet. It has 2 likes."


def test_a_figure_said_once_is_not_said_again_in_other_words() -> None:
    """"Move $300.50 into my wallet. Plus, what's my balance?" answered "... your balance is now $812.30. Your
    balance is $812.30.": a sentence (or the first clause of one) whose figure and words the reply has already
    said, in that order, is dropped; one that says the same words of other things, or in another order, is kept."""
    from prove.synth.teachers.programmatic import joined

    assert joined(["Added $300.50 from Chase; your balance is now $812.30.", "Your balance is $812.30."]) == \
        "Added $300.50 from Chase; your balance is now $812.30."
    assert joined(["Moved $50 from Checking to Savings.", "Moved $50 from Savings to Checking."]) == \
        "Moved $50 from Checking to Savings. Moved $50 from Savings to Checking."
    assert joined(["Added $300.50; your balance is now $812.30.", "Your balance is $812.30, and you can send $200 more."]) \
        == "Added $300.50; your balance is now $812.30. You can send $200 more."
    assert joined(["Sent $20 to Ana.", "Your balance is $20."]) == "Sent $20 to Ana. Your balance is $20."


def test_a_clause_whose_measures_were_said_is_not_said_again() -> None:
    """"Navigate to Starbucks. Also, how long until we reach ...?" answered "Route set to Starbucks: 4.3 miles,
    about 12 minutes. Starbucks is 4.3 miles away, about 12 minutes; you'd arrive ...": a first clause whose
    measures and names one sentence has said is dropped; one with a single figure, or other names, is kept."""
    from prove.synth.teachers.programmatic import joined

    assert joined(["Route set to Starbucks: 4.3 miles, about 12 minutes.",
                   "Starbucks is 4.3 miles away, about 12 minutes; you'd arrive around 9:12 AM today."]) == \
        "Route set to Starbucks: 4.3 miles, about 12 minutes. You'd arrive around 9:12 AM today."
    assert joined(["Sent $20 to Ana.", "Ana owes you $20; she asked on March 3."]) == \
        "Sent $20 to Ana. Ana owes you $20; she asked on March 3."
    assert joined(["Route set to Starbucks: 4.3 miles, about 12 minutes.",
                   "Home is 4.3 miles away, about 12 minutes; you'd arrive around 9:12 AM today."]).count("Home is") == 1


def test_every_turn_asks_for_something() -> None:
    """"Hi! Can you help me with that? Thanks!" -> "All set.": a request whose lookup gave it a label to cite was
    moved a turn later with the lookup, and left its first turn empty. A lookup of the request's own moves
    with it and delays nothing."""
    synth = Synthesizer(SynthConfig(n=1000, seed=8024))
    ex = json.loads(synth.example(234).line)
    assert all(turn["calls"] for turn in ex["turns"]), [turn["user"] for turn in ex["turns"]]
    email = Synthesizer(SynthConfig(n=300, seed=8024, servers=["email"]))
    for ex in (json.loads(c.line) for c in (email.example(i) for i in range(300)) if c.line):
        asking = ex["turns"][1:] if ex["kind"] == "clarification" else ex["turns"]  # (not the question's turn)
        if ex["kind"] in ("multi_turn", "clarification"):
            assert all(turn["calls"] for turn in asking), [turn["user"] for turn in ex["turns"]]
