"""Shopping tools for the catalogue: search, products, categories, brands, reviews and the wishlist."""

from __future__ import annotations

import sqlite3
from datetime import date
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import like, said_in_part, spoken_day

from .server import (
    RETURN_WINDOW_DAYS,
    BoughtProductId,
    BrandId,
    CategoryId,
    Limit,
    LongText,
    Price,
    ProductId,
    ReviewId,
    Text,
    VariantId,
    WishedProductId,
    words,
)

tools = Toolset("catalog")

PRODUCT_SELECT = """
SELECT p.product_id, p.name, p.description, p.returnable, p.status, p.added_on, p.brand_id, p.category_id,
       b.name AS brand, c.name AS category,
       (SELECT min(price) FROM variants v WHERE v.product_id = p.product_id) AS price,
       (SELECT max(price) FROM variants v WHERE v.product_id = p.product_id) AS max_price,
       (SELECT coalesce(sum(stock), 0) FROM variants v WHERE v.product_id = p.product_id) AS stock,
       (SELECT round(avg(rating), 1) FROM reviews r WHERE r.product_id = p.product_id) AS rating,
       (SELECT count(*) FROM reviews r WHERE r.product_id = p.product_id) AS review_count
FROM products p JOIN brands b ON b.brand_id = p.brand_id JOIN categories c ON c.category_id = p.category_id
"""


class ProductSummary(BaseModel):
    product_id: ProductId
    name: str
    brand_id: BrandId
    brand: str
    category_id: CategoryId
    category: str
    price: float = Field(description="the lowest price among the product's variants")
    max_price: float
    rating: float | None = Field(description="average review rating out of 5, none without reviews")
    review_count: int
    in_stock: bool
    status: Literal["active", "discontinued"]


class ProductList(BaseModel):
    products: list[ProductSummary]
    total: int = Field(description="how many products match (may exceed the number returned)")
    products_text: str = Field(description="the products in words, such as 'Carhartt Pullover Hoodie ($50.95, "
                                           "rated 4.5 from 2 reviews)'")


def _products_text(products: list[ProductSummary], total: int) -> str:
    """'Carhartt Pullover Hoodie ($50.95, rated 4.5 from 2 reviews) and Chuckit! Ball Launcher ($16.95 to
    $24.95, no reviews yet, out of stock)'."""
    def one(p: ProductSummary) -> str:
        price = f"${p.price:,.2f}" + (f" to ${p.max_price:,.2f}" if p.max_price > p.price else "")
        said = [price, f"rated {p.rating:g} from {p.review_count} review{'s' if p.review_count != 1 else ''}"
                if p.rating is not None and p.review_count else "no reviews yet"]
        if p.status != "active":
            said.append("discontinued")
        elif not p.in_stock:
            said.append("out of stock")
        return f"{p.name} ({', '.join(said)})"
    return said_in_part([one(p) for p in products[:5]], total, "no products")


class Variant(BaseModel):
    variant_id: VariantId
    name: str
    sku: str
    price: float
    stock: int
    in_stock: bool


class ProductDetail(ProductSummary):
    description: str
    returnable: bool = Field(description="false for final-sale products, which cannot be returned")
    variants: list[Variant]
    versions: int = Field(description="how many variants (sizes, colours, formats) it comes in")
    ratings: dict[str, int] = Field(description="number of reviews per star rating, '1' to '5'")
    in_wishlist: bool
    variant_stock: str = Field(description="the variants on one line, each in stock or sold out")
    return_policy: str = Field(description="whether and for how long it can be returned, on one line")


class Category(BaseModel):
    category_id: CategoryId
    name: str
    description: str
    product_count: int


class CategoryList(BaseModel):
    categories: list[Category]
    total: int
    categories_text: str = Field(description="The categories in words, such as 'Books (11 products) and Office "
                                             "Supplies (6 products)'.")


class Brand(BaseModel):
    brand_id: BrandId
    name: str
    product_count: int


class BrandList(BaseModel):
    brands: list[Brand]
    total: int
    brands_text: str = Field(description="The brands in words, such as 'HarperCollins (1 product) and Macmillan (3 "
                                         "products)', or their names only where there are many.")


def _counted(names: list[tuple[str, int]]) -> str:
    """'Books (11 products) and Office Supplies (1 product)', or past ten, 'Allbirds, Anker, ... and 67 more'."""
    if len(names) > 10:
        said = [name for name, _ in names[:10]] + [f"{len(names) - 10} more"]
    else:
        said = [f"{name} ({n} product{'' if n == 1 else 's'})" for name, n in names]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1] if said else "none"


class Review(BaseModel):
    review_id: ReviewId
    product_id: ProductId
    author: str
    rating: int
    title: str
    body: str
    created_on: str
    verified: bool = Field(description="written by someone who bought the product here")
    helpful_votes: int
    is_mine: bool = Field(description="written by the signed-in customer")


class ReviewList(BaseModel):
    reviews: list[Review]
    total: int
    average_rating: float | None
    reviews_text: str = Field(description="the first reviews in words, such as \"5 stars from Caroline J. "
                                          "('Exactly as described'): 'Better than I expected for the price.'\"")


def _reviews_text(reviews: list[Review], total: int, dated: bool, today: date) -> str:
    """"5 stars from Caroline J. ('Exactly as described'): 'Better than I expected for the price.'; 3 stars
    from you ('It's okay'): 'Fine for the price.'; and 4 more reviews", dated where the newest were asked
    for ("4 stars on March 8 from Laila N. ...")."""
    def one(r: Review) -> str:
        stars = f"{r.rating} star" + ("" if r.rating == 1 else "s")
        when = f" on {spoken_day(r.created_on, today)}" if dated else ""
        return f"{stars}{when} from {'you' if r.is_mine else r.author} ('{r.title}'): '{r.body}'"
    return said_in_part([one(r) for r in reviews[:3]], total, "no reviews", noun="review")


class WishlistItem(BaseModel):
    product_id: ProductId
    name: str
    price: float
    in_stock: bool
    status: Literal["active", "discontinued"]
    added_at: str


class Wishlist(BaseModel):
    items: list[WishlistItem]
    total: int
    items_text: str = Field(description="The saved items with price and availability, such as 'KONG Classic Dog "
                                        "Toy ($10.95, in stock)'.")


def _wished_text(items: list[WishlistItem]) -> str:
    """'KONG Classic Dog Toy ($10.95, in stock) and Arm & Hammer Clumping Cat Litter 40 lb ($23.49, out of stock)'."""
    said = [f"{i.name} (${i.price:,.2f}, "
            f"{'discontinued' if i.status == 'discontinued' else 'in stock' if i.in_stock else 'out of stock'})"
            for i in items]
    if not said:
        return "nothing"
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def _summary(row: sqlite3.Row) -> ProductSummary:
    return ProductSummary(product_id=row["product_id"], name=row["name"], brand_id=row["brand_id"],
                          brand=row["brand"], category_id=row["category_id"], category=row["category"],
                          price=row["price"], max_price=row["max_price"], rating=row["rating"],
                          review_count=row["review_count"], in_stock=row["stock"] > 0 and row["status"] == "active",
                          status=row["status"])


def product_row(ctx: Ctx, product_id: str) -> sqlite3.Row:
    return ctx.get("product", product_id, PRODUCT_SELECT + " WHERE p.product_id = ?")


def _review(row: sqlite3.Row) -> Review:
    return Review(review_id=row["review_id"], product_id=row["product_id"], author=row["author"], rating=row["rating"],
                  title=row["title"], body=row["body"], created_on=row["created_on"], verified=bool(row["verified"]),
                  helpful_votes=row["helpful_votes"], is_mine=bool(row["is_mine"]))


def _wishlist(ctx: Ctx) -> Wishlist:
    rows = ctx.db.execute(
        "SELECT w.product_id, w.added_at, p.name, p.status, "
        "(SELECT min(price) FROM variants v WHERE v.product_id = p.product_id) AS price, "
        "(SELECT coalesce(sum(stock), 0) FROM variants v WHERE v.product_id = p.product_id) AS stock "
        "FROM wishlist w JOIN products p ON p.product_id = w.product_id ORDER BY w.added_at DESC").fetchall()
    items = [WishlistItem(product_id=r["product_id"], name=r["name"], price=r["price"],
                          in_stock=r["stock"] > 0 and r["status"] == "active", status=r["status"],
                          added_at=r["added_at"]) for r in rows]
    return Wishlist(items=items, total=len(items), items_text=_wished_text(items))


@tools.tool(effect=READ, asks=[
    "Search the store for '{query}'.",
    "Find products in {category_id} under {max_price} dollars rated at least {min_rating} stars.",
    Ask("Show me the cheapest products in {category_id} that are in stock.", sort="price_low", in_stock_only=True),
    "What products does {brand_id} have in {category_id}?",
    Ask("What are the best-rated products in {category_id}?", sort="rating"),
    Ask("Show me the newest products from {brand_id}.", sort="newest"),
    Ask("What's the most expensive thing in {category_id}?", sort="price_high"),
], reply=[
    "Here's what I found: {result.products_text}.",
    Ask("Cheapest first: {result.products_text}.", sort="price_low"),
    Ask("Priciest first: {result.products_text}.", sort="price_high"),
    Ask("Best rated first: {result.products_text}.", sort="rating"),
    Ask("Newest first: {result.products_text}.", sort="newest"),
])
def search_products(ctx: Ctx, query: str | None = None, category_id: CategoryId | None = None,
                    brand_id: BrandId | None = None, min_price: Price | None = None, max_price: Price | None = None,
                    min_rating: Annotated[float, Field(ge=0, le=5)] | None = None, in_stock_only: bool = False,
                    sort: Literal["relevance", "price_low", "price_high", "rating", "newest"] = "relevance",
                    limit: Limit = 10) -> ProductList:
    """Search the catalogue by keywords and filters.

    Every keyword must appear in the product's name, brand, category or description.

    Args:
        query: keywords, such as 'water bottle' or 'running shoes'; omit to browse.
        category_id: only products in this category, such as 'CAT-10001'.
        brand_id: only products from this brand, such as 'BRAND-10001'.
        min_price: lowest price in dollars, such as 20.0.
        max_price: highest price in dollars, such as 100.0.
        min_rating: lowest average rating, 0 to 5, such as 4.0.
        in_stock_only: only products that can be bought now (default false).
        sort: 'relevance' (default), 'price_low', 'price_high', 'rating' or 'newest'.
        limit: how many to return, 1 to 50 (default 10).

    Returns:
        The matching products with brand, category, lowest price, rating, review count and
        whether they are in stock, and how many match in all.

    Raises:
        not_found: the category or brand does not exist.
    """
    where = Where()
    where.entity(ctx, "category", "p.category_id", category_id)
    where.entity(ctx, "brand", "p.brand_id", brand_id)
    terms = words(query or "")
    for term in terms:
        where.add("(p.name LIKE ? ESCAPE '\\' OR b.name LIKE ? ESCAPE '\\' OR c.name LIKE ? ESCAPE '\\' "
                  "OR p.description LIKE ? ESCAPE '\\')", *[like(term)] * 4)
    rows = ctx.db.execute(PRODUCT_SELECT + where.clause, where.params).fetchall()
    found = []
    for r in rows:
        if min_price is not None and r["max_price"] < min_price:
            continue
        if max_price is not None and r["price"] > max_price:
            continue
        if min_rating is not None and (r["rating"] is None or r["rating"] < min_rating):
            continue
        if in_stock_only and not (r["stock"] > 0 and r["status"] == "active"):
            continue
        found.append(r)

    def relevance(r: sqlite3.Row) -> tuple:
        in_name = sum(t in r["name"].lower() for t in terms)
        return (r["status"] != "active", -in_name, -(r["rating"] or 0), r["product_id"])

    keys = {
        "relevance": relevance,
        "price_low": lambda r: (r["price"], r["product_id"]),
        "price_high": lambda r: (-r["price"], r["product_id"]),
        "rating": lambda r: (-(r["rating"] or 0), -r["review_count"], r["product_id"]),
        "newest": lambda r: (r["added_on"], r["product_id"]),
    }
    found.sort(key=keys[sort], reverse=sort == "newest")
    products = [_summary(r) for r in found[:limit]]
    return ProductList(products=products, total=len(found), products_text=_products_text(products, len(found)))


@tools.tool(effect=READ, asks=[
    "Tell me more about {product_id}.",
    "What sizes or colours can I get {product_id} in, and are they available?",
    "Can I return {product_id} if I change my mind?",
], reply=[
    # (no verb after the name, which may be plural: "the New Balance Road Running Shoes starts")
    "Prices for {product_id} start at ${result.price}, in {result.variant_stock}; any of them is "
    "{result.return_policy}.",
    "You can get {product_id} in {result.variant_stock}; each is {result.return_policy}, and prices start at "
    "${result.price}.",
    Ask("There's one version of {product_id}, ${result.price} and {result.variant_stock}; it's "
        "{result.return_policy}.", **{"result.versions": 1, "result.status": "active"}),
    # The answer to "Can I return it?", alone: once beside the replies for several versions, once
    # beside the one for a single version.
    "Returns of {product_id}: {result.return_policy}.",
    Ask("Returns of {product_id}: {result.return_policy}.", **{"result.versions": 1, "result.status": "active"}),
])
def get_product(ctx: Ctx, product_id: ProductId) -> ProductDetail:
    """Look up one product with its description, variants, stock and rating breakdown.

    Args:
        product_id: ID of the product, such as 'PROD-10001'.

    Returns:
        The product with its variants (ID, size/colour/format name, price, stock), description,
        whether it can be returned, reviews per star rating and whether it is on the wishlist.

    Raises:
        not_found: no product has that ID.
    """
    row = product_row(ctx, product_id)
    variants = [Variant(variant_id=v["variant_id"], name=v["name"], sku=v["sku"], price=v["price"], stock=v["stock"],
                        in_stock=v["stock"] > 0 and row["status"] == "active")
                for v in ctx.db.execute("SELECT * FROM variants WHERE product_id = ? ORDER BY variant_id",
                                        (product_id,))]
    counts = {str(k): 0 for k in range(1, 6)}
    for r in ctx.db.execute("SELECT rating, count(*) AS n FROM reviews WHERE product_id = ? GROUP BY rating",
                            (product_id,)):
        counts[str(r["rating"])] = r["n"]
    wished = ctx.db.execute("SELECT 1 FROM wishlist WHERE product_id = ?", (product_id,)).fetchone() is not None
    return ProductDetail(**_summary(row).model_dump(), description=row["description"],
                         returnable=bool(row["returnable"]), variants=variants, versions=len(variants),
                         ratings=counts, in_wishlist=wished,
                         variant_stock=_variant_stock(variants, row["status"]),
                         return_policy=f"returnable within {RETURN_WINDOW_DAYS} days of delivery" if row["returnable"]
                         else "a final sale, so it can't be returned")


def _variant_stock(variants: list[Variant], status: str) -> str:
    """The variants as a person lists them: 'Black (in stock), White (sold out) and Navy (in stock)', or
    'Black, White and Navy, all in stock' where they all are."""
    if status != "active":
        return "no variant you can buy now (it's discontinued)"
    if len(variants) == 1:  # "one version of X, $57.95 and in stock"
        return "in stock" if variants[0].in_stock else "sold out"
    if len({v.in_stock for v in variants}) == 1:
        names = [v.name for v in variants]
        every = "both" if len(names) == 2 else "all"
        return f"{', '.join(names[:-1])} and {names[-1]}, {every} {'in stock' if variants[0].in_stock else 'sold out'}"
    parts = [f"{v.name} ({'in stock' if v.in_stock else 'sold out'})" for v in variants]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


@tools.tool(effect=READ, asks=[
    "What categories does the store have?",
    "List the store's departments and how many products each has.",
], reply=[
    "The store has {result.total} categories: {result.categories_text}.",
])
def list_categories(ctx: Ctx) -> CategoryList:
    """List the catalogue's categories with how many products each has.

    Returns:
        The categories with their ID, name, description and product count.
    """
    rows = ctx.db.execute("SELECT c.*, (SELECT count(*) FROM products p WHERE p.category_id = c.category_id) AS n "
                          "FROM categories c ORDER BY c.name").fetchall()
    cats = [Category(category_id=r["category_id"], name=r["name"], description=r["description"], product_count=r["n"])
            for r in rows]
    return CategoryList(categories=cats, total=len(cats),
                        categories_text=_counted([(c.name, c.product_count) for c in cats]))


@tools.tool(effect=READ, asks=[
    "Which brands do you carry?",
    "What brands are there in {category_id}?",
], reply=[
    "We carry {result.total} brands: {result.brands_text}.",
])
def list_brands(ctx: Ctx, category_id: CategoryId | None = None) -> BrandList:
    """List brands with how many products each has, optionally within one category.

    Args:
        category_id: only brands with products in this category, such as 'CAT-10001'.

    Returns:
        The brands (by name) with their product counts.

    Raises:
        not_found: the category does not exist.
    """
    if category_id is not None:
        ctx.get("category", category_id)
    rows = ctx.db.execute(
        "SELECT b.brand_id, b.name, count(p.product_id) AS n FROM brands b JOIN products p ON p.brand_id = b.brand_id "
        "WHERE (? IS NULL OR p.category_id = ?) GROUP BY b.brand_id ORDER BY b.name",
        (category_id, category_id)).fetchall()
    brands = [Brand(brand_id=r["brand_id"], name=r["name"], product_count=r["n"]) for r in rows]
    return BrandList(brands=brands, total=len(brands),
                     brands_text=_counted([(b.name, b.product_count) for b in brands]))


@tools.tool(effect=READ, asks=[
    "What do people say about {product_id}?",
    Ask("Show me the newest reviews of {product_id} with at least {min_rating} stars.", sort="newest"),
    Ask("Show me the reviews of {product_id}, worst first.", sort="lowest"),
    Ask("Show me the reviews of {product_id}, best first.", sort="highest"),
], reply=[
    "Here's what people say: {result.reviews_text}. Overall it averages {result.average_rating} stars.",
], values={"min_rating": [2, 3, 4, 5]})  # "at least 1 star" filters nothing
def list_reviews(ctx: Ctx, product_id: ProductId, min_rating: Annotated[int, Field(ge=1, le=5)] | None = None,
                 max_rating: Annotated[int, Field(ge=1, le=5)] | None = None,
                 sort: Literal["newest", "most_helpful", "highest", "lowest"] = "most_helpful",
                 limit: Limit = 10) -> ReviewList:
    """List a product's reviews.

    Args:
        product_id: the product, such as 'PROD-10001'.
        min_rating: only reviews with at least this many stars, 1 to 5.
        max_rating: only reviews with at most this many stars, 1 to 5.
        sort: 'most_helpful' (default), 'newest', 'highest' or 'lowest'.
        limit: how many to return, 1 to 50 (default 10).

    Returns:
        The reviews, how many match, and the product's average rating over all its reviews.

    Raises:
        not_found: no product has that ID.
    """
    ctx.get("product", product_id)
    order = {"newest": "created_on DESC", "most_helpful": "helpful_votes DESC, created_on DESC",
             "highest": "rating DESC, helpful_votes DESC", "lowest": "rating ASC, helpful_votes DESC"}[sort]
    where = "product_id = ? AND rating >= ? AND rating <= ?"
    args = (product_id, min_rating or 1, max_rating or 5)
    (total,) = ctx.db.execute(f"SELECT count(*) FROM reviews WHERE {where}", args).fetchone()
    rows = ctx.db.execute(f"SELECT * FROM reviews WHERE {where} ORDER BY {order}, review_id LIMIT ?",
                          (*args, limit)).fetchall()
    (avg,) = ctx.db.execute("SELECT round(avg(rating), 1) FROM reviews WHERE product_id = ?", (product_id,)).fetchone()
    reviews = [_review(r) for r in rows]
    return ReviewList(reviews=reviews, total=total, average_rating=avg,
                      reviews_text=_reviews_text(reviews, total, sort == "newest", ctx.today()))


@tools.tool(effect=WRITE, asks=[
    "Leave a {rating}-star review of {product_id} titled '{title}': {body}",
    "I want to review {product_id}. {rating} stars. Title: '{title}'. {body}",
    "Rate {product_id} {rating} out of 5 with the headline '{title}' and say: {body}",
], reply=[
    "Published your {rating}-star review of {product_id}.",
    "Posted your review '{title}' for {product_id}.",
], values={
    "rating, title, body": [
        # words that fit any product (a book, a shirt or a blender): the product is drawn apart from them
        (5, "Exactly as described", "Arrived quickly and is just what the photos show."),
        (5, "Love it", "Great quality; I would buy it again."),
        (4, "Great value for the price", "Does the job well; the finish could be a little better."),
        (3, "It's okay", "Fine for the price, but it feels cheaper than I expected."),
        (2, "Disappointing", "The quality doesn't match the photos."),
        (1, "Arrived damaged", "The box was crushed and the item inside was damaged.")],
})
def write_review(ctx: Ctx, product_id: BoughtProductId, rating: Annotated[int, Field(ge=1, le=5)], title: Text,
                 body: LongText) -> Review:
    """Publish the customer's review of a product they bought and received.

    Args:
        product_id: the product, such as 'PROD-10001'.
        rating: stars, 1 to 5, such as 4.
        title: a short headline, such as 'Keeps coffee hot all morning'.
        body: the review text, such as 'Fits my car's cup holder and does not leak.'.

    Returns:
        The published review (verified, since the customer bought the product).

    Raises:
        not_found: no product has that ID.
        not_purchased: none of the customer's delivered orders contains the product.
        already_reviewed: the customer has already reviewed the product.
    """
    ctx.get("product", product_id)
    bought = ctx.db.execute("SELECT 1 FROM order_items i JOIN orders o ON o.order_id = i.order_id "
                            "WHERE i.product_id = ? AND o.status = 'delivered'", (product_id,)).fetchone()
    if bought is None:
        raise ToolError("not_purchased", "Only products from a delivered order can be reviewed.",
                        hint="Check list_orders for delivered orders; a product can be reviewed once it arrives.")
    mine = ctx.db.execute("SELECT review_id FROM reviews WHERE product_id = ? AND is_mine = 1",
                          (product_id,)).fetchone()
    if mine is not None:
        raise ToolError("already_reviewed", f"You already reviewed this product ({mine['review_id']}).")
    (name,) = ctx.db.execute("SELECT name FROM customer").fetchone()
    first, _, last = name.partition(" ")
    rid = ctx.new_id("REV")
    ctx.db.execute("INSERT INTO reviews (review_id, product_id, author, rating, title, body, created_on, verified, "
                   "helpful_votes, is_mine) VALUES (?, ?, ?, ?, ?, ?, ?, 1, 0, 1)",
                   (rid, product_id, f"{first} {last[:1]}.".strip(), rating, title, body, ctx.today().isoformat()))
    return _review(ctx.db.execute("SELECT * FROM reviews WHERE review_id = ?", (rid,)).fetchone())


@tools.tool(effect=READ, asks=[
    "What's on my wishlist?",
    "Show me my saved items and whether they're available.",
], reply=[
    "Your wishlist: {result.items_text}.",
    "You've saved {result.items_text}.",
])
def get_wishlist(ctx: Ctx) -> Wishlist:
    """Show the customer's wishlist, most recently added first.

    Returns:
        The wished-for products with their lowest price and whether they are in stock.
    """
    return _wishlist(ctx)


@tools.tool(effect=WRITE, asks=[
    "Save {product_id} to my wishlist.",
    "Add {product_id} to my wish list for later.",
    "Put {product_id} on my wishlist so I don't forget.",
], reply=[
    "Added {product_id} to your wishlist; it has {result.total} items now.",
    "Saved {product_id} to your wishlist for later.",
])
def add_to_wishlist(ctx: Ctx, product_id: ProductId) -> Wishlist:
    """Add a product to the wishlist.

    Args:
        product_id: the product, such as 'PROD-10002'.

    Returns:
        The wishlist after the change.

    Raises:
        not_found: no product has that ID.
        already_in_wishlist: the product is already on the wishlist.
    """
    ctx.get("product", product_id)
    if ctx.db.execute("SELECT 1 FROM wishlist WHERE product_id = ?", (product_id,)).fetchone():
        raise ToolError("already_in_wishlist", f"{product_id} is already on your wishlist.")
    ctx.db.execute("INSERT INTO wishlist (product_id, added_at) VALUES (?, ?)", (product_id, ctx.now_iso()))
    return _wishlist(ctx)


@tools.tool(effect=WRITE, asks=[
    "Take {product_id} off my wishlist.",
    "Remove {product_id} from my wish list.",
    "I don't want {product_id} on my wishlist anymore.",
], reply=[
    "Removed {product_id} from your wishlist.",
    "Took {product_id} off your wishlist, which now holds {result.total} items.",
])
def remove_from_wishlist(ctx: Ctx, product_id: WishedProductId) -> Wishlist:
    """Remove a product from the wishlist.

    Args:
        product_id: the product, such as 'PROD-10002'.

    Returns:
        The wishlist after the change.

    Raises:
        not_found: no product has that ID.
        not_in_wishlist: the product is not on the wishlist.
    """
    ctx.get("product", product_id)
    if ctx.db.execute("DELETE FROM wishlist WHERE product_id = ?", (product_id,)).rowcount == 0:
        raise ToolError("not_in_wishlist", f"{product_id} is not on your wishlist.",
                        hint="Call get_wishlist to see what is on it.")
    return _wishlist(ctx)
