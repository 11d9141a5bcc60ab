"""The filesystem server: the one `server`, its entity types, shared models and the path rules.

The drive lives entirely in the session's database. A path is a *virtual* path: a string that
`normalize` turns into '/Documents/Finance/Budget 2026.csv' or refuses with `invalid_path`; it
is only ever compared with the `path` column of `nodes`. No tool touches the host's file system
(no `open`, `os` or `pathlib` on a path a caller gave), whatever the path says.

The tools live by area in toolsets, `tools_<area>.py`, which the package's `__init__.py`
includes in this order (`hooks.py` holds what passing time does):

    tools_browse.py     list, tree, stat, read, text stats, recent files, disk usage, activity
    tools_search.py     search by name, content, extension, date; duplicates; diff two files
    tools_edit.py       create, write, append, replace, move, rename, copy, read-only
    tools_trash.py      delete to trash, list, restore, delete for good, empty
    tools_versions.py   earlier versions of a text file: list, read, compare, restore
    tools_sharing.py    share links with tokens and expiry
    tools_organize.py   tags and favorites
    tools_archive.py    .zip archives: compress, list, extract
    tools_vault.py      the Personal Vault (locked by a passcode)

Rules every tool follows:

- Paths are normalised (see `normalize`): '~' and a missing leading '/' mean the root, '.' and
  repeated slashes are dropped, '..' goes up but never above the root; control characters,
  backslashes and any of : * ? " < > | are refused.
- A node is *locked* if it or a folder above it is read-only: it cannot be changed, renamed,
  moved or deleted, and nothing can be created in it.
- '/', '/Personal Vault' and '/Shared with me' are system folders that cannot be moved, renamed
  or deleted.
- The Personal Vault's contents are reachable only while it is unlocked (20 minutes after
  `unlock_vault`, or until `lock_vault`); searches skip them while it is locked.
- Every file counts against the storage quota, including files in the trash; versions do not.
"""

from __future__ import annotations

import difflib
import hashlib
import sqlite3
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from prove.env import Ctx, EntityKind, Server, ToolError
from prove.env.values import iso, quote

from .world import MIME_TYPES, ROOT, SHARED, VAULT, build_world

# ----- limits and fixed names -------------------------------------------------------------------

MAX_NAME_BYTES = 255
MAX_PATH_CHARS = 1024
MAX_DEPTH = 32
MAX_TEXT_CHARS = 200_000          # the largest text file a tool may produce
MAX_DIFF_LINES = 400              # the longest diff a tool returns
VAULT_UNLOCK_MINUTES = 20
PROTECTED = (ROOT, VAULT, SHARED)
FORBIDDEN_CHARS = frozenset('\\:*?"<>|')


ITEM = EntityKind("item", table="nodes", key="path", label="name",
                  description="a file or folder in the drive, named by its path", live="trash_id IS NULL AND path != '/'",
                  lister="list_folder", noun_from="kind")
FILE = EntityKind("file", table="nodes", key="path", label="name",
                  description="a file in the drive, named by its path", live="kind = 'file' AND trash_id IS NULL",
                  lister="list_folder")
FOLDER = EntityKind("folder", table="nodes", key="path", label="name",
                    description="a folder in the drive, named by its path",
                    live="kind = 'folder' AND trash_id IS NULL AND path != '/'")
TRASH_ITEM = EntityKind("trash_item", table="trash", key="trash_id", label="name",
                        description="a deleted file or folder waiting in the trash", noun="deleted item", noun_from="kind")
VERSION = EntityKind("version", table="versions", key="version_id", label=None,
                     description="an earlier content of a text file",
                     lister="list_versions")
SHARE_LINK = EntityKind("share_link", table="share_links", key="link_id", label=None,
                        description="a link that lets others view or edit an item", live="revoked_at IS NULL")

server = Server(
    "filesystem", "Files",
    "The cloud drive of one signed-in user: folders and files (documents, spreadsheets, photos, "
    "code projects, downloads, videos) with their contents; browsing, reading and searching by "
    "name, content, extension or date; creating, editing, moving, copying, renaming and deleting "
    "to the trash; earlier versions of text files; share links; tags and favorites; zip "
    "archives; read-only protection; a storage quota; and a Personal Vault locked by a passcode.",
    schema=Path(__file__).with_name("schema.sql"),
    world=build_world,
    entities=[ITEM, FILE, FOLDER, TRASH_ITEM, VERSION, SHARE_LINK],
)

# ----- parameter and field types ----------------------------------------------------------------

ItemPath = ITEM.id
FilePath = FILE.id
FolderPath = FOLDER.id
TrashId = TRASH_ITEM.id
VersionId = VERSION.id
LinkId = SHARE_LINK.id

# Subsets a tool accepts, so that sampled calls name items it can act on.
TextFilePath = FILE.where("content IS NOT NULL")
ArchivePath = FILE.where("node_id IN (SELECT node_id FROM archive_members)")
TaggedPath = ITEM.where("node_id IN (SELECT node_id FROM tags)")
FavoritePath = ITEM.where("node_id IN (SELECT node_id FROM favorites)")

# Files every world holds, for the tools whose other arguments (a new name, a line to add) must
# fit the file: the candidates name these paths (see the `values=` of those tools).
RENAMEABLE = ("/Desktop/todo.txt", "/Desktop/notes.txt", "/Documents/Finance/Budget 2025.csv",
              "/Documents/Finance/Net worth.csv", "/Documents/Personal/Resume.md", "/Documents/Personal/Goals 2026.md",
              "/Documents/Health/Medications.txt", "/Documents/Home/Moving checklist.md",
              "/Documents/Home/Home inventory.csv", "/Downloads/budget-2025-export.csv", "/Downloads/tax-docs-2024.zip",
              "/Documents/Personal/Resume.pdf")
NOTE_FILES = ("/Desktop/todo.txt", "/Desktop/notes.txt")


def _in(paths: tuple[str, ...]) -> str:
    return "path IN (" + ", ".join(f"'{p}'" for p in paths) + ")"


RenameablePath = FILE.where(_in(RENAMEABLE))
NotePath = FILE.where(_in(NOTE_FILES))
# The other side of a comparison: last year's budget against this year's or its export (never itself).
OldBudgetPath = FILE.where("path = '/Documents/Finance/Budget 2025.csv'")
NewBudgetPath = FILE.where(_in(("/Documents/Finance/Budget 2026.csv", "/Downloads/budget-2025-export.csv")))
# Folders anything may be moved, copied, restored or extracted into.
GeneralFolderPath = FOLDER.where(_in(("/Documents", "/Desktop")))
# The user's own files outside the vault and what others shared (moving or copying those is odd).
OwnFilePath = FILE.where("path NOT LIKE '/Shared with me/%' AND path NOT LIKE '/Personal Vault/%'")

Limit = Annotated[int, Field(ge=1, le=500)]
Text = Annotated[str, Field(max_length=10_000)]
Kind = Literal["file", "folder"]

# ----- shared result models ---------------------------------------------------------------------


class Entry(BaseModel):
    """A file or folder as listings show it."""

    path: ItemPath
    name: str
    kind: Kind
    size: int = Field(description="bytes; for a folder, the total of every file inside it")
    size_text: str = Field(description="the size for people, such as '2.4 MB'")
    mime_type: str | None = Field(description="a file's type, such as 'application/pdf'; null for folders")
    modified_at: str
    read_only: bool = Field(description="the item or a folder above it is read-only")
    items: int | None = Field(description="for a folder, how many items it directly contains")


class EntryList(BaseModel):
    entries: list[Entry]
    total: int = Field(description="how many items matched, before `limit`")
    entries_text: str = Field(description="the first items in words, such as '2 items: Budget 2025.csv in the Finance "
                                          "folder (636 bytes, modified December 31, 2025) and ...'")


def entry_list(ctx: Ctx, found: list[Entry], total: int) -> EntryList:
    """Items found across folders, each said with the folder it is in."""
    return EntryList(entries=found, total=total, entries_text=entries_text(found, total, ctx.now().year, where=True))


TOP_OF_DRIVE = "the top of your drive"


def folder_of(path: str) -> str:
    """The folder an item is in, in words: 'the Finance folder' for '/Documents/Finance/Budget.csv',
    'the top of your drive' for '/Documents'."""
    parent = path.rsplit("/", 1)[0].rsplit("/", 1)[-1]
    return f"the {parent} folder" if parent else TOP_OF_DRIVE


def entries_text(found: list[Entry], total: int, year: int, where: bool = False, shown: int = 8) -> str:
    """'3 items: Taxes (folder, 2.2 MB), Budget 2025.csv (636 bytes, modified December 31, 2025) and
    Budget 2026.csv (222 bytes, modified March 9)', in the listing's order; with `where`, each with
    its folder ('Budget 2025.csv in the Finance folder (636 bytes, ...)')."""
    said = []
    for e in found[:shown]:
        at = datetime.fromisoformat(e.modified_at)
        day = f"{at:%B} {at.day}" + (f", {at.year}" if at.year != year else "")
        place = folder_of(e.path)
        name = e.name + (f" {'at' if place == TOP_OF_DRIVE else 'in'} {place}" if where else "")
        said.append(f"{name} (folder, {e.size_text})" if e.kind == "folder" else
                    f"{name} ({e.size_text}, modified {day})")
    return items_said(said, total)


def listed(said: list[str], shown: int = 4) -> str:
    """'a', 'a and b', 'a, b, c, d and 7 more'."""
    said = said if len(said) <= shown + 1 else [*said[:shown], f"{len(said) - shown} more"]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def items_said(said: list[str], total: int) -> str:
    """'3 items: a, b and 1 more' for the items said one by one out of `total`; 'nothing' for none."""
    if not said:
        return "nothing"
    if total > len(said):
        said = [*said, f"{total - len(said)} more"]
    listed = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
    return f"{total} item{'' if total == 1 else 's'}: {listed}"


class FileWritten(BaseModel):
    """A text file after a write."""

    path: FilePath
    size: int
    size_text: str
    lines: int
    version: int = Field(description="the number of the current content; earlier ones are listed by list_versions")
    modified_at: str
    changed: bool = Field(description="false if the content was already exactly this")



class FileDiff(BaseModel):
    old: str = Field(description="what the diff compares from (a path or a version)")
    new: str = Field(description="what the diff compares to")
    identical: bool
    added_lines: int
    removed_lines: int
    diff: list[str] = Field(description="a unified diff ('-' old line, '+' new line, '@@' hunk headers)")
    truncated: bool = Field(description="true if the diff was longer than 400 lines and was cut")


# ----- paths ------------------------------------------------------------------------------------


def bad_name(name: str) -> str | None:
    """Why `name` cannot name a file or folder, or None if it can."""
    if not name:
        return "a name cannot be empty"
    if name in (".", ".."):
        return f"{name!r} is not a name"
    if name != name.strip():
        return "a name cannot start or end with spaces"
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        return "a name cannot contain control characters (such as NUL or a line break)"
    if "/" in name:
        return "a name cannot contain '/'"
    found = sorted(set(name) & FORBIDDEN_CHARS)
    if found:
        return f"a name cannot contain {' '.join(found)}"
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:
        return f"a name is at most {MAX_NAME_BYTES} bytes long"
    return None


def normalize(raw: str) -> str:
    """The canonical virtual path for `raw`, such as '/Documents/Finance', or `invalid_path`.

    '~', '~/x' and 'x' (no leading slash) are relative to the root '/'; '.' and empty parts
    are dropped; '..' goes up one folder but never above the root. Only string work happens
    here: the result names a row of `nodes`, never a file of the host.
    """
    text = raw.strip()
    if not text:
        raise ToolError("invalid_path", "The path is empty.", hint="Give a path such as '/Documents'; '/' is the root.")
    if text == "~" or text.startswith("~/"):
        text = text[1:] or "/"
    parts: list[str] = []
    for part in text.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                raise ToolError("invalid_path", f"The path {quote(raw, 60)} goes above the root of the drive.",
                                hint="Paths start at '/', the root of your drive, such as '/Documents/Work'.")
            parts.pop()
            continue
        why = bad_name(part)
        if why:
            raise ToolError("invalid_path", f"The path {quote(raw, 60)} is not valid: {why}.",
                            hint="Use '/' between folder names, such as '/Documents/Finance/Budget 2026.csv'.")
        parts.append(part)
    if len(parts) > MAX_DEPTH:
        raise ToolError("invalid_path", f"The path is more than {MAX_DEPTH} folders deep.")
    path = "/" + "/".join(parts)
    if len(path) > MAX_PATH_CHARS:
        raise ToolError("invalid_path", f"The path is longer than {MAX_PATH_CHARS} characters.")
    return path


def split(path: str) -> tuple[str, str]:
    """('/a/b', 'c') for '/a/b/c'; ('/', 'a') for '/a'."""
    parent, _, name = path.rpartition("/")
    return parent or ROOT, name


def join(folder: str, name: str) -> str:
    return folder.rstrip("/") + "/" + name


def prefix(path: str) -> str:
    """What every path strictly inside `path` starts with."""
    return path.rstrip("/") + "/"


def inside(path: str, folder: str) -> bool:
    """Whether `path` is `folder` or somewhere inside it."""
    return path == folder or path.startswith(prefix(folder))


def ancestors(path: str) -> list[str]:
    """'/a/b/c' -> ['/', '/a', '/a/b']."""
    if path == ROOT:
        return []
    parts = path.strip("/").split("/")
    return [ROOT] + ["/" + "/".join(parts[:i]) for i in range(1, len(parts))]


def check_fits(paths: Iterable[str], old: str, new: str) -> None:
    """`invalid_path` if moving the items at `paths` from under `old` to `new` makes a path too long or deep."""
    for path in paths:
        moved = new + path[len(old):]
        if len(moved) > MAX_PATH_CHARS or moved.count("/") > MAX_DEPTH:
            raise ToolError("invalid_path", f"{moved[:60]!r}… would be longer than {MAX_PATH_CHARS} characters "
                            f"or deeper than {MAX_DEPTH} folders.", hint="Choose a shorter name or a shallower folder.")


# ----- the vault --------------------------------------------------------------------------------


def vault_open(ctx: Ctx) -> bool:
    (until,) = ctx.db.execute("SELECT vault_unlocked_until FROM account").fetchone()
    return until is not None and until > ctx.now_iso()


def guard_vault(ctx: Ctx, path: str, *, contents: bool = False) -> None:
    """`vault_locked` if `path` is inside the Personal Vault (or, with `contents`, is the vault
    folder itself, whose contents the caller wants) while the vault is locked."""
    reached = inside(path, VAULT) if contents else path.startswith(prefix(VAULT))
    if reached and not vault_open(ctx):
        raise ToolError("vault_locked", "The Personal Vault is locked.",
                        hint="Ask the user for the vault passcode and call unlock_vault.")


def hidden_vault(ctx: Ctx, column: str = "path") -> tuple[str, list[object]]:
    """An SQL condition that hides the vault's contents while it is locked ('1' when open)."""
    if vault_open(ctx):
        return "1", []
    return f"NOT (substr({column}, 1, ?) = ?)", [len(prefix(VAULT)), prefix(VAULT)]


# ----- nodes ------------------------------------------------------------------------------------


def lookup(ctx: Ctx, path: str) -> sqlite3.Row | None:
    return ctx.db.execute("SELECT * FROM nodes WHERE path = ? AND trash_id IS NULL", (path,)).fetchone()


def _missing(ctx: Ctx, path: str, raw: str) -> ToolError:
    """A `not_found` error with the most useful hint: a near name, or where the path stops."""
    for above in reversed(ancestors(path)):
        row = lookup(ctx, above)
        if row is None:
            continue
        if row["kind"] == "file":
            return ToolError("not_found", f"Nothing at {quote(raw, 60)}: {above!r} is a file, not a folder.",
                             hint=f"Call list_folder on {split(above)[0]!r} to see what is there.")
        step = path[len(prefix(above)):].split("/", 1)[0]
        sibling = ctx.db.execute(
            "SELECT path FROM nodes WHERE parent_id = ? AND trash_id IS NULL AND lower(name) = lower(?)",
            (row["node_id"], step)).fetchone()
        missing = join(above, step)
        what = "" if missing == path else f": there is no {missing!r}"
        hint = (f"Did you mean {sibling[0]!r}? Names are case-sensitive." if sibling
                else f"Call list_folder on {above!r} or search_by_name to find it.")
        return ToolError("not_found", f"Nothing at {quote(raw, 60)}{what}.", hint=hint)
    return ToolError("not_found", f"Nothing at {quote(raw, 60)}.")


def resolve(ctx: Ctx, raw: str, expect: Kind | None = None) -> sqlite3.Row:
    """The live node at `raw`.

    Raises `invalid_path`, `vault_locked` (inside a locked vault; with `expect='folder'` the
    vault folder itself too, since the caller looks inside) and `not_found`; with
    `expect='file'` also `is_a_directory`, with `expect='folder'` also `not_a_directory`.
    """
    path = normalize(raw)
    guard_vault(ctx, path, contents=expect == "folder")
    row = lookup(ctx, path)
    if row is None:
        raise _missing(ctx, path, raw)
    if expect == "file" and row["kind"] == "folder":
        raise ToolError("is_a_directory", f"{path!r} is a folder, not a file.",
                        hint="Call list_folder to see the files inside it.")
    if expect == "folder" and row["kind"] == "file":
        raise ToolError("not_a_directory", f"{path!r} is a file, not a folder.",
                        hint=f"Use its folder {split(path)[0]!r} instead.")
    return row


def resolve_new(ctx: Ctx, raw: str) -> tuple[str, sqlite3.Row]:
    """A free path for a new item and its parent folder, which must be writable.

    Raises `invalid_path`, `vault_locked`, `not_found` (no parent folder), `not_a_directory`
    (the parent is a file), `already_exists` and `read_only` (the parent is locked).
    """
    path = normalize(raw)
    guard_vault(ctx, path)
    if path == ROOT or lookup(ctx, path) is not None:
        existing = lookup(ctx, path)
        raise ToolError("already_exists", f"A {existing['kind']} already exists at {path!r}.",
                        hint="Choose another name, or change the existing item instead.")
    parent_path, _ = split(path)
    parent = lookup(ctx, parent_path)
    if parent is None:
        raise _missing(ctx, parent_path, parent_path)
    if parent["kind"] != "folder":
        raise ToolError("not_a_directory", f"{parent_path!r} is a file, not a folder.",
                        hint="New items go inside a folder.")
    check_unlocked(ctx, parent_path, "add items to")
    return path, parent


# ----- read-only protection ---------------------------------------------------------------------


def read_only_paths(ctx: Ctx) -> list[str]:
    return [r[0] for r in ctx.db.execute("SELECT path FROM nodes WHERE read_only = 1 AND trash_id IS NULL")]


def locked_by(path: str, protected: Iterable[str]) -> str | None:
    """The read-only item that locks `path` (itself or the nearest folder above), if any."""
    found = [p for p in protected if inside(path, p)]
    return max(found, key=len) if found else None


def check_unlocked(ctx: Ctx, path: str, action: str) -> None:
    """`read_only` if `path` or a folder above it is read-only."""
    by = locked_by(path, read_only_paths(ctx))
    if by is None:
        return
    where = "is read-only" if by == path else f"is inside the read-only folder {by!r}"
    raise ToolError("read_only", f"Cannot {action} {path!r}: it {where}.",
                    hint=f"Call set_read_only on {by!r} with read_only false first, if the user agrees.")


def check_subtree_unlocked(ctx: Ctx, path: str, action: str) -> None:
    """`read_only` if `path` is locked or holds a read-only item."""
    check_unlocked(ctx, path, action)
    inner = [p for p in read_only_paths(ctx) if p.startswith(prefix(path))]
    if inner:
        raise ToolError("read_only", f"Cannot {action} {path!r}: it contains the read-only item {inner[0]!r}.",
                        hint=f"Call set_read_only on {inner[0]!r} with read_only false first, if the user agrees.")


def check_not_protected(path: str, action: str) -> None:
    if path in PROTECTED:
        what = "the root of the drive" if path == ROOT else f"the system folder {path!r}"
        raise ToolError("protected_path", f"Cannot {action} {what}.",
                        hint="Choose an item inside it instead.")


# ----- sizes, text and quota --------------------------------------------------------------------


def human(size: int) -> str:
    """2400000 -> '2.4 MB' (decimal units, as storage plans count)."""
    if size < 1000:
        return f"{size} bytes"
    value = float(size)
    for unit in ("KB", "MB", "GB", "TB"):
        value /= 1000
        if value < 1000 or unit == "TB":
            return f"{value:.1f} {unit}"
    return f"{size} bytes"  # pragma: no cover


def text_size(content: str) -> int:
    return len(content.encode("utf-8"))


def fingerprint(content: str) -> str:
    return hashlib.sha256(content.encode("utf-8")).hexdigest()[:16]


def mime_for(name: str, text: bool) -> str:
    ext = name.rsplit(".", 1)[-1].lower() if "." in name.strip(".") else ""
    return MIME_TYPES.get(ext, "text/plain" if text else "application/octet-stream")


def check_text_size(content: str) -> None:
    if len(content) > MAX_TEXT_CHARS:
        raise ToolError("file_too_large", f"The file would hold {len(content):,} characters; "
                        f"text files hold at most {MAX_TEXT_CHARS:,}.", hint="Split the text over several files.")


def used_bytes(ctx: Ctx) -> int:
    (used,) = ctx.db.execute("SELECT coalesce(sum(size), 0) FROM nodes WHERE kind = 'file'").fetchone()
    return int(used)


def quota(ctx: Ctx) -> int:
    return int(ctx.db.execute("SELECT quota_bytes FROM account").fetchone()[0])


def ensure_space(ctx: Ctx, extra: int) -> None:
    """`quota_exceeded` if `extra` more bytes do not fit in the user's quota."""
    if extra <= 0:
        return
    free = quota(ctx) - used_bytes(ctx)
    if extra > free:
        raise ToolError("quota_exceeded", f"This needs {human(extra)} but only {human(max(free, 0))} of the "
                        f"{human(quota(ctx))} plan is free.",
                        hint="Files in the trash count too: empty_trash or delete_from_trash frees space.")


def require_text(row: sqlite3.Row) -> str:
    """A text file's content, or `binary_file`."""
    if row["content"] is None:
        raise ToolError("binary_file", f"{row['path']!r} is a {row['mime_type']} file, not text.",
                        hint="Only text files (.txt, .md, .csv, code...) can be read or edited as text.")
    return row["content"]


# ----- listings and the log ---------------------------------------------------------------------


def folder_size(ctx: Ctx, path: str) -> int:
    (size,) = ctx.db.execute(
        "SELECT coalesce(sum(size), 0) FROM nodes WHERE trash_id IS NULL AND kind = 'file' AND substr(path, 1, ?) = ?",
        (len(prefix(path)), prefix(path))).fetchone()
    return int(size)


def child_count(ctx: Ctx, node_id: int) -> int:
    return ctx.db.execute("SELECT count(*) FROM nodes WHERE parent_id = ? AND trash_id IS NULL",
                          (node_id,)).fetchone()[0]


def entry(ctx: Ctx, row: sqlite3.Row, protected: list[str]) -> Entry:
    folder = row["kind"] == "folder"
    size = folder_size(ctx, row["path"]) if folder else row["size"]
    return Entry(path=row["path"], name=row["name"] or "/", kind=row["kind"], size=size, size_text=human(size),
                 mime_type=row["mime_type"], modified_at=row["modified_at"],
                 read_only=locked_by(row["path"], protected) is not None,
                 items=child_count(ctx, row["node_id"]) if folder else None)


def entries(ctx: Ctx, rows: Iterable[sqlite3.Row]) -> list[Entry]:
    protected = read_only_paths(ctx)
    return [entry(ctx, r, protected) for r in rows]


def subtree(ctx: Ctx, path: str) -> list[sqlite3.Row]:
    """The live node at `path` and everything inside it, parents before children."""
    return ctx.db.execute(
        "SELECT * FROM nodes WHERE trash_id IS NULL AND (path = ? OR substr(path, 1, ?) = ?) ORDER BY path",
        (path, len(prefix(path)), prefix(path))).fetchall()


def log_activity(ctx: Ctx, action: str, path: str, detail: str | None = None, at: datetime | None = None) -> None:
    ctx.db.execute("INSERT INTO activity (activity_id, at, action, path, detail) VALUES (?, ?, ?, ?, ?)",
                   (ctx.new_id("ACT"), iso(at or ctx.now()), action, path, detail))


def purge(ctx: Ctx, trash_id: str) -> None:
    """Delete a trash item and everything that refers to its nodes, for good."""
    inner = "(SELECT node_id FROM nodes WHERE trash_id = ?)"
    for table in ("versions", "tags", "favorites", "share_links", "archive_members"):
        ctx.db.execute(f"DELETE FROM {table} WHERE node_id IN {inner}", (trash_id,))
    ctx.db.execute("DELETE FROM nodes WHERE trash_id = ?", (trash_id,))
    ctx.db.execute("DELETE FROM trash WHERE trash_id = ?", (trash_id,))


def touch(ctx: Ctx, node_id: int) -> None:
    ctx.db.execute("UPDATE nodes SET modified_at = ? WHERE node_id = ?", (ctx.now_iso(), node_id))


# ----- writing text, new nodes and diffs (shared by edits, versions, trash and archives) ------------


def current_version(ctx: Ctx, node_id: int) -> int:
    (n,) = ctx.db.execute("SELECT count(*) FROM versions WHERE node_id = ?", (node_id,)).fetchone()
    return n + 1


def save_version(ctx: Ctx, row: sqlite3.Row) -> None:
    """Keep the file's current content as its newest earlier version."""
    (last,) = ctx.db.execute("SELECT coalesce(max(version_no), 0) FROM versions WHERE node_id = ?",
                             (row["node_id"],)).fetchone()
    ctx.db.execute("INSERT INTO versions (version_id, node_id, version_no, content, size, modified_at) "
                   "VALUES (?, ?, ?, ?, ?, ?)",
                   (ctx.new_id("VER"), row["node_id"], last + 1, row["content"], row["size"], row["modified_at"]))


def replace_content(ctx: Ctx, row: sqlite3.Row, content: str, action: str = "edited",
                    detail: str | None = None) -> FileWritten:
    """Give a writable text file new content, keeping the old one as a version."""
    check_text_size(content)
    if content == row["content"]:
        return written(ctx, row["node_id"], changed=False)
    size = text_size(content)
    ensure_space(ctx, size - row["size"])
    save_version(ctx, row)
    ctx.db.execute("UPDATE nodes SET content = ?, size = ?, content_hash = ?, modified_at = ? WHERE node_id = ?",
                   (content, size, fingerprint(content), ctx.now_iso(), row["node_id"]))
    log_activity(ctx, action, row["path"], detail)
    return written(ctx, row["node_id"], changed=True)


def written(ctx: Ctx, node_id: int, changed: bool) -> FileWritten:
    row = ctx.db.execute("SELECT * FROM nodes WHERE node_id = ?", (node_id,)).fetchone()
    return FileWritten(path=row["path"], size=row["size"], size_text=human(row["size"]),
                       lines=len(row["content"].splitlines()), version=current_version(ctx, node_id),
                       modified_at=row["modified_at"], changed=changed)


def writable_text(ctx: Ctx, path: str) -> sqlite3.Row:
    """A text file the user may change: invalid_path, vault_locked, not_found, is_a_directory,
    binary_file, read_only."""
    row = resolve(ctx, path, expect="file")
    require_text(row)
    check_unlocked(ctx, row["path"], "change")
    return row


def insert_node(ctx: Ctx, parent_id: int, path: str, kind: str, *, content: str | None = None, size: int = 0,
                digest: str | None = None, mime: str | None = None) -> int:
    """Add a node owned by the user, created now; returns its node_id."""
    (owner,) = ctx.db.execute("SELECT name FROM account").fetchone()
    name = split(path)[1]
    if kind == "file":
        mime = mime or mime_for(name, content is not None)
        digest = digest or fingerprint(content or "")
    created = ctx.now_iso()
    cur = ctx.db.execute(
        "INSERT INTO nodes (parent_id, path, name, kind, content, size, mime_type, content_hash, owner, read_only, "
        "created_at, modified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
        (parent_id, path, name, kind, content, size, mime if kind == "file" else None, digest, owner, created, created))
    return int(cur.lastrowid)


def destination(ctx: Ctx, folder: str, name: str) -> tuple[sqlite3.Row, str]:
    """A folder to put an item called `name` in, and the item's new path there."""
    dest = resolve(ctx, folder, expect="folder")
    target = normalize(join(dest["path"], name))
    existing = lookup(ctx, target)
    if existing is not None:
        raise ToolError("already_exists", f"A {existing['kind']} named {name!r} already exists in {dest['path']!r}.",
                        hint="Rename one of them first, or choose another destination.")
    return dest, target


def unified(old_text: str, new_text: str, old_name: str, new_name: str, context: int) -> FileDiff:
    lines = list(difflib.unified_diff(old_text.splitlines(), new_text.splitlines(), old_name, new_name,
                                      n=context, lineterm=""))
    body = [ln for ln in lines[2:] if not ln.startswith("@@")]
    return FileDiff(old=old_name, new=new_name, identical=not lines,
                    added_lines=sum(1 for ln in body if ln.startswith("+")),
                    removed_lines=sum(1 for ln in body if ln.startswith("-")),
                    diff=lines[:MAX_DIFF_LINES], truncated=len(lines) > MAX_DIFF_LINES)
