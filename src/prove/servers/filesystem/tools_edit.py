"""Filesystem tools: creating and changing items (folders, files, edits, move, rename, copy, read-only)."""

from __future__ import annotations

import sqlite3
from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints

from prove.env import WRITE, Ask, Ctx, ToolError, Toolset
from prove.env.values import quote

from .server import (
    ROOT,
    FileWritten,
    FolderPath,
    GeneralFolderPath,
    ItemPath,
    NotePath,
    OwnFilePath,
    RenameablePath,
    Text,
    TextFilePath,
    bad_name,
    check_fits,
    check_not_protected,
    check_unlocked,
    destination,
    ensure_space,
    guard_vault,
    human,
    insert_node,
    inside,
    log_activity,
    lookup,
    mime_for,
    normalize,
    replace_content,
    resolve,
    resolve_new,
    split,
    subtree,
    text_size,
    writable_text,
    written,
)

tools = Toolset("edit")

Name = Annotated[str, StringConstraints(min_length=1, max_length=300)]
Snippet = Annotated[str, StringConstraints(min_length=1, max_length=10_000)]

# ----- models -----------------------------------------------------------------------------------


class FolderCreated(BaseModel):
    path: FolderPath
    created: list[FolderPath] = Field(
        description="the folders this call created, outermost first (empty if it existed)")


class Edit(BaseModel):
    file: FileWritten
    replacements: int


class Relocated(BaseModel):
    """An item after a move, rename or copy."""

    old_path: str | None = Field(description="where the item was (for a move or rename)")
    source: ItemPath | None = Field(description="what was copied (for a copy)")
    path: ItemPath = Field(description="where the item is now")
    name: str = Field(description="the item's name now, the last part of its path")
    kind: str
    items: int = Field(description="how many files and folders this moved or created (1 for a file)")
    size: int
    size_text: str


class Protection(BaseModel):
    path: ItemPath
    read_only: bool
    affected_items: int = Field(description="the item and everything inside it")


# ----- helpers -----------------------------------------------------------------------------------


def _repath(ctx: Ctx, row: sqlite3.Row, target: str) -> list[sqlite3.Row]:
    """Give the item and everything inside it paths under `target`; returns the items as they were."""
    items = subtree(ctx, row["path"])
    check_fits((r["path"] for r in items), row["path"], target)
    ctx.db.execute("UPDATE nodes SET path = ? || substr(path, ?) WHERE trash_id IS NULL "
                   "AND (path = ? OR substr(path, 1, ?) = ?)",
                   (target, len(row["path"]) + 1, row["path"], len(row["path"]) + 1, row["path"] + "/"))
    return items


def _files_size(items: list[sqlite3.Row]) -> int:
    return sum(r["size"] for r in items if r["kind"] == "file")


def _relocated(row: sqlite3.Row, target: str, items: list[sqlite3.Row], *, copied: bool = False) -> Relocated:
    """What a move or rename (or, `copied`, a copy) of the item at `row` to `target` did."""
    size = _files_size(items)
    return Relocated(old_path=None if copied else row["path"], source=row["path"] if copied else None, path=target,
                     name=target.rsplit("/", 1)[-1], kind=row["kind"], items=len(items), size=size,
                     size_text=human(size))


def check_name(name: str) -> str:
    why = bad_name(name.strip())
    if why:
        raise ToolError("invalid_name", f"{quote(name, 60)} cannot be used: {why}.",
                        hint="Use a plain name such as 'Budget 2026.csv', without / \\ : * ? \" < > |.")
    return name.strip()


# ----- tools ------------------------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    "Make a new folder at {path}.",
    Ask("Create the folder {path}, along with any missing folders above it.", parents=True),
    "I need an empty folder {path}.",
], reply=[
    "Created the folder {result.path}.",
    "Done: {path} is ready.",
], values={
    "path": ["/Documents/Receipts 2026", "/Documents/Taxes 2026", "/Photos/Passport scans", "/Desktop/To sort",
             "/Documents/Contracts", "/Downloads/Installers", "/Documents/Car", "/Music/New albums"],
})
def create_folder(ctx: Ctx, path: str, parents: bool = False) -> FolderCreated:
    """Create a folder.

    Args:
        path: the new folder's path, such as '/Documents/Travel/Kyoto 2026'.
        parents: also create missing folders above it, and succeed if the folder already exists
            (like `mkdir -p`).

    Returns:
        The folder's path and the folders this call created.

    Raises:
        invalid_path: the path is malformed or has a forbidden character.
        vault_locked: the path is inside the Personal Vault and the vault is locked.
        not_found: the folder above it does not exist and `parents` is false.
        not_a_directory: a folder on the way is a file.
        already_exists: an item already exists at that path (a folder is fine with `parents`).
        read_only: the folder it would go in is read-only.
    """
    target = normalize(path)
    guard_vault(ctx, target)
    if not parents:
        target, parent = resolve_new(ctx, target)
        insert_node(ctx, parent["node_id"], target, "folder")
        log_activity(ctx, "folder_created", target)
        return FolderCreated(path=target, created=[target])
    chain = [*_above(target), target]
    created: list[str] = []
    parent_id = None
    for step in chain:
        row = lookup(ctx, step)
        if row is not None:
            if row["kind"] == "file" and step == target:
                raise ToolError("already_exists", f"A file already exists at {target!r}.",
                                hint="Choose another name for the folder.")
            if row["kind"] == "file":
                raise ToolError("not_a_directory", f"{step!r} is a file, so {target!r} cannot be a folder.",
                                hint="Choose a path whose folders are all folders.")
            parent_id = row["node_id"]
            continue
        check_unlocked(ctx, split(step)[0], "add items to")
        parent_id = insert_node(ctx, parent_id, step, "folder")
        created.append(step)
    if created:
        log_activity(ctx, "folder_created", target)
    return FolderCreated(path=target, created=created)


def _above(path: str) -> list[str]:
    parts = path.strip("/").split("/") if path != ROOT else []
    return [ROOT] + ["/" + "/".join(parts[:i]) for i in range(1, len(parts))]


@tools.tool(effect=WRITE, asks=[
    "Create a file {path} that says: {content}",
    "Make a new empty text file at {path}.",
    "Start a note at {path} with this text: {content}",
], reply=[
    Ask("Created {path}; it's empty for now.", content=""),
    Ask("Done: {path} is there, an empty file.", content=""),
    "Created {path} ({result.size_text}).",
    "Done: {path} is saved with {result.lines} lines.",
], values={
    # a note's text fits its name
    "path, content": [
        ("/Documents/Shopping list.txt", "Buy milk, eggs and coffee."),
        ("/Documents/Shopping list.txt", "- Bread\n- Tomatoes\n- Olive oil"),
        ("/Desktop/ideas.txt", "# Ideas\n- Weekend trip\n- New bookshelf"),
        ("/Documents/Notes.txt", "Call the dentist on Monday."),
        ("/Documents/Notes.txt", "Wi-Fi guest network: ask at the desk."),
        ("/Documents/Packing list.md", "- Passport\n- Chargers\n- Rain jacket"),
        ("/Documents/Reading list.md", "Books to read: The Overstory, Piranesi, Project Hail Mary."),
        ("/Desktop/todo.md", "- Renew the car insurance\n- Book the dentist"),
    ],
})
def create_file(ctx: Ctx, path: str, content: Text = "") -> FileWritten:
    """Create a new text file (it fails if something already exists there; use write_file to replace).

    Args:
        path: the new file's path, such as '/Documents/Personal/groceries.txt'.
        content: the file's text, such as 'milk\\neggs\\n'; empty for an empty file.

    Returns:
        The new file's path, size, line count and version (1).

    Raises:
        invalid_path: the path is malformed or has a forbidden character.
        vault_locked: the path is inside the Personal Vault and the vault is locked.
        not_found: the folder it would go in does not exist.
        not_a_directory: the folder it would go in is a file.
        already_exists: a file or folder already exists at that path.
        read_only: the folder it would go in is read-only.
        quota_exceeded: the text does not fit in the remaining storage.
    """
    target, parent = resolve_new(ctx, path)
    ensure_space(ctx, text_size(content))
    node_id = insert_node(ctx, parent["node_id"], target, "file", content=content, size=text_size(content))
    log_activity(ctx, "created", target)
    return written(ctx, node_id, changed=True)


@tools.tool(effect=WRITE, asks=[
    "Replace everything in {path} with: {content}",
    "Overwrite {path} with this text: {content}",
], reply=[
    "Saved the new text to {path}; the old content is kept as an earlier version.",
    "Done: {path} now holds {result.lines} lines ({result.size_text}).",
], values={
    # the synthesized calls overwrite the to-do list or the desk notes (see NotePath)
    "content": ["# To do\n- Pay rent\n- Renew car insurance", "Meeting moved to Thursday at 10:00.",
                "- Call the plumber\n- Return the library books", "Nothing to do this week.",
                "Dentist on Monday at 9:00; bring the insurance card."],
})
def write_file(ctx: Ctx, path: NotePath, content: Text) -> FileWritten:
    """Replace the whole content of an existing text file; the old content is kept as a version.

    Args:
        path: the file, such as '/Desktop/todo.txt'.
        content: the new text of the whole file, such as '[ ] Call the dentist\\n'.

    Returns:
        The file's path, new size and line count, its version number, and whether it changed.

    Raises:
        invalid_path: the path is malformed.
        vault_locked: the file is in the Personal Vault and the vault is locked.
        not_found: no file exists at that path (use create_file for a new one).
        is_a_directory: the path names a folder.
        binary_file: the file is not text (a photo, PDF, video...).
        read_only: the file or a folder above it is read-only.
        quota_exceeded: the new text does not fit in the remaining storage.
    """
    return replace_content(ctx, writable_text(ctx, path), content)


@tools.tool(effect=WRITE, asks=[
    "Add this line to the end of {path}: {content}",
    "Append '{content}' to {path}.",
], reply=[
    "Added the line to the end of {path}.",
    "Done: {path} now has {result.lines} lines.",
], values={
    # a line for the to-do list or the desk notes (see NotePath)
    "content": ["- Follow up with the landlord", "Renew passport before June.", "2026-03-16: paid the electricity bill",
                "Remember to back up the photos.", "- Call Mom on Sunday"],
})
def append_to_file(ctx: Ctx, path: NotePath, content: Snippet) -> FileWritten:
    """Add text at the end of a text file; a line break is added first if the file does not end with one.

    Args:
        path: the file, such as '/Desktop/todo.txt'.
        content: the text to add, such as '[ ] Renew the car insurance'.

    Returns:
        The file's path, new size and line count, and its version number.

    Raises:
        invalid_path: the path is malformed.
        vault_locked: the file is in the Personal Vault and the vault is locked.
        not_found: no file exists at that path.
        is_a_directory: the path names a folder.
        binary_file: the file is not text.
        read_only: the file or a folder above it is read-only.
        quota_exceeded: the text does not fit in the remaining storage.
        file_too_large: the file would grow past 200,000 characters.
    """
    row = writable_text(ctx, path)
    text = row["content"]
    joined = text + ("" if not text or text.endswith("\n") else "\n") + content
    if not joined.endswith("\n"):
        joined += "\n"
    return replace_content(ctx, row, joined)


@tools.tool(effect=WRITE, asks=[
    "In {path}, change '{find}' to '{replace}'.",
    Ask("Change every '{find}' to '{replace}' in {path}.", replace_all=True),
    "Fix {path}: '{find}' should read '{replace}'.",
], reply=[
    "Made {result.replacements} replacements in {path}.",
    "Done: '{find}' now reads '{replace}' in {path}.",
])
def replace_in_file(ctx: Ctx, path: TextFilePath, find: Snippet, replace: Text, replace_all: bool = False) -> Edit:
    """Replace some text in a text file (the first occurrence, or all of them).

    Args:
        path: the file, such as '/Documents/Personal/Resume.md'.
        find: the exact text to look for (case-sensitive), such as 'Boston'.
        replace: the text to put instead, such as 'Denver'; empty to delete it.
        replace_all: replace every occurrence instead of only the first.

    Returns:
        The file after the edit and how many replacements were made.

    Raises:
        invalid_path: the path is malformed.
        vault_locked: the file is in the Personal Vault and the vault is locked.
        not_found: no file exists at that path.
        is_a_directory: the path names a folder.
        binary_file: the file is not text.
        read_only: the file or a folder above it is read-only.
        text_not_found: `find` does not occur in the file.
        quota_exceeded: the new text does not fit in the remaining storage.
        file_too_large: the file would grow past 200,000 characters.
    """
    row = writable_text(ctx, path)
    text = row["content"]
    count = text.count(find)
    if count == 0:
        raise ToolError("text_not_found", f"{quote(find, 60)} does not occur in {row['path']!r}.",
                        hint="The match is exact and case-sensitive; check the text with read_file or search_content.")
    done = count if replace_all else 1
    written = replace_content(ctx, row, text.replace(find, replace, -1 if replace_all else 1))
    return Edit(file=written, replacements=done)


@tools.tool(effect=WRITE, asks=[
    "Move {path} into {destination_folder}.",
    "Put {path} in {destination_folder}.",
    "{path} belongs in {destination_folder}; move it there.",
], reply=[
    "Moved {path} to {destination_folder}.",
    "Done: {path} went into {destination_folder}.",
])
def move_path(ctx: Ctx, path: OwnFilePath, destination_folder: GeneralFolderPath) -> Relocated:
    """Move a file or folder (with everything inside) into another folder, keeping its name.

    Args:
        path: the file or folder to move, such as '/Downloads/Resume (1).pdf'.
        destination_folder: the folder to move it into, such as '/Documents/Personal'.

    Returns:
        The old and new paths and how many items moved.

    Raises:
        invalid_path: a path is malformed.
        vault_locked: either path is in the Personal Vault and the vault is locked.
        not_found: the item or the destination folder does not exist.
        not_a_directory: the destination is a file.
        protected_path: the item is the root or a system folder ('/Personal Vault', '/Shared with me').
        invalid_move: the destination is the item itself, inside it, or already its folder.
        already_exists: the destination already holds an item of that name.
        read_only: the item, its folder or the destination is read-only.
    """
    row = resolve(ctx, path)
    check_not_protected(row["path"], "move")
    dest = resolve(ctx, destination_folder, expect="folder")
    if inside(dest["path"], row["path"]):
        raise ToolError("invalid_move", f"Cannot move {row['path']!r} into itself or a folder inside it.",
                        hint="Choose a destination outside the folder.")
    if dest["node_id"] == row["parent_id"]:
        raise ToolError("invalid_move", f"{row['path']!r} is already in {dest['path']!r}.",
                        hint="Use rename_path to change its name.")
    dest, target = destination(ctx, dest["path"], row["name"])
    check_unlocked(ctx, row["path"], "move")
    check_unlocked(ctx, dest["path"], "move items into")
    items = _repath(ctx, row, target)
    ctx.db.execute("UPDATE nodes SET parent_id = ? WHERE node_id = ?", (dest["node_id"], row["node_id"]))
    log_activity(ctx, "moved", target, f"from {row['path']}")
    return _relocated(row, target, items)


@tools.tool(effect=WRITE, asks=[
    "Rename {path} to '{new_name}'.",
    "Change the name of {path} to '{new_name}', please.",
    "Call {path} '{new_name}' from now on.",
], reply=[
    "Renamed {path} to '{new_name}'.",  # not "Renamed it" after another thing's report
    "Done: {path} is now called '{new_name}'.",
], values={
    # a new name that fits the file: same kind of file, a name a person would pick
    "path, new_name": [
    ("/Desktop/todo.txt", "To do.txt"), ("/Desktop/todo.txt", "todo-march.txt"),
    ("/Desktop/notes.txt", "Desk notes.txt"), ("/Desktop/notes.txt", "notes-old.txt"),
    ("/Documents/Finance/Budget 2025.csv", "Budget 2025 (final).csv"),
    ("/Documents/Finance/Net worth.csv", "Net worth 2026.csv"),
    ("/Documents/Personal/Resume.md", "Resume 2026.md"), ("/Documents/Personal/Resume.pdf", "Resume 2026.pdf"),
    ("/Documents/Personal/Goals 2026.md", "2026 goals.md"),
    ("/Documents/Health/Medications.txt", "Medication list.txt"),
    ("/Documents/Home/Moving checklist.md", "Move-out checklist.md"),
    ("/Documents/Home/Home inventory.csv", "Home inventory 2026.csv"),
    ("/Downloads/budget-2025-export.csv", "Budget 2025 export.csv"),
    ("/Downloads/tax-docs-2024.zip", "Tax documents 2024.zip"),
],
})
def rename_path(ctx: Ctx, path: RenameablePath, new_name: Name) -> Relocated:
    """Rename a file or folder where it is.

    Args:
        path: the file or folder to rename, such as '/Desktop/notes.txt'.
        new_name: the new name only (not a path), such as 'meeting notes.txt'.

    Returns:
        The old and new paths.

    Raises:
        invalid_path: the path is malformed.
        vault_locked: the item is in the Personal Vault and the vault is locked.
        not_found: nothing exists at that path.
        protected_path: the item is the root or a system folder.
        invalid_name: the new name is empty, has '/' or a forbidden character, or is the current name.
        already_exists: the folder already holds an item with the new name.
        read_only: the item or its folder is read-only.
    """
    row = resolve(ctx, path)
    check_not_protected(row["path"], "rename")
    name = check_name(new_name)
    if name == row["name"]:
        raise ToolError("invalid_name", f"{row['path']!r} is already called {name!r}.", hint="Give a different name.")
    parent_path = split(row["path"])[0]
    dest, target = destination(ctx, parent_path, name)
    check_unlocked(ctx, row["path"], "rename")
    items = _repath(ctx, row, target)
    mime = mime_for(name, row["content"] is not None) if row["kind"] == "file" else None
    ctx.db.execute("UPDATE nodes SET name = ?, mime_type = ? WHERE node_id = ?", (name, mime, row["node_id"]))
    log_activity(ctx, "renamed", target, f"was {row['name']}")
    return _relocated(row, target, items)


@tools.tool(effect=WRITE, asks=[
    "Make a copy of {path} in {destination_folder}.",
    "Copy {path} to {destination_folder} and call it '{new_name}'.",
], reply=[
    Ask("Copied {path} to {destination_folder}.", new_name=None),
    Ask("Done: {path} is copied to {destination_folder}.", new_name=None),
    "Copied {path} to {destination_folder}; the copy is called '{new_name}'.",
    "Done: {path} is copied to {destination_folder} as '{new_name}'.",
], values={
    "path, new_name": [
    ("/Desktop/todo.txt", "todo backup.txt"), ("/Desktop/notes.txt", "notes copy.txt"),
    ("/Documents/Finance/Budget 2025.csv", "Budget 2025 backup.csv"),
    ("/Documents/Finance/Net worth.csv", "Net worth backup.csv"),
    ("/Documents/Personal/Resume.md", "Resume draft.md"), ("/Documents/Personal/Resume.pdf", "Resume to send.pdf"),
    ("/Documents/Personal/Goals 2026.md", "Goals 2026 copy.md"),
    ("/Documents/Health/Medications.txt", "Medications copy.txt"),
    ("/Documents/Home/Moving checklist.md", "Moving checklist copy.md"),
    ("/Documents/Home/Home inventory.csv", "Home inventory backup.csv"),
    ("/Downloads/budget-2025-export.csv", "budget export copy.csv"),
    ("/Downloads/tax-docs-2024.zip", "tax-docs-2024 backup.zip"),
],
})
def copy_path(ctx: Ctx, path: RenameablePath, destination_folder: GeneralFolderPath,
              new_name: Name | None = None) -> Relocated:
    """Copy a file or folder (with everything inside) into a folder, optionally under a new name.

    Copies belong to the user and are not read-only; versions, tags and share links are not copied.

    Args:
        path: the file or folder to copy, such as '/Documents/Recipes'.
        destination_folder: the folder to put the copy in, such as '/Documents/Personal'.
        new_name: a name for the copy, such as 'Budget 2026 backup.csv'; default the original name.

    Returns:
        The source, the copy's path, how many items were created and their total size.

    Raises:
        invalid_path: a path is malformed.
        vault_locked: either path is in the Personal Vault and the vault is locked.
        not_found: the item or the destination folder does not exist.
        not_a_directory: the destination is a file.
        invalid_name: `new_name` is empty or has '/' or a forbidden character.
        invalid_move: the destination is inside the folder being copied.
        already_exists: the destination already holds an item of that name.
        read_only: the destination folder is read-only.
        quota_exceeded: the copy does not fit in the remaining storage.
    """
    row = resolve(ctx, path)
    name = check_name(new_name) if new_name is not None else row["name"]
    dest = resolve(ctx, destination_folder, expect="folder")
    if row["kind"] == "folder" and inside(dest["path"], row["path"]):
        raise ToolError("invalid_move", f"Cannot copy {row['path']!r} into itself or a folder inside it.",
                        hint="Choose a destination outside the folder.")
    dest, target = destination(ctx, dest["path"], name)
    check_unlocked(ctx, dest["path"], "copy items into")
    items = subtree(ctx, row["path"])
    ensure_space(ctx, _files_size(items))
    ids = {row["parent_id"]: dest["node_id"]}
    base = len(row["path"])
    for r in items:
        new_path = target + r["path"][base:]
        normalize(new_path)  # a copy deep enough to pass the path limits is refused
        ids[r["node_id"]] = insert_node(ctx, ids[r["parent_id"]], new_path, r["kind"], content=r["content"],
                                        size=r["size"], digest=r["content_hash"], mime=r["mime_type"])
        ctx.db.execute("INSERT INTO archive_members (node_id, member_path, kind, content, size, content_hash, "
                       "modified_at) SELECT ?, member_path, kind, content, size, content_hash, modified_at "
                       "FROM archive_members WHERE node_id = ?", (ids[r["node_id"]], r["node_id"]))
    log_activity(ctx, "copied", target, f"from {row['path']}")
    return _relocated(row, target, items, copied=True)


@tools.tool(effect=WRITE, asks=[
    Ask("Make {path} read-only so nobody changes it by accident.", read_only=True),
    Ask("Unlock {path} so I can edit it again.", read_only=False),
    Ask("Protect {path} against changes.", read_only=True),
    Ask("{path} no longer needs to be read-only.", read_only=False),
], reply=[
    Ask("{path} is read-only now; nobody can change it by accident.", read_only=True),
    Ask("Done: {path} is protected from changes now.", read_only=True),
    Ask("{path} can be changed again.", read_only=False),
    Ask("Done: {path} is no longer read-only.", read_only=False),
])
def set_read_only(ctx: Ctx, path: ItemPath, read_only: bool) -> Protection:
    """Protect an item from changes (read-only) or remove that protection.

    A read-only file cannot be edited, renamed, moved or deleted; a read-only folder protects
    everything inside it the same way and nothing can be added to it.

    Args:
        path: the file or folder, such as '/Documents/Finance/Taxes/2025'.
        read_only: true to protect it, false to make it writable again.

    Returns:
        The item, its new protection and how many items it covers.

    Raises:
        invalid_path: the path is malformed.
        vault_locked: the item is in the Personal Vault and the vault is locked.
        not_found: nothing exists at that path.
        protected_path: the item is the root or a system folder.
        not_owner: someone else owns the item (it was shared with the user).
        already_set: the item already has that protection.
        read_only: (when unprotecting) a folder above the item is read-only, so it stays protected.
    """
    row = resolve(ctx, path)
    check_not_protected(row["path"], "change the protection of")
    (me,) = ctx.db.execute("SELECT name FROM account").fetchone()
    if row["owner"] != me:
        raise ToolError("not_owner", f"{row['path']!r} belongs to {row['owner']}; only they can change its protection.",
                        hint="Make a copy with copy_path to get an editable version.")
    if not read_only:
        check_unlocked(ctx, split(row["path"])[0], "unprotect items in")
    if bool(row["read_only"]) == read_only:
        state = "read-only" if read_only else "not read-only"
        raise ToolError("already_set", f"{row['path']!r} is already {state}.", hint="Nothing to change.")
    ctx.db.execute("UPDATE nodes SET read_only = ? WHERE node_id = ?", (int(read_only), row["node_id"]))
    log_activity(ctx, "protected" if read_only else "unprotected", row["path"])
    return Protection(path=row["path"], read_only=read_only, affected_items=len(subtree(ctx, row["path"])))

