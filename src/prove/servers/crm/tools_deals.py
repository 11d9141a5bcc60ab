"""Deals: the pipeline, stage moves with their rules, reopening, handing off and the summary by stage."""

from __future__ import annotations

from datetime import timedelta
from typing import Literal

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import parse_date, said_in_part, spoken_day

from .server import (
    AMOUNTS,
    DEAL_NAMES,
    DEAL_SELECT,
    AccountId,
    Amount,
    ContactId,
    Deal,
    DealId,
    DealList,
    DealSummary,
    Limit,
    MyClosedDealId,
    MyOpenDealId,
    Name,
    OpenStage,
    OtherActiveRepId,
    OtherRepId,
    PipelineSummary,
    Query,
    Stage,
    StageSummary,
    Text,
    active_rep,
    deal_model,
    deal_summary,
    dollars,
    future_close_date,
    me,
    probability,
    quarter_of,
    record_stage,
    require_owner,
)
from .world import LOSS_REASONS, NEXT_STEPS, OPEN_STAGES, STAGES

tools = Toolset("deals")


def _contact_at(ctx: Ctx, contact_id: str, account_id: str) -> None:
    contact = ctx.get("contact", contact_id)
    if contact["account_id"] != account_id:
        raise ToolError("contact_not_on_account", f"{contact['full_name']} does not work at the deal's account.",
                        hint="Pick a contact of that account (list_contacts with account_id).")


def _require_open(row) -> None:  # noqa: ANN001 - a sqlite3.Row
    if row["stage"] in ("closed_won", "closed_lost"):
        raise ToolError("deal_closed", f"'{row['name']}' is {row['stage'].replace('_', ' ')}; closed deals cannot be "
                        "changed.", hint="Reopen it first with reopen_deal.")


@tools.tool(effect=READ, asks=[
    Ask("Show my open deals.", mine=True, open_only=True),
    "Which deals are in {stage}?",
    Ask("What open deals are closing by {closing_before}, biggest first?", sort_by="amount", open_only=True),
    "List the deals with {account_id}.",
    Ask("Which of {owner_id}'s open deals are worth at least ${min_amount}?", open_only=True),
], reply=[
    "{result.total} deals, {result.amount_text} in all: {result.deals_text}.",
], values={
    "min_amount": [10000.0, 25000.0, 50000.0, 100000.0],
})
def list_deals(ctx: Ctx, stage: Stage | None = None, open_only: bool = False, owner_id: OtherRepId | None = None,
               mine: bool = False, account_id: AccountId | None = None, closing_after: str | None = None,
               closing_before: str | None = None, min_amount: Amount | None = None, query: Query | None = None,
               sort_by: Literal["close_date", "amount", "updated"] = "close_date", limit: Limit = 20) -> DealList:
    """List deals filtered by stage, owner, account, close date, amount or name.

    Args:
        stage: only deals in this stage: 'prospecting', 'qualification', 'proposal', 'negotiation', 'closed_won' or 'closed_lost'.
        open_only: only deals that are not closed.
        owner_id: only deals owned by this rep, such as 'REP-10003'.
        mine: only deals you own.
        account_id: only deals with this account, such as 'ACC-10002'.
        closing_after: only deals whose close date is on or after this day, such as '2026-03-16'.
        closing_before: only deals whose close date is on or before this day, such as '2026-03-31'.
        min_amount: only deals worth at least this many dollars, such as 50000.
        query: part of the deal's name, such as 'renewal'.
        sort_by: 'close_date' (soonest first), 'amount' (largest first) or 'updated' (most recent first).
        limit: the most deals to return, from 1 to 100, such as 20.

    Returns:
        The deals with account, stage, amount, probability, close date and owner, how many
        matched and their total amount.

    Raises:
        not_found: `owner_id` or `account_id` does not exist.
        invalid_date: `closing_after` or `closing_before` is not a date.
    """
    where = Where()
    where.eq("d.stage", stage)
    if open_only:
        where.add("d.stage NOT IN ('closed_won', 'closed_lost')")
    where.entity(ctx, "rep", "d.owner_id", owner_id)
    if mine:
        where.add("d.owner_id = ?", me(ctx)["rep_id"])
    where.entity(ctx, "account", "d.account_id", account_id)
    if closing_after is not None:
        where.add("d.close_date >= ?", parse_date(closing_after, "closing_after").isoformat())
    if closing_before is not None:
        where.add("d.close_date <= ?", parse_date(closing_before, "closing_before").isoformat())
    where.cmp("d.amount", ">=", min_amount)
    if query is not None:
        where.add("instr(lower(d.name), lower(?)) > 0", query)
    order = {"close_date": "d.close_date, d.deal_id", "amount": "d.amount DESC, d.deal_id",
             "updated": "d.updated_at DESC, d.deal_id"}[sort_by]
    rows = ctx.db.execute(f"{DEAL_SELECT} WHERE {where.sql} ORDER BY {order}", where.params).fetchall()
    deals = [deal_summary(r) for r in rows[:limit]]
    today = ctx.today()

    def one(d: DealSummary) -> str:
        notes = [dollars(d.amount)]
        if stage is None:
            notes.append(d.stage.replace("_", " ") if d.stage.startswith("closed") else f"in {d.stage}")
        if not d.stage.startswith("closed"):
            day = spoken_day(d.close_date, today)
            notes.append(f"closing {day}" if d.close_date >= today.isoformat() else f"was due to close {day}")
        return f"'{d.name}' ({', '.join(notes)})"
    total = round(sum(r["amount"] for r in rows), 2)
    return DealList(deals=deals, total=len(rows), total_amount=total, amount_text=dollars(total),
                    deals_text=said_in_part([one(d) for d in (deals if len(deals) <= 8 else deals[:6])], len(rows),
                                            "none"))


@tools.tool(effect=READ, asks=[
    "Tell me about {deal_id}.",
    "What stage is {deal_id} in, and how did it get there?",
    "What's the next step on {deal_id}?",
], reply=[
    # One reply a question: the deal as a whole; the stages it went through; its next step.
    "'{result.name}' ({result.amount_text} with {result.account_name}) {result.standing_text}; "
    "{result.next_step_text}.",
    "'{result.name}' {result.standing_text}; {result.stages_text}.",
    "On '{result.name}', {result.next_step_text}.",
])
def get_deal(ctx: Ctx, deal_id: DealId) -> Deal:
    """Show one deal with its primary contact, next step and full stage history.

    Args:
        deal_id: ID of the deal, such as 'DEAL-10003'.

    Returns:
        The deal's account, stage, amount, probability, weighted amount, close date, owner,
        primary contact, next step, loss reason, the lead it came from, and every stage change
        with when and by whom.

    Raises:
        not_found: the deal does not exist.
    """
    return deal_model(ctx, deal_id)


@tools.tool(effect=WRITE, asks=[
    "Open a new deal '{name}' with {account_id} for ${amount}, closing {close_date}.",
    ("Create a {stage} deal called '{name}' at {account_id}, worth ${amount}, expected to close on "
     "{close_date}, with {contact_id} as the contact."),
    "{account_id} wants to buy: log a ${amount} opportunity named '{name}' closing {close_date}.",
], reply=[
    "Created the deal '{result.name}' for ${result.amount}, in {result.stage}.",
    "'{result.name}' is in your pipeline now, expected to close {close_date}.",
], values={
    "name": DEAL_NAMES,
    "amount": AMOUNTS,
    "next_step": NEXT_STEPS,
})
def create_deal(ctx: Ctx, name: Name, account_id: AccountId, amount: Amount, close_date: str,
                stage: OpenStage = "prospecting", contact_id: ContactId | None = None,
                next_step: Text | None = None) -> Deal:
    """Create a deal you own with an account, in an open stage.

    Args:
        name: the deal's name, such as 'Highland Shipping - Analytics Cloud expansion'.
        account_id: ID of the account, such as 'ACC-10002'.
        amount: expected amount in dollars, such as 48000.
        close_date: expected close date, today or later, such as '2026-06-30'.
        stage: the open stage it starts in: 'prospecting' (default), 'qualification', 'proposal' or 'negotiation'.
        contact_id: the primary contact, who must work at the account, such as 'CON-10007'.
        next_step: what happens next, such as 'Demo with the data team'.

    Returns:
        The new deal with its ID, probability and stage history.

    Raises:
        not_found: the account or contact does not exist.
        contact_not_on_account: the contact works at another account.
        invalid_date: `close_date` is not a date.
        close_date_in_past: `close_date` is before today.
    """
    ctx.get("account", account_id)
    if contact_id is not None:
        _contact_at(ctx, contact_id, account_id)
    close = future_close_date(ctx, close_date)
    deal_id = ctx.new_id("DEAL")
    now = ctx.now_iso()
    ctx.db.execute("INSERT INTO deals (deal_id, name, account_id, contact_id, owner_id, stage, amount, probability, "
                   "close_date, next_step, loss_reason, lead_id, created_at, updated_at, closed_at) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, NULL)",
                   (deal_id, name, account_id, contact_id, me(ctx)["rep_id"], stage, round(amount, 2),
                    probability(stage), close, next_step or None, now, now))
    record_stage(ctx, deal_id, None, stage)
    return deal_model(ctx, deal_id)


@tools.tool(effect=WRITE, asks=[
    "The amount on {deal_id} should be ${amount} now.",
    "Move the close date of {deal_id} to {close_date}.",
    "Set the next step on {deal_id} to '{next_step}'.",
    "Make {contact_id} the main contact on {deal_id}.",
], reply=[
    Ask("'{result.name}' is now worth ${result.amount}.", name=None, close_date=None, next_step=None,
        contact_id=None),
    Ask("'{result.name}' now closes {close_date}.", name=None, amount=None, next_step=None, contact_id=None),
    Ask("The next step on '{result.name}' is '{next_step}' now.", name=None, amount=None, close_date=None,
        contact_id=None),
    Ask("{result.contact_name} is the main contact on '{result.name}' now.", name=None, amount=None,
        close_date=None, next_step=None),
    "Updated '{result.name}': ${result.amount}, closing {result.close_date}, next step '{result.next_step}'.",
], values={
    "name": DEAL_NAMES,
    "amount": AMOUNTS,
    "next_step": NEXT_STEPS,
})
def update_deal(ctx: Ctx, deal_id: MyOpenDealId, name: Name | None = None, amount: Amount | None = None,
                close_date: str | None = None, next_step: Text | None = None,
                contact_id: ContactId | None = None) -> Deal:
    """Change an open deal you own: its name, amount, close date, next step or primary contact; omitted fields stay.

    Args:
        deal_id: ID of the deal, such as 'DEAL-10003'.
        name: new name, such as 'Highland Shipping - Enterprise Platform renewal (3 years)'.
        amount: new expected amount in dollars, such as 220000.
        close_date: new expected close date, today or later, such as '2026-04-30'.
        next_step: what happens next, such as 'Legal review of the MSA'; an empty string clears it.
        contact_id: new primary contact at the deal's account, such as 'CON-10007'.

    Returns:
        The deal after the change.

    Raises:
        not_found: the deal or contact does not exist.
        not_owner: the deal belongs to another rep.
        deal_closed: the deal is won or lost; reopen it first.
        contact_not_on_account: the contact works at another account.
        invalid_date: `close_date` is not a date.
        close_date_in_past: `close_date` is before today.
    """
    row = ctx.get("deal", deal_id)
    require_owner(ctx, row, "deal")
    _require_open(row)
    updates: dict[str, object] = {}
    if name is not None:
        updates["name"] = name
    if amount is not None:
        updates["amount"] = round(amount, 2)
    if close_date is not None:
        updates["close_date"] = future_close_date(ctx, close_date)
    if next_step is not None:
        updates["next_step"] = next_step or None
    if contact_id is not None:
        _contact_at(ctx, contact_id, row["account_id"])
        updates["contact_id"] = contact_id
    updates["updated_at"] = ctx.now_iso()
    ctx.update("deal", deal_id, updates)
    return deal_model(ctx, deal_id)


@tools.tool(effect=WRITE, asks=[
    "Move {deal_id} to {stage}.",
    Ask("We lost {deal_id}; close it as lost with the reason '{loss_reason}'.", stage="closed_lost"),
    Ask("{deal_id} is signed! Mark it won.", stage="closed_won"),
    "Put {deal_id} in the {stage} stage.",
], reply=[
    # a closed deal is won or lost, not "in closed won"
    Ask("Done: {deal_id} is marked won.", stage="closed_won"),
    Ask("Done: {deal_id} is closed as lost.", stage="closed_lost"),
    "{deal_id} is now in {stage}, at {result.probability}% probability.",
    "Moved '{result.name}' to {stage}.",
], values={
    "loss_reason": LOSS_REASONS,
})
def update_deal_stage(ctx: Ctx, deal_id: MyOpenDealId, stage: Stage, loss_reason: Text | None = None) -> Deal:
    """Move a deal you own to another stage; closing it as won or lost is final until it is reopened.

    Open deals move freely between 'prospecting', 'qualification', 'proposal' and 'negotiation'
    and can be closed as 'closed_won' or 'closed_lost'. The stage sets the probability. Closing
    sets the close date to today; winning makes the account a customer. A closed deal cannot
    change stage here: use reopen_deal.

    Args:
        deal_id: ID of the deal, such as 'DEAL-10003'.
        stage: the new stage: 'prospecting', 'qualification', 'proposal', 'negotiation', 'closed_won' or 'closed_lost'.
        loss_reason: why the deal was lost (needed for 'closed_lost'), such as 'Chose a competitor'.

    Returns:
        The deal with its new stage, probability and stage history.

    Raises:
        not_found: the deal does not exist.
        not_owner: the deal belongs to another rep.
        invalid_stage_transition: the deal is closed (reopen it first) or already in that stage.
        loss_reason_required: `stage` is 'closed_lost' and no loss reason was given.
    """
    row = ctx.get("deal", deal_id)
    require_owner(ctx, row, "deal")
    current = row["stage"]
    if current in ("closed_won", "closed_lost"):
        raise ToolError("invalid_stage_transition", f"'{row['name']}' is {current.replace('_', ' ')}; a closed deal "
                        f"cannot move to {stage}.", hint="Reopen it with reopen_deal first.")
    if stage == current:
        raise ToolError("invalid_stage_transition", f"'{row['name']}' is already in {stage}.")
    now = ctx.now_iso()
    if stage == "closed_lost":
        if not loss_reason:
            raise ToolError("loss_reason_required", "Say why the deal was lost (loss_reason).",
                            hint="For example 'Chose a competitor' or 'No budget this year'.")
        ctx.db.execute("UPDATE deals SET stage = ?, probability = 0, loss_reason = ?, closed_at = ?, close_date = ?, "
                       "next_step = NULL, updated_at = ? WHERE deal_id = ?",
                       (stage, loss_reason, now, ctx.today().isoformat(), now, deal_id))
    elif stage == "closed_won":
        ctx.db.execute("UPDATE deals SET stage = ?, probability = 100, closed_at = ?, close_date = ?, next_step = NULL, "
                       "updated_at = ? WHERE deal_id = ?", (stage, now, ctx.today().isoformat(), now, deal_id))
        ctx.db.execute("UPDATE accounts SET type = 'customer' WHERE account_id = ? AND type = 'prospect'",
                       (row["account_id"],))
    else:
        ctx.db.execute("UPDATE deals SET stage = ?, probability = ?, updated_at = ? WHERE deal_id = ?",
                       (stage, probability(stage), now, deal_id))
    record_stage(ctx, deal_id, current, stage)
    return deal_model(ctx, deal_id)


@tools.tool(effect=WRITE, asks=[
    "Reopen {deal_id} in {stage}.",
    "The customer came back; reopen {deal_id} with a close date of {close_date}.",
    "Bring {deal_id} back to life.",
], reply=[
    "Reopened '{result.name}' in {result.stage}, closing {result.close_date}.",
    "{deal_id} is open again in {result.stage}, expected to close {result.close_date}.",
])
def reopen_deal(ctx: Ctx, deal_id: MyClosedDealId, stage: OpenStage = "negotiation",
                close_date: str | None = None) -> Deal:
    """Reopen a won or lost deal you own, back into an open stage.

    Args:
        deal_id: ID of the closed deal, such as 'DEAL-10006'.
        stage: the open stage to reopen it in: 'prospecting', 'qualification', 'proposal' or 'negotiation' (default).
        close_date: new expected close date, today or later, such as '2026-05-15'; default: 30 days from today.

    Returns:
        The reopened deal with its stage history.

    Raises:
        not_found: the deal does not exist.
        not_owner: the deal belongs to another rep.
        deal_not_closed: the deal is still open.
        invalid_date: `close_date` is not a date.
        close_date_in_past: `close_date` is before today.
    """
    row = ctx.get("deal", deal_id)
    require_owner(ctx, row, "deal")
    if row["stage"] in OPEN_STAGES:
        raise ToolError("deal_not_closed", f"'{row['name']}' is open (in {row['stage']}); only closed deals can be "
                        "reopened.", hint="Use update_deal_stage to move an open deal.")
    close = future_close_date(ctx, close_date) if close_date is not None else \
        (ctx.today() + timedelta(days=30)).isoformat()
    ctx.db.execute("UPDATE deals SET stage = ?, probability = ?, close_date = ?, closed_at = NULL, loss_reason = NULL, "
                   "updated_at = ? WHERE deal_id = ?", (stage, probability(stage), close, ctx.now_iso(), deal_id))
    record_stage(ctx, deal_id, row["stage"], stage)
    return deal_model(ctx, deal_id)


@tools.tool(effect=WRITE, asks=[
    "Hand {deal_id} over to {owner_id}.",
    "Reassign {deal_id} to {owner_id}, they're taking over the account.",
    "{owner_id} should own {deal_id} from now on.",
], reply=[
    "{deal_id} now belongs to {owner_id}.",
    "Handed '{result.name}' over to {result.owner_name}.",
])
def reassign_deal(ctx: Ctx, deal_id: MyOpenDealId, owner_id: OtherActiveRepId) -> Deal:
    """Hand an open deal you own to another active rep (after that, only they can change it).

    Args:
        deal_id: ID of the deal, such as 'DEAL-10003'.
        owner_id: ID of the rep taking it over, such as 'REP-10003'.

    Returns:
        The deal with its new owner.

    Raises:
        not_found: the deal or the rep does not exist.
        not_owner: the deal belongs to another rep.
        deal_closed: the deal is won or lost.
        rep_inactive: the rep has left the company.
    """
    row = ctx.get("deal", deal_id)
    require_owner(ctx, row, "deal")
    _require_open(row)
    active_rep(ctx, owner_id)
    ctx.db.execute("UPDATE deals SET owner_id = ?, updated_at = ? WHERE deal_id = ?", (owner_id, ctx.now_iso(), deal_id))
    return deal_model(ctx, deal_id)


@tools.tool(effect=READ, asks=[
    Ask("How does my pipeline look?", mine=True),
    "How does the team's pipeline look?",
    Ask("What's the pipeline of {owner_id} this quarter, and how close are they to quota?",
        fits={"owner_id": "quota > 0"}),
    Ask("How far am I from my quota this quarter?", mine=True),
], reply=[
    # An empty pipeline is said too ("no open deals, and nothing won this quarter yet"), not read out field by field.
    Ask("The team has {result.summary_text}.", owner_id=None, mine=False),
    Ask("You have {result.summary_text}.", owner_id=None, mine=True),
    "{result.owner_name} has {result.summary_text}.",
])
def pipeline_summary(ctx: Ctx, owner_id: OtherRepId | None = None, mine: bool = False) -> PipelineSummary:
    """Summarize a pipeline by stage: open deals per stage and what was won and lost this quarter.

    Args:
        owner_id: summarize this rep's deals, such as 'REP-10003'.
        mine: summarize your own deals (with your quota attainment).

    Returns:
        For each stage the number of deals, their amount and weighted amount (open stages: all
        open deals; closed stages: deals closed this quarter), the open and weighted totals,
        the amounts won and lost this quarter and, for one rep, their quota and attainment.
        Without `owner_id` or `mine`, the whole team.

    Raises:
        not_found: `owner_id` is not a rep.
    """
    rep = ctx.get("rep", owner_id) if owner_id is not None else (me(ctx) if mine else None)
    start, end, label = quarter_of(ctx.today())
    where = Where()
    if rep is not None:
        where.add("owner_id = ?", rep["rep_id"])
    rows = ctx.db.execute(f"SELECT * FROM deals WHERE {where.sql}", where.params).fetchall()
    stages = []
    for stage in STAGES:
        picked = [r for r in rows if r["stage"] == stage and
                  (stage in OPEN_STAGES or start.isoformat() <= (r["closed_at"] or "")[:10] <= end.isoformat())]
        amount = round(sum(r["amount"] for r in picked), 2)
        weighted = round(sum(r["amount"] * r["probability"] / 100 for r in picked), 2)
        stages.append(StageSummary(stage=stage, count=len(picked), amount=amount, weighted_amount=weighted))
    open_ = [s for s in stages if s.stage in OPEN_STAGES]
    won = next(s.amount for s in stages if s.stage == "closed_won")
    lost = next(s.amount for s in stages if s.stage == "closed_lost")
    quota = rep["quota"] if rep is not None and rep["quota"] else None
    return PipelineSummary(owner_id=rep["rep_id"] if rep is not None else None,
                           owner_name=rep["name"] if rep is not None else None, quarter=label, stages=stages,
                           open_count=sum(s.count for s in open_), open_amount=round(sum(s.amount for s in open_), 2),
                           weighted_amount=round(sum(s.weighted_amount for s in open_), 2), won_this_quarter=won,
                           lost_this_quarter=lost, quota=quota,
                           attainment_percent=round(100 * won / quota, 1) if quota else None,
                           summary_text=_pipeline_text(open_, won, quota, 'your' if mine else 'the'))


def _pipeline_text(open_: list[StageSummary], won: float, quota: float | None, whose: str) -> str:
    """'11 open deals worth $1,061,400 ($472,150 weighted), and $545,000 won this quarter, 155.7% of the $350,000
    quota', or 'no open deals, and nothing won this quarter yet'."""
    count = sum(s.count for s in open_)
    deals = (f"{count} open deal{'' if count == 1 else 's'} worth {dollars(round(sum(s.amount for s in open_), 2))} "
             f"({dollars(round(sum(s.weighted_amount for s in open_), 2))} weighted)" if count else "no open deals")
    wins = f"{dollars(won)} won this quarter" if won else "nothing won this quarter yet"
    if not quota:
        return f"{deals}, and {wins}"
    share = f", {round(100 * won / quota, 1):g}% of" if won else " against"
    return f"{deals}, and {wins}{share} {whose} {dollars(quota)} quota"
