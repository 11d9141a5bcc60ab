"""Filesystem tools: earlier versions of text files (list, read, compare, restore)."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ctx, ToolError, Toolset
from prove.env.values import spoken_day

from .server import (
    FileDiff,
    FilePath,
    FileWritten,
    TextFilePath,
    VersionId,
    current_version,
    guard_vault,
    human,
    listed,
    replace_content,
    require_text,
    resolve,
    unified,
    writable_text,
)

tools = Toolset("versions")

# ----- models -----------------------------------------------------------------------------------


class Version(BaseModel):
    version_id: VersionId
    version_no: int = Field(description="1 is the oldest kept version")
    size: int
    size_text: str
    modified_at: str = Field(description="when this content was written")
    first_line: str = Field(description="the content's first line, cut to 80 characters")


class VersionList(BaseModel):
    path: FilePath
    current_version: int = Field(description="the number of the file's current content")
    modified_at: str = Field(description="when the current content was written")
    versions: list[Version] = Field(description="earlier versions, newest first")
    total: int
    history_text: str = Field(description="the current version and the earlier ones in words, newest first, such as "
                                          "\"version 3, written March 9 at 4:58 PM; 1 earlier version is kept: version "
                                          "2 from March 7 at 11:27 AM (91 bytes), starting 'call Kenji back'\"")


class VersionContent(BaseModel):
    version_id: VersionId
    path: FilePath
    version_no: int
    content: str
    size: int
    modified_at: str


# ----- helpers ----------------------------------------------------------------------------------


def _version(ctx: Ctx, version_id: str) -> tuple[sqlite3.Row, sqlite3.Row]:
    """A version and its live file: `not_found` or `vault_locked`."""
    row = ctx.get("version", version_id)
    node = ctx.db.execute("SELECT * FROM nodes WHERE node_id = ?", (row["node_id"],)).fetchone()
    if node["trash_id"] is not None:
        raise ToolError("not_found", f"The file of version {version_id} ({node['path']!r}) is in the trash.",
                        hint="Restore it with restore_from_trash first.")
    guard_vault(ctx, node["path"])
    return row, node


# ----- tools ------------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "What earlier versions of {path} are there?",
    "Show me the version history of {path}.",
], reply=[
    "{path} is on {result.history_text}.",
])
def list_versions(ctx: Ctx, path: TextFilePath) -> VersionList:
    """List the earlier versions kept of a text file (one is kept each time it is changed).

    Args:
        path: the text file, such as '/Documents/Finance/Budget 2026.csv'.

    Returns:
        The file's current version number and time, and its earlier versions (ID, number, size,
        time, first line), newest first.

    Raises:
        invalid_path: the path is malformed.
        vault_locked: the file is in the Personal Vault and the vault is locked.
        not_found: no file exists at that path.
        is_a_directory: the path names a folder.
        binary_file: the file is not text (versions are kept for text files only).
    """
    node = resolve(ctx, path, expect="file")
    require_text(node)
    rows = ctx.db.execute("SELECT * FROM versions WHERE node_id = ? ORDER BY version_no DESC",
                          (node["node_id"],)).fetchall()
    versions = [Version(version_id=r["version_id"], version_no=r["version_no"], size=r["size"],
                        size_text=human(r["size"]), modified_at=r["modified_at"],
                        first_line=(r["content"].splitlines() or [""])[0][:80])
                for r in rows]
    today = ctx.today()

    def when(at_text: str) -> str:
        at = datetime.fromisoformat(at_text)
        return f"{spoken_day(at.date(), today)} at {at.hour % 12 or 12}:{at.minute:02d} {'AM' if at.hour < 12 else 'PM'}"

    def one(v: Version) -> str:
        start = v.first_line if len(v.first_line) <= 40 else v.first_line[:40].rsplit(" ", 1)[0].rstrip(",;:") + "…"
        return f"version {v.version_no} from {when(v.modified_at)} ({v.size_text})" + (
            f", starting '{start}'" if start.strip() else ", empty")
    number = current_version(ctx, node["node_id"])
    history = f"version {number}, written {when(node['modified_at'])}; " + (
        "no earlier version is kept" if not versions else
        f"{len(versions)} earlier version{' is' if len(versions) == 1 else 's are'} kept: "
        + listed([one(v) for v in versions], 5))
    return VersionList(path=node["path"], current_version=number, modified_at=node["modified_at"], versions=versions,
                       total=len(versions), history_text=history)


@tools.tool(effect=READ, asks=[
    "Show me what {version_id} said.",
    "Open {version_id}.",
], reply=[
    "{version_id} said:\n\n{result.content}",
])
def read_version(ctx: Ctx, version_id: VersionId) -> VersionContent:
    """Read the full text of an earlier version of a file.

    Args:
        version_id: ID of the version, from list_versions, such as 'VER-10001'.

    Returns:
        The version's file, number, text, size and time.

    Raises:
        not_found: no version has that ID, or its file is in the trash.
        vault_locked: the file is in the Personal Vault and the vault is locked.
    """
    row, node = _version(ctx, version_id)
    return VersionContent(version_id=row["version_id"], path=node["path"], version_no=row["version_no"],
                          content=row["content"], size=row["size"], modified_at=row["modified_at"])


@tools.tool(effect=READ, asks=[
    "What has changed since {version_id}?",
    "Compare {version_id} with the text as it is now.",
], reply=[
    "Since {version_id}, {result.added_lines} lines were added and {result.removed_lines} removed.",
])
def diff_version(ctx: Ctx, version_id: VersionId,
                 context_lines: Annotated[int, Field(ge=0, le=20)] = 3) -> FileDiff:
    """Compare an earlier version with the file's current content, as a unified diff.

    Args:
        version_id: ID of the earlier version, such as 'VER-10001'.
        context_lines: unchanged lines to show around each change, 0 to 20, such as 3.

    Returns:
        Whether they are identical, lines added and removed since the version, and the diff.

    Raises:
        not_found: no version has that ID, or its file is in the trash.
        vault_locked: the file is in the Personal Vault and the vault is locked.
    """
    row, node = _version(ctx, version_id)
    return unified(row["content"], node["content"], f"{node['path']} (version {row['version_no']})",
                   f"{node['path']} (current)", context_lines)


@tools.tool(effect=WRITE, asks=[
    "Make {version_id} the current text again.",
    "Bring back {version_id}; I want that text again.",
], reply=[
    "Restored {version_id}; the file holds that text again, and what it replaced is kept as a version.",
    "Done: I brought back {version_id}.",
])
def restore_version(ctx: Ctx, version_id: VersionId) -> FileWritten:
    """Make an earlier version the file's current content; the content it replaces is kept as a version.

    Args:
        version_id: ID of the version to bring back, such as 'VER-10002'.

    Returns:
        The file with its new size, line count and version number.

    Raises:
        not_found: no version has that ID, or its file is in the trash.
        vault_locked: the file is in the Personal Vault and the vault is locked.
        read_only: the file or a folder above it is read-only.
        quota_exceeded: the restored text does not fit in the remaining storage.
    """
    row, node = _version(ctx, version_id)
    writable_text(ctx, node["path"])
    return replace_content(ctx, node, row["content"], "version_restored", f"version {row['version_no']}")
