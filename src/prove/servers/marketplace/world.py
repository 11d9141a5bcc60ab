"""The marketplace world: a peer-to-peer marketplace seen by one signed-in member.

Sixty-five other members in US cities sell second-hand and new goods in a dozen categories;
each has a specialty, a bio and a rating history. The signed-in member (`is_me = 1`, always
'MBR-10001') both buys and sells. The world holds, at the epoch (Monday 2026-03-16 09:00):

- a few hundred listings, mostly active, some sold or withdrawn, with realistic titles, prices
  by condition, shipping costs and descriptions;
- the member's own listings: active ones (several with pending offers from other members), sold
  ones (one paid and waiting to be shipped, one shipped, one delivered) and a withdrawn one;
- the member's purchases in every state (paid, shipped, delivered; some delivered ones already
  rated, some not), and offers the member made (pending, countered by the seller, rejected,
  expired);
- message threads about listings, a few hundred ratings, payment methods (one card expired) and
  gift cards (one redeemable, one expired, one already redeemed).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from prove.env import WorldBuilder, WorldGen
from prove.env.fake import CITIES
from prove.env.values import iso

US_CITIES = tuple(c for c in CITIES if c.country == "US")
OFFER_HOURS = 48  # an offer or a counter-offer lapses this many hours after it is made

# name, fee percent, username word, items: (title with optional {v} variant, variants, low, high, shipping class)
CATALOG: tuple[tuple[str, float, str, tuple[tuple[str, tuple[str, ...], float, float, str], ...]], ...] = (
    ("Electronics", 8.5, "tech", (
        ("Apple iPhone 13 128GB {v}", ("Midnight", "Starlight", "Blue", "Pink"), 330, 480, "small"),
        ("Samsung Galaxy S22 256GB {v}", ("Phantom Black", "Green", "Pink Gold"), 260, 390, "small"),
        ("Apple iPad Air 5th Gen 64GB {v}", ("Space Gray", "Purple", "Blue"), 360, 470, "small"),
        ("Sony WH-1000XM4 Noise Cancelling Headphones {v}", ("Black", "Silver"), 140, 230, "small"),
        ("Apple AirPods Pro 2nd Gen", ("",), 140, 200, "small"),
        ("Bose SoundLink Flex Bluetooth Speaker {v}", ("Black", "Stone Blue", "Cypress Green"), 75, 120, "small"),
        ("Kindle Paperwhite 11th Gen 8GB", ("",), 80, 130, "small"),
        ("Dell UltraSharp U2720Q 27in 4K Monitor", ("",), 260, 380, "large"),
        ("MacBook Air M1 13in 8GB/256GB {v}", ("Space Gray", "Gold", "Silver"), 520, 720, "medium"),
        ("Garmin Forerunner 245 GPS Watch", ("",), 110, 170, "small"),
        ("Logitech MX Master 3S Mouse", ("",), 55, 85, "small"),
        ("Sonos One SL Speaker {v}", ("Black", "White"), 110, 160, "medium"),
    )),
    ("Cameras & Photo", 9.0, "cameras", (
        ("Canon EOS Rebel T7 with 18-55mm Lens", ("",), 330, 450, "medium"),
        ("Fujifilm X-T30 II Body {v}", ("Black", "Silver"), 720, 880, "medium"),
        ("Sony Alpha a6400 Mirrorless Camera Body", ("",), 640, 820, "medium"),
        ("Nikon D750 DSLR Body, {v} Shutter Count", ("12k", "28k", "41k"), 620, 820, "medium"),
        ("Canon AE-1 Program 35mm Film Camera with 50mm f/1.8", ("",), 180, 290, "medium"),
        ("Olympus OM-1 35mm Film Camera", ("",), 140, 230, "medium"),
        ("Sigma 30mm f/1.4 DC DN Lens for {v}", ("Sony E", "Fujifilm X", "Canon EF-M"), 220, 300, "small"),
        ("GoPro HERO10 Black", ("",), 210, 290, "small"),
        ("Manfrotto Befree Advanced Travel Tripod", ("",), 120, 180, "medium"),
        ("DJI Mini 2 Drone Fly More Combo", ("",), 330, 440, "medium"),
    )),
    ("Musical Instruments", 6.35, "music", (
        ("Fender Player Stratocaster {v}", ("Sunburst", "Polar White", "Black"), 580, 760, "large"),
        ("Yamaha FG800 Acoustic Guitar", ("",), 150, 210, "large"),
        ("Gibson Les Paul Studio {v}", ("Ebony", "Wine Red"), 1050, 1450, "large"),
        ("Roland TD-07KV Electronic Drum Kit", ("",), 620, 820, "large"),
        ("Korg Minilogue XD Synthesizer", ("",), 460, 580, "medium"),
        ("Boss DS-1 Distortion Pedal", ("",), 35, 55, "small"),
        ("Fender Blues Junior IV Tube Amp", ("",), 420, 560, "large"),
        ("Yamaha P-45 Digital Piano 88 Keys", ("",), 330, 430, "large"),
        ("Shure SM58 Vocal Microphone", ("",), 65, 90, "small"),
        ("Ukulele Kala KA-15S Soprano", ("",), 40, 60, "medium"),
    )),
    ("Video Games", 9.5, "games", (
        ("Nintendo Switch OLED Console {v}", ("White", "Neon Red/Blue"), 260, 330, "medium"),
        ("PlayStation 5 Disc Edition with Controller", ("",), 380, 470, "medium"),
        ("Xbox Series S 512GB", ("",), 190, 250, "medium"),
        ("The Legend of Zelda: Tears of the Kingdom (Switch)", ("",), 35, 50, "small"),
        ("Elden Ring (PS5)", ("",), 22, 35, "small"),
        ("Super Nintendo SNES Console with Two Controllers", ("",), 120, 190, "medium"),
        ("Pokemon Emerald (GBA), Authentic Cartridge", ("",), 140, 220, "small"),
        ("Steam Deck 256GB", ("",), 330, 420, "medium"),
        ("DualSense Wireless Controller {v}", ("White", "Midnight Black", "Cosmic Red"), 45, 60, "small"),
        ("Nintendo Game Boy Color {v}", ("Teal", "Grape", "Atomic Purple"), 70, 120, "small"),
    )),
    ("Home & Kitchen", 12.0, "home", (
        ("KitchenAid Artisan Stand Mixer 5qt {v}", ("Empire Red", "Onyx Black", "Pistachio"), 240, 330, "large"),
        ("Le Creuset Dutch Oven 5.5qt {v}", ("Flame", "Marseille", "Sea Salt"), 220, 320, "large"),
        ("Breville Barista Express Espresso Machine", ("",), 380, 520, "large"),
        ("Vitamix E310 Blender", ("",), 210, 290, "large"),
        ("Dyson V11 Cordless Vacuum", ("",), 280, 390, "large"),
        ("Instant Pot Duo 8qt", ("",), 55, 85, "medium"),
        ("Lodge 12in Cast Iron Skillet", ("",), 18, 30, "medium"),
        ("Nespresso Vertuo Next Coffee Maker", ("",), 85, 130, "medium"),
        ("Set of 4 Heath Ceramics Dinner Plates", ("",), 90, 150, "medium"),
        ("All-Clad D3 10-Piece Cookware Set", ("",), 380, 540, "large"),
    )),
    ("Furniture", 10.0, "furniture", (
        ("Mid-Century Walnut Dresser, 6 Drawers", ("",), 380, 720, "freight"),
        ("IKEA Poang Armchair {v}", ("Birch/Beige", "Black-Brown/Knisa"), 60, 110, "freight"),
        ("Herman Miller Aeron Chair Size B", ("",), 480, 780, "freight"),
        ("Solid Oak Dining Table, Seats 6", ("",), 420, 800, "freight"),
        ("Vintage Danish Teak Side Table", ("",), 160, 320, "freight"),
        ("West Elm Mid-Century Bookshelf", ("",), 180, 290, "freight"),
        ("Steelcase Leap V2 Office Chair", ("",), 330, 520, "freight"),
        ("Rattan Accent Chair", ("",), 90, 180, "freight"),
    )),
    ("Collectibles", 12.5, "collects", (
        ("Pokemon TCG Charizard Holo, Base Set, {v}", ("PSA 6", "PSA 7", "Raw, LP"), 240, 620, "small"),
        ("1986 Fleer Basketball Card Lot (25 Cards)", ("",), 45, 90, "small"),
        ("LEGO Star Wars UCS Millennium Falcon 75192, Sealed", ("",), 780, 950, "large"),
        ("Vintage Coca-Cola Tin Sign, 1950s", ("",), 90, 180, "medium"),
        ("Morgan Silver Dollar 1921, {v}", ("VF", "XF", "AU"), 40, 75, "small"),
        ("Funko Pop! Marvel Lot of 12", ("",), 60, 110, "medium"),
        ("Vinyl: Fleetwood Mac - Rumours (1977 Original Pressing)", ("",), 25, 60, "small"),
        ("Vinyl: Pink Floyd - The Dark Side of the Moon ({v})", ("1973 Harvest", "2016 Reissue"), 30, 90, "small"),
        ("Hot Wheels Redline Lot of 8", ("",), 110, 240, "small"),
        ("First Edition Harry Potter and the Goblet of Fire", ("",), 60, 140, "small"),
    )),
    ("Sports & Outdoors", 11.0, "outdoors", (
        ("Trek FX 2 Disc Hybrid Bike, {v} Frame", ("Medium", "Large"), 480, 650, "freight"),
        ("Specialized Rockhopper Mountain Bike, {v} Frame", ("Medium", "Large", "Small"), 420, 620, "freight"),
        ("Patagonia Nano Puff Jacket, Men's {v}", ("M", "L", "XL"), 80, 130, "small"),
        ("REI Half Dome SL 2+ Tent", ("",), 150, 220, "medium"),
        ("Osprey Atmos AG 65 Backpack", ("",), 160, 240, "medium"),
        ("Yeti Tundra 45 Cooler {v}", ("White", "Tan", "Navy"), 190, 260, "large"),
        ("Bowflex SelectTech 552 Dumbbells (Pair)", ("",), 230, 330, "freight"),
        ("Burton Custom Snowboard 158cm", ("",), 280, 420, "large"),
        ("Callaway Strata Complete Golf Set", ("",), 190, 290, "large"),
        ("Black Diamond Spot 400 Headlamp", ("",), 25, 40, "small"),
    )),
    ("Clothing & Shoes", 12.9, "closet", (
        ("Nike Air Jordan 1 Mid, Size {v}", ("9", "10", "10.5", "11"), 90, 160, "small"),
        ("Levi's 501 Original Jeans W{v}", ("30 L32", "32 L32", "34 L30"), 30, 55, "small"),
        ("Arc'teryx Beta AR Jacket, {v}", ("Women's S", "Men's M", "Men's L"), 330, 480, "small"),
        ("Dr. Martens 1460 Boots, Size {v}", ("7", "8", "9", "10"), 80, 130, "small"),
        ("Canada Goose Expedition Parka, {v}", ("Women's M", "Men's L"), 540, 780, "medium"),
        ("Vintage Carhartt Detroit Jacket, {v}", ("M", "L", "XL"), 110, 190, "small"),
        ("Lululemon Align Leggings 25in, Size {v}", ("4", "6", "8"), 45, 70, "small"),
        ("Ray-Ban Wayfarer Classic Sunglasses", ("",), 70, 110, "small"),
    )),
    ("Books", 14.5, "books", (
        ("Dune by Frank Herbert, 1984 Ace Paperback", ("",), 8, 18, "small"),
        ("The Complete Calvin and Hobbes Box Set", ("",), 70, 120, "medium"),
        ("Lot of 10 Agatha Christie Paperbacks", ("",), 20, 40, "medium"),
        ("Salt, Fat, Acid, Heat by Samin Nosrat, Hardcover", ("",), 14, 25, "small"),
        ("The Lord of the Rings 50th Anniversary Edition", ("",), 45, 90, "medium"),
        ("Signed Copy: Project Hail Mary by Andy Weir", ("",), 60, 130, "small"),
        ("Introduction to Algorithms (CLRS), 3rd Edition", ("",), 35, 60, "medium"),
        ("National Geographic Magazines 1970s, Lot of 24", ("",), 30, 60, "medium"),
    )),
    ("Toys & Hobbies", 12.0, "toys", (
        ("LEGO Technic Porsche 911 GT3 RS 42056, Complete", ("",), 260, 380, "large"),
        ("LEGO Ideas Tree House 21318, Sealed", ("",), 220, 290, "large"),
        ("Warhammer 40k Space Marine Army Lot", ("",), 120, 260, "medium"),
        ("Brio Wooden Railway Set, 100+ Pieces", ("",), 70, 130, "medium"),
        ("Settlers of Catan with Seafarers Expansion", ("",), 35, 60, "medium"),
        ("Traxxas Slash 2WD RC Truck", ("",), 170, 240, "medium"),
        ("American Girl Doll Kit with Accessories", ("",), 60, 120, "medium"),
        ("Gloomhaven Board Game, Unpunched", ("",), 90, 140, "large"),
    )),
    ("Jewelry & Watches", 13.0, "jewels", (
        ("Seiko 5 Sports SRPD55 Automatic Watch", ("",), 180, 250, "small"),
        ("Casio G-Shock GA-2100 {v}", ("Black", "Olive", "Blue"), 65, 95, "small"),
        ("Sterling Silver Turquoise Cuff Bracelet, Handmade", ("",), 70, 160, "small"),
        ("14k Gold Herringbone Chain, 18in", ("",), 320, 560, "small"),
        ("Tissot PRX Powermatic 80, {v} Dial", ("Blue", "Silver", "Green"), 420, 560, "small"),
        ("Vintage Omega Seamaster De Ville, 1960s", ("",), 850, 1350, "small"),
        ("Handmade Beaded Earrings, {v}", ("Coral", "Emerald", "Lapis"), 18, 40, "small"),
        ("Pandora Moments Bracelet with 6 Charms", ("",), 90, 160, "small"),
    )),
)

CONDITIONS = (("new", 0.15, 1.0), ("like_new", 0.25, 0.86), ("good", 0.35, 0.72),
              ("fair", 0.18, 0.57), ("for_parts", 0.07, 0.3))
SHIPPING = {"small": (4.99, 6.99, 8.49, 9.99), "medium": (12.99, 14.99, 17.5, 19.99),
            "large": (24.99, 29.99, 34.5, 39.99), "freight": (65.0, 89.0, 120.0, 150.0)}

CONDITION_NOTES = {
    "new": ("Brand new, never opened, still in the original shrink wrap.",
            "New in box; I bought two by mistake.", "Unused gift, tags still attached."),
    "like_new": ("Used only a handful of times, no visible wear.", "Excellent condition, kept in a smoke-free home.",
                 "Looks and works like new; original box included."),
    "good": ("Light signs of use, a few small scuffs, works perfectly.", "Well cared for; minor wear on the edges.",
             "Fully functional, cosmetic wear consistent with age."),
    "fair": ("Works, but shows clear wear and a couple of scratches.", "Heavily used but still going strong.",
             "Functional; see photos for dents and marks."),
    "for_parts": ("Sold for parts or repair: does not power on.",
                  "Not working; might be an easy fix for someone handy.", "Untested, sold as-is for parts."),
}
EXTRA_NOTES = ("Ships within 2 business days, carefully packed.", "Local pickup possible.",
               "Comes from a pet-free home.", "Happy to answer questions.", "Price is firm.",
               "Bundle discounts available on my other items.", "Includes original receipt.",
               "Ships with tracking and insurance.", "Cash or card on pickup.", "")
BIOS = ("Collector and reseller of {cat}. Fast shipping, careful packing.",
        "Decluttering my home, everything comes from a smoke-free house.",
        "Small {cat} shop run from {city}. Questions welcome.",
        "Weekend flea-market hunter. I describe every flaw honestly.",
        "Upgrading my gear, selling what I no longer use.",
        "Part-time seller, full-time {cat} enthusiast.",
        "Family-run reseller since {year}. Ships same or next business day.")
GOOD_COMMENTS = ("Item exactly as described, fast shipping!", "Great seller, well packed. A+",
                 "Smooth transaction, would buy again.", "Arrived quickly and in perfect condition.",
                 "Friendly communication and quick shipping.", "Better than expected, thank you!",
                 "Five stars, highly recommended.", "Very honest description, great price.")
MID_COMMENTS = ("Item fine but shipping took over a week.", "OK overall, packaging could be better.",
                "Slightly more wear than described, still usable.", "Took a while to reply to messages.")
BAD_COMMENTS = ("Item arrived damaged and seller was slow to respond.", "Not as described; missing parts.",
                "Shipped two weeks late with no updates.", "Condition was much worse than the photos.")
# (question, answer) pairs of buyers' questions and sellers' answers
QUESTIONS = (
    ("Hi! Is this still available?", "Yes, still available!"),
    ("Would you ship to {city}?", "Yes, I can ship anywhere in the US."),
    ("Any chance you'd take {amount}?", "I could do a little less, send me an offer."),
    ("Does it come with the original box?", "It does, box and manuals included."),
    ("Can you share the exact measurements?", "Sure, I just added them to the description."),
    ("How long did you use it for?", "About a year, always handled with care."),
    ("Could I pick it up this weekend?", "Sure, Saturday morning works for me."),
    ("Are there any scratches not shown in the photos?", "No hidden flaws, what you see is what you get."),
    ("Can you ship it tomorrow if I buy today?", "Yes, it would go out first thing tomorrow."),
)
FOLLOW_UPS = ("Great, thanks!", "Perfect, I'll think about it.", "Thanks for the quick reply.")
BUYER_NOTES = ("Would you consider this?", "Can pay right away.", "Happy to buy today if this works.",
               "Is this a fair offer?", None, None)
CARRIERS = ("USPS", "UPS", "FedEx")


def nice_price(value: float) -> float:
    """A price a person would ask: 149.99, 85.00, 42.50."""
    if value < 20:
        return round(max(value, 3.0) * 2) / 2 - 0.01 if value > 6 else round(max(value, 3.0), 0)
    whole = int(value)
    ending = (0.0, 0.99, 0.5, 0.0, 0.99)[whole % 5]
    if whole >= 200:
        whole = (whole // 5) * 5
    return round(whole + ending, 2)


def card_expired(expires: str, today: date) -> bool:
    """Whether a card with expiry 'MM/YY' is past its last valid day on `today`."""
    month, year = int(expires[:2]), 2000 + int(expires[3:])
    return (year, month) < (today.year, today.month)


def fee_for(fee_percent: float, price: float, shipping: float) -> float:
    """The final value fee: a percent of price plus shipping, plus $0.30 per order."""
    return round((price + shipping) * fee_percent / 100 + 0.30, 2)


class _Builder(WorldBuilder):
    def __init__(self, w: WorldGen) -> None:
        super().__init__(w)
        self.members: list[dict[str, Any]] = []
        self.categories: list[dict[str, Any]] = []
        self.listings: list[dict[str, Any]] = []
        self.offers: list[dict[str, Any]] = []
        self.orders: list[dict[str, Any]] = []
        self.ratings: list[dict[str, Any]] = []
        self.messages: list[dict[str, Any]] = []
        self.usernames: set[str] = set()
        self.specialty: dict[str, list[int]] = {}
        self.quality: dict[str, float] = {}

    # ----- people ---------------------------------------------------------------------------

    def username(self, first: str, last: str, word: str) -> str:
        rng = self.rng
        first, last = first.lower(), last.lower().replace("'", "")
        while True:
            style = rng.randrange(6)
            name = (f"{first}.{last}", f"{first}_{word}", f"{first[0]}{last}{rng.randint(2, 99)}",
                    f"{last}{word}", f"{first}{last[0]}_{word}", f"{word}by{first}")[style]
            if name not in self.usernames:
                self.usernames.add(name)
                return name

    def build_members(self) -> None:
        rng, fake = self.rng, self.fake
        people = fake.people(66)
        self.me_person = people[0]
        for i, person in enumerate(people):
            city = rng.choice(US_CITIES)
            cats = rng.sample(range(len(CATALOG)), 2 if rng.random() < 0.4 else 1)
            member_id = self.w.new_id("MBR")
            word = CATALOG[cats[0]][2]
            joined = fake.date_between(date(2012, 1, 1), date(2025, 11, 30))
            bio = rng.choice(BIOS).format(cat=CATALOG[cats[0]][0].lower(), city=city.name,
                                         year=rng.randint(2009, 2020))
            self.members.append({
                "member_id": member_id, "username": self.username(person.first, person.last, word),
                "full_name": person.name, "city": city.name, "region": city.region,
                "joined_on": joined.isoformat(), "bio": bio, "is_me": 1 if i == 0 else 0,
            })
            self.specialty[member_id] = cats
            self.quality[member_id] = rng.choice((4.9, 4.8, 4.7, 4.6, 4.4, 4.2, 3.6, 2.8)) if i else 4.8

    @property
    def me(self) -> dict[str, Any]:
        return self.members[0]

    @property
    def others(self) -> list[dict[str, Any]]:
        return self.members[1:]

    # ----- listings ---------------------------------------------------------------------------

    def build_categories(self) -> None:
        for name, fee, _, _ in CATALOG:
            self.categories.append({"category_id": self.w.new_id("CAT"), "name": name, "fee_percent": fee})

    def make_listing(self, seller_id: str, cat_index: int, status: str, created: datetime,
                     accepts_offers: bool | None = None) -> dict[str, Any]:
        rng = self.rng
        _, _, _, items = CATALOG[cat_index]
        title, variants, low, high, ship_class = rng.choice(items)
        variant = rng.choice(variants)
        title = title.replace("{v}", variant).strip()
        roll, acc = rng.random(), 0.0
        condition, factor = CONDITIONS[-1][0], CONDITIONS[-1][2]
        for cond, weight, f in CONDITIONS:
            acc += weight
            if roll < acc:
                condition, factor = cond, f
                break
        price = nice_price(rng.uniform(low, high) * factor)
        shipping = 0.0 if (ship_class != "freight" and rng.random() < 0.3) else rng.choice(SHIPPING[ship_class])
        notes = [rng.choice(CONDITION_NOTES[condition]), rng.choice(EXTRA_NOTES)]
        updated = created + timedelta(hours=rng.randint(0, 72))
        if updated > self.now:
            updated = created
        listing = {
            "listing_id": self.w.new_id("LST"), "seller_id": seller_id,
            "category_id": self.categories[cat_index]["category_id"], "title": title,
            "description": " ".join(n for n in notes if n), "condition": condition, "price": price,
            "shipping_cost": shipping,
            "accepts_offers": int(rng.random() < 0.6 if accepts_offers is None else accepts_offers),
            "status": status, "created_at": iso(created), "updated_at": iso(updated),
            "watchers": rng.randint(0, 40),
        }
        self.listings.append(listing)
        return listing

    def build_listings(self) -> None:
        rng = self.rng
        for member in self.others:
            n = rng.choice((0, 1, 2, 2, 3, 3, 4, 5, 6))
            for _ in range(n):
                status = rng.choices(("active", "sold", "withdrawn"), (0.8, 0.14, 0.06))[0]
                created = self.now - timedelta(minutes=rng.randint(60, 60 * 24 * 75))
                self.make_listing(member["member_id"], rng.choice(self.specialty[member["member_id"]]),
                                  status, created)

    # ----- the signed-in member's selling ---------------------------------------------------

    def offer(self, listing: dict[str, Any], buyer_id: str, amount: float, status: str, created: datetime,
              counter: float | None = None, responded: datetime | None = None) -> dict[str, Any]:
        expires = (responded if counter is not None and responded else created) + timedelta(hours=OFFER_HOURS)
        row = {
            "offer_id": self.w.new_id("OFR"), "listing_id": listing["listing_id"], "buyer_id": buyer_id,
            "amount": amount, "message": self.rng.choice(BUYER_NOTES), "status": status,
            "counter_amount": counter, "created_at": iso(created), "expires_at": iso(expires),
            "responded_at": iso(responded) if responded else None,
        }
        self.offers.append(row)
        return row

    def order(self, listing: dict[str, Any], buyer_id: str, price: float, status: str, created: datetime,
              paid_with: str, payment_method_id: str | None, offer_id: str | None = None) -> dict[str, Any]:
        rng = self.rng
        fee_pct = next(c["fee_percent"] for c in self.categories if c["category_id"] == listing["category_id"])
        shipped = created + timedelta(hours=rng.randint(8, 60)) if status != "paid" else None
        delivered = shipped + timedelta(days=rng.randint(2, 5)) if status == "delivered" and shipped else None
        carrier = rng.choice(CARRIERS) if shipped else None
        tracking = None
        if carrier:
            tracking = {"USPS": "9400" + self.fake.digits(18), "UPS": "1Z" + self.fake.code(16),
                        "FedEx": self.fake.digits(12)}[carrier]
        row = {
            "order_id": self.w.new_id("ORD"), "listing_id": listing["listing_id"], "buyer_id": buyer_id,
            "seller_id": listing["seller_id"], "offer_id": offer_id, "item_price": price,
            "shipping_cost": listing["shipping_cost"], "total": round(price + listing["shipping_cost"], 2),
            "seller_fee": fee_for(fee_pct, price, listing["shipping_cost"]), "paid_with": paid_with,
            "payment_method_id": payment_method_id, "status": status, "carrier": carrier,
            "tracking_number": tracking, "created_at": iso(created),
            "shipped_at": iso(shipped) if shipped else None, "delivered_at": iso(delivered) if delivered else None,
        }
        listing["status"] = "sold"
        listing["updated_at"] = iso(created)
        self.orders.append(row)
        return row

    def build_my_selling(self) -> None:
        rng, me = self.rng, self.me["member_id"]
        mine_cats = self.specialty[me] + rng.sample(range(len(CATALOG)), 2)
        active = []
        for i in range(9):
            created = self.now - timedelta(minutes=rng.randint(6 * 60, 60 * 24 * 40))
            active.append(self.make_listing(me, mine_cats[i % len(mine_cats)], "active", created,
                                            accepts_offers=i % 3 != 2))
        withdrawn = self.make_listing(me, rng.choice(mine_cats), "withdrawn",
                                      self.now - timedelta(days=rng.randint(20, 50)))
        withdrawn["updated_at"] = iso(self.now - timedelta(days=rng.randint(2, 15)))
        # offers received on active listings that accept them
        for listing in active:
            if not listing["accepts_offers"]:
                continue
            for buyer in rng.sample(self.others, rng.randint(0, 3)):
                pct = rng.uniform(0.6, 0.92)
                amount = nice_price(listing["price"] * pct)
                if amount >= listing["price"]:
                    continue
                age = rng.randint(1, 40) if rng.random() < 0.75 else rng.randint(60, 240)
                created = self.now - timedelta(hours=age, minutes=rng.randint(0, 59))
                status = "pending" if age < OFFER_HOURS else rng.choice(("rejected", "expired"))
                responded = created + timedelta(hours=rng.randint(1, 20)) if status == "rejected" else None
                self.offer(listing, buyer["member_id"], amount, status, created, responded=responded)
        # sold: one waiting to ship, one shipped, one or two delivered
        for status in ("paid", "shipped", "delivered") + (("delivered",) if rng.random() < 0.5 else ()):
            days = {"paid": rng.randint(0, 2), "shipped": rng.randint(3, 6), "delivered": rng.randint(9, 45)}[status]
            created = self.now - timedelta(days=days, hours=rng.randint(1, 12))
            listing = self.make_listing(me, rng.choice(mine_cats), "active",
                                        created - timedelta(days=rng.randint(2, 20)))
            buyer = rng.choice(self.others)
            order = self.order(listing, buyer["member_id"], listing["price"], status, created,
                               "paid by buyer", None)
            if status == "delivered" and rng.random() < 0.8:
                self.rate(me, buyer["member_id"], order, datetime.fromisoformat(order["delivered_at"]))
            self.thread(listing, buyer["member_id"], me, created - timedelta(hours=rng.randint(2, 30)), 2)
        # questions about active listings
        for listing in rng.sample(active, 5):
            asker = rng.choice(self.others)
            start = datetime.fromisoformat(listing["created_at"]) + timedelta(hours=rng.randint(2, 48))
            if start >= self.now:
                start = self.now - timedelta(hours=3)
            self.thread(listing, asker["member_id"], me, start, rng.randint(1, 3))

    def thread(self, listing: dict[str, Any], asker: str, seller: str, start: datetime, n: int) -> None:
        """A short exchange: the asker asks, the seller answers, the asker thanks."""
        rng = self.rng
        city = next(m["city"] for m in self.members if m["member_id"] == asker)
        question, answer = rng.choice(QUESTIONS)
        lines = [(asker, seller, question.format(city=city, amount=f"${nice_price(listing['price'] * 0.85):.2f}")),
                 (seller, asker, answer), (asker, seller, rng.choice(FOLLOW_UPS))]
        at = start
        for sender, recipient, body in lines[:n]:
            if at >= self.now:
                break
            self.messages.append({"message_id": self.w.new_id("MSG"), "listing_id": listing["listing_id"],
                                  "sender_id": sender, "recipient_id": recipient, "body": body,
                                  "sent_at": iso(at)})
            at += timedelta(minutes=rng.randint(20, 600))

    # ----- the signed-in member's buying ----------------------------------------------------

    def build_my_buying(self, methods: list[dict[str, Any]]) -> None:
        rng, me = self.rng, self.me["member_id"]
        valid = [m for m in methods if not (m["expires"] and card_expired(m["expires"], self.now.date()))]
        open_listings = [x for x in self.listings if x["status"] == "active" and x["seller_id"] != me]
        rng.shuffle(open_listings)
        # purchases, from listings that are now sold
        plan = ["delivered"] * 6 + ["shipped"] * 3 + ["paid"] * 2
        for i, status in enumerate(plan):
            listing = open_listings.pop()
            days = {"paid": rng.randint(0, 2), "shipped": rng.randint(2, 6), "delivered": rng.randint(8, 70)}[status]
            created = self.now - timedelta(days=days, hours=rng.randint(1, 10))
            if datetime.fromisoformat(listing["created_at"]) > created:
                listing["created_at"] = iso(created - timedelta(days=rng.randint(1, 10)))
            price, offer_id = listing["price"], None
            if i % 4 == 1 and listing["accepts_offers"]:
                price = nice_price(listing["price"] * rng.uniform(0.8, 0.95))
                offer = self.offer(listing, me, price, "accepted", created - timedelta(hours=rng.randint(2, 30)),
                                   responded=created)
                offer_id = offer["offer_id"]
            use_balance = rng.random() < 0.15
            method = rng.choice(valid)
            order = self.order(listing, me, price, status, created,
                               "marketplace balance" if use_balance else method["label"],
                               None if use_balance else method["payment_method_id"], offer_id)
            if status == "delivered" and i % 3 != 0:
                self.rate(listing["seller_id"], me, order, datetime.fromisoformat(order["delivered_at"])
                          + timedelta(hours=rng.randint(2, 48)), own=True)
            if rng.random() < 0.5:
                self.thread(listing, me, listing["seller_id"], created - timedelta(hours=rng.randint(3, 40)), 2)
        # offers the member made on listings still active
        with_offers = [x for x in open_listings if x["accepts_offers"]][:7]
        for i, listing in enumerate(with_offers):
            kind = ("pending", "pending", "countered", "countered", "rejected", "expired", "withdrawn")[i]
            amount = nice_price(listing["price"] * rng.uniform(0.65, 0.85))
            if kind == "pending":
                created = self.now - timedelta(hours=rng.randint(1, 30))
                self.offer(listing, me, amount, "pending", created)
            elif kind == "countered":
                created = self.now - timedelta(hours=rng.randint(10, 36))
                counter = nice_price((amount + listing["price"]) / 2)
                if not amount < counter < listing["price"]:
                    counter = round((amount + listing["price"]) / 2, 2)
                self.offer(listing, me, amount, "countered", created, counter=counter,
                           responded=created + timedelta(hours=rng.randint(1, 8)))
            else:
                created = self.now - timedelta(days=rng.randint(3, 12))
                responded = created + timedelta(hours=rng.randint(1, 20)) if kind != "expired" else None
                self.offer(listing, me, amount, kind, created, responded=responded)
            if rng.random() < 0.6:
                self.thread(listing, me, listing["seller_id"], datetime.fromisoformat(self.offers[-1]["created_at"])
                            - timedelta(hours=2), rng.randint(1, 2))

    # ----- ratings ---------------------------------------------------------------------------

    def rate(self, seller: str, rater: str, order: dict[str, Any] | None, at: datetime, own: bool = False) -> None:
        rng = self.rng
        q = self.quality.get(seller, 4.7)
        stars = 5 if rng.random() < (q - 3.0) / 2.1 else rng.choice((4, 4, 3, 2, 1) if q < 4 else (4, 4, 4, 3))
        if own or seller == self.me["member_id"]:
            stars = max(stars, 3)
        comment = rng.choice(GOOD_COMMENTS if stars >= 4 else MID_COMMENTS if stars == 3 else BAD_COMMENTS)
        at = min(at, self.now - timedelta(minutes=30))
        self.ratings.append({"rating_id": self.w.new_id("RAT"), "seller_id": seller, "rater_id": rater,
                             "order_id": order["order_id"] if order else None, "stars": stars,
                             "comment": comment, "created_at": iso(at)})

    def build_ratings(self) -> None:
        rng = self.rng
        sellers = {x["seller_id"] for x in self.listings}
        for member in self.members:
            mid = member["member_id"]
            if mid not in sellers:
                continue
            n = rng.choice((0, 1, 2, 3, 4, 6, 8, 12)) if not member["is_me"] else rng.randint(4, 8)
            for _ in range(n):
                rater = rng.choice(self.others)["member_id"]
                if rater == mid:
                    continue
                at = datetime.combine(self.fake.date_between(date(2023, 1, 1), date(2026, 3, 10)),
                                      datetime.min.time()) + timedelta(minutes=rng.randint(420, 1320))
                self.rate(mid, rater, None, at)

    # ----- account ---------------------------------------------------------------------------

    def payment_methods(self) -> list[dict[str, Any]]:
        rng, fake = self.rng, self.fake
        networks = rng.sample(("Visa", "Mastercard", "American Express", "Discover"), 2)
        rows = []
        for i, network in enumerate(networks):
            number = ("4" if network == "Visa" else "5" if network == "Mastercard" else
                      "37" if network == "American Express" else "6011")
            number += fake.digits((15 if network == "American Express" else 16) - len(number))
            if i == 0:
                expires = f"{rng.randint(1, 12):02d}/{rng.randint(27, 30)}"
            else:
                expires = f"{rng.randint(1, 12):02d}/{rng.choice((24, 25))}"
            rows.append({"payment_method_id": self.w.new_id("PM"), "label": f"{network} ending {number[-4:]}",
                         "kind": "card", "card_number": number, "expires": expires, "is_default": int(i == 0)})
        rows.append({"payment_method_id": self.w.new_id("PM"), "label": "PayPal",
                     "kind": "paypal", "card_number": None, "expires": None, "is_default": 0})
        return rows

    def gift_cards(self) -> list[dict[str, Any]]:
        rng, fake = self.rng, self.fake
        alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
        rows = []
        plan = (("unredeemed", rng.choice((25.0, 50.0, 75.0, 100.0)), date(2027, rng.randint(1, 12), 28)),
                ("unredeemed", rng.choice((20.0, 30.0)), date(2026, rng.randint(1, 2), 28)),
                ("redeemed", rng.choice((25.0, 50.0)), date(2026, 12, 31)))
        for status, amount, expires in plan:
            code = "MKT-" + "-".join(fake.code(4, alphabet) for _ in range(3))
            rows.append({"gift_card_id": self.w.new_id("GC"), "code": code, "amount": amount, "status": status,
                         "expires_on": expires.isoformat(),
                         "redeemed_at": (iso(self.now - timedelta(days=rng.randint(20, 90)))
                                         if status == "redeemed" else None)})
        return rows

    def build(self) -> dict[str, list[dict[str, Any]]]:
        self.build_members()
        self.build_categories()
        methods = self.payment_methods()
        self.build_listings()
        self.build_my_selling()
        self.build_my_buying(methods)
        self.build_ratings()
        me = self.me
        city = next(c for c in US_CITIES if c.name == me["city"])
        account = {
            "member_id": me["member_id"], "email": self.fake.email(self.me_person),
            "phone": self.fake.phone(),
            "shipping_address": f"{self.fake.street_address()}, {city.name}, {city.region} "
                                f"{city.zip_prefix}{self.rng.randint(10, 99)}",
            "balance": self.fake.money(20, 180), "max_active_listings": 15,
        }
        self.ratings.sort(key=lambda r: r["rating_id"])
        return {
            "members": self.members, "accounts": [account], "payment_methods": methods,
            "categories": self.categories, "listings": self.listings, "offers": self.offers,
            "orders": self.orders, "ratings": self.ratings, "messages": self.messages,
            "gift_cards": self.gift_cards(),
        }


def build_world(w: WorldGen) -> dict[str, list[dict[str, Any]]]:
    return _Builder(w).build()
