"""How the work servers read (calendar, crm, email, issue tracker, team chat, video meetings):
requests whose words fit their values, nameless things said by what they belong to, and replies
that answer what was asked, read off synthesized examples and off the tools' replies."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from datetime import date, timedelta

from prove.env import Session, registry
from prove.env.asks import as_ask
from prove.synth.phrasing import Phrasing, tidy
from prove.synth.results import describe, field_text
from prove.synth.sampler import Sampler
from prove.synth.teachers.programmatic import _head_words
from prove.synth.values import day
from prove.synth.wording import Wording

from .test_reads_rest import _generated, _index, _replies, _turn_users, _turns


def _phrasing(server: str, world: int = 0) -> Phrasing:
    spec = registry.get(server)
    return Phrasing(spec, Sampler(spec, world, [world]).context(world), _index(server, world), Wording(random.Random(0)))


def _answers(server: str, tool: str, args: dict, asked: str, world: int = 0) -> list[str]:
    """The replies the teacher gives a read asked in these words."""
    from prove.synth.teachers.programmatic import _fitting_replies

    spec = registry.get(server)
    with Session([spec], world=world) as session:
        result = session.call(tool, dict(args))
    assert result.ok, result.error
    say = _phrasing(server, world)
    tool_spec = spec.tools[tool]
    return [say.reply(tool_spec, r.text, args, result.data, {})
            for r in _fitting_replies(tool_spec, args, result.data, asked)]


def test_one_thing_found_is_counted_as_one() -> None:
    """"1 issue match: WEB-10038 '...'" counts one thing found with a verb for many."""
    for server in ("calendar", "email", "issue_tracker", "team_chat"):
        for tool in registry.get(server).tools.values():
            for reply in tool.replies:
                assert not re.search(r"\{result\.total\} \w+s match\b", reply.text), (tool.name, reply.text)


def test_done_opens_one_account_of_a_reply_not_each() -> None:
    """"Done: the email 'Re: Orion launch plan' is in the trash. Done: the email ... went to ..."."""
    from prove.synth.teachers.programmatic import joined

    said = joined(["Done: the email 'A' is in the trash.", "Sent 'B' to Ana.", "Done: you're in the channel 'x'.",
                   "Done: ana@x.com is copied.", "Done: Anna Chen can see it.", "Done: 'Focus' repeats daily."])
    assert said == "Done: the email 'A' is in the trash. Sent 'B' to Ana. You're in the channel 'x'. " \
                   "Done: ana@x.com is copied. Anna Chen can see it. 'Focus' repeats daily.", said


def test_a_change_is_reported_by_what_it_changed_not_by_a_pronoun() -> None:
    """"Deleted the message. Done: that message won't go out.": a reply said after another one in the
    same message names what it changed; "it", "that message" or "the message" reads as the last thing."""
    for server in ("email", "filesystem", "iot_devices", "social_media", "team_chat", "video_meeting"):
        for tool in registry.get(server).tools.values():
            for reply in tool.replies:
                assert not re.match(r"(?:Done: )?(?:[Ii]t(?:'s)?|[Tt]hat \w+|[Tt]he (?:message|post|comment))\b",
                                    reply.text), \
                    (tool.name, reply.text)
                assert reply.text != "Deleted the message.", tool.name


# ----- calendar ------------------------------------------------------------------------------------------


def test_weekends_are_welcome_only_in_a_window_that_holds_one() -> None:
    """"Find 30 minutes for Emily Richardson and me from March 17 at 9:00 AM to March 19 at 5:00 PM;
    weekends are fine." searches Tuesday to Thursday: the words (and the option) say nothing."""
    calls = [call["arguments"] for call, _, _ in _turns("calendar", "find_free_slots", 150, 11)]
    weekend = [a for a in calls if a.get("include_weekends")]
    assert weekend
    for a in weekend:
        first, last = date.fromisoformat(a["start"][:10]), date.fromisoformat(a["end"][:10])
        days = [first + timedelta(days=n) for n in range((last - first).days + 1)]
        assert any(d.weekday() >= 5 for d in days), a


def test_a_colleagues_calendar_is_not_quoted_as_a_calendar() -> None:
    """"Pop up a reminder 30 minutes before the event 'Polaris kickoff' in the calendar 'Valentina
    Young's calendar'": a colleague's calendar is named as their calendar, once."""
    assert tidy("Remind me of the event 'Polaris kickoff' in the calendar 'Valentina Young's calendar'.") == \
        "Remind me of the event 'Polaris kickoff' in Valentina Young's calendar."
    assert tidy("Book it on the calendar 'Team offsite'.") == "Book it on the calendar 'Team offsite'."


def test_an_event_nobody_else_was_invited_to_is_cancelled_without_attendees() -> None:
    """"Cancelled 'Spanish lesson'; the attendees will see it's off." of an event with nobody invited."""
    with Session(["calendar"], world=0) as session:
        alone = next(k for k in _index("calendar").rows["event"]
                     if (r := session.call("get_event", {"event_id": k})).ok and not r.data["attendees"]
                     and r.data["my_response"] == "organizer" and r.data["status"] == "confirmed"
                     and r.data["start"] > "2026-03-16T09:00")
        invited = next(k for k in _index("calendar").rows["event"]
                       if (r := session.call("get_event", {"event_id": k})).ok and r.data["attendees"]
                       and r.data["my_response"] == "organizer" and r.data["status"] == "confirmed"
                       and r.data["start"] > "2026-03-16T09:00")
    for text in _replies("calendar", "cancel_event", {"event_id": alone}):
        assert "attendees" not in text, text
    assert any("attendees" in text for text in _replies("calendar", "cancel_event", {"event_id": invited}))


def test_a_work_series_goes_on_the_work_calendar() -> None:
    """"Put a weekly 'Running club' on the Interview Panel calendar", "'Yoga class' ... on the Work
    calendar": a new series is a work meeting, booked on the user's work calendar."""
    seen = 0
    for ex in _generated("calendar", 150, 11):
        calendars = _index("calendar", ex["meta"]["world"]).every["calendar"]
        for turn in ex["turns"]:
            for call in turn["calls"]:
                if call["name"] == "create_recurring_event":
                    seen += 1
                    assert calendars[call["arguments"]["calendar_id"]]["name"] == "Work", call
                    assert call["arguments"]["title"] not in ("Yoga class", "Spanish lesson", "Running club"), call
    assert seen


def test_a_one_on_one_is_not_booked_with_several_people() -> None:
    """"Set up a meeting called '1:1 with my manager' with Zoe Baker and Carlos White": a title that
    says whom the meeting is with is not drawn apart from the people invited."""
    calls = [call["arguments"] for call, _, _ in _turns("calendar", "create_event", 200, 11)]
    assert any(a.get("attendees") for a in calls)
    for a in calls:
        assert not a["title"].startswith("1:1"), a


def test_working_hours_end_after_they_start() -> None:
    """"When could I meet Abigail Park ... during 9:00 AM to 8:30 AM each day?" has working hours
    that end before they start; "9:00 AM to 9:30 AM" holds no hour-long meeting."""
    calls = [call["arguments"] for call, _, _ in _turns("calendar", "find_free_slots", 150, 11)]
    hours = [a for a in calls if "day_start" in a]
    assert hours
    for a in hours:
        (h1, m1), (h2, m2) = (map(int, a["day_start"].split(":")), map(int, a["day_end"].split(":")))
        assert (h2 * 60 + m2) - (h1 * 60 + m1) >= max(180, a["duration_minutes"]), a


def test_a_series_title_fits_every_frequency_a_phrasing_gives_it() -> None:
    """"Create a daily 'Weekly 1:1' ..." names a frequency the call contradicts: a phrasing fixes the
    frequency and the title is drawn apart from it, so no title may name a frequency at all."""
    spec = registry.get("calendar").tools["create_recurring_event"]
    assert {a.binds.get("frequency") for a in spec.asks if hasattr(a, "binds")} >= {"daily", "weekly"}
    titles = [row[0] for row in spec.values["title, location, description"]]
    for title in titles:
        assert not re.search(r"\b(daily|weekly|monthly|yearly|annual|1:1)\b", title, re.I), title
    calls = [call["arguments"] for call, _, _ in _turns("calendar", "create_recurring_event", 240, 11)]
    assert {a["title"] for a in calls} <= set(titles) and {a.get("frequency", "weekly") for a in calls} == {"daily", "weekly"}


def test_a_new_event_is_booked_on_a_calendar_said_as_one() -> None:
    """"Booked 'Launch readiness check' on Work on March 27" reads a calendar's bare name."""
    work = next(k for k, r in _index("calendar").rows["calendar"].items() if r["name"] == "Work")
    args = {"calendar_id": work, "title": "Launch readiness check", "start": "2026-03-27T09:00:00",
            "end": "2026-03-27T10:00:00"}
    texts = _replies("calendar", "create_event", args)
    assert any(t.startswith("Booked") for t in texts)
    for text in texts:
        assert " on Work " not in text, text


def test_an_event_is_read_out_as_a_person_says_it() -> None:
    """"Checkout weekly sync: May 6, 11:00 AM to 11:45 AM, confirmed, calendar Checkout Team, ...; 6
    attendees: Adrian Lopez: email adrian.lopez@..., accepted; Alice Campbell: ..." reads fields and
    names the user among the attendees; a person says when, where and who is coming."""
    index = _index("calendar")
    user = next(r for r in index.rows["person"].values() if r["is_me"])
    events = [k for k, r in index.rows["event"].items() if r["location"]][:40:4]
    for event in events:
        texts = _replies("calendar", "get_event", {"event_id": event})
        for text in texts:
            assert user["name"] not in text and "@" not in text, text
            assert not re.search(r"\b(email|location|organizer|show as|attendees|confirmed)\b", text), text
        assert any(re.search(r"\b(you organize it|organizes it)\b", t) for t in texts), texts
        assert any(re.search(r"\b(on (Zoom|Google Meet|Microsoft Teams)|in Room|at the)\b", t) for t in texts), texts


def test_a_calendar_listing_says_each_day_once() -> None:
    """"32 events: Stand-up: March 17, 9:30 AM to 9:45 AM, location Microsoft Teams, organizer ..., you
    accepted; ..." reads field by field; a person says a day and what is on it."""
    args = {"start": "2026-03-17T00:00:00", "end": "2026-03-20T00:00:00"}
    for tool in ("list_events", "search_events"):
        for text in _replies("calendar", tool, args if tool == "list_events" else {"query": "sync"}):
            assert not re.search(r"\b(location|organizer|you accepted|confirmed)\b|: \d+ events|events: ", text), text
            assert re.search(r"[A-Z][a-z]+ \d+: '", text), text
    for text in _replies("calendar", "list_events", args):
        assert text.count("March 17:") == 1, text


def test_a_meeting_place_is_said_with_its_own_word() -> None:
    """"Book 'Launch readiness check' at Google Meet" and "now takes place at Zoom": a call is on Zoom,
    a meeting in a room; the words put the location where no preposition is needed."""
    spec = registry.get("calendar")
    for tool in ("create_event", "update_event"):
        for phrase in [a.text for a in spec.tools[tool].asks] + [r.text for r in spec.tools[tool].replies]:
            assert not re.search(r"\b(at|in|on) \{location\}", phrase), phrase


def test_slots_invitations_and_reminders_read_as_a_person_says_them() -> None:
    """"13 slots in all; 5 of them: March 17, 9:00 AM to 9:15 AM; ...", "66 invitations in all; 5 of them:
    1:1 Adam / Rafael: March 16, 2:00 PM to 2:30 PM, organizer Rafael Taylor" and "26 reminders: Polaris
    design review: event start March 17 at 12:00 PM, 15 minutes before" read field by field."""
    colleagues = [k for k, r in _index("calendar").rows["person"].items() if r["is_colleague"] and not r["is_me"]][:2]
    calls = [("find_free_slots", {"people": colleagues[:1], "duration_minutes": 15, "start": "2026-03-17T09:00:00",
                                  "end": "2026-03-17T17:00:00", "include_me": False}),
             ("find_free_slots", {"people": colleagues, "duration_minutes": 60, "start": "2026-03-23T09:00:00",
                                  "end": "2026-03-27T17:00:00"}),
             ("list_invitations", {}), ("list_invitations", {"response": "accepted"}), ("list_reminders", {})]
    for tool, args in calls:
        for text in _replies("calendar", tool, args):
            assert not re.search(r"\b(in all|organizer|event start)\b|; \d+ of them|\d{2} [AP]M to [A-Z]", text), (tool, text)
            assert not re.search(r" and [^;,]+ and \d+ more", text), (tool, text)


def test_a_shared_calendar_is_said_as_one() -> None:
    """"Done: Jack Phillips now has edit access to Personal." reads a calendar's bare name."""
    index = _index("calendar")
    personal = next(k for k, r in index.rows["calendar"].items() if r["name"] == "Personal")
    colleague = next(k for k, r in index.rows["person"].items() if r["is_colleague"] and not r["is_me"])
    for permission in ("read", "write", "free_busy"):
        args = {"calendar_id": personal, "person_id": colleague, "permission": permission}
        for text in _replies("calendar", "share_calendar", args):
            assert "the Personal calendar" in text, text


def test_a_whole_series_is_asked_of_an_event_in_one() -> None:
    """"Decline the event 'Interview: Anika Gonzalez' and all the following meetings in that series"
    of a one-off event: the words say more than the call does."""
    series = 0
    for ex in _generated("calendar", 150, 11):
        events = _index("calendar", ex["world"]).rows["event"]
        for call in (c for turn in ex["turns"] for c in turn["calls"]):
            if call["arguments"].get("whole_series") and call["arguments"]["event_id"] in events:
                series += 1
                assert events[call["arguments"]["event_id"]]["series_id"], (ex["id"], call)
    assert series



def test_a_series_stopped_from_a_day_reads_without_a_bare_count() -> None:
    """"Cancelled 6 meetings of 'Spanish lesson' from March 23 at 9:30 AM on; still on the calendar
    before then: 1."."""
    said = [r for _, _, r in _turns("calendar", "cancel_series", 240, 5)]
    assert said
    for reply in said:
        assert not re.search(r": \d+\.", reply), reply


def test_one_reminder_on_an_event_is_said_as_one() -> None:
    """"1 reminder: Stand-up: event start April 21 at 9:30 AM, 15 minutes before, method popup, fires
    April 21 at 9:15 AM."."""
    with Session(["calendar"], world=0) as session:
        event = next(r["event_id"] for r in session.call("list_reminders", {}).data["reminders"]
                     if session.call("list_reminders", {"event_id": r["event_id"]}).data["total"] == 1)
    for text in _replies("calendar", "list_reminders", {"event_id": event}):
        assert "one reminder" in text and "method" not in text and "minutes before" in text, text


def test_meetings_are_searched_by_a_few_words_of_their_title() -> None:
    """"Find my meetings about Interview: Anika Gonzalez (Senior Software Engineer)" types a whole
    title; a person searches "Anika Gonzalez", and the search still finds the meeting."""
    queries = [call["arguments"]["query"] for call, _, _ in _turns("calendar", "search_events", 240, 5)
               if "query" in call["arguments"]]
    assert queries
    for query in queries:
        assert ": " not in query and "(" not in query and len(query.split()) <= 4, query
    titles = [r["title"] for r in _index("calendar").rows["event"].values() if r["title"].startswith("Interview: ")]
    assert titles
    for title in titles:
        assert title.startswith("Interview: " + _head_words(title) + " ("), title


def test_a_same_day_window_reads_without_a_doubled_word() -> None:
    """"Does Jack Phillips have anything on on March 17 between 11:00 AM and 5:30 PM?"."""
    said = [u for _, u, _ in _turns("calendar", "get_free_busy", 240, 5)]
    assert said and not any(re.search(r"\b(\w+) \1\b", u) for u in said), said


def test_which_calendars_is_answered_with_their_names() -> None:
    """"Which calendars do I have?" answered "4 calendars: Work: description 'Meetings and focus
    time'; ...": a field read out for each, where the names answer it."""
    for text in _replies("calendar", "list_calendars", {}):
        assert text.startswith("You have") and "Work" in text and "description" not in text, text

# ----- crm -----------------------------------------------------------------------------------------------


_FIELD_READ = re.compile(r"\b(status|outcome|occurred|created|rating|priority|owner|industry|country|email|account)\b"
                         r" [^,;.]+[,;.]|: \d+ [a-z]+s: |\b(owner|status):")


def test_crm_listings_read_as_a_person_says_them() -> None:
    """"1 activity: Discovery call with Tariq: completed, normal priority, occurred March 13 at 5:00 PM,
    outcome No answer." and "1 contact: Fiona Lee: email fiona.lee@..., account Willow Realty." read field
    by field; a person says "'Discovery call with Tariq' on March 13 (no answer)"."""
    rows = _index("crm").rows
    deal, account = next(iter(rows["deal"])), next(iter(rows["account"]))
    contact = next(iter(rows["contact"].values()))
    calls = [("list_activities", {"deal_id": deal}), ("list_activities", {"account_id": account}),
             ("list_tasks", {}), ("list_tasks", {"status": "completed"}), ("list_tasks", {"status": "overdue"}),
             ("list_notes", {"account_id": account}), ("list_leads", {"mine": True, "status": "working"}),
             ("list_leads", {"rating": "hot", "source": "webinar"}), ("list_accounts", {"mine": True}),
             ("list_accounts", {"industry": "Healthcare", "sort_by": "employees"}),
             ("search", {"query": contact["full_name"]}), ("search", {"query": "Meridian"}),
             ("get_lead", {"lead_id": next(iter(rows["lead"]))})]
    for tool, args in calls:
        for text in _replies("crm", tool, args):
            assert not _FIELD_READ.search(text) and "@" not in text, (tool, text)
    (text,) = _replies("crm", "list_tasks", {"status": "overdue"})
    assert "overdue" not in text.split(":", 1)[1], text
    assert any(f"the contact {contact['full_name']} of" in t for t in _replies("crm", "search", {"query": contact["full_name"]}))


def test_an_account_and_a_deal_answer_the_question_asked() -> None:
    """"What's the next step on a deal?" answered "'...' is in closed lost (0% probability) ... Its stages so
    far: ... (entered on June 26, 2025 at 2:30 PM, ...)" and "Northwind Industries (prospect, Manufacturing;
    owner Priya Campbell). ... Open pipeline: $289,000.00." read fields and answer more than was asked."""
    rows = _index("crm").rows
    for account in list(rows["account"])[:3]:
        (about,) = _answers("crm", "get_account", {"account_id": account}, "Tell me about it.")
        assert re.search(r" is an? [A-Z][\w ]+ (prospect|customer|partner)", about) and ".00" not in about, about
        (pipeline,) = _answers("crm", "get_account", {"account_id": account}, "How much open pipeline is there with it?")
        assert re.search(r" has (\$[\d,]+ in \d+ open deals?|no open deals)\.$", pipeline), pipeline
    for deal in list(rows["deal"])[:40:13]:
        (about,) = _answers("crm", "get_deal", {"deal_id": deal}, "Tell me about it.")
        assert not re.search(r"\.00\b|closed (won|lost) \(", about), about
        (step,) = _answers("crm", "get_deal", {"deal_id": deal}, "What's the next step on it?")
        assert re.search(r"(the next step is '|no next step is set)", step) and "$" not in step, step


def test_contacts_are_listed_by_who_they_are() -> None:
    """"2 contacts: Jacob Tanaka: title VP of Engineering, email jacob.tanaka@..., phone +1-710-760-1200; ..."
    to "Who are the contacts at Highland Shipping?" reads fields and says what nobody asked."""
    account = list(_index("crm").rows["account"])[1]
    for args in ({"account_id": account}, {"account_id": account, "include_do_not_contact": False},
                 {"query": "Tanaka"}):
        for text in _replies("crm", "list_contacts", args):
            assert not re.search(r"\b(title|email|phone)\b|@|\+1-", text), text
            assert re.search(r"[A-Z]\w+ [A-Z]\w+, [A-Z]", text), text


def test_an_empty_pipeline_is_said_too() -> None:
    """"James Diaz: quarter 2026-Q1, won this quarter $0.00, lost this quarter 0, open count 0, open amount
    $0.00; 6 stages: stage prospecting; ..." reads the fields of a pipeline with nothing in it."""
    for rep in [k for k, r in _index("crm").rows["rep"].items() if not r["is_me"]][:12]:
        for text in _replies("crm", "pipeline_summary", {"owner_id": rep}):
            assert re.search(r" has (\d+ open deals? worth|no open deals)", text), text
            assert not re.search(r"\$0\b|\b0%|\.00\b|open count|stage ", text), text
    (mine,) = _replies("crm", "pipeline_summary", {"mine": True})
    assert mine.startswith("You have ") and re.search(r"of your \$[\d,]+ quota\.$", mine), mine


def test_deals_and_labels_read_as_a_person_says_them() -> None:
    """"12 deals: Highland Shipping - Enterprise Platform renewal: $205,000.00, stage proposal; ..." and "6 labels:
    Finance: 10 in all, color green; ..." read field by field."""
    account = list(_index("crm").rows["account"])[1]
    for args in ({"mine": True, "open_only": True}, {"account_id": account}, {"stage": "proposal"}):
        for text in _replies("crm", "list_deals", args):
            assert re.match(r"\d+ deals?, \$[\d,]+ in all: '", text) and not re.search(r"\.00\b|stage [a-z]", text), text
    (labels,) = _replies("email", "list_labels", {})
    assert not re.search(r"\b(color|in all)\b", labels) and re.search(r"[A-Z]\w+ \(\d+ emails?", labels), labels


def test_a_lead_s_new_status_reads_as_marked() -> None:
    """"Andrew Hernandez is now new." reads a status code as a state."""
    lead = next(k for k, r in _index("crm").rows["lead"].items() if r["owner_id"] == "REP-10001"
                and r["status"] not in ("new", "converted"))
    for text in _replies("crm", "update_lead_status", {"lead_id": lead, "status": "new"}):
        assert "is now new" not in text, text


def test_a_deal_with_no_next_step_says_so() -> None:
    """"What's the next step on the deal 'Sunrise Energy - Security Pack expansion'?" answered with
    its amount and stage history, and no word of the next step."""
    deal = next(k for k, r in _index("crm").rows["deal"].items() if not r["next_step"])
    (text,) = _answers("crm", "get_deal", {"deal_id": deal}, "What's the next step on it?")
    assert "no next step" in text and "$" not in text and "went through" not in text, text


def test_asking_for_the_id_of_a_person_says_no_its() -> None:
    """"I can't look up James Davis by name here. Could you give me its ID?" calls a person "it"."""
    words = Wording(random.Random(0))
    for seed in range(8):
        words.rng.seed(seed)
        text = words.question("lead", hidden=True, thing="James Davis")
        assert "James Davis" in text and " its " not in text, text


def test_a_new_account_is_said_by_its_name() -> None:
    """"Jot this down on account ACC-10057" of the account a converted lead just made: the output
    named it ("account_name": "Trailhead Labs"), so the user says "the Trailhead Labs account"."""
    said = [m["content"] for ex in _generated("crm", 150, 506) for m in ex["messages"] if m["role"] == "user"]
    assert said and not any(re.search(r"\baccount ACC-\d+", text) for text in said)


def test_claiming_a_lead_calls_it_a_lead() -> None:
    """"I'll take Theo Jones; make it mine." calls a person "it"."""
    said = [u for _, u, _ in _turns("crm", "claim_lead", 150, 4)]
    assert said and not any("make it mine" in u for u in said)


def test_an_account_a_conversion_made_is_the_new_account() -> None:
    """"Turn Fiona Wang into a customer contact. Oh, and who do we know at that account" points at
    an account nobody named: the one the conversion made is "the new account"."""
    for ex in _generated("crm", 150, 508):
        said = " ".join(m["content"] for m in ex["messages"] if m["role"] == "user")
        for hit in re.finditer(r"\bthat account\b", said):
            assert "account" in said[:hit.start()], (ex["id"], said)


def test_a_converted_lead_is_reported_without_keys() -> None:
    """"Converted James Davis: contact CON-10193 at Cedar University, with the deal ... (DEAL-10087)"
    reads out keys where the names say it all."""
    lead = next(k for k, r in _index("crm").rows["lead"].items() if r["owner_id"] == "REP-10001"
                and r["status"] in ("working", "qualified"))
    for create_deal in (True, False):
        for text in _replies("crm", "convert_lead", {"lead_id": lead, "create_deal": create_deal}):
            assert not re.search(r"\b(?:CON|DEAL)-\d+", text), text


def test_a_new_account_is_reported_by_its_name() -> None:
    """"Done: Brightpath Learning is in the CRM as account ACC-10056" reads out a key."""
    for text in _replies("crm", "create_account", {"name": "Brightpath Learning", "industry": "Education"}):
        assert "Brightpath Learning" in text and not re.search(r"\bACC-\d+", text), text



def test_when_we_last_talked_is_answered_with_the_last_call() -> None:
    """"When did we last talk to Camila Abbott?" answered with 7 activities, open tasks first, and
    no word of the last call: the question asks for the latest call, and its answer says when."""
    index = _index("crm")
    calls = [r for r in index.rows["activity"].values() if r["kind"] == "call" and r["contact_id"]]
    contact = calls[0]["contact_id"]
    last = max((r for r in calls if r["contact_id"] == contact), key=lambda r: r["occurred_at"])
    for text in _replies("crm", "list_activities", {"contact_id": contact, "kind": "call", "limit": 1}):
        assert text.startswith("The last call with") and last["subject"] in text, text
    asks = {a.text: a.binds for a in registry.get("crm").tools["list_activities"].asks}
    assert all(binds.get("kind") == "call" for text, binds in asks.items() if "last" in text)


def test_how_a_deal_got_to_its_stage_is_said_stage_by_stage() -> None:
    """"What stage is the new deal in, and how did it get there?" answered "Stage changes so far: 1."."""
    with Session(["crm"], world=0) as session:
        moved = next(d for d in _index("crm").rows["deal"]
                     if len(session.call("get_deal", {"deal_id": d}).data["stage_history"]) >= 3)
        history = session.call("get_deal", {"deal_id": moved}).data["stage_history"]
    (text,) = _answers("crm", "get_deal", {"deal_id": moved}, "What stage is it in, and how did it get there?")
    assert "it went through " + history[0]["to_stage"].replace("_", " ") + " on " in text, text
    assert all(f"{h['to_stage'].replace('_', ' ')} on " in text for h in history), text


def test_a_new_record_is_reported_without_its_key() -> None:
    """"Logged the email 'Proposal and pricing' (ACT-10263)." and "Your comment is on issue WEB-10012
    (CMT-10236)." quote keys a person has no use for; a later turn that needs one is told it."""
    for server in ("crm", "issue_tracker"):
        for ex in _generated(server, 150, 3):
            for m in ex["messages"]:
                if m["role"] == "assistant" and m.get("content") and not m.get("tool_calls"):
                    said = m["content"].split("For reference:")[0]
                    assert not re.search(r"\((?:CMT|WLG|LNK|ACT|NOTE|CON|DEAL|LEAD|SPR|ACC)-\d+\)", said), said


def test_do_we_have_a_lead_is_answered_yes_with_who_it_is() -> None:
    """"Do we have a lead from David Gomez?" answered "1 lead: David Gomez: converted, rating cold,
    created August 25, 2025 at 11:00 AM, at Westfield Realty"."""
    lead = next(iter(_index("crm").rows["lead"].values()))
    for text in _replies("crm", "list_leads", {"query": lead["full_name"]}):
        assert text.startswith("Yes") and "created" not in text and lead["company"] in text, text


def test_a_lead_rated_as_well_is_said_to_be_rated() -> None:
    """"Set Andrew Hernandez to unqualified and rate them hot." answered "Marked Andrew Hernandez as
    unqualified."."""
    with Session(["crm"], world=0) as session:
        lead = next(k for k in _index("crm").rows["lead"]
                    if session.call("update_lead_status", {"lead_id": k, "status": "working"}).ok)
    for text in _replies("crm", "update_lead_status", {"lead_id": lead, "status": "qualified", "rating": "hot"}):
        assert "hot" in text, text


def test_a_pipeline_is_asked_for_as_its_reply_tells_it() -> None:
    """"Give me the team's pipeline by stage." answered "The team has 40 open deals worth ...": no stage."""
    spec = registry.get("crm").tools["pipeline_summary"]
    said = " ".join(r.text for r in spec.replies)
    for ask in spec.asks:
        text = ask if isinstance(ask, str) else ask.text
        assert "by stage" not in text or "{result.stages" in said, text


def test_a_lead_left_for_someone_else_is_said_to_be_in_the_queue() -> None:
    """"Put Adrian Miller ... in the shared queue for someone else." answered "Created the lead Adrian
    Miller from Lakeside Clinics (LEAD-10067).", which says nothing of the queue."""
    args = {"first_name": "Adrian", "last_name": "Miller", "company": "Lakeside Clinics", "source": "partner",
            "email": "adrian.miller@lakesideclinics.com", "assign_to_me": False}
    for text in _replies("crm", "create_lead", args):
        assert "queue" in text, text


def test_a_contact_is_answered_with_who_they_are_and_how_to_reach_them() -> None:
    """"What's the e-mail and phone number of Olivia Novak?" answered "Olivia Novak: phone ...,
    created March 29, 2024 at 8:45 AM, title ..., account ...; 4 recent activities: ...": a record
    read field by field, with the activities nobody asked for."""
    index = _index("crm")
    for contact in list(index.rows["contact"])[:20]:
        row = index.rows["contact"][contact]
        for text in _replies("crm", "get_contact", {"contact_id": contact}):
            assert "created" not in text and "activities" not in text, text
            if row["title"] and row["phone"]:
                assert text.startswith(f"{row['full_name']}, {row['title']} at ") and row["phone"] in text, text
            assert ("not to be called" in text) == bool(row["do_not_contact"]), text


def test_an_account_with_no_open_pipeline_is_answered_all_the_same() -> None:
    """"Who do we know at the Delta Works account, and what deals do we have with them?" answered
    "Delta Works: created October 11, 2024 ..., 3 contacts: ...", with no word of its deals: the reply
    that says them reads "$0.00" of open pipeline, so it gave way to a field-by-field read-out."""
    with Session(["crm"], world=0) as session:
        account = next(a for a in _index("crm").rows["account"]
                       if session.call("get_account", {"account_id": a}).data["open_pipeline"] == 0)
    (known,) = _answers("crm", "get_account", {"account_id": account},
                        "Who do we know at it, and what deals do we have with them?")
    assert "Deals: " in known and "$0.00" not in known, known
    (pipeline,) = _answers("crm", "get_account", {"account_id": account}, "How much open pipeline is there with it?")
    assert pipeline.endswith(" has no open deals."), pipeline

# ----- email ---------------------------------------------------------------------------------------------


def test_a_thread_s_first_message_names_what_its_subject_names() -> None:
    """'Interview feedback: Liam Gonzalez' opened "Thanks for interviewing Christopher Sullivan", and
    'Team lunch on Friday' planned one on Tuesday: a subject's candidate, company, day, invoice or
    city is the one its first message talks about."""
    named = re.compile(r"^(?:Interview feedback: |Customer escalation: |Team lunch on |Trip to |Invoice )(.+?)"
                       r"(?: from .+)?$")
    seen = 0
    for world in range(3):
        for row in _index("email", world).rows["message"].values():
            m = named.match(row["subject"])
            if m and row["in_reply_to"] is None:
                seen += 1
                assert m[1] in row["body"], (row["subject"], row["body"])
    assert seen > 30


def _questions_answered(server: str, n: int, seed: int, answer: str) -> list[str]:
    """The clarification questions of generated examples whose answer matches `answer`."""
    out = []
    for ex in _generated(server, n, seed):
        if ex["kind"] == "clarification":
            messages = ex["messages"]
            asked = next(i for i, m in enumerate(messages) if m["role"] == "assistant")
            if re.search(answer, messages[asked + 1]["content"]):
                out.append(messages[asked]["content"])
    return out


def test_a_folder_known_by_its_name_is_not_asked_for_by_id() -> None:
    """"I don't have a way to search for the Inbox folder. Could you tell me the ID?" answered
    "Inbox": a system folder's name is what it is known by, so nobody is asked for its ID."""
    questions = _questions_answered("email", 70, 28, r"\b(?:Inbox|Archive|Sent|Drafts|Spam|Trash)\b")
    assert questions and not any("ID" in q for q in questions), questions


def test_an_address_is_named_once_in_a_call() -> None:
    """"Bcc nia.taylor@... on an email to nia.taylor@... and ana.roberts@...": an address is drawn
    for each of to, cc and bcc apart, and none repeats another."""
    seen = 0
    for ex in _generated("email", 400, 17):
        for turn in ex["turns"]:
            for call in turn["calls"]:
                lists = [call["arguments"].get(k) or [] for k in ("to", "cc", "bcc")]
                if sum(1 for v in lists if v) > 1:
                    seen += 1
                    flat = [a for v in lists for a in (v if isinstance(v, list) else [v])]
                    assert len(flat) == len(set(flat)), call
    assert seen >= 5


def test_an_email_made_from_another_is_said_by_its_subject() -> None:
    """"Forward the email 'Offsite agenda' ... Mark that email as unread again" marked the forward:
    "that email" is the one the request named, so a forward or a reply is said by its subject."""
    seen = 0
    for ex in _generated("email", 600, 29):
        results = {m.get("tool_call_id"): m["content"] for m in ex["messages"] if m["role"] == "tool"}
        made: set[str] = set()
        for turn, user in _turn_users(ex):
            for call in turn["calls"]:
                if made & set(re.findall(r"MSG-\d+", json.dumps(call["arguments"]))):
                    seen += 1
                    assert "that email" not in user and "the new email" not in user, user
            for call in turn["calls"]:
                if call["name"] in ("forward_message", "reply_to_message") and call["id"] in results:
                    made |= set(re.findall(r'"message_id": "(MSG-\d+)"', results[call["id"]])[:1])
    assert seen >= 1


def test_a_draft_given_a_new_subject_is_said_by_the_old_and_the_new() -> None:
    """"Change the subject of the draft 'Follow-up: Nimbus Group pilot' to 'Quick update'" answered
    "I saved your change to the draft 'Quick update'": the draft the user named, and what changed."""
    with Session(["email"], world=0) as session:
        draft = next(r for r in _index("email").rows["draft"].values()
                     if session.call("update_draft", {"draft_id": r["message_id"], "subject": r["subject"] + "!"}).ok)
    args = {"draft_id": draft["message_id"], "subject": "Quick update"}
    for text in _replies("email", "update_draft", args):
        assert draft["subject"] in text and "subject" in text and "'Quick update'" in text, text


def test_a_calendar_invitation_email_invites_to_what_its_subject_names() -> None:
    """"Invitation: Atlas kickoff @ Friday 10am" whose text reads "... has invited you to Titan kickoff"."""
    seen = 0
    for world in range(3):
        for r in _index("email", world).every["message"].values():
            if r["subject"].startswith("Invitation: "):
                seen += 1
                assert r["subject"].removeprefix("Invitation: ").split(" @ ")[0] in r["body"], (r["subject"], r["body"])
    assert seen


def test_no_starred_email_says_starred() -> None:
    """"List my starred emails in the Sent folder." answered "There are no messages."."""
    tool = registry.get("email").tools["list_messages"]
    said = Wording(random.Random(0)).nothing({"messages": [], "total": 0}, tool,
                                             {"folder_id": "sent", "starred_only": True})
    assert "starred messages" in said, said


def test_an_inbox_listing_does_not_say_the_user_s_own_address() -> None:
    """"Roadmap priorities for next quarter: March 13 at 2:43 PM, from Aisha Lopez, to
    ava.singh@nimbusfood.com" of "What's in my inbox?": mail the user received is to them."""
    with Session(["email"], world=0) as session:
        data = session.call("list_messages", {}).data
        me = session.call("search_messages", {"sender": "morningbrew.com"}).data
    mine = {a for m in data["messages"] for a in m["to"]}
    for said in (describe(data, stress=["inbox"]), describe(me)):
        assert not any(a in said for a in mine), said


def test_a_newsletter_s_issues_have_subjects_of_their_own() -> None:
    """Four emails from Morning Brew, all 'Markets wobble as chipmakers rally'."""
    from prove.servers.email.world import NEWSLETTERS

    senders = {addr for _, addr, _, _ in NEWSLETTERS}
    for world in range(3):
        rows = _index("email", world).every["message"].values()
        said = Counter((r["from_address"], r["subject"]) for r in rows if r["from_address"] in senders)
        assert said and max(said.values()) <= 2, said.most_common(3)


def test_an_email_does_not_name_its_writer_or_reader_as_someone_else() -> None:
    """"Hi Ava, Looping in Diego, who owns this area now. Thanks! Diego": Diego loops in himself."""
    seen = 0
    for world in range(3):
        for r in _index("email", world).every["message"].values():
            said = re.search(r"(?:Looping in|I talked to) (\w+)", r["body"])
            if said:
                seen += 1
                writer = r["from_name"].split()[0]
                assert said[1] != writer and not r["body"].startswith(f"Hi {said[1]},"), r["body"]
    assert seen


def test_the_out_of_office_reply_is_said_to_be_on_or_off() -> None:
    """"Is my out-of-office reply on?" answered "Out-of-office reply: no."."""
    for before in ([], [("set_vacation_responder", {"enabled": True, "message": "Away until Monday."})]):
        said = [t for t in _replies("email", "get_mailbox", {}, before) if "out-of-office" in t]
        assert said  # (the address, or the blocked senders, asked alone are said alone)
        for text in said:
            assert re.search(r"out-of-office reply is (on|off)\.", text) and ": no" not in text, text


def test_how_many_unread_in_each_folder_is_answered_for_each() -> None:
    """"How many unread emails are in each of my folders?" answered "12 folders: Archive: 53 in all,
    system; ...; and 7 more": no unread count for most, and most folders left out."""
    tool = registry.get("email").tools["list_folders"]
    with Session(["email"], world=0) as session:
        data = session.call("list_folders", {}).data
    said = Wording(random.Random(0)).summary(tool, data, asked="How many unread emails are in each of my folders?")
    assert "more" not in said, said
    for folder in data["folders"]:
        assert f"{folder['name']}: {folder['unread']} unread" in said, said


def test_an_attachment_has_a_size_that_fits_its_type() -> None:
    """"Attach invite.ics (400 KB)": a calendar invite is a few KB, slides a few MB."""
    calls = [call["arguments"] for call, _, _ in _turns("email", "add_attachment", 200, 3)]
    assert calls
    bounds = {"ics": (1, 20), "txt": (1, 50), "docx": (20, 500), "csv": (5, 1000), "xlsx": (20, 1000),
              "pdf": (100, 5000), "jpg": (500, 8000), "pptx": (1000, 20000)}
    for a in calls:
        low, high = bounds[a["filename"].rsplit(".", 1)[-1]]
        assert low <= a["size_kb"] <= high, a


def test_the_user_s_own_email_is_theirs() -> None:
    """"Open the email 'Re: Access request ...'" of the user's own sent mail: "Ava Singh sent it on
    February 12" names the user as a stranger; "You sent ..."."""
    index = _index("email")
    for status, words in (("sent", "You sent"), ("draft", "a draft of yours")):
        message = next(k for k, r in index.every["message"].items() if r["status"] == status)
        for text in _replies("email", "get_message", {"message_id": message}):
            assert words in text, text


def test_two_emails_alike_the_same_day_are_told_apart_by_time() -> None:
    """"Mark email MSG-10024 as junk": three copies of a newsletter came on February 5; a person
    says "the email 'How the best PMs write strategy docs' from February 5 at 9:13 AM"."""
    say = _phrasing("email")
    for message in _index("email").every["message"]:
        text = say.entity("message", message)
        assert message not in text, text


def test_a_thread_is_asked_for_by_a_subject_it_alone_has() -> None:
    """"Pull up every message in thread THR-10018" names a newsletter's thread by its key, its
    subject being every issue's: a thread is asked for by a subject no other thread has."""
    calls = [u for _, u, _ in _turns("email", "get_thread", 300, 3)]
    assert calls and not any(re.search(r"\bTHR-\d+", u) for u in calls)


def test_a_filter_is_run_over_the_mailbox_only_where_mail_matches() -> None:
    """"Set up a filter 'Bank alerts' ... and apply it to what's already in my mailbox." -> "it also
    went through your mailbox and matched 0 emails": the switch did nothing, said with others."""
    for call, _, reply in _turns("email", "create_filter", 300, 508):
        if call["arguments"].get("apply_to_existing"):
            assert "matched 0 " not in reply, reply



def test_a_sender_is_said_by_name_not_by_address_as_well() -> None:
    """"from Google Calendar, from address calendar-notification@google.com": the name says who."""
    sender = {"from_name": "Google Calendar", "from_address": "calendar-notification@google.com"}
    found = {"messages": [{"message_id": "MSG-1", "subject": "Invitation: Atlas kickoff", **sender,
                           "received_at": "2026-03-12T13:38:00"}], "total": 1}
    assert "from address" not in describe(found)
    assert "calendar-notification@google.com" in describe(found, stress=["address"])


def test_a_message_told_apart_by_its_folder_is_moved_without_two_ins() -> None:
    """"Put the email 'Re: Offsite agenda' in Archive in the Inbox folder": which folder is it in?"""
    said = [u for _, u, _ in _turns("email", "move_message", 400, 5)]
    assert said and not any(re.search(r" in [A-Z]\w*(?: \w+)? in the ", u) for u in said), said


def test_copying_people_on_a_draft_says_who_is_copied() -> None:
    """"Cc james.white@... and diego.turner@... on the draft 'Weekend plans'." answered "Done: I saved
    your change to the draft 'Weekend plans', addressed to leo.white@fastmail.com.": not who is copied."""
    cc = ["james.white@nimbusfood.com"]
    with Session(["email"], world=0) as session:
        draft = next(k for k in _index("email").rows["draft"]
                     if session.call("update_draft", {"draft_id": k, "cc": cc}).ok)
    for text in _replies("email", "update_draft", {"draft_id": draft, "cc": cc}):
        assert "james.white@nimbusfood.com" in text, text


def test_one_alias_is_not_said_as_aliases() -> None:
    """"Your address is ava.singh@nimbusfood.com, with the aliases ava@nimbusfood.com."."""
    said = [t for t in _replies("email", "get_mailbox", {}) if "alias" in t]  # (blocked senders are said alone)
    assert said
    for text in said:
        assert "the aliases" not in text and "aliases: " in text, text

def test_mail_settings_read_as_a_person_says_them() -> None:
    """"4 filters: Newsletters: from contains substack.com; Morning Brew: from contains morningbrew.com, move
    to folder Newsletters, mark read" and "3 app passwords: Thunderbird on laptop: active, created February
    20, 2025 at 8:00 PM" read field by field; "What's Omar's email address?" is answered with the address."""
    (filters,) = _replies("email", "list_filters", {})
    assert not re.search(r"contains|move to folder|mark read|add label", filters), filters
    assert re.search(r"'[^']+' moves mail from \S+ to \w+", filters), filters
    (apps,) = _replies("email", "list_app_passwords", {})
    assert not re.search(r"created|active|\d:\d\d [AP]M", apps), apps
    contact = list(_index("email").rows["contact"].values())[2]
    (address,) = _answers("email", "search_contacts", {"query": contact["name"]}, "What's their email address?")
    assert address == f"{contact['name']}'s email address is {contact['email']}.", address
    for text in _replies("email", "search_contacts", {"query": contact["name"]}):
        assert not re.search(r"\b(email|phone|notes) [^ ]", text.replace("email address is", "")), text


def test_a_mail_listing_says_subject_sender_and_day() -> None:
    """"2 messages: Mom's birthday: March 8 at 7:43 PM, from Hana Singh, snippet 'Mom's birthday is on the
    28th...'" reads fields; a person says "'Mom's birthday' from Hana Singh on March 8", and mail the user
    sent says whom to by name."""
    for tool, args in (("list_messages", {}), ("list_messages", {"folder_id": "sent"}),
                       ("list_messages", {"folder_id": "inbox", "unread_only": True}),
                       ("search_messages", {"query": "pilot"})):
        for text in _replies("email", tool, args):
            assert not re.search(r"\bsnippet\b|: [A-Z][a-z]+ \d+ at|\w@\w", text), (tool, text)
            assert re.search(r"'[^']+' (from|to) [A-Z]\w+ [A-Z]\w+ on [A-Z][a-z]+ \d+", text), (tool, text)


def test_a_mail_listing_says_which_folder_it_lists() -> None:
    """"I found 3 emails, newest first: ... 59 emails, newest first: ..." answered "what's in my inbox?" after a
    search without saying which was the inbox; a folder left to its default is said too."""
    for args, folder in (({}, "Inbox"), ({"folder_id": "sent"}, "Sent")):
        texts = _replies("email", "list_messages", args)
        assert texts and all(f"in the {folder} folder" in t for t in texts), texts


def test_an_email_is_said_to_go_to_people_by_name() -> None:
    """"Your reply to the email 'Hiring plan for Platform' is sent, to elijah.murphy@summitpart.com." says an
    address where the user knows the name; mail to the user is "to you"."""
    received = next(k for k, r in _index("email").rows["message"].items() if r["status"] == "received")
    for text in _replies("email", "reply_to_message", {"message_id": received, "body": "Thanks!"}):
        assert not re.search(r"\w@\w", text), text
    for text in _replies("email", "get_message", {"message_id": received}):
        assert " to you" in text, text


def test_a_reply_to_all_names_the_people_copied_too() -> None:
    """"Your reply to the email 'Customer escalation: Nimbus Group' went to everyone on it: Elizabeth
    Anderson." left out Rosa Sullivan, copied on the reply."""
    rows = _index("email").rows["message"]
    with Session([registry.get("email")], world=0) as session:
        copied = next(k for k, r in rows.items() if r["status"] == "received"
                      and session.call("get_message", {"message_id": k}).data["cc"])
        cc = session.call("reply_to_message", {"message_id": copied, "body": "Thanks!", "reply_all": True}).data["cc"]
    texts = _replies("email", "reply_to_message", {"message_id": copied, "body": "Thanks!", "reply_all": True})
    names = [a.split("@")[0].replace(".", " ").title() for a in cc]
    assert texts and all(all(n in t for n in names) for t in texts if "everyone" in t), (names, texts)
    assert any("everyone" in t for t in texts), texts


def test_a_moved_email_is_not_said_to_be_in_the_folder_it_left() -> None:
    """"The email 'Re: Team lunch on Friday' in the Sent folder from February 5 is in the archive now." and "the
    email 'Re: Polaris retro notes' in the Archive folder from February 4 is now in the Inbox folder": a reply
    names a moved email without the folder it left."""
    seen = 0
    for tool in ("archive_message", "move_message", "mark_not_spam"):
        for call, _, reply in _turns("email", tool, n=400, seed=5):
            subject = _index("email").labels["message"].get(call["arguments"].get("message_id"))
            if subject:
                seen += 1
                assert f"'{subject}' in the " not in reply, reply
    assert seen >= 20, seen


def test_folders_and_a_conversation_read_as_a_person_says_them() -> None:
    """"13 folders: Archive: 45 in all, system; ..." and "Customer escalation: Northwind Foods; 5 messages:
    Customer escalation: Northwind Foods: received, '...', February 18 at 1:52 PM; ..." read fields."""
    (folders,) = _answers("email", "list_folders", {}, "What folders do I have?")
    assert re.match(r"You have \d+ folders: Archive \(\d+ emails\)", folders) and "system" not in folders, folders
    (unread,) = _answers("email", "list_folders", {}, "How many unread emails are in each of my folders?")
    assert "Inbox: " in unread and "emails)" not in unread, unread
    for thread in list(_index("email").rows["thread"])[:40:10]:
        (text,) = _replies("email", "get_thread", {"thread_id": thread})
        assert re.search(r"^The conversation '.+' has \d+ messages?: .+ on [A-Z][a-z]+ \d+: '", text), text
        assert not re.search(r": (received|sent),", text), text
    with Session(["email"], world=0) as session:  # the words of an email are quoted as written, "me" and all
        sent = session.call("search_messages", {"query": "Let me know", "limit": 100}).data["messages"]
    thread = next(m["thread_id"] for m in sent if m["status"] == "sent")
    (text,) = _replies("email", "get_thread", {"thread_id": thread})
    assert "send you" not in text and "Let you know" not in text, text


# ----- filesystem ----------------------------------------------------------------------------------------


def test_an_item_s_details_answer_the_question_asked() -> None:
    """"The IMG_3680.jpg file is 3.3 MB, owned by Andre Kim, last changed .... Read-only: no. Tags: none."
    answers both questions at once, with a field's bare value; a person says "it's yours, isn't read-only
    and has no tags", and how big and when for "How big is it, and when was it last modified?"."""
    for path in ("/Documents/Finance/Budget 2026.csv", "/Documents", "/Downloads/tax-docs-2024.zip"):
        (when,) = _answers("filesystem", "stat_path", {"path": path}, "How big is it, and when was it last modified?")
        assert "modified" in when and not re.search(r"read-only|tag|yours", when), when
        (details,) = _answers("filesystem", "stat_path", {"path": path},
                              "Give me the details: owner, size, tags and whether it's protected.")
        assert re.search(r"it's (yours|[A-Z]\w+ [A-Z]\w+'s), (isn't|is) read-only", details), details
        assert not re.search(r"Read-only:|Tags:|: (no|none|yes)\b", details), details


def test_a_deleted_item_is_said_as_a_file_or_a_folder() -> None:
    """"Permanently delete the Resume 2023.md from the trash.": a deleted item is said with its noun,
    as the drive says it ("the file 'Untitled.txt'", "the folder '2024-07 Old phone backup'")."""
    for world in range(2):
        say = _phrasing("filesystem", world)
        rows = _index("filesystem", world).rows["trash_item"]
        assert rows
        for key, row in rows.items():
            assert re.search(rf"\b{row['kind']}\b", say.entity("trash_item", key)), say.entity("trash_item", key)


def test_a_moved_or_copied_file_is_said_by_name_and_folder() -> None:
    """"There's a copy in the Desktop folder now. It now lives at /Documents/2026-01-23 Vendor
    call.md." said a moved file as "it" after another thing, by a raw path; "Copied ... to
    /Desktop/notes copy.txt" too."""
    moved = _replies("filesystem", "move_path", {"path": "/Desktop/notes.txt", "destination_folder": "/Documents"})
    copied = _replies("filesystem", "copy_path", {"path": "/Desktop/notes.txt", "destination_folder": "/Desktop",
                                                  "new_name": "notes copy.txt"})
    for text in moved + copied:
        assert "'notes.txt'" in text and " /" not in text and not re.search(r"\bit\b", text), text
    for text in copied:
        assert "'notes copy.txt'" in text, text


def test_a_top_folder_is_not_asked_for_by_its_path() -> None:
    """"I can't look up the Documents folder by name here. Could you give me the path?" answered
    "/Documents": a folder at the top of the drive is its name, so nobody is asked for its path."""
    questions = _questions_answered("filesystem", 30, 1, r"\b(?:Documents|Desktop|Downloads)\b")
    assert questions and not any("path" in q for q in questions), questions


def test_an_unzipped_archive_is_said_by_its_new_folder() -> None:
    """"Extracted 10 items to /Downloads/2025-11 Road trip.": the new folder by name and place."""
    for text in _replies("filesystem", "extract_archive", {"path": "/Downloads/tax-docs-2024.zip"}):
        assert "a new folder 'tax-docs-2024' in the Downloads folder" in text and " /" not in text, text


def test_drive_activity_is_said_as_what_happened_to_what() -> None:
    """"today at 6:00 AM, action edited, path /Documents/Travel/Vancouver 2026/Itinerary.md" reads out
    field names: an entry says which item was edited, where and when."""
    for text in _replies("filesystem", "list_activity", {}):
        assert "action " not in text and "path /" not in text, text
        assert re.search(r"\S+ in the [\w .-]+ folder was (?:edited|uploaded|deleted) on \w+ \d+ at", text), text


def test_a_drive_listing_names_things_as_a_person_does() -> None:
    """"12 members: 2025-03 Garden: folder, modified ...; 2025-03 Garden/IMG_2332.jpg: file, size 2.7 MB"
    and "6 entries: Birth certificate.pdf: size 1.2 MB; ..." read field by field."""
    calls = [("list_archive", {"path": "/Downloads/tax-docs-2024.zip"}),
             ("list_archive", {"path": "/Downloads/2025-11 Road trip.zip"}),
             ("get_tree", {"path": "/"}), ("get_tree", {"path": "/Photos"}),
             ("list_share_links", {"status": "active"}), ("list_share_links", {"status": "expired"}),
             ("list_share_links", {"path": "/Documents/Personal/Resume.pdf"})]
    for tool, args in calls:
        for text in _replies("filesystem", tool, args):
            assert not re.search(r"\b(members|entries|depth|size|access|created)\b|: (file|folder)\b|/IMG|Folder /",
                                 text), (tool, text)
    (tree,) = _replies("filesystem", "get_tree", {"path": "/"})
    assert tree.startswith("Your drive holds Desktop ("), tree


def test_favorites_are_said_by_name() -> None:
    """"7 favorites: Itinerary.md: file, added March 10 at 2:46 PM; Meeting notes: folder, ..." reads fields."""
    (text,) = _replies("filesystem", "list_favorites", {})
    assert text.startswith("Your favorites, newest first: ") and not re.search(r": (file|folder)\b|added", text), text


def test_a_file_read_out_says_which_lines_it_shows() -> None:
    """"Lines 1 to 1 of the file 'todo.txt' (it has 1):" heads a whole file with a range."""
    (whole,) = _replies("filesystem", "read_file", {"path": "/Desktop/todo.txt"})
    assert re.match(r"Here's the file 'todo.txt', (its one line|all \d+ lines):\n\n", whole), whole
    (part,) = _replies("filesystem", "read_file", {"path": "/Documents/Finance/Budget 2025.csv", "start_line": 2,
                                                   "max_lines": 3})
    assert ", lines 2 to 4 of " in part and "(it has" not in part, part


def test_a_version_history_reads_as_a_person_says_it() -> None:
    """"1 version: version 1, size 91 bytes, modified March 7 at 11:27 AM, first line '...'" reads fields."""
    for path in ("/Documents/Finance/Budget 2026.csv", "/Desktop/todo.txt"):
        (text,) = _replies("filesystem", "list_versions", {"path": path})
        assert re.search(r" is on version \d+, written [A-Z][a-z]+ \d+ at .+?; \d+ earlier versions? (is|are) kept: "
                         r"version \d+ from ", text), text
        assert not re.search(r"\$\d|size \d|first line", text), text


# ----- issue tracker -------------------------------------------------------------------------------------


def test_a_time_entry_is_said_by_its_issue_and_day() -> None:
    """"Delete time entry WLG-10026" names a worklog by its key: a person says "the time entry on
    issue MOB-10029 from March 8", which takes one entry a day on an issue."""
    for world in (0, 1, 2):
        say = _phrasing("issue_tracker", world)
        for worklog in _index("issue_tracker", world).rows["worklog"]:
            text = say.entity("worklog", worklog)
            assert worklog not in text and text.startswith("the time entry on issue "), text


def test_a_comment_is_told_apart_by_its_author_or_time() -> None:
    """"Edit comment CMT-10025": two comments on one issue in the same minute, one the user's: "my
    comment on issue MOB-10017"."""
    for world in (0, 1):
        index, say = _index("issue_tracker", world), _phrasing("issue_tracker", world)
        stamps = [(r["issue_id"], r["created_at"]) for r in index.every["comment"].values()]
        assert len(stamps) == len(set(stamps))
        for comment in index.every["comment"]:
            assert comment not in say.entity("comment", comment)
    mine = [say.entity("comment", k) for k, r in index.every["comment"].items() if r["author_id"] == "USR-10001"]
    assert any(t.startswith("my comment on issue ") for t in mine), mine


def test_an_unassigned_issue_is_answered_with_its_blockers() -> None:
    """"What's the status of issue PAY-10005 and what is blocking it?" of an unassigned issue got its
    fields read out and no word of what blocks it."""
    issue = next(k for k, r in _index("issue_tracker").rows["issue"].items() if r["assignee_id"] is None)
    (text,) = _answers("issue_tracker", "get_issue", {"issue_id": issue}, "What's the status of it and what is blocking it?")
    assert re.search(r" is [a-z ]+, and (nothing is blocking it|it's blocked by [A-Z]+-\d+)", text), text
    (who,) = _answers("issue_tracker", "get_issue", {"issue_id": issue}, "Who is working on it?")
    assert who.endswith(": nobody is working on it yet.") and "priority" not in who, who


def test_the_user_s_own_role_is_theirs() -> None:
    """"Mobile App: lead Bianca Turner, active, key MOB, my role admin" says the assistant's role."""
    assert field_text("my_role", "admin") == "you're an admin"
    assert field_text("my_role", "member") == "you're a member"


def test_a_label_change_reads_as_one() -> None:
    """"Bianca Turner removed labels regression on March 16" reads a field: "removed the label
    regression"."""
    index = _index("issue_tracker")
    issue = next(k for k, r in index.rows["issue"].items() if r["status"] not in ("done", "closed"))
    tag = [("add_labels", {"issue_id": issue, "labels": ["zz-one", "zz-two"]})]
    for text in _replies("issue_tracker", "get_issue_history", {"issue_id": issue}, tag):
        assert "added the labels zz-one and zz-two on" in text, text
    untag = [*tag, ("remove_label", {"issue_id": issue, "label": "zz-one"})]
    for text in _replies("issue_tracker", "get_issue_history", {"issue_id": issue}, untag):
        assert "removed the label zz-one on" in text, text


def test_an_issue_history_says_sprints_by_name_and_states_in_words() -> None:
    """"Bianca Turner changed sprint from SPR-10004 to SPR-10005" reads keys; a person says "from
    MOB Sprint 14 to MOB Sprint 15", and "in progress", not "in_progress"."""
    index = _index("issue_tracker")
    sprints = index.rows["sprint"]
    issue, row = next((k, r) for k, r in index.rows["issue"].items()
                      if r["sprint_id"] and r["status"] not in ("done", "closed"))
    other = next(k for k, r in sprints.items() if k != row["sprint_id"] and r["project_id"] == row["project_id"]
                 and r["status"] != "completed")
    moved = [("move_to_sprint", {"issue_id": issue, "sprint_id": other})]
    for text in _replies("issue_tracker", "get_issue_history", {"issue_id": issue}, moved):
        assert f"from {sprints[row['sprint_id']]['name']} to {sprints[other]['name']}" in text, text
    started = [("transition_issue", {"issue_id": issue, "status": "in_progress" if row["status"] != "in_progress"
                                     else "in_review"})]
    for text in _replies("issue_tracker", "get_issue_history", {"issue_id": issue}, started):
        assert "_" not in text, text


def test_a_link_is_said_by_the_two_issues_it_joins() -> None:
    """"Remove the link to issue PAY-10009" of the link from PAY-10009 to PAY-10035 says it the wrong
    way round: "the link between issue PAY-10009 and issue PAY-10035"."""
    say = _phrasing("issue_tracker")
    for link, row in _index("issue_tracker").every["link"].items():
        text = say.entity("link", link)
        assert text == f"the link between issue {row['source_id']} and issue {row['target_id']}", text


def test_a_sprint_change_reads_as_a_move() -> None:
    """"Amara Williams removed sprint DATA Sprint 13 on March 16" reads a field: "took it out of DATA
    Sprint 13"."""
    index = _index("issue_tracker")
    issue, row = next((k, r) for k, r in index.rows["issue"].items()
                      if r["sprint_id"] and r["status"] not in ("done", "closed"))
    out = [("move_to_sprint", {"issue_id": issue})]
    for text in _replies("issue_tracker", "get_issue_history", {"issue_id": issue}, out):
        assert f"took it out of {index.rows['sprint'][row['sprint_id']]['name']} on" in text, text



def test_an_issue_is_asked_to_be_marked_done() -> None:
    """"Once that's done, issue WEB-10012 is done.": a request says what to do with the issue."""
    for ask in registry.get("issue_tracker").tools["transition_issue"].asks:
        assert not ask.text.endswith(" is done."), ask.text


def test_won_t_fix_reads_with_its_apostrophe() -> None:
    """"Close issue WEB-10013 as wont fix." and "Closed issue WEB-10013 as wont fix."."""
    tool = registry.get("issue_tracker").tools["close_issue"]
    assert _phrasing("issue_tracker").argument(tool, "resolution", "wont_fix", None) == "won't fix"
    assert "won't fix" in field_text("resolution", "wont_fix")


def test_an_issue_closed_as_a_duplicate_is_said_to_be_one_of_its_original() -> None:
    """"Issue WEB-10013 is a duplicate of issue WEB-10014; close it." was answered "Closed issue WEB-10013
    as duplicate."."""
    from prove.synth.teachers.programmatic import _fitting_replies

    tool = registry.get("issue_tracker").tools["close_issue"]
    replies = _fitting_replies(tool, {"issue_id": "WEB-10013", "resolution": "duplicate", "duplicate_of": "WEB-10014"})
    assert replies and all("a duplicate of {duplicate_of}" in r.text for r in replies), replies
    assert all("{duplicate_of}" not in r.text for r in _fitting_replies(tool, {"issue_id": "WEB-10013",
                                                                                "resolution": "fixed"}))


def test_a_discussion_is_read_out_comment_by_comment() -> None:
    """"Read me the discussion on issue SEC-10018" answered "2 comments (all 'Luis Brown'):
    SEC-10018: created March 4 at 8:08 PM; SEC-10018: created March 6 at 1:34 AM.": the two said the
    same words, so nothing of what they said was read, and each was headed by the issue's key."""
    for world in range(3):
        comments = _index("issue_tracker", world).rows["comment"].values()
        said = [(c["issue_id"], c["body"]) for c in comments]
        assert len(said) == len(set(said))
    with Session(["issue_tracker"], world=0) as session:
        found = next(r.data for i in _index("issue_tracker").rows["issue"]
                     if len((r := session.call("list_comments", {"issue_id": i})).data["comments"]) >= 2)
    text = describe(found)
    assert found["comments"][0]["body"][:20] in text and found["comments"][0]["issue_id"] not in text, text


def test_a_label_is_given_as_one() -> None:
    """"Labelled issue MOB-10030 regression." drops the word that says what the label is."""
    from prove.synth.teachers.programmatic import _fitting_replies

    tool = registry.get("issue_tracker").tools["bulk_update_issues"]
    args = {"issue_ids": ["MOB-10030"], "add_label": "regression"}
    say = _phrasing("issue_tracker")
    texts = [say.reply(tool, r.text, args, {"total": 1}, {}) for r in _fitting_replies(tool, args)]
    assert texts
    for text in texts:
        assert "MOB-10030 regression" not in text, text


def test_time_logged_reads_as_work_the_user_did() -> None:
    """"Latest on issue DATA-10007: Amara Williams changed time_spent from 0 to 60 on March 16." says
    a field's key, and the user's own name, for "you logged 60 minutes of work"."""
    with Session(["issue_tracker"], world=0) as session:
        issue = next(i for i in _index("issue_tracker").rows["issue"]
                     if session.call("log_work", {"issue_id": i, "minutes": 60}).ok)
        latest = session.call("get_issue_history", {"issue_id": issue}).data["latest"]
    assert latest.startswith("you logged 60 minutes of work on March 16"), latest


def test_a_project_s_members_say_the_user_as_you() -> None:
    """"Mobile App (MOB, led by you) ... Members: Bianca Turner (admin), ...": the user, by name."""
    index = _index("issue_tracker")
    me = next(r for r in index.rows["user"].values() if r["is_me"])
    with Session(["issue_tracker"], world=0) as session:
        roles = [session.call("get_project", {"project_id": p}).data["roles"] for p in index.rows["project"]]
    assert any("you (" in r for r in roles) and not any(me["name"] in r for r in roles), roles


def test_a_link_in_an_issue_history_reads_in_words() -> None:
    """"Latest on issue WEB-10037: you removed link relates_to WEB-10045 on March 16"."""
    with Session(["issue_tracker"], world=0) as session:
        link = next(iter(_index("issue_tracker").rows["link"].values()))
        assert session.call("unlink_issues", {"link_id": link["link_id"]}).ok
        latest = session.call("get_issue_history", {"issue_id": link["source_id"]}).data["latest"]
    assert latest.startswith(f"you removed its link to {link['target_id']} (") and "_" not in latest, latest


def test_a_story_title_reads_with_its_article() -> None:
    """"As a admin, I want email updates from the ledger export"."""
    for world in range(3):
        for r in _index("issue_tracker", world).every["issue"].values():
            assert not re.match(r"As a [aeiou]", r["title"]), r["title"]


def test_a_new_issue_is_said_by_its_title() -> None:
    """"DATA-10045 is filed in the Data Platform project as a medium task." of "Create a task in the
    Data Platform project titled 'Document the public search API'"."""
    project = next(iter(_index("issue_tracker").rows["project"]))
    args = {"project_id": project, "title": "Document the public search API", "type": "task"}
    with Session(["issue_tracker"], world=0) as session:
        if not session.call("create_issue", dict(args)).ok:
            project = next(p for p in _index("issue_tracker").rows["project"]
                           if session.call("create_issue", {**args, "project_id": p}).ok)
    for text in _replies("issue_tracker", "create_issue", {**args, "project_id": project}):
        assert "'Document the public search API'" in text and not re.match(r"[A-Z]+-\d+ ", text), text


def test_one_label_added_is_not_said_as_labels() -> None:
    """"Added the labels; issue MOB-10001 carries customer-reported." of one label."""
    issue = next(iter(_index("issue_tracker").rows["issue"]))
    for text in _replies("issue_tracker", "add_labels", {"issue_id": issue, "labels": ["zz-one"]}):
        assert "labels" not in text and "zz-one" in text, text

def test_a_project_question_is_answered_alone() -> None:
    """"How many unresolved issues does the Mobile App project have?" answered with the count and every
    member with their role; and "show me the completed sprints" with "The project has 3 sprints"."""
    project = next(iter(_index("issue_tracker").rows["project"]))
    (count,) = _answers("issue_tracker", "get_project", {"project_id": project}, "How many unresolved issues does it have?")
    assert re.search(r" has \d+ unresolved issues?\.$", count) and "Members" not in count, count
    (done,) = _replies("issue_tracker", "list_sprints", {"project_id": project, "status": "completed"})
    assert " completed sprints: " in done, done


def test_an_estimate_is_said_in_hours() -> None:
    """"Set issue PAY-10006 to 5 points with an estimate of 480 minutes." gives work time as nobody does:
    "8 hours", in the request and the reply."""
    spec = registry.get("issue_tracker").tools["update_issue"]
    estimates = [a for a in spec.asks if "estimate" in a.text]
    assert estimates and all(a.binds.get("estimate_minutes") and "minutes" not in a.text and "hours" in a.text
                             for a in estimates), [a.text for a in estimates]
    issue = next(iter(_index("issue_tracker").rows["issue"]))
    for text in _replies("issue_tracker", "update_issue", {"issue_id": issue, "story_points": 5, "estimate_minutes": 480}):
        assert "an estimate of 8 hours" in text, text
    for text in _replies("issue_tracker", "log_work", {"issue_id": issue, "minutes": 90}):
        assert not re.search(r"\d,?\d{3} minutes", text), text


def test_edits_and_searches_say_what_was_done() -> None:
    """"Updated Anika Davis: their email is ... and their phone ..." of a phone number and a note changed;
    "1 match: path /Documents/..., line number 6, line '...'"; "Time logged: 7 h in 4 entries"."""
    contact = next(k for k, r in _index("email").rows["contact"].items() if r["phone"])
    for text in _replies("email", "update_contact", {"contact_id": contact, "phone": "+1-333-690-9704",
                                                      "notes": "New number since March"}):
        assert "email" not in text and "New number since March" in text, text
    for text in _replies("filesystem", "search_content", {"query": "passport"}):
        assert re.search(r"turns up on \d+ lines? in \d+ files?: .+, line \d+: '", text) and "path /" not in text, text
    for text in _replies("issue_tracker", "list_worklogs", {"start_date": "2026-03-01", "end_date": "2026-03-15"}):
        assert not re.search(r"\d (h|min)\b", text), text


def test_tracker_listings_read_as_a_person_says_them() -> None:
    """"1 user: Yusuf Brown: email yusuf.brown@northwind.io, title iOS Engineer, team Mobile, active." and
    "1 comment: Zara Cruz: '...', created October 30, 2025 at 2:52 PM." read field by field; "Who is X?"
    is answered with who they are, not with an ID nobody asks for ("Who is X? I need their user ID.")."""
    rows = _index("issue_tracker").rows
    user = list(rows["user"].values())[5]
    project = next(iter(rows["project"]))
    commented = next(iter({c["issue_id"] for c in rows["comment"].values()}))
    calls = [("list_projects", {}), ("search_users", {"query": user["name"]}),
             ("search_users", {"query": "Engineer", "project_id": project}),
             ("search_issues", {"project_id": project, "overdue": True}), ("search_issues", {"query": "checkout"}),
             ("list_comments", {"issue_id": commented}), ("list_comments", {"issue_id": commented, "newest_first": True})]
    for tool, args in calls:
        for text in _replies("issue_tracker", tool, args):
            unquoted = re.sub(r"'[^']*'(?=[\s.,;)]|$)", "", text)  # a title or a comment is what it is
            assert not re.search(r"\b(email|title|team [A-Z]|active|created|type|key|lead [A-Z])\b|@|: \d+ [a-z]+s: ",
                                 unquoted), (tool, text)
    (who,) = _answers("issue_tracker", "search_users", {"query": user["name"]}, "Who is {query}?")
    assert f"{user['name']}, {user['title']} on the" in who and user["user_id"] not in who, who


def test_sprints_read_as_a_person_says_them() -> None:
    """"5 sprints: MOB Sprint 15: March 23 to April 3, planned; MOB Sprint 14: March 9 to March 20, active"."""
    project = list(_index("issue_tracker").rows["project"])[1]
    for args in ({"project_id": project}, {"project_id": project, "status": "active"}):
        for text in _replies("issue_tracker", "list_sprints", args):
            assert re.search(r"Sprint \d+ \((running|planned|done)", text), text
            assert not re.search(r": [A-Z][a-z]+ \d+ to [A-Z][a-z]+ \d+, (planned|active|completed)", text), text
            assert len(re.findall(r"\b[Rr]unning\b", text)) <= 1, text  # "Running now: API Sprint 13 (running ..."


# ----- team chat -----------------------------------------------------------------------------------------


def test_a_channel_is_never_given_a_possessive() -> None:
    """"Change the channel help-it's topic to: ..." glues "'s" to a channel's name."""
    tool = registry.get("team_chat").tools["set_channel_topic"]
    assert not any("}'s" in r.text for r in [*tool.asks, *tool.replies])
    channel = next(k for k, r in _index("team_chat").rows["channel"].items() if "-" in r["name"] and r["kind"] != "dm")
    for text in _replies("team_chat", "set_channel_topic", {"channel_id": channel, "topic": "Keep it short"}):
        assert not re.search(r"[\w-]'s\b", text.replace("'Keep it short'", "")), text


def test_listing_users_with_bots_asks_for_everyone_and_reads_no_bot_flags() -> None:
    """"And which bots are in the workspace?" got every user, each read out as "not bot": the words
    ask for the whole list, and the reply reads people, not a flag each."""
    turns = [(c, u, r) for c, u, r in _turns("team_chat", "list_users", 150, 4) if c["arguments"].get("include_bots")]
    assert turns
    for _, user, reply in turns:
        assert "which bots" not in user.lower(), user
        assert "everyone" in user.lower(), user
        assert "not bot" not in reply, reply


def test_a_chat_search_quotes_what_it_looks_for() -> None:
    """"Search chat for next week." reads as a time, not as the words to find: they are quoted."""
    calls = [(call["arguments"], user) for call, user, _ in _turns("team_chat", "search_messages", 150, 4)
             if set(call["arguments"]) == {"query"}]
    assert calls
    for args, user in calls:  # (a clarification's answer says the request no more, but may name a message)
        assert f"'{args['query']}'" in user or args["query"] not in re.sub(r"(?i)the message '.*?[.!?]'[ ,]", "", user), user


def test_the_user_is_the_subject_of_what_they_wrote() -> None:
    """"Show me what me wrote in the channel 'team-onboarding'." fills the user in as "me"."""
    assert tidy("Show me what me wrote in the channel 'general'.") == "Show me what I wrote in the channel 'general'."
    assert tidy("What has me said about the launch?") == "What have I said about the launch?"


def test_a_message_read_out_is_quoted() -> None:
    """"7 messages: Thanks, noted!: posted March 16 at 9:00 AM; Retro doc is ready.: posted ..." runs
    a message into the words around it; it is quoted."""
    turns = [(c, r) for c, u, r in _turns("team_chat", "search_messages", 150, 4) if set(c["arguments"]) == {"query"}
             and f"'{c['arguments']['query']}'" in u]  # asked for, not a lookup of a message the user named
    assert turns
    for _, reply in turns:
        assert re.search(r"I found \d+ messages?: (?:you|[A-Z][\w']+ [A-Z][\w']+) in .+? on .+?: '", reply), reply
        assert not re.search(r"[.!?]: ", reply), reply


def test_a_channel_is_looked_for_by_its_name_and_the_user_is_a_member() -> None:
    """"Is there a channel about random?" asks after a topic with a channel's name; "random: kind
    public, ..., member" reads a flag: "you're a member"."""
    calls = [(c["arguments"], u) for c, u, _ in _turns("team_chat", "list_channels", 150, 4) if "query" in c["arguments"]]
    assert calls
    for args, user in calls:  # (or it looks the channel up by the name the user gave)
        assert f"channel about {args['query']}" not in user, user
    assert field_text("is_member", True) == "you're a member"


def test_deleting_a_message_reads_no_zero_replies() -> None:
    """"Done: the message is gone; 0 thread replies stay under it." counts what is not there."""
    index = _index("team_chat")
    me = next(k for k, r in index.rows["user"].items() if r["is_me"])
    mine = next(k for k, r in index.every["message"].items() if r["user_id"] == me and not r["is_deleted"]
                and not any(x.get("thread_id") == k for x in index.every["message"].values()))
    for text in _replies("team_chat", "delete_message", {"message_id": mine}):
        assert " 0 " not in text and "nobody had replied" in text, text


def test_a_scheduled_message_fits_the_time_it_is_posted() -> None:
    """"Schedule 'Reminder: demo at 2pm today!' ... for March 18 at 4:30 PM" posts it after the demo;
    "Happy Friday, team!" goes out on a Friday."""
    calls = [call["arguments"] for call, _, _ in _turns("team_chat", "schedule_message", 150, 4)]
    assert calls
    for a in calls:
        at = date.fromisoformat(a["post_at"][:10])
        hour = int(a["post_at"][11:13])
        if "2pm today" in a["text"]:
            assert hour < 14, a
        if "6pm" in a["text"]:
            assert hour < 18, a
        if "Friday" in a["text"]:
            assert at.weekday() == 4, a
        if "Good morning" in a["text"]:
            assert hour < 12, a



def test_a_mention_keeps_the_message_as_written() -> None:
    """"@javier.richardson i'll be out tomorrow afternoon": a mention put before a message lowered
    its first letter ("i'll", "qA found")."""
    for world in range(4):
        for row in _index("team_chat", world).rows["message"].values():
            opening = re.match(r"@[\w.]+ (\w+)", row["text"] or "")
            assert not (opening and re.fullmatch(r"i|[a-z][A-Z]+\w*", opening.group(1))), row["text"]


def test_a_thread_reply_fits_what_it_answers() -> None:
    """"What did people reply to 'Triggered: error rate above 2% on checkout-api'?" answered
    "'Count me in!' by Zara Wang; '+1' by Lina Hernandez": an alert is acknowledged, a question answered."""
    from prove.servers.team_chat.world import ALERT_REPLIES, QUESTION_REPLIES, REPLIES

    for world in range(3):
        rows = _index("team_chat", world).every["message"]
        channels = _index("team_chat", world).every["channel"]
        for r in rows.values():
            root = rows.get(r["thread_id"]) if r["thread_id"] and r["thread_id"] != r["message_id"] else None
            if root is None or r["text"] not in {*ALERT_REPLIES, *QUESTION_REPLIES, *REPLIES}:
                continue
            if channels[root["channel_id"]]["name"] == "incidents":
                assert r["text"] in ALERT_REPLIES, (root["text"], r["text"])
            elif root["text"].endswith("?"):
                assert r["text"] in QUESTION_REPLIES, (root["text"], r["text"])
            else:
                assert r["text"] in REPLIES, (root["text"], r["text"])


def test_a_project_channel_talks_about_its_project() -> None:
    """"Updated the Aurora tracker, three items are at risk." posted in proj-falcon."""
    from prove.servers.team_chat.world import PROJECTS

    seen = 0
    for world in range(3):
        index = _index("team_chat", world)
        channels = index.every["channel"]
        for r in index.every["message"].values():
            name = channels[r["channel_id"]]["name"]
            if name.startswith("proj-"):
                seen += 1
                others = [p.title() for p in PROJECTS if p != name.removeprefix("proj-")]
                assert not any(re.search(rf"\b{p}\b", r["text"]) for p in others), (name, r["text"])
    assert seen


def test_a_reminder_is_listed_with_the_time_it_is_for() -> None:
    """"2 reminders: 'Send the weekly update to the team': remind March 16 at 2:00 PM; ..."."""
    with Session(["team_chat"], world=0) as session:
        said = describe(session.call("list_reminders", {}).data)
    assert "for March" in said and "remind " not in said, said


def test_a_new_channel_s_topic_is_quoted() -> None:
    """"Please start a channel q2-planning about Open questions on the Q2 roadmap" runs a topic, as
    written, into the sentence."""
    said = [u for call, u, _ in _turns("team_chat", "create_channel", 240, 5) if "topic" in call["arguments"]]
    assert said
    for u in said:
        assert not re.search(r"about [A-Z]", u), u


def test_a_channel_says_each_of_its_lines_before_repeating_one() -> None:
    """"7 messages (all 'Has anyone seen flaky failures in the export tests today?')": one channel
    held the same line from seven people."""
    for world in range(4):
        rows = _index("team_chat", world).rows["message"].values()
        said = Counter((r["channel_id"], r["text"]) for r in rows if r["thread_id"] is None)
        assert max(said.values()) <= 3, said.most_common(3)

def test_a_channel_s_details_answer_the_question_asked() -> None:
    """"#team-growth: Growth team: standups, plans. Members: 8; pinned messages: 1; who can post: everyone."
    reads fields; each question gets its answer in words ("only admins can post there")."""
    channels = [k for k, r in _index("team_chat").rows["channel"].items() if r["kind"] != "dm"][:3]
    for channel in channels:
        args = {"channel_id": channel}
        (members,) = _answers("team_chat", "get_channel", args, "How many members does it have, and what's its topic?")
        assert re.search(r"has \d+ members, and its topic is '", members) and "pinned" not in members, members
        (pins,) = _answers("team_chat", "get_channel", args, "Tell me about it: its topic, members and pinned messages.")
        assert re.search(r"(no|\d+) pinned messages?\.$", pins) and "1 pinned messages" not in pins, pins
        (posting,) = _answers("team_chat", "get_channel", args, "What is it for, and who can post there?")
        assert re.search(r"(everyone|only admins) can post there\.$", posting), posting
        for text in (members, pins, posting):
            assert not re.search(r"Members:|who can post:|pinned messages:", text), text


def test_a_handle_asked_for_is_answered_with_the_handle() -> None:
    """"find Adrian Morgan's handle so I can mention them" is answered "1 user: Adrian Morgan: @adrian.morgan,
    title IT Support Specialist, email ..., timezone America/Denver."; a person says "Adrian Morgan is
    @adrian.morgan"."""
    user = [r for r in _index("team_chat").rows["user"].values() if not r["is_me"] and not r["is_bot"]][3]
    args = {"query": user["name"]}
    (handle,) = _answers("team_chat", "list_users", args, "Find their handle so I can mention them.")
    assert handle == f"{user['name']} is @{user['handle']}.", handle
    (who,) = _answers("team_chat", "list_users", args, "Who is that on chat?")
    assert "@" in who and not re.search(r"\b(email|timezone|title)\b", who), who


def test_chat_listings_read_as_a_person_says_them() -> None:
    """"'Submit the expense report': done, for March 5 at 2:00 PM" and "11 mentions: '@adam ...': channel
    team-checkout, by Elijah Morgan, posted March 16 at 8:53 AM" read field by field."""
    channel = next(k for k, r in _index("team_chat").rows["channel"].items() if r["name"] == "general")
    calls = [("list_reminders", {}), ("list_reminders", {"include_done": True}), ("list_scheduled_messages", {}),
             ("list_scheduled_messages", {"include_past": True}), ("list_mentions", {}),
             ("list_mentions", {"unread_only": True}), ("list_pins", {"channel_id": channel}),
             ("list_messages", {"channel_id": channel})]
    for tool, args in calls:
        for text in _replies("team_chat", tool, args):
            assert not re.search(r"': (done|pending)|\b(channel [a-z]|posted|reply count|status)\b|: \d+ [a-z]+s: ",
                                 text), (tool, text)
    (done,) = _replies("team_chat", "list_reminders", {"include_done": True})
    assert "(already went off)" in done, done


def test_a_reminder_about_a_message_names_the_message() -> None:
    """"Slackbot will remind you on March 23 at 1:30 PM to get back to this message." of a message the reply
    never names."""
    with Session(["team_chat"], world=0) as session:
        found = session.call("search_messages", {"limit": 100}).data["messages"]
    message = next(m for m in found if m["channel_name"] == "general")
    for text in ("get back to this message", "reply to this message"):
        args = {"message_id": message["message_id"], "remind_at": "2026-03-23T13:30:00", "text": text}
        for reply in _replies("team_chat", "set_reminder", args):
            assert "this message" not in reply, reply


def test_no_unread_mention_is_said_as_none() -> None:
    """"You were mentioned 15 times, 0 of them unread" counts what is not there."""
    spec = registry.get("team_chat").tools["list_mentions"]
    assert not any("{result.unread}" in r.text for r in spec.replies)
    for text in _replies("team_chat", "list_mentions", {}):
        assert not re.search(r"\b0 of them", text), text


def test_channels_and_threads_read_as_a_person_says_them() -> None:
    """"28 channels: announcements: public, topic Official announcements (admins post), 34 members; ..." and
    "2 replies: 'Noted, thanks.': by Camila Williams, posted March 9 at 3:56 PM" read field by field."""
    for args in ({"include_archived": True}, {"member_only": True}, {"kind": "dm"}, {"kind": "private"}):
        for text in _replies("team_chat", "list_channels", args):
            assert not re.search(r"\b(public|topic|members)\b|: (public|private)", text), (args, text)
    with Session(["team_chat"], world=0) as session:
        found = session.call("search_messages", {"limit": 100}).data["messages"]
    message = next(m["message_id"] for m in found if m["reply_count"] >= 2)
    (thread,) = _replies("team_chat", "get_thread", {"message_id": message})
    assert re.match(r"\d+ replies, oldest first: [A-Z]\w+ [A-Z]\w+ on [A-Z][a-z]+ \d+ at .+?: '", thread), thread
    assert not re.search(r"\b(by|posted) ", thread), thread


# ----- video meetings ------------------------------------------------------------------------------------


def _recording() -> str:
    return next(k for k, r in _index("video_meeting").rows["recording"].items() if r["status"] == "available")


def test_nobody_else_is_invited_to_a_one_on_one() -> None:
    """"Invite Tomas Jackson and Jacob Brown to the 1:1 James / Adrian meeting": a 1:1 is the two
    people its topic names."""
    seen = 0
    for ex in _generated("video_meeting", 100, 1):
        meetings = _index("video_meeting", ex["meta"]["world"]).every["meeting"]
        for turn in ex["turns"]:
            for call in turn["calls"]:
                if call["name"] == "invite_to_meeting" and call["arguments"]["meeting_id"] in meetings:
                    seen += 1
                    assert not meetings[call["arguments"]["meeting_id"]]["topic"].startswith("1:1"), call
    assert seen


def test_a_transcript_reads_as_who_said_what() -> None:
    """"8 lines: Okay, let's get started.: offset 0 seconds, speaker James O'Brien" reads a record's
    fields; a transcript reads "James O'Brien: 'Okay, let's get started ...'"."""
    with Session([registry.get("video_meeting")], world=0) as session:
        data = session.call("get_transcript", {"recording_id": _recording()}).data
    text = describe(data)
    assert "offset" not in text and "speaker " not in text, text
    assert re.search(r"lines: [A-Z][\w' ]+: '[A-Z]", text), text


def test_a_transcript_names_a_company_as_it_is_written() -> None:
    """"First item on the agenda is the keystone holdings onboarding call."."""
    seen = 0
    for world in range(2):
        index = _index("video_meeting", world)
        companies = {r["company"] for r in index.rows["person"].values() if r.get("company")}
        with Session(["video_meeting"], world=world) as session:
            for recording in index.rows["recording"]:
                result = session.call("get_transcript", {"recording_id": recording})
                for line in result.data["lines"] if result.ok else []:
                    for company in companies:
                        if company.lower() in line["text"].lower():
                            seen += 1
                            assert company in line["text"], line["text"]
    assert seen


def test_a_meeting_chat_message_is_written_from_inside_the_meeting() -> None:
    """"Kick off the meeting now ... Tell everyone in the chat: Running 5 minutes late, start without
    me": a chat message is sent by someone in the live meeting."""
    for text in registry.get("video_meeting").tools["send_chat_message"].values["text"]:
        assert not re.search(r"\blate\b|without me", text), text


def test_a_speaker_who_said_nothing_is_told_so() -> None:
    """"What did Hassan Jones say in the recording ...?" answered with the meeting's date alone
    does not answer: he said nothing there."""
    for text in _replies("video_meeting", "get_transcript", {"recording_id": _recording(), "speaker": "Nobody Here"}):
        assert "Nobody Here didn't say anything" in text, text


def test_who_is_in_a_meeting_is_answered_with_names() -> None:
    """"Who is in the meeting 'Weekly Engineering sync' right now?" -> "1 person is in the meeting"
    counts where the question asks who."""
    meeting = next(k for k, r in _index("video_meeting").rows["meeting"].items()
                   if r["status"] == "scheduled" and r["host_id"] == "PER-10001" and r["starts_at"] <= "2026-03-16T10")
    start = [("start_meeting", {"meeting_id": meeting})]
    for status in ("in_meeting", "waiting"):
        for text in _replies("video_meeting", "list_participants", {"meeting_id": meeting, "status": status}, start):
            assert not re.search(r"\b\d+ (?:people|person)\b", text), text
            assert re.search(r": (?:you\b|[A-Z][a-z]+ [A-Z])", text), text  # the user alone is "you"


def test_a_participant_is_said_by_name() -> None:
    """"Let participant PRT-10264 in from the waiting room." names a person by a key: "Let Leo
    Ramirez in from the waiting room."."""
    turns = [u for tool in ("admit_participant", "mute_participant") for _, u, _ in _turns("video_meeting", tool, 150, 5)]
    assert turns
    for user in turns:
        assert not re.search(r"\bPRT-\d+", user), user


def test_a_participant_of_a_past_meeting_is_the_person() -> None:
    """"Alice Roberts's participant in the meeting 'Weekly Engineering sync'" is not how a person is
    said: "Alice Roberts in the meeting 'Weekly Engineering sync' from February 16"."""
    say = _phrasing("video_meeting")
    texts = [say.entity("participant", k) for k in _index("video_meeting").every["participant"]]
    assert any(re.match(r"[A-Z][\w']+ [A-Z][\w']+ in the meeting '", t) for t in texts)
    assert not any("'s participant" in t for t in texts)


def test_a_request_the_assistant_declines_names_a_real_thing() -> None:
    """"End meeting MTG-37024 for everyone." (declined: no tool for it) names an invented key; with
    no live meeting to end, it names a meeting the user has."""
    said = [next(m["content"] for m in ex["messages"] if m["role"] == "user")
            for ex in _generated("video_meeting", 300, 3) if ex["kind"] == "abstention"]
    assert said and not any(re.search(r"\b[A-Z]{2,4}-\d{5}\b", text) for text in said)


def test_the_participant_list_is_asked_for_as_one() -> None:
    """"Who attended the meeting 'Weekly Engineering sync'?" of a meeting just started lists people
    still in the waiting room as attending."""
    asks = [a.text for a in registry.get("video_meeting").tools["list_participants"].asks if not a.binds]
    assert asks and not any("attended" in a for a in asks)


def test_an_account_question_is_answered_alone() -> None:
    """"What's my personal meeting room link?" answered with the plan, the link and the storage at once
    ("your recordings use 3,595.8 of 5120 MB") says more than was asked, in a number nobody reads."""
    said = {q: _answers("video_meeting", "get_my_account", {}, q) for q in (
        "What's my personal meeting room link?", "Which plan am I on, and how many people can join my meetings?")}
    (link,), (plan,) = said.values()
    assert "https://" in link and "plan" not in link and "GB" not in link, link
    assert "plan" in plan and "https://" not in plan and "GB" not in plan, plan


def test_meetings_read_as_a_person_says_them() -> None:
    """"28 meetings in all; 5 of them: Cross-team roadmap sync: live, host Julia Zhang, starts March 16 at
    8:30 AM; ..." and "Fiona Gomez: email ..., job title Head of Engineering, colleague." read field by
    field; "Has it started yet?" is answered whether it has."""
    for args in ({}, {"status": "ended"}, {"role": "invited", "from_date": "2026-03-16", "to_date": "2026-03-20"}):
        for text in _replies("video_meeting", "list_meetings", args):
            assert not re.search(r"\b(host [A-Z]|starts [A-Z]|scheduled|in all)\b|: (live|ended)", text), text
    index = _index("video_meeting")
    for meeting in list(index.rows["meeting"])[:40:8]:
        (started,) = _answers("video_meeting", "get_meeting", {"meeting_id": meeting},
                              "Has it started yet, and how many people are invited?")
        assert re.search(r"(hasn't started yet|is live now|has ended|was cancelled)", started), started
        assert "https://" not in started, started
    person = list(index.rows["person"].values())[3]
    (who,) = _answers("video_meeting", "search_people", {"query": person["name"]},
                      "Look up {query}; I want to invite them to a call.")
    assert who.startswith(f"I found 1 person: {person['name']}") and person["person_id"] not in who, who
    for text in _replies("video_meeting", "search_people", {"query": person["name"]}):
        assert not re.search(r"\b(email|job title|colleague)\b|@", text), text


def test_recordings_read_as_a_person_says_them() -> None:
    """"7 recordings: Keystone Holdings onboarding call: on March 10, duration 28 minutes, size 303 MB"."""
    for args in ({}, {"status": "deleted"}):
        for text in _replies("video_meeting", "list_recordings", args):
            assert re.search(r"'[^']+' from [A-Z][a-z]+ \d+ \(\d+ minutes, [\d,.]+ MB", text), text
            assert not re.search(r"\b(duration|size) \d|: on ", text), text


def test_participants_and_a_transcript_read_as_a_person_says_them() -> None:
    """"6 participants: James O'Brien: in meeting, role host; Fiona Gomez: waiting, role attendee" names the
    user by name and reads fields; "Weekly Engineering sync: on March 9; 8 lines: ..." heads a transcript
    with a field."""
    (who,) = _replies("video_meeting", "list_participants", {"meeting_id": "MTG-10051"},
                      before=[("start_meeting", {"meeting_id": "MTG-10051"})])
    assert re.search(r": you are in it now; .+ are waiting to be let in\.$", who), who
    assert not re.search(r"\b(role|host|attendee)\b", who), who
    recording = next(k for k, r in _index("video_meeting").rows["recording"].items() if r["status"] == "available")
    (full,) = _replies("video_meeting", "get_transcript", {"recording_id": recording})
    assert re.search(r"^The transcript of '[^']+' from [A-Z][a-z]+ \d+, \d+ lines: [A-Z]", full), full
    (said,) = _replies("video_meeting", "get_transcript", {"recording_id": recording, "speaker": "Leo"})
    assert re.search(r", Leo \w+ said '", said), said


def test_storage_left_is_said() -> None:
    """"How much cloud recording storage do I have left?" answered "your recordings use 3,733.2 of
    5120 MB" leaves the sum to the user."""
    (text,) = _answers("video_meeting", "get_my_account", {}, "How much cloud recording storage do I have left?")
    assert re.search(r"use [\d.]+ GB of your \d+ GB, so [\d.]+ GB is left\.$", text), text


def test_a_meeting_chat_and_its_host_read_plainly() -> None:
    """"Tell everyone in the meeting Weekly Engineering sync's chat" glues "'s" to a title; "host
    James O'Brien, you are host" says the host twice."""
    tool = registry.get("video_meeting").tools["send_chat_message"]
    assert not any("}'s" in a.text for a in tool.asks)
    meeting = {"meetings": [{"meeting_id": "MTG-1", "topic": "Weekly sync", "host_name": "James O'Brien",
                             "you_are_host": True, "starts_at": "2026-03-16T09:00:00", "status": "scheduled"},
                            {"meeting_id": "MTG-2", "topic": "Design review", "host_name": "Aisha Lewis",
                             "you_are_host": False, "starts_at": "2026-03-16T13:30:00", "status": "scheduled"}]}
    text = describe(meeting)
    assert "you're the host" in text and "James O'Brien" not in text and "host Aisha Lewis" in text, text


def test_the_user_in_a_meeting_is_you() -> None:
    """"In the meeting 'Weekly Engineering sync' right now: James O'Brien." names the user to themself."""
    index = _index("video_meeting")
    with Session(["video_meeting"], world=0) as session:
        meeting = next(m for m in index.rows["meeting"] if session.call("start_meeting", {"meeting_id": m}).ok)
    me = next(r["name"] for r in index.rows["person"].values() if r["is_me"])
    texts = _replies("video_meeting", "list_participants", {"meeting_id": meeting, "status": "in_meeting"},
                     before=[("start_meeting", {"meeting_id": meeting})])
    for text in texts:
        assert "right now: you" in text and me not in text, text


def test_the_calendar_directory_says_who_each_person_is() -> None:
    """"1 person: David Stewart: at Bright Energy, email ..., job title Solutions Consultant, department
    Customer Success." read a directory entry field by field; an email asked for is the email."""
    for asked in ("Look up {query} in the company directory.", "Who do we have in the directory matching '{query}'?"):
        for text in _answers("calendar", "search_people", {"query": "Stewart"}, asked):
            assert "David Stewart, Solutions Consultant in Customer Success at Bright Energy" in text, text
            assert "job title" not in text and "department" not in text, text
    (email,) = _answers("calendar", "search_people", {"query": "Stewart"}, "What's {query}'s email address?")
    assert email == "David Stewart's email address is david.stewart@brightenergy.com.", email


def test_disk_usage_says_what_a_folder_holds() -> None:
    """"There are 559.8 KB in 4 files in /Documents/Finance/Taxes/2025" reads a sum as things there are,
    and the folder by its path; a person says "The 2025 folder holds 559.8 KB in 4 files"."""
    for path, said in (("/Documents/Recipes", "The Recipes folder holds "), ("/", "Your drive holds ")):
        for text in _replies("filesystem", "get_disk_usage", {"path": path}):
            assert text.startswith(said) and "There are" not in text, text


def test_a_thing_renamed_is_asked_about_by_its_new_name() -> None:
    """"Rename the Hold event to 'Sprint planning'." was followed by "Now when is the Hold event?": a
    later turn whose value flows from an earlier result named it by the label it had when planned."""
    from prove.synth.pipeline import SynthConfig, Synthesizer

    ex = json.loads(Synthesizer(SynthConfig(n=400, seed=5, servers=["calendar"])).example(204).line)
    first, later = [m["content"] for m in ex["messages"] if m["role"] == "user"][:2]
    assert "rename the Hold event to 'Sprint planning'" in first, first
    assert "Hold" not in later and "Sprint planning" in later, later


def test_one_meeting_of_a_new_series_is_named_by_its_day_not_its_id() -> None:
    """"Now remind me 30 minutes before event EVT-10271." named one meeting of a series the
    conversation had just made by an ID the user never saw: it is "the event 'Team standup' on April 8"."""
    from prove.synth.pipeline import SynthConfig, Synthesizer

    ex = json.loads(Synthesizer(SynthConfig(n=2000, seed=6161)).example(1493).line)
    users = [m["content"] for m in ex["messages"] if m["role"] == "user"]
    title = next(m[1] for u in users if (m := re.search(r"create a daily '([^']+)'", u)))
    assert not any(re.search(r"EVT-\d+", u) for u in users), users
    assert any(f"the event '{title}' on April" in u for u in users), users


def test_a_mailbox_question_is_answered_alone() -> None:
    """"What's my email address, and do I have any aliases?" was answered with the blocked senders and
    the out-of-office reply too; the settings question still gets the whole account."""
    (address,) = set(_answers("email", "get_mailbox", {}, "What's my email address, and do I have any aliases?"))
    assert address.startswith("Your address is ") and "Blocked" not in address and "out-of-office" not in address
    (blocked,) = set(_answers("email", "get_mailbox", {}, "Which senders have I blocked?"))
    assert blocked.startswith("You've blocked ") and "address" not in blocked, blocked
    settings = _answers("email", "get_mailbox", {}, "Is my out-of-office reply on? Show me my mail settings.")
    assert settings and all("out-of-office" in t and "Blocked senders" in t for t in settings), settings


def test_a_meeting_is_started_only_near_its_time() -> None:
    """"Please start one of the meetings." -> "the meeting 'Weekly Marketing sync' from March 23", a week
    early: a meeting is started on its day, or the day before at the earliest."""
    started = []
    for ex in _generated("video_meeting", 300, 17):
        results = {m["tool_call_id"]: json.loads(m["content"]) for m in ex["messages"] if m["role"] == "tool"}
        started += [results[c["id"]]["starts_at"] for t in ex["turns"] for c in t["calls"]
                    if c["name"] == "start_meeting" and "starts_at" in results.get(c["id"], {})]
    assert len(started) >= 5, started
    assert all(s < "2026-03-17T09:00:00" for s in started), started


def test_a_new_issue_is_asked_for_with_its_priority_said_as_one() -> None:
    """"Then file a low task in the Web Storefront project" -> "a low-priority task"."""
    asked = [u for ex in _generated("issue_tracker", 300, 11) for _, u in _turn_users(ex)
             if re.search(r"\b[Ff]ile an? ", u)]
    assert asked
    assert all(re.search(r"\b[Ff]ile an? (?:low|medium|high|critical|highest|lowest)-priority ", u) or
               not re.search(r"\b[Ff]ile an? (?:low|medium|high|critical) ", u) for u in asked), asked
    assert any("-priority " in u for u in asked), asked


def test_whom_we_know_at_an_account_is_said_as_a_list() -> None:
    """"At Tidal Trust we know Elena Johnson (Analytics Lead), James Rivera (Operations Manager), Leo Richardson
    (CTO), Sophie Fischer. Deals: no deals yet." ran the names on without an "and"."""
    accounts = _index("crm", 0).every["account"]
    checked = 0
    for account in list(accounts)[:12]:
        for text in _answers("crm", "get_account", {"account_id": account}, "Who do we know at it, and what deals do we have with them?"):
            names = text.split(" we know ", 1)[-1].split(". ")[0]
            if ", " in names or "; " in names:
                checked += 1
                assert " and " in names, text
            assert "no deals yet." not in text or "Deals: no deals yet" not in text, text
    assert checked


def test_a_task_moved_with_a_new_priority_says_the_priority() -> None:
    """"Move the task ... to March 18 and make it normal priority." was answered "'Send recap ...' is
    now due March 18.", silent on the priority it was asked to set."""
    with Session(["crm"], world=0) as session:
        task = next(t["activity_id"] for t in session.call("list_tasks", {}).data["activities"] if t["status"] == "open")
    with_priority = _replies("crm", "reschedule_task", {"activity_id": task, "due_date": "2026-03-18",
                                                        "priority": "high"})
    assert with_priority and all("high priority" in t for t in with_priority), with_priority
    assert all("priority" not in t for t in _replies("crm", "reschedule_task",
                                                     {"activity_id": task, "due_date": "2026-03-18"}))


def test_a_series_is_stopped_from_a_day_not_a_stray_time() -> None:
    """"Stop the recurring event 'Focus time' from March 17 at 8:30 AM on" of a series that meets at
    2:00 PM: the moment it stops from is a day, said as one ("from March 23 on")."""
    spec = registry.get("calendar").tools["cancel_series"]
    assert spec.values.get("starting")
    for value in spec.values["starting"]:
        assert value.endswith("T00:00:00"), value
    index = _index("calendar")
    me = next(k for k, r in index.rows["person"].items() if r["is_me"])
    series = next(k for k, r in index.rows["series"].items() if r["organizer_id"] == me)
    for text in _replies("calendar", "cancel_series", {"series_id": series, "starting": spec.values["starting"][0]}):
        assert not re.search(r"\d:\d\d [AP]M", text), text


def test_a_meeting_moved_earlier_is_not_pushed() -> None:
    """"Push the event 'Beacon estimation' from April 24 to March 30 at 3:00 PM" pushes a meeting back
    in time: a move that may go either way is asked as a move."""
    spec = registry.get("calendar").tools["reschedule_event"]
    for ask in spec.asks:
        text = ask if isinstance(ask, str) else ask.text
        assert not re.search(r"\b(push|postpone|delay|bring .* forward|pull .* forward)\b", text, re.I), text


def test_nobody_invited_reads_as_one() -> None:
    """"'All-hands prep' hasn't started yet; it starts March 23 at 2:30 PM, and nobody are invited."."""
    before = [("schedule_meeting", {"topic": "All-hands prep", "start_time": "2026-03-23T14:30:00",
                                    "duration_minutes": 10})]
    with Session([registry.get("video_meeting")], world=0) as session:
        made = session.call(*before[0]).data
    for text in _replies("video_meeting", "get_meeting", {"meeting_id": made["meeting_id"]}, before):
        assert not re.search(r"\bnobody (are|were|have)\b", text), text


def test_a_quick_call_says_whom_it_invited() -> None:
    """"Start a quick call called 'Incident call' and invite Sara Mendoza" answered "Your meeting is
    live: https://..." never says Sara was invited."""
    index = _index("video_meeting")
    person = next(k for k, r in index.rows["person"].items() if not r.get("is_me"))
    name = index.rows["person"][person]["name"]
    texts = _replies("video_meeting", "start_instant_meeting", {"topic": "Incident call", "invitees": [person]})
    assert texts
    for text in texts:
        assert name in text, text
    for text in _replies("video_meeting", "start_instant_meeting", {"topic": "Incident call"}):
        assert "invited" not in text, text


def test_a_message_out_of_spam_is_not_said_in_spam() -> None:
    """"Done: the email 'How the best PMs write strategy docs' in Spam is out of spam and in your inbox."
    says where it was twice."""
    index = _index("email")
    spam = next(k for k, r in index.rows["message"].items() if r.get("folder_id") == "spam")
    for text in _replies("email", "mark_not_spam", {"message_id": spam}):
        assert not re.search(r"in Spam .*out of spam", text), text
        assert "in your inbox" not in text or "back in your inbox" in text, text


def test_an_account_is_asked_about_as_an_account() -> None:
    """"Please show me the account floress's followers" and "search for people called clarah_cooks": a
    handle is not what people are called, and an account's followers are who follows it."""
    tools = registry.get("social_media").tools
    for tool in ("list_followers", "search_accounts"):
        for ask in tools[tool].asks:
            text = ask if isinstance(ask, str) else ask.text
            assert not re.search(r"\}'s |called \{", text), text



def test_a_shared_calendar_keeps_its_name() -> None:
    """"Set up a meeting ... on the Carlos White calendar" after the Work calendar was shared with
    Carlos White: a share's record names the calendar by the calendar's name, the person apart."""
    index = _index("calendar")
    work = next(k for k, r in index.rows["calendar"].items() if r["name"] == "Work")
    person = next(k for k, r in index.rows["person"].items() if not r["is_me"])
    with Session([registry.get("calendar")], world=0) as session:
        share = session.call("share_calendar", {"calendar_id": work, "person_id": person, "permission": "write"}).data
    label = registry.get("calendar").entities["calendar"].label
    assert share.get(label) in (None, "Work"), share


def test_one_thing_with_a_word_before_it_is_one() -> None:
    """"You have 1 unread mentions: ..." counts one thing in the plural."""
    assert tidy("You have 1 unread mentions: Hannah Abbott in #engineering.") == \
        "You have 1 unread mention: Hannah Abbott in #engineering."
    assert tidy("2 unread mentions and 1 new messages.") == "2 unread mentions and 1 new message."


def test_a_scheduled_meeting_says_whom_it_invited() -> None:
    """"Set up a 15-minute call about 'Q2 planning' ... and invite Adrian Gonzalez." answered "Done: 'Q2
    planning' is on the calendar at March 20 at 12:30 PM, link ..." never says Adrian was invited."""
    index = _index("video_meeting")
    person = next(k for k, r in index.rows["person"].items() if not r.get("is_me"))
    name = index.rows["person"][person]["name"]
    args = {"topic": "Q2 planning", "start_time": "2026-03-20T12:30:00", "duration_minutes": 15, "invitees": [person]}
    for text in _replies("video_meeting", "schedule_meeting", args):
        assert name in text, text
    for text in _replies("video_meeting", "schedule_meeting", {"topic": "Q2 planning", "start_time": "2026-03-20T12:30:00",
                                                               "waiting_room": False}):
        assert "waiting room" in text, text


def test_a_forward_says_whom_it_copied() -> None:
    """"Pass the email ... along to emma.walker@... and cc abigail.cruz@..." answered "Done: the email ...
    went to emma.walker@..." leaves out the copy; one forwarded without its attachments says so."""
    index = _index("email")
    message = next(k for k, r in index.rows["message"].items() if r.get("folder_id") == "inbox")
    args = {"message_id": message, "to": ["emma.walker@example.com"], "cc": ["abigail.cruz@example.com"]}
    for text in _replies("email", "forward_message", args):
        assert "abigail.cruz@example.com" in text, text
    bare = {"message_id": message, "to": ["emma.walker@example.com"], "include_attachments": False}
    for text in _replies("email", "forward_message", bare):
        assert "without the attachments" in text, text


def test_a_new_channel_is_said_as_a_channel() -> None:
    """"Now on March 25 at 8:30 AM, post this in the new public: Good morning!" calls a channel by its kind."""
    said = [m["content"] for ex in _generated("team_chat", 200, 7) for m in ex["messages"] if m["role"] == "user"]
    assert any("new channel" in text for text in said)
    for text in said:
        assert not re.search(r"\b(new|that) (public|private|dm)\b", text), text


def test_chat_search_words_are_quoted() -> None:
    """"What have I said about launch post?" reads a search phrase as if it were a thing."""
    for ask in registry.get("team_chat").tools["search_messages"].asks:
        text = ask if isinstance(ask, str) else ask.text
        assert "{query}" not in text or "'{query}'" in text, text


def test_a_quoted_message_with_an_apostrophe_is_kept_as_written() -> None:
    """"you on March 6: 'Please send you your team's OKR drafts by Friday.'" rewrites the user's own words:
    an apostrophe inside a quote does not end it."""
    from prove.synth.phrasing import spoken_to_user

    text = "I found 1 message: you on March 6: 'Please send me your team's OKR drafts by Friday.' (3 replies)."
    assert spoken_to_user(text) == text
    assert spoken_to_user("Sent 'Let's meet' to me.") == "Sent 'Let's meet' to you."


def test_one_day_and_one_thing_read_plainly() -> None:
    """"Which meetings am I hosting between March 23 and March 23?" and "I found 1 email, newest first: ..."."""
    assert tidy("Which meetings am I hosting between March 23 and March 23?") == "Which meetings am I hosting on March 23?"
    assert tidy("I found 1 emails, newest first: 'Retail earnings' from Morning Brew.") == \
        "I found 1 email: 'Retail earnings' from Morning Brew."
    assert tidy("I found 2 emails, newest first: 'A' and 'B'.") == "I found 2 emails, newest first: 'A' and 'B'."


def test_reminders_are_asked_of_an_event_that_has_some() -> None:
    """"Which reminders are on the event 'Roadmap review'?" of an event with none finds nothing to say."""
    (ask,) = [a for a in registry.get("calendar").tools["list_reminders"].asks
              if "{event_id}" in (a if isinstance(a, str) else a.text)]
    assert "reminders" in getattr(ask, "fits", {}).get("event_id", ""), ask


def test_a_deal_reopened_says_its_stage() -> None:
    """"Reopen the deal '...' in qualification." answered "... is open again, expected to close April 15"."""
    for reply in registry.get("crm").tools["reopen_deal"].replies:
        assert "{result.stage}" in reply.text or "{stage}" in reply.text, reply.text


def test_messages_of_a_window_are_not_called_the_latest() -> None:
    """"What was said in the channel 'random' between March 13 and March 23?" was answered "The latest
    in the channel 'random', oldest first: ..."; a window's messages are said as the window's."""
    channel = next(c for c, row in _index("team_chat").rows["channel"].items() if row["name"] == "random")
    window = _replies("team_chat", "list_messages", {"channel_id": channel, "after": "2026-03-13T09:00:00",
                                                      "before": "2026-03-23T17:00:00"})
    assert window and not any("latest" in t for t in window), window
    assert all("latest" in t for t in _replies("team_chat", "list_messages", {"channel_id": channel}))


def test_a_label_is_taken_off_in_words_that_fit_a_label() -> None:
    """"the email '...' shouldn't be tagged the Finance label" puts a label where a tag's name goes."""
    asked = [u for ex in _generated("email", 400, 5) for _, u in _turn_users(ex) if "Finance label" in u
             or "label '" in u]
    assert asked
    assert not any(re.search(r"tagged (the|a) ", u) for u in asked), [u for u in asked if "tagged" in u]


def test_a_new_sprint_is_named_as_a_sprint() -> None:
    """"Planned Crash fixes from March 17 to March 23." reads the sprint's name as a plain phrase."""
    project = next(iter(_index("issue_tracker").rows["project"]))
    for text in _replies("issue_tracker", "create_sprint", {"project_id": project, "sprint_name": "Crash fixes",
                                                            "start_date": "2026-03-17", "end_date": "2026-03-23"}):
        assert "sprint 'Crash fixes'" in text, text


def test_a_new_issue_given_to_someone_says_to_whom() -> None:
    """"File a medium-priority task ...: 'Rate-limit password reset e-mails'. Assign it to Chloe Davis."
    was answered "Filed ... as PAY-10047, a medium-priority task.", silent on whom it went to."""
    with Session(["issue_tracker"], world=0) as session:
        project = next(p["project_id"] for p in session.call("list_projects", {}).data["projects"] if p["status"] == "active")
        member = next(m for m in session.call("search_users", {"query": "a", "project_id": project}).data["users"]
                      if m["role"] in ("member", "admin") and m["name"] != session.call("get_my_dashboard", {}).data["name"])
    args = {"project_id": project, "title": "Rate-limit password reset e-mails", "type": "task",
            "priority": "medium", "assignee_id": member["user_id"]}
    texts = _replies("issue_tracker", "create_issue", args)
    assert texts and all(member["name"] in t for t in texts), texts


def _one_request(server: str, asked: list[tuple[str, str, dict]], picks: dict) -> str:
    """The user's words for one request of the steps `asked` ((tool, phrasing, values it takes)), planned by
    the teacher on a fork with the entities `picks` (by parameter) named by the user."""
    from dataclasses import replace

    from prove.env import Ask
    from prove.synth.contract import Conversation
    from prove.synth.pipeline import SynthConfig, Synthesizer
    from prove.synth.teachers.programmatic import Planner, Source

    spec = replace(Synthesizer(SynthConfig(n=10, seed=1, servers=[server])).spec(0), kind="multi_turn",
                   level="complete", recovery=0.0, infeasible=0.0)
    with Session([spec.server], world=spec.world) as session:
        planner = Planner(Conversation(spec, session, _index(server, spec.world)))
        phrases = {tool: (Ask(text), values) for tool, text, values in asked}
        planner._phrase = lambda tool, steps: phrases[tool.name][0]
        planner._entity = lambda p, tool, steps, found, sess, attempt: (picks[p.name], Source("user"))
        planner._plain_value = lambda tool, p, *rest, **kw: phrases[tool.name][1][p.name]
        steps: list = []
        with session.fork() as fork:
            for tool, _, _ in asked:
                steps.extend(planner._step(spec.server.tools[tool], steps, fork, False))
        assert [s.tool.name for s in steps] == [tool for tool, _, _ in asked]
        return planner._write(steps, 1)[0].user



def test_a_thing_an_earlier_step_of_a_request_changed_is_told_as_it_is_now() -> None:
    """"Move the 1:1 Adam / Zoe event from April 1 to April 2 at 1:00 PM. Once that's done, pull up the
    1:1 Adam / Zoe event from April 1": a later mention in the request that moved a thing (or renamed it)
    told it as it was before the request."""
    events = _index("calendar", 0).rows["event"]
    say = _phrasing("calendar")
    with Session(["calendar"], world=0) as session:
        mine = [e for e in sorted(events) if session.satisfies("event", e, "organizer_id = (SELECT person_id FROM "
                                                                        "people WHERE is_me = 1) AND starts_at >= :now")]
        moved = next(e for e in mine if " from " in say.entity("event", e))  # told apart from its series by its day
        start = events[moved]["starts_at"]
        series_days = {r["starts_at"][:10] for r in events.values() if r["title"] == events[moved]["title"]}
        for later in range(1, 20):  # a day none of its series falls on, free to move it to
            start = (date.fromisoformat(events[moved]["starts_at"][:10]) + timedelta(days=later)).isoformat() + start[10:]
            with session.fork() as probe:
                if start[:10] not in series_days and probe.call("reschedule_event", {"event_id": moved, "start": start}).ok:
                    break
    user = _one_request("calendar", [("reschedule_event", "Move {event_id} to {start}.", {"start": start}),
                                     ("get_event", "Pull up {event_id} for me.", {})], {"event_id": moved})
    first, _, then = user.partition("ull up")
    was, now = (f"from {day(date.fromisoformat(d[:10]))}" for d in (events[moved]["starts_at"], start))
    assert was in first and was not in then and now in then, user

    held = next(e for e in mine if events[e]["description"] == "Holding this time; agenda to follow.")
    user = _one_request("calendar", [("update_event", "Rename {event_id} to '{title}'.", {"title": "Team retro"}),
                                     ("get_event", "Pull up {event_id} for me.", {})], {"event_id": held})
    then = user.partition("ull up")[2]
    assert events[held]["title"] not in then and "Team retro" in then, user


def test_a_search_about_words_takes_a_subject_and_one_for_a_name_the_whole_title() -> None:
    """"Find every meeting about Dinner with Victoria", "Find emails about Retail earnings beat the forecast":
    things found "about" words are found by a subject cut from a title ("design review"); a whole title is
    the thing "called" it ("Find the meeting called 'Dinner with Victoria'")."""
    from prove.synth.teachers.programmatic import _REPLY_PREFIX

    # (a meeting is searched by words of its title, never "about" them: see the test below)
    for server, tool, kind, seed in (("calendar", "search_events", "event", 5), ("email", "search_messages", "message", 8),
                                     ("issue_tracker", "search_issues", "issue", 3)):
        about = named = 0
        worlds: dict[int, set[str]] = {}
        for ex in _generated(server, 240, seed):
            titles = worlds.get(ex["world"]) or worlds.setdefault(ex["world"], {
                _REPLY_PREFIX.sub("", t).lower() for t in _index(server, ex["world"]).labels[kind].values()})
            for turn, user in _turn_users(ex):
                for query in (c["arguments"].get("query", "") for c in turn["calls"] if c["name"] == tool):
                    if re.search(rf"\babout {re.escape(query)}\b", user):
                        about += 1
                        assert query.lower() not in titles, user
                    if re.search(rf"\b(?:called|titled) '{re.escape(query)}'", user):
                        named += 1
                        assert query.lower() in titles, user
        assert (about or server == "calendar") and (named or server == "email"), (server, about, named)


def test_what_a_person_wrote_is_looked_for_in_a_channel_not_a_dm() -> None:
    """"Show me what Carlos Thomas wrote in the DM with Carlos Thomas": a phrasing that names the
    writer and the conversation takes no direct conversation, whose name is a person already."""
    tool = registry.get("team_chat").tools["search_messages"]
    both = [ask for ask in tool.asks if {"from_user_id", "channel_id"} <= set(ask.slots)]
    assert both
    db = registry.get("team_chat").template(0).db
    dms = [c for (c,) in db.execute("SELECT channel_id FROM channels WHERE kind = 'dm'")]
    assert dms
    with Session(["team_chat"]) as session:
        for ask in both:
            assert not any(session.satisfies("channel", dm, ask.fits.get("channel_id", "1")) for dm in dms), ask.text


def test_crm_records_of_one_name_are_told_apart_by_how_they_link() -> None:
    """"Read me the notes on the deal 'Lighthouse Market - Security Pack expansion' from Chloe Singh" reads
    as notes Chloe Singh wrote: a deal is with its contact and owned by its rep, a task is for an account
    and assigned to a rep, a note is by its author and on what it is about; none is "from" them."""
    say = _phrasing("crm", 1)
    db = registry.get("crm").template(1).db
    said = []
    for kind, table, key, label in (("deal", "deals", "deal_id", "name"),
                                    ("activity", "activities", "activity_id", "subject"),
                                    ("note", "notes", "note_id", "title")):
        twins = db.execute(f"SELECT {key} FROM {table} WHERE {label} IN "
                           f"(SELECT {label} FROM {table} GROUP BY {label} HAVING count(*) > 1)").fetchall()
        assert twins, kind
        said += [say.entity(kind, entity_id) for (entity_id,) in twins]
    for text in said:
        assert not re.search(r"' from [A-Z][a-z]+ [A-Z]", text), text  # a day may tell it: "from March 3"
    assert any(re.search(r"^the deal '.*' with [A-Z]", t) for t in said)
    assert any(re.search(r"^the task '.*' (?:for|assigned to) [A-Z]", t) for t in said)
    assert any(re.search(r"^the note '.*' (?:by|on) [A-Z]", t) for t in said)


def test_leads_are_asked_for_by_where_they_came_from_in_words() -> None:
    """"List the warm leads that came from webinar.": a source is said as the lead's field ("whose source is
    webinar"), not as a bare noun after "from"."""
    say = _phrasing("crm")
    tool = registry.get("crm").tools["list_leads"]
    asks = [ask for ask in tool.asks if "{source}" in ask.text]
    assert asks
    for ask in asks:
        for source in ("webinar", "referral", "partner", "trade_show", "website"):
            text = say.request(tool, ask, {"rating": "warm", "source": source}, {})
            assert not re.search(r"\bfrom (?:webinar|referral|partner|trade show|website)\b", text), text


def test_an_agenda_is_not_said_twice() -> None:
    """"Schedule 'Sprint planning' ..., with this agenda: Agenda: pick the stories for the next two weeks.":
    an agenda asked for in words that call it one does not start with the word again."""
    calendar = registry.get("calendar")
    for name in ("create_event", "update_event"):
        tool = calendar.tools[name]
        said = [ask.text for ask in tool.asks + tool.replies if re.search(r"agenda\b.*\{description\}", ask.text)]
        assert said, name
        descriptions = [row[-1] for row in tool.values.get("title, location, description", [])] + \
            list(tool.values.get("description", []))
        assert descriptions, name
        assert not [d for d in descriptions if d.lower().startswith("agenda")], descriptions


def test_a_reaction_is_named_as_an_emoji() -> None:
    """"Please remove my 100 reaction from the message …": an emoji a request names is written as one
    (":100:"), as the replies write it."""
    for name in ("add_reaction", "remove_reaction"):
        tool = registry.get("team_chat").tools[name]
        for ask in tool.asks:
            assert ":{emoji}:" in ask.text, ask.text


def test_who_sent_an_email_is_not_asked_of_one_named_by_its_sender() -> None:
    """"Who sent the email 'Moving help' from Elizabeth Miller, and to whom?": a question about the sender
    takes an email its subject alone names, so the words that name it do not give the answer away."""
    tool = registry.get("email").tools["get_message"]
    asks = [ask for ask in tool.asks if "who sent" in ask.text.lower()]
    assert asks
    db = registry.get("email").template(0).db
    shared = [m for (m,) in db.execute("SELECT message_id FROM messages WHERE subject IN "
                                       "(SELECT subject FROM messages GROUP BY subject HAVING count(*) > 1)")]
    alone = [m for (m,) in db.execute("SELECT message_id FROM messages WHERE subject IN "
                                      "(SELECT subject FROM messages GROUP BY subject HAVING count(*) = 1)")]
    assert shared and alone
    with Session(["email"]) as session:
        for ask in asks:
            fits = ask.fits.get("message_id", "1")
            assert not any(session.satisfies("message", m, fits) for m in shared), ask.text
            assert any(session.satisfies("message", m, fits) for m in alone), ask.text


def test_a_folder_the_phrasing_names_is_not_said_twice() -> None:
    """"Rescue the email 'How the best PMs write strategy docs' in the Spam folder from the spam folder": a thing
    told apart by its folder drops the folder where the phrasing's own words name it, and keeps it elsewhere."""
    say = _phrasing("email", 1)
    tool = registry.get("email").tools["mark_not_spam"]
    assert say.entity("message", "MSG-10010").endswith(" in the Spam folder")
    texts = {a.text: say.request(tool, a, {"message_id": "MSG-10010"}, {}) for a in map(as_ask, tool.asks)}
    rescue = next(t for a, t in texts.items() if "spam folder" in a)
    assert rescue == "Rescue the email 'How the best PMs write strategy docs' from the spam folder.", rescue
    assert all("in the Spam folder" in t for a, t in texts.items() if "spam folder" not in a), texts


def test_a_new_issue_has_the_type_and_labels_of_its_title() -> None:
    """"Open an issue in the Web Storefront project called 'Dark mode across the app', due April 30, labelled
    security", filed as a task: an issue's labels and type fit its title."""
    values = registry.get("issue_tracker").tools["create_issue"].values["type, title, labels"]
    fitting = {title: (kind, labels) for kind, title, labels in values}
    calls = [call["arguments"] for call, _, _ in _turns("issue_tracker", "create_issue", 400, 7)]
    labelled = [args for args in calls if "labels" in args]
    assert labelled
    for args in calls:
        if args.get("title") in fitting:
            kind, labels = fitting[args["title"]]
            assert args.get("type", "task") == kind, args
            assert args.get("labels", labels) == labels, args


def test_a_daily_series_says_its_first_meeting_as_one_span() -> None:
    """"create a daily 'Focus block' on the Work calendar, starting March 25 at 8:30 AM and ending March 25 at
    9:00 AM, until May 8" says the day twice and reads as two ends: the first meeting is said as one span."""
    say = _phrasing("calendar")
    tool = registry.get("calendar").tools["create_recurring_event"]
    ask = next(as_ask(a) for a in tool.asks if "daily" in as_ask(a).text)
    text = say.request(tool, ask, {"title": "Focus block", "calendar_id": "CAL-10037", "start": "2026-03-25T08:30:00",
                                   "end": "2026-03-25T09:00:00", "until": "2026-05-08", "frequency": "daily"}, {})
    assert "on March 25 from 8:30 AM to 9:00 AM, until May 8" in text, text


def test_a_title_with_words_in_brackets_is_quoted() -> None:
    """"Rename the Meeting (title TBD) event to 'Project sync'.": a title with a lower-case word in brackets is
    not a name a person says bare; it is "the event 'Meeting (title TBD)'"."""
    said = [text for ex in _generated("calendar", 600, 7171) for m in ex["messages"] if m["role"] != "tool"
            for text in [m.get("content") or ""] if "(title TBD)" in text]
    assert said
    assert all("'Meeting (title TBD)'" in text for text in said), said


def test_removing_a_contact_says_from_where() -> None:
    """"Remove Jack Johnson." does not say what to remove him from: a contact is named bare, so every ask of
    `delete_contact` says it is the address book."""
    asks = [a.text for a in registry.get("email").tools["delete_contact"].asks]
    assert all(re.search(r"contacts|address book", text) for text in asks), asks


def test_a_search_is_not_for_what_the_conversation_already_named() -> None:
    """"Who owns Ana Ortiz, and how hot is the lead? ... And do we have a lead from Ana Ortiz?": a person searches
    for a thing they have not yet talked about, not one an earlier request of theirs named."""
    searched = 0
    for ex in _generated("crm", 600, 8282):
        index, named = _index("crm", ex["world"]), set()
        for turn in ex["turns"]:
            for call in turn["calls"]:
                query = call["arguments"].get("query")
                if isinstance(query, str):
                    searched += 1
                    assert query not in named, (query, [t["user"] for t in ex["turns"]])
                named |= {index.labels[kind][v] for v in call["arguments"].values() if isinstance(v, str)
                          for kind in index.labels if v in index.labels[kind]}
    assert searched >= 20


def test_meetings_are_not_searched_as_about_a_meeting() -> None:
    """"Plus, do I have any meetings about onboarding call?": a meeting's title says what kind of meeting it is
    ('Keystone Holdings onboarding call'), so its words are searched as words of the title, not as a topic."""
    kinds = r"(?:call|sync|review|demo|kickoff|discussion|meeting|retrospective|standup|planning|check-in)"
    for server, tool in (("video_meeting", "list_meetings"), ("calendar", "search_events")):
        seen = 0
        for ex in _generated(server, 500, 9393):
            for turn, user in _turn_users(ex):
                if any(call["name"] == tool and "query" in call["arguments"] for call in turn["calls"]):
                    seen += 1
                    assert not re.search(rf"\babout [\w' ]+ {kinds}\b", user), user
        assert seen >= 5, server


def test_how_close_to_quota_is_asked_of_a_rep_with_one() -> None:
    """"What's the pipeline of James Diaz this quarter, and how close are they to quota?" was asked of a rep with no
    quota and answered without one: the question goes to a rep who has a quota."""
    asked = 0
    for ex in _generated("crm", 800, 9393):
        rows = _index("crm", ex["world"]).rows["rep"]
        for turn, user in _turn_users(ex):
            for call in turn["calls"]:
                if call["name"] == "pipeline_summary" and "quota" in user and "owner_id" in call["arguments"]:
                    asked += 1
                    assert rows[call["arguments"]["owner_id"]]["quota"] > 0, user
    assert asked >= 2


def test_an_auto_reply_subject_names_no_day_its_dates_do_not() -> None:
    """"Set an auto-reply with the subject 'Out of office until March 30' until April 15.": the subject of an
    out-of-office says no day of its own, which the dates set in the same request would contradict."""
    days = r"\b(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|" \
           r"Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b"
    subjects = registry.get("email").tools["set_vacation_responder"].values["subject"]
    assert subjects and not [s for s in subjects if re.search(days, s)], subjects


def test_two_meetings_of_one_title_are_told_apart_whenever_named() -> None:
    """"... make the meeting 'Orbit Energy integration kickoff' from March 24 last 30 minutes. Then please post
    '...' in the chat of the meeting 'Orbit Energy integration kickoff'": where a conversation deals with two
    meetings of one title, every mention says which, not only the first."""
    told = 0
    for ex in _generated("video_meeting", 300, 5):
        topics = {k: r["topic"] for k, r in _index("video_meeting", ex["world"]).rows["meeting"].items()}
        named: dict[str, set[str]] = {}
        for turn in ex["turns"]:
            for call in turn["calls"]:
                if call["arguments"].get("meeting_id") in topics:
                    named.setdefault(topics[call["arguments"]["meeting_id"]], set()).add(call["arguments"]["meeting_id"])
        for _, user in _turn_users(ex):
            for mention in re.finditer(r"the meeting '([^']+)'( from| on)?", user):
                if len(named.get(mention.group(1), ())) > 1:
                    told += 1
                    assert mention.group(2), user
    assert told >= 10


def test_a_chat_nobody_wrote_in_says_so_in_words() -> None:
    """"What's been said in the chat of the meeting 'Weekly Engineering sync' from March 16?" was answered "There
    are no messages for the meeting ...": the chat of a meeting that has just started is said to be empty."""
    meeting = next(k for k, r in _index("video_meeting").rows["meeting"].items()
                   if r["status"] == "scheduled" and r["starts_at"][:10] == "2026-03-16")
    texts = _replies("video_meeting", "get_meeting_chat", {"meeting_id": meeting},
                     before=[("start_meeting", {"meeting_id": meeting})])
    assert all(re.search(r"\bchat of the meeting 'Weekly Engineering sync' from March 16\b", text) and "no messages" not in text
               for text in texts), texts
