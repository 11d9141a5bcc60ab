"""Behaviour tests of the team_chat server: its main flows and failures on world 0.

Tests find what they need through the tools themselves (the user's team channel, a private
channel they are not in, an archived channel, a colleague's message), so they do not depend on
the exact IDs a world happens to hold. The clock starts at the epoch, Monday 2026-03-16 09:00.
"""

from __future__ import annotations

from typing import Any

from prove.env import Session, registry

from .helpers import fails, ok, session_fixture

WORLD = 0


s = session_fixture("team_chat")


def channels(s: Session, **args: Any) -> dict[str, dict]:
    return {c["name"]: c for c in ok(s, "list_channels", {"limit": 100, "include_archived": True, **args})["channels"]}


def cid(s: Session, name: str) -> str:
    return channels(s)[name]["channel_id"]


def team(s: Session) -> dict:
    return next(c for n, c in channels(s).items() if n.startswith("team-"))


def me(s: Session) -> dict:
    return next(u for u in ok(s, "list_users", {"limit": 100})["users"] if u["is_me"])


def colleague_message(s: Session, channel_id: str) -> dict:
    user = me(s)["user_id"]
    return next(m for m in reversed(ok(s, "list_messages", {"channel_id": channel_id, "limit": 100})["messages"])
                if m["user_id"] != user and not m["is_deleted"])


def not_my_channel(s: Session) -> dict:
    """A public channel the user is not in."""
    return next(c for c in channels(s).values()
                if c["kind"] == "public" and not c["is_member"] and not c["is_archived"])


def private_elsewhere(s: Session) -> str:
    """A private channel the user is not in (known by name, e.g. from a colleague)."""
    return registry.get("team_chat").template(s.world).db.execute(
        "SELECT channel_id FROM channels WHERE kind = 'private' AND channel_id NOT IN "
        "(SELECT channel_id FROM members WHERE user_id = (SELECT user_id FROM users WHERE is_me = 1)) "
        "ORDER BY channel_id").fetchone()[0]


# ----- the world --------------------------------------------------------------------------------------

def test_world_has_the_described_shape():
    template = registry.get("team_chat").template(WORLD)
    n = {t: template.db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in template.tables}
    assert 250 <= n["messages"] <= 600 and n["users"] >= 30 and n["channels"] >= 20 and n["upcoming"] >= 10
    assert n["reactions"] >= 80 and n["members"] >= 150
    assert template.size < 250_000


def test_every_visible_tool_is_documented_for_the_teacher():
    tools = registry.get("team_chat").visible_tools
    assert len(tools) >= 11
    for tool in tools:
        assert len(tool.asks) >= 2, tool.name


def test_the_workspace_at_the_epoch(s):
    cs = channels(s)
    assert cs["general"]["is_member"] and cs["announcements"]["is_member"]
    assert team(s)["is_member"] and team(s)["unread_count"] is not None
    assert any(c["unread_count"] for c in cs.values() if c["is_member"]), "Monday morning leaves unread messages"
    assert any(c["is_archived"] for c in cs.values())
    assert {c["kind"] for c in cs.values()} == {"public", "private", "dm"}
    assert not me(s)["is_admin"]
    assert ok(s, "list_mentions")["total"] > 0


def test_read_tools_do_not_change_state(s):
    before = s.fingerprint()
    t = team(s)["channel_id"]
    m = colleague_message(s, t)
    ok(s, "list_channels")
    ok(s, "get_channel", {"channel_id": t})
    ok(s, "list_messages", {"channel_id": t})
    ok(s, "get_thread", {"message_id": m["message_id"]})
    ok(s, "search_messages", {"query": "the"})
    ok(s, "list_mentions", {"unread_only": True})
    ok(s, "list_pins", {"channel_id": t})
    ok(s, "list_users", {"query": "a"})
    ok(s, "get_user", {"user_id": m["user_id"]})
    ok(s, "list_scheduled_messages", {"include_past": True})
    ok(s, "list_reminders", {"include_done": True})
    assert s.fingerprint() == before
    assert not s.diff()


# ----- channels --------------------------------------------------------------------------------------------

def test_join_post_and_leave_a_public_channel(s):
    c = not_my_channel(s)
    fails(s, "post_message", "not_in_channel", {"channel_id": c["channel_id"], "text": "hi"})
    fails(s, "leave_channel", "not_in_channel", {"channel_id": c["channel_id"]})
    assert ok(s, "list_messages", {"channel_id": c["channel_id"]})["total"] >= 0  # public: readable without joining
    joined = ok(s, "join_channel", {"channel_id": c["channel_id"]})
    assert joined["is_member"] and joined["member_count"] == c["member_count"] + 1 and joined["unread_count"] == 0
    fails(s, "join_channel", "already_member", {"channel_id": c["channel_id"]})
    posted = ok(s, "post_message", {"channel_id": c["channel_id"], "text": "Hi all, happy to be here!"})
    assert ok(s, "list_messages", {"channel_id": c["channel_id"]})["messages"][-1]["message_id"] == posted["message_id"]
    left = ok(s, "leave_channel", {"channel_id": c["channel_id"]})
    assert not left["is_member"] and left["unread_count"] is None
    fails(s, "post_message", "not_in_channel", {"channel_id": c["channel_id"], "text": "again"})


def test_private_channels_need_an_invitation(s):
    secret = private_elsewhere(s)
    fails(s, "join_channel", "private_channel", {"channel_id": secret})
    fails(s, "list_messages", "private_channel", {"channel_id": secret})
    fails(s, "get_channel", "private_channel", {"channel_id": secret})
    fails(s, "invite_to_channel", "private_channel", {"channel_id": secret, "user_ids": [me(s)["user_id"]]})
    assert secret not in [c["channel_id"] for c in channels(s).values()]
    hits = ok(s, "search_messages", {"limit": 100})["messages"]
    assert secret not in {m["channel_id"] for m in hits}


def test_create_a_private_channel_and_invite(s):
    people = [u for u in ok(s, "list_users", {"limit": 100})["users"] if not u["is_me"]]
    c = ok(s, "create_channel", {"name": "#Launch-Crew", "is_private": True, "topic": "Launch prep",
                                 "member_ids": [people[0]["user_id"]]})
    assert c["name"] == "launch-crew" and c["kind"] == "private" and c["member_count"] == 2
    fails(s, "create_channel", "name_taken", {"name": "launch-crew"})
    fails(s, "create_channel", "name_taken", {"name": "general"})
    fails(s, "create_channel", "invalid_name", {"name": "launch crew!"})
    inv = ok(s, "invite_to_channel",
             {"channel_id": c["channel_id"], "user_ids": [people[1]["user_id"], people[2]["user_id"]]})
    assert inv["member_count"] == 4
    fails(s, "invite_to_channel", "already_member", {"channel_id": c["channel_id"], "user_ids": [people[1]["user_id"]]})
    gone = next(u for u in ok(s, "list_users",
                              {"include_deactivated": True, "limit": 100})["users"] if not u["is_active"])
    fails(s, "invite_to_channel", "user_deactivated", {"channel_id": c["channel_id"], "user_ids": [gone["user_id"]]})
    fails(s, "create_channel", "user_deactivated", {"name": "another-one", "member_ids": [gone["user_id"]]})
    assert c["channel_id"] in [x["channel_id"] for x in ok(s, "list_channels", {"kind": "private"})["channels"]]


def test_archive_and_unarchive(s):
    c = ok(s, "create_channel", {"name": "temp-war-room"})
    ok(s, "post_message", {"channel_id": c["channel_id"], "text": "Kicking off"})
    archived = ok(s, "archive_channel", {"channel_id": c["channel_id"]})
    assert archived["is_archived"]
    fails(s, "archive_channel", "already_archived", {"channel_id": c["channel_id"]})
    fails(s, "post_message", "channel_archived", {"channel_id": c["channel_id"], "text": "anyone?"})
    fails(s, "set_channel_topic", "channel_archived", {"channel_id": c["channel_id"], "topic": "x"})
    msg = ok(s, "list_messages", {"channel_id": c["channel_id"]})["messages"][0]
    fails(s, "add_reaction", "channel_archived", {"message_id": msg["message_id"], "emoji": "eyes"})
    fails(s, "edit_message", "channel_archived", {"message_id": msg["message_id"], "text": "edited"})
    assert c["channel_id"] not in [x["channel_id"] for x in ok(s, "list_channels", {"limit": 100})["channels"]]
    ok(s, "unarchive_channel", {"channel_id": c["channel_id"]})
    fails(s, "unarchive_channel", "not_archived", {"channel_id": c["channel_id"]})
    ok(s, "post_message", {"channel_id": c["channel_id"], "text": "Back again"})


def test_default_channel_and_dms_are_special(s):
    general = cid(s, "general")
    fails(s, "leave_channel", "default_channel", {"channel_id": general})
    fails(s, "archive_channel", "default_channel", {"channel_id": general})
    dm = next(c for c in channels(s).values() if c["kind"] == "dm" and not c["is_archived"])
    fails(s, "join_channel", "is_direct_message", {"channel_id": dm["channel_id"]})
    fails(s, "leave_channel", "is_direct_message", {"channel_id": dm["channel_id"]})
    fails(s, "archive_channel", "is_direct_message", {"channel_id": dm["channel_id"]})
    fails(s, "get_channel", "not_found", {"channel_id": "DM-99999"})


def test_topic_and_read_position(s):
    t = team(s)
    ch = ok(s, "set_channel_topic", {"channel_id": t["channel_id"], "topic": "Beta on March 30"})
    assert ch["topic"] == "Beta on March 30"
    unread = next(c for c in channels(s).values() if c["is_member"] and c["unread_count"])
    assert ok(s, "mark_channel_read", {"channel_id": unread["channel_id"]})["unread_count"] == 0
    assert channels(s)[unread["name"]]["unread_count"] == 0
    fails(s, "mark_channel_read", "not_in_channel", {"channel_id": not_my_channel(s)["channel_id"]})


# ----- messages ----------------------------------------------------------------------------------------------

def test_post_with_mentions_and_edit_only_own(s):
    t = team(s)["channel_id"]
    people = ok(s, "get_channel", {"channel_id": t})["members"]
    other = next(p for p in people if p["user_id"] != me(s)["user_id"])
    text = f"@{other['handle']} can you review? cc <@{other['user_id']}> @here"
    posted = ok(s, "post_message", {"channel_id": t, "text": text})
    assert posted["mentioned_user_ids"] == [other["user_id"]] and posted["mentions_channel"]
    edited = ok(s, "edit_message", {"message_id": posted["message_id"], "text": "Never mind, sorted."})
    assert edited["edited_at"] == "2026-03-16T09:00:00" and edited["mentioned_user_ids"] == []
    theirs = colleague_message(s, t)
    fails(s, "edit_message", "not_author", {"message_id": theirs["message_id"], "text": "hijacked"})
    fails(s, "delete_message", "not_author", {"message_id": theirs["message_id"]})
    fails(s, "post_message", "invalid_arguments", {"channel_id": t, "text": "   "})


def test_announcements_are_for_admins(s):
    ann = cid(s, "announcements")
    fails(s, "post_message", "posting_restricted", {"channel_id": ann, "text": "Hello everyone"})
    fails(s, "schedule_message", "posting_restricted",
          {"channel_id": ann, "text": "Later", "post_at": "2026-03-17T09:00:00"})
    post = ok(s, "list_messages", {"channel_id": ann})["messages"][-1]
    reply = ok(s, "reply_in_thread", {"message_id": post["message_id"], "text": "Thanks for the update!"})
    assert reply["thread_id"] == post["message_id"]
    fails(s, "reply_in_thread", "posting_restricted", {"message_id": post["message_id"], "text": "Also here",
                                                       "also_send_to_channel": True})


def test_threads(s):
    t = team(s)["channel_id"]
    root = colleague_message(s, t)
    first = ok(s, "reply_in_thread", {"message_id": root["message_id"], "text": "On it."})
    second = ok(s, "reply_in_thread", {"message_id": first["message_id"], "text": "Done."})
    assert first["thread_id"] == second["thread_id"] == root["message_id"]
    thread = ok(s, "get_thread", {"message_id": second["message_id"]})
    assert thread["root"]["message_id"] == root["message_id"]
    assert [m["message_id"] for m in thread["replies"]][-2:] == [first["message_id"], second["message_id"]]
    assert thread["root"]["reply_count"] == root["reply_count"] + 2
    channel_view = ok(s, "list_messages", {"channel_id": t, "limit": 100})["messages"]
    assert first["message_id"] not in [m["message_id"] for m in channel_view]
    shared = ok(s, "reply_in_thread", {"message_id": root["message_id"], "text": "Summary: shipped.",
                                       "also_send_to_channel": True})
    assert ok(s, "list_messages", {"channel_id": t})["messages"][-1]["message_id"] == shared["message_id"]


def test_delete_keeps_the_thread_but_blocks_new_activity(s):
    t = team(s)["channel_id"]
    mine = ok(s, "post_message", {"channel_id": t, "text": "Who can take the on-call swap?"})
    ok(s, "reply_in_thread", {"message_id": mine["message_id"], "text": "I can"})
    ok(s, "add_reaction", {"message_id": mine["message_id"], "emoji": "eyes"})
    gone = ok(s, "delete_message", {"message_id": mine["message_id"]})
    assert gone["replies_kept"] == 1
    thread = ok(s, "get_thread", {"message_id": mine["message_id"]})
    assert thread["root"]["is_deleted"] and thread["root"]["text"] == "This message was deleted."
    assert thread["root"]["reactions"] == [] and thread["total"] == 1
    fails(s, "delete_message", "message_deleted", {"message_id": mine["message_id"]})
    fails(s, "edit_message", "message_deleted", {"message_id": mine["message_id"], "text": "x"})
    fails(s, "reply_in_thread", "message_deleted", {"message_id": mine["message_id"], "text": "x"})
    fails(s, "add_reaction", "message_deleted", {"message_id": mine["message_id"], "emoji": "tada"})
    fails(s, "pin_message", "message_deleted", {"message_id": mine["message_id"]})
    found = ok(s, "search_messages", {"query": "on-call swap"})["messages"]
    assert mine["message_id"] not in [m["message_id"] for m in found]


def test_direct_messages(s):
    user = me(s)
    other = next(u for u in ok(s, "list_users", {"limit": 100})["users"] if not u["is_me"])
    sent = ok(s, "send_direct_message", {"user_id": other["user_id"], "text": "Got a minute?"})
    assert sent["channel_id"].startswith("DM-")
    again = ok(s, "send_direct_message", {"user_id": other["user_id"], "text": "About the launch."})
    assert again["channel_id"] == sent["channel_id"]
    history = ok(s, "list_messages", {"channel_id": sent["channel_id"]})["messages"]
    assert [m["text"] for m in history[-2:]] == ["Got a minute?", "About the launch."]
    fails(s, "send_direct_message", "cannot_message_self", {"user_id": user["user_id"], "text": "hi me"})
    gone = next(u for u in ok(s, "list_users",
                              {"include_deactivated": True, "limit": 100})["users"] if not u["is_active"])
    fails(s, "send_direct_message", "user_deactivated", {"user_id": gone["user_id"], "text": "hi"})
    fails(s, "send_direct_message", "not_found", {"user_id": "USR-1", "text": "hi"})


def test_search_messages(s):
    t = team(s)["channel_id"]
    posted = ok(s, "post_message", {"channel_id": t, "text": "The Zanzibar migration starts tomorrow"})
    hits = ok(s, "search_messages", {"query": "zanzibar"})
    assert [m["message_id"] for m in hits["messages"]] == [posted["message_id"]]
    by_me = ok(s, "search_messages", {"from_user_id": me(s)["user_id"], "channel_id": t, "limit": 100})["messages"]
    assert posted["message_id"] in [m["message_id"] for m in by_me]
    assert all(m["user_id"] == me(s)["user_id"] for m in by_me)
    window = ok(s, "search_messages",
                {"after": "2026-03-09T00:00:00", "before": "2026-03-10T00:00:00", "limit": 100})["messages"]
    assert window and all("2026-03-09" <= m["posted_at"] < "2026-03-10" for m in window)
    fails(s, "search_messages", "invalid_time", {"after": "yesterday"})
    fails(s, "search_messages", "end_before_start", {"after": "2026-03-10T00:00:00", "before": "2026-03-09T00:00:00"})
    for odd in ("'; DROP TABLE messages; --", "zzqqxx"):
        assert ok(s, "search_messages", {"query": odd})["total"] == 0


# ----- reactions and pins -----------------------------------------------------------------------------------------

def test_reactions(s):
    t = team(s)["channel_id"]
    m = colleague_message(s, t)
    data = ok(s, "add_reaction", {"message_id": m["message_id"], "emoji": ":+1:"})
    mine = next(r for r in data["reactions"] if r["emoji"] == "thumbsup")
    assert mine["reacted_by_me"]
    fails(s, "add_reaction", "already_reacted", {"message_id": m["message_id"], "emoji": "thumbsup"})
    fails(s, "add_reaction", "invalid_emoji", {"message_id": m["message_id"], "emoji": "not-an-emoji"})
    ok(s, "remove_reaction", {"message_id": m["message_id"], "emoji": "thumbsup"})
    fails(s, "remove_reaction", "no_reaction", {"message_id": m["message_id"], "emoji": "thumbsup"})
    outside = not_my_channel(s)
    theirs = ok(s, "list_messages", {"channel_id": outside["channel_id"]})["messages"]
    if theirs:
        fails(s, "add_reaction", "not_in_channel", {"message_id": theirs[-1]["message_id"], "emoji": "eyes"})


def test_pins(s):
    t = team(s)["channel_id"]
    m = colleague_message(s, t)
    before = ok(s, "list_pins", {"channel_id": t})["total"]
    assert ok(s, "pin_message", {"message_id": m["message_id"]})["is_pinned"]
    fails(s, "pin_message", "already_pinned", {"message_id": m["message_id"]})
    pins = ok(s, "list_pins", {"channel_id": t})
    assert pins["total"] == before + 1 and pins["messages"][0]["message_id"] == m["message_id"]
    assert ok(s, "get_channel", {"channel_id": t})["pinned_count"] == before + 1
    ok(s, "unpin_message", {"message_id": m["message_id"]})
    fails(s, "unpin_message", "not_pinned", {"message_id": m["message_id"]})


def test_unpin_takes_the_pins_the_world_holds():
    """The messages unpinning is offered are pinned ones in channels the user is in, and each unpins."""
    server = registry.get("team_chat")
    where = next(p.where for p in server.tools["unpin_message"].params if p.name == "message_id")
    for seed in range(4):
        offered = [r[0] for r in server.template(seed).db.execute(f"SELECT message_id FROM messages WHERE {where}")]
        assert offered, seed
        with Session("team_chat", world=seed) as session:
            for message_id in offered:
                assert ok(session, "unpin_message", {"message_id": message_id})["is_pinned"] is False


# ----- people and status --------------------------------------------------------------------------------------

def test_status_set_expire_and_clear(s):
    u = ok(s, "set_status", {"text": "In a meeting", "emoji": ":spiral_calendar_pad:", "duration_minutes": 30})
    assert u["status_text"] == "In a meeting" and u["status_expires_at"] == "2026-03-16T09:30:00"
    fails(s, "set_status", "invalid_emoji", {"text": "x", "emoji": "no_such_emoji"})
    s.advance(31 * 60)
    assert me(s)["status_text"] is None
    fails(s, "clear_status", "no_status")
    ok(s, "set_status", {"text": "Working remotely", "emoji": "house_with_garden"})
    assert ok(s, "clear_status")["status_text"] is None


def test_some_worlds_hold_a_status_to_clear():
    """In some of the first worlds the user is focusing until 11:00, so clearing needs no status set first."""
    busy = []
    for seed in range(4):
        with Session("team_chat", world=seed) as session:
            if me(session)["status_text"] is None:
                fails(session, "clear_status", "no_status")
                continue
            busy.append(seed)
            assert me(session)["status_expires_at"] == "2026-03-16T11:00:00"
            assert ok(session, "clear_status")["status_text"] is None
    assert 1 <= len(busy) < 4
    assert registry.get("team_chat").tools["clear_status"].needs == ()


def test_other_peoples_statuses_expire(s):
    busy = [u for u in ok(s, "list_users", {"limit": 100})["users"] if u["status_expires_at"]]
    assert busy
    s.advance(8 * 86400)
    after = {u["user_id"]: u for u in ok(s, "list_users", {"limit": 100})["users"]}
    assert all(after[u["user_id"]]["status_text"] is None for u in busy)


# ----- time: colleagues post, scheduled messages, reminders -------------------------------------------------

def test_colleagues_keep_posting_and_mention_the_user(s):
    before = ok(s, "list_mentions", {"unread_only": True})["total"]
    t = team(s)
    s.advance(3600)
    after = ok(s, "list_mentions", {"unread_only": True})
    assert after["total"] == before + 1
    newest = after["messages"][0]
    assert newest["channel_id"] == t["channel_id"] and me(s)["user_id"] in newest["mentioned_user_ids"]
    assert channels(s)[t["name"]]["unread_count"] == t["unread_count"] + 1
    s.advance(3 * 86400)
    later = channels(s)[t["name"]]["unread_count"]
    assert ok(s, "list_mentions")["total"] > after["total"] or later > t["unread_count"] + 1


def test_nothing_is_posted_into_an_archived_channel(s):
    archived = [c for c in channels(s).values() if c["is_archived"] and c["kind"] == "public"]
    counts = {c["channel_id"]: ok(s, "list_messages", {"channel_id": c["channel_id"]})["total"] for c in archived}
    s.advance(4 * 86400)
    assert counts == {c: ok(s, "list_messages", {"channel_id": c})["total"] for c in counts}


def test_scheduled_messages_post_when_due(s):
    t = team(s)["channel_id"]
    fails(s, "schedule_message", "past_date", {"channel_id": t, "text": "x", "post_at": "2026-03-16T08:00:00"})
    fails(s, "schedule_message", "invalid_time", {"channel_id": t, "text": "x", "post_at": "2026-12-31T09:00:00"})
    fails(s, "schedule_message", "invalid_time", {"channel_id": t, "text": "x", "post_at": "tomorrow"})
    sch = ok(s, "schedule_message", {"channel_id": t, "text": "Standup in 5!", "post_at": "2026-03-16T09:55:00"})
    assert sch["status"] == "pending"
    world = next(x for x in ok(s, "list_scheduled_messages")["scheduled_messages"]
                 if x["scheduled_id"] != sch["scheduled_id"])
    ok(s, "cancel_scheduled_message", {"scheduled_id": world["scheduled_id"]})
    fails(s, "cancel_scheduled_message", "not_pending", {"scheduled_id": world["scheduled_id"]})
    s.advance(3600)
    done = next(x for x in ok(s, "list_scheduled_messages", {"include_past": True})["scheduled_messages"]
                if x["scheduled_id"] == sch["scheduled_id"])
    assert done["status"] == "sent" and done["message_id"]
    posted = ok(s, "get_thread", {"message_id": done["message_id"]})["root"]
    assert posted["text"] == "Standup in 5!" and posted["posted_at"] == "2026-03-16T09:55:00"
    # going out by itself does not mark the channel read: the manager's 09:xx question stays unread
    assert any(m["channel_id"] == t for m in ok(s, "list_mentions", {"unread_only": True})["messages"])
    fails(s, "cancel_scheduled_message", "not_pending", {"scheduled_id": sch["scheduled_id"]})
    s.advance(86400)  # the cancelled one never goes out
    assert next(x for x in ok(s, "list_scheduled_messages", {"include_past": True})["scheduled_messages"]
                if x["scheduled_id"] == world["scheduled_id"])["status"] == "cancelled"


def test_scheduled_message_fails_if_the_channel_is_archived(s):
    c = ok(s, "create_channel", {"name": "short-lived"})
    sch = ok(s, "schedule_message",
             {"channel_id": c["channel_id"], "text": "Hello later", "post_at": "2026-03-16T12:00:00"})
    ok(s, "archive_channel", {"channel_id": c["channel_id"]})
    s.advance(4 * 3600)
    status = next(x for x in ok(s, "list_scheduled_messages", {"include_past": True})["scheduled_messages"]
                  if x["scheduled_id"] == sch["scheduled_id"])["status"]
    assert status == "failed"


def test_reminders_arrive_from_slackbot(s):
    t = team(s)["channel_id"]
    m = colleague_message(s, t)
    fails(s, "set_reminder", "past_date", {"text": "x", "remind_at": "2026-03-15T10:00:00"})
    r = ok(s, "set_reminder",
           {"text": "reply to the thread", "remind_at": "2026-03-16T10:00:00", "message_id": m["message_id"]})
    fails(s, "set_reminder", "not_found", {"text": "x", "remind_at": "2026-03-16T10:00:00", "message_id": "CM-1"})
    s.advance(3600)
    reminders = {x["reminder_id"]: x for x in ok(s, "list_reminders", {"include_done": True})["reminders"]}
    assert reminders[r["reminder_id"]]["status"] == "done"
    bot = next(c for c in channels(s).values() if c["kind"] == "dm" and c["name"] == "Slackbot")
    last = ok(s, "list_messages", {"channel_id": bot["channel_id"]})["messages"][-1]
    assert last["text"].startswith("Reminder: reply to the thread") and m["message_id"] in last["text"]
    assert last["posted_at"] == "2026-03-16T10:00:00"
    pending = ok(s, "list_reminders")["reminders"]
    ok(s, "delete_reminder", {"reminder_id": pending[0]["reminder_id"]})
    fails(s, "delete_reminder", "not_found", {"reminder_id": pending[0]["reminder_id"]})


def test_replaying_the_same_calls_gives_the_same_state():
    prints = []
    for _ in range(2):
        with Session("team_chat", world=WORLD) as s:
            t = team(s)["channel_id"]
            ok(s, "post_message", {"channel_id": t, "text": "hello"})
            ok(s, "create_channel", {"name": "replay-check"})
            s.advance(86400)
            prints.append(s.fingerprint())
    assert prints[0] == prints[1]


# ----- what the sampler offers, and the values drawn with it ------------------------------------------

def offered(tool: str, param: str) -> list[str]:
    """The rows of world 0 that a parameter's entity kind (narrowed by its `where`) offers the sampler."""
    server = registry.get("team_chat")
    p = next(p for p in server.tools[tool].params if p.name == param)
    kind = server.entities[p.entity]
    db = server.template(0).db
    return [r[0] for r in db.execute(f'SELECT "{kind.key}" FROM "{kind.table}" WHERE {p.where or kind.live or "1"}')]


def test_posts_go_to_channels_the_user_can_post_in(s):
    for tool in ("post_message", "schedule_message"):
        ids = offered(tool, "channel_id")
        assert ids
        for channel_id in ids:
            channel = ok(s, "get_channel", {"channel_id": channel_id})
            assert channel["kind"] != "dm" and channel["is_member"] and not channel["is_archived"]
            assert channel["name"].startswith(("team-", "proj-")) or channel["name"] == "engineering"
    first = offered("post_message", "channel_id")[0]
    ok(s, "post_message", {"channel_id": first, "text": "Deploy is done, all green."})


def test_a_new_channels_name_topic_and_purpose_are_drawn_together():
    tools = registry.get("team_chat").tools
    triples = tools["create_channel"].values["name, topic, purpose"]
    by_name = {n: (t, p) for n, t, p in triples}
    assert "design" in by_name["design-reviews"][0].lower() and "design" in by_name["design-reviews"][1]
    assert "customer" in by_name["customer-feedback"][0].lower()
    statuses = {t: (e, d) for t, e, d in tools["set_status"].values["text, emoji, duration_minutes"]}
    assert statuses["Out sick"][0] == "face_with_thermometer" and statuses["At lunch"][1] <= 60


def test_an_edit_corrects_the_users_message_with_a_typo(s):
    from prove.servers.team_chat.world import TYPO, TYPO_FIXED
    (typo_id,) = offered("edit_message", "message_id")
    found = ok(s, "search_messages", {"query": "Thursady"})["messages"]
    assert [m["message_id"] for m in found] == [typo_id] and found[0]["text"] == TYPO
    assert registry.get("team_chat").tools["edit_message"].values["text"] == (TYPO_FIXED,)
    edited = ok(s, "edit_message", {"message_id": typo_id, "text": TYPO_FIXED})
    assert edited["text"] == TYPO_FIXED and edited["edited_at"]


def test_reactions_to_take_back_are_the_users_own(s):
    tools = registry.get("team_chat").tools
    assert tools["remove_reaction"].values["emoji"] == tools["add_reaction"].values["emoji"]
    emojis = set(tools["remove_reaction"].values["emoji"])
    db = registry.get("team_chat").template(0).db
    (user,) = db.execute("SELECT user_id FROM users WHERE is_me = 1").fetchone()
    offered_ids = offered("remove_reaction", "message_id")
    assert len(offered_ids) >= 3
    for message_id in offered_ids:
        mine = {e for (e,) in db.execute("SELECT emoji FROM reactions WHERE message_id = ? AND user_id = ?",
                                         (message_id, user))}
        emoji = sorted(mine & emojis)[0]  # one the values can name
        ok(s, "remove_reaction", {"message_id": message_id, "emoji": emoji})


def test_a_channel_is_described_by_its_topic_and_who_can_post():
    server = registry.get("team_chat")
    tool = server.tools["get_channel"]
    # (a channel made in the conversation has no topic yet, and is told so)
    assert all("{result.topic}" in r.text or (r.binds == {"result.topic": None} and "no topic" in r.text)
               for r in tool.replies)
    assert any("{result.posting_text}" in r.text for r in tool.replies)
    p = next(p for p in tool.params if p.name == "channel_id")
    db = server.template(WORLD).db
    offered = db.execute(f"SELECT topic, kind FROM channels WHERE {p.where}").fetchall()
    assert offered and all(topic and kind != "dm" for topic, kind in offered)


def test_a_reminder_about_a_message_is_to_get_back_to_a_colleagues_message():
    server = registry.get("team_chat")
    tool = server.tools["set_reminder"]
    about = [a for a in tool.asks if "{message_id}" in a.text]
    assert about and all(a.binds.get("text") for a in about)  # never a task unrelated to the message
    assert all("message_id" not in a.slots for a in tool.asks if "text" not in a.binds)
    p = next(p for p in tool.params if p.name == "message_id")
    db = server.template(WORLD).db
    authors = db.execute(f"SELECT DISTINCT u.is_bot, u.is_me FROM messages JOIN users u USING (user_id) "
                         f"WHERE {p.where}").fetchall()
    assert authors and all(tuple(a) == (0, 0) for a in authors)


def test_thread_replies_answer_a_colleague_and_threads_read_are_ones_with_replies(s):
    server = registry.get("team_chat")
    db = server.template(WORLD).db

    def where(tool: str) -> str:
        return next(p.where for p in server.tools[tool].params if p.name == "message_id")

    authors = db.execute("SELECT DISTINCT u.is_me, u.is_bot, c.kind FROM messages m JOIN users u ON u.user_id = "
                         f"m.user_id JOIN channels c ON c.channel_id = m.channel_id WHERE "
                         f"m.message_id IN (SELECT message_id FROM messages WHERE {where('reply_in_thread')})").fetchall()
    assert authors and all(me == 0 and bot == 0 and kind != "dm" for me, bot, kind in authors)
    threads = [m for (m,) in db.execute(f"SELECT message_id FROM messages WHERE {where('get_thread')}")]
    assert threads
    for message_id in threads:
        assert ok(s, "get_thread", {"message_id": message_id})["replies"]


def test_no_two_people_post_the_same_words() -> None:
    """"Marketing wants screenshots of Mercury for the launch post." from Tariq Fischer and again from
    Adrian Morgan: a world's lines are said once before any comes again, by anyone."""
    server = registry.get("team_chat")
    for world in range(6):
        said: dict[str, set[str]] = {}
        for text, author in server.template(world).db.execute(
                "SELECT replace(text, '@channel ', ''), user_id FROM messages WHERE thread_id IS NULL"):
            said.setdefault(text, set()).add(author)
        assert not [t for t, who in said.items() if len(who) > 1], world
