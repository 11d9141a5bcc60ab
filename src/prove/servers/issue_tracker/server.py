"""The issue tracker's declaration: `server`, its entity kinds, types, result models and shared rules.

The tools live by area in `tools_<area>.py` (projects, issues, workflow, collaboration, time and
sprints), each a toolset that imports what it needs from here; `__init__.py` includes them.

Rules every tool follows:

- The user ("me") is the one user with `is_me = 1`. Everyone in the company can read every
  project. What the user may change depends on their role in the issue's project: admins and
  members work on issues; viewers may only comment and watch; non-members may only watch;
  sprints are managed by admins. Archived projects are read-only for everybody.
- Done and closed issues are resolved: their fields are frozen until they are reopened
  (comments, labels, links and watchers still change).
- Every change to an issue's fields is recorded in its history with the user and the time.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import Ctx, EntityKind, Server, ToolError
from prove.env.values import quote

from .world import RESOLVED, TRANSITIONS, build_world

USER = EntityKind("user", table="users", key="user_id", label="name",
                  description="a person in the company directory (or the signed-in user)", live="active = 1",
                  lister="search_users")
PROJECT = EntityKind("project", table="projects", key="project_id", label="name",
                     description="a project holding issues and sprints", live="status = 'active'",
                     lister="list_projects")
ISSUE = EntityKind("issue", table="issues", key="issue_id", label="title",
                   description="a bug, task, story or epic in a project",
                   live="status NOT IN ('done', 'closed')", lister="search_issues", public_id=True)
# A sprint's name is a proper name ("MOB Sprint 14"), said without "the".
SPRINT = EntityKind("sprint", table="sprints", key="sprint_id", label="name", naming="alone",
                    description="a time box of a project's work", live="status != 'completed'", lister="list_sprints")
COMMENT = EntityKind("comment", table="comments", key="comment_id",
                     description="a comment on an issue", lister="list_comments")
LINK = EntityKind("link", table="links", key="link_id",
                  description="a relation between two issues: blocks, duplicates or relates to", lister="get_issue")
WORKLOG = EntityKind("worklog", table="worklogs", key="worklog_id", noun="time entry",
                     description="time someone logged against an issue on one day", lister="list_worklogs")
CHANGE = EntityKind("change", table="history", key="change_id", label="field", noun="history entry",
                    description="one recorded change of an issue's field", lister="get_issue_history")

server = Server(
    "issue_tracker", "Issue tracker",
    "The issue tracker of a software company, used by one signed-in engineer: projects with "
    "members and roles, issues (bugs, tasks, stories, epics) moving through the workflow open, "
    "in progress, in review, done (or closed with a resolution, and reopened), assignees, "
    "priorities, labels, due dates, links such as 'blocks' and 'duplicates', watchers, comments, "
    "time logged against issues, sprints, search, bulk edits and each issue's history.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    entities=[USER, PROJECT, ISSUE, SPRINT, COMMENT, LINK, WORKLOG, CHANGE],
)

# ----- parameter and field types ------------------------------------------------------------------

UserId = USER.id
ProjectId = PROJECT.id
IssueId = ISSUE.id
SprintId = SPRINT.id
CommentId = COMMENT.id
LinkId = LINK.id
WorklogId = WORKLOG.id
ChangeId = CHANGE.id

# Subsets that a tool accepts, by the signed-in user's role in the project (see `require`).
_ME = "(SELECT user_id FROM users WHERE is_me = 1)"


def _projects(*roles: str) -> str:
    """The active projects where the user has one of `roles`, as an SQL subquery."""
    quoted = ", ".join(f"'{r}'" for r in roles)
    return (f"(SELECT m.project_id FROM members m JOIN projects p ON p.project_id = m.project_id "
            f"WHERE m.user_id = {_ME} AND m.role IN ({quoted}) AND p.status = 'active')")


_WORK, _COMMENT, _ADMIN = _projects("admin", "member"), _projects("admin", "member", "viewer"), _projects("admin")
OtherUserId = USER.where("is_me = 0")  # someone other than the signed-in user
WorkProjectId = PROJECT.where(f"project_id IN {_WORK}")
AdminProjectId = PROJECT.where(f"project_id IN {_ADMIN}")
WorkIssueId = ISSUE.where(f"project_id IN {_WORK}")
# A bug fixed in the last 30 days, the kind someone reopens ("it's happening again").
ResolvedIssueId = ISSUE.where(f"type = 'bug' AND status IN ('done', 'closed') AND resolution = 'fixed' "
                              f"AND resolved_at >= date(:today, '-30 days') AND project_id IN {_WORK}")
CommentIssueId = ISSUE.where(f"project_id IN {_COMMENT}")
MyCommentId = COMMENT.where(f"author_id = {_ME}")
MyWorklogId = WORKLOG.where(f"user_id = {_ME} AND issue_id IN (SELECT i.issue_id FROM issues i JOIN projects p "
                            "ON p.project_id = i.project_id WHERE i.status NOT IN ('done', 'closed') "
                            "AND p.status = 'active')")
WorkLinkId = LINK.where(f"source_id IN (SELECT issue_id FROM issues WHERE project_id IN {_WORK}) "
                        f"OR target_id IN (SELECT issue_id FROM issues WHERE project_id IN {_WORK})")
PlannedSprintId = SPRINT.where(f"status = 'planned' AND project_id IN {_ADMIN}")
ActiveSprintId = SPRINT.where(f"status = 'active' AND project_id IN {_ADMIN}")

Title = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=5000)]
Query = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
Label = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]
Limit = Annotated[int, Field(ge=1, le=100)]
Points = Annotated[int, Field(ge=0, le=100)]
Minutes = Annotated[int, Field(ge=1, le=100_000)]
Status = Literal["open", "in_progress", "in_review", "done", "closed"]
Priority = Literal["critical", "high", "medium", "low"]
IssueType = Literal["bug", "task", "story", "epic"]
Resolution = Literal["fixed", "wont_fix", "duplicate", "cannot_reproduce", "obsolete"]
Role = Literal["admin", "member", "viewer"]

MAX_LABELS = 10
_LABEL = re.compile(r"^[a-z0-9][a-z0-9-]{0,29}$")
PRIORITY_ORDER = "CASE i.priority WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 ELSE 3 END"

# Candidate comments for synthesized calls (`values=` of the tools that take a comment), which fit an
# issue of any type and status. (None announces a change the call does not make, such as closing the issue.)
COMMENTS = ["This is blocked until the API change ships.", "Can we get design input on the empty state?",
            "I'll dig into the logs and report back.", "Could this be related to last week's deploy?"]
# Comments that speak of where the work stands, with the issues they fit: a fix to verify is on a bug
# being fixed, not on one opened a moment ago.
STAGED_COMMENTS = {
    "Reproduced on staging; looking into it now.": "type = 'bug' AND status IN ('open', 'in_progress')",
    "Fix is in the latest build, please verify.": "type = 'bug' AND status IN ('in_progress', 'in_review')",
    "Verified on iOS and Android.": "status IN ('in_review', 'done')",
}

# ----- result models --------------------------------------------------------------------------------


class User(BaseModel):
    user_id: UserId
    name: str
    email: str
    title: str
    team: str
    active: bool = Field(description="false for deactivated accounts, which cannot be assigned")
    role: Role | None = Field(None, description="their role in the project asked about, if any")


class UserList(BaseModel):
    users: list[User]
    total: int = Field(description="how many users matched, before `limit`")
    users_text: str = Field(description="the people in words, such as 'Yusuf Brown, iOS Engineer on the Mobile team'")


class ProjectSummary(BaseModel):
    project_id: ProjectId
    key: str = Field(description="the prefix of the project's issue IDs, such as 'WEB'")
    name: str
    status: Literal["active", "archived"]
    lead_id: UserId
    lead_name: str
    my_role: Role | None = Field(description="the signed-in user's role, null if not a member")
    unresolved_issues: int
    active_sprint_id: SprintId | None
    active_sprint_name: str | None


class ProjectList(BaseModel):
    projects: list[ProjectSummary]
    total: int
    projects_text: str = Field(description="the projects in words, such as 'Mobile App (MOB), led by Bianca Turner'")


class Member(BaseModel):
    user_id: UserId
    name: str
    title: str
    role: Role
    active: bool


class Project(ProjectSummary):
    description: str
    created_on: str
    members: list[Member]
    roles: str = Field("", description="the members and their roles in words, such as 'Ana Ortiz (admin), ...'")
    issues_by_status: dict[str, int]
    labels: list[str] = Field(description="labels used on the project's issues")


class IssueSummary(BaseModel):
    issue_id: IssueId
    project_id: ProjectId
    type: IssueType
    title: str
    status: Status
    priority: Priority
    assignee_id: UserId | None
    assignee_name: str | None
    sprint_id: SprintId | None
    due_date: str | None
    overdue: bool = Field(description="unresolved and due before today")
    labels: list[str]
    updated_at: str


class IssueList(BaseModel):
    issues: list[IssueSummary]
    total: int = Field(description="how many issues matched, before `limit`")
    issues_text: str = Field(description="the issues in words, such as \"MOB-10028 'Push notifications lose unsaved "
                                         "changes' (open, assigned to Ana Silva)\"; what the search picked is not said "
                                         "of each")


class LinkView(BaseModel):
    link_id: LinkId
    relation: Literal["blocks", "is_blocked_by", "duplicates", "is_duplicated_by", "relates_to"] = Field(
        description="how this issue relates to the other one")
    issue_id: IssueId = Field(description="the other issue")
    title: str
    status: Status


class Issue(IssueSummary):
    description: str | None
    resolution: Resolution | None
    reporter_id: UserId
    reporter_name: str
    parent_id: IssueId | None = Field(description="the epic this issue belongs to")
    children: list[IssueId] = Field(description="for an epic, its issues")
    story_points: int | None
    estimate_minutes: int | None
    estimate_text: str | None = Field(description="the estimate as people say it, such as '8 hours'")
    spent_minutes: int
    remaining_minutes: int | None
    created_at: str
    resolved_at: str | None
    links: list[LinkView]
    blocked_by: list[IssueId] = Field(description="unresolved issues that block this one")
    blocker_count: int = Field(0, description="how many unresolved issues block this one")
    sprint_name: str | None = Field(None, description="the name of its sprint; null in the backlog")
    watchers: list[UserId]
    watching: bool = Field(description="whether the signed-in user watches it")
    comment_count: int
    allowed_transitions: list[str] = Field(description="statuses transition_issue can move it to now")
    working_text: str = Field("", description="who is working on it, in words: \"you're working on it\", 'Ana Silva "
                                              "is working on it' or 'nobody is working on it yet'")
    blocking_text: str = Field("", description="what blocks it, in words: 'nothing is blocking it' or \"it's blocked "
                                               "by WEB-10012 and WEB-10015\"")


class Comment(BaseModel):
    comment_id: CommentId
    issue_id: IssueId
    author_id: UserId
    author_name: str
    body: str
    created_at: str
    edited_at: str | None


class CommentList(BaseModel):
    comments: list[Comment]
    total: int
    comments_text: str = Field(description="the comments in words, such as \"Zara Cruz on October 30, 2025: "
                                           "'Customer confirmed the fix.'\"")


class Link(BaseModel):
    link_id: LinkId
    source_id: IssueId
    target_id: IssueId
    type: Literal["blocks", "duplicates", "relates_to"] = Field(description="source_id <type> target_id")
    created_at: str


class Watchers(BaseModel):
    issue_id: IssueId
    user_id: UserId = Field(description="who started or stopped watching")
    user_name: str = Field("", description="their name")
    watchers: list[UserId]
    total: int


class Labels(BaseModel):
    issue_id: IssueId
    labels: list[str]
    added: list[str] = Field(default_factory=list)
    removed: list[str] = Field(default_factory=list)


class Worklog(BaseModel):
    worklog_id: WorklogId
    issue_id: IssueId
    issue_title: str
    user_id: UserId
    user_name: str
    work_date: str
    minutes: int
    note: str | None


class WorklogList(BaseModel):
    worklogs: list[Worklog]
    total: int
    total_minutes: int = Field(description="minutes of all matching worklogs, before `limit`")
    time_text: str = Field("", description="the total as people say it, such as '30 hours and 15 minutes'")
    by_issue: str = Field("", description="the time per issue, most first, such as 'WEB-10012 (2 hours), WEB-10015 "
                                          "(45 minutes)', or 'nothing logged'")


class WorklogResult(Worklog):
    issue_spent_minutes: int
    issue_remaining_minutes: int | None
    issue_spent_text: str = Field(description="the issue's time spent as people say it, such as '28 hours and 30 "
                                              "minutes'")


class Sprint(BaseModel):
    sprint_id: SprintId
    project_id: ProjectId
    name: str
    goal: str | None
    start_date: str
    end_date: str
    status: Literal["planned", "active", "completed"]
    issue_count: int
    unresolved_count: int
    points_total: int
    points_done: int


class SprintList(BaseModel):
    sprints: list[Sprint]
    total: int
    sprints_text: str = Field(description="the sprints in words, latest first, such as 'MOB Sprint 14 (running March 9 "
                                          "to March 20, 12 of 30 points done); MOB Sprint 13 (done, February 23 to "
                                          "March 6)'")


class SprintCompletion(BaseModel):
    sprint: Sprint
    resolved_issues: int
    moved_issues: list[IssueId] = Field(description="unresolved issues moved out of the sprint")
    moved_count: int = Field(0, description="how many unresolved issues moved out of the sprint")
    moved_to: SprintId | None = Field(description="where they went; null for the backlog")
    moved_to_name: str | None = Field(None, description="the name of that sprint; null for the backlog")


class Change(BaseModel):
    change_id: ChangeId
    issue_id: IssueId
    user_id: UserId
    user_name: str
    at: str
    field: str
    old_value: str | None
    new_value: str | None


class History(BaseModel):
    issue_id: IssueId
    changes: list[Change]
    total: int
    latest: str | None = Field(None, description="the most recent change in words, if any")


class Dashboard(BaseModel):
    user_id: UserId
    name: str
    assigned: list[IssueSummary] = Field(description="unresolved issues assigned to the user, most urgent first")
    total_assigned: int
    by_status: dict[str, int]
    overdue: list[IssueId]
    overdue_count: int = Field(0, description="how many of the assigned issues are overdue")
    watching: int = Field(description="unresolved issues the user watches")
    minutes_logged_this_week: int
    most_urgent: str = Field("", description="the first assigned issues as people read them, such as \"MOB-10010 "
                                             "'Push notifications fail' (high, due April 6)\", or 'none'")


class BulkResult(BaseModel):
    updated: list[IssueSummary]
    total: int


# ----- helpers -----------------------------------------------------------------------------------------

def me(ctx: Ctx) -> str:
    return ctx.db.execute("SELECT user_id FROM users WHERE is_me = 1").fetchone()[0]


def role_of(ctx: Ctx, project_id: str, user_id: str) -> str | None:
    row = ctx.db.execute("SELECT role FROM members WHERE project_id = ? AND user_id = ?",
                         (project_id, user_id)).fetchone()
    return row[0] if row else None


def require(ctx: Ctx, project_id: str, level: Literal["view", "comment", "work", "admin"]) -> sqlite3.Row:
    """The project, if the user may do `level` things in it; else `project_archived` or `permission_denied`.

    'view' only refuses archived projects (watching); 'comment' needs any role; 'work' needs
    member or admin; 'admin' needs admin.
    """
    project = ctx.get("project", project_id)
    if project["status"] == "archived":
        raise ToolError("project_archived", f"Project {project['name']} ({project['key']}) is archived and "
                        "read-only.", hint="Archived projects can be read but not changed.")
    if level == "view":
        return project
    role = role_of(ctx, project_id, me(ctx))
    allowed = {"comment": ("admin", "member", "viewer"), "work": ("admin", "member"), "admin": ("admin",)}[level]
    if role not in allowed:
        what = {"comment": "comment on", "work": "change issues in", "admin": "manage sprints of"}[level]
        have = f"your role there is {role}" if role else "you are not a member"
        raise ToolError("permission_denied", f"You cannot {what} {project['name']} ({project['key']}): {have}.",
                        hint="get_project lists the members and their roles; ask an admin of the project.")
    return project


def require_unresolved(issue: sqlite3.Row) -> None:
    if issue["status"] in RESOLVED:
        raise ToolError("issue_resolved", f"{issue['issue_id']} is {issue['status']}; its fields are frozen.",
                        hint="Reopen it with reopen_issue first.")


def issue_for(ctx: Ctx, issue_id: str, level: Literal["view", "comment", "work"] = "work", *,
              unresolved: bool = False) -> sqlite3.Row:
    """The issue, if the user may do `level` things in its project (see `require`) and, with
    `unresolved`, it is not done or closed (`issue_resolved`)."""
    issue = ctx.get("issue", issue_id)
    require(ctx, issue["project_id"], level)
    if unresolved:
        require_unresolved(issue)
    return issue


def assignable(ctx: Ctx, project_id: str, user_id: str) -> sqlite3.Row:
    """A user who may be assigned issues of the project, else `user_inactive` or `not_a_member`."""
    user = ctx.get("user", user_id)
    if not user["active"]:
        raise ToolError("user_inactive", f"{user['name']}'s account is deactivated.",
                        hint="Assign someone else; get_project lists the members.")
    role = role_of(ctx, project_id, user_id)
    if role not in ("admin", "member"):
        key = ctx.db.execute("SELECT key FROM projects WHERE project_id = ?", (project_id,)).fetchone()[0]
        why = "is only a viewer" if role == "viewer" else "is not a member"
        raise ToolError("not_a_member", f"{user['name']} {why} of {key}; only members and admins can be assigned.",
                        hint="get_project lists the members and their roles.")
    return user


def usable_sprint(ctx: Ctx, sprint_id: str, project_id: str) -> sqlite3.Row:
    """A sprint of the project that issues may join, else `wrong_project` or `sprint_closed`."""
    sprint = ctx.get("sprint", sprint_id)
    if sprint["project_id"] != project_id:
        raise ToolError("wrong_project", f"Sprint {sprint['name']} belongs to another project.",
                        hint="list_sprints shows the sprints of the issue's project.")
    if sprint["status"] == "completed":
        raise ToolError("sprint_closed", f"Sprint {sprint['name']} is completed.",
                        hint="Use the active or a planned sprint (list_sprints).")
    return sprint


def normalize_labels(labels: list[str]) -> list[str]:
    out = []
    for raw in labels:
        label = raw.strip().lower().replace(" ", "-")
        if not _LABEL.match(label):
            raise ToolError("invalid_label", f"{quote(raw)} is not a valid label.",
                            hint="Labels are 1-30 characters: lower-case letters, digits and dashes, "
                                 "such as 'tech-debt'.")
        if label not in out:
            out.append(label)
    return out


def add_labels_to(ctx: Ctx, issue_id: str, labels: list[str]) -> list[str]:
    """Add labels (already normalized); returns those that were new. `too_many_labels` past 10."""
    have = labels_of(ctx, issue_id)
    new = [label for label in labels if label not in have]
    if len(have) + len(new) > MAX_LABELS:
        raise ToolError("too_many_labels", f"{issue_id} would have {len(have) + len(new)} labels; the most is "
                        f"{MAX_LABELS}.", hint="Remove a label with remove_label first.")
    ctx.db.executemany("INSERT INTO labels (issue_id, label) VALUES (?, ?)", [(issue_id, x) for x in new])
    return new


def labels_of(ctx: Ctx, issue_id: str) -> list[str]:
    return [r[0] for r in ctx.db.execute("SELECT label FROM labels WHERE issue_id = ? ORDER BY label", (issue_id,))]


def record(ctx: Ctx, issue_id: str, field: str, old: object, new: object) -> None:
    """Add a change to the issue's history and touch its updated_at."""
    at = ctx.now_iso()
    ctx.db.execute("INSERT INTO history (change_id, issue_id, user_id, at, field, old_value, new_value) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (ctx.new_id("CHG"), issue_id, me(ctx), at, field,
                    None if old is None else str(old), None if new is None else str(new)))
    ctx.db.execute("UPDATE issues SET updated_at = ? WHERE issue_id = ?", (at, issue_id))


ISSUE_SQL = """
SELECT i.*, a.name AS assignee_name FROM issues i LEFT JOIN users a ON a.user_id = i.assignee_id
"""


def summary(ctx: Ctx, row: sqlite3.Row) -> IssueSummary:
    """An issue row (from ISSUE_SQL) as a summary."""
    overdue = bool(row["due_date"] and row["status"] not in RESOLVED and row["due_date"] < ctx.today().isoformat())
    return IssueSummary(issue_id=row["issue_id"], project_id=row["project_id"], type=row["type"], title=row["title"],
                        status=row["status"], priority=row["priority"], assignee_id=row["assignee_id"],
                        assignee_name=row["assignee_name"], sprint_id=row["sprint_id"], due_date=row["due_date"],
                        overdue=overdue, labels=labels_of(ctx, row["issue_id"]), updated_at=row["updated_at"])


def summary_of(ctx: Ctx, issue_id: str) -> IssueSummary:
    return summary(ctx, ctx.db.execute(ISSUE_SQL + " WHERE i.issue_id = ?", (issue_id,)).fetchone())


def open_blockers(ctx: Ctx, issue_id: str) -> list[str]:
    """Unresolved issues that block this one."""
    return [r[0] for r in ctx.db.execute(
        "SELECT l.source_id FROM links l JOIN issues s ON s.issue_id = l.source_id "
        "WHERE l.target_id = ? AND l.type = 'blocks' AND s.status NOT IN ('done', 'closed') ORDER BY l.source_id",
        (issue_id,))]


def open_children(ctx: Ctx, issue_id: str) -> list[str]:
    return [r[0] for r in ctx.db.execute(
        "SELECT issue_id FROM issues WHERE parent_id = ? AND status NOT IN ('done', 'closed') ORDER BY issue_id",
        (issue_id,))]


def check_can_resolve(ctx: Ctx, issue: sqlite3.Row) -> None:
    """An issue cannot be completed or closed while an unresolved issue blocks it, nor an epic
    while its child issues are unresolved."""
    blockers = open_blockers(ctx, issue["issue_id"])
    if blockers:
        raise ToolError("blocked", f"{issue['issue_id']} is blocked by unresolved {', '.join(blockers)}.",
                        hint="Resolve the blocking issues first, or remove the link with unlink_issues.")
    children = open_children(ctx, issue["issue_id"])
    if children:
        shown = ", ".join(children[:5]) + (" ..." if len(children) > 5 else "")
        raise ToolError("open_children", f"Epic {issue['issue_id']} still has {len(children)} unresolved "
                        f"issues: {shown}.", hint="Resolve or move its issues first.")


def allowed_transitions(issue: sqlite3.Row) -> list[str]:
    return list(TRANSITIONS[issue["status"]])


def can_work_on_either(ctx: Ctx, a: sqlite3.Row, b: sqlite3.Row) -> None:
    """Links need work permission in the project of at least one of the two issues."""
    errors = []
    for issue in (a, b):
        try:
            require(ctx, issue["project_id"], "work")
            return
        except ToolError as exc:
            errors.append(exc)
    raise errors[0]


def spoken_minutes(minutes: int) -> str:
    """Work time as people say it: '45 minutes', '90 minutes', '8 hours', '28 hours and 30 minutes'."""
    hours, rest = divmod(minutes, 60)
    if rest and minutes < 120:
        return f"{minutes} minute{'' if minutes == 1 else 's'}"
    said = f"{hours} hour{'' if hours == 1 else 's'}"
    return said + (f" and {rest} minute{'' if rest == 1 else 's'}" if rest else "")


def issue_model(ctx: Ctx, issue_id: str) -> Issue:
    """The full issue as the user sees it."""
    ctx.get("issue", issue_id)
    row = ctx.db.execute(ISSUE_SQL + " WHERE i.issue_id = ?", (issue_id,)).fetchone()
    reporter = ctx.get("user", row["reporter_id"])
    links = []
    for r in ctx.db.execute(
            "SELECT l.link_id, l.type, l.source_id, l.target_id, o.issue_id AS other, o.title, o.status "
            "FROM links l JOIN issues o ON o.issue_id = CASE WHEN l.source_id = :id THEN l.target_id "
            "ELSE l.source_id END WHERE l.source_id = :id OR l.target_id = :id ORDER BY l.link_id", {"id": issue_id}):
        outgoing = r["source_id"] == issue_id
        relation = {"blocks": ("blocks", "is_blocked_by"), "duplicates": ("duplicates", "is_duplicated_by"),
                    "relates_to": ("relates_to", "relates_to")}[r["type"]][0 if outgoing else 1]
        links.append(LinkView(link_id=r["link_id"], relation=relation, issue_id=r["other"], title=r["title"],
                              status=r["status"]))
    watchers = [r[0] for r in ctx.db.execute("SELECT user_id FROM watchers WHERE issue_id = ? ORDER BY user_id",
                                             (issue_id,))]
    children = [r[0] for r in ctx.db.execute("SELECT issue_id FROM issues WHERE parent_id = ? ORDER BY issue_id",
                                             (issue_id,))]
    (comments,) = ctx.db.execute("SELECT count(*) FROM comments WHERE issue_id = ?", (issue_id,)).fetchone()
    remaining = None
    if row["estimate_minutes"] is not None:
        remaining = max(row["estimate_minutes"] - row["spent_minutes"], 0)
    return Issue(**summary(ctx, row).model_dump(), description=row["description"], resolution=row["resolution"],
                 reporter_id=row["reporter_id"], reporter_name=reporter["name"], parent_id=row["parent_id"],
                 children=children, story_points=row["story_points"], estimate_minutes=row["estimate_minutes"],
                 estimate_text=None if row["estimate_minutes"] is None else spoken_minutes(row["estimate_minutes"]),
                 spent_minutes=row["spent_minutes"], remaining_minutes=remaining, created_at=row["created_at"],
                 resolved_at=row["resolved_at"], links=links, blocked_by=(blockers := open_blockers(ctx, issue_id)),
                 blocker_count=len(blockers), sprint_name=(ctx.get("sprint", row["sprint_id"])["name"]
                                                          if row["sprint_id"] else None),
                 watchers=watchers, watching=me(ctx) in watchers, comment_count=comments,
                 allowed_transitions=allowed_transitions(row),
                 working_text=("nobody is working on it yet" if row["assignee_id"] is None
                               else "you're working on it" if row["assignee_id"] == me(ctx)
                               else f"{row['assignee_name']} is working on it"),
                 blocking_text=("nothing is blocking it" if not blockers else "it's blocked by "
                                + (blockers[0] if len(blockers) == 1 else ", ".join(blockers[:-1]) + " and " + blockers[-1])))
