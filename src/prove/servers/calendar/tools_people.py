"""The company directory: find colleagues and contacts by name or email."""

from __future__ import annotations

from prove.env import READ, Ctx, Toolset
from prove.env.values import like, said_in_part

from .server import Limit, Person, PersonList, Query

tools = Toolset("people")


@tools.tool(effect=READ, asks=[
    "What's {query}'s email address?",
    "Look up {query} in the company directory.",
    "Who do we have in the directory matching '{query}'? Show me up to {limit}.",
], reply=[
    # "What's X's email address?" is answered with the address; a look-up with who each person is.
    "{result.emails_text}.",
    "I found {result.total} people: {result.people_text}.",
])
def search_people(ctx: Ctx, query: Query, limit: Limit = 10) -> PersonList:
    """Search the directory of colleagues and contacts by name or email address.

    Matching is case-insensitive and by substring, so 'priya', 'Patel' or '@apexlabs.com' all
    work. Use the returned person IDs to invite people, share calendars or check free/busy.

    Args:
        query: part of a name or email address, such as 'Priya' or 'chen@'.
        limit: the most people to return, from 1 to 100, such as 10.

    Returns:
        The matching people (colleagues first, then by name) with their person ID, email, job
        title, department, company and whether they are a colleague, and how many matched.
    """
    pattern = like(query)
    rows = ctx.db.execute(
        "SELECT * FROM people WHERE (lower(name) LIKE :p ESCAPE '\\' OR lower(email) LIKE :p ESCAPE '\\') "
        "ORDER BY is_colleague DESC, name, person_id", {"p": pattern}).fetchall()
    people = [Person(person_id=r["person_id"], name=r["name"], email=r["email"], job_title=r["job_title"],
                     department=r["department"], company=r["company"], is_colleague=bool(r["is_colleague"]))
              for r in rows[:limit]]
    said = [p.name + (f", {p.job_title}" if p.job_title else "") + (f" in {p.department}" if p.department else "")
            + f" at {p.company}" + ("" if p.is_colleague else " (an outside contact)") for p in people]
    return PersonList(people=people, total=len(rows), people_text=said_in_part(said, len(rows), "nobody"),
                      emails_text=said_in_part([f"{p.name}'s email address is {p.email}" for p in people], len(rows),
                                               "nobody"))
