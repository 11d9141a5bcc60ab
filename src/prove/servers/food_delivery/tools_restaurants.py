"""Finding food: restaurants, their menus and hours, dishes across restaurants, offers, favorites."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Literal

from prove.env import READ, WRITE, Ask, Ctx, Toolset, Where
from prove.env.values import said_in_part

from .server import (
    WEEKDAYS,
    AddressId,
    Cuisine,
    Dietary,
    Dish,
    DishList,
    Favorite,
    Limit,
    Menu,
    MenuItem,
    Money,
    OpeningHours,
    Promotion,
    PromotionList,
    Query,
    Restaurant,
    RestaurantId,
    RestaurantList,
    RestaurantSummary,
    Zone,
    address_row,
    hours_on,
    is_open,
    menu_item,
    next_opening,
    promo_used,
    restaurant_summary,
)

tools = Toolset("restaurants")


@tools.tool(effect=READ, asks=[
    # (a cuisine is what the app lists places under: "Thai", but also "Burgers" and "Bakery")
    "Which places listed under {cuisine} deliver to me?",
    Ask("Find me somewhere that's open now and does {query}.", open_now=True),
    Ask("Which restaurants deliver to {address_id}? Cheapest delivery first.", sort_by="delivery_fee"),
    "Any restaurants listed under {cuisine} that charge less than {max_delivery_fee} dollars to deliver?",
    Ask("Show my favorite restaurants.", favorites_only=True),
    Ask("Of the places listed under {cuisine}, whose delivery is fastest?", sort_by="delivery_time"),
], reply=[
    Ask("Here's what I found, best rated first: {result.restaurants_text}.", sort_by="rating"),
    Ask("Your favorites, best rated first: {result.restaurants_text}.", sort_by="rating", favorites_only=True),
    Ask("Cheapest delivery first: {result.restaurants_text}.", sort_by="delivery_fee"),
    Ask("Fastest first: {result.restaurants_text}.", sort_by="delivery_time"),
    Ask("Here's what I found, by name: {result.restaurants_text}.", sort_by="name"),
], values={
    # What a place "does": food every world's restaurants serve, never a restaurant's own name.
    "query": ["sushi", "pho", "pizza", "burgers", "tacos", "ramen", "dumplings", "breakfast", "noodles", "salads",
              "pastries"],
})
def search_restaurants(ctx: Ctx, query: Query | None = None, cuisine: Cuisine | None = None,
                       open_now: bool = False, address_id: AddressId | None = None, delivers_only: bool = True,
                       favorites_only: bool = False, max_delivery_fee: Money | None = None,
                       sort_by: Literal["rating", "delivery_fee", "delivery_time", "name"] = "rating",
                       limit: Limit = 10) -> RestaurantList:
    """Search the restaurants of the customer's city.

    By default only restaurants that deliver to the customer's default address are listed; pass
    `address_id` to ask about another saved address, or `delivers_only=false` to see every
    restaurant. Whether a restaurant is open is judged at the current time.

    Args:
        query: part of a restaurant's name, cuisine or description, such as 'sushi' or 'Tsuru'.
        cuisine: only restaurants of this cuisine, such as 'Thai'.
        open_now: only restaurants open right now.
        address_id: saved address to check delivery to, such as 'ADR-10002'; default: the default address.
        delivers_only: only restaurants that deliver to that address (default true).
        favorites_only: only the customer's favorite restaurants.
        max_delivery_fee: only restaurants whose delivery fee to that address is at most this many dollars, such as 2.5.
        sort_by: 'rating' (best first), 'delivery_fee' (cheapest first), 'delivery_time' (fastest first) or 'name'.
        limit: the most restaurants to return, from 1 to 100, such as 10.

    Returns:
        The matching restaurants with cuisine, rating, whether they are open now, today's hours,
        delivery fee and estimated minutes to the address, minimum order and favorite flag, and
        how many matched.

    Raises:
        not_found: `address_id` is not a saved address.
    """
    address = address_row(ctx, address_id)
    where = Where()
    if query is not None:
        where.add("(instr(lower(name), lower(?)) > 0 OR instr(lower(cuisine), lower(?)) > 0 "
                  "OR instr(lower(description), lower(?)) > 0)", *[query] * 3)
    where.eq("cuisine", cuisine)
    if favorites_only:
        where.add("restaurant_id IN (SELECT restaurant_id FROM favorites)")
    rows = ctx.db.execute(f"SELECT * FROM restaurants WHERE {where.sql} ORDER BY restaurant_id", where.params)
    found = [restaurant_summary(ctx, row, address) for row in rows]
    if open_now:
        found = [r for r in found if r.open_now]
    if delivers_only or max_delivery_fee is not None:
        found = [r for r in found if r.delivers]
    if max_delivery_fee is not None:
        found = [r for r in found if r.delivery_fee is not None and r.delivery_fee <= max_delivery_fee + 1e-9]
    keys = {
        "rating": lambda r: (-r.rating, r.name),
        "delivery_fee": lambda r: (r.delivery_fee if r.delivery_fee is not None else 1e9, r.name),
        "delivery_time": lambda r: (r.estimated_minutes if r.estimated_minutes is not None else 10**6, r.name),
        "name": lambda r: (r.name.lower(), r.restaurant_id),
    }
    found.sort(key=keys[sort_by])
    return RestaurantList(restaurants=found[:limit], total=len(found),
                          restaurants_text=_restaurants_text(found[:limit], len(found), cuisine is None,
                                                             f"{ctx.now():%H:%M}"))


def _restaurants_text(found: list[RestaurantSummary], total: int, say_cuisine: bool, now: str) -> str:
    """'Tsuru Sushi (Japanese, Hawthorne): rated 4.6 from 1,674 ratings, open until 11 PM, $2.99 delivery in
    about 35 minutes; Sakura Sushi (Japanese, Nob Hill): ..., opens at 11 AM, ...', the cuisine left out where
    the request named it; `now` is the time of day, '09:00'."""
    def one(r: RestaurantSummary) -> str:
        where = f"{r.cuisine}, {r.neighborhood}" if say_cuisine else r.neighborhood
        rated = f"rated {r.rating:g} from {r.rating_count:,} rating{'' if r.rating_count == 1 else 's'}" \
            if r.rating_count else "not rated yet"
        if r.open_now:
            hours = f"open until {_clock(r.hours_today.split('-')[1])}"
        elif r.hours_today == "closed":
            hours = "closed today"
        else:
            opens = r.hours_today.split("-")[0]
            hours = f"opens at {_clock(opens)}" if now < opens else "closed for the day"
        delivery = f"${r.delivery_fee:.2f} delivery in about {r.estimated_minutes} minutes" \
            if r.delivers and r.delivery_fee is not None else "doesn't deliver there"
        return f"{r.name} ({where}): {rated}, {hours}, {delivery}"
    return said_in_part([one(r) for r in found[:5]], total, "no restaurants", noun="restaurant")


@tools.tool(effect=READ, asks=[
    "Tell me about {restaurant_id}: is it open and how much is delivery?",
    "What are the opening hours of {restaurant_id}?",
    "Does {restaurant_id} deliver to {address_id}?",
], reply=[
    "{result.name} is {result.open_status}, and it {result.delivery_quote}. Its hours are {result.hours_text}.",
    "{result.name} {result.delivery_quote}. It's {result.open_status}; the hours are {result.hours_text}.",
    "{result.name} is {result.open_status}; its hours are {result.hours_text}.",
    "{result.name} {result.delivery_quote}.",
])
def get_restaurant(ctx: Ctx, restaurant_id: RestaurantId, address_id: AddressId | None = None) -> Restaurant:
    """Show one restaurant: description, hours for the week, delivery zones and fees, and whether it is open.

    Args:
        restaurant_id: ID of the restaurant, such as 'RST-10010'.
        address_id: saved address to quote delivery to, such as 'ADR-10002'; default: the default address.

    Returns:
        The restaurant with its rating, address, phone, kitchen time, whether it is open now and
        when it next opens, opening hours per weekday, the neighborhoods it delivers to with fees
        and travel times, and the delivery fee and estimated minutes to the address.

    Raises:
        not_found: the restaurant or the address does not exist.
    """
    row = ctx.get("restaurant", restaurant_id)
    address = address_row(ctx, address_id)
    summary = restaurant_summary(ctx, row, address)
    week_start = ctx.today() - timedelta(days=ctx.today().weekday())
    hours = []
    for i, day in enumerate(WEEKDAYS):
        h = hours_on(ctx, restaurant_id, week_start + timedelta(days=i))
        hours.append(OpeningHours(day=day, opens=h[0] if h else None, closes=h[1] if h else None))
    zones = [Zone(neighborhood=z["neighborhood"], delivery_fee=z["delivery_fee"], delivery_minutes=z["delivery_minutes"])
             for z in ctx.db.execute("SELECT * FROM delivery_zones WHERE restaurant_id = ? ORDER BY delivery_fee, "
                                     "neighborhood", (restaurant_id,))]
    nxt = None if summary.open_now else next_opening(ctx, restaurant_id, ctx.now())
    if summary.delivers:
        quote = f"delivers to {address['label']} for ${summary.delivery_fee:.2f}, in about " \
                f"{summary.estimated_minutes} minutes"
    else:
        quote = f"doesn't deliver to {address['label']} ({address['neighborhood']})"
    return Restaurant(**summary.model_dump(), description=row["description"], street_address=row["street_address"],
                      phone=row["phone"], prep_minutes=row["prep_minutes"], next_opening=nxt,
                      hours=hours, delivery_zones=zones, open_status=_open_status(ctx, restaurant_id, nxt),
                      hours_text=_hours_text(hours), delivery_quote=quote)


def _clock(hhmm: str) -> str:
    """'21:00' -> '9 PM', '09:30' -> '9:30 AM'."""
    hour, minute = int(hhmm[:2]), int(hhmm[3:5])
    text = str(hour % 12 or 12) + (f":{minute:02d}" if minute else "")
    return f"{text} {'AM' if hour < 12 else 'PM'}"


def _hours_text(hours: list[OpeningHours]) -> str:
    """The week's hours as a person says them, runs of days with the same hours together."""
    runs: list[tuple[str, str, str | None, str | None]] = []
    for h in hours:
        if runs and runs[-1][2:] == (h.opens, h.closes):
            runs[-1] = (runs[-1][0], h.day, h.opens, h.closes)
        else:
            runs.append((h.day, h.day, h.opens, h.closes))
    if len(runs) == 1 and runs[0][2] and runs[0][3]:
        return f"every day {_clock(runs[0][2])}-{_clock(runs[0][3])}"
    same: dict[tuple[str, str], list[str]] = {}  # runs with the same hours said together
    closed = []
    for first, last, opens, closes in runs:
        # Two days running are named each ("Monday, Wednesday, Thursday and Sunday"); more, as a span.
        days = [first] if first == last else [first, last] if WEEKDAYS.index(last) == WEEKDAYS.index(first) + 1 \
            else [f"{first} to {last}"]
        if opens and closes:
            same.setdefault((opens, closes), []).extend(days)
        else:
            closed.extend(days)
    parts = [f"{_and(days)} {_clock(h[0])}-{_clock(h[1])}" for h, days in same.items()]
    return ", ".join(parts + ([f"closed {_and(closed)}"] if closed else [])) or "closed every day"


def _open_status(ctx: Ctx, restaurant_id: str, nxt: str | None) -> str:
    """'open now, until 10 PM', 'closed now, opening tomorrow at 11 AM' or 'closed all week'."""
    now = ctx.now()
    if nxt is None:
        today = hours_on(ctx, restaurant_id, now.date())
        if today is not None and today[0] <= now.strftime("%H:%M") < today[1]:
            return f"open now, until {_clock(today[1])}"
        return "closed for the coming week"
    at = datetime.fromisoformat(nxt)
    when = "today" if at.date() == now.date() else "tomorrow" if at.date() == now.date() + timedelta(days=1) \
        else WEEKDAYS[at.weekday()]
    return f"closed now, opening {when} at {_clock(at.strftime('%H:%M'))}"


PRICE_LIMITS = [8.0, 10.0, 12.0, 15.0, 15.0, 20.0, 25.0]  # what a person will pay for a dish


@tools.tool(effect=READ, asks=[
    "What's on the menu at {restaurant_id}?",
    "Show me the {dietary} options at {restaurant_id}.",
    "What's under {category} on the {restaurant_id} menu for less than ${max_price}?",
    Ask("What can I order from {restaurant_id} that isn't sold out?", available_only=True),
], values={"max_price": PRICE_LIMITS}, reply=[
    "At {result.restaurant_name} I found {result.dishes_text}.",
    "{result.restaurant_name} has {result.dishes_text}.",
])
def get_menu(ctx: Ctx, restaurant_id: RestaurantId, category: Query | None = None, dietary: Dietary | None = None,
             max_price: Money | None = None, available_only: bool = False) -> Menu:
    """Show a restaurant's menu, optionally narrowed to a category, a diet or a price.

    Args:
        restaurant_id: ID of the restaurant, such as 'RST-10029'.
        category: only this menu section, such as 'Breakfast' or 'Drinks' (case-insensitive).
        dietary: only dishes that are 'vegetarian', 'vegan' or 'gluten_free'.
        max_price: only dishes costing at most this many dollars, such as 12.0.
        available_only: leave out dishes that are sold out right now.

    Returns:
        The restaurant's menu sections and the matching dishes with item ID, price, description,
        dietary flags, whether they are popular and whether they are available.

    Raises:
        not_found: the restaurant does not exist.
    """
    rest = ctx.get("restaurant", restaurant_id)
    rows = ctx.db.execute("SELECT * FROM menu_items WHERE restaurant_id = ? ORDER BY item_id", (restaurant_id,)).fetchall()
    categories = list(dict.fromkeys(r["category"] for r in rows))
    items = [menu_item(r) for r in rows]
    if category is not None:
        items = [i for i in items if i.category.lower() == category.lower()]
    if dietary is not None:
        items = [i for i in items if getattr(i, dietary)]
    if max_price is not None:
        items = [i for i in items if i.price <= max_price + 1e-9]
    if available_only:
        items = [i for i in items if i.available]
    return Menu(restaurant_id=restaurant_id, restaurant_name=rest["name"], categories=categories, items=items,
                total=len(items), dishes_text=_dishes_text(items, categories, category, max_price, dietary,
                                                          available_only))


def _dishes_text(items: list[MenuItem], categories: list[str], category: str | None = None,
                 max_price: float | None = None, dietary: str | None = None, available_only: bool = False,
                 shown: int = 8) -> str:
    """'2 dishes: Pho Tai ($15.00) and Iced Coffee ($5.50, sold out)', '4 vegan dishes: ...', '11 dishes that
    aren't sold out: ...', '2 dishes in Starters for $15.00 or less: ...', 'nothing in Mains for $8.00 or less'
    (a section it has), or what the menu has instead."""
    section = next((c for c in categories if category is not None and c.lower() == category.lower()), None)
    if not items and section is not None:
        return f"nothing in {section}" + (f" for ${max_price:,.2f} or less" if max_price is not None else " that matches")
    if not items:
        return f"nothing that matches; its menu has {_and(categories)}" if categories else "nothing on the menu"
    named = [f"{i.name} (${i.price:,.2f}{'' if i.available else ', sold out'})" for i in items]
    if len(named) > shown:
        named = named[:shown] + [f"{len(items) - shown} more"]
    diet = f"{dietary.replace('_', '-')} " if dietary else ""
    which = (" that isn't" if len(items) == 1 else " that aren't") + " sold out" if available_only else ""
    where = (f" in {section}" if section is not None else "") + \
        (f" for ${max_price:,.2f} or less" if max_price is not None else "")
    return f"{len(items)} {diet}{'dish' if len(items) == 1 else 'dishes'}{where}{which}: {_and(named)}"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


@tools.tool(effect=READ, asks=[
    "Where can I get {query} delivered?",
    "Find {dietary} {query} under {max_price} dollars.",
    Ask("Who has {query} that I can order right now?", open_now=True),
    "Which restaurants listed under {cuisine} have {query}?",
], reply=[
    "Cheapest first: {result.dishes_text}.",
    "I found {result.dishes_text}.",
], values={"max_price": PRICE_LIMITS})
def search_dishes(ctx: Ctx, query: Query, dietary: Dietary | None = None, max_price: Money | None = None,
                  cuisine: Cuisine | None = None, open_now: bool = False, address_id: AddressId | None = None,
                  limit: Limit = 10) -> DishList:
    """Search dishes across the restaurants that deliver to an address, cheapest first.

    Args:
        query: part of a dish's name or description, such as 'pad thai' or 'ramen'.
        dietary: only dishes that are 'vegetarian', 'vegan' or 'gluten_free'.
        max_price: only dishes costing at most this many dollars, such as 15.0.
        cuisine: only restaurants of this cuisine, such as 'Japanese'.
        open_now: only restaurants open right now.
        address_id: saved address the restaurants must deliver to, such as 'ADR-10002'; default: the default address.
        limit: the most dishes to return, from 1 to 100, such as 10.

    Returns:
        Matching available dishes with their restaurant (ID, name, open now) and price, cheapest
        first, and how many matched.

    Raises:
        not_found: `address_id` is not a saved address.
    """
    address = address_row(ctx, address_id)
    sql = ("SELECT m.*, r.name AS restaurant_name, r.cuisine FROM menu_items m "
           "JOIN restaurants r ON r.restaurant_id = m.restaurant_id "
           "JOIN delivery_zones z ON z.restaurant_id = r.restaurant_id AND z.neighborhood = ? "
           "WHERE m.available = 1 AND (instr(lower(m.name), lower(?)) > 0 OR instr(lower(m.description), lower(?)) > 0)")
    params: list[object] = [address["neighborhood"], query, query]
    if cuisine is not None:
        sql += " AND r.cuisine = ?"
        params.append(cuisine)
    if max_price is not None:
        sql += " AND m.price <= ?"
        params.append(max_price + 1e-9)
    if dietary is not None:
        sql += {"vegetarian": " AND m.vegetarian = 1", "vegan": " AND m.vegan = 1",
                "gluten_free": " AND m.gluten_free = 1"}[dietary]
    dishes = []
    for row in ctx.db.execute(sql + " ORDER BY m.price, r.name, m.item_id", params):
        open_ = is_open(ctx, row["restaurant_id"], ctx.now())
        if open_now and not open_:
            continue
        dishes.append(Dish(**menu_item(row).model_dump(), restaurant_id=row["restaurant_id"],
                           restaurant_name=row["restaurant_name"], open_now=open_))
    said = [f"{d.name} at {d.restaurant_name} (${d.price:,.2f}{'' if d.open_now else ', closed now'})"
            for d in dishes[:min(limit, 6)]]
    return DishList(dishes=dishes[:limit], total=len(dishes),
                    dishes_text=said_in_part(said, len(dishes), "no dishes", noun="dish"))


@tools.tool(effect=READ, asks=[
    "Are there any promo codes I can use?",
    "What deals are there at {restaurant_id}?",
    Ask("Show every promo code, including the ones I've already used.", include_used=True),
], reply=["You have {result.promotions_text}."])
def list_promotions(ctx: Ctx, restaurant_id: RestaurantId | None = None, include_used: bool = False) -> PromotionList:
    """List the promo codes that are valid today, optionally only those that work at one restaurant.

    Args:
        restaurant_id: only codes usable at this restaurant, such as 'RST-10010'.
        include_used: also list codes the customer has already used (each code works once).

    Returns:
        The codes with what they take off, their minimum food subtotal, the restaurant or cuisine
        they are limited to, their last valid day and whether the customer already used them.

    Raises:
        not_found: the restaurant does not exist.
    """
    rest = ctx.get("restaurant", restaurant_id) if restaurant_id is not None else None
    today = ctx.today().isoformat()
    promos = []
    for row in ctx.db.execute("SELECT * FROM promo_codes WHERE valid_from <= ? AND valid_until >= ? ORDER BY code",
                              (today, today)):
        if rest is not None and (row["restaurant_id"] not in (None, rest["restaurant_id"])
                                 or row["cuisine"] not in (None, rest["cuisine"])):
            continue
        used = promo_used(ctx, row["code"])
        if used and not include_used:
            continue
        promos.append(Promotion(code=row["code"], summary=row["description"], valid_until=row["valid_until"],
                                kind=row["kind"], value=row["value"], max_discount=row["max_discount"],
                                min_subtotal=row["min_subtotal"], restaurant_id=row["restaurant_id"],
                                cuisine=row["cuisine"], used=used))
    said = [f"{p.code} for {p.summary[:1].lower()}{p.summary[1:]}, until {_day(p.valid_until)}"
            f"{' (used already)' if p.used else ''}" for p in promos]
    listed = said[0] if len(said) == 1 else "; ".join(said[:-1]) + "; and " + said[-1] if said else ""
    return PromotionList(promotions=promos, total=len(promos), promotions_text=(
        f"{len(said)} promo code{'' if len(said) == 1 else 's'}: {listed}" if said else "no promo codes"))


def _day(text: str) -> str:
    at = date.fromisoformat(text[:10])
    return f"{at:%B} {at.day}"


@tools.tool(effect=WRITE, asks=[
    Ask("Add {restaurant_id} to my favorites.", favorite=True),
    Ask("Take {restaurant_id} off my favorite restaurants.", favorite=False),
    Ask("Save {restaurant_id} as a favorite; I love it.", favorite=True),
], reply=[
    Ask("Done: {restaurant_id} is in your favorites.", favorite=True),
    Ask("Saved {restaurant_id} as a favorite.", favorite=True),
    Ask("Done: {restaurant_id} is off your favorites.", favorite=False),
    Ask("Removed {restaurant_id} from your favorite restaurants.", favorite=False),
])
def set_favorite(ctx: Ctx, restaurant_id: RestaurantId, favorite: bool = True) -> Favorite:
    """Add a restaurant to the customer's favorites, or remove it (idempotent).

    Args:
        restaurant_id: ID of the restaurant, such as 'RST-10010'.
        favorite: true to add it to favorites, false to remove it.

    Returns:
        The restaurant and whether it is now a favorite.

    Raises:
        not_found: the restaurant does not exist.
    """
    rest = ctx.get("restaurant", restaurant_id)
    if favorite:
        ctx.db.execute("INSERT OR IGNORE INTO favorites (restaurant_id, added_at) VALUES (?, ?)",
                       (restaurant_id, ctx.now_iso()))
    else:
        ctx.db.execute("DELETE FROM favorites WHERE restaurant_id = ?", (restaurant_id,))
    return Favorite(restaurant_id=restaurant_id, name=rest["name"], is_favorite=favorite)



