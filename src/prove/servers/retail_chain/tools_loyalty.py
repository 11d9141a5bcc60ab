"""Retail chain tools: the loyalty account, reward certificates and purchase receipts."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Annotated

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, said_in_part

from .server import (
    ActivityId,
    CertificateId,
    CustomerId,
    Limit,
    LoyaltyId,
    Pin,
    ProductId,
    PurchaseId,
    ReservationId,
    StoreId,
    loyalty_row,
)
from .world import CERTIFICATE_DAYS, POINTS_PER_DOLLAR, TIER_MULTIPLIER

tools = Toolset("loyalty")

POINTS_STEP = 500  # points are redeemed in blocks of 500 ($5)


class Certificate(BaseModel):
    certificate_id: CertificateId
    value: float
    points_cost: int
    status: str = Field(description="'available', 'used' or 'expired'.")
    issued_at: str
    expires_on: str
    used_at: str | None


class PointsActivity(BaseModel):
    activity_id: ActivityId
    occurred_at: str
    points: int = Field(description="Positive when earned, negative when spent.")
    description: str


class LoyaltyAccount(BaseModel):
    loyalty_id: LoyaltyId
    customer_id: CustomerId
    name: str
    email: str
    card_number: str
    tier: str = Field(description="'Silver', 'Gold' or 'Platinum'; Gold earns 1.25 and Platinum 1.5 points per dollar.")
    points: int
    points_value: float = Field(description="What the points are worth in certificates, in dollars (100 points = $1).")
    lifetime_points: int
    points_per_dollar: float
    home_store_id: StoreId
    home_store_name: str
    certificates: list[Certificate]
    certificates_text: str = Field(description="The certificates that can be used, in words, and how many others were "
                                               "used or expired, such as '$10 (CRT-10006, available until June 14, "
                                               "2026), besides 2 used or expired'.")
    recent_activity: list[PointsActivity]


class PurchaseLine(BaseModel):
    product_id: ProductId
    product_name: str
    quantity: int
    unit_price: float


class Purchase(BaseModel):
    purchase_id: PurchaseId
    store_id: StoreId
    summary: str = Field(description="What was bought, such as 'Catan Board Game and 2 × Yoga Mat 6 mm'.")
    store_name: str
    purchased_at: str
    items: list[PurchaseLine]
    subtotal: float
    certificate_id: CertificateId | None
    discount: float
    tax: float
    total: float
    points_earned: int
    reservation_id: ReservationId | None


class PurchaseList(BaseModel):
    purchases: list[Purchase]
    total: int
    purchases_text: str = Field(description="The latest purchases in words, such as 'Catan Board Game ($43.29 at "
                                            "Harbor Supply Co. Proctor on March 5)'.")


def _purchases_text(purchases: list[Purchase], total: int, today: date, one_store: bool) -> str:
    """'Catan Board Game ($43.29 at Harbor Supply Co. Proctor on March 5) and ... and 13 more'; at one
    store, the store is not said of each."""
    def one(p: Purchase) -> str:
        day = date.fromisoformat(p.purchased_at[:10])
        when = f"{day:%B} {day.day}" + ("" if day.year == today.year else f", {day.year}")
        return f"{p.summary} (${p.total:,.2f}{'' if one_store else f' at {p.store_name}'} on {when})"
    return said_in_part([one(p) for p in purchases[:5]], total, "no purchases", noun="purchase")


class LoyaltyPin(BaseModel):
    loyalty_id: LoyaltyId
    pin: Pin


def _certificate(row, today: str) -> Certificate:  # noqa: ANN001 - a sqlite3.Row
    status = "expired" if row["status"] == "available" and row["expires_on"] < today else row["status"]
    return Certificate(certificate_id=row["certificate_id"], value=row["value"], points_cost=row["points_cost"],
                       status=status, issued_at=row["issued_at"], expires_on=row["expires_on"], used_at=row["used_at"])


@tools.tool(effect=READ, asks=[
    "How many loyalty points do I have?",
    "Show my rewards account and certificates.",
    "What tier am I in your rewards program?",
], reply=[
    "You're in the {result.tier} tier with {result.points} points; your reward certificates: "
    "{result.certificates_text}.",
    "You have {result.points} points at the {result.tier} tier. Certificates: {result.certificates_text}.",
    "You're in the {result.tier} tier.",
    "You have {result.points} points.",
])
def get_loyalty_account(ctx: Ctx) -> LoyaltyAccount:
    """Show the customer's loyalty account: tier, points and their value, certificates and recent activity.

    Returns:
        The account with its card number, tier, points balance and dollar value, lifetime points,
        the customer's home store, every reward certificate (available, used or expired) and the ten
        latest points entries.
    """
    loyalty = loyalty_row(ctx)
    customer = ctx.db.execute("SELECT c.*, s.name AS store_name FROM customers c "
                              "JOIN stores s ON s.store_id = c.home_store_id").fetchone()
    today = ctx.today().isoformat()
    certs = [_certificate(r, today) for r in
             ctx.db.execute("SELECT * FROM certificates ORDER BY issued_at DESC, certificate_id")]
    activity = [PointsActivity(activity_id=r["activity_id"], occurred_at=r["occurred_at"], points=r["points"],
                               description=r["description"]) for r in
                ctx.db.execute("SELECT * FROM points_activity ORDER BY occurred_at DESC, activity_id DESC LIMIT 10")]
    return LoyaltyAccount(loyalty_id=loyalty["loyalty_id"], customer_id=customer["customer_id"], name=customer["name"],
                          email=customer["email"], card_number=loyalty["card_number"], tier=loyalty["tier"],
                          points=loyalty["points"], points_value=loyalty["points"] / POINTS_PER_DOLLAR,
                          lifetime_points=loyalty["lifetime_points"],
                          points_per_dollar=TIER_MULTIPLIER[loyalty["tier"]],
                          home_store_id=customer["home_store_id"], home_store_name=customer["store_name"],
                          certificates=certs, certificates_text=_certificates_text(certs), recent_activity=activity)


def _bought(lines: list[PurchaseLine]) -> str:
    """'Catan Board Game and 2 × Yoga Mat 6 mm'; past three lines, 'and N more'."""
    named = [line.product_name if line.quantity == 1 else f"{line.quantity} × {line.product_name}" for line in lines]
    if len(named) > 3:
        return f"{', '.join(named[:2])} and {len(named) - 2} more"
    return " and ".join([", ".join(named[:-1]), named[-1]]) if len(named) > 1 else "".join(named)


def _certificates_text(certs: list[Certificate]) -> str:
    """The certificates that can be used, each with its code ('$10 (CRT-10006, available until June
    14, 2026)'), and how many others were used or expired."""
    def one(c: Certificate) -> str:
        money = f"${c.value:,.0f}" if float(c.value).is_integer() else f"${c.value:,.2f}"
        until = date.fromisoformat(c.expires_on)
        return f"{money} ({c.certificate_id}, available until {until:%B} {until.day}, {until.year})"
    if not certs:
        return "no reward certificates"
    named = [one(c) for c in certs if c.status == "available"]
    text = (" and ".join([", ".join(named[:-1]), named[-1]]) if len(named) > 1 else named[0]) if named \
        else "none to use now"
    spent = len(certs) - len(named)
    return text + (f", besides {spent} used or expired" if spent else "")


@tools.tool(effect=WRITE, asks=[
    "Turn {points} of my points into a reward certificate; my PIN is {pin}.",
    "Redeem {points} loyalty points, PIN {pin}.",
], reply=[
    "Redeemed {points} points for {result.certificate_id}, worth ${result.value} and valid until "
    "{result.expires_on}.",
    "Done: you have a new ${result.value} reward certificate, {result.certificate_id}.",
])
def redeem_points(ctx: Ctx, points: Annotated[int, Field(ge=1, le=1_000_000)], pin: Pin) -> Certificate:
    """Redeem loyalty points for a reward certificate (500 points = $5), valid for 90 days.

    Certificates are applied when collecting a reservation (collect_reservation).

    Args:
        points: points to redeem, a multiple of 500, such as 1000.
        pin: the 4-digit loyalty PIN the customer chose, such as '4821'.

    Returns:
        The new certificate with its value and expiry date.

    Raises:
        wrong_pin: the PIN does not match the loyalty account's.
        invalid_points_amount: the points are not a multiple of 500.
        insufficient_points: the account has fewer points than requested.
    """
    loyalty = loyalty_row(ctx)
    if pin.strip() != loyalty["pin"]:
        raise ToolError("wrong_pin", "The loyalty PIN is wrong.",
                        hint="Ask the customer for their 4-digit loyalty PIN.")
    if points % POINTS_STEP:
        raise ToolError("invalid_points_amount", f"Points are redeemed in blocks of {POINTS_STEP}; {points} is not.",
                        hint=f"Try {max(POINTS_STEP, points // POINTS_STEP * POINTS_STEP)} points.")
    if points > loyalty["points"]:
        raise ToolError("insufficient_points", f"The account has {loyalty['points']} points, fewer than {points}.",
                        hint=f"Redeem at most {loyalty['points'] // POINTS_STEP * POINTS_STEP} points.")
    now = ctx.now()
    certificate_id = ctx.new_id("CRT")
    value = points / POINTS_PER_DOLLAR
    ctx.db.execute("INSERT INTO certificates VALUES (?, ?, ?, ?, 'available', ?, ?, NULL)",
                   (certificate_id, loyalty["loyalty_id"], value, points, iso(now),
                    (now.date() + timedelta(days=CERTIFICATE_DAYS)).isoformat()))
    ctx.db.execute("UPDATE loyalty_accounts SET points = points - ? WHERE loyalty_id = ?",
                   (points, loyalty["loyalty_id"]))
    ctx.db.execute("INSERT INTO points_activity VALUES (?, ?, ?, ?, ?)",
                   (ctx.new_id("PTS"), loyalty["loyalty_id"], iso(now), -points,
                    f"Redeemed for ${value:.0f} reward certificate {certificate_id}"))
    row = ctx.db.execute("SELECT * FROM certificates WHERE certificate_id = ?", (certificate_id,)).fetchone()
    return _certificate(row, ctx.today().isoformat())


@tools.tool(effect=READ, asks=[
    "What have I bought recently?",
    "Show my receipts from {store_id}.",
    "What did I buy at {store_id}?",
], reply=[
    Ask("Your latest purchases: {result.purchases_text}.", store_id=None),
    Ask("Here's what you've bought lately: {result.purchases_text}.", store_id=None),
    "At {store_id} you bought {result.purchases_text}.",
])
def list_purchases(ctx: Ctx, store_id: StoreId | None = None, limit: Limit = 10) -> PurchaseList:
    """List the customer's purchase receipts, newest first.

    Args:
        store_id: only purchases at this store, such as 'STR-10001'.
        limit: most purchases to return, 1 to 50, such as 10.

    Returns:
        Receipts with store, items, subtotal, certificate discount, tax, total and points earned, and
        the total number of receipts.

    Raises:
        not_found: no store has that ID.
    """
    where, params = "1", []
    if store_id is not None:
        ctx.get("store", store_id)
        where, params = "p.store_id = ?", [store_id]
    total = ctx.db.execute(f"SELECT count(*) FROM purchases p WHERE {where}", params).fetchone()[0]
    rows = ctx.db.execute(f"SELECT p.*, s.name AS store_name FROM purchases p JOIN stores s ON s.store_id = p.store_id "
                          f"WHERE {where} ORDER BY p.purchased_at DESC, p.purchase_id DESC LIMIT ?",
                          (*params, limit)).fetchall()
    out = []
    for r in rows:
        lines = [PurchaseLine(product_id=i["product_id"], product_name=i["name"], quantity=i["quantity"],
                              unit_price=i["unit_price"]) for i in
                 ctx.db.execute("SELECT i.*, p.name FROM purchase_items i "
                                "JOIN products p ON p.product_id = i.product_id "
                                "WHERE i.purchase_id = ? ORDER BY i.line", (r["purchase_id"],))]
        out.append(Purchase(purchase_id=r["purchase_id"], store_id=r["store_id"], summary=_bought(lines),
                            store_name=r["store_name"],
                            purchased_at=r["purchased_at"], items=lines, subtotal=r["subtotal"],
                            certificate_id=r["certificate_id"], discount=r["discount"], tax=r["tax"],
                            total=r["total"], points_earned=r["points_earned"], reservation_id=r["reservation_id"]))
    return PurchaseList(purchases=out, total=total,
                        purchases_text=_purchases_text(out, total, ctx.today(), store_id is not None))


@tools.tool(effect=READ, hidden=True)
def get_loyalty_pin(ctx: Ctx) -> LoyaltyPin:
    """Return the customer's loyalty PIN, for the pipeline to put in a user turn (never shown to a model).

    Returns:
        The loyalty account ID and its 4-digit PIN.
    """
    loyalty = loyalty_row(ctx)
    return LoyaltyPin(loyalty_id=loyalty["loyalty_id"], pin=loyalty["pin"])
