"""Reviews of places and the user's reports of places that closed or reopened."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, spoken_day

from .server import (
    PLACE,
    REVIEW_SQL,
    BusinessId,
    Limit,
    MyReviewId,
    Note,
    Report,
    ReportList,
    Review,
    ReviewList,
    place_row,
    profile,
    rating,
    require_not_gone,
    review_model,
    reviews_text,
)
from .world import REVIEW_AFTER, my_place

tools = Toolset("reviews")

Stars = Annotated[int, Field(ge=1, le=5)]
ReviewText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=3, max_length=2000)]
UNREVIEWABLE = ("residential", "office")
# a place that has reviews to read
ReviewedPlaceId = PLACE.where("place_id IN (SELECT place_id FROM reviews) AND status != 'permanently_closed'")
# a place people can find closed or open: a business or a landmark, not a home or an office
ReportablePlaceId = PLACE.where("category NOT IN ('residential', 'office')")
REPORT_SQL = "SELECT r.*, p.name AS place_name FROM closure_reports r JOIN places p ON p.place_id = r.place_id"


def _mine(ctx: Ctx, review_id: str):  # noqa: ANN202 - a sqlite3.Row
    ctx.get("review", review_id)
    row = ctx.db.execute(REVIEW_SQL + " WHERE r.review_id = ?", (review_id,)).fetchone()
    if not row["is_mine"]:
        raise ToolError("not_author", f"Review {review_id} was written by {row['author']}.",
                        hint="You can only change or delete your own reviews.")
    return row


def _rate(ctx: Ctx, place_id: str, add: int, count: int) -> None:
    ctx.db.execute("UPDATE places SET rating_total = rating_total + ?, rating_count = rating_count + ? "
                   "WHERE place_id = ?", (add, count, place_id))


# ----- reviews -----------------------------------------------------------------------------------------

@tools.tool(effect=READ, asks=[
    "What do people say about {place_id}?",
    Ask("Show me the best reviews of {place_id}.", sort="highest"),
    Ask("What are the worst reviews of {place_id}?", sort="lowest"),
], reply=[
    "{result.place_name} is rated {result.rating} from {result.rating_count} ratings; {result.reviews_text}.",
])
def list_reviews(ctx: Ctx, place_id: ReviewedPlaceId, sort: Literal["newest", "highest", "lowest"] = "newest",
                 limit: Limit = 10) -> ReviewList:
    """The reviews shown for a place, and its overall rating.

    Args:
        place_id: ID of the place, such as 'PLC-10001'.
        sort: 'newest' (default), 'highest' or 'lowest' rating first.
        limit: the most reviews to return, 1 to 50, such as 10.

    Returns:
        The place's average rating and number of ratings (all ratings, not only those shown), the
        shown reviews (author, stars, text, dates, whether it is the user's) and their total.

    Raises:
        not_found: no place has that ID.
    """
    row = place_row(ctx, place_id)
    order = {"newest": "r.created_at DESC", "highest": "r.rating DESC, r.created_at DESC",
             "lowest": "r.rating ASC, r.created_at DESC"}[sort]
    rows = ctx.db.execute(REVIEW_SQL + f" WHERE r.place_id = ? ORDER BY {order}, r.review_id", (place_id,)).fetchall()
    reviews = [review_model(r) for r in rows[:limit]]
    return ReviewList(place_id=place_id, place_name=row["name"], rating=rating(row), rating_count=row["rating_count"],
                      reviews=reviews, total=len(rows), reviews_text=reviews_text(reviews, len(rows)))


# a place with staff who serve, which the review words are about (no "quick service" at a park)
_STAFFED = {"place_id": "category NOT IN ('park', 'parking', 'ev_charging')"}


@tools.tool(effect=WRITE, asks=[
    Ask("Leave a {rating}-star review for {place_id}: {review_text}", fits=_STAFFED),
    Ask("Review {place_id}: {rating} stars, '{review_text}'.", fits=_STAFFED),
], reply=[
    "Your {rating}-star review of {result.place_name} is posted.",
    "Done: I posted your review of {result.place_name}.",
], values={
    "rating, review_text": [
        # words that fit any place with staff the user may review, not only a restaurant
        (5, "Friendly staff and quick service; I will be back."), (5, "One of the best in town, highly recommended."),
        (4, "Clean, well organised and easy to find."), (4, "Good overall, a little busy at the weekend."),
        (3, "Fine, but it was very crowded on a Saturday."), (2, "Overpriced for what you get."),
        (2, "We waited far too long to be helped."), (1, "Rude staff and a dirty place; never again.")],
})
def write_review(ctx: Ctx, place_id: BusinessId, rating: Stars, review_text: ReviewText) -> Review:
    """Write the user's review of a place (one per place); it counts toward the place's rating at once.

    Args:
        place_id: ID of the place, such as 'PLC-10001'.
        rating: stars, 1 to 5, such as 4.
        review_text: the review, 3 to 2000 characters, such as 'Great pasta, slow service.'.

    Returns:
        The new review with its ID.

    Raises:
        not_found: no place has that ID.
        not_reviewable: the place is a residence or an office.
        place_closed: the place has closed permanently.
        already_reviewed: the user already reviewed the place.
    """
    row = place_row(ctx, place_id)
    if row["category"] in UNREVIEWABLE:
        raise ToolError("not_reviewable", f"{row['name']} is a {row['category']} building; it takes no reviews.",
                        hint="Review businesses and landmarks.")
    require_not_gone(row)
    mine = ctx.db.execute("SELECT review_id FROM reviews WHERE place_id = ? AND is_mine = 1", (place_id,)).fetchone()
    if mine:
        raise ToolError("already_reviewed", f"You already reviewed {row['name']} ({mine[0]}).",
                        hint="Change it with update_review instead.")
    review_id = ctx.new_id("REV")
    author = profile(ctx)["name"]
    ctx.db.execute("INSERT INTO reviews (review_id, place_id, author, is_mine, my_place, rating, body, created_at) "
                   "VALUES (?, ?, ?, 1, ?, ?, ?, ?)",
                   (review_id, place_id, f"{author.split()[0]} {author.split()[-1][0]}.", my_place(row["name"]), rating,
                    review_text, ctx.now_iso()))
    _rate(ctx, place_id, rating, 1)
    return review_model(ctx.db.execute(REVIEW_SQL + " WHERE r.review_id = ?", (review_id,)).fetchone())


@tools.tool(effect=WRITE, asks=[
    "Change my {review_id} to {rating} stars.",
    "Update my {review_id} to say '{review_text}'.",
], reply=[
    "Your review of {result.place_name} is updated; it gives {result.rating} stars.",
    "Done: I updated your review of {result.place_name}.",
], values={
    "review_text": ["Went back and it has improved a lot.", "Service was slow this time.",
        "Still my favourite place in the neighbourhood.", "Prices went up but quality stayed the same.",
        "New owners, and it is much better now."],
})
def update_review(ctx: Ctx, review_id: MyReviewId, rating: Stars | None = None,
                  review_text: ReviewText | None = None) -> Review:
    """Change the stars or text of one of the user's reviews.

    Args:
        review_id: ID of the user's review, such as 'REV-10474' (get_place shows my_review_id).
        rating: new stars, 1 to 5, such as 3.
        review_text: new text, such as 'Went back; the service got better.'.

    Returns:
        The updated review.

    Raises:
        not_found: no review has that ID.
        not_author: the review was written by someone else.
        nothing_to_update: neither rating nor review_text was given, or both are unchanged.
    """
    row = _mine(ctx, review_id)
    new_rating = row["rating"] if rating is None else rating
    new_text = row["body"] if review_text is None else review_text
    if new_rating == row["rating"] and new_text == row["body"]:
        raise ToolError("nothing_to_update", "The review already has that rating and text.",
                        hint="Give a new rating or text.")
    ctx.db.execute("UPDATE reviews SET rating = ?, body = ?, updated_at = ? WHERE review_id = ?",
                   (new_rating, new_text, ctx.now_iso(), review_id))
    _rate(ctx, row["place_id"], new_rating - row["rating"], 0)
    return review_model(ctx.db.execute(REVIEW_SQL + " WHERE r.review_id = ?", (review_id,)).fetchone())


@tools.tool(effect=WRITE, asks=[
    "Delete my {review_id}.",
    "Take down my {review_id}, I don't stand by it anymore.",
], reply=[
    "Your review of {result.place_name} is deleted.",
    "Done: I took down your review of {result.place_name}.",
])
def delete_review(ctx: Ctx, review_id: MyReviewId) -> Review:
    """Delete one of the user's reviews; its stars come off the place's rating.

    Args:
        review_id: ID of the user's review, such as 'REV-10474'.

    Returns:
        The deleted review.

    Raises:
        not_found: no review has that ID.
        not_author: the review was written by someone else.
    """
    row = _mine(ctx, review_id)
    ctx.db.execute("DELETE FROM reviews WHERE review_id = ?", (review_id,))
    _rate(ctx, row["place_id"], -row["rating"], -1)
    return review_model(row)


# ----- closure reports -----------------------------------------------------------------------------------------

def _report(row) -> Report:  # noqa: ANN001 - a sqlite3.Row
    reviewed = row["resolved_at"] or iso(datetime.fromisoformat(row["created_at"]) + REVIEW_AFTER)
    return Report(report_id=row["report_id"], place_id=row["place_id"], place_name=row["place_name"],
                  reported=row["reported"], note=row["note"], status=row["status"], created_at=row["created_at"],
                  reviewed_at=reviewed)


@tools.tool(effect=WRITE, asks=[
    Ask("{place_id} has closed for good; please report it.", status="permanently_closed"),
    Ask("Let the map know that {place_id} is temporarily closed: {note}", status="temporarily_closed"),
    Ask("{place_id} is open again, please update the map.", status="open"),
], reply=[
    "Thanks, I reported {result.place_name}; the report is reviewed by {result.reviewed_at}.",
    "Done: your report on {result.place_name} is filed and will be reviewed by {result.reviewed_at}.",
], values={
    "status, note": [
        ("permanently_closed", "The doors are boarded up."), ("permanently_closed", "The space is for lease now."),
        ("temporarily_closed", "A sign says closed for renovation until next month."),
        ("temporarily_closed", "Closed after a fire."), ("open", "It reopened last week."),
        ("open", "Back to normal hours.")],
})
def report_closure(ctx: Ctx, place_id: ReportablePlaceId, status: Literal["temporarily_closed", "permanently_closed", "open"],
                   note: Note | None = None) -> Report:
    """Report that a place has closed (for now or for good) or reopened; it is reviewed 24 hours later.

    Once reviewed, the place's status on the map becomes what was reported.

    Args:
        place_id: ID of the place, such as 'PLC-10001'.
        status: what is true now: 'temporarily_closed', 'permanently_closed' or 'open' (reopened).
        note: optional detail, such as 'Sign on the door says closed for renovations'.

    Returns:
        The report, pending, with when it will be reviewed.

    Raises:
        not_found: no place has that ID.
        no_change: the map already shows the place with that status.
        already_reported: the user has a pending report about the place.
    """
    row = place_row(ctx, place_id)
    if row["status"] == status:
        raise ToolError("no_change", f"The map already shows {row['name']} as {status.replace('_', ' ')}.",
                        hint="Nothing to report.")
    pending = ctx.db.execute("SELECT report_id FROM closure_reports WHERE place_id = ? AND status = 'pending'",
                             (place_id,)).fetchone()
    if pending:
        raise ToolError("already_reported", f"Your report {pending[0]} about {row['name']} is still pending.",
                        hint="It is reviewed 24 hours after it was filed; list_my_reports shows it.")
    report_id = ctx.new_id("RPT")
    ctx.db.execute("INSERT INTO closure_reports (report_id, place_id, reported, note, status, created_at) "
                   "VALUES (?, ?, ?, ?, 'pending', ?)", (report_id, place_id, status, note, ctx.now_iso()))
    return _report(ctx.db.execute(REPORT_SQL + " WHERE r.report_id = ?", (report_id,)).fetchone())


@tools.tool(effect=READ, asks=[
    "What happened to the closures I reported?",
    Ask("Which of my reports are still waiting for review?", status="pending"),
    Ask("Which of my reports were confirmed?", status="confirmed"),
], reply=[
    "{result.reports_text}.",
])
def list_my_reports(ctx: Ctx, status: Literal["pending", "confirmed"] | None = None) -> ReportList:
    """The user's reports of closed or reopened places, newest first.

    Args:
        status: only 'pending' or 'confirmed' reports.

    Returns:
        The reports (place, what was reported, note, status, when filed and reviewed) and the total.
    """
    sql = REPORT_SQL + (" WHERE r.status = ?" if status else "") + " ORDER BY r.created_at DESC, r.report_id"
    rows = ctx.db.execute(sql, (status,) if status else ()).fetchall()
    reports = [_report(r) for r in rows]
    return ReportList(reports=reports, total=len(rows), reports_text=_reports_text(reports, ctx.today()))


_REPORTED = {"open": "open again", "temporarily_closed": "temporarily closed", "permanently_closed": "closed for good"}


def _reports_text(reports: list[Report], today: date) -> str:
    """'on March 10 you reported Café Hernandez temporarily closed ('Sign on the door says
    renovations'); that was confirmed on March 11'."""
    said = []
    for r in reports:
        note = f" ('{r.note}')" if r.note else ""
        review = f"that was confirmed on {spoken_day(r.reviewed_at, today)}" if r.status == "confirmed" else \
            f"that's still waiting for review, due by {spoken_day(r.reviewed_at, today)}"
        said.append(f"on {spoken_day(r.created_at, today)} you reported {r.place_name} {_REPORTED[r.reported]}{note}; "
                    f"{review}")
    return ". ".join(x[:1].upper() + x[1:] if i else x for i, x in enumerate(said)) if said else "no reports"

