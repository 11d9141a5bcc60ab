"""`kill -9` faults with real processes: no worker outlives its launcher, a killed worker is
replaced, and a restarted launcher gets its ports at once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from prove.mcp import ControlClient
from prove.mcp.remote import worker_urls

from .conftest import PROVE, ROOT, stop_group, wait_for

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists() or sys.platform != "linux",
                                reason="finds child processes through /proc")


def children(pid: int) -> set[int]:
    """Live processes whose parent is `pid` (zombies excluded)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            state, ppid = stat.rsplit(")", 1)[1].split()[:2]
            if int(ppid) == pid and state != "Z":
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def launch(port: int) -> subprocess.Popen[bytes]:
    cmd = [*PROVE, "serve", "toy", "--workers", "2", "--port", str(port), "--load", "tests.mcp.servers:all_test_servers"]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})


def healthy(urls: list[str]) -> bool:
    for url in urls:
        client = ControlClient(url, timeout=2)
        try:
            if client.health()["status"] != "ok":
                return False
        except Exception:  # noqa: BLE001 - not listening (yet)
            return False
        finally:
            client.close()
    return True


def test_kill_9_of_the_launcher_leaves_no_worker_and_a_restart_works_at_once() -> None:
    from .conftest import free_ports

    port = free_ports(2)
    urls = worker_urls(f"http://127.0.0.1:{port}", 2)
    first = launch(port)
    try:
        wait_for(lambda: healthy(urls), "the first launcher's workers")
        workers = children(first.pid)
        assert len(workers) == 2
        os.kill(first.pid, signal.SIGKILL)
        first.wait(10)
        wait_for(lambda: not any(alive(w) for w in workers), "the orphaned workers to exit")
        second = launch(port)
        try:
            wait_for(lambda: healthy(urls), "the restarted launcher's workers")
            # A worker killed with -9 is replaced by its launcher, on the same port.
            victim = min(children(second.pid))
            os.kill(victim, signal.SIGKILL)
            wait_for(lambda: victim not in children(second.pid) and len(children(second.pid)) == 2,
                     "the launcher to replace the killed worker")
            wait_for(lambda: healthy(urls), "the replacement worker")
        finally:
            stop_group(second)
    finally:
        stop_group(first)
