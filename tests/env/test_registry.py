"""The registry: built-in servers and third-party ones through the `prove.servers` entry points."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from prove.env import Registry, Session, ToolDefinitionError, UnknownServerError, registry

from .toy import make_server


def test_builtin_servers_are_registered() -> None:
    assert {"banking", "calendar"} <= set(registry.names())


def test_register_and_unknown_server() -> None:
    reg = Registry()
    server = reg.register(make_server())
    assert reg.get("toy") is server and "toy" in reg
    with pytest.raises(ToolDefinitionError, match="already registered"):
        reg.register(make_server())
    reg.register(make_server(), replace=True)
    with pytest.raises(UnknownServerError, match="no server named 'nope'"):
        reg.get("nope")
    reg.unregister("toy")
    assert "toy" not in reg


def _install_plugin(root: Path, name: str, body: str) -> None:
    pkg = root / f"{name}_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(textwrap.dedent(body))
    dist = root / f"{name}_pkg-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}-pkg\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(f"[prove.servers]\n{name} = {name}_pkg:server\n")


def test_third_party_server_through_entry_point(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _install_plugin(tmp_path, "plugin", '''
        from prove.env import READ, Ctx, Server

        server = Server("plugin", "Plugin", "A third-party server.",
                        schema="CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT);",
                        world=lambda w: {"notes": [{"id": w.new_id("N"), "body": "hello"}]})

        @server.tool(effect=READ, asks=["Count my notes.", "How many notes do I have?"])
        def count_notes(ctx: Ctx) -> int:
            """Count the notes."""
            return ctx.db.execute("SELECT count(*) FROM notes").fetchone()[0]
    ''')
    _install_plugin(tmp_path, "broken", "raise ImportError('missing dependency')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    reg = Registry()
    assert {"plugin", "broken", "banking"} <= set(reg.names())
    server = reg.get("plugin")
    with Session([server], world=0) as s:
        assert s.call("count_notes").data == 1
    with pytest.raises(ToolDefinitionError, match="failed to load.*missing dependency"):
        reg.get("broken")
    sys.modules.pop("plugin_pkg", None)


def test_loadable_gives_the_servers_that_load_and_why_the_others_do_not() -> None:
    from prove.env import Registry, ToolDefinitionError

    reg = Registry()
    reg._pending = {"broken": "no_such_module_anywhere:server"}
    found, broken = reg.loadable()
    assert found == [] and isinstance(broken["broken"], ToolDefinitionError)
