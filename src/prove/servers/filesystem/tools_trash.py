"""Filesystem tools: the trash (delete, list, restore, delete for good, empty)."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso

from .server import (
    VAULT,
    GeneralFolderPath,
    ItemPath,
    Kind,
    Limit,
    TrashId,
    check_fits,
    check_not_protected,
    check_subtree_unlocked,
    check_unlocked,
    destination,
    folder_of,
    guard_vault,
    human,
    inside,
    items_said,
    log_activity,
    lookup,
    purge,
    resolve,
    split,
    subtree,
    vault_open,
)
from .world import TRASH_DAYS

tools = Toolset("trash")

# ----- models -----------------------------------------------------------------------------------


class TrashItem(BaseModel):
    trash_id: TrashId
    name: str
    kind: Kind
    original_path: str = Field(description="where the item was when it was deleted")
    size: int
    size_text: str
    items: int = Field(description="files and folders it holds, itself included")
    deleted_at: str
    purge_on: str = Field(description="when it will be deleted for good (30 days after deletion)")


class TrashList(BaseModel):
    items: list[TrashItem] = Field(description="most recently deleted first")
    total: int
    total_size: int
    total_size_text: str
    items_text: str = Field(description="the items in words, such as '2 items: Untitled.txt from the Desktop folder "
                                        "(5 bytes) and the folder 2024-07 Old phone backup from the 2024 folder (4 "
                                        "items inside, 9.2 MB)'")


class Deleted(BaseModel):
    trash_id: TrashId
    path: str = Field(description="the path the item had")
    kind: Kind
    items: int
    size: int
    size_text: str
    purge_on: str


class Restored(BaseModel):
    path: ItemPath = Field(description="where the item is now")
    original_path: str
    kind: Kind
    items: int
    folder_text: str = Field("", description="the folder it is in now, in words, such as 'the Documents folder'")


class Purged(BaseModel):
    items: int = Field(description="trash items deleted for good")
    freed_bytes: int
    freed_text: str
    names: list[str]


# ----- helpers ----------------------------------------------------------------------------------


def _purge_on(deleted_at: str) -> str:
    return iso(datetime.fromisoformat(deleted_at) + timedelta(days=TRASH_DAYS))


def _item(row: sqlite3.Row) -> TrashItem:
    return TrashItem(trash_id=row["trash_id"], name=row["name"], kind=row["kind"], original_path=row["original_path"],
                     size=row["size"], size_text=human(row["size"]), items=row["item_count"],
                     deleted_at=row["deleted_at"], purge_on=_purge_on(row["deleted_at"]))


def _visible_trash(ctx: Ctx) -> list[sqlite3.Row]:
    rows = ctx.db.execute("SELECT * FROM trash ORDER BY deleted_at DESC, trash_id DESC").fetchall()
    if vault_open(ctx):
        return rows
    return [r for r in rows if not inside(r["original_path"], VAULT)]


def _trash_row(ctx: Ctx, trash_id: str) -> sqlite3.Row:
    row = ctx.get("trash_item", trash_id)
    guard_vault(ctx, row["original_path"])
    return row


# ----- tools ------------------------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    "Delete {path}.",
    Ask("Delete {path}; no need to check with me first.", recursive=True),
    "Move {path} to the trash.",
], reply=[
    "Moved {path} to the trash; it can be restored until {result.purge_on}.",
    "Done: {path} is in the trash ({result.size_text}).",
])
def delete_path(ctx: Ctx, path: ItemPath, recursive: bool = False) -> Deleted:
    """Move a file or folder to the trash, where it stays restorable for 30 days.

    Args:
        path: the file or folder to delete, such as '/Desktop/notes.txt'.
        recursive: must be true to delete a folder that is not empty (with everything inside it).

    Returns:
        The trash item's ID (for restore_from_trash), what was deleted and when it will be
        deleted for good.

    Raises:
        invalid_path: the path is malformed.
        vault_locked: the item is in the Personal Vault and the vault is locked.
        not_found: nothing exists at that path.
        protected_path: the item is the root or a system folder.
        directory_not_empty: the folder holds items and `recursive` is false.
        read_only: the item, a folder above it or an item inside it is read-only.
    """
    row = resolve(ctx, path)
    check_not_protected(row["path"], "delete")
    items = subtree(ctx, row["path"])
    if len(items) > 1 and not recursive:
        raise ToolError("directory_not_empty", f"{row['path']!r} holds {len(items) - 1} items.",
                        hint="Confirm with the user, then call delete_path again with recursive true.")
    check_subtree_unlocked(ctx, row["path"], "delete")
    trash_id = ctx.new_id("TRS")
    size = sum(r["size"] for r in items if r["kind"] == "file")
    deleted_at = iso(ctx.now())
    ctx.db.execute("INSERT INTO trash (trash_id, node_id, name, kind, original_path, size, item_count, deleted_at) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (trash_id, row["node_id"], row["name"], row["kind"], row["path"], size, len(items), deleted_at))
    ctx.db.execute("UPDATE nodes SET trash_id = ? WHERE trash_id IS NULL AND (path = ? OR substr(path, 1, ?) = ?)",
                   (trash_id, row["path"], len(row["path"]) + 1, row["path"] + "/"))
    ctx.db.execute("UPDATE nodes SET parent_id = NULL WHERE node_id = ?", (row["node_id"],))
    log_activity(ctx, "deleted", row["path"], "moved to the trash")
    return Deleted(trash_id=trash_id, path=row["path"], kind=row["kind"], items=len(items), size=size,
                   size_text=human(size), purge_on=_purge_on(deleted_at))


@tools.tool(effect=READ, asks=[
    "What's in my trash?",
    "Show me the files I deleted recently.",
    "Is there anything in the trash I could still restore?",
], reply=["The trash holds {result.items_text}."])
def list_trash(ctx: Ctx, limit: Limit = 50) -> TrashList:
    """List what is in the trash, most recently deleted first (vault items only while it is unlocked).

    Args:
        limit: how many items to return at most, such as 50.

    Returns:
        The trash items (ID, name, kind, original path, size, item count, deletion time, when
        each will be deleted for good), how many there are and their total size.
    """
    rows = _visible_trash(ctx)
    size = sum(r["size"] for r in rows)
    items = [_item(r) for r in rows[:limit]]
    return TrashList(items=items, total=len(rows), total_size=size, total_size_text=human(size),
                     items_text=_items_text(items, len(rows)))


def _items_text(items: list[TrashItem], total: int, shown: int = 5) -> str:
    """'2 items: Untitled.txt from the Desktop folder (5 bytes) and the folder 2024-07 Old phone backup
    from the 2024 folder (4 items inside, 9.2 MB)'."""
    said = []
    for t in items[:shown]:
        where = folder_of(t.original_path)
        inside = f"{t.items - 1} item{'' if t.items == 2 else 's'} inside, " if t.kind == "folder" else ""
        said.append(f"{'the folder ' if t.kind == 'folder' else ''}{t.name} from {where} ({inside}{t.size_text})")
    return items_said(said, total)


@tools.tool(effect=WRITE, asks=[
    "Restore {trash_id} from the trash.",
    "Undelete {trash_id} and put it in {destination_folder}.",
    "Bring back {trash_id}; I deleted it by mistake.",
], reply=[
    "Restored {trash_id} to {result.folder_text}.",
    "Done: {trash_id} is back in {result.folder_text}.",
])
def restore_from_trash(ctx: Ctx, trash_id: TrashId, destination_folder: GeneralFolderPath | None = None) -> Restored:
    """Bring a deleted item back from the trash, to where it was or into another folder.

    Args:
        trash_id: ID of the trash item, from list_trash, such as 'TRS-10001'.
        destination_folder: the folder to restore it into, such as '/Documents'; default the
            folder it was deleted from.

    Returns:
        Where the item is now, where it was, and how many items came back.

    Raises:
        not_found: no trash item has that ID, or the original folder no longer exists (give `destination_folder`).
        invalid_path: `destination_folder` is malformed.
        vault_locked: the item came from, or would go into, the Personal Vault and the vault is locked.
        not_a_directory: `destination_folder` is a file.
        already_exists: the destination already holds an item of that name.
        read_only: the destination folder is read-only.
    """
    item = _trash_row(ctx, trash_id)
    folder = destination_folder
    if folder is None:
        folder = split(item["original_path"])[0]
        if lookup(ctx, folder) is None or lookup(ctx, folder)["kind"] != "folder":
            raise ToolError("not_found", f"The folder {folder!r} it was deleted from no longer exists.",
                            hint="Give destination_folder, such as '/Documents'.")
    dest, target = destination(ctx, folder, item["name"])
    check_unlocked(ctx, dest["path"], "restore items into")
    old = item["original_path"]
    check_fits((r[0] for r in ctx.db.execute("SELECT path FROM nodes WHERE trash_id = ?", (item["trash_id"],))),
               old, target)
    ctx.db.execute("UPDATE nodes SET path = ? || substr(path, ?), trash_id = NULL WHERE trash_id = ?",
                   (target, len(old) + 1, item["trash_id"]))
    ctx.db.execute("UPDATE nodes SET parent_id = ? WHERE node_id = ?", (dest["node_id"], item["node_id"]))
    ctx.db.execute("DELETE FROM trash WHERE trash_id = ?", (item["trash_id"],))
    log_activity(ctx, "restored", target, f"from the trash (was {old})" if target != old else "from the trash")
    return Restored(path=target, original_path=old, kind=item["kind"], items=item["item_count"],
                    folder_text=folder_of(target))


@tools.tool(effect=WRITE, asks=[
    "Permanently delete {trash_id} from the trash.",
    "Get rid of {trash_id} for good.",
], reply=[
    "Deleted {trash_id} for good and freed {result.freed_text}.",
    "Done: {trash_id} is gone permanently.",
])
def delete_from_trash(ctx: Ctx, trash_id: TrashId) -> Purged:
    """Delete one trash item for good, freeing its space. This cannot be undone.

    Args:
        trash_id: ID of the trash item, from list_trash, such as 'TRS-10003'.

    Returns:
        How many trash items were deleted, the space freed and their names.

    Raises:
        not_found: no trash item has that ID.
        vault_locked: the item came from the Personal Vault and the vault is locked.
    """
    item = _trash_row(ctx, trash_id)
    purge(ctx, item["trash_id"])
    log_activity(ctx, "purged", item["original_path"], "deleted for good from the trash")
    return Purged(items=1, freed_bytes=item["size"], freed_text=human(item["size"]), names=[item["name"]])


@tools.tool(effect=WRITE, asks=[
    "Empty my trash.",
    "Clear out the trash to free up some space.",
], reply=[
    "Emptied the trash: {result.items} items, {result.freed_text} freed.",
    "Done: the trash is empty and you got {result.freed_text} back.",
])
def empty_trash(ctx: Ctx) -> Purged:
    """Delete everything in the trash for good, freeing its space. This cannot be undone.

    Items deleted from the Personal Vault are kept while the vault is locked.

    Returns:
        How many trash items were deleted, the space freed and their names.

    Raises:
        trash_empty: there is nothing in the trash.
    """
    rows = _visible_trash(ctx)
    if not rows:
        raise ToolError("trash_empty", "The trash is already empty.",
                        hint="Nothing to free here; see get_storage_quota.")
    for r in rows:
        purge(ctx, r["trash_id"])
        log_activity(ctx, "purged", r["original_path"], "deleted for good when the trash was emptied")
    freed = sum(r["size"] for r in rows)
    return Purged(items=len(rows), freed_bytes=freed, freed_text=human(freed), names=[r["name"] for r in rows])
