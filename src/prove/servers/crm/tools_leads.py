"""Leads: the shared queue, claiming, working and qualifying leads, and converting them."""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import said_in_part

from .server import (
    AMOUNTS,
    DEAL_NAMES,
    LEAD_SELECT,
    LEAD_STATUS,
    AccountId,
    Amount,
    Email,
    Industry,
    Lead,
    LeadConversion,
    LeadId,
    LeadList,
    LeadSource,
    LeadStatus,
    LeadSummary,
    Limit,
    MyOpenLeadId,
    Name,
    OtherRepId,
    Phone,
    Query,
    QueuedLeadId,
    Rating,
    email_taken,
    future_close_date,
    lead_model,
    lead_summary,
    me,
    probability,
    record_stage,
    require_owner,
)
from .world import LEAD_TITLES

tools = Toolset("leads")


@tools.tool(effect=READ, asks=[
    Ask("Show me my {status} leads.", mine=True),
    Ask("What leads are waiting in the unassigned queue?", unassigned=True),
    "List the {rating} leads whose source is {source}.",
    "Do we have a lead from {query}?",
], reply=[
    # "Do we have a lead from David Gomez?" is answered yes or no, not with when the lead came in.
    Ask("Yes: {result.leads.full_name} of {result.leads.company} is a lead of ours ({result.leads.status}, rated "
        "{result.leads.rating}).", mine=False, unassigned=False, status=None, source=None, rating=None,
        owner_id=None, **{"result.total": 1}),
    "{result.total} leads: {result.leads_text}.",
])
def list_leads(ctx: Ctx, status: LeadStatus | None = None, source: LeadSource | None = None,
               rating: Rating | None = None, owner_id: OtherRepId | None = None, mine: bool = False,
               unassigned: bool = False, query: Query | None = None, limit: Limit = 20) -> LeadList:
    """List leads, newest first, filtered by status, source, rating, owner or name.

    Args:
        status: only leads in this status: 'new', 'working', 'qualified', 'unqualified' or 'converted'.
        source: only leads from this source, such as 'webinar'.
        rating: only 'hot', 'warm' or 'cold' leads.
        owner_id: only leads owned by this rep, such as 'REP-10003'.
        mine: only leads you own.
        unassigned: only leads waiting in the shared queue (no owner).
        query: part of the lead's name, company or e-mail, such as 'Quantum'.
        limit: the most leads to return, from 1 to 100, such as 20.

    Returns:
        The leads with company, title, e-mail, status, rating, source, owner and creation time,
        and how many matched.

    Raises:
        not_found: `owner_id` is not a rep.
    """
    where = Where()
    where.eq("l.status", status)
    where.eq("l.source", source)
    where.eq("l.rating", rating)
    where.entity(ctx, "rep", "l.owner_id", owner_id)
    if mine:
        where.add("l.owner_id = ?", me(ctx)["rep_id"])
    if unassigned:
        where.add("l.owner_id IS NULL")
    if query is not None:
        where.add("(instr(lower(l.full_name), lower(?)) > 0 OR instr(lower(l.company), lower(?)) > 0 "
                  "OR instr(lower(l.email), lower(?)) > 0)", *[query] * 3)
    rows = ctx.db.execute(f"{LEAD_SELECT} WHERE {where.sql} ORDER BY l.created_at DESC, l.lead_id DESC",
                          where.params).fetchall()
    leads = [lead_summary(r) for r in rows[:limit]]
    def one(lead: LeadSummary) -> str:
        said = [w for w in (lead.rating if rating is None else None, LEAD_STATUS[lead.status] if status is None else None) if w]
        return f"{lead.full_name} of {lead.company}" + (f" ({', '.join(said)})" if said else "")
    text = said_in_part([one(lead) for lead in (leads if len(leads) <= 8 else leads[:6])], len(rows), "none")
    return LeadList(leads=leads, total=len(rows), leads_text=text)


@tools.tool(effect=READ, asks=[
    "Show me {lead_id}.",
    "What's the status of {lead_id}, and who owns the lead?",
    "Who owns {lead_id}, and how hot is the lead?",
], reply=[
    "{result.lead_text}.",
])
def get_lead(ctx: Ctx, lead_id: LeadId) -> Lead:
    """Show one lead with its latest activities and, once converted, what it became.

    Args:
        lead_id: ID of the lead, such as 'LEAD-10003'.

    Returns:
        The lead's name, company, title, e-mail, phone, status, rating, source and owner, its
        five latest activities and, if converted, the account, contact and deal it became.

    Raises:
        not_found: the lead does not exist.
    """
    return lead_model(ctx, lead_id)


@tools.tool(effect=WRITE, asks=[
    "New lead: {first_name} {last_name} from {company}, {email}; source: {source}.",
    "Add {first_name} {last_name} ({title} at {company}, {email}) as a {rating} lead; the source is {source}.",
    Ask("Put {first_name} {last_name} of {company} ({email}, source: {source}) in the shared queue for someone else.",
        assign_to_me=False),
], reply=[
    Ask("{result.full_name} from {result.company} is in the shared queue now, for any rep to claim.",
        assign_to_me=False),
    "Created the lead {result.full_name} from {result.company}.",
    "{result.full_name} is in the CRM as a new {result.rating} lead.",
], values={
    "company": [
        "Granite Freight", "Quantum Retail", "Lakeside Clinics", "Pioneer Logistics", "Evergreen Schools",
        "Redwood Capital", "Atlas Hospitality",
    ],
    "title": LEAD_TITLES,
})
def create_lead(ctx: Ctx, first_name: Name, last_name: Name, company: Name, email: Email, source: LeadSource,
                title: Name | None = None, phone: Phone | None = None, industry: Industry | None = None,
                rating: Rating = "warm", assign_to_me: bool = True) -> Lead:
    """Create a lead, owned by you or left in the shared queue.

    Args:
        first_name: their first name, such as 'Tom'.
        last_name: their last name, such as 'Becker'.
        company: the company they work for, such as 'Granite Freight'.
        email: their e-mail address, such as 'tom.becker@granitefreight.com'.
        source: where the lead came from: 'website', 'referral', 'trade_show', 'webinar', 'cold_outreach' or 'partner'.
        title: their job title, such as 'Head of Analytics'.
        phone: their phone number, such as '+1-415-555-0123'.
        industry: the company's industry, such as 'Logistics'.
        rating: how promising: 'hot', 'warm' (default) or 'cold'.
        assign_to_me: own the lead yourself (default true); false leaves it in the shared queue.

    Returns:
        The new lead with its ID and status 'new'.

    Raises:
        duplicate_lead: an open (not converted) lead with that e-mail already exists.
        duplicate_email: that e-mail already belongs to a contact.
    """
    dup = ctx.db.execute("SELECT lead_id, full_name FROM leads WHERE lower(email) = lower(?) AND status != 'converted'",
                         (email,)).fetchone()
    if dup:
        raise ToolError("duplicate_lead", f"{dup['full_name']} is already a lead with that e-mail ({dup['lead_id']}).",
                        hint="Work the existing lead instead.")
    contact = email_taken(ctx, email)
    if contact:
        raise ToolError("duplicate_email", f"{email} already belongs to the contact {contact['full_name']} "
                        f"({contact['contact_id']}).", hint="Create a deal for the existing contact's account instead.")
    lead_id = ctx.new_id("LEAD")
    ctx.db.execute("INSERT INTO leads (lead_id, first_name, last_name, full_name, company, industry, title, email, "
                   "phone, source, status, rating, owner_id, created_at) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'new', ?, ?, ?)",
                   (lead_id, first_name, last_name, f"{first_name} {last_name}", company, industry, title, email, phone,
                    source, rating, me(ctx)["rep_id"] if assign_to_me else None, ctx.now_iso()))
    return lead_model(ctx, lead_id)


@tools.tool(effect=WRITE, asks=[
    "Claim {lead_id} from the queue.",
    "I'll take the lead {lead_id}; assign it to me.",
], reply=[
    "{lead_id} is yours now.",
    "You now own the lead {result.full_name} from {result.company}.",
])
def claim_lead(ctx: Ctx, lead_id: QueuedLeadId) -> Lead:
    """Take a lead from the shared queue: you become its owner.

    Args:
        lead_id: ID of an unassigned lead, such as 'LEAD-10016'.

    Returns:
        The lead, now owned by you.

    Raises:
        not_found: the lead does not exist.
        lead_already_converted: the lead was converted already.
        lead_already_assigned: the lead already has an owner.
    """
    row = ctx.get("lead", lead_id)
    if row["status"] == "converted":
        raise ToolError("lead_already_converted", f"{row['full_name']} was converted on {row['converted_at'][:10]}.")
    if row["owner_id"] is not None:
        owner = "you" if row["owner_id"] == me(ctx)["rep_id"] else ctx.get("rep", row["owner_id"])["name"]
        raise ToolError("lead_already_assigned", f"{row['full_name']} is already owned by {owner}.",
                        hint="Only leads in the shared queue can be claimed (list_leads with unassigned=true).")
    ctx.db.execute("UPDATE leads SET owner_id = ? WHERE lead_id = ?", (me(ctx)["rep_id"], lead_id))
    return lead_model(ctx, lead_id)


@tools.tool(effect=WRITE, asks=[
    "Mark {lead_id} as {status}.",
    Ask("I spoke with {lead_id}; they're qualified now.", status="qualified"),
    Ask("{lead_id} isn't a fit; mark them unqualified.", status="unqualified"),
    "Set {lead_id} to {status} and rate them {rating}.",
], reply=[
    Ask("Marked {lead_id} as {status}.", rating=None),
    "Marked {lead_id} as {status} and rated them {rating}.",
])
def update_lead_status(ctx: Ctx, lead_id: MyOpenLeadId, status: Literal["new", "working", "qualified", "unqualified"],
                       rating: Rating | None = None) -> Lead:
    """Set the status (and optionally the rating) of a lead you own; converting is done with convert_lead.

    Args:
        lead_id: ID of the lead, such as 'LEAD-10002'.
        status: the new status: 'new', 'working', 'qualified' or 'unqualified'.
        rating: a new rating: 'hot', 'warm' or 'cold'.

    Returns:
        The lead after the change.

    Raises:
        not_found: the lead does not exist.
        lead_already_converted: the lead was converted; its status is final.
        not_owner: the lead belongs to another rep or to the shared queue.
    """
    row = ctx.get("lead", lead_id)
    if row["status"] == "converted":
        raise ToolError("lead_already_converted", f"{row['full_name']} was converted on {row['converted_at'][:10]}; "
                        "the status of a converted lead cannot change.")
    require_owner(ctx, row, "lead")
    ctx.db.execute("UPDATE leads SET status = ?, rating = coalesce(?, rating) WHERE lead_id = ?",
                   (status, rating, lead_id))
    return lead_model(ctx, lead_id)


@tools.tool(effect=WRITE, asks=[
    "Convert {lead_id} into a ${amount} opportunity.",
    Ask("Convert {lead_id} into a contact at {account_id}, which we already have, without a deal for now.",
        create_deal=False),
    "{lead_id} is ready: convert them with an opportunity named '{deal_name}' closing on {close_date}.",
    "Turn {lead_id} into a customer contact.",
], reply=[
    Ask("Converted {lead_id}: they're a contact at {result.account_name} now, with no deal yet.", create_deal=False),
    Ask("{lead_id} is converted without a deal; they're now a contact at {result.account_name}.",
        create_deal=False),
    Ask("Converted {lead_id}: they're a contact at {result.account_name} now, with the deal '{result.deal_name}'.",
        create_deal=True),
    Ask("{lead_id} is converted; they're now a contact at {result.account_name}, and '{result.deal_name}' is in "
        "the pipeline.", create_deal=True),
], values={
    "deal_name": DEAL_NAMES,
    "amount": AMOUNTS,
})
def convert_lead(ctx: Ctx, lead_id: MyOpenLeadId, account_id: AccountId | None = None, create_deal: bool = True,
                 deal_name: Name | None = None, amount: Amount | None = None, close_date: str | None = None) -> LeadConversion:
    """Convert a lead you own into an account, a contact and (by default) a deal in 'qualification'.

    The account is `account_id` if given, else an existing account with the lead's company
    name, else a new prospect account (with the lead's industry, or 'Other'). The contact is an existing contact with the lead's e-mail, else a new
    one. The lead becomes 'converted' for good: converting it again fails.

    Args:
        lead_id: ID of the lead, such as 'LEAD-10003'.
        account_id: an existing account to attach the contact and deal to, such as 'ACC-10002'.
        create_deal: also create a deal (default true).
        deal_name: the deal's name; default: '<company> - new business'.
        amount: the deal's expected amount in dollars, such as 45000; default 0.
        close_date: the deal's expected close date, such as '2026-06-30'; default: 90 days from today.

    Returns:
        The lead's ID, the account, contact and deal it became, and whether the account and the
        contact were newly created.

    Raises:
        not_found: the lead or the account does not exist.
        lead_already_converted: the lead was converted already.
        not_owner: the lead belongs to another rep or to the shared queue.
        lead_unqualified: the lead is marked unqualified; set another status first.
        invalid_date: `close_date` is not a date.
        close_date_in_past: `close_date` is before today.
    """
    row = ctx.get("lead", lead_id)
    if row["status"] == "converted":
        raise ToolError("lead_already_converted", f"{row['full_name']} was converted on {row['converted_at'][:10]} "
                        f"into contact {row['converted_contact_id']}.", hint="Work with that contact and account instead.")
    require_owner(ctx, row, "lead")
    if row["status"] == "unqualified":
        raise ToolError("lead_unqualified", f"{row['full_name']} is marked unqualified.",
                        hint="If they are a real opportunity now, set the status to 'qualified' with update_lead_status.")
    me_id = me(ctx)["rep_id"]
    now = ctx.now_iso()
    close = future_close_date(ctx, close_date) if close_date is not None else \
        (ctx.today() + timedelta(days=90)).isoformat()
    if account_id is not None:
        acc = ctx.get("account", account_id)
    else:
        acc = ctx.db.execute("SELECT * FROM accounts WHERE lower(name) = lower(?)", (row["company"],)).fetchone()
    account_created = acc is None
    if acc is None:
        new_account = ctx.new_id("ACC")
        ctx.db.execute("INSERT INTO accounts (account_id, name, industry, type, website, phone, city, country, "
                       "employees, annual_revenue, owner_id, created_at) VALUES (?, ?, ?, 'prospect', NULL, "
                       "NULL, NULL, NULL, NULL, NULL, ?, ?)",
                       (new_account, row["company"], row["industry"] or "Other", me_id, now))
        acc = ctx.get("account", new_account)
    contact = email_taken(ctx, row["email"])
    contact_created = contact is None
    if contact is None:
        contact_id = ctx.new_id("CON")
        ctx.db.execute("INSERT INTO contacts (contact_id, account_id, first_name, last_name, full_name, title, email, "
                       "phone, owner_id, do_not_contact, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
                       (contact_id, acc["account_id"], row["first_name"], row["last_name"], row["full_name"],
                        row["title"], row["email"], row["phone"], me_id, now))
    else:
        contact_id = contact["contact_id"]
    deal_id = name = None
    if create_deal:
        deal_id = ctx.new_id("DEAL")
        name = deal_name or f"{acc['name']} - new business"
        ctx.db.execute("INSERT INTO deals (deal_id, name, account_id, contact_id, owner_id, stage, amount, probability, "
                       "close_date, next_step, loss_reason, lead_id, created_at, updated_at, closed_at) "
                       "VALUES (?, ?, ?, ?, ?, 'qualification', ?, ?, ?, NULL, NULL, ?, ?, ?, NULL)",
                       (deal_id, name, acc["account_id"], contact_id if contact_created or contact["account_id"] ==
                        acc["account_id"] else None, me_id, round(amount or 0.0, 2), probability("qualification"),
                        close, lead_id, now, now))
        record_stage(ctx, deal_id, None, "qualification")
    ctx.db.execute("UPDATE leads SET status = 'converted', converted_at = ?, converted_account_id = ?, "
                   "converted_contact_id = ?, converted_deal_id = ? WHERE lead_id = ?",
                   (now, acc["account_id"], contact_id, deal_id, lead_id))
    return LeadConversion(lead_id=lead_id, account_id=acc["account_id"], account_name=acc["name"],
                          account_created=account_created, contact_id=contact_id, contact_created=contact_created,
                          deal_id=deal_id, deal_name=name)
