"""The URLs plain MCP clients are given: `/<server>/mcp`, and `?episode=ID` for clients that open
a new MCP session per call (langchain-mcp-adapters' `get_tools()`)."""

from __future__ import annotations

import httpx2
import pytest
from mcp.shared.exceptions import MCPError

from prove.env import registry

from .conftest import Live, running
from .helpers import client, run


@pytest.fixture(scope="module")
def live() -> Live:
    with running(servers=("toy", "twin"), call_timeout=5.0) as server:
        yield server


def test_server_path_ending_in_mcp(live: Live) -> None:
    """/<server>/mcp serves the same tools and calls as /mcp/<server>; an unknown one is a 404."""

    async def scenario() -> None:
        async with client(f"{live.url}/toy/mcp?world=2") as c:
            tools = {t.name for t in (await c.list_tools()).tools}
            assert tools == {t.name for t in registry.get("toy").visible_tools}
            r = await c.call_tool("get_wallet", {"wallet_id": "W-10001"})
            assert not r.is_error and r.structured_content["wallet_id"] == "W-10001"

    run(scenario())
    r = httpx2.post(f"{live.url}/nosuch/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_server"
    assert "/<server>/mcp" in r.json()["error"]["hint"]


def _rename(url: str, label: str | None) -> str:
    """One short-lived MCP session, as a per-call client opens: rename (if asked), then read the label."""

    async def scenario() -> str:
        async with client(url) as c:
            if label is not None:
                r = await c.call_tool("rename", {"wallet_id": "T-10001", "label": label})
                assert not r.is_error, r.structured_content
            return (await c.call_tool("get_wallet", {"wallet_id": "T-10001"})).structured_content["label"]

    return run(scenario())


@pytest.mark.parametrize("path", ["/twin/mcp", "/mcp/twin", "/mcp"])
def test_a_named_episode_outlives_each_mcp_session(live: Live, path: str) -> None:
    """Sessions whose URL names `?episode=` share one world; without it each is a fresh one."""
    control = live.control()
    name = f"run-{path.strip('/').replace('/', '-')}"
    query = f"?episode={name}&world=1" + ("&servers=twin" if path == "/mcp" else "")
    url = f"{live.url}{path}{query}"
    assert _rename(url, "first") == "first"
    assert name in control.sessions(), "the named episode is a control-plane session of that ID"
    assert _rename(url, None) == "first", "a later MCP session of the same URL sees the earlier write"
    assert _rename(f"{live.url}{path}" + ("?servers=twin" if path == "/mcp" else ""), None) == "twin 0"
    session = control.request("GET", f"/v1/sessions/{name}")
    assert session["servers"] == ["twin"] and session["world"] == 1
    control.request("DELETE", f"/v1/sessions/{name}")
    assert _rename(url, None) == "twin 0", "once closed, the name opens a fresh world"
    control.request("DELETE", f"/v1/sessions/{name}")


def test_named_episode_binds_a_control_plane_session(live: Live) -> None:
    control = live.control()
    sid = control.request("POST", "/v1/sessions", {"servers": ["twin"]})["session_id"]
    assert _rename(f"{live.url}/twin/mcp?episode={sid}", "from-url") == "from-url"
    log = control.request("GET", f"/v1/sessions/{sid}/log")["calls"]
    assert [c["name"] for c in log] == ["rename", "get_wallet"]
    control.request("DELETE", f"/v1/sessions/{sid}")


def test_named_episode_errors(live: Live) -> None:
    """A name that is no session ID, or a named episode without the endpoint's server, is refused."""
    control = live.control()

    async def call(url: str) -> MCPError:
        async with client(url) as c:
            with pytest.raises(MCPError) as info:
                await c.call_tool("get_wallet", {"wallet_id": "W-10001"})
            return info.value

    err = run(call(f"{live.url}/toy/mcp?episode=" + "x" * 200))
    assert err.error.data["code"] == "invalid_request"
    sid = control.request("POST", "/v1/sessions", {"servers": ["twin"]})["session_id"]
    err = run(call(f"{live.url}/toy/mcp?episode={sid}"))
    assert err.error.data["code"] == "server_not_in_session"
    control.request("DELETE", f"/v1/sessions/{sid}")


def test_an_episode_token_reaches_no_other_named_episode(live: Live) -> None:
    control = live.control()
    made = control.request("POST", "/v1/sessions", {"servers": ["twin"]})
    headers = {"Authorization": f"Bearer {made['mcp_token']}"}

    async def refused(url: str) -> MCPError:
        async with client(url, headers=headers) as c:
            with pytest.raises(MCPError) as info:
                await c.call_tool("get_wallet", {"wallet_id": "T-10001"})
            return info.value

    async def call(url: str) -> object:
        async with client(url, headers=headers) as c:
            return await c.call_tool("get_wallet", {"wallet_id": "T-10001"})

    assert run(refused(f"{live.url}/twin/mcp?episode=someone-else")).error.data["code"] == "forbidden_episode"
    assert "someone-else" not in control.sessions()
    assert not run(call(f"{live.url}/twin/mcp?episode={made['session_id']}")).is_error
    control.request("DELETE", f"/v1/sessions/{made['session_id']}")
