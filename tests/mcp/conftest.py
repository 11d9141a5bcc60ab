"""Real servers on ephemeral loopback ports, in a thread of the test process or in subprocesses."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvicorn

from prove.env import Server, ToolDefinitionError, registry
from prove.mcp import ControlClient, ServeApp, ServeConfig
from prove.mcp.app import uvicorn_config

from ..env.toy import make_server
from .servers import make_slow_server, make_twin_server

ROOT = Path(__file__).resolve().parents[2]
PROVE = [sys.executable, "-c", "from prove.cli import main; main()"]
WAIT = 30.0   # seconds: the bound on every wait for a server or a condition


def loadable() -> list[str]:
    """Registered servers that load (a broken one is reported by tests/env's conformance suite)."""
    names = []
    for name in registry.names():
        try:
            registry.get(name)
            names.append(name)
        except ToolDefinitionError:
            pass
    return names


@dataclass
class Live:
    """A running server: its base URL and, in-process, its app."""

    url: str
    app: ServeApp | None = None

    def mcp(self, path: str = "") -> str:
        return f"{self.url}/mcp{path}"

    def control(self, token: str | None = None) -> ControlClient:
        return ControlClient(self.url, token=token)


def register_test_servers() -> list[Server]:
    servers = [make_server(), make_twin_server(), make_slow_server()]
    for server in servers:
        registry.register(server, replace=True)
    return servers


@contextmanager
def running(**options: object) -> Iterator[Live]:
    """`prove serve` in a thread of this process, on an ephemeral loopback port."""
    added = [s.name for s in register_test_servers()]
    try:
        app = ServeApp(ServeConfig(port=0, **options))  # type: ignore[arg-type]
        server = uvicorn.Server(uvicorn_config(app, port=0, timeout_graceful_shutdown=2))
        thread = threading.Thread(target=server.run, name="prove-serve-test", daemon=True)
        thread.start()
        deadline = time.monotonic() + WAIT
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        port = server.servers[0].sockets[0].getsockname()[1]
        try:
            yield Live(f"http://127.0.0.1:{port}", app)
        finally:
            server.should_exit = True
            thread.join(WAIT)
    finally:
        for name in added:
            registry.unregister(name)


def wait_for(condition, what: str, timeout: float = WAIT, every: float = 0.05):  # noqa: ANN001, ANN201
    """Poll `condition()` until it is truthy (returned) or fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout}s waiting for {what}")
        time.sleep(every)


@contextmanager
def subprocess_server(*args: str, ports: int = 1) -> Iterator[tuple[subprocess.Popen[bytes], list[str]]]:
    """`prove serve ARGS` in its own process group (always stopped, with its workers)."""
    from prove.mcp.remote import worker_urls

    port = free_ports(ports)
    cmd = [*PROVE, "serve", *args, "--port", str(port), "--load", "tests.mcp.servers:all_test_servers"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    urls = worker_urls(f"http://127.0.0.1:{port}", ports)
    try:
        for url in urls:
            client = ControlClient(url, timeout=2)

            def up(client: ControlClient = client) -> bool:
                if proc.poll() is not None:
                    pytest.fail(f"prove serve exited with {proc.returncode}: {proc.stderr.read().decode()[-2000:]}")
                try:
                    return client.health()["status"] == "ok"
                except Exception:  # noqa: BLE001 - not listening yet
                    return False

            wait_for(up, f"prove serve at {url}", every=0.1)
            client.close()
        yield proc, urls
    finally:
        stop_group(proc)


def stop_group(proc: subprocess.Popen[bytes]) -> None:
    """Stop a process and everything in its process group, gently first."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)     # any worker left behind
    except ProcessLookupError:
        pass
    if proc.poll() is None:
        proc.wait(5)
    if proc.stderr is not None:
        proc.stderr.close()


def free_ports(n: int) -> int:
    """A base port with `n` consecutive free loopback ports."""
    import socket

    for _ in range(200):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            base = s.getsockname()[1]
        if base + n > 65535:
            continue
        try:
            for i in range(1, n):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", base + i))
            return base
        except OSError:
            continue
    raise RuntimeError("no free consecutive ports")


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    """One server for a whole test module: every loadable server plus the test servers."""
    with running(servers=tuple(loadable()) + ("toy", "twin", "slow"), call_timeout=5.0) as server:
        yield server
