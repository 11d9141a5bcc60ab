"""The issue tracker world: one software company's projects, as one signed-in engineer sees them.

A company of 30-40 people works in five projects drawn per seed from a pool (web storefront,
mobile app, public API, payments, infrastructure, data, design system, security). The user's
place in them is the same in every world, so that every kind of permission exists:

- projects[0]: the user is an **admin** (they manage its sprints); it has an active sprint and a
  planned one, and an issue of the user's in review that is blocked by an open issue;
- projects[1]: the user is a **member**;
- projects[2]: the user is a member, but the project is **archived** (read-only);
- projects[3]: the user is a **viewer** (may comment and watch only);
- projects[4]: the user is **not a member**.

Issues span from the project's creation (autumn 2025) to the epoch (Monday 2026-03-16 09:00):
done and closed issues in completed sprints, a mix of workflow states in the active sprint,
open work in the planned sprint and the backlog; epics with child issues; labels, links (some
open blockers), watchers, comments, worklogs and the history of changes.

The vocabulary the tools share (statuses, transitions) lives here too.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from prove.env import WorldGen
from prove.env.values import iso

# ----- vocabulary shared with the tools ---------------------------------------------------------

STATUSES = ("open", "in_progress", "in_review", "done", "closed")
RESOLVED = ("done", "closed")
# The workflow: where an issue may move with transition_issue.
TRANSITIONS: dict[str, tuple[str, ...]] = {
    "open": ("in_progress",),
    "in_progress": ("open", "in_review"),
    "in_review": ("in_progress", "done"),
    "done": (),
    "closed": (),
}
PRIORITIES = ("critical", "high", "medium", "low")
TYPES = ("bug", "task", "story", "epic")
RESOLUTIONS = ("fixed", "wont_fix", "duplicate", "cannot_reproduce", "obsolete")

# ----- catalogues ---------------------------------------------------------------------------------

# key, name, description, components
PROJECTS = (
    ("WEB", "Web Storefront", "The customer-facing web shop: catalogue, cart, checkout and accounts.",
     ("checkout page", "product page", "search bar", "cart drawer", "login form", "account settings",
      "order history", "header navigation", "promo banner", "image gallery")),
    ("MOB", "Mobile App", "The iOS and Android shopping app.",
     ("push notifications", "onboarding flow", "offline mode", "barcode scanner", "in-app purchases",
      "deep links", "dark mode", "settings screen", "photo upload")),
    ("API", "Public API", "The REST API and SDKs that partners integrate with.",
     ("rate limiter", "OAuth token endpoint", "webhooks", "pagination", "orders endpoint", "users endpoint",
      "API docs", "Python SDK", "error responses")),
    ("PAY", "Payments Platform", "Card payments, refunds, invoicing and payouts.",
     ("refund flow", "card tokenization", "invoice generator", "currency conversion", "payout scheduler",
      "fraud checks", "3-D Secure", "ledger export")),
    ("OPS", "Infrastructure", "CI/CD, clusters, observability and the cloud bill.",
     ("CI pipeline", "Kubernetes cluster", "log aggregation", "database backups", "TLS certificates",
      "CDN config", "alerting rules", "Terraform modules", "staging environment")),
    ("DATA", "Data Platform", "The warehouse, pipelines and dashboards behind every report.",
     ("nightly ETL", "event tracking", "revenue dashboard", "warehouse schema", "retention job",
      "A/B test reports", "churn model")),
    ("DSN", "Design System", "Shared UI components, tokens and accessibility guidelines.",
     ("button component", "color tokens", "typography scale", "icon set", "modal component", "form inputs",
      "date picker")),
    ("SEC", "Security Program", "Identity, secrets, audits and vulnerability remediation.",
     ("SSO integration", "password policy", "audit log", "dependency scanning", "secrets rotation",
      "pen test findings", "session handling")),
)

TEAMS = ("Web", "Mobile", "Platform", "Payments", "Data", "Design", "QA", "Product")
TITLES = {
    "Web": ("Frontend Engineer", "Senior Frontend Engineer", "Full-Stack Engineer"),
    "Mobile": ("iOS Engineer", "Android Engineer", "Senior Mobile Engineer"),
    "Platform": ("Backend Engineer", "Site Reliability Engineer", "Staff Engineer"),
    "Payments": ("Backend Engineer", "Senior Backend Engineer", "Engineering Manager"),
    "Data": ("Data Engineer", "Analytics Engineer", "Data Scientist"),
    "Design": ("Product Designer", "UX Researcher", "Design Lead"),
    "QA": ("QA Engineer", "Test Automation Engineer"),
    "Product": ("Product Manager", "Senior Product Manager", "Technical Program Manager"),
}
ME_TITLES = ("Senior Software Engineer", "Staff Engineer", "Tech Lead", "Full-Stack Engineer")

SYMPTOMS = ("returns a 500 error", "times out", "shows the wrong currency", "does not load", "crashes",
            "renders incorrectly", "is very slow", "loses unsaved changes", "submits twice",
            "shows stale data", "ignores the user's locale", "leaks memory")
PLATFORMS = ("in production", "on staging", "for EU customers", "after the last release", "under load",
             "for new accounts", "intermittently", "on slow networks", "for some users")
TASKS = ("Upgrade dependencies of the {c}", "Add monitoring for the {c}", "Write integration tests for the {c}",
         "Document the {c}", "Refactor the {c}", "Add feature flag for the new {c}", "Remove dead code in the {c}",
         "Migrate the {c} to the new config format", "Add metrics dashboard for the {c}",
         "Clean up logging in the {c}")
PERSONAS = ("shopper", "returning customer", "support agent", "partner developer", "site admin", "finance analyst",
            "new user", "store manager")
STORIES = ("As a {p}, I want the {c} to remember my last choice",
           "As a {p}, I want to filter results in the {c}",
           "As a {p}, I want email updates from the {c}",
           "As a {p}, I want the {c} to work offline",
           "As a {p}, I want to export data from the {c}",
           "As a {p}, I want clearer errors in the {c}")
EPICS = ("{c} redesign", "{c} reliability push", "Q2 improvements to the {c}", "{c} v2", "Faster {c}")
LABELS = ("frontend", "backend", "regression", "customer-reported", "tech-debt", "performance", "accessibility",
          "security", "good-first-issue", "ux", "flaky-test", "needs-design", "documentation", "release-blocker")
COMMENTS = ("Reproduced on staging; looks related to the {c}.", "PR is up for review.",
            "Can we get this into the current sprint?", "Blocked until the {c} change lands.",
            "QA passed on staging.", "I'll pick this up tomorrow.",
            "Added logging; it only happens when the cache is cold.", "Customer confirmed the fix.",
            "Lowering the priority; a workaround is documented.", "Does this also affect the {c}?",
            "Paired on this today, about halfway there.", "Design is attached in the spec.",
            "Could not reproduce with the latest build.", "Needs a product decision before we continue.")
WORKLOG_NOTES = ("investigation", "implementation", "code review fixes", "writing tests", "pairing session",
                 "deploy and verify", None, None)

PROJECT_CREATED = date(2025, 10, 1)
SPRINT_DAYS = 14


def office(rng, day: date) -> datetime:  # noqa: ANN001 - a random.Random
    """A time during office hours on `day`, or on the Friday before if it falls on a weekend."""
    day -= timedelta(days=max(day.weekday() - 4, 0))
    return datetime.combine(day, datetime.min.time()) + timedelta(minutes=rng.randrange(9 * 60, 18 * 60, 5))


def build_world(w: WorldGen) -> dict[str, list[dict[str, Any]]]:
    rng, fake, now = w.rng, w.fake, w.now
    today = now.date()
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in (
        "users", "projects", "members", "sprints", "issues", "labels", "links", "watchers", "comments",
        "worklogs", "history")}
    domain = rng.choice(("northwind.io", "brightcart.com", "tidalworks.dev", "meridianapps.com", "apexhq.com"))

    # ----- people ----------------------------------------------------------------------------------
    people = fake.people(rng.randint(30, 40))
    users: list[dict[str, Any]] = []
    for i, person in enumerate(people):
        team = TEAMS[i % len(TEAMS)] if i else "Web"
        title = rng.choice(ME_TITLES) if i == 0 else rng.choice(TITLES[team])
        users.append({"user_id": w.new_id("USR"), "name": person.name, "email": fake.email(person, domain),
                      "title": title, "team": team, "active": 1, "is_me": int(i == 0)})
    me = users[0]["user_id"]
    for u in rng.sample(users[1:], 2):
        u["active"] = 0
    rows["users"] = users
    others = [u["user_id"] for u in users[1:]]
    active_others = [u["user_id"] for u in users[1:] if u["active"]]

    # ----- projects and members ----------------------------------------------------------------------
    chosen = rng.sample(PROJECTS, 5)
    my_roles = ("admin", "member", "member", "viewer", None)
    projects = []
    for n, ((key, name, description, components), role) in enumerate(zip(chosen, my_roles)):
        team = rng.sample(others, rng.randint(7, 10))
        lead = me if role == "admin" else next(u for u in team if u in active_others)
        pid = w.new_id("PRJ")
        created = PROJECT_CREATED + timedelta(days=rng.randint(0, 40))
        rows["projects"].append({"project_id": pid, "key": key, "name": name, "description": description,
                                 "lead_id": lead, "status": "archived" if n == 2 else "active",
                                 "created_on": created.isoformat()})
        member_roles: dict[str, str] = {}
        for uid in team:
            member_roles[uid] = "admin" if uid == lead else rng.choice(("member",) * 5 + ("viewer",))
        if role is not None:
            member_roles[me] = role
        if n == 0:  # an inactive colleague is still on the admin project's roster
            gone = next(u["user_id"] for u in users if not u["active"])
            member_roles.setdefault(gone, "member")
        for uid, r in member_roles.items():
            rows["members"].append({"project_id": pid, "user_id": uid, "role": r})
        projects.append({"id": pid, "key": key, "components": components, "n": n, "created": created,
                         "roles": member_roles, "my_role": role})

    # ----- sprints, issues and everything on them ------------------------------------------------------
    for p in projects:
        _project_issues(w, rows, p, me, today)

    # Rows in key order fill SQLite pages densely: a smaller template for every session to copy.
    keys = {"members": ("project_id", "user_id"), "labels": ("issue_id", "label"),
            "watchers": ("issue_id", "user_id")}
    for table, items in rows.items():
        if items:
            cols = keys.get(table, (next(iter(items[0])),))
            items.sort(key=lambda r: tuple(r[c] for c in cols))
    return rows


def _project_issues(w: WorldGen, rows: dict[str, list[dict[str, Any]]], p: dict[str, Any], me: str,
                    today: date) -> None:
    rng, now = w.rng, w.now
    archived = p["n"] == 2
    workers = [u for u, r in p["roles"].items() if r in ("admin", "member")
               and next(x for x in rows["users"] if x["user_id"] == u)["active"]]
    everyone = list(p["roles"])
    comps = p["components"]

    # Sprints: two weeks each, Monday to Friday of the next week. Archived projects stopped in January.
    offset = 0 if p["n"] in (0, 2) else rng.choice((0, 7))
    active_start = today - timedelta(days=7 - offset) if p["n"] != 0 else today - timedelta(days=7)
    starts = [active_start + timedelta(days=SPRINT_DAYS * k) for k in (-3, -2, -1, 0, 1)]
    if archived:
        starts = [date(2025, 12, 1) + timedelta(days=SPRINT_DAYS * k) for k in range(4)]
    number = rng.randint(8, 20)
    sprints = []
    for k, start in enumerate(starts):
        end = start + timedelta(days=SPRINT_DAYS - 3)
        if archived:
            status = "completed"
        else:
            status = "completed" if k < 3 else "active" if k == 3 else "planned"
        sid = w.new_id("SPR")
        done_at = None
        if status == "completed":
            done_at = iso(datetime.combine(end, datetime.min.time()) + timedelta(hours=17))
        rows["sprints"].append({
            "sprint_id": sid, "project_id": p["id"], "name": f"{p['key']} Sprint {number + k}",
            "goal": rng.choice((f"Ship the {rng.choice(comps)} changes", f"Stabilize the {rng.choice(comps)}",
                                f"Close out {rng.choice(comps)} bugs", None)),
            "start_date": start.isoformat(), "end_date": end.isoformat(), "status": status,
            "completed_at": done_at})
        sprints.append((sid, start, end, status))

    n_issues = rng.randint(22, 28) if archived else rng.randint(38, 48)
    issues: list[dict[str, Any]] = []
    epics: list[str] = []

    def add_issue(kind: str, comp: str, title: str, status: str, sprint: tuple | None, created: datetime,
                  assignee: str | None, parent: str | None = None) -> dict[str, Any]:
        iid = w.new_id(p["key"])
        resolution = None
        if status == "done":
            resolution = "fixed"
        elif status == "closed":
            resolution = rng.choice(("wont_fix", "duplicate", "cannot_reproduce", "obsolete", "fixed"))
        latest = now - timedelta(minutes=rng.randint(20, 90))
        if sprint is not None and status in RESOLVED and sprint[3] == "completed":
            latest = office(rng, sprint[2])
        updated = office(rng, created.date() + timedelta(days=rng.randint(0, 20)))
        if updated > latest:
            updated = latest
        updated = max(updated, created)
        estimate = None if kind == "epic" else rng.choice((None, 60, 120, 240, 480, 960, 1440))
        spent = 0
        if estimate and status != "open":
            spent = int(estimate * rng.uniform(0.3, 1.3)) // 15 * 15
        points = rng.choice((1, 2, 3, 5, 8, 13)) if kind in ("story", "task") and rng.random() < 0.8 else None
        due = None
        if rng.random() < 0.3 and kind != "epic":
            due = (today + timedelta(days=rng.randint(-12, 30))).isoformat()
        desc = _description(rng, kind, comp)
        issue = {"issue_id": iid, "project_id": p["id"], "type": kind, "title": title, "description": desc,
                 "status": status, "resolution": resolution, "priority": rng.choices(PRIORITIES, (1, 4, 8, 4))[0],
                 "assignee_id": assignee, "reporter_id": rng.choice(everyone),
                 "sprint_id": sprint[0] if sprint else None,
                 "parent_id": parent, "story_points": points, "estimate_minutes": estimate, "spent_minutes": spent,
                 "due_date": due, "created_at": iso(created), "updated_at": iso(updated),
                 "resolved_at": iso(updated) if status in RESOLVED else None}
        rows["issues"].append(issue)
        issues.append(issue)
        return issue

    created0 = datetime.combine(p["created"], datetime.min.time()) + timedelta(hours=10)
    for _ in range(2 if archived else 3):
        comp = rng.choice(comps)
        title = rng.choice(EPICS).format(c=comp)
        title = title[0].upper() + title[1:]
        e = add_issue("epic", comp, title, "done" if archived else "in_progress", None, created0, rng.choice(workers))
        epics.append(e["issue_id"])

    for i in range(n_issues):
        kind = rng.choices(("bug", "task", "story"), (4, 4, 3))[0]
        comp = rng.choice(comps)
        if kind == "bug":
            title = f"{comp[0].upper() + comp[1:]} {rng.choice(SYMPTOMS)} {rng.choice(PLATFORMS)}"
        elif kind == "task":
            title = rng.choice(TASKS).format(c=comp)
        else:
            title = rng.choice(STORIES).format(p=rng.choice(PERSONAS), c=comp)
        where = rng.random()
        if where < 0.4:
            sprint = sprints[rng.randrange(0, 3)]
            status = rng.choices(("done", "closed", "open"), (8, 1, 1))[0]
        elif where < 0.65 and not archived:
            sprint = sprints[3]
            status = rng.choices(("open", "in_progress", "in_review", "done"), (3, 3, 2, 2))[0]
        elif where < 0.75 and not archived:
            sprint = sprints[4]
            status = "open"
        else:
            sprint = None
            status = rng.choices(("open", "closed"), (6, 1))[0]
        if archived:
            status = rng.choice(("done", "done", "closed"))
        lo = p["created"] if sprint is None else min(sprint[1], today) - timedelta(days=20)
        lo = max(lo, p["created"])
        hi = min(sprint[1] if sprint else today, today) if sprint and sprint[3] == "completed" else today
        day = lo + timedelta(days=rng.randint(0, max((hi - lo).days - 1, 0)))
        created = office(rng, day)
        if created > now - timedelta(hours=1):
            created = office(rng, today - timedelta(days=3))
        assignee = None
        if status != "open" or rng.random() < 0.7:
            assignee = rng.choice(workers)
        parent = rng.choice(epics) if rng.random() < 0.5 else None
        add_issue(kind, comp, title, status, sprint, created, assignee, parent)

    # The user's own work.
    if p["my_role"] in ("admin", "member") and not archived:
        open_mine = [x for x in issues if x["type"] != "epic" and x["status"] in ("open", "in_progress", "in_review")]
        for x in rng.sample(open_mine, min(len(open_mine), 6 if p["n"] == 0 else 4)):
            x["assignee_id"] = me

    # Links between issues. A blocker is always an earlier issue than what it blocks, so the
    # links never form a cycle.
    candidates = [x for x in issues if x["type"] != "epic"]
    for _ in range(rng.randint(4, 7)):
        a, b = sorted(rng.sample(candidates, 2), key=lambda x: x["issue_id"])
        kind = rng.choices(("blocks", "relates_to", "duplicates"), (3, 2, 1))[0]
        if kind == "duplicates":
            a, b = b, a  # a later issue duplicates an earlier one
        if any({link["source_id"], link["target_id"]} == {a["issue_id"], b["issue_id"]} for link in rows["links"]):
            continue
        rows["links"].append({"link_id": w.new_id("LNK"), "source_id": a["issue_id"], "target_id": b["issue_id"],
                              "type": kind, "created_at": max(a["created_at"], b["created_at"])})
    if p["n"] == 0:
        _fixtures(w, rows, issues, sprints[3][0], me)
    for x in issues:
        _extras(w, rows, p, x, everyone, me, today)


def _fixtures(w: WorldGen, rows: dict[str, list[dict[str, Any]]], issues: list[dict[str, Any]], active: str,
              me: str) -> None:
    """In the admin project: an issue of the user's in review that an open bug blocks, and another
    of theirs in review that nothing blocks (ready to be completed)."""
    unresolved = {x["issue_id"] for x in issues if x["status"] not in RESOLVED}
    blocked_ids = {link["target_id"] for link in rows["links"] if link["type"] == "blocks"
                   and link["source_id"] in unresolved}
    mine = sorted((x for x in issues if x["assignee_id"] == me and x["type"] != "epic"),
                  key=lambda x: x["issue_id"], reverse=True)
    blocked = mine[0]
    blocker = next(x for x in issues if x["status"] == "open" and x["type"] != "epic"
                   and x["assignee_id"] != me and x["issue_id"] < blocked["issue_id"])
    blocker["priority"] = "high"
    blocked.update(status="in_review", sprint_id=active, resolution=None, resolved_at=None)
    rows["links"].append({"link_id": w.new_id("LNK"), "source_id": blocker["issue_id"],
                          "target_id": blocked["issue_id"], "type": "blocks",
                          "created_at": max(blocker["created_at"], blocked["created_at"])})
    ready = next(x for x in mine[1:] if x["issue_id"] not in blocked_ids)
    ready.update(status="in_review", sprint_id=active, resolution=None, resolved_at=None)


def _description(rng, kind: str, comp: str) -> str | None:  # noqa: ANN001
    if kind == "bug":
        return (f"Steps: open the {comp} and repeat the action a few times. Expected: it works. "
                f"Actual: it {rng.choice(SYMPTOMS)}.")
    if kind == "story":
        return f"Acceptance criteria: the {comp} change is behind a flag, tested and documented."
    if kind == "epic":
        return f"Umbrella for the {comp} work this quarter."
    return None if rng.random() < 0.5 else f"Part of keeping the {comp} healthy."


def _extras(w: WorldGen, rows: dict[str, list[dict[str, Any]]], p: dict[str, Any], x: dict[str, Any],
            everyone: list[str], me: str, today: date) -> None:
    """Labels, watchers, comments, worklogs and history of one issue."""
    rng = w.rng
    iid = x["issue_id"]
    for label in rng.sample(LABELS, rng.choice((0, 1, 1, 2))):
        rows["labels"].append({"issue_id": iid, "label": label})
    if x["type"] == "bug" and rng.random() < 0.3:
        if not any(l["issue_id"] == iid and l["label"] == "customer-reported" for l in rows["labels"]):
            rows["labels"].append({"issue_id": iid, "label": "customer-reported"})
    watching = {x["reporter_id"]}
    if x["assignee_id"]:
        watching.add(x["assignee_id"])
    if rng.random() < 0.2:
        watching.add(rng.choice(everyone))
    if me in p["roles"] and rng.random() < 0.12:
        watching.add(me)
    for uid in watching:
        rows["watchers"].append({"issue_id": iid, "user_id": uid})

    created = datetime.fromisoformat(x["created_at"])
    updated = datetime.fromisoformat(x["updated_at"])
    span = max(int((updated - created).total_seconds() // 60), 1)
    posted: set[datetime] = set()  # no two comments on an issue in the same minute ("the comment ... from 5:37 PM")
    said: set[str] = set()  # nor the same words twice (a discussion read out says each)
    for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
        at = created + timedelta(minutes=rng.randint(1, span))
        while at in posted:
            at += timedelta(minutes=1)
        posted.add(at)
        author = x["assignee_id"] if x["assignee_id"] and rng.random() < 0.5 else rng.choice(everyone)
        body = rng.choice([c for c in COMMENTS if c not in said])
        said.add(body)
        rows["comments"].append({"comment_id": w.new_id("CMT"), "issue_id": iid, "author_id": author,
                                 "body": body.format(c=rng.choice(p["components"])),
                                 "created_at": iso(at), "edited_at": None})

    if x["spent_minutes"] and x["assignee_id"]:
        parts = rng.choice((1, 2, 3))
        chunks = [x["spent_minutes"] // parts // 15 * 15] * (parts - 1)
        chunks.append(x["spent_minutes"] - sum(chunks))
        logged: dict[date, dict[str, Any]] = {}  # one entry a day, so "the time entry on MOB-10005 from May 4" is one
        for minutes in (c for c in chunks if c > 0):
            drawn = min((created + timedelta(minutes=rng.randint(0, span))).date(), today)
            note = rng.choice(WORKLOG_NOTES)
            days = [created.date() + timedelta(days=n) for n in range((today - created.date()).days + 1)]
            day = min((d for d in days if d not in logged), key=lambda d: abs(d - drawn), default=drawn)
            if day in logged:
                logged[day]["minutes"] += minutes
                continue
            logged[day] = {"worklog_id": w.new_id("WLG"), "issue_id": iid, "user_id": x["assignee_id"],
                           "work_date": day.isoformat(), "minutes": minutes, "note": note}
            rows["worklogs"].append(logged[day])

    rows["history"].append({"change_id": w.new_id("CHG"), "issue_id": iid, "user_id": x["reporter_id"],
                            "at": x["created_at"], "field": "created", "old_value": None, "new_value": x["title"]})
    if x["status"] != "open":
        actor = x["assignee_id"] or x["reporter_id"]
        rows["history"].append({"change_id": w.new_id("CHG"), "issue_id": iid, "user_id": actor,
                                "at": x["updated_at"], "field": "status", "old_value": "open",
                                "new_value": x["status"]})
