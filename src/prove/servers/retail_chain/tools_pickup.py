"""Retail chain tools: click-and-collect reservations, pickup, and store-to-store transfers."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, money, said_in_part

from .server import (
    MAX_ACTIVE_RESERVATIONS,
    RESERVATION_SQL,
    ActiveReservationId,
    AvailableCertificateId,
    CertificateId,
    InTransitTransferId,
    Limit,
    OpenStoreId,
    PickupStoreId,
    ProductId,
    PurchaseId,
    Reservation,
    StoreId,
    TransferId,
    is_open,
    loyalty_row,
    next_opening,
    require_open,
    reservation_model,
    reservation_row,
    reservation_status,
    settle,
    transfer_status,
    units,
    weekly_hours,
)
from .world import EXTENSION_HOURS, RESERVATION_HOURS, TIER_MULTIPLIER

tools = Toolset("pickup")

Quantity = Annotated[int, Field(ge=1, le=20)]


class ReservationList(BaseModel):
    reservations: list[Reservation]
    total: int
    reservations_text: str = Field(description="The reservations in words, such as '2 of the Digital Bathroom Scale "
                                               "at Harbor Supply Co. Tacoma Mall (RES-10006, held until March 17 at "
                                               "6:00 PM)'.")


def _when(at: str, today: date) -> str:
    """'March 17 at 6:00 PM' (with the year where it is not this one)."""
    t = datetime.fromisoformat(at)
    day = f"{t:%B} {t.day}" + ("" if t.year == today.year else f", {t.year}")
    return f"{day} at {t.hour % 12 or 12}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


def _reservations_text(items: list[Reservation], total: int, today: date) -> str:
    """What each reservation holds, where, and until when (or that it was collected, cancelled or expired)."""
    def one(r: Reservation) -> str:
        what = f"the {r.product_name}" if r.quantity == 1 else f"{r.quantity} of the {r.product_name}"
        state = f"held until {_when(r.expires_at, today)}" if r.status == "active" else r.status
        return f"{what} at {r.store_name} ({r.reservation_id}, {state})"
    return said_in_part([one(r) for r in items[:5]], total, "no reservations")


class Pickup(BaseModel):
    reservation: Reservation
    purchase_id: PurchaseId
    subtotal: float
    certificate_id: CertificateId | None
    discount: float
    tax: float
    total: float = Field(description="What the customer paid at the counter.")
    points_earned: int
    points_balance: int


class Transfer(BaseModel):
    transfer_id: TransferId
    product_id: ProductId
    product_name: str
    from_store_id: StoreId
    from_store_name: str
    to_store_id: StoreId
    to_store_name: str
    quantity: int
    status: str = Field(description="'in_transit', 'received' (available at the destination) or 'cancelled'.")
    requested_at: str
    arrives_at: str


class TransferList(BaseModel):
    transfers: list[Transfer]
    total: int
    transfers_text: str = Field(description="The transfers in words, such as '2 of the 25 ft Tape Measure from "
                                            "Harbor Supply Co. Capitol Hill to Harbor Supply Co. Tacoma Mall (TRF-10001, "
                                            "arriving March 18 at 9:00 AM)'.")


def _transfers_text(transfers: list[Transfer], total: int, today: date) -> str:
    """What each transfer moves from where to where, and when it arrives (or that it was cancelled)."""
    def one(t: Transfer) -> str:
        what = f"the {t.product_name}" if t.quantity == 1 else f"{t.quantity} of the {t.product_name}"
        state = {"in_transit": f"arriving {_when(t.arrives_at, today)}",
                 "received": f"arrived {_when(t.arrives_at, today)}"}.get(t.status, t.status)
        return f"{what} from {t.from_store_name} to {t.to_store_name} ({t.transfer_id}, {state})"
    return said_in_part([one(t) for t in transfers[:5]], total, "no transfers")


TRANSFER_SQL = ("SELECT t.*, p.name AS product_name, f.name AS from_name, d.name AS to_name FROM transfers t "
                "JOIN products p ON p.product_id = t.product_id JOIN stores f ON f.store_id = t.from_store_id "
                "JOIN stores d ON d.store_id = t.to_store_id")


def _transfer(ctx: Ctx, row) -> Transfer:  # noqa: ANN001 - a sqlite3.Row
    return Transfer(transfer_id=row["transfer_id"], product_id=row["product_id"], product_name=row["product_name"],
                    from_store_id=row["from_store_id"], from_store_name=row["from_name"],
                    to_store_id=row["to_store_id"], to_store_name=row["to_name"], quantity=row["quantity"],
                    status=transfer_status(row, ctx.now()), requested_at=row["requested_at"],
                    arrives_at=row["arrives_at"])


def _transfer_row(ctx: Ctx, transfer_id: str):  # noqa: ANN202 - a sqlite3.Row
    """The transfer with its product's and stores' names (`not_found` from `ctx.get`)."""
    return ctx.get("transfer", transfer_id, TRANSFER_SQL + " WHERE t.transfer_id = ?")


@tools.tool(effect=WRITE, asks=[
    "Reserve {quantity} of {product_id} for pickup at {store_id}.",
    "Can you hold {product_id} for me at {store_id}? I'll pick it up.",
    "Put {quantity} of {product_id} on hold at {store_id} for click-and-collect.",
], reply=[
    "Reserved {result.quantity} of {product_id} at {result.store_name}; it's held until "
    "{result.expires_at} under {result.reservation_id}.",
    "Done: {store_id} is holding {result.quantity} of {product_id} for you until {result.expires_at}.",
])
def reserve_for_pickup(ctx: Ctx, store_id: PickupStoreId, product_id: ProductId, quantity: Quantity = 1) -> Reservation:
    """Reserve units of a product at a store for click-and-collect; they are held for 48 hours.

    The store price at reservation time is honoured at pickup. Reserved units are no longer
    available to others. Reserving works at any hour; collecting needs the store to be open.

    Args:
        store_id: ID of the store to pick up from, such as 'STR-10002'.
        product_id: ID of the product, such as 'PRD-10001'.
        quantity: how many units to hold, 1 to 20 (default 1).

    Returns:
        The new active reservation with its price and the time it expires.

    Raises:
        not_found: no store or product has that ID.
        pickup_unavailable: the store does not offer click-and-collect or is temporarily closed.
        not_carried: the store does not carry this product.
        insufficient_stock: the store has fewer units available than `quantity`.
        reservation_limit_reached: the customer already has 5 active reservations.
    """
    store = ctx.get("store", store_id)
    product = ctx.get("product", product_id)
    if store["status"] != "open" or not store["offers_pickup"]:
        why = ((store["status_note"] or "It is temporarily closed.") if store["status"] != "open"
               else "It is an express store without click-and-collect.")
        raise ToolError("pickup_unavailable", f"{store['name']} does not take pickup reservations. {why}",
                        hint="Find a store that does with find_stores(pickup_only=true).")
    row = units(ctx, store, product, quantity,
                short_hint="Reserve fewer, try another store (check_availability), or request_transfer.")
    now = ctx.now()
    active = ctx.db.execute("SELECT count(*) FROM reservations WHERE status = 'active' AND expires_at > ?",
                            (iso(now),)).fetchone()[0]
    if active >= MAX_ACTIVE_RESERVATIONS:
        raise ToolError("reservation_limit_reached", f"You already have {active} active reservations, the most "
                        "allowed.", hint="Collect or cancel one first.")
    reservation_id = ctx.new_id("RES")
    ctx.db.execute(
        "INSERT INTO reservations (reservation_id, store_id, product_id, quantity, unit_price, status, created_at, "
        "expires_at, extended) VALUES (?, ?, ?, ?, ?, 'active', ?, ?, 0)",
        (reservation_id, store_id, product_id, quantity, row["price"], iso(now),
         iso(now + timedelta(hours=RESERVATION_HOURS))))
    return reservation_model(reservation_row(ctx, reservation_id), now)


@tools.tool(effect=READ, asks=[
    Ask("What do I have on hold for pickup?", status="active"),
    Ask("Show my active reservations.", status="active"),
    "Show all my pickup reservations, past ones too.",
    Ask("Which of my reservations have expired?", status="expired"),
    Ask("List the reservations I've already collected.", status="collected"),
], reply=[
    Ask("Your reservations: {result.reservations_text}.", status=None),
    Ask("Here's what you have on hold and what you've picked up: {result.reservations_text}.", status=None),
    "Here's what I found: {result.reservations_text}.",
])
def list_reservations(ctx: Ctx, status: Literal["active", "collected", "cancelled", "expired"] | None = None,
                      limit: Limit = 20) -> ReservationList:
    """List the customer's click-and-collect reservations, newest first.

    Args:
        status: only this status: 'active', 'collected', 'cancelled' or 'expired'.
        limit: most reservations to return, 1 to 50, such as 20.

    Returns:
        Reservations with store, product, quantity, price, status and expiry time, and the total.
    """
    now = ctx.now()
    rows = ctx.db.execute(RESERVATION_SQL + " ORDER BY r.created_at DESC, r.reservation_id").fetchall()
    items = [reservation_model(r, now) for r in rows]
    if status is not None:
        items = [r for r in items if r.status == status]
    return ReservationList(reservations=items[:limit], total=len(items),
                           reservations_text=_reservations_text(items[:limit], len(items), ctx.today()))


def _open_reservation(ctx: Ctx, reservation_id: str, verb: str):  # noqa: ANN202 - a sqlite3.Row
    row = reservation_row(ctx, reservation_id)
    status = reservation_status(row, ctx.now())
    if status == "expired":
        raise ToolError("reservation_expired", f"{reservation_id} expired at {row['expires_at']} and no longer "
                        "holds stock.", hint="Make a new reservation with reserve_for_pickup.")
    if status != "active":
        raise ToolError("reservation_not_active", f"{reservation_id} is {status} and cannot be {verb}.")
    return row


@tools.tool(effect=WRITE, asks=[
    "Cancel {reservation_id}.",
    "Release {reservation_id}; I don't need it anymore.",
], reply=[
    "Cancelled {reservation_id}; the store no longer holds the {result.product_name} for you.",
    "Done: {reservation_id} is cancelled and {result.store_name} no longer holds it.",
])
def cancel_reservation(ctx: Ctx, reservation_id: ActiveReservationId) -> Reservation:
    """Cancel one of the customer's active reservations; its units become available again.

    Args:
        reservation_id: ID of the reservation, such as 'RES-10003'.

    Returns:
        The reservation, now 'cancelled'.

    Raises:
        not_found: no reservation has that ID.
        reservation_expired: the reservation already expired.
        reservation_not_active: the reservation was already collected or cancelled.
    """
    _open_reservation(ctx, reservation_id, "cancelled")
    ctx.db.execute("UPDATE reservations SET status = 'cancelled', closed_at = ? WHERE reservation_id = ?",
                   (iso(ctx.now()), reservation_id))
    return reservation_model(reservation_row(ctx, reservation_id), ctx.now())


@tools.tool(effect=WRITE, asks=[
    "Can you hold {reservation_id} one more day?",
    "Extend {reservation_id}; I can't make it in time.",
], reply=[
    "Extended {reservation_id}; it's now held until {result.expires_at}.",
    "Done: {result.store_name} will hold it until {result.expires_at}.",
])
def extend_reservation(ctx: Ctx, reservation_id: ActiveReservationId) -> Reservation:
    """Keep an active reservation 24 hours longer; each reservation can be extended once.

    Args:
        reservation_id: ID of the reservation, such as 'RES-10003'.

    Returns:
        The reservation with its new expiry time.

    Raises:
        not_found: no reservation has that ID.
        reservation_expired: the reservation already expired.
        reservation_not_active: the reservation was already collected or cancelled.
        already_extended: the reservation was extended before.
    """
    row = _open_reservation(ctx, reservation_id, "extended")
    if row["extended"]:
        raise ToolError("already_extended", f"{reservation_id} was already extended once; it expires at "
                        f"{row['expires_at']}.", hint="Collect it before then, or reserve again after it expires.")
    ctx.db.execute("UPDATE reservations SET extended = 1, expires_at = ? WHERE reservation_id = ?",
                   (iso(datetime.fromisoformat(row["expires_at"]) + timedelta(hours=EXTENSION_HOURS)),
                    reservation_id))
    return reservation_model(reservation_row(ctx, reservation_id), ctx.now())


@tools.tool(effect=WRITE, asks=[
    "Check out {reservation_id}; I'm at the store.",
    "Collect {reservation_id} and use {certificate_id}.",
    "I'm picking up {reservation_id} now and want to apply {certificate_id} to it.",
], reply=[
    "Collected {reservation_id}: you paid ${result.total} and earned {result.points_earned} points.",
    "Done: {reservation_id} is picked up; the total was ${result.total} and your balance is now "
    "{result.points_balance} points.",
])
def collect_reservation(ctx: Ctx, reservation_id: ActiveReservationId,
                        certificate_id: AvailableCertificateId | None = None) -> Pickup:
    """Pick up and pay for an active reservation at its store, which must be open now.

    Pays the reserved price plus the store's sales tax, less an optional reward certificate, and
    earns loyalty points on the amount before tax (more for Gold and Platinum members).

    Args:
        reservation_id: ID of the active reservation, such as 'RES-10004'.
        certificate_id: an available reward certificate to apply, such as 'CRT-10005'.

    Returns:
        The collected reservation, the receipt (subtotal, discount, tax, total), points earned and the
        new points balance.

    Raises:
        not_found: no reservation or certificate has that ID.
        reservation_expired: the reservation expired before pickup.
        reservation_not_active: the reservation was already collected or cancelled.
        store_closed: the store is closed at this time (the message says when it next opens).
        certificate_unavailable: the certificate was already used or has expired.
    """
    row = _open_reservation(ctx, reservation_id, "collected")
    now = ctx.now()
    store = ctx.get("store", row["store_id"])
    hours = weekly_hours(ctx, store["store_id"])
    if not is_open(store, hours, now):
        nxt = next_opening(store, hours, now)
        when = f"It opens next at {iso(nxt)}." if nxt else (store["status_note"] or "It is temporarily closed.")
        raise ToolError("store_closed", f"{store['name']} is closed now ({iso(now)}). {when}",
                        hint="Collect the reservation while the store is open, before it expires at "
                             f"{row['expires_at']}.")
    loyalty = loyalty_row(ctx)
    discount, cert = 0.0, None
    if certificate_id is not None:
        cert = ctx.get("certificate", certificate_id)
        if cert["status"] != "available" or cert["expires_on"] < now.date().isoformat():
            state = "used" if cert["status"] == "used" else "expired"
            raise ToolError("certificate_unavailable", f"Certificate {certificate_id} is {state}.",
                            hint="Use an available certificate, or redeem points for a new one with redeem_points.")
    settle(ctx)
    subtotal = money(row["quantity"] * row["unit_price"])
    if cert is not None:
        discount = money(min(cert["value"], subtotal))
        ctx.db.execute("UPDATE certificates SET status = 'used', used_at = ? WHERE certificate_id = ?",
                       (iso(now), certificate_id))
    taxable = money(subtotal - discount)
    tax = money(taxable * store["tax_rate"] / 100)
    points = int(taxable * TIER_MULTIPLIER[loyalty["tier"]])
    purchase_id = ctx.new_id("PUR")
    ctx.db.execute("UPDATE inventory SET on_hand = on_hand - ? WHERE store_id = ? AND product_id = ?",
                   (row["quantity"], row["store_id"], row["product_id"]))
    ctx.db.execute("UPDATE reservations SET status = 'collected', closed_at = ? WHERE reservation_id = ?",
                   (iso(now), reservation_id))
    ctx.db.execute("INSERT INTO purchases VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (purchase_id, store["store_id"], reservation_id, certificate_id, iso(now), subtotal, discount,
                    tax, money(taxable + tax), points))
    ctx.db.execute("INSERT INTO purchase_items VALUES (?, 1, ?, ?, ?)",
                   (purchase_id, row["product_id"], row["quantity"], row["unit_price"]))
    ctx.db.execute("UPDATE loyalty_accounts SET points = points + ?, lifetime_points = lifetime_points + ? "
                   "WHERE loyalty_id = ?", (points, points, loyalty["loyalty_id"]))
    ctx.db.execute("INSERT INTO points_activity VALUES (?, ?, ?, ?, ?)",
                   (ctx.new_id("PTS"), loyalty["loyalty_id"], iso(now), points,
                    f"Purchase {purchase_id} at {store['name']}"))
    return Pickup(reservation=reservation_model(reservation_row(ctx, reservation_id), now), purchase_id=purchase_id,
                  subtotal=subtotal, certificate_id=certificate_id, discount=discount, tax=tax,
                  total=money(taxable + tax), points_earned=points, points_balance=loyalty["points"] + points)


@tools.tool(effect=WRITE, asks=[
    "Move {quantity} of {product_id} from {from_store_id} to {to_store_id} for pickup there.",
    "Can you transfer {product_id} from {from_store_id} to {to_store_id}?",
    "Have {from_store_id} send {quantity} of {product_id} over to {to_store_id}.",
], reply=[
    "Requested: {result.quantity} of {product_id} from {result.from_store_name} to "
    "{result.to_store_name}, arriving {result.arrives_at}.",
    Ask("Done: {to_store_id} gets {product_id} from {result.from_store_name}; it should arrive {result.arrives_at}.",
        **{"result.quantity": 1}),
])
def request_transfer(ctx: Ctx, product_id: ProductId, from_store_id: OpenStoreId, to_store_id: OpenStoreId,
                     quantity: Quantity = 1) -> Transfer:
    """Ask for units of a product to be sent from one store to another, to pick up or reserve there.

    The units leave the source store's stock at once and arrive after 24 hours within the same city,
    48 hours otherwise; from then on they are available at the destination.

    Args:
        product_id: ID of the product, such as 'PRD-10001'.
        from_store_id: store that has the stock, such as 'STR-10003'.
        to_store_id: store that should receive it, such as 'STR-10001'.
        quantity: units to move, 1 to 20 (default 1).

    Returns:
        The transfer with its status 'in_transit' and arrival time.

    Raises:
        not_found: no product or store has that ID.
        same_store: the two stores are the same.
        store_unavailable: one of the stores is temporarily closed.
        not_carried: the source store does not carry this product.
        insufficient_stock: the source store has fewer units available than `quantity`.
    """
    product = ctx.get("product", product_id)
    src = ctx.get("store", from_store_id)
    dst = ctx.get("store", to_store_id)
    if from_store_id == to_store_id:
        raise ToolError("same_store", "The source and destination stores are the same.",
                        hint="If the store has stock, reserve it there with reserve_for_pickup.")
    for store in (src, dst):
        require_open(store, "Choose another store with check_availability or find_stores.")
    settle(ctx)
    units(ctx, src, product, quantity, short_hint="Use check_availability to find another store.")
    now = ctx.now()
    arrives = now + timedelta(hours=24 if src["city"] == dst["city"] else 48)
    ctx.db.execute("UPDATE inventory SET on_hand = on_hand - ? WHERE store_id = ? AND product_id = ?",
                   (quantity, from_store_id, product_id))
    ctx.db.execute("INSERT OR IGNORE INTO inventory (store_id, product_id, on_hand, price, clearance) "
                   "VALUES (?, ?, 0, ?, 0)", (to_store_id, product_id, product["list_price"]))
    transfer_id = ctx.new_id("TRF")
    ctx.db.execute("INSERT INTO transfers VALUES (?, ?, ?, ?, ?, 'in_transit', ?, ?)",
                   (transfer_id, product_id, from_store_id, to_store_id, quantity, iso(now), iso(arrives)))
    return _transfer(ctx, _transfer_row(ctx, transfer_id))


@tools.tool(effect=READ, asks=[
    "Where are my store transfers?",
    Ask("Which of my transfers are still on the way?", status="in_transit"),
    Ask("Show the transfers that have arrived.", status="received"),
    Ask("List my cancelled transfers.", status="cancelled"),
], reply=[
    "Your transfers: {result.transfers_text}.",
    "Here's where your transfers stand: {result.transfers_text}.",
])
def list_transfers(ctx: Ctx, status: Literal["in_transit", "received", "cancelled"] | None = None,
                   limit: Limit = 20) -> TransferList:
    """List the store-to-store transfers the customer asked for, newest first.

    Args:
        status: only this status: 'in_transit', 'received' or 'cancelled'.
        limit: most transfers to return, 1 to 50, such as 20.

    Returns:
        Transfers with product, stores, quantity, status and arrival time, and the total.
    """
    rows = ctx.db.execute(TRANSFER_SQL + " ORDER BY t.requested_at DESC, t.transfer_id").fetchall()
    items = [_transfer(ctx, r) for r in rows]
    if status is not None:
        items = [t for t in items if t.status == status]
    return TransferList(transfers=items[:limit], total=len(items),
                        transfers_text=_transfers_text(items[:limit], len(items), ctx.today()))


@tools.tool(effect=WRITE, asks=[
    "Cancel {transfer_id}.",
    "Stop {transfer_id}; I don't need it at my store anymore.",
], reply=[
    "Cancelled {transfer_id}; the units stay at {result.from_store_name}.",
    "Done: {transfer_id} is stopped.",
])
def cancel_transfer(ctx: Ctx, transfer_id: InTransitTransferId) -> Transfer:
    """Cancel a transfer that has not arrived yet; its units go back to the source store.

    Args:
        transfer_id: ID of the transfer, such as 'TRF-10001'.

    Returns:
        The transfer, now 'cancelled'.

    Raises:
        not_found: no transfer has that ID.
        transfer_not_cancellable: the transfer already arrived or was cancelled.
    """
    row = _transfer_row(ctx, transfer_id)
    status = transfer_status(row, ctx.now())
    if status != "in_transit":
        raise ToolError("transfer_not_cancellable", f"{transfer_id} is {status} and can no longer be cancelled.")
    ctx.db.execute("UPDATE transfers SET status = 'cancelled' WHERE transfer_id = ?", (transfer_id,))
    ctx.db.execute("UPDATE inventory SET on_hand = on_hand + ? WHERE store_id = ? AND product_id = ?",
                   (row["quantity"], row["from_store_id"], row["product_id"]))
    return _transfer(ctx, _transfer_row(ctx, transfer_id))
