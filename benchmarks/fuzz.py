"""Reliability benchmark: hostile arguments on every tool, and what an episode's memory does.

Prints JSON:
- `fuzz`: N calls spread evenly over every tool of every server that loads (hidden ones too), with
  arguments drawn from each tool's schema and then made hostile (extreme integers and floats,
  strings at and past the size bounds, wrong types, deep nesting, objects whose methods raise,
  missing and unknown keys, non-objects). Counted: exceptions out of `Session.call` (target 0),
  `internal_error` results (target 0), partial writes (a failing call, or a read tool, that changed
  the fingerprint; target 0), undocumented error codes, and the slowest call.
- `log_memory`: one episode after 300 calls with 1 MB arguments: what `Session.size()` says it
  holds and the process's resident growth (target <= 5 MB).
- `release`: resident memory before 256 episodes, with them open (each after a few writes), and
  after they close: the share of the growth given back.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import sys
import time
from typing import Any

from prove.env import FRAMEWORK_CODES, INTERNAL_ERROR, Session, SessionPool, Tool, registry
from prove.env.world import clock_params

TARGET_LOG_MB = 5.0
INTEGERS = [0, -1, 1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, -(2**63) - 1, 2**64, 10**30, -(10**30), 10**5000]
FLOATS = [0.0, -0.0, 5e-324, 1e16, -1e16, 1e308, -1e308, 1.7976931348623157e308, float("nan"), float("inf")]
STRINGS = ["", " ", "\x00" * 64, "9" * 5000, "x" * 10_000, "x" * 10_001, "😀" * 5000, "'; DROP TABLE x; --",
           "../../etc/passwd", "2026-03-16T09:00:00" + "9" * 9000, "%s%n{}", "NaN", "-1", "1e309"]


class Hostile:
    """An argument whose every method raises."""

    def __repr__(self) -> str:
        raise RuntimeError("repr")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")

    def __int__(self) -> int:
        raise RuntimeError("int")

    __hash__ = None  # type: ignore[assignment]


def nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def entity_ids(session: Session) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for rt in session._runtimes:
        for kind in rt.server.entities.values():
            rows = rt.template.db.execute(f'SELECT "{kind.key}" FROM "{kind.table}" ORDER BY ({kind.live or "1"}) DESC',
                                          clock_params(session.now)).fetchall()
            out[kind.name] = [r[0] for r in rows[:50]]
    return out


def good_value(schema: dict[str, Any], entity: str | None, ids: dict[str, list[Any]], rng: random.Random) -> Any:
    if "enum" in schema:
        return rng.choice(schema["enum"])
    kind = schema.get("type")
    if kind == "string":
        return rng.choice(ids[entity]) if entity and ids.get(entity) else rng.choice(["x", "Alex", "2026-03-20"])
    if kind == "integer":
        return int(schema.get("minimum", 1))
    if kind == "number":
        return float(schema.get("minimum", 1.0))
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "array":
        return []
    return None


def hostile_value(schema: dict[str, Any], rng: random.Random) -> Any:
    kinds = {schema.get("type")} | {b.get("type") for b in schema.get("anyOf", [])}
    pool: list[Any] = [None, True, {"nested": {"a": [1, 2]}}, [1], Hostile(), nested(3000), 10**5000]
    if "integer" in kinds or "number" in kinds:
        pool += INTEGERS + FLOATS + [str(v) for v in INTEGERS[:10]]
    if "string" in kinds:
        pool += STRINGS * 2
    if "array" in kinds:
        pool += [[v] for v in STRINGS[:6] + INTEGERS[:8]] + [[1] * 100_000]
    return rng.choice(pool)


def arguments(tool: Tool, ids: dict[str, list[Any]], rng: random.Random) -> Any:
    props = tool.parameters["properties"]
    args: dict[Any, Any] = {p.name: good_value(props[p.name], p.entity, ids, rng)
                            for p in tool.params if p.required or rng.random() < 0.5}
    how = rng.random()
    if how < 0.05:
        return rng.choice([[], "not json {", "[" * 50_000, 42, None, Hostile(), nested(5000), '{"a": ' + "9" * 5000 + "}"])
    if how < 0.10:
        args[rng.choice(["extra", "__proto__", "ctx", "x" * 20_000, 10**5000])] = 1
    elif how < 0.15 and args:
        args.pop(rng.choice(sorted(args)))
    if tool.params:
        for param in rng.sample(list(tool.params), k=min(len(tool.params), rng.randint(1, 2))):
            args[param.name] = hostile_value(props[param.name], rng)
    return args


def fuzz(total: int, seed: int) -> dict[str, Any]:
    servers, _ = registry.loadable()
    tools = [(s, t) for s in servers for t in s.tools.values()]
    per_tool = max(1, -(-total // len(tools)))   # at least `total` calls in all
    rng = random.Random(seed)
    counts = {"calls": 0, "ok": 0, "exceptions": 0, "internal_errors": 0, "partial_writes": 0,
              "undocumented_codes": 0}
    slowest = (0.0, "")
    examples: list[str] = []
    started = time.perf_counter()
    for server in servers:
        session = Session([server], world=0)
        ids = entity_ids(session)
        for tool in server.tools.values():
            allowed = set(tool.errors) | FRAMEWORK_CODES
            for _ in range(per_tool):
                args = arguments(tool, ids, rng)
                before = session.fingerprint()
                t0 = time.perf_counter()
                try:
                    result = session.call(tool.name, args)
                except Exception as exc:  # noqa: BLE001 - what this benchmark counts
                    counts["exceptions"] += 1
                    examples.append(f"{server.name}.{tool.name}: {type(exc).__name__}")
                    continue
                finally:
                    elapsed = time.perf_counter() - t0
                    counts["calls"] += 1
                    if elapsed > slowest[0]:
                        slowest = (elapsed, f"{server.name}.{tool.name}")
                if result.ok:
                    counts["ok"] += 1
                    changed = tool.read_only and session.fingerprint() != before
                else:
                    changed = session.fingerprint() != before
                    if result.code == INTERNAL_ERROR:
                        counts["internal_errors"] += 1
                        examples.append(f"{server.name}.{tool.name}: {result.error['message'][:80]}")
                    elif result.code not in allowed:
                        counts["undocumented_codes"] += 1
                        examples.append(f"{server.name}.{tool.name}: undocumented {result.code}")
                if changed:
                    counts["partial_writes"] += 1
                    examples.append(f"{server.name}.{tool.name}: changed state on {'a read' if result.ok else 'failure'}")
        session.close()
    return {**counts, "servers": len(servers), "tools": len(tools), "calls_per_tool": per_tool,
            "max_call_ms": round(slowest[0] * 1000, 1), "slowest_tool": slowest[1],
            "seconds": round(time.perf_counter() - started, 1), "examples": examples[:20]}


def log_memory(server: str, calls: int) -> dict[str, Any]:
    big = "x" * (1 << 20)
    gc.collect()
    with Session(server, world=0) as session:
        tools = [t for t in session.tools().values() if any(p.annotation is str for p in t.params)] or \
            list(session.tools().values())
        gc.collect()
        size0, rss0 = session.size(), rss()
        for i in range(calls):
            tool = tools[i % len(tools)]
            session.call(tool.name, {p.name: big for p in tool.params} or {"extra": big})
        gc.collect()
        grown = session.size() - size0
        resident = rss() - rss0
    return {"server": server, "calls": calls, "argument_bytes": len(big),
            "session_size_growth_mb": round(grown / 2**20, 3), "rss_growth_mb": round(resident / 2**20, 2),
            "target_mb": TARGET_LOG_MB}


def release(server: str, episodes: int) -> dict[str, Any]:
    """Episodes of a pool (its reaper running) opened, used and closed."""
    Session(server, world=0).close()      # the world's template is built once and cached: not an episode's
    gc.collect()
    base = rss()
    with SessionPool(max_sessions=episodes, reap_interval=0.1) as pool:
        sessions = [pool.create(server, world=0) for _ in range(episodes)]
        for s in sessions:
            for tool in list(s.tools().values())[:10]:
                s.call(tool.name, {})
        gc.collect()
        peak = rss()
        for s in sessions:
            pool.close(s.id)
        del sessions, s
        gc.collect()
        time.sleep(0.5)                   # a few reaper passes
        after = rss()
    return {"server": server, "episodes": episodes, "rss_before_mb": round(base / 2**20, 1),
            "rss_open_mb": round(peak / 2**20, 1), "rss_after_close_mb": round(after / 2**20, 1),
            "returned_share": round((peak - after) / (peak - base), 3) if peak > base else None}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--server", default="filesystem")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    import logging

    logging.getLogger("prove.env").setLevel(logging.CRITICAL)   # internal errors are counted, not printed
    total = 3000 if args.quick else args.calls
    out = {"python": platform.python_version(), "machine": platform.machine(),
           "release": release(args.server, 32 if args.quick else 256),   # first: on the freshest heap
           "log_memory": log_memory(args.server, 30 if args.quick else 300),
           "fuzz": fuzz(total, args.seed)}
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
