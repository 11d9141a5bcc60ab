"""Environments and synthesis on a real local Ray instance (2 CPUs, token auth off, its own temp dir).

Run with `pip install -e '.[test,ray]' && pytest tests/integrations/test_ray.py`; without Ray the
module is skipped.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from functools import partial
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'prove-rl[ray]')")

from typer.testing import CliRunner  # noqa: E402

from prove.cli import app  # noqa: E402
from prove.env import PoolFullError, Session, SessionClosedError, UnknownSessionError  # noqa: E402
from prove.integrations.ray import RayEnv, RayEnvError, RayEnvPool, RayShards  # noqa: E402
from prove.records import Example  # noqa: E402
from prove.reward import Scorer  # noqa: E402
from prove.rollout import OpenAIPolicy, ScriptedModel, ScriptedServer, evaluate, local_env, oracle  # noqa: E402
from prove.synth import SynthConfig, run  # noqa: E402

# Small actors, so that two pools, or a pool and the synthesis actors, fit in the 2 CPUs.
SMALL = 0.25


@pytest.fixture(scope="module", autouse=True)
def cluster() -> Iterator[None]:
    """A local Ray instance for the module: 2 CPUs, no dashboard, token auth off, a short temp dir."""
    temp = tempfile.mkdtemp(prefix="ray-", dir="/tmp")     # Ray's socket paths must stay short
    saved = os.environ.get("RAY_AUTH_MODE")
    os.environ["RAY_AUTH_MODE"] = "disabled"
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _temp_dir=temp)
    try:
        yield
    finally:
        ray.shutdown()
        if saved is None:
            os.environ.pop("RAY_AUTH_MODE", None)
        else:
            os.environ["RAY_AUTH_MODE"] = saved
        shutil.rmtree(temp, ignore_errors=True)


@pytest.fixture
def pool() -> Iterator[RayEnvPool]:
    with RayEnvPool(2, num_cpus=SMALL, max_sessions=128, idle_ttl=60.0) as p:
        yield p


def _gold(example: Example) -> list[tuple[str, dict]]:
    return [(c.name, dict(c.arguments)) for t in example.turns for c in t.calls]


# ----- the Session interface ---------------------------------------------------------------------


def test_an_episode_on_an_actor_behaves_as_an_in_process_session(pool: RayEnvPool) -> None:
    with pool.open(["banking"], world=3) as env, Session(["banking"], world=3) as local:
        assert isinstance(env, RayEnv)
        assert env.tool_schemas() == local.tool_schemas()
        assert env.fingerprint() == local.fingerprint()
        account = env.call("list_accounts", {}).data["accounts"][0]["account_id"]
        assert local.call("list_accounts", {}).data["accounts"][0]["account_id"] == account
        cards = local.call("list_cards", {}).data["cards"]
        assert env.call("list_cards", {}).data["cards"] == cards
        freeze = {"card_id": next(c["card_id"] for c in cards if c["status"] == "active")}
        assert env.call("freeze_card", freeze).ok and local.call("freeze_card", freeze).ok
        snap = env.snapshot()
        child = env.fork()
        assert pool.slot_of(child.id) == env.slot                      # a fork stays on its parent's actor
        assert env.advance(3600) == local.advance(3600) == env.now
        assert env.fingerprint() == local.fingerprint()
        assert env.diff().to_list() == local.diff().to_list() != []
        assert [(r.name, r.result.ok) for r in env.log] == [(r.name, r.result.ok) for r in local.log]
        bad = env.call("get_account", {"account_id": 42})               # the caller's error is a result
        assert not bad.ok and bad.code == "invalid_arguments"
        assert env.call("no_such_tool").code == "unknown_tool"
        assert env.call("get_account", {"account_id": account}).ok
        assert child.diff(env).to_list() == []                           # same state at the fork, clock aside
        env.restore(snap)
        assert env.diff(snap).to_list() == []
        env.reset()
        assert env.fingerprint() == Session(["banking"], world=3).fingerprint()
        child.close()
        child.close()                                                     # idempotent
        with pytest.raises(SessionClosedError):
            child.call("list_accounts", {})
    with pytest.raises(UnknownSessionError):
        pool.attach(env.id)                                               # closed on its actor


def test_the_pools_cap_and_a_missing_episode_are_the_frameworks_errors() -> None:
    with RayEnvPool(1, num_cpus=SMALL, max_sessions=2) as pool:
        first, _ = pool.open("banking"), pool.open("banking")
        with pytest.raises(PoolFullError):
            pool.open("banking")
        first.close()
        pool.open("banking").close()
        with pytest.raises(UnknownSessionError):
            pool.attach("0" * 32)


def test_an_abandoned_episode_is_reaped_by_its_actors_idle_ttl() -> None:
    with RayEnvPool(1, num_cpus=SMALL, idle_ttl=0.5) as pool:
        kept, left = pool.open("banking"), pool.open("banking")
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:                  # used within its TTL: kept
            assert kept.call("list_accounts", {}).ok
            time.sleep(0.1)
        with pytest.raises(UnknownSessionError):
            left.call("list_accounts", {})
        stats = pool.actors()[0]["stats"]
        assert stats["reaped"] == 1 and stats["live"] == 1
        left.close()                                        # a reaped episode counts as closed


# ----- affinity ----------------------------------------------------------------------------------


def test_every_call_of_64_concurrent_episodes_reaches_the_actor_that_holds_it(
        pool: RayEnvPool, examples: list[Example]) -> None:
    """64 episodes at once, each replaying an example's gold calls (writes included): each ends in the
    example's recorded fingerprint, so no call of it ran anywhere else; while all are open, each is
    held by the actor of its slot and by no other."""
    n = 64
    plays = [examples[i % len(examples)] for i in range(n)]
    opened, asked = threading.Barrier(n + 1), threading.Barrier(n + 1)     # the players and the census
    where: dict[str, dict] = {}

    def play(ex: Example) -> tuple[str, str, str]:
        env = pool.open(ex.servers, ex.world)
        try:
            for turn in ex.turns:
                if turn.advance:
                    env.advance(turn.advance)
                for call in turn.calls:
                    assert env.call(call.name, dict(call.arguments)).ok
            where[env.id] = env.where()
            return env.id, env.fingerprint(), ex.fingerprint
        finally:
            opened.wait(timeout=120)
            asked.wait(timeout=120)           # every episode stays open until the actors were asked
            env.close()

    held: dict[int, list[str]] = {}

    def census() -> None:
        opened.wait(timeout=120)
        try:
            held.update({a["slot"]: a["sessions"] for a in pool.actors()})
        finally:
            asked.wait(timeout=120)

    with ThreadPoolExecutor(n + 1) as workers:
        done = workers.submit(census)
        results = list(workers.map(play, plays))
        done.result(timeout=120)
    assert len({sid for sid, _, _ in results}) == n
    for sid, got, want in results:
        assert got == want, sid
        slot = pool.slot_of(sid)
        assert where[sid]["slot"] == slot and where[sid]["held"]
        assert sid in held[slot] and all(sid not in ids for s, ids in held.items() if s != slot)
    assert {s: len(ids) for s, ids in held.items()} == {s: sum(pool.slot_of(r[0]) == s for r in results)
                                                        for s in held}
    assert all(a["sessions"] == [] for a in pool.actors())                # every episode was closed
    assert len({a["pid"] for a in pool.actors()}) == 2


# ----- actor death -------------------------------------------------------------------------------


def _kill(handle: Any) -> None:
    """Kill an actor and wait until Ray reports it dead (`ray.kill` returns before it is)."""
    ray.kill(handle)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            ray.get(handle.info.remote(), timeout=5)
        except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError):
            return
        time.sleep(0.1)
    raise AssertionError("the killed actor still answers")


def test_a_killed_actor_fails_its_episodes_at_once_and_the_pool_recovers(pool: RayEnvPool) -> None:
    envs = [pool.open("banking", world=0, session_id=pool.new_id(i % 2)) for i in range(6)]
    victim = pool.actors()[0]
    _kill(pool.handle(0))
    for env in envs:
        started = time.monotonic()
        if env.slot == 0:
            with pytest.raises(RayEnvError) as info:
                env.call("list_accounts", {})
            assert info.value.code == "actor_died"
            assert env.id in str(info.value) and "died" in str(info.value)
            assert time.monotonic() - started < 30                       # reported, never a hang
            with pytest.raises(RayEnvError, match="lost"):
                env.fingerprint()                                        # and every later request too
            env.close()                                                  # a lost episode counts as closed
        else:
            assert env.call("list_accounts", {}).ok                      # the other actor's are untouched
    assert pool.replaced == 1
    fresh = pool.open("banking", session_id=pool.new_id(0))              # the slot has a new actor
    assert fresh.call("list_accounts", {}).ok
    now = pool.actors()[0]
    assert now["generation"] == 1 and now["incarnation"] != victim["incarnation"]
    _kill(pool.handle(1))
    assert pool.check() == 1 and pool.replaced == 2                      # found dead without an episode
    assert pool.open("banking", session_id=pool.new_id(1)).call("list_accounts", {}).ok


def test_a_rollout_on_a_dead_actor_ends_as_an_env_error(pool: RayEnvPool, examples: list[Example]) -> None:
    from prove.rollout import Episode, EpisodeError, close_episode, script

    ex = next(e for e in examples if len(_gold(e)) >= 2)
    env = pool.open(ex.servers, ex.world)
    episode = Episode(script(ex), env)
    ray.kill(pool.handle(env.slot))
    name, arguments = _gold(ex)[0]
    with pytest.raises(EpisodeError, match="died"):
        episode.step({"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}]})
    trajectory = close_episode(episode, env)
    assert trajectory["meta"]["status"] == "env_error" and "RayEnvError" in trajectory["meta"]["error"]
    assert trajectory["meta"]["fingerprint"] is None and env.closed


# ----- by configuration: the rollout runner, TRL, VERL's environments -----------------------------


def test_the_rollout_runner_plays_on_the_pool_as_in_process(pool: RayEnvPool, examples: list[Example]) -> None:
    with ScriptedServer(ScriptedModel(oracle(examples), form="hermes")) as server, \
            OpenAIPolicy(server.url, "scripted") as policy:
        scorer = Scorer(examples)
        far = evaluate(examples, policy, env=pool.open, score=scorer.breakdown, concurrency=4)
        near = evaluate(examples, policy, env=local_env(), score=scorer.breakdown, concurrency=4)
    for a, b in zip(far, near, strict=True):
        assert a["meta"]["status"] == b["meta"]["status"]
        assert a["reward"] == b["reward"]
        assert a["meta"]["fingerprint"] == b["meta"]["fingerprint"] is not None
    assert all(a["sessions"] == [] for a in pool.actors())


def test_trl_environments_open_their_episodes_on_the_pool(pool: RayEnvPool, by_id: dict[str, Example]) -> None:
    from prove.integrations.trl import environment_class, rows

    ex = next(e for e in by_id.values() if e.servers == ["banking"] and _gold(e))
    row = rows([ex])[0]
    on_ray = environment_class(["banking"], env=pool.open)()
    local = environment_class(["banking"])()
    for env in (on_ray, local):
        env.reset(**row)
        for name, arguments in _gold(ex):
            assert "error" not in getattr(env, name)(**arguments)
    assert isinstance(on_ray.session, RayEnv)
    (far_diff, far_fp), (near_diff, near_fp) = on_ray._final_state(), local._final_state()
    assert far_fp == near_fp == ex.fingerprint and far_diff.to_list() == near_diff.to_list()
    on_ray._close()
    local._close()


def test_verls_environments_run_on_a_shared_named_pool(examples: list[Example]) -> None:
    from prove.integrations.verl import envs as verl_envs
    from prove.integrations.verl.envs import EnvConfig

    cfg = EnvConfig(ray={"actors": 2, "name": "prove-test-env", "num_cpus": SMALL}, idle_ttl=60.0)
    assert cfg.remote
    opened = cfg.open(["banking"], 0)
    assert isinstance(opened.env, RayEnv) and opened.env.call("list_accounts", {}).ok
    cfg.close(opened)
    assert opened.env.closed
    # VERL's stock tool loop: the rollout's key names the episode; a later call finds its state.
    ex = next(e for e in examples if e.servers == ["banking"] and len(_gold(e)) >= 2)
    key = "rollout-" + hashlib.sha256(ex.id.encode()).hexdigest()[:16]
    for name, arguments in _gold(ex):
        assert cfg.call_keyed(key, ex.servers, ex.world, name, arguments).ok
    # Another worker process attaches to the same actors by the pool's name, and to the same episode.
    verl_envs._REMOTE.clear()
    other = RayEnvPool(2, name="prove-test-env", num_cpus=SMALL)
    assert [a["pid"] for a in other.actors()] == [a["pid"] for a in cfg.ray_pool().actors()]
    assert cfg.keyed(key, ex.servers, ex.world).fingerprint() == other.attach(key).fingerprint() == ex.fingerprint
    cfg.ray_pool().shutdown()
    with pytest.raises(ValueError, match="not both"):
        EnvConfig(url="http://127.0.0.1:8000", ray={"actors": 1})


def test_export_selects_the_ray_pool_in_verls_configs(tmp_path: Path, examples: list[Example]) -> None:
    pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install 'prove-rl[data]')")
    import yaml

    data = tmp_path / "dataset.jsonl"
    data.write_text("".join(e.model_dump_json() + "\n" for e in examples))
    out = tmp_path / "verl"
    result = CliRunner().invoke(app, ["export", "verl", str(data), str(out), "--env-ray", "4"])
    assert result.exit_code == 0, result.output
    loop = yaml.safe_load((out / "agent_loop.yaml").read_text())[0]
    assert loop["env_ray"] == {"actors": 4, "name": "prove-env", "num_cpus": 1.0} and loop["env_url"] is None
    tools = yaml.safe_load((out / "tool_config.yaml").read_text())["tools"]
    assert all(t["config"]["env_ray"] == loop["env_ray"] for t in tools)
    refused = CliRunner().invoke(app, ["export", "verl", str(data), str(out), "--env-ray", "2",
                                       "--env-url", "http://127.0.0.1:8000"])
    assert refused.exit_code != 0 and "--env-ray" in refused.output


# ----- synthesis -------------------------------------------------------------------------------


def _files(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.parts[-2:-1] != ("cache",)}


def _config(**kw) -> SynthConfig:
    return SynthConfig(**{"n": 40, "seed": 5, "servers": ["banking", "calendar"], "shard_size": 16, **kw})


def test_synthesis_on_ray_writes_the_local_runs_files_and_resumes(tmp_path: Path) -> None:
    local, far = tmp_path / "local", tmp_path / "ray"
    run(_config(), local)
    summary = run(_config(), far, workers=2, runner=partial(RayShards, num_cpus=0.5))
    assert summary.accepted == 40 and summary.shards >= 3
    assert _files(far) == _files(local)
    # Killed after its first shard: the rerun on Ray continues from there, to the same files.
    shards = json.loads((far / "manifest.json").read_text())["shards"]
    for entry in shards[1:]:
        (far / "shards" / f"{entry['shard']:05d}.jsonl.gz").unlink()
    (far / "dataset.jsonl").write_text("partial\n")
    again = run(_config(), far, workers=1, runner=partial(RayShards, num_cpus=0.5))
    assert again.resumed == 1
    assert _files(far) == _files(local)


def test_prove_synth_ray_writes_the_local_dataset(tmp_path: Path) -> None:
    args = ["synth", "--n", "30", "--seed", "7", "--servers", "banking,calendar", "--json", "--cache",
            str(tmp_path / "cache")]
    local = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "local")])
    far = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "ray"), "--ray", "auto", "--workers", "2"])
    assert local.exit_code == 0 and far.exit_code == 0, far.output
    assert (tmp_path / "ray" / "dataset.jsonl").read_bytes() == (tmp_path / "local" / "dataset.jsonl").read_bytes()
    assert ray.is_initialized()                      # the CLI used this process's cluster and left it running


def test_prove_eval_ray_scores_as_in_process(tmp_path: Path, examples: list[Example]) -> None:
    data = tmp_path / "dataset.jsonl"
    data.write_text("".join(e.model_dump_json() + "\n" for e in examples))
    with ScriptedServer(ScriptedModel(oracle(examples), form="hermes")) as server:
        args = ["eval", str(data), "--model", "scripted", "--base-url", server.url, "--json", "-j", "4"]
        near = CliRunner().invoke(app, args)
        far = CliRunner().invoke(app, [*args, "--ray", "auto", "--ray-actors", "2"])
    assert near.exit_code == 0 and far.exit_code == 0, far.output
    a, b = json.loads(far.stdout), json.loads(near.stdout)
    assert a["overall"] == b["overall"] and a["overall"]["state_match"] == 1.0 and a["overall"]["errors"] == 0
    deadline = time.monotonic() + 30                                   # its actors ended with the command
    while ray.available_resources().get("CPU", 0) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert ray.available_resources().get("CPU", 0) == 2
