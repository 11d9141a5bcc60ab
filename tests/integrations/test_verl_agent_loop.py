"""Whole episodes through VERL's real AgentLoopWorker and RewardLoopWorker on CPU.

The rows come from `prove export verl` through VERL's own dataset and collate function; the
agent loop is `prove_agent`, registered from the exported agent-loop config; rewards go through
VERL's reward loop worker and naive reward manager to `prove.integrations.verl.reward`.
Generation is answered by the scripted model server (a test double replaying written answers,
not a model) through `ScriptedClient`, which stands in for VERL's LLM server client.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from prove.records import Example
from prove.reward import RewardConfig
from prove.rollout import ScriptedModel, ScriptedServer, oracle

from .conftest import missing

NEEDED = missing("verl", "torch", "transformers", "pyarrow", "cachetools", "fastapi")
if NEEDED:
    pytest.skip(f"{NEEDED} is not installed (pip install 'prove-rl[verl]')", allow_module_level=True)

from transformers import AutoTokenizer  # noqa: E402

from prove.integrations.verl.envs import pool  # noqa: E402
from prove.integrations.verl.export import budget, export, needs  # noqa: E402

from .verl_helpers import ScriptedClient, batch, compose, compose_exported, run, workers  # noqa: E402

BEST = RewardConfig().best()  # the default preset's best without the state component (scored from text)
BEST_LIVE = RewardConfig().best(state=True)  # with it: prove_agent records the episode's final state


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory, examples: list[Example]) -> Path:
    out = tmp_path_factory.mktemp("verl")
    export(examples, out, val=0)
    return out


@pytest.fixture(scope="module")
def tokenizer(tiny_dir: Path) -> Any:
    return AutoTokenizer.from_pretrained(tiny_dir)


def live_sessions() -> int:
    return pool().stats().live


def test_oracle_episodes_get_the_best_reward(tiny_dir: Path, exported: Path, tokenizer: Any,
                                             examples: list[Example]) -> None:
    config = compose(tiny_dir, exported)
    with ScriptedServer(ScriptedModel(oracle(examples), form="hermes")) as server:
        client = ScriptedClient(server.url, tokenizer)
        out = run(workers(config, client), batch(config, exported / "train.parquet", tokenizer, repeat=2))
    nt = out.non_tensor_batch
    ids = [p["example_id"] for p in nt["prove"]]
    assert sorted(set(ids)) == sorted(ex.id for ex in examples) and len(ids) == 2 * len(examples)
    best = {ex.id: (1.0 if not ex.gold_calls() else BEST_LIVE) for ex in examples}
    scores = out.batch["rm_scores"].sum(-1).tolist()
    for i, ex_id in enumerate(ids):
        assert scores[i] == pytest.approx(best[ex_id]), (ex_id, nt["prove"][i])
        assert nt["solved"][i] == 1.0 and nt["prove"][i]["status"] == "done"
        assert nt["score"][i] == pytest.approx(best[ex_id])
    # Tool results and follow-up turns are context (mask 0); generated tokens are trained on (mask 1).
    mask = out.batch["response_mask"]
    assert (mask.sum(-1) > 0).all() and (mask.sum(-1) < out.batch["attention_mask"][:, -mask.shape[1]:].sum(-1)).any()
    two = ids.index("bank-two-turns")
    response = tokenizer.decode(out.batch["responses"][two], skip_special_tokens=False)
    assert "Pay 25 dollars from it" in response and response.count("<tool_response>") == 2
    assert nt["__num_turns__"][two] == 3 + 4 + 1        # env turns (tool, follow-up, tool) + replies + 1
    assert live_sessions() == 0


def test_oracle_solves_every_synthesized_row_with_the_exported_config(wide_dir: Path, tmp_path: Path,
                                                                     synthesized: list[Example]) -> None:
    """VERL's own workers replay the gold conversations of a `prove synth` run with the exported caps.

    The caps are what `prove export verl` writes into the launch script (VERL counts every round
    of tool results as a user turn); with the paper's 5 user turns a quarter of these episodes
    would end early (`user_turn_cap`).
    """
    # The scripted model finds an example's script by its first user message: one example per message.
    firsts: dict[str, Example] = {}
    for ex in synthesized:
        firsts.setdefault(next(m.content for m in ex.messages if m.role == "user"), ex)
    rows = list(firsts.values())[:100]
    assert len(rows) == 100
    result = export(rows, tmp_path, val=0)
    assert result.budget.fit == len(rows)
    config = compose_exported(wide_dir, tmp_path, result.budget)
    tokenizer = AutoTokenizer.from_pretrained(wide_dir)
    with ScriptedServer(ScriptedModel(oracle(rows), form="hermes")) as server:
        out = run(workers(config, ScriptedClient(server.url, tokenizer)),
                  batch(config, tmp_path / "train.parquet", tokenizer))
    nt = out.non_tensor_batch
    assert sorted(p["example_id"] for p in nt["prove"]) == sorted(ex.id for ex in rows)   # none filtered as overlong
    statuses = {p["example_id"]: p["status"] for p in nt["prove"]}
    assert set(statuses.values()) == {"done"}, {k: v for k, v in statuses.items() if v != "done"}
    assert list(nt["solved"]) == [1.0] * len(rows)
    # The export counts turns as VERL does: its count of each reference is VERL's count of the episode.
    by_id = {ex.id: needs(ex) for ex in rows}
    for p, turns in zip(nt["prove"], nt["__num_turns__"]):
        n = by_id[p["example_id"]]
        assert turns == n.env_turns + n.replies + 1, p["example_id"]
    assert live_sessions() == 0

    # With the paper's 5 user turns, exactly the references that need more are cut off.
    longer = [ex for ex in rows if by_id[ex.id].env_turns > 5]
    assert len(longer) >= 10
    export(longer, tmp_path / "five", val=0, max_user_turns=5)
    config = compose_exported(wide_dir, tmp_path / "five", budget(longer, user_turns=5))
    with ScriptedServer(ScriptedModel(oracle(longer), form="hermes")) as server:
        out = run(workers(config, ScriptedClient(server.url, tokenizer)),
                  batch(config, tmp_path / "five" / "train.parquet", tokenizer))
    assert {p["status"] for p in out.non_tensor_batch["prove"]} == {"user_turn_cap"}
    assert live_sessions() == 0


def test_bad_calls_and_caps(tiny_dir: Path, exported: Path, tokenizer: Any, by_id: dict[str, Example]) -> None:
    config = compose(tiny_dir, exported, "actor_rollout_ref.rollout.multi_turn.max_assistant_turns=3")
    ex = by_id["bank-chain"]
    steps = [
        {"content": '<tool_call>{"name": "get_account", "arguments": {"account_id": </tool_call>'},   # malformed
        {"calls": [{"name": "wire_money", "arguments": {}}]},                                          # unknown tool
        {"calls": [{"name": "list_accounts", "arguments": {}}]},
        {"calls": [{"name": "list_accounts", "arguments": {}}]},                                       # past the cap
    ]
    scripts = {ex.messages[1].content: steps}
    with ScriptedServer(ScriptedModel(scripts, form="hermes")) as server:
        client = ScriptedClient(server.url, tokenizer)
        data = batch(config, exported / "train.parquet", tokenizer)
        keep = [i for i, p in enumerate(data.non_tensor_batch["extra_info"]) if p["example_id"] == ex.id]
        out = run(workers(config, client), data.select_idxs(keep))
    record = out.non_tensor_batch["prove"][0]
    assert record["status"] == "assistant_turn_cap"
    assert [c["code"] for c in record["calls"]] == ["invalid_arguments", "unknown_tool", None]
    assert len(client.prompts) == 3
    nt = out.non_tensor_batch
    assert nt["episode_calls"][0] == 3 and nt["validity"][0] < 1 and nt["coverage"][0] == 0
    assert nt["solved"][0] == 0.0           # the transfer never happened
    assert live_sessions() == 0


def test_verl_user_turn_cap_counts_tool_rounds(tiny_dir: Path, exported: Path, tokenizer: Any,
                                               by_id: dict[str, Example]) -> None:
    config = compose(tiny_dir, exported, "actor_rollout_ref.rollout.multi_turn.max_user_turns=2")
    ex = by_id["bank-two-turns"]
    steps = [{"calls": [{"name": "get_account", "arguments": {"account_id": "ACC-10001"}}]},
             {"content": "It holds 2687.51."},                      # the follow-up comes: env turn 2
             {"calls": [{"name": "pay_payee", "arguments": {"payee_id": "PAY-10004", "from_account_id": "ACC-10001",
                                                             "amount": 25.0}}]},
             {"content": "never asked"}]
    with ScriptedServer(ScriptedModel({ex.messages[1].content: steps}, form="hermes")) as server:
        client = ScriptedClient(server.url, tokenizer)
        data = batch(config, exported / "train.parquet", tokenizer)
        keep = [i for i, p in enumerate(data.non_tensor_batch["extra_info"]) if p["example_id"] == ex.id]
        out = run(workers(config, client), data.select_idxs(keep))
    record = out.non_tensor_batch["prove"][0]
    # The reply after the cap is the last; its calls still run (the payment counts).
    assert record["status"] == "user_turn_cap" and len(client.prompts) == 3
    assert [c["name"] for c in record["calls"]] == ["get_account", "pay_payee"]
    assert out.non_tensor_batch["solved"][0] == 1.0


def test_cancelled_rollout_closes_its_episode(tiny_dir: Path, exported: Path, tokenizer: Any,
                                              by_id: dict[str, Example]) -> None:
    """A rollout cancelled mid-generation (VERL aborts it) still closes its session."""
    from verl.experimental.agent_loop.agent_loop import DictConfigWrap, _agent_loop_registry

    config = compose(tiny_dir, exported)
    ex = by_id["bank-chain"]
    steps = [{"calls": [{"name": "list_accounts", "arguments": {}}]}, {"content": "slow", "delay": 30}]
    with ScriptedServer(ScriptedModel({ex.messages[1].content: steps}, form="hermes")) as server:
        client = ScriptedClient(server.url, tokenizer)
        worker = workers(config, client, reward=False)
        data = batch(config, exported / "train.parquet", tokenizer)
        i = [p["example_id"] for p in data.non_tensor_batch["extra_info"]].index(ex.id)
        kwargs = {k: v[i] for k, v in data.non_tensor_batch.items()}
        from hydra.utils import instantiate

        from prove.integrations.verl.agent_loop import ProveAgentLoop

        loop_cfg = _agent_loop_registry["prove_agent"]
        agent = instantiate(loop_cfg, trainer_config=DictConfigWrap(config), server_manager=client,
                            tokenizer=worker.tokenizer, processor=None, dataset_cls=worker.dataset_cls,
                            data_config=DictConfigWrap(config.data), hf_model_type="qwen2", tools=None)
        assert isinstance(agent, ProveAgentLoop)

        async def go() -> None:
            task = asyncio.ensure_future(agent.run({"temperature": 1.0, "logprobs": False}, **kwargs))
            while len(client.prompts) < 2:          # the second generation is in flight
                await asyncio.sleep(0.02)
            assert live_sessions() == 1
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

        asyncio.get_event_loop().run_until_complete(go())
        deadline = time.monotonic() + 10
        while live_sessions() and time.monotonic() < deadline:
            time.sleep(0.05)
    assert live_sessions() == 0


@pytest.fixture(scope="module")
def serve_url() -> Iterator[str]:
    if missing("uvicorn") or missing("prove.mcp"):
        pytest.skip("prove.mcp (RemoteEnv) is not available")
    import uvicorn

    from prove.mcp import ServeApp, ServeConfig
    from prove.mcp.app import uvicorn_config

    app = ServeApp(ServeConfig(servers=("banking", "calendar"), port=0))
    server = uvicorn.Server(uvicorn_config(app, port=0, timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, name="prove-serve-verl-test", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(30)


def test_remote_episodes_through_remote_env(tiny_dir: Path, tmp_path: Path, tokenizer: Any, serve_url: str,
                                            examples: list[Example]) -> None:
    from prove.mcp import ControlClient

    export(examples, tmp_path, val=0, env_url=serve_url, record_diff=True)
    config = compose(tiny_dir, tmp_path)
    with ScriptedServer(ScriptedModel(oracle(examples), form="hermes")) as server:
        out = run(workers(config, ScriptedClient(server.url, tokenizer)),
                  batch(config, tmp_path / "train.parquet", tokenizer))
    nt = out.non_tensor_batch
    assert all(p["status"] == "done" for p in nt["prove"]) and list(nt["solved"]) == [1.0] * len(examples)
    chain = next(p for p in nt["prove"] if p["example_id"] == "bank-chain")
    assert {(c["table"], c["op"]) for c in chain["diff"]} >= {("transactions", "insert")}
    control = ControlClient(serve_url)
    try:
        assert control.sessions() == []
    finally:
        control.close()


def test_episodes_on_ray_actors_selected_in_the_exported_config(tiny_dir: Path, tmp_path: Path, tokenizer: Any,
                                                              examples: list[Example]) -> None:
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'prove-rl[ray]')")
    import os
    import shutil
    import tempfile

    from prove.integrations.ray import shared_pool
    from prove.integrations.verl.export import ray_pool_config

    temp = tempfile.mkdtemp(prefix="ray-", dir="/tmp")
    saved = os.environ.get("RAY_AUTH_MODE")
    os.environ["RAY_AUTH_MODE"] = "disabled"
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _temp_dir=temp)
    try:
        spec = ray_pool_config(2, name="prove-verl-test", num_cpus=0.5)
        export(examples, tmp_path, val=0, env_ray=spec, record_diff=True)
        config = compose(tiny_dir, tmp_path)
        with ScriptedServer(ScriptedModel(oracle(examples), form="hermes")) as server:
            out = run(workers(config, ScriptedClient(server.url, tokenizer)),
                      batch(config, tmp_path / "train.parquet", tokenizer))
        nt = out.non_tensor_batch
        assert all(p["status"] == "done" for p in nt["prove"]) and list(nt["solved"]) == [1.0] * len(examples)
        assert all(p["diff"] is not None for p in nt["prove"])             # record_diff reached every rollout
        chain = next(p for p in nt["prove"] if p["example_id"] == "bank-chain")
        assert {(c["table"], c["op"]) for c in chain["diff"]} >= {("transactions", "insert")}
        actors = shared_pool(**{**spec, "max_sessions": 4096, "idle_ttl": 600.0, "call_timeout": 10.0}).actors()
        assert sum(a["stats"]["created"] for a in actors) == len(examples)   # every episode ran on the actors
        assert all(a["sessions"] == [] for a in actors) and live_sessions() == 0
    finally:
        ray.shutdown()
        if saved is None:
            os.environ.pop("RAY_AUTH_MODE", None)
        else:
            os.environ["RAY_AUTH_MODE"] = saved
        shutil.rmtree(temp, ignore_errors=True)


def test_importing_the_loop_keeps_the_options_loaded_from_its_config(exported: Path) -> None:
    """VERL's worker loads agent_loop.yaml into its registry, then hydra imports this module at the
    first rollout: the import must not put the bare class in place of the loaded entry."""
    code = ("import sys\n"
            "from omegaconf import OmegaConf\n"
            "from verl.experimental.agent_loop import agent_loop as verl_loop\n"
            f"for entry in OmegaConf.load({str(exported / 'agent_loop.yaml')!r}):\n"
            "    verl_loop._agent_loop_registry[entry.name] = entry\n"
            "import prove.integrations.verl.agent_loop\n"
            "entry = verl_loop._agent_loop_registry['prove_agent']\n"
            "assert 'call_timeout' in entry and 'env_ray' in entry, dict(entry)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


def test_stock_tool_agent_with_prove_tool(tiny_dir: Path, tmp_path: Path, tokenizer: Any,
                                          examples: list[Example]) -> None:
    """VERL's own tool_agent loop runs ProveTool: one live session per rollout, reaped by the TTL."""
    import yaml

    export(examples, tmp_path, val=0, agent="tool_agent")
    tools = yaml.safe_load((tmp_path / "tool_config.yaml").read_text())
    for t in tools["tools"]:
        t["config"]["idle_ttl"] = 0.5
    (tmp_path / "tool_config.yaml").write_text(yaml.safe_dump(tools))
    config = compose(tiny_dir, tmp_path, f"actor_rollout_ref.rollout.multi_turn.tool_config_path={tmp_path}/tool_config.yaml")
    chain = next(ex for ex in examples if ex.id == "bank-chain")
    # The stock loop stops at the first answer in words; one reply with both calls in order.
    steps = [{"calls": [{"name": c.name, "arguments": c.arguments} for c in chain.gold_calls()]},
             {"content": "Done."}]
    with ScriptedServer(ScriptedModel({chain.messages[1].content: steps}, form="hermes")) as server:
        data = batch(config, tmp_path / "train.parquet", tokenizer)
        i = [p["example_id"] for p in data.non_tensor_batch["extra_info"]].index(chain.id)
        out = run(workers(config, ScriptedClient(server.url, tokenizer)), data.select_idxs([i, i]))
    ttl_pool = pool(4096, 0.5)
    assert ttl_pool.stats().live == 2                   # one session per rollout, left to the TTL
    for sid in ttl_pool.ids():
        assert ttl_pool.get(sid).fingerprint() == chain.fingerprint      # both calls ran on it, in order
    response = tokenizer.decode(out.batch["responses"][0], skip_special_tokens=False)
    assert json.loads(response.split("<tool_response>")[2].split("</tool_response>")[0])["account_id"] == "ACC-10002"
    assert out.non_tensor_batch["score"][0] == pytest.approx(BEST)     # scored from the text by the fallback
    deadline = time.monotonic() + 10              # the pool's reaper closes them once idle past the TTL
    while ttl_pool.stats().live and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ttl_pool.stats().live == 0 and ttl_pool.stats().reaped >= 2
