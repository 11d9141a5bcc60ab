"""MCP serving benchmark: `prove serve` against a bare `MCPServer`, side by side in one run.

Prints JSON. Every server serves the same trivial tool (`echo(text) -> text`, a plain `def`, so
the SDK runs it on a worker thread as PROVE runs its tools), streamable HTTP with JSON
responses, and each runs in its own process:

- `bare` vs `prove` (MCP sessions): every episode is one MCP session (`initialize`, then
  `Mcp-Session-Id`); for PROVE that is the plain client's binding, a fresh world per session.
- `bare_stateless` vs `prove_stateless` (the 2026-07-28 wire, one self-contained POST per call):
  PROVE's episodes are made on the control plane and bound per call with `X-Prove-Session`
  (the RL client's path, `prove serve --stateless`).
- `prove_2_workers`: `prove serve --stateless --workers 2`, episodes on the worker their ID
  hashes to, against `prove_stateless` (one worker).

For each, calls/s and p50/p99 latency (ms) with 1, 32 and 256 concurrent episodes (one
keep-alive connection each), and the server processes' CPU per call. Points are measured in
interleaved rounds (the median is kept), so that load from elsewhere on the machine hits both
sides alike. `ratio_prove_to_bare` is the throughput ratio (target >= 0.85: the transport must
be the limit, not PROVE's layer); `cpu_efficiency_*` is bare CPU per call over PROVE's (1.0 =
as cheap). `in_process` isolates the layer itself: microseconds per call through the SDK's
in-process client, bare `MCPServer` against PROVE's endpoint, no HTTP.

The load generator is a lean raw-socket HTTP/1.1 client in this process. On a 2-core machine
the client and the servers share the cores: absolute figures are low, the 2-worker speedup is
bounded, and a busy machine makes single points noisy; compare the ratios and CPU per call.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script: never let this file shadow the `mcp` package
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import asyncio
import json
import os
import platform
import socket
import subprocess
import tempfile
import time
from contextlib import ExitStack, contextmanager
from typing import Any, NamedTuple

from prove.env import READ, Ctx, Server
from prove.mcp.remote import new_id

HOST = "127.0.0.1"
PROTOCOL = "2025-11-25"
MODERN = "2026-07-28"
CONCURRENCY = (1, 32, 256)
TARGET_RATIO = 0.85
REQUEST_TIMEOUT = 30.0

BARE_SERVER = """
import sys, uvicorn
from mcp.server import MCPServer
mcp = MCPServer("bare")

@mcp.tool()
def echo(text: str) -> str:
    \"\"\"Return the text unchanged.\"\"\"
    return text

app = mcp.streamable_http_app(json_response=True, stateless_http=sys.argv[2] == "stateless", max_sessions=100_000)
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", access_log=False, backlog=4096)
"""


def make_bench_server() -> Server:
    """A one-tool PROVE server doing the same trivial work as the bare SDK's tool."""
    server = Server("bench", "Bench", "A one-tool server for transport benchmarks: it echoes text back.",
                    schema="CREATE TABLE notes (note_id TEXT PRIMARY KEY, text TEXT NOT NULL);",
                    world=lambda w: {"notes": [{"note_id": w.new_id("N"), "text": "hello"}]})

    @server.tool(effect=READ, asks=["Echo {text}.", "Say {text} back to me."])
    def echo(ctx: Ctx, text: str) -> str:
        """Return the text unchanged.

        Args:
            text: any short text, such as 'hi'.

        Returns:
            The same text.
        """
        return text

    return server


# ----- the load generator ----------------------------------------------------------------------


class Conn:
    """One keep-alive HTTP/1.1 connection speaking just enough HTTP for JSON-RPC POSTs."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, port: int) -> None:
        self.reader, self.writer, self.port = reader, writer, port

    @classmethod
    async def open(cls, port: int) -> Conn:
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return cls(reader, writer, port)

    async def request(self, method: str, path: str, body: Any = None,
                      headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        return await asyncio.wait_for(self._request(method, path, body, headers), REQUEST_TIMEOUT)

    async def _request(self, method: str, path: str, body: Any,
                       headers: dict[str, str] | None) -> tuple[int, dict[str, str], bytes]:
        data = b"" if body is None else json.dumps(body).encode()
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        self.writer.write(
            f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\nContent-Type: application/json\r\n"
            f"Accept: application/json, text/event-stream\r\nContent-Length: {len(data)}\r\n{extra}\r\n".encode()
            + data)
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        hdrs = {}
        for line in lines[1:]:
            if ":" in line:
                key, value = line.split(":", 1)
                hdrs[key.strip().lower()] = value.strip()
        if hdrs.get("transfer-encoding") == "chunked":
            payload = b""
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                payload += chunk[:-2]
        else:
            n = int(hdrs.get("content-length", "0"))
            payload = await self.reader.readexactly(n) if n else b""
        return status, hdrs, payload

    def close(self) -> None:
        self.writer.close()


async def _episode(target: Target, index: int, ready: list[int], stop: asyncio.Event, started: asyncio.Event,
                   samples: list[float], errors: list[str]) -> None:
    """One episode on one keep-alive connection: open it, then call `echo` until told to stop."""
    worker = index % len(target.ports)
    conn = await Conn.open(target.ports[worker])
    params: dict[str, Any] = {"name": "echo", "arguments": {"text": "hi"}}
    if target.wire == "session":
        headers = {"mcp-protocol-version": PROTOCOL}
        status, hdrs, body = await conn.request("POST", target.path, {
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": PROTOCOL, "capabilities": {},
                       "clientInfo": {"name": "bench", "version": "1"}}})
        if status != 200 or "mcp-session-id" not in hdrs:
            raise RuntimeError(f"initialize answered {status}: {body[:200]!r}")
        headers["mcp-session-id"] = hdrs["mcp-session-id"]
        await conn.request("POST", target.path, {"jsonrpc": "2.0", "method": "notifications/initialized"}, headers)
    else:  # the 2026 wire: one self-contained POST per call, the envelope in _meta
        headers = {"mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "echo"}
        params["_meta"] = {"io.modelcontextprotocol/protocolVersion": MODERN,
                           "io.modelcontextprotocol/clientCapabilities": {}}
        if target.bind:  # an episode from the control plane, on the worker its ID hashes to
            session_id = new_id([str(p) for p in target.ports], worker if len(target.ports) > 1 else None)
            status, _, body = await conn.request("POST", "/v1/sessions",
                                                 {"servers": ["bench"], "world": 0, "session_id": session_id})
            if status != 201:
                raise RuntimeError(f"control plane answered {status}: {body[:200]!r}")
            headers["x-prove-session"] = session_id
    ready.append(1)
    try:
        await started.wait()
        call_id = 1
        while not stop.is_set():
            payload = {"jsonrpc": "2.0", "id": call_id, "method": "tools/call", "params": params}
            t0 = time.perf_counter()
            status, _, body = await conn.request("POST", target.path, payload, headers)
            samples.append(time.perf_counter() - t0)
            if status != 200 or b'"isError":true' in body or b'"error"' in body[:40]:
                errors.append(f"{status} {body[:160]!r}")
            call_id += 1
        if target.wire == "session":
            await conn.request("DELETE", target.path, None, headers)
        elif target.bind:
            await conn.request("DELETE", f"/v1/sessions/{headers['x-prove-session']}")
    finally:
        conn.close()


class Target(NamedTuple):
    """A server under test and how its clients talk to it (a NamedTuple: this file is loaded
    without a module entry, which dataclasses need)."""

    cmd: list[str]
    ports: list[int]
    path: str
    wire: str            # "session" (initialize, Mcp-Session-Id) or "modern" (the 2026 per-request wire)
    bind: bool = False   # create each episode on the control plane and bind calls to it


async def _measure(target: Target, concurrency: int, seconds: float, warmup: float,
                   pid: int | None = None) -> dict[str, Any]:
    stop, started = asyncio.Event(), asyncio.Event()
    samples: list[float] = []
    errors: list[str] = []
    ready: list[int] = []
    tasks = [asyncio.create_task(_episode(target, i, ready, stop, started, samples, errors))
             for i in range(concurrency)]
    # Open every episode first (initialize, or create on the control plane), then start the clock.
    deadline = time.monotonic() + 120
    while len(ready) + sum(t.done() for t in tasks) < concurrency and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    started.set()
    await asyncio.sleep(warmup)
    cpu0 = _cpu_seconds(pid) if pid else None
    first, t0 = len(samples), time.perf_counter()
    await asyncio.sleep(seconds)
    last, t1 = len(samples), time.perf_counter()
    cpu1 = _cpu_seconds(pid) if pid else None
    stop.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failures = [repr(r) for r in results if isinstance(r, BaseException)]
    window = sorted(samples[first:last])
    if not window:
        return {"concurrency": concurrency, "calls_per_s": 0, "errors": len(errors), "failures": failures[:3]}
    return {
        "concurrency": concurrency,
        "calls_per_s": round((last - first) / (t1 - t0), 1),
        "p50_ms": round(window[len(window) // 2] * 1000, 3),
        "p99_ms": round(window[min(len(window) - 1, int(len(window) * 0.99))] * 1000, 3),
        "calls": last - first,
        # The servers' CPU per call: far less sensitive than calls/s to other load on the machine.
        **({"server_cpu_us_per_call": round((cpu1 - cpu0) / (last - first) * 1e6, 1)}
           if cpu0 is not None and cpu1 is not None else {}),
        "errors": len(errors),
        **({"first_error": errors[0]} if errors else {}),
        **({"failures": failures[:3]} if failures else {}),
    }


def _cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) used so far by a process and its children (Linux /proc)."""
    try:
        pids = [pid] + [int(d) for d in os.listdir("/proc") if d.isdigit() and _parent(int(d)) == pid]
        total = 0
        for one in pids:
            with open(f"/proc/{one}/stat") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        return total / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return int(fh.read().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


# ----- the servers -----------------------------------------------------------------------------


def _free_ports(n: int) -> int:
    """A base port with `n` consecutive free ports after it."""
    for _ in range(100):
        with socket.socket() as s:
            s.bind((HOST, 0))
            base = s.getsockname()[1]
        if base + n > 65535:
            continue
        try:
            for i in range(1, n):
                with socket.socket() as s:
                    s.bind((HOST, base + i))
            return base
        except OSError:
            continue
    raise RuntimeError("no free consecutive ports")


def _wait_ready(ports: list[int], proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    for port in ports:
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited with {proc.returncode}")
            try:
                with socket.create_connection((HOST, port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"server on port {port} not ready after {timeout}s") from None
                time.sleep(0.1)


@contextmanager
def _server(cmd: list[str], ports: list[int]):  # noqa: ANN202 - a context manager of nothing
    # The server's log goes to a file: a pipe nobody reads fills up and blocks the server.
    with tempfile.TemporaryFile() as logfile:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=logfile, start_new_session=True)
        try:
            try:
                _wait_ready(ports, proc)
            except RuntimeError:
                logfile.seek(0)
                sys.stderr.write(logfile.read()[-4000:].decode(errors="replace"))
                raise
            time.sleep(0.3)
            yield proc
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


def _prove_cmd(port: int, *extra: str, server: str = "bench") -> list[str]:
    return [sys.executable, "-c", "from prove.cli import main; main()", "serve", server, "--port", str(port),
            "--load", f"{Path(__file__).resolve()}:make_bench_server", "--max-sessions", "4096",
            "--log-level", "error", *extra]


async def _layer_cost(blocks: int, calls: int = 50) -> dict[str, Any]:
    """Microseconds per `tools/call` through the SDK's in-process client (no HTTP): the bare
    `MCPServer` against PROVE's endpoint (binding, episode gate, worker thread, Session.call,
    result). Many short blocks alternate between the two, and medians are kept, which shrugs
    off bursts of other load on the machine."""
    import statistics

    from mcp import Client
    from mcp.server import MCPServer

    from prove.env import registry
    from prove.mcp import Episodes, ServeConfig
    from prove.mcp.endpoint import Endpoint

    bare = MCPServer("bare")

    @bare.tool()
    def echo(text: str) -> str:
        """Return the text unchanged."""
        return text

    registry.register(make_bench_server(), replace=True)
    config = ServeConfig(servers=("bench",), port=0).checked()
    per_call: dict[str, list[float]] = {"bare": [], "prove": []}
    async with Episodes(config) as episodes:
        session = await episodes.create(["bench"])
        endpoint = Endpoint(episodes, episodes.servers["bench"], sessions="explicit")
        meta = {"prove/session": session.id}
        async with Client(bare) as bare_client, Client(endpoint.server) as prove_client:
            sides = [("bare", bare_client, {}), ("prove", prove_client, {"meta": meta})]
            for _ in range(20):
                for _, client, kw in sides:
                    await client.call_tool("echo", {"text": "hi"}, **kw)
            for block in range(blocks):
                for name, client, kw in sides if block % 2 == 0 else sides[::-1]:
                    t0 = time.perf_counter()
                    for _ in range(calls):
                        result = await client.call_tool("echo", {"text": "hi"}, **kw)
                    per_call[name].append((time.perf_counter() - t0) / calls * 1e6)
                    assert not result.is_error, result
    bare_us, prove_us = statistics.median(per_call["bare"]), statistics.median(per_call["prove"])
    ratios = [b / p for b, p in zip(per_call["bare"], per_call["prove"])]
    return {"bare_us_per_call": round(bare_us, 1), "prove_us_per_call": round(prove_us, 1),
            "prove_overhead_us": round(prove_us - bare_us, 1),
            "efficiency_prove_vs_bare": round(statistics.median(ratios), 3)}


def _median(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The round with the median throughput (its latencies come with it), and the median CPU per call."""
    ranked = sorted(rows, key=lambda r: r["calls_per_s"])
    out = {**ranked[len(ranked) // 2], "rounds": [r["calls_per_s"] for r in rows]}
    cpu = sorted(r["server_cpu_us_per_call"] for r in rows if "server_cpu_us_per_call" in r)
    if cpu:
        out["server_cpu_us_per_call"] = cpu[len(cpu) // 2]
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="prove bench mcp", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="measured seconds per point")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds per point (the median is kept)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 1 round of 1 s per point")
    args = parser.parse_args(argv)
    seconds, warmup, rounds = (1.0, 0.3, 1) if args.quick else (args.seconds, 1.0, max(1, args.rounds))
    levels = CONCURRENCY
    layer = asyncio.run(_layer_cost(6 if args.quick else 30))
    print(f"  in-process layer cost: {layer}", file=sys.stderr)
    p = {name: _free_ports(2) for name in ("bare", "prove", "bare_stateless", "prove_stateless", "prove_2_workers")}
    targets = {
        "bare": Target([sys.executable, "-c", BARE_SERVER, str(p["bare"]), "stateful"], [p["bare"]], "/mcp", "session"),
        "prove": Target(_prove_cmd(p["prove"]), [p["prove"]], "/mcp/bench", "session"),
        "bare_stateless": Target([sys.executable, "-c", BARE_SERVER, str(p["bare_stateless"]), "stateless"],
                                 [p["bare_stateless"]], "/mcp", "modern"),
        "prove_stateless": Target(_prove_cmd(p["prove_stateless"], "--stateless"), [p["prove_stateless"]],
                                  "/mcp/bench", "modern", bind=True),
        "prove_2_workers": Target(_prove_cmd(p["prove_2_workers"], "--stateless", "--workers", "2"),
                                  [p["prove_2_workers"], p["prove_2_workers"] + 1], "/mcp/bench", "modern", bind=True),
    }
    plan = [("bare", levels), ("prove", levels), ("bare_stateless", levels), ("prove_stateless", levels),
            ("prove_2_workers", levels[1:])]
    raw: dict[str, dict[int, list[dict[str, Any]]]] = {name: {c: [] for c in lv} for name, lv in plan}
    with ExitStack() as stack:
        pids = {name: stack.enter_context(_server(target.cmd, target.ports)).pid   # all up, idle unless measured
                for name, target in targets.items()}
        for level in levels:
            for r in range(rounds):
                # Alternate the order each round, so neither side always runs first.
                order = [n for n, lv in plan if level in lv]
                for name in order if r % 2 == 0 else order[::-1]:
                    row = asyncio.run(_measure(targets[name], level, seconds, warmup, pids[name]))
                    print(f"  {name:>16} c={level:<4} {row['calls_per_s']:>8} calls/s  p50 {row.get('p50_ms')} ms  "
                          f"p99 {row.get('p99_ms')} ms  cpu/call {row.get('server_cpu_us_per_call')} us  "
                          f"errors {row['errors']}", file=sys.stderr)
                    raw[name][level].append(row)
    results = {name: [_median(raw[name][c]) for c in lv] for name, lv in plan}
    by_level = {name: {r["concurrency"]: r for r in rows} for name, rows in results.items()}

    def ratio(a: str, b: str, lv: tuple[int, ...]) -> dict[str, float]:
        return {str(c): round(by_level[a][c]["calls_per_s"] / max(by_level[b][c]["calls_per_s"], 1e-9), 3) for c in lv}

    def cpu_ratio(a: str, b: str, lv: tuple[int, ...]) -> dict[str, float]:
        """b's CPU per call over a's: PROVE's share of the bare SDK's efficiency (1.0 = as cheap)."""
        key = "server_cpu_us_per_call"
        return {str(c): round(by_level[b][c][key] / by_level[a][c][key], 3)
                for c in lv if by_level[a][c].get(key) and by_level[b][c].get(key)}

    report = {
        "benchmark": "mcp",
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform(),
                    "load_average": [round(x, 2) for x in os.getloadavg()]},
        "seconds_per_point": seconds,
        "rounds": rounds,
        "tool": "echo(text) -> text, one tools/call per HTTP request, JSON responses",
        "in_process": layer,
        "results": results,
        "ratio_prove_to_bare": ratio("prove", "bare", levels),
        "target_ratio": TARGET_RATIO,
        "meets_target": all(v >= TARGET_RATIO for pair in (("prove", "bare"), ("prove_stateless", "bare_stateless"))
                            for v in ratio(*pair, levels).values()),
        "ratio_stateless_to_bare_stateless": ratio("prove_stateless", "bare_stateless", levels),
        "cpu_efficiency_prove_vs_bare": cpu_ratio("prove", "bare", levels),
        "cpu_efficiency_stateless_vs_bare_stateless": cpu_ratio("prove_stateless", "bare_stateless", levels),
        "workers_speedup_2_to_1": ratio("prove_2_workers", "prove_stateless", levels[1:]),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
