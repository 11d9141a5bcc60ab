"""Environment benchmark: the cost of an episode's primitives on one server's world.

Prints JSON: median and p95 (microseconds) of session create, fork, fingerprint, a read call
and a write call through `Session.call` (validation and transaction included), the same tool
functions called directly (so the framework's own overhead shows), a bare sqlite3 primary-key
SELECT measured in the same run (the floor, for ratios), and resident-set growth per session
over N idle sessions (measured first, on a fresh heap).
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

# Per server, on world 0: a read of one entity by key, a light write (one row updated) and a
# heavy write (a whole business transaction), each repeatable.
CALLS: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {
    "banking": {
        "read": ("get_account", {"account_id": "ACC-10001"}),
        "write": ("set_card_spending_limit", {"card_id": "CRD-10001", "daily_limit": 1500.0}),
        "heavy_write": ("transfer_between_accounts",
                        {"from_account_id": "ACC-10001", "to_account_id": "ACC-10002", "amount": 0.01}),
    },
    "calendar": {
        "read": ("get_event", {"event_id": "EVT-10006"}),
        "write": ("add_reminder", {"event_id": "EVT-10006", "minutes_before": 10}),
        "heavy_write": ("create_event", {"calendar_id": "CAL-10037", "title": "Sync",
                                         "start": "2026-03-20T07:00:00", "end": "2026-03-20T07:30:00",
                                         "allow_overlap": True}),
    },
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


def _memory(server: Any, read: tuple[str, dict[str, Any]], count: int) -> dict[str, Any]:
    gc.collect()
    before = _rss_kb()
    idle = [Session([server], world=0) for _ in range(count)]
    gc.collect()
    after_create = _rss_kb()
    for s in idle:
        s.call(*read)
    gc.collect()
    after_call = _rss_kb()
    for s in idle:
        s.close()
    return {"sessions": count,
            "kb_per_idle_session": round((after_create - before) / count, 1),
            "kb_per_session_after_one_read": round((after_call - before) / count, 1)}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="prove bench env")
    parser.add_argument("--server", default="banking")
    parser.add_argument("--quick", action="store_true")
    opts = parser.parse_args(argv)
    n = 300 if opts.quick else 5000
    sessions_for_memory = 200 if opts.quick else 2000

    server = registry.get(opts.server)
    calls = CALLS.get(opts.server)
    if calls is None:
        raise SystemExit(f"no representative calls defined for {opts.server!r}; add them to CALLS")
    template = server.template(0)
    out: dict[str, Any] = {
        "benchmark": "env", "server": opts.server, "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version, "cpus": os.cpu_count(), "template_bytes": template.size,
        "calls": {k: f"{name}({json.dumps(args)})" for k, (name, args) in calls.items()},
    }
    out["memory"] = _memory(server, calls["read"], sessions_for_memory)

    base = Session([server], world=0)
    for name, args in calls.values():
        result = base.fork().call(name, args)
        if not result.ok:
            raise SystemExit(f"benchmark call {name}({args}) failed: {result.error}")

    # The floor: the same row the read call fetches, by primary key, with bare sqlite3.
    read_name, read_args = calls["read"]
    param = server.tools[read_name].params[0]
    kind = server.entities[param.entity]
    bare = sqlite3.connect(":memory:")
    bare.deserialize(template.data)
    key = read_args[param.name]
    bare_sql = f'SELECT * FROM "{kind.table}" WHERE "{kind.key}" = ?'
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

    writer = base.fork()
    snap = writer.snapshot()

    def every_100(i: int) -> None:  # keep the state from drifting (limits, growth), untimed
        if i % 100 == 0:
            writer.restore(snap)

    for label, (name, args) in (("read_call", calls["read"]), ("write_call", calls["write"]),
                                ("heavy_write_call", calls["heavy_write"])):
        tool = server.tools[name]
        out[f"{label}_us"] = _timed(lambda: writer.call(name, args), n, every_100)
        kwargs = tool.args_model.model_validate(args).__dict__

        def direct() -> None:
            writer._runtimes[0].db.execute("SAVEPOINT bench")
            tool.fn(writer._runtimes[0].ctx, **kwargs)
            writer._runtimes[0].db.execute("RELEASE bench")

        out[f"{label}_tool_only_us"] = _timed(direct, n, every_100)
        out[f"{label}_framework_overhead_us"] = round(
            out[f"{label}_us"]["median"] - out[f"{label}_tool_only_us"]["median"], 2)
    writer.call(*calls["heavy_write"])
    out["fingerprint_after_write_us"] = _timed(writer.fingerprint, n)
    writer.close()

    floor = out["bare_select_us"]["median"]
    out["ratio_to_bare_select"] = {k: round(out[f"{k}_us"]["median"] / floor, 1)
                                   for k in ("read_call", "write_call", "heavy_write_call", "create", "fork")}
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
