"""Behaviour tests of the CRM server: its main flows and failures on world 0.

Tests find what they need through the tools themselves (the signed-in rep, their deals in each
stage, leads in the queue), so they depend on the world's shape, not on its exact IDs. The clock
starts at the epoch, Monday 2026-03-16 09:00, in the last two weeks of 2026-Q1.
"""

from __future__ import annotations

import functools


import pytest

from prove.env import Session, registry
from prove.env.asks import as_ask

from .helpers import fails, ok, session_fixture
from .helpers import replies_for as shared_replies_for

WORLD = 0


s = session_fixture("crm")


# ----- finding things through the tools ------------------------------------------------------------

def me(s: Session) -> dict:
    return next(r for r in ok(s, "list_reps")["reps"] if r["is_me"])


def colleague(s: Session) -> dict:
    return next(r for r in ok(s, "list_reps")["reps"] if not r["is_me"] and r["quota"] > 0)


def my_deal(s: Session, stage: str) -> dict:
    deals = ok(s, "list_deals", {"mine": True, "stage": stage, "limit": 100})["deals"]
    assert deals, f"you have a deal in {stage}"
    return deals[0]


def others_open_deal(s: Session) -> dict:
    mine = me(s)["rep_id"]
    return next(d for d in ok(s, "list_deals", {"open_only": True, "limit": 100})["deals"] if d["owner_id"] != mine)


def my_lead(s: Session, status: str) -> dict:
    leads = ok(s, "list_leads", {"mine": True, "status": status, "limit": 100})["leads"]
    assert leads, f"you have a {status} lead"
    return leads[0]


# ----- the world ------------------------------------------------------------------------------------

def test_world_is_realistic_and_small():
    server = registry.get("crm")
    assert len(server.visible_tools) >= 16
    assert server.template(WORLD).size < 250_000
    with Session("crm", world=WORLD) as s:
        reps = ok(s, "list_reps", {"include_inactive": True})["reps"]
        assert sum(r["is_me"] for r in reps) == 1 and any(not r["active"] for r in reps)
        for stage in ("prospecting", "qualification", "proposal", "negotiation", "closed_won", "closed_lost"):
            my_deal(s, stage)
        assert ok(s, "list_tasks", {"status": "overdue"})["total"] >= 1
        assert ok(s, "list_leads", {"unassigned": True})["total"] >= 1
        assert ok(s, "list_accounts", {"limit": 1})["total"] >= 50
        assert any(c["do_not_contact"] for c in ok(s, "list_contacts", {"limit": 100})["contacts"])


# ----- deals ----------------------------------------------------------------------------------------------

def test_deal_moves_through_the_pipeline_and_winning_makes_a_customer(s):
    deal = my_deal(s, "proposal")
    account = ok(s, "get_account", {"account_id": deal["account_id"]})
    summary = ok(s, "pipeline_summary", {"mine": True})
    history = len(ok(s, "get_deal", {"deal_id": deal["deal_id"]})["stage_history"])

    moved = ok(s, "update_deal_stage", {"deal_id": deal["deal_id"], "stage": "negotiation"})
    assert moved["probability"] == 75 and len(moved["stage_history"]) == history + 1
    assert moved["stage_history"][-1]["from_stage"] == "proposal"
    fails(s, "update_deal_stage", "invalid_stage_transition", {"deal_id": deal["deal_id"], "stage": "negotiation"})
    won = ok(s, "update_deal_stage", {"deal_id": deal["deal_id"], "stage": "closed_won"})
    assert won["is_closed"] and won["probability"] == 100 and won["close_date"] == "2026-03-16"
    assert ok(s, "get_account", {"account_id": deal["account_id"]})["type"] in ("customer", account["type"])
    if account["type"] == "prospect":
        assert ok(s, "get_account", {"account_id": deal["account_id"]})["type"] == "customer"
    after = ok(s, "pipeline_summary", {"mine": True})
    assert after["won_this_quarter"] == pytest.approx(summary["won_this_quarter"] + deal["amount"])
    assert after["open_amount"] == pytest.approx(summary["open_amount"] - deal["amount"])

    fails(s, "update_deal_stage", "invalid_stage_transition", {"deal_id": deal["deal_id"], "stage": "proposal"})
    fails(s, "update_deal", "deal_closed", {"deal_id": deal["deal_id"], "amount": 1000})
    fails(s, "reassign_deal", "deal_closed", {"deal_id": deal["deal_id"], "owner_id": colleague(s)["rep_id"]})
    reopened = ok(s, "reopen_deal", {"deal_id": deal["deal_id"], "stage": "negotiation", "close_date": "2026-04-30"})
    assert reopened["stage"] == "negotiation" and reopened["closed_at"] is None
    assert reopened["stage_history"][-1]["from_stage"] == "closed_won"
    fails(s, "reopen_deal", "deal_not_closed", {"deal_id": deal["deal_id"]})


def test_losing_needs_a_reason(s):
    deal = my_deal(s, "qualification")
    fails(s, "update_deal_stage", "loss_reason_required", {"deal_id": deal["deal_id"], "stage": "closed_lost"})
    lost = ok(s, "update_deal_stage",
              {"deal_id": deal["deal_id"], "stage": "closed_lost", "loss_reason": "Chose a competitor"})
    assert lost["loss_reason"] == "Chose a competitor" and lost["probability"] == 0
    reopened = ok(s, "reopen_deal", {"deal_id": my_deal(s, "closed_lost")["deal_id"]})
    assert reopened["loss_reason"] is None and reopened["stage"] == "negotiation"


def test_only_the_owner_changes_a_deal(s):
    theirs = others_open_deal(s)
    fails(s, "update_deal_stage", "not_owner", {"deal_id": theirs["deal_id"], "stage": "closed_won"})
    fails(s, "update_deal", "not_owner", {"deal_id": theirs["deal_id"], "amount": 1.0})
    fails(s, "reassign_deal", "not_owner", {"deal_id": theirs["deal_id"], "owner_id": me(s)["rep_id"]})

    deal = my_deal(s, "negotiation")
    gone = next(r for r in ok(s, "list_reps", {"include_inactive": True})["reps"] if not r["active"])
    fails(s, "reassign_deal", "rep_inactive", {"deal_id": deal["deal_id"], "owner_id": gone["rep_id"]})
    other = colleague(s)
    handed = ok(s, "reassign_deal", {"deal_id": deal["deal_id"], "owner_id": other["rep_id"]})
    assert handed["owner_id"] == other["rep_id"]
    fails(s, "update_deal", "not_owner", {"deal_id": deal["deal_id"], "next_step": "Send order form"})
    assert deal["deal_id"] not in [d["deal_id"] for d in ok(s, "list_deals", {"mine": True, "limit": 100})["deals"]]


def test_create_and_update_deals(s):
    account = ok(s, "list_accounts", {"mine": True, "limit": 1})["accounts"][0]
    contacts = ok(s, "list_contacts", {"account_id": account["account_id"]})["contacts"]
    stranger = next(c for c in ok(s, "list_contacts", {"limit": 100})["contacts"]
                    if c["account_id"] != account["account_id"])
    fails(s, "create_deal", "close_date_in_past",
          {"name": "Expansion", "account_id": account["account_id"], "amount": 5000,
                                                   "close_date": "2026-03-01"})
    fails(s, "create_deal", "invalid_date", {"name": "Expansion", "account_id": account["account_id"], "amount": 5000,
                                             "close_date": "next quarter"})
    fails(s, "create_deal", "contact_not_on_account", {"name": "Expansion", "account_id": account["account_id"],
                                                       "amount": 5000, "close_date": "2026-06-30",
                                                       "contact_id": stranger["contact_id"]})
    deal = ok(s, "create_deal", {"name": f"{account['name']} - Embedded Dashboards expansion",
                                 "account_id": account["account_id"], "amount": 48000, "close_date": "2026-06-30",
                                 "stage": "qualification",
                                 "contact_id": contacts[0]["contact_id"]})
    assert deal["owner_id"] == me(s)["rep_id"] and deal["probability"] == 25
    listed = ok(s, "get_account", {"account_id": account["account_id"]})
    assert deal["deal_id"] in [d["deal_id"] for d in listed["deals"]]
    assert listed["open_pipeline"] == pytest.approx(account["open_pipeline"] + 48000)
    updated = ok(s, "update_deal", {"deal_id": deal["deal_id"], "amount": 52000, "close_date": "2026-05-29",
                                    "next_step": "Security review"})
    assert (updated["amount"], updated["close_date"], updated["next_step"]) == (52000, "2026-05-29", "Security review")
    fails(s, "update_deal", "close_date_in_past", {"deal_id": deal["deal_id"], "close_date": "2025-12-31"})


# ----- leads ----------------------------------------------------------------------------------------------

def test_convert_a_lead_once(s):
    lead = my_lead(s, "qualified")
    result = ok(s, "convert_lead", {"lead_id": lead["lead_id"], "amount": 42000, "close_date": "2026-06-30"})
    assert result["deal_id"] and result["contact_id"] and result["account_id"]
    got = ok(s, "get_lead", {"lead_id": lead["lead_id"]})
    assert got["status"] == "converted" and got["converted_deal_id"] == result["deal_id"]
    deal = ok(s, "get_deal", {"deal_id": result["deal_id"]})
    assert deal["stage"] == "qualification" and deal["amount"] == 42000 and deal["lead_id"] == lead["lead_id"]
    assert ok(s, "get_contact", {"contact_id": result["contact_id"]})["email"] == lead["email"]
    fails(s, "convert_lead", "lead_already_converted", {"lead_id": lead["lead_id"]})
    fails(s, "update_lead_status", "lead_already_converted", {"lead_id": lead["lead_id"], "status": "working"})


def test_conversion_reuses_an_existing_account(s):
    account = ok(s, "list_accounts", {"limit": 1})["accounts"][0]
    lead = ok(s, "create_lead", {"first_name": "Tom", "last_name": "Becker", "company": account["name"].upper(),
                                 "email": "tom.becker@example.org", "source": "webinar", "title": "Head of Analytics"})
    result = ok(s, "convert_lead", {"lead_id": lead["lead_id"], "create_deal": False})
    assert result["account_id"] == account["account_id"] and not result["account_created"]
    assert result["contact_created"] and result["deal_id"] is None
    contacts = ok(s, "list_contacts", {"account_id": account["account_id"], "limit": 100})["contacts"]
    assert result["contact_id"] in [c["contact_id"] for c in contacts]


def test_lead_rules(s):
    fails(s, "convert_lead", "lead_unqualified", {"lead_id": my_lead(s, "unqualified")["lead_id"]})
    mine = me(s)["rep_id"]
    theirs = next(lead for lead in ok(s, "list_leads", {"status": "working", "limit": 100})["leads"]
                  if lead["owner_id"] not in (None, mine))
    fails(s, "convert_lead", "not_owner", {"lead_id": theirs["lead_id"]})
    fails(s, "update_lead_status", "not_owner", {"lead_id": theirs["lead_id"], "status": "qualified"})
    fails(s, "claim_lead", "lead_already_assigned", {"lead_id": theirs["lead_id"]})

    queued = ok(s, "list_leads", {"unassigned": True, "status": "new", "limit": 100})["leads"] or \
        ok(s, "list_leads", {"unassigned": True, "limit": 100})["leads"]
    lead = queued[0]
    fails(s, "convert_lead", "not_owner", {"lead_id": lead["lead_id"]})
    claimed = ok(s, "claim_lead", {"lead_id": lead["lead_id"]})
    assert claimed["owner_id"] == mine
    fails(s, "claim_lead", "lead_already_assigned", {"lead_id": lead["lead_id"]})
    assert ok(s, "update_lead_status",
              {"lead_id": lead["lead_id"], "status": "qualified", "rating": "hot"})["rating"] == "hot"
    assert ok(s, "convert_lead", {"lead_id": lead["lead_id"]})["deal_id"]

    fresh = my_lead(s, "new")
    ok(s, "log_activity",
       {"kind": "call", "subject": "Intro call", "lead_id": fresh["lead_id"], "outcome": "Connected"})
    assert ok(s, "get_lead", {"lead_id": fresh["lead_id"]})["status"] == "working"
    fails(s, "create_lead", "duplicate_lead",
          {"first_name": "A", "last_name": "B", "company": "C", "email": fresh["email"],
                                               "source": "website"})
    contact = ok(s, "list_contacts", {"limit": 1})["contacts"][0]
    fails(s, "create_lead", "duplicate_email",
          {"first_name": "A", "last_name": "B", "company": "C", "email": contact["email"],
                                                "source": "website"})


# ----- tasks, activities and notes -------------------------------------------------------------------------

def test_tasks(s):
    overdue = ok(s, "list_tasks", {"status": "overdue"})["activities"]
    assert overdue and all(t["overdue"] and t["due_date"] < "2026-03-16" for t in overdue)
    task = overdue[0]
    done = ok(s, "complete_task", {"activity_id": task["activity_id"], "outcome": "Proposal sent"})
    assert done["status"] == "completed" and done["occurred_at"] == "2026-03-16T09:00:00"
    assert task["activity_id"] not in [t["activity_id"] for t in ok(s, "list_tasks", {"limit": 100})["activities"]]
    fails(s, "complete_task", "task_already_completed", {"activity_id": task["activity_id"]})
    fails(s, "reschedule_task", "task_already_completed",
          {"activity_id": task["activity_id"], "due_date": "2026-03-20"})

    call = ok(s, "list_activities", {"kind": "call", "limit": 1})["activities"][0]
    fails(s, "complete_task", "not_a_task", {"activity_id": call["activity_id"]})
    theirs = ok(s, "list_tasks", {"owner_id": colleague(s)["rep_id"], "limit": 1})["activities"]
    if theirs:
        fails(s, "complete_task", "not_owner", {"activity_id": theirs[0]["activity_id"]})

    upcoming = ok(s, "list_tasks", {"limit": 100})["activities"][0]
    fails(s, "reschedule_task", "due_date_in_past", {"activity_id": upcoming["activity_id"], "due_date": "2026-03-01"})
    moved = ok(s, "reschedule_task",
               {"activity_id": upcoming["activity_id"], "due_date": "2026-03-27", "priority": "high"})
    assert moved["due_date"] == "2026-03-27" and moved["priority"] == "high" and not moved["overdue"]

    deal = my_deal(s, "negotiation")
    gone = next(r for r in ok(s, "list_reps", {"include_inactive": True})["reps"] if not r["active"])
    fails(s, "create_task", "rep_inactive", {"subject": "Call", "due_date": "2026-03-20", "deal_id": deal["deal_id"],
                                             "owner_id": gone["rep_id"]})
    fails(s, "create_task", "missing_target", {"subject": "Call", "due_date": "2026-03-20"})
    fails(s, "create_task", "due_date_in_past",
          {"subject": "Call", "due_date": "2026-03-13", "deal_id": deal["deal_id"]})
    made = ok(s, "create_task", {"subject": "Send order form", "due_date": "2026-03-18", "deal_id": deal["deal_id"]})
    assert made["account_id"] == deal["account_id"]
    assert made["activity_id"] in [t["activity_id"] for t in ok(s, "list_tasks",
                                                                {"deal_id": deal["deal_id"]})["activities"]]


def test_logging_respects_do_not_contact(s):
    opted = next(c for c in ok(s, "list_contacts", {"limit": 100})["contacts"] if c["do_not_contact"])
    fails(s, "log_activity", "contact_opted_out",
          {"kind": "call", "subject": "Check-in", "contact_id": opted["contact_id"]})
    fails(s, "log_activity", "contact_opted_out",
          {"kind": "email", "subject": "Check-in", "contact_id": opted["contact_id"]})
    fails(s, "log_activity", "occurred_in_future",
          {"kind": "meeting", "subject": "Lunch", "contact_id": opted["contact_id"],
                                                    "occurred_at": "2026-03-17T12:00:00"})
    fails(s, "log_activity", "missing_target", {"kind": "call", "subject": "Check-in"})
    for bad in ("yesterday", "2026-03-16T08:30:00Z"):
        fails(s, "log_activity", "invalid_time", {"kind": "meeting", "subject": "Lunch",
                                                  "contact_id": opted["contact_id"], "occurred_at": bad})
    ok(s, "log_activity", {"kind": "meeting", "subject": "Met at the conference", "contact_id": opted["contact_id"]})
    ok(s, "update_contact", {"contact_id": opted["contact_id"], "do_not_contact": False})
    logged = ok(s, "log_activity", {"kind": "call", "subject": "Check-in", "contact_id": opted["contact_id"],
                                    "occurred_at": "2026-03-16T08:30:00", "outcome": "Connected - interested"})
    assert logged["account_id"] == opted["account_id"] and logged["status"] == "completed"
    latest = ok(s, "get_contact", {"contact_id": opted["contact_id"]})["recent_activities"]
    assert logged["activity_id"] in [a["activity_id"] for a in latest]


def test_contacts_accounts_and_notes(s):
    account = ok(s, "get_account",
                 {"account_id": ok(s, "list_accounts", {"mine": True, "limit": 1})["accounts"][0]["account_id"]})
    taken = account["contacts"][0]["email"]
    fails(s, "create_contact", "duplicate_email", {"account_id": account["account_id"], "first_name": "Dana",
                                                   "last_name": "Whitfield", "email": taken.upper()})
    fails(s, "create_account", "duplicate_account", {"name": account["name"].lower(), "industry": "Software"})
    contact = ok(s, "create_contact",
                 {"account_id": account["account_id"], "first_name": "Dana", "last_name": "Whitfield",
                                       "email": "dana.whitfield@example.com", "title": "Head of Data"})
    assert contact["owner_id"] == account["owner_id"]
    assert [c["contact_id"] for c in ok(s, "search", {"query": "Whitfield"})["contacts"]] == [contact["contact_id"]]
    fails(s, "update_contact", "duplicate_email", {"contact_id": contact["contact_id"], "email": taken})

    new = ok(s, "create_account",
             {"name": "Granite Freight", "industry": "Logistics", "city": "Chicago", "employees": 250})
    assert new["owner_id"] == me(s)["rep_id"] and new["type"] == "prospect" and new["contacts"] == []

    note = ok(s, "add_note", {"body": "CFO approved the budget; waiting on legal.", "title": "Budget",
                              "contact_id": contact["contact_id"]})
    assert note["account_id"] == account["account_id"]
    assert note["note_id"] in [n["note_id"] for n in ok(s, "list_notes",
                                                        {"account_id": account["account_id"]})["notes"]]
    fails(s, "add_note", "missing_target", {"body": "Orphan"})
    fails(s, "add_note", "empty_note", {"body": "   ", "deal_id": my_deal(s, "proposal")["deal_id"]})
    other = next(c for c in ok(s, "list_contacts",
                               {"limit": 100})["contacts"] if c["account_id"] != account["account_id"])
    fails(s, "add_note", "contact_not_on_account", {"body": "Mixed up", "account_id": account["account_id"],
                                                    "contact_id": other["contact_id"]})


# ----- what synthesized calls say, and what the assistant says about them -----------------------------

SERVER = registry.get("crm")


replies_for = functools.partial(shared_replies_for, "crm")


def test_a_task_without_an_owner_is_said_to_be_yours(s):
    mine = replies_for("create_task", {"subject": "x", "due_date": "2026-03-20", "owner_id": None})
    assert mine and all("owner_name" not in r and "you" in r for r in mine)
    theirs = replies_for("create_task", {"subject": "x", "due_date": "2026-03-20", "owner_id": "REP-1"})
    assert theirs and all("{result.owner_name}" in r for r in theirs)
    account = ok(s, "list_accounts", {"mine": True})["accounts"][0]["account_id"]
    task = ok(s, "create_task", {"subject": "Send the revised proposal", "due_date": "2026-03-20",
                                 "account_id": account})
    assert task["owner_id"] == me(s)["rep_id"]


def test_contact_and_conversion_replies_say_what_changed():
    blank = {"title": None, "email": None, "phone": None, "account_id": None, "do_not_contact": None}
    flagged = replies_for("update_contact", {**blank, "contact_id": "CON-1", "do_not_contact": True})
    assert flagged and all("do-not-contact" in r and "Lifted" not in r for r in flagged)
    lifted = replies_for("update_contact", {**blank, "contact_id": "CON-1", "do_not_contact": False})
    assert lifted and all("Lifted" in r for r in lifted)
    titled = replies_for("update_contact", {**blank, "contact_id": "CON-1", "title": "CFO"})
    assert titled and all("{title}" in r for r in titled)
    no_deal = replies_for("convert_lead", {"lead_id": "LEAD-1", "create_deal": False})
    assert no_deal and all("no deal" in r or "without a deal" in r for r in no_deal)
    with_deal = replies_for("convert_lead", {"lead_id": "LEAD-1"})
    assert with_deal and all("deal_name" in r for r in with_deal)
    untitled = replies_for("add_note", {"body": "x", "title": None, "deal_id": "DEAL-1"})
    assert untitled and all("{body}" in r for r in untitled)


def test_what_a_call_says_belongs_together():
    tuples = SERVER.tools["log_activity"].values["kind, subject, outcome"]
    assert {k for k, _, _ in tuples} == {"call", "email", "meeting"}
    assert not any(k == "email" and "call" in subject.lower() for k, subject, _ in tuples if "Recap" not in subject)
    notes = SERVER.tools["add_note"].values["title, body"]
    topic = {"Budget": "budget", "Competition": "evaluating", "Champion": "champion", "Procurement": "procurement",
             "Preferences": "prefers", "Timeline": "expected", "Security": "security"}
    assert all(topic[title] in body.lower() for title, body in notes)
    for name in SERVER.tools["create_deal"].values["name"]:
        assert "renewal" not in name.lower() and "expansion" not in name.lower()
    assert all(a == round(a, -2) for a in SERVER.tools["create_deal"].values["amount"])


def test_another_rep_is_never_the_signed_in_one():
    for tool, param in (("list_deals", "owner_id"), ("pipeline_summary", "owner_id"), ("reassign_deal", "owner_id"),
                        ("create_task", "owner_id"), ("list_accounts", "owner_id"), ("list_leads", "owner_id")):
        where = next(p.where for p in SERVER.tools[tool].params if p.name == param)
        assert where is not None and "is_me = 0" in where, tool
    team = replies_for("pipeline_summary", {"owner_id": None, "mine": False})
    assert team and all("quota" not in r for r in team)
    own = replies_for("pipeline_summary", {"owner_id": None, "mine": True})
    assert own and all(r.startswith("You have ") for r in own)


def test_the_team_listing_names_your_manager_and_quota(s):
    data = ok(s, "list_reps")
    mine = next(r for r in data["reps"] if r["is_me"])
    boss = next(r for r in ok(s, "list_reps", {"include_inactive": True})["reps"] if r["rep_id"] == mine["manager_id"])
    assert data["my_manager"] == boss["name"] and data["my_quota"] == mine["quota"]
    assert data["names"].split(", ") == [r["name"] for r in data["reps"]]


def test_an_account_reads_out_who_we_know_and_which_deals(s):
    account = ok(s, "get_account",
                 {"account_id": ok(s, "list_accounts", {"mine": True, "limit": 1})["accounts"][0]["account_id"]})
    assert account["contacts"] and account["deals"]
    for c in account["contacts"]:
        assert c["full_name"] in account["contact_names"]
    for d in account["deals"]:
        amount = f"${d['amount']:,.0f}" if d["amount"] == int(d["amount"]) else f"${d['amount']:,.2f}"
        assert f"'{d['name']}' ({d['stage'].replace('_', ' ')}, {amount})" in account["deal_names"]
    new = ok(s, "create_account", {"name": "Granite Freight", "industry": "Logistics"})
    empty = ok(s, "get_account", {"account_id": new["account_id"]})
    assert empty["contact_names"] == "no contacts yet" and empty["deal_names"] == "none yet"
    assert any("{result.contact_names}" in r.text and "{result.deal_names}" in r.text
               for r in SERVER.tools["get_account"].replies)


def test_a_new_contacts_address_names_no_other_company():
    # The teacher writes the name part from the contact's name; the domain must not be another company's.
    for email in SERVER.tools["create_contact"].values["email"]:
        assert email.split("@")[1] in ("gmail.com", "outlook.com", "icloud.com", "proton.me")
    # A contact's new e-mail would be someone else's name: updates say the phone only.
    assert not any("{email}" in a.text for a in SERVER.tools["update_contact"].asks)
    assert SERVER.entities["rep"].noun == "teammate"


def test_stage_phrasings_read_for_any_stage_and_reason():
    texts = [a.text for a in SERVER.tools["update_deal_stage"].asks]
    # A loss reason is a label ('Went dark'), quoted, never the tail of 'because ...'; a move may go back a stage.
    assert not any("because {loss_reason}" in t or t.startswith("Advance") for t in texts)
    assert any("'{loss_reason}'" in t for t in texts)


def test_a_note_about_a_sale_to_come_goes_on_an_open_deal_or_lead():
    """"add a note to the deal 'Delta Systems - Security Pack expansion': Decision expected after their board
    meeting", of a deal already closed won: the notes speak of a sale still to be won."""
    tool = SERVER.tools["add_note"]
    assert any("board meeting" in body for _, body in tool.values["title, body"])
    by_slot = {slot: ask for ask in tool.asks for slot in as_ask(ask).slots if slot in ("deal_id", "lead_id")}
    with Session("crm", world=WORLD) as session:
        deals = session.call("list_deals", {"limit": 100}).data["deals"]
        leads = session.call("list_leads", {"limit": 100}).data["leads"]
        for slot, rows, kind, key, closed in (("deal_id", deals, "deal", "stage", {"closed_won", "closed_lost"}),
                                              ("lead_id", leads, "lead", "status", {"unqualified", "converted"})):
            condition = as_ask(by_slot[slot]).fits.get(slot, "1")
            assert {r[key] in closed for r in rows} == {True, False}, kind
            for row in rows:
                assert session.satisfies(kind, row[f"{kind}_id"], condition) == (row[key] not in closed), row
