"""Episodes on a pool of Ray actors: `RayEnvPool`, and `RayEnv`, an episode with `Session`'s interface.

```python
from prove.integrations.ray import RayEnvPool
pool = RayEnvPool(actors=4)                      # joins the cluster (ray.init) unless already in it
with pool.open(["banking"], world=7) as env:     # a RayEnv
    env.call("get_balance", {"account_id": "ACC-10001"})   # a prove.env.ToolResult
    child = env.fork(); snap = env.snapshot(); env.restore(snap); env.fingerprint(); env.diff()
evaluate(examples, policy, env=pool.open)        # the rollout runner, on the cluster
pool.shutdown()
```

Each actor (`EnvActor`) owns a `SessionPool` for the episodes whose IDs hash to its slot (the
hash `prove serve --workers` shards by), so every call of an episode, and its forks, reach the
actor that holds its state; calls run under the pool's lease, and the idle TTL reaps what a
crashed driver leaves. Actors are placed with the `SPREAD` strategy by default (one per node
while nodes last), or any Ray scheduling strategy.

An actor that dies (its node lost, its process killed) ends its episodes: their next request
raises `RayEnvError` with code `actor_died` at once, never a hang (a request that outlives
`request_timeout` raises `actor_timeout`), and the pool starts a replacement in the same slot,
so new episodes go on. Actors are not restarted by Ray itself (`max_restarts=0`): a restarted
actor would hold none of its episodes' state, and a call would find an unknown session rather
than the reason.

A pool made with a `name` is shared: its actors are named (`NAME.SLOT.GENERATION`, namespace
`prove`), and every process that makes a pool of that name on the cluster (each of VERL's agent
loop workers) attaches to the same actors, or makes them when none exist.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import ray
from ray.exceptions import GetTimeoutError, RayActorError, RayTaskError

from prove.env import (
    CallRecord,
    Diff,
    InvalidRequestError,
    ProveError,
    SessionClosedError,
    SessionPool,
    Snapshot,
    Tool,
    ToolResult,
    UnknownSessionError,
    registry,
    tool_names,
)
from prove.mcp.remote import new_id, shard

from .cluster import NAMESPACE, connect, strategy

__all__ = ["EnvActor", "RayEnv", "RayEnvError", "RayEnvPool", "shared_pool"]

# What `EnvActor.run` may do to a session (besides calls, forks and diffs, which have their own methods).
_OPS = frozenset({"advance", "fingerprint", "snapshot", "restore", "reset", "now", "log"})


class RayEnvError(ProveError):
    """An environment actor failed an episode: it died (`actor_died`), did not answer in time
    (`actor_timeout`) or could not be placed (`actor_unschedulable`). The episode cannot go on."""

    def __init__(self, code: str, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return self.message + (f" ({self.hint})" if self.hint else "")


class EnvActor:
    """One actor's episodes: a `SessionPool` under leases, with its idle TTL, cap and reaper."""

    def __init__(self, slot: int, max_sessions: int, idle_ttl: float, call_timeout: float | None) -> None:
        self.slot = slot
        self.call_timeout = call_timeout
        self.incarnation = secrets.token_hex(8)
        self.pool = SessionPool(max_sessions=max_sessions, idle_ttl=idle_ttl,
                                reap_interval=min(30.0, idle_ttl / 4)).start()

    def info(self) -> dict[str, Any]:
        """Where this actor runs and what it holds."""
        return {"slot": self.slot, "incarnation": self.incarnation, "node": ray.get_runtime_context().get_node_id(),
                "pid": os.getpid(), "sessions": self.pool.ids(), "stats": self.pool.stats().to_dict()}

    def create(self, servers: list[str], world: int, session_id: str) -> dict[str, Any]:
        session = self.pool.create(servers, world, session_id=session_id)
        session.timeout = self.call_timeout
        return _describe(session)

    def attach(self, session_id: str) -> dict[str, Any]:
        return _describe(self.pool.get(session_id))

    def fork(self, session_id: str, new_id: str) -> dict[str, Any]:
        child = self.pool.fork(session_id, new_id)
        child.timeout = self.call_timeout
        return _describe(child)

    def call(self, session_id: str, name: str, arguments: Any) -> ToolResult:
        with self.pool.lease(session_id) as session:
            return session.call(name, arguments)

    def run(self, session_id: str, op: str, *args: Any) -> Any:
        if op not in _OPS:
            raise InvalidRequestError(f"an environment actor does not do {op!r}")
        with self.pool.lease(session_id) as session:
            if op == "now":
                return session.now
            if op == "log":
                return list(session.log)
            return getattr(session, op)(*args)

    def diff(self, session_id: str, other: str | Snapshot | None) -> Diff:
        with self.pool.lease(session_id) as session:
            if not isinstance(other, str):
                return session.diff(other)
            with self.pool.lease(other) as against:
                return session.diff(against)

    def close(self, session_id: str) -> None:
        self.pool.close(session_id)


def _describe(session: Any) -> dict[str, Any]:
    return {"session_id": session.id, "world": session.world, "servers": session.servers}


@dataclass
class _Slot:
    handle: Any
    generation: int


class RayEnvPool:
    """A pool of environment actors on a Ray cluster (see the module docstring).

    Args:
        actors: how many actors (slots); an episode lives on the one its ID hashes to.
        name: share the pool under this name across the cluster's processes; None: this
            process's own actors, ended with it (or by `shutdown`).
        max_sessions: cap on live episodes per actor (a full actor refuses with `PoolFullError`).
        idle_ttl: seconds an unused episode lives on its actor before it is reaped.
        call_timeout: seconds a tool call's SQL may run (a `timeout` result, state rolled back).
        num_cpus: CPUs Ray reserves for each actor.
        max_concurrency: requests an actor serves at once (threads; one episode's run one at a time).
        scheduling: "SPREAD" (default), "DEFAULT", or a Ray scheduling strategy object.
        request_timeout: seconds to wait for any one request before `actor_timeout`; by default
            max(60, 3 x call_timeout).
        address: the cluster to join when this process has not joined one (`connect`).
    """

    def __init__(self, actors: int = 2, *, name: str | None = None, max_sessions: int = 1024,
                 idle_ttl: float = 600.0, call_timeout: float | None = 10.0, num_cpus: float = 1.0,
                 max_concurrency: int = 64, scheduling: Any = "SPREAD", request_timeout: float | None = None,
                 address: str | None = None, ready_timeout: float = 120.0) -> None:
        if actors < 1:
            raise InvalidRequestError("a Ray environment pool needs at least one actor")
        connect(address)
        self.name = name
        self.size = actors
        self.request_timeout = request_timeout or max(60.0, 3 * (call_timeout or 10.0))
        self.replaced = 0
        self._args = (max_sessions, idle_ttl, call_timeout)
        self._options: dict[str, Any] = {"num_cpus": num_cpus, "max_concurrency": max_concurrency,
                                         "scheduling_strategy": strategy(scheduling), "max_restarts": 0}
        self._cls = ray.remote(EnvActor)
        self._lock = threading.Lock()
        generations = self._generations() if name else {}
        self._slots = [self._spawn(i, generations.get(i, 0)) for i in range(actors)]
        try:
            ray.get([s.handle.info.remote() for s in self._slots], timeout=ready_timeout)
        except GetTimeoutError:
            self.shutdown()
            raise RayEnvError("actor_unschedulable", f"{actors} environment actors of {num_cpus:g} CPU each were "
                              f"not all placed within {ready_timeout:g}s",
                              "The cluster has too few free CPUs: lower `actors` or `num_cpus`, or add nodes.") from None

    # ----- actors ----------------------------------------------------------------------------------

    def _label(self, slot: int, generation: int) -> str:
        return f"{self.name or 'prove-env'}.{slot}.{generation}"

    def _generations(self) -> dict[int, int]:
        """The newest generation of each slot of the named pool already on the cluster."""
        found: dict[int, int] = {}
        prefix = f"{self.name}."
        for actor in ray.util.list_named_actors(all_namespaces=True):
            if actor.get("namespace") != NAMESPACE or not actor["name"].startswith(prefix):
                continue
            parts = actor["name"][len(prefix):].split(".")
            if len(parts) == 2 and all(p.isdigit() for p in parts):
                slot, gen = int(parts[0]), int(parts[1])
                found[slot] = max(found.get(slot, 0), gen)
        return found

    def _spawn(self, slot: int, generation: int) -> _Slot:
        options = dict(self._options)
        if self.name:
            options.update(name=self._label(slot, generation), namespace=NAMESPACE, get_if_exists=True)
        return _Slot(self._cls.options(**options).remote(slot, *self._args), generation)

    def _replace(self, slot: int, generation: int) -> None:
        """Put a new actor in `slot` if generation `generation` still holds it (it died)."""
        with self._lock:
            current = self._slots[slot]
            if current.generation != generation:
                return                                    # another request replaced it already
            ray.kill(current.handle, no_restart=True)
            self._slots[slot] = self._spawn(slot, generation + 1)
            self.replaced += 1

    def check(self) -> int:
        """Ask every actor whether it is alive; replace the dead ones. Returns how many were replaced."""
        with self._lock:
            slots = list(enumerate(self._slots))
        dead = 0
        for slot, current in slots:
            try:
                ray.get(current.handle.info.remote(), timeout=self.request_timeout)
            except RayActorError:
                self._replace(slot, current.generation)
                dead += 1
        return dead

    def actors(self) -> list[dict[str, Any]]:
        """Every actor's slot, generation, node, process, episodes and pool counters."""
        with self._lock:
            slots = list(self._slots)
        infos = ray.get([s.handle.info.remote() for s in slots], timeout=self.request_timeout)
        return [{**info, "generation": s.generation} for s, info in zip(slots, infos, strict=True)]

    def handle(self, slot: int) -> Any:
        """The Ray actor handle of a slot (what `ray.kill` takes)."""
        with self._lock:
            return self._slots[slot].handle

    # ----- requests --------------------------------------------------------------------------------

    def slot_of(self, session_id: str) -> int:
        """The slot whose actor holds the episode with this ID."""
        return shard(session_id, self.size)

    def new_id(self, slot: int | None = None) -> str:
        """A fresh unguessable episode ID, hashing to `slot` when given."""
        return new_id(range(self.size), slot)

    def request(self, slot: int, generation: int | None, session_id: str, method: str, *args: Any) -> tuple[Any, int]:
        """Run `method` on the actor of `slot` for episode `session_id`; its answer and the actor's
        generation. `generation`: the one the episode was made on (None: whichever holds the slot)."""
        with self._lock:
            if not self._slots:
                raise SessionClosedError(f"episode {session_id}: the Ray environment pool is shut down")
            current = self._slots[slot]
        if generation is not None and current.generation != generation:
            raise self._lost(session_id, slot, generation, "it died earlier")
        try:
            ref = getattr(current.handle, method).remote(*args)
            return ray.get(ref, timeout=self.request_timeout), current.generation
        except RayTaskError as exc:
            cause = exc.cause
            if isinstance(cause, ProveError):
                raise cause from None
            raise RayEnvError("actor_error", f"environment actor {self._label(slot, current.generation)} failed "
                              f"{method} of episode {session_id}: {type(cause).__name__}: {cause}") from exc
        except RayActorError as exc:
            self._replace(slot, current.generation)
            raise self._lost(session_id, slot, current.generation, _reason(exc)) from None
        except GetTimeoutError:
            raise RayEnvError("actor_timeout", f"environment actor {self._label(slot, current.generation)} did not "
                              f"answer {method} of episode {session_id} within {self.request_timeout:g}s",
                              "The actor is overloaded or its node unreachable.") from None

    def _lost(self, session_id: str, slot: int, generation: int, why: str) -> RayEnvError:
        return RayEnvError("actor_died", f"episode {session_id} is lost: its environment actor "
                                         f"{self._label(slot, generation)} died ({why})",
                           "Its state went with the actor; start the episode again (a new actor holds its slot).")

    # ----- episodes --------------------------------------------------------------------------------

    def open(self, servers: str | Sequence[str], world: int = 0, *, session_id: str | None = None) -> RayEnv:
        """A fresh episode on its actor (an `EnvFactory`: `evaluate(..., env=pool.open)`).

        An actor found dead is replaced and the episode made on the new one: nothing was lost yet.
        """
        names = [servers] if isinstance(servers, str) else list(servers)
        sid = session_id or self.new_id()
        slot = self.slot_of(sid)
        try:
            info, generation = self.request(slot, None, sid, "create", names, world, sid)
        except RayEnvError as exc:
            if exc.code != "actor_died":
                raise
            info, generation = self.request(slot, None, sid, "create", names, world, sid)
        return RayEnv(self, slot, generation, info)

    def attach(self, session_id: str) -> RayEnv:
        """A handle on a live episode of the pool (one another process opened)."""
        slot = self.slot_of(session_id)
        info, generation = self.request(slot, None, session_id, "attach", session_id)
        return RayEnv(self, slot, generation, info)

    def shutdown(self) -> None:
        """End every actor of the pool (and so every episode on them)."""
        with self._lock:
            slots, self._slots = list(self._slots), []
        for s in slots:
            ray.kill(s.handle, no_restart=True)

    @property
    def closed(self) -> bool:
        """The pool was shut down."""
        return not self._slots

    def __enter__(self) -> RayEnvPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    def __repr__(self) -> str:
        return f"RayEnvPool(actors={self.size}, name={self.name!r}, replaced={self.replaced})"


def _reason(exc: RayActorError) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__


_SHARED: dict[tuple[Any, ...], RayEnvPool] = {}
_SHARED_LOCK = threading.Lock()


def shared_pool(name: str = "prove-env", actors: int = 2, **options: Any) -> RayEnvPool:
    """This process's handle on the named pool (made on first use; the same settings, the same handle)."""
    key = (name, actors, *sorted(options.items()))
    with _SHARED_LOCK:
        found = _SHARED.get(key)
        if found is None or found.closed:
            found = _SHARED[key] = RayEnvPool(actors, name=name, **options)
        return found


class RayEnv:
    """One episode on a `RayEnvPool`'s actor, with the interface of `prove.env.Session`.

    Results, call logs, snapshots and diffs are the framework's own types; errors the framework's
    exceptions (`UnknownSessionError`, `PoolFullError`, `SessionClosedError`), or `RayEnvError` when
    the actor holding the episode is gone.
    """

    def __init__(self, pool: RayEnvPool, slot: int, generation: int, info: dict[str, Any]) -> None:
        self.pool = pool
        self.slot = slot
        self.generation = generation
        self.id: str = info["session_id"]
        self.world: int = info["world"]
        self._servers: list[str] = list(info["servers"])
        self._closed = False

    def _ask(self, method: str, *args: Any) -> Any:
        if self._closed:
            raise SessionClosedError(f"session {self.id} is closed")
        return self.pool.request(self.slot, self.generation, self.id, method, self.id, *args)[0]

    @property
    def servers(self) -> list[str]:
        return list(self._servers)

    def tools(self, include_hidden: bool = False) -> dict[str, Tool]:
        """The tools of this episode under the names a model calls them by (from the registry here)."""
        named = tool_names([registry.get(s) for s in self._servers])
        return {name: tool for name, tool in named.items() if include_hidden or not tool.hidden}

    def tool_schemas(self) -> list[dict[str, Any]]:
        """The visible tools in OpenAI function-tool form."""
        return [tool.openai_schema(name) for name, tool in self.tools().items()]

    def call(self, name: str, arguments: Any = None) -> ToolResult:
        """Run one tool call on the episode's actor. Errors the caller sent are results, as in-process."""
        return self._ask("call", name, arguments)

    @property
    def now(self) -> datetime:
        """The episode's simulated local time."""
        return self._ask("run", "now")

    @property
    def log(self) -> list[CallRecord]:
        """The episode's call log."""
        return self._ask("run", "log")

    def advance(self, delta: timedelta | float) -> datetime:
        """Move the simulated clock forward (`delta` in seconds or as a timedelta)."""
        return self._ask("run", "advance", delta)

    def fingerprint(self) -> str:
        return self._ask("run", "fingerprint")

    def snapshot(self) -> Snapshot:
        """The episode's state as a `prove.env.Snapshot` (its databases travel to this process)."""
        return self._ask("run", "snapshot")

    def restore(self, snapshot: Snapshot) -> None:
        self._ask("run", "restore", snapshot)

    def reset(self) -> None:
        """Back to the initial world: state, clock and call log."""
        self._ask("run", "reset")

    def fork(self, session_id: str | None = None) -> RayEnv:
        """An independent copy of this episode as it is now, on the same actor."""
        child = session_id or self.pool.new_id(self.slot)
        if self.pool.slot_of(child) != self.slot:
            raise InvalidRequestError(f"a fork lives on its parent's actor: session ID {child[:80]!r} hashes to "
                                      f"slot {self.pool.slot_of(child)}, not {self.slot}")
        return RayEnv(self.pool, self.slot, self.generation, self._ask("fork", child))

    def diff(self, other: RayEnv | Snapshot | None = None) -> Diff:
        """Row-level changes from `other` (default: the initial world) to this episode."""
        if isinstance(other, RayEnv):
            if other.pool is not self.pool or other.slot != self.slot:
                raise InvalidRequestError("both episodes of a diff must live on the same actor")
            return self._ask("diff", other.id)
        if other is not None and not isinstance(other, Snapshot):
            raise TypeError(f"diff against a RayEnv or a Snapshot, not {type(other).__name__}")
        return self._ask("diff", other)

    def where(self) -> dict[str, Any]:
        """The actor that holds this episode: slot, generation, node, process."""
        info, _ = self.pool.request(self.slot, self.generation, self.id, "info")
        return {"slot": self.slot, "generation": self.generation, "node": info["node"], "pid": info["pid"],
                "held": self.id in info["sessions"]}

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Close the episode on its actor. Idempotent; an episode reaped, or lost with its actor, counts as closed."""
        if self._closed:
            return
        try:
            self._ask("close")
        except UnknownSessionError:
            pass
        except RayEnvError as exc:
            if exc.code != "actor_died":
                raise
        finally:
            self._closed = True

    def __enter__(self) -> RayEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"RayEnv({self.id[:8]}…, servers={self._servers}, world={self.world}, slot={self.slot})"
