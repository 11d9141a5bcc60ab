"""Filesystem tools: browsing and reading (list, tree, stat, read, stats, recent, usage, activity)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import READ, Ask, Ctx, ToolError, Toolset, Where
from prove.env.values import iso

from .server import (
    VAULT,
    Entry,
    EntryList,
    FilePath,
    FolderPath,
    ItemPath,
    Kind,
    Limit,
    TextFilePath,
    entries,
    entries_text,
    entry_list,
    folder_of,
    folder_size,
    hidden_vault,
    human,
    inside,
    listed,
    locked_by,
    normalize,
    prefix,
    quota,
    read_only_paths,
    require_text,
    resolve,
    used_bytes,
    vault_open,
)

tools = Toolset("browse")

Action = Literal["created", "uploaded", "edited", "renamed", "moved", "copied", "deleted", "restored", "purged",
                 "shared", "unshared", "link_updated", "protected", "unprotected", "archived", "extracted",
                 "version_restored", "folder_created"]

# ----- models -----------------------------------------------------------------------------------


class FolderListing(BaseModel):
    path: FolderPath
    entries: list[Entry]
    total: int = Field(description="how many items the folder holds (hidden ones included when asked), before `limit`")
    entries_text: str = Field(description="the first items in words, such as '2 items: Taxes (folder, 2.2 MB) and "
                                          "Budget 2025.csv (636 bytes, modified December 31, 2025)'")


class TreeEntry(BaseModel):
    path: ItemPath
    name: str
    kind: Kind
    depth: int = Field(description="1 for the folder's direct contents, 2 for theirs, ...")
    size: int = Field(description="bytes (files only; 0 for folders)")
    size_text: str = Field("", description="the size as people say it, such as '4.3 MB'; a folder's is of "
                                           "everything inside it")


class Tree(BaseModel):
    path: FolderPath
    entries: list[TreeEntry] = Field(description="depth-first, folders before their contents")
    total: int = Field(description="how many items lie within `max_depth`, before `limit`")
    truncated: bool = Field(description="true if `limit` cut the tree short")
    tree_text: str = Field(description="the top of the tree in words: each folder with what it holds, each file "
                                       "with its size, such as 'Finance (Taxes, Budget 2026.csv and 3 more), "
                                       "notes.txt (2.1 KB) and Photos (empty)'")


class ItemInfo(BaseModel):
    path: ItemPath
    name: str
    kind: Kind
    size: int = Field(description="bytes; for a folder, every file inside it")
    size_text: str
    mime_type: str | None
    owner: str
    created_at: str
    modified_at: str
    read_only: bool = Field(description="the item or a folder above it is read-only")
    locked_by: ItemPath | None = Field(description="the read-only item that protects it (itself or a folder above)")
    is_text: bool = Field(description="a text file whose content read_file can show")
    lines: int | None = Field(description="lines of a text file")
    content_hash: str | None = Field(description="a short fingerprint of a file's content; equal content, equal hash")
    items: int | None = Field(description="for a folder, how many items it directly contains")
    files_inside: int | None = Field(description="for a folder, how many files it holds at any depth")
    tags: list[str]
    tags_text: str = Field("none", description="its tags in words: 'none', or the tags separated by commas")
    owner_text: str = Field(description="whose it is: \"it's yours\", or \"it's Ana Silva's\" for an item shared "
                                        "with you")
    protected_text: str = Field(description="whether it is read-only and how it is tagged, in words, such as "
                                            "\"isn't read-only and has no tags\" or \"is read-only, as the folder "
                                            "Taxes is, and tagged tax and 2025\"")
    favorite: bool
    versions: int = Field(description="earlier versions kept of a text file")
    active_share_links: int
    is_archive: bool = Field(description="a .zip archive whose members list_archive shows")


class FileContent(BaseModel):
    path: FilePath
    content: str = Field(description="the requested lines, joined with line breaks")
    start_line: int
    end_line: int = Field(description="the last line included (start_line - 1 if none)")
    total_lines: int
    truncated: bool = Field(description="true if more lines follow `end_line`")
    size: int
    mime_type: str | None
    modified_at: str
    shown_text: str = Field("", description="which lines are shown, in words: 'its one line', 'all 12 lines' or "
                                            "'lines 20 to 21 of 40'")


class TextStats(BaseModel):
    path: FilePath
    lines: int
    words: int
    characters: int
    bytes: int


class UsageEntry(BaseModel):
    path: ItemPath
    kind: Kind
    size: int
    size_text: str
    files: int = Field(description="files inside (1 for a file)")


class DiskUsage(BaseModel):
    path: FolderPath
    size: int
    size_text: str
    files: int
    folders: int
    children: list[UsageEntry] = Field(description="the folder's direct contents, largest first")
    total: int
    place: str = Field("", description="the folder as people say it: 'your drive' for the root, else 'the Photos "
                                       "folder'")
    largest: str = Field("", description="the largest few of them with their sizes, such as 'Videos (11.3 GB), "
                                         "Downloads (1.1 GB)', or 'nothing'")


class StorageQuota(BaseModel):
    plan: str
    quota_bytes: int
    quota_text: str
    used_bytes: int = Field(description="every file, including files in the trash")
    used_text: str
    trash_bytes: int
    trash_text: str
    available_bytes: int
    available_text: str
    percent_used: float


class Activity(BaseModel):
    at: str
    action: str
    path: str = Field(description="the item's path at the time (it may have moved or been deleted since)")
    detail: str | None


class ActivityList(BaseModel):
    activities: list[Activity] = Field(description="newest first")
    total: int
    activities_text: str = Field("", description="the latest entries in words, such as '2 entries: notes.txt in the "
                                                 "Desktop folder was edited on March 16 at 8:00 AM; ...'")


# what happened to an item, said after "was": "Itinerary.md was edited"
_DONE = {"purged": "deleted for good", "link_updated": "given a changed share link", "protected": "made read-only",
         "unprotected": "made editable again", "archived": "zipped", "extracted": "unzipped",
         "version_restored": "restored to an earlier version", "folder_created": "created"}


def _activities_text(items: list[Activity], total: int, shown: int = 5) -> str:
    """'96 entries, the latest 5: Itinerary.md in the Vancouver 2026 folder was edited on March 16 at
    6:00 AM; ...'."""
    said = []
    for a in items[:shown]:
        at = datetime.fromisoformat(a.at)
        name = a.path.rsplit("/", 1)[1]
        where = f" in {folder_of(a.path)}" if a.path.count("/") > 1 else ""
        detail = f" ({a.detail})" if a.detail else ""
        said.append(f"{name}{where} was {_DONE.get(a.action, a.action)} on {at:%B} {at.day} at "
                    f"{at.hour % 12 or 12}:{at.minute:02d} {'AM' if at.hour < 12 else 'PM'}{detail}")
    head = f"{total} entr{'y' if total == 1 else 'ies'}" + (f", the latest {len(said)}" if total > len(said) else "")
    return f"{head}: " + "; ".join(said) if said else "no activity"


# ----- helpers ----------------------------------------------------------------------------------


def _depth_first(path: str, rows: list) -> list:
    base = len(prefix(path))
    return sorted(rows, key=lambda r: [part.lower() for part in r["path"][base:].split("/")])


# ----- tools ------------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "What's in {path}?",
    "List the files in {path}, sorted by {sort_by}.",
    "Show me everything in the root of my drive.",
    Ask("Show {path} with the biggest files first.", sort_by="size", descending=True),
    Ask("List everything in {path}, hidden files included.", include_hidden=True),
], reply=["I found {result.entries_text}."])
def list_folder(ctx: Ctx, path: FolderPath = "/", sort_by: Literal["name", "modified", "size"] = "name",
                descending: bool = False, include_hidden: bool = False, limit: Limit = 100) -> FolderListing:
    """List the files and folders directly inside a folder of the user's drive.

    Args:
        path: the folder, such as '/Documents' or '/Documents/Finance'; '/' is the root of the drive.
        sort_by: 'name' (folders first, then files, A to Z), 'modified' (oldest first) or 'size' (smallest first).
        descending: reverse the order, such as true with sort_by 'modified' for the newest first.
        include_hidden: also list hidden items, whose names start with a dot (such as '.gitignore').
        limit: how many items to return at most, such as 50.

    Returns:
        The folder's items (path, name, kind, size, type, modification time, whether read-only,
        how many items a sub-folder holds) and how many there are.

    Raises:
        invalid_path: the path is malformed (control characters, forbidden characters, above the root).
        vault_locked: the folder is the Personal Vault or inside it, and the vault is locked.
        not_found: no folder exists at that path.
        not_a_directory: the path names a file.
    """
    folder = resolve(ctx, path, expect="folder")
    rows = ctx.db.execute("SELECT * FROM nodes WHERE parent_id = ? AND trash_id IS NULL",
                          (folder["node_id"],)).fetchall()
    if not include_hidden:
        rows = [r for r in rows if not r["name"].startswith(".")]
    found = entries(ctx, rows)
    if sort_by == "name":
        found.sort(key=lambda e: (e.kind != "folder", e.name.lower(), e.name))
    elif sort_by == "modified":
        found.sort(key=lambda e: (e.modified_at, e.name))
    else:
        found.sort(key=lambda e: (e.size, e.name))
    if descending:
        found.reverse()
    return FolderListing(path=folder["path"], entries=found[:limit], total=len(found),
                         entries_text=entries_text(found[:limit], len(found), ctx.now().year))


@tools.tool(effect=READ, asks=[
    "Show me the folder structure of {path}.",
    "Give me a tree of {path} down to {max_depth} levels.",
], reply=[
    Ask("Your drive holds {result.tree_text}.", path="/"),
    "{path} holds {result.tree_text}.",
])
def get_tree(ctx: Ctx, path: FolderPath = "/", max_depth: Annotated[int, Field(ge=1, le=8)] = 2,
             limit: Limit = 200) -> Tree:
    """Show a folder and everything below it as an indented tree, depth first.

    The Personal Vault's contents are left out while the vault is locked.

    Args:
        path: the folder at the top of the tree, such as '/Projects'; '/' is the root.
        max_depth: how many levels to descend, 1 to 8, such as 3.
        limit: how many items to return at most, such as 100.

    Returns:
        Every item within `max_depth` levels (path, name, kind, depth, size), in depth-first
        order, how many there are and whether `limit` cut the tree short.

    Raises:
        invalid_path: the path is malformed.
        vault_locked: the folder is the Personal Vault or inside it, and the vault is locked.
        not_found: no folder exists at that path.
        not_a_directory: the path names a file.
    """
    folder = resolve(ctx, path, expect="folder")
    base = prefix(folder["path"])
    hide, params = hidden_vault(ctx)
    rows = ctx.db.execute(f"SELECT path, name, kind, size FROM nodes WHERE trash_id IS NULL AND substr(path, 1, ?) = ? "
                          f"AND {hide}", [len(base), base, *params]).fetchall()
    rows = [r for r in rows if r["path"] != folder["path"] and r["path"][len(base):].count("/") < max_depth]
    ordered = _depth_first(folder["path"], rows)
    items = [TreeEntry(path=r["path"], name=r["name"], kind=r["kind"], depth=r["path"][len(base):].count("/") + 1,
                       size=r["size"], size_text=human(r["size"] if r["kind"] == "file" else folder_size(ctx, r["path"])))
             for r in ordered[:limit]]
    return Tree(path=folder["path"], entries=items, total=len(ordered), truncated=len(ordered) > limit,
                tree_text=_tree_text(items, max_depth > 1))


def _tree_text(items: list[TreeEntry], deeper: bool) -> str:
    """'Finance (Taxes, Budget 2026.csv and 3 more), notes.txt (2.1 KB) and Photos (empty)': what lies
    at the top of a tree, a folder with the names of what is directly in it."""
    inside: dict[str, list[str]] = {}
    for e in items:
        inside.setdefault(e.path.rsplit("/", 1)[0], []).append(e.name)
    said = []
    for e in (e for e in items if e.depth == 1):
        if e.kind == "file":
            said.append(f"{e.name} ({e.size_text})")
        elif e.path in inside:
            said.append(f"{e.name} ({listed(inside[e.path], 3)})")
        else:
            said.append(e.name + (" (empty)" if deeper else ""))
    return listed(said, 8) if said else "nothing"


def _protected_text(path: str, by: str | None, tags: list[str]) -> str:
    """"isn't read-only and has no tags", "is read-only, as the folder Taxes is, and tagged tax and 2025"."""
    guard = ("isn't read-only" if by is None else "is read-only" if by == path
             else f"is read-only, as the folder {by.rsplit('/', 1)[-1]} is,")
    if not tags:
        return f"{guard} and has no tags"
    return f"{guard} and tagged {tags[0] if len(tags) == 1 else ', '.join(tags[:-1]) + ' and ' + tags[-1]}"


@tools.tool(effect=READ, asks=[
    "How big is {path}, and when was it last modified?",
    "Give me the details of {path}: owner, size, tags and whether it's protected.",
], reply=[
    # One reply a question: how big and when, or who owns it, its size, whether it is protected and its tags.
    "{path} is {result.size_text} and was last modified {result.modified_at}.",
    "{path} is {result.size_text}; {result.owner_text}, {result.protected_text}.",
])
def stat_path(ctx: Ctx, path: ItemPath) -> ItemInfo:
    """Show the details of one file or folder: size, type, owner, times, protection, tags and more.

    Args:
        path: the file or folder, such as '/Documents/Finance/Budget 2026.csv' or '/Photos'.

    Returns:
        The item's path, kind, size, MIME type, owner, creation and modification times, whether
        it is read-only (and which item makes it so), line count and content fingerprint of a
        file, item and file counts of a folder, tags, favorite, number of earlier versions,
        active share links, and whether it is a zip archive.

    Raises:
        invalid_path: the path is malformed.
        vault_locked: the item is in the Personal Vault and the vault is locked.
        not_found: nothing exists at that path.
    """
    row = resolve(ctx, path)
    folder = row["kind"] == "folder"
    node_id = row["node_id"]
    by = locked_by(row["path"], read_only_paths(ctx))
    size = folder_size(ctx, row["path"]) if folder else row["size"]
    files_inside = None
    if folder:
        files_inside = ctx.db.execute(
            "SELECT count(*) FROM nodes WHERE trash_id IS NULL AND kind = 'file' AND substr(path, 1, ?) = ?",
            (len(prefix(row["path"])), prefix(row["path"]))).fetchone()[0]
    now = iso(ctx.now())
    return ItemInfo(
        path=row["path"], name=row["name"] or "/", kind=row["kind"], size=size, size_text=human(size),
        mime_type=row["mime_type"], owner=row["owner"], created_at=row["created_at"], modified_at=row["modified_at"],
        read_only=by is not None, locked_by=by, is_text=row["content"] is not None,
        lines=len(row["content"].splitlines()) if row["content"] is not None else None,
        content_hash=row["content_hash"],
        items=ctx.db.execute("SELECT count(*) FROM nodes WHERE parent_id = ? AND trash_id IS NULL",
                             (node_id,)).fetchone()[0] if folder else None,
        files_inside=files_inside,
        tags=(tags := [r[0] for r in ctx.db.execute("SELECT tag FROM tags WHERE node_id = ? ORDER BY tag",
                                                     (node_id,))]),
        tags_text=", ".join(tags) or "none",
        owner_text="it's yours" if row["owner"] == ctx.db.execute("SELECT name FROM account").fetchone()[0]
        else f"it's {row['owner']}'s",
        protected_text=_protected_text(row["path"], by, tags),
        favorite=ctx.db.execute("SELECT 1 FROM favorites WHERE node_id = ?", (node_id,)).fetchone() is not None,
        versions=ctx.db.execute("SELECT count(*) FROM versions WHERE node_id = ?", (node_id,)).fetchone()[0],
        active_share_links=ctx.db.execute(
            "SELECT count(*) FROM share_links WHERE node_id = ? AND revoked_at IS NULL "
            "AND (expires_at IS NULL OR expires_at > ?)", (node_id, now)).fetchone()[0],
        is_archive=ctx.db.execute("SELECT 1 FROM archive_members WHERE node_id = ? LIMIT 1",
                                  (node_id,)).fetchone() is not None,
    )


@tools.tool(effect=READ, asks=[
    "Open {path} and show me what it says.",
    "Read me {path} from line {start_line} on.",
    "What's written in {path}?",
    "Show me the first {max_lines} lines of {path}.",
], reply=[
    "Here's {path}, {result.shown_text}:\n\n{result.content}",
    Ask("There's no text in {path} yet; it's empty.", **{"result.total_lines": 0}),
])
def read_file(ctx: Ctx, path: TextFilePath, start_line: Annotated[int, Field(ge=1)] = 1,
              max_lines: Annotated[int, Field(ge=1, le=1000)] = 200) -> FileContent:
    """Read a text file (.txt, .md, .csv, code...), whole or a range of its lines.

    Args:
        path: the file, such as '/Desktop/todo.txt' or '/Documents/Finance/Budget 2026.csv'.
        start_line: the first line to return, counting from 1, such as 40.
        max_lines: how many lines to return at most, 1 to 1000, such as 200.

    Returns:
        The requested lines, which lines they are, how many lines the file has, whether more
        follow, and the file's size, type and modification time.

    Raises:
        invalid_path: the path is malformed.
        vault_locked: the file is in the Personal Vault and the vault is locked.
        not_found: no file exists at that path.
        is_a_directory: the path names a folder.
        binary_file: the file is not text (a photo, PDF, video...).
        invalid_range: `start_line` is past the end of the file.
    """
    row = resolve(ctx, path, expect="file")
    text = require_text(row)
    lines = text.splitlines()
    if start_line > max(len(lines), 1):
        raise ToolError("invalid_range", f"{row['path']!r} has {len(lines)} lines; line {start_line} does not exist.",
                        hint="Start at line 1, or at most at the last line.")
    chunk = lines[start_line - 1: start_line - 1 + max_lines]
    end = start_line - 1 + len(chunk)
    whole = start_line == 1 and end >= len(lines)
    shown = ("its one line" if whole and len(lines) == 1 else f"all {len(lines)} lines" if whole
             else f"lines {start_line} to {end} of {len(lines)}")
    return FileContent(path=row["path"], content="\n".join(chunk), start_line=start_line, end_line=end,
                       total_lines=len(lines), truncated=end < len(lines), size=row["size"],
                       mime_type=row["mime_type"], modified_at=row["modified_at"], shown_text=shown)


@tools.tool(effect=READ, asks=[
    "How many words are in {path}?",
    "Count the lines and characters of {path}.",
], reply=[
    # The generic summary reads the counts as fields ("Words 21, path ..., lines 9"): say them.
    "{path} has {result.words} words on {result.lines} lines ({result.characters} characters).",
    "There are {result.words} words in {path}, on {result.lines} lines, {result.characters} characters in all.",
])
def get_text_stats(ctx: Ctx, path: TextFilePath) -> TextStats:
    """Count the lines, words, characters and bytes of a text file.

    Args:
        path: the text file, such as '/Documents/Personal/Resume.md'.

    Returns:
        The file's line, word, character and byte counts.

    Raises:
        invalid_path: the path is malformed.
        vault_locked: the file is in the Personal Vault and the vault is locked.
        not_found: no file exists at that path.
        is_a_directory: the path names a folder.
        binary_file: the file is not text.
    """
    row = resolve(ctx, path, expect="file")
    text = require_text(row)
    return TextStats(path=row["path"], lines=len(text.splitlines()), words=len(text.split()),
                     characters=len(text), bytes=row["size"])


@tools.tool(effect=READ, asks=[
    "Which files did I change in the last {days} days?",
    "Show me my most recently edited files.",
], reply=["I found {result.entries_text}."])
def list_recent_files(ctx: Ctx, days: Annotated[int, Field(ge=1, le=3650)] = 7, limit: Limit = 20) -> EntryList:
    """List the files modified recently, newest first (the trash and a locked vault left out).

    Args:
        days: how far back to look, in days before now, such as 7.
        limit: how many files to return at most, such as 20.

    Returns:
        The files modified within `days` days, newest first, and how many there are.
    """
    since = iso(ctx.now() - timedelta(days=days))
    hide, params = hidden_vault(ctx)
    rows = ctx.db.execute(f"SELECT * FROM nodes WHERE trash_id IS NULL AND kind = 'file' AND modified_at >= ? "
                          f"AND {hide} ORDER BY modified_at DESC, path", [since, *params]).fetchall()
    return entry_list(ctx, entries(ctx, rows[:limit]), len(rows))


@tools.tool(effect=READ, asks=[
    "What's taking up the most space in {path}?",
    "Break down the disk usage of my drive by folder.",
], reply=[
    "{result.place} holds {result.size_text} in {result.files} files; the largest items: {result.largest}.",
])
def get_disk_usage(ctx: Ctx, path: FolderPath = "/") -> DiskUsage:
    """Show how much space a folder takes and which of its items are the largest.

    Args:
        path: the folder to measure, such as '/' for the whole drive or '/Photos'.

    Returns:
        The folder's total size and file and folder counts, and each of its direct items with
        its size and file count, largest first. Files in the trash are not included here (see
        get_storage_quota).

    Raises:
        invalid_path: the path is malformed.
        vault_locked: the folder is the Personal Vault or inside it, and the vault is locked.
        not_found: no folder exists at that path.
        not_a_directory: the path names a file.
    """
    folder = resolve(ctx, path, expect="folder")
    base = prefix(folder["path"])
    rows = ctx.db.execute("SELECT path, kind, size FROM nodes WHERE trash_id IS NULL AND substr(path, 1, ?) = ?",
                          (len(base), base)).fetchall()
    children: dict[str, list] = {}
    for r in rows:
        top = base + r["path"][len(base):].split("/", 1)[0]
        children.setdefault(top, [None, 0, 0])
        if r["path"] == top:
            children[top][0] = r["kind"]
        if r["kind"] == "file":
            children[top][1] += r["size"]
            children[top][2] += 1
    usage = [UsageEntry(path=p, kind=kind, size=size, size_text=human(size), files=files)
             for p, (kind, size, files) in children.items()]
    usage.sort(key=lambda u: (-u.size, u.path))
    size = sum(r["size"] for r in rows if r["kind"] == "file")
    largest = ", ".join(f"{u.path.rsplit('/', 1)[-1]} ({u.size_text})" for u in usage[:5])
    return DiskUsage(path=folder["path"], size=size, size_text=human(size),
                     files=sum(1 for r in rows if r["kind"] == "file"),
                     folders=sum(1 for r in rows if r["kind"] == "folder"), children=usage, total=len(usage),
                     largest=largest or "nothing",
                     place="your drive" if folder["path"] == "/" else f"the {folder['name']} folder")


@tools.tool(effect=READ, asks=[
    "How much storage do I have left?",
    "Am I close to my storage limit?",
], reply=[
    "You're using {result.used_text} of your {result.quota_text} ({result.percent_used}%), so "
    "{result.available_text} is left; {result.trash_text} of it is in the trash.",
])
def get_storage_quota(ctx: Ctx) -> StorageQuota:
    """Show the user's storage plan: the quota, what is used (trash included) and what is free.

    Returns:
        The plan name, quota, bytes used (every file, including the trash), bytes in the
        trash, bytes available and the percentage used, each also in words such as '14.2 GB'.
    """
    total, used = quota(ctx), used_bytes(ctx)
    (trash,) = ctx.db.execute("SELECT coalesce(sum(size), 0) FROM nodes WHERE trash_id IS NOT NULL AND kind = 'file'"
                              ).fetchone()
    (plan,) = ctx.db.execute("SELECT plan FROM account").fetchone()
    free = max(total - used, 0)
    return StorageQuota(plan=plan, quota_bytes=total, quota_text=human(total), used_bytes=used,
                        used_text=human(used), trash_bytes=trash, trash_text=human(trash), available_bytes=free,
                        available_text=human(free), percent_used=round(100 * used / total, 1))


@tools.tool(effect=READ, asks=[
    "What happened to {path} recently?",
    "Show me the recent activity in my drive.",
    Ask("Which files did I delete lately?", action="deleted"),
    Ask("What have I shared recently?", action="shared"),
    Ask("Show me the files I edited lately.", action="edited"),
], reply=[
    "{result.activities_text}.",
])
def list_activity(ctx: Ctx, path: str | None = None, action: Action | None = None, limit: Limit = 20) -> ActivityList:
    """Show the drive's activity log, newest first: uploads, edits, moves, shares, deletions...

    Args:
        path: only activity on this item or inside this folder, such as '/Documents/Finance'; the
            item may since have moved or been deleted.
        action: only this kind of activity, such as 'deleted' or 'shared'.
        limit: how many entries to return at most, such as 20.

    Returns:
        The entries (time, action, the item's path at the time, details), newest first, and how
        many matched.

    Raises:
        invalid_path: `path` is malformed.
    """
    where = Where()
    if path is not None:
        folder = normalize(path)
        where.add("(path = ? OR substr(path, 1, ?) = ?)", folder, len(prefix(folder)), prefix(folder))
    where.eq("action", action)
    rows = ctx.db.execute(f"SELECT at, action, path, detail FROM activity WHERE {where.sql} "
                          "ORDER BY at DESC, activity_id DESC", where.params).fetchall()
    if not vault_open(ctx):
        rows = [r for r in rows if not inside(r["path"], VAULT) or r["path"] == VAULT]
    items = [Activity(**dict(r)) for r in rows[:limit]]
    return ActivityList(activities=items, total=len(rows), activities_text=_activities_text(items, len(rows)))
