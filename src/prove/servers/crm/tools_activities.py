"""Tasks, logged calls, e-mails and meetings, and notes."""

from __future__ import annotations

from typing import Literal

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import iso, parse_date, parse_time, said_in_part, spoken_day

from .server import (
    ACTIVITY_SELECT,
    AccountId,
    Activity,
    ActivityKind,
    ActivityList,
    ContactId,
    DealId,
    LeadId,
    Limit,
    MyOpenTaskId,
    Name,
    Note,
    NoteList,
    OtherActiveRepId,
    OtherRepId,
    Priority,
    Text,
    about_filter,
    active_rep,
    activities_text,
    activity_by_id,
    activity_model,
    me,
    not_in_past,
    require_owner,
    targets,
)

tools = Toolset("activities")


def _task(ctx: Ctx, activity_id: str):  # noqa: ANN202 - a sqlite3.Row
    row = ctx.get("activity", activity_id)
    if row["kind"] != "task":
        raise ToolError("not_a_task", f"{activity_id} is a logged {row['kind']}, not a task.",
                        hint="Find your tasks with list_tasks.")
    require_owner(ctx, row, "task")
    if row["status"] == "completed":
        raise ToolError("task_already_completed", f"'{row['subject']}' was completed at {row['occurred_at']}.")
    return row


@tools.tool(effect=READ, asks=[
    "What's on my to-do list?",
    Ask("Which of my tasks are overdue?", status="overdue"),
    Ask("Show my open tasks for {deal_id}.", status="open"),
    Ask("What tasks have I completed?", status="completed"),
    "What do I have due by {due_before}?",
], reply=[
    Ask("{result.total} of your tasks are overdue: {result.activities_text}.", status="overdue"),
    Ask("You've completed {result.total} tasks: {result.activities_text}.", status="completed"),
    Ask("You have {result.total} open tasks: {result.activities_text}.", status="open"),
])
def list_tasks(ctx: Ctx, status: Literal["open", "overdue", "completed", "all"] = "open",
               owner_id: OtherRepId | None = None,
               due_before: str | None = None, deal_id: DealId | None = None, contact_id: ContactId | None = None,
               limit: Limit = 20) -> ActivityList:
    """List tasks, by default your open ones, soonest due first.

    Args:
        status: 'open' (default), 'overdue' (open and past due), 'completed' or 'all'.
        owner_id: whose tasks, such as 'REP-10003'; default: yours.
        due_before: only tasks due on or before this day, such as '2026-03-20'.
        deal_id: only tasks about this deal, such as 'DEAL-10003'.
        contact_id: only tasks about this contact, such as 'CON-10007'.
        limit: the most tasks to return, from 1 to 100, such as 20.

    Returns:
        The tasks with subject, due date, priority, status, whether overdue and what they are
        about (account, contact, deal, lead), and how many matched.

    Raises:
        not_found: the rep, deal or contact does not exist.
        invalid_date: `due_before` is not a date.
    """
    owner = ctx.get("rep", owner_id)["rep_id"] if owner_id is not None else me(ctx)["rep_id"]
    where = Where()
    where.add("t.kind = 'task' AND t.owner_id = ?", owner)
    if status in ("open", "overdue"):
        where.add("t.status = 'open'")
    elif status == "completed":
        where.add("t.status = 'completed'")
    if status == "overdue":
        where.add("t.due_date < ?", ctx.today().isoformat())
    if due_before is not None:
        where.add("t.due_date <= ?", parse_date(due_before, "due_before").isoformat())
    where.entity(ctx, "deal", "t.deal_id", deal_id)
    where.entity(ctx, "contact", "t.contact_id", contact_id)
    rows = ctx.db.execute(f"{ACTIVITY_SELECT} WHERE {where.sql} ORDER BY t.due_date, t.activity_id",
                          where.params).fetchall()
    acts = [activity_model(ctx, r) for r in rows[:limit]]
    return ActivityList(activities=acts, total=len(rows),
                        activities_text=activities_text(acts, len(rows), ctx.today(), overdue_said=status != "overdue"))


@tools.tool(effect=WRITE, asks=[
    "Remind me on {due_date} about {deal_id}: '{subject}'.",
    "Create a {priority} priority task for {deal_id}, due {due_date}: '{subject}'.",
    "Give {owner_id} a task about {contact_id}, due {due_date}: '{subject}'.",
    "Add a to-do for {account_id} by {due_date}: '{subject}'.",
], reply=[
    Ask("Task created for you: '{result.subject}', due {due_date}.", owner_id=None),
    Ask("I've put '{result.subject}' on your list, due {due_date}.", owner_id=None),
    "Task created for {result.owner_name}: '{result.subject}', due {due_date}.",
    "I've added '{result.subject}' for {result.owner_name}, due {due_date}.",
], values={
    # to-dos that fit any deal, contact, account or lead (a renewal or a pilot would have to match it)
    "subject": [
        "Send the revised proposal", "Schedule a follow-up call", "Follow up on the pricing questions",
        "Share the security questionnaire", "Send a customer case study", "Check in on the decision timeline",
        "Prepare the order form",
    ],
    "details": [
        "Include the 3-year pricing option.", "They want SSO covered in the demo.",
        "Loop in their procurement lead.", "Use the updated case study deck.", "Ask about the budget timeline.",
        "Confirm the number of seats first.",
    ],
})
def create_task(ctx: Ctx, subject: Name, due_date: str, priority: Priority = "normal",
                owner_id: OtherActiveRepId | None = None, deal_id: DealId | None = None,
                contact_id: ContactId | None = None, account_id: AccountId | None = None,
                lead_id: LeadId | None = None, details: Text | None = None) -> Activity:
    """Create a task with a due date, for you or another active rep, about a deal, contact, account or lead.

    Args:
        subject: what to do, such as 'Send the revised proposal'.
        due_date: the day it is due, today or later, such as '2026-03-20'.
        priority: 'low', 'normal' (default) or 'high'.
        owner_id: who does it, such as 'REP-10008'; default: you.
        deal_id: the deal it is about, such as 'DEAL-10003'.
        contact_id: the contact it is about, such as 'CON-10007'.
        account_id: the account it is about, such as 'ACC-10002'.
        lead_id: the lead it is about, such as 'LEAD-10002'.
        details: more detail, such as 'Include the 3-year pricing option.'.

    Returns:
        The new open task with its ID.

    Raises:
        not_found: the owner, deal, contact, account or lead does not exist.
        rep_inactive: the owner has left the company.
        missing_target: none of deal, contact, account or lead was given.
        contact_not_on_account: the contact works at another account than the deal or account.
        invalid_date: `due_date` is not a date.
        due_date_in_past: `due_date` is before today.
    """
    owner = active_rep(ctx, owner_id)["rep_id"] if owner_id is not None else me(ctx)["rep_id"]
    about = targets(ctx, account_id=account_id, contact_id=contact_id, deal_id=deal_id, lead_id=lead_id)
    due = not_in_past(ctx, due_date, "due_date", "Pick today or a later day.")
    activity_id = ctx.new_id("ACT")
    ctx.db.execute("INSERT INTO activities (activity_id, kind, subject, details, status, priority, due_date, occurred_at, "
                   "outcome, owner_id, account_id, contact_id, deal_id, lead_id, created_at) "
                   "VALUES (?, 'task', ?, ?, 'open', ?, ?, NULL, NULL, ?, ?, ?, ?, ?, ?)",
                   (activity_id, subject, details or None, priority, due, owner, about["account_id"],
                    about["contact_id"], about["deal_id"], about["lead_id"], ctx.now_iso()))
    return activity_by_id(ctx, activity_id)


@tools.tool(effect=WRITE, asks=[
    "Mark {activity_id} as done.",
    "I finished {activity_id}; the outcome was '{outcome}'.",
    "Tick off {activity_id}, it's finished.",
], reply=[
    "Done: '{result.subject}' is marked completed.",
    "I've closed out the task '{result.subject}'.",
], values={
    # outcomes that fit any task (a 'demo booked' would have to follow a task about a demo)
    "outcome": [
        "Done; they confirmed by e-mail", "Sent; waiting for their reply", "Finished; notes are on the record",
        "Done; next step is scheduled", "Completed on time",
    ],
})
def complete_task(ctx: Ctx, activity_id: MyOpenTaskId, outcome: Text | None = None) -> Activity:
    """Mark one of your open tasks as completed now.

    Args:
        activity_id: ID of the task, such as 'ACT-10246'.
        outcome: how it went, such as 'Proposal sent'.

    Returns:
        The completed task.

    Raises:
        not_found: the task does not exist.
        not_a_task: the ID is a logged call, e-mail or meeting.
        not_owner: the task belongs to another rep.
        task_already_completed: the task is already completed.
    """
    _task(ctx, activity_id)
    ctx.db.execute("UPDATE activities SET status = 'completed', occurred_at = ?, outcome = ? WHERE activity_id = ?",
                   (ctx.now_iso(), outcome or None, activity_id))
    return activity_by_id(ctx, activity_id)


@tools.tool(effect=WRITE, asks=[
    "Move {activity_id} to {due_date}.",
    "Move {activity_id} to {due_date} and make it {priority} priority.",
    "I can't get to {activity_id} in time; it's now due {due_date}.",
], reply=[
    Ask("'{result.subject}' is now due {due_date}.", priority=None),
    Ask("Rescheduled: '{result.subject}' moves to {due_date}.", priority=None),
    "'{result.subject}' is now due {due_date}, at {priority} priority.",
    "Rescheduled: '{result.subject}' moves to {due_date}, {priority} priority.",
])
def reschedule_task(ctx: Ctx, activity_id: MyOpenTaskId, due_date: str, priority: Priority | None = None) -> Activity:
    """Give one of your open tasks a new due date (and optionally a new priority).

    Args:
        activity_id: ID of the task, such as 'ACT-10246'.
        due_date: the new due date, today or later, such as '2026-03-23'.
        priority: a new priority: 'low', 'normal' or 'high'.

    Returns:
        The task after the change.

    Raises:
        not_found: the task does not exist.
        not_a_task: the ID is a logged call, e-mail or meeting.
        not_owner: the task belongs to another rep.
        task_already_completed: the task is already completed.
        invalid_date: `due_date` is not a date.
        due_date_in_past: `due_date` is before today.
    """
    _task(ctx, activity_id)
    ctx.db.execute("UPDATE activities SET due_date = ?, priority = coalesce(?, priority) WHERE activity_id = ?",
                   (not_in_past(ctx, due_date, "due_date", "Pick today or a later day."), priority, activity_id))
    return activity_by_id(ctx, activity_id)


@tools.tool(effect=WRITE, asks=[
    Ask("Log a call with {contact_id} about '{subject}'; outcome: {outcome}.", kind="call"),
    Ask("Record that I e-mailed {contact_id} about {deal_id}: '{subject}'.", kind="email"),
    "Log a {kind} with {lead_id}: '{subject}'.",
    Ask("I met {contact_id} at {occurred_at}; log the meeting as '{subject}'.", kind="meeting"),
], reply=[
    "Logged the {kind} '{result.subject}'.",
    "The {kind} '{result.subject}' is on the record now.",
], values={
    # what was said fits the kind of activity (an e-mail has a subject line, a call an outcome)
    "kind, subject, outcome": [
        ("call", "Pricing follow-up", "Connected - wants a revised proposal"),
        ("call", "Budget timing", "Interested, needs budget approval"),
        ("call", "Timeline for a decision", "Left a voicemail"),
        ("call", "Security questions", "Asked for a security review"),
        ("call", "Their current tooling", "Not a fit right now"),
        ("call", "Next steps after the demo", "Agreed to a pilot"),
        ("email", "Proposal and pricing", "Sent; waiting for a reply"),
        ("email", "Recap of our call", "Sent the recap and next steps"),
        ("email", "The case study you asked for", "Sent; they forwarded it to their team"),
        ("email", "Security documentation", "Sent the security pack"),
        ("meeting", "Product demo", "They want a trial"),
        ("meeting", "Contract questions", "Legal to review the terms"),
        ("meeting", "Kickoff meeting", "Agreed on the rollout plan"),
    ],
    "details": [
        "They need SSO before signing.", "Budget frees up next quarter.", "Comparing us with Looker.",
        "Their CFO joins the next call.", "Wants references from their industry.",
        "Renewal decision is due by the end of the month.",
    ],
})
def log_activity(ctx: Ctx, kind: Literal["call", "email", "meeting"], subject: Name, contact_id: ContactId | None = None,
                 deal_id: DealId | None = None, account_id: AccountId | None = None, lead_id: LeadId | None = None,
                 occurred_at: str | None = None, outcome: Text | None = None, details: Text | None = None) -> Activity:
    """Log a call, e-mail or meeting that happened, on a contact, deal, account or lead.

    Logging a call or e-mail with a 'new' lead you own moves it to 'working'.

    Args:
        kind: 'call', 'email' or 'meeting'.
        subject: what it was about, such as 'Pricing follow-up'.
        contact_id: the person it was with, such as 'CON-10007'.
        deal_id: the deal it was about, such as 'DEAL-10003'.
        account_id: the account it was with, such as 'ACC-10002'.
        lead_id: the lead it was with, such as 'LEAD-10001'.
        occurred_at: when it happened, local time, such as '2026-03-16T08:30:00'; default: now.
        outcome: how it went, such as 'Connected - wants a proposal'.
        details: more detail, such as 'They need SSO before signing.'.

    Returns:
        The logged activity with its ID.

    Raises:
        not_found: the contact, deal, account or lead does not exist.
        missing_target: none of contact, deal, account or lead was given.
        contact_not_on_account: the contact works at another account than the deal or account.
        contact_opted_out: a call or e-mail with a contact who asked not to be contacted.
        invalid_time: `occurred_at` is not a local date and time (a UTC offset is refused).
        occurred_in_future: `occurred_at` is later than now.
    """
    about = targets(ctx, account_id=account_id, contact_id=contact_id, deal_id=deal_id, lead_id=lead_id)
    if contact_id is not None and kind in ("call", "email"):
        contact = ctx.get("contact", contact_id)
        if contact["do_not_contact"]:
            raise ToolError("contact_opted_out", f"{contact['full_name']} asked not to be contacted; calls and e-mails "
                            "to them are not allowed.", hint="Reach the account through another contact.")
    when = parse_time(occurred_at, "occurred_at") if occurred_at is not None else ctx.now()
    if when > ctx.now():
        raise ToolError("occurred_in_future", f"occurred_at {iso(when)} is later than now ({ctx.now_iso()}).",
                        hint="Log activities after they happen; plan future work with create_task.")
    activity_id = ctx.new_id("ACT")
    ctx.db.execute("INSERT INTO activities (activity_id, kind, subject, details, status, priority, due_date, occurred_at, "
                   "outcome, owner_id, account_id, contact_id, deal_id, lead_id, created_at) "
                   "VALUES (?, ?, ?, ?, 'completed', 'normal', NULL, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (activity_id, kind, subject, details or None, iso(when), outcome or None, me(ctx)["rep_id"],
                    about["account_id"], about["contact_id"], about["deal_id"], about["lead_id"], ctx.now_iso()))
    if lead_id is not None and kind in ("call", "email"):
        ctx.db.execute("UPDATE leads SET status = 'working' WHERE lead_id = ? AND status = 'new' AND owner_id = ?",
                       (lead_id, me(ctx)["rep_id"]))
    return activity_by_id(ctx, activity_id)


@tools.tool(effect=READ, asks=[
    "What's the activity history on {deal_id}?",
    Ask("When did we last call {contact_id}?", kind="call", limit=1),
    "Show all {kind}s with {account_id}.",
    "What have we done so far with {lead_id}?",
], reply=[
    Ask("The last call with {contact_id} was on {result.activities.occurred_at}: '{result.activities.subject}'.",
        kind="call", limit=1),
    "{result.total} activities, latest first: {result.activities_text}.",
])
def list_activities(ctx: Ctx, contact_id: ContactId | None = None, deal_id: DealId | None = None,
                    account_id: AccountId | None = None, lead_id: LeadId | None = None,
                    kind: ActivityKind | None = None, limit: Limit = 20) -> ActivityList:
    """List the activity timeline (tasks and logged calls, e-mails and meetings), latest first.

    Args:
        contact_id: only activities with this contact, such as 'CON-10007'.
        deal_id: only activities about this deal, such as 'DEAL-10003'.
        account_id: only activities with this account, such as 'ACC-10002'.
        lead_id: only activities with this lead, such as 'LEAD-10002'.
        kind: only 'task', 'call', 'email' or 'meeting'.
        limit: the most activities to return, from 1 to 100, such as 20.

    Returns:
        The activities with kind, subject, status, due date or time, outcome, owner and what
        they are about, and how many matched.

    Raises:
        not_found: the contact, deal, account or lead does not exist.
    """
    where = about_filter(ctx, "t", contact_id=contact_id, deal_id=deal_id, account_id=account_id, lead_id=lead_id)
    where.eq("t.kind", kind)
    rows = ctx.db.execute(f"{ACTIVITY_SELECT} WHERE {where.sql} "
                          "ORDER BY coalesce(t.occurred_at, t.due_date) DESC, t.activity_id DESC",
                          where.params).fetchall()
    acts = [activity_model(ctx, r) for r in rows[:limit]]
    return ActivityList(activities=acts, total=len(rows), activities_text=activities_text(acts, len(rows), ctx.today()))


def _note(row) -> Note:  # noqa: ANN001 - a sqlite3.Row joined with the author's name
    return Note(note_id=row["note_id"], title=row["title"], body=row["body"], author_id=row["author_id"],
                author_name=row["author_name"], account_id=row["account_id"], contact_id=row["contact_id"],
                deal_id=row["deal_id"], lead_id=row["lead_id"], created_at=row["created_at"])


NOTE_SELECT = "SELECT n.*, r.name AS author_name FROM notes n JOIN reps r ON r.rep_id = n.author_id"


@tools.tool(effect=WRITE, asks=[
    # the notes speak of a sale still to be won, so a deal or lead they go on is still open
    Ask("Add a note to {deal_id}: {body}", fits={"deal_id": "stage NOT IN ('closed_won', 'closed_lost')"}),
    "Note on {contact_id}, titled '{title}': {body}",
    "Jot this down on {account_id}: {body}",
    Ask("Put a note on {lead_id} saying: {body}", fits={"lead_id": "status NOT IN ('unqualified', 'converted')"}),
], reply=[
    Ask("Saved your note: '{body}'", title=None),
    Ask("Noted on the record: '{body}'", title=None),
    "Saved the note '{title}'.",
    "Noted: '{title}' is on the record.",
], values={
    # a title that names what the note says, and notes that fit any open deal, contact, account or lead
    "title, body": [
        ("Budget", "CFO approved budget; waiting on legal."),
        ("Competition", "They are evaluating Looker as well."),
        ("Champion", "Our champion moves to a new role next month."),
        ("Procurement", "Procurement needs three quotes before signing."),
        ("Preferences", "Prefers e-mail over calls."),
        ("Timeline", "Decision expected after their board meeting."),
        ("Security", "A security review is required before any purchase."),
        ("Budget", "Budget frees up next quarter."),
    ],
})
def add_note(ctx: Ctx, body: Text, title: Name | None = None, deal_id: DealId | None = None,
             contact_id: ContactId | None = None, account_id: AccountId | None = None,
             lead_id: LeadId | None = None) -> Note:
    """Add a note to a deal, contact, account or lead.

    Args:
        body: the note, such as 'CFO approved budget; waiting on legal.'.
        title: a short title, such as 'Budget'; default: the first words of the body.
        deal_id: the deal it is about, such as 'DEAL-10003'.
        contact_id: the contact it is about, such as 'CON-10007'.
        account_id: the account it is about, such as 'ACC-10002'.
        lead_id: the lead it is about, such as 'LEAD-10002'.

    Returns:
        The note with its ID.

    Raises:
        empty_note: the body is empty.
        not_found: the deal, contact, account or lead does not exist.
        missing_target: none of deal, contact, account or lead was given.
        contact_not_on_account: the contact works at another account than the deal or account.
    """
    if not body:
        raise ToolError("empty_note", "The note has no text.", hint="Write something in body.")
    about = targets(ctx, account_id=account_id, contact_id=contact_id, deal_id=deal_id, lead_id=lead_id)
    note_id = ctx.new_id("NOTE")
    ctx.db.execute("INSERT INTO notes (note_id, title, body, author_id, account_id, contact_id, deal_id, lead_id, "
                   "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (note_id, title or " ".join(body.split()[:6])[:60], body, me(ctx)["rep_id"], about["account_id"],
                    about["contact_id"], about["deal_id"], about["lead_id"], ctx.now_iso()))
    return _note(ctx.db.execute(NOTE_SELECT + " WHERE n.note_id = ?", (note_id,)).fetchone())


@tools.tool(effect=READ, asks=[
    "What notes do we have on {account_id}?",
    "Read me the notes on {deal_id}.",
    "Has anyone written anything down about {lead_id}?",
], reply=[
    "{result.total} notes. {result.notes_text}.",
])
def list_notes(ctx: Ctx, deal_id: DealId | None = None, contact_id: ContactId | None = None,
               account_id: AccountId | None = None, lead_id: LeadId | None = None, limit: Limit = 20) -> NoteList:
    """List notes, newest first, on a deal, contact, account or lead (or all notes).

    Args:
        deal_id: only notes on this deal, such as 'DEAL-10003'.
        contact_id: only notes on this contact, such as 'CON-10007'.
        account_id: only notes on this account (including those on its deals and contacts), such as 'ACC-10002'.
        lead_id: only notes on this lead, such as 'LEAD-10002'.
        limit: the most notes to return, from 1 to 100, such as 20.

    Returns:
        The notes with title, body, author and what they are about, and how many matched.

    Raises:
        not_found: the deal, contact, account or lead does not exist.
    """
    where = about_filter(ctx, "n", deal_id=deal_id, contact_id=contact_id, account_id=account_id, lead_id=lead_id)
    rows = ctx.db.execute(f"{NOTE_SELECT} WHERE {where.sql} ORDER BY n.created_at DESC, n.note_id DESC",
                          where.params).fetchall()
    notes = [_note(r) for r in rows[:limit]]
    user, today = me(ctx)["rep_id"], ctx.today()
    said = [f"{'you' if n.author_id == user else n.author_name} wrote on {spoken_day(n.created_at, today)}: '{n.body}'"
            for n in (notes if len(notes) <= 6 else notes[:5])]
    text = said_in_part(said, len(rows), "none")
    return NoteList(notes=notes, total=len(rows), notes_text=text[:1].upper() + text[1:] if said else text)
