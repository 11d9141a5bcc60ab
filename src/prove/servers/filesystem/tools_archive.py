"""Filesystem tools: zip archives (compress items into one, list its members, extract it).

An archive is a file node whose members are recorded in `archive_members` (copies of the
items' contents at the time it was made). Its size is what the members would compress to:
about 35% of text and 97% of already-compressed files (photos, PDFs, videos).
"""

from __future__ import annotations

import hashlib
from typing import Annotated

from pydantic import BaseModel, Field

from prove.env import READ, WRITE, Ctx, ToolError, Toolset

from .server import (
    ROOT,
    ArchivePath,
    FilePath,
    FolderPath,
    ITEM,
    GeneralFolderPath,
    Limit,
    check_unlocked,
    destination,
    ensure_space,
    folder_of,
    human,
    listed,
    insert_node,
    log_activity,
    lookup,
    normalize,
    resolve,
    resolve_new,
    split,
    subtree,
)

tools = Toolset("archive")

# What synthesized calls zip: the user's own files and folders below the top level (not a whole
# 'Music' or 'Desktop', nor the vault or what others shared).
ZipSources = Annotated[list[ITEM.where("path LIKE '/%/%' AND path NOT LIKE '/Shared with me/%' "
                                       "AND path NOT LIKE '/Personal Vault/%'")], Field(min_length=1, max_length=20)]

# ----- models -----------------------------------------------------------------------------------


class ArchiveCreated(BaseModel):
    path: FilePath
    members: int = Field(description="files and folders inside the archive")
    original_size: int
    size: int = Field(description="the archive's own (compressed) size")
    size_text: str


class Member(BaseModel):
    member_path: str = Field(description="the path inside the archive, such as '2024/W-2 2024.pdf'")
    kind: str
    size: int
    size_text: str = Field("", description="a file's size as people say it, such as '400.6 KB'; empty for folders")
    modified_at: str


class ArchiveListing(BaseModel):
    path: FilePath
    members: list[Member]
    total: int
    uncompressed_size: int
    uncompressed_text: str
    contents_text: str = Field(description="what the archive holds in words, a folder with the files in it, such as "
                                           "\"the folder '2025-03 Garden' with 11 files (IMG_2332.jpg, IMG_2340.jpg "
                                           "and 9 more) and notes.txt (2.1 KB)\"")


class Extracted(BaseModel):
    path: FolderPath = Field(description="the new folder holding the archive's contents")
    items: int = Field(description="files and folders created, the new folder included")
    size: int
    size_text: str
    folder_text: str = Field("", description="the new folder in words, such as \"a new folder '2025-11 Road trip' "
                                             "in the Downloads folder\"")


# ----- helpers ----------------------------------------------------------------------------------


def _archive(ctx: Ctx, path: str) -> tuple[dict, list]:
    row = resolve(ctx, path, expect="file")
    members = ctx.db.execute("SELECT * FROM archive_members WHERE node_id = ? ORDER BY member_path",
                             (row["node_id"],)).fetchall()
    if not members:
        raise ToolError("not_an_archive", f"{row['path']!r} is not a zip archive.",
                        hint="Use find_by_extension with 'zip' to find archives.")
    return row, members


# ----- tools ------------------------------------------------------------------------------------


@tools.tool(effect=WRITE, asks=[
    "Zip up {paths} into {archive_path}.",
    "Compress {paths} into an archive at {archive_path}.",
], reply=[
    "Zipped {result.members} items into {archive_path} ({result.size_text}).",
    "Done: {archive_path} holds {paths}.",
], values={
    # names that suit whatever goes in (a 'Tax documents.zip' would have to hold tax documents)
    "archive_path": ["/Documents/Archive.zip", "/Desktop/Backup.zip", "/Downloads/Bundle.zip",
                     "/Documents/Backup 2026-03.zip", "/Desktop/To send.zip"],
})
def compress_to_archive(ctx: Ctx, paths: ZipSources, archive_path: str) -> ArchiveCreated:
    """Compress files and folders into a new .zip archive (the originals stay where they are).

    Args:
        paths: the files and folders to put in it, 1 to 20, such as ['/Documents/Finance/Taxes/2025'].
        archive_path: the new archive's path, ending in .zip, such as '/Documents/Finance/taxes-2025.zip'.

    Returns:
        The archive's path, how many members it holds, their total size and the archive's size.

    Raises:
        invalid_path: a path is malformed.
        vault_locked: a path is in the Personal Vault and the vault is locked.
        not_found: an item, or the folder the archive would go in, does not exist.
        protected_path: one of `paths` is the root of the drive.
        invalid_name: `archive_path` does not end in '.zip'.
        already_exists: two items have the same name, or something exists at `archive_path`.
        not_a_directory: the folder the archive would go in is a file.
        read_only: the folder the archive would go in is read-only.
        quota_exceeded: the archive does not fit in the remaining storage.
    """
    sources = []
    for raw in paths:
        row = resolve(ctx, raw)
        if row["path"] == ROOT:
            raise ToolError("protected_path", "The whole drive cannot be put in an archive.",
                            hint="List the folders to include instead.")
        sources.append(row)
    kept = [s for s in sources if not any(o["path"] != s["path"] and s["path"].startswith(o["path"] + "/")
                                          for o in sources)]
    kept = list({s["path"]: s for s in kept}.values())
    names = [s["name"] for s in kept]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ToolError("already_exists", f"Two items are named {twice[0]!r}; an archive holds one item per name.",
                        hint="Rename one of them, or archive them separately.")
    target = normalize(archive_path)
    if not target.lower().endswith(".zip") or len(split(target)[1]) <= 4:
        raise ToolError("invalid_name", f"{target!r} must end in '.zip', such as 'photos.zip'.")
    target, parent = resolve_new(ctx, target)
    members = []
    for s in kept:
        base = len(split(s["path"])[0].rstrip("/")) + 1
        members += [(r["path"][base:], r) for r in subtree(ctx, s["path"])]
    text = sum(r["size"] for _, r in members if r["kind"] == "file" and r["content"] is not None)
    binary = sum(r["size"] for _, r in members if r["kind"] == "file" and r["content"] is None)
    size = max(22, int(text * 0.35 + binary * 0.97))
    ensure_space(ctx, size)
    digest = hashlib.sha256("\n".join(f"{p}:{r['content_hash']}" for p, r in members).encode()).hexdigest()[:16]
    node_id = insert_node(ctx, parent["node_id"], target, "file", size=size, digest=digest, mime="application/zip")
    ctx.db.executemany(
        "INSERT INTO archive_members (node_id, member_path, kind, content, size, content_hash, modified_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(node_id, p, r["kind"], r["content"], r["size"] if r["kind"] == "file" else 0, r["content_hash"],
          r["modified_at"]) for p, r in members])
    log_activity(ctx, "archived", target, f"{len(members)} items from {', '.join(s['path'] for s in kept)}"[:300])
    return ArchiveCreated(path=target, members=len(members), original_size=text + binary, size=size,
                          size_text=human(size))


@tools.tool(effect=READ, asks=[
    "What's inside {path}?",
    "List the contents of {path}.",
], reply=[
    "{path} holds {result.contents_text}, {result.uncompressed_text} unzipped.",
])
def list_archive(ctx: Ctx, path: ArchivePath, limit: Limit = 200) -> ArchiveListing:
    """List the files and folders inside a .zip archive without extracting it.

    Args:
        path: the archive, such as '/Downloads/tax-docs-2024.zip'.
        limit: how many members to return at most, such as 100.

    Returns:
        The members (path inside the archive, kind, size, modification time), how many there
        are and their total uncompressed size.

    Raises:
        invalid_path: the path is malformed.
        vault_locked: the archive is in the Personal Vault and the vault is locked.
        not_found: no file exists at that path.
        is_a_directory: the path names a folder.
        not_an_archive: the file is not a zip archive.
    """
    row, members = _archive(ctx, path)
    size = sum(m["size"] for m in members)
    shown = [Member(member_path=m["member_path"], kind=m["kind"], size=m["size"],
                    size_text=human(m["size"]) if m["kind"] == "file" else "", modified_at=m["modified_at"])
             for m in members[:limit]]
    return ArchiveListing(path=row["path"], members=shown, total=len(members), uncompressed_size=size,
                          uncompressed_text=human(size), contents_text=_contents_text(members))


def _contents_text(members: list) -> str:  # noqa: ANN001 - archive_members rows
    """\"the folder '2025-03 Garden' with 11 files (IMG_2332.jpg, IMG_2340.jpg, ... and 7 more) and notes.txt
    (2.1 KB)\": each top-level folder with the files at any depth in it, said by name, and each file at the
    top with its size."""
    folders: dict[str, list[str]] = {}
    top: list[str] = []
    for m in members:
        head, _, rest = m["member_path"].partition("/")
        if rest or m["kind"] == "folder":
            files = folders.setdefault(head, [])
            if rest and m["kind"] == "file":
                files.append(rest.rsplit("/", 1)[-1])
        else:
            top.append(f"{head} ({human(m['size'])})")
    said = [f"the folder '{name}' with {len(files)} file{'' if len(files) == 1 else 's'} ({listed(files)})"
            if files else f"the empty folder '{name}'" for name, files in folders.items()]
    return listed(said + top, 6) if said or top else "nothing"


@tools.tool(effect=WRITE, asks=[
    "Unzip {path}.",
    "Extract {path} into {destination_folder}.",
], reply=[
    "Extracted {result.items} items into {result.folder_text}.",
    "Done: the contents of {path} are in {result.folder_text}.",
])
def extract_archive(ctx: Ctx, path: ArchivePath, destination_folder: GeneralFolderPath | None = None) -> Extracted:
    """Extract a .zip archive into a new folder named after it (the archive itself stays).

    Args:
        path: the archive, such as '/Downloads/tax-docs-2024.zip'.
        destination_folder: where to create the new folder, such as '/Documents'; default the
            archive's own folder.

    Returns:
        The new folder, how many items were created and their total size.

    Raises:
        invalid_path: a path is malformed, or an extracted path would be too long.
        vault_locked: a path is in the Personal Vault and the vault is locked.
        not_found: the archive or the destination folder does not exist.
        is_a_directory: `path` names a folder.
        not_a_directory: the destination is a file.
        not_an_archive: the file is not a zip archive.
        already_exists: the destination already holds an item named after the archive.
        read_only: the destination folder is read-only.
        quota_exceeded: the extracted files do not fit in the remaining storage.
    """
    row, members = _archive(ctx, path)
    folder = destination_folder if destination_folder is not None else split(row["path"])[0]
    stem = row["name"][:-4] if row["name"].lower().endswith(".zip") and len(row["name"]) > 4 else row["name"] + " files"
    dest, target = destination(ctx, folder, stem)
    check_unlocked(ctx, dest["path"], "extract into")
    size = sum(m["size"] for m in members if m["kind"] == "file")
    ensure_space(ctx, size)
    ids = {target: insert_node(ctx, dest["node_id"], target, "folder")}
    created = 1
    for m in members:
        path_here = normalize(target + "/" + m["member_path"])
        parts = m["member_path"].split("/")
        for i in range(1, len(parts)):  # folders a member sits in, if the archive does not list them
            above = target + "/" + "/".join(parts[:i])
            if above not in ids:
                existing = lookup(ctx, above)
                ids[above] = (existing["node_id"] if existing
                              else insert_node(ctx, ids[split(above)[0]], above, "folder"))
                created += existing is None
        if path_here in ids:
            continue
        ids[path_here] = insert_node(ctx, ids[split(path_here)[0]], path_here, m["kind"], content=m["content"],
                                     size=m["size"], digest=m["content_hash"])
        created += 1
    log_activity(ctx, "extracted", target, f"from {row['path']}")
    return Extracted(path=target, items=created, size=size, size_text=human(size),
                     folder_text=f"a new folder '{split(target)[1]}' in {folder_of(target)}")
