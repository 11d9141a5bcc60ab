"""Ray benchmark: episode throughput in-process, on `prove serve --workers 2` and on a Ray pool, side by
side in one run; synthesis examples/s with 1 and 2 Ray workers.

Prints JSON. Two parts:

1. **Episodes**: `concurrency` episodes at once (one thread each, as the rollout runner drives
   them), each on a fresh banking world, calling `get_account` for `seconds`: calls/s and p50/p99
   latency (ms) for in-process `Session`s, `RemoteEnv` on `prove serve --workers 2` (control plane,
   episodes sharded by ID over the two worker processes) and `RayEnv` on a `RayEnvPool` of 2 actors.
   Points are measured in interleaved rounds (the median is kept), so that load from elsewhere
   hits every side alike.
2. **Synthesis**: `prove synth` of `n` examples over every server, in this process (the reference)
   and with 1 and 2 Ray workers (`RayShards`): examples/s, and whether each dataset's sha256
   equals the local one's (it must).

Ray joins the cluster at `--address`, or starts a local instance with this machine's CPUs
(no dashboard). On a 2-core machine the driver, the servers and the actors share the cores: the
figures show what each path costs, not how it scales on a cluster.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":  # run as a script: never let this file shadow the `ray` package
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import hashlib
import json
import logging
import os
import platform
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from prove.env import Session
from prove.mcp import ControlClient, RemoteEnv
from prove.mcp.remote import worker_urls
from prove.synth import SynthConfig, run

HOST = "127.0.0.1"
Opener = Callable[[list[str], int], Any]


def _episodes(open_env: Opener, concurrency: int, seconds: float) -> dict[str, Any]:
    """`concurrency` episodes calling a read tool until the time is up: calls/s and latency."""
    start = threading.Barrier(concurrency + 1)
    stop = threading.Event()
    latencies: list[list[float]] = [[] for _ in range(concurrency)]
    errors: list[str] = []

    def one(k: int) -> None:
        try:
            env = open_env(["banking"], k % 4)
        except Exception as exc:  # noqa: BLE001 - reported, not raised from a thread
            errors.append(f"{type(exc).__name__}: {exc}")
            start.wait()
            return
        try:
            account = env.call("list_accounts", {}).data["accounts"][0]["account_id"]
            start.wait()
            while not stop.is_set():
                t = time.perf_counter()
                if not env.call("get_account", {"account_id": account}).ok:
                    errors.append("a call failed")
                latencies[k].append(time.perf_counter() - t)
        finally:
            env.close()

    threads = [threading.Thread(target=one, args=(k,), daemon=True) for k in range(concurrency)]
    for t in threads:
        t.start()
    start.wait()
    began = time.perf_counter()
    time.sleep(seconds)
    stop.set()
    elapsed = time.perf_counter() - began
    for t in threads:
        t.join(60)
    flat = sorted(x for xs in latencies for x in xs)
    if not flat:
        return {"calls_per_s": 0.0, "errors": errors[:3]}
    return {"calls_per_s": round(len(flat) / elapsed, 1), "p50_ms": round(flat[len(flat) // 2] * 1000, 3),
            "p99_ms": round(flat[min(len(flat) - 1, int(len(flat) * 0.99))] * 1000, 3), "calls": len(flat),
            "errors": len(errors)}


def _free_base(n: int) -> int:
    """A base port with `n` consecutive free ports."""
    for _ in range(100):
        with socket.socket() as s:
            s.bind((HOST, 0))
            base = s.getsockname()[1]
        try:
            for i in range(1, n):
                with socket.socket() as s:
                    s.bind((HOST, base + i))
            return base
        except OSError:
            continue
    raise RuntimeError("no free consecutive ports")


@contextmanager
def _serve(workers: int) -> Iterator[list[str]]:
    """`prove serve banking --workers N` in a subprocess; the workers' URLs once every one answers."""
    port = _free_base(workers)
    urls = worker_urls(f"http://{HOST}:{port}", workers)
    cmd = [sys.executable, "-c", "from prove.cli import main; main()", "serve", "banking", "--port", str(port),
           "--workers", str(workers), "--max-sessions", "4096", "--log-level", "error"]
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
        try:
            deadline = time.monotonic() + 90
            for url in urls:
                client = ControlClient(url, timeout=2)
                try:
                    while True:
                        if proc.poll() is not None:
                            log.seek(0)
                            raise RuntimeError(f"prove serve exited: {log.read()[-2000:].decode(errors='replace')}")
                        try:
                            client.health()
                            break
                        except Exception:  # noqa: BLE001 - not up yet
                            if time.monotonic() > deadline:
                                raise RuntimeError("prove serve did not start") from None
                            time.sleep(0.2)
                finally:
                    client.close()
            yield urls
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _synth(n: int, out: Path, **kw: Any) -> tuple[float, str]:
    started = time.perf_counter()
    summary = run(SynthConfig(n=n, seed=5), out, cache_dir=out / "cache", **kw)
    seconds = time.perf_counter() - started
    digest = hashlib.sha256((out / "dataset.jsonl").read_bytes()).hexdigest()
    return round(summary.accepted / seconds, 1), digest


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", default=None, help="Ray cluster to join (default: a local instance)")
    parser.add_argument("--seconds", type=float, default=3.0, help="measured seconds per point")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds per point (median kept)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 32], help="episodes at once")
    parser.add_argument("--n", type=int, default=600, help="examples of the synthesis part")
    parser.add_argument("--quick", action="store_true", help="a smoke run: short points, few examples")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.rounds, args.n = 1.0, 1, 120
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")     # a local instance of this benchmark only
    import ray

    from prove.integrations.ray import RayEnvPool, RayShards

    logging.getLogger("prove.env").setLevel(logging.CRITICAL)
    if args.address:
        ray.init(address=args.address, log_to_driver=False)
    else:
        ray.init(include_dashboard=False, log_to_driver=False)
    result: dict[str, Any] = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                                          "ray": ray.__version__, "cluster_cpus": ray.cluster_resources().get("CPU")},
                              "settings": {"seconds": args.seconds, "rounds": args.rounds,
                                           "concurrency": args.concurrency, "n": args.n}}
    try:
        with _serve(2) as urls, RayEnvPool(2, num_cpus=0.5, max_sessions=4096) as pool:
            def remote(servers: list[str], world: int) -> RemoteEnv:
                return RemoteEnv(servers, world, url=urls)

            sides: dict[str, Opener] = {
                "in_process": lambda servers, world: Session(servers, world=world, timeout=10.0),
                "prove_serve_2_workers": remote,
                "ray_pool_2_actors": pool.open,
            }
            points: dict[str, dict[int, list[dict[str, Any]]]] = {s: {c: [] for c in args.concurrency} for s in sides}
            for _ in range(args.rounds):
                for c in args.concurrency:
                    for side, opener in sides.items():
                        points[side][c].append(_episodes(opener, c, args.seconds))
            episodes: dict[str, Any] = {}
            for side, by_c in points.items():
                episodes[side] = {}
                for c, rows in by_c.items():
                    rate = statistics.median(r["calls_per_s"] for r in rows)
                    episodes[side][str(c)] = min(rows, key=lambda r: abs(r["calls_per_s"] - rate))
            result["episodes"] = episodes
            result["ray_actors"] = [{"slot": a["slot"], "node": a["node"][:12], "pid": a["pid"],
                                     "created": a["stats"]["created"]} for a in pool.actors()]
        with tempfile.TemporaryDirectory(prefix="prove-bench-ray-") as tmp:
            root = Path(tmp)
            local_rate, local_sha = _synth(args.n, root / "local")
            synth: dict[str, Any] = {"local_1_process": {"examples_per_s": local_rate}}
            for k in (1, 2):
                rate, digest = _synth(args.n, root / f"ray{k}", workers=k, runner=partial(RayShards))
                synth[f"ray_{k}_workers"] = {"examples_per_s": rate, "same_dataset": digest == local_sha}
            synth["dataset_sha256"] = local_sha
            result["synthesis"] = synth
    finally:
        ray.shutdown()
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
