"""Run a policy on examples, each in its own live episode, and score what it did.

    from prove.rollout import OpenAIPolicy, evaluate, local_env
    policy = OpenAIPolicy("http://127.0.0.1:8000/v1", "Qwen/Qwen3-4B")
    trajectories = evaluate(examples, policy, env=local_env(call_timeout=10), concurrency=8)

Each trajectory is a `prove.records.Trajectory` dict: the whole episode in chat form (every
tool result as the environment answered it), `reward` (the score and its breakdown from
`prove.reward`, with the state component from the episode's own diff when it is computed) and
`meta` (status, counters, each call's outcome, the final fingerprint, timings, token usage).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ..env import Diff, ProveError, Session
from ..records import Example
from .episode import Env, Episode, EpisodeError, Limits, script
from .policy import Policy, PolicyError

__all__ = ["EnvFactory", "ScoreFn", "close_episode", "evaluate", "local_env", "run_all", "run_episode"]

T = TypeVar("T")

ScoreFn = Callable[[dict[str, Any], "Diff | None"], dict[str, Any]]
"""`score(trajectory, diff) -> breakdown`: the reward, passed in (`prove.reward.Scorer.breakdown`);
`diff` is the episode's row-level diff when the caller asked for it (`state=True`), else None."""

EnvFactory = Callable[[Sequence[str], int], Env]
"""`factory(servers, world) -> env`: opens a fresh episode on a world (a Session, a RemoteEnv)."""


def local_env(call_timeout: float | None = 10.0) -> EnvFactory:
    """In-process sessions; a call whose SQL runs past `call_timeout` seconds ends as a `timeout` result."""

    def open_session(servers: Sequence[str], world: int) -> Session:
        return Session(list(servers), world=world, timeout=call_timeout)

    return open_session


def run_episode(example: Example, policy: Policy, *, env: EnvFactory | None = None, limits: Limits | None = None,
                score: ScoreFn | None = None, state: bool = False,
                meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play one example to its end and return the trajectory (scored, under `reward`, when `score` is given;
    `state`: `score` gets the episode's diff).

    The environment is closed whatever happens. A policy that fails (after its retries) or an
    environment that breaks ends the episode early with `meta.status` `policy_error` or
    `env_error`; the trajectory is still returned and scored as it stands.
    """
    sc = script(example)
    factory = env or local_env()
    start = time.monotonic()
    handle = factory(sc.servers, sc.world)
    episode = Episode(sc, handle, limits)
    usage: dict[str, int] = {}
    finish: dict[str, int] = {}
    policy_seconds = 0.0
    try:
        while not episode.done:
            try:
                reply = policy(episode.messages, sc.tools)
            except PolicyError as exc:
                episode.fail("policy_error", f"{exc.code}: {exc}")
                break
            policy_seconds += reply.seconds
            for k, v in reply.usage.items():
                if isinstance(v, int):
                    usage[k] = usage.get(k, 0) + v
            reason = reply.finish_reason or "unknown"
            finish[reason] = finish.get(reason, 0) + 1
            try:
                episode.step(reply.message)
            except EpisodeError:
                break
    except BaseException:
        handle.close()
        raise
    return close_episode(episode, handle, score=score, state=state,
                         meta={"seconds": round(time.monotonic() - start, 4),
                               "policy_seconds": round(policy_seconds, 4), "usage": usage,
                               "finish_reasons": finish, **(meta or {})})


def close_episode(episode: Episode, handle: Env, *, score: ScoreFn | None = None, state: bool = False,
                  meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """End an episode: read its final fingerprint (and its diff, when `score` takes the state), close
    its environment whatever happens, and return the trajectory, scored under `reward` when `score`
    is given. Every driver of an `Episode` ends it here (`run_episode`, `prove.gym`, the OpenEnv
    and verifiers adapters), so that a trajectory is scored the same way whoever played it."""
    fingerprint = None
    diff = None
    try:
        if episode.status != "env_error":
            try:
                fingerprint = handle.fingerprint()
                if score is not None and state:
                    diff = handle.diff()
            except ProveError as exc:
                episode.fail("env_error", f"{type(exc).__name__}: {exc}")
    finally:
        handle.close()
    trajectory = episode.trajectory(fingerprint=fingerprint, **(meta or {}))
    if score is not None:
        trajectory["reward"] = score(trajectory, diff)
    return trajectory


def evaluate(examples: Iterable[Example], policy: Policy, *, env: EnvFactory | None = None,
             limits: Limits | None = None, score: ScoreFn | None = None, state: bool = False,
             concurrency: int = 4, meta: dict[str, Any] | None = None,
             on_result: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Run (and, with `score`, score) every example, `concurrency` episodes at a time; trajectories in input order.

    `on_result` is called with each trajectory as it finishes (from a worker thread, one at a
    time), to stream results to a file or a progress bar.
    """
    items = list(examples)
    factory = env or local_env()

    def one(ex: Example) -> dict[str, Any]:
        return run_episode(ex, policy, env=factory, limits=limits, score=score, state=state, meta=meta)

    return run_all(items, one, concurrency=concurrency, on_result=on_result, thread_name="prove-rollout")


def run_all(items: Sequence[T], one: Callable[[T], dict[str, Any]], *, concurrency: int = 4,
            on_result: Callable[[dict[str, Any]], None] | None = None,
            thread_name: str = "prove-run") -> list[dict[str, Any]]:
    """`[one(item) for item in items]`, `concurrency` at a time; `on_result` sees each record as it is
    collected (in input order, from the calling thread)."""
    results: list[dict[str, Any]] = []
    if concurrency <= 1:
        for item in items:
            results.append(one(item))
            if on_result is not None:
                on_result(results[-1])
        return results
    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix=thread_name) as pool:
        for future in [pool.submit(one, item) for item in items]:
            results.append(future.result())
            if on_result is not None:
                on_result(results[-1])
    return results
