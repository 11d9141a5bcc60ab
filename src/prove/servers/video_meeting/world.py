"""The video meeting world: one signed-in employee's account on a Zoom-like service.

`build_world` creates the company directory (the user, their manager, their team, colleagues
in other departments, external contacts), the user's plan and personal meeting room, and about
six weeks of meetings, from Monday 2026-02-16 to Friday 2026-03-27: team syncs the user hosts,
stand-ups and 1:1s their manager hosts, all-hands, customer calls, vendor demos and reviews.
Meetings before the epoch (Monday 2026-03-16 09:00) have ended (or were cancelled) and carry
their attendance, chat and, for some the user hosted, cloud recordings with transcripts.

At the epoch a colleague's meeting is already live (the user accepted it; its waiting room is
on), the user's weekly team sync is due to start now, and the rest of the day and the next two
weeks are scheduled. Where the user is varies by world: in some they joined the colleague's
meeting when it began, in some they started the team sync a few minutes early (it is recording,
some people are in, others wait in the waiting room), in the rest they have done neither yet.

This module also holds the rules the tools share with the world (how early a meeting may
start, how fast recordings grow and get ready) and the phrase banks both use.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from prove.env import WorldBuilder, WorldGen
from prove.env.values import iso

# ----- rules shared with the tools ----------------------------------------------------------------

START_EARLY_MINUTES = 10        # a host may start a scheduled meeting this long before its time
MB_PER_MINUTE = 12.0            # cloud recording size per recorded minute
READY_AFTER_MINUTES = 20        # a recording is processed this long after its meeting ends
ADMIT_AFTER_SECONDS = 60        # a colleague host admits the user from the waiting room after this
LATECOMER_MINUTES = 5           # invitees who had not accepted turn up this long after the start
STORAGE_QUOTA_MB = 5120.0       # the Pro plan's cloud recording storage
MAX_PARTICIPANTS = 100          # the Pro plan's meeting capacity
PASSCODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789"
JOIN_URL = "https://vmeet.app/j/{number}"

JOINED_SHARE = 0.35              # worlds where the user is in the colleague's live meeting at the epoch
HOSTING_SHARE = 0.55             # of the others, worlds where the user has started their team sync early
HISTORY_START = date(2026, 2, 16)   # a Monday, four weeks before the epoch
HORIZON_END = date(2026, 3, 27)     # the Friday two weeks after the epoch


# ----- phrase banks ---------------------------------------------------------------------------------

CHAT_LINES = (
    "Can everyone see my screen?", "Sorry, running two minutes late.", "I'll share the slides after the call.",
    "+1 to that.", "Thanks all!", "Could you repeat the last point?", "Link to the doc is in the agenda.",
    "My audio dropped for a second, back now.", "Dropping for another call, will catch up on the recording.",
    "Great progress, team.", "Can we take this offline?", "I'll send a follow-up email with next steps.",
    "Who owns the action item on this?", "Agreed, let's revisit next week.", "Quick question on the timeline.",
    "Numbers look good to me.", "Happy to pair on this after the meeting.", "Let's park that for now.",
)
TRANSCRIPT_LINES = (
    "Okay, let's get started, thanks everyone for joining.",
    "First item on the agenda is the {topic}.",
    "I think we're on track, but there are a couple of risks I want to flag.",
    "Can you walk us through where things stand?",
    "We closed most of the open items from last week.",
    "The main blocker right now is waiting on the other team's review.",
    "Let's make sure we capture that as an action item.",
    "I can take that one and report back on Thursday.",
    "Does anyone have questions before we move on?",
    "The numbers came in slightly above what we forecast.",
    "I'd suggest we push the deadline by a week to be safe.",
    "That works for me, as long as we keep the customer informed.",
    "Let's revisit the {topic} next time with more data.",
    "Great, I think that covers everything. Thanks, all.",
)

# (topic, duration minutes) of the meetings colleagues in other departments host.
REVIEW_TOPICS = (
    ("Design review: onboarding flow", 45), ("Architecture review", 60), ("Quarterly business review", 60),
    ("Security awareness briefing", 30), ("Budget check-in", 30), ("Launch readiness review", 45),
    ("Customer feedback roundup", 30), ("Hiring committee", 45), ("Incident postmortem", 45),
    ("Roadmap alignment", 60), ("Data platform office hours", 30), ("Brand refresh workshop", 90),
)
CUSTOMER_TOPICS = ("Onboarding call", "Quarterly check-in", "Renewal discussion", "Product demo",
                   "Integration kickoff", "Escalation review", "Pilot results")
VENDOR_TOPICS = ("Product demo", "Contract walkthrough", "Implementation planning", "Pricing discussion")
LIVE_TOPICS = ("Q2 planning kickoff", "Company OKR review", "Cross-team roadmap sync", "Pricing strategy workshop")
TEAMS = (
    ("Product", ("Product Manager", "Senior Product Manager", "Product Designer", "UX Researcher", "Product Analyst")),
    ("Engineering", ("Software Engineer", "Senior Software Engineer", "Staff Engineer", "QA Engineer", "SRE")),
    ("Customer Success", ("Customer Success Manager", "Support Engineer", "Account Manager", "Onboarding Specialist")),
    ("Marketing", ("Marketing Manager", "Content Strategist", "Growth Marketer", "Brand Designer")),
)
OTHER_TITLES = ("Finance Manager", "Recruiter", "Legal Counsel", "Data Scientist", "Security Engineer",
                "Sales Director", "Account Executive", "HR Business Partner", "Operations Lead", "IT Administrator")
EXTERNAL_TITLES = ("VP Operations", "IT Director", "Procurement Lead", "Solutions Engineer", "Account Executive",
                   "Head of Analytics", "CTO", "Project Manager")

TABLES = ("people", "account", "meetings", "invitees", "participants", "chat_messages", "recordings",
          "transcript_lines")


def build_world(w: WorldGen) -> dict[str, list[dict[str, Any]]]:
    """Build the video meeting world of `w.seed`: {table: rows}, in insertion order."""
    return _Builder(w).build()


class _Builder(WorldBuilder):
    def __init__(self, w: WorldGen) -> None:
        super().__init__(w, TABLES)
        self.used_numbers: set[str] = set()

    # ----- people ----------------------------------------------------------------------------------

    def build(self) -> dict[str, list[dict[str, Any]]]:
        self._people()
        self._account()
        self._schedule()
        self._trim_storage()
        return self.rows

    def _trim_storage(self) -> None:
        """The user cleared out old recordings: what is kept uses at most 80% of the quota."""
        kept = [r for r in self.rows["recordings"] if r["status"] != "deleted"]
        for rec in sorted(kept, key=lambda r: r["created_at"]):
            if sum(r["size_mb"] for r in kept if r["status"] != "deleted") <= 0.8 * STORAGE_QUOTA_MB:
                break
            rec["status"] = "deleted"

    def _person(self, person: Any, company: str, domain: str | None, title: str, colleague: bool,
                is_me: bool = False) -> dict[str, Any]:
        row = {"person_id": self.w.new_id("PER"), "name": person.name,
               "email": self.fake.email(person, domain), "company": company, "job_title": title,
               "is_colleague": int(colleague), "is_me": int(is_me)}
        self.rows["people"].append(row)
        return row

    def _people(self) -> None:
        rng, fake = self.rng, self.fake
        self.company = fake.company()
        domain = self.company.lower().replace(" ", "") + ".com"
        self.team_name, titles = rng.choice(TEAMS)
        people = fake.people(rng.randint(34, 44))
        self.me = self._person(people[0], self.company, domain, rng.choice(titles), True, is_me=True)
        self.manager = self._person(people[1], self.company, domain, f"Head of {self.team_name}", True)
        n_team = rng.randint(5, 7)
        self.team = [self._person(p, self.company, domain, rng.choice(titles), True) for p in people[2:2 + n_team]]
        self.ceo = self._person(people[2 + n_team], self.company, domain, "Chief Executive Officer", True)
        n_ext = rng.randint(8, 12)
        inside = people[3 + n_team:len(people) - n_ext]
        self.others = [self._person(p, self.company, domain, rng.choice(OTHER_TITLES), True) for p in inside]
        self.externals = []
        companies = []
        while len(companies) < 4:
            name = fake.company()
            if name != self.company and name not in companies:
                companies.append(name)
        for i, p in enumerate(people[len(people) - n_ext:]):
            company = companies[i % len(companies)]
            self.externals.append(self._person(p, company, company.lower().replace(" ", "") + ".com",
                                               rng.choice(EXTERNAL_TITLES), False))
        self.customers = [e for e in self.externals if e["company"] in companies[:3]]
        self.vendors = [e for e in self.externals if e["company"] == companies[3]]

    def _number(self) -> str:
        while True:
            number = f"{self.rng.randint(81, 99)}{self.fake.digits(9)}"
            if number not in self.used_numbers:
                self.used_numbers.add(number)
                return number

    def _passcode(self) -> str:
        return self.fake.code(self.rng.choice((6, 6, 8)), PASSCODE_ALPHABET)

    def _account(self) -> None:
        self.pmi = self._number()
        self.rows["account"].append({
            "person_id": self.me["person_id"], "plan": "Pro", "max_participants": MAX_PARTICIPANTS,
            "storage_quota_mb": STORAGE_QUOTA_MB, "personal_meeting_number": self.pmi,
            "personal_room_passcode": self._passcode(), "timezone": "America/New_York",
        })

    # ----- meetings --------------------------------------------------------------------------------

    def _schedule(self) -> None:
        rng = self.rng
        me, manager, team = self.me, self.manager, self.team
        buddy = rng.choice(team)
        sync_time = time(9, 0)
        day = HISTORY_START
        while day <= HORIZON_END:
            wd = day.weekday()
            if wd < 5:
                if wd == 0:
                    self._meeting(me, f"Weekly {self.team_name} sync", day, sync_time, 30, [manager, *team],
                                  waiting_room=1, mute=1, record=1, accept=0.85,
                                  agenda="Wins, blockers and priorities for the week.")
                else:
                    self._meeting(manager, f"{self.team_name} stand-up", day, time(9, 30), 15, [me, *team],
                                  waiting_room=0, mute=1, accept=0.9)
                if wd == 2:
                    self._meeting(manager, _one_on_one(manager, me), day,
                                  time(14, 0), 30, [me], waiting_room=0, accept=1.0)
                if wd == 3 and (day - HISTORY_START).days % 14 == 3:
                    self._meeting(me, _one_on_one(me, buddy), day,
                                  time(11, 0), 30, [buddy], waiting_room=0, accept=1.0)
                if wd == 3 and day.day >= 22 and (day + timedelta(days=7)).month != day.month:
                    everyone = [manager, *team, *self.others]
                    self._meeting(self.ceo, "Company all-hands", day, time(16, 0), 60, everyone,
                                  waiting_room=0, mute=1, accept=0.8)
                self._ad_hoc(day)
            day += timedelta(days=1)
        self._epoch_meetings()
        # From the epoch on, the team sync no longer mutes people on entry: the waiting room holds
        # them until the user admits them, and the host mutes whoever is noisy. (Set here, after
        # the draws, so that the meetings already held keep the attendance they had.)
        for m in self.rows["meetings"]:
            if m["host_id"] == me["person_id"] and m["topic"] == f"Weekly {self.team_name} sync" \
                    and m["status"] == "scheduled":
                m["mute_on_entry"] = 0
        self._this_morning()

    def _this_morning(self) -> None:
        """Where the user is at the epoch: in some worlds they joined the colleague's live meeting
        at the start, in some they started their team sync a few minutes early (recording, a few
        people admitted, others in the waiting room), in the rest they have done neither yet."""
        rng = self.rng
        if rng.random() < JOINED_SHARE:
            live = next(m for m in self.rows["meetings"] if m["status"] == "live")
            joined = datetime.fromisoformat(live["started_at"]) + timedelta(minutes=rng.randint(0, 4))
            self.rows["participants"].append({
                "participant_id": self.w.new_id("PRT"), "meeting_id": live["meeting_id"],
                "person_id": self.me["person_id"], "role": "attendee", "status": "in_meeting",
                "muted": live["mute_on_entry"], "joined_at": iso(joined), "left_at": None})
        elif rng.random() < HOSTING_SHARE:
            self._sync_started_early()

    def _sync_started_early(self) -> None:
        """The user started today's team sync a few minutes before 9:00: its automatic recording
        runs, those who had accepted came in to the waiting room and some were admitted (mute on
        entry is off, so they are unmuted unless they muted themselves), latecomers are waiting."""
        rng = self.rng
        sync = next(m for m in self.rows["meetings"] if m["host_id"] == self.me["person_id"]
                    and m["status"] == "scheduled" and m["starts_at"] == iso(self.now))
        started = self.now - timedelta(minutes=rng.randint(2, START_EARLY_MINUTES - 2))
        sync.update(status="live", started_at=iso(started), recording_since=iso(started) if sync["auto_record"] else None)
        invited = [i for i in self.rows["invitees"] if i["meeting_id"] == sync["meeting_id"]]
        accepted = sorted(i["person_id"] for i in invited if i["response"] == "accepted")
        late = sorted(i["person_id"] for i in invited if i["response"] in ("tentative", "needs_action"))
        admitted = set(rng.sample(accepted, max(1, len(accepted) - rng.randint(1, 2)))) if len(accepted) > 1 else set()
        due = started + timedelta(minutes=LATECOMER_MINUTES)
        arrivals = [(self.me["person_id"], "host", started)] + [(pid, "attendee", started) for pid in accepted]
        arrivals += [(pid, "attendee", due) for pid in late if due <= self.now]
        for pid, role, at in arrivals:
            status = "in_meeting" if role == "host" or pid in admitted else "waiting"
            self.rows["participants"].append({
                "participant_id": self.w.new_id("PRT"), "meeting_id": sync["meeting_id"], "person_id": pid,
                "role": role, "status": status, "muted": int(status == "in_meeting" and role != "host"
                                                              and rng.random() < 0.3),
                "joined_at": iso(at), "left_at": None})

    def _ad_hoc(self, day: date) -> None:
        """A few one-off meetings: customer calls, vendor demos, reviews, personal-room chats."""
        rng = self.rng
        if day == self.now.date():
            return  # the epoch day is laid out by _epoch_meetings
        slots = [time(h, m) for h in (10, 11, 13, 15) for m in (0, 30)]
        rng.shuffle(slots)
        if rng.random() < 0.45:
            customer = rng.choice(self.customers)
            guests = [c for c in self.customers if c["company"] == customer["company"]]
            self._meeting(self.me, f"{customer['company']} {rng.choice(CUSTOMER_TOPICS).lower()}", day, slots.pop(),
                          rng.choice((30, 45, 60)), [*guests, rng.choice(self.team)], waiting_room=1,
                          record=int(rng.random() < 0.6), accept=0.8)
        if rng.random() < 0.4:
            topic, minutes = rng.choice(REVIEW_TOPICS)
            host = rng.choice(self.others)
            pool = [p for p in [self.manager, *self.team, *self.others] if p is not host]
            self._meeting(host, topic, day, slots.pop(), minutes, [self.me, *rng.sample(pool, rng.randint(2, 6))],
                          waiting_room=int(rng.random() < 0.3), accept=0.75)
        if rng.random() < 0.15 and self.vendors:
            vendor = rng.choice(self.vendors)
            self._meeting(vendor, f"{vendor['company']} {rng.choice(VENDOR_TOPICS).lower()}", day, slots.pop(),
                          rng.choice((30, 45)), [self.me, rng.choice(self.team)], waiting_room=1, accept=0.9)
        if rng.random() < 0.2 and day < self.now.date():
            guest = rng.choice(self.team + self.others)
            self._meeting(self.me, f"{self.me['name'].split()[0]}'s personal meeting room", day, slots.pop(),
                          rng.choice((15, 20, 30)), [guest], kind="personal_room", accept=1.0)

    def _epoch_meetings(self) -> None:
        """The epoch day: a colleague's meeting already live, the rest of the day scheduled."""
        rng, day = self.rng, self.now.date()
        host = rng.choice(self.others)
        pool = [self.manager, *self.team, *[p for p in self.others if p is not host]]
        live = self._meeting(host, rng.choice(LIVE_TOPICS), day, time(8, 30), 90,
                             [self.me, *rng.sample(pool, rng.randint(5, 9))], waiting_room=1, mute=1, accept=0.8,
                             agenda="Goals for next quarter, owners and open questions.")
        # Whatever the draw, the user accepted it (and has not joined yet).
        for inv in self.rows["invitees"]:
            if inv["meeting_id"] == live["meeting_id"] and inv["person_id"] == self.me["person_id"]:
                inv["response"] = "accepted"
        customer = rng.choice(self.customers)
        guests = [c for c in self.customers if c["company"] == customer["company"]]
        # (not recorded by itself: the user may start its recording by hand once it is live)
        self._meeting(self.me, f"{customer['company']} {rng.choice(CUSTOMER_TOPICS).lower()}", day, time(11, 0), 45,
                      [*guests, rng.choice(self.team)], waiting_room=1, record=0, accept=0.9)
        topic, minutes = rng.choice(REVIEW_TOPICS)
        host = rng.choice(self.others)
        self._meeting(host, topic, day, time(13, 30), minutes,
                      [self.me, self.manager, *rng.sample(self.team, 2)], waiting_room=0, accept=0.8)
        if self.vendors:
            vendor = rng.choice(self.vendors)
            self._meeting(vendor, f"{vendor['company']} {rng.choice(VENDOR_TOPICS).lower()}", day, time(15, 30), 30,
                          [self.me], waiting_room=1, accept=1.0)
        # A couple of future meetings were called off.
        future = [m for m in self.rows["meetings"] if m["status"] == "scheduled" and m["starts_at"] > "2026-03-17"]
        for m in rng.sample(future, min(2, len(future))):
            m["status"] = "cancelled"

    def _meeting(self, host: dict, topic: str, day: date, at: time, minutes: int, invited: list[dict], *,
                 waiting_room: int = 0, mute: int = 0, record: int = 0, accept: float = 0.8,
                 kind: str = "scheduled", agenda: str | None = None) -> dict[str, Any]:
        rng = self.rng
        start = datetime.combine(day, at)
        meeting_id = self.w.new_id("MTG")
        number = self.pmi if kind == "personal_room" else self._number()
        passcode = self.rows["account"][0]["personal_room_passcode"] if kind == "personal_room" else self._passcode()
        row = {"meeting_id": meeting_id, "meeting_number": number, "host_id": host["person_id"], "topic": topic,
               "agenda": agenda, "kind": kind, "starts_at": iso(start), "duration_minutes": minutes,
               "passcode": passcode, "waiting_room": waiting_room, "mute_on_entry": mute, "auto_record": record,
               "status": "scheduled", "started_at": None, "ended_at": None, "recording_since": None,
               "recorded_seconds": 0}
        self.rows["meetings"].append(row)
        responses: dict[str, str] = {}
        seen = {host["person_id"]}
        for person in invited:
            if person["person_id"] in seen:
                continue
            seen.add(person["person_id"])
            r = rng.random()
            response = ("accepted" if r < accept else "tentative" if r < accept + (1 - accept) / 3
                        else "declined" if r < accept + 2 * (1 - accept) / 3 else "needs_action")
            if start > self.now + timedelta(days=3) and rng.random() < 0.3:
                response = "needs_action"
            responses[person["person_id"]] = response
            if kind != "personal_room":
                self.rows["invitees"].append({"meeting_id": meeting_id, "person_id": person["person_id"],
                                              "response": response})
        end = start + timedelta(minutes=minutes)
        if end <= self.now:
            if rng.random() < 0.04 and kind == "scheduled":
                row["status"] = "cancelled"
            else:
                self._hold(row, host, responses, start, end)
        elif start < self.now:
            self._hold(row, host, responses, start, None)
        return row

    def _hold(self, row: dict, host: dict, responses: dict[str, str], start: datetime, end: datetime | None) -> None:
        """A meeting that took place (`end` given) or is live now: attendance and chat."""
        rng = self.rng
        started = start + timedelta(minutes=rng.randint(-3, 2))
        ended = end + timedelta(minutes=rng.randint(-6, 8)) if end else None
        row["status"] = "ended" if end else "live"
        row["started_at"] = iso(started)
        row["ended_at"] = iso(ended) if ended else None
        me = self.me["person_id"]
        attendees = [pid for pid, resp in responses.items()
                     if (resp == "accepted" and rng.random() < 0.92) or (resp == "tentative" and rng.random() < 0.5)]
        if not end:  # the live meeting at the epoch: the user has not joined yet
            attendees = [pid for pid in attendees if pid != me]
        present: list[tuple[str, str, datetime]] = [(host["person_id"], "host", started)]
        for pid in attendees:
            present.append((pid, "attendee", started + timedelta(minutes=rng.randint(0, 6))))
        for pid, role, joined in present:
            left = None
            status = "in_meeting"
            if ended:
                left = ended if rng.random() < 0.85 or role == "host" else ended - timedelta(minutes=rng.randint(3, 12))
                left = max(left, joined + timedelta(minutes=1))
                status = "left"
            self.rows["participants"].append({
                "participant_id": self.w.new_id("PRT"), "meeting_id": row["meeting_id"], "person_id": pid,
                "role": role, "status": status, "muted": int(role != "host" and (row["mute_on_entry"] or
                                                                                 rng.random() < 0.5)),
                "joined_at": iso(joined), "left_at": iso(left) if left else None})
        speakers = [pid for pid, _, _ in present]
        last = ended or self.now
        if rng.random() < (0.9 if not end else 0.35):
            for _ in range(rng.randint(1, 4)):
                at = started + timedelta(seconds=rng.randint(60, max(61, int((last - started).total_seconds()) - 60)))
                self.rows["chat_messages"].append({
                    "message_id": self.w.new_id("MSG"), "meeting_id": row["meeting_id"],
                    "sender_id": rng.choice(speakers), "recipient_id": None, "sent_at": iso(at),
                    "text": rng.choice(CHAT_LINES)})
        if end and row["auto_record"] and host["person_id"] == me:
            self._recording(row, started, ended, present)

    def _recording(self, meeting: dict, started: datetime, ended: datetime, present: list) -> None:
        rng = self.rng
        seconds = max(60, int((ended - started).total_seconds()))
        meeting["recorded_seconds"] = seconds
        recording_id = self.w.new_id("REC")
        self.rows["recordings"].append({
            "recording_id": recording_id, "meeting_id": meeting["meeting_id"], "duration_seconds": seconds,
            "size_mb": round(seconds / 60 * MB_PER_MINUTE * rng.uniform(0.8, 1.1), 1),
            "status": "deleted" if rng.random() < 0.12 else "available", "created_at": iso(ended),
            "ready_at": iso(ended + timedelta(minutes=READY_AFTER_MINUTES))})
        names = {p["person_id"]: p["name"] for p in self.rows["people"]}
        speakers = [names[pid] for pid, _, _ in present]
        self.rows["transcript_lines"].extend(transcript(recording_id, meeting["topic"], speakers, seconds, rng))


def transcript(recording_id: str, topic: str, speakers: list[str], seconds: int, rng: Any) -> list[dict[str, Any]]:
    """The transcript lines of a recording: the first speaker opens and closes, others talk between."""
    lines = [TRANSCRIPT_LINES[0]] + rng.sample(TRANSCRIPT_LINES[1:-1], min(6, len(TRANSCRIPT_LINES) - 2)) \
        + [TRANSCRIPT_LINES[-1]]
    short = topic.split(":")[0]  # as written: "the Keystone Holdings onboarding call"
    out = []
    for seq, text in enumerate(lines, start=1):
        speaker = speakers[0] if seq in (1, len(lines)) or len(speakers) == 1 else rng.choice(speakers[1:])
        out.append({"recording_id": recording_id, "seq": seq,
                    "offset_seconds": int((seq - 1) * seconds / len(lines)),
                    "speaker": speaker, "text": text.format(topic=short)})
    return out


def _one_on_one(a: dict[str, Any], b: dict[str, Any]) -> str:
    """A one-on-one's title, by first names ('1:1 Naomi / Ryan'), or by full names where the first names are one."""
    first_a, first_b = a["name"].split()[0], b["name"].split()[0]
    return f"1:1 {first_a} / {first_b}" if first_a != first_b else f"1:1 {a['name']} / {b['name']}"
