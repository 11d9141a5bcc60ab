"""Behaviour tests of the email server: its main flows and failures on world 0.

Tests find what they need through the tools themselves (the user's address, an unread message,
the draft without recipients, the oversized video), so they do not depend on the exact IDs a
world happens to hold. The clock starts at the epoch, Monday 2026-03-16 09:00.
"""

from __future__ import annotations

import re
from typing import Any

from prove.env import Session, registry
from prove.env.asks import as_ask

from .helpers import fails, ok, replies_for, session_fixture

WORLD = 0


s = session_fixture("email")


def me(s: Session) -> str:
    return ok(s, "get_mailbox")["primary_address"]


def folder(s: Session, folder_id: str, **args: Any) -> list[dict]:
    return ok(s, "list_messages", {"folder_id": folder_id, "limit": 100, **args})["messages"]


def counts(s: Session) -> dict[str, tuple[int, int]]:
    return {f["folder_id"]: (f["total"], f["unread"]) for f in ok(s, "list_folders")["folders"]}


def received(s: Session) -> dict:
    """A received message in the inbox."""
    return next(m for m in folder(s, "inbox") if m["status"] == "received")


def drafts(s: Session) -> list[dict]:
    return folder(s, "drafts")


def custom_folder(s: Session, name: str) -> str:
    return next(f["folder_id"] for f in ok(s, "list_folders")["folders"] if f["name"] == name)


def video(s: Session) -> dict:
    for m in ok(s, "search_messages", {"has_attachment": True, "limit": 100})["messages"]:
        full = ok(s, "get_message", {"message_id": m["message_id"]})
        if sum(a["size_kb"] for a in full["attachments"]) > 25_600:
            return full
    raise AssertionError("world 0 should hold a message with attachments over 25 MB")


# ----- the world --------------------------------------------------------------------------------------

def test_world_has_the_described_shape():
    template = registry.get("email").template(WORLD)
    n = {t: template.db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in template.tables}
    assert 200 <= n["messages"] <= 400 and n["recipients"] >= n["messages"]
    assert n["contacts"] >= 20 and n["inbound"] >= 8 and n["filters"] >= 3
    assert template.size < 250_000


def test_every_visible_tool_is_documented_for_the_teacher():
    tools = registry.get("email").visible_tools
    assert len(tools) >= 17
    for tool in tools:
        assert len(tool.asks) >= 2, tool.name


def test_the_mailbox_at_the_epoch(s):
    box = ok(s, "get_mailbox")
    assert box["primary_address"].endswith(".com") and box["aliases"]
    assert box["signature"] and box["drafts"] >= 3 and box["scheduled"] == 1 and box["inbox_unread"] > 0
    assert len(box["blocked_senders"]) == 2 and box["vacation"]["enabled"] is False
    c = counts(s)
    assert {"inbox", "sent", "drafts", "scheduled", "archive", "spam", "trash"} <= set(c)
    assert c["inbox"][0] > 20 and c["sent"][0] > 20 and c["trash"][0] > 0


def test_read_tools_do_not_change_state(s):
    before = s.fingerprint()
    m = received(s)
    ok(s, "get_mailbox")
    ok(s, "list_folders")
    ok(s, "list_labels")
    ok(s, "list_filters")
    ok(s, "list_app_passwords")
    ok(s, "search_contacts", {"query": "a"})
    ok(s, "search_messages", {"query": "the", "unread_only": True})
    ok(s, "get_message", {"message_id": m["message_id"]})
    ok(s, "get_thread", {"thread_id": m["thread_id"]})
    assert s.fingerprint() == before
    assert not s.diff()


# ----- reading and organizing --------------------------------------------------------------------------

def test_mark_read_and_unread_change_the_counts(s):
    unread = folder(s, "inbox", unread_only=True)
    assert unread
    before = counts(s)["inbox"][1]
    data = ok(s, "mark_read", {"message_ids": [m["message_id"] for m in unread[:2]]})
    assert data["changed"] == len(unread[:2]) and all(m["is_read"] for m in data["messages"])
    assert counts(s)["inbox"][1] == before - len(unread[:2])
    again = ok(s, "mark_read", {"message_ids": [unread[0]["message_id"]]})
    assert again["changed"] == 0
    ok(s, "mark_read", {"message_ids": [unread[0]["message_id"]], "read": False})
    assert counts(s)["inbox"][1] == before - len(unread[:2]) + 1
    fails(s, "mark_read", "not_found", {"message_ids": [unread[0]["message_id"], "MSG-99999"]})
    fails(s, "mark_read", "is_draft", {"message_ids": [drafts(s)[0]["message_id"]]})
    fails(s, "mark_read", "invalid_arguments", {"message_ids": []})


def test_star_and_unstar(s):
    m = next(x for x in folder(s, "inbox") if not x["is_starred"])
    assert ok(s, "star_message", {"message_id": m["message_id"]})["is_starred"]
    fails(s, "star_message", "already_starred", {"message_id": m["message_id"]})
    assert m["message_id"] in [x["message_id"] for x in folder(s, "inbox", starred_only=True)]
    ok(s, "star_message", {"message_id": m["message_id"], "starred": False})
    fails(s, "star_message", "not_starred", {"message_id": m["message_id"], "starred": False})


def test_archive_trash_restore_and_empty_trash(s):
    m = received(s)
    mid = m["message_id"]
    moved = ok(s, "archive_message", {"message_id": mid})
    assert moved["message"]["folder_id"] == "archive" and moved["from_folder_id"] == "inbox"
    fails(s, "archive_message", "already_archived", {"message_id": mid})
    assert mid not in [x["message_id"] for x in folder(s, "inbox")]

    trashed = ok(s, "trash_message", {"message_id": mid})
    assert trashed["message"]["folder_id"] == "trash" and trashed["from_folder_id"] == "archive"
    fails(s, "trash_message", "already_in_trash", {"message_id": mid})
    assert ok(s, "restore_message", {"message_id": mid})["message"]["folder_id"] == "archive"
    fails(s, "restore_message", "not_in_trash", {"message_id": mid})

    ok(s, "trash_message", {"message_id": mid})
    in_trash = counts(s)["trash"][0]
    emptied = ok(s, "empty_trash")
    assert emptied["total"] == in_trash and mid in emptied["deleted_ids"]
    assert counts(s)["trash"][0] == 0
    fails(s, "empty_trash", "trash_empty")
    fails(s, "get_message", "not_found", {"message_id": mid})
    fails(s, "restore_message", "not_found", {"message_id": mid})


def test_restore_puts_world_trash_back_where_it_came_from(s):
    m = folder(s, "trash")[0]
    back = ok(s, "restore_message", {"message_id": m["message_id"]})
    assert back["message"]["folder_id"] not in ("trash", "drafts", "sent")


def test_move_rules(s):
    m = received(s)
    news = custom_folder(s, "Newsletters")
    ok(s, "move_message", {"message_id": m["message_id"], "folder_id": news})
    assert m["message_id"] in [x["message_id"] for x in folder(s, news)]
    fails(s, "move_message", "already_in_folder", {"message_id": m["message_id"], "folder_id": news})
    fails(s, "move_message", "invalid_destination", {"message_id": m["message_id"], "folder_id": "sent"})
    fails(s, "move_message", "invalid_destination", {"message_id": m["message_id"], "folder_id": "drafts"})
    fails(s, "move_message", "invalid_destination",
          {"message_id": folder(s, "sent")[0]["message_id"], "folder_id": "spam"})
    fails(s, "move_message", "not_found", {"message_id": m["message_id"], "folder_id": "FLD-99999"})
    fails(s, "move_message", "is_draft", {"message_id": drafts(s)[0]["message_id"], "folder_id": "archive"})
    fails(s, "trash_message", "is_draft", {"message_id": drafts(s)[0]["message_id"]})
    # system folders accept their IDs in any case
    assert ok(s, "move_message",
              {"message_id": m["message_id"], "folder_id": "INBOX"})["message"]["folder_id"] == "inbox"


def test_folders_create_rename_delete(s):
    f = ok(s, "create_folder", {"name": "Taxes 2025"})
    assert f["kind"] == "custom" and f["total"] == 0
    fails(s, "create_folder", "duplicate_name", {"name": "taxes 2025"})
    fails(s, "create_folder", "duplicate_name", {"name": "inbox"})
    ok(s, "move_message", {"message_id": received(s)["message_id"], "folder_id": f["folder_id"]})
    fails(s, "delete_folder", "folder_not_empty", {"folder_id": f["folder_id"]})
    fails(s, "delete_folder", "system_folder", {"folder_id": "inbox"})
    fails(s, "rename_folder", "system_folder", {"folder_id": "trash", "name": "Bin"})
    assert ok(s, "rename_folder", {"folder_id": f["folder_id"], "name": "Taxes"})["name"] == "Taxes"
    fails(s, "rename_folder", "duplicate_name", {"folder_id": f["folder_id"], "name": "Receipts"})

    empty = ok(s, "create_folder", {"name": "Old stuff"})
    rule = ok(s, "create_filter",
              {"name": "Old", "from_contains": "linkedin.com", "move_to_folder_id": empty["folder_id"]})
    gone = ok(s, "delete_folder", {"folder_id": empty["folder_id"]})
    assert gone["removed_filter_ids"] == [rule["filter"]["filter_id"]]
    assert rule["filter"]["filter_id"] not in [x["filter_id"] for x in ok(s, "list_filters")["filters"]]


def test_labels(s):
    label = ok(s, "create_label", {"name": "Q2 planning", "color": "blue"})
    fails(s, "create_label", "duplicate_name", {"name": "q2 PLANNING"})
    m = received(s)
    data = ok(s, "label_message", {"message_id": m["message_id"], "label_id": label["label_id"]})
    assert label["label_id"] in data["message"]["label_ids"]
    fails(s, "label_message", "already_labeled", {"message_id": m["message_id"], "label_id": label["label_id"]})
    tagged = ok(s, "list_messages", {"folder_id": "inbox", "label_id": label["label_id"]})
    assert [x["message_id"] for x in tagged["messages"]] == [m["message_id"]]
    assert next(x for x in ok(s, "list_labels")["labels"] if x["label_id"] == label["label_id"])["total"] == 1
    ok(s, "unlabel_message", {"message_id": m["message_id"], "label_id": label["label_id"]})
    fails(s, "unlabel_message", "not_labeled", {"message_id": m["message_id"], "label_id": label["label_id"]})
    fails(s, "label_message", "not_found", {"message_id": m["message_id"], "label_id": "LBL-99999"})


# ----- search --------------------------------------------------------------------------------------------

def test_search_by_sender_dates_and_attachments(s):
    m = received(s)
    by_sender = ok(s, "search_messages", {"sender": m["from_address"].upper(), "limit": 100})
    assert by_sender["total"] >= 1
    assert all(x["from_address"] == m["from_address"] for x in by_sender["messages"])
    day = m["date"][:10]
    window = ok(s, "search_messages", {"after": day, "before": day + "T23:59:59", "limit": 100})
    assert m["message_id"] in [x["message_id"] for x in window["messages"]]
    assert all(day <= x["date"] < day + "T23:59:59" for x in window["messages"])
    with_files = ok(s, "search_messages", {"has_attachment": True, "limit": 100})["messages"]
    assert with_files and all(x["has_attachments"] for x in with_files)
    fails(s, "search_messages", "invalid_time", {"after": "last tuesday"})
    fails(s, "search_messages", "end_before_start", {"after": "2026-03-10", "before": "2026-03-01"})
    for odd in ("'; DROP TABLE messages; --", "zzzqqqxx"):
        assert ok(s, "search_messages", {"query": odd})["total"] == 0
    literal = ok(s, "search_messages", {"query": "%", "limit": 100})["messages"]  # '%' is a character, not a wildcard
    assert all("%" in ok(s, "get_message", {"message_id": x["message_id"]})["body"] + x["subject"] for x in literal)


def test_search_skips_spam_and_trash_unless_asked(s):
    spam = folder(s, "spam")[0]
    general = ok(s, "search_messages", {"query": spam["subject"], "limit": 100})["messages"]
    assert spam["message_id"] not in [x["message_id"] for x in general]
    named = ok(s, "search_messages", {"query": spam["subject"], "folder_id": "spam"})["messages"]
    assert spam["message_id"] in [x["message_id"] for x in named]


# ----- sending ---------------------------------------------------------------------------------------------

def test_send_to_myself_lands_in_sent_and_inbox(s):
    address = me(s)
    sent = ok(s, "send_message", {"to": [address.upper()], "subject": "Reminder", "body": "Renew the passport."})
    assert sent["folder_id"] == "sent" and sent["status"] == "sent" and sent["to"] == [address]
    assert sent["body"].startswith("Renew the passport.") and "-- \n" in sent["body"]
    copy = ok(s, "get_message", {"message_id": sent["inbox_copy_id"]})
    assert copy["folder_id"] == "inbox" and not copy["is_read"] and copy["thread_id"] == sent["thread_id"]
    assert folder(s, "inbox")[0]["message_id"] == copy["message_id"]
    assert folder(s, "sent")[0]["message_id"] == sent["message_id"]


def test_send_to_someone_else_and_from_an_alias(s):
    box = ok(s, "get_mailbox")
    sent = ok(s, "send_message", {"to": ["ana.lopez@example.com"], "cc": ["ana.lopez@example.com", "sam@example.com"],
                                  "subject": "Hello", "body": "Hi Ana", "from_address": box["aliases"][0],
                                  "include_signature": False})
    assert sent["inbox_copy_id"] is None and sent["from_address"] == box["aliases"][0]
    assert sent["cc"] == ["sam@example.com"] and sent["body"] == "Hi Ana"
    fails(s, "send_message", "invalid_address", {"to": ["Ana <ana@example.com>"], "subject": "x", "body": "y"})
    fails(s, "send_message", "invalid_address", {"to": ["not-an-address"], "subject": "x", "body": "y"})
    fails(s, "send_message", "not_your_address", {"to": ["a@example.com"], "subject": "x", "body": "y",
                                                  "from_address": "ceo@example.com"})
    many = [f"p{i}@example.com" for i in range(30)]
    fails(s, "send_message", "too_many_recipients", {"to": many, "cc": [f"q{i}@example.com" for i in range(25)],
                                                     "subject": "x", "body": "y"})


def test_reply_all_stays_in_the_thread(s):
    m = next(x for x in folder(s, "inbox") if x["status"] == "received"
             and len(ok(s, "get_message", {"message_id": x["message_id"]})["cc"]) > 0) \
        if any(ok(s, "get_message", {"message_id": x["message_id"]})["cc"] for x in folder(s, "inbox")) else received(s)
    original = ok(s, "get_message", {"message_id": m["message_id"]})
    reply = ok(s, "reply_to_message", {"message_id": m["message_id"], "body": "Thanks, all.", "reply_all": True})
    assert reply["thread_id"] == original["thread_id"] and reply["in_reply_to"] == original["message_id"]
    assert reply["subject"].startswith("Re:") and reply["to"] == [original["from_address"]]
    mine = {me(s), *ok(s, "get_mailbox")["aliases"]}
    assert not set(reply["to"] + reply["cc"]) & mine
    assert set(reply["cc"]) == set(original["to"] + original["cc"]) - mine - set(reply["to"])
    thread = ok(s, "get_thread", {"thread_id": original["thread_id"]})
    assert thread["messages"][-1]["message_id"] == reply["message_id"]
    again = ok(s, "reply_to_message", {"message_id": reply["message_id"], "body": "One more thing."})
    assert again["subject"] == reply["subject"] and again["to"] == reply["to"]
    fails(s, "reply_to_message", "is_draft", {"message_id": drafts(s)[0]["message_id"], "body": "x"})
    fails(s, "reply_to_message", "not_found", {"message_id": "MSG-1", "body": "x"})


def test_forwarding_attachments_over_the_limit(s):
    big = video(s)
    err = fails(s, "forward_message", "attachment_too_large",
                {"message_id": big["message_id"], "to": ["mom@example.com"]})
    assert "25" in err["message"]
    fwd = ok(s, "forward_message",
             {"message_id": big["message_id"], "to": ["mom@example.com"], "include_attachments": False,
                                    "note": "Look at this!"})
    assert fwd["subject"].startswith("Fwd:") and fwd["attachments"] == [] and fwd["thread_id"] == big["thread_id"]
    assert "Forwarded message" in fwd["body"] and big["body"] in fwd["body"]
    small = next(m for m in ok(s, "search_messages",
                               {"has_attachment": True, "folder_id": "inbox", "limit": 100})["messages"])
    full = ok(s, "get_message", {"message_id": small["message_id"]})
    if sum(a["size_kb"] for a in full["attachments"]) <= 25_600:
        sent = ok(s, "forward_message", {"message_id": small["message_id"], "to": ["sam@example.com"]})
        assert [a["filename"] for a in sent["attachments"]] == [a["filename"] for a in full["attachments"]]
        copies = {a["attachment_id"] for a in sent["attachments"]}
        assert copies.isdisjoint(a["attachment_id"] for a in full["attachments"])


# ----- drafts ------------------------------------------------------------------------------------------------

def test_draft_lifecycle_and_sending_twice(s):
    d = ok(s, "create_draft", {"subject": "Offsite venues", "body": "Options so far:"})
    did = d["message_id"]
    assert d["status"] == "draft" and d["folder_id"] == "drafts" and d["to"] == []
    fails(s, "send_draft", "no_recipients", {"draft_id": did})
    fails(s, "update_draft", "nothing_to_update", {"draft_id": did})
    d = ok(s, "update_draft",
           {"draft_id": did, "to": ["events@example.com"], "body": "Options so far: the lake house."})
    assert d["to"] == ["events@example.com"] and d["subject"] == "Offsite venues"
    d = ok(s, "add_attachment", {"draft_id": did, "filename": "venues.pdf", "size_kb": 20_000})
    att = d["attachments"][0]
    assert att["mime_type"] == "application/pdf"
    fails(s, "add_attachment", "attachment_too_large", {"draft_id": did, "filename": "video.mp4", "size_kb": 6_000})
    fails(s, "add_attachment", "invalid_filename", {"draft_id": did, "filename": "../../etc/passwd", "size_kb": 1})
    ok(s, "add_attachment", {"draft_id": did, "filename": "map.png", "size_kb": 5_600})
    sent = ok(s, "send_draft", {"draft_id": did})
    assert sent["message_id"] == did and sent["status"] == "sent" and sent["folder_id"] == "sent"
    assert len(sent["attachments"]) == 2 and sent["date"] == "2026-03-16T09:00:00"
    assert did not in [m["message_id"] for m in drafts(s)]
    fails(s, "send_draft", "already_sent", {"draft_id": did})
    fails(s, "update_draft", "already_sent", {"draft_id": did, "body": "edit"})
    fails(s, "delete_draft", "already_sent", {"draft_id": did})
    fails(s, "add_attachment", "already_sent", {"draft_id": did, "filename": "a.txt", "size_kb": 1})
    fails(s, "remove_attachment", "already_sent", {"attachment_id": att["attachment_id"]})
    fails(s, "send_draft", "not_a_draft", {"draft_id": received(s)["message_id"]})


def test_world_draft_without_recipients(s):
    empty = next(d for d in drafts(s) if not d["to"])
    fails(s, "send_draft", "no_recipients", {"draft_id": empty["message_id"]})


def test_reply_draft_then_delete(s):
    m = received(s)
    d = ok(s, "create_draft", {"reply_to_message_id": m["message_id"], "body": "Let me think about it."})
    assert d["thread_id"] == m["thread_id"] and d["to"] == [m["from_address"]] and d["subject"].startswith("Re:")
    with_file = ok(s, "add_attachment", {"draft_id": d["message_id"], "filename": "plan.xlsx", "size_kb": 40})
    removed = ok(s, "remove_attachment", {"attachment_id": with_file["attachments"][0]["attachment_id"]})
    assert removed["draft"]["attachments"] == []
    gone = ok(s, "delete_draft", {"draft_id": d["message_id"]})
    assert gone["draft_id"] == d["message_id"]
    fails(s, "delete_draft", "not_found", {"draft_id": d["message_id"]})
    assert d["message_id"] not in [x["message_id"] for x in ok(s, "get_thread",
                                                               {"thread_id": m["thread_id"]})["messages"]]


def test_scheduled_send_goes_out_when_the_clock_passes(s):
    d = ok(s, "create_draft", {"to": ["team@example.com"], "subject": "Friday notes", "body": "Notes attached."})
    fails(s, "send_draft", "past_date", {"draft_id": d["message_id"], "send_at": "2026-03-16T08:00:00"})
    fails(s, "send_draft", "invalid_time", {"draft_id": d["message_id"], "send_at": "next friday"})
    sch = ok(s, "send_draft", {"draft_id": d["message_id"], "send_at": "2026-03-16T15:00:00"})
    assert sch["status"] == "scheduled" and sch["folder_id"] == "scheduled" and sch["date"] == "2026-03-16T15:00:00"
    fails(s, "send_draft", "already_scheduled", {"draft_id": d["message_id"]})
    fails(s, "update_draft", "already_scheduled", {"draft_id": d["message_id"], "body": "x"})
    assert len(folder(s, "scheduled")) == 2  # the world's status update and this one
    s.advance(3 * 3600)  # 12:00: not yet
    assert ok(s, "get_message", {"message_id": d["message_id"]})["status"] == "scheduled"
    s.advance(4 * 3600)  # 16:00
    out = ok(s, "get_message", {"message_id": d["message_id"]})
    assert out["status"] == "sent" and out["folder_id"] == "sent" and out["date"] == "2026-03-16T15:00:00"
    fails(s, "cancel_scheduled_send", "not_scheduled", {"message_id": d["message_id"]})


def test_cancel_the_worlds_scheduled_message(s):
    sch = folder(s, "scheduled")[0]
    back = ok(s, "cancel_scheduled_send", {"message_id": sch["message_id"]})
    assert back["status"] == "draft" and back["folder_id"] == "drafts"
    s.advance(2 * 86400)
    assert ok(s, "get_message", {"message_id": sch["message_id"]})["status"] == "draft"
    fails(s, "cancel_scheduled_send", "not_scheduled", {"message_id": sch["message_id"]})


def test_world_scheduled_message_is_sent_the_next_morning(s):
    sch = folder(s, "scheduled")[0]
    s.advance(86400)  # Tuesday 09:00
    sent = ok(s, "get_message", {"message_id": sch["message_id"]})
    assert sent["status"] == "sent" and sent["date"] == "2026-03-17T08:00:00"


# ----- arriving mail, filters, spam, vacation ----------------------------------------------------------------

def test_mail_arrives_as_the_clock_moves(s):
    before = counts(s)["inbox"]
    s.advance(3600)  # 10:00: the manager's note has arrived
    after = counts(s)["inbox"]
    assert after[0] > before[0] and after[1] > before[1]
    newest = folder(s, "inbox")[0]
    assert newest["subject"] == "Quick sync today?" and not newest["is_read"] and "LBL" in "".join(newest["label_ids"])
    assert newest["is_starred"]  # the manager filter stars it
    s.advance(5 * 86400)
    assert counts(s)["inbox"][0] > after[0]
    replies = [m for m in folder(s, "inbox") if m["subject"].startswith("Re:") and m["date"] > "2026-03-16T09:00:00"]
    assert replies and all(ok(s, "get_message", {"message_id": m["message_id"]})["in_reply_to"] for m in replies)


def test_filters_file_arriving_mail_and_can_apply_now(s):
    news = custom_folder(s, "Newsletters")
    s.advance(5 * 86400)
    arrived = [m for m in folder(s, news) if m["date"] > "2026-03-16T09:00:00"]
    assert arrived, "newsletters arriving this week are filed by the filters"

    fails(s, "create_filter", "missing_condition", {"name": "x", "mark_read": True})
    fails(s, "create_filter", "missing_action", {"name": "x", "from_contains": "github.com"})
    fails(s, "create_filter", "invalid_destination",
          {"name": "x", "from_contains": "github.com", "move_to_folder_id": "sent"})
    fails(s, "create_filter", "duplicate_name", {"name": "newsletters", "from_contains": "x", "star": True})
    inbox_github = [m for m in folder(s, "inbox") if "github.com" in m["from_address"]]
    if not inbox_github:
        inbox_github = [m for m in folder(s, "inbox") if m["status"] == "received"][:1]
    target = inbox_github[0]["from_address"]
    rule = ok(s, "create_filter",
              {"name": "Bots", "from_contains": target, "move_to_folder_id": "archive", "mark_read": True,
                                   "apply_to_existing": True})
    assert rule["total"] >= 1
    assert all(ok(s, "get_message", {"message_id": m})["folder_id"] == "archive" for m in rule["applied_to"])
    assert not [m for m in folder(s, "inbox") if m["from_address"] == target]
    ok(s, "delete_filter", {"filter_id": rule["filter"]["filter_id"]})
    fails(s, "delete_filter", "not_found", {"filter_id": rule["filter"]["filter_id"]})


def test_report_spam_blocks_the_sender_and_later_mail(s):
    address = me(s)
    m = received(s)
    rep = ok(s, "report_spam", {"message_id": m["message_id"]})
    assert rep["message"]["folder_id"] == "spam" and rep["blocked_sender"] == m["from_address"]
    assert m["from_address"] in ok(s, "get_mailbox")["blocked_senders"]
    fails(s, "report_spam", "already_spam", {"message_id": m["message_id"]})
    fails(s, "report_spam", "not_received", {"message_id": folder(s, "sent")[0]["message_id"]})
    # mail the user sends to themselves is filtered too: block the user's own address
    mine = ok(s, "send_message", {"to": [address], "subject": "ping", "body": "x"})
    rep = ok(s, "report_spam", {"message_id": mine["inbox_copy_id"]})
    again = ok(s, "send_message", {"to": [address], "subject": "ping 2", "body": "y"})
    assert ok(s, "get_message", {"message_id": again["inbox_copy_id"]})["folder_id"] == "spam"

    back = ok(s, "mark_not_spam", {"message_id": m["message_id"]})
    assert back["message"]["folder_id"] == "inbox" and back["unblocked_sender"] == m["from_address"]
    fails(s, "mark_not_spam", "not_spam", {"message_id": m["message_id"]})
    fails(s, "unblock_sender", "not_blocked", {"address": m["from_address"]})


def test_blocked_sender_mail_goes_to_spam_until_unblocked(s):
    blocked = ok(s, "get_mailbox")["blocked_senders"]
    spam_before = counts(s)["spam"][0]
    s.advance(86400)
    assert counts(s)["spam"][0] == spam_before + 1  # a blocked sender wrote during the day
    newest = folder(s, "spam")[0]
    assert newest["from_address"] in blocked
    un = ok(s, "unblock_sender", {"address": blocked[0].upper()})
    assert un["address"] == blocked[0] and un["still_blocked"] == blocked[1:]
    fails(s, "unblock_sender", "invalid_address", {"address": "nobody"})


def test_vacation_responder_answers_each_sender_once(s):
    fails(s, "set_vacation_responder", "already_disabled", {"enabled": False})
    fails(s, "set_vacation_responder", "missing_message", {"enabled": True})  # world 0 has none saved
    fails(s, "set_vacation_responder", "past_date", {"enabled": True, "message": "Away", "start_date": "2026-03-01",
                                                     "end_date": "2026-03-10"})
    fails(s, "set_vacation_responder", "end_before_start",
          {"enabled": True, "message": "Away", "start_date": "2026-03-20",
                                                            "end_date": "2026-03-18"})
    fails(s, "set_vacation_responder", "invalid_date", {"enabled": True, "message": "Away", "end_date": "soon"})
    v = ok(s, "set_vacation_responder", {"enabled": True, "subject": "Away until Thursday",
                                         "message": "I'm out until Thursday with limited email.",
                                         "end_date": "2026-03-19"})
    assert v["enabled"] and v["start_date"] == "2026-03-16" and v["end_date"] == "2026-03-19"
    sent_before = counts(s)["sent"][0]
    s.advance(4 * 86400)
    replies = [m for m in folder(s, "sent") if m["subject"] == "Away until Thursday"]
    assert replies and counts(s)["sent"][0] == sent_before + len(replies) + 1  # and the scheduled update
    to = [r["to"][0] for r in replies]
    assert len(to) == len(set(to)), "each sender is answered once"
    assert not any(k in a for a in to for k in ("noreply", "substack", "morningbrew", "tldr", "producthunt", "amazon"))
    blocked = set(ok(s, "get_mailbox")["blocked_senders"])
    assert not set(to) & blocked
    off = ok(s, "set_vacation_responder", {"enabled": False})
    assert off["enabled"] is False and off["message"] == "I'm out until Thursday with limited email."


# ----- contacts, signature, app passwords -----------------------------------------------------------------------

def test_contacts(s):
    c = ok(s, "add_contact",
           {"name": "Ana Lopez", "email": "Ana.Lopez@Example.com", "phone": "+1-415-555-0134", "favorite": True})
    assert c["email"] == "ana.lopez@example.com" and c["is_favorite"]
    fails(s, "add_contact", "duplicate_contact", {"name": "Ana L", "email": "ana.lopez@example.com"})
    fails(s, "add_contact", "invalid_address", {"name": "Bob", "email": "bob at example"})
    found = ok(s, "search_contacts", {"query": "LOPEZ"})["contacts"]
    assert c["contact_id"] in [x["contact_id"] for x in found]
    favorites = ok(s, "search_contacts", {"favorites_only": True, "limit": 100})["contacts"]
    assert c["contact_id"] in [x["contact_id"] for x in favorites]
    fails(s, "update_contact", "nothing_to_update", {"contact_id": c["contact_id"]})
    other = next(x for x in ok(s, "search_contacts", {"limit": 5})["contacts"] if x["contact_id"] != c["contact_id"])
    fails(s, "update_contact", "duplicate_contact", {"contact_id": c["contact_id"], "email": other["email"]})
    up = ok(s, "update_contact", {"contact_id": c["contact_id"], "phone": "", "company": "Apex Labs"})
    assert up["phone"] is None and up["company"] == "Apex Labs" and up["name"] == "Ana Lopez"
    ok(s, "delete_contact", {"contact_id": c["contact_id"]})
    fails(s, "delete_contact", "not_found", {"contact_id": c["contact_id"]})


def test_signature_is_used_by_later_sends(s):
    change = ok(s, "update_signature", {"signature": "A.\nSent from the road"})
    assert change["previous"] and change["signature"] == "A.\nSent from the road"
    sent = ok(s, "send_message", {"to": ["x@example.com"], "subject": "s", "body": "b"})
    assert sent["body"].endswith("A.\nSent from the road")
    ok(s, "update_signature", {"signature": ""})
    sent = ok(s, "send_message", {"to": ["x@example.com"], "subject": "s", "body": "b"})
    assert sent["body"] == "b" and ok(s, "get_mailbox")["signature"] is None


def test_app_passwords(s):
    before = ok(s, "list_app_passwords")["app_passwords"]
    new = ok(s, "create_app_password", {"name": "Work laptop"})
    assert re.fullmatch(r"[a-z]{4}( [a-z]{4}){3}", new["password"]) and new["status"] == "active"
    listed = ok(s, "list_app_passwords")["app_passwords"]
    assert len(listed) == len(before) + 1 and all("password" not in a for a in listed)
    fails(s, "create_app_password", "duplicate_name", {"name": "work LAPTOP"})
    ok(s, "revoke_app_password", {"app_password_id": new["app_password_id"]})
    fails(s, "revoke_app_password", "already_revoked", {"app_password_id": new["app_password_id"]})
    for i in range(10):
        r = s.call("create_app_password", {"name": f"Device {i}"})
        if not r.ok:
            assert r.code == "too_many_app_passwords"
            break
    else:
        raise AssertionError("at most 5 active app passwords")


def test_replaying_the_same_calls_gives_the_same_state():
    calls = [("create_app_password", {"name": "Tablet"}),
             ("send_message", {"to": ["a@example.com"], "subject": "x", "body": "y"}),
             ("create_folder", {"name": "Later"})]
    prints = []
    for _ in range(2):
        with Session("email", world=WORLD) as s:
            for name, args in calls:
                assert s.call(name, args).ok
            s.advance(86400)
            prints.append(s.fingerprint())
    assert prints[0] == prints[1]


# ----- what the sampler offers each parameter ---------------------------------------------------------

def offered(tool: str, param: str) -> list[str]:
    """The rows of world 0 that a parameter's entity kind (narrowed by its `where`) offers the sampler."""
    server = registry.get("email")
    p = next(p for p in server.tools[tool].params if p.name == param)
    assert p.entity is not None, f"{tool}.{param} should name an entity kind"
    kind = server.entities[p.entity]
    where = p.where or kind.live or "1"
    db = server.template(WORLD).db
    return [r[0] for r in db.execute(f'SELECT "{kind.key}" FROM "{kind.table}" WHERE {where}',
                                     {"now": "2026-03-16T09:00:00", "today": "2026-03-16"})]


def test_blocked_senders_are_entities_the_planner_can_unblock(s):
    blocked = ok(s, "get_mailbox")["blocked_senders"]
    assert blocked and sorted(offered("unblock_sender", "address")) == sorted(blocked)
    for address in blocked:
        assert ok(s, "unblock_sender", {"address": address})["address"] == address
    assert ok(s, "get_mailbox")["blocked_senders"] == []


def test_reported_spam_sender_becomes_an_unblockable_entity(s):
    victim = offered("report_spam", "message_id")[0]
    report = ok(s, "report_spam", {"message_id": victim})
    tool = registry.get("email").tools["report_spam"]
    from prove.synth.entities import extract_entities
    kinds = {(k, v) for k, v, _ in extract_entities(tool, report)}
    assert ("blocked_sender", report["blocked_sender"]) in kinds
    assert ok(s, "unblock_sender", {"address": report["blocked_sender"]})["address"] == report["blocked_sender"]


def test_replies_go_only_to_mail_a_person_wrote(s):
    people = {c["email"] for c in ok(s, "search_contacts", {"limit": 100})["contacts"]}
    domain = me(s).split("@")[1]
    ids = offered("reply_to_message", "message_id")
    assert ids and ids == offered("create_draft", "reply_to_message_id")
    for message_id in ids:
        m = ok(s, "get_message", {"message_id": message_id})
        assert m["status"] == "received"
        assert m["from_address"] in people or m["from_address"].endswith("@" + domain), m["from_address"]
        assert not any(word in m["from_address"] for word in ("noreply", "no-reply", "no_reply", "auto-confirm"))


def test_spam_reports_never_take_mail_from_people_the_user_knows(s):
    people = {c["email"] for c in ok(s, "search_contacts", {"limit": 100})["contacts"]}
    domain = me(s).split("@")[1]
    ids = offered("report_spam", "message_id")
    assert ids
    for message_id in ids:
        m = ok(s, "get_message", {"message_id": message_id})
        assert m["folder_id"] not in ("spam", "trash")
        assert m["from_address"] not in people and not m["from_address"].endswith("@" + domain)
        ok(s, "report_spam", {"message_id": message_id, "block_sender": False})


def test_spam_reports_never_take_notices_from_work_tools(s):
    subjects = [ok(s, "get_message", {"message_id": m})["subject"] for m in offered("report_spam", "message_id")]
    assert subjects
    for subject in subjects:
        assert not subject.startswith(("Invitation:", "[JIRA]", "Cloud recording available", "[")), subject
        assert "Pull request" not in subject, subject
    inbox = ok(s, "search_messages", {"query": "Invitation", "limit": 50})["messages"]
    assert any(m["subject"].startswith("Invitation:") for m in inbox)  # there is one to wrongly pick


def test_joint_values_keep_subject_and_body_together():
    tools = registry.get("email").tools
    for name in ("send_message", "create_draft"):
        pairs = tools[name].values["subject, body"]
        assert len(pairs) >= 5 and "subject" not in tools[name].values and "body" not in tools[name].values
    by_subject = dict(tools["send_message"].values["subject, body"])
    assert "lunch" in by_subject["Lunch on Friday?"].lower()
    assert "invoice" in dict(tools["create_draft"].values["subject, body"])["Question about the invoice"].lower()


def test_not_spam_rescues_the_misfiled_newsletter_and_never_real_junk(s):
    ids = offered("mark_not_spam", "message_id")
    assert len(ids) == 1
    m = ok(s, "get_message", {"message_id": ids[0]})
    spam = [x for x in folder(s, "spam") if x["message_id"] != ids[0]]
    assert spam and m["from_address"] not in {x["from_address"] for x in spam}
    others = ok(s, "search_messages", {"sender": m["from_address"], "limit": 100})["messages"]
    assert any(x["folder_id"] != "spam" for x in others)  # the sender's other mail is not junk
    assert ok(s, "mark_not_spam", {"message_id": ids[0]})["message"]["folder_id"] == "inbox"


def test_mail_is_filed_only_in_folders_that_fit_it(s):
    names = {f["folder_id"]: f["name"] for f in ok(s, "list_folders")["folders"]}
    assert {"Receipts", "Newsletters"} <= set(names.values())  # folders for one kind of mail exist
    # By hand, a colleague's work mail goes back to the inbox, to the archive or to Projects.
    assert {"inbox", "archive"} <= set(offered("move_message", "folder_id"))
    assert {names[f] for f in offered("move_message", "folder_id")} <= {"Inbox", "Archive", "Projects"}
    domain = me(s).split("@")[1]
    moved = offered("move_message", "message_id")
    assert moved
    for message_id in moved:
        m = ok(s, "get_message", {"message_id": message_id})
        assert m["status"] == "received" and m["from_address"].endswith("@" + domain), m["from_address"]
    # A filter files what it matches in the archive and labels it with a label that fits any mail.
    assert offered("create_filter", "move_to_folder_id") == ["archive"]
    labels = {lb["label_id"]: lb["name"] for lb in ok(s, "list_labels")["labels"]}
    for tool in ("create_filter", "label_message"):
        assert {labels[lb] for lb in offered(tool, "add_label_id" if tool == "create_filter" else "label_id")} \
            == {"Important", "Follow up"}
    fresh = ok(s, "create_label", {"name": "Q3 planning"})["label_id"]  # one made for the purpose fits too
    where = next(p.where for p in registry.get("email").tools["label_message"].params if p.name == "label_id")
    assert s.satisfies("label", fresh, where) and not s.satisfies("label", next(
        lb for lb, name in labels.items() if name == "Finance"), where)


def test_mail_in_trash_or_spam_is_not_marked_filed_or_archived_before_it_is_brought_back(s):
    for tool, param in (("move_message", "message_id"),
                        ("archive_message", "message_id"), ("mark_read", "message_ids")):
        ids = offered(tool, param)
        assert ids, tool
        folders = {ok(s, "get_message", {"message_id": m})["folder_id"] for m in ids}
        assert not folders & {"trash", "spam"}, (tool, folders)
    assert "archive" not in {ok(s, "get_message", {"message_id": m})["folder_id"]
                             for m in offered("archive_message", "message_id")}
    assert offered("restore_message", "message_id") and offered("mark_not_spam", "message_id")


def test_a_send_is_said_as_sent_or_as_scheduled_for_its_time():
    now = replies_for("email", "send_draft", {"draft_id": "MSG-1"})
    assert now and all("{send_at}" not in r and "result.status" not in r for r in now)
    later = replies_for("email", "send_draft", {"draft_id": "MSG-1", "send_at": "2026-03-30T14:00:00"})
    assert later and all("{send_at}" in r for r in later)


def test_reading_a_message_says_who_sent_it_when_and_to_whom():
    tool = registry.get("email").tools["get_message"]
    received = [r for r in tool.replies if not r.binds]
    assert received and all(all(f"{{result.{f}}}" in r.text for f in ("from_name", "date", "to_names"))
                            for r in received)
    # the user's own mail is theirs: "You sent ... on March 2 to ...", "a draft of yours to ..."
    own = {r.binds["result.status"]: r.text for r in tool.replies if r.binds}
    assert own["sent"].startswith("You sent") and "{result.date}" in own["sent"] and "{result.to_names}" in own["sent"]
    assert "{result.to_names}" in own["draft"] and "not sent" in own["draft"]
    assert not any("say" in a.text or "in full" in a.text for a in tool.asks)  # the reply does not read the body


def test_every_world_has_an_emptied_folder_that_can_be_deleted() -> None:
    """A past project's folder, emptied when it ended: `delete_folder` takes it (and only such)."""
    from prove.env import Session, registry

    server = registry.get("email")
    for world in range(3):
        with Session([server], world=world) as s:
            folders = s.call("list_folders", {}).data["folders"]
            empty = [f for f in folders if f["kind"] == "custom" and f["total"] == 0]
            assert len(empty) == 1, world
            assert s.call("delete_folder", {"folder_id": empty[0]["folder_id"]}).ok
            full = next(f for f in folders if f["kind"] == "custom" and f["total"] > 0)
            assert s.call("delete_folder", {"folder_id": full["folder_id"]}).code == "folder_not_empty"


def test_an_attachment_is_taken_off_the_draft_it_is_on():
    """"Start an empty draft to ... Next, take the attachment 'nimbusgroup_proposal_v2.pdf' off the draft": "the
    draft" reads as the one just started, not the one the file is on."""
    asks = [as_ask(a).text for a in registry.get("email").tools["remove_attachment"].asks]
    assert asks and not any(re.search(r"\b(?:the|my) draft\b(?! it's on)", t) for t in asks), asks


def test_no_sender_is_said_to_be_blocked_by_mistake():
    """"I blocked sender deals@rx-discount-meds.info by mistake; let their mail through again": a sender is blocked
    when their mail is reported as spam, so an unblocking gives no reason that the spam belies."""
    asks = [as_ask(a).text for a in registry.get("email").tools["unblock_sender"].asks]
    assert asks and not any("mistake" in t for t in asks), asks
    with Session(["email"]) as session:
        sender = next(m for m in session.call("list_messages", {}).data["messages"] if m["status"] == "received")
        assert session.call("report_spam", {"message_id": sender["message_id"]}).ok  # blocks the sender too
        assert sender["from_address"] in session.call("get_mailbox", {}).data["blocked_senders"]


def test_an_app_password_is_named_for_an_app_said_without_an_article():
    """"Then I need a password so Android tablet can get my mail": an app password's name is an app's own name,
    said as is by the user and by the reply, never a device that wants a "my"."""
    tool = registry.get("email").tools["create_app_password"]
    for name in tool.values["name"]:
        words = name.lower().split()
        assert not {"my", "tablet", "laptop", "desktop", "phone"} & set(words), name


def test_an_empty_draft_in_a_thread_is_said_to_be_empty(s):
    """"The conversation '(no subject)' has 1 message: Your draft from March 16 reads: ''.": a draft with no
    words yet is said to be empty, not read out as nothing in quotes."""
    draft = ok(s, "create_draft", {"to": ["carlos.anderson@nimbuscapital.com"]})
    text = ok(s, "get_thread", {"thread_id": draft["thread_id"]})["conversation_text"]
    assert text == "Your draft from March 16 is empty", text
