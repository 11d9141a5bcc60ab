"""How the rest of the finished servers read: requests a person would write and replies that
answer them, read off their tools' replies and off synthesized examples."""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

from prove.env import Session, registry
from prove.synth import SynthConfig, Synthesizer
from prove.synth.entities import EntityIndex
from prove.synth.phrasing import Phrasing
from prove.synth.sampler import Sampler
from prove.synth.teachers.programmatic import _fitting_replies
from prove.synth.wording import Wording


@functools.lru_cache(maxsize=16)
def _generated(server: str, n: int, seed: int) -> tuple[dict, ...]:
    """The accepted examples among the first `n` candidates of a run on one server."""
    synth = Synthesizer(SynthConfig(n=n, seed=seed, servers=[server]))
    return tuple(json.loads(c.line) for c in (synth.example(i) for i in range(n)) if c.line)


def _user_messages(ex: dict) -> list[dict]:
    """The user messages that ask an example's planned turns, one a turn."""
    return [m for m in ex["messages"] if m["role"] == "user"][-len(ex["turns"]):]


def _turn_users(ex: dict) -> list[tuple[dict, str]]:
    """Each planned turn of an example with the words of the user message that asks it."""
    return [(turn, m["content"]) for turn, m in zip(ex["turns"], _user_messages(ex))]


def _turns(server: str, tool: str, n: int = 240, seed: int = 3) -> list[tuple[dict, str, str]]:
    """(gold call, user turn, assistant reply) for each call of `tool` in the generated examples."""
    out = []
    for ex in _generated(server, n, seed):
        messages = ex["messages"]
        for turn, user in zip(ex["turns"], _user_messages(ex)):
            at = messages.index(user)
            later = next((i for i in range(at + 1, len(messages)) if messages[i]["role"] == "user"), len(messages))
            reply = next((m["content"] for m in reversed(messages[at:later])
                          if m["role"] == "assistant" and not m.get("tool_calls")), "")
            out.extend((call, user["content"], reply) for call in turn["calls"] if call["name"] == tool)
    return out


def _index(server: str, world: int = 0) -> EntityIndex:
    return EntityIndex(registry.get(server), world)


def _replies(server_name: str, tool: str, args: Mapping[str, Any], before: Sequence[tuple[str, dict]] = (),
             world: int = 0, asked: str = "") -> list[str]:
    """Every reply the teacher may give for this call, made on a world (after the `before` calls)
    and filled as the teacher fills it; for a read, those that answer the question `asked`."""
    server = registry.get(server_name)
    say = Phrasing(server, Sampler(server, world, [world]).context(world), _index(server_name, world),
                   Wording(random.Random(0)))
    with Session([server], world=world) as session:
        for name, arguments in before:
            assert session.call(name, arguments).ok, name
        result = session.call(tool, dict(args))
    assert result.ok, result.error
    spec = server.tools[tool]
    replies = [say.reply(spec, r.text, args, result.data, {}) for r in _fitting_replies(spec, args, result.data, asked)]
    assert replies, f"{tool} has no reply for {args}"
    return replies


# ----- calendar ------------------------------------------------------------------------------------------


def test_free_busy_is_answered_with_the_busy_stretches_and_the_free_time() -> None:
    """"Busy periods for Luis Zhang between ...: 17." is a field read out; a person says "Luis Zhang
    has 17 stretches of busy time ...; any time outside them is free", and "1 stretch"."""
    colleague = next(k for k, r in _index("calendar").rows["person"].items() if r["is_colleague"] and not r["is_me"])
    for start, end in (("2026-03-17T09:00:00", "2026-03-27T17:00:00"), ("2026-03-17T09:00:00", "2026-03-17T14:00:00")):
        for text in _replies("calendar", "get_free_busy", {"person_id": colleague, "start": start, "end": end}):
            assert re.search(r"has (?:no|1|\d+) stretch(?:es)? of busy time", text), text
            assert not re.search(r"\b1 stretches|: \d+\.", text), text
            assert "free" in text, text


def test_a_series_is_counted_over_weeks() -> None:
    """"How many times does the 1:1 meet on March 19 between 1:00 PM and 4:00 PM?" counts a
    recurring series over an afternoon; the window a person asks about spans weeks."""
    calls = [call["arguments"] for call, _, _ in _turns("calendar", "list_occurrences", 300, 5)]
    windows = [(a["start"], a["end"]) for a in calls if "start" in a]
    assert windows
    for start, end in windows:
        days = (int(end[5:7]) - int(start[5:7])) * 31 + int(end[8:10]) - int(start[8:10])
        assert days >= 10, (start, end)


def test_a_meeting_title_fits_every_time_it_may_be_drawn_with() -> None:
    """Titles and times of a new event are drawn apart: no "Lunch with a customer" at 9:00 AM."""
    values = registry.get("calendar").tools["create_event"].values
    titles = [title for title, _, _ in values["title, location, description"]]
    starts = {start[11:13] for start, _ in values["start, end"]}
    assert not any("lunch" in t.lower() for t in titles) or starts <= {"12", "13"}


def test_a_slot_is_looked_for_in_a_window_longer_than_the_meeting() -> None:
    """"Find a 30-minute slot for Rafael Taylor on March 30 between 9:30 AM and 10:00 AM" asks for
    the window itself: a slot is looked for in a working day or several."""
    windows = [call["arguments"] for call, _, _ in _turns("calendar", "find_free_slots", 300, 5)]
    assert windows
    for w in windows:
        hours = (int(w["end"][8:10]) - int(w["start"][8:10])) * 24 + int(w["end"][11:13]) - int(w["start"][11:13])
        assert w["end"][:7] != w["start"][:7] or hours >= 4, w


# ----- crm, email ----------------------------------------------------------------------------------------


def test_a_closed_deal_is_won_or_lost() -> None:
    """"The deal is now in closed won, at 100% probability" reads a stage's code; "is marked won"."""
    deal = next(k for k, r in _index("crm").rows["deal"].items()
                if r["owner_id"] == "REP-10001" and not r["stage"].startswith("closed"))
    for stage, word in (("closed_won", "won"), ("closed_lost", "lost")):
        args = {"deal_id": deal, "stage": stage, **({"loss_reason": "No budget this year"} if word == "lost" else {})}
        for text in _replies("crm", "update_deal_stage", args):
            assert word in text and "closed won" not in text and "closed lost" not in text, text


def test_marking_emails_says_them_only_of_several_and_reads_no_counts() -> None:
    """"Mark the email 'X' unread again, I want to come back to them" for one email, and "(1 of 1
    had been read)" in the reply, are not how a person speaks."""
    tool = registry.get("email").tools["mark_read"]
    assert not any(re.search(r"\b(?:them|it)\b", a.text) for a in tool.asks)
    assert not any("had been" in r.text for r in tool.replies)


def test_a_new_app_password_is_given_to_the_user() -> None:
    """"Here is the new password for Calendar sync" must show it: it is shown only this once."""
    for text in _replies("email", "create_app_password", {"name": "Calendar sync"}):
        assert re.search(r"[a-z]{4} [a-z]{4} [a-z]{4} [a-z]{4}", text), text


# ----- filesystem ----------------------------------------------------------------------------------------


def _text_file() -> str:
    return next(r["path"] for r in _index("filesystem").rows["file"].values()
                if r["content"] and not r["path"].startswith("/Personal Vault"))


def test_text_stats_are_said_as_counts_of_the_file() -> None:
    """"Words 21, path /Documents/..., lines 9, characters 117, bytes 117." reads fields; a person
    says "'Packing list.txt' has 21 words on 9 lines (117 characters)"."""
    for text in _replies("filesystem", "get_text_stats", {"path": _text_file()}):
        assert re.search(r"\d+ words? (?:on|in)", text) and re.search(r"\d+ lines?", text), text
        assert "path /" not in text and "bytes" not in text, text


def test_nothing_deleted_in_a_conversation_is_restored_in_it() -> None:
    """"Delete the Electric 2026-02.pdf file ... Then restore the new deleted item from the trash" is
    no task: what is restored was in the trash before the conversation."""
    restored = 0
    for ex in _generated("filesystem", 400, 7):
        before = _index("filesystem", ex["world"]).ids["trash_item"]
        for turn in ex["turns"]:
            for call in turn["calls"]:
                if call["name"] == "restore_from_trash":
                    restored += 1
                    assert call["arguments"]["trash_id"] in before, ex["id"]
    assert restored > 3


def test_filesystem_replies_say_what_was_done_plainly() -> None:
    """"Tagged the file 'x.zip' 'follow-up'", "read-only now; that covers 1 items", a link with no
    end, and the vault's state read as fields are not what a person says."""
    path = _text_file()
    assert all(t.startswith("Added the tag 'keep'") or "tagged 'keep'" in t
               for t in _replies("filesystem", "add_tag", {"path": path, "tag": "keep"}))
    assert not any("covers" in t for t in _replies("filesystem", "set_read_only", {"path": path, "read_only": True}))
    assert all(t.endswith(".") for t in _replies("filesystem", "create_share_link", {"path": path}))
    assert all("unlocked until" in t for t in _replies("filesystem", "get_vault_status", {}))


def test_appending_and_link_listings_say_what_was_asked() -> None:
    """"Added it to the end of the file" says no "it"; "which of my files are shared by link?"
    asks after links that still work, not revoked and expired ones."""
    tools = registry.get("filesystem").tools
    assert not any(r.text.startswith("Added it") for r in tools["append_to_file"].replies)
    shared = next(a for a in tools["list_share_links"].asks if "shared by link" in a.text)
    assert shared.binds == {"status": "active"}


# ----- iot_devices ---------------------------------------------------------------------------------------


def _device(kind: str) -> str:
    return next(k for k, r in _index("iot_devices").rows["device"].items() if r["type"] == kind and r["online"])


def test_a_device_set_to_something_is_said_in_a_sentence() -> None:
    """"Done: the Living Room Thermostat set to cool." has no verb: "is set to cool"."""
    texts = _replies("iot_devices", "set_thermostat_mode", {"device_id": _device("thermostat"), "mode": "cool"})
    texts += _replies("iot_devices", "set_brightness", {"device_id": _device("light"), "brightness": 40})
    for text in texts:
        assert not re.search(r"(?:Lights?|Lamp|Thermostat|Pendant\w*) set to", text), text
        assert re.search(r"\b(?:is|are) (?:set to|at|in)\b", text), text


def test_a_slotted_thermostat_mode_reads_as_a_mode() -> None:
    """"Put the Upstairs Thermostat in off mode" is not said: off has phrasings of its own."""
    for _, user, _ in _turns("iot_devices", "set_thermostat_mode", 300, 4):
        assert "in off mode" not in user, user


def test_a_lock_code_and_a_scene_are_said_with_their_names() -> None:
    """"Added the code for Cleaner (Ana) on Front Door Lock" drops the lock's article; "The scene
    Welcome home is saved" leaves the name unquoted."""
    lock = _device("lock")
    for text in _replies("iot_devices", "add_lock_code", {"device_id": lock, "name": "Cleaner (Ana)",
                                                          "new_code": "482913"}):
        assert not re.search(r" on [A-Z]", text), text
    light = _device("light")
    for text in _replies("iot_devices", "create_scene", {"device_ids": [light], "name": "Welcome home"}):
        assert "'Welcome home'" in text or "Welcome home will" in text, text


# ----- issue_tracker -------------------------------------------------------------------------------------


def test_a_sprint_is_said_by_its_name_without_an_article() -> None:
    """"Complete the MOB Sprint 14 and move what's left to the MOB Sprint 15": a sprint's name is a
    proper name."""
    server = registry.get("issue_tracker")
    say = Phrasing(server, Sampler(server, 0, [0]).context(0), _index("issue_tracker"), Wording(random.Random(0)))
    sprints = _index("issue_tracker").labels["sprint"]
    for sprint, name in sprints.items():
        assert say.entity("sprint", sprint) == name
    said = [user for _, user, _ in _turns("issue_tracker", "complete_sprint", 400, 2)]
    assert said and not any(re.search(r"\bthe [A-Z]+ Sprint \d", text) for text in said)


def test_issue_tracker_replies_read_no_counts_as_fields() -> None:
    """"unfinished issues moved to MOB Sprint 15: 11", "unresolved blockers: 0", "By issue:
    MOB-10037 (30 min)" for the one issue asked about, and a link that does not say which."""
    for text in _replies("issue_tracker", "complete_sprint", {"sprint_id": "SPR-10004"}):
        assert not re.search(r": \d+\.$", text) and re.search(r"\d+ issues? (?:still open|left over)", text), text
    issue = next(k for k, r in _index("issue_tracker").rows["issue"].items() if r["assignee_id"])
    assert not any("blockers: " in t for t in _replies("issue_tracker", "get_issue", {"issue_id": issue}))
    logged = next(r["issue_id"] for r in _index("issue_tracker").rows["worklog"].values())
    assert not any("By issue" in t for t in _replies("issue_tracker", "list_worklogs", {"issue_id": logged}))
    others = [k for k in _index("issue_tracker").rows["issue"] if k != issue]
    for text in _replies("issue_tracker", "link_issues", {"issue_id": issue, "other_issue_id": others[0],
                                                          "relation": "duplicates"}):
        assert "duplicate" in text, text


def test_an_issue_is_planned_for_a_sprint_without_calling_it_the_next() -> None:
    """"Move issue MOB-10008 to the next sprint, MOB Sprint 14" of the active sprint; and "Done;"."""
    tools = registry.get("issue_tracker").tools
    assert not any("next sprint" in a.text for a in tools["move_to_sprint"].asks)
    assert not any("Done;" in r.text for t in tools.values() for r in t.replies)


# ----- maps ----------------------------------------------------------------------------------------------


def test_a_kind_of_place_is_said_as_a_noun() -> None:
    """"Which museum places are open right now?" is no English: "Is there a museum open right now?",
    of a kind one drops in to (not an office, nor a hotel's opening hours)."""
    calls = _turns("maps", "search_places", 400, 6) + _turns("maps", "search_nearby", 400, 6)
    kinds = [(call["arguments"], user) for call, user, _ in calls if "category" in call["arguments"]]
    assert len(kinds) > 5
    for args, user in kinds:
        assert not re.search(r"\b\w+ places (?:are|in|near)\b", user), user
        assert args["category"] not in ("residential", "office", "parking", "shopping"), user
        assert not (args["category"] == "hotel" and args.get("open_now")), user


def test_a_new_list_is_described_as_what_its_name_says() -> None:
    """"Create a list 'Best parks' for rainy-day ideas": a list's name and description go together."""
    values = registry.get("maps").tools["create_list"].values
    assert "description" not in values
    assert ("Best parks", "rainy-day ideas") not in values["list_name, description"]


# ----- social_media --------------------------------------------------------------------------------------


def test_social_replies_say_what_was_done_plainly() -> None:
    """"you no longer follow 'austinrunningclub', and no request is pending" speaks of a request
    that was never made; "follows between you removed: 0" and "Messages between you and X: 3"
    read fields."""
    index = _index("social_media")
    me = next(a for a, r in index.rows["account"].items() if r["is_me"])
    me = f"'{me}'"
    with Session([registry.get("social_media")], world=0) as session:
        followed = next(a for a in index.rows["account"] if not index.rows["account"][a]["is_me"]
                        and session.satisfies("account", a, f"account_id IN (SELECT followee_id FROM follows WHERE follower_id = {me})"))
    assert not any("request" in t for t in _replies("social_media", "unfollow_account", {"account_id": followed}))
    assert not any("removed:" in t for t in _replies("social_media", "block_account", {"account_id": followed}))
    tool = registry.get("social_media").tools["get_conversation"]
    assert not any("Messages between" in r.text for r in tool.replies)


def test_a_follow_is_reported_in_words() -> None:
    """"Done: I followed the account 'nora.edwards'; the status is now following."."""
    tool = registry.get("social_media").tools["follow_account"]
    assert not any("the status is" in r.text or "status:" in r.text for r in tool.replies)


# ----- team_chat -----------------------------------------------------------------------------------------


def test_a_question_about_someones_status_is_answered_with_it() -> None:
    """"Is Elijah Morgan around today? What's their status?" answered with "handle elijah.morgan,
    title Product Designer, email ..." does not answer."""
    seen = _turns("team_chat", "get_user", 400, 3)
    assert seen
    for call, user, reply in seen:
        assert "status" in reply.lower() and "not admin" not in reply, (user, reply)


def test_nobody_reacts_to_their_own_message() -> None:
    """"Message Jacob Perez privately: Are we still on for 3pm?" then "React to the new message with
    :pray:": the user reacts to what others wrote."""
    mine = "user_id = (SELECT user_id FROM users WHERE is_me = 1)"
    reacted = 0
    server = registry.get("team_chat")
    for ex in _generated("team_chat", 400, 8):
        with Session([server], world=ex["world"]) as session:
            for turn in ex["turns"]:
                for call in turn["calls"]:
                    if call["name"] == "add_reaction":
                        reacted += 1
                        assert not session.satisfies("message", call["arguments"]["message_id"], mine), ex["id"]
                    session.call(call["name"], call["arguments"])
    assert reacted > 3


def test_an_edited_message_is_quoted_once() -> None:
    """"Edit ... to say 'Retro is on Thursday at 3pm in the big room.'." ends twice, and so does
    "it now reads '...room.'."."""
    for _, user, reply in _turns("team_chat", "edit_message", 400, 3):
        assert "to say '" not in user and "now reads '" not in reply, (user, reply)


# ----- vehicle, video_meeting ----------------------------------------------------------------------------


def test_windows_and_gears_are_said_in_words() -> None:
    """"the rear left window is now at 0% open (0 is closed)" is "the rear left window is closed";
    "The car is in N now" is "in neutral"."""
    closed = _replies("vehicle", "set_window", {"window": "rear_left", "position": 0})
    assert all(t == "The rear left window is closed." for t in closed), closed
    assert not any("%" in t for t in _replies("vehicle", "set_window", {"window": "all", "position": 0}))
    tool = registry.get("vehicle").tools["shift_gear"]
    for gear, word in (("P", "park"), ("R", "reverse"), ("N", "neutral"), ("D", "drive")):
        texts = [r.text for r in _fitting_replies(tool, {"gear": gear})]
        assert texts and all(word in t and "{gear}" not in t for t in texts), texts


def test_a_window_of_two_weeks_is_not_called_this_week() -> None:
    """"What meetings am I invited to this week, from March 23 to April 6?"."""
    assert not any("this week" in a.text for a in registry.get("video_meeting").tools["list_meetings"].asks)


def test_a_profile_is_shown_with_the_title_as_well_as_the_status() -> None:
    for reply in _replies("team_chat", "get_user", {"user_id": "USR-10017"}):
        assert "Product Designer" in reply, reply


def test_a_book_is_said_by_its_title_without_an_article() -> None:
    books = [(pid, label) for pid, label in _index("shopping").labels["product"].items()
             if " by " in label and not label.startswith("The ")]
    assert books
    for reply in _replies("shopping", "get_product", {"product_id": books[0][0]}):
        assert books[0][1] in reply and f"the {books[0][1]}" not in reply, reply


def test_a_cart_quantity_is_changed_without_an_instead_that_reads_as_a_swap() -> None:
    turns = _turns("shopping", "update_cart_item", n=400)
    assert turns
    for call, user, _ in turns:
        assert "instead" not in user, user


def test_a_new_watchlist_is_named_in_quotes() -> None:
    turns = _turns("trading", "create_watchlist", n=300)
    assert turns
    for call, user, reply in turns:
        name = call["arguments"]["name"]
        assert f"'{name}'" in reply, reply
        if "watchlist" in user:
            assert f"'{name}'" in user, user


def test_a_series_is_asked_for_with_meetings_shorter_than_a_day() -> None:
    turns = _turns("calendar", "create_recurring_event", n=400)
    assert len(turns) >= 5
    for call, user, _ in turns:
        start, end = call["arguments"]["start"], call["arguments"]["end"]
        assert start[:10] == end[:10] and start < end, user


def _before(server: str, world: int, tool: str, args: Mapping[str, Any]) -> Any:
    with Session([registry.get(server)], world=world) as session:
        return session.call(tool, dict(args)).data


def test_a_close_date_is_pushed_only_to_a_later_day() -> None:
    turns = [(call, user) for call, user, _ in _turns("crm", "update_deal", n=400) if "close_date" in call["arguments"]]
    assert turns
    for call, user in turns:
        if re.search(r"\bpush", user, re.I):
            was = _before("crm", 0, "get_deal", {"deal_id": call["arguments"]["deal_id"]})["close_date"]
            assert call["arguments"]["close_date"] > was, (user, was)


def test_a_lead_is_asked_about_only_for_what_its_reply_says() -> None:
    turns = _turns("crm", "get_lead", n=400)
    assert turns
    for call, user, reply in turns:
        assert "happened" not in user, (user, reply)


def test_the_food_account_answers_its_credit_and_orders_first() -> None:
    for reply in _replies("food_delivery", "get_account", {}):
        assert reply.startswith(("You have $", "You've placed ")), reply


def test_a_moved_or_renamed_file_is_said_by_its_name_afterwards() -> None:
    checked = 0
    for ex in _generated("filesystem", 500, 3):
        moved = [json.loads(m["content"]).get("path") for m in ex["messages"] if m["role"] == "tool"
                 and '"old_path": "' in m["content"]]
        calls = [c for t in ex["turns"] for c in t["calls"] if c["name"] not in ("rename_path", "move_path")]
        if not any(p and p in json.dumps(c["arguments"]) for p in moved for c in calls):
            continue
        checked += 1
        text = " ".join(m["content"] for m in ex["messages"] if m["role"] in ("user", "assistant") and m.get("content"))
        assert not re.search(r"the (new|renamed) (file|item|folder)|(?<!a )\b(file|item) /", text), text
    assert checked >= 5


def test_an_email_is_moved_without_filing_it_under_a_folder_beside_where_it_is() -> None:
    turns = _turns("email", "move_message", n=400)
    assert turns
    for call, user, _ in turns:
        assert " under " not in user, user


def test_new_notifications_are_the_unread_ones() -> None:
    turns = [(call, user) for call, user, _ in _turns("social_media", "list_notifications", n=400) if " new " in user]
    assert turns
    for call, user in turns:
        assert call["arguments"].get("unread_only") is True, user


def test_how_spending_changed_is_answered_month_by_month() -> None:
    for reply in _replies("budget", "get_category_history", {"category_id": "CAT-10014", "months": 3}):
        assert "January $0.00, February $36.01, March $0.00 so far" in reply, reply


def _made_then_changed(ex: dict, server: str) -> list[tuple[int, dict, int, dict]]:
    """(turn, maker call, turn, later write) for each write on a thing an earlier write made."""
    spec = registry.get(server)
    known = {v for ids in _index(server, ex["world"]).ids.values() for v in ids}
    made: dict[str, tuple[int, dict]] = {}
    out = []
    calls = [(t, c) for t, turn in enumerate(ex["turns"]) for c in turn["calls"]]
    outputs = iter(m["content"] for m in ex["messages"] if m["role"] == "tool")
    for t, call in calls:
        tool = spec.tools[call["name"]]
        result = next(outputs, "")
        if tool.read_only:
            continue
        for value in _strs_of(call["arguments"]):
            if value in made:
                out.append((*made[value], t, call))
        for value in re.findall(r'"([A-Z]+-\d+)"', result):
            if value not in known and value not in _strs_of(call["arguments"]):
                made.setdefault(value, (t, call))
    return out


def _strs_of(args: Mapping[str, Any]) -> set[str]:
    return {v for x in args.values() for v in (x if isinstance(x, list) else [x]) if isinstance(v, str)}


def test_nothing_made_is_set_again_to_another_value() -> None:
    checked = 0
    for server in ("crm", "food_delivery", "calendar"):
        for ex in _generated(server, 300, 5):
            for t0, maker, t1, change in _made_then_changed(ex, server):
                checked += 1
                defaults = registry.get(server).tools[maker["name"]].defaults
                set_before = set({**defaults, **maker["arguments"]})
                assert not (set(change["arguments"]) & set_before) - {
                    k for k, v in change["arguments"].items() if isinstance(v, str) and v in _strs_of(maker["arguments"])
                    or k.endswith("_id")}, (maker, change)
    assert checked >= 3


def test_a_renaming_is_reported_with_the_old_name_and_the_new() -> None:
    turns = [(c, u, r) for c, u, r in _turns("calendar", "update_event", n=400) if "title" in c["arguments"]]
    assert turns
    for call, user, reply in turns:
        title = call["arguments"]["title"]
        assert f"'{title}' to '{title}'" not in reply, reply


def test_a_refund_in_dollars_is_not_told_as_no_points() -> None:
    turns = _turns("travel_booking", "get_cancellation_quote", n=400)
    assert turns
    for call, user, reply in turns:
        assert " 0 points come back" not in reply, reply


def _probed(monkeypatch) -> list[tuple[dict, bool]]:
    """Every request an abstention draws from now on, with whether the hidden tool would have served it."""
    from prove.synth.teachers import programmatic

    drawn: list[tuple[dict, bool]] = []
    serve = programmatic.Planner._would_serve

    def probe(self, tool, args) -> bool:
        drawn.append((dict(args), serve(self, tool, args)))
        return drawn[-1][1]

    monkeypatch.setattr(programmatic.Planner, "_would_serve", probe)
    return drawn


def _draws(drawn: list[tuple[dict, bool]], synth: Synthesizer, n: int, target: Any = None) -> list[list[tuple[dict, bool]]]:
    """The draws of each of the first `n` candidates (steered to `target`) that drew any."""
    runs = []
    for i in range(n):
        before = len(drawn)
        synth.example(i, target)
        if len(drawn) > before:
            runs.append(drawn[before:])
    return runs


def test_a_request_no_tool_serves_is_drawn_again_until_the_tool_would_have_served_it(monkeypatch) -> None:
    """"Grab the Junior Suite ... from March 19 to March 17 ... put it in the trip 'Anniversary in
    Amsterdam'" (an Atlanta hotel): a request the assistant cannot serve is one the tool would have,
    wherever a draw of its values lets it."""
    from prove.synth.teachers import programmatic

    drawn = _probed(monkeypatch)
    runs = [[ok for _, ok in run] for server in ("travel_booking", "calendar")
            for run in _draws(drawn, Synthesizer(SynthConfig(n=300, seed=8, servers=[server])), 300)]
    assert any(len(run) > 1 and run[-1] for run in runs)  # a draw the tool refused was made again
    for run in runs:
        assert run[-1] or len(run) == programmatic._ABSTAIN_TRIES, run
        assert not any(run[:-1]), run


def _after(server: str, earlier: tuple[str, ...], later: str, arg: str, n: int = 500, seed: int = 5) -> int:
    """Asserts that no `later` call takes a thing (`arg`) an `earlier` call of the same example took
    before it; the number of `later` calls checked."""
    checked = 0
    for ex in _generated(server, n, seed):
        touched: set[str] = set()
        for turn in ex["turns"]:
            for call in turn["calls"]:
                value = call["arguments"].get(arg)
                if call["name"] == later:
                    checked += 1
                    assert value not in touched, ex["id"]
                if call["name"] in earlier:
                    touched.add(value)
    return checked


def test_nobody_makes_an_offer_on_a_listing_and_then_buys_it_outright() -> None:
    assert _after("marketplace", ("make_offer",), "buy_listing", "listing_id") >= 5


def test_a_search_is_for_the_thing_not_its_colour() -> None:
    from prove.synth.teachers.programmatic import _head_words

    assert _head_words("DualSense Wireless Controller Midnight Black") == "Wireless Controller"
    assert _head_words("Insulated Water Bottle 32 oz") == "Water Bottle"


def test_nothing_changed_in_a_conversation_is_then_written_over_whole() -> None:
    assert _after("filesystem", ("append_to_file", "replace_in_file", "write_file"), "write_file", "path") >= 5


def test_a_product_with_a_plural_name_takes_no_singular_verb() -> None:
    """"The Salomon Trail Running Shoes is on your wishlist", "Bypass Pruning Shears is $64.95": a
    product's name may be plural, so no reply puts a verb right after it."""
    shoes = [pid for pid, label in _index("shopping").labels["product"].items() if label.endswith("Shoes")]
    assert shoes
    for reply in _replies("shopping", "get_product", {"product_id": shoes[0]}):
        assert not re.search(r"Shoes (starts|comes)\b", reply), reply
    templates = [(server, tool.name, r.text) for server in ("shopping", "retail_chain")
                 for tool in registry.get(server).tools.values() for r in tool.replies]
    assert len(templates) > 80
    for server, tool, text in templates:
        # ("the price of {product_id} is" has the price for its subject)
        assert not re.search(r"(?<! of )\{(result\.)?product_(id|name)\} (is|are|has|costs|comes|starts)\b", text), \
            (tool, text)


def test_an_order_is_not_asked_when_it_will_arrive_whatever_its_state() -> None:
    turns = _turns("food_delivery", "get_order", n=400)
    assert turns
    for call, user, _ in turns:
        assert "arrive" not in user, user


def test_a_request_no_tool_serves_names_two_places_where_it_takes_two(monkeypatch) -> None:
    """"If I leave Sushi Maple in Portland ..., when do I get to Sushi Maple in Portland by driving?"
    named one place twice, as the only one the state offered: the second is another of its kind."""
    from prove.synth import Target

    drawn = _probed(monkeypatch)
    synth = Synthesizer(SynthConfig(n=60, seed=9191, servers=["maps"]))
    last = [run[-1][0] for tool in ("get_route", "get_distance")
            for run in _draws(drawn, synth, 30, Target("maps", tool=tool, kind="abstention"))]
    assert len(last) >= 40
    for args in last:
        assert args.get("origin_place_id") != args.get("destination_place_id"), args


def test_a_product_in_one_version_is_said_as_one() -> None:
    """"Prices for the LEGO Fire Station Building Set start at $57.95, in one version, in stock; any of
    them is returnable": prices that start, and "any of them", for a thing sold one way."""
    with Session(["shopping"], world=0) as session:
        single = [p for p in _index("shopping").labels["product"]
                  if (d := session.call("get_product", {"product_id": p}).data)["versions"] == 1 and d["status"] == "active"]
    assert single
    for reply in _replies("shopping", "get_product", {"product_id": single[0]}):
        if reply.startswith("Returns of "):  # the answer to "Can I return it?" alone
            continue
        assert reply.startswith("There's one version of ") and "start at" not in reply and "any of" not in reply, reply


def test_a_search_no_tool_serves_looks_for_what_the_search_finds(monkeypatch) -> None:
    """"Do you sell Capitol?": a search the assistant cannot run asks for words the tool's things
    have, as the searches it can run do."""
    from prove.synth import Target

    drawn = _probed(monkeypatch)
    synth = Synthesizer(SynthConfig(n=40, seed=1717, servers=["retail_chain"]))
    names = " ".join(_index("retail_chain", w).labels["product"][k] for w in range(3)
                     for k in _index("retail_chain", w).labels["product"]).lower()
    queries = [args["query"] for run in _draws(drawn, synth, 20, Target("retail_chain", tool="search_products",
                                                                        kind="abstention"))
               for args, _ in run if "query" in args]
    assert len(queries) >= 10
    for query in queries:
        assert query.lower() in names, query


def test_a_product_search_is_said_as_a_search() -> None:
    """"do you sell Foam Roller?" reads a product's words as a thing with no article; a search for
    them is said as one, in quotes ("Do you sell anything matching 'Foam Roller'?")."""
    seen = 0
    for call, user, _ in _turns("retail_chain", "search_products", 240, 3):
        query = call["arguments"].get("query")
        if query and f"'{query}'" in user:
            seen += 1
        assert not (query and re.search(rf"\b(?:sell|for|Find) {re.escape(query)}\b", user)), user
    assert seen >= 3


def test_what_is_on_hold_is_what_is_still_held() -> None:
    """"What do I have on hold for pickup?" listed cancelled and expired reservations too."""
    tool = registry.get("retail_chain").tools["list_reservations"]
    for ask in tool.asks:
        if "on hold" in ask.text or "active" in ask.text:
            assert ask.binds.get("status") == "active", ask
    assert any(ask.binds.get("status", None) is None and "status" not in ask.binds for ask in tool.asks)


def test_an_account_after_another_names_what_it_is_about() -> None:
    """A reply that says several things never opens a later one with "it" ("... Rafael Taylor organizes
    it. It meets every week on Tuesday and Wednesday, 26 times"): "it" would be the thing before. Alone,
    a reply may say "it" of what the user just asked for."""
    later, alone = [], []
    for ex in _generated("calendar", 400, 12):
        for m in ex["messages"]:
            if m["role"] == "assistant" and m.get("content") and not m.get("tool_calls"):
                later += re.findall(r"[.!?] It meets [^.]*", m["content"])
                alone += [m["content"]] if m["content"].startswith("It meets") else []
    assert not later, later[:5]
    assert alone  # the pronoun is still said where nothing comes before it

def test_several_of_a_product_added_to_the_cart_read_as_a_count_of_it() -> None:
    """"Done: 3 of the Champion Crew Neck T-Shirt are in your cart" reads as 3 out of one shirt."""
    with Session(["shopping"], world=0) as session:
        product = next(p for p in session.call("search_products", {"query": "Shirt"}).data["products"]
                       if p["in_stock"])
        variant = session.call("get_product", {"product_id": product["product_id"]}).data["variants"][0]
    texts = _replies("shopping", "add_to_cart", {"product_id": product["product_id"],
                                                 "variant_id": variant["variant_id"], "quantity": 3})
    assert texts and not any(" of the " in t for t in texts), texts
    assert all("3" in t for t in texts), texts


def test_a_comment_taken_off_my_post_is_on_my_post_and_said_once_with_from() -> None:
    """"Remove the comment 'Congrats!!' from chloe_alvarez from my post" says "from" twice, and was
    asked of the user's own comment on someone else's post."""
    seen = 0
    for ex in _generated("social_media", 400, 21):
        messages = ex["messages"]
        user = ""
        for at, m in enumerate(messages):
            user = m["content"] if m["role"] == "user" else user
            for call in m.get("tool_calls") or []:
                if call["function"]["name"] != "delete_comment" or "my post" not in user:
                    continue
                seen += 1
                assert not re.search(r"from \S+ from my post", user), user
                result = next(r for r in messages[at:] if r.get("tool_call_id") == call["id"])
                post = json.loads(result["content"])["post_id"]
                with Session(["social_media"], world=ex["world"]) as session:
                    mine = session.call("get_profile", {}).data["account_id"]
                    assert session.call("get_post", {"post_id": post}).data["author_id"] == mine, user
    assert seen


def test_an_email_is_said_to_be_in_a_folder() -> None:
    """"... sent February 12 at 11:13 AM to you; it's in Inbox." names the folder as if it were a place."""
    with Session(["email"], world=0) as session:
        message = session.call("list_messages", {"folder_id": "inbox"}).data["messages"][0]["message_id"]
    texts = [t for t in _replies("email", "get_message", {"message_id": message}) if "it's in" in t]
    assert texts and all("it's in the Inbox folder" in t for t in texts), texts


def test_a_new_scene_says_what_it_saved() -> None:
    """"Done: the scene 'Weekend' will set the Front Door Lock back to these settings." answered a
    request that named no settings."""
    texts = _replies("iot_devices", "create_scene", {"name": "Weekend", "device_ids": ["DEV-10001"]})
    assert texts and not any("these settings" in t for t in texts), texts


def test_direct_messages_with_different_people_are_different() -> None:
    """"Ivan Anderson last wrote 'Yes, sorry! I'll bring it next week.' ...; Alexander Martin last
    wrote 'Yes, sorry! I'll bring it next week.'": one conversation was given to two people."""
    for world in range(6):
        with Session(["social_media"], world=world) as session:
            talks = session.call("list_conversations", {}).data["conversations"]
        lines = [t["last_message"] for t in talks]
        assert len(talks) >= 5 and len(set(lines)) == len(lines), (world, lines)


def test_a_lead_source_is_said_as_a_source() -> None:
    """"came in through partner", "a warm lead from website": a lead's source is a kind, not a place."""
    said = [u for c, u, _ in _turns("crm", "create_lead", n=300, seed=5)]
    assert said and not any(re.search(r"(?:through|from) (?:website|referral|trade show|webinar|cold outreach|partner)\b",
                                      u) for u in said), said


def test_a_cancelled_bill_is_named_as_a_bill() -> None:
    """"Cancelled Phone plan; it won't come due again." says the bill's name as if it were the plan."""
    texts = _replies("budget", "cancel_bill", {"bill_id": "BILL-10005"})
    assert all("the bill 'Phone plan'" in t or "The bill 'Phone plan'" in t for t in texts), texts


def test_a_distance_from_home_is_said_from_home() -> None:
    """"What's the straight-line distance from home to Portland General Hospital?" was answered
    "... northwest of The Green Residences", the name of the user's building."""
    texts = _replies("maps", "get_distance", {"destination_place_id": "PLC-10072"})
    assert texts and all("of your home" in t for t in texts), texts


def test_a_comment_like_love_this_goes_on_someone_elses_post() -> None:
    """"Leave a comment on the post 'New single origin beans: ...' saying: Love this!" was the user's
    own post: the comments people leave ("Great post!") are for other people's posts."""
    seen = 0
    for ex in _generated("social_media", 400, 21):
        posts = [args["post_id"] for m in ex["messages"] for call in m.get("tool_calls") or []
                 if call["function"]["name"] == "comment_on_post"
                 and "reply_to_comment_id" not in (args := json.loads(call["function"]["arguments"])) and "post_id" in args]
        if posts:
            with Session(["social_media"], world=ex["world"]) as session:
                me = session.call("get_profile", {}).data["account_id"]
                for post in posts:
                    seen += 1
                    assert session.call("get_post", {"post_id": post}).data["author_id"] != me, (ex["id"], post)
    assert seen


def test_a_muted_speaker_is_said_muted_and_a_changed_cart_line_says_the_dish() -> None:
    """"Mute the Bedroom Speaker" -> "Volume set to 0 on the Bedroom Speaker"; "Change the Gyoza to 2"
    -> "Updated your Sakura Sushi cart: 4 items, $34.00 subtotal", which never says the Gyoza."""
    muted = _replies("iot_devices", "set_volume", {"device_id": "DEV-10023", "volume": 0})
    assert all("muted" in t and "volume 0" not in t.lower() for t in muted), muted
    with Session(["food_delivery"], world=0) as session:
        cart = session.call("list_carts", {}).data["carts"][0]["restaurant_id"]
        line = session.call("view_cart", {"restaurant_id": cart}).data["items"][0]
    texts = _replies("food_delivery", "update_cart_item", {"cart_item_id": line["cart_item_id"], "quantity": 2})
    assert all(f"{line['name']} to 2" in t for t in texts), texts


def test_a_new_goal_and_an_archived_category_are_named_as_such() -> None:
    """"Started the goal Kitchen Remodel", "Archived Rideshare; its history stays." run a name into
    the sentence."""
    goals = _replies("budget", "create_goal", {"name": "Kitchen Remodel", "target_amount": 600.0})
    assert all("goal 'Kitchen Remodel'" in t for t in goals), goals
    archived = _replies("budget", "archive_category", {"category_id": "CAT-10022"})
    assert all(re.search(r"[Tt]he Household category", t) for t in archived), archived


def test_a_payment_scheduled_until_a_day_says_until_when() -> None:
    """"Set up a monthly payment of $100 to AT&T Wireless ..., starting March 18 and ending September 14"
    was answered "Scheduled: $100 monthly to AT&T Wireless ..., first on March 18": no end."""
    args = {"frequency": "monthly", "from_account_id": "ACC-10001", "payee_id": "PAY-10004", "amount": 100.0,
            "send_on": "2026-03-18", "end_date": "2026-09-14"}
    texts = _replies("banking", "schedule_payment", args)
    assert all("September 14" in t for t in texts), texts
    assert _replies("banking", "schedule_payment", {k: v for k, v in args.items() if k != "end_date"})


def test_points_are_said_with_a_thousands_mark() -> None:
    """"You have 3033 points at the Platinum tier": a count of points is a number people read as
    3,033; a year stays 2028."""
    texts = _replies("retail_chain", "get_loyalty_account", {})
    assert any(re.search(r"\d,\d{3} points", t) for t in texts) and not any(re.search(r"\d{4} points", t)
                                                                          for t in texts), texts
    from prove.synth.results import number
    assert number(2028) == "2028" and number(3033, "points") == "3,033" and number(3033, "points_balance") == "3,033"


def test_a_company_is_searched_by_its_name_without_inc() -> None:
    """"What's the ticker for Technologies Inc?" searched "Palantir Technologies Inc." by its last words."""
    from prove.synth.teachers.programmatic import _head_words

    assert _head_words("Palantir Technologies Inc.") == "Palantir Technologies"
    assert _head_words("Uber Technologies, Inc.") == "Uber Technologies"
    assert _head_words("JPMorgan Chase & Co.") == "JPMorgan Chase"
    assert _head_words("International Business Machines Corporation") == "International Business Machines"
    assert _head_words("Apple Inc.") is None
    # a fund is searched by its whole name, not "Market ETF" or "QQQ Trust"; "Inc." inside a name ends it
    assert _head_words("Vanguard Total Bond Market ETF") is None
    assert _head_words("Invesco QQQ Trust") is None
    assert _head_words("Berkshire Hathaway Inc. Class B") == "Berkshire Hathaway"


def test_a_thing_the_server_named_is_named_by_the_user_only_after_hearing_it() -> None:
    """"Block the card 'Visa credit card ending 7437' and order a replacement ... Next, change the limit
    of the card 'Visa credit card ending 4229'": the replacement's number came back from the first call;
    the user could not say it in the same breath."""
    seen = 0
    for ex in _generated("banking", 500, 31):
        with Session(["banking"], world=ex["world"]) as session:
            known = {c["number_ending"] for c in session.call("list_cards", {}).data["cards"]}
        heard = ""
        for m in ex["messages"]:
            if m["role"] == "user":
                for ending in re.findall(r"card ending (\d{4})", m["content"]):
                    seen += ending not in known
                    assert ending in known or ending in heard, (ex["id"], m["content"])
            elif m["role"] == "assistant" and m.get("content"):
                heard += m["content"]
    assert seen


def test_a_deleted_folder_is_named_as_a_folder() -> None:
    """"Done: 'Old team' is gone." says a bare name."""
    with Session(["email"], world=0) as session:
        folders = session.call("list_folders", {}).data["folders"]
    empty = next(f["folder_id"] for f in folders if f["kind"] == "custom" and f["total"] == 0)
    texts = _replies("email", "delete_folder", {"folder_id": empty})
    assert all("the folder '" in t for t in texts), texts


def test_a_restored_item_is_said_back_in_its_folder() -> None:
    """"Done: the file 'Screen recording 2025-09-08.mov' is back at /Documents/Screen recording
    2025-09-08.mov.": a raw path where a person names the folder."""
    with Session(["filesystem"], world=0) as session:
        item = next(t for t in session.call("list_trash", {}).data["items"] if t["kind"] == "file")
    texts = _replies("filesystem", "restore_from_trash", {"trash_id": item["trash_id"], "destination_folder": "/Documents"})
    assert all("the Documents folder" in t and "/Documents/" not in t for t in texts), texts


def test_a_route_from_home_is_said_from_home() -> None:
    """"Which trains or buses do I take to Corner Basil?" was answered "By transit from Blue Lofts to
    Corner Basil", the name of the user's building."""
    for tool in ("get_route", "get_directions"):
        texts = _replies("maps", tool, {"destination_place_id": "PLC-10017", "mode": "transit",
                                        "depart_at": "2026-03-17T11:00"})
        assert texts and all("your home" in t for t in texts), texts
        named = _replies("maps", tool, {"destination_place_id": "PLC-10017", "origin_place_id": "PLC-10072",
                                        "mode": "transit", "depart_at": "2026-03-17T11:00"})
        assert all("Portland General Hospital" in t for t in named), named


def test_a_deleted_list_is_named_as_a_list() -> None:
    """"Done: 'Date night' is gone." says a bare name."""
    texts = _replies("maps", "delete_list", {"list_id": "LST-10002"})
    assert all("the list '" in t for t in texts), texts


def test_who_works_on_an_issue_is_answered_plainly() -> None:
    """"As for issue WEB-10051, Alexander Clarke is working on it." opens on a turn of phrase that
    answers nothing said before it."""
    server = registry.get("issue_tracker")
    with Session([server], world=0) as session:
        issue = session.call("search_issues", {}).data["issues"][0]["issue_id"]
        result = session.call("get_issue", {"issue_id": issue})
    tool = server.tools["get_issue"]
    fitting = _fitting_replies(tool, {"issue_id": issue}, result.data, "Who is working on {issue_id}?")
    assert fitting and not any(r.text.startswith("As for") for r in fitting), [r.text for r in fitting]


def test_a_directory_search_promises_no_invitation() -> None:
    """"Look up Leo Ramirez; I want to invite them to a call. Then please schedule 'All-hands prep' ..."
    scheduled a call Leo Ramirez was never invited to: a search says only what it looks for."""
    tool = registry.get("video_meeting").tools["search_people"]
    assert tool.asks and not any("invite" in a.text for a in tool.asks)


def test_a_username_never_opens_a_reply_account() -> None:
    """"Order ORD-10012 is marked delivered. Camerasbyjordan has your message ...": after another account a
    reply's "Done:" is dropped and the next word capitalized, which a username must not be."""
    with Session(["marketplace"], world=0) as session:
        listing = next(x for x in session.call("search_listings", {}).data["listings"] if x["seller_username"] !=
                       session.call("get_account", {}).data["username"])
    texts = _replies("marketplace", "send_message", {"listing_id": listing["listing_id"], "body": "Is this still available?"})
    assert texts and not any(t.split(": ", 1)[-1].startswith(listing["seller_username"]) for t in texts), texts


def test_a_new_channel_is_told_as_having_no_topic_yet() -> None:
    """"I found the following: proj-spring-launch: 2 members, pinned count 0, pinned no pinned messages, ...": a
    channel made in the conversation has no topic, and is told so in a sentence, for every question about it."""
    made = ("create_channel", {"name": "proj-spring-launch", "is_private": True})
    for asked in ("How many members does the channel have, and what's its topic?",
                  "Tell me about the channel: its topic, members and pinned messages.",
                  "What is the channel for, and who can post there?"):
        texts = _replies("team_chat", "get_channel", {"channel_id": "CHN-10021"}, [made], asked=asked)
        assert all("no topic yet" in text and "pinned count" not in text for text in texts), (asked, texts)


def test_an_empty_file_is_said_to_be_empty() -> None:
    """"Here's the new file, all 0 lines:" followed by nothing: a file with no text is told as empty."""
    made = ("create_file", {"path": "/Documents/Packing list.md"})
    texts = _replies("filesystem", "read_file", {"path": "/Documents/Packing list.md"}, [made])
    assert all("empty" in text and "0 lines" not in text for text in texts), texts


def test_a_dish_search_is_for_the_words_of_a_dish() -> None:
    """"And which restaurants listed under Pizza have Crust?": a dish search was given words cut from a
    restaurant's name ('Crust & Co.', 'Eggs & Co.'), and found whatever dishes said 'crust'. It searches a
    dish's words."""
    rows = _index("food_delivery").rows
    dishes = {row["name"] for row in rows["menu_item"].values()}
    searched = 0
    for call, user, _ in _turns("food_delivery", "search_dishes", n=500, seed=1):
        searched += 1
        query = call["arguments"]["query"]
        assert any(query in dish for dish in dishes), user
        assert query in dishes or not any(r["name"].startswith(query) for r in rows["restaurant"].values()), user
    assert searched >= 10


def test_a_new_sprint_runs_one_or_two_working_weeks() -> None:
    """"Plan a new sprint 'Billing migration' in the Mobile App project from March 18 to March 21": a sprint of
    four days from a Wednesday is no sprint a team plans. New sprints run one or two weeks, Monday to Friday."""
    from datetime import date

    planned = 0
    for call, user, _ in _turns("issue_tracker", "create_sprint", n=400, seed=6802):
        planned += 1
        start, end = (date.fromisoformat(call["arguments"][k]) for k in ("start_date", "end_date"))
        assert start.weekday() == 0 and end.weekday() == 4 and (end - start).days in (4, 11), user
    assert planned >= 5


def test_a_place_is_searched_by_its_name_not_its_last_words() -> None:
    """"Please find places matching 'Angeles Downtown' in Los Angeles." (the Hilton Los Angeles Downtown): a
    business or a landmark has a proper name, and a person searches it by that name, not by its last two
    words as if it were a product ("String Lights")."""
    searched = 0
    for ex in _generated("maps", 400, 1):
        names = [r["name"] for r in _index("maps", ex["world"]).rows["place"].values()]
        for turn, user in _turn_users(ex):
            for call in turn["calls"]:
                if call["name"] == "search_places" and "query" in call["arguments"]:
                    searched += 1
                    assert any(name.startswith(call["arguments"]["query"]) for name in names), user
    assert searched >= 20


def test_a_reply_says_the_option_the_request_asked_for() -> None:
    """"Add 310 Market Street (Division) as my 'Mom's place' address and make it the default." -> "Saved 'Mom's
    place': 310 Market Street, Division." and "add Tariq Fischer ... to my contacts as a favorite" -> "Saved Tariq
    Fischer ... in your address book.": the reply leaves out what the request asked for beyond the saving."""
    address = {"label": "Mom's place", "street": "310 Market Street", "neighborhood": "Division", "make_default": True}
    assert all("default" in text for text in _replies("food_delivery", "add_address", address))
    contact = {"name": "Tariq Fischer", "email": "tariq.fischer@nimbusfood.com", "favorite": True}
    assert all("favorite" in text for text in _replies("email", "add_contact", contact))
    users = [k for k, r in _index("team_chat").rows["user"].items() if not r.get("is_me")][:2]
    channel = {"name": "oncall-handoff", "member_ids": users, "is_private": True}
    assert all("private" in text for text in _replies("team_chat", "create_channel", channel))
