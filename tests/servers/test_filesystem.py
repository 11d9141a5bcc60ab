"""Behaviour tests of the filesystem server: its world, its main flows and its failures.

Every test works on a fresh `Session("filesystem", world=0)`. Tests find what they need
through the tools themselves (the trash, the biggest video, a read-only folder), so they
describe behaviour rather than the particular rows of one world. The clock starts at the epoch,
Monday 2026-03-16 09:00.
"""

from __future__ import annotations

import functools


import ast
import os
from pathlib import Path

import pytest

import prove.servers.filesystem
from prove.env import Session, registry

from .helpers import fails, ok, session_fixture
from .helpers import replies_for as shared_replies_for

SERVER = registry.get("filesystem")
PACKAGE = Path(prove.servers.filesystem.__file__).parent


s = session_fixture("filesystem")


def names(s: Session, path: str) -> list[str]:
    return [e["name"] for e in ok(s, "list_folder", {"path": path, "include_hidden": True, "limit": 500})["entries"]]


def read(s: Session, path: str) -> str:
    return ok(s, "read_file", {"path": path, "max_lines": 1000})["content"]


def unlock(s: Session) -> None:
    ok(s, "unlock_vault", {"passcode": ok(s, "get_vault_passcode")["passcode"]})


# ----- the server and its world -------------------------------------------------------------------


def test_server_declares_documented_tools():
    visible = SERVER.visible_tools
    assert len(visible) >= 40
    for tool in visible:
        assert len(tool.asks) >= 2, tool.name
    assert SERVER.tools["get_vault_passcode"].hidden and SERVER.tools["get_vault_passcode"].read_only
    assert SERVER.tools["unlock_vault"].sensitive_params == ("passcode",)
    assert set(SERVER.entities) == {"item", "file", "folder", "trash_item", "version", "share_link"}
    assert "item" in SERVER.tools["list_folder"].produces and "folder" in SERVER.tools["list_folder"].consumes
    assert SERVER.tools["read_file"].consumes == {"file"}


def test_worlds_differ_by_seed_and_stay_small():
    with Session("filesystem", world=0) as a, Session("filesystem", world=1) as c:
        assert names(a, "/Projects") != names(c, "/Projects") or names(a, "/Videos") != names(c, "/Videos")
    assert SERVER.template(0).size < 250_000


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_world_has_a_realistic_size(seed):
    db = SERVER.template(seed).db

    def count(table: str, where: str = "1") -> int:
        return db.execute(f"SELECT count(*) FROM {table} WHERE {where}").fetchone()[0]

    assert count("nodes") >= 280
    assert count("nodes", "kind = 'file' AND content IS NOT NULL") >= 60
    assert count("nodes", "trash_id IS NOT NULL") >= 5 and count("trash") == 5
    assert count("nodes", "read_only = 1") >= 3
    assert count("versions") >= 5 and count("share_links") == 5 and count("activity") >= 60
    top = {r[0] for r in db.execute("SELECT name FROM nodes WHERE parent_id = 1")}
    assert {"Documents", "Downloads", "Photos", "Projects", "Videos", "Personal Vault", "Shared with me"} <= top
    used = db.execute("SELECT sum(size) FROM nodes WHERE kind = 'file'").fetchone()[0]
    assert 0.9 < used / 15e9 < 0.98, "the drive is nearly full, so quota matters"
    assert count("nodes", "modified_at > '2026-03-16T09:00:00' OR created_at > modified_at") == 0


def test_the_common_flows_work_at_the_epoch(s):
    root = names(s, "/")
    assert root[:3] == ["Desktop", "Documents", "Downloads"]
    assert "Budget 2026.csv" in names(s, "/Documents/Finance")
    quota = ok(s, "get_storage_quota")
    assert quota["plan"] == "Standard 15 GB" and 0 < quota["available_bytes"] < 2e9
    assert quota["trash_bytes"] > 0


# ----- paths and host safety -------------------------------------------------------------------------


@pytest.mark.parametrize("raw", ["/Desktop/todo.txt", "Desktop/todo.txt", "~/Desktop/todo.txt",
                                 "//Desktop///todo.txt", "/Desktop/./todo.txt", "/Documents/../Desktop/todo.txt",
                                 "  /Desktop/todo.txt  ", "/Desktop/todo.txt/"])
def test_paths_are_normalised(s, raw):
    assert ok(s, "read_file", {"path": raw})["path"] == "/Desktop/todo.txt"


@pytest.mark.parametrize("raw, code", [
    ("../../etc/passwd", "invalid_path"), ("/../../../etc/shadow", "invalid_path"),
    ("..\\..\\boot.ini", "invalid_path"), ("C:\\Windows\\System32\\drivers\\etc\\hosts", "invalid_path"),
    ("file:///etc/passwd", "invalid_path"), ("/Desktop/todo.txt\x00.png", "invalid_path"),
    ("\x00", "invalid_path"), ("", "invalid_path"), ("   ", "invalid_path"), ("/Desktop/a\nb", "invalid_path"),
    ("/" + "x" * 300, "invalid_path"), ("/" + "/".join(["d"] * 40), "invalid_path"),
    ("/etc/passwd", "not_found"), ("/proc/self/environ", "not_found"), ("/Desktop/link -> /etc/passwd", "invalid_path"),
    ("/Desktop/todo.lnk", "not_found"), ("/Users/me/Desktop/todo.txt", "not_found"),
    ("/home/me/.ssh/id_rsa", "not_found"),
    ("/Desktop/todo.txt/../../../..", "invalid_path"),
])
def test_hostile_paths_end_as_structured_errors(s, raw, code):
    fails(s, "read_file", code, {"path": raw})
    fails(s, "list_folder", code, {"path": raw})


def test_no_tool_touches_the_host_file_system(s, tmp_path):
    sentinel = tmp_path / "sentinel.txt"
    sentinel.write_text("untouched")
    cwd_before = sorted(os.listdir("."))
    tmp_before = sorted(os.listdir(tmp_path))
    host = str(sentinel)

    # An absolute host path names nothing in the drive; writes to it stay virtual.
    fails(s, "read_file", "not_found", {"path": host})
    fails(s, "write_file", "not_found", {"path": host, "content": "pwned"})
    fails(s, "delete_path", "not_found", {"path": host})
    fails(s, "create_file", "not_found", {"path": host, "content": "pwned"})
    made = ok(s, "create_folder", {"path": str(tmp_path / "evil"), "parents": True})
    assert made["path"] == str(tmp_path / "evil")             # a folder of the *drive*, not of the host
    ok(s, "create_file", {"path": str(tmp_path / "evil" / "x.txt"), "content": "virtual"})
    assert read(s, str(tmp_path / "evil" / "x.txt")) == "virtual"
    ok(s, "create_folder", {"path": "/etc", "parents": True})
    ok(s, "create_file", {"path": "/etc/passwd", "content": "root:x:0:0"})
    ok(s, "copy_path", {"path": "/etc", "destination_folder": "/Documents"})
    ok(s, "compress_to_archive", {"paths": ["/etc"], "archive_path": "/Desktop/etc.zip"})
    ok(s, "extract_archive", {"path": "/Desktop/etc.zip", "destination_folder": "/Downloads"})
    for hostile in ("../../etc/passwd", "/../evil", "..", "C:\\evil", "a\x00b", "~/../evil", "x" * 5000):
        for tool, args in (("create_file", {"path": hostile, "content": "x"}),
                           ("create_folder", {"path": hostile, "parents": True}),
                           ("rename_path", {"path": "/Desktop/notes.txt", "new_name": hostile}),
                           ("copy_path", {"path": "/Desktop/notes.txt", "destination_folder": hostile}),
                           ("move_path", {"path": hostile, "destination_folder": "/Documents"})):
            r = s.call(tool, args)
            assert not r.ok and r.code in {"invalid_path", "invalid_name", "not_found", "invalid_arguments"}, (tool, r)
    ok(s, "delete_path", {"path": "/etc", "recursive": True})
    ok(s, "empty_trash")

    assert sentinel.read_text() == "untouched"
    assert sorted(os.listdir(tmp_path)) == tmp_before
    assert sorted(os.listdir(".")) == cwd_before
    if Path("/etc/passwd").exists():
        assert Path("/etc/passwd").read_text() != "root:x:0:0"


def test_tool_modules_do_no_host_io():
    """Static guard: the server's modules import nothing that reaches the host's files, and never
    call open(); pathlib serves only to locate schema.sql next to server.py."""
    banned = {"os", "shutil", "subprocess", "io", "glob", "tempfile", "socket", "urllib", "zipfile", "tarfile"}
    for module in sorted(PACKAGE.glob("*.py")):
        tree = ast.parse(module.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert not {a.name.split(".")[0] for a in node.names} & banned, (module.name, ast.dump(node))
            elif isinstance(node, ast.ImportFrom):
                assert (node.module or "").split(".")[0] not in banned, (module.name, node.module)
                if node.module == "pathlib":
                    assert module.name == "server.py", module.name
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in {"open", "exec", "eval", "__import__"}, (module.name, node.func.id)
            elif isinstance(node, ast.Attribute):
                assert node.attr not in {"write_text", "write_bytes", "unlink", "mkdir", "rmdir", "rename",
                                         "open", "system", "popen"}, (module.name, node.attr)
    assert 'Path(__file__).with_name("schema.sql")' in (PACKAGE / "server.py").read_text()


# ----- reading and searching --------------------------------------------------------------------------


def test_the_tree_of_the_drive_holds_its_folders_not_itself(s):
    tree = ok(s, "get_tree", {"path": "/", "max_depth": 1})
    assert "/" not in [e["path"] for e in tree["entries"]] and all(e["name"] for e in tree["entries"])
    assert tree["total"] == len(tree["entries"])


def test_listing_tree_stat_and_read(s):
    listing = ok(s, "list_folder", {"path": "/Documents/Finance", "sort_by": "size", "descending": True})
    sizes = [e["size"] for e in listing["entries"]]
    assert sizes == sorted(sizes, reverse=True) and listing["total"] == len(listing["entries"])
    folders = [e for e in listing["entries"] if e["kind"] == "folder"]
    assert all(e["items"] >= 1 and e["mime_type"] is None for e in folders)
    tree = ok(s, "get_tree", {"path": "/Documents", "max_depth": 2, "limit": 500})
    assert {e["depth"] for e in tree["entries"]} == {1, 2} and not tree["truncated"]
    info = ok(s, "stat_path", {"path": "/Documents/Finance/Budget 2026.csv"})
    assert info["is_text"] and info["versions"] == 2 and info["favorite"] and "budget" in info["tags"]
    assert info["active_share_links"] == 1 and info["owner"] == ok(s, "stat_path", {"path": "/"})["owner"]
    page = ok(s, "read_file", {"path": "/Documents/Finance/Budget 2025.csv", "start_line": 2, "max_lines": 3})
    assert page["start_line"] == 2 and page["end_line"] == 4 and page["total_lines"] == 13 and page["truncated"]
    assert page["content"].startswith("Jan 2025,")
    stats = ok(s, "get_text_stats", {"path": "/Documents/Finance/Budget 2025.csv"})
    assert stats["lines"] == 13
    assert stats["bytes"] == ok(s, "stat_path", {"path": "/Documents/Finance/Budget 2025.csv"})["size"]
    assert stats["words"] > stats["lines"] and stats["characters"] == stats["bytes"]


def test_reading_the_wrong_kind_of_item_fails(s):
    fails(s, "read_file", "is_a_directory", {"path": "/Documents"})
    fails(s, "read_file", "binary_file", {"path": "/Documents/Home/Lease agreement.pdf"})
    fails(s, "read_file", "invalid_range", {"path": "/Desktop/todo.txt", "start_line": 500})
    fails(s, "list_folder", "not_a_directory", {"path": "/Desktop/todo.txt"})
    err = fails(s, "read_file", "not_found", {"path": "/desktop/todo.txt"})
    assert "/Desktop" in err["hint"]
    err = fails(s, "read_file", "not_found", {"path": "/Desktop/todo.txt/inner"})
    assert "is a file" in err["message"]


def test_search_tools(s):
    budget = ok(s, "search_by_name", {"query": "BUDGET"})["entries"]
    assert {"Budget 2025.csv", "Budget 2026.csv", "budget-2025-export.csv"} <= {e["name"] for e in budget}
    statements = ok(s, "search_by_name", {"query": "Statement 2025-??.pdf", "path": "/Documents"})
    assert statements["total"] == 4
    folders = ok(s, "search_by_name", {"query": "2025", "kind": "folder"})["entries"]
    assert all(e["kind"] == "folder" for e in folders) and folders
    hits = ok(s, "search_content", {"query": "attendees"})
    assert hits["files_matched"] >= 10 and all(m["line"].lower().startswith("attendees") for m in hits["matches"])
    assert ok(s, "search_content", {"query": "ATTENDEES", "case_sensitive": True})["total"] == 0
    pdfs = ok(s, "find_by_extension", {"extension": "*.PDF", "limit": 500})
    assert pdfs["total"] >= 20 and all(e["name"].lower().endswith(".pdf") for e in pdfs["entries"])
    fails(s, "find_by_extension", "invalid_extension", {"extension": "../etc"})
    recent = ok(s, "find_modified", {"since": "2026-03-09", "until": "2026-03-16"})["entries"]
    assert recent and all("2026-03-09" <= e["modified_at"] <= "2026-03-16T23:59:59" for e in recent)
    assert [e["modified_at"] for e in recent] == sorted((e["modified_at"] for e in recent), reverse=True)
    fails(s, "find_modified", "invalid_date", {"since": "2026-03-10", "until": "2026-03-01"})
    fails(s, "find_modified", "invalid_date", {"since": "last tuesday"})
    fails(s, "search_by_name", "not_found", {"query": "x", "path": "/Nowhere"})


def test_duplicates_and_diff(s):
    dupes = ok(s, "find_duplicates")
    groups = {tuple(sorted(g["paths"])) for g in dupes["groups"]}
    assert ("/Documents/Finance/Budget 2025.csv", "/Downloads/budget-2025-export.csv") in groups
    assert dupes["wasted_bytes"] == sum(g["wasted_bytes"] for g in dupes["groups"])
    same = ok(s, "diff_files",
              {"path_a": "/Documents/Finance/Budget 2025.csv", "path_b": "/Downloads/budget-2025-export.csv"})
    assert same["identical"] and same["diff"] == []
    ok(s, "replace_in_file",
       {"path": "/Downloads/budget-2025-export.csv", "find": "Jan 2025", "replace": "January 2025"})
    changed = ok(s, "diff_files", {"path_a": "/Documents/Finance/Budget 2025.csv",
                                   "path_b": "/Downloads/budget-2025-export.csv", "context_lines": 0})
    assert not changed["identical"] and changed["added_lines"] == 1 and changed["removed_lines"] == 1
    assert any(line.startswith("+January 2025,") for line in changed["diff"])
    assert ("/Documents/Finance/Budget 2025.csv", "/Downloads/budget-2025-export.csv") not in {
        tuple(sorted(g["paths"])) for g in ok(s, "find_duplicates")["groups"]}
    fails(s, "diff_files", "binary_file",
          {"path_a": "/Desktop/todo.txt", "path_b": "/Documents/Home/Lease agreement.pdf"})


# ----- writing, versions ----------------------------------------------------------------------------------


def test_create_write_and_restore_a_version(s):
    ok(s, "create_folder", {"path": "/Documents/Notes"})
    made = ok(s, "create_file", {"path": "/Documents/Notes/groceries.txt", "content": "milk\neggs\n"})
    assert made["version"] == 1 and made["size"] == 10
    fails(s, "create_file", "already_exists", {"path": "/Documents/Notes/groceries.txt", "content": "again"})
    written = ok(s, "write_file", {"path": "/Documents/Notes/groceries.txt", "content": "bread\n"})
    assert written["version"] == 2 and written["changed"]
    assert not ok(s, "write_file", {"path": "/Documents/Notes/groceries.txt", "content": "bread\n"})["changed"]
    ok(s, "append_to_file", {"path": "/Documents/Notes/groceries.txt", "content": "butter"})
    assert read(s, "/Documents/Notes/groceries.txt") == "bread\nbutter"
    history = ok(s, "list_versions", {"path": "/Documents/Notes/groceries.txt"})
    assert history["current_version"] == 3 and [v["version_no"] for v in history["versions"]] == [2, 1]
    first = history["versions"][-1]
    assert ok(s, "read_version", {"version_id": first["version_id"]})["content"] == "milk\neggs\n"
    delta = ok(s, "diff_version", {"version_id": first["version_id"]})
    assert delta["added_lines"] == 2 and delta["removed_lines"] == 2
    restored = ok(s, "restore_version", {"version_id": first["version_id"]})
    assert restored["version"] == 4
    assert read(s, "/Documents/Notes/groceries.txt") == "milk\neggs"
    assert ok(s, "list_versions", {"path": "/Documents/Notes/groceries.txt"})["total"] == 3
    actions = [a["action"] for a in ok(s, "list_activity", {"path": "/Documents/Notes", "limit": 10})["activities"]]
    assert actions == ["version_restored", "edited", "edited", "created", "folder_created"]
    changes = s.diff().tables()
    assert changes["filesystem.nodes"]["insert"] == 2 and changes["filesystem.versions"]["insert"] == 3


def test_editing_failures(s):
    fails(s, "create_file", "not_found", {"path": "/Documents/Nope/x.txt", "content": "x"})
    fails(s, "create_file", "not_a_directory", {"path": "/Desktop/todo.txt/x.txt", "content": "x"})
    fails(s, "create_file", "invalid_path", {"path": "/Desktop/bad|name.txt", "content": "x"})
    fails(s, "create_folder", "not_found", {"path": "/A/B/C"})
    assert ok(s, "create_folder", {"path": "/A/B/C", "parents": True})["created"] == ["/A", "/A/B", "/A/B/C"]
    assert ok(s, "create_folder", {"path": "/A/B/C", "parents": True})["created"] == []
    fails(s, "create_folder", "already_exists", {"path": "/A/B/C"})
    fails(s, "create_folder", "already_exists", {"path": "/Desktop/todo.txt", "parents": True})
    fails(s, "write_file", "binary_file", {"path": "/Documents/Home/Lease agreement.pdf", "content": "x"})
    fails(s, "write_file", "is_a_directory", {"path": "/Desktop", "content": "x"})
    fails(s, "write_file", "not_found", {"path": "/Desktop/new.txt", "content": "x"})
    fails(s, "replace_in_file", "text_not_found",
          {"path": "/Desktop/todo.txt", "find": "no such text anywhere", "replace": ""})
    big = "y" * 10_000
    for _ in range(19):
        ok(s, "append_to_file", {"path": "/Desktop/notes.txt", "content": big})
    fails(s, "append_to_file", "file_too_large", {"path": "/Desktop/notes.txt", "content": big})


def test_replace_in_file_first_or_all(s):
    ok(s, "create_file", {"path": "/Desktop/pets.txt", "content": "cat dog cat\ncat\n"})
    one = ok(s, "replace_in_file", {"path": "/Desktop/pets.txt", "find": "cat", "replace": "fox"})
    assert one["replacements"] == 1 and read(s, "/Desktop/pets.txt") == "fox dog cat\ncat"
    every = ok(s, "replace_in_file",
               {"path": "/Desktop/pets.txt", "find": "cat", "replace": "owl", "replace_all": True})
    assert every["replacements"] == 2 and read(s, "/Desktop/pets.txt") == "fox dog owl\nowl"


# ----- moving, renaming, copying ------------------------------------------------------------------------------


def test_move_rename_and_copy(s):
    moved = ok(s, "move_path",
               {"path": "/Downloads/Resume (1).pdf", "destination_folder": "/Documents/Personal/Journal"})
    assert moved["path"] == "/Documents/Personal/Journal/Resume (1).pdf"
    fails(s, "stat_path", "not_found", {"path": "/Downloads/Resume (1).pdf"})
    renamed = ok(s, "rename_path", {"path": "/Documents/Personal/Journal", "new_name": "Diary"})
    assert renamed["items"] >= 2
    assert ok(s, "stat_path", {"path": "/Documents/Personal/Diary/Resume (1).pdf"})["kind"] == "file"
    fails(s, "list_folder", "not_found", {"path": "/Documents/Personal/Journal"})
    copied = ok(s, "copy_path",
                {"path": "/Documents/Recipes", "destination_folder": "/Desktop", "new_name": "Recipes backup"})
    assert copied["items"] == len(names(s, "/Documents/Recipes")) + 1
    assert names(s, "/Desktop/Recipes backup") == names(s, "/Documents/Recipes")
    original = names(s, "/Documents/Recipes")[0]
    assert read(s, f"/Desktop/Recipes backup/{original}") == read(s, f"/Documents/Recipes/{original}")
    ok(s, "write_file", {"path": f"/Desktop/Recipes backup/{original}", "content": "changed\n"})
    assert read(s, f"/Documents/Recipes/{original}") != "changed"
    renamed = ok(s, "rename_path", {"path": "/Desktop/notes.txt", "new_name": "notes.md"})
    assert ok(s, "stat_path", {"path": renamed["path"]})["mime_type"] == "text/markdown"


def test_move_rename_copy_failures(s):
    fails(s, "move_path", "invalid_move", {"path": "/Documents", "destination_folder": "/Documents/Finance"})
    fails(s, "move_path", "invalid_move", {"path": "/Documents", "destination_folder": "/Documents"})
    fails(s, "move_path", "invalid_move", {"path": "/Desktop/todo.txt", "destination_folder": "/Desktop"})
    fails(s, "copy_path", "invalid_move", {"path": "/Documents", "destination_folder": "/Documents/Recipes"})
    fails(s, "move_path", "protected_path", {"path": "/Personal Vault", "destination_folder": "/Documents"})
    fails(s, "rename_path", "protected_path", {"path": "/Shared with me", "new_name": "Shared"})
    fails(s, "move_path", "protected_path", {"path": "/", "destination_folder": "/Documents"})
    fails(s, "move_path", "not_a_directory", {"path": "/Desktop/notes.txt", "destination_folder": "/Desktop/todo.txt"})
    fails(s, "copy_path", "already_exists", {"path": "/Desktop/todo.txt", "destination_folder": "/Desktop"})
    fails(s, "rename_path", "already_exists", {"path": "/Desktop/todo.txt", "new_name": "notes.txt"})
    fails(s, "rename_path", "invalid_name", {"path": "/Desktop/todo.txt", "new_name": "a/b.txt"})
    fails(s, "rename_path", "invalid_name", {"path": "/Desktop/todo.txt", "new_name": ".."})
    fails(s, "rename_path", "invalid_name", {"path": "/Desktop/todo.txt", "new_name": "todo.txt"})
    fails(s, "rename_path", "invalid_name", {"path": "/Desktop/todo.txt", "new_name": "x" * 256})
    fails(s, "move_path", "read_only",
          {"path": "/Documents/Home/Lease agreement.pdf", "destination_folder": "/Desktop"})
    fails(s, "move_path", "read_only",
          {"path": "/Desktop/todo.txt", "destination_folder": "/Documents/Finance/Taxes/2024"})
    fails(s, "rename_path", "read_only", {"path": "/Documents/Finance/Taxes/2024/W-2 2024.pdf", "new_name": "w2.pdf"})
    fails(s, "copy_path", "quota_exceeded", {"path": "/Videos", "destination_folder": "/Documents"})


# ----- trash and quota ------------------------------------------------------------------------------


def test_delete_restore_and_purge(s):
    fails(s, "delete_path", "directory_not_empty", {"path": "/Documents/Recipes"})
    recipe = names(s, "/Documents/Recipes")[0]
    gone = ok(s, "delete_path", {"path": "/Documents/Recipes", "recursive": True})
    assert gone["kind"] == "folder" and gone["items"] >= 6
    fails(s, "list_folder", "not_found", {"path": "/Documents/Recipes"})
    assert ok(s, "search_by_name", {"query": recipe})["total"] == 0, "the trash is not searched"
    trash = ok(s, "list_trash")["items"]
    assert trash[0]["trash_id"] == gone["trash_id"] and trash[0]["original_path"] == "/Documents/Recipes"
    ok(s, "create_folder", {"path": "/Documents/Recipes"})
    fails(s, "restore_from_trash", "already_exists", {"trash_id": gone["trash_id"]})
    back = ok(s, "restore_from_trash", {"trash_id": gone["trash_id"], "destination_folder": "/Desktop"})
    assert back["path"] == "/Desktop/Recipes" and back["items"] == gone["items"]
    assert len(names(s, "/Desktop/Recipes")) == gone["items"] - 1
    fails(s, "restore_from_trash", "not_found", {"trash_id": gone["trash_id"]})
    fails(s, "delete_path", "protected_path", {"path": "/"})
    fails(s, "delete_path", "read_only", {"path": "/Documents/Finance/Taxes", "recursive": True})
    fails(s, "delete_path", "read_only", {"path": "/Documents/Finance/Taxes/2024/W-2 2024.pdf"})


def test_restoring_into_a_missing_folder_needs_a_destination(s):
    ok(s, "create_folder", {"path": "/Tmp/inner", "parents": True})
    ok(s, "create_file", {"path": "/Tmp/inner/a.txt", "content": "a"})
    item = ok(s, "delete_path", {"path": "/Tmp/inner/a.txt"})
    ok(s, "delete_path", {"path": "/Tmp", "recursive": True})
    err = fails(s, "restore_from_trash", "not_found", {"trash_id": item["trash_id"]})
    assert "destination_folder" in err["hint"]
    back = ok(s, "restore_from_trash", {"trash_id": item["trash_id"], "destination_folder": "/Desktop"})
    assert back["path"] == "/Desktop/a.txt" and read(s, "/Desktop/a.txt") == "a"


def test_quota_frees_up_when_the_trash_is_emptied(s):
    videos = ok(s, "list_folder", {"path": "/Videos", "sort_by": "size"})["entries"]
    before = ok(s, "get_storage_quota")
    smallest = videos[0]
    assert smallest["size"] > before["available_bytes"]
    fails(s, "copy_path", "quota_exceeded", {"path": smallest["path"], "destination_folder": "/Desktop"})
    ok(s, "delete_path", {"path": videos[-1]["path"]})
    assert ok(s, "get_storage_quota")["used_bytes"] == before["used_bytes"], "the trash still counts"
    emptied = ok(s, "empty_trash")
    after = ok(s, "get_storage_quota")
    assert after["used_bytes"] == before["used_bytes"] - emptied["freed_bytes"] and after["trash_bytes"] == 0
    ok(s, "copy_path", {"path": smallest["path"], "destination_folder": "/Desktop"})
    fails(s, "empty_trash", "trash_empty")
    assert ok(s, "list_trash")["total"] == 0


def test_delete_one_item_from_the_trash(s):
    item = ok(s, "list_trash")["items"][0]
    purged = ok(s, "delete_from_trash", {"trash_id": item["trash_id"]})
    assert purged["freed_bytes"] == item["size"]
    fails(s, "delete_from_trash", "not_found", {"trash_id": item["trash_id"]})
    assert item["trash_id"] not in {t["trash_id"] for t in ok(s, "list_trash")["items"]}


def test_old_trash_is_purged_when_time_passes(s):
    items = ok(s, "list_trash")["items"]
    due = [t for t in items if t["purge_on"] <= "2026-03-19T09:00:00"]
    assert due, "world 0 holds items deleted almost 30 days ago"
    s.advance(3 * 24 * 3600)
    left = {t["trash_id"] for t in ok(s, "list_trash")["items"]}
    assert left == {t["trash_id"] for t in items} - {t["trash_id"] for t in due}
    purged = ok(s, "list_activity", {"action": "purged"})["activities"]
    assert {a["path"] for a in purged} == {t["original_path"] for t in due}


# ----- protection, vault, sharing -------------------------------------------------------------------


def test_read_only_protection(s):
    ok(s, "set_read_only", {"path": "/Desktop/todo.txt", "read_only": True})
    assert ok(s, "stat_path", {"path": "/Desktop/todo.txt"})["read_only"]
    fails(s, "write_file", "read_only", {"path": "/Desktop/todo.txt", "content": "x"})
    fails(s, "delete_path", "read_only", {"path": "/Desktop/todo.txt"})
    fails(s, "set_read_only", "already_set", {"path": "/Desktop/todo.txt", "read_only": True})
    ok(s, "set_read_only", {"path": "/Desktop/todo.txt", "read_only": False})
    ok(s, "write_file", {"path": "/Desktop/todo.txt", "content": "x\n"})
    info = ok(s, "stat_path", {"path": "/Documents/Finance/Taxes/2024/W-2 2024.pdf"})
    assert info["read_only"] and info["locked_by"] == "/Documents/Finance/Taxes/2024"
    fails(s, "set_read_only", "read_only", {"path": "/Documents/Finance/Taxes/2024/W-2 2024.pdf", "read_only": False})
    fails(s, "create_file", "read_only", {"path": "/Documents/Finance/Taxes/2024/notes.txt", "content": "x"})
    ok(s, "set_read_only", {"path": "/Documents/Finance/Taxes/2024", "read_only": False})
    ok(s, "create_file", {"path": "/Documents/Finance/Taxes/2024/notes.txt", "content": "x"})
    shared = next(e for e in ok(s, "search_by_name", {"query": "Team offsite agenda"})["entries"])
    fails(s, "set_read_only", "not_owner", {"path": shared["path"], "read_only": False})
    fails(s, "write_file", "read_only", {"path": shared["path"], "content": "x"})
    fails(s, "set_read_only", "protected_path", {"path": "/Personal Vault", "read_only": True})


def vault_worlds(n: int = 20) -> tuple[list[int], list[int]]:
    """Worlds 0..n-1 split by the vault's state at the epoch: (locked, unlocked)."""
    locked, unlocked = [], []
    for world in range(n):
        with Session("filesystem", world=world) as w:
            (locked if ok(w, "get_vault_status")["locked"] else unlocked).append(world)
    return locked, unlocked


def test_some_worlds_start_with_the_vault_unlocked():
    locked, unlocked = vault_worlds()
    assert len(unlocked) >= 2 and len(locked) > len(unlocked)
    inside = "/Personal Vault/Recovery codes.txt"
    with Session("filesystem", world=unlocked[0]) as w:
        status = ok(w, "get_vault_status")
        assert "2026-03-16T09:05:00" <= status["unlocked_until"] <= "2026-03-16T09:20:00"
        assert status["items"] >= 6
        assert read(w, inside).startswith("Backup codes")
        assert ok(w, "search_content", {"query": "Backup codes"})["total"] == 1
        assert ok(w, "lock_vault")["locked"]
        fails(w, "read_file", "vault_locked", {"path": inside})
        fails(w, "lock_vault", "already_locked")
    with Session("filesystem", world=unlocked[1]) as w:
        w.advance(20 * 60)
        assert ok(w, "get_vault_status")["locked"]
        fails(w, "read_file", "vault_locked", {"path": inside})
    assert not SERVER.tools["lock_vault"].needs


def test_personal_vault():
    with Session("filesystem", world=vault_worlds(4)[0][0]) as s:
        check_personal_vault(s)


def check_personal_vault(s: Session) -> None:
    inside = "/Personal Vault/Recovery codes.txt"
    fails(s, "read_file", "vault_locked", {"path": inside})
    fails(s, "list_folder", "vault_locked", {"path": "/Personal Vault"})
    fails(s, "move_path", "vault_locked", {"path": "/Desktop/todo.txt", "destination_folder": "/Personal Vault"})
    assert ok(s, "search_content", {"query": "Backup codes"})["total"] == 0
    assert ok(s, "get_vault_status")["locked"]
    fails(s, "unlock_vault", "wrong_passcode", {"passcode": "000000"})
    fails(s, "lock_vault", "already_locked")
    unlock(s)
    status = ok(s, "get_vault_status")
    assert not status["locked"] and status["unlocked_until"] == "2026-03-16T09:20:00" and status["items"] >= 6
    assert read(s, inside).startswith("Backup codes")
    assert ok(s, "search_content", {"query": "Backup codes"})["total"] == 1
    fails(s, "create_share_link", "not_shareable", {"path": inside})
    ok(s, "move_path", {"path": "/Desktop/todo.txt", "destination_folder": "/Personal Vault"})
    s.advance(21 * 60)
    fails(s, "read_file", "vault_locked", {"path": "/Personal Vault/todo.txt"})
    assert ok(s, "get_vault_status")["locked"]
    unlock(s)
    ok(s, "lock_vault")
    fails(s, "read_file", "vault_locked", {"path": inside})


def test_share_links(s):
    link = ok(s, "create_share_link", {"path": "/Documents/Recipes", "access": "view", "expires_in_days": 2})
    assert link["status"] == "active" and link["expires_at"] == "2026-03-18T23:59:59"
    assert link["url"].endswith(link["token"]) and len(link["token"]) == 22
    listed = ok(s, "list_share_links", {"path": "/Documents/Recipes"})["links"]
    assert [lk["link_id"] for lk in listed] == [link["link_id"]]
    s.advance(3 * 24 * 3600)
    assert ok(s, "list_share_links", {"path": "/Documents/Recipes"})["links"][0]["status"] == "expired"
    renewed = ok(s, "update_share_link", {"link_id": link["link_id"], "expires_in_days": 0, "access": "edit"})
    assert renewed["status"] == "active" and renewed["expires_at"] is None and renewed["access"] == "edit"
    fails(s, "update_share_link", "nothing_to_update", {"link_id": link["link_id"]})
    revoked = ok(s, "revoke_share_link", {"link_id": link["link_id"]})
    assert revoked["status"] == "revoked"
    fails(s, "revoke_share_link", "link_revoked", {"link_id": link["link_id"]})
    fails(s, "update_share_link", "link_revoked", {"link_id": link["link_id"], "access": "view"})
    fails(s, "create_share_link", "not_shareable", {"path": "/"})
    shared = next(e for e in ok(s, "search_by_name", {"query": "Design review notes"})["entries"])
    fails(s, "create_share_link", "not_shareable", {"path": shared["path"]})
    statuses = {lk["status"] for lk in ok(s, "list_share_links")["links"]}
    assert {"active", "expired", "revoked"} <= statuses
    trashed = ok(s, "list_share_links", {"status": "active"})["links"][0]
    ok(s, "delete_path", {"path": trashed["path"], "recursive": True})
    assert trashed["link_id"] in {lk["link_id"] for lk in ok(s, "list_share_links", {"status": "in_trash"})["links"]}


# ----- tags, favorites, archives --------------------------------------------------------------------------


def test_tags_and_favorites(s):
    ok(s, "add_tag", {"path": "/Documents/Recipes", "tag": "  Cooking "})
    fails(s, "add_tag", "already_tagged", {"path": "/Documents/Recipes", "tag": "cooking"})
    fails(s, "add_tag", "invalid_tag", {"path": "/Documents/Recipes", "tag": "!!"})
    assert "/Documents/Recipes" in {e["path"] for e in ok(s, "find_by_tag", {"tag": "COOKING"})["entries"]}
    counts = {t["tag"]: t["items"] for t in ok(s, "list_tags")["tags"]}
    assert counts["cooking"] == 1 and counts["taxes"] >= 3
    ok(s, "remove_tag", {"path": "/Documents/Recipes", "tag": "cooking"})
    fails(s, "remove_tag", "not_tagged", {"path": "/Documents/Recipes", "tag": "cooking"})
    for n in range(20 - len(ok(s, "stat_path", {"path": "/Desktop/notes.txt"})["tags"])):
        ok(s, "add_tag", {"path": "/Desktop/notes.txt", "tag": f"t{n}"})
    fails(s, "add_tag", "too_many_tags", {"path": "/Desktop/notes.txt", "tag": "one-more"})
    before = ok(s, "list_favorites")["total"]
    ok(s, "add_favorite", {"path": "/Documents/Recipes"})
    fails(s, "add_favorite", "already_favorite", {"path": "/Documents/Recipes"})
    assert ok(s, "list_favorites")["favorites"][0]["path"] == "/Documents/Recipes"
    ok(s, "remove_favorite", {"path": "/Documents/Recipes"})
    fails(s, "remove_favorite", "not_favorite", {"path": "/Documents/Recipes"})
    assert ok(s, "list_favorites")["total"] == before


def test_archives(s):
    made = ok(s, "compress_to_archive", {"paths": ["/Documents/Recipes", "/Desktop/todo.txt"],
                                         "archive_path": "/Desktop/bundle.zip"})
    assert made["members"] == len(names(s, "/Documents/Recipes")) + 2 and made["size"] < made["original_size"]
    members = ok(s, "list_archive", {"path": "/Desktop/bundle.zip"})
    assert {"Recipes", "todo.txt"} <= {m["member_path"] for m in members["members"]}
    assert ok(s, "stat_path", {"path": "/Desktop/bundle.zip"})["is_archive"]
    ok(s, "write_file", {"path": "/Desktop/todo.txt", "content": "changed later\n"})
    out = ok(s, "extract_archive", {"path": "/Desktop/bundle.zip", "destination_folder": "/Documents"})
    assert out["path"] == "/Documents/bundle" and out["items"] == made["members"] + 1
    assert read(s, "/Documents/bundle/todo.txt") != "changed later", "an archive keeps the content it was made with"
    fails(s, "extract_archive", "already_exists", {"path": "/Desktop/bundle.zip", "destination_folder": "/Documents"})
    fails(s, "list_archive", "not_an_archive", {"path": "/Desktop/todo.txt"})
    fails(s, "compress_to_archive", "invalid_name", {"paths": ["/Desktop/todo.txt"], "archive_path": "/Desktop/x.tar"})
    fails(s, "compress_to_archive", "already_exists", {"paths": ["/Desktop/todo.txt", "/Documents/bundle/todo.txt"],
                                                       "archive_path": "/Desktop/two.zip"})
    fails(s, "compress_to_archive", "protected_path", {"paths": ["/"], "archive_path": "/Desktop/all.zip"})
    fails(s, "compress_to_archive", "quota_exceeded", {"paths": ["/Videos"], "archive_path": "/Desktop/videos.zip"})
    world_zip = ok(s, "find_by_extension", {"extension": "zip", "path": "/Downloads"})["entries"]
    assert len(world_zip) == 2 and all(ok(s, "list_archive", {"path": z["path"]})["total"] > 1 for z in world_zip)


# ----- what synthesized calls draw, and what the assistant says about them ------------------------------

replies_for = functools.partial(shared_replies_for, "filesystem")


def test_a_link_given_only_a_new_expiry_is_not_said_to_change_access():
    expiry = replies_for("update_share_link", {"link_id": "LNK-1", "access": None, "expires_in_days": 7})
    assert expiry and all("expires_at" in r and "access" not in r for r in expiry)
    access = replies_for("update_share_link", {"link_id": "LNK-1", "access": "edit", "expires_in_days": None})
    assert access and all("{access}" in r and "expire" not in r for r in access)
    empty = replies_for("create_file", {"path": "/Desktop/a.txt"})  # content defaults to ""
    assert empty and all("empty" in r for r in empty)


def _subset(tool: str, param: str, session: Session) -> set[str]:
    """The files of the world that a parameter's `where` condition lets synthesized calls draw."""
    import sqlite3

    where = next(p.where for p in SERVER.tools[tool].params if p.name == param)
    found = set()
    for path in ("/Documents", "/Desktop", "/Downloads"):
        for e in ok(session, "get_tree", {"path": path, "max_depth": 8, "limit": 500})["entries"]:
            if e["kind"] == "file":
                found.add(e["path"])
    db = sqlite3.connect(":memory:")  # the condition is plain SQL on the nodes table
    db.execute("CREATE TABLE nodes (path TEXT, kind TEXT, content TEXT)")
    db.executemany("INSERT INTO nodes VALUES (?, 'file', 'x')", [(p,) for p in found])
    return {r[0] for r in db.execute(f"SELECT path FROM nodes WHERE {where}")}


def test_a_diff_compares_two_different_versions_of_one_budget(s):
    old, new = _subset("diff_files", "path_a", s), _subset("diff_files", "path_b", s)
    assert old == {"/Documents/Finance/Budget 2025.csv"}
    assert new == {"/Documents/Finance/Budget 2026.csv", "/Downloads/budget-2025-export.csv"} and not old & new
    for other in new:
        ok(s, "diff_files", {"path_a": next(iter(old)), "path_b": other})


def test_new_names_fit_the_file_they_rename(s):
    for tool in ("rename_path", "copy_path"):
        pairs = SERVER.tools[tool].values["path, new_name"]
        assert {p for p, _ in pairs} == _subset(tool, "path", s)  # every file drawn has a name of its own
        for path, new_name in pairs:
            assert os.path.splitext(new_name)[1] == os.path.splitext(path)[1] and new_name != path.rsplit("/", 1)[1]
    moved = ok(s, "rename_path", {"path": "/Desktop/todo.txt", "new_name": "To do.txt"})
    assert moved["path"] == "/Desktop/To do.txt"


def test_details_say_the_tags_in_words(s):
    ok(s, "create_file", {"path": "/Desktop/fresh.txt", "content": "hello"})
    assert ok(s, "stat_path", {"path": "/Desktop/fresh.txt"})["tags_text"] == "none"
    ok(s, "add_tag", {"path": "/Desktop/fresh.txt", "tag": "keep"})
    ok(s, "add_tag", {"path": "/Desktop/fresh.txt", "tag": "later"})
    info = ok(s, "stat_path", {"path": "/Desktop/fresh.txt"})
    assert info["tags"] == ["keep", "later"] and info["tags_text"] == "keep, later"


def test_phrasings_fit_files_as_well_as_folders():
    # recursive=True is drawn for files too: its phrasing must not speak of contents.
    bound = [a.text for a in SERVER.tools["delete_path"].asks if a.binds.get("recursive")]
    assert bound and not any("content" in t or "inside" in t for t in bound)
    # A version is named by its ID alone: no 'the file' that would point at another one.
    for tool in ("restore_version", "diff_version"):
        assert not any("the file" in a.text for a in SERVER.tools[tool].asks), tool


def test_tree_and_archive_sizes_read_with_units(s):
    tree = ok(s, "get_tree", {"path": "/Music"})["entries"]
    folder = next(e for e in tree if e["kind"] == "folder")
    held = ok(s, "stat_path", {"path": folder["path"]})
    assert folder["size"] == 0 and folder["size_text"] == held["size_text"] != "0 bytes"
    files = [e for e in ok(s, "get_tree", {"path": "/Documents"})["entries"] if e["kind"] == "file"]
    assert files and all(e["size_text"] for e in files)
    members = ok(s, "list_archive", {"path": "/Downloads/tax-docs-2024.zip"})["members"]
    assert all(bool(m["size_text"]) == (m["kind"] == "file") for m in members)


def test_disk_usage_names_the_largest_items_and_the_root_is_never_drawn(s):
    data = ok(s, "get_disk_usage")
    assert data["place"] == "your drive"
    first = data["children"][0]
    assert data["largest"].startswith(f"{first['path'].rsplit('/', 1)[-1]} ({first['size_text']})")
    assert ok(s, "get_disk_usage", {"path": "/Documents"})["place"] == "the Documents folder"
    for kind in ("item", "folder"):
        assert "path != '/'" in SERVER.entities[kind].live


def test_a_link_is_made_view_only_or_editable_only_while_it_works() -> None:
    """"Make the share link to the Itinerary.md file view-only." on an expired link was answered "people
    with it can view the item now": a phrasing that changes only the access fits a link that still works
    (one that renews it may take an expired one)."""
    from prove.env import EPOCH
    from prove.env.world import clock_params
    from prove.servers.filesystem.server import SHARE_LINK

    tool = SERVER.tools["update_share_link"]
    access_only = [a for a in tool.asks if "access" in a.binds and "expires_in_days" not in a.slots]
    assert access_only
    db, params = SERVER.template(0).db, clock_params(EPOCH)
    expired = db.execute("SELECT count(*) FROM share_links WHERE revoked_at IS NULL AND expires_at < :now", params)
    assert expired.fetchone()[0] > 0  # the world has a link this could wrongly pick
    for ask in access_only:
        where = f"({SHARE_LINK.live}) AND ({ask.fits.get('link_id', '1')})"
        links = db.execute(f"SELECT expires_at FROM share_links WHERE {where}", params).fetchall()
        assert links and all(e is None or e >= params["now"] for (e,) in links), (ask, links)
