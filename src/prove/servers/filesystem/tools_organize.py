"""Filesystem tools: tags and favorites."""

from __future__ import annotations

import re
import sqlite3
from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints

from prove.env import READ, WRITE, Ctx, ToolError, Toolset
from prove.env.values import iso, quote

from .server import (
    Entry,
    EntryList,
    FavoritePath,
    ItemPath,
    Kind,
    Limit,
    TaggedPath,
    entries,
    entry_list,
    hidden_vault,
    listed,
    resolve,
)

tools = Toolset("organize")

TagText = Annotated[str, StringConstraints(min_length=1, max_length=100)]
MAX_TAGS = 20

# ----- models -----------------------------------------------------------------------------------


class Tagging(BaseModel):
    path: ItemPath
    tag: str
    tags: list[str] = Field(description="all the item's tags after the change")


class TagCount(BaseModel):
    tag: str
    items: int


class TagList(BaseModel):
    tags: list[TagCount] = Field(description="A to Z")
    total: int


class Favorite(BaseModel):
    path: ItemPath
    name: str
    kind: Kind
    added_at: str


class FavoriteList(BaseModel):
    favorites: list[Favorite] = Field(description="most recently added first")
    total: int
    favorites_text: str = Field("", description="the favorites by name, each with the folder it is in, such as "
                                                "\"Itinerary.md in the Barcelona 2026 folder and the folder 'Meeting "
                                                "notes'\"")


class FavoriteChange(BaseModel):
    path: ItemPath
    favorite: bool


# ----- helpers ----------------------------------------------------------------------------------


def clean_tag(tag: str) -> str:
    text = " ".join(tag.split()).lower().lstrip("#")
    if not re.fullmatch(r"[a-z0-9][a-z0-9 _-]{0,29}", text):
        raise ToolError("invalid_tag", f"{quote(tag, 60)} is not a tag.",
                        hint="A tag is 1-30 letters, digits, spaces, '-' or '_', such as 'taxes' or 'to-review'.")
    return text


def _is_favorite(ctx: Ctx, row: sqlite3.Row) -> bool:
    return ctx.db.execute("SELECT 1 FROM favorites WHERE node_id = ?", (row["node_id"],)).fetchone() is not None


def _tags(ctx: Ctx, node_id: int) -> list[str]:
    return [r[0] for r in ctx.db.execute("SELECT tag FROM tags WHERE node_id = ? ORDER BY tag", (node_id,))]


# ----- tools ------------------------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    "Tag {path} as '{tag}'.",
    "Add the label '{tag}' to {path}.",
], reply=[
    "Added the tag '{tag}' to {path}.",
    "Done: {path} is tagged '{tag}' now.",
], values={
    # tags that suit any file or folder (a 'taxes' or 'travel' tag would have to match the item)
    "tag": ["important", "to-review", "keep", "follow-up", "archive", "later"],
})
def add_tag(ctx: Ctx, path: ItemPath, tag: TagText) -> Tagging:
    """Add a tag (a label such as 'taxes' or 'to-review') to a file or folder.

    Args:
        path: the file or folder, such as '/Documents/Finance/Taxes/2025'.
        tag: the tag, 1-30 letters, digits, spaces, '-' or '_' (stored lower-case), such as 'taxes'.

    Returns:
        The item, the tag added and all its tags.

    Raises:
        invalid_path: the path is malformed.
        vault_locked: the item is in the Personal Vault and the vault is locked.
        not_found: nothing exists at that path.
        invalid_tag: the tag is empty or has other characters.
        already_tagged: the item already has that tag.
        too_many_tags: the item already has 20 tags.
    """
    row = resolve(ctx, path)
    text = clean_tag(tag)
    current = _tags(ctx, row["node_id"])
    if text in current:
        raise ToolError("already_tagged", f"{row['path']!r} is already tagged {text!r}.", hint="Nothing to do.")
    if len(current) >= MAX_TAGS:
        raise ToolError("too_many_tags", f"{row['path']!r} already has {MAX_TAGS} tags.",
                        hint="Remove a tag with remove_tag first.")
    ctx.db.execute("INSERT INTO tags (node_id, tag) VALUES (?, ?)", (row["node_id"], text))
    return Tagging(path=row["path"], tag=text, tags=_tags(ctx, row["node_id"]))


@tools.tool(effect=WRITE, asks=[
    "Remove the '{tag}' tag from {path}.",
    "{path} shouldn't be tagged '{tag}' any more.",
], reply=[
    "Removed the tag '{tag}' from {path}.",
    "Done: {path} is no longer tagged '{tag}'.",
])
def remove_tag(ctx: Ctx, path: TaggedPath, tag: TagText) -> Tagging:
    """Remove a tag from a file or folder.

    Args:
        path: the file or folder, such as '/Documents/Finance/Budget 2026.csv'.
        tag: the tag to remove, such as 'budget'.

    Returns:
        The item, the tag removed and the tags it still has.

    Raises:
        invalid_path: the path is malformed.
        vault_locked: the item is in the Personal Vault and the vault is locked.
        not_found: nothing exists at that path.
        invalid_tag: the tag is empty or has other characters.
        not_tagged: the item does not have that tag.
    """
    row = resolve(ctx, path)
    text = clean_tag(tag)
    if text not in _tags(ctx, row["node_id"]):
        raise ToolError("not_tagged", f"{row['path']!r} is not tagged {text!r}.",
                        hint=f"Its tags are: {', '.join(_tags(ctx, row['node_id'])) or 'none'}.")
    ctx.db.execute("DELETE FROM tags WHERE node_id = ? AND tag = ?", (row["node_id"], text))
    return Tagging(path=row["path"], tag=text, tags=_tags(ctx, row["node_id"]))


@tools.tool(effect=READ, asks=[
    "What tags do I use?",
    "List all my tags and how many files have each.",
])
def list_tags(ctx: Ctx) -> TagList:
    """List every tag in use and how many items carry it (items in the trash not counted).

    Returns:
        The tags A to Z with their item counts, and how many tags there are.
    """
    hide, params = hidden_vault(ctx, "n.path")
    rows = ctx.db.execute(f"SELECT t.tag, count(*) FROM tags t JOIN nodes n ON n.node_id = t.node_id "
                          f"WHERE n.trash_id IS NULL AND {hide} GROUP BY t.tag ORDER BY t.tag", params).fetchall()
    return TagList(tags=[TagCount(tag=r[0], items=r[1]) for r in rows], total=len(rows))


@tools.tool(effect=READ, asks=[
    "Show me everything tagged '{tag}'.",
    "Which files have the '{tag}' tag?",
], reply=["I found {result.entries_text}."])
def find_by_tag(ctx: Ctx, tag: TagText, limit: Limit = 50) -> EntryList:
    """Find the files and folders that carry a tag.

    Args:
        tag: the tag, such as 'taxes' (any case).
        limit: how many items to return at most, such as 50.

    Returns:
        The tagged items ordered by path, and how many there are.

    Raises:
        invalid_tag: the tag is empty or has other characters.
    """
    text = clean_tag(tag)
    hide, params = hidden_vault(ctx, "n.path")
    rows = ctx.db.execute(f"SELECT n.* FROM tags t JOIN nodes n ON n.node_id = t.node_id WHERE t.tag = ? "
                          f"AND n.trash_id IS NULL AND {hide} ORDER BY n.path", [text, *params]).fetchall()
    found: list[Entry] = entries(ctx, rows[:limit])
    return entry_list(ctx, found, len(rows))


@tools.tool(effect=WRITE, asks=[
    "Add {path} to my favorites.",
    "Mark {path} as a favorite so I can find it quickly.",
], reply=[
    "Added {path} to your favorites.",
    "Done: {path} is in your favorites now.",
])
def add_favorite(ctx: Ctx, path: ItemPath) -> FavoriteChange:
    """Star a file or folder as a favorite.

    Args:
        path: the file or folder, such as '/Documents/Recipes'.

    Returns:
        The item and its favorite status (true).

    Raises:
        invalid_path: the path is malformed.
        vault_locked: the item is in the Personal Vault and the vault is locked.
        not_found: nothing exists at that path.
        already_favorite: the item is already a favorite.
    """
    row = resolve(ctx, path)
    if _is_favorite(ctx, row):
        raise ToolError("already_favorite", f"{row['path']!r} is already a favorite.", hint="Nothing to do.")
    ctx.db.execute("INSERT INTO favorites (node_id, added_at) VALUES (?, ?)", (row["node_id"], iso(ctx.now())))
    return FavoriteChange(path=row["path"], favorite=True)


@tools.tool(effect=WRITE, asks=[
    "Remove {path} from my favorites.",
    "Take {path} off my favorites list.",
], reply=[
    "Removed {path} from your favorites.",
    "Done: {path} is no longer a favorite.",
])
def remove_favorite(ctx: Ctx, path: FavoritePath) -> FavoriteChange:
    """Remove the star from a favorite file or folder.

    Args:
        path: the file or folder, such as '/Desktop/todo.txt'.

    Returns:
        The item and its favorite status (false).

    Raises:
        invalid_path: the path is malformed.
        vault_locked: the item is in the Personal Vault and the vault is locked.
        not_found: nothing exists at that path.
        not_favorite: the item is not a favorite.
    """
    row = resolve(ctx, path)
    if not _is_favorite(ctx, row):
        raise ToolError("not_favorite", f"{row['path']!r} is not a favorite.", hint="Call list_favorites to see them.")
    ctx.db.execute("DELETE FROM favorites WHERE node_id = ?", (row["node_id"],))
    return FavoriteChange(path=row["path"], favorite=False)


@tools.tool(effect=READ, asks=[
    "What are my favorite files?",
    "Show my favorites.",
], reply=[
    "Your favorites, newest first: {result.favorites_text}.",
])
def list_favorites(ctx: Ctx, limit: Limit = 50) -> FavoriteList:
    """List the user's favorite (starred) files and folders, most recently added first.

    Args:
        limit: how many favorites to return at most, such as 50.

    Returns:
        The favorites (path, name, kind, when added) and how many there are.
    """
    hide, params = hidden_vault(ctx, "n.path")
    rows = ctx.db.execute(f"SELECT n.path, n.name, n.kind, f.added_at FROM favorites f JOIN nodes n "
                          f"ON n.node_id = f.node_id WHERE n.trash_id IS NULL AND {hide} "
                          "ORDER BY f.added_at DESC, n.path", params).fetchall()
    shown = [Favorite(path=r["path"], name=r["name"] or "/", kind=r["kind"], added_at=r["added_at"])
             for r in rows[:limit]]
    said = [(f"the folder '{f.name}'" if f.kind == "folder" else f.name)
            + (f" in the {f.path.rsplit('/', 2)[-2]} folder" if f.path.count("/") > 1 else "") for f in shown]
    return FavoriteList(favorites=shown, total=len(rows), favorites_text=listed(said, 6) if said else "none")
