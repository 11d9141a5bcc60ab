"""The retail_chain world: a regional chain of home and outdoor stores and one loyal customer.

Each seed picks a chain name and a region (five or six cities in one time zone) and opens six to
twelve stores there: flagships (long hours), standard stores (some open only at 10:00) and
small express stores (no click-and-collect), one of them temporarily closed. The signed-in
customer lives near their home store, which opens at 10:00 on weekdays, so at the epoch (Monday
2026-03-16 09:00) it is still closed. The world holds:

- about a hundred products in eight departments, carried by each store with its own stock and,
  for some, a clearance price;
- the customer's click-and-collect reservations: active ones (at the closed home store, at an
  open store, one about to expire), one that already expired, collected and cancelled ones;
- store-to-store transfers the customer asked for: one arriving tomorrow, one that arrived
  yesterday, older received and cancelled ones;
- a loyalty account with points, a 4-digit PIN to redeem them, reward certificates (available,
  used, expired), purchase receipts and points history.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from prove.env import WorldBuilder, WorldGen
from prove.env.values import iso

RESERVATION_HOURS = 48     # how long a click-and-collect reservation holds stock
EXTENSION_HOURS = 24       # how much one extension adds
CERTIFICATE_DAYS = 90      # how long a reward certificate is valid
POINTS_PER_DOLLAR = 100    # points per dollar of certificate value
TIER_MULTIPLIER = {"Silver": 1.0, "Gold": 1.25, "Platinum": 1.5}

CHAINS = ("Cedar & Stone", "Northgate Home & Outdoor", "Harbor Supply Co.", "Brightline Goods",
          "Summit Home Outfitters", "Maple Lane Market")

# region: [(city, state, zip prefix, tax percent, area code, neighbourhoods)]
REGIONS: dict[str, tuple[tuple[str, str, str, float, str, tuple[str, ...]], ...]] = {
    "Pacific Northwest": (
        ("Seattle", "WA", "981", 10.25, "206", ("Capitol Hill", "Ballard", "Northgate", "West Seattle")),
        ("Bellevue", "WA", "980", 10.1, "425", ("Downtown", "Crossroads")),
        ("Tacoma", "WA", "984", 10.3, "253", ("Proctor", "Tacoma Mall")),
        ("Portland", "OR", "972", 0.0, "503", ("Pearl District", "Hawthorne", "Lloyd Center")),
        ("Spokane", "WA", "992", 9.0, "509", ("Riverpark", "South Hill")),
        ("Olympia", "WA", "985", 9.8, "360", ("Westside",)),
    ),
    "Bay Area": (
        ("San Francisco", "CA", "941", 8.625, "415", ("Mission", "Sunset", "SoMa")),
        ("Oakland", "CA", "946", 10.75, "510", ("Rockridge", "Jack London Square")),
        ("San Jose", "CA", "951", 9.375, "408", ("Willow Glen", "Santana Row", "Evergreen")),
        ("Berkeley", "CA", "947", 10.25, "510", ("Fourth Street",)),
        ("Walnut Creek", "CA", "945", 8.75, "925", ("Broadway Plaza",)),
        ("Palo Alto", "CA", "943", 9.125, "650", ("Stanford Shopping Center", "California Avenue")),
    ),
    "Texas": (
        ("Austin", "TX", "787", 8.25, "512", ("Domain", "South Congress", "Mueller")),
        ("Dallas", "TX", "752", 8.25, "214", ("Uptown", "Lake Highlands", "Bishop Arts")),
        ("Houston", "TX", "770", 8.25, "713", ("Heights", "Montrose", "Galleria")),
        ("San Antonio", "TX", "782", 8.25, "210", ("Pearl", "Alamo Heights")),
        ("Round Rock", "TX", "786", 8.25, "512", ("La Frontera",)),
    ),
    "Great Lakes": (
        ("Chicago", "IL", "606", 10.25, "312", ("Lincoln Park", "Wicker Park", "South Loop", "Andersonville")),
        ("Evanston", "IL", "602", 10.0, "847", ("Downtown",)),
        ("Naperville", "IL", "605", 7.75, "630", ("Fox River", "Route 59")),
        ("Milwaukee", "WI", "532", 7.9, "414", ("Third Ward", "Bay View")),
        ("Madison", "WI", "537", 5.5, "608", ("Hilldale", "East Towne")),
    ),
    "New England": (
        ("Boston", "MA", "021", 6.25, "617", ("Back Bay", "Seaport", "Jamaica Plain")),
        ("Cambridge", "MA", "021", 6.25, "617", ("Kendall Square", "Porter Square")),
        ("Somerville", "MA", "021", 6.25, "617", ("Assembly Row",)),
        ("Providence", "RI", "029", 7.0, "401", ("Wayland Square", "Federal Hill")),
        ("Worcester", "MA", "016", 6.25, "508", ("Shrewsbury Street",)),
        ("Portsmouth", "NH", "038", 0.0, "603", ("Market Square",)),
    ),
}

# department: [(name, brand, list price)]
CATALOG: dict[str, tuple[tuple[str, str, float], ...]] = {
    "Kitchen & Dining": (
        ("5.5 qt Enameled Cast Iron Dutch Oven", "Le Creuset", 419.95), ("12-inch Cast Iron Skillet", "Lodge", 34.95),
        ("Artisan 5 qt Stand Mixer", "KitchenAid", 449.99), ("Duo 6 qt Pressure Cooker", "Instant Pot", 99.95),
        ("8-inch Chef's Knife", "Wusthof", 169.95), ("Bamboo Cutting Board Set of 3", "Totally Bamboo", 39.99),
        ("18-Piece Glass Food Storage Set", "Pyrex", 44.99), ("Pour-Over Coffee Maker 6 Cup", "Chemex", 49.95),
        ("Electric Kettle 1.7 L", "Cuisinart", 69.95), ("16-Piece Stoneware Dinnerware Set", "Stone Lain", 89.99),
        ("Nonstick Fry Pan Set of 2", "OXO", 59.99), ("Espresso Machine Bambino", "Breville", 299.95),
    ),
    "Home & Bedding": (
        ("White Queen Percale Sheet Set", "Brooklinen", 149.00),
        ("Queen Down Alternative Comforter", "Pinzon", 79.99),
        ("Standard Memory Foam Pillow", "Tempur-Pedic", 89.00), ("Cotton Bath Towel Set of 6", "Cedar & Loom", 59.99),
        ("84-inch Blackout Curtain Pair", "Nicetown", 42.99), ("Wool Throw Blanket", "Pendleton", 129.00),
        ("Ceramic Table Lamp", "Threshold", 49.99), ("Woven Storage Baskets Set of 3", "Brightroom", 34.99),
        ("30-inch Round Wall Mirror", "Umbra", 119.00), ("Indigo Area Rug 5 x 7 ft", "nuLOOM", 139.99),
        ("Cedar and Sage Scented Candle 14 oz", "Harbor Candle Co.", 24.00),
        ("Weighted Blanket 15 lb", "YnM", 69.90),
    ),
    "Electronics": (
        ("Wireless Noise Cancelling Headphones WH-1000XM5", "Sony", 399.99),
        ("Smart Speaker Echo Dot 5th Gen", "Amazon", 49.99), ("Portable Bluetooth Speaker Flip 6", "JBL", 129.95),
        ("Streaming Stick 4K", "Roku", 49.99), ("Wireless Earbuds Galaxy Buds2 Pro", "Samsung", 229.99),
        ("Smart Thermostat", "Google Nest", 129.99), ("Video Doorbell 2nd Gen", "Ring", 99.99),
        ("USB-C Power Bank 20000 mAh", "Anker", 49.99), ("E-Reader Kindle Paperwhite", "Amazon", 149.99),
        ("Smart Light Bulb 4-Pack", "Philips Hue", 89.99), ("Wi-Fi 6 Mesh Router 3-Pack", "TP-Link Deco", 179.99),
        ("Fitness Tracker Charge 6", "Fitbit", 159.95),
    ),
    "Tools & Hardware": (
        ("20V Cordless Drill/Driver Kit", "DeWalt", 159.00), ("Impact Driver 18V", "Makita", 139.00),
        ("200-Piece Mechanics Tool Set", "Craftsman", 129.99), ("Stud Finder", "Zircon", 29.99),
        ("Laser Level with Tripod", "Bosch", 119.00), ("25 ft Tape Measure", "Stanley", 14.97),
        ("Wet/Dry Shop Vacuum 6 Gallon", "Ridgid", 99.00), ("7-1/4-inch Circular Saw", "Skil", 79.99),
        ("Step Ladder 6 ft Fiberglass", "Werner", 129.00), ("Cordless Glue Gun", "Ryobi", 39.97),
        ("Safety Glasses 3-Pack", "3M", 12.98), ("Work Light LED 5000 Lumen", "Husky", 49.97),
    ),
    "Outdoor & Garden": (
        ("Raised Garden Bed Cedar 4 x 8 ft", "Greenes Fence", 119.99),
        ("Expandable Garden Hose 100 ft", "Flexzilla", 69.99),
        ("Cordless Leaf Blower 40V", "Greenworks", 149.99), ("Gas Grill 3-Burner", "Weber Spirit", 549.00),
        ("Portable Fire Pit", "Solo Stove Ranger", 279.99), ("Patio String Lights 48 ft", "Brightech", 45.99),
        ("Poly Adirondack Chair", "Polywood", 299.00), ("Bypass Pruning Shears", "Felco", 64.95),
        ("Organic Potting Mix 1.5 cu ft", "Espoma", 19.99), ("Squirrel-Proof Bird Feeder", "Droll Yankees", 59.95),
        ("Cordless String Trimmer 20V", "Worx", 109.99), ("Solar Path Light 8-Pack", "Solpex", 39.99),
    ),
    "Sports & Fitness": (
        ("Yoga Mat 6 mm", "Manduka", 98.00), ("Adjustable Dumbbells 5-52.5 lb", "Bowflex", 429.00),
        ("Resistance Bands Set", "TheraBand", 29.99), ("Insulated Water Bottle 32 oz", "Hydro Flask", 44.95),
        ("Camping Tent 4-Person", "Coleman", 129.99), ("Sleeping Bag 30 F", "Kelty", 99.95),
        ("Trekking Poles", "Black Diamond", 109.95), ("Pickleball Paddle Set", "Franklin", 49.99),
        ("18-inch Foam Roller", "TriggerPoint", 36.99), ("Hiking Daypack 24 L", "Osprey", 140.00),
        ("Bike Helmet MIPS", "Giro", 79.95), ("Jump Rope Speed", "Rogue", 24.00),
    ),
    "Toys & Games": (
        ("LEGO Classic Creative Brick Box", "LEGO", 59.99), ("Catan Board Game", "Catan Studio", 54.99),
        ("Magna-Tiles 100 Piece Set", "Magna-Tiles", 119.99), ("Ticket to Ride", "Days of Wonder", 54.99),
        ("Wooden Train Set 50 Pieces", "Melissa & Doug", 49.99), ("16-inch Plush Teddy Bear", "Jellycat", 45.00),
        ("Remote Control Car 1:16", "Traxxas", 149.95),
        ("National Parks 1000 Piece Jigsaw Puzzle", "Ravensburger", 21.99),
        ("Play Kitchen Set", "KidKraft", 149.99), ("Uno Card Game", "Mattel", 9.99),
        ("Kids Art Easel", "Step2", 69.99), ("Pokemon TCG Elite Trainer Box", "Pokemon", 49.99),
    ),
    "Health & Beauty": (
        ("Electric Toothbrush Pro 1000", "Oral-B", 59.99), ("Hair Dryer Supersonic", "Dyson", 429.99),
        ("SPF 30 Facial Moisturizer 3 oz", "CeraVe", 18.99), ("Shampoo and Conditioner Set", "Olaplex", 60.00),
        ("Digital Bathroom Scale", "Etekcity", 24.99), ("Massage Gun Mini", "Theragun", 199.00),
        ("Aromatherapy Diffuser", "Vitruvi", 119.00), ("Electric Shaver Series 7", "Braun", 189.99),
        ("Water Flosser", "Waterpik", 79.99), ("SPF 50 Sunscreen Lotion 5 oz", "Neutrogena", 12.49),
        ("Vitamin D3 Gummies 120 ct", "Nature Made", 16.99), ("First Aid Kit 300 Pieces", "Johnson & Johnson", 34.99),
    ),
}

HOURS = {
    "flagship": {wd: ("08:00", "22:00") for wd in range(6)} | {6: ("09:00", "20:00")},
    "standard_early": {wd: ("09:00", "21:00") for wd in range(6)} | {6: ("10:00", "19:00")},
    "standard_late": {wd: ("10:00", "21:00") for wd in range(5)} | {5: ("09:00", "21:00"), 6: ("11:00", "18:00")},
    "standard_no_sunday": {wd: ("10:00", "20:00") for wd in range(6)},
    "express": {wd: ("07:00", "22:00") for wd in range(7)},
}
CARRY = {"flagship": 0.95, "standard": 0.75, "express": 0.35}


class _Builder(WorldBuilder):
    def __init__(self, w: WorldGen) -> None:
        super().__init__(w)
        self.stores: list[dict[str, Any]] = []
        self.hours: list[dict[str, Any]] = []
        self.products: list[dict[str, Any]] = []
        self.inventory: dict[tuple[str, str], dict[str, Any]] = {}
        self.reservations: list[dict[str, Any]] = []
        self.transfers: list[dict[str, Any]] = []
        self.purchases: list[dict[str, Any]] = []
        self.items: list[dict[str, Any]] = []
        self.activity: list[dict[str, Any]] = []
        self.certificates: list[dict[str, Any]] = []
        self.hours_kind: dict[str, str] = {}

    def build_stores(self) -> None:
        rng, fake = self.rng, self.fake
        chain = rng.choice(CHAINS)
        region = rng.choice(sorted(REGIONS))
        cities = list(REGIONS[region])
        rng.shuffle(cities)
        self.home_city = cities[0]
        plan: list[tuple[tuple[str, str, str, float, str, tuple[str, ...]], str]] = []
        for i, city in enumerate(cities):
            hoods = list(city[5])
            rng.shuffle(hoods)
            n = min(len(hoods), 3 if i == 0 else rng.randint(1, 3))
            for hood in hoods[:n]:
                plan.append((city, hood))
        for i, (city, hood) in enumerate(plan):
            name, state, zip3, tax, area, _ = city
            if i == 0:
                fmt, hours = "standard", "standard_late"           # the customer's home store
            elif i == 1:
                fmt, hours = "flagship", "flagship"                 # open now, next to home
            else:
                fmt = rng.choices(("flagship", "standard", "express"), (0.2, 0.55, 0.25))[0]
                hours = fmt if fmt != "standard" else rng.choice(("standard_early", "standard_late",
                                                                  "standard_no_sunday"))
            store_id = self.w.new_id("STR")
            self.stores.append({
                "store_id": store_id, "name": f"{chain} {hood}", "format": fmt, "city": name, "state": state,
                "address": f"{fake.street_address()}, {name}, {state} {zip3}{rng.randint(10, 99)}",
                "phone": f"({area}) {rng.randint(200, 999)}-{rng.randint(1000, 9999)}",
                "tax_rate": tax, "offers_pickup": int(fmt != "express"), "status": "open", "status_note": None,
            })
            self.hours_kind[store_id] = hours
            for weekday, (opens, closes) in sorted(HOURS[hours].items()):
                self.hours.append({"store_id": store_id, "weekday": weekday, "opens": opens, "closes": closes})
        closed = rng.choice([s for s in self.stores[2:] if s["format"] == "standard"] or self.stores[2:])
        until = date(2026, 3, 16) + timedelta(days=rng.randint(10, 40))
        closed["status"] = "temporarily_closed"
        closed["status_note"] = rng.choice(("Closed for remodeling", "Closed after water damage",
                                            "Closed for a floor reset")) + f" until {until:%B} {until.day}."
        self.chain = chain

    def build_products(self) -> None:
        rng = self.rng
        used: set[str] = set()
        for category, items in CATALOG.items():
            for name, brand, price in items:
                if rng.random() < 0.12:
                    continue   # not every chain carries everything
                sku = f"{rng.randint(100, 999)}-{rng.randint(100, 999)}-{rng.randint(100, 999)}"
                while sku in used:
                    sku = f"{rng.randint(100, 999)}-{rng.randint(100, 999)}-{rng.randint(100, 999)}"
                used.add(sku)
                features = rng.sample(("Top rated by our customers.", "Exclusive color at our stores.",
                                       "Backed by a 1-year warranty.", "New this season.",
                                       "Staff pick.", "Eligible for free in-store pickup.",
                                       "Bestseller in its department.", "Gift-ready packaging."), 2)
                self.products.append({
                    "product_id": self.w.new_id("PRD"), "sku": sku, "name": name, "brand": brand,
                    "category": category, "list_price": price,
                    "description": " ".join(features),
                })

    def build_inventory(self) -> None:
        rng = self.rng
        for store in self.stores:
            for product in self.products:
                if rng.random() > CARRY[store["format"]]:
                    continue
                on_hand = 0 if rng.random() < 0.14 else rng.choice((1, 1, 2, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 24))
                price, clearance = product["list_price"], 0
                if rng.random() < 0.08:
                    price, clearance = round(product["list_price"] * rng.choice((0.6, 0.7, 0.75, 0.8)) - 0.01, 2), 1
                self.inventory[(store["store_id"], product["product_id"])] = {
                    "store_id": store["store_id"], "product_id": product["product_id"], "on_hand": on_hand,
                    "price": price, "clearance": clearance}

    def stocked(self, store: dict[str, Any], least: int = 1) -> list[dict[str, Any]]:
        return [self.inventory[k] for k in sorted(self.inventory)
                if k[0] == store["store_id"] and self.inventory[k]["on_hand"] >= least]

    def build_customer(self) -> None:
        rng, fake = self.rng, self.fake
        person = fake.person()
        home = self.stores[0]
        self.customer = {
            "customer_id": self.w.new_id("CUS"), "name": person.name, "email": fake.email(person),
            "phone": fake.phone(), "home_store_id": home["store_id"],
            "customer_since": fake.date_between(date(2015, 1, 1), date(2024, 6, 30)).isoformat(),
        }
        tier = rng.choice(("Silver", "Gold", "Gold", "Platinum"))
        self.loyalty = {
            "loyalty_id": self.w.new_id("LOY"), "customer_id": self.customer["customer_id"],
            "card_number": "7" + fake.digits(11), "tier": tier, "points": 0, "lifetime_points": 0,
            "pin": fake.digits(4),
        }

    def activity_row(self, at: datetime, points: int, description: str) -> None:
        self.activity.append({"activity_id": self.w.new_id("PTS"), "loyalty_id": self.loyalty["loyalty_id"],
                              "occurred_at": iso(at), "points": points, "description": description})
        self.loyalty["points"] += points
        if points > 0:
            self.loyalty["lifetime_points"] += points

    def purchase(self, store: dict[str, Any], at: datetime, lines: list[tuple[dict[str, Any], int, float]],
                 reservation_id: str | None = None, certificate: dict[str, Any] | None = None) -> None:
        subtotal = round(sum(q * p for _, q, p in lines), 2)
        discount = min(certificate["value"], subtotal) if certificate else 0.0
        taxable = round(subtotal - discount, 2)
        tax = round(taxable * store["tax_rate"] / 100, 2)
        points = int(taxable * TIER_MULTIPLIER[self.loyalty["tier"]])
        purchase_id = self.w.new_id("PUR")
        self.purchases.append({
            "purchase_id": purchase_id, "store_id": store["store_id"], "reservation_id": reservation_id,
            "certificate_id": certificate["certificate_id"] if certificate else None, "purchased_at": iso(at),
            "subtotal": subtotal, "discount": discount, "tax": tax, "total": round(taxable + tax, 2),
            "points_earned": points,
        })
        for i, (product, qty, price) in enumerate(lines, 1):
            self.items.append({"purchase_id": purchase_id, "line": i, "product_id": product["product_id"],
                               "quantity": qty, "unit_price": price})
        if certificate:
            certificate["status"] = "used"
            certificate["used_at"] = iso(at)
        self.activity_row(at, points, f"Purchase {purchase_id} at {store['name']}")

    def certificate(self, at: datetime, value: float) -> dict[str, Any]:
        cost = int(value * POINTS_PER_DOLLAR)
        row = {"certificate_id": self.w.new_id("CRT"), "loyalty_id": self.loyalty["loyalty_id"], "value": value,
               "points_cost": cost, "status": "available", "issued_at": iso(at),
               "expires_on": (at.date() + timedelta(days=CERTIFICATE_DAYS)).isoformat(), "used_at": None}
        self.certificates.append(row)
        self.activity_row(at, -cost, f"Redeemed for ${value:.0f} reward certificate {row['certificate_id']}")
        return row

    def reservation(self, store: dict[str, Any], stock: dict[str, Any], qty: int, created: datetime,
                    status: str, extended: int = 0, closed: datetime | None = None) -> dict[str, Any]:
        expires = created + timedelta(hours=RESERVATION_HOURS + EXTENSION_HOURS * extended)
        row = {"reservation_id": self.w.new_id("RES"), "store_id": store["store_id"],
               "product_id": stock["product_id"], "quantity": qty, "unit_price": stock["price"], "status": status,
               "created_at": iso(created), "expires_at": iso(expires), "extended": extended,
               "closed_at": iso(closed) if closed else None}
        self.reservations.append(row)
        return row

    def build_history(self) -> None:
        """A year of purchases, certificates and points, then the customer's current holds."""
        rng = self.rng
        by_id = {p["product_id"]: p for p in self.products}
        open_stores = [s for s in self.stores if s["status"] == "open"]
        pickup = [s for s in open_stores if s["offers_pickup"]]
        self.activity_row(datetime(2025, 3, 1, 10, 0), rng.choice((500, 750, 1000)), "Welcome bonus")
        day = datetime(2025, 3, 20, 0, 0)
        redeemed = False
        while day < self.now - timedelta(days=6):
            store = rng.choice(open_stores[:3] + [rng.choice(open_stores)])
            stock = self.stocked(store)
            if stock:
                at = day + timedelta(minutes=rng.randint(10 * 60, 19 * 60))
                lines = [(by_id[s["product_id"]], rng.choice((1, 1, 1, 2)), s["price"])
                         for s in rng.sample(stock, min(len(stock), rng.randint(1, 3)))]
                usable = [c for c in self.certificates if c["status"] == "available"
                          and c["expires_on"] >= at.date().isoformat()]
                via_pickup = store["offers_pickup"] and len(lines) == 1 and rng.random() < 0.5
                reservation_id = None
                if via_pickup:
                    product, qty, price = lines[0]
                    created = at - timedelta(hours=rng.randint(3, 30))
                    reservation_id = self.reservation(store, self.inventory[(store["store_id"], product["product_id"])],
                                                      qty, created, "collected", closed=at)["reservation_id"]
                self.purchase(store, at, lines, reservation_id, usable[0] if usable and rng.random() < 0.7 else None)
                if self.loyalty["points"] >= 1500 and rng.random() < 0.3:
                    self.certificate(at + timedelta(minutes=5), rng.choice((5.0, 10.0)))
                    redeemed = True
            day += timedelta(days=rng.randint(12, 30))
        if not redeemed:
            self.activity_row(datetime(2025, 11, 28, 9, 0), 1000, "Black Friday bonus points")
            self.certificate(datetime(2025, 11, 28, 9, 5), 5.0)
        for cert in self.certificates:
            if cert["status"] == "available" and cert["expires_on"] < self.now.date().isoformat():
                cert["status"] = "expired"
        # one certificate to spend now, if the history left none
        if not any(c["status"] == "available" for c in self.certificates):
            self.activity_row(self.now - timedelta(days=9), 500, "Spring bonus points")
            self.certificate(self.now - timedelta(days=9, minutes=-5), 5.0)
        if self.loyalty["points"] < 1000:
            self.activity_row(self.now - timedelta(days=4), rng.choice((500, 750, 1000)), "Double points weekend bonus")
        # current and recent click-and-collect reservations
        home, flagship = self.stores[0], self.stores[1]
        plan = [(home, self.now - timedelta(hours=15), "active"),          # waiting; home opens at 10:00
                (flagship, self.now - timedelta(hours=20), "active"),      # waiting; flagship is open
                (rng.choice(pickup), self.now - timedelta(hours=45), "active"),   # about to expire
                (rng.choice(pickup), self.now - timedelta(hours=60), "active"),   # expired last night
                (rng.choice(pickup), self.now - timedelta(days=5), "cancelled")]
        for store, created, status in plan:
            stock = [s for s in self.stocked(store, 2)
                     if not any(r["store_id"] == store["store_id"] and r["product_id"] == s["product_id"]
                                for r in self.reservations if r["status"] == "active")]
            chosen = rng.choice(stock)
            qty = 1 if rng.random() < 0.7 else 2
            self.reservation(store, chosen, qty, created, status,
                             closed=created + timedelta(hours=5) if status == "cancelled" else None)
        # transfers: arriving tomorrow, arrived yesterday, received, cancelled
        for requested, status in ((self.now - timedelta(hours=20), "in_transit"),
                                  (self.now - timedelta(days=3), "in_transit"),
                                  (self.now - timedelta(days=24), "received"),
                                  (self.now - timedelta(days=40), "cancelled")):
            held = {(r["store_id"], r["product_id"]) for r in self.reservations if r["status"] == "active"}
            src = rng.choice([s for s in open_stores[1:] if self.stocked(s, 3)])
            product = rng.choice([x for x in self.stocked(src, 3) if (x["store_id"], x["product_id"]) not in held])
            dst = home if status != "cancelled" else rng.choice([s for s in pickup if s is not src])
            hours = 24 if src["city"] == dst["city"] else 48
            if status == "in_transit" and requested < self.now - timedelta(days=2):
                hours = 48
            if status == "in_transit" and requested > self.now - timedelta(days=1):
                hours = 48
            qty = rng.randint(1, 2)
            self.transfers.append({
                "transfer_id": self.w.new_id("TRF"), "product_id": product["product_id"],
                "from_store_id": src["store_id"], "to_store_id": dst["store_id"], "quantity": qty,
                "status": status, "requested_at": iso(requested), "arrives_at": iso(requested + timedelta(hours=hours)),
            })
            if status == "in_transit":
                product["on_hand"] -= qty
                key = (dst["store_id"], product["product_id"])
                if key not in self.inventory:
                    base = by_id[product["product_id"]]["list_price"]
                    self.inventory[key] = {"store_id": dst["store_id"], "product_id": product["product_id"],
                                           "on_hand": 0, "price": base, "clearance": 0}

    def build(self) -> dict[str, list[dict[str, Any]]]:
        self.build_stores()
        self.build_products()
        self.build_inventory()
        self.build_customer()
        self.build_history()
        self.activity.sort(key=lambda a: (a["occurred_at"], a["activity_id"]))
        return {
            "stores": self.stores, "store_hours": self.hours, "products": self.products,
            "inventory": [self.inventory[k] for k in sorted(self.inventory)], "customers": [self.customer],
            "loyalty_accounts": [self.loyalty], "certificates": self.certificates,
            "reservations": self.reservations, "transfers": self.transfers, "purchases": self.purchases,
            "purchase_items": self.items, "points_activity": self.activity,
        }


def build_world(w: WorldGen) -> dict[str, list[dict[str, Any]]]:
    return _Builder(w).build()
