"""The calendar world: one signed-in employee's calendars in a small company.

The user works on a product team: a manager, teammates and colleagues in other departments,
plus external contacts (customers, vendors, family). The world spans six weeks before to eight
weeks after the epoch (Monday 2026-03-16 09:00) and holds:

- a primary 'Work' calendar and a 'Personal' calendar owned by the user, the team calendar
  (owned by the manager, read-only to the user) and, in some worlds, an 'Interview Panel'
  calendar a recruiter shares with the user for writing;
- recurring series (team sync, stand-up, 1:1s, focus time, a weekly personal class) whose
  occurrences are materialised as events;
- one-off meetings the user organizes or is invited to, personal appointments, informational
  team events, a few cancelled events;
- pending invitations (some clashing with the user's schedule), reminders, and colleagues'
  private busy blocks so that free/busy answers are meaningful;
- a few placeholder holds ('Hold', 'TBD', ...) the user booked and has yet to name: the events
  update_event renames.

`recurrence_dates` is the one recurrence rule, shared with the tools.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from typing import Any

from prove.env import WorldBuilder, WorldGen
from prove.env.values import iso

WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
FIRST_DAY = date(2026, 2, 2)    # Monday, six weeks before the epoch
LAST_DAY = date(2026, 5, 10)    # Sunday, eight weeks after the epoch
WEEKS = 14

TEAMS = ("Platform", "Payments", "Growth", "Data", "Mobile", "Infrastructure", "Search", "Checkout")
USER_TITLES = ("Senior Software Engineer", "Staff Engineer", "Engineering Manager", "Product Manager",
               "Product Designer", "Tech Lead", "Data Scientist")
TEAM_TITLES = ("Software Engineer", "Senior Software Engineer", "QA Engineer", "Product Designer",
               "Data Analyst", "Site Reliability Engineer", "Product Manager")
DEPARTMENTS = {
    "Sales": ("Account Executive", "Sales Engineer", "Sales Director"),
    "Marketing": ("Product Marketing Manager", "Content Strategist", "Marketing Director"),
    "Finance": ("Financial Analyst", "Controller", "FP&A Manager"),
    "People": ("Recruiter", "HR Business Partner", "Talent Partner"),
    "Design": ("UX Researcher", "Design Lead", "Brand Designer"),
    "Customer Success": ("Customer Success Manager", "Support Lead", "Solutions Consultant"),
    "Legal": ("Counsel", "Contracts Manager"),
    "Engineering": ("Principal Engineer", "Security Engineer", "Engineering Director", "Staff Engineer"),
}
EXTERNAL_TITLES = ("Procurement Lead", "CTO", "Head of Operations", "Account Manager", "VP Engineering",
                   "Founder", "Partner Manager")
PROJECTS = ("Atlas", "Phoenix", "Helios", "Orion", "Nimbus", "Falcon", "Aurora", "Mercury", "Polaris",
            "Titan", "Comet", "Zephyr", "Beacon", "Keystone")
ROOMS = ("Everest", "Denali", "Matterhorn", "Fuji", "Olympus", "Rainier", "Elbrus", "Aconcagua")
VIDEO = ("Zoom", "Google Meet", "Microsoft Teams")

OWN_MEETINGS = ("{p} design review", "{p} sync", "{p} planning", "Architecture review: {p}",
                "{p} launch checklist", "Roadmap review", "Hiring debrief", "Incident postmortem",
                "Budget check-in", "{p} estimation")
OTHERS_MEETINGS = ("{p} kickoff", "{p} status update", "{dept} office hours", "Brown bag: {topic}",
                   "{p} retrospective", "Cross-team dependency review", "Quarterly planning",
                   "Security review: {p}", "{p} demo", "Customer escalation review")
EXTERNAL_MEETINGS = ("Customer call: {company}", "Vendor demo: {company}", "Partnership intro: {company}",
                     "Renewal discussion: {company}")
SOCIAL = ("Coffee with {first}", "Lunch with {first}")
PERSONAL = ("Dentist appointment", "Doctor's appointment", "Haircut", "Parent-teacher conference",
            "Car service", "Vet appointment", "Physical therapy", "Pick up passport", "Dinner with {first}",
            "Kids' piano recital")
CLASSES = ("Yoga class", "Spin class", "Climbing gym", "Spanish lesson", "Swim practice")
TOPICS = ("observability", "feature flags", "accessibility", "cost tracking", "data contracts",
          "prompt design", "on-call health")
HOLDS = ("Hold", "Placeholder", "TBD", "Hold for a meeting", "Meeting (title TBD)")
HOLD_NOTE = "Holding this time; agenda to follow."
AGENDA = ("Agenda: {w}.", "Notes doc linked in the invite. Focus: {w}.", "Goal: agree on {w}.",
          "Please review the {w} doc beforehand.")


def recurrence_dates(first: date, frequency: str, interval: int, weekdays: Sequence[str] | None,
                     count: int | None, until: date | None, cap: int) -> list[date]:
    """The dates a recurrence rule yields, in order, from `first` on.

    A daily rule repeats every `interval` days from `first`. A weekly rule repeats every
    `interval` weeks (counted from the week of `first`) on `weekdays` (default: the weekday of
    `first`), never before `first`. The rule stops after `count` dates or after `until`
    (inclusive); at most `cap + 1` dates are produced, so a caller can tell a rule that is too
    long. One of `count` and `until` must be set.
    """
    out: list[date] = []

    def full() -> bool:
        return (count is not None and len(out) >= count) or len(out) > cap

    if frequency == "daily":
        day = first
        while (until is None or day <= until) and not full():
            out.append(day)
            day += timedelta(days=interval)
        return out
    wanted = sorted({WEEKDAYS.index(d) for d in weekdays}) if weekdays else [first.weekday()]
    week = first - timedelta(days=first.weekday())
    while True:
        for wd in wanted:
            day = week + timedelta(days=wd)
            if day < first:
                continue
            if until is not None and day > until:
                return out
            out.append(day)
            if full():
                return out
        week += timedelta(weeks=interval)


def at(day: date, minutes: int) -> datetime:
    """`day` at `minutes` after midnight."""
    return datetime.combine(day, time()) + timedelta(minutes=minutes)


class _Builder(WorldBuilder):
    """Accumulates the rows of one world while keeping the user's own schedule free of clashes."""

    def __init__(self, w: WorldGen) -> None:
        super().__init__(w, ("people", "calendars", "calendar_shares", "series", "events", "invitations",
                             "reminders", "busy_blocks"))
        self.my_busy: dict[date, list[tuple[int, int]]] = {}

    # ----- people and calendars ----------------------------------------------------------------

    def person(self, name: str, email: str, job_title: str | None, department: str | None, company: str,
               colleague: bool, me: bool = False) -> str:
        pid = self.w.new_id("PER")
        self.rows["people"].append({
            "person_id": pid, "name": name, "email": email, "job_title": job_title, "department": department,
            "company": company, "is_colleague": int(colleague), "is_me": int(me)})
        return pid

    def calendar(self, owner: str, name: str, description: str | None, primary: bool) -> str:
        cid = self.w.new_id("CAL")
        self.rows["calendars"].append({"calendar_id": cid, "owner_id": owner, "name": name,
                                       "description": description, "is_primary": int(primary)})
        return cid

    def share(self, calendar_id: str, person_id: str, permission: str) -> None:
        self.rows["calendar_shares"].append(
            {"calendar_id": calendar_id, "person_id": person_id, "permission": permission})

    # ----- events ------------------------------------------------------------------------------

    def free_for_me(self, day: date, start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in self.my_busy.get(day, []))

    def block_me(self, day: date, start: int, end: int) -> None:
        self.my_busy.setdefault(day, []).append((start, end))

    def find_slot(self, day: date, minutes: int, earliest: int = 9 * 60, latest: int = 17 * 60,
                  tries: int = 12) -> int | None:
        """A random half-hour-aligned start on `day` when the user is free, or None."""
        for _ in range(tries):
            start = self.rng.randrange(earliest, latest - minutes + 1, 30)
            if self.free_for_me(day, start, start + minutes):
                return start
        return None

    def event(self, calendar_id: str, organizer: str, title: str, start: datetime, minutes: int, *,
              series_id: str | None = None, location: str | None = None, description: str | None = None,
              status: str = "confirmed", show_as: str = "busy") -> str:
        eid = self.w.new_id("EVT")
        self.rows["events"].append({
            "event_id": eid, "calendar_id": calendar_id, "series_id": series_id, "organizer_id": organizer,
            "title": title, "description": description, "location": location, "starts_at": iso(start),
            "ends_at": iso(start + timedelta(minutes=minutes)), "status": status, "show_as": show_as})
        return eid

    def invite(self, event_id: str, person_id: str, response: str, note: str | None = None) -> None:
        self.rows["invitations"].append({"invitation_id": self.w.new_id("INV"), "event_id": event_id,
                                         "person_id": person_id, "response": response, "note": note})

    def response(self, start: datetime, *, pending: float = 0.2) -> str:
        """A plausible attendee response: settled in the past, often open in the future."""
        r = self.rng.random()
        if start < self.now:
            return "accepted" if r < 0.85 else "declined" if r < 0.93 else "tentative"
        if r < pending:
            return "needs_action"
        return "accepted" if r < 0.75 else "tentative" if r < 0.88 else "declined"

    def location(self) -> str:
        r = self.rng.random()
        if r < 0.45:
            return f"Room {self.rng.randint(2, 6)}{self.rng.choice('ABC')} ({self.rng.choice(ROOMS)})"
        if r < 0.9:
            return self.rng.choice(VIDEO)
        return "Main office cafe"

    def agenda(self) -> str | None:
        if self.rng.random() < 0.45:
            return self.rng.choice(AGENDA).format(w=self.fake.words(3))
        return None


def _days(weekdays_only: bool = True) -> list[date]:
    days = [FIRST_DAY + timedelta(days=i) for i in range((LAST_DAY - FIRST_DAY).days + 1)]
    return [d for d in days if d.weekday() < 5] if weekdays_only else days


def build_world(w: WorldGen) -> dict[str, list[dict[str, Any]]]:
    """Build the world of seed `w.seed`: people, calendars, events, invitations, reminders, busy time."""
    b = _Builder(w)
    rng, fake = w.rng, w.fake

    # ----- the company and its people ----------------------------------------------------------
    company = fake.company()
    domain = company.lower().replace(" ", "") + ".com"
    team = rng.choice(TEAMS)
    n_team = rng.randint(4, 6)
    n_others = rng.randint(24, 40)
    n_external = rng.randint(8, 14)
    names = fake.people(2 + n_team + n_others + n_external)
    me_p, boss_p = names[0], names[1]
    team_ps = names[2:2 + n_team]
    other_ps = names[2 + n_team:2 + n_team + n_others]
    ext_ps = names[2 + n_team + n_others:]

    me = b.person(me_p.name, fake.email(me_p, domain), rng.choice(USER_TITLES), team, company, True, me=True)
    boss = b.person(boss_p.name, fake.email(boss_p, domain), "Engineering Director", team, company, True)
    teammates = [b.person(p.name, fake.email(p, domain), rng.choice(TEAM_TITLES), team, company, True)
                 for p in team_ps]
    others: list[str] = []
    by_dept: dict[str, list[str]] = {}
    for p in other_ps:
        dept = rng.choice(list(DEPARTMENTS))
        pid = b.person(p.name, fake.email(p, domain), rng.choice(DEPARTMENTS[dept]), dept, company, True)
        others.append(pid)
        by_dept.setdefault(dept, []).append(pid)
    externals: list[str] = []
    ext_companies: dict[str, str] = {}
    for i, p in enumerate(ext_ps):
        if i < len(ext_ps) - 3:  # business contacts
            firm = fake.company()
            pid = b.person(p.name, fake.email(p, firm.lower().replace(" ", "") + ".com"),
                           rng.choice(EXTERNAL_TITLES), None, firm, False)
            ext_companies[pid] = firm
        else:  # personal contacts: the dentist, then family and friends
            label = f"Dr. {p.last} (Dentist)" if i == len(ext_ps) - 3 else p.name
            pid = b.person(label, fake.email(p), None, None, "Personal contact", False)
        externals.append(pid)
    business = [p for p in externals if p in ext_companies]
    friends = [p for p in externals if p not in ext_companies][1:]
    first_name = {r["person_id"]: p.first for r, p in zip(b.rows["people"], names, strict=True)}
    collaborators = rng.sample(others, k=min(10, len(others)))
    colleagues = [boss, *teammates, *others]
    lead = teammates[0]

    # ----- calendars ---------------------------------------------------------------------------
    full_name = {r["person_id"]: r["name"] for r in b.rows["people"]}
    primary = {pid: b.calendar(pid, f"{full_name[pid]}'s calendar", None, True) for pid in colleagues}
    work = b.calendar(me, "Work", "Meetings and focus time", True)
    personal = b.calendar(me, "Personal", "Appointments and family", False)
    team_cal = b.calendar(boss, f"{team} Team", f"Rituals, releases and time off of the {team} team", False)
    b.share(team_cal, me, "read")
    b.share(team_cal, lead, "write")
    for pid in teammates[1:]:
        b.share(team_cal, pid, "read")
    b.share(work, boss, "read")
    if friends:
        b.share(personal, friends[-1], "read")
    recruiters = by_dept.get("People", [])
    interviews = None
    if recruiters and rng.random() < 0.7:
        interviews = b.calendar(recruiters[0], "Interview Panel", "Candidate interviews you are on", False)
        b.share(interviews, me, "write")

    # ----- recurring series --------------------------------------------------------------------
    def series(calendar_id: str, organizer: str, title: str, weekdays: Sequence[str], minute: int,
               minutes: int, attendees: Sequence[str], *, interval: int = 1, count: int | None = None,
               until: date | None = None, location: str | None = None, cancel_some: bool = False) -> str:
        sid = w.new_id("SER")
        b.rows["series"].append({
            "series_id": sid, "calendar_id": calendar_id, "organizer_id": organizer, "title": title,
            "frequency": "weekly", "interval": interval, "weekdays": ",".join(weekdays), "count": count,
            "until": until.isoformat() if until else None})
        first = FIRST_DAY + timedelta(days=rng.randint(0, 4) if len(weekdays) == 1 else 0)
        for day in recurrence_dates(first, "weekly", interval, weekdays, count, until, cap=100):
            start = at(day, minute)
            cancelled = cancel_some and rng.random() < 0.07
            eid = b.event(calendar_id, organizer, title, start, minutes, series_id=sid, location=location,
                          status="cancelled" if cancelled else "confirmed")
            if not cancelled and (organizer == me or me in attendees):
                b.block_me(day, minute, minute + minutes)
            for pid in attendees:
                b.invite(eid, pid, "accepted" if pid == me else b.response(start, pending=0.05))
        return sid

    weekly = WEEKS  # occurrences of a weekly series spanning the world
    sync_day = rng.choice(("TU", "WE"))
    series(team_cal, boss, f"{team} weekly sync", [sync_day], rng.choice((600, 660)), 45,
           [me, *teammates], count=weekly, location=b.location(), cancel_some=True)
    standup_days = rng.choice((["MO", "WE", "FR"], ["TU", "TH"], ["MO", "TH"]))
    series(team_cal, lead, "Stand-up", standup_days, 570, 15, [me, *teammates[1:]],
           count=weekly * len(standup_days), location=rng.choice(VIDEO))
    series(primary[boss], boss, f"1:1 {first_name[me]} / {first_name[boss]}", [rng.choice(("MO", "TH", "FR"))],
           rng.choice((840, 900, 930)), 30, [me], count=weekly, location=rng.choice(VIDEO), cancel_some=True)
    mentee = teammates[-1]
    series(work, me, f"1:1 {first_name[me]} / {first_name[mentee]}", [rng.choice(("TU", "WE", "TH"))],
           rng.choice((690, 780, 810)), 30, [mentee], interval=2, count=weekly // 2)
    focus_days = rng.sample(["MO", "TU", "WE", "TH", "FR"], 2)
    series(work, me, "Focus time", sorted(focus_days, key=WEEKDAYS.index), rng.choice((780, 840)), 120, [],
           count=weekly * 2 - rng.randint(0, 6))
    series(personal, me, rng.choice(CLASSES), [rng.choice(("TU", "TH"))], 18 * 60, 60, [],
           until=LAST_DAY - timedelta(days=rng.randint(0, 20)))

    # ----- one-off meetings --------------------------------------------------------------------
    projects = rng.sample(PROJECTS, 4)
    circle = [boss, *teammates, *collaborators]
    for day in _days():
        for _ in range(rng.choice((1, 1, 2, 2, 3))):
            kind = rng.random()
            fmt = {"p": rng.choice(projects), "topic": rng.choice(TOPICS), "dept": rng.choice(list(by_dept))}
            minutes = rng.choice((30, 30, 45, 60, 60, 90))
            calendar_id, organizer, location, description = work, me, b.location(), b.agenda()
            if kind < 0.38:  # organized by the user
                title = rng.choice(OWN_MEETINGS).format(**fmt)
                people = rng.sample([*teammates, *collaborators], rng.randint(1, 4))
            elif kind < 0.48:  # the user meets a customer or vendor
                ext = rng.choice(business)
                title = rng.choice(EXTERNAL_MEETINGS).format(company=ext_companies[ext])
                people = [ext, *rng.sample(collaborators, rng.randint(0, 2))]
                location = rng.choice(VIDEO)
            elif kind < 0.55:  # coffee or lunch
                other = rng.choice(collaborators)
                title = rng.choice(SOCIAL).format(first=first_name[other])
                people, location, description = [other], "Main office cafe", None
                minutes = 60 if title.startswith("Lunch") else 30
            elif kind < 0.62 and interviews:  # an interview on the shared panel calendar
                title = f"Interview: {fake.person().name} ({rng.choice(TEAM_TITLES)})"
                calendar_id, organizer, minutes = interviews, recruiters[0], 60
                people, description = [me, rng.choice(circle)], None
            else:  # invited by a colleague
                organizer = rng.choice(circle)
                title = rng.choice(OTHERS_MEETINGS).format(**fmt)
                calendar_id = primary[organizer]
                people = [me, *rng.sample([p for p in circle if p != organizer], rng.randint(1, 4))]
            if title.startswith("Lunch"):
                start_min = 12 * 60 if b.free_for_me(day, 12 * 60, 13 * 60) else None
            else:
                start_min = b.find_slot(day, minutes)
            if start_min is None:
                continue
            start = at(day, start_min)
            status = "cancelled" if rng.random() < 0.03 else "confirmed"  # called off, still on record
            eid = b.event(calendar_id, organizer, title, start, minutes, location=location,
                          description=description, status=status)
            if status == "confirmed":
                b.block_me(day, start_min, start_min + minutes)
            for pid in people:
                b.invite(eid, pid, "accepted" if pid == me else b.response(start))

    # ----- personal appointments and team information ------------------------------------------
    for _ in range(rng.randint(8, 14)):
        day = fake.date_between(FIRST_DAY, LAST_DAY)
        minutes = rng.choice((30, 60, 60, 90, 120))
        earliest, latest = (8 * 60, 18 * 60) if day.weekday() < 5 else (9 * 60, 20 * 60)
        start_min = b.find_slot(day, minutes, earliest, latest)
        if start_min is None:
            continue
        title = rng.choice(PERSONAL).format(first=first_name[rng.choice(friends)] if friends else "Sam")
        b.event(personal, me, title, at(day, start_min), minutes)
        b.block_me(day, start_min, start_min + minutes)
    for n in range(rng.randint(4, 7)):  # informational: shown as free, block nobody
        day = rng.choice(_days())
        who = rng.choice(teammates)
        title = rng.choice((f"{team} release {n + 1}.0", f"{first_name[who]} out of office",
                            "Change freeze", "On-call handoff"))
        b.event(team_cal, boss, title, at(day, 9 * 60), 8 * 60, show_as="free",
                description=rng.choice((None, "FYI: no action needed.")))

    # ----- pending invitations, two of them clashing with the user's schedule ------------------
    soon = [d for d in _days() if w.now.date() < d <= w.now.date() + timedelta(days=20)]
    for i in range(rng.randint(6, 10)):
        day = rng.choice(soon)
        minutes = rng.choice((30, 45, 60))
        clash = i < 2 and bool(b.my_busy.get(day))  # lands on something the user already has
        start_min = rng.choice(b.my_busy[day])[0] if clash else b.find_slot(day, minutes)
        if start_min is None:
            continue
        organizer = rng.choice([*others, boss])
        fmt = {"p": rng.choice(projects), "topic": rng.choice(TOPICS), "dept": rng.choice(list(by_dept))}
        eid = b.event(primary[organizer], organizer, rng.choice(OTHERS_MEETINGS).format(**fmt),
                      at(day, start_min), minutes, location=b.location(), description=b.agenda())
        b.invite(eid, me, "needs_action")
        for pid in rng.sample([p for p in colleagues if p not in (me, organizer)], rng.randint(1, 3)):
            b.invite(eid, pid, b.response(at(day, start_min), pending=0.5))

    # ----- reminders on the user's upcoming events ---------------------------------------------
    mine = {r["event_id"] for r in b.rows["invitations"] if r["person_id"] == me and r["response"] == "accepted"}
    upcoming = [e for e in b.rows["events"] if e["starts_at"] >= iso(w.now) and e["status"] == "confirmed"
                and (e["organizer_id"] == me or e["event_id"] in mine)]
    for e in rng.sample(upcoming, min(len(upcoming), rng.randint(18, 30))):
        personal_event = e["calendar_id"] == personal
        b.rows["reminders"].append({
            "reminder_id": w.new_id("REM"), "event_id": e["event_id"],
            "minutes_before": rng.choice((60, 120, 1440) if personal_event else (5, 10, 10, 15, 30)),
            "method": "email" if personal_event and rng.random() < 0.5 else "popup"})

    # ----- colleagues' private busy time (seen only through free/busy) -------------------------
    near = [d for d in _days() if w.now.date() - timedelta(days=7) <= d <= w.now.date() + timedelta(days=27)]
    close = {boss, *teammates, *collaborators}
    for pid in colleagues:
        days = near if pid in close else near[5:15]
        per_day = (0, 1, 1, 1, 2, 2) if pid in close else (0, 0, 1, 1, 2)
        for day in days:
            taken: list[tuple[int, int]] = []
            for _ in range(rng.choice(per_day)):
                minutes = rng.choice((30, 60, 60, 90, 120))
                start = rng.randrange(9 * 60, 17 * 60 - minutes + 1, 30)
                if any(start < e and start + minutes > s for s, e in taken):
                    continue
                taken.append((start, start + minutes))
                b.rows["busy_blocks"].append({"person_id": pid, "starts_at": iso(at(day, start)),
                                              "ends_at": iso(at(day, start + minutes))})

    # ----- time the user holds for a meeting they have yet to name ----------------------------
    # (drawn last, so that everything above stays as it was; these are what a rename renames)
    soon = [d for d in _days() if w.now.date() < d <= w.now.date() + timedelta(days=14)]
    for title in rng.sample(HOLDS, 3):
        day = rng.choice(soon)
        start_min = b.find_slot(day, 60)
        if start_min is None:
            continue
        b.event(work, me, title, at(day, start_min), 60, location=b.location(), description=HOLD_NOTE)
        b.block_me(day, start_min, start_min + 60)

    # Rows in key order fill SQLite pages densely: a smaller template for every session to copy.
    keys = {"calendar_shares": ("calendar_id", "person_id"), "busy_blocks": ("person_id", "starts_at")}
    for table, items in b.rows.items():
        if items:
            cols = keys.get(table, (next(iter(items[0])),))
            items.sort(key=lambda r: tuple(r[c] for c in cols))
    return b.rows
