"""Behaviour tests of the social media server: its world, its main flows and its failures.

Every test works on a fresh `Session("social_media", world=0)`. Entities are found through the
server's own tools, the way a model would; only facts no tool shows (which private accounts
answer follow requests, which posts break the rules) are read from the database.
"""

from __future__ import annotations

import functools
import re

from typing import Any

from prove.env import Session, registry

from .helpers import fails, ok, session_fixture
from .helpers import replies_for as shared_replies_for

SERVER = registry.get("social_media")


s = session_fixture("social_media")


def sql(s: Session, query: str, *params: Any) -> list[tuple]:
    return [tuple(r) for r in s._runtimes[0].db.execute(query, params).fetchall()]


def me(s: Session) -> str:
    return ok(s, "get_profile")["account_id"]


def feed_ids(s: Session) -> set[str]:
    return {p["post_id"] for p in ok(s, "get_feed", {"limit": 100})["posts"]}


def feed_authors(s: Session) -> set[str]:
    return {p["author_id"] for p in ok(s, "get_feed", {"limit": 100})["posts"]}


def followed(s: Session) -> list[dict]:
    return ok(s, "list_following", {"limit": 100})["accounts"]


def stranger(s: Session) -> dict:
    """A public account the user does not follow, with posts, and no block either way."""
    for row in sql(s, "SELECT account_id FROM accounts WHERE is_me = 0 AND is_private = 0 ORDER BY account_id"):
        profile = ok(s, "get_profile", {"account_id": row[0]})
        if not (profile["you_follow"] or profile["blocked_by_you"] or profile["blocks_you"]) and profile["posts_count"]:
            return profile
    raise AssertionError("no stranger")


# ----- the server and its world -------------------------------------------------------------------


def test_server_declares_documented_tools():
    visible = SERVER.visible_tools
    assert len(visible) >= 25
    assert set(SERVER.entities) == {"account", "post", "comment", "hashtag", "message", "notification", "report"}
    assert SERVER.template(0).size < 250_000


def test_world_at_the_epoch(s):
    profile = ok(s, "get_profile")
    assert profile["is_you"] and profile["followers_count"] > profile["following_count"] > 10
    following = {a["account_id"] for a in followed(s)}
    assert feed_authors(s) <= following | {profile["account_id"]}
    mine = ok(s, "list_posts")["posts"]
    assert mine[0]["status"] == "scheduled" and mine[1]["created_at"] == "2026-03-16T08:40:00"
    assert mine[0]["post_id"] not in feed_ids(s)
    assert ok(s, "list_blocked_accounts")["total"] == 2
    assert ok(s, "list_notifications", {"unread_only": True})["unread"] > 0
    assert ok(s, "list_conversations")["total"] >= 5
    assert ok(s, "get_trending_hashtags")["hashtags"]


# ----- posts --------------------------------------------------------------------------------------


def test_post_edit_and_delete(s):
    post = ok(s, "create_post", {"text": "First paddleboard session of the year! #summer #paddleboard"})
    pid = post["post_id"]
    assert post["status"] == "published" and post["hashtags"] == ["paddleboard", "summer"]
    assert pid in feed_ids(s)
    tagged = ok(s, "get_hashtag_posts", {"hashtag": "#Paddleboard"})
    assert [p["post_id"] for p in tagged["posts"]] == [pid]
    fails(s, "create_post", "duplicate_post", {"text": "first paddleboard session of the year! #summer #paddleboard"})

    edited = ok(s, "edit_post",
                {"post_id": pid, "text": "First paddleboard session of the year! #sup", "visibility": "followers"})
    assert edited["edited_at"] == "2026-03-16T09:00:00" and edited["hashtags"] == ["sup"]
    assert edited["visibility"] == "followers"
    assert ok(s, "get_hashtag_posts", {"hashtag": "paddleboard"})["total"] == 0
    fails(s, "edit_post", "nothing_to_update", {"post_id": pid})

    s.advance(61 * 60)
    fails(s, "edit_post", "edit_window_closed", {"post_id": pid, "text": "Too late"})
    assert ok(s, "delete_post", {"post_id": pid})["status"] == "deleted"
    assert pid not in feed_ids(s)
    fails(s, "get_post", "not_found", {"post_id": pid})
    fails(s, "delete_post", "not_found", {"post_id": pid})


def test_the_fresh_post_is_editable_until_an_hour_after_posting(s):
    fresh = ok(s, "list_posts")["posts"][1]
    assert ok(s, "edit_post", {"post_id": fresh["post_id"], "reply_policy": "following"})["reply_policy"] == "following"
    s.advance(41 * 60)  # 09:41, 61 minutes after 08:40
    fails(s, "edit_post", "edit_window_closed", {"post_id": fresh["post_id"], "reply_policy": "everyone"})


def test_cannot_change_other_peoples_posts(s):
    theirs = next(p for p in ok(s, "get_feed", {"limit": 50})["posts"] if p["author_id"] != me(s))
    fails(s, "edit_post", "not_author", {"post_id": theirs["post_id"], "text": "hijacked"})
    fails(s, "delete_post", "not_author", {"post_id": theirs["post_id"]})
    fails(s, "report_post", "cannot_report_own",
          {"post_id": ok(s, "list_posts")["posts"][1]["post_id"], "reason": "spam"})


def test_scheduled_posts_publish_when_their_time_comes(s):
    post = ok(s, "create_post",
              {"text": "Garden tour this afternoon #gardening", "scheduled_for": "2026-03-16T15:00:00"})
    assert post["status"] == "scheduled" and post["post_id"] not in feed_ids(s)
    assert ok(s, "edit_post",
              {"post_id": post["post_id"], "text": "Garden tour at 3pm! #gardening"})["edited_at"] is None
    fails(s, "create_post", "past_date", {"text": "Old news", "scheduled_for": "2026-03-16T08:00:00"})
    fails(s, "create_post", "too_far_ahead", {"text": "Far away", "scheduled_for": "2026-09-16T08:00:00"})
    fails(s, "create_post", "invalid_time", {"text": "Zoned", "scheduled_for": "2026-03-17T08:00:00+02:00"})
    s.advance(6 * 3600)
    assert ok(s, "get_post", {"post_id": post["post_id"]})["status"] == "published"
    assert post["post_id"] in feed_ids(s)


def test_likes(s):
    post = next(p for p in ok(s, "get_feed", {"limit": 50})["posts"] if not p["liked_by_you"])
    liked = ok(s, "like_post", {"post_id": post["post_id"]})
    assert liked["liked_by_you"] and liked["like_count"] == post["like_count"] + 1
    fails(s, "like_post", "already_liked", {"post_id": post["post_id"]})
    assert ok(s, "unlike_post", {"post_id": post["post_id"]})["like_count"] == post["like_count"]
    fails(s, "unlike_post", "not_liked", {"post_id": post["post_id"]})


# ----- comments ------------------------------------------------------------------------------------


def test_comments_and_replies(s):
    post = next(p for p in ok(s, "get_feed", {"limit": 50})["posts"]
                if p["author_id"] != me(s) and p["comment_count"] and p["reply_policy"] == "everyone")
    comments = ok(s, "list_comments", {"post_id": post["post_id"]})["comments"]
    first = comments[0]
    reply = ok(s, "comment_on_post",
               {"post_id": post["post_id"], "text": "Agreed!", "reply_to_comment_id": first["comment_id"]})
    assert reply["reply_to_comment_id"] == first["comment_id"]
    shown = [c["comment_id"] for c in ok(s, "list_comments", {"post_id": post["post_id"]})["comments"]]
    assert reply["comment_id"] in shown and shown.index(reply["comment_id"]) > shown.index(first["comment_id"])
    assert ok(s, "get_post", {"post_id": post["post_id"]})["comment_count"] == post["comment_count"] + 1

    other = next(p for p in ok(s, "get_feed", {"limit": 50})["posts"] if p["post_id"] != post["post_id"])
    fails(s, "comment_on_post", "not_found", {"post_id": other["post_id"], "text": "Hi",
                                              "reply_to_comment_id": first["comment_id"]})
    if first["author_id"] != me(s):
        fails(s, "delete_comment", "not_allowed", {"comment_id": first["comment_id"]})
    assert ok(s, "delete_comment", {"comment_id": reply["comment_id"]})["comment_id"] == reply["comment_id"]
    fails(s, "delete_comment", "not_found", {"comment_id": reply["comment_id"]})


def test_user_may_delete_comments_on_their_own_posts(s):
    mine = next(p for p in ok(s, "list_posts", {"limit": 50})["posts"] if p["comment_count"])
    theirs = next(c for c in ok(s, "list_comments",
                                {"post_id": mine["post_id"]})["comments"] if c["author_id"] != me(s))
    ok(s, "delete_comment", {"comment_id": theirs["comment_id"]})
    assert ok(s, "get_post", {"post_id": mine["post_id"]})["comment_count"] == mine["comment_count"] - 1


def test_restricted_replies(s):
    user = me(s)
    (pid,) = next(iter(sql(s, "SELECT p.post_id FROM posts p JOIN accounts a ON a.account_id = p.author_id "
                              "WHERE p.reply_policy = 'following' AND p.status = 'published' AND p.visibility = 'public' "
                              "AND a.is_private = 0 AND a.is_me = 0 AND NOT EXISTS (SELECT 1 FROM follows f WHERE "
                              "f.follower_id = p.author_id AND f.followee_id = ?) AND NOT EXISTS (SELECT 1 FROM blocks b "
                              "WHERE b.blocker_id = p.author_id OR b.blocked_id = p.author_id) ORDER BY p.post_id",
                              user)))
    assert ok(s, "get_post", {"post_id": pid})["reply_policy"] == "following"
    fails(s, "comment_on_post", "comments_restricted", {"post_id": pid, "text": "Nice!"})
    assert ok(s, "like_post", {"post_id": pid})["liked_by_you"]


# ----- following -----------------------------------------------------------------------------------


def test_follow_and_unfollow(s):
    them = stranger(s)
    aid = them["account_id"]
    before = ok(s, "get_feed")["total"]
    result = ok(s, "follow_account", {"account_id": aid})
    assert result["status"] == "following" and result["followers_count"] == them["followers_count"] + 1
    assert ok(s, "get_feed")["total"] == before + them["posts_count"]
    assert aid in {a["account_id"] for a in followed(s)}
    fails(s, "follow_account", "already_following", {"account_id": aid})
    fails(s, "follow_account", "cannot_follow_self", {"account_id": me(s)})
    assert ok(s, "unfollow_account", {"account_id": aid})["status"] == "not_following"
    assert ok(s, "get_feed")["total"] == before
    fails(s, "unfollow_account", "not_following", {"account_id": aid})


def test_private_account_approves_a_follow_request_two_hours_later(s):
    (aid,) = sql(s, "SELECT a.account_id FROM accounts a WHERE a.is_private = 1 AND a.answers_requests = 1 AND NOT "
                    "EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ? AND f.followee_id = a.account_id) AND NOT "
                    "EXISTS (SELECT 1 FROM follow_requests r WHERE r.target_id = a.account_id) ORDER BY a.account_id",
                 me(s))[0]
    fails(s, "list_posts", "private_account", {"account_id": aid})
    fails(s, "list_followers", "private_account", {"account_id": aid})
    assert ok(s, "follow_account", {"account_id": aid})["status"] == "requested"
    assert ok(s, "get_profile", {"account_id": aid})["request_pending"]
    fails(s, "follow_account", "request_pending", {"account_id": aid})
    s.advance(2 * 3600)
    profile = ok(s, "get_profile", {"account_id": aid})
    assert profile["you_follow"] and not profile["request_pending"]
    assert ok(s, "list_posts", {"account_id": aid})["total"] >= 1
    accepted = ok(s, "list_notifications", {"kind": "follow_accepted"})["notifications"]
    assert aid in {n["actor_id"] for n in accepted}


def test_withdrawing_a_pending_request(s):
    (aid,) = sql(s, "SELECT target_id FROM follow_requests")[0]
    assert ok(s, "get_profile", {"account_id": aid})["request_pending"]
    assert ok(s, "unfollow_account", {"account_id": aid})["status"] == "not_following"
    s.advance(3 * 3600)
    assert not ok(s, "get_profile", {"account_id": aid})["you_follow"]


def test_the_pending_request_from_this_morning_is_approved(s):
    (aid,) = sql(s, "SELECT target_id FROM follow_requests")[0]
    s.advance(75 * 60)  # requested at 08:15, answered at 10:15
    assert ok(s, "get_profile", {"account_id": aid})["you_follow"]


# ----- blocks --------------------------------------------------------------------------------------


def test_blocking_hides_posts_and_stops_interaction(s):
    public = {p["author_id"]: p for p in ok(s, "get_feed", {"limit": 100})["posts"] if p["visibility"] == "public"}
    friend = next(a for a in followed(s) if a["follows_you"] and not a["is_private"] and a["account_id"] in public)
    aid = friend["account_id"]
    post = public[aid]
    blocked = ok(s, "block_account", {"account_id": aid})
    assert blocked["blocked"] and blocked["follows_removed"] == 2
    assert aid not in feed_authors(s)
    fails(s, "like_post", "blocked", {"post_id": post["post_id"]})
    fails(s, "get_post", "blocked", {"post_id": post["post_id"]})
    fails(s, "send_direct_message", "blocked", {"account_id": aid, "text": "hi"})
    fails(s, "follow_account", "blocked", {"account_id": aid})
    fails(s, "block_account", "already_blocked", {"account_id": aid})
    fails(s, "block_account", "cannot_block_self", {"account_id": me(s)})
    assert aid in {a["account_id"] for a in ok(s, "list_blocked_accounts")["accounts"]}

    ok(s, "unblock_account", {"account_id": aid})
    fails(s, "unblock_account", "not_blocked", {"account_id": aid})
    assert not ok(s, "get_profile", {"account_id": aid})["you_follow"]  # follows do not come back
    assert ok(s, "get_post", {"post_id": post["post_id"]})["post_id"] == post["post_id"]


def test_an_account_that_blocked_the_user(s):
    (aid,) = sql(s, "SELECT blocker_id FROM blocks WHERE blocked_id = ?", me(s))[0]
    assert ok(s, "get_profile", {"account_id": aid})["blocks_you"]
    fails(s, "list_posts", "blocked", {"account_id": aid})
    fails(s, "follow_account", "blocked", {"account_id": aid})
    pid, text = sql(s, "SELECT post_id, text FROM posts WHERE author_id = ? AND status = 'published'", aid)[0]
    fails(s, "get_post", "blocked", {"post_id": pid})
    assert pid not in {p["post_id"] for p in ok(s, "search_posts", {"query": text[:30], "limit": 100})["posts"]}


# ----- messages and notifications ----------------------------------------------------------------------


def test_direct_messages(s):
    friend = ok(s, "list_conversations")["conversations"][0]
    aid = friend["account_id"]
    sent = ok(s, "send_direct_message", {"account_id": aid, "text": "Coffee on Thursday?"})
    assert sent["from_you"] and sent["sent_at"] == "2026-03-16T09:00:00"
    thread = ok(s, "get_conversation", {"account_id": aid})
    assert thread["messages"][-1]["message_id"] == sent["message_id"] and thread["total"] == friend["messages"] + 1
    top = ok(s, "list_conversations")["conversations"][0]
    assert top["account_id"] == aid and top["last_message"] == "Coffee on Thursday?"
    fails(s, "send_direct_message", "cannot_message_self", {"account_id": me(s), "text": "note to self"})


def test_closed_inbox(s):
    (aid,) = sql(s,
                 "SELECT a.account_id FROM accounts a WHERE a.dm_policy = 'following' AND a.is_me = 0 AND NOT EXISTS "
                    "(SELECT 1 FROM follows f WHERE f.follower_id = a.account_id AND f.followee_id = ?) AND NOT EXISTS "
                    "(SELECT 1 FROM blocks b WHERE b.blocker_id = a.account_id OR b.blocked_id = a.account_id) "
                    "ORDER BY a.account_id", me(s))[0]
    assert ok(s, "get_profile", {"account_id": aid})["messages_from"] == "following"
    fails(s, "send_direct_message", "messages_closed", {"account_id": aid, "text": "Hello!"})


def test_notifications_are_marked_read(s):
    unread = ok(s, "list_notifications", {"unread_only": True, "limit": 100})
    first = unread["notifications"][0]["notification_id"]
    assert ok(s, "mark_notifications_read", {"notification_ids": [first]}) == {"marked": 1,
                                                                               "unread": unread["unread"] - 1}
    fails(s, "mark_notifications_read", "already_read", {"notification_ids": [first]})
    fails(s, "mark_notifications_read", "not_found", {"notification_ids": ["NTF-1"]})
    assert ok(s, "mark_notifications_read")["unread"] == 0
    fails(s, "mark_notifications_read", "already_read")
    assert ok(s, "list_notifications", {"unread_only": True})["total"] == 0


# ----- reports --------------------------------------------------------------------------------------


def test_reported_spam_is_removed_after_review(s):
    found = ok(s, "search_posts", {"query": "DM me now", "limit": 50})["posts"]
    spam = found[0]
    report = ok(s, "report_post", {"post_id": spam["post_id"], "reason": "spam", "details": "Crypto scam."})
    assert report["status"] == "open" and report["review_by"] == "2026-03-17T09:00:00"
    fails(s, "report_post", "already_reported", {"post_id": spam["post_id"], "reason": "other"})
    innocent = next(p for p in ok(s, "get_feed", {"limit": 50})["posts"] if p["author_id"] != me(s))
    ok(s, "report_post", {"post_id": innocent["post_id"], "reason": "misinformation"})

    s.advance(24 * 3600)
    reports = {r["post_id"]: r for r in ok(s, "list_reports")["reports"]}
    assert reports[spam["post_id"]]["status"] == "action_taken"
    assert reports[innocent["post_id"]]["status"] == "no_violation"
    fails(s, "get_post", "not_found", {"post_id": spam["post_id"]})
    assert ok(s, "get_post", {"post_id": innocent["post_id"]})["status"] == "published"
    updates = ok(s, "list_notifications", {"kind": "report_update", "unread_only": True})["notifications"]
    assert {n["report_id"] for n in updates} >= {report["report_id"]}


def test_the_open_report_from_yesterday_is_reviewed_tonight(s):
    report = ok(s, "list_reports", {"status": "open"})["reports"][0]
    assert report["review_by"] == "2026-03-16T20:05:00"
    s.advance(11 * 3600 + 5 * 60)
    assert ok(s, "list_reports", {"status": "open"})["total"] == 0
    fails(s, "like_post", "not_found", {"post_id": report["post_id"]})


# ----- the profile --------------------------------------------------------------------------------------


def test_update_profile(s):
    updated = ok(s, "update_profile", {"bio": "Tulips and travel.", "is_private": True, "messages_from": "following"})
    assert updated["bio"] == "Tulips and travel." and updated["is_private"]
    assert updated["messages_from"] == "following"
    assert ok(s, "update_profile", {"location": ""})["location"] is None
    fails(s, "update_profile", "nothing_to_update")


def test_search(s):
    them = stranger(s)
    found = ok(s, "search_accounts", {"query": "@" + them["handle"][:4]})["accounts"]
    assert them["account_id"] in {a["account_id"] for a in found}
    fails(s, "get_hashtag_posts", "not_found", {"hashtag": "#nosuchtagatall"})
    assert ok(s, "get_hashtag_posts", {"hashtag": "travel"})["total"] >= 1


# ----- what synthesized calls draw, and what the assistant says about them ------------------------------

SERVER = registry.get("social_media")


replies_for = functools.partial(shared_replies_for, "social_media")


def test_the_users_own_account_is_never_drawn_as_someone_else():
    for tool in ("get_profile", "list_followers", "list_following", "follow_account", "block_account",
                 "send_direct_message"):
        param = next(p for p in SERVER.tools[tool].params if p.name == "account_id")
        assert param.where.startswith("is_me = 0"), tool


def test_replies_say_which_setting_changed():
    blank = {"display_name": None, "bio": None, "location": None, "is_private": None, "messages_from": None}
    private = replies_for("update_profile", {**blank, "is_private": True})
    assert private and all("private" in r for r in private)
    public = replies_for("update_profile", {**blank, "is_private": False})
    assert public and all("public" in r for r in public)
    only_following = replies_for("update_profile", {**blank, "messages_from": "following"})
    assert only_following and all("people you follow" in r for r in only_following)
    plain = replies_for("create_post", {"text": "Hi", "scheduled_for": None})
    assert plain and all("scheduled" not in r for r in plain)
    scheduled = replies_for("create_post", {"text": "Hi", "scheduled_for": "2026-03-17T12:00:00"})
    assert scheduled and all("{scheduled_for}" in r for r in scheduled)
    mine = replies_for("get_profile", {"account_id": None})  # (then those on how another account relates to you)
    assert mine and mine[0].startswith("Your profile") and all(r.startswith("Your profile") or "follow" in r for r in mine)


def test_a_conversation_says_what_they_last_wrote(s):
    user = me(s)
    (other, text), = sql(s, "SELECT sender_id, text FROM messages WHERE recipient_id = ? "
                            "ORDER BY sent_at DESC, message_id DESC LIMIT 1", user)
    thread = ok(s, "get_conversation", {"account_id": other})
    assert thread["last_from_them"] == text and thread["last_said"] == f"Their last message: '{text}'"
    silent = next(a for (a,) in sql(s, "SELECT account_id FROM accounts WHERE is_me = 0") if
                  not sql(s, "SELECT 1 FROM messages WHERE sender_id = ? AND recipient_id = ?", a, user))
    assert ok(s, "get_conversation", {"account_id": silent})["last_said"] == "They haven't written to you yet."


def test_reports_are_of_spam_posts_with_reasons_that_fit(s):
    pairs = SERVER.tools["report_post"].values["reason, details"]
    assert {reason for reason, _ in pairs} <= {"spam", "impersonation", "misinformation"}
    where = next(p.where for p in SERVER.tools["report_post"].params if p.name == "post_id")
    drawn = sql(s, f"SELECT post_id, violates FROM posts WHERE {where}")
    assert drawn and all(violates for _, violates in drawn)
    ok(s, "report_post", {"post_id": drawn[0][0], "reason": "spam", "details": pairs[0][1]})


def test_scheduled_posts_alone_when_asked(s):
    posts = ok(s, "list_posts", {"scheduled_only": True})["posts"]
    assert posts and all(p["status"] == "scheduled" for p in posts)
    everything = ok(s, "list_posts", {"limit": 100})["posts"]
    assert {p["post_id"] for p in posts} == {p["post_id"] for p in everything if p["status"] == "scheduled"}
    other = next(a for (a,) in sql(s, "SELECT account_id FROM accounts WHERE is_me = 0 AND is_private = 0"))
    assert ok(s, "list_posts", {"account_id": other, "scheduled_only": True})["total"] == 0


def test_a_posts_comments_are_read_out_by_who_said_what(s):
    post = next(p for p in ok(s, "get_feed", {"limit": 50})["posts"] if p["comment_count"] >= 2)
    data = ok(s, "list_comments", {"post_id": post["post_id"]})
    assert data["said"].startswith(f"{data['total']} comments: ")
    for c in data["comments"]:
        assert f"@{c['author_handle']}: '{c['text']}'" in data["said"]
    cut = ok(s, "list_comments", {"post_id": post["post_id"], "limit": 1})
    assert cut["said"].startswith(f"{cut['total']} comments, the first 1: ")
    quiet = next(p for p in ok(s, "get_feed", {"limit": 100})["posts"] if p["comment_count"] == 0)
    assert ok(s, "list_comments", {"post_id": quiet["post_id"]})["said"] == "no comments yet"


def test_the_users_own_comment_is_read_out_as_yours(s):
    """"@hannah_cruz: 'Love this!'" read the user's own comment back to them by their handle."""
    post = next(p for p in ok(s, "get_feed", {"limit": 50})["posts"] if p["comment_count"] >= 1)
    ok(s, "comment_on_post", {"post_id": post["post_id"], "text": "Love this!"})
    handle = sql(s, "SELECT handle FROM accounts WHERE is_me = 1")[0][0]
    said = ok(s, "list_comments", {"post_id": post["post_id"]})["said"]
    assert "you: 'Love this!'" in said and f"@{handle}" not in said, said


def test_a_liked_post_is_someone_elses():
    where = next(p.where for p in SERVER.tools["like_post"].params if p.name == "post_id")
    assert where is not None and "author_id !=" in where


def test_post_listings_read_out_who_wrote_what(s):
    feed = ok(s, "get_feed", {"limit": 3})
    assert feed["said"].startswith(f"{feed['total']} posts, the first 3: ")
    for p in feed["posts"]:
        assert f"{'you' if p['by_you'] else '@' + p['author_handle']}: '{p['text']}'" in feed["said"]
    scheduled = ok(s, "list_posts", {"scheduled_only": True})
    assert scheduled["posts"] and all(f"'{p['text']}' (scheduled)" in scheduled["said"] for p in scheduled["posts"])
    tagged = ok(s, "get_hashtag_posts", {"hashtag": feed["posts"][0]["hashtags"][0]})
    assert tagged["said"].startswith(f"{tagged['total']} post")
    assert ok(s, "search_posts", {"query": "zzzzqq"})["said"] == "There are no posts to show"
    for tool in ("get_feed", "list_posts", "search_posts", "get_hashtag_posts"):
        assert [r.text for r in SERVER.tools[tool].replies] == ["{result.said}."], tool


def test_an_account_that_follows_nobody_is_said_to(s):
    """"accounts_text": "0 accounts: " read as a sentence cut off: nobody followed is "no accounts"."""
    following = ok(s, "list_following", {"account_id": "USR-10065"})
    assert following["total"] == 0 and following["accounts_text"] == "no accounts"


def test_the_users_own_posts_are_read_out_as_theirs(s):
    """"187 posts, the first 5: @kenji_ito: 'Booked flights to Reykjavik…'" read the user's own post
    in their feed under their own handle, as if someone else had written it: it is "you"."""
    handle = ok(s, "get_profile")["handle"]
    ok(s, "create_post", {"text": "Fresh sourdough out of the oven. #baking"})
    feed = ok(s, "get_feed", {"limit": 20})
    mine = [p for p in feed["posts"] if p["author_id"] == me(s)]
    assert mine and all(p["by_you"] for p in mine) and not any(p["by_you"] for p in feed["posts"] if p not in mine)
    assert f"@{handle}:" not in feed["said"] and "you: 'Fresh sourdough out of the oven. #baking'" in feed["said"], \
        feed["said"]
    own = ok(s, "list_posts", {})
    assert own["said"].startswith(f"{own['total']} posts by you"), own["said"]


def test_no_two_posts_share_their_words() -> None:
    """"Shipped a feature today that's been on the roadmap for N months. #buildinpublic" by five people,
    and the user's own 'Booked flights to Lisbon for May!' and 'Booked flights to Seoul for May!': the
    same words with other numbers or names in them read as one post copied. Only spam repeats itself."""
    server = registry.get("social_media")
    for world in range(6):
        db = server.template(world).db
        me = db.execute("SELECT account_id FROM accounts WHERE is_me = 1").fetchone()[0]
        said: dict[str, list[str]] = {}
        for text, author in db.execute("SELECT text, author_id FROM posts"):
            said.setdefault(re.sub(r"[A-Z][\w']*|\d+", "_", text), []).append(author)
        for words, authors in said.items():
            assert len(set(authors)) == 1, (world, words, authors)
            assert authors.count(me) <= 1, (world, words)


def test_a_large_follower_count_reads_with_thousands_separators(s):
    """"The account 'losangelesgarden' has 14119 followers": a count of thousands reads "14,119"."""
    account = sql(s, "SELECT account_id FROM accounts ORDER BY outside_followers DESC LIMIT 1")[0][0]
    followers = ok(s, "list_followers", {"account_id": account})
    total = int(re.match(r"[\d,]+", followers["accounts_text"]).group(0).replace(",", ""))
    assert total >= 1000 and followers["accounts_text"].startswith(f"{total:,} followers"), followers["accounts_text"]
