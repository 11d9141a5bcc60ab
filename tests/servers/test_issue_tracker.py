"""Behaviour tests of the issue tracker server: its main flows and failures on world 0.

Tests find what they need through the tools (the project the user administers, a viewer-only
project, the issue of the user's that an open issue blocks), so they do not depend on the exact
IDs a world happens to hold. The clock starts at the epoch, Monday 2026-03-16 09:00.
"""

from __future__ import annotations

import functools
import re

from typing import Any

from prove.env import Ask, Session, registry

from .helpers import fails, ok, session_fixture
from .helpers import replies_for as shared_replies_for

WORLD = 0


s = session_fixture("issue_tracker")


# ----- finding things through the tools -----------------------------------------------------------------

def project(s: Session, role: str | None, archived: bool = False) -> dict:
    return next(p for p in ok(s, "list_projects")["projects"]
                if p["my_role"] == role and (p["status"] == "archived") == archived)


def me(s: Session) -> str:
    return ok(s, "get_my_dashboard")["user_id"]


def members(s: Session, project_id: str, role: str | None = None, active: bool = True) -> list[dict]:
    mine = me(s)
    return [m for m in ok(s, "get_project", {"project_id": project_id})["members"]
            if (role is None or m["role"] == role) and m["active"] == active and m["user_id"] != mine]


def issues(s: Session, **filters: Any) -> list[dict]:
    return ok(s, "search_issues", {"limit": 100, **filters})["issues"]


def blocked_issue(s: Session) -> dict:
    """The issue of the user's, in review in the admin project, that an open issue blocks."""
    admin = project(s, "admin")["project_id"]
    for item in issues(s, project_id=admin, status="in_review", assignee_id=me(s)):
        full = ok(s, "get_issue", {"issue_id": item["issue_id"]})
        if full["blocked_by"]:
            return full
    raise AssertionError("world 0 should hold a blocked issue of the user's")


def ready_issue(s: Session) -> dict:
    """An issue of the user's in review in the admin project that nothing blocks."""
    admin = project(s, "admin")["project_id"]
    for item in issues(s, project_id=admin, status="in_review", assignee_id=me(s)):
        full = ok(s, "get_issue", {"issue_id": item["issue_id"]})
        if not full["blocked_by"]:
            return full
    raise AssertionError("world 0 should hold an unblocked issue of the user's in review")


def new_issue(s: Session, **extra: Any) -> dict:
    admin = project(s, "admin")["project_id"]
    args = {"project_id": admin, "title": "Checkout spinner never stops", "type": "bug", **extra}
    return ok(s, "create_issue", args)


# ----- the world ----------------------------------------------------------------------------------------

def test_world_has_the_described_shape():
    template = registry.get("issue_tracker").template(WORLD)
    counts = {t: template.db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in template.tables}
    assert 30 <= counts["users"] <= 41 and counts["projects"] == 5
    assert 180 <= counts["issues"] <= 300 and counts["comments"] >= 100 and counts["history"] >= 200
    assert counts["worklogs"] >= 100 and counts["watchers"] >= 200 and counts["links"] >= 15
    assert template.size < 250_000


def test_every_kind_of_role_exists(s):
    roles = {(p["my_role"], p["status"]) for p in ok(s, "list_projects")["projects"]}
    assert roles == {("admin", "active"), ("member", "active"), ("member", "archived"), ("viewer", "active"),
                     (None, "active")}
    assert ok(s, "list_projects", {"include_archived": False})["total"] == 4


def test_every_visible_tool_is_documented_for_the_teacher():
    tools = registry.get("issue_tracker").visible_tools
    assert len(tools) >= 20
    for tool in tools:
        assert len(tool.asks) >= 2, tool.name
        assert tool.errors or tool.name in {"list_projects", "get_my_dashboard"}, tool.name


def test_read_tools_do_not_change_state(s):
    before = s.fingerprint()
    admin = project(s, "admin")["project_id"]
    ok(s, "get_project", {"project_id": admin})
    ok(s, "search_users", {"query": "engineer"})
    issue = blocked_issue(s)
    ok(s, "get_issue_history", {"issue_id": issue["issue_id"]})
    ok(s, "list_comments", {"issue_id": issue["issue_id"], "newest_first": True})
    ok(s, "list_worklogs", {"start_date": "2026-03-01", "end_date": "2026-03-16"})
    ok(s, "list_sprints", {"project_id": admin})
    ok(s, "search_issues", {"query": "the", "overdue": True, "sort": "priority"})
    assert s.fingerprint() == before and not s.diff()


# ----- issues ----------------------------------------------------------------------------------------------

def test_create_issue_is_seen_by_search_dashboard_and_history(s):
    admin = project(s, "admin")
    sprint = admin["active_sprint_id"]
    issue = new_issue(s, priority="high", assignee_id=me(s), sprint_id=sprint, due_date="2026-03-20",
                      labels=["Frontend", "regression"], estimate_minutes=120)
    assert issue["issue_id"].startswith(admin["key"] + "-")
    assert issue["status"] == "open" and issue["labels"] == ["frontend", "regression"]
    assert issue["watching"] and issue["remaining_minutes"] == 120
    found = issues(s, query="spinner never", project_id=admin["project_id"])
    assert [i["issue_id"] for i in found] == [issue["issue_id"]]
    dash = ok(s, "get_my_dashboard", {"limit": 100})
    assert issue["issue_id"] in [i["issue_id"] for i in dash["assigned"]]
    history = ok(s, "get_issue_history", {"issue_id": issue["issue_id"]})
    assert [c["field"] for c in history["changes"]] == ["created"]
    sprint_after = ok(s, "list_sprints", {"project_id": admin["project_id"], "status": "active"})["sprints"][0]
    assert issue["issue_id"] in [i["issue_id"] for i in issues(s, sprint_id=sprint_after["sprint_id"])]


def test_create_issue_failures(s):
    viewer = project(s, "viewer")["project_id"]
    archived = project(s, "member", archived=True)["project_id"]
    admin = project(s, "admin")
    fails(s, "create_issue", "permission_denied", {"project_id": viewer, "title": "x"})
    fails(s, "create_issue", "permission_denied", {"project_id": project(s, None)["project_id"], "title": "x"})
    fails(s, "create_issue", "project_archived", {"project_id": archived, "title": "x"})
    fails(s, "create_issue", "past_date", {"project_id": admin["project_id"], "title": "x", "due_date": "2026-03-01"})
    fails(s, "create_issue", "invalid_date", {"project_id": admin["project_id"], "title": "x", "due_date": "next week"})
    fails(s, "create_issue", "invalid_label", {"project_id": admin["project_id"], "title": "x", "labels": ["no way!"]})
    other_sprint = project(s, "member")["active_sprint_id"]
    fails(s, "create_issue", "wrong_project",
          {"project_id": admin["project_id"], "title": "x", "sprint_id": other_sprint})
    done_sprint = ok(s, "list_sprints", {"project_id": admin["project_id"], "status": "completed"})["sprints"][0]
    fails(s, "create_issue", "sprint_closed", {"project_id": admin["project_id"], "title": "x",
                                               "sprint_id": done_sprint["sprint_id"]})
    bug = issues(s, project_id=admin["project_id"], type="bug")[0]
    fails(s, "create_issue", "invalid_parent",
          {"project_id": admin["project_id"], "title": "x", "parent_id": bug["issue_id"]})
    fails(s, "create_issue", "invalid_arguments", {"project_id": admin["project_id"], "title": "   "})


def test_update_issue_records_each_change(s):
    issue = new_issue(s)
    updated = ok(s, "update_issue", {"issue_id": issue["issue_id"], "priority": "critical", "due_date": "2026-04-01",
                                     "story_points": 5})
    assert updated["priority"] == "critical" and updated["due_date"] == "2026-04-01" and updated["story_points"] == 5
    fields = [c["field"] for c in ok(s, "get_issue_history", {"issue_id": issue["issue_id"]})["changes"]]
    assert fields == ["created", "priority", "story_points", "due_date"]
    fails(s, "update_issue", "nothing_to_update", {"issue_id": issue["issue_id"], "priority": "critical"})
    fails(s, "update_issue", "nothing_to_update", {"issue_id": issue["issue_id"]})
    fails(s, "update_issue", "conflicting_fields", {"issue_id": issue["issue_id"], "due_date": "2026-04-02",
                                                    "clear_due_date": True})
    assert ok(s, "update_issue", {"issue_id": issue["issue_id"], "clear_due_date": True})["due_date"] is None


def test_assignment_rules(s):
    admin = project(s, "admin")["project_id"]
    issue = new_issue(s)
    worker = members(s, admin, "member")[0]
    data = ok(s, "assign_issue", {"issue_id": issue["issue_id"], "assignee_id": worker["user_id"]})
    assert data["assignee_id"] == worker["user_id"] and worker["user_id"] in data["watchers"]
    fails(s, "assign_issue", "no_change", {"issue_id": issue["issue_id"], "assignee_id": worker["user_id"]})
    inactive = members(s, admin, active=False)[0]
    fails(s, "assign_issue", "user_inactive", {"issue_id": issue["issue_id"], "assignee_id": inactive["user_id"]})
    outsiders = {u["user_id"] for u in ok(s, "search_users", {"query": "@", "limit": 100})["users"] if u["active"]}
    outsiders -= {m["user_id"] for m in ok(s, "get_project", {"project_id": admin})["members"]}
    fails(s, "assign_issue", "not_a_member", {"issue_id": issue["issue_id"], "assignee_id": sorted(outsiders)[0]})
    viewers = members(s, admin, "viewer")
    if viewers:
        fails(s, "assign_issue", "not_a_member", {"issue_id": issue["issue_id"], "assignee_id": viewers[0]["user_id"]})
    assert ok(s, "assign_issue", {"issue_id": issue["issue_id"]})["assignee_id"] is None
    fails(s, "assign_issue", "no_change", {"issue_id": issue["issue_id"]})


# ----- workflow --------------------------------------------------------------------------------------------

def test_workflow_from_open_to_done_and_reopen(s):
    issue = new_issue(s)
    iid = issue["issue_id"]
    assert issue["allowed_transitions"] == ["in_progress"]
    fails(s, "transition_issue", "invalid_transition", {"issue_id": iid, "status": "done"})
    fails(s, "transition_issue", "invalid_transition", {"issue_id": iid, "status": "in_review"})
    started = ok(s, "transition_issue", {"issue_id": iid, "status": "in_progress"})
    assert started["status"] == "in_progress" and started["assignee_id"] == me(s)  # starting assigns it
    ok(s, "transition_issue", {"issue_id": iid, "status": "in_review", "comment": "Ready for QA."})
    done = ok(s, "transition_issue", {"issue_id": iid, "status": "done"})
    assert done["status"] == "done" and done["resolution"] == "fixed" and done["resolved_at"] == "2026-03-16T09:00:00"
    assert done["allowed_transitions"] == []
    assert ok(s, "list_comments", {"issue_id": iid})["comments"][0]["body"] == "Ready for QA."
    err = fails(s, "transition_issue", "invalid_transition", {"issue_id": iid, "status": "in_progress"})
    assert "reopen" in err["hint"]
    fails(s, "close_issue", "already_closed", {"issue_id": iid, "resolution": "fixed"})
    fails(s, "update_issue", "issue_resolved", {"issue_id": iid, "priority": "low"})
    fails(s, "log_work", "issue_resolved", {"issue_id": iid, "minutes": 30})
    reopened = ok(s, "reopen_issue", {"issue_id": iid, "comment": "Still spinning on iOS."})
    assert reopened["status"] == "open" and reopened["resolution"] is None
    fails(s, "reopen_issue", "not_resolved", {"issue_id": iid})
    statuses = [(c["old_value"], c["new_value"]) for c in ok(s, "get_issue_history", {"issue_id": iid})["changes"]
                if c["field"] == "status"]
    assert statuses == [("open", "in_progress"), ("in_progress", "in_review"), ("in_review", "done"), ("done", "open")]


def test_every_world_has_recently_fixed_bugs_to_reopen():
    reopen = registry.get("issue_tracker").tools["reopen_issue"]
    where = reopen.params[0].where
    assert not reopen.needs
    for world in range(4):
        with Session("issue_tracker", world=world) as w:
            resolved = [i["issue_id"] for status in ("done", "closed")
                        for i in ok(w, "search_issues", {"status": status, "limit": 100})["issues"]]
            fitting = [i for i in resolved if w.satisfies("issue", i, where)]
            assert len(fitting) >= 3, world
            issue = ok(w, "get_issue", {"issue_id": fitting[0]})
            assert issue["type"] == "bug" and issue["resolution"] == "fixed"
            assert issue["resolved_at"] >= "2026-02-14"
            reopened = ok(w, "reopen_issue", {"issue_id": fitting[0], "comment": "Seen again in production today."})
            assert reopened["status"] == "open" and reopened["resolution"] is None
            assert not w.satisfies("issue", fitting[0], where)
            open_one = ok(w, "search_issues", {"status": "open", "limit": 1})["issues"][0]["issue_id"]
            assert not w.satisfies("issue", open_one, where)


def test_a_blocked_issue_cannot_be_completed_until_its_blocker_is_resolved(s):
    issue = blocked_issue(s)
    iid, blocker = issue["issue_id"], issue["blocked_by"][0]
    err = fails(s, "transition_issue", "blocked", {"issue_id": iid, "status": "done"})
    assert blocker in err["message"]
    fails(s, "close_issue", "blocked", {"issue_id": iid, "resolution": "fixed"})
    ok(s, "close_issue", {"issue_id": blocker, "resolution": "fixed", "comment": "Fixed upstream."})
    assert ok(s, "get_issue", {"issue_id": iid})["blocked_by"] == []
    assert ok(s, "transition_issue", {"issue_id": iid, "status": "done"})["status"] == "done"


def test_unlinking_the_blocker_unblocks(s):
    issue = blocked_issue(s)
    link = next(x for x in issue["links"] if x["relation"] == "is_blocked_by")
    removed = ok(s, "unlink_issues", {"link_id": link["link_id"]})
    assert removed["target_id"] == issue["issue_id"] and removed["type"] == "blocks"
    fails(s, "unlink_issues", "not_found", {"link_id": link["link_id"]})
    assert ok(s, "transition_issue", {"issue_id": issue["issue_id"], "status": "done"})["status"] == "done"


def test_ready_issue_completes(s):
    issue = ready_issue(s)
    assert ok(s, "transition_issue", {"issue_id": issue["issue_id"], "status": "done"})["status"] == "done"


def test_close_as_duplicate_links_the_original(s):
    original, copy = new_issue(s), new_issue(s)
    fails(s, "close_issue", "invalid_duplicate", {"issue_id": copy["issue_id"], "resolution": "duplicate"})
    fails(s, "close_issue", "invalid_duplicate", {"issue_id": copy["issue_id"], "resolution": "wont_fix",
                                                  "duplicate_of": original["issue_id"]})
    fails(s, "close_issue", "invalid_duplicate", {"issue_id": copy["issue_id"], "resolution": "duplicate",
                                                  "duplicate_of": copy["issue_id"]})
    closed = ok(s, "close_issue",
                {"issue_id": copy["issue_id"], "resolution": "duplicate", "duplicate_of": original["issue_id"]})
    assert closed["status"] == "closed" and closed["resolution"] == "duplicate"
    seen = ok(s, "get_issue", {"issue_id": original["issue_id"]})["links"]
    assert [(x["relation"], x["issue_id"]) for x in seen] == [("is_duplicated_by", copy["issue_id"])]
    fails(s, "close_issue", "already_closed", {"issue_id": copy["issue_id"], "resolution": "wont_fix"})


def test_an_epic_closes_only_when_its_issues_are_resolved(s):
    epic = new_issue(s, type="epic")
    child = new_issue(s, parent_id=epic["issue_id"])
    assert ok(s, "get_issue", {"issue_id": epic["issue_id"]})["children"] == [child["issue_id"]]
    err = fails(s, "close_issue", "open_children", {"issue_id": epic["issue_id"], "resolution": "fixed"})
    assert child["issue_id"] in err["message"]
    ok(s, "close_issue", {"issue_id": child["issue_id"], "resolution": "obsolete"})
    assert ok(s, "close_issue", {"issue_id": epic["issue_id"], "resolution": "fixed"})["status"] == "closed"


# ----- permissions -------------------------------------------------------------------------------------------

def test_viewers_comment_and_watch_but_do_not_edit(s):
    viewer = project(s, "viewer")["project_id"]
    issue = issues(s, project_id=viewer, unresolved_only=True)[0]
    iid = issue["issue_id"]
    comment = ok(s, "add_comment", {"issue_id": iid, "body": "Is this on the roadmap?"})
    assert comment["author_id"] == me(s)
    for tool, args in (("transition_issue", {"status": "in_progress"}), ("update_issue", {"priority": "low"}),
                       ("add_labels", {"labels": ["ux"]}), ("log_work", {"minutes": 30}),
                       ("close_issue", {"resolution": "wont_fix"})):
        fails(s, tool, "permission_denied", {"issue_id": iid, **args})
    outsider = issues(s, project_id=project(s, None)["project_id"], unresolved_only=True)[0]["issue_id"]
    fails(s, "add_comment", "permission_denied", {"issue_id": outsider, "body": "hi"})
    watched = ok(s, "watch_issue", {"issue_id": outsider})
    assert me(s) in watched["watchers"]


def test_archived_projects_are_read_only(s):
    archived = project(s, "member", archived=True)["project_id"]
    iid = issues(s, project_id=archived)[0]["issue_id"]
    ok(s, "get_issue", {"issue_id": iid})
    for tool, args in (("add_comment", {"body": "hello"}), ("reopen_issue", {}), ("watch_issue", {}),
                       ("add_labels", {"labels": ["ux"]})):
        fails(s, tool, "project_archived", {"issue_id": iid, **args})


# ----- labels, links, watchers, comments -----------------------------------------------------------------------

def test_labels(s):
    iid = new_issue(s, labels=["ux"])["issue_id"]
    data = ok(s, "add_labels", {"issue_id": iid, "labels": ["Tech Debt", "ux", "perf-2"]})
    assert data["added"] == ["tech-debt", "perf-2"] and data["labels"] == ["perf-2", "tech-debt", "ux"]
    fails(s, "add_labels", "no_change", {"issue_id": iid, "labels": ["ux"]})
    fails(s, "add_labels", "invalid_label", {"issue_id": iid, "labels": ["'; DROP TABLE labels; --"]})
    fails(s, "add_labels", "too_many_labels", {"issue_id": iid, "labels": [f"l{i}" for i in range(8)]})
    assert [i["issue_id"] for i in issues(s, label="perf-2")] == [iid]
    assert ok(s, "remove_label", {"issue_id": iid, "label": "ux"})["labels"] == ["perf-2", "tech-debt"]
    fails(s, "remove_label", "label_not_found", {"issue_id": iid, "label": "ux"})


def test_links_refuse_self_duplicates_and_cycles(s):
    a, b, c = new_issue(s), new_issue(s), new_issue(s)
    fails(s, "link_issues", "self_link",
          {"issue_id": a["issue_id"], "other_issue_id": a["issue_id"], "relation": "blocks"})
    link = ok(s, "link_issues",
              {"issue_id": b["issue_id"], "other_issue_id": a["issue_id"], "relation": "is_blocked_by"})
    assert (link["source_id"], link["target_id"], link["type"]) == (a["issue_id"], b["issue_id"], "blocks")
    fails(s, "link_issues", "already_linked", {"issue_id": a["issue_id"], "other_issue_id": b["issue_id"],
                                               "relation": "relates_to"})
    ok(s, "link_issues", {"issue_id": b["issue_id"], "other_issue_id": c["issue_id"], "relation": "blocks"})
    fails(s, "link_issues", "circular_dependency", {"issue_id": c["issue_id"], "other_issue_id": a["issue_id"],
                                                    "relation": "blocks"})
    assert ok(s, "get_issue", {"issue_id": c["issue_id"]})["blocked_by"] == [b["issue_id"]]


def test_watchers(s):
    iid = new_issue(s)["issue_id"]
    fails(s, "watch_issue", "already_watching", {"issue_id": iid})
    assert me(s) not in ok(s, "unwatch_issue", {"issue_id": iid})["watchers"]
    fails(s, "unwatch_issue", "not_watching", {"issue_id": iid})
    admin = project(s, "admin")["project_id"]
    inactive = members(s, admin, active=False)[0]["user_id"]
    fails(s, "watch_issue", "user_inactive", {"issue_id": iid, "user_id": inactive})
    assert ok(s, "search_issues", {"watching": True, "query": "spinner"})["total"] == 0


def test_comments_can_be_edited_only_by_their_author(s):
    iid = new_issue(s)["issue_id"]
    mine = ok(s, "add_comment", {"issue_id": iid, "body": "First look: cache issue."})
    edited = ok(s, "edit_comment", {"comment_id": mine["comment_id"], "body": "First look: CDN cache issue."})
    assert edited["edited_at"] == "2026-03-16T09:00:00"
    fails(s, "edit_comment", "no_change", {"comment_id": mine["comment_id"], "body": "First look: CDN cache issue."})
    others = next(c for i in issues(s, project_id=project(s, "admin")["project_id"])
                  for c in ok(s, "list_comments", {"issue_id": i["issue_id"]})["comments"] if c["author_id"] != me(s))
    fails(s, "edit_comment", "not_author", {"comment_id": others["comment_id"], "body": "changed"})


# ----- time and sprints ----------------------------------------------------------------------------------------------

def test_logging_work_adds_up(s):
    issue = new_issue(s, estimate_minutes=240, assignee_id=me(s))
    before = ok(s, "get_my_dashboard")["minutes_logged_this_week"]
    log = ok(s, "log_work", {"issue_id": issue["issue_id"], "minutes": 90, "note": "investigation"})
    assert log["issue_spent_minutes"] == 90 and log["issue_remaining_minutes"] == 150
    assert ok(s, "get_my_dashboard")["minutes_logged_this_week"] == before + 90
    fails(s, "log_work", "future_date", {"issue_id": issue["issue_id"], "minutes": 30, "work_date": "2026-03-17"})
    fails(s, "log_work", "invalid_date", {"issue_id": issue["issue_id"], "minutes": 30, "work_date": "2025-12-01"})
    today = ok(s, "list_worklogs", {"start_date": "2026-03-16", "end_date": "2026-03-16"})["total_minutes"]
    ok(s, "log_work", {"issue_id": issue["issue_id"], "minutes": 1440 - today})
    fails(s, "log_work", "daily_limit_exceeded", {"issue_id": issue["issue_id"], "minutes": 1})
    logs = ok(s, "list_worklogs", {"issue_id": issue["issue_id"]})
    assert logs["total"] == 2
    deleted = ok(s, "delete_worklog", {"worklog_id": log["worklog_id"]})
    assert deleted["minutes"] == 90
    assert ok(s, "get_issue", {"issue_id": issue["issue_id"]})["spent_minutes"] == logs["total_minutes"] - 90
    fails(s, "list_worklogs", "invalid_date_range", {"start_date": "2026-03-10", "end_date": "2026-03-01"})
    theirs = next(w for w in ok(s, "list_worklogs", {"issue_id": _someone_elses_logged_issue(s)})["worklogs"]
                  if w["user_id"] != me(s))
    fails(s, "delete_worklog", "not_author", {"worklog_id": theirs["worklog_id"]})


def _someone_elses_logged_issue(s: Session) -> str:
    admin = project(s, "admin")["project_id"]
    for item in issues(s, project_id=admin):
        if any(w["user_id"] != me(s) for w in ok(s, "list_worklogs", {"issue_id": item["issue_id"]})["worklogs"]):
            return item["issue_id"]
    raise AssertionError("someone else should have logged work")


def test_sprint_lifecycle(s):
    admin = project(s, "admin")["project_id"]
    active = ok(s, "list_sprints", {"project_id": admin, "status": "active"})["sprints"][0]
    planned = ok(s, "list_sprints", {"project_id": admin, "status": "planned"})["sprints"][0]
    fails(s, "start_sprint", "sprint_already_active", {"sprint_id": planned["sprint_id"]})
    fails(s, "start_sprint", "invalid_sprint_state", {"sprint_id": active["sprint_id"]})
    fails(s, "complete_sprint", "invalid_sprint_state", {"sprint_id": planned["sprint_id"]})
    other = project(s, "member")["active_sprint_id"]
    fails(s, "complete_sprint", "invalid_target", {"sprint_id": active["sprint_id"], "move_open_to": other})
    fails(s, "complete_sprint", "permission_denied", {"sprint_id": other})
    left = [i["issue_id"] for i in issues(s, sprint_id=active["sprint_id"], unresolved_only=True)]
    done = ok(s, "complete_sprint", {"sprint_id": active["sprint_id"], "move_open_to": planned["sprint_id"]})
    assert done["sprint"]["status"] == "completed" and sorted(done["moved_issues"]) == sorted(left)
    assert done["sprint"]["unresolved_count"] == 0
    moved = {i["issue_id"] for i in issues(s, sprint_id=planned["sprint_id"])}
    assert set(left) <= moved
    started = ok(s, "start_sprint", {"sprint_id": planned["sprint_id"]})
    assert started["status"] == "active" and started["start_date"] == "2026-03-16"
    assert project(s, "admin")["active_sprint_id"] == planned["sprint_id"]
    fails(s, "move_to_sprint", "sprint_closed", {"issue_id": left[0], "sprint_id": active["sprint_id"]})


def test_create_sprint_and_plan_into_it(s):
    admin = project(s, "admin")["project_id"]
    sprint = ok(s, "create_sprint", {"project_id": admin, "sprint_name": "Hardening week", "start_date": "2026-04-13",
                                     "end_date": "2026-04-17", "goal": "Fix every release blocker"})
    assert sprint["status"] == "planned" and sprint["issue_count"] == 0
    fails(s, "create_sprint", "duplicate_name",
          {"project_id": admin, "sprint_name": "hardening WEEK", "start_date": "2026-04-20",
                                                 "end_date": "2026-04-24"})
    fails(s, "create_sprint", "past_date", {"project_id": admin, "sprint_name": "Old", "start_date": "2026-03-02",
                                            "end_date": "2026-03-13"})
    fails(s, "create_sprint", "invalid_date_range",
          {"project_id": admin, "sprint_name": "Long", "start_date": "2026-04-01",
                                                     "end_date": "2026-06-30"})
    fails(s, "create_sprint", "permission_denied",
          {"project_id": project(s, "member")["project_id"], "sprint_name": "Mine",
                                                    "start_date": "2026-04-01", "end_date": "2026-04-10"})
    iid = new_issue(s, story_points=3)["issue_id"]
    ok(s, "move_to_sprint", {"issue_id": iid, "sprint_id": sprint["sprint_id"]})
    fails(s, "move_to_sprint", "no_change", {"issue_id": iid, "sprint_id": sprint["sprint_id"]})
    fails(s, "move_to_sprint", "wrong_project",
          {"issue_id": iid, "sprint_id": project(s, "member")["active_sprint_id"]})
    listed = next(x for x in ok(s, "list_sprints", {"project_id": admin})["sprints"]
                  if x["sprint_id"] == sprint["sprint_id"])
    assert listed["issue_count"] == 1 and listed["points_total"] == 3
    assert ok(s, "move_to_sprint", {"issue_id": iid})["sprint_id"] is None


# ----- bulk edits and search ------------------------------------------------------------------------

def test_bulk_update_is_all_or_nothing(s):
    a, b = new_issue(s), new_issue(s)
    viewer_issue = issues(s, project_id=project(s, "viewer")["project_id"], unresolved_only=True)[0]["issue_id"]
    fails(s, "bulk_update_issues", "permission_denied",
          {"issue_ids": [a["issue_id"], viewer_issue], "priority": "critical"})
    assert ok(s, "get_issue", {"issue_id": a["issue_id"]})["priority"] == "medium"
    fails(s, "bulk_update_issues", "nothing_to_update", {"issue_ids": [a["issue_id"]]})
    data = ok(s, "bulk_update_issues", {"issue_ids": [a["issue_id"], b["issue_id"]], "priority": "critical",
                                        "assignee_id": me(s), "add_label": "release-blocker"})
    assert data["total"] == 2
    assert all(i["priority"] == "critical" and i["assignee_id"] == me(s) and "release-blocker" in i["labels"]
               for i in data["updated"])
    assert {a["issue_id"], b["issue_id"]} <= {i["issue_id"] for i in issues(s, label="release-blocker",
                                                                            priority="critical")}


def test_search_filters(s):
    fails(s, "search_issues", "conflicting_filters", {"assignee_id": me(s), "unassigned": True})
    fails(s, "search_issues", "conflicting_filters", {"sprint_id": project(s, "admin")["active_sprint_id"],
                                                      "backlog_only": True})
    fails(s, "search_issues", "not_found", {"project_id": "PRJ-99999"})
    for item in issues(s, overdue=True):
        assert item["overdue"] and item["due_date"] < "2026-03-16" and item["status"] not in ("done", "closed")
    for item in issues(s, unassigned=True, backlog_only=True):
        assert item["assignee_id"] is None and item["sprint_id"] is None
    for query in ("'; DROP TABLE issues; --", "%", "_", "zzzzqqq"):
        assert ok(s, "search_issues", {"query": query}) == {"issues": [], "total": 0, "issues_text": "none"}
    by_priority = issues(s, sort="priority", unresolved_only=True)
    order = ["critical", "high", "medium", "low"]
    assert [order.index(i["priority"]) for i in by_priority] == sorted(order.index(i["priority"]) for i in by_priority)


# ----- what the assistant says about a call ------------------------------------------------------------

replies_for = functools.partial(shared_replies_for, "issue_tracker")


def test_replies_say_unassigned_and_backlog_for_those_calls():
    unassign = replies_for("assign_issue", {"issue_id": "WEB-1", "assignee_id": None})
    assert unassign and all("assignee_name" not in r and ("Unassigned" in r or "no assignee" in r) for r in unassign)
    assign = replies_for("assign_issue", {"issue_id": "WEB-1", "assignee_id": "USR-1"})
    assert assign and all("{result.assignee_name}" in r for r in assign)
    backlog = replies_for("move_to_sprint", {"issue_id": "WEB-1", "sprint_id": None})
    assert backlog and all("backlog" in r for r in backlog)
    planned = replies_for("move_to_sprint", {"issue_id": "WEB-1", "sprint_id": "SPR-1"})
    assert planned and all("{result.sprint_name}" in r for r in planned)
    to_backlog = replies_for("complete_sprint", {"sprint_id": "SPR-1", "move_open_to": None})
    assert to_backlog and all("backlog" in r and "moved_to_name" not in r for r in to_backlog)
    mine = replies_for("watch_issue", {"issue_id": "WEB-1", "user_id": None})
    assert mine and all("user_name" not in r for r in mine)
    theirs = replies_for("unwatch_issue", {"issue_id": "WEB-1", "user_id": "USR-2"})
    assert theirs and all("{result.user_name}" in r for r in theirs)


def test_update_replies_name_the_field_that_changed():
    assert all("due date" in r for r in replies_for("update_issue", {"issue_id": "WEB-1", "clear_due_date": True}))
    assert all("{priority}" in r for r in replies_for("update_issue", {"issue_id": "WEB-1", "priority": "low"}))
    labelled = replies_for("bulk_update_issues", {"issue_ids": ["WEB-1"], "add_label": "security"})
    assert labelled and all("{add_label}" in r for r in labelled)


def test_synthesized_calls_name_someone_else_as_a_watcher_or_worklog_owner():
    tools = registry.get("issue_tracker").tools
    for tool in ("watch_issue", "unwatch_issue", "list_worklogs"):
        param = next(p for p in tools[tool].params if p.name == "user_id")
        assert param.where == "is_me = 0"


def test_history_and_issue_answer_who_changed_what_and_what_blocks(s):
    issue = new_issue(s)
    worker = members(s, project(s, "admin")["project_id"], "member")[0]
    ok(s, "update_issue", {"issue_id": issue["issue_id"], "priority": "critical"})
    history = ok(s, "get_issue_history", {"issue_id": issue["issue_id"]})
    assert history["latest"].endswith("changed priority from medium to critical on March 16")
    ok(s, "assign_issue", {"issue_id": issue["issue_id"], "assignee_id": worker["user_id"]})
    assert "set assignee to " + worker["name"] in ok(s, "get_issue_history", {"issue_id": issue["issue_id"]})["latest"]
    blocked = blocked_issue(s)
    assert blocked["blocker_count"] == len(blocked["blocked_by"]) > 0


def test_completing_a_sprint_counts_what_moved(s):
    admin = project(s, "admin")["project_id"]
    active = ok(s, "list_sprints", {"project_id": admin, "status": "active"})["sprints"][0]
    done = ok(s, "complete_sprint", {"sprint_id": active["sprint_id"]})
    assert done["moved_count"] == len(done["moved_issues"]) > 0 and done["moved_to"] is None


def test_a_project_says_who_has_which_role(s):
    full = ok(s, "get_project", {"project_id": project(s, "admin")["project_id"]})
    mine = me(s)  # the user is "you (admin)", not their own name
    assert full["roles"] == ", ".join(f"{'you' if m['user_id'] == mine else m['name']} ({m['role']})"
                                      for m in full["members"])
    assert "(admin)" in full["roles"]


def test_the_dashboard_reads_out_the_most_urgent_issues(s):
    data = ok(s, "get_my_dashboard")
    assert data["assigned"]
    parts = data["most_urgent"].split("; ")
    assert len(parts) == min(3, len(data["assigned"]))
    for part, issue in zip(parts, data["assigned"]):
        assert part.startswith(f"{issue['issue_id']} '{issue['title']}' ({issue['priority']}")
    assert data["overdue_count"] == len(data["overdue"]) == sum(i["overdue"] for i in data["assigned"])
    assert all("{result.most_urgent}" in r.text and "{result.overdue_count}" in r.text for r in registry.get("issue_tracker").tools["get_my_dashboard"].replies)
    # One issue or several: the bulk phrasings never say 'all of' a single issue.
    assert not any("all of" in a.text for a in registry.get("issue_tracker").tools["bulk_update_issues"].asks)


def test_logged_time_reads_in_hours_and_by_issue(s):
    data = ok(s, "list_worklogs")
    per: dict[str, int] = {}
    for w in data["worklogs"]:
        per[w["issue_id"]] = per.get(w["issue_id"], 0) + w["minutes"]
    assert data["total"] == len(data["worklogs"]) and data["total_minutes"] == sum(per.values())
    hours, rest = divmod(data["total_minutes"], 60)
    assert data["time_text"] == f"{hours} hours" + (f" and {rest} minutes" if rest else "")  # 30 hours and 15 minutes
    assert not re.search(r"\d (h|min)\b", data["time_text"] + data["by_issue"])
    top = max(per, key=lambda i: (per[i], i))
    assert data["by_issue"].startswith(top + " (")
    if len(per) > 5:
        assert data["by_issue"].endswith(f" and {len(per) - 5} more issues")


def test_a_comment_on_where_the_work_stands_fits_the_issue():
    """"add a comment 'Fix is in the latest build, please verify.'" to a bug opened one turn earlier: a comment
    that says where the work stands goes only on an issue where it stands so."""
    tool = registry.get("issue_tracker").tools["add_comment"]
    staged = {a.binds["body"]: a.fits["issue_id"] for a in tool.asks if isinstance(a, Ask) and "body" in a.binds}
    assert "Fix is in the latest build, please verify." in staged
    assert not set(staged) & set(tool.values["body"])  # never drawn for an issue of any status
    with Session(["issue_tracker"]) as session:
        projects = session.call("list_projects", {"include_archived": False}).data["projects"]
        new = next(r.data for p in projects if (r := session.call("create_issue", {
            "project_id": p["project_id"], "title": "Login fails", "type": "bug"})).ok)
        assert new["status"] == "open"
        assert not session.satisfies("issue", new["issue_id"], staged["Fix is in the latest build, please verify."])
        assert session.satisfies("issue", new["issue_id"], staged["Reproduced on staging; looking into it now."])
        ok(session, "transition_issue", {"issue_id": new["issue_id"], "status": "in_progress"})
        assert session.satisfies("issue", new["issue_id"], staged["Fix is in the latest build, please verify."])
