"""What serving must survive: idle handshakes, finished calls' references, episode isolation."""

from __future__ import annotations

import gc
import time
import weakref

import httpx2
import pytest
from mcp.shared.exceptions import MCPError

from prove.mcp import RemoteEnv, RemoteError
from prove.mcp.episodes import DaemonExecutor

from .conftest import running
from .helpers import client, run
from .test_limits import _open_session, _rpc

TOKEN = "control-plane-token-0123456789"


def test_bare_handshakes_hold_no_episode_slot_and_expire_quickly() -> None:
    with running(servers=("toy",), max_sessions=2, handshake_ttl=0.3) as live:
        url = live.mcp("/toy")
        bare = [_open_session(url) for _ in range(5)]           # more than the episode cap
        bound = _open_session(url)
        assert _rpc(url, bound, "tools/call", {"name": "get_wallet", "arguments": {"wallet_id": "W-10001"}}).json()[
            "result"]["structuredContent"]["wallet_id"] == "W-10001"
        assert live.control().stats()["live"] == 1              # only the session that bound an episode
        time.sleep(1.5)                                         # several handshake TTLs, far below idle_ttl
        assert all(_rpc(url, h, "tools/list", {}).status_code == 404 for h in bare)
        assert _rpc(url, bound, "tools/list", {}).status_code == 200


def test_an_idle_executor_thread_keeps_nothing_of_its_last_call() -> None:
    class Big:
        pass

    executor = DaemonExecutor(1)
    try:
        arg = Big()
        alive = weakref.ref(arg)
        result = executor.submit(lambda x: [x], arg).result(10)
        del arg, result
        executor.submit(int).result(10)                         # the thread is idle again, waiting
        gc.collect()
        assert alive() is None
    finally:
        executor.shutdown()


def test_an_episode_token_reaches_its_episode_over_mcp_and_nothing_else() -> None:
    with running(servers=("toy",), token=TOKEN) as live:
        mine = RemoteEnv("toy", url=live.url, token=TOKEN)
        other = RemoteEnv("toy", url=live.url, token=TOKEN)
        assert mine.mcp_token and mine.mcp_token != other.mcp_token
        grant = {"Authorization": f"Bearer {mine.mcp_token}"}

        async def scenario() -> None:
            async with client(live.mcp("/toy"), headers=grant) as c:     # no session header needed
                r = await c.call_tool("get_wallet", {"wallet_id": "W-10001"})
                assert not r.is_error
                with pytest.raises(MCPError) as info:
                    await c.call_tool("get_wallet", {"wallet_id": "W-10001"}, meta={"prove/session": other.id})
                assert info.value.error.data["code"] == "forbidden_episode"
            async with client(live.mcp("/toy"), headers=mine.mcp_headers) as c:
                assert not (await c.call_tool("get_wallet", {"wallet_id": "W-10002"})).is_error

        run(scenario())
        assert [rec.name for rec in mine.log] == ["get_wallet", "get_wallet"] and other.log == []
        for path in ("/v1/sessions", f"/v1/sessions/{other.id}/log", f"/v1/sessions/{mine.id}"):
            assert httpx2.get(live.url + path, headers=grant).status_code == 403
        forged = mine.mcp_token[:-4] + ("AAAA" if not mine.mcp_token.endswith("AAAA") else "BBBB")
        assert httpx2.get(live.url + "/v1/sessions", headers={"Authorization": f"Bearer {forged}"}).status_code == 401
        with pytest.raises(RemoteError):
            RemoteEnv.attach(other.id, url=live.url, token=mine.mcp_token)


def test_metrics_show_episode_bytes_and_internal_errors() -> None:
    with running(servers=("toy",)) as live:
        env = RemoteEnv("toy", url=live.url)
        assert env.call("explode", {"wallet_id": "W-10001"}).code == "internal_error"
        metrics = httpx2.get(f"{live.url}/metrics").text
        sizes = {line.split()[0]: float(line.split()[1]) for line in metrics.splitlines()
                 if line.startswith(("prove_sessions_bytes ", "prove_session_bytes_max "))}
        assert sizes["prove_sessions_bytes"] >= sizes["prove_session_bytes_max"] > 1000
        assert 'prove_tool_internal_errors_total{server="toy",tool="explode"}' in metrics
        env.close()


def test_huge_integers_over_mcp_are_invalid_arguments_not_internal_errors() -> None:
    with running(servers=("toy",)) as live:
        env = RemoteEnv("toy", url=live.url)

        async def scenario() -> None:
            async with client(live.mcp("/toy"), headers=env.mcp_headers) as c:
                r = await c.call_tool("list_wallets", {"limit": 9223372036854775808})
                assert r.is_error and r.structured_content["error"]["code"] == "invalid_arguments"

        run(scenario())
        env.close()
