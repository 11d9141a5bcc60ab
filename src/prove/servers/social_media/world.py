"""The social media world: one signed-in user's account on a social network and its neighbourhood.

`build_world` creates the user and about seventy other accounts (friends, people who share the
user's interests, local businesses, a couple of spam accounts), who follows whom, three weeks of
posts with hashtags, likes and comments, direct-message conversations, the user's notifications,
blocks, and the reports the user filed.

At the epoch (Monday 2026-03-16 09:00) the user posted 20 minutes ago (still editable) and has
a post scheduled for tomorrow; one private account has not answered the user's follow request
yet; one report from yesterday is still open.

This module also holds the rules the tools share with the world (the edit window, when follow
requests are answered and reports reviewed) and the phrase banks.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, datetime, timedelta
from typing import Any

from prove.env import WorldBuilder, WorldGen
from prove.env.values import iso

# ----- rules shared with the tools ----------------------------------------------------------------

EDIT_WINDOW_MINUTES = 60        # a published post can be edited this long after it was posted
REQUEST_ANSWER_HOURS = 2        # a private account approves a follow request this long after it
REPORT_REVIEW_HOURS = 24        # moderators review a report this long after it is filed
DUPLICATE_WINDOW_HOURS = 24     # the same text cannot be posted twice within this
MAX_POST_LENGTH = 280
HISTORY_DAYS = 21

HASHTAG = re.compile(r"#(\w{1,50})")


def hashtags_of(text: str) -> list[str]:
    """The hashtags in a text, lower-case, without '#', in order, each once."""
    return list(dict.fromkeys(tag.lower() for tag in HASHTAG.findall(text)))


# ----- phrase banks ---------------------------------------------------------------------------------

DISHES = ("shakshuka", "pad thai", "mushroom risotto", "chicken tikka masala", "ramen", "lasagna", "pho",
          "black bean tacos", "gnocchi", "dumplings")
BOOKS = ("Tomorrow, and Tomorrow, and Tomorrow", "The Overstory", "Piranesi", "Project Hail Mary",
         "Klara and the Sun", "The Midnight Library", "Circe", "Educated", "The Remains of the Day", "Pachinko")
DESTINATIONS = ("Lisbon", "Kyoto", "Mexico City", "Reykjavik", "Cape Town", "Edinburgh", "Oaxaca", "Seoul",
                "Marrakech", "Vancouver", "Porto", "Hanoi")
PEAKS = ("Mount Tam", "Old Rag", "Mount Si", "Bear Mountain", "Mount Monadnock", "Camelback", "Mount Washington")
BANDS = ("Phoebe Bridgers", "Khruangbin", "The National", "Japanese Breakfast", "Bon Iver", "Big Thief", "Vampire Weekend")
TOOLS = ("Obsidian", "Notion", "a paper notebook", "Logseq", "Apple Notes")
NOTES = ("blueberry", "dark chocolate", "jasmine", "caramel", "citrus", "stone fruit", "brown sugar")

TOPICS: dict[str, tuple[str, ...]] = {
    "running": (
        "Just finished a {n}k run along the river. Legs are toast but worth it. #running #{citytag}",
        "Signed up for the {city} half marathon! Training starts Monday. #running #halfmarathon",
        "New 5k PR this morning: {mm}:{ss}! #running #pr",
        "Rainy {weekday} run and nobody else out there. #running #rainyday",
        "Long run done: {n} miles at an easy pace. Coffee has never tasted better. #running #longrun",
        "Bought new running shoes and my knees already thank me. #running #gear",
        "Hill repeats at dawn. Why do I do this to myself? #running #training",
        "Ran with the {city} Running Club for the first time, such a friendly group. #running #community",
    ),
    "cooking": (
        "Made {dish} from scratch tonight and I'm never buying it again. #homecooking",
        "Sourdough attempt number {n}: finally got an open crumb! #sourdough #baking",
        "What's your go-to weeknight dinner? Mine is {dish}. #cooking",
        "Sunday meal prep: {dish} for days. #mealprep #cooking",
        "Tried a new recipe for {dish}. Needs more garlic. Everything needs more garlic. #cooking",
        "Hosted six friends for dinner and nothing burned. Calling it a win. #cooking #dinnerparty",
        "Farmers market haul: ramps, radishes and way too many strawberries. #farmersmarket #cooking",
        "Finally bought a cast iron pan. Everything tastes better already. #cooking #castiron",
    ),
    "photography": (
        "Golden hour in {city} never disappoints. #photography #{citytag}",
        "Shot my first roll of film in years. Developing tomorrow! #filmphotography",
        "Blue hour over the {city} skyline. #cityscape #photography",
        "Street photography walk this {weekday}. {n} keepers out of 300 shots. #streetphotography",
        "Fog rolled in over the harbor this morning and I had my camera for once. #photography #fog",
        "New lens day! Testing it on everything in the apartment. #photography #gear",
        "Printed my favorite shots from last year for the hallway wall. #photography #prints",
        "Portrait session with my neighbor's dog, who was a total pro. #photography #dogsofinstagram",
    ),
    "books": (
        "Just finished {book}. Still thinking about that ending. #books #amreading",
        "Currently reading {book}, {n}0 pages in and hooked. #amreading",
        "Book club pick for next month is {book}. Who's in? #bookclub",
        "Library haul: {n} books I will definitely not finish in three weeks. #books",
        "Reread {book} on the train and it's even better the second time. #books #reread",
        "Which book do you recommend to everyone? Asking for my to-read pile. #books #recommendations",
        "Stayed up way too late finishing {book}. Worth it. #amreading",
        "Our little free library on the corner got restocked today. #books #community",
    ),
    "tech": (
        "Shipped a feature today that's been on the roadmap for {n} months. #buildinpublic",
        "Hot take: most meetings could be a well-written doc. #productivity",
        "Spent the afternoon debugging a timezone issue. It's always timezones. #programming",
        "Trying out {tool} for notes this week. First impressions are good. #productivity #tech",
        "Reminder to back up your laptop. Ask me how I know. #tech",
        "Our team finally launched the thing we've been building since January. #buildinpublic",
        "Mechanical keyboard number {n}. I have a problem. #tech #keyboards",
        "Deleted {n}00 lines of dead code today. Best feeling. #programming",
    ),
    "travel": (
        "Landed in {dest}! First stop: coffee. #travel",
        "Throwback to {dest} last spring. Can't wait to go back. #travel #wanderlust",
        "Any tips for a week in {dest} with only a carry-on? #travel",
        "Booked flights to {dest} for May! #travel",
        "Airport delays, but the people watching is top tier. #travel",
        "Night train across the mountains was the highlight of the whole trip. #travel #trains",
        "Street food tour in {dest} and I need a nap now. #travel #foodie",
        "Packed, unpacked and repacked. Leaving for {dest} tomorrow. #travel",
    ),
    "gardening": (
        "The seedlings are finally up! #gardening #spring",
        "First tulips of the season just bloomed. #gardening #spring",
        "Built a raised bed this weekend. Back hurts, heart is full. #gardening #diy",
        "Anyone know why my basil keeps wilting? #gardening",
        "Harvested the first radishes of the year, tiny but mine. #gardening #growyourown",
        "Compost bin is finally working, it only took three tries. #gardening #compost",
        "The tomatoes survived the cold snap! #gardening",
        "Planted a row of sunflowers along the fence today. #gardening #sunflowers",
    ),
    "music": (
        "Caught {band} live last night. What a show. #livemusic",
        "On repeat this week: {band}. #music #nowplaying",
        "Finally learned a full song on guitar after {n} months. #guitar #music",
        "Vinyl haul from the record store downtown. #vinyl #music",
        "Made a playlist for the commute and it's all {band}. #music #playlist",
        "First open mic night in {city} tonight, wish me luck. #music #openmic",
        "Piano practice every morning this month, {n} days in a row so far. #piano #music",
        "Tickets for {band} in the fall, bought within two minutes of the sale. #livemusic",
    ),
    "coffee": (
        "New single origin beans: notes of {note} and {note2}. #coffee",
        "Found the best flat white in {city} and I'm not telling anyone where. #coffee #{citytag}",
        "Pour-over mornings are the best mornings. #coffee #slowliving",
        "Dialed in my espresso grind after a week of sad shots. #coffee #espresso",
        "Visited a roastery outside {city} today and came home with three bags. #coffee",
        "Cold brew season has officially started in my kitchen. #coffee #coldbrew",
        "Latte art attempt number {n}: it's almost a heart. #coffee #latteart",
    ),
    "hiking": (
        "Summited {peak} this morning. {n} miles and a lot of switchbacks. #hiking",
        "Trail was muddy but the views from {peak} made up for it. #hiking #outdoors",
        "First overnight backpacking trip of the year is booked. #backpacking #hiking",
        "Spotted a family of deer on the trail this morning. #hiking #wildlife",
        "New boots, {n} miles in, zero blisters. A miracle. #hiking #gear",
        "Sunrise hike up {peak}, totally worth the 4am alarm. #hiking #sunrise",
        "Trail cleanup day with friends, two bags of trash collected. #hiking #leavenotrace",
    ),
}
# Posts of friends that mention the user.
MENTIONS = (
    "Great catching up with @{me} this weekend! #friends",
    "Coffee with @{me} this morning, long overdue. #goodtimes",
    "Thanks @{me} for the book recommendation, couldn't put it down. #books",
    "Ran into @{me} at the farmers market today! #weekend",
    "Dinner with @{me} last night was exactly what I needed. #friends",
    "Happy birthday @{me}! Hope it's a great one. #birthday",
)
BIOS = {
    "running": "Runner. {city} streets at 6am.", "cooking": "Home cook, amateur baker.",
    "photography": "Photos of light and cities.", "books": "Always reading something.",
    "tech": "Software, coffee and opinions.", "travel": "Collecting stamps and stories.",
    "gardening": "Growing things on a small balcony.", "music": "Live music and vinyl.",
    "coffee": "Espresso enthusiast.", "hiking": "Weekends on the trail.",
}
BUSINESSES = (  # (name, interest, its posts: news, each said once)
    ("{city} Running Club", "running", (
        "Group run Saturday at 8am from the park fountain. All paces welcome! #running #{citytag}",
        "Track night is back: Tuesdays at 6pm, bring a friend. #running #{citytag}",
        "Sign-ups for the spring 10K are open now. #running #{citytag}",
        "Thanks to everyone who came out in the rain this weekend! #running #{citytag}")),
    ("{word} Coffee Roasters", "coffee", (
        "Our spring blend is here: bright, floral and a little bit jammy. #coffee #{citytag}",
        "Cupping class this Sunday at 10am, a few seats left. #coffee #{citytag}",
        "New single origin from Ethiopia on the shelf today. #coffee #{citytag}",
        "Our second cafe opens next month. Stay tuned! #coffee #{citytag}")),
    ("{city} Public Library", "books", (
        "Author talk this Thursday at 6pm. Free and open to all. #books #{citytag}",
        "Spring reading challenge starts Monday: pick up a log at the front desk. #books #{citytag}",
        "Used book sale this weekend, everything $1. #books #{citytag}",
        "Story time for kids moves to Saturdays at 11am. #books #{citytag}")),
    ("{word} Outdoor Co.", "hiking", (
        "Trail conditions update: upper loops still icy, bring spikes. #hiking",
        "Rental gear is 20% off through Sunday. #hiking",
        "Guided sunrise hike this Saturday, meet at the trailhead at 6am. #hiking",
        "Trail conditions update: the lower loops are clear and dry. #hiking")),
    ("{city} Botanical Garden", "gardening", (
        "The cherry trees are starting to bloom! #gardening #spring",
        "Spring plant sale this weekend, members shop first on Friday. #gardening #spring",
        "The tulip beds are in full color this week. #gardening #spring",
        "Free garden tours every Sunday at 2pm. #gardening #spring")),
)
# A business's handle where its whole name is too long for one: "losangelesrunning", "bluebottlecoffee".
BUSINESS_HANDLES = {"{city} Running Club": "{city}running", "{word} Coffee Roasters": "{word}coffee",
                    "{city} Public Library": "{city}library", "{word} Outdoor Co.": "{word}outdoor",
                    "{city} Botanical Garden": "{city}garden"}
SPAM = (
    ("free_giftcards_4u", "Gift Card Giveaways", "Giveaway! The first 100 people to DM us get a $500 gift card. "
     "Link in bio! #giveaway #free"),
    ("crypto.profits.daily", "Crypto Profits Daily", "Turn $100 into $10,000 in a week with this one trick. "
     "DM me now! #crypto #invest"),
)
COMMENTS = ("Love this!", "So jealous right now.", "Where is this?", "Congrats!!", "Great shot.",
            "Adding this to my list.", "Same here.", "Need the recipe!", "This is the way.", "How long did that take?",
            "Totally agree.", "Beautiful.", "Let's go together next time!", "Ha, relatable.", "You make it look easy.")
REPLIES = ("Thank you!", "Right?!", "Will send it to you.", "Definitely, let's plan it.", "Haha, for sure.")
DM_THREADS = (
    ("Hey! Are you going to the run club on Saturday?", "Yes! Wouldn't miss it.", "Great, see you at 8."),
    ("Loved your last post. Where was that?", "Thanks! It's a little spot near the waterfront.",
     "Adding it to my list."),
    ("Do you still have that book I lent you?", "Yes, sorry! I'll bring it next week."),
    ("Happy birthday!!", "Thank you so much!"),
    ("Are you free for coffee this week?", "Thursday works for me.", "Thursday it is."),
    ("Can you send me the recipe from your post?", "Sure, I'll DM it tonight."),
    ("Did you see the sunset last night?", "I did! The whole sky was orange."),
    ("Which camera do you shoot with?", "Just my phone, honestly.", "No way, your photos are great."),
    ("Are we still on for the farmers market?", "Yes, meet at the entrance at 10?", "Perfect."),
    ("Congrats on the new job!", "Thanks! I start on Monday."),
    ("Can I share your photo in my story?", "Of course, go ahead."),
    ("Thanks for the book tip, I loved it.", "So glad! The sequel is even better."),
)
HANDLE_WORDS = {"running": "runs", "cooking": "cooks", "photography": "photo", "books": "reads", "tech": "dev",
                "travel": "travels", "gardening": "grows", "music": "music", "coffee": "coffee", "hiking": "hikes"}
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

TABLES = ("accounts", "follows", "follow_requests", "blocks", "posts", "hashtags", "post_hashtags", "likes",
          "comments", "messages", "reports", "notifications")


def build_world(w: WorldGen) -> dict[str, list[dict[str, Any]]]:
    """Build the social media world of `w.seed`: {table: rows}, in insertion order."""
    return _Builder(w).build()


class _Builder(WorldBuilder):
    def __init__(self, w: WorldGen) -> None:
        super().__init__(w, TABLES)
        self.handles: set[str] = set()
        self.interest: dict[str, list[str]] = {}
        self.follows: set[tuple[str, str]] = set()

    def build(self) -> dict[str, list[dict[str, Any]]]:
        self._accounts()
        self._graph()
        self._posts()
        self._engagement()
        self._messages()
        self._reports()
        self._notifications()
        self.rows["hashtags"] = [{"tag": t} for t in sorted({r["tag"] for r in self.rows["post_hashtags"]})]
        return self.rows

    # ----- accounts ------------------------------------------------------------------------------------

    def _handle(self, *bases: str) -> str:
        """The first of `bases` short enough for a handle (20 characters), kept whole: a handle cut
        short ("losangelesrunningclu") reads as a typo."""
        fits = [b for b in (re.sub(r"[^a-z0-9_.]", "", b.lower()) for b in bases) if 0 < len(b) <= 20]
        base = fits[0] if fits else "user"
        handle, n = base, 1
        while handle in self.handles:
            n += 1
            handle = f"{base}{n}"
        self.handles.add(handle)
        return handle

    def _account(self, handle: str, name: str, bio: str | None, location: str | None, *, private: int = 0,
                 verified: int = 0, dm_policy: str = "everyone", outside: int = 0, answers: int = 1,
                 is_me: int = 0, interests: list[str] | None = None) -> dict[str, Any]:
        row = {"account_id": self.w.new_id("USR"), "handle": handle, "display_name": name, "bio": bio,
               "location": location,
               "joined_on": self.fake.date_between(date(2012, 1, 1), date(2025, 12, 31)).isoformat(),
               "is_private": private, "verified": verified, "dm_policy": dm_policy, "outside_followers": outside,
               "answers_requests": answers, "is_me": is_me}
        self.rows["accounts"].append(row)
        self.interest[row["account_id"]] = interests or []
        return row

    def _person_handle(self, person: Any, interest: str) -> str:
        first, last = person.first.lower(), person.last.lower().replace("'", "")
        style = self.rng.randrange(4)
        base = (f"{first}.{last}", f"{first}{last[0]}_{HANDLE_WORDS[interest]}", f"{first}_{last}",
                f"{last}{first[0]}")[style]
        return self._handle(base, f"{last}{first[0]}")

    def _accounts(self) -> None:
        rng, fake = self.rng, self.fake
        self.city = fake.city("US")
        self.citytag = self.city.name.lower().replace(" ", "")
        kinds = list(TOPICS)
        people = fake.people(rng.randint(58, 66))
        mine = rng.sample(kinds, 3)
        me = people[0]
        self.me = self._account(self._person_handle(me, mine[0]), me.name,
                                f"{BIOS[mine[0]].format(city=self.city.name)} {BIOS[mine[1]]}",
                                f"{self.city.name}, {self.city.region}", outside=rng.randint(40, 260),
                                is_me=1, interests=mine)
        self.people = []
        for i, person in enumerate(people[1:]):
            interests = rng.sample(kinds, 2) if rng.random() < 0.6 else [rng.choice(mine), rng.choice(kinds)]
            local = rng.random() < 0.6
            city = self.city if local else fake.city()
            private = int(rng.random() < 0.15)
            row = self._account(
                self._person_handle(person, interests[0]), person.name,
                BIOS[interests[0]].format(city=city.name) if rng.random() < 0.8 else None,
                f"{city.name}, {city.region}" if rng.random() < 0.85 else None,
                private=private, verified=int(rng.random() < 0.04),
                dm_policy="following" if rng.random() < 0.3 else "everyone",
                outside=rng.randint(5, 900), answers=int(not private or rng.random() < 0.75),
                interests=list(dict.fromkeys(interests)))
            self.people.append(row)
        self.businesses = []
        for name, interest, _ in BUSINESSES:
            word = rng.choice(("Blue Bottle", "Ridgeline", "Northside", "Copperline", "Harborview"))
            full = name.format(city=self.city.name, word=word)
            short = BUSINESS_HANDLES[name].format(city=self.city.name, word=word).replace(" ", "")
            row = self._account(self._handle(full.replace(" ", "").replace(".", ""), short), full,
                                f"{full}. Based in {self.city.name}.", f"{self.city.name}, {self.city.region}",
                                verified=int(rng.random() < 0.5), outside=rng.randint(800, 15000),
                                interests=[interest])
            self.businesses.append(row)
        self.spam = []
        for handle, name, _ in SPAM:
            self.spam.append(self._account(self._handle(handle), name, "DM for offers!", None,
                                           outside=rng.randint(10, 90), interests=["spam"]))
        # Guarantees every world has, so the common flows exist: a private account that answers
        # requests and that the user does not follow, and one that never answers.
        privates = [p for p in self.people if p["is_private"]]
        while len(privates) < 3:
            extra = rng.choice([p for p in self.people if not p["is_private"]])
            extra["is_private"] = 1
            privates.append(extra)
        privates[0]["answers_requests"] = 1
        privates[1]["answers_requests"] = 1
        privates[2]["answers_requests"] = 0
        self.open_private, self.pending_private, self.silent_private = privates[0], privates[1], privates[2]

    # ----- who follows whom ---------------------------------------------------------------------------

    def _follow(self, a: dict, b: dict, when: datetime | None = None) -> None:
        key = (a["account_id"], b["account_id"])
        if a is b or key in self.follows:
            return
        self.follows.add(key)
        when = when or self.fake.datetime_between(datetime(2023, 1, 1), self.now - timedelta(days=1), 60)
        self.rows["follows"].append({"follower_id": key[0], "followee_id": key[1], "created_at": iso(when)})

    def _graph(self) -> None:
        rng = self.rng
        me = self.me
        shared = [p for p in self.people if set(self.interest[p["account_id"]]) & set(self.interest[me["account_id"]])]
        others = [p for p in self.people if p not in shared]
        closed = {self.open_private["account_id"], self.pending_private["account_id"],
                  self.silent_private["account_id"]}
        self.blocked_by_me = rng.sample([p for p in others if p["account_id"] not in closed], 2)
        self.blocks_me = rng.choice([p for p in others if p not in self.blocked_by_me
                                     and p["account_id"] not in closed])
        banned = {p["account_id"] for p in (*self.blocked_by_me, self.blocks_me)}
        for p in self.people:
            if p["account_id"] in banned or p["account_id"] in closed:
                continue
            if p in shared and rng.random() < 0.7 or rng.random() < 0.25:
                self._follow(me, p)
            if p in shared and rng.random() < 0.75 or rng.random() < 0.3:
                self._follow(p, me)
        for b in self.businesses:
            if rng.random() < 0.7:
                self._follow(me, b)
        # Recent followers, for notifications.
        recent = [p for p in self.people if p["account_id"] not in banned and p["account_id"] not in closed
                  and (p["account_id"], me["account_id"]) not in self.follows]
        for p in rng.sample(recent, min(4, len(recent))):
            self._follow(p, me, self.now - timedelta(hours=rng.randint(2, 240)))
        for p in self.people:  # the user's neighbourhood follows one another too
            for q in rng.sample(self.people + self.businesses, rng.randint(2, 7)):
                self._follow(p, q)
        for b in self.blocked_by_me:
            self.rows["blocks"].append({"blocker_id": me["account_id"], "blocked_id": b["account_id"],
                                        "created_at": iso(self.fake.datetime_between(datetime(2025, 6, 1),
                                                                                     datetime(2026, 3, 1), 60))})
        self.rows["blocks"].append({"blocker_id": self.blocks_me["account_id"], "blocked_id": me["account_id"],
                                    "created_at": "2025-11-02T21:14:00"})
        # Blocks cut follows both ways.
        pairs = {(r["blocker_id"], r["blocked_id"]) for r in self.rows["blocks"]}
        self.rows["follows"] = [f for f in self.rows["follows"]
                                if (f["follower_id"], f["followee_id"]) not in pairs
                                and (f["followee_id"], f["follower_id"]) not in pairs]
        self.follows = {(f["follower_id"], f["followee_id"]) for f in self.rows["follows"]}
        # The user asked to follow a private account this morning; it has not answered yet.
        self.rows["follow_requests"].append({"requester_id": me["account_id"],
                                             "target_id": self.pending_private["account_id"],
                                             "created_at": "2026-03-16T08:15:00"})
        # A closed DM inbox the user cannot write to: it does not follow the user.
        for p in self.people:
            if p["dm_policy"] == "following" and (p["account_id"], me["account_id"]) not in self.follows \
                    and p["account_id"] not in banned:
                break
        else:
            candidate = next(p for p in self.people if (p["account_id"], me["account_id"]) not in self.follows
                             and p["account_id"] not in banned)
            candidate["dm_policy"] = "following"

    # ----- posts --------------------------------------------------------------------------------------

    def _text(self, interest: str) -> tuple[str, str]:
        """A post on `interest`: the template drawn and its text."""
        rng = self.rng
        template = rng.choice(TOPICS[interest])
        return template, template.format(
            n=rng.randint(3, 12), city=self.city.name, citytag=self.citytag, mm=rng.randint(19, 27),
            ss=f"{rng.randint(0, 59):02d}", weekday=rng.choice(WEEKDAYS), dish=rng.choice(DISHES),
            book=rng.choice(BOOKS), tool=rng.choice(TOOLS), dest=rng.choice(DESTINATIONS), band=rng.choice(BANDS),
            peak=rng.choice(PEAKS), note=NOTES[rng.randrange(4)], note2=NOTES[4 + rng.randrange(3)])

    def _unworn(self, interests: list[str], posted: Counter[str], opened: set[str]) -> str | None:
        """A text on one of `interests` whose words no other account has posted, not even with other
        numbers or places in them (people do not post each other's words: five posts 'Shipped a
        feature today that's been on the roadmap for N months.' read as one copied), and that does
        not open like one of this account's own (`opened`: one is told from another by its opening),
        or None where every draw is taken."""
        for _ in range(12):
            template, text = self._text(self.rng.choice(interests))
            opening = " ".join(text.split()[:5])
            if not posted[template] and opening not in opened:
                posted[template] += 1
                opened.add(opening)
                return text
        return None

    def _own_text(self, interests: list[str], said: set[str], posted: Counter[str]) -> str:
        """A text of the user's in words no other post of theirs says (they tell their posts apart by
        them; 'Booked flights to Lisbon for May!' and 'Booked flights to Seoul for May!' read as one
        said twice): on one of `interests`, or, where those are said already, on any of the user's."""
        for tries in range(40):
            template, text = self._text(self.rng.choice(interests if tries < 20 else self.interest[self.me["account_id"]]))
            if template not in said:
                break
        said.add(template)
        posted[template] += 1
        return text

    def _post(self, author: dict, text: str, when: datetime, *, visibility: str = "public",
              reply_policy: str = "everyone", status: str = "published", violates: int = 0) -> dict[str, Any]:
        row = {"post_id": self.w.new_id("PST"), "author_id": author["account_id"], "text": text,
               "visibility": visibility, "reply_policy": reply_policy, "status": status, "created_at": iso(when),
               "edited_at": None, "violates": violates}
        self.rows["posts"].append(row)
        for tag in hashtags_of(text):
            self.rows["post_hashtags"].append({"post_id": row["post_id"], "tag": tag})
        return row

    def _when(self, days: int = HISTORY_DAYS) -> datetime:
        start = self.now - timedelta(days=days)
        while True:
            t = self.fake.datetime_between(start, self.now - timedelta(minutes=30), 7)
            if 7 <= t.hour <= 22:
                return t

    def _posts(self) -> None:
        rng = self.rng
        entries: list[tuple[datetime, dict, str, dict]] = []
        posted: Counter[str] = Counter()
        me = self.me
        mine = self.interest[me["account_id"]]
        said: set[str] = set()  # the user's words are drawn first: others' posts leave them theirs
        own = [self._own_text(mine, said, posted) for _ in range(rng.randint(7, 11))]
        fresh, scheduled, deleted = (self._own_text(mine[i:i + 1], said, posted) for i in range(3))
        planned = {p["account_id"]: rng.randint(1, 6) for p in self.people}
        opened: dict[str, set[str]] = {p["account_id"]: set() for p in self.people}
        for round_ in range(max(planned.values(), default=0)):  # a round each: the first drawn take no one's words
            for p in self.people:
                if planned[p["account_id"]] <= round_:
                    continue
                options = {"visibility": "followers" if rng.random() < 0.12 else "public",
                           "reply_policy": "following" if rng.random() < 0.12 else "everyone"}
                text = self._unworn(self.interest[p["account_id"]], posted, opened[p["account_id"]])
                if text is not None:
                    entries.append((self._when(), p, text, options))
        for p in self.people:
            if rng.random() < 0.12:  # a few mention the user
                text = rng.choice(MENTIONS).format(me=self.me["handle"])
                if not posted[text]:
                    posted[text] += 1
                    entries.append((self._when(10), p, text, {}))
        for b, (_, _, texts) in zip(self.businesses, BUSINESSES):
            for text in texts[:rng.randint(2, 4)]:
                entries.append((self._when(), b, text.format(citytag=self.citytag), {}))
        for s, (_, _, text) in zip(self.spam, SPAM):
            days: set[date] = set()  # once a day: a person tells the copies apart by their day
            for _ in range(rng.randint(2, 3)):
                when = self._when(7)
                if when.date() not in days:
                    days.add(when.date())
                    entries.append((when, s, text, {"violates": 1}))
        entries.sort(key=lambda e: e[0])
        for when, author, text, options in entries:
            self._post(author, text, when, **options)
        for text in own:
            self._post(me, text, self._when(), visibility="followers" if rng.random() < 0.15 else "public")
        # Posted twenty minutes ago, so still editable; and one scheduled for tomorrow.
        self.fresh = self._post(me, fresh, self.now - timedelta(minutes=20))
        self._post(me, scheduled, datetime(2026, 3, 17, 8, 0), status="scheduled")
        # An older post the user deleted.
        self._post(me, deleted, self._when(), status="deleted")
        # Every world has a public post whose author takes comments only from accounts they follow,
        # and does not follow the user.
        banned = {self.blocks_me["account_id"], *(b["account_id"] for b in self.blocked_by_me)}
        strangers = {p["account_id"] for p in self.people if not p["is_private"] and p["account_id"] not in banned
                     and (p["account_id"], me["account_id"]) not in self.follows}
        candidates = [p for p in self.rows["posts"] if p["author_id"] in strangers and p["visibility"] == "public"]
        if not any(p["reply_policy"] == "following" for p in candidates):
            rng.choice(candidates)["reply_policy"] = "following"

    def _engagement(self) -> None:
        rng = self.rng
        me = self.me["account_id"]
        everyone = self.people + self.businesses
        ids = {a["account_id"]: a for a in self.rows["accounts"]}
        blocked = {(b["blocker_id"], b["blocked_id"]) for b in self.rows["blocks"]}
        for post in self.rows["posts"]:
            if post["status"] != "published":
                continue
            author = post["author_id"]
            created = datetime.fromisoformat(post["created_at"])
            is_mine = author == me
            if author in {s["account_id"] for s in self.spam}:
                continue
            n_likes = rng.randint(2, 9) if is_mine else rng.choice((0, 0, 1, 1, 2, 3, 4, 6))
            likers = [a for a in rng.sample(everyone, min(len(everyone), n_likes + 2))
                      if a["account_id"] != author and (author, a["account_id"]) not in blocked
                      and (a["account_id"], author) not in blocked][:n_likes]
            if not is_mine and (me, author) in self.follows and rng.random() < 0.25:
                likers.append(self.me)
            room = max(1, min(600, int((self.now - created).total_seconds() // 60) - 1))
            for a in likers:
                at = created + timedelta(minutes=rng.randint(1, room))
                self.rows["likes"].append({"post_id": post["post_id"], "account_id": a["account_id"],
                                           "created_at": iso(at)})
            n_comments = rng.randint(1, 4) if is_mine else (rng.randint(1, 3) if rng.random() < 0.25 else 0)
            for _ in range(n_comments):
                commenter = rng.choice(everyone)
                if commenter["account_id"] == author or (author, commenter["account_id"]) in blocked \
                        or (commenter["account_id"], author) in blocked:
                    continue
                if ids[author]["is_private"] and (commenter["account_id"], author) not in self.follows:
                    continue
                at = created + timedelta(minutes=rng.randint(1, max(1, min(900, room))))
                comment = {"comment_id": self.w.new_id("CMT"), "post_id": post["post_id"],
                           "author_id": commenter["account_id"], "parent_id": None, "text": rng.choice(COMMENTS),
                           "created_at": iso(at), "status": "visible"}
                self.rows["comments"].append(comment)
                if rng.random() < 0.35 and at + timedelta(minutes=30) < self.now:
                    self.rows["comments"].append({
                        "comment_id": self.w.new_id("CMT"), "post_id": post["post_id"], "author_id": author,
                        "parent_id": comment["comment_id"], "text": rng.choice(REPLIES),
                        "created_at": iso(at + timedelta(minutes=rng.randint(10, 30))), "status": "visible"})
        # The user commented on a few posts of people they follow.
        followed = [p for p in self.rows["posts"] if (me, p["author_id"]) in self.follows and p["status"] == "published"]
        for post in rng.sample(followed, min(5, len(followed))):
            at = min(datetime.fromisoformat(post["created_at"]) + timedelta(minutes=rng.randint(10, 300)),
                     self.now - timedelta(minutes=5))
            self.rows["comments"].append({"comment_id": self.w.new_id("CMT"), "post_id": post["post_id"],
                                          "author_id": me, "parent_id": None, "text": rng.choice(COMMENTS),
                                          "created_at": iso(at), "status": "visible"})

    def _messages(self) -> None:
        rng = self.rng
        me = self.me["account_id"]
        friends = [p for p in self.people if (me, p["account_id"]) in self.follows
                   and (p["account_id"], me) in self.follows]
        for friend, thread in zip(rng.sample(friends, min(len(friends), rng.randint(5, 8))),
                                  rng.sample(DM_THREADS, 8)):  # one conversation per person
            at = self._when(14)
            first_from_me = rng.random() < 0.4
            for i, text in enumerate(thread):
                from_me = (i % 2 == 0) == first_from_me
                self.rows["messages"].append({
                    "message_id": self.w.new_id("DM"), "sender_id": me if from_me else friend["account_id"],
                    "recipient_id": friend["account_id"] if from_me else me, "text": text, "sent_at": iso(at)})
                at = min(at + timedelta(minutes=rng.randint(2, 180)), self.now - timedelta(minutes=1))

    def _reports(self) -> None:
        spam_posts = [p for p in self.rows["posts"] if p["violates"]]
        first, second = spam_posts[0], spam_posts[1]
        # A week ago, reviewed and taken down; yesterday, still open (reviewed in 24 hours).
        first["status"] = "removed"
        self.rows["reports"].append({"report_id": self.w.new_id("RPT"), "post_id": first["post_id"], "reason": "spam",
                                     "details": None, "status": "action_taken", "created_at": "2026-03-09T19:40:00",
                                     "resolved_at": "2026-03-10T19:40:00"})
        self.rows["reports"].append({"report_id": self.w.new_id("RPT"), "post_id": second["post_id"],
                                     "reason": "spam", "details": "Scam giveaway asking for DMs.", "status": "open",
                                     "created_at": "2026-03-15T20:05:00", "resolved_at": None})

    def _notifications(self) -> None:
        me = self.me["account_id"]
        items: list[dict[str, Any]] = []

        def note(kind: str, at: str, actor: str | None = None, post: str | None = None,
                 comment: str | None = None, report: str | None = None) -> None:
            items.append({"kind": kind, "actor_id": actor, "post_id": post, "comment_id": comment,
                          "report_id": report, "created_at": at})

        horizon = iso(self.now - timedelta(days=14))
        mine = {p["post_id"] for p in self.rows["posts"] if p["author_id"] == me}
        for like in self.rows["likes"]:
            if like["post_id"] in mine and like["created_at"] >= horizon:
                note("like", like["created_at"], like["account_id"], like["post_id"])
        comments = {c["comment_id"]: c for c in self.rows["comments"]}
        for c in self.rows["comments"]:
            if c["author_id"] == me or c["created_at"] < horizon:
                continue
            if c["parent_id"] and comments[c["parent_id"]]["author_id"] == me:
                note("reply", c["created_at"], c["author_id"], c["post_id"], c["comment_id"])
            elif c["post_id"] in mine and not c["parent_id"]:
                note("comment", c["created_at"], c["author_id"], c["post_id"], c["comment_id"])
        for f in self.rows["follows"]:
            if f["followee_id"] == me and f["created_at"] >= horizon:
                note("follow", f["created_at"], f["follower_id"])
        for p in self.rows["posts"]:
            if f"@{self.me['handle']}" in p["text"] and p["created_at"] >= horizon:
                note("mention", p["created_at"], p["author_id"], p["post_id"])
        for m in self.rows["messages"]:
            if m["recipient_id"] == me and m["sent_at"] >= horizon:
                note("message", m["sent_at"], m["sender_id"])
        done = self.rows["reports"][0]
        note("report_update", done["resolved_at"], None, done["post_id"], None, done["report_id"])
        items.sort(key=lambda n: (n["created_at"], n["kind"]))
        unread_from = iso(self.now - timedelta(hours=36))
        for item in items:
            self.rows["notifications"].append({"notification_id": self.w.new_id("NTF"), **item,
                                               "is_read": int(item["created_at"] < unread_from)})
