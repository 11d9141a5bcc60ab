"""Issues: search, read, create, edit, assign, plan into sprints, bulk edits and history."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import like, parse_date, said_in_part, spoken_day

from .server import (
    ISSUE_SQL,
    PRIORITY_ORDER,
    BulkResult,
    Change,
    History,
    Issue,
    IssueId,
    IssueList,
    IssueSummary,
    IssueType,
    Label,
    Limit,
    Minutes,
    Points,
    Priority,
    ProjectId,
    Query,
    SprintId,
    Status,
    Text,
    Title,
    UserId,
    WorkIssueId,
    WorkProjectId,
    add_labels_to,
    assignable,
    issue_for,
    issue_model,
    me,
    normalize_labels,
    record,
    require,
    summary,
    summary_of,
    usable_sprint,
)
from .world import LABELS

tools = Toolset("issues")

SORTS = {
    "updated": "i.updated_at DESC, i.issue_id",
    "created": "i.created_at DESC, i.issue_id",
    "priority": f"{PRIORITY_ORDER}, i.updated_at DESC, i.issue_id",
    "due_date": "i.due_date IS NULL, i.due_date, i.issue_id",
}


def _valid_due(ctx: Ctx, due_date: str) -> str:
    due = parse_date(due_date, "due_date")
    if due < ctx.today():
        raise ToolError("past_date", f"The due date {due} is before today ({ctx.today()}).",
                        hint="Pick today or a later date.")
    return due.isoformat()


def _valid_parent(ctx: Ctx, parent_id: str, project_id: str, issue_id: str | None = None) -> None:
    parent = ctx.get("issue", parent_id)
    if parent["type"] != "epic" or parent["project_id"] != project_id or parent["issue_id"] == issue_id:
        raise ToolError("invalid_parent", f"{parent_id} is not an epic of the same project.",
                        hint="search_issues with type='epic' and the project lists its epics.")


# ----- reading -----------------------------------------------------------------------------------------

@tools.tool(effect=READ, asks=[
    "Find issues about {query}.",
    "Find the issue titled '{query}'.",
    "Which {type} issues in {project_id} are marked {priority}?",
    "What's assigned to {assignee_id} that is still {status}?",
    "Which issues in {sprint_id} are labelled {label}?",
    "List the issues in {project_id}, sorted by {sort}.",
    Ask("Which unresolved issues in {project_id} have nobody assigned?", unresolved_only=True, unassigned=True),
    Ask("What in {project_id} is overdue?", overdue=True),
    Ask("Which issues am I watching?", watching=True),
    Ask("What's sitting in the backlog of {project_id}?", backlog_only=True),
], values={
    "label": list(LABELS),  # the labels issues carry
}, reply=[
    "I found {result.total} issues: {result.issues_text}.",
])
def search_issues(ctx: Ctx, query: Query | None = None, project_id: ProjectId | None = None,
                  status: Status | None = None, unresolved_only: bool = False, type: IssueType | None = None,
                  priority: Priority | None = None, assignee_id: UserId | None = None, unassigned: bool = False,
                  reporter_id: UserId | None = None, label: Label | None = None, sprint_id: SprintId | None = None,
                  backlog_only: bool = False, overdue: bool = False, watching: bool = False,
                  sort: Literal["updated", "created", "priority", "due_date"] = "updated",
                  limit: Limit = 20) -> IssueList:
    """Search issues across projects with filters; every filter given must match.

    Args:
        query: text in the title, description or ID, such as 'checkout' (case does not matter).
        project_id: only this project, such as 'PRJ-10001'.
        status: only issues in this status: 'open', 'in_progress', 'in_review', 'done' or 'closed'.
        unresolved_only: only issues that are not done or closed (default false).
        type: only 'bug', 'task', 'story' or 'epic'.
        priority: only 'critical', 'high', 'medium' or 'low'.
        assignee_id: only issues assigned to this user, such as 'USR-10001'.
        unassigned: only issues without an assignee (default false).
        reporter_id: only issues reported by this user, such as 'USR-10005'.
        label: only issues with this label, such as 'tech-debt'.
        sprint_id: only issues in this sprint, such as 'SPR-10004'.
        backlog_only: only issues in no sprint (default false).
        overdue: only unresolved issues due before today (default false).
        watching: only issues the signed-in user watches (default false).
        sort: 'updated' (newest first, default), 'created' (newest first), 'priority' (most urgent
            first) or 'due_date' (soonest first).
        limit: the most issues to return, 1 to 100, such as 20.

    Returns:
        Matching issue summaries (ID, project, type, title, status, priority, assignee, sprint, due
        date, whether overdue, labels, last update) and the total number of matches.

    Raises:
        not_found: a project, user or sprint given as a filter does not exist.
        conflicting_filters: assignee_id with unassigned, or sprint_id with backlog_only.
    """
    if assignee_id is not None and unassigned:
        raise ToolError("conflicting_filters", "An issue cannot be both assigned to someone and unassigned.",
                        hint="Pass either assignee_id or unassigned=true.")
    if sprint_id is not None and backlog_only:
        raise ToolError("conflicting_filters", "An issue in a sprint is not in the backlog.",
                        hint="Pass either sprint_id or backlog_only=true.")
    where = Where()
    if query is not None:
        where.add("(i.title LIKE ? ESCAPE '\\' OR i.description LIKE ? ESCAPE '\\' "
                  "OR i.issue_id LIKE ? ESCAPE '\\')", *[like(query)] * 3)
    where.entity(ctx, "project", "i.project_id", project_id)
    where.eq("i.status", status)
    if unresolved_only or overdue:
        where.add("i.status NOT IN ('done', 'closed')")
    where.eq("i.type", type)
    where.eq("i.priority", priority)
    where.entity(ctx, "user", "i.assignee_id", assignee_id)
    if unassigned:
        where.add("i.assignee_id IS NULL")
    where.entity(ctx, "user", "i.reporter_id", reporter_id)
    if label is not None:
        where.add("EXISTS (SELECT 1 FROM labels l WHERE l.issue_id = i.issue_id AND l.label = ?)",
                  label.lower().replace(" ", "-"))
    where.entity(ctx, "sprint", "i.sprint_id", sprint_id)
    if backlog_only:
        where.add("i.sprint_id IS NULL")
    if overdue:
        where.add("i.due_date < ?", ctx.today().isoformat())
    if watching:
        where.add("EXISTS (SELECT 1 FROM watchers w WHERE w.issue_id = i.issue_id AND w.user_id = ?)", me(ctx))
    rows = ctx.db.execute(f"{ISSUE_SQL} WHERE {where.sql} ORDER BY {SORTS[sort]}", where.params).fetchall()
    issues = [summary(ctx, r) for r in rows[:limit]]
    user, today = me(ctx), ctx.today()

    def one(i: IssueSummary) -> str:
        notes = [] if status is not None else [i.status.replace("_", " ")]
        if priority is None and sort == "priority":
            notes.append(f"{i.priority} priority")
        if assignee_id is None and not unassigned:
            notes.append("unassigned" if i.assignee_id is None else "assigned to you" if i.assignee_id == user
                         else f"assigned to {i.assignee_name}")
        if i.due_date and (overdue or sort == "due_date"):
            notes.append(f"due {spoken_day(i.due_date, today)}")
        return f"{i.issue_id} '{i.title}'" + (f" ({', '.join(notes)})" if notes else "")
    return IssueList(issues=issues, total=len(rows),
                     issues_text=said_in_part([one(i) for i in (issues if len(issues) <= 8 else issues[:6])],
                                              len(rows), "none"))


@tools.tool(effect=READ, asks=[
    "Show me {issue_id}.",
    "What's the status of {issue_id} and what is blocking it?",
    "Who is working on {issue_id}?",
], reply=[
    # One reply a question: the issue as a whole; where it stands and what blocks it; who is on it.
    "{issue_id} ('{result.title}') is {result.status}, {result.priority} priority; {result.working_text}, and "
    "{result.blocking_text}.",
    "{issue_id} is {result.status}, and {result.blocking_text}.",
    "{issue_id}: {result.working_text}.",
])
def get_issue(ctx: Ctx, issue_id: IssueId) -> Issue:
    """Get one issue in full: fields, links, blockers, watchers, time tracking and allowed transitions.

    Args:
        issue_id: ID of the issue, such as 'WEB-10012' (IDs start with the project's key).

    Returns:
        The issue with its description, status and resolution, priority, assignee, reporter,
        sprint, epic and child issues, story points, estimate, time spent and remaining (minutes),
        due date, labels, links (with the other issue's status), unresolved blockers, watchers,
        comment count and the statuses transition_issue can move it to.

    Raises:
        not_found: no issue has that ID.
    """
    return issue_model(ctx, issue_id)


@tools.tool(effect=READ, asks=[
    "What has changed on {issue_id}?",
    "Show me the history of {issue_id}.",
    "Who touched {issue_id} last, and what did they change?",
], reply=[
    "Latest on {issue_id}: {result.latest} ({result.total} changes recorded in all).",
])
def get_issue_history(ctx: Ctx, issue_id: IssueId, limit: Limit = 50) -> History:
    """The recorded changes of an issue, oldest first: who changed which field from what to what, and when.

    Args:
        issue_id: ID of the issue, such as 'WEB-10012'.
        limit: the most changes to return, 1 to 100, such as 50 (the most recent are kept).

    Returns:
        The changes (ID, user, time, field, old and new value) and the total.

    Raises:
        not_found: no issue has that ID.
    """
    ctx.get("issue", issue_id)
    rows = ctx.db.execute("SELECT h.*, u.name AS user_name FROM history h JOIN users u ON u.user_id = h.user_id "
                          "WHERE h.issue_id = ? ORDER BY h.at, h.change_id", (issue_id,)).fetchall()
    changes = [Change(**{k: r[k] for k in r.keys()}) for r in rows[-limit:]]
    return History(issue_id=issue_id, changes=changes, total=len(rows),
                   latest=_in_words(ctx, changes[-1]) if changes else None)


def _in_words(ctx: Ctx, change: Change) -> str:
    """A change as a sentence: 'Jordan Taylor changed status from open to in progress on March 5'."""
    if change.field in ("assignee", "sprint"):  # the history holds user and sprint IDs; say their names
        table = "user_id, name FROM users" if change.field == "assignee" else "sprint_id, name FROM sprints"
        names = {r[0]: r[1] for r in ctx.db.execute(f"SELECT {table}")}
        change = change.model_copy(update={"old_value": names.get(change.old_value, change.old_value),
                                           "new_value": names.get(change.new_value, change.new_value)})
    elif change.field in ("status", "priority", "resolution"):  # an option in words: 'in progress'
        change = change.model_copy(update={k: v.replace("_", " ") if v else v for k, v in
                                           (("old_value", change.old_value), ("new_value", change.new_value))})
    at = datetime.fromisoformat(change.at)
    when = f"on {at:%B} {at.day}"
    if change.user_id == me(ctx):  # the signed-in user reads "you logged ...", not their own name
        change = change.model_copy(update={"user_name": "you"})
    if change.field == "time_spent":  # "logged 60 minutes of work", not "changed time_spent from 0 to 60"
        minutes = int(change.new_value or 0) - int(change.old_value or 0)
        return f"{change.user_name} {'logged' if minutes > 0 else 'took off'} {abs(minutes)} minutes of work {when}"
    if change.field == "link":  # "relates_to WEB-10045" -> "linked it to WEB-10045 (relates to)"
        relation, _, other = (change.new_value or change.old_value or "").partition(" ")
        done = "linked it to" if change.new_value else "removed its link to"
        return f"{change.user_name} {done} {other} ({relation.replace('_', ' ')}) {when}"
    if change.field == "created":
        return f"{change.user_name} created it {when}"
    if change.field == "labels":  # "added the labels frontend and flaky-test", "removed the label regression"
        tags = (change.new_value or change.old_value or "").split(", ")
        said = tags[0] if len(tags) == 1 else f"{', '.join(tags[:-1])} and {tags[-1]}"
        verb = "added" if change.new_value else "removed"
        return f"{change.user_name} {verb} the label{'s' if len(tags) > 1 else ''} {said} {when}"
    if change.field == "sprint":  # "moved it from MOB Sprint 14 to MOB Sprint 15", "took it out of ..."
        if change.old_value is None:
            return f"{change.user_name} put it in {change.new_value} {when}"
        if change.new_value is None:
            return f"{change.user_name} took it out of {change.old_value} {when}"
        return f"{change.user_name} moved it from {change.old_value} to {change.new_value} {when}"
    if change.old_value is None:
        return f"{change.user_name} set {change.field} to {change.new_value} {when}"
    if change.new_value is None:
        return f"{change.user_name} removed {change.field} {change.old_value} {when}"
    return f"{change.user_name} changed {change.field} from {change.old_value} to {change.new_value} {when}"


# ----- writing -----------------------------------------------------------------------------------------

@tools.tool(effect=WRITE, asks=[
    "Create a {type} in {project_id} titled '{title}'.",
    "File a {priority}-priority {type} in {project_id}: '{title}'. Assign it to {assignee_id}.",
    "Add a {type} '{title}' to {project_id} under the epic {parent_id}, in {sprint_id}.",
    Ask("Open an issue in {project_id} called '{title}', due {due_date}, labelled {labels}.", type="task"),
], reply=[
    Ask("Created {result.issue_id}: '{result.title}'.", assignee_id=None),
    Ask("Filed '{result.title}' in {project_id} as {result.issue_id}, a {result.priority}-priority {result.type}.",
        assignee_id=None),
    "Filed '{result.title}' in {project_id} as {result.issue_id}, a {result.priority}-priority {result.type} "
    "assigned to {result.assignee_name}.",
], values={
    # a title that reads as its type (a bug says what is broken, an epic names a body of work), with labels
    # that fit it: no dark mode labelled security
    "type, title, labels": [
        ("bug", "Login button unresponsive on Safari", ["frontend", "customer-reported"]),
        ("bug", "Checkout times out under load", ["backend", "performance"]),
        ("bug", "Crash when uploading a large photo", ["regression"]),
        ("task", "Migrate the billing service to the new queue", ["backend", "tech-debt"]),
        ("task", "Document the public search API", ["documentation"]),
        ("task", "Rate-limit password reset e-mails", ["security"]),
        ("story", "Add dark mode to the settings page", ["frontend"]),
        ("story", "Improve onboarding empty states", ["frontend"]),
        ("epic", "Dark mode across the app", ["frontend"]), ("epic", "Onboarding revamp", ["frontend"]),
    ],
    "description": [
        "Steps: open the page, click the button, nothing happens.", "Users asked for it in the last survey.",
        "Seen at around 500 concurrent users in the load test.", "The old queue is deprecated next quarter.",
        "Partners keep asking how pagination works.", "Happens on Android 14 with photos over 20 MB.",
    ],
})
def create_issue(ctx: Ctx, project_id: WorkProjectId, title: Title, type: IssueType = "task",
                 description: Text | None = None, priority: Priority = "medium", assignee_id: UserId | None = None,
                 parent_id: IssueId | None = None, sprint_id: SprintId | None = None, due_date: str | None = None,
                 story_points: Points | None = None, estimate_minutes: Minutes | None = None,
                 labels: Annotated[list[Label], Field(max_length=10)] | None = None) -> Issue:
    """Create an issue in a project, reported (and watched) by the signed-in user.

    Args:
        project_id: ID of the project, such as 'PRJ-10001'.
        title: a short summary, such as 'Checkout page times out on Safari'.
        type: 'bug', 'task' (default), 'story' or 'epic'.
        description: optional details, such as 'Steps to reproduce: ...'.
        priority: 'critical', 'high', 'medium' (default) or 'low'.
        assignee_id: optional assignee, a member or admin of the project, such as 'USR-10004'.
        parent_id: optional epic of the same project this issue belongs to, such as 'WEB-10001'.
        sprint_id: optional active or planned sprint of the project, such as 'SPR-10004'; omit for the backlog.
        due_date: optional due date, today or later, such as '2026-03-27'.
        story_points: optional estimate in points, 0 to 100, such as 3.
        estimate_minutes: optional time estimate in minutes, such as 240.
        labels: optional labels (lower-case letters, digits, dashes), such as ['frontend', 'regression'].

    Returns:
        The new issue, status 'open', with its ID (the project's key and a number).

    Raises:
        not_found: the project, assignee, epic or sprint does not exist.
        project_archived: the project is archived.
        permission_denied: the user is not a member or admin of the project.
        not_a_member: the assignee is not a member or admin of the project.
        user_inactive: the assignee's account is deactivated.
        invalid_parent: parent_id is not an epic of the same project, or an epic is given a parent.
        wrong_project: the sprint belongs to another project.
        sprint_closed: the sprint is completed.
        invalid_date: the due date is not a date.
        past_date: the due date is before today.
        invalid_label: a label has characters other than lower-case letters, digits and dashes.
    """
    project = require(ctx, project_id, "work")
    if assignee_id is not None:
        assignable(ctx, project_id, assignee_id)
    if parent_id is not None:
        if type == "epic":
            raise ToolError("invalid_parent", "An epic cannot belong to another epic.",
                            hint="Omit parent_id for epics.")
        _valid_parent(ctx, parent_id, project_id)
    if sprint_id is not None:
        usable_sprint(ctx, sprint_id, project_id)
    due = _valid_due(ctx, due_date) if due_date is not None else None
    tags = normalize_labels(labels or [])
    issue_id = ctx.new_id(project["key"])
    at, uid = ctx.now_iso(), me(ctx)
    ctx.db.execute(
        "INSERT INTO issues (issue_id, project_id, type, title, description, status, priority, assignee_id, "
        "reporter_id, sprint_id, parent_id, story_points, estimate_minutes, spent_minutes, due_date, created_at, "
        "updated_at) VALUES (?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)",
        (issue_id, project_id, type, title, description, priority, assignee_id, uid, sprint_id, parent_id,
         story_points, estimate_minutes, due, at, at))
    add_labels_to(ctx, issue_id, tags)
    ctx.db.executemany("INSERT OR IGNORE INTO watchers (issue_id, user_id) VALUES (?, ?)",
                       [(issue_id, u) for u in {uid, assignee_id} if u])
    record(ctx, issue_id, "created", None, title)
    return issue_model(ctx, issue_id)


@tools.tool(effect=WRITE, asks=[
    "Change the priority of {issue_id} to {priority}.",
    "Rename {issue_id} to '{title}' and move its deadline to {due_date}.",
    # An estimate is said in hours, as people give one ('8 hours', not '480 minutes').
    Ask("Set {issue_id} to {story_points} points with an estimate of 4 hours.", estimate_minutes=240),
    Ask("Set {issue_id} to {story_points} points with an estimate of 8 hours.", estimate_minutes=480),
    Ask("{issue_id} no longer has a deadline; clear its due date.", clear_due_date=True),
    "Rewrite the description of {issue_id}: {description}",
], reply=[
    Ask("{issue_id} is {priority} priority now.", title=None, description=None, due_date=None,
        clear_due_date=False, story_points=None, estimate_minutes=None, parent_id=None),
    Ask("Renamed {issue_id} to '{title}'; it's due {due_date} now.", description=None, priority=None,
        clear_due_date=False, story_points=None, estimate_minutes=None, parent_id=None),
    Ask("{issue_id} is at {story_points} points, with an estimate of {result.estimate_text}.", title=None,
        description=None, priority=None, due_date=None, clear_due_date=False, parent_id=None),
    Ask("Cleared the due date of {issue_id}; it has no deadline now.", clear_due_date=True, title=None, description=None, priority=None,
        due_date=None, story_points=None, estimate_minutes=None, parent_id=None),
    Ask("Rewrote the description of {issue_id}.", title=None, priority=None, due_date=None, clear_due_date=False,
        story_points=None, estimate_minutes=None, parent_id=None),
    "Updated {issue_id}: it's now '{result.title}', {result.priority} priority.",
], values={
    "title": [
        "Login button unresponsive on Safari 17", "Dark mode for settings and profile",
        "Checkout times out above 500 users", "Crash on photo upload over 20 MB",
        "Rate-limit reset e-mails per user", "Document search API pagination",
    ],
    "story_points, estimate_minutes": [(2, 240), (3, 240), (3, 480), (5, 480)],
    # a new description that fits any issue (a Safari or an Android detail would have to match its title)
    "description": [
        "Steps to reproduce are in the first comment.", "Acceptance criteria: covered by an integration test.",
        "Only happens for accounts created before 2025.", "Needs a migration; see the linked issues.",
        "Scope agreed in the planning meeting; no design changes.", "Started after the last release.",
    ],
})
def update_issue(ctx: Ctx, issue_id: WorkIssueId, title: Title | None = None, description: Text | None = None,
                 priority: Priority | None = None, due_date: str | None = None, clear_due_date: bool = False,
                 story_points: Points | None = None, estimate_minutes: Minutes | None = None,
                 parent_id: IssueId | None = None) -> Issue:
    """Change fields of an unresolved issue; only the fields given change, and each change is recorded.

    Args:
        issue_id: ID of the issue, such as 'WEB-10012'.
        title: new title, such as 'Checkout page times out on Safari 17'.
        description: new description, such as 'Happens only with saved cards.'.
        priority: new priority: 'critical', 'high', 'medium' or 'low'.
        due_date: new due date, today or later, such as '2026-03-27'.
        clear_due_date: remove the due date (default false).
        story_points: new estimate in points, 0 to 100, such as 5.
        estimate_minutes: new time estimate in minutes, such as 480.
        parent_id: the epic of the same project to move the issue under, such as 'WEB-10001'.

    Returns:
        The updated issue.

    Raises:
        not_found: the issue or epic does not exist.
        project_archived: the issue's project is archived.
        permission_denied: the user is not a member or admin of the issue's project.
        issue_resolved: the issue is done or closed.
        nothing_to_update: no field was given, or every value given is already set.
        conflicting_fields: due_date and clear_due_date are both given.
        invalid_parent: parent_id is not an epic of the same project, or the issue is an epic.
        invalid_date: the due date is not a date.
        past_date: the due date is before today.
    """
    issue = issue_for(ctx, issue_id, unresolved=True)
    if due_date is not None and clear_due_date:
        raise ToolError("conflicting_fields", "Either set a due date or clear it, not both.",
                        hint="Pass due_date or clear_due_date=true.")
    changes: dict[str, object] = {}
    for field, value in (("title", title), ("description", description), ("priority", priority),
                         ("story_points", story_points), ("estimate_minutes", estimate_minutes)):
        if value is not None:
            changes[field] = value
    if due_date is not None:
        changes["due_date"] = _valid_due(ctx, due_date)
    if clear_due_date:
        changes["due_date"] = None
    if parent_id is not None:
        if issue["type"] == "epic":
            raise ToolError("invalid_parent", "An epic cannot belong to another epic.", hint="Omit parent_id.")
        _valid_parent(ctx, parent_id, issue["project_id"], issue_id)
        changes["parent_id"] = parent_id
    changes = {k: v for k, v in changes.items() if issue[k] != v}
    if not changes:
        raise ToolError("nothing_to_update", f"Nothing to change on {issue_id}.",
                        hint="Give at least one field with a value different from the current one.")
    for field, value in changes.items():
        ctx.db.execute(f'UPDATE issues SET "{field}" = ? WHERE issue_id = ?', (value, issue_id))
        record(ctx, issue_id, field, issue[field], value)
    return issue_model(ctx, issue_id)


@tools.tool(effect=WRITE, asks=[
    "Assign {issue_id} to {assignee_id}.",
    "Give {issue_id} to {assignee_id}, please.",
    "Take {issue_id} off everyone's plate (unassign it).",
], reply=[
    Ask("Unassigned {issue_id}; nobody is on it now.", assignee_id=None),
    Ask("{issue_id} has no assignee any more.", assignee_id=None),
    "{issue_id} is assigned to {result.assignee_name}.",
    "Done: {result.assignee_name} has {issue_id} now.",
])
def assign_issue(ctx: Ctx, issue_id: WorkIssueId, assignee_id: UserId | None = None) -> Issue:
    """Assign an unresolved issue to a member of its project, or unassign it; the assignee starts watching it.

    Args:
        issue_id: ID of the issue, such as 'WEB-10012'.
        assignee_id: the new assignee, such as 'USR-10004' (the signed-in user's own ID assigns it
            to them); omit to unassign.

    Returns:
        The updated issue.

    Raises:
        not_found: the issue or user does not exist.
        project_archived: the issue's project is archived.
        permission_denied: the user is not a member or admin of the issue's project.
        issue_resolved: the issue is done or closed.
        not_a_member: the assignee is not a member or admin of the issue's project.
        user_inactive: the assignee's account is deactivated.
        no_change: the issue is already assigned to that person (or already unassigned).
    """
    issue = issue_for(ctx, issue_id, unresolved=True)
    if assignee_id is not None:
        assignable(ctx, issue["project_id"], assignee_id)
    if issue["assignee_id"] == assignee_id:
        who = "unassigned" if assignee_id is None else f"assigned to {assignee_id}"
        raise ToolError("no_change", f"{issue_id} is already {who}.", hint="Nothing to do.")
    _assign(ctx, issue, assignee_id)
    return issue_model(ctx, issue_id)


def _assign(ctx: Ctx, issue, assignee_id: str | None) -> None:  # noqa: ANN001 - a sqlite3.Row
    ctx.db.execute("UPDATE issues SET assignee_id = ? WHERE issue_id = ?", (assignee_id, issue["issue_id"]))
    if assignee_id is not None:
        ctx.db.execute("INSERT OR IGNORE INTO watchers (issue_id, user_id) VALUES (?, ?)",
                       (issue["issue_id"], assignee_id))
    record(ctx, issue["issue_id"], "assignee", issue["assignee_id"], assignee_id)


@tools.tool(effect=WRITE, asks=[
    "Put {issue_id} into {sprint_id}.",
    # (any live sprint: the active one too, so not "the next sprint")
    "Plan {issue_id} for {sprint_id}.",
    "Take {issue_id} out of its sprint and back to the backlog.",
], reply=[
    Ask("{issue_id} is out of its sprint and back in the backlog.", sprint_id=None),
    Ask("Moved {issue_id} to the backlog.", sprint_id=None),
    "Moved {issue_id} into {result.sprint_name}.",
    "{issue_id} is planned for {result.sprint_name} now.",
])
def move_to_sprint(ctx: Ctx, issue_id: WorkIssueId, sprint_id: SprintId | None = None) -> Issue:
    """Move an unresolved issue into an active or planned sprint of its project, or back to the backlog.

    Args:
        issue_id: ID of the issue, such as 'WEB-10012'.
        sprint_id: the sprint, such as 'SPR-10005'; omit to move the issue to the backlog.

    Returns:
        The updated issue.

    Raises:
        not_found: the issue or sprint does not exist.
        project_archived: the issue's project is archived.
        permission_denied: the user is not a member or admin of the issue's project.
        issue_resolved: the issue is done or closed.
        wrong_project: the sprint belongs to another project.
        sprint_closed: the sprint is completed.
        no_change: the issue is already there.
    """
    issue = issue_for(ctx, issue_id, unresolved=True)
    if sprint_id is not None:
        usable_sprint(ctx, sprint_id, issue["project_id"])
    if issue["sprint_id"] == sprint_id:
        where = "in the backlog" if sprint_id is None else f"in sprint {sprint_id}"
        raise ToolError("no_change", f"{issue_id} is already {where}.", hint="Nothing to do.")
    ctx.db.execute("UPDATE issues SET sprint_id = ? WHERE issue_id = ?", (sprint_id, issue_id))
    record(ctx, issue_id, "sprint", issue["sprint_id"], sprint_id)
    return issue_model(ctx, issue_id)


@tools.tool(effect=WRITE, asks=[
    "Set the priority of {issue_ids} to {priority}.",
    "Put {issue_ids} in {sprint_id} with {assignee_id} as the assignee.",
    "Label {issue_ids} as {add_label}.",
], reply=[
    Ask("Set the priority of {issue_ids} to {priority}.", assignee_id=None, sprint_id=None, add_label=None),
    Ask("Changed the priority of {issue_ids} to {priority}.", assignee_id=None, sprint_id=None, add_label=None),
    Ask("Assigned {issue_ids} to {assignee_id} and planned for {sprint_id}.", priority=None, add_label=None),
    Ask("Labelled {issue_ids} as {add_label}.", priority=None, assignee_id=None, sprint_id=None),
    Ask("Added the {add_label} label to {issue_ids}.", priority=None, assignee_id=None, sprint_id=None),
    "Updated {result.total} issues: {issue_ids}.",
], values={
    "add_label": ["tech-debt", "regression", "needs-design", "customer-reported", "performance", "security"],
})
def bulk_update_issues(ctx: Ctx, issue_ids: Annotated[list[WorkIssueId], Field(min_length=1, max_length=50)],
                       priority: Priority | None = None, assignee_id: UserId | None = None,
                       sprint_id: SprintId | None = None, add_label: Label | None = None) -> BulkResult:
    """Apply the same changes to several unresolved issues at once; if any issue cannot take them, none changes.

    Args:
        issue_ids: IDs of 1 to 50 issues, such as ['WEB-10012', 'WEB-10015'].
        priority: new priority for all: 'critical', 'high', 'medium' or 'low'.
        assignee_id: new assignee for all, such as 'USR-10004'; they must be a member of each
            issue's project.
        sprint_id: sprint to move all into, such as 'SPR-10005'; all issues must be in its project.
        add_label: a label to add to all, such as 'release-blocker'.

    Returns:
        The updated issues and how many there are.

    Raises:
        nothing_to_update: no change was given.
        not_found: an issue, the assignee or the sprint does not exist.
        project_archived: an issue's project is archived.
        permission_denied: the user is not a member or admin of an issue's project.
        issue_resolved: an issue is done or closed.
        not_a_member: the assignee is not a member or admin of an issue's project.
        user_inactive: the assignee's account is deactivated.
        wrong_project: the sprint belongs to another project than an issue.
        sprint_closed: the sprint is completed.
        invalid_label: the label has characters other than lower-case letters, digits and dashes.
        too_many_labels: an issue would have more than 10 labels.
    """
    if priority is None and assignee_id is None and sprint_id is None and add_label is None:
        raise ToolError("nothing_to_update", "No change was given.",
                        hint="Give priority, assignee_id, sprint_id or add_label.")
    tags = normalize_labels([add_label]) if add_label is not None else []
    ids = list(dict.fromkeys(issue_ids))
    for issue_id in ids:
        issue = issue_for(ctx, issue_id, unresolved=True)
        if assignee_id is not None:
            assignable(ctx, issue["project_id"], assignee_id)
        if sprint_id is not None:
            usable_sprint(ctx, sprint_id, issue["project_id"])
        if priority is not None and issue["priority"] != priority:
            ctx.db.execute("UPDATE issues SET priority = ? WHERE issue_id = ?", (priority, issue_id))
            record(ctx, issue_id, "priority", issue["priority"], priority)
        if assignee_id is not None and issue["assignee_id"] != assignee_id:
            _assign(ctx, issue, assignee_id)
        if sprint_id is not None and issue["sprint_id"] != sprint_id:
            ctx.db.execute("UPDATE issues SET sprint_id = ? WHERE issue_id = ?", (sprint_id, issue_id))
            record(ctx, issue_id, "sprint", issue["sprint_id"], sprint_id)
        if tags and add_labels_to(ctx, issue_id, tags):
            record(ctx, issue_id, "labels", None, tags[0])
    return BulkResult(updated=[summary_of(ctx, i) for i in ids], total=len(ids))
