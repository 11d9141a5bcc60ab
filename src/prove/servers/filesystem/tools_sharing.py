"""Filesystem tools: share links (create, list, change, revoke)."""

from __future__ import annotations

import sqlite3
import string
from datetime import date, datetime, time, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, Sensitive, ToolError, Toolset
from prove.env.values import iso, spoken_day

from .server import (
    ROOT,
    VAULT,
    ItemPath,
    Limit,
    LinkId,
    inside,
    listed,
    log_activity,
    resolve,
)

tools = Toolset("sharing")

Access = Literal["view", "edit"]
LinkStatus = Literal["active", "expired", "revoked", "in_trash"]
Days = Annotated[int, Field(ge=0, le=365)]
Token = Annotated[str, Sensitive()]
BASE_URL = "https://drive.example.com/s/"

# ----- models -----------------------------------------------------------------------------------


class ShareLink(BaseModel):
    link_id: LinkId
    name: str = Field(description="the shared item's name")
    path: str = Field(description="the shared item's path (its path when deleted, if it is in the trash)")
    kind: Literal["file", "folder"]
    access: Access = Field(description="'view': anyone with the link can open it; 'edit': they can also change it")
    url: Token = Field(description="the link to send to people; anyone who has it gets access")
    token: Token
    created_at: str
    expires_at: str | None = Field(description="when the link stops working; null for never")
    revoked_at: str | None
    status: LinkStatus


class ShareLinkList(BaseModel):
    links: list[ShareLink]
    total: int
    links_text: str = Field(description="the links in words, such as 'Resume.pdf (view only, made March 3) and "
                                        "Budget 2026.csv (anyone with it can edit, expired March 10)'")


# ----- helpers ----------------------------------------------------------------------------------


def _status(row: sqlite3.Row, now: str) -> str:
    if row["revoked_at"] is not None:
        return "revoked"
    if row["trash_id"] is not None:
        return "in_trash"
    if row["expires_at"] is not None and row["expires_at"] <= now:
        return "expired"
    return "active"


_SELECT = ("SELECT l.*, n.name, n.path, n.kind, n.trash_id FROM share_links l JOIN nodes n ON n.node_id = l.node_id")


def _link(row: sqlite3.Row, now: str) -> ShareLink:
    return ShareLink(link_id=row["link_id"], name=row["name"], path=row["path"], kind=row["kind"], access=row["access"],
                     url=BASE_URL + row["token"], token=row["token"], created_at=row["created_at"],
                     expires_at=row["expires_at"], revoked_at=row["revoked_at"], status=_status(row, now))


def _get(ctx: Ctx, link_id: str) -> sqlite3.Row:
    """The link with its item's path, kind and trash state (`not_found` from `ctx.get`)."""
    return ctx.get("share_link", link_id, f"{_SELECT} WHERE l.link_id = ?")


def _expiry(ctx: Ctx, days: int | None) -> str | None:
    """The end of the day `days` days from today, or None for 0 / None (never expires)."""
    if not days:
        return None
    return iso(datetime.combine(ctx.today() + timedelta(days=days), time(23, 59, 59)))


# ----- tools ------------------------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    "Create a link so people can see {path}.",
    "Share {path} with a link that expires in {expires_in_days} days.",
    Ask("Give me a link to {path} that lets people change it.", access="edit"),
    Ask("Make a view-only link to {path} that stops working after {expires_in_days} days.", access="view"),
], reply=[
    Ask("Here's the link to {path}: {result.url} (anyone with it can {result.access} it).", expires_in_days=None),
    Ask("Done: anyone with {result.url} can {result.access} it.", expires_in_days=None),
    "Here's the link to {path}: {result.url}; anyone with it can {result.access} it until {result.expires_at}.",
    "Done: anyone with {result.url} can {result.access} it until {result.expires_at}.",
], values={
    "expires_in_days": [3, 7, 14, 30, 90],
})
def create_share_link(ctx: Ctx, path: ItemPath, access: Access = "view",
                      expires_in_days: Days | None = None) -> ShareLink:
    """Create a link that gives anyone who has it access to a file or folder.

    Args:
        path: the file or folder to share, such as '/Documents/Personal/Resume.pdf'.
        access: 'view' (open and download) or 'edit' (also change it).
        expires_in_days: the link stops working at the end of the day this many days from today,
            such as 7; 0 or empty for a link that never expires.

    Returns:
        The link: its ID, URL and token (secret: anyone with it gets access), access, expiry and status.

    Raises:
        invalid_path: the path is malformed.
        vault_locked: the item is in the Personal Vault and the vault is locked.
        not_found: nothing exists at that path.
        not_shareable: the item is the root, in the Personal Vault, or owned by someone else.
    """
    row = resolve(ctx, path)
    (me,) = ctx.db.execute("SELECT name FROM account").fetchone()
    if row["path"] == ROOT or inside(row["path"], VAULT):
        raise ToolError("not_shareable", f"{row['path']!r} cannot be shared: the whole drive and the Personal Vault "
                        "are never shared by link.", hint="Share a file or folder outside the vault instead.")
    if row["owner"] != me:
        raise ToolError("not_shareable", f"{row['path']!r} belongs to {row['owner']}; only they can share it by link.",
                        hint="Make a copy with copy_path and share the copy, if the user wants.")
    rng = ctx.rng()
    token = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(22))
    link_id = ctx.new_id("LNK")
    ctx.db.execute("INSERT INTO share_links (link_id, node_id, token, access, created_at, expires_at, revoked_at) "
                   "VALUES (?, ?, ?, ?, ?, ?, NULL)",
                   (link_id, row["node_id"], token, access, iso(ctx.now()), _expiry(ctx, expires_in_days)))
    log_activity(ctx, "shared", row["path"], f"{access} link {link_id}")
    return _link(_get(ctx, link_id), iso(ctx.now()))


@tools.tool(effect=READ, asks=[
    Ask("Which of my files are shared by link?", status="active"),
    "Show me the share links for {path}.",
    Ask("List my share links that still work.", status="active"),
    Ask("Which of my links have expired?", status="expired"),
], reply=[
    Ask("Your expired links: {result.links_text}.", status="expired"),
    Ask("Your links that still work: {result.links_text}.", status="active"),
    Ask("{path} is shared by {result.links_text}.", status=None),
])
def list_share_links(ctx: Ctx, path: ItemPath | None = None, status: LinkStatus | None = None,
                     limit: Limit = 50) -> ShareLinkList:
    """List the user's share links, newest first, with whether each still works.

    Args:
        path: only links to this file or folder, such as '/Documents/Personal/Resume.pdf'.
        status: only links that are 'active', 'expired', 'revoked' or 'in_trash' (their item was deleted).
        limit: how many links to return at most, such as 50.

    Returns:
        The links (ID, item path, access, URL and token, creation, expiry, status) and how many matched.

    Raises:
        invalid_path: `path` is malformed.
        vault_locked: `path` is in the Personal Vault and the vault is locked.
        not_found: nothing exists at `path`.
    """
    now = iso(ctx.now())
    sql, params = f"{_SELECT}", []
    if path is not None:
        sql += " WHERE l.node_id = ?"
        params.append(resolve(ctx, path)["node_id"])
    rows = ctx.db.execute(sql + " ORDER BY l.created_at DESC, l.link_id DESC", params).fetchall()
    links = [_link(r, now) for r in rows]
    if status is not None:
        links = [lk for lk in links if lk.status == status]
    return ShareLinkList(links=links[:limit], total=len(links),
                         links_text=_links_text(links[:limit], ctx.now().date(), status is None, path is None))


def _links_text(links: list[ShareLink], today: date, status_said: bool, name_said: bool) -> str:
    """'Resume.pdf (view only, made March 3)', 'an edit link made January 9, https://... (revoked)': each link
    by its item where the listing is of many items, else with its address; its access, when it was made and,
    where the listing did not pick one, whether it still works."""
    said = []
    for lk in links:
        made = f"made {spoken_day(lk.created_at, today)}"
        state = {"active": "", "expired": f"expired {spoken_day(lk.expires_at, today)}" if lk.expires_at else "expired",
                 "revoked": "revoked", "in_trash": "its item is in the trash"}[lk.status] if status_said else ""
        if name_said:
            access = "view only" if lk.access == "view" else "anyone with it can edit"
            said.append(f"{lk.name} ({', '.join(n for n in (access, made, state) if n)})")
        else:
            said.append(f"{'a view-only' if lk.access == 'view' else 'an edit'} link {made}, {lk.url}"
                        + (f" ({state})" if state else ""))
    return listed(said, 6) if said else "none"


# A link that still works: one whose access alone changes ("people with it can view the item now").
_WORKING = "expires_at IS NULL OR expires_at >= :now"


@tools.tool(effect=WRITE, asks=[
    Ask("Change {link_id} so people can edit it too.", access="edit", fits={"link_id": _WORKING}),
    Ask("Make {link_id} view-only.", access="view", fits={"link_id": _WORKING}),
    "Make {link_id} expire in {expires_in_days} days.",
], reply=[
    Ask("{link_id} now expires on {result.expires_at}.", access=None),
    Ask("Done: {link_id} stops working on {result.expires_at}.", access=None),
    Ask("Done: {link_id} now gives {access} access.", expires_in_days=None),
    Ask("Updated {link_id}: people with it can {access} the item now.", expires_in_days=None),
    "Updated {link_id}: {access} access, expiring on {result.expires_at}.",
], values={
    "expires_in_days": [3, 7, 14, 30, 90],
})
def update_share_link(ctx: Ctx, link_id: LinkId, access: Access | None = None,
                      expires_in_days: Days | None = None) -> ShareLink:
    """Change a share link's access or expiry (an expired link can be renewed this way).

    Args:
        link_id: ID of the link, such as 'LNK-10001'.
        access: the new access, 'view' or 'edit'.
        expires_in_days: a new expiry, at the end of the day this many days from today, such as
            14; 0 for a link that never expires.

    Returns:
        The link as it is now.

    Raises:
        not_found: no share link has that ID.
        link_revoked: the link was revoked; create a new one instead.
        nothing_to_update: neither `access` nor `expires_in_days` was given.
    """
    row = _get(ctx, link_id)
    if row["revoked_at"] is not None:
        raise ToolError("link_revoked", f"Link {link_id} was revoked on {row['revoked_at'][:10]}.",
                        hint="Call create_share_link for a new link.")
    if access is None and expires_in_days is None:
        raise ToolError("nothing_to_update", "Give `access`, `expires_in_days`, or both.")
    changes = []
    if access is not None:
        ctx.db.execute("UPDATE share_links SET access = ? WHERE link_id = ?", (access, link_id))
        changes.append(f"access {access}")
    if expires_in_days is not None:
        expiry = _expiry(ctx, expires_in_days)
        ctx.db.execute("UPDATE share_links SET expires_at = ? WHERE link_id = ?", (expiry, link_id))
        changes.append(f"expires {expiry}" if expiry else "never expires")
    log_activity(ctx, "link_updated", row["path"], f"link {link_id}: {', '.join(changes)}")
    return _link(_get(ctx, link_id), iso(ctx.now()))


@tools.tool(effect=WRITE, asks=[
    "Stop sharing through {link_id}.",
    "Revoke {link_id} right away.",
], reply=[
    "Revoked {link_id}; nobody can open the item with it now.",
    "Done: {link_id} is dead.",
])
def revoke_share_link(ctx: Ctx, link_id: LinkId) -> ShareLink:
    """Turn a share link off for good: nobody can use it any more.

    Args:
        link_id: ID of the link, such as 'LNK-10002'.

    Returns:
        The link, now with status 'revoked'.

    Raises:
        not_found: no share link has that ID.
        link_revoked: the link was already revoked.
    """
    row = _get(ctx, link_id)
    if row["revoked_at"] is not None:
        raise ToolError("link_revoked", f"Link {link_id} was already revoked on {row['revoked_at'][:10]}.",
                        hint="Nothing to do.")
    ctx.db.execute("UPDATE share_links SET revoked_at = ? WHERE link_id = ?", (iso(ctx.now()), link_id))
    log_activity(ctx, "unshared", row["path"], f"revoked link {link_id}")
    return _link(_get(ctx, link_id), iso(ctx.now()))
