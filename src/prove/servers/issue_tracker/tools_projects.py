"""Projects, people and the user's own dashboard."""

from __future__ import annotations

from datetime import timedelta

from prove.env import READ, Ask, Ctx, Toolset
from prove.env.values import like, said_in_part, spoken_day

from .server import (
    ISSUE_SQL,
    PRIORITY_ORDER,
    Dashboard,
    Limit,
    Member,
    Project,
    ProjectId,
    ProjectList,
    ProjectSummary,
    Query,
    User,
    UserList,
    me,
    summary,
)

tools = Toolset("projects")


def _project_summary(ctx: Ctx, row) -> ProjectSummary:  # noqa: ANN001 - a sqlite3.Row
    lead = ctx.get("user", row["lead_id"])
    role = ctx.db.execute("SELECT role FROM members WHERE project_id = ? AND user_id = ?",
                          (row["project_id"], me(ctx))).fetchone()
    (unresolved,) = ctx.db.execute("SELECT count(*) FROM issues WHERE project_id = ? AND status NOT IN "
                                   "('done', 'closed')", (row["project_id"],)).fetchone()
    sprint = ctx.db.execute("SELECT sprint_id, name FROM sprints WHERE project_id = ? AND status = 'active'",
                            (row["project_id"],)).fetchone()
    return ProjectSummary(project_id=row["project_id"], key=row["key"], name=row["name"], status=row["status"],
                          lead_id=row["lead_id"], lead_name=lead["name"], my_role=role[0] if role else None,
                          unresolved_issues=unresolved, active_sprint_id=sprint[0] if sprint else None,
                          active_sprint_name=sprint[1] if sprint else None)


@tools.tool(effect=READ, asks=[
    "Which projects are there?",
    Ask("Which projects are still active?", include_archived=False),
    "List all the projects in the tracker, with their leads.",
], reply=[
    "{result.total} projects: {result.projects_text}.",
])
def list_projects(ctx: Ctx, include_archived: bool = True) -> ProjectList:
    """List the company's projects with the signed-in user's role in each.

    Args:
        include_archived: whether to include archived (read-only) projects, default true.

    Returns:
        Each project's ID, key (the prefix of its issue IDs), name, status, lead, the user's role
        ('admin', 'member', 'viewer' or null when not a member), unresolved issue count and
        active sprint, and the total.
    """
    sql = "SELECT * FROM projects" + ("" if include_archived else " WHERE status = 'active'") + " ORDER BY name"
    rows = ctx.db.execute(sql).fetchall()
    projects = [_project_summary(ctx, r) for r in rows]
    user = me(ctx)
    said = [f"{p.name} ({p.key}), led by {'you' if p.lead_id == user else p.lead_name}"
            + (" (archived)" if p.status == "archived" and include_archived else "") for p in projects]
    return ProjectList(projects=projects, total=len(rows), projects_text=said_in_part(said, len(rows), "none"))


@tools.tool(effect=READ, asks=[
    "Tell me about {project_id}.",
    "Who is on {project_id} and what are their roles?",
    "How many unresolved issues does {project_id} have?",
], reply=[
    # One reply a question: the project as a whole; who is on it; how many issues are open.
    "{result.name} ({result.key}, led by {result.lead_name}) has {result.unresolved_issues} unresolved issues. "
    "Members: {result.roles}.",
    "On {result.name}: {result.roles}.",
    "{result.name} has {result.unresolved_issues} unresolved issues.",
])
def get_project(ctx: Ctx, project_id: ProjectId) -> Project:
    """Get one project in full: its members and their roles, issue counts by status and labels in use.

    Args:
        project_id: ID of the project, such as 'PRJ-10001'.

    Returns:
        The project with description, lead, the user's role, active sprint, members (ID, name,
        title, role, whether active), the number of issues in each status and the labels used.

    Raises:
        not_found: no project has that ID.
    """
    row = ctx.get("project", project_id)
    base = _project_summary(ctx, row)
    members = [Member(user_id=r["user_id"], name=r["name"], title=r["title"], role=r["role"], active=bool(r["active"]))
               for r in ctx.db.execute(
                   "SELECT m.user_id, m.role, u.name, u.title, u.active FROM members m JOIN users u "
                   "ON u.user_id = m.user_id WHERE m.project_id = ? "
                   "ORDER BY CASE m.role WHEN 'admin' THEN 0 WHEN 'member' THEN 1 ELSE 2 END, u.name", (project_id,))]
    counts = {s: 0 for s in ("open", "in_progress", "in_review", "done", "closed")}
    for status, n in ctx.db.execute("SELECT status, count(*) FROM issues WHERE project_id = ? GROUP BY status",
                                    (project_id,)):
        counts[status] = n
    labels = [r[0] for r in ctx.db.execute(
        "SELECT DISTINCT l.label FROM labels l JOIN issues i ON i.issue_id = l.issue_id WHERE i.project_id = ? "
        "ORDER BY l.label", (project_id,))]
    mine = me(ctx)  # the user is "you (admin)" among the members, not their own name
    return Project(**base.model_dump(), description=row["description"], created_on=row["created_on"],
                   members=members,
                   roles=", ".join(f"{'you' if m.user_id == mine else m.name} ({m.role})" for m in members),
                   issues_by_status=counts, labels=labels)


@tools.tool(effect=READ, asks=[
    "Find {query} in the company directory.",
    "Who is {query}?",
    "Look up {query} among the members of {project_id}.",
], reply=[
    "I found {result.total} people: {result.users_text}.",
])
def search_users(ctx: Ctx, query: Query, project_id: ProjectId | None = None, limit: Limit = 20) -> UserList:
    """Find people in the company directory by part of their name, email, title or team.

    Args:
        query: text to look for, such as 'Chen' or 'QA Engineer' (case does not matter).
        project_id: only members of this project, such as 'PRJ-10001'; their role is then shown.
        limit: the most people to return, 1 to 100, such as 20.

    Returns:
        Matching people (ID, name, email, title, team, whether their account is active, and their
        role in `project_id` when given) and the total.

    Raises:
        not_found: `project_id` is given and no project has that ID.
    """
    pattern = like(query)
    params: list[object] = [pattern] * 4
    sql = ("SELECT u.*, m.role FROM users u LEFT JOIN members m ON m.user_id = u.user_id AND m.project_id = ? "
           "WHERE (u.name LIKE ? ESCAPE '\\' OR u.email LIKE ? ESCAPE '\\' OR u.title LIKE ? ESCAPE '\\' "
           "OR u.team LIKE ? ESCAPE '\\')")
    if project_id is not None:
        ctx.get("project", project_id)
        sql += " AND m.role IS NOT NULL"
    rows = ctx.db.execute(sql + " ORDER BY u.name", [project_id, *params]).fetchall()
    users = [User(user_id=r["user_id"], name=r["name"], email=r["email"], title=r["title"], team=r["team"],
                  active=bool(r["active"]), role=r["role"]) for r in rows[:limit]]
    shown = users if len(users) <= 8 else users[:6]
    def one(u: User) -> str:
        notes = [n for n in (f"{u.role} in the project" if u.role and project_id else "",
                             "" if u.active else "deactivated") if n]
        return f"{u.name}, {u.title} on the {u.team} team" + (f" ({', '.join(notes)})" if notes else "")
    said = [one(u) for u in shown]
    return UserList(users=users, total=len(rows), users_text=said_in_part(said, len(rows), "nobody"))


@tools.tool(effect=READ, asks=[
    "What's on my plate?",
    "Show me my dashboard: my assigned issues and what is past its due date.",
    "What am I assigned to right now?",
], reply=[
    "You have {result.total_assigned} unresolved issues assigned, {result.overdue_count} of them overdue. Most urgent: "
    "{result.most_urgent}.",
])
def get_my_dashboard(ctx: Ctx, limit: Limit = 20) -> Dashboard:
    """The signed-in user's dashboard: their unresolved issues, overdue ones, watches and time logged this week.

    Args:
        limit: the most assigned issues to list, 1 to 100, such as 20.

    Returns:
        The user's ID and name, their unresolved assigned issues (most urgent first: priority,
        then due date), how many there are, counts by status, the IDs of overdue ones, how many
        unresolved issues they watch and the minutes they logged since Monday of this week.
    """
    uid = me(ctx)
    name = ctx.get("user", uid)["name"]
    rows = ctx.db.execute(
        ISSUE_SQL + f" WHERE i.assignee_id = ? AND i.status NOT IN ('done', 'closed') "
        f"ORDER BY {PRIORITY_ORDER}, i.due_date IS NULL, i.due_date, i.issue_id", (uid,)).fetchall()
    items = [summary(ctx, r) for r in rows]
    by_status: dict[str, int] = {}
    for item in items:
        by_status[item.status] = by_status.get(item.status, 0) + 1
    (watching,) = ctx.db.execute(
        "SELECT count(*) FROM watchers w JOIN issues i ON i.issue_id = w.issue_id WHERE w.user_id = ? "
        "AND i.status NOT IN ('done', 'closed')", (uid,)).fetchone()
    monday = ctx.today() - timedelta(days=ctx.today().weekday())
    (minutes,) = ctx.db.execute("SELECT coalesce(sum(minutes), 0) FROM worklogs WHERE user_id = ? AND work_date >= ? "
                                "AND work_date <= ?", (uid, monday.isoformat(), ctx.today().isoformat())).fetchone()
    today = ctx.today()
    urgent = "; ".join(f"{i.issue_id} '{i.title}' ({i.priority}" + (f", due {spoken_day(i.due_date, today)})"
                                                                   if i.due_date else ")")
                       for i in items[:min(limit, 3)])
    return Dashboard(user_id=uid, name=name, assigned=items[:limit], total_assigned=len(items), by_status=by_status,
                     overdue=[i.issue_id for i in items if i.overdue], watching=watching,
                     minutes_logged_this_week=minutes, most_urgent=urgent or "none",
                     overdue_count=sum(1 for i in items if i.overdue))
