"""The CRM world: a B2B software company's sales CRM, used by one signed-in account executive.

`build_world` creates the sales team (the user, their manager, other account executives, SDRs,
a sales engineer and one rep who has left), about 55 accounts with 2-5 contacts each, about 100
deals across the pipeline with their stage history, about 70 leads (some in the unassigned
queue, some converted), a few hundred logged calls, e-mails, meetings and tasks (some overdue)
and notes.

The user owns a share of everything and has deals in every stage, a won and a lost deal to
reopen, overdue tasks, leads to work and contacts who asked not to be contacted. The epoch is
Monday 2026-03-16 09:00, two weeks before the quarter ends. Everything random comes from
`w.rng` and `w.fake`.

This module also holds the vocabulary the tools share with the world (stages, sources).
"""

from __future__ import annotations

import math
from datetime import date, datetime, time, timedelta
from typing import Any

from prove.env import WorldBuilder, WorldGen
from prove.env.values import iso

# ----- vocabulary shared with the tools -----------------------------------------------------------

OPEN_STAGES = ("prospecting", "qualification", "proposal", "negotiation")
CLOSED_STAGES = ("closed_won", "closed_lost")
STAGES = OPEN_STAGES + CLOSED_STAGES
PROBABILITY = {"prospecting": 10, "qualification": 25, "proposal": 50, "negotiation": 75,
               "closed_won": 100, "closed_lost": 0}
LEAD_SOURCES = ("website", "referral", "trade_show", "webinar", "cold_outreach", "partner")
INDUSTRIES = ("Software", "Healthcare", "Financial Services", "Retail", "Manufacturing", "Logistics",
              "Education", "Media", "Energy", "Hospitality", "Real Estate", "Nonprofit")
QUARTER_START = date(2026, 1, 1)
QUARTER_END = date(2026, 3, 31)

# ----- catalogues ---------------------------------------------------------------------------------

SELLERS = ("Lumen Analytics", "Brightwave Software", "Northstar Data", "Parallax Cloud", "Fieldnote Systems",
           "Quillstack")
PRODUCTS = ("Analytics Cloud", "Data Connectors", "Enterprise Platform", "Premium Support", "Security Pack",
            "Team Plan", "Embedded Dashboards")
DEAL_KINDS = ("new business", "expansion", "renewal", "pilot")
TEAMS = ("Mid-Market East", "Mid-Market West", "Enterprise", "SMB")
INDUSTRY_SUFFIX = {
    "Software": ("Labs", "Systems", "Software", "Cloud"), "Healthcare": ("Health", "Medical", "Clinics"),
    "Financial Services": ("Capital", "Financial", "Bank", "Partners"), "Retail": ("Goods", "Outfitters", "Market"),
    "Manufacturing": ("Works", "Industries", "Manufacturing"), "Logistics": ("Logistics", "Freight", "Shipping"),
    "Education": ("Academy", "Learning", "University"), "Media": ("Media", "Studios", "Publishing"),
    "Energy": ("Energy", "Power", "Renewables"), "Hospitality": ("Hotels", "Hospitality", "Resorts"),
    "Real Estate": ("Properties", "Realty", "Development"), "Nonprofit": ("Foundation", "Alliance", "Trust"),
}
NAME_WORDS = (
    "Apex", "Blue Harbor", "Bright", "Cascade", "Cedar", "Summit", "Northwind", "Evergreen", "Granite", "Horizon",
    "Ironwood", "Juniper", "Keystone", "Lighthouse", "Meridian", "Nimbus", "Orbit", "Pioneer", "Quantum", "Redwood",
    "Silverline", "Tidal", "Vertex", "Willow", "Zenith", "Atlas", "Beacon", "Crescent", "Delta", "Harborview",
    "Lakeshore", "Maple", "Oakridge", "Pinecrest", "Riverbend", "Stonebridge", "Sunrise", "Trailhead", "Westfield",
    "Copperline", "Bluebird", "Foxglove", "Greystone", "Highland", "Ivory", "Kestrel", "Lumina", "Mosaic",
)
TITLES = ("CTO", "VP of Engineering", "Head of Data", "Director of IT", "CFO", "COO", "Procurement Manager",
          "Data Analyst", "Operations Manager", "Director of Finance", "IT Manager", "Chief Data Officer",
          "Analytics Lead", "VP of Operations", "Controller")
LEAD_TITLES = ("Head of Analytics", "IT Director", "Data Engineer", "Operations Director", "Founder", "CTO",
               "VP Finance", "BI Manager", "Product Manager")
NEXT_STEPS = ("Send revised proposal", "Schedule demo with the IT team", "Security review call",
              "Get legal redlines back", "Confirm budget with the CFO", "Pricing call", "Technical deep dive",
              "Intro to the economic buyer", "Send order form")
LOSS_REASONS = ("Chose a competitor", "No budget this year", "Timing - revisit next fiscal year",
                "Built it in-house", "Went dark", "Price too high")
CALLS = ("Discovery call with {first}", "Check-in call with {first}", "Pricing discussion with {first}",
         "Follow-up call: {product}")
EMAILS = ("Sent proposal to {first}", "Follow-up on the demo", "Shared a customer case study with {first}",
          "Sent {product} pricing sheet")
MEETINGS = ("Product demo for {account}", "Technical workshop with {account}", "Executive sponsor meeting",
            "Quarterly business review with {account}")
TASKS = ("Send proposal to {first}", "Follow up with {first} on pricing", "Prepare demo environment for {account}",
         "Book security review with {account}", "Send contract for signature", "Update the mutual action plan",
         "Call {first} back about {product}", "Send recap of the {product} demo")
CALL_OUTCOMES = ("Connected - interested", "Left voicemail", "No answer", "Connected - asked for pricing",
                 "Connected - not now")
EMAIL_OUTCOMES = ("Sent", "Replied", "Replied - wants a call")
MEETING_OUTCOMES = ("Held", "Held - next steps agreed", "Rescheduled")
NOTE_TOPICS = (
    ("Budget", "Budget of about ${k}k approved for {year}; {first} owns it."),
    ("Decision process", "{first} says the decision goes to the {role} after a two-week trial."),
    ("Competition", "Also evaluating {rival}; our edge is the {product} integration."),
    ("Champion", "{first} is our champion and pushes for a decision before quarter end."),
    ("Technical requirements", "Needs SSO, EU data residency and a Snowflake connector."),
    ("Meeting recap", "Walked through {product}; they asked for a pilot with {n} users."),
    ("Renewal risk", "Usage dropped {n}% last quarter; plan a health check with {first}."),
)
RIVALS = ("Tableau", "Looker", "Power BI", "Domo", "Sigma", "Mode")


# The tables in insertion order.
TABLES = ("reps", "accounts", "contacts", "leads", "deals", "deal_stage_history", "activities", "notes")


def build_world(w: WorldGen) -> dict[str, list[dict[str, Any]]]:
    return _Builder(w).build()


class _Builder(WorldBuilder):
    def __init__(self, w: WorldGen) -> None:
        super().__init__(w, TABLES)
        self.seller = self.rng.choice(SELLERS)
        self.domain = self.seller.lower().replace(" ", "") + ".com"
        self.names: set[str] = set()
        self.product_of: dict[str, str] = {}

    def build(self) -> dict[str, list[dict[str, Any]]]:
        self._reps()
        self._accounts()
        self._contacts()
        self._deals()
        self._leads()
        self._activities()
        self._notes()
        return self.rows

    # ----- helpers --------------------------------------------------------------------------------

    def _when(self, start: datetime, end: datetime) -> datetime:
        """A working-hours time between `start` and `end`."""
        if end <= start:
            return start
        t = self.fake.datetime_between(start, end, step_minutes=30)
        if t.weekday() >= 5:
            t -= timedelta(days=t.weekday() - 4)
        t = datetime.combine(t.date(), time(self.rng.randint(8, 17), self.rng.choice((0, 15, 30, 45))))
        return min(max(t, start), end)

    def _company_name(self, industry: str) -> str:
        while True:
            name = f"{self.rng.choice(NAME_WORDS)} {self.rng.choice(INDUSTRY_SUFFIX[industry])}"
            if name not in self.names:
                self.names.add(name)
                return name

    @staticmethod
    def _domain(company: str) -> str:
        return "".join(ch for ch in company.lower() if ch.isalnum()) + ".com"

    # ----- people and companies -------------------------------------------------------------------

    def _reps(self) -> None:
        people = self.fake.people(11)
        team = self.rng.choice(TEAMS)
        roles = [("Account Executive", team, 1), ("Sales Director", team, 0)]
        roles += [("Account Executive", team, 0), ("Account Executive", team, 0), ("Senior Account Executive", team, 0)]
        others = [t for t in TEAMS if t != team]
        roles += [("Account Executive", others[0], 0), ("Enterprise Account Executive", "Enterprise", 0),
                  ("Sales Development Rep", team, 0), ("Sales Development Rep", team, 0),
                  ("Sales Engineer", team, 0), ("Account Executive", team, 0)]
        for i, (person, (title, team_name, me)) in enumerate(zip(people, roles)):
            quota = 0.0 if title in ("Sales Director", "Sales Development Rep", "Sales Engineer") else \
                float(self.rng.choice((350_000, 400_000, 450_000, 500_000, 600_000)))
            self.rows["reps"].append({
                "rep_id": self.w.new_id("REP"), "name": person.name, "email": self.fake.email(person, self.domain),
                "title": title, "team": team_name, "manager_id": None, "quota": quota,
                "active": 0 if i == 10 else 1, "is_me": me})
        manager = self.rows["reps"][1]["rep_id"]
        for rep in self.rows["reps"]:
            if rep["rep_id"] != manager:
                rep["manager_id"] = manager
        self.me = self.rows["reps"][0]
        self.sellers = [r for r in self.rows["reps"] if r["quota"] > 0 and r["active"]]

    def _owner(self, mine: float = 0.35) -> dict[str, Any]:
        if self.rng.random() < mine:
            return self.me
        return self.rng.choice([r for r in self.sellers if r is not self.me])

    def _accounts(self) -> None:
        for i in range(55):
            industry = self.rng.choice(INDUSTRIES)
            name = self._company_name(industry)
            employees = int(math.exp(self.rng.uniform(math.log(25), math.log(25_000))))
            employees = round(employees, -1) if employees < 1000 else round(employees, -2)
            city = self.fake.city()
            while city.country != "US" and self.rng.random() < 0.7:
                city = self.fake.city()          # mostly American customers, some abroad
            owner = self.me if i < 10 else self._owner(0.08)
            self.rows["accounts"].append({
                "account_id": self.w.new_id("ACC"), "name": name, "industry": industry,
                "type": "partner" if i in (5, 30, 47) else "prospect", "website": f"https://www.{self._domain(name)}",
                "phone": self.fake.phone(), "city": city.name, "country": city.country, "employees": employees,
                "annual_revenue": float(round(employees * self.rng.uniform(90_000, 320_000), -5)),
                "owner_id": owner["rep_id"],
                "created_at": iso(self._when(datetime(2024, 1, 8, 9), datetime(2025, 9, 30, 17)))})

    def _contacts(self) -> None:
        self.by_account: dict[str, list[dict[str, Any]]] = {}
        for acc in self.rows["accounts"]:
            n = self.rng.randint(2, 5)
            titles = self.rng.sample(TITLES, n)
            for person, title in zip(self.fake.people(n), titles):
                row = {
                    "contact_id": self.w.new_id("CON"), "account_id": acc["account_id"], "first_name": person.first,
                    "last_name": person.last, "full_name": person.name, "title": title,
                    "email": self.fake.email(person, self._domain(acc["name"])), "phone": self.fake.phone(),
                    "owner_id": acc["owner_id"], "do_not_contact": int(self.rng.random() < 0.05),
                    "created_at": acc["created_at"]}
                self.rows["contacts"].append(row)
                self.by_account.setdefault(acc["account_id"], []).append(row)
        mine = [c for c in self.rows["contacts"] if c["owner_id"] == self.me["rep_id"]]
        mine[3]["do_not_contact"] = 1   # the user has at least one contact who opted out

    # ----- the pipeline ---------------------------------------------------------------------------

    def _amount(self, acc: dict[str, Any]) -> float:
        scale = 6_000 + acc["employees"] ** 0.62 * 700
        return float(round(scale * self.rng.uniform(0.6, 1.6), -2 if scale < 20_000 else -3))

    def _deals(self) -> None:
        # The user's first deals cover every stage, so each kind of transition exists in every world.
        forced = list(STAGES) + ["negotiation", "proposal", "closed_won"]
        for acc in self.rows["accounts"]:
            n = self.rng.choice((0, 1, 1, 2, 2, 3)) if acc["type"] != "partner" else 1
            for _ in range(n):
                owner = acc["owner_id"] if self.rng.random() < 0.9 else self._owner(0.1)["rep_id"]
                if owner == self.me["rep_id"] and forced:
                    stage = forced.pop(0)
                else:
                    stage = self.rng.choices(STAGES, weights=(12, 12, 10, 8, 20, 14))[0]
                self._deal(acc, owner, stage)
        won = {d["account_id"] for d in self.rows["deals"] if d["stage"] == "closed_won"}
        for acc in self.rows["accounts"]:
            if acc["account_id"] in won and acc["type"] == "prospect":
                acc["type"] = "customer"

    def _deal(self, acc: dict[str, Any], owner: str, stage: str) -> None:
        rng = self.rng
        contact = rng.choice(self.by_account[acc["account_id"]])
        kind = rng.choice(DEAL_KINDS)
        product = rng.choice(PRODUCTS)
        latest = self.now - timedelta(days=25) if stage in CLOSED_STAGES else datetime(2026, 3, 6, 17)
        created = self._when(datetime(2025, 6, 2, 9), latest)
        deal_id = self.w.new_id("DEAL")
        self.product_of[deal_id] = product
        path = list(OPEN_STAGES[: OPEN_STAGES.index(stage) + 1]) if stage in OPEN_STAGES else \
            list(OPEN_STAGES[: rng.randint(2, 4)]) + [stage]
        if stage in CLOSED_STAGES:
            closed = self._when(created + timedelta(days=20), min(self.now - timedelta(hours=2),
                                                                   created + timedelta(days=150)))
            close_date = closed.date().isoformat()
            last = closed
        else:
            closed = None
            close_date = (self.today + timedelta(days=rng.randint(-12, 140))).isoformat()
            last = self._when(created, self.now - timedelta(hours=1))
        times = sorted(self._when(created, last) for _ in path[1:])
        stamps = [created] + times
        if closed is not None:
            stamps[-1] = closed
        for seq, (to_stage, at) in enumerate(zip(path, stamps), 1):
            self.rows["deal_stage_history"].append({
                "deal_id": deal_id, "seq": seq, "from_stage": path[seq - 2] if seq > 1 else None,
                "to_stage": to_stage, "changed_at": iso(at), "changed_by": owner})
        self.rows["deals"].append({
            "deal_id": deal_id, "name": f"{acc['name']} - {product} {kind}", "account_id": acc["account_id"],
            "contact_id": contact["contact_id"], "owner_id": owner, "stage": stage, "amount": self._amount(acc),
            "probability": PROBABILITY[stage], "close_date": close_date,
            "next_step": rng.choice(NEXT_STEPS) if stage in OPEN_STAGES else None,
            "loss_reason": rng.choice(LOSS_REASONS) if stage == "closed_lost" else None, "lead_id": None,
            "created_at": iso(created), "updated_at": iso(stamps[-1]), "closed_at": iso(closed) if closed else None})

    # ----- leads ----------------------------------------------------------------------------------

    def _leads(self) -> None:
        rng = self.rng
        statuses = ["new"] * 20 + ["working"] * 18 + ["qualified"] * 10 + ["unqualified"] * 9 + ["converted"] * 9
        rng.shuffle(statuses)
        # The user's own leads include one of each status, so every lead rule can be exercised.
        mine_first = ["new", "working", "qualified", "unqualified", "converted"]
        existing = rng.sample(self.rows["accounts"], 6)
        convertible = [d for d in self.rows["deals"] if d["lead_id"] is None]
        for i, status in enumerate(statuses):
            if i < len(mine_first):
                status, owner = mine_first[i], self.me["rep_id"]
            else:
                r = rng.random()
                owner = None if r < 0.25 and status in ("new", "working") else self._owner(0.15)["rep_id"]
            created = self._when(datetime(2025, 10, 1, 9), self.now - timedelta(hours=3))
            lead_id = self.w.new_id("LEAD")
            row = {"lead_id": lead_id, "status": status, "rating": rng.choice(("hot", "warm", "warm", "cold")),
                   "owner_id": owner, "source": rng.choice(LEAD_SOURCES), "created_at": iso(created),
                   "converted_at": None, "converted_account_id": None, "converted_contact_id": None,
                   "converted_deal_id": None, "phone": self.fake.phone(), "title": rng.choice(LEAD_TITLES)}
            if status == "converted" and convertible:
                deal = convertible.pop(rng.randrange(len(convertible)))
                contact = next(c for c in self.rows["contacts"] if c["contact_id"] == deal["contact_id"])
                acc = next(a for a in self.rows["accounts"] if a["account_id"] == deal["account_id"])
                deal["lead_id"] = lead_id
                converted = datetime.fromisoformat(deal["created_at"])
                row.update(first_name=contact["first_name"], last_name=contact["last_name"],
                           full_name=contact["full_name"], company=acc["name"], industry=acc["industry"],
                           email=contact["email"],
                           title=contact["title"], created_at=iso(converted - timedelta(days=rng.randint(3, 30))),
                           converted_at=iso(converted), converted_account_id=acc["account_id"],
                           converted_contact_id=contact["contact_id"], converted_deal_id=deal["deal_id"],
                           owner_id=deal["owner_id"])
            else:
                if status == "converted":
                    row["status"] = "qualified"
                person = self.fake.person()
                # A few leads come from companies that are already accounts (conversion reuses them).
                if existing and rng.random() < 0.2:
                    known = existing.pop()
                    company, industry = known["name"], known["industry"]
                else:
                    industry = rng.choice(INDUSTRIES)
                    company = self._company_name(industry)
                row.update(first_name=person.first, last_name=person.last, full_name=person.name, company=company,
                           industry=industry if rng.random() < 0.8 else None,
                           email=self.fake.email(person, self._domain(company)))
            self.rows["leads"].append(row)

    # ----- activities and notes -------------------------------------------------------------------

    def _activity(self, kind: str, owner: str, *, subject: str, at: datetime | None = None, due: date | None = None,
                  status: str = "completed", account: str | None = None, contact: str | None = None,
                  deal: str | None = None, lead: str | None = None, created: datetime | None = None) -> None:
        outcome = None
        if kind == "call":
            outcome = self.rng.choice(CALL_OUTCOMES)
        elif kind == "email":
            outcome = self.rng.choice(EMAIL_OUTCOMES)
        elif kind == "meeting":
            outcome = self.rng.choice(MEETING_OUTCOMES)
        elif status == "completed":
            outcome = self.rng.choice(("Done", "Done - sent", None))
        self.rows["activities"].append({
            "activity_id": self.w.new_id("ACT"), "kind": kind, "subject": subject, "details": None,
            "status": status, "priority": self.rng.choice(("normal", "normal", "high", "low")) if kind == "task" else "normal",
            "due_date": due.isoformat() if due else None, "occurred_at": iso(at) if at else None, "outcome": outcome,
            "owner_id": owner, "account_id": account, "contact_id": contact, "deal_id": deal, "lead_id": lead,
            "created_at": iso(created or at or self.now - timedelta(days=10))})

    def _activities(self) -> None:
        rng = self.rng
        accounts = {a["account_id"]: a for a in self.rows["accounts"]}
        contacts = {c["contact_id"]: c for c in self.rows["contacts"]}
        for deal in self.rows["deals"]:
            acc = accounts[deal["account_id"]]
            contact = contacts[deal["contact_id"]]
            fill = {"first": contact["first_name"], "account": acc["name"], "product": self.product_of[deal["deal_id"]]}
            start = datetime.fromisoformat(deal["created_at"])
            end = datetime.fromisoformat(deal["closed_at"]) if deal["closed_at"] else self.now - timedelta(hours=1)
            for _ in range(rng.randint(1, 3)):
                kind = rng.choice(("call", "call", "email", "email", "meeting"))
                if contact["do_not_contact"] and kind != "meeting":
                    kind = "meeting"
                pattern = rng.choice({"call": CALLS, "email": EMAILS, "meeting": MEETINGS}[kind])
                self._activity(kind, deal["owner_id"], subject=pattern.format(**fill), at=self._when(start, end),
                               account=acc["account_id"], contact=contact["contact_id"], deal=deal["deal_id"])
            if deal["stage"] in OPEN_STAGES:
                for _ in range(rng.choice((0, 1, 1, 2))):
                    due = self.today + timedelta(days=rng.randint(-9, 21))
                    created = self._when(start, self.now - timedelta(hours=1))
                    done = due < self.today and rng.random() < 0.4
                    self._activity("task", deal["owner_id"], subject=rng.choice(TASKS).format(**fill), due=due,
                                   status="completed" if done else "open",
                                   at=self._when(created, self.now - timedelta(hours=1)) if done else None,
                                   account=acc["account_id"], contact=contact["contact_id"], deal=deal["deal_id"],
                                   created=created)
        # The user always has overdue and upcoming work.
        mine = [d for d in self.rows["deals"] if d["owner_id"] == self.me["rep_id"] and d["stage"] in OPEN_STAGES]
        for offset in (-3, -1, 0, 2, 6):
            deal = mine[offset % len(mine)]
            contact = contacts[deal["contact_id"]]
            fill = {"first": contact["first_name"], "account": accounts[deal["account_id"]]["name"],
                    "product": self.product_of[deal["deal_id"]]}
            self._activity("task", self.me["rep_id"], subject=rng.choice(TASKS).format(**fill), status="open",
                           due=self.today + timedelta(days=offset), account=deal["account_id"],
                           contact=contact["contact_id"], deal=deal["deal_id"],
                           created=self.now - timedelta(days=12 - offset))
        for lead in self.rows["leads"]:
            if lead["status"] in ("working", "qualified", "unqualified") and lead["owner_id"]:
                created = datetime.fromisoformat(lead["created_at"])
                for _ in range(rng.randint(1, 2)):
                    kind = rng.choice(("call", "email"))
                    pattern = rng.choice(CALLS[:2] if kind == "call" else EMAILS[1:3])
                    self._activity(kind, lead["owner_id"], subject=pattern.format(first=lead["first_name"],
                                   product="the platform", account=lead["company"]),
                                   at=self._when(created, self.now - timedelta(hours=1)), lead=lead["lead_id"])
        self.rows["activities"].sort(key=lambda a: a["activity_id"])

    def _notes(self) -> None:
        rng = self.rng
        contacts = {c["contact_id"]: c for c in self.rows["contacts"]}
        for deal in rng.sample(self.rows["deals"], min(len(self.rows["deals"]), 70)):
            contact = contacts[deal["contact_id"]]
            title, text = rng.choice(NOTE_TOPICS)
            start = datetime.fromisoformat(deal["created_at"])
            end = datetime.fromisoformat(deal["updated_at"])
            at = self._when(start, max(start, end))
            self.rows["notes"].append({
                "note_id": "", "title": title,
                "body": text.format(k=rng.randint(20, 400), year=2026, first=contact["first_name"],
                                    role=rng.choice(("CFO", "CTO", "COO", "procurement team")),
                                    rival=rng.choice(RIVALS), product=rng.choice(PRODUCTS), n=rng.randint(10, 60)),
                "author_id": deal["owner_id"], "account_id": deal["account_id"], "contact_id": contact["contact_id"],
                "deal_id": deal["deal_id"], "lead_id": None, "created_at": iso(at)})
        for acc in rng.sample(self.rows["accounts"], 20):
            self.rows["notes"].append({
                "note_id": "", "title": "Account overview",
                "body": f"{acc['industry']} company, about {acc['employees']} employees, HQ in {acc['city']}. "
                        f"Current stack: {rng.choice(RIVALS)} plus spreadsheets.",
                "author_id": acc["owner_id"], "account_id": acc["account_id"], "contact_id": None, "deal_id": None,
                "lead_id": None, "created_at": iso(self._when(datetime.fromisoformat(acc["created_at"]),
                                                              self.now - timedelta(days=1)))})
        self.rows["notes"].sort(key=lambda n: n["created_at"])
        for note in self.rows["notes"]:
            note["note_id"] = self.w.new_id("NOTE")
