"""The CRM server's declaration: `server`, its entity kinds, types, result models and shared rules.

The tools live by area in `tools_<area>.py` (accounts and contacts, leads, deals, activities
and notes), each a toolset that imports what it needs from here; `__init__.py` includes them.

Rules every tool follows:

- The model acts for the one signed-in sales rep (`reps.is_me = 1`). Everyone on the team can
  read every record and add contacts, accounts, notes and logged activities anywhere.
- Only a record's owner changes it: a deal's stage, amount, dates and owner; a lead's status
  and its conversion; a task's completion and due date. Leads in the shared queue (no owner)
  are claimed first.
- Deals move freely between the open stages; a closed deal (won or lost) changes stage only by
  being reopened. Winning a deal makes its account a customer. Each stage sets the deal's
  probability, and every change is kept in the stage history.
- A contact marked do-not-contact cannot be called or e-mailed.
"""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from prove.env import Ctx, EntityKind, Server, ToolError, Where
from prove.env.values import parse_date, said_in_part, spoken_day

from .world import PROBABILITY, build_world

REP = EntityKind("rep", table="reps", key="rep_id", label="name", noun="teammate",
                 description="a member of the sales team (one of them is the signed-in user)")
ACCOUNT = EntityKind("account", table="accounts", key="account_id", label="name",
                     description="a company: a prospect, customer or partner")
CONTACT = EntityKind("contact", table="contacts", key="contact_id", label="full_name",
                     description="a person at an account")
LEAD = EntityKind("lead", table="leads", key="lead_id", label="full_name",
                  description="a prospective buyer not yet converted into a contact")
DEAL = EntityKind("deal", table="deals", key="deal_id", label="name",
                  description="a sales opportunity with an account, moving through pipeline stages",
                  links=(("contact_id", "with"), ("owner_id", "owned by")))
ACTIVITY = EntityKind("activity", table="activities", key="activity_id", label="subject", noun="task",
                      description="a task to do, or a logged call, e-mail or meeting",
                      links=(("owner_id", "assigned to"), ("account_id", "for"), ("contact_id", "with"),
                             ("lead_id", "with"), ("deal_id", "on")))
NOTE = EntityKind("note", table="notes", key="note_id", label="title",
                  description="a free-text note on an account, contact, lead or deal",
                  links=(("author_id", "by"), ("account_id", "on"), ("contact_id", "on"), ("deal_id", "on"),
                         ("lead_id", "on")))

server = Server(
    "crm", "Sales CRM",
    "The sales CRM of a B2B software company, used by one signed-in account executive: accounts "
    "(companies) and their contacts, leads that are claimed, worked, qualified and converted, "
    "deals moving through pipeline stages with history, a pipeline summary by stage, tasks with "
    "due dates, logged calls, e-mails and meetings, notes, the sales team and search.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    entities=[REP, ACCOUNT, CONTACT, LEAD, DEAL, ACTIVITY, NOTE],
)

# ----- parameter types ---------------------------------------------------------------------------

RepId = REP.id
AccountId = ACCOUNT.id
ContactId = CONTACT.id
LeadId = LEAD.id
DealId = DEAL.id
ActivityId = ACTIVITY.id
NoteId = NOTE.id

# Subsets that a tool accepts: records the signed-in rep owns, in the state the tool works on.
_MINE = "owner_id = (SELECT rep_id FROM reps WHERE is_me = 1)"
ActiveRepId = REP.where("active = 1")
# Someone other than the signed-in rep (the tools say "mine" or omit the rep for the user).
OtherRepId = REP.where("is_me = 0")
OtherActiveRepId = REP.where("active = 1 AND is_me = 0")
MyOpenTaskId = ACTIVITY.where(f"kind = 'task' AND status = 'open' AND {_MINE}")
MyOpenDealId = DEAL.where(f"stage NOT IN ('closed_won', 'closed_lost') AND {_MINE}")
MyClosedDealId = DEAL.where(f"stage IN ('closed_won', 'closed_lost') AND {_MINE}")
QueuedLeadId = LEAD.where("owner_id IS NULL AND status != 'converted'")
MyOpenLeadId = LEAD.where(f"status != 'converted' AND {_MINE}")

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)]
Query = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, max_length=2000)]
Email = Annotated[str, StringConstraints(strip_whitespace=True, min_length=3, max_length=200,
                                         pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")]
Phone = Annotated[str, StringConstraints(strip_whitespace=True, max_length=40)]
Limit = Annotated[int, Field(ge=1, le=100)]
Amount = Annotated[float, Field(ge=0, le=100_000_000)]
Stage = Literal["prospecting", "qualification", "proposal", "negotiation", "closed_won", "closed_lost"]
OpenStage = Literal["prospecting", "qualification", "proposal", "negotiation"]
Industry = Literal["Software", "Healthcare", "Financial Services", "Retail", "Manufacturing", "Logistics",
                   "Education", "Media", "Energy", "Hospitality", "Real Estate", "Nonprofit", "Other"]
AccountType = Literal["prospect", "customer", "partner"]
LeadStatus = Literal["new", "working", "qualified", "unqualified", "converted"]
LeadSource = Literal["website", "referral", "trade_show", "webinar", "cold_outreach", "partner"]
Rating = Literal["hot", "warm", "cold"]
Priority = Literal["low", "normal", "high"]
ActivityKind = Literal["task", "call", "email", "meeting"]

# Candidate deal names for synthesized calls (`values=` of the deal and lead tools).
# Names for a new deal: they fit any account, prospect or customer (a 'renewal' or an 'expansion'
# would have to be with a customer), and a lead that is just converting.
DEAL_NAMES = ["Data team pilot", "Multi-year platform agreement", "Analytics Cloud package", "Embedded analytics project",
              "Team Plan rollout", "First-year platform agreement"]
# Round deal sizes a person says ("a $24000 deal"), for the amounts of synthesized calls.
AMOUNTS = [5000.0, 9500.0, 14500.0, 24000.0, 38500.0, 48000.0, 72000.0, 110000.0]

# ----- result models -----------------------------------------------------------------------------


class Rep(BaseModel):
    rep_id: RepId
    name: str
    email: str
    title: str
    team: str
    manager_id: RepId | None
    quota: float = Field(description="quarterly quota in dollars; 0 for roles without one")
    active: bool = Field(description="false once they left the company")
    is_me: bool = Field(description="this is you, the signed-in rep")


class RepList(BaseModel):
    reps: list[Rep]
    total: int
    names: str = Field("", description="the reps' names, separated by commas")
    my_manager: str | None = Field(None, description="the name of the signed-in rep's manager")
    my_quota: float | None = Field(None, description="the signed-in rep's quarterly quota in dollars")


class ContactSummary(BaseModel):
    contact_id: ContactId
    full_name: str
    title: str | None
    email: str
    phone: str | None
    account_id: AccountId
    account_name: str
    do_not_contact: bool = Field(description="asked not to be called or e-mailed")


class ContactList(BaseModel):
    contacts: list[ContactSummary]
    total: int = Field(description="how many contacts matched, before `limit`")
    contacts_text: str = Field(description="the contacts in words, such as 'Jacob Tanaka, VP of Engineering' or "
                                           "'Maya Ortiz, Analytics Lead (asked not to be contacted)'")


class DealSummary(BaseModel):
    deal_id: DealId
    name: str
    account_id: AccountId
    account_name: str
    stage: Stage
    amount: float
    probability: int
    close_date: str
    owner_id: RepId
    owner_name: str
    is_closed: bool


class DealList(BaseModel):
    deals: list[DealSummary]
    total: int = Field(description="how many deals matched, before `limit`")
    total_amount: float = Field(description="sum of the amounts of all matching deals")
    deals_text: str = Field("", description="the deals in words, such as \"'Highland Shipping - renewal' ($205,000, in "
                                            "proposal, closing March 30)\"")
    amount_text: str = Field("", description="the total amount as people say it, such as '$1,061,400'")


class AccountSummary(BaseModel):
    account_id: AccountId
    name: str
    industry: str
    type: AccountType
    city: str | None
    country: str | None
    employees: int | None
    owner_id: RepId
    owner_name: str
    open_deals: int
    open_pipeline: float = Field(description="total amount of the account's open deals")


class AccountList(BaseModel):
    accounts: list[AccountSummary]
    total: int = Field(description="how many accounts matched, before `limit`")
    accounts_text: str = Field(description="The accounts in words, such as 'Apex Realty (Real Estate, Chicago); "
                                           "Northwind Health (Healthcare, Miami)', with the headcount or the open "
                                           "pipeline where they are sorted by it.")


class Account(AccountSummary):
    website: str | None
    phone: str | None
    annual_revenue: float | None
    created_at: str
    won_revenue: float = Field(description="total amount of the account's won deals")
    contacts: list[ContactSummary]
    deals: list[DealSummary]
    contact_names: str = Field("", description="the contacts by name and title, such as 'Dana Whitfield (Head of "
                                                "Data)', or 'no contacts yet'")
    deal_names: str = Field("", description="the deals with their stage and amount, or 'no deals yet'")
    profile_text: str = Field("", description="what the account is, in words, such as 'a Manufacturing prospect in "
                                              "Denver, owned by Priya Campbell'")
    pipeline_text: str = Field("", description="its open pipeline in words, such as '$289,000 in 2 open deals' or "
                                               "'no open deals'")


class Activity(BaseModel):
    activity_id: ActivityId
    kind: ActivityKind
    subject: str
    details: str | None
    status: Literal["open", "completed"]
    priority: Priority
    due_date: str | None = Field(description="tasks only")
    occurred_at: str | None = Field(description="when it happened, or when a task was completed")
    outcome: str | None
    overdue: bool = Field(description="an open task whose due date has passed")
    owner_id: RepId
    owner_name: str
    account_id: AccountId | None
    contact_id: ContactId | None
    deal_id: DealId | None
    lead_id: LeadId | None


class ActivityList(BaseModel):
    activities: list[Activity]
    total: int = Field(description="how many matched, before `limit`")
    activities_text: str = Field(description="The activities in words, such as \"'Discovery call with Tariq' on "
                                             "March 13 (no answer); 'Send the contract', due March 18 (overdue)\".")


class Contact(ContactSummary):
    first_name: str
    last_name: str
    owner_id: RepId
    owner_name: str
    created_at: str
    deals: list[DealSummary] = Field(description="deals where this person is the primary contact")
    recent_activities: list[Activity] = Field(description="the five latest activities with this person")


class LeadSummary(BaseModel):
    lead_id: LeadId
    full_name: str
    company: str
    industry: str | None
    title: str | None
    email: str
    status: LeadStatus
    rating: Rating
    source: LeadSource
    owner_id: RepId | None = Field(description="null while the lead waits in the shared queue")
    owner_name: str | None
    created_at: str


class LeadList(BaseModel):
    leads: list[LeadSummary]
    total: int = Field(description="how many leads matched, before `limit`")
    leads_text: str = Field(description="The leads in words, such as 'Theo Jones of Ivory Shipping (cold, being "
                                        "worked)'; a status or rating the request filtered on is not repeated.")


class Lead(LeadSummary):
    first_name: str
    last_name: str
    phone: str | None
    converted_at: str | None
    converted_account_id: AccountId | None
    converted_contact_id: ContactId | None
    converted_deal_id: DealId | None
    recent_activities: list[Activity]
    lead_text: str = Field(description="Who the lead is, how hot, where it stands and who owns it, such as "
                                       "'Kenji Turner from Northwind Industries is a cold lead, already converted; "
                                       "Priya Campbell owns it'.")


class LeadConversion(BaseModel):
    lead_id: LeadId
    account_id: AccountId
    account_name: str
    account_created: bool = Field(description="false if the lead's company was already an account")
    contact_id: ContactId
    contact_created: bool = Field(description="false if a contact with the lead's e-mail already existed")
    deal_id: DealId | None
    deal_name: str | None


class StageChange(BaseModel):
    from_stage: Stage | None
    to_stage: Stage
    changed_at: str
    changed_by: RepId
    changed_by_name: str


class Deal(DealSummary):
    contact_id: ContactId | None
    contact_name: str | None
    next_step: str | None
    loss_reason: str | None
    weighted_amount: float = Field(description="amount times probability")
    lead_id: LeadId | None = Field(description="the lead it was converted from, if any")
    created_at: str
    updated_at: str
    closed_at: str | None
    stage_history: list[StageChange]
    standing_text: str = Field(description="where the deal stands, in words, such as 'is in proposal (60% likely), "
                                           "closing March 30' or 'was lost on September 10, 2025'")
    stages_text: str = Field(description="the stages it went through, in words, such as 'it went through prospecting "
                                         "on June 26, qualification on July 4 and proposal on July 23'")
    amount_text: str = Field(description="its amount as people say it, such as '$17,000'")
    next_step_text: str = Field(description="its next step in words: \"the next step is 'Security review call'\" or "
                                            "'no next step is set'")


class StageSummary(BaseModel):
    stage: Stage
    count: int
    amount: float
    weighted_amount: float


class PipelineSummary(BaseModel):
    owner_id: RepId | None = Field(description="whose pipeline; null for the whole team")
    owner_name: str | None = Field(None, description="their name; null for the whole team")
    quarter: str = Field(description="the current quarter, such as '2026-Q1'")
    stages: list[StageSummary] = Field(description="open deals per stage, and deals closed this quarter")
    open_count: int
    open_amount: float
    weighted_amount: float
    won_this_quarter: float
    lost_this_quarter: float
    quota: float | None = Field(description="quarterly quota, for one rep")
    attainment_percent: float | None = Field(description="won this quarter as a percentage of quota")
    summary_text: str = Field("", description="the pipeline in words, such as '11 open deals worth $1,061,400 "
                                              "($472,150 weighted), and $545,000 won this quarter, 155.7% of the "
                                              "$350,000 quota'")


class Note(BaseModel):
    note_id: NoteId
    title: str
    body: str
    author_id: RepId
    author_name: str
    account_id: AccountId | None
    contact_id: ContactId | None
    deal_id: DealId | None
    lead_id: LeadId | None
    created_at: str


class NoteList(BaseModel):
    notes: list[Note]
    total: int
    notes_text: str = Field(description="The notes in words, newest first, such as \"You wrote on March 3: 'Budget "
                                        "approved.'; Priya Campbell wrote on March 1: 'Also evaluating Looker.'\".")


class AccountRef(BaseModel):
    account_id: AccountId
    name: str
    industry: str
    type: AccountType


class ContactRef(BaseModel):
    contact_id: ContactId
    full_name: str
    email: str
    account_name: str


class LeadRef(BaseModel):
    lead_id: LeadId
    full_name: str
    company: str
    status: LeadStatus


class DealRef(BaseModel):
    deal_id: DealId
    name: str
    stage: Stage
    amount: float


class SearchResults(BaseModel):
    accounts: list[AccountRef]
    contacts: list[ContactRef]
    leads: list[LeadRef]
    deals: list[DealRef]
    total: int = Field(description="how many records matched in all, before `limit`")
    found_text: str = Field(description="What matched in words, such as \"the contact Fiona Lee of Willow Realty; "
                                        "the deal 'Willow Realty - renewal' (proposal, $44,000)\".")


# ----- in words --------------------------------------------------------------------------------------

LEAD_STANDING = {"new": "new, not worked yet", "working": "being worked", "qualified": "qualified",
                 "unqualified": "marked unqualified", "converted": "already converted"}
LEAD_STATUS = {"new": "new", "working": "being worked", "qualified": "qualified", "unqualified": "unqualified",
               "converted": "converted"}  # as said beside a lead in a list: 'Theo Jones of Ivory Shipping (cold, new)'


def dollars(amount: float) -> str:
    """'$44,000', or '$1,250.50' where there are cents."""
    return f"${amount:,.0f}" if amount == int(amount) else f"${amount:,.2f}"


def outcome_words(outcome: str) -> str:
    """'Connected - interested' as said in a sentence: 'connected, interested'."""
    return outcome[:1].lower() + outcome[1:].replace(" - ", ", ")


def activities_text(acts: list[Activity], total: int, today: date, overdue_said: bool = True) -> str:
    """\"'Discovery call with Tariq' on March 13 (no answer); 'Send the contract', due March 18 (overdue);
    'Update the plan', done on March 6\"; a listing of overdue tasks only does not say so of each."""
    parts = []
    for a in acts if len(acts) <= 8 else acts[:6]:
        if a.kind == "task" and a.status == "open":
            parts.append(f"'{a.subject}', due {spoken_day(a.due_date, today)}" + (" (overdue)" if a.overdue and overdue_said else ""))
        elif a.kind == "task":
            parts.append(f"'{a.subject}', done on {spoken_day(a.occurred_at, today)}")
        else:
            parts.append(f"'{a.subject}' on {spoken_day(a.occurred_at, today)}"
                         + (f" ({outcome_words(a.outcome)})" if a.outcome else ""))
    return said_in_part(parts, total, "nothing")


def lead_text(lead: LeadSummary, my_id: str) -> str:
    owner = ("you own it" if lead.owner_id == my_id else f"{lead.owner_name} owns it" if lead.owner_name
             else "nobody owns it yet; it waits in the shared queue")
    return (f"{lead.full_name} from {lead.company} is a {lead.rating} lead, {LEAD_STANDING[lead.status]}; "
            f"{owner}")


# ----- who -----------------------------------------------------------------------------------------

def me(ctx: Ctx) -> sqlite3.Row:
    return ctx.db.execute("SELECT * FROM reps WHERE is_me = 1").fetchone()


def rep_name(ctx: Ctx, rep_id: str | None) -> str | None:
    if rep_id is None:
        return None
    row = ctx.db.execute("SELECT name FROM reps WHERE rep_id = ?", (rep_id,)).fetchone()
    return row["name"] if row else None


def require_owner(ctx: Ctx, row: sqlite3.Row, what: str) -> None:
    """Refuse a change to a record the signed-in rep does not own."""
    if row["owner_id"] != me(ctx)["rep_id"]:
        owner = rep_name(ctx, row["owner_id"]) or "nobody (the shared queue)"
        raise ToolError("not_owner", f"This {what} belongs to {owner}; only its owner can change it.",
                        hint="Ask the owner to make the change." if row["owner_id"] else "Claim it first with claim_lead.")


def active_rep(ctx: Ctx, rep_id: str) -> sqlite3.Row:
    row = ctx.get("rep", rep_id)
    if not row["active"]:
        raise ToolError("rep_inactive", f"{row['name']} has left the company; nothing can be assigned to them.",
                        hint="Pick an active rep from list_reps.")
    return row


# ----- dates ---------------------------------------------------------------------------------------

def not_in_past(ctx: Ctx, value: str, name: str, hint: str) -> str:
    """A date parameter that is today or later, as ISO text; else `invalid_date` or `<name>_in_past`."""
    day = parse_date(value, name)
    if day < ctx.today():
        raise ToolError(f"{name}_in_past", f"{name} {day.isoformat()} is before today, {ctx.today().isoformat()}.",
                        hint=hint)
    return day.isoformat()


def future_close_date(ctx: Ctx, value: str) -> str:
    return not_in_past(ctx, value, "close_date", "An open deal's expected close date is today or later.")


def quarter_of(day: date) -> tuple[date, date, str]:
    q = (day.month - 1) // 3
    start = date(day.year, 3 * q + 1, 1)
    end = date(day.year + (q == 3), (3 * q + 3) % 12 + 1, 1) - timedelta(days=1)
    return start, end, f"{day.year}-Q{q + 1}"


# ----- building results ----------------------------------------------------------------------------

DEAL_SELECT = ("SELECT d.*, a.name AS account_name, r.name AS owner_name FROM deals d "
               "JOIN accounts a ON a.account_id = d.account_id JOIN reps r ON r.rep_id = d.owner_id")


def deal_summary(row: sqlite3.Row) -> DealSummary:
    return DealSummary(deal_id=row["deal_id"], name=row["name"], account_id=row["account_id"],
                       account_name=row["account_name"], stage=row["stage"], amount=row["amount"],
                       probability=row["probability"], close_date=row["close_date"], owner_id=row["owner_id"],
                       owner_name=row["owner_name"], is_closed=row["stage"].startswith("closed"))


def deal_model(ctx: Ctx, deal_id: str) -> Deal:
    ctx.get("deal", deal_id)
    row = ctx.db.execute(DEAL_SELECT + " WHERE d.deal_id = ?", (deal_id,)).fetchone()
    contact = ctx.db.execute("SELECT full_name FROM contacts WHERE contact_id = ?", (row["contact_id"],)).fetchone()
    history = [StageChange(from_stage=h["from_stage"], to_stage=h["to_stage"], changed_at=h["changed_at"],
                           changed_by=h["changed_by"], changed_by_name=h["name"])
               for h in ctx.db.execute("SELECT h.*, r.name FROM deal_stage_history h JOIN reps r ON r.rep_id = h.changed_by "
                                       "WHERE h.deal_id = ? ORDER BY h.seq", (deal_id,))]
    today = ctx.today()
    stage = row["stage"].replace("_", " ")
    if row["stage"] == "closed_won":
        standing = f"was won on {spoken_day(row['closed_at'] or row['close_date'], today)}"
    elif row["stage"] == "closed_lost":
        standing = f"was lost on {spoken_day(row['closed_at'] or row['close_date'], today)}" + (
            f" ({outcome_words(row['loss_reason'])})" if row["loss_reason"] else "")
    else:
        standing = f"is in {stage} ({row['probability']}% likely), closing {spoken_day(row['close_date'], today)}"
    steps = [f"{h.to_stage.replace('_', ' ')} on {spoken_day(h.changed_at, today)}" for h in history]
    return Deal(**deal_summary(row).model_dump(), contact_id=row["contact_id"],
                contact_name=contact["full_name"] if contact else None, next_step=row["next_step"],
                loss_reason=row["loss_reason"], weighted_amount=round(row["amount"] * row["probability"] / 100, 2),
                lead_id=row["lead_id"], created_at=row["created_at"], updated_at=row["updated_at"],
                closed_at=row["closed_at"], stage_history=history, standing_text=standing,
                stages_text=("it went through " + ", ".join(steps[:-1]) + " and " + steps[-1] if len(steps) > 1
                             else f"it has been in {steps[0].replace(' on ', ' since ', 1)}" if steps
                             else "no stage change is recorded"),
                amount_text=dollars(row["amount"]),
                next_step_text=f"the next step is '{row['next_step']}'" if row["next_step"] else "no next step is set")


def record_stage(ctx: Ctx, deal_id: str, from_stage: str | None, to_stage: str) -> None:
    seq = ctx.db.execute("SELECT coalesce(max(seq), 0) + 1 FROM deal_stage_history WHERE deal_id = ?",
                         (deal_id,)).fetchone()[0]
    ctx.db.execute("INSERT INTO deal_stage_history (deal_id, seq, from_stage, to_stage, changed_at, changed_by) "
                   "VALUES (?, ?, ?, ?, ?, ?)", (deal_id, seq, from_stage, to_stage, ctx.now_iso(), me(ctx)["rep_id"]))


def probability(stage: str) -> int:
    return PROBABILITY[stage]


CONTACT_SELECT = ("SELECT c.*, a.name AS account_name FROM contacts c JOIN accounts a ON a.account_id = c.account_id")


def contact_summary(row: sqlite3.Row) -> ContactSummary:
    return ContactSummary(contact_id=row["contact_id"], full_name=row["full_name"], title=row["title"],
                          email=row["email"], phone=row["phone"], account_id=row["account_id"],
                          account_name=row["account_name"], do_not_contact=bool(row["do_not_contact"]))


ACTIVITY_SELECT = "SELECT t.*, r.name AS owner_name FROM activities t JOIN reps r ON r.rep_id = t.owner_id"


def activity_model(ctx: Ctx, row: sqlite3.Row) -> Activity:
    overdue = row["kind"] == "task" and row["status"] == "open" and row["due_date"] < ctx.today().isoformat()
    return Activity(activity_id=row["activity_id"], kind=row["kind"], subject=row["subject"], details=row["details"],
                    status=row["status"], priority=row["priority"], due_date=row["due_date"],
                    occurred_at=row["occurred_at"], outcome=row["outcome"], overdue=overdue, owner_id=row["owner_id"],
                    owner_name=row["owner_name"], account_id=row["account_id"], contact_id=row["contact_id"],
                    deal_id=row["deal_id"], lead_id=row["lead_id"])


def activity_by_id(ctx: Ctx, activity_id: str) -> Activity:
    return activity_model(ctx, ctx.db.execute(ACTIVITY_SELECT + " WHERE t.activity_id = ?", (activity_id,)).fetchone())


LEAD_SELECT = "SELECT l.*, r.name AS owner_name FROM leads l LEFT JOIN reps r ON r.rep_id = l.owner_id"


def lead_summary(row: sqlite3.Row) -> LeadSummary:
    return LeadSummary(lead_id=row["lead_id"], full_name=row["full_name"], company=row["company"],
                       industry=row["industry"], title=row["title"],
                       email=row["email"], status=row["status"], rating=row["rating"], source=row["source"],
                       owner_id=row["owner_id"], owner_name=row["owner_name"], created_at=row["created_at"])


def lead_model(ctx: Ctx, lead_id: str) -> Lead:
    ctx.get("lead", lead_id)
    row = ctx.db.execute(LEAD_SELECT + " WHERE l.lead_id = ?", (lead_id,)).fetchone()
    acts = [activity_model(ctx, r) for r in ctx.db.execute(
        ACTIVITY_SELECT + " WHERE t.lead_id = ? ORDER BY coalesce(t.occurred_at, t.due_date) DESC, t.activity_id DESC "
        "LIMIT 5", (lead_id,))]
    lead = lead_summary(row)
    return Lead(**lead.model_dump(), first_name=row["first_name"], last_name=row["last_name"],
                phone=row["phone"], converted_at=row["converted_at"], converted_account_id=row["converted_account_id"],
                converted_contact_id=row["converted_contact_id"], converted_deal_id=row["converted_deal_id"],
                recent_activities=acts, lead_text=lead_text(lead, me(ctx)["rep_id"]))


def email_taken(ctx: Ctx, email: str, except_contact: str | None = None) -> sqlite3.Row | None:
    return ctx.db.execute("SELECT * FROM contacts WHERE lower(email) = lower(?) AND contact_id IS NOT ?",
                          (email, except_contact)).fetchone()


def about_filter(ctx: Ctx, alias: str, **ids: str | None) -> Where:
    """A filter on `alias` for the records given (each checked to exist, in order)."""
    where = Where()
    for column, value in ids.items():
        where.entity(ctx, column.removesuffix("_id"), f"{alias}.{column}", value)
    return where


def targets(ctx: Ctx, *, account_id: str | None = None, contact_id: str | None = None, deal_id: str | None = None,
            lead_id: str | None = None) -> dict[str, str | None]:
    """Check the records an activity or note is about and fill in the account they share.

    Raises not_found for an unknown record, missing_target when none is given, and
    contact_not_on_account when the contact works at another account than the deal or account.
    """
    if not any((account_id, contact_id, deal_id, lead_id)):
        raise ToolError("missing_target", "Say what this is about: an account, contact, deal or lead.",
                        hint="Pass account_id, contact_id, deal_id or lead_id.")
    accounts = set()
    if account_id is not None:
        accounts.add(ctx.get("account", account_id)["account_id"])
    if deal_id is not None:
        accounts.add(ctx.get("deal", deal_id)["account_id"])
    if lead_id is not None:
        ctx.get("lead", lead_id)
    if contact_id is not None:
        contact = ctx.get("contact", contact_id)
        if accounts and contact["account_id"] not in accounts:
            raise ToolError("contact_not_on_account", f"{contact['full_name']} works at another account than the "
                            "deal or account given.", hint="Use a contact of that account (list_contacts).")
        accounts.add(contact["account_id"])
    if len(accounts) > 1:
        raise ToolError("contact_not_on_account", "The deal and the account given belong to different companies.")
    return {"account_id": next(iter(accounts), None), "contact_id": contact_id, "deal_id": deal_id,
            "lead_id": lead_id}
