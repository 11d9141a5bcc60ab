"""Companies and people: search, the sales team, accounts and contacts."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import quote, said_in_part

from .server import (
    ACTIVITY_SELECT,
    CONTACT_SELECT,
    DEAL_SELECT,
    LEAD_STATUS,
    Account,
    AccountId,
    AccountList,
    AccountRef,
    AccountSummary,
    AccountType,
    Amount,
    Contact,
    ContactId,
    ContactList,
    ContactRef,
    ContactSummary,
    DealRef,
    Email,
    Industry,
    LeadRef,
    Limit,
    Name,
    OtherRepId,
    Phone,
    Query,
    Rep,
    RepList,
    SearchResults,
    activity_model,
    contact_summary,
    deal_summary,
    dollars,
    email_taken,
    me,
)
from .world import TITLES

tools = Toolset("accounts")


@tools.tool(effect=READ, asks=[
    "Find anything in the CRM about {query}.",
    "Search for '{query}'.",
    Ask("Look up {query}: is it a lead or a contact?", kinds=["contact", "lead"]),
    Ask("Which deals have '{query}' in the name?", kinds=["deal"]),
], reply=[
    "Here's what matches '{query}': {result.found_text}.",
])
def search(ctx: Ctx, query: Query, kinds: list[Literal["account", "contact", "lead", "deal"]] | None = None,
           limit: Limit = 5) -> SearchResults:
    """Search accounts, contacts, leads and deals by name, company or e-mail at once.

    Args:
        query: part of a name, company or e-mail address, such as 'Highland' or 'oscar.ortiz@'.
        kinds: only these kinds of records, such as ['contact', 'lead']; default: all four.
        limit: the most records to return of each kind, from 1 to 100, such as 5.

    Returns:
        Matching accounts, contacts (with their account), leads (with their company and status)
        and deals (with stage and amount), and how many records matched in all.
    """
    wanted = set(kinds or ("account", "contact", "lead", "deal"))
    q = query.lower()
    accounts, contacts, leads, deals, total = [], [], [], [], 0
    counts: dict[str, int] = {}
    if "account" in wanted:
        rows = ctx.db.execute("SELECT * FROM accounts WHERE instr(lower(name), ?) > 0 OR instr(lower(website), ?) > 0 "
                              "ORDER BY name", (q, q)).fetchall()
        total += len(rows)
        counts["account"] = len(rows)
        accounts = [AccountRef(account_id=r["account_id"], name=r["name"], industry=r["industry"], type=r["type"])
                    for r in rows[:limit]]
    if "contact" in wanted:
        rows = ctx.db.execute(CONTACT_SELECT + " WHERE instr(lower(c.full_name), ?) > 0 OR instr(lower(c.email), ?) > 0 "
                              "ORDER BY c.full_name, c.contact_id", (q, q)).fetchall()
        total += len(rows)
        counts["contact"] = len(rows)
        contacts = [ContactRef(contact_id=r["contact_id"], full_name=r["full_name"], email=r["email"],
                               account_name=r["account_name"]) for r in rows[:limit]]
    if "lead" in wanted:
        rows = ctx.db.execute("SELECT * FROM leads WHERE instr(lower(full_name), ?) > 0 OR instr(lower(company), ?) > 0 "
                              "OR instr(lower(email), ?) > 0 ORDER BY full_name, lead_id", (q, q, q)).fetchall()
        total += len(rows)
        counts["lead"] = len(rows)
        leads = [LeadRef(lead_id=r["lead_id"], full_name=r["full_name"], company=r["company"], status=r["status"])
                 for r in rows[:limit]]
    if "deal" in wanted:
        rows = ctx.db.execute("SELECT * FROM deals WHERE instr(lower(name), ?) > 0 ORDER BY name, deal_id", (q,)).fetchall()
        total += len(rows)
        counts["deal"] = len(rows)
        deals = [DealRef(deal_id=r["deal_id"], name=r["name"], stage=r["stage"], amount=r["amount"]) for r in rows[:limit]]
    found = [(kind, [*said, f"{n - len(said)} more"] if n > len(said) else said) for kind, said, n in (
        ("account", [f"{a.name} ({a.industry} {a.type})" for a in accounts], counts.get("account", 0)),
        ("contact", [f"{c.full_name} of {c.account_name}" for c in contacts], counts.get("contact", 0)),
        ("lead", [f"{x.full_name} of {x.company} ({LEAD_STATUS[x.status]})" for x in leads], counts.get("lead", 0)),
        ("deal", [f"'{d.name}' ({d.stage.replace('_', ' ')}, {dollars(d.amount)})" for d in deals],
         counts.get("deal", 0))) if said]
    text = "; ".join(f"{kind}s: {', '.join(said[:-1])} and {said[-1]}" if said[1:] else f"the {kind} {said[0]}"
                     for kind, said in found)
    return SearchResults(accounts=accounts, contacts=contacts, leads=leads, deals=deals, total=total,
                         found_text=text or "nothing")


@tools.tool(effect=READ, asks=[
    "Who is on the sales team?",
    "Who's my manager, and what's my quota?",
    Ask("List everyone on the sales team, including people who have left.", include_inactive=True),
], reply=[
    "The sales team ({result.total}): {result.names}. You report to {result.my_manager}, with a quarterly quota "
    "of ${result.my_quota}.",
])
def list_reps(ctx: Ctx, include_inactive: bool = False) -> RepList:
    """List the sales team: reps with their title, team, manager and quarterly quota; one of them is you.

    Args:
        include_inactive: also list reps who have left the company.

    Returns:
        The reps with ID, name, e-mail, title, team, manager, quota, whether active and which one is you.
    """
    sql = "SELECT * FROM reps" + ("" if include_inactive else " WHERE active = 1") + " ORDER BY is_me DESC, name"
    reps = [Rep(rep_id=r["rep_id"], name=r["name"], email=r["email"], title=r["title"], team=r["team"],
                manager_id=r["manager_id"], quota=r["quota"], active=bool(r["active"]), is_me=bool(r["is_me"]))
            for r in ctx.db.execute(sql)]
    mine = next((r for r in reps if r.is_me), None)
    boss = next((r.name for r in reps if mine is not None and r.rep_id == mine.manager_id), None)
    if boss is None and mine is not None and mine.manager_id is not None:
        boss = ctx.get("rep", mine.manager_id)["name"]
    return RepList(reps=reps, total=len(reps), names=", ".join(r.name for r in reps), my_manager=boss,
                   my_quota=mine.quota if mine is not None else None)


def _account_summaries(ctx: Ctx, where: Where) -> list[AccountSummary]:
    rows = ctx.db.execute(
        "SELECT a.*, r.name AS owner_name, "
        "(SELECT count(*) FROM deals d WHERE d.account_id = a.account_id AND d.stage NOT LIKE 'closed%') AS open_deals, "
        "(SELECT coalesce(sum(amount), 0) FROM deals d WHERE d.account_id = a.account_id "
        " AND d.stage NOT LIKE 'closed%') AS open_pipeline "
        f"FROM accounts a JOIN reps r ON r.rep_id = a.owner_id WHERE {where.sql}", where.params).fetchall()
    return [AccountSummary(account_id=r["account_id"], name=r["name"], industry=r["industry"], type=r["type"],
                           city=r["city"], country=r["country"], employees=r["employees"], owner_id=r["owner_id"],
                           owner_name=r["owner_name"], open_deals=r["open_deals"], open_pipeline=r["open_pipeline"])
            for r in rows]


@tools.tool(effect=READ, asks=[
    Ask("Show me my accounts.", mine=True),
    "Which {industry} companies are {type}s?",
    Ask("List the accounts owned by {owner_id}, biggest pipeline first.", sort_by="open_pipeline"),
    "Is there an account called '{query}'?",
    Ask("What are our largest {industry} accounts by headcount?", sort_by="employees"),
], reply=[
    "{result.total} accounts: {result.accounts_text}.",
    # "Is there an account called 'Apex'?" is answered yes, with the one it is.
    Ask("Yes: {result.accounts_text}.", industry=None, type=None, owner_id=None, mine=False, sort_by="name",
        **{"result.total": 1}),
])
def list_accounts(ctx: Ctx, query: Query | None = None, industry: Industry | None = None,
                  type: AccountType | None = None, owner_id: OtherRepId | None = None, mine: bool = False,
                  sort_by: Literal["name", "open_pipeline", "employees"] = "name", limit: Limit = 20) -> AccountList:
    """List accounts (companies), optionally filtered by name, industry, type or owner.

    Args:
        query: part of the account's name, such as 'Harbor'.
        industry: only this industry, such as 'Logistics'.
        type: only 'prospect', 'customer' or 'partner' accounts.
        owner_id: only accounts owned by this rep, such as 'REP-10003'.
        mine: only accounts you own.
        sort_by: 'name', 'open_pipeline' (largest first) or 'employees' (largest first).
        limit: the most accounts to return, from 1 to 100, such as 20.

    Returns:
        The accounts with industry, type, location, size, owner and their open deals and open
        pipeline amount, and how many matched.

    Raises:
        not_found: `owner_id` is not a rep.
    """
    where = Where()
    if query is not None:
        where.add("instr(lower(a.name), lower(?)) > 0", query)
    where.eq("a.industry", industry)
    where.eq("a.type", type)
    where.entity(ctx, "rep", "a.owner_id", owner_id)
    if mine:
        where.add("a.owner_id = ?", me(ctx)["rep_id"])
    found = _account_summaries(ctx, where)
    keys = {"name": lambda a: (a.name.lower(), a.account_id), "open_pipeline": lambda a: (-a.open_pipeline, a.name),
            "employees": lambda a: (-(a.employees or 0), a.name)}
    found.sort(key=keys[sort_by])
    return AccountList(accounts=found[:limit], total=len(found),
                       accounts_text=_accounts_text(found[:limit], len(found), sort_by, industry is None))


def _accounts_text(accounts: list[AccountSummary], total: int, sort_by: str, industry_said: bool) -> str:
    """'Apex Realty (Real Estate, Chicago)', 'Apex Realty (1,200 employees)' or 'Apex Realty ($730,000 in open
    deals)': what each account is, or the size the listing is sorted by."""
    def one(a: AccountSummary) -> str:
        if sort_by == "employees":
            return f"{a.name} ({a.employees:,} employees)" if a.employees else f"{a.name} (headcount unknown)"
        if sort_by == "open_pipeline":
            return f"{a.name} ({dollars(a.open_pipeline)} in open deals)" if a.open_pipeline else f"{a.name} (no open deals)"
        where = ", ".join(x for x in (a.industry if industry_said else None, a.city) if x)
        return f"{a.name} ({where})" if where else a.name
    return said_in_part([one(a) for a in (accounts if len(accounts) <= 8 else accounts[:6])], total, "none")


@tools.tool(effect=READ, asks=[
    "Tell me about {account_id}.",
    "Who do we know at {account_id}, and what deals do we have with them?",
    "How much open pipeline is there with {account_id}?",
], reply=[
    # One reply a question: the account as a whole; whom we know there and the deals; the open pipeline.
    "{result.name} is {result.profile_text}. Contacts: {result.contact_names}. Deals: {result.deal_names}.",
    "At {result.name} we know {result.contact_names}. Deals: {result.deal_names}.",
    "{result.name} has {result.pipeline_text}.",
])
def get_account(ctx: Ctx, account_id: AccountId) -> Account:
    """Show one account with its contacts and all its deals.

    Args:
        account_id: ID of the account, such as 'ACC-10002'.

    Returns:
        The account's details (industry, type, website, phone, location, size, revenue, owner),
        its open pipeline and won revenue, its contacts and its deals, open and closed.

    Raises:
        not_found: the account does not exist.
    """
    ctx.get("account", account_id)
    one = Where()
    one.eq("a.account_id", account_id)
    summary = _account_summaries(ctx, one)[0]
    row = ctx.get("account", account_id)
    contacts = [contact_summary(r) for r in ctx.db.execute(CONTACT_SELECT + " WHERE c.account_id = ? ORDER BY c.full_name",
                                                           (account_id,))]
    deals = [deal_summary(r) for r in ctx.db.execute(DEAL_SELECT + " WHERE d.account_id = ? ORDER BY d.close_date DESC, "
                                                     "d.deal_id", (account_id,))]
    won = sum(d.amount for d in deals if d.stage == "closed_won")
    people = said_in_part([f"{c.full_name} ({c.title})" if c.title else c.full_name for c in contacts], len(contacts),
                          "no contacts yet")
    sales = said_in_part([f"'{d.name}' ({d.stage.replace('_', ' ')}, {dollars(d.amount)})" for d in deals], len(deals),
                         "none yet")
    owner = "you" if summary.owner_id == me(ctx)["rep_id"] else summary.owner_name
    kind = f"{summary.industry} {summary.type}"
    profile = (f"{'an' if kind[0] in 'AEIOU' else 'a'} {kind}" + (f" in {summary.city}" if summary.city else "")
               + f", owned by {owner}")
    pipeline = (f"{dollars(summary.open_pipeline)} in {summary.open_deals} open deal{'' if summary.open_deals == 1 else 's'}"
                if summary.open_deals else "no open deals")
    return Account(**summary.model_dump(), website=row["website"], phone=row["phone"],
                   annual_revenue=row["annual_revenue"], created_at=row["created_at"], won_revenue=won,
                   contacts=contacts, deals=deals, contact_names=people,
                   deal_names=sales, profile_text=profile, pipeline_text=pipeline)


@tools.tool(effect=WRITE, asks=[
    "Create an account for {name}, a {industry} company.",
    "Add {name} ({website}) to the CRM as a {type} in {industry}, based in {city}.",
    Ask("{name} is a new {industry} prospect with about {employees} employees; set up an account for them.",
        type="prospect"),
], reply=[
    "Done: {result.name} is in the CRM as an account, owned by you.",
    "I've created the account {result.name} as a {result.type}.",
], values={
    # a company's name, its industry and its website go together
    "name, industry, website": [
        ("Granite Freight", "Logistics", "granitefreight.com"), ("Bluewater Analytics", "Software", "bluewater.io"),
        ("Osprey Health Partners", "Healthcare", "ospreyhealth.com"),
        ("Summit Retail Group", "Retail", "summitretail.com"), ("Cedar Lane Energy", "Energy", "cedarlane-energy.com"),
        ("Harborview Media", "Media", "harborviewmedia.com"),
        ("Ironbridge Manufacturing", "Manufacturing", "ironbridgemfg.com"),
        ("Brightpath Learning", "Education", "brightpathlearning.org"),
    ],
    "city": ["Chicago", "Austin", "Boston", "Denver", "Seattle", "Atlanta", "Toronto", "London"],
})
def create_account(ctx: Ctx, name: Name, industry: Industry, type: AccountType = "prospect",
                   website: Name | None = None, phone: Phone | None = None, city: Name | None = None,
                   country: Name | None = None, employees: Annotated[int, Field(ge=1, le=5_000_000)] | None = None,
                   annual_revenue: Amount | None = None) -> Account:
    """Create an account (company) owned by you.

    Args:
        name: the company's name, such as 'Granite Freight'; unique among accounts (case-insensitive).
        industry: its industry, such as 'Logistics'.
        type: 'prospect' (default), 'customer' or 'partner'.
        website: its website, such as 'https://www.granitefreight.com'.
        phone: its main phone number, such as '+1-312-555-0100'.
        city: where it is based, such as 'Chicago'.
        country: two-letter country code, such as 'US'.
        employees: how many people work there, such as 250.
        annual_revenue: yearly revenue in dollars, such as 40000000.

    Returns:
        The new account with its ID.

    Raises:
        duplicate_account: an account with that name already exists.
    """
    dup = ctx.db.execute("SELECT account_id FROM accounts WHERE lower(name) = lower(?)", (name,)).fetchone()
    if dup:
        raise ToolError("duplicate_account", f"An account named {quote(name)} already exists ({dup['account_id']}).",
                        hint="Use the existing account.")
    account_id = ctx.new_id("ACC")
    ctx.db.execute("INSERT INTO accounts (account_id, name, industry, type, website, phone, city, country, employees, "
                   "annual_revenue, owner_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (account_id, name, industry, type, website, phone, city, country, employees, annual_revenue,
                    me(ctx)["rep_id"], ctx.now_iso()))
    return get_account(ctx, account_id)


@tools.tool(effect=READ, asks=[
    "Who are the contacts at {account_id}?",
    "Find the person named {query} in our contacts.",
    Ask("Which people at {account_id} can we still reach out to?", include_do_not_contact=False),
], reply=[
    Ask("You can still reach {result.total} people at {account_id}: {result.contacts_text}.",
        include_do_not_contact=False),
    Ask("{result.total} contacts: {result.contacts_text}.", include_do_not_contact=True),
])
def list_contacts(ctx: Ctx, account_id: AccountId | None = None, query: Query | None = None,
                  include_do_not_contact: bool = True, limit: Limit = 20) -> ContactList:
    """List contacts, optionally only those at one account or matching a name or e-mail.

    Args:
        account_id: only contacts at this account, such as 'ACC-10002'.
        query: part of the contact's name or e-mail, such as 'Ortiz'.
        include_do_not_contact: also list people who asked not to be contacted (default true).
        limit: the most contacts to return, from 1 to 100, such as 20.

    Returns:
        The contacts with title, e-mail, phone, account and do-not-contact flag, and how many matched.

    Raises:
        not_found: the account does not exist.
    """
    where = Where()
    where.entity(ctx, "account", "c.account_id", account_id)
    if query is not None:
        where.add("(instr(lower(c.full_name), lower(?)) > 0 OR instr(lower(c.email), lower(?)) > 0)", query, query)
    if not include_do_not_contact:
        where.add("c.do_not_contact = 0")
    rows = ctx.db.execute(f"{CONTACT_SELECT} WHERE {where.sql} ORDER BY c.full_name, c.contact_id",
                          where.params).fetchall()
    contacts = [contact_summary(r) for r in rows[:limit]]

    def one(c: ContactSummary) -> str:
        who = c.full_name + (f", {c.title}" if c.title else "") + ("" if account_id else f" at {c.account_name}")
        return who + (" (asked not to be contacted)" if c.do_not_contact and include_do_not_contact else "")
    return ContactList(contacts=contacts, total=len(rows),
                       contacts_text=said_in_part([one(c) for c in (contacts if len(contacts) <= 8 else contacts[:6])],
                                                  len(rows), "nobody"))


def contact_model(ctx: Ctx, contact_id: str) -> Contact:
    ctx.get("contact", contact_id)
    row = ctx.db.execute(CONTACT_SELECT + " WHERE c.contact_id = ?", (contact_id,)).fetchone()
    deals = [deal_summary(r) for r in ctx.db.execute(DEAL_SELECT + " WHERE d.contact_id = ? ORDER BY d.close_date DESC",
                                                     (contact_id,))]
    acts = [activity_model(ctx, r) for r in ctx.db.execute(
        ACTIVITY_SELECT + " WHERE t.contact_id = ? ORDER BY coalesce(t.occurred_at, t.due_date) DESC, "
        "t.activity_id DESC LIMIT 5", (contact_id,))]
    owner = ctx.get("rep", row["owner_id"])
    return Contact(**contact_summary(row).model_dump(), first_name=row["first_name"], last_name=row["last_name"],
                   owner_id=row["owner_id"], owner_name=owner["name"], created_at=row["created_at"], deals=deals,
                   recent_activities=acts)


@tools.tool(effect=READ, asks=[
    "Show me {contact_id}.",
    "What's the e-mail and phone number of {contact_id}?",
], reply=[
    "{result.full_name}, {result.title} at {result.account_name}: e-mail {result.email}, phone {result.phone}.",
    Ask("{result.full_name}, {result.title} at {result.account_name}: e-mail {result.email}, phone {result.phone}. "
        "They asked not to be called or e-mailed.", **{"result.do_not_contact": True}),
])
def get_contact(ctx: Ctx, contact_id: ContactId) -> Contact:
    """Show one contact with their deals and their five latest activities.

    Args:
        contact_id: ID of the contact, such as 'CON-10007'.

    Returns:
        The contact's name, title, e-mail, phone, account, owner and do-not-contact flag, the
        deals where they are the primary contact and their latest calls, e-mails, meetings and tasks.

    Raises:
        not_found: the contact does not exist.
    """
    return contact_model(ctx, contact_id)


@tools.tool(effect=WRITE, asks=[
    "Add {first_name} {last_name} ({email}) as a contact at {account_id}.",
    "Create a contact: {first_name} {last_name}, {title} at {account_id}, e-mail {email}, phone {phone}.",
    "We met {first_name} {last_name} from {account_id}; their e-mail is {email}. Put them in the CRM.",
], reply=[
    "Added {result.full_name} as a contact at {result.account_name}.",
    "{result.full_name} is now in the CRM under {account_id}.",
], values={
    # The address a person gives for a new contact; the teacher writes its name part from their
    # name. A mailbox of its own domain, so it never names another company than their account.
    "email": ["dana.whitfield@gmail.com", "dana.whitfield@outlook.com", "dana.whitfield@icloud.com",
              "dana.whitfield@proton.me"],
    "title": TITLES,
})
def create_contact(ctx: Ctx, account_id: AccountId, first_name: Name, last_name: Name, email: Email,
                   title: Name | None = None, phone: Phone | None = None) -> Contact:
    """Add a person at an account as a contact, owned by the account's owner.

    Args:
        account_id: ID of the account they work at, such as 'ACC-10002'.
        first_name: their first name, such as 'Dana'.
        last_name: their last name, such as 'Whitfield'.
        email: their e-mail address, unique among contacts, such as 'dana.whitfield@highlandshipping.com'.
        title: their job title, such as 'Head of Data'.
        phone: their phone number, such as '+1-617-555-0142'.

    Returns:
        The new contact with its ID.

    Raises:
        not_found: the account does not exist.
        duplicate_email: another contact already has that e-mail address.
    """
    acc = ctx.get("account", account_id)
    dup = email_taken(ctx, email)
    if dup:
        raise ToolError("duplicate_email", f"{dup['full_name']} ({dup['contact_id']}) already has the e-mail {email}.",
                        hint="Update that contact instead of creating a new one.")
    contact_id = ctx.new_id("CON")
    ctx.db.execute("INSERT INTO contacts (contact_id, account_id, first_name, last_name, full_name, title, email, phone, "
                   "owner_id, do_not_contact, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
                   (contact_id, account_id, first_name, last_name, f"{first_name} {last_name}", title, email, phone,
                    acc["owner_id"], ctx.now_iso()))
    return contact_model(ctx, contact_id)


@tools.tool(effect=WRITE, asks=[
    "Update {contact_id}'s title to {title}.",
    Ask("{contact_id} asked us to stop contacting them, please flag that.", do_not_contact=True),
    "{contact_id} has a new phone number: {phone}. Please update it.",
    "{contact_id} moved to {account_id}; update their record.",
    Ask("{contact_id} is happy to hear from us again; lift the do-not-contact flag.", do_not_contact=False),
], reply=[
    Ask("{result.full_name} is now flagged do-not-contact; nobody will reach out to them.", do_not_contact=True,
        title=None, email=None, phone=None, account_id=None),
    Ask("Lifted the do-not-contact flag on {result.full_name}; we can reach out to them again.",
        do_not_contact=False, title=None, email=None, phone=None, account_id=None),
    Ask("{result.full_name}'s title is {title} now.", do_not_contact=None, email=None, phone=None, account_id=None),
    Ask("{result.full_name}'s phone number is {phone} now.", do_not_contact=None, title=None, email=None,
        account_id=None),
    Ask("{result.full_name} now sits under {result.account_name}.", do_not_contact=None, title=None, email=None,
        phone=None),
    "Updated {result.full_name} ({result.title}, {result.account_name}): {result.email}, {result.phone}.",
], values={"title": TITLES})
def update_contact(ctx: Ctx, contact_id: ContactId, title: Name | None = None, email: Email | None = None,
                   phone: Phone | None = None, account_id: AccountId | None = None,
                   do_not_contact: bool | None = None) -> Contact:
    """Change a contact's title, e-mail, phone, account or do-not-contact flag; omitted fields stay.

    Args:
        contact_id: ID of the contact, such as 'CON-10007'.
        title: new job title, such as 'VP of Data'.
        email: new e-mail address, unique among contacts, such as 'ben.ortiz@crescentmedia.com'.
        phone: new phone number, such as '+1-617-555-0199'.
        account_id: the account they moved to, such as 'ACC-10008'.
        do_not_contact: true if they asked not to be called or e-mailed, false to allow it again.

    Returns:
        The contact after the change.

    Raises:
        not_found: the contact or the account does not exist.
        duplicate_email: another contact already has that e-mail address.
    """
    ctx.get("contact", contact_id)
    if email is not None:
        dup = email_taken(ctx, email, except_contact=contact_id)
        if dup:
            raise ToolError("duplicate_email", f"{dup['full_name']} ({dup['contact_id']}) already has the e-mail {email}.")
        ctx.db.execute("UPDATE contacts SET email = ? WHERE contact_id = ?", (email, contact_id))
    if account_id is not None:
        ctx.get("account", account_id)
        ctx.db.execute("UPDATE contacts SET account_id = ? WHERE contact_id = ?", (account_id, contact_id))
    if title is not None:
        ctx.db.execute("UPDATE contacts SET title = ? WHERE contact_id = ?", (title, contact_id))
    if phone is not None:
        ctx.db.execute("UPDATE contacts SET phone = ? WHERE contact_id = ?", (phone or None, contact_id))
    if do_not_contact is not None:
        ctx.db.execute("UPDATE contacts SET do_not_contact = ? WHERE contact_id = ?", (int(do_not_contact), contact_id))
    return contact_model(ctx, contact_id)

