"""Bad inputs of every kind, limits and their clear errors: sizes, timeouts, hosts, tokens, binding."""

from __future__ import annotations

import json
import time

import httpx2
import pytest
from mcp.shared.exceptions import MCPError

from prove.mcp import ConfigError, RemoteEnv, RemoteError, ServeConfig

from .conftest import Live, running, wait_for
from .helpers import client, run

INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def _open_session(url: str) -> dict[str, str]:
    r = httpx2.post(url, json=INIT, headers=ACCEPT)
    assert r.status_code == 200, r.text
    headers = {**ACCEPT, "mcp-session-id": r.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
    httpx2.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
    return headers


def _rpc(url: str, headers: dict[str, str], method: str, params: object, **kw: object) -> httpx2.Response:
    return httpx2.post(url, content=json.dumps({"jsonrpc": "2.0", "id": 7, "method": method, "params": params}),
                       headers=headers, **kw)


def test_bad_calls_over_mcp(live: Live) -> None:
    """Every malformed call ends as a structured tool error or a JSON-RPC error, never a hang."""
    url = live.mcp("/toy")
    h = _open_session(url)

    def call(params: object, headers: dict[str, str] | None = None) -> dict:
        r = _rpc(url, headers or h, "tools/call", params)
        assert r.status_code in (200, 400), r.text
        return r.json()

    def tool_error(params: object) -> str:
        body = call(params)
        assert body["result"]["isError"] is True, body
        return body["result"]["structuredContent"]["error"]["code"]

    assert tool_error({"name": "nosuch", "arguments": {}}) == "unknown_tool"
    assert tool_error({"name": "x" * 5000, "arguments": {}}) == "unknown_tool"
    assert tool_error({"name": "count_wallets", "arguments": {}}) == "unknown_tool"     # hidden
    assert tool_error({"name": "get_wallet", "arguments": {}}) == "invalid_arguments"
    assert tool_error({"name": "get_wallet", "arguments": {"wallet_id": 5}}) == "invalid_arguments"
    assert tool_error({"name": "get_wallet", "arguments": {"wallet_id": "W-10001", "extra": 1}}) == "invalid_arguments"
    assert tool_error({"name": "get_wallet", "arguments": {"wallet_id": "y" * 20_000}}) == "invalid_arguments"
    assert tool_error({"name": "move", "arguments": {"src": "W-10002", "dst": "W-10003", "amount": -1,
                                                     "pin": "0"}}) == "invalid_arguments"
    assert tool_error({"name": "get_wallet"}) == "invalid_arguments"                      # arguments omitted
    # Shapes the protocol itself rejects: JSON-RPC errors (invalid params), not tool results.
    for params in ({"arguments": {}}, {"name": 5}, {"name": "get_wallet", "arguments": [1, 2]},
                   {"name": "get_wallet", "arguments": "text"}):
        body = call(params)
        assert "error" in body and body["error"]["code"] == -32602, (params, body)
    # Binding problems: JSON-RPC errors with a PROVE code and a hint.
    for meta, code in (({"prove/session": "f" * 32}, "unknown_session"), ({"prove/session": 12}, "invalid_request"),
                       ({"prove/session": "z" * 500}, "invalid_request")):
        body = call({"name": "get_wallet", "arguments": {"wallet_id": "W-10001"}, "_meta": meta})
        assert body["error"]["data"]["code"] == code, body
    body = call({"name": "get_wallet", "arguments": {"wallet_id": "W-10001"}}, {**h, "x-prove-session": "a" * 32})
    assert body["error"]["data"]["code"] == "unknown_session" and body["error"]["message"]
    # Transport-level garbage.
    r = httpx2.post(url, content=b"{nope", headers=h)
    assert r.status_code == 400 and r.json()["error"]["code"] == -32700
    r = httpx2.post(url, content=b"[]", headers=h)
    assert r.status_code == 400
    r = _rpc(url, {**h, "mcp-session-id": "0" * 32}, "tools/list", {})
    assert r.status_code == 404
    r = _rpc(url, h, "no/such/method", {})
    assert r.json()["error"]["code"] == -32601
    # The server is still fine afterwards.
    ok = call({"name": "get_wallet", "arguments": {"wallet_id": "W-10001"}})
    assert ok["result"]["isError"] is False


def test_request_size_limit() -> None:
    with running(servers=("toy",), max_request_bytes=4096) as live:
        url = live.mcp("/toy")
        h = _open_session(url)
        big = {"name": "get_wallet", "arguments": {"wallet_id": "W" * 8000}}
        assert _rpc(url, h, "tools/call", big).status_code == 413
        r = httpx2.post(f"{live.url}/v1/sessions", json={"servers": ["toy"], "pad": "x" * 8000})
        assert r.status_code == 413 and r.json()["error"]["code"] == "payload_too_large"
        # A chunked body without a Content-Length is counted too.
        r = httpx2.post(f"{live.url}/v1/sessions", content=iter([b'{"servers": ["toy"], "pad": "', b"x" * 8000, b'"}']))
        assert r.status_code == 413
        small = {"name": "get_wallet", "arguments": {"wallet_id": "W-10001"}}
        assert _rpc(url, h, "tools/call", small).status_code == 200


def test_per_call_timeout_aborts_and_recovers() -> None:
    with running(servers=("slow",), call_timeout=0.5) as live:
        env = RemoteEnv("slow", url=live.url)

        async def scenario() -> None:
            async with client(live.mcp("/slow"), headers={"X-Prove-Session": env.id}) as c:
                # A runaway query: aborted, rolled back, and the episode is usable again at once.
                with pytest.raises(MCPError) as info:
                    await c.call_tool("spin", {"n": 10 ** 12})
                assert info.value.error.data["code"] == "timeout" and "rolled back" in info.value.error.data["hint"]
                assert (await c.call_tool("value", {})).structured_content == {"v": 0}
                # A hang in C (a sleep) cannot be stopped at once: the caller is answered anyway, the
                # episode says it is busy (instead of hanging) until the call ends, then rolls it back.
                with pytest.raises(MCPError) as info:
                    await c.call_tool("nap", {"seconds": 3.0})
                assert info.value.error.data["code"] == "timeout"
                with pytest.raises(MCPError) as info:
                    await c.call_tool("value", {})
                assert info.value.error.data["code"] == "episode_busy"

        started = time.monotonic()
        run(scenario())
        assert time.monotonic() - started < 30
        def settled() -> bool:
            try:
                return env.call("value", {}).ok
            except RemoteError as exc:
                assert exc.code == "episode_busy"
                return False

        wait_for(settled, "the napping call to end")
        assert env.call("value", {}).data == {"v": 0}
        metrics = httpx2.get(f"{live.url}/metrics").text
        assert 'prove_requests_refused_total{code="timeout"} 2' in metrics
        env.close()


def test_stateless_mode_requires_binding() -> None:
    with running(servers=("toy",), stateless=True) as live:
        env = RemoteEnv("toy", url=live.url)

        async def scenario() -> None:
            async with client(live.mcp("/toy")) as c:     # auto mode: the 2026 wire
                assert len((await c.list_tools()).tools) == 4
                with pytest.raises(MCPError) as info:
                    await c.call_tool("get_wallet", {"wallet_id": "W-10001"})
                assert info.value.error.data["code"] == "no_episode"
                assert "stateless" in info.value.error.message and "/v1/sessions" in info.value.error.data["hint"]
                r = await c.call_tool("get_wallet", {"wallet_id": "W-10001"}, meta={"prove/session": env.id})
                assert not r.is_error
            async with client(live.mcp("/toy"), mode="legacy") as c:   # stateless handshake-era requests too
                with pytest.raises(MCPError):
                    await c.call_tool("get_wallet", {"wallet_id": "W-10001"})
                r = await c.call_tool("get_wallet", {"wallet_id": "W-10001"}, meta={"prove/session": env.id})
                assert not r.is_error

        run(scenario())
        assert [rec.name for rec in env.log] == ["get_wallet", "get_wallet"]
        assert live.control().stats()["created"] == 1, "stateless mode never opens episodes by itself"


def test_dns_rebinding_hosts_and_origins_are_refused(live: Live) -> None:
    url = live.mcp("/toy")
    for headers, status in (({"host": "evil.example.com"}, 421), ({"host": "evil.example.com:80"}, 421),
                            ({"origin": "http://evil.example.com"}, 403)):
        r = httpx2.post(url, json=INIT, headers={**ACCEPT, **headers})
        assert r.status_code == status, (headers, r.text)
        r = httpx2.get(f"{live.url}/v1/stats", headers=headers)
        assert r.status_code == status
    for host in ("localhost", "127.0.0.1:9", "[::1]:8000"):
        r = httpx2.post(url, json=INIT, headers={**ACCEPT, "host": host, "origin": f"http://{host}"})
        assert r.status_code == 200, (host, r.text)


def test_bearer_token() -> None:
    with pytest.raises(ConfigError, match="token is required"):
        ServeConfig(servers=("toy",), host="0.0.0.0").checked()
    with pytest.raises(ConfigError, match="16 characters"):
        ServeConfig(servers=("toy",), token="short").checked()
    token = "t" * 32
    with running(servers=("toy",), token=token) as live:
        assert httpx2.get(f"{live.url}/healthz").status_code == 200
        for path in ("/v1/stats", "/metrics"):
            r = httpx2.get(live.url + path)
            assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer")
            assert httpx2.get(live.url + path, headers={"authorization": "Bearer wrong"}).status_code == 401
            assert httpx2.get(live.url + path, headers={"authorization": f"Bearer {token}"}).status_code == 200
        assert httpx2.post(live.mcp("/toy"), json=INIT, headers=ACCEPT).status_code == 401
        with pytest.raises(RemoteError) as info:
            RemoteEnv("toy", url=live.url)
        assert info.value.code == "unauthorized"
        with RemoteEnv("toy", url=live.url, token=token) as env:
            assert env.call("get_wallet", {"wallet_id": "W-10001"}).ok

            async def scenario() -> None:
                async with client(live.mcp("/toy"), headers={"authorization": f"Bearer {token}"}) as c:
                    r = await c.call_tool("get_wallet", {"wallet_id": "W-10001"}, meta={"prove/session": env.id})
                    assert not r.is_error

            run(scenario())


def test_config_is_checked() -> None:
    for kwargs, match in (({"servers": ("nosuch",)}, "unknown server"), ({"max_sessions": 0}, "max_sessions"),
                          ({"call_timeout": 0}, "call_timeout"), ({"workers": 2, "port": 0}, "port"),
                          ({"idle_ttl": -1}, "idle_ttl")):
        with pytest.raises(ConfigError, match=match):
            ServeConfig(**kwargs).checked()


def test_shutdown_does_not_wait_for_a_hung_call() -> None:
    started = time.monotonic()
    with running(servers=("slow",), call_timeout=0.3) as live:
        env = RemoteEnv("slow", url=live.url)
        with pytest.raises(RemoteError) as info:
            env.call("nap", {"seconds": 12.0})
        assert info.value.code == "timeout" and info.value.status == 504
        app = live.app
    assert app is not None and time.monotonic() - started < 11, "shutdown waited for the hung call"
    assert app.episodes.pool.stats().live == 0
