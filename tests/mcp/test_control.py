"""The control plane and RemoteEnv: the same code runs against a Session and a RemoteEnv."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from prove.env import (PoolFullError, Session, SessionClosedError, ToolResult, UnknownServerError,
                       UnknownSessionError, registry)
from prove.mcp import RemoteEnv, RemoteError

from .conftest import Live, running


def _pin(session: Session, wallet: str) -> str:
    return session._runtimes[0].db.execute(  # noqa: SLF001 - the PIN a user would tell the model
        "SELECT pin FROM wallets WHERE wallet_id = ?", (wallet,)).fetchone()[0]


def episode_script(env: Any, pin: str) -> dict[str, Any]:
    """Written against Session's interface only; run on both sides and compared."""
    out: dict[str, Any] = {"servers": env.servers, "world": env.world, "start": env.fingerprint()}
    out["tools"] = sorted(env.tools())
    out["hidden"] = sorted(set(env.tools(include_hidden=True)) - set(env.tools()))
    out["schemas"] = env.tool_schemas()

    def call(name: str, args: Any) -> Any:
        r: ToolResult = env.call(name, args)
        return (r.name, r.ok, r.data, r.error)

    out["read"] = call("get_wallet", {"wallet_id": "W-10002"})
    out["write"] = call("move", {"src": "W-10002", "dst": "W-10003", "amount": 5.0, "pin": pin})
    out["bad"] = call("move", {"src": "W-10002", "amount": -1})
    out["as_text"] = call("list_wallets", '{"limit": 2}')
    out["unknown"] = call("no_such_tool", {})
    out["hidden_call"] = call("count_wallets", {})
    out["after_write"] = env.fingerprint()
    snap = env.snapshot()
    child = env.fork()
    out["child_same"] = child.fingerprint() == env.fingerprint()
    out["child_write"] = (child.call("move", {"src": "W-10002", "dst": "W-10004", "amount": 1.0, "pin": pin}).ok)
    out["parent_untouched"] = env.fingerprint() == out["after_write"]
    out["child_vs_parent"] = [c.to_dict() for c in child.diff(env)]
    out["diff_from_start"] = env.diff().to_list()
    out["tables"] = env.diff().tables()
    out["now"] = env.now.isoformat()
    out["advanced"] = env.advance(timedelta(hours=2)).isoformat()
    out["advanced_s"] = env.advance(60).isoformat()
    env.call("move", {"src": "W-10002", "dst": "W-10005", "amount": 2.0, "pin": pin})
    out["diff_from_snapshot"] = env.diff(snap).to_list()
    env.restore(snap)
    out["restored"] = env.fingerprint() == out["after_write"]
    out["log"] = [(rec.index, rec.name, rec.server, rec.result.ok) for rec in env.log]
    env.reset()
    out["reset"] = env.fingerprint() == out["start"] and env.log == [] and not env.diff()
    child.close()
    out["child_closed"] = child.closed
    with pytest.raises(SessionClosedError):
        child.fingerprint()
    child.close()   # idempotent
    return out


def test_remote_env_runs_code_written_for_session(live: Live) -> None:
    toy = registry.get("toy")
    with Session([toy], world=1) as local:
        pin = _pin(local, "W-10002")
        want = episode_script(local, pin)
    with RemoteEnv(["toy"], world=1, url=live.url) as remote:
        got = episode_script(remote, pin)
    assert got == want
    assert want["write"][1] and not want["bad"][1] and want["child_write"] and want["child_vs_parent"]


def test_fork_reset_and_diff_over_the_control_plane(live: Live) -> None:
    c = live.control()
    sid = c.request("POST", "/v1/sessions", {"servers": ["twin"], "world": 4})["session_id"]
    child = c.request("POST", f"/v1/sessions/{sid}/fork", {})["session_id"]
    c.request("POST", f"/v1/sessions/{child}/calls", {"name": "rename", "arguments": {"wallet_id": "T-10001",
                                                                                       "label": "forked"}})
    diff = c.request("GET", f"/v1/sessions/{child}/diff", params={"against": sid})
    assert diff["tables"] == {"twin.wallets": {"insert": 0, "update": 1, "delete": 0}}
    (change,) = diff["changes"]
    assert change["before"]["label"] == "twin 0" and change["after"]["label"] == "forked"
    assert c.request("GET", f"/v1/sessions/{sid}/diff")["changes"] == []
    snap = c.request("POST", f"/v1/sessions/{child}/snapshots")["snapshot_id"]
    assert c.request("GET", f"/v1/sessions/{child}/diff", params={"against": snap})["changes"] == []
    fp = c.request("GET", f"/v1/sessions/{child}/fingerprint")["fingerprint"]
    assert fp != c.request("GET", f"/v1/sessions/{sid}/fingerprint")["fingerprint"]
    c.request("POST", f"/v1/sessions/{child}/reset")
    assert c.request("GET", f"/v1/sessions/{child}/fingerprint")["fingerprint"] == \
        c.request("GET", f"/v1/sessions/{sid}/fingerprint")["fingerprint"]
    c.request("POST", f"/v1/sessions/{child}/restore", {"snapshot_id": snap})
    assert c.request("GET", f"/v1/sessions/{child}/fingerprint")["fingerprint"] == fp
    c.request("DELETE", f"/v1/sessions/{child}/snapshots/{snap}")
    stats = c.stats()
    assert {"created", "live", "in_use", "reaped", "closed", "refused", "max_sessions", "idle_ttl"} <= set(stats)
    for s in (sid, child):
        c.request("DELETE", f"/v1/sessions/{s}")
    assert sid not in c.sessions() and child not in c.sessions()


def test_attach_to_a_plain_mcp_clients_episode(live: Live) -> None:
    from .helpers import client, run

    c = live.control()

    async def scenario() -> tuple[str, str]:
        async with client(live.mcp("/twin")) as mcp_client:
            before = set(c.sessions())
            await mcp_client.call_tool("rename", {"wallet_id": "T-10003", "label": "seen"})
            (sid,) = set(c.sessions()) - before
            env = RemoteEnv.attach(sid, url=live.url)
            rows = env.diff().to_list()
            return sid, rows[0]["changes"]["label"][1]

    sid, label = run(scenario())
    assert label == "seen"


def test_control_plane_errors_are_the_frameworks_exceptions(live: Live) -> None:
    with pytest.raises(UnknownSessionError, match="no live session"):
        RemoteEnv.attach("0" * 32, url=live.url)
    with pytest.raises(UnknownServerError, match="does not serve"):
        RemoteEnv(["nosuch"], url=live.url)
    with RemoteEnv("toy", url=live.url) as env:
        with pytest.raises(RemoteError) as info:
            RemoteEnv("toy", url=live.url, session_id=env.id)
        assert info.value.code == "session_exists" and info.value.status == 409
        other = RemoteEnv("toy", url=live.url)
        with pytest.raises(ValueError, match="belongs to session"):
            env.restore(other.snapshot())
        other.close()
        with pytest.raises(UnknownSessionError):
            env.diff(other)
        with pytest.raises(ValueError, match="forward"):
            env.advance(-1)
    c = live.control()
    cases = [
        ("POST", "/v1/sessions", {"servers": "toy", "world": "seven"}, 400, "invalid_request"),
        ("POST", "/v1/sessions", {"world": 1}, 400, "invalid_request"),
        ("POST", "/v1/sessions", {"servers": [1, 2]}, 400, "invalid_request"),
        ("POST", "/v1/sessions", {"servers": ["toy", "toy"]}, 400, "invalid_request"),
        ("POST", "/v1/sessions", {"servers": []}, 400, "invalid_request"),
        ("POST", "/v1/sessions", {"servers": ["toy"], "session_id": "x" * 200}, 400, "invalid_request"),
        ("GET", "/v1/sessions/" + "f" * 32, None, 404, "unknown_session"),
        ("POST", "/v1/sessions/" + "f" * 32 + "/fork", {}, 404, "unknown_session"),
        ("POST", "/v1/sessions/" + "f" * 32 + "/calls", {"name": "get_wallet"}, 404, "unknown_session"),
        ("GET", "/v1/nothing", None, 404, None),
    ]
    sid = c.request("POST", "/v1/sessions", {"servers": ["toy"]})["session_id"]
    cases += [
        ("POST", f"/v1/sessions/{sid}/calls", {"arguments": {}}, 400, "invalid_request"),
        ("POST", f"/v1/sessions/{sid}/advance", {"seconds": -5}, 400, "invalid_request"),
        ("POST", f"/v1/sessions/{sid}/advance", {"seconds": True}, 400, "invalid_request"),
        ("POST", f"/v1/sessions/{sid}/restore", {"snapshot_id": "snap-0000"}, 404, "unknown_snapshot"),
        ("GET", f"/v1/sessions/{sid}/diff?against=snap-0000", None, 404, "unknown_snapshot"),
        ("GET", f"/v1/sessions/{sid}/diff?against=" + "e" * 32, None, 404, "unknown_session"),
        ("DELETE", f"/v1/sessions/{sid}/snapshots/snap-0000", None, 404, "unknown_snapshot"),
    ]
    for method, path, body, status, code in cases:
        r = c._http.request(method, path, json=body)  # noqa: SLF001 - raw answers, not exceptions
        assert r.status_code == status, (method, path, r.text)
        if code:
            err = r.json()["error"]
            assert err["code"] == code and err["message"], (path, err)
    for raw in (b"{not json", b"[1, 2]", b'"text"'):
        r = c._http.post("/v1/sessions", content=raw, headers={"content-type": "application/json"})  # noqa: SLF001
        assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_request"


def test_the_cap_refuses_clearly() -> None:
    from .helpers import client, run
    from mcp.shared.exceptions import MCPError

    with running(servers=("toy",), max_sessions=2) as live:
        a, b = RemoteEnv("toy", url=live.url), RemoteEnv("toy", url=live.url)
        with pytest.raises(PoolFullError, match="pool is full: 2 live sessions") as info:
            RemoteEnv("toy", url=live.url)
        assert info.value.status == 503 and info.value.hint

        async def plain() -> None:
            async with client(live.mcp("/toy")) as c:
                with pytest.raises(MCPError) as err:
                    await c.call_tool("get_wallet", {"wallet_id": "W-10001"})
                assert err.value.error.data["code"] == "pool_full"

        run(plain())
        a.close()
        with RemoteEnv("toy", url=live.url) as c:   # room again once an episode is closed
            assert c.call("get_wallet", {"wallet_id": "W-10001"}).ok
        b.close()
        assert live.control().stats()["refused"] == 2
