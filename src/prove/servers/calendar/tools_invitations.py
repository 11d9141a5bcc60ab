"""Invitations: invite and remove attendees, see and answer the user's own invitations."""

from __future__ import annotations

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset

from .server import (
    Attendees,
    Event,
    Invitation,
    InvitationList,
    InvitedEventId,
    Limit,
    Note,
    OwnMeetingId,
    PersonId,
    Response,
    ResponseStatus,
    by_day,
    event_model,
    invitation_model,
    invite,
    me,
    own_upcoming_event,
    person_rows,
    require_confirmed,
    require_not_started,
    series_targets,
)

tools = Toolset("invitations")

# The user's invitations with their event and its organizer.
MY_INVITATIONS = """
SELECT i.invitation_id, i.response, i.note, e.event_id, e.title, e.starts_at, e.ends_at, e.series_id,
       e.organizer_id, o.name AS organizer_name
FROM invitations i
JOIN events e ON e.event_id = i.event_id
JOIN people o ON o.person_id = e.organizer_id
WHERE i.person_id = :me
"""


def _invited(ctx: Ctx, event_id: str, person_id: str) -> bool:
    return ctx.db.execute("SELECT 1 FROM invitations WHERE event_id = ? AND person_id = ?",
                          (event_id, person_id)).fetchone() is not None


@tools.tool(effect=WRITE, asks=[
    "Invite {people} to {event_id}.",
    "Add {people} to {event_id}.",
    Ask("Add {people} to {event_id} and to every later meeting of that series.", whole_series=True),
], reply=[
    Ask("Invited {people} to '{result.title}'.", whole_series=False),
    Ask("Done: {event_id} now has an invitation out to {people}.", whole_series=False),
    Ask("Invited {people} to '{result.title}' and to every later meeting of the series.", whole_series=True),
    Ask("Done: I invited {people} to {event_id} and the rest of its series.", whole_series=True),
])
def invite_attendees(ctx: Ctx, event_id: OwnMeetingId, people: Attendees, whole_series: bool = False) -> Event:
    """Invite more people to an upcoming event the user organizes.

    Each new attendee gets an invitation awaiting their response. The call is all or nothing:
    if anyone is already on the event, nobody is invited.

    Args:
        event_id: ID of the event, such as 'EVT-10042'.
        people: person IDs to invite, such as ['PER-10003', 'PER-10011'].
        whole_series: true to also invite them to every later occurrence of the event's
            recurring series (skipping occurrences they are already on); ignored for a one-off event.

    Returns:
        The event with its updated attendee list.

    Raises:
        not_found: the event is not visible to the user, or a person does not exist.
        not_organizer: someone else organizes the event.
        event_cancelled: the event is cancelled.
        past_date: the event has already started.
        already_invited: a person is already invited to the event, or is its organizer.
    """
    event = own_upcoming_event(ctx, event_id)
    rows = person_rows(ctx, people)
    for p in rows:
        if p["person_id"] == event["organizer_id"] or _invited(ctx, event_id, p["person_id"]):
            role = "organizes" if p["person_id"] == event["organizer_id"] else "is already invited to"
            raise ToolError("already_invited", f"{p['name']} {role} '{event['title']}'.",
                            hint="Invite only people who are not on the event yet (get_event lists them).")
    for target in series_targets(ctx, event, whole_series):
        for p in rows:
            if not _invited(ctx, target, p["person_id"]):
                invite(ctx, target, p["person_id"])
    return event_model(ctx, event_id)


@tools.tool(effect=WRITE, asks=[
    "Take {person_id} off the invite list for {event_id}.",
    "Remove {person_id} from {event_id}; they don't need to be there.",
    Ask("Drop {person_id} from {event_id} and from the rest of that series.", whole_series=True),
], reply=[
    Ask("Removed {person_id} from '{result.title}'.", whole_series=False),
    Ask("Done: {person_id} is no longer invited to {event_id}.", whole_series=False),
    Ask("Removed {person_id} from '{result.title}' and from the rest of the series.", whole_series=True),
    Ask("Done: {person_id} is off {event_id} and every later meeting of the series.", whole_series=True),
])
def remove_attendee(ctx: Ctx, event_id: OwnMeetingId, person_id: PersonId, whole_series: bool = False) -> Event:
    """Remove an attendee from an upcoming event the user organizes.

    Args:
        event_id: ID of the event, such as 'EVT-10042'.
        person_id: ID of the attendee to remove, such as 'PER-10011'.
        whole_series: true to also remove them from every later occurrence of the event's
            recurring series; ignored for a one-off event.

    Returns:
        The event with its updated attendee list.

    Raises:
        not_found: the event is not visible to the user, or the person does not exist.
        not_organizer: someone else organizes the event.
        event_cancelled: the event is cancelled.
        past_date: the event has already started.
        not_invited: the person is not an attendee of the event.
    """
    event = own_upcoming_event(ctx, event_id)
    (person,) = person_rows(ctx, [person_id])
    if not _invited(ctx, event_id, person_id):
        raise ToolError("not_invited", f"{person['name']} is not an attendee of '{event['title']}'.",
                        hint="get_event lists the attendees.")
    for target in series_targets(ctx, event, whole_series):
        ctx.db.execute("DELETE FROM invitations WHERE event_id = ? AND person_id = ?", (target, person_id))
    return event_model(ctx, event_id)


@tools.tool(effect=READ, asks=[
    "Do I have any meeting invitations I haven't answered?",
    Ask("Which upcoming invitations have I accepted?", response="accepted"),
    Ask("Show the invitations I said maybe to.", response="tentative"),
    Ask("Which upcoming meetings have I declined?", response="declined"),
], reply=[
    Ask("You have {result.total} invitations to answer. {result.invitations_text}.", response="needs_action"),
    Ask("You've accepted {result.total} upcoming invitations. {result.invitations_text}.", response="accepted"),
    Ask("You said maybe to {result.total} invitations. {result.invitations_text}.", response="tentative"),
    Ask("You've declined {result.total} upcoming meetings. {result.invitations_text}.", response="declined"),
])
def list_invitations(ctx: Ctx, response: ResponseStatus = "needs_action", limit: Limit = 20) -> InvitationList:
    """List the user's invitations to upcoming events, by their response; by default the unanswered ones.

    Only events that are confirmed and have not started are listed, soonest first.

    Args:
        response: which invitations: 'needs_action' (not answered yet, the default),
            'accepted', 'tentative' or 'declined'.
        limit: the most invitations to return, from 1 to 100, such as 20.

    Returns:
        The invitations (invitation ID, event ID, title, start, end, organizer, series, the
        user's response and note) with the IDs of the user's other events at the same time,
        and how many matched in total.
    """
    rows = ctx.db.execute(MY_INVITATIONS + " AND i.response = :response AND e.status = 'confirmed' "
                          "AND e.starts_at >= :now ORDER BY e.starts_at, e.event_id",
                          {"me": me(ctx), "response": response, "now": ctx.now_iso()}).fetchall()
    invitations = [invitation_model(ctx, r) for r in rows[:limit]]
    said = [(i.start, i.end, f"'{i.title}' {{span}} (from {i.organizer_name}"
             + (f"; it clashes with {len(i.conflicts)} of your events" if i.conflicts else "") + ")")
            for i in invitations]
    return InvitationList(invitations=invitations, total=len(rows),
                          invitations_text=by_day(said, len(rows), ctx.today()))


@tools.tool(effect=WRITE, asks=[
    Ask("Accept the invitation to {event_id}.", response="accepted"),
    Ask("Decline {event_id} and tell the organizer: {note}", response="declined"),
    Ask("Decline {event_id} and all the following meetings in that series.", response="declined",
        whole_series=True),
    Ask("Tell them I might make it to {event_id}.", response="tentative"),
], reply=[
    Ask("Accepted '{result.title}'; {result.organizer_name} will see you're coming.", response="accepted"),
    Ask("Done: you're going to {event_id}.", response="accepted"),
    Ask("Declined '{result.title}'; {result.organizer_name} will see you're not coming.", response="declined",
        whole_series=False),
    Ask("Done: you've declined {event_id}.", response="declined", whole_series=False),
    Ask("Declined '{result.title}' and every later meeting of the series; {result.organizer_name} will see "
        "you're not coming.", response="declined", whole_series=True),
    Ask("Done: you've declined {event_id} and all the following meetings in that series.", response="declined",
        whole_series=True),
    Ask("Answered maybe to '{result.title}'; {result.organizer_name} will see it as tentative.",
        response="tentative"),
    Ask("Done: {event_id} shows you as tentative.", response="tentative"),
], values={
    # Only the decline phrasing carries a note: what a person says when they can't come.
    "note": ["I have a conflict; can we move it?", "Out of office that day, sorry.",
             "Sorry, I'm double-booked then.", "Please send the notes afterwards.",
             "Can't make this one; I'll catch up on the recording."],
})
def respond_to_invitation(ctx: Ctx, event_id: InvitedEventId, response: Response, note: Note | None = None,
                          whole_series: bool = False) -> Invitation:
    """Answer the user's invitation to an upcoming event: accept, decline or tentatively accept.

    Declining frees the time in the user's free/busy. The answer can be changed later by
    responding again.

    Args:
        event_id: ID of the event the user is invited to, such as 'EVT-10042'.
        response: 'accepted', 'declined' or 'tentative'.
        note: optional message to the organizer, such as 'Running 5 minutes late'.
        whole_series: true to give the same answer for every later occurrence of the event's
            recurring series that the user is invited to; ignored for a one-off event.

    Returns:
        The invitation with the new response and the IDs of the user's other events at the
        same time (empty when declined).

    Raises:
        not_found: no event has that ID.
        not_invited: the user is not invited to the event (for example, they organize it).
        event_cancelled: the event is cancelled.
        past_date: the event has already started.
    """
    user = me(ctx)
    ctx.get("event", event_id)
    event = ctx.db.execute("SELECT e.*, o.name AS organizer_name FROM events e JOIN people o "
                           "ON o.person_id = e.organizer_id WHERE e.event_id = ?", (event_id,)).fetchone()
    if not _invited(ctx, event_id, user):
        why = "you organize it" if event["organizer_id"] == user else "you are not on its guest list"
        raise ToolError("not_invited", f"You have no invitation to '{event['title']}': {why}.",
                        hint="list_invitations shows the events you are invited to.")
    require_confirmed(event)
    require_not_started(ctx, event)
    for target in series_targets(ctx, event, whole_series):
        ctx.db.execute("UPDATE invitations SET response = ?, note = ? WHERE event_id = ? AND person_id = ?",
                       (response, note or None, target, user))
    row = ctx.db.execute(MY_INVITATIONS + " AND i.event_id = :event_id", {"me": user, "event_id": event_id}).fetchone()
    return invitation_model(ctx, row)
