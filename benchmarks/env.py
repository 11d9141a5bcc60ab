"""Environment benchmark: the cost of an episode's primitives on one server's world.

Prints JSON: median and p95 (microseconds) of session create, fork, fingerprint, a read call
and a write call through `Session.call` (validation and transaction included), a bare sqlite3
primary-key SELECT measured in the same run (the floor, for ratios), and resident-set growth
per session over N idle sessions.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sqlite3
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from prove.env import Session, registry

TARGETS_US = {"create": 200, "fork": 200, "read_call": 30, "write_call": 60}
TARGET_KB_PER_SESSION = 300

# A representative read (one entity by key) and a repeatable write per reference server.
CALLS: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {
    "banking": {"read": ("get_account", {"account_id": "{account}"}),
                "write": ("transfer_funds", {"from_account": "{account}", "to_account": "{account:1}",
                                             "amount": 0.01})},
    "calendar": {"read": ("get_event", {"event_id": "{event}"}),
                 "write": ("add_reminder", {"event_id": "{event}", "minutes_before": 10})},
}


def _timed(fn: Callable[[], Any], n: int, between: Callable[[int], None] | None = None) -> dict[str, float]:
    samples = []
    gc.disable()
    try:
        for i in range(n):
            if between is not None:
                between(i)
            t0 = time.perf_counter_ns()
            fn()
            samples.append(time.perf_counter_ns() - t0)
    finally:
        gc.enable()
    samples.sort()
    return {"median": round(statistics.median(samples) / 1000, 2),
            "p95": round(samples[int(0.95 * (len(samples) - 1))] / 1000, 2), "n": n}


def _rss_kb() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def _fill(args: dict[str, Any], ids: dict[str, list[str]]) -> dict[str, Any]:
    out = {}
    for key, value in args.items():
        if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
            kind, _, index = value[1:-1].partition(":")
            value = ids[kind][int(index or 0)]
        out[key] = value
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="prove bench env")
    parser.add_argument("--server", default="banking")
    parser.add_argument("--quick", action="store_true")
    opts = parser.parse_args(argv)
    n = 300 if opts.quick else 5000
    sessions_for_memory = 200 if opts.quick else 2000

    server = registry.get(opts.server)
    template = server.template(0)
    base = Session([server], world=0)
    ids = {kind.name: [r[0] for r in template.db.execute(
        f'SELECT "{kind.key}" FROM "{kind.table}" ORDER BY "{kind.key}" LIMIT 5')]
        for kind in server.entities.values()}
    calls = CALLS.get(opts.server)
    if calls is None:
        raise SystemExit(f"no representative calls defined for {opts.server!r}; add them to CALLS")
    read_name, read_args = calls["read"][0], _fill(calls["read"][1], ids)
    write_name, write_args = calls["write"][0], _fill(calls["write"][1], ids)
    for name, args in ((read_name, read_args), (write_name, write_args)):
        result = base.fork().call(name, args)
        if not result.ok:
            raise SystemExit(f"benchmark call {name}({args}) failed: {result.error}")

    kind = next(iter(server.entities.values()))
    bare = sqlite3.connect(":memory:")
    bare.deserialize(template.data)
    key = ids[kind.name][0]
    bare_sql = f'SELECT * FROM "{kind.table}" WHERE "{kind.key}" = ?'

    out: dict[str, Any] = {
        "benchmark": "env", "server": opts.server, "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version, "cpus": os.cpu_count(), "template_bytes": template.size,
        "read_call": f"{read_name}({json.dumps(read_args)})", "write_call": f"{write_name}({json.dumps(write_args)})",
    }
    out["bare_select_us"] = _timed(lambda: bare.execute(bare_sql, (key,)).fetchone(), n)

    created: list[Session] = []
    out["create_us"] = _timed(lambda: created.append(Session([server], world=0)), n)
    for s in created:
        s.close()
    forks: list[Session] = []
    out["fork_us"] = _timed(lambda: forks.append(base.fork()), n)
    for s in forks:
        s.close()
    out["fingerprint_clean_us"] = _timed(base.fingerprint, n)
    out["read_call_us"] = _timed(lambda: base.call(read_name, read_args), n)

    writer = base.fork()
    snap = writer.snapshot()

    def every_100(i: int) -> None:  # keep the state from drifting (limits, growth), untimed
        if i % 100 == 0:
            writer.restore(snap)

    out["write_call_us"] = _timed(lambda: writer.call(write_name, write_args), n, every_100)
    out["fingerprint_after_write_us"] = _timed(writer.fingerprint, n)
    writer.close()

    gc.collect()
    before = _rss_kb()
    idle = [Session([server], world=0) for _ in range(sessions_for_memory)]
    gc.collect()
    after_create = _rss_kb()
    for s in idle:
        s.call(read_name, read_args)
    gc.collect()
    after_call = _rss_kb()
    out["memory"] = {
        "sessions": sessions_for_memory,
        "kb_per_idle_session": round((after_create - before) / sessions_for_memory, 1),
        "kb_per_session_after_one_call": round((after_call - before) / sessions_for_memory, 1),
    }
    for s in idle:
        s.close()

    floor = out["bare_select_us"]["median"]
    out["ratio_to_bare_select"] = {k: round(out[f"{k}_us"]["median"] / floor, 1)
                                   for k in ("read_call", "write_call", "create", "fork")}
    out["targets"] = {**{f"{k}_us_median": v for k, v in TARGETS_US.items()},
                      "kb_per_idle_session": TARGET_KB_PER_SESSION}
    out["meets_targets"] = {
        **{k: out[f"{k}_us"]["median"] <= v for k, v in TARGETS_US.items()},
        "memory": out["memory"]["kb_per_idle_session"] <= TARGET_KB_PER_SESSION,
    }
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return out


if __name__ == "__main__":
    main()
