"""The official MCP client against `prove serve` over real sockets: listing, calls, binding."""

from __future__ import annotations

import asyncio
import json

import pytest
from mcp.shared.exceptions import MCPError

from prove.env import Session, registry
from prove.mcp.convert import structured
from prove.env import tool_names

from ..strategies import entity_values
from .conftest import Live, loadable, wait_for
from .helpers import client, example_arguments, run, text_of

# Every registered server that loads, plus two test servers (registered only while served).
EVERY_SERVER = sorted(set(loadable()) | {"toy", "twin"})


@pytest.mark.parametrize("name", EVERY_SERVER)
def test_list_and_call_every_server(live: Live, name: str) -> None:
    """Every tool listed with PROVE's own schemas; every call answers exactly as in-process."""
    server = registry.get(name)
    control = live.control()

    async def scenario() -> tuple[list[tuple[str, dict, object]], str]:
        seen = []
        async with client(live.mcp(f"/{name}?world=3")) as c:
            listed = {t.name: t for t in (await c.list_tools()).tools}
            assert set(listed) == {t.name for t in server.visible_tools}, "hidden tools are never listed"
            for tool in server.visible_tools:
                entry = listed[tool.name]
                assert entry.input_schema == tool.parameters
                assert entry.output_schema == tool.output_schema
                assert entry.description == tool.description
                assert entry.annotations.read_only_hint is tool.read_only
            before = set(control.sessions())
            with Session([server], world=3) as probe:
                entities = entity_values(probe)
            for tool in server.visible_tools:
                args = example_arguments(tool, entities)
                seen.append((tool.name, args, await c.call_tool(tool.name, args)))
            (episode,) = set(control.sessions()) - before
            return seen, control.request("GET", f"/v1/sessions/{episode}/fingerprint")["fingerprint"]

    seen, fingerprint = run(scenario(), timeout=120)
    with Session([server], world=3) as reference:
        for tool_name, args, got in seen:
            want = reference.call(tool_name, args)
            assert got.is_error is (not want.ok), (tool_name, args, got)
            assert got.structured_content == structured(want), tool_name
            assert got.content[0].text == want.text(), tool_name
        assert fingerprint == reference.fingerprint(), "the served episode ended in another state"


def test_episode_endpoint_names_and_routing(live: Live) -> None:
    """/mcp shows the tools of an episode's servers, qualified only where names collide."""
    toy, twin = registry.get("toy"), registry.get("twin")
    with Session([toy, twin], world=0) as session:
        expected = {n for n, t in session.tools().items()}
        assert {n for n, t in tool_names([toy, twin]).items() if not t.hidden} == expected

    async def scenario() -> None:
        async with client(live.mcp("?servers=toy,twin")) as c:
            names = {t.name for t in (await c.list_tools()).tools}
            assert names == expected and {"toy_get_wallet", "twin_get_wallet", "move"} <= names
            r = await c.call_tool("toy_get_wallet", {"wallet_id": "W-10001"})
            assert not r.is_error and r.structured_content["wallet_id"] == "W-10001"
            r = await c.call_tool("twin_get_wallet", {"wallet_id": "T-10001"})
            assert r.structured_content == {"wallet_id": "T-10001", "label": "twin 0"}
            r = await c.call_tool("get_wallet", {"wallet_id": "W-10001"})
            assert r.is_error and r.structured_content["error"]["code"] == "unknown_tool"
            r = await c.call_tool("count_wallets", {})        # hidden: not callable over MCP either
            assert r.is_error and r.structured_content["error"]["code"] == "unknown_tool"

    run(scenario())


def test_episode_endpoint_shows_a_bound_episodes_tools(live: Live) -> None:
    control = live.control()
    sid = control.request("POST", "/v1/sessions", {"servers": ["twin", "toy"], "world": 1})["session_id"]
    with Session([registry.get("twin"), registry.get("toy")], world=1) as session:
        expected = set(session.tools())

    async def scenario() -> None:
        async with client(live.mcp(), headers={"X-Prove-Session": sid}) as c:
            assert {t.name for t in (await c.list_tools()).tools} == expected
            r = await c.call_tool("rename", {"wallet_id": "T-10001", "label": "bound"})
            assert r.structured_content == {"renamed": 1}
        async with client(live.mcp("/toy"), headers={"X-Prove-Session": sid}) as c:
            # One server's endpoint shows that server's own names, routed to the qualified ones.
            assert "get_wallet" in {t.name for t in (await c.list_tools()).tools}
            r = await c.call_tool("get_wallet", {"wallet_id": "W-10001"})
            assert not r.is_error and r.structured_content["wallet_id"] == "W-10001"
            r = await c.call_tool("rename", {"wallet_id": "T-10001", "label": "x"})   # twin's, not shown here
            assert r.is_error and r.structured_content["error"]["code"] == "unknown_tool"

    run(scenario())
    names = [c["name"] for c in control.request("GET", f"/v1/sessions/{sid}/log")["calls"]]
    assert names == ["rename", "toy_get_wallet"]


def test_results_carry_structured_content_and_errors(live: Live) -> None:
    async def scenario() -> None:
        async with client(live.mcp("/toy")) as c:
            tools = {t.name: t for t in (await c.list_tools()).tools}
            assert tools["get_wallet"].annotations.read_only_hint is True
            assert tools["move"].annotations.read_only_hint is False
            assert tools["get_wallet"].output_schema["properties"]["balance"]["type"] == "number"
            ok = await c.call_tool("get_wallet", {"wallet_id": "W-10001"})
            assert not ok.is_error and ok.structured_content == text_of(ok)
            listing = await c.call_tool("list_wallets", {"limit": 2})
            assert listing.structured_content == {"result": text_of(listing)} and len(text_of(listing)) == 2
            err = await c.call_tool("get_wallet", {"wallet_id": "nope"})
            assert err.is_error and err.structured_content == {"error": {
                "code": "not_found", "message": "No wallet has ID 'nope'.",
                "hint": "Call list_wallets to see the IDs that exist."}}
            bad = await c.call_tool("move", {"src": "W-10001"})
            assert bad.is_error and bad.structured_content["error"]["code"] == "invalid_arguments"
            boom = await c.call_tool("explode", {"wallet_id": "W-10002"})
            assert boom.is_error and boom.structured_content["error"]["code"] == "internal_error"

    run(scenario())


def test_mcp_sessions_are_isolated_episodes(live: Live) -> None:
    """Concurrent plain clients each get a fresh world; one's writes never show in another's."""
    with Session([registry.get("toy")], world=0) as probe:
        db = probe._runtimes[0].db  # noqa: SLF001 - the test reads PINs the model would be told
        src, pin, balance = db.execute(
            "SELECT wallet_id, pin, balance FROM wallets WHERE frozen = 0 ORDER BY balance DESC").fetchone()
        dst = db.execute("SELECT wallet_id FROM wallets WHERE wallet_id != ? LIMIT 1", (src,)).fetchone()[0]

    async def one(i: int) -> float:
        async with client(live.mcp("/toy")) as c:
            for _ in range(i + 1):
                r = await c.call_tool("move", {"src": src, "dst": dst, "amount": 0.25, "pin": pin})
                assert not r.is_error, r.structured_content
            return (await c.call_tool("get_wallet", {"wallet_id": src})).structured_content["balance"]

    async def scenario() -> list[float]:
        return await asyncio.gather(*(one(i) for i in range(8)))

    balances = run(scenario())
    assert balances == [pytest.approx(balance - 0.25 * (i + 1)) for i in range(8)]


def test_explicit_binding_isolation_and_order(live: Live) -> None:
    """_meta beats X-Prove-Session beats the MCP session; episodes stay apart."""
    control = live.control()
    a = control.request("POST", "/v1/sessions", {"servers": ["twin"]})["session_id"]
    b = control.request("POST", "/v1/sessions", {"servers": ["twin"]})["session_id"]

    async def scenario() -> None:
        async with client(live.mcp("/twin"), headers={"X-Prove-Session": b}) as c:
            # The header binds to b; _meta on the call overrides it with a.
            await c.call_tool("rename", {"wallet_id": "T-10001", "label": "by-meta"}, meta={"prove/session": a})
            await c.call_tool("rename", {"wallet_id": "T-10002", "label": "by-header"})
            for sid, wallet, label in ((a, "T-10001", "by-meta"), (b, "T-10002", "by-header")):
                r = await c.call_tool("get_wallet", {"wallet_id": wallet}, meta={"prove/session": sid})
                assert r.structured_content["label"] == label
            r = await c.call_tool("get_wallet", {"wallet_id": "T-10002"}, meta={"prove/session": a})
            assert r.structured_content["label"] == "twin 1", "b's write leaked into a"
        async with client(live.mcp("/twin")) as plain:     # no binding: its own fresh world
            r = await plain.call_tool("get_wallet", {"wallet_id": "T-10001"})
            assert r.structured_content["label"] == "twin 0"

    run(scenario())
    for sid, calls in ((a, 2), (b, 1)):
        log = control.request("GET", f"/v1/sessions/{sid}/log")["calls"]
        assert sum(c["name"] == "rename" for c in log) == 1 and len(log) >= calls


def test_2026_wire_binds_explicitly(live: Live) -> None:
    """The 2026 wire has no MCP session: it binds by _meta or header, or answers no_episode."""
    control = live.control()
    sid = control.request("POST", "/v1/sessions", {"servers": ["toy"], "world": 2})["session_id"]

    async def scenario() -> None:
        async with client(live.mcp("/toy"), mode="2026-07-28") as c:
            assert len((await c.list_tools()).tools) == 4
            r = await c.call_tool("get_wallet", {"wallet_id": "W-10001"}, meta={"prove/session": sid})
            assert not r.is_error and r.structured_content["wallet_id"] == "W-10001"
            with pytest.raises(MCPError) as info:
                await c.call_tool("get_wallet", {"wallet_id": "W-10001"})
            assert info.value.error.data["code"] == "no_episode"
        async with client(live.mcp("/toy"), mode="2026-07-28", headers={"X-Prove-Session": sid}) as c:
            r = await c.call_tool("list_wallets", {"limit": 1})
            assert not r.is_error

    run(scenario())
    assert len(control.request("GET", f"/v1/sessions/{sid}/log")["calls"]) == 2


def test_delete_closes_the_episode_at_once(live: Live) -> None:
    control = live.control()
    closed = control.stats()["closed"]

    async def scenario() -> str:
        async with client(live.mcp("/toy")) as c:
            before = set(control.sessions())
            await c.call_tool("get_wallet", {"wallet_id": "W-10001"})
            (sid,) = set(control.sessions()) - before
        return sid

    sid = run(scenario())
    wait_for(lambda: sid not in control.sessions(), "the deleted MCP session's episode to close")
    assert control.stats()["closed"] == closed + 1 and control.stats()["reaped"] == 0


def test_unknown_server_endpoint(live: Live) -> None:
    import httpx2

    r = httpx2.post(live.mcp("/nosuch"), json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_server"
    assert "toy" in r.json()["error"]["hint"]


def test_health_and_metrics(live: Live) -> None:
    import httpx2

    async def scenario() -> None:
        async with client(live.mcp("/toy")) as c:
            await c.call_tool("get_wallet", {"wallet_id": "nope"})

    run(scenario())
    health = httpx2.get(f"{live.url}/healthz").json()
    assert health["status"] == "ok" and "toy" in health["servers"]
    text = httpx2.get(f"{live.url}/metrics").text
    for needle in ("prove_sessions_live ", 'prove_tool_calls_total{server="toy"}',
                   'prove_tool_call_errors_total{code="not_found"}', "prove_tool_call_duration_seconds_bucket",
                   'prove_tool_call_duration_seconds_bucket{le="+Inf"}', "prove_sessions_reaped_total"):
        assert needle in text, needle
    json.dumps(health)


def test_one_client_multiplexes_many_episodes(live: Live) -> None:
    """The RL pattern: one MCP connection, many episodes bound per call, all at once."""
    control = live.control()
    ids = [control.request("POST", "/v1/sessions", {"servers": ["twin"]})["session_id"] for _ in range(32)]

    async def scenario() -> list[str]:
        async with client(live.mcp("/twin"), mode="2026-07-28") as c:
            async def episode(i: int, sid: str) -> str:
                for step in range(3):
                    r = await c.call_tool("rename", {"wallet_id": "T-10001", "label": f"{i}-{step}"},
                                          meta={"prove/session": sid})
                    assert not r.is_error
                r = await c.call_tool("get_wallet", {"wallet_id": "T-10001"}, meta={"prove/session": sid})
                return r.structured_content["label"]

            return await asyncio.gather(*(episode(i, sid) for i, sid in enumerate(ids)))

    assert run(scenario()) == [f"{i}-2" for i in range(32)]
    for sid in ids:
        control.request("DELETE", f"/v1/sessions/{sid}")
