"""Retail chain tools: stores and their hours, products, stock and shelf prices, the home store."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import iso, like, money, parse_time, said_in_part

from .server import (
    AVAILABLE_SQL,
    WEEKDAYS,
    CustomerId,
    Limit,
    OtherOpenStoreId,
    ProductId,
    StoreId,
    is_open,
    next_opening,
    require_open,
    today_hours,
    units,
    weekly_hours,
)

tools = Toolset("stores")

Department = Literal["Kitchen & Dining", "Home & Bedding", "Electronics", "Tools & Hardware", "Outdoor & Garden",
                     "Sports & Fitness", "Toys & Games", "Health & Beauty"]


class StoreSummary(BaseModel):
    store_id: StoreId
    name: str
    format: str = Field(description="'flagship', 'standard' or 'express' (small, no click-and-collect).")
    city: str
    state: str
    address: str
    phone: str
    status: str = Field(description="'open' or 'temporarily_closed'.")
    status_note: str | None
    offers_pickup: bool
    open_now: bool
    hours_today: str = Field(description="Today's opening hours, such as '10:00-21:00', or 'closed'.")
    next_opening: str | None = Field(description="When the store next opens, if it is closed now.")
    is_home_store: bool


class StoreList(BaseModel):
    stores: list[StoreSummary]
    total: int
    stores_text: str = Field(description="The stores in words, such as 'Harbor Supply Co. Downtown (1789 Valley "
                                         "Road, Bellevue) and Harbor Supply Co. Westside (12 Pine Road, Olympia, "
                                         "temporarily closed)'.")


def _store_list_text(stores: list[StoreSummary]) -> str:
    """Each store by its name and where it is (its street and city), and whether it is closed for now."""
    named = [f"{s.name} ({', '.join(s.address.split(', ')[:2])}"
             f"{', temporarily closed' if s.status == 'temporarily_closed' else ''})" for s in stores]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1] if named else "no stores"


class DayHours(BaseModel):
    day: str
    opens: str | None
    closes: str | None


class Store(StoreSummary):
    tax_rate: float = Field(description="Sales tax percent charged at this store.")
    weekly_hours: list[DayHours]
    products_carried: int
    open_status: str = Field(description="Whether it is open now and until when, or when it opens next, in words.")
    hours_text: str = Field(description="The weekly opening hours on one line, such as 'Monday to Saturday "
                                        "9 AM-9 PM, Sunday 10 AM-6 PM'.")


class ProductSummary(BaseModel):
    product_id: ProductId
    sku: str
    name: str
    brand: str
    category: str
    list_price: float


class ProductList(BaseModel):
    products: list[ProductSummary]
    total: int
    products_text: str = Field(description="The products in words, such as '84-inch Blackout Curtain Pair "
                                           "(Nicetown, $42.99)'.")


class Product(ProductSummary):
    description: str
    stores_with_stock: int
    units_available: int = Field(description="Units available for pickup across all stores.")


class StoreStock(BaseModel):
    store_id: StoreId
    store_name: str
    city: str
    available: int
    price: float
    on_clearance: bool
    offers_pickup: bool
    open_now: bool


class StockList(BaseModel):
    product_id: ProductId
    product_name: str
    stores: list[StoreStock]
    total: int
    stores_text: str = Field(description="The stores on one line with their units and price, or 'nowhere right now' "
                                         "('nowhere in Spokane right now' for a city).")


class PriceCheck(BaseModel):
    product_id: ProductId
    product_name: str
    store_id: StoreId
    store_name: str
    list_price: float
    store_price: float
    on_clearance: bool
    savings: float
    tax_rate: float
    price_with_tax: float
    available: int
    clearance_note: str = Field(description="Whether it is on clearance and how much that saves, in words.")


class HomeStore(BaseModel):
    customer_id: CustomerId
    home_store_id: StoreId
    home_store_name: str
    previous_home_store_id: StoreId


def _summary(ctx: Ctx, row, home: str) -> StoreSummary:  # noqa: ANN001 - a sqlite3.Row
    now = ctx.now()
    hours = weekly_hours(ctx, row["store_id"])
    open_now = is_open(row, hours, now)
    nxt = None if open_now else next_opening(row, hours, now)
    return StoreSummary(store_id=row["store_id"], name=row["name"], format=row["format"], city=row["city"],
                        state=row["state"], address=row["address"], phone=row["phone"], status=row["status"],
                        status_note=row["status_note"], offers_pickup=bool(row["offers_pickup"]), open_now=open_now,
                        hours_today=today_hours(hours, now) if row["status"] == "open" else "closed",
                        next_opening=iso(nxt) if nxt else None, is_home_store=row["store_id"] == home)


def _clock(hhmm: str) -> str:
    """'21:00' -> '9 PM', '09:30' -> '9:30 AM'."""
    hour, minute = int(hhmm[:2]), int(hhmm[3:5])
    text = str(hour % 12 or 12) + (f":{minute:02d}" if minute else "")
    return f"{text} {'AM' if hour < 12 else 'PM'}"


def hours_text(hours: dict[int, tuple[str, str]]) -> str:
    """The week's hours as a person says them, runs of days with the same hours together."""
    runs: list[tuple[int, int, tuple[str, str] | None]] = []
    for d in range(7):
        h = hours.get(d)
        if runs and runs[-1][2] == h:
            runs[-1] = (runs[-1][0], d, h)
        else:
            runs.append((d, d, h))
    if len(runs) == 1 and runs[0][2]:
        return f"every day {_clock(runs[0][2][0])}-{_clock(runs[0][2][1])}"
    same: dict[tuple[str, str], list[str]] = {}  # runs with the same hours said together
    closed = []
    for first, last, h in runs:
        join = " and " if last == first + 1 else " to "
        days = WEEKDAYS[first] if first == last else f"{WEEKDAYS[first]}{join}{WEEKDAYS[last]}"
        (same.setdefault(h, []) if h else closed).append(days)
    parts = [f"{' and '.join(days)} {_clock(h[0])}-{_clock(h[1])}" for h, days in same.items()]
    return ", ".join(parts + ([f"closed {' and '.join(closed)}"] if closed else [])) or "closed every day"


def open_status(row, hours: dict[int, tuple[str, str]], now: datetime) -> str:  # noqa: ANN001 - a sqlite3.Row
    """'open now, until 9 PM', 'closed now, opening Tuesday at 9 AM' or 'temporarily closed (...)'."""
    if row["status"] != "open":
        note = (row["status_note"] or "").rstrip(".")
        return "temporarily closed" + (f" {note[7:]}" if note.startswith("Closed ") else f" ({note})" if note else "")
    if is_open(row, hours, now):
        return f"open now, until {_clock(hours[now.weekday()][1])}"
    nxt = next_opening(row, hours, now)
    if nxt is None:
        return "closed now"
    when = "today" if nxt.date() == now.date() else "tomorrow" if nxt.date() == now.date() + timedelta(days=1) \
        else WEEKDAYS[nxt.weekday()]
    return f"closed now, opening {when} at {_clock(nxt.strftime('%H:%M'))}"


def _home(ctx: Ctx) -> str:
    return ctx.db.execute("SELECT home_store_id FROM customers").fetchone()[0]


@tools.tool(effect=READ, asks=[
    "Which stores do you have in {city}?",
    "Is any store in {city} open at {open_at}?",
    Ask("Find me a store that does click-and-collect.", pickup_only=True),
    Ask("Which of your stores in {city} offer click-and-collect pickup?", pickup_only=True),
    "List all your stores.",
], reply=[
    Ask("Here are the stores: {result.stores_text}.", open_at=None, pickup_only=False),
    Ask("We have {result.stores_text}.", open_at=None, pickup_only=False),
    Ask("These stores do click-and-collect: {result.stores_text}.", open_at=None, pickup_only=True),
    "Open in {city} on {open_at}: {result.stores_text}.",
])
def find_stores(ctx: Ctx, city: str | None = None, open_at: str | None = None, pickup_only: bool = False,
                limit: Limit = 20) -> StoreList:
    """Find the chain's stores, by city, by being open at a given time, or by offering click-and-collect.

    Args:
        city: only stores in this city, such as 'Seattle' (case does not matter).
        open_at: only stores open at this local date and time, such as '2026-03-16T19:30'; from
            yesterday to a year ahead.
        pickup_only: only stores that offer click-and-collect pickup (default false).
        limit: most stores to return, 1 to 50, such as 20.

    Returns:
        Stores with address, phone, format, whether they are open now, today's hours, when they next
        open, whether they offer pickup and which is the customer's home store, and the total.

    Raises:
        invalid_time: open_at is not an ISO 8601 local time (a UTC offset is refused), or not between
            yesterday and a year ahead.
    """
    at = None
    if open_at is not None:
        at = parse_time(open_at, "open_at")
        if not ctx.now() - timedelta(days=1) <= at <= ctx.now() + timedelta(days=366):
            raise ToolError("invalid_time", f"{open_at[:40]!r} is not between yesterday and a year ahead.",
                            hint="Store hours are weekly; ask about a time in the coming days.")
    where = Where()
    if city is not None:
        where.add("lower(city) = lower(?)", city.strip())
    if pickup_only:
        where.add("offers_pickup = 1 AND status = 'open'")
    rows = ctx.db.execute(f"SELECT * FROM stores WHERE {where.sql} ORDER BY city, name", where.params).fetchall()
    if at is not None:
        rows = [r for r in rows if is_open(r, weekly_hours(ctx, r["store_id"]), at)]
    home = _home(ctx)
    stores = [_summary(ctx, r, home) for r in rows[:limit]]
    return StoreList(stores=stores, total=len(rows), stores_text=_store_list_text(stores))


@tools.tool(effect=READ, asks=[
    "What are the opening hours of {store_id}?",
    "Is {store_id} open right now?",
    "Give me the address and phone number of {store_id}.",
], reply=[
    "{result.name} is {result.open_status}. Its hours are {result.hours_text}.",
    "{result.name} is {result.open_status}; the hours are {result.hours_text}.",
    "{result.name} is at {result.address}, and the phone number is {result.phone}.",
])
def get_store(ctx: Ctx, store_id: StoreId) -> Store:
    """Look up one store: address, phone, weekly opening hours, whether it is open now, pickup and tax.

    Args:
        store_id: ID of the store, such as 'STR-10001'.

    Returns:
        The store with its hours for every day of the week, open_now, today's hours, when it next
        opens, whether it offers click-and-collect, its sales tax rate and how many products it carries.

    Raises:
        not_found: no store has that ID.
    """
    row = ctx.get("store", store_id)
    hours = weekly_hours(ctx, store_id)
    carried = ctx.db.execute("SELECT count(*) FROM inventory WHERE store_id = ?", (store_id,)).fetchone()[0]
    week = [DayHours(day=WEEKDAYS[d], opens=hours[d][0] if d in hours else None,
                     closes=hours[d][1] if d in hours else None) for d in range(7)]
    return Store(**_summary(ctx, row, _home(ctx)).model_dump(), tax_rate=row["tax_rate"], weekly_hours=week,
                 products_carried=carried, open_status=open_status(row, hours, ctx.now()),
                 hours_text=hours_text(hours))


@tools.tool(effect=READ, asks=[
    # (a query is a product's words as its name says them, "Foam Roller": said as a search, in quotes)
    "Do you sell anything matching '{query}'?",
    "Show me {category} products under ${max_price}.",
    "Search the {category} department for '{query}'.",
    "Find '{query}' for less than ${max_price}.",
], reply=[
    "Here's what I found: {result.products_text}.",
    "Matching products: {result.products_text}.",
])
def search_products(ctx: Ctx, query: str | None = None, category: Department | None = None,
                    max_price: Annotated[float, Field(ge=0)] | None = None, limit: Limit = 10) -> ProductList:
    """Search the chain's catalogue by words (name, brand or SKU), department and price.

    Args:
        query: words to find in the name, brand or SKU, such as 'dutch oven'.
        category: only this department, such as 'Kitchen & Dining'.
        max_price: highest list price in dollars, such as 100.0.
        limit: most products to return, 1 to 50, such as 10.

    Returns:
        Matching products with SKU, brand, department and list price, and the total number of matches.
    """
    where = Where()
    if query is not None:
        for word in query.split()[:8]:
            where.add("(name LIKE ? ESCAPE '\\' OR brand LIKE ? ESCAPE '\\' OR sku LIKE ? ESCAPE '\\')",
                      *[like(word)] * 3)
    where.eq("category", category)
    where.cmp("list_price", "<=", max_price)
    rows = ctx.db.execute(f"SELECT * FROM products WHERE {where.sql} ORDER BY name, product_id",
                          where.params).fetchall()
    products = [ProductSummary(product_id=r["product_id"], sku=r["sku"], name=r["name"], brand=r["brand"],
                               category=r["category"], list_price=r["list_price"]) for r in rows[:limit]]
    return ProductList(products=products, total=len(rows), products_text=said_in_part(
        [f"{p.name} ({p.brand}, ${p.list_price:,.2f})" for p in products[:6]], len(rows), "none"))


@tools.tool(effect=READ, asks=[
    "Tell me more about {product_id}.",
    "What does {product_id} cost, and is it in stock anywhere?",
    "Describe {product_id} for me.",
], reply=[
    "{product_id} from {result.brand} costs ${result.list_price} ({result.category}). {result.description} "
    "{result.stores_with_stock} stores have it in stock, {result.units_available} units in all.",
    Ask("{product_id} from {result.brand} costs ${result.list_price} ({result.category}). {result.description} "
        "Only 1 store has it in stock, with {result.units_available} left.", **{"result.stores_with_stock": 1}),
    Ask("{product_id} from {result.brand} costs ${result.list_price} ({result.category}). {result.description} "
        "No store has it in stock right now.", **{"result.stores_with_stock": 0}),
    # "What does it cost, and is it in stock anywhere?" is answered without the blurb.
    "The price of {product_id} is ${result.list_price}; {result.stores_with_stock} stores have it in stock, "
    "{result.units_available} units in all.",
    Ask("The price of {product_id} is ${result.list_price}; only {result.stores_with_stock} store has it in stock, "
        "with {result.units_available} left.", **{"result.stores_with_stock": 1}),
])
def get_product(ctx: Ctx, product_id: ProductId) -> Product:
    """Look up one product with its description, list price and how much of it the chain has available.

    Args:
        product_id: ID of the product, such as 'PRD-10001'.

    Returns:
        The product, the number of stores with units available and the units available chain-wide.

    Raises:
        not_found: no product has that ID.
    """
    row = ctx.get("product", product_id)
    stores, units = ctx.db.execute(
        f"SELECT sum(a > 0), coalesce(sum(a), 0) FROM (SELECT {AVAILABLE_SQL} AS a FROM inventory i "
        "JOIN stores s ON s.store_id = i.store_id AND s.status = 'open' WHERE i.product_id = :product)",
        {"now": iso(ctx.now()), "product": product_id}).fetchone()
    return Product(product_id=product_id, sku=row["sku"], name=row["name"], brand=row["brand"],
                   category=row["category"], list_price=row["list_price"], description=row["description"],
                   stores_with_stock=stores or 0, units_available=units)


@tools.tool(effect=READ, asks=[
    Ask("Which stores have {product_id} in stock?", in_stock_only=True),
    "Is {product_id} available anywhere in {city}?",
    Ask("Which stores carry {product_id} at all, even the ones out of stock?", in_stock_only=False),
], reply=[
    Ask("Here's where you'll find {product_id} in stock: {result.stores_text}.", in_stock_only=True),
    Ask("Here's where you'll find {product_id}, in stock or not: {result.stores_text}.", in_stock_only=False),
    # (not "Here's where you'll find it in stock: nowhere in Olympia right now.")
    Ask("{product_id} isn't in stock at any store in {city} right now.", in_stock_only=True, **{"result.total": 0}),
    Ask("No store has {product_id} in stock right now.", in_stock_only=True, city=None, **{"result.total": 0}),
    Ask("No store in {city} carries {product_id}.", in_stock_only=False, **{"result.total": 0}),
    Ask("No store carries {product_id}.", in_stock_only=False, city=None, **{"result.total": 0}),
])
def check_availability(ctx: Ctx, product_id: ProductId, city: str | None = None,
                       in_stock_only: bool = True) -> StockList:
    """Check store by store how many units of a product are available, with each store's price.

    Temporarily closed stores are left out. Units held by the customer's active reservations are not
    counted as available.

    Args:
        product_id: ID of the product, such as 'PRD-10001'.
        city: only stores in this city, such as 'Seattle'.
        in_stock_only: leave out stores with no unit available (default true).

    Returns:
        Stores carrying the product with units available, shelf price, clearance flag, pickup and
        whether they are open now, most units first, and the total.

    Raises:
        not_found: no product has that ID.
    """
    product = ctx.get("product", product_id)
    params: dict[str, object] = {"now": iso(ctx.now()), "product": product_id}
    where = "i.product_id = :product AND s.status = 'open'"
    if city is not None:
        where += " AND lower(s.city) = lower(:city)"
        params["city"] = city.strip()
    rows = ctx.db.execute(f"SELECT i.*, s.*, {AVAILABLE_SQL} AS available FROM inventory i "
                          f"JOIN stores s ON s.store_id = i.store_id WHERE {where} "
                          "ORDER BY available DESC, s.name", params).fetchall()
    if in_stock_only:
        rows = [r for r in rows if r["available"] > 0]
    now = ctx.now()
    out = [StoreStock(store_id=r["store_id"], store_name=r["name"], city=r["city"], available=r["available"],
                      price=r["price"], on_clearance=bool(r["clearance"]), offers_pickup=bool(r["offers_pickup"]),
                      open_now=is_open(r, weekly_hours(ctx, r["store_id"]), now)) for r in rows]
    return StockList(product_id=product_id, product_name=product["name"], stores=out, total=len(out),
                     stores_text=_stores_text(out, city.strip() if city is not None else None))


def _stores_text(stores: list[StoreStock], city: str | None) -> str:
    """'Harbor Supply Co. Proctor (5 at $24.00) and Harbor Supply Co. Westside (none left, $24.00)'; without
    a store, 'nowhere in Spokane right now'."""
    if not stores:
        return f"nowhere in {city} right now" if city else "nowhere right now"
    parts = [f"{st.store_name} ({st.available} at ${st.price:.2f})" if st.available
             else f"{st.store_name} (none left, ${st.price:.2f})" for st in stores]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


@tools.tool(effect=READ, asks=[
    "How much is {product_id} at {store_id}?",
    "Price check: {product_id} at {store_id}. Is it on clearance?",
    "What would {product_id} cost me with tax at {store_id}?",
], reply=[
    "The price of {product_id} at {result.store_name} is ${result.store_price}; {result.clearance_note}. "
    "With tax it comes to ${result.price_with_tax}.",
    "At {result.store_name}, the price of {product_id} is ${result.store_price} (${result.price_with_tax} "
    "with tax); {result.clearance_note}.",
    Ask("The price of {product_id} at {result.store_name} is ${result.store_price}, with no sales tax there; "
        "{result.clearance_note}.", **{"result.tax_rate": 0.0}),
])
def check_price(ctx: Ctx, product_id: ProductId, store_id: StoreId) -> PriceCheck:
    """Check a product's shelf price at one store, against the list price, with tax and stock.

    Args:
        product_id: ID of the product, such as 'PRD-10001'.
        store_id: ID of the store, such as 'STR-10001'.

    Returns:
        The list price, the store's price (lower when on clearance), the savings, the store's sales tax
        rate, the price with tax and the units available there.

    Raises:
        not_found: no product or store has that ID.
        not_carried: the store does not carry this product.
    """
    product = ctx.get("product", product_id)
    store = ctx.get("store", store_id)
    row = units(ctx, store, product)
    saving = money(product["list_price"] - row["price"])
    note = (f"it's on clearance, ${saving:.2f} off the ${product['list_price']:.2f} list price" if row["clearance"]
            else "it isn't on clearance")
    return PriceCheck(product_id=product_id, product_name=product["name"], store_id=store_id,
                      store_name=store["name"], list_price=product["list_price"], store_price=row["price"],
                      on_clearance=bool(row["clearance"]), savings=money(product["list_price"] - row["price"]),
                      tax_rate=store["tax_rate"], price_with_tax=money(row["price"] * (1 + store["tax_rate"] / 100)),
                      available=row["available"] if store["status"] == "open" else 0, clearance_note=note)


@tools.tool(effect=WRITE, asks=[
    "Make {store_id} my home store.",
    "Please switch my home store to {store_id}; I moved.",
], reply=[
    "Done: {store_id} is now your home store.",
    "I've set your home store to {result.home_store_name}.",
])
def set_home_store(ctx: Ctx, store_id: OtherOpenStoreId) -> HomeStore:
    """Set the customer's home store, the one shown first and used for store news.

    Args:
        store_id: ID of the new home store, such as 'STR-10002'.

    Returns:
        The new and the previous home store.

    Raises:
        not_found: no store has that ID.
        store_unavailable: the store is temporarily closed.
    """
    store = ctx.get("store", store_id)
    require_open(store, "Choose another store with find_stores.")
    customer = ctx.db.execute("SELECT customer_id, home_store_id FROM customers").fetchone()
    ctx.db.execute("UPDATE customers SET home_store_id = ? WHERE customer_id = ?", (store_id, customer[0]))
    return HomeStore(customer_id=customer[0], home_store_id=store_id, home_store_name=store["name"],
                     previous_home_store_id=customer[1])
