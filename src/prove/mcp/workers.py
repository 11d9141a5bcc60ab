"""Several serving processes on consecutive ports, one per core, with episode affinity.

Worker `i` listens on `port + i` and owns the episodes whose IDs hash to `i` (`remote.shard`);
`RemoteEnv(url=[...every worker...])` places episodes and forks accordingly, so no request ever
has to cross processes. The launcher restarts a worker that dies (its episodes are lost and
answer `unknown_session`) and stops them all on SIGINT or SIGTERM; a worker whose launcher dies
(`kill -9` included) exits at once, so no worker outlives it and a restart finds its ports free.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence

from .config import ServeConfig

log = logging.getLogger("prove.mcp")
TOKEN_ENV = "PROVE_TOKEN"
_RESTART_LIMIT = 5


def worker_command(config: ServeConfig, index: int, loads: Sequence[str]) -> list[str]:
    spec = dataclasses.asdict(dataclasses.replace(config, worker=index, port=config.port + index, token=None))
    spec["servers"] = list(config.servers)
    return [sys.executable, "-m", "prove.mcp.worker",
            json.dumps({"config": spec, "loads": list(loads), "launcher": os.getpid()})]


def run_workers(config: ServeConfig, loads: Sequence[str] = ()) -> int:
    """Run `config.workers` worker processes until interrupted; returns the exit status."""
    env = dict(os.environ)
    if config.token:
        env[TOKEN_ENV] = config.token      # through the environment, never on a command line
    procs: dict[int, subprocess.Popen[bytes]] = {}
    restarts = dict.fromkeys(range(config.workers), 0)
    stopping = False

    def start(i: int) -> None:
        procs[i] = subprocess.Popen(worker_command(config, i, loads), env=env)

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        for i in range(config.workers):
            start(i)
        while not stopping:
            time.sleep(0.2)
            for i, proc in list(procs.items()):
                code = proc.poll()
                if code is None or stopping:
                    continue
                if restarts[i] >= _RESTART_LIMIT:
                    log.error("worker %d exited with %s %d times; giving up", i, code, restarts[i] + 1)
                    stopping = True
                    break
                restarts[i] += 1
                print(f"prove serve: worker {i} exited with {code}; restarting it", file=sys.stderr)
                start(i)
        return 0 if all(n < _RESTART_LIMIT for n in restarts.values()) else 1
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 10
        for proc in procs.values():
            try:
                proc.wait(max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
