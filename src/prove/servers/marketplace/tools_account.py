"""Marketplace tools: the member's account, seller profiles and ratings, messages and gift cards."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, said_in_part, spoken_day

from .server import (
    GiftCardCode,
    GiftCardId,
    ListingId,
    MemberId,
    MessageId,
    OtherMemberId,
    OrderId,
    PaymentMethodId,
    RatingId,
    UnratedPurchaseId,
    clean_text,
    listing_row,
    me,
    order_row,
)
from .world import card_expired

tools = Toolset("account")

Limit = Annotated[int, Field(ge=1, le=50)]


class PaymentMethod(BaseModel):
    payment_method_id: PaymentMethodId
    label: str
    kind: str
    expires: str | None
    expired: bool
    is_default: bool


class Account(BaseModel):
    member_id: MemberId
    username: str
    full_name: str
    email: str
    shipping_address: str
    member_since: str
    balance: float
    active_listings: int
    max_active_listings: int
    seller_rating: float | None
    seller_rating_count: int
    payment_methods: list[PaymentMethod]
    payment_methods_text: str = Field(description="the payment methods on one line, the default one marked")


class Rating(BaseModel):
    rating_id: RatingId
    seller_id: MemberId
    rater_username: str
    order_id: OrderId | None
    stars: int
    comment: str
    created_at: str


class SellerProfile(BaseModel):
    member_id: MemberId
    username: str
    location: str
    member_since: str
    bio: str
    rating: float | None
    rating_count: int
    positive_percent: float | None
    active_listings: int
    items_sold: int
    recent_ratings: list[Rating]
    ratings_text: str = Field(description="The latest ratings in words, such as '5 stars from lucas.bailey "
                                          "(\'Fast shipping.\') and 4 stars from kwright18'.")


def _ratings_text(ratings: list[Rating]) -> str:
    """'5 stars from lucas.bailey ('Fast shipping.') and 3 stars from kwright18 ('Fine, but slow.')'."""
    said = [f"{r.stars} star{'' if r.stars == 1 else 's'} from {r.rater_username}"
            + (f" ('{r.comment}')" if r.comment else "") for r in ratings[:3]]
    if not said:
        return "no ratings"
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


class Message(BaseModel):
    message_id: MessageId
    listing_id: ListingId
    listing_title: str
    sender_id: MemberId
    sender_username: str
    recipient_id: MemberId
    recipient_username: str
    body: str
    sent_at: str


class MessageList(BaseModel):
    messages: list[Message]
    total: int
    messages_text: str = Field(description="The messages in words, newest first, such as \"anikaf_games about 'Burton "
                                           "Custom Snowboard 158cm' on March 15: 'How long did you use it for?'\".")


def _messages_text(messages: list[Message], total: int, my_id: str, today: date, by_listing: bool,
                   by_member: bool) -> str:
    """"you to anikaf_games about 'Burton Custom Snowboard 158cm' on March 16: 'About a year.'; anikaf_games
    about ... on March 15: 'How long did you use it for?'", without the listing or member a request named."""
    def one(m: Message) -> str:
        mine = m.sender_id == my_id
        who = ("you" if by_member else f"you to {m.recipient_username}") if mine else m.sender_username
        about = "" if by_listing else f" about '{m.listing_title}'"
        return f"{who}{about} on {spoken_day(m.sent_at, today)}: '{m.body}'"
    return said_in_part([one(m) for m in messages[:5]], total, "no messages", noun="message")


class GiftCardRedemption(BaseModel):
    gift_card_id: GiftCardId
    amount: float
    new_balance: float


class GiftCard(BaseModel):
    gift_card_id: GiftCardId
    code: GiftCardCode
    amount: float
    status: str
    expires_on: str


class GiftCardList(BaseModel):
    gift_cards: list[GiftCard]
    total: int


def _rating(row) -> Rating:  # noqa: ANN001 - a sqlite3.Row
    return Rating(rating_id=row["rating_id"], seller_id=row["seller_id"], rater_username=row["rater_username"],
                  order_id=row["order_id"], stars=row["stars"], comment=row["comment"], created_at=row["created_at"])


RATING_SQL = ("SELECT r.*, m.username AS rater_username FROM ratings r "
              "JOIN members m ON m.member_id = r.rater_id")


@tools.tool(effect=READ, asks=[
    "What's my marketplace balance?",
    "Which payment methods do I have on my marketplace account?",
], reply=[
    "Your marketplace balance is ${result.balance}.",
    "You have ${result.balance} on your marketplace balance.",
    "Your payment methods on the marketplace are {result.payment_methods_text}.",
])
def get_account(ctx: Ctx) -> Account:
    """Show the signed-in member's account: profile, marketplace balance, seller rating and payment methods.

    Returns:
        The member's username, contact and shipping address, balance (spendable on purchases),
        active listings against the account's limit, seller rating, and payment methods with
        whether each card has expired and which is the default.
    """
    member_id = me(ctx)
    row = ctx.db.execute(
        "SELECT m.*, a.*, (SELECT count(*) FROM listings l WHERE l.seller_id = m.member_id AND l.status = 'active') "
        "AS active, (SELECT round(avg(stars), 2) FROM ratings r WHERE r.seller_id = m.member_id) AS rating, "
        "(SELECT count(*) FROM ratings r WHERE r.seller_id = m.member_id) AS rating_count "
        "FROM members m JOIN accounts a ON a.member_id = m.member_id WHERE m.member_id = ?", (member_id,)).fetchone()
    methods = [PaymentMethod(payment_method_id=p["payment_method_id"], label=p["label"], kind=p["kind"],
                             expires=p["expires"],
                             expired=bool(p["expires"] and card_expired(p["expires"], ctx.today())),
                             is_default=bool(p["is_default"]))
               for p in ctx.db.execute("SELECT * FROM payment_methods ORDER BY is_default DESC, payment_method_id")]
    return Account(member_id=member_id, username=row["username"], full_name=row["full_name"], email=row["email"],
                   shipping_address=row["shipping_address"], member_since=row["joined_on"], balance=row["balance"],
                   active_listings=row["active"], max_active_listings=row["max_active_listings"],
                   seller_rating=row["rating"], seller_rating_count=row["rating_count"], payment_methods=methods,
                   payment_methods_text=_methods_text(methods))


def _methods_text(methods: list[PaymentMethod]) -> str:
    """'Visa ending 4242 (your default), PayPal and Discover ending 7542 (expired)'."""
    parts = [m.label + (" (your default)" if m.is_default else "") + (" (expired)" if m.expired else "")
             for m in methods]
    if not parts:
        return "no saved payment method"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


@tools.tool(effect=READ, asks=[
    "Is {member_id} a trustworthy seller? Show their ratings.",
    "Tell me about {member_id}.",
], reply=[
    Ask("Nobody has rated {result.username} yet; they're in {result.location}, a member since "
        "{result.member_since}, with {result.active_listings} listings for sale and {result.items_sold} items sold.",
        **{"result.rating_count": 0}),
    "On average {result.username} gets {result.rating} stars from {result.rating_count} ratings; the latest: "
    "{result.ratings_text}. They're in {result.location}, a member since {result.member_since}, with "
    "{result.active_listings} listings for sale and {result.items_sold} items sold.",
])
def get_seller_profile(ctx: Ctx, member_id: OtherMemberId) -> SellerProfile:
    """Look up a member's public profile: location, rating, sales and their five latest ratings.

    Args:
        member_id: ID of the member, such as 'MBR-10002' (a listing's seller_id).

    Returns:
        The profile with average stars, number of ratings, percent of 4- and 5-star ratings, active
        listings, items sold and the latest ratings with comments.

    Raises:
        not_found: no member has that ID.
    """
    row = ctx.get("member", member_id)
    stats = ctx.db.execute(
        "SELECT round(avg(stars), 2), count(*), round(100.0 * sum(stars >= 4) / max(count(*), 1), 1) "
        "FROM ratings WHERE seller_id = ?", (member_id,)).fetchone()
    # Sales: the sold listings, and one for each rating left on a sale older than the listings kept here.
    counts = ctx.db.execute(
        "SELECT sum(status = 'active'), coalesce(sum(status = 'sold'), 0) + (SELECT count(*) FROM ratings "
        "WHERE seller_id = :m AND order_id IS NULL) FROM listings WHERE seller_id = :m", {"m": member_id}).fetchone()
    recent = ctx.db.execute(RATING_SQL + " WHERE r.seller_id = ? ORDER BY r.created_at DESC, r.rating_id LIMIT 5",
                            (member_id,)).fetchall()
    return SellerProfile(member_id=member_id, username=row["username"], location=f"{row['city']}, {row['region']}",
                         member_since=row["joined_on"], bio=row["bio"], rating=stats[0], rating_count=stats[1],
                         positive_percent=stats[2] if stats[1] else None, active_listings=counts[0] or 0,
                         items_sold=counts[1] or 0, recent_ratings=[_rating(r) for r in recent],
                         ratings_text=_ratings_text([_rating(r) for r in recent]))


@tools.tool(effect=WRITE, asks=[
    "Give the seller of {order_id} {stars} stars.",
    "Rate the seller of {order_id} {stars} out of 5 and say: {comment}",
    "Leave {stars} stars for {order_id} with the comment '{comment}'.",
], reply=[
    "Rated the seller {stars} stars for {order_id}.",
    "Done: your {stars}-star rating is posted.",
], values={
    "stars, comment": [
        (5, "Fast shipping and exactly as described."), (5, "Friendly and quick to answer questions."),
        (4, "Good value for the price."), (3, "Fine, but it took a week to ship."),
        (2, "Not as described; the box was damaged."), (1, "Never answered my messages.")],
})
def rate_seller(ctx: Ctx, order_id: UnratedPurchaseId, stars: Annotated[int, Field(ge=1, le=5)],
                comment: Annotated[str, Field(max_length=500)] | None = None) -> Rating:
    """Rate the seller of one of the signed-in member's delivered purchases, once per order.

    Args:
        order_id: ID of the member's delivered purchase, such as 'ORD-10004'.
        stars: 1 to 5 stars, such as 5.
        comment: optional words for other buyers, such as 'Fast shipping, exactly as described.'.

    Returns:
        The new rating.

    Raises:
        not_found: no order has that ID.
        not_your_purchase: the member is not the buyer of this order.
        order_not_delivered: the order has not been delivered yet.
        already_rated: the member already rated this order.
    """
    row = order_row(ctx, order_id)
    member = me(ctx)
    if row["buyer_id"] != member:
        raise ToolError("not_your_purchase", f"{order_id} is not one of your purchases.",
                        hint="Only the buyer of an order can rate its seller.")
    if row["status"] != "delivered":
        raise ToolError("order_not_delivered", f"{order_id} is {row['status']}; rate it once it is delivered.",
                        hint="If it has arrived, confirm it with confirm_delivery first.")
    if row["rated"]:
        raise ToolError("already_rated", f"You already rated {order_id}.")
    rating_id = ctx.new_id("RAT")
    text = comment.strip() if comment and comment.strip() else {5: "Excellent", 4: "Good", 3: "OK", 2: "Poor",
                                                                1: "Very poor"}[stars]
    ctx.db.execute("INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (rating_id, row["seller_id"], member, order_id, stars, text, iso(ctx.now())))
    return _rating(ctx.db.execute(RATING_SQL + " WHERE r.rating_id = ?", (rating_id,)).fetchone())


# A buyer's questions ("Is this still available?", "Could you combine shipping?") are of a listing still for sale.
_FOR_SALE = {"listing_id": "status = 'active' AND seller_id != (SELECT member_id FROM members WHERE is_me = 1)"}


@tools.tool(effect=WRITE, asks=[
    Ask("Ask the seller of {listing_id}: {body}", fits=_FOR_SALE),
    Ask("Message the seller of {listing_id} and say '{body}'.", fits=_FOR_SALE),
], reply=[
    "Sent your message to {result.recipient_username}: '{body}'",
    "Done: your message about '{result.listing_title}' went to {result.recipient_username}.",
], values={"body": ["Is this still available?", "Would you ship to Denver?", "Can you send a photo of the back?",
                    "Does it come with the original box?", "Is the price negotiable?",
                    "Could you combine shipping if I buy two?", "Are there any scratches not shown in the photos?"]})
def send_message(ctx: Ctx, listing_id: ListingId, body: Annotated[str, Field(max_length=2000)],
                 recipient_id: MemberId | None = None) -> Message:
    """Send a message about a listing: to its seller, or, on the member's own listing, to an interested member.

    Args:
        listing_id: the listing the message is about, such as 'LST-10002'.
        body: the message text, such as 'Is this still available?'.
        recipient_id: on the member's own listing, the member to reply to (one who wrote, made an offer
            or bought), such as 'MBR-10035'; leave empty to write to the seller of someone else's listing.

    Returns:
        The sent message.

    Raises:
        not_found: no listing or member has that ID.
        empty_message: the body is empty.
        recipient_required: the listing is the member's own and no recipient_id was given.
        invalid_recipient: the recipient is not the listing's seller, or has never contacted the member
            about the member's own listing.
    """
    listing = listing_row(ctx, listing_id)
    member = me(ctx)
    if recipient_id is not None:
        ctx.get("member", recipient_id)
    text = clean_text(body, "empty_message", "message")
    if listing["is_mine"]:
        if recipient_id is None:
            raise ToolError("recipient_required", f"{listing_id} is your own listing; say whom to write to.",
                            hint="Pass recipient_id, for example the sender of a message from list_messages.")
        contacted = ctx.db.execute(
            "SELECT 1 FROM messages WHERE listing_id = :l AND sender_id = :r UNION "
            "SELECT 1 FROM offers WHERE listing_id = :l AND buyer_id = :r UNION "
            "SELECT 1 FROM orders WHERE listing_id = :l AND buyer_id = :r",
            {"l": listing_id, "r": recipient_id}).fetchone()
        if recipient_id == member or contacted is None:
            raise ToolError("invalid_recipient", f"{recipient_id} has not contacted you about {listing_id}.",
                            hint="See who wrote about the listing with list_messages.")
        to = recipient_id
    else:
        if recipient_id is not None and recipient_id != listing["seller_id"]:
            raise ToolError("invalid_recipient", f"Messages about {listing_id} go to its seller "
                            f"{listing['seller_username']} ({listing['seller_id']}).",
                            hint="Leave recipient_id empty to write to the seller.")
        to = listing["seller_id"]
    message_id = ctx.new_id("MSG")
    ctx.db.execute("INSERT INTO messages VALUES (?, ?, ?, ?, ?, ?)",
                   (message_id, listing_id, member, to, text, iso(ctx.now())))
    return _messages(ctx, "m.message_id = :id", {"id": message_id}, 1)[0][0]


def _messages(ctx: Ctx, where: str, params: dict[str, object], limit: int) -> tuple[list[Message], int]:
    """The messages that match, newest first, at most `limit` of them, and how many match."""
    sql = ("SELECT m.*, l.title, s.username AS sender_username, r.username AS recipient_username FROM messages m "
           "JOIN listings l ON l.listing_id = m.listing_id JOIN members s ON s.member_id = m.sender_id "
           "JOIN members r ON r.member_id = m.recipient_id WHERE " + where)
    rows = ctx.db.execute(sql + " ORDER BY m.sent_at DESC, m.message_id DESC", params).fetchall()
    return [Message(message_id=r["message_id"], listing_id=r["listing_id"], listing_title=r["title"],
                    sender_id=r["sender_id"], sender_username=r["sender_username"], recipient_id=r["recipient_id"],
                    recipient_username=r["recipient_username"], body=r["body"], sent_at=r["sent_at"])
            for r in rows[:limit]], len(rows)


@tools.tool(effect=READ, asks=[
    "Do I have any messages about {listing_id}?",
    "Show my conversation with {member_id}.",
    Ask("Show the messages I've received.", direction="received"),
    Ask("What messages have I sent?", direction="sent"),
], reply=[
    Ask("Your messages, newest first: {result.messages_text}.", direction="all"),
    Ask("Messages you've received, newest first: {result.messages_text}.", direction="received"),
    Ask("Messages you've sent, newest first: {result.messages_text}.", direction="sent"),
])
def list_messages(ctx: Ctx, listing_id: ListingId | None = None, member_id: OtherMemberId | None = None,
                  direction: Literal["all", "received", "sent"] = "all", limit: Limit = 20) -> MessageList:
    """List messages the signed-in member sent or received, newest first.

    Args:
        listing_id: only messages about this listing, such as 'LST-10204'.
        member_id: only messages exchanged with this member, such as 'MBR-10038'.
        direction: 'all' (default), 'received' or 'sent'.
        limit: most messages to return, 1 to 50, such as 20.

    Returns:
        Messages with listing, sender, recipient, text and time, and the total.
    """
    params: dict[str, object] = {"me": me(ctx)}
    where = {"all": "(m.sender_id = :me OR m.recipient_id = :me)", "received": "m.recipient_id = :me",
             "sent": "m.sender_id = :me"}[direction]
    if listing_id is not None:
        where += " AND m.listing_id = :listing"
        params["listing"] = listing_id
    if member_id is not None:
        where += " AND (m.sender_id = :other OR m.recipient_id = :other)"
        params["other"] = member_id
    messages, total = _messages(ctx, where, params, limit)
    return MessageList(messages=messages, total=total, messages_text=_messages_text(
        messages, total, str(params["me"]), ctx.today(), listing_id is not None, member_id is not None))


@tools.tool(effect=WRITE, asks=[
    "Redeem my gift card {code}.",
    "Add my marketplace gift card to my balance; the code is {code}.",
], reply=[
    "Redeemed the gift card: ${result.amount} added, your balance is now ${result.new_balance}.",
    "Done: your marketplace balance is ${result.new_balance}.",
])
def redeem_gift_card(ctx: Ctx, code: GiftCardCode) -> GiftCardRedemption:
    """Redeem a marketplace gift card: its amount is added to the signed-in member's balance.

    Args:
        code: the gift card code, such as 'MKT-7Q4P-ZC9D-2WLX' (case and spaces do not matter).

    Returns:
        The gift card's amount and the new marketplace balance.

    Raises:
        invalid_code: no gift card has that code.
        already_redeemed: the gift card was redeemed before.
        gift_card_expired: the gift card's expiry date has passed.
    """
    normalized = code.strip().upper().replace(" ", "")
    row = ctx.db.execute("SELECT * FROM gift_cards WHERE code = ?", (normalized,)).fetchone()
    if row is None:
        raise ToolError("invalid_code", "No gift card has that code.", hint="Check the code for typos.")
    if row["status"] == "redeemed":
        raise ToolError("already_redeemed", f"This gift card was redeemed on {row['redeemed_at'][:10]}.")
    if row["expires_on"] < ctx.today().isoformat():
        raise ToolError("gift_card_expired", f"This gift card expired on {row['expires_on']}.")
    ctx.db.execute("UPDATE gift_cards SET status = 'redeemed', redeemed_at = ? WHERE gift_card_id = ?",
                   (iso(ctx.now()), row["gift_card_id"]))
    ctx.db.execute("UPDATE accounts SET balance = round(balance + ?, 2)", (row["amount"],))
    balance = ctx.db.execute("SELECT balance FROM accounts").fetchone()[0]
    return GiftCardRedemption(gift_card_id=row["gift_card_id"], amount=row["amount"], new_balance=balance)


@tools.tool(effect=READ, hidden=True)
def list_gift_cards(ctx: Ctx) -> GiftCardList:
    """List the gift cards the signed-in member received, with their secret codes (for the pipeline).

    Returns:
        Every gift card with its code, amount, status and expiry date.
    """
    rows = ctx.db.execute("SELECT * FROM gift_cards ORDER BY gift_card_id").fetchall()
    return GiftCardList(gift_cards=[GiftCard(gift_card_id=r["gift_card_id"], code=r["code"], amount=r["amount"],
                                             status=r["status"], expires_on=r["expires_on"]) for r in rows],
                        total=len(rows))
