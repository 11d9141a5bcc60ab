"""The email world: the mailbox of one signed-in employee, six weeks deep.

The user works at a mid-sized company and reads mail from their manager and colleagues, from
customers and vendors, from family and friends, and from services (newsletters, receipts,
travel bookings, notifications), plus some spam. The world spans 2026-02-02 to the epoch
(Monday 2026-03-16 09:00) and holds:

- the system folders (inbox, sent, drafts, scheduled, archive, spam, trash) and 3-5 custom
  folders (Receipts, Travel, Newsletters, Projects, Family);
- work conversations of one to five messages, some with attachments and cc'd colleagues, older
  ones archived; external and personal threads; single-message service mail, filed by filters;
- drafts (a reply in progress, one with an attachment, one with no recipients yet), one message
  scheduled to go out the next morning, a few messages in the trash and spam (and one newsletter
  the spam filter caught by mistake);
- labels on some messages, contacts, filters, blocked senders, app passwords, a signature, a
  saved (off) vacation reply in some worlds;
- mail that arrives over the next five days as the clock is advanced (`inbound`): replies to
  the user's open threads, a note from the manager, newsletters, a receipt, spam.

Everything random comes from `w.rng` and `w.fake`.
"""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime, time, timedelta
from typing import Any

from prove.env import WorldBuilder, WorldGen
from prove.env.values import iso

FIRST_DAY = date(2026, 2, 2)
SYSTEM_FOLDERS = (("inbox", "Inbox"), ("sent", "Sent"), ("drafts", "Drafts"), ("scheduled", "Scheduled"),
                  ("archive", "Archive"), ("spam", "Spam"), ("trash", "Trash"))
CUSTOM_FOLDERS = ("Receipts", "Newsletters", "Travel", "Projects", "Family")
EMPTY_FOLDERS = ("Conference 2025", "Apartment hunt", "Old team", "Wedding planning")
LABELS = (("Follow up", "red"), ("Waiting on", "yellow"), ("Finance", "green"), ("Important", "orange"),
          ("Personal", "blue"), ("To read", "purple"))
PROJECTS = ("Atlas", "Phoenix", "Helios", "Orion", "Nimbus", "Falcon", "Aurora", "Mercury", "Polaris",
            "Titan", "Comet", "Zephyr", "Beacon", "Keystone")
TEAMS = ("Platform", "Payments", "Growth", "Data", "Mobile", "Search", "Checkout", "Onboarding")
USER_TITLES = ("Product Manager", "Senior Product Manager", "Engineering Manager", "Program Manager",
               "Staff Engineer", "Design Lead", "Head of Operations")
TITLES = ("Software Engineer", "Senior Software Engineer", "Product Designer", "Data Analyst",
          "Account Executive", "Financial Analyst", "Recruiter", "Marketing Manager", "QA Engineer",
          "Customer Success Manager", "Solutions Engineer", "Legal Counsel")
WEEKDAY = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")

# (subject, opening body). {to} is the addressee's first name, {me} the sender's, {p} a project,
# {team} the team, {day} a weekday, {pct} a percentage, {other} another colleague's first name.
WORK_TOPICS = (
    ("{p} launch plan", "I put together a first pass at the {p} launch plan. The open question is whether "
     "we ship to everyone on {day} or start with a {pct}% rollout. Could you take a look before our sync?"),
    ("Q2 budget for {team}", "Finance needs our Q2 numbers by {day}. I drafted headcount and tooling; can "
     "you fill in the vendor costs? The sheet is attached."),
    ("Interview feedback: {cand}", "Thanks for interviewing {cand} yesterday. Please add your written "
     "feedback to the scorecard by {day} so we can decide at the debrief."),
    ("{p} retro notes", "Sharing the notes from the {p} retrospective. Three themes: unclear ownership of "
     "the rollout, flaky staging, and late design changes. Action items are at the bottom."),
    ("Offsite agenda", "Here is the draft agenda for the {team} offsite. Morning is roadmap, afternoon is "
     "a workshop with {other}. Let me know if anything is missing."),
    ("Customer escalation: {company}", "{company} reported that exports have been timing out since last "
     "week. Support has a workaround, but they want a root cause by {day}. Can your team take a look?"),
    ("{p} design review follow-ups", "Following up on Tuesday's design review of {p}: we agreed to simplify "
     "the settings page and drop the wizard. {other} will update the mocks."),
    ("Hiring plan for {team}", "We have approval for two more engineers on {team} this half. I'd like to "
     "open one senior and one mid-level role. Thoughts on the split?"),
    ("Incident postmortem: {p} outage", "The postmortem for last {day}'s {p} outage is ready for review. "
     "Root cause was an expired certificate on the internal gateway. Please comment by end of week."),
    ("Vendor contract renewal: {vendor}", "Our contract with {vendor} renews on April 1. They proposed a "
     "{pct}% increase. Do we want to negotiate or look at alternatives?"),
    ("{p} metrics for the monthly review", "Could you send me the latest {p} numbers (activation, weekly "
     "actives, churn) for the monthly business review? The deck is due {day}."),
    ("Roadmap priorities for next quarter", "Ahead of planning, I'd like each team to rank its top five "
     "bets. Please send yours by {day}; we'll discuss as a group the week after."),
    ("Team lunch on {day}", "Planning a team lunch on {day} to celebrate the {p} launch. Any dietary "
     "restrictions I should know about?"),
    ("On-call handoff", "Handing over on-call. Two open items: the disk alert on the reporting cluster "
     "and a retry storm we saw around 2am. Runbook links are in the ticket."),
    ("Access request for the {p} dashboard", "Could you grant {other} access to the {p} dashboard? They're "
     "helping with the analysis this sprint."),
    ("Draft press release for {p}", "Marketing shared a draft press release for {p}. Can you check the "
     "technical claims in the second paragraph before it goes to legal?"),
)
REPLIES = (
    "Thanks {to}, this looks good overall. One concern: the timeline is tight for QA. Can we add a buffer "
    "of a few days?",
    "Sounds good to me. I'll take a closer look this afternoon and send comments.",
    "Thanks for pulling this together. I added my notes in the doc; the main one is about ownership.",
    "Agreed. Let's discuss in our 1:1 on {day}.",
    "Quick update: I talked to {other} and we're aligned. Moving ahead.",
    "I can do that by {day}. Will send it over as soon as it's ready.",
    "Looping in {other}, who owns this area now.",
    "Can we push this to next week? This week is packed with the {p} release.",
    "Done. Let me know if anything else is needed.",
    "Good catch. I'll update the numbers and resend.",
    "Thanks! Approved from my side.",
    "I have a few questions; do you have 15 minutes tomorrow morning?",
)
EXTERNAL_TOPICS = (
    ("Proposal for {company}", "Thank you for the call last week. As promised, attached is our proposal "
     "for the pilot, including pricing for 50 seats and the implementation timeline."),
    ("Invoice {inv} from {company}", "Please find attached invoice {inv} for February services. Payment is "
     "due within 30 days. Let me know if you have any questions."),
    ("Following up on our conversation", "It was great meeting you at the conference. I'd love to show "
     "you what we're building at {company}. Would you have 30 minutes next week?"),
    ("Security questionnaire", "Our security team sent over the attached questionnaire as part of the "
     "procurement process. Could your team complete it by {day}?"),
    ("Renewal discussion", "Our annual agreement is up for renewal in April. I'd like to schedule a call "
     "to go over usage and the new plan options."),
    ("Partnership intro: {company}", "Introducing you to the partnerships team at {company}. I think "
     "there's a good fit with the integration work you described."),
)
PERSONAL_TOPICS = (
    ("Dinner on Sunday?", "Are you free for dinner on Sunday? We're thinking of trying the new Thai place "
     "on {street}. Around 7?"),
    ("Photos from the weekend", "Here are the photos from Saturday! The one by the lake came out great."),
    ("Mom's birthday", "Mom's birthday is on the 28th. Should we all chip in for the spa day she "
     "mentioned? I can book it."),
    ("Book club: next pick", "Next month's book club pick is up for a vote. Reply with your top two "
     "choices by Friday."),
    ("Trip to {city}", "Still up for the trip to {city} in May? Flights are around $420 right now. Let's "
     "decide this week."),
    ("Kids' soccer schedule", "The spring soccer schedule is out. Practices are Tuesdays and Thursdays at "
     "5:30, games on Saturday mornings."),
    ("Moving help", "We finally got the keys! Any chance you could help us move boxes on the 21st? Pizza "
     "is on us."),
)
PERSONAL_REPLIES = ("Sounds great, count me in!", "Yes! Let's do it.", "Can't make it this time, sorry. "
                    "Next one for sure.", "Love these, thanks for sharing!", "Good idea. I'm in for $50.",
                    "Let me check with the family and get back to you tonight.")

# (sender name, address, subject, body, folder) for single-message service mail.
# A newsletter's issues, each with its own subject, sent in turn (a sender's issues come round
# again only after all of them).
NEWSLETTERS = (
    ("Morning Brew", "crew@morningbrew.com",
     ("Markets wobble as chipmakers rally", "Oil slips as the Fed holds rates", "Retail earnings beat the forecast",
      "A quiet week for tech stocks", "Airlines raise their summer outlook", "Streaming price hikes, again",
      "Housing starts cool in February", "The jobs report, in five charts"),
     "Good morning, here is what you need to know today, in a five-minute read."),
    ("The Pragmatic Engineer", "pragmaticengineer@substack.com",
     ("The Pulse: layoffs, AI tooling, and on-call", "How one team cut its build times in half",
      "What senior engineers do differently", "Inside a platform team's first year",
      "The Pulse: hiring picks up, slowly", "Code review at scale", "On-call without the burnout",
      "Migrating a monolith, one service at a time"),
     "This week's issue for engineers and engineering leaders, with a deep dive and the news that matters."),
    ("Lenny's Newsletter", "lenny@substack.com",
     ("How the best PMs write strategy docs", "The first 90 days as a product lead", "Pricing lessons from 20 startups",
      "How to run a great planning offsite", "What makes onboarding stick", "Saying no to your best customer",
      "Growth loops, explained", "Writing a product review people read"),
     "This week's post for product builders, with examples from teams that got it right."),
    ("TLDR", "dan@tldrnewsletter.com",
     ("TLDR: new open-weight models, a browser engine rewrite", "TLDR: chip export rules and a database release",
      "TLDR: a new phone launch, and quantum error rates", "TLDR: AI coding agents, compared",
      "TLDR: a record funding round and an outage postmortem", "TLDR: robotics startups and a new JS runtime",
      "TLDR: battery breakthroughs and a kernel release", "TLDR: the state of open source funding"),
     "Headlines and deep dives in tech, science and coding, in a five-minute read."),
    ("Product Hunt Daily", "hello@digest.producthunt.com",
     ("Today's top launches: AI note takers", "Today's top launches: tools for remote teams",
      "Today's top launches: a calendar that plans itself", "Today's top launches: developer tools",
      "Today's top launches: budgeting apps", "Today's top launches: design plugins",
      "Today's top launches: privacy tools", "Today's top launches: habit trackers"),
     "The top products launched today, hand-picked by the Product Hunt team."),
)
RECEIPTS = (
    ("Amazon.com", "auto-confirm@amazon.com", "Your Amazon.com order receipt #{order}",
     "Thank you for your order. Order #{order}, placed {date}. Order total: ${amount}. Your items will "
     "arrive by {day}.", "receipt_{order}.pdf"),
    ("Uber Receipts", "noreply@uber.com", "Your Tuesday evening trip with Uber receipt",
     "Thanks for riding with Uber. Total: ${amount}. Trip from Downtown to {street}.", None),
    ("Apple", "no_reply@email.apple.com", "Your receipt from Apple",
     "Receipt for iCloud+ 200 GB. Billed to your card ending in 4821. Total: ${amount}.", None),
    ("Whole Foods Market", "receipts@wholefoods.com", "Your Whole Foods Market receipt",
     "Thanks for shopping with us. Total: ${amount}. You saved $4.10 with Prime.", "receipt_{order}.pdf"),
    ("Con Edison", "billing@coned.com", "Your energy bill receipt is ready",
     "Your payment of ${amount} was received. Thank you.", "coned_statement.pdf"),
)
TRAVEL = (
    ("Delta Air Lines", "deltaairlines@t.delta.com", "Your flight confirmation to {city}: {code}",
     "Your trip is confirmed. Confirmation {code}. Departs {date} 07:45, arrives 11:20. Seat 14C.",
     "eticket_{code}.pdf"),
    ("Marriott Bonvoy", "reservations@marriott.com", "Reservation confirmation: Marriott {city}",
     "Your stay at Marriott {city} is confirmed for 3 nights from {date}. Confirmation {code}.", None),
    ("Airbnb", "automated@airbnb.com", "Reservation confirmed for {city}",
     "Pack your bags! Your reservation in {city} is confirmed. Check-in {date} after 3:00 PM.", None),
)
NOTIFICATIONS = (
    ("GitHub", "notifications@github.com", "[{slug}/{repo}] Pull request #{n}: Fix flaky export test",
     "{colleague} requested your review on this pull request. 3 files changed, 48 additions, 12 deletions."),
    ("Jira", "jira@{slug}.atlassian.net", "[JIRA] {key}-{n}: Export times out for large accounts",
     "{colleague} assigned this issue to you. Priority: High. Sprint: {p} 14."),
    ("Google", "no-reply@accounts.google.com", "Security alert: new sign-in on Mac",
     "We noticed a new sign-in to your account on a Mac device. If this was you, you don't need to do "
     "anything."),
    ("Zoom", "no-reply@zoom.us", "Cloud recording available: {p} weekly sync",
     "Your cloud recording is now available. Recording length: 47 minutes."),
    ("Google Calendar", "calendar-notification@google.com", "Invitation: {p} kickoff @ {day} 10am",
     "{colleague} has invited you to {p} kickoff. Join with Google Meet."),
    ("LinkedIn", "messages-noreply@linkedin.com", "You appeared in 14 searches this week",
     "See who's looking at your profile and how you compare with others in your network."),
)
SPAM = (
    ("Prize Center", "winner@prize-claims-now.biz", "Congratulations! You have been selected",
     "You have been selected to receive a $1,000 gift card. Claim within 24 hours by confirming your "
     "details."),
    ("Rx Discount", "deals@rx-discount-meds.info", "Save 80% on prescriptions today",
     "Lowest prices guaranteed. No prescription needed. Limited time offer."),
    ("Crypto Alerts", "profit@quick-crypto-gains.io", "This coin is about to 10x",
     "Insiders are buying before the announcement. Don't miss out, act now."),
    ("Account Security", "verify@secure-acct-login.co", "Action required: verify your mailbox",
     "Your mailbox will be suspended unless you verify your password within 48 hours."),
    ("Lucky Winner Dept", "notice@global-lottery-intl.net", "Final notice: unclaimed funds",
     "Our records show unclaimed funds in your name. Reply with your bank details to receive them."),
)
VENDORS = ("Salesforce", "Datadog", "Atlassian", "Snowflake", "Figma", "Zendesk", "Okta", "Twilio")
STREETS = ("Maple Avenue", "Oak Street", "Cedar Lane", "Market Street", "Park Avenue", "Harbor View")
ATTACH_WORK = (("{p}_launch_plan.pdf", "application/pdf"), ("Q2_budget_{team}.xlsx",
               "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
               ("{p}_mockups.png", "image/png"), ("{p}_review.pptx",
               "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
               ("notes.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"))


def slug(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


class _Builder(WorldBuilder):
    def __init__(self, w: WorldGen) -> None:
        super().__init__(w)
        self.threads: list[dict[str, Any]] = []   # {subject, messages: [...]}
        self.contacts: list[dict[str, Any]] = []

    def when(self, day: date, work: bool = True) -> datetime:
        """A time on `day`: office hours for work mail, otherwise morning to late evening."""
        lo, hi = (8 * 60, 18 * 60 + 30) if work else (7 * 60, 22 * 60)
        return datetime.combine(day, time()) + timedelta(minutes=self.rng.randrange(lo, hi))

    def day(self, start: date = FIRST_DAY, end: date | None = None, weekday: bool = True) -> date:
        end = end or (self.today - timedelta(days=1))
        while True:
            d = self.fake.date_between(start, end)
            if not weekday or d.weekday() < 5:
                return d

    def later(self, at: datetime, lo_min: int, hi_min: int, work: bool = True) -> datetime:
        """`at` plus a random delay, moved on to waking (or office) hours."""
        at += timedelta(minutes=self.rng.randint(lo_min, hi_min))
        first, last = (8, 19) if work else (7, 23)
        while True:
            if at.hour < first:
                at = at.replace(hour=first, minute=self.rng.randrange(60))
            elif at.hour >= last:
                at = (at + timedelta(days=1)).replace(hour=first, minute=self.rng.randrange(60))
            elif work and at.weekday() >= 5:
                at = (at + timedelta(days=7 - at.weekday())).replace(hour=first, minute=self.rng.randrange(60))
            else:
                return at

    def thread(self, subject: str) -> dict[str, Any]:
        t = {"subject": subject, "messages": []}
        self.threads.append(t)
        return t

    def message(self, thread: dict[str, Any], at: datetime, sender: tuple[str, str], to: list[str],
                body: str, *, cc: list[str] = (), bcc: list[str] = (), subject: str | None = None,
                status: str = "received", folder: str | None = None, read: bool = True,
                starred: bool = False, attachments: list[tuple[str, str, int]] = (),
                labels: list[str] = ()) -> dict[str, Any]:
        m = {"at": at, "from": sender, "to": list(to), "cc": list(cc), "bcc": list(bcc), "body": body,
             "subject": subject or thread["subject"], "status": status, "folder": folder, "read": read,
             "starred": starred, "attachments": list(attachments), "labels": list(labels)}
        thread["messages"].append(m)
        return m


def build_world(w: WorldGen) -> dict[str, list[dict[str, Any]]]:
    rng, fake = w.rng, w.fake
    b = _Builder(w)
    now = w.now
    company = fake.company()
    domain = slug(company.split()[0]) + slug(company.split()[1])[:4] + ".com"
    team = rng.choice(TEAMS)
    projects = rng.sample(PROJECTS, 5)
    people = fake.people(60)
    user, rest = people[0], people[1:]
    my_name = user.name
    primary = fake.email(user, domain)
    aliases = [f"{user.first.lower()}@{domain}"]
    if rng.random() < 0.5:
        aliases.append(f"{team.lower()}-team@{domain}")
    mine = [primary, *aliases]
    my_title = rng.choice(USER_TITLES)
    my_phone = fake.phone()

    def colleague(p):
        return (p.name, fake.email(p, domain))

    boss = colleague(rest[0])
    teammates = [colleague(p) for p in rest[1:7]]
    others = [colleague(p) for p in rest[7:rng.randint(16, 20)]]
    colleagues = [boss, *teammates, *others]
    ext_people = rest[20:20 + rng.randint(8, 11)]
    ext_companies = [fake.company() for _ in ext_people]
    externals = [(p.name, fake.email(p, slug(c) + ".com")) for p, c in zip(ext_people, ext_companies)]
    family_last = user.last
    friends = []
    for i, p in enumerate(rest[32:32 + rng.randint(5, 8)]):
        name = f"{p.first} {family_last}" if i < 2 else p.name
        first, last = name.split(" ", 1)
        friends.append((name, fake.email(type(p)(first, last))))
    first = {addr: name.split()[0] for name, addr in [*colleagues, *externals, *friends]}
    me = (my_name, primary)

    def draw(**extra: Any) -> dict[str, Any]:
        """The values a text is filled with; `extra` holds those fixed, and `to` and `sender` the first
        names of who it is written to and by: the {other} a text names is neither ("Looping in Diego",
        from Diego)."""
        out = {"p": rng.choice(projects), "team": team, "day": rng.choice(WEEKDAY),
               "pct": rng.choice((5, 10, 20, 25)),
               "other": rng.choice(colleagues)[0].split()[0], "company": rng.choice(ext_companies),
               "vendor": rng.choice(VENDORS), "cand": fake.person().name, "street": rng.choice(STREETS),
               "city": fake.city().name, "inv": f"INV-{fake.digits(5)}", **extra}
        them = (extra.get("to"), extra.get("sender"))
        if out["other"] in them:
            out["other"] = next(n for n in (c[0].split()[0] for c in colleagues) if n not in them)
        return out

    def fmt(text: str, **extra: Any) -> str:
        return text.format(**draw(**extra))

    def letter(body: str, to_first: str, sender_first: str) -> str:
        greet = rng.choice(("Hi {0},", "Hey {0},", "{0},", "Hi {0}!"))
        close = rng.choice(("Thanks,", "Best,", "Cheers,", "Thanks!", ""))
        return f"{greet.format(to_first)}\n\n{body}\n\n{close}\n{sender_first}".replace("\n\n\n", "\n\n")

    def folder_for(at: datetime, default: str = "inbox", filed: str = "archive") -> str:
        age = (now - at).days
        return default if age < 6 or rng.random() < 0.45 else filed

    def unread(at: datetime) -> bool:
        age = (now - at).days
        return rng.random() < (0.6 if age < 4 else 0.25 if age < 10 else 0.04)

    def attachment(p: str) -> tuple[str, str, int]:
        name, mime = rng.choice(ATTACH_WORK)
        return fmt(name, p=p), mime, rng.randint(80, 4200)

    # ----- work conversations --------------------------------------------------------------------
    open_threads: list[tuple[dict, tuple[str, str]]] = []  # the user wrote last: replies may come later
    for _ in range(rng.randint(44, 52)):
        subject_t, opening = rng.choice(WORK_TOPICS)
        p = rng.choice(projects)
        said = draw(p=p)  # the subject and the opening name the same candidate, company, day
        subject = subject_t.format(**said)
        other = rng.choice([boss, *teammates, *teammates, *others])
        t = b.thread(subject)
        at = b.when(b.day())
        user_starts = rng.random() < 0.4
        n = rng.choice((1, 2, 2, 3, 3, 4, 5))
        cc = [a for _, a in rng.sample([c for c in colleagues if c != other], rng.randint(1, 3))] \
            if rng.random() < 0.3 else []
        files = [attachment(p)] if rng.random() < 0.25 else []
        filed = "Projects" if rng.random() < 0.2 else "archive"
        for i in range(n):
            mine_turn = (i % 2 == 0) == user_starts
            if at >= now:
                break
            body_t, thread = (opening, said) if i == 0 else (rng.choice(REPLIES), {"p": p})
            subj = subject if i == 0 else f"Re: {subject}"
            if mine_turn:
                body = letter(fmt(body_t, **thread, to=first[other[1]], sender=user.first), first[other[1]], user.first)
                b.message(t, at, me, [other[1]], body, cc=cc, subject=subj, status="sent", folder="sent",
                          attachments=files if i == 0 else [],
                          labels=["Waiting on"] if i == n - 1 and rng.random() < 0.2 else [])
            else:
                to = [primary] if rng.random() < 0.85 else [aliases[-1]]
                body = letter(fmt(body_t, **thread, to=user.first, sender=first[other[1]]), user.first, first[other[1]])
                folder = folder_for(at, filed=filed)
                b.message(t, at, other, to, body, cc=cc, subject=subj, folder=folder,
                          read=folder != "inbox" or not unread(at),
                          starred=rng.random() < 0.08 or (other == boss and rng.random() < 0.7),
                          attachments=files if i == 0 else [],
                          labels=(["Important"] if other == boss else [])
                          + (["Follow up"] if rng.random() < 0.1 else []))
            at = b.later(at, 20, 60 * 30)
        if t["messages"] and t["messages"][-1]["status"] == "sent" and (now - t["messages"][-1]["at"]).days < 10:
            open_threads.append((t, other))
        if not t["messages"]:
            b.threads.remove(t)

    # ----- customers, vendors and partners ------------------------------------------------------
    for _ in range(rng.randint(8, 12)):
        idx = rng.randrange(len(externals))
        ext, comp = externals[idx], ext_companies[idx]
        subject_t, opening = rng.choice(EXTERNAL_TOPICS)
        said = draw(company=comp)
        subject = subject_t.format(**said)
        t = b.thread(subject)
        at = b.when(b.day())
        files = [(f"{slug(comp)}_{subject_t.split()[0].lower()}.pdf", "application/pdf", rng.randint(150, 2400))] \
            if "attached" in opening else []
        folder = folder_for(at)
        b.message(t, at, ext, [primary], letter(fmt(opening, **said), user.first, first[ext[1]]),
                  folder=folder, read=folder != "inbox" or not unread(at), attachments=files,
                  labels=["Finance"] if "Invoice" in subject_t else [])
        if rng.random() < 0.6:
            at = b.later(at, 60, 60 * 40)
            if at < now:
                body = letter(fmt(rng.choice(REPLIES), to=first[ext[1]], sender=user.first), first[ext[1]], user.first)
                b.message(t, at, me, [ext[1]], body,
                          subject=f"Re: {subject}", status="sent", folder="sent")

    # ----- family and friends ---------------------------------------------------------------------
    for _ in range(rng.randint(7, 11)):
        subject_t, opening = rng.choice(PERSONAL_TOPICS)
        family_only = subject_t in ("Mom's birthday", "Kids' soccer schedule")
        friend = rng.choice(friends[:2] if family_only else friends)
        said = draw()
        subject = subject_t.format(**said)
        t = b.thread(subject)
        at = b.when(b.day(weekday=False), work=False)
        files = [(f"IMG_{fake.digits(4)}.jpg", "image/jpeg", rng.randint(1800, 5200))
                 for _ in range(rng.randint(2, 4))] if subject_t.startswith("Photos") else []
        circle = friends[:2] if family_only else friends
        to = [primary] + ([a for _, a in circle if a != friend[1]][:2] if rng.random() < 0.4 else [])
        folder = folder_for(at, "inbox", "Family" if rng.random() < 0.6 else "archive")
        b.message(t, at, friend, to, f"{fmt(opening, **said)}\n\n{first[friend[1]]}", folder=folder,
                  read=folder != "inbox" or not unread(at), attachments=files,
                  labels=["Personal"] if rng.random() < 0.5 else [])
        if rng.random() < 0.6:
            at = b.later(at, 30, 60 * 20, work=False)
            if at < now:
                b.message(t, at, me, [friend[1]], f"{rng.choice(PERSONAL_REPLIES)}\n\n{user.first}",
                          subject=f"Re: {subject}", status="sent", folder="sent")
    # one video far over the sending limit, so that forwarding it with attachments is refused
    friend = rng.choice(friends)
    t = b.thread(rng.choice(("Video from the recital", "Drone footage from the hike", "Wedding video (finally!)")))
    at = b.when(b.day(now.date() - timedelta(days=12)), work=False)
    b.message(t, at, friend, [primary], f"Took a while to export, but here it is. Enjoy!\n\n{first[friend[1]]}",
              read=True, starred=True, attachments=[(f"{slug(t['subject'])[:16]}.mp4", "video/mp4",
                                                     rng.randint(26_500, 38_000))])

    # ----- services: newsletters, receipts, travel, notifications, spam ------------------------
    custom = ["Receipts", "Newsletters", *rng.sample(CUSTOM_FOLDERS[2:], rng.randint(1, 3))]
    service_folder = {"newsletter": "Newsletters", "receipt": "Receipts",
                      "travel": "Travel" if "Travel" in custom else "archive"}
    issues: Counter[str] = Counter()
    for kind, pool, count in (("newsletter", NEWSLETTERS, rng.randint(22, 30)),
                              ("receipt", RECEIPTS, rng.randint(10, 15)),
                              ("travel", TRAVEL, rng.randint(3, 5)), ("note", NOTIFICATIONS, rng.randint(22, 30)),
                              ("spam", SPAM, rng.randint(5, 8))):
        for _ in range(count):
            name, addr, subject_t, body_t, *rest_ = rng.choice(pool)
            if isinstance(subject_t, tuple):  # a newsletter's next issue
                subject_t = subject_t[issues[name] % len(subject_t)]
                issues[name] += 1
            d = b.day(weekday=False)
            at = b.when(d, work=kind == "note")
            values = {"order": f"{rng.randint(111, 114)}-{fake.digits(7)}-{fake.digits(7)}",
                      "amount": f"{fake.money(6, 240):.2f}",
                      "date": (d + timedelta(days=rng.randint(5, 40))).isoformat(),
                      "code": fake.code(6, "ABCDEFGHJKLMNPQRSTUVWXYZ"), "n": rng.randint(1200, 4800),
                      "slug": slug(company.split()[0]), "repo": rng.choice(("web", "api", "mobile", "infra")),
                      "key": team[:3].upper(), "colleague": rng.choice(colleagues)[0]}
            values = draw(**values)  # one project and one day for the subject, the body and the file
            subject, body = subject_t.format(**values), fmt(body_t, **values)
            addr = fmt(addr, **values)
            files = []
            if rest_ and rest_[0]:
                files = [(fmt(rest_[0], **values), "application/pdf", rng.randint(40, 400))]
            t = b.thread(subject)
            if kind == "spam":
                folder, read = "spam", rng.random() < 0.5
            elif kind in service_folder:
                folder, read = service_folder[kind], not unread(at) or rng.random() < 0.3
            else:
                folder = folder_for(at)
                read = folder != "inbox" or not unread(at)
            b.message(t, at, (name, addr), [primary], body, folder=folder, read=read, attachments=files,
                      labels=["Finance"] if kind == "receipt"
                      else ["To read"] if kind == "newsletter" and rng.random() < 0.1 else [])

    # ----- a few things in the trash ----------------------------------------------------------------
    received = [m for t in b.threads for m in t["messages"]
                if m["status"] == "received" and m["folder"] in ("inbox", "archive", "Newsletters")]
    for m in rng.sample(received, rng.randint(6, 10)):
        m["trashed_from"], m["folder"], m["starred"], m["labels"] = m["folder"], "trash", False, []

    # ----- a newsletter the spam filter caught by mistake (no draw: the rest stays as it was) -------
    caught = min((m for t in b.threads for m in t["messages"] if m["status"] == "received"
                  and m["folder"] == "Newsletters"), key=lambda m: m["at"], default=None)
    if caught is not None:
        caught["folder"], caught["labels"] = "spam", []

    # ----- drafts and a scheduled message ------------------------------------------------------
    recent = [(t, o) for t, o in open_threads] or [(b.threads[0], boss)]
    t, other = rng.choice(recent)
    b.message(t, now - timedelta(minutes=rng.randint(15, 50)), me, [other[1]],
              f"Hi {first[other[1]]},\n\nFollowing up on this: I think we should", subject=f"Re: {t['subject']}",
              status="draft", folder="drafts")
    ext = rng.choice(externals)
    comp = ext_companies[externals.index(ext)]
    t = b.thread(f"Follow-up: {comp} pilot")
    b.message(t, datetime.combine(now.date() - timedelta(days=3), time(16, rng.randrange(60))), me, [ext[1]],
              f"Hi {first[ext[1]]},\n\nThanks again for your time on the call. Attached is the revised proposal "
              f"with the pricing we discussed.\n\nBest,\n{user.first}", status="draft", folder="drafts",
              attachments=[(f"{slug(comp)}_proposal_v2.pdf", "application/pdf", rng.randint(300, 1800))])
    t = b.thread(rng.choice(("Notes for Thursday offsite", "Ideas for the team survey",
                             "Talking points for the all-hands")))
    b.message(t, datetime.combine(now.date() - timedelta(days=rng.randint(4, 6)), time(17, rng.randrange(60))), me, [],
              "- wins this quarter\n- what slowed us down\n- hiring update\n- open questions for leadership",
              status="draft", folder="drafts")
    if rng.random() < 0.5:
        friend = rng.choice(friends)
        t = b.thread("Weekend plans")
        at = datetime.combine(now.date() - timedelta(days=rng.randint(1, 2)), time(20, rng.randrange(60)))
        b.message(t, at, me, [friend[1]],
                  f"Hey {first[friend[1]]}, are you around on Saturday? We could", status="draft", folder="drafts")
    t = b.thread(f"Weekly status: {team}")
    b.message(t, datetime.combine(now.date() + timedelta(days=1), time(8, 0)), me,
              [boss[1]], f"Hi {first[boss[1]]},\n\nThis week on {team}: {projects[0]} is on track for the beta, "
              f"{projects[1]} slipped a week because of the API review, and we closed 14 bugs.\n\nBest,\n{user.first}",
              cc=[a for _, a in teammates[:2]], status="scheduled", folder="scheduled")

    # ----- assign IDs in time order -------------------------------------------------------------
    b.threads.sort(key=lambda t: min(m["at"] for m in t["messages"]))
    folder_rows = [{"folder_id": fid, "name": name, "kind": "system", "created_at": "2021-06-01T09:00:00"}
                   for fid, name in SYSTEM_FOLDERS]
    folder_ids = {fid: fid for fid, _ in SYSTEM_FOLDERS}
    for name in sorted(custom, key=CUSTOM_FOLDERS.index):
        fid = w.new_id("FLD")
        folder_ids[name] = fid
        folder_rows.append({"folder_id": fid, "name": name, "kind": "custom",
                            "created_at": iso(datetime(2024, rng.randint(1, 12), rng.randint(1, 28), 10, 0))})
    # A folder of a past project, emptied when it ended: nothing is filed there any more.
    folder_rows.append({"folder_id": w.new_id("FLD"), "name": EMPTY_FOLDERS[w.seed % len(EMPTY_FOLDERS)],
                        "kind": "custom", "created_at": iso(datetime(2024, 1 + w.seed % 12, 15, 10, 0))})
    for m in (m for t in b.threads for m in t["messages"]):
        if m["folder"] not in folder_ids:  # a folder this world lacks: the mail stays in the archive
            m["folder"] = "archive"
    label_rows, label_ids = [], {}
    for name, color in [LABELS[0], LABELS[1], LABELS[2], *rng.sample(LABELS[3:], rng.randint(2, 3))]:
        lid = w.new_id("LBL")
        label_ids[name] = lid
        label_rows.append({"label_id": lid, "name": name, "color": color, "created_at": "2025-01-15T10:00:00"})

    thread_rows, message_rows, recipient_rows, attachment_rows, ml_rows = [], [], [], [], []
    thread_of: dict[int, str] = {}
    for t in b.threads:
        tid = w.new_id("THR")
        thread_of[id(t)] = tid
        thread_rows.append({"thread_id": tid, "subject": t["subject"]})
    everything = sorted(((m, t) for t in b.threads for m in t["messages"]),
                        key=lambda mt: (mt[0]["status"] in ("draft", "scheduled"), mt[0]["at"]))
    last_in_thread: dict[str, str] = {}
    for m, t in everything:
        mid = w.new_id("MSG")
        tid = thread_of[id(t)]
        message_rows.append({
            "message_id": mid, "thread_id": tid, "folder_id": folder_ids[m["folder"]], "status": m["status"],
            "from_name": m["from"][0], "from_address": m["from"][1], "subject": m["subject"], "body": m["body"],
            "sent_at": iso(m["at"]), "is_read": int(m["read"] or m["status"] != "received"),
            "is_starred": int(m["starred"]),
            "in_reply_to": last_in_thread.get(tid) if m["subject"].startswith("Re:") else None,
            "trashed_from": folder_ids.get(m.get("trashed_from")) if m.get("trashed_from") else None})
        if m["status"] in ("received", "sent"):
            last_in_thread[tid] = mid
        for kind in ("to", "cc", "bcc"):
            for pos, addr in enumerate(dict.fromkeys(a for a in m[kind] if a not in m["to"] or kind == "to")):
                recipient_rows.append({"message_id": mid, "kind": kind, "address": addr, "position": pos})
        for filename, mime, size in m["attachments"]:
            attachment_rows.append({"attachment_id": w.new_id("ATT"), "message_id": mid, "filename": filename,
                                    "mime_type": mime, "size_kb": size})
        for name in dict.fromkeys(m["labels"]):
            if name in label_ids:
                ml_rows.append({"message_id": mid, "label_id": label_ids[name]})

    # ----- contacts -----------------------------------------------------------------------------------
    contact_rows = []
    favs = {boss[1], *(a for _, a in friends[:2])}
    book = [(c, company, rng.choice(TITLES)) for c in colleagues if c == boss or rng.random() < 0.75]
    book += [(e, c, None) for e, c in zip(externals, ext_companies)]
    book += [(f, None, None) for f in friends]
    for (name, addr), comp, title in sorted(book, key=lambda x: x[0][0]):
        note = None
        if (name, addr) == boss:
            note = "My manager"
        elif title and rng.random() < 0.3:
            note = f"{title}, {team if rng.random() < 0.5 else 'cross-team'}"
        elif comp and comp != company and rng.random() < 0.5:
            note = rng.choice(("Met at SaaStr 2025", "Main contact for the pilot", "Billing questions",
                               "Prefers calls over email"))
        contact_rows.append({"contact_id": w.new_id("CON"), "name": name, "email": addr,
                             "phone": fake.phone() if rng.random() < 0.6 else None, "company": comp,
                             "notes": note, "is_favorite": int(addr in favs),
                             "created_at": iso(datetime(2025, rng.randint(1, 12), rng.randint(1, 28), 12, 0))})

    # ----- filters, blocked senders, app passwords, settings ------------------------------------
    filter_rows = []

    def add_filter(name, frm, subj, folder, label, mark_read=0, star=0):
        filter_rows.append({"filter_id": w.new_id("FIL"), "name": name, "from_contains": frm,
                            "subject_contains": subj, "move_to_folder_id": folder_ids.get(folder) if folder else None,
                            "add_label_id": label_ids.get(label) if label else None, "mark_read": mark_read,
                            "star": star, "created_at": "2025-03-02T10:00:00"})

    add_filter("Newsletters", "substack.com", None, "Newsletters", None)
    add_filter("Morning Brew", "morningbrew.com", None, "Newsletters", None, mark_read=int(rng.random() < 0.5))
    add_filter("Receipts", None, "receipt", "Receipts", "Finance")
    if "Important" in label_ids:
        add_filter("From my manager", boss[1], None, None, "Important", star=1)
    blocked = [{"address": a, "blocked_at": "2026-01-20T10:00:00"} for _, a, *_ in rng.sample(SPAM, 2)]
    apps = []
    devices = [("Thunderbird on laptop", "active"), ("iPhone Mail", "active"), ("Old Outlook", "revoked")]
    for name, status in devices[:rng.randint(1, 3)]:
        code = fake.code(16, "abcdefghijklmnopqrstuvwxyz")
        apps.append({"app_password_id": w.new_id("APP"), "name": name,
                     "password": " ".join(code[i:i + 4] for i in range(0, 16, 4)), "status": status,
                     "created_at": iso(datetime(2025, rng.randint(1, 12), rng.randint(1, 28), 20, 0)),
                     "last_used_at": iso(now - timedelta(hours=rng.randint(1, 300))) if status == "active" else None})
    saved = rng.random() < 0.5
    mailbox = [{"mailbox_id": "me", "display_name": my_name,
                "signature": f"{my_name}\n{my_title}, {company}\n{my_phone}",
                "vacation_enabled": 0,
                "vacation_subject": "Out of office" if saved else None,
                "vacation_body": (f"Thanks for your email. I'm out of the office with limited access to email. "
                                  f"For anything urgent, please contact {boss[0]} at {boss[1]}.") if saved else None,
                "vacation_start": "2025-12-22" if saved else None, "vacation_end": "2026-01-02" if saved else None}]

    # ----- mail still on its way ------------------------------------------------------------------
    inbound = []

    def arriving(at, sender, subject, body, thread_id=None, cc=None, attachment=None, bulk=False):
        inbound.append({"inbound_id": w.new_id("INB"), "arrives_at": iso(at), "thread_id": thread_id,
                        "from_name": sender[0], "from_address": sender[1], "cc": cc, "subject": subject,
                        "body": body, "attachment": attachment, "bulk": int(bulk)})

    soon = now + timedelta(minutes=rng.randint(10, 50))
    arriving(soon, boss, "Quick sync today?", letter("Do you have 15 minutes this afternoon to go over the "
             f"{projects[0]} timeline before tomorrow's review?", user.first, first[boss[1]]))
    for t, other in rng.sample(open_threads, min(3, len(open_threads))):
        at = now + timedelta(hours=rng.randint(1, 52), minutes=rng.randint(0, 59))
        body = letter(fmt(rng.choice(REPLIES), to=user.first, sender=first[other[1]]), user.first, first[other[1]])
        arriving(at, other, f"Re: {t['subject']}", body, thread_id=thread_of[id(t)])
    for _ in range(rng.randint(2, 4)):
        name, addr, subjects, body = rng.choice(NEWSLETTERS)
        subject = subjects[issues[name] % len(subjects)]  # the issue after the ones already in
        issues[name] += 1
        arriving(now + timedelta(days=rng.randint(0, 4), hours=rng.randint(1, 12)), (name, addr), subject, body,
                 bulk=True)
    name, addr, subject_t, body_t, _ = RECEIPTS[0]
    order = f"113-{fake.digits(7)}-{fake.digits(7)}"
    arriving(now + timedelta(hours=rng.randint(3, 30)), (name, addr), subject_t.format(order=order),
             body_t.format(order=order, date=now.date().isoformat(), amount=f"{fake.money(12, 180):.2f}", day="Friday"),
             attachment=f"receipt_{order}.pdf|application/pdf|{rng.randint(40, 120)}", bulk=True)
    spam = next(s for s in SPAM if s[1] == blocked[0]["address"])
    arriving(now + timedelta(hours=rng.randint(2, 20)), (spam[0], spam[1]), spam[2], spam[3], bulk=True)
    ext = rng.choice(externals)
    arriving(now + timedelta(days=1, hours=rng.randint(1, 6)), ext, rng.choice(("Quick question about pricing",
             "Next steps", "Checking in")), letter("Wanted to check in on the proposal. Do you have an update "
             "on timing from your side?", user.first, first[ext[1]]),
             cc=rng.choice(externals)[1] if rng.random() < 0.3 else None)
    friend = rng.choice(friends)
    arriving(now + timedelta(days=rng.randint(1, 4), hours=rng.randint(9, 12)), friend, "Saturday?",
             f"Free on Saturday afternoon? Thinking of a hike if the weather holds.\n\n{first[friend[1]]}")
    colleague_ = rng.choice(teammates)
    arriving(now + timedelta(days=rng.randint(1, 3), hours=rng.randint(1, 7)), colleague_,
             f"{projects[2]} spec for review", letter(f"The {projects[2]} spec is ready for your review. "
             "Comments welcome before Friday.", user.first, first[colleague_[1]]),
             attachment=f"{projects[2].lower()}_spec.pdf|application/pdf|{rng.randint(300, 900)}")
    inbound.sort(key=lambda r: r["arrives_at"])

    return {
        "mailbox": mailbox,
        "addresses": [{"address": a, "is_primary": int(a == primary)} for a in mine],
        "folders": folder_rows,
        "labels": label_rows,
        "contacts": contact_rows,
        "threads": thread_rows,
        "messages": message_rows,
        "recipients": recipient_rows,
        "attachments": attachment_rows,
        "message_labels": ml_rows,
        "filters": filter_rows,
        "blocked_senders": blocked,
        "app_passwords": apps,
        "inbound": inbound,
        "vacation_replies": [],
    }

