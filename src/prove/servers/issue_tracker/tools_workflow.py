"""The workflow (transitions, closing, reopening) and links between issues."""

from __future__ import annotations

from typing import Literal

from prove.env import WRITE, Ask, Ctx, ToolError, Toolset

from .server import (
    Issue,
    IssueId,
    ResolvedIssueId,
    Link,
    Resolution,
    Text,
    WorkIssueId,
    WorkLinkId,
    can_work_on_either,
    check_can_resolve,
    issue_for,
    issue_model,
    me,
    record,
)
from .world import RESOLVED, TRANSITIONS

tools = Toolset("workflow")


def _comment(ctx: Ctx, issue_id: str, body: str | None) -> None:
    if body:
        ctx.db.execute("INSERT INTO comments (comment_id, issue_id, author_id, body, created_at) "
                       "VALUES (?, ?, ?, ?, ?)",
                       (ctx.new_id("CMT"), issue_id, me(ctx), body, ctx.now_iso()))


@tools.tool(effect=WRITE, asks=[
    "Move {issue_id} to {status}.",
    Ask("I'm starting work on {issue_id}; mark it in progress.", status="in_progress"),
    Ask("{issue_id} is ready for review; put it in review with the comment '{comment}'.", status="in_review"),
    Ask("{issue_id} is finished; mark it done.", status="done"),
], reply=[
    "{issue_id} is now {status}.",
    "Moved {issue_id} ('{result.title}') to {status}.",
], values={
    # only the phrasing that sends an issue to review says a comment
    "comment": ["Ready for review; the tests are green.", "Fix is up for review, please take a look.",
                "Implemented as discussed; ready for QA.", "Done on my side, needs a second pair of eyes.",
                "Verified on iOS and Android; ready for review."],
})
def transition_issue(ctx: Ctx, issue_id: WorkIssueId, status: Literal["open", "in_progress", "in_review", "done"],
                     comment: Text | None = None) -> Issue:
    """Move an issue along the workflow: open -> in_progress -> in_review -> done, or one step back.

    Allowed moves: open to in_progress; in_progress to in_review or back to open; in_review to
    done or back to in_progress. Starting an unassigned issue assigns it to the signed-in user.
    To close without finishing use close_issue; to reopen a done issue use reopen_issue.

    Args:
        issue_id: ID of the issue, such as 'WEB-10012'.
        status: the new status: 'open', 'in_progress', 'in_review' or 'done'.
        comment: optional comment to add with the move, such as 'Ready for QA.'.

    Returns:
        The updated issue.

    Raises:
        not_found: no issue has that ID.
        project_archived: the issue's project is archived.
        permission_denied: the user is not a member or admin of the issue's project.
        invalid_transition: the workflow does not allow moving from the current status to `status`.
        blocked: moving to done while an unresolved issue blocks this one.
        open_children: moving an epic to done while some of its issues are unresolved.
    """
    issue = issue_for(ctx, issue_id)
    allowed = TRANSITIONS[issue["status"]]
    if status not in allowed:
        if issue["status"] in RESOLVED:
            hint = "Reopen it with reopen_issue first."
        else:
            hint = f"From {issue['status']} it can move to: {', '.join(allowed)}."
        raise ToolError("invalid_transition", f"{issue_id} is {issue['status']}; it cannot move to {status}.",
                        hint=hint)
    if status == "done":
        check_can_resolve(ctx, issue)
        ctx.db.execute("UPDATE issues SET status = 'done', resolution = 'fixed', resolved_at = ? WHERE issue_id = ?",
                       (ctx.now_iso(), issue_id))
    else:
        ctx.db.execute("UPDATE issues SET status = ? WHERE issue_id = ?", (status, issue_id))
    record(ctx, issue_id, "status", issue["status"], status)
    if status == "in_progress" and issue["assignee_id"] is None:
        uid = me(ctx)
        ctx.db.execute("UPDATE issues SET assignee_id = ? WHERE issue_id = ?", (uid, issue_id))
        ctx.db.execute("INSERT OR IGNORE INTO watchers (issue_id, user_id) VALUES (?, ?)", (issue_id, uid))
        record(ctx, issue_id, "assignee", None, uid)
    _comment(ctx, issue_id, comment)
    return issue_model(ctx, issue_id)


@tools.tool(effect=WRITE, asks=[
    "Close {issue_id} as {resolution}.",
    Ask("Close {issue_id} as fixed, with the note '{comment}'.", resolution="fixed"),
    Ask("{issue_id} is a duplicate of {duplicate_of}; close it.", resolution="duplicate"),
    Ask("We can't reproduce {issue_id}; close it.", resolution="cannot_reproduce"),
], reply=[
    "Closed {issue_id} as {resolution}.",
    "{issue_id} is closed ({resolution}).",
    Ask("Closed {issue_id} as a duplicate of {duplicate_of}.", resolution="duplicate"),
], values={
    # only the phrasing that closes an issue as fixed says a comment
    "comment": ["Fixed in the latest build, please verify.", "Root cause found and fixed; details in the PR.",
                "Fixed by the config change in the last deploy.", "Patched and verified on staging.",
                "The fix shipped with this week's release."],
})
def close_issue(ctx: Ctx, issue_id: WorkIssueId, resolution: Resolution, duplicate_of: IssueId | None = None,
                comment: Text | None = None) -> Issue:
    """Close an unresolved issue with a resolution, from any status; a duplicate is linked to the original.

    Args:
        issue_id: ID of the issue, such as 'WEB-10012'.
        resolution: why: 'fixed', 'wont_fix', 'duplicate', 'cannot_reproduce' or 'obsolete'.
        duplicate_of: with resolution 'duplicate' (and only then), the original issue, such as 'WEB-10007'.
        comment: optional comment explaining the closure, such as 'Fixed by the config change.'.

    Returns:
        The closed issue.

    Raises:
        not_found: the issue or the original does not exist.
        project_archived: the issue's project is archived.
        permission_denied: the user is not a member or admin of the issue's project.
        already_closed: the issue is already done or closed.
        invalid_duplicate: resolution 'duplicate' without duplicate_of, duplicate_of with another
            resolution, or an issue marked a duplicate of itself.
        blocked: an unresolved issue blocks this one.
        open_children: the issue is an epic with unresolved issues.
    """
    issue = issue_for(ctx, issue_id)
    if issue["status"] in RESOLVED:
        raise ToolError("already_closed", f"{issue_id} is already {issue['status']} ({issue['resolution']}).",
                        hint="Reopen it with reopen_issue if it needs more work.")
    if (resolution == "duplicate") != (duplicate_of is not None) or duplicate_of == issue_id:
        raise ToolError("invalid_duplicate", "A duplicate needs duplicate_of naming the original (another issue), "
                        "and only a duplicate takes duplicate_of.", hint="Pass resolution='duplicate' with "
                        "duplicate_of, or drop duplicate_of.")
    if duplicate_of is not None:
        ctx.get("issue", duplicate_of)
    check_can_resolve(ctx, issue)
    ctx.db.execute("UPDATE issues SET status = 'closed', resolution = ?, resolved_at = ? WHERE issue_id = ?",
                   (resolution, ctx.now_iso(), issue_id))
    record(ctx, issue_id, "status", issue["status"], "closed")
    record(ctx, issue_id, "resolution", None, resolution)
    if duplicate_of is not None:
        exists = ctx.db.execute("SELECT 1 FROM links WHERE source_id = ? AND target_id = ? AND type = 'duplicates'",
                                (issue_id, duplicate_of)).fetchone()
        if not exists:
            ctx.db.execute("INSERT INTO links (link_id, source_id, target_id, type, created_at) "
                           "VALUES (?, ?, ?, 'duplicates', ?)",
                           (ctx.new_id("LNK"), issue_id, duplicate_of, ctx.now_iso()))
    _comment(ctx, issue_id, comment)
    return issue_model(ctx, issue_id)


@tools.tool(effect=WRITE, asks=[
    "Reopen {issue_id}.",
    "{issue_id} is happening again; reopen it and note '{comment}'.",
], reply=[
    "Reopened {issue_id}; it's {result.status} again.",
    "{issue_id} is back open.",
], values={
    "comment": [
        "Seen again in production today.", "The fix did not cover Safari.", "Regression after the last release.",
        "QA found it again on Android.", "Customer reported it again this morning.", "Still happening on staging.",
    ],
})
def reopen_issue(ctx: Ctx, issue_id: ResolvedIssueId, comment: Text | None = None) -> Issue:
    """Reopen a done or closed issue: it becomes open again, without a resolution.

    An issue whose sprint is completed goes back to the backlog.

    Args:
        issue_id: ID of the issue, such as 'WEB-10015'.
        comment: optional comment saying why, such as 'Still happens on iOS.'.

    Returns:
        The reopened issue.

    Raises:
        not_found: no issue has that ID.
        project_archived: the issue's project is archived.
        permission_denied: the user is not a member or admin of the issue's project.
        not_resolved: the issue is not done or closed.
    """
    issue = issue_for(ctx, issue_id)
    if issue["status"] not in RESOLVED:
        raise ToolError("not_resolved", f"{issue_id} is {issue['status']}, not done or closed.",
                        hint="Only done or closed issues can be reopened.")
    ctx.db.execute("UPDATE issues SET status = 'open', resolution = NULL, resolved_at = NULL WHERE issue_id = ?",
                   (issue_id,))
    record(ctx, issue_id, "status", issue["status"], "open")
    if issue["sprint_id"] is not None:
        sprint = ctx.get("sprint", issue["sprint_id"])
        if sprint["status"] == "completed":
            ctx.db.execute("UPDATE issues SET sprint_id = NULL WHERE issue_id = ?", (issue_id,))
            record(ctx, issue_id, "sprint", issue["sprint_id"], None)
    _comment(ctx, issue_id, comment)
    return issue_model(ctx, issue_id)


# ----- links -----------------------------------------------------------------------------------------------

def _reaches(ctx: Ctx, start: str, goal: str) -> bool:
    """Whether `start` blocks `goal`, directly or through other issues."""
    seen, todo = {start}, [start]
    while todo:
        current = todo.pop()
        for (nxt,) in ctx.db.execute("SELECT target_id FROM links WHERE source_id = ? AND type = 'blocks'",
                                     (current,)):
            if nxt == goal:
                return True
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


@tools.tool(effect=WRITE, asks=[
    Ask("{issue_id} blocks {other_issue_id}; link them.", relation="blocks"),
    Ask("Record that {issue_id} is blocked by {other_issue_id}.", relation="is_blocked_by"),
    Ask("Mark {issue_id} as a duplicate of {other_issue_id}.", relation="duplicates"),
    Ask("Link {issue_id} to {other_issue_id} as related.", relation="relates_to"),
], reply=[
    # the relation is what was asked: said back
    Ask("Done: {issue_id} now blocks {other_issue_id}.", relation="blocks"),
    Ask("Done: {issue_id} is now marked as blocked by {other_issue_id}.", relation="is_blocked_by"),
    Ask("Done: {issue_id} is marked as a duplicate of {other_issue_id}.", relation="duplicates"),
    Ask("Linked {issue_id} to {other_issue_id} as related.", relation="relates_to"),
    "Linked {issue_id} and {other_issue_id}.",
    "Done: {issue_id} and {other_issue_id} are linked now.",
])
def link_issues(ctx: Ctx, issue_id: IssueId, other_issue_id: IssueId,
                relation: Literal["blocks", "is_blocked_by", "duplicates", "is_duplicated_by", "relates_to"]) -> Link:
    """Link two issues: `issue_id` <relation> `other_issue_id`, such as 'WEB-10009 blocks WEB-10012'.

    An issue that is blocked by an unresolved issue cannot be completed or closed.

    Args:
        issue_id: the first issue, such as 'WEB-10009'.
        other_issue_id: the second issue, such as 'WEB-10012' (it may be in another project).
        relation: 'blocks', 'is_blocked_by', 'duplicates', 'is_duplicated_by' or 'relates_to'.

    Returns:
        The link as stored: source_id <type> target_id, with its ID.

    Raises:
        not_found: an issue does not exist.
        project_archived: the user's issue is in an archived project.
        permission_denied: the user is not a member or admin of either issue's project.
        self_link: both IDs are the same issue.
        already_linked: the two issues are already linked.
        circular_dependency: the new 'blocks' link would close a cycle of blockers.
    """
    a = ctx.get("issue", issue_id)
    b = ctx.get("issue", other_issue_id)
    if issue_id == other_issue_id:
        raise ToolError("self_link", "An issue cannot be linked to itself.", hint="Pick two different issues.")
    can_work_on_either(ctx, a, b)
    existing = ctx.db.execute("SELECT link_id, type FROM links WHERE (source_id = ? AND target_id = ?) "
                              "OR (source_id = ? AND target_id = ?)",
                              (issue_id, other_issue_id, other_issue_id, issue_id)).fetchone()
    if existing:
        raise ToolError("already_linked", f"{issue_id} and {other_issue_id} are already linked "
                        f"({existing['type']}, {existing['link_id']}).",
                        hint="Remove the link with unlink_issues first to change it.")
    source, target = (issue_id, other_issue_id) if not relation.startswith("is_") else (other_issue_id, issue_id)
    kind = {"blocks": "blocks", "is_blocked_by": "blocks", "duplicates": "duplicates",
            "is_duplicated_by": "duplicates", "relates_to": "relates_to"}[relation]
    if kind == "blocks" and _reaches(ctx, target, source):
        raise ToolError("circular_dependency", f"{target} already blocks {source} (directly or through other "
                        "issues); the link would make a cycle.", hint="Check the existing links with get_issue.")
    link_id = ctx.new_id("LNK")
    at = ctx.now_iso()
    ctx.db.execute("INSERT INTO links (link_id, source_id, target_id, type, created_at) VALUES (?, ?, ?, ?, ?)",
                   (link_id, source, target, kind, at))
    record(ctx, issue_id, "link", None, f"{relation} {other_issue_id}")
    return Link(link_id=link_id, source_id=source, target_id=target, type=kind, created_at=at)


@tools.tool(effect=WRITE, asks=[
    "Remove {link_id}.",
    "Those two issues aren't related after all; delete {link_id}.",
], reply=[
    "Removed the link between {result.source_id} and {result.target_id}.",
    "{result.source_id} and {result.target_id} are no longer linked.",
])
def unlink_issues(ctx: Ctx, link_id: WorkLinkId) -> Link:
    """Remove a link between two issues (get_issue shows each link's ID).

    Args:
        link_id: ID of the link, such as 'LNK-10002'.

    Returns:
        The link that was removed.

    Raises:
        not_found: no link has that ID.
        project_archived: the user's issue is in an archived project.
        permission_denied: the user is not a member or admin of either issue's project.
    """
    link = ctx.get("link", link_id)
    can_work_on_either(ctx, ctx.get("issue", link["source_id"]), ctx.get("issue", link["target_id"]))
    ctx.db.execute("DELETE FROM links WHERE link_id = ?", (link_id,))
    record(ctx, link["source_id"], "link", f"{link['type']} {link['target_id']}", None)
    return Link(**{k: link[k] for k in link.keys()})

