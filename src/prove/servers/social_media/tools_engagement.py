"""Social media tools: likes, comments and replies, and reports of posts to the moderators."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, quote

from .server import (
    AccountId,
    CommentId,
    CommentablePostId,
    CommentText,
    DeletableCommentId,
    LikedPostId,
    Limit,
    OthersPostId,
    ReportablePostId,
    Post,
    PostId,
    ReportId,
    follows,
    me,
    post_model,
    readable_post,
    require_not_blocked,
)
from .world import REPORT_REVIEW_HOURS

tools = Toolset("engagement")

# a post by someone else: the comments a person leaves ("Great post!") are for other people's posts
_OTHERS = "author_id != (SELECT account_id FROM accounts WHERE is_me = 1)"

Reason = Literal["spam", "harassment", "hate", "misinformation", "violence", "impersonation", "other"]


class Comment(BaseModel):
    comment_id: CommentId
    post_id: PostId
    author_id: AccountId
    author_handle: str
    text: str
    created_at: str
    reply_to_comment_id: CommentId | None = Field(description="the comment this one answers, if it is a reply")


class CommentList(BaseModel):
    post_id: PostId
    comments: list[Comment] = Field(description="top-level comments oldest first, each followed by its replies")
    total: int
    said: str = Field("", description="the comments as people read them, oldest first: \"2 comments: @ana: 'Wow!'; "
                                      "@ben: 'Nice'\", or 'no comments yet'")


class Report(BaseModel):
    report_id: ReportId
    summary: str = Field(description="whose post it reports and why, such as "
                         "\"@jdoe's post 'Win a prize…', reported as spam\"")
    post_id: PostId
    post_author_handle: str
    post_text: str
    reason: Reason
    details: str | None
    status: Literal["open", "action_taken", "no_violation"]
    created_at: str
    review_by: str = Field(description="when the moderators review it (24 hours after filing)")
    resolved_at: str | None


class ReportList(BaseModel):
    reports: list[Report]
    total: int
    reports_text: str = Field(description="the reports in words, such as \"on March 15 you reported @jdoe's post 'Win "
                                          "a prize…' as spam; it's still open, due for review by March 16 at 8:05 "
                                          "PM\"")


def _when(text: str) -> str:
    at = datetime.fromisoformat(text)
    return f"{at:%B} {at.day} at {at.hour % 12 or 12}:{at.minute:02d} {'AM' if at.hour < 12 else 'PM'}"


def _reports_text(reports: list[Report]) -> str:
    said = []
    for r in reports:
        text = r.post_text if len(r.post_text) <= 50 else r.post_text[:48].rsplit(" ", 1)[0] + "…"
        outcome = {"open": f"it's still open, due for review by {_when(r.review_by)}",
                   "action_taken": "the moderators took action" + (f" on {_when(r.resolved_at)}" if r.resolved_at else ""),
                   "no_violation": "the moderators found no violation"}[r.status]
        filed = datetime.fromisoformat(r.created_at)
        why = {"hate": "hate speech", "other": "another reason"}.get(r.reason, r.reason)
        said.append(f"on {filed:%B} {filed.day} you reported @{r.post_author_handle}'s post '{text}' for {why}; "
                    f"{outcome}")
    return ". ".join(x[:1].upper() + x[1:] if i else x for i, x in enumerate(said)) if said else "no reports"


# ----- likes --------------------------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    "Like {post_id}.",
    "Give {post_id} a like, it's a great post.",
], reply=[
    "Liked {post_id}; it has {result.like_count} likes now.",
    "Done: you like {post_id}.",
])
def like_post(ctx: Ctx, post_id: OthersPostId) -> Post:
    """Like a post the user can see.

    Args:
        post_id: ID of the post, such as 'PST-10042'.

    Returns:
        The post with its new like count.

    Raises:
        not_found: no post has that ID, or it was deleted or removed.
        blocked: the author blocked the user, or the user blocked the author.
        private_account: the post is for its author's followers and the user does not follow them.
        already_liked: the user already liked the post.
    """
    readable_post(ctx, post_id)
    user = me(ctx)
    if ctx.db.execute("SELECT 1 FROM likes WHERE post_id = ? AND account_id = ?", (post_id, user)).fetchone():
        raise ToolError("already_liked", f"You already liked {post_id}.")
    ctx.db.execute("INSERT INTO likes (post_id, account_id, created_at) VALUES (?, ?, ?)", (post_id, user, ctx.now_iso()))
    return post_model(ctx, post_id)


@tools.tool(effect=WRITE, asks=[
    "Unlike {post_id}.",
    "Remove my like from {post_id}, I tapped it by accident.",
], reply=[
    "Removed your like from {post_id}.",
    "Done: {post_id} has {result.like_count} likes now.",
])
def unlike_post(ctx: Ctx, post_id: LikedPostId) -> Post:
    """Take back the user's like of a post.

    Args:
        post_id: ID of the post, such as 'PST-10042'.

    Returns:
        The post with its new like count.

    Raises:
        not_found: no post has that ID, or it was deleted or removed.
        blocked: the author blocked the user, or the user blocked the author.
        private_account: the post is for its author's followers and the user does not follow them.
        not_liked: the user has not liked the post.
    """
    readable_post(ctx, post_id)
    gone = ctx.db.execute("DELETE FROM likes WHERE post_id = ? AND account_id = ?", (post_id, me(ctx))).rowcount
    if not gone:
        raise ToolError("not_liked", f"You have not liked {post_id}.")
    return post_model(ctx, post_id)


# ----- comments -----------------------------------------------------------------------------------

COMMENTS = ("SELECT c.*, a.handle AS author_handle FROM comments c JOIN accounts a ON a.account_id = c.author_id ")
# A visible comment by someone with no block between them and the user.
COMMENT_VISIBLE = ("c.status = 'visible' AND NOT EXISTS (SELECT 1 FROM blocks b WHERE "
                   "(b.blocker_id = :me AND b.blocked_id = c.author_id) OR (b.blocker_id = c.author_id "
                   "AND b.blocked_id = :me))")


def _comment(row: sqlite3.Row) -> Comment:
    return Comment(comment_id=row["comment_id"], post_id=row["post_id"], author_id=row["author_id"],
                   author_handle=row["author_handle"], text=row["text"], created_at=row["created_at"],
                   reply_to_comment_id=row["parent_id"])


def _visible_comment(ctx: Ctx, comment_id: str) -> sqlite3.Row:
    row = ctx.db.execute(COMMENTS + f"WHERE c.comment_id = :id AND {COMMENT_VISIBLE}",
                         {"id": comment_id, "me": me(ctx)}).fetchone()
    if row is None:
        raise ToolError("not_found", f"No comment {quote(comment_id)} is available.",
                        hint="list_comments shows a post's comments; IDs look like 'CMT-10007'.")
    return row


@tools.tool(effect=READ, asks=[
    "What are people saying on {post_id}?",
    "Show me the comments on {post_id}.",
], reply=[
    "{post_id} has {result.said}.",
])
def list_comments(ctx: Ctx, post_id: PostId, limit: Limit = 50) -> CommentList:
    """List the comments on a post, each top-level comment followed by its replies.

    Comments of blocked accounts are left out.

    Args:
        post_id: ID of the post, such as 'PST-10042'.
        limit: the most comments to return, 1 to 100, such as 50.

    Returns:
        The comments (ID, author, text, time, the comment replied to) and how many there are.

    Raises:
        not_found: no post has that ID, or it was deleted or removed.
        blocked: the author blocked the user, or the user blocked the author.
        private_account: the post is for its author's followers and the user does not follow them.
    """
    readable_post(ctx, post_id)
    rows = ctx.db.execute(COMMENTS + f"WHERE c.post_id = :post AND {COMMENT_VISIBLE} ORDER BY c.created_at, "
                          "c.comment_id", {"post": post_id, "me": me(ctx)}).fetchall()
    top = [r for r in rows if r["parent_id"] is None]
    threaded: list[sqlite3.Row] = []
    for t in top:
        threaded.append(t)
        threaded.extend(r for r in rows if r["parent_id"] == t["comment_id"])
    orphans = [r for r in rows if r not in threaded]  # replies to comments no longer shown
    ordered = threaded + orphans
    shown = [_comment(r) for r in ordered[:limit]]
    user = me(ctx)
    said = "; ".join(f"{'you' if c.author_id == user else '@' + c.author_handle}: '{c.text}'" for c in shown)
    count = f"{len(ordered)} comment{'s' if len(ordered) != 1 else ''}"
    if len(shown) < len(ordered):
        count += f", the first {len(shown)}"
    return CommentList(post_id=post_id, comments=shown, total=len(ordered),
                       said=f"{count}: {said}" if shown else "no comments yet")


@tools.tool(effect=WRITE, asks=[
    Ask("Comment '{text}' on {post_id}.", fits={"post_id": _OTHERS}),
    "Reply to {reply_to_comment_id} on {post_id} with: {text}",
    Ask("Leave a comment on {post_id} saying: {text}", fits={"post_id": _OTHERS}),
], reply=[
    "Commented on {post_id}.",
    "Done: your comment is up.",
], values={
    "text": [
        # comments that suit any post (a 'Great shot!' needs a photo, a 'Recipe please!' a dish)
        "Love this!", "Totally agree.", "Saving this for later, thanks!", "Haha, so true.", "Thanks for sharing!",
        "Great post!",
    ],
})
def comment_on_post(ctx: Ctx, post_id: CommentablePostId, text: CommentText,
                    reply_to_comment_id: CommentId | None = None) -> Comment:
    """Comment on a post the user can see, or reply to a comment on it.

    A post whose reply policy is 'following' takes comments only from accounts its author follows.

    Args:
        post_id: ID of the post, such as 'PST-10042'.
        text: the comment, 1 to 500 characters, such as 'Congrats on the PR!'.
        reply_to_comment_id: ID of a comment on the same post to reply to, such as 'CMT-10007'.

    Returns:
        The new comment with its ID.

    Raises:
        not_found: no post or comment has that ID, they were deleted, or the comment is on another post.
        blocked: the post's or comment's author blocked the user, or the user blocked them.
        private_account: the post is for its author's followers and the user does not follow them.
        comments_restricted: the author only takes comments from accounts they follow.
    """
    post = readable_post(ctx, post_id)
    user = me(ctx)
    if post["reply_policy"] == "following" and post["author_id"] != user and not follows(ctx, post["author_id"], user):
        raise ToolError("comments_restricted", f"@{post['author_handle']} only takes comments from accounts they "
                        "follow, and they do not follow you.", hint="Like the post or send them a message instead.")
    if reply_to_comment_id is not None:
        parent = ctx.db.execute(COMMENTS + "WHERE c.comment_id = ? AND c.status = 'visible'",
                                (reply_to_comment_id,)).fetchone()
        if parent is None or parent["post_id"] != post_id:
            raise ToolError("not_found", f"No comment {quote(reply_to_comment_id)} is on {post_id}.",
                            hint="list_comments shows the post's comments.")
        require_not_blocked(ctx, ctx.get("account", parent["author_id"]))
    comment_id = ctx.new_id("CMT")
    ctx.db.execute("INSERT INTO comments (comment_id, post_id, author_id, parent_id, text, created_at, status) "
                   "VALUES (?, ?, ?, ?, ?, ?, 'visible')",
                   (comment_id, post_id, user, reply_to_comment_id, text, ctx.now_iso()))
    return _comment(ctx.db.execute(COMMENTS + "WHERE c.comment_id = ?", (comment_id,)).fetchone())


@tools.tool(effect=WRITE, asks=[
    "Delete {comment_id}.",
    Ask("Take {comment_id} off my post.",
        fits={"comment_id": f"post_id IN (SELECT post_id FROM posts WHERE NOT ({_OTHERS}))"}),
], reply=[
    "Deleted {comment_id}.",
    "Done: {comment_id} is gone.",
])
def delete_comment(ctx: Ctx, comment_id: DeletableCommentId) -> Comment:
    """Delete a comment the user wrote, or any comment on the user's own posts.

    Args:
        comment_id: ID of the comment, such as 'CMT-10007'.

    Returns:
        The comment that was deleted.

    Raises:
        not_found: no comment has that ID, or it was already deleted.
        not_allowed: the comment is someone else's, on someone else's post.
    """
    row = ctx.db.execute(COMMENTS + "WHERE c.comment_id = ? AND c.status = 'visible'", (comment_id,)).fetchone()
    if row is None:
        raise ToolError("not_found", f"No comment {quote(comment_id)} is available.",
                        hint="list_comments shows a post's comments; IDs look like 'CMT-10007'.")
    user = me(ctx)
    (post_author,) = ctx.db.execute("SELECT author_id FROM posts WHERE post_id = ?", (row["post_id"],)).fetchone()
    if row["author_id"] != user and post_author != user:
        raise ToolError("not_allowed", f"That comment is by @{row['author_handle']} on someone else's post.",
                        hint="You can delete your own comments and comments on your posts; report_post reports a post.")
    ctx.db.execute("UPDATE comments SET status = 'deleted' WHERE comment_id = ?", (comment_id,))
    return _comment(row)


# ----- reports --------------------------------------------------------------------------------------


REPORTS = ("SELECT r.*, a.handle AS post_author_handle, p.text AS post_text FROM reports r "
           "JOIN posts p ON p.post_id = r.post_id JOIN accounts a ON a.account_id = p.author_id ")


def _report(row: sqlite3.Row) -> Report:
    review = iso(datetime.fromisoformat(row["created_at"]) + timedelta(hours=REPORT_REVIEW_HOURS))
    summary = f"@{row['post_author_handle']}'s post '{row['post_text']}', reported as {row['reason']}"
    return Report(report_id=row["report_id"], summary=summary, post_id=row["post_id"],
                  post_author_handle=row["post_author_handle"],
                  post_text=row["post_text"], reason=row["reason"], details=row["details"], status=row["status"],
                  created_at=row["created_at"], review_by=review, resolved_at=row["resolved_at"])


@tools.tool(effect=WRITE, asks=[
    Ask("Report {post_id} as spam.", reason="spam"),
    Ask("Please report {post_id} as spam, it's a scam.", reason="spam"),
    Ask("Report {post_id} as spam: {details}", reason="spam"),
    # (a reason other than spam fits one scam: a brand's gift cards are impersonated, crypto returns made up)
    Ask("Report {post_id} for impersonation: {details}", reason="impersonation",
        fits={"post_id": "text LIKE '%gift card%'"}),
    Ask("Report {post_id} as misinformation: {details}", reason="misinformation",
        fits={"post_id": "text LIKE '%crypto%'"}),
], reply=[
    "Reported {post_id} for {reason}; the moderators review it by {result.review_by}.",
    "Done: the moderators will look at your report by {result.review_by}.",
], values={
    # synthesized reports are of the spam accounts' posts (see ReportablePostId); the reason and what
    # the report says fit such a post
    "reason, details": [
        ("spam", "Repeated links to a scam."), ("spam", "Posts the same scam dozens of times."),
        ("spam", "Asks everyone to DM them for money."),
        ("impersonation", "Pretends to hand out a brand's gift cards."),
        ("misinformation", "Promises impossible returns on crypto."),
    ],
})
def report_post(ctx: Ctx, post_id: ReportablePostId, reason: Reason,
                details: Annotated[str, StringConstraints(strip_whitespace=True, max_length=500)] | None = None
                ) -> Report:
    """Report a post to the moderators, who review it within 24 hours and remove it if it breaks the rules.

    Args:
        post_id: ID of the post, such as 'PST-10042'.
        reason: 'spam', 'harassment', 'hate', 'misinformation', 'violence', 'impersonation' or 'other'.
        details: optional words for the moderators, such as 'Fake giveaway asking for DMs.'.

    Returns:
        The report with its ID, status 'open' and when it will be reviewed.

    Raises:
        not_found: no post has that ID, or it was deleted or removed.
        blocked: the author blocked the user, or the user blocked the author.
        private_account: the post is for its author's followers and the user does not follow them.
        cannot_report_own: the post is the user's own.
        already_reported: the user already reported this post.
    """
    post = readable_post(ctx, post_id)
    if post["author_id"] == me(ctx):
        raise ToolError("cannot_report_own", "You cannot report your own post.", hint="Delete it with delete_post.")
    earlier = ctx.db.execute("SELECT report_id, status FROM reports WHERE post_id = ?", (post_id,)).fetchone()
    if earlier:
        raise ToolError("already_reported", f"You already reported {post_id} ({earlier['report_id']}, "
                        f"{earlier['status']}).", hint="list_reports shows where it stands.")
    report_id = ctx.new_id("RPT")
    ctx.db.execute("INSERT INTO reports (report_id, post_id, reason, details, status, created_at, resolved_at) "
                   "VALUES (?, ?, ?, ?, 'open', ?, NULL)", (report_id, post_id, reason, details or None, ctx.now_iso()))
    return _report(ctx.db.execute(REPORTS + "WHERE r.report_id = ?", (report_id,)).fetchone())


@tools.tool(effect=READ, asks=[
    "What happened to the posts I reported?",
    Ask("Which of my reports are still open?", status="open"),
    Ask("Which of my reports led the moderators to take action?", status="action_taken"),
], reply=[
    "{result.reports_text}.",
])
def list_reports(ctx: Ctx, status: Literal["open", "action_taken", "no_violation"] | None = None,
                 limit: Limit = 20) -> ReportList:
    """List the reports the user filed, newest first, with the moderators' decisions.

    Args:
        status: only reports that are 'open', 'action_taken' (the post was removed) or 'no_violation'.
        limit: the most reports to return, 1 to 100, such as 20.

    Returns:
        The reports (post, reason, status, when filed, reviewed and resolved) and how many there are.
    """
    sql, params = REPORTS, []
    if status is not None:
        sql += "WHERE r.status = ? "
        params.append(status)
    rows = ctx.db.execute(sql + "ORDER BY r.created_at DESC, r.report_id DESC", params).fetchall()
    reports = [_report(r) for r in rows[:limit]]
    return ReportList(reports=reports, total=len(rows), reports_text=_reports_text(reports))
