"""Filesystem tools: finding files (by name, content, extension, date, duplicates) and diffing two."""

from __future__ import annotations

import re
from datetime import datetime, time
from fnmatch import fnmatchcase
from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints

from prove.env import READ, Ask, Ctx, ToolError, Toolset
from prove.env.values import iso, parse_date, parse_time

from .server import (
    EntryList,
    FileDiff,
    FilePath,
    FolderPath,
    NewBudgetPath,
    OldBudgetPath,
    Kind,
    Limit,
    entries,
    entry_list,
    hidden_vault,
    human,
    listed,
    prefix,
    require_text,
    resolve,
    unified,
)

tools = Toolset("search")

Query = Annotated[str, StringConstraints(min_length=1, max_length=200)]

# ----- models -----------------------------------------------------------------------------------


class ContentMatch(BaseModel):
    path: FilePath
    line_number: int
    line: str = Field(description="the matching line, cut to 200 characters")


class ContentMatches(BaseModel):
    matches: list[ContentMatch]
    total: int = Field(description="how many lines matched, before `limit`")
    files_matched: int
    matches_text: str = Field("", description="each matching line with its file, such as \"checklist.md in the 2025 "
                                              "folder, line 6: '- [ ] Charitable receipts'\"")


class DuplicateGroup(BaseModel):
    content_hash: str
    size: int
    size_text: str
    paths: list[FilePath]
    wasted_bytes: int = Field(description="what deleting all but one copy would free")


class DuplicateList(BaseModel):
    groups: list[DuplicateGroup] = Field(description="largest waste first")
    total: int
    wasted_bytes: int
    wasted_text: str
    said: str = Field(description="the groups as people say them: '2 sets of identical files', or "
                                  "'no files with the same content'")


# ----- helpers ----------------------------------------------------------------------------------


def _scope(ctx: Ctx, path: str) -> tuple[str, list[object]]:
    """SQL selecting live nodes strictly inside folder `path`, hiding a locked vault."""
    folder = resolve(ctx, path, expect="folder")
    hide, params = hidden_vault(ctx)
    base = prefix(folder["path"])
    return f"trash_id IS NULL AND substr(path, 1, ?) = ? AND {hide}", [len(base), base, *params]


def _moment(value: str, name: str, end: bool) -> datetime:
    """A bare date ('2026-03-01', its first or, with `end`, its last second) or a local date-time."""
    if len(value.strip()) == 10:
        return datetime.combine(parse_date(value, name), time(23, 59, 59) if end else time(0, 0))
    return parse_time(value, name, code="invalid_date")


# ----- tools ------------------------------------------------------------------------------------


@tools.tool(effect=READ, asks=[
    "Find files with '{query}' in the name.",
    "Search {path} for anything called '{query}'.",
    Ask("Is there a folder named '{query}' somewhere?", kind="folder"),
], reply=["I found {result.entries_text}."])
def search_by_name(ctx: Ctx, query: Query, path: FolderPath = "/", kind: Kind | None = None,
                   limit: Limit = 50) -> EntryList:
    """Find files and folders whose name contains some text or matches a wildcard pattern.

    Matching ignores case. With * or ? the query is a pattern for the whole name ('IMG_*.jpg',
    'Statement 2025-??.pdf'); otherwise any name containing the text matches. The trash and a
    locked Personal Vault are not searched.

    Args:
        query: text or pattern to find in names, such as 'budget' or '*.pdf'.
        path: the folder to search in, at any depth, such as '/Documents'; '/' searches everything.
        kind: only 'file' or only 'folder'.
        limit: how many items to return at most, such as 50.

    Returns:
        The matching items ordered by path, and how many matched.

    Raises:
        invalid_path: `path` is malformed.
        vault_locked: `path` is the Personal Vault or inside it, and the vault is locked.
        not_found: no folder exists at `path`.
        not_a_directory: `path` names a file.
    """
    scope, params = _scope(ctx, path)
    if kind is not None:
        scope += " AND kind = ?"
        params.append(kind)
    rows = ctx.db.execute(f"SELECT * FROM nodes WHERE {scope} ORDER BY path", params).fetchall()
    needle = query.strip().casefold() or query.casefold()
    if "*" in needle or "?" in needle:
        hits = [r for r in rows if fnmatchcase(r["name"].casefold(), needle)]
    else:
        hits = [r for r in rows if needle in r["name"].casefold()]
    return entry_list(ctx, entries(ctx, hits[:limit]), len(hits))


@tools.tool(effect=READ, asks=[
    "Which of my files mention '{query}'?",
    "Search inside the files in {path} for '{query}'.",
    Ask("Find files containing exactly '{query}', with that capitalization.", case_sensitive=True),
], reply=[
    "'{query}' turns up on {result.total} lines in {result.files_matched} files: {result.matches_text}.",
])
def search_content(ctx: Ctx, query: Query, path: FolderPath = "/", case_sensitive: bool = False,
                   limit: Limit = 20) -> ContentMatches:
    """Find lines of text files that contain some text, like grep.

    Only text files are searched (not photos, PDFs or videos); the trash and a locked Personal
    Vault are skipped.

    Args:
        query: the text to find, such as 'passport' or 'TODO'.
        path: the folder to search in, at any depth, such as '/Documents'; '/' searches everything.
        case_sensitive: match upper and lower case exactly.
        limit: how many matching lines to return at most, such as 20.

    Returns:
        The matching lines (file, line number, line), how many lines matched and in how many files.

    Raises:
        invalid_path: `path` is malformed.
        vault_locked: `path` is the Personal Vault or inside it, and the vault is locked.
        not_found: no folder exists at `path`.
        not_a_directory: `path` names a file.
    """
    scope, params = _scope(ctx, path)
    rows = ctx.db.execute(f"SELECT path, content FROM nodes WHERE {scope} AND content IS NOT NULL ORDER BY path",
                          params).fetchall()
    needle = query if case_sensitive else query.casefold()
    matches: list[ContentMatch] = []
    files = 0
    for r in rows:
        found = False
        for n, line in enumerate(r["content"].splitlines(), 1):
            if needle in (line if case_sensitive else line.casefold()):
                found = True
                matches.append(ContentMatch(path=r["path"], line_number=n, line=line[:200]))
        files += found
    said = [f"{m.path.rsplit('/', 1)[-1]}" + (f" in the {m.path.rsplit('/', 2)[-2]} folder" if m.path.count("/") > 1
                                              else "") + f", line {m.line_number}: '{m.line.strip()}'"
            for m in matches[:limit]]
    return ContentMatches(matches=matches[:limit], total=len(matches), files_matched=files,
                          matches_text=listed(said, 5) if said else "none")


@tools.tool(effect=READ, asks=[
    "Find all my .{extension} files.",
    "List every .{extension} file in {path}.",
], reply=["I found {result.entries_text}."])
def find_by_extension(ctx: Ctx, extension: Annotated[str, StringConstraints(min_length=1, max_length=20)],
                      path: FolderPath = "/", limit: Limit = 50) -> EntryList:
    """Find files of one type by their extension, such as every PDF or every photo.

    Args:
        extension: the extension, with or without the dot, such as 'pdf', '.jpg' or '*.md' (any case).
        path: the folder to search in, at any depth, such as '/Photos'; '/' searches everything.
        limit: how many files to return at most, such as 50.

    Returns:
        The matching files ordered by path, and how many matched.

    Raises:
        invalid_extension: the extension is empty or has characters other than letters, digits, '-' and '_'.
        invalid_path: `path` is malformed.
        vault_locked: `path` is the Personal Vault or inside it, and the vault is locked.
        not_found: no folder exists at `path`.
        not_a_directory: `path` names a file.
    """
    ext = extension.strip().lstrip("*").lstrip(".").lower()
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,15}", ext):
        raise ToolError("invalid_extension", f"{extension[:30]!r} is not a file extension.",
                        hint="Give the part after the dot, such as 'pdf' or 'jpg'.")
    scope, params = _scope(ctx, path)
    rows = ctx.db.execute(f"SELECT * FROM nodes WHERE {scope} AND kind = 'file' ORDER BY path", params).fetchall()
    hits = [r for r in rows if r["name"].lower().endswith("." + ext)]
    return entry_list(ctx, entries(ctx, hits[:limit]), len(hits))


@tools.tool(effect=READ, asks=[
    "What files did I change between {since} and {until}?",
    "Show me the files in {path} modified since {since}.",
    Ask("Which folders changed since {since}?", kind="folder"),
], reply=["I found {result.entries_text}."])
def find_modified(ctx: Ctx, since: str, until: str | None = None, path: FolderPath = "/",
                  kind: Kind | None = "file", limit: Limit = 50) -> EntryList:
    """Find items last modified within a period, newest first.

    Args:
        since: the start, a date such as '2026-03-01' (from its midnight) or a time such as '2026-03-10T12:00:00'.
        until: the end, a date such as '2026-03-15' (to the end of that day) or a time; default now.
        path: the folder to search in, at any depth, such as '/Documents'; '/' searches everything.
        kind: 'file' (the default) or 'folder'; leave empty for both.
        limit: how many items to return at most, such as 50.

    Returns:
        The items modified in the period, newest first, and how many matched.

    Raises:
        invalid_date: a date is malformed, outside 2000-2099, or `until` is before `since`.
        invalid_path: `path` is malformed.
        vault_locked: `path` is the Personal Vault or inside it, and the vault is locked.
        not_found: no folder exists at `path`.
        not_a_directory: `path` names a file.
    """
    start = _moment(since, "since", end=False)
    end = _moment(until, "until", end=True) if until is not None else ctx.now()
    if end < start:
        raise ToolError("invalid_date", f"The end {iso(end)} is before the start {iso(start)}.",
                        hint="Give `since` before `until`.")
    scope, params = _scope(ctx, path)
    if kind is not None:
        scope += " AND kind = ?"
        params.append(kind)
    rows = ctx.db.execute(f"SELECT * FROM nodes WHERE {scope} AND modified_at >= ? AND modified_at <= ? "
                          "ORDER BY modified_at DESC, path", [*params, iso(start), iso(end)]).fetchall()
    return entry_list(ctx, entries(ctx, rows[:limit]), len(rows))


@tools.tool(effect=READ, asks=[
    "Do I have duplicate files wasting space?",
    "Find files with identical content in {path}.",
    # (a size in words a person uses: "larger than 1 MB", never "2000000 bytes")
    Ask("Which duplicate files larger than 1 MB do I have?", min_size=1_000_000),
    Ask("Any duplicates over 5 MB taking up space?", min_size=5_000_000),
], reply=[
    "I found {result.said}; the extra copies take up {result.wasted_text}.",
])
def find_duplicates(ctx: Ctx, path: FolderPath = "/", min_size: Annotated[int, Field(ge=0)] = 0,
                    limit: Limit = 50) -> DuplicateList:
    """Find groups of files with exactly the same content, wherever they are.

    Args:
        path: the folder to search in, at any depth, such as '/Downloads'; '/' searches everything.
        min_size: ignore files smaller than this many bytes, such as 1000000 for 1 MB.
        limit: how many groups to return at most, such as 20.

    Returns:
        The groups (content fingerprint, size, the paths holding it, bytes wasted), largest
        waste first, how many groups there are and the bytes wasted in all.

    Raises:
        invalid_path: `path` is malformed.
        vault_locked: `path` is the Personal Vault or inside it, and the vault is locked.
        not_found: no folder exists at `path`.
        not_a_directory: `path` names a file.
    """
    scope, params = _scope(ctx, path)
    rows = ctx.db.execute(f"SELECT path, size, content_hash FROM nodes WHERE {scope} AND kind = 'file' AND size >= ? "
                          "ORDER BY path", [*params, min_size]).fetchall()
    groups: dict[tuple[str, int], list[str]] = {}
    for r in rows:
        groups.setdefault((r["content_hash"], r["size"]), []).append(r["path"])
    found = [DuplicateGroup(content_hash=h, size=s, size_text=human(s), paths=p, wasted_bytes=s * (len(p) - 1))
             for (h, s), p in groups.items() if len(p) > 1]
    found.sort(key=lambda g: (-g.wasted_bytes, g.paths[0]))
    wasted = sum(g.wasted_bytes for g in found)
    said = f"{len(found)} set{'' if len(found) == 1 else 's'} of identical files" if found else \
        "no files with the same content"
    return DuplicateList(groups=found[:limit], total=len(found), wasted_bytes=wasted, wasted_text=human(wasted),
                         said=said)


@tools.tool(effect=READ, asks=[
    "What's the difference between {path_a} and {path_b}?",
    "Compare {path_a} with {path_b} line by line.",
], reply=[
    "Going from {path_a} to {path_b}: {result.added_lines} lines added and {result.removed_lines} removed.",
    Ask("{path_a} and {path_b} are the same, line for line.", **{"result.identical": True}),
])
def diff_files(ctx: Ctx, path_a: OldBudgetPath, path_b: NewBudgetPath,
               context_lines: Annotated[int, Field(ge=0, le=20)] = 3) -> FileDiff:
    """Compare two text files line by line and show a unified diff.

    Args:
        path_a: the first (old) file, such as '/Documents/Finance/Budget 2025.csv'.
        path_b: the second (new) file, such as '/Downloads/budget-2025-export.csv'.
        context_lines: unchanged lines to show around each change, 0 to 20, such as 3.

    Returns:
        Whether the files are identical, how many lines were added and removed, and the
        unified diff (at most 400 lines).

    Raises:
        invalid_path: a path is malformed.
        vault_locked: a file is in the Personal Vault and the vault is locked.
        not_found: a file does not exist.
        is_a_directory: a path names a folder.
        binary_file: a file is not text.
    """
    a = resolve(ctx, path_a, expect="file")
    b = resolve(ctx, path_b, expect="file")
    return unified(require_text(a), require_text(b), a["path"], b["path"], context_lines)

