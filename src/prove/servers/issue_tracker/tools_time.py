"""Time tracking (worklogs) and sprints."""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import parse_date, said_in_part, spoken_day

from .server import (
    ActiveSprintId,
    AdminProjectId,
    IssueId,
    Limit,
    MyWorklogId,
    OtherUserId,
    PlannedSprintId,
    ProjectId,
    Sprint,
    SprintCompletion,
    SprintId,
    SprintList,
    Text,
    WorkIssueId,
    Worklog,
    WorklogList,
    WorklogResult,
    issue_for,
    me,
    record,
    require,
    require_unresolved,
    spoken_minutes,
)

tools = Toolset("time")

MAX_BACKDATE_DAYS = 60
MAX_DAY_MINUTES = 24 * 60
MAX_SPRINT_DAYS = 42
SprintName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]

WORKLOG_SQL = """
SELECT w.*, i.title AS issue_title, u.name AS user_name FROM worklogs w
JOIN issues i ON i.issue_id = w.issue_id JOIN users u ON u.user_id = w.user_id
"""


def _worklog(row) -> Worklog:  # noqa: ANN001 - a sqlite3.Row
    return Worklog(worklog_id=row["worklog_id"], issue_id=row["issue_id"], issue_title=row["issue_title"],
                   user_id=row["user_id"], user_name=row["user_name"], work_date=row["work_date"],
                   minutes=row["minutes"], note=row["note"])


# ----- worklogs ------------------------------------------------------------------------------------------

@tools.tool(effect=WRITE, asks=[
    "Log {minutes} minutes on {issue_id}.",
    "I spent {minutes} minutes on {issue_id} on {work_date}: {note}",
    "Record {minutes} minutes of work on {issue_id} for today.",
], reply=[
    "Logged {minutes} minutes on {issue_id}; {result.issue_spent_text} spent on it in all.",
    "Your {minutes} minutes on {issue_id} are recorded.",
], values={
    "note": [
        "Debugging the session cache", "Code review", "Wrote integration tests", "Pairing on the fix",
        "Investigated the crash logs", "Updated the docs",
    ],
})
def log_work(ctx: Ctx, issue_id: WorkIssueId, minutes: Annotated[int, Field(ge=1, le=1440)],
             work_date: str | None = None, note: Text | None = None) -> WorklogResult:
    """Log time the signed-in user spent on an unresolved issue; it adds to the issue's time spent.

    Args:
        issue_id: ID of the issue, such as 'WEB-10012'.
        minutes: time spent, 1 to 1440, such as 90.
        work_date: the day the work was done, today or up to 60 days back, such as '2026-03-13';
            default today.
        note: optional description of the work, such as 'code review fixes'.

    Returns:
        The worklog with its ID, and the issue's total time spent and remaining estimate in minutes.

    Raises:
        not_found: no issue has that ID.
        project_archived: the issue's project is archived.
        permission_denied: the user is not a member or admin of the issue's project.
        issue_resolved: the issue is done or closed.
        invalid_date: work_date is not a date or is more than 60 days ago.
        future_date: work_date is after today.
        daily_limit_exceeded: the user's worklogs on that day would exceed 24 hours.
    """
    issue = issue_for(ctx, issue_id, unresolved=True)
    day = parse_date(work_date, "work_date") if work_date is not None else ctx.today()
    if day > ctx.today():
        raise ToolError("future_date", f"{day} is in the future; today is {ctx.today()}.",
                        hint="Log work for today or an earlier day.")
    if day < ctx.today() - timedelta(days=MAX_BACKDATE_DAYS):
        raise ToolError("invalid_date", f"{day} is more than {MAX_BACKDATE_DAYS} days ago.",
                        hint="Worklogs can be backdated up to 60 days.")
    uid = me(ctx)
    (logged,) = ctx.db.execute("SELECT coalesce(sum(minutes), 0) FROM worklogs WHERE user_id = ? AND work_date = ?",
                               (uid, day.isoformat())).fetchone()
    if logged + minutes > MAX_DAY_MINUTES:
        raise ToolError("daily_limit_exceeded", f"You already logged {logged} minutes on {day}; {minutes} more would "
                        "exceed 24 hours.", hint=f"At most {MAX_DAY_MINUTES - logged} more minutes fit that day.")
    worklog_id = ctx.new_id("WLG")
    ctx.db.execute("INSERT INTO worklogs (worklog_id, issue_id, user_id, work_date, minutes, note) "
                   "VALUES (?, ?, ?, ?, ?, ?)", (worklog_id, issue_id, uid, day.isoformat(), minutes, note))
    spent = issue["spent_minutes"] + minutes
    ctx.db.execute("UPDATE issues SET spent_minutes = ? WHERE issue_id = ?", (spent, issue_id))
    record(ctx, issue_id, "time_spent", issue["spent_minutes"], spent)
    row = ctx.db.execute(WORKLOG_SQL + " WHERE w.worklog_id = ?", (worklog_id,)).fetchone()
    est = issue["estimate_minutes"]
    return WorklogResult(**_worklog(row).model_dump(), issue_spent_minutes=spent,
                         issue_remaining_minutes=None if est is None else max(est - spent, 0),
                         issue_spent_text=spoken_minutes(spent))


@tools.tool(effect=WRITE, asks=[
    "Delete {worklog_id}; I logged it by mistake.",
    "Remove {worklog_id}.",
], reply=[
    "Deleted the {result.minutes} minutes logged on {result.issue_id}.",
    "That time entry on {result.issue_id} is gone.",
])
def delete_worklog(ctx: Ctx, worklog_id: MyWorklogId) -> Worklog:
    """Delete one of the signed-in user's worklogs; its time comes off the issue's time spent.

    Args:
        worklog_id: ID of the worklog, such as 'WLG-10003' (list_worklogs shows them).

    Returns:
        The deleted worklog.

    Raises:
        not_found: no worklog has that ID.
        not_author: the worklog belongs to someone else.
        project_archived: the issue's project is archived.
        issue_resolved: the issue is done or closed.
    """
    row = ctx.db.execute(WORKLOG_SQL + " WHERE w.worklog_id = ?", (worklog_id,)).fetchone()
    if row is None:
        ctx.get("worklog", worklog_id)
    if row["user_id"] != me(ctx):
        raise ToolError("not_author", f"Worklog {worklog_id} was logged by {row['user_name']}.",
                        hint="You can only delete your own worklogs.")
    issue = ctx.get("issue", row["issue_id"])
    require(ctx, issue["project_id"], "view")
    require_unresolved(issue)
    ctx.db.execute("DELETE FROM worklogs WHERE worklog_id = ?", (worklog_id,))
    spent = max(issue["spent_minutes"] - row["minutes"], 0)
    ctx.db.execute("UPDATE issues SET spent_minutes = ? WHERE issue_id = ?", (spent, issue["issue_id"]))
    record(ctx, issue["issue_id"], "time_spent", issue["spent_minutes"], spent)
    return _worklog(row)


@tools.tool(effect=READ, asks=[
    "How much time did I log between {start_date} and {end_date}?",
    "Show the time logged on {issue_id}.",
    "What did {user_id} log between {start_date} and {end_date}?",
], reply=[
    # (one issue's time needs no breakdown by issue)
    Ask("{result.time_text} logged on {issue_id}, in {result.total} entries.", user_id=None, start_date=None,
        end_date=None),
    "Time logged: {result.time_text} in {result.total} entries. By issue: {result.by_issue}.",
])
def list_worklogs(ctx: Ctx, issue_id: IssueId | None = None, user_id: OtherUserId | None = None,
                  start_date: str | None = None, end_date: str | None = None, limit: Limit = 50) -> WorklogList:
    """List worklogs of an issue or a person, optionally between two dates; without either, the signed-in user's.

    Args:
        issue_id: only worklogs on this issue, such as 'WEB-10012'.
        user_id: only worklogs of this person, such as 'USR-10001'; default the signed-in user when
            no issue is given.
        start_date: first day to include, such as '2026-03-09'.
        end_date: last day to include, such as '2026-03-15'.
        limit: the most worklogs to return, 1 to 100, such as 50.

    Returns:
        The worklogs (ID, issue, person, day, minutes, note), newest day first, their number and
        total minutes.

    Raises:
        not_found: the issue or user does not exist.
        invalid_date: a date is not a date.
        invalid_date_range: start_date is after end_date.
    """
    where = Where()
    where.entity(ctx, "issue", "w.issue_id", issue_id)
    if user_id is not None:
        ctx.get("user", user_id)
    elif issue_id is None:
        user_id = me(ctx)
    where.eq("w.user_id", user_id)
    start = parse_date(start_date, "start_date") if start_date is not None else None
    end = parse_date(end_date, "end_date") if end_date is not None else None
    if start and end and start > end:
        raise ToolError("invalid_date_range", f"start_date {start} is after end_date {end}.",
                        hint="Swap the dates.")
    if start:
        where.add("w.work_date >= ?", start.isoformat())
    if end:
        where.add("w.work_date <= ?", end.isoformat())
    rows = ctx.db.execute(f"{WORKLOG_SQL} WHERE {where.sql} ORDER BY w.work_date DESC, w.worklog_id",
                          where.params).fetchall()
    per: dict[str, int] = {}
    for r in rows:
        per[r["issue_id"]] = per.get(r["issue_id"], 0) + r["minutes"]
    ranked = sorted(per.items(), key=lambda kv: (-kv[1], kv[0]))
    total = sum(per.values())
    return WorklogList(worklogs=[_worklog(r) for r in rows[:limit]], total=len(rows), total_minutes=total,
                       time_text=spoken_minutes(total),
                       by_issue=(", ".join(f"{i} ({spoken_minutes(m)})" for i, m in ranked[:5])
                                 + (f" and {len(ranked) - 5} more issues" if len(ranked) > 5 else "")) or "nothing logged")


# ----- sprints -------------------------------------------------------------------------------------------

def _admin_sprint(ctx: Ctx, sprint_id: str, status: str, hint: str) -> sqlite3.Row:
    """A sprint the user administers, in `status`; else `permission_denied` or `invalid_sprint_state`."""
    sprint = ctx.get("sprint", sprint_id)
    require(ctx, sprint["project_id"], "admin")
    if sprint["status"] != status:
        raise ToolError("invalid_sprint_state", f"Sprint {sprint['name']} is {sprint['status']}, not {status}.",
                        hint=hint)
    return sprint


def sprint_model(ctx: Ctx, sprint_id: str) -> Sprint:
    row = ctx.get("sprint", sprint_id)
    stats = ctx.db.execute(
        "SELECT count(*), coalesce(sum(status NOT IN ('done', 'closed')), 0), coalesce(sum(story_points), 0), "
        "coalesce(sum(CASE WHEN status IN ('done', 'closed') THEN story_points END), 0) "
        "FROM issues WHERE sprint_id = ?", (sprint_id,)).fetchone()
    return Sprint(sprint_id=row["sprint_id"], project_id=row["project_id"], name=row["name"], goal=row["goal"],
                  start_date=row["start_date"], end_date=row["end_date"], status=row["status"], issue_count=stats[0],
                  unresolved_count=stats[1], points_total=stats[2], points_done=stats[3])


@tools.tool(effect=READ, asks=[
    "What sprints does {project_id} have?",
    "Show me the {status} sprints of {project_id}.",
    Ask("Which sprint of {project_id} is running right now?", status="active"),
], reply=[
    Ask("In progress now: {result.sprints_text}.", status="active"),
    Ask("{project_id} has {result.total} completed sprints: {result.sprints_text}.", status="completed"),
    Ask("{project_id} has {result.total} planned sprints: {result.sprints_text}.", status="planned"),
    Ask("{project_id} has {result.total} sprints: {result.sprints_text}.", status=None),
])
def list_sprints(ctx: Ctx, project_id: ProjectId, status: Literal["planned", "active", "completed"] | None = None
                 ) -> SprintList:
    """List a project's sprints with their dates, status and progress.

    Args:
        project_id: ID of the project, such as 'PRJ-10001'.
        status: only 'planned', 'active' or 'completed' sprints.

    Returns:
        The sprints (ID, name, goal, dates, status, issue counts, story points total and done),
        latest first, and the total.

    Raises:
        not_found: no project has that ID.
    """
    ctx.get("project", project_id)
    sql = "SELECT sprint_id FROM sprints WHERE project_id = ?" + (" AND status = ?" if status else "")
    ids = [r[0] for r in ctx.db.execute(sql + " ORDER BY start_date DESC, sprint_id DESC",
                                        (project_id, status) if status else (project_id,))]
    sprints = [sprint_model(ctx, i) for i in ids]
    today = ctx.today()

    def one(sp: Sprint) -> str:
        span = f"{spoken_day(sp.start_date, today)} to {spoken_day(sp.end_date, today)}"
        if sp.status == "active":
            return f"{sp.name} (running {span}, {sp.points_done} of {sp.points_total} points done)"
        return f"{sp.name} ({'planned' if sp.status == 'planned' else 'done'}, {span})"
    return SprintList(sprints=sprints, total=len(ids),
                      sprints_text=said_in_part([one(sp) for sp in sprints[:6]], len(ids), "none"))


@tools.tool(effect=WRITE, asks=[
    "Plan a new sprint '{sprint_name}' in {project_id} from {start_date} to {end_date}.",
    "Create the sprint '{sprint_name}' for {project_id}, {start_date} through {end_date}, with the goal: {goal}",
], reply=[
    "Planned the sprint '{result.name}' from {start_date} to {end_date}.",
    "The sprint '{result.name}' is set up in {project_id}.",
], values={
    # a sprint's name says what its goal is (and is not the name of a numbered sprint the world has)
    "sprint_name, goal": [
        ("Release hardening", "Stabilize the release candidate"), ("Onboarding polish", "Ship the new onboarding flow"),
        ("Performance sprint", "Get checkout under 2 seconds"), ("Security cleanup", "Clear the security backlog"),
        ("Billing migration", "Finish the billing migration"), ("Crash fixes", "Close the top crash bugs"),
    ],
    # a sprint runs one or two working weeks, Monday to Friday
    "start_date, end_date": [("2026-03-23", "2026-03-27"), ("2026-03-23", "2026-04-03"), ("2026-03-30", "2026-04-03"),
                             ("2026-03-30", "2026-04-10"), ("2026-04-06", "2026-04-17"), ("2026-04-13", "2026-04-24")],
})
def create_sprint(ctx: Ctx, project_id: AdminProjectId, sprint_name: SprintName, start_date: str, end_date: str,
                  goal: Text | None = None) -> Sprint:
    """Plan a new sprint in a project the signed-in user administers.

    Args:
        project_id: ID of the project, such as 'PRJ-10001'.
        sprint_name: the sprint's name, unique in the project, such as 'Release hardening'.
        start_date: first day, today or later, such as '2026-04-06'.
        end_date: last day, after start_date and at most 6 weeks later, such as '2026-04-17'.
        goal: optional goal, such as 'Ship the new checkout page'.

    Returns:
        The planned sprint with its ID.

    Raises:
        not_found: no project has that ID.
        project_archived: the project is archived.
        permission_denied: the user is not an admin of the project.
        invalid_date: a date is not a date.
        past_date: start_date is before today.
        invalid_date_range: end_date is not after start_date, or the sprint is longer than 6 weeks.
        duplicate_name: the project already has a sprint with that name.
    """
    require(ctx, project_id, "admin")
    start, end = parse_date(start_date, "start_date"), parse_date(end_date, "end_date")
    if start < ctx.today():
        raise ToolError("past_date", f"start_date {start} is before today ({ctx.today()}).",
                        hint="Sprints start today or later.")
    if end <= start or (end - start).days > MAX_SPRINT_DAYS:
        raise ToolError("invalid_date_range", f"{start} to {end} is not a valid sprint.",
                        hint="end_date must be after start_date and at most 6 weeks later.")
    if ctx.db.execute("SELECT 1 FROM sprints WHERE project_id = ? AND lower(name) = lower(?)",
                      (project_id, sprint_name)).fetchone():
        raise ToolError("duplicate_name", f"The project already has a sprint named {sprint_name!r}.",
                        hint="Pick another name; list_sprints shows the existing ones.")
    sprint_id = ctx.new_id("SPR")
    ctx.db.execute("INSERT INTO sprints (sprint_id, project_id, name, goal, start_date, end_date, status) "
                   "VALUES (?, ?, ?, ?, ?, ?, 'planned')",
                   (sprint_id, project_id, sprint_name, goal, start.isoformat(), end.isoformat()))
    return sprint_model(ctx, sprint_id)


@tools.tool(effect=WRITE, asks=[
    "Start {sprint_id}.",
    "Kick off {sprint_id} today.",
], reply=[
    "{result.name} has started; it runs until {result.end_date}.",
    "Started {sprint_id} with {result.issue_count} issues.",
], needs=["complete_sprint"])
def start_sprint(ctx: Ctx, sprint_id: PlannedSprintId) -> Sprint:
    """Start a planned sprint today, keeping its length; a project has at most one active sprint.

    Args:
        sprint_id: ID of the planned sprint, such as 'SPR-10005'.

    Returns:
        The active sprint with its new dates.

    Raises:
        not_found: no sprint has that ID.
        project_archived: the sprint's project is archived.
        permission_denied: the user is not an admin of the sprint's project.
        invalid_sprint_state: the sprint is not planned (already active or completed).
        sprint_already_active: another sprint of the project is active; complete it first.
    """
    sprint = _admin_sprint(ctx, sprint_id, "planned", "Only planned sprints can be started.")
    active = ctx.db.execute("SELECT sprint_id, name FROM sprints WHERE project_id = ? AND status = 'active'",
                            (sprint["project_id"],)).fetchone()
    if active:
        raise ToolError("sprint_already_active", f"{active['name']} ({active['sprint_id']}) is still active.",
                        hint="Complete it with complete_sprint first.")
    start, end = date.fromisoformat(sprint["start_date"]), date.fromisoformat(sprint["end_date"])
    today = ctx.today()
    ctx.db.execute("UPDATE sprints SET status = 'active', start_date = ?, end_date = ? WHERE sprint_id = ?",
                   (today.isoformat(), (today + (end - start)).isoformat(), sprint_id))
    return sprint_model(ctx, sprint_id)


@tools.tool(effect=WRITE, asks=[
    "Complete {sprint_id} and move what's left to {move_open_to}.",
    "Close out {sprint_id}; unfinished issues go back to the backlog.",
], reply=[
    # (a count read just before its noun, and no verb that must agree: "1 issue left over went back")
    Ask("Completed {sprint_id} with {result.resolved_issues} issues resolved; {result.moved_count} issues still "
        "open went back to the backlog.", move_open_to=None),
    Ask("{sprint_id} is complete: {result.resolved_issues} issues resolved, and {result.moved_count} issues left "
        "over went back to the backlog.", move_open_to=None),
    "Completed {sprint_id} with {result.resolved_issues} issues resolved; {result.moved_count} issues still open "
    "moved to {result.moved_to_name}.",
    "{sprint_id} is complete: {result.resolved_issues} issues resolved, and {result.moved_count} issues left over "
    "moved on to {result.moved_to_name}.",
])
def complete_sprint(ctx: Ctx, sprint_id: ActiveSprintId, move_open_to: SprintId | None = None) -> SprintCompletion:
    """Complete the active sprint; its unresolved issues move to a planned sprint of the project or to the backlog.

    Args:
        sprint_id: ID of the active sprint, such as 'SPR-10004'.
        move_open_to: a planned sprint of the same project for the unresolved issues, such as
            'SPR-10005'; omit to move them to the backlog.

    Returns:
        The completed sprint, how many of its issues were resolved, and which issues moved where.

    Raises:
        not_found: a sprint does not exist.
        project_archived: the sprint's project is archived.
        permission_denied: the user is not an admin of the sprint's project.
        invalid_sprint_state: the sprint is not active.
        invalid_target: move_open_to is not a planned sprint of the same project.
    """
    sprint = _admin_sprint(ctx, sprint_id, "active", "Only the active sprint can be completed.")
    if move_open_to is not None:
        target = ctx.get("sprint", move_open_to)
        if target["project_id"] != sprint["project_id"] or target["status"] != "planned":
            raise ToolError("invalid_target", f"{move_open_to} is not a planned sprint of the same project.",
                            hint="list_sprints with status 'planned' shows the candidates, or omit move_open_to.")
    moved = [r[0] for r in ctx.db.execute(
        "SELECT issue_id FROM issues WHERE sprint_id = ? AND status NOT IN ('done', 'closed') ORDER BY issue_id",
        (sprint_id,))]
    (resolved,) = ctx.db.execute("SELECT count(*) FROM issues WHERE sprint_id = ? AND status IN ('done', 'closed')",
                                 (sprint_id,)).fetchone()
    for issue_id in moved:
        ctx.db.execute("UPDATE issues SET sprint_id = ? WHERE issue_id = ?", (move_open_to, issue_id))
        record(ctx, issue_id, "sprint", sprint_id, move_open_to)
    ctx.db.execute("UPDATE sprints SET status = 'completed', completed_at = ? WHERE sprint_id = ?",
                   (ctx.now_iso(), sprint_id))
    return SprintCompletion(sprint=sprint_model(ctx, sprint_id), resolved_issues=resolved, moved_issues=moved,
                            moved_count=len(moved), moved_to=move_open_to,
                            moved_to_name=ctx.get("sprint", move_open_to)["name"] if move_open_to else None)
