"""The shopping world: an online store's catalogue and one signed-in customer's account.

Each seed draws, from the catalogue below, about a hundred products in ten categories (brands,
prices, variants by colour, size or format, stock levels, a few discontinued), reviews with
ratings around each product's quality, and the customer's account at the epoch (Monday
2026-03-16 09:00):

- two or three saved addresses and three saved cards (one of them expired);
- store credit, gift cards already redeemed and one or two still to redeem;
- coupons: active ones with minimum spends or a category, an expired one and a used one;
- about fifteen past orders from the last eight months: delivered (some still inside the 30-day
  return window, some outside), in transit, just placed and cancelled; refunded returns and one
  still open. In-flight orders and the open return follow the clock's rules (an order ships 20
  hours after it is placed and arrives on its estimated delivery date; a return is refunded 6
  days after it is requested), so nothing in a fresh world is already overdue;
- a cart with a few items (in some worlds one of them now out of stock), in about 4 worlds in
  10 with an active coupon the customer already put on it that the items meet, and a wishlist.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from prove.env import WorldGen
from prove.env.values import iso, luhn_digit

COUPON_ON_CART_SHARE = 0.4  # worlds whose cart already carries a coupon that applies
FREE_SHIPPING_FROM = 35.0   # standard shipping is free from this subtotal (after discounts)

CATEGORIES = {
    "Electronics": "Headphones, speakers, wearables and computer accessories.",
    "Home & Kitchen": "Cookware, small appliances and kitchen tools.",
    "Clothing": "Jackets, jeans, tops and sweaters for every season.",
    "Shoes": "Running, trail and everyday shoes.",
    "Sports & Outdoors": "Hydration, camping, fitness and yoga gear.",
    "Beauty & Personal Care": "Skincare, hair care and grooming.",
    "Books": "Fiction and non-fiction in paperback and hardcover.",
    "Toys & Games": "Building sets, board games, puzzles and toys.",
    "Office Supplies": "Notebooks, pens, desks and chairs for work and study.",
    "Pet Supplies": "Food, toys and beds for dogs and cats.",
}

COLORS = ("Black", "White", "Navy", "Silver", "Sage Green", "Blue", "Red", "Charcoal", "Sand")

# category, product type, brands, low and high price, variant axis, description
TYPES = (
    ("Electronics", "Wireless Earbuds", ("Sony", "JBL", "Anker Soundcore", "Samsung"), 39, 249, "color",
     "True wireless earbuds with active noise cancelling, 8-hour battery and a pocket charging case."),
    ("Electronics", "Noise Cancelling Headphones", ("Sony", "Bose", "Sennheiser"), 99, 399, "color",
     "Over-ear Bluetooth headphones with adaptive noise cancelling and 30-hour battery life."),
    ("Electronics", "Portable Bluetooth Speaker", ("JBL", "Bose", "Anker Soundcore", "Sony"), 29, 199, "color",
     "Waterproof speaker (IP67) with 12 hours of playtime and a built-in strap."),
    ("Electronics", "Smartwatch", ("Samsung", "Garmin", "Fitbit"), 129, 429, "watch",
     "Fitness and health tracking, GPS, heart-rate monitoring and notifications from your phone."),
    ("Electronics", "Portable Charger 20000mAh", ("Anker", "Belkin"), 25, 69, None,
     "High-capacity power bank with USB-C fast charging; charges a phone four times."),
    ("Electronics", "Wireless Mouse", ("Logitech", "Razer"), 19, 99, "color",
     "Ergonomic wireless mouse with silent clicks and a 24-month battery."),
    ("Electronics", "Mechanical Keyboard", ("Logitech", "Razer", "Keychron"), 59, 179, "switch",
     "Full-size mechanical keyboard with hot-swappable switches and white backlight."),
    ("Electronics", "27-inch 4K Monitor", ("Dell", "LG", "Samsung"), 249, 549, None,
     "27-inch IPS 4K UHD monitor with USB-C power delivery and a height-adjustable stand."),
    ("Electronics", "USB-C Hub 7-in-1", ("Anker", "Belkin"), 29, 79, None,
     "Adds HDMI 4K, three USB-A ports, SD and microSD card readers and 100W pass-through charging."),
    ("Electronics", "HD Webcam", ("Logitech", "Razer"), 49, 169, None,
     "1080p webcam with autofocus, light correction and dual microphones."),
    ("Home & Kitchen", "Stand Mixer 5-Quart", ("KitchenAid", "Cuisinart"), 229, 449, "color",
     "Tilt-head stand mixer with 10 speeds, a stainless steel bowl and three attachments."),
    ("Home & Kitchen", "12-Cup Programmable Coffee Maker", ("Cuisinart", "Ninja", "Breville"), 59, 199, None,
     "Brews up to 12 cups with a 24-hour timer, bold setting and keep-warm plate."),
    ("Home & Kitchen", "Air Fryer 6-Quart", ("Ninja", "Instant", "Cosori"), 69, 179, None,
     "Air fry, roast, reheat and dehydrate with little or no oil; dishwasher-safe basket."),
    ("Home & Kitchen", "Cast Iron Skillet 12-inch", ("Lodge", "Le Creuset"), 29, 229, None,
     "Pre-seasoned cast iron skillet for searing, baking and frying; oven safe."),
    ("Home & Kitchen", "Chef's Knife 8-inch", ("Wusthof", "Victorinox", "Henckels"), 39, 179, None,
     "Forged high-carbon stainless steel chef's knife with a full-tang handle."),
    ("Home & Kitchen", "Nonstick Cookware Set 10-Piece", ("Calphalon", "T-fal", "Cuisinart"), 99, 349, None,
     "Pots and pans with a durable nonstick coating, glass lids and stay-cool handles."),
    ("Home & Kitchen", "Electric Kettle 1.7L", ("Cuisinart", "Breville", "OXO"), 29, 149, "color",
     "Fast-boil kettle with temperature presets and a keep-warm function."),
    ("Home & Kitchen", "Glass Food Storage Set 20-Piece", ("OXO", "Pyrex"), 25, 59, None,
     "Oven, freezer and dishwasher safe glass containers with leak-proof lids."),
    ("Home & Kitchen", "High-Speed Blender", ("Vitamix", "Ninja", "Breville"), 89, 499, None,
     "1400-watt blender for smoothies, soups and nut butters, with a 64-ounce jar."),
    ("Clothing", "Fleece Jacket", ("Patagonia", "The North Face", "Columbia"), 59, 159, "apparel",
     "Warm, lightweight full-zip fleece made with recycled polyester."),
    ("Clothing", "Slim Fit Jeans", ("Levi's", "Wrangler", "Lucky Brand"), 39, 98, "waist",
     "Stretch denim jeans with a slim fit through the hip and thigh."),
    ("Clothing", "Crew Neck T-Shirt", ("Uniqlo", "Champion", "Hanes"), 9, 29, "apparel",
     "Soft 100% cotton tee with a classic fit; pre-shrunk."),
    ("Clothing", "Waterproof Rain Jacket", ("Patagonia", "The North Face", "Columbia"), 79, 229, "apparel",
     "Breathable waterproof shell with taped seams and a packable hood."),
    ("Clothing", "Pullover Hoodie", ("Champion", "Nike", "Carhartt"), 35, 79, "apparel",
     "Midweight fleece hoodie with a kangaroo pocket and ribbed cuffs."),
    ("Clothing", "Merino Wool Sweater", ("Uniqlo", "J.Crew", "Smartwool"), 49, 139, "apparel",
     "Fine-gauge merino wool crew neck sweater; machine washable."),
    ("Shoes", "Road Running Shoes", ("Nike", "Adidas", "Brooks", "New Balance", "Hoka"), 89, 169, "shoe",
     "Cushioned daily trainer with a breathable mesh upper and durable rubber outsole."),
    ("Shoes", "Trail Running Shoes", ("Salomon", "Hoka", "Brooks"), 109, 169, "shoe",
     "Grippy lugged outsole and protective toe cap for rocky and muddy trails."),
    ("Shoes", "Wool Runners", ("Allbirds",), 98, 120, "shoe",
     "Everyday sneakers made from soft merino wool; machine washable."),
    ("Shoes", "Canvas Low-Top Sneakers", ("Vans", "Converse"), 50, 75, "shoe",
     "Classic canvas sneakers with a vulcanized rubber sole."),
    ("Sports & Outdoors", "Insulated Water Bottle 32oz", ("Hydro Flask", "Yeti", "Stanley"), 29, 54, "color",
     "Double-wall vacuum insulated bottle: cold for 24 hours, hot for 12."),
    ("Sports & Outdoors", "Insulated Tumbler 20oz", ("Yeti", "Stanley"), 25, 45, "color",
     "Stainless steel tumbler with a splash-resistant lid; dishwasher safe."),
    ("Sports & Outdoors", "Yoga Mat 6mm", ("Manduka", "Gaiam", "Lululemon"), 25, 129, "color",
     "Non-slip, cushioned yoga mat with a carrying strap."),
    ("Sports & Outdoors", "Camping Tent 4-Person", ("Coleman", "REI Co-op", "Big Agnes"), 99, 449, None,
     "Three-season dome tent with a full rainfly, two doors and easy color-coded setup."),
    ("Sports & Outdoors", "Sleeping Bag 30F", ("Coleman", "REI Co-op", "Kelty"), 49, 199, None,
     "Synthetic-fill mummy sleeping bag rated to 30 degrees Fahrenheit, with a stuff sack."),
    ("Sports & Outdoors", "Adjustable Dumbbells 5-52.5 lb", ("Bowflex", "NordicTrack"), 299, 429, None,
     "Pair of dumbbells that replace 15 sets; the weight changes with a dial."),
    ("Sports & Outdoors", "Hiking Daypack 24L", ("Osprey", "REI Co-op", "Deuter"), 59, 139, "color",
     "Ventilated back panel, hip belt, hydration sleeve and rain cover."),
    ("Beauty & Personal Care", "Hydrating Facial Cleanser", ("CeraVe", "La Roche-Posay", "Cetaphil"), 12, 24, None,
     "Gentle, fragrance-free cleanser with ceramides and hyaluronic acid."),
    ("Beauty & Personal Care", "Daily Moisturizing Lotion", ("CeraVe", "Cetaphil", "Aveeno"), 11, 22, None,
     "Lightweight, non-comedogenic face and body lotion for normal to dry skin."),
    ("Beauty & Personal Care", "Vitamin C Serum", ("The Ordinary", "La Roche-Posay", "Paula's Choice"), 9, 49, None,
     "Brightening serum with vitamin C to even skin tone."),
    ("Beauty & Personal Care", "Mineral Sunscreen SPF 50", ("Neutrogena", "La Roche-Posay", "Supergoop!"), 12, 38,
     None, "Broad-spectrum mineral sunscreen, water resistant for 80 minutes."),
    ("Beauty & Personal Care", "Electric Toothbrush", ("Oral-B", "Philips Sonicare"), 39, 199, "color",
     "Rechargeable toothbrush with a pressure sensor, two-minute timer and travel case."),
    ("Beauty & Personal Care", "Hair Repair Treatment", ("Olaplex", "K18"), 28, 75, None,
     "Bond-building treatment that repairs damaged hair; for all hair types."),
    ("Beauty & Personal Care", "Beard Trimmer", ("Philips Norelco", "Braun", "Wahl"), 29, 89, None,
     "Cordless trimmer with 20 length settings and a washable head."),
    ("Toys & Games", "Fire Station Building Set", ("LEGO",), 49, 109, None,
     "Building set with a fire truck, helicopter and five minifigures; ages 6 and up."),
    ("Toys & Games", "Space Shuttle Building Set", ("LEGO",), 39, 199, None,
     "Detailed model of a space shuttle with opening cargo bay; ages 9 and up."),
    ("Toys & Games", "Classic Board Game", ("Hasbro",), 15, 35, None,
     "A family board game for 2 to 6 players; ages 8 and up."),
    ("Toys & Games", "1000-Piece Jigsaw Puzzle", ("Ravensburger", "Buffalo Games"), 15, 29, None,
     "A 1000-piece puzzle with a glare-free finish and precisely fitting pieces."),
    ("Toys & Games", "Wooden Activity Cube", ("Melissa & Doug", "Hape"), 29, 59, None,
     "Five-sided activity cube with a bead maze, shape sorter and gears; ages 1 and up."),
    ("Toys & Games", "Remote Control Stunt Car", ("Mattel", "Hot Wheels"), 25, 69, "color",
     "Rechargeable 4WD stunt car that flips and spins 360 degrees."),
    ("Office Supplies", "Classic Notebook Large", ("Moleskine", "Leuchtturm1917"), 19, 28, "paper",
     "Hard-cover notebook with 240 acid-free pages, an elastic closure and a ribbon bookmark."),
    ("Office Supplies", "Gel Pens 12-Pack", ("Pilot", "uni-ball", "Zebra"), 9, 19, None,
     "Smooth, quick-drying retractable gel pens, 0.7 mm, black ink."),
    ("Office Supplies", "Sticky Notes 12 Pads", ("Post-it",), 9, 16, None,
     "3 x 3 inch sticky notes in assorted colors, 100 sheets per pad."),
    ("Office Supplies", "Cross-Cut Paper Shredder", ("Fellowes", "AmazonBasics"), 49, 179, None,
     "Shreds 12 sheets at a time, as well as credit cards and staples; 5-gallon bin."),
    ("Office Supplies", "Ergonomic Office Chair", ("Herman Miller", "Steelcase", "Branch"), 299, 1395, "color",
     "Adjustable lumbar support, armrests and seat depth for all-day comfort."),
    ("Office Supplies", "Standing Desk Converter", ("Flexispot", "VariDesk"), 129, 399, None,
     "Sits on your desk and lifts to standing height in seconds; holds two monitors."),
    ("Pet Supplies", "Classic Dog Toy", ("KONG",), 8, 19, "pet",
     "Durable natural rubber toy to stuff with treats; bounces unpredictably."),
    ("Pet Supplies", "Adult Dry Dog Food 30 lb", ("Purina Pro Plan", "Blue Buffalo", "Hill's Science Diet"), 54, 89,
     None, "High-protein dry food with real chicken as the first ingredient."),
    ("Pet Supplies", "Clumping Cat Litter 40 lb", ("Dr. Elsey's", "Arm & Hammer"), 19, 35, None,
     "Low-dust, unscented clumping litter with odor control."),
    ("Pet Supplies", "Orthopedic Dog Bed", ("Furhaven", "Frisco", "Big Barker"), 39, 199, "pet",
     "Memory foam dog bed with a removable, machine-washable cover."),
    ("Pet Supplies", "Cat Scratching Post 32-inch", ("Frisco", "SmartCat"), 29, 69, None,
     "Tall sisal scratching post on a heavy base so it does not tip over."),
    ("Pet Supplies", "Ball Launcher", ("Chuckit!",), 9, 19, "pet",
     "Throws a ball two to three times farther without slobbery hands."),
)
BOOK_TITLES = (
    ("The Quiet Orchard", "a novel"), ("Salt and Starlight", "a novel"), ("The Cartographer's Daughter", "a novel"),
    ("Midnight at the Lighthouse", "a mystery"), ("A Field Guide to Small Kindnesses", "essays"),
    ("Deep Work Habits", "non-fiction"), ("The Bread Lab Cookbook", "a cookbook"),
    ("Atoms of the Everyday", "popular science"), ("The Last Train to Lisbon", "a thriller"),
    ("Learning Python the Practical Way", "a programming guide"),
    ("Gardens of the Pacific Northwest", "a gardening guide"),
    ("The Long Way Home", "a memoir"), ("Money for Grown-Ups", "personal finance"),
    ("Ten Thousand Steps", "a health guide"), ("The Glass Archive", "a science fiction novel"),
)
PUBLISHERS = ("Penguin Random House", "HarperCollins", "Simon & Schuster", "Macmillan", "O'Reilly Media")

REVIEW_TITLES = {
    5: ("Love it", "Exactly as described", "Worth every penny", "Great quality", "Highly recommend", "Five stars"),
    4: ("Very good", "Solid choice", "Does the job well", "Happy with it", "Good value"),
    3: ("It's okay", "Mixed feelings", "Average", "Decent but not great"),
    2: ("Disappointed", "Not as expected", "Quality could be better"),
    1: ("Broke quickly", "Would not buy again", "Returned it"),
}
REVIEW_BODIES = {
    5: ("I've used this {noun} every day for a month and it still feels brand new.",
        "Better than I expected for the price. Arrived quickly and well packed.",
        "Bought one for myself and then another as a gift. Both are perfect.",
        "Exactly what I needed. The quality is obvious as soon as you open the box."),
    4: ("Really nice {noun}. Took a star off because the instructions were vague.",
        "Works well. A little pricier than alternatives, but it feels sturdier.",
        "Good overall; the color was slightly different from the photos."),
    3: ("Does what it says, nothing more. Fine for occasional use.",
        "The {noun} is okay, but I expected better finish at this price.",
        "Decent, though shipping took longer than promised."),
    2: ("Started having problems after a couple of weeks. Customer service was helpful though.",
        "Smaller and flimsier than it looks in the pictures."),
    1: ("Stopped working after ten days. Very disappointed.",
        "Arrived damaged and the replacement had the same problem."),
}
CARRIERS = ("UPS", "FedEx", "USPS")
RETURN_REASONS = ("doesn't fit", "changed my mind", "defective", "not as described", "arrived damaged")
CARD_NETWORKS = (("Visa", ("4",)), ("Mastercard", ("51", "52", "53", "54", "55")), ("American Express", ("34", "37")),
                 ("Discover", ("6011", "65")))


def luhn_complete(prefix: str, length: int, rng: Any) -> str:
    """A card number of `length` digits starting with `prefix` that passes the Luhn check."""
    body = prefix + "".join(str(rng.randint(0, 9)) for _ in range(length - len(prefix) - 1))
    return body + luhn_digit(body)


def _variants(axis: str | None, rng: Any) -> list[tuple[str, float]]:
    """(variant name, price adjustment) pairs for a product with this variant axis."""
    if axis == "color":
        return [(c, 0.0) for c in rng.sample(COLORS, rng.randint(2, 4))]
    if axis == "apparel":
        colors = rng.sample(("Black", "Navy", "Charcoal", "Olive", "Heather Gray", "Burgundy"), rng.randint(1, 2))
        return [(f"{size} / {color}", 0.0) for color in colors for size in ("S", "M", "L", "XL")]
    if axis == "waist":
        wash = rng.choice(("Dark Wash", "Medium Wash", "Black"))
        return [(f"{w}x{leg} / {wash}", 0.0) for w in (30, 32, 34, 36) for leg in (32,)]
    if axis == "shoe":
        return [(f"Size {s}", 0.0) for s in (7, 8, 9, 10, 11, 12)]
    if axis == "watch":
        return [("41mm", 0.0), ("45mm", 30.0)]
    if axis == "switch":
        return [("Red switches", 0.0), ("Brown switches", 0.0), ("Blue switches", 0.0)]
    if axis == "paper":
        return [("Ruled", 0.0), ("Dotted", 0.0), ("Plain", 0.0)]
    if axis == "pet":
        return [("Small", 0.0), ("Medium", 4.0), ("Large", 8.0)]
    if axis == "book":
        return [("Paperback", 0.0), ("Hardcover", 10.0)]
    return [("Standard", 0.0)]


def _reason(rng: Any, category: str) -> str:
    if category in ("Clothing", "Shoes"):
        return rng.choice(RETURN_REASONS)
    return rng.choice(RETURN_REASONS[1:])


def _price(lo: float, hi: float, rng: Any) -> float:
    whole = int(rng.uniform(lo, hi))
    return float(whole) + rng.choice((0.99, 0.99, 0.95, 0.0, 0.49))


_NOT_NOUNS = {"lb", "lbs", "oz", "ft", "in", "qt", "mm", "cm", "ml", "kg", "g", "l", "pc", "pcs", "pack", "mah",
              "large", "small", "medium", "mini", "max", "pro", "plus", "xl", "lite"}


def _noun_of(kind: str) -> str:
    """What a review calls a product of this kind ("this {noun}", "the {noun} is okay"): its last
    word that is a thing, not a size ("Classic Notebook Large" -> "notebook"); a plural thing is a
    "set" ("Adjustable Dumbbells 5-52.5 lb"); a kind that ends in a number is said whole."""
    words = [w for w in kind.split() if w.isalpha() and w.lower() not in _NOT_NOUNS]
    if not words or kind[-1].isdigit():
        return kind.lower()
    noun = words[-1].lower()
    return "set" if noun.endswith("s") and not noun.endswith(("ss", "us")) else noun


def build_world(w: WorldGen) -> dict[str, Any]:
    rng = w.rng
    now = w.now
    today = now.date()
    person = w.fake.person()
    home_city = w.fake.city("US")
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in (
        "customer", "categories", "brands", "products", "variants", "reviews", "addresses", "payment_methods",
        "gift_cards", "coupons", "cart_items", "cart", "wishlist", "orders", "order_items", "returns")}

    # ----- catalogue ---------------------------------------------------------------------------
    cat_ids = {}
    for name, description in CATEGORIES.items():
        cat_ids[name] = w.new_id("CAT")
        rows["categories"].append({"category_id": cat_ids[name], "name": name, "description": description})
    brand_ids: dict[str, str] = {}

    def brand(name: str) -> str:
        if name not in brand_ids:
            brand_ids[name] = w.new_id("BRAND")
            rows["brands"].append({"brand_id": brand_ids[name], "name": name})
        return brand_ids[name]

    specs: list[tuple[str, str, str, float, float, str | None, str, str]] = []
    for cat, kind, brands, lo, hi, axis, desc in TYPES:
        for b in rng.sample(brands, min(len(brands), rng.randint(1, 2))):
            noun = _noun_of(kind)
            specs.append((cat, f"{b} {kind}", b, lo, hi, axis, desc, noun))
    for title, genre in rng.sample(BOOK_TITLES, 11):
        author = w.fake.person().name
        specs.append(("Books", f"{title} by {author}", rng.choice(PUBLISHERS), 12, 32, "book",
                      f"{title}: {genre} by {author}.", "book"))
    rng.shuffle(specs)

    products: list[dict[str, Any]] = []
    variants: dict[str, list[dict[str, Any]]] = {}
    quality: dict[str, float] = {}
    for cat, name, bname, lo, hi, axis, desc, noun in specs:
        pid = w.new_id("PROD")
        added = w.fake.date_between(date(2023, 6, 1), today - timedelta(days=3))
        final_sale = cat in ("Beauty & Personal Care",) or (cat == "Clothing" and rng.random() < 0.15)
        products.append({"product_id": pid, "name": name, "brand_id": brand(bname), "category_id": cat_ids[cat],
                         "description": desc, "returnable": int(not final_sale),
                         "status": "discontinued" if rng.random() < 0.04 else "active",
                         "added_on": added.isoformat(), "_noun": noun, "_category": cat})
        base = _price(lo, hi, rng)
        sku_prefix = "".join(ch for ch in bname.upper() if ch.isalpha())[:3]
        out = []
        for vname, extra in _variants(axis, rng):
            roll = rng.random()
            stock = 0 if roll < 0.1 else rng.randint(1, 3) if roll < 0.22 else rng.randint(5, 140)
            out.append({"variant_id": w.new_id("VAR"), "product_id": pid, "name": vname,
                        "sku": f"{sku_prefix}-{w.fake.digits(6)}", "price": round(base + extra, 2), "stock": stock})
        if products[-1]["status"] == "discontinued":
            for v in out:
                v["stock"] = 0
        variants[pid] = out
        quality[pid] = rng.uniform(2.9, 4.9)
    by_id = {p["product_id"]: p for p in products}
    active = [p for p in products if p["status"] == "active"]

    # ----- reviews by other shoppers -------------------------------------------------------------
    for p in products:
        for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 4))):
            rating = max(1, min(5, round(rng.gauss(quality[p["product_id"]], 0.9))))
            author = w.fake.person()
            rows["reviews"].append({
                "review_id": w.new_id("REV"), "product_id": p["product_id"],
                "author": f"{author.first} {author.last[0]}.", "rating": rating,
                "title": rng.choice(REVIEW_TITLES[rating]),
                "body": rng.choice(REVIEW_BODIES[rating]).format(noun=p["_noun"]),
                "created_on": w.fake.date_between(date.fromisoformat(p["added_on"]), today).isoformat(),
                "verified": int(rng.random() < 0.8), "helpful_votes": rng.choice((0, 0, 1, 2, 3, 5, 8, 13, 24)),
                "is_mine": 0})

    # ----- the customer --------------------------------------------------------------------------
    rows["customer"].append({"customer_id": w.new_id("CUS"), "name": person.name, "email": w.fake.email(person),
                             "phone": w.fake.phone(),
                             "member_since": w.fake.date_between(date(2019, 1, 1), date(2024, 12, 31)).isoformat(),
                             "store_credit": 0.0})
    address_ids = []
    places = [("Home", home_city, person.name), ("Work", home_city, person.name)]
    if rng.random() < 0.7:
        relative = w.fake.person()
        places.append((rng.choice(("Mom's house", "Parents", "Cabin")), w.fake.city("US"),
                       f"{relative.first} {person.last}"))
    for i, (label, city, recipient) in enumerate(places):
        street = w.fake.street_address()
        if label == "Work":
            street += f", Floor {rng.randint(2, 30)}"
        aid = w.new_id("ADDR")
        address_ids.append(aid)
        rows["addresses"].append({"address_id": aid, "label": label, "recipient": recipient, "street": street,
                                  "city": city.name, "region": city.region,
                                  "postal_code": city.zip_prefix + w.fake.digits(2), "country": "US",
                                  "phone": w.fake.phone() if i != 1 else None, "is_default": int(i == 0),
                                  "status": "active"})
    pm_ids = []
    networks = rng.sample(CARD_NETWORKS, 3)
    for i, (network, prefixes) in enumerate(networks):
        length = 15 if network == "American Express" else 16
        number = luhn_complete(rng.choice(prefixes), length, rng)
        expired = i == 2
        exp_year = rng.choice((2024, 2025)) if expired else rng.randint(2026, 2031)
        exp_month = rng.randint(1, 12) if exp_year != 2026 else rng.randint(6, 12)
        pid = w.new_id("PM")
        pm_ids.append(pid)
        rows["payment_methods"].append({
            "payment_method_id": pid, "nickname": f"{network} ending {number[-4:]}", "network": network,
            "card_number": number, "last4": number[-4:], "exp_month": exp_month, "exp_year": exp_year,
            "cardholder": person.name.upper(), "security_code": w.fake.digits(4 if length == 15 else 3),
            "billing_zip": rows["addresses"][0]["postal_code"], "is_default": int(i == 0), "status": "active",
            "added_on": w.fake.date_between(date(2021, 1, 1), date(2024, 12, 31)).isoformat()})

    # gift cards: one redeemed long ago (credit partly spent), one or two still to redeem
    credit = 0.0
    for i in range(rng.randint(2, 3)):
        code = "-".join(w.fake.code(4) for _ in range(4))
        amount = float(rng.choice((25, 50, 50, 75, 100)))
        redeemed = i == 0
        rows["gift_cards"].append({"code": code, "amount": amount,
                                   "redeemed_on": "2025-12-27" if redeemed else None})
        if redeemed:
            credit = round(amount * rng.choice((0.3, 0.5, 1.0)), 2)
    rows["customer"][0]["store_credit"] = credit

    # ----- coupons -----------------------------------------------------------------------------
    coupon_cat = rng.choice(("Home & Kitchen", "Books", "Sports & Outdoors", "Electronics"))
    cat_word = {"Home & Kitchen": "KITCHEN", "Books": "READ", "Sports & Outdoors": "OUTDOOR",
                "Electronics": "TECH"}[coupon_cat]
    coupons = [
        ("WELCOME10", "10% off your first order", "percent", 10.0, 0.0, None, "2026-12-31", "2025-08-02"),
        ("SPRING20", "20% off orders of $100 or more", "percent", 20.0, 100.0, None,
         rng.choice(("2026-04-15", "2026-04-30", "2026-05-15")), None),
        ("SAVE15", "$15 off orders of $75 or more", "fixed", 15.0, 75.0, None,
         rng.choice(("2026-03-22", "2026-03-31")), None),
        ("FREESHIP", "Free standard shipping, no minimum", "free_shipping", 0.0, 0.0, None, "2026-06-30", None),
        (f"{cat_word}25", f"25% off {coupon_cat} items, minimum $50 in {coupon_cat}", "percent", 25.0, 50.0,
         cat_ids[coupon_cat], "2026-04-30", None),
        ("WINTER30", "30% off Clothing items, minimum $60 in Clothing", "percent",
         30.0, 60.0, cat_ids["Clothing"], "2026-02-28", None),
        ("HOLIDAY10", "$10 off orders of $50 or more", "fixed", 10.0, 50.0, None, "2026-01-05", None),
    ]
    for code, desc, kind, value, minimum, cat, expires, used in coupons:
        rows["coupons"].append({"code": code, "description": desc, "kind": kind, "value": value,
                                "min_subtotal": minimum, "category_id": cat, "expires_on": expires, "used_on": used})

    # ----- order history -----------------------------------------------------------------------
    def buyable(n: int) -> list[tuple[dict, dict]]:
        picks = rng.sample(active, n)
        return [(p, rng.choice(variants[p["product_id"]])) for p in picks]

    # (days ago placed, status, with return)
    plan = [(rng.randint(150, 240), "delivered", False) for _ in range(5)]
    plan += [(rng.randint(40, 140), "delivered", i == 0 or rng.random() < 0.3) for i in range(4)]
    plan += [(rng.randint(8, 26), "delivered", False) for _ in range(3)]
    # in flight: shipped 20 hours after being placed, due within the next days; placed today or last night
    plan += [(rng.randint(2, 4), "shipped", False), (rng.randint(1, 3), "shipped", False),
             (0, "placed", False), (0, "placed", False), (rng.randint(20, 90), "cancelled", False)]
    plan.sort(key=lambda x: -x[0])
    first, first_placed = True, True
    for days_ago, status, with_return in plan:
        placed = now - timedelta(days=days_ago, hours=rng.randint(-14, 0), minutes=rng.choice((0, 12, 27, 41, 53)))
        if status == "placed":  # the earlier one last night, the later one this morning
            placed = now - timedelta(hours=rng.randint(10, 18) if first_placed else rng.randint(1, 8),
                                     minutes=rng.randint(0, 59))
            first_placed = False
        elif status == "shipped":
            placed = now - timedelta(days=days_ago, hours=rng.randint(0, 6), minutes=rng.randint(0, 59))
        lines = buyable(rng.choice((1, 1, 1, 2, 2, 3)))
        items = []
        oid = w.new_id("ORD")
        subtotal = 0.0
        for p, v in lines:
            qty = 1 if rng.random() < 0.85 else 2
            items.append({"order_item_id": w.new_id("OI"), "order_id": oid, "product_id": p["product_id"],
                          "variant_id": v["variant_id"], "product_name": p["name"], "variant_name": v["name"],
                          "unit_price": v["price"], "quantity": qty})
            subtotal += v["price"] * qty
        subtotal = round(subtotal, 2)
        coupon = "WELCOME10" if first else None
        discount = round(subtotal * 0.10, 2) if first else 0.0
        first = False
        speed = "express" if rng.random() < 0.15 and status != "shipped" else "standard"
        fee = 14.99 if speed == "express" else (0.0 if subtotal - discount >= 35 else 5.99)
        card = pm_ids[2] if days_ago > 150 else rng.choice(pm_ids[:2])
        shipped = (placed + timedelta(days=1)).replace(hour=rng.randint(6, 20), minute=rng.randint(0, 59))
        if status == "shipped":
            shipped = placed + timedelta(hours=20)  # the rule the clock follows (tools_orders.SHIP_AFTER)
        delivered = (shipped + timedelta(days=rng.randint(1, 2) if speed == "express" else rng.randint(2, 4))).replace(
            hour=rng.randint(10, 19), minute=rng.randint(0, 59))
        eta = (placed + timedelta(days=2 if speed == "express" else 5)).date()
        order = {"order_id": oid, "placed_at": iso(placed), "status": status,
                 "summary": items[0]["product_name"] + (f" and {len(items) - 1} more" if len(items) > 1 else ""),
                 "address_id": address_ids[0] if rng.random() < 0.75 else rng.choice(address_ids),
                 "payment_method_id": card, "shipping_speed": speed, "subtotal": subtotal, "discount": discount,
                 "shipping_fee": fee, "store_credit_used": 0.0,
                 "total_charged": round(subtotal - discount + fee, 2), "coupon_code": coupon,
                 "estimated_delivery": eta.isoformat(), "carrier": None, "tracking_number": None,
                 "shipped_at": None, "delivered_at": None, "cancelled_at": None, "cancel_reason": None}
        if status in ("shipped", "delivered"):
            carrier = rng.choice(CARRIERS)
            order["carrier"] = carrier
            order["tracking_number"] = {"UPS": "1Z" + w.fake.code(16), "FedEx": w.fake.digits(12),
                                        "USPS": "9400" + w.fake.digits(18)}[carrier]
            order["shipped_at"] = iso(shipped)
        if status == "delivered":
            order["delivered_at"] = iso(delivered)
        if status == "cancelled":
            order["cancelled_at"] = iso(placed + timedelta(hours=rng.randint(1, 6)))
            order["cancel_reason"] = rng.choice(("ordered by mistake", "found a better price", "no longer needed"))
        rows["orders"].append(order)
        rows["order_items"].extend(items)
        if with_return:
            item = next((i for i in items if by_id[i["product_id"]]["returnable"]), None)
            if item is not None:
                asked = delivered + timedelta(days=rng.randint(2, 20), hours=rng.randint(0, 5))
                share = 1 - discount / subtotal if subtotal else 1
                rows["returns"].append({
                    "return_id": w.new_id("RET"), "order_id": oid, "order_item_id": item["order_item_id"],
                    "product_name": item["product_name"], "quantity": 1,
                    "reason": _reason(rng, by_id[item["product_id"]]["_category"]),
                    "status": "refunded", "refund_amount": round(item["unit_price"] * share, 2),
                    "requested_at": iso(asked),
                    "resolved_at": iso(asked + timedelta(days=rng.randint(4, 9)))})

    # a return of a recent delivery, still waiting for the parcel to reach the warehouse
    recent = [o for o in reversed(rows["orders"]) if o["status"] == "delivered"
              and o["delivered_at"] > (now - timedelta(days=28)).isoformat()]
    for o in recent:
        item = next((i for i in rows["order_items"] if i["order_id"] == o["order_id"]
                     and by_id[i["product_id"]]["returnable"]), None)
        if item is None:
            continue
        # refunds come 6 days after the request (tools_orders.REFUND_AFTER): this one is still open
        asked = max(datetime.fromisoformat(o["delivered_at"]) + timedelta(days=1, hours=3),
                    now - timedelta(days=rng.randint(2, 4), hours=rng.randint(0, 8)))
        share = 1 - o["discount"] / o["subtotal"] if o["subtotal"] else 1
        rows["returns"].append({
            "return_id": w.new_id("RET"), "order_id": o["order_id"], "order_item_id": item["order_item_id"],
            "product_name": item["product_name"], "quantity": 1,
            "reason": _reason(rng, by_id[item["product_id"]]["_category"]),
            "status": "requested", "refund_amount": round(item["unit_price"] * share, 2),
            "requested_at": iso(asked), "resolved_at": None})
        break

    # the customer's own reviews of two delivered products
    delivered_items = [i for o in rows["orders"] if o["status"] == "delivered"
                       for i in rows["order_items"] if i["order_id"] == o["order_id"]]
    for item in rng.sample(delivered_items, 2):
        rating = rng.choice((3, 4, 5, 5))
        rows["reviews"].append({
            "review_id": w.new_id("REV"), "product_id": item["product_id"],
            "author": f"{person.first} {person.last[0]}.", "rating": rating, "title": rng.choice(REVIEW_TITLES[rating]),
            "body": rng.choice(REVIEW_BODIES[rating]).format(noun=by_id[item["product_id"]]["_noun"]),
            "created_on": (today - timedelta(days=rng.randint(5, 60))).isoformat(), "verified": 1,
            "helpful_votes": rng.randint(0, 4), "is_mine": 1})

    # ----- cart and wishlist -------------------------------------------------------------------
    in_stock = [p for p in active if any(v["stock"] >= 5 for v in variants[p["product_id"]])]
    for p in rng.sample(in_stock, rng.randint(2, 3)):
        v = next(v for v in variants[p["product_id"]] if v["stock"] >= 5)
        rows["cart_items"].append({"variant_id": v["variant_id"], "quantity": 1 if rng.random() < 0.8 else 2,
                                   "added_at": iso(now - timedelta(days=rng.randint(0, 9), hours=rng.randint(1, 12)))})
    sold_out = [v for p in active for v in variants[p["product_id"]] if v["stock"] == 0]
    if sold_out and rng.random() < 0.5:  # added weeks ago; it has sold out since
        v = rng.choice(sold_out)
        added = now - timedelta(days=rng.randint(10, 20))
        rows["cart_items"].append({"variant_id": v["variant_id"], "quantity": 1,
                                   "added_at": iso(added)})
    rows["cart"].append({"cart_id": "cart", "coupon_code": _coupon_on_cart(rng, rows, variants, by_id, today)})
    for p in rng.sample(products, rng.randint(4, 7)):
        rows["wishlist"].append({"product_id": p["product_id"],
                                 "added_at": iso(now - timedelta(days=rng.randint(1, 120),
                                                                 minutes=rng.randint(0, 900)))})

    for p in products:
        del p["_noun"], p["_category"]
    rows["products"] = products
    rows["variants"] = [v for p in products for v in variants[p["product_id"]]]
    rows["cart_items"].sort(key=lambda r: r["added_at"])
    return rows


def _coupon_on_cart(rng: Any, rows: dict[str, list[dict]], variants: dict[str, list[dict]],
                    by_id: dict[str, dict], today: date) -> str | None:
    """In some worlds the customer has already put a coupon on the cart: one that is active
    (neither used nor expired), whose minimum and category the cart's items meet, and that
    saves something (free shipping only on a cart that would pay for it)."""
    if rng.random() >= COUPON_ON_CART_SHARE:
        return None
    variant = {v["variant_id"]: (v, p) for p in by_id.values() for v in variants[p["product_id"]]}
    lines = [(variant[i["variant_id"]][0]["price"] * i["quantity"], variant[i["variant_id"]][1]["category_id"])
             for i in rows["cart_items"]]
    subtotal = sum(amount for amount, _ in lines)
    fitting = []
    for c in rows["coupons"]:
        eligible = sum(a for a, cat in lines if cat == c["category_id"]) if c["category_id"] else subtotal
        saves = c["kind"] != "free_shipping" or subtotal < FREE_SHIPPING_FROM
        if (c["used_on"] is None and c["expires_on"] >= today.isoformat() and eligible > 0
                and eligible >= c["min_subtotal"] and saves):
            fitting.append(c["code"])
    return rng.choice(fitting) if fitting else None

