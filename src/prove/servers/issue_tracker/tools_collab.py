"""Collaboration on issues: comments, labels and watchers."""

from __future__ import annotations

import sqlite3
from typing import Annotated

from pydantic import Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import quote, said_in_part, spoken_day

from .server import (
    COMMENTS,
    STAGED_COMMENTS,
    Comment,
    CommentIssueId,
    CommentList,
    IssueId,
    Label,
    Labels,
    Limit,
    MyCommentId,
    OtherUserId,
    Text,
    Watchers,
    WorkIssueId,
    add_labels_to,
    issue_for,
    labels_of,
    me,
    normalize_labels,
    record,
    require,
)

tools = Toolset("collab")

COMMENT_SQL = "SELECT c.*, u.name AS author_name FROM comments c JOIN users u ON u.user_id = c.author_id"


def _comment(row) -> Comment:  # noqa: ANN001 - a sqlite3.Row
    return Comment(**{k: row[k] for k in row.keys()})


# ----- comments ----------------------------------------------------------------------------------------

@tools.tool(effect=WRITE, asks=[
    "Comment on {issue_id}: {body}",
    "Add a comment to {issue_id} saying '{body}'.",
    "Reply on {issue_id}: {body}",
    *(Ask(f"Comment on {{issue_id}}: {body}", body=body, fits={"issue_id": fits})
      for body, fits in STAGED_COMMENTS.items()),
], reply=[
    "Posted your comment on {issue_id}.",
    "Your comment is on {issue_id} now.",
], values={
    "body": COMMENTS,
})
def add_comment(ctx: Ctx, issue_id: CommentIssueId, body: Text) -> Comment:
    """Add a comment to an issue, as the signed-in user (any member, admin or viewer of its project may).

    Args:
        issue_id: ID of the issue, such as 'WEB-10012'.
        body: the comment, such as 'Reproduced on staging with a saved card.'.

    Returns:
        The new comment with its ID.

    Raises:
        not_found: no issue has that ID.
        project_archived: the issue's project is archived.
        permission_denied: the user is not a member of the issue's project.
    """
    issue_for(ctx, issue_id, "comment")
    comment_id = ctx.new_id("CMT")
    ctx.db.execute("INSERT INTO comments (comment_id, issue_id, author_id, body, created_at) VALUES (?, ?, ?, ?, ?)",
                   (comment_id, issue_id, me(ctx), body, ctx.now_iso()))
    ctx.db.execute("UPDATE issues SET updated_at = ? WHERE issue_id = ?", (ctx.now_iso(), issue_id))
    return _comment(ctx.db.execute(COMMENT_SQL + " WHERE c.comment_id = ?", (comment_id,)).fetchone())


@tools.tool(effect=READ, asks=[
    "What are people saying on {issue_id}?",
    Ask("Show me the latest {limit} comments on {issue_id}.", newest_first=True),
    "Read me the discussion on {issue_id} from the start.",
], reply=[
    Ask("The latest on {issue_id}, newest first: {result.comments_text}.", newest_first=True),
    Ask("{issue_id} has {result.total} comments: {result.comments_text}.", newest_first=False),
])
def list_comments(ctx: Ctx, issue_id: IssueId, newest_first: bool = False, limit: Limit = 20) -> CommentList:
    """List the comments on an issue.

    Args:
        issue_id: ID of the issue, such as 'WEB-10012'.
        newest_first: order newest first instead of oldest first (default false).
        limit: the most comments to return, 1 to 100, such as 20.

    Returns:
        The comments (ID, author, text, when written and last edited) and the total.

    Raises:
        not_found: no issue has that ID.
    """
    ctx.get("issue", issue_id)
    order = "DESC" if newest_first else "ASC"
    rows = ctx.db.execute(COMMENT_SQL + f" WHERE c.issue_id = ? ORDER BY c.created_at {order}, c.comment_id {order}",
                          (issue_id,)).fetchall()
    comments = [_comment(r) for r in rows[:limit]]
    user, today = me(ctx), ctx.today()
    said = [f"{'you' if c.author_id == user else c.author_name} on {spoken_day(c.created_at, today)}: '{c.body}'"
            for c in (comments if len(comments) <= 8 else comments[:6])]
    return CommentList(comments=comments, total=len(rows), comments_text=said_in_part(said, len(rows), "none"))


@tools.tool(effect=WRITE, asks=[
    "Edit {comment_id} to say '{body}'.",
    "Change {comment_id} to read: {body}",
], reply=[
    "Your comment on {result.issue_id} now reads: '{body}'",
    "Edited {comment_id}; it says '{body}' now.",
], values={
    "body": COMMENTS,
})
def edit_comment(ctx: Ctx, comment_id: MyCommentId, body: Text) -> Comment:
    """Change the text of one of the signed-in user's own comments.

    Args:
        comment_id: ID of the comment, such as 'CMT-10020'.
        body: the new text, such as 'Reproduced on staging and production.'.

    Returns:
        The edited comment.

    Raises:
        not_found: no comment has that ID.
        not_author: the comment was written by someone else.
        project_archived: the issue's project is archived.
        no_change: the comment already has that text.
    """
    row = ctx.get("comment", comment_id)
    if row["author_id"] != me(ctx):
        raise ToolError("not_author", f"Comment {comment_id} was written by someone else.",
                        hint="You can only edit your own comments; add a new comment instead.")
    issue = ctx.get("issue", row["issue_id"])
    require(ctx, issue["project_id"], "view")
    if row["body"] == body:
        raise ToolError("no_change", f"Comment {comment_id} already says that.", hint="Nothing to do.")
    ctx.db.execute("UPDATE comments SET body = ?, edited_at = ? WHERE comment_id = ?", (body, ctx.now_iso(), comment_id))
    return _comment(ctx.db.execute(COMMENT_SQL + " WHERE c.comment_id = ?", (comment_id,)).fetchone())


# ----- labels ------------------------------------------------------------------------------------------

@tools.tool(effect=WRITE, asks=[
    "Label {issue_id} with {labels}.",
    "Tag {issue_id} as {labels}.",
], reply=[
    "{issue_id} is labelled {labels} now.",
    "Added {labels} to {issue_id}.",
], values={
    "labels": [["tech-debt"], ["regression"], ["needs-design", "ux"], ["customer-reported"],
               ["performance", "backend"], ["security"]],
})
def add_labels(ctx: Ctx, issue_id: WorkIssueId,
               labels: Annotated[list[Label], Field(min_length=1, max_length=10)]) -> Labels:
    """Add labels to an issue (labels it already has are skipped); an issue has at most 10 labels.

    Args:
        issue_id: ID of the issue, such as 'WEB-10012'.
        labels: 1 to 10 labels, lower-case letters, digits and dashes, such as ['regression', 'customer-reported'].

    Returns:
        The issue's labels and those that were added.

    Raises:
        not_found: no issue has that ID.
        project_archived: the issue's project is archived.
        permission_denied: the user is not a member or admin of the issue's project.
        invalid_label: a label has characters other than lower-case letters, digits and dashes.
        no_change: the issue already has every label given.
        too_many_labels: the issue would have more than 10 labels.
    """
    issue_for(ctx, issue_id)
    tags = normalize_labels(labels)
    if all(t in labels_of(ctx, issue_id) for t in tags):
        raise ToolError("no_change", f"{issue_id} already has {', '.join(tags)}.", hint="Nothing to do.")
    added = add_labels_to(ctx, issue_id, tags)
    record(ctx, issue_id, "labels", None, ", ".join(added))
    return Labels(issue_id=issue_id, labels=labels_of(ctx, issue_id), added=added)


@tools.tool(effect=WRITE, asks=[
    "Remove the {label} label from {issue_id}.",
    "{issue_id} shouldn't be labelled {label} anymore; untag it.",
], reply=[
    "Removed {label} from {issue_id}.",
    "{issue_id} no longer carries the {label} label.",
])
def remove_label(ctx: Ctx, issue_id: WorkIssueId, label: Label) -> Labels:
    """Remove one label from an issue.

    Args:
        issue_id: ID of the issue, such as 'WEB-10012'.
        label: the label to remove, such as 'regression'.

    Returns:
        The issue's remaining labels and the one removed.

    Raises:
        not_found: no issue has that ID.
        project_archived: the issue's project is archived.
        permission_denied: the user is not a member or admin of the issue's project.
        label_not_found: the issue does not have that label.
    """
    issue_for(ctx, issue_id)
    tag = label.strip().lower().replace(" ", "-")
    if tag not in labels_of(ctx, issue_id):
        have = ", ".join(labels_of(ctx, issue_id)) or "none"
        raise ToolError("label_not_found", f"{issue_id} has no label {quote(label)}.", hint=f"Its labels: {have}.")
    ctx.db.execute("DELETE FROM labels WHERE issue_id = ? AND label = ?", (issue_id, tag))
    record(ctx, issue_id, "labels", tag, None)
    return Labels(issue_id=issue_id, labels=labels_of(ctx, issue_id), removed=[tag])


# ----- watchers -------------------------------------------------------------------------------------------

def _watcher(ctx: Ctx, issue_id: str, user_id: str | None) -> tuple[str, sqlite3.Row]:
    """Who watches or stops watching (default: the user) and their row; the issue's project must not be archived."""
    issue = ctx.get("issue", issue_id)
    who = user_id or me(ctx)
    user = ctx.get("user", who)
    require(ctx, issue["project_id"], "view")
    return who, user


def _watchers(ctx: Ctx, issue_id: str, user_id: str) -> Watchers:
    ids = [r[0] for r in ctx.db.execute("SELECT user_id FROM watchers WHERE issue_id = ? ORDER BY user_id",
                                        (issue_id,))]
    name = ctx.get("user", user_id)["name"]
    return Watchers(issue_id=issue_id, user_id=user_id, user_name=name, watchers=ids, total=len(ids))


@tools.tool(effect=WRITE, asks=[
    "Watch {issue_id} for me.",
    "Keep me posted on {issue_id}.",
    "Add {user_id} as a watcher on {issue_id}.",
], reply=[
    Ask("You're watching {issue_id}; it has {result.total} watchers now.", user_id=None),
    Ask("You'll get notifications for {issue_id} now.", user_id=None),
    "Added {result.user_name} to the watchers of {issue_id}; it has {result.total} watchers now.",
    "{result.user_name} is watching {issue_id} now.",
])
def watch_issue(ctx: Ctx, issue_id: IssueId, user_id: OtherUserId | None = None) -> Watchers:
    """Start watching an issue (get notified of its changes), or add someone else as a watcher.

    Args:
        issue_id: ID of the issue, such as 'WEB-10012'.
        user_id: who should watch it, such as 'USR-10006'; omit for the signed-in user.

    Returns:
        The issue's watchers after the change.

    Raises:
        not_found: the issue or user does not exist.
        project_archived: the issue's project is archived.
        user_inactive: the user's account is deactivated.
        already_watching: the user already watches the issue.
    """
    who, user = _watcher(ctx, issue_id, user_id)
    if not user["active"]:
        raise ToolError("user_inactive", f"{user['name']}'s account is deactivated.", hint="Pick an active user.")
    if ctx.db.execute("SELECT 1 FROM watchers WHERE issue_id = ? AND user_id = ?", (issue_id, who)).fetchone():
        raise ToolError("already_watching", f"{user['name']} already watches {issue_id}.", hint="Nothing to do.")
    ctx.db.execute("INSERT INTO watchers (issue_id, user_id) VALUES (?, ?)", (issue_id, who))
    return _watchers(ctx, issue_id, who)


@tools.tool(effect=WRITE, asks=[
    "Stop watching {issue_id}.",
    "I don't need notifications for {issue_id} anymore.",
    "Remove {user_id} from the watchers of {issue_id}.",
], reply=[
    Ask("You stopped watching {issue_id}; no more notifications for it.", user_id=None),
    Ask("You're off the watchers of {issue_id}; watchers left: {result.total}.", user_id=None),
    "Removed {result.user_name} from the watchers of {issue_id}; watchers left: {result.total}.",
    "{result.user_name} no longer watches {issue_id}.",
])
def unwatch_issue(ctx: Ctx, issue_id: IssueId, user_id: OtherUserId | None = None) -> Watchers:
    """Stop watching an issue, or remove someone else from its watchers.

    Args:
        issue_id: ID of the issue, such as 'WEB-10012'.
        user_id: who should stop watching, such as 'USR-10006'; omit for the signed-in user.

    Returns:
        The issue's watchers after the change.

    Raises:
        not_found: the issue or user does not exist.
        project_archived: the issue's project is archived.
        not_watching: the user does not watch the issue.
    """
    who, user = _watcher(ctx, issue_id, user_id)
    gone = ctx.db.execute("DELETE FROM watchers WHERE issue_id = ? AND user_id = ?", (issue_id, who)).rowcount
    if not gone:
        raise ToolError("not_watching", f"{user['name']} does not watch {issue_id}.", hint="Nothing to do.")
    return _watchers(ctx, issue_id, who)
