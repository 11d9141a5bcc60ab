"""Contacts and blocked senders."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import like, said_in_part

from .server import (
    Address,
    BlockedAddress,
    Contact,
    ContactId,
    ContactList,
    Limit,
    Name,
    PhoneContactId,
    Query,
    check_address,
)

tools = Toolset("contacts")

Phone = Annotated[str, StringConstraints(strip_whitespace=True, max_length=40)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, max_length=500)]


class DeletedContact(BaseModel):
    contact_id: str = Field(description="the ID the deleted contact had")
    name: str
    email: str


class Unblocked(BaseModel):
    address: str
    blocked_at: str = Field(description="when it had been blocked")
    still_blocked: list[BlockedAddress] = Field(description="the addresses that remain blocked")


def _contact(ctx: Ctx, contact_id: str) -> Contact:
    row = ctx.get("contact", contact_id)
    return Contact(contact_id=row["contact_id"], name=row["name"], email=row["email"], phone=row["phone"],
                   company=row["company"], notes=row["notes"], is_favorite=bool(row["is_favorite"]))


def _unique_email(ctx: Ctx, email: str, exclude: str = "") -> None:
    clash = ctx.db.execute("SELECT contact_id, name FROM contacts WHERE email = ? AND contact_id != ?",
                           (email, exclude)).fetchone()
    if clash:
        raise ToolError("duplicate_contact",
                        f"{email} already belongs to the contact {clash['name']} ({clash['contact_id']}).",
                        hint="Update that contact with update_contact instead.")


@tools.tool(effect=READ, asks=[
    "What's {query}'s email address?",
    "Look up {query} in my contacts.",
    Ask("Show my favorite contacts.", favorites_only=True),
], reply=[
    # "What's Omar's email address?" is answered with the address; the others with who each contact is.
    Ask("{result.emails_text}.", favorites_only=False),
    Ask("Your favorite contacts: {result.contacts_text}.", favorites_only=True),
    Ask("I found {result.total} contacts: {result.contacts_text}.", favorites_only=False),
])
def search_contacts(ctx: Ctx, query: Query | None = None, favorites_only: bool = False,
                    limit: Limit = 25) -> ContactList:
    """Find contacts in the address book by part of a name, email address or company, by name.

    Args:
        query: text to look for, case-insensitively, such as 'lopez' or 'example.com'; omit to list all.
        favorites_only: only favorite contacts, such as true; default false.
        limit: the most contacts to return, from 1 to 100, such as 25.

    Returns:
        The matching contacts (ID, name, email, phone, company, notes, favorite) and how many matched.
    """
    where = Where()
    if query is not None:
        where.add("(lower(name) LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\' "
                  "OR lower(coalesce(company, '')) LIKE ? ESCAPE '\\')", *[like(query)] * 3)
    if favorites_only:
        where.add("is_favorite = 1")
    ids = [r[0] for r in ctx.db.execute(f"SELECT contact_id FROM contacts WHERE {where.sql} "
                                        "ORDER BY name COLLATE NOCASE, contact_id", where.params)]
    contacts = [_contact(ctx, c) for c in ids[:limit]]
    shown = contacts if len(contacts) <= 8 else contacts[:6]
    said = [c.name + (f" of {c.company}" if c.company else "") + f" ({c.email}" + (f", {c.phone}" if c.phone else "")
            + ")" + (f", noted as '{c.notes}'" if c.notes else "") for c in shown]
    return ContactList(contacts=contacts, total=len(ids), contacts_text=said_in_part(said, len(ids), "nobody"),
                       emails_text=said_in_part([f"{c.name}'s email address is {c.email}" for c in shown], len(ids), "nobody"))


@tools.tool(effect=WRITE, asks=[
    "Add {name} ({email}) to my contacts.",
    "Save a contact for {name} at {company}: email {email}, phone {phone}.",
    Ask("Add {name}, {email}, to my contacts as a favorite.", favorite=True),
], reply=[
    "Added {name} to your contacts.",
    "Saved {name} ({email}) in your address book.",
    Ask("Added {name} to your contacts as a favorite.", favorite=True),
], values={"notes": ["Met at the March conference", "Prefers calls in the morning", "Accountant",
                     "Landlord", "Daughter's teacher", "Handles our account at the agency"]})
def add_contact(ctx: Ctx, name: Name, email: Address, phone: Phone | None = None, company: Text | None = None,
                notes: Text | None = None, favorite: bool = False) -> Contact:
    """Add a person to the address book.

    Args:
        name: the person's name, such as 'Ana Lopez'.
        email: their email address, unique in the address book, such as 'ana.lopez@example.com'.
        phone: their phone number, such as '+1-415-555-0134'.
        company: where they work, such as 'Apex Labs'.
        notes: anything to remember, such as 'Met at the March conference'.
        favorite: mark them as a favorite, such as true; default false.

    Returns:
        The new contact with its ID.

    Raises:
        invalid_address: `email` is not a valid email address.
        duplicate_contact: a contact with that email address already exists.
    """
    address = check_address(email, "email")
    _unique_email(ctx, address)
    contact_id = ctx.new_id("CON")
    ctx.db.execute("INSERT INTO contacts (contact_id, name, email, phone, company, notes, is_favorite, created_at) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (contact_id, name, address, phone or None, company or None, notes or None, int(favorite),
                    ctx.now_iso()))
    return _contact(ctx, contact_id)


@tools.tool(effect=WRITE, asks=[
    "Update {contact_id}'s email to {email}.",
    Ask("Make {contact_id} a favorite.", favorite=True),
    "Change the phone number for {contact_id} to {phone} and note: {notes}",
    Ask("Take {contact_id} off my favorites.", favorite=False),
], reply=[
    Ask("{contact_id} is one of your favorites now.", favorite=True),
    Ask("Done: {contact_id} is no longer a favorite.", favorite=False),
    Ask("Done: {contact_id}'s email is {email} now.", name=None, phone=None, company=None, notes=None, favorite=None),
    Ask("Updated {contact_id}: their phone is {phone} now, noted '{notes}'.", name=None, email=None, company=None,
        favorite=None),
    "Updated {result.name}'s contact.",
], values={"notes": ["Moved to the Boston office", "New number since March", "Now at Initech",
                     "Call after 10 AM", "Prefers email", "Birthday in June"]})
def update_contact(ctx: Ctx, contact_id: PhoneContactId, name: Name | None = None, email: Address | None = None,
                   phone: Phone | None = None, company: Text | None = None, notes: Text | None = None,
                   favorite: bool | None = None) -> Contact:
    """Change a contact: only the fields given change ('' clears phone, company or notes).

    Args:
        contact_id: ID of the contact, such as 'CON-10004'.
        name: the new name, such as 'Ana Lopez-Garcia'.
        email: the new email address, such as 'ana@newcompany.com'.
        phone: the new phone number, such as '+1-415-555-0199'; '' clears it.
        company: the new company, such as 'Northwind Health'; '' clears it.
        notes: the new notes, such as 'Prefers calls'; '' clears them.
        favorite: true or false to mark or unmark as favorite.

    Returns:
        The updated contact.

    Raises:
        not_found: no contact has that ID.
        nothing_to_update: no field was given.
        invalid_address: `email` is not a valid email address.
        duplicate_contact: another contact already has that email address.
    """
    old = _contact(ctx, contact_id)
    if all(v is None for v in (name, email, phone, company, notes, favorite)):
        raise ToolError("nothing_to_update", "Give at least one field to change.")
    address = old.email
    if email is not None:
        address = check_address(email, "email")
        _unique_email(ctx, address, exclude=contact_id)
    ctx.db.execute(
        "UPDATE contacts SET name = ?, email = ?, phone = ?, company = ?, notes = ?, is_favorite = ? "
        "WHERE contact_id = ?",
        (name or old.name, address, old.phone if phone is None else (phone or None),
         old.company if company is None else (company or None), old.notes if notes is None else (notes or None),
         int(old.is_favorite if favorite is None else favorite), contact_id))
    return _contact(ctx, contact_id)


@tools.tool(effect=WRITE, asks=[
    "Delete {contact_id} from my contacts.",
    "Take {contact_id} out of my address book.",
], reply=[
    "Deleted {result.name} from your contacts.",
    "Done: {result.name} ({result.email}) is no longer in your address book.",
])
def delete_contact(ctx: Ctx, contact_id: ContactId) -> DeletedContact:
    """Remove a contact from the address book (their mail is kept).

    Args:
        contact_id: ID of the contact, such as 'CON-10004'.

    Returns:
        The deleted contact's ID, name and email.

    Raises:
        not_found: no contact has that ID.
    """
    old = _contact(ctx, contact_id)
    ctx.db.execute("DELETE FROM contacts WHERE contact_id = ?", (contact_id,))
    return DeletedContact(contact_id=contact_id, name=old.name, email=old.email)


@tools.tool(effect=WRITE, asks=[
    "Unblock {address}.",
    # (a sender is blocked when their mail is reported as spam: on purpose, never "by mistake")
    "Let mail from {address} through again.",
], reply=[
    "Unblocked {address}; their mail will reach your inbox again.",
    "Done: {address} is no longer blocked.",
])
def unblock_sender(ctx: Ctx, address: BlockedAddress) -> Unblocked:
    """Unblock a sender, so their new mail reaches the inbox again (get_mailbox lists blocked senders).

    Mail already in spam stays there; mark_not_spam moves a message back.

    Args:
        address: the blocked address, such as 'deals@example.net'.

    Returns:
        The address, when it had been blocked, and the addresses still blocked.

    Raises:
        invalid_address: `address` is not a valid email address.
        not_blocked: the address is not blocked.
    """
    address = check_address(address)
    row = ctx.db.execute("SELECT * FROM blocked_senders WHERE address = ?", (address,)).fetchone()
    if row is None:
        raise ToolError("not_blocked", f"{address} is not blocked.", hint="get_mailbox lists the blocked senders.")
    ctx.db.execute("DELETE FROM blocked_senders WHERE address = ?", (address,))
    rest = [r[0] for r in ctx.db.execute("SELECT address FROM blocked_senders ORDER BY address")]
    return Unblocked(address=address, blocked_at=row["blocked_at"], still_blocked=rest)
