"""The serving layer's small pieces, without sockets."""

from __future__ import annotations

from collections import Counter

import pytest

from prove.env import ToolResult, registry
from prove.mcp import ConfigError, ServeError, is_loopback, load_servers, shard, worker_urls
from prove.mcp.app import loopback_host, loopback_origin
from prove.mcp.convert import call_result, mcp_tool, structured
from prove.mcp.episodes import check_id
from prove.mcp.errors import CODES, remote_error
from prove.mcp.remote import new_id

from ..env.toy import make_server


def test_tools_keep_their_own_schemas() -> None:
    toy = make_server()
    entry = mcp_tool(toy.tools["get_wallet"])
    assert entry["inputSchema"] is toy.tools["get_wallet"].parameters
    assert entry["outputSchema"] is toy.tools["get_wallet"].output_schema
    assert entry["annotations"] == {"readOnlyHint": True, "openWorldHint": False}
    assert "outputSchema" not in mcp_tool(toy.tools["list_wallets"])      # a list: no object schema
    assert mcp_tool(toy.tools["move"], "toy_move")["name"] == "toy_move"


def test_results_are_json_text_structured_and_flagged() -> None:
    ok = ToolResult("t", True, {"a": "é"})
    assert call_result(ok) == {"content": [{"type": "text", "text": '{"a": "é"}'}],
                               "structuredContent": {"a": "é"}, "isError": False}
    assert structured(ToolResult("t", True, [1, 2])) == {"result": [1, 2]}
    assert structured(ToolResult("t", True, "text")) == {"result": "text"}
    err = ToolResult("t", False, error={"code": "not_found", "message": "m"})
    assert call_result(err)["isError"] is True and structured(err) == {"error": {"code": "not_found", "message": "m"}}
    assert call_result(err)["content"][0]["text"] == err.text()


@pytest.mark.parametrize("host, ok", [
    ("127.0.0.1", True), ("127.0.0.1:8000", True), ("localhost:1", True), ("LOCALHOST", True), ("[::1]:80", True),
    ("127.1.2.3:9", True), ("a.localhost:5", True), ("evil.example.com", False), ("evil.example.com:8000", False),
    ("10.0.0.1:80", False), ("0.0.0.0:80", False), ("[::]:80", False), ("", False), ("127.0.0.1.evil.com", False),
])
def test_loopback_hosts(host: str, ok: bool) -> None:
    assert loopback_host(host) is ok


def test_loopback_origins_and_binds() -> None:
    assert loopback_origin("http://localhost:3000") and loopback_origin("https://127.0.0.1")
    assert not loopback_origin("http://evil.example.com") and not loopback_origin("null")
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2") and not is_loopback("example.com")


def test_session_ids_are_checked() -> None:
    assert check_id("abc") == "abc"
    for bad in ("", "x" * 129, "a\nb", 5, None, ["a"]):
        with pytest.raises(ServeError) as info:
            check_id(bad)
        assert info.value.code == "invalid_request"


def test_sharding_is_stable_and_spread() -> None:
    urls = worker_urls("http://127.0.0.1:9000", 3)
    assert urls == ["http://127.0.0.1:9000", "http://127.0.0.1:9001", "http://127.0.0.1:9002"]
    assert shard("abc", 3) == shard("abc", 3)
    counts = Counter(shard(new_id(urls), 3) for _ in range(600))
    assert set(counts) == {0, 1, 2} and min(counts.values()) > 120
    assert all(shard(new_id(urls, 2), 3) == 2 for _ in range(20))
    assert len(new_id(urls)) == 32


def test_error_codes_map_to_rpc_and_http() -> None:
    codes = [rpc for rpc, _ in CODES.values()]
    assert len(set(codes)) == len(codes), "every code has its own JSON-RPC code"
    assert not {-32000, -32001, -32020, -32021, -32022, -32042} & set(codes), "clear of MCP's own codes"
    err = ServeError("pool_full", "full", "close some")
    assert (err.rpc_code, err.status, err.body()) == (-32062, 503, {"error": {"code": "pool_full", "message": "full",
                                                                              "hint": "close some"}})
    from prove.env import PoolFullError, UnknownSessionError

    assert isinstance(remote_error("pool_full", "m", 503), PoolFullError)
    assert isinstance(remote_error("unknown_session", "m", 404), UnknownSessionError)


def test_load_servers(tmp_path) -> None:  # noqa: ANN001
    path = tmp_path / "extra.py"
    path.write_text("from tests.mcp.servers import make_twin_server\nserver = make_twin_server()\n")
    try:
        assert load_servers([f"{path}:server"]) == ["twin"]
        assert load_servers(["tests.mcp.servers:all_test_servers"]) == ["toy", "twin", "slow"]
        assert load_servers(["tests.mcp.servers"]) == []
        for bad in ("no.such.module:x", "tests.mcp.servers:nothing", "tests.mcp.helpers:run"):
            with pytest.raises(ConfigError):
                load_servers([bad])
    finally:
        for name in ("toy", "twin", "slow"):
            registry.unregister(name)
