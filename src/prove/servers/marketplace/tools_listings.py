"""Marketplace tools: browsing listings and categories, and the member's own listings."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import iso, like, money, said_in_part

from .server import (
    LISTING_SQL,
    OFFER_STATUS_SQL,
    CategoryId,
    ListingId,
    MyActiveListingId,
    ListingList,
    ListingSummary,
    MemberId,
    OfferId,
    clean_text,
    listing_row,
    me,
    summary,
)
from .world import fee_for

tools = Toolset("listings")

Condition = Literal["new", "like_new", "good", "fair", "for_parts"]
Price = Annotated[float, Field(gt=0, le=50_000)]
Shipping = Annotated[float, Field(ge=0, le=500)]
Title = Annotated[str, Field(max_length=120)]
Description = Annotated[str, Field(max_length=2000)]
Limit = Annotated[int, Field(ge=1, le=50)]


class Listing(ListingSummary):
    description: str
    watchers: int
    seller_rating_count: int
    updated_at: str
    open_offers: int
    my_open_offer_id: OfferId | None
    listing_text: str = Field(description="The listing in a sentence: what it is, its price and shipping, "
                                          "its condition, its seller and whether it is still for sale.")


class Category(BaseModel):
    category_id: CategoryId
    name: str
    fee_percent: float
    active_listings: int


class CategoryList(BaseModel):
    categories: list[Category]
    total: int
    categories_text: str = Field(description="The categories with their fees in words, such as 'Books (14.5% fee) "
                                             "and Cameras & Photo (9% fee)'.")


class FeeEstimate(BaseModel):
    category_id: CategoryId
    category: str
    price: float
    shipping_cost: float
    fee_percent: float
    fee: float
    seller_proceeds: float


class MyListing(ListingSummary):
    open_offers: int
    watchers: int


class MyListingList(BaseModel):
    listings: list[MyListing]
    total: int
    listings_text: str = Field(description="The listings in words, such as ''Fujifilm X-T30 II Body Black' "
                                           "($580.00, for sale, 2 open offers)'.")


def _my_listings_text(items: list[MyListing], total: int, status: str | None) -> str:
    """''Fujifilm X-T30 II Body Black' ($580.00, for sale, 2 open offers) and 'Korg Minilogue XD' ($535.50,
    sold)': where each stands said unless the request asked for one status."""
    def one(i: MyListing) -> str:
        said = [f"${i.price:,.2f}"]
        if status is None:
            said.append({"active": "for sale", "sold": "sold", "withdrawn": "taken down"}.get(i.status, i.status))
        if i.status == "active" and i.open_offers:
            said.append(f"{i.open_offers} open offer{'s' if i.open_offers != 1 else ''}")
        return f"'{i.title}' ({', '.join(said)})"
    return said_in_part([one(i) for i in items[:6]], total, "no listings")


_CONDITION = {"new": "new", "like_new": "like new", "good": "good condition", "fair": "fair condition",
              "for_parts": "for parts only"}


def _cost(item: ListingSummary) -> str:
    """'$180.00 plus $12.00 shipping' or '$180.00 with free shipping'."""
    shipping = "with free shipping" if not item.shipping_cost else f"plus ${item.shipping_cost:,.2f} shipping"
    return f"${item.price:,.2f} {shipping}"


def _listing_text(item: ListingSummary) -> str:
    """''Brio Wooden Railway Set' is for sale at $67.50 plus $19.99 shipping (fair condition), from
    lucass_tech in Denver, CO; it takes offers'; a sold or withdrawn one says so ('... has sold;
    yusuf_toys listed it at ...')."""
    title, seller = f"'{item.title}'", "you" if item.is_mine else item.seller_username
    if item.status == "sold":
        return f"{title} has sold; {seller} listed it at {_cost(item)} ({_CONDITION[item.condition]})"
    if item.status != "active":
        return f"{title} was taken down; {seller} had listed it at {_cost(item)}"
    offers = "it takes offers" if item.accepts_offers else "the price is firm"
    where = "" if item.is_mine else f", from {seller} in {item.location}"
    return f"{title} is for sale at {_cost(item)} ({_CONDITION[item.condition]}){where}; {offers}"


def _listings_text(items: list[ListingSummary], total: int) -> str:
    """''Canon AE-1 Program' ($180.00 plus $12.00 shipping, good condition, from victoria_cameras) and 4 more'."""
    said = [f"'{i.title}' ({_cost(i)}, {_CONDITION[i.condition]}, from {'you' if i.is_mine else i.seller_username})"
            for i in items[:5]]
    return said_in_part(said, total, "no listings")


def _detail(ctx: Ctx, listing_id: str) -> Listing:
    row = listing_row(ctx, listing_id)
    params = {"now": iso(ctx.now()), "id": listing_id}
    open_offers = ctx.db.execute(
        f"SELECT count(*) FROM offers o WHERE o.listing_id = :id AND {OFFER_STATUS_SQL} IN ('pending', 'countered')",
        params).fetchone()[0]
    mine = ctx.db.execute(
        f"SELECT o.offer_id FROM offers o JOIN members m ON m.member_id = o.buyer_id AND m.is_me = 1 "
        f"WHERE o.listing_id = :id AND {OFFER_STATUS_SQL} IN ('pending', 'countered')", params).fetchone()
    base = summary(row)
    return Listing(**base.model_dump(), description=row["description"], watchers=row["watchers"],
                   seller_rating_count=row["seller_rating_count"], updated_at=row["updated_at"],
                   open_offers=open_offers, my_open_offer_id=mine[0] if mine else None,
                   listing_text=_listing_text(base))


@tools.tool(effect=READ, asks=[
    "Find me listings matching '{query}' for under ${max_price}.",
    Ask("Show me listings in {category_id} marked {condition}, cheapest first.", sort="price_low"),
    "What's listed in {category_id} right now?",
    Ask("Show the newest listings in {category_id}.", sort="newest"),
    Ask("What's the priciest thing listed in {category_id}?", sort="price_high"),
], reply=[
    "Here's what I found: {result.listings_text}.",
    Ask("Cheapest first: {result.listings_text}.", sort="price_low"),
    Ask("Newest first: {result.listings_text}.", sort="newest"),
    Ask("Priciest first: {result.listings_text}.", sort="price_high"),
])
def search_listings(ctx: Ctx, query: str | None = None, category_id: CategoryId | None = None,
                    min_price: Annotated[float, Field(ge=0)] | None = None,
                    max_price: Annotated[float, Field(ge=0)] | None = None,
                    condition: Condition | None = None, seller_id: MemberId | None = None,
                    sort: Literal["newest", "price_low", "price_high"] = "newest", limit: Limit = 10) -> ListingList:
    """Search active listings of the marketplace by words, category, price, condition or seller.

    Args:
        query: words to find in the title or description, such as 'stand mixer'.
        category_id: only listings in this category, such as 'CAT-10001'.
        min_price: lowest asking price in dollars, such as 50.0.
        max_price: highest asking price in dollars, such as 300.0.
        condition: only this condition: 'new', 'like_new', 'good', 'fair' or 'for_parts'.
        seller_id: only listings of this seller, such as 'MBR-10002'.
        sort: 'newest' (default), 'price_low' or 'price_high'.
        limit: most listings to return, 1 to 50, such as 10.

    Returns:
        Matching active listings (the member's own included, marked is_mine) with price, shipping,
        seller and location, and the total number of matches.
    """
    where = Where()
    where.add("l.status = 'active'")
    if query is not None and query.strip():
        for word in query.split()[:8]:
            where.add("(l.title LIKE ? ESCAPE '\\' OR l.description LIKE ? ESCAPE '\\')", like(word), like(word))
    where.eq("l.category_id", category_id)
    where.eq("l.condition", condition)
    where.eq("l.seller_id", seller_id)
    where.cmp("l.price", ">=", min_price)
    where.cmp("l.price", "<=", max_price)
    order = {"newest": "l.created_at DESC", "price_low": "l.price ASC", "price_high": "l.price DESC"}[sort]
    total = ctx.db.execute(f"SELECT count(*) FROM listings l WHERE {where.sql}", where.params).fetchone()[0]
    rows = ctx.db.execute(f"{LISTING_SQL} WHERE {where.sql} ORDER BY {order}, l.listing_id LIMIT ?",
                          (*where.params, limit)).fetchall()
    found = [summary(r) for r in rows]
    return ListingList(listings=found, total=total, listings_text=_listings_text(found, total))


@tools.tool(effect=READ, asks=[
    "Show me the details of {listing_id}.",
    "Is {listing_id} still for sale, and how much is shipping?",
], reply=[
    "{result.listing_text}.",
    "Here it is: {result.listing_text}.",
])
def get_listing(ctx: Ctx, listing_id: ListingId) -> Listing:
    """Look up one listing, whatever its status, with its description and the seller's rating.

    Args:
        listing_id: ID of the listing, such as 'LST-10001'.

    Returns:
        The listing: title, category, condition, price, shipping, whether it accepts offers, status
        ('active', 'sold' or 'withdrawn'), seller and rating, description, watchers, the number of
        open offers on it and the ID of the member's own open offer on it, if any.

    Raises:
        not_found: no listing has that ID.
    """
    return _detail(ctx, listing_id)


@tools.tool(effect=READ, asks=[
    "What categories can I sell in, and what are the fees?",
    "List the marketplace categories.",
], reply=[
    "You can sell in {result.total} categories: {result.categories_text}.",
])
def list_categories(ctx: Ctx) -> CategoryList:
    """List the marketplace's categories with their selling fee and number of active listings.

    Returns:
        Every category with its ID, name, final value fee percent and active listing count.
    """
    rows = ctx.db.execute(
        "SELECT c.*, (SELECT count(*) FROM listings l WHERE l.category_id = c.category_id "
        "AND l.status = 'active') AS active FROM categories c ORDER BY c.name").fetchall()
    categories = [Category(category_id=r["category_id"], name=r["name"], fee_percent=r["fee_percent"],
                           active_listings=r["active"]) for r in rows]
    said = [f"{c.name} ({c.fee_percent:g}% fee)" for c in categories]
    return CategoryList(categories=categories, total=len(rows), categories_text=(
        said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1] if said else "none"))


# What a seller charges to ship a thing that is not free to ship: what a parcel costs, never "$1.25".
SHIPPING_CHARGES = [5.99, 7.5, 8.99, 9.99, 12.5, 14.99]


@tools.tool(effect=READ, asks=[
    "If I sell something for ${price} in {category_id}, how much do I keep?",
    "What would the fees be on a ${price} sale in {category_id} with ${shipping_cost} shipping?",
], reply=[
    Ask("On a ${price} sale in {result.category}, the fee is ${result.fee} ({result.fee_percent}% plus $0.30), so "
        "you'd keep ${result.seller_proceeds}.", shipping_cost=0.0),
    "On a ${price} sale in {result.category} with ${shipping_cost} shipping, the fee is ${result.fee} "
    "({result.fee_percent}% of price and shipping plus $0.30), so you'd keep ${result.seller_proceeds}.",
], values={"shipping_cost": SHIPPING_CHARGES})
def estimate_fees(ctx: Ctx, category_id: CategoryId, price: Price, shipping_cost: Shipping = 0.0) -> FeeEstimate:
    """Estimate the selling fee and what the seller keeps for a sale at a given price.

    The final value fee is the category's percent of price plus shipping, plus $0.30 per order.

    Args:
        category_id: category of the item, such as 'CAT-10001'.
        price: sale price in dollars, such as 120.0.
        shipping_cost: shipping charged to the buyer in dollars, such as 9.99; default 0.

    Returns:
        The fee percent, the fee in dollars and the seller's proceeds (price plus shipping minus fee).

    Raises:
        not_found: no category has that ID.
    """
    row = ctx.get("category", category_id)
    fee = fee_for(row["fee_percent"], price, shipping_cost)
    return FeeEstimate(category_id=category_id, category=row["name"], price=money(price),
                       shipping_cost=money(shipping_cost), fee_percent=row["fee_percent"], fee=fee,
                       seller_proceeds=money(price + shipping_cost - fee))


@tools.tool(effect=READ, asks=[
    "Show me the things I'm selling.",
    Ask("Which of my listings have sold?", status="sold"),
    Ask("What have I withdrawn from sale?", status="withdrawn"),
], reply=[
    Ask("Your listings: {result.listings_text}.", status=None),
    Ask("Here's what you're selling and what you've sold: {result.listings_text}.", status=None),
    Ask("Sold: {result.listings_text}.", status="sold"),
    Ask("Taken down: {result.listings_text}.", status="withdrawn"),
    Ask("For sale now: {result.listings_text}.", status="active"),
])
def list_my_listings(ctx: Ctx, status: Literal["active", "sold", "withdrawn"] | None = None,
                     limit: Limit = 20) -> MyListingList:
    """List the signed-in member's own listings, newest first.

    Args:
        status: only listings in this status: 'active', 'sold' or 'withdrawn'; all when omitted.
        limit: most listings to return, 1 to 50, such as 20.

    Returns:
        The member's listings with price, status, watchers and number of open offers, and the total.
    """
    where, params = "m.is_me = 1", {"now": iso(ctx.now())}
    if status is not None:
        where += " AND l.status = :status"
        params["status"] = status
    total = ctx.db.execute("SELECT count(*) FROM listings l JOIN members m ON m.member_id = l.seller_id WHERE "
                           + where, params).fetchone()[0]
    rows = ctx.db.execute(LISTING_SQL + " WHERE " + where + " ORDER BY l.created_at DESC, l.listing_id LIMIT :limit",
                          {**params, "limit": limit}).fetchall()
    out = []
    for r in rows:
        n = ctx.db.execute(f"SELECT count(*) FROM offers o WHERE o.listing_id = :id AND {OFFER_STATUS_SQL} "
                           "IN ('pending', 'countered')", {"id": r["listing_id"], "now": params["now"]}).fetchone()[0]
        out.append(MyListing(**summary(r).model_dump(), open_offers=n, watchers=r["watchers"]))
    return MyListingList(listings=out, total=total, listings_text=_my_listings_text(out, total, status))


@tools.tool(effect=WRITE, asks=[
    "List my {listing_title} for sale at ${price} in {category_id}, condition: {condition}.",
    # A condition said in words: "it's in good condition", never "it's good" or "in for parts condition".
    Ask("I want to sell my {listing_title} in {category_id} for ${price}; it's in good condition. Shipping is "
        "${shipping_cost}.", condition="good"),
    Ask("I want to sell my {listing_title} in {category_id} for ${price}; it's like new. Shipping is ${shipping_cost}.",
        condition="like_new"),
    Ask("I want to sell my {listing_title} in {category_id} for ${price}; it's in fair condition. Shipping is "
        "${shipping_cost}.", condition="fair"),
    Ask("Put my {listing_title} up in {category_id} for ${price}, price firm, no offers; condition: {condition}.",
        accepts_offers=False),
], reply=[
    "Listed your {listing_title} for ${price}.",
    "Done: '{listing_title}' is for sale in {result.category} at ${price}.",
], values={
    # An item goes with its category (the world's categories, in CATALOG order) and a price that fits it.
    "category_id, listing_title, price": [
        ("CAT-10001", "Kindle Paperwhite (11th gen)", 85.0), ("CAT-10001", "Bose QuietComfort 35 II headphones", 120.0),
        ("CAT-10002", "Vintage Canon AE-1 camera", 180.0), ("CAT-10002", "GoPro HERO9 with two batteries", 150.0),
        ("CAT-10003", "Fender Squier Stratocaster (sunburst)", 160.0),
        ("CAT-10003", "Yamaha FG800 acoustic guitar", 140.0),
        ("CAT-10004", "Nintendo Switch with two controllers", 220.0), ("CAT-10004", "PlayStation 4 Slim 1TB", 150.0),
        ("CAT-10005", "5.5 qt Le Creuset dutch oven", 190.0), ("CAT-10005", "6 qt Instant Pot Duo", 45.0),
        ("CAT-10006", "IKEA Kallax shelf (white)", 60.0), ("CAT-10006", "Mid-century walnut side table", 95.0),
        ("CAT-10007", "Binder of 1990s Pokemon cards", 75.0), ("CAT-10007", "Signed 1998 Yankees baseball", 130.0),
        ("CAT-10008", "Trek mountain bike with a 17-inch frame", 350.0),
        ("CAT-10008", "Giro road bike helmet (size M)", 35.0),
        ("CAT-10009", "Levi's 501 jeans in 32x32", 30.0),
        ("CAT-10009", "North Face women's puffer jacket (size M)", 90.0),
        ("CAT-10010", "Harry Potter hardcover box set", 65.0), ("CAT-10010", "The Lord of the Rings boxed set", 40.0),
        ("CAT-10011", "Lego Millennium Falcon set", 120.0), ("CAT-10011", "80-piece wooden train set", 35.0),
        ("CAT-10012", "Sterling silver hoop earrings", 45.0), ("CAT-10012", "Fossil chronograph watch", 70.0)],
    "description": ["Works perfectly, light scratches on the back.", "Barely used, comes with the original box.",
                    "Smoke-free home; pickup or shipping.", "All parts included, manual missing.",
                    "Selling because I upgraded."],
    "condition": ["new", "like_new", "good", "fair"],  # the prices above are a working item's, never for parts
    "shipping_cost": SHIPPING_CHARGES,
})
def create_listing(ctx: Ctx, listing_title: Title, category_id: CategoryId, price: Price, condition: Condition,
                   description: Description | None = None, shipping_cost: Shipping = 0.0,
                   accepts_offers: bool = True) -> Listing:
    """Put a new item up for sale as the signed-in member; it is active at once.

    Args:
        listing_title: what the item is, as buyers will search for it, such as 'Canon AE-1 Program 35mm Film Camera'.
        category_id: category of the item, such as 'CAT-10002'.
        price: asking price in dollars, such as 180.0.
        condition: 'new', 'like_new', 'good', 'fair' or 'for_parts'.
        description: optional details for buyers, such as 'Light wear, fully working, ships in 2 days.'.
        shipping_cost: shipping charged to the buyer in dollars, 0 for free shipping (default), such as 12.99.
        accepts_offers: whether buyers may make offers below the price (default true).

    Returns:
        The new listing with its ID.

    Raises:
        not_found: no category has that ID.
        invalid_title: the title is empty.
        listing_limit_reached: the member already has as many active listings as the account allows.
    """
    ctx.get("category", category_id)
    title = clean_text(listing_title, "invalid_title", "title")
    seller = me(ctx)
    active, cap = ctx.db.execute(
        "SELECT (SELECT count(*) FROM listings WHERE seller_id = ? AND status = 'active'), "
        "(SELECT max_active_listings FROM accounts)", (seller,)).fetchone()
    if active >= cap:
        raise ToolError("listing_limit_reached", f"You already have {active} active listings, the most allowed.",
                        hint="Withdraw a listing you no longer need, then try again.")
    listing_id = ctx.new_id("LST")
    now = iso(ctx.now())
    ctx.db.execute(
        "INSERT INTO listings (listing_id, seller_id, category_id, title, description, condition, price, "
        "shipping_cost, accepts_offers, status, created_at, updated_at, watchers) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, 0)",
        (listing_id, seller, category_id, title, (description or "").strip(), condition, money(price),
         money(shipping_cost), int(accepts_offers), now, now))
    return _detail(ctx, listing_id)


def _own_active(ctx: Ctx, listing_id: str):  # noqa: ANN202 - a sqlite3.Row
    row = listing_row(ctx, listing_id)
    if not row["is_mine"]:
        raise ToolError("not_your_listing", f"{listing_id} is {row['seller_username']}'s listing, not yours.",
                        hint="See your own listings with list_my_listings.")
    if row["status"] != "active":
        raise ToolError("listing_unavailable", f"{listing_id} is {row['status']} and can no longer be changed.",
                        hint="Only active listings can be edited or withdrawn.")
    return row


@tools.tool(effect=WRITE, asks=[
    "Change the price on {listing_id}: it should be ${price}.",
    "Change {listing_id}: price ${price}, shipping ${shipping_cost}.",
    Ask("Stop accepting offers on {listing_id}.", accepts_offers=False),
    Ask("Let buyers make offers on {listing_id}.", accepts_offers=True),
], reply=[
    Ask("Done: buyers can no longer make offers on {listing_id}; it stays at ${result.price}.", accepts_offers=False),
    Ask("Done: buyers can make offers on {listing_id} now.", accepts_offers=True),
    "Updated {listing_id}; it's listed at ${result.price} with ${result.shipping_cost} shipping now.",
    "Done: '{result.title}' now sells for ${result.price}, plus ${result.shipping_cost} shipping.",
    Ask("Done: '{result.title}' now sells for ${result.price}, with free shipping.", **{"result.shipping_cost": 0.0}),
], values={
    "listing_title": ["Vintage Canon AE-1 camera, with 50mm lens", "Nintendo Switch bundle", "Trek bike, price drop",
                      "Kindle Paperwhite, like new"],
    "description": ["Price reduced for a quick sale.", "Now includes the original charger.",
                    "Shipping within 2 days.", "Added more photos of the scratches."],
    "shipping_cost": SHIPPING_CHARGES,
})
def edit_listing(ctx: Ctx, listing_id: MyActiveListingId, price: Price | None = None,
                 listing_title: Title | None = None, description: Description | None = None,
                 shipping_cost: Shipping | None = None, accepts_offers: bool | None = None) -> Listing:
    """Change the price or other details of one of the signed-in member's active listings.

    Only the fields given change. Open offers on the listing stay open.

    Args:
        listing_id: ID of the member's own active listing, such as 'LST-10199'.
        price: new asking price in dollars, such as 149.99.
        listing_title: new title, such as 'Fender Player Stratocaster, Sunburst, with Gig Bag'.
        description: new description for buyers, such as 'Price drop! Ships tomorrow.'.
        shipping_cost: new shipping cost in dollars, 0 for free shipping, such as 0.0.
        accepts_offers: whether buyers may make offers below the price.

    Returns:
        The updated listing.

    Raises:
        not_found: no listing has that ID.
        not_your_listing: the listing belongs to another member.
        listing_unavailable: the listing is sold or withdrawn.
        nothing_to_change: no field to change was given.
        invalid_title: the new title is empty.
    """
    _own_active(ctx, listing_id)
    changes: dict[str, object] = {}
    if price is not None:
        changes["price"] = money(price)
    if listing_title is not None:
        changes["title"] = clean_text(listing_title, "invalid_title", "title")
    if description is not None:
        changes["description"] = description.strip()
    if shipping_cost is not None:
        changes["shipping_cost"] = money(shipping_cost)
    if accepts_offers is not None:
        changes["accepts_offers"] = int(accepts_offers)
    if not changes:
        raise ToolError("nothing_to_change", "No new value was given.",
                        hint="Pass at least one of price, listing_title, description, shipping_cost, accepts_offers.")
    ctx.update("listing", listing_id, {**changes, "updated_at": iso(ctx.now())})
    return _detail(ctx, listing_id)


@tools.tool(effect=WRITE, asks=[
    "Take down {listing_id}.",
    "Please withdraw {listing_id}; I sold it elsewhere.",
], reply=[
    "Withdrew '{result.title}'; it's no longer for sale.",
    "Done: {listing_id} is off the marketplace.",
])
def withdraw_listing(ctx: Ctx, listing_id: MyActiveListingId) -> Listing:
    """Withdraw one of the signed-in member's active listings; open offers on it are rejected.

    Args:
        listing_id: ID of the member's own active listing, such as 'LST-10199'.

    Returns:
        The listing, now with status 'withdrawn'.

    Raises:
        not_found: no listing has that ID.
        not_your_listing: the listing belongs to another member.
        listing_unavailable: the listing is already sold or withdrawn.
    """
    _own_active(ctx, listing_id)
    now = iso(ctx.now())
    ctx.db.execute("UPDATE listings SET status = 'withdrawn', updated_at = ? WHERE listing_id = ?", (now, listing_id))
    ctx.db.execute("UPDATE offers SET status = 'rejected', responded_at = ? WHERE listing_id = ? "
                   "AND status IN ('pending', 'countered') AND expires_at > ?", (now, listing_id, now))
    return _detail(ctx, listing_id)
