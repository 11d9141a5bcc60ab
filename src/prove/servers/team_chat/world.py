"""The team chat world: a company's Slack-like workspace, two weeks deep.

The signed-in member works on a product team. The workspace holds 30-40 colleagues (a few
admins, two deactivated former employees), bots (Slackbot, a deploy bot, PagerDuty), and:

- public channels: #general (the default), #random, #announcements (admins post), #engineering,
  the user's team channel, project channels, #incidents, #deploys, #help-it, an office channel,
  #sales-wins, a social channel, and two archived ones; private channels the user is in (team
  leads, a hiring channel) and two they are not in;
- direct messages with 5-8 colleagues and Slackbot;
- two weeks of messages on working days with threads, reactions, @mentions (some of the user,
  some unread), pins; read positions that leave Monday morning's messages unread;
- statuses (someone on vacation, someone out sick, the user focusing until 11:00), a message the
  user scheduled for Tuesday morning, reminders;
- messages colleagues will post over the next three days (`upcoming`): replies to the user's
  threads, mentions, DMs, announcements.

Everything random comes from `w.rng` and `w.fake`.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from prove.env import WorldGen
from prove.env.values import iso

TEAMS = ("platform", "payments", "growth", "data", "mobile", "search", "checkout", "onboarding")
PROJECTS = ("atlas", "phoenix", "helios", "orion", "nimbus", "falcon", "aurora", "mercury", "polaris", "titan")
TITLES = ("Software Engineer", "Senior Software Engineer", "Staff Engineer", "Product Manager", "Product Designer",
          "Data Analyst", "Engineering Manager", "QA Engineer", "Site Reliability Engineer", "Recruiter",
          "Account Executive", "Customer Success Manager", "Marketing Manager", "IT Support Specialist",
          "Office Manager", "People Partner")
SOCIAL = ("running-club", "book-club", "pets", "foodies", "parents", "music")
TOPICS = ("observability", "feature flags", "accessibility", "cost tracking", "data contracts", "on-call health")
EMOJI = ("thumbsup", "thumbsup", "heart", "tada", "eyes", "white_check_mark", "raised_hands", "fire", "rocket",
         "pray", "100", "clap", "joy", "thinking_face", "muscle", "sparkles")

GENERAL = (
    "Welcome @{h} to the team! :wave:", "Reminder: all-hands is Thursday at 4pm in the main room and on Zoom.",
    "The office will be closed on Friday, March 27 for the spring holiday.",
    "Benefits enrollment closes on March 31 - don't forget to submit your selections.",
    "Congrats to the {team} team on shipping {P}! :tada:", "Lunch & learn tomorrow: {topic}. Pizza provided.",
    "Please update your emergency contact in the HR portal by the end of the month.",
    "The Q1 company survey is open - it takes 5 minutes and it really helps.",
    "Quarterly business review slides are in the shared drive for anyone who missed it.",
    "We're piloting a four-day on-call rotation next month, details to follow.",
    "The new expense tool goes live on April 1; old reports must be filed before then.",
    "Please welcome our new VP of Engineering, who starts next Monday!",
    "Reminder: the security awareness training is due by Friday.",
    "Parents at work: the spring family day sign-up sheet is open.",
    "Town hall recording is up on the intranet.",
    "The {city} office gets new desks next week; please clear yours by Thursday.",
    "Hackathon teams are forming now, pitch your idea in the thread.",
    "HR office hours for open enrollment questions are Wednesday at 11am.",
)
RANDOM = (
    "Anyone up for lunch at the taco place?", "Who left a blue umbrella in the kitchen?",
    "Found a great podcast on {topic}, happy to share the link.", "My dog learned to open the fridge. Send help.",
    "Coffee machine on the 3rd floor is fixed!", "Does anyone know a good plumber in {city}?",
    "Happy Friday everyone!", "There's leftover cake in the kitchen :cake:", "Anyone watching the game tonight?",
    "Is the ping pong table free at lunch?", "Who wants to split a pizza order for Thursday?",
    "Just found out the roof deck is open again.", "Recommendations for a weekend hike near {city}?",
    "Someone parked in the loading zone, a grey hatchback.", "I brought sourdough starter, take some home!",
    "Trivia night at the pub across the street, 7pm Wednesday.", "Anyone know a good tailor nearby?",
    "The sunset from the 5th floor is unreal right now.", "Lost: a black water bottle with stickers on it.",
    "Plant swap on Friday, bring a cutting!",
)
ENGINEERING = (
    "Heads up: staging will be down 2-3pm for the database upgrade.",
    "Has anyone seen flaky failures in the export tests today?",
    "PR for the retry logic is up, would appreciate a review: #{n}",
    "We're bumping Node to 20 next week; check your local setup.", "Reminder to add runbook links to new alerts.",
    "Build times are up 30% this week, looking into it.", "Who owns the billing webhook service now?",
    "Postmortem for yesterday's incident is in the wiki, please read it.",
    "Anyone have experience with feature flag cleanup tooling?",
    "RFC for the new event bus is open for comments until Thursday.",
    "The flaky login test is quarantined, fix is in progress.",
    "Reminder: dependency update PRs need a second approver now.",
    "Our error budget for the month is half gone, so please be careful with risky deploys.",
    "Is anyone else seeing slow CI queues this morning?",
    "We're deprecating the v1 search endpoint at the end of the quarter.",
    "New linting rules land tomorrow; run the formatter before you push.",
    "Load test results for the new cache layer are in the wiki.",
    "Who can review the schema migration for the orders table?",
    "The staging database was refreshed from production last night.",
    "Tech talk Friday: how we cut cold starts in half.",
    "Please tag incident follow-ups with the reliability label.",
)
TEAM = (
    "Standup notes: {P} on track, blocked on the API review.",
    "I'll be out tomorrow afternoon for a dentist appointment.",
    "Can someone pair with me on the {P} migration?", "Sprint planning moved to Wednesday 10am.",
    "Demo went well! Leadership wants a follow-up next week.", "Reminder: code freeze for {P} starts Friday.",
    "I updated the {P} spec with the feedback from design.", "QA found two regressions in the {P} beta, tickets filed.",
    "Retro doc is ready, add your notes before Thursday.", "@{h} can you take a look at the {P} rollout plan?",
    "Moving my 1:1s to Thursday this week, sorry for the shuffle.",
    "Heads up, I'm on call this weekend, ping me if anything breaks.",
    "The {P} dashboard now shows weekly active users.",
    "I closed the stale tickets from last sprint, shout if I got one wrong.",
    "Can we push the {P} sync to the afternoon?", "Backlog grooming is at 2pm, bring your estimates.",
    "Nice work on the release notes everyone.", "I'm blocked on access to the analytics bucket, any ideas?",
    "Design handed over the new onboarding screens for {P}.", "Who wants to own the {P} documentation cleanup?",
    "Sprint goal for this week: finish the {P} import flow.", "Found the cause of the double emails, fix going out today.",
    "Team lunch on Friday, I'll book a table for noon.", "Reminder: update your tickets before standup.",
)
PROJECT = (
    "Kickoff notes for {P} are in the doc.", "Timeline for {P}: beta March 30, GA end of April.",
    "Design review for {P} is Tuesday, mocks are linked in the brief.",
    "We need a decision on the {P} pricing page by Friday.", "Customer interviews for {P} start next week.",
    "Updated the {P} tracker, three items are at risk.", "Marketing wants screenshots of {P} for the launch post.",
    "Legal signed off on the {P} terms of service.", "{P} beta sign-ups just passed 500!",
    "Support wants a short FAQ for {P} before the launch.", "The {P} onboarding email drafts are ready for review.",
    "Risk log for {P} is updated, vendor delay is the big one.", "Who is presenting {P} at the all-hands?",
    "First customer feedback on {P} is in the notes, mostly positive.", "{P} API docs are published on the dev portal.",
    "Localization for {P} is done for Spanish and German.", "We moved the {P} go/no-go meeting to Monday.",
    "Analytics events for {P} are live in staging.", "Security review for {P} found two low-severity items.",
    "The {P} demo video is cut, link in the brief.", "Pricing for {P} is final: three tiers, annual discount.",
    "Load testing for {P} starts Wednesday night.", "The {P} status page component is set up.",
    "Sales asked for a one-pager on {P}, drafting it now.", "Accessibility audit for {P} is booked for next week.",
)
INCIDENTS = (
    ":rotating_light: Elevated error rates on the checkout API, investigating.",
    "Mitigated: rolled back the last deploy, errors are back to baseline.",
    "Latency spike on search, looks like a noisy neighbour on the cache cluster.",
    "Incident closed, postmortem owner: @{h}.",
    ":rotating_light: Login failures for some SSO customers, investigating.",
    "Queue backlog on the email worker is growing, scaling it up.", "Status page updated with the latest on the outage.",
    ":rotating_light: Payments webhook deliveries are delayed by about 10 minutes.",
)
DEPLOYS = ("Deployed web@{sha} to production by @{h}", "Deployed api@{sha} to staging by @{h}",
           "Rollback of api@{sha} completed", "Deployed mobile-config@{sha} to production by @{h}")
PAGER = ("Triggered: disk usage above 90% on reporting-db-2", "Resolved: p95 latency on search-api back under 300ms",
         "Triggered: error rate above 2% on checkout-api")
HELP_IT = ("My laptop won't connect to the VPN after the update, any ideas?",
           "How do I get access to the design team's Figma?", "Printer on 4 is jammed again.",
           "IT: new laptop orders now take 2 weeks, plan ahead.", "Is there a way to request a second monitor?",
           "Zoom keeps crashing when I share my screen, anyone else?", "How do I reset my SSO password?",
           "The meeting room TV on 3 won't find the HDMI input.", "Can someone add me to the engineering email list?")
OFFICE = ("Parking garage will be closed Saturday.", "New snacks in the kitchen!",
          "Building wifi maintenance tonight at 10pm.", "Who's coming into the office on Wednesday?",
          "Package room moved to the 1st floor.", "The 2nd floor kitchen is being cleaned at 3pm today.",
          "Fire drill on Thursday morning, please join.", "Bike racks are full again, the garage has spaces.")
SALES = (":tada: Closed {company}, 200 seats!", "Renewal with {company} signed for 2 years.",
         "Big demo with {company} tomorrow, any product folks free to join?",
         "{company} asked about SSO support - who can help?", "Signed {company} after a three-month pilot!",
         "Expansion with {company}: 50 more seats.", "{company} renewed early with a multi-year deal.")
SOCIAL_TEXT = ("Saturday run: 8am at the park, 5 or 10k.", "Next book is picked, meeting on the 30th!",
               "Sharing a picture of my cat napping on my keyboard :cat:", "New ramen place on Main Street is great.",
               "Anyone going to the concert next Friday?", "Daycare recommendations near the office?",
               "Photos from Saturday's meetup are in the album.", "Who's in for the climbing gym on Tuesday?",
               "The potluck sign-up sheet is pinned.")
LEADS = ("Headcount for Q2 is confirmed: two roles for {team}.", "Performance review calibration is next Tuesday.",
         "Let's discuss the {P} staffing plan at Thursday's sync.", "Please send me your team's OKR drafts by Friday.",
         "Budget planning for next quarter kicks off Monday.", "We need one volunteer to mentor the new interns.",
         "The promotion packets are due on the 27th.", "Let's review on-call load at the next leads sync.",
         "I'd like each team to share one win at the all-hands.", "Draft of the reorg FAQ is in our folder, comments welcome.",
         "Skip-level meetings start next month; I'll send the schedule.")
HIRING = ("Candidate for the senior role has onsite on Wednesday.", "Debrief for the backend candidate at 4pm.",
          "We extended an offer to the data engineer candidate!", "Please submit scorecards within 24 hours.",
          "The product designer candidate withdrew, back to sourcing.", "Can someone cover the phone screen on Friday?",
          "New job description for the SRE role is ready for review.", "Offer accepted for the frontend role, starts in April!",
          "Reference checks for the analyst candidate are done.", "Two new applicants from the referral program this week.")
DM = ("Hey, do you have a minute to chat about {P}?", "Thanks for the review!", "Can you send me the link to the doc?",
      "Running 5 min late to our 1:1", "Sure, let's do 3pm.", "I'll take a look after lunch.",
      "Could you cover my on-call shift next Tuesday?", "Nice job in the demo today!",
      "Do you still need the test account?", "Got your message, will reply after standup.",
      "Want to grab coffee this afternoon?", "I left comments on your doc.", "Can we move our 1:1 to Thursday?",
      "Here are my notes from the customer call.", "Thanks for covering for me yesterday!",
      "Did you get a chance to look at the {P} estimate?", "Are you going to the offsite?",
      "I'm out Friday, can you handle the release?", "Quick question about the {P} API when you have a sec.",
      "Lunch today?", "Congrats on the promotion!", "Sent you the invite for Wednesday.",
      "Can you proofread my slides before 4?", "Do you know who approves travel requests?",
      "The build is green again, you can merge.", "Free for a quick call in 10?", "Happy to help with the interview loop.",
      "Where did we land on the vendor contract?", "My train is delayed, starting a bit late today.",
      "Let me know when the PR is ready for another look.", "Could you share the recording from yesterday?",
      "I'll bring the cables for the demo room.")
# A message of the user's with a typo they have yet to fix, and how it should read: what
# edit_message corrects (an edit that rewrites a message into something unrelated makes no sense).
TYPO, TYPO_FIXED = "Retro is on Thursady at 3pm in the big room.", "Retro is on Thursday at 3pm in the big room."
# Replies in a thread, by what they answer: an alert, a question, or anything else said.
ALERT_REPLIES = ("On it.", "Looking into it now.", "Ack, watching the dashboards.",
                 "Is this related to the last deploy?", "I'll follow up offline.")
QUESTION_REPLIES = ("Can you share more details?", "Let me take a look.", "Not sure, let me check.",
                    "Let's discuss at standup.", "I'll follow up offline.")
REPLIES = ("+1", "Thanks!", "Good call.", "Agreed, let's do that.", "Noted, thanks.", "Sounds good.",
           "Thanks for the heads-up.")
STATUSES = (("On vacation", "palm_tree"), ("Out sick", "face_with_thermometer"),
            ("Working remotely", "house_with_garden"),
            ("In a meeting", "spiral_calendar_pad"), ("Commuting", "bus"), ("Focusing", "headphones"))


def replies_to(text: str, alert: bool = False) -> tuple[str, ...]:
    """The replies that fit a message: an alert (any message in the incidents channel) is
    acknowledged, a question answered or asked back."""
    if alert:
        return ALERT_REPLIES
    return QUESTION_REPLIES if text.rstrip().endswith("?") else REPLIES


FIRST_DAY = date(2026, 3, 2)  # two working weeks before the epoch


def build_world(w: WorldGen) -> dict[str, list[dict[str, Any]]]:
    rng, fake = w.rng, w.fake
    now = w.now
    company = fake.company()
    domain = "".join(ch for ch in company.lower() if ch.isalnum()) + ".com"
    team = rng.choice(TEAMS)
    projects = rng.sample(PROJECTS, 4)
    home = fake.city("US")

    # ----- people ----------------------------------------------------------------------------------
    users: list[dict[str, Any]] = []
    handles: set[str] = set()

    def user(name: str, title: str | None, *, me: bool = False, admin: bool = False, bot: bool = False,
             active: bool = True, handle: str | None = None) -> str:
        uid = w.new_id("USR")
        base = handle or name.lower().replace(" ", ".").replace("'", "")
        h, n = base, 2
        while h in handles:
            h, n = f"{base}{n}", n + 1
        handles.add(h)
        tz = home.timezone if rng.random() < 0.75 or bot or me else fake.city().timezone
        users.append({"user_id": uid, "handle": h, "name": name, "title": title,
                      "email": f"{h}@{domain}" if not bot else f"{h}@bots.{domain}", "timezone": tz,
                      "is_me": int(me), "is_admin": int(admin), "is_bot": int(bot), "is_active": int(active),
                      "status_text": None, "status_emoji": None, "status_expires_at": None})
        return uid

    people = fake.people(46)
    me = user(people[0].name, rng.choice(("Senior Software Engineer", "Product Manager", "Staff Engineer",
                                          "Engineering Manager")), me=True)
    boss = user(people[1].name, "Engineering Manager", admin=True)
    teammates = [user(p.name, rng.choice(TITLES[:9])) for p in people[2:2 + rng.randint(5, 7)]]
    others = [user(p.name, rng.choice(TITLES), admin=i < 2) for i, p in enumerate(people[9:9 + rng.randint(22, 30)])]
    gone = [user(p.name, rng.choice(TITLES), active=False) for p in people[40:42]]
    slackbot = user("Slackbot", None, bot=True, handle="slackbot")
    deploybot = user("Deploy Bot", None, bot=True, handle="deploybot")
    pager = user("PagerDuty", None, bot=True, handle="pagerduty")
    humans = [boss, *teammates, *others]
    handle = {u["user_id"]: u["handle"] for u in users}
    colleagues = [me, *humans]

    away: set[str] = set()  # on vacation or out sick: they post nothing today
    for uid, (text, emoji), until in ((rng.choice(others), STATUSES[0], iso(datetime(2026, 3, 23, 9, 0))),
                                      (rng.choice(teammates), STATUSES[1], None),
                                      (rng.choice(others), STATUSES[2], iso(datetime(2026, 3, 16, 18, 0))),
                                      (rng.choice(humans), STATUSES[4], iso(datetime(2026, 3, 16, 9, 45)))):
        row = next(u for u in users if u["user_id"] == uid)
        row.update(status_text=text, status_emoji=emoji, status_expires_at=until)
        if emoji in ("palm_tree", "face_with_thermometer"):
            away.add(uid)
    if rng.random() < 0.6:
        row = next(u for u in users if u["user_id"] == me)
        row.update(status_text="Focusing", status_emoji="headphones",
                   status_expires_at=iso(datetime(2026, 3, 16, 11, 0)))

    # ----- channels and members -----------------------------------------------------------------
    channels: list[dict[str, Any]] = []
    members: dict[str, list[str]] = {}

    def channel(name: str, kind: str, who: list[str], *, topic: str | None = None, purpose: str | None = None,
                archived: bool = False, default: bool = False, posting: str = "everyone", by: str | None = None,
                prefix: str = "CHN") -> str:
        cid = w.new_id(prefix)
        channels.append({"channel_id": cid, "name": name, "kind": kind, "topic": topic, "purpose": purpose,
                         "created_by": by or rng.choice(who), "created_at": iso(datetime(rng.randint(2021, 2025),
                         rng.randint(1, 12), rng.randint(1, 28), 10, 0)), "is_archived": int(archived),
                         "is_default": int(default), "posting": posting})
        members[cid] = list(dict.fromkeys(who))
        return cid

    def some(pool: list[str], lo: float, hi: float) -> list[str]:
        return rng.sample(pool, max(2, int(len(pool) * rng.uniform(lo, hi))))

    everyone = [me, *humans]
    spec: list[tuple[str, tuple[str, ...], int]] = []  # (channel, texts, how many messages)
    general = channel("general", "public", everyone, topic="Company-wide announcements and news", default=True, by=boss)
    spec.append((general, GENERAL, rng.randint(8, 12)))
    random_ = channel("random", "public", [me, *some(humans, 0.6, 0.9)], topic="Anything that isn't work",
                      purpose="Non-work banter and water cooler")
    spec.append((random_, RANDOM, rng.randint(12, 18)))
    announce = channel("announcements", "public", everyone, topic="Official announcements (admins post)",
                       posting="admins", by=boss)
    spec.append((announce, GENERAL, rng.randint(3, 5)))
    eng = channel("engineering", "public", [me, boss, *teammates, *some(others, 0.4, 0.6)],
                  topic="Engineering discussion, RFCs and questions")
    spec.append((eng, ENGINEERING, rng.randint(14, 20)))
    team_ch = channel(f"team-{team}", "public", [me, boss, *teammates], topic=f"{team.title()} team: standups, plans",
                      by=boss)
    spec.append((team_ch, TEAM, rng.randint(18, 24)))
    proj_ids = []
    for i, p in enumerate(projects[:3]):
        crew = [*some(teammates, 0.3, 0.7), *some(others, 0.1, 0.25)] + ([me] if i < 2 else [])
        cid = channel(f"proj-{p}", "public", crew, topic=f"Project {p.title()}",
                      purpose=f"Everything about {p.title()}")
        proj_ids.append(cid)
        spec.append((cid, PROJECT, rng.randint(5, 7)))
    inc = channel("incidents", "public", [me, boss, *some([*teammates, *others], 0.4, 0.6), pager],
                  topic="Active incidents. Use threads for updates.")
    spec.append((inc, INCIDENTS, rng.randint(5, 8)))
    watchers = some([*teammates, *others], 0.3, 0.5) + ([me] if rng.random() < 0.5 else [])
    deploys = channel("deploys", "public", [deploybot, *watchers],
                      topic="Automated deploy notifications", by=boss)
    spec.append((deploys, DEPLOYS, rng.randint(14, 20)))
    helpit = channel("help-it", "public", [me, *some(humans, 0.5, 0.8)], topic="Ask IT anything")
    spec.append((helpit, HELP_IT, rng.randint(5, 8)))
    office = channel(f"office-{home.name.lower().replace(' ', '-')}", "public", some(everyone, 0.4, 0.7),
                     topic=f"The {home.name} office")
    spec.append((office, OFFICE, rng.randint(4, 7)))
    sales = channel("sales-wins", "public", some(others, 0.3, 0.5), topic="Celebrate closed deals")
    spec.append((sales, SALES, rng.randint(4, 7)))
    club = rng.choice(SOCIAL)
    social = channel(club, "public", some(humans, 0.15, 0.3), topic=f"Meetups and chat for the {club.replace('-', ' ')}",
                     purpose=f"For the {club.replace('-', ' ')}")
    spec.append((social, SOCIAL_TEXT, rng.randint(4, 7)))
    old = channel(f"proj-{projects[3]}", "public", [me, *some(teammates, 0.4, 0.8)], archived=True,
                  topic=f"Project {projects[3].title()} (shipped)")
    spec.append((old, PROJECT, 3))
    project_of = {cid: p for cid, p in zip([*proj_ids, old], projects)}
    channel("offsite-2025", "public", some(everyone, 0.3, 0.5), archived=True, topic="Planning the 2025 offsite")
    leads = channel(f"{team}-leads", "private", [me, boss, *rng.sample(teammates, 2)], topic="Leads only", by=boss)
    spec.append((leads, LEADS, rng.randint(4, 7)))
    hiring = channel(f"hiring-{team}", "private", [me, boss, *rng.sample(others, 2)], topic="Candidate pipeline")
    spec.append((hiring, HIRING, rng.randint(4, 6)))
    secret1 = channel("exec-staff", "private", [boss, *rng.sample(others, 4)], topic="Exec staff", by=boss)
    spec.append((secret1, LEADS, 3))
    secret2 = channel("people-ops", "private", rng.sample(others, 3), topic="HR and people operations")
    spec.append((secret2, HIRING, 3))
    dm_with = rng.sample([boss, *teammates, *others[:6]], rng.randint(5, 8))
    name_of = {u["user_id"]: u["name"] for u in users}
    for other in dm_with:
        cid = channel(name_of[other], "dm", [me, other], by=me, prefix="DM")
        spec.append((cid, DM, rng.randint(2, 4)))
    bot_dm = channel("Slackbot", "dm", [me, slackbot], by=slackbot, prefix="DM")
    # a former colleague's DM: read-only (archived) since their account was deactivated
    spec.append((channel(name_of[gone[0]], "dm", [me, gone[0]], by=gone[0], prefix="DM", archived=True), DM, 3))

    # ----- messages -----------------------------------------------------------------------------------
    msgs: list[dict[str, Any]] = []
    reactions: set[tuple[str, str, str]] = set()
    mention_rows: set[tuple[str, str]] = set()
    workdays = [FIRST_DAY + timedelta(days=i) for i in range(14) if (FIRST_DAY + timedelta(days=i)).weekday() < 5]

    def when() -> datetime:
        day = rng.choice(workdays + [now.date()])
        start, end = (8 * 60, 9 * 60) if day == now.date() else (8 * 60 + 30, 18 * 60 + 30)
        return datetime.combine(day, time()) + timedelta(minutes=rng.randrange(start, end))

    def fill(text: str, author: str, pool: list[str], project: str | None = None) -> tuple[str, list[str]]:
        """A line filled in; in a project's channel `project` is the project it talks about."""
        others_ = [u for u in pool if u != author and u in colleagues] or [me]
        target = me if "@{h}" in text and rng.random() < 0.4 else rng.choice(others_)
        drawn = rng.choice(projects)
        out = text.format(h=handle[target], P=(project or drawn).title(), team=team.title(), topic=rng.choice(TOPICS),
                          city=home.name, n=rng.randint(1200, 4800), company=fake.company(),
                          sha=fake.code(7, "0123456789abcdef"))
        return out, [target] if "@{h}" in text else []

    unsaid: dict[int, list[str]] = {}
    for cid, texts, count in spec:
        pool = members[cid]
        kind = next(c["kind"] for c in channels if c["channel_id"] == cid)
        authors = [deploybot] if texts is DEPLOYS else [u for u in pool if u in colleagues or u in gone] or [me]
        if cid == announce:
            authors = [u for u in pool if u == boss or next(x for x in users if x["user_id"] == u)["is_admin"]]
        unused = unsaid.setdefault(id(texts), [])  # each line is said once (by anyone) before any comes again
        for _ in range(count):
            at = when()
            author = rng.choice(authors)
            if author in away and at.date() == now.date():
                at -= timedelta(days=3)  # posted on Friday instead
            if cid == inc and rng.random() < 0.3:
                author, text, mentioned = pager, rng.choice(PAGER), []
            else:
                unused.extend(() if unused else texts)
                line = rng.choice(unused)
                unused.remove(line)
                text, mentioned = fill(line, author, pool, project_of.get(cid))
            if kind != "dm" and rng.random() < 0.06 and author in humans and "@" not in text:
                text = f"@{handle[me]} {text}"  # as written: "I'll be out", "QA found", never "i'll", "qA"
                mentioned = [*mentioned, me]
            mid = {"channel_id": cid, "user_id": author, "text": text, "at": at, "thread": None, "in_channel": 1,
                   "mentions": mentioned, "broadcast": int(texts is GENERAL and rng.random() < 0.2),
                   "pinned": False}
            if mid["broadcast"]:
                mid["text"] = "@channel " + text
            msgs.append(mid)
            if kind != "dm" and texts is not DEPLOYS and rng.random() < 0.28:  # a thread
                t = at
                for _ in range(rng.randint(1, 5)):
                    t += timedelta(minutes=rng.randint(2, 90))
                    if t >= now:
                        break
                    replier = rng.choice([a for a in authors if a not in away] or authors)
                    said = rng.choice(replies_to(text, cid == inc))
                    msgs.append({"channel_id": cid, "user_id": replier, "text": said, "at": t, "thread": mid,
                                 "in_channel": int(rng.random() < 0.05), "mentions": [], "broadcast": 0,
                                 "pinned": False})
            people_here = [u for u in pool if u in colleagues] or [me]
            if rng.random() < 0.3:
                for _ in range(rng.randint(1, 4)):
                    mid.setdefault("reacts", []).append((rng.choice(EMOJI), rng.choice(people_here)))
            if kind != "dm" and rng.random() < 0.05:
                mid["pinned"] = True
    said_in_general = [m for m in msgs if m["channel_id"] == general and m["thread"] is None]
    if not any(m["pinned"] for m in said_in_general):  # #general always keeps something pinned
        rng.choice(said_in_general)["pinned"] = True

    # Slackbot reminders already delivered, and an old DM from a former colleague
    for at, text in ((datetime(2026, 3, 5, 14, 0), "Reminder: submit the expense report."),
                     (datetime(2026, 3, 11, 9, 30), "Reminder: review the Q2 roadmap draft.")):
        msgs.append({"channel_id": bot_dm, "user_id": slackbot, "text": text, "at": at, "thread": None, "in_channel": 1,
                     "mentions": [], "broadcast": 0, "pinned": False})

    msgs.sort(key=lambda m: m["at"])
    rows = []
    for m in msgs:
        m["id"] = w.new_id("CM")
    for m in msgs:
        if m["at"] >= now:
            m["at"] = now - timedelta(minutes=rng.randint(1, 30))
        rows.append({"message_id": m["id"], "channel_id": m["channel_id"], "user_id": m["user_id"], "text": m["text"],
                     "posted_at": iso(m["at"]), "thread_id": m["thread"]["id"] if m["thread"] else None,
                     "in_channel": m["in_channel"] if m["thread"] else 1, "edited_at": None, "is_deleted": 0,
                     "mentions_channel": m["broadcast"],
                     "pinned_by": rng.choice([u for u in members[m["channel_id"]] if u in colleagues] or [me])
                     if m["pinned"] else None,
                     "pinned_at": iso(m["at"] + timedelta(hours=1)) if m["pinned"] else None})
        for emoji, who in m.get("reacts", []):
            reactions.add((m["id"], emoji, who))
        for u in m["mentions"]:
            mention_rows.add((m["id"], u))
    if rows:  # one message of the user's that they edited, one colleague's that was deleted
        mine = [r for r in rows if r["user_id"] == me and r["thread_id"] is None]
        if mine:
            r = rng.choice(mine)
            r["edited_at"] = iso(datetime.fromisoformat(r["posted_at"]) + timedelta(minutes=3))
        roots = {r["thread_id"] for r in rows}
        theirs = [r for r in rows if r["user_id"] in others and r["thread_id"] is None and not r["pinned_by"]
                  and r["message_id"] not in roots and not any(m[0] == r["message_id"] for m in reactions)]
        if theirs:
            r = rng.choice(theirs)
            r["is_deleted"], r["text"] = 1, ""
            mention_rows = {m for m in mention_rows if m[0] != r["message_id"]}

    # the user's last post before the weekend, with a typo (no draw: everything else stays as it was)
    rows.append({"message_id": w.new_id("CM"), "channel_id": team_ch, "user_id": me, "text": TYPO,
                 "posted_at": iso(datetime(2026, 3, 13, 16, 45)), "thread_id": None, "in_channel": 1,
                 "edited_at": None, "is_deleted": 0, "mentions_channel": 0, "pinned_by": None, "pinned_at": None})

    # ----- read positions -----------------------------------------------------------------------------
    member_rows = []
    friday = iso(datetime(2026, 3, 13, 17, 30))
    for c in channels:
        for u in members[c["channel_id"]]:
            if u == me:
                read = rng.choice((friday, friday, iso(now - timedelta(minutes=rng.randint(5, 40))),
                                   iso(datetime(2026, 3, 12, 16, 0))))
            else:
                read = iso(now - timedelta(hours=rng.randint(0, 60)))
            member_rows.append({"channel_id": c["channel_id"], "user_id": u, "joined_at": c["created_at"],
                                "last_read_at": read})

    # ----- scheduled messages, reminders, what is still to come --------------------------------------
    scheduled = [{"scheduled_id": w.new_id("SCH"), "channel_id": team_ch,
                  "text": f"Morning all! Reminder that the {projects[0].title()} demo is at 2pm today.",
                  "post_at": iso(datetime(2026, 3, 17, 9, 30)), "status": "pending", "message_id": None,
                  "created_at": iso(datetime(2026, 3, 13, 16, 12))}]
    reminders = [
        {"reminder_id": w.new_id("REM"), "text": "Submit the expense report", "remind_at": "2026-03-05T14:00:00",
         "message_id": None, "status": "done", "created_at": "2026-03-04T10:00:00"},
        {"reminder_id": w.new_id("REM"), "text": "Review the Q2 roadmap draft", "remind_at": "2026-03-11T09:30:00",
         "message_id": None, "status": "done", "created_at": "2026-03-10T17:00:00"},
        {"reminder_id": w.new_id("REM"), "text": "Send the weekly update to the team",
         "remind_at": iso(datetime(2026, 3, 16, 14, 0)), "message_id": None, "status": "pending",
         "created_at": "2026-03-13T11:00:00"},
        {"reminder_id": w.new_id("REM"), "text": f"Follow up on the {projects[1].title()} pricing decision",
         "remind_at": iso(datetime(2026, 3, 18, 10, 0)), "message_id": None, "status": "pending",
         "created_at": "2026-03-12T15:30:00"},
    ]
    upcoming = []

    def later(cid: str, uid: str, text: str, at: datetime, thread: str | None = None) -> None:
        upcoming.append({"upcoming_id": w.new_id("UPC"), "channel_id": cid, "user_id": uid, "text": text,
                         "post_at": iso(at), "thread_id": thread})

    later(team_ch, boss, f"@{handle[me]} can you give a quick {projects[0].title()} status at standup?",
          now + timedelta(minutes=rng.randint(15, 50)))
    later(general, boss, "Reminder: all-hands is Thursday at 4pm. Bring your questions!",
          now + timedelta(hours=rng.randint(1, 5)))
    my_roots = [r for r in rows if r["user_id"] == me and r["thread_id"] is None
                and r["channel_id"] in (team_ch, eng, *proj_ids[:2])]
    for r in rng.sample(my_roots, min(2, len(my_roots))):
        later(r["channel_id"], rng.choice(teammates), rng.choice(replies_to(r["text"])),
              now + timedelta(hours=rng.randint(1, 30)), thread=r["message_id"])
    for other in dm_with[:2]:
        later(next(c["channel_id"] for c in channels if c["kind"] == "dm" and other in members[c["channel_id"]]
                   and me in members[c["channel_id"]]), other, fill(rng.choice(DM), other, [me, other])[0],
              now + timedelta(hours=rng.randint(1, 50)))
    for cid, texts in ((eng, ENGINEERING), (random_, RANDOM), (inc, INCIDENTS), (proj_ids[0], PROJECT),
                       (team_ch, TEAM)):
        for _ in range(rng.randint(1, 3)):
            author = rng.choice([u for u in members[cid] if u in humans])
            later(cid, author, fill(rng.choice(texts), author, members[cid], project_of.get(cid))[0],
                  now + timedelta(hours=rng.randint(1, 72), minutes=rng.randint(0, 59)))
    later(old, rng.choice(teammates), "Anyone know where the old dashboards went?", now + timedelta(hours=26))
    upcoming.sort(key=lambda u: u["post_at"])

    return {
        "users": users,
        "channels": channels,
        "members": member_rows,
        "messages": rows,
        "reactions": [{"message_id": m, "emoji": e, "user_id": u} for m, e, u in sorted(reactions)],
        "mentions": [{"message_id": m, "user_id": u} for m, u in sorted(mention_rows)],
        "scheduled_messages": scheduled,
        "reminders": reminders,
        "upcoming": upcoming,
    }
