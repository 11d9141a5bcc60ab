"""The social media server's declaration: the `server`, entity kinds, ID types, result models and shared rules.

The tools live by area, each a toolset the package includes; `hooks.py` holds what passing time does:

    tools_accounts.py     profiles, search, followers, follow and unfollow, blocks
    tools_posts.py        feed, posts, search, hashtags, creating, editing and deleting posts
    tools_engagement.py   likes, comments and replies, reports
    tools_inbox.py        notifications and direct messages

Rules every tool follows:

- The user ("me") is the one account with `is_me = 1`.
- A block cuts both ways: when either account blocked the other, neither sees the other's posts
  or comments, and liking, commenting, following and messaging between them fail (`blocked`).
- A published post is readable by the user if it is theirs, or its author is public and the
  post is 'public', or the user follows its author. A private account's posts and connections
  are for its followers only (`private_account`).
- Time moves only with `session.advance`: scheduled posts publish at their time, private
  accounts that answer follow requests approve them two hours after they were sent, and
  moderators review reports 24 hours after they were filed.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, model_validator

from prove.env import Ctx, EntityKind, Server, ToolError
from prove.env.values import quote

from .world import EDIT_WINDOW_MINUTES, build_world

ACCOUNT = EntityKind("account", table="accounts", key="account_id", label="handle",
                     description="an account on the network (or the user's own)")
POST = EntityKind("post", table="posts", key="post_id", label="text",
                  description="a post by an account", live="status = 'published'")
COMMENT = EntityKind("comment", table="comments", key="comment_id", label="text",
                     description="a comment on a post, or a reply to a comment", live="status = 'visible'")
HASHTAG = EntityKind("hashtag", table="hashtags", key="tag", label="tag",
                     description="a hashtag used in posts, without '#'")
MESSAGE = EntityKind("message", table="messages", key="message_id", label="text", noun="direct message",
                     description="a direct message between the user and another account")
NOTIFICATION = EntityKind("notification", table="notifications", key="notification_id", label="kind", naming="before",
                          description="something that happened to the user's account", live="is_read = 0")
REPORT = EntityKind("report", table="reports", key="report_id", label="reason",
                    description="a post the user reported to the moderators", live="status = 'open'")

server = Server(
    "social_media", "Social network",
    "The account of one signed-in user on a social network: their profile and privacy settings; "
    "posts (public or followers-only, scheduled, edited within an hour, deleted) with hashtags; "
    "a home feed of followed accounts; likes, comments and replies; following (with requests to "
    "private accounts), unfollowing and blocking; search of accounts, posts and hashtags, and "
    "trending hashtags; direct messages; notifications; and reports of posts to moderators.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    entities=[ACCOUNT, POST, COMMENT, HASHTAG, MESSAGE, NOTIFICATION, REPORT],
)

# ----- parameter and field types ----------------------------------------------------------------

AccountId = ACCOUNT.id
PostId = POST.id
CommentId = COMMENT.id
Hashtag = HASHTAG.id
MessageId = MESSAGE.id
NotificationId = NOTIFICATION.id
ReportId = REPORT.id
# Subsets some tools take, so that sampled calls name an account or post the tool can act on.
_ME = "(SELECT account_id FROM accounts WHERE is_me = 1)"
OtherAccountId = ACCOUNT.where("is_me = 0")
# Someone whose posts break no rules: a scam account is one to report or block, not to follow or write to.
GenuineAccountId = ACCOUNT.where("is_me = 0 AND account_id NOT IN (SELECT author_id FROM posts WHERE violates = 1)")
FollowedAccountId = ACCOUNT.where(
    f"account_id IN (SELECT followee_id FROM follows WHERE follower_id = {_ME}) "
    f"OR account_id IN (SELECT target_id FROM follow_requests WHERE requester_id = {_ME})")
BlockedAccountId = ACCOUNT.where(f"account_id IN (SELECT blocked_id FROM blocks WHERE blocker_id = {_ME})")
# Accounts that have written to the user (what they last said is there to read).
WroteToMeAccountId = ACCOUNT.where(f"account_id IN (SELECT sender_id FROM messages WHERE recipient_id = {_ME})")
OwnPostId = POST.where(f"author_id = {_ME}")
# A post breaking the rules (the spam accounts' posts) that is still up and not reported yet.
ReportablePostId = POST.where("violates = 1 AND status = 'published' AND post_id NOT IN (SELECT post_id FROM reports)")
# People like and praise posts of others (not their own), and no scam.
OthersPostId = POST.where(f"author_id != {_ME} AND violates = 0")
# A post a person comments on: any but a scam.
CommentablePostId = POST.where("violates = 0")
LikedPostId = POST.where(f"post_id IN (SELECT post_id FROM likes WHERE account_id = {_ME})")
DeletableCommentId = COMMENT.where(
    f"author_id = {_ME} OR post_id IN (SELECT post_id FROM posts WHERE author_id = {_ME})")

PostText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=280)]
CommentText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]
MessageText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=2000)]
Query = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
Limit = Annotated[int, Field(ge=1, le=100)]
Visibility = Literal["public", "followers"]
ReplyPolicy = Literal["everyone", "following"]

# ----- result models ----------------------------------------------------------------------------


class Account(BaseModel):
    account_id: AccountId
    handle: str = Field(description="the @name, without '@'")
    display_name: str
    bio: str | None
    location: str | None
    joined_on: str
    is_private: bool = Field(description="posts and connections are for followers only")
    verified: bool
    followers_count: int
    following_count: int
    posts_count: int
    is_you: bool
    you_follow: bool
    follows_you: bool
    request_pending: bool = Field(description="the user asked to follow this private account and awaits an answer")
    blocked_by_you: bool
    blocks_you: bool
    messages_from: Literal["everyone", "following"] = Field(
        description="who may send direct messages: everyone, or only accounts it follows")


class AccountSummary(BaseModel):
    account_id: AccountId
    handle: str
    display_name: str
    verified: bool
    is_private: bool
    you_follow: bool | None = Field(description="None for the user's own account")
    follows_you: bool | None = Field(description="None for the user's own account")


class AccountList(BaseModel):
    accounts: list[AccountSummary]
    total: int = Field(description="how many accounts matched, before `limit`")


class Post(BaseModel):
    post_id: PostId
    author_id: AccountId
    author_handle: str
    author_name: str
    text: str
    hashtags: list[Hashtag]
    visibility: Visibility
    reply_policy: ReplyPolicy = Field(description="who may comment: everyone, or accounts the author follows")
    status: Literal["scheduled", "published", "deleted", "removed"]
    created_at: str = Field(description="when it was (or will be, if scheduled) published")
    edited_at: str | None
    like_count: int
    comment_count: int
    liked_by_you: bool
    by_you: bool = Field(description="whether the user wrote it")


class PostList(BaseModel):
    posts: list[Post]
    total: int = Field(description="how many posts matched, before `limit`")
    said: str = Field("", description="the posts as people read them: \"3 posts: @ana: 'Sunny day!'; ...\", or "
                                      "'There are no posts to show'")

    @model_validator(mode="after")
    def _read_out(self) -> PostList:
        if not self.said:
            self.said = posts_said(self.posts, self.total)
        return self


def posts_said(posts: list[Post], total: int) -> str:
    """Posts as a person reads them out: who wrote what (up to ten, or the first five of more) and how
    many there are."""
    if not posts:
        return "There are no posts to show"
    shown = posts if len(posts) <= 10 else posts[:5]

    def who(p: Post) -> str:  # the user's own posts are "you", never their handle
        return "you" if p.by_you else f"@{p.author_handle}"

    authors = {who(p) for p in posts}
    one = len(authors) == 1  # one account's posts: "by @ana", once
    count = f"{total} post{'s' if total != 1 else ''}" + (f" by {next(iter(authors))}" if one else "") + \
        (f", the first {len(shown)}" if len(shown) < total else "")
    return count + ": " + "; ".join(("" if one else f"{who(p)}: ") + f"'{p.text}'"
                                    + (" (scheduled)" if p.status == "scheduled" else "") for p in shown)


# ----- who, and what they may see -----------------------------------------------------------------


def me(ctx: Ctx) -> str:
    """The signed-in user's account ID."""
    return ctx.db.execute("SELECT account_id FROM accounts WHERE is_me = 1").fetchone()[0]


def follows(ctx: Ctx, follower: str, followee: str) -> bool:
    return ctx.db.execute("SELECT 1 FROM follows WHERE follower_id = ? AND followee_id = ?",
                          (follower, followee)).fetchone() is not None


def block_between(ctx: Ctx, other: str) -> str | None:
    """'you' if the user blocked `other`, 'them' if `other` blocked the user, else None."""
    user = me(ctx)
    if ctx.db.execute("SELECT 1 FROM blocks WHERE blocker_id = ? AND blocked_id = ?", (user, other)).fetchone():
        return "you"
    if ctx.db.execute("SELECT 1 FROM blocks WHERE blocker_id = ? AND blocked_id = ?", (other, user)).fetchone():
        return "them"
    return None


def require_not_blocked(ctx: Ctx, account: sqlite3.Row) -> None:
    who = block_between(ctx, account["account_id"])
    if who == "you":
        raise ToolError("blocked", f"You blocked @{account['handle']}.",
                        hint="Unblock them with unblock_account first, if the user wants to.")
    if who == "them":
        raise ToolError("blocked", f"@{account['handle']} has blocked you; you cannot see or interact with "
                        "their content.")


def require_can_see(ctx: Ctx, account: sqlite3.Row) -> None:
    """The user may see this account's posts and connections (or the ToolError saying why not)."""
    require_not_blocked(ctx, account)
    user = me(ctx)
    if account["is_private"] and account["account_id"] != user and not follows(ctx, user, account["account_id"]):
        raise ToolError("private_account", f"@{account['handle']} is private; only their followers see their "
                        "posts and connections.", hint="Send a follow request with follow_account.")


# The posts the user may read: published, no block either way, and public or followed.
READABLE = """
p.status = 'published'
AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = :me AND b.blocked_id = p.author_id)
                OR (b.blocker_id = p.author_id AND b.blocked_id = :me))
AND (p.author_id = :me OR (a.is_private = 0 AND p.visibility = 'public')
     OR EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = :me AND f.followee_id = p.author_id))
"""

POSTS = """
SELECT p.*, a.handle AS author_handle, a.display_name AS author_name, a.is_private AS author_private,
       (SELECT count(*) FROM likes l WHERE l.post_id = p.post_id) AS like_count,
       (SELECT count(*) FROM comments c WHERE c.post_id = p.post_id AND c.status = 'visible') AS comment_count,
       EXISTS (SELECT 1 FROM likes l WHERE l.post_id = p.post_id AND l.account_id = :me) AS liked_by_you
FROM posts p JOIN accounts a ON a.account_id = p.author_id
"""


def post_models(ctx: Ctx, rows: list[sqlite3.Row]) -> list[Post]:
    out = []
    mine = me(ctx)
    for r in rows:
        tags = [t[0] for t in ctx.db.execute("SELECT tag FROM post_hashtags WHERE post_id = ? ORDER BY tag",
                                             (r["post_id"],))]
        out.append(Post(post_id=r["post_id"], author_id=r["author_id"], author_handle=r["author_handle"],
                        author_name=r["author_name"], text=r["text"], hashtags=tags, visibility=r["visibility"],
                        reply_policy=r["reply_policy"], status=r["status"], created_at=r["created_at"],
                        edited_at=r["edited_at"], like_count=r["like_count"], comment_count=r["comment_count"],
                        liked_by_you=bool(r["liked_by_you"]), by_you=r["author_id"] == mine))
    return out


def readable_post(ctx: Ctx, post_id: str) -> sqlite3.Row:
    """A post the user may read (their own scheduled posts included), or the ToolError saying why not."""
    user = me(ctx)
    row = ctx.db.execute(POSTS + " WHERE p.post_id = :post_id", {"me": user, "post_id": post_id}).fetchone()
    mine = row is not None and row["author_id"] == user
    if row is None or row["status"] in ("deleted", "removed") or (row["status"] == "scheduled" and not mine):
        reason = "" if row is None or row["status"] == "scheduled" else f" (it was {row['status']})"
        raise ToolError("not_found", f"No post {quote(post_id)} is available{reason}.",
                        hint="Find posts with get_feed, list_posts or search_posts; IDs look like 'PST-10042'.")
    if not mine:
        author = ctx.get("account", row["author_id"])
        require_not_blocked(ctx, author)
        if not (row["author_private"] == 0 and row["visibility"] == "public") and not follows(ctx, user, row["author_id"]):
            raise ToolError("private_account", f"This post by @{row['author_handle']} is for their followers only.",
                            hint="Follow the account with follow_account to see it.")
    return row


def post_model(ctx: Ctx, post_id: str) -> Post:
    row = ctx.db.execute(POSTS + " WHERE p.post_id = :post_id", {"me": me(ctx), "post_id": post_id}).fetchone()
    return post_models(ctx, [row])[0]


def account_summary(ctx: Ctx, rows: list[sqlite3.Row]) -> list[AccountSummary]:
    user = me(ctx)
    return [AccountSummary(account_id=r["account_id"], handle=r["handle"], display_name=r["display_name"],
                           verified=bool(r["verified"]), is_private=bool(r["is_private"]),
                           you_follow=follows(ctx, user, r["account_id"]) if r["account_id"] != user else None,
                           follows_you=follows(ctx, r["account_id"], user) if r["account_id"] != user else None)
            for r in rows]


def account_model(ctx: Ctx, account_id: str) -> Account:
    row = ctx.get("account", account_id)
    user = me(ctx)
    aid = row["account_id"]
    (followers,) = ctx.db.execute("SELECT count(*) FROM follows WHERE followee_id = ?", (aid,)).fetchone()
    (following,) = ctx.db.execute("SELECT count(*) FROM follows WHERE follower_id = ?", (aid,)).fetchone()
    (posts,) = ctx.db.execute("SELECT count(*) FROM posts WHERE author_id = ? AND status = 'published'",
                              (aid,)).fetchone()
    pending = ctx.db.execute("SELECT 1 FROM follow_requests WHERE requester_id = ? AND target_id = ?",
                             (user, aid)).fetchone() is not None
    blocked = block_between(ctx, aid) if aid != user else None
    return Account(account_id=aid, handle=row["handle"], display_name=row["display_name"], bio=row["bio"],
                   location=row["location"], joined_on=row["joined_on"], is_private=bool(row["is_private"]),
                   verified=bool(row["verified"]), followers_count=followers + row["outside_followers"],
                   following_count=following, posts_count=posts, is_you=aid == user,
                   you_follow=follows(ctx, user, aid), follows_you=follows(ctx, aid, user), request_pending=pending,
                   blocked_by_you=blocked == "you", blocks_you=blocked == "them", messages_from=row["dm_policy"])


def editable_until(row: sqlite3.Row | dict[str, Any]) -> datetime:
    return datetime.fromisoformat(row["created_at"]) + timedelta(minutes=EDIT_WINDOW_MINUTES)


def notify(ctx: Ctx, kind: str, at: str, *, actor: str | None = None, post: str | None = None,
           report: str | None = None) -> None:
    ctx.db.execute("INSERT INTO notifications (notification_id, kind, actor_id, post_id, comment_id, report_id, "
                   "created_at, is_read) VALUES (?, ?, ?, ?, NULL, ?, ?, 0)",
                   (ctx.new_id("NTF"), kind, actor, post, report, at))
