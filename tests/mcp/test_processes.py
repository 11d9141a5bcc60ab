"""Subprocesses: a stdio round trip, worker processes with episode affinity, and TTL reaping
after a client vanishes. Every process started here is stopped, whatever happens."""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys

import httpx2
from mcp import Client, StdioServerParameters

from prove.mcp import ControlClient, RemoteEnv, shard
from prove.mcp.remote import new_id

from .conftest import PROVE, ROOT, WAIT, running, stop_group, subprocess_server, wait_for
from .helpers import run

CLIENT = """
import asyncio, sys
from mcp import Client

async def main():
    async with Client(sys.argv[1]) as c:
        r = await c.call_tool("rename", {"wallet_id": "T-10001", "label": "abandoned"})
        assert not r.is_error
        print("ready", flush=True)
        await asyncio.sleep(3600)          # vanish mid-episode: the test kills this process

asyncio.run(main())
"""


def test_stdio_round_trip() -> None:
    params = StdioServerParameters(
        command=sys.executable, args=[*PROVE[1:], "serve", "twin", "--stdio", "--world", "2",
                                      "--load", "tests.mcp.servers:all_test_servers"],
        cwd=str(ROOT), env={**os.environ, "PYTHONPATH": str(ROOT)})

    async def scenario() -> None:
        async with Client(params) as c:
            tools = {t.name: t for t in (await c.list_tools()).tools}
            assert set(tools) == {"get_wallet", "rename"}
            assert tools["get_wallet"].annotations.read_only_hint is True
            r = await c.call_tool("rename", {"wallet_id": "T-10002", "label": "over stdio"})
            assert r.structured_content == {"renamed": 1}
            r = await c.call_tool("get_wallet", {"wallet_id": "T-10002"})
            assert r.structured_content == {"wallet_id": "T-10002", "label": "over stdio"}, "the process is one episode"
            r = await c.call_tool("get_wallet", {"wallet_id": 3})
            assert r.is_error and r.structured_content["error"]["code"] == "invalid_arguments"

    run(scenario(), timeout=WAIT * 2)


def test_ttl_reaps_the_episode_of_a_client_that_vanished() -> None:
    with running(servers=("twin",), idle_ttl=1.0, reap_interval=0.2) as live:
        control = live.control()
        proc = subprocess.Popen([sys.executable, "-c", CLIENT, live.mcp("/twin")], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            ready, _, _ = select.select([proc.stdout], [], [], WAIT)
            assert ready and proc.stdout.readline().strip() == b"ready", "the client did not start its episode"
            (sid,) = control.sessions()
            assert control.stats()["live"] == 1
            proc.kill()                       # no DELETE, no goodbye
            proc.wait(WAIT)
        finally:
            stop_group(proc)
        stats = wait_for(lambda: (s := control.stats())["live"] == 0 and s, "the episode to be reaped")
        assert stats["reaped"] == 1 and stats["closed"] == 0
        # The MCP session is gone too: its ID now answers 404, and the episode is not revived.
        wait_for(lambda: httpx2.post(live.mcp("/twin"), json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                                     headers={"mcp-session-id": sid, "accept": "application/json, text/event-stream",
                                              "mcp-protocol-version": "2025-11-25"}).status_code == 404,
                 "the MCP session to expire")
        assert sid not in control.sessions()


def test_workers_shard_episodes_by_id() -> None:
    with subprocess_server("toy", "twin", "--workers", "2", ports=2) as (proc, urls):
        assert [ControlClient(u).health()["worker"] for u in urls] == [0, 1]
        envs = [RemoteEnv("twin", url=urls, session_id=new_id(urls, i % 2)) for i in range(4)]
        for env in envs:
            assert env.url == urls[shard(env.id, 2)]
            assert env.call("rename", {"wallet_id": "T-10001", "label": env.id[:6]}).ok
        by_worker = [set(ControlClient(u).sessions()) for u in urls]
        assert by_worker[0] == {e.id for e in envs if e.url == urls[0]} and all(by_worker)
        child = envs[1].fork()
        assert child.url == envs[1].url and shard(child.id, 2) == shard(envs[1].id, 2)
        assert child.call("get_wallet", {"wallet_id": "T-10001"}).data["label"] == envs[1].id[:6]
        attached = RemoteEnv.attach(envs[2].id, url=urls)
        assert attached.fingerprint() == envs[2].fingerprint()
        # The launcher stops its workers on SIGTERM.
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(WAIT)
        for url in urls:
            port = httpx2.URL(url).port

            def closed(port: int = port) -> bool:
                with socket.socket() as s:
                    return s.connect_ex(("127.0.0.1", port)) != 0

            wait_for(closed, f"worker on port {port} to stop")
