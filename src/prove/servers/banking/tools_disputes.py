"""Banking tools: disputes of card charges and fees."""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, money

from .server import AccountId, DisputableId, DisputeId, TransactionId, Where
from .world import DISPUTABLE_KINDS, DISPUTE_WINDOW_DAYS

tools = Toolset("disputes")

Reason = Literal["unauthorized", "duplicate", "wrong_amount", "not_received", "not_as_described", "cancelled",
                 "other"]

# ----- models -------------------------------------------------------------------------------------


class Dispute(BaseModel):
    """A claim that a charge is wrong, and where the bank is with it."""

    dispute_id: DisputeId
    transaction_id: TransactionId
    account_id: AccountId
    merchant: str
    amount: float = Field(description="The disputed amount, positive.")
    reason: Reason
    details: str | None
    status: Literal["open", "under_review", "resolved"]
    resolution: Literal["refunded", "denied"] | None = Field(description="How a resolved dispute ended.")
    opened_at: str
    resolved_at: str | None


class DisputeList(BaseModel):
    disputes: list[Dispute]
    total: int
    disputes_text: str = Field(description="The disputes in words, such as 'the $85.33 charge at Olive Garden (a "
                                           "duplicate, under review)'.")


_REASON_WORDS = {"unauthorized": "unauthorized", "duplicate": "a duplicate", "wrong_amount": "the wrong amount",
                 "not_received": "never received", "not_as_described": "not as described",
                 "cancelled": "after a cancellation", "other": ""}
_STANDING = {"open": "open", "under_review": "under review", "refunded": "refunded", "denied": "denied"}


def _disputes_text(disputes: list[Dispute], status: str) -> str:
    """'the $85.33 charge at Olive Garden (a duplicate, under review) and the $45.52 charge at Target
    (unauthorized, refunded)'; a listing of one status does not say it of each."""
    def one(d: Dispute) -> str:
        standing = _STANDING[d.resolution or d.status] if status in ("all", "resolved") else ""
        about = ", ".join(p for p in (_REASON_WORDS[d.reason], standing) if p)
        return f"the ${d.amount:,.2f} charge at {d.merchant}" + (f" ({about})" if about else "")
    said = [one(d) for d in disputes]
    if not said:
        return "no disputes"
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


_DISPUTE_SQL = ("SELECT d.*, t.account_id FROM disputes d "
                "JOIN transactions t ON t.transaction_id = d.transaction_id")


def _dispute(row: sqlite3.Row) -> Dispute:
    return Dispute(**{k: row[k] for k in Dispute.model_fields})


# ----- tools --------------------------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    Ask("Please dispute {transaction_id}; I never made that charge.", reason="unauthorized"),
    Ask("Dispute {transaction_id} for me, I was charged twice.", reason="duplicate"),
    Ask("Open a dispute on {transaction_id}: it charged me the wrong amount. Tell them: {details}",
        reason="wrong_amount"),
    Ask("Open a dispute on {transaction_id}; I paid for it, but the order never arrived.", reason="not_received",
        fits={"transaction_id": "category = 'shopping'"}),  # an order, not a clinic visit or a ride
], reply=[
    "I've opened dispute {result.dispute_id} for the ${result.amount} charge at {result.merchant}.",
    "Your dispute of {transaction_id} is open as {result.dispute_id}; we'll let you know how it turns out.",
], values={
    # Only the wrong-amount phrasing says the details; each stays with the reason it explains.
    "reason, details": [
        ("wrong_amount", "The receipt shows a lower total than what I was charged."),
        ("wrong_amount", "The tip was added twice to the total."),
        ("wrong_amount", "I was quoted one price at the register and charged more."),
        ("wrong_amount", "The discount I was promised was never applied."),
    ],
})
def open_dispute(ctx: Ctx, transaction_id: DisputableId, reason: Reason,
                 details: Annotated[str, Field(max_length=1000)] | None = None) -> Dispute:
    """Dispute a posted card purchase or fee the customer believes is wrong.

    A charge can be disputed up to 60 days after it was made, once it has posted, and only
    once. Transfers, payments, deposits and other lines cannot be disputed.

    Args:
        transaction_id: ID of the charge to dispute, such as 'TRX-10231'.
        reason: 'unauthorized' (the customer did not make it), 'duplicate' (charged twice),
            'wrong_amount', 'not_received', 'not_as_described', 'cancelled' (charged after
            cancelling) or 'other'.
        details: what happened in the customer's words, such as 'The order never arrived.'

    Returns:
        The new dispute with its ID and status 'open'.

    Raises:
        not_found: no transaction has that ID.
        already_disputed: a dispute was already opened on this transaction.
        not_disputable: the transaction is not a card purchase or fee.
        transaction_pending: the charge has not posted yet.
        outside_dispute_window: the charge was made more than 60 days ago.
    """
    row = ctx.get("transaction", transaction_id)
    existing = ctx.db.execute("SELECT dispute_id, status FROM disputes WHERE transaction_id = ?",
                              (transaction_id,)).fetchone()
    if existing is not None:
        raise ToolError("already_disputed", f"Transaction {transaction_id} is already disputed in "
                        f"{existing['dispute_id']} ({existing['status']}).",
                        hint=f"Call get_dispute with {existing['dispute_id']} to follow it.")
    if row["kind"] not in DISPUTABLE_KINDS or row["amount"] >= 0:
        raise ToolError("not_disputable", f"Transaction {transaction_id} is a {row['kind']}, not a card charge.",
                        hint="Only card purchases and fees can be disputed; for a payment, contact the payee.")
    if row["status"] == "pending":
        raise ToolError("transaction_pending", f"Transaction {transaction_id} is still pending.",
                        hint="Wait until it posts (usually within two days); a pending charge may still change.")
    made = date.fromisoformat(row["occurred_at"][:10])
    deadline = made + timedelta(days=DISPUTE_WINDOW_DAYS)
    if ctx.today() > deadline:
        raise ToolError("outside_dispute_window", f"Charges can be disputed for {DISPUTE_WINDOW_DAYS} days; this "
                        f"one was made on {made}, so the window closed on {deadline}.",
                        hint="The bank cannot dispute it; the customer can contact the merchant directly.")
    dispute_id = ctx.new_id("DSP")
    ctx.db.execute(
        "INSERT INTO disputes (dispute_id, transaction_id, merchant, amount, reason, details, status, resolution, "
        "opened_at, resolved_at) VALUES (?, ?, ?, ?, ?, ?, 'open', NULL, ?, NULL)",
        (dispute_id, transaction_id, row["merchant"], money(-row["amount"]), reason,
         (" ".join(details.split()) or None) if details else None, iso(ctx.now())))
    return _dispute(ctx.db.execute(f"{_DISPUTE_SQL} WHERE d.dispute_id = ?", (dispute_id,)).fetchone())


@tools.tool(effect=READ, asks=[
    Ask("What disputes do I have open?", status="open"),
    Ask("Have any of my disputes been resolved yet?", status="resolved"),
    "Have I disputed anything on {account_id}?",
    Ask("Which of my disputes are still under review?", status="under_review"),
], reply=[
    "You've disputed {result.disputes_text}.",
    Ask("Your open disputes: {result.disputes_text}.", status="open"),
    Ask("Under review: {result.disputes_text}.", status="under_review"),
    Ask("Resolved: {result.disputes_text}.", status="resolved"),
])
def list_disputes(ctx: Ctx, status: Literal["open", "under_review", "resolved", "all"] = "all",
                  account_id: AccountId | None = None) -> DisputeList:
    """List the customer's disputes, newest first.

    Args:
        status: 'open', 'under_review', 'resolved' or 'all' (the default).
        account_id: only disputes of charges on this account, such as 'ACC-10004'.

    Returns:
        The disputes (ID, transaction, account, merchant, amount, reason, status, resolution,
        dates) and how many there are.

    Raises:
        not_found: `account_id` does not exist.
    """
    where = Where(ctx).add("d.status = ?", None if status == "all" else status)
    where.entity("account", "t.account_id = ?", account_id)
    rows = ctx.db.execute(f"{_DISPUTE_SQL}{where} ORDER BY d.opened_at DESC, d.dispute_id DESC",
                          where.params).fetchall()
    disputes = [_dispute(r) for r in rows]
    return DisputeList(disputes=disputes, total=len(rows), disputes_text=_disputes_text(disputes, status))


@tools.tool(effect=READ, asks=[
    "What's the status of {dispute_id}?",
    "Did I get my money back for {dispute_id}?",
], reply=[
    Ask("The ${result.amount} dispute with {result.merchant} is still open, so no money has come back yet.",
        **{"result.status": "open"}),
    Ask("The ${result.amount} dispute with {result.merchant} is under review; no money has come back yet.",
        **{"result.status": "under_review"}),
    Ask("The ${result.amount} dispute with {result.merchant} was resolved in your favor, and the money was "
        "refunded.", **{"result.resolution": "refunded"}),
    Ask("The ${result.amount} dispute with {result.merchant} was denied, so no money came back.",
        **{"result.resolution": "denied"}),
])
def get_dispute(ctx: Ctx, dispute_id: DisputeId) -> Dispute:
    """Show one dispute and where it stands.

    Args:
        dispute_id: ID of the dispute, such as 'DSP-10001'.

    Returns:
        The dispute: the transaction, merchant, amount, reason, details, status ('open',
        'under_review' or 'resolved'), the resolution ('refunded' or 'denied') and dates.

    Raises:
        not_found: no dispute has that ID.
    """
    ctx.get("dispute", dispute_id)
    return _dispute(ctx.db.execute(f"{_DISPUTE_SQL} WHERE d.dispute_id = ?", (dispute_id,)).fetchone())
