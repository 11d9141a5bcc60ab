"""The user's own map: profile (home and work), saved lists and the places in them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import StringConstraints

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import quote

from .server import (
    PLACE,
    ListId,
    Note,
    PlaceId,
    Profile,
    SavedEntry,
    SavedList,
    SavedListDetail,
    SavedListList,
    SaveResult,
    place_row,
    place_summary,
    profile,
    require_not_gone,
)
from .world import LIST_KINDS

tools = Toolset("saved")

MAX_LISTS = 20
MAX_LIST_PLACES = 100
# where a person lives or works: an apartment building or an office (a home must be a residence), in
# the city they live in (a move is across town: later trips "from home" stay local)
AddressPlaceId = PLACE.where("category IN ('residential', 'office') AND status != 'permanently_closed' AND city_id = "
                             "(SELECT h.city_id FROM places h JOIN profile u ON h.place_id = u.home_place_id)")
# a place on one of the user's lists: what there is to take off a list
SavedPlaceId = PLACE.where("place_id IN (SELECT place_id FROM saved_places)")
ListName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=60)]


def list_model(ctx: Ctx, list_id: str) -> SavedList:
    row = ctx.get("saved_list", list_id)
    (count,) = ctx.db.execute("SELECT count(*) FROM saved_places WHERE list_id = ?", (list_id,)).fetchone()
    return SavedList(list_id=row["list_id"], name=row["name"], description=row["description"],
                     is_default=bool(row["is_default"]), place_count=count, created_at=row["created_at"])


def _default_list(ctx: Ctx) -> str:
    return ctx.db.execute("SELECT list_id FROM saved_lists WHERE is_default = 1").fetchone()[0]


@tools.tool(effect=READ, asks=[
    "Where have I set as home and work?",
    "Show me my map profile.",
], reply=[
    "Your home address is {result.home.name} ({result.home.address}) and your work address is {result.work.name} "
    "({result.work.address}).",
    "{result.profile_text}.",
])
def get_profile(ctx: Ctx) -> Profile:
    """The signed-in user's profile: their saved home and work places and how much they have saved and reviewed.

    Returns:
        The user's ID and name, their home and work places (routes start from home by default),
        the number of saved places across lists and the number of reviews they wrote.
    """
    row = profile(ctx)
    (saved,) = ctx.db.execute("SELECT count(DISTINCT place_id) FROM saved_places").fetchone()
    (reviews,) = ctx.db.execute("SELECT count(*) FROM reviews WHERE is_mine = 1").fetchone()
    home = place_summary(ctx, place_row(ctx, row["home_place_id"]))
    work = place_summary(ctx, place_row(ctx, row["work_place_id"]))
    text = (f"your home address is {home.name} ({home.address}) and your work address is {work.name} "
            f"({work.address}); you've saved {saved} place{'' if saved == 1 else 's'} and written {reviews} "
            f"review{'' if reviews == 1 else 's'}")
    return Profile(user_id=row["user_id"], name=row["name"], home=home, work=work, saved_places=saved, reviews=reviews,
                   profile_text=text)


_HOME = {"place_id": "category = 'residential'"}  # where one lives
_WORK = {"place_id": "category NOT IN ('residential', 'parking', 'ev_charging', 'park')"}  # where one works


@tools.tool(effect=WRITE, asks=[
    Ask("Set my home address to {place_id}.", label="home", fits=_HOME),
    Ask("Set my work address to {place_id}.", label="work", fits=_WORK),
    Ask("I moved; my new home is {place_id}.", label="home", fits=_HOME),
    Ask("I work at {place_id} now, please save it as my work address.", label="work", fits=_WORK),
], reply=[
    "Your {label} address is now {place_id}.",
    "Done: I saved {place_id} as your {label} address.",
])
def set_saved_address(ctx: Ctx, label: Literal["home", "work"], place_id: AddressPlaceId) -> Profile:
    """Set the user's home or work to a place; routes without an origin start from home.

    Args:
        label: 'home' or 'work'.
        place_id: ID of the place, such as 'PLC-10089': home is a residential building, work any
            place (an office, a shop, ...).

    Returns:
        The updated profile.

    Raises:
        not_found: no place has that ID.
        place_closed: the place has closed permanently.
        not_residential: home was set to a place that is not a residential building.
        no_change: that place is already the user's `label`.
    """
    row = place_row(ctx, place_id)
    require_not_gone(row)
    if label == "home" and row["category"] != "residential":
        kind = row["category"].replace("_", " ")
        raise ToolError("not_residential", f"{row['name']} is {'an' if kind[:1] in 'aeiou' else 'a'} {kind}, "
                        "not a residential building.",
                        hint="Home is where the user lives: search_places with category='residential'.")
    column = f"{label}_place_id"
    if profile(ctx)[column] == place_id:
        raise ToolError("no_change", f"{row['name']} is already your {label} address.", hint="Nothing to do.")
    ctx.db.execute(f"UPDATE profile SET {column} = ?", (place_id,))
    return get_profile(ctx)


@tools.tool(effect=READ, asks=[
    "What lists of places have I saved?",
    "Show my saved lists.",
], reply=[
    "You have {result.lists_text}.",
])
def list_saved_lists(ctx: Ctx) -> SavedListList:
    """List the user's saved lists with how many places each holds.

    Returns:
        Each list's ID, name, description, whether it is the default list (Favorites), place count
        and creation time; and the total.
    """
    ids = [r[0] for r in ctx.db.execute(
        "SELECT list_id FROM saved_lists ORDER BY is_default DESC, created_at, list_id")]
    lists = [list_model(ctx, i) for i in ids]
    said = [f"{sl.name} ({sl.place_count} place{'' if sl.place_count == 1 else 's'}"
            + ("; your default list" if sl.is_default else "")
            + (f", '{sl.description}'" if sl.description and sl.is_default else
               f"; '{sl.description}'" if sl.description else "") + ")" for sl in lists]
    listed = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1] if said else ""
    text = f"{len(said)} list{'' if len(said) == 1 else 's'}: {listed}" if said else "no lists"
    return SavedListList(lists=lists, total=len(ids), lists_text=text)


# (a list made a moment ago holds nothing yet: nobody asks what is on it)
_HOLDS = {"list_id": "list_id IN (SELECT list_id FROM saved_places)"}


@tools.tool(effect=READ, asks=[
    Ask("What's on {list_id}?", fits=_HOLDS),
    Ask("Show me the places I saved in {list_id}.", fits=_HOLDS),
], reply=["{result.name} has {result.said}."])
def get_saved_list(ctx: Ctx, list_id: ListId) -> SavedListDetail:
    """One saved list with its places (and whether each is open now) and the user's notes.

    Args:
        list_id: ID of the list, such as 'LST-10001'.

    Returns:
        The list and its places, most recently added first, each with the user's note.

    Raises:
        not_found: no list has that ID.
    """
    base = list_model(ctx, list_id)
    entries = []
    for r in ctx.db.execute("SELECT place_id, note, added_at FROM saved_places WHERE list_id = ? "
                            "ORDER BY added_at DESC, place_id", (list_id,)).fetchall():
        entries.append(SavedEntry(place=place_summary(ctx, place_row(ctx, r["place_id"])), note=r["note"],
                                  added_at=r["added_at"]))
    return SavedListDetail(**base.model_dump(), places=entries, said=_places_said(entries))


def _places_said(entries: list[SavedEntry]) -> str:
    """'3 places: Jade Garden (book ahead), Maple Coffee and Harbor Plaza', or 'no places yet'."""
    names = [e.place.name + (f" ({e.note})" if e.note else "") for e in entries]
    if not names:
        return "no places yet"
    shown = names[:8] + ([f"{len(names) - 8} more"] if len(names) > 8 else [])
    listed = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"
    return f"{len(names)} place{'' if len(names) == 1 else 's'}: {listed}"


@tools.tool(effect=WRITE, asks=[
    "Make a new list called '{list_name}'.",
    "Create a list '{list_name}' for {description}.",
], reply=[
    "I've created the list '{result.name}'.",
    "Done: '{result.name}' is ready for places.",
], values={
    # a list's description fits its name (no 'Best parks' for rainy-day ideas)
    "list_name, description": [
        ("Date night", "restaurants worth a try"), ("Coffee spots", "quiet places to work"),
        ("Weekend brunch", "Sunday mornings"), ("Museums to visit", "rainy-day ideas"),
        ("Kid-friendly", "places to take the kids"), ("Late-night food", "after a late show"),
        ("Best parks", "sunny weekends"), ("Visiting friends", "places to take visitors"),
    ],
})
def create_list(ctx: Ctx, list_name: ListName, description: Note | None = None) -> SavedList:
    """Create a new, empty list of places.

    Args:
        list_name: the list's name, unique among the user's lists, such as 'Brunch spots'.
        description: optional description, such as 'For weekend visits'.

    Returns:
        The new list with its ID.

    Raises:
        duplicate_name: the user already has a list with that name (any case).
        too_many_lists: the user already has 20 lists.
    """
    if ctx.db.execute("SELECT 1 FROM saved_lists WHERE lower(name) = lower(?)", (list_name,)).fetchone():
        raise ToolError("duplicate_name", f"You already have a list named {quote(list_name)}.",
                        hint="Pick another name, or save places into the existing list.")
    (count,) = ctx.db.execute("SELECT count(*) FROM saved_lists").fetchone()
    if count >= MAX_LISTS:
        raise ToolError("too_many_lists", f"You already have {MAX_LISTS} lists.", hint="Delete a list first.")
    list_id = ctx.new_id("LST")
    ctx.db.execute("INSERT INTO saved_lists (list_id, name, description, is_default, created_at) "
                   "VALUES (?, ?, ?, 0, ?)",
                   (list_id, list_name, description, ctx.now_iso()))
    return list_model(ctx, list_id)


def _on_list(name: str) -> dict[str, str]:
    """What a place put on the list of this name is: one of the kinds the list is about."""
    kinds = ", ".join(f"'{k}'" for k in sorted(LIST_KINDS[name]))
    return {"list_id": f"name = '{name}'", "place_id": f"category IN ({kinds})"}


@tools.tool(effect=WRITE, asks=[
    Ask("Save {place_id} to my favorites.", fits={"place_id": _on_list("Favorites")["place_id"]}),
    Ask("Add {place_id} to {list_id} with the note '{note}'.", fits=_on_list("Favorites")),
    *[Ask("Put {place_id} on {list_id}.", fits=_on_list(name)) for name in LIST_KINDS],
], reply=[
    "Saved {result.place_name} to {result.list_name}.",
    "Done: {result.place_name} is on {result.list_name}, which now has {result.place_count} places.",
], values={
    # notes that fit any place on a list (a pharmacy as well as a restaurant)
    "note": ["Recommended by a friend", "Worth a visit", "Quiet in the mornings", "Free parking nearby",
        "Near the subway", "Go on a weekday", "Check it out next time"],
})
def save_place(ctx: Ctx, place_id: PlaceId, list_id: ListId | None = None, note: Note | None = None) -> SaveResult:
    """Save a place to one of the user's lists (default: Favorites), with an optional note.

    Args:
        place_id: ID of the place, such as 'PLC-10001'.
        list_id: ID of the list, such as 'LST-10002'; default the Favorites list.
        note: optional note, such as 'try the tasting menu'.

    Returns:
        The saved entry and how many places the list holds now.

    Raises:
        not_found: the place or list does not exist.
        place_closed: the place has closed permanently.
        already_saved: the place is already in that list.
        list_full: the list already holds 100 places.
    """
    row = place_row(ctx, place_id)
    target = list_id or _default_list(ctx)
    lst = ctx.get("saved_list", target)
    require_not_gone(row)
    if ctx.db.execute("SELECT 1 FROM saved_places WHERE list_id = ? AND place_id = ?", (target, place_id)).fetchone():
        raise ToolError("already_saved", f"{row['name']} is already in {lst['name']}.",
                        hint="Nothing to do; get_saved_list shows the list.")
    (count,) = ctx.db.execute("SELECT count(*) FROM saved_places WHERE list_id = ?", (target,)).fetchone()
    if count >= MAX_LIST_PLACES:
        raise ToolError("list_full", f"{lst['name']} already holds {MAX_LIST_PLACES} places.",
                        hint="Remove a place or use another list.")
    ctx.db.execute("INSERT INTO saved_places (list_id, place_id, note, added_at) VALUES (?, ?, ?, ?)",
                   (target, place_id, note, ctx.now_iso()))
    return SaveResult(list_id=target, list_name=lst["name"], place_id=place_id, place_name=row["name"], note=note,
                      place_count=count + 1)


@tools.tool(effect=WRITE, asks=[
    "Remove {place_id} from my favorites.",
    "Take {place_id} off {list_id}.",
], reply=[
    "Removed {result.place_name} from your {result.list_name} list.",
    "Done: {result.place_name} is off your {result.list_name} list.",
])
def remove_saved_place(ctx: Ctx, place_id: SavedPlaceId, list_id: ListId | None = None) -> SaveResult:
    """Remove a place from one of the user's lists (default: Favorites).

    Args:
        place_id: ID of the place, such as 'PLC-10001'.
        list_id: ID of the list, such as 'LST-10002'; default the Favorites list.

    Returns:
        The removed entry and how many places the list holds now.

    Raises:
        not_found: the place or list does not exist.
        not_in_list: the place is not in that list.
    """
    row = place_row(ctx, place_id)
    target = list_id or _default_list(ctx)
    lst = ctx.get("saved_list", target)
    entry = ctx.db.execute("SELECT note FROM saved_places WHERE list_id = ? AND place_id = ?",
                           (target, place_id)).fetchone()
    if entry is None:
        raise ToolError("not_in_list", f"{row['name']} is not in {lst['name']}.",
                        hint="get_place shows which of your lists hold a place.")
    ctx.db.execute("DELETE FROM saved_places WHERE list_id = ? AND place_id = ?", (target, place_id))
    (count,) = ctx.db.execute("SELECT count(*) FROM saved_places WHERE list_id = ?", (target,)).fetchone()
    return SaveResult(list_id=target, list_name=lst["name"], place_id=place_id, place_name=row["name"],
                      note=entry["note"], place_count=count)


@tools.tool(effect=WRITE, asks=[
    "Delete {list_id}.",
    "I don't need {list_id} anymore, get rid of it.",
], reply=[
    "Deleted the list '{result.name}'.",
    "Done: the list '{result.name}' is gone.",
])
def delete_list(ctx: Ctx, list_id: ListId) -> SavedList:
    """Delete one of the user's lists and the places saved in it; Favorites cannot be deleted.

    Args:
        list_id: ID of the list, such as 'LST-10002'.

    Returns:
        The deleted list, with how many places it held.

    Raises:
        not_found: no list has that ID.
        default_list: the list is Favorites, the default list.
    """
    base = list_model(ctx, list_id)
    if base.is_default:
        raise ToolError("default_list", "Favorites is the default list and cannot be deleted.",
                        hint="Remove places from it with remove_saved_place instead.")
    ctx.db.execute("DELETE FROM saved_places WHERE list_id = ?", (list_id,))
    ctx.db.execute("DELETE FROM saved_lists WHERE list_id = ?", (list_id,))
    return base
